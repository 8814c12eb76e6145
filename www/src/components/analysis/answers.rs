//! The worker's answers to the analyzer (the engine's analysis view), as far
//! as the view reads them. Fields it does not read are left out (each
//! costs the page's download); `default` where older or leaner answers may
//! lack them.

use serde::Deserialize;

/// `PoolResponse::Analysis`.
#[derive(Debug, Deserialize)]
pub struct AnalysisView {
    pub analysis: Analysis,
    #[serde(default)]
    pub report: String,
    #[serde(default)]
    pub lattices: Vec<LatticeGrid>,
    #[serde(default)]
    pub plane_attributes: Vec<String>,
    #[serde(default)]
    pub plane: Option<Plane>,
}

#[derive(Debug, Deserialize)]
pub struct Analysis {
    pub machines: u64,
    pub summary: Summary,
    #[serde(default)]
    pub by_machine: Option<MachineCounts>,
    #[serde(default)]
    pub clauses: Vec<Clause>,
    #[serde(default)]
    pub suggestions: Vec<Suggestion>,
    #[serde(default)]
    pub conflicts: Vec<Conflict>,
    #[serde(default)]
    pub succeeding: Vec<Succeeding>,
    #[serde(default)]
    pub job_changes: Vec<JobChange>,
    #[serde(default)]
    pub missing_attributes: Vec<String>,
    #[serde(default)]
    pub requirements_attribute: String,
    #[serde(default)]
    pub requirements: String,
    #[serde(default)]
    pub job_attributes: Vec<(String, String)>,
    #[serde(default)]
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Summary {
    pub rejected_by_job: u64,
    pub reject_job: u64,
    pub match_but_busy: u64,
    #[serde(rename = "match")]
    pub matched: u64,
}

/// The summary in physical machines, when slots name their `Machine`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct MachineCounts {
    pub machines: u64,
    pub rejected_by_job: u64,
    pub reject_job: u64,
    pub match_but_busy: u64,
    #[serde(rename = "match")]
    pub matched: u64,
}

#[derive(Debug, Deserialize)]
pub struct Clause {
    pub text: String,
    pub matches: u64,
    pub predicates: Vec<Predicate>,
}

#[derive(Debug, Deserialize)]
pub struct Predicate {
    pub text: String,
    pub matches: u64,
    #[serde(default)]
    pub only_failing: u64,
    pub display: String,
    #[serde(default)]
    pub fixed: bool,
}

#[derive(Debug, Deserialize)]
pub struct Suggestion {
    /// `M1`, `M2` or `NLM` (a job change of Nobody Likes Me).
    pub metric: String,
    pub clause: usize,
    pub changes: Vec<Change>,
    pub requirements: String,
    pub matches: u64,
    pub distance: f64,
    /// Attribute → literal the fix sets on the job (a JSON object).
    #[serde(default)]
    pub job_attributes: serde_json::Value,
    #[serde(default)]
    pub both_ways: u64,
    #[serde(default)]
    pub willing: u64,
    #[serde(default)]
    pub submit: Vec<String>,
    #[serde(default)]
    pub metric_rank: usize,
    /// The fix changes its clause alone (so it is named).
    #[serde(default)]
    pub clause_only: bool,
}

impl Suggestion {
    /// The job attributes the fix sets, as (name, ClassAd literal).
    pub fn job_attributes(&self) -> Vec<(String, String)> {
        object_pairs(&self.job_attributes)
    }
}

/// A JSON object of literals as (name, text) pairs.
fn object_pairs(v: &serde_json::Value) -> Vec<(String, String)> {
    v.as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), str::to_string),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

pub use classad::api::session::{Action, Change};

#[derive(Debug, Deserialize)]
pub struct Conflict {
    pub clause: usize,
    pub predicates: Vec<usize>,
    /// "always" (no ad could) or "pool" (no machine of the pool does).
    pub kind: String,
}

#[derive(Debug, Deserialize)]
pub struct Succeeding {
    pub clause: usize,
    pub predicates: Vec<usize>,
}

#[derive(Debug, Deserialize)]
pub struct JobChange {
    /// Attribute → new literal (ClassAd text). Read as a JSON value: the
    /// page already carries that reader (a map type would add its own).
    pub changes: serde_json::Value,
    #[serde(default)]
    pub range: String,
    pub matches: u64,
    #[serde(default)]
    pub machines: Vec<String>,
    pub gained: u64,
    /// Machines that would then match both ways.
    #[serde(default)]
    pub mutual: u64,
    pub distance: f64,
    #[serde(default)]
    pub advice: Vec<(String, String)>,
}

#[derive(Debug, Deserialize)]
pub struct LatticeGrid {
    pub clause: usize,
    pub predicates: Vec<String>,
    pub succeeds: Vec<bool>,
}

#[derive(Debug, Deserialize)]
pub struct Plane {
    pub x: String,
    pub y: String,
    pub job: (Option<f64>, Option<f64>),
    pub cells: Vec<PlaneCell>,
    #[serde(default)]
    pub complete: bool,
}

#[derive(Debug, Deserialize)]
pub struct PlaneCell {
    pub x: Span,
    pub y: Span,
    pub machines: u64,
    #[serde(default)]
    pub text: String,
}

/// An interval of one axis; `None` ends are infinite.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
pub struct Span {
    pub lo: Option<f64>,
    #[serde(default)]
    pub lo_closed: bool,
    pub hi: Option<f64>,
    #[serde(default)]
    pub hi_closed: bool,
}

impl JobChange {
    /// (attribute, new literal) pairs.
    pub fn changes(&self) -> Vec<(String, String)> {
        object_pairs(&self.changes)
    }
}

impl Analysis {
    /// A predicate's display text, by clause and position.
    pub fn predicate(&self, clause: usize, p: usize) -> &str {
        self.clauses
            .get(clause)
            .and_then(|c| c.predicates.get(p))
            .map_or("?", |p| p.display.as_str())
    }

    /// A suggestion's changes, in the paper's words.
    pub fn describe(&self, s: &Suggestion) -> String {
        s.changes
            .iter()
            .map(|c| {
                let p = self.predicate(s.clause, c.predicate);
                match &c.value {
                    Some(v) if c.action == Action::Modify => format!("MODIFY {p} TO {v}"),
                    _ => format!("REMOVE {p}"),
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Clause {
    /// Each predicate's number as the tables show it, the report's and the
    /// view's alike: the paper's, by ascending matches (ties as written),
    /// from 1.
    pub fn numbers(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.predicates.len()).collect();
        order.sort_by_key(|&j| self.predicates[j].matches);
        let mut number = vec![0; order.len()];
        for (shown, &j) in order.iter().enumerate() {
            number[j] = shown + 1;
        }
        number
    }
}

impl Analysis {
    /// "{1, 3}": predicates of a clause by their shown numbers, ascending.
    pub fn set_text(&self, clause: usize, predicates: &[usize]) -> String {
        let numbers = self
            .clauses
            .get(clause)
            .map(Clause::numbers)
            .unwrap_or_default();
        let mut items: Vec<usize> = predicates
            .iter()
            .map(|&p| numbers.get(p).copied().unwrap_or(p + 1))
            .collect();
        items.sort_unstable();
        let items: Vec<String> = items.iter().map(usize::to_string).collect();
        format!("{{{}}}", items.join(", "))
    }
}
