//! The C boundary: exported functions and data symbols, engine imports, and
//! the single place where a core [`Failure`](crate::error::Failure) becomes a
//! call to the engine's error function.
//!
//! Rules (docs/ABI.md, "The boundary"), held by the structure and checked
//! on the compiled library:
//!
//! * an export converts its arguments ([`arg`], the core's `unsafe`
//!   constructors) and calls one core function; a NULL the original would
//!   dereference gets the documented fallback;
//! * a core failure reaches the engine only through [`guard`]: the error
//!   functions are declared in [`raise`], private to this module, and only
//!   the guard's cold frame calls it, once the export's closure has returned
//!   and dropped what it owned; an export that cannot fail has no guard;
//! * no export calls another, or hands another to the engine as a callback:
//!   shared work is a private function or a core function.
//!
//! `scripts/check-boundary.py` (run by `make test`) reads the library
//! compiled at opt-level 0 for each target and fails when an export reaches
//! another export, anything but `raise_cold` reaches the engine's error
//! functions, or anything but an export calls `raise_cold` (a guard in the
//! core); `scripts/check-ffi-confined.py` fails on a `#[no_mangle]`, an
//! `extern "C" fn` definition or assembly outside this module.

/// The guard of every export that can fail.
///
/// ```text
/// #[no_mangle]
/// pub unsafe extern "C" fn Name(a: i32) -> i32 {
///     guard(|| { /* check pointers, call the core */ Ok(a) })
/// }
/// ```
///
/// The body is a closure returning `Result<T, Failure<'a>>`; it has
/// returned, and dropped everything it owned, before an error is handed to
/// the engine. A [`Failure`](crate::error::Failure) is a small `Copy`
/// value (no destructor): which diagnostic, with the numbers and names it
/// needs, borrowing what stays valid for the whole exported call (the
/// caller's strings, the parsed text, engine memory) or naming the module's
/// own names by id. Its text is written, and the engine's error function
/// called, in a cold frame of its own ([`raise::raise`]), so the hot path
/// carries only the small failure. So no frame of the library that owns a
/// destructor is live when the engine `longjmp`s out of its error function,
/// and with `panic = "abort"` nothing unwinds across the boundary either.
///
/// [`guard`] fixes the error type to the core's [`Failure`](crate::error::Failure);
/// [`guard_with`] takes any.
#[inline(always)]
pub(crate) fn guard<'a, T>(body: impl FnOnce() -> Result<T, crate::error::Failure<'a>>) -> T {
    guard_with(body)
}

/// The guard, for any small plain-data error type that converts into a
/// failure.
#[inline(always)]
pub(crate) fn guard_with<'a, T, E: Copy + Into<crate::error::Failure<'a>>>(body: impl FnOnce() -> Result<T, E>) -> T {
    match body() {
        Ok(value) => value,
        Err(error) => raise_cold(error.into()),
    }
}

#[cold]
#[inline(never)]
fn raise_cold(failure: crate::error::Failure<'_>) -> ! {
    // SAFETY: `raise` never returns; the failure is plain data and the
    // exported frame's closure has returned, so nothing here or above has a
    // destructor, and what the failure borrows lives for the exported call.
    unsafe { raise::raise(failure) }
}

pub(crate) mod arg;
pub(crate) mod asm;
pub(crate) mod statics;
mod raise;
#[cfg(any(feature = "game", feature = "cgame", feature = "game_windows"))]
pub(crate) mod floats;
#[cfg(any(feature = "game", feature = "cgame", feature = "game_windows"))]
#[allow(unused_macros, unused_imports, dead_code)]
pub(crate) mod varargs;

#[cfg(any(feature = "game", feature = "cgame", feature = "game_windows"))]
mod playeranim;
#[cfg(all(any(feature = "game", feature = "cgame", feature = "game_windows"), parse_exports))]
mod action;
#[cfg(any(feature = "engine", feature = "client"))]
mod animtree;
