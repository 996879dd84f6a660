//! The float arithmetic of the unit being built: the arithmetic of the
//! build of the C original it replaces (`crate::arith`), chosen here and
//! nowhere else.
//!
//! | unit | x86 (i686, x86_64) | other targets |
//! | --- | --- | --- |
//! | game, game_windows | the x87 ([`Hardware`](crate::x87::Hardware)), `-fexcess-precision=fast` | the software x87 |
//! | cgame, 32-bit | the x87, ISO excess precision (`-std=c11`) | the software x87 |
//! | cgame, 64-bit | binary32/binary64 expressions; the x87 for its x87 blocks | [`Native`]; the software x87 |
//!
//! On the 32-bit targets a `float` argument or result moves through the
//! x87 (the 32-bit ABI). The Cargo feature `soft-x87` builds an x86 unit on
//! the software x87 (under the live precision control) instead of the
//! hardware: the portable path, measured and tested on x86.

use crate::arith::X87;
#[cfg(all(feature = "frame", feature = "cgame", target_pointer_width = "64"))]
use crate::arith::Native;
#[cfg(feature = "frame")]
use crate::script::runtime::frame::Floats;

#[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87")))]
type Machine<'s> = crate::x87::Hardware<'s>;
/// The memory the x87 blocks pass values through, in the export's frame.
#[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87")))]
pub(crate) use crate::x87::Scratch;
#[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87")))]
#[inline(always)]
fn machine(scratch: &Scratch) -> Machine<'_> {
    crate::x87::Hardware::new(scratch)
}

#[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87"))))]
type Machine<'s> = crate::arith::Soft;
/// The software x87 needs no scratch memory.
#[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87"))))]
#[derive(Default)]
pub(crate) struct Scratch;
#[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87"))))]
impl Scratch {
    #[inline(always)]
    pub(crate) fn new() -> Scratch {
        Scratch
    }
}
/// The software x87 under the process's precision control where there is
/// an x87 (read once per exported call), else at 64 bits.
#[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87"))))]
#[inline(always)]
fn machine(_: &Scratch) -> Machine<'_> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    let pc = crate::x87::precision();
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    let pc = crate::x87_model::Precision::Extended;
    crate::arith::Soft { pc }
}

/// The unit's x87: its `long double` code and the original's x87 blocks.
pub(crate) type X87Floats<'s> = X87<Machine<'s>>;

#[inline(always)]
pub(crate) fn x87(scratch: &Scratch) -> X87Floats<'_> {
    X87 {
        machine: machine(scratch),
        iso: cfg!(all(feature = "cgame", target_pointer_width = "32")),
        stack_floats: cfg!(target_pointer_width = "32"),
    }
}

/// The unit's C expressions (the per-frame functions').
#[cfg(all(feature = "frame", feature = "cgame", target_pointer_width = "64"))]
pub(crate) type Expr<'s> = Native;
#[cfg(all(feature = "frame", not(all(feature = "cgame", target_pointer_width = "64"))))]
pub(crate) type Expr<'s> = X87Floats<'s>;

#[cfg(feature = "frame")]
#[inline(always)]
pub(crate) fn expr(scratch: &Scratch) -> Expr<'_> {
    #[cfg(all(feature = "cgame", target_pointer_width = "64"))]
    return {
        let _ = scratch;
        Native
    };
    #[cfg(not(all(feature = "cgame", target_pointer_width = "64")))]
    return x87(scratch);
}

/// Both, for the slot functions (one machine: the precision control is
/// read once).
#[cfg(feature = "frame")]
#[inline(always)]
pub(crate) fn floats(scratch: &Scratch) -> Floats<Expr<'_>, X87Floats<'_>> {
    let x87 = x87(scratch);
    #[cfg(all(feature = "cgame", target_pointer_width = "64"))]
    return Floats { expr: Native, x87 };
    #[cfg(not(all(feature = "cgame", target_pointer_width = "64")))]
    return Floats { expr: x87, x87 };
}
