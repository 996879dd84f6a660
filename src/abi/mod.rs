//! `#[repr(C)]` mirrors of the C types the exports take, return, read or
//! write, with their sizes and offsets asserted for i686 and x86_64 at
//! compile time (and again in C by `c_tests/layout.c`).
//!
//! Names follow the C headers (`bg_animation_types.h`, `xanim_types.h`,
//! `client_info_types.h`, `player_state_types.h`) so that the generated
//! headers read like the originals.
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]

pub mod bg;
pub mod common;
pub mod xanim;

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
