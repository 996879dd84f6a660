//! `BG_FinalizePlayerAnims`' rebuild of the static entries from the
//! animation tree, and `BG_SetupAnimNoteTypes`, over the engine's table in
//! its C layout. The tree's queries are an engine trait
//! ([`FinalizeEngine`]); the move speed's float formula is
//! [`crate::formulas::move_distance`] over the caller's arithmetic and
//! square roots.

use crate::abi::bg::*;
use crate::arith::Arith;
use crate::formulas::{move_distance, move_speed, MIN_ANIM_LENGTH_MS};
use crate::lexis::string_hash;
use crate::math::Roots;
use crate::Behaviour;
use core::ffi::{c_char, CStr};

/// The engine's queries of the rebuild.
///
/// Per-node queries take the tree index (low 16 bits of
/// [`anims_index`](FinalizeEngine::anims_index)) and the node index; the game
/// packs them as `(tree << 16) | node`, cgame passes two words.
pub trait FinalizeEngine {
    /// The engine's handle of a tree (its address, in the units).
    type Tree: Copy;
    /// `Scr_GetAnimsIndex(tree)`.
    fn anims_index(&mut self, tree: Self::Tree) -> u32;
    /// `trap_XAnimGetAnimTreeSize(tree)`: node count.
    fn tree_size(&mut self, tree: Self::Tree) -> i32;
    /// `trap_XAnimIsPrimitive`.
    fn is_primitive(&mut self, tree_index: u16, anim_index: u16) -> bool;
    /// `trap_XAnimGetAnimName`: the name (None for a NULL pointer).
    fn anim_name(&mut self, tree_index: u16, anim_index: u16) -> Option<&CStr>;
    /// `trap_XAnimGetLength(tree, animIndex)`: milliseconds.
    fn length(&mut self, tree: Self::Tree, anim_index: u16) -> i32;
    /// `trap_XAnimGetRelDelta(anim, rotation, move, 0.0f, 1.0f)`.
    fn rel_delta(&mut self, tree_index: u16, anim_index: u16, rotation: &mut [f32; 3], movement: &mut [f32; 3]);
    /// `trap_XAnimIsLooped`.
    fn is_looped(&mut self, tree_index: u16, anim_index: u16) -> bool;
}

/// Why the rebuild stopped (the engine's text is the units').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalizeFailure {
    /// `BG_GetAnimationForIndex`'s range check: a node index at or past
    /// the entry count (compared unsigned).
    AnimIndexRange {
        /// The node index.
        index: i32,
        /// The entry count.
        count: i32,
    },
}

/// Flags of entry 0 ("root"): NON_PRIMITIVE | UNUSED.
pub const ROOT_FLAGS: u32 = BG_ANIM_ENTRY_NON_PRIMITIVE | BG_ANIM_ENTRY_UNUSED;
/// Blend time written over a zero blend time ("none").
pub const BLEND_NONE: i32 = -1;

/// `Q_strncpyz(field, source, 64)`: at most 63 bytes of `source` (up to its
/// first NUL), the rest of the field zero-filled (strncpy padding).
// `c_char` is `i8` on x86 and `u8` on aarch64: the casts are real on one of them.
#[allow(clippy::unnecessary_cast)]
pub fn copy_name(field: &mut [c_char; BG_ANIM_NAME_SIZE], source: &[u8]) {
    let length = source.iter().take(BG_ANIM_NAME_SIZE - 1).position(|&b| b == 0).unwrap_or(source.len().min(BG_ANIM_NAME_SIZE - 1));
    field.fill(0);
    for (to, &from) in field.iter_mut().zip(&source[..length]) {
        *to = from as c_char;
    }
}

/// A name field's bytes (`char` is signed on x86, unsigned on aarch64;
/// the bytes are the same).
#[allow(clippy::unnecessary_cast)]
fn name_bytes(name: &[c_char; BG_ANIM_NAME_SIZE]) -> [u8; BG_ANIM_NAME_SIZE] {
    name.map(|c| c as u8)
}

/// `BG_StringHashValue` over a NUL-terminated name field.
fn entry_hash(name: &[c_char; BG_ANIM_NAME_SIZE]) -> i32 {
    let bytes = name_bytes(name);
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    string_hash(&bytes[..end])
}

/// The pool index of a script pointer of `table`'s lists, or `None` when it
/// does not point at a `globalItems` element of that table (NULL, foreign):
/// the pointer's address compared with the pool's, never followed.
#[inline]
pub fn resolve_script(table: &bg_static_animation_table_t, script: *const bg_anim_script_t) -> Option<usize> {
    const SIZE: usize = core::mem::size_of::<bg_anim_script_t>();
    let offset = (script as usize).wrapping_sub(table.globalItems.as_ptr() as usize);
    if offset >= SIZE * BG_ANIM_MAX_GLOBAL_SCRIPTS {
        return None;
    }
    // offset < 2^20: a 32-bit division by the constant is exact and cheap.
    let index = (offset as u32 / SIZE as u32) as usize;
    (index * SIZE == offset).then_some(index)
}

/// The first part of `BG_FinalizePlayerAnims`: rebuilds `entries[]` from the
/// tree (`tree`, the table's `animTreeHandle`) and the pass-1
/// registrations `runtime`.
///
/// Calls, in the original's order: `Scr_GetAnimsIndex`, tree size; then per
/// node 1..size-1: IsPrimitive, and for primitives GetAnimName, GetLength,
/// GetRelDelta (only for a non-zero length), IsLooped. Nodes without a
/// registration make no call.
///
/// * entry 0: flags |= NON_PRIMITIVE|UNUSED, name "root", hash 0 (Quirk:
///   "root" can therefore never be looked up);
/// * no registration: flags |= UNUSED, name "unused", hash 0 (Quirk: like
///   the root, an "unused" entry cannot be looked up by name);
/// * registered, not primitive: flags |= NON_PRIMITIVE, name/hash of the
///   registration, blend time -1 when 0, duration 0, move speed 0;
/// * primitive: engine name (63 bytes at most), its hash, blend time -1 when
///   0, duration = length; move speed from [`move_distance`] and
///   [`move_speed`] (Quirk: divided by the raw length before the 500 ms
///   floor); then the floor; LOOPED when looped.
///
/// `entryCount` becomes the tree size unchecked, as in the original; nodes
/// past the 512 entries (a tree the original overflows on) are not visited.
#[allow(clippy::too_many_arguments)]
pub fn rebuild_entries<E: FinalizeEngine, A: Arith, R: Roots>(
    behaviour: Behaviour,
    x87: A,
    roots: R,
    tree: E::Tree,
    table: &mut bg_static_animation_table_t,
    runtime: &[bg_runtime_animation_t],
    engine: &mut E,
) -> Result<(), FinalizeFailure> {
    let tree_index = engine.anims_index(tree) as u16;
    let size = engine.tree_size(tree);
    table.entryCount = size;

    let root = &mut table.entries[0];
    root.flags |= ROOT_FLAGS;
    copy_name(&mut root.name, b"root");
    root.hash = 0;

    // The first registration of each node, found once instead of by a scan
    // per node (same answer: the lowest registration index wins).
    let mut first_registration = [u16::MAX; BG_ANIM_MAX_ANIMATIONS];
    for (index, registration) in runtime.iter().enumerate().take(BG_ANIM_MAX_ANIMATIONS).rev() {
        if let Some(slot) = first_registration.get_mut(usize::from(registration.anim.animIndex)) {
            *slot = index as u16;
        }
    }

    let mut bone: i32 = 1;
    while bone < size {
        if bone as u32 >= table.entryCount as u32 {
            return Err(FinalizeFailure::AnimIndexRange { index: bone, count: table.entryCount });
        }
        let Some(entry) = table.entries.get_mut(bone as usize) else {
            break;
        };
        let node = bone as u16;
        let registered = first_registration.get(bone as usize).and_then(|&i| runtime.get(usize::from(i)));
        let Some(registered) = registered else {
            entry.flags |= BG_ANIM_ENTRY_UNUSED;
            copy_name(&mut entry.name, b"unused");
            entry.hash = 0;
            bone += 1;
            continue;
        };
        if !engine.is_primitive(tree_index, node) {
            entry.flags |= BG_ANIM_ENTRY_NON_PRIMITIVE;
            copy_name(&mut entry.name, &name_bytes(&registered.name));
            entry.hash = registered.hash;
            if entry.blendTime == 0 {
                entry.blendTime = BLEND_NONE;
            }
            entry.duration = 0;
            entry.moveSpeed = 0;
            bone += 1;
            continue;
        }
        let name = engine.anim_name(tree_index, node).map(|n| n.to_bytes());
        copy_name(&mut entry.name, name.unwrap_or(b""));
        entry.hash = entry_hash(&entry.name);
        if entry.blendTime == 0 {
            entry.blendTime = BLEND_NONE;
        }
        let length = engine.length(tree, node);
        entry.duration = length;
        entry.moveSpeed = if length != 0 {
            let mut rotation = [0f32; 3];
            let mut movement = [0f32; 3];
            engine.rel_delta(tree_index, node, &mut rotation, &mut movement);
            move_speed(move_distance(x87, roots, behaviour, movement), entry.duration)
        } else {
            0
        };
        if entry.duration < MIN_ANIM_LENGTH_MS {
            entry.duration = MIN_ANIM_LENGTH_MS;
        }
        if engine.is_looped(tree_index, node) {
            entry.flags |= BG_ANIM_ENTRY_LOOPED;
        }
        bone += 1;
    }
    Ok(())
}

/// `BG_SetupAnimNoteTypes`: clears `usedByScript` of entries 0..entryCount-1,
/// then sets it for every animation a command of `scriptLists[0]` plays.
///
/// Quirk: `scriptLists[0]` is the RELOAD event list, so only reload
/// animations are ever marked. A slot counts when its body part is non-zero
/// (also -1). List slots that do not point into the pool, and animation
/// indices outside the 512 entries, are skipped.
pub fn setup_anim_note_types(table: &mut bg_static_animation_table_t) {
    let count = usize::try_from(table.entryCount).unwrap_or(0).min(BG_ANIM_MAX_ANIMATIONS);
    for entry in &mut table.entries[..count] {
        entry.usedByScript = 0;
    }
    let list = table.scriptLists[0];
    let scripts = usize::try_from(list.count).unwrap_or(0).min(BG_ANIM_MAX_LIST_ITEMS);
    for &pointer in &list.scripts[..scripts] {
        let Some(index) = resolve_script(table, pointer) else {
            continue;
        };
        let script = table.globalItems[index];
        let commands = usize::try_from(script.commandCount).unwrap_or(0).min(BG_ANIM_MAX_SCRIPT_COMMANDS);
        for command in &script.commands[..commands] {
            for slot in 0..2 {
                if command.bodyPart[slot] != 0 {
                    if let Some(entry) = usize::try_from(command.animIndex[slot]).ok().and_then(|i| table.entries.get_mut(i)) {
                        entry.usedByScript = 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_at_63_bytes_and_zero_padded() {
        let mut field: [c_char; BG_ANIM_NAME_SIZE] = [0; BG_ANIM_NAME_SIZE];
        copy_name(&mut field, &[b'x'; 100]);
        assert!(name_bytes(&field)[..63].iter().all(|&b| b == b'x'));
        assert_eq!(name_bytes(&field)[63], 0);
        copy_name(&mut field, b"ab\0cd");
        let bytes = name_bytes(&field);
        assert_eq!(&bytes[..2], b"ab");
        assert!(bytes[2..].iter().all(|&b| b == 0));
        assert_eq!(entry_hash(&field), string_hash(b"ab"));
    }
}
