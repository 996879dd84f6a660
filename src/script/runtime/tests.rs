use std::prelude::rust_2021::*;
use super::engine::RuntimeEngine;
use super::*;
use core::ffi::c_char;
use crate::abi::Zeroed;

/// A zeroed value of a plain-data mirror (pointers NULL, counts 0).
///
#[derive(Default)]
struct Mock {
    samples: Vec<i32>,
    draws: Vec<(i32, i32)>,
    sounds: Vec<(i32, usize)>,
}

impl RuntimeEngine for Mock {
    fn rand_range(&mut self, minimum: i32, maximum: i32) -> i32 {
        self.draws.push((minimum, maximum));
        if self.samples.is_empty() {
            minimum
        } else {
            self.samples.remove(0)
        }
    }
    fn sound_event(&mut self, client_num: i32, alias: *const c_char) {
        self.sounds.push((client_num, alias as usize));
    }
}

struct World {
    table: Box<bg_static_animation_table_t>,
    clients: Box<ClientInfos>,
    ps: Box<playerState_t>,
    engine: Mock,
}

impl World {
    fn new() -> Self {
        let mut table = <bg_static_animation_table_t as Zeroed>::boxed_zeroed();
        table.entryCount = 20;
        for (i, e) in table.entries.iter_mut().enumerate().take(20) {
            e.duration = 1000 + i as i32;
        }
        // SAFETY: a plain-data C mirror, valid all zero.
        Self { table, clients: Zeroed::boxed_zeroed(), ps: Zeroed::boxed_zeroed(), engine: Mock::default() }
    }

    /// Adds a pool script with the given conditions and commands; returns its index.
    fn script(&mut self, conditions: &[(i32, i32, i32)], commands: &[([i16; 2], [i16; 2], [i16; 2])]) -> usize {
        let index = self.table.globalItemCount as usize;
        self.table.globalItemCount += 1;
        let s = &mut self.table.globalItems[index];
        s.conditionCount = conditions.len() as i32;
        for (c, &(t, v0, v1)) in s.conditions.iter_mut().zip(conditions) {
            *c = bg_anim_condition_t { r#type: t, value: [v0, v1] };
        }
        s.commandCount = commands.len() as i32;
        for (c, &(bp, anim, dur)) in s.commands.iter_mut().zip(commands) {
            c.bodyPart = bp;
            c.animIndex = anim;
            c.duration = dur;
        }
        index
    }

    fn item_ptr(&mut self, index: usize) -> *mut bg_anim_script_t {
        &mut self.table.globalItems[index] as *mut _
    }

    fn push(list: &mut bg_anim_script_list_t, ptr: *mut bg_anim_script_t) {
        list.scripts[list.count as usize] = ptr;
        list.count += 1;
    }

    fn add_animation(&mut self, state: usize, mt: usize, index: usize) {
        let p = self.item_ptr(index);
        Self::push(&mut self.table.animations[state][mt], p);
    }

    fn add_event(&mut self, event: usize, index: usize) {
        let p = self.item_ptr(index);
        if event < ANIM_EVENT_RELOAD {
            Self::push(&mut self.table.events[event], p);
        } else {
            Self::push(&mut self.table.scriptLists[event - ANIM_EVENT_RELOAD], p);
        }
    }

    fn exec(&mut self, state: i32, mt: i32, restart: bool) -> Outcome<i32> {
        execute_command(Scripts::pool(&self.table), &mut self.clients, &mut self.ps, state, mt, restart, &mut self.engine)
    }

    fn event(&mut self, event: i32) -> Outcome<i32> {
        anim_script_event(Scripts::pool(&self.table), &self.clients, &mut self.ps, event, false, false, &mut self.engine)
    }
}

const LEGS: i16 = ANIM_BP_LEGS as i16;
const TORSO: i16 = ANIM_BP_TORSO as i16;
const BOTH: i16 = ANIM_BP_BOTH as i16;

fn err_text<T: core::fmt::Debug>(r: Result<T, Failure<'_>>) -> Vec<u8> {
    r.unwrap_err().text(None).as_bytes().to_vec()
}

// ---- conditions ----------------------------------------------------------------

#[test]
fn evaluate_bitmask_either_word_and_equal_low_word_only() {
    let mut w = World::new();
    let s = w.script(&[(ANIM_COND_WEAPON, 0, 1 << 3), (ANIM_COND_MOUNTED, 2, 0x55)], &[]);
    let mut words = [[0u32; 2]; ANIM_COND_COUNT];
    assert!(!evaluate_conditions(&words, &w.table.globalItems[s]));
    words[0] = [0, 1 << 3];
    assert!(!evaluate_conditions(&words, &w.table.globalItems[s]));
    words[2] = [2, 0]; // equal: value[1] = 0x55 is ignored
    assert!(evaluate_conditions(&words, &w.table.globalItems[s]));
    words[0] = [1, 0];
    assert!(!evaluate_conditions(&words, &w.table.globalItems[s]));
    let none = w.script(&[], &[]);
    assert!(evaluate_conditions(&[[0; 2]; ANIM_COND_COUNT], &w.table.globalItems[none]));
    // defined here: a type outside the table never holds, a huge count is bounded
    let bad = w.script(&[(11, 0, 0)], &[]);
    assert!(!evaluate_conditions(&words, &w.table.globalItems[bad]));
    w.table.globalItems[none].conditionCount = 1000;
    // bounded to 11 zero conditions (WEAPONS, empty mask): does not hold
    assert!(!evaluate_conditions(&[[0; 2]; ANIM_COND_COUNT], &w.table.globalItems[none]));
}

#[test]
fn update_condition_value_bits_and_guards() {
    let mut clients = <ClientInfos as Zeroed>::boxed_zeroed();
    update_condition_value(&mut clients, 3, ANIM_COND_MOVETYPE, 33, true).unwrap();
    assert_eq!(clients[3].conditionWords[5], [0, 2]);
    update_condition_value(&mut clients, 3, ANIM_COND_MOVETYPE, 4, true).unwrap();
    assert_eq!(clients[3].conditionWords[5], [0x10, 0]);
    // equal mode / no conversion: the low word only, the high word stays
    clients[3].conditionWords[2] = [7, 9];
    update_condition_value(&mut clients, 3, ANIM_COND_MOUNTED, 5, true).unwrap();
    assert_eq!(clients[3].conditionWords[2], [5, 9]);
    update_condition_value(&mut clients, 3, ANIM_COND_MOVETYPE, 77, false).unwrap();
    assert_eq!(clients[3].conditionWords[5], [77, 0]);
    // WEAPONS 64..127 clears the row (reconstruction guard)
    clients[3].conditionWords[0] = [1, 1];
    update_condition_value(&mut clients, 3, ANIM_COND_WEAPON, 100, true).unwrap();
    assert_eq!(clients[3].conditionWords[0], [0, 0]);
    assert_eq!(
        err_text(update_condition_value(&mut clients, 3, ANIM_COND_WEAPON, 128, true)),
        b"\x15BG_UpdateConditionValue: invalid condition value 128"
    );
    assert_eq!(
        err_text(update_condition_value(&mut clients, 3, ANIM_COND_WEAPONCLASS, -1, true)),
        b"\x15BG_UpdateConditionValue: invalid condition value -1"
    );
    assert_eq!(
        err_text(update_condition_value(&mut clients, 64, 0, 0, true)),
        b"\x15BG_UpdateConditionValue: invalid client number 64"
    );
    assert_eq!(
        err_text(update_condition_value(&mut clients, -1, 0, 0, true)),
        b"\x15BG_UpdateConditionValue: invalid client number -1"
    );
    // defined here: a condition type outside 0..10 writes nothing
    let before = clients[3].conditionWords;
    update_condition_value(&mut clients, 3, 11, 1, true).unwrap();
    update_condition_value(&mut clients, 3, -5, 1, false).unwrap();
    assert_eq!(clients[3].conditionWords, before);
}

#[test]
fn get_condition_value_lowest_bit() {
    let mut c = <clientInfo_t as Zeroed>::boxed_zeroed();
    c.conditionWords[0] = [0, 1 << 4];
    assert_eq!(get_condition_value(&c, 0, true), 36);
    assert_eq!(get_condition_value(&c, 0, false), 0);
    c.conditionWords[2] = [0x8000_0001, 0];
    assert_eq!(get_condition_value(&c, 2, true), -0x7fff_ffff);
    c.conditionWords[5] = [0, 0];
    assert_eq!(get_condition_value(&c, 5, true), 0);
    assert_eq!(get_condition_value(&c, 11, true), 0);
    assert_eq!(get_condition_value(&c, -1, false), 0);
}

#[test]
fn first_valid_item_order_and_guards() {
    let mut w = World::new();
    let a = w.script(&[(ANIM_COND_FIRING, 1, 0)], &[]);
    let b = w.script(&[], &[]);
    w.add_animation(0, 1, a);
    w.add_animation(0, 1, b);
    let list = &w.table.animations[0][1];
    assert_eq!(first_valid_item(&w.clients, 5, ScriptList::pooled(&w.table, list)).unwrap().map(|(slot, _)| slot), Some(1));
    w.clients[5].conditionWords[ANIM_COND_FIRING as usize][0] = 1;
    let list = &w.table.animations[0][1];
    assert_eq!(first_valid_item(&w.clients, 5, ScriptList::pooled(&w.table, list)).unwrap().map(|(slot, _)| slot), Some(0));
    assert_eq!(
        err_text(first_valid_item(&w.clients, 64, ScriptList::pooled(&w.table, list))),
        b"\x15BG_FirstValidItem: invalid client number 64"
    );
    // an empty list answers before the client check
    let empty = &w.table.animations[0][2];
    assert_eq!(first_valid_item(&w.clients, 999, ScriptList::pooled(&w.table, empty)).unwrap().map(|(slot, _)| slot), None);
    // NULL and foreign pointers never match
    let mut foreign = <bg_anim_script_t as Zeroed>::boxed_zeroed();
    let mut list2 = w.table.animations[0][2];
    list2.scripts[0] = core::ptr::null_mut();
    list2.scripts[1] = &mut *foreign as *mut _;
    list2.scripts[2] = (w.item_ptr(b) as usize + 4) as *mut _;
    list2.count = 3;
    assert_eq!(first_valid_item(&w.clients, 0, ScriptList::pooled(&w.table, &list2)).unwrap().map(|(slot, _)| slot), None);
    list2.count = 100_000; // bounded to the 128 slots
    assert_eq!(first_valid_item(&w.clients, 0, ScriptList::pooled(&w.table, &list2)).unwrap().map(|(slot, _)| slot), None);
}

// ---- playback --------------------------------------------------------------------

#[test]
fn play_anim_toggle_timers_and_duration() {
    let mut w = World::new();
    // duration 0: entry duration + 50
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 3, 1, 0, true, false, false), 1053);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (0x203, 1053));
    // timer >= 50 and not forced: nothing
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 4, 1, 10, true, false, false), -1);
    assert_eq!(w.ps.legsAnim, 0x203);
    // forced: toggle flips
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 4, 1, 10, true, false, true), 10);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (4, 10));
    // restartSame with the same animation: no restart; timer only when looped
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 4, 1, 77, true, true, false), -1);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (4, 10));
    w.table.entries[4].flags |= BG_ANIM_ENTRY_LOOPED;
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 4, 1, 77, true, true, true), -1);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (4, 77));
    // setTimer off leaves the timer
    w.ps.legsTimer = 0;
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 6, 1, 99, false, false, false), 99);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (0x206, 0));
    // torso only: never "started"
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 6, 2, 99, true, false, false), -1);
    assert_eq!((w.ps.torsoAnim, w.ps.torsoTimer), (0x206, 99));
    // other body parts do nothing
    let before = (w.ps.legsAnim, w.ps.legsTimer, w.ps.torsoAnim, w.ps.torsoTimer);
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 6, 0xffff_ffff, 5, true, false, true), -1);
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 6, 4, 5, true, false, true), -1);
    assert_eq!(before, (w.ps.legsAnim, w.ps.legsTimer, w.ps.torsoAnim, w.ps.torsoTimer));
    // defined here: an index past the entries reads duration 0, not looped
    w.ps.legsTimer = 0;
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 100_000, 1, 0, true, false, false), 50);
    assert_eq!(w.ps.legsAnim, 0x200 | 100_000);
}

#[test]
fn play_anim_both_gives_torso_animation_zero() {
    // Quirk: BOTH plays the animation on the legs and animation 0 on the torso.
    let mut w = World::new();
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 7, 3, 0, true, false, false), 1057);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (0x207, 1057));
    assert_eq!((w.ps.torsoAnim, w.ps.torsoTimer), (0x200, 1057));
    // the torso's restartSame test compares with 0 and reads entry 0's LOOPED flag
    w.table.entries[0].flags |= BG_ANIM_ENTRY_LOOPED;
    w.ps.torsoTimer = 0;
    w.ps.legsTimer = 0;
    assert_eq!(play_anim(&w.table.entries, &mut w.ps, 7, 3, 33, true, true, false), -1);
    assert_eq!((w.ps.torsoAnim, w.ps.torsoTimer), (0x200, 33));
}

#[test]
fn command_quirks_second_slot_and_legs_started() {
    let mut w = World::new();
    let mut cmd = bg_anim_script_command_t::ZERO;
    // legs A torso B: the torso result (-1) overwrites "legs started"
    cmd.bodyPart = [LEGS, TORSO];
    cmd.animIndex = [2, 3];
    cmd.duration = [100, 900];
    let r = anim_script_animation(&w.table.entries, &cmd, &mut w.ps, true, false, false, &mut w.engine);
    assert_eq!(r, -1);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (0x202, 150));
    // Quirk: the torso slot also uses duration[0]
    assert_eq!((w.ps.torsoAnim, w.ps.torsoTimer), (0x203, 150));
    // torso A legs B: bodyPart[0] is TORSO, so legs started is never recorded
    *w.ps = *<playerState_t as Zeroed>::boxed_zeroed();
    cmd.bodyPart = [TORSO, LEGS];
    assert_eq!(anim_script_animation(&w.table.entries, &cmd, &mut w.ps, true, false, false, &mut w.engine), -1);
    assert_eq!(w.ps.legsAnim, 0x203);
    // legs A legs B: the second result counts, duration from duration[0]
    *w.ps = *<playerState_t as Zeroed>::boxed_zeroed();
    cmd.bodyPart = [LEGS, LEGS];
    cmd.duration = [10, 500];
    w.ps.legsTimer = 0;
    // second legs play: timer is 60 >= 50, so it does not start -> -1
    assert_eq!(anim_script_animation(&w.table.entries, &cmd, &mut w.ps, true, false, false, &mut w.engine), -1);
    // single both slot: started
    *w.ps = *<playerState_t as Zeroed>::boxed_zeroed();
    cmd.bodyPart = [BOTH, 0];
    cmd.duration = [0, 0];
    assert_eq!(anim_script_animation(&w.table.entries, &cmd, &mut w.ps, true, false, false, &mut w.engine), 50);
    // a non-body-part first slot (-1) plays nothing, still "duration" -1 path
    *w.ps = *<playerState_t as Zeroed>::boxed_zeroed();
    cmd.bodyPart = [-1, 0];
    cmd.duration = [0, 0];
    cmd.soundAliasName = 0x1234 as *const c_char;
    w.ps.psClientNum = 9;
    assert_eq!(anim_script_animation(&w.table.entries, &cmd, &mut w.ps, true, false, false, &mut w.engine), -1);
    assert_eq!(w.ps.legsAnim, 0);
    assert_eq!(w.engine.sounds, vec![(9, 0x1234)]);
}

#[test]
fn execute_command_selection_quirks() {
    let mut w = World::new();
    let run_only = w.script(&[(ANIM_COND_MOVETYPE, 1 << 10, 0)], &[([LEGS, 0], [5, 0], [0, 0])]);
    let default = w.script(&[], &[([LEGS, 0], [6, 0], [0, 0]), ([LEGS, 0], [7, 0], [0, 0]), ([TORSO, 0], [8, 0], [0, 0])]);
    w.add_animation(3, 10, run_only);
    w.add_animation(1, 10, default);
    w.ps.psClientNum = 4;
    // state 3 does not match (MOVETYPE not yet RUN): falls back to state 1;
    // 4 % 3 = 1 -> commands[1] (anim 7); no random draw.
    assert_eq!(w.exec(3, 10, false).unwrap(), 1);
    assert_eq!(w.ps.legsAnim, 0x207);
    assert!(w.engine.draws.is_empty());
    // Quirk: MOVETYPE was updated after the selection ...
    assert_eq!(w.clients[4].conditionWords[5], [1 << 10, 0]);
    // ... so the next call selects the state-3 script.
    w.ps.legsTimer = 0;
    assert_eq!(w.exec(3, 10, false).unwrap(), 1);
    assert_eq!(w.ps.legsAnim, 5);
    // timers are not set by ExecuteCommand
    assert_eq!(w.ps.legsTimer, 0);
    // a torso command returns 0
    w.ps.psClientNum = 2;
    w.clients[2].conditionWords[5] = [0, 0];
    assert_eq!(w.exec(1, 10, false).unwrap(), 0);
    assert_eq!(w.ps.torsoAnim, 0x208);
    // dead: -1, nothing updated
    w.ps.pmType = PM_DEAD;
    w.clients[2].conditionWords[5] = [0, 0];
    assert_eq!(w.exec(3, 10, false).unwrap(), -1);
    assert_eq!(w.clients[2].conditionWords[5], [0, 0]);
    w.ps.pmType = -1; // Quirk: unsigned compare, negative counts as dead
    assert_eq!(w.exec(3, 10, false).unwrap(), -1);
    w.ps.pmType = 5;
    // nothing found: -1 and MOVETYPE untouched
    assert_eq!(w.exec(3, 11, false).unwrap(), -1);
    assert_eq!(w.clients[2].conditionWords[5], [0, 0]);
    // negative states: the loop does not run
    assert_eq!(w.exec(-1, 10, false).unwrap(), -1);
    // defined here: states above 3 start at 3, move types outside 0..17 match nothing
    assert_eq!(w.exec(i32::MAX, 10, false).unwrap(), 0);
    assert_eq!(w.exec(3, 18, false).unwrap(), -1);
    assert_eq!(w.exec(3, -1, false).unwrap(), -1);
    // an invalid client number is reported by the first non-empty list
    w.ps.psClientNum = 70;
    assert_eq!(err_text(w.exec(1, 10, false)), b"\x15BG_FirstValidItem: invalid client number 70");
    // a script without commands: -1, MOVETYPE untouched
    w.ps.psClientNum = 1;
    let empty = w.script(&[], &[]);
    w.add_animation(0, 4, empty);
    assert_eq!(w.exec(2, 4, false).unwrap(), -1);
    assert_eq!(w.clients[1].conditionWords[5], [0, 0]);
}

#[test]
fn events_death_only_when_dead_and_one_draw() {
    let mut w = World::new();
    let pain = w.script(&[], &[([LEGS, 0], [2, 0], [10, 0]), ([LEGS, 0], [3, 0], [20, 0])]);
    let death = w.script(&[], &[([BOTH, 0], [4, 0], [0, 0])]);
    let reload = w.script(&[], &[([TORSO, 0], [9, 0], [0, 0])]);
    w.add_event(ANIM_EVENT_PAIN as usize, pain);
    w.add_event(ANIM_EVENT_DEATH as usize, death);
    w.add_event(10, reload);
    w.engine.samples = vec![1];
    assert_eq!(w.event(ANIM_EVENT_PAIN).unwrap(), 70);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (0x203, 70));
    assert_eq!(w.engine.draws, vec![(0, 2)]);
    // events 10..15 live in scriptLists
    assert_eq!(w.event(10).unwrap(), -1);
    assert_eq!(w.ps.torsoAnim, 0x209);
    assert_eq!(w.engine.draws.len(), 2);
    // dead: only DEATH plays
    w.ps.pmType = 6;
    assert_eq!(w.event(ANIM_EVENT_PAIN).unwrap(), -1);
    assert_eq!(w.engine.draws.len(), 2);
    w.ps.legsTimer = 0;
    assert_eq!(w.event(ANIM_EVENT_DEATH).unwrap(), 50);
    assert_eq!(w.engine.draws.len(), 3);
    // empty lists and invalid events: -1, no draw
    w.ps.pmType = 0;
    assert_eq!(w.event(5).unwrap(), -1);
    assert_eq!(w.event(16).unwrap(), -1);
    assert_eq!(w.event(-1).unwrap(), -1);
    assert_eq!(w.engine.draws.len(), 3);
    // defined here: a drawn index outside the commands plays nothing
    w.engine.samples = vec![7];
    assert_eq!(w.event(ANIM_EVENT_PAIN).unwrap(), -1);
    // Quirk: a negative pmType is "dead" (unsigned enum compare)
    w.ps.pmType = -1;
    assert_eq!(w.event(ANIM_EVENT_PAIN).unwrap(), -1);
    assert_eq!(w.engine.draws.len(), 4);
    w.ps.pmType = 0;
    // GetAnimScriptEvent: same draw, animIndex[0], no player writes
    w.engine.samples = vec![1];
    let before = (w.ps.legsAnim, w.ps.legsTimer);
    assert_eq!(get_anim_script_event(Scripts::pool(&w.table), &w.clients, &w.ps, ANIM_EVENT_PAIN, &mut w.engine).unwrap(), 3);
    assert_eq!(before, (w.ps.legsAnim, w.ps.legsTimer));
    w.ps.pmType = 100;
    assert_eq!(get_anim_script_event(Scripts::pool(&w.table), &w.clients, &w.ps, ANIM_EVENT_PAIN, &mut w.engine).unwrap(), -1);
    assert_eq!(get_anim_script_event(Scripts::pool(&w.table), &w.clients, &w.ps, ANIM_EVENT_DEATH, &mut w.engine).unwrap(), 4);
}

#[test]
fn state_change_is_indexed_to_from() {
    let mut w = World::new();
    let s = w.script(&[], &[([LEGS, 0], [11, 0], [5, 0])]);
    let p = w.item_ptr(s);
    // statechange <to=2> <from=1>
    World::push(&mut w.table.statechanges[2][1], p);
    let r = anim_script_state_change(Scripts::pool(&w.table), &w.clients, &mut w.ps, 2, 1, &mut w.engine).unwrap();
    assert_eq!(r, -1);
    assert!(w.engine.draws.is_empty());
    let r = anim_script_state_change(Scripts::pool(&w.table), &w.clients, &mut w.ps, 1, 2, &mut w.engine).unwrap();
    assert_eq!(r, 55);
    assert_eq!((w.ps.legsAnim, w.ps.legsTimer), (0x20b, 55));
    assert_eq!(w.engine.draws, vec![(0, 1)]);
    assert_eq!(anim_script_state_change(Scripts::pool(&w.table), &w.clients, &mut w.ps, 4, 1, &mut w.engine).unwrap(), -1);
    assert_eq!(anim_script_state_change(Scripts::pool(&w.table), &w.clients, &mut w.ps, 1, -2, &mut w.engine).unwrap(), -1);
    w.ps.pmType = 7;
    assert_eq!(anim_script_state_change(Scripts::pool(&w.table), &w.clients, &mut w.ps, 1, 2, &mut w.engine).unwrap(), -1);
}

#[test]
fn lookups_and_errors() {
    let w = World::new();
    assert_eq!(checked_entry_index(&w.table, 19), Some(19));
    assert_eq!(checked_entry_index(&w.table, 20), None);
    assert_eq!(checked_entry_index(&w.table, u32::MAX), None);
    let mut runtime = vec![*<bg_runtime_animation_t as Zeroed>::boxed_zeroed(); 3];
    runtime[1].anim.animIndex = 7;
    runtime[2].anim.animIndex = 7;
    assert_eq!(load_anim_for_anim_index(20, &runtime, 7).unwrap(), Some(1));
    assert_eq!(load_anim_for_anim_index(20, &runtime, 8).unwrap(), None);
    assert_eq!(
        err_text(load_anim_for_anim_index(20, &runtime, u32::MAX)),
        b"\x15Player animation index -1 out of 0 to 20 range"
    );
    assert_eq!(find_anim_tree_error(Some(c"abc")).text(None).as_bytes(), b"\x15Could not find animation tree 'abc'");
    assert_eq!(find_anim_tree_error(None).text(None).as_bytes(), b"\x15Could not find animation tree '(null)'");
    assert_eq!(get_animation_for_index_error().text(None).as_bytes(), b"\x15BG_GetAnimationForIndex: index out of bounds");
}

#[test]
fn resolve_script_only_pool_elements() {
    let w = World::new();
    let base = w.table.globalItems.as_ptr();
    assert_eq!(resolve_script(&w.table, base), Some(0));
    assert_eq!(resolve_script(&w.table, base.wrapping_add(2047)), Some(2047));
    assert_eq!(resolve_script(&w.table, base.wrapping_add(2048)), None);
    assert_eq!(resolve_script(&w.table, core::ptr::null()), None);
    assert_eq!(resolve_script(&w.table, (base as usize + 1) as *const _), None);
}

/// Table contents, player fields, arguments and random draws with odd
/// values (what a corrupted engine state could hold): every entry point
/// answers, none panics.
#[test]
fn odd_table_contents_and_arguments_never_panic() {
    const ODD: [i32; 12] = [i32::MIN, -65536, -2, -1, 0, 1, 3, 4, 17, 18, 511, i32::MAX];
    let mut seed = 0x0dd5_eed5_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..crate::rounds(300) {
        let mut w = World::new();
        let mut odd = || ODD[(next() % ODD.len() as u64) as usize];
        let conditions: Vec<(i32, i32, i32)> = (0..(odd() & 3)).map(|_| (odd(), odd(), odd())).collect();
        let commands: Vec<([i16; 2], [i16; 2], [i16; 2])> =
            (0..(odd() & 3)).map(|_| ([odd() as i16, odd() as i16], [odd() as i16, odd() as i16], [odd() as i16, 0])).collect();
        let s = w.script(&conditions, &commands);
        w.table.globalItems[s].commandCount = odd();
        w.table.globalItems[s].conditionCount = odd();
        w.add_animation((odd() & 3) as usize, (odd() & 15) as usize, s);
        w.add_event((odd() & 15) as usize, s);
        w.table.statechanges[(odd() & 3) as usize][(odd() & 3) as usize].scripts[0] = w.item_ptr(s);
        w.table.statechanges[1][2].count = odd();
        w.table.animations[3][4].count = odd();
        w.table.entryCount = odd();
        w.ps.psClientNum = odd() & 127;
        w.ps.pmType = odd();
        w.ps.legsAnim = odd();
        w.ps.torsoAnim = odd();
        w.engine.samples = (0..8).map(|_| odd()).collect();
        let (a, b, c) = (odd(), odd(), odd());
        let _ = w.exec(a, b, c & 1 != 0);
        let _ = w.event(a);
        let scripts = Scripts::pool(&w.table);
        let _ = get_anim_script_event(scripts, &w.clients, &w.ps, b, &mut w.engine);
        let _ = anim_script_state_change(scripts, &w.clients, &mut w.ps, a, b, &mut w.engine);
        let _ = play_anim(&w.table.entries, &mut w.ps, a as u32, b as u32, c, true, false, true);
        let _ = update_condition_value(&mut w.clients, a & 127, b, c, true);
        let _ = get_condition_value(&w.clients[0], a, true);
        let _ = load_anim_for_anim_index(w.table.entryCount, &[], a as u32);
    }
}
