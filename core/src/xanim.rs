//! The compact `XAnim` tree's sync setup (`XAnimSetupSyncNodes`): which
//! parents get the sync and notify bits, and which mistake a tree's sync
//! properties make; and a leaf's length ([`length`]).
//!
//! The tree itself lives where its engine keeps it (the C units: engine
//! memory, reached through their views); the walk reads and writes it
//! through [`Nodes`], one node at a time, and names the nodes of its
//! failures by index ([`SyncFailure`]), so the caller reads their names
//! where they are.
//!
//! ```
//! use uoanim_core::xanim::{setup_sync_nodes, PlainNode, SyncFailure, FLAG_NOTIFY_SOURCE, FLAG_SYNC_LOOPING};
//!
//! // root -> walk_group (loopsync) -> walk (looping), stand (not looping)
//! let mut tree = [
//!     PlainNode::parent(1, 1, 0),
//!     PlainNode::parent(2, 2, FLAG_SYNC_LOOPING),
//!     PlainNode::leaf(Some(1)),
//!     PlainNode::leaf(Some(0)),
//! ];
//! assert_eq!(setup_sync_nodes(&mut tree[..]), Err(SyncFailure::Leaf { leaf: 3, looping: true }));
//! assert_eq!(tree[1].flags, FLAG_SYNC_LOOPING | FLAG_NOTIFY_SOURCE);
//! ```

pub mod length;
mod sync;

/// Parent flag: children are synchronised and looping (`loopsync`).
pub const FLAG_SYNC_LOOPING: u16 = 1;
/// Parent flag: children are synchronised and not looping (`nonloopsync`).
pub const FLAG_SYNC_NON_LOOPING: u16 = 2;
/// Both sync bits.
pub const FLAG_SYNC_MASK: u16 = FLAG_SYNC_LOOPING | FLAG_SYNC_NON_LOOPING;
/// Parent flag set by the sync setup on the root of a synchronised subtree.
pub const FLAG_NOTIFY_SOURCE: u16 = 4;
/// Parent flag of the `complete` property (only kept in the flags word).
pub const FLAG_COMPLETE: u16 = 8;

/// Index of the root node.
pub const ROOT_NODE_INDEX: u32 = 0;

/// A node as the sync walk reads it: the child count and the parent view
/// of its payload (which a leaf's asset pointer overlays: the walk reads
/// it only where the original does).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// `childCount`: 0 for a leaf.
    pub child_count: u16,
    /// The parent's flags (`FLAG_*`).
    pub flags: u16,
    /// `firstChildIndex`: the children are the next `child_count` nodes
    /// from there.
    pub first_child: u16,
}

/// The nodes of a compact tree, as the sync walk reads and writes them.
pub trait Nodes {
    /// `nodeCount`.
    fn len(&self) -> usize;
    /// Whether the tree has no node.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The node at `index`, None outside the tree.
    fn node(&self, index: u32) -> Option<Node>;
    /// Writes the parent flags of the node at `index` (a parent; nothing
    /// else of the node changes).
    fn set_flags(&mut self, index: u32, flags: u16);
    /// The leaf's raw `looped` byte, None without a loaded asset.
    fn looped(&self, index: u32) -> Option<u8>;
}

/// A failure of the sync setup (each raised as ERR_DROP by the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncFailure {
    /// `animation cannot be sync looping and sync nonlooping`: a parent
    /// with both sync bits.
    Both,
    /// `animation '<leaf>' in '<tree>' cannot be sync looping and
    /// nonlooping` (`looping`), `... sync nonlooping and looping` (not):
    /// the leaf's `looped` byte is not the requirement.
    Leaf {
        /// The leaf's index.
        leaf: u32,
        /// The requirement was looping.
        looping: bool,
    },
    /// `duplicate specification of animation sync in '<tree>', <depth>
    /// nodes above '<leaf>'`: a sync property inside a synchronised
    /// subtree. `depth` counts first-child steps from that parent down to
    /// a leaf; a chain that leaves the tree or runs longer than the tree (a
    /// cycle) stops there and names no leaf.
    Nested {
        /// First-child steps to the leaf.
        depth: i32,
        /// The leaf, if the chain reached one.
        leaf: Option<u32>,
    },
}

/// `XAnimSetupSyncNodes`: the sync setup from the root.
pub fn setup_sync_nodes<N: Nodes + ?Sized>(nodes: &mut N) -> Result<(), SyncFailure> {
    setup_sync_nodes_r(nodes, ROOT_NODE_INDEX)
}

/// `XAnimSetupSyncNodes_r`: depth-first in child order; the first parent on
/// a path with a sync bit gets [`FLAG_NOTIFY_SOURCE`] and its children are
/// filled in ([`fill_in_sync_nodes`]); both sync bits are
/// [`SyncFailure::Both`].
///
/// The original walks every path; on a tree with one path to each node
/// this is its walk, elsewhere a walk that gives the same result without
/// walking a shared subtree again when that cannot change anything
/// (`sync` module), and ends at a cycle (docs/DIVERGENCES.md).
pub fn setup_sync_nodes_r<N: Nodes + ?Sized>(nodes: &mut N, anim_index: u32) -> Result<(), SyncFailure> {
    if sync::is_forest(nodes) {
        return sync::walk_forest(nodes, anim_index, None);
    }
    sync::Walk::new(nodes).setup(anim_index)
}

/// `XAnimFillInSyncNodes_r`: a leaf's raw `looped` byte must equal
/// `require_looping` (else [`SyncFailure::Leaf`]); a parent that already
/// has a sync bit is [`SyncFailure::Nested`]; otherwise the parent gets the
/// sync bit and its children are filled in.
pub fn fill_in_sync_nodes<N: Nodes + ?Sized>(nodes: &mut N, anim_index: u32, require_looping: u8) -> Result<(), SyncFailure> {
    if sync::is_forest(nodes) {
        return sync::walk_forest(nodes, anim_index, Some(require_looping));
    }
    sync::Walk::new(nodes).fill(anim_index, require_looping)
}

/// The nested-sync failure of the parent at `index`.
fn nested_sync<N: Nodes + ?Sized>(nodes: &N, index: u32) -> SyncFailure {
    let mut depth: i32 = 0;
    let mut cursor = nodes.node(index);
    let mut leaf = None;
    while let Some(node) = cursor {
        if depth as usize > nodes.len() {
            break;
        }
        depth += 1;
        let next = u32::from(node.first_child);
        cursor = nodes.node(next);
        if cursor.is_some_and(|n| n.child_count == 0) {
            leaf = Some(next);
            break;
        }
    }
    SyncFailure::Nested { depth, leaf }
}

/// A node held as a plain value (a tree of a tool, or of a test).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlainNode {
    /// `childCount`: 0 for a leaf.
    pub child_count: u16,
    /// The parent's flags.
    pub flags: u16,
    /// The parent's first child.
    pub first_child: u16,
    /// The leaf's `looped` byte, None without a loaded asset.
    pub looped: Option<u8>,
}

impl PlainNode {
    /// A parent of `child_count` children from `first_child`.
    pub const fn parent(first_child: u16, child_count: u16, flags: u16) -> Self {
        Self { child_count, flags, first_child, looped: None }
    }

    /// A leaf whose asset has the `looped` byte (None: no asset loaded).
    pub const fn leaf(looped: Option<u8>) -> Self {
        Self { child_count: 0, flags: 0, first_child: 0, looped }
    }
}

impl Nodes for [PlainNode] {
    fn len(&self) -> usize {
        <[PlainNode]>::len(self)
    }
    fn node(&self, index: u32) -> Option<Node> {
        self.get(index as usize).map(|n| Node { child_count: n.child_count, flags: n.flags, first_child: n.first_child })
    }
    fn set_flags(&mut self, index: u32, flags: u16) {
        if let Some(n) = self.get_mut(index as usize) {
            n.flags = flags;
        }
    }
    fn looped(&self, index: u32) -> Option<u8> {
        self.get(index as usize).filter(|n| n.child_count == 0).and_then(|n| n.looped)
    }
}

#[cfg(test)]
mod tests;
