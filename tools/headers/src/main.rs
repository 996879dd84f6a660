//! `uoanim-headers ROOT OUTDIR`: generates the C headers of the link units
//! with cbindgen, from the library's sources under ROOT, into OUTDIR.
//!
//! Each header is generated from the files that define its part of the ABI
//! (the `#[repr(C)]` mirrors and the exports), so a unit's header names only
//! what that unit defines. A tool of its own (a workspace member), run by the
//! Makefile: `make headers` writes `include/`, and `make test-headers`
//! generates into `build/include/` and fails when the committed `include/`
//! differs. Building the library or the CLI does not build cbindgen.

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
    /// C declarations of the unit's data symbols (without `extern` and `;`).
    data: &'static [&'static str],
    /// Whether the header's types are the engine's (hidden under
    /// `UOANIM_ENGINE_TYPES`), and which of them are the library's own (kept).
    engine_types: bool,
    own_types: &'static [&'static str],
}

const HEADERS: &[Header] = &[
    Header {
        file: "uoanim_common.h",
        guard: "UOANIM_COMMON_H",
        sources: &["core/src/abi/common.rs", "src/abi/common.rs"],
        defines: &[],
        includes: &[],
        trailer: "",
        data: &[],
        engine_types: true,
        own_types: &[],
    },
    Header {
        file: "uoanim_playeranim.h",
        guard: "UOANIM_PLAYERANIM_H",
        sources: &["core/src/abi/bg.rs", "src/abi/bg.rs", "core/src/abi/player.rs", "src/ffi/playeranim"],
        defines: &[("feature = cgame", "UOANIM_FLAVOUR_CGAME"), ("feature = game", "UOANIM_FLAVOUR_GAME"), ("feature = game_windows", "UOANIM_FLAVOUR_GAME_WINDOWS")],
        includes: &["uoanim_common.h"],
        trailer: PLAYERANIM_TRAILER,
        data: PLAYERANIM_DATA,
        engine_types: true,
        own_types: &[],
    },
    Header {
        file: "uoanim_animtree.h",
        guard: "UOANIM_ANIMTREE_H",
        sources: &["src/abi/xanim.rs", "src/ffi/animtree"],
        defines: &[("feature = client", "UOANIM_FLAVOUR_CLIENT"), ("feature = engine", "UOANIM_FLAVOUR_ENGINE")],
        includes: &["uoanim_common.h"],
        trailer: ANIMTREE_TRAILER,
        data: ANIMTREE_DATA,
        engine_types: true,
        own_types: &["xanim_runtime_tree_copy_t"],
    },
    Header {
        file: "uoanim_action.h",
        guard: "UOANIM_ACTION_H",
        sources: &["src/ffi/action.rs"],
        defines: &[],
        includes: &[],
        trailer: ACTION_TRAILER,
        data: &[],
        engine_types: false,
        own_types: &[],
    },
];

/// The C declarations of the player-animation module's data symbols, from
/// the list of its globals that the crate includes too (this tool's own
/// `player_anim_globals!`: the Rust types and values are not looked at).
macro_rules! player_anim_globals {
    (
        tables { $($(#[$tdoc:meta])* $tvis:vis $tname:ident as $tfield:ident: $tty:ty = $tinit:expr => $tc:literal;)* }
        types { $($(#[$ydoc:meta])* $yname:ident: $yty:ty = $yinit:expr => $yc:literal;)* }
        defines { $($(#[$ddoc:meta])* $dvis:vis $dname:ident as $dfield:ident: $dty:ty = $dinit:expr => $dc:literal;)* }
        script { $($(#[$sdoc:meta])* $svis:vis $sname:ident as $sfield:ident: $sty:ty = $sinit:expr => $sc:literal;)* }
        private { $($(#[$pdoc:meta])* $pvis:vis $pname:ident as $pfield:ident: $pty:ty = $pinit:expr;)* }
        zeroed { $($(#[$zdoc:meta])* $zvis:vis $zname:ident as $zfield:ident: $zty:ty;)* }
    ) => {
        &[$($tc,)* $($yc,)* $($dc,)* $($sc,)*]
    };
}
const PLAYERANIM_DATA: &[&str] = include!("../../../src/script/globals.rs");

/// The same for the engine-owned data symbols the animation-tree module
/// imports.
macro_rules! animtree_globals {
    ($($(#[$doc:meta])* $name:ident: $ty:ty => $c:literal;)*) => {
        &[$($c),*]
    };
}
const ANIMTREE_DATA: &[&str] = include!("../../../src/ffi/animtree/globals.rs");

/// The action types as the C API spells them: an anonymous enum (the Rust
/// constants of `src/ffi/action.rs` carry the same values).
const ACTION_TRAILER: &str = "
#ifndef UOANIM_ACTION_TYPES_H
#define UOANIM_ACTION_TYPES_H
/* Types of action animation. */
enum { UOANIM_ACTION_ROOT = 0, UOANIM_ACTION_MOVE = 1, UOANIM_ACTION_JUMP = 2,
       UOANIM_ACTION_FALL = 3, UOANIM_ACTION_LAND = 4, UOANIM_ACTION_OTHER = 5 };
#endif
";

/// Declarations cbindgen cannot derive from Rust (a C-variadic export).
const PLAYERANIM_TRAILER: &str = "
#ifndef UOANIM_PLAYERANIM_VARIADIC_H
#define UOANIM_PLAYERANIM_VARIADIC_H
/* BG_AnimParseError is an assembly trampoline (stable Rust cannot define a
 * C-variadic function). */
#ifdef __cplusplus
extern \"C\"
#endif
void BG_AnimParseError(const char *format, ...);
#endif
";

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
    let args: Vec<String> = env::args().collect();
    let [_, root, out] = &args[..] else {
        eprintln!("usage: uoanim-headers ROOT OUTDIR");
        std::process::exit(2);
    };
    let (root, out) = (PathBuf::from(root), PathBuf::from(out));
    std::fs::create_dir_all(&out).expect("create header directory");
    for header in HEADERS {
        let text = generate(&root, header);
        write_if_changed(&out.join(header.file), &text);
    }
}

fn generate(root: &Path, header: &Header) -> String {
    let mut config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    config.include_guard = Some(header.guard.to_string());
    config.includes.extend(header.includes.iter().map(|s| s.to_string()));
    for (cfg, define) in header.defines {
        config.defines.insert(cfg.to_string(), define.to_string());
    }
    let mut trailer = data_symbol_declarations(header);
    trailer.push_str(header.trailer);
    if !trailer.is_empty() {
        config.trailer = Some(trailer);
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
    let text = String::from_utf8(bytes).expect("cbindgen wrote UTF-8");
    if header.engine_types {
        engine_types_option(&text, header)
    } else {
        text
    }
}

/// The `UOANIM_ENGINE_TYPES` option: the header's mirrors of engine types (and
/// its constants) are compiled only when the macro is not defined, so that a C
/// file that includes the engine's own headers first can define it and get
/// only the library's functions and data, declared with the engine's types.
/// The library's own types (`own_types`) stay.
fn engine_types_option(text: &str, header: &Header) -> String {
    const FUNCTIONS: &str = "#ifdef __cplusplus\nextern \"C\" {";
    let forward_end = "typedef struct XAnim XAnim;\n#endif\n";
    let start = text.find(forward_end).map(|i| i + forward_end.len()).expect("the XAnim forward declaration");
    // the types end where the functions begin, or (a header of types only)
    // at the include guard's #endif
    let guard_end = format!("#endif  /* {} */", header.guard);
    let Some(end) = text[start..].find(FUNCTIONS).map(|i| i + start).or_else(|| text.rfind(&guard_end)) else {
        return text.to_string();
    };
    let mut engine = String::new();
    let mut own = String::new();
    for block in text[start..end].split("\n\n") {
        if block.trim().is_empty() {
            continue;
        }
        let is_own = header.own_types.iter().any(|name| {
            block.contains(&format!("}} {name};")) || block.contains(&format!("(*{name})")) || block.contains(&format!(" {name};"))
        });
        let target = if is_own { &mut own } else { &mut engine };
        target.push_str(block.trim_matches('\n'));
        target.push_str("\n\n");
    }
    // the declarations name the types by their typedef names, which the
    // engine's headers define too (their struct tags differ)
    let mut rest = text[end..].to_string();
    for block in engine.split("\n\n") {
        if let Some(name) = block.trim_end().strip_suffix(';').and_then(|b| b.rsplit("} ").next()) {
            if !name.contains(char::is_whitespace) {
                rest = rest.replace(&format!("struct {name} "), &format!("{name} "));
                rest = rest.replace(&format!("union {name} "), &format!("{name} "));
            }
        }
    }
    format!(
        "{}\n#if !defined(UOANIM_ENGINE_TYPES)\n/* The engine's types and constants (leave them out by defining\n   UOANIM_ENGINE_TYPES after including the engine's own headers). */\n\n{}#endif /* !UOANIM_ENGINE_TYPES */\n\n{}{}",
        &text[..start],
        engine,
        own,
        rest
    )
}

/// The header's source files: listed files, and for a listed directory its
/// `mod.rs` (cbindgen follows the `mod` items from there).
fn source_files(root: &Path, header: &Header) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for source in header.sources {
        let path = root.join(source);
        if path.is_dir() {
            files.push(path.join("mod.rs"));
        } else if path.exists() {
            files.push(path);
        }
    }
    files
}

/// C declarations of the header's data symbols (`ModuleCell` statics,
/// which cbindgen cannot express).
fn data_symbol_declarations(header: &Header) -> String {
    if header.data.is_empty() {
        return String::new();
    }
    let lines: Vec<String> = header.data.iter().map(|c| format!("extern {c};")).collect();
    format!(
        "\n#ifndef {g}_DATA\n#define {g}_DATA\n/* Data symbols, under their C names (docs/ABI.md: which the unit defines, which it imports). */\n\
         #ifdef __cplusplus\nextern \"C\" {{\n#endif\n{}\n#ifdef __cplusplus\n}}\n#endif\n#endif\n",
        lines.join("\n"),
        g = header.guard
    )
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
