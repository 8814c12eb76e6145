//! A stateful front for the API: pools are parsed once and kept by id, so
//! the playground's worker can answer match-matrix windows, negotiation
//! cycles and auto-clustering over 10,000-ad pools without re-reading them.
//! Stateless requests are passed to [`crate::api::handle`].

use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::api::{self, Request, Response};
use crate::formats::{self, InputFormat};
use crate::lang::ast::{ClassAd, Name};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::eval::{Env, EvalOptions, Evaluator, Mode, Side, TraceNode};
use crate::lang::lexer::Dialect;
use crate::lang::time::Clock;
use crate::matchmaking::autocluster::{self, AutoclusterConfig, Clustering};
use crate::matchmaking::compiled::CompiledAd;
use crate::matchmaking::matching::{matches_compiled, DEFAULT_REQUIREMENTS};
/// Past this many job × machine pairs a cycle does not count every matched
/// job's candidates (the views say so).
pub use crate::matchmaking::negotiate::COUNT_CANDIDATES_UP_TO;
use crate::matchmaking::negotiate::{self, Augmented, CycleResult, NegotiationConfig};
use crate::matchmaking::userfn::{self, UserFunctions};

/// The analyzer's request and answer, as the session carries them.
pub use crate::analysis::view::{AnalysisView, AnalyzeRequest};
/// Gangmatching's requests and answers, as the session carries them.
pub use crate::gang::steps::Step as GangStep;
pub use crate::gang::view::{
    CompareRequest, CompareRow, DockingDetail, GangDetail, GangRequest, GangRow, GangView,
    IndexView, IndexedDimension, IndexedPort,
};
pub use crate::gang::{
    AdRef as GangAdRef, Algorithm as GangAlgorithm, Counters as GangCounters, Gang,
};

/// Requests that need pools loaded in the session.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PoolRequest {
    /// Parse a pool and keep it under `id` (replacing any previous one).
    LoadPool {
        id: String,
        text: String,
        #[serde(default)]
        dialect: Dialect,
    },
    /// Outcomes of a window of the jobs × machines matrix.
    MatchWindow {
        jobs: String,
        machines: String,
        rows: (usize, usize),
        cols: (usize, usize),
        #[serde(default)]
        mode: Mode,
    },
    /// Outcomes of chosen jobs × chosen machines (a window of a sorted or
    /// filtered matrix: the rows and columns need not be contiguous).
    MatchCells {
        jobs: String,
        machines: String,
        rows: Vec<usize>,
        cols: Vec<usize>,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    /// Mutual matches per job and per machine over the whole matrix, for
    /// sorting and filtering it. Reports progress per job.
    MatchCounts {
        jobs: String,
        machines: String,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    /// Both sides' requirements and ranks of one pair, with traces.
    Pair {
        jobs: String,
        machines: String,
        job: usize,
        machine: usize,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    /// One negotiation cycle.
    Negotiate {
        jobs: String,
        machines: String,
        #[serde(default)]
        autocluster: bool,
        /// Record every job's candidates and docking vectors (classroom).
        #[serde(default)]
        detail: bool,
        /// With `detail`: only for the first this many jobs of the cycle.
        #[serde(default)]
        detail_jobs: Option<usize>,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
        /// Leave out what a caller holding the pools has already (the
        /// labels, each outcome's `machine_name`), what a cycle's table
        /// does not show (each cluster's signature attributes), and
        /// `augmented` when no job changed: a 10,000-job answer is then
        /// about half the JSON, parsed on a page's main thread.
        #[serde(default)]
        lean: bool,
    },
    /// How many free compatible machines job `job` of a cycle had at its
    /// turn (`taken`: the machines earlier jobs got): a matched job's count
    /// that a cycle past `COUNT_CANDIDATES_UP_TO` pairs leaves out, asked for
    /// when a view wants it.
    Candidates {
        jobs: String,
        machines: String,
        job: usize,
        taken: Vec<usize>,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    /// How many machines are compatible with one job of `jobs`, taken or
    /// not: an `all-taken` job's count that a cycle past
    /// `COUNT_CANDIDATES_UP_TO` pairs leaves out. Answered as `Candidates`.
    Compatible {
        jobs: String,
        machines: String,
        job: usize,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    Autocluster {
        jobs: String,
        machines: String,
    },
    /// A pool query (condor_status -constraint): the counts, the summary
    /// and the first rows; the rows are kept for `QueryPage`.
    Query {
        pool: String,
        spec: crate::query::view::QuerySpec,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    /// Rows `from..to` of the last query's result; `typed` adds each
    /// row's cells as JSON values (for a download).
    QueryPage {
        from: usize,
        to: usize,
        #[serde(default)]
        typed: bool,
    },
    /// Why the constraint held or failed for ad `ad` of `pool`.
    QueryExplain {
        pool: String,
        ad: usize,
        constraint: String,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
    /// Why a job does not match (the analyzer): see `analysis::view`.
    Analyze(AnalyzeRequest),
    /// Gangmatch the requests pool against the offers pool.
    Gang(GangRequest),
    /// One gang's dockings explained.
    GangDetail {
        requests: String,
        offers: String,
        gang: Gang,
        #[serde(default)]
        mode: Mode,
    },
    /// The offers' ports as the index holds them.
    GangIndex {
        offers: String,
        #[serde(default)]
        mode: Mode,
    },
    /// The algorithms compared on generated base workloads (no pools).
    GangCompare {
        #[serde(flatten)]
        compare: CompareRequest,
        #[serde(default)]
        mode: Mode,
    },
    /// One machine's requirements step by step over the jobs.
    Reverse {
        jobs: String,
        machines: String,
        machine: usize,
        #[serde(default)]
        all_steps: bool,
        #[serde(default)]
        mode: Mode,
        #[serde(default)]
        now: Option<f64>,
        #[serde(default)]
        tz_offset: Option<i32>,
    },
}

/// How a pair of ads fare: bit 0 set when the job rejects the machine, bit
/// 1 when the machine rejects the job (0 = both accept, 3 = both reject).
pub type Cell = u8;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PoolResponse {
    Loaded {
        id: String,
        ads: usize,
        labels: Vec<String>,
        diagnostics: Vec<Diagnostic>,
        functions: Vec<String>,
    },
    Window {
        rows: (usize, usize),
        cols: (usize, usize),
        /// Row-major cells of the window.
        cells: Vec<Cell>,
        /// The job's Rank of each machine and the machine's Rank of each
        /// job, canonically unparsed, row-major.
        job_ranks: Vec<String>,
        machine_ranks: Vec<String>,
    },
    /// The answer to `MatchCells`: row-major over `rows` × `cols`.
    Cells {
        cells: Vec<Cell>,
        job_ranks: Vec<String>,
        machine_ranks: Vec<String>,
    },
    Counts {
        /// Per job, the machines that match it both ways.
        job_matches: Vec<u32>,
        /// Per machine, the jobs that match it both ways.
        machine_matches: Vec<u32>,
        /// False when stopped early (the counts are then partial).
        complete: bool,
    },
    Pair {
        job_label: String,
        machine_label: String,
        /// Boxed: traces are big, and most answers are not pairs.
        job_requirements: Option<Box<TraceNode>>,
        machine_requirements: Option<Box<TraceNode>>,
        job_rank: String,
        machine_rank: String,
        /// The attribute names (lower-case) each ad defines, so a trace
        /// reader can tell which ad a definition came from.
        #[serde(default)]
        job_attributes: Vec<String>,
        #[serde(default)]
        machine_attributes: Vec<String>,
    },
    Candidates {
        job: usize,
        count: usize,
    },
    Cycle {
        cycle: CycleResult,
        augmented: Vec<Augmented>,
        job_labels: Vec<String>,
        machine_labels: Vec<String>,
    },
    Clusters {
        clustering: Clustering,
        job_labels: Vec<String>,
        /// Per cluster, its first job's definition (canonical text) of each
        /// signature attribute, `undefined` when it has none.
        #[serde(default)]
        signatures: Vec<Vec<(String, String)>>,
    },
    Analysis(Box<AnalysisView>),
    /// The answer to `Query`, with the pool's labels of the rows' ads.
    QueryResult {
        answer: crate::query::view::QueryAnswer,
        labels: Vec<String>,
    },
    /// The answer to `QueryPage`.
    QueryRows {
        from: usize,
        rows: Vec<crate::query::view::QueryRow>,
        labels: Vec<String>,
    },
    /// A query's expression that does not parse, to show in place.
    QueryInvalid(crate::query::QueryError),
    QueryExplained(Box<crate::query::view::QueryExplain>),
    Gangs(Box<GangView>),
    GangDetail(Box<GangDetail>),
    GangIndex(Box<IndexView>),
    GangComparison {
        rows: Vec<CompareRow>,
    },
    Reverse {
        reverse: serde_json::Value,
        report: String,
    },
    Failed {
        message: String,
    },
}

struct LoadedPool {
    ads: Vec<Arc<ClassAd>>,
    labels: Vec<String>,
    functions: Option<Arc<UserFunctions>>,
    /// The ads compiled for matching, per mode (HTCondor, strict), made on
    /// first use: the matrix asks for tile after tile of the same ads.
    compiled: [std::cell::OnceCell<Vec<CompiledAd>>; 2],
}

impl LoadedPool {
    /// The ads compiled in `mode`. Compiling depends on the mode alone: the
    /// functions it folds are pure, the clock is left to evaluation.
    fn compiled(&self, mode: Mode) -> &[CompiledAd] {
        let o = EvalOptions {
            mode,
            ..Default::default()
        };
        self.compiled[(mode == Mode::Strict) as usize].get_or_init(|| {
            self.ads
                .iter()
                .map(|a| CompiledAd::new(a.clone(), o, DEFAULT_REQUIREMENTS))
                .collect()
        })
    }
}

#[derive(Default)]
pub struct Session {
    pools: FxHashMap<String, LoadedPool>,
    /// The last query's rows, and the pool they index.
    last_query: Option<(String, crate::query::view::QueryRun)>,
}

fn opts(mode: Mode, now: Option<f64>, tz_offset: Option<i32>) -> EvalOptions {
    EvalOptions {
        mode,
        clock: Clock {
            now,
            local_offset: tz_offset,
        },
    }
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// Stateless requests, answered as [`api::handle`] does.
    pub fn handle(&mut self, req: Request) -> Response {
        api::handle(req)
    }

    pub fn handle_pool(
        &mut self,
        req: PoolRequest,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> PoolResponse {
        match req {
            PoolRequest::LoadPool { id, text, dialect } => self.load(id, text, dialect),
            PoolRequest::MatchWindow {
                jobs,
                machines,
                rows,
                cols,
                mode,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => window(j, m, rows, cols, opts(mode, None, None)),
                Err(e) => *e,
            },
            PoolRequest::MatchCells {
                jobs,
                machines,
                rows,
                cols,
                mode,
                now,
                tz_offset,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => {
                    let (cells, job_ranks, machine_ranks) =
                        cells_of(j, m, &rows, &cols, opts(mode, now, tz_offset));
                    PoolResponse::Cells {
                        cells,
                        job_ranks,
                        machine_ranks,
                    }
                }
                Err(e) => *e,
            },
            PoolRequest::MatchCounts {
                jobs,
                machines,
                mode,
                now,
                tz_offset,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => counts(j, m, opts(mode, now, tz_offset), progress),
                Err(e) => *e,
            },
            PoolRequest::Pair {
                jobs,
                machines,
                job,
                machine,
                mode,
                now,
                tz_offset,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => pair(j, m, job, machine, opts(mode, now, tz_offset)),
                Err(e) => *e,
            },
            PoolRequest::Negotiate {
                jobs,
                machines,
                autocluster,
                detail,
                detail_jobs,
                mode,
                now,
                tz_offset,
                lean,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => {
                    let mut cfg = NegotiationConfig {
                        opts: opts(mode, now, tz_offset),
                        detail,
                        detail_jobs,
                        // Past a size, the view shows no counts but the
                        // stepper's and the failures' (see `counting_pays`).
                        count_candidates: negotiate::counting_pays(j.ads.len(), m.ads.len()),
                        ..Default::default()
                    };
                    if !autocluster {
                        cfg.autocluster = None;
                    }
                    cfg.functions = j.functions.clone().or_else(|| m.functions.clone());
                    let mut cycle = crate::index::negotiation::negotiate_indexed(
                        &j.ads, &m.ads, &cfg, progress,
                    );
                    let augmented = negotiate::augment(&cycle, &j.ads, &m.ads, cfg.opts);
                    let labels = |p: &LoadedPool| if lean { vec![] } else { p.labels.clone() };
                    let mut augmented = augmented;
                    if lean {
                        if let Some(c) = cycle.clustering.as_mut() {
                            c.signature_attributes.clear();
                        }
                        for o in &mut cycle.outcomes {
                            o.machine_name = None;
                        }
                        if augmented
                            .iter()
                            .all(|a| a.changed.is_empty() && a.unresolved.is_empty())
                        {
                            augmented.clear();
                        }
                    }
                    PoolResponse::Cycle {
                        augmented,
                        job_labels: labels(j),
                        machine_labels: labels(m),
                        cycle,
                    }
                }
                Err(e) => *e,
            },
            PoolRequest::Candidates {
                jobs,
                machines,
                job,
                taken,
                mode,
                now,
                tz_offset,
            } => self.count_for_job(
                &jobs,
                &machines,
                job,
                (mode, now, tz_offset),
                |ad, m, cfg| negotiate::candidates_at_turn(ad, m, cfg, &taken),
            ),
            PoolRequest::Compatible {
                jobs,
                machines,
                job,
                mode,
                now,
                tz_offset,
            } => self.count_for_job(
                &jobs,
                &machines,
                job,
                (mode, now, tz_offset),
                negotiate::compatible_machines,
            ),
            PoolRequest::Analyze(req) => match self.pair_of(&req.jobs, &req.machines) {
                Ok((j, m)) => match crate::analysis::view::answer(
                    &j.ads,
                    &m.ads,
                    Some(m.compiled(req.mode)),
                    &req,
                    progress,
                ) {
                    Ok(view) => PoolResponse::Analysis(Box::new(view)),
                    Err(message) => PoolResponse::Failed { message },
                },
                Err(e) => *e,
            },
            PoolRequest::Reverse {
                jobs,
                machines,
                machine,
                all_steps,
                mode,
                now,
                tz_offset,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => reverse(j, m, machine, all_steps, opts(mode, now, tz_offset)),
                Err(e) => *e,
            },
            PoolRequest::Gang(req) => match self.pair_of(&req.requests, &req.offers) {
                Ok((r, o)) => {
                    let eval = opts(req.mode, None, None);
                    match crate::gang::view::run(&r.ads, &o.ads, &req, eval, progress) {
                        Ok(view) => PoolResponse::Gangs(Box::new(view)),
                        Err(message) => PoolResponse::Failed { message },
                    }
                }
                Err(e) => *e,
            },
            PoolRequest::GangDetail {
                requests,
                offers,
                gang,
                mode,
            } => match self.pair_of(&requests, &offers) {
                Ok((r, o)) => {
                    match crate::gang::view::detail(&r.ads, &o.ads, &gang, opts(mode, None, None)) {
                        Ok(d) => PoolResponse::GangDetail(Box::new(d)),
                        Err(message) => PoolResponse::Failed { message },
                    }
                }
                Err(e) => *e,
            },
            PoolRequest::GangIndex { offers, mode } => match self.pair_of(&offers, &offers) {
                Ok((o, _)) => PoolResponse::GangIndex(Box::new(crate::gang::view::inspect(
                    &o.ads,
                    opts(mode, None, None),
                ))),
                Err(e) => *e,
            },
            PoolRequest::GangCompare { compare, mode } => {
                match crate::gang::view::compare(&compare, opts(mode, None, None), progress) {
                    Ok(rows) => PoolResponse::GangComparison { rows },
                    Err(message) => PoolResponse::Failed { message },
                }
            }
            PoolRequest::Query {
                pool,
                spec,
                mode,
                now,
                tz_offset,
            } => {
                let p = match self.pool(&pool) {
                    Ok(p) => p,
                    Err(e) => return *e,
                };
                match crate::query::view::run(&p.ads, &spec, opts(mode, now, tz_offset), progress) {
                    Ok(Some(run)) => {
                        let answer = run.answer();
                        let labels = answer
                            .page
                            .iter()
                            .map(|r| p.labels.get(r.ad).cloned().unwrap_or_default())
                            .collect();
                        self.last_query = Some((pool, run));
                        PoolResponse::QueryResult { answer, labels }
                    }
                    Ok(None) => PoolResponse::Failed {
                        message: "stopped".into(),
                    },
                    Err(e) => PoolResponse::QueryInvalid(*e),
                }
            }
            PoolRequest::QueryPage { from, to, typed } => match &self.last_query {
                Some((pool, run)) => {
                    let rows = run.page(from, to, typed);
                    let labels = self
                        .pools
                        .get(pool)
                        .map(|p| {
                            rows.iter()
                                .map(|r| p.labels.get(r.ad).cloned().unwrap_or_default())
                                .collect()
                        })
                        .unwrap_or_default();
                    PoolResponse::QueryRows { from, rows, labels }
                }
                None => PoolResponse::Failed {
                    message: "no query has run".into(),
                },
            },
            PoolRequest::QueryExplain {
                pool,
                ad,
                constraint,
                mode,
                now,
                tz_offset,
            } => match self.pools.get(&pool).and_then(|p| p.ads.get(ad)) {
                Some(a) => {
                    match crate::query::view::explain(a, &constraint, opts(mode, now, tz_offset)) {
                        Ok(x) => PoolResponse::QueryExplained(Box::new(x)),
                        Err(e) => PoolResponse::QueryInvalid(*e),
                    }
                }
                None => PoolResponse::Failed {
                    message: format!("ad {ad} of pool `{pool}` is not loaded"),
                },
            },
            PoolRequest::Autocluster { jobs, machines } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => {
                    let cfg = NegotiationConfig::default();
                    let mref: Vec<&ClassAd> = m.ads.iter().map(|a| &**a).collect();
                    let sig = autocluster::significant_attributes(&mref, &cfg.docking_vector);
                    let jref: Vec<&ClassAd> = j.ads.iter().map(|a| &**a).collect();
                    let clustering =
                        autocluster::cluster(&jref, &sig, &AutoclusterConfig::default());
                    let mut signatures = signatures(&clustering, &jref);
                    let mut clustering = clustering;
                    spell_as_written(&mut clustering, &mut signatures, &mref, &jref);
                    PoolResponse::Clusters {
                        clustering,
                        job_labels: j.labels.clone(),
                        signatures,
                    }
                }
                Err(e) => *e,
            },
        }
    }

    fn load(&mut self, id: String, text: String, dialect: Dialect) -> PoolResponse {
        // The request's text becomes the one copy lazy ads read from.
        let text: Arc<dyn crate::lang::ast::SharedText> = Arc::new(text);
        let pool = formats::read_pool_shared(&text, InputFormat::Auto, dialect);
        let mut lib = ClassAd::new();
        let mut ads = Vec::new();
        let mut labels = Vec::new();
        for a in pool.ads {
            if userfn::is_library(&a.ad) {
                lib.update(&a.ad);
            } else {
                labels.push(match negotiate::job_id(&a.ad, ads.len()) {
                    id if a.label.starts_with("ad ") => id,
                    _ => a.label.clone(),
                });
                ads.push(Arc::new(a.ad));
            }
        }
        let mut diagnostics = pool.diagnostics;
        let functions = match UserFunctions::from_ad(&lib) {
            Ok(f) if !f.is_empty() => Some(Arc::new(f)),
            Ok(_) => None,
            Err(ds) => {
                diagnostics.extend(ds);
                None
            }
        };
        let names = functions.as_ref().map(|f| f.names()).unwrap_or_default();
        let n = ads.len();
        self.pools.insert(
            id.clone(),
            LoadedPool {
                ads,
                labels: labels.clone(),
                functions,
                compiled: Default::default(),
            },
        );
        PoolResponse::Loaded {
            id,
            ads: n,
            labels,
            diagnostics,
            functions: names,
        }
    }

    /// A loaded pool, or the `Failed` answer saying it is not loaded.
    fn pool(&self, id: &str) -> Result<&LoadedPool, Box<PoolResponse>> {
        self.pools.get(id).ok_or_else(|| {
            Box::new(PoolResponse::Failed {
                message: format!("pool `{id}` is not loaded"),
            })
        })
    }

    /// Both pools, or the `Failed` answer saying which is not loaded.
    /// A count about one job of a cycle's pools (its candidates at its
    /// turn, its compatible machines), with the cycle's options: `count`
    /// gets the job, the machines compiled in its mode and the
    /// configuration.
    fn count_for_job(
        &self,
        jobs: &str,
        machines: &str,
        job: usize,
        (mode, now, tz_offset): (Mode, Option<f64>, Option<i32>),
        count: impl FnOnce(&Arc<ClassAd>, &[CompiledAd], &NegotiationConfig) -> usize,
    ) -> PoolResponse {
        let (j, m) = match self.pair_of(jobs, machines) {
            Ok(pair) => pair,
            Err(e) => return *e,
        };
        let cfg = NegotiationConfig {
            opts: opts(mode, now, tz_offset),
            functions: j.functions.clone().or_else(|| m.functions.clone()),
            ..Default::default()
        };
        match j.ads.get(job) {
            Some(ad) => PoolResponse::Candidates {
                job,
                count: count(ad, m.compiled(mode), &cfg),
            },
            None => PoolResponse::Failed {
                message: format!("the jobs pool has no job {}", job + 1),
            },
        }
    }

    fn pair_of(
        &self,
        jobs: &str,
        machines: &str,
    ) -> Result<(&LoadedPool, &LoadedPool), Box<PoolResponse>> {
        Ok((self.pool(jobs)?, self.pool(machines)?))
    }
}

fn rank_text(ev: &mut Evaluator, my: &Arc<ClassAd>, target: &Arc<ClassAd>) -> String {
    ev.set_ads(Some(my.clone()), Some(target.clone()));
    ev.eval_attr("Rank").to_string()
}

fn window(
    j: &LoadedPool,
    m: &LoadedPool,
    rows: (usize, usize),
    cols: (usize, usize),
    o: EvalOptions,
) -> PoolResponse {
    let rows = (rows.0.min(j.ads.len()), rows.1.min(j.ads.len()));
    let cols = (cols.0.min(m.ads.len()), cols.1.min(m.ads.len()));
    let r: Vec<usize> = (rows.0..rows.1.max(rows.0)).collect();
    let c: Vec<usize> = (cols.0..cols.1.max(cols.0)).collect();
    let (cells, job_ranks, machine_ranks) = cells_of(j, m, &r, &c, o);
    PoolResponse::Window {
        rows,
        cols,
        cells,
        job_ranks,
        machine_ranks,
    }
}

/// Cells and both ranks of `rows` × `cols`, row-major; indices out of
/// range are skipped.
fn cells_of<'a>(
    j: &'a LoadedPool,
    m: &'a LoadedPool,
    rows: &[usize],
    cols: &[usize],
    o: EvalOptions,
) -> (Vec<Cell>, Vec<String>, Vec<String>) {
    let mut ev = Evaluator::new(o);
    ev.set_user_functions(j.functions.clone().or_else(|| m.functions.clone()));
    let n = rows.len() * cols.len();
    let (mut cells, mut jr, mut mr) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let pick = |ads: &'a [CompiledAd], picks: &[usize]| -> Vec<&'a CompiledAd> {
        picks.iter().filter_map(|&i| ads.get(i)).collect()
    };
    let (jobs, machines) = (
        pick(j.compiled(o.mode), rows),
        pick(m.compiled(o.mode), cols),
    );
    let rank = Name::new("Rank");
    for &job in &jobs {
        for &machine in &machines {
            let ja = job.accepts(machine, &mut ev);
            let ma = machine.accepts(job, &mut ev);
            cells.push((!ja as u8) | ((!ma as u8) << 1));
            jr.push(job.eval_attr(&rank, machine, &mut ev).to_string());
            mr.push(machine.eval_attr(&rank, job, &mut ev).to_string());
        }
    }
    (cells, jr, mr)
}

/// Mutual matches per job and per machine. The machine side is only
/// evaluated when the job side accepts.
fn counts(
    j: &LoadedPool,
    m: &LoadedPool,
    o: EvalOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> PoolResponse {
    let mut ev = Evaluator::new(o);
    ev.set_user_functions(j.functions.clone().or_else(|| m.functions.clone()));
    let mut job_matches = vec![0u32; j.ads.len()];
    let mut machine_matches = vec![0u32; m.ads.len()];
    let mut complete = true;
    let machines = m.compiled(o.mode);
    for (ji, job) in j.compiled(o.mode).iter().enumerate() {
        if ji % 8 == 0 && !progress(ji, j.ads.len()) {
            complete = false;
            break;
        }
        for (mi, machine) in machines.iter().enumerate() {
            if matches_compiled(&mut ev, job, machine) {
                job_matches[ji] += 1;
                machine_matches[mi] += 1;
            }
        }
    }
    if complete {
        progress(j.ads.len(), j.ads.len());
    }
    PoolResponse::Counts {
        job_matches,
        machine_matches,
        complete,
    }
}

/// Each cluster's signature as its first job defines it.
/// Shows the clusters' attribute names as the ads spell them (the
/// clustering itself works on case-folded names).
fn spell_as_written(
    c: &mut Clustering,
    signatures: &mut [Vec<(String, String)>],
    machines: &[&ClassAd],
    jobs: &[&ClassAd],
) {
    let names: std::collections::BTreeSet<String> = c
        .significant
        .iter()
        .chain(c.signature_attributes.iter().flatten())
        .cloned()
        .collect();
    let spelled = autocluster::spelled_as_written(&names, machines, jobs);
    let spell = |n: &mut String| {
        if let Some(s) = spelled.get(n.as_str()) {
            *n = s.clone();
        }
    };
    c.significant.iter_mut().for_each(spell);
    c.signature_attributes.iter_mut().flatten().for_each(spell);
    signatures.iter_mut().flatten().for_each(|(n, _)| spell(n));
}

fn signatures(c: &Clustering, jobs: &[&ClassAd]) -> Vec<Vec<(String, String)>> {
    let mut first = vec![None; c.clusters()];
    for (job, &id) in c.cluster_of.iter().enumerate() {
        if let Some(slot @ None) = first.get_mut(id as usize) {
            *slot = Some(job);
        }
    }
    c.signature_attributes
        .iter()
        .zip(first)
        .map(|(attrs, job)| {
            let ad = job.and_then(|i| jobs.get(i));
            attrs
                .iter()
                .map(|a| {
                    let text = ad
                        .and_then(|ad| ad.get(a))
                        .map(crate::lang::unparse::unparse)
                        .unwrap_or_else(|| "undefined".into());
                    (a.clone(), text)
                })
                .collect()
        })
        .collect()
}

fn pair(
    j: &LoadedPool,
    m: &LoadedPool,
    job: usize,
    machine: usize,
    o: EvalOptions,
) -> PoolResponse {
    let (Some(ja), Some(ma)) = (j.ads.get(job), m.ads.get(machine)) else {
        return PoolResponse::Failed {
            message: "no such job or machine".into(),
        };
    };
    let mut ev = Evaluator::new(o);
    ev.set_user_functions(j.functions.clone().or_else(|| m.functions.clone()));
    let mut traced = |my: &Arc<ClassAd>, target: &Arc<ClassAd>| {
        ev.set_ads(Some(my.clone()), Some(target.clone()));
        let name = DEFAULT_REQUIREMENTS.iter().find(|n| my.get(n).is_some())?;
        let e = my.get(name)?.clone();
        ev.eval_traced(&e, &Env::Root(Side::My)).1
    };
    let job_requirements = traced(ja, ma).map(Box::new);
    let machine_requirements = traced(ma, ja).map(Box::new);
    let names = |ad: &ClassAd| ad.names().map(str::to_ascii_lowercase).collect();
    PoolResponse::Pair {
        job_label: j.labels.get(job).cloned().unwrap_or_default(),
        machine_label: m.labels.get(machine).cloned().unwrap_or_default(),
        job_requirements,
        machine_requirements,
        job_rank: rank_text(&mut ev, ja, ma),
        machine_rank: rank_text(&mut ev, ma, ja),
        job_attributes: names(ja),
        machine_attributes: names(ma),
    }
}

/// The stateless `Match` request: the job's and the machine's texts are
/// loaded as one-ad pools and answered as the matrix answers their cell
/// (who accepts whom) and its pair detail (both Requirements traced, both
/// Ranks). `which` in a failure names the text at fault (`job`,
/// `machine`).
pub(crate) fn match_one(job: &str, machine: &str, o: EvalOptions, dialect: Dialect) -> Response {
    let mut s = Session::new();
    for (id, text) in [("job", job), ("machine", machine)] {
        let failed = |diagnostics| Response::Failed {
            which: id.into(),
            diagnostics,
        };
        if let PoolResponse::Loaded {
            ads, diagnostics, ..
        } = s.load(id.into(), text.to_string(), dialect)
        {
            if diagnostics.iter().any(Diagnostic::is_error) {
                return failed(diagnostics);
            }
            if ads != 1 {
                return failed(vec![Diagnostic::new(
                    crate::lang::ast::Span::NONE,
                    format!("expected one {id} ad, found {ads}"),
                )]);
            }
        }
    }
    let (j, m) = match s.pair_of("job", "machine") {
        Ok(p) => p,
        Err(e) => {
            let message = match *e {
                PoolResponse::Failed { message } => message,
                _ => "the ads are not loaded".into(),
            };
            return Response::Failed {
                which: "request".into(),
                diagnostics: vec![Diagnostic::new(crate::lang::ast::Span::NONE, message)],
            };
        }
    };
    let (cells, _, _) = cells_of(j, m, &[0], &[0], o);
    let cell = cells.first().copied().unwrap_or(3);
    match pair(j, m, 0, 0, o) {
        PoolResponse::Pair {
            job_requirements,
            machine_requirements,
            job_rank,
            machine_rank,
            ..
        } => Response::Match {
            job_accepts: cell & 1 == 0,
            machine_accepts: cell & 2 == 0,
            job_requirements: job_requirements.map(|t| *t),
            machine_requirements: machine_requirements.map(|t| *t),
            job_rank,
            machine_rank,
        },
        other => Response::Failed {
            which: "request".into(),
            diagnostics: vec![Diagnostic::new(
                crate::lang::ast::Span::NONE,
                match other {
                    PoolResponse::Failed { message } => message,
                    _ => "no answer for the pair".into(),
                },
            )],
        },
    }
}

/// JSON in, JSON out, for pool requests (the worker's entry point).
fn reverse(
    j: &LoadedPool,
    m: &LoadedPool,
    machine: usize,
    all_steps: bool,
    o: EvalOptions,
) -> PoolResponse {
    use crate::analysis::{reverse, steps::StepOptions};
    let Some(ad) = m.ads.get(machine) else {
        return PoolResponse::Failed {
            message: format!(
                "there is no machine {} (the pool has {} ads)",
                machine + 1,
                m.ads.len()
            ),
        };
    };
    let so = StepOptions {
        prune: !all_steps,
        opts: o,
    };
    match reverse::reverse_nth(ad, machine + 1, &j.ads, &so) {
        Ok(r) => PoolResponse::Reverse {
            report: reverse::render_reverse(&r),
            reverse: serde_json::to_value(&r).unwrap_or_default(),
        },
        Err(message) => PoolResponse::Failed { message },
    }
}

pub fn handle_pool_json(
    session: &mut Session,
    request: &str,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> String {
    let resp = match serde_json::from_str::<PoolRequest>(request) {
        Ok(r) => session.handle_pool(r, progress),
        Err(e) => PoolResponse::Failed {
            message: format!("bad request: {e}"),
        },
    };
    serde_json::to_string(&resp)
        .unwrap_or_else(|e| format!("{{\"kind\":\"failed\",\"message\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MACHINES: &str = r#"[ Name = "a"; Memory = 100; Requirements = TARGET.Owner != "x"; Rank = 1 ]
[ Name = "b"; Memory = 10; Requirements = true ]
[ Name = "c"; Memory = 200; Requirements = true ]"#;
    const JOBS: &str = r#"[ ClusterId = 1; ProcId = 0; Owner = "x"; Requirements = TARGET.Memory > 50 ]
[ ClusterId = 1; ProcId = 1; Owner = "y"; Requirements = TARGET.Memory > 50; Rank = TARGET.Memory ]
[ ClusterId = 2; ProcId = 0; Owner = "y"; Requirements = false ]"#;

    fn session() -> Session {
        let mut s = Session::new();
        for (id, text) in [("m", MACHINES), ("j", JOBS)] {
            s.handle_pool(
                PoolRequest::LoadPool {
                    id: id.into(),
                    text: text.into(),
                    dialect: Dialect::Auto,
                },
                &mut |_, _| true,
            );
        }
        s
    }

    fn ask(s: &mut Session, json: &str) -> PoolResponse {
        serde_json::from_str(&handle_pool_json(s, json, &mut |_, _| true)).unwrap()
    }

    #[test]
    fn analyze_and_reverse_in_the_session() {
        let mut s = session();
        let r = ask(
            &mut s,
            r#"{"op":"analyze","jobs":"j","machines":"m","job":2,"overrides":[["Requirements","TARGET.Memory > 150 && TARGET.Memory < 150"]],"plane":["Memory","Owner"]}"#,
        );
        let PoolResponse::Analysis(v) = r else {
            panic!("{r:?}")
        };
        assert_eq!(v.analysis["summary"]["rejected_by_job"], 3);
        assert_eq!(v.analysis["conflicts"][0]["kind"], "always");
        assert!(
            v.report.contains("Of 3 slots on 3 machines,"),
            "{}",
            v.report
        );
        assert_eq!(v.lattices.len(), 1);
        let r = ask(
            &mut s,
            r#"{"op":"analyze","jobs":"j","machines":"m","job":7}"#,
        );
        assert!(
            matches!(r, PoolResponse::Failed { ref message } if message.contains("no job 8")),
            "{r:?}"
        );
        let r = ask(
            &mut s,
            r#"{"op":"analyze","jobs":"j","machines":"m","job":0,"overrides":[["Requirements","1 +"]]}"#,
        );
        assert!(
            matches!(r, PoolResponse::Failed { ref message } if message.starts_with("Requirements:")),
            "{r:?}"
        );
        let r = ask(
            &mut s,
            r#"{"op":"reverse","jobs":"j","machines":"m","machine":0}"#,
        );
        assert!(matches!(r, PoolResponse::Reverse { .. }), "{r:?}");
    }

    #[test]
    fn cells_of_chosen_rows_and_columns() {
        let mut s = session();
        let r = ask(
            &mut s,
            r#"{"op":"match_cells","jobs":"j","machines":"m","rows":[1,0,9],"cols":[2,0]}"#,
        );
        let PoolResponse::Cells {
            cells,
            job_ranks,
            machine_ranks,
        } = r
        else {
            panic!("{r:?}")
        };
        // Job 1 × c, job 1 × a (both accept); job 0 × c (accept), job 0 × a
        // (machine rejects owner x); row 9 does not exist.
        assert_eq!(cells, vec![0, 0, 0, 2]);
        assert_eq!(job_ranks, vec!["200", "100", "undefined", "undefined"]);
        assert_eq!(machine_ranks, vec!["undefined", "1", "undefined", "1"]);
    }

    #[test]
    fn a_window_past_the_end_is_empty() {
        let mut s = session();
        let r = ask(
            &mut s,
            r#"{"op":"match_window","jobs":"j","machines":"m","rows":[5,3],"cols":[0,3]}"#,
        );
        assert!(
            matches!(r, PoolResponse::Window { ref cells, .. } if cells.is_empty()),
            "{r:?}"
        );
    }

    #[test]
    fn counts_per_job_and_machine() {
        let mut s = session();
        let mut calls = vec![];
        let json = handle_pool_json(
            &mut s,
            r#"{"op":"match_counts","jobs":"j","machines":"m"}"#,
            &mut |d, t| {
                calls.push((d, t));
                true
            },
        );
        let r: PoolResponse = serde_json::from_str(&json).unwrap();
        let PoolResponse::Counts {
            job_matches,
            machine_matches,
            complete,
        } = r
        else {
            panic!("{r:?}")
        };
        assert_eq!(job_matches, vec![1, 2, 0]);
        assert_eq!(machine_matches, vec![1, 0, 2]);
        assert!(complete);
        assert_eq!(calls.last(), Some(&(3, 3)));
        // Stopped at once: partial, and said so.
        let r = s.handle_pool(
            PoolRequest::MatchCounts {
                jobs: "j".into(),
                machines: "m".into(),
                mode: Mode::default(),
                now: None,
                tz_offset: None,
            },
            &mut |_, _| false,
        );
        assert!(
            matches!(
                r,
                PoolResponse::Counts {
                    complete: false,
                    ..
                }
            ),
            "{r:?}"
        );
    }

    #[test]
    fn pair_names_both_ads_attributes() {
        let mut s = session();
        let r = ask(
            &mut s,
            r#"{"op":"pair","jobs":"j","machines":"m","job":0,"machine":0}"#,
        );
        let PoolResponse::Pair {
            job_attributes,
            machine_attributes,
            machine_requirements,
            ..
        } = r
        else {
            panic!("{r:?}")
        };
        assert!(job_attributes.contains(&"owner".to_string()));
        assert!(machine_attributes.contains(&"memory".to_string()));
        assert_eq!(machine_requirements.unwrap().value, "false");
        let r = ask(
            &mut s,
            r#"{"op":"pair","jobs":"j","machines":"m","job":7,"machine":0}"#,
        );
        assert!(matches!(r, PoolResponse::Failed { .. }));
    }

    #[test]
    fn a_lean_cycle_leaves_out_labels_and_signatures() {
        let mut s = session();
        let r = ask(
            &mut s,
            r#"{"op":"negotiate","jobs":"j","machines":"m","autocluster":true,"lean":true}"#,
        );
        let PoolResponse::Cycle {
            cycle,
            augmented,
            job_labels,
            machine_labels,
        } = r
        else {
            panic!("{r:?}")
        };
        assert!(job_labels.is_empty() && machine_labels.is_empty());
        assert!(augmented.is_empty(), "no job has $$() to fill in");
        assert!(cycle.outcomes.iter().all(|o| o.machine_name.is_none()));
        let c = cycle.clustering.unwrap();
        assert!(c.signature_attributes.is_empty());
        assert_eq!(c.cluster_of.len(), 3);
        assert_eq!(cycle.matched, 2);
    }

    #[test]
    fn a_query_runs_pages_and_explains() {
        let mut s = Session::new();
        let go = |s: &mut Session, json: &str| {
            let req: PoolRequest = serde_json::from_str(json).unwrap();
            s.handle_pool(req, &mut |_, _| true)
        };
        let text = (0..300)
            .map(|i| format!("[ Name = \"m{i}\"; MyType = \"Machine\"; Memory = {i} ]\n"))
            .collect::<String>();
        let load = serde_json::json!({"op": "load_pool", "id": "p", "text": text}).to_string();
        go(&mut s, &load);
        let r = go(
            &mut s,
            r#"{"op":"query","pool":"p","spec":{"constraint":"Memory >= 50","columns":["Name","Memory"],"sort":1,"descending":true}}"#,
        );
        let PoolResponse::QueryResult { answer, labels } = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            (answer.matched, answer.total, answer.page.len()),
            (250, 300, 200)
        );
        assert_eq!(answer.page[0].cells, ["m299", "299"]);
        assert_eq!(labels[0], "m299");
        let r = go(&mut s, r#"{"op":"query_page","from":240,"to":400}"#);
        let PoolResponse::QueryRows { from, rows, .. } = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            (from, rows.len(), rows[9].cells[1].as_str()),
            (240, 10, "50")
        );
        let r = go(
            &mut s,
            r#"{"op":"query_explain","pool":"p","ad":3,"constraint":"Memory >= 50"}"#,
        );
        let PoolResponse::QueryExplained(x) = r else {
            panic!("{r:?}")
        };
        assert!(!x.matches && x.trace.is_some());
        let r = go(
            &mut s,
            r#"{"op":"query","pool":"p","spec":{"constraint":"Memory >"}}"#,
        );
        let PoolResponse::QueryInvalid(e) = r else {
            panic!("{r:?}")
        };
        assert_eq!((e.which.as_str(), e.diagnostic.column), ("constraint", 9));
    }

    #[test]
    fn clusters_carry_their_signatures() {
        let mut s = session();
        let r = ask(&mut s, r#"{"op":"autocluster","jobs":"j","machines":"m"}"#);
        let PoolResponse::Clusters {
            clustering,
            signatures,
            ..
        } = r
        else {
            panic!("{r:?}")
        };
        assert_eq!(signatures.len(), clustering.clusters());
        // Owner is significant (machine a refers to TARGET.Owner), and is
        // shown as the job spells it.
        let first: Vec<&(String, String)> = signatures[0].iter().collect();
        assert!(
            first.iter().any(|(a, v)| a == "Owner" && v == "\"x\""),
            "{first:?}"
        );
        assert!(clustering.significant.iter().any(|a| a == "Owner"));
    }

    fn match_json(json: &str) -> Response {
        serde_json::from_str(&api::handle_json(json)).unwrap()
    }

    /// The stateless `Match` gives the matrix's cell and its pair detail.
    #[test]
    fn match_one_job_against_one_machine() {
        let r = match_json(
            r#"{"op":"match","job":"[ Owner = \"x\"; Requirements = TARGET.Memory > 50; Rank = TARGET.Memory ]",
                "machine":"[ Memory = 100; Requirements = TARGET.Owner != \"x\"; Rank = 1 ]"}"#,
        );
        let Response::Match {
            job_accepts,
            machine_accepts,
            job_requirements,
            machine_requirements,
            job_rank,
            machine_rank,
        } = r
        else {
            panic!("{r:?}")
        };
        assert!(job_accepts);
        assert!(!machine_accepts);
        let (j, m) = (job_requirements.unwrap(), machine_requirements.unwrap());
        assert_eq!((j.value.as_str(), m.value.as_str()), ("true", "false"));
        assert_eq!(j.text, "TARGET.Memory > 50");
        assert!(!j.children.is_empty());
        assert_eq!((job_rank.as_str(), machine_rank.as_str()), ("100", "1"));
        // No Requirements: nothing accepted (as HTCondor has it), no trace.
        let r =
            match_json(r#"{"op":"match","job":"[ a = 1 ]","machine":"[ b = 2 ]","mode":"strict"}"#);
        assert!(
            matches!(
                r,
                Response::Match {
                    job_accepts: false,
                    machine_accepts: false,
                    job_requirements: None,
                    machine_requirements: None,
                    ..
                }
            ),
            "{r:?}"
        );
    }

    /// Bad texts come back as located diagnostics naming the side.
    #[test]
    fn match_refuses_bad_or_several_ads() {
        let r = match_json(r#"{"op":"match","job":"[ a = 1 ]","machine":"[\n  b = (2 ]"}"#);
        let Response::Failed { which, diagnostics } = r else {
            panic!("{r:?}")
        };
        assert_eq!(which, "machine");
        assert_eq!(diagnostics[0].line, 2, "{diagnostics:?}");
        assert!(diagnostics[0].column > 0);
        let r = match_json(r#"{"op":"match","job":"[ a = 1 ] [ a = 2 ]","machine":"[]"}"#);
        assert!(
            matches!(r, Response::Failed { ref which, ref diagnostics } if which == "job"
                && diagnostics[0].message.contains("found 2")),
            "{r:?}"
        );
        let r = match_json(r#"{"op":"match","job":"","machine":"[]"}"#);
        assert!(
            matches!(r, Response::Failed { ref which, .. } if which == "job"),
            "{r:?}"
        );
        let r = match_json(r#"{"op":"match","job":"[]","machine":"[]","mode":"lax"}"#);
        assert!(
            matches!(r, Response::Failed { ref which, .. } if which == "request"),
            "{r:?}"
        );
    }
}
