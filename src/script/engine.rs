//! What the parser side of the player-animation module needs from the engine.
//!
//! The FFI layer implements [`ParseEngine`] with the real imports (game:
//! `trap_FS_*`, `Scr_FindAnim`; cgame: the syscall trap and the script import
//! table; both: the sound alias callback stored in `bgs`). Unit tests use a
//! mock. Any of these calls may end in the engine's `Com_Error` and never
//! return, so callers hold only plain values across them.

use crate::abi::common::scr_anim_t;
use core::ffi::{c_char, CStr};

/// Engine services used by `BG_AnimParseAnimScript` and its helpers.
pub trait ParseEngine {
    /// `trap_FS_FOpenFile(path, &handle, FS_READ)`: returns (length, handle).
    fn fs_open_read(&mut self, path: &CStr) -> (i32, i32);
    /// `trap_FS_Read(buffer, length, handle)`; `buffer` holds at least
    /// `length` bytes.
    fn fs_read(&mut self, buffer: &mut [u8], length: i32, handle: i32);
    /// `trap_FS_FCloseFile(handle)`.
    fn fs_close(&mut self, handle: i32);
    /// `Scr_FindAnim(tree, name, out)`; may not return.
    ///
    /// `out` is the caller's record (`&runtime[count].anim`), passed to the
    /// engine as the C passes it: the engine may keep the address and fill
    /// the cell later (the engine's animation-tree precache does).
    fn find_anim(&mut self, tree: &CStr, name: &CStr, out: &mut scr_anim_t);
    /// The sound alias callback of `bgs` (reached through the table
    /// pointer): the returned pointer is stored unchanged in the command.
    /// `name` is borrowed for the call only: an engine that hands it to
    /// code that may keep it hands over a copy that lives on.
    fn sound_alias(&mut self, name: &CStr) -> *const c_char;
    /// The parse session's state just before a call above that may not
    /// return (`Scr_FindAnim`, the sound alias callback), with the cursor
    /// (`None` = NULL): what the original's session globals and text
    /// pointer hold at that call. The FFI layer makes it the current
    /// session, so a `longjmp` out of the call leaves the session (and a
    /// helper's text pointer) where the original leaves them. Default:
    /// nothing to record.
    fn session_checkpoint(&mut self, end: &SessionEnd, cursor: Option<usize>) {
        let _ = (end, cursor);
    }

    // ---- observation hooks (tools; no-ops for the engine) ----------------

    /// A condition line became pool script `item`; `line_start` is the text
    /// offset of its first token (`None`: NULL cursor). Default: nothing.
    fn observe_block(&mut self, item: usize, line_start: Option<usize>) {
        let _ = (item, line_start);
    }
    /// A define was stored in slot `slot` of the define windows; `name_pos`
    /// is the text offset of its name. Default: nothing.
    fn observe_define(&mut self, slot: usize, name_pos: usize) {
        let _ = (slot, name_pos);
    }
    /// A condition expression used the define in slot `slot`. Default:
    /// nothing.
    fn observe_define_use(&mut self, slot: usize) {
        let _ = slot;
    }
    /// A name lookup failed: the parse ends with the engine's "unknown
    /// token" error, raised right after this call. Default: nothing.
    fn observe_unknown(&mut self, kind: NameKind) {
        let _ = kind;
    }
}

/// What a failed name lookup of the parser was looking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// A state (`state NAME`, `statechange A B`).
    State,
    /// A move type (the name of a block in a state).
    MoveType,
    /// An event (in `EVENTS`).
    Event,
    /// A condition type (`weapons`, `movetype`, ... and after `set`).
    ConditionType,
    /// A body part (`torso`, `legs`, `both` of a command).
    BodyPart,
    /// A value of condition type `condition` (an index of the condition
    /// type table), not a define of it either.
    Value {
        /// The condition type.
        condition: usize,
    },
}

/// The tokenizer state a parse ends with (what `com_parseSession` holds
/// when the parse is abandoned by an error).
#[derive(Clone, Copy, Debug)]
pub struct SessionEnd {
    pub line: i32,
    pub unget: bool,
    pub saved_parse: Option<usize>,
    pub saved_line: i32,
}
