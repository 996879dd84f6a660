//! The tree registry of the units: the core's registry
//! ([`uoanim_core::registry`]) over the engine's memory. A tree and a
//! reference cell are addresses the units' engine dereferences
//! ([`TreeAddr`], [`CellAddr`]), made only by `unsafe` code.

pub use uoanim_core::registry::{Addr, MissingAsset, TreeEngine, TreeFailure, MAX_TREE_NAME, TREE_CAPACITY, TREE_SLOTS};

/// The registry of the units: trees and cells in engine memory.
pub type AnimTrees<T = TreeAddr, C = CellAddr> = uoanim_core::registry::AnimTrees<T, C>;
/// The engine-owned globals of the units' registry.
pub type Globals<'a, T = TreeAddr> = uoanim_core::registry::Globals<'a, T>;

/// Address of a built `XAnim`, opaque to the core (which only stores it and
/// hands it back to its [`TreeEngine`]); made only by the `unsafe`
/// [`TreeAddr::from_raw`], so safe code cannot forge one:
///
/// ```compile_fail,E0133
/// let forged = uoanim::tree::registry::TreeAddr::from_raw(0x1000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)] // the engine's `XAnim *` rows are viewed as rows of it
pub struct TreeAddr(usize);

impl TreeAddr {
    /// No tree (the C NULL).
    pub const NULL: Self = Self(0);

    /// The address `addr`.
    ///
    /// # Safety
    /// `addr` is 0 or a tree that every engine it is handed to may read and
    /// write as the trees it builds (the FFI layer's engine: a block of
    /// `XAnimAllocTree` of the load in progress, with its header and
    /// `nodeCount` entries, that nothing else accesses while the registry
    /// uses it). An engine that never dereferences it (a test's) may take
    /// any number.
    pub const unsafe fn from_raw(addr: usize) -> Self {
        Self(addr)
    }

    /// The address as a number.
    pub const fn addr(self) -> usize {
        self.0
    }
}

/// Address of a 4-byte reference cell, opaque to the core; made only by the
/// `unsafe` [`CellAddr::from_raw`], so safe code cannot forge one:
///
/// ```compile_fail,E0133
/// let forged = uoanim::tree::registry::CellAddr::from_raw(0x1000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellAddr(usize);

impl CellAddr {
    /// No cell (the C NULL; never written).
    pub const NULL: Self = Self(0);

    /// The address `addr`.
    ///
    /// # Safety
    /// `addr` is 0 or 4 bytes (any alignment) that every engine it is handed
    /// to may write for as long as the registry keeps it queued (the FFI
    /// layer's engine: the reference cell in script code the engine handed
    /// over). An engine that never dereferences it (a test's) may take any
    /// number.
    pub const unsafe fn from_raw(addr: usize) -> Self {
        Self(addr)
    }

    /// The address as a number.
    pub const fn addr(self) -> usize {
        self.0
    }
}

impl Addr for TreeAddr {
    const NULL: Self = TreeAddr::NULL;
    fn number(self) -> usize {
        self.0
    }
}

impl Addr for CellAddr {
    const NULL: Self = CellAddr::NULL;
    fn number(self) -> usize {
        self.0
    }
}
