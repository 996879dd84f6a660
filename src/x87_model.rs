//! The x87 precision control and an exact emulation of the few x87 extended-precision (64-bit significand,
//! round-to-nearest-even) operations the move-speed computation performs.
//!
//! Only non-negative finite values occur (sums of squares and their roots),
//! so a value is a 64-bit significand and a binary exponent. The exponent
//! range of the squares of binary32 values (2^-298 .. 2^259) lies far inside
//! both the extended and the binary64 normal ranges, so no overflow,
//! underflow or denormal handling is needed past the conversion from f32.

/// The precision control of the x87 control word (bits 8 and 9): the
/// significand width every `FADD`, `FMUL` and `FSQRT` rounds its result
/// to. The exponent range stays the extended one whatever the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `PC=00`: 24 bits.
    Single,
    /// `PC=10`: 53 bits (the Windows client's `WinMain` sets it).
    Double,
    /// `PC=11`: 64 bits (the power-on and Linux default).
    Extended,
}

impl Precision {
    /// The field of an x87 control word. The reserved value `01` is
    /// taken as 64 bits (a defined result; docs/DIVERGENCES.md).
    pub fn from_control_word(word: u16) -> Precision {
        match (word >> 8) & 3 {
            0 => Precision::Single,
            2 => Precision::Double,
            _ => Precision::Extended,
        }
    }

    /// The significand bits kept.
    pub fn bits(self) -> u32 {
        match self {
            Precision::Single => 24,
            Precision::Double => 53,
            Precision::Extended => 64,
        }
    }
}

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

    /// x87 `FADD` of two non-negative values at 64-bit precision.
    #[cfg(test)]
    pub fn add(self, other: Ext) -> Ext {
        self.add_at(other, Precision::Extended)
    }

    /// x87 `FADD` of two non-negative values under the precision
    /// control `pc`: the exact sum rounded once to nearest even at
    /// `pc.bits()` significand bits (the exponent keeps the extended
    /// range whatever the precision).
    pub fn add_at(self, other: Ext, pc: Precision) -> Ext {
        if self.mant == 0 {
            return other.round_at(pc);
        }
        if other.mant == 0 {
            return self.round_at(pc);
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
        let bits = pc.bits();
        let drop = top + 1 - bits;
        let kept = (sum >> drop) as u64;
        let rest = sum & ((1u128 << drop) - 1);
        let half = 1u128 << (drop - 1);
        let up = rest > half || (rest == half && (sticky || kept & 1 == 1));
        Ext::from_rounded(u128::from(kept) + u128::from(up), bits, hi.exp - 63 + drop as i32)
    }

    /// `kept * 2^exp`, `kept` having at most `bits + 1` bits (a rounded
    /// significand, perhaps carried over), normalised.
    fn from_rounded(kept: u128, bits: u32, exp: i32) -> Ext {
        if kept >> bits != 0 {
            // the rounding carried out: kept = 2^bits
            return Ext { mant: 1 << 63, exp: exp + bits as i32 - 63 };
        }
        let shift = 64 - bits;
        Ext { mant: (kept as u64) << shift, exp: exp - shift as i32 }
    }

    /// The value rounded to nearest even at the precision `pc` (what an
    /// x87 operation whose exact result is `self` leaves).
    pub fn round_at(self, pc: Precision) -> Ext {
        let bits = pc.bits();
        if self.mant == 0 || bits == 64 {
            return self;
        }
        let drop = 64 - bits;
        let kept = self.mant >> drop;
        let rest = self.mant & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        let up = rest > half || (rest == half && kept & 1 == 1);
        Ext::from_rounded(u128::from(kept) + u128::from(up), bits, self.exp + drop as i32)
    }

    /// `(long double)v * (long double)v` under the precision control
    /// `pc` (`FMUL`): exact at 53 and 64 bits (48 significant bits),
    /// rounded at 24.
    pub fn square_at(v: f32, pc: Precision) -> Ext {
        Ext::square(v).round_at(pc)
    }

    /// x87 `FSQRT` at 64-bit precision (correctly rounded, nearest even).
    #[cfg(test)]
    pub fn sqrt(self) -> Ext {
        self.sqrt_at(Precision::Extended)
    }

    /// x87 `FSQRT` under the precision control `pc`: the exact root
    /// rounded once to nearest even at `pc.bits()` bits.
    pub fn sqrt_at(self, pc: Precision) -> Ext {
        if self.mant == 0 {
            return Ext::ZERO;
        }
        // Scale the significand so that the remaining exponent is even and
        // the integer root has exactly 64 bits.
        let shift: u32 = if self.exp & 1 != 0 { 63 } else { 64 };
        let n = u128::from(self.mant) << shift; // 2^126 <= n < 2^128
        let root = n.isqrt(); // 2^63 <= root < 2^64
        let rest = n - root * root; // the exact root is root + f, f in [0, 1), f > 0 iff rest > 0
        let exp = (self.exp - shift as i32) / 2;
        let bits = pc.bits();
        if bits == 64 {
            // (root + 1/2)^2 = root^2 + root + 1/4 is never an integer: no ties.
            let up = rest > root;
            return Ext::from_rounded(root + u128::from(up), 64, exp);
        }
        let drop = 64 - bits;
        let root = root as u64;
        let kept = root >> drop;
        let low = root & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        let up = low > half || (low == half && (rest > 0 || kept & 1 == 1));
        Ext::from_rounded(u128::from(kept) + u128::from(up), bits, exp + drop as i32)
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
