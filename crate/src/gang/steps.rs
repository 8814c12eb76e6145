//! A gangmatching run step by step, for the classroom: which port is
//! filled, which candidates a probe or scan found, each docking tried and
//! its answer, each backtrack. Bounded: past `cap` steps the log stops and
//! says so.

use serde::{Deserialize, Serialize};

use super::dock::Dock;

/// Externally tagged (`{"probe": {…}}`): a reader takes it as it comes,
/// without first copying it into a generic tree (the page reads these).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A request's search begins.
    Request { request: usize, name: String },
    /// The order the ports of an ad that joined the gang will be filled
    /// in, with the initial probes' result sizes where they were made.
    Order {
        ad: String,
        ports: Vec<String>,
        found: Vec<Option<usize>>,
        /// An initial probe found nothing: the ad cannot be completed.
        abort: bool,
    },
    /// An index probe for a port: its query window and how many
    /// candidates (offer ports, or buckets) it returned.
    Probe {
        ad: String,
        port: String,
        window: String,
        found: usize,
    },
    /// The naive search tests every free offer's ports at a port.
    Scan {
        ad: String,
        port: String,
        tested: usize,
        docked: usize,
    },
    /// A candidate docked at a port (`via` its own port): yes, tentative
    /// (labels not bound yet) or no.
    Try {
        ad: String,
        port: String,
        offer: String,
        via: String,
        answer: String,
    },
    /// The candidate is taken out again: nothing completes the gang with it.
    Backtrack {
        ad: String,
        port: String,
        offer: String,
    },
    /// The complete gang re-checked with every label bound.
    Verify { ok: bool },
    /// The request's outcome: its gang line, or none.
    Done {
        request: usize,
        gang: Option<String>,
        limit_hit: bool,
    },
}

/// Collects steps; names the ads (requests first, then offers).
#[derive(Debug, Default)]
pub struct StepLog {
    pub names: Vec<String>,
    pub steps: Vec<Step>,
    pub cap: usize,
    /// Steps were left out past `cap`.
    pub cut: bool,
}

impl StepLog {
    pub fn new(names: Vec<String>, cap: usize) -> StepLog {
        StepLog {
            names,
            steps: Vec::new(),
            cap,
            cut: false,
        }
    }

    pub fn push(&mut self, s: Step) {
        if self.steps.len() < self.cap {
            self.steps.push(s);
        } else {
            self.cut = true;
        }
    }

    /// Whether more steps are still recorded (so callers can skip the work
    /// of describing one).
    pub fn open(&self) -> bool {
        self.steps.len() < self.cap
    }

    /// Record the step `step` builds, if a log is kept and still open
    /// (built only then: describing a step costs).
    pub fn record(log: &mut Option<&mut StepLog>, step: impl FnOnce(&StepLog) -> Step) {
        if let Some(log) = log.as_mut() {
            if log.open() {
                let s = step(log);
                log.push(s);
            } else {
                log.cut = true;
            }
        }
    }

    pub fn name(&self, ad: usize) -> String {
        self.names
            .get(ad)
            .cloned()
            .unwrap_or_else(|| (ad + 1).to_string())
    }
}

pub fn answer(d: Dock) -> &'static str {
    match d {
        Dock::Yes => "yes",
        Dock::Tentative => "tentative",
        Dock::No => "no",
    }
}
