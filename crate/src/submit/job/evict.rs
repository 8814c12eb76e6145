//! HTCondor 25's retried requests: `request_memory = 1GB, 2GB, 8GB`,
//! `retry_request_memory[_max|_increase]` (25.2.1), `request_disk = a, b`
//! and `retry_request_disk` (25.10.1) become a transform the schedd runs
//! when the job is evicted for using too much (`SetBuiltInOnEvictCheck`);
//! `on_evict_checks` names user transforms (`SetOnEvictExpressions`).

use std::sync::Arc;

use super::ad::*;
use super::values::parse_bytes_until;
use crate::lang::ast::{ClassAd, Expr, ExprKind, Value};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::lexer::Dialect;
use crate::lang::mode::Mode;
use crate::lang::names::Special;
use crate::lang::parser::parse_expr_in;
use crate::lang::unparse::unparse;
use crate::submit::hash::Param;

/// `parse_expr_sequence`'s failures.
#[derive(Debug, PartialEq)]
enum SeqError {
    /// The expression after the numbers does not parse (that text).
    Parse(String),
}

/// A value list: numbers with units, then optionally an expression as
/// the last element. Returns the numbers, the expression, and the offset
/// of the first number without a unit.
fn parse_expr_sequence(
    line: &str,
    scale: i64,
) -> Result<(Vec<i64>, Option<Expr>, Option<usize>), SeqError> {
    let mut seq = vec![];
    let mut missing_unit = None;
    let mut p = 0;
    let b = line.as_bytes();
    while let Some((n, unit, end)) = parse_bytes_until(&line[p..], scale, Some(b',')) {
        if !unit && missing_unit.is_none() {
            missing_unit = Some(p);
        }
        seq.push(n);
        p += end;
        while b.get(p).is_some_and(u8::is_ascii_whitespace) {
            p += 1;
        }
        if b.get(p) == Some(&b',') {
            p += 1;
            continue;
        }
        break;
    }
    while b.get(p).is_some_and(u8::is_ascii_whitespace) {
        p += 1;
    }
    let rest = &line[p..];
    let last = if rest.is_empty() {
        None
    } else {
        match parse_expr_in(rest, Dialect::Modern) {
            Ok(e) => Some(e),
            Err(_) => return Err(SeqError::Parse(rest.to_string())),
        }
    };
    Ok((seq, last, missing_unit))
}

/// Whether `e` refers to the job's `attr` (unscoped or `MY.`), as
/// `GetExprReferences` against an ad holding `attr` finds it.
fn refers_to(e: &Expr, attr: &str) -> bool {
    match &e.kind {
        ExprKind::Attr { name, .. } => name.text.eq_ignore_ascii_case(attr),
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr {
                name: b,
                absolute: false,
            } if b.special != Special::None => {
                matches!(b.special, Special::My | Special::SelfAd)
                    && name.text.eq_ignore_ascii_case(attr)
            }
            _ => refers_to(base, attr),
        },
        _ => e.children().into_iter().any(|c| refers_to(c, attr)),
    }
}

/// Evaluate `e` in an ad holding only `attr = val` (when known).
fn eval_with(e: &Expr, attr: &str, val: Option<i64>) -> Value {
    let mut ad = ClassAd::new();
    if let Some(v) = val {
        ad.insert_value(attr, Value::Int(v));
    }
    let mut ev = Evaluator::new(EvalOptions::in_mode(Mode::HTCondor));
    ev.set_ads(Some(Arc::new(ad)), None);
    ev.eval_expr(e)
}

impl Job<'_> {
    /// After `request_memory`/`request_disk` gave a number: the rest of
    /// its list (`after_comma`), else the retry_request_* keys (25 only).
    pub fn set_request_retries(&mut self, attr: &str, key: &str, scale: i64, after_comma: &str) {
        if !after_comma.is_empty() {
            let at = self.param(key);
            return self.builtin_on_evict_check(attr, key, scale, Some(after_comma), None, at);
        }
        if attr == "RequestMemory" {
            let rrm = self.param("retry_request_memory");
            let rrmax = self.param("retry_request_memory_max");
            let rrmincr = self.param("retry_request_memory_increase");
            if let Some(l) = &rrm {
                if rrmincr.is_some() {
                    self.warn_at(
                        "WARNING: retry_request_memory_increase will be ignored because retry_request_memory was used",
                        rrmincr.as_ref(),
                    );
                }
                let v = l.value.clone();
                self.builtin_on_evict_check(
                    attr,
                    "retry_request_memory",
                    scale,
                    Some(&v),
                    None,
                    rrm,
                );
            } else if rrmax.is_some() || rrmincr.is_some() {
                let max = rrmax.as_ref().map(|p| p.value.clone());
                let incr = rrmincr.as_ref().map(|p| p.value.clone());
                let at = rrmax.or(rrmincr);
                self.builtin_on_evict_check(
                    attr,
                    "retry_request_memory_max",
                    scale,
                    max.as_deref(),
                    incr.as_deref(),
                    at,
                );
            }
        } else if let Some(rrd) = self.param("retry_request_disk") {
            // 25 names request_disk (not retry_request_disk) in messages.
            let v = rrd.value.clone();
            self.builtin_on_evict_check(attr, key, scale, Some(&v), None, Some(rrd));
        }
    }

    /// `SetBuiltInOnEvictCheck`: the retry values (`RetryRequestMemory`
    /// list, or `MaxRequestMemory`/`NextRequestMemory`), the transform
    /// body `TransformBody_<attr>` and `<attr>` in `TransformOnEvict`.
    fn builtin_on_evict_check(
        &mut self,
        attr: &str,
        subkey: &str,
        scale: i64,
        line: Option<&str>,
        incr: Option<&str>,
        at: Option<Param>,
    ) {
        let at = at.as_ref();
        let missing = self.config("SUBMIT_REQUEST_MISSING_UNITS");
        let missing_is_error = missing
            .as_deref()
            .is_some_and(|m| m.eq_ignore_ascii_case("error"));
        let scale_label = if scale == 1 << 20 {
            "defaults to megabytes, but "
        } else {
            ""
        };
        let (mut seq, last) = match line.map(|l| parse_expr_sequence(l, scale)) {
            None => (vec![], None),
            Some(Err(SeqError::Parse(text))) => {
                let msg = format!("{subkey}={text} is invalid. must be an expression or number");
                return self.error_at(&msg, at);
            }
            Some(Ok((seq, last, unitless))) => {
                if let (Some(pos), Some(_), Some(l)) = (unitless, &missing, line) {
                    let shown = &l[pos..];
                    if missing_is_error {
                        let msg = format!("{subkey}={shown} {scale_label}must contain a units suffix (i.e K, M, G, or T)");
                        return self.error_at(&msg, at);
                    }
                    let msg = format!("{subkey}={shown} {scale_label}should contain a units suffix (i.e K, M, G, or T)");
                    self.warn_at(&msg, at);
                }
                (seq, last)
            }
        };
        // A list must grow (from above zero).
        if seq.len() > 1 {
            let mut v1 = 0;
            for &v2 in &seq {
                if v2 <= v1 {
                    let msg = format!("{subkey} must have an increasing sequence of values, but {v2} is not greater than {v1}");
                    return self.error_at(&msg, at);
                }
                v1 = v2;
            }
        }
        // The last value (the cap), a number or an expression.
        let last_is_expr = last.is_some();
        let max: Option<Expr> = match last {
            Some(e) => Some(e),
            None => match seq.pop() {
                Some(n) => Some(Expr::literal(Value::Int(n))),
                None if incr.is_none() => return,
                None => None,
            },
        };
        let origin = match at {
            Some(p) => from(p),
            None => derived("a retried request"),
        };
        let body = if !seq.is_empty() {
            // Walk the list, one step per eviction.
            let mut list = String::from("{");
            for n in &seq {
                list += &format!("{n},");
            }
            list += &max.as_ref().map(unparse).unwrap_or_default();
            list += "}";
            let retry = format!("Retry{attr}");
            if !self.assign_expr(&retry, &list, origin.clone()) {
                return;
            }
            format!(
                "EVALSET {attr} {retry}[{retry}Index?:0]\x1eEVALSET {retry}Index MIN({{size({retry})-1, ({retry}Index?:0)+1}})"
            )
        } else if let Some(incr) = incr {
            // Grow by the increment, up to the cap when there is one.
            let increment = match parse_bytes_until(incr, scale, None) {
                Some((n, unit, _)) => {
                    if !unit && missing.is_some() {
                        if missing_is_error {
                            let msg = format!("{attr} retry increment {incr} {scale_label}must contain a units suffix (i.e K, M, G or T)");
                            return self.error_at(&msg, at);
                        }
                        let msg = format!("{attr} retry increment {incr} {scale_label}should contain a units suffix (i.e K, M, G or T)");
                        self.warn_at(&msg, at);
                    }
                    if n <= 0 {
                        return self.bad_increment(attr, at);
                    }
                    match parse_expr_in(&format!("{attr} + {n}"), Dialect::Modern) {
                        Ok(e) => e,
                        Err(_) => return self.bad_increment(attr, at),
                    }
                }
                None => match parse_expr_in(incr, Dialect::Modern) {
                    Ok(e) if refers_to(&e, attr) => e,
                    _ => return self.bad_increment(attr, at),
                },
            };
            match &max {
                Some(m) => {
                    self.assign_expr(&format!("Max{attr}"), &unparse(m), origin.clone());
                    self.assign_expr(&format!("Next{attr}"), &unparse(&increment), origin.clone());
                    if self.aborted {
                        return;
                    }
                    format!("EVALSET {attr} MIN({{Next{attr}, Max{attr}}})")
                }
                None => {
                    let now = self.lookup_int(attr);
                    match eval_with(&increment, attr, now) {
                        Value::Int(n) => format!("SET {attr} {n}"),
                        _ => {
                            let msg = format!("{attr} retry increment ({incr}) must evaluate to an integer at submit time");
                            return self.error_at(&msg, at);
                        }
                    }
                }
            }
        } else {
            let verb = if last_is_expr { "EVALSET" } else { "SET" };
            let m = max.as_ref().map(unparse).unwrap_or_default();
            format!("{verb} {attr} {m}")
        };
        let mut lines = String::from("REQUIREMENTS ");
        match self.config(&format!("ON_EVICT_CHECK_{attr}_REQUIREMENTS")) {
            Some(r) => lines += &r,
            None if attr == "RequestMemory" => {
                lines +=
                    "(VacateReasonCode==21 || VacateReasonCode == 34) && VacateReasonSubCode == 102"
            }
            None if attr == "RequestDisk" => {
                lines +=
                    "(VacateReasonCode==21 || VacateReasonCode == 34) && VacateReasonSubCode == 104"
            }
            None => lines.clear(),
        }
        if !lines.is_empty() {
            lines.push('\x1e');
        }
        lines += &body;
        self.assign_str(&format!("TransformBody_{attr}"), &lines, origin.clone());
        self.add_on_evict_tag(attr, origin);
    }

    fn bad_increment(&mut self, attr: &str, at: Option<&Param>) {
        let msg = format!("{attr} retry increment must be a positive number or an expression that references {attr}");
        self.error_at(&msg, at);
    }

    /// `attr` added to the space-separated `TransformOnEvict` once.
    fn add_on_evict_tag(&mut self, attr: &str, origin: crate::submit::origin::Origin) {
        let mut list = self.lookup_str("TransformOnEvict").unwrap_or_default();
        let present = list
            .split(|c: char| c == ',' || c.is_ascii_whitespace())
            .any(|t| t.eq_ignore_ascii_case(attr));
        if !present {
            if !list.is_empty() {
                list.push(' ');
            }
            list += attr;
            self.assign_str("TransformOnEvict", &list, origin);
        }
    }

    /// `SetOnEvictExpressions` (25): `on_evict_checks = tag …` names
    /// transforms whose bodies are `transform_body_<tag>` (or
    /// `TransformBody_<tag>`); lines joined by 0x1e, blank and `#` lines
    /// dropped; tags without a body are left out.
    pub fn set_on_evict_expressions(&mut self) {
        if self.aborted || self.cfg().version == crate::submit::config::HtcVersion::V24 {
            return;
        }
        let Some(p) = self.param2("on_evict_checks", "TransformOnEvict") else {
            return;
        };
        let mut tags = vec![];
        for tag in p
            .value
            .split(|c: char| c == ',' || c.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
        {
            let body = self
                .param(&format!("transform_body_{tag}"))
                .or_else(|| self.param(&format!("TransformBody_{tag}")));
            let Some(body) = body else { continue };
            tags.push(tag.to_string());
            let lines: Vec<&str> = body
                .value
                .split('\n')
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect();
            self.assign_str(
                &format!("TransformBody_{tag}"),
                &lines.join("\x1e"),
                from(&body),
            );
        }
        self.assign_str("TransformOnEvict", &tags.join(" "), from(&p));
    }
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn sequences() {
        // parse_expr_sequence(" 2G, 8 gb") after request_memory = 1GB, 2G, 8 gb
        let (seq, last, miss) = parse_expr_sequence(" 2G, 8 gb", 1 << 20).unwrap();
        assert_eq!((seq, last.is_none(), miss), (vec![2048, 8192], true, None));
        let (seq, last, miss) =
            parse_expr_sequence("10, MAX({RequestMemory, MemoryUsage}) * 2", 1 << 20).unwrap();
        assert_eq!(seq, vec![10]);
        assert_eq!(miss, Some(0));
        assert_eq!(
            unparse(&last.unwrap()),
            "MAX({ RequestMemory,MemoryUsage }) * 2"
        );
        assert!(
            matches!(parse_expr_sequence("2GB, )(", 1024), Err(SeqError::Parse(t)) if t == ")(")
        );
    }
}
