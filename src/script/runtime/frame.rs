//! The per-frame part of the player-animation module: stance queries,
//! condition words from the player and entity state, the controller lerps,
//! and the two animation slots (blend and stance timers, loop start phase,
//! animation rate from movement).
//!
//! Every float formula is written once, over the arithmetic of the build it
//! replaces ([`Floats`]: `crate::arith`), each step the C's own, with its
//! rounding points where the C has them. Which platform behaviour a unit
//! has is [`Behaviour`]: the two behaviours are two bodies of C code, and
//! two bodies here. The formulas that read nothing of the engine (the
//! controller lerps, the distance of the slots' rate) are the core's
//! ([`uoanim_core::formulas`]); the slots, which read and write the
//! engine's records, are here.

use super::{checked_entry_index, update_condition_value, ClientInfos};
use crate::abi::bg::*;
use crate::abi::common::{scr_anim_t, XAnim};
use crate::arith::{Arith, CType::*, Decimal, LOOP_PHASE_PER_CLIENT, MILLISECONDS_TO_SECONDS, RATE_ZERO_EPSILON};
use crate::error::Failure;
use crate::flavour::Behaviour;
pub use uoanim_core::formulas::{lerp_angles, lerp_offset, vector_distance, Emulating, Floats, Roles};
use core::cmp::Ordering;
use core::ffi::{c_char, c_void};

/// `BG_ANIM_CROUCH_STATE_MASK` (low byte of `stateFlags`).
const CROUCH_STATE_MASK: u8 = 0xc4;
/// `BG_ANIM_PRONE_STATE_MASK`.
const PRONE_STATE_MASK: u32 = 0x308;

const EF_CROUCHING: u32 = 0x20;
const EF_ADS: u32 = 0x100;
const EF_FIRING: u32 = 0x200;
const EF_FORCED_STANCE_MASK: u32 = 0x6000;
const EF_IN_VEHICLE: u32 = 0x0010_0000;
/// `playerStateFlags` bit that suppresses the firing condition.
const PS_SUPPRESS_FIRING: u32 = 0x0080_0000;

const VEHICLE_TYPE_4_WHEEL: i32 = 1;
const VEHICLE_TYPE_TANK: i32 = 2;
const VEHICLE_TYPE_ARTILLERY: i32 = 5;

// ---- stance ------------------------------------------------------------------------

/// The entry `BG_GetAnimationForIndex` returns for `index` (toggle bit
/// cleared), or its range error.
fn stance_entry(table: &bg_static_animation_table_t, index: u32) -> Result<&bg_static_animation_t, Failure<'static>> {
    checked_entry_index(table, index & !ANIM_TOGGLEBIT)
        .map(|i| &table.entries[i])
        .ok_or_else(super::get_animation_for_index_error)
}

/// `BG_IsCrouchingAnim`: the entry's low state byte has a crouch bit.
pub fn is_crouching_anim(table: &bg_static_animation_table_t, index: u32) -> Result<bool, Failure<'static>> {
    Ok(stance_entry(table, index)?.stateFlags as u8 & CROUCH_STATE_MASK != 0)
}

/// `BG_IsProneAnim`: the entry's state word has a prone bit.
pub fn is_prone_anim(table: &bg_static_animation_table_t, index: u32) -> Result<bool, Failure<'static>> {
    Ok(stance_entry(table, index)?.stateFlags & PRONE_STATE_MASK != 0)
}

// ---- conditions ----------------------------------------------------------------------

/// The weapon records (`BG_GetInfoForWeapon(w)->weaponClass`).
pub trait WeaponClasses {
    fn weapon_class(&mut self, weapon: i32) -> i32;
}

/// The vehicle rows shared by the two updaters: mounted position, vehicle
/// type and motion.
fn vehicle_conditions(
    clients: &mut ClientInfos,
    client: i32,
    state: bool,
    position: i32,
    vehicle_type: i32,
    motion: i32,
) -> Result<(), Failure<'static>> {
    match position {
        1 => update_condition_value(clients, client, ANIM_COND_MOUNTED, 2, true)?,
        2 => update_condition_value(clients, client, ANIM_COND_MOUNTED, 3, true)?,
        3..=6 => update_condition_value(clients, client, ANIM_COND_MOUNTED, position + 1, true)?,
        _ => {}
    }
    let vehicle = match vehicle_type {
        VEHICLE_TYPE_TANK => 1,
        VEHICLE_TYPE_4_WHEEL => 2,
        VEHICLE_TYPE_ARTILLERY => 3,
        _ => return Err(Failure::VehicleType { state, vehicle_type }),
    };
    update_condition_value(clients, client, ANIM_COND_VEHICLE, vehicle, true)?;
    update_condition_value(clients, client, ANIM_COND_VEHICLE_MOTION, motion, true)
}

/// `BG_AnimUpdatePlayerStateConditions(pm)`: the condition rows of
/// `ps->psClientNum` from the player state and the command's buttons.
pub fn update_player_state_conditions(
    clients: &mut ClientInfos,
    ps: &playerState_t,
    buttons: i32,
    weapons: &mut impl WeaponClasses,
) -> Result<(), Failure<'static>> {
    let client = ps.psClientNum;
    if client as u32 >= BGS_CLIENTINFO_COUNT as u32 {
        return Err(Failure::ConditionsClient { state: true, client });
    }
    let flags = ps.entityStateFlags;
    update_condition_value(clients, client, ANIM_COND_WEAPON, ps.currentWeapon, true)?;
    let class = weapons.weapon_class(ps.currentWeapon);
    update_condition_value(clients, client, ANIM_COND_WEAPONCLASS, class, true)?;
    update_condition_value(clients, client, ANIM_COND_WEAPON_POSITION, i32::from(flags & EF_ADS != 0), true)?;
    if flags & EF_IN_VEHICLE != 0 {
        vehicle_conditions(clients, client, true, ps.vehiclePosition, ps.vehicleType, ps.vehicleMotion)?;
    } else {
        update_condition_value(clients, client, ANIM_COND_MOUNTED, i32::from(flags & EF_FORCED_STANCE_MASK != 0), true)?;
        update_condition_value(clients, client, ANIM_COND_VEHICLE, 0, true)?;
        update_condition_value(clients, client, ANIM_COND_VEHICLE_MOTION, 0, true)?;
    }
    update_condition_value(clients, client, ANIM_COND_UNDERHAND, i32::from(ps.viewAngles[0] > 0.0), true)?;
    let firing = buttons & 1 != 0 && ps.playerStateFlags & PS_SUPPRESS_FIRING == 0;
    update_condition_value(clients, client, ANIM_COND_FIRING, i32::from(firing), true)
}

/// `BG_AnimPlayerConditions(es, ci)`: the condition rows of `es->clientNum`
/// from the entity state, `ci`'s view pitch and the legs entry's flags.
///
/// The legs entry is `entries[legsAnim & ~ANIM_TOGGLEBIT]`, unchecked in the
/// C (a 10-bit net field); an index past the table reads as an entry with
/// no flags here (docs/DIVERGENCES.md).
pub fn anim_player_conditions(
    clients: &mut ClientInfos,
    entries: &[bg_static_animation_t; BG_ANIM_MAX_ANIMATIONS],
    es: &entityState_t,
    view_pitch: f32,
    weapons: &mut impl WeaponClasses,
) -> Result<(), Failure<'static>> {
    let client = es.clientNum;
    if client as u32 >= BGS_CLIENTINFO_COUNT as u32 {
        return Err(Failure::ConditionsClient { state: false, client });
    }
    let flags = es.eFlags;
    let vehicle_state = es.vehicleAnimState as u32;
    let (state_flags, entry_flags) = entries
        .get((es.legsAnim as u32 & !ANIM_TOGGLEBIT) as usize)
        .map_or((0, 0), |e| (e.stateFlags, e.flags));
    update_condition_value(clients, client, ANIM_COND_WEAPON, es.weapon, true)?;
    let class = weapons.weapon_class(es.weapon);
    update_condition_value(clients, client, ANIM_COND_WEAPONCLASS, class, true)?;
    update_condition_value(clients, client, ANIM_COND_WEAPON_POSITION, i32::from(flags & EF_ADS != 0), true)?;
    if flags & EF_IN_VEHICLE != 0 {
        let position = (vehicle_state & 7) as i32;
        let vehicle_type = ((vehicle_state & 0x38) >> 3) as i32;
        let motion = ((vehicle_state & 0xc0) >> 6) as i32;
        vehicle_conditions(clients, client, false, position, vehicle_type, motion)?;
    } else {
        update_condition_value(clients, client, ANIM_COND_MOUNTED, 0, true)?;
        update_condition_value(clients, client, ANIM_COND_VEHICLE, 0, true)?;
        update_condition_value(clients, client, ANIM_COND_VEHICLE_MOTION, 0, true)?;
    }
    update_condition_value(clients, client, ANIM_COND_UNDERHAND, i32::from(view_pitch > 0.0), true)?;
    update_condition_value(clients, client, ANIM_COND_CROUCHING, i32::from(flags & EF_CROUCHING != 0), true)?;
    update_condition_value(clients, client, ANIM_COND_FIRING, i32::from(flags & EF_FIRING != 0), true)?;
    if state_flags != 0 {
        update_condition_value(clients, client, ANIM_COND_MOVETYPE, state_flags as i32, false)?;
    }
    let strafe = if entry_flags & BG_ANIM_ENTRY_STRAFE_LEFT != 0 {
        ANIM_STRAFE_LEFT
    } else if entry_flags & BG_ANIM_ENTRY_STRAFE_RIGHT != 0 {
        ANIM_STRAFE_RIGHT
    } else {
        0
    };
    update_condition_value(clients, client, ANIM_COND_STRAFING, strafe, true)
}

// ---- controller lerps -------------------------------------------------------------------

/// `3.0f`, `130.0f`: literals exact in binary32.
const THREE: Decimal = Decimal::exact(3.0, 0x4000, 0xc000_0000_0000_0000);
const RATE_SPEED_RANGE: Decimal = Decimal::exact(130.0, 0x4006, 0x8200_0000_0000_0000);

// ---- slots -----------------------------------------------------------------------------

/// The engine services of the slot functions (traps, clocks, prints).
/// Animations are the packed `(tree << 16) | index` words of the game's
/// traps; a flavour whose traps take the parts splits them.
pub trait SlotEngine: WeaponClasses {
    /// `bg.time` (cgame: `cg_effectTime`).
    fn time(&self) -> i32;
    /// `bg.levelFrameTime` (cgame: `cg_effectAnimTime`).
    fn sample_time(&self) -> i32;
    /// `bg_debugAnim.integer` (cgame: `cg_debuganim`).
    fn debug(&self) -> i32;
    fn anims_index(&mut self, anims: *mut XAnim) -> u32;
    fn is_looped(&mut self, anim: u32) -> bool;
    fn is_primitive(&mut self, anim: u32) -> bool;
    fn length(&mut self, anims: *mut XAnim, index: u16) -> i32;
    fn weight(&mut self, tree: *mut c_void, anim: u32) -> f32;
    fn anim_time(&mut self, tree: *mut c_void, anim: u32) -> f32;
    fn clear_goal_weight(&mut self, tree: *mut c_void, anim: u32, blend: f32);
    #[allow(clippy::too_many_arguments)]
    fn set_complete_goal_weight(&mut self, tree: *mut c_void, anim: u32, weight: f32, blend: f32, rate: f32, notify: u16, restart: bool);
    #[allow(clippy::too_many_arguments)]
    fn set_complete_goal_weight_knob_all(
        &mut self,
        tree: *mut c_void,
        anim: u32,
        knob: u32,
        weight: f32,
        blend: f32,
        rate: f32,
        notify: u16,
        restart: bool,
    );
    fn set_anim_rate(&mut self, tree: *mut c_void, anim: u32, rate: f32);
    fn set_time(&mut self, tree: *mut c_void, anim: u32, time: f32);
    /// `Com_Printf("Anim-%s: %i, %s, (blend time) %i\n", ...)`.
    fn print_anim(&mut self, legs: bool, index: u32, name: *const c_char, blend: i32);
    /// `Com_Printf("MoveSpeed: %s, %i, %4.4f : %1.4f\n", ...)`.
    fn print_move_speed(&mut self, name: *const c_char, move_speed: i32, speed: f32, rate: f32);
}

/// What the slot functions read of the module state besides the slot and
/// its client: the published table (at its address) and `bgs`'s handles;
/// and how the unit computes.
#[derive(Clone, Copy)]
pub struct SlotContext<'a, F> {
    pub table: &'a bg_static_animation_table_t,
    pub torso: scr_anim_t,
    pub legs: scr_anim_t,
    pub root: scr_anim_t,
    pub behaviour: Behaviour,
    pub floats: F,
}

impl<F: Floats> SlotContext<'_, F> {
    /// `(float)blendTime * 0.001f`.
    #[inline(always)]
    fn blend_seconds(&self, blend: i32) -> f32 {
        let e = self.floats.expr();
        e.store_f32(e.mul(Float, e.load_i32(Float, blend), e.constant(MILLISECONDS_TO_SECONDS)))
    }
}

const ENTRY_SIZE: usize = core::mem::size_of::<bg_static_animation_t>();

impl<'a, F> SlotContext<'a, F> {
    fn base(&self) -> usize {
        self.table as *const bg_static_animation_table_t as usize
    }

    /// The slot's entry: `animationOffset` is its address on 32-bit
    /// targets and its byte offset from `bgAnimStaticTable` on 64-bit
    /// ones; 0 is "no animation" either way, so on 64-bit targets a slot
    /// can not hold entry 0 (upstream's representation, reproduced). A
    /// word that is no entry of the table reads as no animation
    /// (docs/DIVERGENCES.md).
    fn entry(&self, slot: &bg_anim_slot_t) -> Option<usize> {
        let word = slot.animationOffset as usize;
        if word == 0 {
            return None;
        }
        let offset = if cfg!(target_pointer_width = "32") { word.wrapping_sub(self.base()) } else { word };
        (offset % ENTRY_SIZE == 0 && offset / ENTRY_SIZE < BG_ANIM_MAX_ANIMATIONS).then_some(offset / ENTRY_SIZE)
    }

    fn set_entry(&self, slot: &mut bg_anim_slot_t, entry: Option<usize>) {
        slot.animationOffset = match entry {
            None => 0,
            Some(i) if cfg!(target_pointer_width = "32") => (self.base() + i * ENTRY_SIZE) as u32,
            Some(i) => (i * ENTRY_SIZE) as u32,
        };
    }

    fn anims(&self) -> *mut XAnim {
        // SAFETY: both union members are one pointer; after the finalize
        // step (and in every use of these functions) it is the handle.
        unsafe { self.table.animTree.animTreeHandle }.cast()
    }
}

/// The packed animation of a slot word under the tree index, toggle bit
/// cleared.
fn slot_xanim(tree_index: u16, word: u32) -> u32 {
    ((u32::from(tree_index) << 16) | (word & 0xffff)) & !ANIM_TOGGLEBIT
}


/// The entry's name up to its NUL.
fn entry_name(entry: &bg_static_animation_t) -> &[u8] {
    let name = entry.name_bytes();
    &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())]
}

/// The start phase of a moving loop: `clientNum * 0.36 + (time % duration)
/// / duration`, less its integer part (truncated). Linux: one `long
/// double` chain rounded to float, the difference in `long double`;
/// Windows: binary64, the integer part by `_ftol2`'s low word.
///
/// A zero duration (the C divides by zero and traps) and `INT_MIN % -1`
/// give a remainder of 0 (docs/DIVERGENCES.md).
#[inline(always)]
fn initial_loop_time<F: Floats>(ctx: &SlotContext<'_, F>, client_num: i32, time: i32, duration: i32) -> f32 {
    let e = ctx.floats.transcribed();
    let remainder = if duration == 0 { 0 } else { time.wrapping_rem(duration) };
    match ctx.behaviour {
        Behaviour::Linux => {
            // (float)((long double)clientNum * (long double)0.36f + (long double)remainder / (long double)duration)
            let per_client = e.mul(LongDouble, e.load_i32(LongDouble, client_num), e.cast(LongDouble, e.constant(LOOP_PHASE_PER_CLIENT)));
            let fraction = e.div(LongDouble, e.load_i32(LongDouble, remainder), e.load_i32(LongDouble, duration));
            let phase = e.store_f32(e.add(LongDouble, per_client, fraction));
            let integer = e.trunc_i32(e.load_f32(phase));
            // (float)((long double)phase - (long double)integer)
            e.store_f32(e.sub(LongDouble, e.load_f32(phase), e.load_i32(LongDouble, integer)))
        }
        Behaviour::Windows => {
            // double phase = (double)remainder / duration + (double)clientNum * 0.36f
            let fraction = e.div(Double, e.load_i32(Double, remainder), e.load_i32(Double, duration));
            let per_client = e.mul(Double, e.load_i32(Double, client_num), e.constant(LOOP_PHASE_PER_CLIENT));
            let phase = e.store_f64(e.add(Double, fraction, per_client));
            let integer = e.ftol2(e.cast(LongDouble, e.load_f64(phase)));
            // (float)(phase - integer)
            e.store_f32(e.sub(Double, e.load_f64(phase), e.load_i32(Double, integer)))
        }
    }
}


/// Whether the stance (crouch, then prone) differs between two animation
/// words; the two queries of each pair run in the original's order (Linux:
/// the new word first).
fn stance_changed<F>(ctx: &SlotContext<'_, F>, old: u32, new: u32) -> Result<bool, Failure<'static>> {
    let pair = |f: fn(&bg_static_animation_table_t, u32) -> Result<bool, Failure<'static>>| -> Result<(bool, bool), Failure<'static>> {
        match ctx.behaviour {
            Behaviour::Windows => {
                let o = f(ctx.table, old)?;
                Ok((o, f(ctx.table, new)?))
            }
            Behaviour::Linux => {
                let n = f(ctx.table, new)?;
                Ok((f(ctx.table, old)?, n))
            }
        }
    };
    let (o, n) = pair(is_crouching_anim)?;
    if o != n {
        return Ok(true);
    }
    let (o, n) = pair(is_prone_anim)?;
    Ok(o != n)
}

/// `BG_PlayerAnimation_VerifyAnim(tree, slot)`: a slot whose animation has
/// no weight left in the tree is reset.
pub fn verify_anim<F>(ctx: &SlotContext<'_, F>, tree: *mut c_void, slot: &mut bg_anim_slot_t, engine: &mut impl SlotEngine) {
    let tree_index = engine.anims_index(ctx.anims()) as u16;
    if slot.animationWord != 0 && engine.weight(tree, slot_xanim(tree_index, slot.animationWord)) == 0.0 {
        slot.animationWord = 0;
        ctx.set_entry(slot, None);
        slot.blendTime = 150;
    }
}

/// `BG_SetNewAnimation(ci, slot, word, forceDeathRestart)`. `slot` is the
/// caller's slot (`is_legs`: it is `ci`'s legs slot); `ci`'s own slot
/// fields are not read or written here.
#[allow(clippy::too_many_arguments)]
pub fn set_new_animation<'a, F: Floats>(
    ctx: &SlotContext<'a, F>,
    ci: &mut clientInfo_t,
    slot: &mut bg_anim_slot_t,
    is_legs: bool,
    word: u32,
    force_death_restart: bool,
    engine: &mut impl SlotEngine,
) -> Result<(), Failure<'a>> {
    let entries = &ctx.table.entries;
    let old = ctx.entry(slot);
    let old_word = slot.animationWord;
    let index = word & !ANIM_TOGGLEBIT;
    slot.animationWord = word;
    // The C errors when entryCount <= index; an index past the 512 rows
    // (entryCount corrupt) errors too here.
    if ctx.table.entryCount as u32 <= index || index as usize >= BG_ANIM_MAX_ANIMATIONS {
        return Err(Failure::SlotRange { count: ctx.table.entryCount, index: index as i32 });
    }
    let index_usize = index as usize;
    let tree = ci.animTree;
    let anims = ctx.anims();
    let tree_index = engine.anims_index(anims) as u16;
    if index == 0 {
        ctx.set_entry(slot, None);
        slot.blendTime = 200;
    } else {
        ctx.set_entry(slot, Some(index_usize));
        slot.blendTime = entries[index_usize].blendTime;
        if is_legs && stance_changed(ctx, old_word, index)? {
            ci.animTransitionTime = engine.time().wrapping_add(400);
        }
    }

    if old.is_none() && is_legs {
        slot.blendTime = 0;
    } else {
        let mut minimum = -1;
        let current = ctx.entry(slot);
        if current.is_none() || slot.blendTime < 1 {
            minimum = match current {
                Some(c) if entries[c].moveSpeed != 0 => 120,
                _ => match old {
                    Some(o) if entries[o].moveSpeed != 0 => 250,
                    _ => 170,
                },
            };
        }
        let transition = ci.animTransitionTime.wrapping_sub(engine.time());
        if minimum < transition {
            minimum = transition;
        }
        if slot.blendTime < minimum {
            slot.blendTime = minimum;
        }
    }

    let mut start_time = 0.0f32;
    if let Some(current) = ctx.entry(slot) {
        if entries[current].moveSpeed != 0 && engine.is_looped(slot_xanim(tree_index, word)) {
            let old_anim = slot_xanim(tree_index, old_word);
            let old_moving = old.is_some_and(|o| entries[o].moveSpeed != 0);
            if !old_moving || !engine.is_looped(old_anim) {
                let mut duration = 1000;
                if engine.is_primitive(old_anim) {
                    duration = engine.length(anims, (old_word & !ANIM_TOGGLEBIT) as u16).wrapping_add(200);
                }
                start_time = initial_loop_time(ctx, ci.clientNum, engine.time(), duration);
            } else {
                // a float returned through the ABI
                start_time = ctx.floats.expr().pass_f32(engine.anim_time(tree, old_anim));
            }
        }
    }

    if old.is_some() {
        engine.clear_goal_weight(tree, slot_xanim(tree_index, old_word), ctx.blend_seconds(slot.blendTime));
    }

    if index == 0 {
        if !is_legs {
            engine.set_complete_goal_weight(tree, ctx.torso.packed(), 0.0, ctx.blend_seconds(slot.blendTime), 1.0, 0, false);
            engine.set_complete_goal_weight(tree, ctx.legs.packed(), 1.0, ctx.blend_seconds(slot.blendTime), 1.0, 0, false);
        }
        if engine.debug() == 1 {
            engine.print_anim(is_legs, index, entries[0].name.as_ptr(), slot.blendTime);
        }
        return Ok(());
    }

    if !is_legs {
        ci.gunHandLeft = 0;
        ci.dobjNeedsUpdate = 1;
    }
    let new_anim = slot_xanim(tree_index, word);
    // Not reachable without an entry: the index is in range and non-zero.
    let Some(current) = ctx.entry(slot) else { return Ok(()) };
    let entry = &entries[current];
    if entry.flags & BG_ANIM_ENTRY_DEATH == 0 {
        let set_start = entry.moveSpeed != 0 && engine.weight(tree, new_anim) == 0.0;
        let blend = ctx.blend_seconds(slot.blendTime);
        engine.set_complete_goal_weight(tree, new_anim, 1.0, blend, 1.0, entry.usedByScript as u16, !is_legs);
        if set_start {
            engine.set_time(tree, new_anim, ctx.floats.expr().pass_f32(start_time));
        }
    } else {
        if engine.is_looped(new_anim) {
            return Err(Failure::DeathLooping { name: entry_name(entry) });
        }
        if !force_death_restart {
            engine.set_complete_goal_weight_knob_all(tree, new_anim, ctx.root.packed(), 1.0, 0.0, 1.0, 0, false);
            engine.set_time(tree, new_anim, 1.0);
        } else {
            engine.set_complete_goal_weight(tree, new_anim, 1.0, ctx.blend_seconds(slot.blendTime), 1.0, 0, false);
        }
    }
    if !is_legs {
        let script = entry.usedByScript as u16;
        engine.set_complete_goal_weight(tree, ctx.torso.packed(), 1.0, ctx.blend_seconds(slot.blendTime), 1.0, script, false);
        engine.set_complete_goal_weight(tree, ctx.legs.packed(), 0.01, ctx.blend_seconds(slot.blendTime), 1.0, script, false);
    }
    if engine.debug() == 1 {
        engine.print_anim(is_legs, index, entry.name.as_ptr(), slot.blendTime);
    }
    Ok(())
}


/// What `BG_RunLerpFrameRate` reads of the entity state: `eFlags` and
/// `pos.trBase`.
#[derive(Clone, Copy, Debug, Default)]
pub struct EntitySample {
    pub flags: u32,
    pub origin: [f32; 3],
}

/// `BG_RunLerpFrameRate(ci, slot, word, es)`: starts `word` when it is new,
/// then sets the animation rate from the entity's movement since the last
/// sample.
#[allow(clippy::too_many_arguments)]
pub fn run_lerp_frame_rate<'a, F: Floats>(
    ctx: &SlotContext<'a, F>,
    ci: &mut clientInfo_t,
    slot: &mut bg_anim_slot_t,
    is_legs: bool,
    word: u32,
    entity: &EntitySample,
    engine: &mut impl SlotEngine,
) -> Result<(), Failure<'a>> {
    let entries = &ctx.table.entries;
    let vertical = ctx.entry(slot).is_some_and(|e| entries[e].flags & BG_ANIM_ENTRY_VERTICAL_MOTION != 0);
    let tree = ci.animTree;
    let tree_index = engine.anims_index(ctx.anims()) as u16;
    if word != slot.animationWord || (ctx.entry(slot).is_none() && word & !ANIM_TOGGLEBIT != 0) {
        set_new_animation(ctx, ci, slot, is_legs, word, (entity.flags >> 10) & 1 != 0, engine)?;
    }
    if word & !ANIM_TOGGLEBIT == 0 {
        return Ok(());
    }
    // The C dereferences the slot's entry here; without one (a slot word
    // that is no entry) nothing more is done (docs/DIVERGENCES.md).
    let Some(current) = ctx.entry(slot) else { return Ok(()) };
    let entry = &entries[current];
    let e = ctx.floats.expr();
    let copy_origin = |slot: &mut bg_anim_slot_t| {
        for i in 0..3 {
            slot.lastOrigin[i] = e.copy_f32(entity.origin[i]);
        }
    };
    let sample = engine.sample_time();
    if entry.moveSpeed == 0 || slot.lastUpdateTime == 0 {
        slot.animRate = 1.0;
        slot.lastUpdateTime = sample;
        copy_origin(slot);
    } else if sample != slot.lastUpdateTime {
        let distance = if vertical {
            // fabsf(lastOrigin[2] - trBase[2]) (the magnitude commutes with the rounding)
            e.store_f32(e.sub(Float, e.load_f32(slot.lastOrigin[2]), e.load_f32(entity.origin[2]))).abs()
        } else {
            vector_distance(ctx.behaviour, ctx.floats, crate::math::HardwareRoots, &slot.lastOrigin, &entity.origin)
        };
        let elapsed = sample.wrapping_sub(slot.lastUpdateTime);
        // Linux: (float)((long double)distance / ((long double)elapsed * (long double)0.001f)),
        // then (float)((long double)speed / (long double)moveSpeed); Windows: the same in double.
        let ty = match ctx.behaviour {
            Behaviour::Linux => LongDouble,
            Behaviour::Windows => Double,
        };
        let t = ctx.floats.transcribed();
        let seconds = t.mul(ty, t.load_i32(ty, elapsed), t.cast(ty, t.constant(MILLISECONDS_TO_SECONDS)));
        let speed = t.store_f32(t.div(ty, t.load_f32(distance), seconds));
        slot.animRate = t.store_f32(t.div(ty, t.load_f32(speed), t.load_i32(ty, entry.moveSpeed)));
        slot.lastUpdateTime = sample;
        copy_origin(slot);
        if slot.animRate < 0.1 {
            // animRate >= 0.01f (with ISO excess precision the literal is
            // the decimal's extended value, above 0.01f)
            let order = e.compare(e.load_f32(slot.animRate), e.constant(RATE_ZERO_EPSILON));
            let at_least = matches!(order, Some(Ordering::Greater | Ordering::Equal));
            slot.animRate = if at_least || !vertical { 0.1 } else { 0.0 };
        } else if slot.animRate > 2.0 {
            if entry.flags & BG_ANIM_ENTRY_VERTICAL_MOTION == 0 {
                if entry.moveSpeed >= 151 {
                    slot.animRate = 2.0;
                } else if entry.moveSpeed < 20 {
                    if slot.animRate > 3.0 {
                        slot.animRate = 3.0;
                    }
                } else {
                    // 3.0f - (float)(moveSpeed - 20) / 130.0f
                    let steps = e.load_i32(Float, entry.moveSpeed - 20);
                    let max_rate = e.store_f32(e.sub(Float, e.constant(THREE), e.div(Float, steps, e.constant(RATE_SPEED_RANGE))));
                    if slot.animRate > max_rate {
                        slot.animRate = max_rate;
                    }
                }
            } else if slot.animRate > 4.0 {
                slot.animRate = 4.0;
            }
        }
        if engine.debug() == 2 {
            // The C reads the row of the word unchecked; a word past the
            // table prints nothing here (docs/DIVERGENCES.md).
            if let Some(row) = entries.get((word & !ANIM_TOGGLEBIT) as usize) {
                engine.print_move_speed(row.name.as_ptr(), row.moveSpeed, speed, slot.animRate);
            }
        }
    }
    if slot.animationWord != 0 {
        engine.set_anim_rate(tree, slot_xanim(tree_index, slot.animationWord), e.pass_f32(slot.animRate));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{Native, Soft, X87};
    use crate::x87_model::{Precision, F80};
    use alloc::boxed::Box;

    /// An empty table on the heap (too large for a test thread's stack).
    fn zeroed_table() -> Box<bg_static_animation_table_t> {
        crate::abi::Zeroed::boxed_zeroed()
    }

    /// The game unit's arithmetic at 64 bits, on the software x87.
    const GAME: X87<Soft> = X87 { machine: Soft { pc: Precision::Extended }, iso: false, stack_floats: false };

    fn bits(v: [u32; 3]) -> [f32; 3] {
        v.map(f32::from_bits)
    }

    /// The subtraction of the Linux x87 block reads `first` from memory:
    /// a signalling NaN there meets a quiet one loaded from `second`, and
    /// the x87 gives the quiet operand; the Windows C subtraction in SSE
    /// gives its first operand, quieted (on AArch64 the first signalling
    /// one, quieted). Under Miri, which gives the result of a hardware
    /// operation on a NaN any NaN (as the language allows), the hardware's
    /// root and the native subtraction are left out: the software x87 and
    /// the core's integer root say the same there.
    #[test]
    fn vector_distance_takes_the_subtrahend_from_memory() {
        use uoanim_core::math::IntegerRoots;
        let f = Roles { expr: GAME, x87: GAME };
        let first = bits([0x7f80_0001, 0, 0]); // signalling, payload 1
        let second = bits([0x7fc0_1000, 0, 0]); // quiet, larger payload
        assert_eq!(vector_distance(Behaviour::Linux, f, IntegerRoots, &first, &second).to_bits(), 0x7fc0_1000);
        if !cfg!(miri) {
            assert_eq!(vector_distance(Behaviour::Linux, f, crate::math::HardwareRoots, &first, &second).to_bits(), 0x7fc0_1000);
        }
        let first = bits([0x7fc0_0001, 0, 0]);
        let second = bits([0x7f80_1000, 0, 0]);
        // both loaded: the larger significand
        assert_eq!(vector_distance(Behaviour::Windows, f, crate::math::HardwareRoots, &first, &second).to_bits(), 0x7fc0_1000);
        // Native is the target's own NaN rule: SSE gives the first
        // operand, quieted; AArch64 (the Darwin units) gives the first
        // signalling operand, quieted.
        if !cfg!(miri) {
            let native = Roles { expr: Native, x87: GAME };
            let expected = if cfg!(any(target_arch = "x86", target_arch = "x86_64")) { 0x7fc0_0001 } else { 0x7fc0_1000 };
            assert_eq!(vector_distance(Behaviour::Windows, native, crate::math::HardwareRoots, &first, &second).to_bits(), expected);
        }
    }

    fn context(table: &bg_static_animation_table_t, behaviour: Behaviour) -> SlotContext<'_, Roles<X87<Soft>, X87<Soft>>> {
        SlotContext {
            table,
            torso: scr_anim_t::default(),
            legs: scr_anim_t::default(),
            root: scr_anim_t::default(),
            behaviour,
            floats: Roles { expr: GAME, x87: GAME },
        }
    }

    #[test]
    fn a_slot_entry_round_trips_except_entry_0_on_64_bit() {
        let table = zeroed_table();
        let ctx = context(&table, Behaviour::Linux);
        let mut slot = bg_anim_slot_t::default();
        ctx.set_entry(&mut slot, Some(7));
        assert_eq!(ctx.entry(&slot), Some(7));
        ctx.set_entry(&mut slot, Some(0));
        let expected = if cfg!(target_pointer_width = "64") { None } else { Some(0) };
        assert_eq!(ctx.entry(&slot), expected);
        slot.animationOffset = 3; // no entry's offset or address
        assert_eq!(ctx.entry(&slot), None);
    }

    #[test]
    fn the_loop_phase_is_the_fractional_part() {
        let table = zeroed_table();
        let mut ctx = context(&table, Behaviour::Linux);
        // client 3: 1.08 + 250/1000 = 1.33 -> 0.33
        let phase = initial_loop_time(&ctx, 3, 1250, 1000);
        assert!((phase - 0.33).abs() < 1e-6, "{phase}");
        ctx.behaviour = Behaviour::Windows;
        let phase = initial_loop_time(&ctx, 3, 1250, 1000);
        assert!((phase - 0.33).abs() < 1e-6, "{phase}");
        // a zero duration divides 0 by 0: NaN, whose integer part is 0
        assert!(initial_loop_time(&ctx, 0, 5, 0).is_nan());
    }

    #[test]
    fn ftol2_keeps_the_low_word_and_zeroes_the_top_half_ulp() {
        let t = |v: F80| GAME.ftol2(v.into());
        assert_eq!(t(F80::from_f64(4294967298.75)), 2); // 2^32 + 2
        assert_eq!(t(F80::from_f64(-1.5)), -1);
        assert_eq!(t(F80::from_parts(0x403d, u64::MAX - 1)), -1); // 2^63 - 1: its low word
        assert_eq!(t(F80::from_parts(0x403d, u64::MAX)), 0); // 2^63 - 0.5
        assert_eq!(t(F80::from_parts(0xc03e, 1 << 63)), 0); // -2^63: low word 0
        assert_eq!(t(F80::INDEFINITE), 0);
    }

    #[test]
    fn the_decimal_literals_are_the_extended_quotients() {
        for (c, num, den) in [(MILLISECONDS_TO_SECONDS, 1, 1000), (LOOP_PHASE_PER_CLIENT, 36, 100), (RATE_ZERO_EPSILON, 1, 100)] {
            let q = F80::from_i32(num).div(F80::from_i32(den), Precision::Extended);
            assert_eq!((c.extended.sign_exponent(), c.extended.significand()), (q.sign_exponent(), q.significand()));
            assert_eq!(q.to_f32(), c.float);
        }
        for c in [THREE, RATE_SPEED_RANGE] {
            let v = F80::from_f32(c.float);
            assert_eq!((c.extended.sign_exponent(), c.extended.significand()), (v.sign_exponent(), v.significand()));
        }
    }
}
