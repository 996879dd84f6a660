//! The one tokenizer: the parts of the engine's script tokenizer
//! (`Com_Parse*`) the animation modules rely on — its byte classes, its
//! scanning steps, and a parse session over them.
//!
//! Both parsers read their text through this module. The player-animation
//! parser reads one token at a time through a [`Tokenizer`] session (line
//! numbers, look-back, pushed-back tokens); the `.atr` parser cuts a whole
//! file in one pass (`tree::parse::tokenize`). Both run the same steps:
//! [`skip_gap`] (whitespace and comments), [`scan_quoted`] and [`token_end`],
//! over the byte classes of [`class_of`].
//!
//! The engine's tokenizer always runs with space-delimited tokens here, so
//! its operator, number and identifier rules never apply:
//!
//! * whitespace is every byte whose *signed* value is <= 32, so bytes
//!   0x80..=0xFF separate tokens too (Quirk: high bytes are whitespace);
//! * `//` and `/* */` comments are recognised only where a token would start
//!   (Quirk: `a//b` is one token); the search for `*/` starts at the `/`
//!   (Quirk: `/*/` is a whole comment);
//! * a token starting with `"` runs to the next unescaped `"` (or the end of
//!   the text), `\"` gives a quote, newlines inside are kept and counted;
//! * any other token is a maximal run of non-whitespace bytes;
//! * tokens are cut at 1023 bytes while the cursor still moves past the rest;
//! * the text ends at its first NUL (or the end of the slice); the end of the
//!   text (and, when line breaks are not allowed, the end of the line) gives
//!   an empty token; the session's cursor becomes "NULL" at the end.
//!
//! Where the two readers differ, the difference is a parameter of a step:
//!
//! * line numbers: the session counts every line break, those inside block
//!   comments (through the `on_comment` hook of [`skip_gap`]) and quoted
//!   tokens too (its errors carry the line); the `.atr` reader only keeps
//!   whether a line break precedes a token;
//! * on-line reads (`Com_ParseOnLine`): the session stops at a line break
//!   (`stop_at_line_break`); the `.atr` reader never stops, it records the
//!   break with the token and its parse replays on-line reads over the list;
//! * token classes: the `.atr` reader classifies every token (a script
//!   identifier, a brace, `:`) with the [`NOT_IDENT`] and [`UPPER`] bits of
//!   its bytes; the session hands its tokens to the parser as they are.
//!
//! The session's cursor is a byte index into the text (`None` is the C NULL
//! cursor).
//!
//! The module is a leaf: it imports nothing. Its session's one error
//! ([`UngetTwice`]) and the spelling of a token ([`Spelled`]) are its own
//! types, which the units' error module turns into a failure and a name;
//! that module reads names again with its steps ([`scan_quoted`],
//! [`condition_key`]) when it writes a failure's text.

/// `MAX_TOKEN_CHARS`: size of the session token buffer.
pub const MAX_TOKEN_CHARS: usize = 1024;

/// Longest token the engine keeps (`MAX_TOKEN_CHARS - 1` bytes and its NUL;
/// the rest of a longer token is skipped).
pub const MAX_TOKEN_LEN: usize = MAX_TOKEN_CHARS - 1;

/// Byte class: whitespace, skipped between tokens: a *signed* byte
/// `<= ' '` other than NUL (Quirk: high bytes are whitespace).
pub const SPACE: u8 = 1;
/// Byte class: ends an unquoted token: whitespace, or the NUL that ends the
/// text.
pub const DELIM: u8 = 2;
/// Byte class: not allowed in a script identifier (`Scr_IsIdentifier`:
/// ASCII letters, digits and `_`).
pub const NOT_IDENT: u8 = 4;
/// Byte class: ASCII `A-Z` (a name without one needs no lowercasing).
pub const UPPER: u8 = 8;

const fn byte_classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let mut k = 0;
        if (c as i8) <= b' ' as i8 {
            k |= DELIM;
            if c != 0 {
                k |= SPACE;
            }
        }
        if !(c.is_ascii_alphanumeric() || c == b'_') {
            k |= NOT_IDENT;
        }
        if c.is_ascii_uppercase() {
            k |= UPPER;
        }
        t[i] = k;
        i += 1;
    }
    t
}

static BYTE_CLASS: [u8; 256] = byte_classes();

/// The classes of a byte ([`SPACE`], [`DELIM`], [`NOT_IDENT`], [`UPPER`]).
#[inline(always)]
pub fn class_of(c: u8) -> u8 {
    BYTE_CLASS[usize::from(c)]
}

/// The union of the classes of `bytes`.
#[inline]
pub fn classes(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |a, &c| a | class_of(c))
}

/// Script identifier rule of the engine (`Scr_IsIdentifier`): every byte an
/// ASCII letter, digit or `_`; the empty string is one.
pub fn is_identifier(text: &[u8]) -> bool {
    classes(text) & NOT_IDENT == 0
}

/// The byte at `i`, NUL past the end of the text.
#[inline(always)]
fn at(text: &[u8], i: usize) -> u8 {
    text.get(i).copied().unwrap_or(0)
}

/// Number of line breaks in `bytes`.
#[inline]
pub fn count_line_breaks(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0u32, |n, &c| n.wrapping_add(u32::from(c == b'\n')))
}

/// Skips whitespace from `p`: the first byte that is not whitespace (the
/// end of the text, or its NUL, included), and the line breaks skipped.
#[inline(always)]
pub fn skip_space(text: &[u8], mut p: usize) -> (usize, u32) {
    let mut line_breaks = 0u32;
    while let Some(&c) = text.get(p) {
        if class_of(c) & SPACE == 0 {
            break;
        }
        line_breaks = line_breaks.wrapping_add(u32::from(c == b'\n'));
        p += 1;
    }
    (p, line_breaks)
}

/// Where [`skip_gap`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// At the first byte of a token.
    Token,
    /// At the end of the text (its NUL, or the end of the slice).
    End,
    /// After whitespace that holds a line break (only when asked to).
    LineBreak,
}

/// What [`skip_gap`] skipped.
#[derive(Clone, Copy, Debug)]
pub struct Gap {
    /// Where it stopped.
    pub pos: usize,
    /// What it stopped at.
    pub stop: Stop,
    /// Line breaks in the whitespace skipped (not those of comments).
    pub line_breaks: u32,
}

/// `Com_ParseExt` before a token: skips whitespace and the comments that
/// start where a token could, from `p`. With `stop_at_line_break`
/// (`Com_ParseOnLine`) it stops after the first whitespace that holds a line
/// break, before a comment or token there. `on_comment` sees each comment
/// skipped (a block comment's line breaks count for the session's line).
#[inline(always)]
pub fn skip_gap(text: &[u8], mut p: usize, stop_at_line_break: bool, mut on_comment: impl FnMut(&[u8])) -> Gap {
    let mut line_breaks = 0u32;
    loop {
        let (q, n) = skip_space(text, p);
        p = q;
        line_breaks = line_breaks.wrapping_add(n);
        let c = at(text, p);
        let stop = if c == 0 {
            Stop::End
        } else if stop_at_line_break && line_breaks != 0 {
            Stop::LineBreak
        } else if c != b'/' {
            Stop::Token
        } else {
            let end = match at(text, p + 1) {
                b'/' => line_comment_end(text, p),
                b'*' => block_comment_end(text, p),
                _ => return Gap { pos: p, stop: Stop::Token, line_breaks },
            };
            on_comment(text.get(p..end).unwrap_or(&[]));
            p = end;
            continue;
        };
        return Gap { pos: p, stop, line_breaks };
    }
}

/// The `/*` comment of `text` that runs to the end of the text (no `*/`
/// closes it), as the engine's tokenizer reads the text: the offset of its
/// `/`. Everything after it is a comment to the engine.
pub fn unclosed_comment(text: &[u8]) -> Option<usize> {
    let base = text.as_ptr() as usize;
    let mut p = 0;
    let mut buf = [0u8; MAX_TOKEN_LEN];
    loop {
        let mut unclosed = None;
        let gap = skip_gap(text, p, false, |c| {
            if c.starts_with(b"/*") && (c.len() < 3 || !c.ends_with(b"*/")) {
                unclosed = Some(c.as_ptr() as usize - base);
            }
        });
        if gap.stop == Stop::End {
            return unclosed;
        }
        p = if at(text, gap.pos) == b'"' { scan_quoted(text, gap.pos, &mut buf).end } else { token_end(text, gap.pos) };
        if p <= gap.pos {
            return None;
        }
    }
}

/// End of the `//` comment at `p`: its line break (left for the whitespace
/// that follows) or the end of the text.
#[inline]
fn line_comment_end(text: &[u8], p: usize) -> usize {
    let rest = text.get(p..).unwrap_or(&[]);
    p + rest.iter().position(|&b| b == 0 || b == b'\n').unwrap_or(rest.len())
}

/// End of the `/*` comment at `p`: past its `*/` or at the end of the text.
/// Quirk (of the engine): the search for `*/` starts at the `/`, so `/*/`
/// is a whole comment.
#[inline]
fn block_comment_end(text: &[u8], mut p: usize) -> usize {
    loop {
        match text.get(p) {
            None | Some(0) => return p,
            Some(b'*') if text.get(p + 1) == Some(&b'/') => return p + 2,
            Some(_) => p += 1,
        }
    }
}

/// A quoted token read by [`scan_quoted`].
#[derive(Clone, Copy, Debug)]
pub struct Quoted {
    /// Past its closing quote (or at the end of the text).
    pub end: usize,
    /// Bytes of it stored.
    pub len: usize,
    /// Line breaks inside it.
    pub line_breaks: u32,
}

/// Reads the quoted token whose `"` is at `p`: up to the next unescaped `"`
/// or the end of the text, `\"` giving a quote. Its first `buf.len()` bytes
/// are stored in `buf`; the rest is skipped.
#[inline]
pub fn scan_quoted(text: &[u8], mut p: usize, buf: &mut [u8]) -> Quoted {
    p += 1;
    let mut len = 0;
    let mut line_breaks = 0u32;
    loop {
        let mut ch = at(text, p);
        if ch == 0 {
            break;
        }
        p += 1;
        if ch == b'\\' && at(text, p) == b'"' {
            ch = b'"';
            p += 1;
        } else if ch == b'"' {
            break;
        }
        line_breaks = line_breaks.wrapping_add(u32::from(ch == b'\n'));
        if let Some(slot) = buf.get_mut(len) {
            *slot = ch;
            len += 1;
        }
    }
    Quoted { end: p, len, line_breaks }
}

/// End of the unquoted token at `p`: the first byte from `p` on that is
/// [`DELIM`] (`text.len()` if none).
///
/// A machine word at a time: in `(w - 0x21..) & !w | w`, masked to each
/// byte's top bit, the lowest flagged byte is the first one below `0x21` or
/// from `0x80` up (bytes before it are in `0x21..0x80`, so no borrow reaches
/// it).
#[inline]
pub fn token_end(text: &[u8], mut p: usize) -> usize {
    const W: usize = core::mem::size_of::<usize>();
    const ONES: usize = usize::MAX / 0xff;
    const HIGH: usize = ONES * 0x80;
    while let Some(chunk) = text.get(p..p + W) {
        let mut word = [0u8; W];
        word.copy_from_slice(chunk);
        let w = usize::from_le_bytes(word);
        let m = ((w.wrapping_sub(ONES * 0x21) & !w) | w) & HIGH;
        if m != 0 {
            return p + (m.trailing_zeros() / 8) as usize;
        }
        p += W;
    }
    while let Some(&c) = text.get(p) {
        if class_of(c) & DELIM != 0 {
            break;
        }
        p += 1;
    }
    p
}

/// Name the parser gives its session (`Com_BeginParseSession`).
pub const SESSION_NAME: &[u8] = b"BG_AnimParseAnimScript";

/// Where a token is spelled in the text it was read from
/// ([`Tokenizer::spelled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelled<'a> {
    /// The token is these bytes of the text.
    Plain(&'a [u8]),
    /// The token is the first `kept` bytes of the quoted token whose opening
    /// quote starts `from` (read again with [`scan_quoted`]).
    Quoted {
        /// The text from the opening quote on.
        from: &'a [u8],
        /// The bytes of the token kept.
        kept: usize,
    },
}

/// A second `Com_UngetToken` without a read between (a script error at the
/// session's line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UngetTwice {
    /// The session's line.
    pub line: i32,
    /// The session's name.
    pub session: &'static [u8],
}

/// `BG_StringHashValue`: Σ c·(119+i) over the bytes as *signed* chars with
/// ASCII A–Z folded to lower case, wrapping; 0xFFFFFFFF becomes 0.
/// (Quirk: bytes >= 0x80 contribute negative terms.)
#[inline]
pub fn string_hash(text: &[u8]) -> i32 {
    let mut hash: u32 = 0;
    let mut multiplier: u32 = 119;
    for &byte in text {
        if byte == 0 {
            break;
        }
        let mut c = byte as i8 as i32;
        if (b'A' as i32..=b'Z' as i32).contains(&c) {
            c += 32;
        }
        hash = hash.wrapping_add((c as u32).wrapping_mul(multiplier));
        multiplier = multiplier.wrapping_add(1);
    }
    if hash == u32::MAX {
        0
    } else {
        hash as i32
    }
}


/// Appends `text` to the condition key `key[..len]` (`Q_strcat(key, 64,
/// text)`).
pub fn append_key(key: &mut [u8; 64], len: &mut usize, text: &[u8]) {
    // Q_strcat(key, 64, text): cut at 63 bytes. Quirk: bitmask keys longer
    // than 63 bytes are silently truncated.
    let room = 63usize.saturating_sub(*len);
    let take = text.len().min(room);
    key[*len..*len + take].copy_from_slice(&text[..take]);
    *len += take;
}

/// The condition key `BG_ParseConditionBits` builds from the
/// tokens that start at the beginning of `source` (the first one is the
/// key's first), read on-line again with the same rules: `none` is skipped,
/// an operator, a lone `,` or the end of the line ends the key, a token
/// ending with `,` is its last (without the comma); tokens are joined by a
/// space and the key is cut at 63 bytes. Its length in `key`.
///
/// For the diagnostic that names a key the table does not know: the key
/// itself is a local of the parse, the text it was read from is not.
pub fn condition_key(source: &[u8], key: &mut [u8; 64]) -> usize {
    let mut tok = Tokenizer::new(source);
    let mut len = 0;
    loop {
        let token = tok.read(false);
        if token.is_empty() || token.eq_ignore_ascii_case(b",") {
            break;
        }
        if token.eq_ignore_ascii_case(b"none") {
            continue;
        }
        if token.eq_ignore_ascii_case(b"none,") || token.eq_ignore_ascii_case(b"NOT") || token.eq_ignore_ascii_case(b"MINUS") || token.eq_ignore_ascii_case(b"AND") {
            break;
        }
        let last = token.last() == Some(&b',');
        if last {
            tok.strip_last();
        }
        if len > 0 {
            append_key(key, &mut len, b" ");
        }
        append_key(key, &mut len, tok.token());
        if last {
            break;
        }
    }
    len
}

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
                let h = string_hash(self.token());
                self.hash.set(Some(h));
                h
            }
        }
    }

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

    /// Where the current token is spelled in the text, for a diagnostic
    /// that names it (the token buffer does not outlive the next read).
    pub fn spelled(&self) -> Spelled<'a> {
        if self.quoted {
            Spelled::Quoted { from: self.text.get(self.token_pos..).unwrap_or(&[]), kept: self.len }
        } else {
            Spelled::Plain(self.text.get(self.start..self.start + self.len).unwrap_or(&[]))
        }
    }

    /// The text from offset `start` on (where a name made of several tokens
    /// starts, for a diagnostic).
    pub fn text_from(&self, start: usize) -> &'a [u8] {
        self.text.get(start..).unwrap_or(&[])
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

    /// `Com_UngetToken`: pushes the last token back; a second push is
    /// `Com_ScriptError("UngetToken called twice")` at the session's line.
    pub fn unget(&mut self) -> Result<(), UngetTwice> {
        if self.unget {
            return Err(UngetTwice { line: self.line, session: SESSION_NAME });
        }
        self.unget = true;
        Ok(())
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
        let Some(p) = self.cursor else {
            return;
        };
        self.saved_line = self.line;
        self.saved_parse = Some(p);
        let text = self.text;
        let mut comment_lines = 0u32;
        let gap = skip_gap(text, p, !allow_line_breaks, |comment| {
            comment_lines = comment_lines.wrapping_add(count_line_breaks(comment));
        });
        self.line = self.line.wrapping_add(gap.line_breaks.wrapping_add(comment_lines) as i32);
        self.crossed_line_break = gap.line_breaks != 0;
        let p = gap.pos;
        match gap.stop {
            Stop::Token => {}
            Stop::End => {
                self.cursor = None;
                return;
            }
            Stop::LineBreak => {
                self.cursor = Some(p);
                self.eol = Some((p, self.line));
                return;
            }
        }
        self.hash.set(None);
        self.token_pos = p;
        let end = if at(text, p) == b'"' {
            self.quoted = true;
            let q = scan_quoted(text, p, &mut self.buffer[..MAX_TOKEN_LEN]);
            self.len = q.len;
            self.line = self.line.wrapping_add(q.line_breaks as i32);
            q.end
        } else {
            let end = token_end(text, p);
            self.start = p;
            self.len = (end - p).min(MAX_TOKEN_LEN);
            end
        };
        if self.len == 0 {
            self.hash.set(Some(0));
        }
        self.end = end;
        self.cursor = Some(end);
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
    fn byte_classes() {
        assert_eq!(class_of(0), DELIM | NOT_IDENT);
        for c in [b' ', b'\n', b'\t', 1, 0x80, 0xff] {
            assert_eq!(class_of(c) & (SPACE | DELIM), SPACE | DELIM, "{c:#x}");
        }
        for c in [b'!', b'~', 0x7f, b'{', b'"', b'/'] {
            assert_eq!(class_of(c), NOT_IDENT, "{c:#x}");
        }
        assert_eq!(class_of(b'Q'), UPPER);
        assert_eq!(class_of(b'q') | class_of(b'_') | class_of(b'7'), 0);
        assert!(is_identifier(b"") && is_identifier(b"Walk_9") && !is_identifier(b"a-b"));
    }

    #[test]
    fn token_end_is_the_first_delimiter() {
        // Runs around the word size and the whitespace boundaries (0x20/0x21,
        // 0x7f/0x80), from every start.
        let boundary = b"abcdefghXYZ_09!~\x7f\x80\xff \x21\x1f\n\t\0";
        let mut seed = 7u32;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize % n
        };
        for _ in 0..crate::rounds(5_000) {
            let len = next(40);
            let text: Vec<u8> =
                (0..len).map(|_| if next(4) == 0 { boundary[next(boundary.len())] } else { boundary[next(8)] }).collect();
            for p in 0..=len {
                let byte_rule = (p..len).find(|&i| class_of(text[i]) & DELIM != 0).unwrap_or(len);
                assert_eq!(token_end(&text, p), byte_rule, "{text:?} {p}");
            }
        }
    }

    #[test]
    fn skip_gap_stops_at_tokens_ends_and_line_breaks() {
        let gap = |text: &[u8], on_line: bool| {
            let mut comments = Vec::new();
            let g = skip_gap(text, 0, on_line, |c| comments.push(c.to_vec()));
            (g.pos, g.stop, g.line_breaks, comments)
        };
        assert_eq!(gap(b" \n x", false), (3, Stop::Token, 1, vec![]));
        assert_eq!(gap(b" \n x", true), (3, Stop::LineBreak, 1, vec![]));
        // The text ends at its NUL, whatever follows.
        assert_eq!(gap(b" \n\0x", true), (2, Stop::End, 1, vec![]));
        assert_eq!(gap(b"  ", false), (2, Stop::End, 0, vec![]));
        // Comments: line breaks inside a block comment are not the gap's.
        assert_eq!(
            gap(b"// a\n/* b\n*/x", false),
            (12, Stop::Token, 1, vec![b"// a".to_vec(), b"/* b\n*/".to_vec()])
        );
        assert_eq!(gap(b"/* b\n*/ x", true), (8, Stop::Token, 0, vec![b"/* b\n*/".to_vec()]));
        assert_eq!(gap(b"/*/ x", false), (4, Stop::Token, 0, vec![b"/*/".to_vec()]));
        assert_eq!(gap(b"/* open", false), (7, Stop::End, 0, vec![b"/* open".to_vec()]));
        assert_eq!(unclosed_comment(b"a /* b */ c /* open\nd"), Some(12));
        assert_eq!(unclosed_comment(b"a /* b */ c"), None);
        assert_eq!(unclosed_comment(b"a/*b \"/* quoted\" /*/ c"), None, "not at a token start, quoted, and the quirk /*/");
        assert_eq!(unclosed_comment(b"/*"), Some(0));
        assert_eq!(gap(b"/x", false), (0, Stop::Token, 0, vec![]));
    }

    #[test]
    fn scan_quoted_keeps_what_fits_and_counts_lines() {
        let mut buf = [0u8; 4];
        let q = scan_quoted(b"\"a\n\\\"bcd\" e", 0, &mut buf);
        assert_eq!((q.end, q.len, q.line_breaks, &buf), (9, 4, 1, b"a\n\"b"));
        let q = scan_quoted(b"\"ab\0cd\"", 0, &mut buf);
        assert_eq!((q.end, q.len), (3, 2));
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
    fn unget_twice_is_an_error_at_the_sessions_line() {
        let mut t = Tokenizer::new(b"\na\0");
        t.read(true);
        t.unget().unwrap();
        assert_eq!(t.unget(), Err(UngetTwice { line: 2, session: SESSION_NAME }));
    }

    #[test]
    fn token_hash_matches_the_string_hash() {
        let mut t = Tokenizer::new(b"Abc,  \"Q\xffz\" x\0");
        for _ in 0..3 {
            let tok = t.read(true).to_vec();
            assert_eq!(t.token_hash(), string_hash(&tok));
        }
        let mut t = Tokenizer::new(b"none,\0");
        t.read(true);
        t.strip_last();
        assert_eq!(t.token_hash(), string_hash(b"none"));
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
