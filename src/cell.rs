//! Module-global storage without `static mut` and without destructors.
//!
//! The C modules keep their state in globals and are called from one engine
//! thread; any engine import they call may `longjmp` out of the call.  A lock
//! guard would then stay locked forever, so module state lives in a
//! [`ModuleCell`]: an `UnsafeCell` that is `Sync` by contract, with the layout
//! of its content (so a cell can be an exported C data symbol).
//!
//! Contract (the C original's): the exported functions of one link unit are
//! not called concurrently and are not re-entered from an import.  Only the
//! FFI layer calls [`ModuleCell::get`]; the safe core receives plain `&mut`.

use core::cell::UnsafeCell;

/// A global of the C module: same layout as `T`, no destructor run, no lock.
#[repr(transparent)]
pub struct ModuleCell<T>(UnsafeCell<T>);

// SAFETY: see the module documentation — the engine calls the module from a
// single thread, exactly as it calls the C original.
unsafe impl<T> Sync for ModuleCell<T> {}

impl<T> ModuleCell<T> {
    /// A cell holding `value` (usable in `static` items).
    pub const fn new(value: T) -> Self {
        Self(UnsafeCell::new(value))
    }

    /// Raw pointer to the content (what C sees at the symbol's address).
    pub const fn as_ptr(&self) -> *mut T {
        self.0.get()
    }

    /// Exclusive access to the content.
    ///
    /// # Safety
    /// The caller must be the only one accessing the cell for the lifetime of
    /// the returned reference: true for an export of a single-threaded,
    /// non-re-entrant module that does not hand the reference to C.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get(&self) -> &mut T {
        // SAFETY: guaranteed by the caller (see above).
        unsafe { &mut *self.0.get() }
    }
}
