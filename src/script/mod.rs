//! Player animation scripts: tokenizer, parser and runtime.
