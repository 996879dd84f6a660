//! Runtime exports of the player animation-script module: conditions,
//! selection and playback, the tree lookups, `BG_FinalizePlayerAnims`,
//! `BG_SetupAnimNoteTypes` and `BG_LoadAnimForAnimIndex`.
//!
//! Each export checks its pointers (a NULL the original would dereference
//! gets the fallback of docs/DIVERGENCES.md), takes references into the
//! engine-owned globals and calls the safe core in `script::runtime` /
//! `script::finalize`. The table is reached through `bgAnimStaticTable`, the
//! client rows through `bgs.clientinfo`, and the sound event callback is
//! `bgs.soundEventCallback` (what the original reaches through the table
//! pointer cast to `bgs_t`).
#![allow(non_snake_case)]

use super::engine;
use super::{bgAnimStaticTable, bgRuntimeAnimationCount, bgRuntimeAnimations, bgs};
use crate::abi::bg::*;
use crate::abi::common::{qboolean, XAnim};
use crate::error::Failure;
use crate::ffi::guard;
use crate::flavour::BEHAVIOUR;
use crate::script::finalize;
use crate::script::runtime::engine::{FinalizeEngine, RuntimeEngine};
use crate::script::runtime::{self as core_rt, ClientInfos};
use core::ffi::{c_char, c_int, CStr};
use core::ptr;

/// The engine services for the runtime.
struct Runtime {
    /// `bgAnimStaticTable`, through which the sound callback is read.
    table: *const bg_static_animation_table_t,
}

impl RuntimeEngine for Runtime {
    fn rand_range(&mut self, minimum: i32, maximum: i32) -> i32 {
        // SAFETY: engine import with plain integer arguments.
        unsafe { engine::rand_range(minimum, maximum) }
    }

    fn sound_event(&mut self, client_num: i32, alias: *const c_char) {
        // The original casts the table pointer to `bgs_t *` and reads the
        // callback field that follows the table. The published table is
        // `bgs.animationTable` (offset 0 of `bgs`), so that field is
        // `bgs.soundEventCallback`, read here directly (divergence for any
        // other table, as for the alias callback: still bgs's callback,
        // never memory past a foreign table).
        if self.table.is_null() {
            return; // no table published yet: no callback to reach
        }
        // SAFETY: one field of the game's `bgs`, outside the table (which
        // may be borrowed), read by value through a raw pointer; no
        // reference to the whole `bgs_t` is formed.
        let callback = unsafe { ptr::addr_of!((*bgs.as_ptr()).soundEventCallback).read() };
        if let Some(callback) = callback {
            // SAFETY: the engine-installed callback with the alias pointer the
            // alias callback returned.
            unsafe { callback(client_num, alias) }
        }
    }
}

/// The XAnim queries of the finalize step.
struct Finalize;

impl FinalizeEngine for Finalize {
    fn anims_index(&mut self, tree: *mut XAnim) -> u32 {
        // SAFETY: engine import; the tree pointer is the engine's own.
        unsafe { engine::anims_index(tree) }
    }
    fn tree_size(&mut self, tree: *mut XAnim) -> i32 {
        // SAFETY: as above.
        unsafe { engine::tree_size(tree) }
    }
    fn is_primitive(&mut self, tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: engine import with integer arguments.
        unsafe { engine::is_primitive(tree_index, anim_index) }
    }
    fn anim_name(&mut self, tree_index: u16, anim_index: u16) -> Option<&CStr> {
        // SAFETY: engine import; the result is NULL or a NUL-terminated
        // string the engine keeps alive at least until the next trap.
        let name = unsafe { engine::anim_name(tree_index, anim_index) };
        // SAFETY: checked for NULL; see above.
        (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) })
    }
    fn length(&mut self, tree: *mut XAnim, anim_index: u16) -> i32 {
        // SAFETY: engine import.
        unsafe { engine::length(tree, anim_index) }
    }
    fn rel_delta(&mut self, tree_index: u16, anim_index: u16, rotation: &mut [f32; 3], movement: &mut [f32; 3]) {
        // SAFETY: engine import writing into the two live arrays.
        unsafe { engine::rel_delta(tree_index, anim_index, rotation.as_mut_ptr(), movement.as_mut_ptr()) }
    }
    fn is_looped(&mut self, tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: engine import with integer arguments.
        unsafe { engine::is_looped(tree_index, anim_index) }
    }
}

// ---- access to the engine-owned globals ----------------------------------------

/// `bgAnimStaticTable` (may be NULL before the first parse).
fn table_ptr() -> *mut bg_static_animation_table_t {
    // SAFETY: single-threaded module contract; plain pointer read.
    unsafe { *bgAnimStaticTable.as_ptr() }
}

/// The table for reading, `None` when `bgAnimStaticTable` is NULL.
///
/// # Safety
/// No `&mut` to the table may be live.
unsafe fn table_ref<'a>() -> Option<&'a bg_static_animation_table_t> {
    // SAFETY: the engine points it at a live table (its `bgs.animationTable`).
    unsafe { table_ptr().as_ref() }
}

/// `bgs.clientinfo`, for reading.
///
/// # Safety
/// No `&mut` to the rows may be live.
unsafe fn clients_ref<'a>() -> &'a ClientInfos {
    // SAFETY: field of the engine's `bgs`; disjoint from the table.
    unsafe { &*ptr::addr_of!((*bgs.as_ptr()).clientinfo) }
}

/// `bgs.clientinfo`, for writing.
///
/// # Safety
/// No other reference to the rows may be live.
unsafe fn clients_mut<'a>() -> &'a mut ClientInfos {
    // SAFETY: field of the engine's `bgs`; disjoint from the table.
    unsafe { &mut *ptr::addr_of_mut!((*bgs.as_ptr()).clientinfo) }
}

/// The pass-1 registrations: `bgRuntimeAnimations[0 .. *bgRuntimeAnimationCount]`,
/// the count bounded to 0..=512; empty when either pointer is NULL.
///
/// # Safety
/// The pointers must be the engine's (array of at least the count).
unsafe fn runtime_ref<'a>() -> &'a [bg_runtime_animation_t] {
    // SAFETY: single-threaded module contract; plain pointer reads.
    let (array, count) = unsafe { (*bgRuntimeAnimations.as_ptr(), *bgRuntimeAnimationCount.as_ptr()) };
    if array.is_null() || count.is_null() {
        return &[];
    }
    // SAFETY: the count pointer is the engine's int.
    let count = usize::try_from(unsafe { *count }).unwrap_or(0).min(BG_ANIM_MAX_ANIMATIONS);
    // SAFETY: the engine's array holds the registrations the count claims.
    unsafe { core::slice::from_raw_parts(array, count) }
}

/// The table's entries, empty without a table.
///
/// # Safety
/// As [`table_ref`].
unsafe fn entries_ref<'a>() -> &'a [bg_static_animation_t] {
    // SAFETY: see table_ref.
    unsafe { table_ref() }.map_or(&[], |t| &t.entries[..])
}

// ---- conditions ------------------------------------------------------------------

/// `qboolean BG_EvaluateConditions(clientInfo_t *clientInfo, const bg_anim_script_t *script);`
#[no_mangle]
pub unsafe extern "C" fn BG_EvaluateConditions(clientInfo: *mut clientInfo_t, script: *const bg_anim_script_t) -> qboolean {
    guard(|| {
        if clientInfo.is_null() || script.is_null() {
            return Ok(0);
        }
        // SAFETY: caller-provided live objects.
        let (client, script) = unsafe { (&*clientInfo, &*script) };
        Ok(qboolean::from(core_rt::evaluate_conditions(&client.conditionWords, script)))
    })
}

/// `bg_anim_script_t *BG_FirstValidItem(int32_t clientNum, const bg_anim_script_list_t *scriptList);`
#[no_mangle]
pub unsafe extern "C" fn BG_FirstValidItem(clientNum: i32, scriptList: *const bg_anim_script_list_t) -> *mut bg_anim_script_t {
    guard(|| {
        // SAFETY: caller-provided list (or NULL).
        let Some(list) = (unsafe { scriptList.as_ref() }) else {
            return Ok(ptr::null_mut());
        };
        // SAFETY: only shared references are formed in this export.
        let clients = unsafe { clients_ref() };
        // SAFETY: the list's slots hold NULL or live scripts (engine contract).
        let scripts = unsafe { core_rt::ScriptList::engine(list) };
        let found = core_rt::first_valid_item(clients, clientNum, scripts)?;
        Ok(found.and_then(|(slot, _)| list.scripts.get(slot).copied()).unwrap_or(ptr::null_mut()))
    })
}

/// `void BG_UpdateConditionValue(int32_t clientNum, int32_t conditionType, int32_t value, qboolean checkConversion);`
#[no_mangle]
pub unsafe extern "C" fn BG_UpdateConditionValue(clientNum: i32, conditionType: i32, value: i32, checkConversion: qboolean) {
    guard(|| {
        // SAFETY: the only reference to the rows in this export.
        let clients = unsafe { clients_mut() };
        core_rt::update_condition_value(clients, clientNum, conditionType, value, checkConversion != 0)
    })
}

/// `int32_t BG_GetConditionValue(clientInfo_t *clientInfo, int32_t conditionType, qboolean convertBitset);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetConditionValue(clientInfo: *mut clientInfo_t, conditionType: i32, convertBitset: qboolean) -> i32 {
    guard(|| {
        // SAFETY: caller-provided row (or NULL).
        Ok(unsafe { clientInfo.as_ref() }
            .map_or(0, |c| core_rt::get_condition_value(c, conditionType, convertBitset != 0)))
    })
}

// ---- playback --------------------------------------------------------------------

/// `int32_t BG_PlayAnim(playerState_t *player, uint32_t animationIndex, uint32_t bodyPart, int32_t duration, qboolean setTimer, qboolean restartSame, qboolean force);`
#[no_mangle]
pub unsafe extern "C" fn BG_PlayAnim(
    player: *mut playerState_t,
    animationIndex: u32,
    bodyPart: u32,
    duration: i32,
    setTimer: qboolean,
    restartSame: qboolean,
    force: qboolean,
) -> i32 {
    guard(|| {
        // SAFETY: caller-provided player state (or NULL).
        let Some(player) = (unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        // SAFETY: shared access to the table only.
        let entries = unsafe { entries_ref() };
        Ok(core_rt::play_anim(entries, player, animationIndex, bodyPart, duration, setTimer != 0, restartSame != 0, force != 0))
    })
}

/// `int32_t BG_PlayAnimName(playerState_t *player, const char *animationName, uint32_t bodyPart, qboolean setTimer, qboolean restartSame, qboolean force);`
#[no_mangle]
pub unsafe extern "C" fn BG_PlayAnimName(
    player: *mut playerState_t,
    animationName: *const c_char,
    bodyPart: u32,
    setTimer: qboolean,
    restartSame: qboolean,
    force: qboolean,
) -> i32 {
    guard(|| {
        // The lookup runs first (it may register the name, or raise).
        // SAFETY: the module's own export, called as the original does; it
        // may not return (Com_Error), and this frame owns nothing.
        let index = unsafe { super::parse::BG_AnimationIndexForString(animationName) };
        // SAFETY: caller-provided player state (or NULL).
        let Some(player) = (unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        // SAFETY: shared access to the table only.
        let entries = unsafe { entries_ref() };
        Ok(core_rt::play_anim(entries, player, index as u32, bodyPart, 0, setTimer != 0, restartSame != 0, force != 0))
    })
}

/// `int32_t BG_AnimScriptAnimation(const bg_anim_script_command_t *command, playerState_t *player, qboolean setTimer, qboolean restartSame, qboolean force);`
#[no_mangle]
pub unsafe extern "C" fn BG_AnimScriptAnimation(
    command: *const bg_anim_script_command_t,
    player: *mut playerState_t,
    setTimer: qboolean,
    restartSame: qboolean,
    force: qboolean,
) -> i32 {
    guard(|| {
        // SAFETY: caller-provided objects (or NULL).
        let (Some(command), Some(player)) = (unsafe { command.as_ref() }, unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        let command = *command;
        // SAFETY: shared access to the table only.
        let entries = unsafe { entries_ref() };
        let mut engine = Runtime { table: table_ptr() };
        Ok(core_rt::anim_script_animation(entries, &command, player, setTimer != 0, restartSame != 0, force != 0, &mut engine))
    })
}

/// `int32_t BG_ExecuteCommand(playerState_t *player, int32_t stateIndex, int32_t animGroup, qboolean restartSame);`
#[no_mangle]
pub unsafe extern "C" fn BG_ExecuteCommand(player: *mut playerState_t, stateIndex: i32, animGroup: i32, restartSame: qboolean) -> i32 {
    guard(|| {
        // SAFETY: caller-provided player state (or NULL).
        let Some(player) = (unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        // SAFETY: the table is read-only here and disjoint from the rows.
        let (Some(table), clients) = (unsafe { table_ref() }, unsafe { clients_mut() }) else {
            return Ok(-1);
        };
        let mut engine = Runtime { table: table as *const _ };
        // SAFETY: the lists' slots hold NULL or pointers into the table's pool
        // the parser stored (engine contract).
        let scripts = unsafe { core_rt::Scripts::engine(table) };
        core_rt::execute_command(scripts, clients, player, stateIndex, animGroup, restartSame != 0, &mut engine)
    })
}

/// `int32_t BG_AnimScriptStateChange(playerState_t *player, int32_t fromState, int32_t toState);`
#[no_mangle]
pub unsafe extern "C" fn BG_AnimScriptStateChange(player: *mut playerState_t, fromState: i32, toState: i32) -> i32 {
    guard(|| {
        // SAFETY: caller-provided player state (or NULL).
        let Some(player) = (unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        // SAFETY: shared references only.
        let (Some(table), clients) = (unsafe { table_ref() }, unsafe { clients_ref() }) else {
            return Ok(-1);
        };
        let mut engine = Runtime { table: table as *const _ };
        // SAFETY: the lists' slots hold NULL or pointers into the table's pool
        // the parser stored (engine contract).
        let scripts = unsafe { core_rt::Scripts::engine(table) };
        core_rt::anim_script_state_change(scripts, clients, player, fromState, toState, &mut engine)
    })
}

/// `int32_t BG_AnimScriptEvent(playerState_t *player, bg_anim_event_t event, qboolean restartSame, qboolean force);`
#[no_mangle]
pub unsafe extern "C" fn BG_AnimScriptEvent(player: *mut playerState_t, event: c_int, restartSame: qboolean, force: qboolean) -> i32 {
    guard(|| {
        // SAFETY: caller-provided player state (or NULL).
        let Some(player) = (unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        // SAFETY: shared references only.
        let (Some(table), clients) = (unsafe { table_ref() }, unsafe { clients_ref() }) else {
            return Ok(-1);
        };
        let mut engine = Runtime { table: table as *const _ };
        // SAFETY: the lists' slots hold NULL or pointers into the table's pool
        // the parser stored (engine contract).
        let scripts = unsafe { core_rt::Scripts::engine(table) };
        core_rt::anim_script_event(scripts, clients, player, event, restartSame != 0, force != 0, &mut engine)
    })
}

/// `int32_t BG_GetAnimScriptEvent(playerState_t *player, bg_anim_event_t event);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetAnimScriptEvent(player: *mut playerState_t, event: c_int) -> i32 {
    guard(|| {
        // SAFETY: caller-provided player state (or NULL); read only.
        let Some(player) = (unsafe { player.as_ref() }) else {
            return Ok(-1);
        };
        // SAFETY: shared references only.
        let (Some(table), clients) = (unsafe { table_ref() }, unsafe { clients_ref() }) else {
            return Ok(-1);
        };
        let mut engine = Runtime { table: table as *const _ };
        // SAFETY: the lists' slots hold NULL or pointers into the table's pool
        // the parser stored (engine contract).
        let scripts = unsafe { core_rt::Scripts::engine(table) };
        core_rt::get_anim_script_event(scripts, clients, player, event, &mut engine)
    })
}

// ---- lookups -----------------------------------------------------------------------

/// `char *BG_GetAnimString(uint32_t animationIndex);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetAnimString(animationIndex: u32) -> *mut c_char {
    guard(|| {
        let table = table_ptr();
        // SAFETY: shared access to the table.
        let Some(table_ref) = (unsafe { table.as_ref() }) else {
            return Ok(ptr::null_mut());
        };
        let Some(index) = core_rt::checked_entry_index(table_ref, animationIndex) else {
            // SAFETY: the module's own diagnostic, called as the original
            // calls it (a literal without conversions); it raises Com_Error
            // and does not return. This frame owns nothing.
            unsafe { BG_AnimParseError(GET_ANIM_STRING_RANGE.as_ptr()) };
            return Ok(ptr::null_mut());
        };
        // SAFETY: index < 512: an element of the table's entries.
        Ok(unsafe { ptr::addr_of_mut!((*table).entries[index].name) } as *mut c_char)
    })
}

/// `bg_static_animation_t *BG_GetAnimationForIndex(int32_t clientNum, uint32_t animationIndex);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetAnimationForIndex(clientNum: i32, animationIndex: u32) -> *mut bg_static_animation_t {
    let _ = clientNum; // unused by the original too
    guard(|| {
        let table = table_ptr();
        // SAFETY: shared access to the table.
        let Some(table_ref) = (unsafe { table.as_ref() }) else {
            return Ok(ptr::null_mut());
        };
        let Some(index) = core_rt::checked_entry_index(table_ref, animationIndex) else {
            return Err(core_rt::get_animation_for_index_error());
        };
        // SAFETY: index < 512: an element of the table's entries.
        Ok(unsafe { ptr::addr_of_mut!((*table).entries[index]) })
    })
}

/// `bg_runtime_animation_t *BG_LoadAnimForAnimIndex(uint32_t animIndex);`
#[no_mangle]
pub unsafe extern "C" fn BG_LoadAnimForAnimIndex(animIndex: u32) -> *mut bg_runtime_animation_t {
    guard(|| {
        // SAFETY: shared access to the table.
        let Some(table) = (unsafe { table_ref() }) else {
            return Ok(ptr::null_mut());
        };
        // SAFETY: the engine's registration array and count (or NULL).
        let runtime = unsafe { runtime_ref() };
        let found = core_rt::load_anim_for_anim_index(table.entryCount, runtime, animIndex)?;
        // SAFETY: position inside the published array.
        Ok(found.map_or(ptr::null_mut(), |i| unsafe { (*bgRuntimeAnimations.as_ptr()).add(i) }))
    })
}

// ---- tree lookups --------------------------------------------------------------------

const MULTIPLAYER: &CStr = c"multiplayer";
/// The `BG_GetAnimString` range diagnostic (a `printf` format without conversions).
const GET_ANIM_STRING_RANGE: &CStr = c"BG_GetAnimString: anim index is out of range";

/// `BG_FindAnimTree` core: `Scr_FindAnimTree`, error when missing and asked to.
fn find_anim_tree<'n>(name: *const c_char, error_if_missing: bool) -> Result<*mut XAnim, Failure<'n>> {
    let tree = if name.is_null() {
        ptr::null_mut()
    } else {
        // SAFETY: engine import with the caller's NUL-terminated name.
        unsafe { engine::find_anim_tree(name) }
    };
    if tree.is_null() && error_if_missing {
        // SAFETY: checked for NULL; a NUL-terminated caller string, valid
        // for the exported call.
        let name = (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) });
        return Err(core_rt::find_anim_tree_error(name));
    }
    Ok(tree)
}

/// `void BG_FindAnims(void);` — root, torso, legs, turning of "multiplayer".
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnims() {
    guard(|| {
        // SAFETY: address of the engine's `bgs` (no access yet).
        let state = unsafe { bgs.as_ptr() };
        let names = [c"root", c"torso", c"legs", c"turning"];
        // SAFETY: fields of the engine's `bgs`, written by the engine import.
        let outs = unsafe {
            [
                ptr::addr_of_mut!((*state).rootAnimHandle),
                ptr::addr_of_mut!((*state).torsoAnimHandle),
                ptr::addr_of_mut!((*state).legsAnimHandle),
                ptr::addr_of_mut!((*state).turningAnimHandle),
            ]
        };
        for (name, out) in names.iter().zip(outs) {
            // SAFETY: engine import; may not return (this frame owns nothing).
            unsafe { engine::find_anim(MULTIPLAYER.as_ptr(), name.as_ptr(), out) };
        }
        Ok(())
    })
}

/// `script_anim_tree_ref_t BG_FindAnimTree(const char *treeName, qboolean errorIfMissing);`
///
/// Game unit: returns the one-pointer aggregate by value (on i686 through the
/// hidden result pointer, as gcc does for every struct).
#[cfg(feature = "game")]
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnimTree(treeName: *const c_char, errorIfMissing: qboolean) -> script_anim_tree_ref_t {
    guard(|| Ok(script_anim_tree_ref_t { tree: find_anim_tree(treeName, errorIfMissing != 0)? }))
}

/// `XAnim *BG_FindAnimTree(const char *treeName, qboolean errorIfMissing);`
///
/// cgame unit: returns the tree pointer itself.
#[cfg(feature = "cgame")]
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnimTree(treeName: *const c_char, errorIfMissing: qboolean) -> *mut XAnim {
    guard(|| find_anim_tree(treeName, errorIfMissing != 0))
}

/// `void BG_FindAnimTrees(void);`
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnimTrees() {
    guard(|| {
        let tree = find_anim_tree(MULTIPLAYER.as_ptr(), true)?;
        // SAFETY: address of the engine's `bgs` (no access yet).
        let state = unsafe { bgs.as_ptr() };
        // SAFETY: plain field writes into the engine's `bgs`.
        unsafe {
            (*state).multiplayerAnimTree = tree;
            (*state).animationTable.animTree.animTreeHandle = tree;
            (*state).resolvedTorsoAnimHandle = (*state).torsoAnimHandle;
            (*state).resolvedLegsAnimHandle = (*state).legsAnimHandle;
            (*state).resolvedTurningAnimHandle = (*state).turningAnimHandle;
        }
        Ok(())
    })
}

// ---- finalize ----------------------------------------------------------------------

/// `void BG_FinalizePlayerAnims(void);`
///
/// Rebuilds the entries from the tree, then runs pass 2
/// (`BG_AnimParseAnimScript(bgAnimStaticTable, NULL, NULL)`) and
/// `BG_SetupAnimNoteTypes(bgAnimStaticTable)`, as the original.
#[no_mangle]
pub unsafe extern "C" fn BG_FinalizePlayerAnims() {
    guard(|| {
        {
            // SAFETY: the only reference to the table in this block; the
            // registrations live in engine memory outside it.
            let Some(table) = (unsafe { table_ptr().as_mut() }) else {
                return Ok(());
            };
            // SAFETY: see runtime_ref.
            let runtime = unsafe { runtime_ref() };
            finalize::rebuild_entries(BEHAVIOUR, table, runtime, &mut Finalize)?;
        }
        // SAFETY: the module's own parser export; no reference is live.
        unsafe { super::parse::BG_AnimParseAnimScript(table_ptr(), ptr::null_mut(), ptr::null_mut()) };
        // SAFETY: as above.
        unsafe { BG_SetupAnimNoteTypes(table_ptr()) };
        Ok(())
    })
}

/// `void BG_SetupAnimNoteTypes(bg_static_animation_table_t *table);`
#[no_mangle]
pub unsafe extern "C" fn BG_SetupAnimNoteTypes(table: *mut bg_static_animation_table_t) {
    guard(|| {
        // SAFETY: caller-provided table (or NULL).
        if let Some(table) = unsafe { table.as_mut() } {
            finalize::setup_anim_note_types(table);
        }
        Ok(())
    })
}

// The parser's diagnostic function (a variadic export of this module): it
// adds the `(path, line N)` suffix while a parse is active, exactly as the
// original's `BG_AnimParseError`, and never returns. (Declared for C in the
// header's trailer, see build.rs.)
/// cbindgen:ignore
#[allow(unused_doc_comments)]
extern "C" {
    fn BG_AnimParseError(format: *const c_char, ...);
}
