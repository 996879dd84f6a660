//! The x87 extended-precision arithmetic the player-animation frame code
//! needs (`long double` chains of the Linux behaviour, the unstored
//! intermediates of the i686 builds), as safe operations on an 80-bit
//! value kept in memory.
//!
//! Each operation loads its operands, runs one x87 instruction and stores
//! the result, under the thread's precision and rounding control, which is
//! what the original's arithmetic runs under too (the engine leaves the
//! default: 64-bit significand, round to nearest). Rust has no 80-bit type,
//! so the few instructions are written here; nothing else in the crate
//! touches the x87 unit.
//!
//! Targets without an x87 (aarch64) get a binary64 stand-in with the same
//! interface: their units have no C original to match.

/// An x87 double-extended value (10 bytes, stored as the FPU stores it).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub struct F80([u8; 16]);

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod imp {
    use super::F80;
    use core::arch::asm;

    const ZERO: F80 = F80([0; 16]);

    /// One load of `src` with `$load` and a store of the extended result.
    macro_rules! load {
        ($name:ident, $ty:ty, $load:literal) => {
            #[inline]
            pub fn $name(value: $ty) -> F80 {
                let mut out = ZERO;
                // SAFETY: reads `value`, writes `out`; the x87 stack is left
                // as found (one push, one pop).
                unsafe {
                    asm!(
                        concat!($load, " [{src}]"),
                        "fstp tbyte ptr [{dst}]",
                        src = in(reg) &value,
                        dst = in(reg) &mut out,
                        out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                        out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                        options(nostack)
                    )
                }
                out
            }
        };
    }
    load!(from_f32, f32, "fld dword ptr");
    load!(from_f64, f64, "fld qword ptr");
    load!(from_i32, i32, "fild dword ptr");

    /// A store of `a` with `$store` (rounded by the rounding control).
    macro_rules! store {
        ($name:ident, $ty:ty, $store:literal) => {
            #[inline]
            pub fn $name(a: F80) -> $ty {
                let mut out: $ty = Default::default();
                // SAFETY: reads `a`, writes `out`; one push, one pop.
                unsafe {
                    asm!(
                        "fld tbyte ptr [{src}]",
                        concat!($store, " [{dst}]"),
                        src = in(reg) &a,
                        dst = in(reg) &mut out,
                        out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                        out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                        options(nostack)
                    )
                }
                out
            }
        };
    }
    store!(to_f32, f32, "fstp dword ptr");
    store!(to_f64, f64, "fstp qword ptr");

    /// `st(0) = a; st(1) = b; $op st(0), st(1)`: the result stored.
    macro_rules! binary {
        ($name:ident, $op:literal) => {
            #[inline]
            pub fn $name(a: F80, b: F80) -> F80 {
                let mut out = ZERO;
                // SAFETY: reads `a` and `b`, writes `out`; two pushes, two pops.
                unsafe {
                    asm!(
                        "fld tbyte ptr [{b}]",
                        "fld tbyte ptr [{a}]",
                        concat!($op, " st(0), st(1)"),
                        "fstp tbyte ptr [{dst}]",
                        "fstp st(0)",
                        a = in(reg) &a,
                        b = in(reg) &b,
                        dst = in(reg) &mut out,
                        out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                        out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                        options(nostack)
                    )
                }
                out
            }
        };
    }
    binary!(add, "fadd");
    binary!(sub, "fsub");
    binary!(mul, "fmul");
    binary!(div, "fdiv");

    #[inline]
    pub fn sqrt(a: F80) -> F80 {
        let mut out = ZERO;
        // SAFETY: reads `a`, writes `out`; one push, one pop.
        unsafe {
            asm!(
                "fld tbyte ptr [{src}]",
                "fsqrt",
                "fstp tbyte ptr [{dst}]",
                src = in(reg) &a,
                dst = in(reg) &mut out,
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack)
            )
        }
        out
    }

    /// `fucomip` of `a` against `b`: (below, equal, unordered).
    #[inline]
    fn compare(a: F80, b: F80) -> (bool, bool, bool) {
        let (below, equal, unordered): (u8, u8, u8);
        // SAFETY: reads `a` and `b`; two pushes, two pops; sets flags only.
        unsafe {
            asm!(
                "fld tbyte ptr [{b}]",
                "fld tbyte ptr [{a}]",
                "fucomip st, st(1)",
                "fstp st(0)",
                "setb {below}",
                "sete {equal}",
                "setp {unordered}",
                a = in(reg) &a,
                b = in(reg) &b,
                below = out(reg_byte) below,
                equal = out(reg_byte) equal,
                unordered = out(reg_byte) unordered,
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack)
            )
        }
        (below != 0, equal != 0, unordered != 0)
    }

    #[inline]
    pub fn lt(a: F80, b: F80) -> bool {
        let (below, _, unordered) = compare(a, b);
        below && !unordered
    }

    #[inline]
    pub fn eq(a: F80, b: F80) -> bool {
        let (_, equal, unordered) = compare(a, b);
        equal && !unordered
    }

    /// `fistp` under round-toward-zero (the truncating conversion of
    /// `(int)` in C); out of range and NaN give the x87's integer
    /// indefinite, `INT32_MIN`.
    #[inline]
    pub fn to_i32_trunc(a: F80) -> i32 {
        let mut out: i32 = 0;
        let mut saved: u16 = 0;
        let mut truncating: u16 = 0;
        // SAFETY: reads `a`, writes `out` and the two control-word slots;
        // the control word is restored; one push, one pop.
        unsafe {
            asm!(
                "fnstcw word ptr [{saved}]",
                "mov {t:x}, word ptr [{saved}]",
                "or {t:x}, 0x0c00",
                "mov word ptr [{truncating}], {t:x}",
                "fld tbyte ptr [{src}]",
                "fldcw word ptr [{truncating}]",
                "fistp dword ptr [{dst}]",
                "fldcw word ptr [{saved}]",
                src = in(reg) &a,
                dst = in(reg) &mut out,
                saved = in(reg) &mut saved,
                truncating = in(reg) &mut truncating,
                t = out(reg) _,
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack)
            )
        }
        out
    }
}

/// The binary64 stand-in of targets without an x87.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[derive(Clone, Copy, Debug)]
pub struct F80(f64);

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
mod imp {
    use super::F80;
    pub fn from_f32(v: f32) -> F80 { F80(f64::from(v)) }
    pub fn from_f64(v: f64) -> F80 { F80(v) }
    pub fn from_i32(v: i32) -> F80 { F80(f64::from(v)) }
    pub fn to_f32(a: F80) -> f32 { a.0 as f32 }
    pub fn to_f64(a: F80) -> f64 { a.0 }
    pub fn add(a: F80, b: F80) -> F80 { F80(a.0 + b.0) }
    pub fn sub(a: F80, b: F80) -> F80 { F80(a.0 - b.0) }
    pub fn mul(a: F80, b: F80) -> F80 { F80(a.0 * b.0) }
    pub fn div(a: F80, b: F80) -> F80 { F80(a.0 / b.0) }
    pub fn sqrt(a: F80) -> F80 { F80(crate::math::sqrt_f64(a.0)) }
    pub fn lt(a: F80, b: F80) -> bool { a.0 < b.0 }
    pub fn eq(a: F80, b: F80) -> bool { a.0 == b.0 }
    pub fn to_i32_trunc(a: F80) -> i32 {
        if a.0.is_nan() || a.0 >= 2147483648.0 || a.0 <= -2147483649.0 { i32::MIN } else { a.0 as i32 }
    }
}

// The names are the x87 instructions' (plain functions: an operator would
// hide that each is one rounding under the thread's control word).
#[allow(clippy::should_implement_trait)]
impl F80 {
    /// `fld` of a binary32 (exact; a signalling NaN comes back quiet).
    pub fn from_f32(v: f32) -> F80 { imp::from_f32(v) }
    /// `fld` of a binary64.
    pub fn from_f64(v: f64) -> F80 { imp::from_f64(v) }
    /// `fild` of an int32 (exact).
    pub fn from_i32(v: i32) -> F80 { imp::from_i32(v) }
    /// `fstp` to binary32.
    pub fn to_f32(self) -> f32 { imp::to_f32(self) }
    /// `fstp` to binary64.
    pub fn to_f64(self) -> f64 { imp::to_f64(self) }
    /// `self + b`.
    pub fn add(self, b: F80) -> F80 { imp::add(self, b) }
    /// `self - b`.
    pub fn sub(self, b: F80) -> F80 { imp::sub(self, b) }
    /// `self * b`.
    pub fn mul(self, b: F80) -> F80 { imp::mul(self, b) }
    /// `self / b`.
    pub fn div(self, b: F80) -> F80 { imp::div(self, b) }
    /// `fsqrt`.
    pub fn sqrt(self) -> F80 { imp::sqrt(self) }
    /// `self < b` (false when unordered).
    pub fn lt(self, b: F80) -> bool { imp::lt(self, b) }
    /// `self == b` (false when unordered).
    pub fn eq(self, b: F80) -> bool { imp::eq(self, b) }
    /// `(int32_t)self`, truncating; `INT32_MIN` when out of range.
    pub fn to_i32_trunc(self) -> i32 { imp::to_i32_trunc(self) }
}
