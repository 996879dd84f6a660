//! The animation-tree registry of the library run over files: the engine
//! services it needs ([`TreeEngine`]) served from the files found, and the
//! `.atr` check with recovery.

use crate::diag::{Diagnostic, Severity};
use crate::input::SourceFile;
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use uoanim_core::atr as parse;
use uoanim_core::lexis::token_end;
use uoanim_core::names::{CName, Names};
use uoanim_core::outline::Span;
use uoanim_core::tree_outline::{blank_bad_line, outline};
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
    outline(text).names().map(<[u8]>::to_vec).collect()
}

/// Offset and length of the `nth` (0-based) name token equal to `name`
/// (ASCII case ignored).
pub fn find_name(text: &[u8], name: &[u8], nth: usize) -> Option<(usize, usize)> {
    outline(text).find_name(name, nth).map(|p| (p.span.start, name.len()))
}

/// Length of the token at `pos` (up to white space).
pub fn token_len_at(text: &[u8], pos: usize) -> usize {
    token_end(text, pos).saturating_sub(pos)
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
                if let Some(span) = outline(text).leaf_properties(pos) {
                    return Some((span.start, span.end - span.start));
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
        if failure.text == b"unexpected end of file" && !out.is_empty() && outline(&file.text).braces_pair() {
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
        if at_end || !blank_bad_line(&mut work, pos) {
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
    let o = outline(text);
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
    } else if message == b"bad token" && text.get(pos) == Some(&b'}') && o.closes_nothing(pos) {
        d.message = "this '}' closes no block".into();
        d.note = Some("the engine says: bad token".into());
        match o.missing_open(text, pos) {
            Some((Span { start: name, .. }, body)) => {
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
    } else if message == b"bad token" && o.brace_not_alone(text, pos).is_some() {
        let brace = text[pos] as char;
        d.message = format!("'{brace}' must be alone on its line");
        d.note = Some("the engine says: bad token".into());
        d.help = Some(format!("put the '{brace}' on the next line"));
        if let Some(gap) = o.brace_not_alone(text, pos) {
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
