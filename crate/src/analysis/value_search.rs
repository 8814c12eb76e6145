//! The exact value search: values of job attributes, each counted over the
//! pool both ways by evaluation — cheaply, because a machine's requirements
//! are its clauses (`machine_clauses`) and a clause is evaluated once per
//! kind (machines whose clause sees the same values share one evaluation;
//! a glidein pool's START on 10,000 slots is a few dozen kinds per clause),
//! and a changed attribute moves only the clause kinds that read it
//! (through the job's own definitions too).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

use super::groups::Groups;
use super::machine_clauses::{self as mc, MachineClause};
use crate::constraint::predicate::literal_text;
use crate::lang::ast::{ClassAd, Expr, ExprKind, Value};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::matchmaking::matching::{accepts, DEFAULT_REQUIREMENTS};

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

/// Values tried per job attribute (the extremes and the nearest first).
pub const MAX_TRIED: usize = 64;

/// The job and the pool a search counts over.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    pub job: &'a Arc<ClassAd>,
    pub machines: &'a [Arc<ClassAd>],
    /// The job's requirements' groups, and which of them it accepts.
    pub groups: &'a Groups,
    pub accepted: &'a FixedBitSet,
    pub opts: EvalOptions,
}

/// A clause on machines that see the same of it (one fingerprint): one
/// evaluation against the job stands for all of them.
pub(super) struct Kind<'a> {
    pub clause: MachineClause<'a>,
    pub machine: usize,
    pub holds: bool,
    /// A boolean, `undefined` or `error` (else the requirements are
    /// evaluated whole on its machines).
    pub exact: bool,
}

/// The clauses of every machine the job accepts, by kind.
pub(super) struct Kinds<'a> {
    pub kinds: Vec<Kind<'a>>,
    /// Per machine the job accepts, its clauses' kinds.
    pub of: Vec<Option<Vec<u32>>>,
}

impl<'a> Kinds<'a> {
    /// The clauses of the machines `which` selects.
    pub fn new(scope: &Scope<'a>, which: &dyn Fn(usize) -> bool, ev: &mut Evaluator) -> Kinds<'a> {
        let (job, machines) = (scope.job, scope.machines);
        let mut kinds: Vec<Kind> = vec![];
        let mut index: HashMap<u64, u32> = HashMap::new();
        let mut of = vec![None; machines.len()];
        let mut splitter = mc::Splitter::default();
        let mut fingerprints = mc::Fingerprints::default();
        for (i, m) in machines.iter().enumerate() {
            if !which(i) {
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
    pub fn of(&self, i: usize) -> &[u32] {
        self.of[i].as_deref().unwrap_or_default()
    }

    pub fn holds(&self, i: usize) -> bool {
        self.of(i).iter().all(|&k| self.kinds[k as usize].holds)
    }

    pub fn exact(&self, i: usize) -> bool {
        self.of(i).iter().all(|&k| self.kinds[k as usize].exact)
    }
}

pub(super) struct Candidate {
    pub value: Value,
    pub change: &'static str,
    /// How much it changes what the job asked (least first).
    pub cost: f64,
}

pub(super) struct Candidates {
    pub list: Vec<Candidate>,
    pub total: usize,
}

/// Values of `name` to try: the most-changing ones first (removing it,
/// widening a list by every value, a number's extremes), then the rest
/// nearest the job's own value first.
/// `slot_values`: what the slots hold of the attributes compared with
/// `name` (a list is widened only by those); `literals_of`: expressions
/// whose literals are tried too; `lists`: a string-list function reads it;
/// `removable`: removing the attribute is a change to try (not where the
/// job's own requirements compare it: they would be undefined).
pub(super) fn candidates(
    job: &Arc<ClassAd>,
    name: &str,
    slot_values: Vec<Value>,
    literals_of: &[&Expr],
    lists: bool,
    removable: bool,
    ev: &mut Evaluator,
) -> Candidates {
    let current = super::nobody::job_value(job, &name.to_ascii_lowercase(), ev);
    let mut values: Vec<Value> = vec![];
    let mut seen: std::collections::HashSet<String> = Default::default();
    let mut push = |values: &mut Vec<Value>, v: Value| {
        let ok = matches!(
            v,
            Value::Int(_) | Value::Real(_) | Value::Str(_) | Value::Bool(_)
        );
        if ok && values.len() < 10_000 && seen.insert(literal_text(&v)) {
            values.push(v);
        }
    };
    for v in slot_values {
        push(&mut values, v);
    }
    let from_slots = values.len();
    for e in literals_of {
        literals(e, &mut |v| push(&mut values, v));
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
    if current.is_some() && removable {
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
    // A fix never asks for more than the job requested.
    let request = name.to_ascii_lowercase().starts_with("request");
    let mut numbers: Vec<f64> = values.iter().filter_map(Value::as_number).collect();
    numbers.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (numbers.first(), numbers.last()) {
        for x in [lo, hi] {
            if let (true, Some(c)) = (request, cur_num) {
                if *x > c {
                    continue;
                }
            }
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
    let current_text = current.as_ref().map(literal_text);
    for (k, v) in values.iter().enumerate() {
        if current_text.as_deref() == Some(literal_text(v).as_str()) {
            continue;
        }
        if let (true, Some(c), Some(x)) = (request, cur_num, v.as_number()) {
            if x > c {
                continue;
            }
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
    let mut listed: std::collections::HashSet<String> =
        list.iter().map(|c| literal_text(&c.value)).collect();
    for c in rest {
        if listed.insert(literal_text(&c.value)) {
            list.push(c);
        }
    }
    let total = list.len();
    Candidates { list, total }
}

/// Same value, as a change would set it (`1` and `1.0` differ).
pub(super) fn same(a: &Value, b: &Value) -> bool {
    literal_text(a) == literal_text(b)
}

pub(super) fn calls_string_list(e: &Expr) -> bool {
    let mut found = false;
    mc::nodes(e, &mut |x| {
        found |= matches!(&x.kind, ExprKind::Call(c) if c.name.to_ascii_lowercase().starts_with("stringlist"));
    });
    found
}

fn literals(e: &Expr, f: &mut dyn FnMut(Value)) {
    mc::nodes(e, &mut |x| {
        if let ExprKind::Literal(v) = &x.kind {
            f(v.clone());
        }
    });
}

/// The pool as the value search counts it.
pub(super) struct Pool<'a> {
    scope: Scope<'a>,
    kinds: &'a Kinds<'a>,
    /// Per kind: what its clause reads of the job, and the searched
    /// attributes that moves (a bit each; through the job's definitions).
    pub kind_reads: Vec<Option<BTreeSet<String>>>,
    kind_deps: Vec<u64>,
    /// The job's requirements depend on these attributes.
    job_deps: u64,
    /// The job's requirements as clauses, each with the searched attributes
    /// it depends on, its truth per machine group, and whether every value
    /// was a boolean, `undefined` or `error` (else the whole is evaluated).
    job_clauses: Vec<JobClause<'a>>,
    /// Per machine with kinds, whether it is busy, when that cannot depend
    /// on the job (its `State` and `RemoteUser` are literals); `None`:
    /// evaluated with each changed job.
    busy: Vec<Option<bool>>,
    /// Matching both ways before any change.
    before: FixedBitSet,
    pub now_willing: u64,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Count {
    pub both_ways: u64,
    pub willing: u64,
    pub gained: u64,
}

impl<'a> Pool<'a> {
    /// `attributes`: the job attributes whose values will be counted (a
    /// bit each in [`Pool::count`]'s changes).
    pub fn new(
        scope: Scope<'a>,
        attributes: &[String],
        kinds: &'a Kinds<'a>,
        ev: &mut Evaluator,
    ) -> Pool<'a> {
        let (job, machines) = (scope.job, scope.machines);
        let closure = JobClosure::new(job, attributes);
        let kind_reads: Vec<Option<BTreeSet<String>>> = kinds
            .kinds
            .iter()
            .map(|k| mc::job_reads(k.clause.expr, &machines[k.machine], scope.opts.mode))
            .collect();
        let kind_deps = kind_reads
            .iter()
            .map(|r| closure.mask(r.as_ref()))
            .collect();
        let mut before = FixedBitSet::with_capacity(machines.len());
        let busy: Vec<Option<bool>> = machines
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let literal = |name: &str| m.position(name).is_none_or(|p| m.is_literal(p));
                (kinds.of[i].is_some() && literal("State") && literal("RemoteUser"))
                    .then(|| super::summary::busy(m, job, ev))
            })
            .collect();
        let mut now_willing = 0;
        // Both ways before any change: the job accepts it and it the job.
        let wanted = |i: usize| scope.accepted.contains(scope.groups.of[i] as usize);
        for i in (0..machines.len()).filter(|&i| kinds.of[i].is_some() && wanted(i)) {
            let m = &machines[i];
            let accepted = if kinds.exact(i) {
                kinds.holds(i)
            } else {
                accepts(ev, m, job, DEFAULT_REQUIREMENTS)
            };
            if accepted {
                before.insert(i);
                now_willing += !busy[i].unwrap_or_else(|| super::summary::busy(m, job, ev)) as u64;
            }
        }
        let job_deps = match super::requirements_of(job) {
            Some((_, req)) => closure.own_mask(req),
            None => 0,
        };
        let groups = scope.groups;
        let job_clauses = if job_deps == 0 {
            vec![]
        } else {
            mc::Splitter::default()
                .clauses(job)
                .into_iter()
                .map(|c| {
                    let mut truth = FixedBitSet::with_capacity(groups.len());
                    let mut exact = true;
                    for (g, &rep) in groups.rep.iter().enumerate() {
                        let (holds, ex) = mc::clause_holds(c.expr, job, &machines[rep], ev);
                        truth.set(g, holds);
                        exact &= ex;
                    }
                    JobClause {
                        expr: c.expr,
                        deps: closure.own_mask(c.expr),
                        truth,
                        exact,
                    }
                })
                .collect()
        };
        Pool {
            scope,
            kinds,
            kind_reads,
            kind_deps,
            job_deps,
            job_clauses,
            busy,
            before,
            now_willing,
        }
    }

    /// The pool both ways with the job's attributes changed.
    pub fn count(&self, changes: &[(usize, &str, Value)], ev: &mut Evaluator) -> Count {
        let (job, machines) = (self.scope.job, self.scope.machines);
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
            accepted_again = self.job_accepts(&changed, mask, ev);
            &accepted_again
        } else {
            self.scope.accepted
        };
        let mut c = Count::default();
        for (i, m) in machines.iter().enumerate() {
            if !accepted.contains(self.scope.groups.of[i] as usize) {
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

    /// The machine groups the changed job's requirements accept: a clause
    /// that reads no change keeps its truth (a group it fails is skipped
    /// unevaluated), the others are evaluated again at the group's machine.
    fn job_accepts(&self, changed: &Arc<ClassAd>, mask: u64, ev: &mut Evaluator) -> FixedBitSet {
        let (groups, machines) = (self.scope.groups, self.scope.machines);
        let whole = |ev: &mut Evaluator| match super::requirements_of(changed) {
            Some((_, req)) => {
                let req = req.clone();
                super::table::truth_of(&req, changed, machines, groups, ev)
            }
            None => FixedBitSet::with_capacity(groups.len()),
        };
        if self.job_clauses.is_empty() || self.job_clauses.iter().any(|c| !c.exact) {
            return whole(ev);
        }
        let mut out = FixedBitSet::with_capacity(groups.len());
        'group: for (g, &rep) in groups.rep.iter().enumerate() {
            if self
                .job_clauses
                .iter()
                .any(|c| c.deps & mask == 0 && !c.truth.contains(g))
            {
                continue;
            }
            for c in self.job_clauses.iter().filter(|c| c.deps & mask != 0) {
                let (holds, exact) = mc::clause_holds(c.expr, changed, &machines[rep], ev);
                if !exact {
                    // A number where a boolean was: the requirements whole.
                    return whole(ev);
                }
                if !holds {
                    continue 'group;
                }
            }
            out.insert(g);
        }
        out
    }

    /// The first [`MAX_TRIED`] candidates of attribute `a` (`name`) that
    /// gain slots, each counted, the least and most marked, most willing
    /// first.
    pub fn options(
        &self,
        a: usize,
        name: &str,
        cands: &Candidates,
        ev: &mut Evaluator,
    ) -> Vec<ValueOption> {
        let mut options = vec![];
        for c in cands.list.iter().take(MAX_TRIED) {
            let n = self.count(&[(a, name, c.value.clone())], ev);
            if n.gained == 0 {
                continue;
            }
            options.push((
                c.cost,
                ValueOption {
                    attribute: name.to_string(),
                    value: literal_text(&c.value),
                    change: c.change.to_string(),
                    both_ways: n.both_ways,
                    willing: n.willing,
                    gained: n.gained,
                    least: false,
                    most: false,
                },
            ));
        }
        mark_least_and_most(&mut options, self.now_willing);
        options.sort_by(|(ca, a), (cb, b)| b.willing.cmp(&a.willing).then(ca.total_cmp(cb)));
        options.into_iter().map(|(_, o)| o).collect()
    }

    /// Busy with the changed job: known once when it cannot depend on the
    /// job, else evaluated (`RemoteUser = TARGET.Owner`).
    fn busy_of(&self, i: usize, m: &Arc<ClassAd>, job: &Arc<ClassAd>, ev: &mut Evaluator) -> bool {
        self.busy[i].unwrap_or_else(|| super::summary::busy(m, job, ev))
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

/// The note for attributes whose slots hold more values than are tried.
pub(super) fn tried_note(cut: &[String]) -> Option<String> {
    (!cut.is_empty()).then(|| {
        format!(
            "the slots hold more values than are tried for {}: the nearest to the job's and the extremes were tried",
            cut.join(", ")
        )
    })
}

/// One clause of the job's requirements, as [`Pool`] keeps it.
struct JobClause<'a> {
    expr: &'a Expr,
    deps: u64,
    truth: FixedBitSet,
    exact: bool,
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
