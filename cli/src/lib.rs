//! `uoanim check` and `uoanim explain`: the library's own parsers and
//! runtime (its safe Rust core) run over mod and game files.
//!
//! * [`input`] finds the files of a game or mod directory or archive
//!   ([`archive`]: `.pk3` / `.iwd`);
//! * [`script`] runs the engine's player-animation init over a script with
//!   the library's functions, resumes after each error, and cross-checks;
//! * [`trees`] loads `.atr` files through the library's tree registry;
//! * [`explain`] asks the library's runtime which block it picks;
//! * [`diag`] holds and prints the diagnostics.

pub mod archive;
pub mod diag;
pub mod explain;
pub mod input;
pub mod lsp;
pub mod script;
pub mod stock;
pub mod trees;
pub mod uri;

use diag::{Diagnostic, Severity};
use input::Inputs;
use std::collections::HashSet;

/// Every diagnostic code, with its default severity (docs/CHECK.md).
pub const CODES: &[(&str, Severity)] = &[
    ("load", Severity::Error),
    ("parse", Severity::Error),
    ("finalize", Severity::Error),
    ("pass2", Severity::Error),
    ("anim-not-in-tree", Severity::Error),
    ("atr", Severity::Error),
    ("atr-animcheck", Severity::Warning),
    ("no-tree", Severity::Warning),
    ("no-weapons", Severity::Note),
    ("weapon-limit", Severity::Warning),
    ("unused-define", Severity::Warning),
    ("unreachable-block", Severity::Warning),
    ("never-holds", Severity::Warning),
    ("replaced-block", Severity::Warning),
    ("and-union", Severity::Warning),
    ("minus", Severity::Warning),
    ("none-bit0", Severity::Warning),
    ("sound-file", Severity::Warning),
    ("missing-xanim", Severity::Warning),
];

/// The result of `check`.
pub struct Report {
    /// In file order.
    pub diags: Vec<Diagnostic>,
    /// The class of each weapon (weapon 1 first) where its file was read.
    pub classes: Vec<Option<usize>>,
    /// The script's module state after a clean init (for `explain`).
    pub world: Option<script::World>,
    pub obs: Option<script::Observed>,
}

impl Report {
    /// The first error the engine raises, if any.
    pub fn engine_first(&self) -> Option<&Diagnostic> {
        self.diags.iter().find(|d| d.engine_first)
    }

    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Checks everything found: the script (with the tree and weapons found)
/// and every tree. Codes in `allow` are left out (never the engine's first
/// error).
pub fn check(inputs: &Inputs, allow: &HashSet<String>) -> Report {
    // No weapon list found or given: the stock United Offensive names.
    let stock_weapons = inputs.weapons.is_none();
    let weapons: Vec<Vec<u8>> = match &inputs.weapons {
        Some(w) => w.clone(),
        None => stock::UO_MP_WEAPONS.iter().map(|w| w.as_bytes().to_vec()).collect(),
    };
    let class_names = script::table_names(&uoanim::script::tables::ANIM_WEAPON_CLASS_STR);
    let classes: Vec<Option<usize>> = weapons
        .iter()
        .map(|w| inputs.weapon_classes.get(&w.to_ascii_lowercase()).and_then(|c| class_names.iter().position(|n| n.eq_ignore_ascii_case(c))))
        .collect();
    let mp_tree = inputs.multiplayer_tree();
    let mut diags = Vec::new();
    let mut world = None;
    let mut obs = None;
    let mut registrations: Vec<Vec<u8>> = Vec::new();
    if let Some(s) = &inputs.script {
        let setup = script::Setup { weapons: &weapons, classes: &classes, tree: mp_tree, stock_weapons };
        let report = script::check_script(s, &setup, inputs.xanims.as_ref());
        diags.extend(report.diags);
        world = report.world;
        obs = report.obs;
        // The names pass 1 references (also when a later step fails).
        let first = script::init(&s.text, &script::Setup { weapons: &weapons, classes: &classes, tree: None, stock_weapons });
        registrations = first.obs.registrations.iter().map(|r| r.name.clone()).collect();
    }
    // The engine stops at the script's first error (the multiplayer tree
    // is loaded within the script's init); otherwise the first tree error.
    let script_has_engine_error = diags.iter().any(|d| d.engine_first);
    for tree in &inputs.trees {
        let mut refs: Vec<&[u8]> = Vec::new();
        if tree.name == "multiplayer" && inputs.script.is_some() {
            refs.extend([&b"root"[..], b"torso", b"legs", b"turning"]);
            refs.extend(registrations.iter().map(|r| r.as_slice()));
        }
        let mut found = trees::check_tree(tree, &refs);
        // The multiplayer tree's assets are checked on the tree the script
        // builds (pruned to its names); any other tree on all its leaves.
        if let Some(assets) = &inputs.xanims {
            if !(tree.name == "multiplayer" && inputs.script.is_some()) {
                found.extend(trees::missing_assets(tree, assets));
            }
        }
        if script_has_engine_error || diags.iter().any(|d| d.engine_first) {
            found.iter_mut().for_each(|d| d.engine_first = false);
        }
        diags.extend(found);
    }
    diag::sort(&mut diags, &inputs.file_order());
    diags.retain(|d| d.engine_first || !allow.contains(d.code));
    Report { diags, classes, world, obs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use input::SourceFile;

    fn script(text: &str, weapons: &[&str]) -> Report {
        let inputs = Inputs {
            script: Some(SourceFile { display: "t.script".into(), name: String::new(), text: text.as_bytes().to_vec() }),
            weapons: Some(weapons.iter().map(|w| w.as_bytes().to_vec()).collect()),
            ..Inputs::default()
        };
        check(&inputs, &HashSet::new())
    }

    fn codes(r: &Report) -> Vec<(u32, &'static str)> {
        r.diags.iter().map(|d| (d.line, d.code)).collect()
    }

    #[test]
    fn every_code_is_documented() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/CHECK.md")).unwrap();
        for (code, _) in CODES {
            assert!(doc.contains(&format!("#### `{code}`")), "docs/CHECK.md lacks a section for {code}");
        }
    }

    #[test]
    fn first_error_is_the_engines_and_later_ones_are_found_after_it() {
        let r = script(
            "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons nope_mp\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tweapons colt_mp\n\t\t{\n\t\t\tboth b\n\t\t}\n\t\tweapons also_nope\n\t\t{\n\t\t\tboth c\n\t\t}\n\t}\n}\n",
            &["colt_mp"],
        );
        let errors: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 2, "{:?}", r.diags);
        assert_eq!((errors[0].line, errors[0].col), (6, 11));
        assert!(errors[0].engine_first && !errors[1].engine_first);
        assert_eq!(errors[0].engine_text.as_deref(), Some(&b"\x15BG_IndexForString: unknown token 'nope_mp': (mp/playeranim.script, line 8)"[..]));
        assert_eq!(errors[1].line, 14);
        assert_eq!(errors[1].message, "BG_IndexForString: unknown token 'also_nope'");
        assert!(r.world.is_none(), "no module state for explain after errors");
    }

    #[test]
    fn a_clean_script_gives_the_module_state() {
        let r = script("ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth a\n\t\t}\n\t}\n}\n", &[]);
        assert!(!r.has_errors());
        let w = r.world.expect("clean init");
        assert_eq!(w.table.animations[3][1].count, 1);
        assert!(codes(&Report { diags: r.diags, classes: Vec::new(), world: None, obs: None }).contains(&(1, "no-weapons")));
    }

    #[test]
    fn replaced_and_unreachable_blocks() {
        let text = "EVENTS\npain\n{\n\tdefault\n\t{\n\t\tboth a\n\t}\n}\npain\n{\n\tdefault\n\t{\n\t\tboth b\n\t}\n\tweapons colt_mp\n\t{\n\t\tboth c\n\t}\n}\n";
        let r = script(text, &["colt_mp"]);
        let c = codes(&r);
        assert!(c.contains(&(4, "replaced-block")), "{c:?}");
        assert!(c.contains(&(15, "unreachable-block")), "{c:?}");
        assert!(!c.contains(&(11, "replaced-block")));
    }

    #[test]
    fn expression_traps() {
        let text = "DEFINES\nset movetype m = walk AND run MINUS walkbk AND runbk\nANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tmovetype none, weapons colt_mp AND none\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tmovetype m, weapons colt_mp MINUS colt_mp\n\t\t{\n\t\t\tboth a sound x.WAV\n\t\t}\n\t}\n}\n";
        let r = script(text, &["colt_mp"]);
        let c = codes(&r);
        for want in [(2, "and-union"), (2, "minus"), (2, "never-holds"), (8, "none-bit0"), (12, "never-holds"), (14, "sound-file")] {
            assert!(c.contains(&want), "{want:?} missing in {c:?}");
        }
        assert_eq!(c.iter().filter(|x| x.1 == "and-union").count(), 1, "said once per file");
        // `none` is a weapon: no warning on the WEAPONS condition.
        assert_eq!(c.iter().filter(|x| x.1 == "none-bit0").count(), 1);
        assert!(!c.iter().any(|x| x.1 == "unused-define"));
    }

    #[test]
    fn pass2_errors_have_no_path() {
        let r = script("ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth root\n\t\t}\n\t}\n}\n", &[]);
        let d = r.engine_first().expect("an error");
        assert_eq!(d.code, "pass2");
        assert_eq!(d.engine_text.as_deref(), Some(&b"\x15BG_AnimationIndexForString: unknown player animation 'root'"[..]));
        assert_eq!((d.line, d.col), (8, 9));
    }

    #[test]
    fn an_error_in_the_multiplayer_tree_is_the_engines_first_and_is_said_once() {
        let inputs = Inputs {
            script: Some(SourceFile {
                display: "t.script".into(),
                name: String::new(),
                text: b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth b_one\n\t\t}\n\t}\n}\n".to_vec(),
            }),
            trees: vec![SourceFile { display: "multiplayer.atr".into(), name: "multiplayer".into(), text: b"torso\nlegs\nturning extra\nb_one\n".to_vec() }],
            weapons: Some(Vec::new()),
            ..Inputs::default()
        };
        let r = check(&inputs, &HashSet::new());
        let errors: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!((errors[0].file.as_str(), errors[0].line, errors[0].col), ("multiplayer.atr", 3, 9));
        assert_eq!(errors[0].engine_text.as_deref(), Some(&b"FIXME: aliases not yet implemented"[..]));
        assert!(errors[0].engine_first);
    }

    #[test]
    fn other_dialects_get_the_united_offensive_error() {
        // Enemy Territory: a condition United Offensive does not have.
        let et = "ANIMATIONS\nstate ALERT\n{\n\tidle\n\t{\n\t\tweapons knife, leaning left\n\t\t{\n\t\t\tlegs legs_idle_alert\n\t\t}\n\t}\n}\n";
        let d = script(et, &["knife"]).engine_first().cloned().expect("an error");
        assert_eq!(d.message, "BG_IndexForString: unknown token 'leaning'");
        assert_eq!((d.line, d.col), (6, 18));
        // Call of Duty 2: playerAnimType conditions.
        let cod2 = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tplayerAnimType rifle\n\t\t{\n\t\t\tboth pb_idle\n\t\t}\n\t}\n}\n";
        let d = script(cod2, &[]).engine_first().cloned().expect("an error");
        assert_eq!(d.message, "BG_IndexForString: unknown token 'playerAnimType'");
        assert!(d.note.as_deref().is_some_and(|n| n.contains("Call of Duty 2")));
    }

    fn rendered(d: &Diagnostic, text: &[u8], how: diag::Render) -> String {
        let mut out = Vec::new();
        diag::render_text(d, Some(text), how, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_snippet_underlines_the_token() {
        let text = b"a\n\tweapons bogus_mp\n";
        let d = Diagnostic::at("f", text, 11, 8, Severity::Error, "parse", "m".into()).with_note("n");
        let plain = diag::Render { snippet: true, colour: false };
        // The tab is one column of the header, four spaces in the snippet.
        assert_eq!(rendered(&d, text, plain), "f:2:10: error[parse]: m\n  |\n2 |     weapons bogus_mp\n  |             ^^^^^^^^\n  |\n  = note: n\n\n");
        let short = rendered(&d, text, diag::Render::default());
        assert_eq!(short, "f:2:10: error[parse]: m\n    = note: n\n");
        let colour = rendered(&d, text, diag::Render { snippet: true, colour: true });
        assert!(colour.starts_with("f:2:10: \x1b[1;31merror[parse]\x1b[0m: m\n"), "{colour:?}");
        assert!(colour.contains("\x1b["), "{colour:?}");
    }

    #[test]
    fn columns_count_characters_after_tabs_and_bytes_that_are_not_utf8() {
        // A Latin-1 'é' (one invalid byte), a UTF-8 'é' (two bytes), a tab.
        let text = b"// caf\xe9 caf\xc3\xa9\n\t\xe9\xe8x\xc3\xa9\tweapons bogus_mp\n";
        let pos = text.windows(8).position(|w| w == b"bogus_mp").unwrap();
        let d = Diagnostic::at("f", text, pos, 8, Severity::Warning, "parse", "m".into());
        assert_eq!((d.line, d.col, d.len), (2, 16, 8), "bytes");
        assert_eq!((d.char_col, d.char_len), (15, 8), "characters: tab, two lone bytes, x, UTF-8 'é', tab, 'weapons '");
        let out = rendered(&d, text, diag::Render { snippet: true, colour: false });
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "f:2:15: warning[parse]: m");
        assert_eq!(lines[2], "2 |     \u{fffd}\u{fffd}x\u{e9}    weapons bogus_mp");
        // The caret is under the token's first character.
        let caret = lines[3].find('^').unwrap();
        assert_eq!(lines[2].chars().count() - "bogus_mp".len(), lines[3][..caret].chars().count());
        assert_eq!(diag::char_columns(text, 11, 2), (12, 1), "a UTF-8 'é' is one character");
        assert_eq!(diag::char_columns(b"", 0, 0), (1, 1));
    }

    #[test]
    fn without_a_weapon_list_the_stock_names_are_assumed_with_a_note() {
        let text = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons kar98k_mp, weaponclass rifle\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tweapons nope_mp\n\t\t{\n\t\t\tboth b\n\t\t}\n\t}\n}\n";
        let inputs = Inputs {
            script: Some(SourceFile { display: "t.script".into(), name: String::new(), text: text.as_bytes().to_vec() }),
            ..Inputs::default()
        };
        let r = check(&inputs, &HashSet::new());
        let note = r.diags.iter().find(|d| d.code == "no-weapons").expect("the note");
        assert_eq!(note.severity, Severity::Note);
        assert!(note.message.contains("63 stock United Offensive"), "{}", note.message);
        let errors: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].message, "BG_IndexForString: unknown token 'nope_mp'");
        assert_eq!(stock::UO_MP_WEAPONS.len(), 63);
        assert!(stock::UO_MP_WEAPONS.windows(2).all(|w| w[0] < w[1]), "name order");
    }

    #[test]
    fn many_weapons_are_flagged() {
        let names: Vec<String> = (0..70).map(|i| format!("w{i}")).collect();
        let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let r = script("ANIMATIONS\n", &refs);
        assert!(codes(&r).contains(&(1, "weapon-limit")));
    }

    #[test]
    fn an_empty_script_does_not_load() {
        let d = script("", &[]).engine_first().cloned().expect("an error");
        assert_eq!(d.code, "load");
        assert_eq!(d.engine_text.as_deref(), Some(&b"\x15Couldn't load player animation script mp/playeranim.script\n"[..]));
    }

    #[test]
    fn the_tree_check_names_the_undefined_animation_and_the_engine_one() {
        let inputs = Inputs {
            script: Some(SourceFile {
                display: "t.script".into(),
                name: String::new(),
                text: b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth b_one\n\t\t}\n\t}\n\twalk\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth b_two\n\t\t}\n\t}\n}\n".to_vec(),
            }),
            trees: vec![SourceFile { display: "multiplayer.atr".into(), name: "multiplayer".into(), text: b"torso\nlegs\nturning\nb_one\n".to_vec() }],
            weapons: Some(Vec::new()),
            ..Inputs::default()
        };
        let r = check(&inputs, &HashSet::new());
        let e: Vec<_> = r.diags.iter().filter(|d| d.code == "anim-not-in-tree").collect();
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].line, e[0].col), (15, 9));
        assert!(e[0].engine_first);
    }
}

#[cfg(test)]
mod archive_tests {
    use super::*;

    #[test]
    fn archives_are_layered_over_loose_files_in_name_order() {
        let dir = std::env::temp_dir().join(format!("uoanim-cli-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("mp")).unwrap();
        std::fs::write(dir.join("mp/playeranim.script"), "this is not read\n").unwrap();
        let script = b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons w_b\n\t\t{\n\t\t\tboth a\n\t\t}\n\t}\n}\n";
        let first = archive::build_zip(&[("mp/playeranim.script", b"bad\n", false), ("weapons/mp/w_a", b"", false)]);
        let second = archive::build_zip(&[("mp/playeranim.script", script, true), ("weapons/mp/w_b", b"", false), ("xanim/a", b"", false)]);
        std::fs::write(dir.join("z_second.pk3"), second).unwrap();
        std::fs::write(dir.join("a_first.PK3"), first).unwrap();
        let mut inputs = Inputs::default();
        inputs.add_path(&dir).unwrap();
        let s = inputs.script.as_ref().unwrap();
        // The member's path as the tool prints paths (on Windows with '\\' only).
        assert!(s.display.ends_with(&input::display_path(std::path::Path::new("z_second.pk3/mp/playeranim.script"))), "{}", s.display);
        assert_eq!(s.text, script);
        assert_eq!(inputs.weapons.as_deref(), Some(&[b"w_a".to_vec(), b"w_b".to_vec()][..]));
        assert!(inputs.xanims.as_ref().unwrap().contains(&b"a"[..]));
        let r = check(&inputs, &HashSet::new());
        assert!(!r.has_errors(), "{:?}", r.diags);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(test)]
mod weapon_file_tests {
    use crate::input::weapon_class;

    #[test]
    fn weapon_class_of_a_weapon_file() {
        assert_eq!(weapon_class(b"WEAPONFILE\\displayName\\X\\weaponclass\\Rifle \\weaponSlot\\primary"), Some(b"rifle".to_vec()));
        assert_eq!(weapon_class(b"WEAPONFILE\\weaponClass"), None);
        assert_eq!(weapon_class(b"weaponClass\\rifle"), None);
    }
}
