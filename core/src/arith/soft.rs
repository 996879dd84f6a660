//! The software x87: [`F80`] as an [`X87Machine`], under a precision
//! control it is handed. It is the x87 of the targets without one, the
//! `soft-x87` units' on x86; [`F80`] is the model the hardware is tested
//! against.
//!
//! A register whose value binary64 holds exactly (a `float` or `double`
//! loaded, an `int32_t`, and what the host's binary64 arithmetic computes
//! from those without rounding) is kept as that binary64
//! ([`SoftReg::Exact`]): an operation of two such values is done by the
//! host when its binary64 result is exact and finite, and is then the x87's
//! result too (the x87 rounds an exact value of at most 53 bits only at a
//! precision control of 24 bits, which is applied after). Any other case
//! runs on [`F80`], which is every operation bit for bit.

use super::{Mem, X87Machine};
use crate::x87_model::{Precision, F80};
use core::cmp::Ordering;

/// The software x87 under the precision control `pc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Soft {
    /// The precision control: the significand width each operation rounds to.
    pub pc: Precision,
}

/// A register of the software x87: a value binary64 holds (never a NaN or
/// an infinity), or any extended value.
#[derive(Clone, Copy, Debug)]
pub enum SoftReg {
    /// A value binary64 holds exactly (no NaN, no infinity).
    Exact(f64),
    /// Any extended value.
    Ext(F80),
}

impl From<F80> for SoftReg {
    #[inline(always)]
    fn from(v: F80) -> SoftReg {
        SoftReg::Ext(v)
    }
}

impl SoftReg {
    /// The extended value (a binary64 widens exactly).
    #[inline(always)]
    pub fn extended(self) -> F80 {
        match self {
            SoftReg::Exact(v) => F80::from_f64(v),
            SoftReg::Ext(v) => v,
        }
    }
}

/// The significant bits of a normal binary64's significand (from its
/// leading 1 to its last 1).
#[inline(always)]
fn significant_bits(v: f64) -> u32 {
    53 - ((v.to_bits() & 0x000f_ffff_ffff_ffff) | 1 << 52).trailing_zeros()
}

impl Soft {
    /// A value the x87 holds for the exact result `v` of an operation:
    /// `v` itself at 53 and 64 bits; at 24 bits `v` rounded to 24 bits,
    /// here only where binary32's range holds it (`None`: the general path
    /// decides).
    #[inline(always)]
    fn exact(self, v: f64) -> Option<SoftReg> {
        match self.pc {
            Precision::Extended | Precision::Double => Some(SoftReg::Exact(v)),
            Precision::Single => {
                let narrow = v as f32;
                (narrow.is_normal() || v == 0.0).then_some(SoftReg::Exact(f64::from(narrow)))
            }
        }
    }

    /// `op` of two exact values on the host when its result is exact and
    /// finite, else `general` on the extended values.
    #[inline(always)]
    fn binary(self, a: SoftReg, b: SoftReg, host: impl Fn(f64, f64) -> Option<f64>, general: impl Fn(F80, F80, Precision) -> F80) -> SoftReg {
        if let (SoftReg::Exact(x), SoftReg::Exact(y)) = (a, b) {
            if let Some(r) = host(x, y).and_then(|r| self.exact(r)) {
                return r;
            }
        }
        SoftReg::Ext(general(a.extended(), b.extended(), self.pc))
    }
}

/// `x + y` when binary64 holds it exactly (TwoSum's error is zero).
#[inline(always)]
fn exact_sum(x: f64, y: f64) -> Option<f64> {
    let s = x + y;
    let bv = s - x;
    let av = s - bv;
    let error = (x - av) + (y - bv);
    (error == 0.0 && s.is_finite()).then_some(s)
}

/// `x * y` when binary64 holds it exactly: both normal, their
/// significands' bits fit binary64's, and the product is normal (or a
/// factor is zero: a signed zero).
#[inline(always)]
fn exact_product(x: f64, y: f64) -> Option<f64> {
    let p = x * y;
    if x == 0.0 || y == 0.0 {
        return Some(p);
    }
    (x.is_normal() && y.is_normal() && significant_bits(x) + significant_bits(y) <= 53 && p.is_normal()).then_some(p)
}

impl X87Machine for Soft {
    type R = SoftReg;

    #[inline(always)]
    fn fld_f32(self, v: f32) -> SoftReg {
        if v.is_finite() { SoftReg::Exact(f64::from(v)) } else { SoftReg::Ext(F80::from_f32(v)) }
    }
    #[inline(always)]
    fn fld_f64(self, v: f64) -> SoftReg {
        if v.is_finite() { SoftReg::Exact(v) } else { SoftReg::Ext(F80::from_f64(v)) }
    }
    #[inline(always)]
    fn fild(self, v: i32) -> SoftReg {
        SoftReg::Exact(f64::from(v))
    }
    #[inline(always)]
    fn fld_f80(self, v: F80) -> SoftReg {
        SoftReg::Ext(v)
    }
    #[inline(always)]
    fn fadd(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.binary(a, b, exact_sum, F80::add)
    }
    #[inline(always)]
    fn fsub(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.binary(a, b, |x, y| exact_sum(x, -y), F80::sub)
    }
    #[inline(always)]
    fn fmul(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.binary(a, b, exact_product, F80::mul)
    }
    #[inline(always)]
    fn fdiv(self, a: SoftReg, b: SoftReg) -> SoftReg {
        // a quotient is seldom exact: the extended model's
        SoftReg::Ext(a.extended().div(b.extended(), self.pc))
    }
    #[inline(always)]
    fn fsub_m(self, a: SoftReg, m: Mem) -> SoftReg {
        match loaded(m) {
            Some(b) => self.fsub(a, b),
            None => SoftReg::Ext(a.extended().sub(operand(m), self.pc)),
        }
    }
    #[inline(always)]
    fn fmul_m(self, a: SoftReg, m: Mem) -> SoftReg {
        match loaded(m) {
            Some(b) => self.fmul(a, b),
            None => SoftReg::Ext(a.extended().mul(operand(m), self.pc)),
        }
    }
    #[inline(always)]
    fn fdiv_m(self, a: SoftReg, m: Mem) -> SoftReg {
        SoftReg::Ext(a.extended().div(operand(m), self.pc))
    }
    #[inline(always)]
    fn fsqrt(self, a: SoftReg) -> SoftReg {
        SoftReg::Ext(a.extended().sqrt(self.pc))
    }
    #[inline(always)]
    fn fst_f32(self, a: SoftReg) -> f32 {
        match a {
            // one rounding of the register's value, as `fstp dword ptr`
            SoftReg::Exact(v) => v as f32,
            SoftReg::Ext(v) => v.to_f32(),
        }
    }
    #[inline(always)]
    fn fst_f64(self, a: SoftReg) -> f64 {
        match a {
            SoftReg::Exact(v) => v,
            SoftReg::Ext(v) => v.to_f64(),
        }
    }
    #[inline(always)]
    fn fistp_trunc_i32(self, a: SoftReg) -> i32 {
        match a {
            SoftReg::Exact(v) if v > -2_147_483_649.0 && v < 2_147_483_648.0 => v as i32,
            SoftReg::Exact(_) => i32::MIN,
            SoftReg::Ext(v) => v.to_i32_trunc(),
        }
    }
    #[inline(always)]
    fn fistp_trunc_i64(self, a: SoftReg) -> i64 {
        a.extended().to_i64_trunc()
    }
    #[inline(always)]
    fn fucom(self, a: SoftReg, b: SoftReg) -> Option<Ordering> {
        match (a, b) {
            (SoftReg::Exact(x), SoftReg::Exact(y)) => x.partial_cmp(&y),
            _ => a.extended().compare(b.extended()),
        }
    }
}

/// A memory operand that is a number, as a register: then the memory form
/// is the register form (they differ only for a signalling NaN).
#[inline(always)]
fn loaded(m: Mem) -> Option<SoftReg> {
    match m {
        Mem::F32(v) if v.is_finite() => Some(SoftReg::Exact(f64::from(v))),
        Mem::F64(v) if v.is_finite() => Some(SoftReg::Exact(v)),
        Mem::I32(v) => Some(SoftReg::Exact(f64::from(v))),
        _ => None,
    }
}

/// A memory operand as the instruction reads it.
#[inline(always)]
fn operand(m: Mem) -> F80 {
    match m {
        Mem::F32(v) => F80::operand_f32(v),
        Mem::F64(v) => F80::operand_f64(v),
        Mem::I32(v) => F80::from_i32(v),
    }
}

#[cfg(test)]
mod tests {
    use super::{Soft, SoftReg};
    use crate::arith::{Mem, X87Machine};
    use crate::testing::Rng;
    use crate::x87_model::{Precision, F80};

    fn bits(v: F80) -> (u16, u64) {
        (v.sign_exponent(), v.significand())
    }

    /// A binary32 often near another's exponent (exact sums), often with
    /// few significant bits (exact products), sometimes anything.
    fn near(rng: &mut Rng, other: f32) -> f32 {
        let r = rng.next_u64() as u32;
        match rng.below(4) {
            0 => f32::from_bits(r),
            1 => f32::from_bits((r & 0x807f_ffff) | (other.to_bits() & 0x7f80_0000).wrapping_add((rng.below(8) as u32) << 23)),
            2 => f32::from_bits((r & 0x80ff_0000) | 0x3000_0000),
            _ => (rng.next_u64() as i32 >> rng.below(32)) as f32,
        }
    }

    /// Every operation through the exact binary64 path gives the extended
    /// model's bits (`crate::x87` compares the model with the hardware).
    #[test]
    fn the_exact_path_is_the_extended_arithmetic() {
        let mut rng = Rng::new(0x0123_4567_89ab_cdef);
        for pc in [Precision::Single, Precision::Double, Precision::Extended] {
            let s = Soft { pc };
            for _ in 0..crate::rounds(200_000) {
                let x = f32::from_bits(rng.next_u64() as u32);
                let y = near(&mut rng, x);
                let z = near(&mut rng, y);
                let i = rng.next_u64() as i32 >> rng.below(32);
                let (fx, fy, fz) = (F80::from_f32(x), F80::from_f32(y), F80::from_f32(z));
                let (sx, sy, sz) = (s.fld_f32(x), s.fld_f32(y), s.fld_f32(z));
                let text = || format!("{pc:?} {:08x} {:08x} {:08x} {i}", x.to_bits(), y.to_bits(), z.to_bits());
                let check = |got: SoftReg, want: F80| {
                    assert_eq!(bits(got.extended()), bits(want), "{}", text());
                    assert_eq!(s.fst_f32(got).to_bits(), want.to_f32().to_bits(), "store {}", text());
                    assert_eq!(s.fst_f64(got).to_bits(), want.to_f64().to_bits(), "store {}", text());
                    assert_eq!(s.fistp_trunc_i32(got), want.to_i32_trunc(), "fistp {}", text());
                };
                check(s.fadd(sx, sy), fx.add(fy, pc));
                check(s.fsub(sx, sy), fx.sub(fy, pc));
                check(s.fmul(sx, sy), fx.mul(fy, pc));
                check(s.fdiv(sx, sy), fx.div(fy, pc));
                check(s.fdiv(s.fmul(sx, sy), sy), fx.mul(fy, pc).div(fy, pc));
                check(s.fsub_m(sx, Mem::F32(y)), fx.sub(F80::operand_f32(y), pc));
                check(s.fmul_m(sx, Mem::F32(y)), fx.mul(F80::operand_f32(y), pc));
                check(s.fmul_m(sx, Mem::I32(i)), fx.mul(F80::from_i32(i), pc));
                check(s.fdiv_m(s.fild(i), Mem::F32(x)), F80::from_i32(i).div(F80::operand_f32(x), pc));
                // chains: a product plus a product, a sum times an integer
                check(s.fadd(s.fmul(sx, sy), s.fmul(sz, sz)), fx.mul(fy, pc).add(fz.mul(fz, pc), pc));
                check(s.fmul(s.fsub(sx, sy), s.fild(i)), fx.sub(fy, pc).mul(F80::from_i32(i), pc));
                check(s.fsub(s.fild(i), s.fadd(sy, sz)), F80::from_i32(i).sub(fy.add(fz, pc), pc));
                assert_eq!(s.fucom(s.fadd(sx, sy), sz), fx.add(fy, pc).compare(fz), "{}", text());
            }
        }
    }
}

/// The software x87 as upstream's x87 emulation uses it (SoftFloat's
/// `extFloat80_t` behind `EMULATE_X87`: the macOS arm64 game module and
/// server): the same operations as [`Soft`], with the emulation's own
/// rules for memory operands, `float` moves and one conversion
/// ([`X87Machine::EMULATION`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Emulated(pub Soft);

impl X87Machine for Emulated {
    type R = SoftReg;
    const EMULATION: bool = true;

    #[inline(always)]
    fn fld_f32(self, v: f32) -> SoftReg {
        self.0.fld_f32(v)
    }
    #[inline(always)]
    fn fld_f64(self, v: f64) -> SoftReg {
        self.0.fld_f64(v)
    }
    #[inline(always)]
    fn fild(self, v: i32) -> SoftReg {
        self.0.fild(v)
    }
    #[inline(always)]
    fn fld_f80(self, v: F80) -> SoftReg {
        self.0.fld_f80(v)
    }
    #[inline(always)]
    fn fadd(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.0.fadd(a, b)
    }
    #[inline(always)]
    fn fsub(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.0.fsub(a, b)
    }
    #[inline(always)]
    fn fmul(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.0.fmul(a, b)
    }
    #[inline(always)]
    fn fdiv(self, a: SoftReg, b: SoftReg) -> SoftReg {
        self.0.fdiv(a, b)
    }
    #[inline(always)]
    fn fsub_m(self, a: SoftReg, m: Mem) -> SoftReg {
        self.0.fsub_m(a, m)
    }
    #[inline(always)]
    fn fmul_m(self, a: SoftReg, m: Mem) -> SoftReg {
        self.0.fmul_m(a, m)
    }
    #[inline(always)]
    fn fdiv_m(self, a: SoftReg, m: Mem) -> SoftReg {
        self.0.fdiv_m(a, m)
    }
    #[inline(always)]
    fn fsqrt(self, a: SoftReg) -> SoftReg {
        self.0.fsqrt(a)
    }
    #[inline(always)]
    fn fst_f32(self, a: SoftReg) -> f32 {
        self.0.fst_f32(a)
    }
    #[inline(always)]
    fn widen(self, v: f32) -> f64 {
        self.0.widen(v)
    }
    #[inline(always)]
    fn fst_f64(self, a: SoftReg) -> f64 {
        self.0.fst_f64(a)
    }
    #[inline(always)]
    fn fistp_trunc_i32(self, a: SoftReg) -> i32 {
        self.0.fistp_trunc_i32(a)
    }
    #[inline(always)]
    fn fistp_trunc_i64(self, a: SoftReg) -> i64 {
        self.0.fistp_trunc_i64(a)
    }
    #[inline(always)]
    fn fucom(self, a: SoftReg, b: SoftReg) -> Option<Ordering> {
        self.0.fucom(a, b)
    }
}
