//! The text form of a table.
//!
//! One entry per line:
//!
//! ```text
//! <name> <type> [dir <x> <y> <z>] [speed <s>] [nosequence]
//! ```
//!
//! Blank lines are skipped; `#` or `//` starts a comment that runs to the end
//! of the line. Fields are separated by spaces or tabs (a trailing `\r` is
//! whitespace too). The type is one of `root move jump fall land other` and,
//! like the keywords, is matched ignoring ASCII case. The optional clauses
//! may come in any order, each at most once. Numbers use Rust's
//! floating-point syntax (decimal or exponent form, rounded to single
//! precision) and must be finite.

use core::fmt;

use super::{ActionTable, ActionType, AddError, Vec3, MAX_ENTRIES, MAX_NAME_LEN};
use crate::error::Text;

/// Why a text was refused: its message is `line N: <what is wrong>`.
#[derive(Clone, Copy, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    line: usize,
    message: Text,
}

impl fmt::Debug for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ParseError({:?})", self.message)
    }
}

impl ParseError {
    /// The 1-based number of the offending line.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The full message, `line N: <what is wrong>`.
    pub fn message(&self) -> &Text {
        &self.message
    }
}

/// What is wrong with a line.
enum Problem<'a> {
    NameTooLong,
    MissingType,
    UnknownType(&'a [u8]),
    MissingNumber(&'static str, usize),
    BadNumber(&'a [u8]),
    NotFinite(&'a [u8]),
    Twice(&'static str),
    Unexpected(&'a [u8]),
    Add(AddError),
}

impl Problem<'_> {
    fn into_error(self, line: usize) -> ParseError {
        let mut message = crate::text!("line {line}: ");
        match self {
            Problem::NameTooLong => message.push(crate::text!("name is longer than {MAX_NAME_LEN} bytes").as_bytes()),
            Problem::MissingType => message.push(b"missing type (root, move, jump, fall, land or other)"),
            Problem::UnknownType(token) => quoted(&mut message, b"unknown type ", token),
            Problem::MissingNumber(keyword, 1) => message.push(crate::text!("'{keyword}' needs a number").as_bytes()),
            Problem::MissingNumber(keyword, n) => {
                message.push(crate::text!("'{keyword}' needs {n} numbers").as_bytes())
            }
            Problem::BadNumber(token) => quoted(&mut message, b"bad number ", token),
            Problem::NotFinite(token) => quoted(&mut message, b"number is not finite: ", token),
            Problem::Twice(keyword) => message.push(crate::text!("'{keyword}' given twice").as_bytes()),
            Problem::Unexpected(token) => quoted(&mut message, b"unexpected ", token),
            Problem::Add(AddError::Full) => {
                message.push(crate::text!("too many entries (the table holds {MAX_ENTRIES})").as_bytes())
            }
            Problem::Add(other) => message.push(crate::text!("{other}").as_bytes()),
        }
        ParseError { line, message }
    }
}

fn quoted(message: &mut Text, what: &[u8], token: &[u8]) {
    message.push(what);
    message.push(b"'");
    message.push(token);
    message.push(b"'");
}

fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// The line without its comment.
fn strip_comment(line: &[u8]) -> &[u8] {
    let mut i = 0;
    while let Some(&byte) = line.get(i) {
        if byte == b'#' || (byte == b'/' && line.get(i + 1) == Some(&b'/')) {
            return line.get(..i).unwrap_or(&[]);
        }
        i += 1;
    }
    line
}

fn number<'a>(token: Option<&'a [u8]>, keyword: &'static str, needed: usize) -> Result<f32, Problem<'a>> {
    let token = token.ok_or(Problem::MissingNumber(keyword, needed))?;
    let value: f32 = core::str::from_utf8(token)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or(Problem::BadNumber(token))?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Problem::NotFinite(token))
    }
}

/// One parsed line.
struct Line<'a> {
    name: &'a [u8],
    kind: ActionType,
    dir: Vec3,
    speed: f32,
    has_sequence: bool,
}

fn parse_line<'a>(name: &'a [u8], mut tokens: impl Iterator<Item = &'a [u8]>) -> Result<Line<'a>, Problem<'a>> {
    if name.len() > MAX_NAME_LEN {
        return Err(Problem::NameTooLong);
    }
    let kind_token = tokens.next().ok_or(Problem::MissingType)?;
    let kind = ActionType::from_name(kind_token).ok_or(Problem::UnknownType(kind_token))?;
    let mut dir = None;
    let mut speed = None;
    let mut no_sequence = false;
    while let Some(token) = tokens.next() {
        if token.eq_ignore_ascii_case(b"dir") {
            if dir.is_some() {
                return Err(Problem::Twice("dir"));
            }
            let x = number(tokens.next(), "dir", 3)?;
            let y = number(tokens.next(), "dir", 3)?;
            let z = number(tokens.next(), "dir", 3)?;
            dir = Some(Vec3::new(x, y, z));
        } else if token.eq_ignore_ascii_case(b"speed") {
            if speed.is_some() {
                return Err(Problem::Twice("speed"));
            }
            speed = Some(number(tokens.next(), "speed", 1)?);
        } else if token.eq_ignore_ascii_case(b"nosequence") {
            if no_sequence {
                return Err(Problem::Twice("nosequence"));
            }
            no_sequence = true;
        } else {
            return Err(Problem::Unexpected(token));
        }
    }
    Ok(Line { name, kind, dir: dir.unwrap_or(Vec3::ZERO), speed: speed.unwrap_or(0.0), has_sequence: !no_sequence })
}

impl ActionTable {
    /// Adds the entries described by `text` (module documentation) and
    /// returns how many were added. All or nothing: on the first bad line
    /// (or one that does not fit in the table) the table is left as it was
    /// and the error names the line.
    // The error carries its message inline (no heap), hence its size.
    #[allow(clippy::result_large_err)]
    pub fn parse(&mut self, text: &[u8]) -> Result<usize, ParseError> {
        let start = self.len();
        for (number, line) in text.split(|&b| b == b'\n').enumerate() {
            let line_no = number + 1;
            let mut tokens = strip_comment(line).split(|&b| is_blank(b)).filter(|t| !t.is_empty());
            let Some(name) = tokens.next() else { continue };
            let added = parse_line(name, tokens).and_then(|l| {
                self.add(l.name, l.kind.as_i32(), l.dir, l.speed, l.has_sequence).map_err(Problem::Add)
            });
            if let Err(problem) = added {
                self.truncate(start);
                return Err(problem.into_error(line_no));
            }
        }
        Ok(self.len() - start)
    }
}
