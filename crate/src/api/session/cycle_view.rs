//! A negotiation cycle as the playground shows it: one row per job, the
//! reasons in words given once and pointed into (a 10,000-job cycle has a
//! few dozen, each a sentence), `$$()` results beside the job.

use serde::{Deserialize, Serialize};

use crate::matchmaking::claims::Preemption;
use crate::matchmaking::negotiate::{Augmented, Candidate, CycleResult, Reason};

/// The rules a cycle's claimed slots are explained by.
#[derive(Clone, Copy)]
pub(crate) enum ClaimRules<'a> {
    /// The thesis' Figure 9 docking vector (as the cycle ran it).
    Thesis(&'a [crate::lang::ast::Expr]),
    HTCondor(&'a crate::policy::HTCondorPolicy),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CycleView {
    /// One per job, in the order the cycle considered them.
    pub outcomes: Vec<CycleOutcome>,
    /// The distinct reasons, in words; outcomes point into it. The first is
    /// "" (matched).
    pub reasons: Vec<String>,
    pub matched: usize,
    pub pair_evaluations: u64,
    /// Auto-clusters, when the cycle used them.
    pub clusters: Option<usize>,
    /// The engine's wasm memory after the cycle, in bytes: its peak, since
    /// wasm memory only grows (absent natively).
    #[serde(default)]
    pub engine_memory: Option<u64>,
    /// Machines claimed when the cycle began (machine, its `RemoteUser`),
    /// among those the stepped jobs considered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claimed: Vec<(usize, String)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CycleOutcome {
    pub job: usize,
    pub job_id: String,
    pub machine: Option<usize>,
    pub vector: Vec<String>,
    /// Why it got no machine: an index into `CycleView::reasons`.
    pub reason: u32,
    /// Skipped: its auto-cluster had failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skipped: bool,
    /// No machine of the pool matches it both ways (the analyzer says why).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unmatchable: bool,
    /// Free compatible machines at its turn; `None` when the cycle did not
    /// count them (past `COUNT_CANDIDATES_UP_TO` pairs).
    #[serde(default)]
    pub candidates: Option<usize>,
    /// All taken, how many not counted: `PoolRequest::Compatible` counts
    /// them when asked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub taken_uncounted: bool,
    pub cluster: Option<u32>,
    /// Every compatible machine when its turn came (with `detail`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub considered: Vec<Candidate>,
    /// `$$()` attributes after the match (attribute, new text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<(String, String)>,
    /// `$$()` references the machine could not fill, as `attribute: $$(name)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<String>,
    /// Taking a claimed machine: whose job it preempts, and why (stepped
    /// jobs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preempts: Option<Preemption>,
    /// Candidates whose docking vector is not a number: (machine, why).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vector_failures: Vec<(usize, String)>,
}

impl CycleView {
    pub fn new(cycle: CycleResult, augmented: Vec<Augmented>) -> CycleView {
        let clusters = cycle.clustering.as_ref().map(|c| c.clusters());
        let mut aug = augmented.into_iter();
        let mut reasons = vec![String::new()];
        let mut reason_of = |r: &Reason| -> u32 {
            if *r == Reason::Matched {
                return 0;
            }
            let text = capitalized(&r.sentence());
            let at = reasons.iter().position(|x| *x == text).unwrap_or_else(|| {
                reasons.push(text);
                reasons.len() - 1
            });
            at as u32
        };
        let outcomes = cycle
            .outcomes
            .into_iter()
            .map(|o| {
                let a = aug.next().unwrap_or_default();
                CycleOutcome {
                    job: o.job,
                    job_id: o.job_id,
                    machine: o.machine,
                    vector: o.vector,
                    reason: reason_of(&o.reason),
                    skipped: matches!(o.reason, Reason::SkippedCluster { .. }),
                    unmatchable: matches!(
                        o.reason,
                        Reason::JobRejectsAll
                            | Reason::MachinesRejectJob
                            | Reason::NoMutualMatch { .. }
                    ),
                    candidates: o.candidates,
                    taken_uncounted: matches!(o.reason, Reason::AllTaken { compatible: None }),
                    cluster: o.cluster,
                    considered: o.considered,
                    changed: a.changed,
                    unresolved: a.unresolved.iter().map(|u| u.to_string()).collect(),
                    preempts: None,
                    vector_failures: vec![],
                }
            })
            .collect();
        CycleView {
            outcomes,
            reasons,
            matched: cycle.matched,
            pair_evaluations: cycle.pair_evaluations,
            clusters,
            engine_memory: crate::api::wasm_memory_bytes(),
            claimed: vec![],
        }
    }

    /// Who ran on machine `m` when the cycle began (stepped machines).
    pub fn claimed_by(&self, m: usize) -> Option<&str> {
        self.claimed
            .iter()
            .find(|(c, _)| *c == m)
            .map(|(_, u)| u.as_str())
    }

    /// The claims, preemptions and vector failures of the stepped jobs
    /// (those that carry their candidates), in words.
    /// Who each claimed slot ran when the cycle began, the preemption that
    /// took one, and why a compatible slot's vector was no number — by the
    /// rules the cycle followed.
    pub(crate) fn explain_claims(
        &mut self,
        jobs: &[std::sync::Arc<crate::lang::ast::ClassAd>],
        machines: &[std::sync::Arc<crate::lang::ast::ClassAd>],
        rules: ClaimRules<'_>,
        opts: crate::lang::eval::EvalOptions,
    ) {
        use crate::matchmaking::claims;
        use crate::policy::{htcondor, rules as htcondor_rules};
        let label = |m: usize| {
            let mut ev = crate::lang::eval::Evaluator::new(opts);
            ev.set_ads(machines.get(m).cloned(), None);
            match ev.eval_attr("Name") {
                crate::lang::value::Value::Str(s) => s.to_string(),
                _ => format!("machine {}", m + 1),
            }
        };
        let mut seen = std::collections::BTreeSet::new();
        for o in &mut self.outcomes {
            let Some(job) = jobs.get(o.job) else { continue };
            for c in &o.considered {
                seen.insert(c.machine);
                if c.vector.is_none() {
                    if let Some(m) = machines.get(c.machine) {
                        let l = label(c.machine);
                        let why = match rules {
                            ClaimRules::Thesis(vector) => {
                                claims::vector_failure(job, m, vector, &l, opts)
                            }
                            ClaimRules::HTCondor(p) => {
                                htcondor_rules::not_preempted(p, job, m, &l, opts)
                            }
                        };
                        o.vector_failures.extend(why.map(|w| (c.machine, w)));
                    }
                }
            }
            if let Some(m) = o.machine.filter(|_| !o.considered.is_empty()) {
                seen.insert(m);
                if let Some(ad) = machines.get(m) {
                    o.preempts = match rules {
                        ClaimRules::Thesis(_) => claims::preemption(job, ad, &label(m), opts),
                        ClaimRules::HTCondor(p) => {
                            let state = o.vector.get(3).map_or("2", String::as_str);
                            htcondor_rules::placement(p, job, ad, &label(m), state, opts)
                        }
                    };
                }
            }
        }
        self.claimed = seen
            .into_iter()
            .filter_map(|m| {
                let ad = machines.get(m)?;
                let holder = match rules {
                    ClaimRules::Thesis(_) => claims::claimed_by(ad, opts),
                    ClaimRules::HTCondor(_) => htcondor::remote_user_of(ad),
                };
                Some((m, holder?))
            })
            .collect();
    }

    /// Why `o` got no machine, in words ("" when it got one).
    pub fn reason(&self, o: &CycleOutcome) -> &str {
        self.reasons
            .get(o.reason as usize)
            .map_or("", |s| s.as_str())
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
