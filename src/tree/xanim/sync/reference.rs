//! The previous sync walk, kept for the tests: the original's two
//! recursive functions unrolled onto a stack, walking every path. With
//! `depth_guard` it is the walk the library shipped before (a path longer
//! than the tree stops descending); without it, it is the original's
//! recursion exactly, which runs for ever round a cycle: `budget` bounds
//! its steps, and its path depth is bounded too (the original's stack).

use super::super::{
    duplicate_sync, leaf_name, leaf_parts, parent_view, XAnimMut, FLAG_NOTIFY_SOURCE, FLAG_SYNC_LOOPING,
    FLAG_SYNC_MASK, FLAG_SYNC_NON_LOOPING,
};
use crate::error::Failure;

#[derive(Clone, Copy)]
enum SyncStep {
    Setup { index: u32, depth: u32 },
    Fill { index: u32, require_looping: u8 },
}

/// How the path walk ended.
#[derive(Debug)]
pub enum PathWalk<'n> {
    /// It ended with this result; `guard_fired`: the depth guard cut a path.
    Ended { result: Result<(), Failure<'n>>, guard_fired: bool },
    /// It ran out of steps or of stack (the original does not end).
    Endless,
}

/// `XAnimSetupSyncNodes_r` (`fill == None`) or `XAnimFillInSyncNodes_r`,
/// the path walk.
pub fn path_walk<'n>(tree: &mut XAnimMut<'n>, start: u32, fill: Option<u8>, depth_guard: bool, budget: u64) -> PathWalk<'n> {
    let (name, entries) = tree.split();
    let node_count = entries.len() as u32;
    let mut stack = vec![match fill {
        None => SyncStep::Setup { index: start, depth: 0 },
        Some(require_looping) => SyncStep::Fill { index: start, require_looping },
    }];
    let mut steps = 0u64;
    let mut guard_fired = false;
    let ended = |result: Result<(), Failure<'n>>, guard_fired: bool| PathWalk::Ended { result, guard_fired };
    while let Some(step) = stack.pop() {
        steps += 1;
        if steps > budget {
            return PathWalk::Endless;
        }
        match step {
            SyncStep::Setup { index, depth } => {
                let Some(entry) = entries.get_mut(index as usize) else { continue };
                if entry.childCount == 0 {
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
                let parent = parent_view(entry);
                let sync = parent.flags & FLAG_SYNC_MASK;
                let count = u32::from(entry.childCount);
                let first_child = u32::from(parent.firstChildIndex);
                if sync == 0 {
                    for child in (0..count).rev() {
                        stack.push(SyncStep::Setup { index: first_child + child, depth: depth + 1 });
                    }
                    continue;
                }
                if sync == FLAG_SYNC_MASK {
                    return ended(Err(Failure::SyncBoth), guard_fired);
                }
                entry.payload.parent.flags = parent.flags | FLAG_NOTIFY_SOURCE;
                let require_looping = u8::from(sync == FLAG_SYNC_LOOPING);
                for child in (0..count).rev() {
                    stack.push(SyncStep::Fill { index: first_child + child, require_looping });
                }
            }
            SyncStep::Fill { index, require_looping } => {
                let Some(entry) = entries.get_mut(index as usize) else { continue };
                if entry.childCount == 0 {
                    // SAFETY: a leaf of the tree under the walk's view.
                    if let Some(parts) = unsafe { leaf_parts(entry) } {
                        if parts.looped != require_looping {
                            let failure = Failure::SyncLeaf { leaf: unsafe { leaf_name(entry) }, tree: name, looping: require_looping != 0 };
                            return ended(Err(failure), guard_fired);
                        }
                    }
                    continue;
                }
                let parent = parent_view(entry);
                if parent.flags & FLAG_SYNC_MASK != 0 {
                    return ended(Err(duplicate_sync(name, entries, index)), guard_fired);
                }
                let bit = if require_looping != 0 { FLAG_SYNC_LOOPING } else { FLAG_SYNC_NON_LOOPING };
                entry.payload.parent.flags = parent.flags | bit;
                let first_child = u32::from(parent.firstChildIndex);
                for child in (0..u32::from(entry.childCount)).rev() {
                    stack.push(SyncStep::Fill { index: first_child + child, require_looping });
                }
            }
        }
    }
    ended(Ok(()), guard_fired)
}
