//! What the runtime and finalize side of the player-animation module needs
//! from the engine.
//!
//! The FFI layer implements these traits with the real imports (game:
//! `coduo_glibc_randrange`, `Scr_GetAnimsIndex`, the `trap_XAnim*` veneers;
//! both units: the sound event callback stored in `bgs`). Unit tests use
//! mocks. Any call may end in the engine's `Com_Error` and never return, so
//! callers hold only plain values and references across them.

use crate::abi::common::XAnim;
use crate::script::engine::ParseEngine;
use core::ffi::CStr;

/// Engine services used while selecting and playing animations (the core's
/// trait).
pub use uoanim_core::playback::RuntimeEngine;

/// Engine services used by `BG_FinalizePlayerAnims` to rebuild the entries
/// (the core's trait).
pub use uoanim_core::finalize::FinalizeEngine;

/// Engine services used by `BG_FindAnims`, `BG_FindAnimTree` and
/// `BG_FindAnimTrees`: the parser's `Scr_FindAnim`, and `Scr_FindAnimTree`.
pub trait FindTreeEngine: ParseEngine {
    /// `Scr_FindAnimTree(name)`: the tree, NULL when there is none.
    fn find_anim_tree(&mut self, name: &CStr) -> *mut XAnim;
}
