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
use super::machine_clauses as mc;
use super::nobody::JobChange;
pub use super::value_search::ValueOption;
use super::value_search::{candidates, tried_note, Kinds, Pool, Scope, MAX_TRIED};
use crate::constraint::predicate::{conjunction, literal_text};
use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::unparse::unparse_typed;

/// Rejecting clauses reported (the most slots first).
pub const SHOWN: usize = 10;
/// Job attributes whose values are searched.
pub const MAX_ATTRIBUTES: usize = 16;
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

impl Rejection {
    /// It reads nothing of the job: the machines' own reason.
    pub fn machine_side(&self) -> bool {
        self.reads.is_empty() && !self.reads_anything
    }

    /// What a machine-side clause means, in one sentence (the report and
    /// the page).
    pub fn machine_side_words(&self) -> String {
        let what: Vec<String> = self
            .slot_reads
            .iter()
            .cloned()
            .chain(self.clock.then(|| "the clock (time())".to_string()))
            .collect();
        let reads = if what.is_empty() {
            "it is the machines' own rule".to_string()
        } else {
            format!("only {}", what.join(" and "))
        };
        let slots = if self.slots == 1 {
            "this slot"
        } else {
            "these slots"
        };
        format!("reads nothing of your job ({reads}): no change to the job opens {slots}")
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Offered {
    pub attribute: String,
    /// ClassAd literal text.
    pub value: String,
    pub slots: u64,
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

pub fn analyze(input: &Input, notes: &mut Vec<String>) -> Rejections {
    if input.rejecting.is_empty() {
        return Rejections::default();
    }
    let (job, machines, opts) = (input.job, input.machines, input.opts);
    let mut ev = Evaluator::new(opts);
    let scope = Scope {
        job,
        machines,
        groups: input.groups,
        accepted: input.accepted,
        opts,
    };
    let wanted = |i: usize| input.accepted.contains(input.groups.of[i] as usize);
    let kinds = Kinds::new(&scope, &wanted, &mut ev);
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
                let key = (c.from.to_ascii_lowercase(), unparse_typed(c.expr));
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
    let pool = Pool::new(scope, &attributes, &kinds, &mut ev);
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
        let cands = {
            let mut slot_values = vec![];
            let mut lists = false;
            for &g in &readers {
                let g = &groups[g];
                lists |= super::value_search::calls_string_list(g.expr);
                let slot_reads = mc::slot_reads(g.expr, &machines[g.first]);
                for &i in &g.machines {
                    ev.set_ads(Some(machines[i].clone()), Some(job.clone()));
                    slot_values.extend(slot_reads.iter().map(|a| ev.eval_attr(a)));
                }
            }
            let exprs: Vec<&Expr> = readers.iter().map(|&g| groups[g].expr).collect();
            candidates(job, name, slot_values, &exprs, lists, true, &mut ev)
        };
        if cands.total > MAX_TRIED {
            cut.push(format!("{name} ({MAX_TRIED} of {})", cands.total));
        }
        tried.insert(
            name.to_ascii_lowercase(),
            pool.options(a, name, &cands, &mut ev),
        );
    }
    notes.extend(tried_note(&cut));

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
