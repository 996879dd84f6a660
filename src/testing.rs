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

    /// An index below `n` (0 for `n` = 0).
    pub(crate) fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A float in [0, 1), 24 random bits.
    pub(crate) fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// One of `items` (not empty).
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }
}
