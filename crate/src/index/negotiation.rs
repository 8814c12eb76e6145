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

/// Candidates from an index over the machines.
pub struct IndexedMachines<'a> {
    index: Index,
    jobs: &'a [Arc<ClassAd>],
}

impl<'a> IndexedMachines<'a> {
    pub fn build(
        jobs: &'a [Arc<ClassAd>],
        machines: &[Arc<ClassAd>],
        cfg: &NegotiationConfig,
    ) -> Self {
        IndexedMachines {
            index: Index::build_for(machines, jobs, cfg.opts),
            jobs,
        }
    }
}

impl CandidateSource for IndexedMachines<'_> {
    fn candidates(&mut self, job: usize) -> Option<Vec<usize>> {
        self.jobs.get(job).map(|j| self.index.query(j))
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
