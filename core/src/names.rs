//! Interned names (tree names and animation names) of one load.
//!
//! The C original keys its script variables by engine string handles; the
//! module only needs string identity, so names are interned here: each
//! distinct byte string gets a [`NameId`], its bytes are stored once with a
//! terminating NUL (so they can be handed to the engine as C strings).

use alloc::vec;
use alloc::vec::Vec;

const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[inline(always)]
fn mix(h: u64, word: u64) -> u64 {
    (h.rotate_left(5) ^ word).wrapping_mul(K)
}

/// `N` bytes of `b` from `at` as a little-endian word (0 where `b` is too
/// short, which the callers rule out).
#[inline(always)]
fn word<const N: usize>(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    if let Some(src) = b.get(at..at + N) {
        w[..N].copy_from_slice(src);
    }
    u64::from_le_bytes(w)
}

/// Hash of a name: whole 8-byte words, the tail as one overlapping word
/// (multiply-rotate mixing).  Only slot placement depends on it.
#[inline]
fn hash(bytes: &[u8]) -> u32 {
    let n = bytes.len();
    let mut h = (n as u64).wrapping_mul(K);
    if n >= 8 {
        let mut i = 0;
        while i + 8 <= n {
            h = mix(h, word::<8>(bytes, i));
            i += 8;
        }
        if i < n {
            h = mix(h, word::<8>(bytes, n - 8));
        }
    } else if n >= 4 {
        h = mix(h, word::<4>(bytes, 0) | (word::<4>(bytes, n - 4) << 32));
    } else if n > 0 {
        let b = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(0));
        h = mix(h, b(0) | (b(n / 2) << 8) | (b(n - 1) << 16));
    }
    let h = h.wrapping_mul(K);
    (h >> 32) as u32
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
    /// Open-addressing slots holding `hash << 32 | (id + 1)` (0 = empty);
    /// length is a power of two.
    slots: Vec<u64>,
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
        self.intern_exact(cut_at_nul(name))
    }

    /// Interns `name` with ASCII `A-Z` lowercased (what the engine's
    /// lowercase string lookup does), cut at its first NUL.
    pub fn intern_lowercase(&mut self, name: &[u8]) -> NameId {
        let name = cut_at_nul(name);
        let upper = name.iter().any(u8::is_ascii_uppercase);
        self.intern_token(name, upper)
    }

    /// Interns a name without NUL; `upper` tells whether it holds an ASCII
    /// capital (then it is lowercased first).
    #[inline]
    pub fn intern_token(&mut self, name: &[u8], upper: bool) -> NameId {
        if !upper {
            return self.intern_exact(name);
        }
        let mut scratch = core::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend_from_slice(name);
        scratch.make_ascii_lowercase();
        let id = self.intern_exact(&scratch);
        self.scratch = scratch;
        id
    }

    /// Interns `name`, which holds no NUL.
    #[inline]
    fn intern_exact(&mut self, name: &[u8]) -> NameId {
        if self.slots.len() < 2 * (self.spans.len() + 1) {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let h = hash(name);
        let tag = u64::from(h) << 32;
        let mut slot = h as usize & mask;
        while let Some(&entry) = self.slots.get(slot) {
            if entry == 0 {
                break;
            }
            if entry & !0xffff_ffff == tag {
                let id = (entry as u32).wrapping_sub(1);
                if self.get(id) == name {
                    return id;
                }
            }
            slot = (slot + 1) & mask;
        }
        let id = self.spans.len() as NameId;
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(name);
        self.bytes.push(0);
        self.spans.push((start, name.len() as u32));
        if let Some(s) = self.slots.get_mut(slot) {
            *s = tag | u64::from(id + 1);
        }
        id
    }

    /// Doubles the slot table; the slots keep each name's hash, so the
    /// names are placed again without hashing them.
    #[cold]
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(4096);
        let old = core::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for entry in old.into_iter().filter(|&e| e != 0) {
            let mut slot = (entry >> 32) as usize & mask;
            while self.slots.get(slot).is_some_and(|&s| s != 0) {
                slot = (slot + 1) & mask;
            }
            if let Some(s) = self.slots.get_mut(slot) {
                *s = entry;
            }
        }
    }
}

/// `name` up to its first NUL.
fn cut_at_nul(name: &[u8]) -> &[u8] {
    match name.iter().position(|&b| b == 0) {
        Some(n) => &name[..n],
        None => name,
    }
}

#[cfg(test)]
mod tests {
    use std::prelude::rust_2021::*;
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
