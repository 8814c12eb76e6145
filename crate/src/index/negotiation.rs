//! The ch. 4 index applied to bilateral matching: a negotiation cycle
//! surveys, for each job, only the machines the index returns — a superset
//! of the compatible ones, confirmed by evaluation as before — instead of
//! the whole pool. The assignment is the same; the pair evaluations fall
//! with the index' selectivity.

use std::sync::Arc;

use crate::lang::ast::ClassAd;
use crate::matchmaking::matching::DEFAULT_REQUIREMENTS;
use crate::matchmaking::negotiate::{
    negotiate, negotiate_with, CandidateSource, CycleResult, NegotiationConfig,
};

use super::adaptive::{AdaptiveMachines, IndexDecision};
use super::Index;

/// Without a clock to measure with ([`AdaptiveMachines`]), the index is
/// used from this many job × machine pairs.
pub const INDEX_FROM_PAIRS: u64 = 250_000;

/// Lists a cycle's queries may run ahead of its surveys (held meanwhile).
#[cfg(not(target_arch = "wasm32"))]
const AHEAD: usize = 64;

/// Candidates from an index over the machines.
pub struct IndexedMachines<'a> {
    index: Arc<Index>,
    jobs: &'a [Arc<ClassAd>],
    /// Natively, the lists of the jobs in the cycle's order, worked out
    /// ahead by a thread of their own ([`CandidateSource::prefetch`]).
    #[cfg(not(target_arch = "wasm32"))]
    ahead: Option<std::sync::mpsc::Receiver<(usize, Vec<usize>)>>,
}

impl<'a> IndexedMachines<'a> {
    pub fn build(
        jobs: &'a [Arc<ClassAd>],
        machines: &[Arc<ClassAd>],
        cfg: &NegotiationConfig,
    ) -> Self {
        IndexedMachines {
            index: Arc::new(Index::build_for(machines, jobs, cfg.opts)),
            jobs,
            #[cfg(not(target_arch = "wasm32"))]
            ahead: None,
        }
    }
}

impl CandidateSource for IndexedMachines<'_> {
    fn candidates(&mut self, job: usize) -> Option<Vec<usize>> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(rx) = &self.ahead {
            // Jobs the cycle settled without asking are passed over.
            loop {
                match rx.recv() {
                    Ok((j, list)) if j == job => return Some(list),
                    Ok(_) => continue,
                    // Asked out of the order told: on without the thread.
                    Err(_) => {
                        self.ahead = None;
                        break;
                    }
                }
            }
        }
        self.jobs.get(job).map(|j| self.index.query(j))
    }

    fn runs_ahead(&self) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        return self.ahead.is_some();
        #[cfg(target_arch = "wasm32")]
        false
    }

    /// Natively, a thread runs the queries in the cycle's order while the
    /// cycle surveys (the index does not change during a cycle, so a query
    /// need not wait for its job's turn): the other core's work. It stops
    /// when the cycle drops the lists' receiver (at its end, or cancelled).
    #[cfg(not(target_arch = "wasm32"))]
    fn prefetch(&mut self, order: &[usize]) {
        let jobs: Vec<(usize, Arc<ClassAd>)> = order
            .iter()
            .filter_map(|&j| self.jobs.get(j).map(|ad| (j, ad.clone())))
            .collect();
        let (tx, rx) = std::sync::mpsc::sync_channel(AHEAD);
        let index = self.index.clone();
        let spawned = std::thread::Builder::new()
            .name("index-queries".into())
            .spawn(move || {
                for (j, ad) in jobs {
                    if tx.send((j, index.query(&ad))).is_err() {
                        break;
                    }
                }
            });
        // No thread (the system refused one): every query in its turn.
        self.ahead = spawned.is_ok().then_some(rx);
    }
}

/// Whether a cycle can use the index at all: matching as the index reads
/// constraints (the default attribute names, no functions supplied with
/// the pool — a call the index cannot see into).
pub fn index_usable(cfg: &NegotiationConfig) -> bool {
    let names_match = cfg.requirements.len() == DEFAULT_REQUIREMENTS.len()
        && cfg
            .requirements
            .iter()
            .zip(DEFAULT_REQUIREMENTS)
            .all(|(a, b)| a == b);
    names_match && cfg.functions.is_none()
}

/// Whether a cycle the index can serve is big enough for it to pay.
pub fn index_pays(jobs: usize, machines: usize, cfg: &NegotiationConfig) -> bool {
    index_usable(cfg) && jobs as u64 * machines as u64 >= INDEX_FROM_PAIRS
}

/// Whether a cycle surveys the index' candidates or the whole pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IndexUse {
    /// When the cycle's own timings say it pays ([`AdaptiveMachines`]).
    #[default]
    Auto,
    /// Whenever the cycle can use it, from the start.
    Always,
    /// The plain loop.
    Never,
}

/// One negotiation cycle, with the index when it pays.
pub fn negotiate_indexed(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    cfg: &NegotiationConfig,
    progress: impl FnMut(usize, usize) -> bool,
) -> CycleResult {
    negotiate_choosing(jobs, machines, cfg, IndexUse::Auto, progress).0
}

/// One negotiation cycle, with the index as `use_index` says, and what was
/// decided about it (`None`: the index was not considered).
pub fn negotiate_choosing(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    cfg: &NegotiationConfig,
    use_index: IndexUse,
    progress: impl FnMut(usize, usize) -> bool,
) -> (CycleResult, Option<IndexDecision>) {
    if !index_usable(cfg) || use_index == IndexUse::Never || jobs.is_empty() {
        return (negotiate(jobs, machines, cfg, progress), None);
    }
    if use_index == IndexUse::Always {
        let mut source = IndexedMachines::build(jobs, machines, cfg);
        return (
            negotiate_with(jobs, machines, cfg, &mut source, progress),
            None,
        );
    }
    let mut source = AdaptiveMachines::new(jobs, machines, cfg);
    let cycle = negotiate_with(jobs, machines, cfg, &mut source, progress);
    (cycle, Some(source.decision().clone()))
}
