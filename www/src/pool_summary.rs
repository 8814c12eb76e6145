//! What a parse of a pool tells the page: its ads (label, place, size) and
//! its problems. Shared by the worker that makes it and the page that reads
//! it, so neither needs the other's module.

use classad::api::Diagnostic;
use serde::{Deserialize, Serialize};

/// One ad of a pool: what the lists show and where its text is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdInfo {
    pub label: String,
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub n_attrs: usize,
}

/// The ads and problems of one pool text (what the worker sends back: no
/// attribute lists, which for 10,000 ads would be megabytes of JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolSummary {
    pub ads: Vec<AdInfo>,
    pub diagnostics: Vec<Diagnostic>,
}
