//! `uoanim lsp`: a Language Server Protocol 3.17 server over stdio for
//! `mp/playeranim.script` and `animtrees/*.atr`, on the same inputs and
//! checks as `uoanim check`.
//!
//! Built on `lsp-server` + `lsp-types`, the synchronous pair rust-analyzer
//! uses: a check takes milliseconds and runs on the main loop, so an async
//! runtime (`tower-lsp` and tokio) would add threads, a dependency tree and
//! cancellation rules for nothing.
//!
//! The mod directory is the workspace root (or the setting
//! `uoanim.modDirectory` in the initialization options); the open
//! document's text replaces its file in that context, and the diagnostics
//! of that file are published on open, change and save.

use crate::diag::{Diagnostic, Severity};
use crate::input::{Inputs, SourceFile};
use crate::script::{condition_names, table_names};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lt;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use uoanim::script::tables;

/// A named place of a script: a define, state, move type or event, with its
/// byte range.
#[derive(Debug, Clone)]
pub struct Place {
    pub name: String,
    pub kind: lt::SymbolKind,
    pub detail: &'static str,
    pub start: usize,
    pub end: usize,
}

/// The outline of a script, from its text: `set TYPE NAME = ...` defines,
/// `state NAME`, the move types of a state and the events (a name alone on
/// its line, followed by a block), at brace depth 0 or 1.
pub fn outline(text: &str) -> Vec<Place> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut section = String::new();
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.split("//").next().unwrap_or("");
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let start_of = |w: &str| at + (w.as_ptr() as usize - raw.as_ptr() as usize);
        match words.as_slice() {
            [w] if depth == 0 && ["DEFINES", "ANIMATIONS", "CANNED_ANIMATIONS", "STATECHANGES", "EVENTS"].iter().any(|s| s.eq_ignore_ascii_case(w)) => {
                section = w.to_ascii_uppercase();
            }
            ["set", _ty, name, ..] if depth == 0 => {
                let st = start_of(name);
                out.push(Place { name: name.to_string(), kind: lt::SymbolKind::CONSTANT, detail: "define", start: st, end: st + name.len() });
            }
            [kw, name] if depth == 0 && kw.eq_ignore_ascii_case("state") => {
                let st = start_of(name);
                out.push(Place { name: name.to_ascii_lowercase(), kind: lt::SymbolKind::CLASS, detail: "state", start: st, end: st + name.len() });
            }
            [name] if *name != "{" && *name != "}" && ((depth == 1 && section != "EVENTS") || (depth == 0 && section == "EVENTS")) => {
                let st = start_of(name);
                let (kind, detail) = if section == "EVENTS" { (lt::SymbolKind::EVENT, "event") } else { (lt::SymbolKind::METHOD, "move type") };
                out.push(Place { name: name.to_ascii_lowercase(), kind, detail, start: st, end: st + name.len() });
            }
            _ => {}
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        at += raw.len();
    }
    out
}

/// Where a tree file names `name` (first word of a line): byte range.
fn tree_line(tree: &str, name: &str) -> Option<(usize, usize)> {
    let mut at = 0;
    for raw in tree.split_inclusive('\n') {
        let code = raw.split("//").next().unwrap_or("");
        if let Some(w) = code.split_ascii_whitespace().next() {
            if w.eq_ignore_ascii_case(name) {
                let st = at + (w.as_ptr() as usize - raw.as_ptr() as usize);
                return Some((st, st + w.len()));
            }
        }
        at += raw.len();
    }
    None
}

fn range_of(text: &str, start: usize, end: usize) -> lt::Range {
    let (l, c) = crate::diag::line_col(text.as_bytes(), start);
    let (l2, c2) = crate::diag::line_col(text.as_bytes(), end);
    lt::Range { start: position(text, l, c), end: position(text, l2, c2) }
}

/// The server's state: the mod directory and the open documents.
pub struct Server {
    root: Option<PathBuf>,
    docs: HashMap<String, String>,
}

fn uri_path(uri: &lt::Uri) -> PathBuf {
    let s = uri.as_str();
    let p = s.strip_prefix("file://").unwrap_or(s);
    let mut out = Vec::new();
    let b = p.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&p[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    PathBuf::from(String::from_utf8_lossy(&out).into_owned())
}

/// LSP position (UTF-16) of a 1-based line and byte column.
fn position(text: &str, line: u32, col: u32) -> lt::Position {
    let l = text.split('\n').nth(line.saturating_sub(1) as usize).unwrap_or("");
    let byte = (col.saturating_sub(1) as usize).min(l.len());
    let byte = (0..=byte).rev().find(|&i| l.is_char_boundary(i)).unwrap_or(0);
    lt::Position { line: line.saturating_sub(1), character: l[..byte].encode_utf16().count() as u32 }
}

/// Byte offset of an LSP position.
fn offset(text: &str, p: lt::Position) -> usize {
    let mut start = 0;
    for _ in 0..p.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line = &text[start..text[start..].find('\n').map_or(text.len(), |i| start + i)];
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= p.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + line.len()
}

fn word_at(text: &str, at: usize) -> Option<(usize, &str)> {
    let is = |c: u8| c.is_ascii_alphanumeric() || b"_-.$".contains(&c);
    let b = text.as_bytes();
    let mut s = at.min(b.len());
    while s > 0 && is(b[s - 1]) {
        s -= 1;
    }
    let mut e = at.min(b.len());
    while e < b.len() && is(b[e]) {
        e += 1;
    }
    (e > s).then(|| (s, &text[s..e]))
}

fn lower(n: &[u8]) -> String {
    String::from_utf8_lossy(n).to_ascii_lowercase()
}

impl Server {
    pub fn new(root: Option<PathBuf>) -> Server {
        Server { root, docs: HashMap::new() }
    }

    /// The inputs of the mod with `path`'s text replaced by `text`.
    fn inputs_for(&self, path: &Path, text: &str) -> (Inputs, String) {
        let mut inputs = Inputs::default();
        let dir = self.root.clone().or_else(|| {
            let parent = path.parent()?;
            parent.parent().map(Path::to_path_buf)
        });
        if let Some(d) = &dir {
            let _ = inputs.add_path(d);
        }
        let display = path.display().to_string();
        let file = SourceFile { display: display.clone(), name: String::new(), text: text.as_bytes().to_vec() };
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("atr")) {
            let name = path.file_stem().map(|s| s.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
            inputs.trees.retain(|t| t.name != name);
            inputs.trees.push(SourceFile { name, ..file });
            inputs.trees.sort_by(|a, b| a.name.cmp(&b.name));
        } else {
            inputs.script = Some(file);
        }
        (inputs, display)
    }

    /// The diagnostics of one document, as `check` finds them.
    pub fn diagnostics(&self, uri: &lt::Uri) -> Vec<lt::Diagnostic> {
        let Some(text) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let path = uri_path(uri);
        let (inputs, display) = self.inputs_for(&path, text);
        let report = crate::check(&inputs, &HashSet::new());
        report.diags.iter().filter(|d| d.file == display).map(|d| to_lsp(d, text)).collect()
    }

    fn publish(&self, conn: &Connection, uri: &lt::Uri) {
        let params = lt::PublishDiagnosticsParams { uri: uri.clone(), diagnostics: self.diagnostics(uri), version: None };
        let n = Notification::new("textDocument/publishDiagnostics".into(), params);
        let _ = conn.sender.send(Message::Notification(n));
    }

    /// Hover: the diagnostics at the position, a condition key, a weapon.
    pub fn hover(&self, uri: &lt::Uri, pos: lt::Position) -> Option<String> {
        let text = self.docs.get(uri.as_str())?;
        let mut parts = Vec::new();
        for d in self.diagnostics(uri) {
            if d.range.start <= pos && pos <= d.range.end {
                parts.push(format!("**{}**: {}", d.code.map(|c| match c { lt::NumberOrString::String(s) => s, lt::NumberOrString::Number(n) => n.to_string() }).unwrap_or_default(), d.message));
            }
        }
        if let Some((_, w)) = word_at(text, offset(text, pos)) {
            let lw = w.to_ascii_lowercase();
            if let Some(c) = condition_names().iter().position(|n| lower(n) == lw) {
                parts.push(format!("condition `{lw}` (condition {c} of the module's condition table)"));
            }
            if let Some(p) = outline(text).into_iter().find(|p| p.name.eq_ignore_ascii_case(w) && p.detail == "define") {
                let line_end = text[p.start..].find('\n').map_or(text.len(), |i| p.start + i);
                parts.push(format!("define `{w}`: `{}`", text[p.end..line_end].trim().trim_start_matches('=').trim()));
            }
            if let Some((tree, (st, _))) = self.tree_text(uri).and_then(|(f, t)| tree_line(&t, w).map(|r| ((f, t), r))) {
                let (l, _) = crate::diag::line_col(tree.1.as_bytes(), st);
                parts.push(format!("animation `{w}` of tree `multiplayer` ({}, line {l})", tree.0.display()));
            }
            if let Some(i) = crate::stock::UO_MP_WEAPONS.iter().position(|n| n.eq_ignore_ascii_case(w)) {
                parts.push(format!("weapon `{w}` (stock United Offensive weapon {})", i + 1));
            }
        }
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }

    /// The multiplayer tree of the document's mod: its path and text (the
    /// open document's text when it is open).
    fn tree_text(&self, uri: &lt::Uri) -> Option<(PathBuf, String)> {
        let path = uri_path(uri);
        let text = self.docs.get(uri.as_str())?;
        let (inputs, _) = self.inputs_for(&path, text);
        let t = inputs.multiplayer_tree()?;
        let p = PathBuf::from(&t.display);
        let open = format!("file://{}", p.display());
        let text = self.docs.get(&open).cloned().unwrap_or_else(|| String::from_utf8_lossy(&t.text).into_owned());
        Some((p, text))
    }

    /// Go to definition: a define, a state or move type of the script, an
    /// animation name in the multiplayer tree.
    pub fn definition(&self, uri: &lt::Uri, pos: lt::Position) -> Option<lt::Location> {
        let text = self.docs.get(uri.as_str())?;
        let at = offset(text, pos);
        let (_, w) = word_at(text, at)?;
        if let Some(p) = outline(text).into_iter().find(|p| p.name.eq_ignore_ascii_case(w)) {
            return Some(lt::Location { uri: uri.clone(), range: range_of(text, p.start, p.end) });
        }
        let (path, tree) = self.tree_text(uri)?;
        let (st, en) = tree_line(&tree, w)?;
        let uri: lt::Uri = format!("file://{}", path.display()).parse().ok()?;
        Some(lt::Location { uri, range: range_of(&tree, st, en) })
    }

    /// Document symbols: the outline.
    #[allow(deprecated)]
    pub fn symbols(&self, uri: &lt::Uri) -> Vec<lt::SymbolInformation> {
        let Some(text) = self.docs.get(uri.as_str()) else { return Vec::new() };
        if uri.as_str().to_ascii_lowercase().ends_with(".atr") {
            return Vec::new();
        }
        outline(text)
            .into_iter()
            .map(|p| lt::SymbolInformation {
                name: p.name,
                kind: p.kind,
                tags: None,
                deprecated: None,
                location: lt::Location { uri: uri.clone(), range: range_of(text, p.start, p.end) },
                container_name: Some(p.detail.into()),
            })
            .collect()
    }

    /// Completion: sections, states, move types, events, condition keys and
    /// values, weapon names.
    pub fn completion(&self) -> Vec<lt::CompletionItem> {
        let mut items = Vec::new();
        let mut add = |names: Vec<Vec<u8>>, kind: lt::CompletionItemKind, what: &str| {
            for n in names {
                items.push(lt::CompletionItem { label: lower(&n), kind: Some(kind), detail: Some(what.into()), ..Default::default() });
            }
        };
        add(table_names(&tables::ANIM_PARSE_SECTION_STRINGS), lt::CompletionItemKind::MODULE, "section");
        add(table_names(&tables::ANIM_STATE_STR), lt::CompletionItemKind::CLASS, "state");
        add(table_names(&tables::ANIM_GROUP_STRINGS), lt::CompletionItemKind::ENUM_MEMBER, "move type");
        add(table_names(&tables::ANIM_EVENT_STRINGS), lt::CompletionItemKind::EVENT, "event");
        add(condition_names(), lt::CompletionItemKind::KEYWORD, "condition");
        add(table_names(&tables::ANIM_WEAPON_CLASS_STR), lt::CompletionItemKind::VALUE, "weapon class");
        add(crate::stock::UO_MP_WEAPONS.iter().map(|w| w.as_bytes().to_vec()).collect(), lt::CompletionItemKind::CONSTANT, "weapon");
        items
    }

    /// Handles one request; None for an unknown method.
    pub fn request(&mut self, req: &Request) -> Option<serde_json::Value> {
        match req.method.as_str() {
            "textDocument/hover" => {
                let p: lt::HoverParams = serde_json::from_value(req.params.clone()).ok()?;
                let h = self.hover(&p.text_document_position_params.text_document.uri, p.text_document_position_params.position);
                Some(serde_json::to_value(h.map(|v| lt::Hover { contents: lt::HoverContents::Markup(lt::MarkupContent { kind: lt::MarkupKind::Markdown, value: v }), range: None })).ok()?)
            }
            "textDocument/definition" => {
                let p: lt::GotoDefinitionParams = serde_json::from_value(req.params.clone()).ok()?;
                let d = self.definition(&p.text_document_position_params.text_document.uri, p.text_document_position_params.position);
                Some(serde_json::to_value(d).ok()?)
            }
            "textDocument/documentSymbol" => {
                let p: lt::DocumentSymbolParams = serde_json::from_value(req.params.clone()).ok()?;
                Some(serde_json::to_value(self.symbols(&p.text_document.uri)).ok()?)
            }
            "textDocument/completion" => Some(serde_json::to_value(lt::CompletionResponse::Array(self.completion())).ok()?),
            "shutdown" => Some(serde_json::Value::Null),
            _ => None,
        }
    }

    /// Handles one notification; the document to publish for, if any.
    pub fn notification(&mut self, n: &Notification) -> Option<lt::Uri> {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let p: lt::DidOpenTextDocumentParams = serde_json::from_value(n.params.clone()).ok()?;
                self.docs.insert(p.text_document.uri.as_str().to_string(), p.text_document.text);
                Some(p.text_document.uri)
            }
            "textDocument/didChange" => {
                let p: lt::DidChangeTextDocumentParams = serde_json::from_value(n.params.clone()).ok()?;
                let text = p.content_changes.into_iter().last()?.text;
                self.docs.insert(p.text_document.uri.as_str().to_string(), text);
                Some(p.text_document.uri)
            }
            "textDocument/didSave" => {
                let p: lt::DidSaveTextDocumentParams = serde_json::from_value(n.params.clone()).ok()?;
                Some(p.text_document.uri)
            }
            "textDocument/didClose" => {
                let p: lt::DidCloseTextDocumentParams = serde_json::from_value(n.params.clone()).ok()?;
                self.docs.remove(p.text_document.uri.as_str());
                None
            }
            _ => None,
        }
    }
}

fn to_lsp(d: &Diagnostic, text: &str) -> lt::Diagnostic {
    let start = position(text, d.line, d.col);
    let end = position(text, d.line, d.col + d.len);
    let severity = match d.severity {
        Severity::Error => lt::DiagnosticSeverity::ERROR,
        Severity::Warning => lt::DiagnosticSeverity::WARNING,
        Severity::Note => lt::DiagnosticSeverity::INFORMATION,
    };
    let mut message = d.message.clone();
    if d.engine_first {
        message.push_str(" (the error the engine raises)");
    }
    if let Some(n) = &d.note {
        message = format!("{message}\nnote: {n}");
    }
    lt::Diagnostic {
        range: lt::Range { start, end },
        severity: Some(severity),
        code: Some(lt::NumberOrString::String(d.code.into())),
        source: Some("uoanim".into()),
        message,
        data: Some(serde_json::json!({ "engineFirst": d.engine_first })),
        ..Default::default()
    }
}

/// The server's capabilities.
pub fn capabilities() -> lt::ServerCapabilities {
    lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Options(lt::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lt::TextDocumentSyncKind::FULL),
            save: Some(lt::TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        })),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lt::CompletionOptions::default()),
        definition_provider: Some(lt::OneOf::Left(true)),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        ..Default::default()
    }
}

/// Runs the server on a connection until `exit`.
pub fn serve(conn: Connection) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let init = conn.initialize(caps).map_err(|e| e.to_string())?;
    let params: lt::InitializeParams = serde_json::from_value(init).map_err(|e| e.to_string())?;
    let from_options = params.initialization_options.as_ref().and_then(|o| o.get("modDirectory")).and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from);
    #[allow(deprecated)]
    let root = from_options
        .or_else(|| params.workspace_folders.as_ref().and_then(|f| f.first()).map(|f| uri_path(&f.uri)))
        .or_else(|| params.root_uri.as_ref().map(uri_path));
    let mut server = Server::new(root);
    for msg in &conn.receiver {
        match msg {
            Message::Request(req) => {
                if req.method == "shutdown" {
                    let _ = conn.sender.send(Message::Response(Response::new_ok(req.id.clone(), serde_json::Value::Null)));
                    continue;
                }
                let resp = match server.request(&req) {
                    Some(v) => Response::new_ok(req.id.clone(), v),
                    None => Response::new_err(req.id.clone(), lsp_server::ErrorCode::MethodNotFound as i32, format!("unknown method {}", req.method)),
                };
                let _ = conn.sender.send(Message::Response(resp));
            }
            Message::Notification(n) => {
                if n.method == "exit" {
                    return Ok(());
                }
                if let Some(uri) = server.notification(&n) {
                    server.publish(&conn, &uri);
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}
