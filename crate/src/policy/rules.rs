//! Which of the negotiator's rules placed a job, in words, and why a
//! compatible claimed slot was not taken (HTCondor policy).

use std::sync::Arc;

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::parser::parse_expr;
use crate::lang::unparse::{reals_for_people, value_to_string};
use crate::lang::value::Value;
use crate::matchmaking::claims::{Preemption, PreemptionKind};

use super::htcondor::{remote_user_of, submitter_of, HTCondorPolicy};
use super::sides::swap_sides;

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

/// The preemption by which `job` got `machine` (the prepared ads), from the
/// docking vector's preemption state (`"1"` rank, `"0"` priority; `None`
/// for `"2"`, an unclaimed slot), with the numbers that decided it.
pub fn placement(
    policy: &HTCondorPolicy,
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    machine_label: &str,
    state: &str,
    opts: EvalOptions,
) -> Option<Preemption> {
    let kind = match state {
        "1" => PreemptionKind::Rank,
        "0" => PreemptionKind::Priority,
        _ => return None,
    };
    let user = remote_user_of(machine).unwrap_or_default();
    let rank = words(&eval_in(machine, job, "Rank", opts));
    let current = words(&eval_in(machine, job, "CurrentRank", opts));
    let why = match kind {
        PreemptionKind::Rank => {
            format!("{machine_label} ranks this job {rank} > CurrentRank {current} of {user}'s job")
        }
        PreemptionKind::Priority => {
            let factor = policy.knobs.default_prio_factor;
            let mine = submitter_of(job).unwrap_or_default();
            let prio = |who: &str| words(&Value::Real(policy.priorities.priority(who, factor)));
            format!(
                "PREEMPTION_REQUIREMENTS holds ({user}'s priority {} against {mine}'s {}) and {machine_label} ranks this job {rank} >= CurrentRank {current}",
                prio(&user),
                prio(&mine),
            )
        }
    };
    Some(Preemption { kind, user, why })
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
