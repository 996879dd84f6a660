// The engine-owned data symbols the animation-tree module uses, listed once:
// C name, Rust type and C declaration (upstream's types). The engine's
// storage file defines them (server `src/server/standalone/
// engine_global_storage.c`, client `src/client/engine/scripting/
// script_global_storage.c`); the unit imports them and defines none. Not a
// module: a single macro invocation `include!`d by `runtime.rs` (which makes
// the extern declarations) and by the header generator (`tools/headers`: the C
// declarations of the header).
animtree_globals! {
    /// `script_activeAnimTreeHandle`: registry index of the `#using_animtree`
    /// tree (what `#animtree` pushes).
    script_activeAnimTreeHandle: i32 => "int32_t script_activeAnimTreeHandle";
    /// `script_animCurrentUsingTree`: the reference set `%name` goes to (0: none).
    script_animCurrentUsingTree: u16 => "uint16_t script_animCurrentUsingTree";
    /// `script_animCommentDepth`: depth of `/# ... #/` (written by the compiler).
    script_animCommentDepth: i32 => "int32_t script_animCommentDepth";
    /// `script_animTreeChecksum`: checksum over the trees built.
    script_animTreeChecksum: u32 => "uint32_t script_animTreeChecksum";
    /// `xanim_activePoolPayloadSlot`: registry slot 0/1 (written by the engine).
    xanim_activePoolPayloadSlot: i32 => "int32_t xanim_activePoolPayloadSlot";
    /// `script_animCheckEnabled`: `com_animCheck` as `SetAnimCheck` stored it
    /// (read when a tree is parsed).
    script_animCheckEnabled: i32 => "int32_t script_animCheckEnabled";
    /// `script_animTreeCounts[slot]`: trees registered in the slot (the
    /// engine's Begin zeroes it, `Scr_UsingTreeInternal` counts).
    script_animTreeCounts: [i32; 2] => "int32_t script_animTreeCounts[2]";
    /// `script_animTrees[slot][i]`: tree `i` as `Scr_LoadAnimTreeAtIndex`
    /// built it (the engine's readers in `script_value.c` use this row).
    script_animTrees: [[*mut XAnim; 128]; 2] => "XAnim *script_animTrees[2][128]";
    /// `script_animTreeHandles`: the registry's handles in the original (the
    /// unit keeps its own; not used).
    script_animTreeHandles: [[u16; 128]; 2] => "uint16_t script_animTreeHandles[2][128]";
    /// `script_animTreeRoot`: the engine's registry object (Begin/End).
    script_animTreeRoot: u16 => "uint16_t script_animTreeRoot";
    /// `script_animCurrentTreeRoot`: the original's temporary parse root
    /// (the engine's Begin zeroes it, its End releases it; not used).
    script_animCurrentTreeRoot: u16 => "uint16_t script_animCurrentTreeRoot";
    /// `script_animParseStart`: the original's parse text (not used).
    script_animParseStart: *const c_char => "const char *script_animParseStart";
    /// `script_animParseState`: the original's parse cursor (not used).
    script_animParseState: *mut c_char => "char *script_animParseState";
    /// `script_loadAnimTreesActive`: 1 between the engine's Begin and End.
    script_loadAnimTreesActive: u8 => "uint8_t script_loadAnimTreesActive";
    /// `script_codeEnd`: set by the engine's End (not used).
    script_codeEnd: *mut u8 => "uint8_t *script_codeEnd";
}
