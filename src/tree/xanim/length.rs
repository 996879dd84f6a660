//! `XAnimGetLength`: `frameCountMinusOne / frameRate`, a 16-bit integer
//! divided by a binary32, as the original computes it on the x87.
//!
//! Rust has no 80-bit float, so the arithmetic is two small assembly
//! routines, emitted under a given name by the macros `length_extended_routine!`
//! and `length_binary64_routine!`: the flavour's export is its routine itself
//! (src/ffi), and the tests call both under internal hidden names:
//!
//! * `uoanim_internal_xanim_length_extended` (engine flavour): x87 `fild` of the
//!   zero-extended count, `fdiv` by the binary32 rate, result left in
//!   `st(0)` as the `long double` return value (x86_64 Windows: stored
//!   through the hidden result pointer of the Microsoft x64 convention). The
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
//! Both read the node themselves, with the same checks as
//! [`length_operands`] (the Rust statement of what they read, which the
//! tests compare them with), so the export is one short routine.

use super::XAnimHandle;
use crate::abi::xanim::{fileData_t, XAnim, XAnimEntry, XAnimParts};

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
pub fn length_operands(tree: Option<XAnimHandle<'_>>, index: i32) -> LengthOperands {
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

// Layout constants the assembly reads (all checked against the mirrors in
// crate::abi::xanim, which assert both arches' numbers).
pub(crate) const NODE_COUNT: usize = core::mem::offset_of!(XAnim, nodeCount);
pub(crate) const ENTRIES: usize = core::mem::offset_of!(XAnim, entries);
pub(crate) const ENTRY_SIZE: usize = core::mem::size_of::<XAnimEntry>();
pub(crate) const CHILD_COUNT: usize = ENTRIES + core::mem::offset_of!(XAnimEntry, childCount);
/// The payload union's `leafAsset` member is at its start.
pub(crate) const LEAF_ASSET: usize = ENTRIES + core::mem::offset_of!(XAnimEntry, payload);
/// `data.xanimParts` (the union's members are at its start).
pub(crate) const PARTS: usize = core::mem::offset_of!(fileData_t, data);
pub(crate) const FRAMES: usize = core::mem::offset_of!(XAnimParts, frameCountMinusOne);
pub(crate) const RATE: usize = core::mem::offset_of!(XAnimParts, frameRate);

const _: () = {
    // `childCount` is compared as a word; i386 scales the index by the
    // entry size, x86_64 the doubled index by half of it: valid address
    // scales.
    assert!(core::mem::size_of::<u16>() == 2);
    assert!(ENTRY_SIZE.is_power_of_two());
    assert!(ENTRY_SIZE <= 8 || (cfg!(target_arch = "x86_64") && ENTRY_SIZE == 16));
    assert!(core::mem::size_of::<*mut fileData_t>() == core::mem::size_of::<usize>());
};

/// Half the entry size, the address scale of the doubled index (x86_64:
/// `leal (%rsi,%rsi)` doubles and zero-extends the index in one instruction,
/// the node of `XAnimHandle::entry_at`; i386 uses the size as the scale).
#[cfg(target_arch = "x86_64")]
pub(crate) const ENTRY_HALF: usize = ENTRY_SIZE / 2;

// The routines read the node exactly as `length_operands` does (NULL tree,
// index outside `nodeCount` as an unsigned compare, the node at the doubled
// index times half the entry size, parent node, NULL asset,
// NULL parts: the +0 of LengthOperands::NONE) and then divide; the tests
// compare them with `length_operands` and with exact quotients. A pointer
// they test is loaded into rcx (ecx) and tested with `jrcxz` (`jecxz`), one
// instruction where a test and a conditional jump are two.
#[cfg(all(target_arch = "x86_64", not(windows)))]
macro_rules! length_extended_routine {
    ($name:literal $(, $hidden:ident)?) => {
        core::arch::global_asm!(
            $crate::asm::asm_function!($name $(, $hidden)?),
            "    testq %rdi, %rdi",
            "    je 1f",
            "    cmpl {node_count}(%rdi), %esi",
            "    jae 1f",
            "    leal (%rsi,%rsi), %eax",
            "    cmpw $0, {child_count}(%rdi,%rax,{half})",
            "    jne 1f",
            "    movq {leaf_asset}(%rdi,%rax,{half}), %rcx",
            "    jrcxz 1f",
            "    movq {parts}(%rcx), %rcx",
            "    jrcxz 1f",
            "    movzwl {frames}(%rcx), %eax",
            // the red zone holds the zero-extended count for fild
            "    movl %eax, -8(%rsp)",
            "    fildl -8(%rsp)",
            "    fdivs {rate}(%rcx)",
            "    ret",
            "1:",
            "    fldz",
            "    ret",
            $crate::asm::asm_function_end!($name),
            node_count = const $crate::tree::xanim::length::NODE_COUNT,
            half = const $crate::tree::xanim::length::ENTRY_HALF,
            child_count = const $crate::tree::xanim::length::CHILD_COUNT,
            leaf_asset = const $crate::tree::xanim::length::LEAF_ASSET,
            parts = const $crate::tree::xanim::length::PARTS,
            frames = const $crate::tree::xanim::length::FRAMES,
            rate = const $crate::tree::xanim::length::RATE,
            options(att_syntax)
        );
    };
}

#[cfg(all(target_arch = "x86_64", not(windows)))]
macro_rules! length_binary64_routine {
    ($name:literal $(, $hidden:ident)?) => {
        core::arch::global_asm!(
            $crate::asm::asm_function!($name $(, $hidden)?),
            "    testq %rdi, %rdi",
            "    je 1f",
            "    cmpl {node_count}(%rdi), %esi",
            "    jae 1f",
            "    leal (%rsi,%rsi), %eax",
            "    cmpw $0, {child_count}(%rdi,%rax,{half})",
            "    jne 1f",
            "    movq {leaf_asset}(%rdi,%rax,{half}), %rcx",
            "    jrcxz 1f",
            "    movq {parts}(%rcx), %rcx",
            "    jrcxz 1f",
            "    movzwl {frames}(%rcx), %eax",
            "    cvtsi2sdl %eax, %xmm0",
            "    cvtss2sd {rate}(%rcx), %xmm1",
            "    divsd %xmm1, %xmm0",
            "    ret",
            "1:",
            "    xorps %xmm0, %xmm0",
            "    ret",
            $crate::asm::asm_function_end!($name),
            node_count = const $crate::tree::xanim::length::NODE_COUNT,
            half = const $crate::tree::xanim::length::ENTRY_HALF,
            child_count = const $crate::tree::xanim::length::CHILD_COUNT,
            leaf_asset = const $crate::tree::xanim::length::LEAF_ASSET,
            parts = const $crate::tree::xanim::length::PARTS,
            frames = const $crate::tree::xanim::length::FRAMES,
            rate = const $crate::tree::xanim::length::RATE,
            options(att_syntax)
        );
    };
}

// Microsoft x64: a `long double` (80-bit, in 16 bytes) is returned through
// a hidden result pointer, which comes in rcx and goes back in rax, so the
// extended routine's tree and index arrive in rdx and r8d; the caller's home
// area (there is no red zone) holds the count for fild. The binary64 routine
// takes the tree in rcx and the index in edx and returns in xmm0. Both are
// leaf functions that do not move rsp, so they need no unwind data.
#[cfg(all(target_arch = "x86_64", windows))]
macro_rules! length_extended_routine {
    ($name:literal $(, $hidden:ident)?) => {
        core::arch::global_asm!(
            $crate::asm::asm_function!($name $(, $hidden)?),
            "    movq %rcx, %rax",
            "    testq %rdx, %rdx",
            "    je 1f",
            "    cmpl {node_count}(%rdx), %r8d",
            "    jae 1f",
            "    leal (%r8,%r8), %r9d",
            "    cmpw $0, {child_count}(%rdx,%r9,{half})",
            "    jne 1f",
            "    movq {leaf_asset}(%rdx,%r9,{half}), %rcx",
            "    jrcxz 1f",
            "    movq {parts}(%rcx), %rcx",
            "    jrcxz 1f",
            "    movzwl {frames}(%rcx), %r10d",
            "    movl %r10d, 8(%rsp)",
            "    fildl 8(%rsp)",
            "    fdivs {rate}(%rcx)",
            "    fstpt (%rax)",
            "    ret",
            "1:",
            "    fldz",
            "    fstpt (%rax)",
            "    ret",
            $crate::asm::asm_function_end!($name),
            node_count = const $crate::tree::xanim::length::NODE_COUNT,
            half = const $crate::tree::xanim::length::ENTRY_HALF,
            child_count = const $crate::tree::xanim::length::CHILD_COUNT,
            leaf_asset = const $crate::tree::xanim::length::LEAF_ASSET,
            parts = const $crate::tree::xanim::length::PARTS,
            frames = const $crate::tree::xanim::length::FRAMES,
            rate = const $crate::tree::xanim::length::RATE,
            options(att_syntax)
        );
    };
}

#[cfg(all(target_arch = "x86_64", windows))]
macro_rules! length_binary64_routine {
    ($name:literal $(, $hidden:ident)?) => {
        core::arch::global_asm!(
            $crate::asm::asm_function!($name $(, $hidden)?),
            "    jrcxz 1f",
            "    cmpl {node_count}(%rcx), %edx",
            "    jae 1f",
            "    leal (%rdx,%rdx), %eax",
            "    cmpw $0, {child_count}(%rcx,%rax,{half})",
            "    jne 1f",
            "    movq {leaf_asset}(%rcx,%rax,{half}), %rcx",
            "    jrcxz 1f",
            "    movq {parts}(%rcx), %rcx",
            "    jrcxz 1f",
            "    movzwl {frames}(%rcx), %eax",
            "    cvtsi2sdl %eax, %xmm0",
            "    cvtss2sd {rate}(%rcx), %xmm1",
            "    divsd %xmm1, %xmm0",
            "    ret",
            "1:",
            "    xorps %xmm0, %xmm0",
            "    ret",
            $crate::asm::asm_function_end!($name),
            node_count = const $crate::tree::xanim::length::NODE_COUNT,
            half = const $crate::tree::xanim::length::ENTRY_HALF,
            child_count = const $crate::tree::xanim::length::CHILD_COUNT,
            leaf_asset = const $crate::tree::xanim::length::LEAF_ASSET,
            parts = const $crate::tree::xanim::length::PARTS,
            frames = const $crate::tree::xanim::length::FRAMES,
            rate = const $crate::tree::xanim::length::RATE,
            options(att_syntax)
        );
    };
}

// i386 and i686 Windows (cdecl): the arguments are at 4(%esp) (tree) and 8(%esp) (index);
// the callee owns that area, so the index slot takes the count for fild and
// both slots the binary64 quotient for fld.
#[cfg(target_arch = "x86")]
macro_rules! length_extended_routine {
    ($name:literal $(, $hidden:ident)?) => {
        core::arch::global_asm!(
            $crate::asm::asm_function!($name $(, $hidden)?),
            "    movl 4(%esp), %ecx",
            "    jecxz 1f",
            "    movl 8(%esp), %edx",
            "    cmpl {node_count}(%ecx), %edx",
            "    jae 1f",
            "    cmpw $0, {child_count}(%ecx,%edx,{scale})",
            "    jne 1f",
            "    movl {leaf_asset}(%ecx,%edx,{scale}), %ecx",
            "    jecxz 1f",
            "    movl {parts}(%ecx), %ecx",
            "    jecxz 1f",
            "    movzwl {frames}(%ecx), %eax",
            "    movl %eax, 8(%esp)",
            "    fildl 8(%esp)",
            "    fdivs {rate}(%ecx)",
            "    ret",
            "1:",
            "    fldz",
            "    ret",
            $crate::asm::asm_function_end!($name),
            node_count = const $crate::tree::xanim::length::NODE_COUNT,
            scale = const $crate::tree::xanim::length::ENTRY_SIZE,
            child_count = const $crate::tree::xanim::length::CHILD_COUNT,
            leaf_asset = const $crate::tree::xanim::length::LEAF_ASSET,
            parts = const $crate::tree::xanim::length::PARTS,
            frames = const $crate::tree::xanim::length::FRAMES,
            rate = const $crate::tree::xanim::length::RATE,
            options(att_syntax)
        );
    };
}

#[cfg(target_arch = "x86")]
macro_rules! length_binary64_routine {
    ($name:literal $(, $hidden:ident)?) => {
        core::arch::global_asm!(
            $crate::asm::asm_function!($name $(, $hidden)?),
            "    movl 4(%esp), %ecx",
            "    jecxz 1f",
            "    movl 8(%esp), %edx",
            "    cmpl {node_count}(%ecx), %edx",
            "    jae 1f",
            "    cmpw $0, {child_count}(%ecx,%edx,{scale})",
            "    jne 1f",
            "    movl {leaf_asset}(%ecx,%edx,{scale}), %ecx",
            "    jecxz 1f",
            "    movl {parts}(%ecx), %ecx",
            "    jecxz 1f",
            "    movzwl {frames}(%ecx), %eax",
            "    cvtsi2sdl %eax, %xmm0",
            "    cvtss2sd {rate}(%ecx), %xmm1",
            "    divsd %xmm1, %xmm0",
            "    movsd %xmm0, 4(%esp)",
            "    fldl 4(%esp)",
            "    ret",
            "1:",
            "    fldz",
            "    ret",
            $crate::asm::asm_function_end!($name),
            node_count = const $crate::tree::xanim::length::NODE_COUNT,
            scale = const $crate::tree::xanim::length::ENTRY_SIZE,
            child_count = const $crate::tree::xanim::length::CHILD_COUNT,
            leaf_asset = const $crate::tree::xanim::length::LEAF_ASSET,
            parts = const $crate::tree::xanim::length::PARTS,
            frames = const $crate::tree::xanim::length::FRAMES,
            rate = const $crate::tree::xanim::length::RATE,
            options(att_syntax)
        );
    };
}

// Each flavour's export uses one of the two.
#[allow(unused_imports)]
pub(crate) use {length_binary64_routine, length_extended_routine};

// The routines under the internal names the tests call (an ELF unit's link
// drops them, nothing there calls them).
length_extended_routine!("uoanim_internal_xanim_length_extended", hidden);
length_binary64_routine!("uoanim_internal_xanim_length_binary64", hidden);
