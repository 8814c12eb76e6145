//! Where each attribute of a job ad and each clause of its Requirements
//! came from: what the page and `classad submit --explain` show.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// A line of the submit file (1-based), the key as the file writes it.
    Line { line: u32, key: String },
    /// condor_submit's own default ("RequestCpus 1 when request_cpus is
    /// not set").
    Default { why: String },
    /// A configuration value of the submit host (`ARCH`, `JOB_DEFAULT_REQUESTMEMORY`…).
    Config { key: String },
    /// Made by condor_submit from other settings, and why ("added because
    /// request_memory is set").
    Derived { why: String },
}
