//! Runtime of the player animation scripts: condition words, script
//! selection and playback (`bg_animation_conditions.c`,
//! `bg_animation_execution.c`, `bg_load_anim_for_index.c`).
//!
//! Everything here works on the `#[repr(C)]` mirrors by reference. The lists
//! of the table hold raw pointers into `globalItems`; the runtime reads them
//! only through a [`ScriptList`], which either resolves them into pool
//! indices ([`resolve_script`]) or, for engine memory whose contract the
//! boundary vouched for in an `unsafe` constructor, follows them as the
//! original does. Every index the original leaves unchecked is bounded
//! here; the defined results are listed in docs/DIVERGENCES.md ("Player
//! animation runtime").

pub mod engine;
pub mod frame;
pub mod state;

use crate::abi::bg::*;
use crate::error::{CText, Failure, Outcome};
use core::ffi::CStr;
use engine::RuntimeEngine;

pub use uoanim_core::conditions::{
    condition_mode, evaluate_conditions, get_condition_value, ClientInfos, ConditionFailure, CONDITION_BIT_COUNT, CONDITION_MODES,
};

// ---- script pointers ---------------------------------------------------------

pub use uoanim_core::finalize::resolve_script;

/// A table whose script lists the runtime reads, and how it follows their
/// slots: `RAW` false resolves every pointer into the table's pool (see
/// [`resolve_script`]); `RAW` true follows it as the original does, for a
/// table of engine memory.
#[derive(Clone, Copy)]
pub struct Scripts<'t, const RAW: bool> {
    table: &'t bg_static_animation_table_t,
}

impl<'t> Scripts<'t, false> {
    /// Checked access: only pointers at an element of `table`'s pool are
    /// followed.
    pub fn pool(table: &'t bg_static_animation_table_t) -> Self {
        Scripts { table }
    }
}

impl<'t> Scripts<'t, true> {
    /// The engine's table, whose list slots are followed as stored.
    ///
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): every non-NULL
    /// slot among the first `count` (at most `BG_ANIM_MAX_LIST_ITEMS`) of
    /// each script list of `table` points at a live `bg_anim_script_t` that
    /// is not written during `'t`.
    pub unsafe fn engine(table: &'t bg_static_animation_table_t) -> Self {
        Scripts { table }
    }
}

impl<'t, const RAW: bool> Scripts<'t, RAW> {
    /// The table.
    #[inline]
    pub fn table(self) -> &'t bg_static_animation_table_t {
        self.table
    }

    /// One of the table's own lists (never another: the constructors'
    /// contracts speak of these).
    #[inline]
    fn list(self, list: &'t bg_anim_script_list_t) -> ScriptList<'t, RAW> {
        ScriptList { list, pool: Some(self.table) }
    }
}

/// A script list, and how the runtime follows its slots (see [`Scripts`]).
#[derive(Clone, Copy)]
pub struct ScriptList<'t, const RAW: bool> {
    list: &'t bg_anim_script_list_t,
    /// The table whose pool the slots resolve into (`RAW` false).
    pool: Option<&'t bg_static_animation_table_t>,
}

impl<'t> ScriptList<'t, false> {
    /// Checked access: only pointers at an element of `table`'s pool are
    /// followed.
    pub fn pooled(table: &'t bg_static_animation_table_t, list: &'t bg_anim_script_list_t) -> Self {
        ScriptList { list, pool: Some(table) }
    }
}

impl<'t> ScriptList<'t, true> {
    /// A list of engine memory, whose slots are followed as stored.
    ///
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): every non-NULL
    /// slot among the first `count` (at most `BG_ANIM_MAX_LIST_ITEMS`) of
    /// `list` points at a live `bg_anim_script_t` that is not written during
    /// `'t`.
    pub unsafe fn engine(list: &'t bg_anim_script_list_t) -> Self {
        ScriptList { list, pool: None }
    }
}

impl<'t, const RAW: bool> ScriptList<'t, RAW> {
    /// The list.
    #[inline]
    pub fn list(self) -> &'t bg_anim_script_list_t {
        self.list
    }

    /// The script `slot` (below [`list_len`]) points at, `None` when it
    /// cannot be followed.
    #[inline]
    fn script(self, slot: usize) -> Option<&'t bg_anim_script_t> {
        let pointer = *self.list.scripts.get(slot)?;
        if RAW {
            // SAFETY: `slot` is below the list's `count`; the constructor's
            // contract (`ScriptList::engine`, or `Scripts::engine` for the
            // table's own lists) makes the pointer NULL or a live script.
            unsafe { pointer.as_ref() }
        } else {
            let table = self.pool?;
            table.globalItems.get(resolve_script(table, pointer)?)
        }
    }
}

/// Slots of a list the runtime looks at: `count`, bounded to the array.
fn list_len(list: &bg_anim_script_list_t) -> usize {
    usize::try_from(list.count).unwrap_or(0).min(BG_ANIM_MAX_LIST_ITEMS)
}

// ---- conditions ----------------------------------------------------------------

/// `BG_FirstValidItem`: the slot (in `list`) and the script of the first
/// script whose conditions hold for `bgs.clientinfo[client_num]`.
///
/// `count <= 0` gives `None` before the client number is checked; a client
/// number outside 0..64 is an error (a guard of the reconstruction). Slots
/// that cannot be followed never match.
pub fn first_valid_item<'t, const RAW: bool>(
    clients: &ClientInfos,
    client_num: i32,
    scripts: ScriptList<'t, RAW>,
) -> Outcome<Option<(usize, &'t bg_anim_script_t)>> {
    let list = scripts.list;
    if list.count <= 0 {
        return Ok(None);
    }
    let Some(client) = usize::try_from(client_num).ok().and_then(|c| clients.get(c)) else {
        return Err(Failure::FirstValidClient { client: client_num });
    };
    for slot in 0..list_len(list) {
        if let Some(script) = scripts.script(slot) {
            if evaluate_conditions(&client.conditionWords, script) {
                return Ok(Some((slot, script)));
            }
        }
    }
    Ok(None)
}

/// `BG_UpdateConditionValue` ([`uoanim_core::conditions::update_condition_value`]),
/// its failures the engine's.
#[inline]
pub fn update_condition_value(
    clients: &mut ClientInfos,
    client_num: i32,
    condition_type: i32,
    value: i32,
    check_conversion: bool,
) -> Outcome<()> {
    uoanim_core::conditions::update_condition_value(clients, client_num, condition_type, value, check_conversion).map_err(|f| match f {
        ConditionFailure::Client { client } => Failure::UpdateClient { client },
        ConditionFailure::Value { value } => Failure::UpdateValue { value },
    })
}

// ---- playback --------------------------------------------------------------------

pub use uoanim_core::playback::{anim_script_animation, event_list, is_dead, play_anim, RESTART_MIN_TIMER_MS, TIMER_PAD_MS};

/// `BG_ExecuteCommand`: picks the movement script for (state, move type) and
/// runs one of its commands without setting timers.
///
/// * -1 when dead (`pmType >= 6`);
/// * from `state_index` down to 0, the first non-empty list with a valid
///   script (empty or non-matching lists fall back to the next lower state);
/// * none found, or no commands: -1;
/// * Quirk: the MOVETYPE condition is updated only **after** the selection,
///   so the selection saw the previous move type;
/// * Quirk: the command is `commands[clientNum % commandCount]`, no random
///   draw;
/// * Quirk: returns 1 when the command reported the legs started, else 0
///   (not the duration).
///
/// States above 3 and move types outside 0..17 address no list here (they
/// count as empty), so the search starts at state 3 at most.
#[allow(clippy::too_many_arguments)]
pub fn execute_command<const RAW: bool, E: RuntimeEngine>(
    scripts: Scripts<'_, RAW>,
    clients: &mut ClientInfos,
    player: &mut playerState_t,
    state_index: i32,
    anim_group: i32,
    restart_same: bool,
    engine: &mut E,
) -> Outcome<i32> {
    let table = scripts.table;
    let client_num = player.psClientNum;
    if is_dead(player) {
        return Ok(-1);
    }
    // A move type outside 0..17 addresses no list in any state.
    let Ok(move_type) = usize::try_from(anim_group) else {
        return Ok(-1);
    };
    // The rows of the states from `state_index` (at most 3) down to 0.
    let top = usize::try_from(state_index.min(ANIM_STATE_COUNT as i32 - 1)).map_or(0, |top| top + 1);
    let mut found = None;
    for row in table.animations[..top].iter().rev() {
        let Some(list) = row.get(move_type) else {
            return Ok(-1);
        };
        if list.count != 0 {
            if let Some((_, script)) = first_valid_item(clients, client_num, scripts.list(list))? {
                found = Some(script);
                break;
            }
        }
    }
    let Some(script) = found else {
        return Ok(-1);
    };
    if script.commandCount == 0 {
        return Ok(-1);
    }
    update_condition_value(clients, client_num, ANIM_COND_MOVETYPE, anim_group, true)?;
    let Some(command) = usize::try_from(client_num.wrapping_rem(script.commandCount))
        .ok()
        .and_then(|i| script.commands.get(i))
    else {
        return Ok(-1);
    };
    let result = anim_script_animation(&table.entries, command, player, false, restart_same, false, engine);
    Ok(i32::from(result != -1))
}

/// Selects a script of `list` and draws one of its commands at random:
/// the chosen command, or `None` (no valid script, no commands, or a drawn
/// index outside the commands).
fn draw_command<'t, const RAW: bool, E: RuntimeEngine>(
    clients: &ClientInfos,
    client_num: i32,
    list: ScriptList<'t, RAW>,
    engine: &mut E,
) -> Outcome<Option<&'t bg_anim_script_command_t>> {
    if list.list.count == 0 {
        return Ok(None);
    }
    let Some((_, script)) = first_valid_item(clients, client_num, list)? else {
        return Ok(None);
    };
    if script.commandCount == 0 {
        return Ok(None);
    }
    let drawn = engine.rand_range(0, script.commandCount);
    Ok(usize::try_from(drawn).ok().and_then(|i| script.commands.get(i)))
}

/// `BG_AnimScriptStateChange`: plays a random command of the first valid
/// script of `statechanges[to][from]`, with timers, no restart-same, not
/// forced. -1 when dead, when nothing applies, or for states outside 0..3.
pub fn anim_script_state_change<const RAW: bool, E: RuntimeEngine>(
    scripts: Scripts<'_, RAW>,
    clients: &ClientInfos,
    player: &mut playerState_t,
    from_state: i32,
    to_state: i32,
    engine: &mut E,
) -> Outcome<i32> {
    let table = scripts.table;
    if is_dead(player) {
        return Ok(-1);
    }
    // Quirk: the table is indexed [to][from].
    let list = usize::try_from(to_state)
        .ok()
        .and_then(|to| table.statechanges.get(to))
        .and_then(|row| usize::try_from(from_state).ok().and_then(|from| row.get(from)));
    let Some(list) = list else {
        return Ok(-1);
    };
    match draw_command(clients, player.psClientNum, scripts.list(list), engine)? {
        Some(command) => Ok(anim_script_animation(&table.entries, command, player, true, false, false, engine)),
        None => Ok(-1),
    }
}

/// `BG_AnimScriptEvent`: plays a random command of the first valid script
/// of the event's list, with timers. Quirk: DEATH is the only event that
/// still plays for a dead player. -1 when nothing applies or for events
/// outside 0..15.
#[allow(clippy::too_many_arguments)]
pub fn anim_script_event<const RAW: bool, E: RuntimeEngine>(
    scripts: Scripts<'_, RAW>,
    clients: &ClientInfos,
    player: &mut playerState_t,
    event: i32,
    restart_same: bool,
    force: bool,
    engine: &mut E,
) -> Outcome<i32> {
    let table = scripts.table;
    if event != ANIM_EVENT_DEATH && is_dead(player) {
        return Ok(-1);
    }
    let Some(list) = event_list(table, event) else {
        return Ok(-1);
    };
    match draw_command(clients, player.psClientNum, scripts.list(list), engine)? {
        Some(command) => Ok(anim_script_animation(&table.entries, command, player, true, restart_same, force, engine)),
        None => Ok(-1),
    }
}

/// `BG_GetAnimScriptEvent`: like [`anim_script_event`] (same gates, same
/// random draw) but only returns `animIndex[0]` of the drawn command.
pub fn get_anim_script_event<const RAW: bool, E: RuntimeEngine>(
    scripts: Scripts<'_, RAW>,
    clients: &ClientInfos,
    player: &playerState_t,
    event: i32,
    engine: &mut E,
) -> Outcome<i32> {
    let table = scripts.table;
    if event != ANIM_EVENT_DEATH && is_dead(player) {
        return Ok(-1);
    }
    let Some(list) = event_list(table, event) else {
        return Ok(-1);
    };
    Ok(draw_command(clients, player.psClientNum, scripts.list(list), engine)?.map_or(-1, |c| i32::from(c.animIndex[0])))
}

// ---- lookups ---------------------------------------------------------------------

/// The entry index for `BG_GetAnimString` / `BG_GetAnimationForIndex`:
/// `Some` when below `entryCount` (unsigned compare) and inside `entries`.
pub fn checked_entry_index(table: &bg_static_animation_table_t, index: u32) -> Option<usize> {
    (index < table.entryCount as u32 && (index as usize) < BG_ANIM_MAX_ANIMATIONS).then_some(index as usize)
}

/// `BG_GetAnimationForIndex` range error.
pub fn get_animation_for_index_error() -> Failure<'static> {
    Failure::AnimationForIndex
}

/// `Player animation index %i out of 0 to %i range` (finalize and
/// `BG_LoadAnimForAnimIndex`); the index prints as a signed int.
pub fn anim_index_error(index: u32, entry_count: i32) -> Failure<'static> {
    Failure::AnimIndexRange { index: index as i32, count: entry_count }
}

/// `BG_LoadAnimForAnimIndex`: the first registration whose node index is
/// `index`. Error when `index >= entryCount` (unsigned compare).
pub fn load_anim_for_anim_index(entry_count: i32, runtime: &[bg_runtime_animation_t], index: u32) -> Outcome<Option<usize>> {
    if index >= entry_count as u32 {
        return Err(anim_index_error(index, entry_count));
    }
    Ok(runtime.iter().position(|r| u32::from(r.anim.animIndex) == index))
}

/// `Could not find animation tree '%s'` (`BG_FindAnimTree` with the error
/// flag; `(null)` without a name).
pub fn find_anim_tree_error(name: Option<&CStr>) -> Failure<'_> {
    Failure::NoAnimTree { name: name.map(CText::new) }
}

#[cfg(test)]
mod tests;
