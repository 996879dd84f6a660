//! `uoanim check` and `uoanim explain`: the library's own parsers and
//! runtime (its safe Rust core) run over mod and game files.
//!
//! * [`input`] finds the files of a game or mod directory;
//! * [`script`] runs the engine's player-animation init over a script with
//!   the library's functions, resumes after each error, and cross-checks;
//! * [`trees`] loads `.atr` files through the library's tree registry;
//! * [`explain`] asks the library's runtime which block it picks;
//! * [`diag`] holds and prints the diagnostics.

pub mod diag;
pub mod explain;
pub mod input;
pub mod script;
pub mod trees;

use diag::{Diagnostic, Severity};
use input::Inputs;
use std::collections::HashSet;

/// Every diagnostic code, with its default severity (docs/CHECK.md).
pub const CODES: &[(&str, Severity)] = &[
    ("load", Severity::Error),
    ("parse", Severity::Error),
    ("tree", Severity::Error),
    ("finalize", Severity::Error),
    ("pass2", Severity::Error),
    ("anim-not-in-tree", Severity::Error),
    ("atr", Severity::Error),
    ("atr-animcheck", Severity::Warning),
    ("no-tree", Severity::Warning),
    ("no-weapons", Severity::Warning),
    ("unused-define", Severity::Warning),
    ("unreachable-block", Severity::Warning),
    ("never-holds", Severity::Warning),
    ("replaced-block", Severity::Warning),
    ("and-union", Severity::Warning),
    ("minus-rest", Severity::Warning),
    ("none-bit0", Severity::Warning),
    ("sound-file", Severity::Warning),
    ("missing-xanim", Severity::Warning),
];

/// The result of `check`.
pub struct Report {
    /// In file order.
    pub diags: Vec<Diagnostic>,
    /// The script's module state after a clean init (for `explain`).
    pub world: Option<script::World>,
    pub obs: Option<script::Observed>,
}

impl Report {
    /// The first error the engine raises, if any.
    pub fn engine_first(&self) -> Option<&Diagnostic> {
        self.diags.iter().find(|d| d.engine_first)
    }

    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Checks everything found: the script (with the tree and weapons found)
/// and every tree. Codes in `allow` are left out (never the engine's first
/// error).
pub fn check(inputs: &Inputs, allow: &HashSet<String>) -> Report {
    let weapons: Vec<Vec<u8>> = inputs.weapons.clone().unwrap_or_default();
    let mp_tree = inputs.multiplayer_tree();
    let mut diags = Vec::new();
    let mut world = None;
    let mut obs = None;
    let mut registrations: Vec<Vec<u8>> = Vec::new();
    if let Some(s) = &inputs.script {
        let setup = script::Setup { weapons: &weapons, tree: mp_tree };
        let report = script::check_script(s, &setup, inputs.xanims.as_ref());
        diags.extend(report.diags);
        world = report.world;
        obs = report.obs;
        // The names pass 1 references (also when a later step fails).
        let first = script::init(&s.text, &script::Setup { weapons: &weapons, tree: None });
        registrations = first.obs.registrations.iter().map(|r| r.name.clone()).collect();
    }
    // The engine stops at the script's first error (the multiplayer tree
    // is loaded within the script's init); otherwise the first tree error.
    let script_has_engine_error = diags.iter().any(|d| d.engine_first);
    for tree in &inputs.trees {
        let mut refs: Vec<&[u8]> = Vec::new();
        if tree.name == "multiplayer" && inputs.script.is_some() {
            refs.extend([&b"root"[..], b"torso", b"legs", b"turning"]);
            refs.extend(registrations.iter().map(|r| r.as_slice()));
        }
        let mut found = trees::check_tree(tree, &refs);
        if script_has_engine_error || diags.iter().any(|d| d.engine_first) {
            found.iter_mut().for_each(|d| d.engine_first = false);
        }
        diags.extend(found);
    }
    diag::sort(&mut diags, &inputs.file_order());
    diags.retain(|d| d.engine_first || !allow.contains(d.code));
    Report { diags, world, obs }
}
