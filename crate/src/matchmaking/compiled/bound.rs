//! What a compiled expression can be on one other ad whatever its own ad
//! reads of that ad: the exact value where nothing of it depends on what
//! the other ad reads back, else an upper bound where a conditional's
//! branches give one. The best-first survey ranks machines by these.

use super::{run, CompiledAd, CompiledExpr, Node};
use crate::lang::ast::BinaryOp;
use crate::lang::eval::ops::{self, Truth};
use crate::lang::eval::Evaluator;
use crate::lang::value::Value;

/// A compiled expression's value on one other ad, for every ad it was
/// compiled against with the same [fingerprint](CompiledExpr::fingerprint).
#[derive(Clone, Debug)]
pub enum Bound {
    /// Exactly this.
    Exact(Value),
    /// A number no greater than this, or not a number.
    AtMost(f64),
    /// Never a number.
    NoNumber,
    /// Anything.
    Unknown,
}

impl Bound {
    /// The bound on the numbers the value can be.
    fn numeric(self) -> Bound {
        match self {
            Bound::Exact(v) => match v.as_ranking_number() {
                Some(x) if x.is_nan() => Bound::Unknown,
                Some(x) => Bound::AtMost(x),
                None => Bound::NoNumber,
            },
            b => b,
        }
    }

    /// Either of two values (the branches of a conditional).
    fn join(self, other: Bound) -> Bound {
        match (self.numeric(), other.numeric()) {
            (Bound::Unknown, _) | (_, Bound::Unknown) => Bound::Unknown,
            (Bound::AtMost(x), Bound::AtMost(y)) => Bound::AtMost(x.max(y)),
            (Bound::AtMost(x), _) | (_, Bound::AtMost(x)) => Bound::AtMost(x),
            _ => Bound::NoNumber,
        }
    }
}

/// Past this size a sum's or product's bound is not trusted (integer
/// arithmetic is exact only below 2^53 as a double).
const EXACT_BELOW: f64 = 9_007_199_254_740_992.0;

/// The exact number a bound is, when it is one.
fn exact_number(b: &Bound) -> Option<f64> {
    match b {
        Bound::Exact(v @ (Value::Int(_) | Value::Real(_) | Value::Bool(_))) => {
            v.as_ranking_number().filter(|x| x.is_finite())
        }
        _ => None,
    }
}

/// The upper bound of a number that is at most this (or not a number).
fn at_most(b: &Bound) -> Option<f64> {
    match b {
        Bound::AtMost(x) => Some(*x),
        _ => exact_number(b),
    }
}

/// An upper bound of `a op b` from the operands' bounds: a sum by the
/// sum of theirs, a difference when what is taken away is exact, a
/// product when one factor is an exact number no less than 0. Anything
/// not a number stays not a number through arithmetic, so "at most"
/// keeps its meaning.
fn arithmetic(op: BinaryOp, a: Bound, b: Bound) -> Bound {
    let x = match op {
        BinaryOp::Add => at_most(&a).zip(at_most(&b)).map(|(x, y)| x + y),
        BinaryOp::Sub => at_most(&a).zip(exact_number(&b)).map(|(x, y)| x - y),
        BinaryOp::Mul => match (exact_number(&a), exact_number(&b)) {
            (Some(c), _) if c >= 0.0 => at_most(&b).map(|y| c * y),
            (_, Some(c)) if c >= 0.0 => at_most(&a).map(|y| c * y),
            _ => None,
        },
        _ => None,
    };
    match x {
        Some(x) if x.is_finite() && x.abs() < EXACT_BELOW => Bound::AtMost(x),
        _ => Bound::Unknown,
    }
}

/// Most nodes one bound looks at (per expression and other ad): past it,
/// the bound is `Unknown`, which only costs the survey an evaluation.
const MAX_VISITS: u32 = 4096;

impl CompiledExpr {
    /// The expression's value with `my` (what it was compiled against) as
    /// its ad and `other` as the other ad, as far as it does not depend on
    /// what `other` reads of `my`: `Exact` only when nothing does.
    pub fn bound(&self, my: &CompiledAd, other: &CompiledAd, ev: &mut Evaluator) -> Bound {
        let mut b = Bounder {
            me: my,
            other,
            ev,
            visits: 0,
        };
        b.bound(&self.node)
    }
}

struct Bounder<'a, 'e> {
    me: &'a CompiledAd,
    other: &'a CompiledAd,
    ev: &'e mut Evaluator,
    visits: u32,
}

impl Bounder<'_, '_> {
    fn bound(&mut self, n: &Node) -> Bound {
        match self.depends(n) {
            None => return Bound::Unknown,
            Some(false) => {
                return match run(n, self.me, self.other, self.ev, &mut 0) {
                    Some(v) => Bound::Exact(v),
                    None => Bound::Unknown,
                }
            }
            Some(true) => {}
        }
        match n {
            Node::Own(inner) => self.bound(inner),
            Node::Cond(c, a, b) => match self.bound(c) {
                Bound::Exact(v) => match ops::truth(&v) {
                    Truth::True => self.bound(a),
                    Truth::False => self.bound(b),
                    Truth::Undefined => Bound::Exact(Value::Undefined),
                    Truth::Error => Bound::Exact(Value::Error),
                },
                // Whichever branch it takes (or undefined or error, which
                // are no numbers).
                _ => {
                    let ba = self.bound(a);
                    ba.join(self.bound(b))
                }
            },
            Node::Elvis(a, b) => match self.bound(a) {
                Bound::Exact(v) if v.is_undefined() => self.bound(b),
                Bound::Exact(v) => Bound::Exact(v),
                ba => ba.join(self.bound(b)),
            },
            Node::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b) => {
                let (ba, bb) = (self.bound(a), self.bound(b));
                arithmetic(*op, ba, bb)
            }
            _ => Bound::Unknown,
        }
    }

    /// Whether `n`'s value depends on what the other ad reads of this
    /// one (`None`: too big to tell).
    fn depends(&mut self, n: &Node) -> Option<bool> {
        self.visits += 1;
        if self.visits > MAX_VISITS {
            return None;
        }
        Some(match n {
            Node::Const(_) => false,
            Node::Other(name) | Node::CmpOther { name, .. } => {
                !self.other.reads_own_only(&name.name)
            }
            Node::Param(_) | Node::Bail => true,
            Node::Own(a) => self.depends(a)?,
            Node::Unary(_, a) | Node::IsKind(_, a) => self.depends(a)?,
            Node::Binary(_, a, b) | Node::Elvis(a, b) => self.depends(a)? || self.depends(b)?,
            Node::Cond(c, a, b) => self.depends(c)? || self.depends(a)? || self.depends(b)?,
            Node::Chain(_, items) | Node::Call(_, items) => {
                for i in items {
                    if self.depends(i)? {
                        return Some(true);
                    }
                }
                false
            }
        })
    }
}
