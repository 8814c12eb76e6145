//! String lists ("a, b, c" held in one string) and HTCondor's other
//! string/list converters.
//!
//! libclassad itself defines only `stringListsIntersect`; everything else
//! here is registered by HTCondor (compat_classad.cpp) and so is
//! unavailable in strict mode: stringListSize/Sum/Avg/Min/Max,
//! stringListMember/IMember, stringListSubsetMatch/ISubsetMatch,
//! stringList_regexpMember, split, splitUserName, splitSlotName,
//! argsToList, listToArgs, envV1ToV2 and mergeEnvironment.
//!
//! HTCondor splits string lists with its StringTokenIterator: a token is a
//! run of non-delimiter bytes with white space trimmed, and empty tokens
//! are dropped. libclassad's own stringListsIntersect does not trim.

use std::collections::{BTreeMap, BTreeSet};

use super::def::{eval_args, eval_n, f, hf, FuncDef};
use super::pcre::{Pcre, ReOpts};
use super::strings::bytes_to_value;
use crate::lang::ast::Expr;
use crate::lang::eval::{Env, Evaluator};
use crate::lang::value::Value;

pub(super) const FUNCS: &[FuncDef] = &[
    f("stringListsIntersect", string_lists_intersect).pure(),
    hf("stringListSize", string_list_size).pure(),
    hf("stringListSum", string_list_sum).pure(),
    hf("stringListAvg", string_list_avg).pure(),
    hf("stringListMin", string_list_min).pure(),
    hf("stringListMax", string_list_max).pure(),
    hf("stringListMember", string_list_member).pure(),
    hf("stringListIMember", string_list_imember).pure(),
    hf("stringListSubsetMatch", string_list_subset_match).pure(),
    hf("stringListISubsetMatch", string_list_isubset_match).pure(),
    hf("stringList_regexpMember", string_list_regexp_member).pure(),
    hf("split", split),
    hf("splitUserName", split_user_name).pure(),
    hf("splitSlotName", split_slot_name).pure(),
    hf("argsToList", args_to_list),
    hf("listToArgs", list_to_args),
    hf("envV1ToV2", env_v1_to_v2),
    hf("mergeEnvironment", merge_environment),
];

/// C `isspace` in the C locale.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// HTCondor's StringTokenIterator: tokens between delimiter bytes, white
/// space trimmed, empty ones dropped.
fn tokens<'a>(s: &'a str, delims: &[u8]) -> Vec<&'a [u8]> {
    s.as_bytes()
        .split(|c| delims.contains(c))
        .map(|t| {
            let start = t.iter().position(|&c| !is_space(c)).unwrap_or(t.len());
            let end = t
                .iter()
                .rposition(|&c| !is_space(c))
                .map_or(start, |e| e + 1);
            &t[start..end]
        })
        .filter(|t| !t.is_empty())
        .collect()
}

fn str_list(items: Vec<Vec<u8>>) -> Value {
    Value::list_of(items.into_iter().map(bytes_to_value).collect())
}

// ---- stringListsIntersect (libclassad) ----

/// `stringListsIntersect(a, b [, delims])`: whether the lists share an
/// item. libclassad's version: default delimiters " ," (also when the
/// delimiter string is empty), items not trimmed, case-sensitive. Errors
/// win over undefined.
fn string_lists_intersect(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if args.len() != 2 && args.len() != 3 {
        return Value::Error;
    }
    let v = eval_args(ev, args, env);
    if v.iter().any(Value::is_error) {
        return Value::Error;
    }
    if v.iter().any(Value::is_undefined) {
        return Value::Undefined;
    }
    let delims = match v.get(2) {
        Some(Value::Str(d)) if !d.is_empty() => d.as_bytes().to_vec(),
        Some(Value::Str(_)) | None => b" ,".to_vec(),
        Some(_) => return Value::Error,
    };
    let (Value::Str(a), Value::Str(b)) = (&v[0], &v[1]) else {
        return Value::Error;
    };
    let raw = |s: &'_ str| -> Vec<Vec<u8>> {
        s.as_bytes()
            .split(|c| delims.contains(c))
            .filter(|t| !t.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    let set: BTreeSet<Vec<u8>> = raw(b).into_iter().collect();
    Value::Bool(raw(a).iter().any(|t| set.contains(t)))
}

// ---- size and numeric summaries ----

/// The list string and delimiters of stringListSize and the summaries:
/// both must be strings (undefined is an error); default delimiters ", ".
fn list_and_delims(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Option<(String, String)> {
    if args.is_empty() || args.len() > 2 {
        return None;
    }
    let v = eval_args(ev, args, env);
    let list = v[0].as_str()?.to_string();
    let delims = match v.get(1) {
        Some(d) => d.as_str()?.to_string(),
        None => ", ".to_string(),
    };
    Some((list, delims))
}

/// `stringListSize(list [, delims])`: the number of (non-empty) items.
fn string_list_size(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    match list_and_delims(ev, args, env) {
        Some((l, d)) => Value::Int(tokens(&l, d.as_bytes()).len() as i64),
        None => Value::Error,
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Summary {
    Sum,
    Avg,
    Min,
    Max,
}

/// `stringListSum/Avg/Min/Max(list [, delims])`. Items are read with C's
/// `sscanf("%lf")` (a numeric prefix is enough: "2a" is 2; hex, inf and
/// nan are accepted) and an unreadable item is an error. The result is
/// real if any item has a character other than `+-0123456789`, else the
/// double truncated to an integer. Quirks: min/max start from FLT_MAX and
/// FLT_MIN (so `stringListMax("-1,-5")` is 0 and `stringListMin("1e40")`
/// is FLT_MAX); an empty list gives 0.0 for sum/avg, undefined otherwise.
fn summarize(ev: &mut Evaluator, args: &[Expr], env: &Env, kind: Summary) -> Value {
    let Some((list, delims)) = list_and_delims(ev, args, env) else {
        return Value::Error;
    };
    let mut acc = match kind {
        Summary::Sum | Summary::Avg => 0.0,
        Summary::Min => f32::MAX as f64,
        Summary::Max => f32::MIN_POSITIVE as f64,
    };
    let items = tokens(&list, delims.as_bytes());
    let mut is_real = false;
    for t in &items {
        let Some(x) = scan_double(t) else {
            return Value::Error;
        };
        if t.iter().any(|c| !b"+-0123456789".contains(c)) {
            is_real = true;
        }
        acc = match kind {
            Summary::Sum | Summary::Avg => x + acc,
            Summary::Min => {
                if x < acc {
                    x
                } else {
                    acc
                }
            }
            Summary::Max => {
                if x > acc {
                    x
                } else {
                    acc
                }
            }
        };
    }
    if items.is_empty() {
        return match kind {
            Summary::Sum | Summary::Avg => Value::Real(0.0),
            _ => Value::Undefined,
        };
    }
    if kind == Summary::Avg {
        acc /= items.len() as f64;
    }
    if is_real {
        Value::Real(acc)
    } else {
        Value::Int(c_double_to_ll(acc))
    }
}

/// x86's `(long long)` conversion: out of range or NaN gives i64::MIN.
fn c_double_to_ll(x: f64) -> i64 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    if (-LIMIT..LIMIT).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// C `strtod` on the longest numeric prefix (after leading white space):
/// decimal, hexadecimal (`0x1.8p1`), `inf`/`infinity`, `nan`. `None` when
/// no number starts the text.
fn scan_double(s: &[u8]) -> Option<f64> {
    let mut i = s.iter().position(|&c| !is_space(c)).unwrap_or(s.len());
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let rest = &s[i..];
    let lower: Vec<u8> = rest.iter().take(8).map(u8::to_ascii_lowercase).collect();
    let sign = if neg { -1.0 } else { 1.0 };
    if lower.starts_with(b"inf") {
        return Some(sign * f64::INFINITY);
    }
    if lower.starts_with(b"nan") {
        return Some(f64::NAN);
    }
    let digit_run = |from: usize, radix: u32| {
        let mut j = from;
        while j < rest.len() && (rest[j] as char).is_digit(radix) {
            j += 1;
        }
        j
    };
    if lower.starts_with(b"0x") {
        let int_end = digit_run(2, 16);
        let (frac_start, frac_end) = if rest.get(int_end) == Some(&b'.') {
            (int_end + 1, digit_run(int_end + 1, 16))
        } else {
            (int_end, int_end)
        };
        if int_end > 2 || frac_end > frac_start {
            let mut v = 0.0f64;
            for &c in rest[2..int_end].iter().chain(&rest[frac_start..frac_end]) {
                v = v * 16.0 + (c as char).to_digit(16).unwrap() as f64;
            }
            let mut exp = -4 * (frac_end - frac_start) as i32;
            if matches!(rest.get(frac_end), Some(b'p' | b'P')) {
                let mut j = frac_end + 1;
                let eneg = rest.get(j) == Some(&b'-');
                if matches!(rest.get(j), Some(b'-' | b'+')) {
                    j += 1;
                }
                let e_end = digit_run(j, 10);
                if e_end > j {
                    let e: i32 = std::str::from_utf8(&rest[j..e_end])
                        .ok()?
                        .parse()
                        .unwrap_or(i32::MAX / 2);
                    exp = exp.saturating_add(if eneg { -e } else { e });
                }
            }
            return Some(sign * v * 2f64.powi(exp));
        }
        // glibc's scanf gives up on a bare "0x", but reads "0x." as 0.
        return (rest.get(2) == Some(&b'.')).then_some(sign * 0.0);
    }
    let int_end = digit_run(0, 10);
    let mut end = int_end;
    if rest.get(end) == Some(&b'.') {
        end = digit_run(end + 1, 10);
    }
    if end == 0 || (end == 1 && int_end == 0) {
        return None; // no digits
    }
    if matches!(rest.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(rest.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let e_end = digit_run(j, 10);
        if e_end > j {
            end = e_end;
        }
    }
    let text = std::str::from_utf8(&rest[..end]).ok()?;
    Some(sign * text.parse::<f64>().ok()?)
}

fn string_list_sum(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    summarize(ev, a, e, Summary::Sum)
}
fn string_list_avg(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    summarize(ev, a, e, Summary::Avg)
}
fn string_list_min(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    summarize(ev, a, e, Summary::Min)
}
fn string_list_max(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    summarize(ev, a, e, Summary::Max)
}

// ---- membership ----

/// Shared by the Member and SubsetMatch functions: each argument must be a
/// string or undefined; undefined item and list together give undefined,
/// otherwise undefined counts as "". Default delimiters ", \t\r\n" (an
/// undefined delimiter argument keeps the default).
fn member_args(
    ev: &mut Evaluator,
    args: &[Expr],
    env: &Env,
) -> Result<(String, String, String), Value> {
    if args.len() < 2 || args.len() > 3 {
        return Err(Value::Error);
    }
    let v = eval_args(ev, args, env);
    let mut s: Vec<Option<String>> = Vec::new();
    for x in &v {
        match x {
            Value::Str(t) => s.push(Some(t.to_string())),
            Value::Undefined => s.push(None),
            _ => return Err(Value::Error),
        }
    }
    if s[0].is_none() && s[1].is_none() {
        return Err(Value::Undefined);
    }
    let delims = s
        .get(2)
        .cloned()
        .flatten()
        .unwrap_or_else(|| ", \t\r\n".to_string());
    Ok((
        s[0].clone().unwrap_or_default(),
        s[1].clone().unwrap_or_default(),
        delims,
    ))
}

fn fold(t: &[u8]) -> Vec<u8> {
    t.to_ascii_lowercase()
}

fn member(ev: &mut Evaluator, args: &[Expr], env: &Env, nocase: bool) -> Value {
    let (item, list, delims) = match member_args(ev, args, env) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let item = item.as_bytes();
    let found = tokens(&list, delims.as_bytes()).iter().any(|t| {
        if nocase {
            fold(t) == fold(item)
        } else {
            *t == item
        }
    });
    Value::Bool(found)
}

/// `stringListMember(item, list [, delims])`: whether the item (not
/// trimmed) equals one of the list's items.
fn string_list_member(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    member(ev, a, e, false)
}
/// `stringListIMember(item, list [, delims])`: stringListMember ignoring
/// ASCII case.
fn string_list_imember(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    member(ev, a, e, true)
}

fn subset(ev: &mut Evaluator, args: &[Expr], env: &Env, nocase: bool) -> Value {
    let (items, list, delims) = match member_args(ev, args, env) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if items.is_empty() {
        return Value::Bool(true);
    }
    let key = |t: &[u8]| if nocase { fold(t) } else { t.to_vec() };
    let set: BTreeSet<Vec<u8>> = tokens(&list, delims.as_bytes())
        .into_iter()
        .map(key)
        .collect();
    let want = tokens(&items, delims.as_bytes());
    Value::Bool(!want.is_empty() && want.iter().all(|t| set.contains(&key(t))))
}

/// `stringListSubsetMatch(items, list [, delims])`: whether every item of
/// the first list is in the second. "" is a subset of anything, but a
/// non-empty first list with no items (" , ") is not.
fn string_list_subset_match(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    subset(ev, a, e, false)
}
/// `stringListISubsetMatch(items, list [, delims])`: stringListSubsetMatch
/// ignoring ASCII case.
fn string_list_isubset_match(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    subset(ev, a, e, true)
}

/// `stringList_regexpMember(pattern, list [, delims [, options]])`: whether
/// any item matches the PCRE pattern (options i m s x, either case). All
/// arguments must be strings (undefined is an error); a bad pattern is an
/// error; an empty list gives undefined. Default delimiters ", ".
fn string_list_regexp_member(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if args.len() < 2 || args.len() > 4 {
        return Value::Error;
    }
    let v = eval_args(ev, args, env);
    let Some(strs) = v.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() else {
        return Value::Error;
    };
    let delims = strs.get(2).copied().unwrap_or(", ");
    let opts = ReOpts::parse(strs.get(3).copied().unwrap_or(""), true);
    let Some(re) = Pcre::new(strs[0], opts) else {
        return Value::Error;
    };
    let items = tokens(strs[1], delims.as_bytes());
    if items.is_empty() {
        return Value::Undefined;
    }
    Value::Bool(items.iter().any(|t| re.is_match(t) == Ok(true)))
}

// ---- split, splitUserName, splitSlotName ----

/// `split(s [, seps])`: split at any separator byte (default ", \t").
/// Runs of white space, or of white space around one separator, count as
/// one split; a separator repeated (",,") yields an empty item between;
/// leading and trailing separators are dropped. Non-string arguments
/// (including undefined) are errors.
fn split(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if args.is_empty() || args.len() > 2 {
        return Value::Error;
    }
    let v = eval_args(ev, args, env);
    let Some(s) = v[0].as_str() else {
        return Value::Error;
    };
    let seps: &[u8] = match v.get(1) {
        Some(x) => match x.as_str() {
            Some(x) => x.as_bytes(),
            None => return Value::Error,
        },
        None => b", \t",
    };
    let b = s.as_bytes();
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut last = 0;
    if !seps.is_empty() {
        // The last non-space separator: a repeat of it right after it
        // yields an empty item.
        let mut prev: Option<u8> = None;
        for ix in 0..b.len() {
            if !seps.contains(&b[ix]) {
                continue;
            }
            if ix > last {
                out.push(b[last..ix].to_vec());
            } else if prev == Some(b[ix]) {
                out.push(Vec::new());
            }
            if !is_space(b[ix]) {
                prev = Some(b[ix]);
            }
            last = ix + 1;
        }
    }
    if b.len() > last {
        out.push(b[last..].to_vec());
    }
    str_list(out)
}

fn split_at(ev: &mut Evaluator, args: &[Expr], env: &Env, slot: bool) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    let Some(s) = v.as_str() else {
        return Value::Error;
    };
    let (a, b) = match s.split_once('@') {
        Some((a, b)) => (a, b),
        None if slot => ("", s),
        None => (s, ""),
    };
    Value::list_of(vec![Value::str(a), Value::str(b)])
}

/// `splitUserName("user@domain")`: `{ "user", "domain" }`, splitting at
/// the first `@`; without one the domain is "".
fn split_user_name(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    split_at(ev, a, e, false)
}
/// `splitSlotName("slot1@machine")`: `{ "slot1", "machine" }`; without an
/// `@` the slot is "".
fn split_slot_name(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    split_at(ev, a, e, true)
}

// ---- argument and environment strings ----

/// V2 syntax parsing (condor_arglist's `split_args`): white space
/// separates, single quotes group and `''` inside quotes is a quote.
/// `None` on an unbalanced quote.
fn split_args_v2(s: &[u8]) -> Option<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut parsed = false;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\'' => {
                parsed = true;
                i += 1;
                loop {
                    match s.get(i) {
                        None => return None,
                        Some(b'\'') if s.get(i + 1) == Some(&b'\'') => {
                            buf.push(b'\'');
                            i += 2;
                        }
                        Some(b'\'') => break,
                        Some(&c) => {
                            buf.push(c);
                            i += 1;
                        }
                    }
                }
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                if parsed {
                    parsed = false;
                    out.push(std::mem::take(&mut buf));
                }
            }
            c => {
                parsed = true;
                buf.push(c);
                i += 1;
            }
        }
    }
    if parsed {
        out.push(buf);
    }
    Some(out)
}

/// V1 syntax parsing: split on white space, no quoting.
fn split_args_v1(s: &[u8]) -> Vec<Vec<u8>> {
    s.split(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        .filter(|t| !t.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// condor_arglist's `append_arg`: add one argument in V2 syntax, quoting
/// white space and quotes (adjacent quoted characters share one quoted
/// section, an empty argument is `''`).
fn append_arg_v2(arg: &[u8], out: &mut Vec<u8>) {
    if !out.is_empty() {
        out.push(b' ');
    }
    if arg.is_empty() {
        out.extend_from_slice(b"''");
    }
    for &c in arg {
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\'') {
            if out.last() == Some(&b'\'') {
                out.pop();
            } else {
                out.push(b'\'');
            }
            if c == b'\'' {
                out.push(b'\'');
            }
            out.push(c);
            out.push(b'\'');
        } else {
            out.push(c);
        }
    }
}

/// The optional syntax-version argument of argsToList/listToArgs: an
/// integer (as a C `int`) that is 1 or 2; it is evaluated before the
/// first argument.
fn args_version(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Option<i32> {
    if args.is_empty() || args.len() > 2 {
        return None;
    }
    match args.get(1).map(|a| ev.eval(a, env)) {
        None => Some(2),
        Some(Value::Int(v)) if matches!(v as i32, 1 | 2) => Some(v as i32),
        Some(_) => None,
    }
}

/// `argsToList(args [, version])`: parse an argument string (V2 syntax by
/// default, V1 = plain white-space splitting with version 1) into a list
/// of strings. Anything wrong, including undefined, is an error.
fn args_to_list(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some(vers) = args_version(ev, args, env) else {
        return Value::Error;
    };
    let Value::Str(s) = ev.eval(&args[0], env) else {
        return Value::Error;
    };
    let parsed = if vers == 1 {
        Some(split_args_v1(s.as_bytes()))
    } else {
        split_args_v2(s.as_bytes())
    };
    parsed.map_or(Value::Error, str_list)
}

/// `listToArgs(list [, version])`: the inverse of argsToList. In V1 an
/// argument containing white space is an error. Every element must be a
/// string.
fn list_to_args(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some(vers) = args_version(ev, args, env) else {
        return Value::Error;
    };
    let Value::List(l) = ev.eval(&args[0], env) else {
        return Value::Error;
    };
    let mut out = Vec::new();
    for item in ev.list_values(&l) {
        let Value::Str(a) = item else {
            return Value::Error;
        };
        let a = a.as_bytes();
        if vers == 2 {
            append_arg_v2(a, &mut out);
        } else {
            if a.iter().any(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n')) {
                return Value::Error;
            }
            if !out.is_empty() {
                out.push(b' ');
            }
            out.extend_from_slice(a);
        }
    }
    bytes_to_value(out)
}

/// An environment: names in byte order (HTCondor keeps a std::map), each
/// with a value or, for a bare `$$(...)` macro entry, none.
type EnvMap = BTreeMap<Vec<u8>, Option<Vec<u8>>>;

/// Env::SetEnvWithErrorMessage: `name=value`; a bare entry containing
/// `$$` is kept as is; anything else without a name or `=` fails.
fn set_env(map: &mut EnvMap, entry: &[u8]) -> bool {
    match entry.iter().position(|&c| c == b'=') {
        Some(0) => false,
        Some(i) => {
            map.insert(entry[..i].to_vec(), Some(entry[i + 1..].to_vec()));
            true
        }
        None if entry.windows(2).any(|w| w == b"$$") => {
            map.insert(entry.to_vec(), None);
            true
        }
        None => false,
    }
}

/// Env::getDelimitedStringV2Raw.
fn env_to_v2(map: &EnvMap) -> Value {
    let mut out = Vec::new();
    for (name, val) in map {
        let mut entry = name.clone();
        if let Some(v) = val {
            entry.push(b'=');
            entry.extend_from_slice(v);
        }
        append_arg_v2(&entry, &mut out);
    }
    bytes_to_value(out)
}

/// `envV1ToV2(env)`: convert a V1 environment string (`a=1;b=2`) to V2
/// (`a=1 b=2`, sorted by name, later duplicates winning). The delimiter is
/// `;`, or the first character if it is one of HTCondor's permitted
/// delimiters (`|a=1|b=2`). Newlines also separate; leading white space of
/// each entry is dropped. Undefined in, undefined out; other errors error.
fn env_v1_to_v2(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    let s = match v {
        Value::Undefined => return Value::Undefined,
        Value::Str(s) => s,
        _ => return Value::Error,
    };
    let mut b = s.as_bytes();
    let mut delim = b';';
    if let Some(&c) = b.first() {
        if c == delim {
            b = &b[1..];
        } else if b"!#$%&*+,-/:;<>?@^`|~\x1f".contains(&c) {
            delim = c;
            b = &b[1..];
        }
    }
    let mut map = EnvMap::new();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i] != b'\n' && b[i] != delim {
            i += 1;
        }
        let entry = &b[start..i];
        i += 1;
        if !entry.is_empty() && !set_env(&mut map, entry) {
            return Value::Error;
        }
    }
    env_to_v2(&map)
}

/// `mergeEnvironment(env, ...)`: merge V2 environment strings left to
/// right (later values win) and return the V2 string, sorted by name.
/// Undefined arguments are skipped; a non-string, an unbalanced quote or
/// an entry without `name=` is an error.
fn merge_environment(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let mut map = EnvMap::new();
    for a in args {
        let s = match ev.eval(a, env) {
            Value::Undefined => continue,
            Value::Str(s) => s,
            _ => return Value::Error,
        };
        let Some(entries) = split_args_v2(s.as_bytes()) else {
            return Value::Error;
        };
        for e in entries {
            if !set_env(&mut map, &e) {
                return Value::Error;
            }
        }
    }
    env_to_v2(&map)
}
