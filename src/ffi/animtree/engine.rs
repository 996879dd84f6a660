//! Engine imports of the animation-tree unit and the [`TreeEngine`]
//! implementation over them.

use crate::error::{Failure, Outcome};
use crate::tree::registry::{CellAddr, TreeAddr, TreeEngine};
use core::ffi::{c_char, c_void, CStr};

/// The tree allocator a load is given (`script_anim_tree_alloc_t`).
pub type TreeAlloc = Option<unsafe extern "C" fn(size: usize) -> *mut c_void>;

extern "C" {
    fn SL_ConvertToString(string: u16) -> *const c_char;
    fn Scr_CreateCanonicalFilename(filename: *const c_char) -> u16;
    fn Scr_IsIdentifier(text: *const c_char) -> i32;
    fn Scr_AddSourceBuffer(filename: *const c_char, normal_code_start: *mut u8, relocated_code_start: *mut u8) -> *mut c_char;
    fn FS_GetDataForFile(base: *const c_char, path: *const c_char, extension: *const c_char) -> *mut c_void;
    fn XAnimLoadFile(name: *const c_char, alloc: Option<unsafe extern "C" fn(usize) -> *mut c_void>) -> *mut c_void;
    fn ScriptCode_IsLoadedCodePos(code_pos: *const u8) -> i32;
    fn Scr_IsInDeveloperOpcodeMemory(code_pos: *const u8) -> i32;
    fn Hunk_AllocAlignInternal(size: usize, alignment: usize) -> *mut c_void;
    fn Hunk_ClearTempMemoryHigh();
}

// The XAnim building functions of this unit (xanim_tree.c), called through
// their C entry points exactly as the original's tree builder does.
extern "C" {
    fn XAnimAllocTree(name: *const c_char, node_count: u32, alloc: TreeAlloc) -> *mut c_void;
    fn XAnimSetLeafNode(tree: *mut c_void, node_index: u16, anim_name: *const c_char);
    fn XAnimSetParentNode(tree: *mut c_void, node_index: u16, unused_name: *const c_char, first_child_index: u16, child_count: u16, flags: u16);
    fn XAnimSetupSyncNodes(tree: *mut c_void);
}

/// Name of a tree whose `.atr` has no file record.
static SAVEGAME_NAME: &CStr = c"(savegame)";

/// `Hunk_AllocXAnimPrecache`: hunk memory aligned for `fileData_t` (the
/// allocator `XAnimLoadFile` gets at precache).
///
/// # Safety
/// Calls the engine's hunk allocator.
#[no_mangle]
pub unsafe extern "C" fn Hunk_AllocXAnimPrecache(size: usize) -> *mut c_void {
    // SAFETY: plain engine call.
    unsafe { Hunk_AllocAlignInternal(size, core::mem::align_of::<*const c_void>()) }
}

/// The engine as the registry sees it, for one exported call.
pub struct Engine {
    /// The allocator of the load in progress (precache / load at index).
    pub alloc: TreeAlloc,
}

fn c_bytes<'a>(p: *const c_char) -> &'a [u8] {
    if p.is_null() {
        return &[];
    }
    // SAFETY: the engine returns NUL-terminated strings that outlive the call.
    unsafe { CStr::from_ptr(p) }.to_bytes()
}

impl TreeEngine for Engine {
    fn is_identifier(&mut self, text: &CStr) -> bool {
        // SAFETY: NUL-terminated string.
        unsafe { Scr_IsIdentifier(text.as_ptr()) != 0 }
    }

    fn canonical_filename(&mut self, filename: &CStr, out: &mut Vec<u8>) {
        // SAFETY: NUL-terminated string; the handle's text is the engine's.
        let handle = unsafe { Scr_CreateCanonicalFilename(filename.as_ptr()) };
        self.string_of(handle, out);
    }

    fn string_of(&mut self, handle: u16, out: &mut Vec<u8>) {
        // SAFETY: the engine's string table.
        let text = unsafe { SL_ConvertToString(handle) };
        out.extend_from_slice(c_bytes(text));
    }

    fn add_source_buffer(&mut self, path: &CStr, out: &mut Vec<u8>) -> bool {
        // SAFETY: NUL-terminated path; the buffer is NUL-terminated text.
        let text = unsafe { Scr_AddSourceBuffer(path.as_ptr(), core::ptr::null_mut(), core::ptr::null_mut()) };
        if text.is_null() {
            return false;
        }
        out.extend_from_slice(c_bytes(text));
        true
    }

    fn clear_temp_memory_high(&mut self) {
        // SAFETY: plain engine call.
        unsafe { Hunk_ClearTempMemoryHigh() }
    }

    fn alloc_tree(&mut self, tree_name: &CStr, node_count: u32) -> Outcome<TreeAddr> {
        // SAFETY: NUL-terminated strings; the record (if any) is the engine's
        // `fileData_t`, whose first field is its name.
        let name = unsafe {
            let record = FS_GetDataForFile(c"animtrees".as_ptr(), tree_name.as_ptr(), c".atr".as_ptr());
            if record.is_null() {
                SAVEGAME_NAME.as_ptr()
            } else {
                *(record as *const *const c_char)
            }
        };
        // SAFETY: the allocator is the one the engine passed to this load.
        let tree = unsafe { XAnimAllocTree(name, node_count, self.alloc) };
        if tree.is_null() {
            return Err(Failure::drop(b"\x15out of memory allocating an animation tree"));
        }
        Ok(tree as TreeAddr)
    }

    fn set_parent_node(&mut self, tree: TreeAddr, index: u16, name: &CStr, first_child: u16, child_count: u16, flags: u16) {
        // SAFETY: `tree` was allocated for more than `index` nodes.
        unsafe { XAnimSetParentNode(tree as *mut c_void, index, name.as_ptr(), first_child, child_count, flags) }
    }

    fn set_leaf_node(&mut self, tree: TreeAddr, index: u16, name: &CStr) -> Outcome<()> {
        // SAFETY: as above; a missing asset raises through the engine.
        unsafe { XAnimSetLeafNode(tree as *mut c_void, index, name.as_ptr()) };
        Ok(())
    }

    fn load_xanim(&mut self, name: &CStr) -> Outcome<()> {
        // SAFETY: NUL-terminated name; the allocator is this unit's.
        unsafe { XAnimLoadFile(name.as_ptr(), Some(Hunk_AllocXAnimPrecache)) };
        Ok(())
    }

    fn setup_sync_nodes(&mut self, tree: TreeAddr) -> Outcome<()> {
        // SAFETY: a fully built tree.
        unsafe { XAnimSetupSyncNodes(tree as *mut c_void) };
        Ok(())
    }

    fn write_cell(&mut self, cell: CellAddr, value: u32) {
        // SAFETY: the cell is the 4 bytes the engine handed over with the
        // reference (possibly unaligned script code).
        unsafe { core::ptr::write_unaligned(cell as *mut u32, value) }
    }

    fn is_loaded_code_pos(&mut self, cell: CellAddr) -> bool {
        // SAFETY: plain engine query.
        unsafe { ScriptCode_IsLoadedCodePos(cell as *const u8) != 0 }
    }

    fn is_developer_code_pos(&mut self, cell: CellAddr) -> bool {
        // SAFETY: plain engine query.
        unsafe { Scr_IsInDeveloperOpcodeMemory(cell as *const u8) != 0 }
    }
}
