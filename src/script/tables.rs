//! The module's string tables, the name hash, table lookups and the number
//! conversion of `duration` / `blendtime` values.

use crate::abi::bg::*;
use crate::flavour::{Behaviour, CLibrary};
use crate::cstr::c_bytes;
use core::ffi::{c_char, CStr};

type S = bg_indexed_string_t;

pub use uoanim_core::literals::{Literal, ValueTable};
use uoanim_core::literals as lit;

/// The engine's table of the names `names` (the core's literals), ended by
/// its NULL entry: `M` is one more than `N`.
const fn table<const N: usize, const M: usize>(names: &[&'static CStr; N]) -> [S; M] {
    assert!(M == N + 1, "a table holds its names and the NULL entry");
    let mut out = [S::END; M];
    let mut i = 0;
    while i < N {
        out[i] = S::of(names[i]);
        i += 1;
    }
    out
}

/// `animStateStr`.
pub const ANIM_STATE_STR: [S; 5] = table(&lit::STATES);
/// `bgAnimGroupStrings` (move types).
pub const ANIM_GROUP_STRINGS: [S; 19] = table(&lit::MOVE_TYPES);
/// `bgAnimEventStrings`.
pub const ANIM_EVENT_STRINGS: [S; 17] = table(&lit::EVENTS);
/// `animBodyPartsStr`.
pub const ANIM_BODY_PARTS_STR: [S; 5] = table(&lit::BODY_PARTS);
/// `animMountedStr`.
pub const ANIM_MOUNTED_STR: [S; 9] = table(&lit::MOUNTED);
/// `animVehicleMotionStr`.
pub const ANIM_VEHICLE_MOTION_STR: [S; 5] = table(&lit::VEHICLE_MOTION);
/// `animVehicleStr`.
pub const ANIM_VEHICLE_STR: [S; 5] = table(&lit::VEHICLES);
/// `animWeaponClassStr`.
pub const ANIM_WEAPON_CLASS_STR: [S; 12] = table(&lit::WEAPON_CLASSES);
/// `animWeaponPositionStr`.
pub const ANIM_WEAPON_POSITION_STR: [S; 3] = table(&lit::WEAPON_POSITIONS);
/// `animStrafeStateStr`.
pub const ANIM_STRAFE_STATE_STR: [S; 4] = table(&lit::STRAFE_STATES);
/// `bgAnimConditionTypeStrings` (index = `ANIM_COND_*`).
pub const ANIM_CONDITION_TYPE_STRINGS: [S; 12] = table(&lit::CONDITION_NAMES);
/// `bgAnimParseSectionStrings` (index = `ANIM_SECTION_*`).
pub const ANIM_PARSE_SECTION_STRINGS: [S; 6] = table(&lit::SECTIONS);

/// A name the module's string tables may hold: NULL, a literal, or a string
/// of engine memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableName(*const c_char);

impl TableName {
    /// No name.
    pub const NULL: Self = TableName(core::ptr::null());

    /// A name that lives as long as the program.
    pub const fn of_static(name: &'static core::ffi::CStr) -> Self {
        TableName(name.as_ptr())
    }

    /// A name of engine memory.
    ///
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `name` is NULL
    /// or a NUL-terminated string that stays valid and unchanged for as long
    /// as a table of the module holds it.
    pub const unsafe fn new(name: *const c_char) -> Self {
        TableName(name)
    }

    /// The pointer a table entry stores.
    pub const fn as_ptr(self) -> *const c_char {
        self.0
    }
}

/// The engine's weapon list (`bg_numWeapons`, `bg_weaponInfos`), read when
/// its names are taken: the names of weapons 1 to `bg_numWeapons` (at most
/// `MAX_WEAPONS - 1`), a missing list or record giving a NULL name
/// (divergence: the C would crash).
#[derive(Clone, Copy)]
pub struct WeaponList<'w> {
    count: *const i32,
    infos: *const *mut *mut weaponInfo_t,
    _memory: core::marker::PhantomData<&'w weaponInfo_t>,
}

impl WeaponList<'_> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `count` and
    /// `infos` are the engine's globals, valid for `'w`; `*infos` is NULL or
    /// an array of at least `*count + 1` pointers, each NULL or a live
    /// record whose `pickupName` is as for [`TableName::new`].
    pub const unsafe fn engine(count: *const i32, infos: *const *mut *mut weaponInfo_t) -> Self {
        WeaponList { count, infos, _memory: core::marker::PhantomData }
    }
}

impl IntoIterator for WeaponList<'_> {
    type Item = TableName;
    type IntoIter = WeaponNames;

    fn into_iter(self) -> WeaponNames {
        // SAFETY: the engine's globals (the constructor's contract).
        let (count, infos) = unsafe { (*self.count, *self.infos) };
        WeaponNames { infos, next: 1, end: count.clamp(0, MAX_WEAPONS as i32 - 1) as usize }
    }
}

/// The names of a [`WeaponList`].
pub struct WeaponNames {
    infos: *mut *mut weaponInfo_t,
    next: usize,
    end: usize,
}

impl Iterator for WeaponNames {
    type Item = TableName;

    fn next(&mut self) -> Option<TableName> {
        if self.next > self.end {
            return None;
        }
        let i = self.next;
        self.next += 1;
        if self.infos.is_null() {
            return Some(TableName::NULL);
        }
        // SAFETY: `i <= *count`: an element of the engine's array, NULL or
        // a live record whose name a table may keep (WeaponList::engine).
        unsafe {
            let info = *self.infos.add(i);
            Some(if info.is_null() { TableName::NULL } else { TableName::new((*info).pickupName) })
        }
    }
}

/// The literal stored as weapon 0.
pub const WEAPON_NONE: &[u8] = b"none\0";

/// A caller's NULL-name-terminated value table (the standalone
/// `BG_ParseConditionBits` export), terminator included.
pub struct ExternalTable<'t>(&'t mut [S]);

impl<'t> ExternalTable<'t> {
    /// The table at `table`, up to and including its first entry with a NULL
    /// name; NULL gives an empty table.
    ///
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `table` is NULL
    /// or points at entries up to one with a NULL name, whose other names
    /// are NUL-terminated strings, all valid, and neither read nor written
    /// through another path, for `'t`.
    pub unsafe fn new(table: *mut S) -> Self {
        if table.is_null() {
            return ExternalTable(&mut []);
        }
        let mut len = 0usize;
        // SAFETY: guaranteed by the caller: every entry up to the
        // terminator is readable, and the slice covers exactly those.
        unsafe {
            while !(*table.add(len)).name.is_null() {
                len += 1;
            }
            ExternalTable(core::slice::from_raw_parts_mut(table, len + 1))
        }
    }

    /// [`index_for_string_hashed`] in this table (which stores the hashes
    /// it computes, as the original does).
    pub fn index_of(&mut self, name: &[u8], hash: i32) -> i32 {
        // SAFETY: the names are NUL-terminated strings (the constructor's
        // contract), and no one else can write them meanwhile.
        index_for_string_hashed(name, hash, self.0, |p| unsafe { c_bytes(p) })
    }
}

/// The table `BG_ParseConditionBits` looks values up in.
pub enum Values<'t> {
    /// One of the module's own tables.
    Module(ValueTable),
    /// A caller's table.
    External(ExternalTable<'t>),
}

/// One element of the exported `bgAnimConditionTypes`.
pub const fn condition_type(mode: i32, values: *mut S) -> bg_anim_condition_type_t {
    bg_anim_condition_type_t { mode, values }
}

/// `bgAnimConditionTypes`: mode (`ANIM_CONDMODE_*`) and value table per
/// condition type, from the core's [`lit::CONDITIONS`].
pub const CONDITION_TYPES: [(i32, Option<ValueTable>); ANIM_COND_COUNT] = {
    let mut out = [(0, None); ANIM_COND_COUNT];
    let mut i = 0;
    while i < ANIM_COND_COUNT {
        let c = lit::CONDITIONS[i];
        let mode = match c.mode {
            lit::ConditionMode::Bitmask => ANIM_CONDMODE_BITMASK,
            lit::ConditionMode::Equal => ANIM_CONDMODE_EQUAL,
        };
        out[i] = (mode, c.values);
        i += 1;
    }
    out
};

pub use uoanim_core::lexis::string_hash;

/// `Q_stricmpn(a, b, 99999) == 0` for NUL-free byte strings: equal length
/// and equal after folding ASCII letters.
#[inline]
pub fn same_name(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The bytes of a 64-byte name field up to its NUL (all 64 without one).
pub fn field_name(field: &[u8; BG_ANIM_NAME_SIZE]) -> &[u8] {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    &field[..end]
}

/// `BG_IndexForString`: scans `strings` up to its NULL-name terminator (or
/// the end of the slice), filling missing hashes, and returns the index of
/// the first entry whose hash and case-insensitive name match; -1 when none
/// does (the caller raises the "unknown token" error unless missing names
/// are allowed). `resolve` turns an entry's name pointer into its bytes.
pub fn index_for_string<'n>(
    name: &[u8],
    strings: &mut [bg_indexed_string_t],
    resolve: impl Fn(*const c_char) -> Option<&'n [u8]>,
) -> i32 {
    index_for_string_hashed(name, string_hash(name), strings, resolve)
}

/// [`index_for_string`] with `string_hash(name)` already known.
pub fn index_for_string_hashed<'n>(
    name: &[u8],
    hash: i32,
    strings: &mut [bg_indexed_string_t],
    resolve: impl Fn(*const c_char) -> Option<&'n [u8]>,
) -> i32 {
    for (index, entry) in strings.iter_mut().enumerate() {
        if entry.name.is_null() {
            break;
        }
        if entry.hash == BG_INDEXED_STRING_HASH_UNSET {
            let Some(entry_name) = resolve(entry.name) else { break };
            entry.hash = string_hash(entry_name);
        }
        if hash == entry.hash {
            let Some(entry_name) = resolve(entry.name) else { break };
            if same_name(name, entry_name) {
                return index as i32;
            }
        }
    }
    -1
}

/// The `atoi` the parser uses for `duration` and `blendtime` values, for the
/// unit being built (its behaviour and the C library of its target,
/// [`crate::flavour::C_LIBRARY`]); see [`atoi_of`].
pub fn atoi(text: &[u8], behaviour: Behaviour) -> i32 {
    atoi_of(text, behaviour, crate::flavour::C_LIBRARY)
}

/// The `atoi` of the C original for a behaviour and a C library.
///
/// * Windows behaviour (MSVC-style, part of the client module): leading
///   white space, one sign, digits accumulated modulo 2^32, negated for `-`.
/// * Linux behaviour: the C library's `atoi`. glibc:
///   `(int)strtol(text, NULL, 10)`: leading white space, one sign, decimal
///   digits, saturating at the range of `long` (64-bit on x86_64, 32-bit on
///   i686), then truncated to 32 bits. msvcrt (the Windows targets): the
///   classic MS CRT accumulation modulo 2^32, the same as the MSVC-style one.
pub fn atoi_of(text: &[u8], behaviour: Behaviour, library: CLibrary) -> i32 {
    match (behaviour, library) {
        (Behaviour::Linux, CLibrary::Glibc) => glibc_atoi(text, core::mem::size_of::<core::ffi::c_long>() * 8),
        (Behaviour::Windows, _) | (Behaviour::Linux, CLibrary::Msvcrt) => msvc_atoi(text),
    }
}

pub use uoanim_core::atoi::{glibc_atoi, msvc_atoi};

#[cfg(test)]
mod tests {
    use std::prelude::rust_2021::*;
    use super::*;

    #[test]
    fn hash_folds_ascii_and_signs_high_bytes() {
        assert_eq!(string_hash(b"abc"), string_hash(b"ABC"));
        assert_eq!(string_hash(b"a"), 97 * 119);
        assert_eq!(string_hash(b"\xff"), (-119i32));
        assert_eq!(string_hash(b""), 0);
    }

    #[test]
    fn index_lookup_is_case_insensitive_and_caches() {
        let mut t = ANIM_STATE_STR;
        let r = |p: *const c_char| unsafe { c_bytes(p) };
        assert_eq!(index_for_string(b"alert", &mut t, r), 2);
        assert_ne!(t[0].hash, -1);
        assert_eq!(t[3].hash, -1);
        assert_eq!(index_for_string(b"nope", &mut t, r), -1);
        assert_eq!(index_for_string(b"** UNUSED **", &mut ANIM_BODY_PARTS_STR.clone(), r), 0);
    }

    #[test]
    fn msvcrt_atoi_wraps_for_the_linux_behaviour_on_windows() {
        // the game flavour built for Windows: msvcrt's atoi, as the cgame's
        for text in [&b"-99999999999999999999"[..], b"4294967297", b"  +12x", b"2147483648"] {
            assert_eq!(atoi_of(text, Behaviour::Linux, CLibrary::Msvcrt), msvc_atoi(text));
            assert_eq!(atoi_of(text, Behaviour::Windows, CLibrary::Glibc), msvc_atoi(text));
        }
        assert_eq!(atoi_of(b"-99999999999999999999", Behaviour::Linux, CLibrary::Msvcrt) as i16, 1);
        assert_eq!(atoi_of(b"4294967297", Behaviour::Linux, CLibrary::Msvcrt), 1);
        let long_is_64 = core::mem::size_of::<core::ffi::c_long>() == 8;
        assert_eq!(atoi_of(b"4294967297", Behaviour::Linux, CLibrary::Glibc), if long_is_64 { 1 } else { i32::MAX });
    }
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
pub fn index_for_string_indexed<'n, const N: usize>(
    name: &[u8],
    hash: impl FnOnce() -> i32,
    strings: &mut [bg_indexed_string_t],
    index: &mut HashIndex<'n, N>,
    resolve: impl Fn(*const c_char) -> Option<&'n [u8]> + Copy,
) -> i32 {
    if !index.ready {
        let count = strings.iter().position(|e| e.name.is_null()).unwrap_or(strings.len());
        if count > N {
            return index_for_string_hashed(name, hash(), strings, resolve);
        }
        let mut lengths = 0u64;
        index.names_ok = true;
        for (i, e) in strings[..count].iter().enumerate() {
            let resolved = resolve(e.name);
            index.names_ok &= resolved.is_some();
            let entry_name = resolved.unwrap_or(b"");
            index.names[i] = entry_name;
            lengths |= 1u64 << entry_name.len().min(63);
            index.hashes[i] = if e.hash == BG_INDEXED_STRING_HASH_UNSET { string_hash(entry_name) } else { e.hash };
        }
        index.lengths = lengths;
        index.filled = strings[..count].iter().position(|e| e.hash == BG_INDEXED_STRING_HASH_UNSET).unwrap_or(count);
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
        index.find(hash, |i| strings.get(i).and_then(|e| resolve(e.name)).is_some_and(|n| same_name(name, n)))
    };
    let upto = found.map_or(index.len, |i| i + 1);
    if upto > index.filled {
        for (e, &h) in strings[index.filled..upto].iter_mut().zip(&index.hashes[index.filled..upto]) {
            if e.hash == BG_INDEXED_STRING_HASH_UNSET {
                e.hash = h;
            }
        }
        index.filled = upto;
    }
    found.map_or(-1, |i| i as i32)
}

#[cfg(test)]
mod index_tests {
    use std::prelude::rust_2021::*;
    use super::*;

    fn linear_and_indexed(names: &[&[u8]], queries: &[&[u8]]) {
        let mut linear: Vec<S> = ANIM_GROUP_STRINGS.to_vec();
        let mut indexed = linear.clone();
        let mut ix = HashIndex::<32>::new();
        let r = |p: *const c_char| unsafe { c_bytes(p) };
        for q in queries.iter().chain(names) {
            let a = index_for_string(q, &mut linear, r);
            let b = index_for_string_indexed(q, || string_hash(q), &mut indexed, &mut ix, r);
            assert_eq!(a, b, "{q:?}");
            let ha: Vec<i32> = linear.iter().map(|e| e.hash).collect();
            let hb: Vec<i32> = indexed.iter().map(|e| e.hash).collect();
            assert_eq!(ha, hb, "table writes after {q:?}");
        }
    }

    #[test]
    fn indexed_lookup_matches_the_scan_and_its_hash_writes() {
        linear_and_indexed(&[b"walk", b"RUN", b"climbdown", b"** unused **"], &[b"idle", b"nope", b"turnleft"]);
        linear_and_indexed(&[], &[b"run", b"walkcr", b"idle"]);
    }
}
