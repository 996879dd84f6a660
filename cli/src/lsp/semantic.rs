//! Semantic tokens: every word of a script or tree the index knows, with
//! LSP's standard token types, and the comments, in LSP's relative
//! encoding.

use super::index::{self, Lines, Occurrence, Vocabulary, What};
use lsp_types as lt;
use uoanim_core::outline::outline;
use uoanim_core::tree_outline::{self, Role};

/// The token types, in the legend's order (a token's type is its index).
pub const TYPES: [lt::SemanticTokenType; 11] = [
    lt::SemanticTokenType::KEYWORD,
    lt::SemanticTokenType::NAMESPACE,
    lt::SemanticTokenType::MACRO,
    lt::SemanticTokenType::TYPE,
    lt::SemanticTokenType::ENUM_MEMBER,
    lt::SemanticTokenType::EVENT,
    lt::SemanticTokenType::FUNCTION,
    lt::SemanticTokenType::PROPERTY,
    lt::SemanticTokenType::COMMENT,
    lt::SemanticTokenType::NUMBER,
    lt::SemanticTokenType::OPERATOR,
];

/// The token modifiers, in the legend's order (bit N is modifier N).
pub const MODIFIERS: [lt::SemanticTokenModifier; 1] = [lt::SemanticTokenModifier::DECLARATION];

const KEYWORD: u32 = 0;
const NAMESPACE: u32 = 1;
const MACRO: u32 = 2;
const TYPE: u32 = 3;
const ENUM_MEMBER: u32 = 4;
const EVENT: u32 = 5;
const FUNCTION: u32 = 6;
const PROPERTY: u32 = 7;
const COMMENT: u32 = 8;
const NUMBER: u32 = 9;
const OPERATOR: u32 = 10;
const DECLARATION: u32 = 1;

pub fn legend() -> lt::SemanticTokensLegend {
    lt::SemanticTokensLegend { token_types: TYPES.to_vec(), token_modifiers: MODIFIERS.to_vec() }
}

/// A token before its encoding: its byte span, type and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub ty: u32,
    pub modifiers: u32,
}

/// The type of a word of a script.
fn type_of(o: &Occurrence, text: &[u8]) -> u32 {
    match o.what {
        What::Section => NAMESPACE,
        What::Define => MACRO,
        What::State => TYPE,
        What::MoveType | What::Value => ENUM_MEMBER,
        What::Event => EVENT,
        What::Animation => FUNCTION,
        What::Condition => PROPERTY,
        What::Number => NUMBER,
        What::Keyword => {
            let w = &text[o.start..o.end];
            if [&b"and"[..], b"minus", b"not"].iter().any(|op| w.eq_ignore_ascii_case(op)) {
                OPERATOR
            } else {
                KEYWORD
            }
        }
    }
}

/// The tokens of a script: its words (sections, defines, states, move
/// types, events, animations, conditions, values, keywords, operators,
/// numbers) and its comments, in text order.
pub fn script_tokens(text: &str) -> Vec<Token> {
    let t = text.as_bytes();
    let o = outline(t);
    let mut out: Vec<Token> = index::script_occurrences(t, &o, &Vocabulary::new())
        .iter()
        .map(|o| Token { start: o.start, end: o.end, ty: type_of(o, t), modifiers: if o.decl { DECLARATION } else { 0 } })
        .collect();
    out.extend(index::comments(t).into_iter().map(|(start, end, _)| Token { start, end, ty: COMMENT, modifiers: 0 }));
    in_order(out)
}

/// The tokens of an `.atr`: its names (animations, declared there), the
/// properties after a `:`, the braces and `:`, and its comments.
pub fn tree_tokens(text: &str) -> Vec<Token> {
    let t = text.as_bytes();
    let mut out: Vec<Token> = tree_outline::outline(t)
        .tokens
        .iter()
        .map(|p| {
            let (ty, modifiers) = match p.role {
                Role::Open | Role::Close | Role::Colon => (OPERATOR, 0),
                Role::Property => (PROPERTY, 0),
                Role::Name(_) => (FUNCTION, DECLARATION),
            };
            Token { start: p.span.start, end: p.span.end, ty, modifiers }
        })
        .collect();
    out.extend(index::comments(t).into_iter().map(|(start, end, _)| Token { start, end, ty: COMMENT, modifiers: 0 }));
    in_order(out)
}

/// Sorted by start, a token overlapping the one before it left out.
fn in_order(mut tokens: Vec<Token>) -> Vec<Token> {
    tokens.sort_by_key(|t| (t.start, t.end));
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if t.end > t.start && out.last().is_none_or(|l| l.end <= t.start) {
            out.push(t);
        }
    }
    out
}

/// LSP's relative encoding of tokens in text order: each one's line as a
/// delta from the previous token's line, its start (UTF-16 code units) as
/// a delta from the previous token's start on the same line, else from the
/// line's start. A token over several lines (a block comment) is one token
/// per line, as clients without multi-line token support want.
pub fn encode(text: &str, tokens: &[Token]) -> Vec<lt::SemanticToken> {
    let lines = Lines::new(text);
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut character) = (0u32, 0u32);
    for t in tokens {
        let mut s = t.start;
        while s < t.end {
            let l = lines.line(s);
            // The end of this line's part, its line break left out.
            let line_end = lines.start_of(l + 1).min(text.len());
            let e = t.end.min(line_end);
            let e = if e == line_end && text.as_bytes().get(e.wrapping_sub(1)) == Some(&b'\n') { e - 1 } else { e };
            let (a, b) = (lines.position(s), lines.position(e));
            if b.character > a.character {
                let delta_line = a.line - line;
                let delta_start = if delta_line == 0 { a.character - character } else { a.character };
                out.push(lt::SemanticToken { delta_line, delta_start, length: b.character - a.character, token_type: t.ty, token_modifiers_bitset: t.modifiers });
                (line, character) = (a.line, a.character);
            }
            s = line_end.max(s + 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens decoded: (line, start, length, type, modifiers).
    fn decode(data: &[lt::SemanticToken]) -> Vec<(u32, u32, u32, u32, u32)> {
        let (mut line, mut start) = (0, 0);
        data.iter()
            .map(|t| {
                line += t.delta_line;
                start = if t.delta_line == 0 { start + t.delta_start } else { t.delta_start };
                (line, start, t.length, t.token_type, t.token_modifiers_bitset)
            })
            .collect()
    }

    #[test]
    fn a_block_comment_is_a_token_per_line_counted_in_utf16() {
        let text = "DEFINES /* \u{e9}\n\u{1F600} */ set weapons r = a AND b\n";
        let got = decode(&encode(text, &script_tokens(text)));
        assert_eq!(
            got,
            [
                (0, 0, 7, NAMESPACE, DECLARATION),
                (0, 8, 4, COMMENT, 0),
                (1, 0, 5, COMMENT, 0),
                (1, 6, 3, KEYWORD, 0),
                (1, 10, 7, PROPERTY, 0),
                (1, 18, 1, MACRO, DECLARATION),
                (1, 22, 1, ENUM_MEMBER, 0),
                (1, 24, 3, OPERATOR, 0),
                (1, 28, 1, ENUM_MEMBER, 0),
            ]
        );
    }

    #[test]
    fn a_trees_names_properties_and_braces() {
        let text = "main // m\n{\n\ttorso : loopsync\n\t{\n\t\tpt_a\n\t}\n}\n";
        let got = decode(&encode(text, &tree_tokens(text)));
        assert_eq!(
            got,
            [
                (0, 0, 4, FUNCTION, DECLARATION),
                (0, 5, 4, COMMENT, 0),
                (1, 0, 1, OPERATOR, 0),
                (2, 1, 5, FUNCTION, DECLARATION),
                (2, 7, 1, OPERATOR, 0),
                (2, 9, 8, PROPERTY, 0),
                (3, 1, 1, OPERATOR, 0),
                (4, 2, 4, FUNCTION, DECLARATION),
                (5, 1, 1, OPERATOR, 0),
                (6, 0, 1, OPERATOR, 0),
            ]
        );
    }
}
