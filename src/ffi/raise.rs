//! The engine's error functions and the one function that calls them.
//!
//! Private to `ffi`: the safe core cannot name these imports, so it cannot
//! `longjmp` over its own frames.

use crate::cell::ModuleCell;
use crate::error::{Failure, Report, Text};
use core::ffi::{c_char, c_int};

extern "C" {
    /// `void Com_Error(errorParm_t code, const char *format, ...)` — never returns.
    fn Com_Error(code: c_int, format: *const c_char, ...) -> !;
}

// The game module's Windows build (upstream `bg_animation_services.h` and
// `com_parse_error_binding.h` under `WINDOWS_BEHAVIOR`).
#[cfg(feature = "game_windows")]
extern "C" {
    /// `void G_Error(const char *format, ...)` — no level; never returns.
    fn G_Error(format: *const c_char, ...) -> !;
}

#[cfg(any(feature = "engine", feature = "client"))]
extern "C" {
    /// `void CompileError(uint32_t sourcePos, const char *format, ...)` — never returns.
    fn CompileError(source_pos: u32, format: *const c_char, ...) -> !;
    /// `void CompileError2(script_codepos_t codePos, const char *format, ...)` — never returns.
    fn CompileError2(code_pos: *mut u8, format: *const c_char, ...) -> !;
}

/// The text being raised: static, so the raising frame owns nothing.
static RAISED: ModuleCell<Text> = ModuleCell::new(Text::new());

const PERCENT_S: &[u8] = b"%s\0";

/// The name table the unit's failures name names of by id: the
/// animation-tree module's.
///
/// # Safety
/// Single-threaded module contract; no export is running any more (the
/// guard's closure has returned).
#[cfg(any(feature = "engine", feature = "client"))]
unsafe fn unit_names<'a>() -> Option<&'a crate::names::Names> {
    // SAFETY: forwarded contract.
    Some(unsafe { super::animtree::names() })
}

/// The player-animation units have no name table: their failures name
/// nothing by id.
///
/// # Safety
/// None needed; `unsafe` as the other units' version.
#[cfg(not(any(feature = "engine", feature = "client")))]
unsafe fn unit_names<'a>() -> Option<&'a crate::names::Names> {
    None
}

/// Writes the text of `failure` into the static buffer and hands it to the
/// engine's error function. Never returns.
///
/// # Safety
/// Must be called from an exported frame that owns nothing with a
/// destructor (see [`guard`](super::guard)), after the export's closure
/// returned; what the failure borrows (the caller's strings and text, engine
/// memory) is still valid: the exported call has not returned.
pub(super) unsafe fn raise(failure: Failure<'_>) -> ! {
    // SAFETY: single-threaded module contract (crate::cell); the references
    // end before the engine is called. The name table is the module's state
    // as the failing export left it.
    let text = unsafe { RAISED.get() };
    text.clear();
    failure.write(unsafe { unit_names() }, text);
    let message = text.as_bytes_with_nul().as_ptr() as *const c_char;
    let format = PERCENT_S.as_ptr() as *const c_char;
    #[cfg(feature = "game_windows")]
    if failure.through_game_error() {
        // SAFETY: "%s" with a NUL-terminated static buffer.
        unsafe { G_Error(format, message) }
    }
    match failure.report() {
        // SAFETY: "%s" with a NUL-terminated static buffer.
        Report::Error { level } => unsafe { Com_Error(level, format, message) },
        #[cfg(any(feature = "engine", feature = "client"))]
        // SAFETY: as above.
        Report::Compile { source_pos } => unsafe { CompileError(source_pos, format, message) },
        #[cfg(any(feature = "engine", feature = "client"))]
        // SAFETY: the code position is the engine's own pointer, passed back.
        Report::Compile2 { code_pos } => unsafe { CompileError2(code_pos as *mut u8, format, message) },
        #[cfg(not(any(feature = "engine", feature = "client")))]
        // The player-animation core never produces compile errors; the
        // module has no CompileError import, so report them as ERR_DROP.
        // SAFETY: as above.
        Report::Compile { .. } | Report::Compile2 { .. } => unsafe { Com_Error(crate::error::level::DROP, format, message) },
    }
}
