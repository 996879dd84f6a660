//! The per-frame exports of the player-animation units: stance queries,
//! condition updaters, controller lerps and the two slot functions (the
//! four files `bg_animation_stance.c`, `bg_animation_player_conditions.c`,
//! `bg_animation_controller_lerp.c`, `bg_animation_slots.c`).
//!
//! Each export reads its arguments (a NULL the original would dereference
//! does nothing, docs/DIVERGENCES.md) and calls one function of
//! `script::runtime::frame`. A slot is copied out of the caller's memory,
//! updated by the core and written back before any failure is raised (the
//! slot lies inside its client's row, which the core borrows besides).
#![allow(non_snake_case)]

use super::bgs;
use super::bgAnimStaticTable;
use super::engine::Slots;
use crate::abi::bg::*;
use crate::abi::common::qboolean;
use crate::ffi::guard;
use crate::flavour::{Behaviour, BEHAVIOUR};
use crate::ffi::floats::{self, FrameFloats, Scratch};
use crate::script::runtime::frame::{self, Floats as _, SlotContext};
use core::ffi::c_void;
use core::ptr;

/// The published table, `None` before one is published.
///
/// # Safety
/// Module contract: `bgAnimStaticTable` is NULL or the engine's live table,
/// not written meanwhile.
unsafe fn table<'a>() -> Option<&'a bg_static_animation_table_t> {
    // SAFETY: forwarded contract.
    unsafe { (*bgAnimStaticTable.as_ptr()).as_ref() }
}

/// The client rows of `bgs`.
///
/// # Safety
/// Module contract; no other reference to the rows is live.
unsafe fn clients<'a>() -> &'a mut crate::script::runtime::ClientInfos {
    // SAFETY: forwarded contract; the field of the engine's `bgs`.
    unsafe { &mut *ptr::addr_of_mut!((*bgs.as_ptr()).clientinfo) }
}

/// `qboolean BG_IsCrouchingAnim(const clientInfo_t *clientInfo, uint32_t animationIndex);`
#[no_mangle]
unsafe extern "C" fn BG_IsCrouchingAnim(clientInfo: *const clientInfo_t, animationIndex: u32) -> qboolean {
    let _ = clientInfo; // its clientNum goes unused to BG_GetAnimationForIndex in the C
    // SAFETY: module contract.
    guard(|| Ok(unsafe { table() }.map_or(Ok(false), |t| frame::is_crouching_anim(t, animationIndex))?.into()))
}

/// `qboolean BG_IsProneAnim(const clientInfo_t *clientInfo, uint32_t animationIndex);`
#[no_mangle]
unsafe extern "C" fn BG_IsProneAnim(clientInfo: *const clientInfo_t, animationIndex: u32) -> qboolean {
    let _ = clientInfo;
    // SAFETY: module contract.
    guard(|| Ok(unsafe { table() }.map_or(Ok(false), |t| frame::is_prone_anim(t, animationIndex))?.into()))
}

/// `void BG_AnimPlayerConditions(const entityState_t *entity, clientInfo_t *clientInfo);`
#[no_mangle]
unsafe extern "C" fn BG_AnimPlayerConditions(entity: *const entityState_t, clientInfo: *mut clientInfo_t) {
    guard(|| {
        // SAFETY: caller-provided records (or NULL), read by value.
        let (Some(es), Some(ci)) = (unsafe { entity.as_ref() }, unsafe { clientInfo.as_ref() }) else { return Ok(()) };
        let (es, pitch) = (*es, ci.viewPitch);
        // SAFETY: module contract: the game's `bgs`, its table and rows.
        let entries = unsafe { &*ptr::addr_of!((*bgs.as_ptr()).animationTable.entries) };
        frame::anim_player_conditions(unsafe { clients() }, entries, &es, pitch, &mut Slots)
    })
}

/// `void BG_AnimUpdatePlayerStateConditions(pmove_t *pmove);`
#[no_mangle]
unsafe extern "C" fn BG_AnimUpdatePlayerStateConditions(pmove: *mut pmove_t) {
    guard(|| {
        // SAFETY: caller-provided pmove and player state (or NULL).
        let Some(pm) = (unsafe { pmove.as_ref() }) else { return Ok(()) };
        let Some(ps) = (unsafe { pm.ps.as_ref() }) else { return Ok(()) };
        // SAFETY: module contract.
        frame::update_player_state_conditions(unsafe { clients() }, ps, pm.command.buttons, &mut Slots)
    })
}

/// `void BG_LerpAngles(const vec3_t target, float maxStep, vec3_t current);`
#[no_mangle]
unsafe extern "C" fn BG_LerpAngles(target: *const [f32; 3], maxStep: f32, current: *mut [f32; 3]) {
    // SAFETY: caller-provided vectors (or NULL), copied.
    let (Some(t), Some(c)) = (unsafe { target.as_ref() }, unsafe { current.as_ref() }) else { return };
    let (t, mut c) = (*t, *c);
    let scratch = Scratch::new();
    frame::lerp_angles(BEHAVIOUR, floats::floats(&scratch).transcribed(), &t, maxStep, &mut c);
    // SAFETY: as above.
    unsafe { current.write(c) }
}

/// `void BG_LerpOffset(const vec3_t target, float scale, vec3_t current);`
#[no_mangle]
unsafe extern "C" fn BG_LerpOffset(target: *const [f32; 3], scale: f32, current: *mut [f32; 3]) {
    // SAFETY: caller-provided vectors (or NULL), copied.
    let (Some(t), Some(c)) = (unsafe { target.as_ref() }, unsafe { current.as_ref() }) else { return };
    let (t, mut c) = (*t, *c);
    let scratch = Scratch::new();
    frame::lerp_offset(BEHAVIOUR, floats::floats(&scratch).transcribed(), &t, scale, &mut c);
    // SAFETY: as above.
    unsafe { current.write(c) }
}

/// The slot functions' view of the module state.
///
/// # Safety
/// Module contract.
unsafe fn context<'a, 's>(table: &'a bg_static_animation_table_t, scratch: &'s Scratch) -> SlotContext<'a, FrameFloats<'s>> {
    // SAFETY: plain reads of three handles of the game's `bgs`.
    let b = unsafe { bgs.as_ptr() };
    let (torso, legs, root) = unsafe { ((*b).resolvedTorsoAnimHandle, (*b).resolvedLegsAnimHandle, (*b).rootAnimHandle) };
    SlotContext {
        table,
        torso,
        legs,
        root,
        behaviour: BEHAVIOUR,
        floats: floats::floats(scratch),
    }
}

/// `void BG_PlayerAnimation_VerifyAnim(XAnimTree *animTree, bg_anim_slot_t *slot);`
#[no_mangle]
unsafe extern "C" fn BG_PlayerAnimation_VerifyAnim(animTree: *mut c_void, slot: *mut bg_anim_slot_t) {
    // SAFETY: module contract; the caller's slot (or NULL).
    let (Some(table), Some(slot)) = (unsafe { table() }, unsafe { slot.as_mut() }) else { return };
    let scratch = Scratch::new();
    frame::verify_anim(&unsafe { context(table, &scratch) }, animTree, slot, &mut Slots)
}

/// Which of its client's slots `slot` is, and the client row.
///
/// # Safety
/// `ci` NULL or a live client row, `slot` NULL or a live slot.
unsafe fn slot_of(ci: *mut clientInfo_t, slot: *mut bg_anim_slot_t) -> Option<(bool, bg_anim_slot_t)> {
    if ci.is_null() || slot.is_null() {
        return None;
    }
    let legs = ptr::eq(slot, unsafe { ptr::addr_of_mut!((*ci).slots[0]) });
    // SAFETY: a live slot, copied.
    Some((legs, unsafe { slot.read() }))
}

/// `void BG_SetNewAnimation(clientInfo_t *ci, bg_anim_slot_t *slot, uint32_t animationWord, qboolean forceDeathRestart);`
#[no_mangle]
unsafe extern "C" fn BG_SetNewAnimation(ci: *mut clientInfo_t, slot: *mut bg_anim_slot_t, animationWord: u32, forceDeathRestart: qboolean) {
    let scratch = Scratch::new();
    guard(|| {
        // SAFETY: module contract; caller-provided records (or NULL).
        let (Some(table), Some((legs, mut copy))) = (unsafe { table() }, unsafe { slot_of(ci, slot) }) else { return Ok(()) };
        let ctx = unsafe { context(table, &scratch) };
        // SAFETY: the client row; its slots are not reached through it.
        let result = frame::set_new_animation(&ctx, unsafe { &mut *ci }, &mut copy, legs, animationWord, forceDeathRestart != 0, &mut Slots);
        // SAFETY: the caller's slot.
        unsafe { slot.write(copy) };
        result
    })
}

/// `void BG_RunLerpFrameRate(clientInfo_t *ci, bg_anim_slot_t *slot, uint32_t animationWord, const entityState_t *entity);`
#[no_mangle]
unsafe extern "C" fn BG_RunLerpFrameRate(ci: *mut clientInfo_t, slot: *mut bg_anim_slot_t, animationWord: u32, entity: *const entityState_t) {
    let scratch = Scratch::new();
    guard(|| {
        // SAFETY: module contract; caller-provided records (or NULL).
        let (Some(table), Some((legs, mut copy))) = (unsafe { table() }, unsafe { slot_of(ci, slot) }) else { return Ok(()) };
        let Some(es) = (unsafe { entity.as_ref() }) else { return Ok(()) };
        let es = frame::EntitySample { flags: es.eFlags, origin: es.trBase };
        let ctx = unsafe { context(table, &scratch) };
        // SAFETY: as in BG_SetNewAnimation.
        let result = frame::run_lerp_frame_rate(&ctx, unsafe { &mut *ci }, &mut copy, legs, animationWord, &es, &mut Slots);
        unsafe { slot.write(copy) };
        result
    })
}

const _: () = assert!(matches!(BEHAVIOUR, Behaviour::Linux | Behaviour::Windows));
