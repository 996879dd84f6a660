//! The table of action animations and the selection rule.

use super::{ActionType, Vec3, MAX_ENTRIES, MAX_NAME_LEN};
use crate::math::{IntegerRoots, Roots};

/// One action animation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The name followed by NUL bytes (so it can be handed to C as is).
    name: [u8; MAX_NAME_LEN + 1],
    name_len: u8,
    kind: ActionType,
    dir: Vec3,
    speed: f32,
    has_sequence: bool,
}

impl Entry {
    const EMPTY: Entry = Entry {
        name: [0; MAX_NAME_LEN + 1],
        name_len: 0,
        kind: ActionType::Root,
        dir: Vec3::ZERO,
        speed: 0.0,
        has_sequence: false,
    };

    /// The name (1..=63 bytes, no NUL).
    pub fn name(&self) -> &[u8] {
        self.name.get(..usize::from(self.name_len)).unwrap_or(&[])
    }

    /// The name followed by its terminating NUL.
    pub fn name_with_nul(&self) -> &[u8] {
        self.name.get(..=usize::from(self.name_len)).unwrap_or(&[0])
    }

    /// The type.
    pub fn kind(&self) -> ActionType {
        self.kind
    }

    /// The ground direction, normalised (zero for an omnidirectional entry).
    pub fn dir(&self) -> Vec3 {
        self.dir
    }

    /// The nominal speed (fraction of the top speed).
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Whether the shape has a sequence for this entry (the original's
    /// `sequence != -1`).
    pub fn has_sequence(&self) -> bool {
        self.has_sequence
    }
}

/// Why [`ActionTable::add`] refused an entry (the table is left unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddError {
    /// The name is empty (the original skips unnamed slots).
    EmptyName,
    /// The name is longer than [`MAX_NAME_LEN`] bytes.
    NameTooLong,
    /// The name contains a NUL byte.
    NulInName,
    /// The type is not 0..=5.
    BadType,
    /// A direction component is NaN or infinite.
    DirNotFinite,
    /// The speed is NaN or infinite.
    SpeedNotFinite,
    /// The table already holds [`MAX_ENTRIES`] entries.
    Full,
}

impl core::fmt::Display for AddError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            AddError::EmptyName => write!(f, "the name is empty"),
            AddError::NameTooLong => write!(f, "the name is longer than {MAX_NAME_LEN} bytes"),
            AddError::NulInName => write!(f, "the name contains a NUL byte"),
            AddError::BadType => write!(f, "the type is not one of root, move, jump, fall, land, other"),
            AddError::DirNotFinite => write!(f, "the direction is not finite"),
            AddError::SpeedNotFinite => write!(f, "the speed is not finite"),
            AddError::Full => write!(f, "the table is full ({MAX_ENTRIES} entries)"),
        }
    }
}

impl core::error::Error for AddError {}

/// Up to [`MAX_ENTRIES`] action animations, stored without gaps in the order
/// they were added. Fixed size, no heap.
///
/// Its square roots (normalising directions) are those of `R`.
#[derive(Clone, Debug)]
pub struct ActionTable<R: Roots = IntegerRoots> {
    entries: [Entry; MAX_ENTRIES],
    len: usize,
    roots: R,
}

impl<R: Roots> Default for ActionTable<R> {
    fn default() -> Self {
        Self::with_roots(R::default())
    }
}

impl ActionTable {
    /// An empty table.
    pub const fn new() -> Self {
        Self::with_roots(IntegerRoots)
    }
}

impl<R: Roots> ActionTable<R> {
    /// An empty table whose square roots are those of `roots`.
    pub const fn with_roots(roots: R) -> Self {
        Self { entries: [Entry::EMPTY; MAX_ENTRIES], len: 0, roots }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the table has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entries, in table order.
    pub fn entries(&self) -> &[Entry] {
        self.entries.get(..self.len).unwrap_or(&[])
    }

    /// The entry at `index`.
    pub fn get(&self, index: usize) -> Option<&Entry> {
        self.entries().get(index)
    }

    /// Appends an entry and returns its index.
    ///
    /// The direction is stored normalised ([`Vec3::normalized`]); `kind` is
    /// the type's number (0..=5). On error nothing changes.
    pub fn add(
        &mut self,
        name: &[u8],
        kind: i32,
        dir: Vec3,
        speed: f32,
        has_sequence: bool,
    ) -> Result<usize, AddError> {
        if name.is_empty() {
            return Err(AddError::EmptyName);
        }
        if name.len() > MAX_NAME_LEN {
            return Err(AddError::NameTooLong);
        }
        if name.contains(&0) {
            return Err(AddError::NulInName);
        }
        let kind = ActionType::from_i32(kind).ok_or(AddError::BadType)?;
        if !dir.is_finite() {
            return Err(AddError::DirNotFinite);
        }
        if !speed.is_finite() {
            return Err(AddError::SpeedNotFinite);
        }
        let index = self.len;
        let slot = self.entries.get_mut(index).ok_or(AddError::Full)?;
        let mut stored = [0u8; MAX_NAME_LEN + 1];
        if let Some(dst) = stored.get_mut(..name.len()) {
            dst.copy_from_slice(name);
        }
        *slot = Entry {
            name: stored,
            // At most MAX_NAME_LEN (63), checked above.
            name_len: name.len() as u8,
            kind,
            dir: dir.normalized_with(self.roots),
            speed,
            has_sequence,
        };
        self.len = index + 1;
        Ok(index)
    }

    /// Drops the entries from `len` on (used to undo a failed parse).
    pub(super) fn truncate(&mut self, len: usize) {
        if len < self.len {
            for slot in self.entries.iter_mut().skip(len) {
                *slot = Entry::EMPTY;
            }
            self.len = len;
        }
    }

    /// The root action: the index of the first entry of type
    /// [`ActionType::Root`], or 0 when there is none (even when the table is
    /// empty, as in the original).
    pub fn root(&self) -> usize {
        self.entries().iter().position(|e| e.kind == ActionType::Root).unwrap_or(0)
    }

    /// Picks the action animation for a movement of type `kind` (a type
    /// number; one that no entry has simply matches nothing) in direction
    /// `dir` at `speed`, exactly as the original's final `findActionAnimation`:
    ///
    /// 1. the result starts as the root action; the candidates are the
    ///    entries of type `kind`, in table order;
    /// 2. if `dir` is not zero, it is normalised and the candidates are culled
    ///    by direction (see the body for the walk and its quirks);
    /// 3. if `speed` is not zero, the remaining candidate with a sequence
    ///    whose speed is closest to `speed` (strictly closer than 1000, the
    ///    earlier one on ties) becomes the result.
    ///
    /// Returns `None` when a component of `dir` or `speed` is NaN or
    /// infinite (a query the original has no meaningful answer for).
    pub fn find(&self, kind: i32, dir: Vec3, speed: f32) -> Option<usize> {
        if !dir.is_finite() || !speed.is_finite() {
            return None;
        }
        let entries = self.entries();
        let mut result = self.root();

        // Candidate list: entry indices (< MAX_ENTRIES, so they fit in u8).
        let mut cand = [0u8; MAX_ENTRIES];
        let mut count = 0usize;
        for (index, entry) in entries.iter().enumerate() {
            if entry.kind.as_i32() == kind {
                if let Some(slot) = cand.get_mut(count) {
                    *slot = index as u8;
                    count += 1;
                }
            }
        }
        let cand = cand.get(..count).unwrap_or(&[]);
        let mut alive = [false; MAX_ENTRIES];
        for flag in alive.iter_mut().take(count) {
            *flag = true;
        }

        if !dir.is_zero() {
            let query = dir.normalized_with(self.roots);
            // The dot product of each candidate that takes part in the cull;
            // None for one without a sequence or with a zero direction (the
            // walk steps over those).
            let mut dots = [None::<f32>; MAX_ENTRIES];
            for (dot, &index) in dots.iter_mut().zip(cand) {
                if let Some(entry) = entries.get(usize::from(index)) {
                    if entry.has_sequence && !entry.dir.is_zero() {
                        *dot = Some(query.dot(entry.dir));
                    }
                }
            }
            result = cull_by_direction(cand, &dots, &mut alive).unwrap_or(result);
        }

        if speed != 0.0 {
            let mut smallest = 1000.0f32;
            for (pos, &index) in cand.iter().enumerate() {
                if !alive.get(pos).copied().unwrap_or(false) {
                    continue;
                }
                let Some(entry) = entries.get(usize::from(index)) else { continue };
                if entry.has_sequence {
                    let diff = (speed - entry.speed).abs();
                    // Strictly smaller: ties keep the earlier candidate.
                    if diff < smallest {
                        smallest = diff;
                        result = usize::from(index);
                    }
                }
            }
        }
        Some(result)
    }
}

/// The direction cull of `findActionAnimation`, on the candidate list `cand`
/// with the dot products `dots` (None: the candidate is stepped over).
/// Clears `alive` for the removed candidates and returns the index the walk
/// chose, if any.
///
/// The original walks the list with an index from the start, with a running
/// best `best` = 0.1: a candidate whose dot is below `best` is erased and the
/// walk restarts from the start; one above it raises `best`, becomes the
/// result and the walk restarts; an equal one (or one stepped over) lets the
/// walk go on. When a single candidate is left it is the result, whatever it
/// is, and the walk stops; a single candidate is never culled. This function
/// gives the same outcome without rescanning: after an erasure the
/// candidates before it are still stepped over (same `best`), so the walk
/// goes on where it was; after `best` rises the candidates before it that
/// were equal to the old best now fall below it, and the restarted walk
/// would erase exactly those, in order, before reaching the new best again.
fn cull_by_direction(cand: &[u8], dots: &[Option<f32>; MAX_ENTRIES], alive: &mut [bool; MAX_ENTRIES]) -> Option<usize> {
    let count = cand.len();
    let mut left = count;
    let mut best = 0.1f32;
    let mut result = None;
    let mut pos = 0usize;
    loop {
        if left == 0 {
            break;
        }
        if left == 1 {
            // Quirk: the last candidate standing is chosen even if it has no
            // sequence, no direction or a dot below 0.1.
            let first = alive.iter().take(count).position(|&a| a);
            if let Some(&index) = first.and_then(|p| cand.get(p)) {
                result = Some(usize::from(index));
            }
            break;
        }
        while pos < count && !alive.get(pos).copied().unwrap_or(false) {
            pos += 1;
        }
        if pos >= count {
            break;
        }
        match dots.get(pos).copied().flatten() {
            Some(d) if d < best => {
                if let Some(flag) = alive.get_mut(pos) {
                    *flag = false;
                }
                left -= 1;
                pos += 1;
            }
            Some(d) if d > best => {
                best = d;
                result = cand.get(pos).map(|&i| usize::from(i));
                // Quirk: the restart erases the earlier candidates that tied
                // with the previous best (their dot is now below `best`).
                for earlier in 0..pos {
                    let below = matches!(dots.get(earlier).copied().flatten(), Some(e) if e < best);
                    if let Some(flag) = alive.get_mut(earlier) {
                        if *flag && below {
                            *flag = false;
                            left -= 1;
                        }
                    }
                }
                pos += 1;
            }
            // Equal to the best, or stepped over: go on.
            _ => pos += 1,
        }
    }
    result
}
