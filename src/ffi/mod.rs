//! The C boundary: exported functions and data symbols, engine imports, and
//! the single place where a core [`Failure`](crate::error::Failure) becomes a
//! call to the engine's error function.
//!
//! Rules (docs/ABI.md, "The boundary"):
//!
//! * every exported function runs its body in [`guard`]: a closure returning
//!   `Outcome<T>` that has returned (and dropped everything it owned) before
//!   [`raise::raise`] is called;
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
/// The body is a closure returning `Result<T, E>`; it has returned, and
/// dropped everything it owned, before an error is handed to the engine. The
/// error type must be `Copy` (so it has no destructor) and convert into a
/// [`Failure`](crate::error::Failure); the conversion and the call of
/// [`raise::raise`] happen in a cold frame of their own, so the hot path
/// carries no failure slot. So no frame of the library that owns a
/// destructor is live when the engine `longjmp`s out of its error function,
/// and with `panic = "abort"` nothing unwinds across the boundary either.
///
/// [`guard`] fixes the error type to the core's [`Failure`](crate::error::Failure);
/// [`guard_with`] takes any.
#[inline(always)]
pub(crate) fn guard<T>(body: impl FnOnce() -> crate::error::Outcome<T>) -> T {
    guard_with(body)
}

/// The guard, for any small plain-data error type.
#[inline(always)]
pub(crate) fn guard_with<T, E: Copy + Into<crate::error::Failure>>(body: impl FnOnce() -> Result<T, E>) -> T {
    match body() {
        Ok(value) => value,
        Err(error) => raise_cold(error),
    }
}

#[cold]
#[inline(never)]
fn raise_cold<E: Into<crate::error::Failure>>(error: E) -> ! {
    // SAFETY: `raise` never returns; the failure is plain data and the
    // exported frame's closure has returned, so nothing here or above has a
    // destructor.
    unsafe { raise::raise(error.into()) }
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
