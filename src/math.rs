//! The two square roots the crate needs, without `std`, correctly rounded
//! as IEEE 754 requires (what `f32::sqrt` and `f64::sqrt` compile to): on
//! x86 the SSE/SSE2 instructions (SSE2 is part of every x86 target the crate
//! builds for: x86_64, and i686 whose baseline is the Pentium 4); elsewhere
//! an exact integer computation ([`soft`]) with x86's results, NaNs
//! included (the square root of a negative number is x86's default NaN,
//! negative).

#[cfg(target_arch = "x86")]
use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
const _: () = assert!(cfg!(target_feature = "sse2"), "the crate needs SSE2");

/// The correctly rounded binary32 square root.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
pub fn sqrt_f32(x: f32) -> f32 {
    // SAFETY: SSE is enabled for the target (asserted above).
    unsafe { arch::_mm_cvtss_f32(arch::_mm_sqrt_ss(arch::_mm_set_ss(x))) }
}

/// The correctly rounded binary64 square root.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline]
pub fn sqrt_f64(x: f64) -> f64 {
    // SAFETY: SSE2 is enabled for the target (asserted above).
    unsafe {
        let v = arch::_mm_set_sd(x);
        arch::_mm_cvtsd_f64(arch::_mm_sqrt_sd(v, v))
    }
}

/// The correctly rounded binary32 square root.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
pub fn sqrt_f32(x: f32) -> f32 {
    uoanim_core::math::sqrt_f32(x)
}

/// The correctly rounded binary64 square root.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
#[inline]
pub fn sqrt_f64(x: f64) -> f64 {
    uoanim_core::math::sqrt_f64(x)
}

/// The square roots of [`sqrt_f32`]: the hardware's instruction on x86,
/// the core's integer arithmetic elsewhere (the same bits either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HardwareRoots;

impl uoanim_core::math::Roots for HardwareRoots {
    #[inline]
    fn sqrt_f32(self, x: f32) -> f32 {
        sqrt_f32(x)
    }
    #[inline]
    fn sqrt_f64(self, x: f64) -> f64 {
        sqrt_f64(x)
    }
}

/// The square roots in integer arithmetic (every target; the tests compare
/// them with the hardware's): the core's.
pub use uoanim_core::math as soft;

#[cfg(test)]
mod tests {
    use super::*;

    /// std's bits, but for the root of a negative number x86's default NaN
    /// on every target (another target's std gives its own default NaN).
    fn std_f32(x: f32) -> u32 {
        // (Miri gives an operation on a NaN a NaN of any payload, as the
        // language allows: the NaN cases are compared on hardware.)
        if cfg!(miri) && (x.is_nan() || x < 0.0) {
            return sqrt_f32(x).to_bits();
        }
        if x < 0.0 {
            0xffc0_0000
        } else {
            core::hint::black_box(x).sqrt().to_bits()
        }
    }
    fn std_f64(x: f64) -> u64 {
        if cfg!(miri) && (x.is_nan() || x < 0.0) {
            return sqrt_f64(x).to_bits();
        }
        if x < 0.0 {
            0xfff8_0000_0000_0000
        } else {
            core::hint::black_box(x).sqrt().to_bits()
        }
    }

    fn check32(x: f32) {
        if cfg!(miri) && (x.is_nan() || x < 0.0) {
            assert!(sqrt_f32(x).is_nan());
        } else {
            assert_eq!(sqrt_f32(x).to_bits(), std_f32(x), "{:08x}", x.to_bits());
        }
    }
    fn check64(x: f64) {
        if cfg!(miri) && (x.is_nan() || x < 0.0) {
            assert!(sqrt_f64(x).is_nan());
        } else {
            assert_eq!(sqrt_f64(x).to_bits(), std_f64(x), "{x:e}");
        }
    }

    #[test]
    fn square_roots_match_std() {
        let mut bits: u32 = 0x1234_5678;
        // (fewer under Miri, an interpreter)
        for _ in 0..if cfg!(miri) { 300 } else { 100_000 } {
            bits ^= bits << 13;
            bits ^= bits >> 17;
            bits ^= bits << 5;
            let x = f32::from_bits(bits);
            check32(x);
            let d = f64::from_bits(u64::from(bits) << 32 | u64::from(bits.rotate_left(7)));
            check64(d);
        }
        for x in [0.0f32, -0.0, 1.0, 4.0, f32::INFINITY, f32::NEG_INFINITY, f32::MIN_POSITIVE, -1.0, f32::from_bits(1), f32::MAX] {
            check32(x);
            check64(f64::from(x));
        }
    }

    /// The integer square roots give std's bits (the hardware's on x86),
    /// subnormals and specials included, and x86's NaNs.
    #[test]
    fn software_square_roots_match_std() {
        let mut bits: u64 = 0x9e37_79b9_7f4a_7c15;
        let check = |d: f64| {
            let want = if d.is_nan() || d < 0.0 { None } else { Some(d.sqrt().to_bits()) };
            if let Some(want) = want {
                assert_eq!(soft::sqrt_f64(d).to_bits(), want, "{d:e}");
            }
            let f = d as f32;
            if !(f.is_nan() || f < 0.0) {
                assert_eq!(soft::sqrt_f32(f).to_bits(), f.sqrt().to_bits(), "{f:e}");
            }
        };
        for _ in 0..if cfg!(miri) { 300 } else { 100_000 } {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            check(f64::from_bits(bits));
            check(f64::from_bits(bits & 0x000f_ffff_ffff_ffff)); // subnormal
            check(f64::from(f32::from_bits(bits as u32)));
        }
        for d in [0.0, -0.0, 1.0, 2.0, 4.0, f64::INFINITY, f64::MIN_POSITIVE, f64::MAX, f64::from_bits(1)] {
            check(d);
        }
        assert_eq!(soft::sqrt_f64(-1.0).to_bits(), 0xfff8_0000_0000_0000);
        assert_eq!(soft::sqrt_f32(-1.0).to_bits(), 0xffc0_0000);
        assert_eq!(soft::sqrt_f64(f64::NEG_INFINITY).to_bits(), 0xfff8_0000_0000_0000);
        assert_eq!(soft::sqrt_f64(f64::from_bits(0x7ff0_0000_0000_0001)).to_bits(), 0x7ff8_0000_0000_0001);
        // (the hardware's NaN, which Miri does not model)
        #[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), not(miri)))]
        {
            assert_eq!(sqrt_f64(-1.0).to_bits(), soft::sqrt_f64(-1.0).to_bits());
            assert_eq!(sqrt_f32(-1.0).to_bits(), soft::sqrt_f32(-1.0).to_bits());
        }
    }
}
