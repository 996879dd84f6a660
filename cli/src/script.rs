//! `mp/playeranim.script`: the engine's init sequence run by the library's
//! own functions (pass 1 with the name registrations, the multiplayer tree
//! built by the registry, the entries rebuild and pass 2), the recovery
//! that turns it into an all-errors checker, and the cross-checks.

use crate::diag::{engine_message, printable, Diagnostic, Fix, Related, Severity};
use crate::input::{SourceFile, WeaponList};
use crate::trees::{self, BuiltNode, BuiltTree, EngineError};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::ffi::{CStr, CString};
use uoanim::abi::bg::*;
use uoanim::error::Failure;
use uoanim::abi::Zeroed;
use uoanim::abi::common::{scr_anim_t, XAnim};
use uoanim::flavour::Behaviour;
use uoanim::script::engine::{NameKind, ParseEngine};
use uoanim::script::finalize;
use uoanim::script::parser::{self, ParseInput, RuntimeNames, SessionEnd, StopPoint};
use uoanim::script::runtime::engine::FinalizeEngine;
use uoanim::script::runtime::resolve_script;
use uoanim::script::module::OwnedModule;
use uoanim::script::tables;
use uoanim_core::literals::{ConditionMode, Literal, ValueTable, CONDITIONS};
use uoanim_core::lexis::Tokenizer;
use uoanim_core::outline::{outline, BraceTrouble, Outline, SECTION_KEYWORDS};

impl EngineError {
    /// A failure of the player-animation module, with its text.
    pub fn of(failure: &Failure<'_>) -> Self {
        EngineError { report: failure.report(), text: failure.text(None).as_bytes().to_vec() }
    }
}

/// The game module's x87, at the Linux default precision of 64 bits.
const GAME_X87: uoanim::arith::X87<uoanim::arith::Soft> =
    uoanim::arith::X87 { machine: uoanim::arith::Soft { pc: uoanim::x87_model::Precision::Extended }, iso: false, stack_floats: false };

/// The path the engine loads the script from (and names in its errors).
pub const SCRIPT_PATH: &CStr = c"mp/playeranim.script";

/// The behaviour the checker reproduces: the server game module's.
pub const BEHAVIOUR: Behaviour = Behaviour::Linux;

/// Init steps, in the engine's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Load,
    Pass1,
    Precache,
    Finalize,
    Pass2,
}

/// The module's state after an init: everything the runtime reads.
pub struct World {
    pub module: OwnedModule,
    pub table: Box<bg_static_animation_table_t>,
    pub runtime: Box<[bg_runtime_animation_t; BG_ANIM_MAX_ANIMATIONS]>,
    pub count: i32,
    /// Sound alias strings the commands point at.
    pub sound_names: Vec<CString>,
    /// The tree the entries were rebuilt from.
    pub tree: BuiltTree,
    /// Whether that tree is the multiplayer tree built from its file (else a
    /// stand-in made of the script's names).
    pub real_tree: bool,
}

impl World {
    fn new(weapons: &[Vec<u8>]) -> World {
        World {
            module: OwnedModule::new(weapons.iter().map(Vec::as_slice)),
            table: Zeroed::boxed_zeroed(),
            runtime: Zeroed::boxed_zeroed(),
            count: 0,
            sound_names: Vec::new(),
            tree: BuiltTree::default(),
            real_tree: false,
        }
    }
}

/// One registration of pass 1 (`Scr_FindAnim`): the name and where the
/// script first uses it.
#[derive(Clone, Debug)]
pub struct Registration {
    pub name: Vec<u8>,
    pub pos: usize,
}

/// What the parser let the tool observe.
#[derive(Default)]
pub struct Observed {
    pub registrations: Vec<Registration>,
    pub sounds: Vec<(Vec<u8>, usize)>,
    /// Pool item → offset of its condition line.
    pub blocks: HashMap<usize, usize>,
    /// Pass-1 defines: (slot, offset of the name).
    pub defines: Vec<(usize, usize)>,
    pub define_uses: HashSet<usize>,
    /// Pool items made by pass 1.
    pub pass1_items: usize,
    /// What the last failed name lookup was looking for.
    pub unknown: Option<NameKind>,
}

struct PaEngine<'e> {
    text: &'e [u8],
    pass: u8,
    cursor: Option<usize>,
    obs: &'e mut Observed,
    sound_names: &'e mut Vec<CString>,
}

impl PaEngine<'_> {
    /// Start of the token that ends at the last checkpoint's cursor.
    fn token_start(&self, len: usize) -> usize {
        let end = self.cursor.unwrap_or(self.text.len()).min(self.text.len());
        let mut start = end.saturating_sub(len);
        if end > 0 && self.text.get(end - 1) == Some(&b'"') {
            start = start.saturating_sub(2);
        }
        start
    }
}

impl ParseEngine for PaEngine<'_> {
    fn fs_open_read(&mut self, _path: &CStr) -> (i32, i32) {
        (i32::try_from(self.text.len()).unwrap_or(i32::MAX), 1)
    }
    fn fs_read(&mut self, buffer: &mut [u8], length: i32, _handle: i32) {
        let n = usize::try_from(length).unwrap_or(0).min(self.text.len()).min(buffer.len());
        buffer[..n].copy_from_slice(&self.text[..n]);
    }
    fn fs_close(&mut self, _handle: i32) {}
    fn find_anim(&mut self, _tree: &CStr, name: &CStr, out: &mut scr_anim_t) {
        let name = name.to_bytes().to_vec();
        let pos = self.token_start(name.len());
        self.obs.registrations.push(Registration { name, pos });
        *out = scr_anim_t { animIndex: 0, treeIndex: 0 };
    }
    fn sound_alias(&mut self, name: &CStr) -> *const core::ffi::c_char {
        let bytes = name.to_bytes().to_vec();
        if self.pass == 1 {
            let pos = self.token_start(bytes.len());
            self.obs.sounds.push((bytes, pos));
        }
        let c = name.to_owned();
        let p = c.as_ptr();
        self.sound_names.push(c);
        p
    }
    fn session_checkpoint(&mut self, _end: &SessionEnd, cursor: Option<usize>) {
        self.cursor = cursor;
    }
    fn observe_block(&mut self, item: usize, line_start: Option<usize>) {
        if let Some(pos) = line_start {
            self.obs.blocks.insert(item, pos);
        }
    }
    fn observe_define(&mut self, slot: usize, name_pos: usize) {
        if self.pass == 1 {
            self.obs.defines.push((slot, name_pos));
        }
    }
    fn observe_define_use(&mut self, slot: usize) {
        if self.pass == 1 {
            self.obs.define_uses.insert(slot);
        }
    }
    fn observe_unknown(&mut self, kind: NameKind) {
        self.obs.unknown = Some(kind);
    }
}

/// `trap_XAnim*` over a built tree. Lengths and move deltas need the xanim
/// assets' data, which the tool does not read: every leaf has length 0 (the
/// engine then uses its 500 ms floor) and no motion.
struct FinEngine<'t> {
    tree: &'t BuiltTree,
    names: Vec<CString>,
}

impl FinalizeEngine for FinEngine<'_> {
    type Tree = *mut XAnim;
    fn anims_index(&mut self, _tree: *mut XAnim) -> u32 {
        1
    }
    fn tree_size(&mut self, _tree: *mut XAnim) -> i32 {
        self.tree.nodes.len() as i32
    }
    fn is_primitive(&mut self, _tree_index: u16, anim_index: u16) -> bool {
        self.tree.nodes.get(usize::from(anim_index)).is_some_and(|n| n.leaf)
    }
    fn anim_name(&mut self, _tree_index: u16, anim_index: u16) -> Option<&CStr> {
        self.names.get(usize::from(anim_index)).map(|c| c.as_c_str())
    }
    fn length(&mut self, _tree: *mut XAnim, _anim_index: u16) -> i32 {
        0
    }
    fn rel_delta(&mut self, _t: u16, _a: u16, rotation: &mut [f32; 3], movement: &mut [f32; 3]) {
        *rotation = [0.0; 3];
        *movement = [0.0; 3];
    }
    fn is_looped(&mut self, _tree_index: u16, _anim_index: u16) -> bool {
        false
    }
}

/// A failure of an init step and where the parser stopped (parse steps).
#[derive(Clone, Debug)]
pub struct StepFailure {
    pub stage: Stage,
    pub failure: EngineError,
    pub stop: Option<StopPoint>,
}

/// The result of one init.
pub struct Init {
    pub world: World,
    pub obs: Observed,
    pub failure: Option<StepFailure>,
    /// Registered names the multiplayer tree does not define (lower case),
    /// when the tree was built.
    pub undefined: Vec<Vec<u8>>,
}

/// What the init is given besides the script text.
pub struct Setup<'a> {
    pub weapons: &'a [Vec<u8>],
    /// The class (index in the module's weapon class table) of each weapon,
    /// weapon 1 first, where its weapon file was read.
    pub classes: &'a [Option<usize>],
    /// `multiplayer.atr`; None: a stand-in tree of the script's names.
    pub tree: Option<&'a SourceFile>,
    /// Where `weapons` comes from (the stock United Offensive names when no
    /// list was found).
    pub weapon_list: WeaponList,
    /// `tree` is the built-in stock tree (the mod has no `multiplayer.atr`).
    pub stock_tree: bool,
}

/// The names `BG_FindAnims` registers before pass 1.
const FIXED_NAMES: [&[u8]; 4] = [b"root", b"torso", b"legs", b"turning"];

/// Runs the engine's init over `text`: load, pass 1, precache of the
/// multiplayer tree, entries rebuild, pass 2, note types.
pub fn init(text: &[u8], setup: &Setup<'_>) -> Init {
    let mut world = World::new(setup.weapons);
    let mut obs = Observed::default();
    let mut buffer = vec![0u8; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE];
    let mut sounds = Vec::new();
    let fail = |world, obs, stage, failure, stop| Init { world, obs, failure: Some(StepFailure { stage, failure, stop }), undefined: Vec::new() };

    // Load and pass 1.
    {
        let mut engine = PaEngine { text, pass: 1, cursor: None, obs: &mut obs, sound_names: &mut sounds };
        let buf: &mut [u8; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE] = buffer.as_mut_slice().try_into().expect("buffer size");
        if let Err(f) = parser::load_script(buf, Some(SCRIPT_PATH), &mut engine) {
            world.sound_names = sounds;
            return fail(world, obs, Stage::Load, EngineError::of(&f), None);
        }
    }
    let pass1 = {
        let World { module, table, runtime, count, .. } = &mut world;
        let mut engine = PaEngine { text, pass: 1, cursor: None, obs: &mut obs, sound_names: &mut sounds };
        let input = ParseInput {
            table,
            runtime: Some(RuntimeNames { records: &mut runtime[..], count }),
            engine: &mut engine,
            path: Some(SCRIPT_PATH),
            text: &buffer,
            behaviour: BEHAVIOUR,
        };
        parser::parse_script_stop(module.module(), input)
    };
    world.sound_names = std::mem::take(&mut sounds);
    if let (Err(f), stop) = pass1 {
        let f = EngineError::of(&f);
        return fail(world, obs, Stage::Pass1, f, Some(stop));
    }
    obs.pass1_items = world.table.globalItemCount.max(0) as usize;

    // The multiplayer tree: built by the registry with the names
    // registered so far (BG_FindAnims, then pass 1), as the engine's
    // precache does; or a stand-in.
    let mut undefined = Vec::new();
    let count = world.count.clamp(0, BG_ANIM_MAX_ANIMATIONS as i32) as usize;
    if let Some(tree) = setup.tree {
        let mut refs: Vec<&[u8]> = FIXED_NAMES.to_vec();
        refs.extend(obs.registrations.iter().map(|r| r.name.as_slice()));
        let (outcome, tool, addr) = trees::load_tree("multiplayer", &tree.text, &refs, false);
        let known: HashSet<Vec<u8>> = trees::tree_names(&tree.text).into_iter().collect();
        let mut seen = HashSet::new();
        for r in &obs.registrations {
            let lower = r.name.to_ascii_lowercase();
            if lower != b"root" && !known.contains(&lower) && seen.insert(lower.clone()) {
                undefined.push(lower);
            }
        }
        if let Err(f) = outcome {
            let mut init = fail(world, obs, Stage::Precache, f, None);
            init.undefined = undefined;
            return init;
        }
        if let Some(built) = addr.checked_sub(1).and_then(|i| tool.built.get(i)) {
            world.tree = built.clone();
            world.real_tree = true;
            for (i, record) in world.runtime[..count].iter_mut().enumerate() {
                let value = tool.cells.get(&(FIXED_NAMES.len() + i + 2)).copied().unwrap_or(0);
                record.anim = scr_anim_t { animIndex: value as u16, treeIndex: (value >> 16) as u16 };
            }
        }
    }
    if !world.real_tree {
        stand_in_tree(&mut world, count);
    }

    // BG_FinalizePlayerAnims: rebuild, pass 2, note types (the move speed on
    // the game module's x87 at the Linux default of 64 bits).
    {
        let names = world.tree.nodes.iter().map(|n| CString::new(n.name.clone()).unwrap_or_default()).collect();
        let mut fin = FinEngine { tree: &world.tree, names };
        if let Err(f) = finalize::rebuild_entries(BEHAVIOUR, GAME_X87, &mut world.table, &world.runtime[..count], &mut fin) {
            let failure = EngineError::of(&f);
            return Init { world, obs, failure: Some(StepFailure { stage: Stage::Finalize, failure, stop: None }), undefined };
        }
    }
    let pass2 = {
        let World { module, table, .. } = &mut world;
        let mut engine = PaEngine { text, pass: 2, cursor: None, obs: &mut obs, sound_names: &mut sounds };
        let input = ParseInput { table, runtime: None, engine: &mut engine, path: None, text: &buffer, behaviour: BEHAVIOUR };
        parser::parse_script_stop(module.module(), input)
    };
    world.sound_names.append(&mut sounds);
    if let (Err(f), stop) = pass2 {
        let failure = EngineError::of(&f);
        return Init { world, obs, failure: Some(StepFailure { stage: Stage::Pass2, failure, stop: Some(stop) }), undefined };
    }
    finalize::setup_anim_note_types(&mut world.table);
    Init { world, obs, failure: None, undefined }
}

/// A tree standing in for a missing multiplayer tree: the root, then one
/// leaf per registered name (first registration order).
fn stand_in_tree(world: &mut World, count: usize) {
    let mut nodes = vec![BuiltNode { name: b"root".to_vec(), leaf: false }];
    let mut index: HashMap<Vec<u8>, u16> = HashMap::new();
    index.insert(b"root".to_vec(), 0);
    for record in world.runtime[..count].iter_mut() {
        let name = tables::field_name(record.name_bytes()).to_vec();
        let key = name.to_ascii_lowercase();
        let node = *index.entry(key).or_insert_with(|| {
            nodes.push(BuiltNode { name: name.clone(), leaf: true });
            (nodes.len() - 1) as u16
        });
        record.anim = scr_anim_t { animIndex: node, treeIndex: 1 };
    }
    world.tree = BuiltTree { nodes };
    world.real_tree = false;
}

/// The result of checking a script.
pub struct ScriptReport {
    pub diags: Vec<Diagnostic>,
    /// The module after a clean init of the unmodified text.
    pub world: Option<World>,
    pub obs: Option<Observed>,
}

/// Codes of the diagnostics of a stage's failure.
fn stage_code(stage: Stage) -> &'static str {
    match stage {
        Stage::Load => "load",
        Stage::Pass1 => "parse",
        Stage::Precache => "atr",
        Stage::Finalize => "finalize",
        Stage::Pass2 => "pass2",
    }
}

/// Checks the script: the engine's init, then again after each error with
/// the offending line blanked (recovery), then the cross-checks on the
/// last clean init.
pub fn check_script(script: &SourceFile, setup: &Setup<'_>, xanims: Option<&BTreeSet<Vec<u8>>>) -> ScriptReport {
    let mut work = script.text.clone();
    let mut diags = Vec::new();
    let mut tree_failed = false;
    let mut clean: Option<Init> = None;
    // Where the last parse error was: the text before it parsed, so an
    // error a later run finds before it comes of the blanking, not of the
    // script, and the recovery ends there.
    let mut last_parse: Option<usize> = None;
    // the names of defines whose `set` line had an error
    let mut failed_defines: Vec<Vec<u8>> = Vec::new();
    let shape = outline(&script.text);
    // true when every run found an error (the cap), false at a break
    let capped = 'runs: {
        for iteration in 0..MAX_RUNS {
            let tree = if tree_failed { None } else { setup.tree };
            let run = init(&work, &Setup { tree, ..*setup });
            let Some(step) = run.failure.clone() else {
                clean = Some(run);
                break 'runs false;
            };
            if let (Some(stop), Some(last)) = (&step.stop, last_parse) {
                if stop.token_pos < last {
                    break 'runs false;
                }
            }
            let engine_text = step.failure.text.clone();
            let mut produced = Vec::new();
            let mut resumable = None;
            let mut wrote_brace = false;
            match step.stage {
                Stage::Pass1 | Stage::Pass2 => {
                    let stop = step.stop.expect("parse steps stop somewhere");
                    let len = if stop.token_len == 0 { trees::token_len_at(&work, stop.token_pos) } else { stop.token_len };
                    let mut d = Diagnostic::at(&script.display, &script.text, stop.token_pos, len, Severity::Error, stage_code(step.stage), engine_message(&engine_text));
                    let engine_line = engine_line(&engine_text);
                    let said = engine_line.map_or(String::new(), |l| format!(" (line {l})"));
                    // the name's span in the file, where it was found
                    let mut name_at = None;
                    if let Some((message, suggestion, name)) = run.obs.unknown.and_then(|kind| unknown_name(kind, &engine_text, &run, &work)) {
                        // the mark on the name (all its words), not on the
                        // token the parser stopped at
                        if let Some((pos, len)) = locate_words(&work, stop.token_pos + len, &name) {
                            let engine_message = d.message.clone();
                            d = Diagnostic::at(&script.display, &script.text, pos, len, Severity::Error, stage_code(step.stage), engine_message);
                            name_at = Some((pos, len));
                        }
                        d.note = Some(format!("the engine says: {}{said}", d.message));
                        d.message = message;
                        d.help = suggestion.as_ref().map(|c| format!("did you mean '{c}'?"));
                        if let (Some(c), Some((pos, len))) = (suggestion, name_at) {
                            d.fix = Some(Fix { start: pos, end: pos + len, title: format!("replace with '{c}'"), text: c });
                        }
                    } else if let Some((message, suggestion)) = expected_words(&d.message, &work[stop.token_pos..(stop.token_pos + len).min(work.len())])
                        .or_else(|| unexpected_after_conditions(&d.message, &work, stop.token_pos, len))
                    {
                        d.note = Some(format!("the engine says: {}{said}", d.message));
                        d.message = message;
                        if let Some(c) = suggestion {
                            d.help = Some(format!("did you mean '{c}'?"));
                            if len > 0 {
                                d.fix = Some(Fix { start: stop.token_pos, end: stop.token_pos + len, title: format!("replace with '{c}'"), text: c });
                            }
                        }
                    } else if engine_line.is_some_and(|l| l != d.line) {
                        d = d.with_note(format!("the engine counts this as line {}", engine_line.unwrap_or_default()));
                    }
                    if let Some(hint) = note_for(&engine_text) {
                        d.help = Some(hint.into());
                        d.fix = None;
                        // words not joined by an operator: joined by AND
                        if let Some((pos, len)) = name_at.filter(|_| hint.starts_with("words not joined")) {
                            let words: Vec<String> = script.text[pos..pos + len].split(|&b| (b as i8) <= b' ' as i8).filter(|w| !w.is_empty()).map(printable).collect();
                            // a condition's name among them: the ',' before
                            // it is missing (`weapons rifles strafing left`)
                            let names = condition_names();
                            let next_condition = words.iter().skip(1).find(|w| names.iter().any(|n| n.eq_ignore_ascii_case(w.as_bytes())));
                            if let Some(c) = next_condition {
                                let span = &script.text[pos..pos + len];
                                let at = (1..span.len()).find(|&i| (span[i - 1] as i8) <= b' ' as i8 && span[i..].len() >= c.len() && span[i..i + c.len()].eq_ignore_ascii_case(c.as_bytes()));
                                d.help = Some(format!("'{c}' is a condition: conditions are separated by ',' (..., {c} ...)"));
                                if let Some(i) = at {
                                    let gap = (0..i).rev().take_while(|&j| (span[j] as i8) <= b' ' as i8).last().unwrap_or(i);
                                    d.fix = Some(Fix { start: pos + gap, end: pos + i, text: ", ".into(), title: format!("put a ',' before '{c}'") });
                                }
                            } else if words.len() > 1 {
                                d.fix = Some(Fix { start: pos, end: pos + len, text: words.join(" AND "), title: "join the words with AND".into() });
                            }
                        }
                    }
                    let mut at = stop.token_pos;
                    // The first error, after a brace that does not pair: said
                    // at the brace.
                    let mut close_at = None;
                    if iteration == 0 && step.stage == Stage::Pass1 {
                        let engine_said = format!("{}{said}", engine_message(&engine_text));
                        if let Some(b) = &shape.braces {
                            if let Some((moved, pos)) = brace_diagnostic(script, b, &d, stop.token_pos, &engine_said) {
                                at = pos;
                                d = moved;
                                // the '}' is written over the line's first byte
                                // of indentation, so that positions stay
                                if let BraceTrouble::Unclosed { missing_before: Some(h), .. } = *b {
                                    close_at = matches!(script.text.get(h), Some(b' ' | b'\t')).then_some(h);
                                }
                            }
                        }
                    }
                    // a condition line without its block: the recovery
                    // drops the condition line with the line after it
                    if engine_message(&engine_text).starts_with("BG_AnimParseAnimScript: unexpected '") {
                        if let Some((from, to)) = condition_line_before(&work, stop.token_pos) {
                            work[from..to].iter_mut().filter(|b| **b != b'\n' && **b != b'{' && **b != b'}').for_each(|b| *b = b' ');
                        }
                    }
                    d.engine_text = Some(engine_text.clone());
                    // a define whose `set` line failed: the define's name
                    // (its third word), whose later uses fail for that
                    // reason alone and are not said again
                    let line_start = crate::diag::line_start(&work, stop.token_pos);
                    let line_end = work[line_start..].iter().position(|&b| b == b'\n').map_or(work.len(), |i| line_start + i);
                    let words: Vec<&[u8]> = work[line_start..line_end].split(|&b| (b as i8) <= b' ' as i8).filter(|w| !w.is_empty()).collect();
                    if words.first().is_some_and(|w| w.eq_ignore_ascii_case(b"set")) {
                        if let Some(name) = words.get(2) {
                            failed_defines.push(name.to_ascii_lowercase());
                        }
                    }
                    let cascade = unknown_token(&engine_text).is_some_and(|t| failed_defines.iter().any(|f| f.eq_ignore_ascii_case(t)));
                    if !cascade {
                        produced.push(d);
                    }
                    last_parse = Some(at);
                    resumable = Some(at);
                    // The recovery from a missing '}': the '}' written where it
                    // seems missing (over the line's first indentation byte, so
                    // that positions stay), and the init run again.
                    if let Some(h) = close_at {
                        work[h] = b'}';
                        wrote_brace = true;
                    }
                }
                Stage::Precache => {
                    let tree_file = setup.tree.expect("precache runs with a tree");
                    let message = trees::failure_message(&step.failure);
                    let undefined_prefix = b"\x15animation '";
                    if engine_text.starts_with(undefined_prefix) {
                        // Every name the tree lacks, at its first use; the one
                        // the engine names carries its text.
                        let tree_names = trees::tree_names(&tree_file.text);
                        for name in &run.undefined {
                            if let Some(r) = run.obs.registrations.iter().find(|r| r.name.eq_ignore_ascii_case(name)) {
                                let text = format!("animation '{}' not defined in anim tree 'multiplayer'", printable(name));
                                let mut d = Diagnostic::at(&script.display, &script.text, r.pos, r.name.len(), Severity::Error, "anim-not-in-tree", text.clone());
                                if let Some(c) = crate::suggest::closest(name, tree_names.iter().map(Vec::as_slice)) {
                                    d.help = Some(format!("did you mean '{}'?", printable(c)));
                                }
                                if text == message {
                                    d.engine_text = Some(engine_text.clone());
                                }
                                if setup.stock_tree {
                                    d.note = Some("the mod has no multiplayer.atr: the game uses its stock tree, whose names are built in".into());
                                }
                                let known = trees::tree_names(&tree_file.text);
                                if let Some(close) = crate::suggest::closest(name, known.iter().map(|n| n.as_slice())) {
                                    d.help = Some(format!("did you mean '{}'?", printable(close)));
                                }
                                produced.push(d);
                            }
                        }
                        if !produced.iter().any(|d| d.engine_text.is_some()) {
                            let mut d = Diagnostic::at(&tree_file.display, &tree_file.text, 0, 1, Severity::Error, "anim-not-in-tree", message);
                            d.engine_text = Some(engine_text.clone());
                            produced.push(d);
                        }
                    } else {
                        // An error of the tree file itself (also listed by the
                        // tree check, with recovery).
                        let (pos, len) = trees::failure_position(&tree_file.text, &step.failure).unwrap_or((0, 1));
                        let mut d = Diagnostic::at(&tree_file.display, &tree_file.text, pos, len, Severity::Error, "atr", message);
                        trees::explain_tree_error(&mut d, &tree_file.text, &step.failure, pos, len);
                        d.engine_text = Some(engine_text.clone());
                        produced.push(d);
                    }
                    tree_failed = true;
                }
                Stage::Load | Stage::Finalize => {
                    let mut d = Diagnostic::at(&script.display, &script.text, 0, 1, Severity::Error, stage_code(step.stage), engine_message(&engine_text));
                    if step.stage == Stage::Load {
                        d = d.with_note(load_reason(work.len()));
                    }
                    d.engine_text = Some(engine_text.clone());
                    produced.push(d);
                }
            }
            if iteration == 0 {
                for d in produced.iter_mut() {
                    if d.engine_text.as_deref() == Some(engine_text.as_slice()) {
                        d.engine_first = true;
                        break;
                    }
                }
            }
            diags.extend(produced);
            match (step.stage, resumable) {
                (Stage::Precache, _) => continue,
                _ if wrote_brace => continue,
                (_, Some(pos)) => {
                    if !uoanim_core::tree_outline::blank_bad_line(&mut work, pos) {
                        break 'runs false;
                    }
                }
                _ => break 'runs false,
            }
        }
        true
    };
    if capped {
        let mut d = Diagnostic::at(&script.display, &script.text, script.text.len(), 1, Severity::Note, "parse", format!("the check stopped after {MAX_RUNS} runs of the init: later errors are not listed"));
        d.help = Some("fix the errors above and check again".into());
        diags.push(d);
    }
    if !diags.iter().any(|d| d.code == "load") {
        diags.extend(lexical_checks(script, &shape));
    }
    let clean_first_time = diags.iter().all(|d| d.severity != Severity::Error);
    let (mut world, mut obs) = (None, None);
    if let Some(run) = clean {
        diags.extend(cross_checks(script, &shape, &work, &run, setup, xanims));
        if clean_first_time {
            world = Some(run.world);
            obs = Some(run.obs);
        }
    }
    ScriptReport { diags, world, obs }
}

/// How many times the check runs the init, blanking one bad line each
/// time.
const MAX_RUNS: usize = 200;

/// The engine's first error `engine` said at the brace that caused it,
/// when it is an error that brace leads to: for an unclosed `{`, the end
/// of the file or an error at or after the line where its `}` seems
/// missing; for an extra `}`, any error after it. None: not the brace's.
fn brace_diagnostic(script: &SourceFile, b: &BraceTrouble, engine: &Diagnostic, engine_pos: usize, engine_said: &str) -> Option<(Diagnostic, usize)> {
    let at_eof = engine_said.contains("end of file");
    let text = &script.text;
    let line = |p: usize| crate::diag::line_col(text, p).0;
    let mut fix = None;
    let mut related = Vec::new();
    let (pos, message, help) = match *b {
        BraceTrouble::Unclosed { open, missing_before } => {
            if engine_pos < open || (!at_eof && missing_before.is_none_or(|h| engine_pos < h)) {
                return None;
            }
            let help = match missing_before {
                Some(h) => {
                    // the '}' on a line of its own, indented as the '{'
                    let start = text[..open].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                    let indent: String = text[start..open].iter().take_while(|&&b| b == b' ' || b == b'\t').map(|&b| b as char).collect();
                    fix = Some(Fix { start: h, end: h, text: format!("{indent}}}\n"), title: format!("insert the '}}' before line {}", line(h)) });
                    related.push(Related::at(&script.display, text, h, "the block's '}' seems missing before this line"));
                    format!("line {} is indented like this '{{': is the block's '}}' missing before it?", line(h))
                }
                None => "close it with a '}'".into(),
            };
            (open, "this '{' is never closed".to_string(), help)
        }
        BraceTrouble::Stray { close } => {
            if engine_pos < close {
                return None;
            }
            fix = Some(Fix { start: close, end: close + 1, text: String::new(), title: "remove this '}'".into() });
            (close, "this '}' closes no block".to_string(), "remove it, or add the '{' it should close".into())
        }
    };
    let mut d = Diagnostic::at(&script.display, text, pos, 1, Severity::Error, engine.code, message);
    d.note = Some(format!("the engine says: {engine_said}"));
    d.help = Some(help);
    d.fix = fix;
    d.related = related;
    Some((d, pos))
}

/// Why the engine's load refuses a script of `len` bytes.
fn load_reason(len: usize) -> String {
    if len == 0 {
        "the file is empty: the engine loads no script of 0 bytes".into()
    } else {
        format!("the file has {len} bytes: the engine loads a script of at most {BG_ANIM_SCRIPT_FILE_MAX_BYTES} bytes")
    }
}

/// What the engine reads of the script that the init does not say: an
/// encoding it cannot read, text it skips, no section at all.
fn lexical_checks(script: &SourceFile, shape: &Outline) -> Vec<Diagnostic> {
    let text = &script.text;
    let mut out = Vec::new();
    if let Some(d) = crate::diag::utf16_warning(&script.display, text, "loads nothing") {
        return vec![d];
    }
    if let Some(zero) = text.iter().position(|&b| b == 0) {
        let (line, _) = crate::diag::line_col(text, zero);
        out.push(
            warn(script, zero, 1, "encoding", format!("a zero byte at line {line}: the game's reading of the script ends here, and what follows is not loaded"))
                .with_help(crate::diag::SAVE_AS),
        );
    }
    if let Some(d) = crate::diag::unclosed_comment_warning(&script.display, text) {
        out.push(d);
    }
    for run in &shape.skipped {
        let word_end = (run.start..run.end).find(|&i| (text[i] as i8) <= b' ' as i8).unwrap_or(run.end);
        let word = &text[run.start..word_end];
        let last_line = crate::diag::line_col(text, run.end.saturating_sub(1)).0;
        let mut d = warn(
            script,
            run.start,
            word.len(),
            "ignored-text",
            format!("the engine skips this text, through line {last_line}: before the first section keyword, and in DEFINES, it reads only 'set' lines"),
        );
        if let Some(c) = crate::suggest::closest(word, SECTION_KEYWORDS) {
            let c = printable(c);
            d = d.with_help(format!("did you mean '{c}'?"));
            d.fix = Some(Fix { start: run.start, end: word_end, title: format!("replace with '{c}'"), text: c });
        }
        out.push(d);
    }
    if !shape.has_section {
        out.push(warn(
            script,
            0,
            1,
            "loads-nothing",
            format!(
                "the script has no section keyword ({}): the game loads no animation from it",
                SECTION_KEYWORDS.map(printable).join(", ")
            ),
        ));
    }
    out
}

/// The line number the engine appends to a parse error's text.
fn engine_line(text: &[u8]) -> Option<u32> {
    let needle = b", line ";
    let at = text.windows(needle.len()).rposition(|w| w == needle)? + needle.len();
    let digits: Vec<u8> = text[at..].iter().copied().take_while(u8::is_ascii_digit).collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// The unknown name of a `BG_IndexForString` error, said in the modder's
/// words for what the parser was looking for, with the closest known name
/// of that kind (the help's suggestion).
fn unknown_name(kind: NameKind, engine_text: &[u8], run: &Init, text: &[u8]) -> Option<(String, Option<String>, Vec<u8>)> {
    let name = unknown_token(engine_text)?;
    let lower = |t: Literal| table_names(t).into_iter().map(|n| n.to_ascii_lowercase()).collect::<Vec<_>>();
    let (what, known): (String, Vec<Vec<u8>>) = match kind {
        NameKind::State => ("state".into(), lower(Literal::States)),
        NameKind::MoveType => ("move type".into(), lower(Literal::MoveTypes)),
        NameKind::Event => ("event".into(), lower(Literal::Events)),
        NameKind::ConditionType => ("condition".into(), lower(Literal::ConditionTypes)),
        NameKind::BodyPart => ("body part".into(), lower(Literal::BodyParts)),
        NameKind::Value { condition } => {
            let cname = condition_names().get(condition).map_or(String::new(), |n| printable(n).to_lowercase());
            let mut known = match CONDITIONS.get(condition).and_then(|c| c.values) {
                Some(ValueTable::Weapons) => {
                    let mut w = vec![b"none".to_vec()];
                    w.extend(run.world.module.weapon_names().map(<[u8]>::to_vec));
                    w
                }
                Some(ValueTable::WeaponClass) => lower(Literal::WeaponClasses),
                Some(ValueTable::Mounted) => lower(Literal::Mounted),
                Some(ValueTable::Vehicle) => lower(Literal::Vehicles),
                Some(ValueTable::VehicleMotion) => lower(Literal::VehicleMotion),
                Some(ValueTable::MoveTypes) => lower(Literal::MoveTypes),
                Some(ValueTable::WeaponPosition) => lower(Literal::WeaponPositions),
                Some(ValueTable::Strafe) => lower(Literal::StrafeStates),
                None => Vec::new(),
            };
            // the script's defines of that condition
            for &(slot, pos) in &run.obs.defines {
                if slot / BG_ANIM_CONDITION_VALUE_COUNT == condition && pos < text.len() {
                    known.push(text[pos..(pos + trees::token_len_at(text, pos)).min(text.len())].to_vec());
                }
            }
            let what = match cname.as_str() {
                "weapons" => "weapon".to_string(),
                "weaponclass" => "weapon class".to_string(),
                "movetype" => "move type".to_string(),
                _ => format!("value of '{cname}'"),
            };
            (what, known)
        }
    };
    let suggestion = crate::suggest::closest(name, known.iter().map(Vec::as_slice)).map(printable);
    Some((format!("unknown {what} '{}'", printable(name)), suggestion, name.to_vec()))
}

/// An error of the script's structure (`message`, the engine's text
/// without its suffix) in the modder's words: what the parser expected and
/// what it found (`found`, the token it stopped at; empty at the end), with
/// the keyword the found word is closest to.
fn expected_words(message: &str, found: &[u8]) -> Option<(String, Option<String>)> {
    let what = if found.is_empty() { "the end of the file".to_string() } else { format!("'{}'", printable(found)) };
    let suggest = |keywords: &[&'static str]| crate::suggest::closest(found, keywords.iter().map(|k| k.as_bytes())).map(printable);
    let (said, keywords): (String, &[&str]) = match message {
        // (a misspelt section keyword there is read as a state block too)
        "BG_AnimParseAnimScript: expected 'state'" => {
            (format!("expected 'state' (a state block: state NAME {{ ... }}), found {what}"), &["state", "DEFINES", "ANIMATIONS", "CANNED_ANIMATIONS", "STATECHANGES", "EVENTS"])
        }
        "BG_AnimParseAnimScript: expected '{'" => (format!("expected '{{', found {what}"), &[]),
        m if m.starts_with("BG_AnimParseAnimScript: expected 'statechange', got '") => (format!("expected 'statechange', found {what}"), &["statechange"]),
        m if m.starts_with("BG_AnimParseAnimScript: expected '=', found '") => (format!("expected '=' between the define's name and its value (set CONDITION NAME = VALUE), found {what}"), &[]),
        m if m.starts_with("BG_AnimParseAnimScript: can not make a define of type '") => {
            (format!("{what} takes one value: only a condition of several values (weapons, weaponclass, movetype, ...) can have defines"), &[])
        }
        "BG_AnimParseAnimScript: expected condition type string" => ("expected a condition name after 'set' (set CONDITION NAME = VALUE)".into(), &[]),
        "BG_AnimParseAnimScript: expected condition define string" => ("expected the define's name after its condition (set CONDITION NAME = VALUE)".into(), &[]),
        m if m.starts_with("BG_ParseCommands: unknown parameter '") => {
            (format!("unknown command parameter {what}: a command takes duration, blendtime and turretanim after an animation, and sound at its end"), &["duration", "blendtime", "turretanim", "sound"])
        }
        // (the value is missing: the parser stops at the word before it)
        "BG_ParseCommands: expected animation" => ("expected an animation name after the body part, on its line".into(), &[]),
        "BG_ParseCommands: expected duration value" => ("expected a number after 'duration', on its line".into(), &[]),
        "BG_ParseCommands: expected blendtime value" => ("expected a number after 'blendtime', on its line".into(), &[]),
        "BG_ParseCommands: expected sound" => ("expected a sound alias after 'sound', on its line".into(), &[]),
        _ => return None,
    };
    // a keyword spelt right is no misspelling of itself
    let suggestion = suggest(keywords).filter(|c| !c.as_bytes().eq_ignore_ascii_case(found));
    Some((said, suggestion))
}

/// An `unexpected` word where the line before is a condition line (a
/// condition name or `default` first): its commands' `{` is missing.
fn unexpected_after_conditions(message: &str, text: &[u8], pos: usize, len: usize) -> Option<(String, Option<String>)> {
    if !message.starts_with("BG_AnimParseAnimScript: unexpected '") {
        return None;
    }
    let (line, _) = condition_line_before(text, pos)?;
    let found = printable(&text[pos..(pos + len).min(text.len())]);
    let (n, _) = crate::diag::line_col(text, line);
    Some((format!("expected '{{' after the conditions on line {n}, found '{found}': a condition line's commands go in a '{{ ... }}' block after it"), None))
}

/// The span of the condition line (a condition name or `default` first)
/// that is the last line with a token before the line of `pos`, when `pos`
/// is its line's first word.
fn condition_line_before(text: &[u8], pos: usize) -> Option<(usize, usize)> {
    let pos = pos.min(text.len());
    let start = crate::diag::line_start(text, pos);
    if text[start..pos].iter().any(|&b| (b as i8) > b' ' as i8) {
        return None; // not the first word of its line
    }
    let (line, end) = crate::diag::last_line_with_token(text, start.checked_sub(1)?)?;
    let first: Vec<u8> = text[line..end].iter().copied().skip_while(|&b| (b as i8) <= b' ' as i8).take_while(|&b| (b as i8) > b' ' as i8 && b != b',').collect();
    let conditions = condition_names();
    if !(first.eq_ignore_ascii_case(b"default") || conditions.iter().any(|c| c.eq_ignore_ascii_case(&first))) {
        return None;
    }
    Some((line, end))
}

/// The span of the words of `name` (as the parser joins a key's words:
/// one space between) last found on the line that ends at or after `end`,
/// ending at or before `end`.
fn locate_words(text: &[u8], end: usize, name: &[u8]) -> Option<(usize, usize)> {
    let end = end.min(text.len());
    let start = text[..end].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = &text[start..end];
    let words: Vec<&[u8]> = name.split(|&b| b == b' ').filter(|w| !w.is_empty()).collect();
    let space = |b: u8| (b as i8) <= b' ' as i8;
    let mut found = None;
    for at in 0..line.len() {
        if at > 0 && !space(line[at - 1]) && line[at - 1] != b',' {
            continue;
        }
        let mut i = at;
        let mut ok = true;
        for (n, w) in words.iter().enumerate() {
            if n > 0 {
                let before = i;
                while i < line.len() && space(line[i]) {
                    i += 1;
                }
                if i == before {
                    ok = false;
                    break;
                }
            }
            if !line[i..].get(..w.len()).is_some_and(|s| s.eq_ignore_ascii_case(w)) {
                ok = false;
                break;
            }
            i += w.len();
        }
        if ok && !words.is_empty() && line.get(i).is_none_or(|&b| space(b) || b == b',') {
            found = Some((start + at, i - at));
        }
    }
    found
}

/// The name of a `BG_IndexForString: unknown token '<name>'` error (to its
/// closing quote, the last one: the engine's suffix has none).
fn unknown_token(text: &[u8]) -> Option<&[u8]> {
    let unknown = b"BG_IndexForString: unknown token '";
    let at = text.windows(unknown.len()).position(|w| w == unknown)? + unknown.len();
    let rest = &text[at..];
    Some(&rest[..rest.iter().rposition(|&b| b == b'\'')?])
}

/// A hint for the traps behind some engine errors.
fn note_for(text: &[u8]) -> Option<&'static str> {
    let token = unknown_token(text)?;
    if token.contains(&b' ') {
        return Some("words not joined by an operator (AND, MINUS, NOT, ',') are read as one name");
    }
    if token.eq_ignore_ascii_case(b"playeranimtype") {
        return Some("'playerAnimType' is a Call of Duty 2 condition; United Offensive does not know it");
    }
    None
}

// ---- cross-checks -------------------------------------------------------------

/// The names of one of the module's tables of literals.
pub fn table_names(table: Literal) -> Vec<Vec<u8>> {
    table.names().map(<[u8]>::to_vec).collect()
}

/// Condition type names, upper case as the module spells them.
pub fn condition_names() -> Vec<Vec<u8>> {
    table_names(Literal::ConditionTypes)
}

fn warn(script: &SourceFile, pos: usize, len: usize, code: &'static str, message: String) -> Diagnostic {
    Diagnostic::at(&script.display, &script.text, pos, len, Severity::Warning, code, message)
}

/// Every list of the table with a label.
pub fn lists(table: &bg_static_animation_table_t) -> Vec<(String, &bg_anim_script_list_t)> {
    let states = table_names(Literal::States);
    let moves = table_names(Literal::MoveTypes);
    let events = table_names(Literal::Events);
    let s = |i: usize| String::from_utf8_lossy(&states[i]).to_lowercase();
    let m = |i: usize| String::from_utf8_lossy(&moves[i]).to_lowercase();
    let mut out = Vec::new();
    for st in 0..ANIM_STATE_COUNT {
        for mt in 0..ANIM_MT_COUNT {
            out.push((format!("state {} {}", s(st), m(mt)), &table.animations[st][mt]));
            out.push((format!("canned state {} {}", s(st), m(mt)), &table.canned[st][mt]));
        }
    }
    for to in 0..ANIM_STATE_COUNT {
        for from in 0..ANIM_STATE_COUNT {
            out.push((format!("statechange {} {}", s(to), s(from)), &table.statechanges[to][from]));
        }
    }
    for (e, name) in events.iter().enumerate() {
        let list = if e < ANIM_EVENT_RELOAD { &table.events[e] } else { &table.scriptLists[e - ANIM_EVENT_RELOAD] };
        out.push((format!("event {}", String::from_utf8_lossy(name).to_lowercase()), list));
    }
    out
}

/// The pool items of a list, in order.
pub fn list_items(table: &bg_static_animation_table_t, list: &bg_anim_script_list_t) -> Vec<usize> {
    let n = usize::try_from(list.count).unwrap_or(0).min(BG_ANIM_MAX_LIST_ITEMS);
    list.scripts[..n].iter().filter_map(|&p| resolve_script(table, p)).collect()
}

/// Every condition of the script holds whatever the client's state.
fn always_matches(script: &bg_anim_script_t) -> bool {
    let n = script.conditionCount.clamp(0, ANIM_COND_COUNT as i32) as usize;
    script.conditions[..n].iter().all(|c| {
        uoanim_core::conditions::condition_mode(c.r#type) == Some(ANIM_CONDMODE_BITMASK) && c.value[0] == -1 && c.value[1] == -1
    })
}

/// A condition of the script that no client state satisfies.
fn never_holds(script: &bg_anim_script_t) -> Option<usize> {
    let n = script.conditionCount.clamp(0, ANIM_COND_COUNT as i32) as usize;
    script.conditions[..n].iter().position(|c| {
        uoanim_core::conditions::condition_mode(c.r#type) == Some(ANIM_CONDMODE_BITMASK) && c.value[0] == 0 && c.value[1] == 0
    })
}

/// The bits of the script's condition of `kind`, if it has one.
fn condition_bits(script: &bg_anim_script_t, kind: i32) -> Option<u64> {
    let n = script.conditionCount.clamp(0, ANIM_COND_COUNT as i32) as usize;
    script.conditions[..n].iter().find(|c| c.r#type == kind).map(|c| u64::from(c.value[0] as u32) | u64::from(c.value[1] as u32) << 32)
}

/// The weapons past the 63rd, named (the first few).
fn past_63(weapons: &[Vec<u8>]) -> String {
    let past: Vec<String> = weapons.iter().skip(63).map(|w| format!("'{}'", printable(w))).collect();
    let more = if past.len() > 5 { format!(" and {} more", past.len() - 5) } else { String::new() };
    format!("{}{more}", past.iter().take(5).cloned().collect::<Vec<_>>().join(", "))
}

/// A WEAPONCLASS condition that no weapon of the list (or of the block's
/// WEAPONS condition) satisfies, when every weapon's class is known.
fn class_mismatch(script: &bg_anim_script_t, classes: &[Option<usize>]) -> Option<String> {
    let wanted = condition_bits(script, ANIM_COND_WEAPONCLASS)?;
    if wanted == 0 || classes.is_empty() || classes.iter().any(|c| c.is_none()) {
        return None;
    }
    let class_bit = |c: &Option<usize>| c.map_or(0u64, |c| if c < 64 { 1u64 << c } else { 0 });
    let all: u64 = classes.iter().map(class_bit).fold(0, |a, b| a | b);
    if all & wanted == 0 {
        return Some("no weapon of the weapon list has a class this block's 'weaponclass' names: the block can never be chosen".into());
    }
    let weapons = condition_bits(script, ANIM_COND_WEAPON)?;
    // Weapon 0 ('none') has no weapon file: leave such blocks alone.
    if weapons & 1 != 0 || weapons == 0 {
        return None;
    }
    let named: u64 = (1..64usize).filter(|&b| weapons >> b & 1 != 0).filter_map(|b| classes.get(b - 1)).map(class_bit).fold(0, |a, b| a | b);
    (named & wanted == 0).then(|| "no weapon this block's 'weapons' names has a class its 'weaponclass' names: the block can never be chosen".into())
}

fn first_token_len(text: &[u8], pos: usize) -> usize {
    trees::token_len_at(text, pos).max(1)
}

/// Where the list holding the condition block at `pos` is started again:
/// the last later header of the same list (the same section kind, state
/// and move type, state change or event, names in any case).
fn replacing_header(shape: &Outline, text: &[u8], pos: usize) -> Option<usize> {
    use uoanim_core::outline::{Item, Kind, Section};
    type Key = (u8, Vec<Vec<u8>>);
    fn name(text: &[u8], i: &Item) -> Vec<u8> {
        i.name.map_or(Vec::new(), |n| text[n.start..n.end].to_ascii_lowercase())
    }
    // every list header with its key, in text order
    fn walk(text: &[u8], items: &[Item], section: u8, path: &mut Vec<Vec<u8>>, out: &mut Vec<(Key, usize, Vec<usize>)>) {
        for i in items {
            match i.kind {
                Kind::Section(s) => {
                    let kind = match s {
                        Section::Animations => 1,
                        Section::CannedAnimations => 2,
                        Section::StateChanges => 3,
                        Section::Events => 4,
                        Section::Defines => 0,
                    };
                    walk(text, &i.children, kind, &mut Vec::new(), out);
                }
                Kind::State => {
                    path.push(name(text, i));
                    walk(text, &i.children, section, path, out);
                    path.pop();
                }
                Kind::MoveType | Kind::StateChange | Kind::Event => {
                    let mut key = path.clone();
                    key.push(name(text, i));
                    let blocks = i.children.iter().filter(|c| c.kind == Kind::Conditions).map(|c| c.head.start).collect();
                    out.push(((section, key), i.head.start, blocks));
                }
                _ => {}
            }
        }
    }
    let mut lists = Vec::new();
    walk(text, &shape.items, 0, &mut Vec::new(), &mut lists);
    let (key, header, _) = lists.iter().find(|(_, _, blocks)| blocks.contains(&pos))?;
    lists.iter().filter(|(k, h, _)| k == key && h > header).map(|(_, h, _)| *h).next_back()
}

fn cross_checks(script: &SourceFile, shape: &Outline, work: &[u8], run: &Init, setup: &Setup<'_>, xanims: Option<&BTreeSet<Vec<u8>>>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let text = &script.text;
    let table = &run.world.table;
    let obs = &run.obs;

    if setup.tree.is_none() {
        let mut d = warn(script, 0, 1, "no-tree", "no multiplayer.atr: animation names are not checked against a tree".into());
        d.severity = Severity::Note;
        out.push(d);
    } else if setup.stock_tree {
        let mut d = warn(
            script,
            0,
            1,
            "no-tree",
            format!("no multiplayer.atr found: animation names are checked against the stock United Offensive tree ({} names, built in)", crate::stock::UO_MP_TREE.len()),
        );
        d.severity = Severity::Note;
        out.push(d.with_note("the game reads the stock tree from its paks when the mod has none; give the game's folder with --game DIR to read its files, or the mod's tree with --tree FILE"));
    }
    if setup.weapons.len() > 63 {
        out.push(warn(
            script,
            0,
            1,
            "weapon-limit",
            format!("{} weapons: a weapon past the 63rd has no bit in the two condition words (the C original writes past them)", setup.weapons.len()),
        )
        .with_note(format!("past the 63rd: {}", past_63(setup.weapons))));
    }
    if setup.weapon_list == WeaponList::Stock {
        let mut d = warn(script, 0, 1, "no-weapons", format!("no weapon files found: the {} stock United Offensive multiplayer weapon names are assumed", setup.weapons.len()));
        d.severity = Severity::Note;
        out.push(d.with_note("a mod with weapons of its own: give them with --weapons DIR|FILE (a weapons/mp directory or a list, one name a line), or the game's folder with --game DIR"));
    } else if let WeaponList::AddedToStock { own, replaced } = setup.weapon_list {
        let stock = crate::stock::UO_MP_WEAPONS.len();
        let mut d = warn(
            script,
            0,
            1,
            "weapons-added",
            format!("the mod's weapon files add to the {stock} stock United Offensive weapons: {} weapons ({own} new, {replaced} replacing a stock one)", setup.weapons.len()),
        );
        d.severity = Severity::Note;
        out.push(d.with_note("the game lists the weapon files of its paks and of the mod together and numbers them in name order, case ignored (BG_SetupWeaponInfo); a mod that replaces the whole list gives it with --weapons, or the game's folder with --game DIR"));
    } else if setup.weapons.is_empty() {
        out.push(warn(script, 0, 1, "no-weapons", "the weapon list is empty: only the weapon 'none' is known".into()));
    }

    // Unused defines, and defines that select nothing.
    for &(slot, pos) in &obs.defines {
        let len = first_token_len(text, pos);
        let name = printable(&text[pos..pos + len]);
        if !obs.define_uses.contains(&slot) {
            out.push(warn(script, pos, len, "unused-define", format!("define '{name}' is never used")));
        }
        if run.world.module.data().alias_bits.get(slot).is_some_and(|b| b.words() == [0, 0]) {
            out.push(warn(script, pos, len, "never-holds", format!("define '{name}' selects nothing: a condition using it can never hold")));
        }
    }

    // Lists: unreachable blocks, conditions that never hold, replaced lists.
    let mut listed = HashSet::new();
    for (label, list) in lists(table) {
        let items = list_items(table, list);
        let mut always: Option<usize> = None;
        for &item in &items {
            listed.insert(item);
            let Some(&pos) = obs.blocks.get(&item) else { continue };
            let script_item = &table.globalItems[item];
            if let Some(earlier) = always {
                let at = obs.blocks.get(&earlier).copied().unwrap_or(0);
                let (line, _) = crate::diag::line_col(text, at);
                let mut d = warn(
                    script,
                    pos,
                    first_token_len(text, pos),
                    "unreachable-block",
                    format!("this block of '{label}' can never be chosen: the block at line {line} always matches"),
                );
                d.related.push(Related::at(&script.display, text, at, format!("this block of '{label}' always matches")));
                out.push(d);
            } else if always_matches(script_item) {
                always = Some(item);
            }
            if let Some(message) = class_mismatch(script_item, setup.classes) {
                out.push(warn(script, pos, first_token_len(text, pos), "never-holds", message));
            }
            if let Some(c) = never_holds(script_item) {
                let names = condition_names();
                let cname = names.get(script_item.conditions[c].r#type as usize).map_or(String::new(), |n| printable(n).to_lowercase());
                out.push(warn(script, pos, first_token_len(text, pos), "never-holds", format!("the '{cname}' condition of this block selects nothing: the block can never be chosen")));
            }
        }
    }
    let total = table.globalItemCount.clamp(0, BG_ANIM_MAX_GLOBAL_SCRIPTS as i32) as usize;
    for item in obs.pass1_items..total {
        if !listed.contains(&item) {
            if let Some(&pos) = obs.blocks.get(&item) {
                let message = match replacing_header(shape, text, pos) {
                    Some(at) => format!(
                        "this block is never used: the list it is in starts again at line {}, which replaces the whole list",
                        crate::diag::line_col(text, at).0
                    ),
                    None => "this block is never used: a later block for the same list replaces the whole list".into(),
                };
                out.push(warn(script, pos, first_token_len(text, pos), "replaced-block", message));
            }
        }
    }

    // Lexical traps of condition expressions (lines the parser accepted).
    let mut lines: Vec<usize> = obs.blocks.values().copied().collect();
    lines.extend(obs.defines.iter().map(|&(_, p)| p));
    lines.sort_unstable();
    lines.dedup();
    let conds = condition_names();
    let mut traps = Vec::new();
    for start in lines {
        expression_traps(script, work, start, &conds, &mut traps);
    }
    // AND is used everywhere in stock scripts: say it once per file.
    let unions = traps.iter().filter(|d| d.code == "and-union").count();
    let mut said = false;
    for d in traps {
        if d.code == "and-union" {
            if said {
                continue;
            }
            said = true;
            if unions > 1 {
                out.push(d.with_note(format!("the same holds for the other {} uses of AND in this file", unions - 1)));
                continue;
            }
        }
        out.push(d);
    }

    // Sounds that are not sound aliases.
    for (name, pos) in &obs.sounds {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(b".wav") || lower.ends_with(b".mp3") {
            out.push(warn(script, *pos, name.len(), "sound-file", format!("'{}' looks like a sound file: the engine wants a sound alias name", printable(name))));
        }
    }

    // Leaves of the multiplayer tree without an xanim asset.
    if let (Some(assets), Some(tree_file)) = (xanims, setup.tree) {
        // The stock tree's assets are in the game's paks, not read.
        if run.world.real_tree && !setup.stock_tree {
            for node in run.world.tree.nodes.iter().filter(|n| n.leaf) {
                if !assets.contains(&node.name.to_ascii_lowercase()) {
                    let (pos, len) = trees::find_name(&tree_file.text, &node.name, 0).unwrap_or((0, 1));
                    out.push(Diagnostic::at(&tree_file.display, &tree_file.text, pos, len, Severity::Warning, "missing-xanim", format!("no xanim asset '{}' in xanim/", printable(&node.name))));
                }
            }
        }
    }
    out
}

/// `AND` (a union), `MINUS`/`NOT` (which empties the expression), `none`
/// outside WEAPONS, on one condition or define line starting at `start`.
fn expression_traps(script: &SourceFile, work: &[u8], start: usize, conds: &[Vec<u8>], out: &mut Vec<Diagnostic>) {
    let mut tok = Tokenizer::new(&work[start..]);
    let mut cond: Option<usize> = None;
    let mut minus_said = false;
    let mut terms = 0;
    loop {
        let t = tok.read(false).to_vec();
        if t.is_empty() {
            break;
        }
        let pos = start + tok.token_pos();
        let bare = t.strip_suffix(b",").unwrap_or(&t);
        if let Some(c) = conds.iter().position(|n| n.eq_ignore_ascii_case(bare)) {
            cond = Some(c);
            minus_said = false;
            terms = 0;
            continue;
        }
        if t.eq_ignore_ascii_case(b"AND") {
            if terms > 0 {
                out.push(warn(script, pos, 3, "and-union", "AND is a union here: the condition holds when either side holds".into()));
            }
        } else if t.eq_ignore_ascii_case(b"MINUS") || t.eq_ignore_ascii_case(b"NOT") {
            if !minus_said {
                minus_said = true;
                out.push(warn(
                    script,
                    pos,
                    t.len(),
                    "minus",
                    format!("{} subtracts every value of the expression, also those named before it: the expression selects nothing", printable(&t)),
                ));
            }
        } else if bare.eq_ignore_ascii_case(b"none") && cond.is_some_and(|c| c != ANIM_COND_WEAPON as usize) && cond.is_some_and(|c| CONDITIONS[c].mode == ConditionMode::Bitmask) {
            out.push(warn(script, pos, 4, "none-bit0", "'none' sets bit 0 (the first value of the list), it does not mean 'no value'".into()));
            terms += 1;
        } else if t != b"=" && t != b"," {
            terms += 1;
        }
        if t.ends_with(b",") || t == b"," {
            minus_said = false;
            terms = 0;
        }
    }
}
