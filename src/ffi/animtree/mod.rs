//! Animation-tree exports (engine and client units).

mod engine;
mod runtime;
mod xanim;

pub(in crate::ffi) use runtime::names;
