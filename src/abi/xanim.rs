//! Mirrors of the parts of `xanim_types.h` the tree side uses.

/// `XAnim` (`struct XAnim_s`): a compact animation tree.
#[repr(C)]
pub struct XAnim {
    pub name: *const core::ffi::c_char,
    pub nodeCount: u32,
    /// `XAnimEntry entries[]` follows (flexible array member).
    pub entries: [XAnimEntry; 0],
}

/// `XAnimEntry`: one node of an `XAnim`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct XAnimEntry {
    pub childCount: u16,
    pub parentIndex: u16,
    pub payload: XAnimEntryPayload,
}

/// The `parent` member of `XAnimEntry`'s payload union.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XAnimParentPayload {
    pub flags: u16,
    pub firstChildIndex: u16,
}

/// `XAnimEntry`'s payload union: the leaf's asset or the parent's fields.
#[repr(C)]
#[derive(Clone, Copy)]
pub union XAnimEntryPayload {
    pub leafAsset: *mut core::ffi::c_void,
    pub parent: XAnimParentPayload,
}

crate::assert_size!(XAnim, i686 = 8, x86_64 = 16);
crate::assert_offset!(XAnim, nodeCount, i686 = 4, x86_64 = 8);
crate::assert_offset!(XAnim, entries, i686 = 8, x86_64 = 16);
crate::assert_size!(XAnimEntry, i686 = 8, x86_64 = 16);
crate::assert_offset!(XAnimEntry, parentIndex, i686 = 2, x86_64 = 2);
crate::assert_offset!(XAnimEntry, payload, i686 = 4, x86_64 = 8);
