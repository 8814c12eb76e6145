//! `condor_q -better-analyze`'s step table (HTCondor's expr_analyze.cpp):
//! a Requirements expression walked as written (no DNF), every comparison
//! and every `&&`, `||`, `!`, `?:` numbered in post-order, each counted
//! over the target ads with the analysed ad as MY.
//!
//! A step's value is computed from its children's values with the
//! evaluator's own operators (`ops::logic`, `ops::unary`, `ops::truth`),
//! which is what evaluating the sub-expression gives, so one target costs
//! one pass over the tree instead of one evaluation per step.

use std::collections::HashSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{BinaryOp, Call, ClassAd, Expr, ExprKind, Name, Special, UnaryOp};
use crate::lang::eval::ops::{self, Truth};
use crate::lang::eval::{EvalOptions, Evaluator, Mode};
use crate::lang::value::Value;

/// Steps deeper than this are not numbered: the rest of the tree is one
/// step (bounds recursion on hostile or generated expressions).
pub const MAX_STEP_DEPTH: u32 = 200;

/// Levels of a step's sub-expression written into its text; deeper parts
/// print as `...` (each node then appears in at most this many texts).
const TEXT_DEPTH: u32 = 128;

/// Placeholder name for an elided sub-tree, replaced by `...` in texts.
const ELIDED: &str = "ELIDED_SUBTREE_7f3e2a";

#[derive(Clone, Copy, Debug)]
pub struct StepOptions {
    /// Hide steps that narrow nothing beyond their most selective child
    /// (better-analyze's default; `:noprune` shows all).
    pub prune: bool,
    pub opts: EvalOptions,
}

/// better-analyze's defaults: pruned, HTCondor mode, the system clock.
impl Default for StepOptions {
    fn default() -> Self {
        StepOptions {
            prune: true,
            opts: EvalOptions::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepKind {
    Comparison,
    And,
    Or,
    Not,
    Cond,
    /// A leaf that is not a comparison (call, bare attribute, literal), or
    /// a sub-tree below [`MAX_STEP_DEPTH`] counted as one step.
    Other,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// Post-order number, as better-analyze prints `[N]`.
    pub index: usize,
    /// The sub-expression as written (outer parentheses stripped).
    pub text: String,
    pub kind: StepKind,
    /// Sum of the weights of the targets that make the step true.
    pub matched: u64,
    /// `always`/`never` for a step that cannot depend on the target;
    /// `now`/`not now` when such a step also reads the clock.
    pub verdict: Option<String>,
    /// Pruned: an `&&` as selective as its most selective child, an `||`
    /// as wide as its widest one.
    pub hidden: bool,
    /// Nesting in the step tree (the root is 0).
    pub depth: u32,
    pub children: Vec<usize>,
}

/// A step being built; one with no children is evaluated directly.
struct Node<'a> {
    expr: &'a Expr,
    kind: StepKind,
    children: Vec<usize>,
    depth: u32,
    /// May depend on the target ad.
    target: bool,
    /// Reads the clock.
    clock: bool,
    /// Deeper than the parser accepts, where the evaluator's recursion is
    /// no longer bounded by the engine's promise: counted as `error`.
    too_deep: bool,
}

/// The step table of `requirements` evaluated with MY = `my` against each
/// target (weighted: a target stands for `w` identical ads). Sorted by index.
pub fn steps(
    requirements: &Expr,
    my: &Arc<ClassAd>,
    targets: &[(Arc<ClassAd>, u64)],
    o: &StepOptions,
) -> Vec<Step> {
    steps_inlined(requirements, my, targets, o, &[])
}

/// [`steps`] where a bare reference to one of `inline` (attributes of MY)
/// is analysed as its definition, as reverse analysis does for a slot's
/// `START` and `WithinResourceLimits`.
pub fn steps_inlined(
    requirements: &Expr,
    my: &Arc<ClassAd>,
    targets: &[(Arc<ClassAd>, u64)],
    o: &StepOptions,
    inline: &[&str],
) -> Vec<Step> {
    let target = |i: usize| (&targets[i].0, targets[i].1);
    count(requirements, my, targets.len(), &target, None, o, inline)
}

/// [`steps`] over a pool's groups (each group's representative, weighted
/// by its size), taking the values of attributes `tabled` holds from there
/// rather than looking them up in each ad again.
pub fn steps_grouped(
    requirements: &Expr,
    my: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    groups: &super::groups::Groups,
    tabled: Option<&super::group_values::GroupValues>,
    o: &StepOptions,
) -> Vec<Step> {
    let target = |g: usize| (&machines[groups.rep[g]], groups.weight[g]);
    count(requirements, my, groups.len(), &target, tabled, o, &[])
}

/// The steps counted over `n` targets (`target(i)`: the ad and its weight;
/// `tabled`, when given, has the targets' cells).
fn count<'t>(
    requirements: &Expr,
    my: &Arc<ClassAd>,
    n_targets: usize,
    target: &dyn Fn(usize) -> (&'t Arc<ClassAd>, u64),
    tabled: Option<&super::group_values::GroupValues>,
    o: &StepOptions,
    inline: &[&str],
) -> Vec<Step> {
    use super::group_values::Cell;
    let mut b = Builder {
        my: my.as_ref(),
        mode: o.opts.mode,
        inline,
        active: Vec::new(),
        nodes: Vec::new(),
    };
    b.build(requirements, 0);
    let nodes = b.nodes;
    let n = nodes.len();
    let total = (0..n_targets).fold(0u64, |s, t| s.saturating_add(target(t).1));
    let mut ev = Evaluator::new(o.opts);
    let mut vals = vec![Value::Undefined; n];
    // Target-free steps: one evaluation (any target gives the same value).
    ev.set_ads(
        Some(my.clone()),
        (n_targets > 0).then(|| target(0).0.clone()),
    );
    for i in 0..n {
        if !nodes[i].target {
            vals[i] = value_of(&nodes[i], &vals, &mut ev);
        }
    }
    // A leaf that specializes against MY to `attr OP literal` over the
    // target is worked out on the target's value of attr where that is a
    // literal (the operator code the evaluator runs; specialization is sound).
    let sides = crate::constraint::predicate::Sides {
        own: my,
        unscoped_is_other: o.opts.mode == Mode::HTCondor,
    };
    let fast: Vec<Option<crate::constraint::predicate::Predicate>> = nodes
        .iter()
        .map(|x| {
            if !x.target || !x.children.is_empty() || x.too_deep {
                return None;
            }
            let ctx = crate::lang::specialize::SpecContext {
                my: my.clone(),
                target: None,
                opts: o.opts,
            };
            crate::constraint::predicate::as_predicate(
                &crate::lang::specialize::specialize(x.expr, &ctx),
                &sides,
            )
        })
        .collect();
    let cells: Vec<Option<&[Cell]>> = fast
        .iter()
        .map(|p| tabled.zip(p.as_ref()).and_then(|(t, p)| t.column(&p.key)))
        .collect();
    let mut matched = vec![0u64; n];
    if nodes.iter().any(|x| x.target) {
        for k in 0..n_targets {
            let (t, w) = target(k);
            // The evaluator is pointed at the target only when some step
            // needs it (most leaves are worked out on a value).
            let mut set = false;
            for i in 0..n {
                if nodes[i].target {
                    let quick = fast[i]
                        .as_ref()
                        .and_then(|p| match cells[i].map(|c| &c[k]) {
                            Some(Cell::Absent) => Some(p.apply(&Value::Undefined)),
                            Some(Cell::Literal(v)) => Some(p.apply(v)),
                            Some(Cell::Computed) => None,
                            None => match t.position_name(&p.name) {
                                None => Some(p.apply(&Value::Undefined)),
                                Some(k) => t.at(k).1.as_literal().map(|v| p.apply(v)),
                            },
                        });
                    vals[i] = match quick {
                        Some(v) => v,
                        None => {
                            if !set {
                                ev.set_ads(Some(my.clone()), Some(t.clone()));
                                set = true;
                            }
                            value_of(&nodes[i], &vals, &mut ev)
                        }
                    };
                    if ops::truth(&vals[i]) == Truth::True {
                        matched[i] = matched[i].saturating_add(w);
                    }
                }
            }
        }
    }
    let mut out: Vec<Step> = Vec::with_capacity(n);
    for (i, node) in nodes.iter().enumerate() {
        let mut verdict = None;
        if !node.target {
            let yes = ops::truth(&vals[i]) == Truth::True;
            matched[i] = if yes { total } else { 0 };
            verdict = Some(
                match (node.clock, yes) {
                    (false, true) => "always",
                    (false, false) => "never",
                    (true, true) => "now",
                    (true, false) => "not now",
                }
                .to_string(),
            );
        }
        let hidden = o.prune
            && match (node.kind, node.children.as_slice()) {
                (StepKind::And, &[a, b]) => matched[i] == matched[a].min(matched[b]),
                (StepKind::Or, &[a, b]) => matched[i] == matched[a].max(matched[b]),
                _ => false,
            };
        out.push(Step {
            index: i,
            text: text_of(node.expr, TEXT_DEPTH),
            kind: node.kind,
            matched: matched[i],
            verdict,
            hidden,
            depth: node.depth,
            children: node.children.clone(),
        });
    }
    out
}

/// A step's value from its children's values (or by evaluation for a leaf).
fn value_of(node: &Node, vals: &[Value], ev: &mut Evaluator) -> Value {
    let child = |k: usize| node.children.get(k).and_then(|&c| vals.get(c));
    let undefined = Value::Undefined;
    match node.kind {
        _ if node.children.is_empty() && node.too_deep => Value::Error,
        _ if node.children.is_empty() => ev.eval_expr(node.expr),
        StepKind::And | StepKind::Or => {
            let op = if node.kind == StepKind::And {
                BinaryOp::And
            } else {
                BinaryOp::Or
            };
            let l = child(0).unwrap_or(&undefined);
            match ops::logic_short_circuit(op, l) {
                Some(v) => v,
                None => ops::logic(op, l, child(1).unwrap_or(&undefined)),
            }
        }
        StepKind::Not => ops::unary(UnaryOp::Not, child(0).cloned().unwrap_or_default()),
        _ => match ops::truth(child(0).unwrap_or(&undefined)) {
            Truth::True => child(1).cloned().unwrap_or_default(),
            Truth::False => child(2).cloned().unwrap_or_default(),
            Truth::Undefined => Value::Undefined,
            Truth::Error => Value::Error,
        },
    }
}

struct Builder<'a> {
    my: &'a ClassAd,
    mode: Mode,
    inline: &'a [&'a str],
    /// Attributes being inlined (cycle guard).
    active: Vec<Arc<str>>,
    nodes: Vec<Node<'a>>,
}

fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// libclassad's comparison operators (`=?=`/`=!=` included).
fn is_comparison(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(
        op,
        Eq | Ne | Lt | Le | Gt | Ge | MetaEq | MetaNe | Is | Isnt
    )
}

impl<'a> Builder<'a> {
    /// Number `e` and its step children in post-order; returns its index.
    fn build(&mut self, e: &'a Expr, depth: u32) -> usize {
        let e = strip_parens(e);
        if depth < MAX_STEP_DEPTH {
            match &e.kind {
                ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                    let l = self.build(a, depth + 1);
                    let r = self.build(b, depth + 1);
                    let k = if *op == BinaryOp::And {
                        StepKind::And
                    } else {
                        StepKind::Or
                    };
                    return self.push(e, k, vec![l, r], depth);
                }
                ExprKind::Unary(UnaryOp::Not, a) => {
                    let c = self.build(a, depth + 1);
                    return self.push(e, StepKind::Not, vec![c], depth);
                }
                ExprKind::Cond(c, a, b) => {
                    let x = self.build(c, depth + 1);
                    let y = self.build(a, depth + 1);
                    let z = self.build(b, depth + 1);
                    return self.push(e, StepKind::Cond, vec![x, y, z], depth);
                }
                ExprKind::Attr {
                    name,
                    absolute: false,
                } => {
                    if let Some(def) = self.inline_def(name) {
                        // The reference takes its definition's step.
                        self.active.push(name.key.clone());
                        let i = self.build(def, depth);
                        self.active.pop();
                        return i;
                    }
                }
                _ => {}
            }
        }
        let kind = match &e.kind {
            ExprKind::Binary(op, ..) if is_comparison(*op) => StepKind::Comparison,
            _ => StepKind::Other,
        };
        let d = deps(e, self.my, self.mode, None);
        self.nodes.push(Node {
            expr: e,
            kind,
            children: Vec::new(),
            depth,
            target: d.target,
            clock: d.clock,
            too_deep: d.too_deep,
        });
        self.nodes.len() - 1
    }

    fn inline_def(&self, name: &Name) -> Option<&'a Expr> {
        if !self
            .inline
            .iter()
            .any(|n| name.text.eq_ignore_ascii_case(n))
            || self.active.contains(&name.key)
        {
            return None;
        }
        let i = self.my.position_name(name)?;
        Some(self.my.at(i).1)
    }

    /// A logic step: it depends on what its children depend on.
    fn push(&mut self, e: &'a Expr, kind: StepKind, children: Vec<usize>, depth: u32) -> usize {
        let any = |f: fn(&Node) -> bool| children.iter().any(|&c| self.nodes.get(c).is_some_and(f));
        let (target, clock) = (any(|n| n.target), any(|n| n.clock));
        self.nodes.push(Node {
            expr: e,
            kind,
            children,
            depth,
            target,
            clock,
            too_deep: false,
        });
        self.nodes.len() - 1
    }
}

/// What a sub-expression depends on.
#[derive(Default)]
struct Deps {
    target: bool,
    clock: bool,
    too_deep: bool,
}

/// Functions that read the clock: always, or when called with no argument.
const CLOCK_FNS: &[&str] = &["time", "currenttime", "daytime"];
const CLOCK_FNS_NOARGS: &[&str] = &["abstime", "formattime", "timezoneoffset", "makedate"];
/// Functions that evaluate text as an expression: their references are
/// unknown, so they are taken to depend on the target.
const DYNAMIC_FNS: &[&str] = &["eval", "evalineachcontext", "countmatches"];

/// Whether `e` (evaluated with MY = `my`) can reference the target ad or
/// the clock, following MY's definitions; with `internal`, also collect the
/// MY attributes it references (as spelled in `my`). Iterative, so any
/// depth is safe (`refs.rs` recurses without a bound and ignores the clock).
/// Errs toward "depends on the target": that only costs a count.
fn deps<'a>(
    e: &'a Expr,
    my: &'a ClassAd,
    mode: Mode,
    mut internal: Option<&mut Vec<String>>,
) -> Deps {
    let mut d = Deps::default();
    let mut seen: HashSet<Arc<str>> = HashSet::new();
    // (node, depth within `e`, or None inside a followed definition)
    let mut stack: Vec<(&'a Expr, Option<u32>)> = vec![(e, Some(1))];
    while let Some((x, level)) = stack.pop() {
        if level.is_some_and(|l| l > crate::lang::parser::MAX_DEPTH) {
            d.too_deep = true;
        }
        let next = level.map(|l| l.saturating_add(1));
        match &x.kind {
            ExprKind::Attr { name, absolute } => match name.special {
                Special::Other if !absolute => d.target = true,
                Special::My | Special::SelfAd | Special::Root | Special::Parent if !absolute => {}
                Special::CurrentTime if !absolute && my.position_name(name).is_none() => {
                    d.clock = true
                }
                _ => {
                    if !follow(my, name, &mut seen, &mut stack, &mut internal)
                        && mode == Mode::HTCondor
                    {
                        d.target = true;
                    }
                }
            },
            ExprKind::Select(base, name) => match scope_word(base) {
                Some(Special::Other) => d.target = true,
                Some(Special::My | Special::SelfAd | Special::Root | Special::Parent) => {
                    follow(my, name, &mut seen, &mut stack, &mut internal);
                }
                _ => stack.push((base, next)),
            },
            ExprKind::Call(c) => {
                let f = c.name.to_ascii_lowercase();
                if CLOCK_FNS.contains(&f.as_str())
                    || (c.args.is_empty() && CLOCK_FNS_NOARGS.contains(&f.as_str()))
                {
                    d.clock = true;
                }
                if DYNAMIC_FNS.contains(&f.as_str()) {
                    d.target = true;
                }
                stack.extend(c.args.iter().map(|a| (a, next)));
            }
            ExprKind::Record(ad) => stack.extend(ad.iter().map(|(_, a)| (a, next))),
            ExprKind::Literal(Value::List(l)) => stack.extend(l.items.iter().map(|a| (a, next))),
            ExprKind::Literal(Value::Record(r)) => {
                stack.extend(r.ad.iter().map(|(_, a)| (a, next)))
            }
            _ => stack.extend(x.children().into_iter().map(|a| (a, next))),
        }
    }
    d
}

/// The special meaning of a plain (unscoped, relative) name.
fn scope_word(e: &Expr) -> Option<Special> {
    match &e.kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } => Some(name.special),
        _ => None,
    }
}

/// Follow a reference into MY's definition (once); false if MY lacks it.
fn follow<'a>(
    my: &'a ClassAd,
    name: &Name,
    seen: &mut HashSet<Arc<str>>,
    stack: &mut Vec<(&'a Expr, Option<u32>)>,
    internal: &mut Option<&mut Vec<String>>,
) -> bool {
    let Some(i) = my.position_name(name) else {
        return false;
    };
    if seen.insert(name.key.clone()) {
        let (spelled, def) = my.at(i);
        if let Some(v) = internal.as_deref_mut() {
            v.push(spelled.to_string());
        }
        stack.push((def, None));
    }
    true
}

/// The attributes of MY that `requirements` references (transitively),
/// with their definitions: better-analyze's "Job 1.000 defines the
/// following attributes:". Sorted without regard to case, as HTCondor's
/// reference sets are.
pub fn job_attributes(requirements: &Expr, my: &ClassAd) -> Vec<(String, String)> {
    let mut names = Vec::new();
    deps(requirements, my, Mode::HTCondor, Some(&mut names));
    names.sort_by_key(|n| n.to_ascii_lowercase());
    names
        .into_iter()
        .filter_map(|n| {
            let def = my.get(&n)?;
            Some((n.clone(), text_of(def, crate::lang::parser::MAX_DEPTH)))
        })
        .collect()
}

/// `unparse` of `e`, with anything more than `budget` levels down written
/// as `...` (bounded recursion and text size).
fn text_of(e: &Expr, budget: u32) -> String {
    let s = crate::lang::unparse::unparse_typed(&elide(e, budget));
    if s.contains(ELIDED) {
        s.replace(ELIDED, "...")
    } else {
        s
    }
}

/// A copy of `e` cut `budget` levels down.
fn elide(e: &Expr, budget: u32) -> Expr {
    if budget == 0 {
        // A small sub-tree (a comparison, a call) is kept whole.
        return if shallow(e, 6) {
            e.clone()
        } else {
            Expr::new(Expr::attr(ELIDED).kind, e.span)
        };
    }
    let b = budget - 1;
    let bx = |x: &Expr| Box::new(elide(x, b));
    let kind = match &e.kind {
        ExprKind::Literal(_) | ExprKind::Attr { .. } => e.kind.clone(),
        ExprKind::Select(base, n) => ExprKind::Select(bx(base), n.clone()),
        ExprKind::Index(a, i) => ExprKind::Index(bx(a), bx(i)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, bx(a)),
        ExprKind::Binary(op, l, r) => ExprKind::Binary(*op, bx(l), bx(r)),
        ExprKind::Cond(c, a, z) => ExprKind::Cond(bx(c), bx(a), bx(z)),
        ExprKind::Elvis(a, z) => ExprKind::Elvis(bx(a), bx(z)),
        ExprKind::Paren(a) => ExprKind::Paren(bx(a)),
        ExprKind::Call(c) => ExprKind::Call(Call {
            name: c.name.clone(),
            func: c.func,
            args: c.args.iter().map(|a| elide(a, b)).collect(),
        }),
        ExprKind::List(items) => {
            ExprKind::List(items.iter().map(|a| elide(a, b)).collect::<Vec<_>>().into())
        }
        ExprKind::Record(ad) => ExprKind::Record(Arc::new(elide_ad(ad, b))),
    };
    Expr::new(kind, e.span)
}

/// Whether `e` is at most `k` levels deep (recursion bounded by `k`).
fn shallow(e: &Expr, k: u32) -> bool {
    k > 0
        && match &e.kind {
            ExprKind::Literal(Value::List(_) | Value::Record(_)) => false,
            ExprKind::Record(ad) => ad.iter().all(|(_, x)| shallow(x, k - 1)),
            _ => e.children().into_iter().all(|x| shallow(x, k - 1)),
        }
}

fn elide_ad(ad: &ClassAd, budget: u32) -> ClassAd {
    let mut out = ClassAd::with_capacity(ad.len());
    for (n, x) in ad.iter() {
        out.insert(n, elide(x, budget));
    }
    out
}

/// better-analyze's table, counting slots.
pub fn render(steps: &[Step], show_hidden: bool) -> String {
    render_for(steps, show_hidden, "Slot")
}

/// better-analyze's table with the target type named (`Slot`, `Job`…).
/// Logic steps print as `[l] && [r]` with a hidden child replaced by the
/// step it reduces to; `show_hidden` (`:noprune`) prints every step, shown
/// ones marked ` * `, as HTCondor does.
pub fn render_for(steps: &[Step], show_hidden: bool, target_type: &str) -> String {
    let by_index: std::collections::HashMap<usize, &Step> =
        steps.iter().map(|s| (s.index, s)).collect();
    let pad = if show_hidden { "   " } else { "" };
    let mut out = format!(
        "{pad}{}{target_type}s\n{pad}Step    Matched  Condition\n{pad}-----  --------  ---------\n",
        " ".repeat(7 + 8usize.saturating_sub(target_type.len()) / 2)
    );
    for s in steps {
        if s.hidden && !show_hidden {
            continue;
        }
        if show_hidden {
            out.push_str(if s.hidden { "   " } else { " * " });
        }
        let count = match &s.verdict {
            Some(v) => v.clone(),
            None => s.matched.to_string(),
        };
        let eff = |k: usize| {
            s.children
                .get(k)
                .map(|&c| effective(c, &by_index))
                .unwrap_or(0)
        };
        let label = match (s.kind, s.children.len()) {
            (StepKind::And, 2) => format!("[{}] && [{}]", eff(0), eff(1)),
            (StepKind::Or, 2) => format!("[{}] || [{}]", eff(0), eff(1)),
            (StepKind::Not, 1) => format!(" ! [{}]", eff(0)),
            (StepKind::Cond, 3) => format!("[{}] ? [{}] : [{}]", eff(0), eff(1), eff(2)),
            _ => s.text.clone(),
        };
        let num = format!("[{}]", s.index);
        out.push_str(&format!("{num:<5} {count:>9}  {label}\n"));
    }
    out
}

/// The step a hidden step reduces to: its most selective child for `&&`,
/// its widest for `||` (the left one on a tie), followed while hidden.
fn effective(mut i: usize, by_index: &std::collections::HashMap<usize, &Step>) -> usize {
    for _ in 0..=by_index.len() {
        let Some(s) = by_index.get(&i) else {
            return i;
        };
        let (a, b) = match s.children.as_slice() {
            &[a, b] if s.hidden => (a, b),
            _ => return i,
        };
        let m = |k: usize| by_index.get(&k).map(|x| x.matched).unwrap_or(0);
        i = match s.kind {
            StepKind::And if m(a) <= m(b) => a,
            StepKind::Or if m(a) >= m(b) => a,
            StepKind::And | StepKind::Or => b,
            _ => return i,
        };
    }
    i
}

// Tests: `reverse.rs` (`step_tests`), with the shared generators.
