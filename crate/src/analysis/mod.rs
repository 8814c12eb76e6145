//! The policy analyzer (seed 000, Coleman, Raman, Livny & Solomon 2003):
//! why a job does not match, what to change, which predicates conflict.
//!
//! predicate (atoms, DNF) → groups (machines that look alike) → table
//! (atoms × machines as bitsets) → summary · suggest (M1 / M2) · lattice
//! (MFS / MSS) · intervals + partition + nobody (Nobody Likes Me) · steps
//! (better-analyze) → report (text). [`analyze`] returns the JSON contract
//! of `classad analyze --json`.
//!
//! Every count shown is an evaluation: predicates and clauses are the
//! table's evaluations, suggestions and job changes are re-evaluated in
//! full after rewriting.

pub mod busy;
pub mod fixes;
pub mod group_values;
pub mod groups;
pub mod lattice;
pub mod machine_clauses;
pub mod nobody;
pub mod partition;
pub mod rejections;
pub mod report;
pub mod reverse;
pub mod searched;
pub mod state;
pub mod steps;
pub mod submit_fixes;
pub mod suggest;
pub mod summary;
pub mod table;
pub mod value_search;
pub mod view;

use std::collections::BTreeSet;
use std::sync::Arc;

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Expr};
use crate::lang::eval::{EvalOptions, Evaluator, Mode};
use crate::lang::specialize::{specialize, SpecContext};
use crate::lang::unparse::unparse_typed;
use crate::matchmaking::matching::DEFAULT_REQUIREMENTS;

use self::groups::Groups;
pub use self::suggest::{Action, Change, Suggestion};
pub use self::summary::{MachineCounts, Summary};
use crate::constraint::intervals;
use crate::constraint::predicate::{self, conjunction, display_text, Dnf, Sides};

/// A predicate the user marked as not to be changed (§3.1: "non-negotiable").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// `None`: predicate `predicate` of every clause.
    pub clause: Option<usize>,
    pub predicate: usize,
}

#[derive(Clone, Debug, Default)]
pub struct AnalysisOptions {
    pub eval: EvalOptions,
    pub fixed: Vec<Fixed>,
    /// Show better-analyze's non-narrowing steps too (`:noprune`).
    pub all_steps: bool,
    /// The job's position in its pool (0-based), for its label when it
    /// has no `ClusterId.ProcId`.
    pub position: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Analysis {
    pub machines: u64,
    pub summary: Summary,
    pub clauses: Vec<ClauseReport>,
    pub suggestions: Vec<Suggestion>,
    pub conflicts: Vec<Conflict>,
    pub succeeding: Vec<Succeeding>,
    pub job_changes: Vec<nobody::JobChange>,
    pub missing_attributes: Vec<String>,
    /// Nobody Likes Me by clause: what in the machines' own requirements
    /// rejects the job (most slots first), what it reads, what would do.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejections: Vec<rejections::Rejection>,
    /// The values searched among the slots' for the job attributes its
    /// requirements compare with theirs (when it cannot run now): each that
    /// gains slots, counted both ways, least and most marked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub searched: Vec<value_search::ValueOption>,
    // Beyond the contract:
    /// Job attributes that rejecting machines' requirements read and the
    /// job does not define (Nobody Likes Me: "add or modify").
    pub job_lacks: Vec<String>,
    /// The job's label (`ClusterId.ProcId`, else its position).
    pub job: String,
    /// The attribute analyzed (`Requirements` or `Constraint`) as written.
    pub requirements_attribute: String,
    pub requirements: String,
    /// After specialization against the job (what the predicates come from).
    pub specialized: String,
    /// Slots counted per physical machine when a `Machine` attribute groups them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_machine: Option<MachineCounts>,
    /// better-analyze's steps over the requirements as written.
    pub steps: Vec<steps::Step>,
    /// The job's own attributes the requirements use.
    pub job_attributes: Vec<(String, String)>,
    /// Where a bound stopped an exponential part, or anything else a
    /// reader must know to trust the numbers.
    pub notes: Vec<String>,
    /// The slots that match both ways but are busy: who holds them, and
    /// whether rank preemption could give one to the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy: Option<busy::Busy>,
    /// The job's state in condor_q's words when it is not simply idle
    /// ("Job is held.\n\nHold reason: …"): said before the counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_state: Option<String>,
    /// The machines (indices) the job's requirements accept: what the
    /// playground's Nobody Likes Me plane is drawn over.
    #[serde(skip)]
    pub wanted: Vec<usize>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClauseReport {
    pub text: String,
    pub matches: u64,
    pub predicates: Vec<PredicateReport>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PredicateReport {
    pub text: String,
    pub attribute: Option<String>,
    pub matches: u64,
    /// Machines where this is the clause's only false predicate.
    pub only_failing: u64,
    /// As the paper's tables print it (`Memory > 2096`).
    pub display: String,
    pub fixed: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Conflict {
    pub clause: usize,
    pub predicates: Vec<usize>,
    /// `always`: no ad could satisfy them together; `pool`: no machine of
    /// this pool does (a minimal failing subexpression).
    pub kind: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Succeeding {
    pub clause: usize,
    pub predicates: Vec<usize>,
}

/// Input the analyzer cannot work with.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AnalysisError {
    pub message: String,
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The attribute holding an ad's requirements: `Requirements`, else `Constraint`.
pub fn requirements_of(ad: &ClassAd) -> Option<(String, &Expr)> {
    DEFAULT_REQUIREMENTS.iter().find_map(|n| {
        let i = ad.position(n)?;
        let (name, e) = ad.at(i);
        Some((name.to_string(), e))
    })
}

/// Analyze one job against a pool of machines.
pub fn analyze(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    o: &AnalysisOptions,
) -> Result<Analysis, AnalysisError> {
    analyze_with_progress(job, machines, o, &mut |_, _| true)
}

/// The machines compiled for matching (`compiled::CompiledAd`), when the
/// caller keeps them (the playground's session does, per pool): machines'
/// own requirements against the job are then run compiled, answering the
/// same as the evaluator (`crate/tests/compiled.rs`) in a fraction of the time.
pub struct Compiled<'a> {
    pub machines: &'a [crate::matchmaking::compiled::CompiledAd],
}

impl Compiled<'_> {
    /// A job compiled the same way.
    pub fn job(
        &self,
        job: &Arc<ClassAd>,
        opts: EvalOptions,
    ) -> crate::matchmaking::compiled::CompiledAd {
        crate::matchmaking::compiled::CompiledAd::new(job.clone(), opts, DEFAULT_REQUIREMENTS)
    }
}

/// Phases [`analyze_with_progress`] reports.
pub const PHASES: usize = 6;

/// [`analyze`], reporting `(phase, PHASES)` as it goes; the callback
/// returns false to stop (the result is then an error saying so).
pub fn analyze_with_progress(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    o: &AnalysisOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Analysis, AnalysisError> {
    analyze_compiled(job, machines, None, o, progress)
}

/// [`analyze_with_progress`] with the machines also given compiled (one
/// `CompiledAd` per machine, in the same order, compiled with `o.eval`'s mode).
pub fn analyze_compiled(
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    compiled: Option<&Compiled>,
    o: &AnalysisOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Analysis, AnalysisError> {
    let compiled = compiled.filter(|c| c.machines.len() == machines.len());
    let mut phase = |i: usize| {
        if progress(i, PHASES) {
            Ok(())
        } else {
            Err(AnalysisError {
                message: "the analysis was cancelled".into(),
            })
        }
    };
    let (req_name, req) = requirements_of(job).ok_or_else(|| AnalysisError {
        message: "the job has no Requirements (or Constraint) attribute to analyze".into(),
    })?;
    let req = req.clone();
    let mut notes = vec![];
    let mut ev = Evaluator::new(o.eval);
    let spec = specialize(
        &req,
        &SpecContext {
            my: job.clone(),
            target: None,
            opts: o.eval,
        },
    );
    let sides = Sides {
        own: job,
        unscoped_is_other: o.eval.mode == Mode::HTCondor,
    };
    let dnf = match predicate::dnf(&spec, &sides) {
        Ok(d) => d,
        Err(limit) => {
            notes.push(limit.reason);
            Dnf::default()
        }
    };
    let (groups, tabled) = match groups::other_reads_or_why(&spec, &sides) {
        Ok(keys) => {
            let (g, t) = group_values::by_values(machines, &keys);
            (g, Some(t))
        }
        Err(why) => {
            notes.push(match why {
                groups::Unnamed::Opaque => {
                    "the requirements can read any machine attribute (a whole-ad \
                     reference or eval()), so every machine is evaluated separately"
                        .into()
                }
                groups::Unnamed::TooDeep => format!(
                    "the requirements are nested more than {} levels deep, too deep to tell which \
                     machine attributes they read, so every machine is evaluated separately",
                    groups::READS_DEPTH
                ),
            });
            (Groups::singletons(machines.len()), None)
        }
    };
    phase(1)?;

    // The boolean table, one column per distinct atom.
    let mut atom_index: Vec<Vec<usize>> = vec![];
    let mut columns: Vec<table::Column> = vec![];
    // An atom that distribution copied into several clauses is one column.
    let mut column_of: std::collections::HashMap<&str, usize> = Default::default();
    for clause in &dnf.clauses {
        let mut ix = vec![];
        for a in clause {
            let i = *column_of.entry(a.text.as_str()).or_insert_with(|| {
                columns.push(table::column(
                    a,
                    job,
                    machines,
                    &groups,
                    tabled.as_ref(),
                    &mut ev,
                ));
                columns.len() - 1
            });
            ix.push(i);
        }
        atom_index.push(ix);
    }
    let n = groups.len();
    let clause_truth: Vec<FixedBitSet> = atom_index
        .iter()
        .map(|ix| table::all_of(ix.iter().map(|&i| &columns[i].truth), n))
        .collect();
    // The job's verdict on each group: the clauses' where DNF is exact (no
    // atom was error or met a NaN), the requirements as written elsewhere.
    let accepted = if dnf.clauses.is_empty() {
        table::truth_of(&req, job, machines, &groups, &mut ev)
    } else {
        let mut by_dnf = FixedBitSet::with_capacity(n);
        for t in &clause_truth {
            by_dnf.union_with(t);
        }
        let mut uncertain = FixedBitSet::with_capacity(n);
        for c in &columns {
            uncertain.union_with(&c.error);
        }
        let mut disagree = false;
        for g in uncertain.ones() {
            ev.set_ads(Some(job.clone()), Some(machines[groups.rep[g]].clone()));
            let t = ev.eval_expr(&req).is_true();
            disagree |= t != by_dnf.contains(g);
            by_dnf.set(g, t);
        }
        if disagree {
            notes.push(
                "some atoms evaluate to error on some machines, where ClassAd's || depends on the \
                 order written; the summary counts the requirements as written"
                    .into(),
            );
        }
        by_dnf
    };
    let current = groups.count(&accepted);

    let fixed_mask = |ci: usize, k: usize| -> u64 {
        o.fixed
            .iter()
            .filter(|f| f.clause.is_none_or(|c| c == ci) && f.predicate < k.min(64))
            .fold(0u64, |m, f| m | 1 << f.predicate)
    };
    for f in &o.fixed {
        let exists = match f.clause {
            Some(c) => dnf.clauses.get(c).is_some_and(|cl| f.predicate < cl.len()),
            None => dnf.clauses.iter().any(|cl| f.predicate < cl.len()),
        };
        if !exists {
            // Fixing nothing would answer a question nobody asked.
            return Err(AnalysisError {
                message: match f.clause {
                    Some(c) => format!(
                        "fixed predicate {c}:{} does not exist (clauses and predicates count from 0)",
                        f.predicate
                    ),
                    None => format!(
                        "fixed predicate {} does not exist in any clause (predicates count from 0)",
                        f.predicate
                    ),
                },
            });
        }
    }
    let mut clauses = vec![];
    for (ci, clause) in dnf.clauses.iter().enumerate() {
        let ix = &atom_index[ci];
        let fixed = fixed_mask(ci, clause.len());
        let mut preds = vec![];
        for (j, a) in clause.iter().enumerate() {
            let others = table::all_of(
                ix.iter()
                    .enumerate()
                    .filter(|(jj, _)| *jj != j)
                    .map(|(_, &i)| &columns[i].truth),
                n,
            );
            let mut only = others;
            only.difference_with(&columns[ix[j]].truth);
            preds.push(PredicateReport {
                text: a.text.clone(),
                attribute: a.predicate.as_ref().map(|p| p.attribute.clone()),
                matches: groups.count(&columns[ix[j]].truth),
                only_failing: groups.count(&only),
                display: display_text(a),
                fixed: j < 64 && fixed >> j & 1 == 1,
            });
        }
        let exprs: Vec<Expr> = clause.iter().map(|a| a.expr.clone()).collect();
        clauses.push(ClauseReport {
            text: unparse_typed(&conjunction(&exprs)),
            matches: groups.count(&clause_truth[ci]),
            predicates: preds,
        });
    }

    phase(2)?;
    // Without the caller's compiled machines, the machines' own requirements
    // (summary, job changes) still run compiled: one compilation per policy
    // shape (`compiled::template`), as the evaluator answers.
    let pool: Vec<crate::matchmaking::compiled::CompiledAd>;
    let pool_compiled: Compiled;
    let compiled = match compiled {
        None if !accepted.is_clear() => {
            pool =
                crate::matchmaking::compiled::compile_pool(machines, o.eval, DEFAULT_REQUIREMENTS);
            pool_compiled = Compiled { machines: &pool };
            Some(&pool_compiled)
        }
        c => c,
    };
    let missing_attributes = missing(&dnf, machines);
    let (summary, by_machine, rejects_job, busy_slots) =
        summary::summarize_busy(job, machines, compiled, &groups, &accepted, o.eval);

    let mut suggestions = vec![];
    phase(3)?;
    // Suggestions when the requirements accept no machine ("I Don't Like
    // Anyone"); when they accept some that reject the job, the job's own
    // attributes are what to change (Nobody Likes Me, below).
    // A job whose matches are all busy gets them too: it cannot run now
    // (one the machines reject is Nobody Likes Me's, below).
    let stuck = current == 0 || (summary.matched == 0 && summary.match_but_busy > 0);
    if stuck && !dnf.clauses.is_empty() && !machines.is_empty() {
        let clause_exprs: Vec<Expr> = dnf
            .clauses
            .iter()
            .map(|c| conjunction(&c.iter().map(|a| a.expr.clone()).collect::<Vec<_>>()))
            .collect();
        let known: std::collections::HashMap<String, &table::Column> = column_of
            .iter()
            .map(|(t, &i)| (t.to_string(), &columns[i]))
            .collect();
        let ctx = suggest::Context {
            job,
            machines,
            groups: &groups,
            tabled: tabled.as_ref(),
            clause_exprs: &clause_exprs,
            clause_truth: &clause_truth,
            current,
            opts: o.eval,
            known: &known,
        };
        let inputs: Vec<suggest::ClauseInput> = dnf
            .clauses
            .iter()
            .enumerate()
            .map(|(ci, c)| suggest::ClauseInput {
                index: ci,
                atoms: c,
                columns: atom_index[ci].iter().map(|&i| &columns[i].truth).collect(),
                fixed: fixed_mask(ci, c.len()),
            })
            .collect();
        suggestions = suggest::suggest(&ctx, &inputs);
        if dnf
            .clauses
            .iter()
            .any(|c| c.len() > lattice::MAX_PREDICATES)
        {
            notes.push(format!(
                "clauses of more than {} predicates get no suggestions",
                lattice::MAX_PREDICATES
            ));
        }
    }

    phase(4)?;
    let (conflicts, succeeding) =
        conflicts(&dnf, &atom_index, &columns, &clauses, &groups, &mut notes);
    // Nobody Likes Me: the machines' clauses that reject the job, by text,
    // with the values they would take; then the paper's partition over
    // the clauses a change of the job can move.
    let rejected = rejections::analyze(
        &rejections::Input {
            job,
            machines,
            compiled,
            groups: &groups,
            accepted: &accepted,
            rejecting: &rejects_job,
            opts: o.eval,
        },
        &mut notes,
    );
    let mut job_lacks = vec![];
    // The paper's partition first (nearest first, its advice as §3.3
    // words it), then each attribute's least and most change.
    let mut job_changes = nobody::job_changes(
        job,
        machines,
        compiled,
        &rejects_job,
        Some((&rejected.movable, rejected.whole_atoms)),
        o.eval,
        &mut notes,
        &mut job_lacks,
    );
    for c in rejected.changes {
        if !job_changes.iter().any(|j| j.changes == c.changes) {
            job_changes.push(c);
        }
    }
    if !rejects_job.is_empty() {
        job_lacks = rejected.lacking;
    }
    // The suggestions in the job's terms, joined by the job changes,
    // counted both ways and ranked by what lets the job run.
    let written = unparse_typed(&req);
    let fix_ctx = fixes::FixContext {
        job,
        machines,
        compiled,
        groups: &groups,
        requirements: &req,
        written: &written,
        requirements_attribute: &req_name,
        dnf: &dnf,
        opts: o.eval,
    };
    let now = fixes::Counted {
        matches: current,
        both_ways: summary.match_but_busy + summary.matched,
        willing: summary.matched,
    };
    // The job's own attributes its requirements compare with the slots',
    // searched among the slots' values (when it cannot run now).
    let searched = if stuck && !machines.is_empty() {
        searched::search(
            value_search::Scope {
                job,
                machines,
                groups: &groups,
                accepted: &accepted,
                opts: o.eval,
            },
            &mut notes,
        )
    } else {
        vec![]
    };
    let suggestions = fixes::fixes(&fix_ctx, suggestions, &job_changes, &searched, now);
    phase(5)?;
    // Steps count sub-expressions the whole may short-circuit past
    // (`error || TARGET.Memory > 100` specializes to error): their groups
    // also tell apart what each part reads.
    let step_opts = steps::StepOptions {
        prune: !o.all_steps,
        opts: o.eval,
    };
    let steps = match step_reads(&req, job, o.eval, &sides) {
        Some(keys) if groups::other_reads(&spec, &sides).is_some_and(|k| k == keys) => {
            steps::steps_grouped(&req, job, machines, &groups, tabled.as_ref(), &step_opts)
        }
        Some(keys) => {
            let (g, t) = group_values::by_values(machines, &keys);
            steps::steps_grouped(&req, job, machines, &g, Some(&t), &step_opts)
        }
        None => {
            let g = Groups::singletons(machines.len());
            steps::steps_grouped(&req, job, machines, &g, None, &step_opts)
        }
    };
    if machines.is_empty() {
        notes.push("the pool is empty: there is nothing to match against".into());
    }
    Ok(Analysis {
        machines: machines.len() as u64,
        summary,
        clauses,
        suggestions,
        conflicts,
        succeeding,
        job_changes,
        missing_attributes,
        rejections: rejected.clauses,
        searched,
        job_lacks,
        job: crate::matchmaking::negotiate::job_id(job, o.position),
        requirements_attribute: req_name,
        requirements: written,
        specialized: unparse_typed(&spec),
        by_machine,
        steps,
        job_attributes: steps::job_attributes(&req, job),
        notes,
        busy: busy::busy(job, machines, &busy_slots, o.eval),
        job_state: state::job_state(job, o.eval),
        wanted: (0..machines.len())
            .filter(|&i| accepted.contains(groups.of[i] as usize))
            .collect(),
    })
}

/// What the requirements' parts read of the other ad: every operand of
/// `&&`, `||`, `!`, `?:` (as better-analyze splits it) specialized against
/// the job on its own; `None` when some part could read anything.
fn step_reads(
    req: &Expr,
    job: &Arc<ClassAd>,
    eval: EvalOptions,
    sides: &Sides,
) -> Option<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    let mut stack = vec![(req, 0u32)];
    let ctx = SpecContext {
        my: job.clone(),
        target: None,
        opts: eval,
    };
    while let Some((e, depth)) = stack.pop() {
        use crate::lang::ast::{BinaryOp, ExprKind, UnaryOp};
        match &e.kind {
            ExprKind::Paren(a) | ExprKind::Unary(UnaryOp::Not, a) if depth < 400 => {
                stack.push((a, depth + 1))
            }
            ExprKind::Binary(BinaryOp::And | BinaryOp::Or, a, b) if depth < 400 => {
                stack.push((a, depth + 1));
                stack.push((b, depth + 1));
            }
            ExprKind::Cond(c, a, b) if depth < 400 => {
                stack.extend([(&**c, depth + 1), (&**a, depth + 1), (&**b, depth + 1)]);
            }
            _ => out.extend(groups::other_reads(&specialize(e, &ctx), sides)?),
        }
    }
    Some(out)
}

/// Predicate attributes no machine defines (only REMOVE helps there).
fn missing(dnf: &Dnf, machines: &[Arc<ClassAd>]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = vec![];
    for a in dnf.clauses.iter().flatten() {
        if let Some(p) = &a.predicate {
            if seen.insert(p.key.clone())
                && !machines.iter().any(|m| m.position_name(&p.name).is_some())
            {
                out.push(p.attribute.clone());
            }
        }
    }
    out
}

/// Conflicts without the pool (intervals that cannot meet) and with it
/// (minimal failing subexpressions of clauses no machine satisfies), and
/// the maximal succeeding subexpressions of those clauses.
fn conflicts(
    dnf: &Dnf,
    atom_index: &[Vec<usize>],
    columns: &[table::Column],
    clauses: &[ClauseReport],
    groups: &Groups,
    notes: &mut Vec<String>,
) -> (Vec<Conflict>, Vec<Succeeding>) {
    let mut out = vec![];
    let mut succeeding = vec![];
    // Clauses (1-based) whose lattice stopped at its bound, and whose lists
    // were cut to their first LISTED: said once each, not once a clause.
    let (mut partial, mut cut) = (vec![], vec![]);
    // The first few of each kind per clause: a 64-predicate clause can have
    // thousands, and nobody reads past the first screen.
    const LISTED: usize = 100;
    for (ci, clause) in dnf.clauses.iter().enumerate() {
        // Without the pool: same attribute, intervals that never meet.
        type OnOneAttribute = Vec<(usize, crate::lang::ast::BinaryOp, crate::lang::value::Value)>;
        let mut by_attr: Vec<(String, OnOneAttribute)> = vec![];
        for (j, a) in clause.iter().enumerate() {
            if let Some(p) = &a.predicate {
                let entry = (j, p.normalized_op(), p.literal.clone());
                match by_attr.iter_mut().find(|(k, _)| *k == p.key) {
                    Some((_, v)) => v.push(entry),
                    None => by_attr.push((p.key.clone(), vec![entry])),
                }
            }
        }
        for (_, preds) in &by_attr {
            if preds.len() > 1 {
                for set in intervals::always_conflicts(preds) {
                    out.push(Conflict {
                        clause: ci,
                        predicates: set,
                        kind: "always".into(),
                    });
                }
            }
        }
        // With the pool: only for clauses no machine satisfies.
        if clauses[ci].matches > 0 || groups.is_empty() || clause.len() > lattice::MAX_PREDICATES {
            continue;
        }
        let rows = (0..groups.len()).map(|g| {
            atom_index[ci]
                .iter()
                .enumerate()
                .filter(|(_, &i)| columns[i].truth.contains(g))
                .fold(0u64, |m, (j, _)| m | 1 << j)
        });
        let l = lattice::lattice(clause.len(), rows);
        if !l.complete {
            partial.push(ci + 1);
        }
        if l.mfs.len() > LISTED || l.mss.len() > LISTED {
            cut.push(ci + 1);
        }
        for m in l.mfs.iter().take(LISTED) {
            let preds = lattice::members(*m);
            // A single predicate no machine satisfies is not a conflict.
            if preds.len() < 2 || out.iter().any(|c| c.clause == ci && c.predicates == preds) {
                continue;
            }
            out.push(Conflict {
                clause: ci,
                predicates: preds,
                kind: "pool".into(),
            });
        }
        for m in l.mss.iter().take(LISTED) {
            succeeding.push(Succeeding {
                clause: ci,
                predicates: lattice::members(*m),
            });
        }
    }
    let list = |v: &[usize]| {
        let shown: Vec<String> = v.iter().take(10).map(usize::to_string).collect();
        let more = v.len().saturating_sub(10);
        if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else {
            shown.join(", ")
        }
    };
    if !partial.is_empty() {
        notes.push(format!(
            "clause(s) {}: the minimal failing subexpressions listed are a partial set (the search \
             stopped at its bound of {} sets or {} comparisons a clause; each one listed is checked \
             against the pool)",
            list(&partial),
            lattice::MAX_SETS,
            lattice::MAX_WORK
        ));
    }
    if !cut.is_empty() {
        notes.push(format!(
            "clause(s) {}: more than {LISTED} minimal failing or maximal succeeding subexpressions; \
             the first {LISTED} of each are listed",
            list(&cut)
        ));
    }
    (out, succeeding)
}
