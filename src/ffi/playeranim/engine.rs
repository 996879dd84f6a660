//! Engine imports of the player-animation units, one implementation per
//! flavour, chosen here and nowhere else:
//!
//! * `game`: the server game module's trap veneers and script-VM functions;
//!   `game_windows` the same, with the Windows build's two differences
//!   (`coduo_crt_randrange`, and `Scr_FindAnimTree` returning the pointer);
//! * `cgame`: the client engine's trap (`cgame_syscall` on i686,
//!   `cgame_syscall_vector` on x86_64, a function-pointer variable read at
//!   each call), the script-VM import table `cg_scriptImports` and the
//!   Windows CRT random range.
//!
//! Both offer the same functions with the same arguments; the core's engine
//! traits (`ParseEngine`, `FindTreeEngine`, `RuntimeEngine`, `FinalizeEngine`),
//! implemented below over them, are all the exports hand the core. Each
//! import is declared once, and in the cgame flavour there is one trap
//! wrapper and one import-slot lookup.
//!
//! SAFETY (every function of both flavours): an engine import called with
//! plain values and with pointers the caller guarantees (NUL-terminated
//! names, live handle slots, buffers of `length` bytes, live output
//! records); any of them may end in the engine's error function. In the
//! cgame flavour a NULL trap or slot answers 0 / NULL (divergence: the C
//! would crash).

#[cfg(any(feature = "game", feature = "game_windows"))]
pub(super) use game::*;
#[cfg(feature = "cgame")]
pub(super) use cgame::*;

// ---- the core's engines over these imports ---------------------------------

use crate::abi::common::XAnim;
use core::ffi::{c_char, c_int};
// the parser's, runtime's and finalize step's engines (the first member)
#[cfg(parse_exports)]
use {
    super::bgs,
    crate::abi::common::scr_anim_t,
    crate::cell::ModuleCell,
    crate::ffi::arg::c_str,
    crate::lexis::MAX_TOKEN_CHARS,
    crate::script::engine::ParseEngine,
    crate::script::runtime::engine::{FinalizeEngine, FindTreeEngine, RuntimeEngine},
    core::ffi::CStr,
};
// the per-frame functions' engine (the second member)
#[cfg(frame_exports)]
use {
    crate::abi::bg::weaponInfo_t,
    crate::script::runtime::frame::{SlotEngine, WeaponClasses},
    core::ffi::c_void,
};

#[cfg(parse_exports)]
/// The engine imports the parser uses.
pub(super) struct PlayerAnimImports;

#[cfg(parse_exports)]
impl ParseEngine for PlayerAnimImports {
    fn fs_open_read(&mut self, path: &CStr) -> (i32, i32) {
        let mut handle: c_int = 0;
        // SAFETY: NUL-terminated path and a live handle slot.
        let length = unsafe { fs_open_read(path.as_ptr(), &mut handle) };
        (length, handle)
    }

    fn fs_read(&mut self, buffer: &mut [u8], length: i32, handle: i32) {
        let length = length.clamp(0, buffer.len() as i32);
        // SAFETY: the buffer holds at least `length` bytes.
        unsafe { fs_read(buffer.as_mut_ptr().cast(), length, handle) }
    }

    fn fs_close(&mut self, handle: i32) {
        // SAFETY: plain value.
        unsafe { fs_close(handle) }
    }

    fn find_anim(&mut self, tree: &CStr, name: &CStr, out: &mut scr_anim_t) {
        // SAFETY: NUL-terminated strings and a live output record.
        unsafe { find_anim(tree.as_ptr(), name.as_ptr(), out) }
    }

    fn sound_alias(&mut self, name: &CStr) -> *const c_char {
        // The original reads the callback through the published table
        // pointer cast to `bgs_t`; the table is `bgs.animationTable`, so
        // this is `bgs.soundAliasCallback` (divergence for any other table:
        // still bgs's callback, never memory past a foreign table).
        // SAFETY: reads one field of the game's `bgs`, outside the table.
        let callback = unsafe { core::ptr::addr_of!((*bgs.as_ptr()).soundAliasCallback).read() };
        let Some(f) = callback else {
            // Divergence (NULL callback): no alias.
            return core::ptr::null();
        };
        // The callback gets the name in the module's token buffer, as the
        // original hands it the parse session's token: memory that outlives
        // the call (a callback may keep the pointer, or return it as the
        // alias), holding the name until the next sound of a parse.
        // SAFETY: module contract; the reference ends before the call.
        let token = unsafe { SOUND_TOKEN.get() };
        let bytes = name.to_bytes_with_nul();
        let len = bytes.len().min(token.len());
        token[..len].copy_from_slice(&bytes[..len]);
        token[token.len() - 1] = 0;
        // SAFETY: the engine's callback with a NUL-terminated name.
        unsafe { f(SOUND_TOKEN.as_ptr().cast()) }
    }
}

#[cfg(parse_exports)]
/// The sound name the alias callback is handed (a token: at most
/// `MAX_TOKEN_CHARS` bytes and its NUL).
static SOUND_TOKEN: ModuleCell<[u8; MAX_TOKEN_CHARS + 1]> = ModuleCell::new([0; MAX_TOKEN_CHARS + 1]);

#[cfg(parse_exports)]
/// The engine services for the runtime.
pub(super) struct Runtime;

#[cfg(parse_exports)]
impl RuntimeEngine for Runtime {
    fn rand_range(&mut self, minimum: i32, maximum: i32) -> i32 {
        // SAFETY: engine import with plain integer arguments.
        unsafe { rand_range(minimum, maximum) }
    }

    fn sound_event(&mut self, client_num: i32, alias: *const c_char) {
        // The original casts the table pointer to `bgs_t *` and reads the
        // callback field that follows the table. The published table is
        // `bgs.animationTable` (offset 0 of `bgs`), so that field is
        // `bgs.soundEventCallback`, read here directly (divergence for any
        // other table, as for the alias callback: still bgs's callback,
        // never memory past a foreign table).
        // SAFETY: one field of the game's `bgs`, outside the table (which
        // may be borrowed), read by value through a raw pointer; no
        // reference to the whole `bgs_t` is formed.
        let callback = unsafe { core::ptr::addr_of!((*bgs.as_ptr()).soundEventCallback).read() };
        if let Some(callback) = callback {
            // SAFETY: the engine-installed callback with the alias pointer the
            // alias callback returned.
            unsafe { callback(client_num, alias) }
        }
    }
}

#[cfg(parse_exports)]
/// The XAnim queries of the finalize step.
pub(super) struct Finalize;

#[cfg(parse_exports)]
impl FinalizeEngine for Finalize {
    type Tree = *mut XAnim;
    fn anims_index(&mut self, tree: *mut XAnim) -> u32 {
        // SAFETY: engine import; the tree pointer is the engine's own.
        unsafe { anims_index(tree) }
    }
    fn tree_size(&mut self, tree: *mut XAnim) -> i32 {
        // SAFETY: as above.
        unsafe { tree_size(tree) }
    }
    fn is_primitive(&mut self, tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: engine import with integer arguments.
        unsafe { is_primitive(tree_index, anim_index) }
    }
    fn anim_name(&mut self, tree_index: u16, anim_index: u16) -> Option<&CStr> {
        // SAFETY: engine import; the result is NULL or a NUL-terminated
        // string the engine keeps alive at least until the next trap.
        unsafe { c_str(anim_name(tree_index, anim_index)) }
    }
    fn length(&mut self, tree: *mut XAnim, anim_index: u16) -> i32 {
        // SAFETY: engine import.
        unsafe { length(tree, anim_index) }
    }
    fn rel_delta(&mut self, tree_index: u16, anim_index: u16, rotation: &mut [f32; 3], movement: &mut [f32; 3]) {
        // SAFETY: engine import writing into the two live arrays.
        unsafe { rel_delta(tree_index, anim_index, rotation.as_mut_ptr(), movement.as_mut_ptr()) }
    }
    fn is_looped(&mut self, tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: engine import with integer arguments.
        unsafe { is_looped(tree_index, anim_index) }
    }
}

#[cfg(frame_exports)]
/// The slot functions' engine side and the weapon records.
pub(super) struct Slots;

#[cfg(frame_exports)]
impl WeaponClasses for Slots {
    fn weapon_class(&mut self, weapon: i32) -> i32 {
        // SAFETY: engine import; the record it returns is the engine's
        // (NULL: class 0, divergence: the C would crash).
        unsafe { weapon_info(weapon).as_ref() }.map_or(0, |w| w.weaponClass)
    }
}

#[cfg(frame_exports)]
impl SlotEngine for Slots {
    fn time(&self) -> i32 {
        // SAFETY: plain read of the module's clock.
        unsafe { clock_time() }
    }
    fn sample_time(&self) -> i32 {
        // SAFETY: as above.
        unsafe { clock_sample() }
    }
    fn debug(&self) -> i32 {
        // SAFETY: as above.
        unsafe { debug_anim() }
    }
    fn anims_index(&mut self, anims: *mut XAnim) -> u32 {
        // SAFETY: engine import; the handle is the engine's own.
        unsafe { anims_index(anims) }
    }
    fn is_looped(&mut self, anim: u32) -> bool {
        // SAFETY: engine import with integer arguments.
        unsafe { is_looped((anim >> 16) as u16, anim as u16) }
    }
    fn is_primitive(&mut self, anim: u32) -> bool {
        // SAFETY: as above.
        unsafe { is_primitive((anim >> 16) as u16, anim as u16) }
    }
    fn length(&mut self, anims: *mut XAnim, index: u16) -> i32 {
        // SAFETY: engine import; the handle is the engine's own.
        unsafe { length(anims, index) }
    }
    fn weight(&mut self, tree: *mut c_void, anim: u32) -> f32 {
        // SAFETY: engine import; the tree is the client's, from the engine.
        unsafe { anim_weight(tree, anim) }
    }
    fn anim_time(&mut self, tree: *mut c_void, anim: u32) -> f32 {
        // SAFETY: as above.
        unsafe { anim_time(tree, anim) }
    }
    fn clear_goal_weight(&mut self, tree: *mut c_void, anim: u32, blend: f32) {
        // SAFETY: as above.
        unsafe { clear_goal_weight(tree, anim, blend) }
    }
    fn set_complete_goal_weight(&mut self, tree: *mut c_void, anim: u32, weight: f32, blend: f32, rate: f32, notify: u16, restart: bool) {
        // SAFETY: as above.
        unsafe { set_complete_goal_weight(tree, anim, weight, blend, rate, notify, restart) }
    }
    fn set_complete_goal_weight_knob_all(
        &mut self,
        tree: *mut c_void,
        anim: u32,
        knob: u32,
        weight: f32,
        blend: f32,
        rate: f32,
        notify: u16,
        restart: bool,
    ) {
        // SAFETY: as above.
        unsafe { set_complete_goal_weight_knob_all(tree, anim, knob, weight, blend, rate, notify, restart) }
    }
    fn set_anim_rate(&mut self, tree: *mut c_void, anim: u32, rate: f32) {
        // SAFETY: as above.
        unsafe { set_anim_rate(tree, anim, rate) }
    }
    fn set_time(&mut self, tree: *mut c_void, anim: u32, time: f32) {
        // SAFETY: as above.
        unsafe { set_time(tree, anim, time) }
    }
    fn print_anim(&mut self, legs: bool, index: u32, name: *const c_char, blend: i32) {
        let part = if legs { c"legs " } else { c"torso" };
        // SAFETY: the format's arguments: two NUL-terminated strings (the
        // name is an entry's name field) and two ints.
        unsafe {
            Com_Printf(c"Anim-%s: %i, %s, (blend time) %i\n".as_ptr(), part.as_ptr(), index as c_int, name, blend)
        }
    }
    fn print_move_speed(&mut self, name: *const c_char, move_speed: i32, speed: f32, rate: f32) {
        // SAFETY: the format's arguments: an entry's name, an int and two
        // doubles.
        unsafe {
            Com_Printf(c"MoveSpeed: %s, %i, %4.4f : %1.4f\n".as_ptr(), name, move_speed, f64::from(speed), f64::from(rate))
        }
    }
}

#[cfg(frame_exports)]
extern "C" {
    /// `void Com_Printf(const char *format, ...)`.
    fn Com_Printf(format: *const c_char, ...);
    /// `const weaponInfo_t *BG_GetInfoForWeapon(int32_t weapon)`.
    fn BG_GetInfoForWeapon(weapon: i32) -> *const weaponInfo_t;
}

#[cfg(frame_exports)]
/// The engine's weapon record of `weapon`.
unsafe fn weapon_info(weapon: i32) -> *const weaponInfo_t {
    // SAFETY: engine import with a plain value.
    unsafe { BG_GetInfoForWeapon(weapon) }
}

/// `vmCvar_t`: the head up to `integer`.
#[cfg_attr(not(frame_exports), allow(dead_code))]
#[repr(C)]
#[allow(non_camel_case_types, non_snake_case)]
pub struct vmCvar_t {
    pub handle: i32,
    pub modificationCount: i32,
    pub value: f32,
    pub integer: i32,
}

#[cfg(parse_exports)]
impl FindTreeEngine for PlayerAnimImports {
    fn find_anim_tree(&mut self, name: &CStr) -> *mut XAnim {
        // SAFETY: engine import with a NUL-terminated name.
        unsafe { find_anim_tree(name.as_ptr()) }
    }
}

/// The game flavour's imports (and the game_windows flavour's: the game
/// module built with `-DWINDOWS_BEHAVIOR`).
///
/// cbindgen:ignore
// (each of the two archive members uses a part of these veneers)
#[allow(dead_code)]
#[cfg(any(feature = "game", feature = "game_windows"))]
mod game {
    #[cfg(feature = "game")]
    use crate::abi::bg::script_anim_tree_ref_t;
    use crate::abi::common::{qboolean, scr_anim_t, XAnim};
    use crate::cell::ModuleCell;
    use core::ffi::{c_char, c_int, c_void};

    extern "C" {
        fn trap_FS_FOpenFile(path: *const c_char, handle: *mut c_int, mode: c_int) -> c_int;
        fn trap_FS_Read(buffer: *mut c_void, length: c_int, handle: c_int);
        fn trap_FS_FCloseFile(handle: c_int);
        fn Scr_FindAnim(treeName: *const c_char, animName: *const c_char, outAnim: *mut scr_anim_t);
        fn Scr_GetAnimsIndex(anims: *mut XAnim) -> u32;
        fn trap_XAnimGetAnimTreeSize(anims: *mut XAnim) -> c_int;
        fn trap_XAnimIsPrimitive(anim: u32) -> qboolean;
        fn trap_XAnimGetAnimName(anim: u32) -> *const c_char;
        fn trap_XAnimGetLength(anims: *mut XAnim, animIndex: u16) -> c_int;
        fn trap_XAnimGetRelDelta(anim: u32, rotationDelta: *mut f32, moveDelta: *mut f32, startTime: f32, endTime: f32);
        fn trap_XAnimIsLooped(anim: u32) -> qboolean;
        fn trap_XAnimGetWeight(tree: *mut c_void, anim: u32) -> f32;
        fn trap_XAnimGetTime(tree: *mut c_void, anim: u32) -> f32;
        fn trap_XAnimClearGoalWeight(tree: *mut c_void, anim: u32, blendTime: f32);
        fn trap_XAnimSetCompleteGoalWeight(tree: *mut c_void, anim: u32, weight: f32, blendTime: f32, rate: f32, notifyName: u16, restart: qboolean);
        fn trap_XAnimSetCompleteGoalWeightKnobAll(
            tree: *mut c_void,
            anim: u32,
            knob: u32,
            weight: f32,
            blendTime: f32,
            rate: f32,
            notifyName: u16,
            restart: qboolean,
        );
        fn trap_XAnimSetAnimRate(tree: *mut c_void, anim: u32, rate: f32);
        fn trap_XAnimSetTime(tree: *mut c_void, anim: u32, time: f32);
    }

    /// `struct { int32_t time, levelFrameTime, frameTime; } bg;`
    #[repr(C)]
    #[allow(non_camel_case_types, non_snake_case, dead_code)]
    struct bg_clock_t {
        time: i32,
        levelFrameTime: i32,
        frameTime: i32,
    }

    #[allow(non_upper_case_globals)]
    extern "C" {
        static bg: ModuleCell<bg_clock_t>;
        static bg_debugAnim: ModuleCell<super::vmCvar_t>;
    }

    pub unsafe fn clock_time() -> i32 {
        // SAFETY: plain read of the game's clock (module contract).
        unsafe { (*bg.as_ptr()).time }
    }
    pub unsafe fn clock_sample() -> i32 {
        // SAFETY: as above.
        unsafe { (*bg.as_ptr()).levelFrameTime }
    }
    pub unsafe fn debug_anim() -> i32 {
        // SAFETY: as above.
        unsafe { (*bg_debugAnim.as_ptr()).integer }
    }
    pub unsafe fn anim_weight(tree: *mut c_void, anim: u32) -> f32 {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimGetWeight(tree, anim) }
    }
    pub unsafe fn anim_time(tree: *mut c_void, anim: u32) -> f32 {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimGetTime(tree, anim) }
    }
    pub unsafe fn clear_goal_weight(tree: *mut c_void, anim: u32, blend: f32) {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimClearGoalWeight(tree, anim, blend) }
    }
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn set_complete_goal_weight(tree: *mut c_void, anim: u32, weight: f32, blend: f32, rate: f32, notify: u16, restart: bool) {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimSetCompleteGoalWeight(tree, anim, weight, blend, rate, notify, qboolean::from(restart)) }
    }
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn set_complete_goal_weight_knob_all(
        tree: *mut c_void,
        anim: u32,
        knob: u32,
        weight: f32,
        blend: f32,
        rate: f32,
        notify: u16,
        restart: bool,
    ) {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimSetCompleteGoalWeightKnobAll(tree, anim, knob, weight, blend, rate, notify, qboolean::from(restart)) }
    }
    pub unsafe fn set_anim_rate(tree: *mut c_void, anim: u32, rate: f32) {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimSetAnimRate(tree, anim, rate) }
    }
    pub unsafe fn set_time(tree: *mut c_void, anim: u32, time: f32) {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimSetTime(tree, anim, time) }
    }

    // The random range and the tree look-up of the Linux build ...
    #[cfg(feature = "game")]
    extern "C" {
        fn coduo_glibc_randrange(minimum: i32, maximum: i32) -> i32;
        fn Scr_FindAnimTree(treeName: *const c_char) -> script_anim_tree_ref_t;
    }
    // ... and of the Windows build (upstream random_compat.h and scr_vm.h
    // under WINDOWS_BEHAVIOR).
    #[cfg(feature = "game_windows")]
    extern "C" {
        fn coduo_crt_randrange(minimum: i32, maximum: i32) -> i32;
        fn Scr_FindAnimTree(treeName: *const c_char) -> *mut XAnim;
    }

    /// The game's per-node traps take `(tree << 16) | node`.
    fn packed(tree_index: u16, anim_index: u16) -> u32 {
        (u32::from(tree_index) << 16) | u32::from(anim_index)
    }

    /// Opens `path` for reading (mode 0): its length, or -1.
    pub unsafe fn fs_open_read(path: *const c_char, handle: *mut c_int) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { trap_FS_FOpenFile(path, handle, 0) }
    }
    pub unsafe fn fs_read(buffer: *mut c_void, length: i32, handle: i32) {
        // SAFETY: see the module's documentation.
        unsafe { trap_FS_Read(buffer, length, handle) }
    }
    pub unsafe fn fs_close(handle: i32) {
        // SAFETY: see the module's documentation.
        unsafe { trap_FS_FCloseFile(handle) }
    }
    #[cfg(feature = "game")]
    pub unsafe fn rand_range(minimum: i32, maximum: i32) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { coduo_glibc_randrange(minimum, maximum) }
    }
    #[cfg(feature = "game_windows")]
    pub unsafe fn rand_range(minimum: i32, maximum: i32) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { coduo_crt_randrange(minimum, maximum) }
    }
    pub unsafe fn find_anim(tree: *const c_char, name: *const c_char, out: *mut scr_anim_t) {
        // SAFETY: see the module's documentation.
        unsafe { Scr_FindAnim(tree, name, out) }
    }
    #[cfg(feature = "game")]
    pub unsafe fn find_anim_tree(name: *const c_char) -> *mut XAnim {
        // SAFETY: see the module's documentation.
        unsafe { Scr_FindAnimTree(name) }.tree
    }
    #[cfg(feature = "game_windows")]
    pub unsafe fn find_anim_tree(name: *const c_char) -> *mut XAnim {
        // SAFETY: see the module's documentation.
        unsafe { Scr_FindAnimTree(name) }
    }
    pub unsafe fn anims_index(tree: *mut XAnim) -> u32 {
        // SAFETY: see the module's documentation.
        unsafe { Scr_GetAnimsIndex(tree) }
    }
    pub unsafe fn tree_size(tree: *mut XAnim) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimGetAnimTreeSize(tree) }
    }
    pub unsafe fn is_primitive(tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimIsPrimitive(packed(tree_index, anim_index)) != 0 }
    }
    pub unsafe fn anim_name(tree_index: u16, anim_index: u16) -> *const c_char {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimGetAnimName(packed(tree_index, anim_index)) }
    }
    pub unsafe fn length(tree: *mut XAnim, anim_index: u16) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimGetLength(tree, anim_index) }
    }
    /// The move delta over the whole animation (2 rotation and 3 move
    /// floats written).
    pub unsafe fn rel_delta(tree_index: u16, anim_index: u16, rotation: *mut f32, movement: *mut f32) {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimGetRelDelta(packed(tree_index, anim_index), rotation, movement, 0.0, 1.0) }
    }
    pub unsafe fn is_looped(tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: see the module's documentation.
        unsafe { trap_XAnimIsLooped(packed(tree_index, anim_index)) != 0 }
    }
}

/// The cgame flavour's imports.
///
/// cbindgen:ignore
// (each of the two archive members uses a part of these veneers)
#[allow(dead_code)]
#[cfg(feature = "cgame")]
mod cgame {
    use crate::abi::common::{scr_anim_t, XAnim};
    use crate::cell::ModuleCell;
    use core::ffi::{c_char, c_int, c_void};

    #[allow(non_upper_case_globals)]
    extern "C" {
        fn coduo_crt_randrange(minimum: i32, maximum: i32) -> i32;
        #[cfg(target_pointer_width = "32")]
        static cgame_syscall: ModuleCell<Option<unsafe extern "C" fn(command: isize, ...) -> isize>>;
        #[cfg(target_pointer_width = "64")]
        static cgame_syscall_vector: ModuleCell<Option<unsafe extern "C" fn(words: *mut isize) -> isize>>;
        static cg_scriptImports: ModuleCell<[Option<unsafe extern "C" fn()>; 102]>;
        /// The client's effect clock, an int stored as a 32-bit word.
        static cg_effectTime: ModuleCell<u32>;
        static cg_effectAnimTime: ModuleCell<i32>;
        static cg_debuganim_vmCvar: ModuleCell<super::vmCvar_t>;
    }

    const XANIM_CLEAR_GOAL_WEIGHT: isize = 137;
    const XANIM_SET_COMPLETE_GOAL_WEIGHT_KNOB_ALL: isize = 141;
    const XANIM_SET_COMPLETE_GOAL_WEIGHT: isize = 144;
    const XANIM_SET_ANIM_RATE: isize = 145;
    const XANIM_SET_TIME: isize = 148;
    const XANIM_GET_TIME: isize = 149;
    const XANIM_GET_WEIGHT: isize = 150;

    /// A float argument word: its bit pattern.
    fn bits(value: f32) -> isize {
        value.to_bits() as isize
    }

    /// The animation word of the cgame's traps: the low half (index).
    fn low(anim: u32) -> isize {
        (anim & 0xffff) as isize
    }

    pub unsafe fn clock_time() -> i32 {
        // SAFETY: plain read of the client's clock (module contract).
        unsafe { *cg_effectTime.as_ptr() as i32 }
    }
    pub unsafe fn clock_sample() -> i32 {
        // SAFETY: as above.
        unsafe { *cg_effectAnimTime.as_ptr() }
    }
    pub unsafe fn debug_anim() -> i32 {
        // SAFETY: as above.
        unsafe { (*cg_debuganim_vmCvar.as_ptr()).integer }
    }
    pub unsafe fn anim_weight(tree: *mut c_void, anim: u32) -> f32 {
        // SAFETY: see the module's documentation.
        f32::from_bits(unsafe { syscall(XANIM_GET_WEIGHT, [tree as isize, low(anim)]) } as u32)
    }
    pub unsafe fn anim_time(tree: *mut c_void, anim: u32) -> f32 {
        // SAFETY: see the module's documentation.
        f32::from_bits(unsafe { syscall(XANIM_GET_TIME, [tree as isize, low(anim)]) } as u32)
    }
    pub unsafe fn clear_goal_weight(tree: *mut c_void, anim: u32, blend: f32) {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_CLEAR_GOAL_WEIGHT, [tree as isize, low(anim), bits(blend)]) };
    }
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn set_complete_goal_weight(tree: *mut c_void, anim: u32, weight: f32, blend: f32, rate: f32, notify: u16, restart: bool) {
        let words = [tree as isize, low(anim), bits(weight), bits(blend), bits(rate), notify as isize, restart as isize];
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_SET_COMPLETE_GOAL_WEIGHT, words) };
    }
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn set_complete_goal_weight_knob_all(
        tree: *mut c_void,
        anim: u32,
        knob: u32,
        weight: f32,
        blend: f32,
        rate: f32,
        notify: u16,
        restart: bool,
    ) {
        let words =
            [tree as isize, low(anim), low(knob), bits(weight), bits(blend), bits(rate), notify as isize, restart as isize];
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_SET_COMPLETE_GOAL_WEIGHT_KNOB_ALL, words) };
    }
    pub unsafe fn set_anim_rate(tree: *mut c_void, anim: u32, rate: f32) {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_SET_ANIM_RATE, [tree as isize, low(anim), bits(rate)]) };
    }
    pub unsafe fn set_time(tree: *mut c_void, anim: u32, time: f32) {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_SET_TIME, [tree as isize, low(anim), bits(time)]) };
    }

    // Trap commands (ids of the client engine's command table).
    const FS_FOPEN_FILE: isize = 15;
    const FS_READ: isize = 16;
    const FS_FCLOSE_FILE: isize = 18;
    const XANIM_IS_LOOPED_BY_TREE_INDEX: isize = 146;
    const XANIM_GET_REL_DELTA: isize = 158;
    const XANIM_GET_ANIM_NAME: isize = 164;
    const XANIM_IS_PRIMITIVE: isize = 182;
    const XANIM_GET_LENGTH: isize = 183;
    const XANIM_GET_ANIM_TREE_SIZE: isize = 187;
    /// `1.0f` as the bit pattern the trap receives.
    const ONE_F32_BITS: isize = 0x3f80_0000;

    // Slots of the script-VM import table.
    const SLOT_FIND_ANIM_TREE: usize = 80;
    const SLOT_FIND_ANIM: usize = 81;
    const SLOT_GET_ANIMS_INDEX: usize = 98;

    /// The trap with the `N` argument words of `command` (1 to 6). The
    /// engine reads as many words as the command takes: on i686 exactly
    /// these are passed (cdecl, variadic); on x86_64 the vector holds the
    /// command, these words and zeros up to eight.
    ///
    /// # Safety
    /// The words must be valid for the command.
    #[inline(always)]
    unsafe fn syscall<const N: usize>(command: isize, args: [isize; N]) -> isize {
        const { assert!(N >= 1 && N <= 8) };
        #[cfg(target_pointer_width = "32")]
        {
            let mut w = [0isize; 8];
            w[..N].copy_from_slice(&args);
            // SAFETY: the engine's trap pointer, read when calling; one
            // word per argument.
            unsafe {
                match *cgame_syscall.as_ptr() {
                    Some(f) => match N {
                        1 => f(command, w[0]),
                        2 => f(command, w[0], w[1]),
                        3 => f(command, w[0], w[1], w[2]),
                        4..=6 => f(command, w[0], w[1], w[2], w[3], w[4], w[5]),
                        7 => f(command, w[0], w[1], w[2], w[3], w[4], w[5], w[6]),
                        _ => f(command, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]),
                    },
                    None => 0,
                }
            }
        }
        #[cfg(target_pointer_width = "64")]
        {
            let mut words = [0isize; 9];
            words[0] = command;
            words[1..=N].copy_from_slice(&args);
            // SAFETY: as above; the array outlives the call.
            unsafe {
                match *cgame_syscall_vector.as_ptr() {
                    Some(f) => f(words.as_mut_ptr()),
                    None => 0,
                }
            }
        }
    }

    /// The import-table slot `index`, read when calling, as a function of
    /// type `F` (`None` when the engine left it NULL).
    ///
    /// # Safety
    /// `F` must be an `extern "C"` function pointer type, the slot's
    /// signature.
    #[inline(always)]
    unsafe fn slot<F: Copy>(index: usize) -> Option<F> {
        const { assert!(size_of::<F>() == size_of::<unsafe extern "C" fn()>()) };
        // SAFETY: plain read of the engine-filled table (single-threaded
        // module contract); a function pointer of another signature has
        // the same size and representation (checked above).
        unsafe { (*cg_scriptImports.as_ptr())[index].map(|f| core::mem::transmute_copy::<unsafe extern "C" fn(), F>(&f)) }
    }

    /// Opens `path` for reading (mode 0): its length, or -1.
    pub unsafe fn fs_open_read(path: *const c_char, handle: *mut c_int) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { syscall(FS_FOPEN_FILE, [path as isize, handle as isize, 0]) as i32 }
    }
    pub unsafe fn fs_read(buffer: *mut c_void, length: i32, handle: i32) {
        // SAFETY: see the module's documentation.
        unsafe { syscall(FS_READ, [buffer as isize, length as isize, handle as isize]) };
    }
    pub unsafe fn fs_close(handle: i32) {
        // SAFETY: see the module's documentation.
        unsafe { syscall(FS_FCLOSE_FILE, [handle as isize]) };
    }
    pub unsafe fn rand_range(minimum: i32, maximum: i32) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { coduo_crt_randrange(minimum, maximum) }
    }
    pub unsafe fn find_anim(tree: *const c_char, name: *const c_char, out: *mut scr_anim_t) {
        type FindAnim = unsafe extern "C" fn(*const c_char, *const c_char, *mut scr_anim_t);
        // SAFETY: see the module's documentation; the slot's signature.
        if let Some(f) = unsafe { slot::<FindAnim>(SLOT_FIND_ANIM) } {
            // SAFETY: see the module's documentation.
            unsafe { f(tree, name, out) }
        }
    }
    pub unsafe fn find_anim_tree(name: *const c_char) -> *mut XAnim {
        type FindAnimTree = unsafe extern "C" fn(*const c_char) -> *mut XAnim;
        // SAFETY: see the module's documentation; the slot's signature.
        match unsafe { slot::<FindAnimTree>(SLOT_FIND_ANIM_TREE) } {
            // SAFETY: see the module's documentation.
            Some(f) => unsafe { f(name) },
            None => core::ptr::null_mut(),
        }
    }
    pub unsafe fn anims_index(tree: *mut XAnim) -> u32 {
        type GetAnimsIndex = unsafe extern "C" fn(*mut XAnim) -> u32;
        // SAFETY: see the module's documentation; the slot's signature.
        match unsafe { slot::<GetAnimsIndex>(SLOT_GET_ANIMS_INDEX) } {
            // SAFETY: see the module's documentation.
            Some(f) => unsafe { f(tree) },
            None => 0,
        }
    }
    pub unsafe fn tree_size(tree: *mut XAnim) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_GET_ANIM_TREE_SIZE, [tree as isize]) as i32 }
    }
    pub unsafe fn is_primitive(tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_IS_PRIMITIVE, [tree_index as isize, anim_index as isize]) as i32 != 0 }
    }
    pub unsafe fn anim_name(tree_index: u16, anim_index: u16) -> *const c_char {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_GET_ANIM_NAME, [tree_index as isize, anim_index as isize]) as *const c_char }
    }
    pub unsafe fn length(tree: *mut XAnim, anim_index: u16) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_GET_LENGTH, [tree as isize, anim_index as isize]) as i32 }
    }
    /// The move delta over the whole animation (2 rotation and 3 move
    /// floats written); the times go as the bit patterns of 0.0f and 1.0f.
    pub unsafe fn rel_delta(tree_index: u16, anim_index: u16, rotation: *mut f32, movement: *mut f32) {
        let words = [tree_index as isize, anim_index as isize, rotation as isize, movement as isize, 0, ONE_F32_BITS];
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_GET_REL_DELTA, words) };
    }
    pub unsafe fn is_looped(tree_index: u16, anim_index: u16) -> bool {
        // SAFETY: see the module's documentation.
        unsafe { syscall(XANIM_IS_LOOPED_BY_TREE_INDEX, [tree_index as isize, anim_index as isize]) as i32 != 0 }
    }
}
