//! Animation trees: the `.atr` parser, registry, references, pruning and the
//! compact XAnim tree.

pub mod module;
pub mod parse;
pub mod registry;
pub mod xanim;

#[cfg(test)]
mod tests;
