//! The conversions of the exports' C arguments into safe values: one place
//! for what a NULL or a C string becomes at the boundary.
//!
//! Each is `unsafe` with the contract of the C declaration it serves; the
//! safe core only ever sees the results.

use core::ffi::{c_char, CStr};
use core::ptr;

/// A NUL-terminated string argument, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid and
/// unchanged for `'a` (for an export: the call).
#[cfg_attr(not(any(feature = "game", feature = "cgame", feature = "game_windows", feature = "engine", feature = "client")), allow(dead_code))]
pub(crate) unsafe fn c_str<'a>(p: *const c_char) -> Option<&'a CStr> {
    // SAFETY: forwarded contract.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) })
}

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

/// The bytes of the C string at `s` if it has at most `max` bytes before its
/// NUL; reads no further than `max + 1` bytes.
///
/// # Safety
/// `s` is NULL or points to memory readable up to its NUL or `max + 1`
/// bytes, whichever comes first, that stays unchanged while the result is
/// used.
#[cfg_attr(not(any(feature = "game", feature = "cgame", feature = "game_windows")), allow(dead_code))]
pub(crate) unsafe fn c_str_bounded<'a>(s: *const c_char, max: usize) -> Option<&'a [u8]> {
    if s.is_null() {
        return None;
    }
    let mut len = 0usize;
    loop {
        // SAFETY: bytes 0..len are not NUL, so byte `len` (<= max) is still
        // part of the caller's string or its terminator (contract above).
        let byte = unsafe { *s.add(len) };
        if byte == 0 {
            break;
        }
        if len == max {
            return None;
        }
        len += 1;
    }
    // SAFETY: the `len` bytes before the NUL were just read from `s`.
    Some(unsafe { core::slice::from_raw_parts(s.cast::<u8>(), len) })
}

/// Writes `message` as a NUL-terminated string into the caller's buffer
/// `error` of `size` bytes, cut to `size - 1` bytes; does nothing for NULL
/// or size 0.
///
/// # Safety
/// `error` is NULL or valid for writes of `size` bytes.
#[cfg_attr(not(any(feature = "game", feature = "cgame", feature = "game_windows")), allow(dead_code))]
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
