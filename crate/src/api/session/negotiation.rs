//! Negotiation's requests: a cycle, one job's counts asked after it, and
//! the auto-clusters with their signatures.

use std::sync::Arc;

use crate::lang::ast::ClassAd;
use crate::lang::eval::EvalOptions;
use crate::matchmaking::autocluster::{self, AutoclusterConfig};
use crate::matchmaking::compiled::CompiledAd;
use crate::matchmaking::negotiate::{self, NegotiationConfig};

use super::cycle_view::{ClaimRules, CycleView};
use super::pools::PoolPair;
use super::protocol::{ClusterView, HTCondorChoice, JobCount};
use super::PoolResponse;
use crate::policy::{HTCondorPolicy, Knobs, PriorityTable};

/// What a `Negotiate` request asks of the cycle besides its pools.
pub(super) struct CycleAsk {
    pub autocluster: bool,
    pub detail: bool,
    pub detail_jobs: Option<usize>,
    pub htcondor: Option<HTCondorChoice>,
    pub context: EvalOptions,
}

/// The HTCondor policy of a request: its table and knobs read, each error
/// with its place.
fn htcondor_policy(choice: &HTCondorChoice) -> Result<HTCondorPolicy, String> {
    let mut knobs = Knobs::default();
    for (k, v) in &choice.knobs {
        if !knobs.set(k, v)? {
            return Err(format!("{k}: not a negotiator setting this policy reads"));
        }
    }
    let priorities = PriorityTable::parse(&choice.userprio).map_err(|e| {
        format!(
            "the priority table, line {}, column {}: {}",
            e.line, e.column, e.message
        )
    })?;
    Ok(HTCondorPolicy { knobs, priorities })
}

pub(super) fn cycle(
    p: PoolPair,
    ask: CycleAsk,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> PoolResponse {
    let (jobs, machines) = (&p.jobs.ads, &p.machines.ads);
    let mut cfg = NegotiationConfig {
        opts: ask.context,
        detail: ask.detail,
        detail_jobs: ask.detail_jobs,
        // Past a size, the view shows no counts but the stepper's and the
        // failures' (see `counting_pays`).
        count_candidates: negotiate::counting_pays(jobs.len(), machines.len()),
        functions: p.functions(),
        ..Default::default()
    };
    if !ask.autocluster {
        cfg.autocluster = None;
    }
    let policy = match ask.htcondor.as_ref().map(htcondor_policy).transpose() {
        Ok(p) => p,
        Err(message) => return PoolResponse::Failed { message },
    };
    let Some(policy) = policy else {
        let cycle = crate::index::negotiation::negotiate_indexed(jobs, machines, &cfg, progress);
        let augmented = negotiate::augment(&cycle, jobs, machines, cfg.opts);
        let mut view = CycleView::new(cycle, augmented);
        view.explain_claims(
            jobs,
            machines,
            ClaimRules::Thesis(&cfg.docking_vector),
            cfg.opts,
        );
        return PoolResponse::Cycle(Box::new(view));
    };
    match policy.docking_vector() {
        Ok(v) => cfg.docking_vector = v,
        Err(message) => return PoolResponse::Failed { message },
    }
    cfg.root_order = HTCondorPolicy::root_order();
    // The ads as the negotiator matches them (priorities written in).
    let (pjobs, pmachines) = policy.prepare(jobs, machines);
    let cycle = crate::index::negotiation::negotiate_indexed(&pjobs, &pmachines, &cfg, progress);
    let augmented = negotiate::augment(&cycle, jobs, machines, cfg.opts);
    let mut view = CycleView::new(cycle, augmented);
    view.explain_claims(&pjobs, &pmachines, ClaimRules::HTCondor(&policy), cfg.opts);
    PoolResponse::Cycle(Box::new(view))
}

/// A count about one job of a cycle's pools (its candidates at its turn,
/// its compatible machines), with the cycle's options: `count` gets the
/// job, the machines compiled in its mode and the configuration.
pub(super) fn count_for_job(
    p: PoolPair,
    job: usize,
    context: EvalOptions,
    count: impl FnOnce(&Arc<ClassAd>, &[CompiledAd], &NegotiationConfig) -> usize,
) -> PoolResponse {
    let cfg = NegotiationConfig {
        opts: context,
        functions: p.functions(),
        ..Default::default()
    };
    match p.jobs.ads.get(job) {
        Some(ad) => PoolResponse::Candidates(JobCount {
            job,
            count: count(ad, p.machines.compiled(context.mode), &cfg),
        }),
        None => PoolResponse::Failed {
            message: format!("the jobs pool has no job {}", job + 1),
        },
    }
}

/// The jobs' auto-clusters by the machines' significant attributes, each
/// with its first job's definitions of its signature.
pub(super) fn clusters(p: PoolPair) -> PoolResponse {
    let cfg = NegotiationConfig::default();
    let machines: Vec<&ClassAd> = p.machines.ads.iter().map(|a| &**a).collect();
    let sig = autocluster::significant_attributes(&machines, &cfg.docking_vector);
    let jobs: Vec<&ClassAd> = p.jobs.ads.iter().map(|a| &**a).collect();
    let mut clustering = autocluster::cluster(&jobs, &sig, &AutoclusterConfig::default());
    let mut signatures = autocluster::signatures(&clustering, &jobs);
    autocluster::spell_as_written(
        &mut clustering,
        &mut signatures,
        &machines,
        &jobs,
        &cfg.docking_vector,
    );
    PoolResponse::Clusters(ClusterView {
        clustering,
        job_labels: p.jobs.labels.clone(),
        signatures,
    })
}
