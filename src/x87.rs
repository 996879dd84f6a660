//! The x87 itself: the units' arithmetic on x86, where the C original's
//! float code runs on it.
//!
//! [`Hardware`] is the [`X87Machine`] of the formulas (`crate::arith`) with
//! each operation one x87 instruction over 80-bit values in memory, under
//! the process's live control word, as the original's code runs: one
//! `#[inline(always)]` function per operation around a single `asm!` block,
//! no formula logic in it (Rust has no 80-bit type). The software x87
//! (`crate::arith::Soft`) is the same machine for targets without one; the
//! tests below compare the two bit for bit, at precisions 24, 53 and 64, on
//! random and special operands.
//!
//! Every block leaves the x87 stack empty, as the compiler requires, and
//! changes nothing but its output (the truncating stores restore the
//! control word they change; the status word's sticky exception flags
//! accumulate as they do in the original's code).

use crate::arith::{Mem, X87Machine};
use crate::x87_model::{Precision, F80};
#[cfg(target_arch = "x86")]
use core::arch::x86 as arch;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64 as arch;
use core::arch::asm;
use core::cell::UnsafeCell;
use core::cmp::Ordering;
use core::mem::MaybeUninit;

/// The precision control of the x87 control word as it is now (`FNSTCW`,
/// which changes nothing): what the software x87 rounds at where it stands
/// for the hardware.
pub fn precision() -> Precision {
    let mut word: u16 = 0;
    // SAFETY: FNSTCW stores the 16-bit control word into `word` and has no
    // other effect (no exception is raised or cleared, no flag changes).
    unsafe { asm!("fnstcw [{}]", in(reg) &mut word, options(nostack, preserves_flags)) };
    Precision::from_control_word(word)
}

/// An x87 register's value as `fstp tbyte` stores it (10 bytes, padded to
/// 16), carried in an SSE register between the x87 blocks.
#[derive(Clone, Copy, Debug)]
pub struct Reg(arch::__m128i);

impl From<F80> for Reg {
    #[inline(always)]
    fn from(v: F80) -> Reg {
        let low = v.significand() as i64;
        let high = i64::from(v.sign_exponent());
        // SAFETY: SSE2 is part of every x86 target the crate builds for.
        Reg(unsafe { arch::_mm_set_epi64x(high, low) })
    }
}

impl From<Reg> for F80 {
    fn from(r: Reg) -> F80 {
        let mut b = [0u8; 16];
        // SAFETY: an unaligned store of the 16 bytes into `b`.
        unsafe { arch::_mm_storeu_si128(b.as_mut_ptr().cast(), r.0) };
        let mut significand = [0u8; 8];
        significand.copy_from_slice(&b[..8]);
        F80::from_parts(u16::from_le_bytes([b[8], b[9]]), u64::from_le_bytes(significand))
    }
}

/// A value of the machine as the next block needs it: a register's
/// value, a binary32 or int32 not loaded yet, or an operation of two such values not
/// performed yet. The block of the instruction that uses the value does the
/// loads and the pending operation first, the instructions they stand
/// for, in their order: so a `float` result is stored by the block that
/// computes it (`fld a; fld b; fsubp; fstp dword ptr`), as the original's
/// code stores it, without a round trip of the 80-bit register.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Reg(Reg),
    F32(f32),
    I32(i32),
    Op(Pending),
}

/// An operand of a block: a register's value, or a binary32 or int32 to
/// load (`fld dword ptr`, `fild dword ptr`).
#[derive(Clone, Copy, Debug)]
pub enum Leaf {
    Reg(Reg),
    F32(f32),
    I32(i32),
}

/// `a op b`, not performed yet.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    op: Op,
    a: Leaf,
    b: Rhs,
}

/// The second operand of a pending operation: a value loaded onto the
/// stack (the register form, `fsubp st(1), st`), or an operand the
/// instruction reads from memory itself (`fsub dword ptr`, `fisub`).
#[derive(Clone, Copy, Debug)]
pub enum Rhs {
    Reg(Reg),
    F32(f32),
    I32(i32),
    Mem(Mem),
}

/// The four operations.
#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

impl From<F80> for Operand {
    fn from(v: F80) -> Operand {
        Operand::Reg(v.into())
    }
}

/// The process's x87 (module docs), with the scratch memory its blocks
/// pass values through.
#[derive(Clone, Copy, Debug)]
pub struct Hardware<'s> {
    scratch: &'s Scratch,
}

/// The 48 bytes an x87 block passes its values through (`[sp]`, `[sp +
/// 16]`, `[sp + 32]`), in the frame of the code that computes.
#[derive(Debug)]
pub struct Scratch(UnsafeCell<MaybeUninit<[u128; 3]>>);

impl Scratch {
    #[inline(always)]
    pub fn new() -> Scratch {
        Scratch(UnsafeCell::new(MaybeUninit::uninit()))
    }
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch::new()
    }
}

impl<'s> Hardware<'s> {
    /// The x87, its blocks passing values through `scratch`.
    #[inline(always)]
    pub fn new(scratch: &'s Scratch) -> Hardware<'s> {
        Hardware { scratch }
    }

    /// The scratch area's address.
    #[inline(always)]
    fn sp(self) -> *mut u8 {
        self.scratch.0.get().cast()
    }
}

/// The scratch area of a block: `Hardware::sp`.
macro_rules! sp {
    () => {
        "{sp}"
    };
}

/// One x87 block of machine `$m` over its scratch area: the instructions,
/// then the operands. The x87 registers are clobbered (the block leaves the
/// stack empty); values come and go in SSE registers.
macro_rules! x87 {
    ($m:expr, [$($insn:expr),+ $(,)?], $($operands:tt)*) => {
        asm!(
            $($insn),+,
            $($operands)*
            sp = in(reg) $m.sp(),
            out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
            out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
        )
    };
}

/// Puts operand `$p` (of kind `reg` or `f32`) in the scratch area at
/// `$at` and loads it onto the x87 stack.
macro_rules! ld {
    (reg, $p:literal, $at:literal) => {
        concat!("movdqu xmmword ptr [", sp!(), " + ", $at, "], {", $p, "}\n", "fld tbyte ptr [", sp!(), " + ", $at, "]")
    };
    (f32, $p:literal, $at:literal) => {
        concat!("movss dword ptr [", sp!(), " + ", $at, "], {", $p, "}\n", "fld dword ptr [", sp!(), " + ", $at, "]")
    };
    (i32, $p:literal, $at:literal) => {
        concat!("movd dword ptr [", sp!(), " + ", $at, "], {", $p, "}\n", "fild dword ptr [", sp!(), " + ", $at, "]")
    };
}

/// Pops the x87 stack's top into the scratch area and into output `$p`.
macro_rules! st_reg {
    ($p:literal) => {
        concat!("fstp tbyte ptr [", sp!(), "]\n", "movdqu {", $p, "}, xmmword ptr [", sp!(), "]")
    };
}

/// `$body` for the leaf `$v`, with `$x` its value (an SSE register) and
/// `kind!("x", at)` its load.
macro_rules! each {
    ($v:expr, |$x:ident| $body:block) => {
        match $v {
            Leaf::Reg(Reg($x)) => {
                macro_rules! kind { ($p:literal, $at:literal) => { ld!(reg, $p, $at) }; }
                $body
            }
            Leaf::F32($x) => {
                macro_rules! kind { ($p:literal, $at:literal) => { ld!(f32, $p, $at) }; }
                $body
            }
            Leaf::I32($x) => {
                macro_rules! kind { ($p:literal, $at:literal) => { ld!(i32, $p, $at) }; }
                $body
            }
        }
    };
}

/// The block of a pending operation followed by `$tail`: `fld a; fld b;
/// fOPp st(1), st` (or `fld a; fOP m` with a memory operand); `tail`, with
/// the outputs `$out`.
macro_rules! pending {
    ($m:expr, $p:expr, [$($tail:expr),+], $($out:tt)*) => {
        match $p.op {
            Op::Add => pending!(@a $m, $p, "add", [$($tail),+], $($out)*),
            Op::Sub => pending!(@a $m, $p, "sub", [$($tail),+], $($out)*),
            Op::Mul => pending!(@a $m, $p, "mul", [$($tail),+], $($out)*),
            Op::Div => pending!(@a $m, $p, "div", [$($tail),+], $($out)*),
        }
    };
    (@a $m:expr, $p:expr, $op:literal, [$($tail:expr),+], $($out:tt)*) => {
        match $p.a {
            Leaf::Reg(Reg(a)) => pending!(@b $m, $p, reg, a, $op, [$($tail),+], $($out)*),
            Leaf::F32(a) => pending!(@b $m, $p, f32, a, $op, [$($tail),+], $($out)*),
            Leaf::I32(a) => pending!(@b $m, $p, i32, a, $op, [$($tail),+], $($out)*),
        }
    };
    (@b $m:expr, $p:expr, $ka:tt, $a:ident, $op:literal, [$($tail:expr),+], $($out:tt)*) => {
        match $p.b {
            Rhs::Reg(Reg(b)) => x87!($m,
                [ld!($ka, "a", "16"), ld!(reg, "b", "32"), concat!("f", $op, "p st(1), st"), $($tail),+],
                a = in(xmm_reg) $a, b = in(xmm_reg) b, $($out)*
            ),
            Rhs::F32(b) => x87!($m,
                [ld!($ka, "a", "16"), ld!(f32, "b", "32"), concat!("f", $op, "p st(1), st"), $($tail),+],
                a = in(xmm_reg) $a, b = in(xmm_reg) b, $($out)*
            ),
            Rhs::I32(b) => x87!($m,
                [ld!($ka, "a", "16"), ld!(i32, "b", "32"), concat!("f", $op, "p st(1), st"), $($tail),+],
                a = in(xmm_reg) $a, b = in(xmm_reg) b, $($out)*
            ),
            Rhs::Mem(Mem::F32(b)) => x87!($m,
                [ld!($ka, "a", "16"), concat!("movss dword ptr [", sp!(), " + 32], {b}"),
                 concat!("f", $op, " dword ptr [", sp!(), " + 32]"), $($tail),+],
                a = in(xmm_reg) $a, b = in(xmm_reg) b, $($out)*
            ),
            Rhs::Mem(Mem::F64(b)) => x87!($m,
                [ld!($ka, "a", "16"), concat!("movsd qword ptr [", sp!(), " + 32], {b}"),
                 concat!("f", $op, " qword ptr [", sp!(), " + 32]"), $($tail),+],
                a = in(xmm_reg) $a, b = in(xmm_reg) b, $($out)*
            ),
            Rhs::Mem(Mem::I32(b)) => x87!($m,
                [ld!($ka, "a", "16"), concat!("mov dword ptr [", sp!(), " + 32], {b:e}"),
                 concat!("fi", $op, " dword ptr [", sp!(), " + 32]"), $($tail),+],
                a = in(xmm_reg) $a, b = in(reg) b, $($out)*
            ),
        }
    };
}

impl Hardware<'_> {
    /// The value as a block operand: a pending operation performed.
    #[inline(always)]
    fn leaf(self, v: Operand) -> Leaf {
        match v {
            Operand::Reg(r) => Leaf::Reg(r),
            Operand::F32(f) => Leaf::F32(f),
            Operand::I32(i) => Leaf::I32(i),
            Operand::Op(p) => {
                let r: arch::__m128i;
                // SAFETY: the block reads its inputs and writes its output
                // and its scratch area; the x87 stack is left empty.
                unsafe { pending!(self, p, [st_reg!("r")], r = lateout(xmm_reg) r, options(preserves_flags),) };
                Leaf::Reg(Reg(r))
            }
        }
    }

    /// `a op b`, pending.
    #[inline(always)]
    fn pending(self, op: Op, a: Operand, b: Operand) -> Operand {
        let b = match self.leaf(b) {
            Leaf::Reg(r) => Rhs::Reg(r),
            Leaf::F32(f) => Rhs::F32(f),
            Leaf::I32(i) => Rhs::I32(i),
        };
        Operand::Op(Pending { op, a: self.leaf(a), b })
    }
}

/// A value stored as `$ty` by the instruction, read back with `$mov`; a
/// pending operation is performed by the same block.
macro_rules! store {
    ($name:ident, $ty:ty, $insn:literal, $mov:literal) => {
        #[inline(always)]
        fn $name(self, a: Operand) -> $ty {
            let r: $ty;
            // SAFETY: as for the operations.
            unsafe {
                match a {
                    Operand::Op(p) => pending!(
                        self,
                        p,
                        [concat!($insn, " [", sp!(), "]"), concat!($mov, " {r}, [", sp!(), "]")],
                        r = lateout(xmm_reg) r, options(preserves_flags),
                    ),
                    Operand::Reg(x) => store!(@leaf self, Leaf::Reg(x), $insn, $mov, r),
                    Operand::F32(x) => store!(@leaf self, Leaf::F32(x), $insn, $mov, r),
                    Operand::I32(x) => store!(@leaf self, Leaf::I32(x), $insn, $mov, r),
                }
            }
            r
        }
    };
    (@leaf $m:expr, $leaf:expr, $insn:literal, $mov:literal, $r:ident) => {
        each!($leaf, |a| {
            x87!($m,
                [kind!("a", "16"), concat!($insn, " [", sp!(), "]"), concat!($mov, " {r}, [", sp!(), "]")],
                a = in(xmm_reg) a, r = lateout(xmm_reg) $r, options(preserves_flags),
            )
        })
    };
}

/// A value stored as an integer of `$ty` by `fistp` under round toward
/// zero (the control word's rounding field set for the one store and
/// restored, as the original's compiled `(int)` does), read back with
/// `$mov`.
macro_rules! truncate {
    ($name:ident, $ty:ty, $insn:literal, $mov:literal) => {
        #[inline(always)]
        fn $name(self, a: Operand) -> $ty {
            let r: $ty;
            // SAFETY: as for the operations; the control word is restored.
            unsafe {
                each!(self.leaf(a), |a| {
                    x87!(self,
                        [
                            concat!("fnstcw word ptr [", sp!(), " + 8]"),
                            concat!("movzx {t:e}, word ptr [", sp!(), " + 8]"),
                            "or {t:e}, 0xc00",
                            concat!("mov word ptr [", sp!(), " + 10], {t:x}"),
                            concat!("fldcw word ptr [", sp!(), " + 10]"),
                            kind!("a", "16"),
                            concat!($insn, " [", sp!(), "]"),
                            concat!("fldcw word ptr [", sp!(), " + 8]"),
                            concat!($mov, " {r}, [", sp!(), "]"),
                        ],
                        a = in(xmm_reg) a, r = lateout(xmm_reg) r, t = out(reg) _,
                    )
                });
            }
            r
        }
    };
}

impl X87Machine for Hardware<'_> {
    type R = Operand;

    #[inline(always)]
    fn fld_f32(self, v: f32) -> Operand {
        Operand::F32(v)
    }

    #[inline(always)]
    fn fld_f64(self, v: f64) -> Operand {
        let r: arch::__m128i;
        // SAFETY: as for the operations.
        unsafe {
            x87!(self,
                [concat!("movsd qword ptr [", sp!(), " + 16], {v}"), concat!("fld qword ptr [", sp!(), " + 16]"), st_reg!("r")],
                v = in(xmm_reg) v, r = lateout(xmm_reg) r, options(preserves_flags),
            );
        }
        Operand::Reg(Reg(r))
    }

    #[inline(always)]
    fn fild(self, v: i32) -> Operand {
        Operand::I32(v)
    }

    #[inline(always)]
    fn fld_f80(self, v: F80) -> Operand {
        Operand::Reg(Reg::from(v))
    }

    #[inline(always)]
    fn fadd(self, a: Operand, b: Operand) -> Operand {
        self.pending(Op::Add, a, b)
    }
    #[inline(always)]
    fn fsub(self, a: Operand, b: Operand) -> Operand {
        self.pending(Op::Sub, a, b)
    }
    #[inline(always)]
    fn fmul(self, a: Operand, b: Operand) -> Operand {
        self.pending(Op::Mul, a, b)
    }
    #[inline(always)]
    fn fdiv(self, a: Operand, b: Operand) -> Operand {
        self.pending(Op::Div, a, b)
    }
    #[inline(always)]
    fn fsub_m(self, a: Operand, m: Mem) -> Operand {
        Operand::Op(Pending { op: Op::Sub, a: self.leaf(a), b: Rhs::Mem(m) })
    }
    #[inline(always)]
    fn fmul_m(self, a: Operand, m: Mem) -> Operand {
        Operand::Op(Pending { op: Op::Mul, a: self.leaf(a), b: Rhs::Mem(m) })
    }
    #[inline(always)]
    fn fdiv_m(self, a: Operand, m: Mem) -> Operand {
        Operand::Op(Pending { op: Op::Div, a: self.leaf(a), b: Rhs::Mem(m) })
    }

    #[inline(always)]
    fn fsqrt(self, a: Operand) -> Operand {
        let r: arch::__m128i;
        // SAFETY: as for the operations.
        unsafe {
            each!(self.leaf(a), |a| {
                x87!(self, [kind!("a", "16"), "fsqrt", st_reg!("r")], a = in(xmm_reg) a, r = lateout(xmm_reg) r, options(preserves_flags),)
            });
        }
        Operand::Reg(Reg(r))
    }

    store!(fst_f32, f32, "fstp dword ptr", "movss");

    /// The conversion of SSE2 (`cvtss2sd`), which gives the bits of `fld`
    /// and `fstp qword ptr` on every input (a signalling NaN quieted, the
    /// payload kept): no x87 block needed.
    #[inline(always)]
    fn widen(self, v: f32) -> f64 {
        f64::from(v)
    }
    store!(fst_f64, f64, "fstp qword ptr", "movsd");
    truncate!(fistp_trunc_i32, i32, "fistp dword ptr", "movd");
    truncate!(fistp_trunc_i64, i64, "fistp qword ptr", "movq");

    #[inline(always)]
    fn fucom(self, a: Operand, b: Operand) -> Option<Ordering> {
        let (below, equal, unordered): (u8, u8, u8);
        // SAFETY: as for the operations; the flags are outputs.
        let b = self.leaf(b);
        unsafe {
            each!(self.leaf(a), |a| {
                let (lb, eq, un): (u8, u8, u8);
                match b {
                    Leaf::Reg(Reg(b)) => x87!(self,
                        [ld!(reg, "b", "32"), kind!("a", "16"), "fucomip st, st(1)", "fstp st(0)", "setb {lb}", "sete {eq}", "setp {un}"],
                        a = in(xmm_reg) a, b = in(xmm_reg) b, lb = out(reg_byte) lb, eq = out(reg_byte) eq, un = out(reg_byte) un,
                    ),
                    Leaf::I32(b) => x87!(self,
                        [ld!(i32, "b", "32"), kind!("a", "16"), "fucomip st, st(1)", "fstp st(0)", "setb {lb}", "sete {eq}", "setp {un}"],
                        a = in(xmm_reg) a, b = in(xmm_reg) b, lb = out(reg_byte) lb, eq = out(reg_byte) eq, un = out(reg_byte) un,
                    ),
                    Leaf::F32(b) => x87!(self,
                        [ld!(f32, "b", "32"), kind!("a", "16"), "fucomip st, st(1)", "fstp st(0)", "setb {lb}", "sete {eq}", "setp {un}"],
                        a = in(xmm_reg) a, b = in(xmm_reg) b, lb = out(reg_byte) lb, eq = out(reg_byte) eq, un = out(reg_byte) un,
                    ),
                }
                (below, equal, unordered) = (lb, eq, un);
            });
        }
        if unordered != 0 {
            None
        } else if below != 0 {
            Some(Ordering::Less)
        } else if equal != 0 {
            Some(Ordering::Equal)
        } else {
            Some(Ordering::Greater)
        }
    }
}

/// `Hardware` against `Soft`: every operation, at the three precisions, on
/// the special operands (zeros, infinities, quiet and signalling NaNs of
/// both signs, the indefinite, denormals, the ends of the range) and on
/// random ones; both operand orders; every load of a signalling NaN and
/// every memory form.
///
/// `cargo test --release x87::` (x86_64), and with `--target
/// i686-unknown-linux-gnu` for the 32-bit x87 code.
#[cfg(all(test, not(miri)))]
mod tests {
    use super::{Hardware, Leaf, Operand, Scratch};
    use crate::arith::{Mem, X87Machine};
    use crate::testing::Rng;
    use crate::x87_model::{Precision, F80};
    use core::arch::asm;
    use std::vec::Vec;

    /// The reference: the extended model (`F80`), each instruction its
    /// operation under the precision control `pc`.
    #[derive(Clone, Copy)]
    struct Soft {
        pc: Precision,
    }

    impl Soft {
        fn fld_f32(self, v: f32) -> F80 {
            F80::from_f32(v)
        }
        fn fld_f64(self, v: f64) -> F80 {
            F80::from_f64(v)
        }
        fn fild(self, v: i32) -> F80 {
            F80::from_i32(v)
        }
        fn fld_f80(self, v: F80) -> F80 {
            v
        }
        fn fadd(self, a: F80, b: F80) -> F80 {
            a.add(b, self.pc)
        }
        fn fsub(self, a: F80, b: F80) -> F80 {
            a.sub(b, self.pc)
        }
        fn fmul(self, a: F80, b: F80) -> F80 {
            a.mul(b, self.pc)
        }
        fn fdiv(self, a: F80, b: F80) -> F80 {
            a.div(b, self.pc)
        }
        fn fsub_m(self, a: F80, m: Mem) -> F80 {
            a.sub(operand(m), self.pc)
        }
        fn fmul_m(self, a: F80, m: Mem) -> F80 {
            a.mul(operand(m), self.pc)
        }
        fn fdiv_m(self, a: F80, m: Mem) -> F80 {
            a.div(operand(m), self.pc)
        }
        fn fsqrt(self, a: F80) -> F80 {
            a.sqrt(self.pc)
        }
        fn fst_f32(self, a: F80) -> f32 {
            a.to_f32()
        }
        fn fst_f64(self, a: F80) -> f64 {
            a.to_f64()
        }
        fn widen(self, v: f32) -> f64 {
            F80::from_f32(v).to_f64()
        }
        fn fistp_trunc_i32(self, a: F80) -> i32 {
            a.to_i32_trunc()
        }
        fn fistp_trunc_i64(self, a: F80) -> i64 {
            a.to_i64_trunc()
        }
        fn fucom(self, a: F80, b: F80) -> Option<core::cmp::Ordering> {
            a.compare(b)
        }
    }

    /// A memory operand as the instruction reads it (a signalling NaN not
    /// quieted).
    fn operand(m: Mem) -> F80 {
        match m {
            Mem::F32(v) => F80::operand_f32(v),
            Mem::F64(v) => F80::operand_f64(v),
            Mem::I32(v) => F80::from_i32(v),
        }
    }

    /// Operand pairs per operation and precision.
    const PAIRS: usize = 200_000;

    const PRECISIONS: [Precision; 3] = [Precision::Single, Precision::Double, Precision::Extended];

    /// Runs `f` with the control word of `pc` (exceptions masked, round to
    /// nearest), then restores the caller's.
    fn under<T>(pc: Precision, f: impl FnOnce() -> T) -> T {
        let control: u16 = 0x007f
            | match pc {
                Precision::Single => 0x000,
                Precision::Double => 0x200,
                Precision::Extended => 0x300,
            };
        let mut saved: u16 = 0;
        // SAFETY: stores the control word, loads the test's.
        unsafe { asm!("fnstcw [{s}]", "fldcw [{c}]", s = in(reg) &mut saved, c = in(reg) &control, options(nostack, preserves_flags)) };
        let out = f();
        // SAFETY: restores the caller's control word.
        unsafe { asm!("fldcw [{s}]", s = in(reg) &saved, options(nostack, preserves_flags)) };
        out
    }

    fn bits(v: F80) -> (u16, u64) {
        (v.sign_exponent(), v.significand())
    }

    /// The fields of a stored `tbyte`.
    fn tbyte(out: [u8; 16]) -> (u16, u64) {
        let mut significand = [0u8; 8];
        significand.copy_from_slice(&out[..8]);
        (u16::from_le_bytes([out[8], out[9]]), u64::from_le_bytes(significand))
    }

    /// A machine value's bits (a binary32 or int32 operand loaded by the hardware:
    /// `fld dword ptr`, `fstp tbyte ptr`).
    fn hw(r: Operand) -> (u16, u64) {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        match h.leaf(r) {
            Leaf::Reg(r) => bits(F80::from(r)),
            Leaf::F32(v) => {
                let mut out = [0u8; 16];
                // SAFETY: reads `v`, writes 10 bytes of `out`; the stack is
                // left empty.
                unsafe {
                    asm!("fld dword ptr [{v}]", "fstp tbyte ptr [{r}]", v = in(reg) &v, r = in(reg) &mut out, out("st(0)") _, options(nostack, preserves_flags));
                }
                tbyte(out)
            }
            Leaf::I32(v) => {
                let mut out = [0u8; 16];
                // SAFETY: as above, with `fild`.
                unsafe {
                    asm!("fild dword ptr [{v}]", "fstp tbyte ptr [{r}]", v = in(reg) &v, r = in(reg) &mut out, out("st(0)") _, options(nostack, preserves_flags));
                }
                tbyte(out)
            }
        }
    }

    const SPECIALS: [(u16, u64); 18] = [
        (0x0000, 0),                     // +0
        (0x8000, 0),                     // -0
        (0x7fff, 1 << 63),               // +inf
        (0xffff, 1 << 63),               // -inf
        (0xffff, 0xc000_0000_0000_0000), // the indefinite
        (0x7fff, 0xc000_0000_0000_0001), // quiet NaNs
        (0xffff, 0xd234_5678_9abc_def0),
        (0x7fff, 0x8000_0000_0000_0001), // signalling NaNs
        (0xffff, 0xa000_0000_0000_0000),
        (0x7fff, 0xc000_0000_0000_0000), // the indefinite's positive twin
        (0x7fff, 0xa000_0000_0000_0000),
        (0x0001, 1 << 63),               // smallest normal
        (0x0000, 1),                     // smallest denormal
        (0x0000, u64::MAX >> 1),         // largest denormal
        (0x7ffe, u64::MAX),              // largest finite
        (0x3fff, 1 << 63),               // 1
        (0xbfff, 1 << 63),               // -1
        (0x401e, 1 << 63),               // 2^31
    ];

    fn special(i: usize) -> F80 {
        F80::from_parts(SPECIALS[i].0, SPECIALS[i].1)
    }

    /// A significand with its integer bit: random, with its low bits often
    /// cleared (exact results and ties) or all ones.
    fn significand(rng: &mut Rng) -> u64 {
        let raw = rng.next_u64() | (1 << 63);
        match rng.below(6) {
            0 => raw & !((1u64 << rng.below(64)) - 1) | (1 << 63),
            1 => u64::MAX << rng.below(64),
            2 => (1 << 63) | (rng.next_u64() >> (rng.below(64) as u32 | 1)),
            _ => raw,
        }
    }

    /// A value in the formats the FPU produces, near `near`'s exponent
    /// sometimes (cancellation, ties of sums).
    fn value(rng: &mut Rng, near: Option<F80>) -> F80 {
        let sign = (rng.below(2) as u16) << 15;
        let exponent: u16 = match rng.below(12) {
            0 => return special(rng.below(SPECIALS.len() as u64) as usize),
            1 => {
                let s = rng.next_u64() >> (1 + rng.below(63) as u32);
                return F80::from_parts(sign, if s == 0 { 1 } else { s }); // a denormal
            }
            2 => 1 + rng.below(80) as u16,             // bottom of the range
            3 => 0x7ffe - rng.below(80) as u16,        // top of the range
            4 => 16383 - 70 + rng.below(140) as u16,   // around 1
            5 => 16383 - 160 + rng.below(320) as u16,  // binary32's range
            6 => 16383 - 1100 + rng.below(2200) as u16, // binary64's range
            7 | 8 => match near {
                Some(v) if (1..0x7fff).contains(&(v.sign_exponent() & 0x7fff)) => {
                    let e = i32::from(v.sign_exponent() & 0x7fff) + rng.below(140) as i32 - 70;
                    e.clamp(1, 0x7ffe) as u16
                }
                _ => 1 + rng.below(0x7ffe) as u16,
            },
            _ => 1 + rng.below(0x7ffe) as u16,
        };
        let significand = match (near, rng.below(4)) {
            // the other operand's significand, or one ulp from it
            (Some(v), 0) if v.significand() >> 63 == 1 => v.significand().wrapping_add(rng.below(3)).wrapping_sub(1) | (1 << 63),
            _ => significand(rng),
        };
        F80::from_parts(sign | exponent, significand)
    }

    /// Every pair of specials, then random pairs, in both orders.
    fn pairs(seed: u64) -> Vec<(F80, F80)> {
        let mut out = Vec::with_capacity(PAIRS + SPECIALS.len() * SPECIALS.len());
        for i in 0..SPECIALS.len() {
            for j in 0..SPECIALS.len() {
                out.push((special(i), special(j)));
            }
        }
        let mut rng = Rng::new(seed);
        for _ in 0..crate::rounds(PAIRS) {
            let a = value(&mut rng, None);
            let b = value(&mut rng, Some(a));
            out.push(if rng.below(2) == 0 { (a, b) } else { (b, a) });
        }
        out
    }

    /// A binary32 or binary64 bit pattern, often a NaN of either kind, a
    /// denormal, an infinity or a zero.
    fn binary_bits(rng: &mut Rng) -> (u32, u64) {
        let r = rng.next_u64();
        match rng.below(6) {
            0 => ((r as u32) & 0x807f_ffff, r & 0x800f_ffff_ffff_ffff),
            1 => ((r as u32) | 0x7f80_0000, r | 0x7ff0_0000_0000_0000),
            2 => ((r as u32) & 0xffbf_ffff | 0x7f80_0001, (r & 0xfff7_ffff_ffff_ffff) | 0x7ff0_0000_0000_0001),
            _ => (r as u32, r.rotate_left(17)),
        }
    }

    type SoftBinary = fn(Soft, F80, F80) -> F80;
    type HardBinary = fn(Hardware<'_>, Operand, Operand) -> Operand;

    fn check_binary(name: &str, seed: u64, soft: SoftBinary, hard: HardBinary) {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        let mut rng = Rng::new(seed);
        for pc in PRECISIONS {
            let s = Soft { pc };
            under(pc, || {
                for (a, b) in pairs(seed) {
                    assert_eq!(bits(soft(s, a, b)), hw(hard(h, a.into(), b.into())), "{name} {pc:?} {:?} {:?}", bits(a), bits(b));
                    // the result stored by the operation's own block
                    let stored = (s.fst_f32(soft(s, a, b)).to_bits(), s.fst_f64(soft(s, a, b)).to_bits());
                    let fused = (h.fst_f32(hard(h, a.into(), b.into())).to_bits(), h.fst_f64(hard(h, a.into(), b.into())).to_bits());
                    assert_eq!(stored, fused, "{name} stored {pc:?} {:?} {:?}", bits(a), bits(b));
                    // binary32 operands, loaded by the operation's block:
                    // each side, or both
                    let (x, y) = binary_bits(&mut rng);
                    let (x, y) = (f32::from_bits(x), f32::from_bits(y as u32));
                    let (sx, sy) = (s.fld_f32(x), s.fld_f32(y));
                    let (hx, hy) = (h.fld_f32(x), h.fld_f32(y));
                    let text = || format!("{name} {pc:?} {:08x} {:08x} {:?}", x.to_bits(), y.to_bits(), bits(a));
                    assert_eq!(bits(soft(s, sx, sy)), hw(hard(h, hx, hy)), "{}", text());
                    assert_eq!(s.fst_f32(soft(s, sx, sy)).to_bits(), h.fst_f32(hard(h, hx, hy)).to_bits(), "{}", text());
                    // int32 operands, loaded by the block (`fild`)
                    let i = rng.next_u64() as i32 >> rng.below(32);
                    let text = || format!("{name} {pc:?} {i} {:?}", bits(a));
                    assert_eq!(bits(soft(s, s.fild(i), a)), hw(hard(h, h.fild(i), a.into())), "{}", text());
                    assert_eq!(bits(soft(s, a, s.fild(i))), hw(hard(h, a.into(), h.fild(i))), "{}", text());
                    assert_eq!(s.fst_f32(soft(s, s.fild(i), sy)).to_bits(), h.fst_f32(hard(h, h.fild(i), hy)).to_bits(), "{}", text());
                    assert_eq!(s.fucom(s.fild(i), a), h.fucom(h.fild(i), a.into()), "{}", text());
                    assert_eq!(s.fucom(a, s.fild(i)), h.fucom(a.into(), h.fild(i)), "{}", text());
                    let text = || format!("{name} {pc:?} {:08x} {:08x} {:?}", x.to_bits(), y.to_bits(), bits(a));
                    // a pending operation as the operand of another
                    let (sp, hp) = (soft(s, sx, sy), hard(h, hx, hy));
                    assert_eq!(bits(soft(s, sp, a)), hw(hard(h, hp, a.into())), "{}", text());
                    assert_eq!(s.fst_f32(soft(s, a, sp)).to_bits(), h.fst_f32(hard(h, a.into(), hp)).to_bits(), "{}", text());
                    assert_eq!(bits(soft(s, sx, a)), hw(hard(h, hx, a.into())), "{}", text());
                    assert_eq!(bits(soft(s, a, sy)), hw(hard(h, a.into(), hy)), "{}", text());
                }
            });
        }
    }

    #[test]
    fn add_matches_the_software_x87() {
        check_binary("fadd", 0x1234_5678_9abc_def1, Soft::fadd, |m, a, b| m.fadd(a, b));
    }

    #[test]
    fn sub_matches_the_software_x87() {
        check_binary("fsub", 0x2545_f491_4f6c_dd1d, Soft::fsub, |m, a, b| m.fsub(a, b));
    }

    #[test]
    fn mul_matches_the_software_x87() {
        check_binary("fmul", 0x9e37_79b9_7f4a_7c15, Soft::fmul, |m, a, b| m.fmul(a, b));
    }

    #[test]
    fn div_matches_the_software_x87() {
        check_binary("fdiv", 0xd1b5_4a32_d192_ed03, Soft::fdiv, |m, a, b| m.fdiv(a, b));
    }

    #[test]
    fn sqrt_matches_the_software_x87() {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        for pc in PRECISIONS {
            let s = Soft { pc };
            under(pc, || {
                let mut rng = Rng::new(0x1f83_d9ab_fb41_bd6b);
                for (a, _) in pairs(0x8cb9_2ba7_2f3d_8dd7) {
                    assert_eq!(bits(s.fsqrt(a)), hw(h.fsqrt(a.into())), "fsqrt {pc:?} {:?}", bits(a));
                    let x = f32::from_bits(binary_bits(&mut rng).0);
                    assert_eq!(bits(s.fsqrt(s.fld_f32(x))), hw(h.fsqrt(h.fld_f32(x))), "fsqrt {pc:?} {:08x}", x.to_bits());
                }
            });
        }
    }

    /// The memory forms, with binary32, binary64 and int32 operands, every
    /// kind of NaN on either side (a signalling operand from memory is not
    /// quieted before the operation).
    #[test]
    fn memory_forms_match_the_software_x87() {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        let mut rng = Rng::new(0x3c6e_f372_fe94_f82b);
        for pc in PRECISIONS {
            let s = Soft { pc };
            under(pc, || {
                for (a, _) in pairs(0x510e_527f_ade6_82d1) {
                    let (b32, b64) = binary_bits(&mut rng);
                    let i = rng.next_u64() as i32 >> rng.below(32);
                    let x = f32::from_bits(binary_bits(&mut rng).0);
                    for m in [Mem::F32(f32::from_bits(b32)), Mem::F64(f64::from_bits(b64)), Mem::I32(i)] {
                        assert_eq!(bits(s.fsub_m(a, m)), hw(h.fsub_m(a.into(), m)), "fsub {pc:?} {:?} {m:?}", bits(a));
                        assert_eq!(bits(s.fmul_m(a, m)), hw(h.fmul_m(a.into(), m)), "fmul {pc:?} {:?} {m:?}", bits(a));
                        assert_eq!(bits(s.fdiv_m(a, m)), hw(h.fdiv_m(a.into(), m)), "fdiv {pc:?} {:?} {m:?}", bits(a));
                        assert_eq!(bits(s.fdiv_m(s.fild(i), m)), hw(h.fdiv_m(h.fild(i), m)), "fdiv {pc:?} {i} {m:?}");
                        let text = || format!("{pc:?} {:08x} {m:?}", x.to_bits());
                        assert_eq!(bits(s.fsub_m(s.fld_f32(x), m)), hw(h.fsub_m(h.fld_f32(x), m)), "fsub {}", text());
                        assert_eq!(s.fst_f32(s.fsub_m(a, m)).to_bits(), h.fst_f32(h.fsub_m(a.into(), m)).to_bits(), "fsub stored {}", text());
                        assert_eq!(s.fst_f64(s.fmul_m(s.fld_f32(x), m)).to_bits(), h.fst_f64(h.fmul_m(h.fld_f32(x), m)).to_bits(), "fmul stored {}", text());
                        assert_eq!(bits(s.fmul_m(s.fld_f32(x), m)), hw(h.fmul_m(h.fld_f32(x), m)), "fmul {}", text());
                    }
                }
            });
        }
    }

    #[test]
    fn comparisons_match_the_software_x87() {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        let s = Soft { pc: Precision::Extended };
        let mut rng = Rng::new(0x9b05_688c_2b3e_6c1f);
        for (a, b) in pairs(0x5851_f42d_4c95_7f2d) {
            assert_eq!(s.fucom(a, b), h.fucom(a.into(), b.into()), "{:?} {:?}", bits(a), bits(b));
            let (x, y) = binary_bits(&mut rng);
            let (x, y) = (f32::from_bits(x), f32::from_bits(y as u32));
            assert_eq!(s.fucom(s.fld_f32(x), s.fld_f32(y)), h.fucom(h.fld_f32(x), h.fld_f32(y)), "{x:?} {y:?}");
            assert_eq!(s.fucom(s.fld_f32(x), b), h.fucom(h.fld_f32(x), b.into()), "{x:?} {:?}", bits(b));
            assert_eq!(s.fucom(a, s.fld_f32(y)), h.fucom(a.into(), h.fld_f32(y)), "{:?} {y:?}", bits(a));
        }
    }

    #[test]
    fn truncations_match_the_software_x87() {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        let mut rng = Rng::new(0x4f1b_bcdc_bfa5_3e0b);
        for (i, pc) in PRECISIONS.into_iter().enumerate() {
            let s = Soft { pc };
            under(pc, || {
                for j in 0..crate::rounds(PAIRS) + SPECIALS.len() {
                    let a = if j < SPECIALS.len() {
                        special(j)
                    } else {
                        match rng.below(4) {
                            // 2^-2 .. 2^66
                            0 => F80::from_parts(((rng.below(2) as u16) << 15) | (16381 + rng.below(68) as u16), significand(&mut rng)),
                            1 => F80::from_i32(rng.next_u64() as i32).add(F80::from_parts(0x3ffe, significand(&mut rng)), Precision::Extended),
                            2 => F80::from_parts(0x401e | ((rng.below(2) as u16) << 15), (1 << 63) | (rng.next_u64() >> rng.below(64))),
                            _ => value(&mut rng, None),
                        }
                    };
                    let text = || format!("{i} {:?}", bits(a));
                    assert_eq!(s.fistp_trunc_i32(a), h.fistp_trunc_i32(a.into()), "fistp m32 {}", text());
                    assert_eq!(s.fistp_trunc_i64(a), h.fistp_trunc_i64(a.into()), "fistp m64 {}", text());
                    let x = a.to_f32();
                    assert_eq!(s.fistp_trunc_i32(s.fld_f32(x)), h.fistp_trunc_i32(h.fld_f32(x)), "fistp m32 {x:?}");
                    assert_eq!(s.fistp_trunc_i64(s.fld_f32(x)), h.fistp_trunc_i64(h.fld_f32(x)), "fistp m64 {x:?}");
                }
            });
        }
    }

    #[test]
    fn stores_match_the_software_x87() {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        let mut rng = Rng::new(0x6a09_e667_f3bc_c909);
        for pc in PRECISIONS {
            let s = Soft { pc };
            under(pc, || {
                for i in 0..crate::rounds(PAIRS) + SPECIALS.len() {
                    let a = if i < SPECIALS.len() {
                        special(i)
                    } else {
                        // exponents around both formats' ranges and their edges
                        let centre: i32 = if rng.below(2) == 0 { 16383 - 127 } else { 16383 - 1023 };
                        let e = match rng.below(3) {
                            0 => centre + rng.below(300) as i32 - 150,
                            1 => 16383 + (16383 - centre) + 1 + rng.below(20) as i32 - 10, // the overflow edge
                            _ => centre + rng.below(2 * (16383 - centre as u64) + 400) as i32 - 200,
                        }
                        .clamp(1, 0x7ffe) as u16;
                        let v = F80::from_parts(((rng.below(2) as u16) << 15) | e, significand(&mut rng));
                        if rng.below(8) == 0 { value(&mut rng, None) } else { v }
                    };
                    assert_eq!(s.fst_f32(a).to_bits(), h.fst_f32(a.into()).to_bits(), "fstp m32 {:?}", bits(a));
                    assert_eq!(s.fst_f64(a).to_bits(), h.fst_f64(a.into()).to_bits(), "fstp m64 {:?}", bits(a));
                }
            });
        }
    }

    #[test]
    fn loads_match_the_software_x87() {
        let scratch = Scratch::new();
        let h = Hardware::new(&scratch);
        let mut rng = Rng::new(0xbb67_ae85_84ca_a73b);
        let specials32 = [0u32, 0x8000_0000, 1, 0x8000_0001, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff, 0x7f80_0000, 0xff80_0000, 0x7f80_0001, 0xffbf_ffff, 0x7fc0_0000, 0xffc0_0000];
        let specials64 = [0u64, 1 << 63, 1, 0x000f_ffff_ffff_ffff, 0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0001, 0x7ff8_0000_0000_0000, 0x7ff4_0000_0000_0001];
        let s = Soft { pc: Precision::Extended };
        for i in 0..crate::rounds(PAIRS) {
            let (b32, b64) = match (specials32.get(i), specials64.get(i)) {
                (Some(&a), Some(&b)) => (a, b),
                (Some(&a), None) => (a, rng.next_u64()),
                _ => binary_bits(&mut rng),
            };
            let (f, d) = (f32::from_bits(b32), f64::from_bits(b64));
            assert_eq!(bits(s.fld_f32(f)), hw(h.fld_f32(f)), "fld m32 {b32:08x}");
            // a binary32 copied through the x87 (`fld`, `fstp`), and widened
            assert_eq!(s.fst_f32(s.fld_f32(f)).to_bits(), h.fst_f32(h.fld_f32(f)).to_bits(), "fld/fstp m32 {b32:08x}");
            assert_eq!(s.fst_f64(s.fld_f32(f)).to_bits(), h.fst_f64(h.fld_f32(f)).to_bits(), "fld m32/fstp m64 {b32:08x}");
            assert_eq!(s.widen(f).to_bits(), h.widen(f).to_bits(), "cvtss2sd {b32:08x}");
            assert_eq!(bits(s.fld_f64(d)), hw(h.fld_f64(d)), "fld m64 {b64:016x}");
            let n = if i < 3 { [0, i32::MIN, i32::MAX][i] } else { rng.next_u64() as i32 >> rng.below(32) };
            assert_eq!(bits(s.fild(n)), hw(h.fild(n)), "fild {n}");
            let c = value(&mut rng, None);
            assert_eq!(bits(s.fld_f80(c)), hw(h.fld_f80(c)), "fld m80 {:?}", bits(c));
        }
    }

    /// The engine length's formula (`tree::xanim::length`) on the hardware
    /// and on the software x87: every special class of rate, subnormal to
    /// huge, counts up to 2^31.
    #[test]
    fn the_length_on_the_hardware_is_the_software_length() {
        use crate::arith::{Soft as SoftX87, X87};
        use crate::tree::xanim::{length, LengthOperands};
        let scratch = Scratch::new();
        let hard = X87 { machine: Hardware::new(&scratch), iso: false, stack_floats: false };
        let soft = X87 { machine: SoftX87 { pc: Precision::Extended }, iso: false, stack_floats: false };
        let check = |frames: u32, rate_bits: u32| {
            let ops = LengthOperands { frames, rate_bits };
            let want = bits(length(soft, ops).extended());
            under(Precision::Extended, || assert_eq!(hw(length(hard, ops)), want, "{frames}/{rate_bits:08x}"));
        };
        let specials = [0u32, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0xffc0_0001, 0x7f80_0001, 0x0000_0001, 0x807f_ffff, 0x3f80_0000, 0x41f0_0000, 0x7f7f_ffff];
        for &rate in &specials {
            for frames in [0u32, 1, 2, 3, 29, 30, 65535, 0x7fff_ffff] {
                check(frames, rate);
            }
        }
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for n in 0..crate::rounds(PAIRS) {
            let r = rng.next_u64();
            let frames = match n % 3 {
                0 => u32::from(r as u16),
                1 => (r as u32) & 0x7fff_ffff,
                _ => (r as u32) & 0xff,
            };
            check(frames, (r >> 32) as u32);
        }
    }

    #[test]
    fn the_precision_is_the_live_control_word() {
        for pc in PRECISIONS {
            assert_eq!(under(pc, super::precision), pc);
        }
    }
}
