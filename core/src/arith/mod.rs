//! The arithmetic of the float formulas: one interface, [`Arith`], over
//! which each formula of the module is written once (the controller lerps,
//! the loop phase, the distance and the rate of the slots, the move speed of
//! the finalize step, the engine length), and the implementations a unit
//! picks for the build of the C original it replaces.
//!
//! An operation is a step of the C's own code, with the C type of its
//! expression ([`CType`]) and, where the original's code takes an operand
//! straight from memory, that operand's form ([`Mem`]). What the type and
//! the form mean is the implementation's:
//!
//! * [`X87`]: every expression on the x87, the C built for it (gcc's
//!   `FLT_EVAL_METHOD` 2). Each operation is one x87 instruction over
//!   80-bit registers, rounding under the precision control; a value is
//!   rounded only where the code stores it ([`Arith::assign`],
//!   [`Arith::store_f32`]), and with ISO excess precision also where it
//!   casts ([`Arith::cast`]). A memory operand is not loaded first, so a
//!   signalling NaN there meets the x87's rule for a signalling and a quiet
//!   operand. The machine ([`X87Machine`]) is the hardware (the units'
//!   crate, on x86) or the software x87 ([`Soft`]), bit for bit the same.
//!   On [`Emulated`], the x87 of upstream's x87 emulation (SoftFloat's
//!   `extFloat80_t`, the `EMULATE_X87` builds of the macOS arm64 rules):
//!   the same operations on [`Soft`], every operand loaded before it is
//!   used, and the platform's own `float` moves.
//! * [`Native`]: binary32 and binary64 as the target computes them (the
//!   cgame's SSE build on x86_64, the native macOS arm64 builds); `long
//!   double` is binary64.
//!
//! A signalling NaN is a value like any other: what quiets it is a step
//! that quiets it on the original's machine (an x87 load, an operation),
//! and nothing else.

use crate::x87_model::F80;
use core::cmp::Ordering;

/// The C type of an expression (after the usual arithmetic conversions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType {
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `long double`.
    LongDouble,
}

/// An operand the original's code reads straight from memory (`fsub
/// dword ptr [m]`): not loaded into a register first.
#[derive(Clone, Copy, Debug)]
pub enum Mem {
    /// A `float` object.
    F32(f32),
    /// A `double` object.
    F64(f64),
    /// An `int32_t` object.
    I32(i32),
}

/// A floating constant of the C source, written as a decimal: its value as
/// the `float` the literal names, and the literal's own value at the x87's
/// extended precision (what a build with ISO excess precision evaluates it
/// to: gcc rounds the decimal to the 64-bit significand).
#[derive(Clone, Copy, Debug)]
pub struct Decimal {
    /// The `float` the literal names.
    pub float: f32,
    /// The literal's value rounded to the x87's 64-bit significand.
    pub extended: F80,
}

impl Decimal {
    /// A literal whose binary32 value is exact (`0.5f`, `130.0f`): the
    /// same value at every precision.
    pub const fn exact(float: f32, sign_exponent: u16, significand: u64) -> Decimal {
        Decimal { float, extended: F80::from_parts(sign_exponent, significand) }
    }
}

/// `0.001f`, the milliseconds-to-seconds factor: `1/1000` extended is
/// `0x3ff5 0x83126e978d4fdf3b`.
pub const MILLISECONDS_TO_SECONDS: Decimal = Decimal { float: 0.001, extended: F80::from_parts(0x3ff5, 0x8312_6e97_8d4f_df3b) };
/// `0.36f`, the per-client loop phase: `0x3ffd 0xb851eb851eb851ec`.
pub const LOOP_PHASE_PER_CLIENT: Decimal = Decimal { float: 0.36, extended: F80::from_parts(0x3ffd, 0xb851_eb85_1eb8_51ec) };
/// `0.01f`, the rate under which a vertical move stops: `0x3ff8 0xa3d70a3d70a3d70a`.
pub const RATE_ZERO_EPSILON: Decimal = Decimal { float: 0.01, extended: F80::from_parts(0x3ff8, 0xa3d7_0a3d_70a3_d70a) };

/// The float arithmetic of one build of the C original (module docs).
///
/// Every method is one step of the C's code; `V` is a value in the middle
/// of an expression (an x87 register, or a binary32/binary64 value).
pub trait Arith: Copy {
    /// A value in the middle of an expression.
    type V: Copy;

    /// A `float` object read into an expression (`fld dword ptr`).
    fn load_f32(self, v: f32) -> Self::V;
    /// A `double` object read into an expression (`fld qword ptr`).
    fn load_f64(self, v: f64) -> Self::V;
    /// An `int32_t` converted to `ty` (`(float)i`; `fild`).
    fn load_i32(self, ty: CType, v: i32) -> Self::V;
    /// A `float` literal.
    fn constant(self, c: Decimal) -> Self::V;
    /// A `long double` literal.
    fn long_double(self, v: F80) -> Self::V;

    /// `a + b` of type `ty`.
    fn add(self, ty: CType, a: Self::V, b: Self::V) -> Self::V;
    /// `a - b` of type `ty`.
    fn sub(self, ty: CType, a: Self::V, b: Self::V) -> Self::V;
    /// `a * b` of type `ty`.
    fn mul(self, ty: CType, a: Self::V, b: Self::V) -> Self::V;
    /// `a / b` of type `ty`.
    fn div(self, ty: CType, a: Self::V, b: Self::V) -> Self::V;
    /// `a - m`, `m` read from memory by the instruction itself (`fsub m`).
    #[inline(always)]
    fn sub_mem(self, ty: CType, a: Self::V, m: Mem) -> Self::V {
        let b = self.load_mem(ty, m);
        self.sub(ty, a, b)
    }
    /// `a * m`, `m` read from memory by the instruction itself (`fmul m`).
    #[inline(always)]
    fn mul_mem(self, ty: CType, a: Self::V, m: Mem) -> Self::V {
        let b = self.load_mem(ty, m);
        self.mul(ty, a, b)
    }
    /// `a / m`, `m` read from memory by the instruction itself (`fdiv m`).
    #[inline(always)]
    fn div_mem(self, ty: CType, a: Self::V, m: Mem) -> Self::V {
        let b = self.load_mem(ty, m);
        self.div(ty, a, b)
    }
    /// The square root of type `ty` (`fsqrt`, `sqrtl`).
    fn sqrt(self, ty: CType, a: Self::V) -> Self::V;

    /// An explicit `(ty)` cast inside an expression.
    fn cast(self, ty: CType, a: Self::V) -> Self::V;
    /// The value stored to an object of type `ty` and read back (an
    /// assignment to a variable the code reads later).
    #[inline(always)]
    fn assign(self, ty: CType, a: Self::V) -> Self::V {
        match ty {
            CType::Float => self.load_f32(self.store_f32(a)),
            CType::Double => self.load_f64(self.store_f64(a)),
            CType::LongDouble => a,
        }
    }
    /// The value stored to a `float` object.
    fn store_f32(self, a: Self::V) -> f32;
    /// `(double)v` of a `float` object, stored to a `double` (exact; a
    /// signalling NaN comes back quiet on every machine).
    fn widen(self, v: f32) -> f64;
    /// The value stored to a `double` object.
    fn store_f64(self, a: Self::V) -> f64;
    /// `(int32_t)a`, truncating (`fistp` under round toward zero: the
    /// integer indefinite `INT32_MIN` out of range).
    fn trunc_i32(self, a: Self::V) -> i32;
    /// `(int64_t)a`, truncating (the indefinite `INT64_MIN` out of range).
    fn trunc_i64(self, a: Self::V) -> i64;
    /// The order of `a` and `b`, `None` when unordered.
    fn compare(self, a: Self::V, b: Self::V) -> Option<Ordering>;

    /// A `float` copied from one object to another by the code (`fld` and
    /// `fstp` on the x87, which quiet a signalling NaN; a plain move
    /// elsewhere).
    fn copy_f32(self, v: f32) -> f32;
    /// A `float` handed to a function, or returned by one, as the ABI of
    /// the build moves it (the 32-bit x86 ABI's stack slot and `st(0)`,
    /// through the x87; registers elsewhere).
    fn pass_f32(self, v: f32) -> f32;

    /// MSVC's `_ftol2` as the Windows builds convert a value to
    /// `int32_t`: the low 32 bits of the truncated 64-bit integer, and 0
    /// outside `[-2^63, 2^63 - 0.5)` (the helper's first step rounds to
    /// nearest, so from `2^63 - 0.5` on it already has the 64-bit
    /// indefinite, whose low word is 0), NaN included.
    #[inline(always)]
    fn ftol2(self, v: Self::V) -> i32 {
        let low = self.long_double(F80::from_parts(0xc03e, 1 << 63)); // -2^63
        let high = self.long_double(F80::from_parts(0x403d, u64::MAX)); // 2^63 - 0.5
        let at_least = matches!(self.compare(v, low), Some(Ordering::Greater | Ordering::Equal));
        if at_least && self.lt(v, high) {
            self.trunc_i64(v) as u32 as i32
        } else {
            0
        }
    }
    /// An `_ftol2` that upstream's x87 emulation writes as a dword
    /// truncation (`x87f_store_i32_trunc`: `INT32_MIN` out of range):
    /// the finalize step's move distance. [`Arith::ftol2`] everywhere
    /// else.
    #[inline(always)]
    fn ftol2_as_dword(self, v: Self::V) -> i32 {
        self.ftol2(v)
    }

    /// `a < b` (false when unordered).
    #[inline(always)]
    fn lt(self, a: Self::V, b: Self::V) -> bool {
        self.compare(a, b) == Some(Ordering::Less)
    }
    /// `a == b` (false when unordered).
    #[inline(always)]
    fn eq(self, a: Self::V, b: Self::V) -> bool {
        self.compare(a, b) == Some(Ordering::Equal)
    }

    /// A memory operand as a value of type `ty` (for the default memory
    /// forms).
    #[inline(always)]
    fn load_mem(self, ty: CType, m: Mem) -> Self::V {
        match m {
            Mem::F32(v) => self.load_f32(v),
            Mem::F64(v) => self.load_f64(v),
            Mem::I32(v) => self.load_i32(ty, v),
        }
    }
}

// ---- the x87 ---------------------------------------------------------------------

/// The x87 instructions the formulas use, each exactly the instruction's:
/// loads, stores, the four operations in register and memory form, the
/// square root, the comparison and the truncating integer stores, with the
/// exceptions masked and round to nearest.
pub trait X87Machine: Copy {
    /// A register's value.
    type R: Copy;
    /// Upstream's x87 emulation ([`Emulated`]): an operand from memory is
    /// loaded first (`x87f_load_f32`, which quiets a signalling NaN, then
    /// the operation), a `float` copy or argument is a plain move, and an
    /// `_ftol2` the emulation writes as a dword truncation is one
    /// ([`Arith::ftol2_as_dword`]). Known when the unit is compiled.
    const EMULATION: bool = false;
    /// `fld dword ptr` (a signalling NaN comes back quiet).
    fn fld_f32(self, v: f32) -> Self::R;
    /// `fld qword ptr`.
    fn fld_f64(self, v: f64) -> Self::R;
    /// `fild dword ptr`.
    fn fild(self, v: i32) -> Self::R;
    /// `fld tbyte ptr` of an extended constant.
    fn fld_f80(self, v: F80) -> Self::R;
    /// `fadd` of two registers: `a + b`.
    fn fadd(self, a: Self::R, b: Self::R) -> Self::R;
    /// `fsub`: `a - b`.
    fn fsub(self, a: Self::R, b: Self::R) -> Self::R;
    /// `fmul`: `a * b`.
    fn fmul(self, a: Self::R, b: Self::R) -> Self::R;
    /// `fdiv`: `a / b`.
    fn fdiv(self, a: Self::R, b: Self::R) -> Self::R;
    /// `fsub` with a memory operand: `a - m`.
    fn fsub_m(self, a: Self::R, m: Mem) -> Self::R;
    /// `fmul` with a memory operand: `a * m`.
    fn fmul_m(self, a: Self::R, m: Mem) -> Self::R;
    /// `fdiv` with a memory operand: `a / m`.
    fn fdiv_m(self, a: Self::R, m: Mem) -> Self::R;
    /// `fsqrt`.
    fn fsqrt(self, a: Self::R) -> Self::R;
    /// `fstp dword ptr`.
    fn fst_f32(self, a: Self::R) -> f32;
    /// `fld dword ptr`, then `fstp qword ptr`: a binary32 widened.
    #[inline(always)]
    fn widen(self, v: f32) -> f64 {
        self.fst_f64(self.fld_f32(v))
    }
    /// `fstp qword ptr`.
    fn fst_f64(self, a: Self::R) -> f64;
    /// `fistp dword ptr` under round toward zero.
    fn fistp_trunc_i32(self, a: Self::R) -> i32;
    /// `fistp qword ptr` under round toward zero.
    fn fistp_trunc_i64(self, a: Self::R) -> i64;
    /// `fucomi`: the order of `a` and `b`.
    fn fucom(self, a: Self::R, b: Self::R) -> Option<Ordering>;
}

/// The C built for the x87 (module docs) on machine `M`.
#[derive(Clone, Copy, Debug)]
pub struct X87<M> {
    /// The x87 the code runs on: the hardware, or the software x87.
    pub machine: M,
    /// ISO excess precision (gcc's `-fexcess-precision=standard`, implied
    /// by `-std=c11`): a cast rounds, and a floating literal is its
    /// decimal's extended value. Otherwise (`=fast`) neither.
    pub iso: bool,
    /// The 32-bit ABI: a `float` argument or result moves through the x87.
    pub stack_floats: bool,
}

impl<M: X87Machine> Arith for X87<M> {
    type V = M::R;

    #[inline(always)]
    fn load_f32(self, v: f32) -> M::R {
        self.machine.fld_f32(v)
    }
    #[inline(always)]
    fn load_f64(self, v: f64) -> M::R {
        self.machine.fld_f64(v)
    }
    #[inline(always)]
    fn load_i32(self, ty: CType, v: i32) -> M::R {
        let wide = self.machine.fild(v);
        self.cast(ty, wide)
    }
    #[inline(always)]
    fn constant(self, c: Decimal) -> M::R {
        if self.iso {
            self.machine.fld_f80(c.extended)
        } else {
            self.machine.fld_f32(c.float)
        }
    }
    #[inline(always)]
    fn long_double(self, v: F80) -> M::R {
        self.machine.fld_f80(v)
    }
    #[inline(always)]
    fn add(self, _: CType, a: M::R, b: M::R) -> M::R {
        self.machine.fadd(a, b)
    }
    #[inline(always)]
    fn sub(self, _: CType, a: M::R, b: M::R) -> M::R {
        self.machine.fsub(a, b)
    }
    #[inline(always)]
    fn mul(self, _: CType, a: M::R, b: M::R) -> M::R {
        self.machine.fmul(a, b)
    }
    #[inline(always)]
    fn div(self, _: CType, a: M::R, b: M::R) -> M::R {
        self.machine.fdiv(a, b)
    }
    #[inline(always)]
    fn sub_mem(self, ty: CType, a: M::R, m: Mem) -> M::R {
        if M::EMULATION {
            let b = self.load_mem(ty, m);
            return self.sub(ty, a, b);
        }
        self.machine.fsub_m(a, m)
    }
    #[inline(always)]
    fn mul_mem(self, ty: CType, a: M::R, m: Mem) -> M::R {
        if M::EMULATION {
            let b = self.load_mem(ty, m);
            return self.mul(ty, a, b);
        }
        self.machine.fmul_m(a, m)
    }
    #[inline(always)]
    fn div_mem(self, ty: CType, a: M::R, m: Mem) -> M::R {
        if M::EMULATION {
            let b = self.load_mem(ty, m);
            return self.div(ty, a, b);
        }
        self.machine.fdiv_m(a, m)
    }
    #[inline(always)]
    fn sqrt(self, _: CType, a: M::R) -> M::R {
        self.machine.fsqrt(a)
    }
    #[inline(always)]
    fn cast(self, ty: CType, a: M::R) -> M::R {
        if self.iso {
            self.assign(ty, a)
        } else {
            a
        }
    }
    #[inline(always)]
    fn store_f32(self, a: M::R) -> f32 {
        self.machine.fst_f32(a)
    }
    #[inline(always)]
    fn store_f64(self, a: M::R) -> f64 {
        self.machine.fst_f64(a)
    }
    #[inline(always)]
    fn widen(self, v: f32) -> f64 {
        self.machine.widen(v)
    }
    #[inline(always)]
    fn trunc_i32(self, a: M::R) -> i32 {
        self.machine.fistp_trunc_i32(a)
    }
    #[inline(always)]
    fn trunc_i64(self, a: M::R) -> i64 {
        self.machine.fistp_trunc_i64(a)
    }
    #[inline(always)]
    fn compare(self, a: M::R, b: M::R) -> Option<Ordering> {
        self.machine.fucom(a, b)
    }
    #[inline(always)]
    fn ftol2_as_dword(self, v: M::R) -> i32 {
        if M::EMULATION {
            self.trunc_i32(v)
        } else {
            self.ftol2(v)
        }
    }
    #[inline(always)]
    fn copy_f32(self, v: f32) -> f32 {
        if M::EMULATION {
            return v;
        }
        self.machine.fst_f32(self.machine.fld_f32(v))
    }
    #[inline(always)]
    fn pass_f32(self, v: f32) -> f32 {
        if self.stack_floats && !M::EMULATION {
            self.copy_f32(v)
        } else {
            v
        }
    }
}

mod soft;
pub use soft::{Emulated, Soft, SoftReg};

// ---- binary32 and binary64 -------------------------------------------------------------

/// Binary32 and binary64 as the target computes them (the cgame's SSE
/// build on x86_64); `long double` is binary64. A `float` expression's
/// value stays a binary32 ([`NativeV::F32`]) and its operations are the
/// target's binary32 ones on the original operands (a signalling NaN meets
/// the target's NaN rule as it is); a promotion to `double` is the target's
/// conversion (which quiets a signalling NaN, as the C's does).
#[derive(Clone, Copy, Debug, Default)]
pub struct Native;

/// A value of [`Native`]: a `float` or a `double` (and `long double`).
#[derive(Clone, Copy, Debug)]
pub enum NativeV {
    /// A `float` expression's value.
    F32(f32),
    /// A `double` (or `long double`) expression's value.
    F64(f64),
}

impl NativeV {
    /// The value as a `float` (a `double` converted).
    #[inline(always)]
    fn f32(self) -> f32 {
        match self {
            NativeV::F32(v) => v,
            NativeV::F64(v) => v as f32,
        }
    }

    /// The value as a `double` (a `float` promoted).
    #[inline(always)]
    fn f64(self) -> f64 {
        match self {
            NativeV::F32(v) => f64::from(v),
            NativeV::F64(v) => v,
        }
    }
}

impl Native {
    /// `op` of type `ty`: binary32 for `float`, binary64 otherwise.
    #[inline(always)]
    fn op(self, ty: CType, a: NativeV, b: NativeV, single: impl Fn(f32, f32) -> f32, double: impl Fn(f64, f64) -> f64) -> NativeV {
        match ty {
            CType::Float => NativeV::F32(single(a.f32(), b.f32())),
            CType::Double | CType::LongDouble => NativeV::F64(double(a.f64(), b.f64())),
        }
    }
}

impl Arith for Native {
    type V = NativeV;

    #[inline(always)]
    fn load_f32(self, v: f32) -> NativeV {
        NativeV::F32(v)
    }
    #[inline(always)]
    fn load_f64(self, v: f64) -> NativeV {
        NativeV::F64(v)
    }
    #[inline(always)]
    fn load_i32(self, ty: CType, v: i32) -> NativeV {
        match ty {
            CType::Float => NativeV::F32(v as f32),
            CType::Double | CType::LongDouble => NativeV::F64(f64::from(v)),
        }
    }
    #[inline(always)]
    fn constant(self, c: Decimal) -> NativeV {
        NativeV::F32(c.float)
    }
    #[inline(always)]
    fn long_double(self, v: F80) -> NativeV {
        NativeV::F64(v.to_f64())
    }
    #[inline(always)]
    fn add(self, ty: CType, a: NativeV, b: NativeV) -> NativeV {
        self.op(ty, a, b, |x, y| x + y, |x, y| x + y)
    }
    #[inline(always)]
    fn sub(self, ty: CType, a: NativeV, b: NativeV) -> NativeV {
        self.op(ty, a, b, |x, y| x - y, |x, y| x - y)
    }
    #[inline(always)]
    fn mul(self, ty: CType, a: NativeV, b: NativeV) -> NativeV {
        self.op(ty, a, b, |x, y| x * y, |x, y| x * y)
    }
    #[inline(always)]
    fn div(self, ty: CType, a: NativeV, b: NativeV) -> NativeV {
        self.op(ty, a, b, |x, y| x / y, |x, y| x / y)
    }
    #[inline(always)]
    fn sqrt(self, ty: CType, a: NativeV) -> NativeV {
        match ty {
            CType::Float => NativeV::F32(crate::math::sqrt_f32(a.f32())),
            CType::Double | CType::LongDouble => NativeV::F64(crate::math::sqrt_f64(a.f64())),
        }
    }
    #[inline(always)]
    fn cast(self, ty: CType, a: NativeV) -> NativeV {
        match ty {
            CType::Float => NativeV::F32(a.f32()),
            CType::Double | CType::LongDouble => NativeV::F64(a.f64()),
        }
    }
    #[inline(always)]
    fn assign(self, ty: CType, a: NativeV) -> NativeV {
        self.cast(ty, a)
    }
    #[inline(always)]
    fn store_f32(self, a: NativeV) -> f32 {
        a.f32()
    }
    #[inline(always)]
    fn store_f64(self, a: NativeV) -> f64 {
        a.f64()
    }
    #[inline(always)]
    fn widen(self, v: f32) -> f64 {
        f64::from(v)
    }
    #[inline(always)]
    fn trunc_i32(self, a: NativeV) -> i32 {
        // the x86 conversions' (`cvttsd2si`'s and `fistp`'s) indefinite
        let v = a.f64();
        if v > -2_147_483_649.0 && v < 2_147_483_648.0 {
            v as i32
        } else {
            i32::MIN
        }
    }
    #[inline(always)]
    fn trunc_i64(self, a: NativeV) -> i64 {
        const TWO_63: f64 = 9_223_372_036_854_775_808.0;
        let v = a.f64();
        if (-TWO_63..TWO_63).contains(&v) {
            v as i64
        } else {
            i64::MIN
        }
    }
    #[inline(always)]
    fn compare(self, a: NativeV, b: NativeV) -> Option<Ordering> {
        match (a, b) {
            (NativeV::F32(x), NativeV::F32(y)) => x.partial_cmp(&y),
            _ => a.f64().partial_cmp(&b.f64()),
        }
    }
    #[inline(always)]
    fn copy_f32(self, v: f32) -> f32 {
        v
    }
    #[inline(always)]
    fn pass_f32(self, v: f32) -> f32 {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x87_model::Precision;

    const X86: X87<Soft> = X87 { machine: Soft { pc: Precision::Double }, iso: false, stack_floats: true };
    const EMULATED: X87<Emulated> = X87 { machine: Emulated(Soft { pc: Precision::Double }), iso: false, stack_floats: true };

    #[test]
    fn the_emulation_moves_floats_as_they_are() {
        let signalling = f32::from_bits(0x7fa0_0001);
        assert_eq!(X86.copy_f32(signalling).to_bits(), 0x7fe0_0001);
        assert_eq!(X86.pass_f32(signalling).to_bits(), 0x7fe0_0001);
        assert_eq!(EMULATED.copy_f32(signalling).to_bits(), 0x7fa0_0001);
        assert_eq!(EMULATED.pass_f32(signalling).to_bits(), 0x7fa0_0001);
    }

    #[test]
    fn the_emulation_loads_a_memory_operand_first() {
        // a quiet NaN times a signalling one from memory: the x87 takes the
        // quiet register; loaded first, both are quiet and the larger
        // significand wins
        fn check<M: X87Machine>(x: X87<M>, want: u32) {
            let a = f32::from_bits(0x7fc0_0001);
            let m = Mem::F32(f32::from_bits(0x7f80_0002));
            assert_eq!(x.store_f32(x.mul_mem(CType::Float, x.load_f32(a), m)).to_bits(), want);
            assert_eq!(x.store_f32(x.sub_mem(CType::Float, x.load_f32(a), m)).to_bits(), want);
            assert_eq!(x.store_f32(x.div_mem(CType::Float, x.load_f32(a), m)).to_bits(), want);
        }
        check(X86, 0x7fc0_0001);
        check(EMULATED, 0x7fc0_0002);
    }

    #[test]
    fn the_emulation_truncates_a_move_distance_to_a_dword() {
        fn conversions<M: X87Machine>(x: X87<M>, v: F80) -> (i32, i32) {
            let v = x.long_double(v);
            (x.ftol2(v), x.ftol2_as_dword(v))
        }
        let big = F80::from_f64(4_294_967_298.75); // 2^32 + 2.75
        assert_eq!(conversions(X86, big), (2, 2));
        // the loop phase's _ftol2 keeps the low word; the move speed's saturates
        assert_eq!(conversions(EMULATED, big), (2, i32::MIN));
        assert_eq!(conversions(X86, F80::INDEFINITE), (0, 0));
        assert_eq!(conversions(EMULATED, F80::INDEFINITE), (0, i32::MIN));
    }
}
