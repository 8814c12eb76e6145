//! Post-match augmentation, as Condor-G's planner does it (seed 003):
//! after a job matches a machine, every `$$(attr)` or `$$(attr:default)`
//! inside the job's string literals is replaced by the matched machine's
//! value of `attr` (a string without its quotes, anything else
//! canonically unparsed), or by the default when the machine has none.

use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;

/// A `$$(…)` that could not be filled.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unresolved {
    pub attribute: String,
    pub reference: String,
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
        fill(&mut new, &mut ev, name, &mut open);
        let after = crate::lang::unparse::unparse(&new);
        if after != crate::lang::unparse::unparse(e) {
            changed.push((name.to_string(), after));
        }
    }
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

fn fill(e: &mut Expr, ev: &mut Evaluator, attr: &str, open: &mut Vec<Unresolved>) {
    if let ExprKind::Literal(Value::Str(s)) = &e.kind {
        if s.contains("$$(") {
            let new = fill_text(s, ev, attr, open);
            e.kind = ExprKind::Literal(Value::str(new));
        }
        return;
    }
    match &mut e.kind {
        ExprKind::Select(b, _) | ExprKind::Unary(_, b) | ExprKind::Paren(b) => {
            fill(b, ev, attr, open)
        }
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Elvis(a, b) => {
            fill(a, ev, attr, open);
            fill(b, ev, attr, open);
        }
        ExprKind::Cond(a, b, c) => {
            fill(a, ev, attr, open);
            fill(b, ev, attr, open);
            fill(c, ev, attr, open);
        }
        ExprKind::Call(c) => c.args.iter_mut().for_each(|a| fill(a, ev, attr, open)),
        ExprKind::List(items) => {
            let mut v: Vec<Expr> = items.to_vec();
            v.iter_mut().for_each(|a| fill(a, ev, attr, open));
            *items = v.into();
        }
        _ => {}
    }
}

/// Replace the `$$(name)` / `$$(name:default)` references in one string.
pub fn fill_text(s: &str, ev: &mut Evaluator, attr: &str, open: &mut Vec<Unresolved>) -> String {
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
        match (&v, default) {
            (Value::Str(t), _) => out.push_str(t),
            (Value::Undefined | Value::Error, Some(d)) => out.push_str(d),
            (Value::Undefined | Value::Error, None) => {
                open.push(Unresolved {
                    attribute: attr.to_string(),
                    reference: format!("$$({inner})"),
                });
                out.push_str(&rest[i..i + 3 + close + 1]);
            }
            (other, _) => out.push_str(&other.to_string()),
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
        let out = fill_text(s, &mut ev, "Cmd", &mut open);
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
