//! Mirrors of `bg_animation_types.h`, `clientInfo_t` and `playerState_t`.
//!
//! Every size and offset below is asserted for i686 and x86_64; the numbers
//! are those of the C original (the structures widen only where they hold
//! pointers). Fields the module never touches are kept as opaque padding so
//! that the full records have their true sizes.

use crate::abi::common::scr_anim_t;
use crate::abi::EngineTree;
use core::ffi::{c_char, c_void};

// ---- geometry ---------------------------------------------------------------

/// `MAX_WEAPONS`: entries of `weaponStrings` ("none" + 127 weapons).
pub const MAX_WEAPONS: usize = 128;
/// `ANIM_COND_COUNT`: condition types (rows of `conditionWords`).
pub const ANIM_COND_COUNT: usize = 11;
/// `BG_ANIM_CONDITION_WORD_COUNT`: a condition value is two 32-bit words.
pub const BG_ANIM_CONDITION_WORD_COUNT: usize = 2;
/// `BG_ANIM_MAX_CONDITIONS`: conditions per script.
pub const BG_ANIM_MAX_CONDITIONS: usize = ANIM_COND_COUNT;
/// `BG_ANIM_CONDITION_VALUE_COUNT`: define slots per condition type.
pub const BG_ANIM_CONDITION_VALUE_COUNT: usize = 16;
/// `BG_ANIM_CONDITION_ALIAS_STRING_BUFFER_SIZE`: define-name storage.
pub const BG_ANIM_CONDITION_ALIAS_STRING_BUFFER_SIZE: usize = 10000;
/// `BG_ANIM_SCRIPT_FILE_MAX_BYTES`: largest accepted script file.
pub const BG_ANIM_SCRIPT_FILE_MAX_BYTES: usize = 99998;
/// `BG_ANIM_SCRIPT_FILE_BUFFER_SIZE`: the script text buffer.
pub const BG_ANIM_SCRIPT_FILE_BUFFER_SIZE: usize = 100000;
/// `BG_ANIM_MAX_SCRIPT_COMMANDS`: commands per script.
pub const BG_ANIM_MAX_SCRIPT_COMMANDS: usize = 8;
/// `BG_ANIM_MAX_LIST_ITEMS`: scripts per list.
pub const BG_ANIM_MAX_LIST_ITEMS: usize = 128;
/// `BG_ANIM_MAX_GLOBAL_SCRIPTS`: the global script pool.
pub const BG_ANIM_MAX_GLOBAL_SCRIPTS: usize = 2048;
/// `BG_ANIM_MAX_ANIMATIONS`: static entries / runtime registrations.
pub const BG_ANIM_MAX_ANIMATIONS: usize = 512;
/// `BGS_CLIENTINFO_COUNT`: rows of `bgs.clientinfo`.
pub const BGS_CLIENTINFO_COUNT: usize = 64;
/// `BG_RUNTIME_ANIMATION_NAME_SIZE`: name bytes of entries and registrations.
pub const BG_ANIM_NAME_SIZE: usize = 64;
/// `ANIM_STATE_COUNT`: RELAXED QUERY ALERT COMBAT.
pub const ANIM_STATE_COUNT: usize = 4;
/// `ANIM_MT_COUNT`: move types ("** UNUSED **" .. CLIMBDOWN).
pub const ANIM_MT_COUNT: usize = 18;
/// `ANIM_EVENT_COUNT`: events PAIN .. LMG_BREAKDOWN.
pub const ANIM_EVENT_COUNT: usize = 16;
/// `ANIM_EVENT_RELOAD`: events below it live in `events[]`, the rest in `scriptLists[]`.
pub const ANIM_EVENT_RELOAD: usize = 10;
/// `ANIM_EVENT_COUNT - ANIM_EVENT_RELOAD`.
pub const ANIM_SCRIPT_LIST_COUNT: usize = ANIM_EVENT_COUNT - ANIM_EVENT_RELOAD;
/// `ANIM_TOGGLEBIT`: restart toggle of legsAnim / torsoAnim.
pub const ANIM_TOGGLEBIT: u32 = 0x200;
/// `PM_DEAD`: pmType at and above which only DEATH events play.
pub const PM_DEAD: i32 = 6;

/// `bg_anim_condition_mode_t`.
pub const ANIM_CONDMODE_BITMASK: i32 = 0;
/// `bg_anim_condition_mode_t`.
pub const ANIM_CONDMODE_EQUAL: i32 = 1;

/// `bg_anim_condition_index_t` rows.
pub const ANIM_COND_WEAPON: i32 = 0;
pub const ANIM_COND_WEAPONCLASS: i32 = 1;
pub const ANIM_COND_MOUNTED: i32 = 2;
pub const ANIM_COND_VEHICLE: i32 = 3;
pub const ANIM_COND_VEHICLE_MOTION: i32 = 4;
pub const ANIM_COND_MOVETYPE: i32 = 5;
pub const ANIM_COND_UNDERHAND: i32 = 6;
pub const ANIM_COND_CROUCHING: i32 = 7;
pub const ANIM_COND_FIRING: i32 = 8;
pub const ANIM_COND_WEAPON_POSITION: i32 = 9;
pub const ANIM_COND_STRAFING: i32 = 10;

/// `bg_anim_body_part_t`.
pub const ANIM_BP_UNUSED: i32 = 0;
pub const ANIM_BP_LEGS: i32 = 1;
pub const ANIM_BP_TORSO: i32 = 2;
pub const ANIM_BP_BOTH: i32 = 3;

/// `bg_anim_move_type_t` values the module tests.
pub const ANIM_MT_UNUSED: i32 = 0;
pub const ANIM_MT_CLIMBUP: i32 = 16;
pub const ANIM_MT_CLIMBDOWN: i32 = 17;

/// `bg_anim_event_t` values the module tests.
pub const ANIM_EVENT_NONE: i32 = -1;
pub const ANIM_EVENT_PAIN: i32 = 0;
pub const ANIM_EVENT_DEATH: i32 = 1;
pub const ANIM_EVENT_FIRE_WEAPON: i32 = 2;

/// `bg_anim_strafe_t` values.
pub const ANIM_STRAFE_LEFT: i32 = 1;
pub const ANIM_STRAFE_RIGHT: i32 = 2;

/// `bg_anim_parse_section_t`.
pub const ANIM_SECTION_DEFINES: i32 = 0;
pub const ANIM_SECTION_ANIMATIONS: i32 = 1;
pub const ANIM_SECTION_CANNED_ANIMATIONS: i32 = 2;
pub const ANIM_SECTION_STATECHANGES: i32 = 3;
pub const ANIM_SECTION_EVENTS: i32 = 4;

/// `bg_anim_entry_flag_t` bits of `bg_static_animation_t::flags`.
pub const BG_ANIM_ENTRY_NON_PRIMITIVE: u32 = 0x001;
pub const BG_ANIM_ENTRY_VERTICAL_MOTION: u32 = 0x002;
pub const BG_ANIM_ENTRY_TURRET: u32 = 0x004;
pub const BG_ANIM_ENTRY_FIRE_WEAPON: u32 = 0x008;
pub const BG_ANIM_ENTRY_STRAFE_LEFT: u32 = 0x010;
pub const BG_ANIM_ENTRY_STRAFE_RIGHT: u32 = 0x020;
pub const BG_ANIM_ENTRY_DEATH: u32 = 0x040;
pub const BG_ANIM_ENTRY_LOOPED: u32 = 0x080;
pub const BG_ANIM_ENTRY_UNUSED: u32 = 0x100;

/// `BG_INDEXED_STRING_HASH_UNSET`: hash of a table entry not yet looked up.
pub const BG_INDEXED_STRING_HASH_UNSET: i32 = -1;

// ---- bg_animation_types.h --------------------------------------------------

/// `bg_indexed_string_t`: one entry of a NULL-name-terminated token table.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_indexed_string_t {
    pub name: *const c_char,
    /// Lazily cached `BG_StringHashValue(name)`; -1 = not computed yet.
    pub hash: i32,
}

impl bg_indexed_string_t {
    /// The terminating entry (NULL name, hash unset).
    pub const END: Self = Self { name: core::ptr::null(), hash: BG_INDEXED_STRING_HASH_UNSET };

    /// An entry for a static C string (the parser reads the name up to its
    /// NUL).
    pub const fn of(name: &'static core::ffi::CStr) -> Self {
        Self { name: name.as_ptr(), hash: BG_INDEXED_STRING_HASH_UNSET }
    }
}

/// An entry of the engine's tables, as the core's lookups read it (its
/// name is the caller's to read: see [`crate::lookup`]).
impl crate::lookup::IndexedName for bg_indexed_string_t {
    #[inline(always)]
    fn is_end(&self) -> bool {
        self.name.is_null()
    }
    #[inline(always)]
    fn hash(&self) -> i32 {
        self.hash
    }
    #[inline(always)]
    fn set_hash(&mut self, hash: i32) {
        self.hash = hash;
    }
}

crate::assert_size!(bg_indexed_string_t, i686 = 0x8, x86_64 = 0x10);
crate::assert_offset!(bg_indexed_string_t, name, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_indexed_string_t, hash, i686 = 4, x86_64 = 8);

/// `bg_anim_condition_t`: one condition of a script.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct bg_anim_condition_t {
    pub r#type: i32,
    pub value: [i32; 2],
}

crate::assert_size!(bg_anim_condition_t, i686 = 0xc, x86_64 = 0xc);
crate::assert_offset!(bg_anim_condition_t, r#type, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_anim_condition_t, value, i686 = 4, x86_64 = 4);

/// `bg_condition_bits_t`: a 64-bit condition mask as two words.
#[repr(C)]
#[derive(Clone, Copy)]
pub union bg_condition_bits_t {
    pub bits: [i32; 2],
    pub unsignedBits: [u32; 2],
}

impl bg_condition_bits_t {
    /// Both words zero.
    pub const ZERO: Self = Self { bits: [0, 0] };

    /// Replaces the two words.
    pub fn set_words(&mut self, words: [u32; 2]) {
        self.unsignedBits = words;
    }
}

impl Default for bg_condition_bits_t {
    fn default() -> Self {
        Self::ZERO
    }
}

crate::assert_size!(bg_condition_bits_t, i686 = 8, x86_64 = 8);

/// `bg_anim_condition_type_t`: mode and value table of a condition type.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_anim_condition_type_t {
    pub mode: i32,
    pub values: *mut bg_indexed_string_t,
}

crate::assert_size!(bg_anim_condition_type_t, i686 = 8, x86_64 = 0x10);
crate::assert_offset!(bg_anim_condition_type_t, mode, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_anim_condition_type_t, values, i686 = 4, x86_64 = 8);

/// `bg_anim_script_command_t`: one command (up to two body-part slots).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_anim_script_command_t {
    pub bodyPart: [i16; 2],
    pub animIndex: [i16; 2],
    pub duration: [i16; 2],
    pub soundAliasName: *const c_char,
}

impl bg_anim_script_command_t {
    /// An all-zero command.
    pub const ZERO: Self =
        Self { bodyPart: [0; 2], animIndex: [0; 2], duration: [0; 2], soundAliasName: core::ptr::null() };
}

crate::assert_size!(bg_anim_script_command_t, i686 = 0x10, x86_64 = 0x18);
crate::assert_offset!(bg_anim_script_command_t, bodyPart, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_anim_script_command_t, animIndex, i686 = 4, x86_64 = 4);
crate::assert_offset!(bg_anim_script_command_t, duration, i686 = 8, x86_64 = 8);
crate::assert_offset!(bg_anim_script_command_t, soundAliasName, i686 = 0xc, x86_64 = 0x10);

/// `bg_anim_script_t`: one parsed script (condition line + commands).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_anim_script_t {
    pub conditionCount: i32,
    pub conditions: [bg_anim_condition_t; BG_ANIM_MAX_CONDITIONS],
    pub commandCount: i32,
    pub commands: [bg_anim_script_command_t; BG_ANIM_MAX_SCRIPT_COMMANDS],
}

impl bg_anim_script_t {
    /// An all-zero script.
    pub const ZERO: Self = Self {
        conditionCount: 0,
        conditions: [bg_anim_condition_t { r#type: 0, value: [0; 2] }; BG_ANIM_MAX_CONDITIONS],
        commandCount: 0,
        commands: [bg_anim_script_command_t::ZERO; BG_ANIM_MAX_SCRIPT_COMMANDS],
    };
}

crate::assert_size!(bg_anim_script_t, i686 = 0x10c, x86_64 = 0x150);
crate::assert_offset!(bg_anim_script_t, conditionCount, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_anim_script_t, conditions, i686 = 4, x86_64 = 4);
crate::assert_offset!(bg_anim_script_t, commandCount, i686 = 0x88, x86_64 = 0x88);
crate::assert_offset!(bg_anim_script_t, commands, i686 = 0x8c, x86_64 = 0x90);

/// `bg_anim_script_list_t`: candidate scripts of one state/move/event.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_anim_script_list_t {
    pub count: i32,
    pub scripts: [*mut bg_anim_script_t; BG_ANIM_MAX_LIST_ITEMS],
}

crate::assert_size!(bg_anim_script_list_t, i686 = 0x204, x86_64 = 0x408);
crate::assert_offset!(bg_anim_script_list_t, count, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_anim_script_list_t, scripts, i686 = 4, x86_64 = 8);

/// `bg_static_animation_t`: one entry of the static animation table.
///
/// In C, `flags` and `stateFlags` are unions with byte views and
/// `usedByScript` overlays `uint16_t entryBone`; the module uses only the
/// word views.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_static_animation_t {
    pub name: [c_char; BG_ANIM_NAME_SIZE],
    pub blendTime: i32,
    pub moveSpeed: i32,
    pub duration: i32,
    pub hash: i32,
    pub flags: u32,
    pub stateFlags: u32,
    pub usedByScript: i32,
}

impl bg_static_animation_t {
    /// An all-zero entry.
    pub const ZERO: Self =
        Self { name: [0; BG_ANIM_NAME_SIZE], blendTime: 0, moveSpeed: 0, duration: 0, hash: 0, flags: 0, stateFlags: 0, usedByScript: 0 };
}

crate::assert_size!(bg_static_animation_t, i686 = 0x5c, x86_64 = 0x5c);
crate::assert_offset!(bg_static_animation_t, name, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_static_animation_t, blendTime, i686 = 0x40, x86_64 = 0x40);
crate::assert_offset!(bg_static_animation_t, moveSpeed, i686 = 0x44, x86_64 = 0x44);
crate::assert_offset!(bg_static_animation_t, duration, i686 = 0x48, x86_64 = 0x48);
crate::assert_offset!(bg_static_animation_t, hash, i686 = 0x4c, x86_64 = 0x4c);
crate::assert_offset!(bg_static_animation_t, flags, i686 = 0x50, x86_64 = 0x50);
crate::assert_offset!(bg_static_animation_t, stateFlags, i686 = 0x54, x86_64 = 0x54);
crate::assert_offset!(bg_static_animation_t, usedByScript, i686 = 0x58, x86_64 = 0x58);

/// `bg_runtime_animation_t`: an animation name registered in pass 1.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct bg_runtime_animation_t {
    pub anim: scr_anim_t,
    pub hash: i32,
    pub name: [c_char; BG_ANIM_NAME_SIZE],
}

crate::assert_size!(bg_runtime_animation_t, i686 = 0x48, x86_64 = 0x48);
crate::assert_offset!(bg_runtime_animation_t, anim, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_runtime_animation_t, hash, i686 = 4, x86_64 = 4);
crate::assert_offset!(bg_runtime_animation_t, name, i686 = 8, x86_64 = 8);

/// The anonymous `animTreeName` / `animTreeHandle` union ending the table.
#[repr(C)]
#[derive(Clone, Copy)]
pub union bg_anim_tree_ref_u {
    pub animTreeName: *const c_char,
    pub animTreeHandle: *mut EngineTree,
}

/// `bg_static_animation_table_t`: the whole parsed script.
#[repr(C)]
pub struct bg_static_animation_table_t {
    pub entries: [bg_static_animation_t; BG_ANIM_MAX_ANIMATIONS],
    pub entryCount: i32,
    pub animations: [[bg_anim_script_list_t; ANIM_MT_COUNT]; ANIM_STATE_COUNT],
    pub canned: [[bg_anim_script_list_t; ANIM_MT_COUNT]; ANIM_STATE_COUNT],
    /// Indexed `[to][from]`.
    pub statechanges: [[bg_anim_script_list_t; ANIM_STATE_COUNT]; ANIM_STATE_COUNT],
    pub events: [bg_anim_script_list_t; ANIM_EVENT_RELOAD],
    pub scriptLists: [bg_anim_script_list_t; ANIM_SCRIPT_LIST_COUNT],
    pub globalItems: [bg_anim_script_t; BG_ANIM_MAX_GLOBAL_SCRIPTS],
    pub globalItemCount: i32,
    pub animTree: bg_anim_tree_ref_u,
}

crate::assert_offset!(bg_static_animation_table_t, entries, i686 = 0, x86_64 = 0);
crate::assert_offset!(bg_static_animation_table_t, entryCount, i686 = 0xb800, x86_64 = 0xb800);
crate::assert_offset!(bg_static_animation_table_t, animations, i686 = 0xb804, x86_64 = 0xb808);
crate::assert_offset!(bg_static_animation_table_t, canned, i686 = 0x14924, x86_64 = 0x1da48);
crate::assert_offset!(bg_static_animation_table_t, statechanges, i686 = 0x1da44, x86_64 = 0x2fc88);
crate::assert_offset!(bg_static_animation_table_t, events, i686 = 0x1fa84, x86_64 = 0x33d08);
crate::assert_offset!(bg_static_animation_table_t, scriptLists, i686 = 0x20eac, x86_64 = 0x36558);
crate::assert_offset!(bg_static_animation_table_t, globalItems, i686 = 0x21ac4, x86_64 = 0x37d88);
crate::assert_offset!(bg_static_animation_table_t, globalItemCount, i686 = 0xa7ac4, x86_64 = 0xdfd88);
crate::assert_offset!(bg_static_animation_table_t, animTree, i686 = 0xa7ac8, x86_64 = 0xdfd90);
crate::assert_size!(bg_static_animation_table_t, i686 = 0xa7acc, x86_64 = 0xdfd98);

// ---- client_info_types.h ---------------------------------------------------

/// `bg_anim_slot_t`: the legs or torso animation slot of a client.
///
/// `animationOffset` is the entry's address on i686 and its byte offset
/// from `bgAnimStaticTable` on 64-bit targets (0: no animation either way).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct bg_anim_slot_t {
    /// The controller angles and their state (not used by the slot code).
    pub controlState: [u32; 4],
    pub animationWord: u32,
    pub animationOffset: u32,
    pub blendTime: i32,
    pub lastOrigin: [f32; 3],
    pub animRate: f32,
    pub lastUpdateTime: i32,
}

crate::assert_size!(bg_anim_slot_t, i686 = 0x30, x86_64 = 0x30);
crate::assert_offset!(bg_anim_slot_t, animationWord, i686 = 0x10, x86_64 = 0x10);
crate::assert_offset!(bg_anim_slot_t, animationOffset, i686 = 0x14, x86_64 = 0x14);
crate::assert_offset!(bg_anim_slot_t, blendTime, i686 = 0x18, x86_64 = 0x18);
crate::assert_offset!(bg_anim_slot_t, lastOrigin, i686 = 0x1c, x86_64 = 0x1c);
crate::assert_offset!(bg_anim_slot_t, animRate, i686 = 0x28, x86_64 = 0x28);
crate::assert_offset!(bg_anim_slot_t, lastUpdateTime, i686 = 0x2c, x86_64 = 0x2c);

/// `clientInfo_t`: the shared client animation record (only the fields the
/// module touches are named; the rest is opaque).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct clientInfo_t {
    pub infoValid: i32,
    /// `moduleState` union: `pmType` in the game module, `active` in cgame.
    pub moduleState: i32,
    pub clientNum: i32,
    /// name .. the controllers (+0x00c .. +0x380).
    pub opaque00c: [u8; 0x374],
    /// `bg_anim_slot_t legs, torso` (`legsYawAngle` .. +0x3e0).
    pub slots: [bg_anim_slot_t; 2],
    pub opaque3e0: [u8; 8],
    /// `float viewPitch`.
    pub viewPitch: f32,
    pub opaque3ec: [u8; 0x14],
    pub gunHandLeft: i32,
    pub dobjNeedsUpdate: i32,
    /// .. localTagOffset (+0x408 .. +0x468).
    pub opaque408: [u8; 0x60],
    /// `uint32_t conditionWords[ANIM_COND_COUNT][2]`.
    pub conditionWords: [[u32; BG_ANIM_CONDITION_WORD_COUNT]; ANIM_COND_COUNT],
    pub animTransitionTime: i32,
    /// `XAnimTree *animTree` (opaque here).
    pub animTree: *mut c_void,
    pub dobjSavedModel: u32,
    pub dobjVersion: u8,
    pub padding4cd: [u8; 3],
}

crate::assert_size!(clientInfo_t, i686 = 0x4d0, x86_64 = 0x4d8);
crate::assert_offset!(clientInfo_t, infoValid, i686 = 0, x86_64 = 0);
crate::assert_offset!(clientInfo_t, moduleState, i686 = 4, x86_64 = 4);
crate::assert_offset!(clientInfo_t, clientNum, i686 = 8, x86_64 = 8);
crate::assert_offset!(clientInfo_t, slots, i686 = 0x380, x86_64 = 0x380);
crate::assert_offset!(clientInfo_t, viewPitch, i686 = 0x3e8, x86_64 = 0x3e8);
crate::assert_offset!(clientInfo_t, gunHandLeft, i686 = 0x400, x86_64 = 0x400);
crate::assert_offset!(clientInfo_t, dobjNeedsUpdate, i686 = 0x404, x86_64 = 0x404);
crate::assert_offset!(clientInfo_t, conditionWords, i686 = 0x468, x86_64 = 0x468);
crate::assert_offset!(clientInfo_t, animTransitionTime, i686 = 0x4c0, x86_64 = 0x4c0);
crate::assert_offset!(clientInfo_t, animTree, i686 = 0x4c4, x86_64 = 0x4c8);
crate::assert_offset!(clientInfo_t, dobjSavedModel, i686 = 0x4c8, x86_64 = 0x4d0);
crate::assert_offset!(clientInfo_t, dobjVersion, i686 = 0x4cc, x86_64 = 0x4d4);
