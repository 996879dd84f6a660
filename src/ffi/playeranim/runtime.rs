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

use super::engine::{PlayerAnimImports, Finalize, Runtime};
use super::parse::{player_anim, weapons};
use super::{bgAnimStaticTable, bgs};
use crate::abi::bg::*;
use crate::abi::common::qboolean;
use crate::ffi::{guard, guard_with};
use crate::script::finalize;
use crate::script::runtime::state::{self, State};
use crate::script::runtime::{self as core_rt, ScriptList};
use crate::ffi::arg::c_str;
use crate::cstr::c_bytes;
use core::ffi::{c_char, c_int};
use core::ptr;

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
unsafe extern "C" fn BG_EvaluateConditions(clientInfo: *mut clientInfo_t, script: *const bg_anim_script_t) -> qboolean {
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
unsafe extern "C" fn BG_FirstValidItem(clientNum: i32, scriptList: *const bg_anim_script_list_t) -> *mut bg_anim_script_t {
    guard_with(|| {
        // SAFETY: caller-provided list (or NULL), whose slots hold NULL or
        // live scripts (engine contract); module contract.
        let Some(list) = (unsafe { scriptList.as_ref() }) else { return Ok(ptr::null_mut()) };
        unsafe { state() }.first_valid_item(clientNum, unsafe { ScriptList::engine(list) })
    })
}

/// `void BG_UpdateConditionValue(int32_t clientNum, int32_t conditionType, int32_t value, qboolean checkConversion);`
#[no_mangle]
unsafe extern "C" fn BG_UpdateConditionValue(clientNum: i32, conditionType: i32, value: i32, checkConversion: qboolean) {
    // SAFETY: module contract.
    guard_with(|| unsafe { state() }.update_condition_value(clientNum, conditionType, value, checkConversion != 0))
}

/// `int32_t BG_GetConditionValue(clientInfo_t *clientInfo, int32_t conditionType, qboolean convertBitset);`
#[no_mangle]
unsafe extern "C" fn BG_GetConditionValue(clientInfo: *mut clientInfo_t, conditionType: i32, convertBitset: qboolean) -> i32 {
    guard(|| {
        // SAFETY: caller-provided row (or NULL).
        Ok(unsafe { clientInfo.as_ref() }
            .map_or(0, |c| core_rt::get_condition_value(c, conditionType, convertBitset != 0)))
    })
}

// ---- playback --------------------------------------------------------------------

/// `int32_t BG_PlayAnim(playerState_t *player, uint32_t animationIndex, uint32_t bodyPart, int32_t duration, qboolean setTimer, qboolean restartSame, qboolean force);`
#[no_mangle]
unsafe extern "C" fn BG_PlayAnim(
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
unsafe extern "C" fn BG_PlayAnimName(
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
        let name = c_bytes(animationName).unwrap_or(b"");
        player_anim().play_anim_name(&mut PlayerAnimImports, name, player.as_mut(), bodyPart, setTimer != 0, restartSame != 0, force != 0)
    })
}

/// `int32_t BG_AnimScriptAnimation(const bg_anim_script_command_t *command, playerState_t *player, qboolean setTimer, qboolean restartSame, qboolean force);`
#[no_mangle]
unsafe extern "C" fn BG_AnimScriptAnimation(
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
unsafe extern "C" fn BG_ExecuteCommand(player: *mut playerState_t, stateIndex: i32, animGroup: i32, restartSame: qboolean) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        unsafe { state() }.execute_command(player, stateIndex, animGroup, restartSame != 0, &mut Runtime)
    })
}

/// `int32_t BG_AnimScriptStateChange(playerState_t *player, int32_t fromState, int32_t toState);`
#[no_mangle]
unsafe extern "C" fn BG_AnimScriptStateChange(player: *mut playerState_t, fromState: i32, toState: i32) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        unsafe { state() }.anim_script_state_change(player, fromState, toState, &mut Runtime)
    })
}

/// `int32_t BG_AnimScriptEvent(playerState_t *player, bg_anim_event_t event, qboolean restartSame, qboolean force);`
#[no_mangle]
unsafe extern "C" fn BG_AnimScriptEvent(player: *mut playerState_t, event: c_int, restartSame: qboolean, force: qboolean) -> i32 {
    guard_with(|| {
        // SAFETY: caller-provided player state (or NULL); module contract.
        let Some(player) = (unsafe { player.as_mut() }) else { return Ok(-1) };
        unsafe { state() }.anim_script_event(player, event, restartSame != 0, force != 0, &mut Runtime)
    })
}

/// `int32_t BG_GetAnimScriptEvent(playerState_t *player, bg_anim_event_t event);`
#[no_mangle]
unsafe extern "C" fn BG_GetAnimScriptEvent(player: *mut playerState_t, event: c_int) -> i32 {
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
unsafe extern "C" fn BG_GetAnimString(animationIndex: u32) -> *mut c_char {
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.get_anim_string(animationIndex))
}

/// `bg_static_animation_t *BG_GetAnimationForIndex(int32_t clientNum, uint32_t animationIndex);`
#[no_mangle]
unsafe extern "C" fn BG_GetAnimationForIndex(clientNum: i32, animationIndex: u32) -> *mut bg_static_animation_t {
    let _ = clientNum; // unused by the original too
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.get_animation_for_index(animationIndex))
}

/// `bg_runtime_animation_t *BG_LoadAnimForAnimIndex(uint32_t animIndex);`
#[no_mangle]
unsafe extern "C" fn BG_LoadAnimForAnimIndex(animIndex: u32) -> *mut bg_runtime_animation_t {
    // SAFETY: module contract.
    guard(|| unsafe { player_anim() }.load_anim_for_anim_index(animIndex))
}

// ---- tree lookups --------------------------------------------------------------------

/// `void BG_FindAnims(void);` — root, torso, legs, turning of "multiplayer".
#[no_mangle]
unsafe extern "C" fn BG_FindAnims() {
    guard(|| {
        // SAFETY: the engine's `bgs`, not otherwise reached meanwhile.
        state::find_anims(&mut PlayerAnimImports, unsafe { bgs.get() });
        Ok(())
    })
}

/// `script_anim_tree_ref_t BG_FindAnimTree(const char *treeName, qboolean errorIfMissing);`
///
/// Game unit: returns the one-pointer aggregate by value (on i686 through the
/// hidden result pointer, as gcc does for every struct).
#[cfg(feature = "game")]
#[no_mangle]
unsafe extern "C" fn BG_FindAnimTree(treeName: *const c_char, errorIfMissing: qboolean) -> script_anim_tree_ref_t {
    guard(|| Ok(script_anim_tree_ref_t { tree: state::find_anim_tree(&mut PlayerAnimImports, unsafe { c_str(treeName) }, errorIfMissing != 0)? }))
}

/// `XAnim *BG_FindAnimTree(const char *treeName, qboolean errorIfMissing);`
///
/// cgame and game_windows units: returns the tree pointer itself.
#[cfg(any(feature = "cgame", feature = "game_windows"))]
#[no_mangle]
unsafe extern "C" fn BG_FindAnimTree(treeName: *const c_char, errorIfMissing: qboolean) -> *mut crate::abi::common::XAnim {
    guard(|| state::find_anim_tree(&mut PlayerAnimImports, unsafe { c_str(treeName) }, errorIfMissing != 0))
}

/// `void BG_FindAnimTrees(void);`
#[no_mangle]
unsafe extern "C" fn BG_FindAnimTrees() {
    // SAFETY: the engine's `bgs`, not otherwise reached meanwhile.
    guard(|| state::find_anim_trees(&mut PlayerAnimImports, unsafe { bgs.get() }))
}

// ---- finalize ----------------------------------------------------------------------

/// `void BG_FinalizePlayerAnims(void);`
///
/// Rebuilds the entries from the tree, then runs pass 2
/// (`BG_AnimParseAnimScript(bgAnimStaticTable, NULL, NULL)`) and
/// `BG_SetupAnimNoteTypes(bgAnimStaticTable)`, as the original.
#[no_mangle]
unsafe extern "C" fn BG_FinalizePlayerAnims() {
    // SAFETY: module contract.
    let scratch = crate::ffi::floats::Scratch::new();
    guard(|| unsafe { player_anim() }.finalize_player_anims(&mut PlayerAnimImports, &mut Finalize, crate::ffi::floats::x87(&scratch), weapons()))
}

/// `void BG_SetupAnimNoteTypes(bg_static_animation_table_t *table);`
#[no_mangle]
unsafe extern "C" fn BG_SetupAnimNoteTypes(table: *mut bg_static_animation_table_t) {
    guard(|| {
        // SAFETY: caller-provided table (or NULL).
        if let Some(table) = unsafe { table.as_mut() } {
            finalize::setup_anim_note_types(table);
        }
        Ok(())
    })
}
