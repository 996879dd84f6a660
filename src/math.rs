//! The two square roots the crate needs, without `std`: the SSE/SSE2
//! instructions, correctly rounded as IEEE 754 requires (what `f32::sqrt`
//! and `f64::sqrt` compile to on these targets). SSE2 is part of every
//! target the crate builds for (x86_64, and i686 whose baseline is the
//! Pentium 4).

#[cfg(target_arch = "x86")]
use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;

const _: () = assert!(cfg!(target_feature = "sse2"), "the crate needs SSE2");

/// The correctly rounded binary32 square root.
#[inline]
pub fn sqrt_f32(x: f32) -> f32 {
    // SAFETY: SSE is enabled for the target (asserted above).
    unsafe { arch::_mm_cvtss_f32(arch::_mm_sqrt_ss(arch::_mm_set_ss(x))) }
}

/// The correctly rounded binary64 square root.
#[inline]
pub fn sqrt_f64(x: f64) -> f64 {
    // SAFETY: SSE2 is enabled for the target (asserted above).
    unsafe {
        let v = arch::_mm_set_sd(x);
        arch::_mm_cvtsd_f64(arch::_mm_sqrt_sd(v, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_roots_match_std() {
        let mut bits: u32 = 0x1234_5678;
        for _ in 0..100_000 {
            bits ^= bits << 13;
            bits ^= bits >> 17;
            bits ^= bits << 5;
            let x = f32::from_bits(bits);
            assert_eq!(sqrt_f32(x).to_bits(), x.sqrt().to_bits(), "{bits:08x}");
            let d = f64::from_bits(u64::from(bits) << 32 | u64::from(bits.rotate_left(7)));
            assert_eq!(sqrt_f64(d).to_bits(), d.sqrt().to_bits(), "{d:e}");
        }
        for x in [0.0f32, -0.0, 1.0, 4.0, f32::INFINITY, f32::NEG_INFINITY, f32::MIN_POSITIVE, -1.0] {
            assert_eq!(sqrt_f32(x).to_bits(), x.sqrt().to_bits());
            assert_eq!(sqrt_f64(f64::from(x)).to_bits(), f64::from(x).sqrt().to_bits());
        }
    }
}
