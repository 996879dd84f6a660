//! Diagnostics: what `uoanim check` reports, and how it prints them.

use serde_json::json;
use std::io::Write;

/// Error or warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    /// Information (what the check assumed), never a problem.
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One diagnostic, located at a token of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// The file as the user named it (or as found in a directory).
    pub file: String,
    /// 1-based line and byte column of the token.
    pub line: u32,
    pub col: u32,
    /// Length of the token in bytes (at least 1 for the underline).
    pub len: u32,
    /// 1-based column and width of the token in characters, as printed:
    /// the line decoded as UTF-8, each invalid byte sequence one character
    /// (U+FFFD, as an editor shows it), a tab one character
    /// ([`char_columns`]).
    pub char_col: u32,
    pub char_len: u32,
    pub severity: Severity,
    /// Stable code (docs/CHECK.md).
    pub code: &'static str,
    /// The message (for an error: the engine's own text, without its
    /// leading marker byte and without the path suffix the engine appends).
    pub message: String,
    /// An extra fact (printed as a note): the engine's own text where the
    /// message is in other words, what the check assumed.
    pub note: Option<String>,
    /// What to do about it (printed as a help): a "did you mean".
    pub help: Option<String>,
    /// The engine's exact text for this error (errors the engine raises).
    pub engine_text: Option<Vec<u8>>,
    /// This is the first error the engine raises (what `--engine` prints).
    pub engine_first: bool,
    /// The edit the help suggests, where it is one (for an editor's quick
    /// fix; not printed).
    pub fix: Option<Fix>,
    /// Other places the diagnostic speaks of (for an editor; not printed).
    pub related: Vec<Related>,
}

/// An edit of a diagnostic's file that does what its help says: bytes
/// `start..end` of the file replaced by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// What it does, as an editor lists it.
    pub title: String,
}

/// A second place of a diagnostic: a file, its 1-based line and byte
/// column, and what is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Related {
    /// The place at byte offset `pos` of `text`.
    pub fn at(file: &str, text: &[u8], pos: usize, message: impl Into<String>) -> Self {
        let (line, col) = line_col(text, pos);
        Related { file: file.to_string(), line, col, message: message.into() }
    }
}

impl Diagnostic {
    /// A diagnostic at byte offset `pos` (length `len`) of `text`.
    pub fn at(file: &str, text: &[u8], pos: usize, len: usize, severity: Severity, code: &'static str, message: String) -> Self {
        let (line, col) = line_col(text, pos);
        let (char_col, char_len) = char_columns(text, pos, len);
        Diagnostic {
            file: file.to_string(),
            line,
            col,
            len: len.max(1) as u32,
            char_col,
            char_len,
            severity,
            code,
            message,
            note: None,
            help: None,
            engine_text: None,
            engine_first: false,
            fix: None,
            related: Vec::new(),
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// 1-based line and column (bytes) of offset `pos` in `text`.
/// Where the line holding byte `pos` of `text` starts.
pub fn line_start(text: &[u8], pos: usize) -> usize {
    text[..pos.min(text.len())].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

/// The last line of `text[..end]` that holds a token (a byte above the
/// space): its start, and its end (`end` itself for the line holding it).
pub fn last_line_with_token(text: &[u8], end: usize) -> Option<(usize, usize)> {
    let mut end = end.min(text.len());
    loop {
        let start = line_start(text, end);
        if text[start..end].iter().any(|&b| (b as i8) > b' ' as i8) {
            return Some((start, end));
        }
        end = start.checked_sub(1)?;
    }
}

pub fn line_col(text: &[u8], pos: usize) -> (u32, u32) {
    let pos = pos.min(text.len());
    let before = &text[..pos];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (line as u32, (pos - start + 1) as u32)
}

/// Characters of `bytes` decoded as UTF-8 with each invalid sequence
/// replaced by one U+FFFD (as `String::from_utf8_lossy` and editors do).
fn lossy_chars(bytes: &[u8]) -> usize {
    bytes.utf8_chunks().map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty())).sum()
}

/// 1-based character column of byte offset `pos` in its line, and the width
/// in characters (at least 1) of the `len` bytes there.
///
/// The game's files are bytes (ASCII, often Latin-1, sometimes anything):
/// a column counts the characters of the line decoded as UTF-8, where each
/// invalid byte sequence (a Latin-1 letter is one) is one character, as an
/// editor that shows the file as UTF-8 counts it; a tab is one character,
/// as compilers and LSP count it.
pub fn char_columns(text: &[u8], pos: usize, len: usize) -> (u32, u32) {
    let pos = pos.min(text.len());
    let start = text[..pos].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = (pos + len).min(text.len());
    let token = &text[pos..end];
    let token = &token[..token.iter().position(|&b| b == b'\n').unwrap_or(token.len())];
    ((lossy_chars(&text[start..pos]) + 1) as u32, lossy_chars(token).max(1) as u32)
}

/// What a file that is not bytes of text to the game should be saved as.
pub const SAVE_AS: &str = "save the file as ANSI or UTF-8 (without a byte-order mark)";

/// The `encoding` warning of a script or tree saved as UTF-16 (it starts
/// with a UTF-16 byte-order mark, marked), if it is: the game reads it as
/// bytes and stops at its first zero byte; `loads` says what that leaves.
pub fn utf16_warning(file: &str, text: &[u8], loads: &str) -> Option<Diagnostic> {
    let bom = text.starts_with(b"\xff\xfe") || text.starts_with(b"\xfe\xff");
    bom.then(|| {
        let message = format!("the file is UTF-16 (it starts with a UTF-16 byte-order mark): the game reads it as bytes, stops at its first zero byte and {loads}");
        Diagnostic::at(file, text, 0, 2, Severity::Warning, "encoding", message).with_help(SAVE_AS)
    })
}

/// Sorts diagnostics in file order (file, line, column; errors before
/// warnings at the same place) and drops exact repeats.
pub fn sort(diags: &mut Vec<Diagnostic>, file_order: &[String]) {
    let rank = |f: &str| file_order.iter().position(|x| x == f).unwrap_or(usize::MAX);
    diags.sort_by(|a, b| {
        (rank(&a.file), &a.file, a.line, a.col, a.severity, a.code).cmp(&(rank(&b.file), &b.file, b.line, b.col, b.severity, b.code))
    });
    diags.dedup_by(|b, a| {
        let same = a.file == b.file && a.line == b.line && a.col == b.col && a.code == b.code && a.message == b.message;
        if same {
            a.engine_first |= b.engine_first;
        }
        same
    });
}

/// Text of a diagnostic's message from engine bytes (lossy UTF-8; control
/// bytes shown as `\xHH`).
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && c != '\t' {
                out.push_str(&format!("\\x{:02x}", c as u32));
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// How [`render_text`] prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Render {
    /// The source line with the token underlined (annotate-snippets).
    pub snippet: bool,
    /// ANSI colours (a terminal).
    pub colour: bool,
}

/// The source line `line` (1-based) of `text` for a snippet, decoded as
/// UTF-8 with each invalid sequence one U+FFFD, and the byte range in it of
/// the token at byte column `col` (1-based) of `len` bytes.
pub fn snippet_line(text: &[u8], line: u32, col: u32, len: u32) -> Option<(String, std::ops::Range<usize>)> {
    let raw = text.split(|&b| b == b'\n').nth((line as usize).checked_sub(1)?)?;
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let s = (col as usize).saturating_sub(1).min(raw.len());
    let e = (s + len as usize).min(raw.len());
    // Decoded piecewise so that the range falls on the token's characters.
    let mut shown = String::from_utf8_lossy(&raw[..s]).into_owned();
    let start = shown.len();
    shown.push_str(&String::from_utf8_lossy(&raw[s..e]));
    let end = shown.len();
    shown.push_str(&String::from_utf8_lossy(&raw[e..]));
    Some((shown, start..end))
}

/// Human output: the first line `path:line:col: severity[CODE]: message`
/// (columns in characters, [`char_columns`]), then with `how.snippet` the
/// source line with the token underlined, rendered by annotate-snippets
/// (the renderer rustc uses: a tab is shown as four spaces and the caret
/// follows it, control characters are shown as visible symbols, wide
/// characters take two columns), and the note.
pub fn render_text(d: &Diagnostic, source: Option<&[u8]>, how: Render, out: &mut impl Write) -> std::io::Result<()> {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
    let (level, colour) = match d.severity {
        Severity::Error => (Level::ERROR, "\x1b[1;31m"),
        Severity::Warning => (Level::WARNING, "\x1b[1;33m"),
        Severity::Note => (Level::NOTE, "\x1b[1;32m"),
    };
    let head = format!("{}[{}]", d.severity.as_str(), d.code);
    let head = if how.colour { format!("{colour}{head}\x1b[0m") } else { head };
    writeln!(out, "{}:{}:{}: {head}: {}", d.file, d.line, d.char_col, d.message)?;
    let whole_file = crate::FILE_LEVEL.contains(&d.code);
    let snippet = if how.snippet && !whole_file { source.and_then(|t| snippet_line(t, d.line, d.col, d.len)) } else { None };
    let Some((shown, span)) = snippet else {
        // a note of several lines keeps them under its first
        if let Some(note) = &d.note {
            writeln!(out, "    = note: {}", note.replace('\n', "\n            "))?;
        }
        if let Some(help) = &d.help {
            writeln!(out, "    = help: {help}")?;
        }
        // (in the text format, a blank line after each, as after a snippet)
        if how.snippet {
            writeln!(out)?;
        }
        return Ok(());
    };
    let mut group = Group::with_level(level).element(Snippet::source(&shown).line_start(d.line as usize).annotation(AnnotationKind::Primary.span(span)));
    if let Some(note) = &d.note {
        group = group.element(Level::NOTE.message(note));
    }
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(help));
    }
    let renderer = if how.colour { Renderer::styled() } else { Renderer::plain() };
    // A blank line after each, as compilers separate theirs.
    writeln!(out, "{}\n", renderer.render(&[group]))
}

/// One JSON object (one line) per diagnostic.
pub fn to_json(d: &Diagnostic) -> serde_json::Value {
    let mut v = json!({
        "file": d.file,
        "line": d.line,
        "column": d.char_col,
        "end_column": d.char_col + d.char_len,
        "severity": d.severity.as_str(),
        "code": d.code,
        "message": d.message,
        "engine_first": d.engine_first,
    });
    if let Some(note) = &d.note {
        v["note"] = json!(note);
    }
    if let Some(help) = &d.help {
        v["help"] = json!(help);
    }
    if let Some(t) = &d.engine_text {
        v["engine_text"] = json!(String::from_utf8_lossy(t));
    }
    v
}

/// A SARIF 2.1.0 log of one run: the rules (every code) and a result per
/// diagnostic (1-based lines and columns as `check` counts them:
/// characters of the line decoded as UTF-8, [`char_columns`]).
pub fn to_sarif(diags: &[Diagnostic], codes: &[(&str, Severity)], version: &str) -> serde_json::Value {
    let level = |s: Severity| match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let rules: Vec<_> = codes
        .iter()
        .map(|(c, s)| json!({"id": c, "defaultConfiguration": {"level": level(*s)}, "helpUri": format!("docs/CHECK.md#{c}")}))
        .collect();
    let results: Vec<_> = diags
        .iter()
        .map(|d| {
            let mut message = d.message.clone();
            if let Some(n) = &d.note {
                message = format!("{message}\nnote: {n}");
            }
            if let Some(h) = &d.help {
                message = format!("{message}\nhelp: {h}");
            }
            json!({
                "ruleId": d.code,
                "ruleIndex": codes.iter().position(|(c, _)| *c == d.code),
                "level": level(d.severity),
                "message": {"text": message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": crate::uri::reference(&d.file, cfg!(windows))},
                    "region": {"startLine": d.line, "startColumn": d.char_col, "endColumn": d.char_col + d.char_len}
                }}],
                "properties": {"engineFirst": d.engine_first}
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "uoanim", "version": version, "informationUri": "docs/CHECK.md", "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results
        }]
    })
}

/// Cuts the marker byte and the `": (path, line N)"` suffix off an engine
/// text of the player-animation parser.
/// A `/*` comment that no `*/` closes (as the engine's tokenizer reads the
/// text): the engine reads nothing after it.
pub fn unclosed_comment_warning(display: &str, text: &[u8]) -> Option<Diagnostic> {
    let at = uoanim_core::lexis::unclosed_comment(text)?;
    // only comments and white space after it: nothing is lost
    let rest = &text[at..];
    let words = rest.split(|&b| b == b'\n').skip(1).any(|l| l.iter().any(|&b| (b as i8) > b' ' as i8));
    if !words {
        return None;
    }
    let (last, _) = line_col(text, text.len().saturating_sub(1));
    Some(
        Diagnostic::at(display, text, at, 2, Severity::Warning, "unclosed-comment", format!("this '/*' is never closed: the engine reads the rest of the file, through line {last}, as a comment"))
            .with_help("close it with '*/'"),
    )
}

pub fn engine_message(text: &[u8]) -> String {
    let t = text.strip_prefix(b"\x15").unwrap_or(text);
    let t = match find_suffix(t) {
        Some(i) => &t[..i],
        None => t,
    };
    let t = t.strip_suffix(b"\n").unwrap_or(t);
    printable(t)
}

fn find_suffix(t: &[u8]) -> Option<usize> {
    let needle = b": (mp/playeranim.script, line ";
    t.windows(needle.len()).rposition(|w| w == needle)
}
