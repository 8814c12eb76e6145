//! Suggested changes to the job's requirements (§3.1.1): metrics M1 (fewest
//! predicates changed, then most machines) and M2 (composite distance).
//!
//! A predicate may be removed; an `==`-like predicate may take another value
//! of the same type found in the pool; `<`, `<=`, `>`, `>=` may only be
//! relaxed, to a machine's value (a strict bound becomes inclusive, so the
//! machine it was relaxed for is in: `Memory > 2096` → `Memory >= 1911`);
//! `!=` may only be removed, and so may an opaque atom. Candidates are
//! ranked on the boolean table, then each one shown is rewritten into the
//! whole requirements, parsed back, and evaluated over the pool: the count
//! reported is that evaluation's. Nothing that gains no machine is shown.

use std::borrow::Cow;
use std::sync::Arc;

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

use super::group_values::Cell;
use super::groups::Groups;
use super::table::{all_of, truth_of};
use crate::constraint::predicate::{conjunction, disjunction, Atom};
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind};
use crate::lang::eval::ops::{truth, Truth};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;

/// How many suggestions of each metric are shown.
pub const SHOWN: usize = 5;
/// Candidates ranked per clause and metric before verification.
const CANDIDATES: usize = 48;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Change {
    pub predicate: usize,
    pub action: Action,
    /// The new literal, as ClassAd text (`"INTEL"`, `1911`).
    pub value: Option<String>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Remove,
    Modify,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Suggestion {
    /// `M1`, `M2` (the paper's metrics), `NLM` (a job change of Nobody
    /// Likes Me), `least` / `most` (a job attribute's value searched among
    /// the slots': the least change that lets the job run on a willing
    /// slot, the one that lets it run on the most).
    pub metric: String,
    pub clause: usize,
    pub changes: Vec<Change>,
    /// The whole requirements after the fix: as written but for the
    /// changed predicates (see `fixes`).
    pub requirements: String,
    /// Slots the changed job's requirements accept (by evaluation).
    pub matches: u64,
    /// M2's composite distance (M1: the number of changes).
    pub distance: f64,
    /// Job attributes the fix sets (name → ClassAd literal).
    pub job_attributes: std::collections::BTreeMap<String, String>,
    /// Slots that accept the changed job and that it accepts (evaluated).
    pub both_ways: u64,
    /// Of those, the ones not busy with someone else.
    pub willing: u64,
    /// The fix as submit-description lines.
    pub submit: Vec<String>,
    /// Its place in its metric's list as the paper orders it (M1: fewest
    /// changes, then most machines; M2: nearest; NLM: nearest cell), from 0.
    pub metric_rank: usize,
    /// The fix changes `clause` alone: no other clause shares a changed
    /// predicate and no job attribute changes (which every clause reads).
    pub clause_only: bool,
    /// Listed among the fixes a user is offered: it gains willing slots
    /// and asks for nothing absurd (a request of zero or less, or more
    /// than the job asked). The paper's M1/M2 tables list every one.
    #[serde(default)]
    pub listed: bool,
    /// The requests it lowers below what the job asked, as
    /// `RequestMemory 16384 → 1024`: a different kind of fix from relaxing
    /// a preference (the job may not run in less), said in its headline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lowers: Vec<String>,
}

/// Everything a clause's suggestions are computed from.
pub struct ClauseInput<'a> {
    pub index: usize,
    pub atoms: &'a [Atom],
    /// Truth of each atom over the groups.
    pub columns: Vec<&'a FixedBitSet>,
    /// Predicates the user fixed (not to be changed).
    pub fixed: u64,
}

pub struct Context<'a> {
    pub job: &'a Arc<ClassAd>,
    pub machines: &'a [Arc<ClassAd>],
    pub groups: &'a Groups,
    /// The groups' values of the attributes read (when grouped by them).
    pub tabled: Option<&'a super::group_values::GroupValues>,
    /// Every clause as an expression (for rewriting the whole requirements).
    pub clause_exprs: &'a [Expr],
    /// Truth of every clause over the groups.
    pub clause_truth: &'a [FixedBitSet],
    /// Machines the requirements accept now.
    pub current: u64,
    pub opts: EvalOptions,
    /// The table's columns by atom text: a rewritten requirements' atoms
    /// that were already worked out are not worked out again.
    pub known: &'a std::collections::HashMap<String, &'a super::table::Column>,
}

/// One proposed rewrite of a clause (before verification).
#[derive(Clone, Debug)]
struct Candidate {
    changes: Vec<(usize, Option<Value>)>,
    /// M1: changes; M2: distance.
    distance: f64,
    estimate: u64,
}

pub fn suggest(ctx: &Context, clauses: &[ClauseInput]) -> Vec<Suggestion> {
    let mut ev = Evaluator::new(ctx.opts);
    let mut m1: Vec<(usize, Candidate)> = vec![];
    let mut m2: Vec<(usize, Candidate)> = vec![];
    for c in clauses {
        if c.atoms.len() > 64 || c.atoms.is_empty() {
            continue;
        }
        let values = ValueTable::new(ctx, c, &mut ev);
        let (a, b) = candidates(ctx, c, &values);
        m1.extend(a.into_iter().map(|x| (c.index, x)));
        m2.extend(b.into_iter().map(|x| (c.index, x)));
    }
    m1.sort_by(|a, b| {
        (a.1.changes.len(), std::cmp::Reverse(a.1.estimate))
            .cmp(&(b.1.changes.len(), std::cmp::Reverse(b.1.estimate)))
    });
    m2.sort_by(|a, b| {
        a.1.distance
            .total_cmp(&b.1.distance)
            .then(b.1.estimate.cmp(&a.1.estimate))
    });
    let mut out = verified(ctx, clauses, m1, "M1", &mut ev);
    out.extend(verified(ctx, clauses, m2, "M2", &mut ev));
    out
}

/// The machines' values of the clause's predicate attributes, per group,
/// and each numeric attribute's range over the pool.
struct ValueTable<'a> {
    /// [atom][group]; literals borrowed from the tabled values (no string
    /// is copied per machine).
    values: Vec<Vec<Cow<'a, Value>>>,
    range: Vec<f64>,
}

impl<'a> ValueTable<'a> {
    fn new(ctx: &Context<'a>, c: &ClauseInput, ev: &mut Evaluator) -> ValueTable<'a> {
        let mut values = vec![];
        let mut range = vec![];
        for a in c.atoms {
            let Some(p) = &a.predicate else {
                values.push(vec![]);
                range.push(1.0);
                continue;
            };
            let cells = super::table::cells_of(a, ctx.tabled);
            let col: Vec<Cow<Value>> = ctx
                .groups
                .rep
                .iter()
                .enumerate()
                .map(|(g, &m)| match cells.map(|c| &c[g]) {
                    Some(Cell::Absent) => Cow::Owned(Value::Undefined),
                    Some(Cell::Literal(v)) => Cow::Borrowed(v),
                    _ => Cow::Owned(super::table::machine_value(
                        &ctx.machines[m],
                        ctx.job,
                        &p.key,
                        ev,
                    )),
                })
                .collect();
            let nums = col.iter().filter_map(|v| number(v));
            let (lo, hi) = nums.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                (l.min(x), h.max(x))
            });
            range.push(if hi > lo { hi - lo } else { 1.0 });
            values.push(col);
        }
        ValueTable { values, range }
    }
}

/// A finite number (integers and reals alike), as ranges and distances
/// need them.
fn number(v: &Value) -> Option<f64> {
    v.as_number().filter(|x| x.is_finite())
}

/// The new literal for a predicate so that a machine with value `v`
/// satisfies it, or `None` when the predicate can only be removed.
fn modified_literal(atom: &Atom, v: &Value) -> Option<Value> {
    modifiable(atom, v).then(|| v.clone())
}

/// Whether [`modified_literal`] gives one (without copying it).
fn modifiable(atom: &Atom, v: &Value) -> bool {
    let Some(p) = atom.predicate.as_ref() else {
        return false;
    };
    use BinaryOp::*;
    let same_type = matches!(
        (&p.literal, v),
        (
            Value::Int(_) | Value::Real(_),
            Value::Int(_) | Value::Real(_)
        ) | (Value::Str(_), Value::Str(_))
            | (Value::Bool(_), Value::Bool(_))
    );
    same_type
        && match p.op {
            Eq | MetaEq | Is => true,
            Lt | Le | Gt | Ge => number(v).is_some(),
            _ => false,
        }
}

/// The members of a set of predicates, in order, without allocating.
fn each(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let j = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            j
        })
    })
}

/// The atom rewritten with a new literal (strict bounds become inclusive).
fn rewrite_atom(atom: &Atom, lit: &Value) -> Expr {
    let e = crate::constraint::predicate::strip_parens(&atom.expr);
    let (ExprKind::Binary(op, a, b), Some(p)) = (&e.kind, &atom.predicate) else {
        return atom.expr.clone();
    };
    let op = inclusive(*op);
    let new_lit = Expr::new(ExprKind::Literal(lit.clone()), crate::lang::ast::Span::NONE);
    let (l, r) = if p.literal_first {
        (new_lit, (**b).clone())
    } else {
        ((**a).clone(), new_lit)
    };
    Expr::binary(op, l, r)
}

fn candidates(ctx: &Context, c: &ClauseInput, vt: &ValueTable) -> (Vec<Candidate>, Vec<Candidate>) {
    let k = c.atoms.len();
    let full = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    let n = ctx.groups.len();
    // Failing predicates per group.
    let mut fail = vec![0u64; n];
    for (j, col) in c.columns.iter().enumerate() {
        for (g, f) in fail.iter_mut().enumerate() {
            if !col.contains(g) {
                *f |= 1 << j;
            }
        }
    }
    let reachable: Vec<usize> = (0..n)
        .filter(|&g| fail[g] != 0 && fail[g] & c.fixed == 0 && fail[g] & full == fail[g])
        .collect();
    let change_for = |g: usize, j: usize| -> (usize, Option<Value>) {
        let v = vt.values[j].get(g);
        (j, v.and_then(|v| modified_literal(&c.atoms[j], v)))
    };
    let mut seen = std::collections::HashSet::new();
    let mut m1 = vec![];
    // M1: the smallest failing sets, the most common first.
    if let Some(min) = reachable.iter().map(|&g| fail[g].count_ones()).min() {
        let mut sets: Vec<(u64, u64)> = vec![];
        for &g in &reachable {
            if fail[g].count_ones() == min {
                match sets.iter_mut().find(|(s, _)| *s == fail[g]) {
                    Some(e) => e.1 += ctx.groups.weight[g],
                    None => sets.push((fail[g], ctx.groups.weight[g])),
                }
            }
        }
        sets.sort_by_key(|s| std::cmp::Reverse(s.1));
        for &(s, _) in sets.iter().take(CANDIDATES / 4) {
            let members = super::lattice::members(s);
            let remove: Vec<(usize, Option<Value>)> = members.iter().map(|&j| (j, None)).collect();
            push(&mut m1, &mut seen, remove, min as f64, ctx, c, vt);
            let mut groups: Vec<usize> = reachable
                .iter()
                .copied()
                .filter(|&g| fail[g] == s)
                .collect();
            groups.sort_by(|a, b| ctx.groups.weight[*b].cmp(&ctx.groups.weight[*a]));
            for g in groups.into_iter().take(CANDIDATES / 4) {
                let ch: Vec<_> = members.iter().map(|&j| change_for(g, j)).collect();
                if ch.iter().any(|(_, v)| v.is_some()) {
                    push(&mut m1, &mut seen, ch, min as f64, ctx, c, vt);
                }
            }
        }
    }
    // M2: the nearest machines.
    // Per group, as `change_for` would give it, without copying values.
    let distance = |g: usize| -> f64 {
        each(fail[g])
            .map(|j| {
                let lit = vt.values[j]
                    .get(g)
                    .filter(|v| modifiable(&c.atoms[j], v))
                    .and_then(|v| number(v));
                match (lit, c.atoms[j].predicate.as_ref()) {
                    (Some(new), Some(p)) => match number(&p.literal) {
                        Some(old) => (old - new).abs() / vt.range[j],
                        None => 1.0,
                    },
                    _ => 1.0,
                }
            })
            .sum()
    };
    let mut by_distance: Vec<(f64, usize)> = reachable.iter().map(|&g| (distance(g), g)).collect();
    by_distance.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(ctx.groups.weight[b.1].cmp(&ctx.groups.weight[a.1]))
    });
    let mut m2 = vec![];
    let mut seen2 = std::collections::HashSet::new();
    for (d, g) in by_distance {
        if m2.len() >= CANDIDATES {
            break;
        }
        let ch: Vec<_> = super::lattice::members(fail[g])
            .into_iter()
            .map(|j| change_for(g, j))
            .collect();
        push(&mut m2, &mut seen2, ch, d, ctx, c, vt);
    }
    (m1, m2)
}

fn push(
    out: &mut Vec<Candidate>,
    seen: &mut std::collections::HashSet<String>,
    changes: Vec<(usize, Option<Value>)>,
    distance: f64,
    ctx: &Context,
    c: &ClauseInput,
    vt: &ValueTable,
) {
    let key = format!("{changes:?}");
    if !seen.insert(key) {
        return;
    }
    let estimate = estimate(ctx, c, vt, &changes);
    if estimate > ctx.current {
        out.push(Candidate {
            changes,
            distance,
            estimate,
        });
    }
}

/// Machines the requirements would accept after the changes, from the
/// table (the clause's changed atoms are worked out per group).
fn estimate(
    ctx: &Context,
    c: &ClauseInput,
    vt: &ValueTable,
    changes: &[(usize, Option<Value>)],
) -> u64 {
    let n = ctx.groups.len();
    // The clause's unchanged atoms first (bitset work), then the changed
    // ones only where those hold, on the machines' tabled values.
    let unchanged = c
        .columns
        .iter()
        .enumerate()
        .filter(|(j, _)| !changes.iter().any(|(i, _)| i == j))
        .map(|(_, col)| *col);
    let mut bits = all_of(unchanged, n);
    for (j, v) in changes {
        let (Some(v), Some(p)) = (v, c.atoms[*j].predicate.as_ref()) else {
            continue;
        };
        let changed = crate::constraint::predicate::Predicate {
            literal: v.clone(),
            op: inclusive(p.op),
            ..p.clone()
        };
        let keep: Vec<usize> = bits
            .ones()
            .filter(|&g| {
                vt.values[*j]
                    .get(g)
                    .is_some_and(|x| truth(&changed.apply(x)) == Truth::True)
            })
            .collect();
        bits.clear();
        for g in keep {
            bits.insert(g);
        }
    }
    for (i, t) in ctx.clause_truth.iter().enumerate() {
        if i != c.index {
            bits.union_with(t);
        }
    }
    ctx.groups.count(&bits)
}

/// A strict bound made inclusive (so the machine relaxed for is in).
fn inclusive(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Le,
        BinaryOp::Gt => BinaryOp::Ge,
        o => o,
    }
}

/// Where a parsed requirements text is true, group by group: its own DNF
/// (a rewritten DNF is its own), each atom worked out on the group's machine
/// and the clauses combined in ClassAd's logic; groups where an atom was
/// error or met a NaN, and texts too large for DNF, are evaluated whole.
fn count_parsed(ctx: &Context, parsed: &Expr, ev: &mut Evaluator) -> FixedBitSet {
    let sides = crate::constraint::predicate::Sides {
        own: ctx.job,
        unscoped_is_other: ctx.opts.mode == crate::lang::eval::Mode::HTCondor,
    };
    let Ok(dnf) = crate::constraint::predicate::dnf(parsed, &sides) else {
        return truth_of(parsed, ctx.job, ctx.machines, ctx.groups, ev);
    };
    let n = ctx.groups.len();
    let mut bits = FixedBitSet::with_capacity(n);
    let mut uncertain = FixedBitSet::with_capacity(n);
    for clause in &dnf.clauses {
        // Atoms the table has (the same text is the same expression), then
        // the new ones only where those hold.
        let (known, new): (Vec<&Atom>, Vec<&Atom>) =
            clause.iter().partition(|a| ctx.known.contains_key(&a.text));
        let mut holds = all_of(
            known
                .iter()
                .filter_map(|a| ctx.known.get(&a.text))
                .map(|c| &c.truth),
            n,
        );
        for a in &known {
            if let Some(c) = ctx.known.get(&a.text) {
                uncertain.union_with(&c.error);
            }
        }
        for a in new {
            let cells = super::table::cells_of(a, ctx.tabled);
            let mut keep = FixedBitSet::with_capacity(n);
            for g in holds.ones() {
                let machine = &ctx.machines[ctx.groups.rep[g]];
                let v = super::table::atom_value_in(a, cells.map(|c| &c[g]), ctx.job, machine, ev);
                match truth(&v) {
                    Truth::True => keep.insert(g),
                    Truth::Error => uncertain.insert(g),
                    _ => {}
                }
            }
            holds = keep;
        }
        bits.union_with(&holds);
    }
    for g in uncertain.ones() {
        ev.set_ads(
            Some(ctx.job.clone()),
            Some(ctx.machines[ctx.groups.rep[g]].clone()),
        );
        bits.set(g, truth(&ev.eval_expr(parsed)) == Truth::True);
    }
    bits
}

fn verified(
    ctx: &Context,
    clauses: &[ClauseInput],
    ranked: Vec<(usize, Candidate)>,
    metric: &'static str,
    ev: &mut Evaluator,
) -> Vec<Suggestion> {
    let mut out: Vec<Suggestion> = vec![];
    for (ci, cand) in ranked {
        if out.len() >= SHOWN {
            break;
        }
        let Some(c) = clauses.iter().find(|c| c.index == ci) else {
            continue;
        };
        let atoms: Vec<Expr> = c
            .atoms
            .iter()
            .enumerate()
            .filter_map(|(j, a)| match cand.changes.iter().find(|(i, _)| *i == j) {
                None => Some(a.expr.clone()),
                Some((_, None)) => None,
                Some((_, Some(v))) => Some(rewrite_atom(a, v)),
            })
            .collect();
        let mut clause_exprs = ctx.clause_exprs.to_vec();
        if let Some(slot) = clause_exprs.get_mut(ci) {
            *slot = conjunction(&atoms);
        }
        let text = crate::lang::unparse::unparse_typed(&disjunction(clause_exprs));
        if out.iter().any(|s| s.requirements == text) {
            continue;
        }
        // The text itself is what is checked: parse it back and evaluate.
        let Ok(parsed) = crate::lang::parser::parse_expr_with(
            &text,
            crate::lang::lexer::Dialect::Modern,
            ctx.opts.mode,
        ) else {
            continue;
        };
        let matches = ctx.groups.count(&count_parsed(ctx, &parsed, ev));
        if matches == 0 || matches <= ctx.current {
            continue;
        }
        out.push(Suggestion {
            metric: metric.into(),
            clause: ci,
            changes: cand
                .changes
                .iter()
                .map(|(j, v)| Change {
                    predicate: *j,
                    action: if v.is_some() {
                        Action::Modify
                    } else {
                        Action::Remove
                    },
                    value: v.as_ref().map(crate::constraint::predicate::literal_text),
                })
                .collect(),
            requirements: text,
            matches,
            distance: cand.distance,
            job_attributes: Default::default(),
            both_ways: 0,
            willing: 0,
            submit: vec![],
            metric_rank: out.len(),
            listed: false,
            lowers: vec![],
            clause_only: true,
        });
    }
    out
}
