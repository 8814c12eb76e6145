//! Pool queries (condor_status -constraint): a query's first page, later
//! pages of the last query, and why one ad passed or failed.

use crate::lang::eval::EvalOptions;
use crate::query::view::{self, QueryRun, QuerySpec};

use super::pools::Pools;
use super::PoolResponse;

/// The last query's rows, and the pool they index.
pub(super) type LastQuery = Option<(String, QueryRun)>;

pub(super) fn query(
    pools: &Pools,
    last: &mut LastQuery,
    pool: String,
    spec: &QuerySpec,
    context: EvalOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> PoolResponse {
    let p = match pools.pool(&pool) {
        Ok(p) => p,
        Err(e) => return e.into(),
    };
    match view::run(&p.ads, spec, context, progress) {
        Ok(Some(run)) => {
            let answer = run.answer();
            let labels = p.labels_of(answer.page.iter().map(|r| r.ad));
            *last = Some((pool, run));
            PoolResponse::QueryResult { answer, labels }
        }
        Ok(None) => PoolResponse::Stopped,
        Err(e) => PoolResponse::QueryInvalid(*e),
    }
}

/// Rows `from..to` of the last query.
pub(super) fn page(
    pools: &Pools,
    last: &LastQuery,
    from: usize,
    to: usize,
    typed: bool,
) -> PoolResponse {
    let Some((pool, run)) = last else {
        return PoolResponse::Failed {
            message: "no query has run".into(),
        };
    };
    let rows = run.page(from, to, typed);
    let labels = pools
        .get(pool)
        .map(|p| p.labels_of(rows.iter().map(|r| r.ad)))
        .unwrap_or_default();
    PoolResponse::QueryRows { from, rows, labels }
}

pub(super) fn explain(
    pools: &Pools,
    pool: &str,
    ad: usize,
    constraint: &str,
    context: EvalOptions,
    dialect: crate::lang::lexer::Dialect,
) -> PoolResponse {
    let Some(a) = pools.get(pool).and_then(|p| p.ads.get(ad)) else {
        return PoolResponse::Failed {
            message: format!("ad {ad} of pool `{pool}` is not loaded"),
        };
    };
    match view::explain(a, constraint, context, dialect) {
        Ok(x) => PoolResponse::QueryExplained(Box::new(x)),
        Err(e) => PoolResponse::QueryInvalid(*e),
    }
}
