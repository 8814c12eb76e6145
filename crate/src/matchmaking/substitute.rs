//! Post-match augmentation, as Condor-G's planner does it (seed 003):
//! after a job matches a machine, every `$$(attr)` or `$$(attr:default)`
//! inside the job's string literals is replaced by the matched machine's
//! value of `attr` (a string without its quotes, anything else
//! canonically unparsed), or by the default when the machine has none.
//!
//! What filling adds to one job is bounded by
//! [`MAX_VALUE_BYTES`](crate::lang::eval::MAX_VALUE_BYTES): a reference
//! that would pass it is left as written and listed, with the bytes it
//! would have added, so a job repeating `$$(B)` against a 1 MB `B` cannot
//! write gigabytes.

use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;

/// A `$$(…)` that could not be filled.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unresolved {
    pub attribute: String,
    pub reference: String,
    /// Set when the machine has the value but filling it would pass the
    /// bound: the bytes it would have added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub too_large: Option<usize>,
}

impl std::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.attribute, self.reference)?;
        if let Some(bytes) = self.too_large {
            write!(
                f,
                " (not filled: {bytes} more bytes would pass the {} MB a job's substitutions may add)",
                crate::lang::eval::MAX_VALUE_BYTES >> 20
            )?;
        }
        Ok(())
    }
}

/// What filling may still add to a job, in bytes.
pub struct Budget(usize);

impl Default for Budget {
    fn default() -> Budget {
        Budget(crate::lang::eval::MAX_VALUE_BYTES)
    }
}

/// The attributes of `job` that filling its `$$()` from `machine` changes
/// (name, the new expression unparsed), in the job's order, and the
/// references left open. Definitions whose text has no `$$(` (nor an
/// escape that could make one) are not parsed.
pub fn substitutions(
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    opts: EvalOptions,
) -> (Vec<(String, String)>, Vec<Unresolved>) {
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(machine.clone()), Some(job.clone()));
    let (mut changed, mut open) = (vec![], vec![]);
    let mut budget = Budget::default();
    for i in 0..job.len() as u32 {
        if job
            .unparsed_text(i)
            .is_some_and(|t| !t.contains("$$(") && !t.contains('\\'))
        {
            continue;
        }
        let (name, e) = job.at(i);
        if !mentions_substitution(e) {
            continue;
        }
        let mut new = e.clone();
        fill(&mut new, &mut ev, name, &mut open, &mut budget);
        let after = crate::lang::unparse::unparse(&new);
        if after != crate::lang::unparse::unparse(e) {
            changed.push((name.to_string(), after));
        }
    }
    // A reference repeated in one attribute is listed once.
    let mut seen = std::collections::HashSet::new();
    open.retain(|u| seen.insert((u.attribute.clone(), u.reference.clone())));
    (changed, open)
}

/// Whether a string literal in `e` holds a `$$(`.
fn mentions_substitution(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Literal(Value::Str(s)) => s.contains("$$("),
        ExprKind::List(items) => items.iter().any(mentions_substitution),
        _ => e.children().into_iter().any(mentions_substitution),
    }
}

fn fill(
    e: &mut Expr,
    ev: &mut Evaluator,
    attr: &str,
    open: &mut Vec<Unresolved>,
    budget: &mut Budget,
) {
    if let ExprKind::Literal(Value::Str(s)) = &e.kind {
        if s.contains("$$(") {
            let new = fill_text(s, ev, attr, open, budget);
            e.kind = ExprKind::Literal(Value::str(new));
        }
        return;
    }
    let mut fill = |e: &mut Expr| fill(e, ev, attr, open, budget);
    match &mut e.kind {
        ExprKind::Select(b, _) | ExprKind::Unary(_, b) | ExprKind::Paren(b) => fill(b),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Elvis(a, b) => {
            fill(a);
            fill(b);
        }
        ExprKind::Cond(a, b, c) => {
            fill(a);
            fill(b);
            fill(c);
        }
        ExprKind::Call(c) => c.args.iter_mut().for_each(fill),
        ExprKind::List(items) => {
            let mut v: Vec<Expr> = items.to_vec();
            v.iter_mut().for_each(fill);
            *items = v.into();
        }
        _ => {}
    }
}

/// Replace the `$$(name)` / `$$(name:default)` references in one string,
/// adding at most what is left of `budget`.
pub fn fill_text(
    s: &str,
    ev: &mut Evaluator,
    attr: &str,
    open: &mut Vec<Unresolved>,
    budget: &mut Budget,
) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("$$(") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 3..];
        let Some(close) = after.find(')') else {
            // `$$(Name` never closed: nothing can fill it; say so.
            open.push(Unresolved {
                attribute: attr.to_string(),
                reference: rest[i..].chars().take(40).collect(),
                too_large: None,
            });
            out.push_str(&rest[i..]);
            return out;
        };
        let inner = &after[..close];
        let (name, default) = match inner.split_once(':') {
            Some((n, d)) => (n.trim(), Some(d)),
            None => (inner.trim(), None),
        };
        let v = ev.eval_attr(name);
        let written = &rest[i..i + 3 + close + 1];
        let unparsed;
        let filled = match (&v, default) {
            (Value::Str(t), _) => Some(&t[..]),
            (Value::Undefined | Value::Error, Some(d)) => Some(d),
            (Value::Undefined | Value::Error, None) => None,
            (other, _) => {
                unparsed = other.to_string();
                Some(&unparsed[..])
            }
        };
        match filled {
            Some(t) if t.len() <= budget.0 => {
                budget.0 -= t.len();
                out.push_str(t);
            }
            _ => {
                open.push(Unresolved {
                    attribute: attr.to_string(),
                    reference: written.to_string(),
                    too_large: filled.map(str::len),
                });
                out.push_str(written);
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(s: &str) -> (String, Vec<String>) {
        let machine = Arc::new(
            crate::lang::parser::parse_classad("[ Name = \"m1\"; Memory = 2048 ]").unwrap(),
        );
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.set_ads(Some(machine), None);
        let mut open = vec![];
        let out = fill_text(s, &mut ev, "Cmd", &mut open, &mut Budget::default());
        (out, open.into_iter().map(|u| u.reference).collect())
    }

    #[test]
    fn references_fill_default_or_are_listed_open() {
        assert_eq!(
            fill("run on $$(Name) with $$(Memory)"),
            ("run on m1 with 2048".into(), vec![])
        );
        assert_eq!(fill("$$(Site:none)"), ("none".into(), vec![]));
        assert_eq!(
            fill("$$(Site)"),
            ("$$(Site)".into(), vec!["$$(Site)".to_string()])
        );
        // Never closed: nothing can fill it, and it is listed, not dropped.
        assert_eq!(
            fill("a $$(Name b"),
            ("a $$(Name b".into(), vec!["$$(Name b".to_string()])
        );
    }
}
