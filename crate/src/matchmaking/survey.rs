//! One job's survey of the pool in a negotiation cycle: which machines are
//! compatible with it, and the best of them by the docking vector.
//!
//! A survey is the cycle's inner loop (jobs × candidates), so it works on
//! compiled ads, asks the column prefilter before evaluating, skips the
//! machines that cannot be compatible, and — natively, on a long list of
//! candidates — splits the list in two halves surveyed at once, each with
//! an evaluator of its own; the halves' findings merge into the same
//! answer a single pass gives.

use std::cmp::Ordering;

use crate::lang::ast::Expr;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;
use crate::matchmaking::best_first::{self, RankTable, RankTables, TableId};
use crate::matchmaking::compiled::{Columns, CompiledAd, Prefilter};
use crate::matchmaking::docking::{vector_cmp, Docking};

/// Below this many candidates a survey is not split (the split's cost
/// would be most of the work).
#[cfg(not(target_arch = "wasm32"))]
const SPLIT_FROM: usize = 384;

/// Best first: the larger vector, then the machine earlier in the pool.
fn better(a: &(usize, Vec<Value>), b: &(usize, Vec<Value>)) -> Ordering {
    vector_cmp(&b.1, &a.1).then(a.0.cmp(&b.0))
}

/// What one job sees of the pool: its compatible machines, best first.
#[derive(Default)]
pub(super) struct Survey {
    /// (machine, vector) for the best ranked machines — compatible, with a
    /// valid vector, and free unless the survey ranks taken ones too —
    /// best first: all of them, or the first `keep` asked for.
    pub ranked: Vec<(usize, Vec<Value>)>,
    /// Machines that could be ranked (`ranked` may hold fewer).
    pub rankable: usize,
    pub job_accepts: usize,
    /// Compatible machines, taken or free, and those still free.
    pub compatible: usize,
    pub compatible_free: usize,
    /// Whether the counts include the machines taken this cycle (a survey
    /// that ranks only free machines skips them: they are counted only
    /// when a failure needs them, see [`SurveyCtx::count_taken`]).
    pub counted_taken: bool,
    /// True when the taken machines were only searched for a compatible
    /// one (`compatible` then counts at most one of them).
    pub taken_found_only: bool,
}

impl Survey {
    /// Keep the best `keep` of `ranked` (all when `None`), best first.
    fn settle(&mut self, keep: Option<usize>) {
        if let Some(k) = keep {
            if self.ranked.len() > k {
                self.ranked.select_nth_unstable_by(k - 1, better);
                self.ranked.truncate(k);
            }
        }
        self.ranked.sort_by(better);
    }

    /// The findings of two halves of one list as one.
    #[cfg(not(target_arch = "wasm32"))]
    fn merge(mut self, other: Survey, keep: Option<usize>) -> Survey {
        self.ranked.extend(other.ranked);
        self.rankable += other.rankable;
        self.job_accepts += other.job_accepts;
        self.compatible += other.compatible;
        self.compatible_free += other.compatible_free;
        self.settle(keep);
        self
    }
}

/// The machines a survey looks at: all, or a superset of the compatible
/// ones (ascending) that a `CandidateSource` gave.
#[derive(Clone, Copy)]
pub(super) enum Among<'a> {
    All,
    Only(&'a [usize]),
}

impl Among<'_> {
    /// The machines (of a pool of `n`) among these that `wanted` keeps.
    fn select(self, n: usize, wanted: impl Fn(usize) -> bool) -> Vec<usize> {
        match self {
            Among::All => (0..n).filter(|&mi| wanted(mi)).collect(),
            Among::Only(c) => c
                .iter()
                .copied()
                .filter(|&mi| mi < n && wanted(mi))
                .collect(),
        }
    }
}

/// Whether `job`'s requirements accept machine `mi` (`m`): by the column
/// prefilter where it can tell, else by evaluation.
#[inline]
fn job_accepts(
    columns: &Columns<'_>,
    prefilter: &Prefilter,
    job: &CompiledAd,
    mi: usize,
    m: &CompiledAd,
    ev: &mut Evaluator,
) -> bool {
    columns
        .decide(prefilter, mi)
        .unwrap_or_else(|| job.accepts(m, ev))
}

/// Whether `job` and machine `mi` accept each other (the job's side by the
/// column prefilter where it can tell).
#[inline]
fn compatible(
    columns: &Columns<'_>,
    prefilter: &Prefilter,
    job: &CompiledAd,
    machines: &[CompiledAd],
    mi: usize,
    ev: &mut Evaluator,
) -> bool {
    let m = &machines[mi];
    job_accepts(columns, prefilter, job, mi, m, ev) && m.accepts(job, ev)
}

/// What a walk of the whole pool found ([`SurveyCtx::best_in_pool`]).
pub(super) enum PoolWalk {
    /// The job's best free machine, and its vector.
    Best((usize, Vec<Value>)),
    /// No free machine any job may rank is compatible with a valid vector;
    /// this many of them are compatible.
    NoneFree { compatible: usize },
    /// The budget ran out first.
    GaveUp,
}

/// What every survey of a cycle works with.
pub(super) struct SurveyCtx<'a, 'b> {
    pub ev: &'a mut Evaluator,
    /// A second evaluator, for the other half of a split survey.
    pub helper: &'a mut Evaluator,
    pub machines: &'a [CompiledAd],
    /// Machines whose requirements accept no job at all
    /// ([`CompiledAd::rejects_every_ad`]): never compatible, not surveyed.
    pub rejects_all: &'a [bool],
    pub columns: &'a mut Columns<'b>,
    /// The cycle's docking vector and evaluation options.
    pub docking_vector: &'a [Expr],
    pub opts: EvalOptions,
    pub evals: &'a mut u64,
}

/// One job's survey of a list of machines (either half of a split one).
struct Pass<'a, 'b> {
    job: &'a CompiledAd,
    machines: &'a [CompiledAd],
    columns: &'a Columns<'b>,
    prefilter: &'a Prefilter,
    docking: &'a Docking,
    free: &'a [bool],
    keep: Option<usize>,
}

impl Pass<'_, '_> {
    fn run(&self, todo: &[usize], ev: &mut Evaluator) -> Survey {
        let mut s = Survey::default();
        let mut scratch = Vec::with_capacity(self.docking.components().len());
        for &mi in todo {
            let m = &self.machines[mi];
            // The machine's side only where the job's accepts: how many
            // machines accept the job is asked only when it fails.
            if !job_accepts(self.columns, self.prefilter, self.job, mi, m, ev) {
                continue;
            }
            s.job_accepts += 1;
            if !m.accepts(self.job, ev) {
                continue;
            }
            s.compatible += 1;
            s.compatible_free += self.free.get(mi).copied().unwrap_or(true) as usize;
            if !self.docking.vector_into(ev, self.job, m, &mut scratch) {
                continue;
            }
            s.rankable += 1;
            if self.keep == Some(1) {
                // The best only (a job's own survey): a vector is kept, and
                // allocated, only when it beats the best so far.
                let beats = s.ranked.first().is_none_or(|b| {
                    vector_cmp(&scratch, &b.1).then(b.0.cmp(&mi)) == Ordering::Greater
                });
                if beats {
                    s.ranked.clear();
                    s.ranked.push((mi, std::mem::take(&mut scratch)));
                }
                continue;
            }
            s.ranked.push((mi, std::mem::take(&mut scratch)));
            // Bounded: keep the best `keep` as we go (amortized).
            if let Some(k) = self.keep {
                if s.ranked.len() >= 2 * k + 64 {
                    s.ranked.select_nth_unstable_by(k - 1, better);
                    s.ranked.truncate(k);
                }
            }
        }
        s
    }
}

impl SurveyCtx<'_, '_> {
    /// Survey `among`: count the compatible machines (all, and the free
    /// ones) and rank the free ones (`rank_taken`: the taken ones too),
    /// keeping the best `keep` (all when `None`).
    pub fn survey(
        &mut self,
        job: &CompiledAd,
        among: Among<'_>,
        free: &[bool],
        rank_taken: bool,
        keep: Option<usize>,
    ) -> Survey {
        let docking = Docking::new(job, self.docking_vector, self.opts);
        let prefilter = self.columns.prefilter(job);
        let rejects_all = self.rejects_all;
        let todo = among.select(self.machines.len(), |mi| {
            !rejects_all[mi] && (rank_taken || free.get(mi).copied().unwrap_or(true))
        });
        *self.evals += todo.len() as u64;
        let keep = keep.map(|k| k.max(1));
        let pass = Pass {
            job,
            machines: self.machines,
            columns: self.columns,
            prefilter: &prefilter,
            docking: &docking,
            free,
            keep,
        };
        let mut s = run_split(&pass, &todo, self.ev, self.helper, keep);
        s.counted_taken = rank_taken;
        s
    }

    /// Walk the whole pool for `job` in the order of table `id`'s bounds
    /// ([`best_first`]'s pool walk), evaluating at most `budget` machines.
    pub fn best_in_pool(
        &mut self,
        job: &CompiledAd,
        docking: &Docking,
        tables: &mut RankTables,
        id: TableId,
        budget: usize,
        class: Option<u64>,
    ) -> PoolWalk {
        let prefilter = self.columns.prefilter(job);
        let (columns, machines) = (&*self.columns, self.machines);
        let compat =
            |mi, ev: &mut Evaluator| compatible(columns, &prefilter, job, machines, mi, ev);
        let w = tables.walk_pool(id, budget, job, docking, machines, self.ev, compat, class);
        *self.evals += w.evaluated as u64;
        match w.best {
            Some(best) => PoolWalk::Best(best),
            None if w.gave_up => PoolWalk::GaveUp,
            None => PoolWalk::NoneFree {
                compatible: w.compatible,
            },
        }
    }

    /// The survey that explains why `job` got no machine, after a walk
    /// found `seen` compatible machines among the free ones any job may
    /// rank: the rest, those no job ranks (`table`'s `never`), are counted
    /// among the job's free candidates `among`.
    pub fn failure_after_walk(
        &mut self,
        job: &CompiledAd,
        table: &RankTable,
        among: Among<'_>,
        free: &[bool],
        seen: usize,
    ) -> Survey {
        let more = self.count_compatible(
            job,
            among,
            |mi| free.get(mi).copied().unwrap_or(true) && table.is_never(mi),
            usize::MAX,
        );
        Survey {
            compatible: seen + more,
            compatible_free: seen + more,
            ..Survey::default()
        }
    }

    /// The best free machine among `among` for `job`, walking them in the
    /// order of `table`'s bounds ([`best_first`]): the pick a survey
    /// makes, without counting the compatible machines. When there is
    /// none, the survey of the free machines that explains why (the walk
    /// evaluated every machine but those no job ranks, which are counted
    /// then).
    pub fn best_first(
        &mut self,
        job: &CompiledAd,
        docking: &Docking,
        table: &RankTable,
        among: Among<'_>,
        free: &[bool],
    ) -> Result<(usize, Vec<Value>), Survey> {
        let rejects_all = self.rejects_all;
        let todo = among.select(self.machines.len(), |mi| {
            !rejects_all[mi] && free.get(mi).copied().unwrap_or(true)
        });
        let prefilter = self.columns.prefilter(job);
        let (columns, machines) = (&*self.columns, self.machines);
        let compat =
            |mi, ev: &mut Evaluator| compatible(columns, &prefilter, job, machines, mi, ev);
        let w = best_first::walk(table, &todo, job, docking, machines, self.ev, compat);
        *self.evals += w.evaluated as u64;
        match w.best {
            Some(best) => Ok(best),
            None => Err(self.failure_after_walk(job, table, among, free, w.compatible)),
        }
    }

    /// Add to `s` (a survey of the free machines among `among`) the
    /// machines taken this cycle that are compatible: all of them when
    /// `count`, else only whether there is one (`s.taken_found_only` says
    /// which) — a cycle too big to count every candidate need not count
    /// every taken machine of every job left without one either.
    pub fn count_taken(
        &mut self,
        job: &CompiledAd,
        among: Among<'_>,
        free: &[bool],
        s: &mut Survey,
        count: bool,
    ) {
        if s.counted_taken {
            return;
        }
        s.counted_taken = true;
        let taken = |mi: usize| !free.get(mi).copied().unwrap_or(true);
        let up_to = if count { usize::MAX } else { 1 };
        s.compatible += self.count_compatible(job, among, taken, up_to);
        s.taken_found_only = !count;
    }

    /// How many of the machines among `among` that `wanted` keeps (and
    /// that accept some ad) are compatible with `job`, counting up to
    /// `up_to` (the search ends there: 1 asks whether there is one).
    fn count_compatible(
        &mut self,
        job: &CompiledAd,
        among: Among<'_>,
        wanted: impl Fn(usize) -> bool,
        up_to: usize,
    ) -> usize {
        let rejects_all = self.rejects_all;
        let todo = among.select(self.machines.len(), |mi| !rejects_all[mi] && wanted(mi));
        let prefilter = self.columns.prefilter(job);
        let (columns, machines, ev) = (&*self.columns, self.machines, &mut *self.ev);
        let mut found = 0;
        for mi in todo {
            if found == up_to {
                break;
            }
            *self.evals += 1;
            found += compatible(columns, &prefilter, job, machines, mi, ev) as usize;
        }
        found
    }

    /// How many machines of the whole pool the job's requirements accept.
    pub fn count_job_accepts(&mut self, job: &CompiledAd) -> usize {
        let prefilter = self.columns.prefilter(job);
        *self.evals += self.machines.len() as u64;
        let columns = &*self.columns;
        let ev = &mut *self.ev;
        self.machines
            .iter()
            .enumerate()
            .filter(|&(mi, m)| job_accepts(columns, &prefilter, job, mi, m, ev))
            .count()
    }
}

/// Run `pass` over `todo`: natively in two halves at once when the list
/// is long, else in one go.
#[cfg(not(target_arch = "wasm32"))]
fn run_split(
    pass: &Pass<'_, '_>,
    todo: &[usize],
    ev: &mut Evaluator,
    helper: &mut Evaluator,
    keep: Option<usize>,
) -> Survey {
    if todo.len() < SPLIT_FROM {
        let mut s = pass.run(todo, ev);
        s.settle(keep);
        return s;
    }
    let (a, b) = todo.split_at(todo.len() / 2);
    let (x, y) = rayon::join(|| pass.run(a, ev), || pass.run(b, helper));
    x.merge(y, keep)
}

#[cfg(target_arch = "wasm32")]
fn run_split(
    pass: &Pass<'_, '_>,
    todo: &[usize],
    ev: &mut Evaluator,
    _helper: &mut Evaluator,
    keep: Option<usize>,
) -> Survey {
    let mut s = pass.run(todo, ev);
    s.settle(keep);
    s
}
