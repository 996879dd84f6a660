//! The macros that make the units' data symbols: each module's globals,
//! listed once (a file `include!`d where the statics go, which the header
//! generator reads too for their C declarations), become exported
//! `ModuleCell` statics under their C names, with the functions that reset
//! and borrow them. Only the boundary defines data symbols.

/// The units' side of the list: the globals as `ModuleCell` statics (the
/// data symbols under their C names, the private ones without), `unsafe fn
/// reset_globals()`, which gives each its initial value again, and the
/// `unsafe fn`s `module()`, `session()` and `globals()`, which borrow the
/// parser's globals, the others, or both (module contract, crate::cell). The `types` values are evaluated
/// where the list is included (they name the statics).
#[allow(unused_macros)]
macro_rules! define_statics {
    (
        tables { $($(#[$tdoc:meta])* $tvis:vis $tname:ident as $tfield:ident: $tty:ty = $tinit:expr => $tc:literal;)* }
        types { $($(#[$ydoc:meta])* $yname:ident: $yty:ty = $yinit:expr => $yc:literal;)* }
        defines { $($(#[$ddoc:meta])* $dvis:vis $dname:ident as $dfield:ident: $dty:ty = $dinit:expr => $dc:literal;)* }
        script { $($(#[$sdoc:meta])* $svis:vis $sname:ident as $sfield:ident: $sty:ty = $sinit:expr => $sc:literal;)* }
        private { $($(#[$pdoc:meta])* $pvis:vis $pname:ident as $pfield:ident: $pty:ty = $pinit:expr;)* }
        zeroed { $($(#[$zdoc:meta])* $zvis:vis $zname:ident as $zfield:ident: $zty:ty;)* }
    ) => {
        $($(#[$tdoc])* #[no_mangle] pub static $tname: $crate::cell::ModuleCell<$tty> = $crate::cell::ModuleCell::new($crate::script::module::initial::$tfield);)*
        $($(#[$ydoc])* #[no_mangle] pub static $yname: $crate::cell::ModuleCell<$yty> = $crate::cell::ModuleCell::new($yinit);)*
        $($(#[$ddoc])* #[no_mangle] pub static $dname: $crate::cell::ModuleCell<$dty> = $crate::cell::ModuleCell::new($crate::script::module::initial::$dfield);)*
        $($(#[$sdoc])* #[no_mangle] pub static $sname: $crate::cell::ModuleCell<$sty> = $crate::cell::ModuleCell::new($crate::script::module::initial::$sfield);)*
        $($(#[$pdoc])* static $pname: $crate::cell::ModuleCell<$pty> = $crate::cell::ModuleCell::new($crate::script::module::initial::$pfield);)*
        // SAFETY: plain data (integers, raw pointers, unions of pointers),
        // for which all-zero bits are valid.
        $($(#[$zdoc])* static $zname: $crate::cell::ModuleCell<$zty> = $crate::cell::ModuleCell::new(unsafe { core::mem::zeroed() });)*

        /// Gives every global of the list its initial value again (the
        /// large zeroed ones by their bytes).
        ///
        /// # Safety
        /// Module contract (single thread, no export running); no reference
        /// into one of the globals is live.
        unsafe fn reset_globals() {
            // SAFETY: forwarded contract; each pointer is its static's.
            unsafe {
                $(core::ptr::write($tname.as_ptr(), $crate::script::module::initial::$tfield);)*
                $(core::ptr::write($yname.as_ptr(), $yinit);)*
                $(core::ptr::write($dname.as_ptr(), $crate::script::module::initial::$dfield);)*
                $(core::ptr::write($sname.as_ptr(), $crate::script::module::initial::$sfield);)*
                $(core::ptr::write($pname.as_ptr(), $crate::script::module::initial::$pfield);)*
                $(core::ptr::write_bytes($zname.as_ptr(), 0, 1);)*
            }
        }

        /// Borrows the parser's globals.
        ///
        /// # Safety
        /// Module contract (crate::cell): the references must not outlive
        /// the export that takes them. The tables' names are what the module
        /// wrote (its literals, the engine's weapon names, define names in
        /// its own static buffer), or what the engine wrote into the
        /// exported tables, under the same contract (docs/ABI.md, "Raw
        /// engine memory").
        #[allow(dead_code)]
        unsafe fn module<'a>() -> $crate::script::module::Module<'a> {
            // SAFETY: see above; every cell is a distinct static.
            unsafe {
                $crate::script::module::Module {
                    $($tfield: $tname.get(),)*
                    $($dfield: $dname.get(),)*
                    _vouched: $crate::script::module::Vouched::new(),
                }
            }
        }

        /// Borrows the rest of the module's globals.
        ///
        /// # Safety
        /// Module contract (crate::cell), as [`module`]; the script path is
        /// NULL or a C string and the session's saved position is NULL or in
        /// a text still readable (docs/ABI.md, "Module state").
        #[allow(dead_code)]
        unsafe fn session<'a>() -> $crate::script::module::SessionGlobals<'a> {
            // SAFETY: see above; every cell is a distinct static.
            unsafe {
                $crate::script::module::SessionGlobals {
                    $($sfield: $sname.get(),)*
                    $($pfield: $pname.get(),)*
                    $($zfield: $zname.get(),)*
                    _vouched: $crate::script::module::Vouched::new(),
                }
            }
        }

        /// Borrows every global of the list.
        ///
        /// # Safety
        /// As [`module`] and [`session`].
        #[allow(dead_code)]
        unsafe fn globals<'a>() -> ($crate::script::module::Module<'a>, $crate::script::module::SessionGlobals<'a>) {
            // SAFETY: forwarded contract.
            unsafe { (module(), session()) }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use define_statics;
