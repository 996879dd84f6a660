//! Player animation scripts (`mp/playeranim.script`): tokenizer, parser,
//! two-pass init and runtime.

pub mod engine;
pub mod finalize;
pub mod module;
pub mod runtime;
pub mod parser;
pub mod session;
pub mod tables;
/// The crate's `Com_Parse` tokenizer, under the name the parser uses.
pub use crate::lexis as tokenizer;
