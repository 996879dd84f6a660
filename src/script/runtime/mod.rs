//! Runtime of the player animation scripts over the engine's memory: the
//! core's conditions, playback and selection (`uoanim_core::conditions`,
//! `::playback`, `::selection`) with their failures turned into the
//! engine's, the lookups of `bg_load_anim_for_index.c`, the per-frame
//! functions (`frame`) and the module's published state (`state`).
//!
//! The lists of the table hold raw pointers into `globalItems`; the runtime
//! reads them only through a [`ScriptList`], which either resolves them into
//! pool indices ([`resolve_script`]) or, for engine memory whose contract
//! the boundary vouched for in an `unsafe` constructor, follows them as the
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

pub use uoanim_core::selection::{self, list_len, Lists, SelectFailure, Slots, TableList};
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

impl<'t> Lists<'t> for Scripts<'t, false> {
    type Slots = ScriptList<'t, false>;
    #[inline]
    fn table(self) -> &'t bg_static_animation_table_t {
        self.table
    }
    #[inline]
    fn slots(self, list: TableList<'t>) -> ScriptList<'t, false> {
        ScriptList { list: list.get(), pool: Some(self.table) }
    }
}

impl<'t> Lists<'t> for Scripts<'t, true> {
    type Slots = ScriptList<'t, true>;
    #[inline]
    fn table(self) -> &'t bg_static_animation_table_t {
        self.table
    }
    /// One of the table's own lists, which the constructor's contract
    /// covers: a [`TableList`] is made only by the core's selection, from
    /// this table's fields.
    #[inline]
    fn slots(self, list: TableList<'t>) -> ScriptList<'t, true> {
        ScriptList { list: list.get(), pool: None }
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
}

impl<'t, const RAW: bool> Slots<'t> for ScriptList<'t, RAW> {
    type Scripts = SlotScripts<'t, RAW>;
    #[inline]
    fn list(self) -> &'t bg_anim_script_list_t {
        self.list
    }
    #[inline]
    fn scripts(self) -> SlotScripts<'t, RAW> {
        SlotScripts { pointers: self.list.scripts[..list_len(self.list)].iter(), pool: self.pool }
    }
}

/// The scripts of a [`ScriptList`]'s first `count` slots: NULL, or, pooled,
/// a pointer outside the pool, is `None`.
#[derive(Clone)]
pub struct SlotScripts<'t, const RAW: bool> {
    pointers: core::slice::Iter<'t, *mut bg_anim_script_t>,
    pool: Option<&'t bg_static_animation_table_t>,
}

impl<'t, const RAW: bool> Iterator for SlotScripts<'t, RAW> {
    type Item = Option<&'t bg_anim_script_t>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let pointer = *self.pointers.next()?;
        Some(if RAW {
            // SAFETY: the pointer is one of the list's first `count` slots;
            // the constructor's contract (`ScriptList::engine`, or
            // `Scripts::engine` for the table's own lists, the only ones a
            // `TableList` can be) makes it NULL or a live script.
            unsafe { pointer.as_ref() }
        } else {
            self.pool.and_then(|table| table.globalItems.get(resolve_script(table, pointer)?))
        })
    }
}

// ---- conditions ----------------------------------------------------------------

/// `BG_FirstValidItem` ([`uoanim_core::selection::first_valid_item`]),
/// its failures the engine's.
#[inline]
pub fn first_valid_item<'t, const RAW: bool>(
    clients: &ClientInfos,
    client_num: i32,
    scripts: ScriptList<'t, RAW>,
) -> Outcome<Option<(usize, &'t bg_anim_script_t)>> {
    selection::first_valid_item(clients, client_num, scripts).map_err(select_failure)
}

/// A selection's failure as the engine's.
#[cold]
fn select_failure(failure: SelectFailure) -> Failure<'static> {
    match failure {
        SelectFailure::FirstValidClient { client } => Failure::FirstValidClient { client },
        SelectFailure::Condition(condition) => condition_failure(condition),
    }
}

/// A condition row's failure as the engine's.
#[cold]
fn condition_failure(failure: ConditionFailure) -> Failure<'static> {
    match failure {
        ConditionFailure::Client { client } => Failure::UpdateClient { client },
        ConditionFailure::Value { value } => Failure::UpdateValue { value },
    }
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
    uoanim_core::conditions::update_condition_value(clients, client_num, condition_type, value, check_conversion).map_err(condition_failure)
}

// ---- playback --------------------------------------------------------------------

pub use uoanim_core::playback::{anim_script_animation, event_list, is_dead, play_anim, RESTART_MIN_TIMER_MS, TIMER_PAD_MS};

/// `BG_ExecuteCommand` ([`uoanim_core::selection::execute_command`]), its
/// failures the engine's.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn execute_command<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &mut ClientInfos,
    player: &mut playerState_t,
    state_index: i32,
    anim_group: i32,
    restart_same: bool,
    engine: &mut E,
) -> Outcome<i32> {
    selection::execute_command(scripts, clients, player, state_index, anim_group, restart_same, engine).map_err(select_failure)
}

/// `BG_AnimScriptStateChange` ([`uoanim_core::selection::anim_script_state_change`]),
/// its failures the engine's.
#[inline]
pub fn anim_script_state_change<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &ClientInfos,
    player: &mut playerState_t,
    from_state: i32,
    to_state: i32,
    engine: &mut E,
) -> Outcome<i32> {
    selection::anim_script_state_change(scripts, clients, player, from_state, to_state, engine).map_err(select_failure)
}

/// `BG_AnimScriptEvent` ([`uoanim_core::selection::anim_script_event`]),
/// its failures the engine's.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn anim_script_event<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &ClientInfos,
    player: &mut playerState_t,
    event: i32,
    restart_same: bool,
    force: bool,
    engine: &mut E,
) -> Outcome<i32> {
    selection::anim_script_event(scripts, clients, player, event, restart_same, force, engine).map_err(select_failure)
}

/// `BG_GetAnimScriptEvent` ([`uoanim_core::selection::get_anim_script_event`]),
/// its failures the engine's.
#[inline]
pub fn get_anim_script_event<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &ClientInfos,
    player: &playerState_t,
    event: i32,
    engine: &mut E,
) -> Outcome<i32> {
    selection::get_anim_script_event(scripts, clients, player, event, engine).map_err(select_failure)
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
