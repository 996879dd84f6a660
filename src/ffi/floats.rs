//! The float arithmetic of the unit being built: the arithmetic of the
//! build of the C original it replaces (`crate::arith`), chosen here and
//! nowhere else.
//!
//! | unit | x86 (i686, x86_64) | macOS arm64 rules (`darwin_rules`) | other targets |
//! | --- | --- | --- | --- |
//! | game, game_windows | the x87 ([`Hardware`](crate::x87::Hardware)), `-fexcess-precision=fast` | game_windows: upstream's x87 emulation at 53 bits, its plain C native ([`Emulating`]) | the software x87 |
//! | cgame, 32-bit | the x87, ISO excess precision (`-std=c11`) | — | the software x87 |
//! | cgame, 64-bit | binary32/binary64 expressions; the x87 for its x87 code | all native, `long double` binary64 ([`Native`]) | [`Native`]; the software x87 |
//! | engine | the x87 (`XAnimGetLength`) | the emulation at 64 bits, returned as `x87f` | the software x87 |
//! | client | binary64 | binary64 | binary64 |
//!
//! On the 32-bit targets a `float` argument or result moves through the
//! x87 (the 32-bit ABI). The Cargo feature `soft-x87` builds an x86 unit on
//! the software x87 (under the live precision control) instead of the
//! hardware: the portable path, measured and tested on x86.

#[cfg(all(frame_exports, darwin_rules, feature = "game_windows"))]
use crate::script::runtime::frame::Emulating;
#[cfg(all(frame_exports, not(all(darwin_rules, feature = "game_windows"))))]
use crate::script::runtime::frame::Roles;
#[allow(unused_imports)] // the units without per-frame exports
use crate::arith::{Native, X87};

#[cfg(all(darwin_rules, any(feature = "game", all(feature = "cgame", target_pointer_width = "32"))))]
compile_error!("the macOS arm64 rules build the game_windows, cgame, engine and client units only");

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

#[cfg(all(not(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87"))), not(all(darwin_rules, feature = "game_windows"))))]
#[cfg_attr(all(darwin_rules, feature = "cgame"), allow(dead_code))] // native there
type Machine<'s> = crate::arith::Soft;
/// The macOS game module: upstream's x87 emulation.
#[cfg(all(not(any(target_arch = "x86", target_arch = "x86_64")), darwin_rules, feature = "game_windows"))]
type Machine<'s> = crate::arith::Emulated;
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
/// an x87 (read once per exported call); for the macOS game module the
/// 53 bits its emulation fixes (`CODUO_X87_EMULATED_ROUNDING_PRECISION`),
/// else 64.
#[cfg(not(all(any(target_arch = "x86", target_arch = "x86_64"), not(feature = "soft-x87"))))]
#[cfg_attr(all(darwin_rules, feature = "cgame"), allow(dead_code))]
#[inline(always)]
fn machine(_: &Scratch) -> Machine<'_> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    let pc = crate::x87::precision();
    #[cfg(all(not(any(target_arch = "x86", target_arch = "x86_64")), darwin_rules, feature = "game_windows"))]
    let pc = crate::x87_model::Precision::Double;
    #[cfg(all(not(any(target_arch = "x86", target_arch = "x86_64")), not(all(darwin_rules, feature = "game_windows"))))]
    let pc = crate::x87_model::Precision::Extended;
    #[cfg(all(not(any(target_arch = "x86", target_arch = "x86_64")), darwin_rules, feature = "game_windows"))]
    return crate::arith::Emulated(crate::arith::Soft { pc });
    #[cfg(not(all(not(any(target_arch = "x86", target_arch = "x86_64")), darwin_rules, feature = "game_windows")))]
    crate::arith::Soft { pc }
}

/// The unit's x87: its `long double` code and the original's x87 blocks
/// (macOS cgame: native, `long double` binary64).
#[cfg(not(all(darwin_rules, feature = "cgame")))]
pub(crate) type X87Floats<'s> = X87<Machine<'s>>;
#[cfg(all(darwin_rules, feature = "cgame"))]
pub(crate) type X87Floats<'s> = Native;

#[inline(always)]
pub(crate) fn x87(scratch: &Scratch) -> X87Floats<'_> {
    #[cfg(all(darwin_rules, feature = "cgame"))]
    return {
        let _ = scratch;
        Native
    };
    #[cfg(not(all(darwin_rules, feature = "cgame")))]
    return X87 {
        machine: machine(scratch),
        iso: cfg!(all(feature = "cgame", target_pointer_width = "32")),
        stack_floats: cfg!(target_pointer_width = "32"),
    };
}

/// The unit's float roles for the per-frame functions (one machine: the
/// precision control is read once).
#[cfg(all(frame_exports, darwin_rules, feature = "game_windows"))]
pub(crate) type FrameFloats<'s> = Emulating<X87Floats<'s>>;
#[cfg(all(frame_exports, not(all(darwin_rules, feature = "game_windows")), feature = "cgame", target_pointer_width = "64"))]
pub(crate) type FrameFloats<'s> = Roles<Native, X87Floats<'s>>;
#[cfg(all(frame_exports, not(all(darwin_rules, feature = "game_windows")), not(all(feature = "cgame", target_pointer_width = "64"))))]
pub(crate) type FrameFloats<'s> = Roles<X87Floats<'s>, X87Floats<'s>>;

#[cfg(frame_exports)]
#[inline(always)]
pub(crate) fn floats(scratch: &Scratch) -> FrameFloats<'_> {
    let x87 = x87(scratch);
    #[cfg(all(darwin_rules, feature = "game_windows"))]
    return Emulating { x87 };
    #[cfg(all(not(all(darwin_rules, feature = "game_windows")), feature = "cgame", target_pointer_width = "64"))]
    return Roles { expr: Native, x87 };
    #[cfg(all(not(all(darwin_rules, feature = "game_windows")), not(all(feature = "cgame", target_pointer_width = "64"))))]
    return Roles { expr: x87, x87 };
}
