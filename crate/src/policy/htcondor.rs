//! HTCondor 25's negotiator as a policy (src/condor_negotiator.V6/
//! matchmaker.cpp, `Matchmaker::matchmakingAlgorithm` and `calculateRanks`;
//! defaults from src/condor_utils/param_info.in).
//!
//! What it follows:
//! - submitters in order of effective user priority (lower first), ties by
//!   name; each submitter's jobs in the schedd's order (`JobPrio` higher
//!   first, then `QDate`, `ClusterId`, `ProcId`);
//! - before matching, the negotiator writes `SubmitterUserPrio` (and
//!   `SubmittorPrio`, `SubmitterUserResourcesInUse`) into each job and
//!   `RemoteUserPrio` into each claimed slot (`addRemoteUserPrios`), from
//!   the priority table — no slot ad is expected to carry them; a slot with
//!   a `PreemptingRank` has it as its `CurrentRank`;
//! - a match's quality, compared lexicographically, more is better:
//!   `NEGOTIATOR_PRE_JOB_RANK`, the job's `Rank` (0 when not a number),
//!   `NEGOTIATOR_POST_JOB_RANK`, the preemption state (2 unclaimed, 1 rank
//!   preemption, 0 priority preemption) and `PREEMPTION_RANK` (only when
//!   preempting); the three knobs are evaluated with the slot as MY and
//!   the job as TARGET (see [`super::sides`]), and a knob that is not a
//!   number counts as the lowest number, as in `EvalNegotiatorMatchRank`;
//! - a claimed slot (its `PreemptingAccountingGroup`, `PreemptingUser`,
//!   `AccountingGroup` or `RemoteUser`) is taken by rank preemption when
//!   its `Rank` of the job is above its `CurrentRank` (`MY.Rank >
//!   MY.CurrentRank`), else by priority preemption when the running job's
//!   submitter is another, `PREEMPTION_REQUIREMENTS` holds and its `Rank`
//!   of the job is at least `CurrentRank`; otherwise not at all.
//!   `NEGOTIATOR_CONSIDER_PREEMPTION = false` leaves claimed slots out.
//!
//! Where it simplifies: one pass over the submitters, each taking as many
//! slots as it has jobs for — HTCondor's fair-share pie (submitter limits,
//! spins, group quotas, floors and ceilings) is not modelled; ranks are
//! compared as doubles where HTCondor rounds the three knobs to float;
//! partitionable slots are not split (each slot is matched whole), and
//! consumption policies, concurrency limits and `WantPslotPreemption`
//! are not looked at.

use std::sync::Arc;

use serde::Serialize;

use crate::lang::ast::{ClassAd, Expr, SharedNames};
use crate::lang::parser::parse_expr;
use crate::lang::value::Value;
use crate::matchmaking::negotiate::SortKey;

use super::sides::swap_sides;
use super::userprio::{PriorityTable, DEFAULT_PRIO_FACTOR};

/// The negotiator's configuration this policy reads, each with HTCondor
/// 25's default. `None`: not set (HTCondor's "None").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Knobs {
    pub negotiator_pre_job_rank: Option<String>,
    pub negotiator_post_job_rank: Option<String>,
    pub preemption_rank: Option<String>,
    pub preemption_requirements: Option<String>,
    pub negotiator_consider_preemption: bool,
    pub default_prio_factor: f64,
}

/// The knobs' names as HTCondor's configuration spells them.
pub const KNOB_NAMES: [&str; 6] = [
    "NEGOTIATOR_PRE_JOB_RANK",
    "NEGOTIATOR_POST_JOB_RANK",
    "PREEMPTION_RANK",
    "PREEMPTION_REQUIREMENTS",
    "NEGOTIATOR_CONSIDER_PREEMPTION",
    "DEFAULT_PRIO_FACTOR",
];

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            negotiator_pre_job_rank: Some(
                "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory"
                    .into(),
            ),
            negotiator_post_job_rank: Some(
                "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - 1.0e10*(Offline=?=True))"
                    .into(),
            ),
            preemption_rank: Some(
                "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)"
                    .into(),
            ),
            preemption_requirements: Some("False".into()),
            negotiator_consider_preemption: true,
            default_prio_factor: DEFAULT_PRIO_FACTOR,
        }
    }
}

impl Knobs {
    /// The expression knob named `key` (case-insensitive), if it is one.
    fn expression(&mut self, key: &str) -> Option<&mut Option<String>> {
        match key.to_ascii_uppercase().as_str() {
            "NEGOTIATOR_PRE_JOB_RANK" => Some(&mut self.negotiator_pre_job_rank),
            "NEGOTIATOR_POST_JOB_RANK" => Some(&mut self.negotiator_post_job_rank),
            "PREEMPTION_RANK" => Some(&mut self.preemption_rank),
            "PREEMPTION_REQUIREMENTS" => Some(&mut self.preemption_requirements),
            _ => None,
        }
    }

    /// Knob `key`'s value as configuration text ("" when unset or unknown).
    pub fn get(&self, key: &str) -> String {
        match key.to_ascii_uppercase().as_str() {
            "NEGOTIATOR_CONSIDER_PREEMPTION" => self.negotiator_consider_preemption.to_string(),
            "DEFAULT_PRIO_FACTOR" => self.default_prio_factor.to_string(),
            _ => self
                .clone()
                .expression(key)
                .and_then(|t| t.clone())
                .unwrap_or_default(),
        }
    }

    /// Set one knob from `KEY=VALUE` text (an empty value unsets it, as in
    /// HTCondor's configuration). `Ok(false)`: not one of [`KNOB_NAMES`].
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let value = value.trim();
        if let Some(slot) = self.expression(key) {
            if !value.is_empty() {
                parse_expr(value).map_err(|d| format!("{key}: {}", d.summary()))?;
            }
            *slot = (!value.is_empty()).then(|| value.to_string());
            return Ok(true);
        }
        match key.to_ascii_uppercase().as_str() {
            "NEGOTIATOR_CONSIDER_PREEMPTION" => {
                self.negotiator_consider_preemption = match value.to_ascii_lowercase().as_str() {
                    "true" | "1" | "yes" => true,
                    "false" | "0" | "no" => false,
                    _ => return Err(format!("{key}: `{value}` is not true or false")),
                }
            }
            "DEFAULT_PRIO_FACTOR" => {
                self.default_prio_factor = value
                    .parse::<f64>()
                    .ok()
                    .filter(|f| *f >= 1.0)
                    .ok_or_else(|| format!("{key}: `{value}` is not a number of at least 1"))?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The docking vector's components, in order, as the reasons name them.
pub const COMPONENTS: [&str; 5] = [
    "NEGOTIATOR_PRE_JOB_RANK",
    "the job's Rank",
    "NEGOTIATOR_POST_JOB_RANK",
    "the preemption state",
    "PREEMPTION_RANK",
];

/// Who holds a slot, as the negotiator looks it up.
pub const REMOTE_USER: &str = "(TARGET.PreemptingAccountingGroup ?: TARGET.PreemptingUser ?: \
     TARGET.AccountingGroup ?: TARGET.RemoteUser)";
/// Whose a job is (its submitter), from the job's side.
pub const SUBMITTER: &str = "(MY.AccountingGroup ?: MY.User ?: MY.Owner)";
/// `EvalNegotiatorMatchRank`'s "failed": the lowest double.
const LOWEST: &str = "-1.7976931348623157e308";
/// The preemption rank of a candidate that preempts nobody: `-(FLT_MAX)`.
const NOT_PREEMPTING: &str = "-3.4028234663852886e38";

/// HTCondor's negotiator with a priority table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HTCondorPolicy {
    pub knobs: Knobs,
    pub priorities: PriorityTable,
}

/// A knob's value as a rank: the number, else the lowest.
fn as_rank(e: &str) -> String {
    format!("(isReal({e}) || isInteger({e}) || isBoolean({e}) ? {e} : {LOWEST})")
}

impl HTCondorPolicy {
    /// The knobs, swapped to the job's side, as text.
    fn swapped(text: &Option<String>) -> Result<Option<String>, String> {
        text.as_ref()
            .map(|t| {
                parse_expr(t)
                    .map(|e| crate::lang::unparse::unparse(&swap_sides(&e)))
                    .map_err(|d| d.summary())
            })
            .transpose()
    }

    /// The preemption state (2, 1, 0, or error: not a candidate), from the
    /// job's side.
    pub fn state_expression(&self) -> Result<String, String> {
        if !self.knobs.negotiator_consider_preemption {
            return Ok(format!("isUndefined({REMOTE_USER}) ? 2 : error"));
        }
        let requirements = match Self::swapped(&self.knobs.preemption_requirements)? {
            Some(r) => format!(" && (({r}) =?= true)"),
            None => String::new(),
        };
        Ok(format!(
            "isUndefined({REMOTE_USER}) ? 2 : \
             ((TARGET.Rank > TARGET.CurrentRank) =?= true) ? 1 : \
             (replace(\"@.*$\", {REMOTE_USER}, \"\") =!= replace(\"@.*$\", {SUBMITTER}, \"\")){requirements} \
             && ((TARGET.Rank >= TARGET.CurrentRank) =?= true) ? 0 : error"
        ))
    }

    /// The docking vector ([`COMPONENTS`]), evaluated with MY = the job.
    pub fn docking_vector(&self) -> Result<Vec<Expr>, String> {
        let knob = |t: &Option<String>| -> Result<String, String> {
            Ok(Self::swapped(t)?.map_or(LOWEST.to_string(), |e| as_rank(&format!("({e})"))))
        };
        let texts = [
            knob(&self.knobs.negotiator_pre_job_rank)?,
            // The job's own Rank (EvalFloat on the job: no falling back
            // to the slot's), 0 when it is not a number.
            "(isInteger(MY.Rank) || isReal(MY.Rank) || isBoolean(MY.Rank) ? MY.Rank : 0)"
                .to_string(),
            knob(&self.knobs.negotiator_post_job_rank)?,
            self.state_expression()?,
            format!(
                "isUndefined({REMOTE_USER}) ? {NOT_PREEMPTING} : {}",
                knob(&self.knobs.preemption_rank)?
            ),
        ];
        texts
            .iter()
            .zip(COMPONENTS)
            .map(|(t, name)| parse_expr(t).map_err(|d| format!("{name}: {}", d.summary())))
            .collect()
    }

    /// Submitters by priority (then name), each one's jobs in the schedd's
    /// order.
    pub fn root_order() -> Vec<SortKey> {
        [
            ("SubmitterUserPrio", false),
            (SUBMITTER, false),
            ("JobPrio", true),
            ("QDate", false),
            ("ClusterId", false),
            ("ProcId", false),
        ]
        .iter()
        .map(|(e, descending)| SortKey {
            expr: parse_expr(e).expect("the root order parses"),
            descending: *descending,
        })
        .collect()
    }

    /// The ads as the negotiator matches them: each job with its
    /// submitter's priority, each claimed slot with its user's.
    pub fn prepare(
        &self,
        jobs: &[Arc<ClassAd>],
        machines: &[Arc<ClassAd>],
    ) -> (Vec<Arc<ClassAd>>, Vec<Arc<ClassAd>>) {
        let factor = self.knobs.default_prio_factor;
        let mut shared = SharedNames::default();
        let jobs = jobs
            .iter()
            .map(|j| {
                let Some(who) = submitter_of(j) else {
                    return j.clone();
                };
                let mut ad = ClassAd::clone(j);
                let prio = self.priorities.priority(&who, factor);
                ad.insert_value_shared("SubmitterUserPrio", Value::Real(prio), &mut shared);
                ad.insert_value_shared("SubmittorPrio", Value::Real(prio), &mut shared);
                if let Some(used) = self.priorities.find(&who).and_then(|s| s.in_use) {
                    ad.insert_value_shared(
                        "SubmitterUserResourcesInUse",
                        Value::Real(used),
                        &mut shared,
                    );
                }
                Arc::new(ad)
            })
            .collect();
        // Slots that shared their names still do (one layout to compile).
        let mut shared = SharedNames::default();
        let machines = machines
            .iter()
            .map(|m| {
                let Some(who) = remote_user_of(m) else {
                    return m.clone();
                };
                let mut ad = ClassAd::clone(m);
                ad.insert_value_shared(
                    "RemoteUserPrio",
                    Value::Real(self.priorities.priority(&who, factor)),
                    &mut shared,
                );
                if let Some(p) = m.get("PreemptingRank").and_then(|e| e.as_literal()) {
                    if p.as_number().is_some() {
                        ad.insert_value("CurrentRank", p.clone());
                    }
                }
                Arc::new(ad)
            })
            .collect();
        (jobs, machines)
    }
}

fn string_attr(ad: &ClassAd, name: &str) -> Option<String> {
    match ad.get(name)?.as_literal()? {
        Value::Str(s) => Some(s.to_string()),
        _ => None,
    }
}

/// A job's submitter, as the negotiator names it: its accounting group,
/// else its user, else its owner.
pub fn submitter_of(job: &ClassAd) -> Option<String> {
    ["AccountingGroup", "User", "Owner"]
        .iter()
        .find_map(|n| string_attr(job, n))
}

/// Who holds a slot: whoever is preempting it, else its accounting group,
/// else its remote user (`None`: unclaimed).
pub fn remote_user_of(machine: &ClassAd) -> Option<String> {
    [
        "PreemptingAccountingGroup",
        "PreemptingUser",
        "AccountingGroup",
        "RemoteUser",
    ]
    .iter()
    .find_map(|n| string_attr(machine, n))
}
