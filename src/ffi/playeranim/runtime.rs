//! Runtime exports of the player animation-script module: conditions,
//! selection and playback, the tree lookups, `BG_FinalizePlayerAnims`,
//! `BG_SetupAnimNoteTypes` and `BG_LoadAnimForAnimIndex`.
//!
//! Each export checks its pointers (a NULL the original would dereference
//! gets the fallback of docs/DIVERGENCES.md) and calls one function of the
//! safe core: `script::runtime::state` over the published table and the
//! client rows, or `script::session` where the parser's state is involved.
//! The table is reached through `bgAnimStaticTable`, the client rows through
//! `bgs.clientinfo`, and the sound event callback is `bgs.soundEventCallback`
//! (what the original reaches through the table pointer cast to `bgs_t`).
#![allow(non_snake_case)]
// A `Failure` carries its whole text (no heap): large by design.
#![allow(clippy::result_large_err)]

use super::engine;
use super::parse::{player_anim, weapons, Engine};
use super::{bgAnimStaticTable, bgs};
use crate::abi::bg::*;
use crate::abi::common::{qboolean, XAnim};
use crate::ffi::{guard, guard_with};
use crate::script::finalize;
use crate::script::runtime::engine::{FinalizeEngine, RuntimeEngine, TreeEngine};
use crate::script::runtime::state::{self, State};
use crate::script::runtime::{self as core_rt, ScriptList};
use crate::script::tables::{c_str, c_string};
use core::ffi::{c_char, c_int, CStr};
use core::ptr;

/// The engine services for the runtime.
struct Runtime;

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

impl TreeEngine for Engine {
    fn find_anim_tree(&mut self, name: &CStr) -> *mut XAnim {
        // SAFETY: engine import with a NUL-terminated name.
        unsafe { engine::find_anim_tree(name.as_ptr()) }
    }
}

/// The published table and the client rows.
///
/// # Safety
/// Module contract; the engine's table (its `bgs.animationTable`) and rows,
/// as [`State::engine`] states.
#[inline(always)]
unsafe fn state<'a>() -> State<'a> {
    // SAFETY: single-threaded module contract; a plain pointer read and the
    // address of a field of the engine's `bgs`, disjoint from the table.
    unsafe { State::engine(*bgAnimStaticTable.as_ptr(), ptr::addr_of_mut!((*bgs.as_ptr()).clientinfo)) }
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
    guard_with(|| {
        // SAFETY: caller-provided list (or NULL), whose slots hold NULL or
        // live scripts (engine contract); module contract.
        let Some(list) = (unsafe { scriptList.as_ref() }) else { return Ok(ptr::null_mut()) };
        unsafe { state() }.first_valid_item(clientNum, unsafe { ScriptList::engine(list) })
    })
}

/// `void BG_UpdateConditionValue(int32_t clientNum, int32_t conditionType, int32_t value, qboolean checkConversion);`
#[no_mangle]
pub unsafe extern "C" fn BG_UpdateConditionValue(clientNum: i32, conditionType: i32, value: i32, checkConversion: qboolean) {
    // SAFETY: module contract.
    guard_with(|| unsafe { state() }.update_condition_value(clientNum, conditionType, value, checkConversion != 0))
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
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        Ok(unsafe { state() }.play_anim(player, animationIndex, bodyPart, duration, setTimer != 0, restartSame != 0, force != 0))
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
    // SAFETY: caller-provided name and player state (or NULLs); module
    // contract.
    guard(|| unsafe {
        let name = c_string(animationName).unwrap_or(b"");
        player_anim().play_anim_name(&mut Engine, name, player.as_mut(), bodyPart, setTimer != 0, restartSame != 0, force != 0)
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
        // SAFETY: caller-provided objects (or NULL); module contract.
        let (Some(command), Some(player)) = (unsafe { command.as_ref() }, unsafe { player.as_mut() }) else {
            return Ok(-1);
        };
        let command = *command;
        Ok(unsafe { state() }.anim_script_animation(&command, player, setTimer != 0, restartSame != 0, force != 0, &mut Runtime))
    })
}

/// `int32_t BG_ExecuteCommand(playerState_t *player, int32_t stateIndex, int32_t animGroup, qboolean restartSame);`
#[no_mangle]
pub unsafe extern "C" fn BG_ExecuteCommand(player: *mut playerState_t, stateIndex: i32, animGroup: i32, restartSame: qboolean) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        unsafe { state() }.execute_command(player, stateIndex, animGroup, restartSame != 0, &mut Runtime)
    })
}

/// `int32_t BG_AnimScriptStateChange(playerState_t *player, int32_t fromState, int32_t toState);`
#[no_mangle]
pub unsafe extern "C" fn BG_AnimScriptStateChange(player: *mut playerState_t, fromState: i32, toState: i32) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        unsafe { state() }.anim_script_state_change(player, fromState, toState, &mut Runtime)
    })
}

/// `int32_t BG_AnimScriptEvent(playerState_t *player, bg_anim_event_t event, qboolean restartSame, qboolean force);`
#[no_mangle]
pub unsafe extern "C" fn BG_AnimScriptEvent(player: *mut playerState_t, event: c_int, restartSame: qboolean, force: qboolean) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        unsafe { state() }.anim_script_event(player, event, restartSame != 0, force != 0, &mut Runtime)
    })
}

/// `int32_t BG_GetAnimScriptEvent(playerState_t *player, bg_anim_event_t event);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetAnimScriptEvent(player: *mut playerState_t, event: c_int) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL), read only; module
        // contract.
        let Some(player) = (unsafe { player.as_ref() }) else { return Ok(-1) };
        unsafe { state() }.get_anim_script_event(player, event, &mut Runtime)
    })
}

// ---- lookups -----------------------------------------------------------------------

/// `char *BG_GetAnimString(uint32_t animationIndex);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetAnimString(animationIndex: u32) -> *mut c_char {
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.get_anim_string(animationIndex))
}

/// `bg_static_animation_t *BG_GetAnimationForIndex(int32_t clientNum, uint32_t animationIndex);`
#[no_mangle]
pub unsafe extern "C" fn BG_GetAnimationForIndex(clientNum: i32, animationIndex: u32) -> *mut bg_static_animation_t {
    let _ = clientNum; // unused by the original too
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.get_animation_for_index(animationIndex))
}

/// `bg_runtime_animation_t *BG_LoadAnimForAnimIndex(uint32_t animIndex);`
#[no_mangle]
pub unsafe extern "C" fn BG_LoadAnimForAnimIndex(animIndex: u32) -> *mut bg_runtime_animation_t {
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.load_anim_for_anim_index(animIndex))
}

// ---- tree lookups --------------------------------------------------------------------

/// `void BG_FindAnims(void);` — root, torso, legs, turning of "multiplayer".
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnims() {
    guard(|| {
        // SAFETY: the engine's `bgs`, not otherwise reached meanwhile.
        state::find_anims(&mut Engine, unsafe { bgs.get() });
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
    guard(|| Ok(script_anim_tree_ref_t { tree: state::find_anim_tree(&mut Engine, unsafe { c_str(treeName) }, errorIfMissing != 0)? }))
}

/// `XAnim *BG_FindAnimTree(const char *treeName, qboolean errorIfMissing);`
///
/// cgame unit: returns the tree pointer itself.
#[cfg(feature = "cgame")]
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnimTree(treeName: *const c_char, errorIfMissing: qboolean) -> *mut XAnim {
    guard(|| state::find_anim_tree(&mut Engine, unsafe { c_str(treeName) }, errorIfMissing != 0))
}

/// `void BG_FindAnimTrees(void);`
#[no_mangle]
pub unsafe extern "C" fn BG_FindAnimTrees() {
    // SAFETY: the engine's `bgs`, not otherwise reached meanwhile.
    guard(|| state::find_anim_trees(&mut Engine, unsafe { bgs.get() }))
}

// ---- finalize ----------------------------------------------------------------------

/// `void BG_FinalizePlayerAnims(void);`
///
/// Rebuilds the entries from the tree, then runs pass 2 and the note types,
/// as the original.
#[no_mangle]
pub unsafe extern "C" fn BG_FinalizePlayerAnims() {
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.finalize_player_anims(&mut Engine, &mut Finalize, weapons()))
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
