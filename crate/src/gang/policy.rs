//! Administrative policy (thesis §3.2.4): the **root ordering** expression
//! sequences the requests, and the **docking vector** picks among the
//! candidates compatible with a port.
//!
//! The docking vector's components are evaluated in the port being filled,
//! with the candidate docked: `self` is the port, and `label` — the port's
//! own `Label` attribute, which evaluates to the docked counterpart — names
//! the candidate (Figure 9: `label.RemoteUser is undefined ? 2 : …`). For
//! an ad without ports, `label` is read as `other`. Each component is put in
//! every port as an attribute `_dv_0`, `_dv_1`, … so it is evaluated there,
//! with the port's scope, exactly as the port's own Rank is.

use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind, Name, Span};
use crate::lang::eval::{EvalOptions, Evaluator};

use super::model::GangAd;

/// `label` → `other` (an ad without ports has no `Label` attribute).
fn label_as_other(e: &Expr, depth: u32) -> Expr {
    if depth > 400 {
        return e.clone();
    }
    let kind = match &e.kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } if name.is("label") => ExprKind::Attr {
            name: Name::new("other"),
            absolute: false,
        },
        ExprKind::Select(b, n) => {
            ExprKind::Select(Box::new(label_as_other(b, depth + 1)), n.clone())
        }
        ExprKind::Index(a, b) => ExprKind::Index(
            Box::new(label_as_other(a, depth + 1)),
            Box::new(label_as_other(b, depth + 1)),
        ),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(label_as_other(a, depth + 1))),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(
            *op,
            Box::new(label_as_other(a, depth + 1)),
            Box::new(label_as_other(b, depth + 1)),
        ),
        ExprKind::Cond(c, a, b) => ExprKind::Cond(
            Box::new(label_as_other(c, depth + 1)),
            Box::new(label_as_other(a, depth + 1)),
            Box::new(label_as_other(b, depth + 1)),
        ),
        ExprKind::Elvis(a, b) => ExprKind::Elvis(
            Box::new(label_as_other(a, depth + 1)),
            Box::new(label_as_other(b, depth + 1)),
        ),
        ExprKind::Paren(a) => ExprKind::Paren(Box::new(label_as_other(a, depth + 1))),
        ExprKind::Call(c) => {
            let mut c = c.clone();
            c.args = c
                .args
                .iter()
                .map(|a| label_as_other(a, depth + 1))
                .collect();
            ExprKind::Call(c)
        }
        ExprKind::List(items) => {
            ExprKind::List(items.iter().map(|a| label_as_other(a, depth + 1)).collect())
        }
        _ => return e.clone(),
    };
    Expr::new(kind, e.span)
}

/// `g` with the docking vector's components in every port.
pub fn with_docking_vector(g: &GangAd, vector: &[Expr]) -> GangAd {
    if g.implicit {
        let mut ad = (*g.ad).clone();
        for (i, e) in vector.iter().enumerate() {
            ad.insert(&format!("_dv_{i}"), label_as_other(e, 0));
        }
        return GangAd {
            ad: Arc::new(ad),
            ports: g.ports.clone(),
            implicit: true,
            records: Vec::new(),
        };
    }
    let records: Vec<Arc<ClassAd>> = g
        .records
        .iter()
        .map(|r| {
            let mut r = (**r).clone();
            for (i, e) in vector.iter().enumerate() {
                r.insert(&format!("_dv_{i}"), e.clone());
            }
            Arc::new(r)
        })
        .collect();
    let mut ad = (*g.ad).clone();
    let list = records
        .iter()
        .map(|r| Expr::new(ExprKind::Record(r.clone()), Span::NONE))
        .collect();
    ad.insert("Ports", Expr::new(ExprKind::List(list), Span::NONE));
    GangAd {
        ad: Arc::new(ad),
        ports: g.ports.clone(),
        implicit: false,
        records,
    }
}

/// The requests in root order by `expr`, evaluated with each request as
/// MY: the largest value first; a value that is not a number last; ties in
/// file order.
pub fn root_order_by(requests: &[Arc<ClassAd>], expr: &Expr, eval: EvalOptions) -> Vec<usize> {
    let mut ev = Evaluator::new(eval);
    let keys: Vec<Option<f64>> = requests
        .iter()
        .map(|r| {
            ev.set_ads(Some(r.clone()), None);
            ev.eval_expr(expr).as_number().filter(|x| !x.is_nan())
        })
        .collect();
    let mut order: Vec<usize> = (0..requests.len()).collect();
    order.sort_by(|&a, &b| match (keys[a], keys[b]) {
        (Some(x), Some(y)) => crate::lang::value::rank_cmp(y, x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    order
}
