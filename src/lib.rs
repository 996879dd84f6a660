//! uoanim — a C-ABI drop-in replacement for the animation modules of the
//! Call of Duty: United Offensive reimplementation.
//!
//! The float arithmetic (`arith`, `x87_model`) is the core crate's,
//! `uoanim-core` (core/: it forbids `unsafe_code`), re-exported here; this
//! crate adds the hardware x87 as a machine of it (`x87`). The rest of the
//! crate is split in two layers (the core crate is to take the first):
//!
//! * the **safe core** (`script`, `tree`, `action`): plain Rust over the
//!   `#[repr(C)]` mirrors of `abi`, reporting failures as values
//!   ([`error::Failure`]) and reaching the engine only through the traits it
//!   declares; raw engine memory enters it only through a few `unsafe`
//!   constructors (docs/ABI.md, "Raw engine memory");
//! * the **FFI layer** (`ffi`, compiled only for a link unit): the exported C
//!   functions and data symbols, the engine imports, and the one place that
//!   turns a failure into the engine's `Com_Error`.
//!
//! Which link unit is built (game, cgame, engine, client) is chosen in one
//! place, [`flavour`].
#![deny(unsafe_op_in_unsafe_fn)]
// Raw engine memory enters the core only through `unsafe` constructors
// (docs/ABI.md, "Raw engine memory"): no safe function dereferences a raw
// pointer it is given.
#![deny(clippy::not_unsafe_ptr_arg_deref)]
// The link units need nothing but the C library: the crate uses `core` and
// `alloc` (over the C allocator, src/unit_runtime.rs); `std` only for its tests.
#![no_std]

extern crate alloc;
#[cfg(test)]
#[macro_use]
extern crate std;

pub mod abi;
pub use uoanim_core::action;
pub use uoanim_core::arith;
pub mod cell;
pub mod cstr;
pub use uoanim_core::lexis;
pub mod error;
pub mod flavour;
pub mod math;
pub use uoanim_core::names;
pub mod report;
pub mod script;
pub mod tree;
pub use uoanim_core::x87_model;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub mod x87;
#[cfg(test)]
pub(crate) mod testing;

#[cfg(any(feature = "game", feature = "cgame", feature = "game_windows", feature = "engine", feature = "client"))]
pub mod ffi;
#[cfg(all(feature = "c-runtime", not(test)))]
mod unit_runtime;

/// The rounds of a randomised test: `n`, or a hundredth of it (at least
/// one) under Miri, which interprets every step; what Miri checks, the
/// memory rules of each path, does not need the statistics of many rounds.
#[cfg(test)]
pub(crate) const fn rounds(n: usize) -> usize {
    if cfg!(miri) {
        n / 100 + 1
    } else {
        n
    }
}
