//! Action-animation selector exports (game and cgame units).
//!
//! A thin C face over [`crate::action::ActionTable`]: tables live on the heap
//! behind an opaque pointer, and every entry point accepts NULL (it answers
//! -1 or NULL, or does nothing). None of these functions calls the engine or
//! raises an engine error: failures are return values. docs/ACTION.md
//! describes the API and the selection rule.
#![allow(non_camel_case_types)]

use core::ffi::c_char;
use core::ptr;
use alloc::alloc::{alloc, Layout};
use alloc::boxed::Box;

use super::arg::{c_str, c_str_bounded, write_c_str};
use crate::action::{ActionTable, Vec3, MAX_ENTRIES, MAX_NAME_LEN};
use crate::math::HardwareRoots;

/// An action-animation table (opaque to C): up to 128 entries, each a name,
/// a type, a normalised ground direction, a nominal speed and whether the
/// shape has a sequence for it.
pub struct uoanim_action_table {
    table: ActionTable<HardwareRoots>,
}

/// Type of an action animation: standing still (the root action).
///
/// (Declared for C as the enum of the header, see `tools/headers`.)
/// cbindgen:ignore
pub const UOANIM_ACTION_ROOT: i32 = 0;
/// Type of an action animation: ground movement.
///
/// (Declared for C as the enum of the header, see `tools/headers`.)
/// cbindgen:ignore
pub const UOANIM_ACTION_MOVE: i32 = 1;
/// Type of an action animation: jumping.
///
/// (Declared for C as the enum of the header, see `tools/headers`.)
/// cbindgen:ignore
pub const UOANIM_ACTION_JUMP: i32 = 2;
/// Type of an action animation: falling.
///
/// (Declared for C as the enum of the header, see `tools/headers`.)
/// cbindgen:ignore
pub const UOANIM_ACTION_FALL: i32 = 3;
/// Type of an action animation: landing.
///
/// (Declared for C as the enum of the header, see `tools/headers`.)
/// cbindgen:ignore
pub const UOANIM_ACTION_LAND: i32 = 4;
/// Type of an action animation: anything else.
///
/// (Declared for C as the enum of the header, see `tools/headers`.)
/// cbindgen:ignore
pub const UOANIM_ACTION_OTHER: i32 = 5;
/// Most entries a table holds.
pub const UOANIM_ACTION_MAX_ENTRIES: i32 = 128;
/// Longest entry name in bytes, without the terminating NUL.
pub const UOANIM_ACTION_MAX_NAME: i32 = 63;

const _: () = assert!(UOANIM_ACTION_MAX_ENTRIES as usize == MAX_ENTRIES);
const _: () = assert!(UOANIM_ACTION_MAX_NAME as usize == MAX_NAME_LEN);
const _: () = {
    use crate::action::ActionType;
    assert!(UOANIM_ACTION_ROOT == ActionType::Root as i32);
    assert!(UOANIM_ACTION_MOVE == ActionType::Move as i32);
    assert!(UOANIM_ACTION_JUMP == ActionType::Jump as i32);
    assert!(UOANIM_ACTION_FALL == ActionType::Fall as i32);
    assert!(UOANIM_ACTION_LAND == ActionType::Land as i32);
    assert!(UOANIM_ACTION_OTHER == ActionType::Other as i32);
};

/// An index or count as `int32_t` (they are at most 128).
fn to_i32(value: usize) -> i32 {
    i32::try_from(value).unwrap_or(-1)
}

/// Creates an empty table; NULL when memory is exhausted. Free it with
/// `uoanim_action_table_free`.
#[no_mangle]
extern "C" fn uoanim_action_table_new() -> *mut uoanim_action_table {
    let layout = Layout::new::<uoanim_action_table>();
    // SAFETY: the layout has a non-zero size (the table is an array).
    let raw = unsafe { alloc(layout) }.cast::<uoanim_action_table>();
    if raw.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: `raw` is a fresh allocation with the layout of the type,
    // so it is aligned and valid for one write.
    unsafe { raw.write(uoanim_action_table { table: ActionTable::with_roots(HardwareRoots) }) };
    raw
}

/// Frees a table made by `uoanim_action_table_new`; NULL is ignored. Names
/// returned by `uoanim_action_name` for it become invalid.
///
/// # Safety
/// `table` is NULL or a live table from `uoanim_action_table_new`, not used
/// afterwards.
#[no_mangle]
unsafe extern "C" fn uoanim_action_table_free(table: *mut uoanim_action_table) {
    if !table.is_null() {
        // SAFETY: allocated in `uoanim_action_table_new` by the global
        // allocator with this type's layout, as `Box` does; the caller
        // hands it back exactly once.
        drop(unsafe { Box::from_raw(table) });
    }
}

/// Appends an entry and returns its index, or -1 (and changes nothing) when
/// the table or name is NULL, the name is empty or longer than 63 bytes, the
/// type is not 0..5, a direction component or the speed is NaN or infinite,
/// or the table is full. The direction is stored normalised; `has_sequence`
/// 0 marks an entry the shape has no sequence for.
///
/// # Safety
/// `table` is NULL or a live table; `name` is NULL or a NUL-terminated string
/// (only its first 64 bytes are ever read).
#[no_mangle]
unsafe extern "C" fn uoanim_action_table_add(
    table: *mut uoanim_action_table,
    name: *const c_char,
    kind: i32,
    dir_x: f32,
    dir_y: f32,
    dir_z: f32,
    speed: f32,
    has_sequence: i32,
) -> i32 {
    // SAFETY: NULL or a live table, not aliased during the call (caller).
    let Some(table) = (unsafe { table.as_mut() }) else { return -1 };
    // SAFETY: NULL or a NUL-terminated string (caller).
    let Some(name) = (unsafe { c_str_bounded(name, MAX_NAME_LEN) }) else { return -1 };
    let added = table.table.add(name, kind, Vec3::new(dir_x, dir_y, dir_z), speed, has_sequence != 0);
    added.map(to_i32).unwrap_or(-1)
}

/// Number of entries, or -1 for a NULL table.
///
/// # Safety
/// `table` is NULL or a live table.
#[no_mangle]
unsafe extern "C" fn uoanim_action_table_count(table: *const uoanim_action_table) -> i32 {
    // SAFETY: NULL or a live table (caller).
    unsafe { table.as_ref() }.map_or(-1, |t| to_i32(t.table.len()))
}

/// Index of the root action (the first entry of type UOANIM_ACTION_ROOT, 0
/// when there is none), or -1 for a NULL table.
///
/// # Safety
/// `table` is NULL or a live table.
#[no_mangle]
unsafe extern "C" fn uoanim_action_table_root(table: *const uoanim_action_table) -> i32 {
    // SAFETY: NULL or a live table (caller).
    unsafe { table.as_ref() }.map_or(-1, |t| to_i32(t.table.root()))
}

/// Adds the entries described by `text`, one per line:
/// `<name> <type> [dir <x> <y> <z>] [speed <s>] [nosequence]` (`#` or `//`
/// starts a comment). Returns the number of entries added. All or nothing:
/// on the first bad line nothing is added, -1 is returned and `error`
/// receives "line N: <what is wrong>". On success `error` receives the empty
/// string. `error` may be NULL; the message is cut to `error_size - 1` bytes
/// and always NUL-terminated when `error_size` > 0. A NULL table or text
/// gives -1 and a message without line number.
///
/// # Safety
/// `table` is NULL or a live table; `text` is NULL or a NUL-terminated
/// string; `error` is NULL or valid for writes of `error_size` bytes.
#[no_mangle]
unsafe extern "C" fn uoanim_action_table_parse(
    table: *mut uoanim_action_table,
    text: *const c_char,
    error: *mut c_char,
    error_size: usize,
) -> i32 {
    // SAFETY: NULL or a live table, not aliased during the call (caller).
    let Some(table) = (unsafe { table.as_mut() }) else {
        // SAFETY: `error` is NULL or writable for `error_size` bytes.
        unsafe { write_c_str(error, error_size, b"no table (NULL)") };
        return -1;
    };
    // SAFETY: NULL or a NUL-terminated string (caller), not changed during
    // the call.
    let Some(text) = (unsafe { c_str(text) }) else {
        // SAFETY: as above.
        unsafe { write_c_str(error, error_size, b"no text (NULL)") };
        return -1;
    };
    match table.table.parse(text.to_bytes()) {
        Ok(added) => {
            // SAFETY: as above.
            unsafe { write_c_str(error, error_size, b"") };
            to_i32(added)
        }
        Err(failure) => {
            // SAFETY: as above.
            unsafe { write_c_str(error, error_size, failure.message().as_bytes()) };
            -1
        }
    }
}

/// Picks the action animation for a movement of type `kind` in direction
/// (`dir_x`, `dir_y`, `dir_z`) at `speed` (docs/ACTION.md gives the rule) and
/// returns its index. An unknown type matches no entry and gives the root
/// action. Returns -1 for a NULL table or when a direction component or the
/// speed is NaN or infinite.
///
/// # Safety
/// `table` is NULL or a live table.
#[no_mangle]
unsafe extern "C" fn uoanim_action_find(
    table: *const uoanim_action_table,
    kind: i32,
    dir_x: f32,
    dir_y: f32,
    dir_z: f32,
    speed: f32,
) -> i32 {
    // SAFETY: NULL or a live table (caller).
    let Some(table) = (unsafe { table.as_ref() }) else { return -1 };
    let found = table.table.find(kind, Vec3::new(dir_x, dir_y, dir_z), speed);
    found.map_or(-1, to_i32)
}

/// The NUL-terminated name of entry `index`, or NULL for a NULL table or an
/// index outside 0..count-1. The string belongs to the table and stays valid
/// until the table is freed or modified.
///
/// # Safety
/// `table` is NULL or a live table.
#[no_mangle]
unsafe extern "C" fn uoanim_action_name(table: *const uoanim_action_table, index: i32) -> *const c_char {
    // SAFETY: NULL or a live table (caller).
    let Some(table) = (unsafe { table.as_ref() }) else { return ptr::null() };
    let entry = usize::try_from(index).ok().and_then(|i| table.table.get(i));
    entry.map_or(ptr::null(), |e| e.name_with_nul().as_ptr().cast::<c_char>())
}
