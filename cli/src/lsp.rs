//! `uoanim lsp`: a Language Server Protocol 3.17 server over stdio for
//! `mp/playeranim.script` and `animtrees/*.atr`, on the same inputs and
//! checks as `uoanim check`.
//!
//! Built on `lsp-types` and the messages of `lsp-server`, the synchronous
//! pair rust-analyzer uses: a check takes milliseconds and runs on the main
//! loop, so an async runtime (`tower-lsp` and tokio) would add threads, a
//! dependency tree and cancellation rules for nothing. The stdio transport
//! is this server's own ([`transport`]): `lsp-server`'s stops at the first
//! malformed message, this one answers it and reads on. [`serve_on`] keeps
//! LSP's life cycle (`initialize`, `shutdown`, `exit` and their errors);
//! requests and notifications are dispatched by `lsp-types`' method types,
//! their params read into the method's params type (Invalid params when
//! they are not).
//!
//! The mod directory is the workspace root (or the setting
//! `uoanim.modDirectory` in the initialization options; without either,
//! the directory `input::mod_root` finds from the document, as `check`
//! does), over the game's folder when `uoanim.gameDirectory` names it
//! (`gameDirectory` in the initialization options, as `--game`); the open
//! document's text replaces its file in that context, and the diagnostics
//! of that file are published on open, change and save. The files of the
//! mod directory are read once and again after a save (or a change the
//! client reports); an edit re-checks what the edited file's diagnostics
//! depend on, then every other open document whose check read the edited
//! file (a script reads its mod's multiplayer tree: an edit of that tree,
//! open, re-checks the open script).
//!
//! Positions are UTF-16 code units of the document's lines, as LSP counts
//! them (`check`'s columns count characters: docs/CHECK.md "Columns").

use crate::diag::{Diagnostic, Severity};
use crate::input::{display_path, Inputs, SourceFile};
use crate::script::{condition_names, table_names};
use crate::uri;
use index::{Lines, Vocabulary, What};
use transport::{Incoming, Transport};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lt;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use uoanim_core::literals::Literal;
use uoanim_core::outline::{outline, Item, Kind, Span};

pub mod index;
pub mod semantic;
pub mod transport;

// ---- the explanations of docs/CHECK.md ------------------------------------

/// docs/CHECK.md, built in: the hover of a diagnostic quotes its code's
/// section.
const CHECK_MD: &str = include_str!("../../docs/CHECK.md");

/// The explanation of a diagnostic code: the text of its `#### `code``
/// section of docs/CHECK.md (up to the next heading), trimmed.
pub fn explanation(code: &str) -> Option<&'static str> {
    let head = format!("#### `{code}`\n");
    let at = CHECK_MD.find(&head)? + head.len();
    let rest = &CHECK_MD[at..];
    let end = rest.find("\n#").map_or(rest.len(), |i| i + 1);
    Some(rest[..end].trim()).filter(|t| !t.is_empty())
}

// ---- the script's vocabulary ------------------------------------------------

/// What a condition tests: (name as the module spells it, lower case; what
/// the game sets it from; true for a bit-mask condition).
const CONDITIONS: &[(&str, &str, bool)] = &[
    ("weapons", "the player's current weapon", true),
    ("weaponclass", "the class of the current weapon (its weapon file's `weaponClass`)", true),
    ("mounted", "what the player is mounted on: a mounted gun (`MG42`) or a vehicle seat", false),
    ("vehicle", "the vehicle the player is in", false),
    ("vehicle_motion", "the motion of the player's vehicle", false),
    ("movetype", "the move type of the previous frame (the movement the runtime played last)", true),
    ("underhand", "1 when the player looks down (view pitch above 0), else 0", false),
    ("crouching", "1 when the player crouches, else 0", false),
    ("firing", "1 while the player fires, else 0", false),
    ("weapon_position", "where the weapon is held: at the hip or aimed down the sights", false),
    ("strafing", "the direction the player strafes in", false),
];

/// The module's value table of a condition (lower case names, index =
/// value); None for a number condition or `weapons` (the weapon list).
fn condition_table(key: &str) -> Option<Literal> {
    Some(match key {
        "weaponclass" => Literal::WeaponClasses,
        "mounted" => Literal::Mounted,
        "vehicle" => Literal::Vehicles,
        "vehicle_motion" => Literal::VehicleMotion,
        "movetype" => Literal::MoveTypes,
        "weapon_position" => Literal::WeaponPositions,
        "strafing" => Literal::StrafeStates,
        _ => return None,
    })
}

/// The values a condition's expression can name, each with what it sets
/// (`bit N` of a bit mask, `= N` of a one-value condition); the placeholder
/// `** UNUSED **` entries left out. A bit mask also takes `all` (every bit)
/// and `none` (bit 0: for `weapons` the weapon `none`, otherwise the first
/// value of the list, the parser's quirk).
fn condition_values(key: &str, weapons: &[String]) -> Vec<(String, String)> {
    let mask = CONDITIONS.iter().any(|c| c.0 == key && c.2);
    let mut out: Vec<(String, String)> = if key == "weapons" {
        std::iter::once("none".to_string()).chain(weapons.iter().cloned()).enumerate().map(|(i, w)| (w, format!("weapon {i} of the weapon list, bit {i}"))).collect()
    } else {
        let Some(table) = condition_table(key) else { return Vec::new() };
        let names = table_names(table);
        let mut v: Vec<(String, String)> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.starts_with(b"*"))
            .map(|(i, n)| (lower(n), if mask { format!("bit {i}") } else { format!("= {i}") }))
            .collect();
        if mask {
            let first = names.first().filter(|n| !n.starts_with(b"*")).map_or("an unused slot".to_string(), |n| format!("`{}`", lower(n)));
            v.push(("none".into(), format!("bit 0, the first value of the list ({first}): not 'no value'")));
        }
        v
    };
    if mask {
        out.push(("all".into(), "every bit: always holds".into()));
    }
    out
}

/// Words of a condition expression that are operators, not values.
const OPERATORS: &[&str] = &["and", "minus", "not"];

/// The flags of an `.atr` block (`name : flags {`).
const TREE_FLAGS: &[(&str, &str)] = &[
    ("loopsync", "the block's children play in sync, as loops"),
    ("nonloopsync", "the block's children play in sync, not looping"),
    ("complete", "the whole block is loaded when its name is referenced, not only the names a script uses"),
];

fn lower(n: &[u8]) -> String {
    String::from_utf8_lossy(n).to_ascii_lowercase()
}

fn is_condition(w: &str) -> bool {
    CONDITIONS.iter().any(|c| c.0.eq_ignore_ascii_case(w))
}

// ---- the script's names ------------------------------------------------------

/// A named place of a script: a define, state, move type or event, with its
/// byte range.
#[derive(Debug, Clone)]
pub struct Place {
    pub name: String,
    pub kind: lt::SymbolKind,
    pub detail: &'static str,
    /// For a define: its type (a condition, lower case).
    pub ty: String,
    /// For a define: its expansion, the words after `=`.
    pub value: String,
    pub start: usize,
    pub end: usize,
}

/// The text of a span (lossy: the game's files are bytes).
fn span_text(text: &str, s: Span) -> String {
    String::from_utf8_lossy(&text.as_bytes()[s.start.min(text.len())..s.end.min(text.len())]).into_owned()
}

/// The places of a script, from [`uoanim_core::outline`]: its defines,
/// states, move types and events (state names, move types and events in
/// lower case, as the engine matches them), in text order.
pub fn places(text: &str) -> Vec<Place> {
    let t = text.as_bytes();
    let o = outline(t);
    let mut out = Vec::new();
    index::walk(&o.items, &mut |i| {
        let Some(n) = i.name else { return };
        let name = span_text(text, n);
        let (kind, detail) = match i.kind {
            Kind::Define => (lt::SymbolKind::CONSTANT, "define"),
            Kind::State => (lt::SymbolKind::CLASS, "state"),
            Kind::MoveType => (lt::SymbolKind::METHOD, "move type"),
            Kind::Event => (lt::SymbolKind::EVENT, "event"),
            _ => return,
        };
        let (ty, value) = if i.kind == Kind::Define { define_parts(text, i) } else { Default::default() };
        let name = if i.kind == Kind::Define { name } else { name.to_ascii_lowercase() };
        out.push(Place { name, kind, detail, ty, value, start: n.start, end: n.end });
    });
    out
}

/// A define's type (lower case) and expansion (the words after `=`).
fn define_parts(text: &str, i: &Item) -> (String, String) {
    let t = text.as_bytes();
    let w = index::words(t, i.head.start, i.head.end);
    let ty = w.get(1).map(|&(s, e)| span_text(text, Span { start: s, end: e }).to_ascii_lowercase()).unwrap_or_default();
    let value = w
        .iter()
        .position(|&(s, e)| &t[s..e] == b"=")
        .and_then(|k| w.get(k + 1))
        .map(|&(s, _)| span_text(text, Span { start: s, end: i.head.end }).trim().to_string())
        .unwrap_or_default();
    (ty, value)
}

/// The expansion of a define.
fn define_value<'p>(_text: &str, p: &'p Place) -> &'p str {
    &p.value
}

/// A define's expansion as an inlay hint shows it: `AND` as `|`, the other
/// words as written; past `max` characters cut after a word (not after an
/// operator) and `…` added.
fn shortened(words: &[String], max: usize) -> String {
    let shown: Vec<&str> = words.iter().map(|w| if w.eq_ignore_ascii_case("and") { "|" } else { w.as_str() }).collect();
    let whole = shown.join(" ");
    if whole.chars().count() <= max {
        return whole;
    }
    let mut out = String::new();
    for w in shown {
        if !out.is_empty() && out.chars().count() + 1 + w.chars().count() > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    while let Some(cut) = out.rsplit_once(' ').filter(|(_, last)| *last == "|" || OPERATORS.contains(&last.to_ascii_lowercase().as_str())) {
        out.truncate(cut.0.len());
    }
    if out.chars().count() > max {
        out = out.chars().take(max).collect();
    }
    format!("{out} …")
}

/// One name of an `.atr` file.
#[derive(Debug, Clone)]
pub struct TreeNode {
    /// As written.
    pub name: String,
    pub start: usize,
    pub end: usize,
    /// Index of the enclosing block's name (None: at the top).
    pub parent: Option<usize>,
    /// The flags after its `:`.
    pub flags: Vec<String>,
    /// It opens a block (a parent), else it is a leaf.
    pub block: bool,
    /// The end of its block (its `}` included; the end of the text when
    /// the block is never closed), else of its name.
    pub block_end: usize,
}

/// The names of an `.atr` text with their structure, from the core's tree
/// outline (the text read as the engine's tokenizer cuts it). For hover,
/// completion and definition; the check itself is the library's parser.
pub fn tree_outline(text: &[u8]) -> Vec<TreeNode> {
    let o = uoanim_core::tree_outline::outline(text);
    let words = |s: Span| String::from_utf8_lossy(&text[s.start..s.end]).into_owned();
    o.nodes
        .iter()
        .map(|n| TreeNode {
            name: words(n.name),
            start: n.name.start,
            end: n.name.end,
            parent: n.parent,
            flags: n.properties.iter().map(|&p| words(p).to_ascii_lowercase()).collect(),
            block: n.block.is_some(),
            block_end: n.end(),
        })
        .collect()
}

/// The hover text of a tree's name.
fn tree_hover(tree_name: &str, file: &str, text: &str, nodes: &[TreeNode], i: usize) -> String {
    let n = &nodes[i];
    let (line, _) = crate::diag::line_col(text.as_bytes(), n.start);
    let mut s = format!("animation `{}` of tree `{tree_name}`", n.name);
    if n.block {
        let children: Vec<&str> = nodes.iter().filter(|c| c.parent == Some(i)).map(|c| c.name.as_str()).collect();
        let shown: Vec<String> = children.iter().take(8).map(|c| format!("`{c}`")).collect();
        let more = if children.len() > 8 { format!(", and {} more", children.len() - 8) } else { String::new() };
        s.push_str(&format!(": a parent of {} ({}{more})", children.len(), shown.join(", ")));
    } else {
        s.push_str(": a leaf (an xanim asset of that name)");
    }
    if let Some(p) = n.parent {
        s.push_str(&format!(", under `{}`", nodes[p].name));
    }
    let mut flags: Vec<String> = n.flags.iter().map(|f| format!("`{f}`")).collect();
    let mut up = n.parent;
    while let Some(p) = up {
        for f in &nodes[p].flags {
            flags.push(format!("`{f}` (of `{}`)", nodes[p].name));
        }
        up = nodes[p].parent;
    }
    s.push_str(&if flags.is_empty() { "\n\nflags: none".to_string() } else { format!("\n\nflags: {}", flags.join(", ")) });
    for f in &n.flags {
        if let Some((_, what)) = TREE_FLAGS.iter().find(|(k, _)| k == f) {
            s.push_str(&format!("\n\n`{f}`: {what}"));
        }
    }
    s.push_str(&format!("\n\ndefined at {file}:{line}"));
    s
}

/// The position of a word in a script line: the condition key it belongs
/// to and whether it is that key itself.
#[derive(Debug, PartialEq)]
enum LineContext {
    /// The first word of a condition (or of a `set` line's type).
    Key,
    /// A value of condition `.0`.
    Value(String),
    /// The animation of a command (`both`, `torso`, `legs`).
    Animation,
    /// Anything else.
    Other,
}

/// What the word starting at byte `word_start` of its line `line` (up to
/// the cursor) is: a condition key, a value of a key, an animation.
fn line_context(line: &str, word_start: usize) -> LineContext {
    let code = line.split("//").next().unwrap_or("");
    let before = &code[..word_start.min(code.len())];
    let words: Vec<&str> = before.split_ascii_whitespace().collect();
    if words.first().is_some_and(|w| w.eq_ignore_ascii_case("set")) {
        return match words.len() {
            1 => LineContext::Key,
            _ if before.contains('=') => LineContext::Value(words[1].to_ascii_lowercase()),
            _ => LineContext::Other,
        };
    }
    if words.last().is_some_and(|w| ["both", "torso", "legs"].iter().any(|b| b.eq_ignore_ascii_case(w))) {
        return LineContext::Animation;
    }
    // The segment of a condition list the word is in.
    let segment = before.rsplit(',').next().unwrap_or("");
    let seg_words: Vec<&str> = segment.split_ascii_whitespace().collect();
    match seg_words.first() {
        None if before.contains(',') => LineContext::Key,
        Some(k) if is_condition(k) => LineContext::Value(k.to_ascii_lowercase()),
        _ => LineContext::Other,
    }
}

// ---- positions --------------------------------------------------------------

fn range_of(text: &str, start: usize, end: usize) -> lt::Range {
    let (l, c) = crate::diag::line_col(text.as_bytes(), start);
    let (l2, c2) = crate::diag::line_col(text.as_bytes(), end);
    lt::Range { start: position(text, l, c), end: position(text, l2, c2) }
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

/// The word around byte `at` (its start and text).
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

/// The line holding byte `at`: its start offset and text.
fn line_at(text: &str, at: usize) -> (usize, &str) {
    let at = at.min(text.len());
    let s = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let e = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (s, &text[s..e])
}

/// Whether references and highlights follow a kind of name.
fn is_followed(what: What) -> bool {
    matches!(what, What::Define | What::State | What::MoveType | What::Event | What::Animation)
}

/// The end of `text[..end]` without its trailing white space.
fn trim_end(text: &[u8], end: usize) -> usize {
    let end = end.min(text.len());
    text[..end].iter().rposition(|&b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1)
}

/// A script item's document symbol (with its children's).
#[allow(deprecated)]
fn item_symbol(text: &str, lines: &Lines, i: &Item) -> lt::DocumentSymbol {
    let words = |s: Span| span_text(text, s).split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    let name = i.name.map(words).filter(|n| !n.is_empty()).unwrap_or_else(|| words(i.head));
    let (kind, detail) = match i.kind {
        Kind::Section(_) => (lt::SymbolKind::NAMESPACE, "section".to_string()),
        Kind::Define => {
            let (ty, value) = define_parts(text, i);
            (lt::SymbolKind::CONSTANT, format!("define: {ty} = {value}"))
        }
        Kind::State => (lt::SymbolKind::CLASS, "state".into()),
        Kind::MoveType => (lt::SymbolKind::METHOD, "move type".into()),
        Kind::StateChange => (lt::SymbolKind::EVENT, "state change (to, from)".into()),
        Kind::Event => (lt::SymbolKind::EVENT, "event".into()),
        Kind::Conditions => (lt::SymbolKind::BOOLEAN, "conditions".into()),
    };
    let end = match (i.kind, i.block) {
        (Kind::Section(_), Some(b)) => trim_end(text.as_bytes(), b.end).max(i.head.end),
        (_, Some(b)) => b.end,
        (_, None) => i.head.end,
    };
    let selection = i.name.unwrap_or(i.head);
    let children: Vec<lt::DocumentSymbol> = i.children.iter().map(|c| item_symbol(text, lines, c)).collect();
    lt::DocumentSymbol {
        name,
        detail: Some(detail),
        kind,
        tags: None,
        deprecated: None,
        range: lines.range(i.head.start, end),
        selection_range: lines.range(selection.start, selection.end),
        children: (!children.is_empty()).then_some(children),
    }
}

/// A tree name's document symbol (with its block's names).
#[allow(deprecated)]
fn tree_symbol(nodes: &[TreeNode], i: usize, lines: &Lines) -> lt::DocumentSymbol {
    let n = &nodes[i];
    let children: Vec<lt::DocumentSymbol> = (0..nodes.len()).filter(|&c| nodes[c].parent == Some(i)).map(|c| tree_symbol(nodes, c, lines)).collect();
    let detail = if n.block { format!("parent of {}", children.len()) } else { "leaf".into() };
    let detail = if n.flags.is_empty() { detail } else { format!("{detail}: {}", n.flags.join(" ")) };
    lt::DocumentSymbol {
        name: n.name.clone(),
        detail: Some(detail),
        kind: if n.block { lt::SymbolKind::NAMESPACE } else { lt::SymbolKind::FIELD },
        tags: None,
        deprecated: None,
        range: lines.range(n.start, n.block_end),
        selection_range: lines.range(n.start, n.end),
        children: (!children.is_empty()).then_some(children),
    }
}

// ---- the server -------------------------------------------------------------

/// An open document.
struct Doc {
    path: PathBuf,
    text: String,
    /// Its diagnostics from the last check.
    diags: Vec<Diagnostic>,
    /// The weapon names that check used (the mod's, else the stock ones).
    weapons: Vec<String>,
    /// The files that check read (their [`file_key`]s): the open documents
    /// among them are the ones its diagnostics depend on.
    reads: Vec<String>,
}

/// The key of a file of the inputs or of an open document's path: two are
/// the same file when their keys are equal.
fn file_key(path: &Path) -> String {
    uri::path_key(path)
}

/// The server's state: the mod directory, its files as last read, and the
/// open documents (by the URI the client gave).
pub struct Server {
    root: Option<PathBuf>,
    /// The game's folder (`--game`), searched under the mod.
    game: Option<PathBuf>,
    /// The files of the mod directory (None: to be read).
    base: Option<(Option<PathBuf>, Inputs)>,
    docs: HashMap<String, Doc>,
    /// The documents whose diagnostics are to be published (by key).
    publish: Vec<String>,
    settings: Settings,
}

/// The settings of the checks, from the initialization options and
/// `workspace/didChangeConfiguration` (the keys at the top or under
/// `uoanim`): `weapons` (a weapons/mp directory or a list of names, one a
/// line; relative: to the mod directory), `allow` (codes left out), `warn`
/// (opt-in codes asked for).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub weapons: Option<PathBuf>,
    pub allow: HashSet<String>,
    pub warn: HashSet<String>,
}

impl Settings {
    pub fn read(v: &serde_json::Value) -> Settings {
        let v = v.get("uoanim").unwrap_or(v);
        let codes = |key: &str| -> HashSet<String> {
            v.get(key).and_then(|a| a.as_array()).map_or_else(HashSet::new, |a| a.iter().filter_map(|c| c.as_str()).map(|c| c.trim().to_string()).collect())
        };
        let weapons = v.get("weapons").and_then(|w| w.as_str()).filter(|w| !w.is_empty()).map(PathBuf::from);
        Settings { weapons, allow: codes("allow"), warn: codes("warn") }
    }
}

fn is_tree(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("atr"))
}

fn tree_name(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().to_ascii_lowercase()).unwrap_or_default()
}

impl Server {
    pub fn new(root: Option<PathBuf>) -> Server {
        Server { root, game: None, base: None, docs: HashMap::new(), publish: Vec::new(), settings: Settings::default() }
    }

    /// The game's folder, searched under the mod as `check --game` does.
    pub fn set_game_directory(&mut self, game: Option<PathBuf>) {
        self.game = game;
        self.base = None;
    }

    /// The mod directory of a document: the workspace's, else the one
    /// `check` finds from the file (`mod/mp/playeranim.script`,
    /// `mod/animtrees/x.atr`: `mod`).
    fn mod_dir(&self, path: &Path) -> Option<PathBuf> {
        self.root.clone().or_else(|| path.is_absolute().then(|| crate::input::mod_root(path)))
    }

    /// The files of the mod directory `dir`, read once (again after
    /// [`Server::forget_files`]).
    fn base(&mut self, dir: Option<PathBuf>) -> Inputs {
        if let Some((d, inputs)) = &self.base {
            if *d == dir {
                return inputs.clone();
            }
        }
        let mut inputs = match &dir {
            Some(d) => Inputs::load(std::slice::from_ref(d), self.game.as_deref()).unwrap_or_default(),
            None => Inputs::default(),
        };
        if let Some(w) = &self.settings.weapons {
            let w = match &dir {
                Some(d) if w.is_relative() => d.join(w),
                _ => w.clone(),
            };
            let _ = inputs.set_weapons(&w);
        }
        self.base = Some((dir, inputs.clone()));
        inputs
    }

    /// New settings: when they differ, the mod's files are read again and
    /// every open document checked again.
    pub fn configure(&mut self, settings: Settings) {
        if settings != self.settings {
            self.settings = settings;
            self.files_changed();
        }
    }

    /// After a save or a change on disk: the mod's files are read again.
    pub fn forget_files(&mut self) {
        self.base = None;
    }

    /// The inputs that `path`'s diagnostics depend on, with its text
    /// replaced by `text` and every other open document's text replacing
    /// its file. For a script: the script and the multiplayer tree; for a
    /// tree: the script and the trees up to it in name order (the engine's
    /// first error is the first of that order).
    fn inputs_for(&mut self, path: &Path, text: &str) -> (Inputs, String) {
        let mut inputs = self.base(self.mod_dir(path));
        let display = display_path(path);
        // Open documents replace their files.
        for d in self.docs.values() {
            let key = file_key(&d.path);
            if key == file_key(path) {
                continue;
            }
            if let Some(t) = inputs.trees.iter_mut().find(|t| file_key(Path::new(&t.display)) == key) {
                t.text = d.text.as_bytes().to_vec();
            }
            if let Some(s) = inputs.script.as_mut().filter(|s| file_key(Path::new(&s.display)) == key) {
                s.text = d.text.as_bytes().to_vec();
            }
        }
        let file = SourceFile { display: display.clone(), name: String::new(), text: text.as_bytes().to_vec() };
        if is_tree(path) {
            let name = tree_name(path);
            inputs.trees.retain(|t| t.name != name && (t.name < name || t.name == "multiplayer"));
            inputs.trees.push(SourceFile { name, ..file });
            inputs.trees.sort_by(|a, b| a.name.cmp(&b.name));
        } else {
            inputs.trees.retain(|t| t.name == "multiplayer");
            inputs.script = Some(file);
        }
        (inputs, display)
    }

    /// Checks an open document again (after its text changed).
    fn refresh(&mut self, key: &str) {
        let Some(doc) = self.docs.get(key) else { return };
        let (path, text) = (doc.path.clone(), doc.text.clone());
        let (inputs, display) = self.inputs_for(&path, &text);
        let report = crate::check(&inputs, &crate::left_out(&self.settings.allow, &self.settings.warn));
        let weapons = match &inputs.weapons {
            Some(w) => w.iter().map(|w| String::from_utf8_lossy(w).into_owned()).collect(),
            None => crate::stock::UO_MP_WEAPONS.iter().map(|w| w.to_string()).collect(),
        };
        if let Some(doc) = self.docs.get_mut(key) {
            doc.diags = report.diags.into_iter().filter(|d| d.file == display).collect();
            doc.weapons = weapons;
            doc.reads = inputs.script.iter().chain(&inputs.trees).map(|f| file_key(Path::new(&f.display))).collect();
        }
    }

    /// The open documents (their keys, in order) whose last check read the
    /// file at `path`: a script reads its mod's multiplayer tree, a tree
    /// the script and the trees before it (see [`Server::inputs_for`]).
    fn dependents(&self, path: &Path) -> Vec<String> {
        let changed = file_key(path);
        let mut keys: Vec<String> = self.docs.iter().filter(|(_, d)| file_key(&d.path) != changed && d.reads.contains(&changed)).map(|(k, _)| k.clone()).collect();
        keys.sort();
        keys
    }

    /// An open document's text changed (or it was opened): it is checked
    /// again, then every open document that reads it, and all of them are
    /// to be published.
    fn changed(&mut self, key: &str) {
        self.refresh(key);
        self.publish.push(key.to_string());
        let Some(path) = self.docs.get(key).map(|d| d.path.clone()) else { return };
        for k in self.dependents(&path) {
            self.refresh(&k);
            self.publish.push(k);
        }
    }

    /// The diagnostics of one document, as `check` finds them.
    pub fn diagnostics(&self, uri: &lt::Uri) -> Vec<lt::Diagnostic> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        doc.diags.iter().map(|d| to_lsp(d, &doc.text, uri)).collect()
    }

    /// The multiplayer tree of a document's mod: its path, the URI to show
    /// it by (the open document's, else the file's), and its text (the open
    /// document's when it is open).
    fn tree_of(&mut self, uri: &lt::Uri) -> Option<(PathBuf, String, String)> {
        let doc = self.docs.get(uri.as_str())?;
        if is_tree(&doc.path) {
            return (tree_name(&doc.path) == "multiplayer").then(|| (doc.path.clone(), uri.as_str().to_string(), doc.text.clone()));
        }
        let path = doc.path.clone();
        let dir = self.mod_dir(&path);
        let base = self.base(dir);
        let t = base.multiplayer_tree()?;
        let p = PathBuf::from(&t.display);
        if let Some((k, d)) = self.docs.iter().find(|(_, d)| file_key(&d.path) == file_key(&p)) {
            return Some((p, k.clone(), d.text.clone()));
        }
        Some((p.clone(), uri::from_path(&p), String::from_utf8_lossy(&t.text).into_owned()))
    }

    /// Hover: the diagnostics at the position with their explanation (docs/
    /// CHECK.md), a condition key (what it tests, its values) or value, a
    /// define (its expansion), an animation name (its tree, place, flags
    /// and line), a state, move type or event, a stock weapon.
    pub fn hover(&mut self, uri: &lt::Uri, pos: lt::Position) -> Option<String> {
        let doc = self.docs.get(uri.as_str())?;
        let text = doc.text.clone();
        let weapons = doc.weapons.clone();
        let tree_doc = is_tree(&doc.path);
        let mut parts = Vec::new();
        for d in &doc.diags {
            let l = to_lsp(d, &text, uri);
            if l.range.start <= pos && pos <= l.range.end {
                let mut s = format!("**{}** `{}`: {}", d.severity.as_str(), d.code, l.message);
                if let Some(e) = explanation(d.code) {
                    s.push_str(&format!("\n\n{e}"));
                }
                parts.push(s);
            }
        }
        let at = offset(&text, pos);
        if let Some((ws, w)) = word_at(&text, at) {
            let lw = w.to_ascii_lowercase();
            if tree_doc {
                let nodes = tree_outline(text.as_bytes());
                if let Some(i) = nodes.iter().position(|n| n.start == ws) {
                    let file = display_path(&self.docs[uri.as_str()].path);
                    parts.push(tree_hover(&tree_name(&self.docs[uri.as_str()].path), &file, &text, &nodes, i));
                } else if let Some((f, what)) = TREE_FLAGS.iter().find(|(f, _)| *f == lw) {
                    parts.push(format!("flag `{f}`: {what}"));
                }
                return (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"));
            }
            let (ls, line) = line_at(&text, ws);
            let context = line_context(line, ws - ls);
            let places = places(&text);
            let define = places.iter().find(|p| p.detail == "define" && p.name.eq_ignore_ascii_case(w));
            if context == LineContext::Key || (context == LineContext::Other && is_condition(w)) {
                if let Some((k, what, mask)) = CONDITIONS.iter().find(|c| c.0 == lw) {
                    let values = condition_values(k, &weapons);
                    let how = if *mask { "a bit mask: the condition holds when the value is any of those named (`a, b`, `a AND b`; `MINUS` subtracts)" } else { "one value: the condition holds when it is the value named" };
                    let list = if *k == "weapons" {
                        let n = values.len() - 2;
                        let shown: Vec<String> = values.iter().skip(1).take(n.min(12)).map(|(v, _)| format!("`{v}`")).collect();
                        format!("`none` (weapon 0) and the {n} weapons of the list ({}{}), `all`, or a `set weapons` define", shown.join(", "), if n > 12 { ", …" } else { "" })
                    } else if values.is_empty() {
                        "a number".to_string()
                    } else {
                        values.iter().map(|(v, _)| format!("`{v}`")).collect::<Vec<_>>().join(", ")
                    };
                    parts.push(format!("condition `{k}`: {what}\n\n{how}\n\nvalues: {list}"));
                }
            } else if let LineContext::Value(key) = &context {
                if let Some(p) = define {
                    parts.push(format!("define `{}` (`{}`): `{}`", p.name, p.ty, define_value(&text, p)));
                } else if !OPERATORS.contains(&lw.as_str()) {
                    let values = condition_values(key, &weapons);
                    match values.iter().find(|(v, _)| v.eq_ignore_ascii_case(w)) {
                        Some((v, what)) if key == "weapons" => parts.push(format!("`{v}`: {what} of condition `weapons` (the player's current weapon)")),
                        Some((v, what)) => {
                            parts.push(format!("`{v}`: a value of condition `{key}` ({what}); its values: {}", values.iter().map(|(v, _)| format!("`{v}`")).collect::<Vec<_>>().join(", ")));
                        }
                        None if !values.is_empty() => parts.push(format!("`{w}` is not a value of condition `{key}`")),
                        None => {}
                    }
                }
            } else if let Some(p) = define {
                parts.push(format!("define `{}` (`{}`): `{}`", p.name, p.ty, define_value(&text, p)));
            }
            if context != LineContext::Key && !is_condition(w) && define.is_none() {
                if let Some((path, _, tree)) = self.tree_of(uri) {
                    let nodes = tree_outline(tree.as_bytes());
                    if let Some(i) = nodes.iter().position(|n| n.name.eq_ignore_ascii_case(w)) {
                        parts.push(tree_hover("multiplayer", &display_path(&path), &tree, &nodes, i));
                    }
                }
                if let Some(p) = places.iter().find(|p| p.detail != "define" && p.name.eq_ignore_ascii_case(w) && p.start != ws) {
                    let (l, _) = crate::diag::line_col(text.as_bytes(), p.start);
                    parts.push(format!("{} `{}` (line {l})", p.detail, p.name));
                }
            }
            if !matches!(context, LineContext::Value(_)) {
                if let Some(i) = crate::stock::UO_MP_WEAPONS.iter().position(|n| n.eq_ignore_ascii_case(w)) {
                    parts.push(format!("weapon `{w}` (stock United Offensive weapon {})", i + 1));
                }
            }
        }
        (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"))
    }

    /// Go to definition: a define, a state or move type of the script, an
    /// animation name in the multiplayer tree (or in the open `.atr`).
    pub fn definition(&mut self, uri: &lt::Uri, pos: lt::Position) -> Option<lt::Location> {
        let doc = self.docs.get(uri.as_str())?;
        let text = doc.text.clone();
        let at = offset(&text, pos);
        let (_, w) = word_at(&text, at)?;
        let w = w.to_string();
        if is_tree(&doc.path) {
            let n = tree_outline(text.as_bytes()).into_iter().find(|n| n.name.eq_ignore_ascii_case(&w))?;
            return Some(lt::Location { uri: uri.clone(), range: range_of(&text, n.start, n.end) });
        }
        if let Some(p) = places(&text).into_iter().find(|p| p.name.eq_ignore_ascii_case(&w)) {
            return Some(lt::Location { uri: uri.clone(), range: range_of(&text, p.start, p.end) });
        }
        let (_, tree_uri, tree) = self.tree_of(uri)?;
        let n = tree_outline(tree.as_bytes()).into_iter().find(|n| n.name.eq_ignore_ascii_case(&w))?;
        Some(lt::Location { uri: tree_uri.parse().ok()?, range: range_of(&tree, n.start, n.end) })
    }

    /// Document symbols: a script's structure as the engine reads it
    /// (sections > states > move types > condition blocks; state changes
    /// and events with their condition blocks; defines), a tree's names
    /// nested by block. The range of each is its head and block, its
    /// selection range its name.
    pub fn symbols(&self, uri: &lt::Uri) -> Vec<lt::DocumentSymbol> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let text = &doc.text;
        let lines = Lines::new(text);
        if is_tree(&doc.path) {
            let nodes = tree_outline(text.as_bytes());
            return (0..nodes.len()).filter(|&i| nodes[i].parent.is_none()).map(|i| tree_symbol(&nodes, i, &lines)).collect();
        }
        outline(text.as_bytes()).items.iter().map(|i| item_symbol(text, &lines, i)).collect()
    }

    /// Folding ranges: every block and section of a script, every block of
    /// a tree; block comments and runs of line comments.
    pub fn folding(&self, uri: &lt::Uri) -> Vec<lt::FoldingRange> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let (text, t) = (&doc.text, doc.text.as_bytes());
        let lines = Lines::new(text);
        let mut out = Vec::new();
        let mut fold = |start: usize, end: usize, kind: lt::FoldingRangeKind| {
            let (a, b) = (lines.line(start), lines.line(end.max(start + 1) - 1));
            if b > a {
                out.push(lt::FoldingRange { start_line: a, end_line: b, kind: Some(kind), ..Default::default() });
            }
        };
        if is_tree(&doc.path) {
            for n in tree_outline(t).iter().filter(|n| n.block) {
                fold(n.start, n.block_end, lt::FoldingRangeKind::Region);
            }
        } else {
            index::walk(&outline(t).items, &mut |i| {
                if let Some(b) = i.block {
                    let end = if matches!(i.kind, Kind::Section(_)) { trim_end(t, b.end) } else { b.end };
                    fold(i.head.start, end, lt::FoldingRangeKind::Region);
                }
            });
        }
        // Comments: a block comment, or line comments alone on consecutive
        // lines.
        let mut run: Option<(usize, usize)> = None;
        for (s, e, block) in index::comments(t) {
            if block {
                fold(s, e, lt::FoldingRangeKind::Comment);
                continue;
            }
            let alone = t[lines.start_of(lines.line(s))..s].iter().all(|&b| b == b' ' || b == b'\t');
            match run {
                Some((rs, re)) if alone && lines.line(s) == lines.line(re) + 1 => run = Some((rs, e)),
                _ => {
                    if let Some((rs, re)) = run.take() {
                        fold(rs, re, lt::FoldingRangeKind::Comment);
                    }
                    run = alone.then_some((s, e));
                }
            }
        }
        if let Some((rs, re)) = run {
            fold(rs, re, lt::FoldingRangeKind::Comment);
        }
        out.sort_by_key(|f| (f.start_line, std::cmp::Reverse(f.end_line)));
        out
    }

    /// The script of a document's mod: the document itself, else for the
    /// multiplayer tree the open script that reads it, else the mod's
    /// script file. Its URI and text (the open document's when open).
    fn script_of(&mut self, uri: &lt::Uri) -> Option<(String, String)> {
        let doc = self.docs.get(uri.as_str())?;
        if !is_tree(&doc.path) {
            return Some((uri.as_str().to_string(), doc.text.clone()));
        }
        if tree_name(&doc.path) != "multiplayer" {
            return None;
        }
        let (path, key) = (doc.path.clone(), file_key(&doc.path));
        let mut open: Vec<(&String, &Doc)> = self.docs.iter().filter(|(_, d)| !is_tree(&d.path) && d.reads.contains(&key)).collect();
        open.sort_by_key(|(k, _)| k.as_str());
        if let Some((k, d)) = open.first() {
            return Some(((*k).clone(), d.text.clone()));
        }
        let dir = self.mod_dir(&path);
        let base = self.base(dir);
        let s = base.script.as_ref()?;
        let p = PathBuf::from(&s.display);
        if let Some((k, d)) = self.docs.iter().find(|(_, d)| file_key(&d.path) == file_key(&p)) {
            return Some((k.clone(), d.text.clone()));
        }
        Some((uri::from_path(&p), String::from_utf8_lossy(&s.text).into_owned()))
    }

    /// The name at a position that references, highlights and rename
    /// follow: what it is, as written, and its byte span.
    fn symbol_at(&self, uri: &lt::Uri, pos: lt::Position) -> Option<(What, String, usize, usize)> {
        let doc = self.docs.get(uri.as_str())?;
        let (text, at) = (&doc.text, offset(&doc.text, pos));
        let (what, s, e) = if is_tree(&doc.path) {
            let n = tree_outline(text.as_bytes()).into_iter().find(|n| n.start <= at && at <= n.end)?;
            (What::Animation, n.start, n.end)
        } else {
            let o = outline(text.as_bytes());
            let occ = index::script_occurrences(text.as_bytes(), &o, &Vocabulary::new());
            let o = index::occurrence_at(&occ, at)?;
            (o.what, o.start, o.end)
        };
        Some((what, span_text(text, Span { start: s, end: e }), s, e))
    }

    /// Every place of a name (any case), by file: the script's words of
    /// that kind and, for an animation, the multiplayer tree's names (or
    /// those of the open tree, for another tree). Each place: its range and
    /// whether it defines the name.
    fn places_of(&mut self, uri: &lt::Uri, what: What, name: &str) -> Vec<(String, Vec<(lt::Range, bool)>)> {
        let mut out = Vec::new();
        let Some(doc) = self.docs.get(uri.as_str()) else { return out };
        let other_tree = is_tree(&doc.path) && tree_name(&doc.path) != "multiplayer";
        let doc_text = doc.text.clone();
        let same = |t: &str, s: usize, e: usize| t.as_bytes()[s..e].eq_ignore_ascii_case(name.as_bytes());
        if !other_tree {
            if let Some((script_uri, text)) = self.script_of(uri) {
                let o = outline(text.as_bytes());
                let lines = Lines::new(&text);
                let found: Vec<(lt::Range, bool)> = index::script_occurrences(text.as_bytes(), &o, &Vocabulary::new())
                    .into_iter()
                    .filter(|o| o.what == what && same(&text, o.start, o.end))
                    .map(|o| (lines.range(o.start, o.end), o.decl))
                    .collect();
                out.push((script_uri, found));
            }
        }
        if what == What::Animation {
            let tree = if other_tree { Some((uri.as_str().to_string(), doc_text)) } else { self.tree_of(uri).map(|(_, u, t)| (u, t)) };
            if let Some((tree_uri, text)) = tree {
                let lines = Lines::new(&text);
                let found = tree_outline(text.as_bytes()).into_iter().filter(|n| same(&text, n.start, n.end)).map(|n| (lines.range(n.start, n.end), true)).collect();
                out.push((tree_uri, found));
            }
        }
        out.retain(|(_, f)| !f.is_empty());
        out
    }

    /// References: every place of the name at the position (defines,
    /// states, move types, events; animations in the script and the tree).
    pub fn references(&mut self, uri: &lt::Uri, pos: lt::Position, declaration: bool) -> Vec<lt::Location> {
        let Some((what, name, _, _)) = self.symbol_at(uri, pos).filter(|s| is_followed(s.0)) else { return Vec::new() };
        let mut out = Vec::new();
        for (u, found) in self.places_of(uri, what, &name) {
            let Ok(u) = u.parse::<lt::Uri>() else { continue };
            out.extend(found.into_iter().filter(|(_, decl)| declaration || !decl).map(|(range, _)| lt::Location { uri: u.clone(), range }));
        }
        out
    }

    /// Highlights: the places of the name in this document (a definition
    /// written, a use read).
    pub fn highlights(&mut self, uri: &lt::Uri, pos: lt::Position) -> Vec<lt::DocumentHighlight> {
        let Some((what, name, _, _)) = self.symbol_at(uri, pos).filter(|s| is_followed(s.0)) else { return Vec::new() };
        let places = self.places_of(uri, what, &name);
        let Some((_, found)) = places.into_iter().find(|(u, _)| u == uri.as_str()) else { return Vec::new() };
        found
            .into_iter()
            .map(|(range, decl)| lt::DocumentHighlight { range, kind: Some(if decl { lt::DocumentHighlightKind::WRITE } else { lt::DocumentHighlightKind::READ }) })
            .collect()
    }

    /// Whether the name at the position can be renamed: its range and
    /// text; an error for the engine's names.
    pub fn prepare_rename(&self, uri: &lt::Uri, pos: lt::Position) -> Result<Option<(lt::Range, String)>, String> {
        let Some((what, name, s, e)) = self.symbol_at(uri, pos) else { return Ok(None) };
        if !what.renamable() {
            return Err(format!("'{name}' is {}: its name is fixed by the engine (only defines and animation names can be renamed)", what.said()));
        }
        let doc = &self.docs[uri.as_str()];
        Ok(Some((range_of(&doc.text, s, e), name)))
    }

    /// Rename a define or an animation: the edits of every place of it,
    /// in the script and the multiplayer tree.
    // `lsp-types`' WorkspaceEdit keys its changes by Uri (its parsed parts
    // are cached inside, never changed once it is a key).
    #[allow(clippy::mutable_key_type)]
    pub fn rename(&mut self, uri: &lt::Uri, pos: lt::Position, new_name: &str) -> Result<Option<lt::WorkspaceEdit>, String> {
        let Some((what, name, _, _)) = self.symbol_at(uri, pos) else { return Ok(None) };
        if !what.renamable() {
            return Err(format!("'{name}' is {}: its name is fixed by the engine (only defines and animation names can be renamed)", what.said()));
        }
        let word = !new_name.is_empty() && new_name.bytes().all(|b| b.is_ascii_graphic() && !b",{}\"".contains(&b)) && !new_name.contains("//") && !new_name.contains("/*");
        if !word || (what == What::Animation && !uoanim_core::lexis::is_identifier(new_name.as_bytes())) {
            let rule = if what == What::Animation { "letters, digits and '_'" } else { "one word: no space, comma, brace, quote or comment" };
            return Err(format!("'{new_name}' cannot be the name of {}: {rule}", what.said()));
        }
        let mut changes = HashMap::new();
        for (u, found) in self.places_of(uri, what, &name) {
            let Ok(u) = u.parse::<lt::Uri>() else { continue };
            changes.insert(u, found.into_iter().map(|(range, _)| lt::TextEdit { range, new_text: new_name.to_string() }).collect());
        }
        Ok(Some(lt::WorkspaceEdit { changes: Some(changes), ..Default::default() }))
    }

    /// Quick fixes of the diagnostics in a range: the edit a diagnostic's
    /// help suggests (a name it means, `AND` between words, the missing
    /// '}'), and for a warning a comment that allows its code in the file.
    // `lsp-types`' WorkspaceEdit keys its changes by Uri.
    #[allow(clippy::mutable_key_type)]
    pub fn code_actions(&self, uri: &lt::Uri, range: lt::Range) -> Vec<lt::CodeActionOrCommand> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let lines = Lines::new(&doc.text);
        let mut out = Vec::new();
        let mut allowed = HashSet::new();
        let action = |title: String, diagnostic: &lt::Diagnostic, edit: lt::TextEdit, preferred: bool| {
            lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
                title,
                kind: Some(lt::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(lt::WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), vec![edit])])), ..Default::default() }),
                is_preferred: Some(preferred),
                ..Default::default()
            })
        };
        for d in &doc.diags {
            let l = to_lsp(d, &doc.text, uri);
            if l.range.end < range.start || range.end < l.range.start {
                continue;
            }
            if let Some(f) = &d.fix {
                out.push(action(f.title.clone(), &l, lt::TextEdit { range: lines.range(f.start, f.end), new_text: f.text.clone() }, true));
            }
            if d.severity == Severity::Warning && allowed.insert(d.code) {
                let at = lt::Range::default();
                out.push(action(format!("allow '{}' in this file", d.code), &l, lt::TextEdit { range: at, new_text: crate::allow_comment(d.code) }, false));
            }
        }
        out
    }

    /// Completion at a position: after a condition key its values and the
    /// defines of its type; at the start of a condition the keys; after
    /// `both`/`torso`/`legs` the animation names of the multiplayer tree;
    /// after `:` in a tree the flags; elsewhere every name (sections,
    /// states, move types, events, conditions, weapon classes, weapons,
    /// defines, animations).
    pub fn completion(&mut self, uri: &lt::Uri, pos: lt::Position) -> Vec<lt::CompletionItem> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let text = doc.text.clone();
        let weapons = doc.weapons.clone();
        let at = offset(&text, pos);
        let mut items: Vec<lt::CompletionItem> = Vec::new();
        let mut add = |label: String, kind: lt::CompletionItemKind, detail: String| {
            if !items.iter().any(|i| i.label == label) {
                items.push(lt::CompletionItem { label, kind: Some(kind), detail: Some(detail), ..Default::default() });
            }
        };
        let (ls, line) = line_at(&text, at);
        let word_start = word_at(&text, at).map_or(at, |(s, _)| s.min(at));
        if is_tree(&doc.path) {
            if line[..word_start - ls].contains(':') {
                for (f, what) in TREE_FLAGS {
                    add(f.to_string(), lt::CompletionItemKind::KEYWORD, what.to_string());
                }
            }
            return items;
        }
        let places = places(&text);
        let defines = |ty: Option<&str>| -> Vec<&Place> { places.iter().filter(|p| p.detail == "define" && ty.is_none_or(|t| p.ty == t)).collect() };
        let animations = |s: &mut Self| s.tree_of(uri).map(|(_, _, t)| tree_outline(t.as_bytes())).unwrap_or_default();
        match line_context(line, word_start - ls) {
            LineContext::Key => {
                for (k, what, _) in CONDITIONS {
                    add(k.to_string(), lt::CompletionItemKind::KEYWORD, format!("condition: {what}"));
                }
            }
            LineContext::Value(key) => {
                for (v, what) in condition_values(&key, &weapons) {
                    add(v, if key == "weapons" { lt::CompletionItemKind::CONSTANT } else { lt::CompletionItemKind::ENUM_MEMBER }, format!("{key}: {what}"));
                }
                for p in defines(Some(&key)) {
                    add(p.name.clone(), lt::CompletionItemKind::VARIABLE, format!("define ({}) = {}", p.ty, define_value(&text, p)));
                }
                for op in ["AND", "MINUS", "NOT"] {
                    add(op.to_string(), lt::CompletionItemKind::OPERATOR, "operator".into());
                }
            }
            LineContext::Animation => {
                // The leaves of the tree, as written; after `legs` or
                // `torso` those that play on that part: under the tree's
                // block of that name, or named for it (`pl_`, `pt_`: the
                // stock tree's convention); all of them when none does.
                let part = line[..word_start - ls].split_ascii_whitespace().last().unwrap_or("").to_ascii_lowercase();
                let nodes = animations(self);
                let under = |i: usize, block: usize| {
                    let mut up = nodes[i].parent;
                    while let Some(p) = up {
                        if p == block {
                            return true;
                        }
                        up = nodes[p].parent;
                    }
                    false
                };
                let leaves: Vec<usize> = (0..nodes.len()).filter(|&i| !nodes[i].block).collect();
                let wanted = match part.as_str() {
                    "legs" => Some(crate::stock::Part::Legs),
                    "torso" => Some(crate::stock::Part::Torso),
                    _ => None,
                };
                let block = nodes.iter().position(|n| n.block && wanted.is_some() && n.name.eq_ignore_ascii_case(&part));
                let fits = |i: usize| block.is_some_and(|b| under(i, b)) || wanted.is_some_and(|w| crate::stock::part_by_name(&nodes[i].name) == w);
                let fitting: Vec<usize> = if leaves.iter().any(|&i| fits(i)) { leaves.into_iter().filter(|&i| fits(i)).collect() } else { leaves };
                for i in fitting {
                    let n = &nodes[i];
                    let detail = match n.parent {
                        Some(p) => format!("animation of tree multiplayer, under {}", nodes[p].name),
                        None => "animation of tree multiplayer".into(),
                    };
                    add(n.name.clone(), lt::CompletionItemKind::FIELD, detail);
                }
            }
            LineContext::Other => {
                let tables: [(Literal, lt::CompletionItemKind, &str); 6] = [
                    (Literal::Sections, lt::CompletionItemKind::MODULE, "section"),
                    (Literal::States, lt::CompletionItemKind::CLASS, "state"),
                    (Literal::MoveTypes, lt::CompletionItemKind::ENUM_MEMBER, "move type"),
                    (Literal::Events, lt::CompletionItemKind::EVENT, "event"),
                    (Literal::BodyParts, lt::CompletionItemKind::KEYWORD, "command"),
                    (Literal::WeaponClasses, lt::CompletionItemKind::VALUE, "weapon class"),
                ];
                for (table, kind, what) in tables {
                    for n in table_names(table).iter().filter(|n| !n.starts_with(b"*")) {
                        add(lower(n), kind, what.into());
                    }
                }
                for n in condition_names() {
                    add(lower(&n), lt::CompletionItemKind::KEYWORD, "condition".into());
                }
                add("default".into(), lt::CompletionItemKind::KEYWORD, "block with no condition".into());
                for w in &weapons {
                    add(w.clone(), lt::CompletionItemKind::CONSTANT, "weapon".into());
                }
                for p in defines(None) {
                    add(p.name.clone(), lt::CompletionItemKind::VARIABLE, format!("define ({}) = {}", p.ty, define_value(&text, p)));
                }
                for n in animations(self).into_iter().filter(|n| !n.block) {
                    add(n.name, lt::CompletionItemKind::FIELD, "animation of tree multiplayer".into());
                }
            }
        }
        // Each replaces the word being typed.
        let end = word_at(&text, at).map_or(at, |(s, w)| (s + w.len()).max(at));
        let range = range_of(&text, word_start, end);
        for i in &mut items {
            i.text_edit = Some(lt::CompletionTextEdit::Edit(lt::TextEdit { range, new_text: i.label.clone() }));
        }
        items
    }

    /// Semantic tokens of a whole document (a script's or a tree's), in
    /// LSP's relative encoding.
    pub fn semantic_tokens(&self, uri: &lt::Uri) -> Vec<lt::SemanticToken> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let tokens = if is_tree(&doc.path) { semantic::tree_tokens(&doc.text) } else { semantic::script_tokens(&doc.text) };
        semantic::encode(&doc.text, &tokens)
    }

    /// The files workspace symbols are read from: every open document,
    /// then the script and the multiplayer tree of the mod (of each open
    /// document's mod; the workspace's when none is open) that are not
    /// open. Each: its URI, text and path.
    fn workspace_files(&mut self) -> Vec<(String, String, PathBuf)> {
        let mut keys: Vec<String> = self.docs.keys().cloned().collect();
        keys.sort();
        let mut out: Vec<(String, String, PathBuf)> = keys.iter().map(|k| (k.clone(), self.docs[k].text.clone(), self.docs[k].path.clone())).collect();
        let mut seen: HashSet<String> = out.iter().map(|(_, _, p)| file_key(p)).collect();
        let mut dirs: Vec<PathBuf> = Vec::new();
        let paths: Vec<PathBuf> = out.iter().map(|(_, _, p)| p.clone()).collect();
        let candidates: Vec<Option<PathBuf>> = if paths.is_empty() { vec![self.root.clone()] } else { paths.iter().map(|p| self.mod_dir(p)).collect() };
        for d in candidates.into_iter().flatten() {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        for d in dirs {
            let base = self.base(Some(d));
            for f in base.script.iter().chain(base.multiplayer_tree()) {
                let p = PathBuf::from(&f.display);
                if seen.insert(file_key(&p)) {
                    out.push((uri::from_path(&p), String::from_utf8_lossy(&f.text).into_owned(), p));
                }
            }
        }
        out
    }

    /// Workspace symbols: the defines, states and events of the scripts and
    /// the names of the trees (see [`Server::workspace_files`]) whose name
    /// holds the query (any case; an empty query: all), in file and text
    /// order, each with its place and what holds it (a script's section, a
    /// tree's block, else the tree).
    #[allow(deprecated)]
    pub fn workspace_symbols(&mut self, query: &str) -> Vec<lt::SymbolInformation> {
        let query = query.to_ascii_lowercase();
        let mut out = Vec::new();
        for (file_uri, text, path) in self.workspace_files() {
            let Ok(file_uri) = file_uri.parse::<lt::Uri>() else { continue };
            let lines = Lines::new(&text);
            let mut add = |name: String, kind: lt::SymbolKind, start: usize, end: usize, container: Option<String>| {
                if name.to_ascii_lowercase().contains(&query) {
                    let location = lt::Location { uri: file_uri.clone(), range: lines.range(start, end) };
                    out.push(lt::SymbolInformation { name, kind, tags: None, deprecated: None, location, container_name: container });
                }
            };
            if is_tree(&path) {
                let nodes = tree_outline(text.as_bytes());
                for n in &nodes {
                    let kind = if n.block { lt::SymbolKind::NAMESPACE } else { lt::SymbolKind::FIELD };
                    let container = n.parent.map_or_else(|| tree_name(&path), |p| nodes[p].name.clone());
                    add(n.name.clone(), kind, n.start, n.end, Some(container));
                }
                continue;
            }
            let o = outline(text.as_bytes());
            for top in &o.items {
                let section = matches!(top.kind, Kind::Section(_)).then(|| span_text(&text, top.head).trim().to_string());
                index::walk(std::slice::from_ref(top), &mut |i| {
                    let kind = match i.kind {
                        Kind::Define => lt::SymbolKind::CONSTANT,
                        Kind::State => lt::SymbolKind::CLASS,
                        Kind::Event => lt::SymbolKind::EVENT,
                        _ => return,
                    };
                    if let Some(n) = i.name {
                        add(span_text(&text, n), kind, n.start, n.end, section.clone());
                    }
                });
            }
        }
        out
    }

    /// Inlay hints in a range of a script: after a define's use in a
    /// condition line its expansion (`: kar98k_mp | enfield_mp`, `AND` as
    /// `|`, shortened past 40 characters; the whole in the tooltip), after a
    /// state's name the number of its move types (`: 2 move types`).
    pub fn inlay_hints(&self, uri: &lt::Uri, range: lt::Range) -> Vec<lt::InlayHint> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        if is_tree(&doc.path) {
            return Vec::new();
        }
        let (text, t) = (&doc.text, doc.text.as_bytes());
        let lines = Lines::new(text);
        let o = outline(t);
        let mut out = Vec::new();
        let mut hint = |at: usize, label: String, tooltip: String| {
            let position = lines.position(at);
            if range.start <= position && position <= range.end {
                out.push(lt::InlayHint {
                    position,
                    label: lt::InlayHintLabel::String(label),
                    kind: None,
                    text_edits: None,
                    tooltip: Some(lt::InlayHintTooltip::String(tooltip)),
                    padding_left: None,
                    padding_right: None,
                    data: None,
                });
            }
        };
        // The defines (the first of a name, any case): type and expansion.
        let mut defines: HashMap<String, (String, Vec<String>)> = HashMap::new();
        let mut heads: Vec<Span> = Vec::new();
        let mut states: Vec<(Span, usize)> = Vec::new();
        index::walk(&o.items, &mut |i| match (i.kind, i.name) {
            (Kind::Define, Some(n)) => {
                let w = index::words(t, i.head.start, i.head.end);
                let ty = w.get(1).map(|&(s, e)| lower(&t[s..e])).unwrap_or_default();
                let value = w.iter().skip_while(|&&(s, e)| &t[s..e] != b"=").skip(1).map(|&(s, e)| span_text(text, Span { start: s, end: e })).collect();
                defines.entry(lower(&t[n.start..n.end])).or_insert((ty, value));
            }
            (Kind::State, Some(n)) => states.push((n, i.children.iter().filter(|c| c.kind == Kind::MoveType).count())),
            (Kind::Conditions, _) => heads.push(i.head),
            _ => {}
        });
        let mut hints: Vec<(usize, String, String)> = Vec::new();
        for occ in index::script_occurrences(t, &o, &Vocabulary::new()) {
            if occ.what != What::Define || occ.decl || !heads.iter().any(|h| h.start <= occ.start && occ.end <= h.end) {
                continue;
            }
            let name = span_text(text, Span { start: occ.start, end: occ.end });
            let Some((ty, value)) = defines.get(&name.to_ascii_lowercase()).filter(|(_, v)| !v.is_empty()) else { continue };
            hints.push((occ.end, format!(": {}", shortened(value, 40)), format!("define `{name}` (`{ty}`) = `{}`", value.join(" "))));
        }
        for (n, count) in states {
            let name = span_text(text, n);
            let s = if count == 1 { "" } else { "s" };
            hints.push((n.end, format!(": {count} move type{s}"), format!("state `{name}`: {count} move type block{s}")));
        }
        hints.sort_by_key(|h| h.0);
        for (at, label, tooltip) in hints {
            hint(at, label, tooltip);
        }
        out
    }

    // ---- the handlers of the requests and notifications ----

    fn on_inlay_hint(&mut self, p: lt::InlayHintParams) -> Option<Vec<lt::InlayHint>> {
        Some(self.inlay_hints(&p.text_document.uri, p.range))
    }

    fn on_workspace_symbol(&mut self, p: lt::WorkspaceSymbolParams) -> Option<lt::WorkspaceSymbolResponse> {
        Some(lt::WorkspaceSymbolResponse::Flat(self.workspace_symbols(&p.query)))
    }

    fn on_semantic_tokens(&mut self, p: lt::SemanticTokensParams) -> Option<lt::SemanticTokensResult> {
        Some(lt::SemanticTokensResult::Tokens(lt::SemanticTokens { result_id: None, data: self.semantic_tokens(&p.text_document.uri) }))
    }

    fn on_hover(&mut self, p: lt::HoverParams) -> Option<lt::Hover> {
        let at = p.text_document_position_params;
        let value = self.hover(&at.text_document.uri, at.position)?;
        Some(lt::Hover { contents: lt::HoverContents::Markup(lt::MarkupContent { kind: lt::MarkupKind::Markdown, value }), range: None })
    }

    fn on_definition(&mut self, p: lt::GotoDefinitionParams) -> Option<lt::GotoDefinitionResponse> {
        let at = p.text_document_position_params;
        self.definition(&at.text_document.uri, at.position).map(lt::GotoDefinitionResponse::Scalar)
    }

    fn on_symbols(&mut self, p: lt::DocumentSymbolParams) -> Option<lt::DocumentSymbolResponse> {
        Some(lt::DocumentSymbolResponse::Nested(self.symbols(&p.text_document.uri)))
    }

    fn on_references(&mut self, p: lt::ReferenceParams) -> Option<Vec<lt::Location>> {
        let at = p.text_document_position;
        Some(self.references(&at.text_document.uri, at.position, p.context.include_declaration))
    }

    fn on_highlight(&mut self, p: lt::DocumentHighlightParams) -> Option<Vec<lt::DocumentHighlight>> {
        let at = p.text_document_position_params;
        Some(self.highlights(&at.text_document.uri, at.position))
    }

    fn on_prepare_rename(&mut self, p: lt::TextDocumentPositionParams) -> Result<Option<lt::PrepareRenameResponse>, String> {
        let found = self.prepare_rename(&p.text_document.uri, p.position)?;
        Ok(found.map(|(range, placeholder)| lt::PrepareRenameResponse::RangeWithPlaceholder { range, placeholder }))
    }

    fn on_rename(&mut self, p: lt::RenameParams) -> Result<Option<lt::WorkspaceEdit>, String> {
        let at = p.text_document_position;
        self.rename(&at.text_document.uri, at.position, &p.new_name)
    }

    fn on_code_action(&mut self, p: lt::CodeActionParams) -> Option<lt::CodeActionResponse> {
        Some(self.code_actions(&p.text_document.uri, p.range))
    }

    fn on_folding(&mut self, p: lt::FoldingRangeParams) -> Option<Vec<lt::FoldingRange>> {
        Some(self.folding(&p.text_document.uri))
    }

    fn on_completion(&mut self, p: lt::CompletionParams) -> Option<lt::CompletionResponse> {
        let at = p.text_document_position;
        Some(lt::CompletionResponse::Array(self.completion(&at.text_document.uri, at.position)))
    }

    fn did_open(&mut self, p: lt::DidOpenTextDocumentParams) {
        let uri = p.text_document.uri;
        // A document not on disk (`untitled:`): checked under its last name
        // (a script unless it ends in `.atr`), in the workspace's mod.
        let path = uri::to_path(uri.as_str()).unwrap_or_else(|| PathBuf::from(uri.as_str().rsplit([':', '/']).next().unwrap_or("")));
        let doc = Doc { path, text: p.text_document.text, diags: Vec::new(), weapons: Vec::new(), reads: Vec::new() };
        self.docs.insert(uri.as_str().to_string(), doc);
        self.changed(uri.as_str());
    }

    fn did_change(&mut self, p: lt::DidChangeTextDocumentParams) {
        // Full synchronisation: the last change is the whole text.
        let Some(change) = p.content_changes.into_iter().last() else { return };
        let key = p.text_document.uri.as_str();
        if let Some(doc) = self.docs.get_mut(key) {
            doc.text = change.text;
            self.changed(key);
        }
    }

    /// A save or a change on disk: the mod's files are read again, every
    /// open document checked again.
    fn files_changed(&mut self) {
        self.forget_files();
        let mut keys: Vec<String> = self.docs.keys().cloned().collect();
        keys.sort();
        for k in &keys {
            self.refresh(k);
            self.publish.push(k.clone());
        }
    }

    fn did_close(&mut self, p: lt::DidCloseTextDocumentParams) {
        let Some(doc) = self.docs.remove(p.text_document.uri.as_str()) else { return };
        // The documents that read its text read its file again.
        for k in self.dependents(&doc.path) {
            self.refresh(&k);
            self.publish.push(k);
        }
    }

    /// Handles a request of the running server (not `initialize` nor
    /// `shutdown`): its response, Invalid params (-32602) when its params
    /// are not its method's, Method not found (-32601) for another method.
    pub fn handle_request(&mut self, req: Request) -> Response {
        use lt::request as r;
        OnRequest { server: self, req: Ok(req) }
            .on::<r::HoverRequest>(Server::on_hover)
            .on::<r::GotoDefinition>(Server::on_definition)
            .on::<r::DocumentSymbolRequest>(Server::on_symbols)
            .on::<r::FoldingRangeRequest>(Server::on_folding)
            .on::<r::References>(Server::on_references)
            .on::<r::CodeActionRequest>(Server::on_code_action)
            .on::<r::DocumentHighlightRequest>(Server::on_highlight)
            .or_fail::<r::PrepareRenameRequest>(Server::on_prepare_rename)
            .or_fail::<r::Rename>(Server::on_rename)
            .on::<r::Completion>(Server::on_completion)
            .on::<r::SemanticTokensFullRequest>(Server::on_semantic_tokens)
            .on::<r::WorkspaceSymbolRequest>(Server::on_workspace_symbol)
            .on::<r::InlayHintRequest>(Server::on_inlay_hint)
            .finish()
    }

    /// Handles a notification of the running server (not `exit`); an
    /// unknown one is ignored. Err: its params are not its method's.
    pub fn handle_notification(&mut self, n: Notification) -> Result<(), String> {
        use lt::notification as n;
        OnNotification { server: self, n: Some(n), result: Ok(()) }
            .on::<n::DidOpenTextDocument>(Server::did_open)
            .on::<n::DidChangeTextDocument>(Server::did_change)
            .on::<n::DidSaveTextDocument>(|s, _| s.files_changed())
            .on::<n::DidChangeWatchedFiles>(|s, _| s.files_changed())
            .on::<n::DidCloseTextDocument>(Server::did_close)
            .on::<n::DidChangeConfiguration>(|s, p| s.configure(Settings::read(&p.settings)))
            .result
    }

    /// The diagnostics to publish after the last notification, each
    /// document once, in the order they were checked.
    pub fn publications(&mut self) -> Vec<Notification> {
        let mut seen = HashSet::new();
        let keys: Vec<String> = self.publish.drain(..).filter(|k| seen.insert(k.clone())).collect();
        keys.iter()
            .filter_map(|k| k.parse::<lt::Uri>().ok())
            .map(|uri| {
                let params = lt::PublishDiagnosticsParams { diagnostics: self.diagnostics(&uri), uri, version: None };
                Notification::new(<lt::notification::PublishDiagnostics as lt::notification::Notification>::METHOD.into(), params)
            })
            .collect()
    }
}

/// A request on its way past the handlers: the one of its method takes it
/// and answers it.
struct OnRequest<'s> {
    server: &'s mut Server,
    /// Ok: not taken yet; Err: the answer.
    req: Result<Request, Response>,
}

impl OnRequest<'_> {
    fn on<R: lt::request::Request>(self, handler: fn(&mut Server, R::Params) -> R::Result) -> Self {
        let OnRequest { server, req } = self;
        let req = req.and_then(|req| {
            if req.method != R::METHOD {
                return Ok(req);
            }
            Err(match serde_json::from_value::<R::Params>(req.params) {
                Ok(params) => Response::new_ok(req.id, handler(server, params)),
                Err(e) => Response::new_err(req.id, ErrorCode::InvalidParams as i32, format!("invalid params of {}: {e}", R::METHOD)),
            })
        });
        OnRequest { server, req }
    }

    /// As [`OnRequest::on`], for a handler that can refuse: its error is
    /// answered Request failed (-32803) with its message.
    fn or_fail<R: lt::request::Request>(self, handler: fn(&mut Server, R::Params) -> Result<R::Result, String>) -> Self {
        let OnRequest { server, req } = self;
        let req = req.and_then(|req| {
            if req.method != R::METHOD {
                return Ok(req);
            }
            Err(match serde_json::from_value::<R::Params>(req.params) {
                Ok(params) => match handler(server, params) {
                    Ok(result) => Response::new_ok(req.id, result),
                    Err(message) => Response::new_err(req.id, ErrorCode::RequestFailed as i32, message),
                },
                Err(e) => Response::new_err(req.id, ErrorCode::InvalidParams as i32, format!("invalid params of {}: {e}", R::METHOD)),
            })
        });
        OnRequest { server, req }
    }

    /// The answer; Method not found when no handler took the request.
    fn finish(self) -> Response {
        match self.req {
            Err(answer) => answer,
            Ok(req) => Response::new_err(req.id, ErrorCode::MethodNotFound as i32, format!("unknown method {}", req.method)),
        }
    }
}

/// A notification on its way past the handlers.
struct OnNotification<'s> {
    server: &'s mut Server,
    n: Option<Notification>,
    result: Result<(), String>,
}

impl OnNotification<'_> {
    fn on<N: lt::notification::Notification>(mut self, handler: fn(&mut Server, N::Params)) -> Self {
        if let Some(n) = self.n.take_if(|n| n.method == N::METHOD) {
            match serde_json::from_value::<N::Params>(n.params) {
                Ok(params) => handler(self.server, params),
                Err(e) => self.result = Err(format!("invalid params of {}: {e}", N::METHOD)),
            }
        }
        self
    }
}

/// A diagnostic of the document `uri` (its text `text`) as LSP's, with its
/// related places.
fn to_lsp(d: &Diagnostic, text: &str, uri: &lt::Uri) -> lt::Diagnostic {
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
    if let Some(h) = &d.help {
        message = format!("{message}\nhelp: {h}");
    }
    lt::Diagnostic {
        range: lt::Range { start, end },
        severity: Some(severity),
        code: Some(lt::NumberOrString::String(d.code.into())),
        source: Some("uoanim".into()),
        message,
        data: Some(serde_json::json!({ "engineFirst": d.engine_first })),
        related_information: (!d.related.is_empty()).then(|| {
            d.related
                .iter()
                .filter_map(|r| {
                    let (uri, start) = if r.file == d.file {
                        (uri.clone(), position(text, r.line, r.col))
                    } else {
                        (uri::from_path(Path::new(&r.file)).parse().ok()?, lt::Position { line: r.line.saturating_sub(1), character: r.col.saturating_sub(1) })
                    };
                    Some(lt::DiagnosticRelatedInformation { location: lt::Location { uri, range: lt::Range { start, end: start } }, message: r.message.clone() })
                })
                .collect()
        }),
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
        completion_provider: Some(lt::CompletionOptions { trigger_characters: Some(vec![",".into(), ":".into()]), ..Default::default() }),
        definition_provider: Some(lt::OneOf::Left(true)),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        folding_range_provider: Some(lt::FoldingRangeProviderCapability::Simple(true)),
        references_provider: Some(lt::OneOf::Left(true)),
        code_action_provider: Some(lt::CodeActionProviderCapability::Options(lt::CodeActionOptions {
            code_action_kinds: Some(vec![lt::CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        document_highlight_provider: Some(lt::OneOf::Left(true)),
        rename_provider: Some(lt::OneOf::Right(lt::RenameOptions { prepare_provider: Some(true), work_done_progress_options: Default::default() })),
        workspace_symbol_provider: Some(lt::OneOf::Left(true)),
        inlay_hint_provider: Some(lt::OneOf::Left(true)),
        semantic_tokens_provider: Some(lt::SemanticTokensServerCapabilities::SemanticTokensOptions(lt::SemanticTokensOptions {
            legend: semantic::legend(),
            full: Some(lt::SemanticTokensFullOptions::Bool(true)),
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// How the server ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `exit` after `shutdown`.
    Exit,
    /// `exit` without `shutdown`.
    ExitWithoutShutdown,
    /// The input ended without `exit`.
    EndOfInput,
}

impl Ending {
    /// The process's exit code, as LSP asks: 0 after `shutdown`, else 1.
    pub fn code(self) -> u8 {
        match self {
            Ending::Exit => 0,
            Ending::ExitWithoutShutdown | Ending::EndOfInput => 1,
        }
    }
}

/// The server's life cycle.
enum State {
    /// Before `initialize`.
    Waiting,
    Running(Box<Server>),
    /// After `shutdown`.
    ShutDown,
}

/// The server of the initialize params: the mod directory is the setting
/// `modDirectory` of the initialization options, else the first workspace
/// folder, else the root URI.
fn server_of(params: &lt::InitializeParams) -> Server {
    let from_options = params.initialization_options.as_ref().and_then(|o| o.get("modDirectory")).and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from);
    #[allow(deprecated)]
    let root = from_options
        .or_else(|| params.workspace_folders.as_ref().and_then(|f| f.first()).and_then(|f| uri::to_path(f.uri.as_str())))
        .or_else(|| params.root_uri.as_ref().and_then(|u| uri::to_path(u.as_str())));
    let mut server = Server::new(root);
    let game = params.initialization_options.as_ref().and_then(|o| o.get("gameDirectory")).and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from);
    server.set_game_directory(game);
    if let Some(o) = &params.initialization_options {
        server.settings = Settings::read(o);
    }
    server
}

fn error(id: lsp_server::RequestId, code: ErrorCode, message: &str) -> Message {
    Message::Response(Response::new_err(id, code as i32, message.into()))
}

/// Runs the server on an in-memory connection until `exit` or the end of
/// its messages.
pub fn serve(mut conn: Connection) -> Ending {
    serve_on(&mut conn)
}

/// Runs the server on a transport until `exit` or the end of the input,
/// by LSP 3.17's life cycle: before `initialize` every request is answered
/// ServerNotInitialized (-32002) and every notification but `exit` dropped;
/// a second `initialize` is an Invalid Request (-32600); after `shutdown`
/// every request is an Invalid Request and every notification but `exit`
/// dropped.
pub fn serve_on(transport: &mut impl Transport) -> Ending {
    use lt::notification::Notification as _;
    use lt::request::Request as _;
    let mut state = State::Waiting;
    while let Some(incoming) = transport.receive() {
        let msg = match incoming {
            Incoming::Message(m) => m,
            Incoming::Invalid { id, code, message } => {
                transport.send_error(id, code, message);
                continue;
            }
        };
        match msg {
            Message::Request(req) => {
                let initialize = req.method == lt::request::Initialize::METHOD;
                let reply = match &mut state {
                    State::Waiting if initialize => match serde_json::from_value::<lt::InitializeParams>(req.params) {
                        Ok(params) => {
                            state = State::Running(Box::new(server_of(&params)));
                            let result = lt::InitializeResult {
                                capabilities: capabilities(),
                                server_info: Some(lt::ServerInfo { name: "uoanim".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
                            };
                            Message::Response(Response::new_ok(req.id, result))
                        }
                        Err(e) => error(req.id, ErrorCode::InvalidParams, &format!("invalid params of initialize: {e}")),
                    },
                    State::Waiting => error(req.id, ErrorCode::ServerNotInitialized, "the server is not initialized: initialize comes first"),
                    State::Running(_) if initialize => error(req.id, ErrorCode::InvalidRequest, "the server is already initialized"),
                    State::Running(_) if req.method == lt::request::Shutdown::METHOD => {
                        state = State::ShutDown;
                        Message::Response(Response::new_ok(req.id, ()))
                    }
                    State::Running(server) => Message::Response(server.handle_request(req)),
                    State::ShutDown => error(req.id, ErrorCode::InvalidRequest, "the server is shut down: only exit is taken"),
                };
                transport.send(reply);
            }
            Message::Notification(n) if n.method == lt::notification::Exit::METHOD => {
                return if matches!(state, State::ShutDown) { Ending::Exit } else { Ending::ExitWithoutShutdown };
            }
            Message::Notification(n) => {
                let State::Running(server) = &mut state else { continue };
                if let Err(e) = server.handle_notification(n) {
                    let params = lt::LogMessageParams { typ: lt::MessageType::ERROR, message: e };
                    transport.send(Message::Notification(Notification::new(lt::notification::LogMessage::METHOD.into(), params)));
                }
                for p in server.publications() {
                    transport.send(Message::Notification(p));
                }
            }
            Message::Response(_) => {}
        }
    }
    Ending::EndOfInput
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_explanation_built_in() {
        for (code, _) in crate::CODES {
            let e = explanation(code).unwrap_or_else(|| panic!("no explanation of {code} in docs/CHECK.md"));
            assert!(e.len() > 40 && !e.contains("\n#"), "{code}: {e:?}");
        }
        assert!(explanation("minus").unwrap().contains("scratch"));
        assert_eq!(explanation("no-such-code"), None);
    }

    #[test]
    fn the_context_of_a_word_in_a_script_line() {
        let ctx = |line: &str, word: &str| line_context(line, line.rfind(word).unwrap());
        assert_eq!(ctx("\t\tweapons kar98k_mp", "kar98k_mp"), LineContext::Value("weapons".into()));
        assert_eq!(ctx("\t\tweapons kar98k_mp", "weapons"), LineContext::Other);
        assert_eq!(ctx("\t\tmovetype walk AND run, strafing left", "left"), LineContext::Value("strafing".into()));
        assert_eq!(ctx("\t\tmovetype walk AND run, strafing left", "run"), LineContext::Value("movetype".into()));
        assert_eq!(ctx("\t\tmovetype walk, x", "x"), LineContext::Key);
        assert_eq!(ctx("set movetype moving = walk", "walk"), LineContext::Value("movetype".into()));
        assert_eq!(ctx("set movetype moving = walk", "movetype"), LineContext::Key);
        assert_eq!(ctx("\t\t\tboth pb_idle", "pb_idle"), LineContext::Animation);
    }

    #[test]
    fn a_defines_expansion_shortened() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(shortened(&words("kar98k_mp AND enfield_mp"), 40), "kar98k_mp | enfield_mp");
        assert_eq!(shortened(&words("walk AND run MINUS walkbk"), 40), "walk | run MINUS walkbk");
        assert_eq!(shortened(&words("kar98k_mp AND enfield_mp AND colt_mp AND mp40_mp AND thompson_mp"), 40), "kar98k_mp | enfield_mp | colt_mp …");
        assert_eq!(shortened(&words("a_very_long_name_of_fifty_characters_for_the_test_x"), 40), "a_very_long_name_of_fifty_characters_for …");
    }

    #[test]
    fn a_trees_outline_has_parents_leaves_and_flags() {
        // A Latin-1 byte (U+FFFD in the editor's text) is white space, as
        // to the engine.
        let t = String::from_utf8_lossy(b"// c\nmain\n{\n\ttorso : loopsync complete\n\t{\n\t\tpt_a /* x */\n\t}\n\t\xe9pb_b\n}\n").into_owned();
        let n = tree_outline(t.as_bytes());
        let names: Vec<&str> = n.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["main", "torso", "pt_a", "pb_b"]);
        assert!(n[0].block && n[1].block && !n[2].block);
        assert_eq!((n[1].parent, n[2].parent, n[3].parent), (Some(0), Some(1), Some(0)));
        assert_eq!(n[1].flags, ["loopsync", "complete"]);
        let h = tree_hover("multiplayer", "m.atr", &t, &n, 2);
        assert!(h.contains("`pt_a` of tree `multiplayer`: a leaf") && h.contains("under `torso`") && h.contains("`loopsync` (of `torso`)") && h.contains("m.atr:6"), "{h}");
    }
}
