//! The compact XAnim tree: building, sync setup and queries.
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
use core::ffi::{c_char, c_void, CStr};
use core::marker::PhantomData;
use core::ptr::NonNull;

pub(crate) mod length;
pub use length::{length_binary64, length_operands, LengthOperands};

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

/// What `XAnimGetAnimName` returns for a parent node.
pub const NON_LEAF_ANIM_NAME: &CStr = c"<non-leaf anim>";

/// What name queries return where the original has nothing to read
/// (no tree, index outside the tree, leaf without asset).
pub const MISSING_NAME: &CStr = c"";

/// The engine services the compact tree uses.
pub trait XAnimEngine {
    /// `FS_GetDataForFile("xanim", animName, "")`: the asset record, or NULL.
    fn get_xanim_data(&mut self, anim_name: &CStr) -> *mut fileData_t;

    /// Calls the caller's tree allocator (`alloc(size)`); NULL for a NULL
    /// callback. The engine's allocators return zero-filled memory.
    fn call_tree_alloc(&mut self, alloc: script_anim_tree_alloc_t, size: usize) -> *mut c_void {
        match alloc {
            // SAFETY: the callback is the engine's allocator, passed in by
            // the engine with this C signature.
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

/// `$p` (a raw pointer), or `return $miss` from the enclosing function when
/// it is NULL: on x86 the pointer goes to rcx (ecx) and one `jrcxz`
/// (`jecxz`) jumps on it, where a test and a conditional jump take two
/// instructions. The queries test the asset pointers so, and on i386, where
/// the tree pointer is loaded from the stack anyway, and on Microsoft x64,
/// where it arrives in rcx, the tree.
///
/// The jump reaches 127 bytes: only for small functions, the query exports
/// (and, in the tests, the query methods kept out of line). A use in a
/// function whose miss path ends up farther away fails to assemble, so the
/// builds that grow the code (without optimisation, with debug assertions,
/// instrumented for fuzzing) test and jump as usual.
#[cfg(all(target_arch = "x86_64", not(any(debug_assertions, fuzzing))))]
macro_rules! non_null_or_return {
    ($p:expr, $miss:expr) => {{
        let p = $p;
        // SAFETY: a jump on the register alone (no memory, stack or flags);
        // the pointer goes in as an address, which the jump does not read.
        unsafe {
            core::arch::asm!(
                "jrcxz {}",
                label { return $miss; },
                in("rcx") p as usize,
                options(nomem, nostack, preserves_flags)
            )
        };
        p
    }};
}
/// `$p` (a raw pointer), or `return $miss` from the enclosing function when
/// it is NULL (see the x86_64 definition).
#[cfg(all(target_arch = "x86", not(any(debug_assertions, fuzzing))))]
macro_rules! non_null_or_return {
    ($p:expr, $miss:expr) => {{
        let p = $p;
        // SAFETY: a jump on the register alone (no memory, stack or flags);
        // the pointer goes in as an address, which the jump does not read.
        unsafe {
            core::arch::asm!(
                "jecxz {}",
                label { return $miss; },
                in("ecx") p as usize,
                options(nomem, nostack, preserves_flags)
            )
        };
        p
    }};
}
/// `$p` (a raw pointer), or `return $miss` from the enclosing function when
/// it is NULL (other targets, and the builds above that grow the code).
#[cfg(any(not(any(target_arch = "x86", target_arch = "x86_64")), debug_assertions, fuzzing))]
macro_rules! non_null_or_return {
    ($p:expr, $miss:expr) => {{
        let p = $p;
        if p.is_null() {
            return $miss;
        }
        p
    }};
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

    /// [`from_raw`](Self::from_raw) for the query exports: on i386 the
    /// pointer comes from the stack into ecx and `jecxz` tests it, on
    /// Microsoft x64 it arrives in rcx and `jrcxz` tests it
    /// (`non_null_or_return!`, small functions only).
    ///
    /// # Safety
    /// As for [`from_raw`](Self::from_raw).
    #[inline(always)]
    pub unsafe fn from_raw_for_query(tree: *const XAnim) -> Option<Self> {
        #[cfg(any(target_arch = "x86", all(target_arch = "x86_64", windows)))]
        {
            let tree = non_null_or_return!(tree, None);
            // SAFETY: not NULL (tested above).
            Some(Self { tree: unsafe { NonNull::new_unchecked(tree as *mut XAnim) }, _tree: PhantomData })
        }
        #[cfg(not(any(target_arch = "x86", all(target_arch = "x86_64", windows))))]
        // SAFETY: guaranteed by the caller.
        unsafe {
            Self::from_raw(tree)
        }
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
    pub fn entries(self) -> &'a [XAnimEntry] {
        let tree = self.tree.as_ptr();
        // SAFETY: `nodeCount` initialised entries follow the header, not
        // written during `'a` (constructor contract); the length is cut to
        // what one object can span (`entry_slice_len`).
        unsafe {
            let first = core::ptr::addr_of!((*tree).entries) as *const XAnimEntry;
            let count = entry_slice_len((*tree).nodeCount, first as usize);
            core::slice::from_raw_parts(first, count)
        }
    }

    /// The node at `index` (a copy), None outside the tree.
    pub fn entry(self, index: u32) -> Option<XAnimEntry> {
        self.entries().get(index as usize).copied()
    }

    /// The node at a query's `animIndex`, None outside the tree (one
    /// unsigned compare: negative indices wrap to large ones).
    ///
    /// The entry's offset is computed as `(2 * index mod 2^32) * (size / 2)`:
    /// on x86_64 one 32-bit add (which also zero-extends the index) and an
    /// address scale of 8, where `index * 16` takes a zero-extension and a
    /// shift. It is `index * size` for every index below 2^31; only a tree
    /// of 2^31 nodes or more (32 GiB of entries; the engine writes nodes at
    /// 16-bit indices only) answers a negative index, which is inside it as
    /// an unsigned number, with node `animIndex + 2^31`, also inside it
    /// (docs/DIVERGENCES.md).
    #[inline(always)]
    fn entry_at(self, index: i32) -> Option<&'a XAnimEntry> {
        let tree = self.tree.as_ptr();
        let index = index as u32;
        // SAFETY: the header is valid and `nodeCount` entries follow, not
        // written during `'a` (constructor contract); the node read is
        // `index` or `index - 2^31`, both below the checked count.
        unsafe {
            if index < (*tree).nodeCount {
                let first = core::ptr::addr_of!((*tree).entries) as *const XAnimEntry;
                let doubled = index.wrapping_add(index) as usize;
                Some(&*first.byte_add(doubled * (core::mem::size_of::<XAnimEntry>() / 2)))
            } else {
                None
            }
        }
    }

    /// Number of children of `index` (`XAnimGetNumChildren`); 0 outside the tree.
    #[inline(always)]
    pub fn num_children(self, index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) => i32::from(e.childCount),
            None => no_node(),
        }
    }

    /// `firstChildIndex + childIndex` (`XAnimGetChildAt`); `childIndex`
    /// alone outside the tree.
    ///
    /// Quirk: no child-range or leaf check, like the original: on a leaf it
    /// reads bits of the asset pointer.
    #[inline(always)]
    pub fn child_at(self, index: i32, child_index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) => i32::from(parent_view(e).firstChildIndex).wrapping_add(child_index),
            None => child_index,
        }
    }

    /// `XAnimGetAnimName`: the leaf's asset name, or `"<non-leaf anim>"`.
    ///
    /// The constant names come from out-of-line functions, so the leaf
    /// path needs no address of module data (on i386 that costs setting up
    /// the GOT pointer on every call).
    pub fn anim_name(self, index: i32) -> *const c_char {
        Self::anim_name_of(Some(self), index)
    }

    /// [`anim_name`](Self::anim_name), or [`MISSING_NAME`] without tree.
    /// (Out of line in the tests, where `non_null_or_return!` must stay in
    /// a small function.)
    #[cfg_attr(not(test), inline(always))]
    #[cfg_attr(test, inline(never))]
    pub fn anim_name_of(tree: Option<Self>, index: i32) -> *const c_char {
        let Some(tree) = tree else { return missing_name() };
        match tree.entry_at(index) {
            Some(e) => {
                let (child_count, payload) = (e.childCount, payload_word(e));
                if child_count != 0 {
                    return non_leaf_name();
                }
                let asset = non_null_or_return!(payload as *const fileData_t, missing_name());
                // SAFETY: a leaf's payload is NULL or a valid record
                // (constructor contract), and it is not NULL.
                unsafe { (*asset).name }
            }
            None => missing_name(),
        }
    }

    /// `XAnimHasTime`: leaf, or parent with a sync bit; 0 outside the tree.
    #[inline(always)]
    pub fn has_time(self, index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) if e.childCount == 0 => 1,
            // The parent's flags are the payload's low 16 bits.
            Some(e) => i32::from(payload_word(e) as u16 & FLAG_SYNC_MASK != 0),
            None => no_node(),
        }
    }

    /// `XAnimIsPrimitive`: `childCount == 0`; 0 outside the tree.
    #[inline(always)]
    pub fn is_primitive(self, index: i32) -> i32 {
        match self.entry_at(index) {
            Some(e) => i32::from(e.childCount == 0),
            None => no_node(),
        }
    }

    /// `XAnimIsLooped`: parent: the looping sync bit; leaf: the asset's raw
    /// `looped` byte. 0 outside the tree or without loaded asset. (Out of
    /// line in the tests, as [`anim_name_of`](Self::anim_name_of).)
    #[cfg_attr(not(test), inline(always))]
    #[cfg_attr(test, inline(never))]
    pub fn is_looped(self, index: i32) -> i32 {
        let Some(e) = self.entry_at(index) else { return no_node() };
        if e.childCount != 0 {
            return i32::from(parent_view(e).flags & FLAG_SYNC_LOOPING);
        }
        // the asset pointer loaded straight into the register `jrcxz` tests
        let asset = non_null_or_return!(payload_word(e) as *const fileData_t, no_node());
        // SAFETY: a leaf's payload is NULL or a valid record whose parts
        // are NULL or valid (constructor contract); neither is NULL here.
        let parts = non_null_or_return!(unsafe { (*asset).data.xanimParts } as *const XAnimParts, no_node());
        // Quirk: the leaf's byte is returned as is (a 2 stays 2).
        // SAFETY: valid parts, not NULL (above).
        i32::from(unsafe { (*parts).looped })
    }

    /// `XAnimNotetrackExists`: whether the leaf's asset has a note track
    /// named `notetrack`. 0 for parents, outside the tree, without asset.
    pub fn notetrack_exists(self, index: i32, notetrack: u16) -> i32 {
        let Some(parts) = self.entry_at(index).filter(|e| e.childCount == 0).and_then(leaf_parts) else {
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

/// `value`, which the optimiser cannot see through: an empty assembly
/// statement takes it in a register and gives it back. The out-of-line
/// functions below return their constant so, not folded into their callers
/// as a constant, at no instruction (`black_box` goes through the stack).
#[inline(always)]
fn opaque(mut value: usize) -> usize {
    // SAFETY: an empty statement; it only names the register.
    unsafe { core::arch::asm!("/* {0} */", inout(reg) value, options(pure, nomem, nostack, preserves_flags)) };
    value
}

/// [`NON_LEAF_ANIM_NAME`] (out of line: see [`XAnimHandle::anim_name`]).
#[inline(never)]
fn non_leaf_name() -> *const c_char {
    opaque(NON_LEAF_ANIM_NAME.as_ptr() as usize) as *const c_char
}

/// [`MISSING_NAME`] (out of line: see [`XAnimHandle::anim_name`]).
#[cold]
#[inline(never)]
fn missing_name() -> *const c_char {
    opaque(MISSING_NAME.as_ptr() as usize) as *const c_char
}

/// What an integer query returns where the original has no node or asset
/// to read (no tree, index outside the tree, leaf without loaded asset): 0,
/// out of line, so that the path that reads the node does not set up the
/// register first.
#[cold]
#[inline(never)]
pub fn no_node() -> i32 {
    opaque(0) as i32
}

/// A node's payload as one word: the leaf's asset pointer, or the parent's
/// flags and first child in its low 32 bits (x86 is little-endian).
#[inline(always)]
fn payload_word(entry: &XAnimEntry) -> usize {
    // SAFETY: the payload's bytes are initialised (the contract's
    // initialised entries); read as the pointer member, as an integer.
    unsafe { entry.payload.leafAsset as usize }
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
fn leaf_parts<'a>(entry: &XAnimEntry) -> Option<&'a XAnimParts> {
    let asset = leaf_asset(entry)?;
    // SAFETY: a valid record whose parts are NULL or valid (handle contract).
    unsafe { asset.as_ref().data.xanimParts.as_ref() }
}

/// The leaf's asset name (`"(null)"` for a NULL name, as the engine's
/// printf prints it; empty without record), for a diagnostic; assets are
/// only read while a view of their tree lives (`'a`).
fn leaf_name<'a>(entry: &XAnimEntry) -> CText<'a> {
    match leaf_asset(entry) {
        // SAFETY: valid record with NULL or NUL-terminated name.
        Some(asset) => unsafe { c_text(asset.as_ref().name) },
        None => CText::EMPTY,
    }
}

/// A C string; `"(null)"` for NULL (what `%s` prints).
///
/// # Safety
/// `p` is NULL or NUL-terminated and stays valid and unchanged for `'a`.
unsafe fn c_text<'a>(p: *const c_char) -> CText<'a> {
    if p.is_null() {
        CText::NULL
    } else {
        // SAFETY: guaranteed by the caller.
        CText::new(unsafe { CStr::from_ptr(p) })
    }
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

/// The asset of a leaf is missing: `"\x15Cannot find 'xanim/%s'"`
/// (ERR_DROP) with the name the caller looked it up by ([`Self::named`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingAsset;

impl MissingAsset {
    /// The failure, naming the asset `name`.
    pub fn named(self, name: Name<'_>) -> Failure<'_> {
        Failure::NoXAnim { name }
    }
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
    let Some(name) = anim_name else { return Err(MissingAsset.named(Name::C(CText::NULL))) };
    let set = match tree {
        Some(mut tree) => set_leaf_node(engine, &mut tree, node_index, name),
        None => find_leaf_asset(engine, name).map(|_| ()),
    };
    set.map_err(|missing| missing.named(Name::C(CText::new(name))))
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

mod sync;

/// `XAnimSetupSyncNodes`: the sync setup from the root. Its failures name
/// the tree and its assets (read only while the view lives, `'a`).
pub fn setup_sync_nodes<'a>(tree: &mut XAnimMut<'a>) -> Result<(), Failure<'a>> {
    setup_sync_nodes_r(tree, ROOT_NODE_INDEX)
}

/// `XAnimSetupSyncNodes_r`: depth-first in child order; the first parent on
/// a path with a sync bit gets [`FLAG_NOTIFY_SOURCE`] and its children are
/// filled in ([`fill_in_sync_nodes`]); both sync bits →
/// `"\x15animation cannot be sync looping and sync nonlooping"`.
///
/// The original walks every path; on a tree with one path to each node
/// this is its walk, elsewhere a walk that gives the same result without
/// walking a shared subtree again when that cannot change anything
/// (`sync` module), and ends at a cycle (docs/DIVERGENCES.md).
pub fn setup_sync_nodes_r<'a>(tree: &mut XAnimMut<'a>, anim_index: u32) -> Result<(), Failure<'a>> {
    if sync::is_forest(tree) {
        return sync::walk_forest(tree, anim_index, None);
    }
    sync::Walk::new(tree).setup(anim_index)
}

/// `XAnimFillInSyncNodes_r`: a leaf's raw `looped` byte must equal
/// `require_looping` (else `"\x15animation '%s' in '%s' cannot be sync
/// looping and nonlooping"` when looping is required, `"... nonlooping and
/// looping"` otherwise, with asset and tree name); a parent that already
/// has a sync bit → `"\x15duplicate specification of animation sync in
/// '%s', %d nodes above '%s'"` (tree name, first-child depth to a leaf,
/// that leaf's name); otherwise the parent gets the sync bit and its
/// children are filled in.
pub fn fill_in_sync_nodes<'a>(tree: &mut XAnimMut<'a>, anim_index: u32, require_looping: u8) -> Result<(), Failure<'a>> {
    if sync::is_forest(tree) {
        return sync::walk_forest(tree, anim_index, Some(require_looping));
    }
    sync::Walk::new(tree).fill(anim_index, require_looping)
}

/// The nested-sync error: counts first-child steps from `index` down to a
/// leaf. A chain that leaves the tree or runs longer than the tree (a
/// cycle) stops there and names no leaf.
fn duplicate_sync<'a>(tree_name: CText<'a>, entries: &[XAnimEntry], index: u32) -> Failure<'a> {
    let mut depth: i32 = 0;
    let mut cursor = entries.get(index as usize);
    let mut leaf = CText::EMPTY;
    while let Some(entry) = cursor {
        if depth as usize > entries.len() {
            break;
        }
        depth += 1;
        cursor = entries.get(usize::from(parent_view(entry).firstChildIndex));
        if let Some(next) = cursor {
            if next.childCount == 0 {
                leaf = leaf_name(next);
                break;
            }
        }
    }
    Failure::DuplicateSync { tree: tree_name, depth, leaf }
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
