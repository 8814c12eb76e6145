//! Fixes searched exactly among the slots' own values (issue 34, case 2):
//! for each job attribute the job's requirements compare with a slot's
//! (`TARGET.Memory >= RequestMemory`), every value the slots hold of that
//! attribute is a candidate — not only the paper's M1/M2 picks — counted
//! over the pool both ways (the slots' own START reads the attribute too),
//! the least change that lets the job run on a willing slot and the one
//! that lets it run on the most marked. The paper's tables are unchanged:
//! these join the fixes.

use super::value_search::{candidates, tried_note, Kinds, Pool, Scope, ValueOption, MAX_TRIED};
use crate::constraint::predicate::Sides;
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind};
use crate::lang::eval::{Evaluator, Mode};

/// Job attributes searched.
const MAX_ATTRIBUTES: usize = 8;

/// Every value tried that gains slots, per attribute, most willing first;
/// the least and most of each marked.
pub fn search(scope: Scope, notes: &mut Vec<String>) -> Vec<ValueOption> {
    let (job, machines) = (scope.job, scope.machines);
    let Some((_, req)) = super::requirements_of(job) else {
        return vec![];
    };
    let pairs = compared(req, job, scope.opts.mode);
    if pairs.is_empty() || machines.is_empty() {
        return vec![];
    }
    let mut attributes: Vec<String> = vec![];
    for (a, _) in &pairs {
        if !attributes.iter().any(|x| x.eq_ignore_ascii_case(a)) {
            attributes.push(a.clone());
        }
    }
    attributes.truncate(MAX_ATTRIBUTES);
    let mut ev = Evaluator::new(scope.opts);
    let kinds = Kinds::new(&scope, &|_| true, &mut ev);
    let pool = Pool::new(scope, &attributes, &kinds, &mut ev);
    let mut out = vec![];
    let mut cut = vec![];
    for (a, name) in attributes.iter().enumerate() {
        // What the slots hold of each attribute compared with it.
        let mut values = vec![];
        for (_, slot_attr) in pairs.iter().filter(|(x, _)| x.eq_ignore_ascii_case(name)) {
            for m in machines {
                ev.set_ads(Some(m.clone()), Some(job.clone()));
                values.push(ev.eval_attr(slot_attr));
            }
        }
        let cands = candidates(job, name, values, &[], false, false, &mut ev);
        if cands.total > MAX_TRIED {
            cut.push(format!("{name} ({MAX_TRIED} of {})", cands.total));
        }
        out.extend(pool.options(a, name, &cands, &mut ev));
    }
    notes.extend(tried_note(&cut));
    out
}

/// (job attribute, slot attribute) of each comparison in the requirements
/// between one of the job's own attributes and one of the slot's
/// (`TARGET.Memory >= RequestMemory`, either way round), as written.
fn compared(req: &Expr, job: &ClassAd, mode: Mode) -> Vec<(String, String)> {
    let sides = Sides {
        own: job,
        unscoped_is_other: mode == Mode::HTCondor,
    };
    let mut out: Vec<(String, String)> = vec![];
    let mut stack = vec![req];
    let mut steps = 0;
    while let Some(e) = stack.pop() {
        steps += 1;
        if steps > 100_000 {
            break;
        }
        if let ExprKind::Binary(op, l, r) = &e.kind {
            use BinaryOp::*;
            if matches!(op, Lt | Le | Gt | Ge | Eq | Ne) {
                for (a, b) in [(l, r), (r, l)] {
                    if let (Some(own), Some(other)) =
                        (own_attribute(a, job), sides.other_attribute(b))
                    {
                        if !out
                            .iter()
                            .any(|(x, y)| x == &own && y.eq_ignore_ascii_case(&other))
                        {
                            out.push((own, other));
                        }
                    }
                }
            }
        }
        stack.extend(e.children());
    }
    out
}

/// The job's own attribute an operand names (`RequestMemory`, `MY.x`), as
/// the job spells it.
fn own_attribute(e: &Expr, job: &ClassAd) -> Option<String> {
    if let ExprKind::Paren(a) = &e.kind {
        return own_attribute(a, job);
    }
    let i = job.position_name(super::machine_clauses::own_name(e)?)?;
    Some(job.at(i).0.to_string())
}
