//! "Did you mean": the closest known name to a misspelt one.

/// The optimal-string-alignment distance of `a` and `b`, ASCII case
/// ignored: insertions, deletions, substitutions and transpositions of
/// neighbours each cost one (`wlak` is one step from `walk`).
pub fn distance(a: &[u8], b: &[u8]) -> usize {
    let a: Vec<u8> = a.to_ascii_lowercase();
    let b: Vec<u8> = b.to_ascii_lowercase();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1).min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The candidate closest to `word`, if one is close enough: at most a
/// third of the word's length away (at least one step), as rustc's
/// suggestions allow; the first of equally close ones. A candidate that
/// differs from `word` only in case is the answer.
pub fn closest<'c>(word: &[u8], candidates: impl IntoIterator<Item = &'c [u8]>) -> Option<&'c [u8]> {
    let limit = (word.len().max(3)) / 3;
    let mut best: Option<(usize, &[u8])> = None;
    for c in candidates {
        if c.is_empty() {
            continue;
        }
        let d = distance(word, c);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpositions_cost_one() {
        assert_eq!(distance(b"wlak", b"walk"), 1);
        assert_eq!(distance(b"WALK", b"walk"), 0);
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"kitten", b"sitting"), 3);
    }

    #[test]
    fn closest_within_a_third() {
        let names: [&[u8]; 4] = [b"idle", b"walk", b"walkcr", b"run"];
        assert_eq!(closest(b"wlak", names), Some(&b"walk"[..]));
        assert_eq!(closest(b"walkc", names), Some(&b"walk"[..]));
        assert_eq!(closest(b"sprint", names), None);
        assert_eq!(closest(b"rn", names), Some(&b"run"[..]));
    }
}
