//! Tests of the sync setup over trees of plain nodes: the walk against the
//! path walk it replaces (the original's recursion), its cost, and the
//! walk of a forest.

use std::prelude::rust_2021::*;
use super::*;
use crate::testing::Rng;

/// A tree of `n` zero-filled nodes (as the engine's allocators give):
/// leaves without asset.
fn zeroed_tree(n: u32) -> Vec<PlainNode> {
    vec![PlainNode::default(); n as usize]
}

/// `XAnimSetParentNode` as the sync walk sees it: a child count of 0 makes
/// a leaf without asset.
fn set_parent_node(t: &mut [PlainNode], index: u16, first_child: u16, child_count: u16, flags: u16) {
    if let Some(node) = t.get_mut(usize::from(index)) {
        *node = if child_count == 0 { PlainNode::leaf(None) } else { PlainNode::parent(first_child, child_count, flags) };
    }
}

/// The assets of the tests, by their `looped` byte.
const LOOP: Option<u8> = Some(1);
const ONCE: Option<u8> = Some(0);
const TWICE: Option<u8> = Some(2);

/// `XAnimSetLeafNode` with an asset of that `looped` byte.
fn set_leaf_node(t: &mut [PlainNode], index: u16, looped: Option<u8>) {
    if let Some(node) = t.get_mut(usize::from(index)) {
        *node = PlainNode::leaf(looped);
    }
}

fn flags(t: &[PlainNode], i: u32) -> u16 {
    t[i as usize].flags
}

use super::sync::reference::{path_walk, PathWalk};

/// A random hand-built tree of `n` nodes: parents share children, point
/// back at their ancestors and outside the tree; leaves have any of the
/// looped bytes, or no asset.
fn random_tree(rng: &mut Rng, n: u32) -> Vec<PlainNode> {
    let mut t = zeroed_tree(n);
    for i in 0..n {
        if rng.below(3) == 0 {
            match rng.below(4) {
                0 => {}
                k => set_leaf_node(&mut t, i as u16, [LOOP, ONCE, TWICE][k as usize - 1]),
            }
        } else {
            let first = rng.below(u64::from(n) + 1) as u16;
            let count = 1 + rng.below(3) as u16;
            let flags = [0, 0, 0, 0, FLAG_SYNC_LOOPING, FLAG_SYNC_NON_LOOPING, FLAG_SYNC_MASK][rng.below(7) as usize]
                | if rng.below(4) == 0 { FLAG_COMPLETE } else { 0 }
                | if rng.below(8) == 0 { FLAG_NOTIFY_SOURCE } else { 0 };
            set_parent_node(&mut t, i as u16, first, count, flags);
        }
    }
    t
}

/// Runs one operation with the new walk and with the path walk (with and
/// without depth guard) from the same bytes; compares what they wrote and
/// raised. Returns (original ended, old walk's guard stayed silent).
fn compare_walks(t: &mut [PlainNode], start: u32, fill: Option<u8>) -> (bool, bool) {
    let initial = t.to_vec();
    let new_result = match fill {
        None => setup_sync_nodes_r(t, start),
        Some(r) => fill_in_sync_nodes(t, start, r),
    };
    let new_bytes = t.to_vec();
    let mut c_ended = false;
    let mut old_silent = false;
    for guard in [false, true] {
        t.copy_from_slice(&initial);
        match path_walk(t, start, fill, guard, 2_000_000) {
            PathWalk::Ended { result, guard_fired } => {
                if guard && guard_fired {
                    continue;
                }
                assert_eq!(result, new_result, "guard {guard}, start {start}, fill {fill:?}, tree {initial:?}");
                assert_eq!(t.to_vec(), new_bytes, "guard {guard}, start {start}, fill {fill:?}, tree {initial:?}");
                if guard {
                    old_silent = true;
                } else {
                    c_ended = true;
                }
            }
            PathWalk::Endless => assert!(!guard, "the guarded walk always ends"),
        }
    }
    t.copy_from_slice(&new_bytes);
    (c_ended, old_silent)
}

#[test]
fn sync_walk_equals_the_path_walk_on_small_trees_dags_and_cycles() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let (mut runs, mut ended, mut silent, mut raised) = (0, 0, 0, 0);
    for round in 0..crate::rounds(20_000) {
        let n = 1 + (round % 9) as u32;
        let mut t = random_tree(&mut rng, n);
        let start = if rng.below(4) == 0 { rng.below(u64::from(n) + 1) as u32 } else { 0 };
        let fill = if rng.below(6) == 0 { Some(rng.below(2) as u8) } else { None };
        let before = t.to_vec();
        let (c, o) = compare_walks(&mut t, start, fill);
        t.copy_from_slice(&before);
        let new = match fill {
            None => setup_sync_nodes_r(&mut t[..], start),
            Some(r) => fill_in_sync_nodes(&mut t[..], start, r),
        };
        runs += 1;
        ended += usize::from(c);
        silent += usize::from(o);
        raised += usize::from(new.is_err());
    }
    // the comparison covers most trees, with and without diagnostics
    println!("{runs} trees: the original ends on {ended}, the old guard stays silent on {silent}, {raised} raise");
    assert!(ended > runs * 3 / 4, "{ended} of {runs}");
    assert!(silent > runs * 3 / 4, "{silent} of {runs}");
    assert!(raised > runs / 10 && raised < runs * 9 / 10, "{raised} of {runs}");
}

#[test]
fn sync_walk_equals_the_path_walk_on_shared_subtrees_with_sources() {
    // a DAG (node i: children i+1, i+2) with sync bits sprinkled in and
    // leaves of both kinds: the old walk is still fast at 18 nodes
        let mut rng = Rng::new(12345);
    for _ in 0..crate::rounds(300) {
        let n = 18;
        let mut t = zeroed_tree(n);
        for i in 0..n - 2 {
            let flags = [0, 0, 0, 0, 0, 0, FLAG_SYNC_LOOPING, FLAG_SYNC_NON_LOOPING][rng.below(8) as usize];
            set_parent_node(&mut t, i as u16, i as u16 + 1, 2, flags);
        }
        for i in n - 2..n {
            match rng.below(3) {
                0 => {}
                k => set_leaf_node(&mut t, i as u16, [LOOP, ONCE][k as usize - 1]),
            }
        }
        assert_eq!(compare_walks(&mut t, 0, None), (true, true));
    }
}

#[test]
fn sync_walk_is_linear_on_shared_children_and_ends_at_cycles() {
    // (under Miri, which interprets every visit, the two wide trees are
    // smaller and the wall-clock bound is not checked)
    let (wide, widest): (u16, u32) = if cfg!(miri) { (64, 0x200) } else { (4096, 0x1_0000) };
    // sync_dag: node i has children i+1, i+2 (Fibonacci many paths)
    let mut t = zeroed_tree(64);
    for i in 0..62u16 {
        set_parent_node(&mut t, i, i + 1, 2, 0);
    }
    let start = std::time::Instant::now();
    setup_sync_nodes(&mut t[..]).unwrap();
    // sync_cycle: both nodes list nodes 0 and 1
    let mut c = zeroed_tree(64);
    set_parent_node(&mut c, 0, 0, 2, 0);
    set_parent_node(&mut c, 1, 0, 2, 0);
    setup_sync_nodes(&mut c[..]).unwrap();
    // a dense DAG: node i has every later node as a child (2^4094 paths)
    let mut w = zeroed_tree(u32::from(wide));
    for i in 0..wide - 1 {
        set_parent_node(&mut w, i, i + 1, wide - 1 - i, 0);
    }
    setup_sync_nodes(&mut w[..]).unwrap();
    // the widest range the 16-bit fields allow, every parent listing the
    // same 65535 children (a cycle through each of them)
    let mut x = zeroed_tree(widest);
    for i in 0..widest {
        set_parent_node(&mut x, i as u16, 1, 0xffff, 0);
    }
    setup_sync_nodes(&mut x[..]).unwrap();
    // (an unoptimised build runs these loops about ten times slower, and so
    // does the emulator that runs the aarch64 tests here)
    let limit = if cfg!(debug_assertions) || !cfg!(any(target_arch = "x86", target_arch = "x86_64")) { 200 } else { 20 };
    assert!(cfg!(miri) || start.elapsed().as_secs() < limit, "{:?}", start.elapsed());
    // nothing was written: no sync bits
    assert_eq!(flags(&t, 0), 0);
    assert_eq!(flags(&w, 5), 0);
}

#[test]
fn divergence_a_cycle_ends_the_setup_after_the_second_lap() {
        // 0 -> [1, 2]; 1 -> [0] (cycle); 2: source with parent child 3; 3 -> leaf 4
    let mut t = zeroed_tree(5);
    set_parent_node(&mut t, 0, 1, 2, 0);
    set_parent_node(&mut t, 1, 0, 1, 0);
    set_parent_node(&mut t, 2, 3, 1, FLAG_SYNC_LOOPING);
    set_parent_node(&mut t, 3, 4, 1, 0);
    set_leaf_node(&mut t, 4, LOOP);
    // the original: 0, 1, 0 again (second lap), 1, 0 ... for ever: node 2
    // is never reached; the setup ends without a diagnostic
    setup_sync_nodes(&mut t[..]).unwrap();
    assert_eq!((flags(&t, 2), flags(&t, 3)), (FLAG_SYNC_LOOPING, 0));
    assert!(matches!(path_walk(&mut t[..], 0, None, false, 1_000_000), PathWalk::Endless));
    // when the second lap meets a source again, it raises what the
    // original raises: 0 -> [2, 1]; 1 -> [0]
    let mut t = zeroed_tree(5);
    set_parent_node(&mut t, 0, 1, 2, 0);
    set_parent_node(&mut t, 1, 3, 2, FLAG_SYNC_LOOPING);
    set_parent_node(&mut t, 2, 0, 1, 0);
    set_parent_node(&mut t, 3, 4, 1, 0);
    set_leaf_node(&mut t, 4, LOOP);
    let before = t.to_vec();
    let text = setup_sync_nodes(&mut t[..]);
    assert_eq!(text, Err(SyncFailure::Nested { depth: 1, leaf: Some(4) }));
    let after = t.to_vec();
    t.copy_from_slice(&before);
    match path_walk(&mut t[..], 0, None, false, 1_000_000) {
        PathWalk::Ended { result, .. } => assert_eq!(result, text),
        PathWalk::Endless => std::panic!("the original ends here"),
    }
    assert_eq!(t.to_vec(), after);
}

/// The cubic case of the walk without budget. The root's children
/// alternate D_i and X_i (i < k); every D_i lists the same parents B_j,
/// every B_j lists the same parents Y_j, each Y_j has one leaf; X_i is a
/// source whose only child is Y_i. Each X_i fills Y_i, after which the next
/// D_i walks every B_j again (k × k child visits): about 2k³ visits, as
/// many as the original makes.
fn cubic_tree(k: u16) -> Vec<PlainNode> {
    let b0 = 1 + 2 * k;
    let y0 = b0 + k;
    let leaf = y0 + k;
    let mut t = zeroed_tree(u32::from(leaf) + 1);
    set_parent_node(&mut t, 0, 1, 2 * k, 0);
    for i in 0..k {
        set_parent_node(&mut t, 1 + 2 * i, b0, k, 0);
        set_parent_node(&mut t, 2 + 2 * i, y0 + i, 1, FLAG_SYNC_LOOPING);
        set_parent_node(&mut t, b0 + i, y0, k, 0);
        set_parent_node(&mut t, y0 + i, leaf, 1, 0);
    }
    set_leaf_node(&mut t, leaf, LOOP);
    t
}

#[test]
fn sync_walk_equals_the_path_walk_wherever_the_path_walk_fits_the_budget() {
    // with a small budget the walk again is cut early; wherever the
    // original needs no more node visits than the budget, nothing differs,
    // whether the walk steps through the child ranges or jumps through them
    // (its node sets, which long ranges make); without budget, the same
    // wherever the original ends
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let (mut compared, mut cut) = (0, 0);
    let rounds = crate::rounds(20_000);
    for round in 0..rounds {
        let n = 1 + (round % 9) as u32;
        let mut t = random_tree(&mut rng, n);
        let start = if rng.below(4) == 0 { rng.below(u64::from(n) + 1) as u32 } else { 0 };
        let budget = if round % 4 == 3 { u64::MAX } else { 2 + rng.below(24) };
        let initial = t.to_vec();
        t.copy_from_slice(&initial);
        let original = path_walk(&mut t[..], start, None, false, budget.min(2_000_000));
        let original_bytes = t.to_vec();
        for jumping in [false, true] {
            t.copy_from_slice(&initial);
            let mut walk = super::sync::Walk::with_budget(&mut t[..], budget);
            if jumping {
                walk = walk.jumping();
            }
            let new_result = walk.setup(start);
            let visits = walk.visits();
            drop(walk);
            match &original {
                PathWalk::Ended { result, .. } => {
                    assert!(visits <= budget, "{visits} visits, budget {budget}, tree {initial:?}");
                    assert_eq!(*result, new_result, "jumping {jumping}, budget {budget}, start {start}, tree {initial:?}");
                    assert_eq!(t.to_vec(), original_bytes, "jumping {jumping}, budget {budget}, start {start}, tree {initial:?}");
                    compared += 1;
                }
                PathWalk::Endless => cut += usize::from(visits > budget),
            }
        }
    }
    println!("{compared} walks within the budget compared, {cut} ran past it");
    assert!(compared > rounds, "{compared}");
    assert!(cut > rounds / 400, "{cut}");
}

#[test]
fn sync_walk_costs_at_most_the_budget_plus_linear_passes() {
        // small: the result of the path walk, which walks the Bs again after
    // every fill
    let mut t = cubic_tree(6);
    assert_eq!(compare_walks(&mut t, 0, None), (true, true));
    // the path walk's 2k³ visits: here about 3k², each fill putting the
    // parents back once
    for k in [40u16, 80] {
        let mut t = cubic_tree(k);
        let nodes = t.len() as u64;
        let mut walk = super::sync::Walk::with_budget(&mut t[..], u64::MAX);
        walk.setup(0).unwrap();
        let k2 = u64::from(k).pow(2);
        assert!(walk.visits() > k2 && walk.visits() < 4 * k2 + 8 * nodes, "k {k}: {} visits", walk.visits());
    }
    // past the budget: a bounded number of arrivals per node (under Miri,
    // which interprets every visit, a smaller tree and budget)
    let (k, budget) = if cfg!(miri) { (40, 2_000) } else { (3000, super::sync::REVISIT_BUDGET) };
    let mut t = cubic_tree(k);
    let nodes = t.len() as u64;
    let start = std::time::Instant::now();
    let mut walk = super::sync::Walk::with_budget(&mut t[..], budget);
    walk.setup(0).unwrap();
    assert!(walk.visits() > budget, "{}", walk.visits());
    assert!(walk.visits() <= budget + 8 * nodes, "{}", walk.visits());
    println!("k {k}: {} visits in {:?}", walk.visits(), start.elapsed());
}

#[test]
fn sync_walk_jumps_over_long_child_ranges() {
    // every parent lists every later node (65535 at most): 2^31 child slots,
    // of which the walk visits a few per node (under Miri, which interprets
    // every visit, 512 nodes; the ranges still run past the tree's end)
    let n: u16 = if cfg!(miri) { 0x200 } else { 0xffff };
    let mut t = zeroed_tree(u32::from(n));
    for i in 0..n - 1 {
        set_parent_node(&mut t, i, i + 1, 0xffff, 0);
    }
    let mut walk = super::sync::Walk::new(&mut t[..]);
    walk.setup(0).unwrap();
    assert!(walk.visits() < 4 * u64::from(n), "{}", walk.visits());
    drop(walk);
    // the same with a source in the middle whose fill reaches the rest:
    // the nested-sync error of its second parent child
    let middle = n / 2 + 1;
    set_parent_node(&mut t, middle, middle + 1, 0xffff, FLAG_SYNC_LOOPING);
    let before = t.to_vec();
    let mut walk = super::sync::Walk::new(&mut t[..]);
    let text = walk.setup(0);
    assert!(walk.visits() < 8 * u64::from(n), "{}", walk.visits());
    drop(walk);
    assert!(matches!(text, Err(SyncFailure::Nested { .. })), "{:?}", text);
    t.copy_from_slice(&before);
}

/// A random tree as the `.atr` loader lays one out (each parent's children
/// one block after the blocks of the earlier subtrees, depth first) or
/// breadth first, with sync bits, leaves of every looped byte and some
/// ranges running past the end of the tree.
fn random_forest(rng: &mut Rng, n: u32, depth_first: bool) -> Vec<PlainNode> {
    let mut t = zeroed_tree(n);
    let mut next_free = 1u32;
    let mut todo = std::collections::VecDeque::from([0u32]);
    while let Some(i) = if depth_first { todo.pop_back() } else { todo.pop_front() } {
        let room = n.saturating_sub(next_free);
        if room == 0 || rng.below(4) == 0 {
            match rng.below(4) {
                0 => {}
                k => set_leaf_node(&mut t, i as u16, [LOOP, ONCE, TWICE][k as usize - 1]),
            }
            continue;
        }
        let count = 1 + rng.below(u64::from(room.min(5))) as u32;
        let past_end = if next_free + count == n && rng.below(4) == 0 { 2 } else { 0 };
        let flags = [0, 0, 0, 0, 0, FLAG_SYNC_LOOPING, FLAG_SYNC_NON_LOOPING, FLAG_SYNC_MASK][rng.below(8) as usize]
            | if rng.below(8) == 0 { FLAG_NOTIFY_SOURCE } else { 0 };
        set_parent_node(&mut t, i as u16, next_free as u16, (count + past_end) as u16, flags);
        let children = next_free..next_free + count;
        next_free += count;
        if depth_first {
            todo.extend(children.rev());
        } else {
            todo.extend(children);
        }
    }
    t
}

#[test]
fn forest_walk_equals_the_path_walk_and_the_bounded_walk() {
        let mut rng = Rng::new(0x6a09_e667_f3bc_c908);
    let (mut runs, mut raised) = (0, 0);
    for round in 0..crate::rounds(6_000) {
        let n = 1 + (round % 40) as u32;
        let mut t = random_forest(&mut rng, n, round % 2 == 0);
        let start = if rng.below(4) == 0 { rng.below(u64::from(n) + 1) as u32 } else { 0 };
        let fill = match rng.below(8) {
            0 => Some(rng.below(3) as u8),
            _ => None,
        };
        let initial = t.to_vec();
        assert!(super::sync::is_forest(&t[..]), "tree {initial:?}");
        let forest = super::sync::walk_forest(&mut t[..], start, fill);
        let forest_bytes = t.to_vec();
        t.copy_from_slice(&initial);
        match path_walk(&mut t[..], start, fill, false, u64::MAX) {
            PathWalk::Ended { result, .. } => assert_eq!(result, forest, "tree {initial:?}"),
            PathWalk::Endless => std::panic!("a forest's path walk ends"),
        }
        assert_eq!(t.to_vec(), forest_bytes, "tree {initial:?}");
        t.copy_from_slice(&initial);
        let mut walk = super::sync::Walk::with_budget(&mut t[..], u64::MAX);
        let bounded = match fill {
            None => walk.setup(start),
            Some(r) => walk.fill(start, r),
        };
        drop(walk);
        assert_eq!(bounded, forest, "tree {initial:?}");
        assert_eq!(t.to_vec(), forest_bytes, "tree {initial:?}");
        runs += 1;
        raised += usize::from(forest.is_err());
    }
    assert!(raised > runs / 10 && raised < runs * 9 / 10, "{raised} of {runs}");
}

#[test]
fn forest_walk_only_on_one_path_to_each_node() {
        // two parents share a child; a child before its parent; a parent its
    // own child: the bounded walk's trees
    for (ranges, forest) in [
        (&[(1u16, 2u16), (2, 1)][..], false),
        (&[(1, 1), (3, 1), (0, 0), (2, 1)][..], false),
        (&[(0, 1)][..], false),
        (&[(1, 2), (3, 1), (4, 1)][..], true),
        (&[(2, 2), (4, 9)][..], true),
    ] {
        let mut t = zeroed_tree(6);
        for (i, &(first, count)) in ranges.iter().enumerate() {
            if count != 0 {
                set_parent_node(&mut t, i as u16, first, count, 0);
            }
        }
        for i in ranges.len()..6 {
            set_leaf_node(&mut t, i as u16, LOOP);
        }
        let before = t.to_vec();
        assert_eq!(super::sync::is_forest(&t[..]), forest, "{ranges:?}");
        assert_eq!(t.to_vec(), before, "nothing written");
    }
    // a chain deeper than the inline stack, and ranges over word bounds
    let mut t = zeroed_tree(3000);
    for i in 0..2999u16 {
        set_parent_node(&mut t, i, i + 1, 1, if i == 1000 { FLAG_SYNC_NON_LOOPING } else { 0 });
    }
    set_leaf_node(&mut t, 2999, ONCE);
    assert!(super::sync::is_forest(&t[..]));
    assert_eq!(super::sync::walk_forest(&mut t[..], 0, None), Ok(()));
    assert_eq!(flags(&t, 1000), FLAG_SYNC_NON_LOOPING | FLAG_NOTIFY_SOURCE);
    assert_eq!(flags(&t, 2998), FLAG_SYNC_NON_LOOPING);
    let mut w = zeroed_tree(200);
    set_parent_node(&mut w, 0, 1, 130, FLAG_SYNC_LOOPING);
    set_parent_node(&mut w, 1, 131, 69, 0);
    assert!(super::sync::is_forest(&w[..]));
    assert_eq!(super::sync::walk_forest(&mut w[..], 0, None), Ok(()));
    assert_eq!(flags(&w, 1), FLAG_SYNC_LOOPING);
    set_parent_node(&mut w, 2, 190, 10, 0);
    assert!(!super::sync::is_forest(&w[..]));
}
