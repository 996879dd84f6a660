//! Mirrors of the parts of `xanim_types.h` and `file_data.h` the
//! animation-tree side uses: the compact tree (`XAnim`, `XAnimEntry`), the
//! loaded asset header (`XAnimParts`), the file-system record (`fileData_t`),
//! the runtime wrapper (`XAnimTree`), note tracks, and the callback types of
//! the exports. (`script_anim_tree_ref_t` is shared: `abi::common`.)

use core::ffi::{c_char, c_void};

/// `XAnim` (`struct XAnim_s`): a compact animation tree. Node 0 is the root.
#[repr(C)]
pub struct XAnim {
    pub name: *const c_char,
    pub nodeCount: u32,
    /// `XAnimEntry entries[]` follows (flexible array member of `nodeCount`).
    pub entries: [XAnimEntry; 0],
}

/// `XAnimEntry`: one node of an `XAnim`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct XAnimEntry {
    /// 0 for a leaf.
    pub childCount: u16,
    /// The root keeps whatever the allocator gave (0): never written.
    pub parentIndex: u16,
    pub payload: XAnimEntryPayload,
}

/// The `parent` member of `XAnimEntry`'s payload union.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XAnimParentPayload {
    /// 1 loopsync, 2 nonloopsync, 4 notify source, 8 complete.
    pub flags: u16,
    pub firstChildIndex: u16,
}

/// `XAnimEntry`'s payload union: the leaf's asset record or the parent's
/// fields. On x86_64 the parent view covers only the low 4 of 8 bytes.
#[repr(C)]
#[derive(Clone, Copy)]
pub union XAnimEntryPayload {
    pub leafAsset: *mut fileData_t,
    pub parent: XAnimParentPayload,
}

/// `xanim_notetrack_t`: a note track of a loaded xanim; an array of them
/// ends at `nameHandle == 0`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct xanim_notetrack_t {
    /// Script-string handle of the note's name.
    pub nameHandle: u16,
    pub padding02: [u8; 2],
    /// Normalised time.
    pub time: f32,
}

/// `XAnimParts`: the header of a loaded xanim asset (the tree side reads
/// `frameCountMinusOne`, `looped`, `frameRate` and `noteTracks`).
#[repr(C)]
pub struct XAnimParts {
    pub frameCountMinusOne: u16,
    /// Raw byte: `XAnimIsLooped` returns it unchanged.
    pub looped: u8,
    pub hasDeltaMotion: u8,
    pub frameRate: f32,
    pub frequency: f32,
    pub partNameHandles: *mut u16,
    /// `xanim_part_stream_pair_t *` (never read by the tree side).
    pub partStreamPairs: *mut c_void,
    pub noteTracks: *mut xanim_notetrack_t,
    /// `xanim_part_stream_pair_t *` (never read by the tree side).
    pub deltaMotion: *mut c_void,
    pub compressedRotationBits: *mut u8,
}

/// `fileDataPayload`: what a file-system record carries.
#[repr(C)]
#[derive(Clone, Copy)]
pub union fileDataPayload {
    /// xanim assets (set by `XAnimLoadFile`).
    pub xanimParts: *mut XAnimParts,
    pub raw: *mut c_void,
}

/// `fileData_t` (`struct fileData_s`): a file-system asset record as
/// returned by `FS_GetDataForFile`.
#[repr(C)]
pub struct fileData_t {
    /// Basename of the asset.
    pub name: *const c_char,
    pub data: fileDataPayload,
    /// `fileDataFree_t`: the record's release function.
    pub freeData: Option<unsafe extern "C" fn(fileData: *mut fileData_t)>,
}

/// `XAnimTree` (`struct XAnimTree_s`): the runtime wrapper of a source
/// tree. After the header: `nodeCount` 16-bit handles, `nodeCount` 6-byte
/// spans and 2 more bytes, all in one allocation.
#[repr(C)]
pub struct XAnimTree {
    pub sourceTree: *mut XAnim,
    pub activePoolNodeCount: i32,
    pub partRemapTableSelector: i32,
    /// `uint16_t poolNodeHandles[]` follows (flexible array member).
    pub poolNodeHandles: [u16; 0],
}

/// Size of one runtime tail span (`xanim_runtime_tree_tail_span_t`).
pub const XANIM_RUNTIME_TREE_TAIL_SPAN_SIZE: usize = 6;

/// `script_anim_tree_alloc_t`: the tree allocator the engine passes to the
/// precache pipeline (memory must come back zero-filled).
pub type script_anim_tree_alloc_t = Option<unsafe extern "C" fn(size: usize) -> *mut c_void>;

/// The copy callback of `XAnimCopyRuntimeTree` (`MT_Free` has this type).
pub type xanim_runtime_tree_copy_t = Option<unsafe extern "C" fn(data: *mut c_void, size: usize)>;

uoanim_core::assert_size!(XAnim, i686 = 8, x86_64 = 16);
uoanim_core::assert_offset!(XAnim, name, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(XAnim, nodeCount, i686 = 4, x86_64 = 8);
uoanim_core::assert_offset!(XAnim, entries, i686 = 8, x86_64 = 16);
const _: () = assert!(core::mem::align_of::<XAnim>() == core::mem::size_of::<usize>());

uoanim_core::assert_size!(XAnimEntry, i686 = 8, x86_64 = 16);
uoanim_core::assert_offset!(XAnimEntry, childCount, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(XAnimEntry, parentIndex, i686 = 2, x86_64 = 2);
uoanim_core::assert_offset!(XAnimEntry, payload, i686 = 4, x86_64 = 8);
const _: () = assert!(core::mem::align_of::<XAnimEntry>() == core::mem::size_of::<usize>());
uoanim_core::assert_offset!(XAnimParentPayload, flags, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(XAnimParentPayload, firstChildIndex, i686 = 2, x86_64 = 2);

uoanim_core::assert_size!(xanim_notetrack_t, i686 = 8, x86_64 = 8);
uoanim_core::assert_offset!(xanim_notetrack_t, nameHandle, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(xanim_notetrack_t, time, i686 = 4, x86_64 = 4);

uoanim_core::assert_size!(XAnimParts, i686 = 32, x86_64 = 56);
uoanim_core::assert_offset!(XAnimParts, frameCountMinusOne, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(XAnimParts, looped, i686 = 2, x86_64 = 2);
uoanim_core::assert_offset!(XAnimParts, hasDeltaMotion, i686 = 3, x86_64 = 3);
uoanim_core::assert_offset!(XAnimParts, frameRate, i686 = 4, x86_64 = 4);
uoanim_core::assert_offset!(XAnimParts, frequency, i686 = 8, x86_64 = 8);
uoanim_core::assert_offset!(XAnimParts, partNameHandles, i686 = 12, x86_64 = 16);
uoanim_core::assert_offset!(XAnimParts, partStreamPairs, i686 = 16, x86_64 = 24);
uoanim_core::assert_offset!(XAnimParts, noteTracks, i686 = 20, x86_64 = 32);
uoanim_core::assert_offset!(XAnimParts, deltaMotion, i686 = 24, x86_64 = 40);
uoanim_core::assert_offset!(XAnimParts, compressedRotationBits, i686 = 28, x86_64 = 48);

uoanim_core::assert_size!(fileData_t, i686 = 12, x86_64 = 24);
uoanim_core::assert_offset!(fileData_t, name, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(fileData_t, data, i686 = 4, x86_64 = 8);
uoanim_core::assert_offset!(fileData_t, freeData, i686 = 8, x86_64 = 16);

uoanim_core::assert_size!(XAnimTree, i686 = 12, x86_64 = 16);
uoanim_core::assert_offset!(XAnimTree, sourceTree, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(XAnimTree, activePoolNodeCount, i686 = 4, x86_64 = 8);
uoanim_core::assert_offset!(XAnimTree, partRemapTableSelector, i686 = 8, x86_64 = 12);
uoanim_core::assert_offset!(XAnimTree, poolNodeHandles, i686 = 12, x86_64 = 16);

