//! The module's parse session (the `Com_BeginParseSession` model) and the
//! parser side of the module as its exports see it: `BG_AnimParseAnimScript`,
//! the helpers the C parser calls (which also run on their own, continuing
//! the session), the name lookups and the diagnostics raised outside a
//! parse.
//!
//! [`PlayerAnim`] is the module as one export sees it: the parser's globals
//! ([`Module`]), the rest of its state ([`SessionGlobals`]) and the engine's
//! published pointers ([`Published`]). The callers' pointers come in as the
//! types of this file made by `unsafe` constructors ([`ScriptCall`],
//! [`Cursor`], [`CallerValues`], [`CallerRecord`], [`StringCopy`]); where a
//! caller's record lies (in the define rows, in the pool of the table in
//! use, unaligned, elsewhere) is decided here from the addresses as
//! integers.

use crate::abi::bg::*;
use crate::error::{Failure, Outcome, ParseMessage, TokenName};
use crate::flavour::Behaviour;
use crate::script::engine::ParseEngine;
pub use crate::script::module::OuterSession;
use crate::script::module::{Module, SessionGlobals};
use crate::script::parser::{self, BitsDest, ErrorContext, ParseInput, ParseRun, RuntimeNames, SessionEnd, ALIAS_COUNT};
use crate::script::tables::{self, ExternalTable, ValueTable, Values, WeaponList};
use crate::lexis::Tokenizer;
use core::ffi::{c_char, CStr};
use core::marker::PhantomData;
use core::ptr;

/// `MAX_PARSE_SESSIONS`.
pub const MAX_PARSE_SESSIONS: i32 = 16;


/// Where the state of a parse run goes when it is recorded: the text the
/// run's offsets are in (`text_len` bytes from `base`) and, for a
/// standalone helper, the caller's text pointer.
struct Sink<'r> {
    base: *const c_char,
    text_len: usize,
    parse: Option<&'r mut *mut c_char>,
}

impl Sink<'_> {
    /// The text position of `offset` (cut to the text, its NUL at most);
    /// NULL for no offset or no text.
    fn at(&self, offset: Option<usize>) -> *mut c_char {
        match offset {
            Some(o) if !self.base.is_null() => self.base.wrapping_add(o.min(self.text_len.saturating_sub(1))) as *mut c_char,
            _ => ptr::null_mut(),
        }
    }

    /// Makes `end` the current session and, for a helper, leaves `cursor`
    /// in the caller's text pointer.
    fn store(&mut self, outer: &mut OuterSession, end: &SessionEnd, cursor: Option<usize>) {
        let session = OuterSession { line: end.line, unget: end.unget, saved_parse: self.at(end.saved_parse), saved_line: end.saved_line };
        let cursor = self.at(cursor);
        if let Some(parse) = self.parse.as_deref_mut() {
            *parse = cursor;
        }
        *outer = session;
    }
}

/// The engine of a parse run of the module's own: the engine's calls, with
/// the session recorded at each checkpoint, so a `longjmp` out of the call
/// that follows leaves the session (and a helper's text pointer) where the
/// original leaves them.
struct Recording<'r, E: ParseEngine> {
    engine: &'r mut E,
    outer: &'r mut OuterSession,
    sink: Sink<'r>,
}

impl<E: ParseEngine> Recording<'_, E> {
    #[inline]
    fn store(&mut self, end: &SessionEnd, cursor: Option<usize>) {
        self.sink.store(self.outer, end, cursor);
    }
}

impl<E: ParseEngine> ParseEngine for Recording<'_, E> {
    #[inline]
    fn fs_open_read(&mut self, path: &CStr) -> (i32, i32) {
        self.engine.fs_open_read(path)
    }
    #[inline]
    fn fs_read(&mut self, buffer: &mut [u8], length: i32, handle: i32) {
        self.engine.fs_read(buffer, length, handle)
    }
    #[inline]
    fn fs_close(&mut self, handle: i32) {
        self.engine.fs_close(handle)
    }
    #[inline]
    fn find_anim(&mut self, tree: &CStr, name: &CStr, out: &mut crate::abi::common::scr_anim_t) {
        self.engine.find_anim(tree, name, out)
    }
    #[inline]
    fn sound_alias(&mut self, name: &CStr) -> *const c_char {
        self.engine.sound_alias(name)
    }
    #[inline]
    fn session_checkpoint(&mut self, end: &SessionEnd, cursor: Option<usize>) {
        self.store(end, cursor);
        self.engine.session_checkpoint(end, cursor);
    }
    #[inline]
    fn observe_block(&mut self, item: usize, line_start: Option<usize>) {
        self.engine.observe_block(item, line_start)
    }
    #[inline]
    fn observe_define(&mut self, slot: usize, name_pos: usize) {
        self.engine.observe_define(slot, name_pos)
    }
    #[inline]
    fn observe_define_use(&mut self, slot: usize) {
        self.engine.observe_define_use(slot)
    }
}

// ---- the callers' pointers --------------------------------------------------

/// The index of the element of `count` elements from `base` that `addr` is
/// the address of, if any.
fn index_in<T>(addr: usize, base: *const T, count: usize) -> Option<usize> {
    let size = core::mem::size_of::<T>();
    let offset = addr.wrapping_sub(base as usize);
    (offset < count * size && offset.is_multiple_of(size)).then(|| offset / size)
}

/// The arguments of `BG_AnimParseAnimScript`: the table, the runtime array
/// and its count the parse publishes and fills.
#[derive(Clone, Copy)]
pub struct ScriptCall<'a> {
    table: *mut bg_static_animation_table_t,
    runtime: *mut bg_runtime_animation_t,
    count: *mut i32,
    _memory: PhantomData<&'a mut bg_static_animation_table_t>,
}

impl ScriptCall<'_> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `table` is NULL
    /// or a live table, `runtime` NULL or an array of 512 records, `count`
    /// NULL or an `int32_t`, each valid and reached through nothing else
    /// (the engine's calls excepted) for `'a`.
    pub unsafe fn new(table: *mut bg_static_animation_table_t, runtime: *mut bg_runtime_animation_t, count: *mut i32) -> Self {
        ScriptCall { table, runtime, count, _memory: PhantomData }
    }
}

/// The caller's text pointer of a standalone helper (`char **parse`).
pub struct Cursor<'p> {
    slot: Option<&'p mut *mut c_char>,
}

impl<'p> Cursor<'p> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `parse` is NULL
    /// or a valid, aligned pointer that holds NULL or a pointer into a
    /// NUL-terminated text, reached through nothing else for `'p`; the text
    /// stays readable and unchanged until the next parse of the module
    /// (docs/ABI.md, "Module state": a pushed-back token restarts there).
    pub unsafe fn new(parse: *mut *mut c_char) -> Self {
        // SAFETY: guaranteed by the caller.
        Cursor { slot: unsafe { parse.as_mut() } }
    }
}

/// The value table a caller hands `BG_ParseConditionBits`: one of the
/// module's own (known by its address) or a caller's.
pub struct CallerValues<'t> {
    values: *mut bg_indexed_string_t,
    _memory: PhantomData<&'t mut bg_indexed_string_t>,
}

impl<'t> CallerValues<'t> {
    /// # Safety
    /// `values` is one of the module's value tables, or as
    /// [`ExternalTable::new`] for `'t`.
    pub unsafe fn new(values: *mut bg_indexed_string_t) -> Self {
        CallerValues { values, _memory: PhantomData }
    }

    /// The table to look values up in.
    fn resolve(self, m: &Module<'_>) -> Values<'t> {
        use ValueTable as V;
        let known: [(*const bg_indexed_string_t, V); 8] = [
            (m.weapon_strings.as_ptr(), V::Weapons),
            (m.weapon_class_str.as_ptr(), V::WeaponClass),
            (m.mounted_str.as_ptr(), V::Mounted),
            (m.vehicle_str.as_ptr(), V::Vehicle),
            (m.vehicle_motion_str.as_ptr(), V::VehicleMotion),
            (m.group_str.as_ptr(), V::MoveTypes),
            (m.weapon_position_str.as_ptr(), V::WeaponPosition),
            (m.strafe_str.as_ptr(), V::Strafe),
        ];
        match known.iter().find(|(p, _)| core::ptr::eq(*p, self.values)) {
            Some(&(_, v)) => Values::Module(v),
            // SAFETY: not one of the module's tables: a caller's, as the
            // constructor's contract states.
            None => Values::External(unsafe { ExternalTable::new(self.values) }),
        }
    }
}

/// A caller's record a helper parses into (`bg_condition_bits_t *bits`,
/// `bg_anim_script_t *script`): NULL, in one of the module's arrays, or
/// elsewhere, aligned or not.
pub struct CallerRecord<'r, T> {
    record: *mut T,
    _memory: PhantomData<&'r mut T>,
}

impl<'r, T: Copy> CallerRecord<'r, T> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `record` is
    /// NULL or valid for reads and writes of a `T` at any alignment for
    /// `'r`, and reached through nothing else then; a record of the
    /// module's own arrays (the define rows, the pool of the table in use)
    /// is reached only through them.
    pub unsafe fn new(record: *mut T) -> Self {
        CallerRecord { record, _memory: PhantomData }
    }

    fn is_null(&self) -> bool {
        self.record.is_null()
    }

    fn address(&self) -> usize {
        self.record as usize
    }

    /// A copy of the record (not NULL).
    fn read(&self) -> T {
        // SAFETY: not NULL (checked by the callers); the constructor's
        // contract.
        unsafe { self.record.read_unaligned() }
    }

    /// Stores `value` into the record (not NULL).
    fn write(&mut self, value: T) {
        // SAFETY: as `read`.
        unsafe { self.record.write_unaligned(value) }
    }

    /// The record itself, when it is not NULL and is aligned.
    fn in_place(self) -> Result<&'r mut T, Self> {
        match self.record.is_aligned() {
            // SAFETY: the constructor's contract; aligned, so a reference
            // may be formed.
            true => unsafe { self.record.as_mut() }.ok_or(self),
            false => Err(self),
        }
    }
}

/// The text and the buffer of `BG_CopyStringIntoBuffer`, which may overlap
/// (a string stored in the buffer earlier): no reference to either is
/// formed, the copy is a `memmove`.
pub struct StringCopy<'a> {
    text: *const c_char,
    len: usize,
    buffer: *mut c_char,
    size: usize,
    _memory: PhantomData<&'a mut c_char>,
}

impl StringCopy<'_> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `text` is NULL
    /// or a NUL-terminated string, `buffer` NULL or valid for writes of
    /// `size` bytes, both for `'a`.
    pub unsafe fn new(text: *const c_char, buffer: *mut c_char, size: u32) -> Self {
        // SAFETY: guaranteed by the caller.
        let len = unsafe { crate::cstr::c_bytes(text) }.map_or(0, <[u8]>::len);
        StringCopy { text, len, buffer, size: size as usize, _memory: PhantomData }
    }
}

// ---- the module --------------------------------------------------------------

/// The engine's globals the parser side publishes and reads:
/// `bgAnimStaticTable`, `bgRuntimeAnimations`, `bgRuntimeAnimationCount`.
pub struct Published<'a> {
    pub table: &'a mut *mut bg_static_animation_table_t,
    pub runtime: &'a mut *mut bg_runtime_animation_t,
    pub count: &'a mut *mut i32,
}

impl<'a> SessionGlobals<'a> {
    /// The script path while set (`bgPlayerAnimScriptPath`).
    fn path(&self) -> Option<&'a CStr> {
        // SAFETY: the path global holds NULL or a C string that outlives
        // the view: the module's literal, or one the engine stored (the
        // contract under which a `SessionGlobals` is made, see
        // `PlayerAnim::new`).
        unsafe { crate::cstr::c_str(*self.path) }
    }

    /// The context of a diagnostic raised outside the parse loop.
    pub fn context(&self) -> ErrorContext<'a> {
        ErrorContext { path: self.path(), line: self.outer.line }
    }

    /// `BG_IndexForString`: the index of `name` in `strings`; -1, or the
    /// "unknown token" diagnostic unless `allow_missing`, when it is not
    /// there.
    pub fn index_for_string<'n>(&self, name: &'n [u8], mut strings: ExternalTable<'_>, allow_missing: bool) -> Result<i32, Failure<'n>>
    where
        'a: 'n,
    {
        let index = strings.index_of(name, tables::string_hash(name));
        if index < 0 && !allow_missing {
            return Err(self.context().error(ParseMessage::UnknownToken, TokenName::plain(name)));
        }
        Ok(index)
    }

    /// `BG_CopyStringIntoBuffer`: the copy of the text and its NUL at
    /// `*used`, which advances past them; NULL for a NULL buffer or counter.
    pub fn copy_string_into_buffer(&self, copy: StringCopy<'_>, used: Option<&mut i32>) -> Result<*mut c_char, Failure<'a>> {
        let Some(used) = used else { return Ok(ptr::null_mut()) };
        if copy.buffer.is_null() {
            return Ok(ptr::null_mut());
        }
        let offset = parser::reserve_string_space(self.context(), copy.len, copy.size, used)?;
        let out = copy.buffer.wrapping_add(offset);
        // SAFETY: `offset + len < size` (checked above): the copy and its
        // NUL lie in the caller's buffer; the text is the caller's string
        // (the constructor's contract) and may overlap the buffer.
        unsafe {
            if copy.len != 0 {
                ptr::copy(copy.text, out, copy.len);
            }
            *out.add(copy.len) = 0;
        }
        Ok(out)
    }
}

/// The module as one export sees it.
pub struct PlayerAnim<'a> {
    m: Module<'a>,
    g: SessionGlobals<'a>,
    p: Published<'a>,
    behaviour: Behaviour,
}

impl<'a> PlayerAnim<'a> {
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): the names of
    /// `m`'s tables as for [`ModuleData::module`](crate::script::module::ModuleData::module);
    /// the script path of `g` is NULL or a C string, and the position its
    /// session saved is NULL or in a text still readable (the script buffer,
    /// or the text of the last standalone helper call: docs/ABI.md, "Module
    /// state"); the published pointers are as the arguments of
    /// [`ScriptCall::new`]; all of it valid, and reached through nothing else
    /// (the engine's calls excepted), for `'a`.
    pub unsafe fn new(globals: (Module<'a>, SessionGlobals<'a>), p: Published<'a>, behaviour: Behaviour) -> Self {
        PlayerAnim { m: globals.0, g: globals.1, p, behaviour }
    }

    /// `BG_InitWeaponStrings`.
    pub fn init_weapon_strings(&mut self, weapons: WeaponList<'_>) {
        self.m.init_weapon_strings(weapons);
    }

    /// `BG_AnimParseAnimScript`: loads the script once, publishes the
    /// pointers, rebuilds the weapon strings and parses (pass 1 with a
    /// runtime array, pass 2 without) in a parse session of its own.
    /// (The view is used up: a failure names the script's tokens, which
    /// stay borrowed from the module's buffer for `'a`.)
    pub fn parse_anim_script<E: ParseEngine>(self, engine: &mut E, weapons: WeaponList<'_>, call: ScriptCall<'_>) -> Result<(), Failure<'a>> {
        let PlayerAnim { mut m, g, p, behaviour } = self;
        let path = g.path();
        if *g.loaded == 0 {
            parser::load_script(g.script, path, engine)?;
            *g.loaded = 1;
        }
        *p.table = call.table;
        *p.runtime = call.runtime;
        *p.count = call.count;
        m.init_weapon_strings(weapons);
        // Divergence: a NULL table (the C would crash) parses nothing.
        // SAFETY: the call's table (ScriptCall::new).
        let Some(table) = (unsafe { call.table.as_mut() }) else { return Ok(()) };
        if *g.sessions >= MAX_PARSE_SESSIONS - 1 {
            return Err(Failure::SessionOverflow);
        }
        *g.sessions += 1;
        // Divergence: an array without a count pointer parses like pass 2.
        // SAFETY: the call's array and count (ScriptCall::new).
        let runtime = unsafe { RuntimeNames::engine(call.runtime, call.count) };
        let text: &'a [u8] = &g.script[..];
        // The session current before this parse: it is current again when
        // the parse succeeds (the engine calls of the parse record theirs
        // in between, for a `longjmp` out of them).
        let previous = *g.outer;
        let sink = Sink { base: text.as_ptr().cast(), text_len: text.len(), parse: None };
        let mut recording = Recording { engine, outer: &mut *g.outer, sink };
        let input = ParseInput { table, runtime, engine: &mut recording, path, text, behaviour };
        let (outcome, end) = parser::parse_script(m.reborrow(), input);
        if outcome.is_err() {
            // The abandoned session stays current, as in the original.
            recording.store(&end, None);
        } else {
            *recording.outer = previous;
        }
        outcome?;
        *g.path = ptr::null();
        *g.sessions -= 1;
        Ok(())
    }

    /// `BG_AnimationIndexForString`: registers (pass 1) or finds (pass 2)
    /// an animation name.
    pub fn animation_index_for_string<'n, E: ParseEngine>(&mut self, engine: &mut E, name: &'n [u8]) -> Result<i32, Failure<'n>>
    where
        'a: 'n,
    {
        // SAFETY: the published array and count, and the published table
        // (PlayerAnim::new); the registrations are not in the table.
        let (runtime, table) = unsafe { (RuntimeNames::engine(*self.p.runtime, *self.p.count), (*self.p.table).as_ref()) };
        let (entries, entry_count): (&[bg_static_animation_t], i32) = match table {
            Some(t) => (&t.entries[..], t.entryCount),
            None => (&[], 0),
        };
        parser::animation_index_for_string(self.g.context(), name, entries, entry_count, runtime, engine)
    }

    /// `BG_AnimationForString`: the published table's entry named `name`.
    pub fn animation_for_string<'n>(&mut self, name: &'n [u8]) -> Result<*mut bg_static_animation_t, Failure<'n>> {
        let hash = tables::string_hash(name);
        // SAFETY: the published table (PlayerAnim::new).
        if let Some(t) = unsafe { (*self.p.table).as_mut() } {
            let count = t.entryCount.clamp(0, BG_ANIM_MAX_ANIMATIONS as i32) as usize;
            for entry in t.entries[..count].iter_mut() {
                if hash == entry.hash && tables::same_name(name, tables::field_name(entry.name_bytes())) {
                    return Ok(entry as *mut bg_static_animation_t);
                }
            }
        }
        Err(Failure::NoAnimation { name })
    }

    /// `BG_GetAnimString`: the name field of entry `index` of the published
    /// table (NULL without one); an index out of range is the parser's
    /// diagnostic.
    pub fn get_anim_string(&mut self, index: u32) -> Result<*mut c_char, Failure<'a>> {
        // SAFETY: the published table (PlayerAnim::new).
        let Some(table) = (unsafe { (*self.p.table).as_mut() }) else { return Ok(ptr::null_mut()) };
        let Some(index) = crate::script::runtime::checked_entry_index(table, index) else {
            // The original raises through `BG_AnimParseError` with this
            // literal as its format (no conversions).
            let message = TokenName::plain(b"BG_GetAnimString: anim index is out of range");
            return Err(self.g.context().error(ParseMessage::Formatted, message));
        };
        Ok(table.entries[index].name.as_mut_ptr().cast())
    }

    /// `BG_GetAnimationForIndex`: entry `index` of the published table
    /// (NULL without one); an index out of range is an error.
    pub fn get_animation_for_index(&mut self, index: u32) -> Outcome<*mut bg_static_animation_t> {
        // SAFETY: the published table (PlayerAnim::new).
        let Some(table) = (unsafe { (*self.p.table).as_mut() }) else { return Ok(ptr::null_mut()) };
        let Some(index) = crate::script::runtime::checked_entry_index(table, index) else {
            return Err(crate::script::runtime::get_animation_for_index_error());
        };
        Ok(&mut table.entries[index])
    }

    /// The pass-1 registrations: `bgRuntimeAnimations[0 .. *bgRuntimeAnimationCount]`,
    /// the count bounded to 0..=512; empty when either pointer is NULL.
    fn registrations(&self) -> &[bg_runtime_animation_t] {
        let (array, count) = (*self.p.runtime, *self.p.count);
        if array.is_null() || count.is_null() {
            return &[];
        }
        // SAFETY: the published count and array (PlayerAnim::new), which
        // holds the registrations the count claims.
        unsafe { core::slice::from_raw_parts(array, usize::try_from(*count).unwrap_or(0).min(BG_ANIM_MAX_ANIMATIONS)) }
    }

    /// `BG_LoadAnimForAnimIndex`: the first registration of node `index`
    /// (NULL without a table or a registration).
    pub fn load_anim_for_anim_index(&mut self, index: u32) -> Outcome<*mut bg_runtime_animation_t> {
        // SAFETY: the published table (PlayerAnim::new).
        let Some(table) = (unsafe { (*self.p.table).as_ref() }) else { return Ok(ptr::null_mut()) };
        let found = crate::script::runtime::load_anim_for_anim_index(table.entryCount, self.registrations(), index)?;
        Ok(found.map_or(ptr::null_mut(), |i| self.p.runtime.wrapping_add(i)))
    }

    /// `BG_PlayAnimName`: the animation's index (registering the name in
    /// pass 1, or raising), then `BG_PlayAnim` with it (-1 without a player).
    #[allow(clippy::too_many_arguments)]
    pub fn play_anim_name<'n, E: ParseEngine>(
        &mut self,
        engine: &mut E,
        name: &'n [u8],
        player: Option<&mut playerState_t>,
        body_part: u32,
        set_timer: bool,
        restart_same: bool,
        force: bool,
    ) -> Result<i32, Failure<'n>>
    where
        'a: 'n,
    {
        // The lookup runs first (it may register the name, or raise).
        let index = self.animation_index_for_string(engine, name)?;
        let Some(player) = player else { return Ok(-1) };
        // SAFETY: the published table (PlayerAnim::new).
        let entries = unsafe { (*self.p.table).as_ref() }.map_or(&[][..], |t| &t.entries[..]);
        Ok(crate::script::runtime::play_anim(entries, player, index as u32, body_part, 0, set_timer, restart_same, force))
    }

    /// `BG_FinalizePlayerAnims`: rebuilds the entries of the published
    /// table from its tree, then runs pass 2 (`BG_AnimParseAnimScript(table,
    /// NULL, NULL)`) and `BG_SetupAnimNoteTypes(table)`, as the original.
    pub fn finalize_player_anims<P: ParseEngine, F: crate::script::runtime::engine::FinalizeEngine<Tree = *mut crate::abi::common::XAnim>, A: crate::arith::Arith>(
        self,
        parse: &mut P,
        finalize: &mut F,
        x87: A,
        weapons: WeaponList<'_>,
    ) -> Result<(), Failure<'a>> {
        let published = *self.p.table;
        {
            // SAFETY: the published table (PlayerAnim::new); the
            // registrations live in engine memory outside it.
            let Some(table) = (unsafe { published.as_mut() }) else { return Ok(()) };
            crate::script::finalize::rebuild_entries(self.behaviour, x87, table, self.registrations(), finalize)?;
        }
        // SAFETY: the published table (PlayerAnim::new), without an array.
        let call = unsafe { ScriptCall::new(published, ptr::null_mut(), ptr::null_mut()) };
        self.parse_anim_script(parse, weapons, call)?;
        // SAFETY: the published table (PlayerAnim::new), which the parse
        // published again.
        if let Some(table) = unsafe { published.as_mut() } {
            crate::script::finalize::setup_anim_note_types(table);
        }
        Ok(())
    }

    /// The run of a standalone helper: it continues the outer session at the
    /// caller's cursor (or, after a pushed-back token, where the last read
    /// started) over the published table (or the scratch one), then leaves
    /// the cursor in the caller's text pointer and its state as the current
    /// session (also when `body` fails: the original would leave them so
    /// when raising).
    fn helper<'c, E: ParseEngine + 'static, R>(
        &mut self,
        engine: &mut E,
        cursor: Cursor<'c>,
        body: impl for<'x> FnOnce(&mut ParseRun<'x, 'c, Recording<'x, E>>) -> Result<R, Failure<'c>>,
    ) -> Result<R, Failure<'c>>
    where
        'a: 'c,
    {
        let Some(parse) = cursor.slot else { return Err(Failure::NullDataPointer) };
        let session = *self.g.outer;
        // A pushed-back token restarts the first read where the last one
        // started (every helper begins with an unget-aware read).
        let (base, line) = if session.unget && !session.saved_parse.is_null() {
            (session.saved_parse, session.saved_line)
        } else {
            (*parse as *const c_char, session.line)
        };
        // SAFETY: the caller's text (Cursor::new) or the one the session's
        // last read was in (PlayerAnim::new), NUL-terminated and unchanged
        // while parsed.
        let text: &'c [u8] = unsafe { crate::cstr::c_str(base) }.map_or(&[], CStr::to_bytes_with_nul);
        let tok = if base.is_null() { Tokenizer::at_null(line) } else { Tokenizer::with_line(text, line) };
        let path = self.g.path();
        // SAFETY: the published table (PlayerAnim::new), or the module's own.
        let table = match unsafe { (*self.p.table).as_mut() } {
            Some(t) => t,
            None => &mut *self.g.scratch,
        };
        // SAFETY: the published array and count (PlayerAnim::new).
        let runtime = unsafe { RuntimeNames::engine(*self.p.runtime, *self.p.count) };
        let sink = Sink { base, text_len: text.len(), parse: Some(parse) };
        let mut recording = Recording { engine, outer: &mut *self.g.outer, sink };
        let mut run = ParseRun {
            tok,
            m: self.m.reborrow(),
            table,
            runtime,
            engine: &mut recording,
            path,
            behaviour: self.behaviour,
            ix: parser::Indexes::new(),
        };
        let outcome = body(&mut run);
        let (saved_parse, saved_line) = run.tok.saved();
        let end = SessionEnd { line: run.tok.line(), unget: run.tok.is_ungotten(), saved_parse, saved_line };
        let cursor = run.tok.cursor();
        run.engine.store(&end, cursor);
        outcome
    }

    /// `BG_ParseConditionBits`: a bitmask value expression, into a define
    /// row or the caller's record.
    pub fn parse_condition_bits<'c, E: ParseEngine + 'static>(
        &mut self,
        engine: &mut E,
        cursor: Cursor<'c>,
        values: CallerValues<'_>,
        condition: i32,
        mut bits: CallerRecord<'_, bg_condition_bits_t>,
    ) -> Result<(), Failure<'c>>
    where
        'a: 'c,
    {
        // Divergence: a NULL result pointer parses nothing.
        if bits.is_null() {
            return Ok(());
        }
        let mut table = values.resolve(&self.m);
        if let Some(index) = index_in(bits.address(), self.m.alias_bits.as_ptr(), ALIAS_COUNT) {
            return self.helper(engine, cursor, |run| {
                let mut unused = bg_condition_bits_t::ZERO;
                run.parse_condition_bits(&mut table, condition, BitsDest::Alias(index), &mut unused)
            });
        }
        // The caller's record may lie inside the published table (the run
        // holds `&mut` to it) or be unaligned: parse into a copy and store
        // it back, also when the parse fails (the original leaves its
        // partial writes in place when it raises).
        let mut target = bits.read();
        let outcome = self.helper(engine, cursor, |run| run.parse_condition_bits(&mut table, condition, BitsDest::Local, &mut target));
        bits.write(target);
        outcome
    }

    /// `BG_ParseConditions`: one condition line into the caller's script.
    pub fn parse_conditions<'c, E: ParseEngine + 'static>(
        &mut self,
        engine: &mut E,
        cursor: Cursor<'c>,
        mut script: CallerRecord<'_, bg_anim_script_t>,
    ) -> Result<i32, Failure<'c>>
    where
        'a: 'c,
    {
        // Divergence: a NULL script parses nothing and gives qfalse.
        if script.is_null() {
            return Ok(0);
        }
        // The script is usually one of the published table's pool (the run
        // holds `&mut` to that table) and may be unaligned: parse into a
        // copy and store it back, also when the parse fails. The parse reads
        // nothing of the table's pool, so the result is the same.
        let mut target = script.read();
        let outcome = self.helper(engine, cursor, |run| run.parse_conditions(&mut target));
        script.write(target);
        outcome
    }

    /// `BG_ParseCommands`: the command lines of one script. Entries are
    /// read and stamped in the published table (the `animations` argument is
    /// that table's `entries` in every call of the original).
    pub fn parse_commands<'c, E: ParseEngine + 'static>(
        &mut self,
        engine: &mut E,
        cursor: Cursor<'c>,
        script: CallerRecord<'_, bg_anim_script_t>,
    ) -> Result<(), Failure<'c>>
    where
        'a: 'c,
    {
        // SAFETY: the published table (PlayerAnim::new), or the module's own.
        let items = match unsafe { (*self.p.table).as_ref() } {
            Some(t) => t.globalItems.as_ptr(),
            None => self.g.scratch.globalItems.as_ptr(),
        };
        if let Some(index) = index_in(script.address(), items, BG_ANIM_MAX_GLOBAL_SCRIPTS).filter(|_| !script.is_null()) {
            return self.helper(engine, cursor, |run| run.parse_commands(Some(index), &mut bg_anim_script_t::ZERO.clone()));
        }
        // Divergence: a NULL script parses into a discarded scratch.
        if script.is_null() {
            let mut scratch = bg_anim_script_t::ZERO;
            return self.helper(engine, cursor, |run| run.parse_commands(None, &mut scratch));
        }
        let mut script = match script.in_place() {
            // Written in place: the engine may longjmp out of the parse
            // (Scr_FindAnim), leaving the partial writes as the original.
            Ok(target) => return self.helper(engine, cursor, |run| run.parse_commands(None, target)),
            Err(script) => script,
        };
        // An unaligned script (no reference may be formed to it) is parsed
        // in a copy stored back afterwards, also on failure.
        let mut target = script.read();
        let outcome = self.helper(engine, cursor, |run| run.parse_commands(None, &mut target));
        script.write(target);
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::Zeroed;
    use crate::script::module::{initial, ModuleData};
    use std::boxed::Box;
    use std::ffi::CString;

    /// An engine the helpers below never reach.
    struct Unreached;

    impl ParseEngine for Unreached {
        fn fs_open_read(&mut self, _path: &CStr) -> (i32, i32) {
            unreachable!()
        }
        fn fs_read(&mut self, _buffer: &mut [u8], _length: i32, _handle: i32) {
            unreachable!()
        }
        fn fs_close(&mut self, _handle: i32) {
            unreachable!()
        }
        fn find_anim(&mut self, _tree: &CStr, _name: &CStr, _out: &mut crate::abi::common::scr_anim_t) {
            unreachable!()
        }
        fn sound_alias(&mut self, _name: &CStr) -> *const c_char {
            unreachable!()
        }
    }

    /// The module's globals and published pointers in owned storage (no
    /// table published: the helpers use the scratch one).
    struct Fixture {
        data: Box<ModuleData>,
        script: Box<[u8; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE]>,
        loaded: i32,
        path: *const c_char,
        sessions: i32,
        outer: OuterSession,
        scratch: Box<bg_static_animation_table_t>,
        table: *mut bg_static_animation_table_t,
        runtime: *mut bg_runtime_animation_t,
        count: *mut i32,
    }

    impl Fixture {
        fn new() -> Self {
            let data = Box::new(ModuleData::INITIAL);
            Fixture {
                data,
                script: Zeroed::boxed_zeroed(),
                loaded: 0,
                path: initial::path,
                sessions: 0,
                outer: OuterSession::INITIAL,
                scratch: Zeroed::boxed_zeroed(),
                table: ptr::null_mut(),
                runtime: ptr::null_mut(),
                count: ptr::null_mut(),
            }
        }

        fn pa(&mut self) -> PlayerAnim<'_> {
            let g = SessionGlobals {
                script: &mut self.script,
                loaded: &mut self.loaded,
                path: &mut self.path,
                sessions: &mut self.sessions,
                outer: &mut self.outer,
                scratch: &mut self.scratch,
                // SAFETY: the module's literal path, no saved position.
                _vouched: unsafe { crate::script::module::Vouched::new() },
            };
            let p = Published { table: &mut self.table, runtime: &mut self.runtime, count: &mut self.count };
            // SAFETY: the tables hold the initial literals, the path is the
            // module's literal, no position is saved, nothing is published.
            unsafe { PlayerAnim::new((self.data.module(), g), p, Behaviour::Linux) }
        }
    }

    #[test]
    fn a_record_is_an_element_only_at_an_element_address() {
        let rows = [bg_condition_bits_t::ZERO; 4];
        let base = rows.as_ptr();
        let size = core::mem::size_of::<bg_condition_bits_t>();
        assert_eq!(index_in(base as usize, base, 4), Some(0));
        assert_eq!(index_in(base as usize + 3 * size, base, 4), Some(3));
        assert_eq!(index_in(base as usize + 4 * size, base, 4), None);
        assert_eq!(index_in(base as usize + 1, base, 4), None);
        assert_eq!(index_in((base as usize).wrapping_sub(size), base, 4), None);
        assert_eq!(index_in(0, base, 4), None);
    }

    #[test]
    fn a_stored_position_is_cut_to_the_text() {
        let text = b"ab\0";
        let sink = Sink { base: text.as_ptr().cast(), text_len: text.len(), parse: None };
        assert_eq!(sink.at(Some(1)), text[1..].as_ptr() as *mut c_char);
        assert_eq!(sink.at(Some(9)), text[2..].as_ptr() as *mut c_char);
        assert!(sink.at(None).is_null());
        let no_text = Sink { base: ptr::null(), text_len: 0, parse: None };
        assert!(no_text.at(Some(0)).is_null());
    }

    #[test]
    fn a_helper_continues_the_session_and_leaves_the_cursor() {
        let mut f = Fixture::new();
        let text = CString::new("MOUNTED MG42\nVEHICLE TANK\n").unwrap();
        let mut cursor = text.as_ptr() as *mut c_char;
        let mut script = bg_anim_script_t::ZERO;
        // SAFETY: a live cursor into a C string and a live script.
        let (c, r) = unsafe { (Cursor::new(&mut cursor), CallerRecord::new(&mut script)) };
        assert_eq!(f.pa().parse_conditions(&mut Unreached, c, r).unwrap(), 1);
        assert_eq!(script.conditionCount, 1);
        assert_eq!(script.conditions[0].r#type, ANIM_COND_MOUNTED);
        assert_eq!(script.conditions[0].value[0], 1);
        // The line ends the conditions; the next call starts on the next line.
        let rest = unsafe { crate::cstr::c_bytes(cursor) }.unwrap();
        assert!(rest.ends_with(b"VEHICLE TANK\n"), "{rest:?}");
        let mut second = bg_anim_script_t::ZERO;
        // SAFETY: as above.
        let (c, r) = unsafe { (Cursor::new(&mut cursor), CallerRecord::new(&mut second)) };
        assert_eq!(f.pa().parse_conditions(&mut Unreached, c, r).unwrap(), 1);
        assert_eq!(second.conditions[0].r#type, ANIM_COND_VEHICLE);
        assert_eq!(f.outer.line, 3);
    }

    #[test]
    fn a_helper_without_a_cursor_is_the_tokenizer_error() {
        let mut f = Fixture::new();
        let mut script = bg_anim_script_t::ZERO;
        // SAFETY: no cursor; a live script.
        let (c, r) = unsafe { (Cursor::new(ptr::null_mut()), CallerRecord::new(&mut script)) };
        let e = f.pa().parse_conditions(&mut Unreached, c, r).unwrap_err();
        assert_eq!(e.text(None).as_bytes(), b"\x15Com_ParseExt: NULL data_p");
    }

    #[test]
    fn condition_bits_go_to_a_define_row_or_to_the_caller_record() {
        let mut f = Fixture::new();
        let text = CString::new("MG42 AND vehDriver\n").unwrap();
        let values = f.data.mounted_str.as_mut_ptr();
        let row = f.data.alias_bits[5..].as_mut_ptr();
        let mut cursor = text.as_ptr() as *mut c_char;
        // SAFETY: the module's own table and define row, a live cursor.
        let (c, v, b) = unsafe { (Cursor::new(&mut cursor), CallerValues::new(values), CallerRecord::new(row)) };
        f.pa().parse_condition_bits(&mut Unreached, c, v, ANIM_COND_MOUNTED, b).unwrap();
        assert_eq!(f.data.alias_bits[5].words(), [0b110, 0]);
        // (A fresh session: this one has the end of the line pushed back,
        // which the next helper would read first.)
        let mut f = Fixture::new();
        let values = f.data.mounted_str.as_mut_ptr();
        let mut cursor = text.as_ptr() as *mut c_char;
        let mut local = bg_condition_bits_t::ZERO;
        // SAFETY: as above, and a live record of the caller's.
        let (c, v, b) = unsafe { (Cursor::new(&mut cursor), CallerValues::new(values), CallerRecord::new(&mut local)) };
        f.pa().parse_condition_bits(&mut Unreached, c, v, ANIM_COND_MOUNTED, b).unwrap();
        assert_eq!(local.words(), [0b110, 0]);
    }
}
