//! What a cycle does to claimed machines, in words, for the classroom: who
//! runs on a machine when the cycle starts (its `RemoteUser`), why a job
//! that takes a claimed machine preempts its user (HTCondor's rank or
//! priority preemption, thesis Figure 9), and why a candidate's docking
//! vector is not a number (the component, and the attributes it needs that
//! the machine lacks).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Expr};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::unparse::{reals_for_people, value_to_string};
use crate::lang::value::Value;

/// Who runs on `machine` when the cycle starts: its `RemoteUser`, when it
/// is a string (an unclaimed machine has none).
pub fn claimed_by(machine: &Arc<ClassAd>, opts: EvalOptions) -> Option<String> {
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(machine.clone()), None);
    match ev.eval_attr("RemoteUser") {
        Value::Str(s) => Some(s.to_string()),
        _ => None,
    }
}

/// Which of HTCondor's preemptions let a job take a claimed machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PreemptionKind {
    /// The machine ranks the new job above the one it runs.
    Rank,
    /// The running user's priority is worse than the new job's by more
    /// than 10% (and the machine likes the new job no less).
    Priority,
}

/// A job taking a claimed machine: whose job it preempts, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preemption {
    pub kind: PreemptionKind,
    /// The user whose job is preempted (the machine's `RemoteUser`).
    pub user: String,
    /// Why, with the numbers: "big@lab ranks this job 10, above the 0 of
    /// the job it runs".
    pub why: String,
}

impl Preemption {
    /// "rank preemption: slot1@wn1 ranks this job 10 > CurrentRank 0 of
    /// bob's job": the rule, then why.
    pub fn words(&self) -> String {
        let rule = match self.kind {
            PreemptionKind::Rank => "rank",
            PreemptionKind::Priority => "priority",
        };
        format!("{rule} preemption: {}", self.why)
    }
}

/// The value of `attr` in `my` with `target` as TARGET, as people read it.
fn value_of(ev: &mut Evaluator, my: &Arc<ClassAd>, target: &Arc<ClassAd>, attr: &str) -> Value {
    ev.set_ads(Some(my.clone()), Some(target.clone()));
    ev.eval_attr(attr)
}

fn words(v: &Value) -> String {
    reals_for_people(&value_to_string(v))
}

/// The preemption by which `job` takes `machine` (labelled so in the
/// words), when the machine is claimed; `None` for an idle machine.
pub fn preemption(
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    machine_label: &str,
    opts: EvalOptions,
) -> Option<Preemption> {
    let user = claimed_by(machine, opts)?;
    let mut ev = Evaluator::new(opts);
    let rank = value_of(&mut ev, machine, job, "Rank");
    let current = value_of(&mut ev, machine, job, "CurrentRank");
    let higher = matches!(
        (rank.as_number(), current.as_number()),
        (Some(r), Some(c)) if c < r
    );
    if higher {
        return Some(Preemption {
            kind: PreemptionKind::Rank,
            why: format!(
                "{machine_label} ranks this job {}, above the {} of the job it runs",
                words(&rank),
                words(&current)
            ),
            user,
        });
    }
    let remote = value_of(&mut ev, machine, job, "RemoteUserPrio");
    let mine = value_of(&mut ev, job, machine, "UserPrio");
    Some(Preemption {
        kind: PreemptionKind::Priority,
        why: format!(
            "{user}'s priority {} is worse than this job's user's {} by more than 10%",
            words(&remote),
            words(&mine)
        ),
        user,
    })
}

/// Why the docking vector of `job` for `machine` is not a number: the
/// first component that is not, and the attributes it reads that are
/// undefined (on the machine, for `TARGET.x`; on the job, for `MY.x`).
/// `None` when every component is a number.
pub fn vector_failure(
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    vector: &[Expr],
    machine_label: &str,
    opts: EvalOptions,
) -> Option<String> {
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(job.clone()), Some(machine.clone()));
    let (i, e, v) = vector.iter().enumerate().find_map(|(i, e)| {
        let v = ev.eval_expr(e);
        (v.as_ranking_number().is_none()).then_some((i, e, v))
    })?;
    let part = match (vector.len(), i) {
        (3, 0) => "the job's Rank".to_string(),
        (3, 1) => "the preemption policy".to_string(),
        (3, 2) => "the preemption rank".to_string(),
        _ => format!("component {}", i + 1),
    };
    let mut missing = vec![];
    let undefined_in = |ad: &Arc<ClassAd>, attr: &str| {
        let mut probe = Evaluator::new(opts);
        probe.set_ads(Some(ad.clone()), None);
        matches!(probe.eval_attr(attr), Value::Undefined)
    };
    for name in crate::lang::refs::external_refs_of(e) {
        let on = match name.split_once('.') {
            Some((s, a)) if s.eq_ignore_ascii_case("my") => {
                undefined_in(job, a).then(|| format!("`{a}` is undefined on the job"))
            }
            Some((_, a)) => {
                undefined_in(machine, a).then(|| format!("`{a}` is undefined on {machine_label}"))
            }
            // A plain name is the job's, else the machine's.
            None => (undefined_in(job, &name) && undefined_in(machine, &name))
                .then(|| format!("`{name}` is undefined on the job and on {machine_label}")),
        };
        missing.extend(on);
    }
    let mut out = format!("{part} is {}", words(&v));
    if !missing.is_empty() {
        out.push_str(&format!(": {}", missing.join(", ")));
        if part == "the preemption policy" {
            out.push_str(" (preemption needs it)");
        }
    } else if part == "the preemption policy" {
        out.push_str(": the machine is claimed and neither preemption applies");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::{parse_classad, parse_expr};

    fn ad(s: &str) -> Arc<ClassAd> {
        Arc::new(parse_classad(s).unwrap())
    }

    #[test]
    fn rank_and_priority_preemption_in_words() {
        let job = ad(r#"[ Owner = "alice"; UserPrio = 10 ]"#);
        let claimed = ad(
            r#"[ Name = "big@lab"; RemoteUser = "dave@lab"; Rank = TARGET.Owner == "alice" ? 10 : 0; CurrentRank = 0; RemoteUserPrio = 50 ]"#,
        );
        let p = preemption(&job, &claimed, "big@lab", EvalOptions::default()).unwrap();
        assert_eq!(p.kind, PreemptionKind::Rank);
        assert_eq!(p.user, "dave@lab");
        assert_eq!(
            p.why,
            "big@lab ranks this job 10, above the 0 of the job it runs"
        );
        let level = ad(
            r#"[ Name = "m"; RemoteUser = "dave@lab"; Rank = 0; CurrentRank = 0; RemoteUserPrio = 50.5 ]"#,
        );
        let p = preemption(&job, &level, "m", EvalOptions::default()).unwrap();
        assert_eq!(p.kind, PreemptionKind::Priority);
        assert_eq!(
            p.why,
            "dave@lab's priority 50.5 is worse than this job's user's 10 by more than 10%"
        );
        assert_eq!(
            preemption(
                &job,
                &ad("[ Name = \"idle\" ]"),
                "idle",
                EvalOptions::default()
            ),
            None
        );
    }

    #[test]
    fn a_vector_that_is_not_a_number_names_what_it_lacks() {
        let vector: Vec<Expr> = crate::matchmaking::negotiate::CONDOR_DOCKING_VECTOR
            .iter()
            .map(|e| parse_expr(e).unwrap())
            .collect();
        let job = ad(r#"[ Owner = "alice"; UserPrio = 10 ]"#);
        let claimed =
            ad(r#"[ Name = "big@lab"; RemoteUser = "dave@lab"; Rank = 0; CurrentRank = 0 ]"#);
        let why =
            vector_failure(&job, &claimed, &vector, "big@lab", EvalOptions::default()).unwrap();
        assert!(
            why.starts_with("the preemption policy is undefined"),
            "{why}"
        );
        assert!(
            why.contains("`RemoteUserPrio` is undefined on big@lab"),
            "{why}"
        );
        assert!(
            why.contains("`ServiceTime` is undefined on big@lab"),
            "{why}"
        );
        let idle = ad(r#"[ Name = "m" ]"#);
        assert_eq!(
            vector_failure(&job, &idle, &vector, "m", EvalOptions::default()),
            None
        );
    }
}
