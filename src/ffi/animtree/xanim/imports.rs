//! Engine imports of the compact XAnim tree exports.

use core::ffi::c_void;

extern "C" {
    /// `void *Hunk_AllocXAnimCreateTree(size_t size)`
    pub(super) fn Hunk_AllocXAnimCreateTree(size: usize) -> *mut c_void;
    /// `void MT_Free(void *data, size_t size)`
    pub(super) fn MT_Free(data: *mut c_void, size: usize);
}

#[cfg(not(feature = "client"))]
extern "C" {
    /// `void *MT_Alloc(size_t size, int32_t tag)` (engine flavour)
    pub(super) fn MT_Alloc(size: usize, tag: i32) -> *mut c_void;
}

#[cfg(feature = "client")]
extern "C" {
    /// `void *MT_Alloc(size_t size)` (client flavour: no tag)
    pub(super) fn MT_Alloc(size: usize) -> *mut c_void;
}
