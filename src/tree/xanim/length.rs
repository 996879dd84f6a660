//! `XAnimGetLength`: `frameCountMinusOne / frameRate`, a 16-bit integer
//! divided by a binary32, as the original computes it on the x87.
//!
//! Rust has no 80-bit float, so the arithmetic is two small assembly
//! routines (hidden symbols, called by the flavour's export):
//!
//! * `uoanim_internal_xanim_length_extended` (engine flavour): x87 `fild` of the
//!   zero-extended count, `fdiv` by the binary32 rate, result left in
//!   `st(0)` as the `long double` return value on both arches. The
//!   quotient is rounded by the process's x87 precision control, exactly as
//!   the original's (PC=64 on Linux).
//! * `uoanim_internal_xanim_length_binary64` (client flavour): the quotient rounded
//!   once to binary64 with an SSE2 `divsd` of the two exactly converted
//!   operands, independent of the x87 precision control; returned in
//!   `xmm0` (x86_64) or loaded into `st(0)` (i386, where a `double` is
//!   returned there). This equals the original's x87 quotient under the
//!   client's PC=53, the quotient being always in binary64's normal range;
//!   IEEE special cases (division by zero, NaN and infinite rates, 0/0 as
//!   the negative default NaN) agree too.
//!
//! Both first call [`length_operands`] (plain Rust, no engine call), which
//! reads the node safely.

use super::XAnimHandle;
use crate::abi::xanim::XAnim;

/// The operands of a length: the frame count (zero-extended) and the bits
/// of the binary32 frame rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthOperands {
    pub frames: u32,
    pub rate_bits: u32,
}

impl LengthOperands {
    /// Operands of the defined result where the original has no asset to
    /// read (NULL tree, index outside the tree, parent node, leaf without
    /// loaded asset): 0 / 1.0f = +0.
    pub const NONE: Self = Self { frames: 0, rate_bits: 0x3f80_0000 };

    /// Packed for the assembly: frames in the low dword, rate in the high.
    pub const fn packed(self) -> u64 {
        ((self.rate_bits as u64) << 32) | self.frames as u64
    }
}

/// The operands of `XAnimGetLength(tree, index)`.
///
/// A parent node's payload is not an asset pointer (the original reads its
/// flags word as one); parents give [`LengthOperands::NONE`], as do the
/// other cases without asset.
pub fn length_operands(tree: Option<XAnimHandle>, index: i32) -> LengthOperands {
    let Some(tree) = tree else { return LengthOperands::NONE };
    match tree.entry_at(index) {
        Some(e) if e.childCount == 0 => match super::leaf_parts(e) {
            Some(parts) => LengthOperands { frames: u32::from(parts.frameCountMinusOne), rate_bits: parts.frameRate.to_bits() },
            None => LengthOperands::NONE,
        },
        _ => LengthOperands::NONE,
    }
}

/// The client flavour's value, in Rust (for tests and documentation): the
/// once-rounded binary64 quotient.
pub fn length_binary64(ops: LengthOperands) -> f64 {
    f64::from(ops.frames) / f64::from(f32::from_bits(ops.rate_bits))
}

/// Called by the assembly with the export's arguments.
///
/// # Safety
/// `tree` is NULL or satisfies [`XAnimHandle::from_raw`]'s contract.
unsafe extern "C" fn packed_length_operands(tree: *mut XAnim, index: i32) -> u64 {
    // SAFETY: guaranteed by the caller (the export's contract).
    let tree = unsafe { XAnimHandle::from_raw(tree) };
    length_operands(tree, index).packed()
}

#[cfg(target_arch = "x86_64")]
core::arch::global_asm!(
    ".text",
    ".p2align 4",
    ".globl uoanim_internal_xanim_length_extended",
    ".hidden uoanim_internal_xanim_length_extended",
    ".type uoanim_internal_xanim_length_extended,@function",
    "uoanim_internal_xanim_length_extended:",
    "    subq $24, %rsp",
    "    call {ops}",
    "    movq %rax, 8(%rsp)",
    "    fildl 8(%rsp)",
    "    fdivs 12(%rsp)",
    "    addq $24, %rsp",
    "    ret",
    ".size uoanim_internal_xanim_length_extended, .-uoanim_internal_xanim_length_extended",
    "",
    ".p2align 4",
    ".globl uoanim_internal_xanim_length_binary64",
    ".hidden uoanim_internal_xanim_length_binary64",
    ".type uoanim_internal_xanim_length_binary64,@function",
    "uoanim_internal_xanim_length_binary64:",
    "    subq $24, %rsp",
    "    call {ops}",
    "    movl %eax, %ecx",
    "    cvtsi2sdl %ecx, %xmm0",
    "    shrq $32, %rax",
    "    movd %eax, %xmm1",
    "    cvtss2sd %xmm1, %xmm1",
    "    divsd %xmm1, %xmm0",
    "    addq $24, %rsp",
    "    ret",
    ".size uoanim_internal_xanim_length_binary64, .-uoanim_internal_xanim_length_binary64",
    ops = sym packed_length_operands,
    options(att_syntax)
);

#[cfg(target_arch = "x86")]
core::arch::global_asm!(
    ".text",
    ".p2align 4",
    ".globl uoanim_internal_xanim_length_extended",
    ".hidden uoanim_internal_xanim_length_extended",
    ".type uoanim_internal_xanim_length_extended,@function",
    "uoanim_internal_xanim_length_extended:",
    "    subl $28, %esp",
    "    movl 32(%esp), %eax",
    "    movl %eax, 0(%esp)",
    "    movl 36(%esp), %eax",
    "    movl %eax, 4(%esp)",
    "    call {ops}",
    "    movl %eax, 8(%esp)",
    "    movl %edx, 12(%esp)",
    "    fildl 8(%esp)",
    "    fdivs 12(%esp)",
    "    addl $28, %esp",
    "    ret",
    ".size uoanim_internal_xanim_length_extended, .-uoanim_internal_xanim_length_extended",
    "",
    ".p2align 4",
    ".globl uoanim_internal_xanim_length_binary64",
    ".hidden uoanim_internal_xanim_length_binary64",
    ".type uoanim_internal_xanim_length_binary64,@function",
    "uoanim_internal_xanim_length_binary64:",
    "    subl $28, %esp",
    "    movl 32(%esp), %eax",
    "    movl %eax, 0(%esp)",
    "    movl 36(%esp), %eax",
    "    movl %eax, 4(%esp)",
    "    call {ops}",
    "    cvtsi2sdl %eax, %xmm0",
    "    movd %edx, %xmm1",
    "    cvtss2sd %xmm1, %xmm1",
    "    divsd %xmm1, %xmm0",
    "    movsd %xmm0, 8(%esp)",
    "    fldl 8(%esp)",
    "    addl $28, %esp",
    "    ret",
    ".size uoanim_internal_xanim_length_binary64, .-uoanim_internal_xanim_length_binary64",
    ops = sym packed_length_operands,
    options(att_syntax)
);
