//! Type predicates, conversions and the lazy/meta functions:
//! isUndefined … isReltime, ifThenElse, eval, unparse, unresolved, debug.

use super::def::{eval_n, f, FuncDef};
use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::{Env, Evaluator};
use crate::lang::mode::Mode;
use crate::lang::value::{Value, ValueKind};

pub(super) const FUNCS: &[FuncDef] = &[
    f("isUndefined", is_undefined).pure(),
    f("isError", is_error).pure(),
    f("isString", is_string).pure(),
    f("isInteger", is_integer).pure(),
    f("isReal", is_real).pure(),
    f("isBoolean", is_boolean).pure(),
    f("isList", is_list).pure(),
    f("isClassAd", is_classad).pure(),
    f("isAbstime", is_abstime).pure(),
    f("isReltime", is_reltime).pure(),
    f("ifThenElse", if_then_else).pure(),
    f("eval", eval_fn),
    f("unparse", unparse_fn),
    f("unresolved", unresolved),
    f("debug", debug_fn),
];

fn predicate(ev: &mut Evaluator, args: &[Expr], env: &Env, kind: ValueKind) -> Value {
    match eval_n::<1>(ev, args, env) {
        Some([v]) => Value::Bool(v.kind() == kind),
        None => Value::Error,
    }
}

fn is_undefined(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::Undefined)
}
fn is_error(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::Error)
}
fn is_string(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::String)
}
fn is_integer(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::Integer)
}
fn is_real(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::Real)
}
fn is_boolean(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::Boolean)
}
fn is_list(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::List)
}
fn is_classad(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::ClassAd)
}
fn is_abstime(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::AbsTime)
}
fn is_reltime(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    predicate(ev, a, e, ValueKind::RelTime)
}

/// Lazy: only the chosen branch is evaluated.
fn if_then_else(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if args.len() != 3 {
        return Value::Error;
    }
    let c = ev.eval(&args[0], env);
    match c {
        Value::Bool(true) => ev.eval(&args[1], env),
        Value::Bool(false) => ev.eval(&args[2], env),
        Value::Int(i) => ev.eval(&args[if i != 0 { 1 } else { 2 }], env),
        Value::Real(r) => ev.eval(&args[if r != 0.0 { 1 } else { 2 }], env),
        Value::Undefined => Value::Undefined,
        _ => Value::Error,
    }
}

/// `eval(s)`: parse the string (with the mode's lexical rules) and
/// evaluate it in the current scope. Any other value is returned as it
/// is, except undefined, which libclassad turns into error.
fn eval_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    match v {
        Value::Str(s) => {
            match crate::lang::parser::parse_expr_with(
                &s,
                crate::lang::lexer::Dialect::Modern,
                ev.mode(),
            ) {
                Ok(e) => ev.eval(&e, env),
                Err(_) => Value::Error,
            }
        }
        Value::Undefined => Value::Error,
        other => other,
    }
}

/// `unparse(attr)`: the text of an attribute's definition, found in the
/// local scope only. libclassad answers `""` for a name it cannot find
/// and for any other form of reference (`MY.x`, `r.q`), error for a
/// non-reference.
fn unparse_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if args.len() != 1 {
        return Value::Error;
    }
    match &args[0].kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } => match ev.find_local_expr(env, name) {
            Some(e) => Value::str(match e.kind {
                ExprKind::List(_) | ExprKind::Record(_) => crate::lang::unparse::unparse_pretty(&e),
                _ => crate::lang::unparse::unparse(&e),
            }),
            None => Value::str(""),
        },
        ExprKind::Attr { .. } | ExprKind::Select(..) => Value::str(""),
        _ => Value::Error,
    }
}

/// `unresolved(attr)`: the external references of an attribute's
/// definition (following the ad's own attributes), comma-separated in
/// libclassad's order; undefined when the attribute does not exist.
/// `unresolved(attr, regex)`: whether any of those references has a
/// non-empty match of the regular expression (PCRE, caseless, as
/// libclassad's PCRE2_NOTEMPTY search); a pattern that is not a string, or
/// does not compile, is error.
fn unresolved(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if args.is_empty() || args.len() > 2 {
        return Value::Error;
    }
    let name = match &args[0].kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } => name,
        // `MY.attr` names the same attribute; plain libclassad (strict mode)
        // knows `MY` only inside a match.
        ExprKind::Select(base, name) if is_my(base) => {
            if ev.mode() == Mode::Strict && !ev.has_target() {
                return Value::Undefined;
            }
            name
        }
        _ => return Value::Error,
    };
    let Some(ad) = ev.scope_ad(env) else {
        return Value::Undefined;
    };
    let Some(def) = ad.get(&name.text) else {
        return Value::Undefined;
    };
    let names = unresolved_names(ev, def, &ad);
    let Some(pattern) = args.get(1) else {
        return Value::str(names.join(","));
    };
    let Value::Str(pattern) = ev.eval(pattern, env) else {
        return Value::Error;
    };
    let opts = super::pcre::ReOpts {
        caseless: true,
        ..Default::default()
    };
    let Some(re) = super::pcre::Pcre::new(&pattern, opts) else {
        return Value::Error;
    };
    for n in &names {
        match re.has_nonempty_match(n.as_bytes()) {
            Ok(true) => return Value::Bool(true),
            Ok(false) => {}
            Err(()) => return Value::Error,
        }
    }
    Value::Bool(false)
}

fn is_my(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Attr { name, absolute: false } if name.is("my"))
}

/// The external references of `def` in `ad` as `unresolved()` names them:
/// sorted without regard to case, `TARGET.x` as `x` when a match target
/// exists (and left out when that target defines `x`), `MY.x` as `x` in
/// HTCondor mode.
fn unresolved_names(ev: &Evaluator, def: &Expr, ad: &Arc<ClassAd>) -> Vec<String> {
    let strict = ev.mode() == Mode::Strict;
    let Some(refs) = crate::lang::refs::expr_refs_full_names(def, ad, strict) else {
        return Vec::new();
    };
    let has_target = ev.has_target();
    let target = ev.target_of(ad);
    // libclassad sorts the full names (`TARGET.x` sorts under T when there
    // is no target to resolve it), then prints them without the prefix.
    let mut full: Vec<String> = refs
        .iter()
        .filter_map(|r| match r.strip_prefix("TARGET.") {
            Some(bare) if has_target => {
                let defined = target.as_ref().is_some_and(|t| t.get(bare).is_some());
                (!defined).then(|| bare.to_string())
            }
            _ => Some(r.clone()),
        })
        .collect();
    full.sort_by(|a, b| crate::lang::names::cmp_nocase(a, b));
    full.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    // HTCondor mode reports `MY.x` as `x`; plain libclassad keeps the prefix.
    full.iter()
        .map(|r| {
            let r = r.strip_prefix("TARGET.").unwrap_or(r);
            match r.strip_prefix("MY.") {
                Some(b) if !strict => b.to_string(),
                _ => r.to_string(),
            }
        })
        .collect()
}

/// `debug(expr)`: evaluates its argument (the trace view shows the rest).
fn debug_fn(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    match eval_n::<1>(ev, args, env) {
        Some([v]) => v,
        None => Value::Error,
    }
}
