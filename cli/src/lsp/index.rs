//! The names of a script and of a tree with their places: what the
//! language server's outline, folding, references, rename, semantic tokens
//! and inlay hints are made of. A script's structure is
//! [`uoanim_core::outline`]'s; this module reads the words of its heads and
//! blocks.

use crate::script::{condition_names, table_names};
use uoanim_core::literals::Literal;
use uoanim_core::outline::{Item, Kind, Outline, Span};

/// What a word of a script or tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// A section keyword.
    Section,
    /// A define's name, in its `set` line or in a condition.
    Define,
    /// A state's name (`state NAME`, a state change's).
    State,
    /// A move type (a block of a state, a value of `movetype`).
    MoveType,
    /// An event's name.
    Event,
    /// An animation name (after `both`, `torso`, `legs`; a tree's name).
    Animation,
    /// A condition key.
    Condition,
    /// A value of a condition.
    Value,
    /// `set`, `state`, `statechange`, `default`, the operators, the
    /// commands and their parameters, a tree's flags.
    Keyword,
    /// A number.
    Number,
}

impl What {
    /// A name the script or a tree defines (not the engine): it can be
    /// renamed.
    pub fn renamable(self) -> bool {
        matches!(self, What::Define | What::Animation)
    }

    /// What the word is, in the words of a message.
    pub fn said(self) -> &'static str {
        match self {
            What::Section => "a section keyword",
            What::Define => "a define",
            What::State => "a state",
            What::MoveType => "a move type",
            What::Event => "an event",
            What::Animation => "an animation",
            What::Condition => "a condition",
            What::Value => "a condition value",
            What::Keyword => "a keyword",
            What::Number => "a number",
        }
    }
}

/// One word of a file with what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub what: What,
    pub start: usize,
    pub end: usize,
    /// Where it is defined (a define's `set` line, a state's or move type's
    /// or event's block, a tree's name), not a use.
    pub decl: bool,
}

fn space(b: u8) -> bool {
    (b as i8) <= 32
}

/// The comments of a text as the engine's tokenizer skips them: `//` to
/// the end of the line, `/*` to `*/` (true: a block comment).
pub fn comments(text: &[u8]) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'"' {
            // a quoted token: to its closing quote on the line
            i += 1;
            while i < text.len() && text[i] != b'"' && text[i] != b'\n' {
                i += 1;
            }
            i += 1;
        } else if text[i..].starts_with(b"//") {
            let s = i;
            while i < text.len() && text[i] != b'\n' {
                i += 1;
            }
            out.push((s, i, false));
        } else if text[i..].starts_with(b"/*") {
            let s = i;
            i = text[i + 2..].windows(2).position(|w| w == b"*/").map_or(text.len(), |e| i + 2 + e + 2);
            out.push((s, i, true));
        } else {
            i += 1;
        }
    }
    out
}

/// The words of `text[start..end]`: runs of bytes that are not white
/// space nor a comma, comments left out.
pub fn words(text: &[u8], start: usize, end: usize) -> Vec<(usize, usize)> {
    let end = end.min(text.len());
    let mut out = Vec::new();
    let mut i = start.min(end);
    while i < end {
        let b = text[i];
        if space(b) || b == b',' {
            i += 1;
        } else if text[i..end].starts_with(b"//") {
            while i < end && text[i] != b'\n' {
                i += 1;
            }
        } else if text[i..end].starts_with(b"/*") {
            i = text[i + 2..end].windows(2).position(|w| w == b"*/").map_or(end, |e| i + 2 + e + 2);
        } else {
            let s = i;
            while i < end && !space(text[i]) && text[i] != b',' && !text[i..end].starts_with(b"//") && !text[i..end].starts_with(b"/*") {
                i += 1;
            }
            out.push((s, i));
        }
    }
    out
}

fn lower_names(table: Literal) -> Vec<String> {
    table_names(table).iter().map(|n| String::from_utf8_lossy(n).to_ascii_lowercase()).collect()
}

/// The engine's names the index tells apart.
pub struct Vocabulary {
    pub conditions: Vec<String>,
    pub move_types: Vec<String>,
    pub body_parts: Vec<String>,
}

impl Vocabulary {
    pub fn new() -> Vocabulary {
        Vocabulary {
            conditions: condition_names().iter().map(|n| String::from_utf8_lossy(n).to_ascii_lowercase()).collect(),
            move_types: lower_names(Literal::MoveTypes),
            body_parts: lower_names(Literal::BodyParts),
        }
    }
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary::new()
    }
}

/// The parameters of a command (`both NAME duration 700`).
const COMMAND_WORDS: &[&str] = &["duration", "blendtime", "sound", "turretanim"];

/// The defines of an outline: (name as written, its item).
pub fn defines<'o>(text: &[u8], o: &'o Outline) -> Vec<(String, &'o Item)> {
    let mut out = Vec::new();
    walk(&o.items, &mut |i| {
        if let (Kind::Define, Some(n)) = (i.kind, i.name) {
            out.push((String::from_utf8_lossy(&text[n.start..n.end]).into_owned(), i));
        }
    });
    out
}

/// Calls `f` on every item, parents before their children.
pub fn walk<'o>(items: &'o [Item], f: &mut impl FnMut(&'o Item)) {
    for i in items {
        f(i);
        walk(&i.children, f);
    }
}

/// Every word of a script that the index knows, in text order.
pub fn script_occurrences(text: &[u8], o: &Outline, v: &Vocabulary) -> Vec<Occurrence> {
    let define_names: Vec<String> = defines(text, o).into_iter().map(|(n, _)| n.to_ascii_lowercase()).collect();
    let word = |s: usize, e: usize| String::from_utf8_lossy(&text[s..e]).to_ascii_lowercase();
    let mut out = Vec::new();
    let mut push = |what, (start, end): (usize, usize), decl| out.push(Occurrence { what, start, end, decl });
    // The words of an expression (after a condition key, or a define's `=`)
    // of condition `key`.
    let value = |w: &str, key: &str| -> What {
        if ["and", "minus", "not"].contains(&w) {
            What::Keyword
        } else if define_names.iter().any(|d| d == w) {
            What::Define
        } else if key == "movetype" && v.move_types.iter().any(|m| m == w) {
            What::MoveType
        } else if w.bytes().all(|b| b.is_ascii_digit()) {
            What::Number
        } else {
            What::Value
        }
    };
    let mut all: Vec<&Item> = Vec::new();
    walk(&o.items, &mut |i| all.push(i));
    for item in all {
        let head = words(text, item.head.start, item.head.end);
        match item.kind {
            Kind::Section(_) => push(What::Section, (item.head.start, item.head.end), true),
            Kind::Define => {
                let mut key = String::new();
                let mut after_eq = false;
                for (n, &(s, e)) in head.iter().enumerate() {
                    let w = word(s, e);
                    match n {
                        0 => push(What::Keyword, (s, e), false),
                        1 => {
                            key = w;
                            push(What::Condition, (s, e), false);
                        }
                        2 => push(What::Define, (s, e), true),
                        _ if w == "=" => after_eq = true,
                        _ if after_eq => push(value(&w, &key), (s, e), false),
                        _ => {}
                    }
                }
            }
            Kind::State | Kind::MoveType | Kind::Event => {
                let what = match item.kind {
                    Kind::State => What::State,
                    Kind::MoveType => What::MoveType,
                    _ => What::Event,
                };
                for &(s, e) in &head {
                    if item.name == Some(Span { start: s, end: e }) {
                        push(what, (s, e), true);
                    } else if word(s, e) == "state" {
                        push(What::Keyword, (s, e), false);
                    }
                }
            }
            Kind::StateChange => {
                for (n, &(s, e)) in head.iter().enumerate() {
                    push(if n == 0 { What::Keyword } else { What::State }, (s, e), false);
                }
            }
            Kind::Conditions => {
                let mut key = String::new();
                for &(s, e) in &head {
                    let w = word(s, e);
                    if v.conditions.contains(&w) {
                        key = w;
                        push(What::Condition, (s, e), false);
                    } else if w == "default" {
                        push(What::Keyword, (s, e), false);
                    } else {
                        push(value(&w, &key), (s, e), false);
                    }
                }
                if let Some(b) = item.block {
                    let mut next_is_animation = false;
                    for (s, e) in words(text, b.start, b.end) {
                        let w = word(s, e);
                        if w == "{" || w == "}" {
                            continue;
                        }
                        if next_is_animation {
                            push(What::Animation, (s, e), false);
                            next_is_animation = false;
                        } else if v.body_parts.contains(&w) {
                            push(What::Keyword, (s, e), false);
                            next_is_animation = true;
                        } else if COMMAND_WORDS.contains(&w.as_str()) {
                            push(What::Keyword, (s, e), false);
                        } else if w.bytes().all(|b| b.is_ascii_digit()) {
                            push(What::Number, (s, e), false);
                        }
                    }
                }
            }
        }
    }
    out.sort_by_key(|o| o.start);
    out.dedup_by_key(|o| o.start);
    out
}

/// The occurrence at byte `at` (a word touching it).
pub fn occurrence_at(occ: &[Occurrence], at: usize) -> Option<&Occurrence> {
    occ.iter().find(|o| o.start <= at && at <= o.end)
}

/// A text's line starts, for byte offset → LSP position.
pub struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The 0-based line of byte `at`.
    pub fn line(&self, at: usize) -> u32 {
        (self.starts.partition_point(|&s| s <= at.min(self.text.len())) - 1) as u32
    }

    /// The LSP position (UTF-16 code units) of byte `at`.
    pub fn position(&self, at: usize) -> lsp_types::Position {
        let at = at.min(self.text.len());
        let line = self.line(at);
        let start = self.starts[line as usize];
        let at = (start..=at).rev().find(|&i| self.text.is_char_boundary(i)).unwrap_or(start);
        lsp_types::Position { line, character: self.text[start..at].encode_utf16().count() as u32 }
    }

    pub fn range(&self, start: usize, end: usize) -> lsp_types::Range {
        lsp_types::Range { start: self.position(start), end: self.position(end) }
    }

    /// The byte where line `line` (0-based) starts.
    pub fn start_of(&self, line: u32) -> usize {
        self.starts.get(line as usize).copied().unwrap_or(self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_skip_commas_and_comments() {
        let t = b"weapons a, b /* c */ d // e\nf";
        let w: Vec<&[u8]> = words(t, 0, t.len()).into_iter().map(|(s, e)| &t[s..e]).collect();
        assert_eq!(w, [&b"weapons"[..], b"a", b"b", b"d", b"f"]);
        assert_eq!(comments(t), [(13, 20, true), (23, 27, false)]);
    }

    #[test]
    fn the_words_of_a_script() {
        let t = b"DEFINES\nset weapons r = a AND b\nANIMATIONS\nstate combat\n{\n\tidle\n\t{\n\t\tweapons r, movetype walk\n\t\t{\n\t\t\tboth x duration 10\n\t\t}\n\t}\n}\n";
        let o = uoanim_core::outline::outline(t);
        let occ = script_occurrences(t, &o, &Vocabulary::new());
        let got: Vec<(&[u8], What, bool)> = occ.iter().map(|o| (&t[o.start..o.end], o.what, o.decl)).collect();
        let want: Vec<(&[u8], What, bool)> = vec![
            (b"DEFINES", What::Section, true),
            (b"set", What::Keyword, false),
            (b"weapons", What::Condition, false),
            (b"r", What::Define, true),
            (b"a", What::Value, false),
            (b"AND", What::Keyword, false),
            (b"b", What::Value, false),
            (b"ANIMATIONS", What::Section, true),
            (b"state", What::Keyword, false),
            (b"combat", What::State, true),
            (b"idle", What::MoveType, true),
            (b"weapons", What::Condition, false),
            (b"r", What::Define, false),
            (b"movetype", What::Condition, false),
            (b"walk", What::MoveType, false),
            (b"both", What::Keyword, false),
            (b"x", What::Animation, false),
            (b"duration", What::Keyword, false),
            (b"10", What::Number, false),
        ];
        assert_eq!(got, want);
        let lines = Lines::new(std::str::from_utf8(t).unwrap());
        assert_eq!(lines.position(9), lsp_types::Position { line: 1, character: 1 });
        assert_eq!(lines.line(t.len()), 13);
    }
}
