//! Conversions (`int`, `real`, `string`, `bool`), rounding and arithmetic
//! (`floor`, `ceiling`/`ceil`, `round`, `pow`, `quantize`, `random`), and
//! HTCondor's `evalInEachContext` / `countMatches`.
//!
//! libclassad converts doubles to integers with C casts, so out-of-range
//! and NaN values become `INT64_MIN` (see `time::c_llong`), and it reads
//! relative times back through a C `int` (`time::c_int`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::def::{eval_n, f, hf, FuncDef};
use crate::lang::ast::{Expr, ExprKind};
use crate::lang::eval::{Env, Evaluator, ScopeFind};
use crate::lang::time::{c_int, c_llong, format_abs_time, format_rel_time, is_c_space};
use crate::lang::value::Value;

pub(super) const FUNCS: &[FuncDef] = &[
    f("int", int_fn).pure(),
    f("real", real_fn).pure(),
    f("string", string_fn).pure(),
    f("bool", bool_fn).pure(),
    f("floor", floor_fn).pure(),
    f("ceiling", ceiling_fn).pure(),
    f("ceil", ceiling_fn).pure(),
    f("round", round_fn).pure(),
    f("pow", pow_fn).pure(),
    f("quantize", quantize_fn).pure(),
    f("random", random_fn),
    hf("evalInEachContext", eval_in_each_context),
    hf("countMatches", count_matches),
];

// ---- conversions shared with the other families ----

/// libclassad's `convertValueToIntegerValue`: undefined stays undefined;
/// strings are read with `strtod` (so `"1e3"` is 1000, `"42abc"` 42,
/// `"0x10"` 16, and no number at all is an error); reals truncate; times
/// give their seconds; booleans 0/1; lists and ads are errors.
pub(super) fn to_int(v: &Value) -> Value {
    match v {
        Value::Undefined => Value::Undefined,
        Value::Int(i) => Value::Int(*i),
        Value::Bool(b) => Value::Int(*b as i64),
        Value::Real(r) => Value::Int(c_llong(*r)),
        Value::AbsTime(t) => Value::Int(t.secs),
        Value::RelTime(r) => Value::Int(c_int(*r) as i64),
        Value::Str(s) => {
            let (r, used) = strtod_prefix(s);
            if used == 0 {
                Value::Error
            } else {
                Value::Int(c_llong(r))
            }
        }
        Value::Error | Value::List(_) | Value::Record(_) => Value::Error,
    }
}

/// libclassad's `convertValueToRealValue` (same rules as `to_int`, giving
/// reals; `"INF"`, `"nan"`, `"1e400"` convert to infinities and NaN).
pub(super) fn to_real(v: &Value) -> Value {
    match v {
        Value::Undefined => Value::Undefined,
        Value::Int(i) => Value::Real(*i as f64),
        Value::Bool(b) => Value::Real(if *b { 1.0 } else { 0.0 }),
        Value::Real(r) => Value::Real(*r),
        Value::AbsTime(t) => Value::Real(t.secs as f64),
        Value::RelTime(r) => Value::Real(c_int(*r) as f64),
        Value::Str(s) => {
            let (r, used) = strtod_prefix(s);
            if used == 0 {
                Value::Error
            } else {
                Value::Real(r)
            }
        }
        Value::Error | Value::List(_) | Value::Record(_) => Value::Error,
    }
}

/// libclassad's `convertValueToStringValue`: times are written without
/// their `absTime(…)` wrapper, everything else as the unparser writes it.
pub(super) fn to_string_value(v: &Value) -> Value {
    match v {
        Value::Undefined | Value::Error | Value::Str(_) => v.clone(),
        Value::AbsTime(t) => Value::str(format_abs_time(*t)),
        Value::RelTime(r) => Value::str(format_rel_time(*r)),
        _ => Value::str(v.to_string()),
    }
}

/// A number for the rounding functions: `real(v)`, or `None` when that is
/// not a real (undefined included).
fn real_of(v: &Value) -> Option<f64> {
    match to_real(v) {
        Value::Real(r) => Some(r),
        _ => None,
    }
}

fn one(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Option<Value> {
    eval_n::<1>(ev, args, env).map(|[v]| v)
}

/// `int(v)`: see `to_int`. `int(undefined)` is undefined.
fn int_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    one(ev, args, env).map_or(Value::Error, |v| to_int(&v))
}

/// `real(v)`: see `to_real`. `real("INF")` is the only way to write an
/// infinity, and is how the unparser writes one.
fn real_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    one(ev, args, env).map_or(Value::Error, |v| to_real(&v))
}

/// `string(v)`: see `to_string_value`; lists and ads are unparsed
/// (`string({x, 1+2})` is `"{ x,1 + 2 }"`).
fn string_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    one(ev, args, env).map_or(Value::Error, |v| to_string_value(&v))
}

/// `bool(v)`: numbers are true when non-zero (NaN is true); only the
/// strings `"true"`/`"false"` (any case) convert, other strings give
/// undefined; relative times are true when their whole seconds are
/// non-zero; absolute times, lists and ads are errors.
fn bool_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some(v) = one(ev, args, env) else {
        return Value::Error;
    };
    match v {
        Value::Undefined => Value::Undefined,
        Value::Bool(b) => Value::Bool(b),
        Value::Int(i) => Value::Bool(i != 0),
        Value::Real(r) => Value::Bool(r != 0.0),
        Value::RelTime(r) => Value::Bool(c_int(r) != 0),
        Value::Str(s) if s.eq_ignore_ascii_case("true") => Value::Bool(true),
        Value::Str(s) if s.eq_ignore_ascii_case("false") => Value::Bool(false),
        Value::Str(_) => Value::Undefined,
        _ => Value::Error,
    }
}

/// Shared by floor, ceiling and round: integers pass through; anything
/// else goes through `real()` (so `floor("2.5")` is 2 and `floor(undefined)`
/// is an error) and the result is a C `(long long)` cast, so infinities,
/// NaN and huge values give -9223372036854775808.
fn rounding(ev: &mut Evaluator, args: &[Expr], env: &Env, op: fn(f64) -> f64) -> Value {
    let Some(v) = one(ev, args, env) else {
        return Value::Error;
    };
    if let Value::Int(i) = v {
        return Value::Int(i);
    }
    match real_of(&v) {
        Some(r) => Value::Int(c_llong(op(r))),
        None => Value::Error,
    }
}

/// `floor(x)`; see `rounding`.
fn floor_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    rounding(ev, args, env, f64::floor)
}

/// `ceiling(x)` and its alias `ceil(x)`; see `rounding`.
fn ceiling_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    rounding(ev, args, env, f64::ceil)
}

/// `round(x)`: C's `rint`, so halves go to the even neighbour
/// (`round(2.5)` is 2, `round(-0.5)` is 0); see `rounding`.
fn round_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    rounding(ev, args, env, f64::round_ties_even)
}

/// `pow(base, exp)`: two integers with `exp >= 0` give the integer
/// `(long long)(pow(base, exp) + 0.5)` — so a negative odd power is one too
/// high (`pow(-2, 3)` is -7) and overflow gives -9223372036854775808.
/// Otherwise both go through `real()` and the result is a real, infinities
/// and NaN included (`pow(0, -1)` is `real("INF")`).
fn pow_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([a, b]) = eval_n::<2>(ev, args, env) else {
        return Value::Error;
    };
    if let (Value::Int(x), Value::Int(e)) = (&a, &b) {
        if *e >= 0 {
            return Value::Int(c_llong((*x as f64).powf(*e as f64) + 0.5));
        }
    }
    match (real_of(&a), real_of(&b)) {
        (Some(x), Some(e)) => Value::Real(x.powf(e)),
        _ => Value::Error,
    }
}

/// `quantize(x, q)`: round `x` up to a multiple of `q`. With a list, the
/// first element (converted with `real()`) that is `>= x` is returned as
/// written; past the end, the last element is the quantum (an empty list
/// means no quantizing); an element that does not convert is an error.
/// An integer quantum keeps an integer `x` an integer
/// (`((x + q - 1) / q) * q`, so `quantize(3, -4)` is 0); a zero quantum
/// (|q| <= 1e-8 for reals) returns `x` unchanged; otherwise the result is
/// the real `ceil(x / q) * q`.
fn quantize_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([arg, mut q]) = eval_n::<2>(ev, args, env) else {
        return Value::Error;
    };
    let Some(x) = real_of(&arg) else {
        return Value::Error;
    };
    let qr;
    if let Value::List(l) = &q {
        let l = l.clone();
        let mut last = Value::Real(0.0);
        let mut last_r = 0.0;
        for item in l.items.iter() {
            let v = ev.eval(item, &l.env);
            let Some(r) = real_of(&v) else {
                return Value::Error;
            };
            if r >= x {
                return v;
            }
            last = v;
            last_r = r;
        }
        q = last;
        qr = last_r;
    } else {
        match real_of(&q) {
            Some(r) => qr = r,
            None => return Value::Error,
        }
    }
    if let Value::Int(iq) = q {
        if iq == 0 {
            arg
        } else if let Value::Int(ix) = arg {
            Value::Int(ix.wrapping_add(iq - 1).wrapping_div(iq).wrapping_mul(iq))
        } else {
            Value::Real((x / iq as f64).ceil() * iq as f64)
        }
    } else if (-1e-8..=1e-8).contains(&qr) {
        arg
    } else {
        Value::Real((x / qr).ceil() * qr)
    }
}

static RANDOM_STATE: AtomicU64 = AtomicU64::new(0);

/// A non-negative C `int`, like libclassad's `lrand48() & INT_MAX`.
fn random_int(ev: &Evaluator) -> i32 {
    let mut s = RANDOM_STATE.load(Ordering::Relaxed);
    if s == 0 {
        s = ev.opts.clock.now().to_bits() | 1;
    }
    // splitmix64
    s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    RANDOM_STATE.store(s, Ordering::Relaxed);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z & i32::MAX as u64) as i32
}

/// `random([x])`: an integer `x` gives an integer in `[0, x)` (x read as a
/// C `int`), a real gives a real in `[0, x)`; no argument means
/// `random(1.0)`. libclassad aborts the evaluation for `x <= 0`; that is an
/// error here. Other types are errors.
fn random_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let v = match args.len() {
        0 => Value::Real(1.0),
        1 => ev.eval(&args[0], env),
        _ => return Value::Error,
    };
    match v {
        Value::Int(i) => {
            let max = i as i32;
            if max <= 0 {
                return Value::Error;
            }
            Value::Int((random_int(ev) % max) as i64)
        }
        Value::Real(r) => {
            if r <= 0.0 {
                return Value::Error;
            }
            Value::Real(r * (random_int(ev) as f64 / i32::MAX as f64))
        }
        _ => Value::Error,
    }
}

// ---- evalInEachContext / countMatches (HTCondor) ----
//
// HTCondor implements both in one function (compat_classad.cpp) that works
// on libclassad's `EvalState` directly, and several of its effects come from
// that state rather than from the language:
//
// * An attribute-reference first argument (`x`, `.x`, `b.x`) is looked up
//   first (`AttributeReference::Deref`); when found, the expression it names
//   is what gets evaluated in each ad (or, for `self`, `parent`, `my`, a
//   match's `target`..., the ad it names). The lookup also moves the state's
//   current scope: to the ad that holds the name, or else to the last scope
//   searched (the root: the MY ad, or the match ad). The second argument
//   (unless a literal list) and every element of the list are evaluated in
//   that scope — so in a match, `countMatches(TARGET.a, lr)` finds `lr` only
//   through TARGET's alternate scope (HTCondor mode), and after a name that
//   is not found, `lr` is looked up in the match ad and is undefined.
// * `b.x` with `b` a list is the list of `x` from each element.
// * In an HTCondor-mode match, each nested ad borrows the alternate scope of
//   the side it sits in (`evaluateInContext`): names not found from a nested
//   ad of MY are looked up in TARGET, and the other way round.

/// The first argument after HTCondor's lookup: an expression to evaluate
/// in each ad, or a fixed value.
enum Subject {
    Expr(Expr),
    Value(Value),
}

/// HTCondor's `Deref` of the first argument: the subject, the scope the
/// rest of the call is evaluated in, and whether the subject is an
/// attribute's definition (found in that scope) rather than the argument.
fn deref(ev: &mut Evaluator, e: &Expr, env: &Env) -> (Subject, Env, bool) {
    let (found, scope) = match &e.kind {
        ExprKind::Attr { name, absolute } => {
            let start = if *absolute {
                ev.root_scope()
            } else {
                env.clone()
            };
            ev.lookup_in_scope(&start, name, !*absolute)
        }
        ExprKind::Select(base, name) => match ev.eval(base, env) {
            Value::Record(r) => {
                let start = ev.record_env(&r);
                ev.lookup_in_scope(&start, name, false)
            }
            // `list.x`: the list of each element's `x`.
            Value::List(_) => return (Subject::Value(ev.eval(e, env)), env.clone(), false),
            // The lookup never started: the scope is unchanged.
            _ => return (Subject::Expr(e.clone()), env.clone(), false),
        },
        _ => return (Subject::Expr(e.clone()), env.clone(), false),
    };
    match found {
        ScopeFind::Expr(x) => (Subject::Expr(x), scope, true),
        ScopeFind::Value(v) => (Subject::Value(v), scope, false),
        ScopeFind::NotFound => (Subject::Expr(e.clone()), scope, false),
    }
}

/// A record literal, possibly in parentheses: it evaluates to itself, in
/// its lexical scope, wherever it is evaluated from.
fn is_record_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Record(_) => true,
        ExprKind::Paren(inner) => is_record_literal(inner),
        _ => false,
    }
}

/// Evaluate the subject in each element of the second argument. `None`
/// means the list itself was undefined; `Some(Err)` an error.
fn each_context(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Option<Result<Vec<Value>, ()>> {
    if args.len() != 2 {
        return Some(Err(()));
    }
    // The scope libclassad's state is in (an earlier call may have moved
    // it); the lookup of an attribute-reference subject moves it again.
    let current = ev.current_scope(env);
    let (subject, scope, found) = deref(ev, &args[0], &current);
    // Where the call, and the subject, were written (a subject found by the
    // lookup was written in the ad that defines it).
    let call_scope = ev.lexical_scope(env);
    let subject_scope = if found {
        scope.clone()
    } else {
        call_scope.clone()
    };
    if matches!(args[0].kind, ExprKind::Attr { .. } | ExprKind::Select(..)) {
        ev.set_current_scope(env, scope.clone());
    }
    // A list written in the call (even in parentheses) keeps the call's
    // scope as its lexical scope, wherever it is evaluated from.
    let mut written = &args[1];
    while let ExprKind::Paren(inner) = &written.kind {
        written = inner;
    }
    let (items, lexical, in_call): (Arc<[Expr]>, Env, bool) = match &written.kind {
        ExprKind::List(items) => (items.clone(), env.clone(), true),
        _ => match ev.eval_lexical(&args[1], &scope, &call_scope) {
            Value::List(l) => (l.items.clone(), l.env.clone(), false),
            Value::Undefined => return None,
            _ => return Some(Err(())),
        },
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        let value = if is_record_literal(item) {
            ev.eval(item, &lexical)
        } else if in_call {
            ev.eval_lexical(item, &scope, &call_scope)
        } else {
            ev.eval(item, &scope)
        };
        out.push(match value {
            Value::Record(r) => match &subject {
                Subject::Value(v) => v.clone(),
                Subject::Expr(x) => {
                    let alt = ev.alternate_for_parent(&r.env);
                    ev.eval_in_context(x, &r, alt, &subject_scope)
                }
            },
            Value::Undefined => Value::Undefined,
            _ => Value::Error,
        });
    }
    Some(Ok(out))
}

/// `evalInEachContext(expr, ads)` (HTCondor): the list of `expr` evaluated
/// inside each ad of the list (`undefined` for undefined elements, `error`
/// for other non-ads); `undefined` when the list is. See the notes above
/// for how the arguments are scoped.
fn eval_in_each_context(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    match each_context(ev, args, env) {
        None => Value::Undefined,
        Some(Err(())) => Value::Error,
        Some(Ok(vals)) => Value::list_of(vals),
    }
}

/// `countMatches(expr, ads)` (HTCondor): how many ads `expr` is true in
/// (booleans, or non-zero numbers); an undefined list counts 0 rather than
/// propagating.
fn count_matches(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    match each_context(ev, args, env) {
        None => Value::Int(0),
        Some(Err(())) => Value::Error,
        Some(Ok(vals)) => Value::Int(vals.iter().filter(|v| v.is_true()).count() as i64),
    }
}

// ---- strtod ----

/// C's `strtod` on a prefix of `s`: the value and how many bytes it used
/// (0 when there is no number). Accepts leading space, a sign, decimals
/// with an exponent, `inf`/`infinity`, `nan[(…)]` and hexadecimal
/// (`0x1p3`).
pub(crate) fn strtod_prefix(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_c_space(b[i]) {
        i += 1;
    }
    let sign = if b.get(i) == Some(&b'-') { -1.0 } else { 1.0 };
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let lower: String = b[i..b.len().min(i + 8)]
        .iter()
        .map(|c| c.to_ascii_lowercase() as char)
        .collect();
    if lower.starts_with("infinity") {
        return (sign * f64::INFINITY, i + 8);
    }
    if lower.starts_with("inf") {
        return (sign * f64::INFINITY, i + 3);
    }
    if lower.starts_with("nan") {
        let mut j = i + 3;
        if b.get(j) == Some(&b'(') {
            if let Some(k) = b[j..].iter().position(|&c| c == b')') {
                if b[j + 1..j + k]
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    j += k + 1;
                }
            }
        }
        return (f64::NAN, j);
    }
    if lower.starts_with("0x") {
        return match hex_float(&b[i + 2..]) {
            Some((v, n)) => (sign * v, i + 2 + n),
            None => (sign * 0.0, i + 1), // just the "0"
        };
    }
    let digits_from = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let int_end = digits_from(i);
    let mut end = int_end;
    let mut frac = 0;
    if b.get(end) == Some(&b'.') {
        let f_end = digits_from(end + 1);
        frac = f_end - end - 1;
        end = f_end;
    }
    if int_end == i && frac == 0 {
        return (0.0, 0);
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let e_end = digits_from(j);
        if e_end > j {
            end = e_end;
        }
    }
    (sign * s[i..end].parse::<f64>().unwrap_or(0.0), end)
}

/// The digits of a hexadecimal float after `0x`: value and bytes used.
fn hex_float(b: &[u8]) -> Option<(f64, usize)> {
    let hex = |c: u8| (c as char).to_digit(16).map(f64::from);
    let (mut i, mut mant, mut exp, mut any) = (0, 0f64, 0i32, false);
    while let Some(d) = b.get(i).and_then(|&c| hex(c)) {
        mant = mant * 16.0 + d;
        i += 1;
        any = true;
    }
    if b.get(i) == Some(&b'.') {
        let mut j = i + 1;
        while let Some(d) = b.get(j).and_then(|&c| hex(c)) {
            mant = mant * 16.0 + d;
            exp -= 4;
            j += 1;
            any = true;
        }
        if any {
            i = j;
        }
    }
    if !any {
        return None;
    }
    if matches!(b.get(i), Some(b'p' | b'P')) {
        let mut j = i + 1;
        let neg = b.get(j) == Some(&b'-');
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let d0 = j;
        let mut e: i32 = 0;
        while let Some(c) = b.get(j).filter(|c| c.is_ascii_digit()) {
            e = e.saturating_mul(10).saturating_add((c - b'0') as i32);
            j += 1;
        }
        if j > d0 {
            exp = exp.saturating_add(if neg { -e } else { e });
            i = j;
        }
    }
    Some((mant * 2f64.powi(exp), i))
}
