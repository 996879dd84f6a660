//! Protocol-level tests of `uoanim lsp`: a client on an in-memory
//! connection drives the server as an editor does.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::path::Path;
use uoanim_cli::lsp::Ending;
use std::time::Duration;

struct Client {
    conn: Connection,
    next: i32,
    /// The server's capabilities, from its answer to `initialize`.
    caps: Value,
    server: Option<std::thread::JoinHandle<Ending>>,
}

impl Client {
    fn start(root: &Path) -> Client {
        Client::start_with(root, Value::Null)
    }

    /// A server started with these initialization options.
    fn start_with(root: &Path, options: Value) -> Client {
        let (client, server) = Connection::memory();
        let handle = std::thread::spawn(move || uoanim_cli::lsp::serve(server));
        let mut c = Client { conn: client, next: 1, caps: Value::Null, server: Some(handle) };
        let caps = c.request("initialize", json!({"capabilities": {}, "rootUri": uoanim_cli::uri::from_path(root), "initializationOptions": options}));
        assert_eq!(caps["capabilities"]["hoverProvider"], true);
        c.caps = caps["capabilities"].clone();
        c.notify("initialized", json!({}));
        c
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next);
        self.next += 1;
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(20)).expect("a reply") {
                Message::Response(r) if r.id == id => return r.result.unwrap_or(Value::Null),
                _ => {}
            }
        }
    }

    /// Sends a request and returns its error (code, message), if any.
    fn request_error(&mut self, method: &str, params: Value) -> Option<(i32, String)> {
        let id = RequestId::from(self.next);
        self.next += 1;
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(20)).expect("a reply") {
                Message::Response(r) if r.id == id => return r.error.map(|e| (e.code, e.message)),
                _ => {}
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    /// Sends a request and returns the URIs of the diagnostics published
    /// before its reply.
    fn published_before(&mut self, method: &str, params: Value) -> Vec<String> {
        let id = RequestId::from(self.next);
        self.next += 1;
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        let mut uris = Vec::new();
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(20)).expect("a reply") {
                Message::Response(r) if r.id == id => return uris,
                Message::Notification(n) if n.method == "textDocument/publishDiagnostics" => uris.push(n.params["uri"].as_str().unwrap().to_string()),
                _ => {}
            }
        }
    }

    fn diagnostics(&self) -> Value {
        loop {
            if let Message::Notification(n) = self.conn.receiver.recv_timeout(Duration::from_secs(20)).expect("diagnostics") {
                if n.method == "textDocument/publishDiagnostics" {
                    return n.params;
                }
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let ending = self.server.take().unwrap().join().unwrap();
        assert_eq!(ending, Ending::Exit);
    }
}

#[test]
fn diagnostics_on_open_and_change_hover_and_completion() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let file = root.join("mp/playeranim.script");
    let uri = uoanim_cli::uri::from_path(&file);
    let clean = std::fs::read_to_string(&file).unwrap();
    // A weapon the mod does not have, after a tab and a non-ASCII comment.
    let broken = clean.replacen("ANIMATIONS", "// caf\u{e9}\nANIMATIONS", 1).replacen("\tweapons rifles", "\tweapons nope_mp", 1);
    assert_ne!(broken, clean);
    let mut c = Client::start(&root);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": broken}}));
    let d = c.diagnostics();
    assert_eq!(d["uri"], uri);
    let errors: Vec<&Value> = d["diagnostics"].as_array().unwrap().iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 1, "{d}");
    let e = errors[0];
    assert_eq!(e["code"], "parse");
    assert!(e["message"].as_str().unwrap().starts_with("unknown weapon 'nope_mp' (the error the engine raises)"), "{e}");
    assert_eq!(e["data"]["engineFirst"], true);
    // The range covers the token exactly.
    let line = broken.lines().nth(e["range"]["start"]["line"].as_u64().unwrap() as usize).unwrap();
    let (s, t) = (e["range"]["start"]["character"].as_u64().unwrap() as usize, e["range"]["end"]["character"].as_u64().unwrap() as usize);
    assert_eq!(&line[s..t], "nope_mp");
    // Hover on the error: its message; on a condition key: the condition.
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": e["range"]["start"]}));
    assert!(h["contents"]["value"].as_str().unwrap().contains("unknown weapon 'nope_mp'"), "{h}");
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": e["range"]["start"]["line"], "character": s - 3}}));
    assert!(h["contents"]["value"].as_str().unwrap().contains("condition `weapons`"), "{h}");
    // Edited away: the errors clear.
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": clean}]}));
    let d = c.diagnostics();
    assert!(d["diagnostics"].as_array().unwrap().iter().all(|d| d["severity"] != 1), "{d}");
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    for want in ["animations", "combat", "walk", "weapons", "kar98k_mp", "fireweapon", "rifles", "pb_rifle_idle"] {
        assert!(labels.contains(&want), "{want} missing in {labels:?}");
    }
    println!("lsp: {} completion items", labels.len());
    let find = |text: &str| {
        let (l, line) = clean.lines().enumerate().find(|(_, l)| l.trim() == text).unwrap_or_else(|| panic!("no line {text}"));
        (l, line.to_string())
    };
    let complete = |c: &mut Client, l: usize, col: usize| -> Vec<String> {
        let items = c.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
        items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
    };
    // After `both`: the animation names of the mod's tree.
    let (l, line) = find("both pb_rifle_run blendtime 150");
    let labels = complete(&mut c, l, line.find("pb_").unwrap() + 2);
    for want in ["pb_rifle_run", "pb_pistol_idle", "pt_rifle_fire", "pl_run_left"] {
        assert!(labels.iter().any(|x| x == want), "{want} missing in {labels:?}");
    }
    // leaves only: no parent of the tree
    assert!(!labels.iter().any(|x| x == "combat" || x == "kar98k_mp" || x == "torso" || x == "main"), "{labels:?}");
    // After `legs` and `torso`: the leaves of the tree's block of that name,
    // each replacing the word typed.
    let (l, line) = find("legs pl_run_left duration 700 torso pt_rifle_run");
    let col = line.find("pl_run").unwrap() + 3;
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
    assert_eq!(items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect::<Vec<_>>(), ["pl_run_left"]);
    let range = json!({"start": {"line": l, "character": col - 3}, "end": {"line": l, "character": col + 8}});
    assert_eq!(items[0]["textEdit"], json!({"range": range, "newText": "pl_run_left"}));
    let labels = complete(&mut c, l, line.find("pt_rifle_run").unwrap() + 1);
    assert_eq!(labels, ["pt_rifle_fire", "pt_pistol_fire", "pt_rifle_run"]);
    // After `weapons`: weapons and the weapons defines, not the movetype one.
    let (l, line) = find("weapons rifles");
    let labels = complete(&mut c, l, line.find("rifles").unwrap() + 1);
    for want in ["rifles", "pistols", "leftover", "kar98k_mp", "colt_mp", "none", "MINUS"] {
        assert!(labels.iter().any(|x| x == want), "{want} missing in {labels:?}");
    }
    assert!(!labels.iter().any(|x| x == "moving" || x == "combat" || x == "walk"), "{labels:?}");
    // After `strafing`: its values.
    let (l, line) = find("weapons rifles, strafing left");
    let labels = complete(&mut c, l, line.find("left").unwrap());
    assert!(["not", "left", "right"].iter().all(|w| labels.iter().any(|x| x == w)), "{labels:?}");
    // Hover on a condition value: what it is of which condition, the values.
    let hover = |c: &mut Client, l: usize, col: usize| -> String {
        let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
        h["contents"]["value"].as_str().unwrap_or("").to_string()
    };
    let h = hover(&mut c, l, line.find("left").unwrap() + 1);
    assert!(h.contains("`left`: a value of condition `strafing` (= 1); its values: `not`, `left`, `right`\n") || h.ends_with("`left`: a value of condition `strafing` (= 1); its values: `not`, `left`, `right`"), "{h}");
    let h = hover(&mut c, l, line.find("strafing").unwrap() + 1);
    assert!(h.contains("condition `strafing`: the direction the player strafes in") && h.contains("values: `not`, `left`, `right`"), "{h}");
    let (l, line) = find("weapons mp40_mp");
    let h = hover(&mut c, l, line.find("mp40").unwrap());
    assert!(h.contains("`mp40_mp`: weapon 38 of the weapon list, bit 38 of condition `weapons`"), "{h}");
    // Hover on a quirk warning: the diagnostic and its explanation from
    // docs/CHECK.md.
    let (l, line) = find("movetype none");
    let h = hover(&mut c, l, line.find("none").unwrap() + 1);
    assert!(h.contains("**warning** `none-bit0`: 'none' sets bit 0"), "{h}");
    assert!(h.contains("`none` in a WEAPONCLASS or MOVETYPE condition sets bit 0, the first value of\nthat list"), "{h}");
    assert!(h.contains("`none`: a value of condition `movetype` (bit 0, the first value of the list (an unused slot): not 'no value')"), "{h}");
    // Definition: a define's use goes to its `set` line; an animation name
    // into multiplayer.atr.
    let (l, line) = clean.lines().enumerate().find(|(_, l)| l.trim() == "weapons pistols").unwrap();
    let col = line.find("pistols").unwrap() + 2;
    let d = c.request("textDocument/definition", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
    assert_eq!((d["uri"].as_str().unwrap(), d["range"]["start"]["line"].as_u64()), (uri.as_str(), Some(4)), "{d}");
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
    assert!(h["contents"]["value"].as_str().unwrap().contains("define `pistols` (`weapons`): `colt_mp`"), "{h}");
    let (l, line) = clean.lines().enumerate().find(|(_, l)| l.trim() == "both pb_pistol_idle").unwrap();
    let col = line.find("pb_pistol_idle").unwrap() + 1;
    let d = c.request("textDocument/definition", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
    assert!(d["uri"].as_str().unwrap().ends_with("animtrees/multiplayer.atr"), "{d}");
    assert_eq!(d["range"]["start"], json!({"line": 15, "character": 1}));
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": col}}));
    let h = h["contents"]["value"].as_str().unwrap();
    assert!(h.contains("animation `pb_pistol_idle` of tree `multiplayer`: a leaf (an xanim asset of that name), under `main`"), "{h}");
    assert!(h.contains("flags: none") && h.contains("multiplayer.atr:16"), "{h}");
    let (l, line) = clean.lines().enumerate().find(|(_, l)| l.contains("legs pl_run_left")).unwrap();
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": line.find("pt_rifle_run").unwrap() + 2}}));
    assert!(h["contents"]["value"].as_str().unwrap().contains("animation `pt_rifle_run` of tree `multiplayer`: a leaf (an xanim asset of that name), under `torso`"), "{h}");
    // The outline: nested (see document_symbols_are_nested_and_blocks_fold).
    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let top: Vec<&str> = syms.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(top, ["DEFINES", "ANIMATIONS", "EVENTS"], "{syms}");
}

#[test]
fn a_tree_document_and_a_document_not_on_disk() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let file = root.join("animtrees/multiplayer.atr");
    let uri = uoanim_cli::uri::from_path(&file);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&root);
    // A property on a leaf: the engine's error, at the ':'.
    let broken = text.replacen("\tpb_never\n", "\tpb_never : loopsync\n", 1);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-atr", "version": 1, "text": broken}}));
    let d = c.diagnostics();
    let first: Vec<&Value> = d["diagnostics"].as_array().unwrap().iter().filter(|d| d["data"]["engineFirst"] == true).collect();
    assert_eq!(first.len(), 1, "{d}");
    assert_eq!(first[0]["code"], json!("atr"), "{d}");
    let message = first[0]["message"].as_str().unwrap();
    assert!(message.starts_with("properties (': loopsync') only apply to a block: this name opens none (the error the engine raises)"), "{d}");
    assert!(message.contains("note: the engine says: properties cannot be applied to primitive animations"), "{d}");
    // Hover on a parent: its children; on a leaf: its block.
    let (l, line) = text.lines().enumerate().find(|(_, l)| l.trim() == "torso").unwrap();
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": line.find("torso").unwrap() + 1}}));
    let h = h["contents"]["value"].as_str().unwrap();
    assert!(h.contains("animation `torso` of tree `multiplayer`: a parent of 3 (`pt_rifle_fire`, `pt_pistol_fire`, `pt_rifle_run`), under `main`"), "{h}");
    // The outline: the names under their blocks.
    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let main = &syms[0];
    assert_eq!((main["name"].as_str(), main["children"].as_array().map(Vec::len)), (Some("main"), Some(9)), "{syms}");
    assert_eq!((main["children"][0]["name"].as_str(), main["children"][0]["children"][2]["name"].as_str()), (Some("torso"), Some("pt_rifle_run")), "{syms}");
    // The script, not on disk, sees the open tree's text (with the error,
    // the engine stops in the tree: the script has no diagnostics of its
    // own), its names complete after `both`.
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text.replacen("pb_never", "pb_never_again", 1)}]}));
    let d = c.diagnostics();
    assert!(d["diagnostics"].as_array().unwrap().iter().all(|d| d["severity"] != 1), "{d}");
    let script = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_\n\t\t}\n\t}\n}\n";
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": "untitled:Untitled-1", "languageId": "uoanim-script", "version": 1, "text": script}}));
    let d = c.diagnostics();
    assert_eq!(d["uri"], "untitled:Untitled-1");
    assert!(d["diagnostics"].as_array().unwrap().iter().any(|d| d["code"] == "anim-not-in-tree"), "{d}");
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 7, "character": 10}}));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"pb_never_again") && labels.contains(&"pb_smg_idle") && !labels.contains(&"pb_never"), "{labels:?}");
    // A name as the tree spells it.
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text.replacen("pb_never", "PB_Never-Again", 1)}]}));
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 7, "character": 10}}));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"PB_Never-Again"), "{labels:?}");
}

/// The codes of a publication's errors and warnings (not its notes: what
/// the check assumed).
fn codes(d: &Value) -> Vec<&str> {
    d["diagnostics"].as_array().unwrap().iter().filter(|d| d["severity"] != 3).map(|d| d["code"].as_str().unwrap()).collect()
}

#[test]
fn an_edit_of_an_open_tree_checks_the_open_script_that_reads_it_again() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let script_uri = uoanim_cli::uri::from_path(&root.join("mp/playeranim.script"));
    let tree_file = root.join("animtrees/multiplayer.atr");
    let tree_uri = uoanim_cli::uri::from_path(&tree_file);
    let tree = std::fs::read_to_string(&tree_file).unwrap();
    let mut c = Client::start(&root);
    // The script (its text in the editor only) plays an animation the tree
    // does not have.
    let script = "ANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tboth pb_crouch_idle\n\t\t}\n\t}\n}\n";
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": script_uri, "languageId": "uoanim-script", "version": 1, "text": script}}));
    let d = c.diagnostics();
    assert_eq!((&d["uri"], codes(&d)), (&json!(script_uri), vec!["anim-not-in-tree"]), "{d}");
    // The tree opened as it is on disk: the tree, then the script that
    // reads it, unchanged.
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": tree_uri, "languageId": "uoanim-atr", "version": 1, "text": tree}}));
    let d = c.diagnostics();
    assert_eq!(d["uri"], tree_uri);
    let d = c.diagnostics();
    assert_eq!((&d["uri"], codes(&d)), (&json!(script_uri), vec!["anim-not-in-tree"]), "{d}");
    // The animation added in the editor (not saved): the script's
    // diagnostics are published again, empty, the script untouched.
    let added = tree.replacen("\tpb_never\n", "\tpb_never\n\tpb_crouch_idle\n", 1);
    assert_ne!(added, tree);
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": tree_uri, "version": 2}, "contentChanges": [{"text": added}]}));
    let d = c.diagnostics();
    assert_eq!(d["uri"], tree_uri);
    let d = c.diagnostics();
    assert_eq!((&d["uri"], codes(&d)), (&json!(script_uri), Vec::<&str>::new()), "{d}");
    // A tree of the same name elsewhere is not the one the script reads: its
    // edits publish its own diagnostics only.
    let other_uri = uoanim_cli::uri::from_path(&root.join("elsewhere/multiplayer.atr"));
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": other_uri, "languageId": "uoanim-atr", "version": 1, "text": tree}}));
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": other_uri, "version": 2}, "contentChanges": [{"text": added}]}));
    let uris = c.published_before("textDocument/documentSymbol", json!({"textDocument": {"uri": script_uri}}));
    assert_eq!(uris, [other_uri.as_str(), other_uri.as_str()]);
    // The tree closed: the script reads the file again, without the
    // animation.
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": tree_uri}}));
    let d = c.diagnostics();
    assert_eq!((&d["uri"], codes(&d)), (&json!(script_uri), vec!["anim-not-in-tree"]), "{d}");
}

/// The position (0-based line, UTF-16 column) of the `nth` occurrence of
/// `word` in `text`.
fn pos_of(text: &str, word: &str, nth: usize) -> Value {
    let at = text.match_indices(word).nth(nth).unwrap_or_else(|| panic!("no {word} #{nth}")).0;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

/// The 0-based line of the first line of `text` that is `line` trimmed,
/// after line `after`.
fn line_of(text: &str, line: &str, after: usize) -> u64 {
    text.lines().enumerate().skip(after).find(|(_, l)| l.trim() == line).unwrap_or_else(|| panic!("no line {line}")).0 as u64
}

#[test]
fn document_symbols_are_nested_and_blocks_fold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let file = root.join("mp/playeranim.script");
    let uri = uoanim_cli::uri::from_path(&file);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&root);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": text}}));
    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names = |v: &Value| -> Vec<String> { v["children"].as_array().map_or(Vec::new(), |a| a.iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()) };
    // Defines under DEFINES, with their type and expansion.
    let defines = &syms[0];
    assert_eq!(names(defines), ["rifles", "pistols", "leftover", "moving"]);
    assert_eq!(defines["children"][0]["detail"], "define: weapons = kar98k_mp AND enfield_mp");
    assert_eq!(defines["children"][0]["kind"], 14, "a constant");
    assert_eq!(defines["children"][0]["selectionRange"]["start"], pos_of(&text, "rifles", 0));
    // Sections > states > move types > condition blocks.
    let animations = &syms[1];
    assert_eq!(names(animations), ["COMBAT"]);
    let combat = &animations["children"][0];
    assert_eq!(names(combat), ["idle", "run"]);
    assert_eq!(names(&combat["children"][0]), ["weapons rifles", "weapons pistols", "default", "weapons mp40_mp"]);
    assert_eq!(names(&combat["children"][1])[0], "weapons rifles, strafing left");
    // The range: the head to the block's '}'; the selection: the name.
    let state_line = line_of(&text, "state COMBAT", 0);
    assert_eq!(combat["range"]["start"], json!({"line": state_line, "character": 0}));
    assert_eq!(combat["range"]["end"], json!({"line": line_of(&text, "EVENTS", 0) - 2, "character": 1}));
    assert_eq!(combat["selectionRange"], json!({"start": {"line": state_line, "character": 6}, "end": {"line": state_line, "character": 12}}));
    let block = &combat["children"][0]["children"][0];
    let head = line_of(&text, "weapons rifles", 0);
    assert_eq!((block["range"]["start"]["line"].as_u64(), block["range"]["end"]["line"].as_u64()), (Some(head), Some(head + 3)), "{block}");
    // Events and their blocks.
    assert_eq!(syms[2]["children"][0]["name"], "fireweapon");
    assert_eq!(names(&syms[2]["children"][0]), ["weapons rifles", "weapons pistols"]);

    // Folding: every block and section; comments.
    let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": uri}}));
    let folds: Vec<(u64, u64, &str)> = folds.as_array().unwrap().iter().map(|f| (f["startLine"].as_u64().unwrap(), f["endLine"].as_u64().unwrap(), f["kind"].as_str().unwrap())).collect();
    assert!(folds.contains(&(state_line, combat["range"]["end"]["line"].as_u64().unwrap(), "region")), "{folds:?}");
    assert!(folds.contains(&(head, head + 3, "region")), "{folds:?}");
    assert!(folds.contains(&(1, 6, "region")), "DEFINES to its last define: {folds:?}");
    // 1 define section, 2 other sections, 1 state, 2 move types, 9 blocks,
    // 1 event, 2 blocks.
    assert_eq!(folds.len(), 18, "{folds:?}");

    let script = "// one\n// two\nEVENTS\n/* a\n   b */\npain\n{\n\tdefault\n\t{\n\t\tboth a\n\t}\n}\n";
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": "untitled:s", "languageId": "uoanim-script", "version": 1, "text": script}}));
    let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": "untitled:s"}}));
    let folds: Vec<(u64, u64, &str)> = folds.as_array().unwrap().iter().map(|f| (f["startLine"].as_u64().unwrap(), f["endLine"].as_u64().unwrap(), f["kind"].as_str().unwrap())).collect();
    assert_eq!(folds, [(0, 1, "comment"), (2, 11, "region"), (3, 4, "comment"), (5, 11, "region"), (7, 10, "region")]);
    let tree = "main\n{\n\ttorso : loopsync\n\t{\n\t\tpt_a\n\t}\n\tpb_b\n}\n";
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": "untitled:t.atr", "languageId": "uoanim-atr", "version": 1, "text": tree}}));
    let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": "untitled:t.atr"}}));
    let folds: Vec<(u64, u64)> = folds.as_array().unwrap().iter().map(|f| (f["startLine"].as_u64().unwrap(), f["endLine"].as_u64().unwrap())).collect();
    assert_eq!(folds, [(0, 7), (2, 5)]);
    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": "untitled:t.atr"}}));
    assert_eq!(syms[0]["children"][0]["detail"], "parent of 1: loopsync");
    assert_eq!(syms[0]["children"][0]["range"], json!({"start": {"line": 2, "character": 1}, "end": {"line": 5, "character": 2}}));
}

/// The (uri, start line, start column) of each location, sorted.
fn locations(v: &Value) -> Vec<(String, u64, u64)> {
    let mut out: Vec<(String, u64, u64)> = v
        .as_array()
        .unwrap_or_else(|| panic!("no locations: {v}"))
        .iter()
        .map(|l| (l["uri"].as_str().unwrap().to_string(), l["range"]["start"]["line"].as_u64().unwrap(), l["range"]["start"]["character"].as_u64().unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn references_highlights_and_rename_across_the_script_and_its_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let file = root.join("mp/playeranim.script");
    let uri = uoanim_cli::uri::from_path(&file);
    let tree_file = root.join("animtrees/multiplayer.atr");
    let tree_uri = uoanim_cli::uri::from_path(&tree_file);
    let text = std::fs::read_to_string(&file).unwrap();
    let tree = std::fs::read_to_string(&tree_file).unwrap();
    let mut c = Client::start(&root);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": text}}));
    let at = |p: Value| json!({"textDocument": {"uri": uri}, "position": p});
    let line = |l: &str, n: usize| text.lines().enumerate().filter(|(_, x)| x.trim() == l).nth(n).unwrap().0 as u64;
    // A define: its `set` line and its four uses in condition lines.
    let mut params = at(pos_of(&text, "rifles", 2));
    params["context"] = json!({"includeDeclaration": true});
    let refs = locations(&c.request("textDocument/references", params.clone()));
    let want: Vec<(String, u64, u64)> = vec![
        (uri.clone(), 3, 12),
        (uri.clone(), line("weapons rifles", 0), 10),
        (uri.clone(), line("weapons rifles, strafing left", 0), 10),
        (uri.clone(), line("weapons rifles", 1), 10),
        (uri.clone(), line("weapons rifles", 2), 9),
    ];
    let mut sorted = want.clone();
    sorted.sort();
    assert_eq!(refs, sorted);
    params["context"] = json!({"includeDeclaration": false});
    assert_eq!(locations(&c.request("textDocument/references", params)).len(), 4);
    let hl = c.request("textDocument/documentHighlight", at(pos_of(&text, "rifles", 0)));
    let kinds: Vec<u64> = hl.as_array().unwrap().iter().map(|h| h["kind"].as_u64().unwrap()).collect();
    assert_eq!((kinds.len(), kinds.iter().filter(|&&k| k == 3).count()), (5, 1), "one write (the set line), four reads: {hl}");
    // A move type: its block and its use as a value of `movetype`.
    let mut params = at(pos_of(&text, "\trun\n", 0));
    params["position"]["character"] = json!(1);
    params["context"] = json!({"includeDeclaration": true});
    let refs = locations(&c.request("textDocument/references", params));
    assert_eq!(refs, [(uri.clone(), 6, 31), (uri.clone(), line("run", 0), 1)]);
    // An animation: its command in the script and its leaf in the tree
    // (from either file).
    let refs = locations(&c.request("textDocument/references", {
        let mut p = at(pos_of(&text, "pb_pistol_idle", 0));
        p["context"] = json!({"includeDeclaration": true});
        p
    }));
    assert_eq!(refs, [(tree_uri.clone(), 15, 1), (uri.clone(), line("both pb_pistol_idle", 0), 8)]);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": tree_uri, "languageId": "uoanim-atr", "version": 1, "text": tree}}));
    let mut p = json!({"textDocument": {"uri": tree_uri}, "position": pos_of(&tree, "pb_pistol_idle", 0), "context": {"includeDeclaration": true}});
    assert_eq!(locations(&c.request("textDocument/references", p.clone())), refs);
    p["context"]["includeDeclaration"] = json!(false);
    assert_eq!(locations(&c.request("textDocument/references", p)), [(uri.clone(), line("both pb_pistol_idle", 0), 8)]);

    // Rename: a define, over its five places.
    let prep = c.request("textDocument/prepareRename", at(pos_of(&text, "rifles", 1)));
    assert_eq!(prep["placeholder"], "rifles");
    assert_eq!(prep["range"]["start"], pos_of(&text, "rifles", 1));
    let mut params = at(pos_of(&text, "rifles", 1));
    params["newName"] = json!("long_guns");
    let edit = c.request("textDocument/rename", params);
    let edits = edit["changes"][uri.as_str()].as_array().unwrap();
    assert_eq!(edits.len(), 5, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "long_guns"));
    assert_eq!(edit["changes"].as_object().unwrap().len(), 1);
    // An animation: in the script and in the tree.
    let mut params = at(pos_of(&text, "pt_rifle_run", 0));
    params["newName"] = json!("pt_rifle_sprint");
    let edit = c.request("textDocument/rename", params);
    let edits = |u: &str| -> Vec<(u64, u64, u64)> {
        edit["changes"][u].as_array().unwrap_or_else(|| panic!("no edits of {u}: {edit}")).iter().map(|e| (e["range"]["start"]["line"].as_u64().unwrap(), e["range"]["start"]["character"].as_u64().unwrap(), e["range"]["end"]["character"].as_u64().unwrap())).collect()
    };
    let l = line("legs pl_run_left duration 700 torso pt_rifle_run", 0);
    assert_eq!(edits(&uri), [(l, 39, 51)]);
    assert_eq!(edits(&tree_uri), [(7, 2, 14)]);
    // The engine's names cannot be renamed; a name must be a name.
    let mut params = at(pos_of(&text, "idle", 0));
    params["newName"] = json!("rest");
    let e = c.request_error("textDocument/rename", params.clone()).expect("an error");
    assert_eq!(e.0, -32803);
    assert!(e.1.contains("'idle' is a move type: its name is fixed by the engine"), "{e:?}");
    let e = c.request_error("textDocument/prepareRename", params).expect("an error");
    assert!(e.1.contains("is a move type"), "{e:?}");
    let mut params = at(pos_of(&text, "COMBAT", 0));
    params["newName"] = json!("fight");
    assert!(c.request_error("textDocument/rename", params).expect("an error").1.contains("'COMBAT' is a state"));
    let mut params = at(pos_of(&text, "pb_rifle_idle", 0));
    params["newName"] = json!("pb rifle");
    assert!(c.request_error("textDocument/rename", params).expect("an error").1.contains("letters, digits and '_'"));
}

/// A script of one `idle` block list of COMBAT, its blocks' lines given.
fn idle_script(blocks: &[(&str, &str)]) -> String {
    let blocks: String = blocks.iter().map(|(cond, anim)| format!("\t\t{cond}\n\t\t{{\n\t\t\tboth {anim}\n\t\t}}\n")).collect();
    format!("ANIMATIONS\nstate COMBAT\n{{\n\tidle\n\t{{\n{blocks}\t}}\n}}\n")
}

/// An edit: its start, end and new text.
type Edit = (Value, Value, String);

/// The code actions over the whole of a document: (title, the edits of
/// that document).
fn actions(c: &mut Client, uri: &str) -> Vec<(String, Vec<Edit>)> {
    let all = c.request("textDocument/codeAction", json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}}, "context": {"diagnostics": []}}));
    all.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            assert_eq!(a["kind"], "quickfix");
            let edits = a["edit"]["changes"][uri].as_array().unwrap().iter().map(|e| (e["range"]["start"].clone(), e["range"]["end"].clone(), e["newText"].as_str().unwrap().to_string())).collect();
            (a["title"].as_str().unwrap().to_string(), edits)
        })
        .collect()
}

#[test]
fn quick_fixes_and_related_places() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let mut c = Client::start(&root);
    let open = |c: &mut Client, uri: &str, text: &str| {
        c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": text}}));
        c.diagnostics()
    };
    // An unknown name: its "did you mean".
    let text = idle_script(&[("movetype wlak", "pb_smg_idle")]);
    let d = open(&mut c, "untitled:a", &text);
    let error = d["diagnostics"].as_array().unwrap().iter().find(|d| d["severity"] == 1).expect("the error");
    assert!(error["message"].as_str().unwrap().contains("help: did you mean 'walk'?"), "{d}");
    let a = actions(&mut c, "untitled:a");
    assert_eq!(a, [("replace with 'walk'".to_string(), vec![(pos_of(&text, "wlak", 0), json!({"line": 5, "character": 15}), "walk".to_string())])]);
    // Words not joined by an operator: AND between them.
    let text = idle_script(&[("movetype walk run", "pb_smg_idle")]);
    open(&mut c, "untitled:b", &text);
    let a = actions(&mut c, "untitled:b");
    assert_eq!(a, [("join the words with AND".to_string(), vec![(pos_of(&text, "walk", 0), json!({"line": 5, "character": 19}), "walk AND run".to_string())])]);
    // A '{' never closed: the '}' line inserted where it seems missing.
    let text = idle_script(&[("weapons colt_mp", "pb_smg_idle"), ("weapons kar98k_mp", "pb_rifle_idle")]).replacen("pb_smg_idle\n\t\t}\n", "pb_smg_idle\n", 1);
    let d = open(&mut c, "untitled:c", &text);
    let e = d["diagnostics"].as_array().unwrap().iter().find(|d| d["severity"] == 1).expect("the error");
    assert_eq!(e["relatedInformation"], json!([{"location": {"uri": "untitled:c", "range": {"start": {"line": 8, "character": 0}, "end": {"line": 8, "character": 0}}}, "message": "the block's '}' seems missing before this line"}]), "{d}");
    let a = actions(&mut c, "untitled:c");
    assert_eq!(a, [("insert the '}' before line 9".to_string(), vec![(json!({"line": 8, "character": 0}), json!({"line": 8, "character": 0}), "\t\t}\n".to_string())])]);
    // A warning: the block that hides it is related; the code allowed in
    // the file by a comment, which the check honours.
    let text = idle_script(&[("default", "pb_stand_idle"), ("weapons colt_mp", "pb_smg_idle")]);
    let d = open(&mut c, "untitled:d", &text);
    let w = d["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "unreachable-block").unwrap_or_else(|| panic!("{d}"));
    assert_eq!(w["relatedInformation"][0]["location"]["range"]["start"], pos_of(&text, "default", 0));
    assert_eq!(w["relatedInformation"][0]["message"], "this block of 'state combat idle' always matches");
    let a = actions(&mut c, "untitled:d");
    let allow = a.iter().find(|(t, _)| t == "allow 'unreachable-block' in this file").unwrap_or_else(|| panic!("{a:?}"));
    assert_eq!(allow.1, [(json!({"line": 0, "character": 0}), json!({"line": 0, "character": 0}), "// uoanim: allow(unreachable-block)\n".to_string())]);
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": "untitled:d", "version": 2}, "contentChanges": [{"text": format!("{}{text}", allow.1[0].2)}]}));
    let d = c.diagnostics();
    assert!(!codes(&d).contains(&"unreachable-block"), "{d}");
}

#[test]
fn settings_choose_the_weapons_and_the_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let uri = uoanim_cli::uri::from_path(&root.join("mp/playeranim.script"));
    let text = std::fs::read_to_string(root.join("mp/playeranim.script")).unwrap();
    let open = |c: &mut Client| {
        c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": text}}));
        c.diagnostics()
    };
    // By default the opt-in codes are left out.
    let mut c = Client::start(&root);
    let d = open(&mut c);
    assert!(codes(&d).contains(&"none-bit0") && !codes(&d).contains(&"unused-define"), "{d}");
    drop(c);
    // An opt-in code asked for at start.
    let mut c = Client::start_with(&root, json!({"warn": ["unused-define"]}));
    let d = open(&mut c);
    let unused: Vec<&Value> = d["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "unused-define").collect();
    assert_eq!(unused.len(), 2, "{d}");
    assert_eq!((&unused[0]["range"]["start"], &unused[1]["range"]["start"]), (&pos_of(&text, "leftover", 0), &pos_of(&text, "moving", 0)));
    // Changed: a code allowed, the opt-in one no more; then a weapon list
    // without the rifles.
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"uoanim": {"allow": ["none-bit0"]}}}));
    let d = c.diagnostics();
    assert!(!codes(&d).contains(&"none-bit0") && !codes(&d).contains(&"unused-define"), "{d}");
    assert!(codes(&d).contains(&"never-holds"), "the other warnings stay: {d}");
    let list = std::env::temp_dir().join(format!("uoanim-lsp-weapons-{}.txt", std::process::id()));
    std::fs::write(&list, "colt_mp\nmp40_mp\n").unwrap();
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"uoanim": {"weapons": list}}}));
    let d = c.diagnostics();
    std::fs::remove_file(&list).unwrap();
    let first = d["diagnostics"].as_array().unwrap().iter().find(|d| d["severity"] == 1).unwrap_or_else(|| panic!("{d}"));
    assert!(first["message"].as_str().unwrap().starts_with("unknown weapon 'kar98k_mp'"), "{first}");
}

/// A semantic token decoded: (line, start, length, type, modifiers), its
/// type and modifiers named by the legend.
type Token = (u64, u64, u64, String, Vec<String>);

/// The semantic tokens of a document, decoded from LSP's relative encoding
/// by the legend the server advertised.
fn semantic_tokens(c: &mut Client, uri: &str) -> Vec<Token> {
    let legend = c.caps["semanticTokensProvider"]["legend"].clone();
    let name = |key: &str, i: u64| legend[key][i as usize].as_str().unwrap_or_else(|| panic!("{key} {i} not in {legend}")).to_string();
    let r = c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    let data: Vec<u64> = r["data"].as_array().unwrap_or_else(|| panic!("no data: {r}")).iter().map(|n| n.as_u64().unwrap()).collect();
    assert_eq!(data.len() % 5, 0);
    let (mut line, mut start) = (0, 0);
    data.chunks(5)
        .map(|t| {
            line += t[0];
            start = if t[0] == 0 { start + t[1] } else { t[1] };
            let modifiers = (0..32).filter(|b| t[4] & (1 << b) != 0).map(|b| name("tokenModifiers", b)).collect();
            (line, start, t[2], name("tokenTypes", t[3]), modifiers)
        })
        .collect()
}

#[test]
fn semantic_tokens_of_a_script_and_a_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let file = root.join("mp/playeranim.script");
    let uri = uoanim_cli::uri::from_path(&file);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&root);
    assert_eq!(c.caps["semanticTokensProvider"]["full"], true);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": text}}));
    let tokens = semantic_tokens(&mut c, &uri);
    // In text order, none overlapping.
    for w in tokens.windows(2) {
        assert!((w[0].0, w[0].1 + w[0].2) <= (w[1].0, w[1].1), "{w:?}");
    }
    let token_at = |word: &str, nth: usize| -> (u64, String, Vec<String>) {
        let p = pos_of(&text, word, nth);
        let (line, col) = (p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap());
        let t = tokens.iter().find(|t| (t.0, t.1) == (line, col)).unwrap_or_else(|| panic!("no token at {word} #{nth} ({line}:{col}): {tokens:?}"));
        (t.2, t.3.clone(), t.4.clone())
    };
    let decl = || vec!["declaration".to_string()];
    let want: &[(&str, usize, &str, Vec<String>)] = &[
        ("DEFINES", 0, "namespace", decl()),
        ("set", 0, "keyword", vec![]),
        ("weapons", 0, "property", vec![]),
        ("rifles", 0, "macro", decl()),
        ("kar98k_mp", 0, "enumMember", vec![]),
        ("AND", 0, "operator", vec![]),
        ("MINUS", 0, "operator", vec![]),
        ("walk", 0, "enumMember", vec![]),
        ("state", 0, "keyword", vec![]),
        ("COMBAT", 0, "type", decl()),
        ("idle", 0, "enumMember", decl()),
        ("rifles", 1, "macro", vec![]),
        ("both", 0, "keyword", vec![]),
        ("pb_rifle_idle", 0, "function", vec![]),
        ("700", 0, "number", vec![]),
        ("duration", 0, "keyword", vec![]),
        ("left", 1, "enumMember", vec![]),
        ("EVENTS", 0, "namespace", decl()),
        ("fireweapon", 0, "event", decl()),
    ];
    for (word, nth, ty, mods) in want {
        assert_eq!(token_at(word, *nth), (word.len() as u64, ty.to_string(), mods.clone()), "{word} #{nth}");
    }
    // The comment of the first line, whole.
    assert_eq!(tokens[0], (0, 0, text.lines().next().unwrap().len() as u64, "comment".to_string(), vec![]));

    // A tree: its names, the properties after ':', the braces, comments.
    let tree_uri = uoanim_cli::uri::from_path(&root.join("animtrees/multiplayer.atr"));
    let tree = std::fs::read_to_string(root.join("animtrees/multiplayer.atr")).unwrap().replacen("\ttorso\n", "\ttorso : loopsync\n", 1);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": tree_uri, "languageId": "uoanim-atr", "version": 1, "text": tree}}));
    let tokens = semantic_tokens(&mut c, &tree_uri);
    let at = |word: &str| -> Token {
        let p = pos_of(&tree, word, 0);
        let (line, col) = (p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap());
        tokens.iter().find(|t| (t.0, t.1) == (line, col)).unwrap_or_else(|| panic!("no token at {word}: {tokens:?}")).clone()
    };
    assert_eq!(tokens[0].3, "comment");
    assert_eq!(at("main"), (1, 0, 4, "function".into(), decl()));
    assert_eq!(at("{"), (2, 0, 1, "operator".into(), vec![]));
    assert_eq!(at("torso"), (3, 1, 5, "function".into(), decl()));
    assert_eq!(at(":"), (3, 7, 1, "operator".into(), vec![]));
    assert_eq!(at("loopsync"), (3, 9, 8, "property".into(), vec![]));
    assert_eq!(at("pb_never"), (19, 1, 8, "function".into(), decl()));
    assert_eq!(tokens.last().unwrap(), &(20, 0, 1, "operator".to_string(), vec![]));
}

/// The workspace symbols of a query: (name, kind, uri, line, column,
/// container).
fn workspace_symbols(c: &mut Client, query: &str) -> Vec<(String, u64, String, u64, u64, String)> {
    let r = c.request("workspace/symbol", json!({"query": query}));
    r.as_array()
        .unwrap_or_else(|| panic!("no symbols: {r}"))
        .iter()
        .map(|s| {
            let l = &s["location"];
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_u64().unwrap(),
                l["uri"].as_str().unwrap().to_string(),
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["range"]["start"]["character"].as_u64().unwrap(),
                s["containerName"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn workspace_symbols_of_the_script_and_its_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let uri = uoanim_cli::uri::from_path(&root.join("mp/playeranim.script"));
    let tree_file = root.join("animtrees/multiplayer.atr");
    let tree_uri = uoanim_cli::uri::from_path(&tree_file);
    let text = std::fs::read_to_string(root.join("mp/playeranim.script")).unwrap();
    let tree = std::fs::read_to_string(&tree_file).unwrap();
    let s = |name: &str, kind: u64, uri: &str, line: u64, col: u64, container: &str| (name.to_string(), kind, uri.to_string(), line, col, container.to_string());
    // Nothing open: the mod's script and tree, from their files.
    let mut c = Client::start(&root);
    assert_eq!(c.caps["workspaceSymbolProvider"], true);
    assert_eq!(workspace_symbols(&mut c, "RIFLES"), [s("rifles", 14, &uri, 3, 12, "DEFINES")]);
    // The script open (edited): its text, and the tree's file.
    let edited = text.replacen("set weapons pistols", "set weapons handguns", 1);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": edited}}));
    assert_eq!(
        workspace_symbols(&mut c, "pist"),
        [s("pt_pistol_fire", 8, &tree_uri, 6, 2, "torso"), s("pb_pistol_idle", 8, &tree_uri, 15, 1, "main")]
    );
    assert_eq!(workspace_symbols(&mut c, "hand"), [s("handguns", 14, &uri, 4, 12, "DEFINES")]);
    assert_eq!(workspace_symbols(&mut c, "comb"), [s("COMBAT", 5, &uri, 10, 6, "ANIMATIONS")]);
    let fire = workspace_symbols(&mut c, "Fire");
    assert_eq!(
        fire,
        [
            s("fireweapon", 24, &uri, line_of(&text, "fireweapon", 0), 0, "EVENTS"),
            s("pt_rifle_fire", 8, &tree_uri, 5, 2, "torso"),
            s("pt_pistol_fire", 8, &tree_uri, 6, 2, "torso"),
        ]
    );
    // An empty query: all of them (4 defines, a state, an event, the
    // tree's 14 names); blocks are namespaces.
    let all = workspace_symbols(&mut c, "");
    assert_eq!(all.len(), 20, "{all:?}");
    assert!(all.contains(&s("torso", 3, &tree_uri, 3, 1, "main")), "{all:?}");
    assert!(all.contains(&s("main", 3, &tree_uri, 1, 0, "multiplayer")), "{all:?}");
    // The tree open: its text, once.
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": tree_uri, "languageId": "uoanim-atr", "version": 1, "text": tree.replacen("pb_never", "pb_never_open", 1)}}));
    assert_eq!(workspace_symbols(&mut c, "never"), [s("pb_never_open", 8, &tree_uri, 19, 1, "main")]);
    assert!(workspace_symbols(&mut c, "no_such_name").is_empty());
}

/// The inlay hints of a range of lines: (line, column, label, tooltip).
fn inlay_hints(c: &mut Client, uri: &str, from: u64, to: u64) -> Vec<(u64, u64, String, String)> {
    let range = json!({"start": {"line": from, "character": 0}, "end": {"line": to, "character": 0}});
    let r = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range}));
    r.as_array()
        .unwrap_or_else(|| panic!("no hints: {r}"))
        .iter()
        .map(|h| {
            let p = &h["position"];
            let label = h["label"].as_str().unwrap().to_string();
            (p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap(), label, h["tooltip"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn inlay_hints_of_defines_and_states() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean");
    let uri = uoanim_cli::uri::from_path(&root.join("mp/playeranim.script"));
    let text = std::fs::read_to_string(root.join("mp/playeranim.script")).unwrap();
    let mut c = Client::start(&root);
    assert_eq!(c.caps["inlayHintProvider"], true);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "uoanim-script", "version": 1, "text": text}}));
    let all = inlay_hints(&mut c, &uri, 0, 999);
    let end_of = |word: &str, nth: usize| {
        let p = pos_of(&text, word, nth);
        (p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap() + word.len() as u64)
    };
    // A define's uses in condition lines (not its `set` line): 4 of
    // `rifles`, 3 of `pistols`; the state: its move types.
    let labels: Vec<(u64, u64, &str)> = all.iter().map(|h| (h.0, h.1, h.2.as_str())).collect();
    assert_eq!(labels.len(), 8, "{all:?}");
    let (l, col) = end_of("COMBAT", 0);
    assert_eq!(labels[0], (l, col, ": 2 move types"));
    assert_eq!(all[0].3, "state `COMBAT`: 2 move type blocks");
    let (l, col) = end_of("rifles", 1);
    assert_eq!(labels[1], (l, col, ": kar98k_mp | enfield_mp"));
    assert_eq!(all[1].3, "define `rifles` (`weapons`) = `kar98k_mp AND enfield_mp`");
    let (l, col) = end_of("pistols", 1);
    assert_eq!(labels[2], (l, col, ": colt_mp"));
    assert_eq!(labels.iter().filter(|h| h.2 == ": kar98k_mp | enfield_mp").count(), 4);
    assert_eq!(labels.iter().filter(|h| h.2 == ": colt_mp").count(), 3);
    // Only those within the range asked for.
    let (l, _) = end_of("rifles", 1);
    let some = inlay_hints(&mut c, &uri, l, l + 1);
    assert_eq!(some.iter().map(|h| (h.0, h.2.as_str())).collect::<Vec<_>>(), [(l, ": kar98k_mp | enfield_mp")]);
    assert!(inlay_hints(&mut c, &uri, 0, 9).is_empty());
    // A long expansion shortened (its whole in the tooltip); one move type.
    let script = "DEFINES\nset weapons many = kar98k_mp AND enfield_mp AND colt_mp AND mp40_mp AND thompson_mp\nANIMATIONS\nstate combat\n{\n\tidle\n\t{\n\t\tweapons many\n\t\t{\n\t\t\tboth pb_smg_idle\n\t\t}\n\t}\n}\n";
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": "untitled:h", "languageId": "uoanim-script", "version": 1, "text": script}}));
    let hints = inlay_hints(&mut c, "untitled:h", 0, 99);
    assert_eq!(
        hints,
        [
            (3, 12, ": 1 move type".to_string(), "state `combat`: 1 move type block".to_string()),
            (7, 14, ": kar98k_mp | enfield_mp | colt_mp …".to_string(), "define `many` (`weapons`) = `kar98k_mp AND enfield_mp AND colt_mp AND mp40_mp AND thompson_mp`".to_string()),
        ]
    );
}
