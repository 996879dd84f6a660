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
/// The body is a closure returning `Outcome<T>`; it has returned, and dropped
/// everything it owned, before an `Err` is handed to [`raise::raise`]. So no
/// frame of the library that owns a destructor is live when the engine
/// `longjmp`s out of its error function. With `panic = "abort"` nothing
/// unwinds across the boundary either.
#[inline(always)]
pub(crate) fn guard<T>(body: impl FnOnce() -> crate::error::Outcome<T>) -> T {
    guard_with(body)
}

/// The guard of an export that cannot fail (the action selector): the same
/// frame discipline, and no reference to the engine's error function at all,
/// so a C program using only such exports needs no engine.
#[inline(always)]
pub(crate) fn guard_infallible<T>(body: impl FnOnce() -> Result<T, core::convert::Infallible>) -> T {
    guard_with(body)
}

#[inline(always)]
fn guard_with<T, E: Raise>(body: impl FnOnce() -> Result<T, E>) -> T {
    match body() {
        Ok(value) => value,
        // SAFETY: `raise` never returns; the error is plain data and the
        // closure is gone, so nothing here has a destructor.
        Err(error) => unsafe { error.raise() },
    }
}

/// An error an export's guard can hand to the engine.
pub(crate) trait Raise {
    /// Reports the error through the engine; never returns.
    ///
    /// # Safety
    /// See [`raise::raise`].
    unsafe fn raise(self) -> !;
}

impl Raise for crate::error::Failure {
    unsafe fn raise(self) -> ! {
        // SAFETY: forwarded contract.
        unsafe { raise::raise(self) }
    }
}

impl Raise for core::convert::Infallible {
    unsafe fn raise(self) -> ! {
        match self {}
    }
}

pub(crate) mod raise;
#[cfg(any(feature = "game", feature = "cgame"))]
#[allow(unused_macros, unused_imports, dead_code)]
pub(crate) mod varargs;

#[cfg(any(feature = "game", feature = "cgame"))]
mod playeranim;
#[cfg(any(feature = "game", feature = "cgame"))]
mod action;
#[cfg(any(feature = "engine", feature = "client"))]
mod animtree;
