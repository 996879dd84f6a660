//! The compact XAnim tree: building, sync setup and queries. The sync
//! setup's walk is the core's ([`uoanim_core::xanim`]); it reads and writes
//! the tree's entries through [`Nodes`], implemented here over the view.
//!
//! The tree lives in engine memory (it comes from the engine's allocator
//! callback and stays there), so the core works on it through two views,
//! each made by an unsafe constructor (at the boundary, once per exported
//! call): [`XAnimHandle`], shared and copyable, for the queries, and
//! [`XAnimMut`], exclusive and not copyable, for building and the sync
//! setup. Every operation checks node indices against the tree's
//! `nodeCount` and gives a defined result outside it (the original reads or
//! writes out of bounds; see docs/DIVERGENCES.md, "Animation trees").
//!
//! # Tree memory
//!
//! What both constructors require of a non-NULL `tree` (the engine's
//! allocator, `FS_GetDataForFile` and `XAnimLoadFile` give that; the
//! original relies on the same): an `XAnim` header followed by `nodeCount`
//! initialised entries, suitably aligned; `name` NULL or NUL-terminated,
//! outside the entries; every leaf's `leafAsset` NULL or a valid
//! `fileData_t` whose `name` is NULL or NUL-terminated and whose
//! `data.xanimParts` is NULL or a valid `XAnimParts` with `noteTracks` NULL
//! or ending at a zero handle.
//!
//! The engine is reached through [`XAnimEngine`] (the asset look-up and the
//! caller's allocator). Failures are returned as values naming what the
//! text the original passes to `Com_Error(ERR_DROP, ...)` prints
//! ([`crate::error::Failure`]).
//!
//! Building a tree, as the precache pipeline does it:
//!
//! ```text
//! let block = xanim::alloc_tree(engine, name_ptr, node_count, alloc)?;  // XAnimAllocTree
//! // each later export makes its view of the block:
//! let mut tree = unsafe { XAnimMut::from_raw(block.as_ptr()) }?;
//! xanim::set_parent_node(&mut tree, 0, 1, 3, flags);                     // XAnimSetParentNode
//! xanim::set_leaf_node(engine, &mut tree, 1, c"walk")?;                  // XAnimSetLeafNode
//! // ... every leaf's asset loaded (XAnimLoadFile) ...
//! xanim::setup_sync_nodes(&mut tree)?;                                   // XAnimSetupSyncNodes
//! ```
use crate::abi::xanim::{
    fileData_t, script_anim_tree_alloc_t, XAnim, XAnimEntry, XAnimParentPayload, XAnimParts, XAnimTree,
    XANIM_RUNTIME_TREE_TAIL_SPAN_SIZE,
};
use crate::error::{CText, Failure, Name};
pub use uoanim_core::registry::MissingAsset;
use core::ffi::{c_char, c_void, CStr};
use core::marker::PhantomData;
use core::ptr::NonNull;

pub(crate) mod length;
pub use length::{length, length_binary64, length_extended, length_operands, Extended, LengthOperands};

pub use uoanim_core::xanim::{
    FLAG_COMPLETE, FLAG_NOTIFY_SOURCE, FLAG_SYNC_LOOPING, FLAG_SYNC_MASK, FLAG_SYNC_NON_LOOPING, ROOT_NODE_INDEX,
};
use uoanim_core::xanim::{self as sync, Node, Nodes, SyncFailure};

/// What `XAnimGetAnimName` returns for a parent node.
pub const NON_LEAF_ANIM_NAME: &CStr = c"<non-leaf anim>";

/// What name queries return where the original has nothing to read
/// (no tree, index outside the tree, leaf without asset).
pub const MISSING_NAME: &CStr = c"";

/// The engine services the compact tree uses.
///
/// # Safety
/// The core writes and later reads through what the methods return, so an
/// implementation promises (as `GlobalAlloc` does for its blocks):
///
/// * [`get_xanim_data`](Self::get_xanim_data) returns NULL or an asset
///   record as the module documentation states ("Tree memory"), valid and
///   unchanged for as long as any tree that stores it is used;
/// * [`call_tree_alloc`](Self::call_tree_alloc) returns NULL or a block of
///   at least `size` bytes, writable, not used by anything else, valid for
///   as long as the tree built in it is used (the default forwards to the
///   engine's allocator callback, which promises that).
///
/// Safe code cannot implement the trait:
///
/// ```compile_fail,E0200
/// use core::ffi::{c_void, CStr};
/// use uoanim::abi::xanim::{fileData_t, script_anim_tree_alloc_t};
/// struct Forged;
/// impl uoanim::tree::xanim::XAnimEngine for Forged {
///     fn get_xanim_data(&mut self, _: &CStr) -> *mut fileData_t { core::ptr::null_mut() }
///     fn call_tree_alloc(&mut self, _: script_anim_tree_alloc_t, _: usize) -> *mut c_void {
///         0x1000 as *mut c_void
///     }
/// }
/// ```
pub unsafe trait XAnimEngine {
    /// `FS_GetDataForFile("xanim", animName, "")`: the asset record, or NULL.
    fn get_xanim_data(&mut self, anim_name: &CStr) -> *mut fileData_t;

    /// Calls the caller's tree allocator (`alloc(size)`); NULL for a NULL
    /// callback. The engine's allocators return zero-filled memory.
    fn call_tree_alloc(&mut self, alloc: script_anim_tree_alloc_t, size: usize) -> *mut c_void {
        match alloc {
            // SAFETY: the callback is the engine's allocator, passed in by
            // the engine with this C signature (the trait's contract).
            Some(f) => unsafe { f(size) },
            None => core::ptr::null_mut(),
        }
    }
}

/// Shared access to a compact tree in engine memory: what the queries use.
///
/// A plain pointer (`Copy`), like the C `XAnim *` it stands for; it only
/// ever reads. Writes go through [`XAnimMut`], which cannot be copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XAnimHandle<'a> {
    tree: NonNull<XAnim>,
    _tree: PhantomData<&'a XAnim>,
}

/// Exclusive access to a compact tree in engine memory: what building and
/// the sync setup use. Not `Copy`: entries are handed out mutably only
/// through `&mut self`, so two mutable views of one tree cannot coexist.
#[derive(Debug)]
pub struct XAnimMut<'a> {
    tree: NonNull<XAnim>,
    _tree: PhantomData<&'a mut XAnim>,
}

impl<'a> XAnimHandle<'a> {
    /// A shared handle for `tree` (None for NULL).
    ///
    /// # Safety
    /// `tree` is NULL or a tree as the module documentation states ("Tree
    /// memory"), and nothing writes it (header, entries, names, assets)
    /// during `'a`.
    #[inline(always)]
    pub unsafe fn from_raw(tree: *const XAnim) -> Option<Self> {
        NonNull::new(tree as *mut XAnim).map(|tree| Self { tree, _tree: PhantomData })
    }

    /// The C pointer.
    pub fn as_ptr(self) -> *mut XAnim {
        self.tree.as_ptr()
    }

    fn header(self) -> &'a XAnim {
        // SAFETY: a valid header, not written during `'a` (constructor contract).
        unsafe { self.tree.as_ref() }
    }

    /// `nodeCount`.
    #[inline(always)]
    pub fn node_count(self) -> u32 {
        self.header().nodeCount
    }

    /// The `name` pointer stored by `XAnimAllocTree`.
    pub fn name_ptr(self) -> *const c_char {
        self.header().name
    }

    /// The tree's entries.
    #[inline(always)]
    pub fn entries(self) -> &'a [XAnimEntry] {
        let tree = self.tree.as_ptr();
        // SAFETY: `nodeCount` initialised entries follow the header in one
        // allocated object (so they span at most `isize::MAX` bytes), not
        // written during `'a` (constructor contract).
        unsafe {
            let first = core::ptr::addr_of!((*tree).entries) as *const XAnimEntry;
            core::slice::from_raw_parts(first, (*tree).nodeCount as usize)
        }
    }

    /// The node at `index` (a copy), None outside the tree.
    pub fn entry(self, index: u32) -> Option<XAnimEntry> {
        self.entries().get(index as usize).copied()
    }

    /// The node at a query's `animIndex`, None outside the tree (a negative
    /// index is a large unsigned one, outside every tree).
    #[inline(always)]
    fn entry_at(self, index: i32) -> Option<&'a XAnimEntry> {
        self.entries().get(index as u32 as usize)
    }

    /// Number of children of `index` (`XAnimGetNumChildren`); 0 outside the tree.
    pub fn num_children(self, index: i32) -> i32 {
        self.entry_at(index).map_or(0, |e| i32::from(e.childCount))
    }

    /// `firstChildIndex + childIndex` (`XAnimGetChildAt`); `childIndex`
    /// alone outside the tree.
    ///
    /// Quirk: no child-range or leaf check, like the original: on a leaf it
    /// reads bits of the asset pointer.
    pub fn child_at(self, index: i32, child_index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) => i32::from(parent_view(e).firstChildIndex).wrapping_add(child_index),
            None => child_index,
        }
    }

    /// `XAnimGetAnimName`: the leaf's asset name, or `"<non-leaf anim>"`;
    /// [`MISSING_NAME`] outside the tree or without asset.
    pub fn anim_name(self, index: i32) -> *const c_char {
        match self.entry_at(index) {
            Some(e) if e.childCount != 0 => NON_LEAF_ANIM_NAME.as_ptr(),
            // SAFETY: a leaf's record is valid while the view lives
            // (constructor contract).
            Some(e) => leaf_asset(e).map_or(MISSING_NAME.as_ptr(), |asset| unsafe { asset.as_ref().name }),
            None => MISSING_NAME.as_ptr(),
        }
    }

    /// [`anim_name`](Self::anim_name), or [`MISSING_NAME`] without tree.
    pub fn anim_name_of(tree: Option<Self>, index: i32) -> *const c_char {
        tree.map_or(MISSING_NAME.as_ptr(), |tree| tree.anim_name(index))
    }

    /// `XAnimHasTime`: leaf, or parent with a sync bit; 0 outside the tree.
    pub fn has_time(self, index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) if e.childCount == 0 => 1,
            Some(e) => i32::from(parent_view(e).flags & FLAG_SYNC_MASK != 0),
            None => 0,
        }
    }

    /// `XAnimIsPrimitive`: `childCount == 0`; 0 outside the tree.
    pub fn is_primitive(self, index: i32) -> i32 {
        self.entry_at(index).map_or(0, |e| i32::from(e.childCount == 0))
    }

    /// `XAnimIsLooped`: parent: the looping sync bit; leaf: the asset's raw
    /// `looped` byte (quirk: a 2 stays 2). 0 outside the tree or without
    /// loaded asset.
    pub fn is_looped(self, index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) if e.childCount != 0 => i32::from(parent_view(e).flags & FLAG_SYNC_LOOPING),
            // SAFETY: a leaf of this view's tree, which lives for `'a`.
            Some(e) => unsafe { leaf_parts(e) }.map_or(0, |parts| i32::from(parts.looped)),
            None => 0,
        }
    }
    /// `XAnimNotetrackExists`: whether the leaf's asset has a note track
    /// named `notetrack`. 0 for parents, outside the tree, without asset.
    pub fn notetrack_exists(self, index: i32, notetrack: u16) -> i32 {
        let Some(parts) = self.entry_at(index).filter(|e| e.childCount == 0).and_then(|e| {
            // SAFETY: a leaf of this view's tree, which lives for `'a`.
            unsafe { leaf_parts(e) }
        }) else {
            return 0;
        };
        let mut track = parts.noteTracks;
        if track.is_null() {
            return 0;
        }
        loop {
            // SAFETY: a zero-terminated array (constructor contract); the
            // walk stops at the terminator.
            let handle = unsafe { (*track).nameHandle };
            if handle == 0 {
                return 0;
            }
            if handle == notetrack {
                return 1;
            }
            // SAFETY: not past the terminator yet.
            track = unsafe { track.add(1) };
        }
    }
}

impl<'a> XAnimMut<'a> {
    /// An exclusive view of `tree` (None for NULL).
    ///
    /// # Safety
    /// `tree` is NULL or a tree as the module documentation states ("Tree
    /// memory"), writable, and nobody else reads or writes its header and
    /// entries during `'a`; names and assets are only read.
    pub unsafe fn from_raw(tree: *mut XAnim) -> Option<Self> {
        NonNull::new(tree).map(|tree| Self { tree, _tree: PhantomData })
    }

    /// The C pointer.
    pub fn as_ptr(&self) -> *mut XAnim {
        self.tree.as_ptr()
    }

    /// Shared access for as long as this view is borrowed.
    pub fn handle(&self) -> XAnimHandle<'_> {
        XAnimHandle { tree: self.tree, _tree: PhantomData }
    }

    /// The tree's name (read only, for `'a`) and its entries, mutable.
    fn split(&mut self) -> (CText<'a>, &mut [XAnimEntry]) {
        let tree = self.tree.as_ptr();
        // SAFETY: the header and `nodeCount` entries are valid and accessed
        // only through this view (constructor contract), borrowed mutably
        // here; the name is outside the entries and only read during `'a`;
        // the length is cut to what one object can span (`entry_slice_len`).
        unsafe {
            let name = c_text((*tree).name);
            let first = core::ptr::addr_of_mut!((*tree).entries) as *mut XAnimEntry;
            let count = entry_slice_len((*tree).nodeCount, first as usize);
            (name, core::slice::from_raw_parts_mut(first, count))
        }
    }

    /// The tree's entries, mutable.
    pub fn entries_mut(&mut self) -> &mut [XAnimEntry] {
        self.split().1
    }
}

/// How many of a tree's `node_count` entries at address `first` a slice may
/// cover: a slice spans at most `isize::MAX` bytes and cannot wrap around
/// the address space. No tree the engine allocates comes near that (on
/// i686 a count above 2^28 would be a block over 2 GiB); for a header that
/// claims more, the nodes past the cut are outside the tree.
fn entry_slice_len(node_count: u32, first: usize) -> usize {
    let room = (isize::MAX as usize).min(usize::MAX - first) / core::mem::size_of::<XAnimEntry>();
    (node_count as usize).min(room)
}

/// The parent view of a node's payload (what the original reads for any
/// node it treats as a parent).
fn parent_view(entry: &XAnimEntry) -> XAnimParentPayload {
    // SAFETY: two plain u16 fields over initialised bytes of the union.
    unsafe { entry.payload.parent }
}

/// The leaf's asset record, None when NULL.
fn leaf_asset(entry: &XAnimEntry) -> Option<NonNull<fileData_t>> {
    // SAFETY: reading the pointer member of an initialised union.
    NonNull::new(unsafe { entry.payload.leafAsset })
}

/// The leaf's loaded asset header, None without record or parts.
///
/// # Safety
/// `entry` is a leaf of a tree with a live view ([`XAnimHandle::from_raw`],
/// [`XAnimMut::from_raw`]: its record is NULL or valid, with NULL or valid
/// parts) that lives for `'a`.
unsafe fn leaf_parts<'a>(entry: &XAnimEntry) -> Option<&'a XAnimParts> {
    let asset = leaf_asset(entry)?;
    // SAFETY: a valid record whose parts are NULL or valid (caller's contract).
    unsafe { asset.as_ref().data.xanimParts.as_ref() }
}

/// The leaf's asset name (`"(null)"` for a NULL name, as the engine's
/// printf prints it; empty without record), for a diagnostic.
///
/// # Safety
/// As for [`leaf_parts`]: assets are only read while a view of their tree
/// lives (`'a`).
unsafe fn leaf_name<'a>(entry: &XAnimEntry) -> CText<'a> {
    match leaf_asset(entry) {
        // SAFETY: valid record with NULL or NUL-terminated name (caller's contract).
        Some(asset) => unsafe { c_text(asset.as_ref().name) },
        None => CText::EMPTY,
    }
}

/// A C string; `"(null)"` for NULL (what `%s` prints).
///
/// # Safety
/// `p` is NULL or NUL-terminated and stays valid and unchanged for `'a`.
unsafe fn c_text<'a>(p: *const c_char) -> CText<'a> {
    // SAFETY: guaranteed by the caller.
    unsafe { crate::cstr::c_str(p) }.map_or(CText::NULL, CText::new)
}

/// Size `XAnimAllocTree` asks for: header plus `nodeCount` entries
/// (computed in `size_t`, wrapping like the original).
pub fn tree_alloc_size(node_count: u32) -> usize {
    core::mem::size_of::<XAnim>().wrapping_add((node_count as usize).wrapping_mul(core::mem::size_of::<XAnimEntry>()))
}

/// `XAnimAllocTree`: `alloc(sizeof(XAnim) + nodeCount * sizeof(XAnimEntry))`,
/// then stores `name` and `nodeCount`. Quirk: the entries are left as the
/// allocator gives them (zero-filled by the engine's allocators), and since
/// only parents stamp `parentIndex`, the root's stays whatever that was.
///
/// The block, header written (the caller makes the views of it); None when
/// the allocator returns NULL, a misaligned block, or the size wrapped
/// around (the original writes the header regardless).
pub fn alloc_tree<E: XAnimEngine + ?Sized>(
    engine: &mut E,
    name: *const c_char,
    node_count: u32,
    alloc: script_anim_tree_alloc_t,
) -> Option<NonNull<XAnim>> {
    let exact = (node_count as usize)
        .checked_mul(core::mem::size_of::<XAnimEntry>())
        .and_then(|n| n.checked_add(core::mem::size_of::<XAnim>()));
    let block = engine.call_tree_alloc(alloc, tree_alloc_size(node_count)) as *mut XAnim;
    if exact.is_none() || block.is_null() || !block.is_aligned() {
        return None;
    }
    // SAFETY: the allocator returned a block of the full size, aligned.
    unsafe {
        (*block).name = name;
        (*block).nodeCount = node_count;
    }
    NonNull::new(block)
}

/// The failure of a missing asset looked up by the C name `name`:
/// `"\x15Cannot find 'xanim/%s'"` (ERR_DROP).
pub fn missing_asset(name: CText<'_>) -> Failure<'_> {
    Failure::NoXAnim { name: Name::C(name) }
}

/// `XAnimSetLeafNode` as exported: a NULL name is the missing asset
/// `(null)` (divergence: the original would pass NULL to the file system,
/// docs/DIVERGENCES.md); without a tree the asset is still looked up, and
/// its absence raised, as the original does before it writes the node.
pub fn set_leaf_node_of<'a, E: XAnimEngine + ?Sized>(
    engine: &mut E,
    tree: Option<XAnimMut<'_>>,
    node_index: u16,
    anim_name: Option<&'a CStr>,
) -> Result<(), Failure<'a>> {
    let Some(name) = anim_name else { return Err(missing_asset(CText::NULL)) };
    let set = match tree {
        Some(mut tree) => set_leaf_node(engine, &mut tree, node_index, name),
        None => find_leaf_asset(engine, name).map(|_| ()),
    };
    set.map_err(|MissingAsset| missing_asset(CText::new(name)))
}

/// `XAnimSetLeafNode`: looks the asset up (`FS_GetDataForFile("xanim",
/// animName, "")`); missing → [`MissingAsset`]. Otherwise node
/// `node_index` becomes a leaf (`childCount = 0`, `leafAsset`); its
/// `parentIndex` is written by its parent. A node outside the tree is not
/// written.
pub fn set_leaf_node<E: XAnimEngine + ?Sized>(
    engine: &mut E,
    tree: &mut XAnimMut<'_>,
    node_index: u16,
    anim_name: &CStr,
) -> Result<(), MissingAsset> {
    let asset = find_leaf_asset(engine, anim_name)?;
    if let Some(entry) = tree.entries_mut().get_mut(usize::from(node_index)) {
        entry.childCount = 0;
        entry.payload.leafAsset = asset.as_ptr();
    }
    Ok(())
}

/// The asset look-up of [`set_leaf_node`]: `FS_GetDataForFile("xanim",
/// animName, "")`, NULL → [`MissingAsset`].
pub fn find_leaf_asset<E: XAnimEngine + ?Sized>(engine: &mut E, anim_name: &CStr) -> Result<NonNull<fileData_t>, MissingAsset> {
    NonNull::new(engine.get_xanim_data(anim_name)).ok_or(MissingAsset)
}

/// `XAnimSetParentNode`: node `node_index` gets `childCount`, `flags` and
/// `firstChildIndex` (on x86_64 the upper half of the payload is left as
/// it was), and the `parentIndex` of each of its children is stamped. (The
/// original also takes the node's name and discards it.) Nodes outside the
/// tree are not written.
///
/// Divergence (docs/DIVERGENCES.md): a child count of 0 stores no flags
/// and no first-child index; the node is a leaf without asset (payload NULL over its whole width). The original stores
/// them in the low half of the payload, where every query that sees
/// `childCount == 0` then reads an asset pointer (`XAnimGetAnimName`,
/// `XAnimIsLooped`, `XAnimNotetrackExists`, `XAnimGetLength`, the sync
/// check): a crash. The node then answers as a leaf without asset: name
/// `""`, not looped, no note track, length +0, primitive, has time, no
/// children, `XAnimGetChildAt(node, k) == k`.
pub fn set_parent_node(tree: &mut XAnimMut<'_>, node_index: u16, first_child_index: u16, child_count: u16, flags: u16) {
    let entries = tree.entries_mut();
    if let Some(entry) = entries.get_mut(usize::from(node_index)) {
        entry.childCount = child_count;
        if child_count == 0 {
            // Divergence: every later query reads a node with no
            // children as a leaf, so its payload must be a valid asset
            // pointer: NULL, the whole width.
            entry.payload.leafAsset = core::ptr::null_mut();
        } else {
            // Quirk: only the 4 bytes of the parent view are written; on
            // x86_64 the upper half of a previous leaf pointer stays in the
            // payload.
            entry.payload.parent = XAnimParentPayload { flags, firstChildIndex: first_child_index };
        }
    }
    // the children inside the tree, as one slice
    let first = usize::from(first_child_index);
    let end = (first + usize::from(child_count)).min(entries.len());
    for entry in entries.get_mut(first..end).unwrap_or_default() {
        entry.parentIndex = node_index;
    }
}

/// A tree's entries as the core's sync walk reads and writes them
/// ([`Nodes`]): a node's parent view of its payload, and a leaf's
/// `looped` byte read from its asset.
struct Entries<'e, 'a> {
    entries: &'e mut [XAnimEntry],
    /// The view the entries come from lives for `'a`.
    _tree: PhantomData<&'a XAnim>,
}

impl Nodes for Entries<'_, '_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline(always)]
    fn node(&self, index: u32) -> Option<Node> {
        let entry = self.entries.get(index as usize)?;
        let parent = parent_view(entry);
        Some(Node { child_count: entry.childCount, flags: parent.flags, first_child: parent.firstChildIndex })
    }

    #[inline(always)]
    fn set_flags(&mut self, index: u32, flags: u16) {
        if let Some(entry) = self.entries.get_mut(index as usize) {
            // Only the flags half of the parent view is written.
            entry.payload.parent.flags = flags;
        }
    }

    #[inline(always)]
    fn looped(&self, index: u32) -> Option<u8> {
        let entry = self.entries.get(index as usize).filter(|e| e.childCount == 0)?;
        // SAFETY: a leaf of the tree whose view lives for `'a`.
        unsafe { leaf_parts(entry) }.map(|parts| parts.looped)
    }
}

/// Runs one sync operation of the core on `tree`; its failure names the
/// tree and its assets (read only while the view lives, `'a`).
fn sync_of<'a>(tree: &mut XAnimMut<'a>, run: impl FnOnce(&mut Entries<'_, 'a>) -> Result<(), SyncFailure>) -> Result<(), Failure<'a>> {
    let (name, entries) = tree.split();
    let mut nodes = Entries { entries, _tree: PhantomData };
    let result = run(&mut nodes);
    let entries = nodes.entries;
    // SAFETY (both names): leaves of the tree whose view lives for `'a`.
    let leaf_named = |index: u32| entries.get(index as usize).map_or(CText::EMPTY, |e| unsafe { leaf_name(e) });
    result.map_err(|failure| match failure {
        SyncFailure::Both => Failure::SyncBoth,
        SyncFailure::Leaf { leaf, looping } => Failure::SyncLeaf { leaf: leaf_named(leaf), tree: name, looping },
        SyncFailure::Nested { depth, leaf } => {
            Failure::DuplicateSync { tree: name, depth, leaf: leaf.map_or(CText::EMPTY, leaf_named) }
        }
    })
}

/// `XAnimSetupSyncNodes`: the sync setup from the root
/// ([`uoanim_core::xanim::setup_sync_nodes`]). Its failures name the tree
/// and its assets (read only while the view lives, `'a`).
pub fn setup_sync_nodes<'a>(tree: &mut XAnimMut<'a>) -> Result<(), Failure<'a>> {
    setup_sync_nodes_r(tree, ROOT_NODE_INDEX)
}

/// `XAnimSetupSyncNodes_r` ([`uoanim_core::xanim::setup_sync_nodes_r`]).
pub fn setup_sync_nodes_r<'a>(tree: &mut XAnimMut<'a>, anim_index: u32) -> Result<(), Failure<'a>> {
    sync_of(tree, |nodes| sync::setup_sync_nodes_r(nodes, anim_index))
}

/// `XAnimFillInSyncNodes_r` ([`uoanim_core::xanim::fill_in_sync_nodes`]):
/// `"\x15animation '%s' in '%s' cannot be sync looping and nonlooping"`
/// when looping is required, `"... nonlooping and looping"` otherwise, with
/// asset and tree name; `"\x15duplicate specification of animation sync in
/// '%s', %d nodes above '%s'"` (tree name, first-child depth to a leaf,
/// that leaf's name).
pub fn fill_in_sync_nodes<'a>(tree: &mut XAnimMut<'a>, anim_index: u32, require_looping: u8) -> Result<(), Failure<'a>> {
    sync_of(tree, |nodes| sync::fill_in_sync_nodes(nodes, anim_index, require_looping))
}

/// Size of a runtime tree for `node_count` nodes: header, one 16-bit
/// handle and one 6-byte span per node, and 2 bytes (`8 * n + 14` on i386,
/// `8 * n + 18` on x86_64), wrapping in `size_t` like the original.
pub fn runtime_tree_size(node_count: u32) -> usize {
    let n = node_count as usize;
    core::mem::offset_of!(XAnimTree, poolNodeHandles)
        .wrapping_add(n.wrapping_mul(core::mem::size_of::<u16>()))
        .wrapping_add(n.wrapping_mul(XANIM_RUNTIME_TREE_TAIL_SPAN_SIZE))
        .wrapping_add(core::mem::size_of::<u16>())
}

/// `XAnimAllocRuntimeTree`: `alloc(runtime_tree_size(nodeCount))`, zeroes
/// the whole block and stores the source tree. NULL (and no allocation)
/// without source tree; NULL when the allocator returns NULL; a block too
/// small for the header (wrapped size) is returned unwritten.
pub fn alloc_runtime_tree<E: XAnimEngine + ?Sized>(
    engine: &mut E,
    source: Option<XAnimHandle<'_>>,
    alloc: script_anim_tree_alloc_t,
) -> *mut XAnimTree {
    let Some(source) = source else { return core::ptr::null_mut() };
    let size = runtime_tree_size(source.node_count());
    let block = engine.call_tree_alloc(alloc, size) as *mut XAnimTree;
    if block.is_null() || size < core::mem::size_of::<XAnimTree>() {
        return block;
    }
    // SAFETY: the allocator returned `size` writable bytes; the header fits.
    unsafe {
        core::ptr::write_bytes(block as *mut u8, 0, size);
        core::ptr::addr_of_mut!((*block).sourceTree).write_unaligned(source.as_ptr());
    }
    block
}

#[cfg(test)]
mod tests;
