//! The animation-tree registry of the library run over files: the engine
//! services it needs ([`TreeEngine`]) served from the files found, and the
//! `.atr` check with recovery.

use crate::diag::{Diagnostic, Severity};
use crate::input::SourceFile;
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use uoanim_core::atr::{self as parse, Class};
use uoanim_core::names::{CName, Names};
use uoanim_core::registry::{AnimTrees, Globals, MissingAsset, TreeEngine, TreeFailure, TREE_SLOTS};
use uoanim_core::text::Report;

/// A tree the tool's engine built: its index in [`ToolTrees::built`], from
/// 1 (0: none). The tool's engine never dereferences an address.
pub type TreeNumber = usize;
/// A reference cell of the tool's engine: the key of its value in
/// [`ToolTrees::cells`].
pub type CellNumber = usize;

/// A failure of the engine's code as the engine gets it: the error
/// function it is raised through (with its first argument) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub report: Report,
    pub text: Vec<u8>,
}

impl EngineError {
    /// A failure of the registry, with its text (its names resolved in
    /// `names`).
    pub fn of_tree(failure: &TreeFailure, names: Option<&Names>) -> Self {
        EngineError { report: failure.report(), text: failure.text(names).as_bytes().to_vec() }
    }
}

/// A node of a built tree, as the registry laid it out.
#[derive(Clone, Debug, Default)]
pub struct BuiltNode {
    pub name: Vec<u8>,
    pub leaf: bool,
}

/// A built tree (what `XAnimAllocTree` and the node setters produced).
#[derive(Clone, Debug, Default)]
pub struct BuiltTree {
    pub nodes: Vec<BuiltNode>,
}

/// The engine side of the registry, over in-memory files.
#[derive(Default)]
pub struct ToolTrees {
    /// `animtrees/<name>.atr` (lower case) → text.
    pub files: HashMap<Vec<u8>, Vec<u8>>,
    pub built: Vec<BuiltTree>,
    /// Reference cells and the values the registry stored.
    pub cells: HashMap<usize, u32>,
}

impl ToolTrees {
    pub fn add_file(&mut self, tree: &str, text: &[u8]) {
        self.files.insert(format!("animtrees/{tree}.atr").to_ascii_lowercase().into_bytes(), text.to_vec());
    }

    fn node(&mut self, tree: TreeNumber, index: u16) -> Option<&mut BuiltNode> {
        self.built.get_mut(tree.checked_sub(1)?)?.nodes.get_mut(usize::from(index))
    }
}

impl TreeEngine for ToolTrees {
    type Tree = TreeNumber;
    type Cell = CellNumber;
    type Failure = TreeFailure;

    fn is_identifier(&mut self, text: &CStr) -> bool {
        parse::is_identifier(text.to_bytes())
    }
    fn canonical_filename(&mut self, filename: &CStr, out: &mut Vec<u8>) {
        out.extend(filename.to_bytes().iter().map(|&b| if b == b'\\' { b'/' } else { b.to_ascii_lowercase() }));
    }
    fn string_of(&mut self, _handle: u16) -> &[u8] {
        b""
    }
    fn add_source_buffer(&mut self, path: &CStr) -> Option<&[u8]> {
        let key = path.to_bytes().to_ascii_lowercase();
        self.files.get(&key).map(|t| {
            let end = t.iter().position(|&b| b == 0).unwrap_or(t.len());
            &t[..end]
        })
    }
    fn clear_temp_memory_high(&mut self) {}
    fn alloc_tree(&mut self, _tree_name: CName<'_>, node_count: u32) -> Result<TreeNumber, TreeFailure> {
        self.built.push(BuiltTree { nodes: vec![BuiltNode::default(); node_count as usize] });
        Ok(self.built.len())
    }
    fn set_parent_node(&mut self, tree: TreeNumber, index: u16, name: CName<'_>, _first: u16, _count: u16, _flags: u16) {
        if let Some(n) = self.node(tree, index) {
            *n = BuiltNode { name: name.bytes().to_vec(), leaf: false };
        }
    }
    fn set_leaf_node(&mut self, tree: TreeNumber, index: u16, name: CName<'_>) -> Result<(), MissingAsset> {
        if let Some(n) = self.node(tree, index) {
            *n = BuiltNode { name: name.bytes().to_vec(), leaf: true };
        }
        Ok(())
    }
    fn load_xanim(&mut self, _name: CName<'_>) -> Result<(), TreeFailure> {
        // Assets are checked by name against the xanim/ directory instead
        // (they may live in archives the tool does not see).
        Ok(())
    }
    fn setup_sync_nodes(&mut self, _tree: TreeNumber) -> Result<(), TreeFailure> {
        // Sync checks need the assets' looped flags: not checked.
        Ok(())
    }
    fn write_cell(&mut self, cell: CellNumber, value: u32) {
        self.cells.insert(cell, value);
    }
    fn is_loaded_code_pos(&mut self, _cell: CellNumber) -> bool {
        false
    }
    fn is_developer_code_pos(&mut self, _cell: CellNumber) -> bool {
        false
    }
}

/// A step of a tree load, in the engine's order.
#[derive(Clone, Copy, Debug)]
pub enum TreeOp<'a> {
    /// `Scr_UsingTreeInternal(tree)` (`#using_animtree`, registration).
    Using(&'a str),
    /// A reference to `name` in `tree` (`Scr_FindAnim`, a C-side cell).
    Ref(&'a str, &'a [u8]),
}

/// One load (`Scr_BeginLoadAnimTrees` .. `Scr_PrecacheAnimTrees`) over the
/// files `animtrees/<name>.atr`: the steps, then the precache. Returns the
/// outcome and the engine side (built trees, cells); `find` names a tree
/// whose built address is returned too.
pub fn load_trees(files: &[(&str, &[u8])], ops: &[TreeOp<'_>], anim_check: i32, find: &str) -> (Result<(), EngineError>, ToolTrees, TreeNumber) {
    let mut trees = AnimTrees::new();
    trees.set_anim_check(anim_check);
    let mut tool = ToolTrees::default();
    for (name, text) in files {
        tool.add_file(name, text);
    }
    let mut checksum = 0u32;
    let mut counts = [0i32; 2];
    let mut row = Box::new([[0; TREE_SLOTS]; 2]);
    let mut g = Globals { slot: 0, checksum: &mut checksum, counts: &mut counts, trees: &mut row };
    trees.begin_load(&mut g);
    let mut outcome: Result<(), TreeFailure> = Ok(());
    for (i, op) in ops.iter().enumerate() {
        let step = match *op {
            TreeOp::Using(tree) => {
                let tree_c = CString::new(tree).unwrap_or_default();
                trees.using_tree_internal(&mut tool, &mut g, &tree_c).map(|_| ())
            }
            TreeOp::Ref(tree, name) => {
                let tree_c = CString::new(tree).unwrap_or_default();
                let anim = CString::new(name.to_vec()).unwrap_or_default();
                let cell: CellNumber = i + 1;
                trees.find_anim(&mut tool, &mut g, &tree_c, &anim, cell, 0)
            }
        };
        if step.is_err() {
            outcome = step;
            break;
        }
    }
    if outcome.is_ok() {
        outcome = trees.precache(&mut tool, &mut g);
    }
    // The failure names the registry's names: its text is taken before the
    // load ends.
    let outcome = outcome.map_err(|f| EngineError::of_tree(&f, Some(trees.names())));
    let addr = trees.find_anim_tree(&mut tool, &CString::new(find).unwrap_or_default());
    trees.end_load();
    (outcome, tool, addr)
}

/// One load of one tree with references `refs` (cells 1, 2, … in order, as
/// the player-animation module makes them); see [`load_trees`].
pub fn load_tree(name: &str, text: &[u8], refs: &[&[u8]], anim_check: bool) -> (Result<(), EngineError>, ToolTrees, TreeNumber) {
    let mut ops = vec![TreeOp::Using(name)];
    ops.extend(refs.iter().map(|r| TreeOp::Ref(name, r)));
    // Cell numbers: the using step takes number 1, so references are 2.. .
    load_trees(&[(name, text)], &ops, i32::from(anim_check), name)
}

/// The lower-cased names of a `.atr` text (its name tokens).
pub fn tree_names(text: &[u8]) -> Vec<Vec<u8>> {
    let mut names = Names::new();
    let mut tokens = Vec::new();
    parse::tokenize(text, &mut names, &mut tokens);
    tokens.iter().filter(|t| t.class == Class::Name && !t.empty).map(|t| names.get(t.name).to_vec()).collect()
}

/// Offset and length of the `nth` (0-based) name token equal to `name`
/// (ASCII case ignored).
pub fn find_name(text: &[u8], name: &[u8], nth: usize) -> Option<(usize, usize)> {
    let mut names = Names::new();
    let mut tokens = Vec::new();
    parse::tokenize(text, &mut names, &mut tokens);
    tokens
        .iter()
        .filter(|t| t.class == Class::Name && names.get(t.name).eq_ignore_ascii_case(name))
        .nth(nth)
        .map(|t| (t.start as usize, name.len()))
}

/// Length of the token at `pos` (up to white space).
pub fn token_len_at(text: &[u8], pos: usize) -> usize {
    text.get(pos..).map_or(0, |rest| rest.iter().take_while(|&&b| (b as i8) > b' ' as i8).count())
}

/// Whether `text[i]` is a brace standing alone as a token.
fn lone_brace(text: &[u8], i: usize) -> bool {
    let ws = |j: Option<usize>| j.and_then(|j| text.get(j)).is_none_or(|&b| (b as i8) <= b' ' as i8);
    matches!(text.get(i), Some(b'{') | Some(b'}')) && ws(i.checked_sub(1)) && ws(Some(i + 1))
}

/// The depth of the lone braces of `text[..end]`, and whether a `}` there
/// closed no `{`.
fn brace_depth(text: &[u8], end: usize) -> (usize, bool) {
    let (mut depth, mut stray) = (0usize, false);
    for i in (0..end.min(text.len())).filter(|&i| lone_brace(text, i)) {
        if text[i] == b'{' {
            depth += 1;
        } else if depth == 0 {
            stray = true;
        } else {
            depth -= 1;
        }
    }
    (depth, stray)
}

/// Whether the lone `}` at `pos` closes no `{` before it.
fn closes_nothing(text: &[u8], pos: usize) -> bool {
    brace_depth(text, pos).0 == 0
}

/// Where a `{` seems missing before `pos`: the first line holding one name
/// alone whose next line with a token is indented deeper and is no `{`;
/// the name's offset and the start of that next line.
fn missing_open(text: &[u8], pos: usize) -> Option<(usize, usize)> {
    let space = |b: u8| (b as i8) <= b' ' as i8;
    let indent = |line: &[u8]| line.iter().take_while(|&&b| b == b' ' || b == b'\t').map(|&b| if b == b'\t' { 4 } else { 1 }).sum::<usize>();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < pos.min(text.len()) {
        let end = text[start..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| start + i);
        if text[start..end].iter().any(|&b| !space(b)) {
            lines.push((start, end));
        }
        start = end + 1;
    }
    lines.windows(2).find_map(|w| {
        let ((s, e), (ns, ne)) = (w[0], w[1]);
        let line = &text[s..e];
        let words: Vec<&[u8]> = line.split(|&b| space(b)).filter(|w| !w.is_empty()).collect();
        let next = &text[ns..ne];
        let next_first = next.iter().position(|&b| !space(b)).map(|i| next[i]);
        (words.len() == 1 && !matches!(words[0], b"{" | b"}") && !words[0].starts_with(b"//") && indent(next) > indent(line) && next_first != Some(b'{'))
            .then(|| (s + line.iter().position(|&b| !space(b)).unwrap_or(0), ns))
    })
}

/// Whether the lone braces of a tree's text pair (no `}` without its `{`,
/// none left open).
fn braces_pair(text: &[u8]) -> bool {
    brace_depth(text, text.len()) == (0, false)
}

/// Blanks `text[from..]` up to and including the brace that closes the
/// lone `{` at `from`; returns the end.
fn blank_block(text: &mut [u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut i = from;
    while i < text.len() {
        if lone_brace(text, i) {
            if text[i] == b'{' {
                depth += 1;
            } else {
                depth = depth.saturating_sub(1);
            }
        }
        let closing = depth == 0;
        if text[i] != b'\n' {
            text[i] = b' ';
        }
        i += 1;
        if closing {
            break;
        }
    }
    i
}

/// The recovery step after an error at `pos`: the line is blanked (line
/// breaks kept, so positions stay), lone braces on it kept; when the next
/// token is a `{`, the block it opens goes too (it belongs to the bad
/// line). An error on a `{` blanks that block. False when nothing changed.
pub fn blank_line_keeping_braces(text: &mut [u8], pos: usize) -> bool {
    let before = text.to_vec();
    let pos = pos.min(text.len());
    // a brace after a name on its line: the brace moved to a line of its
    // own (the white space before it becomes the line break)
    if let Some(gap) = brace_after_name(text, pos) {
        if matches!(text.get(gap), Some(b' ' | b'\t')) {
            text[gap] = b'\n';
            return true;
        }
    }
    if matches!(text.get(pos), Some(b'{')) && lone_brace(text, pos) {
        blank_block(text, pos);
        return text != before.as_slice();
    }
    let error_on_brace = lone_brace(text, pos);
    let start = crate::diag::line_start(text, pos);
    let end = text[pos..].iter().position(|&b| b == b'\n').map_or(text.len(), |i| pos + i);
    let mut kept_open = false;
    for i in start..end {
        let keep = lone_brace(text, i) && !error_on_brace;
        if keep {
            kept_open |= text[i] == b'{';
            continue;
        }
        if text[i] != b' ' && text[i] != b'\r' {
            text[i] = b' ';
        }
    }
    if !kept_open && !error_on_brace {
        let next = (end..text.len()).find(|&i| (text[i] as i8) > b' ' as i8);
        if let Some(i) = next.filter(|&i| text[i] == b'{' && lone_brace(text, i)) {
            blank_block(text, i);
        }
    }
    text != before.as_slice()
}

/// Where an error of a tree load points: its position in the text, if it
/// has one, and the length of the token there.
pub fn failure_position(text: &[u8], failure: &EngineError) -> Option<(usize, usize)> {
    match failure.report {
        Report::Compile { source_pos } => {
            let pos = source_pos as usize;
            // the engine names the token after a leaf's properties: the
            // mistake is the properties, on the line before
            if failure.text == LEAF_PROPERTIES {
                if let Some(span) = leaf_properties(text, pos) {
                    return Some(span);
                }
            }
            Some((pos, token_len_at(text, pos)))
        }
        Report::Error { .. } => {
            // "duplicate animation 'NAME' in 'animtrees/...'": the second node.
            let msg = &failure.text[..];
            let prefix = b"\x15duplicate animation '";
            let rest = msg.strip_prefix(&prefix[..])?;
            let end = rest.iter().position(|&b| b == b'\'')?;
            find_name(text, &rest[..end], 1)
        }
        Report::Compile2 { .. } => None,
    }
}

/// The engine's text when a name with properties opens no block.
const LEAF_PROPERTIES: &[u8] = b"properties cannot be applied to primitive animations";

/// The properties (from the lone `:` to the end of the line) of the last
/// line before `pos` that has a token, if it has some.
fn leaf_properties(text: &[u8], pos: usize) -> Option<(usize, usize)> {
    // the line of `pos` up to it first, then the lines before
    let (start, end) = crate::diag::last_line_with_token(text, pos)?;
    let line = &text[start..end];
    let space = |b: u8| (b as i8) <= b' ' as i8;
    let colon = (0..line.len()).find(|&i| line[i] == b':' && (i == 0 || space(line[i - 1])) && line.get(i + 1).is_none_or(|&b| space(b)))?;
    let last = line.iter().rposition(|&b| !space(b)).map_or(colon, |i| i + 1);
    // the engine names the token after them, not them
    (start + colon < pos).then_some((start + colon, last - colon))
}

/// A brace that is not alone on its line: the name before it, on the same
/// line (`legs {`), the offset of the white space before the brace.
fn brace_after_name(text: &[u8], pos: usize) -> Option<usize> {
    if !matches!(text.get(pos), Some(b'{') | Some(b'}')) || !lone_brace(text, pos) {
        return None;
    }
    let start = crate::diag::line_start(text, pos);
    let before = &text[start..pos];
    let word = before.iter().rposition(|&b| (b as i8) > b' ' as i8)?;
    Some(start + word + 1)
}

/// The message of a tree failure (the engine's text without the marker).
pub fn failure_message(failure: &EngineError) -> String {
    crate::diag::printable(failure.text.strip_prefix(b"\x15").unwrap_or(&failure.text))
}

/// Checks one `.atr` file as the engine loads it with references `refs`
/// (none for a tree only scripts use), then with `com_animCheck 1`: errors
/// of the first load are errors (the first one is the engine's); an error
/// only the second load meets is a warning (`atr-animcheck`).
pub fn check_tree(file: &SourceFile, refs: &[&[u8]]) -> Vec<Diagnostic> {
    let mut out = errors_with_recovery(file, refs, false, Severity::Error, "atr");
    let errors: Vec<(u32, u32)> = out.iter().map(|d| (d.line, d.col)).collect();
    if let Some(first) = out.first_mut() {
        first.engine_first = true;
    }
    for mut d in errors_with_recovery(file, refs, true, Severity::Warning, "atr-animcheck") {
        if !errors.contains(&(d.line, d.col)) {
            d.engine_text = None;
            let animcheck = "the engine raises this error when com_animCheck is 1, or when a script references these names";
            d.note = Some(match d.note.take() {
                Some(n) => format!("{n}; {animcheck}"),
                None => animcheck.into(),
            });
            out.push(d);
        }
    }
    out
}

fn errors_with_recovery(file: &SourceFile, refs: &[&[u8]], anim_check: bool, severity: Severity, code: &'static str) -> Vec<Diagnostic> {
    let mut work = file.text.clone();
    let mut out = Vec::new();
    for _ in 0..200 {
        let (outcome, _, _) = load_tree(&file.name, &work, refs, anim_check);
        let Err(failure) = outcome else { break };
        // A referenced name the tree lacks is the script's error, reported
        // at its use (and after a blanked line it may be the blanking's).
        if failure.text.starts_with(b"\x15animation '") {
            break;
        }
        // An end of the file inside a block, after the recovery changed the
        // text, where the file's own braces pair: the recovery's, not the
        // file's.
        if failure.text == b"unexpected end of file" && !out.is_empty() && braces_pair(&file.text) {
            break;
        }
        let Some((pos, len)) = failure_position(&work, &failure) else {
            let mut d = Diagnostic::at(&file.display, &file.text, 0, 1, severity, code, failure_message(&failure));
            d.engine_text = Some(failure.text.clone());
            out.push(d);
            break;
        };
        let mut d = Diagnostic::at(&file.display, &file.text, pos, len, severity, code, failure_message(&failure));
        explain_tree_error(&mut d, &file.text, &failure, pos, len);
        d.engine_text = Some(failure.text.clone());
        out.push(d);
        let at_end = failure.text == b"unexpected end of file";
        if failure.text == LEAF_PROPERTIES && work.get(pos) == Some(&b':') {
            // the leaf's properties blanked: the name stays a leaf
            work[pos..pos + len].iter_mut().for_each(|b| *b = b' ');
            continue;
        }
        if at_end || !blank_line_keeping_braces(&mut work, pos) {
            break;
        }
    }
    out
}

/// What the engine reads of a tree that its load does not say: an
/// encoding it cannot read, a tree of no names (none when `found` has an
/// error of the file already).
pub fn loads_nothing(file: &SourceFile, found: &[Diagnostic]) -> Vec<Diagnostic> {
    let text = &file.text;
    let at = |code: &'static str, message: &str| Diagnostic::at(&file.display, text, 0, 1, Severity::Warning, code, message.into());
    if let Some(d) = crate::diag::utf16_warning(&file.display, text, "loads no animation of it") {
        return vec![d];
    }
    let unclosed: Vec<Diagnostic> = crate::diag::unclosed_comment_warning(&file.display, text).into_iter().collect();
    if found.iter().any(|d| d.severity == Severity::Error) || !tree_names(text).is_empty() {
        return unclosed;
    }
    let mut out = vec![at("loads-nothing", "the tree names no animation: the game loads nothing from it")];
    out.extend(unclosed);
    out
}

/// The properties a tree's name can take after its `:`.
const PROPERTIES: [&[u8]; 3] = [b"loopsync", b"nonloopsync", b"complete"];

/// What the engine's text of a tree error leaves unsaid: where a
/// duplicate's first definition is, which properties there are.
pub fn explain_tree_error(d: &mut Diagnostic, text: &[u8], failure: &EngineError, pos: usize, len: usize) {
    let message = failure.text.strip_prefix(b"\x15").unwrap_or(&failure.text);
    if message.starts_with(b"duplicate animation") {
        let name = match message.strip_prefix(b"duplicate animation '") {
            Some(rest) => &rest[..rest.iter().position(|&b| b == b'\'').unwrap_or(rest.len())],
            None => &text[pos..(pos + len).min(text.len())],
        };
        if let Some((first, _)) = find_name(text, name, 0).filter(|&(p, _)| p != pos) {
            let name = crate::diag::printable(name);
            d.message = format!("duplicate animation '{name}': a name is defined once in its block");
            d.note = Some(format!("'{name}' is first defined at line {}; the engine says: {}", crate::diag::line_col(text, first).0, crate::diag::printable(message)));
            d.related.push(crate::diag::Related::at(&d.file, text, first, format!("'{name}' is first defined here")));
        }
    } else if message == b"bad token" && text.get(pos) == Some(&b'}') && lone_brace(text, pos) && closes_nothing(text, pos) {
        d.message = "this '}' closes no block".into();
        d.note = Some("the engine says: bad token".into());
        match missing_open(text, pos) {
            Some((name, body)) => {
                let (name_line, _) = crate::diag::line_col(text, name);
                let word = crate::diag::printable(&text[name..name + token_len_at(text, name)]);
                d.help = Some(format!("is the '{{' of '{word}' (line {name_line}) missing? the lines after it are indented deeper"));
                d.related.push(crate::diag::Related::at(&d.file, text, name, format!("'{word}' is followed by deeper lines, without a '{{'")));
                let start = crate::diag::line_start(text, name);
                let indent: String = text[start..name].iter().map(|&b| b as char).collect();
                d.fix = Some(crate::diag::Fix { start: body, end: body, text: format!("{indent}{{\n"), title: format!("insert the '{{' after '{word}'") });
            }
            None => d.help = Some("remove it, or add the '{' it should close".into()),
        }
    } else if message == b"bad token" && brace_after_name(text, pos).is_some() {
        let brace = text[pos] as char;
        d.message = format!("'{brace}' must be alone on its line");
        d.note = Some("the engine says: bad token".into());
        d.help = Some(format!("put the '{brace}' on the next line"));
        if let Some(gap) = brace_after_name(text, pos) {
            let start = crate::diag::line_start(text, pos);
            let indent: String = text[start..].iter().take_while(|&&b| b == b' ' || b == b'\t').map(|&b| b as char).collect();
            d.fix = Some(crate::diag::Fix { start: gap, end: pos, text: format!("\n{indent}"), title: format!("put the '{brace}' on the next line") });
        }
    } else if message == LEAF_PROPERTIES && text.get(pos) == Some(&b':') {
        let props = crate::diag::printable(&text[pos..(pos + len).min(text.len())]);
        d.message = format!("properties ('{props}') only apply to a block: this name opens none");
        let at = match failure.report {
            Report::Compile { source_pos } => format!(", at line {} (the next name)", crate::diag::line_col(text, source_pos as usize).0),
            _ => String::new(),
        };
        d.note = Some(format!("the engine says: {}{at}", crate::diag::printable(message)));
        d.help = Some("remove them, or open a block with '{' on the next line".into());
    } else if message == b"FIXME: aliases not yet implemented" {
        d.help = Some("a word after a name is read as an alias, which the engine does not implement: properties come after a ':' (name : loopsync)".into());
    } else if message == b"unknown anim property" {
        let word = &text[pos..(pos + len).min(text.len())];
        d.message = format!("unknown property '{}' after ':'", crate::diag::printable(word));
        d.note = Some("the engine says: unknown anim property".into());
        let close = crate::suggest::closest(word, PROPERTIES);
        d.help = Some(match close {
            Some(c) => format!("did you mean '{}'? (the properties are loopsync, nonloopsync and complete)", crate::diag::printable(c)),
            None => "the properties are loopsync, nonloopsync and complete".into(),
        });
    }
}

/// Leaves of a tree (every leaf: the load with `com_animCheck 1`, which
/// prunes nothing) that have no asset in `assets` (lower-case names).
/// Nothing when that load fails (its errors are reported already).
pub fn missing_assets(file: &SourceFile, assets: &std::collections::BTreeSet<Vec<u8>>) -> Vec<Diagnostic> {
    let (outcome, tool, addr) = load_tree(&file.name, &file.text, &[], true);
    let Some(tree) = addr.checked_sub(1).and_then(|i| tool.built.get(i)).filter(|_| outcome.is_ok()) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for node in tree.nodes.iter().filter(|n| n.leaf) {
        let lower = node.name.to_ascii_lowercase();
        if assets.contains(&lower) || !seen.insert(lower) {
            continue;
        }
        let (pos, len) = find_name(&file.text, &node.name, 0).unwrap_or((0, 1));
        out.push(Diagnostic::at(
            &file.display,
            &file.text,
            pos,
            len,
            Severity::Warning,
            "missing-xanim",
            format!("no xanim asset '{}' in xanim/", crate::diag::printable(&node.name)),
        ));
    }
    out
}
