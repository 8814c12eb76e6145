//! A finished analysis, as shown: the analyzer view keeps it, the plane
//! and the results below draw from it.

use classad::api::Mode;

use crate::components::analysis::answers::AnalysisView;
use crate::state::analyzer_settings::Edits;

/// What an analysis was asked for: pools, job, edits, plane, options.
pub(super) type Key = (
    usize,
    usize,
    usize,
    Edits,
    Option<(String, String)>,
    bool,
    Mode,
    Option<String>,
);

/// A finished analysis, as shown.
pub struct Shown {
    pub view: AnalysisView,
    pub(super) key: Key,
    pub(super) ms: f64,
    /// The job's label in its pool.
    pub(super) label: String,
}

/// The same result (results are shared, never compared by content).
impl PartialEq for Shown {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self, o)
    }
}
