//! Player animation scripts (`mp/playeranim.script`): parser, two-pass
//! init and runtime (the tokenizer is the core's, `crate::lexis`).

pub mod engine;
pub mod finalize;
pub mod module;
pub mod runtime;
pub mod parser;
pub mod session;
pub mod tables;
