//! Figure 4 (seed 000 §3.1.2): the subset lattice of a failing clause as
//! drawn: its levels (`analyzer_lattice.rs` draws it). The engine sends
//! each subset's mark (minimal failing, maximal succeeding).

pub use classad::api::session::LatticeMark as Mark;

/// Predicates at most drawn: the engine sends lattices of at most this many.
pub use classad::api::session::LATTICE_MAX;

/// The number of predicates of a lattice of `sets` subsets (`None`: not a
/// power of two, or too big to draw).
pub fn lattice_size(sets: usize) -> Option<usize> {
    (sets.is_power_of_two() && sets <= 1 << LATTICE_MAX).then(|| sets.trailing_zeros() as usize)
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
