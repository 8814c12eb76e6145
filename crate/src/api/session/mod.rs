//! A stateful front for the API: pools are parsed once and kept by id, so
//! the playground's worker can answer match-matrix windows, negotiation
//! cycles and auto-clustering over 10,000-ad pools without re-reading them.
//! Stateless requests are passed to [`crate::api::handle`].
//!
//! The requests and answers are in `protocol`; each subject answers its
//! requests in a module of its own.

mod cycle_view;
mod matrix;
mod negotiation;
mod pools;
mod protocol;
mod queries;

use crate::api::{self, Request, Response};
use crate::lang::eval::EvalOptions;
use crate::matchmaking::negotiate;

pub use crate::matchmaking::claims::{Preemption, PreemptionKind};
pub use crate::matchmaking::matrix::{MutualCounts, Tile};
pub use crate::matchmaking::negotiate::Candidate as CycleCandidate;
/// HTCondor's negotiator knobs with their defaults (the page's settings).
pub use crate::policy::htcondor::{Knobs as NegotiatorKnobs, KNOB_NAMES};
pub use cycle_view::{CycleOutcome, CycleView};
pub(crate) use matrix::match_one;
pub use protocol::{
    ClusterView, HTCondorChoice, JobCount, PairView, PoolLoaded, PoolRequest, PoolResponse,
    ReverseView, Unanswered, UnansweredKind,
};

/// How a pair of ads fare in the matrix.
pub use crate::matchmaking::matrix::Cell;
/// Past this many job × machine pairs a cycle does not count every matched
/// job's candidates (the views say so).
pub use crate::matchmaking::negotiate::COUNT_CANDIDATES_UP_TO;

pub use crate::analysis::busy::Busy;
pub use crate::analysis::nobody::JobChange;
pub use crate::analysis::rejections::{Offered, Rejection, ValueOption};
pub use crate::analysis::submit_fixes::{
    apply as apply_line_edits, LineEdit, SubmitFix, SubmitFixes, Undone,
};
/// The analyzer's request and answer, as the session carries them.
pub use crate::analysis::suggest::{Action, Change, Suggestion};
pub use crate::analysis::summary::{MachineCounts, Summary};
pub use crate::analysis::view::{
    AnalysisView, AnalyzeRequest, AxisSpan, LatticeGrid, LatticeMark, Plane, PlaneCell, LATTICE_MAX,
};
pub use crate::analysis::{Analysis, ClauseReport, Conflict, PredicateReport, Succeeding};
/// Gangmatching's requests and answers, as the session carries them.
pub use crate::gang::steps::Step as GangStep;
pub use crate::gang::view::{
    CompareRequest, CompareRow, DockingDetail, GangDetail, GangRequest, GangRow, GangView,
    IndexView, IndexedDimension, IndexedPort,
};
pub use crate::gang::{
    AdRef as GangAdRef, Algorithm as GangAlgorithm, Counters as GangCounters, Gang,
};
/// A submit file with what it is run on (the page's submit requests).
pub use crate::submit::SubmitSource;

#[derive(Default)]
pub struct Session {
    pools: pools::Pools,
    last_query: queries::LastQuery,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// Stateless requests, answered as [`api::handle`] does.
    pub fn handle(&mut self, req: Request) -> Response {
        api::handle(req)
    }

    /// A request about the session's pools; `progress(done, total)` is
    /// told how long work goes and stops it when it says false, and then
    /// the answer is `Stopped`, whatever the work had done.
    pub fn handle_pool(
        &mut self,
        req: PoolRequest,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> PoolResponse {
        let mut stopped = false;
        let answer = {
            let mut watched = |done: usize, total: usize| {
                let go = progress(done, total);
                stopped |= !go;
                go
            };
            self.answer(req, &mut watched)
        };
        match answer {
            _ if stopped => PoolResponse::Stopped,
            Ok(a) => a,
            Err(not_loaded) => not_loaded.into(),
        }
    }

    /// The answer, or the pool a request names that is not loaded.
    fn answer(
        &mut self,
        req: PoolRequest,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<PoolResponse, pools::NotLoaded> {
        let pools = &self.pools;
        Ok(match req {
            PoolRequest::LoadPool { id, text, dialect } => self.pools.load(id, text, dialect),
            PoolRequest::MatchWindow {
                jobs,
                machines,
                rows,
                cols,
                context,
            } => matrix::window(pools.pair(&jobs, &machines)?, rows, cols, context),
            PoolRequest::MatchCells {
                jobs,
                machines,
                rows,
                cols,
                context,
            } => PoolResponse::Cells(matrix::tile(
                &pools.pair(&jobs, &machines)?,
                &rows,
                &cols,
                context,
            )),
            PoolRequest::MatchCounts {
                jobs,
                machines,
                context,
            } => matrix::counts(pools.pair(&jobs, &machines)?, context, progress),
            PoolRequest::Pair {
                jobs,
                machines,
                job,
                machine,
                context,
            } => matrix::pair(pools.pair(&jobs, &machines)?, job, machine, context),
            PoolRequest::Negotiate {
                jobs,
                machines,
                autocluster,
                detail,
                detail_jobs,
                htcondor,
                context,
            } => {
                let ask = negotiation::CycleAsk {
                    autocluster,
                    detail,
                    detail_jobs,
                    htcondor,
                    context,
                };
                negotiation::cycle(pools.pair(&jobs, &machines)?, ask, progress)
            }
            PoolRequest::Candidates {
                jobs,
                machines,
                job,
                taken,
                context,
            } => negotiation::count_for_job(
                pools.pair(&jobs, &machines)?,
                job,
                context,
                |ad, m, cfg| negotiate::candidates_at_turn(ad, m, cfg, &taken),
            ),
            PoolRequest::Compatible {
                jobs,
                machines,
                job,
                context,
            } => negotiation::count_for_job(
                pools.pair(&jobs, &machines)?,
                job,
                context,
                negotiate::compatible_machines,
            ),
            PoolRequest::Autocluster { jobs, machines } => {
                negotiation::clusters(pools.pair(&jobs, &machines)?)
            }
            PoolRequest::Analyze(req) => {
                let p = pools.pair(&req.jobs, &req.machines)?;
                let compiled = Some(p.machines.compiled(req.eval.mode));
                let answer = crate::analysis::view::answer(
                    &p.jobs.ads,
                    &p.machines.ads,
                    compiled,
                    &req,
                    progress,
                );
                match answer {
                    Ok(view) => PoolResponse::Analysis(Box::new(view)),
                    Err(e) => PoolResponse::Failed {
                        message: e.to_string(),
                    },
                }
            }
            PoolRequest::Reverse {
                jobs,
                machines,
                machine,
                all_steps,
                context,
            } => reverse(pools.pair(&jobs, &machines)?, machine, all_steps, context),
            PoolRequest::Gang(req) => {
                let p = pools.pair(&req.requests, &req.offers)?;
                let eval = EvalOptions::in_mode(req.mode);
                let run =
                    crate::gang::view::run(&p.jobs.ads, &p.machines.ads, &req, eval, progress);
                match run {
                    Ok(view) => PoolResponse::Gangs(Box::new(view)),
                    Err(e) => PoolResponse::Failed {
                        message: e.to_string(),
                    },
                }
            }
            PoolRequest::GangDetail {
                requests,
                offers,
                gang,
                context,
            } => {
                let p = pools.pair(&requests, &offers)?;
                let detail =
                    crate::gang::view::detail(&p.jobs.ads, &p.machines.ads, &gang, context);
                match detail {
                    Ok(d) => PoolResponse::GangDetail(Box::new(d)),
                    Err(e) => PoolResponse::Failed {
                        message: e.to_string(),
                    },
                }
            }
            PoolRequest::GangIndex { offers, context } => PoolResponse::GangIndex(Box::new(
                crate::gang::view::inspect(&pools.pool(&offers)?.ads, context),
            )),
            PoolRequest::GangCompare { compare, context } => {
                match crate::gang::view::compare(&compare, context, progress) {
                    Ok(rows) => PoolResponse::GangComparison { rows },
                    Err(e) => PoolResponse::Failed {
                        message: e.to_string(),
                    },
                }
            }
            PoolRequest::Query {
                pool,
                spec,
                context,
            } => queries::query(
                &self.pools,
                &mut self.last_query,
                pool,
                &spec,
                context,
                progress,
            ),
            PoolRequest::QueryPage { from, to, typed } => {
                queries::page(pools, &self.last_query, from, to, typed)
            }
            PoolRequest::QueryExplain {
                pool,
                ad,
                constraint,
                context,
                dialect,
            } => queries::explain(pools, &pool, ad, &constraint, context, dialect),
        })
    }
}

/// One machine's requirements step by step over the jobs.
fn reverse(
    p: pools::PoolPair,
    machine: usize,
    all_steps: bool,
    context: EvalOptions,
) -> PoolResponse {
    use crate::analysis::{reverse, steps::StepOptions};
    let Some(ad) = p.machines.ads.get(machine) else {
        return PoolResponse::Failed {
            message: format!(
                "there is no machine {} (the pool has {} ads)",
                machine + 1,
                p.machines.ads.len()
            ),
        };
    };
    let so = StepOptions {
        prune: !all_steps,
        opts: context,
    };
    match reverse::reverse_nth(ad, machine + 1, &p.jobs.ads, &so) {
        Ok(r) => PoolResponse::Reverse(Box::new(ReverseView {
            report: reverse::render_reverse(&r),
            reverse: r,
        })),
        Err(e) => PoolResponse::Failed {
            message: e.to_string(),
        },
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
    serde_json::to_string(&resp).unwrap_or_else(|e| {
        // Written by serde too, so the message is escaped.
        let failed = PoolResponse::Failed {
            message: format!("the answer could not be written: {e}"),
        };
        serde_json::to_string(&failed).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests;
