//! The x87 in software: the precision control and the double-extended
//! value [`F80`] with exactly the x87 operations the player-animation code
//! performs (loads of binary32, binary64 and int32, stores to binary32 and
//! binary64, `fadd`, `fsub`, `fmul`, `fdiv`, `fsqrt`, the comparison and
//! the truncating integer stores), bit for bit the hardware's on every
//! input: signed zeros, infinities, NaNs (propagated as the x87 does, the
//! real indefinite for invalid operations), denormals, and the rounding of
//! each arithmetic result to the precision control's significand width
//! with the extended exponent range. Round to nearest even is the only
//! rounding (the engine never changes it); the exceptions are masked.
//!
//! Plain integer arithmetic, the same on every target: what the original's
//! x87 code computes is what the units compute on aarch64 too. On x86 the
//! tests of `crate::x87` compare every operation with the hardware at the
//! three precisions.

/// The precision control of the x87 control word (bits 8 and 9): the
/// significand width every `FADD`, `FSUB`, `FMUL`, `FDIV` and `FSQRT`
/// rounds its result to. The exponent range stays the extended one whatever the field.
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

// ---- the extended value and its operations ---------------------------------------

/// An x87 double-extended value: sign, 15-bit biased exponent and 64-bit
/// significand with its explicit integer bit, as the FPU stores it
/// (`fstp tbyte`).
///
/// Every operation is the x87 instruction's, bit for bit, with the
/// exceptions masked (what the engine runs with) and round to nearest even
/// (the only rounding the engine uses). The arithmetic rounds its result to
/// the precision control it is handed; loads, stores, comparisons and the
/// integer conversion do not depend on it. Values are always in the
/// formats the FPU produces (no unnormal or pseudo-denormal encodings).
#[derive(Clone, Copy, Debug)]
pub struct F80 {
    sign_exponent: u16,
    significand: u64,
}

const EXPONENT_MAX: u16 = 0x7fff;
const BIAS: i32 = 16383;
const INTEGER_BIT: u64 = 1 << 63;
const QUIET_BIT: u64 = 1 << 62;

/// A finite nonzero value as `significand * 2^(exponent - BIAS - 63)`
/// with bit 63 of the significand set (the exponent of a denormal
/// normalised this way is below 1).
#[derive(Clone, Copy)]
struct Unpacked {
    negative: bool,
    exponent: i32,
    significand: u64,
}

/// `$f::<BITS>($args)` with `BITS` the precision control's significand
/// width, a constant in each arm.
macro_rules! fast {
    ($pc:expr, $f:ident :: $name:ident ($($arg:expr),*)) => {
        match $pc {
            Precision::Extended => $f::$name::<64>($($arg),*),
            Precision::Double => $f::$name::<53>($($arg),*),
            Precision::Single => $f::$name::<24>($($arg),*),
        }
    };
}

/// `value >> shift`, any bit shifted out kept in bit 0 (sticky).
#[inline]
fn shift_right_jam(value: u128, shift: u32) -> u128 {
    if shift == 0 {
        value
    } else if shift >= 128 {
        u128::from(value != 0)
    } else {
        (value >> shift) | u128::from(value & ((1u128 << shift) - 1) != 0)
    }
}

/// The top `bits` bits of `value` (`bits` at most 64), rounded to nearest
/// even by the rest: at most `2^bits` (when the rounding carries out).
///
/// The kept bits are all in the high half, so the work is on the two
/// 64-bit halves: the kept bits, the round bit below them and whether any
/// bit below that is set.
#[inline]
fn round_top_bits(value: u128, bits: u32) -> u128 {
    debug_assert!((1..=64).contains(&bits));
    let (high, low) = ((value >> 64) as u64, value as u64);
    let (kept, round, sticky) = if bits == 64 {
        (high, low >> 63 != 0, low << 1 != 0)
    } else {
        let dropped = 64 - bits; // of the high half
        let below_round = (1u64 << (dropped - 1)) - 1;
        (high >> dropped, (high >> (dropped - 1)) & 1 != 0, high & below_round != 0 || low != 0)
    };
    u128::from(kept) + u128::from(round && (sticky || kept & 1 == 1))
}

// The names are the x87 instructions' (plain functions: an operator would
// hide the precision control each rounding follows).
#[allow(clippy::should_implement_trait)]
impl F80 {
    /// The real indefinite: the quiet NaN an invalid operation gives.
    pub const INDEFINITE: F80 = F80 { sign_exponent: 0xffff, significand: 0xc000_0000_0000_0000 };

    /// The value of the 10 bytes' two fields, as `fstp tbyte` stores them
    /// (a value the FPU produces: no unnormal or pseudo-denormal encoding).
    pub const fn from_parts(sign_exponent: u16, significand: u64) -> F80 {
        F80 { sign_exponent, significand }
    }

    /// The sign and biased exponent field.
    pub fn sign_exponent(self) -> u16 {
        self.sign_exponent
    }

    /// The significand field (integer bit included).
    pub fn significand(self) -> u64 {
        self.significand
    }

    fn negative(self) -> bool {
        self.sign_exponent >> 15 != 0
    }

    fn exponent(self) -> u16 {
        self.sign_exponent & EXPONENT_MAX
    }

    fn is_nan(self) -> bool {
        self.exponent() == EXPONENT_MAX && self.significand << 1 != 0
    }

    fn is_infinite(self) -> bool {
        self.exponent() == EXPONENT_MAX && self.significand << 1 == 0
    }

    fn is_zero(self) -> bool {
        self.exponent() == 0 && self.significand == 0
    }

    /// Finite, nonzero and not denormal: the common operand, which needs
    /// none of the special cases (one range test of the exponent field).
    fn is_normal(self) -> bool {
        self.exponent().wrapping_sub(1) < EXPONENT_MAX - 1
    }

    fn zero(negative: bool) -> F80 {
        F80 { sign_exponent: u16::from(negative) << 15, significand: 0 }
    }

    fn infinity(negative: bool) -> F80 {
        F80 { sign_exponent: (u16::from(negative) << 15) | EXPONENT_MAX, significand: INTEGER_BIT }
    }

    /// The NaN quieted (its sign and payload kept).
    fn quiet(self) -> F80 {
        F80 { significand: self.significand | QUIET_BIT, ..self }
    }

    /// A finite nonzero value's parts.
    fn unpack(self) -> Unpacked {
        let negative = self.negative();
        let exponent = i32::from(self.exponent());
        if exponent == 0 {
            // a denormal: 0.significand * 2^(1 - BIAS)
            let shift = self.significand.leading_zeros();
            Unpacked { negative, exponent: 1 - shift as i32, significand: self.significand << shift }
        } else {
            Unpacked { negative, exponent, significand: self.significand }
        }
    }

    /// `magnitude * 2^scale` with the sign, exact (`magnitude` nonzero
    /// and the value within the extended range).
    fn exact(negative: bool, magnitude: u64, scale: i32) -> F80 {
        let shift = magnitude.leading_zeros();
        let exponent = scale + BIAS + 63 - shift as i32;
        F80 { sign_exponent: (u16::from(negative) << 15) | exponent as u16, significand: magnitude << shift }
    }

    /// `significand * 2^(exponent - BIAS - 127)` (bit 127 of the
    /// significand set) rounded to nearest even at `pc`'s significand
    /// width: infinity above the range; below it the value is denormalised
    /// first and rounded at the same bit of the significand field (fewer
    /// significant bits), as the x87 does.
    #[inline]
    fn round_pack(negative: bool, exponent: i32, significand: u128, pc: Precision) -> F80 {
        let bits = pc.bits();
        let sign = u16::from(negative) << 15;
        if exponent < 1 {
            let denormal = shift_right_jam(significand, (1 - exponent) as u32);
            let kept = round_top_bits(denormal, bits) as u64; // <= 2^(bits-1)
            let field = kept << (64 - bits);
            // rounded up to the smallest normal: exponent field 1
            return F80 { sign_exponent: sign | u16::from(field & INTEGER_BIT != 0), significand: field };
        }
        let mut kept = round_top_bits(significand, bits);
        let mut exponent = exponent;
        if kept >> bits != 0 {
            kept >>= 1;
            exponent += 1;
        }
        if exponent >= i32::from(EXPONENT_MAX) {
            return F80::infinity(negative);
        }
        F80 { sign_exponent: sign | exponent as u16, significand: (kept as u64) << (64 - bits) }
    }

    /// The NaN result of an operation with a NaN operand: a NaN operand
    /// quieted; of two, a quiet one before a signalling one, else the one
    /// with the larger significand (the positive one when they are equal).
    fn propagate_nan(a: F80, b: F80) -> F80 {
        if !b.is_nan() {
            return a.quiet();
        }
        if !a.is_nan() {
            return b.quiet();
        }
        let (a_quiet, b_quiet) = (a.significand & QUIET_BIT != 0, b.significand & QUIET_BIT != 0);
        if a_quiet != b_quiet {
            return if a_quiet { a } else { b };
        }
        let chosen = match a.significand.cmp(&b.significand) {
            core::cmp::Ordering::Greater => a,
            core::cmp::Ordering::Less => b,
            core::cmp::Ordering::Equal if a.negative() => b,
            core::cmp::Ordering::Equal => a,
        };
        chosen.quiet()
    }

    // ---- loads -----------------------------------------------------------------

    /// A binary floating-point value of `fraction_bits` and `exponent_bits`
    /// widened (exact; a signalling NaN comes back quiet).
    fn from_binary(bits: u64, fraction_bits: u32, exponent_bits: u32) -> F80 {
        let negative = bits >> (fraction_bits + exponent_bits) != 0;
        let exponent_all = (1u64 << exponent_bits) - 1;
        let exponent = (bits >> fraction_bits) & exponent_all;
        let fraction = bits & ((1u64 << fraction_bits) - 1);
        let bias = (exponent_all >> 1) as i32;
        if exponent == exponent_all {
            if fraction == 0 {
                return F80::infinity(negative);
            }
            let payload = fraction << (63 - fraction_bits);
            return F80 { sign_exponent: (u16::from(negative) << 15) | EXPONENT_MAX, significand: INTEGER_BIT | QUIET_BIT | payload };
        }
        if exponent == 0 {
            if fraction == 0 {
                return F80::zero(negative);
            }
            return F80::exact(negative, fraction, 1 - bias - fraction_bits as i32);
        }
        F80::exact(negative, fraction | (1 << fraction_bits), exponent as i32 - bias - fraction_bits as i32)
    }

    /// A binary32 memory operand as an arithmetic instruction reads it
    /// (`fsub dword ptr`): widened like a load, but a signalling NaN stays
    /// signalling, for the operation's NaN rule.
    pub fn operand_f32(v: f32) -> F80 {
        F80::from_f32(v).signalling_as(v.is_nan() && v.to_bits() & 0x0040_0000 == 0)
    }

    /// A binary64 memory operand (`fsub qword ptr`), as [`F80::operand_f32`].
    pub fn operand_f64(v: f64) -> F80 {
        F80::from_f64(v).signalling_as(v.is_nan() && v.to_bits() & 0x0008_0000_0000_0000 == 0)
    }

    /// The widened NaN with its quiet bit cleared again when `signalling`.
    fn signalling_as(self, signalling: bool) -> F80 {
        if signalling { F80 { significand: self.significand & !QUIET_BIT, ..self } } else { self }
    }

    /// `fld` of a binary32.
    #[inline(always)]
    pub fn from_f32(v: f32) -> F80 {
        let bits = v.to_bits();
        let exponent = (bits >> 23) & 0xff;
        if exponent.wrapping_sub(1) < 0xfe {
            // normal: the significand widened, the exponent rebiased
            let sign = ((bits >> 31) as u16) << 15;
            return F80 { sign_exponent: sign | (exponent as u16 + (BIAS as u16 - 127)), significand: INTEGER_BIT | u64::from(bits & 0x007f_ffff) << 40 };
        }
        F80::load_f32(v)
    }

    /// `fld` of a binary32, every case.
    #[cold]
    fn load_f32(v: f32) -> F80 {
        F80::from_binary(u64::from(v.to_bits()), 23, 8)
    }

    /// `fld` of a binary64.
    #[inline(always)]
    pub fn from_f64(v: f64) -> F80 {
        let bits = v.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as u16;
        if exponent.wrapping_sub(1) < 0x7fe {
            let sign = ((bits >> 63) as u16) << 15;
            return F80 { sign_exponent: sign | (exponent + (BIAS as u16 - 1023)), significand: INTEGER_BIT | (bits & 0x000f_ffff_ffff_ffff) << 11 };
        }
        F80::load_f64(v)
    }

    /// `fld` of a binary64, every case.
    #[cold]
    fn load_f64(v: f64) -> F80 {
        F80::from_binary(v.to_bits(), 52, 11)
    }

    /// `fild` of an int32 (exact).
    #[inline(always)]
    pub fn from_i32(v: i32) -> F80 {
        if v == 0 {
            return F80::zero(false);
        }
        F80::exact(v < 0, u64::from(v.unsigned_abs()), 0)
    }

    // ---- stores ----------------------------------------------------------------

    /// `fstp` to a binary format: rounded to nearest even, infinity on
    /// overflow, denormal (or zero) below the normal range; a NaN keeps its
    /// sign and the payload's top bits, quiet.
    fn to_binary(self, fraction_bits: u32, exponent_bits: u32) -> u64 {
        let sign = u64::from(self.negative()) << (fraction_bits + exponent_bits);
        let exponent_all = (1u64 << exponent_bits) - 1;
        let infinity = sign | (exponent_all << fraction_bits);
        if self.is_nan() {
            return infinity | ((self.significand | QUIET_BIT) << 1 >> (64 - fraction_bits));
        }
        if self.is_infinite() {
            return infinity;
        }
        if self.is_zero() {
            return sign;
        }
        let v = self.unpack();
        let precision = fraction_bits + 1;
        let exponent = i64::from(v.exponent - BIAS) + (exponent_all >> 1) as i64;
        let wide = u128::from(v.significand) << 64;
        if exponent < 1 {
            let shift = (1 - exponent).min(128) as u32;
            // at most 2^fraction_bits: the smallest normal when it rounds up
            return sign | round_top_bits(shift_right_jam(wide, shift), precision) as u64;
        }
        let mut kept = round_top_bits(wide, precision) as u64;
        let mut exponent = exponent as u64;
        if kept >> precision != 0 {
            kept >>= 1;
            exponent += 1;
        }
        if exponent >= exponent_all {
            return infinity;
        }
        sign | (exponent << fraction_bits) | (kept & ((1 << fraction_bits) - 1))
    }

    /// `fstp` to binary32.
    #[inline(always)]
    pub fn to_f32(self) -> f32 {
        if let Some(bits) = self.store_normal::<23, 8>() {
            return f32::from_bits(bits as u32);
        }
        self.store_f32()
    }

    /// `fstp` to binary32, every case.
    #[cold]
    fn store_f32(self) -> f32 {
        f32::from_bits(self.to_binary(23, 8) as u32)
    }

    /// `fstp` to binary64.
    #[inline(always)]
    pub fn to_f64(self) -> f64 {
        if let Some(bits) = self.store_normal::<52, 11>() {
            return f64::from_bits(bits);
        }
        self.store_f64()
    }

    /// `fstp` to binary64, every case.
    #[cold]
    fn store_f64(self) -> f64 {
        f64::from_bits(self.to_binary(52, 11))
    }

    /// The common case of a store: a normal value whose rounding is a normal
    /// value of the binary format of `FRACTION` and `EXPONENT` bits (`None`
    /// otherwise). The rounded significand's carry runs into the exponent
    /// field, up to the infinity's when the rounding overflows.
    #[inline(always)]
    fn store_normal<const FRACTION: u32, const EXPONENT: u32>(self) -> Option<u64> {
        let bias = (1i32 << (EXPONENT - 1)) - 1;
        let exponent = i32::from(self.exponent()) - BIAS + bias;
        if !(1..(1 << EXPONENT) - 1).contains(&exponent) || !self.is_normal() {
            return None;
        }
        let dropped = 63 - FRACTION;
        let kept = self.significand >> dropped; // with the integer bit
        let rest = self.significand & ((1 << dropped) - 1);
        let half = 1 << (dropped - 1);
        let up = rest > half || (rest == half && kept & 1 == 1);
        let sign = u64::from(self.negative()) << (FRACTION + EXPONENT);
        Some(sign | ((((exponent - 1) as u64) << FRACTION) + kept + u64::from(up)))
    }

    /// The value truncated toward zero, when it is below 2^64 in
    /// magnitude (NaN and infinities: `None`).
    fn truncated_magnitude(self) -> Option<(bool, u64)> {
        if self.is_nan() || self.is_infinite() {
            return None;
        }
        if self.is_zero() {
            return Some((false, 0));
        }
        let v = self.unpack();
        let unbiased = v.exponent - BIAS;
        if unbiased < 0 {
            Some((v.negative, 0))
        } else if unbiased > 63 {
            None
        } else {
            Some((v.negative, v.significand >> (63 - unbiased)))
        }
    }

    /// `fistp` of an int32 under round-toward-zero (the truncating `(int)`
    /// of C): out of range, infinities and NaN give the integer
    /// indefinite, `INT32_MIN`.
    pub fn to_i32_trunc(self) -> i32 {
        match self.truncated_magnitude() {
            Some((false, m)) if m <= i32::MAX as u64 => m as i32,
            Some((true, m)) if m <= 1 << 31 => (m as i64).wrapping_neg() as i32,
            _ => i32::MIN,
        }
    }

    /// `fistp` of an int64 under round-toward-zero: out of range,
    /// infinities and NaN give the integer indefinite, `INT64_MIN`.
    pub fn to_i64_trunc(self) -> i64 {
        match self.truncated_magnitude() {
            Some((false, m)) if m <= i64::MAX as u64 => m as i64,
            Some((true, m)) if m <= 1 << 63 => (m as i64).wrapping_neg(),
            _ => i64::MIN,
        }
    }

    // ---- arithmetic ---------------------------------------------------------------

    /// `fadd`: `self + b` rounded under `pc`.
    #[inline(always)]
    pub fn add(self, b: F80, pc: Precision) -> F80 {
        fast!(pc, F80::sum_normal(self, b, false)).unwrap_or_else(|| F80::sum(self, b, false, pc))
    }

    /// `fsub`: `self - b` rounded under `pc`.
    #[inline(always)]
    pub fn sub(self, b: F80, pc: Precision) -> F80 {
        fast!(pc, F80::sum_normal(self, b, true)).unwrap_or_else(|| F80::sum(self, b, true, pc))
    }

    /// The common case of a sum: both operands normal and the rounded
    /// result normal (`None` otherwise: [`F80::sum`] then computes it).
    #[inline(always)]
    fn sum_normal<const BITS: u32>(a: F80, b: F80, subtract: bool) -> Option<F80> {
        if !(a.is_normal() && b.is_normal()) {
            return None;
        }
        let (ea, eb) = (i32::from(a.exponent()), i32::from(b.exponent()));
        let (a_negative, b_negative) = (a.negative(), b.negative() != subtract);
        let ((e_big, big, n_big), (e_small, small, n_small)) = if (ea, a.significand) >= (eb, b.significand) {
            ((ea, a.significand, a_negative), (eb, b.significand, b_negative))
        } else {
            ((eb, b.significand, b_negative), (ea, a.significand, a_negative))
        };
        // both at bits 63..126; the smaller shifted by the exponents'
        // difference, exact below 64 (its low 63 bits are zero)
        let distance = (e_big - e_small) as u32;
        let wide_big = u128::from(big) << 63;
        let wide_small = if distance < 64 {
            u128::from(small) << (63 - distance)
        } else {
            shift_right_jam(u128::from(small) << 63, distance)
        };
        let total = if n_big == n_small { wide_big + wide_small } else { wide_big - wide_small };
        if total == 0 {
            return Some(F80::zero(false)); // x - x = +0 (round to nearest)
        }
        let shift = total.leading_zeros();
        F80::round_normal::<BITS>(n_big, e_big + 1 - shift as i32, total << shift)
    }

    /// `significand` (bit 127 set) with `exponent`, rounded to nearest even
    /// at `BITS` bits, when the result is a normal value (`None` otherwise).
    #[inline(always)]
    fn round_normal<const BITS: u32>(negative: bool, exponent: i32, significand: u128) -> Option<F80> {
        let (high, low) = ((significand >> 64) as u64, significand as u64);
        let (kept, round, sticky) = if BITS == 64 {
            (high, low >> 63 != 0, low << 1 != 0)
        } else {
            let dropped = 64 - BITS;
            (high >> dropped, (high >> (dropped - 1)) & 1 != 0, high & ((1 << (dropped - 1)) - 1) != 0 || low != 0)
        };
        let up = round && (sticky || kept & 1 == 1);
        let (mut kept, mut exponent) = (kept.wrapping_add(u64::from(up)), exponent);
        if BITS == 64 && kept == 0 && up {
            (kept, exponent) = (1 << 63, exponent + 1); // carried out of 64 bits
        } else if BITS < 64 && kept >> BITS != 0 {
            (kept, exponent) = (kept >> 1, exponent + 1);
        }
        if !(1..i32::from(EXPONENT_MAX)).contains(&exponent) {
            return None;
        }
        Some(F80 { sign_exponent: (u16::from(negative) << 15) | exponent as u16, significand: kept << (64 - BITS) })
    }

    /// `a + b`, or `a - b` when `subtract` (a NaN's sign is not changed),
    /// every case.
    #[cold]
    fn sum(a: F80, b: F80, subtract: bool, pc: Precision) -> F80 {
        let a_negative = a.negative();
        let b_negative = b.negative() != subtract;
        if !(a.is_normal() && b.is_normal()) {
            if let Some(special) = F80::sum_special(a, b, a_negative, b_negative, pc) {
                return special;
            }
        }
        let (mut big, mut small) = (a.unpack(), b.unpack());
        big.negative = a_negative;
        small.negative = b_negative;
        if (small.exponent, small.significand) > (big.exponent, big.significand) {
            core::mem::swap(&mut big, &mut small);
        }
        // both significands at bits 63..126 (a carry has room), the smaller
        // aligned to the larger's exponent with its lost bits kept sticky
        let wide_big = u128::from(big.significand) << 63;
        let wide_small = shift_right_jam(u128::from(small.significand) << 63, (big.exponent - small.exponent) as u32);
        let total = if big.negative == small.negative { wide_big + wide_small } else { wide_big - wide_small };
        if total == 0 {
            return F80::zero(false); // x - x = +0 (round to nearest)
        }
        let shift = total.leading_zeros();
        F80::round_pack(big.negative, big.exponent + 1 - shift as i32, total << shift, pc)
    }

    /// The sum when an operand is a NaN, an infinity or a zero (None: both
    /// are finite and nonzero); `b_negative` is the sign `b` is added with.
    fn sum_special(a: F80, b: F80, a_negative: bool, b_negative: bool, pc: Precision) -> Option<F80> {
        if a.is_nan() || b.is_nan() {
            return Some(F80::propagate_nan(a, b));
        }
        if a.is_infinite() || b.is_infinite() {
            if a.is_infinite() && b.is_infinite() && a_negative != b_negative {
                return Some(F80::INDEFINITE); // inf - inf
            }
            return Some(F80::infinity(if a.is_infinite() { a_negative } else { b_negative }));
        }
        match (a.is_zero(), b.is_zero()) {
            // -0 only when both are -0 (round to nearest)
            (true, true) => Some(F80::zero(a_negative && b_negative)),
            (true, false) => {
                let v = b.unpack();
                Some(F80::round_pack(b_negative, v.exponent, u128::from(v.significand) << 64, pc))
            }
            (false, true) => {
                let v = a.unpack();
                Some(F80::round_pack(a_negative, v.exponent, u128::from(v.significand) << 64, pc))
            }
            (false, false) => None,
        }
    }

    /// `fmul`: `self * b` rounded under `pc`.
    #[inline(always)]
    pub fn mul(self, b: F80, pc: Precision) -> F80 {
        fast!(pc, F80::mul_normal(self, b)).unwrap_or_else(|| F80::product(self, b, pc))
    }

    /// The common case of a product (as [`F80::sum_normal`]).
    #[inline(always)]
    fn mul_normal<const BITS: u32>(a: F80, b: F80) -> Option<F80> {
        if !(a.is_normal() && b.is_normal()) {
            return None;
        }
        let product = u128::from(a.significand) * u128::from(b.significand); // 2^126 <= product < 2^128
        let shift = product.leading_zeros();
        let exponent = i32::from(a.exponent()) + i32::from(b.exponent()) - BIAS + 1 - shift as i32;
        F80::round_normal::<BITS>(a.negative() != b.negative(), exponent, product << shift)
    }

    /// `self * b`, every case.
    #[cold]
    fn product(self, b: F80, pc: Precision) -> F80 {
        let negative = self.negative() != b.negative();
        if !(self.is_normal() && b.is_normal()) {
            if let Some(special) = F80::mul_special(self, b, negative) {
                return special;
            }
        }
        let (x, y) = (self.unpack(), b.unpack());
        let product = u128::from(x.significand) * u128::from(y.significand); // 2^126 <= product < 2^128
        let shift = product.leading_zeros();
        F80::round_pack(negative, x.exponent + y.exponent - BIAS + 1 - shift as i32, product << shift, pc)
    }

    /// The product when an operand is a NaN, an infinity or a zero (None:
    /// both are finite and nonzero).
    fn mul_special(a: F80, b: F80, negative: bool) -> Option<F80> {
        if a.is_nan() || b.is_nan() {
            return Some(F80::propagate_nan(a, b));
        }
        if a.is_infinite() || b.is_infinite() {
            if a.is_zero() || b.is_zero() {
                return Some(F80::INDEFINITE); // 0 * inf
            }
            return Some(F80::infinity(negative));
        }
        if a.is_zero() || b.is_zero() {
            return Some(F80::zero(negative));
        }
        None
    }

    /// `fdiv`: `self / b` rounded under `pc`.
    #[inline(always)]
    pub fn div(self, b: F80, pc: Precision) -> F80 {
        fast!(pc, F80::div_normal(self, b)).unwrap_or_else(|| F80::quotient(self, b, pc))
    }

    /// The 64-bit quotient of two significands and what the rest says of
    /// the bits below it, as the 64 bits below the quotient would (their
    /// top bit: at least half; the rest: anything more): enough to round.
    #[inline(always)]
    fn divide_significands(x: u64, y: u64) -> (u128, i32) {
        // the dividend scaled so that the quotient has exactly 64 bits
        let (numerator, scale) = if x >= y { (u128::from(x) << 63, 0) } else { (u128::from(x) << 64, -1) };
        let divisor = u128::from(y);
        let high = numerator / divisor; // 2^63 <= high < 2^64
        let rest = numerator - high * divisor; // below the divisor, below 2^64
        let twice = rest << 1;
        let low: u64 = match twice.cmp(&divisor) {
            _ if rest == 0 => 0,
            core::cmp::Ordering::Less => 1,
            core::cmp::Ordering::Equal => 1 << 63,
            core::cmp::Ordering::Greater => (1 << 63) | 1,
        };
        ((high << 64) | u128::from(low), scale)
    }

    /// The common case of a quotient (as [`F80::sum_normal`]).
    #[inline(always)]
    fn div_normal<const BITS: u32>(a: F80, b: F80) -> Option<F80> {
        if !(a.is_normal() && b.is_normal()) {
            return None;
        }
        let (significand, scale) = F80::divide_significands(a.significand, b.significand);
        let exponent = i32::from(a.exponent()) - i32::from(b.exponent()) + BIAS + scale;
        F80::round_normal::<BITS>(a.negative() != b.negative(), exponent, significand)
    }

    /// `self / b`, every case.
    #[cold]
    fn quotient(self, b: F80, pc: Precision) -> F80 {
        let negative = self.negative() != b.negative();
        if !(self.is_normal() && b.is_normal()) {
            if let Some(special) = F80::div_special(self, b, negative) {
                return special;
            }
        }
        let (x, y) = (self.unpack(), b.unpack());
        let (significand, scale) = F80::divide_significands(x.significand, y.significand);
        F80::round_pack(negative, x.exponent - y.exponent + BIAS + scale, significand, pc)
    }

    /// The quotient when an operand is a NaN, an infinity or a zero (None:
    /// both are finite and nonzero).
    fn div_special(a: F80, b: F80, negative: bool) -> Option<F80> {
        if a.is_nan() || b.is_nan() {
            return Some(F80::propagate_nan(a, b));
        }
        if a.is_infinite() {
            return Some(if b.is_infinite() { F80::INDEFINITE } else { F80::infinity(negative) });
        }
        if b.is_infinite() {
            return Some(F80::zero(negative));
        }
        if b.is_zero() {
            return Some(if a.is_zero() { F80::INDEFINITE } else { F80::infinity(negative) });
        }
        if a.is_zero() {
            return Some(F80::zero(negative));
        }
        None
    }

    /// `fsqrt`: the root rounded under `pc`; -0 gives -0, a negative
    /// value the real indefinite.
    pub fn sqrt(self, pc: Precision) -> F80 {
        if self.is_nan() {
            return self.quiet();
        }
        if self.is_zero() {
            return self;
        }
        if self.negative() {
            return F80::INDEFINITE;
        }
        if self.is_infinite() {
            return self;
        }
        let v = self.unpack();
        let unbiased = v.exponent - BIAS;
        // value = m * 2^unbiased, m in [1, 2): the root of m (or of 2m for an
        // odd exponent) scaled to a 64-bit integer root
        let scaled = u128::from(v.significand) << (63 + (unbiased & 1) as u32); // 2^126 <= scaled < 2^128
        let root = scaled.isqrt(); // 2^63 <= root < 2^64
        let rest = scaled - root * root;
        // the exact root is root + f, 0 <= f < 1; f >= 1/2 exactly when
        // rest > root (f = 1/2 is impossible), f > 0 when rest > 0
        let significand = (root << 64) | (u128::from(rest > root) << 63) | u128::from(rest != 0);
        F80::round_pack(false, (unbiased >> 1) + BIAS, significand, pc)
    }

    // ---- comparison ------------------------------------------------------------------

    /// `fucomi`: the order of `self` and `b`, `None` when unordered (a NaN);
    /// +0 and -0 are equal.
    pub fn compare(self, b: F80) -> Option<core::cmp::Ordering> {
        if self.is_nan() || b.is_nan() {
            return None;
        }
        // magnitudes of the canonical encodings order as the field pairs do
        let key = |v: F80| -> i128 {
            let magnitude = if v.is_zero() { 0 } else { (i128::from(v.exponent()) << 64) | i128::from(v.significand) };
            if v.negative() { -magnitude } else { magnitude }
        };
        Some(key(self).cmp(&key(b)))
    }

    /// `self < b` (false when unordered).
    pub fn lt(self, b: F80) -> bool {
        self.compare(b) == Some(core::cmp::Ordering::Less)
    }

    /// `self == b` (false when unordered).
    pub fn eq(self, b: F80) -> bool {
        self.compare(b) == Some(core::cmp::Ordering::Equal)
    }
}

#[cfg(test)]
mod tests {
    use super::{Precision, F80};
    use Precision::{Double, Extended, Single};

    fn bits(v: F80) -> (u16, u64) {
        (v.sign_exponent(), v.significand())
    }

    fn value(sign_exponent: u16, significand: u64) -> F80 {
        F80::from_parts(sign_exponent, significand)
    }

    const ONE: (u16, u64) = (0x3fff, 1 << 63);

    #[test]
    fn squares_of_binary32_values_are_exact() {
        let square = |v: f32| F80::from_f32(v).mul(F80::from_f32(v), Extended);
        assert_eq!(square(3.0).to_f64(), 9.0);
        assert_eq!(bits(square(f32::from_bits(1))), (0x3fff - 298, 1 << 63)); // the smallest denormal's
        assert_eq!(bits(square(0.0)), (0, 0));
        assert_eq!(bits(square(-0.0)), (0, 0));
        assert_eq!(square(-2.5).to_f64(), 6.25);
    }

    #[test]
    fn sums_round_to_nearest_even() {
        let one = value(ONE.0, ONE.1);
        // 1 + 2^-64: half an ulp, ties to even (1)
        let half_ulp = value(0x3fff - 64, 1 << 63);
        assert_eq!(bits(one.add(half_ulp, Extended)), ONE);
        // just above half an ulp: up
        let above = value(0x3fff - 64, (1 << 63) | 1);
        assert_eq!(bits(one.add(above, Extended)), (0x3fff, (1 << 63) | 1));
        // an odd significand and half an ulp: up to even
        assert_eq!(bits(value(0x3fff, (1 << 63) | 1).add(half_ulp, Extended)), (0x3fff, (1 << 63) | 2));
        // far apart: the sticky bit only
        assert_eq!(bits(one.add(value(0x3fff - 1000, 1 << 63), Extended)), ONE);
        assert_eq!(bits(one.sub(value(0x3fff - 1000, 1 << 63), Extended)), ONE);
        // below 1 the ulp is 2^-64: just above half of it, down
        assert_eq!(bits(one.sub(value(0x3fff - 65, (1 << 63) | 1), Extended)), (0x3ffe, u64::MAX));
        // a carry out of the significand
        assert_eq!(bits(value(0x3fff, u64::MAX).add(half_ulp, Extended)), (0x4000, 1 << 63));
        // 1 + 2^-24 at 24 bits: a tie, to even; at 53 exact
        let tie = F80::from_f32(1.0).add(F80::from_f32(f32::from_bits(0x3380_0000)), Single);
        assert_eq!(bits(tie), ONE);
        let exact = F80::from_f32(1.0).add(F80::from_f32(f32::from_bits(0x3380_0000)), Double);
        assert_eq!(bits(exact), (0x3fff, (1 << 63) | (1 << 39)));
        // x - x is +0, -0 + -0 is -0
        assert_eq!(bits(one.sub(one, Extended)), (0, 0));
        let minus_zero = F80::from_f32(-0.0);
        assert_eq!(bits(minus_zero.add(minus_zero, Extended)), (0x8000, 0));
        assert_eq!(bits(minus_zero.sub(minus_zero, Extended)), (0, 0));
    }

    #[test]
    fn roots_round_to_nearest() {
        assert_eq!(F80::from_f32(4.0).sqrt(Extended).to_f64(), 2.0);
        let root = F80::from_f32(2.0).sqrt(Extended);
        assert_eq!(bits(root), (0x3fff, 0xb504_f333_f9de_6484));
        assert_eq!(root.to_f64(), 2f64.sqrt());
        assert_eq!(bits(F80::from_f32(2.0).sqrt(Double)), bits(F80::from_f64(2f64.sqrt())));
        assert_eq!(bits(F80::from_f32(-0.0).sqrt(Extended)), (0x8000, 0));
        assert_eq!(bits(F80::from_f32(-1.0).sqrt(Extended)), bits(F80::INDEFINITE));
    }

    #[test]
    fn invalid_operations_give_the_indefinite() {
        let (zero, inf) = (F80::from_i32(0), F80::from_f32(f32::INFINITY));
        for v in [zero.div(zero, Extended), inf.sub(inf, Double), inf.mul(zero, Single), inf.div(inf, Extended)] {
            assert_eq!(bits(v), (0xffff, 0xc000_0000_0000_0000));
        }
        assert_eq!(F80::INDEFINITE.to_f32().to_bits(), 0xffc0_0000);
        assert_eq!(F80::INDEFINITE.to_f64().to_bits(), 0xfff8_0000_0000_0000);
        // a NaN operand is propagated, quiet, payload kept
        let nan = F80::from_f32(f32::from_bits(0x7f80_0001));
        assert_eq!(bits(nan), (0x7fff, 0xc000_0100_0000_0000));
        assert_eq!(bits(F80::from_i32(1).sub(nan, Extended)), (0x7fff, 0xc000_0100_0000_0000));
        assert_eq!(F80::from_i32(1).div(zero, Extended).to_f32(), f32::INFINITY);
    }

    #[test]
    fn stores_round_and_saturate() {
        // the largest value below binary32's overflow threshold and above it
        assert_eq!(value(0x3fff + 127, u64::MAX << 40).to_f32().to_bits(), 0x7f7f_ffff);
        assert_eq!(value(0x3fff + 127, (u64::MAX << 40) | (1 << 39)).to_f32(), f32::INFINITY);
        // the smallest denormal, half of it (a tie to even: 0) and a bit more
        assert_eq!(value(0x3fff - 149, 1 << 63).to_f32().to_bits(), 1);
        assert_eq!(value(0x3fff - 150, 1 << 63).to_f32().to_bits(), 0);
        assert_eq!(value(0x3fff - 150, (1 << 63) | 1).to_f32().to_bits(), 1);
        assert_eq!(value(0x8000 | (0x3fff - 1075), 1 << 63).to_f64().to_bits(), 1 << 63);
        // a denormal rounding up to the smallest normal
        assert_eq!(value(0x3fff - 127, u64::MAX).to_f32().to_bits(), 0x0080_0000);
    }

    #[test]
    fn truncation_and_its_indefinite() {
        let t = |v: f64| F80::from_f64(v).to_i32_trunc();
        assert_eq!([t(-0.9), t(2.9), t(-2147483648.9), t(2147483647.9)], [0, 2, i32::MIN, i32::MAX]);
        assert_eq!([t(2147483648.0), t(-2147483649.0), t(f64::NAN), t(f64::INFINITY)], [i32::MIN; 4]);
        assert_eq!(F80::from_f64(-9.2e18).to_i64_trunc(), -9_200_000_000_000_000_000);
        assert_eq!(F80::from_f64(-9.3e18).to_i64_trunc(), i64::MIN);
        assert_eq!(F80::from_f64(9.3e18).to_i64_trunc(), i64::MIN);
    }

    #[test]
    fn the_precision_control_keeps_the_extended_exponent_range() {
        // 2^-16000 * 2^-100 is far below binary64's range but normal here
        let tiny = value(0x3fff - 16000, 1 << 63).mul(value(0x3fff - 100, 0xc000_0000_0000_0000), Double);
        assert_eq!(bits(tiny), (0x3fff - 16100, 0xc000_0000_0000_0000));
        // 1/3 at 24 bits: binary32's significand, the extended exponent
        let third = F80::from_i32(1).div(F80::from_i32(3), Single);
        assert_eq!(bits(third), bits(F80::from_f32(1.0 / 3.0)));
        let big = value(0x3fff + 16000, 0xaaaa_aaaa_aaaa_aaab).mul(F80::from_i32(3), Single);
        assert_eq!(bits(big), (0x3fff + 16002, 1 << 63));
    }

    #[test]
    fn comparisons() {
        let (a, b) = (F80::from_f32(1.0), F80::from_f32(2.0));
        assert!(a.lt(b) && !b.lt(a) && !a.eq(b));
        assert!(F80::from_f32(0.0).eq(F80::from_f32(-0.0)));
        assert!(F80::from_f32(-2.0).lt(F80::from_f32(-1.0)));
        assert!(!F80::INDEFINITE.lt(a) && !a.lt(F80::INDEFINITE) && !F80::INDEFINITE.eq(F80::INDEFINITE));
    }
}
