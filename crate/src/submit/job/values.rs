//! How condor_submit reads a submit value: booleans and integers
//! (`string_is_boolean_param`, `string_is_long_param`), sizes with units
//! (`parse_int64_bytes`), quoted strings, lists and paths.

use std::sync::Arc;

use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Value};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::lexer::Dialect;
use crate::lang::mode::Mode;
use crate::lang::parser::parse_expr_in;

/// The value of an expression that needs no ad (`1+2`, `true`, `"x"`),
/// `None` when it refers to anything.
pub fn fold_const(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Literal(v) => Some(v.clone()),
        ExprKind::Paren(x) => fold_const(x),
        ExprKind::Unary(op, x) => Some(crate::lang::eval::ops::unary(*op, fold_const(x)?)),
        ExprKind::Binary(op, l, r) => {
            let (l, r) = (fold_const(l)?, fold_const(r)?);
            Some(match op {
                BinaryOp::And | BinaryOp::Or => crate::lang::eval::ops::logic(*op, &l, &r),
                _ => crate::lang::eval::ops::binary(*op, &l, &r),
            })
        }
        _ => None,
    }
}

/// An expression evaluated in an empty ad, as condor_submit evaluates a
/// value that is not a plain literal.
fn eval_alone(text: &str) -> Option<Value> {
    let e = parse_expr_in(text, Dialect::Modern).ok()?;
    if let Some(v) = fold_const(&e) {
        return Some(v);
    }
    let mut ev = Evaluator::new(EvalOptions::in_mode(Mode::HTCondor));
    ev.set_ads(Some(Arc::new(ClassAd::new())), None);
    Some(ev.eval_expr(&e))
}

/// `string_is_boolean_param`: true/false/1/0 (any case, any suffix after
/// the word is an error), else an expression that evaluates to a boolean.
pub fn string_is_boolean(s: &str) -> Option<bool> {
    let low = s.to_ascii_lowercase();
    let (b, rest) = if let Some(r) = low.strip_prefix("true") {
        (true, r)
    } else if let Some(r) = low.strip_prefix('1') {
        (true, r)
    } else if let Some(r) = low.strip_prefix("false") {
        (false, r)
    } else if let Some(r) = low.strip_prefix('0') {
        (false, r)
    } else {
        (false, "x")
    };
    if rest.trim_start().is_empty() {
        return Some(b);
    }
    match eval_alone(s)? {
        Value::Bool(b) => Some(b),
        Value::Int(i) => Some(i != 0),
        Value::Real(r) => Some(r != 0.0),
        _ => None,
    }
}

/// `strtoll` base 10: leading spaces, a sign, digits; the number and the
/// rest of the text (`None` when there are no digits).
fn strtoll(s: &str) -> Option<(i64, &str)> {
    let t = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = body.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    let mut v: i64 = 0;
    for b in body[..n].bytes() {
        // strtoll saturates on overflow.
        v = v.saturating_mul(10).saturating_add((b - b'0') as i64);
    }
    Some((if neg { -v } else { v }, &body[n..]))
}

/// `string_is_long_param`: an integer, else an expression that evaluates
/// to an integer.
pub fn string_is_long(s: &str) -> Option<i64> {
    if let Some((v, rest)) = strtoll(s) {
        if rest.trim_start().is_empty() {
            return Some(v);
        }
    }
    match eval_alone(s)? {
        Value::Int(i) => Some(i),
        Value::Real(r) => Some(r as i64),
        Value::Bool(b) => Some(b as i64),
        _ => None,
    }
}

/// `atoi`: the leading integer, 0 when there is none.
pub fn atoi(s: &str) -> i64 {
    strtoll(s)
        .map(|(v, _)| v.clamp(i32::MIN as i64, i32::MAX as i64))
        .unwrap_or(0)
}

/// `parse_int64_bytes(input, value, base)`: a number (up to three
/// fractional digits) with an optional K/M/G/T unit (and a `B` after it),
/// in units of `base` bytes, rounded up; a bare number is already in
/// `base` units. Returns the value and whether a unit was written.
pub fn parse_bytes(input: &str, base: i64) -> Option<(i64, bool)> {
    let (val, rest) = strtoll(input)?;
    let mut p = rest.as_bytes();
    let mut fract = 0.0;
    if p.first() == Some(&b'.') {
        p = &p[1..];
        let mut scale = 0.1;
        let mut n = 0;
        while let Some(d) = p.first().filter(|d| d.is_ascii_digit()) {
            if n < 3 {
                fract += (d - b'0') as f64 * scale;
                scale /= 10.0;
            }
            n += 1;
            p = &p[1..];
        }
    }
    while p.first().is_some_and(u8::is_ascii_whitespace) {
        p = &p[1..];
    }
    let (mult, unit): (i64, bool) = match p.first().map(u8::to_ascii_lowercase) {
        None => (base, false),
        Some(b'k') => (1 << 10, true),
        Some(b'm') => (1 << 20, true),
        Some(b'g') => (1 << 30, true),
        Some(b't') => (1 << 40, true),
        Some(_) => return None,
    };
    let v = (((val as f64 + fract) * mult as f64 + (base - 1) as f64) as i64) / base;
    if p.len() <= 1 {
        return Some((v, unit));
    }
    let mut q = &p[1..];
    if matches!(q.first(), Some(b'b') | Some(b'B')) {
        q = &q[1..];
    }
    if q.iter().all(u8::is_ascii_whitespace) {
        Some((v, unit))
    } else {
        None
    }
}

/// `trim_and_strip_quotes_in_place`: whitespace off both ends, then one
/// pair of surrounding double quotes.
pub fn strip_quotes(s: &str) -> &str {
    let t = s.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        &t[1..t.len() - 1]
    } else {
        t
    }
}

/// HTCondor's `split(list, delims)`: tokens between any delimiter
/// character, trimmed, empty ones dropped.
pub fn split_list(s: &str, delims: &str) -> Vec<String> {
    s.split(|c: char| delims.contains(c))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// `compress_path`: runs of slashes become one.
pub fn compress_path(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    let mut last_slash = false;
    for c in p.chars() {
        let slash = c == '/' || c == '\\';
        if !(slash && last_slash) {
            out.push(c);
        }
        last_slash = slash;
    }
    out
}

/// `full_path(name)`: a name made absolute against `dir`.
pub fn full_path(dir: &str, name: &str) -> String {
    if name.starts_with('/') {
        compress_path(&format!("/{name}"))
    } else {
        compress_path(&format!("/{dir}/{name}"))
    }
}

/// `IsUrl`: a letter, then letters, digits, `+ - .`, then `://` and at
/// least one more character. Returns where the `:` is.
fn url_scheme_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = 1 + b[1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        .count();
    (b[n..].starts_with(b"://") && b.len() > n + 3).then_some(n)
}

/// Whether the text is a URL, as `IsUrl` decides.
pub fn is_url(s: &str) -> bool {
    url_scheme_end(s).is_some()
}

/// `getURLType(url, true)`: the scheme's last part after `+`, `-` or `.`
/// (`osdf+https` is `https`), case kept; empty when not a URL.
pub fn url_type(s: &str) -> String {
    let Some(end) = url_scheme_end(s) else {
        return String::new();
    };
    let b = s.as_bytes();
    let mut start = end;
    while start > 0 {
        if matches!(b[start], b'+' | b'-' | b'.') {
            start += 1;
            break;
        }
        start -= 1;
    }
    s[start..end].to_string()
}

/// 25's `parse_int64_bytes(input, value, base, &unit, separators, &endp)`,
/// byte for byte: like [`parse_bytes`], but the number may also end at
/// `sep` (a list `1GB, 2GB`), and `.5` counts as a number (strtol reads
/// nothing, then the fraction moves past it). Returns the value, whether a
/// unit was written, and the offset where it stopped (at `sep` or the end).
pub fn parse_bytes_until(input: &str, base: i64, sep: Option<u8>) -> Option<(i64, bool, usize)> {
    let s = input.as_bytes();
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while space(at(i)) {
        i += 1;
    }
    let start = i;
    // strtol: a sign and digits; without digits nothing is read.
    let mut p = i;
    let neg = matches!(at(p), b'-');
    if matches!(at(p), b'-' | b'+') {
        p += 1;
    }
    let digits = s[p.min(s.len())..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let mut val: i64 = 0;
    if digits == 0 {
        p = start;
    } else {
        for &b in &s[p..p + digits] {
            val = val.saturating_mul(10).saturating_add((b - b'0') as i64);
        }
        if neg {
            val = -val;
        }
        p += digits;
    }
    let mut fract = 0.0;
    if at(p) == b'.' {
        p += 1;
        let mut scale = 0.1;
        for _ in 0..3 {
            if !at(p).is_ascii_digit() {
                break;
            }
            fract += (at(p) - b'0') as f64 * scale;
            scale /= 10.0;
            p += 1;
        }
        while at(p).is_ascii_digit() {
            p += 1;
        }
    }
    if p == start {
        return None;
    }
    while space(at(p)) {
        p += 1;
    }
    // strchr(separators, '\0') finds the terminator: the end counts too.
    let at_sep = |i: usize| at(i) == 0 || sep.is_some_and(|c| at(i) == c);
    let (mult, unit) = if at_sep(p) {
        (base, false)
    } else {
        let m: i64 = match at(p).to_ascii_lowercase() {
            b'k' => 1 << 10,
            b'm' => 1 << 20,
            b'g' => 1 << 30,
            b't' => 1 << 40,
            _ => return None,
        };
        p += 1;
        if matches!(at(p), b'b' | b'B') {
            p += 1;
        }
        (m, true)
    };
    let v = (((val as f64 + fract) * mult as f64 + (base - 1) as f64) as i64) / base.max(1);
    while space(at(p)) {
        p += 1;
    }
    if at_sep(p) && (sep.is_some() || at(p) == 0) {
        return Some((v, unit, p.min(s.len())));
    }
    None
}
