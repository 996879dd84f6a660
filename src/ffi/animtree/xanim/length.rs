//! `long double XAnimGetLength(XAnim *tree, int32_t animIndex)`, engine
//! flavour: Rust cannot return a `long double`, so the export is one short
//! routine per calling convention. It calls the Rust reading of the node
//! (`length_operands`: the packed frame count and rate bits) and, on x86,
//! divides on the x87 (`fild` of the count, `fdiv` by the binary32 rate,
//! rounded by the process's precision control as the original's quotient),
//! leaving the result where the convention returns a `long double`:
//!
//! * System V x86_64 and i386: in `st(0)`;
//! * Microsoft x64: stored through the hidden result pointer (rcx, given
//!   back in rax), the tree and index one register later; the frame is
//!   described for the unwinder (.seh_*);
//! * AAPCS64 (aarch64 Linux, where `long double` is binary128, in v0): the
//!   software x87 quotient widened exactly (`length_binary128`).
//!
//! The macOS arm64 server (and its aarch64 Linux build for the judge, the
//! `darwin` feature) returns the emulated x87's `x87f`, a 16-byte struct,
//! by value: a Rust function (`super::XAnimGetLength`), no routine here.

#[cfg(all(target_arch = "x86_64", not(windows)))]
core::arch::global_asm!(
    crate::ffi::asm::asm_function!("XAnimGetLength"),
    // entry rsp = 8 mod 16: the 8 bytes below align the call and hold the
    // operands for fild / fdivs
    "    subq $8, %rsp",
    "    call {operands}",
    "    movq %rax, (%rsp)",
    "    fildl (%rsp)",
    "    fdivs 4(%rsp)",
    "    addq $8, %rsp",
    "    ret",
    crate::ffi::asm::asm_function_end!("XAnimGetLength"),
    operands = sym super::uoanim_internal_xanim_length_operands,
    options(att_syntax)
);

#[cfg(all(target_arch = "x86_64", windows))]
core::arch::global_asm!(
    crate::ffi::asm::asm_function!("XAnimGetLength"),
    ".seh_proc XAnimGetLength",
    "    pushq %rbx",
    "    .seh_pushreg %rbx",
    // 32 bytes of home area for the call, 16 for the operands
    "    subq $48, %rsp",
    "    .seh_stackalloc 48",
    "    .seh_endprologue",
    "    movq %rcx, %rbx",
    "    movq %rdx, %rcx",
    "    movl %r8d, %edx",
    "    call {operands}",
    "    movq %rax, 32(%rsp)",
    "    fildl 32(%rsp)",
    "    fdivs 36(%rsp)",
    "    fstpt (%rbx)",
    "    movq %rbx, %rax",
    "    addq $48, %rsp",
    "    popq %rbx",
    "    ret",
    ".seh_endproc",
    crate::ffi::asm::asm_function_end!("XAnimGetLength"),
    operands = sym super::uoanim_internal_xanim_length_operands,
    options(att_syntax)
);

// cdecl (i386 System V, i686 Windows): entry esp = 12 mod 16; the 12 bytes
// below align the call, carry its two arguments and then the operands.
#[cfg(target_arch = "x86")]
core::arch::global_asm!(
    crate::ffi::asm::asm_function!("XAnimGetLength"),
    "    subl $12, %esp",
    "    movl 16(%esp), %eax",
    "    movl %eax, (%esp)",
    "    movl 20(%esp), %eax",
    "    movl %eax, 4(%esp)",
    "    call {operands}",
    "    movl %eax, (%esp)",
    "    movl %edx, 4(%esp)",
    "    fildl (%esp)",
    "    fdivs 4(%esp)",
    "    addl $12, %esp",
    "    ret",
    crate::ffi::asm::asm_function_end!("XAnimGetLength"),
    operands = sym super::uoanim_internal_xanim_length_operands,
    options(att_syntax)
);

#[cfg(all(target_arch = "aarch64", not(darwin_rules)))]
core::arch::global_asm!(
    crate::ffi::asm::asm_function!("XAnimGetLength"),
    "    stp x29, x30, [sp, #-16]!",
    "    mov x29, sp",
    "    bl {binary128}",
    "    fmov d0, x0",
    "    fmov v0.d[1], x1",
    "    ldp x29, x30, [sp], #16",
    "    ret",
    crate::ffi::asm::asm_function_end!("XAnimGetLength"),
    binary128 = sym super::uoanim_internal_xanim_length_binary128,
);
