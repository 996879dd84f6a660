//! The rebuild of the static entries from the animation tree and the
//! second parse pass (`BG_FinalizePlayerAnims`), plus `BG_SetupAnimNoteTypes`:
//! the core's ([`uoanim_core::finalize`]), over the engine's table, with the
//! hardware's square roots and the engine's failure.

use crate::flavour::Behaviour;
use crate::abi::bg::*;
use crate::error::Outcome;
use crate::script::runtime::engine::FinalizeEngine;
use crate::script::runtime::anim_index_error;
use crate::arith::Arith;

pub use uoanim_core::finalize::{copy_name, setup_anim_note_types, FinalizeFailure, BLEND_NONE, ROOT_FLAGS};
pub use uoanim_core::formulas::{move_speed, MIN_ANIM_LENGTH_MS, MOVE_SPEED_SCALE};

/// [`uoanim_core::formulas::move_distance`] with the hardware's square
/// roots.
pub fn move_distance<A: Arith>(x87: A, behaviour: Behaviour, delta: [f32; 3]) -> i32 {
    uoanim_core::formulas::move_distance(x87, crate::math::HardwareRoots, behaviour, delta)
}

/// [`uoanim_core::finalize::rebuild_entries`] over the table's own tree
/// (`table.animTreeHandle`), with the hardware's square roots; its failure
/// is the engine's `BG_GetAnimationForIndex` error.
pub fn rebuild_entries<E: FinalizeEngine<Tree = *mut crate::abi::common::XAnim>, A: Arith>(
    behaviour: Behaviour,
    x87: A,
    table: &mut bg_static_animation_table_t,
    runtime: &[bg_runtime_animation_t],
    engine: &mut E,
) -> Outcome<()> {
    // SAFETY: both members of the union are plain pointers.
    let tree = unsafe { table.animTree.animTreeHandle }.cast();
    uoanim_core::finalize::rebuild_entries(behaviour, x87, crate::math::HardwareRoots, tree, table, runtime, engine)
        .map_err(|FinalizeFailure::AnimIndexRange { index, count }| anim_index_error(index as u32, count))
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
        type Tree = *mut XAnim;
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
        assert_eq!(e[2].hash, crate::script::tables::string_hash(b"walk_a"));
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
