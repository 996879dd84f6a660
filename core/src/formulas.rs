//! The player-animation module's float formulas that read nothing of the
//! engine: the arithmetic roles of a unit's float code ([`Floats`]), the
//! controller lerps (`BG_LerpAngles`, `BG_LerpOffset`), the distance the
//! slots' rate comes from ([`vector_distance`]) and an animation's move
//! speed ([`move_distance`], [`move_speed`]), each written once
//! over the arithmetic interface ([`crate::arith`]), each step the C's own,
//! with its rounding points where the C has them. Which platform behaviour
//! a unit has is [`Behaviour`]: the two behaviours are two bodies of C
//! code, and two bodies here.
//!
//! ```
//! use uoanim_core::arith::Native;
//! use uoanim_core::formulas::lerp_angles;
//! use uoanim_core::Behaviour;
//!
//! let mut current = [0.0f32, 10.0, 5.0];
//! lerp_angles(Behaviour::Linux, Native, &[90.0, 0.0, 5.5], 1.0, &mut current);
//! assert_eq!(current, [1.0, 9.0, 5.5]);
//! ```

use crate::arith::{Arith, CType::*, Decimal, Mem};
use crate::math::Roots;
use crate::Behaviour;
use core::cmp::Ordering;

/// The arithmetic of a unit's float code, by the part a step plays in the
/// C original it replaces (each an [`Arith`]):
///
/// * [`expr`](Floats::expr): the C's expressions;
/// * [`x87`](Floats::x87): its x87 code (the `long double` chains, and the
///   Linux bodies' inline assembly);
/// * [`asm`](Floats::asm): the inline x87 assembly of the Windows
///   `VectorDistance`, or where there is no x87 the C beside it (binary64);
/// * [`transcribed`](Floats::transcribed): the expressions upstream's x87
///   emulation writes as x87 operations (`x87f_*`: the controller lerps, the
///   loop phase, the rate of the slots); where there is no emulation, the
///   C's expressions.
///
/// A build without emulation is [`Roles`], an emulating one [`Emulating`].
pub trait Floats: Copy {
    /// The machine of the C's expressions.
    type Expr: Arith;
    /// The machine of its x87 code.
    type X87: Arith;
    /// The machine of its inline x87 assembly.
    type Asm: Arith;
    /// The machine of the expressions upstream's emulation transcribes.
    type Transcribed: Arith;
    /// The C's expressions.
    fn expr(self) -> Self::Expr;
    /// Its x87 code.
    fn x87(self) -> Self::X87;
    /// Its inline x87 assembly.
    fn asm(self) -> Self::Asm;
    /// The transcribed expressions.
    fn transcribed(self) -> Self::Transcribed;
}

/// The roles of a build without x87 emulation: its expressions, and its x87
/// code (the inline assembly among it). Where the C's expressions run on
/// the x87 too, the two are the same machine; the cgame's x86_64 build
/// computes its expressions in SSE and keeps the x87 for that code; a
/// native build (macOS arm64's cgame) computes both natively.
#[derive(Clone, Copy, Debug)]
pub struct Roles<E, X> {
    /// The C's expressions.
    pub expr: E,
    /// Its x87 code.
    pub x87: X,
}

impl<E: Arith, X: Arith> Floats for Roles<E, X> {
    type Expr = E;
    type X87 = X;
    type Asm = X;
    type Transcribed = E;
    #[inline(always)]
    fn expr(self) -> E {
        self.expr
    }
    #[inline(always)]
    fn x87(self) -> X {
        self.x87
    }
    #[inline(always)]
    fn asm(self) -> X {
        self.x87
    }
    #[inline(always)]
    fn transcribed(self) -> E {
        self.expr
    }
}

/// The roles of a build with upstream's x87 emulation (`EMULATE_X87`, the
/// macOS arm64 game module): the expressions it writes as x87 operations
/// and its `long double` code on the emulated x87 (`x87`), its plain C
/// expressions and the C beside the inline assembly native
/// ([`Native`](crate::arith::Native)).
#[derive(Clone, Copy, Debug)]
pub struct Emulating<X> {
    /// The emulated x87.
    pub x87: X,
}

impl<X: Arith> Floats for Emulating<X> {
    type Expr = crate::arith::Native;
    type X87 = X;
    type Asm = crate::arith::Native;
    type Transcribed = X;
    #[inline(always)]
    fn expr(self) -> crate::arith::Native {
        crate::arith::Native
    }
    #[inline(always)]
    fn x87(self) -> X {
        self.x87
    }
    #[inline(always)]
    fn asm(self) -> crate::arith::Native {
        crate::arith::Native
    }
    #[inline(always)]
    fn transcribed(self) -> X {
        self.x87
    }
}

/// `0.5f`, `1.5f`: literals exact in binary32.
pub const HALF: Decimal = Decimal::exact(0.5, 0x3ffe, 1 << 63);
/// `1.5f`.
pub const THREE_HALVES: Decimal = Decimal::exact(1.5, 0x3fff, 0xc000_0000_0000_0000);

/// `BG_LerpAngles(target, maxStep, current)`: each lane steps towards the
/// target by at most `maxStep`.
///
/// The comparisons are of two binary32 values (or a binary64 and a
/// binary32), exact on every machine.
pub fn lerp_angles<A: Arith>(behaviour: Behaviour, a: A, target: &[f32; 3], max_step: f32, current: &mut [f32; 3]) {
    for lane in 0..3 {
        let (t, c) = (target[lane], current[lane]);
        let (up, down) = match behaviour {
            Behaviour::Linux => {
                // float delta = target - current
                let delta = a.store_f32(a.sub(Float, a.load_f32(t), a.load_f32(c)));
                (delta > max_step, delta < -max_step)
            }
            Behaviour::Windows => {
                // double delta = (double)target - current
                let delta = a.assign(Double, a.sub(Double, a.load_f32(t), a.load_f32(c)));
                let order = |bound: f32| a.compare(delta, a.load_f32(bound));
                (order(max_step) == Some(Ordering::Greater), order(-max_step) == Some(Ordering::Less))
            }
        };
        let ty = match behaviour {
            Behaviour::Linux => Float,
            Behaviour::Windows => Double, // (float)((double)current ± maxStep)
        };
        current[lane] = if up {
            a.store_f32(a.add(ty, a.load_f32(c), a.load_f32(max_step)))
        } else if down {
            a.store_f32(a.sub(ty, a.load_f32(c), a.load_f32(max_step)))
        } else {
            a.copy_f32(t)
        };
    }
}

/// `Q_rsqrt` (the unit's own): one Newton step from the magic estimate,
/// `y * (1.5f - x2 * y * y)` with `x2 = number * 0.5f` stored.
#[inline(always)]
fn q_rsqrt<A: Arith>(a: A, number: f32) -> f32 {
    let estimate = rsqrt_estimate(number.to_bits());
    let half = a.assign(Float, a.mul(Float, a.load_f32(number), a.constant(HALF)));
    let y = a.load_f32(estimate);
    let step = a.sub(Float, a.constant(THREE_HALVES), a.mul(Float, a.mul(Float, half, y), y));
    a.store_f32(a.mul(Float, y, step))
}

/// The three lanes of a vector, each computed by `f` in lane order.
#[inline(always)]
fn lanes<T>(f: impl Fn(usize) -> T) -> [T; 3] {
    [f(0), f(1), f(2)]
}

/// `0x5f3759df - (bits >> 1)`, the inverse square root's estimate.
#[inline(always)]
fn rsqrt_estimate(bits: u32) -> f32 {
    f32::from_bits(0x5f37_59dfu32.wrapping_sub(((bits as i32) >> 1) as u32))
}

/// `BG_LerpOffset(target, scale, current)`: moves `current` towards
/// `target` by `scale` over the distance, or onto it.
///
/// Linux: the original hands `Q_rsqrt` the low word of the squared length
/// widened to a double and reads its float result's bits as an integer (a
/// call-site ABI defect, reproduced: the step is `int_bits * scale`).
/// Windows: the inverse square root is inlined over the double length.
pub fn lerp_offset<A: Arith>(behaviour: Behaviour, a: A, target: &[f32; 3], scale: f32, current: &mut [f32; 3]) {
    match behaviour {
        Behaviour::Linux => {
            // float delta[i] = target[i] - current[i]
            let delta = lanes(|i| a.store_f32(a.sub(Float, a.load_f32(target[i]), a.load_f32(current[i]))));
            let square = |v: f32| a.mul(Float, a.load_f32(v), a.load_f32(v));
            let length_squared = a.store_f32(a.add(Float, a.add(Float, square(delta[0]), square(delta[1])), square(delta[2])));
            if length_squared == 0.0 {
                return;
            }
            // the low word of (double)lengthSquared, as Q_rsqrt's argument
            let low_word = a.widen(length_squared).to_bits() as u32;
            let word = q_rsqrt(a, a.pass_f32(f32::from_bits(low_word))).to_bits() as i32;
            // (float)((double)returnWord * scale)
            let step = a.store_f32(a.mul(Double, a.load_i32(Double, word), a.load_f32(scale)));
            if step < 1.0 {
                for lane in 0..3 {
                    // current + delta * step
                    let product = a.mul_mem(Float, a.load_f32(delta[lane]), Mem::F32(step));
                    current[lane] = a.store_f32(a.add(Float, a.load_f32(current[lane]), product));
                }
            } else {
                for lane in 0..3 {
                    current[lane] = a.copy_f32(target[lane]);
                }
            }
        }
        Behaviour::Windows => {
            // float delta[0..1] = (float)((double)target - current);
            // double delta2Wide = (double)target[2] - current[2];
            let d0 = a.store_f32(a.sub(Double, a.load_f32(target[0]), a.load_f32(current[0])));
            let d1 = a.store_f32(a.sub(Double, a.load_f32(target[1]), a.load_f32(current[1])));
            let wide2 = a.store_f64(a.sub(Double, a.load_f32(target[2]), a.load_f32(current[2])));
            let d2 = a.store_f32(a.load_f64(wide2));
            // (delta2Wide * delta[2] + delta[1]²) + delta[0]²
            let square = |v: f32| a.mul(Double, a.load_f32(v), a.load_f32(v));
            let product = a.mul_mem(Double, a.load_f32(d2), Mem::F64(wide2));
            let length_squared = a.store_f64(a.add(Double, a.add(Double, product, square(d1)), square(d0)));
            if length_squared == 0.0 {
                return;
            }
            let estimate = rsqrt_estimate(a.store_f32(a.load_f64(length_squared)).to_bits());
            // ((double)1.5f - ((lengthSquared * 0.5f * estimate) * estimate)) * estimate
            let (ls, y) = (a.load_f64(length_squared), a.load_f32(estimate));
            let inner = a.mul(Double, a.mul(Double, a.mul(Double, ls, a.constant(HALF)), y), y);
            let factor = a.store_f64(a.mul(Double, a.sub(Double, a.constant(THREE_HALVES), inner), y));
            // factor *= scale
            let factor = a.store_f64(a.mul(Double, a.load_f64(factor), a.load_f32(scale)));
            if factor.partial_cmp(&1.0) != Some(Ordering::Less) {
                for lane in 0..3 {
                    current[lane] = a.copy_f32(target[lane]);
                }
                return;
            }
            for (lane, d) in [d0, d1, d2].into_iter().enumerate() {
                // (float)((double)current + (double)delta * factor)
                let product = a.mul_mem(Double, a.load_f32(d), Mem::F64(factor));
                current[lane] = a.store_f32(a.add(Double, a.load_f32(current[lane]), product));
            }
        }
    }
}


// ---- distances ---------------------------------------------------------------------

/// `VectorDistance(first, second)` (the unit's own).
///
/// Linux: one x87 block (the original's inline assembly): each difference
/// `second - first` with `first` read from memory by the subtraction,
/// stored to float; the squares summed x, y, z (each a register times its
/// stored float from memory), stored to a double, then `sqrt` of it
/// (glibc's, correctly rounded) rounded to float. Windows: the differences
/// `first - second` are C float expressions, then one x87 block sums the
/// squares z, y, x and takes `fsqrt`, stored to float (where there is no
/// x87, the C beside the block: the same in binary64).
#[inline(always)]
pub fn vector_distance<F: Floats, R: Roots>(behaviour: Behaviour, f: F, roots: R, first: &[f32; 3], second: &[f32; 3]) -> f32 {
    match behaviour {
        Behaviour::Linux => {
            let x = f.x87();
            let square = |v: f32| x.mul_mem(LongDouble, x.load_f32(v), Mem::F32(v));
            let d = lanes(|i| x.store_f32(x.sub_mem(LongDouble, x.load_f32(second[i]), Mem::F32(first[i]))));
            let sum = x.store_f64(x.add(LongDouble, x.add(LongDouble, square(d[0]), square(d[1])), square(d[2])));
            x.store_f32(x.load_f64(roots.sqrt_f64(sum)))
        }
        Behaviour::Windows => {
            let (e, x) = (f.expr(), f.asm());
            let square = |v: f32| x.mul_mem(LongDouble, x.load_f32(v), Mem::F32(v));
            let d = lanes(|i| e.store_f32(e.sub(Float, e.load_f32(first[i]), e.load_f32(second[i]))));
            x.store_f32(x.sqrt(LongDouble, x.add(LongDouble, x.add(LongDouble, square(d[2]), square(d[1])), square(d[0]))))
        }
    }
}

/// Move speed floor of the original: durations below this many ms are raised.
pub const MIN_ANIM_LENGTH_MS: i32 = 500;
/// Scale of the move speed (units per second from a length in ms).
pub const MOVE_SPEED_SCALE: i32 = 1000;


/// Length of an animation's relative move delta as the original's integer
/// `dist`, computed the way the given build of the original does, on its
/// x87 (`x87`: the `long double` code of the build).
///
/// * Linux (game): `((x² + y²) + z²)` in `long double`, stored to
///   binary64, glibc's correctly rounded `sqrt`, stored to binary32, then
///   truncated to int32 by an x87 store. Quirk: out of range, infinite or
///   NaN gives the integer indefinite `0x80000000`, whose ×1000 wraps to a
///   move speed of 0.
/// * Windows (cgame): `((z² + y²) + x²)` in `long double`, `sqrtl` (the
///   x87's `FSQRT`), then MSVC `_ftol2`'s low word ([`Arith::ftol2`]: 0 for
///   infinities, NaN and from 2^63 - 0.5 on). Upstream's x87 emulation (the
///   macOS arm64 game module) truncates to a dword instead
///   ([`Arith::ftol2_as_dword`]): from 2^31 on, and for NaN, `0x80000000`,
///   a move speed of 0 (docs/DIVERGENCES.md).
///
/// The sums and the Windows root follow the process's precision control
/// (the client executable sets 53 bits), as the original's x87 code does.
/// glibc's root is `roots`' (correctly rounded: the same bits from any).
pub fn move_distance<A: Arith, R: Roots>(x87: A, roots: R, behaviour: Behaviour, delta: [f32; 3]) -> i32 {
    let [x, y, z] = delta;
    // (long double)v * (long double)v
    let square = |v: f32| x87.mul(LongDouble, x87.load_f32(v), x87.load_f32(v));
    match behaviour {
        Behaviour::Linux => {
            let sum = x87.add(LongDouble, x87.add(LongDouble, square(x), square(y)), square(z));
            // (float)sqrt((double)sum), then (int32_t)(long double)distance
            let distance = x87.store_f32(x87.load_f64(roots.sqrt_f64(x87.store_f64(sum))));
            x87.trunc_i32(x87.load_f32(distance))
        }
        Behaviour::Windows => {
            let sum = x87.add(LongDouble, x87.add(LongDouble, square(z), square(y)), square(x));
            x87.ftol2_as_dword(x87.sqrt(LongDouble, sum))
        }
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
    use super::*;
    use crate::arith::{Native, Soft, X87};
    use crate::x87_model::{Precision, F80};

    /// The game unit's arithmetic at 64 bits, on the software x87.
    const GAME: X87<Soft> = X87 { machine: Soft { pc: Precision::Extended }, iso: false, stack_floats: false };

    fn bits(v: [u32; 3]) -> [f32; 3] {
        v.map(f32::from_bits)
    }

    #[test]
    fn linux_lerp_offset_reads_the_rsqrt_result_as_an_integer() {
        // bg-rest lerpo_001: the step is Q_rsqrt's float bits times the
        // scale, as the C original's game unit computes it.
        let target = bits([0x3dcc_cccd, 0x0080_0000, 0x7fc0_0000]);
        let mut current = bits([0x33d6_bf95, 0x3f80_0001, 0x0da2_4260]);
        lerp_offset(Behaviour::Linux, GAME, &target, f32::from_bits(0xbf80_0000), &mut current);
        assert_eq!(current.map(f32::to_bits), [0xcd18_dbfc, 0x4ebf_1309, 0x7fc0_0000]);
    }

    #[test]
    fn lerp_angles_steps_and_quiets_a_copied_signalling_nan() {
        // bg-rest lerpa_001 (game): lane 1 copies its signalling-NaN target.
        let target = bits([0x7f80_0000, 0x7f80_0001, 0x3dcc_cccd]);
        let mut current = bits([0x4b00_0000, 0x33d6_bf95, 0x2edb_e6ff]);
        lerp_angles(Behaviour::Linux, GAME, &target, f32::from_bits(0x60ad_78ec), &mut current);
        assert_eq!(current.map(f32::to_bits), [0x60ad_78ec, 0x7fc0_0001, 0x3dcc_cccd]);
        // binary32/binary64 (the cgame's x86_64 build): the copy is a move
        let mut current = [180.0, 90.0, 0.0];
        lerp_angles(Behaviour::Windows, Native, &[360.0, -1.0, -180.0], 0.1, &mut current);
        assert_eq!(current.map(f32::to_bits), [0x4334_199a, 0x42b3_cccd, 0xbdcc_cccd]);
        let mut current = [0.0; 3];
        lerp_angles(Behaviour::Windows, Native, &bits([0x7f80_0001; 3]), 1.0, &mut current);
        assert_eq!(current.map(f32::to_bits), [0x7f80_0001; 3]);
    }

    #[test]
    fn the_literals_are_exact() {
        for c in [HALF, THREE_HALVES] {
            let v = F80::from_f32(c.float);
            assert_eq!((c.extended.sign_exponent(), c.extended.significand()), (v.sign_exponent(), v.significand()));
        }
    }
}

/// The move distance on the software x87 at precision `pc`.
#[cfg(test)]
fn md(behaviour: Behaviour, pc: crate::x87_model::Precision, d: [f32; 3]) -> i32 {
    move_distance(crate::arith::X87 { machine: crate::arith::Soft { pc }, iso: false, stack_floats: false }, crate::math::IntegerRoots, behaviour, d)
}

#[cfg(test)]
mod move_tests {
    use std::prelude::rust_2021::*;
    use crate::x87_model::{Precision, F80};
    use super::*;


    /// x87 `FISTP m32` under truncation: int32 when the truncated value
    /// fits, else the integer indefinite `0x80000000`.
    fn truncate_x87_i32(value: f32) -> i32 {
        let v = f64::from(value);
        if v > -2147483649.0 && v < 2147483648.0 {
            v as i32
        } else {
            i32::MIN
        }
    }

    fn linux(d: [f32; 3]) -> i32 {
        md(Behaviour::Linux, Precision::Extended, d)
    }
    fn windows(d: [f32; 3]) -> i32 {
        md(Behaviour::Windows, Precision::Extended, d)
    }

    fn ext_of_f64(v: f64) -> F80 {
        F80::from_f64(v)
    }

    fn square(v: f32, pc: Precision) -> F80 {
        F80::from_f32(v).mul(F80::from_f32(v), pc)
    }

    #[test]
    fn precision_control_rounds_like_ieee_at_53_and_24_bits() {
        // at 53 bits an x87 sum or root of binary64 values is the binary64
        // one (one rounding, nearest even); at 24 bits of binary32 values
        // the binary32 one
        let mut bits: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            bits
        };
        for _ in 0..crate::rounds(50_000) {
            let a = f64::from_bits((next() & 0x000f_ffff_ffff_ffff) | (0x3ff0_0000_0000_0000 + ((next() % 40) << 52)));
            let b = f64::from_bits((next() & 0x000f_ffff_ffff_ffff) | (0x3ff0_0000_0000_0000 + ((next() % 60) << 52)));
            let sum = ext_of_f64(a).add(ext_of_f64(b), Precision::Double);
            assert_eq!(sum.to_f64(), a + b, "{a:e} + {b:e}");
            assert_eq!(ext_of_f64(a).sqrt(Precision::Double).to_f64(), crate::math::sqrt_f64(a), "sqrt {a:e}");
            let (x, y) = (a as f32, b as f32);
            let single = ext_of_f64(f64::from(x)).add(ext_of_f64(f64::from(y)), Precision::Single);
            assert_eq!(single.to_f64(), f64::from(x + y), "{x:e} + {y:e}");
            assert_eq!(ext_of_f64(f64::from(x)).sqrt(Precision::Single).to_f64(), f64::from(crate::math::sqrt_f32(x)));
            assert_eq!(square(x, Precision::Single).to_f64(), f64::from(x * x), "{x:e}^2");
            // a square of binary32 values is exact at 53 bits
            assert_eq!(square(x, Precision::Double).to_f64(), square(x, Precision::Extended).to_f64());
        }
    }

    #[test]
    fn precision_control_field() {
        assert_eq!(Precision::from_control_word(0x037f), Precision::Extended);
        assert_eq!(Precision::from_control_word(0x027f), Precision::Double);
        assert_eq!(Precision::from_control_word(0x007f), Precision::Single);
        assert_eq!(Precision::from_control_word(0x017f), Precision::Extended); // reserved
    }

    #[test]
    fn near_integer_distance_follows_the_precision() {
        // (999.5, 31.618818, 0.0181764): a distance just below 1000 whose
        // 53-bit sum rounds up to 10^6 (root 1000) where the 64-bit one
        // stays below it (root 999.99..., truncated to 999); the Linux path
        // stores the sum to binary64 either way
        let d = [999.5f32, f32::from_bits(0x41fc_f357), f32::from_bits(0x3c94_e6ac)];
        assert_eq!(md(Behaviour::Windows, Precision::Extended, d), 999);
        assert_eq!(md(Behaviour::Windows, Precision::Double, d), 1000);
        assert_eq!(md(Behaviour::Linux, Precision::Extended, d), md(Behaviour::Linux, Precision::Double, d));
        // 24 bits: every operation rounds to binary32 (the defined result)
        let single = md(Behaviour::Windows, Precision::Single, d);
        let (x, y, z) = (d[0], d[1], d[2]);
        let sum = z * z + y * y + x * x;
        assert_eq!(single, crate::math::sqrt_f32(sum) as i32);
    }

    #[test]
    #[allow(clippy::excessive_precision)]
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
        for _ in 0..crate::rounds(20000) {
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

/// Reference vectors computed by the C expressions of both builds (gcc,
/// x87 `long double`, glibc `sqrt`) over random binary32 deltas: the bit
/// patterns of (x, y, z), then the Linux and the Windows distance.
#[cfg(test)]
const X87_REFERENCE: &[(u32, u32, u32, i32, i32)] = &[
    (0x00000000, 0x00000000, 0x00000000, 0, 0),
    (0x00000000, 0x00000000, 0x4468071c, 928, 928),
    (0x00000000, 0x00000000, 0x44969862, 1204, 1204),
    (0x00000000, 0x00000000, 0x44a4a222, 1317, 1317),
    (0x00000000, 0x00000000, 0x55312063, -2147483648, 103809024),
    (0x00000000, 0x00000000, 0x57c48db9, -2147483648, 1912602624),
    (0x00000000, 0x00000000, 0xa72fe9da, 0, 0),
    (0x00000000, 0x00000000, 0xd31745d0, -2147483648, 1171259392),
    (0x00000000, 0x3ddb4d54, 0x42e58000, 114, 114),
    (0x00000000, 0x3e800000, 0x00000000, 0, 0),
    (0x00000000, 0x429b0000, 0x56890f7f, -2147483648, -1082130432),
    (0x00000000, 0x42a8e3ce, 0x526cfa2e, -2147483648, 1049329664),
    (0x00000000, 0x42a90000, 0x42998000, 114, 114),
    (0x00000000, 0x4343c000, 0x00000000, 195, 195),
    (0x00000000, 0x43480000, 0x45f86a2f, 7951, 7951),
    (0x00000000, 0x4364c000, 0x43a07fdf, 394, 394),
    (0x00000000, 0x43977fdf, 0x44c63fee, 1614, 1614),
    (0x00000000, 0x43a27ff4, 0x483c3748, 192733, 192733),
    (0x00000000, 0x43a57fdf, 0x44f6d1a8, 2002, 2002),
    (0x00000000, 0x43be7fdf, 0x55e06a46, -2147483648, 1220542464),
    (0x00000000, 0x44293ff0, 0x407fef9e, 677, 677),
    (0x00000000, 0x444e7fc3, 0x43da7fdf, 934, 934),
    (0x00000000, 0x4454fff0, 0x44d2f45d, 1890, 1890),
    (0x00000000, 0x44687ff0, 0x57d81e0b, -2147483648, 369098752),
    (0x00000000, 0x44797ff0, 0x53e04f2c, -2147483648, -1638400000),
    (0x00000000, 0x44adae1a, 0x57d4c58b, -2147483648, 369098752),
    (0x00000000, 0x44d37d2d, 0x469ff400, 20543, 20543),
    (0x00000000, 0x44ef3fd1, 0x42bb0000, 1916, 1916),
    (0x00000000, 0x45098ff8, 0x447d5a2f, 2423, 2423),
    (0x00000000, 0x4526eff6, 0xc2b98000, 2672, 2672),
    (0x00000000, 0x4539cfe8, 0xc32b8000, 2977, 2977),
    (0x00000000, 0x4cde3ac0, 0x54457d22, -2147483648, -192411696),
    (0x00000000, 0x4e9a7f32, 0x42dc8000, 1296013568, 1296013568),
    (0x00000000, 0x4f92de38, 0x516f3476, -2147483648, -24593877),
    (0x00000000, 0x51b7c441, 0x44bf371c, -2147483648, -125296640),
    (0x00000000, 0x52f04324, 0x3f800000, -2147483648, 563216384),
    (0x00000000, 0x56c95daa, 0x91c5d22d, -2147483648, -721420288),
    (0x00000000, 0x6abff62d, 0x45e90800, -2147483648, 0),
    (0x00000000, 0x7c332522, 0x3b155d7f, -2147483648, 0),
    (0x00000000, 0xa4fe4cbc, 0x4eff5930, 2142017536, 2142017536),
    (0x00000000, 0xc2a50000, 0xc36fc000, 253, 253),
    (0x00000000, 0xc2eb8000, 0x511663ee, -2147483648, 1715396608),
    (0x00000000, 0xe4f7a115, 0x44787ff0, -2147483648, 0),
    (0x11dffbe7, 0x48ec956b, 0x45470f73, 484533, 484533),
    (0x1267131e, 0x7caa5d0d, 0x4408bff0, -2147483648, 0),
    (0x12c12bad, 0x4461bfe8, 0x524aaebc, -2147483648, -1414594560),
    (0x1486205c, 0x40cc1080, 0x5a5305f8, -2147483648, 0),
    (0x1a1333bc, 0x00000000, 0x42ab8000, 85, 85),
    (0x3384dea4, 0x441e3bdf, 0x4325ffbe, 654, 654),
    (0x34faeb3a, 0x4fd4ea00, 0x44d81ff8, -2147483648, -1445724160),
    (0x3baeaf10, 0x4f1dae3f, 0x00000000, -2147483648, -1649524992),
    (0x3c1f9c60, 0x00000000, 0x5015a140, -2147483648, 1451556864),
    (0x3d3cfd16, 0x4367c000, 0x5469d31c, -2147483648, 1282408448),
    (0x3db7fd23, 0x444be45d, 0x551aa1a7, -2147483648, 443547648),
    (0x3e01024e, 0x451d4ff6, 0x3dbe5de0, 2516, 2516),
    (0x3e28f98b, 0x31de21ed, 0x42d58000, 106, 106),
    (0x3ff18d96, 0x563fad48, 0x45019b09, -2147483648, 1375731712),
    (0x40400000, 0xb2123953, 0x44d97555, 1739, 1739),
    (0x40600000, 0x4f5d59e8, 0x00000000, -2147483648, -581310464),
    (0x412e148a, 0x00000000, 0x4477bff0, 991, 991),
    (0x413b6fe2, 0x4345c000, 0x45381fd0, 2952, 2952),
    (0x41400000, 0x452415b7, 0x44a1dff2, 2927, 2927),
    (0x41640000, 0x44ec1ff4, 0xd04f8981, -2147483648, 1042678784),
    (0x41e80000, 0x5d3526a0, 0x556e30b8, -2147483648, 164201697),
    (0x41efba60, 0x45f5d000, 0x4b4e62a7, 13525673, 13525673),
    (0x41f2eb1a, 0xc24a0000, 0x53d69eb8, -2147483648, 1030750208),
    (0x420bfefa, 0x4361ffdb, 0x5393fdc0, -2147483648, -75497472),
    (0x4223ffe0, 0x3ca9a0ec, 0x00000000, 40, 40),
    (0x423bfefa, 0xc34d0000, 0x00000000, 210, 210),
    (0x425bfefa, 0x51a3b96d, 0x445d7ff0, -2147483648, 1999478784),
    (0x425e0000, 0x4b80e5d4, 0x443f7ff0, 16894888, 16894888),
    (0x426e15b8, 0x44e45fcb, 0x835f05ae, 1827, 1827),
    (0x4275dcba, 0x458c6000, 0xc3500000, 4497, 4497),
    (0x42c5ff7d, 0x587bc83a, 0x55607941, -2147483648, -339649739),
    (0x42ce0000, 0x43388618, 0x54cef04f, -2147483648, -2106064896),
    (0x42d08000, 0x44343fd6, 0x451fafee, 2656, 2656),
    (0x42d70000, 0x438fffdf, 0x4493423f, 1217, 1217),
    (0x42ef8000, 0xc3190000, 0x00000000, 194, 194),
    (0x42f1ffe5, 0x45077fd8, 0x4fc42714, -2147483648, -2008143872),
    (0x42fc8000, 0x4390ffdf, 0x42a5ff7d, 326, 326),
    (0x4301c000, 0x41380000, 0x522a7ef4, -2147483648, -1615003648),
    (0x4306bad0, 0x4424ffe0, 0x444c3ff0, 1058, 1058),
    (0x4307c000, 0x07d6f7d5, 0x43a1ffd1, 351, 351),
    (0x431a0000, 0xed7f0273, 0x4437bff0, -2147483648, 0),
    (0x431bffbe, 0x00000000, 0xe07f417b, -2147483648, 0),
    (0x431effbe, 0x439fffdf, 0xd56a74d1, -2147483648, 1292894208),
    (0x431f37a7, 0x43e67fdf, 0x2b8a6c4f, 487, 487),
    (0x4326c000, 0x00000000, 0x46008600, 8227, 8227),
    (0x43284000, 0x430bffbe, 0x435d4000, 311, 311),
    (0x432b4000, 0x444710d8, 0x4526f22f, 2792, 2792),
    (0x43374000, 0x00000000, 0x44f3ffc3, 1960, 1960),
    (0x4345c000, 0x45a70b33, 0x44bad155, 5553, 5553),
    (0x4354ffbe, 0xc1780000, 0x00000000, 213, 213),
    (0x4356c000, 0x43c17fdf, 0x56942140, -2147483648, -1610612736),
    (0x43594000, 0xe08fdc81, 0xcac1aefe, -2147483648, 0),
    (0x4363c000, 0x451aefca, 0xc2d00000, 2491, 2491),
    (0x43750000, 0x46d10aab, 0x43698000, 26759, 26759),
    (0x43827fdf, 0x473ba60b, 0x44463ff0, 48045, 48045),
    (0x43837fdf, 0x53bd30e4, 0x447ead6b, -2147483648, 1640497152),
    (0x4387745d, 0x00000000, 0x43e37fdf, 529, 529),
    (0x4388ffdf, 0x45212ffe, 0x4522efcc, 3677, 3677),
    (0x43937fdf, 0x448a5fd1, 0x44257ff0, 1323, 1323),
    (0x439c7fca, 0x54b03800, 0x9dd91d60, -2147483648, -1073741824),
    (0x43a37fdf, 0x52490170, 0x3c9ee7d0, -2147483648, 1079771136),
    (0x43ab7fdf, 0x44d27333, 0x439af905, 1745, 1745),
    (0x43abffdf, 0x43ac7fdf, 0x50a7ec3a, -2147483648, 1063374848),
    (0x43b87fdf, 0xdf1d4bac, 0x00000000, -2147483648, 0),
    (0x43ba7fdf, 0x4395ffdf, 0x4477bff1, 1100, 1100),
    (0x43c87fdf, 0x4f6e2784, 0x00000000, -2147483648, -299400192),
    (0x43ca7fdf, 0xc1b40000, 0x5344cd42, -2147483648, -851312640),
    (0x43cc8c00, 0x68606c07, 0x43baffdf, -2147483648, 0),
    (0x43eaffdf, 0x44a4dfee, 0x45091fe1, 2602, 2602),
    (0x43ebffdf, 0x566f6bfa, 0xc1d60000, -2147483648, -25165824),
    (0x43f37fdf, 0x4ffe40a3, 0x43b97fe4, -2147483648, -58636800),
    (0x43f66b85, 0x5506abdc, 0x50bf6f74, -2147483648, -1075822599),
    (0x43fe7ff2, 0x4a05d094, 0x57802066, -2147483648, -872415232),
    (0x44037fc2, 0x43004000, 0x45343fce, 2934, 2934),
    (0x44045c54, 0x43d5ffe7, 0x54956785, -2147483648, 1009254400),
    (0x440f3ff0, 0x45ac4780, 0x495a9d0e, 895458, 895458),
    (0x440fbff0, 0x45045fc4, 0x4482fff2, 2432, 2432),
    (0x4414bff0, 0x52c1d320, 0x529f0564, -2147483648, 1525610920),
    (0x441afff0, 0x440f7ff0, 0x4237488c, 846, 846),
    (0x441ebfd8, 0xc3720000, 0x00000000, 679, 679),
    (0x44211249, 0x554103ac, 0x00000000, -2147483648, 985661440),
    (0x44217ff0, 0x3c3dc3b8, 0x43ddffdf, 783, 783),
    (0x44283fc3, 0x00000000, 0x58abcbfa, -2147483648, -805306368),
    (0x4429fff0, 0x41cc0000, 0x94d3c7fb, 680, 680),
    (0x442c3fdf, 0x53d4f686, 0x54fb8f8f, -2147483648, 276294112),
    (0x442d7ff5, 0x4566f5c3, 0x53b658ab, -2147483648, -1319763968),
    (0x442dbff0, 0x480ad11a, 0x4128024b, 142150, 142150),
    (0x44304f30, 0x00000000, 0x5111f3c0, -2147483648, 524025856),
    (0x44307ff0, 0x44363ff0, 0x44bd5fcb, 1823, 1823),
    (0x44337ff0, 0x00000000, 0xa3fb5afd, 717, 717),
    (0x44343ff0, 0x54956888, 0x3d134db0, -2147483648, 1145044992),
    (0x4443bff0, 0x45288627, 0xc31b8000, 2812, 2812),
    (0x444a7ff0, 0x4504ffd8, 0x00000000, 2276, 2276),
    (0x444c3ff0, 0x442d8c00, 0x00000000, 1072, 1072),
    (0x44503ff0, 0x81370211, 0x4fe26d48, -2147483648, -992309248),
    (0x44553ff0, 0xa256521a, 0xc34e8000, 877, 877),
    (0x4458ffde, 0x44b69fd6, 0x4207fefa, 1699, 1699),
    (0x445b3fdd, 0x43fdffdf, 0x452effda, 2977, 2977),
    (0x445cfff0, 0x429c9759, 0x444dfff0, 1211, 1211),
    (0x44657ff0, 0x564b2f0f, 0x44b3ae39, -2147483648, -1010827264),
    (0x4466bff0, 0x45e2e2a4, 0xb6a6921f, 7318, 7318),
    (0x4467ffc7, 0x432a0000, 0x455b2125, 3630, 3630),
    (0x44687ff0, 0x51a06ab8, 0x00000000, -2147483648, 223805440),
    (0x446abff0, 0x4f2b4701, 0x44033ff0, -2147483648, -1421410048),
    (0x446cfff0, 0x4332ffc1, 0x0e0e6ee6, 964, 964),
    (0x44781600, 0x5205e3fc, 0x51f25178, -2147483648, 614085085),
    (0x447b3fe4, 0x4e0ff7ee, 0x45383c72, 603847552, 603847552),
    (0x44858000, 0x531bf866, 0x42020000, -2147483648, -127533056),
    (0x448be100, 0x00000000, 0x4419fff0, 1277, 1277),
    (0x448d4e39, 0x41380000, 0x439e7fdf, 1174, 1174),
    (0x448d5fe1, 0x418d6c94, 0x430f4000, 1140, 1140),
    (0x4493ffce, 0x1f7716f9, 0x4ec8a273, 1683044736, 1683044736),
    (0x449b8aab, 0xc1d60000, 0x496af4ff, 962384, 962384),
    (0x449bff38, 0x4e2909ec, 0x43dbffdf, 708999936, 708999936),
    (0x449e4c97, 0xfbfb886e, 0xc2a08000, -2147483648, 0),
    (0x44a21fc4, 0x541442d0, 0x51d23608, -2147483648, -1607253019),
    (0x44ae9fc6, 0x4321fff7, 0x43584000, 1422, 1422),
    (0x44b63ffb, 0x43a17fdf, 0x575f2da8, -2147483648, -1476395008),
    (0x44c27ff5, 0x42610000, 0x451a999a, 2922, 2922),
    (0x44c3bfcf, 0x446e7ff9, 0x531fc504, -2147483648, -989593600),
    (0x44c53fcf, 0x5245b078, 0x41ecfe50, -2147483648, 1813905408),
    (0x44c591e2, 0xc19e0000, 0x52fd8a9a, -2147483648, -984809472),
    (0x44c6010d, 0x4164d530, 0x4557351f, 3790, 3790),
    (0x44cc5fc1, 0x50d2785e, 0x42a9ff7d, -2147483648, -1815941120),
    (0x44dc1fc2, 0x413fffd3, 0x44387ff0, 1909, 1909),
    (0x44df0d6b, 0x44c19fe3, 0x532b15ef, -2147483648, 367984640),
    (0x44e99fce, 0x00000000, 0x46437e00, 12650, 12650),
    (0x44f12e39, 0x573cf1da, 0x56315a7c, -2147483648, -895432532),
    (0x44f77fe4, 0x432e8000, 0xd6686337, -2147483648, -843055104),
    (0x44f97fc9, 0x00000000, 0x00000000, 1995, 1995),
    (0x44fc15ca, 0x00000000, 0x43664000, 2029, 2029),
    (0x45003fe9, 0x00000000, 0x45389318, 3596, 3596),
    (0x45052fcc, 0x517e3360, 0x0e834f49, -2147483648, -483000320),
    (0x4506de00, 0x45117ff0, 0xee9f0610, -2147483648, 0),
    (0x45080ffa, 0x4396ffdf, 0x5633ed66, -2147483648, 1501560832),
    (0x450943b1, 0x00000000, 0x57409e1e, -2147483648, 503316480),
    (0x450a0fd1, 0x4450fffd, 0x45318fe9, 3694, 3694),
    (0x450ceff1, 0x00000000, 0x41660645, 2255, 2255),
    (0x450df892, 0xc2988000, 0xc324c000, 2278, 2278),
    (0x45172fd9, 0x4486a000, 0x427b0000, 2648, 2648),
    (0x4517efd4, 0x5271bae4, 0x98584828, -2147483648, 1857617920),
    (0x45289ffa, 0x66d6cdce, 0x586bc850, -2147483648, 0),
    (0x452b0fd5, 0x44e6927d, 0x4476fff0, 3445, 3445),
    (0x4532afeb, 0x41f40000, 0x53b48472, -2147483648, 149159936),
    (0x4533ffed, 0x5349b136, 0x4faecc0c, -2147483648, -1302005475),
    (0x45342fc4, 0x4f4edcb4, 0x00000000, -2147483648, -824396800),
    (0x4543abbc, 0x50bf9053, 0x00000000, -2147483648, -58550272),
    (0x455b5ccd, 0x42b77d7d, 0x46f23800, 31202, 31202),
    (0x455bee51, 0x43e9ffdf, 0x44317ff0, 3620, 3620),
    (0x45666697, 0x58b00a34, 0x46fea2f7, -2147483648, -1610612736),
    (0x456dcba3, 0x5741c0e4, 0x45177fe6, -2147483648, -469762048),
    (0x45b3ca80, 0x953121a5, 0x425b0000, 5753, 5753),
    (0x45c3371f, 0x44bae000, 0x4e383b28, 772721152, 772721152),
    (0x45fcd800, 0x10130e90, 0x517b2f29, -2147483648, -1292726272),
    (0x4634a76e, 0x42d3ff7d, 0x44077ff0, 11575, 11575),
    (0x4642d4bc, 0x45193fe4, 0xb8379a01, 12707, 12707),
    (0x466db938, 0x45159fdd, 0x4084b4b8, 15401, 15401),
    (0x46706a00, 0x45727c5d, 0x5332ca58, -2147483648, -900202496),
    (0x46a52f00, 0x43151041, 0xc32dc000, 21144, 21144),
    (0x46d0aaab, 0x3bc95888, 0x460c605d, 28179, 28179),
    (0x46f4efa3, 0x42903f10, 0x43540000, 31352, 31352),
    (0x47027580, 0x57216d18, 0xe3a74e44, -2147483648, 0),
    (0x474861d4, 0x4423fff0, 0xcfbd09d4, -2147483648, 2048108544),
    (0x474ac680, 0x00000000, 0x4503ffee, 51953, 51953),
    (0x482b332e, 0x5692cc70, 0x500f8a86, -2147483648, 940098993),
    (0x48948218, 0x00000000, 0x7c5c8ca9, -2147483648, 0),
    (0x493e8f11, 0x41dffdf4, 0x0a7ff8c5, 780529, 780529),
    (0x49616440, 0x4526effc, 0x138bf177, 923207, 923207),
    (0x49bfbdd0, 0x56cee804, 0x451edffc, -2147483648, 33554432),
    (0x4a49bd5b, 0x44b88788, 0x5e209813, -2147483648, 0),
    (0x4a973fac, 0x52378224, 0xca6c44f4, -2147483648, -527892380),
    (0x4ab9ccf4, 0x5754037e, 0x46e52af8, -2147483648, 2113929216),
    (0x4accc3d4, 0x43488000, 0x49a7c962, 6849077, 6849077),
    (0x4b1fc368, 0x44767ff0, 0x449fdfe5, 10470248, 10470248),
    (0x4b9bfd77, 0x56847966, 0x3f7b7804, -2147483648, -1291845630),
    (0x4c04144e, 0x00000000, 0x5611f508, -2147483648, 1107296270),
    (0x4cadc3c0, 0x4393ffdf, 0x54fd63e3, -2147483648, 521667036),
    (0x4cdb5670, 0x513ca24c, 0x44b5bfe1, -2147483648, -903430637),
    (0x4d2c4f5b, 0x56a07f71, 0x43947fdf, -2147483648, -1199570760),
    (0x4d45482f, 0x44077ff0, 0x4d1e22ac, 265119728, 265119727),
    (0x4ec13038, 0x421ada35, 0x43c66fb6, 1620581376, 1620581376),
    (0x4ee374d8, 0xc3404000, 0x42d5ff7d, 1908042752, 1908042752),
    (0x4f18c98e, 0x52e02950, 0x38011bcf, -2147483648, 353379180),
    (0x4f4151ad, 0xc25a0000, 0x58bfaff7, -2147483648, -1207956433),
    (0x4f525d70, 0x449b1fdb, 0x449fa305, -2147483648, -765628416),
    (0x4f76d184, 0x4392d966, 0xc24c0000, -2147483648, -154041344),
    (0x4f8adc0c, 0x562f70d8, 0x422a0000, -2147483648, 906194751),
    (0x4f9bebbe, 0x4ae7b4c4, 0x00000000, -2147483648, 936874373),
    (0x4fa9db5c, 0x44173fe0, 0x440f1da1, -2147483648, 1404483584),
    (0x4fb0e2a8, 0x00000000, 0x43c17fdf, -2147483648, 1640321024),
    (0x4fbdf809, 0x43c505d1, 0x5345225e, -2147483648, 600579948),
    (0x4ff62ca2, 0x53286bb4, 0x442dad17, -2147483648, 1854119900),
    (0x50259e30, 0x2e03893b, 0x42874000, -2147483648, -1770471424),
    (0x50539b45, 0x00000000, 0x44497d8a, -2147483648, 1315771392),
    (0x508623ac, 0x4443fff3, 0x433effbe, -2147483648, 824008704),
    (0x50a13d6d, 0x423ffefa, 0x43048000, -2147483648, 166422528),
    (0x50b63894, 0x449f5fdc, 0x00000000, -2147483648, -1312514048),
    (0x50be0a16, 0x44133ff1, 0x44c7149f, -2147483648, -263147520),
    (0x50ca6703, 0x584edbf4, 0x45befd00, -2147483648, -804900779),
    (0x50d3ab4c, 0x52480309, 0x4365ffbe, -2147483648, 1883677762),
    (0x50ffb2e1, 0x4db52abd, 0x3ab9ff37, -2147483648, -38330681),
    (0x513073c4, 0x00000000, 0x42efff7d, -2147483648, 121389056),
    (0x51712ba1, 0x40e80000, 0x5458e824, -2147483648, -1038870383),
    (0x51918ba1, 0x4337c000, 0x4b94e7b0, -2147483648, 829696389),
    (0x5193b2c4, 0xd60874f4, 0x52e5e624, -2147483648, 61252458),
    (0x52420478, 0xb95c28a6, 0x441d7ff0, -2147483648, -2128740352),
    (0x5270a8b3, 0x43a7ffc9, 0x4409fff0, -2147483648, 707575808),
    (0x527a411d, 0x4285ff7d, 0x453c4000, -2147483648, -1874378752),
    (0x5299b428, 0x0d46e62d, 0x446d0d79, -2147483648, -636223488),
    (0x5368f236, 0x4511dfda, 0x44793fe9, -2147483648, -231342080),
    (0x53b0bb04, 0x45283fd3, 0x449abf08, -2147483648, 1980235776),
    (0x53ca873c, 0x44f01800, 0x426f0000, -2147483648, 242745344),
    (0x53e1eeee, 0x44833b4b, 0x4078eca0, -2147483648, -572784640),
    (0x548c35ec, 0x43d17fdf, 0x00000000, -2147483648, -1352663040),
    (0x54a5b966, 0x44d41fed, 0x57fffea2, -2147483648, -125425294),
    (0x54ef1a74, 0x3c2fae79, 0x509f98f2, -2147483648, -716563174),
    (0x54f0605c, 0xc20f0000, 0x539e0890, -2147483648, -804960169),
    (0x5537dd44, 0xc2a78000, 0x4525db44, -2147483648, -734003200),
    (0x554ff8b0, 0x5665c99e, 0xc3094000, -2147483648, 681578500),
    (0x55563c43, 0x00000000, 0x44bb9fce, -2147483648, -1003487232),
    (0x5561ba48, 0x4901d6fd, 0x0b122f84, -2147483648, -1535115264),
    (0x55636fae, 0xdab3dbfa, 0x55fe2ff8, -2147483648, -1132030374),
    (0x5597b1ea, 0x45178072, 0x4478bff0, -2147483648, 1027604480),
    (0x559840cc, 0x00000000, 0x43b4ffe6, -2147483648, 427819008),
    (0x55a15e8c, 0x079b77a7, 0xf6213019, -2147483648, 0),
    (0x55d2ee93, 0x436a4000, 0x00000000, -2147483648, -765460480),
    (0x5604b2a5, 0xcd3391e5, 0xc0f80000, -2147483648, -1455423003),
    (0x561edd20, 0x43468000, 0x44972666, -2147483648, 1207959552),
    (0x562415fe, 0x4461ffe8, 0x554a5f82, -2147483648, 1521332819),
    (0x5666c1b6, 0x5245cb59, 0x43cd7fdf, -2147483648, -2102311013),
    (0x567fa03e, 0x4421fff0, 0x00000000, -2147483648, 260046848),
    (0x56f622dc, 0x43188000, 0x452afd55, -2147483648, 1845493760),
    (0x56fa6a1c, 0x42fa6f53, 0x569db83b, -2147483648, -671751672),
    (0x56fe116a, 0xc830c027, 0x43cbffdf, -2147483648, -1258291200),
    (0x571851c3, 0x2b42e743, 0x4ffb2540, -2147483648, -1023198162),
    (0x572f831a, 0x5574c6b8, 0xc2e10000, -2147483648, 2001325010),
    (0x574945f0, 0x00000000, 0x514732a0, -2147483648, -261975451),
    (0x5781b790, 0x4417bff0, 0x4f52d6fa, -2147483648, 536892844),
    (0x578e123c, 0x4cb0de92, 0x43887fdf, -2147483648, 2013265933),
    (0x57d09251, 0x56be37e9, 0x42868000, -2147483648, 650415787),
    (0x57d23df9, 0x44713fd4, 0x441a2492, -2147483648, -234881024),
    (0x57fc14cf, 0x42e00000, 0x446770df, -2147483648, -1644167168),
    (0x581ecc1b, 0x00000000, 0x4efe6ea0, -2147483648, 1811942589),
    (0x582e7b68, 0x44767ff0, 0x36753bd8, -2147483648, -1610612736),
    (0x583ba0d0, 0x4e27e3cc, 0x564f9730, -2147483648, 240017620),
    (0x5849c37e, 0x37717fe6, 0x44904aab, -2147483648, -134217728),
    (0x5858be9a, 0x43eaffdf, 0x00000000, -2147483648, 1744830464),
    (0x585e7578, 0x4273ffe3, 0x509ed340, -2147483648, -536638682),
    (0x589eefac, 0x00000000, 0x44e6a762, -2147483648, 1610612736),
    (0x58a5420a, 0xc2f70000, 0x42818000, -2147483648, 1342177280),
    (0x58cf69da, 0x4505d287, 0x576d7cdc, -2147483648, -2065044590),
    (0x594b02c6, 0x00000000, 0x45a3c58a, -2147483648, 1610612736),
    (0x598450d0, 0x46855d33, 0x44ad9fd2, -2147483648, 0),
    (0x635697a9, 0x42978000, 0x433b8000, -2147483648, 0),
    (0x7209251d, 0x429fff7d, 0x00000000, -2147483648, 0),
    (0x7901367d, 0x44bce7b4, 0x5689557e, -2147483648, 0),
    (0x7e85aaec, 0x44e21333, 0x00000000, -2147483648, 0),
    (0x845331ad, 0x4307c000, 0x7a65b273, -2147483648, 0),
    (0x8768c15c, 0xc361c000, 0xc28c0000, 236, 236),
    (0x90ef53d7, 0x68d0b581, 0x445ebfe2, -2147483648, 0),
    (0x97b92a5f, 0x00000000, 0x49491c00, 823744, 823744),
    (0x9a985cd9, 0x236330d4, 0x57b3a914, -2147483648, 671088640),
    (0x9dca4464, 0x55a6aa0b, 0x4374ffbe, -2147483648, 1096810496),
    (0x9eb13b62, 0x57c26850, 0xa192cbf7, -2147483648, -1610612736),
    (0xa1dc93b1, 0x42b98000, 0x4479bfc8, 1003, 1003),
    (0xaa6f8b2e, 0x0c932907, 0x55171af5, -2147483648, -1353711616),
    (0xae2cc59b, 0x432a8be5, 0x443b3fcf, 768, 768),
    (0xb9048e60, 0x4f1db1c6, 0x52821b57, -2147483648, 241868957),
    (0xbad9bd8f, 0x588e0088, 0x3f343020, -2147483648, 1073741824),
    (0xbb589668, 0x4d4355c0, 0xc3618000, 204823552, 204823552),
    (0xbbbbca87, 0x45072ff0, 0x42c10000, 2165, 2165),
    (0xbf4d21c6, 0x511734c6, 0x44673ff0, -2147483648, 1934385152),
    (0xbf800000, 0x44203200, 0x43867fdf, 694, 694),
    (0xc0700000, 0x43c7ffda, 0x5310e4cc, -2147483648, -456392704),
    (0xc1640000, 0x39918c80, 0x49d38a6c, 1732941, 1732941),
    (0xc1680000, 0x501a65b0, 0x557ee75b, -2147483648, 1977533058),
    (0xc1840000, 0x865d0f96, 0x45a5e900, 5309, 5309),
    (0xc20a0000, 0x00000000, 0x43028000, 134, 134),
    (0xc2150000, 0x69b87018, 0x64f1b0f5, -2147483648, 0),
    (0xc2690000, 0x451fcfdc, 0x451a6fe7, 3556, 3556),
    (0xc2a3a42b, 0x00000000, 0xb3de0940, 81, 81),
    (0xc2d78000, 0x4301ffbe, 0x00000000, 168, 168),
    (0xc2fa0000, 0x50013430, 0x575d0c0c, -2147483648, 201481258),
    (0xc3008000, 0x44027ffa, 0x4a27915c, 2745431, 2745431),
    (0xc3038000, 0x5355030e, 0x3edbc3dd, -2147483648, 51249152),
    (0xc3174000, 0x43ab7fdf, 0x44f9b4c2, 2032, 2032),
    (0xc31f8000, 0x42b11eb8, 0x4516bfe1, 2418, 2418),
    (0xc3208000, 0x443f7ff0, 0x5589be5c, -2147483648, -880803840),
    (0xc322c000, 0xf04350cd, 0x4b7d52e3, -2147483648, 0),
    (0xc32ac000, 0x4424bff0, 0x436d0000, 720, 720),
    (0xc3340000, 0x433cc000, 0x4537ffdf, 2955, 2955),
    (0xc3374000, 0x53f00215, 0x43d5c6cf, -2147483648, 69861376),
    (0xc3440000, 0xc916857e, 0x41c53f46, 616535, 616535),
    (0xc3598000, 0x4354c000, 0x4473eb85, 1022, 1022),
    (0xc36f8000, 0x8a114972, 0xed7ddd8e, -2147483648, 0),
    (0xc56400ed, 0x59f73617, 0x00000000, -2147483648, -536870912),
    (0xce15f392, 0x542a70e8, 0x44493ff7, -2147483648, -1012856871),
    (0xd8d1a90a, 0x774f08c9, 0x13de3791, -2147483648, 0),
    (0xdb90ab3f, 0x45335100, 0x46762d9a, -2147483648, 0),
    (0xdd72820a, 0xc350c000, 0x422bfefa, -2147483648, 0),
    (0xe1dfb9c7, 0x576282c4, 0x448fb0c3, -2147483648, 0),
    (0xec5a2adb, 0xc2ed0000, 0x3fd93440, -2147483648, 0),
    (0xf3ff9315, 0x00000000, 0x468e3155, -2147483648, 0),
    (0xf5fb4cbc, 0x50fcec0f, 0x4313ffbe, -2147483648, 0),
    (0xf7df0f7f, 0x45272555, 0x3e79556e, -2147483648, 0),
];

#[cfg(test)]
mod reference_tests {
    use std::prelude::rust_2021::*;
    use super::*;
    use crate::x87_model::Precision;

    #[test]
    fn both_paths_match_the_c_reference_vectors() {
        for &(x, y, z, linux, windows) in X87_REFERENCE {
            let d = [f32::from_bits(x), f32::from_bits(y), f32::from_bits(z)];
            assert_eq!(md(Behaviour::Linux, Precision::Extended, d), linux, "linux {x:08x} {y:08x} {z:08x}");
            assert_eq!(md(Behaviour::Windows, Precision::Extended, d), windows, "windows {x:08x} {y:08x} {z:08x}");
        }
    }
}
