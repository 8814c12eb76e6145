//! What the playground's analyzer view asks for and draws: the analysis
//! with its text report, the subset lattice of small failing clauses
//! (Figure 4), and a plane through the job's point in the Nobody Likes Me
//! space (Figure 5). Serializable both ways, answered in the worker.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::partition::{self, Limits, Rect};
use super::{Analysis, AnalysisOptions, Fixed};
use crate::constraint::intervals::Constraint;
use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;

/// Lattices are drawn for clauses of at most this many predicates (2^6 sets).
pub const LATTICE_MAX: usize = 6;
/// Cells of a plane at most.
const PLANE_CELLS: usize = 2_000;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct AnalyzeRequest {
    /// Pool ids (see `session`).
    pub jobs: String,
    pub machines: String,
    /// Index of the job in its pool.
    pub job: usize,
    /// Predicates not to change: `[clause or null, predicate]`.
    #[serde(default)]
    pub fixed: Vec<(Option<usize>, usize)>,
    /// Attributes of the job replaced before analysis (name, expression
    /// text): the view's one-click edits.
    #[serde(default)]
    pub overrides: Vec<(String, String)>,
    /// The syntax the overrides are read in.
    #[serde(default)]
    pub dialect: crate::lang::lexer::Dialect,
    #[serde(default)]
    pub all_steps: bool,
    /// Two job attributes to draw the Nobody Likes Me plane over (by
    /// default, or when the machines do not constrain them, the first two
    /// of `plane_attributes`).
    #[serde(default)]
    pub plane: Option<(String, String)>,
    #[serde(flatten)]
    pub eval: EvalOptions,
    /// The submit file the jobs pool was made from: the fixes are then
    /// also given as edits of it (without overrides; `job` is its proc).
    #[serde(default)]
    pub submit: Option<crate::submit::SubmitSource>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AnalysisView {
    pub analysis: super::Analysis,
    /// The text report (the paper's tables and better-analyze's), to copy.
    pub report: String,
    pub lattices: Vec<LatticeGrid>,
    /// Job attributes some machine constrains by number: the plane's axes.
    pub plane_attributes: Vec<String>,
    pub plane: Option<Plane>,
    /// The fixes as edits of the submit file, when the request gave one.
    #[serde(default)]
    pub submit_fixes: Option<super::submit_fixes::SubmitFixes>,
}

/// Every subset of a failing clause, true when some machine satisfies it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LatticeGrid {
    pub clause: usize,
    /// The predicates' display texts.
    pub predicates: Vec<String>,
    /// Indexed by subset mask (bit j = predicate j).
    pub succeeds: Vec<bool>,
    /// Each subset's mark, indexed alike (Figure 4's circles).
    pub marks: Vec<LatticeMark>,
}

/// What Figure 4 marks in a lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LatticeMark {
    /// Minimal failing set: fails, and every one-smaller subset succeeds.
    Mfs,
    /// Maximal succeeding set: succeeds, and no one-larger superset does.
    Mss,
    Plain,
}

/// The mark of each subset of `k` predicates (indexed by mask), from
/// `succeeds` (indexed alike).
pub fn lattice_marks(k: usize, succeeds: &[bool]) -> Vec<LatticeMark> {
    (0..succeeds.len())
        .map(|s| {
            let ok = |m: usize| succeeds.get(m).copied().unwrap_or(false);
            if ok(s) {
                let mut out = (0..k).filter(|j| s >> j & 1 == 0);
                if out.all(|j| !ok(s | 1 << j)) {
                    return LatticeMark::Mss;
                }
            } else if (0..k)
                .filter(|j| s >> j & 1 == 1)
                .all(|j| ok(s & !(1 << j)))
            {
                return LatticeMark::Mfs;
            }
            LatticeMark::Plain
        })
        .collect()
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Plane {
    pub x: String,
    pub y: String,
    /// The job's values (None: the job lacks it, or it is not a number).
    pub job: (Option<f64>, Option<f64>),
    pub cells: Vec<PlaneCell>,
    pub complete: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlaneCell {
    pub x: AxisSpan,
    pub y: AxisSpan,
    /// Machines whose requirements (sliced at the job's other values) hold here.
    pub machines: u64,
    pub text: String,
}

/// An interval of one axis (infinite ends are `null`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AxisSpan {
    pub lo: Option<f64>,
    pub lo_closed: bool,
    pub hi: Option<f64>,
    pub hi_closed: bool,
}

/// Why an analysis request has no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum AnswerError {
    /// `job` (0-based) is past the end of a pool of `pool` ads.
    NoSuchJob { job: usize, pool: usize },
    /// An edited attribute's text does not parse.
    BadOverride { attribute: String, problem: String },
    /// The analyzer refused the job or was stopped.
    Analysis(super::AnalysisError),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::NoSuchJob { job, pool } => {
                write!(f, "there is no job {} (the pool has {pool} ads)", job + 1)
            }
            AnswerError::BadOverride { attribute, problem } => write!(f, "{attribute}: {problem}"),
            AnswerError::Analysis(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AnswerError {}

impl From<super::AnalysisError> for AnswerError {
    fn from(e: super::AnalysisError) -> AnswerError {
        AnswerError::Analysis(e)
    }
}

/// Answer an analysis request on a job and a pool of machines.
pub fn answer(
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    compiled: Option<&[crate::matchmaking::compiled::CompiledAd]>,
    req: &AnalyzeRequest,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<AnalysisView, AnswerError> {
    let base = jobs.get(req.job).ok_or(AnswerError::NoSuchJob {
        job: req.job,
        pool: jobs.len(),
    })?;
    let mut job = (**base).clone();
    for (name, text) in &req.overrides {
        let e = crate::lang::parser::parse_expr_with(text, req.dialect, req.eval.mode).map_err(
            |d| AnswerError::BadOverride {
                attribute: name.clone(),
                problem: d.summary(),
            },
        )?;
        job.insert(name, e);
    }
    let job = Arc::new(job);
    let o = AnalysisOptions {
        eval: req.eval,
        fixed: req
            .fixed
            .iter()
            .map(|&(clause, predicate)| Fixed { clause, predicate })
            .collect(),
        all_steps: req.all_steps,
        position: req.job,
    };
    let compiled = compiled.map(|machines| super::Compiled { machines });
    let a = super::analyze_compiled(&job, machines, compiled.as_ref(), &o, progress)?;
    let lattices = lattices(&a);
    let mut notes = vec![];
    // The plane is drawn over the machines the job wants: the ones whose
    // own requirements decide whether it runs.
    let r = super::nobody::rectangles(&job, machines, &a.wanted, o.eval, &mut notes);
    let plane_attributes: Vec<String> = r.numbers.keys().cloned().collect();
    // The chosen axes when the machines constrain both, else the first two
    // (as the view picks them, so its first answer needs no second request).
    let offered = |a: &str| plane_attributes.iter().any(|p| p.eq_ignore_ascii_case(a));
    let axes = match &req.plane {
        Some((x, y)) if offered(x) && offered(y) && !x.eq_ignore_ascii_case(y) => {
            Some((x.clone(), y.clone()))
        }
        _ => match plane_attributes.as_slice() {
            [x, y, ..] => Some((x.clone(), y.clone())),
            _ => None,
        },
    };
    let plane = axes.as_ref().map(|(x, y)| plane(&job, &r, x, y, o.eval));
    let submit_fixes = match &req.submit {
        Some(source) if req.overrides.is_empty() => {
            let compiled = compiled.as_ref();
            super::submit_fixes::for_source(source, req.job, &job, &a, &mut |j| {
                super::fixes::count_job(j, machines, compiled, o.eval)
            })
        }
        _ => None,
    };
    Ok(AnalysisView {
        submit_fixes,
        report: super::report::render(&a),
        analysis: a,
        lattices,
        plane_attributes,
        plane,
    })
}

/// Every subset of each small failing clause, from its maximal succeeding
/// subsets (the analysis computed them from the boolean table): a subset
/// succeeds exactly when some MSS contains it.
fn lattices(a: &Analysis) -> Vec<LatticeGrid> {
    let mut out = vec![];
    for (ci, c) in a.clauses.iter().enumerate() {
        let k = c.predicates.len();
        if c.matches > 0 || k == 0 || k > LATTICE_MAX {
            continue;
        }
        let mss: Vec<u64> = a
            .succeeding
            .iter()
            .filter(|s| s.clause == ci)
            .map(|s| s.predicates.iter().fold(0u64, |m, &j| m | 1 << j))
            .collect();
        let succeeds: Vec<bool> = (0..1u64 << k)
            .map(|s| s == 0 || mss.iter().any(|&m| s & !m == 0))
            .collect();
        out.push(LatticeGrid {
            clause: ci,
            predicates: c.predicates.iter().map(|p| p.display.clone()).collect(),
            marks: lattice_marks(k, &succeeds),
            succeeds,
        });
    }
    out
}

/// A slice of the Nobody Likes Me space through the job's point: the
/// rectangles whose other sides hold the job's current values, projected
/// on two attributes and partitioned.
fn plane(
    job: &Arc<ClassAd>,
    r: &super::nobody::Rectangles,
    x: &str,
    y: &str,
    opts: EvalOptions,
) -> Plane {
    let mut ev = Evaluator::new(opts);
    let job_value = super::nobody::job_value;
    let mut rects = vec![];
    for rect in &r.rects {
        let others_hold = rect.sides.iter().all(|(k, c)| {
            k.eq_ignore_ascii_case(x)
                || k.eq_ignore_ascii_case(y)
                || job_value(job, k, &mut ev).is_some_and(|v| c.contains(&v))
        });
        if !others_hold {
            continue;
        }
        let side = |axis: &str| {
            rect.sides
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(axis))
                .map(|(_, c)| c.clone())
        };
        let mut sides = vec![];
        for axis in [x, y] {
            if let Some(c) = side(axis) {
                sides.push((axis.to_string(), c));
            }
        }
        // One per distinct rectangle; cells count its machines.
        rects.push(Rect {
            machine: rect.machine,
            sides,
        });
    }
    let point: Vec<(String, Option<Value>)> = [x, y]
        .iter()
        .map(|a| (a.to_string(), job_value(job, a, &mut ev)))
        .collect();
    let range = |a: &str| {
        r.numbers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(a))
            .map(|(_, (lo, hi))| if hi > lo { hi - lo } else { 1.0 })
            .unwrap_or(1.0)
    };
    let ranges = vec![(x.to_string(), range(x)), (y.to_string(), range(y))];
    let p = partition::partition(
        &rects,
        &point,
        &ranges,
        &Limits {
            max_cells: PLANE_CELLS,
        },
    );
    let num = |v: &Option<Value>| v.as_ref().and_then(Value::as_number);
    let cells = p
        .cells
        .iter()
        .flat_map(|c| {
            let spans = |axis: &str| -> Vec<AxisSpan> {
                match c.sides.iter().find(|(k, _)| k == axis).map(|(_, s)| s) {
                    Some(Constraint::Numbers(iv)) => iv
                        .iter()
                        .map(|i| AxisSpan {
                            lo: i.lo.is_finite().then_some(i.lo),
                            lo_closed: i.lo_closed,
                            hi: i.hi.is_finite().then_some(i.hi),
                            hi_closed: i.hi_closed,
                        })
                        .collect(),
                    None => vec![AxisSpan {
                        lo: None,
                        lo_closed: false,
                        hi: None,
                        hi_closed: false,
                    }],
                    Some(_) => vec![],
                }
            };
            let machines: u64 = c
                .machines
                .iter()
                .map(|&g| r.weight.get(g).copied().unwrap_or(1))
                .sum();
            let text = partition::describe_range(c);
            let (xs, ys) = (spans(x), spans(y));
            let mut out = vec![];
            for sx in &xs {
                for sy in &ys {
                    out.push(PlaneCell {
                        x: sx.clone(),
                        y: sy.clone(),
                        machines,
                        text: text.clone(),
                    });
                }
            }
            out
        })
        .collect();
    Plane {
        x: x.to_string(),
        y: y.to_string(),
        job: (num(&point[0].1), num(&point[1].1)),
        cells,
        complete: p.complete,
    }
}

#[cfg(test)]
mod lattice_tests {
    use super::{lattice_marks, LatticeMark};

    /// The predicates (numbered from 1) of each subset with mark `want`.
    fn marked(k: usize, succeeds: &[bool], want: LatticeMark) -> Vec<Vec<usize>> {
        let mut v: Vec<Vec<usize>> = lattice_marks(k, succeeds)
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == want)
            .map(|(s, _)| (0..k).filter(|j| s >> j & 1 == 1).map(|j| j + 1).collect())
            .collect();
        v.sort();
        v
    }

    /// Figure 4: machines satisfying {p1, p2}, {p3}, {p4}.
    #[test]
    fn figure4_mfs_and_mss() {
        let rows = [0b0011usize, 0b0100, 0b1000];
        let s: Vec<bool> = (0..16).map(|m| rows.iter().any(|r| r & m == m)).collect();
        assert_eq!(
            marked(4, &s, LatticeMark::Mfs),
            vec![vec![1, 3], vec![1, 4], vec![2, 3], vec![2, 4], vec![3, 4]]
        );
        assert_eq!(
            marked(4, &s, LatticeMark::Mss),
            vec![vec![1, 2], vec![3], vec![4]]
        );
        // A full success has one MSS (the whole clause) and no MFS.
        let all = vec![true; 8];
        assert_eq!(marked(3, &all, LatticeMark::Mss), vec![vec![1, 2, 3]]);
        assert!(marked(3, &all, LatticeMark::Mfs).is_empty());
        // One predicate no machine satisfies: it is the MFS, {} the MSS.
        assert_eq!(marked(1, &[true, false], LatticeMark::Mfs), vec![vec![1]]);
        assert_eq!(
            marked(1, &[true, false], LatticeMark::Mss),
            vec![Vec::<usize>::new()]
        );
    }
}
