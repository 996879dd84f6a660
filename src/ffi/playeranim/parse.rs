//! Parser-side exports of the player animation-script module and the data
//! symbols the C module defines.
#![allow(non_snake_case, non_upper_case_globals)]

use super::engine;
use super::{bgAnimStaticTable, bgRuntimeAnimationCount, bgRuntimeAnimations, bg_numWeapons, bg_weaponInfos, bgs};
use crate::abi::bg::*;
use crate::abi::common::scr_anim_t;
use crate::cell::ModuleCell;
use crate::error::{Failure, Outcome, ParseMessage, TokenName};
use crate::ffi::guard;
use crate::flavour::BEHAVIOUR;
use crate::script::engine::ParseEngine;
use crate::script::parser::{self, ErrorContext, Module, ParseInput, RuntimeNames, SessionEnd};
use crate::script::tables::{self, c_string};
use core::ffi::{c_char, c_int, CStr};

// ---- data symbols of the module --------------------------------------------

/// Entries of the define windows: 16 per condition type.
const ALIAS_COUNT: usize = ANIM_COND_COUNT * BG_ANIM_CONDITION_VALUE_COUNT;

/// cbindgen:ignore
type S = bg_indexed_string_t;

const fn cond_type(mode: i32, values: *mut S) -> bg_anim_condition_type_t {
    bg_anim_condition_type_t { mode, values }
}

crate::cell::module_globals! {
    fn reset_globals;
    /// `bg_indexed_string_t weaponStrings[MAX_WEAPONS]`.
    #[no_mangle]
    pub static weaponStrings: ModuleCell<[S; MAX_WEAPONS]> = parser::initial::weapon_strings;
    /// `animStateStr`.
    #[no_mangle]
    pub static animStateStr: ModuleCell<[S; 5]> = parser::initial::state_str;
    /// `bgAnimGroupStrings`.
    #[no_mangle]
    pub static bgAnimGroupStrings: ModuleCell<[S; 19]> = parser::initial::group_str;
    /// `bgAnimEventStrings`.
    #[no_mangle]
    pub static bgAnimEventStrings: ModuleCell<[S; 17]> = parser::initial::event_str;
    /// `animBodyPartsStr`.
    #[no_mangle]
    pub static animBodyPartsStr: ModuleCell<[S; 5]> = parser::initial::body_parts_str;
    /// `animMountedStr`.
    #[no_mangle]
    pub static animMountedStr: ModuleCell<[S; 9]> = parser::initial::mounted_str;
    /// `animVehicleMotionStr`.
    #[no_mangle]
    pub static animVehicleMotionStr: ModuleCell<[S; 5]> = parser::initial::vehicle_motion_str;
    /// `animVehicleStr`.
    #[no_mangle]
    pub static animVehicleStr: ModuleCell<[S; 5]> = parser::initial::vehicle_str;
    /// `animWeaponClassStr`.
    #[no_mangle]
    pub static animWeaponClassStr: ModuleCell<[S; 12]> = parser::initial::weapon_class_str;
    /// `animWeaponPositionStr`.
    #[no_mangle]
    pub static animWeaponPositionStr: ModuleCell<[S; 3]> = parser::initial::weapon_position_str;
    /// `animStrafeStateStr`.
    #[no_mangle]
    pub static animStrafeStateStr: ModuleCell<[S; 4]> = parser::initial::strafe_str;
    /// `bgAnimConditionTypeStrings`.
    #[no_mangle]
    pub static bgAnimConditionTypeStrings: ModuleCell<[S; 12]> = parser::initial::condition_type_str;
    /// `bgAnimParseSectionStrings`.
    #[no_mangle]
    pub static bgAnimParseSectionStrings: ModuleCell<[S; 6]> = parser::initial::section_str;
    /// `bgAnimConditionTypes`: mode and value table per condition type.
    #[no_mangle]
    pub static bgAnimConditionTypes: ModuleCell<[bg_anim_condition_type_t; ANIM_COND_COUNT]> = [
        cond_type(ANIM_CONDMODE_BITMASK, weaponStrings.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_BITMASK, animWeaponClassStr.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_EQUAL, animMountedStr.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_EQUAL, animVehicleStr.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_EQUAL, animVehicleMotionStr.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_BITMASK, bgAnimGroupStrings.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_EQUAL, core::ptr::null_mut()),
        cond_type(ANIM_CONDMODE_EQUAL, core::ptr::null_mut()),
        cond_type(ANIM_CONDMODE_EQUAL, core::ptr::null_mut()),
        cond_type(ANIM_CONDMODE_EQUAL, animWeaponPositionStr.as_ptr() as *mut S),
        cond_type(ANIM_CONDMODE_EQUAL, animStrafeStateStr.as_ptr() as *mut S),
    ];
    /// `bg_anim_move_type_t bgAnimParseCurrentAnimGroup`.
    #[no_mangle]
    pub static bgAnimParseCurrentAnimGroup: ModuleCell<i32> = parser::initial::current_anim_group;
    /// `bg_anim_event_t bgAnimParseCurrentEvent`.
    #[no_mangle]
    pub static bgAnimParseCurrentEvent: ModuleCell<i32> = parser::initial::current_event;
    /// `bgAnimConditionAliases[ANIM_COND_COUNT * 16]`.
    #[no_mangle]
    pub static bgAnimConditionAliases: ModuleCell<[S; ALIAS_COUNT]> = parser::initial::aliases;
    /// `bgAnimConditionAliasBits[ANIM_COND_COUNT * 16]`.
    #[no_mangle]
    pub static bgAnimConditionAliasBits: ModuleCell<[bg_condition_bits_t; ALIAS_COUNT]> = parser::initial::alias_bits;
    /// `bgAnimConditionAliasCounts[ANIM_COND_COUNT]`.
    #[no_mangle]
    pub static bgAnimConditionAliasCounts: ModuleCell<[i32; ANIM_COND_COUNT]> = parser::initial::alias_counts;
    /// `bgAnimConditionAliasStringBuffer[10000]`.
    #[no_mangle]
    pub static bgAnimConditionAliasStringBuffer: ModuleCell<[u8; BG_ANIM_CONDITION_ALIAS_STRING_BUFFER_SIZE]> = parser::initial::alias_buffer;
    /// `bgAnimConditionAliasStringUsed`.
    #[no_mangle]
    pub static bgAnimConditionAliasStringUsed: ModuleCell<i32> = parser::initial::alias_used;
    /// `bgAnimScriptFileBuffer[100000]`: the script text, loaded once.
    #[no_mangle]
    pub static bgAnimScriptFileBuffer: ModuleCell<[u8; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE]> = [0; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE];
    /// `bgAnimScriptLoaded`.
    #[no_mangle]
    pub static bgAnimScriptLoaded: ModuleCell<i32> = 0;
    /// `const char *bgPlayerAnimScriptPath` = "mp/playeranim.script"; NULL after a parse.
    #[no_mangle]
    pub static bgPlayerAnimScriptPath: ModuleCell<*const c_char> = c"mp/playeranim.script".as_ptr();
    /// Open parse sessions (`com_numParseSessions`): a parse abandoned by an
    /// error leaves its session open, as in the original.
    static PARSE_SESSIONS: ModuleCell<i32> = 0;
    /// The parse session outside any parse of the module's own.
    static OUTER_SESSION: ModuleCell<OuterSession> = OuterSession { line: 1, unget: false, saved_parse: core::ptr::null(), saved_line: 1 };

}

/// The table the standalone helpers use while no table is published
/// (divergence: the C original would dereference NULL where it reads one).
/// Reset with its bytes (it is large), not through `module_globals!`.
/// cbindgen:ignore
static SCRATCH_TABLE: ModuleCell<bg_static_animation_table_t> =
    // SAFETY: the table is integers, raw pointers and a union of pointers,
    // for all of which all-zero bits are valid.
    ModuleCell::new(unsafe { core::mem::zeroed() });

/// `MAX_PARSE_SESSIONS`.
const MAX_PARSE_SESSIONS: i32 = 16;

/// `void uoanim_playeranim_reset(void)`: returns the module to its freshly
/// loaded state — every global the library defines gets its initial value
/// again (the exported ones, the script buffer and its loaded flag, the
/// script path, the define windows, the parse position and the count of open
/// parse sessions). The engine's own globals (`bgs`, `bgAnimStaticTable`,
/// …) are left as they are. Not a function of the C original: the engine
/// gets the same effect by loading the module afresh (docs/ABI.md).
///
/// # Safety
/// Module contract: not called while another export of the unit runs.
#[no_mangle]
pub unsafe extern "C" fn uoanim_playeranim_reset() {
    guard(|| {
        // SAFETY: module contract; no reference into a global is live
        // between exports.
        unsafe {
            reset_globals();
            core::ptr::write_bytes(SCRATCH_TABLE.as_ptr(), 0, 1);
        }
        Ok(())
    })
}

/// Borrows every parser global.
///
/// # Safety
/// Single-threaded module contract (crate::cell); the references must not
/// outlive the export that takes them. The tables' names are what the
/// module wrote (its literals, the engine's weapon names, define names in
/// its own static buffer), or what the engine wrote into the exported
/// tables, under the same contract (docs/ABI.md, "Raw engine memory").
unsafe fn module<'a>() -> Module<'a> {
    // SAFETY: see above; every cell is a distinct static.
    unsafe {
        Module {
            weapon_strings: weaponStrings.get(),
            state_str: animStateStr.get(),
            group_str: bgAnimGroupStrings.get(),
            event_str: bgAnimEventStrings.get(),
            body_parts_str: animBodyPartsStr.get(),
            mounted_str: animMountedStr.get(),
            vehicle_motion_str: animVehicleMotionStr.get(),
            vehicle_str: animVehicleStr.get(),
            weapon_class_str: animWeaponClassStr.get(),
            weapon_position_str: animWeaponPositionStr.get(),
            strafe_str: animStrafeStateStr.get(),
            condition_type_str: bgAnimConditionTypeStrings.get(),
            section_str: bgAnimParseSectionStrings.get(),
            current_anim_group: bgAnimParseCurrentAnimGroup.get(),
            current_event: bgAnimParseCurrentEvent.get(),
            aliases: bgAnimConditionAliases.get(),
            alias_bits: bgAnimConditionAliasBits.get(),
            alias_counts: bgAnimConditionAliasCounts.get(),
            alias_buffer: bgAnimConditionAliasStringBuffer.get(),
            alias_used: bgAnimConditionAliasStringUsed.get(),
        }
    }
}

/// The script path while set.
///
/// # Safety
/// Single-threaded module contract; the path is NULL or a C string.
unsafe fn script_path<'a>() -> Option<&'a CStr> {
    // SAFETY: the path global holds NULL or a NUL-terminated string (our
    // literal, or one the engine stored).
    unsafe {
        let p = *bgPlayerAnimScriptPath.get();
        if p.is_null() {
            None
        } else {
            Some(CStr::from_ptr(p))
        }
    }
}

/// The context of a diagnostic raised outside the parse loop.
///
/// # Safety
/// As [`script_path`].
unsafe fn outside_context<'a>() -> ErrorContext<'a> {
    // SAFETY: forwarded contract.
    unsafe { ErrorContext { path: script_path(), line: OUTER_SESSION.get().line } }
}

// ---- engine --------------------------------------------------------------

/// The engine imports the parser uses, and where the parse session in
/// progress (if any) is kept while the engine is called.
pub(crate) struct Engine {
    session: SessionSink,
}

/// The parse session an [`Engine`] records before engine calls.
#[derive(Clone, Copy)]
enum SessionSink {
    /// No parse session of the module's own (file loading, lookups).
    None,
    /// The script parse of `BG_AnimParseAnimScript`, text at `base`.
    Script { base: *const c_char },
    /// A standalone helper over the caller's text (`text_len` bytes with
    /// the NUL, from `base`) and text pointer `parse`.
    Helper { base: *const c_char, text_len: usize, parse: *mut *mut c_char },
}

impl Engine {
    /// An engine outside any parse session of the module.
    const fn without_session() -> Engine {
        Engine { session: SessionSink::None }
    }
}

impl ParseEngine for Engine {
    fn fs_open_read(&mut self, path: &CStr) -> (i32, i32) {
        let mut handle: c_int = 0;
        // SAFETY: NUL-terminated path and a live handle slot.
        let length = unsafe { engine::fs_open_read(path.as_ptr(), &mut handle) };
        (length, handle)
    }

    fn fs_read(&mut self, buffer: &mut [u8], length: i32, handle: i32) {
        let length = length.clamp(0, buffer.len() as i32);
        // SAFETY: the buffer holds at least `length` bytes.
        unsafe { engine::fs_read(buffer.as_mut_ptr().cast(), length, handle) }
    }

    fn fs_close(&mut self, handle: i32) {
        // SAFETY: plain value.
        unsafe { engine::fs_close(handle) }
    }

    fn find_anim(&mut self, tree: &CStr, name: &CStr, out: &mut scr_anim_t) {
        // SAFETY: NUL-terminated strings and a live output record.
        unsafe { engine::find_anim(tree.as_ptr(), name.as_ptr(), out) }
    }

    fn session_checkpoint(&mut self, end: &SessionEnd, cursor: Option<usize>) {
        // SAFETY: module contract; the pointers are the ones the run was
        // made for (see SessionSink).
        unsafe {
            match self.session {
                SessionSink::None => {}
                SessionSink::Script { base } => store_script_session(base, end),
                SessionSink::Helper { base, text_len, parse } => store_helper_session(base, text_len, parse, end, cursor),
            }
        }
    }

    fn sound_alias(&mut self, name: &CStr) -> *const c_char {
        // The original reads the callback through the published table
        // pointer cast to `bgs_t`; the table is `bgs.animationTable`, so
        // this is `bgs.soundAliasCallback` (divergence for any other table:
        // still bgs's callback, never memory past a foreign table).
        // SAFETY: reads one field of the game's `bgs`, outside the table.
        let callback = unsafe { core::ptr::addr_of!((*bgs.as_ptr()).soundAliasCallback).read() };
        match callback {
            // SAFETY: the engine's callback with a NUL-terminated name.
            Some(f) => unsafe { f(name.as_ptr()) },
            // Divergence (NULL callback): no alias.
            None => core::ptr::null(),
        }
    }
}

// ---- exports ---------------------------------------------------------------

/// Rebuilds `weaponStrings` from the engine's weapon list.
///
/// # Safety
/// Single-threaded module contract.
unsafe fn init_weapon_strings(m: &mut Module<'_>) {
    // SAFETY: engine globals read as the C original reads them; a NULL
    // weapon record gives a NULL name (divergence: the C would crash). The
    // weapon names are engine memory that outlives the module's use.
    unsafe {
        let count = (*bg_numWeapons.get()).clamp(0, MAX_WEAPONS as i32 - 1) as usize;
        let infos = *bg_weaponInfos.get();
        let names = (1..=count).map(|i| {
            if infos.is_null() {
                return tables::TableName::NULL;
            }
            let info = *infos.add(i);
            if info.is_null() {
                tables::TableName::NULL
            } else {
                tables::TableName::new((*info).pickupName)
            }
        });
        m.init_weapon_strings(names);
    }
}

/// `void BG_InitWeaponStrings(void)`.
#[no_mangle]
pub unsafe extern "C" fn BG_InitWeaponStrings() {
    guard(|| {
        // SAFETY: single-threaded module contract.
        unsafe { init_weapon_strings(&mut module()) };
        Ok(())
    })
}

/// `void BG_AnimParseAnimScript(table, runtimeAnimations, runtimeAnimationCount)`.
#[no_mangle]
pub unsafe extern "C" fn BG_AnimParseAnimScript(
    table: *mut bg_static_animation_table_t,
    runtimeAnimations: *mut bg_runtime_animation_t,
    runtimeAnimationCount: *mut i32,
) {
    // SAFETY: single-threaded module contract; the pointers are the
    // caller's (a table, a 512-record array and an int, or NULLs).
    guard(|| unsafe { parse_anim_script(table, runtimeAnimations, runtimeAnimationCount) })
}

/// The body of `BG_AnimParseAnimScript`.
///
/// # Safety
/// As the export.
unsafe fn parse_anim_script(
    table: *mut bg_static_animation_table_t,
    runtime: *mut bg_runtime_animation_t,
    count: *mut i32,
) -> Outcome<()> {
    // SAFETY: every global is accessed under the module contract; engine
    // calls happen while this frame owns only plain values and references.
    unsafe {
        let mut engine = Engine::without_session();
        if *bgAnimScriptLoaded.get() == 0 {
            parser::load_script(bgAnimScriptFileBuffer.get(), script_path(), &mut engine)?;
            *bgAnimScriptLoaded.get() = 1;
        }
        *bgAnimStaticTable.get() = table;
        *bgRuntimeAnimations.get() = runtime;
        *bgRuntimeAnimationCount.get() = count;
        let mut m = module();
        init_weapon_strings(&mut m);
        // Divergence: a NULL table (the C would crash) parses nothing.
        let Some(table) = table.as_mut() else { return Ok(()) };
        let sessions = PARSE_SESSIONS.get();
        if *sessions >= MAX_PARSE_SESSIONS - 1 {
            return Err(Failure::SessionOverflow);
        }
        *sessions += 1;
        let runtime_names = match (runtime.is_null(), count.as_mut()) {
            (false, Some(count)) => Some(RuntimeNames {
                records: core::slice::from_raw_parts_mut(runtime, BG_ANIM_MAX_ANIMATIONS),
                count,
            }),
            // Divergence: an array without a count pointer parses like pass 2.
            _ => None,
        };
        let text: &[u8] = &bgAnimScriptFileBuffer.get()[..];
        let path = script_path();
        let base = text.as_ptr() as *const c_char;
        // The session current before this parse: it is current again when
        // the parse succeeds (the engine calls of the parse record theirs
        // in between, for a `longjmp` out of them).
        let previous = core::ptr::read(OUTER_SESSION.as_ptr());
        engine.session = SessionSink::Script { base };
        let input = ParseInput { table, runtime: runtime_names, engine: &mut engine, path, text, behaviour: BEHAVIOUR };
        let (outcome, end) = parser::parse_script(m, input);
        if outcome.is_err() {
            // The abandoned session stays current, as in the original.
            store_script_session(base, &end);
        } else {
            *OUTER_SESSION.get() = previous;
        }
        outcome?;
        *bgPlayerAnimScriptPath.get() = core::ptr::null();
        *sessions -= 1;
        Ok(())
    }
}

/// `int32_t BG_StringHashValue(const char *text)`.
#[no_mangle]
pub unsafe extern "C" fn BG_StringHashValue(text: *const c_char) -> i32 {
    // SAFETY: a C string from the caller (NULL hashes to 0: divergence).
    guard(|| Ok(unsafe { c_string(text) }.map_or(0, tables::string_hash)))
}

/// `int32_t BG_IndexForString(const char *name, bg_indexed_string_t *strings, qboolean allowMissing)`.
#[no_mangle]
pub unsafe extern "C" fn BG_IndexForString(name: *const c_char, strings: *mut bg_indexed_string_t, allowMissing: c_int) -> i32 {
    guard(|| {
        // SAFETY: caller's NUL-terminated name and NULL-name-terminated table.
        unsafe {
            let name_bytes = c_string(name).unwrap_or(b"");
            let mut index = -1;
            if !strings.is_null() {
                let mut len = 0usize;
                while !(*strings.add(len)).name.is_null() {
                    len += 1;
                }
                let table = core::slice::from_raw_parts_mut(strings, len + 1);
                index = tables::index_for_string(name_bytes, table, |p| c_string(p));
            }
            if index < 0 && allowMissing == 0 {
                return Err(outside_context().error(ParseMessage::UnknownToken, TokenName::plain(name_bytes)));
            }
            Ok(index)
        }
    })
}

/// `char *BG_CopyStringIntoBuffer(const char *text, char *buffer, uint32_t bufferSize, int32_t *used)`.
#[no_mangle]
pub unsafe extern "C" fn BG_CopyStringIntoBuffer(text: *const c_char, buffer: *mut c_char, bufferSize: u32, used: *mut i32) -> *mut c_char {
    guard(|| {
        // SAFETY: caller's string, buffer of `bufferSize` bytes and counter.
        // The text may lie in the buffer itself (a string stored there
        // earlier): no reference to either is held while copying, and the
        // copy is a `memmove`.
        unsafe {
            let len = c_string(text).map_or(0, <[u8]>::len);
            let Some(used) = used.as_mut() else { return Ok(core::ptr::null_mut()) };
            if buffer.is_null() {
                return Ok(core::ptr::null_mut());
            }
            let offset = parser::reserve_string_space(outside_context(), len, bufferSize as usize, used)?;
            let out = buffer.add(offset);
            if len != 0 {
                core::ptr::copy(text, out, len);
            }
            *out.add(len) = 0;
            Ok(out)
        }
    })
}

/// `int32_t BG_AnimationIndexForString(const char *name)`.
#[no_mangle]
pub unsafe extern "C" fn BG_AnimationIndexForString(name: *const c_char) -> i32 {
    // SAFETY: module contract; the published pointers are the game's.
    guard(|| unsafe {
        let name = c_string(name).unwrap_or(b"");
        let runtime_ptr = *bgRuntimeAnimations.get();
        let count_ptr = *bgRuntimeAnimationCount.get();
        let runtime = match (runtime_ptr.is_null(), count_ptr.as_mut()) {
            (false, Some(count)) => Some(RuntimeNames {
                records: core::slice::from_raw_parts_mut(runtime_ptr, BG_ANIM_MAX_ANIMATIONS),
                count,
            }),
            _ => None,
        };
        let table = *bgAnimStaticTable.get();
        let (entries, entry_count): (&[bg_static_animation_t], i32) = match table.as_ref() {
            Some(t) => (&t.entries[..], t.entryCount),
            None => (&[], 0),
        };
        parser::animation_index_for_string(outside_context(), name, entries, entry_count, runtime, &mut Engine::without_session())
    })
}

/// `bg_static_animation_t *BG_AnimationForString(const char *name)`.
#[no_mangle]
pub unsafe extern "C" fn BG_AnimationForString(name: *const c_char) -> *mut bg_static_animation_t {
    // SAFETY: module contract.
    guard(|| unsafe {
        let name = c_string(name).unwrap_or(b"");
        let hash = tables::string_hash(name);
        let table = *bgAnimStaticTable.get();
        if let Some(t) = table.as_mut() {
            let count = t.entryCount.clamp(0, BG_ANIM_MAX_ANIMATIONS as i32) as usize;
            for entry in t.entries[..count].iter_mut() {
                if hash == entry.hash && tables::same_name(name, tables::field_name(entry.name_bytes())) {
                    return Ok(entry as *mut bg_static_animation_t);
                }
            }
        }
        Err(Failure::NoAnimation { name })
    })
}

// ---- helpers called by the parser in C, exported on their own -------------

/// The parse session the standalone helpers continue (`com_parseSession`
/// outside `BG_AnimParseAnimScript`): line, pushed-back token and where the
/// last read started.
#[derive(Clone, Copy)]
struct OuterSession {
    line: i32,
    unget: bool,
    saved_parse: *const c_char,
    saved_line: i32,
}

/// Makes the state of a script parse (text at `base`) the current session.
///
/// # Safety
/// Module contract; `base` is the start of the text the offsets are in.
unsafe fn store_script_session(base: *const c_char, end: &SessionEnd) {
    // SAFETY: the saved offset lies in the parsed text.
    let saved_parse = end.saved_parse.map_or(core::ptr::null(), |o| unsafe { base.add(o) });
    let session = OuterSession { line: end.line, unget: end.unget, saved_parse, saved_line: end.saved_line };
    // SAFETY: module contract; no other reference to the cell is live.
    unsafe { *OUTER_SESSION.get() = session };
}

/// What a standalone helper leaves: the cursor in the caller's `*parse`
/// and its state as the current session.
///
/// # Safety
/// Module contract; `base` is NULL or the start of the helper's text of
/// `text_len` bytes (with the NUL); `parse` is the caller's valid pointer.
unsafe fn store_helper_session(
    base: *const c_char,
    text_len: usize,
    parse: *mut *mut c_char,
    end: &SessionEnd,
    cursor: Option<usize>,
) {
    let at = |offset: Option<usize>| match offset {
        // SAFETY: the offset is cut to the text (its NUL at most).
        Some(o) if !base.is_null() => unsafe { base.add(o.min(text_len.saturating_sub(1))) as *mut c_char },
        _ => core::ptr::null_mut(),
    };
    let session = OuterSession { line: end.line, unget: end.unget, saved_parse: at(end.saved_parse), saved_line: end.saved_line };
    // SAFETY: the caller's text pointer; module contract for the cell (no
    // other reference to it is live).
    unsafe {
        *parse = at(cursor);
        *OUTER_SESSION.get() = session;
    }
}

/// Runs `body` on a parse run that continues the outer session at `*parse`,
/// then stores the cursor back into `*parse` and the session state (also
/// when `body` fails: the original would leave them so when raising).
///
/// # Safety
/// `parse` is NULL or points to NULL or into a NUL-terminated text; module
/// contract.
unsafe fn with_session<'t, R>(
    parse: *mut *mut c_char,
    body: impl for<'x> FnOnce(&mut parser::ParseRun<'x, 't, Engine>) -> Result<R, Failure<'t>>,
) -> Result<R, Failure<'t>> {
    if parse.is_null() {
        return Err(Failure::NullDataPointer);
    }
    // SAFETY: caller contract; every global below is accessed under the
    // module contract and the text is not modified while parsed.
    unsafe {
        // A copy: the engine calls of the run record the session in the
        // cell (no reference to it is held across them).
        let session = core::ptr::read(OUTER_SESSION.as_ptr());
        // A pushed-back token restarts the first read where the last one
        // started (every helper begins with an unget-aware read).
        let (base, line) = if session.unget && !session.saved_parse.is_null() {
            (session.saved_parse, session.saved_line)
        } else {
            (*parse as *const c_char, session.line)
        };
        let text: &[u8] = if base.is_null() { &[] } else { CStr::from_ptr(base).to_bytes_with_nul() };
        let mut engine = Engine { session: SessionSink::Helper { base, text_len: text.len(), parse } };
        let tok = if base.is_null() {
            crate::script::tokenizer::Tokenizer::at_null(line)
        } else {
            crate::script::tokenizer::Tokenizer::with_line(text, line)
        };
        let table_ptr = *bgAnimStaticTable.get();
        let table = match table_ptr.as_mut() {
            Some(t) => t,
            None => SCRATCH_TABLE.get(),
        };
        let runtime_ptr = *bgRuntimeAnimations.get();
        let runtime = match (runtime_ptr.is_null(), (*bgRuntimeAnimationCount.get()).as_mut()) {
            (false, Some(count)) => Some(RuntimeNames {
                records: core::slice::from_raw_parts_mut(runtime_ptr, BG_ANIM_MAX_ANIMATIONS),
                count,
            }),
            _ => None,
        };
        let mut run = parser::ParseRun {
            tok,
            m: module(),
            table,
            runtime,
            engine: &mut engine,
            path: script_path(),
            behaviour: BEHAVIOUR,
            ix: parser::Indexes::new(),
        };
        let outcome = body(&mut run);
        let (saved_parse, saved_line) = run.tok.saved();
        let end = SessionEnd { line: run.tok.line(), unget: run.tok.is_ungotten(), saved_parse, saved_line };
        store_helper_session(base, text.len(), parse, &end, run.tok.cursor());
        outcome
    }
}

/// The module's own value table behind a pointer, or the caller's table.
///
/// # Safety
/// As [`tables::ExternalTable::new`] for a table not of the module's own.
unsafe fn value_table_of<'t>(values: *mut bg_indexed_string_t) -> tables::Values<'t> {
    use tables::ValueTable as V;
    let known: [(*mut S, V); 8] = [
        (weaponStrings.as_ptr().cast(), V::Weapons),
        (animWeaponClassStr.as_ptr().cast(), V::WeaponClass),
        (animMountedStr.as_ptr().cast(), V::Mounted),
        (animVehicleStr.as_ptr().cast(), V::Vehicle),
        (animVehicleMotionStr.as_ptr().cast(), V::VehicleMotion),
        (bgAnimGroupStrings.as_ptr().cast(), V::MoveTypes),
        (animWeaponPositionStr.as_ptr().cast(), V::WeaponPosition),
        (animStrafeStateStr.as_ptr().cast(), V::Strafe),
    ];
    match known.iter().find(|(p, _)| *p == values) {
        Some(&(_, v)) => tables::Values::Module(v),
        // SAFETY: guaranteed by the caller.
        None => tables::Values::External(unsafe { tables::ExternalTable::new(values) }),
    }
}

/// `void BG_ParseConditionBits(char **parse, bg_indexed_string_t *values, int32_t conditionIndex, bg_condition_bits_t *bits)`.
#[no_mangle]
pub unsafe extern "C" fn BG_ParseConditionBits(
    parse: *mut *mut c_char,
    values: *mut bg_indexed_string_t,
    conditionIndex: i32,
    bits: *mut bg_condition_bits_t,
) {
    // SAFETY: caller's cursor, table and result (module contract).
    guard(|| unsafe {
        // Divergence: a NULL result pointer parses nothing.
        if bits.is_null() {
            return Ok(());
        }
        let mut table = value_table_of(values);
        let alias_base = bgAnimConditionAliasBits.as_ptr() as *mut bg_condition_bits_t;
        let offset = (bits as usize).wrapping_sub(alias_base as usize);
        let size = core::mem::size_of::<bg_condition_bits_t>();
        if offset < ALIAS_COUNT * size && offset.is_multiple_of(size) {
            let index = offset / size;
            with_session(parse, |run| {
                let mut unused = bg_condition_bits_t::ZERO;
                run.parse_condition_bits(&mut table, conditionIndex, parser::BitsDest::Alias(index), &mut unused)
            })
        } else {
            // The caller's record may lie inside the published table (the
            // run holds `&mut` to it) or be unaligned: parse into a copy and
            // store it back, also when the parse fails (the original leaves
            // its partial writes in place when it raises).
            let mut target = bits.read_unaligned();
            let outcome =
                with_session(parse, |run| run.parse_condition_bits(&mut table, conditionIndex, parser::BitsDest::Local, &mut target));
            bits.write_unaligned(target);
            outcome
        }
    })
}

/// `qboolean BG_ParseConditions(char **parse, bg_anim_script_t *script)`.
#[no_mangle]
pub unsafe extern "C" fn BG_ParseConditions(parse: *mut *mut c_char, script: *mut bg_anim_script_t) -> c_int {
    // SAFETY: caller's cursor and script (module contract).
    guard(|| unsafe {
        // Divergence: a NULL script parses nothing and gives qfalse.
        if script.is_null() {
            return Ok(0);
        }
        // The script is usually one of the published table's pool (the run
        // holds `&mut` to that table) and may be unaligned: parse into a
        // copy and store it back, also when the parse fails. The parse reads
        // nothing of the table's pool, so the result is the same.
        let mut target = script.read_unaligned();
        let outcome = with_session(parse, |run| run.parse_conditions(&mut target));
        script.write_unaligned(target);
        outcome
    })
}

/// `void BG_ParseCommands(char **parse, bg_anim_script_t *script, bg_static_animation_t *animations)`.
///
/// Entries are read and stamped in the published table (`animations` is
/// that table's `entries` in every call of the original).
#[no_mangle]
pub unsafe extern "C" fn BG_ParseCommands(
    parse: *mut *mut c_char,
    script: *mut bg_anim_script_t,
    animations: *mut bg_static_animation_t,
) {
    let _ = animations;
    // SAFETY: caller's cursor and script (module contract).
    guard(|| unsafe {
        let table = *bgAnimStaticTable.get();
        let items: *mut bg_anim_script_t = match table.as_mut() {
            Some(t) => t.globalItems.as_mut_ptr(),
            None => SCRATCH_TABLE.get().globalItems.as_mut_ptr(),
        };
        let offset = (script as usize).wrapping_sub(items as usize);
        let size = core::mem::size_of::<bg_anim_script_t>();
        if !script.is_null() && offset < BG_ANIM_MAX_GLOBAL_SCRIPTS * size && offset.is_multiple_of(size) {
            let index = offset / size;
            with_session(parse, |run| run.parse_commands(Some(index), &mut bg_anim_script_t::ZERO.clone()))
        } else {
            // Divergence: a NULL script parses into a discarded scratch.
            if script.is_null() {
                let mut scratch = bg_anim_script_t::ZERO;
                return with_session(parse, |run| run.parse_commands(None, &mut scratch));
            }
            if script.is_aligned() {
                // Written in place: the engine may longjmp out of the parse
                // (Scr_FindAnim), leaving the partial writes as the original.
                let target = &mut *script;
                return with_session(parse, |run| run.parse_commands(None, target));
            }
            // An unaligned script (no reference may be formed to it) is
            // parsed in a copy stored back afterwards, also on failure.
            let mut target = script.read_unaligned();
            let outcome = with_session(parse, |run| run.parse_commands(None, &mut target));
            script.write_unaligned(target);
            outcome
        }
    })
}

// `void BG_AnimParseError(const char *format, ...)`: an assembly
// trampoline builds the `va_list` and calls `uoanim_internal_pa_parse_error_va`.
crate::ffi::varargs::variadic_trampoline!("BG_AnimParseError", "uoanim_internal_pa_parse_error_va");

/// The message `BG_AnimParseError` formats (1024 bytes, as the original's
/// buffer); the failure raised names it.
static PARSE_ERROR_MESSAGE: ModuleCell<[u8; 1024]> = ModuleCell::new([0; 1024]);

/// The body of `BG_AnimParseError` (formats into 1024 bytes like the
/// original, then raises with the path and line while the path is set).
///
/// # Safety
/// `format` and `args` form a valid `printf` call.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn uoanim_internal_pa_parse_error_va(format: *const c_char, args: *mut core::ffi::c_void) {
    guard(|| {
        // SAFETY: caller contract; the message is formatted by the C library
        // into the module's buffer (module contract: nothing else uses it
        // until the failure is raised).
        let message = unsafe { crate::ffi::varargs::format_va(PARSE_ERROR_MESSAGE.get(), format, args) };
        // SAFETY: module contract.
        Err(unsafe { outside_context() }.error(ParseMessage::Formatted, TokenName::plain(message)))
    })
}
