//! Runtime exports of the player animation-script module.
