//! The tree registry, the reference sets and the load pipeline
//! (`script_anim_runtime.c` and the anim parts of the compiler glue).
//!
//! State kept here, per the C original's observable behaviour:
//!
//! * the registry *root*: canonical tree name → registered tree (one root
//!   for both rows; the load boundary, the hook the engine's
//!   `Scr_BeginLoadAnimTrees` and `Scr_EndLoadAnimTrees` call, drops it);
//! * two *rows* (`xanim_activePoolPayloadSlot` 0/1) of 127 one-based
//!   registry indices, in first-registration order: their counts and built
//!   trees are the engine's `script_animTreeCounts` / `script_animTrees`
//!   ([`Globals`]), the registry handles are kept here;
//! * per registered tree its *reference set* (the names scripts and C code
//!   asked for, each with its queue of 4-byte cells) and, once built, its
//!   `XAnim`;
//! * the queued cells themselves.  A cell is written when it is queued (0,
//!   or on i386 the address of the previously queued cell of the same name:
//!   the C original threads its list through the cells) and again with
//!   `(treeIndex << 16) | nodeIndex` when the name is resolved.
//!
//! Failures ([`TreeFailure`]) name the module's names by [`NameId`]: their
//! texts are written against [`AnimTrees::names`]. The engine a call is
//! given ([`TreeEngine`]) says what its services fail with; the registry's
//! own failures become that type too, so one call returns one error type.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use crate::atr::{self as parse, CompileError, Frame, ParseContext, ParseTree, Token, NONE};
use crate::names::{CName, NameId, Names};
use crate::text::{level, Report, Text};
use core::ffi::CStr;
use core::fmt::Write as _;

/// Registered names per row (`SCRIPT_ANIM_TREE_REGISTERED_CAPACITY`).
pub const TREE_CAPACITY: usize = 127;
/// Cells of a slot of the engine's tree row (`script_animTrees[2][128]`).
pub const TREE_SLOTS: usize = TREE_CAPACITY + 1;
/// Longest tree name that fits `animtrees/<name>.atr` in a 64-byte qpath.
pub const MAX_TREE_NAME: usize = 49;
/// Multiplier of the tree checksum.
const HASH_MULTIPLIER: u32 = 31;

/// Bound of the name table kept between loads.
const MAX_NAMES: usize = 1 << 20;
/// Bound of the token cache kept between loads (bytes of text).
const MAX_CACHED_BYTES: usize = 64 << 20;

/// A `.atr` text and its tokens.
#[derive(Default)]
struct CachedText {
    text: Vec<u8>,
    tokens: Vec<Token>,
}

/// An address the registry keeps and hands back to the engine that made it
/// (a built tree, a reference cell): opaque to the registry, which compares
/// it, stores it and, for a cell, writes its number into the cell queued
/// after it (i386) and into the text of a failure.
pub trait Addr: Copy + Eq + core::fmt::Debug {
    /// No address (the C NULL).
    const NULL: Self;
    /// The address as a number.
    fn number(self) -> usize;
}

/// An engine that never dereferences an address (the tool's, the tests'):
/// an index or a key of its own.
impl Addr for usize {
    const NULL: Self = 0;
    fn number(self) -> usize {
        self
    }
}

/// The engine a registry call is given: its trees `T`, cells `C` and
/// failures `F`.
pub type Engine<'e, T, C, F> = dyn TreeEngine<Tree = T, Cell = C, Failure = F> + 'e;

/// The asset of a leaf is missing (`FS_GetDataForFile("xanim", name, "")`
/// found nothing): the registry raises [`TreeFailure::NoXAnim`] naming the
/// leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingAsset;

/// A failure of the registry: what the engine is told, through
/// [`TreeFailure::report`], with the text of [`TreeFailure::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeFailure {
    /// A `.atr` parse error, or a misuse the script compiler reports:
    /// `CompileError(source_pos, message)` (no marker).
    Compile(CompileError),
    /// `\x15maximum animation tree count exceeded (<capacity>)`: the
    /// registry's capacity, 127.
    TreeCount {
        /// [`TREE_CAPACITY`].
        capacity: u16,
    },
    /// `\x15duplicate animation '<name>' in 'animtrees/<tree>.atr'`.
    DuplicateAnimation {
        /// The animation.
        name: NameId,
        /// The tree.
        tree: NameId,
    },
    /// `\x15animation tree path is too long`.
    TreePathTooLong,
    /// `animation '<name>' not defined in anim tree '<tree>'`: through
    /// `CompileError2(code_pos, ...)` when `in_code` (a cell of script
    /// code), else ERR_DROP with the marker.
    NotDefined {
        /// The animation referenced.
        name: NameId,
        /// The tree it was looked for in.
        tree: NameId,
        /// The reference's cell, as its engine numbers it.
        code_pos: usize,
        /// Whether the cell is script code.
        in_code: bool,
    },
    /// `\x15Cannot find 'xanim/<name>'`: a leaf's asset is missing.
    NoXAnim {
        /// The leaf.
        name: NameId,
    },
}

impl From<CompileError> for TreeFailure {
    fn from(e: CompileError) -> Self {
        TreeFailure::Compile(e)
    }
}

impl TreeFailure {
    /// How the failure is raised.
    pub fn report(&self) -> Report {
        match *self {
            TreeFailure::Compile(CompileError { source_pos, .. }) => Report::Compile { source_pos },
            TreeFailure::NotDefined { code_pos, in_code: true, .. } => Report::Compile2 { code_pos },
            _ => Report::Error { level: level::DROP },
        }
    }

    /// Appends the failure's text to `out`; `names` is the table its names
    /// are in ([`AnimTrees::names`]; an unknown name, or no table, prints
    /// as the empty string).
    pub fn write(&self, names: Option<&Names>, out: &mut Text) {
        let name_of = |id: NameId| names.map_or(&[][..], |n| n.get(id));
        match *self {
            TreeFailure::Compile(CompileError { message, .. }) => out.push(message),
            TreeFailure::TreeCount { capacity } => {
                let _ = write!(out, "\x15maximum animation tree count exceeded ({capacity})");
            }
            TreeFailure::DuplicateAnimation { name, tree } => {
                out.push(b"\x15duplicate animation '");
                out.push(name_of(name));
                out.push(b"' in 'animtrees/");
                out.push(name_of(tree));
                out.push(b".atr'");
            }
            TreeFailure::TreePathTooLong => out.push(b"\x15animation tree path is too long"),
            TreeFailure::NotDefined { name, tree, in_code, .. } => {
                if !in_code {
                    out.push(b"\x15");
                }
                out.push(b"animation '");
                out.push(name_of(name));
                out.push(b"' not defined in anim tree '");
                out.push(name_of(tree));
                out.push(b"'");
            }
            TreeFailure::NoXAnim { name } => write_no_xanim(name_of(name), out),
        }
    }

    /// The failure's text (see [`TreeFailure::write`]).
    pub fn text(&self, names: Option<&Names>) -> Text {
        let mut text = Text::new();
        self.write(names, &mut text);
        text
    }
}

/// `\x15Cannot find 'xanim/<name>'`, the text of a missing asset, whoever
/// looked it up.
pub fn write_no_xanim(name: &[u8], out: &mut Text) {
    out.push(b"\x15Cannot find 'xanim/");
    out.push(name);
    out.push(b"'");
}

/// The engine services the registry uses (implemented by the FFI layer with
/// the engine imports and the XAnim building functions; by a mock in tests).
///
/// The addresses of trees and cells are the engine's own types: the C
/// units' are memory they dereference (only their constructors' contract
/// vouches for them), an engine without memory of the engine's uses plain
/// numbers (`usize`).
pub trait TreeEngine {
    /// The address of a built tree.
    type Tree: Addr;
    /// The address of a reference cell.
    type Cell: Addr;
    /// What the engine's services fail with: the registry's own failures
    /// become it too.
    type Failure: From<TreeFailure>;
    /// `Scr_IsIdentifier`.
    fn is_identifier(&mut self, text: &CStr) -> bool;
    /// `Scr_CreateCanonicalFilename` followed by `SL_ConvertToString`: the
    /// canonical name's bytes are appended to `out`.
    fn canonical_filename(&mut self, filename: &CStr, out: &mut Vec<u8>);
    /// `SL_ConvertToString(handle)`.
    fn string_of(&mut self, handle: u16) -> &[u8];
    /// `Scr_AddSourceBuffer(path)`: the file's text (up to its first NUL),
    /// valid until [`clear_temp_memory_high`](Self::clear_temp_memory_high);
    /// None when the file is missing.
    fn add_source_buffer(&mut self, path: &CStr) -> Option<&[u8]>;
    /// `Hunk_ClearTempMemoryHigh`.
    fn clear_temp_memory_high(&mut self);
    /// `XAnimAllocTree` named after `FS_GetDataForFile("animtrees", tree, ".atr")`
    /// (its record name, or `(savegame)`), through the load's allocator.
    fn alloc_tree(&mut self, tree_name: CName<'_>, node_count: u32) -> Result<Self::Tree, Self::Failure>;
    /// `XAnimSetParentNode`.
    fn set_parent_node(&mut self, tree: Self::Tree, index: u16, name: CName<'_>, first_child: u16, child_count: u16, flags: u16);
    /// `XAnimSetLeafNode`; the asset missing is the registry's
    /// `Cannot find 'xanim/<name>'`.
    fn set_leaf_node(&mut self, tree: Self::Tree, index: u16, name: CName<'_>) -> Result<(), MissingAsset>;
    /// `XAnimLoadFile(name, Hunk_AllocXAnimPrecache)`.
    fn load_xanim(&mut self, name: CName<'_>) -> Result<(), Self::Failure>;
    /// `XAnimSetupSyncNodes`. The names of its failures are the tree's and
    /// its assets' (engine memory that outlives the exported call).
    fn setup_sync_nodes(&mut self, tree: Self::Tree) -> Result<(), Self::Failure>;
    /// Stores a 4-byte value into a (possibly unaligned) cell.
    fn write_cell(&mut self, cell: Self::Cell, value: u32);
    /// `ScriptCode_IsLoadedCodePos`.
    fn is_loaded_code_pos(&mut self, cell: Self::Cell) -> bool;
    /// `Scr_IsInDeveloperOpcodeMemory`.
    fn is_developer_code_pos(&mut self, cell: Self::Cell) -> bool;
}

/// The engine-owned globals a call reads or writes (the engine's data
/// symbols, reached by the FFI layer).
pub struct Globals<'a, T> {
    /// `xanim_activePoolPayloadSlot`.
    pub slot: i32,
    /// `script_animTreeChecksum`.
    pub checksum: &'a mut u32,
    /// `script_animTreeCounts`: trees registered per slot (the engine's
    /// Begin zeroes the slot's; `Scr_UsingTreeInternal` counts).
    pub counts: &'a mut [i32; 2],
    /// `script_animTrees`: per slot, tree `i` as `Scr_LoadAnimTreeAtIndex`
    /// built it (the engine's Begin sets `[slot][0]` to NULL), the row the
    /// engine's readers use.
    pub trees: &'a mut [[T; TREE_SLOTS]; 2],
}

const NO_CELL: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct CellLink<C> {
    addr: C,
    prev: u32,
}

#[derive(Clone, Copy)]
struct RefEntry {
    name: NameId,
    /// Newest queued cell (`NO_CELL` when none).
    head: u32,
    /// Resolved (the C payload 0).
    resolved: bool,
}

/// A tree's reference set: names in creation order, with their cell queues
/// (looked up through [`RefIndex`]).
#[derive(Default)]
struct RefSet {
    entries: Vec<RefEntry>,
}

/// (reference set, name) → index in the set's entries, for one load: per
/// name a list of the sets that reference it (usually one or two), newest
/// first. A name's list head carries the load's epoch, so a new load starts
/// empty without touching the per-name table.
#[derive(Default)]
struct RefIndex {
    /// Per name: (epoch, newest link).
    heads: Vec<(u32, u32)>,
    links: Vec<RefLink>,
}

#[derive(Clone, Copy)]
struct RefLink {
    refset: u32,
    index: u32,
    next: u32,
}

const NO_LINK: u32 = u32::MAX;

impl RefIndex {
    const fn new() -> Self {
        Self { heads: Vec::new(), links: Vec::new() }
    }

    #[inline]
    fn get(&self, epoch: u32, refset: u32, name: NameId) -> Option<u32> {
        let mut link = match self.heads.get(name as usize) {
            Some(&(e, head)) if e == epoch => head,
            _ => return None,
        };
        while let Some(l) = self.links.get(link as usize) {
            if l.refset == refset {
                return Some(l.index);
            }
            link = l.next;
        }
        None
    }

    fn insert(&mut self, epoch: u32, refset: u32, name: NameId, index: u32) {
        let slot = name as usize;
        if self.heads.len() <= slot {
            self.heads.resize(slot + 1, (0, NO_LINK));
        }
        let Some(head) = self.heads.get_mut(slot) else { return };
        let next = if head.0 == epoch { head.1 } else { NO_LINK };
        *head = (epoch, self.links.len() as u32);
        self.links.push(RefLink { refset, index, next });
    }

    /// Ends a load; `next_epoch` is the epoch of the next one.
    fn clear(&mut self, next_epoch: u32) {
        self.links.clear();
        // A wrapped epoch could meet an old tag again.
        if next_epoch == 1 {
            self.heads.clear();
        }
    }
}

#[derive(Clone, Copy)]
struct Entry<T> {
    name: NameId,
    /// Reference set (key 0 of the C tree object): index into `refsets`.
    refset: Option<u32>,
    /// Built tree (key 1 of the C tree object).
    tree: Option<T>,
}

/// A registry index in a row: the entry it names, in the epoch it was set.
#[derive(Clone, Copy, Default)]
struct Handle {
    epoch: u32,
    entry: u32,
}

#[derive(Clone, Copy)]
/// The registry handles of a slot (its count and trees are the engine's,
/// [`Globals`]).
struct Row {
    handles: [Handle; TREE_SLOTS],
}

impl Row {
    const EMPTY: Row = Row { handles: [Handle { epoch: 0, entry: 0 }; TREE_SLOTS] };
}

/// A parent being filled (one level of the C recursion): the next child to
/// visit, the node index it gets, and the next free node index.
#[derive(Clone, Copy)]
struct BuildFrame {
    cursor: u32,
    child_index: u32,
    next_free: u32,
}

/// The whole module state.
pub struct AnimTrees<T, C> {
    /// `script_animCheckEnabled`.
    pub anim_check: i32,
    /// Whether a queued cell holds the previous cell's address (i386).
    pub links_in_cells: bool,
    names: Names,
    /// Tokens of every `.atr` text met, by tree name (checked against the
    /// text each time).
    cache: BTreeMap<NameId, CachedText>,
    cached_bytes: usize,
    tree: ParseTree,
    frames: Vec<Frame>,
    build: Vec<BuildFrame>,
    stack: Vec<u32>,
    scratch: Vec<u8>,
    /// Registry root: canonical name → entry.
    root: BTreeMap<NameId, u32>,
    entries: Vec<Entry<T>>,
    epoch: u32,
    rows: [Row; 2],
    /// Reference sets of the load: the first `refset_count` (the rest are
    /// kept for their buffers).
    refsets: Vec<RefSet>,
    refset_count: usize,
    /// (reference set, name) → index in the set's entries.
    ref_index: RefIndex,
    cells: Vec<CellLink<C>>,
    /// Engine string handle → name last seen for it (checked on use).
    handle_names: Vec<NameId>,
}

impl<T: Addr, C: Addr> Default for AnimTrees<T, C> {
    fn default() -> Self {
        Self::new()
    }
}

/// `script_animCurrentUsingTree` value of a reference set that is no longer
/// known (set by an earlier load): references queued there never resolve.
const ORPHAN_REFSET: u16 = u16::MAX;

impl<T: Addr, C: Addr> AnimTrees<T, C> {
    /// The module's names, which its failures name by id.
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// The state before the first load.
    pub const fn new() -> Self {
        Self {
            anim_check: 0,
            links_in_cells: cfg!(target_pointer_width = "32"),
            names: Names::new(),
            cache: BTreeMap::new(),
            cached_bytes: 0,
            tree: ParseTree::new(),
            frames: Vec::new(),
            build: Vec::new(),
            stack: Vec::new(),
            scratch: Vec::new(),
            root: BTreeMap::new(),
            entries: Vec::new(),
            epoch: 1,
            rows: [Row::EMPTY; 2],
            refsets: Vec::new(),
            refset_count: 0,
            ref_index: RefIndex::new(),
            cells: Vec::new(),
            handle_names: Vec::new(),
        }
    }

    fn row_index(slot: i32) -> usize {
        // Rows 0 and 1 exist; any other slot value selects row 1
        // (docs/DIVERGENCES.md).
        if slot == 0 {
            0
        } else {
            1
        }
    }

    fn entry_of(&self, handle: Handle) -> Option<u32> {
        (handle.epoch == self.epoch && (handle.entry as usize) < self.entries.len()).then_some(handle.entry)
    }

    /// `SetAnimCheck`.
    pub fn set_anim_check(&mut self, enabled: i32) {
        self.anim_check = enabled;
    }

    /// What the engine's `Scr_BeginLoadAnimTrees` does to the module, for a
    /// caller without the engine (the tools, the tests): the load boundary,
    /// then the slot's count and first tree zeroed.
    pub fn begin_load(&mut self, g: &mut Globals<'_, T>) {
        self.end_load();
        let r = Self::row_index(g.slot);
        g.counts[r] = 0;
        g.trees[r][0] = T::NULL;
    }

    /// The load boundary (the hook the engine's `Scr_BeginLoadAnimTrees` and
    /// `Scr_EndLoadAnimTrees` call; `Scr_EndLoadAnimTrees` for a caller
    /// without the engine): drops the registry, every reference set and
    /// queued cell, and the names of the load.
    pub fn end_load(&mut self) {
        self.root.clear();
        self.entries.clear();
        self.refset_count = 0;
        if self.refsets.len() > TREE_CAPACITY * 4 {
            self.refsets.truncate(TREE_CAPACITY * 4);
        }
        self.cells.clear();
        self.tree.release();
        // Names and token lists outlive a load (the next load meets the same
        // files); they are dropped when they grow large.
        if self.names.len() > MAX_NAMES || self.cached_bytes > MAX_CACHED_BYTES {
            self.names.clear();
            self.handle_names.clear();
            self.tree.forget_names();
            self.cache.clear();
            self.cached_bytes = 0;
        }
        self.epoch = self.epoch.wrapping_add(1).max(1);
        self.ref_index.clear(self.epoch);
    }

    fn intern_canonical<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, filename: &CStr) -> NameId {
        // Frames own nothing across the import: the buffer is the state's.
        self.scratch.clear();
        engine.canonical_filename(filename, &mut self.scratch);
        self.names.intern(&self.scratch)
    }

    fn new_refset(&mut self) -> u32 {
        let index = self.refset_count;
        match self.refsets.get_mut(index) {
            Some(set) => set.entries.clear(),
            None => self.refsets.push(RefSet::default()),
        }
        self.refset_count = index + 1;
        index as u32
    }

    /// `Scr_UsingTreeInternal`: registers `filename` if new; returns the
    /// `script_animCurrentUsingTree` value of its reference set and the
    /// registry index (0 when the name is not in this row).
    pub fn using_tree_internal<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, g: &mut Globals<'_, T>, filename: &CStr) -> Result<(u16, i32), F> {
        let name = self.intern_canonical(engine, filename);
        let r = Self::row_index(g.slot);
        let (entry, tree_index) = match self.root.get(&name).copied() {
            None => {
                // One-based rows of 128 cells: the 128th new name is refused
                // before anything is registered (names already known still
                // resolve at capacity).
                if g.counts[r] >= TREE_CAPACITY as i32 {
                    return Err(F::from(TreeFailure::TreeCount { capacity: TREE_CAPACITY as u16 }));
                }
                let entry = self.entries.len() as u32;
                self.entries.push(Entry { name, refset: None, tree: None });
                self.root.insert(name, entry);
                g.counts[r] += 1;
                let count = g.counts[r];
                // In range: a count below zero is never written (Begin
                // zeroes it), the capacity test bounds it above.
                if let Some(handle) = usize::try_from(count).ok().and_then(|i| self.rows[r].handles.get_mut(i)) {
                    *handle = Handle { epoch: self.epoch, entry };
                }
                (entry, count)
            }
            Some(entry) => {
                let row = &self.rows[r];
                let count = g.counts[r].clamp(0, TREE_CAPACITY as i32) as usize;
                let found = (1..=count).find(|&i| self.entry_of(row.handles[i]) == Some(entry));
                (entry, found.map_or(0, |i| i as i32))
            }
        };
        let refset = match self.entries[entry as usize].refset {
            Some(refset) => refset,
            None => {
                let refset = self.new_refset();
                self.entries[entry as usize].refset = Some(refset);
                refset
            }
        };
        Ok((Self::using_value(refset), tree_index))
    }

    fn using_value(refset: u32) -> u16 {
        // 1-based; a (never seen) overflow maps to the orphan set.
        if refset + 1 < u32::from(ORPHAN_REFSET) {
            (refset + 1) as u16
        } else {
            ORPHAN_REFSET
        }
    }

    fn refset_of_using(&mut self, using: u16) -> u32 {
        let index = u32::from(using).wrapping_sub(1);
        if using != ORPHAN_REFSET && (index as usize) < self.refset_count {
            return index;
        }
        // An unknown value: a detached set whose references never resolve.
        self.new_refset()
    }

    /// `Scr_UsingTree` (`#using_animtree`): returns the new values of
    /// `script_animCurrentUsingTree` and `script_activeAnimTreeHandle`.
    pub fn using_tree<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, g: &mut Globals<'_, T>, name: &CStr, source_pos: u32) -> Result<(u16, i32), F> {
        if !engine.is_identifier(name) {
            return Err(F::from(TreeFailure::Compile(CompileError { source_pos, message: b"bad anim tree name" })));
        }
        self.using_tree_internal(engine, g, name)
    }

    /// `Scr_EmitAnimationInternal`: queues `cell` for `name` in a set.
    fn emit_internal<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, cell: C, name: NameId, refset: u32, source_pos: u32, comment_depth: i32) -> Result<(), F> {
        if comment_depth != 0 {
            return Err(F::from(TreeFailure::Compile(CompileError { source_pos, message: b"cannot reference animation from /# ... #/ comment" })));
        }
        let links = self.links_in_cells;
        let Some(set) = self.refsets.get_mut(..self.refset_count).and_then(|s| s.get_mut(refset as usize)) else { return Ok(()) };
        let link = self.cells.len() as u32;
        match self.ref_index.get(self.epoch, refset, name) {
            None => {
                let index = set.entries.len() as u32;
                set.entries.push(RefEntry { name, head: link, resolved: false });
                self.ref_index.insert(self.epoch, refset, name, index);
                engine.write_cell(cell, 0);
                self.cells.push(CellLink { addr: cell, prev: NO_CELL });
            }
            Some(index) => {
                let Some(entry) = set.entries.get_mut(index as usize) else { return Ok(()) };
                let prev = if entry.resolved { NO_CELL } else { entry.head };
                // Quirk: on i386 the cell holds the previous cell's address
                // (the C list is threaded through the cells); 64-bit builds
                // keep the list aside and store 0.
                let value = match self.cells.get(prev as usize) {
                    Some(p) if links => p.addr.number() as u32,
                    _ => 0,
                };
                entry.head = link;
                entry.resolved = false;
                engine.write_cell(cell, value);
                self.cells.push(CellLink { addr: cell, prev });
            }
        }
        Ok(())
    }

    /// `Scr_EmitAnimation` (`%name` in script code).
    pub fn emit_animation<F: From<TreeFailure>>(
        &mut self,
        engine: &mut Engine<'_, T, C, F>,
        cell: C,
        anim_handle: u16,
        source_pos: u32,
        using: u16,
        comment_depth: i32,
    ) -> Result<(), F> {
        if using == 0 {
            return Err(F::from(TreeFailure::Compile(CompileError { source_pos, message: b"#using_animtree was not specified" })));
        }
        let text = engine.string_of(anim_handle);
        let slot = usize::from(anim_handle);
        let name = match self.handle_names.get(slot) {
            Some(&id) if id != NONE && self.names.get(id) == text => id,
            _ => {
                let id = self.names.intern(text);
                if self.handle_names.len() <= slot {
                    self.handle_names.resize(usize::from(u16::MAX) + 1, NONE);
                }
                self.handle_names[slot] = id;
                id
            }
        };
        let refset = self.refset_of_using(using);
        self.emit_internal(engine, cell, name, refset, source_pos, comment_depth)
    }

    /// `Scr_FindAnim` (C-side reference to a `scr_anim_t` cell).
    pub fn find_anim<F: From<TreeFailure>>(
        &mut self,
        engine: &mut Engine<'_, T, C, F>,
        g: &mut Globals<'_, T>,
        tree_name: &CStr,
        anim_name: &CStr,
        cell: C,
        comment_depth: i32,
    ) -> Result<(), F> {
        let name = self.names.intern_lowercase(anim_name.to_bytes());
        let (using, _) = self.using_tree_internal(engine, g, tree_name)?;
        let refset = self.refset_of_using(using);
        self.emit_internal(engine, cell, name, refset, 0, comment_depth)
    }

    /// `Scr_FindAnimTree`: the built tree of a registered name, or 0.
    pub fn find_anim_tree<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, filename: &CStr) -> T {
        let name = self.intern_canonical(engine, filename);
        match self.root.get(&name) {
            Some(&entry) => self.entries.get(entry as usize).and_then(|e| e.tree).unwrap_or(T::NULL),
            None => T::NULL,
        }
    }

    /// `Scr_PrecacheAnimTrees`: builds every tree of the row.
    pub fn precache<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, g: &mut Globals<'_, T>) -> Result<(), F> {
        let mut index = 1;
        while index <= g.counts[Self::row_index(g.slot)] {
            self.load_at_index(engine, g, index)?;
            index += 1;
        }
        Ok(())
    }

    /// `ConnectScriptToAnim`: resolves the references to `name`.
    fn connect<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, refset: u32, node_index: u32, tree_name: NameId, name: NameId, tree_index: i32) -> Result<(), F> {
        let Some(set) = self.refsets.get_mut(..self.refset_count).and_then(|s| s.get_mut(refset as usize)) else { return Ok(()) };
        let Some(index) = self.ref_index.get(self.epoch, refset, name) else { return Ok(()) };
        let Some(entry) = set.entries.get_mut(index as usize) else { return Ok(()) };
        // Quirk: the first node of a referenced name (in creation order)
        // binds it; a second node of that name anywhere in the tree is an
        // error, while unreferenced names may repeat across blocks.
        if entry.resolved {
            return Err(F::from(TreeFailure::DuplicateAnimation { name, tree: tree_name }));
        }
        let packed = (u32::from(tree_index as u16) << 16) | u32::from(node_index as u16);
        let mut link = entry.head;
        entry.head = NO_CELL;
        entry.resolved = true;
        while let Some(&cell) = self.cells.get(link as usize) {
            engine.write_cell(cell.addr, packed);
            link = cell.prev;
        }
        Ok(())
    }

    /// `Scr_LoadAnimTreeAtIndex`: the build pipeline of one registered tree.
    pub fn load_at_index<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, g: &mut Globals<'_, T>, tree_index: i32) -> Result<(), F> {
        let r = Self::row_index(g.slot);
        // Indices outside 1..=127, never-set or stale indices: nothing to do
        // (docs/DIVERGENCES.md).
        let Some(&handle) = usize::try_from(tree_index).ok().filter(|&i| i >= 1).and_then(|i| self.rows[r].handles.get(i)) else {
            return Ok(());
        };
        let Some(entry_id) = self.entry_of(handle) else { return Ok(()) };
        let entry = self.entries[entry_id as usize];
        if entry.tree.is_some() {
            return Ok(());
        }
        let slot_index = tree_index as usize;
        let Some(refset) = entry.refset else {
            g.trees[r][slot_index] = T::NULL;
            return Ok(());
        };
        let tree_name = entry.name;

        // Scr_LoadAnimTreeInternal.
        let name_len = self.names.get(tree_name).len();
        if name_len > MAX_TREE_NAME {
            return Err(F::from(TreeFailure::TreePathTooLong));
        }
        let mut path = [0u8; 64];
        path[..10].copy_from_slice(b"animtrees/");
        path[10..10 + name_len].copy_from_slice(self.names.get(tree_name));
        path[10 + name_len..10 + name_len + 4].copy_from_slice(b".atr");
        let path = CStr::from_bytes_until_nul(&path).unwrap_or(c"");
        let Some(text) = engine.add_source_buffer(path) else {
            // Quirk: a missing file is silent: the tree is dropped from the
            // registry (NULL tree), its queued references are never reported
            // and keep what they hold (0, or on i386 the list links).
            if self.root.get(&tree_name) == Some(&entry_id) {
                self.root.remove(&tree_name);
            }
            g.trees[r][slot_index] = T::NULL;
            return Ok(());
        };
        let cached = self.cache.entry(tree_name).or_default();
        if cached.text != text {
            self.cached_bytes = self.cached_bytes.wrapping_sub(cached.text.len()).wrapping_add(text.len());
            cached.text.clear();
            cached.text.extend_from_slice(text);
            // The text is a C string's bytes (TreeEngine::add_source_buffer).
            parse::tokenize_c_text(text, &mut self.names, &mut cached.tokens);
        }
        let void_name = self.names.intern(b"void");
        let void_loop_name = self.names.intern(b"void_loop");
        self.tree.reset(tree_name, self.names.len());
        if let Some(set) = self.refsets.get(..self.refset_count).and_then(|s| s.get(refset as usize)) {
            for e in &set.entries {
                self.tree.mark_referenced(e.name);
            }
        }
        let cx = ParseContext { anim_check: self.anim_check != 0, void_name, void_loop_name };
        let tokens = self.cache.get(&tree_name).map_or(&[][..], |c| &c.tokens[..]);
        parse::parse(tokens, &mut self.tree, &mut self.frames, &cx).map_err(|e| F::from(TreeFailure::Compile(e)))?;
        engine.clear_temp_memory_high();

        let node_count = self.count_nodes();
        let tree = engine.alloc_tree(self.names.c_name(tree_name), node_count)?;
        let root_name = self.names.intern(b"root");
        self.connect(engine, refset, 0, tree_name, root_name, tree_index)?;
        self.create_tree(engine, g, refset, tree, tree_name, tree_index)?;
        self.check_defined(refset)
            .map_or(Ok(()), |(cell, name)| Err(Self::undefined_failure(engine, cell, name, tree_name)))?;
        self.precache_leaves(engine)?;
        self.entries[entry_id as usize].refset = None;
        self.entries[entry_id as usize].tree = Some(tree);
        engine.setup_sync_nodes(tree)?;
        g.trees[r][slot_index] = tree;
        Ok(())
    }

    /// `Scr_GetAnimTreeSize` of the parsed tree.
    fn count_nodes(&mut self) -> u32 {
        // Every kept block has at least one child, so this is the number of
        // reachable nodes.
        let mut count: u32 = 0;
        self.stack.clear();
        self.stack.push(0);
        while let Some(node) = self.stack.pop() {
            count = count.wrapping_add(1);
            for (child, n) in self.tree.children(node) {
                if n.is_block {
                    self.stack.push(child);
                } else {
                    count = count.wrapping_add(1);
                }
            }
        }
        count
    }

    /// `Scr_CreateAnimationTree` from the root: level-by-level indices per
    /// parent, checksum, parent and leaf nodes.
    ///
    /// Quirk: a parent's children (newest first) take consecutive indices
    /// before any grandchild block is allocated; the checksum
    /// (`script_animTreeChecksum`) is never reset, so it accumulates over
    /// every tree of every load.
    fn create_tree<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, g: &mut Globals<'_, T>, refset: u32, tree: T, tree_name: NameId, tree_index: i32) -> Result<(), F> {
        self.build.clear();
        let frame = self.enter_parent(engine, g, tree, 0, 0, 1, true);
        self.build.push(frame);
        while let Some(&top) = self.build.last() {
            let Some(&child) = self.tree.nodes.get(top.cursor as usize) else {
                // All children done: the parent continues after this block.
                self.build.pop();
                if let Some(parent) = self.build.last_mut() {
                    parent.next_free = top.next_free;
                    parent.child_index = parent.child_index.wrapping_add(1);
                }
                continue;
            };
            if let Some(t) = self.build.last_mut() {
                t.cursor = child.next_sibling;
            }
            self.connect(engine, refset, top.child_index, tree_name, child.name, tree_index)?;
            if child.is_block {
                let frame = self.enter_parent(engine, g, tree, top.cursor, top.child_index, top.next_free, false);
                self.build.push(frame);
            } else {
                *g.checksum = g.checksum.wrapping_mul(HASH_MULTIPLIER).wrapping_add(top.child_index);
                engine
                    .set_leaf_node(tree, top.child_index as u16, self.names.c_name(child.name))
                    .map_err(|MissingAsset| F::from(TreeFailure::NoXAnim { name: child.name }))?;
                if let Some(t) = self.build.last_mut() {
                    t.child_index = t.child_index.wrapping_add(1);
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn enter_parent<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>, g: &mut Globals<'_, T>, tree: T, node: u32, node_index: u32, first_child: u32, is_root: bool) -> BuildFrame {
        let mut child_count: u16 = 0;
        for _ in self.tree.children(node) {
            child_count = child_count.wrapping_add(1);
        }
        let n = self.tree.nodes.get(node as usize).copied();
        let flags = n.map_or(0, |n| n.flags) as u16;
        let c = g.checksum.wrapping_mul(HASH_MULTIPLIER).wrapping_add(node_index);
        let c = c.wrapping_mul(HASH_MULTIPLIER).wrapping_add(first_child);
        let c = c.wrapping_mul(HASH_MULTIPLIER).wrapping_add(u32::from(child_count));
        *g.checksum = c.wrapping_mul(HASH_MULTIPLIER).wrapping_add(u32::from(flags));
        let name = if is_root { CName::ROOT } else { self.names.c_name(n.map_or(0, |n| n.name)) };
        engine.set_parent_node(tree, node_index as u16, name, first_child as u16, child_count, flags);
        let cursor = n.map_or(NONE, |n| n.first_child);
        BuildFrame { cursor, child_index: first_child, next_free: first_child.wrapping_add(u32::from(child_count)) }
    }

    /// `Scr_CheckAnimsDefined`: the newest still-unresolved name, with its
    /// newest cell (Quirk: names are walked newest first and the first hit
    /// is reported, through `CompileError2` for script code and `Com_Error`
    /// for any other cell).
    fn check_defined(&self, refset: u32) -> Option<(C, NameId)> {
        let set = self.refsets.get(..self.refset_count)?.get(refset as usize)?;
        let entry = set.entries.iter().rev().find(|e| !e.resolved)?;
        let cell = self.cells.get(entry.head as usize).map_or(C::NULL, |c| c.addr);
        Some((cell, entry.name))
    }

    fn undefined_failure<F: From<TreeFailure>>(engine: &mut Engine<'_, T, C, F>, cell: C, name: NameId, tree: NameId) -> F {
        let loaded = engine.is_loaded_code_pos(cell);
        let developer = engine.is_developer_code_pos(cell);
        F::from(TreeFailure::NotDefined { name, tree, code_pos: cell.number(), in_code: loaded || developer })
    }

    /// `Scr_PrecacheAnimationTree`: loads every leaf's xanim, depth first,
    /// children in list order.
    fn precache_leaves<F: From<TreeFailure>>(&mut self, engine: &mut Engine<'_, T, C, F>) -> Result<(), F> {
        self.stack.clear();
        self.stack.push(self.tree.nodes.first().map_or(NONE, |n| n.first_child));
        while let Some(&cursor) = self.stack.last() {
            let Some(&child) = self.tree.nodes.get(cursor as usize) else {
                self.stack.pop();
                continue;
            };
            if let Some(t) = self.stack.last_mut() {
                *t = child.next_sibling;
            }
            if child.is_block {
                self.stack.push(child.first_child);
            } else {
                engine.load_xanim(self.names.c_name(child.name))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod ref_index_tests {
    use std::prelude::rust_2021::*;
    use super::RefIndex;

    #[test]
    fn sets_per_name_and_loads_by_epoch() {
        let mut r = RefIndex::new();
        r.insert(1, 0, 7, 10);
        r.insert(1, 3, 7, 11);
        r.insert(1, 3, 2, 12);
        assert_eq!(r.get(1, 0, 7), Some(10));
        assert_eq!(r.get(1, 3, 7), Some(11));
        assert_eq!(r.get(1, 3, 2), Some(12));
        assert_eq!(r.get(1, 1, 7), None);
        assert_eq!(r.get(1, 0, 99), None);
        r.clear(2);
        assert_eq!(r.get(2, 0, 7), None);
        r.insert(2, 0, 7, 5);
        assert_eq!(r.get(2, 0, 7), Some(5));
        assert_eq!(r.get(2, 3, 7), None);
        // a wrapped epoch forgets every tag
        r.clear(1);
        assert_eq!(r.get(1, 0, 7), None);
        assert_eq!(r.get(1, 3, 2), None);
    }
}
