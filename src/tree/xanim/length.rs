//! `XAnimGetLength`: the operands read from the leaf's asset
//! ([`length_operands`]); the division is the core's
//! ([`uoanim_core::xanim::length`]).

use super::XAnimHandle;
pub use uoanim_core::xanim::length::{length, length_binary64, length_extended, Extended, LengthOperands};

/// The operands of `XAnimGetLength(tree, index)`.
///
/// A parent node's payload is not an asset pointer (the original reads its
/// flags word as one); parents give [`LengthOperands::NONE`], as do the
/// other cases without asset.
pub fn length_operands(tree: Option<XAnimHandle<'_>>, index: i32) -> LengthOperands {
    let Some(tree) = tree else { return LengthOperands::NONE };
    match tree.entry_at(index) {
        // SAFETY: a leaf of the handle's tree.
        Some(e) if e.childCount == 0 => match unsafe { super::leaf_parts(e) } {
            Some(parts) => LengthOperands { frames: u32::from(parts.frameCountMinusOne), rate_bits: parts.frameRate.to_bits() },
            None => LengthOperands::NONE,
        },
        _ => LengthOperands::NONE,
    }
}
