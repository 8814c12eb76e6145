//! Fixes in the user's terms: "what do I change so my job runs".
//!
//! The paper's suggestions (M1/M2) change predicates of the requirements
//! as specialized against the job, where `TARGET.Memory >= RequestMemory`
//! reads `Memory >= 2000`. Lowering that literal in the requirements does
//! not help when the machine's own requirements read `RequestMemory` too;
//! lowering `RequestMemory` does. So a changed literal that came from a job
//! attribute becomes a change of that attribute; other changes rewrite only
//! the changed predicate of the requirements as written (no DNF
//! expansion). Nobody Likes Me's job changes join the same list.
//!
//! Every fix is applied to a copy of the job and counted both ways by
//! evaluation: slots that accept the changed job and that it accepts
//! (`both_ways`), and of those the ones not busy (`willing`,
//! better-analyze's count). The list is ranked: fixes that keep every
//! request the job made first, then by `willing`, `both_ways` and the
//! paper's metric.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::groups::Groups;
use super::suggest::{Action, Suggestion};
use crate::constraint::predicate::{strip_parens, Atom, Dnf};
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Span};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::unparse::unparse_typed;
use crate::lang::value::Value;

/// What a fix needs of the analysis.
pub struct FixContext<'a> {
    pub job: &'a Arc<ClassAd>,
    pub machines: &'a [Arc<ClassAd>],
    pub compiled: Option<&'a super::Compiled<'a>>,
    pub groups: &'a Groups,
    /// The requirements as written, the same unparsed, and the attribute
    /// holding them.
    pub requirements: &'a Expr,
    pub written: &'a str,
    pub requirements_attribute: &'a str,
    pub dnf: &'a Dnf,
    pub opts: EvalOptions,
}

/// An edit of the requirements as written, at a node's span.
enum Edit {
    Remove,
    Replace(Expr),
}

/// The changes of one suggestion in job terms: attributes to set on the
/// job, and edits of the requirements as written. `None` when a changed
/// predicate cannot be found in the requirements as written (it was made
/// by normalization); the suggestion then keeps its normal-form text.
fn in_job_terms(
    ctx: &FixContext,
    s: &Suggestion,
) -> Option<(BTreeMap<String, String>, Vec<(Span, Edit)>)> {
    let atoms = ctx.dnf.clauses.get(s.clause)?;
    let mut job_attributes = BTreeMap::new();
    let mut edits = vec![];
    for c in &s.changes {
        let atom = atoms.get(c.predicate)?;
        let span = strip_parens(&atom.expr).span;
        let written = written_predicate(ctx.requirements, atom)?;
        match (c.action, &c.value) {
            (Action::Remove, _) => edits.push((span, Edit::Remove)),
            (Action::Modify, Some(text)) => {
                let v = parse_literal(text)?;
                match job_attribute_fix(ctx.job, atom, written, &v) {
                    Some((name, value)) => {
                        job_attributes.insert(name, value);
                    }
                    None => edits.push((span, Edit::Replace(rewritten(atom, written, &v)?))),
                }
            }
            (Action::Modify, None) => return None,
        }
    }
    Some((job_attributes, edits))
}

fn parse_literal(text: &str) -> Option<Value> {
    crate::lang::parser::parse_expr(text)
        .ok()?
        .as_literal()
        .cloned()
}

/// The node of the requirements as written that `atom` was specialized
/// from: the same span, the same comparison.
fn written_predicate<'e>(req: &'e Expr, atom: &Atom) -> Option<&'e Expr> {
    let p = atom.predicate.as_ref()?;
    let span = strip_parens(&atom.expr).span;
    if span.is_none() {
        return None;
    }
    let node = strip_parens(find_span(req, span)?);
    match &node.kind {
        ExprKind::Binary(op, ..) if *op == p.op => Some(node),
        _ => None,
    }
}

/// The node with `span` (its parentheses stripped), searched without
/// recursion.
fn find_span(e: &Expr, span: Span) -> Option<&Expr> {
    let mut stack = vec![e];
    while let Some(n) = stack.pop() {
        if n.span == span {
            return Some(strip_parens(n));
        }
        stack.extend(n.children());
    }
    None
}

/// The literal side of a written predicate (`RequestMemory` in
/// `TARGET.Memory >= RequestMemory`).
fn literal_side<'e>(atom: &Atom, written: &'e Expr) -> Option<&'e Expr> {
    let p = atom.predicate.as_ref()?;
    let ExprKind::Binary(_, l, r) = &written.kind else {
        return None;
    };
    Some(strip_parens(if p.literal_first { l } else { r }))
}

/// The job attribute a written operand refers to: `RequestMemory`,
/// `MY.RequestMemory`, `self.RequestMemory`, when the job defines it.
fn job_attribute_of(job: &ClassAd, e: &Expr) -> Option<String> {
    let name = match &e.kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } => name,
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr { name: b, .. } if b.is("my") || b.is("self") => name,
            _ => return None,
        },
        _ => return None,
    };
    let i = job.position_name(name)?;
    // The name as the job spells it.
    Some(job.at(i).0.to_string())
}

/// Setting a job attribute so the predicate holds for a machine value `v`:
/// `Memory >= RequestMemory` with `v = 1900` is `RequestMemory = 1900`; a
/// strict bound on integers moves by one (`Memory > RequestMemory`:
/// `RequestMemory = 1899`). `None` when the literal is not a job attribute
/// or a strict bound is not on integers.
fn job_attribute_fix(
    job: &ClassAd,
    atom: &Atom,
    written: &Expr,
    v: &Value,
) -> Option<(String, String)> {
    let p = atom.predicate.as_ref()?;
    let name = job_attribute_of(job, literal_side(atom, written)?)?;
    // With the attribute on the left: attr OP literal.
    let value = match (p.normalized_op(), v) {
        (BinaryOp::Gt, Value::Int(i)) => Value::Int(i.checked_sub(1)?),
        (BinaryOp::Lt, Value::Int(i)) => Value::Int(i.checked_add(1)?),
        (BinaryOp::Gt | BinaryOp::Lt, _) => return None,
        _ => v.clone(),
    };
    Some((name, crate::constraint::predicate::literal_text(&value)))
}

/// The written predicate with the new literal on its literal side (a
/// strict bound made inclusive, as the suggestion counted it).
fn rewritten(atom: &Atom, written: &Expr, v: &Value) -> Option<Expr> {
    let p = atom.predicate.as_ref()?;
    let ExprKind::Binary(op, l, r) = &written.kind else {
        return None;
    };
    let op = match op {
        BinaryOp::Lt => BinaryOp::Le,
        BinaryOp::Gt => BinaryOp::Ge,
        o => *o,
    };
    let lit = Expr::new(ExprKind::Literal(v.clone()), Span::NONE);
    let (l, r) = if p.literal_first {
        (lit, (**r).clone())
    } else {
        ((**l).clone(), lit)
    };
    Some(Expr::new(
        ExprKind::Binary(op, Box::new(l), Box::new(r)),
        written.span,
    ))
}

/// Deepest the rewrite recurses (the parser allows 2,000 levels; past this
/// the suggestion keeps its normal-form text).
const MAX_REWRITE_DEPTH: u32 = 400;

/// The requirements as written with the edits made: a removed conjunct
/// leaves its `&&` (a conjunction all removed goes too), a removed
/// predicate elsewhere becomes `true`.
fn apply_edits(e: &Expr, edits: &[(Span, Edit)]) -> Option<Expr> {
    Some(match edited(e, edits, 0)? {
        Some(x) => x,
        None => Expr::literal(Value::Bool(true)),
    })
}

/// `Some(None)`: removed; `None`: too deep to rewrite.
fn edited(e: &Expr, edits: &[(Span, Edit)], depth: u32) -> Option<Option<Expr>> {
    if depth > MAX_REWRITE_DEPTH {
        return None;
    }
    let d = depth + 1;
    let here = strip_parens(e).span;
    if let Some((_, edit)) = edits.iter().find(|(s, _)| !s.is_none() && *s == here) {
        return Some(match edit {
            Edit::Remove => None,
            // Keep the brackets the user wrote around it.
            Edit::Replace(x) => Some(match &e.kind {
                ExprKind::Paren(_) => Expr::new(ExprKind::Paren(Box::new(x.clone())), e.span),
                _ => x.clone(),
            }),
        });
    }
    // A removed operand anywhere but under `&&` reads `true`.
    let kept = |x: &Expr| -> Option<Expr> {
        Some(edited(x, edits, d)?.unwrap_or_else(|| Expr::literal(Value::Bool(true))))
    };
    let kind = match &e.kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            return Some(match (edited(a, edits, d)?, edited(b, edits, d)?) {
                (None, None) => None,
                (Some(x), None) | (None, Some(x)) => Some(x),
                (Some(x), Some(y)) => Some(Expr::new(
                    ExprKind::Binary(BinaryOp::And, Box::new(x), Box::new(y)),
                    e.span,
                )),
            })
        }
        ExprKind::Paren(a) => {
            return Some(
                edited(a, edits, d)?.map(|x| Expr::new(ExprKind::Paren(Box::new(x)), e.span)),
            )
        }
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, Box::new(kept(a)?), Box::new(kept(b)?)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(kept(a)?)),
        ExprKind::Cond(a, b, c) => {
            ExprKind::Cond(Box::new(kept(a)?), Box::new(kept(b)?), Box::new(kept(c)?))
        }
        ExprKind::Elvis(a, b) => ExprKind::Elvis(Box::new(kept(a)?), Box::new(kept(b)?)),
        // Predicates are not found inside calls, lists or selections.
        _ => return Some(Some(e.clone())),
    };
    Some(Some(Expr::new(kind, e.span)))
}

/// Whether no other clause holds a predicate the suggestion changes (the
/// same written predicate, by its span).
fn changes_one_clause(ctx: &FixContext, s: &Suggestion) -> bool {
    let Some(atoms) = ctx.dnf.clauses.get(s.clause) else {
        return true;
    };
    s.changes.iter().all(|c| {
        let Some(atom) = atoms.get(c.predicate) else {
            return true;
        };
        let span = strip_parens(&atom.expr).span;
        ctx.dnf
            .clauses
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != s.clause)
            .all(|(_, other)| other.iter().all(|a| strip_parens(&a.expr).span != span))
    })
}

/// A job with `attributes` set (ClassAd literal texts) and, when given,
/// new requirements.
fn changed_job(
    job: &ClassAd,
    attributes: &BTreeMap<String, String>,
    requirements: Option<(&str, Expr)>,
) -> Option<ClassAd> {
    let mut ad = job.clone();
    for (name, text) in attributes {
        ad.insert(name, crate::lang::parser::parse_expr(text).ok()?);
    }
    if let Some((name, e)) = requirements {
        ad.insert(name, e);
    }
    Some(ad)
}

/// Slots the job's requirements accept; both ways; both ways and not busy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub matches: u64,
    pub both_ways: u64,
    pub willing: u64,
}

/// Count `job` against the pool both ways, by evaluation.
pub fn count_both_ways(ctx: &FixContext, job: &Arc<ClassAd>) -> Counted {
    count_in(job, ctx.machines, ctx.compiled, ctx.groups, ctx.opts)
}

/// Count `job` against `machines` both ways, machine by machine.
pub fn count_job(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    opts: EvalOptions,
) -> Counted {
    let compiled = compiled.filter(|c| c.machines.len() == machines.len());
    count_in(
        job,
        machines,
        compiled,
        &Groups::singletons(machines.len()),
        opts,
    )
}

fn count_in(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    groups: &Groups,
    opts: EvalOptions,
) -> Counted {
    let mut ev = Evaluator::new(opts);
    let req = super::requirements_of(job).map(|(_, e)| e.clone());
    let accepted = match &req {
        Some(r) => super::table::truth_of(r, job, machines, groups, &mut ev),
        None => fixedbitset::FixedBitSet::with_capacity(groups.len()),
    };
    let (s, _, _) = super::summary::summarize(job, machines, compiled, groups, &accepted, opts);
    Counted {
        matches: groups.count(&accepted),
        both_ways: s.match_but_busy + s.matched,
        willing: s.matched,
    }
}

/// Each suggestion in job terms, counted both ways; the job changes of
/// Nobody Likes Me joined to them; the whole ranked best first. A fix that
/// gains nothing either way is dropped.
pub fn fixes(
    ctx: &FixContext,
    suggestions: Vec<Suggestion>,
    job_changes: &[super::nobody::JobChange],
    searched: &[super::rejections::ValueOption],
    now: Counted,
) -> Vec<Suggestion> {
    let written = ctx.written;
    let mut out: Vec<Suggestion> = vec![];
    for mut s in suggestions {
        let terms = in_job_terms(ctx, &s).and_then(|(attrs, edits)| {
            let req = if edits.is_empty() {
                None
            } else {
                Some(apply_edits(ctx.requirements, &edits)?)
            };
            Some((attrs, req))
        });
        let (attrs, req) = match terms {
            Some((attrs, req)) => {
                s.requirements = req
                    .as_ref()
                    .map_or_else(|| written.to_string(), unparse_typed);
                // Naming the clause is only right when the fix touches that
                // clause alone (a shared factor is in every clause DNF made
                // of it; a job attribute is read by all).
                s.clause_only = attrs.is_empty() && changes_one_clause(ctx, &s);
                (attrs, req)
            }
            // The normal-form text, as the paper's suggestion gives it.
            None => match crate::lang::parser::parse_expr(&s.requirements) {
                Ok(r) => {
                    s.clause_only = true;
                    (BTreeMap::new(), Some(r))
                }
                Err(_) => continue,
            },
        };
        s.job_attributes = attrs;
        let Some(job) = changed_job(
            ctx.job,
            &s.job_attributes,
            req.map(|r| (ctx.requirements_attribute, r)),
        ) else {
            continue;
        };
        // The same fix twice in one metric's list (two candidates that read
        // the same in job terms) is shown once; across metrics both stay,
        // so each of the paper's tables is whole.
        if out.iter().any(|o| {
            o.metric == s.metric
                && o.requirements == s.requirements
                && o.job_attributes == s.job_attributes
        }) {
            continue;
        }
        let c = count_both_ways(ctx, &Arc::new(job));
        s.matches = c.matches;
        s.both_ways = c.both_ways;
        s.willing = c.willing;
        out.push(s);
    }
    for (k, jc) in job_changes.iter().enumerate() {
        out.extend(attribute_fix(ctx, "NLM", &jc.changes, jc.distance, k));
    }
    // The value search's least and most change of each attribute.
    for (k, o) in searched.iter().filter(|o| o.least || o.most).enumerate() {
        let attrs = BTreeMap::from([(o.attribute.clone(), o.value.clone())]);
        if !out
            .iter()
            .any(|s| s.job_attributes == attrs && s.requirements == written)
        {
            let metric = if o.least { "least" } else { "most" };
            out.extend(attribute_fix(ctx, metric, &attrs, 0.0, k));
        }
    }
    out.retain(|s| s.both_ways > now.both_ways || s.matches > now.matches);
    for s in &mut out {
        let (mut lowers, absurd) = request_changes(ctx.job, &s.job_attributes, ctx.opts);
        lowers.extend(dropped_requests(ctx, s));
        s.lowers = lowers;
        s.listed = !absurd && s.willing > now.willing;
        s.submit = submit_lines(
            &s.job_attributes,
            (s.requirements != written).then_some(s.requirements.as_str()),
        );
    }
    let rank = |m: &str| match m {
        "M1" => 0,
        "M2" => 1,
        "least" | "most" => 2,
        _ => 3,
    };
    // Stable: within a metric, the paper's order.
    // The fixes offered first; of those, one that keeps what the job
    // asked for before one that lowers a request (the job may not run in
    // less); then the most willing slots, both ways, the paper's metric.
    // Of two that lower a request, the one that lowers it less first: a
    // fix asks as little as it can of what the user asked for.
    out.sort_by(|a, b| {
        (a.listed, a.lowers.is_empty())
            .cmp(&(b.listed, b.lowers.is_empty()))
            .reverse()
            .then(lowered(&a.lowers).total_cmp(&lowered(&b.lowers)))
            .then(b.willing.cmp(&a.willing))
            .then(b.both_ways.cmp(&a.both_ways))
            .then(rank(&a.metric).cmp(&rank(&b.metric)))
    });
    out
}

/// A fix that sets job attributes and leaves the requirements as written,
/// counted both ways (`None` when a value does not parse).
fn attribute_fix(
    ctx: &FixContext,
    metric: &str,
    attrs: &BTreeMap<String, String>,
    distance: f64,
    metric_rank: usize,
) -> Option<Suggestion> {
    let job = changed_job(ctx.job, attrs, None)?;
    let c = count_both_ways(ctx, &Arc::new(job));
    Some(Suggestion {
        metric: metric.into(),
        clause: 0,
        changes: vec![],
        requirements: ctx.written.to_string(),
        matches: c.matches,
        distance,
        job_attributes: attrs.clone(),
        both_ways: c.both_ways,
        willing: c.willing,
        submit: vec![],
        metric_rank,
        clause_only: false,
        listed: false,
        lowers: vec![],
    })
}

/// How much of what the job requested a fix's `lowers` give up, as a
/// fraction summed over them (`RequestMemory 2000 → 1024`: 0.488; a
/// dropped predicate: 1).
pub fn lowered(lowers: &[String]) -> f64 {
    lowers
        .iter()
        .map(|l| {
            let mut parts = l.rsplitn(2, " \u{2192} ");
            let to = parts.next().and_then(|t| t.trim().parse::<f64>().ok());
            let from = parts
                .next()
                .and_then(|f| f.rsplit(' ').next())
                .and_then(|f| f.trim().parse::<f64>().ok());
            match (from, to) {
                (Some(f), Some(t)) if f > 0.0 => ((f - t) / f).clamp(0.0, 1.0),
                _ => 1.0,
            }
        })
        .sum()
}

/// The requests a fix lowers below what the job asks (`RequestMemory
/// 16384 → 1024`), and whether it asks for something absurd: a request of
/// zero or less, or more than the job asks (a fix is never a bigger job).
fn request_changes(
    job: &Arc<ClassAd>,
    attributes: &BTreeMap<String, String>,
    opts: EvalOptions,
) -> (Vec<String>, bool) {
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(job.clone()), None);
    let mut lowers = vec![];
    let mut absurd = false;
    for (name, text) in attributes {
        if !name.to_ascii_lowercase().starts_with("request") {
            continue;
        }
        let to = parse_literal(text).and_then(|v| v.as_number());
        let from = ev.eval_attr(name).as_number();
        match (from, to) {
            (_, Some(t)) if t <= 0.0 => absurd = true,
            (Some(f), Some(t)) if t > f => absurd = true,
            (Some(f), Some(t)) if t < f => lowers.push(format!("{name} {f} \u{2192} {t}")),
            _ => {}
        }
    }
    (lowers, absurd)
}

/// The predicates a fix removes or loosens in the requirements that hold a
/// slot to one of the job's requests (`TARGET.Memory >= RequestMemory`):
/// removing one asks for none of it, loosening one for less (a fix in the
/// analyzer's normal form, where the job's values are put in, changes
/// `Memory >= 24576` to 16384 and not `RequestMemory`).
fn dropped_requests(ctx: &FixContext, s: &Suggestion) -> Vec<String> {
    let Some(atoms) = ctx.dnf.clauses.get(s.clause) else {
        return vec![];
    };
    s.changes
        .iter()
        .filter_map(|c| {
            let atom = atoms.get(c.predicate)?;
            let written = written_predicate(ctx.requirements, atom)?;
            if !holds_to_request(written, ctx.job) {
                return None;
            }
            match (c.action, &c.value) {
                (Action::Remove, _) => Some(format!("drops {}", unparse_typed(written))),
                // Said in job terms already (the attribute is set).
                (Action::Modify, _) if !s.job_attributes.is_empty() => None,
                (Action::Modify, Some(v)) => Some(format!(
                    "{} \u{2192} {v}",
                    unparse_typed(strip_parens(&atom.expr))
                )),
                (Action::Modify, None) => None,
            }
        })
        .collect()
}

/// Whether a predicate holds the slot to at least a request of the job's:
/// `TARGET.Memory >= RequestMemory` (or `>`, or the sides swapped), the
/// slot's side reading no request and the job's side reading one.
fn holds_to_request(e: &Expr, job: &ClassAd) -> bool {
    let ExprKind::Binary(op, l, r) = &strip_parens(e).kind else {
        return false;
    };
    let requests = |x: &Expr| {
        crate::lang::refs::expr_refs(x, job)
            .internal
            .iter()
            .any(|n| n.to_ascii_lowercase().starts_with("request"))
    };
    let (slot, request) = match op {
        BinaryOp::Ge | BinaryOp::Gt => (l, r),
        BinaryOp::Le | BinaryOp::Lt => (r, l),
        _ => return false,
    };
    requests(request) && !requests(slot)
}

/// The fix as submit-description lines: `request_memory = 1900` for the
/// `Request*` attributes the submit language names, `+Attr = value` for
/// other job attributes, `requirements = …` when those change.
pub fn submit_lines(
    attributes: &BTreeMap<String, String>,
    requirements: Option<&str>,
) -> Vec<String> {
    let mut lines: Vec<String> = attributes
        .iter()
        .map(|(name, value)| match submit_command(name) {
            Some(cmd) => format!("{cmd} = {value}"),
            None => format!("+{name} = {value}"),
        })
        .collect();
    if let Some(r) = requirements {
        lines.push(format!("requirements = {r}"));
    }
    lines
}

/// The submit command that sets a job attribute (units as the attribute
/// has them: RequestMemory MB, RequestDisk KiB, as `request_disk` reads a
/// bare number).
pub fn submit_command(attribute: &str) -> Option<&'static str> {
    Some(match attribute.to_ascii_lowercase().as_str() {
        "requestmemory" => "request_memory",
        "requestcpus" => "request_cpus",
        "requestdisk" => "request_disk",
        "requestgpus" => "request_gpus",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowered_requests_are_said_and_absurd_ones_refused() {
        let job = Arc::new(
            crate::lang::parser::parse_classad(
                "[ RequestMemory = 16384; RequestCpus = 2; Rank = 1 ]",
            )
            .unwrap(),
        );
        let ask = |pairs: &[(&str, &str)]| {
            let attrs: BTreeMap<String, String> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            request_changes(&job, &attrs, EvalOptions::default())
        };
        assert_eq!(
            ask(&[("RequestMemory", "1024")]),
            (vec!["RequestMemory 16384 \u{2192} 1024".to_string()], false)
        );
        // Zero, less, or more than the job asked: not a fix to offer.
        assert!(ask(&[("RequestCpus", "0")]).1);
        assert!(ask(&[("RequestCpus", "-1")]).1);
        assert!(ask(&[("RequestMemory", "1114112")]).1);
        // Not a request: neither.
        assert_eq!(ask(&[("Rank", "0")]), (vec![], false));
    }

    #[test]
    fn submit_lines_name_the_request_commands() {
        let attrs: BTreeMap<String, String> = [
            ("RequestMemory".to_string(), "1900".to_string()),
            ("RequestDisk".to_string(), "1000000".to_string()),
            ("ImageSize".to_string(), "5".to_string()),
            ("WantGlidein".to_string(), "true".to_string()),
        ]
        .into();
        assert_eq!(
            submit_lines(&attrs, Some("TARGET.Memory >= 5")),
            [
                "+ImageSize = 5",
                "request_disk = 1000000",
                "request_memory = 1900",
                "+WantGlidein = true",
                "requirements = TARGET.Memory >= 5",
            ]
        );
    }
}
