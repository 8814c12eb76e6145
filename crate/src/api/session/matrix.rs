//! The match matrix's requests: tiles, mutual counts, one pair's detail,
//! and the stateless `Match` (one job against one machine).

use crate::api::Response;
use crate::lang::ast::Span;
use crate::lang::diagnostic::Diagnostic;
use crate::lang::eval::EvalOptions;
use crate::lang::lexer::Dialect;
use crate::matchmaking::matrix;

use super::pools::{PoolPair, Pools};
use super::protocol::{PairView, PoolLoaded};
use super::PoolResponse;

/// The contiguous window `rows` × `cols` (clipped to the pools).
pub(super) fn window(
    p: PoolPair,
    rows: (usize, usize),
    cols: (usize, usize),
    context: EvalOptions,
) -> PoolResponse {
    let (nj, nm) = (p.jobs.ads.len(), p.machines.ads.len());
    let rows = (rows.0.min(nj), rows.1.min(nj));
    let cols = (cols.0.min(nm), cols.1.min(nm));
    let r: Vec<usize> = (rows.0..rows.1.max(rows.0)).collect();
    let c: Vec<usize> = (cols.0..cols.1.max(cols.0)).collect();
    let t = tile(&p, &r, &c, context);
    PoolResponse::Window {
        rows,
        cols,
        cells: t.cells,
        job_ranks: t.job_ranks,
        machine_ranks: t.machine_ranks,
    }
}

/// Chosen rows × chosen columns (a sorted or filtered matrix's window).
pub(super) fn tile(
    p: &PoolPair,
    rows: &[usize],
    cols: &[usize],
    context: EvalOptions,
) -> matrix::Tile {
    let mode = context.mode;
    let mut ev = p.evaluator(context);
    matrix::tile(
        p.jobs.compiled(mode),
        p.machines.compiled(mode),
        rows,
        cols,
        &mut ev,
    )
}

pub(super) fn counts(
    p: PoolPair,
    context: EvalOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> PoolResponse {
    let mode = context.mode;
    let mut ev = p.evaluator(context);
    PoolResponse::Counts(matrix::mutual_counts(
        p.jobs.compiled(mode),
        p.machines.compiled(mode),
        &mut ev,
        progress,
    ))
}

/// Job `job` and machine `machine`: both Requirements traced, both Ranks.
pub(super) fn pair(p: PoolPair, job: usize, machine: usize, context: EvalOptions) -> PoolResponse {
    let (Some(ja), Some(ma)) = (p.jobs.ads.get(job), p.machines.ads.get(machine)) else {
        return PoolResponse::Failed {
            message: "no such job or machine".into(),
        };
    };
    let d = matrix::pair_detail(ja, ma, &mut p.evaluator(context));
    PoolResponse::Pair(Box::new(PairView {
        job_label: p.jobs.labels_of([job]).remove(0),
        machine_label: p.machines.labels_of([machine]).remove(0),
        job_requirements: d.job_requirements,
        machine_requirements: d.machine_requirements,
        job_rank: d.job_rank,
        machine_rank: d.machine_rank,
        job_attributes: d.job_attributes,
        machine_attributes: d.machine_attributes,
    }))
}

/// The stateless `Match` request: the job's and the machine's texts are
/// loaded as one-ad pools and answered as the matrix answers their cell
/// (who accepts whom) and its pair detail. `which` in a failure names the
/// text at fault (`job`, `machine`).
pub(crate) fn match_one(
    job: &str,
    machine: &str,
    context: EvalOptions,
    dialect: Dialect,
) -> Response {
    let mut pools = Pools::default();
    let failed = |which: &str, diagnostics| Response::Failed {
        which: which.into(),
        diagnostics,
    };
    for (id, text) in [("job", job), ("machine", machine)] {
        if let PoolResponse::Loaded(PoolLoaded {
            ads, diagnostics, ..
        }) = pools.load(id.into(), text.to_string(), dialect)
        {
            if diagnostics.iter().any(Diagnostic::is_error) {
                return failed(id, diagnostics);
            }
            if ads != 1 {
                let message = format!("expected one {id} ad, found {ads}");
                return failed(id, vec![Diagnostic::new(Span::NONE, message)]);
            }
        }
    }
    let p = match pools.pair("job", "machine") {
        Ok(p) => p,
        Err(e) => {
            let message = format!("pool `{}` is not loaded", e.0);
            return failed("request", vec![Diagnostic::new(Span::NONE, message)]);
        }
    };
    let cell = tile(&p, &[0], &[0], context)
        .cells
        .first()
        .copied()
        .unwrap_or(3);
    let d = matrix::pair_detail(
        &p.jobs.ads[0],
        &p.machines.ads[0],
        &mut p.evaluator(context),
    );
    Response::Match {
        job_accepts: cell & 1 == 0,
        machine_accepts: cell & 2 == 0,
        job_requirements: d.job_requirements,
        machine_requirements: d.machine_requirements,
        job_rank: d.job_rank,
        machine_rank: d.machine_rank,
    }
}
