//! List functions: `member`, `identicalMember`, `sum`, `avg`, `min`, `max`,
//! `anyCompare`, `allCompare` (`size` is with the string functions).
//!
//! Element comparisons use the language's own operators, so they ignore
//! case for strings and treat booleans as numbers, as libclassad does.

use super::def::{eval_n, f, FuncDef};
use crate::lang::ast::{BinaryOp, Expr};
use crate::lang::eval::{ops, Env, Evaluator};
use crate::lang::value::{ListValue, Value};

pub(super) const FUNCS: &[FuncDef] = &[
    f("member", member).pure(),
    f("identicalMember", identical_member).pure(),
    f("sum", sum).pure(),
    f("avg", avg).pure(),
    f("min", min).pure(),
    f("max", max).pure(),
    f("anyCompare", any_compare).pure(),
    f("allCompare", all_compare).pure(),
];

/// Functions of the seed papers (thesis Appendix A) that today's
/// libclassad does not define: registered for the seed dialect only
/// (`functions::Table::seed_by_name`); in the modern one a call to them is
/// an error, as in HTCondor.
pub(super) const SEED_FUNCS: &[FuncDef] = &[f("isMember", identical_member).pure()];

/// Shared by `member` (`==`) and `identicalMember` (`is`). An undefined
/// list is undefined, and so is an undefined value for `member`; a value
/// that is a list or ad, or a second argument that is not a list, is an
/// error; `member(error, …)` is an error while `identicalMember` looks for
/// `error` like any other value. Elements are compared in order and the
/// first `true` wins; comparisons that are not `true` (undefined, error)
/// just don't match, so `member(1, {error, 1})` is true.
fn test_member(ev: &mut Evaluator, args: &[Expr], env: &Env, use_is: bool) -> Value {
    let Some([v, list]) = eval_n::<2>(ev, args, env) else {
        return Value::Error;
    };
    if list.is_undefined() || (!use_is && v.is_undefined()) {
        return Value::Undefined;
    }
    let Value::List(l) = list else {
        return Value::Error;
    };
    if matches!(v, Value::List(_) | Value::Record(_)) || (!use_is && v.is_error()) {
        return Value::Error;
    }
    let op = if use_is { BinaryOp::Is } else { BinaryOp::Eq };
    for item in l.items.iter() {
        let e = ev.eval(item, &l.env);
        if let Value::Bool(true) = ops::binary(op, &e, &v) {
            return Value::Bool(true);
        }
    }
    Value::Bool(false)
}

/// `member(v, list)`: whether some element `== v`. See `test_member`.
fn member(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    test_member(ev, args, env, false)
}

/// `identicalMember(v, list)`: whether some element `is v` (same type,
/// strings compared case-sensitively). See `test_member`.
fn identical_member(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    test_member(ev, args, env, true)
}

/// The single list argument of sum/avg/min/max: `Err(v)` is the answer
/// when it is not a list (undefined for undefined, else error).
fn list_arg(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Result<ListValue, Value> {
    match eval_n::<1>(ev, args, env) {
        Some([Value::List(l)]) => Ok(l),
        Some([Value::Undefined]) => Err(Value::Undefined),
        _ => Err(Value::Error),
    }
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Real(_) | Value::Bool(_))
}

/// Sum of the numeric elements, undefined ones skipped, with the language's
/// `+` (integer overflow wraps, a real overflow is an error). Returns the
/// sum (integer 0 for none, the lone element itself for one — so
/// `sum({true})` is `true`) and how many elements were added; a
/// non-numeric element is an error.
fn total(ev: &mut Evaluator, l: &ListValue) -> Result<(Value, usize), Value> {
    let mut acc = Value::Int(0);
    let mut n = 0;
    for item in l.items.iter() {
        let v = ev.eval(item, &l.env);
        if v.is_undefined() {
            continue;
        }
        if !is_number(&v) {
            return Err(Value::Error);
        }
        acc = if n == 0 {
            v
        } else {
            ops::binary(BinaryOp::Add, &acc, &v)
        };
        n += 1;
    }
    Ok((acc, n))
}

/// `sum(list)`: see `total`. `sum({})` is 0.
fn sum(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    match list_arg(ev, args, env) {
        Ok(l) => total(ev, &l).map_or_else(|e| e, |(s, _)| s),
        Err(v) => v,
    }
}

/// `avg(list)`: the sum divided by the real count of numeric elements.
/// libclassad's quirk: with no numeric elements the (integer) sum is
/// returned, so `avg({})` is 0, not undefined.
fn avg(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let l = match list_arg(ev, args, env) {
        Ok(l) => l,
        Err(v) => return v,
    };
    match total(ev, &l) {
        Ok((s, 0)) => s,
        Ok((s, n)) => ops::binary(BinaryOp::Div, &s, &Value::Real(n as f64)),
        Err(e) => e,
    }
}

/// Coerce two numbers in place as libclassad's comparison does: booleans
/// become integers, and an integer meeting a real becomes a real.
fn coerce(a: &mut Value, b: &mut Value) {
    for v in [&mut *a, &mut *b] {
        if let Value::Bool(x) = v {
            *v = Value::Int(*x as i64);
        }
    }
    if matches!(a, Value::Real(_)) || matches!(b, Value::Real(_)) {
        for v in [a, b] {
            if let Value::Int(i) = v {
                *v = Value::Real(*i as f64);
            }
        }
    }
}

/// min/max: undefined elements are skipped, a non-numeric one is an error,
/// no numbers at all is undefined. libclassad compares with operands it
/// has coerced in place, so once a comparison happens the result carries
/// the promoted type: `min({1, 2.5})` is `1.0`, `min({false, true})` is
/// `0`, but `min({true})` is `true`. NaN never wins a comparison, so the
/// result depends on the order (`min({NaN, 1})` is NaN, `min({1, NaN})` 1.0).
fn bound(ev: &mut Evaluator, args: &[Expr], env: &Env, op: BinaryOp) -> Value {
    let l = match list_arg(ev, args, env) {
        Ok(l) => l,
        Err(v) => return v,
    };
    let mut best = Value::Undefined;
    let mut first = true;
    for item in l.items.iter() {
        let mut v = ev.eval(item, &l.env);
        if v.is_undefined() {
            continue;
        }
        if !is_number(&v) {
            return Value::Error;
        }
        if first {
            best = v;
            first = false;
            continue;
        }
        coerce(&mut v, &mut best);
        if let Value::Bool(true) = ops::binary(op, &v, &best) {
            best = v;
        }
    }
    best
}

/// `min(list)`: see `bound`.
fn min(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    bound(ev, args, env, BinaryOp::Lt)
}

/// `max(list)`: see `bound`.
fn max(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    bound(ev, args, env, BinaryOp::Gt)
}

/// anyCompare/allCompare(op, list, v): `op` is one of the strings `<`,
/// `<=`, `!=`, `==`, `>`, `>=`, `is`, `isnt` (exactly; `=?=` is an error).
/// An undefined op or list is undefined; other non-strings, unknown ops and
/// non-lists are errors. Each `element op v` is computed in order: `true`
/// settles anyCompare, `false` settles allCompare, `error` is an error — and
/// an undefined comparison ends either function with `false` at once (so
/// `anyCompare("==", {undefined, 1}, 1)` is false but `{1, undefined}` is
/// true). Empty lists: anyCompare false, allCompare true.
fn list_compare(ev: &mut Evaluator, args: &[Expr], env: &Env, all: bool) -> Value {
    if args.len() != 3 {
        return Value::Error;
    }
    let op = match ev.eval(&args[0], env) {
        Value::Undefined => return Value::Undefined,
        Value::Str(s) => match &*s {
            "<" => BinaryOp::Lt,
            "<=" => BinaryOp::Le,
            "!=" => BinaryOp::Ne,
            "==" => BinaryOp::Eq,
            ">" => BinaryOp::Gt,
            ">=" => BinaryOp::Ge,
            "is" => BinaryOp::Is,
            "isnt" => BinaryOp::Isnt,
            _ => return Value::Error,
        },
        _ => return Value::Error,
    };
    let l = match ev.eval(&args[1], env) {
        Value::List(l) => l,
        Value::Undefined => return Value::Undefined,
        _ => return Value::Error,
    };
    let target = ev.eval(&args[2], env);
    for item in l.items.iter() {
        let v = ev.eval(item, &l.env);
        match ops::binary(op, &v, &target) {
            Value::Bool(b) if b != all => return Value::Bool(b),
            Value::Bool(_) => {}
            Value::Undefined => return Value::Bool(false),
            _ => return Value::Error,
        }
    }
    Value::Bool(all)
}

/// `anyCompare(op, list, v)`: see `list_compare`.
fn any_compare(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    list_compare(ev, args, env, false)
}

/// `allCompare(op, list, v)`: see `list_compare`.
fn all_compare(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    list_compare(ev, args, env, true)
}
