//! The C side of the layout asserts, from `cargo test`: compiles
//! `c_tests/layout.c` (`_Static_assert` of every size and offset) against the
//! committed headers for the architecture the tests are built for, so
//! `cargo test --target i686-unknown-linux-gnu` checks the i386 layouts and a
//! plain `cargo test` the x86_64 ones. (`make test` also compiles it for both
//! arches with `c_tests/run.sh`.)
//!
//! A Windows test program runs under Wine, where it cannot start the Linux
//! C compiler, so the Windows targets have this check from `c_tests/run.sh`
//! alone, which compiles `layout.c` with the mingw-w64 compilers.
#![cfg(not(windows))]

use std::path::PathBuf;

fn target() -> &'static str {
    if cfg!(target_pointer_width = "32") {
        "i686-unknown-linux-gnu"
    } else {
        "x86_64-unknown-linux-gnu"
    }
}

#[test]
fn generated_headers_have_the_c_layouts() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("uoanim-c-layout-{}-{}", target(), std::process::id()));
    std::fs::create_dir_all(&out).expect("temporary directory");
    let result = cc::Build::new()
        .target(target())
        .host("x86_64-unknown-linux-gnu")
        .opt_level(0)
        .debug(false)
        .cargo_metadata(false)
        .out_dir(&out)
        .std("gnu11")
        .include(root.join("include"))
        .flag("-Wall")
        .flag("-Wextra")
        .flag("-Werror")
        .flag("-fno-short-enums")
        .file(root.join("c_tests/layout.c"))
        .try_compile("uoanim_layout");
    let _ = std::fs::remove_dir_all(&out);
    if let Err(error) = result {
        panic!("c_tests/layout.c does not compile for {}: {error}", target());
    }
}
