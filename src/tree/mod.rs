//! Animation trees: the `.atr` parser, registry, references, pruning and the
//! compact XAnim tree.

pub mod xanim;
