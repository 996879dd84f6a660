//! `uoanim explain`: which block the runtime picks for one client, and why
//! the blocks before it were passed over — computed by the library's own
//! runtime functions on the module state of a clean init.

use crate::diag::{line_col, printable};
use crate::input::SourceFile;
use crate::script::{condition_names, table_names, Observed, World};
use std::fmt::Write;
use uoanim::abi::bg::*;
use uoanim::script::runtime::engine::RuntimeEngine;
use uoanim::script::runtime::{self, ClientInfos, ScriptList, Scripts};
use uoanim::script::tables;

/// What to explain.
#[derive(Clone, Debug, Default)]
pub struct Query {
    pub state: Option<String>,
    pub movetype: Option<String>,
    /// (condition name, value name) pairs: `weapons kar98k_mp`, `crouching 1`, …
    pub conditions: Vec<(String, String)>,
    pub event: Option<String>,
    /// (from, to) states.
    pub statechange: Option<(String, String)>,
}

struct Draw;

impl RuntimeEngine for Draw {
    fn rand_range(&mut self, minimum: i32, _maximum: i32) -> i32 {
        minimum
    }
    fn sound_event(&mut self, _client_num: i32, _alias: *const core::ffi::c_char) {}
}

/// # Safety
/// All-zero bytes are a valid `T` (a plain-data C mirror).
unsafe fn zeroed<T>() -> Box<T> {
    // SAFETY: plain-data C mirrors only (see script::zeroed).
    unsafe { Box::<T>::new_zeroed().assume_init() }
}

/// The names of the values of a condition type (None: no value table).
fn value_names(world: &mut World, cond: usize) -> Option<Vec<Vec<u8>>> {
    let table = tables::CONDITION_TYPES.get(cond)?.1?;
    Some(table_names(world.module.value_table(table)))
}

fn index_of(names: &[Vec<u8>], name: &str) -> Option<usize> {
    names.iter().position(|n| n.eq_ignore_ascii_case(name.as_bytes()))
}

fn lower(bytes: &[u8]) -> String {
    printable(bytes).to_lowercase()
}

/// A condition's value as text: the names of its bits or its value.
fn describe_value(world: &mut World, cond: usize, value: [i32; 2]) -> String {
    let names = value_names(world, cond);
    let bitmask = tables::CONDITION_TYPES[cond].0 == ANIM_CONDMODE_BITMASK;
    match names {
        Some(names) if bitmask => {
            let words = [value[0] as u32, value[1] as u32];
            if words == [u32::MAX, u32::MAX] {
                return "all".into();
            }
            let set: Vec<String> = (0..64usize)
                .filter(|&b| words[b / 32] & (1 << (b % 32)) != 0)
                .map(|b| names.get(b).map_or(format!("#{b}"), |n| lower(n)))
                .collect();
            if set.is_empty() {
                "nothing".into()
            } else {
                set.join(" | ")
            }
        }
        Some(names) => names.get(value[0] as usize).map_or(format!("{}", value[0]), |n| lower(n)),
        None => format!("{}", value[0]),
    }
}

/// The first condition of `script` that does not hold for the words.
fn failing_condition(words: &[[u32; 2]; ANIM_COND_COUNT], script: &bg_anim_script_t) -> Option<usize> {
    let n = script.conditionCount.clamp(0, ANIM_COND_COUNT as i32) as usize;
    (0..n).find(|&i| {
        let mut one = *script;
        one.conditionCount = 1;
        one.conditions[0] = script.conditions[i];
        !runtime::evaluate_conditions(words, &one)
    })
}

fn entry_name(world: &World, index: i16) -> String {
    usize::try_from(index)
        .ok()
        .and_then(|i| world.table.entries.get(i))
        .map_or(format!("#{index}"), |e| printable(tables::field_name(e.name_bytes())))
}

/// What the check knows besides the module state.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// The class of each weapon (weapon 1 first) where it is known; a
    /// weapon's class becomes the WEAPONCLASS condition unless given.
    pub classes: Vec<Option<usize>>,
    /// Where each known class was found.
    pub class_from: Vec<Option<crate::ClassFrom>>,
    /// The tree is the built-in stock tree.
    pub stock_tree: bool,
}

/// Runs the query; returns the explanation text.
pub fn explain(world: &mut World, obs: &Observed, script: &SourceFile, q: &Query, facts: &Facts) -> Result<String, String> {
    let conds = condition_names();
    let states = table_names(&tables::ANIM_STATE_STR);
    let moves = table_names(&tables::ANIM_GROUP_STRINGS);
    let events = table_names(&tables::ANIM_EVENT_STRINGS);
    let parts = table_names(&tables::ANIM_BODY_PARTS_STR);
    let find = |names: &[Vec<u8>], what: &str, v: &str| {
        index_of(names, v).ok_or_else(|| format!("unknown {what} '{v}' (one of: {})", names.iter().map(|n| lower(n)).collect::<Vec<_>>().join(", ")))
    };

    // SAFETY: a plain-data C mirror, valid all zero.
    let mut clients: Box<ClientInfos> = unsafe { zeroed() };
    // SAFETY: a plain-data C mirror, valid all zero.
    let mut ps: Box<playerState_t> = unsafe { zeroed() };
    let client = 0i32;
    let mut out = String::new();

    let state = find(&states, "state", q.state.as_deref().unwrap_or("combat"))?;
    let movetype = match &q.movetype {
        Some(m) => Some(find(&moves, "move type", m)?),
        None => None,
    };
    // Condition words: each given value through BG_UpdateConditionValue.
    let mut set = Vec::new();
    if let Some(mt) = movetype {
        set.push((ANIM_COND_MOVETYPE as usize, mt as i32));
    }
    for (name, value) in &q.conditions {
        let c = find(&conds, "condition", name)?;
        let v = match value_names(world, c) {
            Some(names) => find(&names, &format!("{} value", lower(&conds[c])), value)? as i32,
            None => value.parse::<i32>().map_err(|_| format!("condition '{name}' takes a number (0 or 1)"))?,
        };
        set.push((c, v));
    }
    let class_given = set.iter().any(|&(c, _)| c == ANIM_COND_WEAPONCLASS as usize);
    let weapon = set.iter().find(|&&(c, _)| c == ANIM_COND_WEAPON as usize).map(|&(_, v)| v);
    let mut class_from = None;
    if let (false, Some(w)) = (class_given, weapon) {
        let i = usize::try_from(w).ok().and_then(|w| w.checked_sub(1));
        if let Some(&Some(class)) = i.and_then(|i| facts.classes.get(i)) {
            set.push((ANIM_COND_WEAPONCLASS as usize, class as i32));
            class_from = i.and_then(|i| facts.class_from.get(i).copied().flatten());
        }
    }
    for &(c, v) in &set {
        runtime::update_condition_value(&mut clients, client, c as i32, v, true).map_err(|e| format!("{e:?}"))?;
    }
    writeln!(out, "client conditions:").ok();
    for &(c, v) in &set {
        let shown = match value_names(world, c) {
            Some(names) => names.get(v as usize).map_or(v.to_string(), |n| lower(n)),
            None => v.to_string(),
        };
        let from = match class_from {
            Some(crate::ClassFrom::File) if c == ANIM_COND_WEAPONCLASS as usize => " (from the weapon file)",
            Some(crate::ClassFrom::Stock) if c == ANIM_COND_WEAPONCLASS as usize => " (the stock weapon's class)",
            _ => "",
        };
        writeln!(out, "  {} = {}{from}", lower(&conds[c]), shown).ok();
    }

    // The list(s) the runtime looks at, in its order.
    let (title, candidates): (String, Vec<(String, bg_anim_script_list_t)>) = if let Some(e) = &q.event {
        let e = find(&events, "event", e)?;
        let list = *runtime::event_list(&world.table, e as i32).ok_or("no such event list")?;
        (format!("event {}", lower(&events[e])), vec![(format!("event {}", lower(&events[e])), list)])
    } else if let Some((from, to)) = &q.statechange {
        let f = find(&states, "state", from)?;
        let t = find(&states, "state", to)?;
        let list = world.table.statechanges[t][f];
        (format!("statechange {} -> {}", lower(&states[f]), lower(&states[t])), vec![(format!("statechange {} {}", lower(&states[t]), lower(&states[f])), list)])
    } else {
        let mt = movetype.ok_or("give --movetype (or --event / --statechange)")?;
        // BG_ExecuteCommand falls back from the state to the lower ones.
        let lists = (0..=state).rev().map(|s| (format!("state {} {}", lower(&states[s]), lower(&moves[mt])), world.table.animations[s][mt])).collect();
        (format!("movement: state {} move type {}", lower(&states[state]), lower(&moves[mt])), lists)
    };
    writeln!(out, "{title}").ok();

    let words = clients[client as usize].conditionWords;
    let mut chosen: Option<usize> = None;
    for (label, list) in &candidates {
        let items = crate::script::list_items(&world.table, list);
        if items.is_empty() {
            writeln!(out, "  {label}: no blocks").ok();
            continue;
        }
        let slot = runtime::first_valid_item(&clients, client, ScriptList::pooled(&world.table, list))
            .map_err(|e| format!("{e:?}"))?
            .map(|(slot, _)| slot);
        for (i, &item) in items.iter().enumerate() {
            let line = obs.blocks.get(&item).map_or(0, |&p| line_col(&script.text, p).0);
            if Some(i) == slot {
                writeln!(out, "  {label}: line {line}: chosen").ok();
                chosen = Some(item);
                break;
            }
            let s = world.table.globalItems[item];
            match failing_condition(&words, &s) {
                Some(c) => {
                    let cond = s.conditions[c];
                    let ct = cond.r#type as usize;
                    let wanted = describe_value(world, ct, cond.value);
                    let w = words[ct];
                    let has = describe_value(world, ct, [w[0] as i32, w[1] as i32]);
                    writeln!(out, "  {label}: line {line}: passed over: {} {} does not hold (client: {})", lower(&conds[ct]), wanted, has).ok();
                }
                None => {
                    writeln!(out, "  {label}: line {line}: passed over").ok();
                }
            }
        }
        if chosen.is_some() {
            break;
        }
    }
    let Some(item) = chosen else {
        writeln!(out, "result: no block applies: nothing is played (the runtime returns -1)").ok();
        return Ok(out);
    };
    let s = world.table.globalItems[item];
    let count = s.commandCount.clamp(0, BG_ANIM_MAX_SCRIPT_COMMANDS as i32) as usize;
    let movement = q.event.is_none() && q.statechange.is_none();
    if count == 0 {
        writeln!(out, "result: the block has no commands: nothing is played").ok();
        return Ok(out);
    }
    let pick = if movement { (client.rem_euclid(count as i32)) as usize } else { 0 };
    writeln!(
        out,
        "commands: {count}{}",
        if movement { format!(" (command {} = client number mod {count})", pick + 1) } else if count > 1 { " (one is drawn at random; the first is shown)".into() } else { String::new() }
    )
    .ok();
    for (i, cmd) in s.commands[..count].iter().enumerate() {
        let mut parts_text = Vec::new();
        for slot in 0..2 {
            let bp = cmd.bodyPart[slot];
            if bp <= 0 {
                continue;
            }
            let e = usize::try_from(cmd.animIndex[slot]).ok().and_then(|x| world.table.entries.get(x));
            let blend = match e.map_or(0, |e| e.blendTime) {
                -1 => "none".to_string(),
                b => format!("{b} ms"),
            };
            parts_text.push(format!(
                "{} {} (duration {} ms, blend time {})",
                parts.get(bp as usize).map_or(bp.to_string(), |p| lower(p)),
                entry_name(world, cmd.animIndex[slot]),
                cmd.duration[slot],
                blend
            ));
        }
        let marker = if i == pick { "*" } else { " " };
        writeln!(out, "  {marker} {}: {}", i + 1, parts_text.join(", ")).ok();
    }

    // What the runtime itself does with it.
    let result = if let Some(e) = &q.event {
        let e = index_of(&events, e).unwrap_or(0) as i32;
        runtime::anim_script_event(Scripts::pool(&world.table), &clients, &mut ps, e, false, false, &mut Draw)
    } else if let Some((from, to)) = &q.statechange {
        let f = index_of(&states, from).unwrap_or(0) as i32;
        let t = index_of(&states, to).unwrap_or(0) as i32;
        runtime::anim_script_state_change(Scripts::pool(&world.table), &clients, &mut ps, f, t, &mut Draw)
    } else {
        let mt = movetype.unwrap_or(0) as i32;
        runtime::execute_command(Scripts::pool(&world.table), &mut clients, &mut ps, state as i32, mt, false, &mut Draw)
    }
    .map_err(|e| format!("{e:?}"))?;
    let anim = |v: i32| entry_name(world, (v as u32 & !ANIM_TOGGLEBIT) as i16);
    writeln!(
        out,
        "runtime: returns {result}; legs play {} (timer {} ms), torso plays {} (timer {} ms)",
        if ps.legsAnim == 0 { "nothing".into() } else { anim(ps.legsAnim) },
        ps.legsTimer,
        if ps.torsoAnim == 0 { "nothing".into() } else { anim(ps.torsoAnim) },
        ps.torsoTimer
    )
    .ok();
    if s.commands[pick].bodyPart[0] == ANIM_BP_BOTH as i16 || s.commands[pick].bodyPart[1] == ANIM_BP_BOTH as i16 {
        writeln!(out, "note: a 'both' command gives the torso animation 0 ('root'), as the engine does").ok();
    }
    if !world.real_tree {
        writeln!(out, "note: no multiplayer.atr was found; animations are numbered in script order").ok();
    } else if facts.stock_tree {
        writeln!(out, "note: the mod has no multiplayer.atr; animations are numbered in the stock tree (built in)").ok();
    }
    writeln!(out, "note: xanim lengths are not read; a duration without a 'duration' parameter is the engine's 500 ms floor").ok();
    Ok(out)
}
