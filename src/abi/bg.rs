//! The records of `bg_animation_types.h` that hold the engine's callbacks:
//! the callback types and `bgs_t`, the game's shared animation state. The
//! rest of the header's mirrors are the core's (`uoanim_core::abi::bg`,
//! re-exported here).

pub use uoanim_core::abi::bg::*;
pub use uoanim_core::abi::player::*;
use crate::abi::common::{scr_anim_t, XAnim};
use core::ffi::{c_char, c_int};

/// `bg_anim_sound_alias_fn`: resolves a sound alias name (may return NULL).
pub type bg_anim_sound_alias_fn = Option<unsafe extern "C" fn(name: *const c_char) -> *const c_char>;
/// `bg_anim_sound_event_fn`: plays a command's sound for a client.
pub type bg_anim_sound_event_fn = Option<unsafe extern "C" fn(clientNum: c_int, soundAliasName: *const c_char)>;

// ---- bgs_t -------------------------------------------------------------------

/// `bgs_t`: the game's shared animation state (defined by the game).
#[repr(C)]
pub struct bgs_t {
    pub animationTable: bg_static_animation_table_t,
    pub resolvedTorsoAnimHandle: scr_anim_t,
    pub resolvedLegsAnimHandle: scr_anim_t,
    pub resolvedTurningAnimHandle: scr_anim_t,
    pub soundAliasCallback: bg_anim_sound_alias_fn,
    pub soundEventCallback: bg_anim_sound_event_fn,
    pub multiplayerAnimTree: *mut XAnim,
    pub rootAnimHandle: scr_anim_t,
    pub torsoAnimHandle: scr_anim_t,
    pub legsAnimHandle: scr_anim_t,
    pub turningAnimHandle: scr_anim_t,
    pub clientinfo: [clientInfo_t; BGS_CLIENTINFO_COUNT],
}

uoanim_core::assert_offset!(bgs_t, animationTable, i686 = 0, x86_64 = 0);
uoanim_core::assert_offset!(bgs_t, resolvedTorsoAnimHandle, i686 = 0xa7acc, x86_64 = 0xdfd98);
uoanim_core::assert_offset!(bgs_t, resolvedLegsAnimHandle, i686 = 0xa7ad0, x86_64 = 0xdfd9c);
uoanim_core::assert_offset!(bgs_t, resolvedTurningAnimHandle, i686 = 0xa7ad4, x86_64 = 0xdfda0);
uoanim_core::assert_offset!(bgs_t, soundAliasCallback, i686 = 0xa7ad8, x86_64 = 0xdfda8);
uoanim_core::assert_offset!(bgs_t, soundEventCallback, i686 = 0xa7adc, x86_64 = 0xdfdb0);
uoanim_core::assert_offset!(bgs_t, multiplayerAnimTree, i686 = 0xa7ae0, x86_64 = 0xdfdb8);
uoanim_core::assert_offset!(bgs_t, rootAnimHandle, i686 = 0xa7ae4, x86_64 = 0xdfdc0);
uoanim_core::assert_offset!(bgs_t, torsoAnimHandle, i686 = 0xa7ae8, x86_64 = 0xdfdc4);
uoanim_core::assert_offset!(bgs_t, legsAnimHandle, i686 = 0xa7aec, x86_64 = 0xdfdc8);
uoanim_core::assert_offset!(bgs_t, turningAnimHandle, i686 = 0xa7af0, x86_64 = 0xdfdcc);
uoanim_core::assert_offset!(bgs_t, clientinfo, i686 = 0xa7af4, x86_64 = 0xdfdd0);
uoanim_core::assert_size!(bgs_t, i686 = 0xbaef4, x86_64 = 0xf33d0);


/// The game's by-value tree reference (defined with the shared types).
pub use crate::abi::common::script_anim_tree_ref_t;

/// The 64-byte C name fields of the table's records viewed as bytes (`char`
/// is signed on x86, unsigned on aarch64; the bytes are the same).
pub trait NameField {
    /// The name field as bytes.
    fn name_bytes(&self) -> &[u8; BG_ANIM_NAME_SIZE];
}

impl NameField for bg_static_animation_t {
    fn name_bytes(&self) -> &[u8; BG_ANIM_NAME_SIZE] {
        name_as_bytes(&self.name)
    }
}

impl NameField for bg_runtime_animation_t {
    fn name_bytes(&self) -> &[u8; BG_ANIM_NAME_SIZE] {
        name_as_bytes(&self.name)
    }
}

/// A 64-byte C name field viewed as bytes.
pub fn name_as_bytes(name: &[core::ffi::c_char; BG_ANIM_NAME_SIZE]) -> &[u8; BG_ANIM_NAME_SIZE] {
    // SAFETY: c_char and u8 have the same size and alignment and every bit
    // pattern is valid for both.
    unsafe { &*core::ptr::from_ref(name).cast::<[u8; BG_ANIM_NAME_SIZE]>() }
}

/// A 64-byte C name field viewed as mutable bytes.
pub fn name_as_bytes_mut(name: &mut [core::ffi::c_char; BG_ANIM_NAME_SIZE]) -> &mut [u8; BG_ANIM_NAME_SIZE] {
    // SAFETY: as in `name_as_bytes`.
    unsafe { &mut *core::ptr::from_mut(name).cast::<[u8; BG_ANIM_NAME_SIZE]>() }
}

/// The two words of a condition mask (`bg_condition_bits_t`'s unsigned
/// view).
pub trait ConditionWords {
    /// The two words.
    fn words(&self) -> [u32; 2];
}

impl ConditionWords for bg_condition_bits_t {
    fn words(&self) -> [u32; 2] {
        // SAFETY: both views are two plain 32-bit words; every bit pattern is valid.
        unsafe { self.unsignedBits }
    }
}
