// The animation-tree module's C-visible globals, listed once: C name, Rust
// type, initial value and C declaration. Not a module: a single macro
// invocation `include!`d by `runtime.rs` (with `ffi::statics::module_globals`, which
// makes the exported `ModuleCell` statics and their reset) and by the header generator (`tools/headers`)
// (the C declarations of the header).
animtree_globals! {
    /// `script_activeAnimTreeHandle`: registry index of the `#using_animtree`
    /// tree (what `#animtree` pushes).
    script_activeAnimTreeHandle: i32 = 0 => "int32_t script_activeAnimTreeHandle";
    /// `script_animCurrentUsingTree`: the reference set `%name` goes to (0: none).
    script_animCurrentUsingTree: u16 = 0 => "uint16_t script_animCurrentUsingTree";
    /// `script_animCommentDepth`: depth of `/# ... #/` (written by the compiler).
    script_animCommentDepth: i32 = 0 => "int32_t script_animCommentDepth";
    /// `script_animTreeChecksum`: checksum over the trees built.
    script_animTreeChecksum: u32 = 0 => "uint32_t script_animTreeChecksum";
    /// `xanim_activePoolPayloadSlot`: registry row 0/1 (written by the engine).
    xanim_activePoolPayloadSlot: i32 = 0 => "int32_t xanim_activePoolPayloadSlot";
    /// `script_animCheckEnabled`: `com_animCheck` as `SetAnimCheck` stored it
    /// (read when a tree is parsed).
    script_animCheckEnabled: i32 = 0 => "int32_t script_animCheckEnabled";
}
