//! The structure of a player-animation script, with byte spans: what the
//! engine's parser would read where, read with the engine's tokenizer and
//! recovering from any mistake. Tools build their outline, folding, the
//! places of names and the diagnostics the parser's first error does not
//! give (a brace that does not pair, text the engine skips) on it.
//!
//! It is not the parser: it checks no name and keeps reading where the
//! parser stops. It follows the parser's layout:
//!
//! * a section keyword (`DEFINES`, `ANIMATIONS`, `CANNED_ANIMATIONS`,
//!   `STATECHANGES`, `EVENTS`, any case) outside braces starts a section;
//!   before the first one the parser reads defines;
//! * in `DEFINES` only `set COND NAME = ...` lines count; every other word,
//!   braces too, is skipped;
//! * in `ANIMATIONS` and `CANNED_ANIMATIONS`: `state NAME {`, in it a move
//!   type `NAME {`, in that condition lines each with `{` commands `}`;
//! * in `STATECHANGES`: `statechange TO FROM {` with condition lines in it;
//!   in `EVENTS`: an event `NAME {` with condition lines in it.
//!
//! ```
//! use uoanim_core::outline::{outline, Kind};
//!
//! let text = b"ANIMATIONS\nstate combat\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth a\n\t\t}\n\t}\n}\n";
//! let o = outline(text);
//! let section = &o.items[0];
//! let state = &section.children[0];
//! assert_eq!((state.kind, state.name.map(|n| &text[n.start..n.end])), (Kind::State, Some(&b"combat"[..])));
//! assert_eq!(state.children[0].children[0].kind, Kind::Conditions);
//! assert!(o.braces.is_none());
//! ```

use crate::lexis::Tokenizer;
use alloc::vec::Vec;

/// A byte range of the text, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// The script's sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// `DEFINES`.
    Defines,
    /// `ANIMATIONS`.
    Animations,
    /// `CANNED_ANIMATIONS`.
    CannedAnimations,
    /// `STATECHANGES`.
    StateChanges,
    /// `EVENTS`.
    Events,
}

/// The section keywords, in the order of [`Section`].
pub const SECTION_KEYWORDS: [&[u8]; 5] = [b"DEFINES", b"ANIMATIONS", b"CANNED_ANIMATIONS", b"STATECHANGES", b"EVENTS"];

impl Section {
    fn of(word: &[u8]) -> Option<Section> {
        let i = SECTION_KEYWORDS.iter().position(|k| k.eq_ignore_ascii_case(word))?;
        Some([Section::Defines, Section::Animations, Section::CannedAnimations, Section::StateChanges, Section::Events][i])
    }
}

/// What an [`Item`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A section keyword; the section's items are its children.
    Section(Section),
    /// `set COND NAME = EXPRESSION`: the name is NAME.
    Define,
    /// `state NAME {`.
    State,
    /// A move type's block in a state: `NAME {`.
    MoveType,
    /// `statechange TO FROM {`: the name spans TO and FROM.
    StateChange,
    /// An event's block: `NAME {`.
    Event,
    /// A condition line and its block of commands.
    Conditions,
}

/// One item of the script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What it is.
    pub kind: Kind,
    /// Its words: from its first token to the end of its line's last one.
    pub head: Span,
    /// Its name, where it has one.
    pub name: Option<Span>,
    /// Its block, from its `{` to its `}` included; to the end of the text
    /// when the `{` is never closed.
    pub block: Option<Span>,
    /// The items in it.
    pub children: Vec<Item>,
}

/// A brace that does not pair (the first one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BraceTrouble {
    /// A `{` open at the end of the text: the first block whose body is
    /// indented and that a line indented no deeper than its `{` follows
    /// before its `}` (`missing_before`: that line's start, where its `}`
    /// seems missing), else the innermost `{` left open.
    Unclosed {
        /// The `{`.
        open: usize,
        /// The start of the line before which its `}` seems missing.
        missing_before: Option<usize>,
    },
    /// A `}` with no open `{`: the first `}` indented unlike the `{` it
    /// closes, if one comes before it (the likely extra one), else itself.
    Stray {
        /// The `}`.
        close: usize,
    },
}

/// What [`outline`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The items before the first section keyword (defines), then the
    /// sections.
    pub items: Vec<Item>,
    /// Runs of text the engine skips: words of `DEFINES` (and before the
    /// first section) that are not `set` lines, each run up to the next
    /// `set` line or section keyword.
    pub skipped: Vec<Span>,
    /// The first brace that does not pair.
    pub braces: Option<BraceTrouble>,
    /// Whether the text has a section keyword.
    pub has_section: bool,
}

/// An open brace.
struct Open {
    pos: usize,
    indent: usize,
    /// Indentation of the first line in it.
    body: Option<usize>,
    /// The item whose block it opens.
    item: Option<Item>,
}

/// Indentation of the line holding `pos`, a tab to the next multiple of 4.
pub(crate) fn indent_of(text: &[u8], pos: usize) -> usize {
    let mut col = 0;
    for &b in &text[line_start(text, pos)..] {
        match b {
            b' ' => col += 1,
            b'\t' => col = col / 4 * 4 + 4,
            _ => break,
        }
    }
    col
}

/// Start of the line holding `pos`.
pub(crate) fn line_start(text: &[u8], pos: usize) -> usize {
    text[..pos.min(text.len())].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

struct Reader<'t> {
    text: &'t [u8],
    tok: Tokenizer<'t>,
}

impl<'t> Reader<'t> {
    /// The next token (`None` at the end) and its span.
    fn next(&mut self, cross_lines: bool) -> Option<(Vec<u8>, Span)> {
        let t = self.tok.read(cross_lines).to_vec();
        if t.is_empty() {
            return None;
        }
        let start = self.tok.token_pos();
        let end = self.tok.cursor().unwrap_or(self.text.len()).max(start + 1).min(self.text.len());
        Some((t, Span { start, end }))
    }

    /// The rest of the line's tokens.
    fn rest_of_line(&mut self) -> Vec<(Vec<u8>, Span)> {
        let mut out = Vec::new();
        while let Some(t) = self.next(false) {
            out.push(t);
        }
        out
    }
}

/// The items being built: the top level, the open section and the open
/// braces.
struct Builder {
    items: Vec<Item>,
    section: Option<Item>,
    open: Vec<Open>,
    /// An item read up to where its `{` should come.
    pending: Option<Item>,
}

impl Builder {
    /// Adds a finished item to the innermost open item, else to the
    /// section, else to the top level.
    fn add(&mut self, item: Item) {
        if let Some(parent) = self.open.iter_mut().rev().find_map(|o| o.item.as_mut()) {
            parent.children.push(item);
        } else if let Some(section) = self.section.as_mut() {
            section.children.push(item);
        } else {
            self.items.push(item);
        }
    }

    fn flush_pending(&mut self) {
        if let Some(item) = self.pending.take() {
            self.add(item);
        }
    }

    fn close_section(&mut self, end: usize) {
        if let Some(mut s) = self.section.take() {
            s.block = Some(Span { start: s.head.start, end });
            self.items.push(s);
        }
    }
}

/// Reads the structure of `text` (a NUL ends it, as for the engine).
pub fn outline(text: &[u8]) -> Outline {
    let mut r = Reader { text, tok: Tokenizer::new(text) };
    let mut b = Builder { items: Vec::new(), section: None, open: Vec::new(), pending: None };
    let mut out = Outline::default();
    let mut section: Option<Section> = None;
    let mut skipped: Option<Span> = None;
    let mut misclosed: Option<usize> = None;
    let mut dedent: Option<(usize, usize)> = None;
    let mut stray: Option<usize> = None;
    let mut last_line = usize::MAX;
    let end_of_text = text.iter().position(|&b| b == 0).unwrap_or(text.len());

    while let Some((t, span)) = r.next(true) {
        let start_of_line = line_start(text, span.start);
        let first_on_line = start_of_line != last_line;
        last_line = start_of_line;
        let defines = matches!(section, None | Some(Section::Defines));

        // Section keywords, outside braces.
        if b.open.is_empty() {
            if let Some(s) = Section::of(&t) {
                b.flush_pending();
                if let Some(run) = skipped.take() {
                    out.skipped.push(run);
                }
                b.close_section(span.start);
                b.section = Some(Item { kind: Kind::Section(s), head: span, name: Some(span), block: None, children: Vec::new() });
                section = Some(s);
                out.has_section = true;
                continue;
            }
        }
        if defines {
            if t.eq_ignore_ascii_case(b"set") {
                if let Some(run) = skipped.take() {
                    out.skipped.push(run);
                }
                let rest = r.rest_of_line();
                let end = rest.last().map_or(span.end, |(_, s)| s.end);
                b.add(Item { kind: Kind::Define, head: Span { start: span.start, end }, name: rest.get(1).map(|(_, s)| *s), block: None, children: Vec::new() });
            } else {
                let rest = r.rest_of_line();
                let end = rest.last().map_or(span.end, |(_, s)| s.end);
                let run = skipped.get_or_insert(Span { start: span.start, end });
                run.end = end;
            }
            continue;
        }

        // Indentation: a line in an open block, indented no deeper than
        // its `{` while the block's body is deeper, suggests its `}` is
        // missing before it.
        if first_on_line && t != b"}" {
            let indent = indent_of(text, span.start);
            if let Some(top) = b.open.last_mut() {
                match top.body {
                    None => top.body = Some(indent),
                    Some(body) if dedent.is_none() && body > top.indent && indent <= top.indent => dedent = Some((top.pos, start_of_line)),
                    _ => {}
                }
            }
        }
        if t == b"{" {
            let item = b.pending.take();
            b.open.push(Open { pos: span.start, indent: indent_of(text, span.start), body: None, item });
            continue;
        }
        if t == b"}" {
            b.flush_pending();
            match b.open.pop() {
                Some(o) => {
                    if misclosed.is_none() && o.indent != indent_of(text, span.start) {
                        misclosed = Some(span.start);
                    }
                    if let Some(mut item) = o.item {
                        item.block = Some(Span { start: o.pos, end: span.end });
                        b.add(item);
                    }
                }
                None => {
                    if stray.is_none() {
                        stray = Some(misclosed.unwrap_or(span.start));
                    }
                }
            }
            continue;
        }

        // A head: what it is follows from the section and the depth.
        b.flush_pending();
        let depth = b.open.len();
        let in_states = matches!(section, Some(Section::Animations | Section::CannedAnimations));
        let (kind, name, rest) = match (in_states, depth) {
            (true, 0) if t.eq_ignore_ascii_case(b"state") => {
                let rest = r.rest_of_line();
                (Kind::State, rest.first().map(|(_, s)| *s), rest)
            }
            (true, 0) => (Kind::State, Some(span), r.rest_of_line()),
            (true, 1) => (Kind::MoveType, Some(span), r.rest_of_line()),
            (true, 2) | (false, 1) => (Kind::Conditions, None, r.rest_of_line()),
            (false, 0) if section == Some(Section::StateChanges) => {
                let rest = r.rest_of_line();
                let name = match (rest.first(), rest.get(1)) {
                    (Some((_, a)), Some((_, z))) => Some(Span { start: a.start, end: z.end }),
                    (Some((_, a)), None) => Some(*a),
                    _ => None,
                };
                (Kind::StateChange, name, rest)
            }
            (false, 0) => (Kind::Event, Some(span), r.rest_of_line()),
            // commands (and anything deeper): no item
            _ => {
                r.rest_of_line();
                continue;
            }
        };
        let end = rest.last().map_or(span.end, |(_, s)| s.end);
        b.pending = Some(Item { kind, head: Span { start: span.start, end }, name, block: None, children: Vec::new() });
    }
    b.flush_pending();
    if let Some(run) = skipped.take() {
        out.skipped.push(run);
    }
    let innermost = b.open.last().map(|o| o.pos);
    while let Some(o) = b.open.pop() {
        if let Some(mut item) = o.item {
            item.block = Some(Span { start: o.pos, end: end_of_text });
            b.add(item);
        }
    }
    b.close_section(end_of_text);
    out.items = b.items;
    out.braces = match (stray, innermost) {
        (Some(close), _) => Some(BraceTrouble::Stray { close }),
        (None, Some(last)) => Some(match dedent {
            Some((open, at)) => BraceTrouble::Unclosed { open, missing_before: Some(at) },
            None => BraceTrouble::Unclosed { open: last, missing_before: None },
        }),
        (None, None) => None,
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::prelude::rust_2021::*;

    const SCRIPT: &[u8] = b"DEFINES\nset weapons pistols = colt_mp // a define\nANIMATIONS\nstate combat\n{\n\tidle\n\t{\n\t\tweapons pistols\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tdefault\n\t\t{\n\t\t\tboth b\n\t\t}\n\t}\n}\nSTATECHANGES\nstatechange crouch combat\n{\n\tdefault\n\t{\n\t\ttorso c\n\t}\n}\nEVENTS\nfireweapon\n{\n\tdefault\n\t{\n\t\ttorso d\n\t}\n}\n";

    fn at(text: &[u8], s: Option<Span>) -> &[u8] {
        s.map_or(&b""[..], |s| &text[s.start..s.end])
    }

    #[test]
    fn sections_blocks_and_names() {
        let o = outline(SCRIPT);
        assert!(o.braces.is_none() && o.skipped.is_empty() && o.has_section);
        let kinds: Vec<Kind> = o.items.iter().map(|i| i.kind).collect();
        assert_eq!(kinds, [Kind::Section(Section::Defines), Kind::Section(Section::Animations), Kind::Section(Section::StateChanges), Kind::Section(Section::Events)]);
        let define = &o.items[0].children[0];
        assert_eq!((define.kind, at(SCRIPT, define.name), at(SCRIPT, Some(define.head))), (Kind::Define, &b"pistols"[..], &b"set weapons pistols = colt_mp"[..]));
        let state = &o.items[1].children[0];
        assert_eq!((state.kind, at(SCRIPT, state.name)), (Kind::State, &b"combat"[..]));
        let block = at(SCRIPT, state.block);
        assert!(block.starts_with(b"{\n\tidle") && block.ends_with(b"\t}\n}"), "{block:?}");
        let idle = &state.children[0];
        assert_eq!((idle.kind, at(SCRIPT, idle.name), idle.children.len()), (Kind::MoveType, &b"idle"[..], 2));
        assert_eq!(at(SCRIPT, Some(idle.children[0].head)), b"weapons pistols");
        assert_eq!(at(SCRIPT, idle.children[1].block), b"{\n\t\t\tboth b\n\t\t}");
        let change = &o.items[2].children[0];
        assert_eq!((change.kind, at(SCRIPT, change.name), change.children.len()), (Kind::StateChange, &b"crouch combat"[..], 1));
        let event = &o.items[3].children[0];
        assert_eq!((event.kind, at(SCRIPT, event.name), event.children[0].kind), (Kind::Event, &b"fireweapon"[..], Kind::Conditions));
        // the section spans to the next one
        assert_eq!(o.items[1].block.map(|b| b.end), o.items[2].block.map(|b| b.start));
    }

    #[test]
    fn skipped_text_and_no_section() {
        let o = outline(b"hello world\nset weapons a = none\n  more words\n{ }\n");
        assert!(!o.has_section && o.braces.is_none(), "braces of DEFINES are skipped words");
        let runs: Vec<&[u8]> = o.skipped.iter().map(|s| at(b"hello world\nset weapons a = none\n  more words\n{ }\n", Some(*s))).collect();
        assert_eq!(runs, [&b"hello world"[..], &b"more words\n{ }"[..]]);
        let o = outline(b"ANIMATOINS\n{\n}\n");
        assert_eq!((o.skipped.len(), o.has_section), (1, false));
    }

    #[test]
    fn an_unclosed_block_and_where_its_brace_seems_missing() {
        let text = b"ANIMATIONS\nstate combat\n{\n\tidle\n\t{\n\t\tweapons a\n\t\t{\n\t\t\tboth a\n\t\tweapons b\n\t\t{\n\t\t\tboth b\n\t\t}\n\t}\n}\n";
        let o = outline(text);
        let open = text.windows(13).position(|w| w == b"\t\t{\n\t\t\tboth a").unwrap() + 2;
        let line = text.windows(11).position(|w| w == b"\t\tweapons b").unwrap();
        assert_eq!(o.braces, Some(BraceTrouble::Unclosed { open, missing_before: Some(line) }));
        // the last '}' missing: the innermost open one, no hint
        let text = b"EVENTS\npain\n{\n\tdefault\n\t{\n\t\tboth a\n\t}\n";
        let o = outline(text);
        assert_eq!(o.braces, Some(BraceTrouble::Unclosed { open: 12, missing_before: None }));
        assert_eq!(o.items[0].children[0].block, Some(Span { start: 12, end: text.len() }));
    }

    #[test]
    fn an_extra_brace() {
        let text = b"EVENTS\npain\n{\n\tdefault\n\t{\n\t\tboth a\n\t\t}\n\t}\n}\n";
        let o = outline(text);
        let extra = text.windows(3).position(|w| w == b"\t\t}").unwrap() + 2;
        assert_eq!(o.braces, Some(BraceTrouble::Stray { close: extra }));
    }

    #[test]
    fn any_bytes_give_an_outline() {
        let mut rng = crate::testing::Rng::new(0x2545_f491_4f6c_dd1d);
        let words: [&[u8]; 12] = [b"{", b"}", b"state", b"ANIMATIONS", b"EVENTS", b"set", b"x", b"\n", b"\t", b"\"q", b"//", b"\0"];
        for _ in 0..crate::rounds(2_000) {
            let mut text = Vec::new();
            for _ in 0..rng.below(40) {
                text.extend_from_slice(words[rng.index(words.len())]);
                text.push(b' ');
            }
            let o = outline(&text);
            fn check(items: &[Item], len: usize) {
                for i in items {
                    assert!(i.head.start <= i.head.end && i.head.end <= len);
                    if let Some(b) = i.block {
                        assert!(b.start <= b.end && b.end <= len);
                    }
                    check(&i.children, len);
                }
            }
            check(&o.items, text.len());
        }
    }
}
