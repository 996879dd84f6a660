//! The x87 division of the engine flavour's `XAnimGetLength` as the
//! hardware performs it, for the tests that compare it with the software
//! path (`crate::tree::xanim::x87_divide`).

use crate::tree::xanim::Extended;

/// What the assembly reads and writes, at one address.
#[repr(C)]
struct Frame {
    saved: u16,
    control: u16,
    frames: u32,
    rate: u32,
    out: [u8; 10],
}

/// `fild` of `frames` (below 2^31: `fild` reads a signed integer), `fdiv`
/// by the binary32 `rate_bits`, under the control word 0x37f (precision 64,
/// round to nearest, exceptions masked: what the engine's start-up leaves);
/// the caller's control word is restored.
#[cfg_attr(miri, allow(dead_code))] // its test needs the hardware
pub(crate) fn divide_pc64(frames: u32, rate_bits: u32) -> Extended {
    let mut f = Frame { saved: 0, control: 0x37f, frames, rate: rate_bits, out: [0; 10] };
    // SAFETY: reads and writes only the frame; the x87 stack is left empty
    // and the control word as it was.
    unsafe {
        core::arch::asm!(
            "fnstcw [{f}]",
            "fldcw [{f} + 2]",
            "fild dword ptr [{f} + 4]",
            "fdiv dword ptr [{f} + 8]",
            "fstp tbyte ptr [{f} + 12]",
            "fldcw [{f}]",
            f = in(reg) &mut f,
            out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
            out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
            options(nostack)
        );
    }
    Extended {
        significand: u64::from_le_bytes(f.out[..8].try_into().unwrap_or_default()),
        sign_exponent: u16::from_le_bytes([f.out[8], f.out[9]]),
    }
}
