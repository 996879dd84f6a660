//! Exports of the compact XAnim tree (xanim_tree.c, xanim_tree_queries.c).
//!
//! Pointer arguments are the engine's: a tree is NULL or a tree built by
//! `XAnimAllocTree` (or laid out like one), a runtime tree NULL or one made
//! by `XAnimAllocRuntimeTree`. NULL pointers and node indices outside a tree
//! get the defined results of docs/DIVERGENCES.md ("Animation trees").
#![allow(non_snake_case)]

use crate::abi::xanim::{
    fileData_t, script_anim_tree_alloc_t, xanim_runtime_tree_copy_t, XAnim, XAnimTree,
};
use crate::ffi::arg::c_str;
use crate::ffi::guard;
use crate::tree::xanim::{self as core_tree, XAnimEngine, XAnimHandle, XAnimMut};
use core::ffi::{c_char, c_void, CStr};

/// The engine imports of these exports (kept out of the unit's header).
///
/// cbindgen:ignore
mod imports;
use super::engine::imports::FS_GetDataForFile;
use imports::{Hunk_AllocXAnimCreateTree, MT_Alloc, MT_Free};

/// The engine, as the compact tree sees it.
pub(crate) struct XAnimImports;

// SAFETY: the engine's asset records and allocators are what the trait
// asks for (the engine's own contract with the original).
unsafe impl XAnimEngine for XAnimImports {
    fn get_xanim_data(&mut self, anim_name: &CStr) -> *mut fileData_t {
        // SAFETY: three NUL-terminated strings; the engine looks the asset up.
        unsafe { FS_GetDataForFile(c"xanim".as_ptr(), anim_name.as_ptr(), c"".as_ptr()) }
    }
}

/// Shared access to an engine tree for one exported call.
///
/// # Safety
/// `tree` is NULL or an engine tree (see the module documentation); the
/// engine does not write it during the call.
#[inline(always)]
unsafe fn handle<'a>(tree: *mut XAnim) -> Option<XAnimHandle<'a>> {
    // SAFETY: guaranteed by the caller.
    unsafe { XAnimHandle::from_raw(tree) }
}

/// Exclusive access to an engine tree for one exported call.
///
/// # Safety
/// `tree` is NULL or an engine tree; nothing else accesses it during the
/// call (the engine's calls are not reentrant).
unsafe fn handle_mut<'a>(tree: *mut XAnim) -> Option<XAnimMut<'a>> {
    // SAFETY: guaranteed by the caller.
    unsafe { XAnimMut::from_raw(tree) }
}

/// Tag the engine flavour's `MT_AllocAnimTree` passes to `MT_Alloc`.
#[cfg(not(feature = "client"))]
const XANIM_RUNTIME_TREE_MT_TAG: i32 = 5;

// ---------------------------------------------------------------- building

/// `void XAnimSetLeafNode(XAnim *tree, uint16_t nodeIndex, const char *animName)`
///
/// # Safety
/// `tree` is NULL or an engine tree; `animName` NULL or NUL-terminated.
#[no_mangle]
unsafe extern "C" fn XAnimSetLeafNode(tree: *mut XAnim, nodeIndex: u16, animName: *const c_char) {
    // SAFETY: engine tree and NULL or NUL-terminated name by contract.
    let (tree, name) = unsafe { (handle_mut(tree), c_str(animName)) };
    guard(|| core_tree::set_leaf_node_of(&mut XAnimImports, tree, nodeIndex, name))
}

/// `void XAnimSetParentNode(XAnim *tree, uint16_t nodeIndex, const char *unusedName,
/// uint16_t firstChildIndex, uint16_t childCount, uint16_t flags)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimSetParentNode(
    tree: *mut XAnim,
    nodeIndex: u16,
    unusedName: *const c_char,
    firstChildIndex: u16,
    childCount: u16,
    flags: u16,
) {
    let _ = unusedName;
    guard(|| {
        // SAFETY: engine tree by contract.
        if let Some(mut tree) = unsafe { handle_mut(tree) } {
            core_tree::set_parent_node(&mut tree, nodeIndex, firstChildIndex, childCount, flags);
        }
        Ok(())
    })
}

/// `XAnim *XAnimAllocTree(const char *name, uint32_t nodeCount, script_anim_tree_alloc_t alloc)`
///
/// # Safety
/// `alloc` is NULL or an allocator returning NULL or `size` writable bytes.
#[no_mangle]
unsafe extern "C" fn XAnimAllocTree(
    name: *const c_char,
    nodeCount: u32,
    alloc: script_anim_tree_alloc_t,
) -> *mut XAnim {
    guard(|| Ok(core_tree::alloc_tree(&mut XAnimImports, name, nodeCount, alloc).map_or(core::ptr::null_mut(), |t| t.as_ptr())))
}

/// `XAnimTree *XAnimAllocRuntimeTree(XAnim *sourceTree, script_anim_tree_alloc_t alloc)`
///
/// # Safety
/// `sourceTree` is NULL or an engine tree; `alloc` as for `XAnimAllocTree`.
#[no_mangle]
unsafe extern "C" fn XAnimAllocRuntimeTree(sourceTree: *mut XAnim, alloc: script_anim_tree_alloc_t) -> *mut XAnimTree {
    // SAFETY: engine tree by contract.
    guard(|| Ok(core_tree::alloc_runtime_tree(&mut XAnimImports, unsafe { handle(sourceTree) }, alloc)))
}

/// `void XAnimCopyRuntimeTree(XAnimTree *runtimeTree, void (*copy)(void *data, size_t size))`
///
/// # Safety
/// `runtimeTree` is NULL or a runtime tree whose source is NULL or an engine
/// tree; `copy` NULL or a function of that type.
#[no_mangle]
unsafe extern "C" fn XAnimCopyRuntimeTree(runtimeTree: *mut XAnimTree, copy: xanim_runtime_tree_copy_t) {
    // SAFETY: forwarded contract.
    unsafe { copy_runtime_tree(runtimeTree, copy) }
}

/// `XAnimCopyRuntimeTree`'s work, also that of `Com_XAnimFreeSmallTree`.
///
/// # Safety
/// As for `XAnimCopyRuntimeTree`.
unsafe fn copy_runtime_tree(runtimeTree: *mut XAnimTree, copy: xanim_runtime_tree_copy_t) {
    if runtimeTree.is_null() {
        return;
    }
    // SAFETY: a runtime tree by contract.
    let source = unsafe { (*runtimeTree).sourceTree };
    // SAFETY: its source is NULL or an engine tree.
    let (Some(source), Some(copy)) = (unsafe { handle(source) }, copy) else { return };
    let size = core_tree::runtime_tree_size(source.node_count());
    // SAFETY: the engine's callback with the block it describes.
    unsafe { copy(runtimeTree as *mut c_void, size) };
}

/// `void *MT_AllocAnimTree(size_t size)`: the MT allocator (engine flavour
/// tag 5; the client's `MT_Alloc` has no tag).
///
/// # Safety
/// Calls the engine's allocator.
#[no_mangle]
unsafe extern "C" fn MT_AllocAnimTree(size: usize) -> *mut c_void {
    // SAFETY: the engine allocator.
    unsafe { mt_alloc_anim_tree(size) }
}

/// `MT_AllocAnimTree`'s work, and the allocator `Com_XAnimCreateSmallTree`
/// hands to the tree build.
unsafe extern "C" fn mt_alloc_anim_tree(size: usize) -> *mut c_void {
    #[cfg(not(feature = "client"))]
    // SAFETY: the engine allocator.
    let block = unsafe { MT_Alloc(size, XANIM_RUNTIME_TREE_MT_TAG) };
    #[cfg(feature = "client")]
    // SAFETY: the engine allocator.
    let block = unsafe { MT_Alloc(size) };
    block
}

/// Trampoline with the callback type for `Hunk_AllocXAnimCreateTree`.
unsafe extern "C" fn hunk_alloc_create_tree(size: usize) -> *mut c_void {
    // SAFETY: the engine allocator.
    unsafe { Hunk_AllocXAnimCreateTree(size) }
}

/// Trampoline with the callback type for `MT_Free`.
unsafe extern "C" fn mt_free(data: *mut c_void, size: usize) {
    // SAFETY: the engine's free with the block it gave.
    unsafe { MT_Free(data, size) }
}

/// `XAnimTree *Com_XAnimCreateTree(XAnim *sourceTree)`: runtime tree in hunk memory.
///
/// # Safety
/// `sourceTree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn Com_XAnimCreateTree(sourceTree: *mut XAnim) -> *mut XAnimTree {
    // SAFETY: engine tree by contract.
    guard(|| Ok(core_tree::alloc_runtime_tree(&mut XAnimImports, unsafe { handle(sourceTree) }, Some(hunk_alloc_create_tree))))
}

/// `XAnimTree *Com_XAnimCreateSmallTree(XAnim *sourceTree)`: runtime tree in MT memory.
///
/// # Safety
/// `sourceTree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn Com_XAnimCreateSmallTree(sourceTree: *mut XAnim) -> *mut XAnimTree {
    // SAFETY: engine tree by contract.
    guard(|| Ok(core_tree::alloc_runtime_tree(&mut XAnimImports, unsafe { handle(sourceTree) }, Some(mt_alloc_anim_tree))))
}

/// `void Com_XAnimFreeSmallTree(XAnimTree *runtimeTree)`: `MT_Free` of the whole block.
///
/// # Safety
/// `runtimeTree` as for `XAnimCopyRuntimeTree`.
#[no_mangle]
unsafe extern "C" fn Com_XAnimFreeSmallTree(runtimeTree: *mut XAnimTree) {
    // SAFETY: forwarded contract.
    unsafe { copy_runtime_tree(runtimeTree, Some(mt_free)) }
}

// ---------------------------------------------------------------- sync setup

/// `void XAnimFillInSyncNodes_r(XAnim *tree, uint32_t animIndex, uint8_t requireLooping)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimFillInSyncNodes_r(tree: *mut XAnim, animIndex: u32, requireLooping: u8) {
    guard(|| {
        // SAFETY: engine tree by contract.
        match unsafe { handle_mut(tree) } {
            Some(mut tree) => core_tree::fill_in_sync_nodes(&mut tree, animIndex, requireLooping),
            None => Ok(()),
        }
    })
}

/// `void XAnimSetupSyncNodes_r(XAnim *tree, uint32_t animIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimSetupSyncNodes_r(tree: *mut XAnim, animIndex: u32) {
    guard(|| {
        // SAFETY: engine tree by contract.
        match unsafe { handle_mut(tree) } {
            Some(mut tree) => core_tree::setup_sync_nodes_r(&mut tree, animIndex),
            None => Ok(()),
        }
    })
}

/// `void XAnimSetupSyncNodes(XAnim *tree)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimSetupSyncNodes(tree: *mut XAnim) {
    guard(|| {
        // SAFETY: engine tree by contract.
        match unsafe { handle_mut(tree) } {
            Some(mut tree) => core_tree::setup_sync_nodes(&mut tree),
            None => Ok(()),
        }
    })
}

// ---------------------------------------------------------------- queries

/// `int32_t XAnimGetNumChildren(XAnim *tree, int32_t animIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimGetNumChildren(tree: *mut XAnim, animIndex: i32) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(0, |t| t.num_children(animIndex))
}

/// `int32_t XAnimGetChildAt(XAnim *tree, int32_t animIndex, int32_t childIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimGetChildAt(tree: *mut XAnim, animIndex: i32, childIndex: i32) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(childIndex, |t| t.child_at(animIndex, childIndex))
}

/// `const char *XAnimGetAnimName(XAnim *tree, int32_t animIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimGetAnimName(tree: *mut XAnim, animIndex: i32) -> *const c_char {
    // SAFETY: engine tree by contract.
    XAnimHandle::anim_name_of(unsafe { handle(tree) }, animIndex)
}

/// `XAnim *XAnimRuntimeTreeSourceTree(XAnimTree *runtimeTree)`
///
/// # Safety
/// `runtimeTree` is NULL or a runtime tree.
#[no_mangle]
unsafe extern "C" fn XAnimRuntimeTreeSourceTree(runtimeTree: *mut XAnimTree) -> *mut XAnim {
    if runtimeTree.is_null() {
        return core::ptr::null_mut();
    }
    // SAFETY: a runtime tree by contract.
    unsafe { (*runtimeTree).sourceTree }
}

/// `int32_t XAnimGetAnimTreeSize(XAnim *tree)`: `nodeCount`.
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimGetAnimTreeSize(tree: *mut XAnim) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(0, |t| t.node_count() as i32)
}

/// `qboolean XAnimHasTime(XAnim *tree, int32_t animIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimHasTime(tree: *mut XAnim, animIndex: i32) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(0, |t| t.has_time(animIndex))
}

/// `qboolean XAnimIsPrimitive(XAnim *tree, int32_t animIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimIsPrimitive(tree: *mut XAnim, animIndex: i32) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(0, |t| t.is_primitive(animIndex))
}

/// `qboolean XAnimIsLooped(XAnim *tree, int32_t animIndex)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimIsLooped(tree: *mut XAnim, animIndex: i32) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(0, |t| t.is_looped(animIndex))
}

/// `qboolean XAnimNotetrackExists(XAnim *tree, int32_t animIndex, uint16_t notetrack)`
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[no_mangle]
unsafe extern "C" fn XAnimNotetrackExists(tree: *mut XAnim, animIndex: i32, notetrack: u16) -> i32 {
    // SAFETY: engine tree by contract.
    unsafe { handle(tree) }.map_or(0, |t| t.notetrack_exists(animIndex, notetrack))
}

/// `double XAnimGetLength(XAnim *tree, int32_t animIndex)` (client
/// flavour): the quotient rounded once to binary64. (Declared with the
/// engine flavour's in the header's trailer, one type per flavour.)
///
/// cbindgen:ignore
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[cfg(feature = "client")]
#[no_mangle]
unsafe extern "C" fn XAnimGetLength(tree: *mut XAnim, animIndex: i32) -> f64 {
    // SAFETY: engine tree by contract.
    core_tree::length_binary64(core_tree::length_operands(unsafe { handle(tree) }, animIndex))
}

/// SoftFloat's `extFloat80_t` as the macOS engine's emulated x87 returns
/// it (`x87f`): the significand with its explicit integer bit, then the
/// sign and biased exponent; 16 bytes, returned in x0:x1.
///
/// cbindgen:ignore
#[cfg(all(not(feature = "client"), darwin_rules))]
#[repr(C)]
pub struct x87f {
    pub signif: u64,
    pub signExp: u16,
}

/// `x87f XAnimGetLength(XAnim *tree, int32_t animIndex)` (the macOS arm64
/// server, `EMULATE_X87`): the x87 quotient at 64 bits, by the software
/// x87 (the same bits as the x86 engine's).
///
/// cbindgen:ignore
///
/// # Safety
/// `tree` is NULL or an engine tree.
#[cfg(all(not(feature = "client"), darwin_rules))]
#[no_mangle]
unsafe extern "C" fn XAnimGetLength(tree: *mut XAnim, animIndex: i32) -> x87f {
    // SAFETY: engine tree by contract.
    let length = core_tree::length_extended(core_tree::length_operands(unsafe { handle(tree) }, animIndex));
    x87f { signif: length.significand, signExp: length.sign_exponent }
}

// `long double XAnimGetLength(XAnim *tree, int32_t animIndex)` (engine
// flavour): an assembly routine per calling convention (module `length`)
// around `uoanim_internal_xanim_length_operands` below (an assembly
// routine's body: `uoanim_internal_`, localised by the packaging).
#[cfg(all(not(feature = "client"), not(darwin_rules)))]
mod length;

/// The operands of the engine flavour's length, packed (frames in the low
/// half, the rate's bits in the high): what the x86 routine divides.
///
/// # Safety
/// `tree` is NULL or an engine tree.
/// cbindgen:ignore
#[cfg(all(not(feature = "client"), any(target_arch = "x86", target_arch = "x86_64")))]
#[no_mangle]
unsafe extern "C" fn uoanim_internal_xanim_length_operands(tree: *mut XAnim, animIndex: i32) -> u64 {
    // SAFETY: engine tree by contract.
    core_tree::length_operands(unsafe { handle(tree) }, animIndex).packed()
}

/// The engine flavour's length as the bits of a binary128 `long double`
/// (aarch64 Linux): the x87 quotient of the x86 engine, by the software
/// path, widened exactly.
///
/// # Safety
/// `tree` is NULL or an engine tree.
/// cbindgen:ignore
#[cfg(all(not(feature = "client"), target_arch = "aarch64", not(darwin_rules)))]
#[no_mangle]
unsafe extern "C" fn uoanim_internal_xanim_length_binary128(tree: *mut XAnim, animIndex: i32) -> u128 {
    // SAFETY: engine tree by contract.
    core_tree::length_extended(core_tree::length_operands(unsafe { handle(tree) }, animIndex)).to_binary128_bits()
}
