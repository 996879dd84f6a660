//! The rebuild of the static entries from the animation tree and the
//! second parse pass (`BG_FinalizePlayerAnims`), plus `BG_SetupAnimNoteTypes`.
//!
//! The init's one float formula, the length of an animation's relative
//! move delta that becomes its move speed, is the core's
//! ([`uoanim_core::formulas::move_distance`]); the rebuild calls it with
//! the hardware's square roots ([`move_distance`]).

use crate::flavour::Behaviour;
use crate::abi::bg::*;
use crate::error::Outcome;
use crate::script::runtime::engine::FinalizeEngine;
use crate::script::tables;
use crate::script::runtime::{anim_index_error, resolve_script};
use crate::arith::Arith;

pub use uoanim_core::formulas::{move_speed, MIN_ANIM_LENGTH_MS, MOVE_SPEED_SCALE};

/// [`uoanim_core::formulas::move_distance`] with the hardware's square
/// roots.
pub fn move_distance<A: Arith>(x87: A, behaviour: Behaviour, delta: [f32; 3]) -> i32 {
    uoanim_core::formulas::move_distance(x87, crate::math::HardwareRoots, behaviour, delta)
}

// ---- the entries rebuild -------------------------------------------------------


/// Flags of entry 0 ("root"): NON_PRIMITIVE | UNUSED.
pub const ROOT_FLAGS: u32 = BG_ANIM_ENTRY_NON_PRIMITIVE | BG_ANIM_ENTRY_UNUSED;
/// Blend time written over a zero blend time ("none").
pub const BLEND_NONE: i32 = -1;

/// `Q_strncpyz(field, source, 64)`: at most 63 bytes of `source` (up to its
/// first NUL), the rest of the field zero-filled (strncpy padding).
pub fn copy_name(field: &mut [core::ffi::c_char; BG_ANIM_NAME_SIZE], source: &[u8]) {
    let field = name_as_bytes_mut(field);
    let length = source.iter().take(BG_ANIM_NAME_SIZE - 1).position(|&b| b == 0).unwrap_or(source.len().min(BG_ANIM_NAME_SIZE - 1));
    field.fill(0);
    field[..length].copy_from_slice(&source[..length]);
}

/// `BG_StringHashValue` over a NUL-terminated name field.
fn entry_hash(name: &[u8; BG_ANIM_NAME_SIZE]) -> i32 {
    tables::string_hash(tables::field_name(name))
}

/// The first part of `BG_FinalizePlayerAnims`: rebuilds `entries[]` from the
/// tree (`table.animTreeHandle`) and the pass-1 registrations `runtime`.
///
/// Calls, in the original's order: `Scr_GetAnimsIndex`, tree size; then per
/// node 1..size-1: IsPrimitive, and for primitives GetAnimName, GetLength,
/// GetRelDelta (only for a non-zero length), IsLooped. Nodes without a
/// registration make no call.
///
/// * entry 0: flags |= NON_PRIMITIVE|UNUSED, name "root", hash 0 (Quirk:
///   "root" can therefore never be looked up);
/// * no registration: flags |= UNUSED, name "unused", hash 0 (Quirk: like
///   the root, an "unused" entry cannot be looked up by name);
/// * registered, not primitive: flags |= NON_PRIMITIVE, name/hash of the
///   registration, blend time -1 when 0, duration 0, move speed 0;
/// * primitive: engine name (63 bytes at most), its hash, blend time -1 when
///   0, duration = length; move speed from [`move_distance`] and
///   [`move_speed`] (Quirk: divided by the raw length before the 500 ms
///   floor); then the floor; LOOPED when looped.
///
/// `entryCount` becomes the tree size unchecked, as in the original; nodes
/// past the 512 entries (a tree the original overflows on) are not visited.
pub fn rebuild_entries<E: FinalizeEngine, A: Arith>(
    behaviour: Behaviour,
    x87: A,
    table: &mut bg_static_animation_table_t,
    runtime: &[bg_runtime_animation_t],
    engine: &mut E,
) -> Outcome<()> {
    // SAFETY: both members of the union are plain pointers.
    let tree: *mut crate::abi::common::XAnim = unsafe { table.animTree.animTreeHandle }.cast();
    let tree_index = engine.anims_index(tree) as u16;
    let size = engine.tree_size(tree);
    table.entryCount = size;

    let root = &mut table.entries[0];
    root.flags |= ROOT_FLAGS;
    copy_name(&mut root.name, b"root");
    root.hash = 0;

    // The first registration of each node, found once instead of by a scan
    // per node (same answer: the lowest registration index wins).
    let mut first_registration = [u16::MAX; BG_ANIM_MAX_ANIMATIONS];
    for (index, registration) in runtime.iter().enumerate().take(BG_ANIM_MAX_ANIMATIONS).rev() {
        if let Some(slot) = first_registration.get_mut(usize::from(registration.anim.animIndex)) {
            *slot = index as u16;
        }
    }

    let mut bone: i32 = 1;
    while bone < size {
        if bone as u32 >= table.entryCount as u32 {
            return Err(anim_index_error(bone as u32, table.entryCount));
        }
        let Some(entry) = table.entries.get_mut(bone as usize) else {
            break;
        };
        let node = bone as u16;
        let registered = first_registration.get(bone as usize).and_then(|&i| runtime.get(usize::from(i)));
        let Some(registered) = registered else {
            entry.flags |= BG_ANIM_ENTRY_UNUSED;
            copy_name(&mut entry.name, b"unused");
            entry.hash = 0;
            bone += 1;
            continue;
        };
        if !engine.is_primitive(tree_index, node) {
            entry.flags |= BG_ANIM_ENTRY_NON_PRIMITIVE;
            copy_name(&mut entry.name, registered.name_bytes());
            entry.hash = registered.hash;
            if entry.blendTime == 0 {
                entry.blendTime = BLEND_NONE;
            }
            entry.duration = 0;
            entry.moveSpeed = 0;
            bone += 1;
            continue;
        }
        let name = engine.anim_name(tree_index, node).map(|n| n.to_bytes());
        copy_name(&mut entry.name, name.unwrap_or(b""));
        entry.hash = entry_hash(entry.name_bytes());
        if entry.blendTime == 0 {
            entry.blendTime = BLEND_NONE;
        }
        let length = engine.length(tree, node);
        entry.duration = length;
        entry.moveSpeed = if length != 0 {
            let mut rotation = [0f32; 3];
            let mut movement = [0f32; 3];
            engine.rel_delta(tree_index, node, &mut rotation, &mut movement);
            move_speed(move_distance(x87, behaviour, movement), entry.duration)
        } else {
            0
        };
        if entry.duration < MIN_ANIM_LENGTH_MS {
            entry.duration = MIN_ANIM_LENGTH_MS;
        }
        if engine.is_looped(tree_index, node) {
            entry.flags |= BG_ANIM_ENTRY_LOOPED;
        }
        bone += 1;
    }
    Ok(())
}

/// `BG_SetupAnimNoteTypes`: clears `usedByScript` of entries 0..entryCount-1,
/// then sets it for every animation a command of `scriptLists[0]` plays.
///
/// Quirk: `scriptLists[0]` is the RELOAD event list, so only reload
/// animations are ever marked. A slot counts when its body part is non-zero
/// (also -1). List slots that do not point into the pool, and animation
/// indices outside the 512 entries, are skipped.
pub fn setup_anim_note_types(table: &mut bg_static_animation_table_t) {
    let count = usize::try_from(table.entryCount).unwrap_or(0).min(BG_ANIM_MAX_ANIMATIONS);
    for entry in &mut table.entries[..count] {
        entry.usedByScript = 0;
    }
    let list = table.scriptLists[0];
    let scripts = usize::try_from(list.count).unwrap_or(0).min(BG_ANIM_MAX_LIST_ITEMS);
    for &pointer in &list.scripts[..scripts] {
        let Some(index) = resolve_script(table, pointer) else {
            continue;
        };
        let script = table.globalItems[index];
        let commands = usize::try_from(script.commandCount).unwrap_or(0).min(BG_ANIM_MAX_SCRIPT_COMMANDS);
        for command in &script.commands[..commands] {
            for slot in 0..2 {
                if command.bodyPart[slot] != 0 {
                    if let Some(entry) = usize::try_from(command.animIndex[slot]).ok().and_then(|i| table.entries.get_mut(i)) {
                        entry.usedByScript = 1;
                    }
                }
            }
        }
    }
}

/// The game unit's x87 at 64 bits, on the software x87.
#[cfg(test)]
const GAME_X87: crate::arith::X87<crate::arith::Soft> =
    crate::arith::X87 { machine: crate::arith::Soft { pc: crate::x87_model::Precision::Extended }, iso: false, stack_floats: false };

#[cfg(test)]
mod rebuild_tests {
    use std::prelude::rust_2021::*;
    use super::*;
    use crate::abi::Zeroed;
    use crate::abi::common::XAnim;
    use core::ffi::CStr;

    /// node: (primitive, looped, length, move, name)
    struct Tree {
        nodes: Vec<(bool, bool, i32, [f32; 3], &'static CStr)>,
        calls: Vec<String>,
    }

    impl FinalizeEngine for Tree {
        fn anims_index(&mut self, tree: *mut XAnim) -> u32 {
            self.calls.push(format!("index {}", tree as usize));
            0x0003_0001
        }
        fn tree_size(&mut self, _tree: *mut XAnim) -> i32 {
            self.calls.push("size".into());
            self.nodes.len() as i32
        }
        fn is_primitive(&mut self, t: u16, a: u16) -> bool {
            self.calls.push(format!("P {t} {a}"));
            self.nodes[a as usize].0
        }
        fn anim_name(&mut self, t: u16, a: u16) -> Option<&CStr> {
            self.calls.push(format!("N {t} {a}"));
            Some(self.nodes[a as usize].4)
        }
        fn length(&mut self, tree: *mut XAnim, a: u16) -> i32 {
            self.calls.push(format!("L {} {a}", tree as usize));
            self.nodes[a as usize].2
        }
        fn rel_delta(&mut self, t: u16, a: u16, _r: &mut [f32; 3], m: &mut [f32; 3]) {
            self.calls.push(format!("D {t} {a}"));
            *m = self.nodes[a as usize].3;
        }
        fn is_looped(&mut self, t: u16, a: u16) -> bool {
            self.calls.push(format!("O {t} {a}"));
            self.nodes[a as usize].1
        }
    }

    fn registration(node: u16, name: &[u8], hash: i32) -> bg_runtime_animation_t {
        let mut r = *<bg_runtime_animation_t as Zeroed>::boxed_zeroed();
        r.anim.animIndex = node;
        r.hash = hash;
        copy_name(&mut r.name, name);
        r
    }

    #[test]
    fn rebuild_follows_the_original() {
        let mut table = <bg_static_animation_table_t as Zeroed>::boxed_zeroed();
        table.animTree.animTreeHandle = (0x40 as *mut XAnim).cast();
        table.entries[3].blendTime = 250;
        let mut tree = Tree {
            nodes: vec![
                (false, false, 0, [0.0; 3], c"root"),
                (false, false, 0, [0.0; 3], c"parent"),
                (true, true, 1000, [3.0, 4.0, 0.0], c"Walk_A"),
                (true, false, 1, [5.0, 0.0, 0.0], c"tiny"),
                (true, false, 0, [9.0, 9.0, 9.0], c"zero"),
                (true, false, 700, [1.0, 0.0, 0.0], c"unregistered"),
            ],
            calls: vec![],
        };
        let runtime = [
            registration(2, b"walk_a", 11),
            registration(1, b"Parent", 77),
            registration(3, b"tiny", 5),
            registration(4, b"zero", 6),
            registration(2, b"dup", 99),
        ];
        rebuild_entries(Behaviour::Linux, GAME_X87, &mut table, &runtime, &mut tree).unwrap();
        assert_eq!(
            tree.calls,
            [
                "index 64", "size", "P 1 1", "P 1 2", "N 1 2", "L 64 2", "D 1 2", "O 1 2", "P 1 3", "N 1 3", "L 64 3",
                "D 1 3", "O 1 3", "P 1 4", "N 1 4", "L 64 4", "O 1 4",
            ]
        );
        assert_eq!(table.entryCount, 6);
        let e = &table.entries;
        assert_eq!(&e[0].name_bytes()[..5], b"root\0");
        assert_eq!((e[0].flags, e[0].hash), (0x101, 0));
        // registered, not primitive
        assert_eq!(&e[1].name_bytes()[..7], b"Parent\0");
        assert_eq!((e[1].flags, e[1].hash, e[1].blendTime, e[1].duration, e[1].moveSpeed), (1, 77, -1, 0, 0));
        // primitive: engine name and its own hash, distance 5 over 1000 ms
        assert_eq!(&e[2].name_bytes()[..7], b"Walk_A\0");
        assert_eq!(e[2].hash, tables::string_hash(b"walk_a"));
        assert_eq!((e[2].flags, e[2].blendTime, e[2].duration, e[2].moveSpeed), (0x80, -1, 1000, 5));
        // Quirk: the speed is divided by the raw length (1 ms) before the floor
        assert_eq!((e[3].blendTime, e[3].duration, e[3].moveSpeed), (250, 500, 5000));
        // zero length: no delta query, speed 0, floored duration
        assert_eq!((e[4].duration, e[4].moveSpeed), (500, 0));
        // unregistered
        assert_eq!(&e[5].name_bytes()[..7], b"unused\0");
        assert_eq!((e[5].flags, e[5].hash), (0x100, 0));
        assert!(e[5].name_bytes()[7..].iter().all(|&b| b == 0));
    }

    #[test]
    fn rebuild_names_are_cut_at_63_bytes_and_zero_padded() {
        let mut field = [0 as core::ffi::c_char; BG_ANIM_NAME_SIZE];
        copy_name(&mut field, &[b'x'; 100]);
        assert_eq!(&name_as_bytes(&field)[..63], &[b'x'; 63][..]);
        assert_eq!(name_as_bytes(&field)[63], 0);
        copy_name(&mut field, b"ab\0cd");
        assert_eq!(&name_as_bytes(&field)[..], &[b'a', b'b'].iter().copied().chain([0u8; 62]).collect::<Vec<u8>>()[..]);
    }

    #[test]
    fn rebuild_empty_and_oversized_trees() {
        let mut table = <bg_static_animation_table_t as Zeroed>::boxed_zeroed();
        let mut tree = Tree { nodes: vec![], calls: vec![] };
        rebuild_entries(Behaviour::Linux, GAME_X87, &mut table, &[], &mut tree).unwrap();
        assert_eq!(table.entryCount, 0);
        assert_eq!(table.entries[0].flags, 0x101);
        // defined here: nodes past entry 511 are not visited
        let mut tree = Tree { nodes: vec![(true, false, 0, [0.0; 3], c"n"); 600], calls: vec![] };
        let runtime: Vec<_> = (1..600).map(|i| registration(i, b"n", 1)).collect();
        rebuild_entries(Behaviour::Linux, GAME_X87, &mut table, &runtime, &mut tree).unwrap();
        assert_eq!(table.entryCount, 600);
        assert_eq!(tree.calls.iter().filter(|c| c.starts_with("P ")).count(), 511);
    }

    #[test]
    fn note_types_only_the_reload_list() {
        let mut table = <bg_static_animation_table_t as Zeroed>::boxed_zeroed();
        table.entryCount = 10;
        for e in table.entries.iter_mut() {
            e.usedByScript = 7;
        }
        let s = &mut table.globalItems[4];
        s.commandCount = 2;
        s.commands[0].bodyPart = [1, 2];
        s.commands[0].animIndex = [3, 4];
        s.commands[1].bodyPart = [0, -1];
        s.commands[1].animIndex = [5, 6];
        let t = &mut table.globalItems[5];
        t.commandCount = 1;
        t.commands[0].bodyPart = [3, 0];
        t.commands[0].animIndex = [-1, 0];
        let p4 = &mut table.globalItems[4] as *mut _;
        let p5 = &mut table.globalItems[5] as *mut _;
        table.scriptLists[0].count = 3;
        table.scriptLists[0].scripts[0] = p4;
        table.scriptLists[0].scripts[1] = core::ptr::null_mut();
        table.scriptLists[0].scripts[2] = p5;
        table.events[0].count = 1;
        table.events[0].scripts[0] = p4;
        table.scriptLists[1].count = 1;
        table.scriptLists[1].scripts[0] = p5;
        setup_anim_note_types(&mut table);
        let used: Vec<i32> = table.entries[..12].iter().map(|e| e.usedByScript).collect();
        assert_eq!(used, [0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 7, 7]);
    }
}
