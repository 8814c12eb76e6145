//! Nobody Likes Me (§3.2): the job wants machines that do not want it.
//! Which changes to the job's own attributes would make them accept it?
//!
//! Each rejecting machine's requirements are specialized against the
//! machine, put in DNF, and every clause becomes a hyper-rectangle over
//! job attributes; the space is partitioned into cells of identical machine
//! sets (`partition`), and the cells nearest the job (M2) become proposed
//! changes. A clause's opaque atoms (function calls, comparisons of two
//! attributes) are left out of its rectangle, so a cell can promise more
//! than it holds: every change is therefore applied to a copy of the job
//! and checked against every machine's requirements, and only what that
//! evaluation says is reported.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::groups::Groups;
use super::partition::{self, Limits, Rect};
use crate::constraint::intervals::Constraint;
use crate::constraint::predicate::{self, Sides};
use crate::lang::ast::{ClassAd, Expr};
use crate::lang::eval::{EvalOptions, Evaluator, Mode};
use crate::lang::specialize::{specialize, SpecContext};
use crate::lang::value::Value;
use crate::matchmaking::matching::{accepts, DEFAULT_REQUIREMENTS};

/// Cells built before the partition stops (it says so when it does).
pub const MAX_CELLS: usize = 20_000;
/// Most predicates the machines' requirements may give the rectangles, in
/// normal form, all machines together (a machine of eight `(a || b)`
/// factors alone gives 2,048): past it the remaining machine groups are
/// left out of the job changes, and a note says how many.
pub const MAX_RECTANGLE_ATOMS: usize = 1_000_000;
/// Job changes shown.
pub const SHOWN: usize = 5;
/// Machine names listed per change.
const NAMES: usize = 200;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobChange {
    /// Attribute → new literal (ClassAd text).
    pub changes: BTreeMap<String, String>,
    /// The cell the job moves into.
    pub range: String,
    /// Machines whose requirements accept the changed job (by evaluation).
    pub matches: u64,
    /// Names of the machines gained (accepting the changed job, not the
    /// job as it is), at most 200.
    pub machines: Vec<String>,
    pub gained: u64,
    /// Machines that would then match both ways (the changed job's own
    /// requirements accept them too), busy or not.
    pub mutual: u64,
    /// M2 distance of the cell from the job.
    pub distance: f64,
    /// Per changed attribute, the paper's advice (`use a value <= 1220608`).
    pub advice: Vec<(String, String)>,
}

/// `rejecting`: machines the job accepts whose requirements reject it.
#[allow(clippy::too_many_arguments)]
pub fn job_changes(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    rejecting: &[usize],
    movable: Option<(&super::rejections::Movable, u64)>,
    opts: EvalOptions,
    notes: &mut Vec<String>,
    lacking: &mut Vec<String>,
) -> Vec<JobChange> {
    if rejecting.is_empty() {
        return vec![];
    }
    // The paper's partition over the machines' whole requirements; where
    // that stops at a bound (a glidein pool's 1 KB STARTs, thousands of
    // slots), over the clauses a change of the job can move instead — the
    // same changes for what a change can reach, each checked below against
    // every machine's whole requirements.
    // `movable` comes with the whole requirements' size in normal form at
    // most: past the bound, the whole is not tried.
    let mut said = vec![];
    let whole_fits = movable.is_none_or(|(_, atoms)| atoms <= MAX_RECTANGLE_ATOMS as u64);
    let mut found = None;
    if whole_fits {
        found = cells(
            job,
            machines,
            compiled,
            rejecting,
            None,
            movable.is_some(),
            opts,
            &mut said,
        );
    }
    if let (true, Some((movable, _))) = (found.is_none() || !said.is_empty(), movable) {
        said.clear();
        found = cells(
            job,
            machines,
            compiled,
            rejecting,
            Some(movable),
            false,
            opts,
            &mut said,
        );
    }
    notes.extend(said);
    let Some((part, found_lacking)) = found else {
        return vec![];
    };
    *lacking = found_lacking;
    let mut ev = Evaluator::new(opts);

    // Verify: every machine's requirements against the changed job; the
    // job as it is only where the changed one is accepted (for "gained").
    let mut out: Vec<JobChange> = vec![];
    for cell in part.cells.iter().take(SHOWN * 8) {
        if out.len() >= SHOWN || cell.changes.is_empty() {
            continue;
        }
        let changes: BTreeMap<String, String> = cell
            .changes
            .iter()
            .map(|(k, v)| (k.clone(), crate::constraint::predicate::literal_text(v)))
            .collect();
        if out.iter().any(|c| c.changes == changes) {
            continue;
        }
        let Some(Checked {
            matches,
            mutual,
            gained,
        }) = checked_change(job, machines, compiled, opts, &changes, &mut ev)
        else {
            continue;
        };
        if gained.is_empty() {
            continue;
        }
        let advice = cell
            .sides
            .iter()
            .filter(|(k, _)| cell.changes.iter().any(|(c, _)| c == k))
            .map(|(k, s)| (k.clone(), format!("use a value {}", s.describe())))
            .collect();
        out.push(JobChange {
            changes,
            range: partition::describe_range(cell),
            matches,
            machines: gained
                .iter()
                .take(NAMES)
                .map(|&i| crate::matchmaking::negotiate::machine_name(&machines[i], i))
                .collect(),
            gained: gained.len() as u64,
            mutual,
            distance: cell.distance,
            advice,
        });
    }
    out
}

/// The partition of the job attributes' space by the rejecting machines'
/// rectangles (their whole requirements, or their `movable` clauses), and
/// the job attributes they read that the job lacks; what stopped at a
/// bound is said in `notes` (with `retry`, nothing more is built then).
#[allow(clippy::too_many_arguments)]
fn cells(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    rejecting: &[usize],
    movable: Option<&super::rejections::Movable>,
    retry: bool,
    opts: EvalOptions,
    notes: &mut Vec<String>,
) -> Option<(partition::Partition, Vec<String>)> {
    let r = rectangles_of(job, machines, compiled, rejecting, movable, opts, notes);
    // Stopped at a bound, to be tried again over fewer clauses.
    if retry && !notes.is_empty() {
        return None;
    }
    let (rects, mut numbers) = (r.rects, r.numbers);
    if rects.is_empty() {
        let none = partition::Partition {
            cells: vec![],
            complete: true,
            dimensions: vec![],
        };
        return Some((none, r.lacking));
    }
    let dims: BTreeSet<String> = rects
        .iter()
        .flat_map(|r| r.sides.iter().map(|(k, _)| k.clone()))
        .collect();
    let mut ev = Evaluator::new(opts);
    let point: Vec<(String, Option<Value>)> = dims
        .iter()
        .map(|k| {
            let v = job_value(job, k, &mut ev);
            if let Some(x) = v
                .as_ref()
                .and_then(Value::as_number)
                .filter(|x| x.is_finite())
            {
                let e = numbers.entry(k.clone()).or_insert((x, x));
                e.0 = e.0.min(x);
                e.1 = e.1.max(x);
            }
            (k.clone(), v)
        })
        .collect();
    let ranges: Vec<(String, f64)> = numbers
        .iter()
        .map(|(k, (lo, hi))| (k.clone(), if hi > lo { hi - lo } else { 1.0 }))
        .collect();
    let part = partition::partition(
        &rects,
        &point,
        &ranges,
        &Limits {
            max_cells: MAX_CELLS,
        },
    );
    if !part.complete {
        notes.push(format!(
            "the Nobody Likes Me partition stopped at {MAX_CELLS} cells; the job changes shown come from the cells built"
        ));
    }
    Some((part, r.lacking))
}

/// A job change counted against every machine's requirements.
pub(super) struct Checked {
    /// Machines whose requirements accept the changed job.
    pub matches: u64,
    /// Of those, machines the changed job's requirements accept too.
    pub mutual: u64,
    /// Machines accepting the changed job and not the job as it is.
    pub gained: Vec<usize>,
}

/// `changes` (attribute → literal text) applied to a copy of the job and
/// checked against every machine, both ways; `None` when a value does not
/// parse.
pub(super) fn checked_change(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    opts: EvalOptions,
    changes: &BTreeMap<String, String>,
    ev: &mut Evaluator,
) -> Option<Checked> {
    let mut changed = (**job).clone();
    for (k, v) in changes {
        changed.insert(k, crate::lang::parser::parse_expr(v).ok()?);
    }
    let changed = Arc::new(changed);
    // Compiled when the caller keeps the machines compiled (the same
    // answers as evaluating, `crate/tests/compiled.rs`).
    let jobs_compiled = compiled.map(|c| (c.machines, c.job(&changed, opts), c.job(job, opts)));
    let machine_accepts =
        |ev: &mut Evaluator, i: usize, which: &Arc<ClassAd>, original: bool| match &jobs_compiled {
            Some((mc, cj, oj)) => mc[i].accepts(if original { oj } else { cj }, ev),
            None => accepts(ev, &machines[i], which, DEFAULT_REQUIREMENTS),
        };
    // One pass: a machine's three answers while its ad is in cache.
    let (mut matches, mut mutual) = (0u64, 0u64);
    let mut gained: Vec<usize> = vec![];
    for i in 0..machines.len() {
        if !machine_accepts(ev, i, &changed, false) {
            continue;
        }
        matches += 1;
        // The changed job's own requirements may read what changed
        // (`TARGET.VirtualMemory > ImageSize`): both ways, evaluated.
        let both = match &jobs_compiled {
            Some((mc, cj, _)) => cj.accepts(&mc[i], ev),
            None => accepts(ev, &changed, &machines[i], DEFAULT_REQUIREMENTS),
        };
        mutual += both as u64;
        if !machine_accepts(ev, i, job, true) {
            gained.push(i);
        }
    }
    Some(Checked {
        matches,
        mutual,
        gained,
    })
}

/// The machines' requirement clauses as rectangles over job attributes.
pub struct Rectangles {
    /// Distinct rectangles: machines whose specialized clauses give the
    /// same rectangle share one (`Rect::machine` indexes `weight`).
    pub rects: Vec<Rect>,
    /// How many machines hold each rectangle.
    pub weight: Vec<u64>,
    /// Job attributes the machines' requirements read that the job lacks
    /// (as the first machine spells them).
    pub lacking: Vec<String>,
    /// Numeric bounds seen per dimension (for M2's normalization).
    pub numbers: BTreeMap<String, (f64, f64)>,
}

/// Rectangles of the machines `which` (indices into `machines`):
/// each one's requirements specialized against itself, in DNF, one
/// rectangle per clause that constrains the job and can hold.
pub fn rectangles(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    which: &[usize],
    opts: EvalOptions,
    notes: &mut Vec<String>,
) -> Rectangles {
    rectangles_of(job, machines, None, which, None, opts, notes)
}

/// [`rectangles`] with the machines also compiled (their shapes spare
/// walking each one's requirements to group them), and with each machine's
/// `movable` clauses in place of its whole requirements when given (in
/// `which`'s order; `None`: nothing of the job's moves that machine):
/// the clauses that reject the job and those sharing an attribute with
/// them — what a change of the job can move. Machines are then one kind
/// per specialized text: a glidein pool's thousands of STARTs are a few.
fn rectangles_of(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&super::Compiled>,
    which: &[usize],
    movable: Option<&super::rejections::Movable>,
    opts: EvalOptions,
    notes: &mut Vec<String>,
) -> Rectangles {
    let subset: Vec<Arc<ClassAd>> = which.iter().map(|&i| machines[i].clone()).collect();
    // Per kind: a representative (in `subset`), its specialized
    // requirements when already made, and how many machines it stands for.
    let shapes = match movable {
        Some(movable) => kinds_of_movable(&subset, movable, opts),
        None => {
            let shape: Option<Vec<usize>> =
                compiled.map(|c| which.iter().map(|&i| c.machines[i].shape()).collect());
            let g = Groups::by_requirements_shaped(&subset, DEFAULT_REQUIREMENTS, shape.as_deref());
            Kinds {
                rep: g.rep,
                weight: g.weight,
                spec: vec![],
            }
        }
    };
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    let mut weight: Vec<u64> = vec![];
    let mut rects = vec![];
    let mut spelling: BTreeMap<String, String> = BTreeMap::new();
    let mut numbers: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    let mut lacking: Vec<String> = vec![];
    let mut atoms = 0usize;
    for (g, &rep) in shapes.rep.iter().enumerate() {
        if atoms > MAX_RECTANGLE_ATOMS {
            let left: usize = shapes.rep.len() - g;
            notes.push(format!(
                "the Nobody Likes Me rectangles stopped at their bound of {MAX_RECTANGLE_ATOMS} \
                 predicates: {left} of {} kinds of machine requirements are left out of the job changes",
                shapes.rep.len()
            ));
            break;
        }
        let m = &subset[rep];
        let spec = match shapes.spec.get(g) {
            Some(spec) => spec.clone(),
            None => {
                let Some((_, req)) = super::requirements_of(m) else {
                    continue;
                };
                specialize(
                    req,
                    &SpecContext {
                        my: m.clone(),
                        target: None,
                        opts,
                    },
                )
            }
        };
        let sides = Sides {
            own: m,
            unscoped_is_other: opts.mode == Mode::HTCondor,
        };
        if let Some(reads) = super::groups::other_reads(&spec, &sides) {
            for k in reads {
                if job.position(&k).is_none() {
                    let name = spelled(&spec, &k).unwrap_or(k);
                    if !lacking
                        .iter()
                        .any(|l: &String| l.eq_ignore_ascii_case(&name))
                    {
                        lacking.push(name);
                    }
                }
            }
        }
        let Ok(dnf) = predicate::dnf(&spec, &sides) else {
            notes.push(format!(
                "the requirements of {} are too large to put in normal form; it is left out of the job changes",
                crate::matchmaking::negotiate::machine_name(m, which[rep])
            ));
            continue;
        };
        atoms += dnf.clauses.iter().map(Vec::len).sum::<usize>();
        for clause in &dnf.clauses {
            let mut sides: Vec<(String, Constraint)> = vec![];
            let mut empty = false;
            for a in clause {
                let Some(p) = &a.predicate else { continue };
                let Some(c) = Constraint::from_predicate(p.normalized_op(), &p.literal) else {
                    continue;
                };
                // Dimensions are named as the job spells them (else as the
                // first machine does), so ranges read as the user wrote.
                let dim = spelling
                    .entry(p.key.clone())
                    .or_insert_with(|| {
                        job_spelling(job, &p.key).unwrap_or_else(|| p.attribute.clone())
                    })
                    .clone();
                if let Some(x) = p.literal.as_number().filter(|x| x.is_finite()) {
                    let e = numbers.entry(dim.clone()).or_insert((x, x));
                    e.0 = e.0.min(x);
                    e.1 = e.1.max(x);
                }
                match sides.iter_mut().find(|(k, _)| *k == dim) {
                    Some((_, s)) => *s = s.intersect(&c),
                    None => sides.push((dim, c)),
                }
            }
            for (_, s) in &sides {
                empty |= s.is_empty();
            }
            // A clause that says nothing about the job cannot be reached by
            // changing the job; one that can never hold is dropped (§3.2).
            if empty || sides.is_empty() {
                continue;
            }
            // One rectangle per requirements shape (machines of one shape
            // behave alike; cells are checked machine by machine below).
            // Machines that differ only in what folded away (LoadAvg,
            // KeyboardIdle) give the same rectangle: keep one, weighted.
            let key = format!("{sides:?}");
            match index.get(&key) {
                Some(&r) => weight[r] += shapes.weight[g],
                None => {
                    index.insert(key, rects.len());
                    weight.push(shapes.weight[g]);
                    rects.push(Rect {
                        machine: rects.len(),
                        sides,
                    });
                }
            }
        }
    }
    lacking.sort_by_key(|l| l.to_ascii_lowercase());
    Rectangles {
        lacking,
        rects,
        weight,
        numbers,
    }
}

/// Machines of one kind for the rectangles.
struct Kinds {
    rep: Vec<usize>,
    weight: Vec<u64>,
    /// Per kind, its specialized requirements (empty: made per kind later).
    spec: Vec<Expr>,
}

/// Machines by the text of their movable clauses specialized against
/// themselves; machines with none are left out.
fn kinds_of_movable(
    subset: &[Arc<ClassAd>],
    movable: &super::rejections::Movable,
    opts: EvalOptions,
) -> Kinds {
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    let mut k = Kinds {
        rep: vec![],
        weight: vec![],
        spec: vec![],
    };
    // Machines sharing a set of clause kinds see the same of them.
    let mut weight = vec![0u64; movable.exprs.len()];
    for id in movable.of.iter().flatten() {
        weight[*id] += 1;
    }
    for ((pos, e), w) in movable.exprs.iter().zip(weight) {
        let spec = specialize(
            e,
            &SpecContext {
                my: subset[*pos].clone(),
                target: None,
                opts,
            },
        );
        let text = crate::lang::unparse::unparse(&spec);
        match index.get(&text) {
            Some(&g) => k.weight[g] += w,
            None => {
                index.insert(text, k.rep.len());
                k.rep.push(*pos);
                k.weight.push(w);
                k.spec.push(spec);
            }
        }
    }
    k
}

/// How an expression spells a (case-folded) attribute name it reads.
pub(super) fn spelled(e: &Expr, key: &str) -> Option<String> {
    let mut stack = vec![e];
    let mut steps = 0;
    while let Some(x) = stack.pop() {
        steps += 1;
        if steps > 10_000 {
            return None;
        }
        match &x.kind {
            crate::lang::ast::ExprKind::Attr { name, .. }
            | crate::lang::ast::ExprKind::Select(_, name)
                if *name.key == *key =>
            {
                return Some(name.text.to_string());
            }
            _ => stack.extend(x.children()),
        }
    }
    None
}

/// The job's value of an attribute (evaluated in its own scope), `None`
/// when it lacks it or it is undefined.
pub(super) fn job_value(job: &Arc<ClassAd>, key: &str, ev: &mut Evaluator) -> Option<Value> {
    let def = job.get(key)?;
    let v = match def.as_literal() {
        Some(v) => v.clone(),
        None => {
            ev.set_ads(Some(job.clone()), None);
            ev.eval_attr(key)
        }
    };
    (!v.is_undefined()).then_some(v)
}

fn job_spelling(job: &ClassAd, key: &str) -> Option<String> {
    job.position(key).map(|i| job.at(i).0.to_string())
}
