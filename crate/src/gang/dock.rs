//! The docking environment of the thesis' Figure 32, built literally as a
//! ClassAd: one `_ctx_i = [ <label> = _ctx_j._ad.Ports[k]; …; _ad = <ad i> ]`
//! per ad of the gang; each label names the docked counterpart's port (the
//! counterpart ad itself for an implicit port). A port's constraint is
//! evaluated as `_ctx_i._ad.Ports[p].Requirements` with the environment as
//! MY, so a lookup the port does not define climbs to its ad, then to its
//! context, where the labels live.

use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind, Name, Span};
use crate::lang::eval::Evaluator;
use crate::lang::value::Value;

use super::model::GangAd;

/// One ad in a (partial) gang: which ad, and per port the docked
/// counterpart `(node, port)`, if any.
#[derive(Clone, Debug)]
pub struct Node {
    pub ad: usize,
    pub bindings: Vec<Option<(usize, usize)>>,
}

/// The answer of a docking test (§5.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dock {
    Yes,
    /// Not `true` yet only because labels are not bound yet: re-checked once
    /// the gang is complete.
    Tentative,
    No,
}

fn ctx_name(i: usize) -> String {
    format!("_ctx_{i}")
}

/// The path from the environment to node `i`'s port `p`:
/// `_ctx_i._ad.Ports[p]`, or `_ctx_i._ad` for an implicit port (built
/// directly, not parsed: it is made for every label of every test).
fn port_path(ads: &[GangAd], nodes: &[Node], i: usize, p: usize) -> Expr {
    let e = |k| Expr::new(k, Span::NONE);
    let ctx = e(ExprKind::Attr {
        name: Name::new(&ctx_name(i)),
        absolute: false,
    });
    let ad = e(ExprKind::Select(Box::new(ctx), Name::new("_ad")));
    if ads[nodes[i].ad].implicit {
        ad
    } else {
        let ports = e(ExprKind::Select(Box::new(ad), Name::new("Ports")));
        e(ExprKind::Index(
            Box::new(ports),
            Box::new(Expr::literal(Value::Int(p as i64))),
        ))
    }
}

/// Build the environment of Figure 32. With `poison`, every unbound label
/// is bound to `error` (used to tell "undefined because a label is not
/// bound yet" from plain undefined).
pub fn build_env(ads: &[GangAd], nodes: &[Node], poison: bool) -> Arc<ClassAd> {
    let mut env = ClassAd::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let g = &ads[n.ad];
        let mut ctx = ClassAd::with_capacity(g.ports.len() + 2);
        for (p, port) in g.ports.iter().enumerate() {
            let bound = match n.bindings.get(p).copied().flatten() {
                Some((j, q)) if j < nodes.len() => Some(port_path(ads, nodes, j, q)),
                _ if poison => Some(Expr::literal(Value::Error)),
                _ => None,
            };
            if let Some(e) = bound {
                if g.implicit {
                    ctx.insert("other", e.clone());
                    ctx.insert("target", e);
                } else {
                    ctx.insert(&port.label, e);
                }
            }
        }
        ctx.insert("_ad", Expr::new(ExprKind::Record(g.ad.clone()), Span::NONE));
        env.insert(
            &ctx_name(i),
            Expr::new(ExprKind::Record(Arc::new(ctx)), Span::NONE),
        );
    }
    Arc::new(env)
}

/// The expression `_ctx_i._ad.Ports[p].<attr>` (or `_ctx_i._ad.<attr>`
/// for an implicit port).
pub fn port_attr_expr(ads: &[GangAd], nodes: &[Node], i: usize, p: usize, attr: &str) -> Expr {
    Expr::new(
        ExprKind::Select(Box::new(port_path(ads, nodes, i, p)), Name::new(attr)),
        Span::NONE,
    )
}

/// Evaluate attribute `attr` of node `i`'s port `p` in `env`.
pub fn eval_port_attr(
    ev: &mut Evaluator,
    env: &Arc<ClassAd>,
    ads: &[GangAd],
    nodes: &[Node],
    i: usize,
    p: usize,
    attr: &str,
) -> Value {
    let e = port_attr_expr(ads, nodes, i, p, attr);
    ev.set_ads(Some(env.clone()), None);
    ev.eval_expr(&e)
}

/// Evaluate the constraint of node `i`'s port `p` (undefined when it has
/// none); counts one evaluation.
pub fn constraint_value(
    ev: &mut Evaluator,
    env: &Arc<ClassAd>,
    ads: &[GangAd],
    nodes: &[Node],
    i: usize,
    p: usize,
    evaluations: &mut u64,
) -> Value {
    *evaluations += 1;
    match &ads[nodes[i].ad].ports[p].constraint_attr {
        Some(a) => eval_port_attr(ev, env, ads, nodes, i, p, a),
        None => Value::Undefined,
    }
}

/// Whether any node of the gang still has an unbound port.
pub fn incomplete(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| n.bindings.iter().any(Option::is_none))
}

/// Test the docking of node `i`'s port `p` with node `j`'s port `q` (both
/// already bound to each other in `nodes`): both constraints must be true;
/// a result that changes when the unbound labels are bound (to `error`) is a
/// tentative yes.
pub fn test_dock(
    ev: &mut Evaluator,
    ads: &[GangAd],
    nodes: &[Node],
    (i, p): (usize, usize),
    (j, q): (usize, usize),
    evaluations: &mut u64,
) -> Dock {
    let env = build_env(ads, nodes, false);
    let open = incomplete(nodes);
    let mut poisoned: Option<Arc<ClassAd>> = None;
    let mut answer = Dock::Yes;
    for (a, b) in [(i, p), (j, q)] {
        let v = constraint_value(ev, &env, ads, nodes, a, b, evaluations);
        if v.is_true() {
            continue;
        }
        if !open {
            return Dock::No;
        }
        let penv = poisoned.get_or_insert_with(|| build_env(ads, nodes, true));
        let w = constraint_value(ev, penv, ads, nodes, a, b, evaluations);
        if same(&v, &w) {
            return Dock::No;
        }
        answer = Dock::Tentative;
    }
    answer
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Undefined, Value::Undefined) | (Value::Error, Value::Error) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Real(x), Value::Real(y)) => x.to_bits() == y.to_bits(),
        (Value::Str(x), Value::Str(y)) => x == y,
        _ => false,
    }
}

/// Check a complete gang: every docked port's constraint is true.
pub fn verify(ev: &mut Evaluator, ads: &[GangAd], nodes: &[Node], evaluations: &mut u64) -> bool {
    let env = build_env(ads, nodes, false);
    for (i, n) in nodes.iter().enumerate() {
        for (p, b) in n.bindings.iter().enumerate() {
            if b.is_none() {
                return false;
            }
            if !constraint_value(ev, &env, ads, nodes, i, p, evaluations).is_true() {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gang::model::ports_of;
    use crate::lang::eval::EvalOptions;
    use crate::lang::parser::parse_classad;

    fn gad(s: &str) -> GangAd {
        ports_of(&Arc::new(parse_classad(s).unwrap())).unwrap()
    }

    #[test]
    fn figure_32_environment() {
        let ads = vec![
            gad("[ Ports = { [ Label = Cpu; ImageSize = 10; Constraint = cpu.VirtualMemory > ImageSize ], [ Label = License; HostId = cpu.Key; Constraint = License.App == \"app1\" ] } ]"),
            gad("[ Key = 90; VirtualMemory = 400; Memory = 800; Ports = { [ Label = Job; Constraint = Job.ImageSize < Memory ] } ]"),
            gad("[ App = \"app1\"; Ports = { [ Label = Job; Constraint = Job.HostId >= 50 && Job.HostId < 100 ] } ]"),
        ];
        let nodes = vec![
            Node {
                ad: 0,
                bindings: vec![Some((1, 0)), Some((2, 0))],
            },
            Node {
                ad: 1,
                bindings: vec![Some((0, 0))],
            },
            Node {
                ad: 2,
                bindings: vec![Some((0, 1))],
            },
        ];
        let mut ev = Evaluator::new(EvalOptions::default());
        let mut n = 0;
        assert!(verify(&mut ev, &ads, &nodes, &mut n));
        assert_eq!(n, 4);
        // The license before the cpu is bound: a tentative yes.
        let partial = vec![
            Node {
                ad: 0,
                bindings: vec![None, Some((1, 0))],
            },
            Node {
                ad: 2,
                bindings: vec![Some((0, 1))],
            },
        ];
        assert_eq!(
            test_dock(&mut ev, &ads, &partial, (0, 1), (1, 0), &mut n),
            Dock::Tentative
        );
    }

    #[test]
    fn implicit_ports_bind_other_and_target() {
        let ads = vec![
            gad("[ x = 1; Requirements = TARGET.y == 2 && other.y == 2 ]"),
            gad("[ y = 2; Requirements = other.x == 1 ]"),
        ];
        let nodes = vec![
            Node {
                ad: 0,
                bindings: vec![Some((1, 0))],
            },
            Node {
                ad: 1,
                bindings: vec![Some((0, 0))],
            },
        ];
        let mut ev = Evaluator::new(EvalOptions::default());
        let mut n = 0;
        assert_eq!(
            test_dock(&mut ev, &ads, &nodes, (0, 0), (1, 0), &mut n),
            Dock::Yes
        );
    }
}
