//! `#[repr(C)]` mirrors of the engine's player-animation records: the
//! parsed table (`bg_static_animation_table_t` and what it holds), the
//! client's animation record (`clientInfo_t`), the player and entity states
//! and the head of a weapon's record, with their sizes and offsets asserted
//! for i686 and x86_64 at compile time (and again in C by
//! `c_tests/layout.c`). The numbers of one pointer width hold for Linux and
//! Windows alike (no mirrored structure has a `long`, a `double`, a 64-bit
//! integer or a bit-field, the types whose size or alignment differ between
//! the two).
//!
//! Names follow the C headers (`bg_animation_types.h`,
//! `client_info_types.h`, `player_state_types.h`) so that the generated
//! headers read like the originals.
//!
//! The core reads and writes the engine's records in their C layout (the
//! engine reads the parsed table in place) in safe code: a raw pointer field
//! is a value here (stored, compared, turned into an offset), never
//! followed, and a union's fields are written, never read. Following a
//! pointer, reading a union and the records holding the engine's callbacks
//! (`bgs_t`) are the units crate's (`uoanim::abi`).
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
// The fields are the C headers' own, documented there; a doc line on each
// would repeat the C name.
#![allow(missing_docs)]


// A mirrored field of one of the types whose layout differs between Linux
// and Windows would make the asserts target-dependent: there is none.
const _: () = assert!(core::mem::size_of::<core::ffi::c_int>() == 4 && core::mem::align_of::<u32>() == 4);

/// Asserts `size_of::<T>()` for the arch being built.
#[macro_export]
macro_rules! assert_size {
    ($t:ty, i686 = $a:expr, x86_64 = $b:expr) => {
        #[cfg(target_pointer_width = "32")]
        const _: () = assert!(core::mem::size_of::<$t>() == $a);
        #[cfg(target_pointer_width = "64")]
        const _: () = assert!(core::mem::size_of::<$t>() == $b);
    };
}

/// Asserts `offset_of!(T, field)` for the arch being built.
#[macro_export]
macro_rules! assert_offset {
    ($t:ty, $f:ident, i686 = $a:expr, x86_64 = $b:expr) => {
        #[cfg(target_pointer_width = "32")]
        const _: () = assert!(core::mem::offset_of!($t, $f) == $a);
        #[cfg(target_pointer_width = "64")]
        const _: () = assert!(core::mem::offset_of!($t, $f) == $b);
    };
}

pub mod bg;
pub mod common;
pub mod player;

/// The engine's compact animation tree (`XAnim`), opaque here: the core
/// stores and compares pointers to one, never follows them (its layout is
/// the units crate's, `uoanim::abi::xanim::XAnim`). The generated headers
/// call it `XAnim` (`cbindgen.toml`, `[export.rename]`).
#[repr(C)]
pub struct EngineTree {
    _opaque: [u8; 0],
}
