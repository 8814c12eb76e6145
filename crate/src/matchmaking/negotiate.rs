//! One negotiation cycle (thesis §3.2.4 and §3.8): jobs are the roots,
//! taken in root order; each gets, among the free machines it matches
//! bilaterally, the one with the best docking vector (compared
//! lexicographically; vectors with an undefined or error component are
//! discarded); a matched machine is consumed. With auto-clustering, jobs
//! of one cluster share one evaluation of the machines, and once a cluster
//! fails, the rest of it is skipped — when clusters are at most half the
//! jobs; with more, every job is surveyed on its own, which costs less.

use std::cmp::Ordering;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Expr};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::parser::parse_expr;
use crate::lang::value::Value;
use crate::matchmaking::autocluster::{self, AutoclusterConfig, Clustering};
use crate::matchmaking::best_first::RankTables;
use crate::matchmaking::compiled::{compile_pool, Columns, CompiledAd};
use crate::matchmaking::docking::{key_cmp, Docking};
use crate::matchmaking::survey::{Among, PoolWalk, Survey, SurveyCtx};

/// A root-ordering key: an expression evaluated in the job ad alone.
#[derive(Clone, Debug)]
pub struct SortKey {
    pub expr: Expr,
    pub descending: bool,
}

#[derive(Clone, Debug)]
pub struct NegotiationConfig {
    /// Names of the requirements attribute, tried in order.
    pub requirements: Vec<String>,
    /// Jobs are considered in this order (undefined keys sort last).
    pub root_order: Vec<SortKey>,
    /// Evaluated with MY = job and TARGET = machine; larger is better.
    pub docking_vector: Vec<Expr>,
    /// `None` disables auto-clustering (the naive loop).
    pub autocluster: Option<AutoclusterConfig>,
    pub opts: EvalOptions,
    /// Functions supplied with the pool (seed 003); results are cached
    /// for the cycle.
    pub functions: Option<Arc<crate::matchmaking::userfn::UserFunctions>>,
    /// Record each job's compatible machines and their docking vectors
    /// (the classroom view); costs memory on big pools.
    pub detail: bool,
    /// With `detail`, record it for only this many jobs, the first the
    /// cycle considers (`None`: every job): a big pool can still be
    /// stepped through from its start.
    pub detail_jobs: Option<usize>,
    /// Count every job's compatible machines (`JobOutcome::candidates`).
    /// Without, a job surveyed on its own is given its best machine by a
    /// best-first walk (`best_first`), which evaluates a few machines
    /// instead of all the compatible ones: the same pick, no count.
    /// Failures are still explained with their counts.
    pub count_candidates: bool,
}

/// Most machines a job's walk of the whole pool evaluates before it asks
/// the index for its candidates instead (see `best_first`).
const POOL_WALK_BUDGET: usize = 4096;

/// Up to this many job × machine pairs a cycle counts every job's
/// candidates by default ([`counting_pays`]); past it, the count costs
/// most of the cycle.
pub const COUNT_CANDIDATES_UP_TO: u64 = 1_000_000;

/// Whether counting every job's candidates is cheap enough to do by
/// default for a cycle of this size.
pub fn counting_pays(jobs: usize, machines: usize) -> bool {
    jobs as u64 * machines as u64 <= COUNT_CANDIDATES_UP_TO
}

/// Condor's policy as a docking vector (thesis Figure 9), written with
/// TARGET for the thesis' `label`: the job's rank (0 when it has none);
/// then no preemption (2),
/// rank preemption (1) or priority preemption under the preemption
/// constraint (0), anything else failing; then the preemption rank.
pub const CONDOR_DOCKING_VECTOR: [&str; 3] = [
    // A job without a numeric Rank ranks every machine 0, as in HTCondor.
    "isInteger(Rank) || isReal(Rank) || isBoolean(Rank) ? Rank : 0",
    "TARGET.RemoteUser is undefined ? 2 : TARGET.CurrentRank < TARGET.Rank ? 1 : \
     TARGET.RemoteUserPrio > MY.UserPrio * 1.1 && TARGET.CurrentRank <= TARGET.Rank && \
     TARGET.ServiceTime > 3 * 3600 ? 0 : error",
    "TARGET.RemoteUser is undefined ? 0 : TARGET.RemoteUserPrio * 10000 - TARGET.ImageSize",
];

/// Submitter priority (lower is better), then job priority, then queue
/// date, then job id.
pub const DEFAULT_ROOT_ORDER: [(&str, bool); 5] = [
    ("SubmitterUserPrio", false),
    ("JobPrio", true),
    ("QDate", false),
    ("ClusterId", false),
    ("ProcId", false),
];

impl Default for NegotiationConfig {
    fn default() -> Self {
        NegotiationConfig {
            requirements: crate::matchmaking::matching::DEFAULT_REQUIREMENTS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            root_order: DEFAULT_ROOT_ORDER
                .iter()
                .map(|(e, d)| SortKey {
                    expr: parse_expr(e).expect("default root order parses"),
                    descending: *d,
                })
                .collect(),
            docking_vector: CONDOR_DOCKING_VECTOR
                .iter()
                .map(|e| parse_expr(e).expect("default docking vector parses"))
                .collect(),
            autocluster: Some(AutoclusterConfig::default()),
            opts: EvalOptions::default(),
            functions: None,
            detail: false,
            detail_jobs: None,
            count_candidates: true,
        }
    }
}

/// Why a job got, or did not get, a machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reason {
    Matched,
    /// The pool has no machines.
    NoMachines,
    /// The job's requirements accept no machine.
    JobRejectsAll,
    /// No machine's requirements accept the job.
    MachinesRejectJob,
    /// Each side accepts some of the other, never the same pair.
    NoMutualMatch {
        job_accepts: usize,
        machines_accept: usize,
    },
    /// Compatible machines exist but earlier jobs took them: how many
    /// (`None` in a cycle that did not count candidates, which looked for
    /// one only; `PoolRequest::Compatible` counts them on demand).
    AllTaken {
        compatible: Option<usize>,
    },
    /// Free compatible machines exist, but the docking vector is undefined
    /// or error for each (e.g. preemption not allowed).
    NoValidVector {
        compatible: usize,
    },
    /// A job of the same auto-cluster already failed this cycle.
    SkippedCluster {
        cluster: u32,
    },
}

impl Reason {
    /// `slug: sentence` (`matched` alone), as the CLI prints it.
    pub fn describe(&self) -> String {
        match self {
            Reason::Matched => "matched".into(),
            _ => format!("{}: {}", self.slug(), self.sentence()),
        }
    }

    /// The reason's name, as the CLI prints it (the JSON's `kind` but for
    /// `skipped-autocluster`, which the JSON calls `skipped-cluster`).
    pub fn slug(&self) -> &'static str {
        match self {
            Reason::Matched => "matched",
            Reason::NoMachines => "no-machines",
            Reason::JobRejectsAll => "job-rejects-all",
            Reason::MachinesRejectJob => "machines-reject-job",
            Reason::NoMutualMatch { .. } => "no-mutual-match",
            Reason::AllTaken { .. } => "all-taken",
            Reason::NoValidVector { .. } => "no-valid-vector",
            Reason::SkippedCluster { .. } => "skipped-autocluster",
        }
    }

    /// Why, in words (lower case, no full stop): what people read.
    pub fn sentence(&self) -> String {
        match self {
            Reason::Matched => "matched".into(),
            Reason::NoMachines => "the pool is empty".into(),
            Reason::JobRejectsAll => "the job's requirements accept no machine".into(),
            Reason::MachinesRejectJob => "no machine's requirements accept the job".into(),
            Reason::NoMutualMatch {
                job_accepts,
                machines_accept,
            } => format!(
                "the job accepts {} and {} {} it, but never both",
                machines(*job_accepts),
                machines(*machines_accept),
                if *machines_accept == 1 {
                    "accepts"
                } else {
                    "accept"
                }
            ),
            Reason::AllTaken {
                compatible: Some(1),
            } => "its 1 compatible machine was matched to an earlier job".into(),
            Reason::AllTaken {
                compatible: Some(n),
            } => {
                format!("all {n} compatible machines were matched to earlier jobs")
            }
            Reason::AllTaken { compatible: None } => {
                "every compatible machine was matched to an earlier job (not counted)".into()
            }
            Reason::NoValidVector { compatible } => format!(
                "{}, but the docking vector is undefined or error for {} (no preemption allowed)",
                machines(*compatible).replacen("machine", "compatible machine", 1),
                if *compatible == 1 { "it" } else { "each" }
            ),
            Reason::SkippedCluster { cluster } => {
                format!("a job of auto-cluster {cluster} already failed this cycle")
            }
        }
    }
}

/// `1 machine`, `3 machines`.
fn machines(n: usize) -> String {
    format!("{n} machine{}", if n == 1 { "" } else { "s" })
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobOutcome {
    /// Position of the job in the input (0-based).
    pub job: usize,
    /// `ClusterId.ProcId`, else the 1-based position.
    pub job_id: String,
    pub machine: Option<usize>,
    /// The machine's `Name`, else its 1-based position.
    pub machine_name: Option<String>,
    /// The chosen docking vector, canonically unparsed.
    pub vector: Vec<String>,
    pub reason: Reason,
    /// Compatible machines still free when the job's turn came (with a
    /// valid docking vector); `None` when the cycle did not count them
    /// (`NegotiationConfig::count_candidates`).
    pub candidates: Option<usize>,
    pub cluster: Option<u32>,
    /// With `detail`: every compatible machine when the job's turn came.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub considered: Vec<Candidate>,
}

/// A compatible machine as one job saw it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Candidate {
    pub machine: usize,
    /// The docking vector, or `None` when a component was not a number.
    pub vector: Option<Vec<String>>,
    /// Already matched to an earlier job.
    pub taken: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CycleResult {
    /// One entry per job, in the order the cycle considered them.
    pub outcomes: Vec<JobOutcome>,
    pub matched: usize,
    /// Pairs whose requirements were evaluated (both directions count one).
    pub pair_evaluations: u64,
    pub clustering: Option<Clustering>,
}

/// The id HTCondor users know a job by.
pub fn job_id(ad: &ClassAd, index: usize) -> String {
    let num = |n: &str| match ad.get(n).and_then(|e| e.as_literal()) {
        Some(Value::Int(i)) => Some(*i),
        _ => None,
    };
    match (num("ClusterId"), num("ProcId")) {
        (Some(c), Some(p)) => format!("{c}.{p}"),
        _ => (index + 1).to_string(),
    }
}

pub fn machine_name(ad: &ClassAd, index: usize) -> String {
    match ad.get("Name").and_then(|e| e.as_literal()) {
        Some(Value::Str(s)) => s.to_string(),
        _ => (index + 1).to_string(),
    }
}

/// The jobs in root order.
pub fn root_order(jobs: &[Arc<ClassAd>], cfg: &NegotiationConfig) -> Vec<usize> {
    let mut ev = Evaluator::new(cfg.opts);
    let keys: Vec<Vec<Value>> = jobs
        .iter()
        .map(|j| {
            ev.set_ads(Some(j.clone()), None);
            cfg.root_order
                .iter()
                .map(|k| ev.eval_expr(&k.expr))
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| {
        for (i, k) in cfg.root_order.iter().enumerate() {
            let (x, y) = (&keys[a][i], &keys[b][i]);
            let defined = |v: &Value| v.as_ranking_number().is_some() || matches!(v, Value::Str(_));
            // Undefined keys go last whatever the direction.
            let o = match (defined(x), defined(y)) {
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                _ if k.descending => key_cmp(y, x),
                _ => key_cmp(x, y),
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        a.cmp(&b)
    });
    order
}

/// A cluster's candidates: the best few, as many as it has jobs left (and
/// some room), made once and surveyed again only if other clusters take
/// them all — the memory is bounded by the jobs, not by the pairs.
struct ClusterList {
    ranked: Vec<(usize, Vec<Value>)>,
    cursor: usize,
    /// `ranked` holds fewer than the compatible machines with a valid vector.
    truncated: bool,
    /// The candidate superset the cluster's first job had (None: all).
    cands: Option<Vec<usize>>,
}

impl ClusterList {
    fn bound(jobs_left: usize) -> usize {
        jobs_left.saturating_mul(2).max(16)
    }

    /// The list for `job`'s cluster; `rank_taken`: rank taken machines
    /// too (the cluster's first list, ranked once for the whole cycle).
    fn new(
        ctx: &mut SurveyCtx<'_, '_>,
        job: &CompiledAd,
        free: &[bool],
        rank_taken: bool,
        jobs_left: usize,
        cands: Option<Vec<usize>>,
    ) -> ClusterList {
        let keep = Self::bound(jobs_left);
        let among = match &cands {
            Some(c) => Among::Only(c),
            None => Among::All,
        };
        let s = ctx.survey(job, among, free, rank_taken, Some(keep));
        ClusterList {
            truncated: s.rankable > s.ranked.len(),
            ranked: s.ranked,
            cursor: 0,
            cands,
        }
    }

    /// The best free machine for `job` (checked against the job itself:
    /// the list was made for the cluster's first job), and how many free
    /// candidates the cluster had when this job's turn came. `cands`: this
    /// job's own candidate superset (None: all), surveyed if the list runs
    /// out — a cluster's jobs need not accept the same machines (sizes are
    /// quantized in the signature), so the first job's would miss some.
    fn pick(
        &mut self,
        ctx: &mut SurveyCtx<'_, '_>,
        job: &CompiledAd,
        free: &[bool],
        jobs_left: usize,
        cands: Option<Vec<usize>>,
    ) -> (usize, Option<(usize, Vec<Value>)>) {
        let mut cands = Some(cands);
        loop {
            while self.cursor < self.ranked.len() && !free[self.ranked[self.cursor].0] {
                self.cursor += 1;
            }
            if self.cursor == self.ranked.len() && self.truncated {
                // Other clusters took the ones kept: survey the free again.
                let mine = cands.take().unwrap_or_else(|| self.cands.take());
                *self = ClusterList::new(ctx, job, free, false, jobs_left, mine);
                continue;
            }
            break;
        }
        let rest = &self.ranked[self.cursor..];
        // At least this many (a truncated list holds the best only).
        let candidates = rest.iter().filter(|(m, _)| free[*m]).count();
        let own = rest.iter().find(|(m, _)| {
            free[*m] && {
                *ctx.evals += 1;
                let m = &ctx.machines[*m];
                job.accepts(m, ctx.ev) && m.accepts(job, ctx.ev)
            }
        });
        (candidates, own.cloned())
    }
}

/// Why a job got no machine, from its survey of its candidates `s`; only
/// when none of them is compatible is the whole pool scanned, for the
/// counts the reason gives.
fn explain_failure(
    ctx: &mut SurveyCtx<'_, '_>,
    job: &CompiledAd,
    among: Among<'_>,
    s: &mut Survey,
    free: &[bool],
    count: bool,
) -> Reason {
    if s.compatible_free == 0 {
        // All taken? Only now are the taken machines looked at.
        ctx.count_taken(job, among, free, s, count);
    }
    if s.compatible > 0 {
        return failure(ctx.ev, job, ctx.machines, s, s.compatible_free);
    }
    // No machine is compatible: not among the candidates (a superset of
    // the compatible ones), nor among those skipped as accepting no job.
    // How many the job accepts is counted over the whole pool.
    s.job_accepts = ctx.count_job_accepts(job);
    failure(ctx.ev, job, ctx.machines, s, 0)
}

/// Why a job got nothing, from its survey of the whole pool and the
/// number of compatible machines still free.
fn failure(
    ev: &mut Evaluator,
    job: &CompiledAd,
    machines: &[CompiledAd],
    s: &Survey,
    free_compatible: usize,
) -> Reason {
    if machines.is_empty() {
        return Reason::NoMachines;
    } else if s.compatible > 0 && free_compatible == 0 {
        return Reason::AllTaken {
            compatible: (!s.taken_found_only).then_some(s.compatible),
        };
    } else if s.compatible > 0 {
        return Reason::NoValidVector {
            compatible: free_compatible,
        };
    }
    if s.job_accepts == 0 {
        // Whatever the machines think of the job.
        return Reason::JobRejectsAll;
    }
    let machines_accept = machines.iter().filter(|m| m.accepts(job, ev)).count();
    if machines_accept == 0 {
        Reason::MachinesRejectJob
    } else {
        Reason::NoMutualMatch {
            job_accepts: s.job_accepts,
            machines_accept,
        }
    }
}

/// Run one negotiation cycle. `progress` is called with (jobs done, total)
/// now and then; returning `false` from it cancels (the result then holds
/// the jobs done so far).
pub fn negotiate(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    cfg: &NegotiationConfig,
    progress: impl FnMut(usize, usize) -> bool,
) -> CycleResult {
    negotiate_with(jobs, machines, cfg, &mut AllMachines, progress)
}

/// Where a job's candidate machines come from. By default every machine is
/// surveyed; an index over the machines (the index layer, above this one)
/// can narrow that to a superset of the compatible ones, which the cycle
/// then confirms by evaluation — the assignment is the same.
pub trait CandidateSource {
    /// Machines (ascending) among which every machine compatible with job
    /// `job` is, or `None` for all of them.
    fn candidates(&mut self, job: usize) -> Option<Vec<usize>>;

    /// The order in which the cycle will ask for the jobs' candidates
    /// (told once, before the first): a source may work them out ahead.
    fn prefetch(&mut self, _order: &[usize]) {}

    /// Whether the candidates are worked out ahead, on another core (then
    /// they cost the cycle nothing, and a job asks for them at once).
    fn runs_ahead(&self) -> bool {
        false
    }

    /// The cycle is about to consider the `done`-th job of the order told
    /// ([`prefetch`](Self::prefetch)): a source that measures the cycle
    /// may change how it answers from here on.
    fn before_job(&mut self, _done: usize) {}
}

/// Every machine, every time.
pub struct AllMachines;

impl CandidateSource for AllMachines {
    fn candidates(&mut self, _job: usize) -> Option<Vec<usize>> {
        None
    }
}

/// [`negotiate`] surveying only the candidates `source` gives.
pub fn negotiate_with(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    cfg: &NegotiationConfig,
    source: &mut dyn CandidateSource,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> CycleResult {
    let (mut ev, mut helper) = (evaluator(cfg), evaluator(cfg));
    let order = root_order(jobs, cfg);
    // What a match reads of a job: for the auto-clusters, and for the
    // compatibility classes uncounted walks skip by.
    let jref: Vec<&ClassAd> = jobs.iter().map(|j| &**j).collect();
    let sig = (cfg.autocluster.is_some() || !cfg.count_candidates).then(|| {
        let mref: Vec<&ClassAd> = machines.iter().map(|m| &**m).collect();
        autocluster::significant_attributes(&mref, &cfg.docking_vector)
    });
    let clustering = cfg
        .autocluster
        .as_ref()
        .zip(sig.as_ref())
        .map(|(ac, sig)| autocluster::cluster(&jref, sig, ac));
    let req: Vec<&str> = cfg.requirements.iter().map(String::as_str).collect();
    let compile = |ad: &Arc<ClassAd>| CompiledAd::new(ad.clone(), cfg.opts, &req);
    // Slots of one policy share a compilation (and stay in cache together).
    let cmachines: Vec<CompiledAd> = compile_pool(machines, cfg.opts, &req);
    let machines = &cmachines[..];
    let mut columns = Columns::new(machines);
    let rejects_all: Vec<bool> = machines
        .iter()
        .map(|m| m.rejects_every_ad(&mut ev))
        .collect();
    let mut free = vec![true; machines.len()];
    let mut outcomes = Vec::with_capacity(jobs.len());
    let mut evals = 0u64;
    let mut matched = 0;
    // Per cluster: its ranked candidates (a bounded list), made by its
    // first job and kept while the cluster has jobs left.
    let nclusters = clustering.as_ref().map_or(0, |c| c.clusters());
    let mut lists: Vec<Option<ClusterList>> = (0..nclusters).map(|_| None).collect();
    let mut jobs_left: Vec<usize> = vec![0; nclusters];
    if let Some(c) = &clustering {
        for &k in &c.cluster_of {
            jobs_left[k as usize] += 1;
        }
    }
    let mut failed = vec![false; nclusters];
    let mut tables = RankTables::default();
    // Walks of the pool (uncounted cycles) skip what an earlier job of the
    // same compatibility class found it does not accept.
    let classes: Option<Vec<u64>> = sig
        .as_ref()
        .filter(|_| !cfg.count_candidates)
        .map(|sig| autocluster::exact_classes(&jref, sig));
    let mut list_sizes = ListSizes::default();
    source.prefetch(&order);
    // Sharing a survey pays when clusters are few. With nearly one cluster
    // per job it only adds work (each list is ranked for taken machines
    // too), so then every job is surveyed on its own: the assignment is
    // the same (see the property tests); only the skipping of failed
    // clusters, an approximation, does not happen.
    let shared = nclusters > 0 && nclusters * 2 <= jobs.len();
    // A cluster shares one survey of the pool only when it has jobs
    // enough to pay for it: the walk in rank order usually settles a job
    // alone in a few evaluations, and 5,000 clusters of two jobs, each
    // surveying 10,000 machines, cost 66 M evaluations where the jobs
    // alone cost 10,000. The rule depends on the pools only, so counted,
    // walked and indexed cycles decide alike.
    let sizes = jobs_left.clone();
    let shares = |c: usize| sizes[c].saturating_mul(SHARE_RATIO) >= machines.len();
    for (done, &j) in order.iter().enumerate() {
        if done % 256 == 0 && !progress(done, order.len()) {
            break;
        }
        source.before_job(done);
        let cluster = clustering.as_ref().map(|c| c.cluster_of[j]);
        let mut outcome = JobOutcome {
            job: j,
            job_id: job_id(&jobs[j], j),
            machine: None,
            machine_name: None,
            vector: vec![],
            reason: Reason::Matched,
            candidates: None,
            cluster,
            considered: vec![],
        };
        let shared_cluster = cluster.filter(|_| shared).map(|c| c as usize);
        if let Some(c) = shared_cluster.filter(|&c| failed[c]) {
            jobs_left[c] -= 1;
            outcome.reason = Reason::SkippedCluster { cluster: c as u32 };
            outcomes.push(outcome);
            continue;
        }
        let job = &compile(&jobs[j]);
        let mut ctx = SurveyCtx {
            ev: &mut ev,
            helper: &mut helper,
            machines,
            rejects_all: &rejects_all,
            columns: &mut columns,
            docking_vector: &cfg.docking_vector,
            opts: cfg.opts,
            evals: &mut evals,
        };
        let sharing = shared_cluster.filter(|&c| shares(c));
        let pick = match sharing {
            Some(c) => {
                let cands = source.candidates(j);
                let among = match &cands {
                    Some(c) => Among::Only(c),
                    None => Among::All,
                };
                let list = lists[c].get_or_insert_with(|| {
                    ClusterList::new(&mut ctx, job, &free, true, jobs_left[c], cands.clone())
                });
                let (candidates, own) =
                    list.pick(&mut ctx, job, &free, jobs_left[c], cands.clone());
                outcome.candidates = Some(candidates);
                jobs_left[c] -= 1;
                if jobs_left[c] == 0 {
                    // The cluster is done: its list goes.
                    lists[c] = None;
                }
                match own {
                    Some(p) => Some(p),
                    None => {
                        let mut mine = ctx.survey(job, among, &free, false, Some(1));
                        outcome.reason = explain_failure(
                            &mut ctx,
                            job,
                            among,
                            &mut mine,
                            &free,
                            cfg.count_candidates,
                        );
                        // No compatible machine is left for the cluster:
                        // skip the rest of it. (Some are left, just not for
                        // this job: the cluster goes on.)
                        if candidates == 0 {
                            failed[c] = true;
                        }
                        None
                    }
                }
            }
            None => {
                let pick = pick_alone(
                    &mut ctx,
                    job,
                    j,
                    cfg,
                    &mut tables,
                    &mut list_sizes,
                    source,
                    &free,
                    &mut outcome,
                    classes.as_ref().and_then(|c| c.get(j).copied()),
                );
                if let Some(c) = shared_cluster {
                    jobs_left[c] -= 1;
                    // No machine for this job is none for its cluster.
                    if pick.is_none() {
                        failed[c] = true;
                    }
                }
                pick
            }
        };
        if cfg.detail
            && outcomes.len() < cfg.detail_jobs.unwrap_or(usize::MAX)
            && !matches!(outcome.reason, Reason::SkippedCluster { .. })
        {
            outcome.considered = considered(&mut ev, job, machines, &free, cfg);
            // What the stepper shows is counted, whatever the cycle did.
            let counted = outcome
                .considered
                .iter()
                .filter(|c| !c.taken && c.vector.is_some());
            outcome.candidates.get_or_insert(counted.count());
        }
        if let Some((m, v)) = pick {
            free[m] = false;
            tables.take(m);
            matched += 1;
            outcome.machine = Some(m);
            outcome.machine_name = Some(machine_name(&machines[m].ad, m));
            outcome.vector = v.iter().map(|x| x.to_string()).collect();
        }
        outcomes.push(outcome);
    }
    progress(order.len(), order.len());
    CycleResult {
        outcomes,
        matched,
        pair_evaluations: evals,
        clustering,
    }
}

/// The sizes of the candidate lists an index gave so far. Its lists, worked
/// out ahead on the other core, spare the walk of the pool while they are
/// short; when they hold more than a walk would evaluate (jobs that most of
/// the pool accepts: 100,000 jobs × 50,000 candidates each is billions of
/// entries to sort), the walk comes first again.
#[derive(Default)]
struct ListSizes {
    lists: u64,
    entries: u64,
}

impl ListSizes {
    fn seen(&mut self, len: usize) {
        self.lists += 1;
        self.entries += len as u64;
    }

    fn broad(&self) -> bool {
        self.lists >= 16 && self.entries > self.lists * POOL_WALK_BUDGET as u64
    }
}

/// An auto-cluster shares a survey of the pool when its jobs are at least
/// the pool's machines over this.
const SHARE_RATIO: usize = 64;

/// A job surveyed on its own (not sharing its auto-cluster's survey): its
/// best free machine, or none, with why (and the count of its candidates,
/// when the cycle knows it) in `outcome`.
#[allow(clippy::too_many_arguments)]
fn pick_alone(
    ctx: &mut SurveyCtx<'_, '_>,
    job: &CompiledAd,
    j: usize,
    cfg: &NegotiationConfig,
    tables: &mut RankTables,
    lists: &mut ListSizes,
    source: &mut dyn CandidateSource,
    free: &[bool],
    outcome: &mut JobOutcome,
    class: Option<u64>,
) -> Option<(usize, Vec<Value>)> {
    // Uncounted: first the pool in the order of the rank bounds, which
    // usually settles it in a few steps; else the index' candidates, in the
    // same order.
    let ranked = if cfg.count_candidates {
        None
    } else {
        let docking = Docking::new(job, &cfg.docking_vector, cfg.opts);
        let (rejects_all, machines) = (ctx.rejects_all, ctx.machines);
        let walkable = |m: usize| !rejects_all[m] && free[m];
        tables
            .get(&docking, job, machines, walkable, ctx.ev)
            .map(|t| (docking, t))
    };
    let budget = if source.runs_ahead() && !lists.broad() {
        0
    } else {
        POOL_WALK_BUDGET
    };
    let quick = match &ranked {
        Some((docking, t)) if budget > 0 => {
            ctx.best_in_pool(job, docking, tables, *t, budget, class)
        }
        _ => PoolWalk::GaveUp,
    };
    let cands = match quick {
        PoolWalk::Best(_) => None,
        _ => source.candidates(j),
    };
    if let Some(c) = &cands {
        lists.seen(c.len());
    }
    let among = match &cands {
        Some(c) => Among::Only(c),
        None => Among::All,
    };
    let walked = match (quick, &ranked) {
        (PoolWalk::Best(best), _) => Some(Ok(best)),
        (PoolWalk::NoneFree { compatible }, Some((_, t))) => {
            let table = tables.table(*t);
            Some(Err(
                ctx.failure_after_walk(job, table, among, free, compatible)
            ))
        }
        (_, Some((docking, t))) => {
            Some(ctx.best_first(job, docking, tables.table(*t), among, free))
        }
        (_, None) => None,
    };
    match walked {
        Some(Ok(best)) => Some(best),
        Some(Err(mut s)) => {
            outcome.candidates = Some(0);
            outcome.reason = explain_failure(ctx, job, among, &mut s, free, cfg.count_candidates);
            None
        }
        None => {
            let mut s = ctx.survey(job, among, free, false, Some(1));
            outcome.candidates = Some(s.rankable);
            match s.ranked.first() {
                Some(best) => Some(best.clone()),
                None => {
                    outcome.reason =
                        explain_failure(ctx, job, among, &mut s, free, cfg.count_candidates);
                    None
                }
            }
        }
    }
}

/// An evaluator with the cycle's options and the pool's functions.
fn evaluator(cfg: &NegotiationConfig) -> Evaluator {
    let mut ev = Evaluator::new(cfg.opts);
    ev.set_user_functions(cfg.functions.clone());
    ev
}

/// How many free compatible machines, with a valid docking vector, `job`
/// had at its turn, the machines in `taken` having gone to earlier jobs:
/// the `candidates` a counted cycle gives, for a view asking about one job
/// of a cycle that did not count them. `machines` are compiled in the
/// cycle's mode with its requirements' names (a session keeps its pools'
/// compiled).
pub fn candidates_at_turn(
    job: &Arc<ClassAd>,
    machines: &[CompiledAd],
    cfg: &NegotiationConfig,
    taken: &[usize],
) -> usize {
    let req: Vec<&str> = cfg.requirements.iter().map(String::as_str).collect();
    let job = CompiledAd::new(job.clone(), cfg.opts, &req);
    let (mut ev, mut helper) = (evaluator(cfg), evaluator(cfg));
    let rejects_all: Vec<bool> = machines
        .iter()
        .map(|m| m.rejects_every_ad(&mut ev))
        .collect();
    let mut free = vec![true; machines.len()];
    for &m in taken {
        if let Some(f) = free.get_mut(m) {
            *f = false;
        }
    }
    let mut columns = Columns::new(machines);
    let mut evals = 0;
    let mut ctx = SurveyCtx {
        ev: &mut ev,
        helper: &mut helper,
        machines,
        rejects_all: &rejects_all,
        columns: &mut columns,
        docking_vector: &cfg.docking_vector,
        opts: cfg.opts,
        evals: &mut evals,
    };
    ctx.survey(&job, Among::All, &free, false, Some(1)).rankable
}

/// How many machines of the pool are compatible with `job` (each side's
/// requirements accept the other), taken or not: an `all-taken` job's
/// count, which a cycle that did not count candidates leaves out
/// (`Reason::AllTaken { compatible: None }`), asked for when a view wants
/// it. `machines` as for [`candidates_at_turn`].
pub fn compatible_machines(
    job: &Arc<ClassAd>,
    machines: &[CompiledAd],
    cfg: &NegotiationConfig,
) -> usize {
    let req: Vec<&str> = cfg.requirements.iter().map(String::as_str).collect();
    let job = CompiledAd::new(job.clone(), cfg.opts, &req);
    let mut ev = evaluator(cfg);
    machines
        .iter()
        .filter(|m| job.accepts(m, &mut ev) && m.accepts(&job, &mut ev))
        .count()
}

/// Every compatible machine of a job, with its docking vector (detail mode).
fn considered(
    ev: &mut Evaluator,
    job: &CompiledAd,
    machines: &[CompiledAd],
    free: &[bool],
    cfg: &NegotiationConfig,
) -> Vec<Candidate> {
    let docking = Docking::new(job, &cfg.docking_vector, cfg.opts);
    let mut out = Vec::new();
    for (mi, m) in machines.iter().enumerate() {
        if job.accepts(m, ev) && m.accepts(job, ev) {
            let vector = docking
                .vector(ev, job, m)
                .map(|v| v.iter().map(|x| x.to_string()).collect());
            out.push(Candidate {
                machine: mi,
                vector,
                taken: !free[mi],
            });
        }
    }
    out
}

/// A matched job after `$$()` substitution from its machine.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Augmented {
    /// Attributes whose text changed, with their new canonical text.
    pub changed: Vec<(String, String)>,
    pub unresolved: Vec<crate::matchmaking::substitute::Unresolved>,
}

/// Post-match augmentation of every matched job (one entry per outcome).
pub fn augment(
    result: &CycleResult,
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    opts: EvalOptions,
) -> Vec<Augmented> {
    result
        .outcomes
        .iter()
        .map(|o| match o.machine {
            None => Augmented::default(),
            Some(m) => {
                let (changed, unresolved) =
                    crate::matchmaking::substitute::substitutions(&jobs[o.job], &machines[m], opts);
                Augmented {
                    changed,
                    unresolved,
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Reason;

    /// The slug is the JSON's `kind` (but for a skipped cluster, whose
    /// two spellings are both contracts), and the CLI's words are the slug
    /// and the sentence.
    #[test]
    fn a_reason_is_named_alike_in_json_and_in_words() {
        let all = [
            Reason::Matched,
            Reason::NoMachines,
            Reason::JobRejectsAll,
            Reason::MachinesRejectJob,
            Reason::NoMutualMatch {
                job_accepts: 2,
                machines_accept: 3,
            },
            Reason::AllTaken {
                compatible: Some(4),
            },
            Reason::AllTaken { compatible: None },
            Reason::NoValidVector { compatible: 5 },
            Reason::SkippedCluster { cluster: 6 },
        ];
        for r in all {
            let json = serde_json::to_value(&r).unwrap();
            let kind = match r {
                Reason::SkippedCluster { .. } => "skipped-cluster",
                _ => r.slug(),
            };
            assert_eq!(json["kind"], kind, "{r:?}");
            if r != Reason::Matched {
                assert_eq!(r.describe(), format!("{}: {}", r.slug(), r.sentence()));
            }
        }
        assert_eq!(
            Reason::AllTaken {
                compatible: Some(4)
            }
            .describe(),
            "all-taken: all 4 compatible machines were matched to earlier jobs"
        );
    }
}
