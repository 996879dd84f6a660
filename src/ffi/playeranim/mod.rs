//! Player animation-script exports (game and cgame units).
//!
//! The globals below are defined by the game (or cgame) module that links
//! the library; the module reads and writes them exactly as the C original
//! does. They are declared as [`ModuleCell`]s (same layout as the C object)
//! so that access goes through the single-threaded module contract.

use crate::abi::bg::{bg_static_animation_table_t, bgs_t};
#[cfg(parse_exports)]
use crate::abi::bg::{bg_runtime_animation_t, weaponInfo_t};
use crate::cell::ModuleCell;

/// The engine imports, one implementation per flavour.
///
/// cbindgen:ignore
mod engine;
#[cfg(parse_exports)]
mod parse;
#[cfg(frame_exports)]
mod frame;
#[cfg(parse_exports)]
mod runtime;

#[allow(non_upper_case_globals)]
extern "C" {
    /// `bgs_t bgs;` (game globals).
    pub(crate) static bgs: ModuleCell<bgs_t>;
    /// `bg_static_animation_table_t *bgAnimStaticTable;` published by the parser.
    pub(crate) static bgAnimStaticTable: ModuleCell<*mut bg_static_animation_table_t>;
    /// `bg_runtime_animation_t *bgRuntimeAnimations;` (pass 1 only; NULL after).
    #[cfg(parse_exports)]
    pub(crate) static bgRuntimeAnimations: ModuleCell<*mut bg_runtime_animation_t>;
    /// `int32_t *bgRuntimeAnimationCount;`
    #[cfg(parse_exports)]
    pub(crate) static bgRuntimeAnimationCount: ModuleCell<*mut i32>;
    /// `int32_t bg_numWeapons;`
    #[cfg(parse_exports)]
    pub(crate) static bg_numWeapons: ModuleCell<i32>;
    /// `weaponInfo_t **bg_weaponInfos;`
    #[cfg(parse_exports)]
    pub(crate) static bg_weaponInfos: ModuleCell<*mut *mut weaponInfo_t>;
}
