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

use super::Index;

/// Below this many job × machine pairs the index does not pay for itself
/// (building it costs about what surveying a few hundred jobs does).
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

/// Whether a cycle can use the index: big enough to pay, and matching as
/// the index reads constraints (the default attribute names, no functions
/// supplied with the pool — a call the index cannot see into).
pub fn index_pays(jobs: usize, machines: usize, cfg: &NegotiationConfig) -> bool {
    let names_match = cfg.requirements.len() == DEFAULT_REQUIREMENTS.len()
        && cfg
            .requirements
            .iter()
            .zip(DEFAULT_REQUIREMENTS)
            .all(|(a, b)| a == b);
    jobs as u64 * machines as u64 >= INDEX_FROM_PAIRS && names_match && cfg.functions.is_none()
}

/// One negotiation cycle, with the index when it pays ([`index_pays`]).
pub fn negotiate_indexed(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    cfg: &NegotiationConfig,
    progress: impl FnMut(usize, usize) -> bool,
) -> CycleResult {
    if !index_pays(jobs.len(), machines.len(), cfg) {
        return negotiate(jobs, machines, cfg, progress);
    }
    let mut source = IndexedMachines::build(jobs, machines, cfg);
    negotiate_with(jobs, machines, cfg, &mut source, progress)
}
