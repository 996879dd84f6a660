//! The engine tokenizer as the `.atr` parser uses it: the reference model.
//!
//! The parser cuts a text into tokens in one pass (`parse::tokenize`); this
//! is the call-by-call model of the engine's `Com_Parse` / `Com_ParseOnLine`
//! that the tests compare that pass with, in the mode a fresh parse session
//! has (space-delimited tokens, no CSV):
//!
//! * whitespace is every byte that is `<= ' '` as a *signed* char, so bytes
//!   `>= 0x80` separate tokens too (Quirk);
//! * `//` and `/* */` are skipped only where a token could start; a newline
//!   inside a block comment does not count as a line break for
//!   `Com_ParseOnLine` (Quirk: `name /* ..\n.. */ : loopsync` stays one line);
//! * a token starting with `"` runs to the next unescaped `"` (or the end of
//!   the text), `\"` standing for a quote; any other token runs to the next
//!   whitespace byte;
//! * a token keeps at most 1023 bytes, the rest is skipped;
//! * at the end of the text the cursor becomes NULL and the token is empty.
//!
//! The text is the source up to its first NUL (what C sees).

/// Capacity of the token buffer (`MAX_TOKEN_CHARS`).
pub const MAX_TOKEN_CHARS: usize = 1024;

/// Tokenizer state over a private copy of the source text.
pub struct Lexer {
    /// The text followed by one NUL byte.
    text: Vec<u8>,
    /// Cursor (`*data_p`); `None` is C's NULL (end of text reached).
    pos: Option<usize>,
    token: [u8; MAX_TOKEN_CHARS],
    token_len: usize,
    /// Offset of the last token start (`com_tokenStart`).
    token_start: usize,
    /// Whether the last call crossed a line break in whitespace.
    crossed_newline: bool,
}

impl Default for Lexer {
    fn default() -> Self {
        Self::new()
    }
}

impl Lexer {
    /// An empty tokenizer.
    pub const fn new() -> Self {
        Self { text: Vec::new(), pos: None, token: [0; MAX_TOKEN_CHARS], token_len: 0, token_start: 0, crossed_newline: false }
    }

    /// Starts a parse of `source` (cut at its first NUL).
    pub fn begin(&mut self, source: &[u8]) {
        let end = source.iter().position(|&b| b == 0).unwrap_or(source.len());
        self.text.clear();
        self.text.extend_from_slice(&source[..end]);
        self.text.push(0);
        self.pos = Some(0);
        self.token_len = 0;
        self.token[0] = 0;
        self.token_start = 0;
    }

    /// Drops the copied text.
    pub fn release(&mut self) {
        self.text.clear();
        self.text.shrink_to(1 << 16);
        self.pos = None;
    }

    /// True once the cursor is NULL (end of text).
    pub fn at_end(&self) -> bool {
        self.pos.is_none()
    }

    /// The current token (without NUL).
    pub fn token(&self) -> &[u8] {
        &self.token[..self.token_len]
    }

    /// Byte `i` of the token buffer as C would read it (`token[i]`): the
    /// token, then its NUL; beyond that, whatever an earlier token left.
    pub fn token_byte(&self, i: usize) -> u8 {
        if i < self.token_len {
            self.token[i]
        } else if i == self.token_len {
            0
        } else {
            self.token.get(i).copied().unwrap_or(0)
        }
    }

    /// Offset of the last token's first byte from the start of the text.
    pub fn last_token_pos(&self) -> usize {
        self.token_start
    }

    /// Whether the last `parse` crossed a line break in whitespace before
    /// its token (then `parse_on_line` would have returned an empty token).
    pub fn crossed_newline(&self) -> bool {
        self.crossed_newline
    }

    #[inline]
    fn at(&self, i: usize) -> u8 {
        self.text.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn push(&mut self, c: u8) {
        if self.token_len < MAX_TOKEN_CHARS - 1 {
            self.token[self.token_len] = c;
            self.token_len += 1;
        }
    }

    fn finish(&mut self, pos: usize) {
        self.token[self.token_len] = 0;
        self.pos = Some(pos);
    }

    /// `Com_Parse`: the next token, crossing line breaks.
    pub fn parse(&mut self) -> &[u8] {
        self.parse_ext(true);
        self.token()
    }

    /// `Com_ParseOnLine`: the next token on the current line, or an empty
    /// token when a line break comes first.
    pub fn parse_on_line(&mut self) -> &[u8] {
        self.parse_ext(false);
        self.token()
    }

    fn parse_ext(&mut self, allow_line_breaks: bool) {
        self.token_len = 0;
        self.token[0] = 0;
        let Some(mut p) = self.pos else {
            return;
        };
        let mut new_lines = false;
        self.crossed_newline = false;
        loop {
            // SkipWhitespace: signed bytes <= ' ' (NUL ends the text).
            loop {
                let c = self.at(p);
                if (c as i8) > b' ' as i8 {
                    break;
                }
                if c == 0 {
                    self.pos = None;
                    return;
                }
                if c == b'\n' {
                    new_lines = true;
                    self.crossed_newline = true;
                }
                p += 1;
            }
            if new_lines && !allow_line_breaks {
                self.pos = Some(p);
                return;
            }
            let c = self.at(p);
            if c == b'/' && self.at(p + 1) == b'/' {
                while self.at(p) != 0 && self.at(p) != b'\n' {
                    p += 1;
                }
                continue;
            }
            if c == b'/' && self.at(p + 1) == b'*' {
                while self.at(p) != 0 && !(self.at(p) == b'*' && self.at(p + 1) == b'/') {
                    p += 1;
                }
                if self.at(p) != 0 {
                    p += 2;
                }
                continue;
            }
            self.token_start = p;
            if c == b'"' {
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
                    self.push(ch);
                }
                self.finish(p);
                return;
            }
            // Space-delimited token: up to the next whitespace byte (the
            // text ends with a NUL, which is one).
            let rest = self.text.get(p..).unwrap_or(&[]);
            let len = rest.iter().position(|&ch| (ch as i8) <= b' ' as i8).unwrap_or(rest.len());
            let kept = len.min(MAX_TOKEN_CHARS - 1);
            self.token[..kept].copy_from_slice(&rest[..kept]);
            self.token_len = kept;
            self.finish(p + len);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &[u8]) -> Vec<(Vec<u8>, usize)> {
        let mut lx = Lexer::new();
        lx.begin(src);
        let mut out = Vec::new();
        loop {
            let t = lx.parse().to_vec();
            if lx.at_end() {
                break;
            }
            out.push((t, lx.last_token_pos()));
        }
        out
    }

    #[test]
    fn splits_on_whitespace_and_high_bytes() {
        let t = tokens(b"ab c\xA0d\te");
        let names: Vec<&[u8]> = t.iter().map(|(t, _)| t.as_slice()).collect();
        assert_eq!(names, vec![&b"ab"[..], b"c", b"d", b"e"]);
        assert_eq!(t[1].1, 3);
    }

    #[test]
    fn comments_only_at_token_start() {
        let t = tokens(b"a//b\n// x\nc /* y\n */ d");
        let names: Vec<&[u8]> = t.iter().map(|(t, _)| t.as_slice()).collect();
        assert_eq!(names, vec![&b"a//b"[..], b"c", b"d"]);
    }

    #[test]
    fn block_comment_hides_newline_on_line() {
        let mut lx = Lexer::new();
        lx.begin(b"moves /* a\nb */ : x\n{");
        assert_eq!(lx.parse(), b"moves");
        assert_eq!(lx.parse_on_line(), b":");
        assert_eq!(lx.parse_on_line(), b"x");
        assert_eq!(lx.parse_on_line(), b"");
        assert!(!lx.at_end());
        assert_eq!(lx.parse(), b"{");
    }

    #[test]
    fn quoted_tokens() {
        let t = tokens(b"\"a b\" \"\" \"x\\\"y\" \"open");
        let names: Vec<&[u8]> = t.iter().map(|(t, _)| t.as_slice()).collect();
        assert_eq!(names, vec![&b"a b"[..], b"", b"x\"y", b"open"]);
    }

    #[test]
    fn long_tokens_are_cut() {
        let long = vec![b'a'; 3000];
        let t = tokens(&long);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].0.len(), MAX_TOKEN_CHARS - 1);
    }

    #[test]
    fn nul_ends_the_text() {
        let t = tokens(b"a\0b");
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn on_line_at_end_sets_null() {
        let mut lx = Lexer::new();
        lx.begin(b"a   ");
        assert_eq!(lx.parse(), b"a");
        assert_eq!(lx.parse_on_line(), b"");
        assert!(lx.at_end());
        assert_eq!(lx.parse(), b"");
        assert!(lx.at_end());
    }
}
