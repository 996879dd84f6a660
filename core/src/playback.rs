//! The player-animation runtime's playback (`bg_animation_execution.c`):
//! starting an entry on the legs, the torso or both
//! (`BG_PlayAnim`), running one command of a script
//! (`BG_AnimScriptAnimation`), the dead gate and an event's list, over the
//! engine's records in their C layout. What the runtime needs of the
//! engine (its random range, the sound event) is [`RuntimeEngine`].
//!
//! ```
//! use uoanim_core::abi::bg::{bg_static_animation_t, ANIM_BP_BOTH, ANIM_BP_LEGS, ANIM_TOGGLEBIT};
//! use uoanim_core::abi::player::playerState_t;
//! use uoanim_core::playback::{play_anim, TIMER_PAD_MS};
//!
//! let mut entries = [bg_static_animation_t::ZERO; 3];
//! entries[2].duration = 1000;
//! let mut player = Box::new(playerState_t::ZERO);
//! // entry 2 on the legs: the toggle bit flips, the timer is its duration + 50
//! let started = play_anim(&entries, &mut player, 2, ANIM_BP_LEGS as u32, 0, true, false, false);
//! assert_eq!(started, 1000 + TIMER_PAD_MS);
//! assert_eq!((player.legsAnim as u32, player.legsTimer), (2 | ANIM_TOGGLEBIT, 1050));
//! // Quirk: BOTH gives the torso entry 0, not the entry asked for
//! player.legsTimer = 0;
//! play_anim(&entries, &mut player, 2, ANIM_BP_BOTH as u32, 0, true, false, false);
//! assert_eq!(player.torsoAnim as u32 & !ANIM_TOGGLEBIT, 0);
//! ```

use crate::abi::bg::*;
use crate::abi::player::playerState_t;
use core::ffi::c_char;

/// Engine services used while selecting and playing animations.
pub trait RuntimeEngine {
    /// The platform random range (`coduo_glibc_randrange` in the game,
    /// `coduo_crt_randrange` in cgame): always called as `(0, commandCount)`.
    fn rand_range(&mut self, minimum: i32, maximum: i32) -> i32;
    /// `bgs.soundEventCallback(clientNum, alias)`, reached through the table
    /// pointer cast to `bgs_t` as the original does (the runtime calls it
    /// only while a table is published). `alias` is non-NULL.
    fn sound_event(&mut self, client_num: i32, alias: *const c_char);
}

/// Timer padding added to every command duration (ms).
pub const TIMER_PAD_MS: i32 = 50;
/// A body part restarts only when its timer is below this (or when forced).
pub const RESTART_MIN_TIMER_MS: i32 = 50;

/// Duration and LOOPED flag of an entry; an index past `entries` reads as
/// duration 0, not looped.
#[inline]
fn entry_duration_looped(entries: &[bg_static_animation_t], index: u32) -> (i32, bool) {
    entries
        .get(index as usize)
        .map_or((0, false), |e| (e.duration, e.flags & BG_ANIM_ENTRY_LOOPED != 0))
}

/// Starts or refreshes one body part (legs or torso fields).
///
/// Returns true when the animation was (re)started.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn play_part(
    timer: &mut i32,
    anim: &mut i32,
    index: u32,
    duration: i32,
    looped: bool,
    set_timer: bool,
    restart_same: bool,
    force: bool,
) -> bool {
    if *timer >= RESTART_MIN_TIMER_MS && !force {
        return false;
    }
    let current = *anim as u32;
    if !restart_same || (current & !ANIM_TOGGLEBIT) != index {
        *anim = (((current & ANIM_TOGGLEBIT) ^ ANIM_TOGGLEBIT) | index) as i32;
        if set_timer {
            *timer = duration;
        }
        true
    } else {
        if set_timer && looped {
            *timer = duration;
        }
        false
    }
}

/// `BG_PlayAnim`: plays entry `index` on the legs, the torso or both.
///
/// A zero `duration` means the entry's duration + 50 (wrapping). Returns the
/// duration when the legs (re)started, else -1.
///
/// Quirk: for BOTH, the torso is given animation **0**, not `index` (and the
/// LOOPED test of the torso reads entry 0). Body part values other than
/// LEGS/TORSO/BOTH do nothing.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn play_anim(
    entries: &[bg_static_animation_t],
    player: &mut playerState_t,
    index: u32,
    body_part: u32,
    mut duration: i32,
    set_timer: bool,
    restart_same: bool,
    force: bool,
) -> i32 {
    if duration == 0 {
        duration = entry_duration_looped(entries, index).0.wrapping_add(TIMER_PAD_MS);
    }
    let legs = ANIM_BP_LEGS as u32;
    let torso = ANIM_BP_TORSO as u32;
    let both = ANIM_BP_BOTH as u32;
    let mut legs_started = false;
    let mut index = index;
    if body_part == legs || body_part == both {
        let looped = entry_duration_looped(entries, index).1;
        legs_started = play_part(
            &mut player.legsTimer,
            &mut player.legsAnim,
            index,
            duration,
            looped,
            set_timer,
            restart_same,
            force,
        );
        if body_part == both {
            index = 0;
        }
    }
    if body_part == torso || body_part == both {
        let looped = entry_duration_looped(entries, index).1;
        play_part(
            &mut player.torsoTimer,
            &mut player.torsoAnim,
            index,
            duration,
            looped,
            set_timer,
            restart_same,
            force,
        );
    }
    if legs_started {
        duration
    } else {
        -1
    }
}

/// `BG_AnimScriptAnimation`: runs one command (up to two slots, then its
/// sound through the sound event callback).
///
/// Quirks: the second slot's duration is also taken from `duration[0]`, and
/// whether the legs started is decided by `bodyPart[0]` for both slots (so
/// `legs A torso B` reports "not started": the torso result overwrites the
/// legs result). Returns the last computed duration (+50) when the legs
/// started, else -1.
pub fn anim_script_animation<E: RuntimeEngine>(
    entries: &[bg_static_animation_t],
    command: &bg_anim_script_command_t,
    player: &mut playerState_t,
    set_timer: bool,
    restart_same: bool,
    force: bool,
    engine: &mut E,
) -> i32 {
    let command = *command;
    let first = i32::from(command.bodyPart[0]);
    let second = i32::from(command.bodyPart[1]);
    // Quirk: bodyPart[0] decides "legs started" for both slots.
    let first_is_legs = first == ANIM_BP_LEGS || first == ANIM_BP_BOTH;
    // Quirk: duration[0] (+50) for both slots.
    let duration = i32::from(command.duration[0]) + TIMER_PAD_MS;
    let mut legs_started = false;
    // The two slots, written out: a loop over them costs about 10 Ir per
    // event in the hot path (measured with the perf driver).
    if first != ANIM_BP_UNUSED {
        let result = play_anim(
            entries,
            player,
            i32::from(command.animIndex[0]) as u32,
            first as u32,
            duration,
            set_timer,
            restart_same,
            force,
        );
        if first_is_legs {
            legs_started = result >= 0;
        }
    }
    if second != ANIM_BP_UNUSED {
        let result = play_anim(
            entries,
            player,
            i32::from(command.animIndex[1]) as u32,
            second as u32,
            duration,
            set_timer,
            restart_same,
            force,
        );
        if first_is_legs {
            legs_started = result >= 0;
        }
    }
    if !command.soundAliasName.is_null() {
        engine.sound_event(player.psClientNum, command.soundAliasName);
    }
    // "Legs started" implies a slot ran, so the duration was computed.
    if legs_started {
        duration
    } else {
        -1
    }
}

/// The dead gate: `pmType >= PM_DEAD`.
///
/// Quirk: `pmType` is an enum with no negative member, which gcc makes
/// unsigned, so the comparison is unsigned: a negative pmType counts as dead.
#[inline]
pub fn is_dead(player: &playerState_t) -> bool {
    player.pmType as u32 >= PM_DEAD as u32
}

/// The list of an event: 0..9 in `events`, 10..15 in `scriptLists`.
#[inline]
pub fn event_list(table: &bg_static_animation_table_t, event: i32) -> Option<&bg_anim_script_list_t> {
    let event = usize::try_from(event).ok()?;
    if event < ANIM_EVENT_RELOAD {
        table.events.get(event)
    } else {
        table.scriptLists.get(event - ANIM_EVENT_RELOAD)
    }
}

