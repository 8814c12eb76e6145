//! `condor_q -analyze`'s run analysis summary, counted in better-analyze's
//! order: a machine the job rejects counts there only; of the rest, those
//! whose own requirements reject the job; of the rest, those busy with
//! someone else (claimed, or running for a `RemoteUser`); the rest are
//! willing.

use std::sync::Arc;

use fixedbitset::FixedBitSet;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use super::groups::Groups;
use crate::ast::ClassAd;
use crate::eval::{EvalOptions, Evaluator};
use crate::matching::{accepts, DEFAULT_REQUIREMENTS};
use crate::value::Value;

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Summary {
    pub rejected_by_job: u64,
    pub reject_job: u64,
    pub match_but_busy: u64,
    #[serde(rename = "match")]
    pub matched: u64,
}

/// The same summary in physical machines (distinct `Machine` values): a
/// machine counts in a row when at least one of its slots does.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct MachineCounts {
    pub machines: u64,
    pub rejected_by_job: u64,
    pub reject_job: u64,
    pub match_but_busy: u64,
    #[serde(rename = "match")]
    pub matched: u64,
}

/// Returns the summary, the per-machine counts when slots name their
/// machine, and the machines the job accepts that reject the job.
pub fn summarize(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    groups: &Groups,
    accepted: &FixedBitSet,
    opts: EvalOptions,
) -> (Summary, Option<MachineCounts>, Vec<usize>) {
    let mut ev = Evaluator::new(opts);
    let job_compiled = compiled.map(|c| c.job(job, opts));
    let mut s = Summary::default();
    let mut rejects_job = vec![];
    // Category of each machine: 0 rejected by job, 1 rejects job, 2 busy, 3 willing.
    let mut category = Vec::with_capacity(machines.len());
    for (i, m) in machines.iter().enumerate() {
        let c = if !accepted.contains(groups.of[i] as usize) {
            s.rejected_by_job += 1;
            0
        } else {
            // Machines' own policies read their own dynamic attributes
            // (LoadAvg, KeyboardIdle): nearly every one differs, so each
            // is evaluated rather than fingerprinted.
            let ok = match (compiled, &job_compiled) {
                (Some(c), Some(j)) => c.machines[i].accepts(j, &mut ev),
                _ => accepts(&mut ev, m, job, DEFAULT_REQUIREMENTS),
            };
            if !ok {
                s.reject_job += 1;
                rejects_job.push(i);
                1
            } else if busy(m, job, &mut ev) {
                s.match_but_busy += 1;
                2
            } else {
                s.matched += 1;
                3
            }
        };
        category.push(c);
    }
    (s, by_machine(machines, &category), rejects_job)
}

/// Claimed, or running a job for someone (`RemoteUser` defined).
fn busy(m: &Arc<ClassAd>, job: &Arc<ClassAd>, ev: &mut Evaluator) -> bool {
    let state = super::table::machine_value(m, job, "State", ev);
    if matches!(&state, Value::Str(s) if s.eq_ignore_ascii_case("Claimed")) {
        return true;
    }
    m.position("RemoteUser").is_some()
        && !super::table::machine_value(m, job, "RemoteUser", ev).is_undefined()
}

fn by_machine(machines: &[Arc<ClassAd>], category: &[u8]) -> Option<MachineCounts> {
    let key = crate::ast::Name::new("Machine");
    // Host names as HTCondor advertises them (exact text); a slot without
    // one is a machine of its own.
    let name = |m: &ClassAd| -> Option<Arc<str>> {
        match m.at(m.position_name(&key)?).1.as_literal()? {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    };
    if !machines.iter().any(|m| name(m).is_some()) {
        return None;
    }
    let mut ids: FxHashMap<Arc<str>, u32> = FxHashMap::default();
    let mut sets: [FxHashSet<u32>; 5] = Default::default();
    for (i, m) in machines.iter().enumerate() {
        let next = ids.len() as u32;
        let n = match name(m) {
            Some(s) => *ids.entry(s).or_insert(next),
            None => u32::MAX - i as u32,
        };
        sets[category[i] as usize + 1].insert(n);
        sets[0].insert(n);
    }
    // One slot per machine: the per-machine counts say nothing new.
    if sets[0].len() == machines.len() {
        return None;
    }
    let c = |i: usize| sets[i].len() as u64;
    Some(MachineCounts {
        machines: c(0),
        rejected_by_job: c(1),
        reject_job: c(2),
        match_but_busy: c(3),
        matched: c(4),
    })
}
