//! The one place where a link unit's flavour is chosen.
//!
//! A shipped library is built with exactly one Cargo feature:
//!
//! | feature  | link unit                | core            | behaviour |
//! |----------|--------------------------|-----------------|-----------|
//! | `game`   | `libuoanim_game`         | player anim     | Linux     |
//! | `cgame`  | `libuoanim_cgame`        | player anim     | Windows   |
//! | `game_windows` | `libuoanim_game_windows` | player anim | Windows   |
//! | `engine` | `libuoanim_engine`       | animation trees | Linux     |
//! | `client` | `libuoanim_client`       | animation trees | Windows   |
//!
//! `game_windows` is the game module as the engine's Windows client packages
//! build it (`CODUO_BEHAVIOR=windows`, `-DWINDOWS_BEHAVIOR`): the game
//! flavour's imports, with `G_Error` for the errors the Windows game
//! bindings and the parser raise, `coduo_crt_randrange` and the
//! pointer-returning `Scr_FindAnimTree`; otherwise the cgame's behaviour.
//!
//! Behaviour differences of the C original (x87 arithmetic, `atoi`, random
//! range, return types) are expressed in the core as a [`Behaviour`] value so
//! that both can be tested without an engine; the FFI layer passes
//! [`BEHAVIOUR`]. The target adds one more choice, its C library
//! ([`C_LIBRARY`]): each of the four units is built for x86_64 and i686,
//! Linux and Windows, and on Windows the game flavour's `atoi` is msvcrt's.

pub use uoanim_core::Behaviour;

#[cfg(any(
    all(feature = "game", any(feature = "cgame", feature = "game_windows", feature = "engine", feature = "client")),
    all(feature = "cgame", any(feature = "game_windows", feature = "engine", feature = "client")),
    all(feature = "game_windows", any(feature = "engine", feature = "client")),
    all(feature = "engine", feature = "client"),
))]
compile_error!("enable at most one flavour feature: game, cgame, game_windows, engine or client");

/// The C library of a target, where its behaviour shows through the C
/// original (the game flavour's `atoi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CLibrary {
    /// glibc: the Linux targets.
    Glibc,
    /// msvcrt.dll: the mingw-w64 Windows targets.
    Msvcrt,
}

/// The C library of the target being built for.
#[cfg(windows)]
pub const C_LIBRARY: CLibrary = CLibrary::Msvcrt;
#[cfg(not(windows))]
pub const C_LIBRARY: CLibrary = CLibrary::Glibc;

/// The behaviour of the unit being built (Linux when no unit is selected,
/// which only happens for `cargo test` of the safe core).
#[cfg(any(feature = "cgame", feature = "game_windows", feature = "client"))]
pub const BEHAVIOUR: Behaviour = Behaviour::Windows;
#[cfg(not(any(feature = "cgame", feature = "game_windows", feature = "client")))]
pub const BEHAVIOUR: Behaviour = Behaviour::Linux;

/// Name of the unit being built, for diagnostics and tests.
pub const UNIT: &str = if cfg!(feature = "game") {
    "game"
} else if cfg!(feature = "cgame") {
    "cgame"
} else if cfg!(feature = "game_windows") {
    "game_windows"
} else if cfg!(feature = "engine") {
    "engine"
} else if cfg!(feature = "client") {
    "client"
} else {
    "core"
};
