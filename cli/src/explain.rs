//! `uoanim explain`: which block the runtime picks for one client, and why
//! the blocks before it were passed over — computed by the library's own
//! runtime functions on the module state of a clean init.

use crate::diag::{line_col, printable};
use crate::input::SourceFile;
use crate::script::{condition_names, table_names, Observed, World};
use std::fmt::Write;
use uoanim::abi::bg::*;
use uoanim::abi::Zeroed;
use uoanim_core::playback::RuntimeEngine;
use uoanim::script::runtime::{self, ScriptList, Scripts};
use uoanim_core::conditions::ClientInfos;
use uoanim::script::tables;
use uoanim_core::literals::{ConditionMode, Literal, CONDITIONS};

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

/// The names of the values of a condition type (None: no value table).
fn value_names(world: &mut World, cond: usize) -> Option<Vec<Vec<u8>>> {
    let table = CONDITIONS.get(cond)?.values?;
    Some(world.module.value_names(table).into_iter().map(<[u8]>::to_vec).collect())
}

/// An unknown name of the query: the closest known one as "did you mean",
/// then the names there are (the placeholders `** ... **` left out).
fn unknown_value(names: &[Vec<u8>], what: &str, v: &str) -> String {
    let known: Vec<&[u8]> = names.iter().map(Vec::as_slice).filter(|n| !n.starts_with(b"*")).collect();
    // the closest, else the shortest name it begins (`kar98k`: `kar98k_mp`)
    let close = crate::suggest::closest(v.as_bytes(), known.iter().copied())
        .or_else(|| known.iter().copied().filter(|n| n.len() > v.len() && n[..v.len()].eq_ignore_ascii_case(v.as_bytes())).min_by_key(|n| n.len()))
        .map(|c| format!(": did you mean '{}'?", lower(c)))
        .unwrap_or_default();
    format!("unknown {what} '{v}'{close} (one of: {})", known.iter().map(|n| lower(n)).collect::<Vec<_>>().join(", "))
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
    let bitmask = CONDITIONS[cond].mode == ConditionMode::Bitmask;
    match names {
        Some(names) if bitmask => {
            let words = [value[0] as u32, value[1] as u32];
            if words == [u32::MAX, u32::MAX] {
                return "all".into();
            }
            // a bit past the names: a value the list does not have; the
            // unused first slot of a list: no value
            let set: Vec<String> = (0..64usize)
                .filter(|&b| words[b / 32] & (1 << (b % 32)) != 0)
                .map(|b| names.get(b).filter(|n| !n.starts_with(b"*")).map_or(format!("value {b} (not in the list)"), |n| lower(n)))
                .collect();
            if set.is_empty() {
                "nothing".into()
            } else {
                set.join(" | ")
            }
        }
        Some(names) => names.get(value[0] as usize).filter(|n| !n.starts_with(b"*")).map_or(if value[0] == 0 { "none".into() } else { format!("value {}", value[0]) }, |n| lower(n)),
        None => format!("{}", value[0]),
    }
}

/// Whether condition `i` of `script` holds for the words (the runtime's
/// test of that one condition).
fn condition_holds(words: &[[u32; 2]; ANIM_COND_COUNT], script: &bg_anim_script_t, i: usize) -> bool {
    let mut one = *script;
    one.conditionCount = 1;
    one.conditions[0] = script.conditions[i];
    uoanim_core::conditions::evaluate_conditions(words, &one)
}

/// A table of the block's conditions: each one's name, what the block
/// wants, what the player has and whether it holds (the runtime tests
/// them in order and stops at the first that fails).
fn condition_table(world: &mut World, words: &[[u32; 2]; ANIM_COND_COUNT], script: &bg_anim_script_t, indent: &str) -> String {
    let conds = condition_names();
    let n = script.conditionCount.clamp(0, ANIM_COND_COUNT as i32) as usize;
    if n == 0 {
        return format!("{indent}no conditions: the block always holds\n");
    }
    let mut rows = vec![["condition".to_string(), "the block wants".into(), "the player has".into(), String::new()]];
    let mut failed = false;
    for i in 0..n {
        let cond = script.conditions[i];
        let ct = (cond.r#type as usize).min(ANIM_COND_COUNT - 1);
        let wanted = describe_value(world, ct, cond.value);
        let w = words[ct];
        let has = describe_value(world, ct, [w[0] as i32, w[1] as i32]);
        let verdict = if failed {
            "not tested"
        } else if condition_holds(words, script, i) {
            "holds"
        } else {
            failed = true;
            "fails"
        };
        rows.push([conds.get(ct).map_or(ct.to_string(), |c| lower(c)), wanted, has, verdict.into()]);
    }
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let (a, b, c) = (width(0), width(1), width(2));
    let mut out = String::new();
    for r in &rows {
        let line = format!("{indent}{:a$}  {:b$}  {:c$}  {}", r[0], r[1], r[2], r[3]);
        writeln!(out, "{}", line.trim_end()).ok();
    }
    out
}

/// The source of the block whose condition line starts at `pos`: that line
/// to the block's `}`, numbered, tabs as four spaces, the common
/// indentation cut.
fn block_source(script: &SourceFile, pos: usize, indent: &str) -> String {
    let text = &script.text;
    let shape = uoanim_core::outline::outline(text);
    fn find(items: &[uoanim_core::outline::Item], pos: usize) -> Option<&uoanim_core::outline::Item> {
        items.iter().find_map(|i| if i.head.start == pos { Some(i) } else { find(&i.children, pos) })
    }
    let Some(item) = find(&shape.items, pos) else { return String::new() };
    let end = item.block.map_or(item.head.end, |b| b.end);
    let first = line_col(text, item.head.start).0 as usize;
    let start = text[..item.head.start].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let lines: Vec<String> = String::from_utf8_lossy(&text[start..end.min(text.len())]).replace('\t', "    ").lines().map(str::to_string).collect();
    let cut = lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    let number_width = (first + lines.len()).to_string().len();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        writeln!(out, "{indent}{:>number_width$} | {}", first + i, l.get(cut..).unwrap_or("").trim_end()).ok();
    }
    out
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

/// The client's condition words for the query: each given value through
/// `BG_UpdateConditionValue`, the weapon's class (where it is known)
/// unless given. Returns the clients, the values set and where the class
/// came from.
type ClientSet = (Box<ClientInfos>, Vec<(usize, i32)>, Option<crate::ClassFrom>);

fn client_conditions(world: &mut World, q: &Query, facts: &Facts) -> Result<ClientSet, String> {
    let conds = condition_names();
    let moves = table_names(Literal::MoveTypes);
    let find = |names: &[Vec<u8>], what: &str, v: &str| index_of(names, v).ok_or_else(|| unknown_value(names, what, v));
    let mut clients: Box<ClientInfos> = ClientInfos::boxed_zeroed();
    let client = 0i32;
    // Condition words: each given value through BG_UpdateConditionValue.
    let mut set = Vec::new();
    if let Some(m) = &q.movetype {
        set.push((ANIM_COND_MOVETYPE as usize, find(&moves, "move type", m)? as i32));
    }
    for (name, value) in &q.conditions {
        let c = find(&conds, "condition", name)?;
        let v = match value_names(world, c) {
            Some(names) => {
                let what = if c == ANIM_COND_WEAPON as usize { "weapon".to_string() } else { format!("{} value", lower(&conds[c])) };
                find(&names, &what, value)? as i32
            }
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
    Ok((clients, set, class_from))
}

/// Runs the query; returns the explanation text.
/// `classes`: the class of each weapon (weapon 1 first) from its weapon
/// file; a weapon's class becomes the WEAPONCLASS condition unless given.
pub fn explain(world: &mut World, obs: &Observed, script: &SourceFile, q: &Query, facts: &Facts) -> Result<String, String> {
    let conds = condition_names();
    let states = table_names(Literal::States);
    let moves = table_names(Literal::MoveTypes);
    let events = table_names(Literal::Events);
    let parts = table_names(Literal::BodyParts);
    let find = |names: &[Vec<u8>], what: &str, v: &str| index_of(names, v).ok_or_else(|| unknown_value(names, what, v));

    let mut ps: Box<playerState_t> = playerState_t::boxed_zeroed();
    let client = 0i32;
    let mut out = String::new();
    let state = find(&states, "state", q.state.as_deref().unwrap_or("combat"))?;
    let movetype = match &q.movetype {
        Some(m) => Some(find(&moves, "move type", m)?),
        None => None,
    };
    let (mut clients, set, class_from) = client_conditions(world, q, facts)?;
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
            let pos = obs.blocks.get(&item).copied();
            let line = pos.map_or(0, |p| line_col(&script.text, p).0);
            let s = world.table.globalItems[item];
            let verdict = if Some(i) == slot { "chosen" } else { "passed over" };
            writeln!(out, "  {label}, the block at line {line}: {verdict}").ok();
            out.push_str(&condition_table(world, &words, &s, "      "));
            if Some(i) == slot {
                if let Some(p) = pos {
                    out.push_str(&block_source(script, p, "      "));
                }
                chosen = Some(item);
                break;
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

/// What the runtime plays for one state and move type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub legs: Option<String>,
    pub torso: Option<String>,
    /// The line of the block chosen.
    pub line: Option<u32>,
}

/// The animations the runtime plays for each state and move type, for
/// one player (a weapon and the other conditions of the query).
#[derive(Clone, Debug, Default)]
pub struct Grid {
    /// The query's conditions, as set (condition, value).
    pub conditions: Vec<(String, String)>,
    pub states: Vec<String>,
    pub moves: Vec<String>,
    /// `cells[move][state]`.
    pub cells: Vec<Vec<Cell>>,
}

/// Fills the grid: for each state and move type, the block the runtime's
/// `BG_ExecuteCommand` picks (falling back to the lower states, as it
/// does) and the animations it plays.
pub fn grid(world: &mut World, obs: &Observed, script: &SourceFile, q: &Query, facts: &Facts) -> Result<Grid, String> {
    let states = table_names(Literal::States);
    let moves = table_names(Literal::MoveTypes);
    let mut grid = Grid { states: states.iter().map(|s| lower(s)).collect(), ..Grid::default() };
    let shown: Vec<usize> = (0..moves.len()).filter(|&m| !moves[m].starts_with(b"*")).collect();
    grid.moves = shown.iter().map(|&m| lower(&moves[m])).collect();
    for &mt in &shown {
        let mut row = Vec::new();
        for st in 0..states.len() {
            let query = Query { movetype: Some(lower(&moves[mt])), ..q.clone() };
            let (mut clients, set, _) = client_conditions(world, &query, facts)?;
            if grid.conditions.is_empty() {
                let conds = condition_names();
                grid.conditions = set
                    .iter()
                    .filter(|&&(c, _)| c != ANIM_COND_MOVETYPE as usize)
                    .map(|&(c, v)| (lower(&conds[c]), value_names(world, c).and_then(|n| n.get(v as usize).map(|n| lower(n))).unwrap_or(v.to_string())))
                    .collect();
            }
            let mut line = None;
            for s in (0..=st).rev() {
                let list = world.table.animations[s][mt];
                if let Some((slot, _)) = runtime::first_valid_item(&clients, 0, ScriptList::pooled(&world.table, &list)).map_err(|e| format!("{e:?}"))? {
                    let items = crate::script::list_items(&world.table, &list);
                    line = items.get(slot).and_then(|i| obs.blocks.get(i)).map(|&p| line_col(&script.text, p).0);
                    break;
                }
            }
            let mut ps: Box<playerState_t> = playerState_t::boxed_zeroed();
            runtime::execute_command(Scripts::pool(&world.table), &mut clients, &mut ps, st as i32, mt as i32, false, &mut Draw).map_err(|e| format!("{e:?}"))?;
            // (a 'both' command gives the torso entry 0, 'root': shown as
            // the legs' animation alone)
            let anim = |v: i32| {
                let index = (v as u32 & !ANIM_TOGGLEBIT) as i16;
                (index != 0).then(|| entry_name(world, index))
            };
            row.push(Cell { legs: anim(ps.legsAnim), torso: anim(ps.torsoAnim), line });
        }
        grid.cells.push(row);
    }
    Ok(grid)
}

fn cell_text(c: &Cell) -> String {
    match (&c.legs, &c.torso) {
        (None, None) => "-".into(),
        (Some(l), None) => l.clone(),
        (None, Some(t)) => format!("torso {t}"),
        (Some(l), Some(t)) => format!("{l} + {t}"),
    }
}

/// The grid as text: a row per move type, a column per state.
pub fn grid_text(g: &Grid) -> String {
    let mut out = String::new();
    let who: Vec<String> = g.conditions.iter().map(|(c, v)| format!("{c} {v}")).collect();
    writeln!(out, "what the runtime plays, by state and move type ({}; '+': legs + torso, one name: both, '-': nothing)", if who.is_empty() { "no conditions".into() } else { who.join(", ") }).ok();
    let mut rows = vec![std::iter::once("move type".to_string()).chain(g.states.iter().cloned()).collect::<Vec<_>>()];
    for (m, name) in g.moves.iter().enumerate() {
        rows.push(std::iter::once(name.clone()).chain(g.cells[m].iter().map(cell_text)).collect());
    }
    let widths: Vec<usize> = (0..rows[0].len()).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in &rows {
        let line: Vec<String> = r.iter().zip(&widths).map(|(v, w)| format!("{v:w$}")).collect();
        writeln!(out, "{}", line.join("  ").trim_end()).ok();
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The grid as a self-contained HTML page.
pub fn grid_html(g: &Grid, script: &str) -> String {
    let mut out = String::new();
    let who: Vec<String> = g.conditions.iter().map(|(c, v)| format!("{c} {v}")).collect();
    let title = format!("{}: {}", script, if who.is_empty() { "no conditions".into() } else { who.join(", ") });
    writeln!(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>", html_escape(&title)).ok();
    out.push_str("<style>body{font-family:sans-serif}table{border-collapse:collapse}th,td{border:1px solid #999;padding:2px 6px;text-align:left}td.none{color:#999}span.torso{color:#246}</style>\n</head>\n<body>\n");
    writeln!(out, "<h1>What the runtime plays</h1>\n<p>{}</p>\n<table>", html_escape(&title)).ok();
    out.push_str("<tr><th>move type</th>");
    for s in &g.states {
        write!(out, "<th>{}</th>", html_escape(s)).ok();
    }
    out.push_str("</tr>\n");
    for (m, name) in g.moves.iter().enumerate() {
        write!(out, "<tr><th>{}</th>", html_escape(name)).ok();
        for c in &g.cells[m] {
            let at = c.line.map_or(String::new(), |l| format!(" title=\"line {l}\""));
            match (&c.legs, &c.torso) {
                (None, None) => write!(out, "<td class=\"none\"{at}>-</td>").ok(),
                (l, t) => write!(
                    out,
                    "<td{at}>{}{}</td>",
                    l.as_deref().map_or(String::new(), html_escape),
                    t.as_deref().map_or(String::new(), |t| format!("{}<span class=\"torso\">{}</span>", if l.is_some() { "<br>" } else { "" }, html_escape(t)))
                )
                .ok(),
            };
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n<p>Legs above, torso below; a cell's title is the line of the block chosen.</p>\n</body>\n</html>\n");
    out
}
