//! A job's best machine without ranking every compatible one.
//!
//! Most of a big cycle's work used to be the docking vector of every
//! compatible machine, for each job. But a job's `Rank` is mostly a
//! function of the machine alone (`TARGET.KFlops`, `TARGET.Memory`, `0`),
//! and so is most of HTCondor's preemption vector for an idle slot. So,
//! once per cycle for every docking vector that compiles alike (same
//! fingerprint), each machine gets an upper bound of its vector, a bound
//! per component ([`RankTable`], [`Bound`]): its value where it reads
//! nothing of the job, else the largest its conditionals' branches give (a
//! claimed slot's preemption component is at most 1), else +∞.
//!
//! A job then evaluates machines in the order of their bounds —
//! compatibility first, then the vector — and stops at the first whose
//! bound is below the best found (or equal to it, later in the pool: ties
//! go to the earlier machine): first the whole pool ([`walk_pool`], which
//! skips taken slots), within a budget; else its candidates from the index
//! ([`walk`]). The pick is the one a full survey makes.
//!
//! What this gives up is the count of the job's compatible machines,
//! which only a full survey knows: the cycle does this only when asked
//! not to count them (`NegotiationConfig::count_candidates`).

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

use crate::lang::eval::Evaluator;
use crate::lang::value::Value;
use crate::matchmaking::compiled::{Bound, CompiledAd};
use crate::matchmaking::docking::{vector_cmp, Docking};

/// Most tables a cycle builds (each costs one evaluation per machine and
/// component); jobs whose vector compiles unlike all of them are surveyed
/// in full.
const MAX_TABLES: usize = 64;

/// Upper bounds of one docking vector's value on every machine, and the
/// machines in the order of them.
pub(super) struct RankTable {
    width: usize,
    /// Machine-major, `width` per machine: each component's bound.
    bounds: Vec<f64>,
    /// A component reading nothing of the job is not a number: no job's
    /// vector for this machine is valid, so no job ranks it.
    never: Vec<bool>,
    /// The machines any job may rank (not `never`, accepting some ad),
    /// largest bound first, ties in pool order.
    order: Vec<u32>,
    /// Each machine's position in `order` (`u32::MAX`: not in it).
    position: Vec<u32>,
}

impl RankTable {
    /// No job's vector for machine `m` is valid.
    pub fn is_never(&self, m: usize) -> bool {
        self.never[m]
    }

    fn bound(&self, m: usize) -> &[f64] {
        &self.bounds[m * self.width..(m + 1) * self.width]
    }

    /// Whether no machine from `m` on (in the order of the bounds) can
    /// beat machine `best`, whose vector is `key` (as numbers).
    fn beyond(&self, m: usize, best: usize, key: &[f64]) -> bool {
        match lex_cmp(self.bound(m), key) {
            Ordering::Less => true,
            // Ties go to the machine earlier in the pool.
            Ordering::Equal => m > best,
            Ordering::Greater => false,
        }
    }
}

/// Which positions of a table's order are still free, skipping the taken
/// ones in amortized constant time (a next-live pointer per position,
/// path-halved as it is followed).
struct Live {
    next: Vec<u32>,
}

impl Live {
    fn new(len: usize) -> Live {
        Live {
            next: (0..=len as u32).collect(),
        }
    }

    /// The first live position at or after `p` (the length when none).
    fn find(&mut self, mut p: usize) -> usize {
        while self.next[p] as usize != p {
            let up = self.next[self.next[p] as usize];
            self.next[p] = up;
            p = up as usize;
        }
        p
    }

    fn kill(&mut self, p: usize) {
        self.next[p] = p as u32 + 1;
    }
}

/// A table of the cycle, by number.
#[derive(Clone, Copy)]
pub(super) struct TableId(usize);

/// The cycle's tables, by the fingerprints of the vector's components.
#[derive(Default)]
pub(super) struct RankTables {
    ids: FxHashMap<Vec<String>, Option<TableId>>,
    built: Vec<(RankTable, Live)>,
    /// Per table and compatibility class: the order's positions before
    /// this one hold no free machine the class accepts.
    skips: Vec<FxHashMap<u64, usize>>,
}

impl RankTables {
    /// The table for `docking` (compiled against `job`), built on first
    /// use (the machines `free` then, those not rejecting every ad);
    /// `None` when a component cannot be fingerprinted or the cycle has
    /// built as many tables as it may.
    pub fn get(
        &mut self,
        docking: &Docking,
        job: &CompiledAd,
        machines: &[CompiledAd],
        walkable: impl Fn(usize) -> bool,
        ev: &mut Evaluator,
    ) -> Option<TableId> {
        let key: Vec<String> = docking
            .components()
            .iter()
            .map(|c| c.fingerprint())
            .collect::<Option<_>>()?;
        if let Some(t) = self.ids.get(&key) {
            return *t;
        }
        let id = (self.built.len() < MAX_TABLES).then(|| {
            let t = build(docking, job, machines, walkable, ev);
            let live = Live::new(t.order.len());
            self.built.push((t, live));
            self.skips.push(FxHashMap::default());
            TableId(self.built.len() - 1)
        });
        self.ids.insert(key, id);
        id
    }

    pub fn table(&self, id: TableId) -> &RankTable {
        &self.built[id.0].0
    }

    /// Machine `m` is taken: no walk of the pool's order sees it again.
    pub fn take(&mut self, m: usize) {
        for (t, live) in &mut self.built {
            if let Some(&p) = t.position.get(m) {
                if p != u32::MAX {
                    live.kill(p as usize);
                }
            }
        }
    }

    /// [`walk_pool`] over table `id`.
    #[allow(clippy::too_many_arguments)]
    /// `class`: the job's compatibility class (jobs of one class accept
    /// the same machines): its walk starts past the machines an earlier
    /// job of the class found it does not accept — the order's head, which
    /// otherwise every job walks again (HTCondor's default
    /// NEGOTIATOR_PRE_JOB_RANK puts the smallest slots first).
    #[allow(clippy::too_many_arguments)]
    pub fn walk_pool(
        &mut self,
        id: TableId,
        budget: usize,
        job: &CompiledAd,
        docking: &Docking,
        machines: &[CompiledAd],
        ev: &mut Evaluator,
        compatible: impl FnMut(usize, &mut Evaluator) -> bool,
        class: Option<u64>,
    ) -> Walk {
        let (t, live) = &mut self.built[id.0];
        let skips = &mut self.skips[id.0];
        let start = class.and_then(|c| skips.get(&c).copied()).unwrap_or(0);
        let (w, incompatible_to) = walk_pool(
            t, live, budget, job, docking, machines, ev, compatible, start,
        );
        if let Some(c) = class {
            let at = skips.entry(c).or_insert(0);
            *at = (*at).max(incompatible_to);
        }
        w
    }
}

fn build(
    docking: &Docking,
    job: &CompiledAd,
    machines: &[CompiledAd],
    walkable: impl Fn(usize) -> bool,
    ev: &mut Evaluator,
) -> RankTable {
    let comps = docking.components();
    let width = comps.len();
    let mut bounds = vec![f64::INFINITY; machines.len() * width];
    let mut never = vec![false; machines.len()];
    for (mi, m) in machines.iter().enumerate() {
        // A vector is at most the vector of its components' bounds, each
        // bounded on its own (lexicographic order is monotone in each).
        for (c, comp) in comps.iter().enumerate() {
            let at_most = match comp.bound(job, m, ev) {
                Bound::Exact(v) => match v.as_ranking_number() {
                    None => None,
                    // NaN compares equal to everything: no bound from it.
                    Some(x) if x.is_nan() => Some(f64::INFINITY),
                    Some(x) => Some(x),
                },
                Bound::AtMost(x) => Some(x),
                Bound::NoNumber => None,
                Bound::Unknown => Some(f64::INFINITY),
            };
            match at_most {
                Some(x) => bounds[mi * width + c] = x,
                None => never[mi] = true,
            }
        }
    }
    let mut t = RankTable {
        width,
        bounds,
        never,
        order: vec![],
        position: vec![u32::MAX; machines.len()],
    };
    let mut order: Vec<u32> = (0..machines.len() as u32)
        .filter(|&m| !t.never[m as usize] && walkable(m as usize))
        .collect();
    order.sort_unstable_by(|&a, &b| {
        lex_cmp(t.bound(b as usize), t.bound(a as usize)).then(a.cmp(&b))
    });
    for (p, &m) in order.iter().enumerate() {
        t.position[m as usize] = p as u32;
    }
    t.order = order;
    t
}

/// Bounds compare as the vectors they bound do (NaN lowest, see
/// `docking::key_cmp`).
fn lex_cmp(a: &[f64], b: &[f64]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match crate::lang::value::rank_cmp(*x, *y) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    Ordering::Equal
}

/// What a best-first walk found.
pub(super) struct Walk {
    /// The best free compatible machine with a valid vector, and it.
    pub best: Option<(usize, Vec<Value>)>,
    /// Machines evaluated.
    pub evaluated: usize,
    /// How many of them are compatible. Without a best, and unless it
    /// gave up, every machine but the `never` ones was evaluated.
    pub compatible: usize,
    /// A pool walk ran out of budget before it could tell.
    pub gave_up: bool,
}

/// The best of `todo` (free candidates, ascending) for `job`: machines in
/// the order of their bounds, until no later one can beat the best.
/// `compatible` says whether a machine and the job accept each other.
pub(super) fn walk(
    table: &RankTable,
    todo: &[usize],
    job: &CompiledAd,
    docking: &Docking,
    machines: &[CompiledAd],
    ev: &mut Evaluator,
    mut compatible: impl FnMut(usize, &mut Evaluator) -> bool,
) -> Walk {
    let mut order: Vec<usize> = todo
        .iter()
        .copied()
        .filter(|&m| !table.is_never(m))
        .collect();
    order.sort_unstable_by(|&a, &b| lex_cmp(table.bound(b), table.bound(a)).then(a.cmp(&b)));
    let mut best = Best::default();
    for mi in order {
        if best.rules_out(table, mi) {
            break;
        }
        best.visit(mi, job, docking, &machines[mi], ev, &mut compatible);
    }
    best.into_walk(false)
}

/// The best machine of a walk so far, and what the walk evaluated.
#[derive(Default)]
struct Best {
    evaluated: usize,
    compatible: usize,
    found: Option<(usize, Vec<Value>)>,
    /// Its vector as the bounds compare it (`None` while there is none, or
    /// when it holds a NaN, which compares equal to anything: then no bound
    /// rules a machine out).
    key: Option<Vec<f64>>,
    scratch: Vec<Value>,
}

impl Best {
    /// No machine from `m` on, in the table's order, can beat it.
    fn rules_out(&self, table: &RankTable, m: usize) -> bool {
        match (&self.found, &self.key) {
            (Some((best, _)), Some(key)) => table.beyond(m, *best, key),
            _ => false,
        }
    }

    /// Evaluate machine `mi` (`m`) for `job`: when compatible, rank it, and
    /// keep it if it beats the best.
    fn visit(
        &mut self,
        mi: usize,
        job: &CompiledAd,
        docking: &Docking,
        m: &CompiledAd,
        ev: &mut Evaluator,
        compatible: &mut impl FnMut(usize, &mut Evaluator) -> bool,
    ) -> bool {
        self.evaluated += 1;
        if !compatible(mi, ev) {
            return false;
        }
        self.compatible += 1;
        if !docking.vector_into(ev, job, m, &mut self.scratch) {
            return true;
        }
        let beats = self.found.as_ref().is_none_or(|(b, v)| {
            vector_cmp(&self.scratch, v).then(b.cmp(&mi)) == Ordering::Greater
        });
        if beats {
            let key: Vec<f64> = self
                .scratch
                .iter()
                .filter_map(Value::as_ranking_number)
                .collect();
            self.key = (!key.iter().any(|x| x.is_nan())).then_some(key);
            self.found = Some((mi, std::mem::take(&mut self.scratch)));
        }
        true
    }

    fn into_walk(self, gave_up: bool) -> Walk {
        Walk {
            // Given up: not proven best, so none.
            best: self.found.filter(|_| !gave_up),
            evaluated: self.evaluated,
            compatible: self.compatible,
            gave_up,
        }
    }
}

/// The best free machine of the whole pool for `job`, walking the table's
/// order (largest bound first) until no later machine can beat the best
/// found. When the order ends with none, no free machine but the `never`
/// ones was compatible with a valid vector; when `budget` machines were
/// evaluated first, it gives up, and the caller surveys the job's
/// candidates instead. A job that matches usually finds its machine in a
/// few steps, without asking the index.
#[allow(clippy::too_many_arguments)]
fn walk_pool(
    table: &RankTable,
    live: &mut Live,
    budget: usize,
    job: &CompiledAd,
    docking: &Docking,
    machines: &[CompiledAd],
    ev: &mut Evaluator,
    mut compatible: impl FnMut(usize, &mut Evaluator) -> bool,
    start: usize,
) -> (Walk, usize) {
    let mut best = Best::default();
    let mut p = live.find(start);
    // Where the run of machines the job does not accept, from `start` on,
    // ends: a job that accepts the same machines starts there.
    let (mut incompatible_to, mut in_run) = (p, true);
    while let Some(&m) = table.order.get(p) {
        let mi = m as usize;
        if best.rules_out(table, mi) {
            break;
        }
        if best.evaluated == budget {
            // Not proven best: the caller starts over from the index.
            return (best.into_walk(true), incompatible_to);
        }
        let accepted = best.visit(mi, job, docking, &machines[mi], ev, &mut compatible);
        p = live.find(p + 1);
        in_run &= !accepted;
        if in_run {
            incompatible_to = p;
        }
    }
    (best.into_walk(false), incompatible_to)
}
