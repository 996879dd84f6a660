//! The player-animation runtime's condition words
//! (`bg_animation_conditions.c`): a client's eleven condition rows, how a
//! script's condition line is tested against them, and how the engine
//! writes and reads a row.
//!
//! ```
//! use uoanim_core::abi::bg::{bg_anim_script_t, ANIM_COND_COUNT, ANIM_COND_MOVETYPE};
//! use uoanim_core::conditions::evaluate_conditions;
//!
//! let mut script = bg_anim_script_t::ZERO;
//! script.conditionCount = 1;
//! script.conditions[0].r#type = ANIM_COND_MOVETYPE;
//! script.conditions[0].value = [0b110, 0]; // walk or run, say
//! let mut words = [[0u32; 2]; ANIM_COND_COUNT];
//! assert!(!evaluate_conditions(&words, &script));
//! words[ANIM_COND_MOVETYPE as usize] = [0b100, 0];
//! assert!(evaluate_conditions(&words, &script));
//! ```

use crate::abi::bg::*;
use crate::literals::{ConditionMode, CONDITIONS};

/// `bgAnimConditionTypes[i].mode` as the C's numbers
/// (`ANIM_CONDMODE_BITMASK`, `ANIM_CONDMODE_EQUAL`), from
/// [`CONDITIONS`]: WEAPONS, WEAPONCLASS and MOVETYPE are bitmask
/// conditions, all others compare one word.
pub const CONDITION_MODES: [i32; ANIM_COND_COUNT] = {
    let mut modes = [0; ANIM_COND_COUNT];
    let mut t = 0;
    while t < ANIM_COND_COUNT {
        modes[t] = match CONDITIONS[t].mode {
            ConditionMode::Bitmask => ANIM_CONDMODE_BITMASK,
            ConditionMode::Equal => ANIM_CONDMODE_EQUAL,
        };
        t += 1;
    }
    modes
};

/// Bits of a bitmask condition (two 32-bit words).
pub const CONDITION_BIT_COUNT: u32 = 64;

/// The mode of a condition type, `None` outside the 11 types.
#[inline]
pub fn condition_mode(condition_type: i32) -> Option<i32> {
    usize::try_from(condition_type).ok().and_then(|i| CONDITION_MODES.get(i).copied())
}

/// The condition rows of all clients (`bgs.clientinfo[c].conditionWords`
/// lives in each client's record).
pub type ClientInfos = [clientInfo_t; BGS_CLIENTINFO_COUNT];

/// Bit `t` is set when condition type `t` is a bitmask condition.
const BITMASK_TYPES: u32 = {
    let mut bits = 0;
    let mut t = 0;
    while t < ANIM_COND_COUNT {
        if CONDITION_MODES[t] == ANIM_CONDMODE_BITMASK {
            bits |= 1 << t;
        }
        t += 1;
    }
    bits
};

/// `BG_EvaluateConditions`: every condition of `script` holds for the words.
///
/// A bitmask condition holds when either word intersects the client's word.
/// Quirk: an equal condition compares the low word only (the high word of
/// the condition, which the parser may have filled, is ignored). No
/// conditions: true.
#[inline(always)]
pub fn evaluate_conditions(words: &[[u32; 2]; ANIM_COND_COUNT], script: &bg_anim_script_t) -> bool {
    let count = script.conditionCount;
    // `index < count` as the original's signed loop; bounded to the array.
    for (index, condition) in script.conditions.iter().enumerate() {
        if index as i32 >= count {
            break;
        }
        let kind = condition.r#type as u32;
        // A type outside the condition table (never produced by the parser):
        // the condition does not hold.
        let Some(row) = words.get(kind as usize) else {
            return false;
        };
        let value = condition.value;
        let holds = if BITMASK_TYPES >> kind & 1 != 0 {
            (value[0] as u32 & row[0]) | (value[1] as u32 & row[1]) != 0
        } else {
            row[0] == value[0] as u32
        };
        if !holds {
            return false;
        }
    }
    true
}

/// Why [`update_condition_value`] wrote nothing (guards of the
/// reconstruction; the engine's texts are the units').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionFailure {
    /// The client number is outside `0..64`.
    Client {
        /// The number asked for.
        client: i32,
    },
    /// A bitmask condition's bit is 64 or more (WEAPONS 64..127 excepted).
    Value {
        /// The value asked for.
        value: i32,
    },
}

/// `BG_UpdateConditionValue`: writes a condition row of a client.
///
/// With `check_conversion` and a bitmask condition the row becomes the single
/// bit `value`; a value of 64 or more is an error, except WEAPONS 64..127,
/// which only clears the row (guards of the reconstruction). Quirk:
/// otherwise the low word becomes `value` and the high word is left as it
/// was (also for a bitmask condition written without conversion).
#[inline]
pub fn update_condition_value(
    clients: &mut ClientInfos,
    client_num: i32,
    condition_type: i32,
    value: i32,
    check_conversion: bool,
) -> Result<(), ConditionFailure> {
    let Some(client) = usize::try_from(client_num).ok().and_then(|c| clients.get_mut(c)) else {
        return Err(ConditionFailure::Client { client: client_num });
    };
    let Some(mode) = condition_mode(condition_type) else {
        // Outside the 11 rows: nothing is written.
        return Ok(());
    };
    let row = &mut client.conditionWords[condition_type as usize];
    if check_conversion && mode == ANIM_CONDMODE_BITMASK {
        let bit = value as u32;
        if bit >= CONDITION_BIT_COUNT {
            if condition_type == ANIM_COND_WEAPON && bit < MAX_WEAPONS as u32 {
                *row = [0, 0];
                return Ok(());
            }
            return Err(ConditionFailure::Value { value });
        }
        *row = [0, 0];
        row[(bit >> 5) as usize] |= 1 << (bit & 31);
    } else {
        row[0] = value as u32;
    }
    Ok(())
}

/// `BG_GetConditionValue`: the low word, or for a bitmask condition with
/// `convert_bitset` the index of the lowest set bit (0 when none is set).
/// A condition type outside the 11 rows reads as 0.
#[inline]
pub fn get_condition_value(client: &clientInfo_t, condition_type: i32, convert_bitset: bool) -> i32 {
    let Some(mode) = condition_mode(condition_type) else {
        return 0;
    };
    let row = client.conditionWords[condition_type as usize];
    if !convert_bitset || mode != ANIM_CONDMODE_BITMASK {
        return row[0] as i32;
    }
    (0..CONDITION_BIT_COUNT).find(|&bit| row[(bit >> 5) as usize] & (1 << (bit & 31)) != 0).map_or(0, |bit| bit as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modes_are_the_cs_table() {
        let b = ANIM_CONDMODE_BITMASK;
        let e = ANIM_CONDMODE_EQUAL;
        // WEAPONS, WEAPONCLASS, MOUNTED, VEHICLE, VEHICLE_MOTION, MOVETYPE,
        // UNDERHAND, CROUCHING, FIRING, WEAPON_POSITION, STRAFING
        assert_eq!(CONDITION_MODES, [b, b, e, e, e, b, e, e, e, e, e]);
        assert_eq!(condition_mode(-1), None);
        assert_eq!(condition_mode(ANIM_COND_COUNT as i32), None);
    }
}
