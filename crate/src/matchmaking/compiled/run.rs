//! Running compiled expressions on a pair of ads.

use super::{CompiledAd, Node, OtherName, MAX_HOPS};
use crate::lang::ast::{BinaryOp, Expr, ExprKind};
use crate::lang::eval::ops::{self, Truth};
use crate::lang::eval::{Env, Evaluator};
use crate::lang::value::Value;

/// Which chain of [`Node::Chain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chain {
    /// `&&`
    All,
    /// `||`
    Any,
}

/// Evaluate a compiled node with `me` as its own ad and `other` as the
/// other ad; `None` when it bails out.
pub(super) fn run(
    node: &Node,
    me: &CompiledAd,
    other: &CompiledAd,
    ev: &mut Evaluator,
    hops: &mut u32,
) -> Option<Value> {
    run_ref(node, me, other, ev, hops).map(R::into_owned)
}

/// A value borrowed from a compiled node or an ad, or computed: most
/// leaves are borrowed, so matching clones and drops no strings.
enum R<'a> {
    B(&'a Value),
    O(Value),
}

impl R<'_> {
    fn into_owned(self) -> Value {
        match self {
            R::B(v) => v.clone(),
            R::O(v) => v,
        }
    }
}

impl std::ops::Deref for R<'_> {
    type Target = Value;
    #[inline]
    fn deref(&self) -> &Value {
        match self {
            R::B(v) => v,
            R::O(v) => v,
        }
    }
}

fn run_ref<'a>(
    node: &'a Node,
    me: &'a CompiledAd,
    other: &'a CompiledAd,
    ev: &mut Evaluator,
    hops: &mut u32,
) -> Option<R<'a>> {
    Some(match node {
        Node::Const(v) => R::B(v),
        Node::Other(name) => other_attr(name, me, other, ev, hops)?,
        Node::CmpOther {
            op,
            name,
            konst,
            konst_left,
        } => {
            let v = other_attr(name, me, other, ev, hops)?;
            R::O(if *konst_left {
                ops::binary(*op, konst, &v)
            } else {
                ops::binary(*op, &v, konst)
            })
        }
        Node::Chain(..) => R::O(match truth(node, me, other, ev, hops)? {
            Truth::True => Value::Bool(true),
            Truth::False => Value::Bool(false),
            Truth::Undefined => Value::Undefined,
            Truth::Error => Value::Error,
        }),
        Node::Own(n) => run_ref(n, me, other, ev, hops)?,
        Node::Param(i) => R::B(me.params.get(*i as usize)?),
        Node::Unary(op, a) => R::O(ops::unary(*op, run(a, me, other, ev, hops)?)),
        Node::Binary(op, a, b) => {
            let l = run_ref(a, me, other, ev, hops)?;
            let r = run_ref(b, me, other, ev, hops)?;
            R::O(ops::binary(*op, &l, &r))
        }
        Node::Cond(c, a, b) => match ops::truth(&*run_ref(c, me, other, ev, hops)?) {
            ops::Truth::True => run_ref(a, me, other, ev, hops)?,
            ops::Truth::False => run_ref(b, me, other, ev, hops)?,
            ops::Truth::Undefined => R::O(Value::Undefined),
            ops::Truth::Error => R::O(Value::Error),
        },
        Node::Elvis(a, b) => {
            let v = run_ref(a, me, other, ev, hops)?;
            if v.is_undefined() {
                run_ref(b, me, other, ev, hops)?
            } else {
                v
            }
        }
        Node::IsKind(kind, a) => R::O(Value::Bool(
            run_ref(a, me, other, ev, hops)?.kind() == *kind,
        )),
        Node::Call(id, args) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(run_ref(a, me, other, ev, hops)?);
            }
            let refs: Vec<&Value> = vals.iter().map(|v| &**v).collect();
            R::O(call(*id, &refs, ev)?)
        }
        Node::Bail => return None,
    })
}

/// Attribute `name` of the other ad, evaluated in its own scope (where
/// this ad is the other one).
#[inline]
fn other_attr<'a>(
    name: &OtherName,
    me: &'a CompiledAd,
    other: &'a CompiledAd,
    ev: &mut Evaluator,
    hops: &mut u32,
) -> Option<R<'a>> {
    let Some(i) = name.find(other) else {
        return Some(R::O(Value::Undefined));
    };
    match other.attrs.get(i as usize)? {
        None => match &other.ad.at(i).1.kind {
            // libclassad evaluates a relative-time literal to its seconds.
            ExprKind::Literal(Value::RelTime(t)) => Some(R::O(Value::Real(*t))),
            ExprKind::Literal(v) => Some(R::B(v)),
            _ => None,
        },
        Some(n) => {
            *hops += 1;
            if *hops > MAX_HOPS {
                return None;
            }
            run_ref(n, other, me, ev, hops)
        }
    }
}

/// How a node's value acts as a condition (`ops::truth` of it), worked
/// out without building values where that is easy: requirements only
/// need this.
pub(super) fn truth(
    node: &Node,
    me: &CompiledAd,
    other: &CompiledAd,
    ev: &mut Evaluator,
    hops: &mut u32,
) -> Option<Truth> {
    Some(match node {
        Node::Chain(kind, items) => {
            // libclassad's `&&`/`||`, left to right (see `ops::logic`).
            let mut acc = truth(items.first()?, me, other, ev, hops)?;
            for item in &items[1..] {
                acc = match (kind, acc) {
                    (_, Truth::Error) | (Chain::All, Truth::False) | (Chain::Any, Truth::True) => {
                        return Some(acc)
                    }
                    _ => match (kind, acc, truth(item, me, other, ev, hops)?) {
                        (_, _, Truth::Error) => Truth::Error,
                        (Chain::All, Truth::True, t) | (Chain::Any, Truth::False, t) => t,
                        (Chain::All, _, Truth::False) => Truth::False,
                        (Chain::Any, _, Truth::True) => Truth::True,
                        _ => Truth::Undefined,
                    },
                };
            }
            acc
        }
        Node::CmpOther {
            op,
            name,
            konst,
            konst_left,
        } => {
            let v = other_attr(name, me, other, ev, hops)?;
            if *konst_left {
                compare(*op, konst, &v)
            } else {
                compare(*op, &v, konst)
            }
        }
        Node::Binary(op, a, b) if op.is_comparison() => {
            let l = run_ref(a, me, other, ev, hops)?;
            let r = run_ref(b, me, other, ev, hops)?;
            compare(*op, &l, &r)
        }
        Node::Own(n) => truth(n, me, other, ev, hops)?,
        Node::Cond(c, a, b) => match truth(c, me, other, ev, hops)? {
            Truth::True => truth(a, me, other, ev, hops)?,
            Truth::False => truth(b, me, other, ev, hops)?,
            t => t,
        },
        node => ops::truth(&*run_ref(node, me, other, ev, hops)?),
    })
}

/// The truth of a comparison: integers and string equality directly, the
/// rest as `ops::binary` has it.
#[inline]
fn compare(op: BinaryOp, l: &Value, r: &Value) -> Truth {
    let b = match (l, r) {
        (Value::Int(a), Value::Int(b)) => match op {
            BinaryOp::Eq => a == b,
            BinaryOp::Ne => a != b,
            BinaryOp::Lt => a < b,
            BinaryOp::Le => a <= b,
            BinaryOp::Gt => a > b,
            BinaryOp::Ge => a >= b,
            _ => return ops::truth(&ops::binary(op, l, r)),
        },
        (Value::Str(a), Value::Str(b)) if op == BinaryOp::Eq => a.eq_ignore_ascii_case(b),
        (Value::Str(a), Value::Str(b)) if op == BinaryOp::Ne => !a.eq_ignore_ascii_case(b),
        _ => return ops::truth(&ops::binary(op, l, r)),
    };
    if b {
        Truth::True
    } else {
        Truth::False
    }
}

/// Call a pure function on argument values. Values a literal cannot
/// carry unchanged (lists and records, which close over a scope, and
/// relative times, which a literal turns into reals) bail out.
pub(super) fn call(id: u16, vals: &[&Value], ev: &mut Evaluator) -> Option<Value> {
    let mut args = Vec::with_capacity(vals.len());
    for v in vals {
        match v {
            Value::List(_) | Value::Record(_) | Value::RelTime(_) => return None,
            v => args.push(Expr::literal((*v).clone())),
        }
    }
    let def = crate::lang::functions::get(id);
    match (def.imp)(ev, &args, &Env::None) {
        // A list or record result closes over a scope of its own making.
        Value::List(_) | Value::Record(_) => None,
        v => Some(v),
    }
}
