//! The engine's text of a failure: what the exports hand to the engine's
//! error function, and what the tool prints as the engine's message.
//!
//! A [`Failure`] (src/error.rs) is a small value that names what went wrong;
//! writing its text is done here, where the tokenizer and the name table
//! are at hand: a parser diagnostic names a token by where it is in the
//! text (the token buffer is overwritten by every read), and the tokenizer
//! reads it there again; a tree diagnostic names a name of the tree
//! module's table (the registry's own failures are written by the core,
//! [`uoanim_core::registry::TreeFailure::write`]). The error module itself neither tokenizes nor looks a
//! name up.

use crate::error::{conditions_function, CText, Failure, Name, Spelling, Text, PARSE_MESSAGE_CAPACITY};
use crate::lexis::{condition_key, scan_quoted, MAX_TOKEN_CHARS, MAX_TOKEN_LEN};
use crate::names::Names;
use core::fmt::Write as _;
use uoanim_core::registry::write_no_xanim;

impl Failure<'_> {
    /// Appends the failure's text to `out` (cut at the text's capacity, as
    /// the original's buffers cut it). `names` is the animation-tree
    /// module's table, for the failures that name one of its names (an
    /// unknown name, or no table, prints as the empty string).
    pub fn write(&self, names: Option<&Names>, out: &mut Text) {
        match *self {
            Failure::AnimParse { message, spelling, line, path, source } => {
                out.push(b"\x15");
                let start = out.len();
                let (before, after) = message.parts();
                out.push(before);
                if let Some(limit) = message.limit() {
                    let _ = write!(out, "{limit})");
                }
                if let Some(after) = after {
                    let mut buffer = [0u8; MAX_TOKEN_CHARS];
                    out.push(spell(source, spelling, &mut buffer));
                    out.push(after);
                }
                parse_error_suffix(out, start, line, path);
            }
            Failure::RuntimeCount { count, line, path } => {
                out.push(b"\x15");
                let start = out.len();
                let _ = write!(out, "BG_AnimationIndexForString: invalid runtime animation count {count}");
                parse_error_suffix(out, start, line, path);
            }
            Failure::UngetTwice { line, session } => {
                out.push(b"\x15File ");
                out.push(session);
                let _ = write!(out, ", line {line}: UngetToken called twice");
            }
            Failure::SessionOverflow => out.push(b"\x15Com_BeginParseSession: session overflow"),
            Failure::NullDataPointer => out.push(b"\x15Com_ParseExt: NULL data_p"),
            Failure::ScriptLoad { path } => {
                out.push(b"\x15Couldn't load player animation script ");
                out.push(path.unwrap_or(CText::NULL).to_bytes());
                out.push(b"\n");
            }
            Failure::NoAnimation { name } => push3(out, b"\x15BG_AnimationForString: unknown player animation '", name, b"'"),
            Failure::FirstValidClient { client } => {
                let _ = write!(out, "\x15BG_FirstValidItem: invalid client number {client}");
            }
            Failure::UpdateClient { client } => {
                let _ = write!(out, "\x15BG_UpdateConditionValue: invalid client number {client}");
            }
            Failure::UpdateValue { value } => {
                let _ = write!(out, "\x15BG_UpdateConditionValue: invalid condition value {value}");
            }
            Failure::AnimationForIndex => out.push(b"\x15BG_GetAnimationForIndex: index out of bounds"),
            Failure::AnimIndexRange { index, count } => {
                let _ = write!(out, "\x15Player animation index {index} out of 0 to {count} range");
            }
            Failure::NoAnimTree { name } => {
                push3(out, b"\x15Could not find animation tree '", name.unwrap_or(CText::NULL).to_bytes(), b"'")
            }
            Failure::ConditionsClient { state, client } => {
                let _ = write!(out, "\x15{}: invalid client number {client}", conditions_function(state));
            }
            Failure::VehicleType { state, vehicle_type } => {
                let _ = write!(out, "\x15{}: Vehicle type unknown: {vehicle_type}", conditions_function(state));
            }
            Failure::SlotRange { count, index } => {
                let _ = write!(out, "\x15Player animation index out of range ({count}): {index}");
            }
            Failure::DeathLooping { name } => push3(out, b"death animation '", name, b"' is looping"),
            Failure::TreeAllocation => out.push(b"\x15animation tree allocation failed"),
            Failure::NoXAnim { name: Name::C(name) } => write_no_xanim(name.to_bytes(), out),
            Failure::NoXAnim { name: Name::Interned(_) }
            | Failure::Compile { .. }
            | Failure::TreeCount { .. }
            | Failure::DuplicateAnimation { .. }
            | Failure::TreePathTooLong
            | Failure::NotDefined { .. } => {
                if let Some(tree) = self.as_tree() {
                    tree.write(names, out)
                }
            }
            Failure::SyncBoth => out.push(b"\x15animation cannot be sync looping and sync nonlooping"),
            Failure::SyncLeaf { leaf, tree, looping } => {
                push3(out, b"\x15animation '", leaf.to_bytes(), b"' in '");
                out.push(tree.to_bytes());
                out.push(if looping { b"' cannot be sync looping and nonlooping" } else { b"' cannot be sync nonlooping and looping" });
            }
            Failure::DuplicateSync { tree, depth, leaf } => {
                push3(out, b"\x15duplicate specification of animation sync in '", tree.to_bytes(), b"', ");
                let _ = write!(out, "{depth}");
                push3(out, b" nodes above '", leaf.to_bytes(), b"'");
            }
        }
    }

    /// The failure's text (see [`Failure::write`]).
    pub fn text(&self, names: Option<&Names>) -> Text {
        let mut text = Text::new();
        self.write(names, &mut text);
        text
    }
}

/// The bytes of the name a parser diagnostic gives as `spelling` at
/// `source` (`buffer` holds them when they have to be read again).
fn spell<'b>(source: &'b [u8], spelling: Spelling, buffer: &'b mut [u8; MAX_TOKEN_CHARS]) -> &'b [u8] {
    match spelling.form() {
        Spelling::QUOTED => {
            let q = scan_quoted(source, 0, &mut buffer[..MAX_TOKEN_LEN]);
            &buffer[..q.len.min(spelling.kept())]
        }
        Spelling::KEY => {
            let mut key = [0u8; 64];
            let len = condition_key(source, &mut key);
            buffer[..len].copy_from_slice(&key[..len]);
            &buffer[..len]
        }
        _ => source,
    }
}

/// `before`, `name`, `after`.
fn push3(out: &mut Text, before: &[u8], name: &[u8], after: &[u8]) {
    out.push(before);
    out.push(name);
    out.push(after);
}

/// The end of a `BG_AnimParseError` text whose message starts at `start`:
/// the message is cut as the original's 1024-byte buffer cuts it (at its
/// first NUL, at 1023 bytes), then the script path and line follow while
/// the path is set.
fn parse_error_suffix(out: &mut Text, start: usize, line: i32, path: Option<CText<'_>>) {
    let message = &out.as_bytes()[start..];
    let len = message.iter().position(|&b| b == 0).unwrap_or(message.len()).min(PARSE_MESSAGE_CAPACITY);
    out.truncate(start + len);
    if let Some(path) = path {
        out.push(b": (");
        out.push(path.to_bytes());
        let _ = write!(out, ", line {})", line.wrapping_add(1));
    }
}

