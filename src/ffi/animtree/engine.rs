//! Engine imports of the animation-tree unit and the [`TreeEngine`]
//! implementation over them.

use crate::abi::xanim::{script_anim_tree_alloc_t, XAnim};
use crate::error::{Failure, Outcome};
use crate::names::CName;
use crate::tree::registry::{CellAddr, TreeAddr, TreeEngine};
use crate::tree::xanim::{self as xtree, MissingAsset, XAnimMut};
use alloc::vec::Vec;
use core::ffi::{c_void, CStr};

/// The engine imports of the script side (kept out of the unit's header).
///
/// cbindgen:ignore
pub(super) mod imports;
use imports::*;

/// Name of a tree whose `.atr` has no file record.
static SAVEGAME_NAME: &CStr = c"(savegame)";

/// The engine as the registry sees it, for one exported call.
///
/// cbindgen:ignore
pub struct TreeImports {
    /// The allocator of the load in progress (precache / load at index).
    pub alloc: script_anim_tree_alloc_t,
}

/// Exclusive access, for one step of the build, to a tree this module
/// allocated.
///
/// # Safety
/// The view is used only during the step (`'a` ends with it).
unsafe fn tree_mut<'a>(tree: TreeAddr) -> Option<XAnimMut<'a>> {
    // SAFETY: `tree` is 0 or a tree `XAnimAllocTree` made for the load in
    // progress (header and `nodeCount` entries of allocator memory; the
    // contract of `TreeAddr::from_raw`), which only this module's build
    // writes, one step at a time, while the engine waits for the load to
    // return; the caller keeps the view to the step.
    unsafe { XAnimMut::from_raw(tree.addr() as *mut XAnim) }
}

/// A module name as the C string it is.
fn c_name(name: CName<'_>) -> &CStr {
    // SAFETY: a `CName` ends with its only NUL (its invariant).
    unsafe { CStr::from_bytes_with_nul_unchecked(name.with_nul()) }
}

impl TreeEngine for TreeImports {
    type Tree = TreeAddr;
    type Cell = CellAddr;
    type Failure = Failure<'static>;

    fn is_identifier(&mut self, text: &CStr) -> bool {
        // SAFETY: NUL-terminated string.
        unsafe { Scr_IsIdentifier(text.as_ptr()) != 0 }
    }

    fn canonical_filename(&mut self, filename: &CStr, out: &mut Vec<u8>) {
        // SAFETY: NUL-terminated string; the handle's text is the engine's.
        let handle = unsafe { Scr_CreateCanonicalFilename(filename.as_ptr()) };
        out.extend_from_slice(self.string_of(handle));
    }

    fn string_of(&mut self, handle: u16) -> &[u8] {
        // SAFETY: the engine's string table: NULL or a NUL-terminated string
        // that outlives the call.
        let text = unsafe { SL_ConvertToString(handle) };
        unsafe { crate::cstr::c_bytes(text) }.unwrap_or_default()
    }

    fn add_source_buffer(&mut self, path: &CStr) -> Option<&[u8]> {
        // SAFETY: NUL-terminated path; the buffer is NUL-terminated text in
        // temp memory, valid until Hunk_ClearTempMemoryHigh.
        let text = unsafe { Scr_AddSourceBuffer(path.as_ptr(), core::ptr::null_mut(), core::ptr::null_mut()) };
        unsafe { crate::cstr::c_bytes(text) }
    }

    fn clear_temp_memory_high(&mut self) {
        // SAFETY: plain engine call.
        unsafe { Hunk_ClearTempMemoryHigh() }
    }

    fn alloc_tree(&mut self, tree_name: CName<'_>, node_count: u32) -> Outcome<TreeAddr> {
        // SAFETY: NUL-terminated strings; the record (if any) is the engine's.
        let name = unsafe {
            let record = FS_GetDataForFile(c"animtrees".as_ptr(), c_name(tree_name).as_ptr(), c".atr".as_ptr());
            if record.is_null() {
                SAVEGAME_NAME.as_ptr()
            } else {
                (*record).name
            }
        };
        match xtree::alloc_tree(&mut super::xanim::XAnimImports, name, node_count, self.alloc) {
            // SAFETY: the block `XAnimAllocTree` made for this load.
            Some(tree) => Ok(unsafe { TreeAddr::from_raw(tree.as_ptr() as usize) }),
            // The original would write through NULL (docs/DIVERGENCES.md).
            None => Err(Failure::TreeAllocation),
        }
    }

    fn set_parent_node(&mut self, tree: TreeAddr, index: u16, _name: CName<'_>, first_child: u16, child_count: u16, flags: u16) {
        // SAFETY: the view lives for this step.
        if let Some(mut tree) = unsafe { tree_mut(tree) } {
            xtree::set_parent_node(&mut tree, index, first_child, child_count, flags);
        }
    }

    fn set_leaf_node(&mut self, tree: TreeAddr, index: u16, name: CName<'_>) -> Result<(), MissingAsset> {
        // SAFETY: the view lives for this step.
        match unsafe { tree_mut(tree) } {
            Some(mut tree) => xtree::set_leaf_node(&mut super::xanim::XAnimImports, &mut tree, index, c_name(name)),
            None => Ok(()),
        }
    }

    fn load_xanim(&mut self, name: CName<'_>) -> Outcome<()> {
        // SAFETY: NUL-terminated name; the allocator is this unit's.
        unsafe { XAnimLoadFile(c_name(name).as_ptr(), Some(precache_alloc)) };
        Ok(())
    }

    fn setup_sync_nodes(&mut self, tree: TreeAddr) -> Outcome<()> {
        // The failures name the tree's name and its assets' (engine memory
        // the engine keeps past the exported call that raises them).
        // SAFETY: the view lives for this step.
        match unsafe { tree_mut(tree) } {
            Some(mut tree) => xtree::setup_sync_nodes(&mut tree),
            None => Ok(()),
        }
    }

    fn write_cell(&mut self, cell: CellAddr, value: u32) {
        // A NULL cell (the original writes through it) is not written
        // (docs/DIVERGENCES.md).
        if cell == CellAddr::NULL {
            return;
        }
        // SAFETY: the cell is the 4 bytes the engine handed over with the
        // reference (possibly unaligned script code; the contract of
        // `CellAddr::from_raw`).
        unsafe { core::ptr::write_unaligned(cell.addr() as *mut u32, value) }
    }

    fn is_loaded_code_pos(&mut self, cell: CellAddr) -> bool {
        // SAFETY: plain engine query.
        unsafe { ScriptCode_IsLoadedCodePos(cell.addr() as *const u8) != 0 }
    }

    fn is_developer_code_pos(&mut self, cell: CellAddr) -> bool {
        // SAFETY: plain engine query.
        unsafe { Scr_IsInDeveloperOpcodeMemory(cell.addr() as *const u8) != 0 }
    }
}

/// `Hunk_AllocXAnimPrecache`'s work: hunk memory aligned for `fileData_t`,
/// the allocator `XAnimLoadFile` gets at precache.
///
/// # Safety
/// Plain engine call.
pub(super) unsafe extern "C" fn precache_alloc(size: usize) -> *mut c_void {
    // SAFETY: plain engine call.
    unsafe { Hunk_AllocAlignInternal(size, core::mem::align_of::<*const c_void>()) }
}
