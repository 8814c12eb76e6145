//! Specialization (partial evaluation, thesis §2.6.1): rewrite an
//! expression given what is known — the attributes of its own ad and,
//! optionally, of a target — folding everything that can be decided and
//! leaving the rest as expressions over the unknown attributes.
//!
//! The rewrite is sound: evaluating the specialized expression in any
//! completion of the context gives the same value as the original.

use std::collections::HashSet;
use std::sync::Arc;

use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Name};
use crate::lang::eval::{ops, EvalOptions, Evaluator};
use crate::lang::mode::Mode;
use crate::lang::value::Value;

/// What is known while specializing.
pub struct SpecContext {
    pub my: Arc<ClassAd>,
    pub target: Option<Arc<ClassAd>>,
    pub opts: EvalOptions,
}

/// Functions whose value depends on more than their arguments.
const IMPURE: &[&str] = &[
    "time",
    "currenttime",
    "random",
    "daytime",
    "debug",
    "eval",
    "unparse",
    "unresolved",
];

pub fn specialize(e: &Expr, ctx: &SpecContext) -> Expr {
    let mut s = Specializer {
        ctx,
        ev: Evaluator::new(ctx.opts),
        active: HashSet::new(),
        inlined: Vec::new(),
        budget: MAX_INLINED_NODES,
    };
    s.ev.set_ads(Some(ctx.my.clone()), ctx.target.clone());
    s.spec(e, 0)
}

struct Specializer<'a> {
    ctx: &'a SpecContext,
    ev: Evaluator,
    /// Attributes being inlined (cycle guard).
    active: HashSet<(bool, Arc<str>)>,
    /// Attributes of MY already specialized: each is done once, however
    /// often it is referred to. (A few per expression: a list is cheaper
    /// than a map to build.)
    inlined: Vec<(Arc<str>, Expr)>,
    /// Expression nodes that inlining may still copy in again (see
    /// [`MAX_INLINED_NODES`]): an attribute's first inlining is bounded by
    /// the ad's text, its copies are what can grow.
    budget: usize,
}

/// The most expression nodes inlining copies into one specialized
/// expression. Attributes that refer to others twice (`A1 = A0 + A0;
/// A2 = A1 + A1; …`) would otherwise grow it exponentially: past the
/// bound a reference is left as it is, which is sound (it evaluates to the
/// same), only less folded.
const MAX_INLINED_NODES: usize = 100_000;

/// The nodes of `e`, counted up to `cap`.
fn nodes_up_to(e: &Expr, cap: usize) -> usize {
    let mut n = 1;
    for c in e.children() {
        if n >= cap {
            break;
        }
        n += nodes_up_to(c, cap - n);
    }
    n
}

fn lit(v: Value, like: &Expr) -> Expr {
    Expr::new(ExprKind::Literal(v), like.span)
}

const MAX_SPEC_DEPTH: u32 = 500;

impl Specializer<'_> {
    fn spec(&mut self, e: &Expr, depth: u32) -> Expr {
        if depth > MAX_SPEC_DEPTH {
            return e.clone();
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Literal(_) | ExprKind::Record(_) => e.clone(),
            ExprKind::Attr { name, absolute } => {
                if *absolute {
                    return self.resolve(false, name, e, d).unwrap_or_else(|| e.clone());
                }
                if let Some(x) = self.resolve(false, name, e, d) {
                    return x;
                }
                if self.ctx.opts.mode == Mode::HTCondor && !is_scope_word(name) {
                    if let Some(x) = self.resolve(true, name, e, d) {
                        return x;
                    }
                }
                e.clone()
            }
            ExprKind::Select(base, name) => {
                if let ExprKind::Attr {
                    name: b,
                    absolute: false,
                } = &base.kind
                {
                    if b.is("my") || b.is("self") {
                        return self.resolve(false, name, e, d).unwrap_or_else(|| e.clone());
                    }
                    if b.is("target") || b.is("other") {
                        return self.resolve(true, name, e, d).unwrap_or_else(|| e.clone());
                    }
                }
                let sb = self.spec(base, d);
                self.fold(Expr::new(
                    ExprKind::Select(Box::new(sb), name.clone()),
                    e.span,
                ))
            }
            ExprKind::Index(a, b) => {
                let (sa, sb) = (self.spec(a, d), self.spec(b, d));
                self.fold(Expr::new(
                    ExprKind::Index(Box::new(sa), Box::new(sb)),
                    e.span,
                ))
            }
            ExprKind::Unary(op, a) => {
                let sa = self.spec(a, d);
                if let Some(v) = sa.as_literal() {
                    return lit(ops::unary(*op, v.clone()), e);
                }
                Expr::new(ExprKind::Unary(*op, Box::new(sa)), e.span)
            }
            ExprKind::Binary(op, a, b) => {
                let sa = self.spec(a, d);
                if matches!(op, BinaryOp::And | BinaryOp::Or) {
                    if let Some(v) = sa.as_literal() {
                        if let Some(r) = ops::logic_short_circuit(*op, v) {
                            return lit(r, e);
                        }
                    }
                }
                let sb = self.spec(b, d);
                if let (Some(x), Some(y)) = (sa.as_literal(), sb.as_literal()) {
                    return lit(ops::binary(*op, x, y), e);
                }
                flatten_binary(*op, sa, sb, e)
            }
            ExprKind::Cond(c, a, b) => {
                let sc = self.spec(c, d);
                if let Some(v) = sc.as_literal() {
                    return match ops::truth(v) {
                        ops::Truth::True => self.spec(a, d),
                        ops::Truth::False => self.spec(b, d),
                        ops::Truth::Undefined => lit(Value::Undefined, e),
                        ops::Truth::Error => lit(Value::Error, e),
                    };
                }
                let (sa, sb) = (self.spec(a, d), self.spec(b, d));
                Expr::new(
                    ExprKind::Cond(Box::new(sc), Box::new(sa), Box::new(sb)),
                    e.span,
                )
            }
            ExprKind::Elvis(a, b) => {
                let sa = self.spec(a, d);
                if let Some(v) = sa.as_literal() {
                    return if v.is_undefined() {
                        self.spec(b, d)
                    } else {
                        sa
                    };
                }
                let sb = self.spec(b, d);
                Expr::new(ExprKind::Elvis(Box::new(sa), Box::new(sb)), e.span)
            }
            ExprKind::Paren(a) => {
                let sa = self.spec(a, d);
                if sa.as_literal().is_some() {
                    return sa;
                }
                Expr::new(ExprKind::Paren(Box::new(sa)), e.span)
            }
            ExprKind::Call(c) => {
                let args: Vec<Expr> = c.args.iter().map(|a| self.spec(a, d)).collect();
                let call = Expr::new(
                    ExprKind::Call(crate::lang::ast::Call {
                        name: c.name.clone(),
                        func: c.func,
                        args,
                    }),
                    e.span,
                );
                let pure = !IMPURE.contains(&c.name.to_ascii_lowercase().as_str());
                let closed = match &call.kind {
                    ExprKind::Call(c) => c.args.iter().all(|a| a.as_literal().is_some()),
                    _ => false,
                };
                if pure && closed && c.func.is_some() {
                    let v = self.ev.eval_expr(&call);
                    // A relative-time literal would evaluate to a real;
                    // keep the call that computes a relative time.
                    if !matches!(v, Value::RelTime(_)) {
                        return lit(v, e);
                    }
                }
                call
            }
            ExprKind::List(items) => {
                let items: Vec<Expr> = items.iter().map(|a| self.spec(a, d)).collect();
                Expr::new(ExprKind::List(items.into()), e.span)
            }
        }
    }

    /// Fold a node whose operands are all literal by evaluating it.
    fn fold(&mut self, e: Expr) -> Expr {
        let closed = e.children().iter().all(|c| c.as_literal().is_some());
        if closed {
            let v = self.ev.eval_expr(&e);
            return lit(v, &e);
        }
        e
    }

    /// Replace a reference to an attribute of `my` (or the target) by its
    /// specialized definition: a literal when it folds completely,
    /// otherwise the parenthesized expression.
    fn resolve(&mut self, in_target: bool, name: &Name, at: &Expr, depth: u32) -> Option<Expr> {
        let ad = if in_target {
            self.ctx.target.clone()?
        } else {
            self.ctx.my.clone()
        };
        let def = ad.get(&name.key)?;
        if in_target {
            // The target's attributes are evaluated in the target's scope;
            // only fully known values are substituted.
            let mut ev = Evaluator::new(self.ctx.opts);
            ev.set_ads(Some(ad.clone()), Some(self.ctx.my.clone()));
            let v = ev.eval_expr(def);
            return if v.is_undefined() {
                None
            } else {
                Some(lit(v, at))
            };
        }
        let done = self.inlined.iter().find(|(k, _)| *k == name.key);
        let s = match done.map(|(_, s)| s) {
            Some(s) => {
                let size = nodes_up_to(s, self.budget + 1);
                if size > self.budget {
                    self.budget = 0;
                    return None;
                }
                self.budget -= size;
                s.clone()
            }
            None => {
                let key = (in_target, name.key.clone());
                if !self.active.insert(key.clone()) {
                    return None;
                }
                let s = self.spec(def, depth);
                self.active.remove(&key);
                self.inlined.push((name.key.clone(), s.clone()));
                s
            }
        };
        Some(match s.kind {
            ExprKind::Literal(_) | ExprKind::Attr { .. } | ExprKind::Paren(_) => {
                Expr::new(s.kind, at.span)
            }
            _ => Expr::new(ExprKind::Paren(Box::new(s)), at.span),
        })
    }
}

fn is_scope_word(n: &Name) -> bool {
    matches!(
        &*n.key,
        "self" | "my" | "parent" | "root" | "toplevel" | "target" | "other"
    )
}

/// libclassad's Flatten rules for a binary node with an unknown side, as
/// the thesis describes them (§2.6.1): the identity of `&&` / `||` drops
/// out (`true && x` is `x`), and constants of `+` / `*` chains are
/// aggregated (`3 + a + 7` is `10 + a`).
fn flatten_binary(op: BinaryOp, a: Expr, b: Expr, at: &Expr) -> Expr {
    let is = |x: &Expr, v: bool| matches!(x.as_literal(), Some(Value::Bool(b)) if *b == v);
    match op {
        BinaryOp::And if is(&a, true) => return b,
        BinaryOp::And if is(&b, true) => return a,
        BinaryOp::Or if is(&a, false) => return b,
        BinaryOp::Or if is(&b, false) => return a,
        BinaryOp::Add | BinaryOp::Mul => {
            let numeric = |v: &Value| matches!(v, Value::Int(_) | Value::Real(_));
            if let (ExprKind::Binary(inner, x, y), Some(c2)) = (&a.kind, b.as_literal()) {
                if *inner == op && numeric(c2) {
                    if let Some(c1) = x.as_literal().filter(|v| numeric(v)) {
                        // (c1 op y) op c2  =  (c1 op c2) op y
                        let c = ops::binary(op, c1, c2);
                        return Expr::new(
                            ExprKind::Binary(op, Box::new(lit(c, x)), y.clone()),
                            at.span,
                        );
                    }
                }
            }
        }
        _ => {}
    }
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), at.span)
}
