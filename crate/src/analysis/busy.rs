//! What "busy" means for the slots a job matches but cannot have now:
//! who holds them, and whether HTCondor's negotiator could take one for
//! the job. It preempts a claimed slot for rank when the slot's `Rank` of
//! the job beats its `CurrentRank` (the running job's); for user priority
//! only when `PREEMPTION_REQUIREMENTS` allows, and HTCondor 25's default
//! is `False` (`param_info.in`).

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Value};
use crate::lang::eval::{EvalOptions, Evaluator};

/// Users listed as holding busy slots.
const USERS: usize = 5;

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Busy {
    /// Slots matching both ways that are busy.
    pub slots: u64,
    /// Who holds them (`RemoteUser`, else `RemoteOwner`), most slots first;
    /// slots naming nobody are not listed.
    pub claimed_by: Vec<(String, u64)>,
    /// Of them, slots whose `Rank` of the job is greater than their
    /// `CurrentRank`: rank preemption could give one to the job.
    pub rank_preemption: u64,
    /// Slots that do not say their `CurrentRank` (rank preemption unknown).
    pub rank_unknown: u64,
}

impl Busy {
    /// What busy means here, in one paragraph (the report and the page).
    pub fn words(&self) -> String {
        let by: Vec<String> = self
            .claimed_by
            .iter()
            .map(|(u, n)| format!("{u} {n}"))
            .collect();
        let by = if by.is_empty() {
            String::new()
        } else {
            format!(" (held by {})", by.join(", "))
        };
        let rank = match (self.rank_preemption, self.rank_unknown) {
            (0, u) if u == self.slots => "they do not say their CurrentRank, so whether rank preemption could give you one is unknown".to_string(),
            (0, _) => "none of them ranks your job above the job it runs (Rank > CurrentRank), so rank preemption cannot give you one".to_string(),
            (n, _) => format!(
                "{n} of them rank your job above the job they run (Rank > CurrentRank): rank preemption could give you one"
            ),
        };
        format!(
            "Busy: {} {} match but are claimed{by}; {rank}. Preemption for user priority needs PREEMPTION_REQUIREMENTS, False by default in HTCondor 25.",
            self.slots,
            if self.slots == 1 { "slot" } else { "slots" },
        )
    }
}

/// `busy`: the machines that match the job both ways and are busy.
pub fn busy(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    busy: &[usize],
    opts: EvalOptions,
) -> Option<Busy> {
    if busy.is_empty() {
        return None;
    }
    let mut ev = Evaluator::new(opts);
    let mut users: HashMap<String, u64> = HashMap::new();
    let mut out = Busy {
        slots: busy.len() as u64,
        ..Busy::default()
    };
    for &i in busy {
        let m = &machines[i];
        ev.set_ads(Some(m.clone()), Some(job.clone()));
        let user = ["RemoteUser", "RemoteOwner"]
            .iter()
            .map(|a| ev.eval_attr(a))
            .find_map(|v| match v {
                Value::Str(s) => Some(s.to_string()),
                _ => None,
            });
        if let Some(u) = user {
            *users.entry(u).or_default() += 1;
        }
        let rank = number(&ev.eval_attr("Rank"));
        let current = number(&ev.eval_attr("CurrentRank"));
        match (rank, current) {
            (Some(r), Some(c)) if r > c => out.rank_preemption += 1,
            (_, None) => out.rank_unknown += 1,
            _ => {}
        }
    }
    let mut users: Vec<(String, u64)> = users.into_iter().collect();
    users.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    users.truncate(USERS);
    out.claimed_by = users;
    Some(out)
}

/// A rank as the negotiator reads it (`EvalFloat`: booleans are 1 and 0).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(*b as u8 as f64),
        _ => v.as_number(),
    }
}
