//! The match matrix' layout, kept apart from the components so it can be
//! unit-tested: the order and filter of its rows and columns, the tiles it
//! asks the worker for, and its labels clipped.

/// Which rows (or columns) of the matrix to show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    #[default]
    All,
    /// Only those with at least one mutual match.
    Matched,
    /// Only those with none.
    Unmatched,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// As in the pool.
    #[default]
    Input,
    MostMatches,
    FewestMatches,
}

impl Filter {
    pub const ALL: [(Filter, &'static str); 3] = [
        (Filter::All, "all"),
        (Filter::Matched, "with a match"),
        (Filter::Unmatched, "without a match"),
    ];
}

impl Sort {
    pub const ALL: [(Sort, &'static str); 3] = [
        (Sort::Input, "pool order"),
        (Sort::MostMatches, "most matches first"),
        (Sort::FewestMatches, "fewest matches first"),
    ];
}

/// Whether this arrangement needs the whole-matrix counts.
pub fn needs_counts(filter: Filter, sort: Sort) -> bool {
    filter != Filter::All || sort != Sort::Input
}

/// The indices to show, in display order: those passing `filter`, sorted
/// (stably) by `sort`. Without counts, everything in pool order.
pub fn arrange(n: usize, counts: Option<&[u32]>, filter: Filter, sort: Sort) -> Vec<u32> {
    let Some(counts) = counts.filter(|c| c.len() == n) else {
        return (0..n as u32).collect();
    };
    let out: Vec<u32> = (0..n as u32)
        .filter(|&i| match filter {
            Filter::All => true,
            Filter::Matched => counts[i as usize] > 0,
            Filter::Unmatched => counts[i as usize] == 0,
        })
        .collect();
    // One unstable sort of (key, index) pairs: as stable as a stable sort
    // (the index breaks ties) and one instantiation of the sort code, which
    // counts in the page's download.
    let sign = match sort {
        Sort::Input => return out,
        Sort::MostMatches => -1,
        Sort::FewestMatches => 1,
    };
    let mut keyed: Vec<(i64, u32)> = out
        .iter()
        .map(|&i| (sign * counts[i as usize] as i64, i))
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The matrix is fetched from the worker in square tiles of this many cells
/// a side: small enough to come back quickly, big enough that a screen
/// needs only a few.
pub const TILE: usize = 32;

/// The cells in sight, as half-open ranges of display rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    pub rows: (usize, usize),
    pub cols: (usize, usize),
}

/// The tiles covering `sight` plus `margin` tiles around it (clipped to a
/// `rows` × `cols` matrix), nearest the middle of the sight first.
pub fn tiles_for(sight: Sight, rows: usize, cols: usize, margin: usize) -> Vec<(usize, usize)> {
    if rows == 0 || cols == 0 {
        return vec![];
    }
    let span = |(a, b): (usize, usize), n: usize| {
        let first = (a / TILE).saturating_sub(margin);
        let last = (b.max(a + 1).min(n) - 1) / TILE + margin;
        (first, last.min((n - 1) / TILE))
    };
    let (r0, r1) = span(sight.rows, rows);
    let (c0, c1) = span(sight.cols, cols);
    let mid = |(a, b): (usize, usize)| (a + b) as f64 / 2.0 / TILE as f64 - 0.5;
    let (mr, mc) = (mid(sight.rows), mid(sight.cols));
    // Squared distance in quarter tiles, so the sort key is an integer.
    let mut out: Vec<(u64, usize, usize)> = (r0..=r1)
        .flat_map(|r| (c0..=c1).map(move |c| (r, c)))
        .map(|(r, c)| {
            let d = (r as f64 - mr).powi(2) + (c as f64 - mc).powi(2);
            ((d * 16.0) as u64, r, c)
        })
        .collect();
    out.sort_unstable();
    out.into_iter().map(|(_, r, c)| (r, c)).collect()
}

/// The display rows (or columns) of tile index `t` along a side of `n`.
pub fn tile_range(t: usize, n: usize) -> (usize, usize) {
    ((t * TILE).min(n), ((t + 1) * TILE).min(n))
}

/// Shorten a label to `max` characters with an ellipsis.
pub fn clip(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        return label.to_string();
    }
    let mut s: String = label.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrange_filters_and_sorts_stably() {
        let c = [2, 0, 5, 2, 0];
        assert_eq!(
            arrange(5, None, Filter::Matched, Sort::MostMatches),
            vec![0, 1, 2, 3, 4]
        );
        assert_eq!(
            arrange(5, Some(&c), Filter::All, Sort::Input),
            vec![0, 1, 2, 3, 4]
        );
        assert_eq!(
            arrange(5, Some(&c), Filter::Matched, Sort::Input),
            vec![0, 2, 3]
        );
        assert_eq!(
            arrange(5, Some(&c), Filter::Unmatched, Sort::Input),
            vec![1, 4]
        );
        assert_eq!(
            arrange(5, Some(&c), Filter::All, Sort::MostMatches),
            vec![2, 0, 3, 1, 4]
        );
        assert_eq!(
            arrange(5, Some(&c), Filter::All, Sort::FewestMatches),
            vec![1, 4, 0, 3, 2]
        );
        // Counts of another pool (its size changed): ignored.
        assert_eq!(
            arrange(2, Some(&c), Filter::Matched, Sort::Input),
            vec![0, 1]
        );
        assert!(needs_counts(Filter::All, Sort::MostMatches));
        assert!(!needs_counts(Filter::All, Sort::Input));
    }

    #[test]
    fn tiles_cover_the_sight_nearest_first() {
        let sight = Sight {
            rows: (0, 10),
            cols: (0, 10),
        };
        assert_eq!(tiles_for(sight, 100, 100, 0), vec![(0, 0)]);
        let t = tiles_for(sight, 100, 100, 1);
        assert_eq!(t[0], (0, 0));
        assert_eq!(t.len(), 4);
        // In the middle of a big matrix, with a margin: 3 × 3 around it.
        let sight = Sight {
            rows: (5000, 5030),
            cols: (200, 230),
        };
        let t = tiles_for(sight, 10_000, 10_000, 1);
        // Rows 5000..5030 are tiles 156-157, columns 200..230 tiles 6-7.
        assert_eq!(t.len(), 4 * 4);
        assert!(t.contains(&(5000 / TILE, 200 / TILE)));
        // Clipped at the far edge; nothing for an empty matrix.
        let sight = Sight {
            rows: (90, 200),
            cols: (0, 5),
        };
        assert!(tiles_for(sight, 100, 5, 2)
            .iter()
            .all(|&(r, c)| r <= 99 / TILE && c == 0));
        assert!(tiles_for(sight, 0, 5, 1).is_empty());
        assert_eq!(tile_range(3, 100), (96, 100));
        assert_eq!(tile_range(4, 100), (100, 100));
    }

    #[test]
    fn labels_are_clipped() {
        assert_eq!(clip("slot1@node1.example.org", 10), "slot1@nod…");
        assert_eq!(clip("short", 10), "short");
    }
}
