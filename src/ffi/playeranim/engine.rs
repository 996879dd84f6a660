//! Engine imports of the player-animation units, one implementation per
//! flavour, chosen here and nowhere else:
//!
//! * `game`: the server game module's trap veneers and script-VM functions;
//! * `cgame`: the client engine's trap (`cgame_syscall` on i686,
//!   `cgame_syscall_vector` on x86_64, a function-pointer variable read at
//!   each call), the script-VM import table `cg_scriptImports` and the
//!   Windows CRT random range.
//!
//! Both offer the same functions with the same arguments; the core's engine
//! traits (`ParseEngine`, `TreeEngine`, `RuntimeEngine`, `FinalizeEngine`),
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

#[cfg(feature = "game")]
pub(super) use game::*;
#[cfg(feature = "cgame")]
pub(super) use cgame::*;

// ---- the core's engines over these imports ---------------------------------

use super::bgs;
use crate::abi::common::{scr_anim_t, XAnim};
use crate::script::engine::ParseEngine;
use crate::script::runtime::engine::{FinalizeEngine, RuntimeEngine, TreeEngine};
use crate::cell::ModuleCell;
use crate::ffi::arg::c_str;
use crate::lexis::MAX_TOKEN_CHARS;
use core::ffi::{c_char, c_int, CStr};

/// The engine imports the parser uses.
pub(super) struct Engine;

impl ParseEngine for Engine {
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

/// The sound name the alias callback is handed (a token: at most
/// `MAX_TOKEN_CHARS` bytes and its NUL).
static SOUND_TOKEN: ModuleCell<[u8; MAX_TOKEN_CHARS + 1]> = ModuleCell::new([0; MAX_TOKEN_CHARS + 1]);

/// The engine services for the runtime.
pub(super) struct Runtime;

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

/// The XAnim queries of the finalize step.
pub(super) struct Finalize;

impl FinalizeEngine for Finalize {
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

impl TreeEngine for Engine {
    fn find_anim_tree(&mut self, name: &CStr) -> *mut XAnim {
        // SAFETY: engine import with a NUL-terminated name.
        unsafe { find_anim_tree(name.as_ptr()) }
    }
}

/// The game flavour's imports.
///
/// cbindgen:ignore
#[cfg(feature = "game")]
mod game {
    use crate::abi::bg::script_anim_tree_ref_t;
    use crate::abi::common::{qboolean, scr_anim_t, XAnim};
    use core::ffi::{c_char, c_int, c_void};

    extern "C" {
        fn trap_FS_FOpenFile(path: *const c_char, handle: *mut c_int, mode: c_int) -> c_int;
        fn trap_FS_Read(buffer: *mut c_void, length: c_int, handle: c_int);
        fn trap_FS_FCloseFile(handle: c_int);
        fn coduo_glibc_randrange(minimum: i32, maximum: i32) -> i32;
        fn Scr_FindAnim(treeName: *const c_char, animName: *const c_char, outAnim: *mut scr_anim_t);
        fn Scr_FindAnimTree(treeName: *const c_char) -> script_anim_tree_ref_t;
        fn Scr_GetAnimsIndex(anims: *mut XAnim) -> u32;
        fn trap_XAnimGetAnimTreeSize(anims: *mut XAnim) -> c_int;
        fn trap_XAnimIsPrimitive(anim: u32) -> qboolean;
        fn trap_XAnimGetAnimName(anim: u32) -> *const c_char;
        fn trap_XAnimGetLength(anims: *mut XAnim, animIndex: u16) -> c_int;
        fn trap_XAnimGetRelDelta(anim: u32, rotationDelta: *mut f32, moveDelta: *mut f32, startTime: f32, endTime: f32);
        fn trap_XAnimIsLooped(anim: u32) -> qboolean;
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
    pub unsafe fn rand_range(minimum: i32, maximum: i32) -> i32 {
        // SAFETY: see the module's documentation.
        unsafe { coduo_glibc_randrange(minimum, maximum) }
    }
    pub unsafe fn find_anim(tree: *const c_char, name: *const c_char, out: *mut scr_anim_t) {
        // SAFETY: see the module's documentation.
        unsafe { Scr_FindAnim(tree, name, out) }
    }
    pub unsafe fn find_anim_tree(name: *const c_char) -> *mut XAnim {
        // SAFETY: see the module's documentation.
        unsafe { Scr_FindAnimTree(name) }.tree
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
    /// command, these words and zeros up to six.
    ///
    /// # Safety
    /// The words must be valid for the command.
    #[inline(always)]
    unsafe fn syscall<const N: usize>(command: isize, args: [isize; N]) -> isize {
        const { assert!(N >= 1 && N <= 6) };
        #[cfg(target_pointer_width = "32")]
        {
            let mut w = [0isize; 6];
            w[..N].copy_from_slice(&args);
            // SAFETY: the engine's trap pointer, read when calling; one
            // word per argument.
            unsafe {
                match *cgame_syscall.as_ptr() {
                    Some(f) => match N {
                        1 => f(command, w[0]),
                        2 => f(command, w[0], w[1]),
                        3 => f(command, w[0], w[1], w[2]),
                        _ => f(command, w[0], w[1], w[2], w[3], w[4], w[5]),
                    },
                    None => 0,
                }
            }
        }
        #[cfg(target_pointer_width = "64")]
        {
            let mut words = [0isize; 7];
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
