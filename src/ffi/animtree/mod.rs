//! Animation-tree exports (engine and client units).

mod xanim;
