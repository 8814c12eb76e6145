//! Nobody Likes Me on real slots: which clauses of the machines' own
//! requirements reject the job, grouped by their text (a glidein pool's
//! 1,872 slots with one START are one rule, not 1,872), the job attributes
//! each reads, the values the slots would accept and how many slots each
//! opens — or that nothing in the job can change it (a retirement clock).
//!
//! Values are searched exactly among what the slots themselves hold (the
//! slot attributes a clause compares the job with, the clause's own
//! literals, `undefined`, a list widened by one or every value), each
//! counted both ways over the pool. Counting is clause by clause: a change
//! of one job attribute can only move the clauses that read it (through
//! the job's own definitions too), so only those are evaluated again; a
//! machine whose clauses are not all booleans is evaluated whole.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

use super::groups::Groups;
use super::machine_clauses::{self as mc, MachineClause};
use super::nobody::JobChange;
use crate::constraint::predicate::{conjunction, literal_text};
use crate::lang::ast::{ClassAd, Expr, ExprKind, Value};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::unparse::unparse_readable;
use crate::matchmaking::matching::{accepts, DEFAULT_REQUIREMENTS};

/// Rejecting clauses reported (the most slots first).
pub const SHOWN: usize = 10;
/// Job attributes whose values are searched.
pub const MAX_ATTRIBUTES: usize = 16;
/// Values tried per job attribute (the extremes and the nearest first).
pub const MAX_TRIED: usize = 64;
/// Values a clause's slots offer, listed per slot attribute.
const OFFERED_LISTED: usize = 24;
/// Options listed per clause.
const OPTIONS_LISTED: usize = 8;
/// Machine names kept per change.
const NAMES: usize = 200;

/// One clause of the machines' requirements that rejects the job.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rejection {
    /// The machine attribute it is written in (`START`).
    pub attribute: String,
    /// As written.
    pub clause: String,
    /// Rejecting slots on which it is not true.
    pub slots: u64,
    /// Of those, slots on which it is the only clause not true.
    pub only: u64,
    /// The job attributes it reads, as the job spells them (`DESIRED_Sites`);
    /// empty when it reads none: nothing in the job can change it.
    pub reads: Vec<String>,
    /// It may read any job attribute (a whole-ad reference, `eval()`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reads_anything: bool,
    /// The job's values of `reads` (ClassAd literal text; `undefined`).
    pub job_values: Vec<String>,
    /// The slot's own attributes it reads (`GLIDEIN_Site`).
    pub slot_reads: Vec<String>,
    /// It reads the clock (`time()`): its verdict changes by itself.
    pub clock: bool,
    /// What the rejecting slots hold of `slot_reads`, most slots first.
    pub offered: Vec<Offered>,
    /// Values of `reads` tried, those that gain slots, most willing first.
    pub options: Vec<ValueOption>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Offered {
    pub attribute: String,
    /// ClassAd literal text.
    pub value: String,
    pub slots: u64,
}

/// One value of a job attribute, counted over the pool both ways.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ValueOption {
    pub attribute: String,
    /// ClassAd literal text (`undefined`: the attribute removed).
    pub value: String,
    /// `set`, `add` (one value added to the job's list), `add all`, `remove`.
    pub change: String,
    pub both_ways: u64,
    pub willing: u64,
    /// Slots matching both ways that did not before.
    pub gained: u64,
    /// The least change that gains a willing slot (else any slot).
    pub least: bool,
    /// The change that gains the most willing slots.
    pub most: bool,
}

/// What [`analyze`] found.
#[derive(Default)]
pub struct Rejections {
    pub clauses: Vec<Rejection>,
    /// The least and most change per attribute (and every attribute's most
    /// together), each counted by evaluating every machine.
    pub changes: Vec<JobChange>,
    /// Job attributes the rejecting clauses read that the job lacks.
    pub lacking: Vec<String>,
    /// Per rejecting machine (in `Input::rejecting`'s order): the clauses
    /// that a change of the job could move — the failing ones that read the
    /// job, and every clause sharing an attribute with them — as one
    /// conjunction (`None`: nothing of the job's can change its verdict).
    pub movable: Movable,
    /// How many predicates the rejecting machines' whole requirements give
    /// in normal form, at most (distinct machines only): whether the paper's
    /// partition over whole requirements is worth trying.
    pub whole_atoms: u64,
}

/// The rejecting machines' movable clauses: one expression per distinct
/// set of clauses (with a machine holding it, as a position in
/// `Input::rejecting`), and each rejecting machine's.
#[derive(Default)]
pub struct Movable {
    pub exprs: Vec<(usize, Expr)>,
    pub of: Vec<Option<usize>>,
}

pub struct Input<'a> {
    pub job: &'a Arc<ClassAd>,
    pub machines: &'a [Arc<ClassAd>],
    pub compiled: Option<&'a super::Compiled<'a>>,
    /// The job's requirements' groups, and which of them it accepts.
    pub groups: &'a Groups,
    pub accepted: &'a FixedBitSet,
    /// Machines the job accepts whose requirements reject it.
    pub rejecting: &'a [usize],
    pub opts: EvalOptions,
}

/// A rejecting clause while the machines are read.
struct Group<'a> {
    from: &'a str,
    expr: &'a Expr,
    text: String,
    first: usize,
    machines: Vec<usize>,
    only: u64,
}

/// A clause on machines that see the same of it (one fingerprint): one
/// evaluation against the job stands for all of them.
struct Kind<'a> {
    clause: MachineClause<'a>,
    machine: usize,
    holds: bool,
    /// A boolean, `undefined` or `error` (else the requirements are
    /// evaluated whole on its machines).
    exact: bool,
}

/// The clauses of every machine the job accepts, by kind.
struct Kinds<'a> {
    kinds: Vec<Kind<'a>>,
    /// Per machine the job accepts, its clauses' kinds.
    of: Vec<Option<Vec<u32>>>,
}

impl<'a> Kinds<'a> {
    fn new(input: &Input<'a>, ev: &mut Evaluator) -> Kinds<'a> {
        let (job, machines) = (input.job, input.machines);
        let mut kinds: Vec<Kind> = vec![];
        let mut index: HashMap<u64, u32> = HashMap::new();
        let mut of = vec![None; machines.len()];
        let mut splitter = mc::Splitter::default();
        let mut fingerprints = mc::Fingerprints::default();
        for (i, m) in machines.iter().enumerate() {
            if !input.accepted.contains(input.groups.of[i] as usize) {
                continue;
            }
            let ids: Vec<u32> = splitter
                .clauses(m)
                .into_iter()
                .map(|clause| {
                    // Kinds are per attribute too: a clause of START and
                    // the same text in Requirements are reported apart.
                    let fp = fingerprints.of(clause.expr, m).map(|f| {
                        use std::hash::{Hash, Hasher};
                        let mut h = rustc_hash::FxHasher::default();
                        f.hash(&mut h);
                        clause.from.to_ascii_lowercase().hash(&mut h);
                        h.finish()
                    });
                    if let Some(&k) = fp.and_then(|f| index.get(&f)) {
                        return k;
                    }
                    let (holds, exact) = mc::clause_holds(clause.expr, m, job, ev);
                    let k = kinds.len() as u32;
                    kinds.push(Kind {
                        clause,
                        machine: i,
                        holds,
                        exact,
                    });
                    if let Some(f) = fp {
                        index.insert(f, k);
                    }
                    k
                })
                .collect();
            of[i] = Some(ids);
        }
        Kinds { kinds, of }
    }

    /// The kinds of machine `i`'s clauses (one the job accepts).
    fn of(&self, i: usize) -> &[u32] {
        self.of[i].as_deref().unwrap_or_default()
    }

    fn holds(&self, i: usize) -> bool {
        self.of(i).iter().all(|&k| self.kinds[k as usize].holds)
    }

    fn exact(&self, i: usize) -> bool {
        self.of(i).iter().all(|&k| self.kinds[k as usize].exact)
    }
}

pub fn analyze(input: &Input, notes: &mut Vec<String>) -> Rejections {
    if input.rejecting.is_empty() {
        return Rejections::default();
    }
    let (job, machines, opts) = (input.job, input.machines, input.opts);
    let mut ev = Evaluator::new(opts);
    let kinds = Kinds::new(input, &mut ev);
    // Rejecting clauses by text (kinds of one text are one rule).
    let mut groups: Vec<Group> = vec![];
    let mut group_of_kind: HashMap<u32, usize> = HashMap::new();
    let mut by_text: HashMap<(String, String), usize> = HashMap::new();
    for &i in input.rejecting {
        let failing: Vec<u32> = kinds
            .of(i)
            .iter()
            .copied()
            .filter(|&k| !kinds.kinds[k as usize].holds)
            .collect();
        for &k in &failing {
            let id = *group_of_kind.entry(k).or_insert_with(|| {
                let c = kinds.kinds[k as usize].clause;
                let key = (c.from.to_ascii_lowercase(), unparse_readable(c.expr));
                *by_text.entry(key.clone()).or_insert_with(|| {
                    groups.push(Group {
                        from: c.from,
                        expr: c.expr,
                        text: key.1.clone(),
                        first: i,
                        machines: vec![],
                        only: 0,
                    });
                    groups.len() - 1
                })
            });
            if groups[id].machines.last() != Some(&i) {
                groups[id].machines.push(i);
                groups[id].only += (failing.len() == 1) as u64;
            }
        }
    }
    groups.sort_by(|a, b| {
        b.machines
            .len()
            .cmp(&a.machines.len())
            .then(a.text.cmp(&b.text))
    });

    // What each clause reads of the job, the slot and the clock.
    let reads: Vec<Option<BTreeSet<String>>> = groups
        .iter()
        .map(|g| mc::job_reads(g.expr, &machines[g.first], opts.mode))
        .collect();
    let mut lacking: Vec<String> = vec![];
    let mut attributes: Vec<String> = vec![];
    for (g, r) in groups.iter().zip(&reads) {
        for k in r.iter().flatten() {
            let name = spelling(job, g.expr, k);
            if job.position(k).is_none() && !lacking.iter().any(|l| l.eq_ignore_ascii_case(k)) {
                lacking.push(name.clone());
            }
            if !attributes.iter().any(|a| a.eq_ignore_ascii_case(k)) {
                attributes.push(name);
            }
        }
    }
    lacking.sort_by_key(|l| l.to_ascii_lowercase());
    if attributes.len() > MAX_ATTRIBUTES {
        notes.push(format!(
            "the machines' rejecting clauses read {} job attributes; the values of the first {MAX_ATTRIBUTES} are searched",
            attributes.len()
        ));
        attributes.truncate(MAX_ATTRIBUTES);
    }
    let pool = Pool::new(input, &attributes, &kinds, &mut ev);
    let mut clauses: Vec<Rejection> = vec![];
    let mut tried: BTreeMap<String, Vec<ValueOption>> = BTreeMap::new();
    let mut cut = vec![];
    for (a, name) in attributes.iter().enumerate() {
        let readers: Vec<usize> = (0..groups.len())
            .filter(|&g| {
                reads[g]
                    .as_ref()
                    .is_some_and(|r| r.contains(&name.to_ascii_lowercase()))
            })
            .collect();
        let cands = candidates(job, name, &readers, &groups, machines, &mut ev);
        if cands.total > MAX_TRIED {
            cut.push(format!("{name} ({} of {})", MAX_TRIED, cands.total));
        }
        let mut options = vec![];
        for c in cands.list.iter().take(MAX_TRIED) {
            let counted = pool.count(&[(a, name, c.value.clone())], &mut ev);
            if counted.gained == 0 {
                continue;
            }
            options.push((
                c.cost,
                ValueOption {
                    attribute: name.clone(),
                    value: literal_text(&c.value),
                    change: c.change.to_string(),
                    both_ways: counted.both_ways,
                    willing: counted.willing,
                    gained: counted.gained,
                    least: false,
                    most: false,
                },
            ));
        }
        mark_least_and_most(&mut options, pool.now_willing);
        options.sort_by(|(ca, a), (cb, b)| b.willing.cmp(&a.willing).then(ca.total_cmp(cb)));
        tried.insert(
            name.to_ascii_lowercase(),
            options.into_iter().map(|(_, o)| o).collect(),
        );
    }
    if !cut.is_empty() {
        notes.push(format!(
            "the slots hold more values than are tried for {}: the nearest to the job's and the extremes were tried",
            cut.join(", ")
        ));
    }

    for (gi, g) in groups.iter().enumerate().take(SHOWN) {
        let r = &reads[gi];
        let m = &machines[g.first];
        let names: Vec<String> = r
            .iter()
            .flatten()
            .map(|k| spelling(job, g.expr, k))
            .collect();
        let slot_reads = mc::slot_reads(g.expr, m);
        let mut options: Vec<ValueOption> = names
            .iter()
            .flat_map(|n| {
                tried
                    .get(&n.to_ascii_lowercase())
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        options.sort_by_key(|o| std::cmp::Reverse(o.willing));
        // The least and the most of each attribute are always listed.
        let mut listed: Vec<ValueOption> = options
            .iter()
            .filter(|o| o.least || o.most)
            .cloned()
            .collect();
        for o in options {
            if listed.len() >= OPTIONS_LISTED {
                break;
            }
            if !listed.contains(&o) {
                listed.push(o);
            }
        }
        listed.sort_by(|a, b| b.willing.cmp(&a.willing).then(b.least.cmp(&a.least)));
        let job_values = names
            .iter()
            .map(|n| {
                super::nobody::job_value(job, &n.to_ascii_lowercase(), &mut ev)
                    .map_or_else(|| "undefined".to_string(), |v| literal_text(&v))
            })
            .collect();
        clauses.push(Rejection {
            job_values,
            attribute: g.from.to_string(),
            clause: g.text.clone(),
            slots: g.machines.len() as u64,
            only: g.only,
            reads: names,
            reads_anything: r.is_none(),
            offered: offered(&slot_reads, &g.machines, machines, job, &mut ev),
            slot_reads,
            clock: mc::reads_clock(g.expr),
            options: listed,
        });
    }
    if groups.len() > SHOWN {
        notes.push(format!(
            "the slots reject the job by {} different clauses; the {SHOWN} that reject the most slots are listed",
            groups.len()
        ));
    }
    let changes = changes(input, &tried, &attributes, &mut ev);
    let movable = movable(input, &kinds, &pool.kind_reads);
    Rejections {
        clauses,
        changes,
        lacking,
        movable,
        whole_atoms: whole_atoms(input, &kinds),
    }
}

/// An upper bound on the predicates the rejecting machines' whole
/// requirements give in normal form: per distinct set of clause kinds, the
/// product of the clauses' disjunct counts times the clauses.
fn whole_atoms(input: &Input, kinds: &Kinds) -> u64 {
    let mut width: Vec<Option<u64>> = vec![None; kinds.kinds.len()];
    let mut seen: std::collections::HashSet<&[u32]> = Default::default();
    let mut total = 0u64;
    for &i in input.rejecting {
        let ids = kinds.of(i);
        if !seen.insert(ids) {
            continue;
        }
        let mut clauses = 1u64;
        for &k in ids {
            let w = *width[k as usize]
                .get_or_insert_with(|| disjuncts(kinds.kinds[k as usize].clause.expr, false, 0));
            clauses = clauses.saturating_mul(w);
        }
        total = total.saturating_add(clauses.saturating_mul(ids.len() as u64));
    }
    total
}

/// How many clauses an expression gives in disjunctive normal form, at
/// most (`negated`: of its negation).
fn disjuncts(e: &Expr, negated: bool, depth: u32) -> u64 {
    use crate::lang::ast::{BinaryOp, UnaryOp};
    if depth > 200 {
        return u64::MAX;
    }
    match &e.kind {
        ExprKind::Paren(a) => disjuncts(a, negated, depth + 1),
        ExprKind::Unary(UnaryOp::Not, a) => disjuncts(a, !negated, depth + 1),
        ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
            let (x, y) = (
                disjuncts(a, negated, depth + 1),
                disjuncts(b, negated, depth + 1),
            );
            if (*op == BinaryOp::Or) != negated {
                x.saturating_add(y)
            } else {
                x.saturating_mul(y)
            }
        }
        _ => 1,
    }
}

/// The least change (cheapest that gains a willing slot, else any slot)
/// and the most (most willing, then the cheapest).
fn mark_least_and_most(options: &mut [(f64, ValueOption)], now_willing: u64) {
    let pick_least = |gain: &dyn Fn(&ValueOption) -> bool, options: &[(f64, ValueOption)]| {
        options
            .iter()
            .enumerate()
            .filter(|(_, (_, o))| gain(o))
            .min_by(|(_, (ca, a)), (_, (cb, b))| ca.total_cmp(cb).then(b.willing.cmp(&a.willing)))
            .map(|(k, _)| k)
    };
    let least = pick_least(&|o| o.willing > now_willing, options)
        .or_else(|| pick_least(&|o| o.gained > 0, options));
    if let Some(k) = least {
        options[k].1.least = true;
    }
    let most = options
        .iter()
        .enumerate()
        .max_by(|(_, (ca, a)), (_, (cb, b))| {
            (a.willing, a.both_ways)
                .cmp(&(b.willing, b.both_ways))
                .then(cb.total_cmp(ca))
        })
        .map(|(k, _)| k);
    if let Some(k) = most {
        options[k].1.most = true;
    }
}

/// The clauses of each rejecting machine a change of the job could move,
/// one expression per distinct set of clause kinds.
fn movable(input: &Input, kinds: &Kinds, reads: &[Option<BTreeSet<String>>]) -> Movable {
    // Each kind's job reads as attribute ids (`None`: anything).
    let mut ids_of: HashMap<&str, usize> = HashMap::new();
    let reads: Vec<Option<Vec<usize>>> = reads
        .iter()
        .map(|r| {
            r.as_ref().map(|r| {
                r.iter()
                    .map(|k| {
                        let next = ids_of.len();
                        *ids_of.entry(k.as_str()).or_insert(next)
                    })
                    .collect()
            })
        })
        .collect();
    let mut out = Movable::default();
    let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut attrs = vec![false; ids_of.len()];
    for (pos, i) in input.rejecting.iter().enumerate() {
        let ids = kinds.of(*i);
        let reads_job = |k: u32| reads[k as usize].as_ref().is_none_or(|r| !r.is_empty());
        let holds = |k: u32| kinds.kinds[k as usize].holds;
        // A failing clause that reads nothing of the job keeps the machine
        // rejecting whatever the job says.
        if ids.iter().any(|&k| !holds(k) && !reads_job(k)) {
            out.of.push(None);
            continue;
        }
        // The failing clauses, then every clause sharing a job attribute
        // with those kept, until none is added.
        let mut keep: Vec<bool> = ids.iter().map(|&k| !holds(k)).collect();
        attrs.iter_mut().for_each(|a| *a = false);
        let mut anything = false;
        loop {
            for (j, &k) in ids.iter().enumerate() {
                if keep[j] {
                    match &reads[k as usize] {
                        Some(r) => r.iter().for_each(|&a| attrs[a] = true),
                        None => anything = true,
                    }
                }
            }
            let mut grew = false;
            for (j, &k) in ids.iter().enumerate() {
                if keep[j] || !reads_job(k) {
                    continue;
                }
                let shares = anything
                    || reads[k as usize]
                        .as_ref()
                        .is_none_or(|r| r.iter().any(|&a| attrs[a]));
                if shares {
                    keep[j] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let set: Vec<u32> = ids
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(&k, _)| k)
            .collect();
        let id = *index.entry(set.clone()).or_insert_with(|| {
            let exprs: Vec<Expr> = set
                .iter()
                .map(|&k| kinds.kinds[k as usize].clause.expr.clone())
                .collect();
            out.exprs.push((pos, conjunction(&exprs)));
            out.exprs.len() - 1
        });
        out.of.push(Some(id));
    }
    out
}

/// How the job spells an attribute (else the clause does).
fn spelling(job: &ClassAd, clause: &Expr, key: &str) -> String {
    if let Some(i) = job.position(key) {
        return job.at(i).0.to_string();
    }
    super::nobody::spelled(clause, key).unwrap_or_else(|| key.to_string())
}

/// What the rejecting slots hold of the attributes a clause reads.
fn offered(
    slot_reads: &[String],
    which: &[usize],
    machines: &[Arc<ClassAd>],
    job: &Arc<ClassAd>,
    ev: &mut Evaluator,
) -> Vec<Offered> {
    let mut out = vec![];
    for attr in slot_reads.iter().take(4) {
        let mut counts: HashMap<String, u64> = HashMap::new();
        for &i in which {
            ev.set_ads(Some(machines[i].clone()), Some(job.clone()));
            let v = ev.eval_attr(attr);
            *counts.entry(literal_text(&v)).or_default() += 1;
        }
        let mut counts: Vec<(String, u64)> = counts.into_iter().collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out.extend(
            counts
                .into_iter()
                .take(OFFERED_LISTED)
                .map(|(value, slots)| Offered {
                    attribute: attr.clone(),
                    value,
                    slots,
                }),
        );
    }
    out
}

struct Candidate {
    value: Value,
    change: &'static str,
    /// How much it changes what the job asked (least first).
    cost: f64,
}

struct Candidates {
    list: Vec<Candidate>,
    total: usize,
}

/// Values of `name` to try: the most-changing ones first (removing it,
/// widening a list by every value, a number's extremes), then the rest
/// nearest the job's own value first.
fn candidates(
    job: &Arc<ClassAd>,
    name: &str,
    readers: &[usize],
    groups: &[Group],
    machines: &[Arc<ClassAd>],
    ev: &mut Evaluator,
) -> Candidates {
    let current = super::nobody::job_value(job, &name.to_ascii_lowercase(), ev);
    // The slots' own values (a list is widened only by those), then the
    // clauses' literals.
    let mut values: Vec<Value> = vec![];
    let mut from_slots = 0;
    let mut seen: std::collections::HashSet<String> = Default::default();
    let mut lists = false;
    let mut push = |values: &mut Vec<Value>, v: Value| {
        let ok = matches!(
            v,
            Value::Int(_) | Value::Real(_) | Value::Str(_) | Value::Bool(_)
        );
        if ok && values.len() < 10_000 && seen.insert(literal_text(&v)) {
            values.push(v);
        }
    };
    for &g in readers {
        let g = &groups[g];
        lists |= calls_string_list(g.expr);
        let slot_reads = mc::slot_reads(g.expr, &machines[g.first]);
        for &i in &g.machines {
            ev.set_ads(Some(machines[i].clone()), Some(job.clone()));
            for attr in &slot_reads {
                let v = ev.eval_attr(attr);
                push(&mut values, v);
            }
        }
    }
    from_slots += values.len();
    for &g in readers {
        literals(groups[g].expr, &mut |v| push(&mut values, v));
    }
    let mut list: Vec<Candidate> = vec![];
    let cur_num = current.as_ref().and_then(Value::as_number);
    let range = {
        let nums: Vec<f64> = values.iter().filter_map(Value::as_number).collect();
        let lo = nums.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = nums.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        if hi > lo {
            hi - lo
        } else {
            1.0
        }
    };
    let cur_list: Option<Vec<String>> = match &current {
        Some(Value::Str(s)) if lists => Some(
            s.split([',', ' '])
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        _ => None,
    };
    // The most-changing first, so they are always tried.
    if current.is_some() {
        list.push(Candidate {
            value: Value::Undefined,
            change: "remove",
            cost: 4.0,
        });
    }
    if let Some(cur) = &cur_list {
        let mut all = cur.clone();
        for v in &values[..from_slots] {
            if let Value::Str(s) = v {
                if !all.iter().any(|x| x.eq_ignore_ascii_case(s)) {
                    all.push(s.to_string());
                }
            }
        }
        if all.len() > cur.len() + 1 {
            list.push(Candidate {
                value: Value::str(all.join(",")),
                change: "add all",
                cost: 3.0,
            });
        }
    }
    let mut numbers: Vec<f64> = values.iter().filter_map(Value::as_number).collect();
    numbers.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (numbers.first(), numbers.last()) {
        for x in [lo, hi] {
            if let Some(v) = values.iter().find(|v| v.as_number() == Some(*x)) {
                if !list.iter().any(|c| same(&c.value, v)) {
                    list.push(Candidate {
                        value: v.clone(),
                        change: "set",
                        cost: cur_num.map_or(2.0, |c| (x - c).abs() / range),
                    });
                }
            }
        }
    }
    let mut rest: Vec<Candidate> = vec![];
    for (k, v) in values.iter().enumerate() {
        if current.as_ref().is_some_and(|c| same(c, v)) {
            continue;
        }
        if let (Some(cur), Value::Str(s), true) = (&cur_list, v, k < from_slots) {
            if !cur.iter().any(|x| x.eq_ignore_ascii_case(s)) {
                let mut with = cur.clone();
                with.push(s.to_string());
                rest.push(Candidate {
                    value: Value::str(with.join(",")),
                    change: "add",
                    cost: 1.0,
                });
            }
        }
        // Replacing a list by one of its candidates is never less than
        // adding it.
        if cur_list.is_some() && matches!(v, Value::Str(_)) {
            continue;
        }
        let cost = match (cur_num, v.as_number()) {
            (Some(c), Some(x)) => (x - c).abs() / range,
            _ => 2.0,
        };
        rest.push(Candidate {
            value: v.clone(),
            change: "set",
            cost,
        });
    }
    rest.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    for c in rest {
        if !list.iter().any(|x| same(&x.value, &c.value)) {
            list.push(c);
        }
    }
    let total = list.len();
    Candidates { list, total }
}

/// Same value, as a change would set it (`1` and `1.0` differ).
fn same(a: &Value, b: &Value) -> bool {
    literal_text(a) == literal_text(b)
}

fn calls_string_list(e: &Expr) -> bool {
    let mut stack = vec![e];
    let mut steps = 0;
    while let Some(x) = stack.pop() {
        steps += 1;
        if steps > 10_000 {
            return false;
        }
        match &x.kind {
            ExprKind::Call(c) if c.name.to_ascii_lowercase().starts_with("stringlist") => {
                return true
            }
            _ => stack.extend(x.children()),
        }
    }
    false
}

fn literals(e: &Expr, f: &mut dyn FnMut(Value)) {
    let mut stack = vec![e];
    let mut steps = 0;
    while let Some(x) = stack.pop() {
        steps += 1;
        if steps > 10_000 {
            return;
        }
        match &x.kind {
            ExprKind::Literal(v) => f(v.clone()),
            _ => stack.extend(x.children()),
        }
    }
}

/// The pool as the value search counts it.
struct Pool<'a> {
    input: &'a Input<'a>,
    kinds: &'a Kinds<'a>,
    /// Per kind: what its clause reads of the job, and the searched
    /// attributes that moves (a bit each; through the job's definitions).
    kind_reads: Vec<Option<BTreeSet<String>>>,
    kind_deps: Vec<u64>,
    /// The job's requirements depend on these attributes.
    job_deps: u64,
    busy: Vec<bool>,
    /// Matching both ways before any change.
    before: FixedBitSet,
    now_willing: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Count {
    both_ways: u64,
    willing: u64,
    gained: u64,
}

impl<'a> Pool<'a> {
    fn new(
        input: &'a Input<'a>,
        attributes: &[String],
        kinds: &'a Kinds<'a>,
        ev: &mut Evaluator,
    ) -> Pool<'a> {
        let (job, machines) = (input.job, input.machines);
        let closure = JobClosure::new(job, attributes);
        let kind_reads: Vec<Option<BTreeSet<String>>> = kinds
            .kinds
            .iter()
            .map(|k| mc::job_reads(k.clause.expr, &machines[k.machine], input.opts.mode))
            .collect();
        let kind_deps = kind_reads
            .iter()
            .map(|r| closure.mask(r.as_ref()))
            .collect();
        let mut before = FixedBitSet::with_capacity(machines.len());
        let mut busy = vec![false; machines.len()];
        let mut now_willing = 0;
        for i in (0..machines.len()).filter(|&i| kinds.of[i].is_some()) {
            let m = &machines[i];
            busy[i] = super::summary::busy(m, job, ev);
            let accepted = if kinds.exact(i) {
                kinds.holds(i)
            } else {
                accepts(ev, m, job, DEFAULT_REQUIREMENTS)
            };
            if accepted {
                before.insert(i);
                now_willing += !busy[i] as u64;
            }
        }
        let job_deps = match super::requirements_of(job) {
            Some((_, req)) => closure.own_mask(req),
            None => 0,
        };
        Pool {
            input,
            kinds,
            kind_reads,
            kind_deps,
            job_deps,
            busy,
            before,
            now_willing,
        }
    }

    /// The pool both ways with the job's attributes changed.
    fn count(&self, changes: &[(usize, &str, Value)], ev: &mut Evaluator) -> Count {
        let (job, machines) = (self.input.job, self.input.machines);
        let mut changed = (**job).clone();
        let mut mask = 0u64;
        for (a, name, v) in changes {
            changed.insert(name, Expr::literal(v.clone()));
            mask |= 1 << *a;
        }
        let changed = Arc::new(changed);
        // The clause kinds that read a change, evaluated again (one
        // evaluation per kind, not per machine): (holds, exact).
        let mut moved: Vec<Option<(bool, bool)>> = vec![None; self.kinds.kinds.len()];
        for (k, kind) in self.kinds.kinds.iter().enumerate() {
            if self.kind_deps[k] & mask != 0 {
                let m = &machines[kind.machine];
                moved[k] = Some(mc::clause_holds(kind.clause.expr, m, &changed, ev));
            }
        }
        // The job's side: its requirements again only if they read a change.
        let accepted_again;
        let accepted = if self.job_deps & mask != 0 {
            accepted_again = match super::requirements_of(&changed) {
                Some((_, req)) => {
                    let req = req.clone();
                    super::table::truth_of(&req, &changed, machines, self.input.groups, ev)
                }
                None => FixedBitSet::with_capacity(self.input.groups.len()),
            };
            &accepted_again
        } else {
            self.input.accepted
        };
        let mut c = Count::default();
        for (i, m) in machines.iter().enumerate() {
            if !accepted.contains(self.input.groups.of[i] as usize) {
                continue;
            }
            let ok = match &self.kinds.of[i] {
                Some(ids) => {
                    let mut exact = true;
                    let mut all = true;
                    for &k in ids {
                        let (holds, ex) = match moved[k as usize] {
                            Some(v) => v,
                            None => {
                                let kind = &self.kinds.kinds[k as usize];
                                (kind.holds, kind.exact)
                            }
                        };
                        exact &= ex;
                        all &= holds;
                    }
                    if exact {
                        all
                    } else {
                        accepts(ev, m, &changed, DEFAULT_REQUIREMENTS)
                    }
                }
                // Accepted by the changed job only: evaluated whole.
                None => accepts(ev, m, &changed, DEFAULT_REQUIREMENTS),
            };
            if ok {
                c.both_ways += 1;
                c.willing += !self.busy_of(i, m, &changed, ev) as u64;
                c.gained += !self.before.contains(i) as u64;
            }
        }
        c
    }

    /// Busy with the changed job: as before when the machine's `State`
    /// and `RemoteUser` are literals (an expression such as
    /// `RemoteUser = TARGET.Owner` is evaluated again).
    fn busy_of(&self, i: usize, m: &Arc<ClassAd>, job: &Arc<ClassAd>, ev: &mut Evaluator) -> bool {
        let literal = |name: &str| m.position(name).is_none_or(|p| m.is_literal(p));
        if self.kinds.of[i].is_some() && literal("State") && literal("RemoteUser") {
            self.busy[i]
        } else {
            super::summary::busy(m, job, ev)
        }
    }
}

/// Which searched attributes each job attribute reaches through the job's
/// own definitions (`RequestDisk = DiskUsage`: changing DiskUsage moves a
/// clause that reads RequestDisk).
struct JobClosure {
    /// Lowercase job attribute → mask of searched attributes it depends on.
    reaches: HashMap<String, u64>,
    all: u64,
    job: Arc<ClassAd>,
}

impl JobClosure {
    fn new(job: &Arc<ClassAd>, attributes: &[String]) -> JobClosure {
        let mut reaches: HashMap<String, u64> = HashMap::new();
        for (a, name) in attributes.iter().enumerate() {
            *reaches.entry(name.to_ascii_lowercase()).or_default() |= 1 << a;
        }
        // A job attribute depends on a searched one when its definition
        // refers to it (internal references follow definitions).
        for (name, def) in job.iter() {
            if def.as_literal().is_some() {
                continue;
            }
            let refs = crate::lang::refs::expr_refs(def, job).internal;
            let mut mask = 0;
            for r in refs {
                if let Some(p) = attributes.iter().position(|a| a.eq_ignore_ascii_case(&r)) {
                    mask |= 1 << p;
                }
            }
            if mask != 0 {
                *reaches.entry(name.to_ascii_lowercase()).or_default() |= mask;
            }
        }
        JobClosure {
            reaches,
            all: if attributes.len() >= 64 {
                u64::MAX
            } else {
                (1u64 << attributes.len()) - 1
            },
            job: job.clone(),
        }
    }

    /// The searched attributes a clause reading `reads` depends on.
    fn mask(&self, reads: Option<&BTreeSet<String>>) -> u64 {
        match reads {
            None => self.all,
            Some(r) => r
                .iter()
                .fold(0, |m, k| m | self.reaches.get(k).copied().unwrap_or(0)),
        }
    }

    /// The searched attributes an expression of the job's own depends on.
    fn own_mask(&self, e: &Expr) -> u64 {
        let refs = crate::lang::refs::expr_refs(e, &self.job);
        let mut mask = 0;
        for r in refs.internal.iter().chain(refs.external.iter()) {
            let key = r.strip_prefix("MY.").unwrap_or(r).to_ascii_lowercase();
            mask |= self.reaches.get(&key).copied().unwrap_or(0);
        }
        mask
    }
}

/// Each attribute's least and most change, and every attribute's most
/// together, counted by evaluating every machine's requirements.
fn changes(
    input: &Input,
    tried: &BTreeMap<String, Vec<ValueOption>>,
    attributes: &[String],
    ev: &mut Evaluator,
) -> Vec<JobChange> {
    let mut wanted: Vec<(BTreeMap<String, String>, String, f64)> = vec![];
    let mut most_of_each: BTreeMap<String, String> = BTreeMap::new();
    for name in attributes {
        let Some(options) = tried.get(&name.to_ascii_lowercase()) else {
            continue;
        };
        for o in options.iter().filter(|o| o.least || o.most) {
            let what = match (o.least, o.most) {
                (true, true) => {
                    "the least change that gains slots, and the one that gains the most"
                }
                (true, false) => "the least change that gains slots",
                _ => "the change that gains the most slots",
            };
            wanted.push((
                BTreeMap::from([(o.attribute.clone(), o.value.clone())]),
                format!("{what} ({})", o.change),
                if o.least { 0.0 } else { 1.0 },
            ));
            if o.most {
                most_of_each.insert(o.attribute.clone(), o.value.clone());
            }
        }
    }
    if most_of_each.len() > 1 {
        wanted.push((
            most_of_each,
            "every attribute's change that gains the most, together".into(),
            2.0,
        ));
    }
    let mut out: Vec<JobChange> = vec![];
    for (changes, range, distance) in wanted {
        if out.iter().any(|c| c.changes == changes) {
            continue;
        }
        let Some(checked) = super::nobody::checked_change(
            input.job,
            input.machines,
            input.compiled,
            input.opts,
            &changes,
            ev,
        ) else {
            continue;
        };
        if checked.gained.is_empty() {
            continue;
        }
        out.push(JobChange {
            advice: changes
                .iter()
                .map(|(k, v)| (k.clone(), format!("use {k} = {v}")))
                .collect(),
            changes,
            range,
            matches: checked.matches,
            machines: checked
                .gained
                .iter()
                .take(NAMES)
                .map(|&i| crate::matchmaking::negotiate::machine_name(&input.machines[i], i))
                .collect(),
            gained: checked.gained.len() as u64,
            mutual: checked.mutual,
            distance,
        });
    }
    out
}
