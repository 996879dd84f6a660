//! Player animation scripts (`mp/playeranim.script`): tokenizer, parser,
//! two-pass init and runtime.

pub mod engine;
pub mod finalize;
pub mod runtime;
pub mod parser;
pub mod tables;
pub mod tokenizer;
