//! Animation-tree exports (engine and client units).

mod engine;
mod runtime;
mod xanim;
