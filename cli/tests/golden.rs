//! Golden tests of the `uoanim` binary on the mod directories under
//! tests/golden (written for these tests): the text and JSON output of
//! `check`, `--engine`, `-A`, and `explain`; and how the files are found
//! (from any starting point, paks over loose files, the game's folder),
//! with the paks and game folders built by the tests.

mod common;
use common::tool;
use std::io::Write;
use std::path::{Path, PathBuf};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Runs the tool in tests/golden; returns (stdout, exit code).
fn run(args: &[&str]) -> (String, i32) {
    run_in(&golden(), args)
}

/// Runs the tool in `dir`; returns (stdout, exit code).
fn run_in(dir: &Path, args: &[&str]) -> (String, i32) {
    let out = tool().args(args).current_dir(dir).output().expect("run uoanim");
    (String::from_utf8(out.stdout).expect("utf-8 output"), out.status.code().unwrap_or(-1))
}

/// The fixture directories (the first part of each diagnostic's path).
const FIXTURES: [&str; 10] = ["clean", "broken", "bytes", "scriptonly", "nested", "hidden", "ownweapons", "modforgame", "game", "structure"];

/// A zip of (name, bytes) members, deflated: a `.pk3` made by the test.
fn pk3(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in members {
        w.start_file(*name, zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A fresh directory under the target's test directory.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("golden-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Copies a fixture directory of tests/golden into `to`.
fn copy_fixture(name: &str, to: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.path().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    copy(&golden().join(name), &to.join(name));
}

/// Text output with its paths' separators as '/': on Windows the paths
/// must have '\\' only (checked on each diagnostic's first line).
fn slashes(out: &str) -> String {
    if !cfg!(windows) {
        return out.to_string();
    }
    for line in out.lines().filter(|l| FIXTURES.iter().any(|d| l.starts_with(d))) {
        let path = line.split(':').next().unwrap();
        assert!(!path.contains('/'), "a path with mixed separators: {path}");
    }
    out.replace('\\', "/")
}

fn expect(file: &str, actual: &str) {
    // On Windows the paths are printed with '\\' only (the directory given
    // and the file found in it alike): the expected files have '/' (in
    // JSON, an escaped '\\').
    #[cfg(windows)]
    for line in actual.lines() {
        let path = if file.ends_with(".jsonl") {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["file"].as_str().unwrap().to_string()
        } else if FIXTURES.iter().any(|d| line.starts_with(d)) {
            line.split(':').next().unwrap().to_string()
        } else {
            continue;
        };
        assert!(!path.contains('/'), "a path with mixed separators: {path}");
    }
    #[cfg(windows)]
    let actual = if file.ends_with(".jsonl") { actual.replace("\\\\", "/") } else { actual.replace('\\', "/") };
    #[cfg(windows)]
    let actual = actual.as_str();
    let path = golden().join("expected").join(file);
    if std::env::var_os("UOANIM_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("missing {}", path.display()));
    assert_eq!(actual, want, "output differs from {}", path.display());
}

#[test]
fn check_clean_mod_has_warnings_only() {
    let (out, code) = run(&["check", "clean"]);
    assert_eq!(code, 0);
    expect("check-clean.txt", &out);
    println!("golden: check clean ({} lines)", out.lines().count());
}

#[test]
fn check_broken_mod_lists_every_error() {
    let (out, code) = run(&["check", "broken"]);
    assert_eq!(code, 1);
    expect("check-broken.txt", &out);
}

#[test]
fn structure_mistakes_are_said_in_the_modders_words() {
    // a misspelt keyword, a misspelt command parameter, a value missing:
    // what was expected and found, the engine's text as a note
    let (out, code) = run(&["check", "structure"]);
    assert_eq!(code, 1);
    expect("check-structure.txt", &out);
}

#[test]
fn engine_prints_only_the_first_error_as_the_engine_raises_it() {
    let (out, code) = run(&["check", "--engine", "broken"]);
    assert_eq!(code, 1);
    assert_eq!(out, "\u{15}BG_IndexForString: unknown token 'kar98k_mp colt_mp': (mp/playeranim.script, line 19)\n");
    let (out, code) = run(&["check", "--engine", "clean"]);
    assert_eq!((out.as_str(), code), ("", 0));
    // --format json: the one diagnostic, its engine_text the exact text
    let (out, code) = run(&["check", "--engine", "--format", "json", "broken"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let d: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(d["engine_text"], "\u{15}BG_IndexForString: unknown token 'kar98k_mp colt_mp': (mp/playeranim.script, line 19)");
    assert_eq!((d["engine_first"].as_bool(), d["line"].as_u64()), (Some(true), Some(17)));
}

#[test]
fn allow_leaves_out_a_code_and_warn_asks_for_an_opt_in_one() {
    let (default, _) = run(&["check", "clean"]);
    assert!(!default.contains("[unused-define]") && !default.contains("[and-union]"), "opt-in codes are off by default");
    let (all, _) = run(&["check", "-W", "unused-define", "-Wand-union", "clean"]);
    assert!(all.contains("[unused-define]") && all.contains("[and-union]"));
    let warnings = |out: &str| out.lines().filter(|l| l.contains("warning[")).count();
    assert_eq!(warnings(&all), warnings(&default) + 3);
    let (fewer, code) = run(&["check", "-A", "minus", "clean"]);
    assert_eq!(code, 0);
    assert!(default.contains("[minus]") && !fewer.contains("[minus]"));
    assert_eq!(warnings(&fewer), warnings(&default) - 1);
    for flag in ["-A", "-W"] {
        let out = tool().args(["check", flag, "no-such-code", "clean"]).current_dir(golden()).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
    }
}

#[test]
fn short_is_the_first_line_note_and_help_of_each_diagnostic() {
    let (full, _) = run(&["check", "broken"]);
    let (short, code) = run(&["check", "--format", "short", "broken"]);
    assert_eq!(code, 1);
    let firsts: Vec<&str> = full
        .lines()
        .filter(|l| l.starts_with("broken/") || l.starts_with("broken\\") || l.trim_start().starts_with("= note: ") || l.trim_start().starts_with("= help: "))
        .collect();
    let want: Vec<String> = firsts.iter().map(|l| if l.starts_with("broken") { l.to_string() } else { format!("    {}", l.trim_start()) }).collect();
    assert_eq!(short.lines().collect::<Vec<_>>(), want);
    assert!(full.lines().count() > 3 * short.lines().count(), "the text format has the snippets");
}

#[test]
fn columns_after_tabs_and_bytes_that_are_not_utf8() {
    // bytes/: Latin-1 bytes (one character each), UTF-8 'é' and tabs
    // before the errors.
    let (out, code) = run(&["check", "bytes"]);
    assert_eq!(code, 1);
    expect("check-bytes.txt", &out);
    let (json, _) = run(&["check", "--format", "json", "bytes"]);
    expect("check-bytes.jsonl", &json);
    // The header's column counts characters: 2 tabs, 'weapons pistols',
    // a tab, '/* café */, weaponclass', a tab, two Latin-1 bytes, a space.
    let out = slashes(&out);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.ends_with("error[parse]: unknown weapon class 'heavy'")).expect("the error");
    assert!(lines[at].starts_with("bytes/mp/playeranim.script:15:46: "), "{}", lines[at]);
    // The snippet shows the tabs as four spaces each, the bytes as U+FFFD,
    // and the caret lands under the token.
    let (source, caret) = (lines[at + 2], lines[at + 3]);
    assert!(source.ends_with("weapons pistols    /* caf\u{e9} */, weaponclass    \u{fffd}\u{fffd} heavy"), "{source:?}");
    let under = caret.find('^').unwrap();
    assert_eq!(source.chars().count() - "heavy".len(), caret[..under].chars().count(), "{source}\n{caret}");
    assert_eq!(caret[under..].trim_end(), "^^^^^");
    let j: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let heavy = j.iter().find(|d| d["message"].as_str().unwrap().ends_with("'heavy'")).unwrap();
    assert_eq!((&heavy["line"], &heavy["column"], &heavy["end_column"]), (&serde_json::json!(15), &serde_json::json!(46), &serde_json::json!(51)));
}

#[test]
fn json_is_one_valid_object_per_diagnostic() {
    let (text, _) = run(&["check", "--format", "short", "broken"]);
    let (out, code) = run(&["check", "--format", "json", "broken"]);
    assert_eq!(code, 1);
    expect("check-broken.jsonl", &out);
    let codes: Vec<&str> = uoanim_cli::CODES.iter().map(|(c, _)| *c).collect();
    let mut firsts = 0;
    let heads: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(out.lines().count(), heads.len());
    for (line, head) in out.lines().zip(heads) {
        let v: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
        let o = v.as_object().expect("an object");
        for key in ["file", "message", "severity", "code"] {
            assert!(o[key].is_string(), "{key} is a string in {line}");
        }
        for key in ["line", "column", "end_column"] {
            assert!(o[key].as_u64().is_some_and(|n| n >= 1), "{key} is a positive number in {line}");
        }
        assert!(o["end_column"].as_u64() > o["column"].as_u64());
        assert!(["error", "warning"].contains(&o["severity"].as_str().unwrap()));
        assert!(codes.contains(&o["code"].as_str().unwrap()), "documented code in {line}");
        firsts += usize::from(o["engine_first"].as_bool().expect("engine_first is a boolean"));
        // The same diagnostic as the text line.
        let want = format!(
            "{}:{}:{}: {}[{}]: {}",
            o["file"].as_str().unwrap(),
            o["line"],
            o["column"],
            o["severity"].as_str().unwrap(),
            o["code"].as_str().unwrap(),
            o["message"].as_str().unwrap()
        );
        assert_eq!(want, head);
    }
    assert_eq!(firsts, 1, "exactly one engine-first error");
}

#[test]
fn explain_movement_and_event() {
    let (out, code) = run(&["explain", "clean", "--state", "combat", "--movetype", "idle", "--weapon", "mp40_mp"]);
    assert_eq!(code, 0);
    expect("explain-idle.txt", &out);
    let (out, code) = run(&["explain", "--event", "fireweapon", "clean", "--weapon", "colt_mp"]);
    assert_eq!(code, 0);
    expect("explain-fire.txt", &out);
    let (out, code) = run(&["explain", "clean", "--movetype", "run", "--weapon", "kar98k_mp", "--strafing", "left"]);
    assert_eq!(code, 0);
    expect("explain-run.txt", &out);
    // each block tested: a table of its conditions; the chosen one's source
    let (out, _) = run(&["explain", "--event", "fireweapon", "clean", "--weapon", "colt_mp"]);
    assert!(out.contains("weapons    enfield_mp | kar98k_mp  colt_mp         fails"), "{out}");
    assert!(out.contains("65 | weapons pistols\n") && out.contains("67 |     torso pt_pistol_fire\n"), "{out}");
}

#[test]
fn a_repeated_diagnostic_is_printed_once_with_where_the_others_are() {
    let (out, code) = run(&["check", "-A", "no-tree", "repeats"]);
    assert_eq!(code, 1);
    expect("check-repeats.txt", &out);
    assert_eq!(out.matches("error[parse]: unknown condition 'playerAnimType'").count(), 1, "{out}");
    assert!(out.contains("and 2 more: lines 11, 15"), "{out}");
    // the machine formats keep each one
    let (json, _) = run(&["check", "-A", "no-tree", "--format", "json", "repeats"]);
    assert_eq!(json.matches("unknown condition 'playerAnimType'").count(), 3, "{json}");
}

#[test]
fn explain_grid_of_states_and_move_types() {
    let (out, code) = run(&["explain", "clean", "--grid", "--weapon", "kar98k_mp"]);
    assert_eq!(code, 0);
    expect("explain-grid.txt", &out);
    let run_row = out.lines().find(|l| l.starts_with("run ")).expect("the run row");
    assert!(run_row.ends_with("pb_rifle_run"), "{run_row}");
    let (html, code) = run(&["explain", "clean", "--grid", "--weapon", "kar98k_mp", "--format", "html"]);
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert_eq!(html.matches("<tr>").count(), 1 + out.lines().count() - 2, "a row per move type and the header");
    assert!(html.contains("<td title=\"line 34\">pb_rifle_run</td>") || html.contains(">pb_rifle_run</td>"), "{html}");
}

#[test]
fn tree_and_weapons_options() {
    // The broken mod's script with the clean mod's tree and weapon files:
    // 'pb_not_in_tree' is still missing, the weapon list is replaced.
    let (out, code) = run(&["check", "broken/mp/playeranim.script", "--tree", "clean/animtrees/multiplayer.atr", "--weapons", "clean/weapons/mp"]);
    let out = slashes(&out);
    assert_eq!(code, 1);
    assert!(out.contains("broken/mp/playeranim.script:31:9: error[anim-not-in-tree]: animation 'pb_not_in_tree' not defined in anim tree 'multiplayer'"), "{out}");
    assert!(out.contains("unknown weapon 'kar98k_mp colt_mp'"));
    assert!(!out.contains("[no-tree]") && !out.contains("[no-weapons]"));
    // Named by its script, the mod is found whole: its trees and its list.
    let (out, _) = run(&["check", "broken/mp/playeranim.script"]);
    assert_eq!(out, run(&["check", "broken"]).0);
    // A script alone (out of a mod's folders) is checked with the stock
    // names: the stock tree, the stock weapons.
    let dir = scratch("alone");
    std::fs::copy(golden().join("broken/mp/playeranim.script"), dir.join("alone.script")).unwrap();
    let (out, _) = run_in(&dir, &["check", "alone.script"]);
    assert!(out.contains("note[no-tree]") && out.contains("note[no-weapons]: no weapon files found: the 63 stock United Offensive"), "{out}");
    // The stock names: the broken mod's own weapon 'kar98k_mp colt_mp' is
    // still an error, stock weapons are not.
    assert!(out.contains("unknown weapon 'kar98k_mp colt_mp'") && !out.contains("unknown weapon 'colt_mp'"), "{out}");
}

#[test]
fn a_script_only_mod_is_checked_against_the_stock_tree() {
    let (out, code) = run(&["check", "scriptonly"]);
    assert_eq!(code, 1);
    expect("check-scriptonly.txt", &out);
    let out = slashes(&out);
    assert!(out.contains("error[anim-not-in-tree]: animation 'pb_stand_shoot_walk_forwrd' not defined in anim tree 'multiplayer'"), "{out}");
    assert!(out.contains("= help: did you mean 'pb_stand_shoot_walk_forward'?") && !out.contains("warning[no-tree]"), "{out}");
    let (out, code) = run(&["check", "--engine", "scriptonly"]);
    assert_eq!((out.as_str(), code), ("\u{15}animation 'pb_stand_shoot_walk_forwrd' not defined in anim tree 'multiplayer'\n", 1));
}

#[test]
fn the_same_files_are_found_from_any_starting_point() {
    let (whole, code) = run(&["check", "nested"]);
    assert_eq!(code, 1);
    expect("check-nested.txt", &whole);
    // The tree is found (its closest name is the help) in any case of the
    // folders' names.
    assert!(slashes(&whole).contains("nested/MP/PlayerAnim.script:17:9: error[anim-not-in-tree]: animation 'pb_run_fast'"), "{whole}");
    for start in ["nested/MP/PlayerAnim.script", "nested/MP", "nested/AnimTrees", "nested/AnimTrees/MultiPlayer.atr", "nested/MP/../AnimTrees"] {
        let (out, _) = run(&["check", start]);
        let out = slashes(&out).replace("nested/MP/../", "nested/");
        assert_eq!(out, slashes(&whole), "from {start}");
    }
    // Run inside the mod's mp/ folder: the mod is the directory above.
    let (out, code) = run_in(&golden().join("nested/MP"), &["check"]);
    assert_eq!(code, 1);
    assert_eq!(slashes(&out).replace("../", "nested/"), slashes(&whole));
}

#[test]
fn a_loose_file_hidden_by_a_pak_and_files_in_the_wrong_folder_are_said() {
    let dir = scratch("hidden");
    copy_fixture("hidden", &dir);
    let good = b"// the pak's copy\nANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_idle\n\t\t}\n\t}\n}\n";
    let members: [(&str, &[u8]); 3] = [("mp/playeranim.script", good), ("hidden/animtrees/vehicle.atr", b"v\n"), ("playeranim.script", good)];
    std::fs::write(dir.join("hidden/zz_hidden.pk3"), pk3(&members)).unwrap();
    let (out, code) = run_in(&dir, &["check", "hidden"]);
    assert_eq!(code, 0, "the pak's copy, the one checked, has no error: {out}");
    expect("check-hidden.txt", &out);
    let out = slashes(&out);
    assert!(out.contains("hidden/mp/playeranim.script:1:1: warning[hidden-by-pak]: the game does not read this file: it reads 'hidden/zz_hidden.pk3/mp/playeranim.script'"), "{out}");
    assert!(!out.contains("pb_idle_edited"), "the loose copy is not what the game reads");
    assert_eq!(out.matches("warning[misplaced-file]").count(), 2, "{out}");
    // The loose script named on the command line: the same files.
    let (named, _) = run_in(&dir, &["check", "hidden/mp/playeranim.script"]);
    assert_eq!(slashes(&named), out);
}

#[test]
fn the_mods_weapons_add_to_the_stock_ones_and_stock_classes_are_known() {
    let (out, code) = run(&["check", "ownweapons"]);
    assert_eq!(code, 0);
    expect("check-ownweapons.txt", &out);
    let out = slashes(&out);
    assert!(out.contains("note[weapons-added]: the mod's weapon files add to the 63 stock United Offensive weapons: 64 weapons (1 new, 0 replacing a stock one)"), "{out}");
    // kar98k_mp is a stock rifle: 'weaponclass smg, weapons kar98k_mp' never holds.
    assert!(out.contains("ownweapons/mp/playeranim.script:17:3: warning[never-holds]"), "{out}");
    // One weapon more than the stock 63: the last in the game's order has no bit.
    assert!(out.contains("warning[weapon-limit]: 64 weapons") && out.contains("= note: past the 63rd: 'webley_mp'"), "{out}");
    // The stock pistol colt_mp takes the pistol block, as in the game.
    let (out, code) = run(&["explain", "ownweapons", "--movetype", "walk", "--weapon", "colt_mp"]);
    assert_eq!(code, 0);
    expect("explain-stock-class.txt", &out);
    assert!(out.contains("weaponclass = pistol (the stock weapon's class)") && out.contains("both pb_combatwalk_forward_loop_pistol"), "{out}");
    let (out, _) = run(&["explain", "ownweapons", "--movetype", "walk", "--weapon", "mygun_mp"]);
    assert!(out.contains("weaponclass = pistol (from the weapon file)") && out.contains("both pb_combatwalk_forward_loop_pistol"), "{out}");
    let (out, _) = run(&["explain", "ownweapons", "--movetype", "walk", "--weapon", "kar98k_mp"]);
    assert!(out.contains("weaponclass = rifle (the stock weapon's class)") && out.contains("both pb_stand_shoot_walk_forward"), "{out}");
}

#[test]
fn the_game_folder_is_searched_under_the_mod() {
    let dir = scratch("game");
    copy_fixture("modforgame", &dir);
    let main_tree = b"main\n{\n\ttorso\n\tlegs\n\t{\n\t\tpb_game_idle\n\t\tpb_main_only\n\t}\n}\nturning\n";
    let uo_tree = b"main\n{\n\ttorso\n\tlegs\n\t{\n\t\tpb_game_idle\n\t\tpb_uo_idle\n\t}\n}\nturning\n";
    let stock_script = b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_game_idle\n\t\t}\n\t}\n}\n";
    let main_members: [(&str, &[u8]); 4] = [
        ("mp/playeranim.script", stock_script),
        ("animtrees/multiplayer.atr", main_tree),
        ("weapons/mp/game_rifle_mp", b"WEAPONFILE\\weaponClass\\rifle"),
        ("xanim/pb_game_idle", b""),
    ];
    let uo_members: [(&str, &[u8]); 2] = [("animtrees/multiplayer.atr", uo_tree), ("weapons/mp/uo_smg_mp", b"WEAPONFILE\\weaponClass\\smg")];
    std::fs::create_dir_all(dir.join("game/main")).unwrap();
    std::fs::create_dir_all(dir.join("game/uo")).unwrap();
    std::fs::write(dir.join("game/main/pak0.pk3"), pk3(&main_members)).unwrap();
    std::fs::write(dir.join("game/uo/pakuo00.pk3"), pk3(&uo_members)).unwrap();
    let (out, code) = run_in(&dir, &["check", "--game", "game", "modforgame"]);
    assert_eq!(code, 1);
    expect("check-game.txt", &out);
    let out = slashes(&out);
    // uo's tree is over main's: pb_main_only is not in the tree the game
    // reads; the weapons of both folders are known, no stock names.
    assert!(out.contains("error[anim-not-in-tree]: animation 'pb_main_only' not defined in anim tree 'multiplayer'"), "{out}");
    assert!(!out.contains("unknown weapon") && !out.contains("[no-tree]") && !out.contains("[no-weapons]") && !out.contains("[weapons-added]"), "{out}");
    // Without the game's folder the same mod is checked with the stock names.
    let (out, _) = run_in(&dir, &["check", "modforgame"]);
    assert!(out.contains("unknown weapon 'game_rifle_mp'"), "{out}");
    // A folder that is not the game's.
    let o = tool().args(["check", "--game", "modforgame", "modforgame"]).current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no main/ or uo/ folder"));
}

#[test]
fn explain_refuses_a_script_that_does_not_load() {
    let (out, code) = run(&["explain", "broken", "--movetype", "idle"]);
    assert_eq!((out.as_str(), code), ("", 2));
}

#[test]
fn sarif_is_a_sarif_2_1_0_log_of_the_same_diagnostics() {
    let (jsonl, _) = run(&["check", "--format", "json", "broken"]);
    let (out, code) = run(&["check", "--format", "sarif", "broken"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["version"], "2.1.0");
    let run0 = &v["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "uoanim");
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), uoanim_cli::CODES.len());
    let results = run0["results"].as_array().unwrap();
    assert_eq!(results.len(), jsonl.lines().count());
    for (r, line) in results.iter().zip(jsonl.lines()) {
        let j: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["ruleId"], j["code"]);
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"], j["code"]);
        assert_eq!(r["level"], j["severity"]);
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert_eq!((&region["startLine"], &region["startColumn"], &region["endColumn"]), (&j["line"], &j["column"], &j["end_column"]));
        assert_eq!(r["properties"]["engineFirst"], j["engine_first"]);
        // A URI reference: '/' separators on every platform.
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri == "broken/mp/playeranim.script" || uri.starts_with("broken/animtrees/"), "{uri}");
    }
}

#[test]
fn help_and_version_are_conventional() {
    let out = tool().arg("--version").output().unwrap();
    assert_eq!((String::from_utf8(out.stdout).unwrap(), out.status.code()), (format!("uoanim {}\n", env!("CARGO_PKG_VERSION")), Some(0)));
    let out = tool().args(["check", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(help.contains("--format <FORMAT>") && help.contains("sarif") && help.contains("--weapons <DIR|FILE>"), "{help}");
    let out = tool().args(["check", "--bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn explain_says_the_closest_name_of_an_unknown_one() {
    let said = |args: &[&str]| {
        let out = tool().args(args).current_dir(golden()).output().expect("run uoanim");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).expect("utf-8")
    };
    let e = said(&["explain", "clean", "--state", "combta"]);
    assert!(e.starts_with("uoanim: unknown state 'combta': did you mean 'combat'? (one of: relaxed, query, alert, combat)"), "{e}");
    let e = said(&["explain", "clean", "--movetype", "rn"]);
    assert!(e.contains("unknown move type 'rn': did you mean 'run'? (one of: idle, "), "the placeholder left out: {e}");
    let e = said(&["explain", "clean", "--movetype", "run", "--weapon", "kar98k"]);
    assert!(e.starts_with("uoanim: unknown weapon 'kar98k': did you mean 'kar98k_mp'?"), "{e}");
}
