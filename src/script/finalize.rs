//! The rebuild of the static entries from the animation tree and the
//! second parse pass (`BG_FinalizePlayerAnims`), plus `BG_SetupAnimNoteTypes`.
//!
//! The only floating point of the module lives here: the length of an
//! animation's relative move delta, which becomes its move speed. The two
//! builds of the original compute it differently (x87 extended arithmetic,
//! different libm / conversion helpers); see [`move_distance`].

use crate::flavour::Behaviour;

/// Move speed floor of the original: durations below this many ms are raised.
pub const MIN_ANIM_LENGTH_MS: i32 = 500;
/// Scale of the move speed (units per second from a length in ms).
pub const MOVE_SPEED_SCALE: i32 = 1000;

/// Exact emulation of the few x87 extended-precision (64-bit significand,
/// round-to-nearest-even) operations the move-speed computation performs.
///
/// Only non-negative finite values occur (sums of squares and their roots),
/// so a value is a 64-bit significand and a binary exponent. The exponent
/// range of the squares of binary32 values (2^-298 .. 2^259) lies far inside
/// both the extended and the binary64 normal ranges, so no overflow,
/// underflow or denormal handling is needed past the conversion from f32.
pub(crate) mod x87 {
    /// `mant * 2^exp`; `mant` has bit 63 set, or is 0 for the value zero.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Ext {
        pub mant: u64,
        pub exp: i32,
    }

    impl Ext {
        pub const ZERO: Ext = Ext { mant: 0, exp: 0 };

        /// `(long double)v * (long double)v` for a finite binary32 `v`: the
        /// product of two 24-bit significands has at most 48 bits, so it is
        /// exact in extended precision.
        pub fn square(v: f32) -> Ext {
            let bits = v.to_bits() & 0x7fff_ffff;
            let biased = (bits >> 23) as i32;
            let fraction = u64::from(bits & 0x7f_ffff);
            let (m, e) = if biased == 0 { (fraction, -149) } else { (fraction | 0x80_0000, biased - 150) };
            if m == 0 {
                return Ext::ZERO;
            }
            let sq = m * m;
            let shift = sq.leading_zeros();
            Ext { mant: sq << shift, exp: 2 * e - shift as i32 }
        }

        /// x87 `FADD` of two non-negative values, rounded to nearest even.
        pub fn add(self, other: Ext) -> Ext {
            if self.mant == 0 {
                return other;
            }
            if other.mant == 0 {
                return self;
            }
            let (hi, lo) = if self.exp >= other.exp { (self, other) } else { (other, self) };
            // Work in units of 2^(hi.exp - 63): hi's significand sits at bits 63..126.
            let distance = (hi.exp - lo.exp) as u32;
            let big = u128::from(hi.mant) << 63;
            let lo_wide = u128::from(lo.mant) << 63;
            let (small, sticky) = if distance >= 127 {
                (0u128, true)
            } else {
                let s = lo_wide >> distance;
                (s, (s << distance) != lo_wide)
            };
            let sum = big + small; // < 2^128: both terms are < 2^127
            let top = 127 - sum.leading_zeros(); // 126 or 127
            let drop = top - 63;
            let kept = (sum >> drop) as u64;
            let rest = sum & ((1u128 << drop) - 1);
            let half = 1u128 << (drop - 1);
            let up = rest > half || (rest == half && (sticky || kept & 1 == 1));
            let mut exp = hi.exp - 63 + drop as i32;
            let (mut mant, carry) = kept.overflowing_add(u64::from(up));
            if carry {
                mant = 1 << 63;
                exp += 1;
            }
            Ext { mant, exp }
        }

        /// x87 `FSQRT` at 64-bit precision (correctly rounded, nearest even).
        pub fn sqrt(self) -> Ext {
            if self.mant == 0 {
                return Ext::ZERO;
            }
            // Scale the significand so that the remaining exponent is even and
            // the integer root has exactly 64 bits.
            let shift: u32 = if self.exp & 1 != 0 { 63 } else { 64 };
            let n = u128::from(self.mant) << shift; // 2^126 <= n < 2^128
            let root = n.isqrt(); // 2^63 <= root < 2^64
            let rest = n - root * root;
            // (root + 1/2)^2 = root^2 + root + 1/4 is never an integer: no ties.
            let up = rest > root;
            let mut exp = (self.exp - shift as i32) / 2;
            let (mut mant, carry) = (root as u64).overflowing_add(u64::from(up));
            if carry {
                mant = 1 << 63;
                exp += 1;
            }
            Ext { mant, exp }
        }

        /// Store to binary64 (`FST m64`), rounded to nearest even.
        pub fn to_f64(self) -> f64 {
            if self.mant == 0 {
                return 0.0;
            }
            let kept = self.mant >> 11;
            let rest = self.mant & 0x7ff;
            let up = rest > 0x400 || (rest == 0x400 && kept & 1 == 1);
            let m = kept + u64::from(up); // <= 2^53: exact as f64
            scale_by_pow2(m as f64, self.exp + 11)
        }

        /// Truncation toward zero to an unsigned 64-bit integer when the value
        /// is below 2^63, else `None` (the 64-bit integer-indefinite case).
        pub fn trunc_below_2p63(self) -> Option<u64> {
            if self.mant == 0 {
                return Some(0);
            }
            if self.exp >= 0 {
                return None; // >= 2^63
            }
            let shift = (-self.exp) as u32;
            Some(if shift >= 64 { 0 } else { self.mant >> shift })
        }
    }

    /// `value * 2^k`, exact for the magnitudes that occur here.
    fn scale_by_pow2(mut value: f64, mut k: i32) -> f64 {
        while k > 1000 {
            value *= f64::from_bits(((1023 + 1000) as u64) << 52);
            k -= 1000;
        }
        while k < -1000 {
            value *= f64::from_bits(((1023 - 1000) as u64) << 52);
            k += 1000;
        }
        value * f64::from_bits(((1023 + k) as u64) << 52)
    }
}

/// Length of an animation's relative move delta as the original's integer
/// `dist`, computed the way the given build of the original does.
///
/// * Linux (game): `((x² + y²) + z²)` in x87 extended precision, stored to
///   binary64, glibc's correctly rounded `sqrt`, stored to binary32, then
///   truncated to int32 by an x87 store: out of range, infinite or NaN gives
///   the integer indefinite `0x80000000`.
/// * Windows (cgame): `((z² + y²) + x²)` in extended precision, `FSQRT` in
///   extended precision, then MSVC `_ftol2`: the low 32 bits of the 64-bit
///   truncation below 2^63, otherwise 0 (the low word of the 64-bit
///   indefinite), also for infinities and NaN.
pub fn move_distance(behaviour: Behaviour, delta: [f32; 3]) -> i32 {
    use x87::Ext;
    let [x, y, z] = delta;
    let special = delta.iter().any(|v| !v.is_finite());
    match behaviour {
        Behaviour::Linux => {
            if special {
                // Inf² and NaN propagate: sqrt gives Inf or NaN, both convert
                // to the integer indefinite.
                return i32::MIN;
            }
            let sum = Ext::square(x).add(Ext::square(y)).add(Ext::square(z));
            let distance = sum.to_f64().sqrt() as f32;
            truncate_x87_i32(distance)
        }
        Behaviour::Windows => {
            if special {
                return 0;
            }
            let sum = Ext::square(z).add(Ext::square(y)).add(Ext::square(x));
            match sum.sqrt().trunc_below_2p63() {
                Some(value) => value as u32 as i32,
                None => 0,
            }
        }
    }
}

/// x87 `FISTP m32` under truncation: int32 when the truncated value fits,
/// else the integer indefinite `0x80000000` (also for NaN and infinities).
pub fn truncate_x87_i32(value: f32) -> i32 {
    let t = f64::from(value).trunc();
    if (-2147483648.0..=2147483647.0).contains(&t) {
        t as i32
    } else {
        i32::MIN
    }
}

/// The original's move speed from the integer distance and the length (ms):
/// `(dist * 1000)` with int32 wrap-around, divided (C division, truncating)
/// by the length. Quirk: the division uses the raw length, before the 500 ms
/// duration floor is applied. A zero distance or zero length gives 0.
///
/// Negative lengths are excluded inputs of the original (`INT_MIN / -1`);
/// here the division wraps (`INT_MIN / -1 = INT_MIN`).
pub fn move_speed(distance: i32, length: i32) -> i32 {
    if distance == 0 || length == 0 {
        return 0;
    }
    distance.wrapping_mul(MOVE_SPEED_SCALE).wrapping_div(length)
}

#[cfg(test)]
mod tests {
    use super::x87::Ext;
    use super::*;

    fn linux(d: [f32; 3]) -> i32 {
        move_distance(Behaviour::Linux, d)
    }
    fn windows(d: [f32; 3]) -> i32 {
        move_distance(Behaviour::Windows, d)
    }

    #[test]
    fn ext_square_is_exact() {
        let s = Ext::square(3.0);
        assert_eq!(s.to_f64(), 9.0);
        let s = Ext::square(f32::from_bits(1)); // smallest denormal
        assert_eq!(s.mant, 1 << 63);
        assert_eq!(s.exp, -298 - 63);
        assert_eq!(Ext::square(0.0), Ext::ZERO);
        assert_eq!(Ext::square(-2.5).to_f64(), 6.25);
    }

    #[test]
    fn ext_add_rounds_to_nearest_even() {
        let one = Ext { mant: 1 << 63, exp: -63 };
        // 1 + 2^-64: exactly half an ulp (ulp of 1 is 2^-63) -> ties to even (1)
        let half_ulp = Ext { mant: 1 << 63, exp: -127 };
        assert_eq!(one.add(half_ulp), one);
        // 1 + 2^-64 + tiny -> rounds up
        let above = Ext { mant: (1 << 63) | 1, exp: -127 };
        assert_eq!(one.add(above), Ext { mant: (1 << 63) | 1, exp: -63 });
        // odd significand + half ulp -> up to even
        let odd = Ext { mant: (1 << 63) | 1, exp: -63 };
        assert_eq!(odd.add(half_ulp), Ext { mant: (1 << 63) | 2, exp: -63 });
        // far apart: sticky only
        let tiny = Ext { mant: 1 << 63, exp: -1000 };
        assert_eq!(one.add(tiny), one);
        // carry out of the significand
        let max = Ext { mant: u64::MAX, exp: -63 };
        assert_eq!(max.add(half_ulp), Ext { mant: 1 << 63, exp: -62 });
    }

    #[test]
    fn ext_sqrt_and_store() {
        let four = Ext::square(2.0);
        assert_eq!(four.sqrt().to_f64(), 2.0);
        let two = Ext { mant: 1 << 63, exp: -62 };
        let r = two.sqrt();
        // sqrt(2) to 64 bits: 0xb504f333f9de6484 (rounded to nearest)
        assert_eq!(r.mant, 0xb504_f333_f9de_6484);
        assert_eq!(r.exp, -63);
        assert_eq!(two.sqrt().to_f64(), 2f64.sqrt());
    }

    #[test]
    fn protocol_near_integer_example() {
        // PROTOCOL "cgame flavour" §1: just below an integer, truncation gives
        // N - 1 with the extended root, N with the float-rounded root.
        let d = [677.999939f32, 0.252430558, 0.126215279];
        assert_eq!(linux(d), 678);
        assert_eq!(windows(d), 677);
        assert_eq!(move_speed(linux(d), 1000), 678);
        assert_eq!(move_speed(windows(d), 1000), 677);
        // The summation order never matters for the integer result here.
        assert_eq!(windows([d[2], d[1], d[0]]), 677);
        assert_eq!(windows([-d[0], -d[1], -d[2]]), 677);
    }

    #[test]
    fn protocol_big_distances() {
        // 3e9: game -> float 3e9 is out of int32 range -> 0x80000000, x1000 wraps to 0.
        let d = [3e9f32, 0.0, 0.0];
        assert_eq!(linux(d), i32::MIN);
        assert_eq!(move_speed(linux(d), 1000), 0);
        // cgame: low word of the 64-bit truncation.
        assert_eq!(windows(d), -1294967296);
        assert_eq!(move_speed(windows(d), 1000), 2112827);
        // 4294967808 -> low word 512
        assert_eq!(windows([4294967808.0, 0.0, 0.0]), 512);
        assert_eq!(move_speed(windows([4294967808.0, 0.0, 0.0]), 1000), 512);
        // 2^32 exactly, >= 2^63, Inf, NaN -> 0
        assert_eq!(windows([4294967296.0, 0.0, 0.0]), 0);
        assert_eq!(windows([9.3e18, 0.0, 0.0]), 0);
        assert_eq!(windows([f32::INFINITY, 0.0, 0.0]), 0);
        assert_eq!(windows([f32::NAN, 1.0, 0.0]), 0);
        assert_eq!(linux([f32::INFINITY, 0.0, 0.0]), i32::MIN);
        assert_eq!(linux([0.0, f32::NAN, 0.0]), i32::MIN);
        assert_eq!(linux([3e38, 3e38, 3e38]), i32::MIN);
        // between 2^24 and 2^31 the game's float rounding shows
        let d = [1.5e9f32, 1.5e9, 0.0];
        assert_eq!(windows(d), 2121320343);
        assert_eq!(linux(d), 2121320320);
        assert_eq!(move_speed(windows(d), 1005), -391543);
        assert_eq!(move_speed(linux(d), 1005), -391566);
    }

    #[test]
    fn protocol_move_speed_examples() {
        // Quirk: distance 3,000,000 wraps when multiplied by 1000 and is divided
        // by the raw length.
        assert_eq!(linux([3_000_000.0, 0.0, 0.0]), 3_000_000);
        assert_eq!(move_speed(3_000_000, 1000), -1294967);
        // Quirk: the division happens before the 500 ms floor.
        assert_eq!(move_speed(linux([5.0, 0.0, 0.0]), 1), 5000);
        assert_eq!(move_speed(0, 1000), 0);
        assert_eq!(move_speed(i32::MIN, 1000), 0); // x1000 wraps to 0
        assert_eq!(move_speed(7, 0), 0);
        // excluded input, defined here
        assert_eq!(move_speed(-2147483, -1), 2147483000);
    }

    #[test]
    fn small_and_exact_values() {
        assert_eq!(linux([3.0, 4.0, 0.0]), 5);
        assert_eq!(windows([3.0, 4.0, 0.0]), 5);
        assert_eq!(linux([0.0, 0.0, 0.0]), 0);
        assert_eq!(windows([0.0, -0.0, 0.0]), 0);
        assert_eq!(linux([0.75, 0.25, -1.0]), 1);
        assert_eq!(windows([1e-30, 0.0, 0.0]), 0);
        assert_eq!(truncate_x87_i32(2147483520.0), 2147483520);
        assert_eq!(truncate_x87_i32(2147483648.0), i32::MIN);
        assert_eq!(truncate_x87_i32(-2147483648.0), i32::MIN);
        assert_eq!(truncate_x87_i32(-1.5), -1);
    }

    /// Cross-check against an independent computation for values where the
    /// extended sum is exact and fits in a double: then the result is simply
    /// the correctly rounded root.
    #[test]
    fn agrees_with_f64_when_exact() {
        let mut state = 12345u32;
        for _ in 0..20000 {
            state = state.wrapping_mul(1103515245).wrapping_add(12345);
            let a = ((state >> 8) & 0xfff) as f32 * 0.25;
            state = state.wrapping_mul(1103515245).wrapping_add(12345);
            let b = ((state >> 8) & 0xfff) as f32 * 0.5;
            state = state.wrapping_mul(1103515245).wrapping_add(12345);
            let c = ((state >> 8) & 0xff) as f32;
            let exact = f64::from(a) * f64::from(a) + f64::from(b) * f64::from(b) + f64::from(c) * f64::from(c);
            let expected = truncate_x87_i32(exact.sqrt() as f32);
            assert_eq!(linux([a, b, c]), expected);
            let w = exact.sqrt().trunc() as i32;
            // the extended root truncates to the same integer unless the
            // double root rounded up to an integer
            if exact.sqrt().fract() != 0.0 || (w as f64) * (w as f64) == exact {
                assert_eq!(windows([a, b, c]), w);
            }
        }
    }
}
