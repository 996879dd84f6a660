//! Compiles the C harness of the flavour the features select (the engine
//! side of the targets: imports of the units, Com_Error with longjmp).
fn main() {
    let has = |f: &str| std::env::var_os(format!("CARGO_FEATURE_{}", f.to_uppercase())).is_some();
    let (files, define): (&[&str], &str) = if has("game") {
        (&["harness/playeranim.c", "harness/action.c"], "UOANIM_FLAVOUR_GAME")
    } else if has("cgame") {
        (&["harness/playeranim.c", "harness/action.c"], "UOANIM_FLAVOUR_CGAME")
    } else if has("engine") {
        (&["harness/animtree.c"], "UOANIM_FLAVOUR_ENGINE")
    } else if has("client") {
        (&["harness/animtree.c"], "UOANIM_FLAVOUR_CLIENT")
    } else {
        panic!("build the fuzz targets with one of the features game, cgame, engine, client");
    };
    let mut build = cc::Build::new();
    build.std("gnu11").define(define, None).include("../include").include("harness").flag("-fno-short-enums");
    build.flag_if_supported("-Wno-clobbered");
    for f in files {
        build.file(f);
        println!("cargo:rerun-if-changed={f}");
    }
    println!("cargo:rerun-if-changed=harness/common.h");
    build.compile("uoanim_fuzz_harness");
}
