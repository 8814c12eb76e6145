//! Operator semantics, as libclassad implements them (observed, not only as
//! documented): error dominates undefined in strict operators, booleans
//! promote to integers in arithmetic and comparison, string comparison
//! ignores case, positive real overflow is an error, real `%` is an error.

use crate::lang::ast::{BinaryOp, UnaryOp};
use crate::lang::names::cmp_nocase;
use crate::lang::time::AbsTime;
use crate::lang::value::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    True,
    False,
    Undefined,
    Error,
}

/// How a value acts as a condition (`?:`, `&&`, `||`, `!`).
pub fn truth(v: &Value) -> Truth {
    match v {
        Value::Bool(true) => Truth::True,
        Value::Bool(false) => Truth::False,
        Value::Int(i) => {
            if *i != 0 {
                Truth::True
            } else {
                Truth::False
            }
        }
        Value::Real(r) => {
            if *r != 0.0 {
                Truth::True
            } else {
                Truth::False
            }
        }
        Value::Undefined => Truth::Undefined,
        _ => Truth::Error,
    }
}

fn from_truth(t: Truth) -> Value {
    match t {
        Truth::True => Value::Bool(true),
        Truth::False => Value::Bool(false),
        Truth::Undefined => Value::Undefined,
        Truth::Error => Value::Error,
    }
}

/// The result of `&&` / `||` when the left side alone decides it.
pub fn logic_short_circuit(op: BinaryOp, l: &Value) -> Option<Value> {
    match (op, truth(l)) {
        (_, Truth::Error) => Some(Value::Error),
        (BinaryOp::And, Truth::False) => Some(Value::Bool(false)),
        (BinaryOp::Or, Truth::True) => Some(Value::Bool(true)),
        _ => None,
    }
}

/// Three-valued `&&` / `||` once both sides are known.
pub fn logic(op: BinaryOp, l: &Value, r: &Value) -> Value {
    if let Some(v) = logic_short_circuit(op, l) {
        return v;
    }
    let (lt, rt) = (truth(l), truth(r));
    let t = match (op, lt, rt) {
        (_, _, Truth::Error) => Truth::Error,
        (BinaryOp::And, Truth::True, x) => x,
        (BinaryOp::And, Truth::Undefined, Truth::False) => Truth::False,
        (BinaryOp::And, Truth::Undefined, _) => Truth::Undefined,
        (BinaryOp::Or, Truth::False, x) => x,
        (BinaryOp::Or, Truth::Undefined, Truth::True) => Truth::True,
        (BinaryOp::Or, Truth::Undefined, _) => Truth::Undefined,
        _ => Truth::Error,
    };
    from_truth(t)
}

pub fn unary(op: UnaryOp, v: Value) -> Value {
    if v.is_exceptional() {
        return v;
    }
    match op {
        UnaryOp::Not => match truth(&v) {
            Truth::True => Value::Bool(false),
            Truth::False => Value::Bool(true),
            t => from_truth(t),
        },
        UnaryOp::Minus => match v {
            Value::Int(i) => Value::Int(i.wrapping_neg()),
            Value::Real(r) => Value::Real(-r),
            Value::RelTime(t) => Value::RelTime(-t),
            _ => Value::Error,
        },
        UnaryOp::Plus => match v {
            Value::Int(_) | Value::Real(_) | Value::RelTime(_) => v,
            _ => Value::Error,
        },
        UnaryOp::BitNot => match v {
            Value::Int(i) => Value::Int(!i),
            _ => Value::Error,
        },
    }
}

/// A number for arithmetic: booleans count as 0/1.
#[derive(Clone, Copy)]
enum Num {
    I(i64),
    R(f64),
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Int(i) => Some(Num::I(*i)),
        Value::Real(r) => Some(Num::R(*r)),
        Value::Bool(b) => Some(Num::I(*b as i64)),
        _ => None,
    }
}

fn as_f(n: Num) -> f64 {
    match n {
        Num::I(i) => i as f64,
        Num::R(r) => r,
    }
}

/// libclassad turns a positive-infinite real result into error (but keeps
/// negative infinity and NaN).
fn real_result(r: f64) -> Value {
    if r == f64::INFINITY {
        Value::Error
    } else {
        Value::Real(r)
    }
}

pub fn binary(op: BinaryOp, l: &Value, r: &Value) -> Value {
    use BinaryOp::*;
    match op {
        MetaEq | Is => match identical_or_err(l, r) {
            Some(b) => Value::Bool(b),
            None => Value::Error,
        },
        MetaNe | Isnt => match identical_or_err(l, r) {
            Some(b) => Value::Bool(!b),
            None => Value::Error,
        },
        // Three-valued: `undefined || true` is true, `undefined && false`
        // false (the early returns below are for the other operators).
        And | Or => logic(op, l, r),
        _ => {
            if l.is_error() || r.is_error() {
                return Value::Error;
            }
            if l.is_undefined() || r.is_undefined() {
                return Value::Undefined;
            }
            match op {
                Add | Sub | Mul | Div | Mod => arith(op, l, r),
                Eq | Ne | Lt | Le | Gt | Ge => compare(op, l, r),
                BitAnd | BitOr | BitXor | Shl | Shr | Ushr => bits(op, l, r),
                And | Or | MetaEq | MetaNe | Is | Isnt => unreachable!(),
            }
        }
    }
}

/// libclassad refuses to compare two lists of the same provenance, or two
/// records, with `=?=`; other pairs are simply not identical.
fn identical_or_err(l: &Value, r: &Value) -> Option<bool> {
    let same_kind = match (l, r) {
        (Value::List(a), Value::List(b)) => a.literal == b.literal,
        (Value::Record(_), Value::Record(_)) => true,
        _ => false,
    };
    if same_kind {
        None
    } else {
        Some(identical(l, r))
    }
}

// Here rather than in `value`: `=?=` is an operator, and values sit
// below the evaluator.
impl Value {
    /// Exact structural identity, as `=?=` decides it for scalars.
    pub fn same_as(&self, other: &Value) -> bool {
        identical(self, other)
    }
}

/// `=?=`: same type and same value; strings compare case-sensitively.
pub fn identical(l: &Value, r: &Value) -> bool {
    match (l, r) {
        (Value::Undefined, Value::Undefined) | (Value::Error, Value::Error) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Int(a), Value::Int(b)) => a == b,
        (Value::Real(a), Value::Real(b)) => a == b,
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::AbsTime(a), Value::AbsTime(b)) => a == b,
        (Value::RelTime(a), Value::RelTime(b)) => a == b,
        _ => false,
    }
}

fn arith(op: BinaryOp, l: &Value, r: &Value) -> Value {
    use BinaryOp::*;
    // Time arithmetic first.
    match (l, r) {
        (Value::AbsTime(a), Value::RelTime(t)) => {
            return match op {
                Add => abs(a.secs + *t as i64, a.offset),
                Sub => abs(a.secs - *t as i64, a.offset),
                _ => Value::Error,
            }
        }
        (Value::RelTime(t), Value::AbsTime(a)) => {
            return match op {
                Add => abs(a.secs + *t as i64, a.offset),
                _ => Value::Error,
            }
        }
        (Value::AbsTime(a), Value::AbsTime(b)) => {
            return match op {
                Sub => Value::RelTime((a.secs - b.secs) as f64),
                _ => Value::Error,
            }
        }
        (Value::RelTime(a), Value::RelTime(b)) => {
            return match op {
                Add => Value::RelTime(a + b),
                Sub => Value::RelTime(a - b),
                _ => Value::Error,
            }
        }
        (Value::RelTime(t), x) | (x, Value::RelTime(t)) => {
            // Only integers and reals scale a relative time (not booleans).
            let n = match x {
                Value::Int(i) => *i as f64,
                Value::Real(r) => *r,
                _ => return Value::Error,
            };
            let rel_left = matches!(l, Value::RelTime(_));
            return match op {
                Mul => Value::RelTime(t * n),
                Div if rel_left => Value::RelTime(t / n),
                _ => Value::Error,
            };
        }
        _ => {}
    }
    let (Some(a), Some(b)) = (num(l), num(r)) else {
        return Value::Error;
    };
    match (a, b) {
        (Num::I(a), Num::I(b)) => match op {
            Add => Value::Int(a.wrapping_add(b)),
            Sub => Value::Int(a.wrapping_sub(b)),
            Mul => Value::Int(a.wrapping_mul(b)),
            Div => {
                if b == 0 {
                    Value::Error
                } else if a == i64::MIN && b == -1 {
                    Value::Int(i64::MAX)
                } else {
                    Value::Int(a / b)
                }
            }
            Mod => {
                if b == 0 {
                    Value::Error
                } else if b == -1 {
                    Value::Int(0)
                } else {
                    Value::Int(a % b)
                }
            }
            _ => Value::Error,
        },
        (a, b) => {
            let (a, b) = (as_f(a), as_f(b));
            match op {
                Add => real_result(a + b),
                Sub => real_result(a - b),
                Mul => real_result(a * b),
                Div => real_result(a / b),
                _ => Value::Error,
            }
        }
    }
}

fn abs(secs: i64, offset: i32) -> Value {
    Value::AbsTime(AbsTime { secs, offset })
}

fn compare(op: BinaryOp, l: &Value, r: &Value) -> Value {
    use std::cmp::Ordering;
    let ord: Option<Ordering> = match (l, r) {
        (Value::Str(a), Value::Str(b)) => Some(cmp_nocase(a, b)),
        (Value::AbsTime(a), Value::AbsTime(b)) => Some(a.secs.cmp(&b.secs)),
        (Value::RelTime(a), Value::RelTime(b)) => a.partial_cmp(b),
        _ => match (num(l), num(r)) {
            (Some(Num::I(a)), Some(Num::I(b))) => Some(a.cmp(&b)),
            (Some(a), Some(b)) => {
                let (a, b) = (as_f(a), as_f(b));
                match a.partial_cmp(&b) {
                    Some(o) => Some(o),
                    // NaN: every ordered comparison is false, != is true.
                    None => {
                        return Value::Bool(op == BinaryOp::Ne);
                    }
                }
            }
            _ => return Value::Error,
        },
    };
    let Some(o) = ord else {
        return Value::Bool(op == BinaryOp::Ne);
    };
    Value::Bool(match op {
        BinaryOp::Eq => o == Ordering::Equal,
        BinaryOp::Ne => o != Ordering::Equal,
        BinaryOp::Lt => o == Ordering::Less,
        BinaryOp::Le => o != Ordering::Greater,
        BinaryOp::Gt => o == Ordering::Greater,
        BinaryOp::Ge => o != Ordering::Less,
        _ => unreachable!(),
    })
}

fn bits(op: BinaryOp, l: &Value, r: &Value) -> Value {
    use BinaryOp::*;
    let (Value::Int(a), Value::Int(b)) = (l, r) else {
        return Value::Error;
    };
    let (a, b) = (*a, *b);
    // x86 masks shift counts to six bits; libclassad inherits that.
    let sh = (b & 63) as u32;
    Value::Int(match op {
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        Shl => a.wrapping_shl(sh),
        // libclassad shifts a negative value bit by bit: a count of 0 or
        // less leaves it, 64 or more gives -1 (no masking of the count).
        Shr if a < 0 => {
            if b <= 0 {
                a
            } else if b >= 63 {
                -1
            } else {
                a >> b
            }
        }
        Shr => a.wrapping_shr(sh),
        // libclassad masks a negative value's sign-extended bits with
        // ~(-1 << (64 - b)), using C's masked shift counts: so `-1 >>> 0`
        // is 0 while `3 >>> 0` is 3.
        Ushr if a < 0 => a.wrapping_shr(sh) & !(-1i64).wrapping_shl((64 - sh) & 63),
        Ushr => a.wrapping_shr(sh),
        _ => unreachable!(),
    })
}
