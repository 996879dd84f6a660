//! The floating-point functions the crate needs that `core` does not have
//! (`f32::sqrt`, `f64::sqrt`, `f64::trunc` live in `std`, which a shipped unit
//! does not link). Each gives the same bits as the `std` method: the square
//! roots are the SSE instructions `std` compiles to (correctly rounded), and
//! truncation is exact.

#[cfg(target_arch = "x86")]
use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;

/// `f64::sqrt`: the correctly rounded square root (SSE2 `sqrtsd`).
#[inline]
pub fn sqrt_f64(x: f64) -> f64 {
    // SAFETY: SSE2 is part of both targets' baseline (x86_64, and i686 as the
    // Rust i686 targets define it)
    unsafe { arch::_mm_cvtsd_f64(arch::_mm_sqrt_pd(arch::_mm_set_sd(x))) }
}

/// `f32::sqrt`: the correctly rounded square root (SSE `sqrtss`).
#[inline]
pub fn sqrt_f32(x: f32) -> f32 {
    // SAFETY: SSE is part of both targets' baseline
    unsafe { arch::_mm_cvtss_f32(arch::_mm_sqrt_ss(arch::_mm_set_ss(x))) }
}

/// `f64::trunc`: rounds toward zero, keeping the sign (of -0.5 too), NaN and
/// infinities (a NaN is returned as it is).
#[inline]
pub fn trunc_f64(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32 - 1023;
    if exponent >= 52 {
        return x; // integral already, or NaN / infinity
    }
    if exponent < 0 {
        return f64::from_bits(bits & (1 << 63)); // |x| < 1: a signed zero
    }
    f64::from_bits(bits & !((1u64 << (52 - exponent)) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> impl Iterator<Item = f64> {
        let special = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 4503599627370495.5, 4503599627370496.0,
            9007199254740993.0, 1e300, -1e300, f64::MIN_POSITIVE, 5e-324, f64::MAX, f64::INFINITY,
            f64::NEG_INFINITY, f64::NAN, 2.0, 3.0, 1e-10];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        special.into_iter().chain((0..20000).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f64::from_bits(state)
        }))
    }

    #[test]
    fn the_same_bits_as_std() {
        for x in samples() {
            // a NaN stays a NaN (std's i686 trunc also quiets a signalling
            // one; the crate truncates only widened f32 values, never one)
            let t = trunc_f64(x);
            assert!(t.to_bits() == x.trunc().to_bits() || (t.is_nan() && x.trunc().is_nan()), "trunc {x:e}");
            let s = sqrt_f64(x);
            assert!(s.to_bits() == x.sqrt().to_bits() || (s.is_nan() && x.sqrt().is_nan()), "sqrt {x:e}");
            let f = x as f32;
            let s = sqrt_f32(f);
            assert!(s.to_bits() == f.sqrt().to_bits() || (s.is_nan() && f.sqrt().is_nan()), "sqrtf {f:e}");
        }
    }
}
