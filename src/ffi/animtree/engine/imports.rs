//! Engine imports of the animation-tree script side (and the asset look-up
//! `FS_GetDataForFile`, which the compact XAnim exports use too: each
//! import is declared once).

use crate::abi::xanim::fileData_t;
use core::ffi::{c_char, c_void};

extern "C" {
    pub fn SL_ConvertToString(string: u16) -> *const c_char;
    pub fn Scr_CreateCanonicalFilename(filename: *const c_char) -> u16;
    pub fn Scr_IsIdentifier(text: *const c_char) -> i32;
    pub fn Scr_AddSourceBuffer(filename: *const c_char, normal_code_start: *mut u8, relocated_code_start: *mut u8) -> *mut c_char;
    pub fn FS_GetDataForFile(base: *const c_char, path: *const c_char, extension: *const c_char) -> *mut fileData_t;
    pub fn XAnimLoadFile(name: *const c_char, alloc: Option<unsafe extern "C" fn(usize) -> *mut c_void>) -> *mut c_void;
    pub fn ScriptCode_IsLoadedCodePos(code_pos: *const u8) -> i32;
    pub fn Scr_IsInDeveloperOpcodeMemory(code_pos: *const u8) -> i32;
    pub fn Hunk_AllocAlignInternal(size: usize, alignment: usize) -> *mut c_void;
    pub fn Hunk_ClearTempMemoryHigh();
}
