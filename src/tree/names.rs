//! Interned names (tree names and animation names) of one load.
//!
//! The C original keys its script variables by engine string handles; the
//! module only needs string identity, so names are interned here: each
//! distinct byte string gets a [`NameId`], its bytes are stored once with a
//! terminating NUL (so they can be handed to the engine as C strings).

/// Hash of a name: 8 bytes at a time (multiply-rotate mixing).
#[inline]
fn hash(bytes: &[u8]) -> u32 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h: u64 = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    (h ^ (h >> 32)) as u32
}

/// A name as C reads it: its bytes followed by one NUL, with no NUL inside
/// (only [`Names`] makes them, from names it cut at their first NUL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CName<'a>(&'a [u8]);

impl<'a> CName<'a> {
    /// `"root"`.
    pub const ROOT: CName<'static> = CName(b"root\0");
    /// The empty name.
    pub const EMPTY: CName<'static> = CName(b"\0");

    /// The bytes including the terminating NUL (no other NUL inside).
    pub fn with_nul(self) -> &'a [u8] {
        self.0
    }

    /// The bytes without the NUL.
    pub fn bytes(self) -> &'a [u8] {
        self.0.split_last().map_or(&[], |(_, rest)| rest)
    }
}

/// Index of an interned name.
pub type NameId = u32;

/// The name table: an arena of NUL-terminated byte strings and an
/// open-addressing index over it.
#[derive(Default)]
pub struct Names {
    bytes: Vec<u8>,
    /// (start, len) of each name in `bytes` (the NUL follows at start+len).
    spans: Vec<(u32, u32)>,
    /// Open-addressing slots holding `id + 1` (0 = empty); length is a power of two.
    slots: Vec<u32>,
    scratch: Vec<u8>,
}

impl Names {
    /// An empty table.
    pub const fn new() -> Self {
        Self { bytes: Vec::new(), spans: Vec::new(), slots: Vec::new(), scratch: Vec::new() }
    }

    /// Forgets every name.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
        self.slots.clear();
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when no name is interned.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The bytes of `id` (without NUL); empty for an unknown id.
    pub fn get(&self, id: NameId) -> &[u8] {
        match self.spans.get(id as usize) {
            Some(&(start, len)) => self.bytes.get(start as usize..(start + len) as usize).unwrap_or(&[]),
            None => &[],
        }
    }

    /// The name as C reads it.
    pub fn c_name(&self, id: NameId) -> CName<'_> {
        self.spans
            .get(id as usize)
            .and_then(|&(start, len)| self.bytes.get(start as usize..=(start + len) as usize))
            .map_or(CName::EMPTY, CName)
    }

    /// Interns `name` (cut at its first NUL, as C would see it).
    pub fn intern(&mut self, name: &[u8]) -> NameId {
        let name = match name.iter().position(|&b| b == 0) {
            Some(n) => &name[..n],
            None => name,
        };
        if self.slots.len() < 2 * (self.spans.len() + 1) {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut slot = hash(name) as usize & mask;
        loop {
            let entry = self.slots[slot];
            if entry == 0 {
                break;
            }
            let id = entry - 1;
            if self.get(id) == name {
                return id;
            }
            slot = (slot + 1) & mask;
        }
        let id = self.spans.len() as NameId;
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(name);
        self.bytes.push(0);
        self.spans.push((start, name.len() as u32));
        self.slots[slot] = id + 1;
        id
    }

    /// Interns `name` with ASCII `A-Z` lowercased (what the engine's
    /// lowercase string lookup does).
    pub fn intern_lowercase(&mut self, name: &[u8]) -> NameId {
        if !name.iter().any(|b| b.is_ascii_uppercase()) {
            return self.intern(name);
        }
        let mut scratch = core::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend(name.iter().take_while(|&&b| b != 0).map(u8::to_ascii_lowercase));
        let id = self.intern(&scratch);
        self.scratch = scratch;
        id
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        self.slots.clear();
        self.slots.resize(size, 0);
        let mask = size - 1;
        for id in 0..self.spans.len() as NameId {
            let mut slot = hash(self.get(id)) as usize & mask;
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = id + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_by_bytes() {
        let mut n = Names::new();
        let a = n.intern(b"walk");
        let b = n.intern(b"run");
        assert_ne!(a, b);
        assert_eq!(n.intern(b"walk"), a);
        assert_eq!(n.get(b), b"run");
        assert_eq!(n.c_name(a).with_nul(), b"walk\0");
        assert_eq!(n.c_name(a).bytes(), b"walk");
        for i in 0..1000 {
            let s = format!("name{i}");
            let id = n.intern(s.as_bytes());
            assert_eq!(n.get(id), s.as_bytes());
        }
        assert_eq!(n.intern(b"walk"), a);
    }

    #[test]
    fn lowercase_folds_ascii_only() {
        let mut n = Names::new();
        let a = n.intern_lowercase(b"WaLk\xC9");
        assert_eq!(n.get(a), b"walk\xC9");
        assert_eq!(n.intern(b""), n.intern_lowercase(b""));
    }
}
