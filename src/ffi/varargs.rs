//! C variadic exports.
//!
//! Stable Rust cannot define a C-variadic function, so the few exports of
//! the original that take `...` are short assembly trampolines: they build
//! the platform's `va_list` over the caller's arguments and pass it, with the
//! format, to a Rust function that formats with the C library's `vsnprintf`
//! (exactly as the original formats) and hands the text to the safe core.
//!
//! * i386 (cdecl): `va_list` is a pointer to the first variadic argument on
//!   the stack.
//! * x86_64 (System V): `va_list` is a one-element array of
//!   `{ gp_offset, fp_offset, overflow_arg_area, reg_save_area }`; the
//!   trampoline saves the six integer and eight vector argument registers
//!   into a register save area, as a C prologue does.
//! * i686 Windows (cdecl): as i386.
//! * x86_64 Windows (Microsoft x64): `va_list` is a pointer to the first
//!   variadic word; the trampoline spills the argument registers into the
//!   caller's home area so that all variadic words lie in one array.
//! * aarch64 Linux (AAPCS64): `va_list` is the five-word record of the
//!   register save areas and the stack; the trampoline saves the argument
//!   registers.
//! * arm64 macOS (Apple's convention): every variadic argument is on the
//!   stack, one 8-byte slot each, and `va_list` is a pointer to the first:
//!   the trampoline hands over the stack pointer it was entered with. The
//!   same entry is built for aarch64 Linux with the `apple-variadic`
//!   feature, for its test there (c_tests): it describes those stack slots
//!   to glibc's `vsnprintf` as an AAPCS64 `va_list` whose register areas are
//!   used up.

use core::ffi::{c_char, c_int, c_void};

extern "C" {
    /// The `vsnprintf` the C original calls: glibc's on Linux; on Windows
    /// mingw-w64's C99 one, which its headers select for the C standards the
    /// engine's Windows rules compile with (`__USE_MINGW_ANSI_STDIO`), not
    /// msvcrt's (which, for one, rounds `%.1f` of 8.25 to "8.3").
    #[cfg_attr(windows, link_name = "__mingw_vsnprintf")]
    fn vsnprintf(buffer: *mut c_char, size: usize, format: *const c_char, args: *mut c_void) -> c_int;
}

/// Formats `format` with the `va_list` `args` into `buffer` (C semantics:
/// truncated, always NUL-terminated when `buffer` is not empty). Returns the
/// bytes written, without the NUL.
///
/// # Safety
/// `format` and `args` must be a valid format and `va_list` for each other,
/// as a C caller guarantees for `printf`-like functions.
pub(crate) unsafe fn format_va(buffer: &mut [u8], format: *const c_char, args: *mut c_void) -> &[u8] {
    if buffer.is_empty() {
        return buffer;
    }
    if format.is_null() {
        buffer[0] = 0;
        return &buffer[..0];
    }
    // SAFETY: the buffer is writable for its length; format/args per contract.
    unsafe { vsnprintf(buffer.as_mut_ptr() as *mut c_char, buffer.len(), format, args) };
    let len = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len() - 1);
    &buffer[..len]
}

/// Defines `$export(const char *format, ...)` as a trampoline that calls
/// `$target(const char *format, va_list args)` (both C names).
macro_rules! variadic_trampoline {
    ($export:literal, $target:literal) => {
        // i386 System V and i686 Windows (cdecl): the variadic arguments
        // follow the format on the stack; the va_list points at the first.
        #[cfg(target_arch = "x86")]
        core::arch::global_asm!(
            $crate::ffi::asm::asm_function!($export),
            // entry: esp = return address, [esp+4] = format, [esp+8] = first variadic
            "lea eax, [esp + 8]",
            "sub esp, 4",
            "push eax",
            "push dword ptr [esp + 12]",
            concat!("call ", $crate::ffi::asm::c_name!($target)),
            "add esp, 12",
            "ret",
            $crate::ffi::asm::asm_function_end!($export),
        );
        #[cfg(all(target_arch = "x86_64", not(windows)))]
        core::arch::global_asm!(
            $crate::ffi::asm::asm_function!($export),
            // frame: [rsp+0..24) va_list, [rsp+32..208) register save area
            "sub rsp, 216",
            "mov [rsp + 32], rdi",
            "mov [rsp + 40], rsi",
            "mov [rsp + 48], rdx",
            "mov [rsp + 56], rcx",
            "mov [rsp + 64], r8",
            "mov [rsp + 72], r9",
            "test al, al",
            "je 2f",
            "movaps [rsp + 80], xmm0",
            "movaps [rsp + 96], xmm1",
            "movaps [rsp + 112], xmm2",
            "movaps [rsp + 128], xmm3",
            "movaps [rsp + 144], xmm4",
            "movaps [rsp + 160], xmm5",
            "movaps [rsp + 176], xmm6",
            "movaps [rsp + 192], xmm7",
            "2:",
            // one named integer argument (the format) is consumed
            "mov dword ptr [rsp], 8",
            "mov dword ptr [rsp + 4], 48",
            "lea rax, [rsp + 224]",
            "mov [rsp + 8], rax",
            "lea rax, [rsp + 32]",
            "mov [rsp + 16], rax",
            "mov rsi, rsp",
            concat!("call ", $target),
            "add rsp, 216",
            "ret",
            $crate::ffi::asm::asm_function_end!($export),
        );
        // AAPCS64 (aarch64): the format is in x0, the variadic words in
        // x1..x7 and the floating-point ones in q0..q7, the rest on the
        // stack at entry sp. The register save areas and the five-word
        // va_list (stack, gr_top, vr_top, gr_offs, vr_offs) are built in
        // the frame; a va_list is passed by reference (it is over 16 bytes).
        // frame from sp: [0..32) va_list, [32..160) q0..q7, [168..224) x1..x7
        #[cfg(all(target_arch = "aarch64", not(apple_variadic)))]
        core::arch::global_asm!(
            $crate::ffi::asm::asm_function!($export),
            "stp x29, x30, [sp, #-16]!",
            "mov x29, sp",
            "sub sp, sp, #224",
            "stp x1, x2, [sp, #168]",
            "stp x3, x4, [sp, #184]",
            "stp x5, x6, [sp, #200]",
            "str x7, [sp, #216]",
            "stp q0, q1, [sp, #32]",
            "stp q2, q3, [sp, #64]",
            "stp q4, q5, [sp, #96]",
            "stp q6, q7, [sp, #128]",
            "add x9, x29, #16",
            "str x9, [sp, #0]",
            "add x9, sp, #224",
            "str x9, [sp, #8]",
            "add x9, sp, #160",
            "str x9, [sp, #16]",
            "mov w9, #-56",
            "str w9, [sp, #24]",
            "mov w9, #-128",
            "str w9, [sp, #28]",
            "mov x1, sp",
            concat!("bl ", $target),
            "mov sp, x29",
            "ldp x29, x30, [sp], #16",
            "ret",
            $crate::ffi::asm::asm_function_end!($export),
        );
        // Apple arm64: the format is in x0, the variadic words on the stack
        // from the entry sp; va_list is their address (a tail call keeps sp).
        #[cfg(all(target_arch = "aarch64", target_vendor = "apple"))]
        core::arch::global_asm!(
            $crate::ffi::asm::asm_function!($export),
            "mov x1, sp",
            concat!("b ", $crate::ffi::asm::c_name!($target)),
            $crate::ffi::asm::asm_function_end!($export),
        );
        // Apple's entry on aarch64 Linux (the `apple-variadic` test build):
        // the AAPCS64 va_list of glibc, with the stack area at the entry sp
        // and both register areas used up (offsets 0).
        #[cfg(all(target_arch = "aarch64", not(target_vendor = "apple"), apple_variadic))]
        core::arch::global_asm!(
            $crate::ffi::asm::asm_function!($export),
            "stp x29, x30, [sp, #-48]!",
            "mov x29, sp",
            "add x9, sp, #48",
            "str x9, [sp, #16]",
            "stp xzr, xzr, [sp, #24]",
            "str xzr, [sp, #40]",
            "add x1, sp, #16",
            concat!("bl ", $target),
            "ldp x29, x30, [sp], #48",
            "ret",
            $crate::ffi::asm::asm_function_end!($export),
        );
        // Microsoft x64: the format is in rcx, the first three variadic
        // words in rdx, r8, r9 (a float is passed in both registers), the
        // rest on the stack above the caller's 32-byte home area. Storing the
        // three registers into their home slots makes the arguments one
        // array of words, and va_list is a pointer to its first variadic
        // word. The frame is described for the unwinder (.seh_*): the engine's
        // longjmp out of Com_Error unwinds through it.
        #[cfg(all(target_arch = "x86_64", windows))]
        core::arch::global_asm!(
            $crate::ffi::asm::asm_function!($export),
            concat!(".seh_proc ", $export),
            // entry: [rsp] return address, [rsp+8..40) home slots of rcx..r9
            "mov [rsp + 16], rdx",
            "mov [rsp + 24], r8",
            "mov [rsp + 32], r9",
            "sub rsp, 40",
            ".seh_stackalloc 40",
            ".seh_endprologue",
            "lea rdx, [rsp + 56]",
            concat!("call ", $target),
            "add rsp, 40",
            "ret",
            ".seh_endproc",
            $crate::ffi::asm::asm_function_end!($export),
        );
    };
}
pub(crate) use variadic_trampoline;
