//! The conversions of the exports' C arguments into safe values: one place
//! for what a NULL or a C string becomes at the boundary.
//!
//! Each is `unsafe` with the contract of the C declaration it serves; the
//! safe core only ever sees the results.

use core::ffi::{c_char, CStr};

/// A NUL-terminated string argument, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid and
/// unchanged for `'a` (for an export: the call).
pub(crate) unsafe fn c_str<'a>(p: *const c_char) -> Option<&'a CStr> {
    // SAFETY: forwarded contract.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) })
}

/// A string argument where NULL reads as the empty string (the defined
/// result of docs/DIVERGENCES.md for the exports that take it so).
///
/// # Safety
/// As for [`c_str`].
pub(crate) unsafe fn c_str_or_empty<'a>(p: *const c_char) -> &'a CStr {
    // SAFETY: forwarded contract.
    unsafe { c_str(p) }.unwrap_or(c"")
}
