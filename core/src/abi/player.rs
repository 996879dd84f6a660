//! Mirrors of `player_state_types.h` and the head of `bg_weapon.h`'s
//! `weaponInfo_t`: the records the player-animation functions are handed.

use core::ffi::c_char;

// ---- player_state_types.h --------------------------------------------------

/// `playerState_t` (pointer-free, same layout on both arches): only the
/// fields the module uses are named.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct playerState_t {
    pub commandTime: i32,
    pub pmType: i32,
    pub bobCycle: i32,
    pub playerStateFlags: u32,
    pub opaque010: [u8; 0x60],
    pub legsTimer: i32,
    pub legsAnim: i32,
    pub torsoTimer: i32,
    pub torsoAnim: i32,
    pub opaque080: [u8; 4],
    pub entityStateFlags: u32,
    pub opaque088: [u8; 0x4c],
    pub psClientNum: i32,
    pub currentWeapon: i32,
    pub opaque0dc: [u8; 0xc],
    pub viewAngles: [f32; 3],
    pub opaque0f4: [u8; 0x520],
    pub vehiclePosition: i32,
    pub vehicleType: i32,
    pub vehicleMotion: i32,
    pub opaque620: [u8; 0x3ee4],
}

impl playerState_t {
    /// An all-zero state (about 17 KiB: box it where it is kept).
    pub const ZERO: Self = Self {
        commandTime: 0,
        pmType: 0,
        bobCycle: 0,
        playerStateFlags: 0,
        opaque010: [0; 0x60],
        legsTimer: 0,
        legsAnim: 0,
        torsoTimer: 0,
        torsoAnim: 0,
        opaque080: [0; 4],
        entityStateFlags: 0,
        opaque088: [0; 0x4c],
        psClientNum: 0,
        currentWeapon: 0,
        opaque0dc: [0; 0xc],
        viewAngles: [0.0; 3],
        opaque0f4: [0; 0x520],
        vehiclePosition: 0,
        vehicleType: 0,
        vehicleMotion: 0,
        opaque620: [0; 0x3ee4],
    };
}

crate::assert_size!(playerState_t, i686 = 0x4504, x86_64 = 0x4504);
crate::assert_offset!(playerState_t, commandTime, i686 = 0, x86_64 = 0);
crate::assert_offset!(playerState_t, pmType, i686 = 4, x86_64 = 4);
crate::assert_offset!(playerState_t, legsTimer, i686 = 0x70, x86_64 = 0x70);
crate::assert_offset!(playerState_t, legsAnim, i686 = 0x74, x86_64 = 0x74);
crate::assert_offset!(playerState_t, torsoTimer, i686 = 0x78, x86_64 = 0x78);
crate::assert_offset!(playerState_t, torsoAnim, i686 = 0x7c, x86_64 = 0x7c);
crate::assert_offset!(playerState_t, psClientNum, i686 = 0xd4, x86_64 = 0xd4);
crate::assert_offset!(playerState_t, playerStateFlags, i686 = 0xc, x86_64 = 0xc);
crate::assert_offset!(playerState_t, entityStateFlags, i686 = 0x84, x86_64 = 0x84);
crate::assert_offset!(playerState_t, currentWeapon, i686 = 0xd8, x86_64 = 0xd8);
crate::assert_offset!(playerState_t, viewAngles, i686 = 0xe8, x86_64 = 0xe8);
crate::assert_offset!(playerState_t, vehiclePosition, i686 = 0x614, x86_64 = 0x614);
crate::assert_offset!(playerState_t, vehicleType, i686 = 0x618, x86_64 = 0x618);
crate::assert_offset!(playerState_t, vehicleMotion, i686 = 0x61c, x86_64 = 0x61c);

/// `entityState_t` (pointer-free, 0xf4 bytes): only the fields the module
/// uses are named.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct entityState_t {
    pub number: i32,
    pub eType: i32,
    pub eFlags: u32,
    /// `pos.trType .. pos.trDuration`.
    pub opaque00c: [u8; 0xc],
    /// `pos.trBase`.
    pub trBase: [f32; 3],
    pub opaque024: [u8; 0x64],
    pub vehicleAnimState: i32,
    pub opaque08c: [u8; 8],
    pub clientNum: i32,
    pub opaque098: [u8; 0x34],
    pub weapon: i32,
    pub legsAnim: i32,
    pub opaque0d4: [u8; 0x20],
}

crate::assert_size!(entityState_t, i686 = 0xf4, x86_64 = 0xf4);
crate::assert_offset!(entityState_t, eFlags, i686 = 8, x86_64 = 8);
crate::assert_offset!(entityState_t, trBase, i686 = 0x18, x86_64 = 0x18);
crate::assert_offset!(entityState_t, vehicleAnimState, i686 = 0x88, x86_64 = 0x88);
crate::assert_offset!(entityState_t, clientNum, i686 = 0x94, x86_64 = 0x94);
crate::assert_offset!(entityState_t, weapon, i686 = 0xcc, x86_64 = 0xcc);
crate::assert_offset!(entityState_t, legsAnim, i686 = 0xd0, x86_64 = 0xd0);

/// `usercmd_t`'s first two fields.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct usercmd_t {
    pub commandTime: i32,
    pub buttons: i32,
}

/// `pmove_t`'s first two fields (the module reads `ps` and
/// `command.buttons`; the record is the engine's).
#[repr(C)]
pub struct pmove_t {
    pub ps: *mut playerState_t,
    pub command: usercmd_t,
}

crate::assert_offset!(pmove_t, command, i686 = 4, x86_64 = 8);

// ---- bg_weapon.h -------------------------------------------------------------

/// `weaponInfo_t`: its head up to `weaponClass` (the module reads
/// `pickupName` and `weaponClass`).
#[repr(C)]
pub struct weaponInfo_t {
    pub weaponIndex: i32,
    pub pickupName: *const c_char,
    /// The other model and icon names.
    pub names: [*const c_char; 4],
    pub reserved: [u8; 4],
    /// The animation names.
    pub anims: [*const c_char; 23],
    pub modeName: *const c_char,
    pub weaponType: i32,
    pub weaponClass: i32,
}

crate::assert_offset!(weaponInfo_t, weaponClass, i686 = 0x80, x86_64 = 0xfc);

crate::assert_offset!(weaponInfo_t, weaponIndex, i686 = 0, x86_64 = 0);
crate::assert_offset!(weaponInfo_t, pickupName, i686 = 4, x86_64 = 8);

