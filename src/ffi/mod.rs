//! The C boundary: exported functions and data symbols, engine imports, and
//! the single place where a core [`Failure`](crate::error::Failure) becomes a
//! call to the engine's error function.
//!
//! Rules (docs/ABI.md, "The boundary"):
//!
//! * every exported function runs its body in [`guard`]: a closure returning
//!   `Result<T, Failure>` that has returned (and dropped everything it
//!   owned) before [`raise::raise`] writes the failure's text and calls the
//!   engine;
//! * pointers are checked here and turned into references or safe values; a
//!   NULL that the original would dereference gets the documented fallback;
//! * the core never sees the engine's error functions: they are declared in
//!   [`raise`], which is private to this module.

/// The guard every exported function runs its body in.
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
mod raise;
#[cfg(any(feature = "game", feature = "cgame"))]
#[allow(unused_macros, unused_imports, dead_code)]
pub(crate) mod varargs;

#[cfg(any(feature = "game", feature = "cgame"))]
mod playeranim;
#[cfg(any(feature = "game", feature = "cgame"))]
mod action;
#[cfg(any(feature = "engine", feature = "client"))]
mod animtree;
