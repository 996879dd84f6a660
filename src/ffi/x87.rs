//! The x87 floating-point environment of the process.
//!
//! The C original's move-speed arithmetic is x87 code, whose results follow
//! the precision control of the live control word: the Windows client
//! executable sets it to 53 bits at start-up (control word `0x27f`), the
//! dedicated server and the Linux programs leave 64 bits. The core computes
//! under a [`Precision`] it is handed (plain code); reading the control
//! word takes an instruction Rust has no other way to express, so it lives
//! here.

use crate::x87_model::Precision;

/// The precision control of the x87 control word as it is now (`FNSTCW`,
/// which changes nothing).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) fn precision() -> Precision {
    let mut word: u16 = 0;
    // SAFETY: FNSTCW stores the 16-bit control word into `word` and has no
    // other effect (no exception is raised or cleared, no flag changes).
    unsafe { core::arch::asm!("fnstcw [{}]", in(reg) &mut word, options(nostack, preserves_flags)) };
    Precision::from_control_word(word)
}

/// Targets without x87 (aarch64): the C's `long double` arithmetic there is
/// not x87 and has no precision control; the core's 64-bit path is the
/// portable answer.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
pub(crate) fn precision() -> Precision {
    Precision::Extended
}
