//! C strings: the one place where a pointer to a NUL-terminated string
//! becomes a Rust view of it.
//!
//! The core reads C strings that the engine hands over (names, script text,
//! paths) and that its own C-shaped tables hold; the exports read their
//! string arguments. All of them go through [`c_str`] (or, for a string
//! whose length is bounded by the caller's contract, [`c_str_bounded`]), so
//! there is one contract to state and one conversion to check.

use core::ffi::{c_char, CStr};

/// The string at `p`, or `None` for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid and
/// unchanged for `'a`.
#[inline]
pub unsafe fn c_str<'a>(p: *const c_char) -> Option<&'a CStr> {
    // SAFETY: not NULL, and NUL-terminated for `'a` (the caller's contract).
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) })
}

/// The bytes (without the NUL) of the string at `p`, or `None` for NULL.
///
/// # Safety
/// As for [`c_str`].
#[inline]
pub unsafe fn c_bytes<'a>(p: *const c_char) -> Option<&'a [u8]> {
    // SAFETY: forwarded contract.
    unsafe { c_str(p) }.map(CStr::to_bytes)
}

/// The bytes of the string at `p` if it has at most `max` bytes before its
/// NUL; reads no further than `max + 1` bytes (for a string that need not
/// be terminated within the memory behind it).
///
/// # Safety
/// `p` is NULL or points to memory readable up to its NUL or `max + 1`
/// bytes, whichever comes first, that stays unchanged for `'a`.
pub unsafe fn c_str_bounded<'a>(p: *const c_char, max: usize) -> Option<&'a [u8]> {
    if p.is_null() {
        return None;
    }
    let mut len = 0usize;
    loop {
        // SAFETY: bytes 0..len are not NUL, so byte `len` (<= max) is still
        // part of the caller's string or its terminator (contract above).
        let byte = unsafe { *p.add(len) };
        if byte == 0 {
            break;
        }
        if len == max {
            return None;
        }
        len += 1;
    }
    // SAFETY: the `len` bytes before the NUL were just read from `p`.
    Some(unsafe { core::slice::from_raw_parts(p.cast::<u8>(), len) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_is_none_and_strings_read_to_their_nul() {
        // SAFETY: NULL, and literals that live for the program.
        unsafe {
            assert_eq!(c_str(core::ptr::null()), None);
            assert_eq!(c_bytes(core::ptr::null()), None);
            assert_eq!(c_str(c"abc".as_ptr()), Some(c"abc"));
            assert_eq!(c_bytes(c"a\tb".as_ptr()), Some(&b"a\tb"[..]));
            assert_eq!(c_bytes(c"".as_ptr()), Some(&b""[..]));
        }
    }

    #[test]
    fn bounded_reads_stop_at_the_bound() {
        let unterminated = [b'x' as c_char; 4];
        // SAFETY: 4 readable bytes; a bound of 3 reads at most 4.
        unsafe {
            assert_eq!(c_str_bounded(unterminated.as_ptr(), 3), None);
            assert_eq!(c_str_bounded(c"abc".as_ptr(), 3), Some(&b"abc"[..]));
            assert_eq!(c_str_bounded(c"abcd".as_ptr(), 3), None);
            assert_eq!(c_str_bounded(core::ptr::null(), 3), None);
        }
    }
}
