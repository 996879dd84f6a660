//! Animation trees: the registry, references, pruning and the compact
//! XAnim tree, over the core's `.atr` parser (`parse`).

pub mod module;
pub use uoanim_core::atr as parse;
pub mod registry;
pub mod xanim;
