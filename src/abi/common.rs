//! Types shared by both modules: the core's (`uoanim_core::abi::common`)
//! and the one-pointer tree reference of the exports.

pub use uoanim_core::abi::common::*;
/// The engine's compact tree, whose layout is `abi::xanim`'s.
pub use crate::abi::xanim::XAnim;

/// `script_anim_tree_ref_t`: the one-pointer struct the Linux-behaviour
/// `Scr_FindAnimTree` / `BG_FindAnimTree` return by value (on i386 through a
/// hidden result pointer, in `rax` on x86_64).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct script_anim_tree_ref_t {
    pub tree: *mut XAnim,
}

uoanim_core::assert_size!(script_anim_tree_ref_t, i686 = 4, x86_64 = 8);
