//! `XAnimGetLength`: `frameCountMinusOne / frameRate`, a 16-bit integer
//! divided by a binary32, as the original computes it: [`length`], over the
//! arithmetic of the build (`crate::arith`).
//!
//! The node is read in Rust ([`length_operands`], the checks of the other
//! queries). The division:
//!
//! * engine flavour: an 80-bit `long double`, `fild` of the count and
//!   `fdiv` by the rate from memory, rounded by the process's precision
//!   control (PC=64 on Linux). On x86 the export is a short assembly
//!   routine in src/ffi doing those two instructions (Rust cannot return in
//!   `st(0)`); elsewhere [`length_extended`], the formula on the software
//!   x87 at 64 bits, bit for bit the same (the units' tests compare the
//!   software x87 with the hardware).
//! * client flavour: [`length_binary64`], the quotient rounded once to
//!   binary64 (equal to the original's x87 quotient under the client's
//!   PC=53: the quotient is always in binary64's normal range).

use super::XAnimHandle;
use crate::arith::{Arith, CType::LongDouble, Mem, Native, Soft, X87};
use crate::x87_model::Precision;

/// The operands of a length: the frame count (zero-extended) and the bits
/// of the binary32 frame rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthOperands {
    pub frames: u32,
    pub rate_bits: u32,
}

impl LengthOperands {
    /// Operands of the defined result where the original has no asset to
    /// read (NULL tree, index outside the tree, parent node, leaf without
    /// loaded asset): 0 / 1.0f = +0.
    pub const NONE: Self = Self { frames: 0, rate_bits: 0x3f80_0000 };

    /// Packed in one word: frames in the low half, rate in the high (what
    /// the x86 assembly of the engine export receives).
    pub const fn packed(self) -> u64 {
        ((self.rate_bits as u64) << 32) | self.frames as u64
    }
}

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

/// `(long double)frameCountMinusOne / frameRate`: the count loaded, the
/// rate the division's memory operand.
#[inline(always)]
pub fn length<A: Arith>(a: A, ops: LengthOperands) -> A::V {
    // a 16-bit count: `fild` of a nonnegative int32
    a.div_mem(LongDouble, a.load_i32(LongDouble, ops.frames as i32), Mem::F32(f32::from_bits(ops.rate_bits)))
}

/// The client flavour's value: the once-rounded binary64 quotient, with
/// the target's NaNs (x86's: 0/0 is the negative default NaN, a NaN rate
/// gives that NaN widened and quieted, sign and payload kept).
pub fn length_binary64(ops: LengthOperands) -> f64 {
    Native.store_f64(length(Native, ops))
}

/// An x87 extended-precision value: the 64-bit significand (explicit
/// integer bit) and the sign and biased exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extended {
    pub significand: u64,
    pub sign_exponent: u16,
}

impl Extended {
    /// The 10 bytes of the `long double` (little-endian).
    pub fn to_bytes(self) -> [u8; 10] {
        let mut out = [0u8; 10];
        out[..8].copy_from_slice(&self.significand.to_le_bytes());
        out[8..].copy_from_slice(&self.sign_exponent.to_le_bytes());
        out
    }

    /// The same value as an IEEE binary128 (exact: binary128 has the same
    /// exponent range and a wider significand), what a `long double` is on
    /// aarch64 Linux. The values of [`length_extended`] are never
    /// subnormal.
    pub fn to_binary128_bits(self) -> u128 {
        let fraction = u128::from(self.significand & !(1u64 << 63)) << 49;
        (u128::from(self.sign_exponent) << 112) | fraction
    }
}

/// The engine flavour's value on the software x87 at 64 bits: the x87's
/// bits, as a value.
///
/// The special cases: 0/0 is the default NaN (negative quiet NaN), a NaN
/// rate gives that NaN quieted (the operand's conversion to extended keeps
/// its sign and payload), n/±0 is ±infinity, n/±infinity and 0/x are ±0 (the
/// rate's sign: the count is never negative). A finite nonzero quotient is
/// always within the extended range (at most 2^32 / 2^-149).
pub fn length_extended(ops: LengthOperands) -> Extended {
    let x87 = X87 { machine: Soft { pc: Precision::Extended }, iso: false, stack_floats: false };
    let quotient = length(x87, ops).extended();
    Extended { significand: quotient.significand(), sign_exponent: quotient.sign_exponent() }
}
