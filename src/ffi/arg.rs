//! The conversions of the exports' C arguments into safe values: one place
//! for what a NULL or a C string becomes at the boundary.
//!
//! Each is `unsafe` with the contract of the C declaration it serves; the
//! safe core only ever sees the results.

use core::ffi::{c_char, CStr};
use core::ptr;

/// A NUL-terminated string argument, or `None` for NULL (the core's one
/// conversion, [`crate::cstr::c_str`]).
#[cfg_attr(not(any(feature = "game", feature = "cgame", feature = "game_windows", feature = "engine", feature = "client")), allow(unused_imports))]
pub(crate) use crate::cstr::c_str;
/// A string argument of bounded length ([`crate::cstr::c_str_bounded`]).
#[cfg_attr(not(all(any(feature = "game", feature = "cgame", feature = "game_windows"), parse_exports)), allow(unused_imports))]
pub(crate) use crate::cstr::c_str_bounded;

/// A string argument where NULL reads as the empty string (the defined
/// result of docs/DIVERGENCES.md for the exports that take it so).
///
/// # Safety
/// As for [`c_str`].
#[cfg_attr(not(any(feature = "engine", feature = "client")), allow(dead_code))]
pub(crate) unsafe fn c_str_or_empty<'a>(p: *const c_char) -> &'a CStr {
    // SAFETY: forwarded contract.
    unsafe { c_str(p) }.unwrap_or(c"")
}

/// Writes `message` as a NUL-terminated string into the caller's buffer
/// `error` of `size` bytes, cut to `size - 1` bytes; does nothing for NULL
/// or size 0.
///
/// # Safety
/// `error` is NULL or valid for writes of `size` bytes.
#[cfg_attr(not(all(any(feature = "game", feature = "cgame", feature = "game_windows"), parse_exports)), allow(dead_code))]
pub(crate) unsafe fn write_c_str(error: *mut c_char, size: usize, message: &[u8]) {
    if error.is_null() || size == 0 {
        return;
    }
    let len = message.len().min(size - 1);
    // SAFETY: `len + 1 <= size` bytes are writable at `error`, and `message`
    // is our own memory, so the ranges do not overlap.
    unsafe {
        ptr::copy_nonoverlapping(message.as_ptr(), error.cast::<u8>(), len);
        *error.add(len) = 0;
    }
}
