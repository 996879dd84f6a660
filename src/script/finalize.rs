//! The rebuild of the static entries from the animation tree and the
//! second parse pass (`BG_FinalizePlayerAnims`), plus `BG_SetupAnimNoteTypes`.
//!
//! The only floating point of the module lives here: the length of an
//! animation's relative move delta, which becomes its move speed. The two
//! builds of the original compute it differently (x87 extended arithmetic,
//! different libm / conversion helpers); see [`move_distance`].

// A `Failure` carries its whole text (no heap): large by design.
#![allow(clippy::result_large_err)]

use crate::flavour::Behaviour;
use crate::abi::bg::*;
use crate::error::Outcome;
use crate::script::runtime::engine::FinalizeEngine;
use crate::script::tables;
use crate::script::runtime::{anim_index_error, resolve_script};

/// Move speed floor of the original: durations below this many ms are raised.
pub const MIN_ANIM_LENGTH_MS: i32 = 500;
/// Scale of the move speed (units per second from a length in ms).
pub const MOVE_SPEED_SCALE: i32 = 1000;

/// Exact emulation of the few x87 extended-precision (64-bit significand,
/// round-to-nearest-even) operations the move-speed computation performs.
///
/// Only non-negative finite values occur (sums of squares and their roots),
/// so a value is a 64-bit significand and a binary exponent. The exponent
/// range of the squares of binary32 values (2^-298 .. 2^259) lies far inside
/// both the extended and the binary64 normal ranges, so no overflow,
/// underflow or denormal handling is needed past the conversion from f32.
pub(crate) mod x87 {
    /// `mant * 2^exp`; `mant` has bit 63 set, or is 0 for the value zero.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Ext {
        pub mant: u64,
        pub exp: i32,
    }

    impl Ext {
        pub const ZERO: Ext = Ext { mant: 0, exp: 0 };

        /// `(long double)v * (long double)v` for a finite binary32 `v`: the
        /// product of two 24-bit significands has at most 48 bits, so it is
        /// exact in extended precision.
        pub fn square(v: f32) -> Ext {
            let bits = v.to_bits() & 0x7fff_ffff;
            let biased = (bits >> 23) as i32;
            let fraction = u64::from(bits & 0x7f_ffff);
            let (m, e) = if biased == 0 { (fraction, -149) } else { (fraction | 0x80_0000, biased - 150) };
            if m == 0 {
                return Ext::ZERO;
            }
            let sq = m * m;
            let shift = sq.leading_zeros();
            Ext { mant: sq << shift, exp: 2 * e - shift as i32 }
        }

        /// x87 `FADD` of two non-negative values, rounded to nearest even.
        pub fn add(self, other: Ext) -> Ext {
            if self.mant == 0 {
                return other;
            }
            if other.mant == 0 {
                return self;
            }
            let (hi, lo) = if self.exp >= other.exp { (self, other) } else { (other, self) };
            // Work in units of 2^(hi.exp - 63): hi's significand sits at bits 63..126.
            let distance = (hi.exp - lo.exp) as u32;
            let big = u128::from(hi.mant) << 63;
            let lo_wide = u128::from(lo.mant) << 63;
            let (small, sticky) = if distance >= 127 {
                (0u128, true)
            } else {
                let s = lo_wide >> distance;
                (s, (s << distance) != lo_wide)
            };
            let sum = big + small; // < 2^128: both terms are < 2^127
            let top = 127 - sum.leading_zeros(); // 126 or 127
            let drop = top - 63;
            let kept = (sum >> drop) as u64;
            let rest = sum & ((1u128 << drop) - 1);
            let half = 1u128 << (drop - 1);
            let up = rest > half || (rest == half && (sticky || kept & 1 == 1));
            let mut exp = hi.exp - 63 + drop as i32;
            let (mut mant, carry) = kept.overflowing_add(u64::from(up));
            if carry {
                mant = 1 << 63;
                exp += 1;
            }
            Ext { mant, exp }
        }

        /// x87 `FSQRT` at 64-bit precision (correctly rounded, nearest even).
        pub fn sqrt(self) -> Ext {
            if self.mant == 0 {
                return Ext::ZERO;
            }
            // Scale the significand so that the remaining exponent is even and
            // the integer root has exactly 64 bits.
            let shift: u32 = if self.exp & 1 != 0 { 63 } else { 64 };
            let n = u128::from(self.mant) << shift; // 2^126 <= n < 2^128
            let root = n.isqrt(); // 2^63 <= root < 2^64
            let rest = n - root * root;
            // (root + 1/2)^2 = root^2 + root + 1/4 is never an integer: no ties.
            let up = rest > root;
            let mut exp = (self.exp - shift as i32) / 2;
            let (mut mant, carry) = (root as u64).overflowing_add(u64::from(up));
            if carry {
                mant = 1 << 63;
                exp += 1;
            }
            Ext { mant, exp }
        }

        /// Store to binary64 (`FST m64`), rounded to nearest even.
        pub fn to_f64(self) -> f64 {
            if self.mant == 0 {
                return 0.0;
            }
            let kept = self.mant >> 11;
            let rest = self.mant & 0x7ff;
            let up = rest > 0x400 || (rest == 0x400 && kept & 1 == 1);
            let m = kept + u64::from(up); // <= 2^53: exact as f64
            scale_by_pow2(m as f64, self.exp + 11)
        }

        /// Truncation toward zero to an unsigned 64-bit integer when the value
        /// is below 2^63, else `None` (the 64-bit integer-indefinite case).
        pub fn trunc_below_2p63(self) -> Option<u64> {
            if self.mant == 0 {
                return Some(0);
            }
            if self.exp >= 0 {
                return None; // >= 2^63
            }
            let shift = (-self.exp) as u32;
            Some(if shift >= 64 { 0 } else { self.mant >> shift })
        }
    }

    /// `value * 2^k`, exact for the magnitudes that occur here.
    fn scale_by_pow2(mut value: f64, mut k: i32) -> f64 {
        while k > 1000 {
            value *= f64::from_bits(((1023 + 1000) as u64) << 52);
            k -= 1000;
        }
        while k < -1000 {
            value *= f64::from_bits(((1023 - 1000) as u64) << 52);
            k += 1000;
        }
        value * f64::from_bits(((1023 + k) as u64) << 52)
    }
}

/// Length of an animation's relative move delta as the original's integer
/// `dist`, computed the way the given build of the original does.
///
/// * Linux (game): `((x² + y²) + z²)` in x87 extended precision, stored to
///   binary64, glibc's correctly rounded `sqrt`, stored to binary32, then
///   truncated to int32 by an x87 store. Quirk: out of range, infinite or
///   NaN gives the integer indefinite `0x80000000`, whose ×1000 wraps to a
///   move speed of 0.
/// * Windows (cgame): `((z² + y²) + x²)` in extended precision, `FSQRT` in
///   extended precision, then MSVC `_ftol2`: the low 32 bits of the 64-bit
///   truncation below 2^63, otherwise 0 (the low word of the 64-bit
///   indefinite), also for infinities and NaN.
pub fn move_distance(behaviour: Behaviour, delta: [f32; 3]) -> i32 {
    use x87::Ext;
    let [x, y, z] = delta;
    let special = delta.iter().any(|v| !v.is_finite());
    match behaviour {
        Behaviour::Linux => {
            if special {
                // Inf² and NaN propagate: sqrt gives Inf or NaN, both convert
                // to the integer indefinite.
                return i32::MIN;
            }
            let sum = Ext::square(x).add(Ext::square(y)).add(Ext::square(z));
            let distance = sum.to_f64().sqrt() as f32;
            truncate_x87_i32(distance)
        }
        Behaviour::Windows => {
            if special {
                return 0;
            }
            let sum = Ext::square(z).add(Ext::square(y)).add(Ext::square(x));
            match sum.sqrt().trunc_below_2p63() {
                Some(value) => value as u32 as i32,
                None => 0,
            }
        }
    }
}

/// x87 `FISTP m32` under truncation: int32 when the truncated value fits,
/// else the integer indefinite `0x80000000` (also for NaN and infinities).
pub fn truncate_x87_i32(value: f32) -> i32 {
    let t = f64::from(value).trunc();
    if (-2147483648.0..=2147483647.0).contains(&t) {
        t as i32
    } else {
        i32::MIN
    }
}

/// The original's move speed from the integer distance and the length (ms):
/// `(dist * 1000)` with int32 wrap-around, divided (C division, truncating)
/// by the length. Quirk: the division uses the raw length, before the 500 ms
/// duration floor is applied. A zero distance or zero length gives 0.
///
/// Negative lengths are excluded inputs of the original (`INT_MIN / -1`);
/// here the division wraps (`INT_MIN / -1 = INT_MIN`).
pub fn move_speed(distance: i32, length: i32) -> i32 {
    if distance == 0 || length == 0 {
        return 0;
    }
    distance.wrapping_mul(MOVE_SPEED_SCALE).wrapping_div(length)
}


// ---- the entries rebuild -------------------------------------------------------


/// Flags of entry 0 ("root"): NON_PRIMITIVE | UNUSED.
pub const ROOT_FLAGS: u32 = BG_ANIM_ENTRY_NON_PRIMITIVE | BG_ANIM_ENTRY_UNUSED;
/// Blend time written over a zero blend time ("none").
pub const BLEND_NONE: i32 = -1;

/// `Q_strncpyz(field, source, 64)`: at most 63 bytes of `source` (up to its
/// first NUL), the rest of the field zero-filled (strncpy padding).
pub fn copy_name(field: &mut [core::ffi::c_char; BG_ANIM_NAME_SIZE], source: &[u8]) {
    let field = name_as_bytes_mut(field);
    let length = source.iter().take(BG_ANIM_NAME_SIZE - 1).position(|&b| b == 0).unwrap_or(source.len().min(BG_ANIM_NAME_SIZE - 1));
    field.fill(0);
    field[..length].copy_from_slice(&source[..length]);
}

/// `BG_StringHashValue` over a NUL-terminated name field.
fn entry_hash(name: &[u8; BG_ANIM_NAME_SIZE]) -> i32 {
    tables::string_hash(tables::field_name(name))
}

/// The first part of `BG_FinalizePlayerAnims`: rebuilds `entries[]` from the
/// tree (`table.animTreeHandle`) and the pass-1 registrations `runtime`.
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
pub fn rebuild_entries<E: FinalizeEngine>(
    behaviour: Behaviour,
    table: &mut bg_static_animation_table_t,
    runtime: &[bg_runtime_animation_t],
    engine: &mut E,
) -> Outcome<()> {
    // SAFETY: both members of the union are plain pointers.
    let tree = unsafe { table.animTree.animTreeHandle };
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
            return Err(anim_index_error(bone as u32, table.entryCount));
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
            copy_name(&mut entry.name, registered.name_bytes());
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
        entry.hash = entry_hash(entry.name_bytes());
        if entry.blendTime == 0 {
            entry.blendTime = BLEND_NONE;
        }
        let length = engine.length(tree, node);
        entry.duration = length;
        entry.moveSpeed = if length != 0 {
            let mut rotation = [0f32; 3];
            let mut movement = [0f32; 3];
            engine.rel_delta(tree_index, node, &mut rotation, &mut movement);
            move_speed(move_distance(behaviour, movement), entry.duration)
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
    use super::x87::Ext;
    use super::*;

    fn linux(d: [f32; 3]) -> i32 {
        move_distance(Behaviour::Linux, d)
    }
    fn windows(d: [f32; 3]) -> i32 {
        move_distance(Behaviour::Windows, d)
    }

    #[test]
    fn ext_square_is_exact() {
        let s = Ext::square(3.0);
        assert_eq!(s.to_f64(), 9.0);
        let s = Ext::square(f32::from_bits(1)); // smallest denormal
        assert_eq!(s.mant, 1 << 63);
        assert_eq!(s.exp, -298 - 63);
        assert_eq!(Ext::square(0.0), Ext::ZERO);
        assert_eq!(Ext::square(-2.5).to_f64(), 6.25);
    }

    #[test]
    fn ext_add_rounds_to_nearest_even() {
        let one = Ext { mant: 1 << 63, exp: -63 };
        // 1 + 2^-64: exactly half an ulp (ulp of 1 is 2^-63) -> ties to even (1)
        let half_ulp = Ext { mant: 1 << 63, exp: -127 };
        assert_eq!(one.add(half_ulp), one);
        // 1 + 2^-64 + tiny -> rounds up
        let above = Ext { mant: (1 << 63) | 1, exp: -127 };
        assert_eq!(one.add(above), Ext { mant: (1 << 63) | 1, exp: -63 });
        // odd significand + half ulp -> up to even
        let odd = Ext { mant: (1 << 63) | 1, exp: -63 };
        assert_eq!(odd.add(half_ulp), Ext { mant: (1 << 63) | 2, exp: -63 });
        // far apart: sticky only
        let tiny = Ext { mant: 1 << 63, exp: -1000 };
        assert_eq!(one.add(tiny), one);
        // carry out of the significand
        let max = Ext { mant: u64::MAX, exp: -63 };
        assert_eq!(max.add(half_ulp), Ext { mant: 1 << 63, exp: -62 });
    }

    #[test]
    fn ext_sqrt_and_store() {
        let four = Ext::square(2.0);
        assert_eq!(four.sqrt().to_f64(), 2.0);
        let two = Ext { mant: 1 << 63, exp: -62 };
        let r = two.sqrt();
        // sqrt(2) to 64 bits: 0xb504f333f9de6484 (rounded to nearest)
        assert_eq!(r.mant, 0xb504_f333_f9de_6484);
        assert_eq!(r.exp, -63);
        assert_eq!(two.sqrt().to_f64(), 2f64.sqrt());
    }

    #[test]
    #[allow(clippy::excessive_precision)]
    fn protocol_near_integer_example() {
        // PROTOCOL "cgame flavour" §1: just below an integer, truncation gives
        // N - 1 with the extended root, N with the float-rounded root.
        let d = [677.999939f32, 0.252430558, 0.126215279];
        assert_eq!(linux(d), 678);
        assert_eq!(windows(d), 677);
        assert_eq!(move_speed(linux(d), 1000), 678);
        assert_eq!(move_speed(windows(d), 1000), 677);
        // The summation order never matters for the integer result here.
        assert_eq!(windows([d[2], d[1], d[0]]), 677);
        assert_eq!(windows([-d[0], -d[1], -d[2]]), 677);
    }

    #[test]
    fn protocol_big_distances() {
        // 3e9: game -> float 3e9 is out of int32 range -> 0x80000000, x1000 wraps to 0.
        let d = [3e9f32, 0.0, 0.0];
        assert_eq!(linux(d), i32::MIN);
        assert_eq!(move_speed(linux(d), 1000), 0);
        // cgame: low word of the 64-bit truncation.
        assert_eq!(windows(d), -1294967296);
        assert_eq!(move_speed(windows(d), 1000), 2112827);
        // 4294967808 -> low word 512
        assert_eq!(windows([4294967808.0, 0.0, 0.0]), 512);
        assert_eq!(move_speed(windows([4294967808.0, 0.0, 0.0]), 1000), 512);
        // 2^32 exactly, >= 2^63, Inf, NaN -> 0
        assert_eq!(windows([4294967296.0, 0.0, 0.0]), 0);
        assert_eq!(windows([9.3e18, 0.0, 0.0]), 0);
        assert_eq!(windows([f32::INFINITY, 0.0, 0.0]), 0);
        assert_eq!(windows([f32::NAN, 1.0, 0.0]), 0);
        assert_eq!(linux([f32::INFINITY, 0.0, 0.0]), i32::MIN);
        assert_eq!(linux([0.0, f32::NAN, 0.0]), i32::MIN);
        assert_eq!(linux([3e38, 3e38, 3e38]), i32::MIN);
        // between 2^24 and 2^31 the game's float rounding shows
        let d = [1.5e9f32, 1.5e9, 0.0];
        assert_eq!(windows(d), 2121320343);
        assert_eq!(linux(d), 2121320320);
        assert_eq!(move_speed(windows(d), 1005), -391543);
        assert_eq!(move_speed(linux(d), 1005), -391566);
    }

    #[test]
    fn protocol_move_speed_examples() {
        // Quirk: distance 3,000,000 wraps when multiplied by 1000 and is divided
        // by the raw length.
        assert_eq!(linux([3_000_000.0, 0.0, 0.0]), 3_000_000);
        assert_eq!(move_speed(3_000_000, 1000), -1294967);
        // Quirk: the division happens before the 500 ms floor.
        assert_eq!(move_speed(linux([5.0, 0.0, 0.0]), 1), 5000);
        assert_eq!(move_speed(0, 1000), 0);
        assert_eq!(move_speed(i32::MIN, 1000), 0); // x1000 wraps to 0
        assert_eq!(move_speed(7, 0), 0);
        // excluded input, defined here
        assert_eq!(move_speed(-2147483, -1), 2147483000);
    }

    #[test]
    fn small_and_exact_values() {
        assert_eq!(linux([3.0, 4.0, 0.0]), 5);
        assert_eq!(windows([3.0, 4.0, 0.0]), 5);
        assert_eq!(linux([0.0, 0.0, 0.0]), 0);
        assert_eq!(windows([0.0, -0.0, 0.0]), 0);
        assert_eq!(linux([0.75, 0.25, -1.0]), 1);
        assert_eq!(windows([1e-30, 0.0, 0.0]), 0);
        assert_eq!(truncate_x87_i32(2147483520.0), 2147483520);
        assert_eq!(truncate_x87_i32(2147483648.0), i32::MIN);
        assert_eq!(truncate_x87_i32(-2147483648.0), i32::MIN);
        assert_eq!(truncate_x87_i32(-1.5), -1);
    }

    /// Cross-check against an independent computation for values where the
    /// extended sum is exact and fits in a double: then the result is simply
    /// the correctly rounded root.
    #[test]
    fn agrees_with_f64_when_exact() {
        let mut state = 12345u32;
        for _ in 0..20000 {
            state = state.wrapping_mul(1103515245).wrapping_add(12345);
            let a = ((state >> 8) & 0xfff) as f32 * 0.25;
            state = state.wrapping_mul(1103515245).wrapping_add(12345);
            let b = ((state >> 8) & 0xfff) as f32 * 0.5;
            state = state.wrapping_mul(1103515245).wrapping_add(12345);
            let c = ((state >> 8) & 0xff) as f32;
            let exact = f64::from(a) * f64::from(a) + f64::from(b) * f64::from(b) + f64::from(c) * f64::from(c);
            let expected = truncate_x87_i32(exact.sqrt() as f32);
            assert_eq!(linux([a, b, c]), expected);
            let w = exact.sqrt().trunc() as i32;
            // the extended root truncates to the same integer unless the
            // double root rounded up to an integer
            if exact.sqrt().fract() != 0.0 || (w as f64) * (w as f64) == exact {
                assert_eq!(windows([a, b, c]), w);
            }
        }
    }
}

#[cfg(test)]
mod rebuild_tests {
    use super::*;
    use crate::abi::common::XAnim;
    use core::ffi::CStr;

    fn zeroed<T>() -> Box<T> {
        // SAFETY: only used for the C mirrors, for which all-zero is valid.
        unsafe { Box::<T>::new_zeroed().assume_init() }
    }

    /// node: (primitive, looped, length, move, name)
    struct Tree {
        nodes: Vec<(bool, bool, i32, [f32; 3], &'static CStr)>,
        calls: Vec<String>,
    }

    impl FinalizeEngine for Tree {
        fn anims_index(&mut self, tree: *mut XAnim) -> u32 {
            self.calls.push(format!("index {}", tree as usize));
            0x0003_0001
        }
        fn tree_size(&mut self, _tree: *mut XAnim) -> i32 {
            self.calls.push("size".into());
            self.nodes.len() as i32
        }
        fn is_primitive(&mut self, t: u16, a: u16) -> bool {
            self.calls.push(format!("P {t} {a}"));
            self.nodes[a as usize].0
        }
        fn anim_name(&mut self, t: u16, a: u16) -> Option<&CStr> {
            self.calls.push(format!("N {t} {a}"));
            Some(self.nodes[a as usize].4)
        }
        fn length(&mut self, tree: *mut XAnim, a: u16) -> i32 {
            self.calls.push(format!("L {} {a}", tree as usize));
            self.nodes[a as usize].2
        }
        fn rel_delta(&mut self, t: u16, a: u16, _r: &mut [f32; 3], m: &mut [f32; 3]) {
            self.calls.push(format!("D {t} {a}"));
            *m = self.nodes[a as usize].3;
        }
        fn is_looped(&mut self, t: u16, a: u16) -> bool {
            self.calls.push(format!("O {t} {a}"));
            self.nodes[a as usize].1
        }
    }

    fn registration(node: u16, name: &[u8], hash: i32) -> bg_runtime_animation_t {
        let mut r = *zeroed::<bg_runtime_animation_t>();
        r.anim.animIndex = node;
        r.hash = hash;
        copy_name(&mut r.name, name);
        r
    }

    #[test]
    fn rebuild_follows_the_original() {
        let mut table = zeroed::<bg_static_animation_table_t>();
        table.animTree.animTreeHandle = 0x40 as *mut XAnim;
        table.entries[3].blendTime = 250;
        let mut tree = Tree {
            nodes: vec![
                (false, false, 0, [0.0; 3], c"root"),
                (false, false, 0, [0.0; 3], c"parent"),
                (true, true, 1000, [3.0, 4.0, 0.0], c"Walk_A"),
                (true, false, 1, [5.0, 0.0, 0.0], c"tiny"),
                (true, false, 0, [9.0, 9.0, 9.0], c"zero"),
                (true, false, 700, [1.0, 0.0, 0.0], c"unregistered"),
            ],
            calls: vec![],
        };
        let runtime = [
            registration(2, b"walk_a", 11),
            registration(1, b"Parent", 77),
            registration(3, b"tiny", 5),
            registration(4, b"zero", 6),
            registration(2, b"dup", 99),
        ];
        rebuild_entries(Behaviour::Linux, &mut table, &runtime, &mut tree).unwrap();
        assert_eq!(
            tree.calls,
            [
                "index 64", "size", "P 1 1", "P 1 2", "N 1 2", "L 64 2", "D 1 2", "O 1 2", "P 1 3", "N 1 3", "L 64 3",
                "D 1 3", "O 1 3", "P 1 4", "N 1 4", "L 64 4", "O 1 4",
            ]
        );
        assert_eq!(table.entryCount, 6);
        let e = &table.entries;
        assert_eq!(&e[0].name_bytes()[..5], b"root\0");
        assert_eq!((e[0].flags, e[0].hash), (0x101, 0));
        // registered, not primitive
        assert_eq!(&e[1].name_bytes()[..7], b"Parent\0");
        assert_eq!((e[1].flags, e[1].hash, e[1].blendTime, e[1].duration, e[1].moveSpeed), (1, 77, -1, 0, 0));
        // primitive: engine name and its own hash, distance 5 over 1000 ms
        assert_eq!(&e[2].name_bytes()[..7], b"Walk_A\0");
        assert_eq!(e[2].hash, tables::string_hash(b"walk_a"));
        assert_eq!((e[2].flags, e[2].blendTime, e[2].duration, e[2].moveSpeed), (0x80, -1, 1000, 5));
        // Quirk: the speed is divided by the raw length (1 ms) before the floor
        assert_eq!((e[3].blendTime, e[3].duration, e[3].moveSpeed), (250, 500, 5000));
        // zero length: no delta query, speed 0, floored duration
        assert_eq!((e[4].duration, e[4].moveSpeed), (500, 0));
        // unregistered
        assert_eq!(&e[5].name_bytes()[..7], b"unused\0");
        assert_eq!((e[5].flags, e[5].hash), (0x100, 0));
        assert!(e[5].name_bytes()[7..].iter().all(|&b| b == 0));
    }

    #[test]
    fn rebuild_names_are_cut_at_63_bytes_and_zero_padded() {
        let mut field = [0 as core::ffi::c_char; BG_ANIM_NAME_SIZE];
        copy_name(&mut field, &[b'x'; 100]);
        assert_eq!(&name_as_bytes(&field)[..63], &[b'x'; 63][..]);
        assert_eq!(name_as_bytes(&field)[63], 0);
        copy_name(&mut field, b"ab\0cd");
        assert_eq!(&name_as_bytes(&field)[..], &[b'a', b'b'].iter().copied().chain([0u8; 62]).collect::<Vec<u8>>()[..]);
    }

    #[test]
    fn rebuild_empty_and_oversized_trees() {
        let mut table = zeroed::<bg_static_animation_table_t>();
        let mut tree = Tree { nodes: vec![], calls: vec![] };
        rebuild_entries(Behaviour::Linux, &mut table, &[], &mut tree).unwrap();
        assert_eq!(table.entryCount, 0);
        assert_eq!(table.entries[0].flags, 0x101);
        // defined here: nodes past entry 511 are not visited
        let mut tree = Tree { nodes: vec![(true, false, 0, [0.0; 3], c"n"); 600], calls: vec![] };
        let runtime: Vec<_> = (1..600).map(|i| registration(i, b"n", 1)).collect();
        rebuild_entries(Behaviour::Linux, &mut table, &runtime, &mut tree).unwrap();
        assert_eq!(table.entryCount, 600);
        assert_eq!(tree.calls.iter().filter(|c| c.starts_with("P ")).count(), 511);
    }

    #[test]
    fn note_types_only_the_reload_list() {
        let mut table = zeroed::<bg_static_animation_table_t>();
        table.entryCount = 10;
        for e in table.entries.iter_mut() {
            e.usedByScript = 7;
        }
        let s = &mut table.globalItems[4];
        s.commandCount = 2;
        s.commands[0].bodyPart = [1, 2];
        s.commands[0].animIndex = [3, 4];
        s.commands[1].bodyPart = [0, -1];
        s.commands[1].animIndex = [5, 6];
        let t = &mut table.globalItems[5];
        t.commandCount = 1;
        t.commands[0].bodyPart = [3, 0];
        t.commands[0].animIndex = [-1, 0];
        let p4 = &mut table.globalItems[4] as *mut _;
        let p5 = &mut table.globalItems[5] as *mut _;
        table.scriptLists[0].count = 3;
        table.scriptLists[0].scripts[0] = p4;
        table.scriptLists[0].scripts[1] = core::ptr::null_mut();
        table.scriptLists[0].scripts[2] = p5;
        table.events[0].count = 1;
        table.events[0].scripts[0] = p4;
        table.scriptLists[1].count = 1;
        table.scriptLists[1].scripts[0] = p5;
        setup_anim_note_types(&mut table);
        let used: Vec<i32> = table.entries[..12].iter().map(|e| e.usedByScript).collect();
        assert_eq!(used, [0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 7, 7]);
    }
}
