//! The structure of an `.atr` text with byte spans: its tokens as the
//! engine's tokenizer cuts them, its names with their blocks and
//! properties, and the facts of its braces, recovering from any mistake.
//! Tools build their outline, highlighting, folding, the places of names
//! and the explanations of the parser's errors on it.
//!
//! It is not the parser ([`crate::atr`]): it checks nothing and keeps
//! reading where the parser stops. It reads the tokens that
//! [`crate::atr::tokenize`] cuts (white space is every byte whose signed
//! value is at most 32, `//` and `/* */` comments, quoted tokens, the text
//! ends at its first NUL) and follows the parser's layout:
//!
//! * a token that is not `{`, `}` or `:` is a name, in the block of the
//!   innermost `{` open that a name opened;
//! * a `:` starts the name's properties: the tokens after it up to the end
//!   of the line (or a brace);
//! * a `{` opens a block of the name before it, a `}` closes the innermost
//!   one.
//!
//! ```
//! use uoanim_core::tree_outline::{outline, Role};
//!
//! let text = b"main\n{\n\ttorso : loopsync\n\t{\n\t\tpt_a // a leaf\n\t}\n}\n";
//! let o = outline(text);
//! let names: Vec<&[u8]> = o.nodes.iter().map(|n| &text[n.name.start..n.name.end]).collect();
//! assert_eq!(names, [&b"main"[..], b"torso", b"pt_a"]);
//! let torso = &o.nodes[1];
//! assert_eq!((torso.parent, torso.properties.len()), (Some(0), 1));
//! assert_eq!(torso.block.map(|b| &text[b.start..b.end]), Some(&b"{\n\t\tpt_a // a leaf\n\t}"[..]));
//! assert_eq!(o.tokens[3].role, Role::Colon);
//! assert!(o.braces_pair() && o.depth_at(text.len()) == 0);
//! ```

use crate::atr::{tokenize, Class, Token};
use crate::lexis::{class_of, scan_quoted, token_end, DELIM};
use crate::names::{NameId, Names};
use crate::outline::{indent_of, line_start, Span};
use alloc::vec::Vec;

/// What a token is in the outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A name: the node of this index in [`TreeOutline::nodes`].
    Name(usize),
    /// `:`, before a name's properties.
    Colon,
    /// A property: a token after a `:` on its line.
    Property,
    /// `{`.
    Open,
    /// `}`.
    Close,
}

/// One token, as the engine's tokenizer cuts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its bytes; a quoted token's from its opening quote to past its
    /// closing one.
    pub span: Span,
    /// What the parser takes it for.
    pub class: Class,
    /// What it is in the outline.
    pub role: Role,
    /// No token comes before it on its line (a line break inside a block
    /// comment does not count, as for the engine).
    pub first_on_line: bool,
    /// Its lowercased name in the outline's table.
    name: NameId,
}

/// A name of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The name's token.
    pub name: Span,
    /// The index of the name whose block holds it (`None`: at the top).
    pub parent: Option<usize>,
    /// The tokens after its `:`.
    pub properties: Vec<Span>,
    /// Its block, from its `{` to its `}` included; to the end of the text
    /// when the `{` is never closed. `None`: a leaf.
    pub block: Option<Span>,
}

impl Node {
    /// The end of its block, else of its name.
    pub fn end(&self) -> usize {
        self.block.map_or(self.name.end, |b| b.end)
    }
}

/// What [`outline`] found.
#[derive(Default)]
pub struct TreeOutline {
    /// The tokens, in text order.
    pub tokens: Vec<Piece>,
    /// The names, in text order.
    pub nodes: Vec<Node>,
    /// The tokens' lowercased names.
    names: Names,
}

/// Reads the structure of `text` (a NUL ends it, as for the engine).
pub fn outline(text: &[u8]) -> TreeOutline {
    let mut names = Names::new();
    let mut cut: Vec<Token> = Vec::new();
    tokenize(text, &mut names, &mut cut);
    let text = &text[..text.iter().position(|&b| b == 0).unwrap_or(text.len())];
    let mut tokens = Vec::with_capacity(cut.len());
    let mut nodes: Vec<Node> = Vec::new();
    // the open braces, each with the name whose block it opens
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut last: Option<usize> = None;
    let mut in_properties = false;
    for (i, t) in cut.iter().enumerate().filter(|(_, t)| t.class != Class::End) {
        let start = t.start as usize;
        let end = if text.get(start) == Some(&b'"') { scan_quoted(text, start, &mut []).end } else { token_end(text, start) };
        let span = Span { start, end };
        let first_on_line = t.newline_before || i == 0;
        in_properties &= !first_on_line;
        let role = match t.class {
            Class::Open => {
                in_properties = false;
                if let Some(node) = last.and_then(|l| nodes.get_mut(l)) {
                    node.block = Some(Span { start, end: text.len() });
                }
                open.push(last.take());
                Role::Open
            }
            Class::Close => {
                in_properties = false;
                if let Some(node) = open.pop().flatten().and_then(|n| nodes.get_mut(n)) {
                    if let Some(b) = node.block.as_mut() {
                        b.end = end;
                    }
                }
                last = None;
                Role::Close
            }
            Class::Colon => {
                in_properties = true;
                Role::Colon
            }
            _ if in_properties => {
                if let Some(node) = last.and_then(|l| nodes.get_mut(l)) {
                    node.properties.push(span);
                }
                Role::Property
            }
            _ => {
                let parent = open.iter().rev().find_map(|&o| o);
                nodes.push(Node { name: span, parent, properties: Vec::new(), block: None });
                last = Some(nodes.len() - 1);
                Role::Name(nodes.len() - 1)
            }
        };
        tokens.push(Piece { span, class: t.class, role, first_on_line, name: t.name });
    }
    TreeOutline { tokens, nodes, names }
}

/// Whether a token is a brace as the parser reads one.
fn is_brace(p: &Piece) -> bool {
    matches!(p.class, Class::Open | Class::Close)
}

impl TreeOutline {
    /// The index of the token that starts at `pos`.
    fn index_at(&self, pos: usize) -> Option<usize> {
        self.tokens.binary_search_by_key(&pos, |p| p.span.start).ok()
    }

    /// The token that starts at `pos`.
    pub fn token_at(&self, pos: usize) -> Option<&Piece> {
        self.index_at(pos).map(|i| &self.tokens[i])
    }

    /// The lowercased name of a token the parser reads as a script
    /// identifier ([`Class::Name`]; a quoted one's without its quotes).
    pub fn name_of(&self, piece: &Piece) -> Option<&[u8]> {
        (piece.class == Class::Name).then(|| self.names.get(piece.name))
    }

    /// The lowercased names of the text's tokens that are script
    /// identifiers (names and properties alike), empty ones left out.
    pub fn names(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.tokens.iter().filter_map(|p| self.name_of(p)).filter(|n| !n.is_empty())
    }

    /// The `nth` (from 0) token that is the script identifier `name`, ASCII
    /// case ignored.
    pub fn find_name(&self, name: &[u8], nth: usize) -> Option<&Piece> {
        self.tokens.iter().filter(|p| self.name_of(p).is_some_and(|n| n.eq_ignore_ascii_case(name))).nth(nth)
    }

    /// The braces of the tokens before `pos`: how many `{` are open, and
    /// whether a `}` closed none.
    fn braces_before(&self, pos: usize) -> (usize, bool) {
        let (mut depth, mut stray) = (0usize, false);
        for p in self.tokens.iter().take_while(|p| p.span.start < pos) {
            match p.class {
                Class::Open => depth += 1,
                Class::Close if depth == 0 => stray = true,
                Class::Close => depth -= 1,
                _ => {}
            }
        }
        (depth, stray)
    }

    /// How many `{` are open at `pos` (a `}` that closes none counts for
    /// nothing).
    pub fn depth_at(&self, pos: usize) -> usize {
        self.braces_before(pos).0
    }

    /// Whether the token at `pos` is a `}` that closes no `{`.
    pub fn closes_nothing(&self, pos: usize) -> bool {
        self.token_at(pos).is_some_and(|p| p.class == Class::Close) && self.depth_at(pos) == 0
    }

    /// Whether the braces pair: no `}` without its `{`, none left open.
    pub fn braces_pair(&self) -> bool {
        self.braces_before(usize::MAX) == (0, false)
    }

    /// The end of the block whose `{` is the token at `open`: past the `}`
    /// that closes it, else the end of the text (`len`).
    fn block_end(&self, open: usize, len: usize) -> usize {
        let mut depth = 0usize;
        for p in self.tokens.iter().skip(self.index_at(open).unwrap_or(self.tokens.len())) {
            match p.class {
                Class::Open => depth += 1,
                Class::Close => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return p.span.end;
                    }
                }
                _ => {}
            }
        }
        len
    }

    /// A `{` or `}` at `pos` that is not alone on its line: where the line
    /// break it needs goes, the end of the text before it on its line
    /// (white space left out).
    pub fn brace_not_alone(&self, text: &[u8], pos: usize) -> Option<usize> {
        let p = self.token_at(pos).filter(|p| is_brace(p) && !p.first_on_line)?;
        if !matches!(text.get(p.span.start), Some(b'{' | b'}')) {
            return None;
        }
        let start = line_start(text, pos);
        let last = text.get(start..pos)?.iter().rposition(|&b| class_of(b) & DELIM == 0)?;
        Some(start + last + 1)
    }

    /// Where a `{` seems missing before `pos`: the first line, starting
    /// before `pos`, that holds one name alone and whose next line with a
    /// token (starting before `pos` too) is indented deeper and does not
    /// start with `{`. The name's token and the start of that next line.
    pub fn missing_open(&self, text: &[u8], pos: usize) -> Option<(Span, usize)> {
        // the lines before `pos`: the index of their first token, their
        // number of tokens
        let mut lines: Vec<(usize, usize)> = Vec::new();
        for (i, p) in self.tokens.iter().enumerate() {
            if p.first_on_line {
                if line_start(text, p.span.start) >= pos {
                    break;
                }
                lines.push((i, 1));
            } else if let Some(line) = lines.last_mut() {
                line.1 += 1;
            }
        }
        lines.windows(2).find_map(|w| {
            let ((first, count), (next, _)) = (w[0], w[1]);
            let (name, next) = (&self.tokens[first], &self.tokens[next]);
            let deeper = indent_of(text, next.span.start) > indent_of(text, name.span.start);
            (count == 1 && matches!(name.role, Role::Name(_)) && deeper && text.get(next.span.start) != Some(&b'{')).then(|| (name.span, line_start(text, next.span.start)))
        })
    }

    /// The properties of the last line with a token before `pos`, if it
    /// has a `:`: from the `:` to the end of that line's last token before
    /// `pos`.
    pub fn leaf_properties(&self, pos: usize) -> Option<Span> {
        let last = self.tokens.iter().rposition(|p| p.span.start < pos)?;
        let first = self.tokens[..=last].iter().rposition(|p| p.first_on_line).unwrap_or(0);
        let line = &self.tokens[first..=last];
        let colon = line.iter().find(|p| p.class == Class::Colon)?;
        Some(Span { start: colon.span.start, end: line.last().map_or(colon.span.end, |p| p.span.end) })
    }
}

/// Blanks `text[from..to]`, its line breaks kept.
fn blank(text: &mut [u8], from: usize, to: usize) {
    text.iter_mut().take(to).skip(from).filter(|b| **b != b'\n').for_each(|b| *b = b' ');
}

/// The recovery step of a checker after a parse error at `pos`, for a text
/// the engine's tokenizer cuts (an `.atr` or a player-animation script):
/// a brace not alone on its line gets a line break before it (the white
/// space before it becomes one); an error on a `{` blanks the block it
/// opens; else the line is blanked (line breaks kept, so positions stay),
/// its braces kept unless the error is on one, and when no `{` was kept and
/// the next token is a `{`, the block it opens goes too (it belongs to the
/// bad line). False when nothing changed.
pub fn blank_bad_line(text: &mut [u8], pos: usize) -> bool {
    let before = text.to_vec();
    let pos = pos.min(text.len());
    let o = outline(text);
    if let Some(gap) = o.brace_not_alone(text, pos) {
        if matches!(text.get(gap), Some(b' ' | b'\t')) {
            text[gap] = b'\n';
            return true;
        }
    }
    let at = o.token_at(pos).filter(|p| is_brace(p) && matches!(text.get(pos), Some(b'{' | b'}')));
    if at.is_some_and(|p| p.class == Class::Open) {
        let end = o.block_end(pos, text.len());
        blank(text, pos, end);
        return text != before.as_slice();
    }
    let error_on_brace = at.is_some();
    let start = line_start(text, pos);
    let end = text[pos..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| pos + i);
    let kept: Vec<&Piece> = o.tokens.iter().filter(|p| !error_on_brace && (start..end).contains(&p.span.start) && is_brace(p) && p.span.end == p.span.start + 1).collect();
    let kept_open = kept.iter().any(|p| p.class == Class::Open);
    for (i, b) in text.iter_mut().enumerate().take(end).skip(start) {
        if !kept.iter().any(|p| p.span.start == i) && *b != b'\r' {
            *b = b' ';
        }
    }
    if !kept_open && !error_on_brace {
        let o = outline(text);
        if let Some(next) = o.tokens.iter().find(|p| p.span.start >= end).filter(|p| p.class == Class::Open && text.get(p.span.start) == Some(&b'{')) {
            let (from, to) = (next.span.start, o.block_end(next.span.start, text.len()));
            blank(text, from, to);
        }
    }
    text != before.as_slice()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::prelude::rust_2021::*;

    fn at(text: &[u8], s: Span) -> &[u8] {
        &text[s.start..s.end]
    }

    #[test]
    fn tokens_as_the_engine_cuts_them() {
        // high bytes are white space, `a//b` is one token, `/*/` a whole
        // comment, a quoted token runs to its closing quote
        let text = b"// c\nmain\xe9x /*/ \"a b\" a//b\n\t{ }";
        let o = outline(text);
        let cut: Vec<(&[u8], bool)> = o.tokens.iter().map(|p| (at(text, p.span), p.first_on_line)).collect();
        assert_eq!(cut, [(&b"main"[..], true), (b"x", false), (b"\"a b\"", false), (b"a//b", false), (b"{", true), (b"}", false)]);
        assert_eq!(o.name_of(&o.tokens[0]), Some(&b"main"[..]));
        // the first token is first on its line, a NUL ends the text
        let o = outline(b"a\0 b");
        assert_eq!((o.tokens.len(), o.tokens[0].first_on_line), (1, true));
    }

    #[test]
    fn names_parents_blocks_and_properties() {
        let text = b"main\n{\n\ttorso : loopsync Complete\n\t{\n\t\tpt_a /* x */\n\t}\n\tPB_b\n}\n";
        let o = outline(text);
        let names: Vec<&[u8]> = o.nodes.iter().map(|n| at(text, n.name)).collect();
        assert_eq!(names, [&b"main"[..], b"torso", b"pt_a", b"PB_b"]);
        let parents: Vec<Option<usize>> = o.nodes.iter().map(|n| n.parent).collect();
        assert_eq!(parents, [None, Some(0), Some(1), Some(0)]);
        let blocks: Vec<bool> = o.nodes.iter().map(|n| n.block.is_some()).collect();
        assert_eq!(blocks, [true, true, false, false]);
        let props: Vec<&[u8]> = o.nodes[1].properties.iter().map(|&s| at(text, s)).collect();
        assert_eq!(props, [&b"loopsync"[..], b"Complete"]);
        assert_eq!((o.nodes[0].end(), o.nodes[3].end()), (text.len() - 1, text.len() - 3));
        let roles: Vec<Role> = o.tokens.iter().map(|p| p.role).collect();
        assert_eq!(roles[..6], [Role::Name(0), Role::Open, Role::Name(1), Role::Colon, Role::Property, Role::Property]);
        let all: Vec<&[u8]> = o.names().collect();
        assert_eq!(all, [&b"main"[..], b"torso", b"loopsync", b"complete", b"pt_a", b"pb_b"]);
        assert_eq!(o.find_name(b"pb_B", 0).map(|p| p.span.start), text.windows(4).position(|w| w == b"PB_b"));
        assert!(o.find_name(b"main", 1).is_none());
        // an unclosed block runs to the end of the text
        let o = outline(b"a\n{\n\tb\n");
        assert_eq!(o.nodes[0].block, Some(Span { start: 2, end: 7 }));
    }

    #[test]
    fn braces_that_close_nothing_and_depth() {
        let text = b"a\n{\n\tb\n}\n}\n// }\n";
        let o = outline(text);
        assert_eq!((o.depth_at(4), o.depth_at(8)), (1, 0));
        assert!(!o.closes_nothing(7) && o.closes_nothing(9) && !o.braces_pair());
        assert!(outline(b"a\n{\n\t\"b\" // {\n}\n").braces_pair());
        assert!(!outline(b"a\n{\n").braces_pair());
    }

    #[test]
    fn a_brace_after_a_name_and_a_missing_open() {
        let text = b"a\n{\n\tb {\n\t}\n}\n";
        let o = outline(text);
        assert_eq!(o.brace_not_alone(text, 7), Some(6));
        assert_eq!((o.brace_not_alone(text, 2), o.brace_not_alone(text, 5)), (None, None));
        let text = b"a\n{\n\tturret\n\t\tidle\n\t\tfire\n\t}\n}\n}\n";
        let o = outline(text);
        let stray = text.len() - 2;
        assert!(o.closes_nothing(stray));
        let (name, body) = o.missing_open(text, stray).unwrap();
        assert_eq!((at(text, name), body), (&b"turret"[..], 12));
        assert!(outline(b"a\n\t// a comment\n{\n}\n").missing_open(b"a\n\t// a comment\n{\n}\n", 99).is_none());
    }

    #[test]
    fn the_properties_of_a_leaf() {
        let text = b"a\n{\n\tb : loopsync complete // c\n\tc\n}\n";
        let o = outline(text);
        let c = text.windows(3).position(|w| w == b"\tc\n").unwrap() + 1;
        assert_eq!(o.leaf_properties(c).map(|s| at(text, s)), Some(&b": loopsync complete"[..]));
        assert_eq!(o.leaf_properties(2), None);
    }

    #[test]
    fn the_recovery_step() {
        // a brace after a name goes to the next line
        let mut text = b"a\n{\n\tb {\n\t}\n}\n".to_vec();
        assert!(blank_bad_line(&mut text, 7));
        assert_eq!(text, b"a\n{\n\tb\n{\n\t}\n}\n");
        // a bad line goes with the block after it, braces of other lines
        // kept
        let mut text = b"a\n{\n\tb x\n\t{\n\t\tc\n\t}\n}\n".to_vec();
        assert!(blank_bad_line(&mut text, 7));
        assert_eq!(text, b"a\n{\n    \n\t \n   \n  \n}\n");
        // an error on a `{` blanks its block; on a `}`, its line
        let mut text = b"{\n\tb\n}\nc\n".to_vec();
        assert!(blank_bad_line(&mut text, 0));
        assert_eq!(text, b" \n  \n \nc\n");
        let mut text = b"}\n".to_vec();
        assert!(blank_bad_line(&mut text, 0) && text == b" \n");
        assert!(!blank_bad_line(&mut text, 0));
    }

    #[test]
    fn any_bytes_give_an_outline() {
        let mut rng = crate::testing::Rng::new(0x2545_f491_4f6c_dd1d);
        let words: [&[u8]; 12] = [b"{", b"}", b":", b"name", b"loopsync", b"\"q", b"\n", b"\t", b"//", b"/*", b"\xe9", b"\0"];
        for _ in 0..crate::rounds(2_000) {
            let mut text = Vec::new();
            for _ in 0..rng.below(40) {
                text.extend_from_slice(words[rng.index(words.len())]);
                text.push(b' ');
            }
            let o = outline(&text);
            for p in &o.tokens {
                assert!(p.span.start < p.span.end && p.span.end <= text.len());
            }
            for n in &o.nodes {
                assert!(n.name.end <= n.end() && n.end() <= text.len() && n.parent.is_none_or(|p| p < o.nodes.len()));
            }
            let len = text.len();
            for pos in 0..=len {
                let _ = (o.depth_at(pos), o.closes_nothing(pos), o.missing_open(&text, pos), o.leaf_properties(pos), o.brace_not_alone(&text, pos));
            }
            let mut work = text.clone();
            blank_bad_line(&mut work, rng.index(len + 1));
            assert_eq!(work.len(), len);
        }
    }
}
