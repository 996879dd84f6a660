//! The player-animation module's globals as the core sees them, made from
//! their one list (`globals.rs`, which the units' FFI layer and the header generator (`tools/headers`)
//! read too): [`Module`] (the parser's view: one `&mut` per global),
//! [`ModuleData`] (owned storage of the same globals), [`initial`] (the
//! initial value of each) and [`SessionGlobals`] (the rest of the module's
//! state: the script text and the parse sessions).

use crate::abi::bg::*;
use crate::script::tables;
use core::ffi::c_char;

/// Size of the define window array (`ANIM_COND_COUNT * 16`).
pub const ALIAS_COUNT: usize = ANIM_COND_COUNT * BG_ANIM_CONDITION_VALUE_COUNT;

/// The parse session the standalone helpers continue (`com_parseSession`
/// outside `BG_AnimParseAnimScript`): line, pushed-back token and where the
/// last read started.
#[derive(Clone, Copy)]
pub struct OuterSession {
    pub(super) line: i32,
    pub(super) unget: bool,
    pub(super) saved_parse: *const c_char,
    pub(super) saved_line: i32,
}

impl OuterSession {
    /// The session of a freshly loaded module.
    pub const INITIAL: Self = OuterSession { line: 1, unget: false, saved_parse: core::ptr::null(), saved_line: 1 };
}

type S = bg_indexed_string_t;

macro_rules! player_anim_globals {
    (
        tables { $($(#[$tdoc:meta])* $tvis:vis $tname:ident as $tfield:ident: $tty:ty = $tinit:expr => $tc:literal;)* }
        types { $($(#[$ydoc:meta])* $yname:ident: $yty:ty = $yinit:expr => $yc:literal;)* }
        defines { $($(#[$ddoc:meta])* $dvis:vis $dname:ident as $dfield:ident: $dty:ty = $dinit:expr => $dc:literal;)* }
        script { $($(#[$sdoc:meta])* $svis:vis $sname:ident as $sfield:ident: $sty:ty = $sinit:expr => $sc:literal;)* }
        private { $($(#[$pdoc:meta])* $pvis:vis $pname:ident as $pfield:ident: $pty:ty = $pinit:expr;)* }
        zeroed { $($(#[$zdoc:meta])* $zvis:vis $zname:ident as $zfield:ident: $zty:ty;)* }
    ) => {
        /// The module's own globals the parser reads and writes.
        ///
        /// Its string tables hold raw name pointers, which the parser reads:
        /// they are written only by the parser itself (the initial literals,
        /// the [`TableName`](tables::TableName)s of
        /// [`Module::init_weapon_strings`], define names in the alias
        /// buffer), and a `Module` is made only by `unsafe` code, which
        /// vouches for the names it starts with.
        pub struct Module<'a> {
            $($(#[$tdoc])* $tvis $tfield: &'a mut $tty,)*
            $($(#[$ddoc])* $dvis $dfield: &'a mut $dty,)*
            /// Made by `unsafe` code only.
            pub(crate) _vouched: $crate::script::module::Vouched,
        }

        /// Owned storage for a [`Module`] (tests and tools).
        pub struct ModuleData {
            $($(#[$tdoc])* pub $tfield: $tty,)*
            $($(#[$ddoc])* pub $dfield: $dty,)*
        }

        /// The rest of the module's state: the script text and the parse
        /// sessions (see [`crate::script::session`]).
        pub struct SessionGlobals<'a> {
            $($(#[$sdoc])* $svis $sfield: &'a mut $sty,)*
            $($(#[$pdoc])* $pvis $pfield: &'a mut $pty,)*
            $($(#[$zdoc])* $zvis $zfield: &'a mut $zty,)*
            /// Made by `unsafe` code only: the script path and the saved
            /// position are read as the C strings that code vouched for.
            pub(crate) _vouched: $crate::script::module::Vouched,
        }

        /// The initial value of each global, one constant per field (so a
        /// static or a reset that takes one does not take the whole
        /// [`ModuleData::INITIAL`] with it).
        #[allow(non_upper_case_globals)]
        pub mod initial {
            use super::*;
            $(pub const $tfield: $tty = $tinit;)*
            $(pub const $dfield: $dty = $dinit;)*
            $(pub const $sfield: $sty = $sinit;)*
            $(pub const $pfield: $pty = $pinit;)*
        }

        impl ModuleData {
            /// The initial values of the C globals.
            pub const INITIAL: Self = Self { $($tfield: initial::$tfield,)* $($dfield: initial::$dfield,)* };

            /// Borrows every global.
            ///
            /// # Safety
            /// Raw engine memory (docs/ABI.md, "Raw engine memory"): every
            /// name of the string tables is NULL or a NUL-terminated string
            /// that stays valid and unchanged while the `Module` is used, as
            /// those written by a `Module` are (the initial literals,
            /// [`TableName`](tables::TableName)s); define names point into
            /// this value's own alias buffer, so a value moved since a parse
            /// stored them is parsed again from the start (which clears
            /// them) before anything else.
            pub unsafe fn module(&mut self) -> Module<'_> {
                // SAFETY: forwarded contract.
                let vouched = unsafe { $crate::script::module::Vouched::new() };
                Module { $($tfield: &mut self.$tfield,)* $($dfield: &mut self.$dfield,)* _vouched: vouched }
            }
        }

        impl Module<'_> {
            /// The same globals, borrowed for a shorter time.
            pub fn reborrow(&mut self) -> Module<'_> {
                Module { $($tfield: &mut *self.$tfield,)* $($dfield: &mut *self.$dfield,)* _vouched: self._vouched }
            }
        }
    };
}

include!("globals.rs");

/// The module's globals owned by a caller without the engine (the tool,
/// the tests), with the weapon names their weapon table points at: the one
/// safe way to a [`Module`].
///
/// Its tables can hold only what a `Module` writes (the literals, the
/// weapon names kept here, define names in the boxed alias buffer, which
/// never moves); the globals are read through [`data`](Self::data) but
/// never written from outside.
pub struct OwnedModule {
    data: alloc::boxed::Box<ModuleData>,
    weapons: alloc::boxed::Box<[alloc::ffi::CString]>,
}

impl OwnedModule {
    /// The initial globals, then `BG_InitWeaponStrings` over `weapons`
    /// (weapons 1.. of the engine's list; a name with a NUL byte is empty;
    /// the table takes the first `MAX_WEAPONS - 1`).
    pub fn new<'w>(weapons: impl IntoIterator<Item = &'w [u8]>) -> Self {
        let weapons: alloc::boxed::Box<[alloc::ffi::CString]> = weapons
            .into_iter()
            .map(|w| alloc::ffi::CString::new(w).unwrap_or_default())
            .collect();
        let mut owned = OwnedModule { data: alloc::boxed::Box::new(ModuleData::INITIAL), weapons };
        // SAFETY: the weapon names are kept, unchanged, as long as the
        // tables that hold them (`weapons` is never written).
        let names: alloc::vec::Vec<tables::TableName> =
            owned.weapons.iter().map(|c| unsafe { tables::TableName::new(c.as_ptr()) }).collect();
        owned.module().init_weapon_strings(names);
        owned
    }

    /// Every global, for the parser.
    pub fn module(&mut self) -> Module<'_> {
        // SAFETY: the tables hold the literals, the weapon names `self`
        // keeps, and define names in the boxed alias buffer, which has not
        // moved since they were written (see the type's documentation).
        unsafe { self.data.module() }
    }

    /// The globals, to read.
    pub fn data(&self) -> &ModuleData {
        &self.data
    }

    /// The weapon names (weapons 1.., as given).
    pub fn weapon_names(&self) -> impl Iterator<Item = &[u8]> {
        self.weapons.iter().map(|c| c.to_bytes())
    }

    /// The names of a value table, in order, up to its NULL name.
    pub fn value_names(&self, table: tables::ValueTable) -> alloc::vec::Vec<&[u8]> {
        self.data
            .value_table(table)
            .iter()
            .take_while(|s| !s.name.is_null())
            // SAFETY: the module's tables hold literals and the weapon names
            // `self` keeps (see the type's documentation).
            .map(|s| unsafe { crate::cstr::c_bytes(s.name) }.unwrap_or_default())
            .collect()
    }
}


/// The mark of a view over raw engine memory ([`Module`], [`SessionGlobals`])
/// that `unsafe` code made: its field is private, so a view cannot be
/// written as a plain struct literal, and the safe methods that read the
/// view's raw pointers rely on the contract of the `unsafe` call that made
/// it (docs/ABI.md, "Raw engine memory").
#[derive(Clone, Copy)]
pub struct Vouched(());

impl Vouched {
    /// # Safety
    /// The caller makes a view whose raw pointers hold what the view's
    /// documentation says (the names of its tables, the script path, the
    /// saved position), for the view's lifetime.
    pub const unsafe fn new() -> Self {
        Vouched(())
    }
}
