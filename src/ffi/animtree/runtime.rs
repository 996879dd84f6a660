//! Exports of the animation-tree script side (script_anim_runtime.c and the
//! anim parts of the compiler glue).
#![allow(non_upper_case_globals, non_snake_case)]

use super::engine::TreeImports;
#[cfg(not(feature = "client"))]
use crate::abi::common::script_anim_tree_ref_t;
use crate::abi::xanim::{script_anim_tree_alloc_t, XAnim};
use crate::cell::ModuleCell;
use crate::ffi::arg::c_str_or_empty;
use crate::ffi::guard;
use crate::tree::module::TreeModule;
use crate::names::Names;
use crate::tree::registry::{AnimTrees, CellAddr, Globals, TreeAddr, TREE_SLOTS};
use core::ffi::{c_char, c_void};

/// Declares the engine-owned data symbols of `globals.rs` as imports.
macro_rules! animtree_globals {
    ($($(#[$attr:meta])* $name:ident: $ty:ty => $c:literal;)*) => {
        // The unused ones are declared for the header's list (they are the
        // engine's scratch of the original module).
        #[allow(dead_code)]
        extern "C" {
            $(
                $(#[$attr])*
                static mut $name: $ty;
            )*
        }
    };
}
include!("globals.rs");

/// One engine data symbol, borrowed for one export call.
///
/// # Safety
/// `p` is the address of an engine data symbol of type `T` that nothing
/// else references while the result lives (module contract, src/cell.rs).
unsafe fn engine_mut<'a, T>(p: *mut T) -> &'a mut T {
    // SAFETY: guaranteed by the caller.
    unsafe { &mut *p }
}

/// The module state (registry, reference sets, parse tree).
static STATE: ModuleCell<AnimTrees> = ModuleCell::new(AnimTrees::new());

/// The module's state and globals for one export call.
///
/// # Safety
/// Module contract (src/cell.rs): called once per export, and nothing else
/// holds a reference into the statics while the result lives.
unsafe fn module() -> TreeModule<'static> {
    // SAFETY: forwarded contract; each reference is to a distinct static
    // (the engine's data symbols, which the engine does not touch while an
    // export runs; `XAnim *` and `TreeAddr` have the same layout).
    unsafe {
        TreeModule {
            trees: STATE.get(),
            active_tree_handle: engine_mut(&raw mut script_activeAnimTreeHandle),
            current_using_tree: engine_mut(&raw mut script_animCurrentUsingTree),
            comment_depth: script_animCommentDepth,
            globals: Globals {
                slot: xanim_activePoolPayloadSlot,
                checksum: engine_mut(&raw mut script_animTreeChecksum),
                counts: engine_mut(&raw mut script_animTreeCounts),
                trees: engine_mut((&raw mut script_animTrees).cast::<[[TreeAddr; TREE_SLOTS]; 2]>()),
            },
            anim_check: engine_mut(&raw mut script_animCheckEnabled),
        }
    }
}

/// The module's names, which its failures name by id (the raise path
/// writes their texts with them).
///
/// # Safety
/// Single-threaded module contract; no export holds a reference into the
/// state (the failing export's closure has returned).
pub(in crate::ffi) unsafe fn names<'a>() -> &'a Names {
    // SAFETY: guaranteed by the caller; shared access only.
    unsafe { &*STATE.as_ptr() }.names()
}

/// `void uoanim_animtree_reset(void)`: returns the animation-tree module to
/// its freshly loaded state — the registry, the reference sets, the queued
/// reference cells and the parsed trees are dropped (trees already built
/// stay in the engine's memory, as they are; the engine-owned data symbols
/// are the engine's and keep their values). Not a function of the C
/// original (docs/ABI.md).
///
/// # Safety
/// Module contract: not called while another export of the unit runs.
#[no_mangle]
unsafe extern "C" fn uoanim_animtree_reset() {
    // SAFETY: module contract; no reference into the state is live between
    // exports.
    unsafe {
        *STATE.get() = AnimTrees::new();
    }
}

/// `Hunk_AllocXAnimPrecache`: hunk memory aligned for `fileData_t` (the
/// allocator `XAnimLoadFile` gets at precache).
///
/// # Safety
/// Calls the engine's hunk allocator.
#[no_mangle]
unsafe extern "C" fn Hunk_AllocXAnimPrecache(size: usize) -> *mut c_void {
    // SAFETY: plain engine call.
    unsafe { super::engine::precache_alloc(size) }
}

/// `SetAnimCheck`: non-zero keeps every node of every tree (no pruning).
#[no_mangle]
extern "C" fn SetAnimCheck(enabled: i32) {
    // SAFETY: module contract.
    unsafe { module() }.set_anim_check(enabled)
}

/// `Scr_UsingTree`: `#using_animtree("name")`.
///
/// # Safety
/// `animTreeName` is NULL or a NUL-terminated string.
#[no_mangle]
unsafe extern "C" fn Scr_UsingTree(animTreeName: *const c_char, sourcePos: u32) {
    // SAFETY: module contract; the caller's string.
    guard(|| unsafe { module() }.using_tree(&mut TreeImports { alloc: None }, unsafe { c_str_or_empty(animTreeName) }, sourcePos))
}

/// `Scr_UsingTreeInternal`: registers a tree name; returns its reference set
/// (a `script_animCurrentUsingTree` value) and stores its registry index.
///
/// # Safety
/// `filename` is NULL or a NUL-terminated string; `treeIndex` is NULL or
/// points to an `int32_t`.
#[no_mangle]
unsafe extern "C" fn Scr_UsingTreeInternal(filename: *const c_char, treeIndex: *mut i32) -> u16 {
    // SAFETY: module contract; the caller's string.
    let (using, index) = guard(|| unsafe { module() }.using_tree_internal(&mut TreeImports { alloc: None }, unsafe { c_str_or_empty(filename) }));
    // SAFETY: NULL or the caller's int.
    if let Some(tree_index) = unsafe { treeIndex.as_mut() } {
        *tree_index = index;
    }
    using
}

/// `Scr_EmitAnimation`: `%name` in script code; `animRef` is the 4-byte
/// operand cell.
///
/// # Safety
/// `animRef` points to 4 writable bytes (any alignment).
#[no_mangle]
unsafe extern "C" fn Scr_EmitAnimation(animRef: *mut c_char, animHandle: u16, sourcePos: u32) {
    // SAFETY: the cell the engine hands over (contract above).
    let cell = unsafe { CellAddr::from_raw(animRef as usize) };
    // SAFETY: module contract.
    guard(|| unsafe { module() }.emit_animation(&mut TreeImports { alloc: None }, cell, animHandle, sourcePos))
}

/// `Scr_FindAnim`: a C-side reference; `animRef` is filled at precache.
///
/// # Safety
/// Strings are NULL or NUL-terminated; `animRef` points to a `scr_anim_t`.
#[no_mangle]
unsafe extern "C" fn Scr_FindAnim(treeName: *const c_char, animName: *const c_char, animRef: *mut crate::abi::common::scr_anim_t) {
    // SAFETY: module contract; the caller's strings.
    let (tree_name, anim_name) = unsafe { (c_str_or_empty(treeName), c_str_or_empty(animName)) };
    // SAFETY: the cell the engine hands over (contract above).
    let cell = unsafe { CellAddr::from_raw(animRef as usize) };
    // SAFETY: module contract.
    guard(|| unsafe { module() }.find_anim(&mut TreeImports { alloc: None }, tree_name, anim_name, cell))
}

/// `Scr_LoadAnimTreeAtIndex`: builds one registered tree.
///
/// # Safety
/// `allocCallback` is a valid allocator.
#[no_mangle]
unsafe extern "C" fn Scr_LoadAnimTreeAtIndex(treeIndex: i32, allocCallback: script_anim_tree_alloc_t) {
    // SAFETY: module contract.
    guard(|| unsafe { module() }.load_at_index(&mut TreeImports { alloc: allocCallback }, treeIndex))
}

/// `Scr_FindAnimTree`: the built tree of a registered name (NULL when unknown
/// or not built), as the one-pointer struct the Linux engine returns by value
/// (hidden result pointer on i386, `rax` on x86_64).
///
/// # Safety
/// `filename` is NULL or a NUL-terminated string.
#[cfg(not(feature = "client"))]
#[no_mangle]
unsafe extern "C" fn Scr_FindAnimTree(filename: *const c_char) -> script_anim_tree_ref_t {
    // SAFETY: module contract; the caller's string.
    let tree = unsafe { module() }.find_anim_tree(&mut TreeImports { alloc: None }, unsafe { c_str_or_empty(filename) });
    script_anim_tree_ref_t { tree: tree.addr() as *mut XAnim }
}

/// `Scr_FindAnimTree`: the built tree of a registered name (NULL when unknown
/// or not built); the client engine returns the pointer itself.
///
/// # Safety
/// `filename` is NULL or a NUL-terminated string.
#[cfg(feature = "client")]
#[no_mangle]
unsafe extern "C" fn Scr_FindAnimTree(filename: *const c_char) -> *mut XAnim {
    // SAFETY: module contract; the caller's string.
    unsafe { module() }.find_anim_tree(&mut TreeImports { alloc: None }, unsafe { c_str_or_empty(filename) }).addr() as *mut XAnim
}

/// `coduo_script_compat_anim_release_unresolved_ref_sidecars`: the hook the
/// engine's `Scr_BeginLoadAnimTrees` and `Scr_EndLoadAnimTrees` call (before
/// a load starts and after it ended): the unit's load boundary. The
/// registry, the reference sets and the queued references of the load are
/// dropped here (in the original they live in script objects under the root
/// the engine's Begin allocates and its End clears).
#[no_mangle]
extern "C" fn coduo_script_compat_anim_release_unresolved_ref_sidecars() {
    // SAFETY: module contract.
    unsafe { module() }.load_boundary()
}
