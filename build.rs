//! Generates the C headers of the link units with cbindgen.
//!
//! Each header is generated from the files that define its part of the ABI
//! (the `#[repr(C)]` mirrors and the exports), so a unit's header names only
//! what that unit defines. The headers go to `$OUT_DIR/include` and, when
//! `UOANIM_HEADER_DIR` is set (the Makefile sets it), to that directory too;
//! the committed copies under `include/` are compared with them by
//! `make test`.

use std::env;
use std::path::{Path, PathBuf};

struct Header {
    file: &'static str,
    guard: &'static str,
    sources: &'static [&'static str],
    /// Cargo feature → C macro, for flavour-dependent declarations.
    defines: &'static [(&'static str, &'static str)],
    /// Project headers it includes (`#include "..."`).
    includes: &'static [&'static str],
    trailer: &'static str,
}

const HEADERS: &[Header] = &[
    Header {
        file: "uoanim_common.h",
        guard: "UOANIM_COMMON_H",
        sources: &["src/abi/common.rs"],
        defines: &[],
        includes: &[],
        trailer: "",
    },
    Header {
        file: "uoanim_playeranim.h",
        guard: "UOANIM_PLAYERANIM_H",
        sources: &["src/abi/bg.rs", "src/ffi/playeranim"],
        defines: &[("feature = cgame", "UOANIM_FLAVOUR_CGAME"), ("feature = game", "UOANIM_FLAVOUR_GAME")],
        includes: &["uoanim_common.h"],
        trailer: "",
    },
    Header {
        file: "uoanim_animtree.h",
        guard: "UOANIM_ANIMTREE_H",
        sources: &["src/abi/xanim.rs", "src/ffi/animtree"],
        defines: &[("feature = client", "UOANIM_FLAVOUR_CLIENT"), ("feature = engine", "UOANIM_FLAVOUR_ENGINE")],
        includes: &["uoanim_common.h"],
        trailer: ANIMTREE_TRAILER,
    },
    Header {
        file: "uoanim_action.h",
        guard: "UOANIM_ACTION_H",
        sources: &["src/ffi/action.rs"],
        defines: &[],
        includes: &[],
        trailer: "",
    },
];

/// Declarations cbindgen cannot derive from Rust (x87 `long double`).
const ANIMTREE_TRAILER: &str = "
#ifndef UOANIM_ANIMTREE_LENGTH_H
#define UOANIM_ANIMTREE_LENGTH_H
/* XAnimGetLength is written in assembly (the x87 result has no Rust type):
 * the engine unit returns the 80-bit extended value in st(0), the client
 * unit a double (st(0) on i386, xmm0 on x86_64). */
#if defined(UOANIM_FLAVOUR_CLIENT)
typedef double uoanim_xanim_length_t;
#else
typedef long double uoanim_xanim_length_t;
#endif
#ifdef __cplusplus
extern \"C\"
#endif
uoanim_xanim_length_t XAnimGetLength(XAnim *tree, int32_t animIndex);
#endif
";

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=UOANIM_HEADER_DIR");
    let mut outputs = vec![PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("include")];
    if let Ok(dir) = env::var("UOANIM_HEADER_DIR") {
        outputs.push(PathBuf::from(dir));
    }
    for header in HEADERS {
        for path in source_files(&root, header) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let text = generate(&root, header);
        for dir in &outputs {
            std::fs::create_dir_all(dir).expect("create header directory");
            write_if_changed(&dir.join(header.file), &text);
        }
    }
}

fn generate(root: &Path, header: &Header) -> String {
    let mut config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    config.include_guard = Some(header.guard.to_string());
    config.includes.extend(header.includes.iter().map(|s| s.to_string()));
    for (cfg, define) in header.defines {
        config.defines.insert(cfg.to_string(), define.to_string());
    }
    if !header.trailer.is_empty() {
        config.trailer = Some(header.trailer.to_string());
    }
    // Every mirror type of the header's sources is emitted, also those no
    // export names (the C tests assert their layouts).
    for path in source_files(root, header) {
        config.export.include.extend(declared_types(&path));
    }
    let mut builder = cbindgen::Builder::new().with_config(config);
    for path in source_files(root, header) {
        builder = builder.with_src(path);
    }
    let mut bytes = Vec::new();
    builder
        .generate()
        .unwrap_or_else(|e| panic!("cbindgen failed for {}: {e}", header.file))
        .write(&mut bytes);
    String::from_utf8(bytes).expect("cbindgen wrote UTF-8")
}

/// The header's source files: listed files, and every `.rs` file (sorted) of
/// a listed directory.
fn source_files(root: &Path, header: &Header) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for source in header.sources {
        let path = root.join(source);
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&path)
                .expect("read source directory")
                .map(|e| e.expect("directory entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                .collect();
            entries.sort();
            files.extend(entries);
        } else if path.exists() {
            files.push(path);
        }
    }
    files
}

/// Names of the `pub struct` / `pub union` / `pub type` items of a source file.
fn declared_types(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            ["pub struct ", "pub union ", "pub type "].iter().find_map(|kw| line.strip_prefix(kw))
        })
        .filter_map(|rest| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).map(|old| old == text).unwrap_or(false) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}
