//! Compiling an ad's expressions against the ad itself: own attributes
//! inlined and folded, the other ad's attributes turned into lookups.

use std::sync::Arc;

use super::run::{call, run, Chain};
use super::{literal_value, CompiledAd, Node, OtherName, MAX_NODES};
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Name, Special};
use crate::lang::eval::{ops, EvalOptions, Evaluator, Mode};
use crate::lang::value::{Value, ValueKind};

/// Per-attribute compile state.
#[derive(Clone)]
enum Slot {
    Todo,
    InProgress,
    Done(Arc<Node>, usize),
}

pub(super) struct Compiler<'a> {
    ad: &'a ClassAd,
    opts: EvalOptions,
    slots: Vec<Slot>,
    /// Templates: the positions of the literal attributes read, each a
    /// [`Node::Param`] (its index here) instead of a constant.
    params: Option<Vec<u32>>,
    /// Templates: every name looked up in the ad, and where it is.
    deps: Option<Vec<(Name, Option<u32>)>>,
}

impl<'a> Compiler<'a> {
    pub(super) fn new(ad: &'a ClassAd, opts: EvalOptions) -> Compiler<'a> {
        Compiler {
            ad,
            opts,
            slots: vec![Slot::Todo; ad.len()],
            params: None,
            deps: None,
        }
    }

    /// A compiler for a template: the ad's literal attributes are read
    /// from whichever ad of its shape is evaluated (nothing folds on them).
    /// [`Compiler::params`] then lists them.
    pub(super) fn template(ad: &'a ClassAd, opts: EvalOptions) -> Compiler<'a> {
        Compiler {
            params: Some(vec![]),
            deps: Some(vec![]),
            ..Compiler::new(ad, opts)
        }
    }

    /// A compiler for more expressions of an ad already compiled.
    pub(super) fn with_attrs(
        ad: &'a ClassAd,
        opts: EvalOptions,
        attrs: &[Option<Arc<Node>>],
    ) -> Compiler<'a> {
        Compiler {
            ad,
            opts,
            slots: attrs
                .iter()
                .map(|a| match a {
                    Some(n) if !super::is_unread(n) => Slot::Done(n.clone(), 1),
                    _ => Slot::Todo,
                })
                .collect(),
            params: None,
            deps: None,
        }
    }

    /// Where the ad defines `name`, recorded for a template: what it
    /// compiles to depends on the ad through these lookups alone.
    fn find(&mut self, name: &Name) -> Option<u32> {
        let at = self.ad.position_name(name);
        if let Some(deps) = &mut self.deps {
            deps.push((name.clone(), at));
        }
        at
    }

    /// Where the ad defines a root attribute (its requirements, its rank),
    /// looked up as [`Compiler::find`] does.
    pub(super) fn root(&mut self, name: &str) -> Option<u32> {
        self.find(&Name::new(name))
    }

    /// A template's lookups: each name it looked up and where the ad
    /// defines it.
    pub(super) fn deps(&self) -> &[(Name, Option<u32>)] {
        self.deps.as_deref().unwrap_or(&[])
    }

    /// Attribute `i` of the ad, compiled (memoized), and its size.
    pub(super) fn attr(&mut self, i: u32) -> (Arc<Node>, usize) {
        match &self.slots[i as usize] {
            Slot::Done(n, size) => return (n.clone(), *size),
            // A circular reference: the evaluator makes it undefined (and
            // its caching decides where); leave it to it.
            Slot::InProgress => return (Arc::new(Node::Bail), 1),
            Slot::Todo => {}
        }
        self.slots[i as usize] = Slot::InProgress;
        let (node, size) = self.expr(self.ad.at(i).1);
        let node = Arc::new(if size > MAX_NODES { Node::Bail } else { node });
        self.slots[i as usize] = Slot::Done(node.clone(), size);
        (node, size)
    }

    /// Attribute `i` if it has been compiled.
    pub(super) fn compiled(&self, i: u32) -> Option<Arc<Node>> {
        match &self.slots[i as usize] {
            Slot::Done(n, _) => Some(n.clone()),
            _ => None,
        }
    }

    /// The positions a template's [`Node::Param`]s stand for.
    pub(super) fn params(&self) -> &[u32] {
        self.params.as_deref().unwrap_or(&[])
    }

    /// A reference to the ad's own attribute `i`.
    fn own(&mut self, i: u32) -> (Node, usize) {
        let e = self.ad.at(i).1;
        if let ExprKind::Literal(_) = e.kind {
            if let Some(params) = &mut self.params {
                let k = params.iter().position(|&p| p == i).unwrap_or_else(|| {
                    params.push(i);
                    params.len() - 1
                });
                return (Node::Param(k as u32), 1);
            }
            return (Node::Const(literal_value(&e.kind)), 1);
        }
        let (n, size) = self.attr(i);
        match &*n {
            Node::Const(v) => (Node::Const(v.clone()), 1),
            Node::Bail => (Node::Bail, 1),
            _ => (Node::Own(n), size),
        }
    }

    /// A name looked up in the ad itself (`x` or `MY.x`): `plain` names
    /// fall back to the other ad in HTCondor mode.
    fn lookup(&mut self, name: &Name, plain: bool) -> (Node, usize) {
        if let Some(i) = self.find(name) {
            return self.own(i);
        }
        if name.special != Special::None {
            return (Node::Bail, 1);
        }
        if plain && self.opts.mode == Mode::HTCondor {
            (Node::Other(OtherName::new(name.clone())), 1)
        } else {
            (Node::Const(Value::Undefined), 1)
        }
    }

    /// Whether a scope word written in the ad means what it does in a
    /// match (the ad does not define an attribute of that name).
    fn scope_word(&mut self, e: &Expr, special: Special) -> bool {
        match &e.kind {
            ExprKind::Attr {
                name,
                absolute: false,
            } if name.special == special => self.find(name).is_none(),
            _ => false,
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) -> (Node, usize) {
        match &e.kind {
            ExprKind::Literal(_) => (Node::Const(literal_value(&e.kind)), 1),
            ExprKind::Attr {
                name,
                absolute: false,
            } => self.lookup(name, true),
            ExprKind::Select(base, name) if name.special == Special::None => {
                if self.scope_word(base, Special::Other) {
                    (Node::Other(OtherName::new(name.clone())), 1)
                } else if self.scope_word(base, Special::My) {
                    self.lookup(name, false)
                } else {
                    (Node::Bail, 1)
                }
            }
            ExprKind::Paren(a) => self.expr(a),
            ExprKind::Unary(op, a) => {
                let (a, n) = self.expr(a);
                (fold(Node::Unary(*op, Box::new(a))), n + 1)
            }
            ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                let kind = if *op == BinaryOp::And {
                    Chain::All
                } else {
                    Chain::Any
                };
                let (a, n) = self.expr(a);
                let (b, m) = self.expr(b);
                // `a && b && c` parses as `(a && b) && c`: one chain.
                let mut items = match a {
                    Node::Chain(k, items) if k == kind => items,
                    a => vec![a],
                };
                items.push(b);
                (chain(kind, items), n + m + 1)
            }
            ExprKind::Binary(op, a, b) => {
                let (a, n) = self.expr(a);
                let (b, m) = self.expr(b);
                (fold(Node::Binary(*op, Box::new(a), Box::new(b))), n + m + 1)
            }
            ExprKind::Cond(c, a, b) => {
                let (c, n) = self.expr(c);
                let (a, m) = self.expr(a);
                let (b, k) = self.expr(b);
                (
                    fold(Node::Cond(Box::new(c), Box::new(a), Box::new(b))),
                    n + m + k + 1,
                )
            }
            ExprKind::Elvis(a, b) => {
                let (a, n) = self.expr(a);
                let (b, m) = self.expr(b);
                (fold(Node::Elvis(Box::new(a), Box::new(b))), n + m + 1)
            }
            ExprKind::Call(c) => match c.func {
                Some(id) if c.args.len() == 1 && predicate_kind(id).is_some() => {
                    let kind = predicate_kind(id).unwrap_or(ValueKind::Error);
                    let (a, n) = self.expr(&c.args[0]);
                    let node = match a {
                        Node::Const(v) => Node::Const(Value::Bool(v.kind() == kind)),
                        Node::Bail => Node::Bail,
                        a => Node::IsKind(kind, Box::new(a)),
                    };
                    (node, n + 1)
                }
                Some(id) if is_pure(id) => {
                    let mut size = 1;
                    let mut args = Vec::with_capacity(c.args.len());
                    for a in &c.args {
                        let (a, n) = self.expr(a);
                        size += n;
                        args.push(a);
                    }
                    let node = Node::Call(id, args);
                    (self.fold_call(node), size)
                }
                // Called when it runs, with the evaluator's clock (a
                // glidein's `START` asks `time() < MY.GLIDEIN_ToRetire`).
                Some(id) if reads_only_the_clock(id) && c.args.is_empty() => {
                    (Node::Call(id, vec![]), 1)
                }
                _ => (Node::Bail, 1),
            },
            _ => (Node::Bail, 1),
        }
    }

    /// A pure call whose arguments are all constants, folded.
    fn fold_call(&self, node: Node) -> Node {
        let Node::Call(id, args) = &node else {
            return node;
        };
        let consts: Option<Vec<&Value>> = args
            .iter()
            .map(|a| match a {
                Node::Const(v) => Some(v),
                _ => None,
            })
            .collect();
        match consts {
            Some(vals) => {
                let mut ev = Evaluator::new(self.opts);
                match call(*id, &vals, &mut ev) {
                    Some(v) => Node::Const(v),
                    None => Node::Bail,
                }
            }
            None if args.iter().any(|a| matches!(a, Node::Bail)) => Node::Bail,
            None => node,
        }
    }
}

/// Fold an operator node whose operands are constants (and propagate
/// bail-outs), with the evaluator's own operator semantics.
fn fold(node: Node) -> Node {
    let konst = |n: &Node| matches!(n, Node::Const(_));
    let bail = |n: &Node| matches!(n, Node::Bail);
    let pure = |n: &Node| run_pure(n).map_or(Node::Bail, Node::Const);
    match node {
        Node::Unary(_, ref a) if konst(a) || bail(a) => pure(&node),
        Node::Binary(_, ref a, ref b) if bail(a) || bail(b) || (konst(a) && konst(b)) => {
            pure(&node)
        }
        Node::Binary(op, a, b) if op.is_comparison() => match (*a, *b) {
            (Node::Other(name), Node::Const(konst)) => Node::CmpOther {
                op,
                name,
                konst,
                konst_left: false,
            },
            (Node::Const(konst), Node::Other(name)) => Node::CmpOther {
                op,
                name,
                konst,
                konst_left: true,
            },
            (a, b) => Node::Binary(op, Box::new(a), Box::new(b)),
        },
        // Decided by the condition: the chosen branch is the whole node.
        Node::Cond(c, a, b) => match *c {
            Node::Const(cv) => match ops::truth(&cv) {
                ops::Truth::True => *a,
                ops::Truth::False => *b,
                ops::Truth::Undefined => Node::Const(Value::Undefined),
                ops::Truth::Error => Node::Const(Value::Error),
            },
            Node::Bail => Node::Bail,
            c => Node::Cond(Box::new(c), a, b),
        },
        Node::Elvis(a, b) => match *a {
            Node::Const(Value::Undefined) => *b,
            Node::Const(v) => Node::Const(v),
            Node::Bail => Node::Bail,
            a => Node::Elvis(Box::new(a), b),
        },
        node => node,
    }
}

/// A `&&` / `||` chain with what its constant items decide folded away:
/// an item that is neutral (`true` in `&&`, `false` in `||`) goes, one
/// that decides (`false` or error in `&&`; `true` or error in `||`) ends
/// the chain, and a chain of constants is a constant.
fn chain(kind: Chain, items: Vec<Node>) -> Node {
    use ops::Truth;
    let (neutral, decisive) = match kind {
        Chain::All => (Truth::True, Truth::False),
        Chain::Any => (Truth::False, Truth::True),
    };
    let mut kept: Vec<Node> = Vec::with_capacity(items.len());
    for item in items {
        match &item {
            Node::Const(v) => {
                let t = ops::truth(v);
                if t == neutral {
                    continue;
                }
                let ends = t == decisive || t == Truth::Error;
                kept.push(item);
                if ends {
                    break;
                }
            }
            // Always evaluated when first: the whole chain bails.
            Node::Bail if kept.is_empty() => return Node::Bail,
            _ => kept.push(item),
        }
    }
    if kept.is_empty() {
        // Only neutral items: `true && true` is true.
        return Node::Const(Value::Bool(neutral == Truth::True));
    }
    if kept.iter().all(|n| matches!(n, Node::Const(_))) {
        let node = Node::Chain(kind, kept);
        return run_pure(&node).map_or(Node::Bail, Node::Const);
    }
    Node::Chain(kind, kept)
}

/// Evaluate a node that needs neither ad (all leaves constant).
fn run_pure(node: &Node) -> Option<Value> {
    fn no_ad(n: &Node) -> bool {
        match n {
            Node::Const(_) => true,
            Node::Unary(_, a) => no_ad(a),
            Node::Binary(_, a, b) | Node::Elvis(a, b) => no_ad(a) && no_ad(b),
            Node::Chain(_, items) => items.iter().all(no_ad),
            Node::Cond(c, a, b) => no_ad(c) && no_ad(a) && no_ad(b),
            _ => false,
        }
    }
    if !no_ad(node) {
        return None;
    }
    let empty = EMPTY.with(|e| e.clone());
    let mut ev = Evaluator::new(EvalOptions::default());
    let mut hops = 0;
    run(node, &empty, &empty, &mut ev, &mut hops)
}

/// Run `f` with an ad that defines nothing (for nodes that read no ad).
pub(super) fn with_empty_ad<R>(f: impl FnOnce(&CompiledAd) -> R) -> R {
    let empty = EMPTY.with(|e| e.clone());
    f(&empty)
}

thread_local! {
    static EMPTY: Arc<CompiledAd> = Arc::new(CompiledAd {
        ad: Arc::new(ClassAd::new()),
        attrs: Arc::new([]),
        params: Box::new([]),
        requirements: None,
        mode: Mode::HTCondor,
        layout: super::NO_LAYOUT,
    });
}

/// The kind a type predicate (`isInteger`, …) tests for.
fn predicate_kind(id: u16) -> Option<ValueKind> {
    Some(match crate::lang::functions::get(id).name {
        "isUndefined" => ValueKind::Undefined,
        "isError" => ValueKind::Error,
        "isString" => ValueKind::String,
        "isInteger" => ValueKind::Integer,
        "isReal" => ValueKind::Real,
        "isBoolean" => ValueKind::Boolean,
        "isList" => ValueKind::List,
        "isClassAd" => ValueKind::ClassAd,
        "isAbstime" => ValueKind::AbsTime,
        "isReltime" => ValueKind::RelTime,
        _ => return None,
    })
}

/// Functions whose value depends on their argument values alone (the
/// function table says which).
fn is_pure(id: u16) -> bool {
    crate::lang::functions::get(id).pure
}

/// Functions whose value depends on nothing but the evaluator's clock:
/// never folded, run as they are.
fn reads_only_the_clock(id: u16) -> bool {
    crate::lang::functions::get(id).name == "time"
}
