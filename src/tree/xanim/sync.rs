//! The sync setup walk (`XAnimSetupSyncNodes_r`, `XAnimFillInSyncNodes_r`).
//!
//! The original is two mutually recursive functions that walk every *path*
//! from the start node: on a hand-built tree whose parents share children
//! (a DAG) that is exponential in the node count, and on a cycle it never
//! ends. This walk writes the same flags and raises the same diagnostic on
//! every tree on which the original ends, by knowing when walking a subtree
//! again cannot change anything:
//!
//! * the state is the flags word of each parent; a fill only ever adds a
//!   sync bit to a parent that has none, so a parent is filled at most once
//!   (a second fill meets its bit and raises the nested-sync error), and the
//!   only other write is the notify bit;
//! * a *source* (a parent with a sync bit met by the setup) whose children
//!   were already filled under its requirement — by its own first visit or
//!   by the fill that gave it its bit — gives, when met again: its notify
//!   bit, the leaf checks that passed before, and the nested-sync error at
//!   its first child that is a parent (which has its bit now), if any;
//! * a parent without sync bit whose subtree was walked completely with no
//!   fill during that walk and no fill anywhere since is in the state the
//!   walk left, so walking it again writes nothing and raises nothing: it
//!   is skipped. Otherwise it is walked again (at most once per fill: such a
//!   second walk meets only sources already filled, so it fills nothing).
//!
//! That alone costs up to (fills + 1) × (nodes + child slots), cubic in the
//! node count on a dense tree with many sources. So the walks again of the
//! last rule have a budget: every node this walk arrives at is one the
//! original arrives at too (it only leaves out what the original repeats),
//! so on a tree the original walks in at most [`REVISIT_BUDGET`] node
//! visits this walk never runs out of it and its result is the original's.
//! Past the budget a completely walked parent is not walked again, and the
//! rest of the setup is linear: the whole setup costs at most the budget
//! plus a few passes over the nodes and child slots — linear in the size of
//! the tree, at worst quadratic in its node count (docs/DIVERGENCES.md).
//!
//! A cycle of parents without sync bits: the original recurses round it
//! until its stack overflows, after a second lap in which nothing can be
//! filled any more (a fill that reaches a cycle meets its own bit). That lap
//! can raise a diagnostic (a source met again); the walk runs it once, as a
//! plain depth-first search, and when the lap comes round without one, the
//! setup ends there without a diagnostic (docs/DIVERGENCES.md).
//!
//! Nothing here calls the engine; the walk's own vectors are dropped before
//! the caller converts a failure into `Com_Error`.
// Failures carry their text inline (no heap), by design of crate::error.
#![allow(clippy::result_large_err)]

use alloc::vec;
use alloc::vec::Vec;
use super::{
    duplicate_sync, leaf_name, leaf_parts, parent_view, XAnimMut, FLAG_NOTIFY_SOURCE, FLAG_SYNC_LOOPING,
    FLAG_SYNC_MASK, FLAG_SYNC_NON_LOOPING,
};
use crate::abi::xanim::XAnimEntry;
use crate::error::{Failure, Outcome};

/// Child indices are `firstChildIndex + k` with two 16-bit operands, so no
/// node at or above this index is ever reached as a child (only as the
/// start node, which is never met again).
const REACHABLE: usize = 0xffff + 0xffff + 1;

/// Walk marks of parents without sync bit (`marks`).
const UNSEEN: u32 = u32::MAX;
/// On the current path.
const OPEN: u32 = u32::MAX - 1;
/// Walked completely, with fills during that walk.
const STALE: u32 = u32::MAX - 2;
// Any other value: walked completely with no fill, when the fill count was
// that value.

/// Fill state of parents (`filled`): children not filled (yet).
const NOT_FILLED: u32 = u32::MAX;
/// Children filled, none of them is a parent.
const NO_PARENT_CHILD: u32 = u32::MAX - 1;
// Any other value: children filled, this is the first that is a parent.

/// Node visits (setup arrivals and fill steps) after which a completely
/// walked parent is no longer walked again: 2^25, about a tenth of a second
/// of the original's walk.
pub(super) const REVISIT_BUDGET: u64 = 1 << 25;

/// One parent on the current path of the setup walk.
#[derive(Clone, Copy)]
struct Frame {
    index: u32,
    /// Next child to visit, and the end of the child range (cut to the tree).
    next: u32,
    end: u32,
    /// The fill count when the parent was entered.
    fills_at_entry: u32,
}

/// What arriving at a node asks of the setup walk.
enum Arrival {
    /// Nothing more (leaf, outside the tree, source handled, subtree skipped).
    Done,
    /// Walk the children of this parent.
    Descend(Frame),
    /// The node is on the current path: a cycle.
    Cycle,
}

pub(super) struct Walk<'a> {
    /// The tree's name (for the diagnostics) and its entries.
    name: &'a [u8],
    entries: &'a mut [XAnimEntry],
    marks: Vec<u32>,
    filled: Vec<u32>,
    /// Parents filled so far.
    fills: u32,
    fill_stack: Vec<u32>,
    /// Node visits so far, and the budget for them.
    visits: u64,
    budget: u64,
}

impl<'a> Walk<'a> {
    pub(super) fn new(tree: &'a mut XAnimMut<'_>) -> Self {
        Self::with_budget(tree, REVISIT_BUDGET)
    }

    /// A walk whose walks again stop after `budget` node visits (the tests
    /// use small budgets).
    pub(super) fn with_budget(tree: &'a mut XAnimMut<'_>, budget: u64) -> Self {
        let (name, entries) = tree.split();
        let slots = entries.len().min(REACHABLE);
        Walk {
            name,
            entries,
            marks: vec![UNSEEN; slots],
            filled: vec![NOT_FILLED; slots],
            fills: 0,
            fill_stack: Vec::new(),
            visits: 0,
            budget,
        }
    }

    /// Node visits so far.
    #[cfg(test)]
    pub(super) fn visits(&self) -> u64 {
        self.visits
    }

    fn mark(&self, index: u32) -> u32 {
        self.marks.get(index as usize).copied().unwrap_or(UNSEEN)
    }

    fn set_mark(&mut self, index: u32, mark: u32) {
        if let Some(m) = self.marks.get_mut(index as usize) {
            *m = mark;
        }
    }

    fn set_filled(&mut self, index: u32, first_parent_child: u32) {
        if let Some(f) = self.filled.get_mut(index as usize) {
            *f = first_parent_child;
        }
    }

    /// A parent's child range, cut to the tree (the original's calls for
    /// children outside it do nothing).
    fn children(&self, entry: &XAnimEntry) -> (u32, u32) {
        let first = u32::from(parent_view(entry).firstChildIndex);
        let end = (first + u32::from(entry.childCount)).min(self.entries.len() as u32);
        (first, end.max(first))
    }

    /// The first child in `first..end` that is a parent.
    fn first_parent_child(&self, first: u32, end: u32) -> u32 {
        (first..end).find(|&c| self.entries[c as usize].childCount != 0).unwrap_or(NO_PARENT_CHILD)
    }

    /// `XAnimFillInSyncNodes_r(index, require_looping)`, depth first in
    /// child order.
    pub(super) fn fill(&mut self, index: u32, require_looping: u8) -> Outcome<()> {
        let mut stack = core::mem::take(&mut self.fill_stack);
        stack.clear();
        stack.push(index);
        let result = self.fill_from(&mut stack, require_looping);
        self.fill_stack = stack;
        result
    }

    fn fill_from(&mut self, stack: &mut Vec<u32>, require_looping: u8) -> Outcome<()> {
        while let Some(index) = stack.pop() {
            self.visits += 1;
            let Some(entry) = self.entries.get(index as usize) else { continue };
            if entry.childCount == 0 {
                check_leaf(self.name, entry, require_looping)?;
                continue;
            }
            let parent = parent_view(entry);
            if parent.flags & FLAG_SYNC_MASK != 0 {
                return Err(duplicate_sync(self.name, self.entries, index));
            }
            let bit = if require_looping != 0 { FLAG_SYNC_LOOPING } else { FLAG_SYNC_NON_LOOPING };
            let (first, end) = self.children(entry);
            self.entries[index as usize].payload.parent.flags = parent.flags | bit;
            self.fills += 1;
            let first_parent = self.first_parent_child(first, end);
            self.set_filled(index, first_parent);
            stack.extend((first..end).rev());
        }
        Ok(())
    }

    /// `XAnimSetupSyncNodes_r(start)`.
    pub(super) fn setup(&mut self, start: u32) -> Outcome<()> {
        let mut path: Vec<Frame> = Vec::new();
        match self.arrive(start)? {
            Arrival::Descend(frame) => path.push(frame),
            Arrival::Done | Arrival::Cycle => return Ok(()),
        }
        while let Some(top) = path.last_mut() {
            if top.next < top.end {
                let child = top.next;
                top.next += 1;
                match self.arrive(child)? {
                    Arrival::Done => {}
                    Arrival::Descend(frame) => path.push(frame),
                    Arrival::Cycle => return self.last_lap(child),
                }
            } else {
                let mark = if top.fills_at_entry == self.fills { self.fills } else { STALE };
                let index = top.index;
                path.pop();
                self.set_mark(index, mark);
            }
        }
        Ok(())
    }

    /// The setup walk arriving at `index`.
    fn arrive(&mut self, index: u32) -> Outcome<Arrival> {
        self.visits += 1;
        let Some(entry) = self.entries.get(index as usize) else { return Ok(Arrival::Done) };
        if entry.childCount == 0 {
            return Ok(Arrival::Done);
        }
        let sync = parent_view(entry).flags & FLAG_SYNC_MASK;
        if sync == FLAG_SYNC_MASK {
            return Err(Failure::drop(b"\x15animation cannot be sync looping and sync nonlooping"));
        }
        if sync != 0 {
            self.source(index, sync)?;
            return Ok(Arrival::Done);
        }
        match self.mark(index) {
            OPEN => return Ok(Arrival::Cycle),
            UNSEEN => {}
            // Past the budget, no parent is walked twice.
            _ if self.visits > self.budget => return Ok(Arrival::Done),
            STALE => {}
            // Walked with no fill during or since: nothing would change.
            clean if clean == self.fills => return Ok(Arrival::Done),
            _ => {}
        }
        let (first, end) = self.children(entry);
        self.set_mark(index, OPEN);
        Ok(Arrival::Descend(Frame { index, next: first, end, fills_at_entry: self.fills }))
    }

    /// A parent with one sync bit met by the setup: notify bit, then its
    /// children are filled in.
    fn source(&mut self, index: u32, sync: u16) -> Outcome<()> {
        let entry = self.entries[index as usize];
        self.entries[index as usize].payload.parent.flags = parent_view(&entry).flags | FLAG_NOTIFY_SOURCE;
        let (first, end) = self.children(&entry);
        match self.filled.get(index as usize).copied().unwrap_or(NOT_FILLED) {
            NOT_FILLED => {}
            // Filled before under this bit's requirement: the leaves before
            // the first parent child pass again, and that child has its bit.
            NO_PARENT_CHILD => return Ok(()),
            child => return Err(duplicate_sync(self.name, self.entries, child)),
        }
        let first_parent = self.first_parent_child(first, end);
        self.set_filled(index, first_parent);
        let require_looping = u8::from(sync == FLAG_SYNC_LOOPING);
        for child in first..end {
            self.fill(child, require_looping)?;
        }
        Ok(())
    }

    /// The second lap round a cycle met at `index` (a parent on the current
    /// path): a depth-first search from it in which nothing can be filled;
    /// meeting a parent again that is on the lap's own path is where the
    /// original would recurse for ever: the setup ends there.
    fn last_lap(&mut self, index: u32) -> Outcome<()> {
        const WHITE: u8 = 0;
        const GREY: u8 = 1;
        const BLACK: u8 = 2;
        let mut colour = vec![WHITE; self.marks.len()];
        let mut path: Vec<(u32, u32, u32)> = Vec::new();
        let mut next = Some(index);
        loop {
            if let Some(node) = next.take() {
                if let Some(entry) = self.entries.get(node as usize) {
                    if entry.childCount != 0 {
                        let sync = parent_view(entry).flags & FLAG_SYNC_MASK;
                        if sync == FLAG_SYNC_MASK {
                            return Err(Failure::drop(b"\x15animation cannot be sync looping and sync nonlooping"));
                        }
                        if sync != 0 {
                            self.source(node, sync)?;
                        } else {
                            match colour.get(node as usize).copied().unwrap_or(WHITE) {
                                GREY => return Ok(()),
                                BLACK => {}
                                _ => {
                                    let (first, end) = self.children(entry);
                                    if let Some(c) = colour.get_mut(node as usize) {
                                        *c = GREY;
                                    }
                                    path.push((node, first, end));
                                }
                            }
                        }
                    }
                }
            }
            let Some(top) = path.last_mut() else { return Ok(()) };
            if top.1 < top.2 {
                next = Some(top.1);
                top.1 += 1;
            } else {
                if let Some(c) = colour.get_mut(top.0 as usize) {
                    *c = BLACK;
                }
                path.pop();
            }
        }
    }
}

/// The fill's leaf check: the raw `looped` byte must equal the requirement.
/// A leaf without loaded asset is not checked (the original dereferences
/// it).
fn check_leaf(tree_name: &[u8], entry: &XAnimEntry, require_looping: u8) -> Outcome<()> {
    let Some(parts) = leaf_parts(entry) else { return Ok(()) };
    // Quirk: the raw byte must equal the requirement, so a looped byte of 2
    // fails under both sync kinds.
    if parts.looped == require_looping {
        return Ok(());
    }
    let which: &[u8] =
        if require_looping != 0 { b"' cannot be sync looping and nonlooping" } else { b"' cannot be sync nonlooping and looping" };
    Err(Failure::drop(
        super::concat(&[b"\x15animation '", leaf_name(entry), b"' in '", tree_name, which]).as_bytes(),
    ))
}

#[cfg(test)]
pub(super) mod reference;
