//! Figure 4 (seed 000 §3.1.2): the subset lattice of a failing clause: the
//! marks of its minimal failing and maximal succeeding sets, and its
//! levels as drawn (`analyzer_lattice.rs` draws it).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Minimal failing set: fails, every one-smaller subset succeeds.
    Mfs,
    /// Maximal succeeding set: succeeds, no one-larger superset does.
    Mss,
    Plain,
}

/// Predicates at most drawn: the engine sends lattices of at most this many.
pub use classad::api::session::LATTICE_MAX;

/// The number of predicates of a lattice of `sets` subsets (`None`: not a
/// power of two, or too big to draw).
pub fn lattice_size(sets: usize) -> Option<usize> {
    (sets.is_power_of_two() && sets <= 1 << LATTICE_MAX).then(|| sets.trailing_zeros() as usize)
}

/// The mark of each subset (indexed by mask), from `succeeds` (same
/// indexing). Wrong-sized input gives no marks.
pub fn lattice_marks(succeeds: &[bool]) -> Vec<Mark> {
    let Some(k) = lattice_size(succeeds.len()) else {
        return vec![];
    };
    (0..succeeds.len())
        .map(|s| {
            let bits = (0..k).filter(|j| s >> j & 1 == 1);
            if succeeds[s] {
                let mut out = (0..k).filter(|j| s >> j & 1 == 0);
                if out.all(|j| !succeeds[s | 1 << j]) {
                    return Mark::Mss;
                }
            } else if bits.clone().all(|j| succeeds[s & !(1 << j)]) {
                return Mark::Mfs;
            }
            Mark::Plain
        })
        .collect()
}

/// The subsets of `k` predicates by level (size), the full set's level
/// first; within a level in lexicographic order of their predicates.
/// (Generated in order: a sort would add its code to the page.)
pub fn lattice_levels(k: usize) -> Vec<Vec<usize>> {
    fn combos(from: usize, k: usize, left: usize, mask: usize, out: &mut Vec<usize>) {
        if left == 0 {
            out.push(mask);
            return;
        }
        for j in from..k {
            if k - j >= left {
                combos(j + 1, k, left - 1, mask | 1 << j, out);
            }
        }
    }
    let k = k.min(LATTICE_MAX);
    (0..=k)
        .rev()
        .map(|size| {
            let mut level = vec![];
            combos(0, k, size, 0, &mut level);
            level
        })
        .collect()
}

/// The predicates (0-based) of a subset mask.
pub fn members(s: usize, k: usize) -> Vec<usize> {
    (0..k).filter(|j| s >> j & 1 == 1).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Figure 4: machines satisfying {p1, p2}, {p3}, {p4}.
    pub(crate) fn figure4() -> Vec<bool> {
        let rows = [0b0011usize, 0b0100, 0b1000];
        (0..16).map(|s| rows.iter().any(|r| r & s == s)).collect()
    }

    fn marked(succeeds: &[bool], want: Mark) -> Vec<Vec<usize>> {
        let k = lattice_size(succeeds.len()).unwrap();
        let mut v: Vec<Vec<usize>> = lattice_marks(succeeds)
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == want)
            .map(|(s, _)| members(s, k).iter().map(|p| p + 1).collect())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn figure4_mfs_and_mss() {
        let s = figure4();
        assert_eq!(
            marked(&s, Mark::Mfs),
            vec![vec![1, 3], vec![1, 4], vec![2, 3], vec![2, 4], vec![3, 4]]
        );
        assert_eq!(marked(&s, Mark::Mss), vec![vec![1, 2], vec![3], vec![4]]);
        // Nothing to mark in a lattice of the wrong size; a full success has
        // one MSS (the whole clause) and no MFS.
        assert!(lattice_marks(&[true, false, true]).is_empty());
        assert!(lattice_marks(&[true; 1 << 7]).is_empty());
        let all = vec![true; 8];
        assert_eq!(marked(&all, Mark::Mss), vec![vec![1, 2, 3]]);
        assert!(marked(&all, Mark::Mfs).is_empty());
        // One predicate no machine satisfies: it is the MFS, {} the MSS.
        assert_eq!(marked(&[true, false], Mark::Mfs), vec![vec![1]]);
        assert_eq!(marked(&[true, false], Mark::Mss), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn levels_put_the_full_clause_on_top() {
        let l = lattice_levels(4);
        assert_eq!(l.len(), 5);
        assert_eq!(l[0], vec![0b1111]);
        assert_eq!(l[4], vec![0]);
        assert_eq!(
            l.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![1, 4, 6, 4, 1]
        );
        // Lexicographic: {1,2}, {1,3}, {1,4}, {2,3}, {2,4}, {3,4}.
        assert_eq!(l[2], vec![0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100]);
        assert_eq!(lattice_levels(9).len(), LATTICE_MAX + 1);
    }
}
