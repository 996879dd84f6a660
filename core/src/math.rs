//! The two square roots the arithmetic needs, without `std`, correctly
//! rounded as IEEE 754 requires, in exact integer arithmetic, with x86's
//! results, NaNs included (the square root of a negative number is x86's
//! default NaN, negative). The units' crate computes the same roots with
//! the hardware's instructions where it has them and compares the two.

/// Where a formula takes its square roots from: the units' crate
/// supplies the hardware's instruction where there is one; [`IntegerRoots`]
/// computes them here. Both are correctly rounded, so they give the same
/// bits; only the time differs.
pub trait Roots: Copy + core::fmt::Debug + Default {
    /// The correctly rounded binary32 square root (x86's NaNs).
    fn sqrt_f32(self, x: f32) -> f32;
    /// The correctly rounded binary64 square root (x86's NaNs).
    fn sqrt_f64(self, x: f64) -> f64;
}

/// The square roots of this module, in integer arithmetic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntegerRoots;

impl Roots for IntegerRoots {
    #[inline]
    fn sqrt_f32(self, x: f32) -> f32 {
        sqrt_f32(x)
    }
    #[inline]
    fn sqrt_f64(self, x: f64) -> f64 {
        sqrt_f64(x)
    }
}

/// x86's default NaN (binary64), the result of an invalid operation.
const DEFAULT_NAN_F64: u64 = 0xfff8_0000_0000_0000;

/// The correctly rounded binary64 square root.
pub fn sqrt_f64(x: f64) -> f64 {
    let bits = x.to_bits();
    if x.is_nan() {
        return f64::from_bits(bits | 0x0008_0000_0000_0000); // quieted
    }
    if x == 0.0 || x == f64::INFINITY {
        return x; // ±0, +inf
    }
    if x < 0.0 {
        return f64::from_bits(DEFAULT_NAN_F64);
    }
    // x = m * 2^e, m an integer of 53 bits (subnormals normalised)
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & 0x000f_ffff_ffff_ffff;
    let (mut m, mut e) = if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) };
    let lead = m.leading_zeros() as i32 - 11;
    m <<= lead;
    e -= lead;
    if e & 1 != 0 {
        m <<= 1;
        e -= 1;
    }
    // sqrt(m * 2^60) has 56 or 57 bits; its low bit made sticky when the
    // root is inexact, the conversion's one rounding is the root's.
    let wide = u128::from(m) << 60;
    let mut root = wide.isqrt();
    if root * root != wide {
        root |= 1;
    }
    let scale = e / 2 - 30;
    (root as f64) * f64::from_bits(((scale + 1023) as u64) << 52)
}

/// The correctly rounded binary32 square root, in 64-bit integers: the
/// root of the significand, scaled to 26 bits, its low bit made sticky
/// when inexact, so that the conversion's one rounding is the root's.
pub fn sqrt_f32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000); // quieted
    }
    if x == 0.0 || x == f32::INFINITY {
        return x; // ±0, +inf
    }
    if x < 0.0 {
        return f32::from_bits(0xffc0_0000);
    }
    // x = m * 2^e, m an integer of 24 bits (subnormals normalised)
    let bits = x.to_bits();
    let biased = (bits >> 23) as i32;
    let fraction = bits & 0x007f_ffff;
    let (mut m, mut e) = if biased == 0 { (fraction, -149) } else { (fraction | 1 << 23, biased - 150) };
    let lead = m.leading_zeros() as i32 - 8;
    m <<= lead;
    e -= lead;
    // sqrt(m * 2^k), k = 27 or 28 making e - k even, has 26 bits
    let k = if (e - 27) & 1 == 0 { 27 } else { 28 };
    let wide = u64::from(m) << k;
    let mut root = wide.isqrt();
    if root * root != wide {
        root |= 1;
    }
    // the scale lies in 2^-100 ..= 2^38: a normal binary32, the product exact
    let scale = (e - k) / 2;
    (root as f32) * f32::from_bits(((scale + 127) as u32) << 23)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary32 root is binary64's rounded (exact: binary64 has more
    /// than twice the precision plus two bits), over every 61st float of
    /// each sign, the specials and NaNs.
    #[test]
    fn the_binary32_root_is_the_binary64_root_rounded() {
        let step = if cfg!(miri) { 9_999_991 } else { 61 };
        for bits in (0..=u32::MAX).step_by(step).chain([0, 1, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff, 0x7f80_0000, 0x8000_0000, 0xff80_0000]) {
            let x = f32::from_bits(bits);
            let want = if x.is_nan() {
                bits | 0x0040_0000
            } else if x < 0.0 {
                0xffc0_0000
            } else {
                (sqrt_f64(f64::from(x)) as f32).to_bits()
            };
            assert_eq!(sqrt_f32(x).to_bits(), want, "{bits:08x}");
        }
    }
}
