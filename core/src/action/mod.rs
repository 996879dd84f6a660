//! The Torque-style action-animation selector.
//!
//! An [`ActionTable`] lists action animations (a name, a type, a ground
//! direction, a nominal speed and whether the shape has a sequence for it),
//! and [`ActionTable::find`] picks the entry that best fits a movement: it
//! keeps the entries of the requested type, culls those whose direction does
//! not match the query direction, then picks the remaining one whose speed is
//! closest to the query speed. The selection rules, including their odd
//! corners, are those of the scripted `findActionAnimation` of the Torque Game
//! Engine resource "Script-side Player Animation Definitions" (final version,
//! with the speed extension); the units' docs/ACTION.md describes them and the C API.
//!
//! Everything here is plain safe Rust, allocation-free and panic-free on any
//! input; all arithmetic is single precision as in the original.

use crate::math::{IntegerRoots, Roots};

mod parse;
mod table;

#[cfg(test)]
mod tests;

pub use parse::ParseError;
pub use table::{ActionTable, AddError, Entry};

/// Capacity of a table (the original's `MaxAnimations`, `1 << 7`).
pub const MAX_ENTRIES: usize = 128;

/// Longest name in bytes (the original's 64-byte limit including the NUL).
pub const MAX_NAME_LEN: usize = 63;

/// Type of an action animation (the original's `AnimationType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum ActionType {
    /// Standing still; the table's first `Root` entry is its root action.
    Root = 0,
    /// Ground movement.
    Move = 1,
    /// Jumping.
    Jump = 2,
    /// Falling.
    Fall = 3,
    /// Landing.
    Land = 4,
    /// Anything else.
    Other = 5,
}

impl ActionType {
    /// Every type, in numeric order.
    pub const ALL: [ActionType; 6] =
        [ActionType::Root, ActionType::Move, ActionType::Jump, ActionType::Fall, ActionType::Land, ActionType::Other];

    /// The type with number `value` (0..=5).
    pub fn from_i32(value: i32) -> Option<Self> {
        usize::try_from(value).ok().and_then(|i| Self::ALL.get(i).copied())
    }

    /// The type's number.
    pub fn as_i32(self) -> i32 {
        self as i32
    }

    /// The type's name as written in table text (lower case).
    pub fn name(self) -> &'static str {
        match self {
            ActionType::Root => "root",
            ActionType::Move => "move",
            ActionType::Jump => "jump",
            ActionType::Fall => "fall",
            ActionType::Land => "land",
            ActionType::Other => "other",
        }
    }

    /// The type named `name`, ignoring ASCII case.
    pub fn from_name(name: &[u8]) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name().as_bytes().eq_ignore_ascii_case(name))
    }
}

/// A single-precision 3-vector (the original's `Point3F`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    /// The first component.
    pub x: f32,
    /// The second component.
    pub y: f32,
    /// The third component.
    pub z: f32,
}

impl Vec3 {
    /// The zero vector.
    pub const ZERO: Vec3 = Vec3 { x: 0.0, y: 0.0, z: 0.0 };

    /// A vector from its components.
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Self { x, y, z }
    }

    /// True when every component compares equal to zero (so `-0.0` counts).
    pub fn is_zero(self) -> bool {
        self.x == 0.0 && self.y == 0.0 && self.z == 0.0
    }

    /// True when no component is NaN or infinite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.z.is_finite()
    }

    /// `x*a.x + y*a.y + z*a.z`, evaluated left to right in single precision.
    pub fn dot(self, other: Vec3) -> f32 {
        self.x * other.x + self.y * other.y + self.z * other.z
    }

    /// The vector scaled to length one: each component divided by
    /// `sqrt(x*x + y*y + z*z)`, in single precision. The zero vector stays
    /// zero. A finite non-zero vector whose squared length is not a normal
    /// float (it overflows, or underflows into the subnormal range or to
    /// zero, where that formula loses precision or divides by zero) is first
    /// divided by its largest component magnitude, so it still gets a unit
    /// direction. Non-finite input gives a non-finite result (callers reject
    /// it before).
    pub fn normalized(self) -> Vec3 {
        self.normalized_with(IntegerRoots)
    }

    /// [`normalized`](Self::normalized), with the square roots of `roots`.
    pub fn normalized_with(self, roots: impl Roots) -> Vec3 {
        if self.is_zero() {
            return Vec3::ZERO;
        }
        let squared = self.x * self.x + self.y * self.y + self.z * self.z;
        if squared.is_normal() {
            let len = roots.sqrt_f32(squared);
            return Vec3::new(self.x / len, self.y / len, self.z / len);
        }
        let len = roots.sqrt_f32(squared);
        let big = self.x.abs().max(self.y.abs()).max(self.z.abs());
        if !(big > 0.0 && big.is_finite()) {
            // NaN or infinite components: plain division, like the original.
            return Vec3::new(self.x / len, self.y / len, self.z / len);
        }
        let scaled = Vec3::new(self.x / big, self.y / big, self.z / big);
        let len = roots.sqrt_f32(scaled.x * scaled.x + scaled.y * scaled.y + scaled.z * scaled.z);
        Vec3::new(scaled.x / len, scaled.y / len, scaled.z / len)
    }
}
