//! Negotiation policies: whose rules decide which job gets which machine.
//!
//! The cycle itself (`matchmaking::negotiate`) is the thesis' (§3.2.4):
//! jobs in root order, each given the compatible machine with the best
//! docking vector. A policy supplies the root order, the docking vector
//! and what the negotiator adds to the ads before matching:
//!
//! - [`Policy::Thesis`]: Figure 9's vector, as the seed lessons teach it
//!   (`CONDOR_DOCKING_VECTOR`), reading `RemoteUserPrio` and `UserPrio`
//!   from the ads themselves;
//! - [`Policy::HTCondor`]: HTCondor 25's negotiator with its default
//!   configuration ([`htcondor`]): submitters in order of user priority
//!   (a [`userprio::PriorityTable`] pasted as `condor_userprio -allusers`
//!   prints it), `NEGOTIATOR_PRE_JOB_RANK`, the job's `Rank`,
//!   `NEGOTIATOR_POST_JOB_RANK`, rank and priority preemption and
//!   `PREEMPTION_RANK`, with `RemoteUserPrio` and `SubmitterUserPrio`
//!   supplied from the priority table as the negotiator does.

pub mod htcondor;
pub mod rules;
pub mod sides;
pub mod userprio;

pub use htcondor::{HTCondorPolicy, Knobs};
pub use userprio::PriorityTable;

/// Which rules a cycle follows.
#[derive(Clone, Debug)]
pub enum Policy {
    Thesis,
    HTCondor(Box<HTCondorPolicy>),
}
