//! Build configuration of the library: which exports a build holds and
//! which platform rules its arithmetic follows, as `cfg`s the sources test.
//!
//! * `parse_exports` / `frame_exports`: a player-animation unit's archive
//!   has two members on ELF and PE/COFF targets (the crate without and with
//!   the `frame` feature: docs/ABI.md, "Link units"); the Mach-O archive is
//!   one member holding both, so that the crate's own internal symbols are
//!   defined once there (no Mach-O relocatable link localises them).
//! * `darwin_rules`: the engine's macOS arm64 build rules (the
//!   aarch64-apple-darwin target, or the `darwin` feature: the same rules
//!   on aarch64 Linux, for the judge under qemu). See src/ffi/floats.rs.
//! * `apple_variadic`: Apple's arm64 variadic convention (arguments on the
//!   stack) for the C entry of `BG_AnimParseError` (src/ffi/varargs.rs).

fn main() {
    for cfg in ["parse_exports", "frame_exports", "darwin_rules", "apple_variadic"] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{}", name.to_uppercase().replace('-', "_"))).is_some();
    let apple = std::env::var("CARGO_CFG_TARGET_VENDOR").is_ok_and(|v| v == "apple");
    let frame = feature("frame");
    if !frame || apple {
        println!("cargo::rustc-cfg=parse_exports");
    }
    if frame || apple {
        println!("cargo::rustc-cfg=frame_exports");
    }
    if apple || feature("darwin") {
        println!("cargo::rustc-cfg=darwin_rules");
    }
    if apple || feature("apple-variadic") {
        println!("cargo::rustc-cfg=apple_variadic");
    }
}
