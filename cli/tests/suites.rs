//! Suite agreement: for every error case of the differential suites (found
//! at `../shared/difftest` beside the repository), the engine diagnostic of
//! `uoanim check --engine` equals the C original's diagnostic recorded in
//! the suite's expected output (x86_64).
//!
//! * player animation (`pa`): every case whose init ends in an error; the
//!   case's script, weapons and patches become the tool's input (no tree:
//!   the suite's tree stub appends unknown names as the tool's stand-in
//!   tree does). Cases whose error comes from the suite's own stubs (a full
//!   or non-appending tree, a missing file or tree) are not engine
//!   diagnostics and are counted as not applicable.
//! * animation trees (`at`): every case that loads `.atr` texts with
//!   C-side or script references and ends in a parse error (`compile1`) or
//!   a duplicate error; the tool's tree loader gets the same files,
//!   `com_animCheck` and references. Other cases (assets, sync setup,
//!   script code cells, hand-built trees) are counted as not applicable.
//!
//! The test prints how many cases it compared; without `../shared` it says
//! so and counts zero.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use uoanim_cli::input::{Inputs, SourceFile};

fn difftest() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/difftest");
    dir.is_dir().then_some(dir)
}

/// `\xHH`, `\\`, `\-` escapes of the suite's names.
fn unescape_name(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() {
            match s[i + 1] {
                b'x' if i + 3 < s.len() + 1 => {
                    let h = std::str::from_utf8(&s[i + 2..i + 4]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                    if let Some(b) = h {
                        out.push(b);
                        i += 4;
                        continue;
                    }
                }
                b'\\' => {
                    out.push(b'\\');
                    i += 2;
                    continue;
                }
                b'-' => {
                    i += 2;
                    continue;
                }
                b'e' if s.len() == 2 => {
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// A dump string: `\xHH` for escaped bytes (also `\n`, `\\`, `\"` in the
/// tree suite's dumps).
fn unescape_dump(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() {
            match s[i + 1] {
                b'x' if i + 3 < s.len() => {
                    if let Some(b) = std::str::from_utf8(&s[i + 2..i + 4]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                        out.push(b);
                        i += 4;
                        continue;
                    }
                }
                b'n' => {
                    out.push(b'\n');
                    i += 2;
                    continue;
                }
                b'\\' | b'"' => {
                    out.push(s[i + 1]);
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// The quoted string after `key` in `line` (up to the last quote).
fn quoted_after<'l>(line: &'l [u8], key: &[u8]) -> Option<&'l [u8]> {
    let at = line.windows(key.len()).position(|w| w == key)? + key.len();
    let rest = &line[at..];
    let end = rest.iter().rposition(|&b| b == b'"')?;
    Some(&rest[..end])
}

/// Reads one line (without `\n`) at `*i`.
fn next_line<'t>(text: &'t [u8], i: &mut usize) -> Option<&'t [u8]> {
    if *i >= text.len() {
        return None;
    }
    let end = text[*i..].iter().position(|&b| b == b'\n').map_or(text.len(), |k| *i + k);
    let line = &text[*i..end];
    *i = end + 1;
    Some(line.strip_suffix(b"\r").unwrap_or(line))
}

fn words(line: &[u8]) -> Vec<&[u8]> {
    line.split(|&b| b == b' ' || b == b'\t').filter(|w| !w.is_empty()).collect()
}

struct PaCase {
    weapons: Vec<Vec<u8>>,
    script: Option<Vec<u8>>,
    stub_only: bool,
}

fn read_pa_setup(text: &[u8], data: &Path, case: &mut PaCase, patches: &mut Vec<(usize, usize, Vec<u8>)>) {
    let mut i = 0;
    while let Some(line) = next_line(text, &mut i) {
        let w = words(line);
        let Some(&first) = w.first() else { continue };
        let num = |k: usize| std::str::from_utf8(w[k]).unwrap().parse::<usize>().unwrap();
        match first {
            b"weapon" => case.weapons.push(unescape_name(w[1])),
            b"script" => {
                let n = num(1);
                case.script = Some(text[i..i + n].to_vec());
                i += n + 1;
            }
            b"script-file" => case.script = Some(fs::read(data.join(std::str::from_utf8(w[1]).unwrap())).unwrap()),
            b"patch" => {
                let (off, del, n) = (num(1), num(2), num(3));
                patches.push((off, del, text[i..i + n].to_vec()));
                i += n + 1;
            }
            b"include" => {
                let inc = fs::read(data.join(std::str::from_utf8(w[1]).unwrap())).unwrap();
                read_pa_setup(&inc, data, case, patches);
            }
            b"file-missing" | b"tree-missing" => case.stub_only = true,
            _ => {}
        }
    }
}

#[test]
fn pa_error_cases_agree_with_the_c_original() {
    let Some(dir) = difftest() else {
        println!("suite agreement (player animation): skipped, ../shared/difftest not found: 0 cases compared");
        return;
    };
    let pa = dir.join("pa");
    let data = pa.join("stock");
    let mut names: Vec<PathBuf> = fs::read_dir(pa.join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    let (mut compared, mut not_applicable, mut failures) = (0, 0, Vec::new());
    for case_path in names {
        let stem = case_path.file_stem().unwrap().to_str().unwrap().to_string();
        let expected = fs::read(pa.join("expected/x86_64").join(format!("{stem}.out"))).unwrap();
        let Some(error_line) = expected.split(|&b| b == b'\n').find(|l| l.starts_with(b"init error ")) else { continue };
        let want = unescape_dump(quoted_after(error_line, b" \"").unwrap());
        let text = fs::read(&case_path).unwrap();
        let mut case = PaCase { weapons: Vec::new(), script: None, stub_only: false };
        let mut patches = Vec::new();
        read_pa_setup(&text, &data, &mut case, &mut patches);
        if case.stub_only || want.starts_with(b"stub ") || want.starts_with(b"\x15stub ") {
            not_applicable += 1;
            continue;
        }
        let mut script = case.script.unwrap_or_default();
        for (off, del, bytes) in patches {
            script.splice(off..off + del, bytes);
        }
        let inputs = Inputs {
            script: Some(SourceFile { display: format!("{stem}.script"), name: String::new(), text: script }),
            weapons: Some(case.weapons),
            without_tree: true,
            ..Inputs::default()
        };
        let report = uoanim_cli::check(&inputs, &HashSet::new());
        let got = report.engine_first().and_then(|d| d.engine_text.clone()).unwrap_or_default();
        compared += 1;
        if got != want {
            failures.push(format!("{stem}: expected {:?}, got {:?}", String::from_utf8_lossy(&want), String::from_utf8_lossy(&got)));
        }
    }
    println!(
        "suite agreement (player animation): {compared} error cases compared, {} differ, {not_applicable} not applicable (suite stub errors)",
        failures.len()
    );
    assert!(compared > 400, "too few error cases found: {compared}");
    assert!(failures.is_empty(), "{} cases differ:\n{}", failures.len(), failures.join("\n"));
}

/// A tree case operation: name, first and second argument.
type CaseOp = (Vec<u8>, Vec<u8>, Option<Vec<u8>>);

/// The operations of a tree case the tool's loader models.
const AT_OPS: &[&[u8]] = &[b"animcheck", b"begin", b"file", b"using", b"anim", b"findanim", b"precache", b"dump", b"cells", b"checksum", b"end", b"findtree", b"runtime"];

#[test]
fn at_error_cases_agree_with_the_c_original() {
    use uoanim::error::Report;
    use uoanim_cli::trees::{load_trees, EngineError, TreeOp};
    let Some(dir) = difftest() else {
        println!("suite agreement (animation trees): skipped, ../shared/difftest not found: 0 cases compared");
        return;
    };
    let at = dir.join("at");
    let mut through_check = 0;
    let mut names: Vec<PathBuf> = fs::read_dir(at.join("cases")).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    let (mut compared, mut not_applicable, mut failures) = (0, 0, Vec::new());
    for case_path in names {
        let stem = case_path.file_name().unwrap().to_str().unwrap().trim_end_matches(".case").to_string();
        let Ok(expected) = fs::read(at.join("expected/x86_64").join(format!("{stem}.out"))) else { continue };
        let lines: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
        let Some(e) = lines.iter().position(|l| l.starts_with(b"error line=")) else { continue };
        let error_text = unescape_dump(quoted_after(lines[e], b"text=\"").unwrap());
        let want: Option<(Option<u32>, Vec<u8>)> = match lines.get(e + 1) {
            Some(l) if l.starts_with(b"compile1 pos=") => {
                let w = words(l);
                let pos = std::str::from_utf8(&w[1][4..]).unwrap().parse::<u32>().unwrap();
                Some((Some(pos), unescape_dump(quoted_after(l, b"text=\"").unwrap())))
            }
            _ if error_text.starts_with(b"\x15duplicate animation '") => Some((None, error_text.clone())),
            _ => None,
        };
        let at_precache = lines[e].windows(12).any(|w| w == b"op=precache ");
        let text = fs::read(&case_path).unwrap();
        // Setup and operations.
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        let mut ops: Vec<CaseOp> = Vec::new();
        let mut modelled = true;
        let mut i = 0;
        while let Some(line) = next_line(&text, &mut i) {
            let w = words(line);
            let Some(&first) = w.first() else { continue };
            if first.starts_with(b"#") {
                continue;
            }
            match first {
                b"atr" => {
                    let n: usize = std::str::from_utf8(w[2]).unwrap().parse().unwrap();
                    files.push((String::from_utf8_lossy(&unescape_name(w[1])).into_owned(), text[i..i + n].to_vec()));
                    i += n + 1;
                }
                b"atrfile" => files.push((String::from_utf8_lossy(w[1]).into_owned(), fs::read(at.join(std::str::from_utf8(w[2]).unwrap())).unwrap())),
                b"atrdir" => {
                    let mut d: Vec<PathBuf> = fs::read_dir(at.join(std::str::from_utf8(w[1]).unwrap())).unwrap().map(|e| e.unwrap().path()).collect();
                    d.sort();
                    for p in d.into_iter().filter(|p| p.extension().is_some_and(|x| x == "atr")) {
                        files.push((p.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&p).unwrap()));
                    }
                }
                b"atrrecords" | b"xanim" | b"xanimauto" => {}
                op if AT_OPS.contains(&op) => {
                    ops.push((op.to_vec(), w.get(1).map(|a| unescape_name(a)).unwrap_or_default(), w.get(2).map(|a| unescape_name(a))));
                }
                _ => modelled = false,
            }
        }
        let begins = ops.iter().filter(|o| o.0 == b"begin").count();
        let precaches = ops.iter().filter(|o| o.0 == b"precache").count();
        if want.is_none() || !at_precache || !modelled || begins != 1 || precaches != 1 {
            not_applicable += 1;
            continue;
        }
        let mut anim_check = 0;
        let mut using: Option<String> = None;
        let mut steps: Vec<(String, Option<Vec<u8>>)> = Vec::new();
        for (op, a1, a2) in &ops {
            match op.as_slice() {
                b"animcheck" => anim_check = std::str::from_utf8(a1).unwrap().parse::<i64>().unwrap() as i32,
                b"file" => using = None,
                b"using" => {
                    let t = String::from_utf8_lossy(a1).into_owned();
                    steps.push((t.clone(), None));
                    using = Some(t);
                }
                b"anim" => match &using {
                    Some(t) => steps.push((t.clone(), Some(a1.clone()))),
                    None => modelled = false,
                },
                b"findanim" => steps.push((String::from_utf8_lossy(a1).into_owned(), a2.clone())),
                b"precache" => break,
                _ => {}
            }
        }
        if !modelled {
            not_applicable += 1;
            continue;
        }
        let file_refs: Vec<(String, &[u8])> = files
            .iter()
            .filter_map(|(n, t)| n.strip_suffix(".atr").map(|stem| (stem.to_string(), t.as_slice())))
            .collect();
        let file_refs: Vec<(&str, &[u8])> = file_refs.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let tree_ops: Vec<TreeOp<'_>> = steps
            .iter()
            .map(|(t, n)| match n {
                Some(n) => TreeOp::Ref(t.as_str(), n.as_slice()),
                None => TreeOp::Using(t.as_str()),
            })
            .collect();
        let (outcome, _, _) = load_trees(&file_refs, &tree_ops, anim_check, "");
        let got: Option<(Option<u32>, Vec<u8>)> = match outcome {
            Err(EngineError { report: Report::Compile { source_pos }, text }) => Some((Some(source_pos), text)),
            Err(EngineError { report: Report::Error { .. }, text }) => Some((None, text)),
            _ => None,
        };
        compared += 1;
        if got != want {
            failures.push(format!("{stem}: expected {want:?}, got {got:?}"));
        }
        // One tree with com_animCheck 0: also through `check` (what
        // `--engine` prints) and its position.
        let one_tree = file_refs.len() == 1 && steps.iter().all(|(t, _)| t.eq_ignore_ascii_case(file_refs[0].0));
        if one_tree && anim_check == 0 && file_refs[0].0 == file_refs[0].0.to_ascii_lowercase() {
            let refs: Vec<&[u8]> = steps.iter().filter_map(|(_, n)| n.as_deref()).collect();
            let file = SourceFile { display: format!("{stem}.atr"), name: file_refs[0].0.to_string(), text: file_refs[0].1.to_vec() };
            let diags = uoanim_cli::trees::check_tree(&file, &refs);
            let first = diags.iter().find(|d| d.engine_first);
            let (want_pos, want_text) = want.clone().unwrap();
            let ok = first.is_some_and(|d| {
                // properties on a leaf are marked where they are, and the
                // note gives the line the engine names (the next name's)
                let leaf_properties = want_text == b"properties cannot be applied to primitive animations";
                let at = want_pos.is_none_or(|p| {
                    let (line, col) = uoanim_cli::diag::line_col(&file.text, p as usize);
                    if leaf_properties && (d.line, d.col) != (line, col) {
                        (d.line, d.col) < (line, col) && d.note.as_deref().is_some_and(|n| n.contains(&format!("at line {line} (the next name)")))
                    } else {
                        (line, col) == (d.line, d.col)
                    }
                });
                d.engine_text.as_deref() == Some(want_text.as_slice()) && at
            });
            through_check += 1;
            if !ok {
                failures.push(format!("{stem} (check): expected {want_text:?} at {want_pos:?}, got {:?}", first.map(|d| (d.line, d.col, d.engine_text.clone()))));
            }
        }
    }
    println!(
        "suite agreement (animation trees): {compared} error cases compared ({through_check} also through check), {} differ, {not_applicable} not applicable (asset, sync, script-cell or hand-built cases)",
        failures.len()
    );
    assert!(compared > 50, "too few error cases found: {compared}");
    assert!(failures.is_empty(), "{} cases differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_stock_facts_built_in_are_the_stock_files() {
    let Some(dir) = difftest() else {
        println!("stock facts: skipped, ../shared/difftest not found: 0 files compared");
        return;
    };
    let stock = dir.join("pa/stock");
    let script = SourceFile { display: "playeranim.script".into(), name: String::new(), text: fs::read(stock.join("playeranim.script")).unwrap() };
    let allow = uoanim_cli::left_out(&HashSet::new(), &HashSet::new());
    // The stock script, alone: checked with the built-in tree, weapons and
    // classes, it has no error and no warning.
    let alone = uoanim_cli::check(&Inputs { script: Some(script.clone()), ..Inputs::default() }, &allow);
    assert!(alone.stock_tree);
    let problems: Vec<String> = alone.diags.iter().filter(|d| d.severity != uoanim_cli::diag::Severity::Note).map(|d| format!("{}:{}: {}", d.line, d.code, d.message)).collect();
    assert!(problems.is_empty(), "{problems:?}");
    assert!(alone.classes.iter().all(|c| c.is_some()), "every stock weapon's class is known");
    // With the stock tree file: the same tree built, the same entries.
    let tree = SourceFile { display: "multiplayer.atr".into(), name: "multiplayer".into(), text: fs::read(stock.join("multiplayer.atr")).unwrap() };
    let with_file = uoanim_cli::check(&Inputs { script: Some(script), trees: vec![tree], ..Inputs::default() }, &allow);
    let nodes = |r: &uoanim_cli::Report| -> Vec<(Vec<u8>, bool)> { r.world.as_ref().unwrap().tree.nodes.iter().map(|n| (n.name.clone(), n.leaf)).collect() };
    assert_eq!(nodes(&alone), nodes(&with_file));
    assert!(nodes(&alone).len() > 300, "the script keeps most of the tree");
    // The built-in weapon names are the stock list's, in the game's order.
    let mut names: Vec<String> = fs::read_to_string(stock.join("weapons_mp.txt")).unwrap().lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    names.sort_by(|a, b| uoanim_cli::input::q_stricmp(a.as_bytes(), b.as_bytes()));
    assert_eq!(names, uoanim_cli::stock::UO_MP_WEAPONS);
    println!("stock facts: the stock script, tree ({} nodes built) and {} weapons agree with the built-in tables", nodes(&alone).len(), names.len());
}
