//! Failures of the safe core, as small values.
//!
//! The C original reports errors by calling the engine (`Com_Error`,
//! `CompileError`, `CompileError2`), which `longjmp`s. The core never calls
//! those: it returns a [`Failure`] — which diagnostic, with the few numbers
//! and names it needs — and the exported frame in `ffi` raises it. The text
//! the original would have formatted is made only there, in the cold raise
//! path, by `Failure::write` (tools and tests call it too), which is
//! src/report.rs's: the texts of every diagnostic are in that one function,
//! next to the tokenizer and the name table it reads the names with. Of the
//! tokenizer this module takes only the two values its failures are made
//! from (`Spelled`, `UngetTwice`); of the name table only the id a name is
//! stored under ([`NameId`]).
//!
//! A `Failure` is `Copy`, owns nothing and is at most 32 bytes on 64-bit
//! targets (see the tests), so a result carrying one is small and raising it
//! leaves nothing to drop. Its names are one of:
//!
//! * bytes that outlive the failure: a literal, a C string of the caller or
//!   of the engine ([`CText`], borrowed for the failure's lifetime), the
//!   text a parse reads ([`TokenName`]: where the parser's token is spelled
//!   in it), the message `BG_AnimParseError` had the C library format
//!   (the FFI's static buffer);
//! * a name of the animation-tree module's table ([`NameId`]), resolved
//!   against that table (`Names`) when the text is written. The module is
//!   single-threaded and not re-entered (src/cell.rs), so the table is the
//!   same when the cold path formats as when the failure was made.
//!
//! A failure never borrows from state the core holds mutably (a borrow
//! through `&mut self` returned on the error path would keep the state
//! borrowed on the success path too).

use crate::abi::bg::{
    ANIM_COND_COUNT, BG_ANIM_CONDITION_VALUE_COUNT, BG_ANIM_MAX_ANIMATIONS, BG_ANIM_MAX_GLOBAL_SCRIPTS,
    BG_ANIM_MAX_LIST_ITEMS, BG_ANIM_MAX_SCRIPT_COMMANDS,
};
use crate::lexis::{Spelled, UngetTwice};
use crate::names::NameId;
use uoanim_core::registry::TreeFailure;
use core::ffi::{c_char, CStr};
use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;

impl<'a> From<Spelled<'a>> for TokenName<'a> {
    fn from(spelled: Spelled<'a>) -> Self {
        match spelled {
            Spelled::Plain(bytes) => Self::plain(bytes),
            Spelled::Quoted { from, kept } => Self::quoted(from, kept),
        }
    }
}

impl From<uoanim_core::atr::CompileError> for Failure<'_> {
    fn from(e: uoanim_core::atr::CompileError) -> Self {
        Failure::Compile { source_pos: e.source_pos, message: e.message }
    }
}

/// The registry's failures are the units' failures of the same names.
impl From<TreeFailure> for Failure<'_> {
    fn from(f: TreeFailure) -> Self {
        match f {
            TreeFailure::Compile(e) => e.into(),
            TreeFailure::TreeCount { capacity } => Failure::TreeCount { capacity },
            TreeFailure::DuplicateAnimation { name, tree } => Failure::DuplicateAnimation { name, tree },
            TreeFailure::TreePathTooLong => Failure::TreePathTooLong,
            TreeFailure::NotDefined { name, tree, code_pos, in_code } => Failure::NotDefined { name, tree, code_pos, in_code },
            TreeFailure::NoXAnim { name } => Failure::NoXAnim { name: Name::Interned(name) },
        }
    }
}

impl Failure<'_> {
    /// The registry's failure this one is, if it is one (its text and its
    /// report are the core's).
    pub fn as_tree(&self) -> Option<TreeFailure> {
        Some(match *self {
            Failure::Compile { source_pos, message } => TreeFailure::Compile(uoanim_core::atr::CompileError { source_pos, message }),
            Failure::TreeCount { capacity } => TreeFailure::TreeCount { capacity },
            Failure::DuplicateAnimation { name, tree } => TreeFailure::DuplicateAnimation { name, tree },
            Failure::TreePathTooLong => TreeFailure::TreePathTooLong,
            Failure::NotDefined { name, tree, code_pos, in_code } => TreeFailure::NotDefined { name, tree, code_pos, in_code },
            Failure::NoXAnim { name: Name::Interned(name) } => TreeFailure::NoXAnim { name },
            _ => return None,
        })
    }
}

impl From<UngetTwice> for Failure<'_> {
    fn from(e: UngetTwice) -> Self {
        Failure::UngetTwice { line: e.line, session: e.session }
    }
}

pub use uoanim_core::text::{Text, TEXT_CAPACITY};

pub use uoanim_core::text::{level, Report};

/// A C string borrowed for `'a`, one pointer wide (a `&CStr` is two).
///
/// Made only from a `&'a CStr`, so it always points at a NUL-terminated
/// string that stays valid and unchanged for `'a`.
#[derive(Clone, Copy)]
pub struct CText<'a> {
    ptr: NonNull<c_char>,
    _str: PhantomData<&'a CStr>,
}

// SAFETY: a `CText` is a shared borrow of a C string, like the `&'a CStr`
// it is made from, which is `Send` and `Sync`.
unsafe impl Send for CText<'_> {}
// SAFETY: as above.
unsafe impl Sync for CText<'_> {}

impl<'a> CText<'a> {
    /// `"(null)"`: what `%s` prints for a NULL string.
    pub const NULL: CText<'static> = CText::new(c"(null)");
    /// The empty string.
    pub const EMPTY: CText<'static> = CText::new(c"");

    /// Borrows `text`.
    pub const fn new(text: &'a CStr) -> Self {
        // SAFETY: a `CStr` is never at NULL.
        Self { ptr: unsafe { NonNull::new_unchecked(text.as_ptr() as *mut c_char) }, _str: PhantomData }
    }

    /// The string's bytes (without its NUL).
    pub fn to_bytes(self) -> &'a [u8] {
        // SAFETY: made from a `&'a CStr` (the type's invariant): a
        // NUL-terminated string valid and unchanged for `'a`.
        unsafe { crate::cstr::c_bytes(self.ptr.as_ptr()) }.unwrap_or_default()
    }
}

impl<'a> From<&'a CStr> for CText<'a> {
    fn from(text: &'a CStr) -> Self {
        Self::new(text)
    }
}

impl PartialEq for CText<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl fmt::Debug for CText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", alloc::string::String::from_utf8_lossy(self.to_bytes()))
    }
}

/// A name a failure prints: a C string, or a name of the animation-tree
/// module's table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Name<'a> {
    C(CText<'a>),
    Interned(NameId),
}

/// How the name of a parser diagnostic is spelled in its source bytes
/// ([`TokenName`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spelling(u16);

impl Spelling {
    const FORM_SHIFT: u32 = 14;
    const KEPT: u16 = (1 << Self::FORM_SHIFT) - 1;
    const PLAIN: u16 = 0;
    pub(crate) const QUOTED: u16 = 1;
    pub(crate) const KEY: u16 = 2;

    pub(crate) fn form(self) -> u16 {
        self.0 >> Self::FORM_SHIFT
    }

    pub(crate) fn kept(self) -> usize {
        usize::from(self.0 & Self::KEPT)
    }
}

/// Where the name of a parser diagnostic is: the bytes of the text being
/// parsed (or of the caller) and how the name is spelled there.
///
/// The parser's token buffer is overwritten by every read, so a failure
/// does not point at it: it points at the text, which does not change while
/// it is parsed, and the name is read from there again when the text is
/// written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenName<'a> {
    source: &'a [u8],
    spelling: Spelling,
}

impl<'a> TokenName<'a> {
    /// The name is `bytes`.
    pub const fn plain(bytes: &'a [u8]) -> Self {
        Self { source: bytes, spelling: Spelling(Spelling::PLAIN << Spelling::FORM_SHIFT) }
    }

    /// The name is the first `kept` bytes of the quoted token whose opening
    /// quote starts `source` (the token may have lost trailing bytes since
    /// it was read; the tokenizer reads it again when the text is written,
    /// src/report.rs). `kept` is at most the token buffer's length.
    pub fn quoted(source: &'a [u8], kept: usize) -> Self {
        let kept = kept.min(usize::from(Spelling::KEPT)) as u16;
        Self { source, spelling: Spelling((Spelling::QUOTED << Spelling::FORM_SHIFT) | kept) }
    }

    /// The name is the condition key whose first token starts `source`
    /// (`BG_ParseConditionBits` builds it from several tokens; the
    /// tokenizer builds it again when the text is written, src/report.rs).
    pub const fn key(source: &'a [u8]) -> Self {
        Self { source, spelling: Spelling(Spelling::KEY << Spelling::FORM_SHIFT) }
    }
}

/// The messages of the player-animation parser (`BG_AnimParseError`); the
/// name, where there is one, is the failure's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseMessage {
    /// The message `BG_AnimParseError` was called with, formatted by the C
    /// library; the name is the message.
    Formatted,
    /// `BG_CopyStringIntoBuffer: out of buffer space`
    OutOfBufferSpace,
    /// `BG_AnimationIndexForString: animation name is too long`
    NameTooLong,
    /// `BG_AnimationIndexForString: exceeded maximum runtime animations (512)`
    TooManyRuntimeAnimations,
    /// `BG_AnimParseAnimScript: internal error`
    InternalError,
    /// `BG_AnimParseAnimScript: expected 'state'`
    ExpectedState,
    /// `BG_AnimParseAnimScript: expected '{'`
    ExpectedBrace,
    /// `BG_AnimParseAnimScript: unexpected end of file: `
    UnexpectedEnd,
    /// `BG_AnimParseAnimScript: exceeded maximum items per script (128)`
    TooManyListItems,
    /// `BG_AnimParseAnimScript: exceeded maximum global items (2048)`
    TooManyGlobalItems,
    /// `BG_AnimParseAnimScript: expected condition type string`
    ExpectedConditionType,
    /// `BG_AnimParseAnimScript: expected condition define string`
    ExpectedDefineName,
    /// `BG_AnimParseAnimScript: exceeded maximum condition defines (16)`
    TooManyDefines,
    /// `BG_ParseConditionBits: unexpected end of condition`
    UnexpectedEndOfCondition,
    /// `BG_ParseConditions: no conditions found`
    NoConditions,
    /// `BG_ParseConditions: expected condition value, found end of line`
    ExpectedConditionValue,
    /// `BG_ParseConditions: exceeded maximum conditions (11)`
    TooManyConditions,
    /// `BG_ParseCommands: exceeded maximum number of animations (8)`
    TooManyCommands,
    /// `BG_ParseCommands: expected animation`
    ExpectedAnimation,
    /// `BG_ParseCommands: expected duration value`
    ExpectedDuration,
    /// `BG_ParseCommands: Turret animations can only be played on the 'both' body part`
    TurretNotBoth,
    /// `BG_ParseCommands: expected blendtime value`
    ExpectedBlendTime,
    /// `BG_ParseCommands: expected sound`
    ExpectedSound,
    /// `BG_ParseCommands: wav files not supported, only sound scripts`
    WavSound,
    /// `BG_IndexForString: unknown token '<name>'`
    UnknownToken,
    /// `BG_AnimationIndexForString: unknown player animation '<name>'`
    UnknownAnimation,
    /// `BG_AnimParseAnimScript: expected 'statechange', got '<name>'`
    ExpectedStateChange,
    /// `BG_AnimParseAnimScript: unexpected '<name>'`
    Unexpected,
    /// `BG_AnimParseAnimScript: can not make a define of type '<name>'`
    NotBitmaskDefine,
    /// `BG_AnimParseAnimScript: expected '=', found '<name>'`
    ExpectedEquals,
    /// `BG_ParseConditionBits: unexpected '<name>'`
    UnexpectedInCondition,
    /// `BG_ParseCommands: unknown parameter '<name>'`
    UnknownParameter,
}

impl ParseMessage {
    /// The text before the name and after it (the name is printed only
    /// where the message has a `'%s'`).
    pub(crate) fn parts(self) -> (&'static [u8], Option<&'static [u8]>) {
        use ParseMessage::*;
        match self {
            Formatted => (b"", Some(b"")),
            OutOfBufferSpace => (b"BG_CopyStringIntoBuffer: out of buffer space", None),
            NameTooLong => (b"BG_AnimationIndexForString: animation name is too long", None),
            InternalError => (b"BG_AnimParseAnimScript: internal error", None),
            ExpectedState => (b"BG_AnimParseAnimScript: expected 'state'", None),
            ExpectedBrace => (b"BG_AnimParseAnimScript: expected '{'", None),
            UnexpectedEnd => (b"BG_AnimParseAnimScript: unexpected end of file: ", None),
            ExpectedConditionType => (b"BG_AnimParseAnimScript: expected condition type string", None),
            ExpectedDefineName => (b"BG_AnimParseAnimScript: expected condition define string", None),
            UnexpectedEndOfCondition => (b"BG_ParseConditionBits: unexpected end of condition", None),
            NoConditions => (b"BG_ParseConditions: no conditions found", None),
            ExpectedConditionValue => (b"BG_ParseConditions: expected condition value, found end of line", None),
            ExpectedAnimation => (b"BG_ParseCommands: expected animation", None),
            ExpectedDuration => (b"BG_ParseCommands: expected duration value", None),
            TurretNotBoth => (b"BG_ParseCommands: Turret animations can only be played on the 'both' body part", None),
            ExpectedBlendTime => (b"BG_ParseCommands: expected blendtime value", None),
            ExpectedSound => (b"BG_ParseCommands: expected sound", None),
            WavSound => (b"BG_ParseCommands: wav files not supported, only sound scripts", None),
            TooManyRuntimeAnimations => (b"BG_AnimationIndexForString: exceeded maximum runtime animations (", None),
            TooManyListItems => (b"BG_AnimParseAnimScript: exceeded maximum items per script (", None),
            TooManyGlobalItems => (b"BG_AnimParseAnimScript: exceeded maximum global items (", None),
            TooManyDefines => (b"BG_AnimParseAnimScript: exceeded maximum condition defines (", None),
            TooManyConditions => (b"BG_ParseConditions: exceeded maximum conditions (", None),
            TooManyCommands => (b"BG_ParseCommands: exceeded maximum number of animations (", None),
            UnknownToken => (b"BG_IndexForString: unknown token '", Some(b"'")),
            UnknownAnimation => (b"BG_AnimationIndexForString: unknown player animation '", Some(b"'")),
            ExpectedStateChange => (b"BG_AnimParseAnimScript: expected 'statechange', got '", Some(b"'")),
            Unexpected => (b"BG_AnimParseAnimScript: unexpected '", Some(b"'")),
            NotBitmaskDefine => (b"BG_AnimParseAnimScript: can not make a define of type '", Some(b"'")),
            ExpectedEquals => (b"BG_AnimParseAnimScript: expected '=', found '", Some(b"'")),
            UnexpectedInCondition => (b"BG_ParseConditionBits: unexpected '", Some(b"'")),
            UnknownParameter => (b"BG_ParseCommands: unknown parameter '", Some(b"'")),
        }
    }

    /// The limit a "exceeded maximum" message prints.
    pub(crate) fn limit(self) -> Option<usize> {
        use ParseMessage::*;
        match self {
            TooManyRuntimeAnimations => Some(BG_ANIM_MAX_ANIMATIONS),
            TooManyListItems => Some(BG_ANIM_MAX_LIST_ITEMS),
            TooManyGlobalItems => Some(BG_ANIM_MAX_GLOBAL_SCRIPTS),
            TooManyDefines => Some(BG_ANIM_CONDITION_VALUE_COUNT),
            TooManyConditions => Some(ANIM_COND_COUNT),
            TooManyCommands => Some(BG_ANIM_MAX_SCRIPT_COMMANDS),
            _ => None,
        }
    }
}

/// Capacity of `BG_AnimParseError`'s message buffer, without its NUL.
pub const PARSE_MESSAGE_CAPACITY: usize = 1023;

/// A failure of the core: which diagnostic, with what it needs. The engine
/// function it is raised through is [`Failure::report`], its text
/// [`Failure::write`].
///
/// Every text but the compile errors' starts with the engine's `\x15`
/// marker, as the original's formats do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Failure<'a> {
    // ---- player animation (game, cgame) -----------------------------------
    /// `BG_AnimParseError` (ERR_DROP): `\x15<message>` (the message cut at
    /// its first NUL and at 1023 bytes), then `: (<path>, line <line + 1>)`
    /// while the script path is set. Quirk: the line printed is the parse
    /// line + 1. The name is spelled as `spelling` says in `source`
    /// ([`TokenName`]; fields of their own, so the failure stays small).
    AnimParse { message: ParseMessage, spelling: Spelling, line: i32, path: Option<CText<'a>>, source: &'a [u8] },
    /// `BG_AnimParseError("BG_AnimationIndexForString: invalid runtime
    /// animation count %d", count)`, as [`Failure::AnimParse`].
    RuntimeCount { count: i32, line: i32, path: Option<CText<'a>> },
    /// `Com_ScriptError("UngetToken called twice")` (ERR_DROP): `\x15File
    /// <session>, line <line>: UngetToken called twice`; the session's name
    /// (`BG_AnimParseAnimScript`) is the tokenizer's.
    UngetTwice { line: i32, session: &'static [u8] },
    /// ERR_FATAL `\x15Com_BeginParseSession: session overflow`.
    SessionOverflow,
    /// ERR_FATAL `\x15Com_ParseExt: NULL data_p`.
    NullDataPointer,
    /// `\x15Couldn't load player animation script <path>\n` (`(null)`
    /// without a path).
    ScriptLoad { path: Option<CText<'a>> },
    /// `\x15BG_AnimationForString: unknown player animation '<name>'`.
    NoAnimation { name: &'a [u8] },
    /// `\x15BG_FirstValidItem: invalid client number <client>`
    /// (reconstruction guard).
    FirstValidClient { client: i32 },
    /// `\x15BG_UpdateConditionValue: invalid client number <client>`
    /// (reconstruction guard).
    UpdateClient { client: i32 },
    /// `\x15BG_UpdateConditionValue: invalid condition value <value>`
    /// (reconstruction guard).
    UpdateValue { value: i32 },
    /// `\x15BG_GetAnimationForIndex: index out of bounds`.
    AnimationForIndex,
    /// `\x15Player animation index <index> out of 0 to <count> range`.
    AnimIndexRange { index: i32, count: i32 },
    /// `\x15Could not find animation tree '<name>'` (`(null)` without one).
    NoAnimTree { name: Option<CText<'a>> },
    /// `\x15<function>: invalid client number <client>` of the two
    /// condition updaters (reconstruction guard; `state`: the player-state
    /// one).
    ConditionsClient { state: bool, client: i32 },
    /// `\x15<function>: Vehicle type unknown: <type>` of the two condition
    /// updaters.
    VehicleType { state: bool, vehicle_type: i32 },
    /// `\x15Player animation index out of range (<count>): <index>`
    /// (`BG_SetNewAnimation`; the index prints as a signed int).
    SlotRange { count: i32, index: i32 },
    /// `death animation '<name>' is looping` (no marker).
    DeathLooping { name: &'a [u8] },

    // ---- animation trees (engine, client) ----------------------------------
    /// `CompileError(source_pos, message)` (no marker).
    Compile { source_pos: u32, message: &'static [u8] },
    /// `\x15maximum animation tree count exceeded (<capacity>)`: the
    /// registry's capacity, 127.
    TreeCount { capacity: u16 },
    /// `\x15duplicate animation '<name>' in 'animtrees/<tree>.atr'`.
    DuplicateAnimation { name: NameId, tree: NameId },
    /// `\x15animation tree path is too long`.
    TreePathTooLong,
    /// `animation '<name>' not defined in anim tree '<tree>'`: through
    /// `CompileError2(code_pos, ...)` when `in_code` (a cell of script
    /// code), else ERR_DROP with the marker.
    NotDefined { name: NameId, tree: NameId, code_pos: usize, in_code: bool },
    /// `\x15animation tree allocation failed` (divergence: the original
    /// writes through NULL).
    TreeAllocation,
    /// `\x15Cannot find 'xanim/<name>'`.
    NoXAnim { name: Name<'a> },
    /// `\x15animation cannot be sync looping and sync nonlooping`.
    SyncBoth,
    /// `\x15animation '<leaf>' in '<tree>' cannot be sync looping and
    /// nonlooping` (`looping`), `... sync nonlooping and looping` (not).
    SyncLeaf { leaf: CText<'a>, tree: CText<'a>, looping: bool },
    /// `\x15duplicate specification of animation sync in '<tree>', <depth>
    /// nodes above '<leaf>'`.
    DuplicateSync { tree: CText<'a>, depth: i32, leaf: CText<'a> },
}

/// The condition updater a failure names.
pub(crate) fn conditions_function(state: bool) -> &'static str {
    if state { "BG_AnimUpdatePlayerStateConditions" } else { "BG_AnimPlayerConditions" }
}

impl<'a> Failure<'a> {
    /// `BG_AnimParseError(message)` naming `name` (ignored by messages
    /// without a `'%s'`).
    pub fn anim_parse(message: ParseMessage, line: i32, path: Option<&'a CStr>, name: TokenName<'a>) -> Self {
        Failure::AnimParse { message, spelling: name.spelling, line, path: path.map(CText::new), source: name.source }
    }

    /// How the failure is raised (a failure of the registry's as
    /// [`TreeFailure::report`] says).
    pub fn report(&self) -> Report {
        match *self {
            Failure::SessionOverflow | Failure::NullDataPointer => Report::Error { level: level::FATAL },
            _ => self.as_tree().map_or(Report::Error { level: level::DROP }, |t| t.report()),
        }
    }

    /// Whether the game module's Windows build (`-DWINDOWS_BEHAVIOR`, the
    /// game_windows unit) raises the failure through `G_Error("%s", text)`,
    /// which takes no level, instead of `Com_Error`: the parser's
    /// diagnostics (`BG_AnimParseError`), the tokenizer's fatal errors and
    /// the index errors of the game module's bindings, and the per-frame
    /// functions' vehicle-type, slot-range and death-loop errors. The errors the shared
    /// files raise directly (`BG_FindAnimTree`, `BG_AnimationForString`,
    /// `BG_UpdateConditionValue`, `BG_FirstValidItem`, the script load) stay
    /// `Com_Error` in that build too.
    pub fn through_game_error(&self) -> bool {
        matches!(
            self,
            Failure::AnimParse { .. }
                | Failure::RuntimeCount { .. }
                | Failure::UngetTwice { .. }
                | Failure::SessionOverflow
                | Failure::NullDataPointer
                | Failure::AnimationForIndex
                | Failure::AnimIndexRange { .. }
                | Failure::VehicleType { .. }
                | Failure::SlotRange { .. }
                | Failure::DeathLooping { .. }
        )
    }
}

impl From<core::convert::Infallible> for Failure<'_> {
    fn from(never: core::convert::Infallible) -> Self {
        match never {}
    }
}

/// Result of a core operation whose failure borrows nothing.
pub type Outcome<T> = Result<T, Failure<'static>>;

#[cfg(test)]
mod tests {
    use std::prelude::rust_2021::*;
    use super::*;

    #[test]
    fn unget_twice_is_a_script_error() {
        let mut t = crate::lexis::Tokenizer::new(b"a\0");
        t.read(true);
        t.unget().unwrap();
        let e = Failure::from(t.unget().unwrap_err());
        assert_eq!(e.text(None).as_bytes(), b"\x15File BG_AnimParseAnimScript, line 1: UngetToken called twice");
    }

    #[test]
    fn text_cuts_at_capacity_and_stays_nul_terminated() {
        let long = vec![b'x'; TEXT_CAPACITY + 10];
        let t = Text::from_bytes(&long);
        assert_eq!(t.len(), TEXT_CAPACITY);
        assert_eq!(*t.as_bytes_with_nul().last().unwrap(), 0);
    }

    /// A failure is plain data of at most 8 bytes and three machine words:
    /// 32 bytes on 64-bit targets, 20 on 32-bit ones. Its largest kind is a
    /// parser diagnostic: the kind, the message, the spelling of its name
    /// and the line (8 bytes), the script path (one pointer) and the
    /// token's source (a slice); every other kind needs less. A result
    /// carrying one stays that small, where the failure with its text
    /// inline made every result 4 KiB.
    #[test]
    fn failure_is_small_plain_data() {
        fn assert_copy<T: Copy>() {}
        assert_copy::<Failure<'static>>();
        assert!(!core::mem::needs_drop::<Failure<'static>>());
        assert!(core::mem::size_of::<Failure<'static>>() <= 8 + 3 * core::mem::size_of::<usize>());
        #[cfg(target_pointer_width = "64")]
        assert!(core::mem::size_of::<Failure<'static>>() <= 32);
        // An `Outcome` of a word-sized value is no larger than the failure.
        assert_eq!(core::mem::size_of::<Outcome<i32>>(), core::mem::size_of::<Failure<'static>>());
    }

    #[test]
    fn parser_messages_cut_at_1023_bytes_before_the_suffix() {
        let long = vec![b'y'; 2000];
        let path = c"p.script";
        let f = Failure::anim_parse(ParseMessage::Formatted, 4, Some(path), TokenName::plain(&long));
        let t = f.text(None);
        assert_eq!(t.len(), 1 + 1023 + b": (p.script, line 5)".len());
        assert!(t.as_bytes().ends_with(b"y: (p.script, line 5)"));
        let f = Failure::anim_parse(ParseMessage::Formatted, 4, None, TokenName::plain(b"ab\0cd"));
        assert_eq!(f.text(None).as_bytes(), b"\x15ab");
    }

    #[test]
    fn limits_print_as_the_original() {
        let f = Failure::anim_parse(ParseMessage::TooManyListItems, 0, None, TokenName::plain(b""));
        assert_eq!(f.text(None).as_bytes(), b"\x15BG_AnimParseAnimScript: exceeded maximum items per script (128)");
        let f = Failure::anim_parse(ParseMessage::TooManyRuntimeAnimations, 0, None, TokenName::plain(b"x"));
        assert_eq!(f.text(None).as_bytes(), b"\x15BG_AnimationIndexForString: exceeded maximum runtime animations (512)");
        assert_eq!(Failure::TreeCount { capacity: 127 }.text(None).as_bytes(), b"\x15maximum animation tree count exceeded (127)");
    }

    #[test]
    fn quoted_tokens_are_read_again() {
        let f = Failure::anim_parse(ParseMessage::Unexpected, 0, None, TokenName::quoted(b"\"a\\\"b,\" rest", 3));
        assert_eq!(f.text(None).as_bytes(), b"\x15BG_AnimParseAnimScript: unexpected 'a\"b'");
    }

    #[test]
    fn reports() {
        assert_eq!(Failure::SessionOverflow.report(), Report::Error { level: level::FATAL });
        assert_eq!(Failure::Compile { source_pos: 3, message: b"x" }.report(), Report::Compile { source_pos: 3 });
        let nd = |in_code| Failure::NotDefined { name: 0, tree: 0, code_pos: 9, in_code };
        assert_eq!(nd(true).report(), Report::Compile2 { code_pos: 9 });
        assert_eq!(nd(false).report(), Report::Error { level: level::DROP });
        // the Windows game build's G_Error: the parser's, the tokenizer's
        // and the bindings' index errors; the shared files' own stay Com_Error
        assert!(Failure::SessionOverflow.through_game_error());
        assert!(Failure::UngetTwice { line: 1, session: b"" }.through_game_error());
        assert!(Failure::AnimationForIndex.through_game_error());
        assert!(Failure::AnimIndexRange { index: 1, count: 0 }.through_game_error());
        assert!(Failure::RuntimeCount { count: 0, line: 0, path: None }.through_game_error());
        assert!(!Failure::NoAnimTree { name: None }.through_game_error());
        assert!(!Failure::NoAnimation { name: b"x" }.through_game_error());
        assert!(!Failure::ScriptLoad { path: None }.through_game_error());
        assert!(!Failure::UpdateClient { client: -1 }.through_game_error());
        assert!(!Failure::FirstValidClient { client: -1 }.through_game_error());
    }
}
