//! `BG_AnimParseAnimScript` and its helpers: defines, condition lines,
//! condition bit expressions, command lines, the animation-name lookup and
//! the string pool, with the diagnostics of the C original.
//!
//! Every quirk of the original is kept and named ("Quirk: ...") where it
//! lives; the tests at the end of the file cover each.
//!
//! The parser's failures borrow what does not change while it runs: the
//! text (`'t`: the token a diagnostic names is found again in it, see
//! [`TokenName`]) and the script path.

use crate::abi::bg::*;
use crate::error::{CText, Failure, ParseMessage, TokenName};
use crate::flavour::Behaviour;
use crate::script::engine::{NameKind, ParseEngine};
use crate::cstr::c_bytes;
use crate::script::tables::{self, same_name, string_hash, ValueTable, Values, CONDITION_TYPES};
use crate::lexis::Tokenizer;
use core::ffi::{c_char, CStr};

type S = bg_indexed_string_t;


/// A result of the parser: its failure borrows the parsed text (`'t`).
type Parsed<'t, T> = Result<T, Failure<'t>>;

pub use crate::script::engine::SessionEnd;
pub use crate::script::module::{initial, Module, ModuleData, ALIAS_COUNT};

/// Resolves a name pointer of one of the module's static tables (string
/// literals of the module or weapon names handed over by the engine).
fn static_name<'n>(name: *const c_char) -> Option<&'n [u8]> {
    // SAFETY: the module's tables hold NULL or pointers to NUL-terminated
    // strings that outlive the module (its own literals, the engine's weapon
    // names): what the unsafe code that made the `Module` vouched for, and
    // all a `Module` writes itself (see `Module`).
    unsafe { c_bytes(name) }
}

impl ModuleData {
    /// A value table by kind.
    pub fn value_table(&self, table: ValueTable) -> &[S] {
        match table {
            ValueTable::Weapons => &self.weapon_strings[..],
            ValueTable::WeaponClass => &self.weapon_class_str[..],
            ValueTable::Mounted => &self.mounted_str[..],
            ValueTable::Vehicle => &self.vehicle_str[..],
            ValueTable::VehicleMotion => &self.vehicle_motion_str[..],
            ValueTable::MoveTypes => &self.group_str[..],
            ValueTable::WeaponPosition => &self.weapon_position_str[..],
            ValueTable::Strafe => &self.strafe_str[..],
        }
    }
}

impl Module<'_> {
    /// A value table by kind.
    fn value_table(&mut self, table: ValueTable) -> &mut [S] {
        match table {
            ValueTable::Weapons => &mut self.weapon_strings[..],
            ValueTable::WeaponClass => &mut self.weapon_class_str[..],
            ValueTable::Mounted => &mut self.mounted_str[..],
            ValueTable::Vehicle => &mut self.vehicle_str[..],
            ValueTable::VehicleMotion => &mut self.vehicle_motion_str[..],
            ValueTable::MoveTypes => &mut self.group_str[..],
            ValueTable::WeaponPosition => &mut self.weapon_position_str[..],
            ValueTable::Strafe => &mut self.strafe_str[..],
        }
    }

    /// Looks `name` up in the define windows starting at condition `cond`'s
    /// window. Quirk: the scan stops only at a NULL name, so a full window
    /// (16 defines) runs on into the next condition's window.
    fn alias_index(&mut self, name: &[u8], hash: i32, cond: usize) -> i32 {
        let start = cond.saturating_mul(BG_ANIM_CONDITION_VALUE_COUNT).min(ALIAS_COUNT);
        let buffer: &[u8] = &self.alias_buffer[..];
        let base = buffer.as_ptr() as usize;
        let resolve = |p: *const c_char| -> Option<&[u8]> {
            let addr = p as usize;
            if p.is_null() {
                None
            } else if addr >= base && addr < base + buffer.len() {
                let rest = &buffer[addr - base..];
                let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
                Some(&rest[..end])
            } else {
                static_name(p)
            }
        };
        tables::index_for_string_hashed(name, hash, &mut self.aliases[start..], resolve)
    }

    /// `BG_InitWeaponStrings`, given the engine's weapon names 1..n.
    pub fn init_weapon_strings(&mut self, names: impl IntoIterator<Item = tables::TableName>) {
        for entry in self.weapon_strings.iter_mut() {
            *entry = S { name: core::ptr::null(), hash: 0 };
        }
        self.weapon_strings[0] = S { name: tables::WEAPON_NONE.as_ptr() as *const c_char, hash: string_hash(b"none") };
        for (slot, name) in self.weapon_strings.iter_mut().skip(1).zip(names) {
            slot.name = name.as_ptr();
            slot.hash = static_name(slot.name).map_or(0, string_hash);
        }
    }

    /// The define reset done at the start of every parse: names, string
    /// pool and counts (Quirk: not the define bit rows).
    fn reset_defines(&mut self) {
        for entry in self.aliases.iter_mut() {
            *entry = S { name: core::ptr::null(), hash: 0 };
        }
        self.alias_buffer.fill(0);
        self.alias_counts.fill(0);
        *self.alias_used = 0;
    }
}

/// Where diagnostics come from: the script path (while set) and the line.
#[derive(Clone, Copy)]
pub struct ErrorContext<'p> {
    /// `bgPlayerAnimScriptPath` (`None` once cleared).
    pub path: Option<&'p CStr>,
    /// `Com_GetCurrentParseLine()`.
    pub line: i32,
}

impl<'p> ErrorContext<'p> {
    /// `BG_AnimParseError(message)` naming `name` (its text:
    /// [`Failure::AnimParse`]).
    pub fn error(self, message: ParseMessage, name: TokenName<'p>) -> Failure<'p> {
        Failure::anim_parse(message, self.line, self.path, name)
    }

    /// `BG_AnimParseError(message)`, a message without a name.
    pub fn message(self, message: ParseMessage) -> Failure<'p> {
        self.error(message, TokenName::plain(b""))
    }
}

/// `BG_CopyStringIntoBuffer`: appends `text` and its NUL at `*used`;
/// returns the offset of the copy. Needs `used + len + 1 < size` (32-bit
/// unsigned arithmetic, as in C).
pub fn copy_string_into_buffer<'p>(ctx: ErrorContext<'p>, text: &[u8], buffer: &mut [u8], used: &mut i32) -> Parsed<'p, usize> {
    let start = reserve_string_space(ctx, text.len(), buffer.len(), used)?;
    // In bounds: `reserve_string_space` checked `start + len < size`.
    buffer[start..start + text.len()].copy_from_slice(text);
    buffer[start + text.len()] = 0;
    Ok(start)
}

/// The checks and the counter update of [`copy_string_into_buffer`] for a
/// text of `len` bytes and a buffer of `size` bytes: the offset where the
/// text and its NUL go (`offset + len < size` holds), `*used` advanced past
/// them. The caller copies (the exported function copies with `memmove`
/// semantics, as its text may lie in the buffer itself).
pub fn reserve_string_space<'p>(ctx: ErrorContext<'p>, len: usize, size: usize, used: &mut i32) -> Parsed<'p, usize> {
    let next = (*used as u32).wrapping_add(len as u32).wrapping_add(1);
    let out_of_space = || ctx.message(ParseMessage::OutOfBufferSpace);
    if next >= size as u32 {
        return Err(out_of_space());
    }
    // Defined result for a `used` the C original would write outside the
    // buffer with (negative, or wrapping the check): the same error.
    let start = usize::try_from(*used).map_err(|_| out_of_space())?;
    if start.checked_add(len).is_none_or(|end| end >= size) {
        return Err(out_of_space());
    }
    *used = (*used as u32).wrapping_add(len as u32 + 1) as i32;
    Ok(start)
}

/// The runtime-registration side of `BG_AnimationIndexForString`.
pub struct RuntimeNames<'a> {
    /// `bgRuntimeAnimations` (512 records).
    pub records: &'a mut [bg_runtime_animation_t],
    /// `*bgRuntimeAnimationCount`.
    pub count: &'a mut i32,
}

impl<'a> RuntimeNames<'a> {
    /// The engine's runtime array and count (`bgRuntimeAnimations`,
    /// `bgRuntimeAnimationCount`, or the arguments of the parse that
    /// publishes them); `None` unless both are set.
    ///
    /// # Safety
    /// Raw engine memory (docs/ABI.md, "Raw engine memory"): `records` is
    /// NULL or an array of 512 records, `count` NULL or an `int32_t`, valid
    /// and reached through nothing else for `'a`.
    pub unsafe fn engine(records: *mut bg_runtime_animation_t, count: *mut i32) -> Option<Self> {
        // SAFETY: guaranteed by the caller.
        match (records.is_null(), unsafe { count.as_mut() }) {
            (false, Some(count)) => Some(RuntimeNames {
                // SAFETY: as above.
                records: unsafe { core::slice::from_raw_parts_mut(records, BG_ANIM_MAX_ANIMATIONS) },
                count,
            }),
            _ => None,
        }
    }
}

/// `BG_AnimationIndexForString`.
///
/// Without a runtime array (pass 2 and later) the name is looked up in
/// `entries[0..entryCount]` by hash and case-insensitive name; a miss is an
/// error. With one (pass 1) it is looked up among the registrations and, if
/// new, registered through `Scr_FindAnim("multiplayer", name)`.
pub fn animation_index_for_string<'p>(
    ctx: ErrorContext<'p>,
    name: &'p [u8],
    entries: &[bg_static_animation_t],
    entry_count: i32,
    runtime: Option<RuntimeNames<'_>>,
    engine: &mut impl ParseEngine,
) -> Parsed<'p, i32> {
    animation_index_named(ctx, name, TokenName::plain(name), entries, entry_count, runtime, engine)
}

/// [`animation_index_for_string`] of a name its diagnostics spell as
/// `spelled` says.
fn animation_index_named<'p>(
    ctx: ErrorContext<'p>,
    name: &[u8],
    spelled: TokenName<'p>,
    entries: &[bg_static_animation_t],
    entry_count: i32,
    runtime: Option<RuntimeNames<'_>>,
    engine: &mut impl ParseEngine,
) -> Parsed<'p, i32> {
    let hash = string_hash(name);
    let Some(runtime) = runtime else {
        let count = usize::try_from(entry_count).unwrap_or(0).min(entries.len());
        for (index, entry) in entries[..count].iter().enumerate() {
            if hash == entry.hash && same_name(name, tables::field_name(entry.name_bytes())) {
                return Ok(index as i32);
            }
        }
        return Err(ctx.error(ParseMessage::UnknownAnimation, spelled));
    };
    let count = *runtime.count;
    if !(0..=BG_ANIM_MAX_ANIMATIONS as i32).contains(&count) {
        return Err(Failure::RuntimeCount { count, line: ctx.line, path: ctx.path.map(CText::new) });
    }
    let count = count as usize;
    let known = count.min(runtime.records.len());
    for (index, record) in runtime.records[..known].iter().enumerate() {
        if hash == record.hash && same_name(name, tables::field_name(record.name_bytes())) {
            return Ok(index as i32);
        }
    }
    register_runtime_name(ctx, name, hash, runtime, engine)
}

/// The registration half of `BG_AnimationIndexForString` (pass 1, the
/// name is not registered yet and the count is valid).
pub fn register_runtime_name<'p>(
    ctx: ErrorContext<'p>,
    name: &[u8],
    hash: i32,
    runtime: RuntimeNames<'_>,
    engine: &mut impl ParseEngine,
) -> Parsed<'p, i32> {
    let count = (*runtime.count).clamp(0, BG_ANIM_MAX_ANIMATIONS as i32) as usize;
    if count == BG_ANIM_MAX_ANIMATIONS || count >= runtime.records.len() {
        return Err(ctx.message(ParseMessage::TooManyRuntimeAnimations));
    }
    if name.len() >= BG_ANIM_NAME_SIZE {
        return Err(ctx.message(ParseMessage::NameTooLong));
    }
    let mut cname = [0u8; BG_ANIM_NAME_SIZE];
    cname[..name.len()].copy_from_slice(name);
    let tree = c"multiplayer";
    let record = &mut runtime.records[count];
    // The engine gets the record's own cell, as in the C: a deferred engine
    // (the animation-tree precache) fills it after this call returns.
    match CStr::from_bytes_until_nul(&cname) {
        Ok(n) => engine.find_anim(tree, n, &mut record.anim),
        Err(_) => engine.find_anim(tree, c"", &mut record.anim),
    }
    let field = name_as_bytes_mut(&mut record.name);
    field[..name.len()].copy_from_slice(name);
    field[name.len()] = 0;
    record.hash = hash;
    *runtime.count = (*runtime.count as u32).wrapping_add(1) as i32;
    // The count is the engine's int: C arithmetic, wrapping.
    Ok(runtime.count.wrapping_sub(1))
}

/// The condition-bit accumulator being parsed into.
#[derive(Clone, Copy)]
pub enum BitsDest {
    /// `bgAnimConditionAliasBits[index]` (a define).
    Alias(usize),
    /// The caller's local value.
    Local,
}

/// One run of `BG_AnimParseAnimScript` over the script text (`'t`: the
/// text and the path, which its failures borrow).
pub struct ParseRun<'a, 't, E: ParseEngine> {
    pub tok: Tokenizer<'t>,
    pub m: Module<'a>,
    pub table: &'a mut bg_static_animation_table_t,
    /// `bgRuntimeAnimations` / `bgRuntimeAnimationCount` (pass 1 only).
    pub runtime: Option<RuntimeNames<'a>>,
    pub engine: &'a mut E,
    /// `bgPlayerAnimScriptPath` while set.
    pub path: Option<&'t CStr>,
    pub behaviour: Behaviour,
    /// Lookup indexes valid for this run (the tables do not change
    /// while one parse runs).
    pub ix: Indexes<'a>,
}

/// Per-run lookup indexes of the module's string tables and of the
/// animation names (see [`tables::HashIndex`]); `'n` is the lifetime of the
/// tables' names.
pub struct Indexes<'n> {
    names: [tables::HashIndex<'n, 32>; 6],
    values: [tables::HashIndex<'n, 128>; 8],
    anims: tables::HashIndex<'n, BG_ANIM_MAX_ANIMATIONS>,
    anims_built: bool,
}

impl Indexes<'_> {
    /// Nothing indexed yet.
    pub const fn new() -> Self {
        Self {
            names: [tables::HashIndex::new(); 6],
            values: [tables::HashIndex::new(); 8],
            anims: tables::HashIndex::new(),
            anims_built: false,
        }
    }
}

impl Default for Indexes<'_> {
    fn default() -> Self {
        Self::new()
    }
}

fn value_slot(table: ValueTable) -> usize {
    match table {
        ValueTable::Weapons => 0,
        ValueTable::WeaponClass => 1,
        ValueTable::Mounted => 2,
        ValueTable::Vehicle => 3,
        ValueTable::VehicleMotion => 4,
        ValueTable::MoveTypes => 5,
        ValueTable::WeaponPosition => 6,
        ValueTable::Strafe => 7,
    }
}

/// A copy of a token (the session buffer is overwritten by the next read).
/// Only the token's bytes are written, the rest of the buffer stays
/// uninitialised.
#[derive(Clone, Copy)]
struct Tok {
    bytes: [core::mem::MaybeUninit<u8>; crate::lexis::MAX_TOKEN_CHARS],
    len: usize,
}

impl Tok {
    #[inline]
    fn of(t: &[u8]) -> Self {
        let mut bytes = [core::mem::MaybeUninit::uninit(); crate::lexis::MAX_TOKEN_CHARS];
        let len = t.len().min(bytes.len());
        for (d, s) in bytes[..len].iter_mut().zip(t) {
            d.write(*s);
        }
        Self { bytes, len }
    }
    #[inline]
    fn get(&self) -> &[u8] {
        // SAFETY: the first `len` bytes were written in `of` (and `len` only
        // ever shrinks afterwards).
        unsafe { core::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.len) }
    }
}

fn is(token: &[u8], keyword: &[u8]) -> bool {
    same_name(token, keyword)
}

fn lookup_value<'n>(m: &mut Module<'_>, ix: &mut Indexes<'n>, name: &[u8], hash: i32, table: ValueTable) -> i32 {
    tables::index_for_string_indexed(name, || hash, m.value_table(table), &mut ix.values[value_slot(table)], static_name)
}

/// The searchable entries of a section-level name table: all but its last
/// slot, the NULL-name terminator. A lookup stops at the terminator anyway;
/// leaving it out keeps every index the lookup can return inside the arrays
/// it selects, even when the engine has written a name over the terminator
/// (an exported symbol; the original would then scan on past the table).
fn names_of<'m>(m: &'m mut Module<'_>, which: Names) -> &'m mut [S] {
    let table: &'m mut [S] = match which {
        Names::Sections => &mut m.section_str[..],
        Names::States => &mut m.state_str[..],
        Names::MoveTypes => &mut m.group_str[..],
        Names::Events => &mut m.event_str[..],
        Names::ConditionTypes => &mut m.condition_type_str[..],
        Names::BodyParts => &mut m.body_parts_str[..],
    };
    let searchable = table.len().saturating_sub(1);
    &mut table[..searchable]
}

/// Which static table a section-level lookup uses.
#[derive(Clone, Copy)]
#[repr(usize)]
enum Names {
    Sections,
    States,
    MoveTypes,
    Events,
    ConditionTypes,
    BodyParts,
}

impl<'a, 't, E: ParseEngine> ParseRun<'a, 't, E> {
    fn ctx(&self) -> ErrorContext<'t> {
        ErrorContext { path: self.path, line: self.tok.line() }
    }

    /// `BG_AnimParseError(message)`, a message without a name.
    fn error(&self, message: ParseMessage) -> Failure<'t> {
        self.ctx().message(message)
    }

    /// `BG_AnimParseError(message)` naming the current token.
    fn token_error(&self, message: ParseMessage) -> Failure<'t> {
        self.ctx().error(message, TokenName::from(self.tok.spelled()))
    }

    /// `BG_IndexForString(current token, table, allowMissing)`.
    fn index_token(&mut self, which: Names, allow_missing: bool) -> Parsed<'t, i32> {
        let index = tables::index_for_string_indexed(
            self.tok.token(),
            || self.tok.token_hash(),
            names_of(&mut self.m, which),
            &mut self.ix.names[which as usize],
            static_name,
        );
        if index < 0 && !allow_missing {
            self.engine.observe_unknown(match which {
                // (sections are looked up with `allow_missing` only)
                Names::Sections | Names::States => NameKind::State,
                Names::MoveTypes => NameKind::MoveType,
                Names::Events => NameKind::Event,
                Names::ConditionTypes => NameKind::ConditionType,
                Names::BodyParts => NameKind::BodyPart,
            });
            return Err(self.token_error(ParseMessage::UnknownToken));
        }
        Ok(index)
    }

    /// The value index of the condition key `name`, whose first token
    /// starts at `key_start` in the text.
    fn index_values(&mut self, name: &[u8], hash: i32, values: &mut Values<'_>, key_start: usize) -> Parsed<'t, i32> {
        let index = match values {
            Values::Module(table) => lookup_value(&mut self.m, &mut self.ix, name, hash, *table),
            Values::External(table) => table.index_of(name, hash),
        };
        if index < 0 {
            return Err(self.ctx().error(ParseMessage::UnknownToken, TokenName::key(self.tok.text_from(key_start))));
        }
        Ok(index)
    }

    /// The main loop's rewind: move back over the token just read and check
    /// the text there spells it. Quirk: a quoted first token fails this
    /// check ("internal error"); an over-long token passes it when the text
    /// repeats, and is then re-read from its middle.
    fn rewind_and_verify(&mut self) -> Parsed<'t, ()> {
        let len = self.tok.token().len();
        self.tok.rewind(len);
        if !self.tok.cursor_spells_token() {
            return Err(self.error(ParseMessage::InternalError));
        }
        Ok(())
    }

    /// Appends a zeroed script (with the parsed conditions) to the pool and
    /// links it at the end of `list`; returns its pool index.
    fn append_script(&mut self, list: ListRef, script: &bg_anim_script_t) -> Parsed<'t, usize> {
        let list_count = self.list(list).count;
        if list_count >= BG_ANIM_MAX_LIST_ITEMS as i32 {
            return Err(self.error(ParseMessage::TooManyListItems));
        }
        let global = self.table.globalItemCount;
        if global >= BG_ANIM_MAX_GLOBAL_SCRIPTS as i32 {
            return Err(self.error(ParseMessage::TooManyGlobalItems));
        }
        // Both counts are non-negative here: they only ever grow from zero
        // (a negative count written by the engine is treated as full).
        let (Ok(slot), Ok(item)) = (usize::try_from(list_count), usize::try_from(global)) else {
            return Err(self.error(ParseMessage::TooManyGlobalItems));
        };
        let pointer = core::ptr::addr_of_mut!(self.table.globalItems[item]);
        self.table.globalItems[item] = *script;
        self.table.globalItemCount = global.wrapping_add(1);
        let list = self.list(list);
        list.scripts[slot] = pointer;
        list.count = list_count.wrapping_add(1);
        Ok(item)
    }

    fn list(&mut self, list: ListRef) -> &mut bg_anim_script_list_t {
        let t = &mut *self.table;
        match list {
            ListRef::Animations(s, m) => &mut t.animations[s][m],
            ListRef::Canned(s, m) => &mut t.canned[s][m],
            ListRef::StateChange(to, from) => &mut t.statechanges[to][from],
            ListRef::Event(e) if e < ANIM_EVENT_RELOAD => &mut t.events[e],
            ListRef::Event(e) => &mut t.scriptLists[(e - ANIM_EVENT_RELOAD).min(ANIM_SCRIPT_LIST_COUNT - 1)],
        }
    }

    /// The whole parse (after loading and publishing).
    pub fn run(&mut self) -> Parsed<'t, ()> {
        let mut nest = Nesting::START;
        let mut last_block: Option<usize> = None;
        let mut section: i32 = ANIM_SECTION_DEFINES;
        let mut scratch = bg_anim_script_t::ZERO;

        loop {
            if self.tok.read(true).is_empty() {
                break;
            }
            let s = self.index_token(Names::Sections, true)?;
            if s >= 0 {
                if nest.depth != Depth::Top {
                    return Err(self.unexpected());
                }
                section = s;
                *self.m.current_anim_group = ANIM_MT_UNUSED;
                *self.m.current_event = ANIM_EVENT_NONE;
                continue;
            }
            match section {
                ANIM_SECTION_DEFINES => self.define()?,
                ANIM_SECTION_ANIMATIONS | ANIM_SECTION_CANNED_ANIMATIONS => {
                    let token = self.tok.token();
                    if is(token, b"{") {
                        self.enter_block(&mut nest)?;
                        continue;
                    }
                    if is(token, b"}") {
                        // The list is the move type's.
                        self.leave_block(&mut nest, Depth::Outer)?;
                        continue;
                    }
                    match nest.depth {
                        // `state NAME {`: the state block, entered here.
                        Depth::Top => {
                            if nest.selected.top >= 0 {
                                return Err(self.unexpected());
                            }
                            if !is(token, b"state") {
                                return Err(self.error(ParseMessage::ExpectedState));
                            }
                            self.tok.read(false);
                            nest.selected.top = self.index_token(Names::States, false)?;
                            if !is(self.tok.read(true), b"{") {
                                return Err(self.error(ParseMessage::ExpectedBrace));
                            }
                            nest.depth = Depth::Outer;
                        }
                        // A move type: selects (and empties) its list.
                        Depth::Outer => {
                            if nest.selected.outer >= 0 {
                                return Err(self.unexpected());
                            }
                            let move_type = self.index_token(Names::MoveTypes, false)?;
                            // Divergence (undefined in C): a state row left
                            // over from an event name >= 4 is out of bounds.
                            let Ok(row) = usize::try_from(nest.selected.top) else {
                                return Err(self.unexpected());
                            };
                            if row >= ANIM_STATE_COUNT {
                                return Err(self.unexpected());
                            }
                            nest.selected.outer = move_type;
                            let mt = move_type as usize;
                            let list = if section == ANIM_SECTION_ANIMATIONS {
                                *self.m.current_anim_group = move_type;
                                ListRef::Animations(row, mt)
                            } else {
                                ListRef::Canned(row, mt)
                            };
                            // Quirk: a repeated block replaces the earlier list;
                            // its pool items stay allocated.
                            clear_list(self.list(list));
                            nest.current = Some(list);
                        }
                        // A condition line of the move type's list.
                        Depth::Inner => {
                            if nest.selected.inner >= 0 {
                                return Err(self.unexpected());
                            }
                            nest.selected.inner = self.condition_line(nest.current, &mut last_block)?;
                        }
                        // The commands of the last condition line.
                        Depth::Innermost => {
                            self.rewind_and_verify()?;
                            self.commands_into(last_block, &mut scratch)?;
                        }
                    }
                }
                ANIM_SECTION_STATECHANGES | ANIM_SECTION_EVENTS => {
                    let token = self.tok.token();
                    if is(token, b"{") {
                        self.enter_block(&mut nest)?;
                        continue;
                    }
                    if is(token, b"}") {
                        // The list is the state change's or the event's.
                        self.leave_block(&mut nest, Depth::Top)?;
                        continue;
                    }
                    match nest.depth {
                        // `statechange TO FROM {` (its block entered here) or
                        // an event name (its `{` comes as a token of its own):
                        // selects (and empties) the list.
                        Depth::Top => {
                            if nest.selected.top >= 0 {
                                return Err(self.unexpected());
                            }
                            if section == ANIM_SECTION_STATECHANGES {
                                if !is(token, b"statechange") {
                                    return Err(self.token_error(ParseMessage::ExpectedStateChange));
                                }
                                // Quirk: `statechange A B` is the list [A][B],
                                // i.e. A is the state changed *to*.
                                self.tok.read(false);
                                let to = self.index_token(Names::States, false)?;
                                self.tok.read(false);
                                let from = self.index_token(Names::States, false)?;
                                nest.selected.top = from;
                                let list = ListRef::StateChange(to as usize, from as usize);
                                nest.current = Some(list);
                                if !is(self.tok.read(true), b"{") {
                                    return Err(self.error(ParseMessage::ExpectedBrace));
                                }
                                nest.depth = Depth::Outer;
                                clear_list(self.list(list));
                            } else {
                                let event = self.index_token(Names::Events, false)?;
                                nest.selected.top = event;
                                let list = ListRef::Event(event as usize);
                                nest.current = Some(list);
                                *self.m.current_event = event;
                                clear_list(self.list(list));
                            }
                        }
                        // A condition line of the list.
                        Depth::Outer => {
                            if nest.selected.outer >= 0 {
                                return Err(self.unexpected());
                            }
                            nest.selected.outer = self.condition_line(nest.current, &mut last_block)?;
                        }
                        // The commands of the last condition line.
                        Depth::Inner => {
                            self.rewind_and_verify()?;
                            self.commands_into(last_block, &mut scratch)?;
                        }
                        // Only `}` belongs here.
                        Depth::Innermost => return Err(self.unexpected()),
                    }
                }
                _ => {}
            }
        }
        if nest.depth != Depth::Top {
            return Err(self.error(ParseMessage::UnexpectedEnd));
        }
        Ok(())
    }

    /// `BG_ParseCommands(parse, lastCommandBlock, entries)`.
    fn commands_into(&mut self, block: Option<usize>, scratch: &mut bg_anim_script_t) -> Parsed<'t, ()> {
        if block.is_none() {
            // Divergence (a NULL script pointer in C): parse into a
            // scratch script that is thrown away.
            *scratch = bg_anim_script_t::ZERO;
        }
        self.parse_commands(block, scratch)
    }

    fn unexpected(&self) -> Failure<'t> {
        self.token_error(ParseMessage::Unexpected)
    }

    /// `{`: one level in, once the current level has selected something.
    fn enter_block(&self, nest: &mut Nesting) -> Parsed<'t, ()> {
        match (nest.selected.at(nest.depth), nest.depth.deeper()) {
            (Some(selection), Some(inner)) if selection >= 0 => {
                nest.depth = inner;
                Ok(())
            }
            _ => Err(self.unexpected()),
        }
    }

    /// `}`: one level out; the selection that opened the block left is
    /// forgotten, and the current list too when that selection is at
    /// `list_depth` (the level that selects the list: a move type's, an
    /// event's or a state change's).
    fn leave_block(&self, nest: &mut Nesting, list_depth: Depth) -> Parsed<'t, ()> {
        let Some(outer) = nest.depth.shallower() else {
            return Err(self.unexpected());
        };
        nest.depth = outer;
        if outer == list_depth {
            nest.current = None;
        }
        nest.selected.forget(outer);
        Ok(())
    }

    /// A condition line: rewind, parse the conditions into a zeroed script
    /// and append it to the current list.
    fn condition_line(&mut self, current: Option<ListRef>, last_block: &mut Option<usize>) -> Parsed<'t, i32> {
        self.rewind_and_verify()?;
        let line_start = self.tok.cursor();
        let mut script = bg_anim_script_t::ZERO;
        let result = self.parse_conditions(&mut script)?;
        // Divergence (a NULL list in C): report the line as unexpected.
        let Some(list) = current else {
            return Err(self.unexpected());
        };
        let item = self.append_script(list, &script)?;
        *last_block = Some(item);
        self.engine.observe_block(item, line_start);
        Ok(result)
    }

    /// The DEFINES section: `set <condition> <name> = <expression>`; any
    /// other token is ignored.
    fn define(&mut self) -> Parsed<'t, ()> {
        if !is(self.tok.token(), b"set") {
            return Ok(());
        }
        if self.tok.read(false).is_empty() {
            return Err(self.error(ParseMessage::ExpectedConditionType));
        }
        let cond = self.index_token(Names::ConditionTypes, false)?;
        let cond_index = cond as usize;
        let (mode, values) = CONDITION_TYPES[cond_index];
        if mode != ANIM_CONDMODE_BITMASK {
            return Err(self.token_error(ParseMessage::NotBitmaskDefine));
        }
        if self.tok.read(false).is_empty() {
            return Err(self.error(ParseMessage::ExpectedDefineName));
        }
        let count = self.m.alias_counts[cond_index];
        if !(0..BG_ANIM_CONDITION_VALUE_COUNT as i32).contains(&count) {
            return Err(self.error(ParseMessage::TooManyDefines));
        }
        let name = Tok::of(self.tok.token());
        let ctx = self.ctx();
        let offset = copy_string_into_buffer(ctx, name.get(), &mut self.m.alias_buffer[..], self.m.alias_used)?;
        let base = count as usize + cond_index * BG_ANIM_CONDITION_VALUE_COUNT;
        let pointer = self.m.alias_buffer[offset..].as_ptr() as *const c_char;
        self.m.aliases[base].name = pointer;
        self.m.aliases[base].hash = string_hash(name.get());
        self.engine.observe_define(base, self.tok.token_pos());
        let eq = self.tok.read(false);
        if !is(eq, b"=") {
            return Err(self.token_error(ParseMessage::ExpectedEquals));
        }
        let Some(values) = values else { return Ok(()) };
        let mut unused = bg_condition_bits_t::ZERO;
        self.parse_condition_bits(&mut Values::Module(values), cond, BitsDest::Alias(base), &mut unused)?;
        self.m.alias_counts[cond_index] = self.m.alias_counts[cond_index].wrapping_add(1);
        Ok(())
    }

    fn bits_get(&self, dest: BitsDest, local: &bg_condition_bits_t) -> [u32; 2] {
        match dest {
            BitsDest::Alias(i) => self.m.alias_bits[i].words(),
            BitsDest::Local => local.words(),
        }
    }

    fn bits_set(&mut self, dest: BitsDest, local: &mut bg_condition_bits_t, words: [u32; 2]) {
        match dest {
            BitsDest::Alias(i) => self.m.alias_bits[i].set_words(words),
            BitsDest::Local => local.set_words(words),
        }
    }

    /// `BG_ParseConditionBits`: one bitmask expression up to `,` or the end
    /// of the line.
    ///
    /// Quirks kept: only the low result word is cleared on entry (the high
    /// word accumulates); `AND` is a plain OR; `MINUS`/`NOT` switch the rest
    /// of the expression to AND-NOT; `none` ORs bit 0 without filling the
    /// key; the per-clause scratch mask is not cleared between clauses;
    /// value indexes 64..95 land in the MINUS flag and 96..127 in a scratch
    /// word (four-word window `local`).
    pub fn parse_condition_bits(
        &mut self,
        values: &mut Values<'_>,
        cond: i32,
        dest: BitsDest,
        local_result: &mut bg_condition_bits_t,
    ) -> Parsed<'t, ()> {
        let mut key = [0u8; 64];
        let mut key_len: usize = 0;
        // Where the key's first token starts (for the diagnostic naming it).
        let mut key_start: usize = 0;
        let mut words: [u32; 4] = [0; 4];
        let mut end_of_clause = false;
        let mut r = self.bits_get(dest, local_result);
        r[0] = 0;
        self.bits_set(dest, local_result, r);

        loop {
            let empty = self.tok.read(false).is_empty();
            if empty {
                // Push the end of line back for the caller.
                self.tok.unget()?;
                end_of_clause = true;
                if key_len == 0 {
                    return Ok(());
                }
            }
            let token = self.tok.token();
            if is(token, b",") {
                end_of_clause = true;
            }
            if is(token, b"none") {
                let mut r = self.bits_get(dest, local_result);
                r[0] |= 1;
                self.bits_set(dest, local_result, r);
                if end_of_clause {
                    return Ok(());
                }
                continue;
            }
            if is(token, b"none,") {
                let mut r = self.bits_get(dest, local_result);
                r[0] |= 1;
                self.bits_set(dest, local_result, r);
                return Ok(());
            }
            // `NOT` is read as the literal `MINUS`.
            let minus = is(token, b"NOT") || is(token, b"MINUS");
            let operator = minus || is(token, b"AND");
            if !end_of_clause && !operator {
                if token.last() == Some(&b',') {
                    end_of_clause = true;
                    self.tok.strip_last();
                }
                if key_len > 0 {
                    crate::lexis::append_key(&mut key, &mut key_len, b" ");
                } else {
                    key_start = self.tok.token_pos();
                }
                crate::lexis::append_key(&mut key, &mut key_len, self.tok.token());
            }
            if !operator && !end_of_clause {
                continue;
            }
            if key_len == 0 {
                if end_of_clause {
                    return Err(self.error(ParseMessage::UnexpectedEndOfCondition));
                } else if minus {
                    words[2] = 1;
                    continue;
                } else {
                    return Err(self.token_error(ParseMessage::UnexpectedInCondition));
                }
            }
            let k = &key[..key_len];
            if is(k, b"all") {
                words[0] = u32::MAX;
                words[1] = u32::MAX;
            } else {
                let key_hash = string_hash(k);
                let found = self.m.alias_index(k, key_hash, cond as usize);
                if found >= 0 {
                    let used = (cond as usize).saturating_mul(BG_ANIM_CONDITION_VALUE_COUNT).saturating_add(found as usize);
                    self.engine.observe_define_use(used);
                    let slot = (cond as usize)
                        .saturating_mul(BG_ANIM_CONDITION_VALUE_COUNT)
                        .saturating_add(found as usize)
                        .min(ALIAS_COUNT - 1);
                    let bits = match dest {
                        BitsDest::Alias(i) if i == slot => self.bits_get(dest, local_result),
                        _ => self.m.alias_bits[slot].words(),
                    };
                    words[0] = bits[0];
                    words[1] = bits[1];
                } else {
                    let bit = self.index_values(k, key_hash, values, key_start).inspect_err(|_| {
                        self.engine.observe_unknown(NameKind::Value { condition: cond as usize });
                    })?;
                    // Quirk: indexes >= 64 reach the MINUS flag (64..95)
                    // and a scratch word (96..127) of the original frame.
                    let w = ((bit >> 5) as usize).min(3);
                    words[w] |= 1u32 << (bit & 31);
                }
            }
            let mut r = self.bits_get(dest, local_result);
            if words[2] != 0 {
                r[0] &= !words[0];
                r[1] &= !words[1];
            } else {
                r[0] |= words[0];
                r[1] |= words[1];
            }
            self.bits_set(dest, local_result, r);
            key_len = 0;
            if minus {
                words[2] = 1;
            }
            if end_of_clause {
                return Ok(());
            }
        }
    }

    /// `BG_ParseConditions`: the rest of a condition line into `script`.
    ///
    /// Quirks kept: the value carrier is zeroed once per line, so a bitmask
    /// condition's high word leaks into `value[1]` of later conditions;
    /// conditions without a value table (UNDERHAND, CROUCHING, FIRING) take
    /// value 1 and consume no token; `default` ends the line early.
    pub fn parse_conditions(&mut self, script: &mut bg_anim_script_t) -> Parsed<'t, i32> {
        let mut value = bg_condition_bits_t::ZERO;
        loop {
            if self.tok.read(false).is_empty() {
                if script.conditionCount == 0 {
                    return Err(self.error(ParseMessage::NoConditions));
                }
                return Ok(1);
            }
            if is(self.tok.token(), b"default") {
                return Ok(1);
            }
            let cond = self.index_token(Names::ConditionTypes, false)?;
            let (mode, values) = CONDITION_TYPES[cond as usize];
            if mode == ANIM_CONDMODE_BITMASK {
                if let Some(values) = values {
                    self.parse_condition_bits(&mut Values::Module(values), cond, BitsDest::Local, &mut value)?;
                }
            } else if let Some(values) = values {
                if self.tok.read(false).is_empty() {
                    return Err(self.error(ParseMessage::ExpectedConditionValue));
                }
                if self.tok.token().last() == Some(&b',') {
                    self.tok.strip_last();
                }
                let index = lookup_value(&mut self.m, &mut self.ix, self.tok.token(), self.tok.token_hash(), values);
                if index < 0 {
                    return Err(self.token_error(ParseMessage::UnknownToken));
                }
                let mut w = value.words();
                w[0] = index as u32;
                value.set_words(w);
            } else {
                let mut w = value.words();
                w[0] = 1;
                value.set_words(w);
            }
            let n = script.conditionCount;
            if !(0..ANIM_COND_COUNT as i32).contains(&n) {
                return Err(self.error(ParseMessage::TooManyConditions));
            }
            let w = value.words();
            script.conditions[n as usize] = bg_anim_condition_t { r#type: cond, value: [w[0] as i32, w[1] as i32] };
            script.conditionCount = n + 1;
        }
    }

    /// `BG_ParseCommands`: command lines into the pool script `block` until
    /// a `}` starts a line or the text ends.
    ///
    /// Quirks kept: a command is allocated before its first word is checked
    /// (a non-body-part word gives bodyPart -1 and goes to the trailing
    /// parameters); after a legs/torso slot the function returns at the end
    /// of the line, so a torso line on its own line becomes a separate
    /// command; `}` after a `both` command on the same line is an unknown
    /// parameter.
    pub fn parse_commands(&mut self, block: Option<usize>, scratch: &mut bg_anim_script_t) -> Parsed<'t, ()> {
        let mut slot: usize = 0;
        let mut command: usize = 0;
        loop {
            let token_len = self.tok.read(slot == 0).len();
            if token_len == 0 {
                return Ok(());
            }
            if is(self.tok.token(), b"}") {
                self.tok.rewind(token_len);
                return Ok(());
            }
            if slot == 0 {
                let script = self.script_mut(block, scratch);
                if script.commandCount >= BG_ANIM_MAX_SCRIPT_COMMANDS as i32 {
                    return Err(self.error(ParseMessage::TooManyCommands));
                }
                command = script.commandCount.max(0) as usize;
                script.commandCount += 1;
                script.commands[command].bodyPart = [0, 0];
            }
            let part = self.index_token(Names::BodyParts, true)? as i16;
            self.script_mut(block, scratch).commands[command].bodyPart[slot] = part;
            let mut go_trailing = true;
            if part <= 0 {
                self.tok.rewind(token_len);
            } else {
                if self.tok.read(false).is_empty() {
                    return Err(self.error(ParseMessage::ExpectedAnimation));
                }
                let index = self.animation_index_token()?;
                let index16 = index as i16;
                // Defined result for an entry index outside the table.
                let anim_index = (index16.max(0) as usize).min(BG_ANIM_MAX_ANIMATIONS - 1);
                let base_duration = self.table.entries[anim_index].duration as i16;
                {
                    let cmd = &mut self.script_mut(block, scratch).commands[command];
                    cmd.animIndex[slot] = index16;
                    cmd.duration[slot] = base_duration;
                }
                if self.runtime.is_none() {
                    self.stamp_entry(block, scratch, anim_index, part)?;
                }
                loop {
                    let param = self.tok.read(false);
                    if param.is_empty() {
                        self.tok.unget()?;
                        break;
                    }
                    if is(param, b"duration") {
                        let v = self.tok.read(false);
                        if v.is_empty() {
                            return Err(self.error(ParseMessage::ExpectedDuration));
                        }
                        let d = tables::atoi(v, self.behaviour) as i16;
                        self.script_mut(block, scratch).commands[command].duration[slot] = d;
                        continue;
                    }
                    if is(param, b"turretanim") {
                        if self.runtime.is_none() {
                            self.table.entries[anim_index].flags |= BG_ANIM_ENTRY_TURRET;
                        }
                        if part != ANIM_BP_BOTH as i16 {
                            return Err(self.error(ParseMessage::TurretNotBoth));
                        }
                        continue;
                    }
                    if is(param, b"blendtime") {
                        let v = self.tok.read(false);
                        if v.is_empty() {
                            return Err(self.error(ParseMessage::ExpectedBlendTime));
                        }
                        let value = tables::atoi(v, self.behaviour);
                        if self.runtime.is_none() {
                            self.table.entries[anim_index].blendTime = value;
                        }
                        continue;
                    }
                    self.tok.unget()?;
                    break;
                }
                if part != ANIM_BP_BOTH as i16 && slot < 1 {
                    slot += 1;
                    go_trailing = false;
                }
            }
            if go_trailing {
                loop {
                    let param = self.tok.read(false);
                    if param.is_empty() {
                        break;
                    }
                    if is(param, b"sound") {
                        let sound = self.tok.read(false);
                        if sound.is_empty() {
                            return Err(self.error(ParseMessage::ExpectedSound));
                        }
                        if sound.windows(4).any(|w| w == b".wav") {
                            return Err(self.error(ParseMessage::WavSound));
                        }
                        let mut cname = [0u8; crate::lexis::MAX_TOKEN_CHARS + 1];
                        cname[..sound.len()].copy_from_slice(sound);
                        // The alias callback is the game's: it may not return.
                        self.checkpoint();
                        let alias = match CStr::from_bytes_until_nul(&cname) {
                            Ok(n) => self.engine.sound_alias(n),
                            Err(_) => core::ptr::null(),
                        };
                        self.script_mut(block, scratch).commands[command].soundAliasName = alias;
                        continue;
                    }
                    return Err(self.token_error(ParseMessage::UnknownParameter));
                }
                slot = 0;
            }
        }
    }

    /// `BG_AnimationIndexForString(current token)`.
    ///
    /// Found names come from an index over the registrations (pass 1) or
    /// the entries (pass 2), built once per run; a miss takes the full
    /// original path (errors, registration) and updates the index.
    fn animation_index_token(&mut self) -> Parsed<'t, i32> {
        if !self.ix.anims_built {
            self.ix.anims_built = true;
            match &self.runtime {
                Some(r) => {
                    if (0..=BG_ANIM_MAX_ANIMATIONS as i32).contains(&*r.count) {
                        let n = (*r.count as usize).min(r.records.len());
                        self.ix.anims.build(r.records[..n].iter().enumerate().map(|(i, rec)| (rec.hash, i)));
                    }
                }
                None => {
                    let n = usize::try_from(self.table.entryCount).unwrap_or(0).min(BG_ANIM_MAX_ANIMATIONS);
                    self.ix.anims.build(self.table.entries[..n].iter().enumerate().map(|(i, e)| (e.hash, i)));
                }
            }
        }
        let name = self.tok.token();
        let hash = self.tok.token_hash();
        if self.ix.anims.is_ready() {
            let found = match &self.runtime {
                Some(r) => self.ix.anims.find(hash, |i| {
                    r.records.get(i).is_some_and(|rec| same_name(name, tables::field_name(rec.name_bytes())))
                }),
                None => self.ix.anims.find(hash, |i| {
                    self.table.entries.get(i).is_some_and(|e| same_name(name, tables::field_name(e.name_bytes())))
                }),
            };
            if let Some(i) = found {
                return Ok(i as i32);
            }
        }
        let ctx = self.ctx();
        let registering = self.runtime.is_some();
        if registering {
            // A registration calls Scr_FindAnim, which may not return.
            self.checkpoint();
        }
        let runtime = self.runtime.as_mut().map(|r| RuntimeNames { records: &mut *r.records, count: &mut *r.count });
        let index = match runtime {
            // The index holds every registration: the scan would miss too.
            Some(runtime) if self.ix.anims.is_ready() => {
                register_runtime_name(ctx, self.tok.token(), hash, runtime, self.engine)?
            }
            runtime => animation_index_named(
                ctx,
                self.tok.token(),
                TokenName::from(self.tok.spelled()),
                &self.table.entries,
                self.table.entryCount,
                runtime,
                self.engine,
            )?,
        };
        if registering {
            self.ix.anims.insert(hash, index as usize);
        }
        Ok(index)
    }

    /// Hands the session state to the engine before a call that may not
    /// return ([`ParseEngine::session_checkpoint`]).
    fn checkpoint(&mut self) {
        let (saved_parse, saved_line) = self.tok.saved();
        let end = SessionEnd { line: self.tok.line(), unget: self.tok.is_ungotten(), saved_parse, saved_line };
        self.engine.session_checkpoint(&end, self.tok.cursor());
    }

    fn script_mut<'s>(&'s mut self, block: Option<usize>, scratch: &'s mut bg_anim_script_t) -> &'s mut bg_anim_script_t {
        match block.and_then(|b| self.table.globalItems.get_mut(b)) {
            Some(script) => script,
            None => scratch,
        }
    }

    /// Pass-2 side effects of one command slot on its entry.
    fn stamp_entry(&mut self, block: Option<usize>, scratch: &mut bg_anim_script_t, anim: usize, part: i16) -> Parsed<'t, ()> {
        let group = *self.m.current_anim_group;
        let strafe = {
            let script = self.script_mut(block, scratch);
            let n = script.conditionCount.clamp(0, ANIM_COND_COUNT as i32) as usize;
            script.conditions[..n].iter().find(|c| c.r#type == ANIM_COND_STRAFING).map(|c| c.value[0])
        };
        let event = *self.m.current_event;
        let entry = &mut self.table.entries[anim];
        if group != ANIM_MT_UNUSED && part != ANIM_BP_TORSO as i16 {
            entry.stateFlags |= 1u32 << (group as u32 & 31);
            if (group == ANIM_MT_CLIMBUP || group == ANIM_MT_CLIMBDOWN) && entry.moveSpeed != 0 {
                entry.flags |= BG_ANIM_ENTRY_VERTICAL_MOTION;
            }
            match strafe {
                Some(ANIM_STRAFE_LEFT) => entry.flags |= BG_ANIM_ENTRY_STRAFE_LEFT,
                Some(ANIM_STRAFE_RIGHT) => entry.flags |= BG_ANIM_ENTRY_STRAFE_RIGHT,
                _ => {}
            }
        }
        if event == ANIM_EVENT_FIRE_WEAPON {
            entry.flags |= BG_ANIM_ENTRY_FIRE_WEAPON;
            entry.blendTime = 30;
        } else if event == ANIM_EVENT_DEATH {
            entry.moveSpeed = 0;
            entry.flags |= BG_ANIM_ENTRY_DEATH;
        }
        Ok(())
    }
}

fn clear_list(list: &mut bg_anim_script_list_t) {
    list.count = 0;
    list.scripts = [core::ptr::null_mut(); BG_ANIM_MAX_LIST_ITEMS];
}

/// How deep the main loop is in a section's braces (the C parser's
/// `state`, 0 to 3). What a token means there depends on the section:
///
/// | depth | animations, canned animations | state changes, events |
/// | --- | --- | --- |
/// | `Top` | `state NAME {` | `statechange TO FROM {`, or an event name |
/// | `Outer` | a move type | a condition line |
/// | `Inner` | a condition line | its commands |
/// | `Innermost` | its commands | nothing but `}` |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Depth {
    Top,
    Outer,
    Inner,
    Innermost,
}

impl Depth {
    /// One level in (`{`); none past the innermost.
    fn deeper(self) -> Option<Depth> {
        match self {
            Depth::Top => Some(Depth::Outer),
            Depth::Outer => Some(Depth::Inner),
            Depth::Inner => Some(Depth::Innermost),
            Depth::Innermost => None,
        }
    }

    /// One level out (`}`); none above the top.
    fn shallower(self) -> Option<Depth> {
        match self {
            Depth::Top => None,
            Depth::Outer => Some(Depth::Top),
            Depth::Inner => Some(Depth::Outer),
            Depth::Innermost => Some(Depth::Inner),
        }
    }
}

/// What each level selected, -1 for nothing (the C parser's
/// `indexes[3]`). A `{` needs its level's selection; a `}` forgets the one
/// that opened the block it closes. Quirk: nothing else clears one, so a
/// selection whose block never opened stays for the next block at its
/// level (an event name followed by a section name: a `{` there enters,
/// a `state` there is unexpected).
#[derive(Clone, Copy, Debug)]
struct Selected {
    /// At `Top`: the state (animations), the state changed from (state
    /// changes) or the event.
    top: i32,
    /// At `Outer`: the move type (animations), or the condition line's
    /// result (state changes, events).
    outer: i32,
    /// At `Inner`: the condition line's result (animations).
    inner: i32,
}

impl Selected {
    /// The selection at `depth` (the innermost level selects nothing).
    fn at(&self, depth: Depth) -> Option<i32> {
        match depth {
            Depth::Top => Some(self.top),
            Depth::Outer => Some(self.outer),
            Depth::Inner => Some(self.inner),
            Depth::Innermost => None,
        }
    }

    fn forget(&mut self, depth: Depth) {
        match depth {
            Depth::Top => self.top = -1,
            Depth::Outer => self.outer = -1,
            Depth::Inner => self.inner = -1,
            Depth::Innermost => {}
        }
    }
}

/// The main loop's place in the blocks of a section: depth, selections and
/// the list the condition lines go to.
#[derive(Clone, Copy, Debug)]
struct Nesting {
    depth: Depth,
    selected: Selected,
    current: Option<ListRef>,
}

impl Nesting {
    const START: Self = Self { depth: Depth::Top, selected: Selected { top: -1, outer: -1, inner: -1 }, current: None };
}

/// A script list of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListRef {
    Animations(usize, usize),
    Canned(usize, usize),
    StateChange(usize, usize),
    Event(usize),
}

/// Everything `BG_AnimParseAnimScript` needs besides the module globals
/// (`'t`: the text and the path, which its failures borrow).
pub struct ParseInput<'a, 't, E: ParseEngine> {
    pub table: &'a mut bg_static_animation_table_t,
    pub runtime: Option<RuntimeNames<'a>>,
    pub engine: &'a mut E,
    /// `bgPlayerAnimScriptPath` (None when NULL).
    pub path: Option<&'t CStr>,
    /// The loaded script text (NUL-terminated).
    pub text: &'t [u8],
    pub behaviour: Behaviour,
}

/// The parse proper of `BG_AnimParseAnimScript` (after the file is loaded,
/// the globals are published and the weapon strings rebuilt): resets the
/// defines and runs the section machine.
pub fn parse_script<'t, E: ParseEngine>(m: Module<'_>, input: ParseInput<'_, 't, E>) -> (Parsed<'t, ()>, SessionEnd) {
    let (outcome, stop) = parse_script_stop(m, input);
    (outcome, stop.end)
}

/// Where a parse stopped: the tokenizer state ([`SessionEnd`]) and the last
/// token read (its offset in the text and its length), which is the token a
/// diagnostic is about. For tools that point at the offending token.
#[derive(Clone, Copy, Debug)]
pub struct StopPoint {
    pub end: SessionEnd,
    pub token_pos: usize,
    pub token_len: usize,
}

/// [`parse_script`], also telling where the parse stopped.
pub fn parse_script_stop<'t, E: ParseEngine>(m: Module<'_>, input: ParseInput<'_, 't, E>) -> (Parsed<'t, ()>, StopPoint) {
    let mut m = m;
    m.reset_defines();
    let mut run = ParseRun {
        tok: Tokenizer::new(input.text),
        m,
        table: input.table,
        runtime: input.runtime,
        engine: input.engine,
        path: input.path,
        behaviour: input.behaviour,
        ix: Indexes::new(),
    };
    let outcome = run.run();
    let (saved_parse, saved_line) = run.tok.saved();
    let end = SessionEnd { line: run.tok.line(), unget: run.tok.is_ungotten(), saved_parse, saved_line };
    (outcome, StopPoint { end, token_pos: run.tok.token_pos(), token_len: run.tok.token().len() })
}

/// The script-load step: the text is read once into `buffer`.
/// Returns `Err` with "Couldn't load player animation script" when the file
/// is missing, empty or too large.
pub fn load_script<'p>(
    buffer: &mut [u8; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE],
    path: Option<&'p CStr>,
    engine: &mut impl ParseEngine,
) -> Parsed<'p, ()> {
    let fail = |path: Option<&'p CStr>| Failure::ScriptLoad { path: path.map(CText::new) };
    // Divergence: a NULL path (never the case in the original's flow) is a
    // load failure without calling the file system.
    let Some(p) = path else { return Err(fail(None)) };
    let (length, handle) = engine.fs_open_read(p);
    if length <= 0 || length as u32 > BG_ANIM_SCRIPT_FILE_MAX_BYTES as u32 {
        return Err(fail(path));
    }
    let len = length as usize;
    engine.fs_read(&mut buffer[..], length, handle);
    buffer[len] = 0;
    engine.fs_close(handle);
    Ok(())
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
