//! Byte-level tests of `uoanim lsp`: the program itself is started and fed
//! raw frames on its standard input (malformed ones among them); each reply's
//! `error.code` and the exit status are checked against JSON-RPC 2.0 and
//! LSP 3.17.
//!
//! With `UOANIM_TEST_RUNNER` set (`qemu-aarch64 -L /usr/aarch64-linux-gnu`),
//! the program is run by it, as in tests/golden.rs.

mod common;
use common::tool;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Long enough for a program under Wine or qemu.
const WAIT: Duration = Duration::from_secs(60);

/// A frame of the base protocol around `body`.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body);
    f
}

/// One message read from the server's output: the JSON, or why the frame
/// could not be read.
fn read_frame(out: &mut impl BufRead) -> Option<Result<Value, String>> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let Some(line) = line.strip_suffix("\r\n") else { return Some(Err(format!("a header line without CRLF: {line:?}"))) };
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse::<usize>().ok();
        }
    }
    let Some(length) = length else { return Some(Err("no Content-Length".into())) };
    let mut body = vec![0; length];
    out.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).map_err(|e| e.to_string()))
}

struct Server {
    child: Child,
    input: Option<ChildStdin>,
    output: Receiver<Result<Value, String>>,
    next: i64,
}

impl Server {
    fn start() -> Server {
        let mut child = tool().arg("lsp").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("start uoanim lsp");
        let input = child.stdin.take();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(m) = read_frame(&mut out) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Server { child, input, output, next: 100 }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("the input is open");
        input.write_all(bytes).unwrap();
        input.flush().unwrap();
    }

    fn send(&mut self, msg: Value) {
        self.raw(&frame(msg.to_string().as_bytes()));
    }

    /// Sends a request; its id.
    fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}));
        self.next
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message the server writes.
    fn next_message(&mut self) -> Value {
        match self.output.recv_timeout(WAIT) {
            Ok(Ok(v)) => {
                assert_eq!(v["jsonrpc"], "2.0", "{v}");
                v
            }
            Ok(Err(e)) => panic!("the server wrote a malformed frame: {e}"),
            Err(e) => panic!("no message from the server: {e}"),
        }
    }

    /// The next message, which is an error response: its (id, code).
    fn error(&mut self) -> (Value, i64) {
        let m = self.next_message();
        assert!(m.get("result").is_none() && m.get("method").is_none(), "not an error response: {m}");
        assert!(m["error"]["message"].as_str().is_some_and(|s| !s.is_empty()), "{m}");
        (m["id"].clone(), m["error"]["code"].as_i64().unwrap_or_else(|| panic!("no error code: {m}")))
    }

    /// The next message, which is the successful response to `id`: its
    /// result.
    fn result(&mut self, id: i64) -> Value {
        let m = self.next_message();
        assert_eq!(m["id"], id, "{m}");
        assert!(m.get("error").is_none(), "{m}");
        m.get("result").cloned().unwrap_or_else(|| panic!("no result: {m}"))
    }

    /// A request that still works: the server reads on.
    fn still_answers(&mut self) {
        let id = self.request("textDocument/documentSymbol", json!({"textDocument": {"uri": script_uri()}}));
        self.result(id);
    }

    fn initialize(&mut self) -> Value {
        let id = self.request("initialize", json!({"processId": null, "capabilities": {}, "rootUri": uoanim_cli::uri::from_path(&mod_dir())}));
        let r = self.result(id);
        self.notify("initialized", json!({}));
        r
    }

    /// Closes the input (when still open) and waits for the exit status;
    /// nothing more is written.
    fn exit_code(mut self) -> i32 {
        drop(self.input.take());
        let start = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            assert!(start.elapsed() < WAIT, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        if let Ok(m) = self.output.recv_timeout(Duration::from_secs(5)) {
            panic!("a message after the last one expected: {m:?}");
        }
        status.code().expect("an exit code")
    }
}

fn mod_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/clean")
}

fn script_uri() -> String {
    uoanim_cli::uri::from_path(&mod_dir().join("mp/playeranim.script"))
}

#[test]
fn a_malformed_frame_or_body_is_answered_and_the_server_reads_on() {
    let mut s = Server::start();
    s.initialize();
    let hello = br#"{"jsonrpc":"2.0","method":"x"}"#;
    let cases: [(&str, Vec<u8>, Value, i64); 10] = [
        ("no Content-Length", [&b"Content-Type: application/vscode-jsonrpc\r\n\r\n"[..], hello].concat(), Value::Null, -32700),
        ("an invalid Content-Length", [&b"Content-Length: twelve\r\n\r\n"[..], hello].concat(), Value::Null, -32700),
        ("a header line that is no header", [&b"Content-Length 30\r\n\r\n"[..], hello].concat(), Value::Null, -32700),
        ("a body that is not JSON", frame(b"{\"jsonrpc\": \"2.0\", \"id\": 1,"), Value::Null, -32700),
        ("a body that is not UTF-8", frame(b"\"\xff\xfe\""), Value::Null, -32700),
        ("JSON that is not an object", frame(b"42"), Value::Null, -32600),
        ("a batch", frame(br#"[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]"#), Value::Null, -32600),
        ("an object that is no message", frame(br#"{"jsonrpc":"2.0","hello":1}"#), Value::Null, -32600),
        ("a method that is not a string", frame(br#"{"jsonrpc":"2.0","id":7,"method":5}"#), json!(7), -32600),
        ("not JSON-RPC 2.0", frame(br#"{"jsonrpc":"1.0","id":"a","method":"shutdown"}"#), json!("a"), -32600),
    ];
    for (what, bytes, id, code) in cases {
        s.raw(&bytes);
        assert_eq!(s.error(), (id, code), "{what}");
        s.still_answers();
    }
    let id = s.request("shutdown", Value::Null);
    assert_eq!(s.result(id), Value::Null);
    s.notify("exit", Value::Null);
    assert_eq!(s.exit_code(), 0);
}

#[test]
fn the_life_cycle_and_the_errors_of_requests() {
    let mut s = Server::start();
    let hover = json!({"textDocument": {"uri": script_uri()}, "position": {"line": 0, "character": 0}});
    // Before initialize: a request is ServerNotInitialized; a notification
    // is dropped (the document is not open afterwards).
    s.request("textDocument/hover", hover.clone());
    assert_eq!(s.error().1, -32002);
    s.request("shutdown", Value::Null);
    assert_eq!(s.error().1, -32002);
    s.notify("textDocument/didOpen", json!({"textDocument": {"uri": script_uri(), "languageId": "uoanim-script", "version": 1, "text": "DEFINES\nset weapons rifles = kar98k_mp\n"}}));
    let caps = s.initialize();
    assert_eq!(caps["capabilities"]["hoverProvider"], true, "{caps}");
    assert_eq!(caps["serverInfo"]["name"], "uoanim", "{caps}");
    let id = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": script_uri()}}));
    assert_eq!(s.result(id), json!([]), "the notification before initialize was taken");
    // A second initialize.
    s.request("initialize", json!({"capabilities": {}}));
    assert_eq!(s.error().1, -32600);
    // Params that are not the method's.
    let id = s.request("textDocument/hover", json!({"textDocument": {"uri": script_uri()}}));
    assert_eq!(s.error(), (json!(id), -32602));
    let id = s.request("textDocument/completion", json!([1, 2]));
    assert_eq!(s.error(), (json!(id), -32602));
    let id = s.request("textDocument/definition", Value::Null);
    assert_eq!(s.error(), (json!(id), -32602));
    // An unknown method; an unknown `$/` request; an unknown notification
    // is ignored.
    let id = s.request("uoanim/noSuchMethod", json!({}));
    assert_eq!(s.error(), (json!(id), -32601));
    let id = s.request("$/noSuchRequest", json!({}));
    assert_eq!(s.error(), (json!(id), -32601));
    // A notification's params that are not its method's: logged.
    s.notify("textDocument/didOpen", json!({"textDocument": {"uri": script_uri()}}));
    let m = s.next_message();
    assert_eq!((&m["method"], &m["params"]["type"]), (&json!("window/logMessage"), &json!(1)), "{m}");
    assert!(m["params"]["message"].as_str().unwrap().starts_with("invalid params of textDocument/didOpen"), "{m}");
    s.notify("$/cancelRequest", json!({"id": 1}));
    s.notify("uoanim/noSuchNotification", json!({}));
    // A request with a string id is answered to it.
    s.send(json!({"jsonrpc": "2.0", "id": "h", "method": "textDocument/hover", "params": hover}));
    let m = s.next_message();
    assert_eq!((&m["id"], &m["result"]), (&json!("h"), &Value::Null), "{m}");
    let id = s.request("shutdown", Value::Null);
    assert_eq!(s.result(id), Value::Null);
    // After shutdown: every request is an Invalid Request; notifications
    // but exit are dropped (no diagnostics are published).
    s.notify("textDocument/didOpen", json!({"textDocument": {"uri": script_uri(), "languageId": "uoanim-script", "version": 1, "text": "x"}}));
    for method in ["textDocument/hover", "shutdown", "initialize", "uoanim/noSuchMethod"] {
        let id = s.request(method, hover.clone());
        assert_eq!(s.error(), (json!(id), -32600), "{method}");
    }
    s.notify("exit", Value::Null);
    assert_eq!(s.exit_code(), 0);
}

#[test]
fn exit_codes() {
    // exit without shutdown: 1.
    let mut s = Server::start();
    s.initialize();
    s.notify("exit", Value::Null);
    assert_eq!(s.exit_code(), 1);
    // exit before initialize: 1.
    let mut s = Server::start();
    s.notify("exit", Value::Null);
    assert_eq!(s.exit_code(), 1);
    // The input ends after shutdown, without exit: 1.
    let mut s = Server::start();
    s.initialize();
    let id = s.request("shutdown", Value::Null);
    assert_eq!(s.result(id), Value::Null);
    assert_eq!(s.exit_code(), 1);
    // The input ends at once, or inside a frame: 1 (a cut frame answered
    // first).
    assert_eq!(Server::start().exit_code(), 1);
    let mut s = Server::start();
    s.raw(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"");
    drop(s.input.take());
    assert_eq!(s.error(), (Value::Null, -32700));
    assert_eq!(s.exit_code(), 1);
    // exit after shutdown, with a malformed frame between: 0.
    let mut s = Server::start();
    s.initialize();
    let id = s.request("shutdown", Value::Null);
    assert_eq!(s.result(id), Value::Null);
    s.raw(b"Content-Length: x\r\n\r\n");
    assert_eq!(s.error(), (Value::Null, -32700));
    s.notify("exit", Value::Null);
    assert_eq!(s.exit_code(), 0);
}
