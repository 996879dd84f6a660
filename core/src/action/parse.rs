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

use core::fmt::{self, Write as _};

use super::{ActionTable, ActionType, AddError, Vec3, MAX_ENTRIES, MAX_NAME_LEN};
use crate::text::Text;

/// Why a text was refused: the line and what is wrong with it (borrowing
/// the offending token from the text). Its message, `line N: <what is
/// wrong>`, is written by [`ParseError::write`].
///
/// Not a failure of the units (`uoanim::error::Failure`): it is never
/// raised through the engine (the action selector has no engine error
/// function; the C caller gets the message in its own buffer), so it has
/// no engine function or level. Like a failure it is a small `Copy` value whose text is written
/// into a [`Text`] only where it is wanted.
#[derive(Clone, Copy, PartialEq)]
pub struct ParseError<'a> {
    line: usize,
    problem: Problem<'a>,
}

impl fmt::Display for ParseError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message())
    }
}

impl core::error::Error for ParseError<'_> {}

impl fmt::Debug for ParseError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ParseError({:?})", self.message())
    }
}

impl ParseError<'_> {
    /// The 1-based number of the offending line.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Appends the message, `line N: <what is wrong>`, to `out`.
    pub fn write(&self, out: &mut Text) {
        let _ = write!(out, "line {}: ", self.line);
        match self.problem {
            Problem::NameTooLong => {
                let _ = write!(out, "name is longer than {MAX_NAME_LEN} bytes");
            }
            Problem::MissingType => out.push(b"missing type (root, move, jump, fall, land or other)"),
            Problem::UnknownType(token) => quoted(out, b"unknown type ", token),
            Problem::MissingNumber(keyword, 1) => {
                let _ = write!(out, "'{keyword}' needs a number");
            }
            Problem::MissingNumber(keyword, n) => {
                let _ = write!(out, "'{keyword}' needs {n} numbers");
            }
            Problem::BadNumber(token) => quoted(out, b"bad number ", token),
            Problem::NotFinite(token) => quoted(out, b"number is not finite: ", token),
            Problem::Twice(keyword) => {
                let _ = write!(out, "'{keyword}' given twice");
            }
            Problem::Unexpected(token) => quoted(out, b"unexpected ", token),
            Problem::Add(AddError::Full) => {
                let _ = write!(out, "too many entries (the table holds {MAX_ENTRIES})");
            }
            Problem::Add(other) => {
                let _ = write!(out, "{other}");
            }
        }
    }

    /// The message, `line N: <what is wrong>`.
    pub fn message(&self) -> Text {
        let mut text = Text::new();
        self.write(&mut text);
        text
    }
}

/// What is wrong with a line.
#[derive(Clone, Copy, Debug, PartialEq)]
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

impl<R: crate::math::Roots> ActionTable<R> {
    /// Adds the entries described by `text` (module documentation) and
    /// returns how many were added. All or nothing: on the first bad line
    /// (or one that does not fit in the table) the table is left as it was
    /// and the error names the line.
    pub fn parse<'t>(&mut self, text: &'t [u8]) -> Result<usize, ParseError<'t>> {
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
                return Err(ParseError { line: line_no, problem });
            }
        }
        Ok(self.len() - start)
    }
}
