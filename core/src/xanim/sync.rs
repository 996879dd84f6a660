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
//! That alone can add up to (fills + 1) × nodes arrivals on a tree with
//! many sources. So the walks again of the last rule have a budget: every
//! node this walk arrives at is one the original arrives at too (it only
//! leaves out what the original repeats), so on a tree the original walks
//! in at most [`REVISIT_BUDGET`] node visits this walk never runs out of it
//! and its result is the original's. Past the budget a completely walked
//! parent is not walked again (docs/DIVERGENCES.md).
//!
//! Child ranges can be long (up to 65535 children per parent, shared by
//! every parent), so no walk steps through a long range child by child:
//! from the first range longer than [`SHORT_RANGE`] on, the walk keeps the
//! set of nodes that arriving at could still do something ([`NodeSet`],
//! with a next-member search in three word steps) and jumps from one to the
//! next (a tree of short ranges, as every `.atr` tree, makes no set). Arriving at a leaf, at a parent that would be
//! skipped or at a source already filled without parent child does
//! nothing, and such a node leaves the set; the fill skips leaves that
//! passed its check. A fill before the budget is spent puts the parents
//! taken out back. So a walk costs its arrivals, not its child slots: past
//! the budget every node is arrived at a bounded number of times, and the
//! whole setup costs at most the budget plus a pass linear in the node
//! count, whatever the child counts.
//!
//! A cycle of parents without sync bits: the original recurses round it
//! until its stack overflows, after a second lap in which nothing can be
//! filled any more (a fill that reaches a cycle meets its own bit). That lap
//! can raise a diagnostic (a source met again); the walk runs it once, as a
//! plain depth-first search, and when the lap comes round without one, the
//! setup ends there without a diagnostic (docs/DIVERGENCES.md).
//!
//! A tree in which no node has two parents and every child comes after its
//! parent (every tree of fewer than 65536 nodes the `.atr` loader builds)
//! has one path to each node: there the original walks each node once, and
//! [`walk_forest`] is its recursion, unrolled, after one pass that checks
//! the child ranges ([`is_forest`]); no visit budget, marks or node sets
//! are needed.
//!
//! Nothing here calls the engine; the walk's own vectors are dropped before
//! the caller converts a failure into `Com_Error`. Its failures name nodes
//! by index (the caller reads their names).

use alloc::vec;
use alloc::vec::Vec;
use super::{nested_sync, Node, Nodes, SyncFailure, FLAG_NOTIFY_SOURCE, FLAG_SYNC_LOOPING, FLAG_SYNC_MASK, FLAG_SYNC_NON_LOOPING};

/// A result of the walk.
type Walked<T> = Result<T, SyncFailure>;

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
/// walked parent is no longer walked again: 2^24, some tenths of a second
/// of this walk, and at least a tenth of the original's.
pub(super) const REVISIT_BUDGET: u64 = 1 << 24;

/// A set of node indices below a capacity, with the next member at or
/// after an index found in three word steps: a 64-ary tree of bit words in
/// one buffer, level 0 the members, each bit of level k + 1 saying whether a
/// word of level k is not zero.
#[derive(Clone)]
struct NodeSet {
    words: Vec<u64>,
    /// Where each level starts in `words` (and where the last ends).
    start: [usize; 4],
}

impl NodeSet {
    /// The indices below `capacity` (at most 64³) for which `member` holds.
    fn from_fn(capacity: usize, mut member: impl FnMut(usize) -> bool) -> Self {
        let mut set = Self::empty(capacity);
        for i in 0..capacity {
            set.words[i / 64] |= u64::from(member(i)) << (i % 64);
        }
        set.summarise();
        set
    }

    /// Every index below `capacity`.
    fn full(capacity: usize) -> Self {
        let mut set = Self::empty(capacity);
        set.words[..capacity / 64].fill(u64::MAX);
        if !capacity.is_multiple_of(64) {
            set.words[capacity / 64] = (1u64 << (capacity % 64)) - 1;
        }
        set.summarise();
        set
    }

    fn empty(capacity: usize) -> Self {
        let mut start = [0usize; 4];
        let mut n = capacity;
        for k in 0..3 {
            n = n.div_ceil(64).max(1);
            start[k + 1] = start[k] + n;
        }
        NodeSet { words: vec![0; start[3]], start }
    }

    /// The levels above the members, from the members.
    fn summarise(&mut self) {
        for k in 1..3 {
            let (low, high) = self.words.split_at_mut(self.start[k]);
            high[..self.start[k + 1] - self.start[k]].fill(0);
            for (w, &word) in low[self.start[k - 1]..].iter().enumerate() {
                high[w / 64] |= u64::from(word != 0) << (w % 64);
            }
        }
    }

    fn capacity(&self) -> usize {
        self.start[1] * 64
    }

    fn insert(&mut self, index: u32) {
        let mut i = index as usize;
        if i >= self.capacity() {
            return;
        }
        for k in 0..3 {
            self.words[self.start[k] + i / 64] |= 1 << (i % 64);
            i /= 64;
        }
    }

    fn remove(&mut self, index: u32) {
        let mut i = index as usize;
        if i >= self.capacity() {
            return;
        }
        for k in 0..3 {
            let word = &mut self.words[self.start[k] + i / 64];
            *word &= !(1 << (i % 64));
            if *word != 0 {
                return;
            }
            i /= 64;
        }
    }

    /// The first member in `from..end`.
    #[inline]
    fn next_in(&self, from: u32, end: u32) -> Option<u32> {
        let found = self.next(from as usize)?;
        (found < end as usize).then_some(found as u32)
    }

    fn next(&self, from: usize) -> Option<usize> {
        if from >= self.capacity() {
            return None;
        }
        // the members at or after `from` in its own word, then upwards: the
        // first later non-zero word, then down to its lowest member
        let mut i = from;
        let mut k = 0;
        loop {
            let word = self.words[self.start[k] + i / 64] & (u64::MAX << (i % 64));
            if word != 0 {
                i = (i / 64) * 64 + word.trailing_zeros() as usize;
                break;
            }
            k += 1;
            i = i / 64 + 1;
            if k == 3 || i >= (self.start[k + 1] - self.start[k]) * 64 {
                return None;
            }
        }
        while k > 0 {
            k -= 1;
            i = i * 64 + self.words[self.start[k] + i].trailing_zeros() as usize;
        }
        Some(i)
    }
}

/// A child range at most this long is stepped through child by child: a
/// tree whose ranges are all short makes no [`NodeSet`].
const SHORT_RANGE: u32 = 64;

/// The node sets of a walk (below [`REACHABLE`]).
struct Jumps {
    /// The tree's parents.
    parents: NodeSet,
    /// The setup's (and the last lap's) nodes worth arriving at, all of
    /// them parents.
    todo: NodeSet,
    /// Per requirement (nonlooping, looping): the nodes a fill must still
    /// visit (leaves that passed its check are out).
    fill: [Option<NodeSet>; 2],
}

impl Jumps {
    /// Every parent is worth arriving at again (a word per 64 nodes).
    fn every_parent_to_do(&mut self) {
        self.todo.words.copy_from_slice(&self.parents.words);
    }
}

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

pub(super) struct Walk<'a, N: Nodes + ?Sized> {
    /// The tree's nodes.
    nodes: &'a mut N,
    marks: Vec<u32>,
    filled: Vec<u32>,
    /// Parents filled so far.
    fills: u32,
    /// The fill's path: the child ranges still to fill.
    fill_stack: Vec<(u32, u32)>,
    /// Node visits so far, and the budget for them.
    visits: u64,
    budget: u64,
    /// The sets the walks jump with, made at the first child range longer
    /// than `short_range`.
    jumps: Option<Jumps>,
    short_range: u32,
    /// Parents were taken out of `jumps.todo` since it was last every
    /// parent; a fill since then makes them worth arriving at again (while
    /// the budget lasts).
    taken_out: bool,
    refill: bool,
}

impl<'a, N: Nodes + ?Sized> Walk<'a, N> {
    pub(super) fn new(nodes: &'a mut N) -> Self {
        Self::with_budget(nodes, REVISIT_BUDGET)
    }

    /// A walk whose walks again stop after `budget` node visits (the tests
    /// use small budgets).
    pub(super) fn with_budget(nodes: &'a mut N, budget: u64) -> Self {
        let slots = nodes.len().min(REACHABLE);
        Walk {
            nodes,
            marks: vec![UNSEEN; slots],
            filled: vec![NOT_FILLED; slots],
            fills: 0,
            fill_stack: Vec::new(),
            visits: 0,
            budget,
            jumps: None,
            short_range: SHORT_RANGE,
            taken_out: false,
            refill: false,
        }
    }

    /// The same walk jumping through every child range (the tests compare
    /// both ways of walking).
    #[cfg(test)]
    pub(super) fn jumping(mut self) -> Self {
        self.short_range = 0;
        self
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
    fn children(&self, node: Node) -> (u32, u32) {
        let first = u32::from(node.first_child);
        let end = (first + u32::from(node.child_count)).min(self.nodes.len() as u32);
        (first, end.max(first))
    }

    /// The first child in `first..end` that is a parent.
    fn first_parent_child(&mut self, first: u32, end: u32) -> u32 {
        let found = if self.steps_through(first, end) {
            (first..end).find(|&c| self.nodes.node(c).is_some_and(|n| n.child_count != 0))
        } else {
            self.jumps().parents.next_in(first, end)
        };
        found.unwrap_or(NO_PARENT_CHILD)
    }

    #[inline]
    fn over_budget(&self) -> bool {
        self.visits > self.budget
    }

    /// The walk's node sets, made at the first need: every parent is worth
    /// arriving at (a node set is only ever a superset of what matters).
    fn jumps(&mut self) -> &mut Jumps {
        let slots = self.nodes.len().min(REACHABLE);
        let nodes = &*self.nodes;
        self.jumps.get_or_insert_with(|| {
            let parents = NodeSet::from_fn(slots, |i| nodes.node(i as u32).is_some_and(|n| n.child_count != 0));
            Jumps { todo: parents.clone(), parents, fill: [None, None] }
        })
    }

    /// Whether the range `from..end` is stepped through child by child: it is
    /// short, and no node set was made yet.
    #[inline]
    fn steps_through(&self, from: u32, end: u32) -> bool {
        end - from <= self.short_range && self.jumps.is_none()
    }

    /// The next child in `from..end` the setup (or the last lap) arrives at.
    #[inline]
    fn next_arrival(&mut self, from: u32, end: u32) -> Option<u32> {
        if from >= end {
            return None;
        }
        if self.steps_through(from, end) {
            return Some(from);
        }
        self.jumps().todo.next_in(from, end)
    }

    /// The next child in `from..end` a fill under `require_looping` visits.
    #[inline]
    fn next_fill(&mut self, require_looping: u8, from: u32, end: u32) -> Option<u32> {
        if from >= end {
            return None;
        }
        if self.steps_through(from, end) {
            return Some(from);
        }
        let capacity = self.nodes.len().min(REACHABLE);
        let set = self.jumps().fill[usize::from(require_looping != 0)].get_or_insert_with(|| NodeSet::full(capacity));
        set.next_in(from, end)
    }

    /// Arriving at `index` does nothing (until the next fill, for a parent
    /// skipped because there was none since its walk).
    #[inline]
    fn take_out(&mut self, index: u32) {
        if let Some(jumps) = &mut self.jumps {
            jumps.todo.remove(index);
            self.taken_out = true;
        }
    }

    /// A parent got its sync bit: the parents taken out may be worth
    /// walking again (while the budget lasts), and the parent itself is
    /// worth arriving at (its notify bit, or the nested-sync error).
    fn filled_one(&mut self, index: u32) {
        self.fills += 1;
        self.refill = true;
        if let Some(jumps) = &mut self.jumps {
            jumps.todo.insert(index);
        }
    }

    /// After a fill, while the budget lasts: every parent is worth arriving
    /// at again (a copy of the parents, a word per 64 nodes).
    fn refill_todo(&mut self) {
        if self.taken_out && !self.over_budget() {
            if let Some(jumps) = &mut self.jumps {
                jumps.every_parent_to_do();
            }
            self.taken_out = false;
        }
        self.refill = false;
    }

    /// `XAnimFillInSyncNodes_r(index, require_looping)`, depth first in
    /// child order (leaves that passed the check under this requirement
    /// before pass again: they are not visited).
    pub(super) fn fill(&mut self, index: u32, require_looping: u8) -> Walked<()> {
        let mut stack = core::mem::take(&mut self.fill_stack);
        stack.clear();
        let result = self.fill_from(index, &mut stack, require_looping);
        self.fill_stack = stack;
        result
    }

    fn fill_from(&mut self, index: u32, stack: &mut Vec<(u32, u32)>, require_looping: u8) -> Walked<()> {
        if let Some(range) = self.fill_node(index, require_looping)? {
            stack.push(range);
        }
        while let Some(top) = stack.last_mut() {
            let (next, end) = *top;
            let Some(child) = self.next_fill(require_looping, next, end) else {
                stack.pop();
                continue;
            };
            top.0 = child + 1;
            if let Some(range) = self.fill_node(child, require_looping)? {
                stack.push(range);
            }
        }
        Ok(())
    }

    /// One node of a fill: a leaf is checked, a parent gets the sync bit;
    /// its child range, to fill next.
    fn fill_node(&mut self, index: u32, require_looping: u8) -> Walked<Option<(u32, u32)>> {
        self.visits += 1;
        let Some(entry) = self.nodes.node(index) else { return Ok(None) };
        if entry.child_count == 0 {
            check_leaf(&*self.nodes, index, require_looping)?;
            if let Some(set) = self.jumps.as_mut().and_then(|j| j.fill[usize::from(require_looping != 0)].as_mut()) {
                set.remove(index);
            }
            return Ok(None);
        }
        if entry.flags & FLAG_SYNC_MASK != 0 {
            return Err(nested_sync(&*self.nodes, index));
        }
        let bit = if require_looping != 0 { FLAG_SYNC_LOOPING } else { FLAG_SYNC_NON_LOOPING };
        let (first, end) = self.children(entry);
        self.nodes.set_flags(index, entry.flags | bit);
        self.filled_one(index);
        let first_parent = self.first_parent_child(first, end);
        self.set_filled(index, first_parent);
        Ok(Some((first, end)))
    }

    /// `XAnimSetupSyncNodes_r(start)`.
    pub(super) fn setup(&mut self, start: u32) -> Walked<()> {
        let mut path: Vec<Frame> = Vec::new();
        match self.arrive(start)? {
            Arrival::Descend(frame) => path.push(frame),
            Arrival::Done | Arrival::Cycle => return Ok(()),
        }
        while let Some(top) = path.last_mut() {
            if self.refill {
                self.refill_todo();
            }
            if let Some(child) = self.next_arrival(top.next, top.end) {
                top.next = child + 1;
                match self.arrive(child)? {
                    Arrival::Done => {}
                    Arrival::Descend(frame) => path.push(frame),
                    Arrival::Cycle => return self.last_lap(child),
                }
            } else {
                let clean = top.fills_at_entry == self.fills;
                let index = top.index;
                path.pop();
                self.set_mark(index, if clean { self.fills } else { STALE });
                // past the budget no walked parent is walked again
                if clean || self.over_budget() {
                    self.take_out(index);
                }
            }
        }
        Ok(())
    }

    /// The setup walk arriving at `index`.
    fn arrive(&mut self, index: u32) -> Walked<Arrival> {
        self.visits += 1;
        let Some(entry) = self.nodes.node(index) else { return Ok(Arrival::Done) };
        if entry.child_count == 0 {
            if let Some(jumps) = &mut self.jumps {
                jumps.todo.remove(index);
            }
            return Ok(Arrival::Done);
        }
        let sync = entry.flags & FLAG_SYNC_MASK;
        if sync == FLAG_SYNC_MASK {
            return Err(SyncFailure::Both);
        }
        if sync != 0 {
            self.source(index, sync)?;
            if self.filled.get(index as usize) == Some(&NO_PARENT_CHILD) {
                // met again: the notify bit it has, and leaves that pass
                self.take_out(index);
            }
            return Ok(Arrival::Done);
        }
        match self.mark(index) {
            OPEN => return Ok(Arrival::Cycle),
            UNSEEN => {}
            // Past the budget, no parent is walked twice.
            _ if self.over_budget() => {
                self.take_out(index);
                return Ok(Arrival::Done);
            }
            STALE => {}
            // Walked with no fill during or since: nothing would change.
            clean if clean == self.fills => {
                self.take_out(index);
                return Ok(Arrival::Done);
            }
            _ => {}
        }
        let (first, end) = self.children(entry);
        self.set_mark(index, OPEN);
        Ok(Arrival::Descend(Frame { index, next: first, end, fills_at_entry: self.fills }))
    }

    /// A parent with one sync bit met by the setup: notify bit, then its
    /// children are filled in.
    fn source(&mut self, index: u32, sync: u16) -> Walked<()> {
        let Some(entry) = self.nodes.node(index) else { return Ok(()) };
        self.nodes.set_flags(index, entry.flags | FLAG_NOTIFY_SOURCE);
        let (first, end) = self.children(entry);
        match self.filled.get(index as usize).copied().unwrap_or(NOT_FILLED) {
            NOT_FILLED => {}
            // Filled before under this bit's requirement: the leaves before
            // the first parent child pass again, and that child has its bit.
            NO_PARENT_CHILD => return Ok(()),
            child => return Err(nested_sync(&*self.nodes, child)),
        }
        let first_parent = self.first_parent_child(first, end);
        self.set_filled(index, first_parent);
        let require_looping = u8::from(sync == FLAG_SYNC_LOOPING);
        let mut next = first;
        while let Some(child) = self.next_fill(require_looping, next, end) {
            next = child + 1;
            self.fill(child, require_looping)?;
        }
        Ok(())
    }

    /// The second lap round a cycle met at `index` (a parent on the current
    /// path): a depth-first search from it in which nothing can be filled;
    /// meeting a parent again that is on the lap's own path is where the
    /// original would recurse for ever: the setup ends there.
    fn last_lap(&mut self, index: u32) -> Walked<()> {
        const WHITE: u8 = 0;
        const GREY: u8 = 1;
        const BLACK: u8 = 2;
        let mut colour = vec![WHITE; self.marks.len()];
        // every parent is worth arriving at again in this lap
        if let Some(jumps) = &mut self.jumps {
            jumps.every_parent_to_do();
        }
        self.taken_out = false;
        let mut path: Vec<(u32, u32, u32)> = Vec::new();
        let mut next = Some(index);
        loop {
            if let Some(node) = next.take() {
                if let Some(entry) = self.nodes.node(node) {
                    if entry.child_count != 0 {
                        let sync = entry.flags & FLAG_SYNC_MASK;
                        if sync == FLAG_SYNC_MASK {
                            return Err(SyncFailure::Both);
                        }
                        if sync != 0 {
                            self.source(node, sync)?;
                            if self.filled.get(node as usize) == Some(&NO_PARENT_CHILD) {
                                self.take_out(node);
                            }
                        } else {
                            match colour.get(node as usize).copied().unwrap_or(WHITE) {
                                GREY => return Ok(()),
                                BLACK => self.take_out(node),
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
            if let Some(child) = self.next_arrival(top.1, top.2) {
                next = Some(child);
                top.1 = child + 1;
            } else {
                if let Some(c) = colour.get_mut(top.0 as usize) {
                    *c = BLACK;
                }
                let node = top.0;
                path.pop();
                self.take_out(node);
            }
        }
    }
}

/// The mode of a [`walk_forest`] step: the setup, or a fill under a
/// requirement (any byte, as `XAnimFillInSyncNodes_r` takes it).
const SETUP: u16 = 0x100;

/// A child range of a [`walk_forest`]: `(next, end, mode)`.
type Range = (u32, u32, u16);

/// The child ranges a [`walk_forest`] returns to: a few inline, deeper
/// paths on the heap.
struct Ranges {
    inline: [Range; 16],
    len: usize,
    spill: Vec<Range>,
}

impl Ranges {
    #[inline]
    fn push(&mut self, range: Range) {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = range,
            None => self.spill.push(range),
        }
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<Range> {
        self.len = self.len.checked_sub(1)?;
        match self.inline.get(self.len) {
            Some(&range) => Some(range),
            None => self.spill.pop(),
        }
    }
}

/// Whether every node of the tree is a child of one parent at most and
/// comes after it (child ranges cut to the tree): then the path walk from
/// any node arrives at each node once at most. One pass over the entries,
/// with a bit per node below [`REACHABLE`] for the children met so far.
pub(super) fn is_forest<N: Nodes + ?Sized>(nodes: &N) -> bool {
    let count = nodes.len();
    let len = count.min(REACHABLE);
    let words = len.div_ceil(64);
    let mut inline = [0u64; 64];
    let mut heap = Vec::new();
    let claimed = if words <= inline.len() {
        &mut inline[..words]
    } else {
        heap.resize(words, 0);
        &mut heap[..]
    };
    let len = len as u32;
    for index in 0..count {
        let Some(entry) = nodes.node(index as u32) else { break };
        if entry.child_count == 0 {
            continue;
        }
        let first = u32::from(entry.first_child);
        let end = (first + u32::from(entry.child_count)).min(len);
        if first >= end {
            continue;
        }
        if first as usize <= index {
            return false;
        }
        // the range's bits, a word at a time; none may be claimed yet
        let mut i = first;
        while i < end {
            let word = (i / 64) as usize;
            let low = i % 64;
            let high = (end - (i - low)).min(64);
            let mask = (u64::MAX >> (64 - (high - low))) << low;
            if claimed[word] & mask != 0 {
                return false;
            }
            claimed[word] |= mask;
            i += high - low;
        }
    }
    true
}

/// `XAnimSetupSyncNodes_r(start)` (`fill` None) or
/// `XAnimFillInSyncNodes_r(start, fill)` as the original's recursion, on
/// a tree for which [`is_forest`] holds (each node is arrived at once at
/// most, so no marks and no budget).
pub(super) fn walk_forest<N: Nodes + ?Sized>(nodes: &mut N, start: u32, fill: Option<u8>) -> Walked<()> {
    let len = nodes.len() as u32;
    let mut ranges = Ranges { inline: [(0, 0, 0); 16], len: 0, spill: Vec::new() };
    // the start node as a range of one
    let (mut next, mut end, mut mode) = (start, start.saturating_add(1), fill.map_or(SETUP, u16::from));
    loop {
        while next < end {
            let node = next;
            next += 1;
            let Some(parent) = nodes.node(node) else { break };
            if parent.child_count == 0 {
                if mode != SETUP && !leaf_passes(&*nodes, node, mode as u8) {
                    return check_leaf(&*nodes, node, mode as u8);
                }
                continue;
            }
            let child_mode = if mode == SETUP {
                let sync = parent.flags & FLAG_SYNC_MASK;
                if sync == FLAG_SYNC_MASK {
                    return Err(SyncFailure::Both);
                }
                if sync != 0 {
                    nodes.set_flags(node, parent.flags | FLAG_NOTIFY_SOURCE);
                    u16::from(sync == FLAG_SYNC_LOOPING)
                } else {
                    SETUP
                }
            } else {
                if parent.flags & FLAG_SYNC_MASK != 0 {
                    return Err(nested_sync(&*nodes, node));
                }
                let bit = if mode != 0 { FLAG_SYNC_LOOPING } else { FLAG_SYNC_NON_LOOPING };
                nodes.set_flags(node, parent.flags | bit);
                mode
            };
            let first = u32::from(parent.first_child);
            let child_end = (first + u32::from(parent.child_count)).min(len);
            if first < child_end {
                ranges.push((next, end, mode));
                (next, end, mode) = (first, child_end, child_mode);
            }
        }
        let Some(range) = ranges.pop() else { return Ok(()) };
        (next, end, mode) = range;
    }
}

/// Whether a leaf passes the fill's check ([`check_leaf`]).
#[inline]
fn leaf_passes<N: Nodes + ?Sized>(nodes: &N, index: u32, require_looping: u8) -> bool {
    nodes.looped(index).is_none_or(|looped| looped == require_looping)
}

/// The fill's leaf check: the raw `looped` byte must equal the requirement.
/// A leaf without loaded asset is not checked (the original dereferences
/// it).
fn check_leaf<N: Nodes + ?Sized>(nodes: &N, index: u32, require_looping: u8) -> Walked<()> {
    // Quirk: the raw byte must equal the requirement, so a looped byte of 2
    // fails under both sync kinds.
    if leaf_passes(nodes, index, require_looping) {
        return Ok(());
    }
    Err(SyncFailure::Leaf { leaf: index, looping: require_looping != 0 })
}

#[cfg(test)]
pub(super) mod reference;

#[cfg(test)]
mod node_set_tests {
    use super::NodeSet;
    use std::prelude::rust_2021::*;

    #[test]
    fn next_member_equals_a_scan() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for capacity in [0usize, 1, 63, 64, 65, 4095, 4096, 4097, 131_071] {
            let density = 1 + rand() % 200;
            let mut set = NodeSet::from_fn(capacity, |_| false);
            let mut plain = vec![false; capacity];
            let full = NodeSet::full(capacity);
            for (i, member) in plain.iter_mut().enumerate() {
                assert_eq!(full.next(i), Some(i));
                if rand() % density == 0 {
                    set.insert(i as u32);
                    *member = true;
                }
            }
            assert_eq!(full.next(capacity), None);
            for _ in 0..crate::rounds(2000) {
                if capacity > 0 && rand() % 3 == 0 {
                    let i = (rand() % capacity as u64) as usize;
                    set.remove(i as u32);
                    plain[i] = false;
                }
                let from = (rand() % (capacity as u64 + 2)) as usize;
                let scan = (from..capacity).find(|&i| plain[i]);
                assert_eq!(set.next(from), scan, "capacity {capacity}, from {from}");
            }
            let built = NodeSet::from_fn(capacity, |i| plain[i]);
            assert_eq!(built.words, set.words);
            assert_eq!(built.start, set.start);
        }
    }
}
