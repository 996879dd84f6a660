//! The two square roots the arithmetic needs, without `std`, correctly
//! rounded as IEEE 754 requires, in exact integer arithmetic, with x86's
//! results, NaNs included (the square root of a negative number is x86's
//! default NaN, negative). The units' crate computes the same roots with
//! the hardware's instructions where it has them and compares the two.

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

/// The correctly rounded binary32 square root: binary64's root rounded
/// to binary32 (exact, binary64 having more than twice the precision
/// plus two bits).
pub fn sqrt_f32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x < 0.0 {
        return f32::from_bits(0xffc0_0000);
    }
    sqrt_f64(f64::from(x)) as f32
}
