//! Whether a cycle's index pays, found out as the cycle runs.
//!
//! The ch. 4 index pays when jobs are selective and many (the thesis'
//! workload: 10,000 jobs that each accept a few percent of the pool) and
//! costs when they are not: a glidein pool's slots share one ≈1 KB START,
//! almost every job accepts almost every slot, and the walk in rank order
//! settles a job in a few evaluations, while the index must convert 8,600
//! STARTs before its first query. Neither the pair count nor the pools'
//! shapes tell the two apart beforehand, so the cycle measures:
//!
//! 1. it starts as the plain loop and, after a few jobs that pay for what
//!    the others reuse ([`WARM_UP_JOBS`]), times it (every
//!    [`SAMPLE_JOBS`] jobs, at least [`SAMPLE_SECONDS`]): at its pace so
//!    far, the plain loop's cost of the jobs left (jobs get dearer as the
//!    pool fills up, so it judges again and again);
//! 2. the first time it judges, it times the conversion of a sample of the
//!    machines' constraints: the index' cost;
//! 3. it builds the index once the jobs left would cost the plain loop
//!    more than twice that ([`BUILD_MARGIN`]) and the loop has spent half
//!    of it already ([`SPENT_BEFORE_BUILD`]);
//! 4. before building, an index over a sample of the machines is asked for
//!    the next jobs: if it keeps half the sample or more ([`NARROWS_BELOW`];
//!    jobs that accept nearly every machine) the index is not built; once
//!    built, if its first lists hold most of the pool it is dropped.
//!
//! The assignment is the same whichever way a job is surveyed (the index
//! gives a superset of the compatible machines, confirmed by evaluation),
//! so only the time depends on the clock. Without a clock (wasm before the
//! page sets one), the pair count decides, as before
//! ([`INDEX_FROM_PAIRS`](super::negotiation::INDEX_FROM_PAIRS)).

use std::sync::Arc;

use serde::Serialize;

use crate::lang::ast::ClassAd;
use crate::lang::clock;
use crate::matchmaking::negotiate::{CandidateSource, NegotiationConfig};

use super::negotiation::{IndexedMachines, INDEX_FROM_PAIRS};
use super::rectangle::rectangles;
use super::Index;

/// Jobs the plain loop (and then the index) is timed over before deciding.
pub const SAMPLE_JOBS: usize = 16;
/// Jobs run before the timing starts.
pub const WARM_UP_JOBS: usize = 16;
/// …and at least this long, so that a coarse clock still measures.
pub const SAMPLE_SECONDS: f64 = 0.005;
/// The index is built when the jobs left would cost the plain loop more
/// than this many times the estimated build (its queries cost too).
pub const BUILD_MARGIN: f64 = 2.0;
/// …and once the plain loop has spent at least this share of the build:
/// a useless index then costs the cycle at most that many times what it
/// spent without one (a few costly jobs in a row do not build it).
pub const SPENT_BEFORE_BUILD: f64 = 0.5;
/// An index that keeps this share of a sample of the machines for the
/// next jobs is not built (the lists would hold most of the pool).
pub const NARROWS_BELOW: f64 = 0.5;
/// Most machines whose constraints are converted to estimate the build.
const SAMPLE_MACHINES: usize = 256;
/// Building costs more than converting the constraints (the machines'
/// own values, the interval trees): by about this factor, measured on the
/// thesis' workload and on glidein pools.
const BUILD_OVER_CONVERSION: f64 = 1.5;

/// What the cycle found and did, for `--stats` and the page.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IndexDecision {
    /// The plain loop's time a job over the first jobs (ms).
    pub plain_ms_per_job: Option<f64>,
    /// The estimated build of the index (ms).
    pub build_estimate_ms: Option<f64>,
    /// Built before this job (0: from the start).
    pub built_before_job: Option<usize>,
    /// How long the build took (ms).
    pub build_ms: Option<f64>,
    /// The index' lists' mean length, over its first lists.
    pub mean_candidates: Option<f64>,
    /// Dropped before this job: its lists held most of the pool.
    pub dropped_before_job: Option<usize>,
    /// The decision in words.
    pub note: String,
}

enum Phase<'a> {
    /// The plain loop, timed since `since` (job `from`, after the warm-up).
    Timing { since: Option<f64>, from: usize },
    /// The index; its lists' lengths summed until judged.
    Indexed {
        source: Box<IndexedMachines<'a>>,
        lists: usize,
        entries: usize,
    },
    /// Decided: the plain loop from here on.
    Plain,
}

/// Lists of the index looked at before judging whether it narrows.
const JUDGED_LISTS: usize = 16;

/// Candidates from the plain loop or the index, whichever the cycle's own
/// timings say pays (see the module's comment).
pub struct AdaptiveMachines<'a> {
    jobs: &'a [Arc<ClassAd>],
    machines: &'a [Arc<ClassAd>],
    cfg: &'a NegotiationConfig,
    order: Vec<usize>,
    phase: Phase<'a>,
    /// The build's estimate (seconds), made the first time it is needed.
    build_estimate: Option<Option<f64>>,
    /// When the cycle began (its first job).
    started: f64,
    /// The job of the order the cycle is at.
    done: usize,
    /// The share of a sample of machines a sample index keeps, once asked.
    sample_share: Option<f64>,
    /// The dearest judgment: before which job, the plain cost of the jobs
    /// left then (s).
    dearest: Option<(usize, f64)>,
    decision: IndexDecision,
}

impl<'a> AdaptiveMachines<'a> {
    pub fn new(
        jobs: &'a [Arc<ClassAd>],
        machines: &'a [Arc<ClassAd>],
        cfg: &'a NegotiationConfig,
    ) -> Self {
        AdaptiveMachines {
            jobs,
            machines,
            cfg,
            order: vec![],
            phase: Phase::Timing {
                since: None,
                from: 0,
            },
            build_estimate: None,
            started: clock::now().unwrap_or(0.0),
            done: 0,
            sample_share: None,
            dearest: None,
            decision: IndexDecision::default(),
        }
    }

    /// What was decided (once the cycle is over).
    pub fn decision(&self) -> IndexDecision {
        let mut d = self.decision.clone();
        if d.note.is_empty() {
            d.note = match (self.dearest, self.build_estimate.flatten()) {
                (Some((done, cost)), Some(b)) => format!(
                    "not built: timed as it ran, the jobs left would cost the plain loop at most \
                     {:.0} ms (before job {done}), never {BUILD_MARGIN} × the {:.0} ms building the \
                     index would take",
                    cost * 1e3,
                    b * 1e3
                ),
                _ => "not built: the cycle was over before it could be timed".into(),
            };
        }
        d
    }

    /// The conversion of a spread sample of the machines' constraints,
    /// timed and scaled to the whole pool (seconds).
    fn estimate_build(&self) -> Option<f64> {
        let start = clock::now()?;
        let n = self.machines.len();
        let step = (n / SAMPLE_MACHINES).max(1);
        let mut converted = 0usize;
        let mut elapsed = 0.0;
        for m in self.machines.iter().step_by(step) {
            std::hint::black_box(rectangles(m, self.cfg.opts));
            converted += 1;
            elapsed = clock::now()? - start;
            if converted >= SAMPLE_MACHINES && elapsed >= SAMPLE_SECONDS {
                break;
            }
        }
        Some(elapsed / converted.max(1) as f64 * n as f64 * BUILD_OVER_CONVERSION)
    }

    /// The share of a sample of the machines an index over them keeps
    /// for the next jobs of the cycle (1: it narrows nothing).
    fn sample_share(&self, done: usize) -> f64 {
        let step = (self.machines.len() / SAMPLE_MACHINES).max(1);
        let sample: Vec<Arc<ClassAd>> = self
            .machines
            .iter()
            .step_by(step)
            .take(SAMPLE_MACHINES)
            .cloned()
            .collect();
        let next: Vec<Arc<ClassAd>> = self
            .order
            .iter()
            .skip(done)
            .take(SAMPLE_JOBS)
            .filter_map(|&j| self.jobs.get(j).cloned())
            .collect();
        if sample.is_empty() || next.is_empty() {
            return 1.0;
        }
        let index = Index::build_for(&sample, &next, self.cfg.opts);
        let kept: usize = next.iter().map(|j| index.query(j).len()).sum();
        kept as f64 / (next.len() * sample.len()) as f64
    }

    fn build(&mut self, done: usize) {
        let t0 = clock::now();
        let mut source = Box::new(IndexedMachines::build(self.jobs, self.machines, self.cfg));
        if let Some(rest) = self.order.get(done..) {
            source.prefetch(rest);
        }
        self.decision.built_before_job = Some(done);
        self.decision.build_ms = t0.zip(clock::now()).map(|(a, b)| (b - a) * 1e3);
        self.phase = Phase::Indexed {
            source,
            lists: 0,
            entries: 0,
        };
    }

    /// At job `done`, the plain loop's window since `since` (job `from`)
    /// over: build the index if the jobs left would pay for it.
    fn judge_window(&mut self, done: usize, since: f64, from: usize, now: f64) {
        let total = self.order.len();
        let per_job = (now - since) / (done - from) as f64;
        let left = total - done;
        let cost = left as f64 * per_job;
        if self.build_estimate.is_none() {
            self.build_estimate = Some(self.estimate_build());
        }
        let build = self.build_estimate.flatten();
        if self.dearest.is_none_or(|(_, most)| cost > most) {
            self.dearest = Some((done, cost));
        }
        self.decision.plain_ms_per_job = Some(per_job * 1e3);
        self.decision.build_estimate_ms = build.map(|b| b * 1e3);
        let pays = |b: f64| cost > BUILD_MARGIN * b && now - self.started >= SPENT_BEFORE_BUILD * b;
        if build.is_some_and(pays) && self.sample_share.is_none() {
            self.sample_share = Some(self.sample_share(done));
        }
        let share = self.sample_share.unwrap_or(0.0);
        if build.is_some_and(pays) && share >= NARROWS_BELOW {
            self.decision.note = format!(
                "not built: an index over a sample of the machines keeps {:.0} % of them for the next jobs \
                 (it narrows nothing worth its {:.0} ms)",
                share * 100.0,
                build.unwrap_or(0.0) * 1e3
            );
            self.phase = Phase::Plain;
            return;
        }
        match build {
            Some(b) if pays(b) => {
                self.decision.note = format!(
                    "built before job {done}: timed as it ran, the {left} jobs left would \
                     cost the plain loop {:.0} ms, building the index about {:.0} ms",
                    cost * 1e3,
                    b * 1e3
                );
                self.build(done);
            }
            // Timed on from the same start: one costly job weighs less
            // the more jobs there are behind it.
            Some(_) => {}
            None => self.phase = Phase::Plain,
        }
    }

    /// No clock to time with: the pair count decides.
    fn decide_by_pairs(&mut self) {
        let pairs = self.jobs.len() as u64 * self.machines.len() as u64;
        if pairs >= INDEX_FROM_PAIRS {
            self.decision.note = format!(
                "built: no clock to time with, and {pairs} job × machine pairs, at least {INDEX_FROM_PAIRS}"
            );
            self.build(0);
        } else {
            self.decision.note = format!("not built: no clock to time with, and {pairs} pairs");
            self.phase = Phase::Plain;
        }
    }
}

impl CandidateSource for AdaptiveMachines<'_> {
    fn candidates(&mut self, job: usize) -> Option<Vec<usize>> {
        let Phase::Indexed {
            source,
            lists,
            entries,
        } = &mut self.phase
        else {
            return None;
        };
        let list = source.candidates(job)?;
        if *lists < JUDGED_LISTS {
            *lists += 1;
            *entries += list.len();
            if *lists == JUDGED_LISTS {
                let mean = *entries as f64 / *lists as f64;
                self.decision.mean_candidates = Some(mean);
                if mean * 2.0 > self.machines.len() as f64 {
                    self.decision.note.push_str(&format!(
                        "; dropped: its lists held {mean:.0} of the {} machines on average",
                        self.machines.len()
                    ));
                    self.decision.dropped_before_job = Some(self.done);
                    self.phase = Phase::Plain;
                }
            }
        }
        Some(list)
    }

    fn prefetch(&mut self, order: &[usize]) {
        self.order = order.to_vec();
    }

    fn runs_ahead(&self) -> bool {
        match &self.phase {
            Phase::Indexed { source, .. } => source.runs_ahead(),
            _ => false,
        }
    }

    fn before_job(&mut self, done: usize) {
        self.done = done;
        let Phase::Timing { since, from } = self.phase else {
            return;
        };
        // The first jobs pay for what the rest reuse (machines' definitions
        // parsed, rank tables built): timed after them.
        if done < WARM_UP_JOBS.min(self.order.len() / 2) {
            return;
        }
        let Some(now) = clock::now() else {
            self.decide_by_pairs();
            return;
        };
        match since {
            None => {
                self.phase = Phase::Timing {
                    since: Some(now),
                    from: done,
                }
            }
            Some(s) if done - from >= SAMPLE_JOBS && now - s >= SAMPLE_SECONDS => {
                if done % SAMPLE_JOBS == 0 {
                    self.judge_window(done, s, from, now)
                }
            }
            Some(_) => {}
        }
    }
}
