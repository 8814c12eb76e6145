//! libclassad's string functions: strcat, join, toUpper, toLower, substr,
//! strcmp, stricmp, size, the version comparisons, and the PCRE-based
//! regexp, regexps, replace, replaceall and regexpMember.
//!
//! libclassad works on C strings, so everything here is byte-oriented:
//! lengths and offsets count bytes, case changes are ASCII-only, and the
//! regular-expression engine runs in PCRE's non-UTF mode (`.` is one byte).
//! A result that cuts a multi-byte character in two cannot be held in a
//! Rust string; it becomes U+FFFD (libclassad would keep the raw bytes).
//!
//! HTCondor's string-list and string/list conversion helpers (stringList*,
//! split*, argsToList, envV1ToV2, ...) live in `stringlists.rs`.

use std::borrow::Cow;

use super::def::{eval_args, eval_n, f, FuncDef};
use super::pcre::{Pcre, ReOpts};
use crate::lang::ast::Expr;
use crate::lang::eval::{bounds, Env, Evaluator};
use crate::lang::value::Value;

pub(super) const FUNCS: &[FuncDef] = &[
    f("strcat", strcat).pure(),
    f("join", join).pure(),
    f("toUpper", to_upper).pure(),
    f("toLower", to_lower).pure(),
    f("substr", substr).pure(),
    f("strcmp", strcmp).pure(),
    f("stricmp", stricmp).pure(),
    f("size", size).pure(),
    f("versioncmp", versioncmp).pure(),
    f("versionLT", version_lt).pure(),
    f("versionLE", version_le).pure(),
    f("versionGT", version_gt).pure(),
    f("versionGE", version_ge).pure(),
    f("versionEQ", version_eq).pure(),
    f("version_in_range", version_in_range).pure(),
    f("regexp", regexp).pure(),
    f("regexps", regexps).pure(),
    f("replace", replace).pure(),
    f("replaceall", replace_all).pure(),
    f("regexpMember", regexp_member).pure(),
];

// ---- shared helpers ----

/// libclassad's `convertValueToStringValue`: strings as they are, numbers
/// and booleans as literals, reals in canonical `%.15E` form, times as
/// their bare text (no `absTime(...)` wrapper), lists and records
/// unparsed. `Err` carries `undefined` or `error`.
pub(super) fn convert_to_string(v: &Value) -> Result<Cow<'_, str>, Value> {
    Ok(match v {
        Value::Str(s) => Cow::Borrowed(&**s),
        Value::Undefined => return Err(Value::Undefined),
        Value::Error => return Err(Value::Error),
        Value::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Value::Int(i) => Cow::Owned(i.to_string()),
        Value::AbsTime(t) => Cow::Owned(crate::lang::time::format_abs_time(*t)),
        Value::RelTime(t) => Cow::Owned(crate::lang::time::format_rel_time(*t)),
        Value::Real(_) | Value::List(_) | Value::Record(_) => {
            Cow::Owned(crate::lang::unparse::value_to_string(v))
        }
    })
}

/// A string built from raw bytes; byte-level slicing may split a UTF-8
/// sequence, which becomes U+FFFD.
pub(super) fn bytes_to_value(b: Vec<u8>) -> Value {
    match String::from_utf8(b) {
        Ok(s) => Value::from(s),
        Err(e) => Value::from(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// The bytes of a string up to its first NUL, as a C function sees them.
fn c_bytes(s: &str) -> &[u8] {
    let b = s.as_bytes();
    match b.iter().position(|&c| c == 0) {
        Some(i) => &b[..i],
        None => b,
    }
}

// ---- strcat / join ----

/// `strcat(a, b, ...)`: concatenate the arguments converted to strings.
/// Stops at the first undefined (result undefined) or error (result error).
fn strcat(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    cat(ev, args, env, false)
}

/// `join(sep, a, b, ...)`, `join(sep, list)`, `join(list)`: join the items
/// with the separator. Undefined items are skipped; the separator is only
/// inserted once the output is non-empty, so leading empty items vanish.
/// The result is undefined only when something was undefined and nothing
/// was joined.
fn join(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    cat(ev, args, env, true)
}

enum Item<'a> {
    Arg(&'a Expr),
    Val(Value),
}

fn cat(ev: &mut Evaluator, args: &[Expr], env: &Env, is_join: bool) -> Value {
    let mut items: Vec<Item> = args.iter().map(Item::Arg).collect();
    if is_join && (1..=2).contains(&args.len()) {
        let last = ev.eval(&args[args.len() - 1], env);
        if let Value::List(l) = &last {
            let sep = if args.len() == 2 {
                Item::Arg(&args[0])
            } else {
                Item::Val(Value::str(""))
            };
            items = std::iter::once(sep)
                .chain(ev.list_values(l).into_iter().map(Item::Val))
                .collect();
        } else {
            *items.last_mut().unwrap() = Item::Val(last);
        }
    }
    let (mut buf, mut sep) = (String::new(), String::new());
    let (mut undef, mut def) = (false, false);
    for (i, item) in items.into_iter().enumerate() {
        let v = match item {
            Item::Arg(e) => ev.eval(e, env),
            Item::Val(v) => v,
        };
        let s = match convert_to_string(&v) {
            Ok(s) => s,
            Err(Value::Undefined) => {
                undef = true;
                if is_join {
                    continue;
                }
                def = false;
                break;
            }
            Err(_) => return Value::Error,
        };
        if is_join && i == 0 {
            sep = s.into_owned();
            continue;
        }
        let sep = if is_join && !buf.is_empty() {
            &sep[..]
        } else {
            ""
        };
        let len = buf.len() + sep.len() + s.len();
        if !bounds::fits(len) {
            return ev.refuse_value(len);
        }
        buf.push_str(sep);
        def = true;
        buf.push_str(&s);
    }
    if undef && !def {
        Value::Undefined
    } else {
        Value::from(buf)
    }
}

// ---- case, substr, comparison, size ----

/// `toUpper(s)`: ASCII upper case of the argument converted to a string
/// (so `toUpper({"a"})` is `"{ \"A\" }"`).
fn to_upper(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    change_case(ev, args, env, false)
}

/// `toLower(s)`: ASCII lower case of the argument converted to a string.
fn to_lower(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    change_case(ev, args, env, true)
}

fn change_case(ev: &mut Evaluator, args: &[Expr], env: &Env, lower: bool) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    match convert_to_string(&v) {
        Ok(s) if lower => Value::from(s.to_ascii_lowercase()),
        Ok(s) => Value::from(s.to_ascii_uppercase()),
        Err(e) => e,
    }
}

/// `substr(s, offset [, length])`: Perl-like substring on bytes. Negative
/// offsets count from the end, a non-positive length leaves that many
/// bytes off the end, an explicit length 0 gives "". Offset and length are
/// C `int`s: larger integers wrap to 32 bits. Undefined wins over error;
/// non-string `s` or non-integer offset/length is an error.
fn substr(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if !(2..=3).contains(&args.len()) {
        return Value::Error;
    }
    let vals = eval_args(ev, args, env);
    if vals.iter().any(Value::is_undefined) {
        return Value::Undefined;
    }
    let (Value::Str(s), Value::Int(off)) = (&vals[0], &vals[1]) else {
        return Value::Error;
    };
    let explicit_len = match vals.get(2) {
        Some(Value::Int(l)) => Some(*l as i32),
        Some(_) => return Value::Error,
        None => None,
    };
    let b = s.as_bytes();
    let alen = b.len() as i64;
    let mut off = *off as i32 as i64;
    let mut len = explicit_len.unwrap_or(0) as i64;
    if off < 0 {
        off = (alen + off).max(0);
    } else if off >= alen {
        off = alen;
    }
    if len <= 0 {
        len = (alen - off + len).max(0);
    } else if len > alen - off {
        len = alen - off;
    }
    if explicit_len == Some(0) {
        len = 0;
    }
    bytes_to_value(b[off as usize..(off + len) as usize].to_vec())
}

/// `strcmp(a, b)`: -1, 0 or 1 comparing bytes; arguments are converted to
/// strings (`strcmp(1, "1")` is 0). Undefined wins over error.
fn strcmp(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    compare_strings(ev, args, env, false)
}

/// `stricmp(a, b)`: like strcmp but ignoring ASCII case (C `strcasecmp`,
/// which folds to lower case: `stricmp("_", "a")` is -1).
fn stricmp(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    compare_strings(ev, args, env, true)
}

fn compare_strings(ev: &mut Evaluator, args: &[Expr], env: &Env, nocase: bool) -> Value {
    let Some([a, b]) = eval_n::<2>(ev, args, env) else {
        return Value::Error;
    };
    if a.is_undefined() || b.is_undefined() {
        return Value::Undefined;
    }
    let (Ok(a), Ok(b)) = (convert_to_string(&a), convert_to_string(&b)) else {
        return Value::Error;
    };
    let (a, b) = (c_bytes(&a), c_bytes(&b));
    let ord = if nocase {
        let fold = |s: &[u8]| s.iter().map(u8::to_ascii_lowercase).collect::<Vec<u8>>();
        fold(a).cmp(&fold(b))
    } else {
        a.cmp(b)
    };
    Value::Int(ord as i64)
}

/// `size(x)`: bytes in a string, elements in a list (not evaluated),
/// attributes in a record; undefined stays undefined, anything else error.
fn size(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    match v {
        Value::Undefined => Value::Undefined,
        Value::Str(s) => Value::Int(s.len() as i64),
        Value::List(l) => Value::Int(l.items.len() as i64),
        Value::Record(r) => Value::Int(r.ad.len() as i64),
        _ => Value::Error,
    }
}

// ---- version comparison ----

/// HTCondor's `natural_cmp` (strverscmp-like), returning its raw C value:
/// the difference of the mismatching bytes (as signed chars) or of digit
/// run lengths, so `versioncmp("abc", "abcd")` is -100.
fn natural_cmp(a: &[u8], b: &[u8]) -> i64 {
    let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(0);
    let sc = |c: u8| c as i8 as i64;
    let dig = |c: u8| c.is_ascii_digit();
    let mut i = 0;
    while at(a, i) != 0 && at(a, i) == at(b, i) {
        i += 1;
    }
    let (c1, c2) = (at(a, i), at(b, i));
    if c1 == c2 {
        return 0;
    }
    // Digits leading up to the mismatch (the same in both strings).
    let mut n = i;
    while n > 0 && dig(a[n - 1]) {
        n -= 1;
    }
    if n == i && (!dig(c1) || !dig(c2)) {
        return sc(c1) - sc(c2);
    }
    let (mut z1, mut z2) = (n, n);
    while at(a, z1) == b'0' {
        z1 += 1;
    }
    while at(b, z2) == b'0' {
        z2 += 1;
    }
    // A final zero is a digit, not a leading zero.
    if z1 > n && !dig(at(a, z1)) {
        z1 -= 1;
    }
    if z2 > n && !dig(at(b, z2)) {
        z2 -= 1;
    }
    if z1 != z2 {
        // Fewer leading zeros sort first.
        return z2 as i64 - z1 as i64;
    }
    if z1 > n {
        return sc(c1) - sc(c2);
    }
    let (mut e1, mut e2) = (z1, z2);
    while dig(at(a, e1)) {
        e1 += 1;
    }
    while dig(at(b, e2)) {
        e2 += 1;
    }
    if e1 != e2 {
        return e1 as i64 - e2 as i64;
    }
    sc(c1) - sc(c2)
}

/// Two arguments for the version functions: undefined if either is
/// undefined, error if either cannot be converted to a string.
fn version_pair(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Result<i64, Value> {
    let Some([a, b]) = eval_n::<2>(ev, args, env) else {
        return Err(Value::Error);
    };
    if a.is_undefined() || b.is_undefined() {
        return Err(Value::Undefined);
    }
    match (convert_to_string(&a), convert_to_string(&b)) {
        (Ok(a), Ok(b)) => Ok(natural_cmp(c_bytes(&a), c_bytes(&b))),
        _ => Err(Value::Error),
    }
}

fn version_test(ev: &mut Evaluator, args: &[Expr], env: &Env, test: fn(i64) -> bool) -> Value {
    match version_pair(ev, args, env) {
        Ok(r) => Value::Bool(test(r)),
        Err(e) => e,
    }
}

/// `versioncmp(a, b)`: natural ("version") comparison; the raw difference,
/// not just -1/0/1. Arguments are converted to strings.
fn versioncmp(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    version_pair(ev, args, env).map_or_else(|e| e, Value::Int)
}
/// `versionLT(a, b)`: `versioncmp(a, b) < 0`.
fn version_lt(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    version_test(ev, a, e, |r| r < 0)
}
/// `versionLE(a, b)`: `versioncmp(a, b) <= 0`.
fn version_le(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    version_test(ev, a, e, |r| r <= 0)
}
/// `versionGT(a, b)`: `versioncmp(a, b) > 0`.
fn version_gt(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    version_test(ev, a, e, |r| r > 0)
}
/// `versionGE(a, b)`: `versioncmp(a, b) >= 0`.
fn version_ge(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    version_test(ev, a, e, |r| r >= 0)
}
/// `versionEQ(a, b)`: `versioncmp(a, b) == 0` (unlike `=?=`, undefined in,
/// undefined out).
fn version_eq(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    version_test(ev, a, e, |r| r == 0)
}

/// `version_in_range(v, min, max)`: min <= v <= max in version order. That
/// is the registered name (`versionInRange` does not exist). Undefined only
/// when min or max is; an undefined `v` is an error.
fn version_in_range(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([v, lo, hi]) = eval_n::<3>(ev, args, env) else {
        return Value::Error;
    };
    if lo.is_undefined() || hi.is_undefined() {
        return Value::Undefined;
    }
    match (
        convert_to_string(&v),
        convert_to_string(&lo),
        convert_to_string(&hi),
    ) {
        (Ok(v), Ok(lo), Ok(hi)) => {
            let (v, lo, hi) = (c_bytes(&v), c_bytes(&lo), c_bytes(&hi));
            Value::Bool(natural_cmp(lo, v) <= 0 && natural_cmp(v, hi) <= 0)
        }
        _ => Value::Error,
    }
}

// ---- regular expressions ----

/// libclassad's `regexp_helper`: match `pattern` against `target`, and with
/// `replace` build the substitution. Options: i m s x, and for
/// substitution f (keep the rest of the target) and g (all matches).
/// `\0`..`\9` in the replacement insert groups; a group number at or above
/// PCRE's match count (highest participating group + 1) is an error. An
/// empty match retried past the end of the target is an error, so a global
/// replace with a pattern that matches "" at the end fails. A
/// substitution that grows past [`bounds::MAX_VALUE_BYTES`] stops there:
/// `Err` with the bytes it had built.
fn regexp_helper(
    pattern: &str,
    target: &str,
    replace: Option<&str>,
    opts: &str,
) -> Result<Value, usize> {
    let Some(re) = Pcre::new(pattern, ReOpts::parse(opts, false)) else {
        return Ok(Value::Error);
    };
    let full = replace.is_some() && opts.contains('f');
    let all = replace.is_some() && opts.contains('g');
    let t = c_bytes(target);
    let mut out: Vec<u8> = Vec::new();
    let mut idx = 0usize;
    let mut empty_match = false;
    let mut matched;
    loop {
        if idx > t.len() {
            return Ok(Value::Error); // PCRE2_ERROR_BADOFFSET
        }
        let found = if empty_match {
            re.search_nonempty_at(t, idx)
        } else {
            re.search(t, idx)
        };
        let Ok(found) = found else {
            return Ok(Value::Error);
        };
        if empty_match && found.is_none() {
            out.push(t.get(idx).copied().unwrap_or(0));
            idx += 1;
            empty_match = false;
            matched = true;
            if !all {
                break;
            }
            continue;
        }
        matched = found.is_some();
        let Some(groups) = found else {
            break;
        };
        let Some(rep) = replace else {
            break;
        };
        let (start, end) = groups[0].unwrap_or((idx, idx));
        let ngroups = groups
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |g| g + 1);
        if full {
            out.extend_from_slice(&t[idx..start]);
        }
        let r = c_bytes(rep);
        let mut k = 0;
        while k < r.len() {
            if r[k] == b'\\' && r.get(k + 1).is_some_and(u8::is_ascii_digit) {
                let g = (r[k + 1] - b'0') as usize;
                if g >= ngroups {
                    return Ok(Value::Error);
                }
                if let Some((s, e)) = groups[g] {
                    out.extend_from_slice(&t[s..e]);
                    if !bounds::fits(out.len()) {
                        return Err(out.len());
                    }
                }
                k += 2;
            } else {
                out.push(r[k]);
                k += 1;
            }
        }
        if !bounds::fits(out.len()) {
            return Err(out.len());
        }
        idx = end;
        empty_match = start == end;
        if !all {
            break;
        }
    }
    Ok(match replace {
        None => Value::Bool(matched),
        Some(_) => {
            if full {
                out.extend_from_slice(&t[idx.min(t.len())..]);
            }
            bytes_to_value(out)
        }
    })
}

/// Evaluate `n` (or `n + 1` with options) arguments and apply libclassad's
/// checks: error if any is error, then undefined if any is undefined, then
/// error unless the options are a string. Returns the values and options.
fn pattern_args(
    ev: &mut Evaluator,
    args: &[Expr],
    env: &Env,
    n: usize,
) -> Result<(Vec<Value>, String), Value> {
    if args.len() != n && args.len() != n + 1 {
        return Err(Value::Error);
    }
    let mut vals = eval_args(ev, args, env);
    if vals.iter().any(Value::is_error) {
        return Err(Value::Error);
    }
    if vals.iter().any(Value::is_undefined) {
        return Err(Value::Undefined);
    }
    let opts = if vals.len() > n {
        match vals.pop() {
            Some(Value::Str(s)) => s.to_string(),
            _ => return Err(Value::Error),
        }
    } else {
        String::new()
    };
    Ok((vals, opts))
}

/// `regexp(pattern, target [, options])`: whether the PCRE pattern matches
/// anywhere in the target. A bad pattern is an error.
fn regexp(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    match pattern_args(ev, args, env, 2) {
        Ok((v, opts)) => match (&v[0], &v[1]) {
            (Value::Str(p), Value::Str(t)) => {
                regexp_helper(p, t, None, &opts).unwrap_or(Value::Error)
            }
            _ => Value::Error,
        },
        Err(e) => e,
    }
}

fn subst(ev: &mut Evaluator, args: &[Expr], env: &Env, extra: &str) -> Value {
    match pattern_args(ev, args, env, 3) {
        Ok((v, opts)) => match (&v[0], &v[1], &v[2]) {
            (Value::Str(p), Value::Str(t), Value::Str(r)) => {
                regexp_helper(p, t, Some(r), &format!("{opts}{extra}"))
                    .unwrap_or_else(|bytes| ev.refuse_value(bytes))
            }
            _ => Value::Error,
        },
        Err(e) => e,
    }
}

/// `regexps(pattern, target, replacement [, options])`: the replacement
/// for the first match (empty when nothing matches); with option `f` the
/// whole target with the match replaced, with `g` every match.
fn regexps(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    subst(ev, args, env, "")
}

/// `replace(pattern, target, replacement [, options])`: the target with
/// its first match replaced (regexps with option `f`).
fn replace(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    subst(ev, args, env, "f")
}

/// `replaceall(pattern, target, replacement [, options])`: the target with
/// every match replaced (regexps with `fg`). A pattern that can match the
/// empty string at the end of the target makes this an error.
fn replace_all(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    subst(ev, args, env, "fg")
}

/// `regexpMember(pattern, list [, options])`: whether any string in the
/// list matches. Elements are evaluated in order until one matches; an
/// undefined element makes a final "no" undefined, any other non-string
/// is an error. Quirk: a pattern that does not compile just never matches
/// (libclassad ignores the per-element error).
fn regexp_member(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let (v, opts) = match pattern_args(ev, args, env, 2) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let (Value::Str(p), Value::List(l)) = (&v[0], &v[1]) else {
        return Value::Error;
    };
    let re = Pcre::new(p, ReOpts::parse(&opts, false));
    let mut maybe_undefined = false;
    for item in l.items.iter() {
        match ev.eval(item, &l.env) {
            Value::Str(s) => {
                if let Some(re) = &re {
                    if re.is_match(c_bytes(&s)) == Ok(true) {
                        return Value::Bool(true);
                    }
                }
            }
            Value::Undefined => maybe_undefined = true,
            _ => return Value::Error,
        }
    }
    if maybe_undefined {
        Value::Undefined
    } else {
        Value::Bool(false)
    }
}
