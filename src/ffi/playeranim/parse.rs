//! Parser-side exports of the player animation-script module and the data
//! symbols the C module defines (from the one list `src/script/globals.rs`).
//! Each export converts its arguments and calls one function of
//! `script::session` (or of the parser's `Module`).
#![allow(non_snake_case, non_upper_case_globals)]

use super::engine::PlayerAnimImports;
use super::{bgAnimStaticTable, bgRuntimeAnimationCount, bgRuntimeAnimations, bg_numWeapons, bg_weaponInfos};
use crate::abi::bg::*;
use crate::cell::ModuleCell;
use crate::error::{ParseMessage, TokenName};
use crate::ffi::guard;
use crate::flavour::BEHAVIOUR;
use crate::script::parser::ALIAS_COUNT;
use crate::script::session::{CallerRecord, CallerValues, Cursor, OuterSession, PlayerAnim, Published, ScriptCall, StringCopy};
use crate::cstr::c_bytes;
use crate::script::tables::{condition_type, string_hash, ExternalTable, WeaponList};
use core::ffi::{c_char, c_int};

/// cbindgen:ignore
type S = bg_indexed_string_t;

use crate::ffi::statics::define_statics as player_anim_globals;
include!("../../script/globals.rs");

/// The module as one export sees it.
///
/// # Safety
/// Module contract (crate::cell), and the contract of [`PlayerAnim::new`]
/// for the engine's published pointers; the view must not outlive the
/// export that takes it.
pub(crate) unsafe fn player_anim<'a>() -> PlayerAnim<'a> {
    // SAFETY: forwarded contract; every cell is a distinct global.
    unsafe {
        let published =
            Published { table: bgAnimStaticTable.get(), runtime: bgRuntimeAnimations.get(), count: bgRuntimeAnimationCount.get() };
        PlayerAnim::new(globals(), published, BEHAVIOUR)
    }
}

/// The engine's weapon list.
pub(crate) fn weapons<'w>() -> WeaponList<'w> {
    // SAFETY: the engine's globals, read as the C original reads them.
    unsafe { WeaponList::engine(bg_numWeapons.as_ptr(), bg_weaponInfos.as_ptr()) }
}

// ---- exports ---------------------------------------------------------------

/// `void uoanim_playeranim_reset(void)`: returns the module to its freshly
/// loaded state — every global the library defines gets its initial value
/// again (the exported ones, the script buffer and its loaded flag, the
/// script path, the define windows, the parse position and the count of open
/// parse sessions). The engine's own globals (`bgs`, `bgAnimStaticTable`,
/// …) are left as they are. Not a function of the C original: the engine
/// gets the same effect by loading the module afresh (docs/ABI.md).
///
/// # Safety
/// Module contract: not called while another export of the unit runs.
#[no_mangle]
unsafe extern "C" fn uoanim_playeranim_reset() {
    guard(|| {
        // SAFETY: module contract; no reference into a global is live
        // between exports.
        unsafe { reset_globals() };
        Ok(())
    })
}

/// `void BG_InitWeaponStrings(void)`.
#[no_mangle]
unsafe extern "C" fn BG_InitWeaponStrings() {
    guard(|| {
        // SAFETY: single-threaded module contract.
        unsafe { module() }.init_weapon_strings(weapons());
        Ok(())
    })
}

/// `void BG_AnimParseAnimScript(table, runtimeAnimations, runtimeAnimationCount)`.
#[no_mangle]
unsafe extern "C" fn BG_AnimParseAnimScript(
    table: *mut bg_static_animation_table_t,
    runtimeAnimations: *mut bg_runtime_animation_t,
    runtimeAnimationCount: *mut i32,
) {
    // SAFETY: single-threaded module contract; the pointers are the
    // caller's (a table, a 512-record array and an int, or NULLs).
    guard(|| unsafe {
        let call = ScriptCall::new(table, runtimeAnimations, runtimeAnimationCount);
        player_anim().parse_anim_script(&mut PlayerAnimImports, weapons(), call)
    })
}

/// `int32_t BG_StringHashValue(const char *text)`.
#[no_mangle]
unsafe extern "C" fn BG_StringHashValue(text: *const c_char) -> i32 {
    // SAFETY: a C string from the caller (NULL hashes to 0: divergence).
    guard(|| Ok(unsafe { c_bytes(text) }.map_or(0, string_hash)))
}

/// `int32_t BG_IndexForString(const char *name, bg_indexed_string_t *strings, qboolean allowMissing)`.
#[no_mangle]
unsafe extern "C" fn BG_IndexForString(name: *const c_char, strings: *mut bg_indexed_string_t, allowMissing: c_int) -> i32 {
    // SAFETY: caller's NUL-terminated name and NULL-name-terminated table
    // (NULL: no entries); module contract.
    guard(|| unsafe { session().index_for_string(c_bytes(name).unwrap_or(b""), ExternalTable::new(strings), allowMissing != 0) })
}

/// `char *BG_CopyStringIntoBuffer(const char *text, char *buffer, uint32_t bufferSize, int32_t *used)`.
#[no_mangle]
unsafe extern "C" fn BG_CopyStringIntoBuffer(text: *const c_char, buffer: *mut c_char, bufferSize: u32, used: *mut i32) -> *mut c_char {
    // SAFETY: caller's string, buffer of `bufferSize` bytes and counter;
    // module contract.
    guard(|| unsafe { session().copy_string_into_buffer(StringCopy::new(text, buffer, bufferSize), used.as_mut()) })
}

/// `int32_t BG_AnimationIndexForString(const char *name)`.
#[no_mangle]
unsafe extern "C" fn BG_AnimationIndexForString(name: *const c_char) -> i32 {
    // SAFETY: module contract; the published pointers are the game's.
    guard(|| unsafe { player_anim().animation_index_for_string(&mut PlayerAnimImports, c_bytes(name).unwrap_or(b"")) })
}

/// `bg_static_animation_t *BG_AnimationForString(const char *name)`.
#[no_mangle]
unsafe extern "C" fn BG_AnimationForString(name: *const c_char) -> *mut bg_static_animation_t {
    // SAFETY: module contract.
    guard(|| unsafe { player_anim().animation_for_string(c_bytes(name).unwrap_or(b"")) })
}

// ---- helpers called by the parser in C, exported on their own -------------

/// `void BG_ParseConditionBits(char **parse, bg_indexed_string_t *values, int32_t conditionIndex, bg_condition_bits_t *bits)`.
#[no_mangle]
unsafe extern "C" fn BG_ParseConditionBits(
    parse: *mut *mut c_char,
    values: *mut bg_indexed_string_t,
    conditionIndex: i32,
    bits: *mut bg_condition_bits_t,
) {
    // SAFETY: caller's cursor, table and result (module contract).
    guard(|| unsafe {
        let (values, bits) = (CallerValues::new(values), CallerRecord::new(bits));
        player_anim().parse_condition_bits(&mut PlayerAnimImports, Cursor::new(parse), values, conditionIndex, bits)
    })
}

/// `qboolean BG_ParseConditions(char **parse, bg_anim_script_t *script)`.
#[no_mangle]
unsafe extern "C" fn BG_ParseConditions(parse: *mut *mut c_char, script: *mut bg_anim_script_t) -> c_int {
    // SAFETY: caller's cursor and script (module contract).
    guard(|| unsafe { player_anim().parse_conditions(&mut PlayerAnimImports, Cursor::new(parse), CallerRecord::new(script)) })
}

/// `void BG_ParseCommands(char **parse, bg_anim_script_t *script, bg_static_animation_t *animations)`.
///
/// Entries are read and stamped in the published table (`animations` is
/// that table's `entries` in every call of the original).
#[no_mangle]
unsafe extern "C" fn BG_ParseCommands(parse: *mut *mut c_char, script: *mut bg_anim_script_t, animations: *mut bg_static_animation_t) {
    let _ = animations;
    // SAFETY: caller's cursor and script (module contract).
    guard(|| unsafe { player_anim().parse_commands(&mut PlayerAnimImports, Cursor::new(parse), CallerRecord::new(script)) })
}

// `void BG_AnimParseError(const char *format, ...)`: an assembly
// trampoline builds the `va_list` and calls `uoanim_internal_pa_parse_error_va`.
crate::ffi::varargs::variadic_trampoline!("BG_AnimParseError", "uoanim_internal_pa_parse_error_va");

/// The message `BG_AnimParseError` formats (1024 bytes, as the original's
/// buffer); the failure raised names it.
static PARSE_ERROR_MESSAGE: ModuleCell<[u8; 1024]> = ModuleCell::new([0; 1024]);

/// The body of `BG_AnimParseError` (formats into 1024 bytes like the
/// original, then raises with the path and line while the path is set).
///
/// # Safety
/// `format` and `args` form a valid `printf` call.
/// cbindgen:ignore
#[no_mangle]
unsafe extern "C" fn uoanim_internal_pa_parse_error_va(format: *const c_char, args: *mut core::ffi::c_void) {
    guard(|| {
        // SAFETY: caller contract; the message is formatted by the C library
        // into the module's buffer (module contract: nothing else uses it
        // until the failure is raised).
        let message = unsafe { crate::ffi::varargs::format_va(PARSE_ERROR_MESSAGE.get(), format, args) };
        // SAFETY: module contract.
        Err(unsafe { session() }.context().error(ParseMessage::Formatted, TokenName::plain(message)))
    })
}
