//! The object-format side of the crate's few assembly routines.
//!
//! The routines themselves are per calling convention (System V i386 and
//! cdecl share one body; System V x86_64 and Microsoft x64 each have their
//! own; AAPCS64 and Apple's arm64 differ in where variadic arguments go);
//! what differs between ELF (Linux), PE/COFF (Windows) and Mach-O (macOS)
//! is only how a function symbol is named and declared. These macros expand
//! to string literals for `global_asm!`:
//!
//! * [`c_name!`]: the symbol of a C name (i686 Windows and macOS prefix `_`).
//! * [`asm_function!`]: the lines that open a function (ELF: in a section of
//!   its own, so that a link with `--gc-sections` can drop it) and make its
//!   symbol global; `hidden` keeps an internal routine out of a shared
//!   library's dynamic symbols on ELF (COFF has no visibility: the packaging
//!   step localises every symbol that is not an export).
//! * [`asm_function_end!`]: the lines that close it (ELF records its size).

/// The assembler symbol of the C name `$name` on the target.
#[cfg(any(all(windows, target_arch = "x86"), target_vendor = "apple"))]
#[allow(unused_macros)] // a unit without assembly that names a C function
macro_rules! c_name {
    ($name:literal) => {
        concat!("_", $name)
    };
}
/// The assembler symbol of the C name `$name` on the target.
#[cfg(not(any(all(windows, target_arch = "x86"), target_vendor = "apple")))]
#[allow(unused_macros)] // a unit without assembly that names a C function
macro_rules! c_name {
    ($name:literal) => {
        $name
    };
}
#[allow(unused_imports)]
pub(crate) use c_name;

/// Opens the function `$name` (a C name), global, in its own section.
#[cfg(not(any(windows, target_vendor = "apple")))]
#[allow(unused_macros)]
macro_rules! asm_function {
    ($name:literal) => {
        concat!(
            ".pushsection .text.", $name, ",\"ax\",@progbits\n",
            ".p2align 4\n",
            ".globl ", $name, "\n",
            ".type ", $name, ",@function\n",
            $name, ":"
        )
    };
    ($name:literal, hidden) => {
        concat!(".hidden ", $name, "\n", $crate::ffi::asm::asm_function!($name))
    };
}
/// Opens the function `$name` (a C name), global, in the code section.
///
/// PE/COFF: in `.text` itself, not a `.text$name` section of its own. The
/// relocatable link of a unit merges every code section anyway (a Windows
/// unit is one code section, see docs/ABI.md), and GNU ld resolves the
/// unwind table's relocations against the section symbol of a `.text$name`
/// section of such an object to the start of its `.text`: the table entry
/// of `BG_AnimParseError` then covered the unit's first function instead,
/// and the unwinder of a `longjmp` through that function was lost.
#[cfg(windows)]
#[allow(unused_macros)]
macro_rules! asm_function {
    ($name:literal) => {
        concat!(
            ".pushsection .text,\"xr\"\n",
            ".p2align 4\n",
            ".globl ", $crate::ffi::asm::c_name!($name), "\n",
            ".def ", $crate::ffi::asm::c_name!($name), "; .scl 2; .type 32; .endef\n",
            $crate::ffi::asm::c_name!($name), ":"
        )
    };
    ($name:literal, hidden) => {
        $crate::ffi::asm::asm_function!($name)
    };
}
/// Opens the function `$name` (a C name), global, in the code section
/// (Mach-O: `hidden` is `.private_extern`).
#[cfg(target_vendor = "apple")]
#[allow(unused_macros)]
macro_rules! asm_function {
    ($name:literal) => {
        concat!(
            ".section __TEXT,__text,regular,pure_instructions\n",
            ".p2align 4\n",
            ".globl ", $crate::ffi::asm::c_name!($name), "\n",
            $crate::ffi::asm::c_name!($name), ":"
        )
    };
    ($name:literal, hidden) => {
        concat!(".private_extern ", $crate::ffi::asm::c_name!($name), "\n", $crate::ffi::asm::asm_function!($name))
    };
}

#[allow(unused_imports)] // a unit without assembly (client)
pub(crate) use asm_function;

/// Closes the function `$name` opened by [`asm_function!`].
#[cfg(not(any(windows, target_vendor = "apple")))]
#[allow(unused_macros)]
macro_rules! asm_function_end {
    ($name:literal) => {
        concat!(".size ", $name, ", . - ", $name, "\n", ".popsection")
    };
}
/// Closes the function `$name` opened by [`asm_function!`].
#[cfg(windows)]
#[allow(unused_macros)]
macro_rules! asm_function_end {
    ($name:literal) => {
        ".popsection"
    };
}
/// Closes the function `$name` opened by [`asm_function!`].
#[cfg(target_vendor = "apple")]
#[allow(unused_macros)]
macro_rules! asm_function_end {
    ($name:literal) => {
        ""
    };
}

#[allow(unused_imports)]
pub(crate) use asm_function_end;
