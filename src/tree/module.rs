//! The animation-tree module as one export call sees it: the registry state
//! and the engine-owned globals it uses, with one method per export of the
//! script side (`src/ffi/animtree/runtime.rs`).
//!
//! The exports make a [`TreeModule`] over the module's statics and call one of
//! its methods; what each global means and who writes it is said here, once.

use super::registry::{AnimTrees, CellAddr, Globals, TreeAddr, TreeEngine};
use crate::error::{Failure, Outcome};
use core::ffi::CStr;

/// The engine of the exports: its trees and cells are engine memory.
pub type EngineMemory<'e> = dyn TreeEngine<Tree = TreeAddr, Cell = CellAddr, Failure = Failure<'static>> + 'e;

/// The module's state and globals, borrowed for one export call.
pub struct TreeModule<'a> {
    /// The registry, the reference sets, the parsed trees.
    pub trees: &'a mut AnimTrees,
    /// `script_activeAnimTreeHandle`: registry index of the `#using_animtree`
    /// tree (what `#animtree` pushes); written by `Scr_UsingTree`.
    pub active_tree_handle: &'a mut i32,
    /// `script_animCurrentUsingTree`: the reference set `%name` goes to (0:
    /// none); written by `Scr_UsingTree`.
    pub current_using_tree: &'a mut u16,
    /// `script_animCommentDepth`: depth of `/# ... #/`, written by the
    /// script compiler.
    pub comment_depth: i32,
    /// `xanim_activePoolPayloadSlot` (the registry row, 0 or 1, written by
    /// the engine) and `script_animTreeChecksum` (the checksum over the
    /// trees built), as the registry takes them.
    pub globals: Globals<'a>,
    /// `script_animCheckEnabled`: `com_animCheck` as `SetAnimCheck` stored
    /// it; a tree parse reads it.
    pub anim_check: &'a mut i32,
}

impl TreeModule<'_> {
    /// `SetAnimCheck`: non-zero keeps every node of every tree (no pruning).
    pub fn set_anim_check(&mut self, enabled: i32) {
        *self.anim_check = enabled;
    }


    /// `Scr_UsingTree`: `#using_animtree("name")`; the tree becomes the
    /// active one and its reference set the current one.
    pub fn using_tree(&mut self, engine: &mut EngineMemory<'_>, name: &CStr, source_pos: u32) -> Outcome<()> {
        let (using, index) = self.trees.using_tree(engine, &mut self.globals, name, source_pos)?;
        *self.active_tree_handle = index;
        *self.current_using_tree = using;
        Ok(())
    }

    /// `Scr_UsingTreeInternal`: registers a tree name; its reference set and
    /// registry index.
    pub fn using_tree_internal(&mut self, engine: &mut EngineMemory<'_>, filename: &CStr) -> Outcome<(u16, i32)> {
        self.trees.using_tree_internal(engine, &mut self.globals, filename)
    }

    /// `Scr_EmitAnimation`: `%name` in script code, for the operand `cell`.
    pub fn emit_animation(&mut self, engine: &mut EngineMemory<'_>, cell: CellAddr, anim_handle: u16, source_pos: u32) -> Outcome<()> {
        self.trees.emit_animation(engine, cell, anim_handle, source_pos, *self.current_using_tree, self.comment_depth)
    }

    /// `Scr_FindAnim`: a C-side reference to the `scr_anim_t` at `cell`.
    pub fn find_anim(&mut self, engine: &mut EngineMemory<'_>, tree_name: &CStr, anim_name: &CStr, cell: CellAddr) -> Outcome<()> {
        self.trees.find_anim(engine, &mut self.globals, tree_name, anim_name, cell, self.comment_depth)
    }

    /// `Scr_LoadAnimTreeAtIndex`: builds one registered tree.
    pub fn load_at_index(&mut self, engine: &mut EngineMemory<'_>, tree_index: i32) -> Outcome<()> {
        self.trees.set_anim_check(*self.anim_check);
        self.trees.load_at_index(engine, &mut self.globals, tree_index)
    }

    /// `Scr_FindAnimTree`: the built tree of a registered name, or 0.
    pub fn find_anim_tree(&mut self, engine: &mut EngineMemory<'_>, filename: &CStr) -> TreeAddr {
        self.trees.find_anim_tree(engine, filename)
    }

    /// `coduo_script_compat_anim_release_unresolved_ref_sidecars`, which the
    /// engine's `Scr_BeginLoadAnimTrees` and `Scr_EndLoadAnimTrees` call:
    /// drops the registry of the load.
    pub fn load_boundary(&mut self) {
        self.trees.end_load();
    }
}
