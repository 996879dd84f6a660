//! `BG_IndexForString`: a name's index in a table of names, as the engine
//! looks it up (the first entry of an equal hash whose name is equal with
//! case ignored, stopping at the table's end), storing each hash it
//! computes in the entry; and [`HashIndex`], the same answers and the same
//! stores in O(log n) while a table does not change.
//!
//! A table is a slice of entries ([`IndexedName`]); their names are read
//! through the caller's `resolve` (the C units' entries point at C strings).
//!
//! ```
//! use uoanim_core::lookup::{index_for_string, IndexedName, HASH_UNSET};
//!
//! struct Entry(&'static [u8], i32);
//! impl IndexedName for Entry {
//!     fn is_end(&self) -> bool { self.0.is_empty() }
//!     fn hash(&self) -> i32 { self.1 }
//!     fn set_hash(&mut self, hash: i32) { self.1 = hash }
//! }
//! let mut table = [Entry(b"IDLE", HASH_UNSET), Entry(b"WALK", HASH_UNSET), Entry(b"", HASH_UNSET)];
//! assert_eq!(index_for_string(b"walk", &mut table, |e| Some(e.0)), 1);
//! assert_ne!(table[0].hash(), HASH_UNSET); // passed over: its hash is stored
//! ```

use crate::lexis::string_hash;

/// `BG_INDEXED_STRING_HASH_UNSET`: the hash of an entry not yet looked up.
pub const HASH_UNSET: i32 = -1;

/// An entry of a table of names (`bg_indexed_string_t`).
pub trait IndexedName {
    /// Whether it ends the table (the C NULL name).
    fn is_end(&self) -> bool;
    /// Its stored hash ([`HASH_UNSET`] when none is).
    fn hash(&self) -> i32;
    /// Stores its hash.
    fn set_hash(&mut self, hash: i32);
}

/// `Q_stricmpn(a, b, 99999) == 0` for NUL-free byte strings: equal length
/// and equal after folding ASCII letters.
#[inline]
pub fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// `BG_IndexForString`: scans `strings` up to its end (or the end of the
/// slice), filling missing hashes, and returns the index of the first entry
/// whose hash and case-insensitive name match; -1 when none does (the
/// caller raises the "unknown token" error unless missing names are
/// allowed). `resolve` reads an entry's name.
pub fn index_for_string<'n, E: IndexedName>(name: &[u8], strings: &mut [E], resolve: impl Fn(&E) -> Option<&'n [u8]>) -> i32 {
    index_for_string_hashed(name, string_hash(name), strings, resolve)
}

/// [`index_for_string`] with `string_hash(name)` already known.
pub fn index_for_string_hashed<'n, E: IndexedName>(
    name: &[u8],
    hash: i32,
    strings: &mut [E],
    resolve: impl Fn(&E) -> Option<&'n [u8]>,
) -> i32 {
    for (index, entry) in strings.iter_mut().enumerate() {
        if entry.is_end() {
            break;
        }
        if entry.hash() == HASH_UNSET {
            let Some(entry_name) = resolve(entry) else { break };
            entry.set_hash(string_hash(entry_name));
        }
        if hash == entry.hash() {
            let Some(entry_name) = resolve(entry) else { break };
            if same_name(name, entry_name) {
                return index as i32;
            }
        }
    }
    -1
}

/// A sorted `(hash, index)` view of a table, answering "first entry with
/// this hash and name" exactly like the linear scan, in O(log n). Used only
/// while the table cannot change (within one parse); `'n` is the lifetime of
/// the table's names.
#[derive(Clone, Copy)]
pub struct HashIndex<'n, const N: usize> {
    ready: bool,
    len: usize,
    keys: [(i32, u16); N],
    /// For string tables: the hash of each entry (the table's cached one,
    /// or computed privately while the table still holds -1) and how many
    /// leading entries of the table are known to hold their hash.
    hashes: [i32; N],
    filled: usize,
    /// Bit `l` set when an entry's name is `l` bytes long (bit 63: 63 or
    /// more): a name of another length cannot match.
    lengths: u64,
    /// Each entry's name (from the table's resolver), for small tables
    /// compared directly instead of hashing the query.
    names: [&'n [u8]; N],
    names_ok: bool,
}

impl<const N: usize> HashIndex<'_, N> {
    /// An empty, not yet built index.
    pub const fn new() -> Self {
        Self {
            ready: false,
            len: 0,
            keys: [(0, 0); N],
            hashes: [0; N],
            filled: 0,
            lengths: u64::MAX,
            names: [b""; N],
            names_ok: false,
        }
    }

    /// Whether the index answers lookups.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// Builds the index over `(hash, index)` pairs given in index order.
    pub fn build(&mut self, pairs: impl Iterator<Item = (i32, usize)>) {
        self.len = 0;
        for (hash, index) in pairs {
            if self.len == N || index > u16::MAX as usize {
                self.ready = false;
                return;
            }
            self.keys[self.len] = (hash, index as u16);
            self.len += 1;
        }
        self.keys[..self.len].sort_unstable();
        self.ready = true;
    }

    /// Adds an entry (its index is above every other one).
    pub fn insert(&mut self, hash: i32, index: usize) {
        if !self.ready || self.len == N || index > u16::MAX as usize {
            self.ready = false;
            return;
        }
        let at = self.keys[..self.len].partition_point(|&k| k < (hash, index as u16));
        self.keys.copy_within(at..self.len, at + 1);
        self.keys[at] = (hash, index as u16);
        self.len += 1;
    }

    /// The smallest index with `hash` for which `matches` holds.
    pub fn find(&self, hash: i32, mut matches: impl FnMut(usize) -> bool) -> Option<usize> {
        let keys = &self.keys[..self.len];
        let start = keys.partition_point(|&(h, _)| h < hash);
        keys[start..].iter().take_while(|&&(h, _)| h == hash).map(|&(_, i)| i as usize).find(|&i| matches(i))
    }
}

impl<const N: usize> Default for HashIndex<'_, N> {
    fn default() -> Self {
        Self::new()
    }
}

/// `BG_IndexForString` through a [`HashIndex`] of the same table.
///
/// Same result as the linear scan, and the same table writes: the scan
/// stores the hash of every entry it passes that still holds -1 (up to the
/// match, or the whole table on a miss); the index does exactly those
/// stores, with hashes it computed when it was built.
pub fn index_for_string_indexed<'n, E: IndexedName, const N: usize>(
    name: &[u8],
    hash: impl FnOnce() -> i32,
    strings: &mut [E],
    index: &mut HashIndex<'n, N>,
    resolve: impl Fn(&E) -> Option<&'n [u8]> + Copy,
) -> i32 {
    if !index.ready {
        let count = strings.iter().position(|e| e.is_end()).unwrap_or(strings.len());
        if count > N {
            return index_for_string_hashed(name, hash(), strings, resolve);
        }
        let mut lengths = 0u64;
        index.names_ok = true;
        for (i, e) in strings[..count].iter().enumerate() {
            let resolved = resolve(e);
            index.names_ok &= resolved.is_some();
            let entry_name = resolved.unwrap_or(b"");
            index.names[i] = entry_name;
            lengths |= 1u64 << entry_name.len().min(63);
            index.hashes[i] = if e.hash() == HASH_UNSET { string_hash(entry_name) } else { e.hash() };
        }
        index.lengths = lengths;
        index.filled = strings[..count].iter().position(|e| e.hash() == HASH_UNSET).unwrap_or(count);
        let hashes = index.hashes;
        index.build((0..count).map(|i| (hashes[i], i)));
        if !index.ready {
            return index_for_string_hashed(name, hash(), strings, resolve);
        }
    }
    // Once every hash is stored, a miss writes nothing: a name whose
    // length no entry has is a miss without hashing it.
    if index.filled >= index.len && index.lengths & (1u64 << name.len().min(63)) == 0 {
        return -1;
    }
    let found = if index.names_ok && index.len <= 24 {
        // Small table: the first entry with an equal name is the answer
        // (equal names have equal hashes: the hash folds case exactly as
        // the compare does), no need to hash the query.
        index.names[..index.len].iter().position(|&entry_name| entry_name.len() == name.len() && same_name(name, entry_name))
    } else {
        let hash = hash();
        index.find(hash, |i| strings.get(i).and_then(resolve).is_some_and(|n| same_name(name, n)))
    };
    let upto = found.map_or(index.len, |i| i + 1);
    if upto > index.filled {
        for (e, &h) in strings[index.filled..upto].iter_mut().zip(&index.hashes[index.filled..upto]) {
            if e.hash() == HASH_UNSET {
                e.set_hash(h);
            }
        }
        index.filled = upto;
    }
    found.map_or(-1, |i| i as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literals::{Literal, MOVE_TYPES};
    use std::prelude::rust_2021::*;

    #[derive(Clone, Copy)]
    struct Entry(&'static [u8], i32);

    impl IndexedName for Entry {
        fn is_end(&self) -> bool {
            self.0.is_empty()
        }
        fn hash(&self) -> i32 {
            self.1
        }
        fn set_hash(&mut self, hash: i32) {
            self.1 = hash;
        }
    }

    fn table(names: impl Iterator<Item = &'static [u8]>) -> Vec<Entry> {
        names.map(|n| Entry(n, HASH_UNSET)).chain([Entry(b"", HASH_UNSET)]).collect()
    }

    fn name(e: &Entry) -> Option<&'static [u8]> {
        Some(e.0)
    }

    #[test]
    fn index_lookup_is_case_insensitive_and_caches() {
        let mut t = table(Literal::States.names());
        assert_eq!(index_for_string(b"alert", &mut t, name), 2);
        assert_ne!(t[0].hash(), HASH_UNSET);
        assert_eq!(t[3].hash(), HASH_UNSET);
        assert_eq!(index_for_string(b"nope", &mut t, name), -1);
        assert_eq!(index_for_string(b"** UNUSED **", &mut table(Literal::BodyParts.names()), name), 0);
    }

    fn linear_and_indexed(names: &[&[u8]], queries: &[&[u8]]) {
        let mut linear = table(MOVE_TYPES.iter().map(|n| n.to_bytes()));
        let mut indexed = linear.clone();
        let mut ix = HashIndex::<32>::new();
        for q in queries.iter().chain(names) {
            let a = index_for_string(q, &mut linear, name);
            let b = index_for_string_indexed(q, || string_hash(q), &mut indexed, &mut ix, name);
            assert_eq!(a, b, "{q:?}");
            let ha: Vec<i32> = linear.iter().map(|e| e.hash()).collect();
            let hb: Vec<i32> = indexed.iter().map(|e| e.hash()).collect();
            assert_eq!(ha, hb, "table writes after {q:?}");
        }
    }

    #[test]
    fn indexed_lookup_matches_the_scan_and_its_hash_writes() {
        linear_and_indexed(&[b"walk", b"RUN", b"climbdown", b"** unused **"], &[b"idle", b"nope", b"turnleft"]);
        linear_and_indexed(&[], &[b"run", b"walkcr", b"idle"]);
    }
}
