//! The player-animation module's float formulas that read nothing of the
//! engine: the arithmetic roles of a unit's float code ([`Floats`]) and the
//! controller lerps (`BG_LerpAngles`, `BG_LerpOffset`), each written once
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
pub fn lanes<T>(f: impl Fn(usize) -> T) -> [T; 3] {
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
