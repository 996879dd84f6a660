//! The per-frame part of the player-animation module: stance queries,
//! condition words from the player and entity state, the controller lerps,
//! and the two animation slots (blend and stance timers, loop start phase,
//! animation rate from movement).
//!
//! Every float step is computed as the C original computes it on the
//! target: on x86_64 `float`/`double` are SSE and `long double` the x87; on
//! i686 every expression runs on the x87 and is rounded where the original
//! (built at -O0) stores it. The x87 steps go through [`F80`], the
//! software x87 (`crate::x87_model`), each rounding under the precision
//! control the export read on entry (the x87's own: the original's code
//! runs under the live control word). Which platform behaviour a unit has
//! is [`Behaviour`]; the arithmetic follows it and the target together.

use super::{checked_entry_index, update_condition_value, ClientInfos};
use crate::abi::bg::*;
use crate::abi::common::{scr_anim_t, XAnim};
use crate::error::Failure;
use crate::flavour::Behaviour;
use crate::math::sqrt_f64;
use crate::x87_model::{Precision, F80};
use core::ffi::{c_char, c_void};

/// Whether the C original's float expressions run on the x87 (under the
/// precision control), rounded where it stores them: on every x86 target (its
/// units are built with the x87 model of the original binaries). The
/// exception is the cgame's controller lerps on x86_64, which are SSE there
/// ([`LerpArithmetic`]).
const X87_EXPRESSIONS: bool = cfg!(any(target_arch = "x86", target_arch = "x86_64"));

/// How the controller lerps compute: on the x87 ([`LerpArithmetic::X87`],
/// under its precision control) or in SSE binary32/binary64 (the cgame's
/// x86_64 build).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LerpArithmetic {
    X87(Precision),
    Sse,
}

/// The precision of the x87 when `arithmetic` is the x87 (never on
/// targets without one), `None` for binary32/binary64 arithmetic.
fn lerp_x87(arithmetic: LerpArithmetic) -> Option<Precision> {
    match arithmetic {
        LerpArithmetic::X87(pc) if X87_EXPRESSIONS => Some(pc),
        _ => None,
    }
}

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

fn x(v: f32) -> F80 {
    F80::from_f32(v)
}

/// `a + b` rounded to binary32 (on the x87 at `x87`'s precision, when
/// given).
fn add_f32(x87: Option<Precision>, a: f32, b: f32) -> f32 {
    match x87 {
        Some(pc) => x(a).add(x(b), pc).to_f32(),
        None => a + b,
    }
}

/// `a - b` rounded to binary32.
fn sub_f32(x87: Option<Precision>, a: f32, b: f32) -> f32 {
    match x87 {
        Some(pc) => x(a).sub(x(b), pc).to_f32(),
        None => a - b,
    }
}

/// A binary32 copy: through the x87 when `x87` is given (a signalling NaN
/// comes back quiet), a plain move otherwise.
fn copy_f32(x87: Option<Precision>, v: f32) -> f32 {
    if x87.is_some() { x(v).to_f32() } else { v }
}

/// The x87 of the expressions outside the lerps at precision `pc`, when the
/// target's are x87 ([`X87_EXPRESSIONS`]).
fn expressions_x87(pc: Precision) -> Option<Precision> {
    X87_EXPRESSIONS.then_some(pc)
}

/// `BG_LerpAngles(target, maxStep, current)`: each lane steps towards the
/// target by at most `maxStep`.
pub fn lerp_angles(behaviour: Behaviour, arithmetic: LerpArithmetic, target: &[f32; 3], max_step: f32, current: &mut [f32; 3]) {
    let x87 = lerp_x87(arithmetic);
    for lane in 0..3 {
        let (up, down) = match behaviour {
            Behaviour::Linux => {
                let delta = sub_f32(x87, target[lane], current[lane]);
                (delta > max_step, delta < -max_step)
            }
            Behaviour::Windows => {
                let delta = match x87 {
                    Some(pc) => x(target[lane]).sub(x(current[lane]), pc).to_f64(),
                    None => f64::from(target[lane]) - f64::from(current[lane]),
                };
                (delta > f64::from(max_step), delta < -f64::from(max_step))
            }
        };
        current[lane] = if up {
            add_f32(x87, current[lane], max_step)
        } else if down {
            sub_f32(x87, current[lane], max_step)
        } else {
            copy_f32(x87, target[lane])
        };
    }
}

/// `Q_rsqrt` (the unit's own): one Newton step from the magic estimate.
fn q_rsqrt(x87: Option<Precision>, number: f32) -> f32 {
    let estimate = f32::from_bits(0x5f37_59dfu32.wrapping_sub(((number.to_bits() as i32) >> 1) as u32));
    match x87 {
        Some(pc) => {
            let half = x(number).mul(x(0.5), pc).to_f32();
            x(estimate).mul(x(1.5).sub(x(half).mul(x(estimate), pc).mul(x(estimate), pc), pc), pc).to_f32()
        }
        None => {
            let half = number * 0.5;
            estimate * (1.5 - half * estimate * estimate)
        }
    }
}

/// `BG_LerpOffset(target, scale, current)`: moves `current` towards
/// `target` by `scale` over the distance, or onto it.
///
/// Linux: the original hands `Q_rsqrt` the low word of the squared length
/// widened to a double and reads its float result's bits as an integer (a
/// call-site ABI defect, reproduced: the step is `int_bits * scale`).
/// Windows: the inverse square root is inlined over the double length.
pub fn lerp_offset(behaviour: Behaviour, arithmetic: LerpArithmetic, target: &[f32; 3], scale: f32, current: &mut [f32; 3]) {
    let x87 = lerp_x87(arithmetic);
    match behaviour {
        Behaviour::Linux => {
            let delta = [0, 1, 2].map(|i| sub_f32(x87, target[i], current[i]));
            let length_squared = match x87 {
                Some(pc) => {
                    let square = |v: f32| x(v).mul(x(v), pc);
                    square(delta[0]).add(square(delta[1]), pc).add(square(delta[2]), pc).to_f32()
                }
                None => delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2],
            };
            if length_squared == 0.0 {
                return;
            }
            let low_word = f64::from(length_squared).to_bits() as u32;
            let word = q_rsqrt(x87, f32::from_bits(low_word)).to_bits() as i32;
            let step = match x87 {
                Some(pc) => F80::from_i32(word).mul(x(scale), pc).to_f32(),
                None => (f64::from(word) * f64::from(scale)) as f32,
            };
            if step < 1.0 {
                for lane in 0..3 {
                    current[lane] = match x87 {
                        Some(pc) => x(delta[lane]).mul(x(step), pc).add(x(current[lane]), pc).to_f32(),
                        None => current[lane] + delta[lane] * step,
                    };
                }
            } else {
                for lane in 0..3 {
                    current[lane] = copy_f32(x87, target[lane]);
                }
            }
        }
        Behaviour::Windows => {
            if let Some(pc) = x87 {
                let d0 = x(target[0]).sub(x(current[0]), pc).to_f32();
                let d1 = x(target[1]).sub(x(current[1]), pc).to_f32();
                let wide2 = x(target[2]).sub(x(current[2]), pc).to_f64();
                let d2 = F80::from_f64(wide2).to_f32();
                let length_squared = F80::from_f64(wide2)
                    .mul(x(d2), pc)
                    .add(x(d1).mul(x(d1), pc), pc)
                    .add(x(d0).mul(x(d0), pc), pc)
                    .to_f64();
                if length_squared == 0.0 {
                    return;
                }
                let bits = F80::from_f64(length_squared).to_f32().to_bits();
                let estimate = f32::from_bits(0x5f37_59dfu32.wrapping_sub(((bits as i32) >> 1) as u32));
                let ls = F80::from_f64(length_squared);
                let factor = x(1.5).sub(ls.mul(x(0.5), pc).mul(x(estimate), pc).mul(x(estimate), pc), pc).mul(x(estimate), pc).to_f64();
                let factor = F80::from_f64(factor).mul(x(scale), pc).to_f64();
                if factor.partial_cmp(&1.0) != Some(core::cmp::Ordering::Less) {
                    for lane in 0..3 {
                        current[lane] = copy_f32(x87, target[lane]);
                    }
                    return;
                }
                let f = F80::from_f64(factor);
                current[0] = x(current[0]).add(x(d0).mul(f, pc), pc).to_f32();
                current[1] = x(current[1]).add(x(d1).mul(f, pc), pc).to_f32();
                current[2] = x(current[2]).add(x(d2).mul(f, pc), pc).to_f32();
            } else {
                let d0 = (f64::from(target[0]) - f64::from(current[0])) as f32;
                let d1 = (f64::from(target[1]) - f64::from(current[1])) as f32;
                let wide2 = f64::from(target[2]) - f64::from(current[2]);
                let d2 = wide2 as f32;
                let length_squared = (wide2 * f64::from(d2) + f64::from(d1) * f64::from(d1)) + f64::from(d0) * f64::from(d0);
                if length_squared == 0.0 {
                    return;
                }
                let bits = (length_squared as f32).to_bits();
                let estimate = f64::from(f32::from_bits(0x5f37_59dfu32.wrapping_sub(((bits as i32) >> 1) as u32)));
                let mut factor = (1.5 - ((length_squared * 0.5 * estimate) * estimate)) * estimate;
                factor *= f64::from(scale);
                if factor.partial_cmp(&1.0) != Some(core::cmp::Ordering::Less) {
                    *current = *target;
                    return;
                }
                current[0] = (f64::from(current[0]) + f64::from(d0) * factor) as f32;
                current[1] = (f64::from(current[1]) + f64::from(d1) * factor) as f32;
                current[2] = (f64::from(current[2]) + f64::from(d2) * factor) as f32;
            }
        }
    }
}

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
/// its client: the published table (at its address) and `bgs`'s handles.
#[derive(Clone, Copy)]
pub struct SlotContext<'a> {
    pub table: &'a bg_static_animation_table_t,
    pub torso: scr_anim_t,
    pub legs: scr_anim_t,
    pub root: scr_anim_t,
    pub behaviour: Behaviour,
    /// The original's code copies `trBase` into `lastOrigin` through the
    /// x87 (a signalling NaN comes back quiet): on i686, and on x86_64 in
    /// the game flavours (the cgame's x86_64 copy is a plain move).
    pub quiet_origin_copy: bool,
    /// The cgame's i686 code evaluates with ISO excess precision: a float
    /// constant is the `long double` value of its decimal literal, and a
    /// cast rounds (`Constant`).
    pub wide_constants: bool,
    /// The x87 precision control the arithmetic rounds at (read once per
    /// exported call; 64 bits on targets without an x87).
    pub precision: Precision,
}

/// A float constant of the slot code: `num / den` written as a decimal
/// `float` literal.
#[derive(Clone, Copy)]
struct Constant {
    value: f32,
    num: i32,
    den: i32,
}

const MILLISECONDS_TO_SECONDS: Constant = Constant { value: 0.001, num: 1, den: 1000 };
const LOOP_PHASE_PER_CLIENT: Constant = Constant { value: 0.36, num: 36, den: 100 };
const RATE_ZERO_EPSILON: Constant = Constant { value: 0.01, num: 1, den: 100 };

impl SlotContext<'_> {
    /// The constant as an operand of an x87 chain: the float itself, or,
    /// with [`SlotContext::wide_constants`], the decimal's extended value
    /// (the compiler's: the quotient correctly rounded to the 64-bit
    /// significand, whatever the precision control at run time).
    fn constant(&self, c: Constant) -> F80 {
        if self.wide_constants { F80::from_i32(c.num).div(F80::from_i32(c.den), Precision::Extended) } else { x(c.value) }
    }

    /// `(float)blendTime * 0.001f`.
    fn blend_seconds(&self, blend: i32) -> f32 {
        if !X87_EXPRESSIONS {
            blend as f32 * MILLISECONDS_TO_SECONDS.value
        } else if self.wide_constants {
            x(blend as f32).mul(self.constant(MILLISECONDS_TO_SECONDS), self.precision).to_f32()
        } else {
            F80::from_i32(blend).mul(self.constant(MILLISECONDS_TO_SECONDS), self.precision).to_f32()
        }
    }
}

const ENTRY_SIZE: usize = core::mem::size_of::<bg_static_animation_t>();

impl<'a> SlotContext<'a> {
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
        unsafe { self.table.animTree.animTreeHandle }
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
/// Windows: binary64.
///
/// A zero duration (the C divides by zero and traps) and `INT_MIN % -1`
/// give a remainder of 0 (docs/DIVERGENCES.md).
fn initial_loop_time(ctx: &SlotContext<'_>, client_num: i32, time: i32, duration: i32) -> f32 {
    let per_client = ctx.constant(LOOP_PHASE_PER_CLIENT);
    let pc = ctx.precision;
    let remainder = if duration == 0 { 0 } else { time.wrapping_rem(duration) };
    match ctx.behaviour {
        Behaviour::Linux => {
            let phase = F80::from_i32(client_num)
                .mul(per_client, pc)
                .add(F80::from_i32(remainder).div(F80::from_i32(duration), pc), pc)
                .to_f32();
            let integer = x(phase).to_i32_trunc();
            x(phase).sub(F80::from_i32(integer), pc).to_f32()
        }
        Behaviour::Windows => {
            if X87_EXPRESSIONS {
                let phase = F80::from_i32(remainder)
                    .div(F80::from_i32(duration), pc)
                    .add(F80::from_i32(client_num).mul(per_client, pc), pc)
                    .to_f64();
                let integer = F80::from_f64(phase).to_i32_trunc();
                F80::from_f64(phase).sub(F80::from_i32(integer), pc).to_f32()
            } else {
                let phase = f64::from(remainder) / f64::from(duration) + f64::from(client_num) * f64::from(0.36f32);
                let integer = F80::from_f64(phase).to_i32_trunc();
                (phase - f64::from(integer)) as f32
            }
        }
    }
}

/// Whether the stance (crouch, then prone) differs between two animation
/// words; the two queries of each pair run in the original's order (Linux:
/// the new word first).
fn stance_changed(ctx: &SlotContext<'_>, old: u32, new: u32) -> Result<bool, Failure<'static>> {
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
pub fn verify_anim(ctx: &SlotContext<'_>, tree: *mut c_void, slot: &mut bg_anim_slot_t, engine: &mut impl SlotEngine) {
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
pub fn set_new_animation<'a>(
    ctx: &SlotContext<'a>,
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
                start_time = engine.anim_time(tree, old_anim);
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
            engine.set_time(tree, new_anim, start_time);
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

/// `VectorDistance(first, second)` (the unit's own).
///
/// Linux: the differences `second - first` stored to float, their squares
/// summed on the x87 and stored to a double, `sqrt` of it. Windows: the
/// differences `first - second`, squares summed z, y, x on the x87 and
/// `fsqrt` rounded to float.
fn vector_distance(behaviour: Behaviour, pc: Precision, first: &[f32; 3], second: &[f32; 3]) -> f32 {
    let square = |v: f32| x(v).mul(x(v), pc);
    match behaviour {
        Behaviour::Linux => {
            let d = [0, 1, 2].map(|i| x(second[i]).sub(x(first[i]), pc).to_f32());
            let sum = square(d[0]).add(square(d[1]), pc).add(square(d[2]), pc).to_f64();
            sqrt_f64(sum) as f32
        }
        Behaviour::Windows => {
            let d = [0, 1, 2].map(|i| sub_f32(expressions_x87(pc), first[i], second[i]));
            square(d[2]).add(square(d[1]), pc).add(square(d[0]), pc).sqrt(pc).to_f32()
        }
    }
}

/// `BG_RunLerpFrameRate(ci, slot, word, es)`: starts `word` when it is new,
/// then sets the animation rate from the entity's movement since the last
/// sample.
#[allow(clippy::too_many_arguments)]
pub fn run_lerp_frame_rate<'a>(
    ctx: &SlotContext<'a>,
    ci: &mut clientInfo_t,
    slot: &mut bg_anim_slot_t,
    is_legs: bool,
    word: u32,
    es: &entityState_t,
    engine: &mut impl SlotEngine,
) -> Result<(), Failure<'a>> {
    let entries = &ctx.table.entries;
    let vertical = ctx.entry(slot).is_some_and(|e| entries[e].flags & BG_ANIM_ENTRY_VERTICAL_MOTION != 0);
    let tree = ci.animTree;
    let tree_index = engine.anims_index(ctx.anims()) as u16;
    if word != slot.animationWord || (ctx.entry(slot).is_none() && word & !ANIM_TOGGLEBIT != 0) {
        set_new_animation(ctx, ci, slot, is_legs, word, (es.eFlags >> 10) & 1 != 0, engine)?;
    }
    if word & !ANIM_TOGGLEBIT == 0 {
        return Ok(());
    }
    // The C dereferences the slot's entry here; without one (a slot word
    // that is no entry) nothing more is done (docs/DIVERGENCES.md).
    let Some(current) = ctx.entry(slot) else { return Ok(()) };
    let entry = &entries[current];
    let copy_origin = |slot: &mut bg_anim_slot_t| {
        for i in 0..3 {
            slot.lastOrigin[i] = if ctx.quiet_origin_copy { x(es.trBase[i]).to_f32() } else { es.trBase[i] };
        }
    };
    let sample = engine.sample_time();
    if entry.moveSpeed == 0 || slot.lastUpdateTime == 0 {
        slot.animRate = 1.0;
        slot.lastUpdateTime = sample;
        copy_origin(slot);
    } else if sample != slot.lastUpdateTime {
        let distance = if vertical {
            sub_f32(expressions_x87(ctx.precision), slot.lastOrigin[2], es.trBase[2]).abs()
        } else {
            vector_distance(ctx.behaviour, ctx.precision, &slot.lastOrigin, &es.trBase)
        };
        let elapsed = sample.wrapping_sub(slot.lastUpdateTime);
        let (speed, rate) = if ctx.behaviour == Behaviour::Linux || X87_EXPRESSIONS {
            // `(double)0.001f` rounds the wide constant to binary64.
            let seconds = if ctx.wide_constants {
                F80::from_f64(ctx.constant(MILLISECONDS_TO_SECONDS).to_f64())
            } else {
                x(MILLISECONDS_TO_SECONDS.value)
            };
            let pc = ctx.precision;
            let speed = x(distance).div(F80::from_i32(elapsed).mul(seconds, pc), pc).to_f32();
            (speed, x(speed).div(F80::from_i32(entry.moveSpeed), pc).to_f32())
        } else {
            let speed = (f64::from(distance) / (f64::from(elapsed) * f64::from(0.001f32))) as f32;
            (speed, (f64::from(speed) / f64::from(entry.moveSpeed)) as f32)
        };
        slot.animRate = rate;
        slot.lastUpdateTime = sample;
        copy_origin(slot);
        if slot.animRate < 0.1 {
            // `animRate >= 0.01f`: against the wide constant with
            // `wide_constants` (0.01f itself is below it).
            let epsilon = ctx.constant(RATE_ZERO_EPSILON);
            let at_least = epsilon.lt(x(slot.animRate)) || epsilon.eq(x(slot.animRate));
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
                    let steps = entry.moveSpeed - 20;
                    let max_rate = if X87_EXPRESSIONS {
                        x(3.0).sub(F80::from_i32(steps).div(x(130.0), ctx.precision), ctx.precision).to_f32()
                    } else {
                        3.0 - steps as f32 / 130.0
                    };
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
        engine.set_anim_rate(tree, slot_xanim(tree_index, slot.animationWord), slot.animRate);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::boxed::Box;

    /// An empty table on the heap (too large for a test thread's stack).
    fn zeroed_table() -> Box<bg_static_animation_table_t> {
        // SAFETY: all-zero bytes are a valid table (plain data and a
        // pointer union).
        unsafe { Box::new_zeroed().assume_init() }
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    fn bits(v: [u32; 3]) -> [f32; 3] {
        v.map(f32::from_bits)
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[test]
    fn linux_lerp_offset_reads_the_rsqrt_result_as_an_integer() {
        // bg-rest lerpo_001: the step is Q_rsqrt's float bits times the
        // scale, as the C original's game unit computes it.
        let target = bits([0x3dcc_cccd, 0x0080_0000, 0x7fc0_0000]);
        let mut current = bits([0x33d6_bf95, 0x3f80_0001, 0x0da2_4260]);
        lerp_offset(Behaviour::Linux, LerpArithmetic::X87(Precision::Extended), &target, f32::from_bits(0xbf80_0000), &mut current);
        assert_eq!(current.map(f32::to_bits), [0xcd18_dbfc, 0x4ebf_1309, 0x7fc0_0000]);
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[test]
    fn lerp_angles_steps_and_quiets_a_copied_signalling_nan() {
        // bg-rest lerpa_001 (game): lane 1 copies its signalling-NaN target.
        let target = bits([0x7f80_0000, 0x7f80_0001, 0x3dcc_cccd]);
        let mut current = bits([0x4b00_0000, 0x33d6_bf95, 0x2edb_e6ff]);
        lerp_angles(Behaviour::Linux, LerpArithmetic::X87(Precision::Extended), &target, f32::from_bits(0x60ad_78ec), &mut current);
        assert_eq!(current.map(f32::to_bits), [0x60ad_78ec, 0x7fc0_0001, 0x3dcc_cccd]);
        let mut current = [180.0, 90.0, 0.0];
        lerp_angles(Behaviour::Windows, LerpArithmetic::Sse, &[360.0, -1.0, -180.0], 0.1, &mut current);
        assert_eq!(current.map(f32::to_bits), [0x4334_199a, 0x42b3_cccd, 0xbdcc_cccd]);
    }

    #[test]
    fn a_slot_entry_round_trips_except_entry_0_on_64_bit() {
        let table = zeroed_table();
        let ctx = SlotContext {
            table: &table,
            torso: scr_anim_t::default(),
            legs: scr_anim_t::default(),
            root: scr_anim_t::default(),
            behaviour: Behaviour::Linux,
            quiet_origin_copy: false,
            wide_constants: false,
            precision: Precision::Extended,
        };
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
        let mut ctx = SlotContext {
            table: &table,
            torso: scr_anim_t::default(),
            legs: scr_anim_t::default(),
            root: scr_anim_t::default(),
            behaviour: Behaviour::Linux,
            quiet_origin_copy: false,
            wide_constants: false,
            precision: Precision::Extended,
        };
        // client 3: 1.08 + 250/1000 = 1.33 -> 0.33
        let phase = initial_loop_time(&ctx, 3, 1250, 1000);
        assert!((phase - 0.33).abs() < 1e-6, "{phase}");
        ctx.behaviour = Behaviour::Windows;
        let phase = initial_loop_time(&ctx, 3, 1250, 1000);
        assert!((phase - 0.33).abs() < 1e-6, "{phase}");
        // a zero duration divides 0 by 0: NaN, converted to INT32_MIN
        assert!(initial_loop_time(&ctx, 0, 5, 0).is_nan());
    }
}
