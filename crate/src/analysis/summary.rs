//! `condor_q -analyze`'s run analysis summary, counted in better-analyze's
//! order: a machine the job rejects counts there only; of the rest, those
//! whose own requirements reject the job; of the rest, those busy with
//! someone else (claimed, or running for a `RemoteUser`); the rest are
//! willing.

use std::sync::Arc;

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::groups::Groups;
use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;
use crate::matchmaking::matching::{accepts, DEFAULT_REQUIREMENTS};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub rejected_by_job: u64,
    pub reject_job: u64,
    pub match_but_busy: u64,
    #[serde(rename = "match")]
    pub matched: u64,
}

/// The same summary in physical machines (distinct `Machine` values): a
/// machine counts in a row when at least one of its slots does.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
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
    let (s, m, rejects, _) = summarize_busy(job, machines, compiled, groups, accepted, opts);
    (s, m, rejects)
}

/// [`summarize`], and the machines that match both ways but are busy.
pub fn summarize_busy(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    groups: &Groups,
    accepted: &FixedBitSet,
    opts: EvalOptions,
) -> (Summary, Option<MachineCounts>, Vec<usize>, Vec<usize>) {
    let mut ev = Evaluator::new(opts);
    let job_compiled = compiled.map(|c| c.job(job, opts));
    let mut s = Summary::default();
    let mut rejects_job = vec![];
    let mut busy_slots = vec![];
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
                busy_slots.push(i);
                2
            } else {
                s.matched += 1;
                3
            }
        };
        category.push(c);
    }
    (s, by_machine(machines, &category), rejects_job, busy_slots)
}

/// Claimed, or running a job for someone (`RemoteUser` defined).
pub(super) fn busy(m: &Arc<ClassAd>, job: &Arc<ClassAd>, ev: &mut Evaluator) -> bool {
    let state = super::table::machine_value(m, job, "State", ev);
    if matches!(&state, Value::Str(s) if s.eq_ignore_ascii_case("Claimed")) {
        return true;
    }
    m.position("RemoteUser").is_some()
        && !super::table::machine_value(m, job, "RemoteUser", ev).is_undefined()
}

fn by_machine<'a>(machines: &'a [Arc<ClassAd>], category: &[u8]) -> Option<MachineCounts> {
    let key = crate::lang::ast::Name::new("Machine");
    let mut guess = u32::MAX;
    // Host names as HTCondor advertises them (exact text); a slot without
    // one is a machine of its own (so is every slot when none has one).
    let mut name = |m: &'a ClassAd| -> Option<&'a str> {
        let p = super::group_values::find(m, &key, &mut guess)?;
        match m.at(p).1.as_literal()? {
            Value::Str(s) => Some(s),
            _ => None,
        }
    };
    // Dense ids (a slot without a name gets one of its own); per id, the
    // categories its slots fall in, as bits.
    let mut ids: FxHashMap<&str, u32> =
        FxHashMap::with_capacity_and_hasher(machines.len(), Default::default());
    let mut seen: Vec<u8> = Vec::with_capacity(machines.len());
    for (i, m) in machines.iter().enumerate() {
        let id = match name(m) {
            Some(s) => {
                let next = seen.len() as u32;
                *ids.entry(s).or_insert(next)
            }
            None => seen.len() as u32,
        } as usize;
        if id == seen.len() {
            seen.push(0);
        }
        seen[id] |= 1 << category[i];
    }
    // One slot per machine: the per-machine counts say nothing new.
    if seen.len() == machines.len() {
        return None;
    }
    let count = |c: u8| seen.iter().filter(|&&b| b >> c & 1 == 1).count() as u64;
    Some(MachineCounts {
        machines: seen.len() as u64,
        rejected_by_job: count(0),
        reject_job: count(1),
        match_but_busy: count(2),
        matched: count(3),
    })
}
