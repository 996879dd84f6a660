//! The one place where a link unit's flavour is chosen.
//!
//! A shipped library is built with exactly one Cargo feature:
//!
//! | feature  | link unit                | core            | behaviour |
//! |----------|--------------------------|-----------------|-----------|
//! | `game`   | `libuoanim_game`         | player anim     | Linux     |
//! | `cgame`  | `libuoanim_cgame`        | player anim     | Windows   |
//! | `engine` | `libuoanim_engine`       | animation trees | Linux     |
//! | `client` | `libuoanim_client`       | animation trees | Windows   |
//!
//! Behaviour differences of the C original (x87 arithmetic, `atoi`, random
//! range, return types) are expressed in the core as a [`Behaviour`] value so
//! that both can be tested without an engine; the FFI layer passes
//! [`BEHAVIOUR`].

/// Which platform behaviour of the C original a unit reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// `LINUX_BEHAVIOR`: the game module and the dedicated server.
    Linux,
    /// `WINDOWS_BEHAVIOR`: the cgame module and the client executable.
    Windows,
}

#[cfg(any(
    all(feature = "game", any(feature = "cgame", feature = "engine", feature = "client")),
    all(feature = "cgame", any(feature = "engine", feature = "client")),
    all(feature = "engine", feature = "client"),
))]
compile_error!("enable at most one flavour feature: game, cgame, engine or client");

/// The behaviour of the unit being built (Linux when no unit is selected,
/// which only happens for `cargo test` of the safe core).
#[cfg(any(feature = "cgame", feature = "client"))]
pub const BEHAVIOUR: Behaviour = Behaviour::Windows;
#[cfg(not(any(feature = "cgame", feature = "client")))]
pub const BEHAVIOUR: Behaviour = Behaviour::Linux;

/// Name of the unit being built, for diagnostics and tests.
pub const UNIT: &str = if cfg!(feature = "game") {
    "game"
} else if cfg!(feature = "cgame") {
    "cgame"
} else if cfg!(feature = "engine") {
    "engine"
} else if cfg!(feature = "client") {
    "client"
} else {
    "core"
};
