//! One-dimensional indexes (thesis §4.4.1, §4.5.3): one per mangled
//! dimension.
//!
//! Numbers are mapped to `u64` keys that sort as the reals do
//! ([`key`]), so an open bound is the neighbouring key and every interval
//! is closed: `x > 5` is `[key(5) + 1, key(+inf)]`. Then
//!
//! - [`IntervalIndex`] holds the exported intervals of rectangles and
//!   answers *stabbing* queries (which intervals contain this point?) — an
//!   interval tree (the `iset` crate: a red-black tree augmented with
//!   subtree bounds; O(log n + k) per query, O(log n) per removal);
//! - [`PointIndex`] holds the imported points of ads and answers *window*
//!   queries (which points lie in this interval?) — an ordered set, also
//!   O(log n + k);
//! - [`StringIndex`] holds string pieces: strings compare only by equality
//!   (ignoring ASCII case) in what the index represents, so a string
//!   dimension is a hash of case-folded values.
//!
//! All three support removal of a consumed id.

use fixedbitset::FixedBitSet;
use iset::IntervalMap;
use rustc_hash::FxHashMap;

use crate::constraint::intervals::NumInterval;

/// A key that sorts as the reals do: NaN must not be passed (it has no
/// place); `-0.0` and `0.0` should be merged by the caller (`x + 0.0`).
pub fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// The closed key range of an interval; `None` when it holds no real.
pub fn key_range(i: &NumInterval) -> Option<(u64, u64)> {
    if i.is_nan() || i.is_empty() {
        return None;
    }
    let (lo, hi) = (key(i.lo + 0.0), key(i.hi + 0.0));
    let lo = if i.lo_closed {
        Some(lo)
    } else {
        lo.checked_add(1)
    }?;
    let hi = if i.hi_closed {
        Some(hi)
    } else {
        hi.checked_sub(1)
    }?;
    (lo <= hi).then_some((lo, hi))
}

/// Closed numeric intervals of rectangles, queried by a point.
#[derive(Default)]
pub struct IntervalIndex {
    map: IntervalMap<u64, usize>,
}

impl IntervalIndex {
    pub fn insert(&mut self, i: &NumInterval, id: usize) {
        // The tree's ranges are half-open; the last key (a NaN pattern,
        // never a real) is left out.
        if let Some((lo, hi)) = key_range(i).filter(|(_, hi)| *hi < u64::MAX) {
            self.map.force_insert(lo..hi + 1, id);
        }
    }
    pub fn remove(&mut self, i: &NumInterval, id: usize) {
        if let Some((lo, hi)) = key_range(i).filter(|(_, hi)| *hi < u64::MAX) {
            self.map.remove_where(lo..hi + 1, |v| *v == id);
        }
    }
    /// Ids of the intervals containing `x` (not NaN).
    pub fn stab(&self, x: f64, out: &mut impl FnMut(usize)) {
        for &id in self.map.values_overlap(key(x + 0.0)) {
            out(id);
        }
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Rectangles' numeric pieces on one dimension, asked the exclusionary
/// question of Algorithm 2: which rectangles do *not* admit a point.
///
/// A rectangle with one interval here (the usual case) sits in two arrays
/// sorted by the interval's low and high ends: the rectangles rejecting `x`
/// are a suffix of the first (low > x) and a prefix of the second
/// (high < x), found by binary search. When those are few they are walked
/// (O(log n + r) for r rejected); otherwise the admitted ones, at most the
/// shorter of the low-end prefix and the high-end suffix, are walked and
/// the rest taken by complement — either way the walk is output-sized.
/// A rectangle with several intervals (`x != 5` is two) sits in the
/// interval tree, which gives those admitting `x`. A piece admitting no
/// real rejects every point.
pub struct NumberDim {
    /// (low, high, id), by low end.
    by_lo: Vec<(u64, u64, usize)>,
    /// (high, low, id), by high end.
    by_hi: Vec<(u64, u64, usize)>,
    /// Singles still live (removal leaves the arrays alone).
    single: fixedbitset::FixedBitSet,
    multi: IntervalIndex,
    multi_ids: fixedbitset::FixedBitSet,
    never: fixedbitset::FixedBitSet,
}

impl NumberDim {
    pub fn new(rects: usize) -> NumberDim {
        let bits = || fixedbitset::FixedBitSet::with_capacity(rects);
        NumberDim {
            by_lo: Vec::new(),
            by_hi: Vec::new(),
            single: bits(),
            multi: IntervalIndex::default(),
            multi_ids: bits(),
            never: bits(),
        }
    }

    fn ranges(v: &[NumInterval]) -> Vec<(u64, u64)> {
        // The last key (a NaN pattern, never a real) is left out, as the
        // tree does.
        v.iter()
            .filter_map(key_range)
            .filter(|(_, hi)| *hi < u64::MAX)
            .collect()
    }

    /// Add rectangle `id`'s piece; call [`finish`](Self::finish) after the
    /// last one.
    pub fn insert(&mut self, v: &[NumInterval], id: usize) {
        match Self::ranges(v).as_slice() {
            [] => self.never.insert(id),
            [(lo, hi)] => {
                self.by_lo.push((*lo, *hi, id));
                self.by_hi.push((*hi, *lo, id));
                self.single.insert(id);
            }
            _ => {
                v.iter().for_each(|i| self.multi.insert(i, id));
                self.multi_ids.insert(id);
            }
        }
    }

    /// Sort the arrays (after the inserts).
    pub fn finish(&mut self) {
        self.by_lo.sort_unstable();
        self.by_hi.sort_unstable();
    }

    pub fn remove(&mut self, v: &[NumInterval], id: usize) {
        self.never.set(id, false);
        self.single.set(id, false);
        if self.multi_ids.contains(id) {
            v.iter().for_each(|i| self.multi.remove(i, id));
            self.multi_ids.set(id, false);
        }
    }

    /// Add to `out` every live rectangle with a piece here that rejects `x`
    /// (not NaN).
    pub fn rejecting(&self, x: f64, out: &mut fixedbitset::FixedBitSet) {
        let k = key(x + 0.0);
        out.union_with(&self.never);
        let n = self.by_lo.len();
        // by_lo[from..]: low > x; by_hi[..to]: high < x.
        let from = self.by_lo.partition_point(|&(lo, _, _)| lo <= k);
        let to = self.by_hi.partition_point(|&(hi, _, _)| hi < k);
        let rejected_walk = (n - from) + to;
        let admitted_walk = from.min(n - to);
        if rejected_walk <= admitted_walk {
            for &(_, _, id) in self.by_lo[from..].iter().chain(&self.by_hi[..to]) {
                if self.single.contains(id) {
                    out.insert(id);
                }
            }
        } else {
            let mut admitted = fixedbitset::FixedBitSet::with_capacity(self.single.len());
            if from <= n - to {
                for &(_, hi, id) in &self.by_lo[..from] {
                    if hi >= k {
                        admitted.insert(id);
                    }
                }
            } else {
                for &(_, lo, id) in &self.by_hi[to..] {
                    if lo <= k {
                        admitted.insert(id);
                    }
                }
            }
            let mut rejected = self.single.clone();
            rejected.difference_with(&admitted);
            out.union_with(&rejected);
        }
        if !self.multi_ids.is_clear() {
            let mut admitted = fixedbitset::FixedBitSet::with_capacity(self.multi_ids.len());
            self.multi.stab(x, &mut |id| admitted.insert(id));
            let mut rejected = self.multi_ids.clone();
            rejected.difference_with(&admitted);
            out.union_with(&rejected);
        }
    }
}

/// Points sorted by key, queried by a window, at most one point per id
/// (an ad's value in one dimension). Built by [`insert`]s and one
/// [`finish`]; a removal only marks the id dead (windows skip it), so
/// consuming offers one by one costs nothing per point.
///
/// [`insert`]: PointIndex::insert
/// [`finish`]: PointIndex::finish
#[derive(Default)]
pub struct PointIndex {
    /// (key, id), sorted once finished.
    points: Vec<(u64, u32)>,
    finished: bool,
    dead: FixedBitSet,
    live: usize,
}

impl PointIndex {
    pub fn insert(&mut self, x: f64, id: usize) {
        let p = (key(x + 0.0), id as u32);
        if self.dead.contains(id) {
            // Back after a removal: its old point goes for good first (it
            // must not come back to life with the id).
            self.points.retain(|q| q.1 != p.1);
            self.dead.set(id, false);
        }
        if self.finished {
            // After the build: keep the order (rare; O(n)).
            let at = self.points.partition_point(|q| *q < p);
            self.points.insert(at, p);
        } else {
            self.points.push(p);
        }
        self.live += 1;
    }
    /// Sort what was inserted: windows need it.
    pub fn finish(&mut self) {
        self.points.sort_unstable();
        self.finished = true;
    }
    pub fn remove(&mut self, x: f64, id: usize) {
        let p = (key(x + 0.0), id as u32);
        let present = if self.finished {
            self.points.binary_search(&p).is_ok()
        } else {
            self.points.contains(&p)
        };
        if present && !self.dead.contains(id) {
            self.dead.grow(id + 1);
            self.dead.insert(id);
            self.live -= 1;
        }
    }
    /// Ids of the live points inside `i`.
    pub fn window(&self, i: &NumInterval, out: &mut impl FnMut(usize)) {
        debug_assert!(
            self.finished || self.points.is_empty(),
            "window before finish"
        );
        if let Some((lo, hi)) = key_range(i) {
            let from = self.points.partition_point(|&(k, _)| k < lo);
            for &(k, id) in &self.points[from..] {
                if k > hi {
                    break;
                }
                if !self.dead.contains(id as usize) {
                    out(id as usize);
                }
            }
        }
    }
    pub fn len(&self) -> usize {
        self.live
    }
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }
}

/// Case-folded strings to ids.
#[derive(Default)]
pub struct StringIndex {
    /// Ids per folded string, in insertion order (a list iterates faster
    /// than a set; an id listed twice is harmless to the callers' sets).
    map: FxHashMap<String, Vec<usize>>,
}

impl StringIndex {
    pub fn insert(&mut self, s: &str, id: usize) {
        self.map.entry(s.to_ascii_lowercase()).or_default().push(id);
    }
    pub fn remove(&mut self, s: &str, id: usize) {
        let k = s.to_ascii_lowercase();
        if let Some(set) = self.map.get_mut(&k) {
            set.retain(|&x| x != id);
            if set.is_empty() {
                self.map.remove(&k);
            }
        }
    }
    pub fn get(&self, s: &str, out: &mut impl FnMut(usize)) {
        let found = if s.bytes().any(|b| b.is_ascii_uppercase()) {
            self.map.get(&s.to_ascii_lowercase())
        } else {
            self.map.get(s)
        };
        if let Some(set) = found {
            set.iter().for_each(|&id| out(id));
        }
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(lo: f64, lo_closed: bool, hi: f64, hi_closed: bool) -> NumInterval {
        NumInterval {
            lo,
            lo_closed,
            hi,
            hi_closed,
        }
    }

    fn stab(t: &IntervalIndex, x: f64) -> Vec<usize> {
        let mut v = vec![];
        t.stab(x, &mut |i| v.push(i));
        v.sort_unstable();
        v
    }

    #[test]
    fn keys_sort_as_reals() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -5.0,
            -1e-310,
            0.0,
            1e-310,
            0.5,
            5.0,
            1e300,
            f64::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{w:?}");
        }
        assert_eq!(key(-0.0 + 0.0), key(0.0));
    }

    #[test]
    fn open_and_closed_bounds() {
        let mut t = IntervalIndex::default();
        t.insert(&iv(5.0, false, f64::INFINITY, true), 0); // > 5
        t.insert(&iv(f64::NEG_INFINITY, true, 5.0, true), 1); // <= 5
        t.insert(&NumInterval::point(7.0), 2);
        t.insert(&NumInterval::point(7.0), 3);
        t.insert(&iv(3.0, false, 3.0, true), 4); // empty
        assert_eq!(stab(&t, 5.0), vec![1]);
        assert_eq!(stab(&t, 5.000000001), vec![0]);
        assert_eq!(stab(&t, 7.0), vec![0, 2, 3]);
        assert_eq!(stab(&t, f64::INFINITY), vec![0]);
        assert_eq!(stab(&t, f64::NEG_INFINITY), vec![1]);
        t.remove(&NumInterval::point(7.0), 2);
        assert_eq!(stab(&t, 7.0), vec![0, 3]);
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn windows_over_points() {
        let mut p = PointIndex::default();
        for (i, x) in [1.0, 5.0, 5.0, 9.0, -0.0].into_iter().enumerate() {
            p.insert(x, i);
        }
        p.finish();
        let mut v = vec![];
        p.window(&iv(0.0, true, 5.0, false), &mut |i| v.push(i));
        assert_eq!(v, vec![4, 0]);
        p.remove(5.0, 1);
        let mut v = vec![];
        p.window(&iv(5.0, true, 9.0, true), &mut |i| v.push(i));
        assert_eq!(v, vec![2, 3]);
        assert_eq!(p.len(), 4);
        // Back at another value: only there.
        p.insert(7.0, 1);
        let mut v = vec![];
        p.window(&iv(5.0, true, 9.0, true), &mut |i| v.push(i));
        assert_eq!(v, vec![2, 1, 3]);
        let mut v = vec![];
        p.window(&iv(4.0, true, 6.0, true), &mut |i| v.push(i));
        assert_eq!(v, vec![2]);
    }

    #[test]
    fn strings_ignore_case() {
        let mut s = StringIndex::default();
        s.insert("INTEL", 1);
        s.insert("intel", 2);
        s.remove("Intel", 1);
        let mut v = vec![];
        s.get("iNtEl", &mut |i| v.push(i));
        assert_eq!(v, vec![2]);
    }
}
