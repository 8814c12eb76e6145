//! Which of the negotiator's rules placed a job, in words, and why a
//! compatible claimed slot was not taken (HTCondor policy).

use std::sync::Arc;

use serde::Serialize;

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::parser::parse_expr;
use crate::lang::unparse::{reals_for_people, value_to_string};
use crate::lang::value::Value;

use super::htcondor::{remote_user_of, submitter_of, HTCondorPolicy};
use super::sides::swap_sides;

/// How a job got its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The slot was unclaimed.
    Unclaimed,
    /// The slot ranks the job above the one it runs.
    RankPreemption,
    /// The running user's priority lost under PREEMPTION_REQUIREMENTS.
    PriorityPreemption,
}

/// A placement in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placement {
    pub rule: Rule,
    /// Whose job the slot ran (`None` when unclaimed).
    pub preempts: Option<String>,
    /// "rank preemption: slot1@wn1 ranks this job 10 > CurrentRank 0".
    pub words: String,
}

/// A value as people read it: `0.0` (a slot's CurrentRank) as `0`.
fn words(v: &Value) -> String {
    match v {
        Value::Real(r) if r.fract() == 0.0 && r.abs() < 1e15 => format!("{}", *r as i64),
        _ => reals_for_people(&value_to_string(v)),
    }
}

fn eval_in(my: &Arc<ClassAd>, target: &Arc<ClassAd>, attr: &str, opts: EvalOptions) -> Value {
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(my.clone()), Some(target.clone()));
    ev.eval_attr(attr)
}

/// The rule by which `job` got `machine` (the prepared ads), from the
/// docking vector's preemption state (`"2"`, `"1"`, `"0"`).
pub fn placement(
    policy: &HTCondorPolicy,
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    machine_label: &str,
    state: &str,
    opts: EvalOptions,
) -> Placement {
    let holder = remote_user_of(machine);
    let rank = eval_in(machine, job, "Rank", opts);
    let current = eval_in(machine, job, "CurrentRank", opts);
    let factor = policy.knobs.default_prio_factor;
    match state {
        "1" => Placement {
            rule: Rule::RankPreemption,
            words: format!(
                "rank preemption: {machine_label} ranks this job {} > CurrentRank {} of {}'s job",
                words(&rank),
                words(&current),
                holder.as_deref().unwrap_or("?")
            ),
            preempts: holder,
        },
        "0" => {
            let who = holder.clone().unwrap_or_default();
            let mine = submitter_of(job).unwrap_or_default();
            Placement {
                rule: Rule::PriorityPreemption,
                words: format!(
                    "priority preemption: PREEMPTION_REQUIREMENTS holds ({who}'s priority {} against {mine}'s {}) and {machine_label} ranks this job {} >= CurrentRank {}",
                    words(&Value::Real(policy.priorities.priority(&who, factor))),
                    words(&Value::Real(policy.priorities.priority(&mine, factor))),
                    words(&rank),
                    words(&current)
                ),
                preempts: holder,
            }
        }
        _ => Placement {
            rule: Rule::Unclaimed,
            preempts: None,
            words: format!("{machine_label} was unclaimed"),
        },
    }
}

/// Why `job` could not take the compatible claimed `machine`: the
/// preemption rule each way, with the values and the attribute missing.
/// `None` when the slot is unclaimed.
pub fn not_preempted(
    policy: &HTCondorPolicy,
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    machine_label: &str,
    opts: EvalOptions,
) -> Option<String> {
    let holder = remote_user_of(machine)?;
    if !policy.knobs.negotiator_consider_preemption {
        return Some(format!(
            "{machine_label} is claimed by {holder} and NEGOTIATOR_CONSIDER_PREEMPTION is false"
        ));
    }
    let rank = eval_in(machine, job, "Rank", opts);
    let current = eval_in(machine, job, "CurrentRank", opts);
    let mut out = match (&rank, &current) {
        (_, Value::Undefined) => format!(
            "{machine_label} (claimed by {holder}) has no CurrentRank, so rank preemption cannot compare"
        ),
        (Value::Undefined, _) => format!(
            "{machine_label} (claimed by {holder}) has no Rank of this job, so rank preemption cannot compare"
        ),
        _ => format!(
            "{machine_label} (claimed by {holder}) ranks this job {}, not above CurrentRank {} (no rank preemption)",
            words(&rank),
            words(&current)
        ),
    };
    let mine = submitter_of(job).unwrap_or_default();
    let base = |n: &str| n.split('@').next().unwrap_or(n).to_string();
    if base(&holder) == base(&mine) {
        out.push_str(
            "; the slot runs this submitter's own job, which priority preemption never takes",
        );
        return Some(out);
    }
    match &policy.knobs.preemption_requirements {
        Some(text) => {
            let holds = parse_expr(text).ok().map(|e| {
                let mut ev = Evaluator::new(opts);
                ev.set_ads(Some(job.clone()), Some(machine.clone()));
                ev.eval_expr(&swap_sides(&e))
            });
            match holds {
                Some(Value::Bool(true)) => {
                    out.push_str(&format!(
                        "; PREEMPTION_REQUIREMENTS holds, but the slot ranks this job below CurrentRank {}",
                        words(&current)
                    ))
                }
                Some(v) if text.trim().eq_ignore_ascii_case("false") => out.push_str(&format!(
                    "; PREEMPTION_REQUIREMENTS is {} (HTCondor 25's default): no priority preemption",
                    words(&v)
                )),
                Some(v) => out.push_str(&format!(
                    "; PREEMPTION_REQUIREMENTS ({text}) is {} for it: no priority preemption",
                    words(&v)
                )),
                None => {}
            }
        }
        None => out.push_str(&format!(
            "; the slot ranks this job below CurrentRank {} (priority preemption needs at least it)",
            words(&current)
        )),
    }
    Some(out)
}
