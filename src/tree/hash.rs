//! The module's maps keyed by interned name ids, and the name interner's
//! string hash.

/// Map keyed by small integers (interned name ids). An ordered map from
/// `alloc`: the trees of one load are few, and it needs no hasher.
pub type IdMap<K, V> = alloc::collections::BTreeMap<K, V>;

/// 32-bit FNV-1a of a byte string (for the name interner's table).
#[inline]
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h
}
