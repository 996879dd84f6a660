//! Failures of the safe core, as values.
//!
//! The C original reports errors by calling the engine (`Com_Error`,
//! `CompileError`, `CompileError2`), which `longjmp`s.  The core never calls
//! those: it returns a [`Failure`] carrying the exact text the original would
//! have formatted, and the exported frame in `ffi` raises it.  A `Failure` is
//! `Copy` and owns no heap memory, so raising it leaves nothing to drop.

use core::fmt;

/// Capacity of a diagnostic text (bytes, without the terminating NUL).
///
/// Larger than any text the original formats: its own buffers are 1024
/// bytes (player animation) and the engine's error buffer is 4096.
pub const TEXT_CAPACITY: usize = 4095;

/// A diagnostic text: bytes (not necessarily UTF-8), fixed capacity, no heap.
#[derive(Clone, Copy)]
pub struct Text {
    len: usize,
    bytes: [u8; TEXT_CAPACITY + 1],
}

impl Text {
    /// The empty text.
    pub const fn new() -> Self {
        Self { len: 0, bytes: [0; TEXT_CAPACITY + 1] }
    }

    /// A text holding `bytes` (cut at the capacity).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut text = Self::new();
        text.push(bytes);
        text
    }

    /// Appends `bytes`, silently cutting at the capacity.
    pub fn push(&mut self, bytes: &[u8]) {
        let room = TEXT_CAPACITY - self.len;
        let take = bytes.len().min(room);
        self.bytes[self.len..self.len + take].copy_from_slice(&bytes[..take]);
        self.len += take;
        self.bytes[self.len] = 0;
    }

    /// Cuts the text to at most `len` bytes.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
            self.bytes[len] = 0;
        }
    }

    /// The text's bytes (without NUL).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The text's bytes followed by a NUL (an embedded NUL ends it for C).
    pub fn as_bytes_with_nul(&self) -> &[u8] {
        &self.bytes[..=self.len]
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for Text {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s.as_bytes());
        Ok(())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", alloc::string::String::from_utf8_lossy(self.as_bytes()))
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", alloc::string::String::from_utf8_lossy(self.as_bytes()))
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

/// `errorParm_t` levels the modules use.
pub mod level {
    /// `ERR_FATAL`
    pub const FATAL: i32 = 0;
    /// `ERR_DROP`
    pub const DROP: i32 = 1;
}

/// How the original reports a failure (which engine function, with what).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum Failure {
    /// `Com_Error(level, "%s", text)`.
    #[error("Com_Error({level}): {text}")]
    Error { level: i32, text: Text },
    /// `CompileError(source_pos, "%s", text)`.
    #[error("CompileError(pos {source_pos}): {text}")]
    Compile { source_pos: u32, text: Text },
    /// `CompileError2(code_pos, "%s", text)`; `code_pos` is the address of
    /// the script code cell, passed back to the engine unchanged.
    #[error("CompileError2(cell {code_pos:#x}): {text}")]
    Compile2 { code_pos: usize, text: Text },
}

impl Failure {
    /// `Com_Error(level, text)`.
    pub fn error(level: i32, text: &[u8]) -> Self {
        Failure::Error { level, text: Text::from_bytes(text) }
    }

    /// `Com_Error(ERR_DROP, text)`.
    pub fn drop(text: &[u8]) -> Self {
        Self::error(level::DROP, text)
    }

    /// `Com_Error(ERR_FATAL, text)`.
    pub fn fatal(text: &[u8]) -> Self {
        Self::error(level::FATAL, text)
    }

    /// The diagnostic text.
    pub fn text(&self) -> &Text {
        match self {
            Failure::Error { text, .. } | Failure::Compile { text, .. } | Failure::Compile2 { text, .. } => text,
        }
    }
}

impl From<core::convert::Infallible> for Failure {
    fn from(never: core::convert::Infallible) -> Self {
        match never {}
    }
}

/// Result of a core operation.
pub type Outcome<T> = Result<T, Failure>;

/// Builds a [`Text`] with `format!`-style arguments (no heap).
#[macro_export]
macro_rules! text {
    ($($arg:tt)*) => {{
        let mut t = $crate::error::Text::new();
        let _ = core::fmt::Write::write_fmt(&mut t, format_args!($($arg)*));
        t
    }};
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2021::*;
    use super::*;

    #[test]
    fn text_cuts_at_capacity_and_stays_nul_terminated() {
        let long = vec![b'x'; TEXT_CAPACITY + 10];
        let t = Text::from_bytes(&long);
        assert_eq!(t.len(), TEXT_CAPACITY);
        assert_eq!(*t.as_bytes_with_nul().last().unwrap(), 0);
    }

    #[test]
    fn text_macro_formats() {
        let t = text!("a {} b", 5);
        assert_eq!(t.as_bytes(), b"a 5 b");
    }

    #[test]
    fn failure_is_plain_data() {
        fn assert_copy<T: Copy>() {}
        assert_copy::<Failure>();
        assert!(!core::mem::needs_drop::<Failure>());
    }
}
