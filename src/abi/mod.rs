//! The `#[repr(C)]` mirrors of the C types the exports take, return, read
//! or write are the core's (`uoanim_core::abi`, with their sizes and offsets
//! asserted); this module adds what reaches into them with `unsafe`: the
//! all-zero records ([`Zeroed`]) and the byte views of their name fields
//! ([`bg::NameField`]).
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
