//! The match matrix' cells as fetched from the worker, tile by tile (see
//! `matrix_layout::TILE`), with a bound on how many tiles are kept: a
//! 10,000 × 10,000 matrix scrolled end to end must not keep it all.

use std::collections::HashMap;

use crate::components::matchmaking::matrix_layout::TILE;

/// One tile: outcome and both ranks of each cell, row-major. The ranks are
/// kept in one string (job's, machine's, job's, …) rather than thousands
/// of small ones.
#[derive(Debug)]
pub struct Tile {
    pub rows: usize,
    pub cols: usize,
    cells: Vec<u8>,
    ranks: String,
    ends: Vec<u32>,
}

impl Tile {
    pub fn new(
        rows: usize,
        cols: usize,
        cells: Vec<u8>,
        job_ranks: &[String],
        machine_ranks: &[String],
    ) -> Tile {
        let mut ranks = String::new();
        let mut ends = Vec::with_capacity(cells.len() * 2);
        for (j, m) in job_ranks.iter().zip(machine_ranks) {
            ranks.push_str(j);
            ends.push(ranks.len() as u32);
            ranks.push_str(m);
            ends.push(ranks.len() as u32);
        }
        Tile {
            rows,
            cols,
            cells,
            ranks,
            ends,
        }
    }

    /// Outcome of the cell at (row, col) inside the tile (bit 0: the job
    /// rejects, bit 1: the machine rejects).
    pub fn cell(&self, r: usize, c: usize) -> Option<u8> {
        if r >= self.rows || c >= self.cols {
            return None;
        }
        self.cells.get(r * self.cols + c).copied()
    }

    fn rank(&self, k: usize) -> Option<&str> {
        let end = *self.ends.get(k)? as usize;
        let start = if k == 0 {
            0
        } else {
            *self.ends.get(k - 1)? as usize
        };
        self.ranks.get(start..end)
    }

    /// (job's rank of the machine, machine's rank of the job).
    pub fn ranks(&self, r: usize, c: usize) -> Option<(&str, &str)> {
        if r >= self.rows || c >= self.cols {
            return None;
        }
        let k = r * self.cols + c;
        Some((self.rank(2 * k)?, self.rank(2 * k + 1)?))
    }
}

/// Tiles by (tile row, tile column), least recently used evicted first.
pub struct TileCache {
    tiles: HashMap<(usize, usize), (Tile, u64)>,
    clock: u64,
    cap: usize,
    /// Asked for and not answered yet.
    pub inflight: Vec<(usize, usize)>,
}

impl TileCache {
    pub fn new(cap: usize) -> TileCache {
        TileCache {
            tiles: HashMap::new(),
            clock: 0,
            cap: cap.max(1),
            inflight: vec![],
        }
    }

    pub fn clear(&mut self) {
        self.tiles.clear();
        self.inflight.clear();
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    pub fn has(&self, t: (usize, usize)) -> bool {
        self.tiles.contains_key(&t)
    }

    pub fn get(&self, t: (usize, usize)) -> Option<&Tile> {
        self.tiles.get(&t).map(|(tile, _)| tile)
    }

    /// Mark a tile as just used (it is in sight).
    pub fn touch(&mut self, t: (usize, usize)) {
        self.clock += 1;
        if let Some((_, used)) = self.tiles.get_mut(&t) {
            *used = self.clock;
        }
    }

    pub fn insert(&mut self, t: (usize, usize), tile: Tile) {
        self.inflight.retain(|x| *x != t);
        self.clock += 1;
        self.tiles.insert(t, (tile, self.clock));
        while self.tiles.len() > self.cap {
            let oldest = self
                .tiles
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| *k);
            match oldest {
                Some(k) => self.tiles.remove(&k),
                None => break,
            };
        }
    }

    /// The first of `wanted` neither here nor asked for.
    pub fn next_missing(&self, wanted: &[(usize, usize)]) -> Option<(usize, usize)> {
        wanted
            .iter()
            .find(|t| !self.tiles.contains_key(t) && !self.inflight.contains(t))
            .copied()
    }

    /// A cell by display position: (outcome, ranks) when its tile is here.
    pub fn cell(&self, r: usize, c: usize) -> Option<(u8, Option<(&str, &str)>)> {
        let t = self.get((r / TILE, c / TILE))?;
        let (ir, ic) = (r % TILE, c % TILE);
        Some((t.cell(ir, ic)?, t.ranks(ir, ic)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(n: usize, v: u8) -> Tile {
        let ranks: Vec<String> = (0..n * n).map(|i| i.to_string()).collect();
        let mranks: Vec<String> = (0..n * n).map(|i| format!("m{i}")).collect();
        Tile::new(n, n, vec![v; n * n], &ranks, &mranks)
    }

    #[test]
    fn a_tile_answers_cells_and_ranks() {
        let t = Tile::new(
            2,
            3,
            vec![0, 1, 2, 3, 0, 1],
            &["a", "", "c", "d", "e", "f"].map(String::from),
            &["1", "2", "3", "4", "5", "undefined"].map(String::from),
        );
        assert_eq!(t.cell(0, 1), Some(1));
        assert_eq!(t.cell(1, 0), Some(3));
        assert_eq!(t.cell(2, 0), None);
        assert_eq!(t.cell(0, 3), None);
        assert_eq!(t.ranks(0, 0), Some(("a", "1")));
        assert_eq!(t.ranks(0, 1), Some(("", "2")));
        assert_eq!(t.ranks(1, 2), Some(("f", "undefined")));
        assert_eq!(t.ranks(1, 3), None);
        // A short answer (fewer cells than rows × cols) is no panic.
        let short = Tile::new(2, 2, vec![0], &[], &[]);
        assert_eq!(short.cell(1, 1), None);
        assert_eq!(short.ranks(0, 0), None);
    }

    #[test]
    fn the_least_recently_used_tile_goes_first() {
        let mut c = TileCache::new(2);
        c.inflight.push((0, 0));
        c.insert((0, 0), tile(2, 0));
        assert!(c.inflight.is_empty());
        c.insert((0, 1), tile(2, 1));
        c.touch((0, 0));
        c.insert((1, 0), tile(2, 2));
        assert!(c.has((0, 0)) && c.has((1, 0)) && !c.has((0, 1)));
        assert_eq!(c.len(), 2);
        assert_eq!(c.next_missing(&[(0, 0), (0, 1), (1, 1)]), Some((0, 1)));
        c.inflight.push((0, 1));
        assert_eq!(c.next_missing(&[(0, 0), (0, 1), (1, 1)]), Some((1, 1)));
        // Display cell (TILE + 1, 1) lies in tile (1, 0).
        assert_eq!(c.cell(TILE + 1, 1).map(|x| x.0), Some(2));
        assert_eq!(c.cell(TILE + 1, 1).and_then(|x| x.1), Some(("3", "m3")));
        assert_eq!(c.cell(TILE + 2, 0), None, "past the tile's rows");
        c.clear();
        assert!(c.is_empty());
    }
}
