//! Exports of the animation-tree script side (script_anim_runtime.c and the
//! anim parts of the compiler glue).
#![allow(non_upper_case_globals, non_snake_case)]
// Failures carry their text inline (no heap), by design of crate::error.
#![allow(clippy::result_large_err)]

use super::engine::Engine;
#[cfg(not(feature = "client"))]
use crate::abi::xanim::script_anim_tree_ref_t;
use crate::abi::xanim::{script_anim_tree_alloc_t, XAnim};
use crate::cell::ModuleCell;
use crate::ffi::{guard, guard_infallible};
use crate::tree::registry::{AnimTrees, Globals};
use core::ffi::{c_char, c_void, CStr};

use crate::cell::module_globals as animtree_globals;
include!("globals.rs");

/// The module state (registry, reference sets, parse tree).
static STATE: ModuleCell<AnimTrees> = ModuleCell::new(AnimTrees::new());

/// `void uoanim_animtree_reset(void)`: returns the animation-tree module to
/// its freshly loaded state — the six C-visible globals get their initial
/// values again and the registry, the reference sets, the queued reference
/// cells and the parsed trees are dropped (trees already built stay in the
/// engine's memory, as they are). Not a function of the C original
/// (docs/ABI.md).
///
/// # Safety
/// Module contract: not called while another export of the unit runs.
#[no_mangle]
pub unsafe extern "C" fn uoanim_animtree_reset() {
    guard_infallible(|| {
        // SAFETY: module contract; no reference into a global is live
        // between exports.
        unsafe {
            reset_globals();
            *STATE.get() = AnimTrees::new();
        }
        Ok(())
    })
}

fn cstr<'a>(p: *const c_char) -> &'a CStr {
    if p.is_null() {
        return c"";
    }
    // SAFETY: the engine passes NUL-terminated strings valid for the call.
    unsafe { CStr::from_ptr(p) }
}

/// `Hunk_AllocXAnimPrecache`: hunk memory aligned for `fileData_t` (the
/// allocator `XAnimLoadFile` gets at precache).
///
/// # Safety
/// Calls the engine's hunk allocator.
#[no_mangle]
pub unsafe extern "C" fn Hunk_AllocXAnimPrecache(size: usize) -> *mut c_void {
    guard_infallible(|| {
        // SAFETY: plain engine call.
        Ok(unsafe { super::engine::hunk_alloc_align(size, core::mem::align_of::<*const c_void>()) })
    })
}

/// `SetAnimCheck`: non-zero keeps every node of every tree (no pruning).
#[no_mangle]
pub extern "C" fn SetAnimCheck(enabled: i32) {
    guard_infallible(|| {
        // SAFETY: single-threaded module contract.
        unsafe { *script_animCheckEnabled.get() = enabled };
        Ok(())
    })
}

/// `Scr_BeginLoadAnimTrees`: starts a load (empties the active registry row).
#[no_mangle]
pub extern "C" fn Scr_BeginLoadAnimTrees() {
    guard_infallible(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, checksum, slot) = unsafe { (STATE.get(), script_animTreeChecksum.get(), *xanim_activePoolPayloadSlot.get()) };
        state.begin_load(&Globals { slot, checksum });
        Ok(())
    })
}

/// `Scr_UsingTree`: `#using_animtree("name")`.
///
/// # Safety
/// `animTreeName` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn Scr_UsingTree(animTreeName: *const c_char, sourcePos: u32) {
    guard(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, checksum, slot) = unsafe { (STATE.get(), script_animTreeChecksum.get(), *xanim_activePoolPayloadSlot.get()) };
        let (using, index) = state.using_tree(&mut Engine { alloc: None }, &Globals { slot, checksum }, cstr(animTreeName), sourcePos)?;
        // SAFETY: as above.
        unsafe {
            *script_activeAnimTreeHandle.get() = index;
            *script_animCurrentUsingTree.get() = using;
        }
        Ok(())
    })
}

/// `Scr_UsingTreeInternal`: registers a tree name; returns its reference set
/// (a `script_animCurrentUsingTree` value) and stores its registry index.
///
/// # Safety
/// `filename` is NULL or a NUL-terminated string; `treeIndex` is NULL or
/// points to an `int32_t`.
#[no_mangle]
pub unsafe extern "C" fn Scr_UsingTreeInternal(filename: *const c_char, treeIndex: *mut i32) -> u16 {
    guard(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, checksum, slot) = unsafe { (STATE.get(), script_animTreeChecksum.get(), *xanim_activePoolPayloadSlot.get()) };
        let (using, index) = state.using_tree_internal(&mut Engine { alloc: None }, &Globals { slot, checksum }, cstr(filename))?;
        if !treeIndex.is_null() {
            // SAFETY: checked non-NULL; the caller's int.
            unsafe { *treeIndex = index };
        }
        Ok(using)
    })
}

/// `Scr_EmitAnimation`: `%name` in script code; `animRef` is the 4-byte
/// operand cell.
///
/// # Safety
/// `animRef` points to 4 writable bytes (any alignment).
#[no_mangle]
pub unsafe extern "C" fn Scr_EmitAnimation(animRef: *mut c_char, animHandle: u16, sourcePos: u32) {
    guard(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, using, depth) = unsafe { (STATE.get(), *script_animCurrentUsingTree.get(), *script_animCommentDepth.get()) };
        state.emit_animation(&mut Engine { alloc: None }, animRef as usize, animHandle, sourcePos, using, depth)
    })
}

/// `Scr_FindAnim`: a C-side reference; `animRef` is filled at precache.
///
/// # Safety
/// Strings are NULL or NUL-terminated; `animRef` points to a `scr_anim_t`.
#[no_mangle]
pub unsafe extern "C" fn Scr_FindAnim(treeName: *const c_char, animName: *const c_char, animRef: *mut crate::abi::common::scr_anim_t) {
    guard(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, checksum, slot, depth) =
            unsafe { (STATE.get(), script_animTreeChecksum.get(), *xanim_activePoolPayloadSlot.get(), *script_animCommentDepth.get()) };
        state.find_anim(&mut Engine { alloc: None }, &Globals { slot, checksum }, cstr(treeName), cstr(animName), animRef as usize, depth)
    })
}

/// `Scr_PrecacheAnimTrees`: builds every tree registered in the active row.
///
/// # Safety
/// `allocCallback` is a valid allocator.
#[no_mangle]
pub unsafe extern "C" fn Scr_PrecacheAnimTrees(allocCallback: script_anim_tree_alloc_t) {
    guard(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, checksum, slot) = unsafe { (STATE.get(), script_animTreeChecksum.get(), *xanim_activePoolPayloadSlot.get()) };
        // SAFETY: as above.
        state.set_anim_check(unsafe { *script_animCheckEnabled.get() });
        state.precache(&mut Engine { alloc: allocCallback }, &mut Globals { slot, checksum })
    })
}

/// `Scr_LoadAnimTreeAtIndex`: builds one registered tree.
///
/// # Safety
/// `allocCallback` is a valid allocator.
#[no_mangle]
pub unsafe extern "C" fn Scr_LoadAnimTreeAtIndex(treeIndex: i32, allocCallback: script_anim_tree_alloc_t) {
    guard(|| {
        // SAFETY: single-threaded module contract; distinct cells.
        let (state, checksum, slot) = unsafe { (STATE.get(), script_animTreeChecksum.get(), *xanim_activePoolPayloadSlot.get()) };
        // SAFETY: as above.
        state.set_anim_check(unsafe { *script_animCheckEnabled.get() });
        state.load_at_index(&mut Engine { alloc: allocCallback }, &mut Globals { slot, checksum }, treeIndex)
    })
}

fn find_anim_tree(filename: *const c_char) -> *mut XAnim {
    // SAFETY: single-threaded module contract.
    let state = unsafe { STATE.get() };
    guard(|| Ok(state.find_anim_tree(&mut Engine { alloc: None }, cstr(filename)) as *mut XAnim))
}

/// `Scr_FindAnimTree`: the built tree of a registered name (NULL when unknown
/// or not built), as the one-pointer struct the Linux engine returns by value
/// (hidden result pointer on i386, `rax` on x86_64).
///
/// # Safety
/// `filename` is NULL or a NUL-terminated string.
#[cfg(not(feature = "client"))]
#[no_mangle]
pub unsafe extern "C" fn Scr_FindAnimTree(filename: *const c_char) -> script_anim_tree_ref_t {
    guard_infallible(|| Ok(script_anim_tree_ref_t { tree: find_anim_tree(filename) }))
}

/// `Scr_FindAnimTree`: the built tree of a registered name (NULL when unknown
/// or not built); the client engine returns the pointer itself.
///
/// # Safety
/// `filename` is NULL or a NUL-terminated string.
#[cfg(feature = "client")]
#[no_mangle]
pub unsafe extern "C" fn Scr_FindAnimTree(filename: *const c_char) -> *mut XAnim {
    guard_infallible(|| Ok(find_anim_tree(filename)))
}

/// `Scr_EndLoadAnimTrees`: ends the load and drops the registry.
#[no_mangle]
pub extern "C" fn Scr_EndLoadAnimTrees() {
    guard_infallible(|| {
        // SAFETY: single-threaded module contract.
        let state = unsafe { STATE.get() };
        state.end_load();
        Ok(())
    })
}

/// `coduo_script_compat_anim_release_unresolved_ref_sidecars`: the queued
/// references are kept in module state, so there is nothing to release.
#[no_mangle]
pub extern "C" fn coduo_script_compat_anim_release_unresolved_ref_sidecars() {
    guard_infallible(|| Ok(()))
}
