//! The player-animation runtime's selection (`bg_animation_execution.c`):
//! the first script of a list whose conditions hold for a client
//! (`BG_FirstValidItem`), and the entry points that pick a list and run one
//! of its commands: a movement (`BG_ExecuteCommand`), a state change
//! (`BG_AnimScriptStateChange`) and an event (`BG_AnimScriptEvent`,
//! `BG_GetAnimScriptEvent`).
//!
//! A table's lists hold raw pointers into its pool of scripts. How they
//! are followed is the caller's, through [`Lists`] and [`Slots`]: [`Pool`]
//! resolves each pointer into the table's pool by its address (a pointer
//! elsewhere matches nothing); the units follow the engine's pointers as
//! the original does, behind their own constructors.

use crate::abi::bg::*;
use crate::abi::player::playerState_t;
use crate::conditions::{evaluate_conditions, update_condition_value, ClientInfos, ConditionFailure};
use crate::finalize::resolve_script;
use crate::playback::{anim_script_animation, event_list, is_dead, RuntimeEngine};

/// One script list, and how its slots are followed.
pub trait Slots<'t>: Copy {
    /// The scripts of the list's slots.
    type Scripts: Iterator<Item = Option<&'t bg_anim_script_t>>;
    /// The list.
    fn list(self) -> &'t bg_anim_script_list_t;
    /// The scripts the list's first `count` slots (at most the array's
    /// [`BG_ANIM_MAX_LIST_ITEMS`]) point at, in order; `None` for a slot
    /// that cannot be followed (NULL, outside what the list's owner vouches
    /// for).
    fn scripts(self) -> Self::Scripts;
}

/// A table whose script lists the runtime reads, and how it follows them.
pub trait Lists<'t>: Copy {
    /// One of its lists.
    type Slots: Slots<'t>;
    /// The table.
    fn table(self) -> &'t bg_static_animation_table_t;
    /// One of the table's own lists.
    fn slots(self, list: TableList<'t>) -> Self::Slots;
}

/// One of the lists of the table a [`Lists`] reads, as the selection hands
/// it to [`Lists::slots`]: made only by this module's functions, from the
/// fields of that [`Lists::table`], and never handed out otherwise, so an
/// implementation may rely on it being one of its table's lists.
#[derive(Clone, Copy)]
pub struct TableList<'t> {
    list: &'t bg_anim_script_list_t,
}

impl<'t> TableList<'t> {
    /// The list.
    #[inline]
    pub fn get(self) -> &'t bg_anim_script_list_t {
        self.list
    }
}

/// A table whose list slots are resolved into its own pool by address.
#[derive(Clone, Copy)]
pub struct Pool<'t> {
    table: &'t bg_static_animation_table_t,
}

impl<'t> Pool<'t> {
    /// The table's lists, resolved into its pool.
    pub fn new(table: &'t bg_static_animation_table_t) -> Self {
        Pool { table }
    }
}

/// A list whose slots are resolved into a table's pool by address (any
/// list: a copy of one of the table's, or one of the caller's).
#[derive(Clone, Copy)]
pub struct PoolSlots<'t> {
    table: &'t bg_static_animation_table_t,
    list: &'t bg_anim_script_list_t,
}

impl<'t> PoolSlots<'t> {
    /// `list`, its slots resolved into `table`'s pool.
    pub fn new(table: &'t bg_static_animation_table_t, list: &'t bg_anim_script_list_t) -> Self {
        PoolSlots { table, list }
    }
}

impl<'t> Lists<'t> for Pool<'t> {
    type Slots = PoolSlots<'t>;
    #[inline]
    fn table(self) -> &'t bg_static_animation_table_t {
        self.table
    }
    #[inline]
    fn slots(self, list: TableList<'t>) -> PoolSlots<'t> {
        PoolSlots { table: self.table, list: list.list }
    }
}

impl<'t> Slots<'t> for PoolSlots<'t> {
    type Scripts = PoolScripts<'t>;
    #[inline]
    fn list(self) -> &'t bg_anim_script_list_t {
        self.list
    }
    #[inline]
    fn scripts(self) -> PoolScripts<'t> {
        PoolScripts { table: self.table, pointers: self.list.scripts[..list_len(self.list)].iter() }
    }
}

/// The scripts of a [`PoolSlots`]' slots, resolved into the pool.
#[derive(Clone)]
pub struct PoolScripts<'t> {
    table: &'t bg_static_animation_table_t,
    pointers: core::slice::Iter<'t, *mut bg_anim_script_t>,
}

impl<'t> Iterator for PoolScripts<'t> {
    type Item = Option<&'t bg_anim_script_t>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let pointer = *self.pointers.next()?;
        Some(resolve_script(self.table, pointer).and_then(|i| self.table.globalItems.get(i)))
    }
}

/// Slots of a list the runtime looks at: `count`, bounded to the array.
#[inline]
pub fn list_len(list: &bg_anim_script_list_t) -> usize {
    usize::try_from(list.count).unwrap_or(0).min(BG_ANIM_MAX_LIST_ITEMS)
}

/// Why a selection stopped (guards of the reconstruction; the engine's
/// texts are the units').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectFailure {
    /// `BG_FirstValidItem` for a client number outside `0..64`.
    FirstValidClient {
        /// The number asked for.
        client: i32,
    },
    /// The move type's condition row could not be written.
    Condition(ConditionFailure),
}

/// `BG_FirstValidItem`: the slot (in `list`) and the script of the first
/// script whose conditions hold for `bgs.clientinfo[client_num]`.
///
/// `count <= 0` gives `None` before the client number is checked; a client
/// number outside 0..64 is an error (a guard of the reconstruction). Slots
/// that cannot be followed never match.
pub fn first_valid_item<'t, L: Slots<'t>>(
    clients: &ClientInfos,
    client_num: i32,
    scripts: L,
) -> Result<Option<(usize, &'t bg_anim_script_t)>, SelectFailure> {
    let list = scripts.list();
    if list.count <= 0 {
        return Ok(None);
    }
    let Some(client) = usize::try_from(client_num).ok().and_then(|c| clients.get(c)) else {
        return Err(SelectFailure::FirstValidClient { client: client_num });
    };
    for (slot, script) in scripts.scripts().enumerate() {
        if let Some(script) = script {
            if evaluate_conditions(&client.conditionWords, script) {
                return Ok(Some((slot, script)));
            }
        }
    }
    Ok(None)
}

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
pub fn execute_command<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &mut ClientInfos,
    player: &mut playerState_t,
    state_index: i32,
    anim_group: i32,
    restart_same: bool,
    engine: &mut E,
) -> Result<i32, SelectFailure> {
    let table = scripts.table();
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
            if let Some((_, script)) = first_valid_item(clients, client_num, scripts.slots(TableList { list }))? {
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
    update_condition_value(clients, client_num, ANIM_COND_MOVETYPE, anim_group, true).map_err(SelectFailure::Condition)?;
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
fn draw_command<'t, L: Slots<'t>, E: RuntimeEngine>(
    clients: &ClientInfos,
    client_num: i32,
    list: L,
    engine: &mut E,
) -> Result<Option<&'t bg_anim_script_command_t>, SelectFailure> {
    if list.list().count == 0 {
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
pub fn anim_script_state_change<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &ClientInfos,
    player: &mut playerState_t,
    from_state: i32,
    to_state: i32,
    engine: &mut E,
) -> Result<i32, SelectFailure> {
    let table = scripts.table();
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
    match draw_command(clients, player.psClientNum, scripts.slots(TableList { list }), engine)? {
        Some(command) => Ok(anim_script_animation(&table.entries, command, player, true, false, false, engine)),
        None => Ok(-1),
    }
}

/// `BG_AnimScriptEvent`: plays a random command of the first valid script
/// of the event's list, with timers. Quirk: DEATH is the only event that
/// still plays for a dead player. -1 when nothing applies or for events
/// outside 0..15.
#[allow(clippy::too_many_arguments)]
pub fn anim_script_event<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &ClientInfos,
    player: &mut playerState_t,
    event: i32,
    restart_same: bool,
    force: bool,
    engine: &mut E,
) -> Result<i32, SelectFailure> {
    let table = scripts.table();
    if event != ANIM_EVENT_DEATH && is_dead(player) {
        return Ok(-1);
    }
    let Some(list) = event_list(table, event) else {
        return Ok(-1);
    };
    match draw_command(clients, player.psClientNum, scripts.slots(TableList { list }), engine)? {
        Some(command) => Ok(anim_script_animation(&table.entries, command, player, true, restart_same, force, engine)),
        None => Ok(-1),
    }
}

/// `BG_GetAnimScriptEvent`: like [`anim_script_event`] (same gates, same
/// random draw) but only returns `animIndex[0]` of the drawn command.
pub fn get_anim_script_event<'t, S: Lists<'t>, E: RuntimeEngine>(
    scripts: S,
    clients: &ClientInfos,
    player: &playerState_t,
    event: i32,
    engine: &mut E,
) -> Result<i32, SelectFailure> {
    let table = scripts.table();
    if event != ANIM_EVENT_DEATH && is_dead(player) {
        return Ok(-1);
    }
    let Some(list) = event_list(table, event) else {
        return Ok(-1);
    };
    Ok(draw_command(clients, player.psClientNum, scripts.slots(TableList { list }), engine)?.map_or(-1, |c| i32::from(c.animIndex[0])))
}

