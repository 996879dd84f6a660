//! Types shared by both modules.

/// `qboolean`: a 32-bit int (the modules are built with `-fno-short-enums`).
pub type qboolean = i32;

/// `scr_anim_t`: a packed animation reference, the little-endian dword
/// `(treeIndex << 16) | animIndex`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct scr_anim_t {
    pub animIndex: u16,
    pub treeIndex: u16,
}

crate::assert_size!(scr_anim_t, i686 = 4, x86_64 = 4);
crate::assert_offset!(scr_anim_t, animIndex, i686 = 0, x86_64 = 0);
crate::assert_offset!(scr_anim_t, treeIndex, i686 = 2, x86_64 = 2);

impl scr_anim_t {
    /// The packed dword form.
    pub const fn packed(self) -> u32 {
        ((self.treeIndex as u32) << 16) | self.animIndex as u32
    }

    /// From the packed dword form.
    pub const fn from_packed(value: u32) -> Self {
        Self { animIndex: value as u16, treeIndex: (value >> 16) as u16 }
    }
}
