//! What the crate's tests share: a seeded generator.

/// A deterministic xorshift generator: the same seed gives the same
/// sequence on every target.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from a nonzero seed.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value below `n` (0 for `n` = 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}
