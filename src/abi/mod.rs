//! `#[repr(C)]` mirrors of the C types the exports take, return, read or
//! write, with their sizes and offsets asserted for i686 and x86_64 at
//! compile time (and again in C by `c_tests/layout.c`). The numbers of one
//! pointer width hold for Linux and Windows alike (no mirrored structure has
//! a `long`, a `double`, a 64-bit integer or a bit-field, the types whose
//! size or alignment differ between the two), and every target the units are
//! built for checks them: `i686` for i686 Linux and i686 Windows, `x86_64`
//! for x86_64 Linux and x86_64 Windows.
//!
//! Names follow the C headers (`bg_animation_types.h`, `xanim_types.h`,
//! `client_info_types.h`, `player_state_types.h`) so that the generated
//! headers read like the originals.
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]

pub mod bg;
pub mod common;
pub mod xanim;

/// A C mirror whose all-zero bytes are a valid value: the zeroed statics
/// and `memset(.., 0, ..)` records the C starts from.
///
/// # Safety
/// The all-zero bit pattern is a valid value of the type: its fields are
/// integers, floats, raw pointers, and arrays, structures and unions of
/// those (no reference, `NonNull`, function pointer, `bool` or enum).
pub unsafe trait Zeroed: Sized {
    /// The all-zero value, on the heap (the mirrors are large).
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        // SAFETY: all-zero bytes are a valid `Self` (the trait's contract).
        unsafe { alloc::boxed::Box::<Self>::new_zeroed().assume_init() }
    }
}

// SAFETY: an array of zero-valid elements is zero-valid.
unsafe impl<T: Zeroed, const N: usize> Zeroed for [T; N] {}
// SAFETY: integers are valid all zero.
unsafe impl Zeroed for u8 {}
// SAFETY: the fields are integers, floats, raw pointers and arrays and
// unions of those (src/abi/bg.rs).
unsafe impl Zeroed for bg::bg_static_animation_table_t {}
// SAFETY: as above.
unsafe impl Zeroed for bg::bg_runtime_animation_t {}
// SAFETY: as above.
unsafe impl Zeroed for bg::bg_anim_script_t {}
// SAFETY: as above.
unsafe impl Zeroed for bg::clientInfo_t {}
// SAFETY: integers and floats only.
unsafe impl Zeroed for bg::playerState_t {}

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
