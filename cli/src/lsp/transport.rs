//! The transport of `uoanim lsp`: LSP's base protocol over a byte stream
//! (a header block with `Content-Length`, a blank line, then that many bytes
//! of a JSON-RPC 2.0 message), and the in-memory [`Connection`] of
//! `lsp-server` (whose messages are already parsed).
//!
//! `lsp-server`'s own stdio transport stops at the first malformed message;
//! this one answers it and reads on:
//!
//! * a header block without a valid `Content-Length`, a body cut short by the
//!   end of the input, or a body that is not JSON (UTF-8): Parse error
//!   (-32700) to the id null; after a bad header block the reader skips to
//!   the next `Content-Length` header, as the body's length is unknown;
//! * JSON that is not a JSON-RPC 2.0 request, notification or response:
//!   Invalid Request (-32600), to the message's id when it has one that can
//!   be read (a string or a number), else to null.
//!
//! LSP's ids are integers (32-bit) or strings: a request with another id
//! (null, a fraction, a larger number) is an Invalid Request too. Responses
//! are taken and ignored (the server sends no requests).

use lsp_server::{Connection, Message, RequestId, Response};
use serde_json::{Map, Value};
use std::io::{self, BufRead, Read, Write};

/// JSON-RPC's Parse error.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's Invalid Request.
pub const INVALID_REQUEST: i32 = -32600;

/// What the transport read.
#[derive(Debug)]
pub enum Incoming {
    /// A request, notification or response.
    Message(Message),
    /// Bytes that are not a message the server can take: to be answered with
    /// `code` ([`PARSE_ERROR`] or [`INVALID_REQUEST`]) to `id` (null when
    /// none could be read).
    Invalid { id: Value, code: i32, message: String },
}

/// Where the server reads its messages and writes its own.
pub trait Transport {
    /// The next message; None at the end of the input.
    fn receive(&mut self) -> Option<Incoming>;
    /// Sends a message (a client that is gone is not an error: the end of
    /// its input follows).
    fn send(&mut self, msg: Message);
    /// Sends an error response to an id that may be null.
    fn send_error(&mut self, id: Value, code: i32, message: String);
}

/// The in-memory connection carries parsed messages: nothing there is
/// malformed, and its responses cannot carry a null id (an error to an id
/// that is not an LSP id is not sent).
impl Transport for Connection {
    fn receive(&mut self) -> Option<Incoming> {
        self.receiver.recv().ok().map(Incoming::Message)
    }

    fn send(&mut self, msg: Message) {
        let _ = self.sender.send(msg);
    }

    fn send_error(&mut self, id: Value, code: i32, message: String) {
        if let Ok(id) = serde_json::from_value::<RequestId>(id) {
            self.send(Message::Response(Response::new_err(id, code, message)));
        }
    }
}

/// The longest header line taken (a longer one is a malformed header).
const MAX_HEADER_LINE: usize = 4096;

/// A frame of the base protocol.
#[derive(Debug, PartialEq)]
enum Frame {
    Body(Vec<u8>),
    /// A malformed header block or a body cut short: why.
    Bad(String),
}

/// Reads messages from a byte stream: the base protocol's frames, each
/// body classified as a JSON-RPC message.
pub struct Reader<R> {
    input: R,
    /// After a bad header block: skip to the next `Content-Length`.
    resync: bool,
    /// The start of the next header line, already read while skipping.
    pending: Vec<u8>,
}

/// A header line as read.
enum Line {
    /// The line without its `\r\n` (or `\n`).
    Text(Vec<u8>),
    /// Longer than [`MAX_HEADER_LINE`] (the rest of it is left unread).
    TooLong,
    /// The input ended: the bytes of an unfinished line, if any.
    End(bool),
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader { input, resync: false, pending: Vec::new() }
    }

    /// The next message or error; None at the end of the input.
    pub fn next_message(&mut self) -> Option<Incoming> {
        loop {
            let incoming = match self.frame()? {
                Frame::Bad(why) => Incoming::Invalid { id: Value::Null, code: PARSE_ERROR, message: why },
                Frame::Body(body) => match classify(&body) {
                    Ok(Some(msg)) => Incoming::Message(msg),
                    // A response to the id null: nothing to do with it.
                    Ok(None) => continue,
                    Err((id, code, message)) => Incoming::Invalid { id, code, message },
                },
            };
            return Some(incoming);
        }
    }

    /// One header line.
    fn line(&mut self) -> io::Result<Line> {
        let mut line = std::mem::take(&mut self.pending);
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(Line::End(!line.is_empty()));
            }
            let room = MAX_HEADER_LINE + 2 - line.len();
            let (take, done) = match buf.iter().take(room).position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len().min(room), false),
            };
            line.extend_from_slice(&buf[..take]);
            self.input.consume(take);
            if done {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Line::Text(line));
            }
            if line.len() >= MAX_HEADER_LINE + 2 {
                return Ok(Line::TooLong);
            }
        }
    }

    /// Skips to the next `Content-Length` (any case), which becomes the
    /// start of the next header line; false at the end of the input.
    fn skip_to_header(&mut self) -> io::Result<bool> {
        const KEY: &[u8] = b"content-length";
        let mut matched = 0;
        loop {
            let buf = fill(&mut self.input)?;
            if buf.is_empty() {
                return Ok(false);
            }
            let mut used = buf.len();
            for (i, &b) in buf.iter().enumerate() {
                let b = b.to_ascii_lowercase();
                matched = if b == KEY[matched] {
                    matched + 1
                } else if b == KEY[0] {
                    1
                } else {
                    0
                };
                if matched == KEY.len() {
                    used = i + 1;
                    break;
                }
            }
            self.input.consume(used);
            if matched == KEY.len() {
                self.pending = b"Content-Length".to_vec();
                return Ok(true);
            }
        }
    }

    /// The next frame; None at the end of the input (or on a read error).
    fn frame(&mut self) -> Option<Frame> {
        self.frame_io().unwrap_or(None)
    }

    fn frame_io(&mut self) -> io::Result<Option<Frame>> {
        if self.resync {
            self.resync = false;
            if !self.skip_to_header()? {
                return Ok(None);
            }
        }
        let bad = |s: &mut Self, why: String| {
            s.resync = true;
            Ok(Some(Frame::Bad(why)))
        };
        let mut length: Option<usize> = None;
        let mut headers = 0;
        loop {
            let line = match self.line()? {
                Line::Text(l) => l,
                Line::TooLong => return bad(self, format!("a header line longer than {MAX_HEADER_LINE} bytes")),
                Line::End(partial) if partial || headers > 0 => return bad(self, "the input ended inside a header block".into()),
                Line::End(_) => return Ok(None),
            };
            if line.is_empty() {
                // Blank lines between messages are passed over.
                if headers == 0 {
                    continue;
                }
                break;
            }
            headers += 1;
            let text = String::from_utf8_lossy(&line);
            let Some((name, value)) = text.split_once(':').filter(|(n, _)| !n.is_empty() && !n.contains(char::is_whitespace)) else {
                return bad(self, format!("a malformed header line: {text:?}"));
            };
            if name.eq_ignore_ascii_case("Content-Length") {
                match value.trim().parse::<usize>() {
                    Ok(n) if length.is_none_or(|l| l == n) => length = Some(n),
                    Ok(_) => return bad(self, "two different Content-Length headers".into()),
                    Err(_) => return bad(self, format!("an invalid Content-Length: {:?}", value.trim())),
                }
            }
        }
        let Some(length) = length else { return bad(self, "a header block without Content-Length".into()) };
        let mut body = Vec::new();
        (&mut self.input).take(length as u64).read_to_end(&mut body)?;
        if body.len() < length {
            return Ok(Some(Frame::Bad(format!("the input ended inside a message body ({} of {length} bytes)", body.len()))));
        }
        Ok(Some(Frame::Body(body)))
    }
}

/// An id as it can be echoed in an error response: a string or a number,
/// else null.
/// The input's buffered bytes, read again after an interruption (empty:
/// the end of the input).
fn fill(input: &mut impl BufRead) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    // (the buffer, filled above, handed out again: returning it from
    // inside the loop is a borrow the checker does not accept yet)
    input.fill_buf()
}

fn echo_id(obj: &Map<String, Value>) -> Value {
    match obj.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

/// A body as a JSON-RPC 2.0 message: Ok(None) for a response to the id
/// null; Err((id, code, message)) for what is not a message.
fn classify(body: &[u8]) -> Result<Option<Message>, (Value, i32, String)> {
    let value: Value = serde_json::from_slice(body).map_err(|e| (Value::Null, PARSE_ERROR, format!("the message is not JSON: {e}")))?;
    let invalid = |id: Value, why: &str| (id, INVALID_REQUEST, why.to_string());
    let obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => return Err(invalid(Value::Null, "a batch (a JSON array): LSP sends one message at a time")),
        _ => return Err(invalid(Value::Null, "a JSON-RPC message is an object")),
    };
    let id = echo_id(&obj);
    if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return Err(invalid(id, "a JSON-RPC 2.0 message has \"jsonrpc\": \"2.0\""));
    }
    let lsp_id = |v: &Value| serde_json::from_value::<RequestId>(v.clone()).ok();
    match obj.get("method") {
        Some(Value::String(method)) => {
            let params = match obj.get("params") {
                None | Some(Value::Null) => Value::Null,
                Some(p @ (Value::Object(_) | Value::Array(_))) => p.clone(),
                Some(_) => return Err(invalid(id, "params, when present, are an object or an array")),
            };
            let method = method.clone();
            match obj.get("id") {
                None => Ok(Some(Message::Notification(lsp_server::Notification { method, params }))),
                Some(v) => match lsp_id(v) {
                    Some(rid) => Ok(Some(Message::Request(lsp_server::Request { id: rid, method, params }))),
                    None => Err(invalid(id, "a request's id is a string or a 32-bit integer")),
                },
            }
        }
        Some(_) => Err(invalid(id, "a method is a string")),
        None => {
            let Some(v) = obj.get("id") else { return Err(invalid(Value::Null, "neither a request, a notification nor a response")) };
            if obj.contains_key("result") == obj.contains_key("error") {
                return Err(invalid(id, "a response has either a result or an error"));
            }
            if v.is_null() {
                return Ok(None);
            }
            match serde_json::from_value::<Response>(Value::Object(obj.clone())) {
                Ok(r) => Ok(Some(Message::Response(r))),
                Err(_) if lsp_id(v).is_none() => Ok(None),
                Err(_) => Err(invalid(id, "a response's error has an integer code and a message")),
            }
        }
    }
}

/// The base protocol over a byte stream (stdin and stdout).
pub struct Stream<R, W> {
    reader: Reader<R>,
    out: W,
}

impl<R: BufRead, W: Write> Stream<R, W> {
    pub fn new(input: R, out: W) -> Stream<R, W> {
        Stream { reader: Reader::new(input), out }
    }

    /// The output written so far (for tests on a buffer).
    pub fn output(&self) -> &W {
        &self.out
    }
}

impl<R: BufRead, W: Write> Transport for Stream<R, W> {
    fn receive(&mut self) -> Option<Incoming> {
        self.reader.next_message()
    }

    fn send(&mut self, msg: Message) {
        let _ = msg.write(&mut self.out);
    }

    fn send_error(&mut self, id: Value, code: i32, message: String) {
        let body = serde_json::json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }).to_string();
        let _ = write!(self.out, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|_| self.out.flush());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// Every message read from `input`, as (kind, id or method, code).
    fn read_all(input: &str) -> Vec<String> {
        let mut r = Reader::new(input.as_bytes());
        let mut out = Vec::new();
        while let Some(m) = r.next_message() {
            out.push(match m {
                Incoming::Message(Message::Request(q)) => format!("request {} {}", q.id, q.method),
                Incoming::Message(Message::Notification(n)) => format!("notification {}", n.method),
                Incoming::Message(Message::Response(r)) => format!("response {}", r.id),
                Incoming::Invalid { id, code, .. } => format!("error {code} to {id}"),
            });
        }
        out
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    #[test]
    fn good_frames_with_other_headers_and_blank_lines_between() {
        let input = format!("{}\r\n{}Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 30\r\n\r\n{}", frame(PING), frame(r#"{"jsonrpc":"2.0","method":"n"}"#), r#"{"jsonrpc":"2.0","method":"m"}"#);
        assert_eq!(read_all(&input), ["request 1 ping", "notification n", "notification m"]);
    }

    #[test]
    fn a_bad_header_block_is_a_parse_error_and_the_reader_finds_the_next_message() {
        // No Content-Length: its body is skipped.
        let input = format!("Content-Type: x\r\n\r\n{PING}{}", frame(PING));
        assert_eq!(read_all(&input), ["error -32700 to null", "request 1 ping"]);
        // An invalid one, a line that is no header, a line too long.
        for bad in ["Content-Length: 12x\r\n\r\n{}", "Content-Length: -1\r\n\r\n", "garbage\r\n\r\n", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"] {
            assert_eq!(read_all(&format!("{bad}{}", frame(PING))), ["error -32700 to null", "request 1 ping"], "{bad:?}");
        }
        let long = format!("X-Long: {}\r\n\r\n", "a".repeat(10_000));
        assert_eq!(read_all(&format!("{long}{}", frame(PING))), ["error -32700 to null", "request 1 ping"]);
        // The input ends inside a header block or a body.
        assert_eq!(read_all("Content-Length: 5\r\n"), ["error -32700 to null"]);
        assert_eq!(read_all("Content-Length: 50\r\n\r\n{}"), ["error -32700 to null"]);
        assert_eq!(read_all(""), Vec::<String>::new());
    }

    #[test]
    fn bodies_that_are_not_json_rpc_messages() {
        let cases = [
            ("{not json", "error -32700 to null"),
            ("\"\u{e9}\"", "error -32600 to null"),
            ("[]", "error -32600 to null"),
            (r#"[{"jsonrpc":"2.0","method":"n"}]"#, "error -32600 to null"),
            (r#"{"jsonrpc":"2.0"}"#, "error -32600 to null"),
            (r#"{"id":3,"method":"m"}"#, "error -32600 to 3"),
            (r#"{"jsonrpc":"1.0","id":"a","method":"m"}"#, "error -32600 to \"a\""),
            (r#"{"jsonrpc":"2.0","id":7,"method":5}"#, "error -32600 to 7"),
            (r#"{"jsonrpc":"2.0","id":7,"method":"m","params":3}"#, "error -32600 to 7"),
            (r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, "error -32600 to null"),
            (r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, "error -32600 to 1.5"),
            (r#"{"jsonrpc":"2.0","id":4294967296,"method":"m"}"#, "error -32600 to 4294967296"),
            (r#"{"jsonrpc":"2.0","id":{},"method":"m"}"#, "error -32600 to null"),
            (r#"{"jsonrpc":"2.0","id":8}"#, "error -32600 to 8"),
            (r#"{"jsonrpc":"2.0","id":8,"result":1,"error":{"code":1,"message":"m"}}"#, "error -32600 to 8"),
            (r#"{"jsonrpc":"2.0","id":8,"error":{"code":"x"}}"#, "error -32600 to 8"),
            (r#"{"jsonrpc":"2.0","id":8,"result":null}"#, "response 8"),
            (r#"{"jsonrpc":"2.0","id":"s","method":"m","params":null}"#, "request \"s\" m"),
            (r#"{"jsonrpc":"2.0","method":"m","params":[1]}"#, "notification m"),
        ];
        for (body, want) in cases {
            assert_eq!(read_all(&frame(body)), [want], "{body}");
        }
        // A response to the id null is taken and dropped.
        assert_eq!(read_all(&format!("{}{}", frame(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#), frame(PING))), ["request 1 ping"]);
        // Bytes that are not UTF-8.
        let mut r = Reader::new(&b"Content-Length: 3\r\n\r\n\"\xff\""[..]);
        assert!(matches!(r.next_message(), Some(Incoming::Invalid { code: PARSE_ERROR, .. })));
    }

    #[test]
    fn an_error_to_the_id_null_is_written_as_json_rpc() {
        let mut s = Stream::new(&b""[..], Vec::new());
        s.send_error(Value::Null, PARSE_ERROR, "m".into());
        let out = String::from_utf8(s.output().clone()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert_eq!(head, format!("Content-Length: {}", body.len()));
        let v: Value = serde_json::from_str(body).unwrap();
        assert_eq!(v, serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "m"}}));
    }
}
