//! A finished gang search, as shown: the gang view keeps it, its steps
//! (the classroom) draw from it.

use classad::api::session::GangAlgorithm;

use classad::api::session::GangView as Answer;

/// A finished run, as shown.
pub struct Shown {
    pub answer: Answer,
    pub ms: f64,
    /// What it was run on (pools, algorithm, seed, mode), to tell a stale
    /// result.
    pub(super) key: Key,
}

pub(super) type Key = (
    usize,
    usize,
    GangAlgorithm,
    u64,
    classad::api::Mode,
    String,
    String,
);

impl PartialEq for Shown {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self, o)
    }
}
