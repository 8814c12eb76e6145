//! A stateful front for the API: pools are parsed once and kept by id, so
//! the playground's worker can answer match-matrix windows, negotiation
//! cycles and auto-clustering over 10,000-ad pools without re-reading them.
//! Stateless requests are passed to [`crate::api::handle`].

use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::api::{self, Request, Response};
use crate::ast::ClassAd;
use crate::autocluster::{self, AutoclusterConfig, Clustering};
use crate::diagnostic::Diagnostic;
use crate::eval::{Env, EvalOptions, Evaluator, Mode, Side, TraceNode};
use crate::formats::{self, InputFormat};
use crate::lexer::Dialect;
use crate::matching::{requirements_value, DEFAULT_REQUIREMENTS};
use crate::negotiate::{self, Augmented, CycleResult, NegotiationConfig};
use crate::time::Clock;
use crate::userfn::{self, UserFunctions};

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
    /// Both sides' requirements and ranks of one pair, with traces.
    Pair {
        jobs: String,
        machines: String,
        job: usize,
        machine: usize,
        #[serde(default)]
        mode: Mode,
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
    Pair {
        job_label: String,
        machine_label: String,
        job_requirements: Option<TraceNode>,
        machine_requirements: Option<TraceNode>,
        job_rank: String,
        machine_rank: String,
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
    },
    Failed {
        message: String,
    },
}

struct LoadedPool {
    ads: Vec<Arc<ClassAd>>,
    labels: Vec<String>,
    functions: Option<Arc<UserFunctions>>,
}

#[derive(Default)]
pub struct Session {
    pools: FxHashMap<String, LoadedPool>,
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
            PoolRequest::LoadPool { id, text, dialect } => self.load(id, &text, dialect),
            PoolRequest::MatchWindow {
                jobs,
                machines,
                rows,
                cols,
                mode,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => window(j, m, rows, cols, opts(mode, None, None)),
                Err(e) => e,
            },
            PoolRequest::Pair {
                jobs,
                machines,
                job,
                machine,
                mode,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => pair(j, m, job, machine, opts(mode, None, None)),
                Err(e) => e,
            },
            PoolRequest::Negotiate {
                jobs,
                machines,
                autocluster,
                detail,
                mode,
                now,
                tz_offset,
            } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => {
                    let mut cfg = NegotiationConfig {
                        opts: opts(mode, now, tz_offset),
                        detail,
                        ..Default::default()
                    };
                    if !autocluster {
                        cfg.autocluster = None;
                    }
                    cfg.functions = j.functions.clone().or_else(|| m.functions.clone());
                    let cycle = negotiate::negotiate(&j.ads, &m.ads, &cfg, |d, t| progress(d, t));
                    let augmented = negotiate::augment(&cycle, &j.ads, &m.ads, cfg.opts);
                    PoolResponse::Cycle {
                        cycle,
                        augmented,
                        job_labels: j.labels.clone(),
                        machine_labels: m.labels.clone(),
                    }
                }
                Err(e) => e,
            },
            PoolRequest::Autocluster { jobs, machines } => match self.pair_of(&jobs, &machines) {
                Ok((j, m)) => {
                    let cfg = NegotiationConfig::default();
                    let mref: Vec<&ClassAd> = m.ads.iter().map(|a| &**a).collect();
                    let sig = autocluster::significant_attributes(&mref, &cfg.docking_vector);
                    let jref: Vec<&ClassAd> = j.ads.iter().map(|a| &**a).collect();
                    PoolResponse::Clusters {
                        clustering: autocluster::cluster(
                            &jref,
                            &sig,
                            &AutoclusterConfig::default(),
                        ),
                        job_labels: j.labels.clone(),
                    }
                }
                Err(e) => e,
            },
        }
    }

    fn load(&mut self, id: String, text: &str, dialect: Dialect) -> PoolResponse {
        let pool = formats::read_pool(text, InputFormat::Auto, dialect);
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

    fn pair_of(
        &self,
        jobs: &str,
        machines: &str,
    ) -> Result<(&LoadedPool, &LoadedPool), PoolResponse> {
        let get = |id: &str| {
            self.pools.get(id).ok_or_else(|| PoolResponse::Failed {
                message: format!("pool `{id}` is not loaded"),
            })
        };
        Ok((get(jobs)?, get(machines)?))
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
    let mut ev = Evaluator::new(o);
    ev.set_user_functions(j.functions.clone().or_else(|| m.functions.clone()));
    let n = rows.1.saturating_sub(rows.0) * cols.1.saturating_sub(cols.0);
    let (mut cells, mut jr, mut mr) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for job in &j.ads[rows.0..rows.1] {
        for machine in &m.ads[cols.0..cols.1] {
            let ja = requirements_value(&mut ev, job, machine, DEFAULT_REQUIREMENTS).is_true();
            let ma = requirements_value(&mut ev, machine, job, DEFAULT_REQUIREMENTS).is_true();
            cells.push((!ja as u8) | ((!ma as u8) << 1));
            jr.push(rank_text(&mut ev, job, machine));
            mr.push(rank_text(&mut ev, machine, job));
        }
    }
    PoolResponse::Window {
        rows,
        cols,
        cells,
        job_ranks: jr,
        machine_ranks: mr,
    }
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
    let job_requirements = traced(ja, ma);
    let machine_requirements = traced(ma, ja);
    PoolResponse::Pair {
        job_label: j.labels[job].clone(),
        machine_label: m.labels[machine].clone(),
        job_requirements,
        machine_requirements,
        job_rank: rank_text(&mut ev, ja, ma),
        machine_rank: rank_text(&mut ev, ma, ja),
    }
}

/// JSON in, JSON out, for pool requests (the worker's entry point).
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
