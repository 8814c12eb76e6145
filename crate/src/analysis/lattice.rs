//! Conflicts with the pool (§3.1.2, Figure 4): the minimal failing and
//! maximal succeeding subexpressions of a clause.
//!
//! A subset of a clause's predicates succeeds when some machine makes all
//! of them true, i.e. when it is contained in some machine's row of the
//! boolean table. The maximal succeeding subsets (MSS) are therefore the
//! maximal rows; the minimal failing subsets (MFS) are the minimal sets
//! that meet the complement of every MSS (the paper's negate-and-convert
//! step is exactly this minimal-transversal computation). Sets are bit
//! masks, so clauses of up to 64 predicates are exact; the transversal
//! enumeration is bounded by [`MAX_SETS`] and says when it stopped.

/// Most intermediate transversals kept; past it the MFS list is partial.
pub const MAX_SETS: usize = 4096;
/// Most set comparisons one clause's lattice may make (about 20 ms);
/// past it the enumeration stops where it is and says so: 64 predicates
/// against hundreds of distinct machines would otherwise take minutes.
pub const MAX_WORK: u64 = 20_000_000;
/// Largest clause analyzed (one bit per predicate).
pub const MAX_PREDICATES: usize = 64;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lattice {
    /// Minimal failing subsets, smallest first.
    pub mfs: Vec<u64>,
    /// Maximal succeeding subsets, largest first.
    pub mss: Vec<u64>,
    /// False when a bound stopped the enumeration.
    pub complete: bool,
}

/// `k` predicates; `rows`: for each machine, the predicates true on it.
pub fn lattice(k: usize, rows: impl IntoIterator<Item = u64>) -> Lattice {
    if k > MAX_PREDICATES {
        return Lattice::default();
    }
    let full = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    let mut distinct: Vec<u64> = rows.into_iter().map(|r| r & full).collect();
    distinct.sort_unstable();
    distinct.dedup();
    // Maximal rows: not strictly contained in another row. The empty set
    // always succeeds (it is `true`), so it is the MSS of an empty table.
    let mut mss: Vec<u64> = distinct
        .iter()
        .copied()
        .filter(|&r| !distinct.iter().any(|&s| s != r && subset(r, s)))
        .collect();
    if mss.is_empty() {
        mss.push(0);
    }
    mss.sort_by_key(|m| (std::cmp::Reverse(m.count_ones()), *m));
    if mss.contains(&full) {
        return Lattice {
            mfs: vec![],
            mss,
            complete: true,
        };
    }
    // Berge: transversals of the edges seen so far, kept minimal.
    let mut tr: Vec<u64> = vec![0];
    let mut complete = true;
    let mut work: u64 = 0;
    for &m in &mss {
        if work > MAX_WORK {
            complete = false;
            break;
        }
        let edge = full & !m;
        let mut next: Vec<u64> = Vec::with_capacity(tr.len());
        let mut extend: Vec<u64> = vec![];
        for &t in &tr {
            if t & edge != 0 {
                next.push(t);
            } else {
                let mut bits = edge;
                while bits != 0 {
                    let b = bits & bits.wrapping_neg();
                    extend.push(t | b);
                    bits &= bits - 1;
                }
            }
        }
        extend.sort_unstable();
        extend.dedup();
        for x in extend {
            work += next.len() as u64;
            if work > MAX_WORK {
                complete = false;
                break;
            }
            if !next.iter().any(|&y| subset(y, x)) {
                next.push(x);
            }
        }
        // Keep only minimal sets.
        next.sort_by_key(|s| (s.count_ones(), *s));
        let mut minimal: Vec<u64> = Vec::with_capacity(next.len());
        for s in next {
            work += minimal.len() as u64;
            if !minimal.iter().any(|&y| subset(y, s)) {
                minimal.push(s);
            }
        }
        if minimal.len() > MAX_SETS {
            minimal.truncate(MAX_SETS);
            complete = false;
        }
        tr = minimal;
    }
    if !complete {
        // Stopped part way: keep only the sets the table proves minimal
        // failing (no machine has them all; every one-smaller set is on some
        // machine), so a partial list claims nothing false.
        let succeeds = |t: u64| mss.iter().any(|&m| subset(t, m));
        tr.retain(|&t| {
            if succeeds(t) {
                return false;
            }
            let mut bits = t;
            while bits != 0 {
                let b = bits & bits.wrapping_neg();
                if !succeeds(t & !b) {
                    return false;
                }
                bits &= bits - 1;
            }
            true
        });
    }
    Lattice {
        mfs: tr,
        mss,
        complete,
    }
}

/// `a ⊆ b`.
fn subset(a: u64, b: u64) -> bool {
    a & !b == 0
}

/// The predicates (indices) of a mask.
pub fn members(mask: u64) -> Vec<usize> {
    (0..64).filter(|i| mask >> i & 1 == 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ix: &[usize]) -> u64 {
        ix.iter().map(|i| 1u64 << (i - 1)).sum()
    }

    #[test]
    fn figure_4() {
        // MSS {p1,p2}, {p3}, {p4} (and their subsets) succeed.
        let rows = [set(&[1, 2]), set(&[3]), set(&[4]), set(&[1]), 0];
        let l = lattice(4, rows);
        let mut mfs = l.mfs.clone();
        mfs.sort_unstable();
        let mut want = vec![
            set(&[1, 3]),
            set(&[1, 4]),
            set(&[2, 4]),
            set(&[2, 3]),
            set(&[3, 4]),
        ];
        want.sort_unstable();
        assert_eq!(mfs, want);
        let mut mss = l.mss.clone();
        mss.sort_unstable();
        let mut want = vec![set(&[1, 2]), set(&[3]), set(&[4])];
        want.sort_unstable();
        assert_eq!(mss, want);
        assert!(l.complete);
    }

    #[test]
    fn eight_machines() {
        // Arch == "ALPHA" (p1), OpSys == "SOLARIS" (p2), Memory >= 512M (p3):
        // the paper's table rows T F F, F F F, F T T, F F T, T F T, F T T, F F F, F T F.
        let rows = [
            set(&[1]),
            0,
            set(&[2, 3]),
            set(&[3]),
            set(&[1, 3]),
            set(&[2, 3]),
            0,
            set(&[2]),
        ];
        let l = lattice(3, rows);
        assert_eq!(l.mfs, vec![set(&[1, 2])]);
        let mut mss = l.mss.clone();
        mss.sort_unstable();
        assert_eq!(mss, vec![set(&[1, 3]), set(&[2, 3])]);
    }

    #[test]
    fn brute_force_agrees() {
        let mut seed = 7u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let k = (next() % 7 + 1) as usize;
            let full = (1u64 << k) - 1;
            let rows: Vec<u64> = (0..next() % 6).map(|_| next() & full).collect();
            let l = lattice(k, rows.clone());
            let succeeds = |s: u64| s == 0 || rows.iter().any(|&r| r & s == s);
            let mut mfs: Vec<u64> = (0..=full)
                .filter(|&s| {
                    !succeeds(s) && (0..k).all(|i| s >> i & 1 == 0 || succeeds(s & !(1 << i)))
                })
                .collect();
            let mut got = l.mfs.clone();
            mfs.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, mfs, "rows {rows:?} k {k}");
        }
    }
}
