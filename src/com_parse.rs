//! The crate's one tokenizer: the parts of the engine's script tokenizer
//! (`Com_Parse*`) the animation modules rely on, as one parse session.
//!
//! The player-animation parser reads its script through it; the `.atr`
//! parser cuts a whole file in one pass with the same rules
//! (`tree::parse::tokenize`), and its tests compare that pass with this
//! tokenizer token by token.
//!
//! The parser always runs with space-delimited tokens, so the operator,
//! number and identifier rules of the general tokenizer never apply:
//!
//! * whitespace is every byte whose *signed* value is <= 32, so bytes
//!   0x80..=0xFF separate tokens too (Quirk: high bytes are whitespace);
//! * `//` and `/* */` comments are recognised only where a token would start
//!   (Quirk: `a//b` is one token);
//! * a token starting with `"` runs to the next unescaped `"` (or the end of
//!   the text), `\"` gives a quote, newlines inside are kept and counted;
//! * any other token is a maximal run of non-whitespace bytes;
//! * tokens are cut at 1023 bytes while the cursor still moves past the rest;
//! * the end of the text (and, when line breaks are not allowed, the end of
//!   the line) gives an empty token; the cursor becomes "NULL" at the end.
//!
//! The cursor is a byte index into the text (`None` is the C NULL cursor).
#![allow(clippy::result_large_err)]

use crate::error::{Failure, Outcome, Text};

/// `MAX_TOKEN_CHARS`: size of the session token buffer.
pub const MAX_TOKEN_CHARS: usize = 1024;

/// Name the parser gives its session (`Com_BeginParseSession`).
pub const SESSION_NAME: &[u8] = b"BG_AnimParseAnimScript";

/// One parse session over a NUL-terminated text.
///
/// An unquoted token is a span of the text (no copy); a quoted token is
/// built in the session buffer. Stripping a byte only shortens the token, as
/// the original's in-place NUL does to its token buffer.
pub struct Tokenizer<'a> {
    text: &'a [u8],
    cursor: Option<usize>,
    line: i32,
    saved_line: i32,
    saved_parse: Option<usize>,
    unget: bool,
    /// The token: `text[start..start + len]`, or `buffer[..len]` when quoted.
    quoted: bool,
    start: usize,
    len: usize,
    buffer: [u8; MAX_TOKEN_CHARS],
    /// `BG_StringHashValue(token)` once computed.
    hash: core::cell::Cell<Option<i32>>,
    /// Where the cursor was left after the last token.
    end: usize,
    /// The cursor was rewound to the start of the last (unquoted) token:
    /// reading again yields the same token and end (the text is constant).
    replay_token: bool,
    /// The last read was an empty on-line read stopped by a line break:
    /// its resulting cursor and line. Pushed back and read on-line again it
    /// gives the same result.
    eol: Option<(usize, i32)>,
    /// Offset of the last token's first byte (`com_tokenStart`).
    token_pos: usize,
    /// Whether the last read skipped a line break before its token.
    crossed_line_break: bool,
}

impl<'a> Tokenizer<'a> {
    /// A new session (line 1, nothing ungotten) with the cursor at the start
    /// of `text`. Bytes past the end of `text` read as NUL.
    pub fn new(text: &'a [u8]) -> Self {
        Self {
            text,
            cursor: Some(0),
            line: 1,
            saved_line: 1,
            saved_parse: None,
            unget: false,
            quoted: false,
            start: 0,
            len: 0,
            buffer: [0; MAX_TOKEN_CHARS],
            hash: core::cell::Cell::new(Some(0)),
            end: 0,
            replay_token: false,
            eol: None,
            token_pos: 0,
            crossed_line_break: false,
        }
    }

    /// A session continuing at line `line` (the session state of a caller
    /// that hands over a cursor, as the standalone helpers do).
    pub fn with_line(text: &'a [u8], line: i32) -> Self {
        let mut t = Self::new(text);
        t.line = line;
        t.saved_line = line;
        t
    }

    /// A session whose cursor is already NULL (every read gives the empty
    /// token).
    pub fn at_null(line: i32) -> Self {
        let mut t = Self::with_line(&[], line);
        t.cursor = None;
        t
    }

    /// Where the last read started (`savedParse`, `None` = not set / NULL)
    /// and the line there (`savedLine`).
    pub fn saved(&self) -> (Option<usize>, i32) {
        (self.saved_parse, self.saved_line)
    }

    #[inline]
    fn at(&self, index: usize) -> u8 {
        self.text.get(index).copied().unwrap_or(0)
    }

    /// The session's current line (`Com_GetCurrentParseLine`).
    pub fn line(&self) -> i32 {
        self.line
    }

    /// The cursor (`None` = NULL).
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// The current token (without its NUL).
    #[inline]
    pub fn token(&self) -> &[u8] {
        if self.quoted {
            &self.buffer[..self.len]
        } else {
            self.text.get(self.start..self.start + self.len).unwrap_or(&[])
        }
    }

    /// `BG_StringHashValue(token)` (computed once per token).
    #[inline]
    pub fn token_hash(&self) -> i32 {
        match self.hash.get() {
            Some(h) => h,
            None => {
                let h = crate::script::tables::string_hash(self.token());
                self.hash.set(Some(h));
                h
            }
        }
    }

    /// The current token copied into a [`Text`].
    /// Offset of the last token's first byte (its opening quote for a
    /// quoted token).
    pub fn token_pos(&self) -> usize {
        self.token_pos
    }

    /// Whether the last read skipped a line break in whitespace before its
    /// token (or before the end of the text).
    pub fn crossed_line_break(&self) -> bool {
        self.crossed_line_break
    }

    pub fn token_text(&self) -> Text {
        Text::from_bytes(self.token())
    }

    /// Whether a token is pushed back.
    pub fn is_ungotten(&self) -> bool {
        self.unget
    }

    /// Removes the last byte of the token in place (the parser strips a
    /// trailing comma this way).
    pub fn strip_last(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            self.hash.set(None);
            self.replay_token = false;
        }
    }

    /// `Com_Parse` (`allow_line_breaks`) / `Com_ParseOnLine` (not): honours a
    /// pushed-back token by rewinding to where the last read started, then
    /// reads the next token.
    pub fn read(&mut self, allow_line_breaks: bool) -> &[u8] {
        let replay_token = core::mem::take(&mut self.replay_token);
        if self.unget {
            self.unget = false;
            if let (Some((cursor, line)), false) = (self.eol, allow_line_breaks) {
                // Same start state, same kind of read: same empty result
                // (savedParse / savedLine are already that start state).
                self.cursor = Some(cursor);
                self.line = line;
                return &[];
            }
            self.cursor = self.saved_parse;
            self.line = self.saved_line;
        } else if replay_token && self.cursor == Some(self.start) {
            // Reading from the start of the last token again: no whitespace
            // to skip, the same run of bytes up to the same end.
            self.saved_line = self.line;
            self.saved_parse = self.cursor;
            self.cursor = Some(self.end);
            self.eol = None;
            return self.token();
        }
        self.parse_ext(allow_line_breaks);
        self.token()
    }

    /// `Com_UngetToken`: pushes the last token back.
    pub fn unget(&mut self) -> Outcome<()> {
        if self.unget {
            return Err(self.script_error(b"UngetToken called twice"));
        }
        self.unget = true;
        Ok(())
    }

    /// `Com_ScriptError(message)`: `"\x15File <session>, line <line>: <message>"`.
    pub fn script_error(&self, message: &[u8]) -> Failure {
        let mut text = Text::new();
        text.push(b"\x15File ");
        text.push(SESSION_NAME);
        text.push(crate::text!(", line {}: ", self.line).as_bytes());
        text.push(message);
        Failure::drop(text.as_bytes())
    }

    /// Moves the cursor back by `count` bytes (the parser's rewind trick; the
    /// line counter is not touched).
    pub fn rewind(&mut self, count: usize) {
        // A NULL cursor only follows an empty token, which rewinds by 0.
        self.cursor = self.cursor.map(|c| c.saturating_sub(count));
        self.eol = None;
        self.replay_token =
            !self.unget && !self.quoted && self.len > 0 && count == self.len && self.cursor == Some(self.start);
    }

    /// True when the text at the cursor starts with the current token
    /// (`Q_strncmp(cursor, token, strlen(token)) == 0`).
    pub fn cursor_spells_token(&self) -> bool {
        let Some(start) = self.cursor else { return self.len == 0 };
        let token = self.token();
        match self.text.get(start..start + token.len()) {
            Some(here) => here == token,
            None => false,
        }
    }

    /// `Com_ParseExt` in space-delimited mode.
    fn parse_ext(&mut self, allow_line_breaks: bool) {
        self.eol = None;
        self.quoted = false;
        self.start = 0;
        self.len = 0;
        self.hash.set(Some(0));
        let Some(mut p) = self.cursor else {
            return;
        };
        self.saved_line = self.line;
        self.saved_parse = Some(p);
        let text = self.text;
        let mut has_new_lines = false;
        self.crossed_line_break = false;
        loop {
            // Skip whitespace (signed byte <= 32), counting lines.
            let c = loop {
                let Some(&c) = text.get(p) else {
                    self.cursor = None;
                    return;
                };
                if (c as i8) > b' ' as i8 {
                    break c;
                }
                if c == 0 {
                    self.cursor = None;
                    return;
                }
                if c == b'\n' {
                    self.line = self.line.wrapping_add(1);
                    has_new_lines = true;
                    self.crossed_line_break = true;
                }
                p += 1;
            };
            if has_new_lines && !allow_line_breaks {
                self.cursor = Some(p);
                self.eol = Some((p, self.line));
                return;
            }
            if c == b'/' && self.at(p + 1) == b'/' {
                // To the end of the line (the newline is skipped as
                // whitespace, and counted, by the next round).
                let rest = text.get(p..).unwrap_or(&[]);
                p += rest.iter().position(|&b| b == 0 || b == b'\n').unwrap_or(rest.len());
                continue;
            }
            if c == b'/' && self.at(p + 1) == b'*' {
                loop {
                    match text.get(p) {
                        None | Some(0) => break,
                        Some(b'*') if text.get(p + 1) == Some(&b'/') => {
                            p += 2;
                            break;
                        }
                        Some(b'\n') => self.line = self.line.wrapping_add(1),
                        Some(_) => {}
                    }
                    p += 1;
                }
                continue;
            }
            self.hash.set(None);
            self.token_pos = p;
            if c == b'"' {
                self.quoted = true;
                p += 1;
                loop {
                    let mut ch = self.at(p);
                    if ch == 0 {
                        break;
                    }
                    p += 1;
                    if ch == b'\\' && self.at(p) == b'"' {
                        ch = b'"';
                        p += 1;
                    } else if ch == b'"' {
                        break;
                    }
                    if ch == b'\n' {
                        self.line = self.line.wrapping_add(1);
                    }
                    if self.len < MAX_TOKEN_CHARS - 1 {
                        self.buffer[self.len] = ch;
                        self.len += 1;
                    }
                }
            } else {
                // A run of bytes above 32 (signed), cut at 1023 bytes.
                let start = p;
                p += 1;
                while let Some(&b) = text.get(p) {
                    if (b as i8) <= b' ' as i8 {
                        break;
                    }
                    p += 1;
                }
                self.start = start;
                self.len = (p - start).min(MAX_TOKEN_CHARS - 1);
            }
            if self.len == 0 {
                self.hash.set(Some(0));
            }
            self.end = p;
            self.cursor = Some(p);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2021::*;
    use super::*;

    fn tokens(text: &[u8]) -> Vec<Vec<u8>> {
        let mut t = Tokenizer::new(text);
        let mut out = Vec::new();
        loop {
            let tok = t.read(true).to_vec();
            if tok.is_empty() {
                break;
            }
            out.push(tok);
        }
        out
    }

    #[test]
    fn space_delimited_runs_glue_punctuation() {
        assert_eq!(tokens(b"a,b {x} none,\0"), vec![b"a,b".to_vec(), b"{x}".to_vec(), b"none,".to_vec()]);
    }

    #[test]
    fn quirk_high_bytes_are_whitespace() {
        assert_eq!(tokens(b"ab\x80cd\xffe\0"), vec![b"ab".to_vec(), b"cd".to_vec(), b"e".to_vec()]);
    }

    #[test]
    fn quirk_comments_only_at_token_start() {
        assert_eq!(tokens(b"a//b c // d\ne /* f\n */ g\0"), vec![b"a//b".to_vec(), b"c".to_vec(), b"e".to_vec(), b"g".to_vec()]);
    }

    #[test]
    fn quoted_tokens_and_escapes() {
        assert_eq!(tokens(b"\"a b\"c \"x\\\"y\"\0"), vec![b"a b".to_vec(), b"c".to_vec(), b"x\"y".to_vec()]);
        // An empty quoted token reads like the end of the text.
        assert_eq!(tokens(b"a \"\" b\0"), vec![b"a".to_vec()]);
    }

    #[test]
    fn long_tokens_are_cut_at_1023_bytes() {
        let mut text = vec![b'x'; 2000];
        text.extend_from_slice(b" y\0");
        let t = tokens(&text);
        assert_eq!(t[0].len(), 1023);
        assert_eq!(t[1], b"y".to_vec());
    }

    #[test]
    fn on_line_reads_stop_at_line_end_and_count_lines() {
        let mut t = Tokenizer::new(b"a b\n\n c\0");
        assert_eq!(t.read(false), b"a");
        assert_eq!(t.read(false), b"b");
        assert_eq!(t.read(false), b"");
        assert_eq!(t.line(), 3);
        t.unget().unwrap();
        assert_eq!(t.read(true), b"c");
        assert_eq!(t.line(), 3);
        assert_eq!(t.read(true), b"");
        assert_eq!(t.cursor(), None);
        assert_eq!(t.read(true), b"");
    }

    #[test]
    fn unget_twice_is_a_script_error() {
        let mut t = Tokenizer::new(b"a\0");
        t.read(true);
        t.unget().unwrap();
        let e = t.unget().unwrap_err();
        assert_eq!(e.text().as_bytes(), b"\x15File BG_AnimParseAnimScript, line 1: UngetToken called twice");
    }

    #[test]
    fn token_hash_matches_the_string_hash() {
        let mut t = Tokenizer::new(b"Abc,  \"Q\xffz\" x\0");
        for _ in 0..3 {
            let tok = t.read(true).to_vec();
            assert_eq!(t.token_hash(), crate::script::tables::string_hash(&tok));
        }
        let mut t = Tokenizer::new(b"none,\0");
        t.read(true);
        t.strip_last();
        assert_eq!(t.token_hash(), crate::script::tables::string_hash(b"none"));
    }

    #[test]
    fn replayed_reads_match_fresh_reads() {
        let text = b"  alpha beta\n\n  // c\n gamma \"q\" delta\0";
        // Rewind over a token and read it again.
        let mut t = Tokenizer::new(text);
        assert_eq!(t.read(true), b"alpha");
        t.rewind(5);
        assert_eq!(t.read(true), b"alpha");
        assert_eq!((t.cursor(), t.line(), t.saved()), (Some(7), 1, (Some(2), 1)));
        assert_eq!(t.read(false), b"beta");
        // A pushed-back end of line read on-line again, then with breaks.
        assert_eq!(t.read(false), b"");
        let after = (t.cursor(), t.line(), t.saved());
        t.unget().unwrap();
        assert_eq!(t.read(false), b"");
        assert_eq!((t.cursor(), t.line(), t.saved()), after);
        t.unget().unwrap();
        assert_eq!(t.read(true), b"gamma");
        assert_eq!(t.line(), 4);
        // A quoted token is not replayed: the rewind lands inside it.
        assert_eq!(t.read(true), b"q");
        t.rewind(1);
        assert!(!t.cursor_spells_token());
        assert_eq!(t.read(true), b" delta");
    }

    #[test]
    fn rewind_and_verify() {
        let mut t = Tokenizer::new(b"  abc \"de\"\0");
        assert_eq!(t.read(true), b"abc");
        t.rewind(3);
        assert!(t.cursor_spells_token());
        assert_eq!(t.read(true), b"abc");
        assert_eq!(t.read(true), b"de");
        t.rewind(2);
        assert!(!t.cursor_spells_token());
    }
}
