//! `uoanim check` and `uoanim explain`: the library's own parsers and
//! runtime (its safe Rust core) run over mod and game files.
//!
//! * [`input`] finds the files of a mod and of the game's folder as the
//!   game's file system layers them ([`archive`]: `.pk3` / `.iwd`);
//! * [`stock`] holds the stock names built in (weapons and their classes,
//!   the multiplayer tree) for a mod checked without the game's files;
//! * [`script`] runs the engine's player-animation init over a script with
//!   the library's functions, resumes after each error, and cross-checks;
//! * [`trees`] loads `.atr` files through the library's tree registry;
//! * [`explain`] asks the library's runtime which block it picks;
//! * [`diag`] holds and prints the diagnostics.
//!
//! The tool is safe code: the units' crate and the core give it safe
//! interfaces only (an engine of the tool's own, whose tree and cell
//! addresses are plain numbers; a module that owns its globals).
#![forbid(unsafe_code)]

pub mod archive;
pub mod diag;
pub mod explain;
pub mod input;
pub mod lsp;
pub mod script;
pub mod stock;
pub mod suggest;
pub mod trees;
pub mod uri;

use diag::{Diagnostic, Severity};
use input::{Inputs, SourceFile, WeaponList};
use std::collections::HashSet;
use uoanim_core::literals::Literal;

/// Every diagnostic code, with its default severity (docs/CHECK.md).
pub const CODES: &[(&str, Severity)] = &[
    ("load", Severity::Error),
    ("parse", Severity::Error),
    ("finalize", Severity::Error),
    ("pass2", Severity::Error),
    ("anim-not-in-tree", Severity::Error),
    ("atr", Severity::Error),
    ("atr-animcheck", Severity::Warning),
    ("no-tree", Severity::Note),
    ("no-weapons", Severity::Note),
    ("weapons-added", Severity::Note),
    ("hidden-by-pak", Severity::Warning),
    ("misplaced-file", Severity::Warning),
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
    ("encoding", Severity::Warning),
    ("ignored-text", Severity::Warning),
    ("unclosed-comment", Severity::Warning),
    ("loads-nothing", Severity::Warning),
];

/// Codes of diagnostics about a whole file (what the check assumed or
/// found missing): placed at its start, printed without a snippet.
pub const FILE_LEVEL: &[&str] = &["no-tree", "no-weapons", "weapon-limit", "loads-nothing"];

/// Codes that are off unless asked for (`-W CODE`): quirks of the
/// language that the stock script itself relies on.
pub const OPT_IN: &[&str] = &["and-union", "unused-define"];

/// The codes left out of a check: those allowed (`-A`), and the opt-in
/// ones not asked for (`-W`).
pub fn left_out(allow: &HashSet<String>, warn: &HashSet<String>) -> HashSet<String> {
    let mut out = allow.clone();
    out.extend(OPT_IN.iter().filter(|c| !warn.contains(**c)).map(|c| c.to_string()));
    out
}

/// What starts a file's own allow comment, after its `//`.
const ALLOW_MARKER: &str = "uoanim: allow(";

/// The comment line by which a file allows `code` in itself
/// ([`allowed_in`] reads it).
pub fn allow_comment(code: &str) -> String {
    format!("// {ALLOW_MARKER}{code})\n")
}

/// The codes a file allows in itself: every comment line
/// `// uoanim: allow(CODE, CODE)` (codes unknown to the check are ignored).
pub fn allowed_in(text: &[u8]) -> HashSet<String> {
    let mut out = HashSet::new();
    let marker = ALLOW_MARKER.as_bytes();
    for line in text.split(|&b| b == b'\n') {
        let Some(c) = line.windows(2).position(|w| w == b"//") else { continue };
        let comment = &line[c + 2..];
        let Some(at) = comment.windows(marker.len()).position(|w| w == marker) else { continue };
        let rest = &comment[at + marker.len()..];
        let Some(end) = rest.iter().position(|&b| b == b')') else { continue };
        for code in String::from_utf8_lossy(&rest[..end]).split(',') {
            let code = code.trim();
            if CODES.iter().any(|(c, _)| *c == code) {
                out.insert(code.to_string());
            }
        }
    }
    out
}

/// Where a weapon's class was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassFrom {
    /// Its weapon file.
    File,
    /// The stock table ([`stock::UO_MP_WEAPON_CLASSES`]).
    Stock,
}

/// The result of `check`.
pub struct Report {
    /// In file order.
    pub diags: Vec<Diagnostic>,
    /// The class of each weapon (weapon 1 first) where it is known: from
    /// its weapon file, else for a stock weapon the stock table.
    pub classes: Vec<Option<usize>>,
    /// Where each known class was found.
    pub class_from: Vec<Option<ClassFrom>>,
    /// The script was checked with the built-in stock tree.
    pub stock_tree: bool,
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
/// and every tree. Codes in `allow`, and those a file allows in a comment
/// ([`allowed_in`]), are left out (never the engine's first error; see
/// [`left_out`] for the default set).
pub fn check(inputs: &Inputs, allow: &HashSet<String>) -> Report {
    // No weapon list found or given: the stock United Offensive names.
    let weapons: Vec<Vec<u8>> = match &inputs.weapons {
        Some(w) => w.clone(),
        None => stock::UO_MP_WEAPONS.iter().map(|w| w.as_bytes().to_vec()).collect(),
    };
    let weapon_list = match (&inputs.weapons, inputs.weapon_list) {
        (None, _) => WeaponList::Stock,
        (Some(_), WeaponList::Stock) => WeaponList::Given,
        (Some(_), list) => list,
    };
    let class_names = script::table_names(Literal::WeaponClasses);
    let class_index = |c: &[u8]| class_names.iter().position(|n| n.eq_ignore_ascii_case(c));
    let known: Vec<Option<(usize, ClassFrom)>> = weapons
        .iter()
        .map(|w| match inputs.weapon_classes.get(&w.to_ascii_lowercase()) {
            Some(c) => class_index(c).map(|i| (i, ClassFrom::File)),
            None => stock::weapon_class(w).and_then(|c| class_index(c.as_bytes())).map(|i| (i, ClassFrom::Stock)),
        })
        .collect();
    let classes: Vec<Option<usize>> = known.iter().map(|k| k.map(|(i, _)| i)).collect();
    let class_from: Vec<Option<ClassFrom>> = known.iter().map(|k| k.map(|(_, f)| f)).collect();
    // No multiplayer tree found or given: the game's stock tree, built in.
    let stock_tree_file;
    let (mp_tree, stock_tree) = match inputs.multiplayer_tree() {
        Some(t) => (Some(t), false),
        None if inputs.without_tree => (None, false),
        None => {
            stock_tree_file = SourceFile { display: stock::TREE_DISPLAY.into(), name: "multiplayer".into(), text: stock::tree_text().into_bytes() };
            (Some(&stock_tree_file), true)
        }
    };
    let mut diags = Vec::new();
    let mut world = None;
    let mut obs = None;
    let mut registrations: Vec<Vec<u8>> = Vec::new();
    if let Some(s) = &inputs.script {
        let setup = script::Setup { weapons: &weapons, classes: &classes, tree: mp_tree, weapon_list, stock_tree };
        let report = script::check_script(s, &setup, inputs.xanims.as_ref());
        diags.extend(report.diags);
        world = report.world;
        obs = report.obs;
        // The names pass 1 references (also when a later step fails).
        let first = script::init(&s.text, &script::Setup { tree: None, ..setup });
        registrations = first.obs.registrations.iter().map(|r| r.name.clone()).collect();
    }
    // The engine stops at the script's first error (the multiplayer tree
    // is loaded within the script's init); otherwise the first tree error.
    let script_has_engine_error = diags.iter().any(|d| d.engine_first);
    // The game folder's trees are used, not checked on their own.
    for tree in inputs.trees.iter().filter(|t| !inputs.game_files.contains(&t.display)) {
        let mut refs: Vec<&[u8]> = Vec::new();
        if tree.name == "multiplayer" && inputs.script.is_some() {
            refs.extend([&b"root"[..], b"torso", b"legs", b"turning"]);
            refs.extend(registrations.iter().map(|r| r.as_slice()));
        }
        let mut found = trees::check_tree(tree, &refs);
        found.extend(trees::loads_nothing(tree, &found));
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
    // What finding the files found out, at each file's start.
    for n in &inputs.notices {
        let severity = CODES.iter().find(|(c, _)| *c == n.code).map_or(Severity::Warning, |(_, s)| *s);
        let mut d = Diagnostic::at(&n.file, b"", 0, 1, severity, n.code, n.message.clone());
        d.note = n.note.clone();
        d.help = n.help.clone();
        diags.push(d);
    }
    diag::sort(&mut diags, &inputs.file_order());
    let mut by_file: Vec<(&str, HashSet<String>)> = Vec::new();
    if let Some(s) = &inputs.script {
        by_file.push((&s.display, allowed_in(&s.text)));
    }
    for t in &inputs.trees {
        by_file.push((&t.display, allowed_in(&t.text)));
    }
    let file_allows = |d: &Diagnostic| by_file.iter().any(|(f, codes)| *f == d.file && codes.contains(d.code));
    diags.retain(|d| d.engine_first || !(allow.contains(d.code) || file_allows(d)));
    Report { diags, classes, class_from, stock_tree, world, obs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use input::SourceFile;

    /// A multiplayer tree that defines every name the script plays (the
    /// word after `both`, `torso`, `legs`; `root` is the tree's own) and
    /// the three the engine registers besides `root`.
    fn tree_for(text: &[u8]) -> SourceFile {
        let mut names: Vec<Vec<u8>> = vec![b"torso".to_vec(), b"legs".to_vec(), b"turning".to_vec()];
        for line in text.split(|&b| b == b'\n') {
            let words: Vec<&[u8]> = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty()).collect();
            if let [part, name, ..] = words[..] {
                let new = !names.iter().any(|n| n.eq_ignore_ascii_case(name)) && !name.eq_ignore_ascii_case(b"root");
                if [&b"both"[..], b"torso", b"legs"].iter().any(|p| p.eq_ignore_ascii_case(part)) && new {
                    names.push(name.to_vec());
                }
            }
        }
        SourceFile { display: "multiplayer.atr".into(), name: "multiplayer".into(), text: names.join(&b'\n') }
    }

    fn script(text: &str, weapons: &[&str]) -> Report {
        let inputs = Inputs {
            script: Some(SourceFile { display: "t.script".into(), name: String::new(), text: text.as_bytes().to_vec() }),
            trees: vec![tree_for(text.as_bytes())],
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
    fn a_missing_comma_before_a_condition_is_said_and_fixed() {
        let text = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons colt_mp  strafing left\n\t\t{\n\t\t\tboth a\n\t\t}\n\t}\n}\n";
        let r = script(text, &["colt_mp"]);
        let e: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(e[0].help.as_deref(), Some("'strafing' is a condition: conditions are separated by ',' (..., strafing ...)"), "{e:?}");
        let f = e[0].fix.as_ref().expect("the help's edit");
        assert_eq!(format!("{}{}{}", &text[..f.start], f.text, &text[f.end..]), text.replace("colt_mp  strafing", "colt_mp, strafing"));
        // words that are no condition: joined with AND
        let r = script(&text.replace("strafing left", "colt_mp"), &["colt_mp"]);
        let e: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(e[0].fix.as_ref().map(|f| f.text.as_str()), Some("colt_mp AND colt_mp"), "{e:?}");
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
        assert_eq!(errors[1].message, "unknown weapon 'also_nope'");
        assert_eq!(errors[1].note.as_deref(), Some("the engine says: BG_IndexForString: unknown token 'also_nope' (line 16)"));
        assert!(r.world.is_none(), "no module state for explain after errors");
    }

    #[test]
    fn a_clean_script_gives_the_module_state() {
        let r = script("ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth a\n\t\t}\n\t}\n}\n", &[]);
        assert!(!r.has_errors());
        let w = r.world.expect("clean init");
        assert_eq!(w.table.animations[3][1].count, 1);
        assert!(codes(&Report { diags: r.diags, classes: Vec::new(), class_from: Vec::new(), stock_tree: false, world: None, obs: None }).contains(&(1, "no-weapons")));
    }

    #[test]
    fn replaced_and_unreachable_blocks() {
        let text = "EVENTS\npain\n{\n\tdefault\n\t{\n\t\tboth a\n\t}\n}\npain\n{\n\tdefault\n\t{\n\t\tboth b\n\t}\n\tweapons colt_mp\n\t{\n\t\tboth c\n\t}\n}\n";
        let r = script(text, &["colt_mp"]);
        let c = codes(&r);
        assert!(c.contains(&(4, "replaced-block")), "{c:?}");
        let replaced = r.diags.iter().find(|d| d.code == "replaced-block").expect("the warning");
        assert!(replaced.message.contains("starts again at line 9"), "{}", replaced.message);
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
        assert_eq!(d.message, "unknown condition 'leaning'");
        assert_eq!((d.line, d.col), (6, 18));
        // Call of Duty 2: playerAnimType conditions.
        let cod2 = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tplayerAnimType rifle\n\t\t{\n\t\t\tboth pb_idle\n\t\t}\n\t}\n}\n";
        let d = script(cod2, &[]).engine_first().cloned().expect("an error");
        assert_eq!(d.message, "unknown condition 'playerAnimType'");
        assert!(d.help.as_deref().is_some_and(|n| n.contains("Call of Duty 2")));
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
            trees: vec![tree_for(text.as_bytes())],
            ..Inputs::default()
        };
        let r = check(&inputs, &HashSet::new());
        let note = r.diags.iter().find(|d| d.code == "no-weapons").expect("the note");
        assert_eq!(note.severity, Severity::Note);
        assert!(note.message.contains("63 stock United Offensive"), "{}", note.message);
        let errors: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].message, "unknown weapon 'nope_mp'");
        assert_eq!(stock::UO_MP_WEAPONS.len(), 63);
        assert!(stock::UO_MP_WEAPONS.windows(2).all(|w| input::q_stricmp(w[0].as_bytes(), w[1].as_bytes()).is_lt()), "the game's order");
    }

    #[test]
    fn without_a_tree_the_stock_trees_names_are_checked() {
        // A script-only mod: the game plays it with its stock tree.
        let text = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_stand_alert\n\t\t}\n\t}\n\twalk\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_combatwalk_forwrd_loop_pistol\n\t\t}\n\t}\n}\n";
        let inputs = Inputs { script: Some(SourceFile { display: "t.script".into(), name: String::new(), text: text.as_bytes().to_vec() }), ..Inputs::default() };
        let r = check(&inputs, &HashSet::new());
        assert!(r.stock_tree);
        let note = r.diags.iter().find(|d| d.code == "no-tree").expect("the note");
        assert_eq!(note.severity, Severity::Note);
        assert!(note.message.contains("stock United Offensive tree (388 names, built in)"), "{}", note.message);
        let e: Vec<_> = r.diags.iter().filter(|d| d.severity == Severity::Error).collect();
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].code, e[0].line, e[0].col), ("anim-not-in-tree", 15, 9));
        assert!(e[0].engine_first);
        assert_eq!(e[0].help.as_deref(), Some("did you mean 'pb_combatwalk_forward_loop_pistol'?"));
        // Fixed, the script loads and its animations are the stock tree's.
        let fixed = text.replace("forwrd", "forward");
        let inputs = Inputs { script: Some(SourceFile { display: "t.script".into(), name: String::new(), text: fixed.into_bytes() }), ..Inputs::default() };
        let r = check(&inputs, &HashSet::new());
        assert!(!r.has_errors(), "{:?}", r.diags);
        assert!(r.world.as_ref().is_some_and(|w| w.real_tree && w.tree.nodes.iter().any(|n| n.name.eq_ignore_ascii_case(b"pb_combatwalk_forward_loop_pistol"))));
    }

    #[test]
    fn a_stock_weapons_class_is_known_without_its_file() {
        let text = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweaponclass mg\n\t\t{\n\t\t\tboth pb_stand_alert\n\t\t}\n\t\tweapons colt_mp, weaponclass rifle\n\t\t{\n\t\t\tboth pb_stand_alert\n\t\t}\n\t}\n}\n";
        let inputs = Inputs { script: Some(SourceFile { display: "t.script".into(), name: String::new(), text: text.as_bytes().to_vec() }), ..Inputs::default() };
        let r = check(&inputs, &HashSet::new());
        let classes = script::table_names(Literal::WeaponClasses);
        let colt = stock::UO_MP_WEAPONS.iter().position(|w| *w == "colt_mp").unwrap();
        assert_eq!(r.classes[colt].map(|c| classes[c].to_ascii_lowercase()), Some(b"pistol".to_vec()));
        assert_eq!(r.class_from[colt], Some(ClassFrom::Stock));
        // No stock weapon is of class mg; colt_mp is a pistol.
        let never: Vec<u32> = r.diags.iter().filter(|d| d.code == "never-holds").map(|d| d.line).collect();
        assert_eq!(never, [6, 10]);
        // A weapon file's class wins over the stock one.
        let inputs = Inputs { weapon_classes: [(b"colt_mp".to_vec(), b"rifle".to_vec())].into(), ..inputs };
        let r = check(&inputs, &HashSet::new());
        assert_eq!(r.class_from[colt], Some(ClassFrom::File));
        assert_eq!(r.diags.iter().filter(|d| d.code == "never-holds").map(|d| d.line).collect::<Vec<_>>(), [6]);
    }

    /// A stock-like script: a state with two blocks, indented with tabs.
    const TWO_BLOCKS: &str = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons colt_mp\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tweapons kar98k_mp\n\t\t{\n\t\t\tboth b\n\t\t}\n\t}\n}\n";

    fn errors(r: &Report) -> Vec<&Diagnostic> {
        r.diags.iter().filter(|d| d.severity == Severity::Error).collect()
    }

    #[test]
    fn unknown_names_in_the_modders_words_with_did_you_mean() {
        let text = TWO_BLOCKS.replace("weapons colt_mp", "weapons colt_mp, movetype wlak").replace("kar98k_mp", "kar98_mp");
        let r = script(&text, &["colt_mp", "kar98k_mp"]);
        let e = errors(&r);
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!((e[0].message.as_str(), e[0].line, e[0].col, e[0].len), ("unknown move type 'wlak'", 6, 29, 4));
        assert_eq!(e[0].help.as_deref(), Some("did you mean 'walk'?"));
        let f = e[0].fix.as_ref().expect("the help's edit");
        assert_eq!((&text[f.start..f.end], f.text.as_str(), f.title.as_str()), ("wlak", "walk", "replace with 'walk'"));
        assert_eq!(e[0].note.as_deref(), Some("the engine says: BG_IndexForString: unknown token 'wlak' (line 8)"));
        assert!(e[0].engine_first);
        assert_eq!((e[1].message.as_str(), e[1].help.as_deref()), ("unknown weapon 'kar98_mp'", Some("did you mean 'kar98k_mp'?")));
        // the mark is on the name, not on the operator after it
        let r = script(&TWO_BLOCKS.replace("weapons colt_mp", "weapons pistols AND colt_mp"), &["colt_mp", "kar98k_mp"]);
        let e = errors(&r);
        assert_eq!((e[0].message.as_str(), e[0].col, e[0].len), ("unknown weapon 'pistols'", 11, 7));
        // a define of the condition is a candidate
        let text = format!("DEFINES\nset weapons pistols = colt_mp\n{}", TWO_BLOCKS.replace("weapons colt_mp", "weapons pistol"));
        let e = script(&text, &["colt_mp", "kar98k_mp"]).diags.into_iter().find(|d| d.severity == Severity::Error).expect("an error");
        assert_eq!(e.help.as_deref(), Some("did you mean 'pistols'?"));
    }

    #[test]
    fn a_missing_brace_is_one_error_at_the_block() {
        // the '}' of the first command block left out
        let text = TWO_BLOCKS.replacen("\t\t\tboth a\n\t\t}\n", "\t\t\tboth a\n", 1);
        let r = script(&text, &["colt_mp", "kar98k_mp"]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].message.as_str(), e[0].line, e[0].col), ("this '{' is never closed", 7, 3));
        assert_eq!(e[0].help.as_deref(), Some("line 9 is indented like this '{': is the block's '}' missing before it?"));
        // the fix puts the '}' back as it was; the hint's line is related
        let f = e[0].fix.as_ref().expect("the help's edit");
        let fixed = format!("{}{}{}", &text[..f.start], f.text, &text[f.end..]);
        assert_eq!((fixed.as_str(), f.title.as_str()), (TWO_BLOCKS, "insert the '}' before line 9"));
        assert_eq!(e[0].related, [diag::Related { file: "t.script".into(), line: 9, col: 1, message: "the block's '}' seems missing before this line".into() }]);
        assert!(e[0].engine_first && e[0].note.as_deref().is_some_and(|n| n.starts_with("the engine says: ")));
        // the last '}' left out: the end of the file
        let r = script(TWO_BLOCKS.trim_end().trim_end_matches('}'), &["colt_mp", "kar98k_mp"]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].message.as_str(), e[0].line, e[0].help.as_deref()), ("this '{' is never closed", 3, Some("close it with a '}'")));
        assert!(e[0].note.as_deref().is_some_and(|n| n.contains("unexpected end of file")), "{e:?}");
    }

    #[test]
    fn an_extra_brace_is_one_error_at_the_brace() {
        let text = TWO_BLOCKS.replacen("\t\t\tboth a\n\t\t}\n", "\t\t\tboth a\n\t\t}\n\t\t}\n", 1);
        let r = script(&text, &["colt_mp", "kar98k_mp"]);
        let e = errors(&r);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].message.as_str(), e[0].line, e[0].col), ("this '}' closes no block", 10, 3));
        let f = e[0].fix.as_ref().expect("the help's edit");
        assert_eq!(format!("{}{}{}", &text[..f.start], f.text, &text[f.end..]).replacen("\t\t\n", "", 1), TWO_BLOCKS);
    }

    #[test]
    fn what_the_game_does_not_load_is_said() {
        let codes_of = |text: &[u8]| -> Vec<(u32, &'static str, Option<String>)> {
            let inputs = Inputs { script: Some(SourceFile { display: "t".into(), name: String::new(), text: text.to_vec() }), weapons: Some(Vec::new()), ..Inputs::default() };
            check(&inputs, &left_out(&HashSet::new(), &HashSet::new())).diags.into_iter().filter(|d| !["no-weapons", "no-tree"].contains(&d.code)).map(|d| (d.line, d.code, d.help.or(d.note))).collect()
        };
        let c = codes_of(b"ANIMATOINS\n{\n}\n");
        assert_eq!(c[0], (1, "ignored-text", Some("did you mean 'ANIMATIONS'?".into())));
        assert_eq!(c[1].1, "loads-nothing");
        let c = codes_of(b"hello world\n");
        assert_eq!(c.iter().map(|c| c.1).collect::<Vec<_>>(), ["ignored-text", "loads-nothing"]);
        let c = codes_of(b"DEFINES\nset weapons a = none\nbogus words\nANIMATIONS\n");
        assert_eq!(c[0].0..=c[0].0, 3..=3, "{c:?}");
        let utf16: Vec<u8> = "\u{feff}ANIMATIONS\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(codes_of(&utf16).iter().map(|c| c.1).collect::<Vec<_>>(), ["encoding"]);
        // a '/*' never closed, with lines after it: the rest is a comment
        let c = codes_of(b"DEFINES\nset weapons a = none\n/* to do\nANIMATIONS\n");
        assert_eq!(c.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(), [(3, "unclosed-comment")], "{c:?}");
        assert!(codes_of(b"DEFINES\nset weapons a = none\n/* to do */\n").is_empty());
        let c = codes_of(b"ANIMATIONS\n\0 rest\n");
        assert_eq!((c[0].0, c[0].1), (2, "encoding"));
        let c = codes_of(b"");
        assert_eq!(c, [(1, "load", Some("the file is empty: the engine loads no script of 0 bytes".into()))]);
        let c = codes_of(&vec![b' '; 99_999]);
        assert_eq!(c, [(1, "load", Some("the file has 99999 bytes: the engine loads a script of at most 99998 bytes".into()))]);
    }

    #[test]
    fn a_tree_that_loads_nothing_is_said() {
        let tree = |text: &[u8]| -> Vec<&'static str> {
            let inputs = Inputs { trees: vec![SourceFile { display: "t.atr".into(), name: "t".into(), text: text.to_vec() }], ..Inputs::default() };
            check(&inputs, &HashSet::new()).diags.iter().map(|d| d.code).collect()
        };
        assert_eq!(tree(b""), ["loads-nothing"]);
        assert_eq!(tree(b"// only a comment\n"), ["loads-nothing"]);
        let utf16: Vec<u8> = "\u{feff}main\n{\n\tpb_a\n}\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(tree(&utf16), ["encoding"]);
        assert!(tree(b"main\n{\n\tpb_a\n}\n").is_empty());
    }

    #[test]
    fn opt_in_codes_and_a_files_own_allow_comment() {
        let text = format!("DEFINES\nset weapons spare = colt_mp AND kar98k_mp\n{TWO_BLOCKS}");
        let run = |text: &str, allow: HashSet<String>| -> Vec<&'static str> {
            let inputs = Inputs {
                script: Some(SourceFile { display: "t".into(), name: String::new(), text: text.as_bytes().to_vec() }),
                trees: vec![tree_for(text.as_bytes())],
                weapons: Some(vec![b"colt_mp".to_vec(), b"kar98k_mp".to_vec()]),
                ..Inputs::default()
            };
            check(&inputs, &allow).diags.iter().map(|d| d.code).filter(|c| *c != "no-tree").collect()
        };
        assert!(run(&text, left_out(&HashSet::new(), &HashSet::new())).is_empty());
        let warn: HashSet<String> = ["and-union".to_string()].into();
        assert_eq!(run(&text, left_out(&HashSet::new(), &warn)), ["and-union"]);
        assert_eq!(run(&text, HashSet::new()), ["unused-define", "and-union"]);
        let allowed = format!("// uoanim: allow(unused-define, no-such-code)\n{text}");
        assert_eq!(run(&allowed, HashSet::new()), ["and-union"]);
        assert_eq!(allowed_in(b"x // uoanim: allow( minus ,never-holds)\n"), ["minus".to_string(), "never-holds".to_string()].into());
    }

    #[test]
    fn the_recovery_cap_is_said() {
        let mut text = String::from("ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n");
        for _ in 0..210 {
            text.push_str("\t\tweapons nope_mp\n\t\t{\n\t\t\tboth a\n\t\t}\n");
        }
        text.push_str("\t}\n}\n");
        let r = script(&text, &["colt_mp"]);
        assert_eq!(errors(&r).len(), 200);
        let last = r.diags.last().expect("the note");
        assert_eq!((last.severity, last.message.as_str()), (Severity::Note, "the check stopped after 200 runs of the init: later errors are not listed"));
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
        let script = b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons w_b\n\t\t{\n\t\t\tboth pb_stand_alert\n\t\t}\n\t}\n}\n";
        let first = archive::build_zip(&[("mp/playeranim.script", b"bad\n", false), ("weapons/mp/w_a", b"", false)]);
        let second = archive::build_zip(&[("mp/playeranim.script", script, true), ("weapons/mp/w_b", b"", false), ("xanim/a", b"", false)]);
        std::fs::write(dir.join("z_second.pk3"), second).unwrap();
        std::fs::write(dir.join("a_first.PK3"), first).unwrap();
        let inputs = Inputs::load(std::slice::from_ref(&dir), None).unwrap();
        let s = inputs.script.as_ref().unwrap();
        // The member's path as the tool prints paths (on Windows with '\\' only).
        assert!(s.display.ends_with(&input::display_path(std::path::Path::new("z_second.pk3/mp/playeranim.script"))), "{}", s.display);
        assert_eq!(s.text, script);
        // The mod's weapons add to the stock ones, in the game's order.
        let w = inputs.weapons.as_deref().unwrap();
        assert_eq!(w.len(), 65);
        assert!(w.windows(2).all(|p| input::q_stricmp(&p[0], &p[1]).is_lt()));
        assert!(w.contains(&b"w_a".to_vec()) && w.contains(&b"w_b".to_vec()) && w.contains(&b"colt_mp".to_vec()));
        assert!(inputs.xanims.as_ref().unwrap().contains(&b"a"[..]));
        let r = check(&inputs, &HashSet::new());
        assert!(!r.has_errors(), "{:?}", r.diags);
        assert!(r.stock_tree, "no tree of the mod's: the stock one");
        let codes: Vec<&str> = r.diags.iter().map(|d| d.code).collect();
        // Two copies hidden by z_second.pk3: the loose one and a_first's.
        assert_eq!(codes.iter().filter(|c| **c == "hidden-by-pak").count(), 2, "{codes:?}");
        assert!(codes.contains(&"weapons-added") && codes.contains(&"no-tree"), "{codes:?}");
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
