//! The x87 instructions of `crate::x87_model::F80` run on the hardware, for
//! the tests that compare the software model with it bit for bit.
//!
//! Each routine saves the caller's control word, loads the one it is given
//! (precision and rounding control; the tests keep the exceptions masked),
//! runs one instruction on operands loaded from memory, stores the result
//! and restores the control word. The x87 stack is left empty.

use crate::x87_model::F80;

/// What the assembly reads and writes, at one address.
#[repr(C)]
struct Frame {
    saved: u16,
    control: u16,
    a: [u8; 10],
    b: [u8; 10],
    out: [u8; 10],
}

impl Frame {
    fn new(control: u16) -> Frame {
        Frame { saved: 0, control, a: [0; 10], b: [0; 10], out: [0; 10] }
    }
}

fn bytes(v: F80) -> [u8; 10] {
    let mut out = [0u8; 10];
    out[..8].copy_from_slice(&v.significand().to_le_bytes());
    out[8..].copy_from_slice(&v.sign_exponent().to_le_bytes());
    out
}

fn value(b: [u8; 10]) -> F80 {
    let mut significand = [0u8; 8];
    significand.copy_from_slice(&b[..8]);
    F80::from_bits(u16::from_le_bytes([b[8], b[9]]), u64::from_le_bytes(significand))
}

/// Runs `$body` (instructions over `[{f} + 4]` = a, `[{f} + 14]` = b,
/// `[{f} + 24]` = out) under the frame's control word.
macro_rules! run {
    ($frame:expr, $($body:expr),+) => {
        // SAFETY: reads and writes only the frame; the x87 stack is left
        // empty and the control word as it was.
        unsafe {
            core::arch::asm!(
                "fnstcw [{f}]",
                "fldcw [{f} + 2]",
                $($body,)+
                "fldcw [{f}]",
                f = in(reg) $frame,
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack)
            )
        }
    };
}

macro_rules! binary {
    ($name:ident, $op:literal) => {
        /// `st(0) = a; st(1) = b; op st(0), st(1)` under `control`.
        pub(crate) fn $name(control: u16, a: F80, b: F80) -> F80 {
            let mut f = Frame::new(control);
            f.a = bytes(a);
            f.b = bytes(b);
            run!(&mut f, "fld tbyte ptr [{f} + 14]", "fld tbyte ptr [{f} + 4]", concat!($op, " st(0), st(1)"), "fstp tbyte ptr [{f} + 24]", "fstp st(0)");
            value(f.out)
        }
    };
}
binary!(add, "fadd");
binary!(sub, "fsub");
binary!(mul, "fmul");
binary!(div, "fdiv");

/// `fsqrt` of `a` under `control`.
pub(crate) fn sqrt(control: u16, a: F80) -> F80 {
    let mut f = Frame::new(control);
    f.a = bytes(a);
    run!(&mut f, "fld tbyte ptr [{f} + 4]", "fsqrt", "fstp tbyte ptr [{f} + 24]");
    value(f.out)
}

macro_rules! load {
    ($name:ident, $ty:ty, $load:literal) => {
        /// The load of `v` stored as an extended value.
        pub(crate) fn $name(control: u16, v: $ty) -> F80 {
            let mut f = Frame::new(control);
            let raw = v.to_le_bytes();
            let n = raw.len();
            f.a[..n].copy_from_slice(&raw);
            run!(&mut f, concat!($load, " [{f} + 4]"), "fstp tbyte ptr [{f} + 24]");
            value(f.out)
        }
    };
}
load!(from_f32_bits, u32, "fld dword ptr");
load!(from_f64_bits, u64, "fld qword ptr");
load!(from_i32, i32, "fild dword ptr");

macro_rules! store {
    ($name:ident, $ty:ty, $store:literal) => {
        /// `a` loaded and stored with the instruction, the stored bits.
        pub(crate) fn $name(control: u16, a: F80) -> $ty {
            let mut f = Frame::new(control);
            f.a = bytes(a);
            run!(&mut f, "fld tbyte ptr [{f} + 4]", concat!($store, " [{f} + 24]"));
            let mut raw = [0u8; core::mem::size_of::<$ty>()];
            let n = raw.len();
            raw.copy_from_slice(&f.out[..n]);
            <$ty>::from_le_bytes(raw)
        }
    };
}
store!(to_f32_bits, u32, "fstp dword ptr");
store!(to_f64_bits, u64, "fstp qword ptr");
store!(to_i32, i32, "fistp dword ptr");
store!(to_i64, i64, "fistp qword ptr");

/// `fucomip` of `a` against `b` under `control`: (below, equal, unordered),
/// the carry, zero and parity flags.
pub(crate) fn compare(control: u16, a: F80, b: F80) -> (bool, bool, bool) {
    let mut f = Frame::new(control);
    f.a = bytes(a);
    f.b = bytes(b);
    run!(
        &mut f,
        "fld tbyte ptr [{f} + 14]",
        "fld tbyte ptr [{f} + 4]",
        "fucomip st, st(1)",
        "fstp st(0)",
        "setb byte ptr [{f} + 24]",
        "sete byte ptr [{f} + 25]",
        "setp byte ptr [{f} + 26]"
    );
    (f.out[0] != 0, f.out[1] != 0, f.out[2] != 0)
}
