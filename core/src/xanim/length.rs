//! `XAnimGetLength`: `frameCountMinusOne / frameRate`, a 16-bit integer
//! divided by a binary32, as the original computes it: [`length`], over the
//! arithmetic of the build ([`crate::arith`]).
//!
//! The operands come from the leaf's asset ([`LengthOperands`], read by
//! whoever holds the tree). The division:
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

use crate::arith::{Arith, CType::LongDouble, Mem, Native, Soft, X87};
use crate::x87_model::Precision;

/// The operands of a length: the frame count (zero-extended) and the bits
/// of the binary32 frame rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthOperands {
    /// `frameCountMinusOne`, zero-extended.
    pub frames: u32,
    /// The bits of `frameRate`.
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
    /// The significand, its integer bit explicit.
    pub significand: u64,
    /// The sign (bit 15) and the biased exponent.
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
