//! A finished negotiation cycle, as shown: the negotiation view keeps it,
//! the classroom steps through it.

use std::rc::Rc;

use classad::api::Mode;

use crate::bridge::session_client::PoolInfo;

/// A finished cycle, as shown.
pub struct Shown {
    pub cycle: classad::api::session::CycleView,
    /// The pools (for their labels: a job is named as the matrix names it).
    pub jobs: Rc<PoolInfo>,
    pub machines: Rc<PoolInfo>,
    pub ms: f64,
    pub autocluster: bool,
    /// Run by HTCondor's rules: the job's Rank is the vector's second
    /// component (after NEGOTIATOR_PRE_JOB_RANK), not its first.
    pub htcondor: bool,
    /// How many jobs, from the cycle's start, carry their candidates (the
    /// classroom steps through these).
    pub detailed: usize,
    /// What it was run on (pools, mode, clock), to tell a stale result.
    pub(super) key: Key,
    /// The clock it ran at (a count asked for later uses the same).
    pub(super) now: (f64, i32),
}

pub(super) type Key = (usize, usize, Mode, Option<String>);

/// The same result (results are shared, never compared by content).
impl PartialEq for Shown {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self, o)
    }
}

impl Shown {
    pub fn machine_label(&self, m: usize) -> String {
        self.machines
            .labels
            .get(m)
            .cloned()
            .unwrap_or_else(|| (m + 1).to_string())
    }
    /// The job's label in its pool (its Name, else ClusterId.ProcId, …).
    pub fn job_label(&self, o: &classad::api::session::CycleOutcome) -> String {
        self.jobs
            .labels
            .get(o.job)
            .cloned()
            .unwrap_or_else(|| o.job_id.clone())
    }
}
