//! The safe core of uoanim: what the link units and the `uoanim` tool
//! compute with, in safe Rust (the crate forbids `unsafe_code`), without an
//! engine or `std`.
//!
//! So far the core holds the engine's player-animation records, the float
//! arithmetic of the C original's builds and the player-animation formulas,
//! the tokenizer and the script's names, the runtime's conditions, playback
//! and selection and the entries' rebuild, the animation trees' parser,
//! registry and sync setup, and the action selector (the player-animation
//! parser and init and the per-frame functions are still the units'):
//!
//! * [`abi`]: the `#[repr(C)]` mirrors of the engine's player-animation
//!   records, in the layout the engine reads them in (a pointer field is a
//!   value here, never followed);
//! * [`action`]: the Torque-style action-animation selector (a table of
//!   action animations, its text form, the pick of the best fit);
//! * [`atr`]: the `.atr` parser (text to the pruned tree of names);
//! * [`arith`]: the one interface ([`arith::Arith`]) each float formula of
//!   the module is written over, step by step with the C type of its
//!   expression, and its implementations: the x87 profile over a machine
//!   ([`arith::X87`]), binary32/binary64 ([`arith::Native`]), the software
//!   x87 ([`arith::Soft`]) and upstream's x87 emulation
//!   ([`arith::Emulated`]);
//! * [`x87_model`]: the x87's extended format and operations, bit for bit
//!   (the model the hardware is tested against);
//! * [`math`]: correctly rounded square roots in integer arithmetic;
//! * [`conditions`]: a client's condition rows, how a script's condition
//!   line is tested against them, and how the engine writes and reads one;
//! * [`finalize`]: the rebuild of the table's entries from the animation
//!   tree (`BG_FinalizePlayerAnims`) and the reload notes
//!   (`BG_SetupAnimNoteTypes`), over an engine trait of the tree's queries;
//! * [`formulas`]: the player-animation module's formulas that read
//!   nothing of the engine (the controller lerps, the slots' distance, an
//!   animation's move speed), over the arithmetic interface, for either
//!   [`Behaviour`];
//! * [`lexis`]: the one tokenizer of both file formats (the engine's
//!   `Com_Parse` rules, its parse session, the name hash);
//! * [`atoi`]: the C libraries' `atoi` of the original's builds;
//! * [`literals`]: the player-animation script's tables of names (states,
//!   move types, events, conditions and their values, sections);
//! * [`lookup`]: a name's index in a table of names, as the engine looks it
//!   up;
//! * [`playback`]: the runtime's playback: an entry started on a body
//!   part, one command of a script run, the dead gate, an event's list;
//! * [`selection`]: the runtime's choice of a script (the first of a list
//!   whose conditions hold) and the entry points that run one of its
//!   commands (a movement, a state change, an event);
//! * [`outline`]: the structure of a player-animation script with byte
//!   spans, recovering from any mistake (for tools);
//! * [`tree_outline`]: the structure of an `.atr` text with byte spans (its
//!   tokens, names, blocks, properties and the facts of its braces) and a
//!   checker's recovery step, recovering from any mistake (for tools);
//! * [`names`]: the interned names of the animation trees' module;
//! * [`xanim`]: the sync setup of a compact `XAnim` tree, over a trait
//!   that reads and writes its nodes, and a leaf's length;
//! * [`registry`]: the animation trees' registry, the `%name` references
//!   and the load pipeline of a tree (over an engine trait that builds the
//!   trees and writes the cells);
//! * [`text`]: diagnostic texts of a fixed capacity, without the heap.
//!
//! The units' crate (`uoanim`) adds the hardware x87 as a machine of the
//! same interface, and compares it with the software x87 bit for bit.
//!
//! ```
//! use uoanim_core::arith::{Arith, CType, Soft, X87};
//! use uoanim_core::x87_model::Precision;
//!
//! // (float)((double)1.0f / 3.0f) on an x87 at 53 bits
//! let x87 = X87 { machine: Soft { pc: Precision::Double }, iso: false, stack_floats: false };
//! let third = x87.store_f32(x87.div(CType::Double, x87.load_f32(1.0), x87.load_f32(3.0)));
//! assert_eq!(third, 1.0 / 3.0);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

#[cfg(test)]
#[macro_use]
extern crate std;

pub mod abi;
pub mod action;
pub mod arith;
pub mod atoi;
pub mod atr;
pub mod conditions;
pub mod finalize;
pub mod formulas;
pub mod lexis;
pub mod literals;
pub mod lookup;
pub mod math;
pub mod names;
pub mod outline;
pub mod playback;
pub mod registry;
pub mod selection;
pub mod text;
pub mod tree_outline;
pub mod x87_model;
pub mod xanim;

#[cfg(any(test, feature = "test-support"))]
pub mod testing;

/// The crate's README, whose example runs as a test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// Which platform behaviour of the C original a unit reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// `LINUX_BEHAVIOR`: the game module and the dedicated server.
    Linux,
    /// `WINDOWS_BEHAVIOR`: the cgame module, the client executable and the
    /// game module of the client packages.
    Windows,
}


/// The rounds of a randomised test: `n`, or a hundredth of it (at least
/// one) under Miri, which interprets every step.
#[cfg(test)]
pub(crate) const fn rounds(n: usize) -> usize {
    if cfg!(miri) {
        n / 100 + 1
    } else {
        n
    }
}
