//! The previous sync walk, kept for the tests: the original's two
//! recursive functions unrolled onto a stack, walking every path. With
//! `depth_guard` it is the walk the library shipped before (a path longer
//! than the tree stops descending); without it, it is the original's
//! recursion exactly, which runs for ever round a cycle: `budget` bounds
//! its steps, and its path depth is bounded too (the original's stack).

use super::super::{nested_sync, Nodes, SyncFailure, FLAG_NOTIFY_SOURCE, FLAG_SYNC_LOOPING, FLAG_SYNC_MASK, FLAG_SYNC_NON_LOOPING};
use std::prelude::rust_2021::*;

#[derive(Clone, Copy)]
enum SyncStep {
    Setup { index: u32, depth: u32 },
    Fill { index: u32, require_looping: u8 },
}

/// How the path walk ended.
#[derive(Debug)]
pub enum PathWalk {
    /// It ended with this result; `guard_fired`: the depth guard cut a path.
    Ended { result: Result<(), SyncFailure>, guard_fired: bool },
    /// It ran out of steps or of stack (the original does not end).
    Endless,
}

/// `XAnimSetupSyncNodes_r` (`fill == None`) or `XAnimFillInSyncNodes_r`,
/// the path walk.
pub fn path_walk<N: Nodes + ?Sized>(nodes: &mut N, start: u32, fill: Option<u8>, depth_guard: bool, budget: u64) -> PathWalk {
    let node_count = nodes.len() as u32;
    let mut stack = vec![match fill {
        None => SyncStep::Setup { index: start, depth: 0 },
        Some(require_looping) => SyncStep::Fill { index: start, require_looping },
    }];
    let mut steps = 0u64;
    let mut guard_fired = false;
    let ended = |result: Result<(), SyncFailure>, guard_fired: bool| PathWalk::Ended { result, guard_fired };
    while let Some(step) = stack.pop() {
        steps += 1;
        if steps > budget {
            return PathWalk::Endless;
        }
        match step {
            SyncStep::Setup { index, depth } => {
                let Some(entry) = nodes.node(index) else { continue };
                if entry.child_count == 0 {
                    continue;
                }
                if depth > node_count {
                    if depth_guard {
                        guard_fired = true;
                        continue;
                    }
                    if depth > 64 * (node_count + 1) {
                        return PathWalk::Endless;
                    }
                }
                let sync = entry.flags & FLAG_SYNC_MASK;
                let count = u32::from(entry.child_count);
                let first_child = u32::from(entry.first_child);
                if sync == 0 {
                    for child in (0..count).rev() {
                        stack.push(SyncStep::Setup { index: first_child + child, depth: depth + 1 });
                    }
                    continue;
                }
                if sync == FLAG_SYNC_MASK {
                    return ended(Err(SyncFailure::Both), guard_fired);
                }
                nodes.set_flags(index, entry.flags | FLAG_NOTIFY_SOURCE);
                let require_looping = u8::from(sync == FLAG_SYNC_LOOPING);
                for child in (0..count).rev() {
                    stack.push(SyncStep::Fill { index: first_child + child, require_looping });
                }
            }
            SyncStep::Fill { index, require_looping } => {
                let Some(entry) = nodes.node(index) else { continue };
                if entry.child_count == 0 {
                    if let Some(looped) = nodes.looped(index) {
                        if looped != require_looping {
                            let failure = SyncFailure::Leaf { leaf: index, looping: require_looping != 0 };
                            return ended(Err(failure), guard_fired);
                        }
                    }
                    continue;
                }
                if entry.flags & FLAG_SYNC_MASK != 0 {
                    return ended(Err(nested_sync(&*nodes, index)), guard_fired);
                }
                let bit = if require_looping != 0 { FLAG_SYNC_LOOPING } else { FLAG_SYNC_NON_LOOPING };
                nodes.set_flags(index, entry.flags | bit);
                let first_child = u32::from(entry.first_child);
                for child in (0..u32::from(entry.child_count)).rev() {
                    stack.push(SyncStep::Fill { index: first_child + child, require_looping });
                }
            }
        }
    }
    ended(Ok(()), guard_fired)
}
