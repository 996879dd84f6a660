//! How `uoanim lsp` finds a mod's files: as `check` does (the mod from the
//! document, `input::mod_root`; paks over loose files), over the game's
//! folder that the `gameDirectory` initialization option names. A client
//! on an in-memory connection, on mods and game folders the tests build.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A fresh directory under the target's test directory.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lsp-files-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn pk3(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in members {
        w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Starts the server with these initialize params, opens `doc` and returns
/// its published diagnostics (code, message).
fn diagnostics_of(init: Value, doc: &Path) -> Vec<(String, String)> {
    let (client, server) = Connection::memory();
    let handle = std::thread::spawn(move || uoanim_cli::lsp::serve(server));
    let id = RequestId::from(1);
    client.sender.send(Message::Request(Request::new(id.clone(), "initialize".into(), init))).unwrap();
    loop {
        if let Message::Response(r) = client.receiver.recv_timeout(Duration::from_secs(20)).expect("the reply") {
            assert_eq!(r.id, id);
            break;
        }
    }
    let notify = |method: &str, params: Value| client.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    notify("initialized", json!({}));
    let uri = uoanim_cli::uri::from_path(doc);
    let text = std::fs::read_to_string(doc).unwrap();
    notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim", "version": 1, "text": text}}));
    let diags = loop {
        match client.receiver.recv_timeout(Duration::from_secs(20)).expect("the diagnostics") {
            Message::Notification(n) if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == json!(uri) => break n.params["diagnostics"].clone(),
            _ => {}
        }
    };
    let id = RequestId::from(2);
    client.sender.send(Message::Request(Request::new(id, "shutdown".into(), json!(null)))).unwrap();
    notify("exit", json!(null));
    assert_eq!(handle.join().unwrap(), uoanim_cli::lsp::Ending::Exit);
    diags.as_array().unwrap().iter().map(|d| (d["code"].as_str().unwrap().to_string(), d["message"].as_str().unwrap().to_string())).collect()
}

const IDLE: &[u8] = b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons game_rifle_mp\n\t\t{\n\t\t\tboth pb_main_only\n\t\t}\n\t}\n}\n";

#[test]
fn the_game_directory_setting_puts_the_games_folder_under_the_mod() {
    let d = scratch("game");
    let game = d.join("game");
    let tree = b"main\n{\n\ttorso\n\tlegs\n\t{\n\t\tpb_main_only\n\t}\n}\nturning\n";
    write(&game.join("main/pak0.pk3"), &pk3(&[("animtrees/multiplayer.atr", tree), ("weapons/mp/game_rifle_mp", b"WEAPONFILE\\weaponClass\\rifle")]));
    write(&game.join("uo/pakuo00.pk3"), &pk3(&[("weapons/mp/uo_smg_mp", b"")]));
    let m = d.join("mymod");
    write(&m.join("mp/playeranim.script"), IDLE);
    let root = uoanim_cli::uri::from_path(&m);
    // With the game's folder: its tree and weapons; the script is clean.
    let with = diagnostics_of(json!({"capabilities": {}, "rootUri": root, "initializationOptions": {"gameDirectory": game.display().to_string()}}), &m.join("mp/playeranim.script"));
    assert!(with.is_empty(), "{with:?}");
    // Without it: the stock names, which lack the game folder's weapon and
    // animation.
    let without = diagnostics_of(json!({"capabilities": {}, "rootUri": root}), &m.join("mp/playeranim.script"));
    assert!(without.iter().any(|(c, m)| c == "parse" && m.starts_with("unknown weapon 'game_rifle_mp'")), "{without:?}");
    assert!(without.iter().any(|(c, _)| c == "no-tree"), "{without:?}");
}

#[test]
fn without_a_workspace_the_mod_is_found_as_check_finds_it() {
    let d = scratch("nows");
    // A flat mod: the tree beside the script (the directory of the file is
    // the mod, as for `check`).
    let flat = d.join("flat");
    write(&flat.join("playeranim.script"), b"ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_flat_typo\n\t\t}\n\t}\n}\n");
    write(&flat.join("multiplayer.atr"), b"torso\nlegs\nturning\npb_flat\n");
    let got = diagnostics_of(json!({"capabilities": {}}), &flat.join("playeranim.script"));
    assert!(got.iter().any(|(c, m)| c == "anim-not-in-tree" && m.starts_with("animation 'pb_flat_typo'")), "{got:?}");
    assert!(!got.iter().any(|(c, _)| c == "no-tree"), "the mod's tree is found: {got:?}");
    // A loose script a pak of the mod hides: said on the open document.
    let m = d.join("Hidden");
    write(&m.join("MP/PlayerAnim.script"), IDLE);
    write(&m.join("zz.pk3"), &pk3(&[("mp/playeranim.script", IDLE)]));
    let got = diagnostics_of(json!({"capabilities": {}}), &m.join("MP/PlayerAnim.script"));
    let hidden = got.iter().find(|(c, _)| c == "hidden-by-pak").unwrap_or_else(|| panic!("{got:?}"));
    assert!(hidden.1.contains("zz.pk3"), "{hidden:?}");
}

/// The labels of the completion at the end of each line of `lines` of the
/// script `doc` (the server started as for [`diagnostics_of`]).
fn completions_at_line_ends(doc: &Path, lines: &[usize]) -> Vec<Vec<String>> {
    let (client, server) = Connection::memory();
    let handle = std::thread::spawn(move || uoanim_cli::lsp::serve(server));
    let request = |id: i32, method: &str, params: Value| -> Value {
        let id = RequestId::from(id);
        client.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            if let Message::Response(r) = client.receiver.recv_timeout(Duration::from_secs(20)).expect("the reply") {
                if r.id == id {
                    return r.result.unwrap_or(Value::Null);
                }
            }
        }
    };
    request(1, "initialize", json!({"capabilities": {}}));
    let notify = |method: &str, params: Value| client.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    notify("initialized", json!({}));
    let uri = uoanim_cli::uri::from_path(doc);
    let text = std::fs::read_to_string(doc).unwrap();
    notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim", "version": 1, "text": text}}));
    let mut out = Vec::new();
    for (n, &l) in lines.iter().enumerate() {
        let col = text.lines().nth(l).unwrap().chars().count();
        let items = request(10 + n as i32, "textDocument/completion", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
        out.push(items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect());
    }
    request(2, "shutdown", json!(null));
    notify("exit", json!(null));
    assert_eq!(handle.join().unwrap(), uoanim_cli::lsp::Ending::Exit);
    out
}

#[test]
fn after_legs_and_torso_completion_offers_the_animations_named_for_that_part() {
    let d = scratch("parts");
    let m = d.join("mymod");
    // The stock tree's convention without its blocks: pl_ legs, pt_ torso,
    // pb_ both, after an optional c_.
    write(&m.join("animtrees/multiplayer.atr"), b"main\n{\n\ttorso\n\tlegs\n\tturning\n\tpt_a\n\tpl_b\n\tpb_c\n\tc_pl_d\n\tC_PT_E\n}\n");
    let script = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tlegs \n\t\t\ttorso \n\t\t\tboth \n\t\t}\n\t}\n}\n";
    write(&m.join("mp/playeranim.script"), script.as_bytes());
    let got = completions_at_line_ends(&m.join("mp/playeranim.script"), &[7, 8, 9]);
    assert_eq!(got[0], ["pl_b", "c_pl_d"], "after legs");
    assert_eq!(got[1], ["pt_a", "C_PT_E"], "after torso");
    // (`torso`, `legs` and `turning` are leaves here: no block follows them)
    assert_eq!(got[2], ["torso", "legs", "turning", "pt_a", "pl_b", "pb_c", "c_pl_d", "C_PT_E"], "after both: every leaf");
}
