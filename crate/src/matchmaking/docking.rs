//! The docking vector (thesis §3.2.4) compiled against one job, and how
//! vectors and sort keys compare: numbers (booleans among them) by value,
//! lexicographically; a vector with a component that is no number is not
//! one.

use std::cmp::Ordering;

use crate::lang::ast::Expr;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;
use crate::matchmaking::compiled::{CompiledAd, CompiledExpr};

/// Order of two sort-key values: numbers and strings compare (NaN below
/// every number, see [`rank_cmp`](crate::lang::value::rank_cmp)), anything
/// else sorts after them.
pub(super) fn key_cmp(a: &Value, b: &Value) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Int(_) | Value::Real(_) | Value::Bool(_) => 0,
        Value::Str(_) => 1,
        _ => 2,
    };
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => crate::lang::value::cmp_nocase(x, y),
        _ => match (a.as_ranking_number(), b.as_ranking_number()) {
            (Some(x), Some(y)) => crate::lang::value::rank_cmp(x, y),
            _ => rank(a).cmp(&rank(b)),
        },
    }
}

/// The docking vector compiled against one job.
pub(super) struct Docking(Vec<CompiledExpr>);

impl Docking {
    pub(super) fn new(job: &CompiledAd, vector: &[Expr], opts: EvalOptions) -> Docking {
        Docking(
            vector
                .iter()
                .map(|e| CompiledExpr::new(e, job, opts))
                .collect(),
        )
    }

    pub(super) fn components(&self) -> &[CompiledExpr] {
        &self.0
    }

    /// The vector of numbers, or `None` when a component is not one.
    pub(super) fn vector(
        &self,
        ev: &mut Evaluator,
        job: &CompiledAd,
        m: &CompiledAd,
    ) -> Option<Vec<Value>> {
        let mut out = Vec::with_capacity(self.0.len());
        self.vector_into(ev, job, m, &mut out).then_some(out)
    }

    /// [`Docking::vector`] into `out` (cleared first): whether it is one.
    pub(super) fn vector_into(
        &self,
        ev: &mut Evaluator,
        job: &CompiledAd,
        m: &CompiledAd,
        out: &mut Vec<Value>,
    ) -> bool {
        out.clear();
        for e in &self.0 {
            let v = e.eval(job, m, ev);
            if v.as_ranking_number().is_none() {
                return false;
            }
            out.push(v);
        }
        true
    }
}

pub(super) fn vector_cmp(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = key_cmp(x, y);
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}
