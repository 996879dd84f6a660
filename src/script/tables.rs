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
pub use uoanim_core::lookup::same_name;
use uoanim_core::lookup;

/// The bytes of a 64-byte name field up to its NUL (all 64 without one).
pub fn field_name(field: &[u8; BG_ANIM_NAME_SIZE]) -> &[u8] {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    &field[..end]
}

/// `BG_IndexForString` over one of the engine's tables, with
/// `string_hash(name)` already known (see
/// [`uoanim_core::lookup::index_for_string_hashed`]); `resolve` turns an
/// entry's name pointer into its bytes.
pub fn index_for_string_hashed<'n>(name: &[u8], hash: i32, strings: &mut [S], resolve: impl Fn(*const c_char) -> Option<&'n [u8]>) -> i32 {
    lookup::index_for_string_hashed(name, hash, strings, |e: &S| resolve(e.name))
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


pub use uoanim_core::lookup::HashIndex;

/// `BG_IndexForString` through a [`HashIndex`] of the same table (see
/// [`uoanim_core::lookup::index_for_string_indexed`]).
pub fn index_for_string_indexed<'n, const N: usize>(
    name: &[u8],
    hash: impl FnOnce() -> i32,
    strings: &mut [S],
    index: &mut HashIndex<'n, N>,
    resolve: impl Fn(*const c_char) -> Option<&'n [u8]> + Copy,
) -> i32 {
    lookup::index_for_string_indexed(name, hash, strings, index, move |e: &S| resolve(e.name))
}

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
