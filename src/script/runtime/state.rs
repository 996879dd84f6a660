//! The engine's memory as the runtime's exports reach it, and the exports'
//! bodies over it: the published table (`bgAnimStaticTable`, read when the
//! view is made), the client rows (`bgs.clientinfo`) and, for the tree
//! lookups, the game's `bgs` itself.

use super::engine::{FindTreeEngine, RuntimeEngine};
use super::*;
use crate::abi::common::XAnim;
use crate::error::Failure;
use core::ffi::CStr;
use core::marker::PhantomData;
use core::ptr;

/// The published table and the client rows of one runtime export.
pub struct State<'a> {
    table: *mut bg_static_animation_table_t,
    clients: *mut ClientInfos,
    _memory: PhantomData<&'a mut ClientInfos>,
}

impl<'a> State<'a> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `table` is NULL
    /// or a live table whose lists' non-NULL slots (up to their counts)
    /// point at live scripts, `clients` the engine's client rows, outside
    /// the table; all valid, and written through nothing else (the engine's
    /// calls excepted), for `'a`.
    #[inline(always)]
    pub const unsafe fn engine(table: *mut bg_static_animation_table_t, clients: *mut ClientInfos) -> Self {
        State { table, clients, _memory: PhantomData }
    }

    /// The table and the rows, `None` without a table.
    #[inline(always)]
    fn parts(self) -> Option<(Scripts<'a, true>, &'a ClientInfos)> {
        // SAFETY: the constructor's contract: a live table, whose lists the
        // runtime may follow as stored, and the rows, disjoint from it.
        unsafe { Some((Scripts::engine(self.table.as_ref()?), &*self.clients)) }
    }

    /// The table and the rows for writing, `None` without a table.
    #[inline(always)]
    fn parts_mut(self) -> Option<(Scripts<'a, true>, &'a mut ClientInfos)> {
        // SAFETY: as `parts`.
        unsafe { Some((Scripts::engine(self.table.as_ref()?), &mut *self.clients)) }
    }

    /// The table's entries, empty without a table.
    #[inline(always)]
    fn entries(&self) -> &'a [bg_static_animation_t] {
        // SAFETY: the constructor's contract.
        unsafe { self.table.as_ref() }.map_or(&[], |t| &t.entries[..])
    }

    /// `BG_FirstValidItem` over the caller's list: the script pointer of the
    /// first slot whose conditions hold, NULL when none does.
    #[inline(always)]
    pub fn first_valid_item(self, client_num: i32, list: ScriptList<'_, true>) -> Outcome<*mut bg_anim_script_t> {
        // SAFETY: the constructor's contract.
        let clients = unsafe { &*self.clients };
        let found = first_valid_item(clients, client_num, list)?;
        Ok(found.and_then(|(slot, _)| list.list().scripts.get(slot).copied()).unwrap_or(ptr::null_mut()))
    }

    /// `BG_UpdateConditionValue`.
    #[inline(always)]
    pub fn update_condition_value(self, client_num: i32, condition_type: i32, value: i32, check_conversion: bool) -> Outcome<()> {
        // SAFETY: the constructor's contract.
        let clients = unsafe { &mut *self.clients };
        update_condition_value(clients, client_num, condition_type, value, check_conversion)
    }

    /// `BG_PlayAnim` over the published table's entries.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn play_anim(
        self,
        player: &mut playerState_t,
        index: u32,
        body_part: u32,
        duration: i32,
        set_timer: bool,
        restart_same: bool,
        force: bool,
    ) -> i32 {
        play_anim(self.entries(), player, index, body_part, duration, set_timer, restart_same, force)
    }

    /// `BG_AnimScriptAnimation` over the published table's entries; the
    /// command's sound goes to the callback only while a table is published
    /// (the original reaches the callback through the table pointer).
    #[inline(always)]
    pub fn anim_script_animation<E: RuntimeEngine>(
        self,
        command: &bg_anim_script_command_t,
        player: &mut playerState_t,
        set_timer: bool,
        restart_same: bool,
        force: bool,
        engine: &mut E,
    ) -> i32 {
        let mut engine = Sounds { engine, published: !self.table.is_null() };
        anim_script_animation(self.entries(), command, player, set_timer, restart_same, force, &mut engine)
    }

    /// `BG_ExecuteCommand`; -1 without a table.
    #[inline(always)]
    pub fn execute_command<E: RuntimeEngine>(
        self,
        player: &mut playerState_t,
        state_index: i32,
        anim_group: i32,
        restart_same: bool,
        engine: &mut E,
    ) -> Outcome<i32> {
        let Some((scripts, clients)) = self.parts_mut() else { return Ok(-1) };
        execute_command(scripts, clients, player, state_index, anim_group, restart_same, engine)
    }

    /// `BG_AnimScriptStateChange`; -1 without a table.
    #[inline(always)]
    pub fn anim_script_state_change<E: RuntimeEngine>(self, player: &mut playerState_t, from: i32, to: i32, engine: &mut E) -> Outcome<i32> {
        let Some((scripts, clients)) = self.parts() else { return Ok(-1) };
        anim_script_state_change(scripts, clients, player, from, to, engine)
    }

    /// `BG_AnimScriptEvent`; -1 without a table.
    #[inline(always)]
    pub fn anim_script_event<E: RuntimeEngine>(
        self,
        player: &mut playerState_t,
        event: i32,
        restart_same: bool,
        force: bool,
        engine: &mut E,
    ) -> Outcome<i32> {
        let Some((scripts, clients)) = self.parts() else { return Ok(-1) };
        anim_script_event(scripts, clients, player, event, restart_same, force, engine)
    }

    /// `BG_GetAnimScriptEvent`; -1 without a table.
    #[inline(always)]
    pub fn get_anim_script_event<E: RuntimeEngine>(self, player: &playerState_t, event: i32, engine: &mut E) -> Outcome<i32> {
        let Some((scripts, clients)) = self.parts() else { return Ok(-1) };
        get_anim_script_event(scripts, clients, player, event, engine)
    }
}

/// The engine of `BG_AnimScriptAnimation`, which may run without a
/// published table: then there is no sound callback to reach.
struct Sounds<'e, E> {
    engine: &'e mut E,
    published: bool,
}

impl<E: RuntimeEngine> RuntimeEngine for Sounds<'_, E> {
    fn rand_range(&mut self, minimum: i32, maximum: i32) -> i32 {
        self.engine.rand_range(minimum, maximum)
    }
    fn sound_event(&mut self, client_num: i32, alias: *const core::ffi::c_char) {
        if self.published {
            self.engine.sound_event(client_num, alias);
        }
    }
}

/// The tree `BG_FindAnims` and `BG_FindAnimTrees` resolve their handles in.
const MULTIPLAYER: &CStr = c"multiplayer";

/// `BG_FindAnimTree`: `Scr_FindAnimTree(name)` (a NULL name finds none), an
/// error when there is none and `error_if_missing`.
pub fn find_anim_tree<'n>(engine: &mut impl FindTreeEngine, name: Option<&'n CStr>, error_if_missing: bool) -> Result<*mut XAnim, Failure<'n>> {
    let tree = name.map_or(ptr::null_mut(), |n| engine.find_anim_tree(n));
    if tree.is_null() && error_if_missing {
        return Err(find_anim_tree_error(name));
    }
    Ok(tree)
}

/// `BG_FindAnims`: the root, torso, legs and turning handles of the
/// multiplayer tree.
pub fn find_anims(engine: &mut impl FindTreeEngine, state: &mut bgs_t) {
    let handles = [&mut state.rootAnimHandle, &mut state.torsoAnimHandle, &mut state.legsAnimHandle, &mut state.turningAnimHandle];
    for (name, out) in [c"root", c"torso", c"legs", c"turning"].into_iter().zip(handles) {
        engine.find_anim(MULTIPLAYER, name, out);
    }
}

/// `BG_FindAnimTrees`: the multiplayer tree (an error without it) as the
/// game's and the table's tree, and the resolved handles.
pub fn find_anim_trees(engine: &mut impl FindTreeEngine, state: &mut bgs_t) -> Outcome<()> {
    let tree = find_anim_tree(engine, Some(MULTIPLAYER), true)?;
    state.multiplayerAnimTree = tree;
    state.animationTable.animTree.animTreeHandle = tree.cast();
    state.resolvedTorsoAnimHandle = state.torsoAnimHandle;
    state.resolvedLegsAnimHandle = state.legsAnimHandle;
    state.resolvedTurningAnimHandle = state.turningAnimHandle;
    Ok(())
}
