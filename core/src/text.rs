//! Diagnostic texts without the heap: [`Text`], what a failure of the
//! units and a parse error of the action selector are written into.

use core::fmt;

/// Capacity of a diagnostic text (bytes, without the terminating NUL).
///
/// Larger than any text the original formats: its own buffers are 1024
/// bytes (player animation) and the engine's error buffer is 4096.
pub const TEXT_CAPACITY: usize = 4095;

/// A diagnostic text: bytes (not necessarily UTF-8), fixed capacity, no heap.
///
/// What a failure of the units' crate (`uoanim::error::Failure`) is
/// written into (the raise path keeps one in a static buffer); never part
/// of a result.
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

    /// Empties the text.
    pub fn clear(&mut self) {
        self.truncate(0);
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

/// Which engine function a failure is raised through, with its first
/// argument (the text is the second, through `"%s"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// `Com_Error(level, "%s", text)`.
    Error {
        /// The [`level`].
        level: i32,
    },
    /// `CompileError(source_pos, "%s", text)`.
    Compile {
        /// Where in the script the compiler is.
        source_pos: u32,
    },
    /// `CompileError2(code_pos, "%s", text)`; `code_pos` is the address of
    /// the script code cell, passed back to the engine unchanged.
    Compile2 {
        /// The cell's address.
        code_pos: usize,
    },
}
