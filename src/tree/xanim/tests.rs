//! Unit tests of the compact tree (trees built in Rust memory).
