//! The literals of the player-animation script: the module's tables of
//! names (states, move types, events, body parts, the conditions and their
//! values, the section keywords), each in the engine's order, so a name's
//! place in its table is the number the engine gives it. The C units build
//! the engine's tables of `bg_indexed_string_t` from these.
//!
//! ```
//! use uoanim_core::literals::{Literal, ValueTable};
//!
//! assert_eq!(Literal::MoveTypes.names().nth(4), Some(&b"WALK"[..]));
//! assert_eq!(Literal::of_values(ValueTable::Strafe), Some(Literal::StrafeStates));
//! assert!(Literal::States.names().any(|n| n.eq_ignore_ascii_case(b"combat")));
//! ```

use core::ffi::CStr;

/// `animStateStr`.
pub const STATES: [&CStr; 4] = [c"RELAXED", c"QUERY", c"ALERT", c"COMBAT"];

/// `bgAnimGroupStrings` (move types; 0 is the placeholder `** UNUSED **`).
pub const MOVE_TYPES: [&CStr; 18] = [
    c"** UNUSED **",
    c"IDLE",
    c"IDLECR",
    c"IDLEPRONE",
    c"WALK",
    c"WALKBK",
    c"WALKCR",
    c"WALKCRBK",
    c"WALKPRONE",
    c"WALKPRONEBK",
    c"RUN",
    c"RUNBK",
    c"RUNCR",
    c"RUNCRBK",
    c"TURNRIGHT",
    c"TURNLEFT",
    c"CLIMBUP",
    c"CLIMBDOWN",
];

/// `bgAnimEventStrings`.
pub const EVENTS: [&CStr; 16] = [
    c"PAIN",
    c"DEATH",
    c"FIREWEAPON",
    c"JUMP",
    c"JUMPBK",
    c"LAND",
    c"DROPWEAPON",
    c"RAISEWEAPON",
    c"CLIMBMOUNT",
    c"CLIMBDISMOUNT",
    c"RELOAD",
    c"CROUCH_TO_PRONE",
    c"PRONE_TO_CROUCH",
    c"MELEEATTACK",
    c"LMG_DEPLOY",
    c"LMG_BREAKDOWN",
];

/// `animBodyPartsStr`.
pub const BODY_PARTS: [&CStr; 4] = [c"** UNUSED **", c"LEGS", c"TORSO", c"BOTH"];

/// `animMountedStr`.
pub const MOUNTED: [&CStr; 8] = [
    c"** UNUSED **",
    c"MG42",
    c"vehDriver",
    c"vehGunner",
    c"vehPassenger1",
    c"vehPassenger2",
    c"vehPassenger3",
    c"vehPassenger4",
];

/// `animVehicleMotionStr`.
pub const VEHICLE_MOTION: [&CStr; 4] = [c"** UNUSED **", c"IDLE", c"FORWARD", c"REVERSING"];

/// `animVehicleStr`.
pub const VEHICLES: [&CStr; 4] = [c"** UNUSED **", c"TANK", c"JEEP", c"FLAK88"];

/// `animWeaponClassStr`.
pub const WEAPON_CLASSES: [&CStr; 11] = [
    c"RIFLE",
    c"MG",
    c"SMG",
    c"LMG",
    c"PISTOL",
    c"GRENADE",
    c"ROCKETLAUNCHER",
    c"TURRET",
    c"SPOTTER",
    c"NON-PLAYER",
    c"FLAMETHROWER",
];

/// `animWeaponPositionStr`.
pub const WEAPON_POSITIONS: [&CStr; 2] = [c"HIP", c"ADS"];

/// `animStrafeStateStr`.
pub const STRAFE_STATES: [&CStr; 3] = [c"NOT", c"LEFT", c"RIGHT"];

/// `bgAnimConditionTypeStrings` (index: the condition type, `ANIM_COND_*`).
pub const CONDITION_NAMES: [&CStr; 11] = [
    c"WEAPONS",
    c"WEAPONCLASS",
    c"MOUNTED",
    c"VEHICLE",
    c"VEHICLE_MOTION",
    c"MOVETYPE",
    c"UNDERHAND",
    c"CROUCHING",
    c"FIRING",
    c"WEAPON_POSITION",
    c"STRAFING",
];

/// `bgAnimParseSectionStrings` (index: the section, `ANIM_SECTION_*`).
pub const SECTIONS: [&CStr; 5] = [c"defines", c"animations", c"canned_animations", c"statechanges", c"events"];

/// The module's tables of literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal {
    /// [`STATES`].
    States,
    /// [`MOVE_TYPES`].
    MoveTypes,
    /// [`EVENTS`].
    Events,
    /// [`BODY_PARTS`].
    BodyParts,
    /// [`MOUNTED`].
    Mounted,
    /// [`VEHICLE_MOTION`].
    VehicleMotion,
    /// [`VEHICLES`].
    Vehicles,
    /// [`WEAPON_CLASSES`].
    WeaponClasses,
    /// [`WEAPON_POSITIONS`].
    WeaponPositions,
    /// [`STRAFE_STATES`].
    StrafeStates,
    /// [`CONDITION_NAMES`].
    ConditionTypes,
    /// [`SECTIONS`].
    Sections,
}

impl Literal {
    /// The table's names, as the C strings the engine's table points at.
    pub const fn c_names(self) -> &'static [&'static CStr] {
        match self {
            Literal::States => &STATES,
            Literal::MoveTypes => &MOVE_TYPES,
            Literal::Events => &EVENTS,
            Literal::BodyParts => &BODY_PARTS,
            Literal::Mounted => &MOUNTED,
            Literal::VehicleMotion => &VEHICLE_MOTION,
            Literal::Vehicles => &VEHICLES,
            Literal::WeaponClasses => &WEAPON_CLASSES,
            Literal::WeaponPositions => &WEAPON_POSITIONS,
            Literal::StrafeStates => &STRAFE_STATES,
            Literal::ConditionTypes => &CONDITION_NAMES,
            Literal::Sections => &SECTIONS,
        }
    }

    /// The table's names, in order.
    pub fn names(self) -> impl ExactSizeIterator<Item = &'static [u8]> + Clone {
        self.c_names().iter().map(|name| name.to_bytes())
    }

    /// The table of a condition's values (None: the weapon list, which is
    /// the engine's).
    pub const fn of_values(table: ValueTable) -> Option<Self> {
        Some(match table {
            ValueTable::Weapons => return None,
            ValueTable::WeaponClass => Literal::WeaponClasses,
            ValueTable::Mounted => Literal::Mounted,
            ValueTable::Vehicle => Literal::Vehicles,
            ValueTable::VehicleMotion => Literal::VehicleMotion,
            ValueTable::MoveTypes => Literal::MoveTypes,
            ValueTable::WeaponPosition => Literal::WeaponPositions,
            ValueTable::Strafe => Literal::StrafeStates,
        })
    }
}

/// Which value table a condition type uses (`bgAnimConditionTypes[].values`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueTable {
    /// The weapon list (`weaponStrings`, the engine's weapons).
    Weapons,
    /// [`WEAPON_CLASSES`].
    WeaponClass,
    /// [`MOUNTED`].
    Mounted,
    /// [`VEHICLES`].
    Vehicle,
    /// [`VEHICLE_MOTION`].
    VehicleMotion,
    /// [`MOVE_TYPES`].
    MoveTypes,
    /// [`WEAPON_POSITIONS`].
    WeaponPosition,
    /// [`STRAFE_STATES`].
    Strafe,
}

/// How a condition compares the player's value with the script's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionMode {
    /// The script names a set of values; the player's must be in it
    /// (`ANIM_CONDMODE_BITMASK`).
    Bitmask,
    /// The script names one value; the player's must equal it
    /// (`ANIM_CONDMODE_EQUAL`).
    Equal,
}

/// A condition type: how it compares and where its value names are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// How it compares.
    pub mode: ConditionMode,
    /// Its value names (None: numbers).
    pub values: Option<ValueTable>,
}

/// `bgAnimConditionTypes`: each condition type's mode and value table, in
/// the order of [`CONDITION_NAMES`].
pub const CONDITIONS: [Condition; 11] = {
    use ConditionMode::{Bitmask, Equal};
    const fn c(mode: ConditionMode, values: Option<ValueTable>) -> Condition {
        Condition { mode, values }
    }
    [
        c(Bitmask, Some(ValueTable::Weapons)),
        c(Bitmask, Some(ValueTable::WeaponClass)),
        c(Equal, Some(ValueTable::Mounted)),
        c(Equal, Some(ValueTable::Vehicle)),
        c(Equal, Some(ValueTable::VehicleMotion)),
        c(Bitmask, Some(ValueTable::MoveTypes)),
        c(Equal, None),
        c(Equal, None),
        c(Equal, None),
        c(Equal, Some(ValueTable::WeaponPosition)),
        c(Equal, Some(ValueTable::Strafe)),
    ]
};
