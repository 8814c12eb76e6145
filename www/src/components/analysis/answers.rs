//! The analyzer's answer as the engine writes it (`classad::api::session`),
//! and the wording the views give it: predicates by the paper's numbers,
//! suggestions in the paper's words, the attributes a fix or a job change
//! sets.

pub use classad::api::session::{
    Action, Analysis, AnalysisView, AxisSpan as Span, Change, ClauseReport as Clause, Conflict,
    JobChange, LatticeGrid, MachineCounts, Plane, PlaneCell, PredicateReport as Predicate,
    Rejection, Succeeding, Suggestion, Summary, ValueOption,
};

/// What the views say of an analysis.
pub trait AnalysisWords {
    /// A predicate's display text, by clause and position.
    fn predicate(&self, clause: usize, p: usize) -> &str;
    /// A suggestion's changes, in the paper's words.
    fn describe(&self, s: &Suggestion) -> String;
    /// "{1, 3}": predicates of a clause by their shown numbers, ascending.
    fn set_text(&self, clause: usize, predicates: &[usize]) -> String;
}

impl AnalysisWords for Analysis {
    fn predicate(&self, clause: usize, p: usize) -> &str {
        self.clauses
            .get(clause)
            .and_then(|c| c.predicates.get(p))
            .map_or("?", |p| p.display.as_str())
    }

    fn describe(&self, s: &Suggestion) -> String {
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

    fn set_text(&self, clause: usize, predicates: &[usize]) -> String {
        let numbers = self
            .clauses
            .get(clause)
            .map(ClauseNumbers::numbers)
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

/// The paper's numbering of a clause's predicates.
pub trait ClauseNumbers {
    /// Each predicate's number as the tables show it, the report's and the
    /// view's alike: by ascending matches (ties as written), from 1.
    fn numbers(&self) -> Vec<usize>;
}

impl ClauseNumbers for Clause {
    fn numbers(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.predicates.len()).collect();
        order.sort_by_key(|&j| self.predicates[j].matches);
        let mut number = vec![0; order.len()];
        for (shown, &j) in order.iter().enumerate() {
            number[j] = shown + 1;
        }
        number
    }
}

/// The job attributes a fix sets, as (name, ClassAd literal).
pub trait FixAttributes {
    fn job_attributes(&self) -> Vec<(String, String)>;
}

impl FixAttributes for Suggestion {
    fn job_attributes(&self) -> Vec<(String, String)> {
        pairs(&self.job_attributes)
    }
}

/// A job change's (attribute, new literal) pairs.
pub trait ChangedAttributes {
    fn changes(&self) -> Vec<(String, String)>;
}

impl ChangedAttributes for JobChange {
    fn changes(&self) -> Vec<(String, String)> {
        pairs(&self.changes)
    }
}

fn pairs(m: &std::collections::BTreeMap<String, String>) -> Vec<(String, String)> {
    m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}
