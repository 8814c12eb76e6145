//! A job's best machine without ranking every compatible one.
//!
//! Most of a big cycle's work used to be the docking vector of every
//! compatible machine, for each job. But a job's `Rank` is mostly a
//! function of the machine alone (`TARGET.KFlops`, `TARGET.Memory`, `0`),
//! and so is most of HTCondor's preemption vector for an idle slot. So,
//! once per cycle for every docking vector that compiles alike (same
//! fingerprint), each machine gets an upper bound of its vector, a bound
//! per component ([`RankTable`]): its value where it reads nothing of the
//! job, else the largest its conditional's branches give (a claimed slot's
//! preemption component is at most 1), else +∞ ([`Bound`]). A job then sorts its free candidates by
//! that bound, evaluates them in that order — compatibility first, then
//! the vector — and stops at the first whose bound is below the best
//! found (or equal to it, later in the pool: ties go to the earlier
//! machine). The pick is the one a full survey makes.
//!
//! What this gives up is the count of the job's compatible machines,
//! which only a full survey knows: the cycle does this only when asked
//! not to count them (`NegotiationConfig::count_candidates`).

use std::cmp::Ordering;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::lang::eval::Evaluator;
use crate::lang::value::Value;
use crate::matchmaking::compiled::{Bound, CompiledAd};
use crate::matchmaking::survey::{num, Docking};

/// Most tables a cycle builds (each costs one evaluation per machine and
/// component); jobs whose vector compiles unlike all of them are surveyed
/// in full.
const MAX_TABLES: usize = 64;

/// Upper bounds of one docking vector's value on every machine.
pub(super) struct RankTable {
    width: usize,
    /// Machine-major, `width` per machine: the component's value where it
    /// reads nothing of the job, +∞ from the first one that does.
    bounds: Vec<f64>,
    /// A component reading nothing of the job is not a number: no job's
    /// vector for this machine is valid, so no job ranks it.
    never: Vec<bool>,
}

impl RankTable {
    /// No job's vector for machine `m` is valid.
    pub fn is_never(&self, m: usize) -> bool {
        self.never[m]
    }

    fn bound(&self, m: usize) -> &[f64] {
        &self.bounds[m * self.width..(m + 1) * self.width]
    }
}

/// The cycle's tables, by the fingerprints of the vector's components.
#[derive(Default)]
pub(super) struct RankTables {
    tables: FxHashMap<Vec<String>, Option<Arc<RankTable>>>,
}

impl RankTables {
    /// The table for `docking` (compiled against `job`), built on first
    /// use; `None` when a component cannot be fingerprinted or the cycle
    /// has built as many tables as it may.
    pub fn get(
        &mut self,
        docking: &Docking,
        job: &CompiledAd,
        machines: &[CompiledAd],
        ev: &mut Evaluator,
    ) -> Option<Arc<RankTable>> {
        let key: Vec<String> = docking
            .components()
            .iter()
            .map(|c| c.fingerprint())
            .collect::<Option<_>>()?;
        if let Some(t) = self.tables.get(&key) {
            return t.clone();
        }
        let built =
            (self.tables.len() < MAX_TABLES).then(|| Arc::new(build(docking, job, machines, ev)));
        self.tables.insert(key, built.clone());
        built
    }
}

fn build(
    docking: &Docking,
    job: &CompiledAd,
    machines: &[CompiledAd],
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
                Bound::Exact(v) => match num(&v) {
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
    RankTable {
        width,
        bounds,
        never,
    }
}

fn lex_cmp(a: &[f64], b: &[f64]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.partial_cmp(y) {
            Some(Ordering::Equal) | None => continue,
            Some(o) => return o,
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
    /// How many of them are compatible. Without a best, every machine
    /// but the `never` ones was evaluated.
    pub compatible: usize,
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
    let mut best: Option<(usize, Vec<Value>)> = None;
    // The best's vector as the bounds compare it (`None`: it holds a NaN,
    // which compares equal to anything, so no bound rules a machine out).
    let mut best_key: Option<Vec<f64>> = None;
    let (mut evaluated, mut compat) = (0, 0);
    let mut scratch = Vec::with_capacity(table.width);
    for mi in order {
        if let (Some((b, _)), Some(key)) = (&best, &best_key) {
            match lex_cmp(table.bound(mi), key) {
                Ordering::Less => break,
                Ordering::Equal if mi > *b => break,
                _ => {}
            }
        }
        evaluated += 1;
        if !compatible(mi, ev) {
            continue;
        }
        compat += 1;
        if !docking.vector_into(ev, job, &machines[mi], &mut scratch) {
            continue;
        }
        let beats = best.as_ref().is_none_or(|(b, v)| {
            crate::matchmaking::survey::vector_cmp(&scratch, v).then(b.cmp(&mi))
                == Ordering::Greater
        });
        if beats {
            let key: Vec<f64> = scratch.iter().filter_map(num).collect();
            best_key = (!key.iter().any(|x| x.is_nan())).then_some(key);
            best = Some((mi, std::mem::take(&mut scratch)));
        }
    }
    Walk {
        best,
        evaluated,
        compatible: compat,
    }
}
