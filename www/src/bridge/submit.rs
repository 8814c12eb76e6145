//! A submit file turned into job ads, as condor_submit makes them: what the
//! page asks the engine worker (verb `submit`) and what it answers. Both
//! sides link this module; the worker answers (`worker/submit.rs`).

use serde::{Deserialize, Serialize};

/// The request: the submit file, the other pools by name (what `include :`
/// and `queue from` read, what `queue matching` globs over), the submit
/// host's configuration and condor_submit's version (the engine's type: the
/// analyzer sends it too, to have its fixes as edits of the file).
pub use classad::api::session::SubmitSource as SubmitRequest;

/// A problem at a line of the submit file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmitProblem {
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub warning: bool,
}

/// The answer: the job ads as text (new syntax, every attribute under a
/// comment naming its origin), how many, and condor_submit's messages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Submitted {
    /// Sent after the JSON, not in it (`bridge::engine::submit`).
    #[serde(skip)]
    pub ads: String,
    pub procs: usize,
    pub problems: Vec<SubmitProblem>,
    /// Why procs were left out, when the bound stopped the queue.
    pub cut: Option<String>,
    /// The first job ad by the lines that made it, a line of text per
    /// line of the file: `LINE\tKEY\tWHAT\tWHAT…` (line 0: condor_submit's
    /// defaults and the configuration). Text, not a structure: the page
    /// reads it with `split` (a structure's reader costs it 1.5 KB).
    #[serde(default)]
    pub made: String,
}

impl Submitted {
    pub fn refused(&self) -> bool {
        self.problems.iter().any(|p| !p.warning)
    }
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Whether a pool's text is a submit description file rather than ads:
/// a `queue` (or `iterate`) statement, `key = value` lines, no `[` ad.
pub fn looks_like_submit(text: &str) -> bool {
    // The start tells: a production pool is megabytes, a hostile one a
    // single line of them, and this runs as the page renders.
    let head = &text[..floor_boundary(text, 64 << 10)];
    let mut queue = false;
    let mut assignments = 0;
    for l in head.lines().take(5000) {
        let t = l.trim_start();
        let t = &t[..floor_boundary(t, 256)];
        if t.starts_with('[') || t.starts_with('{') || t.starts_with('<') {
            return false;
        }
        // `queue …` or `iterate …`: the word alone, not an attribute
        // (`QueuedJobs = 3`, `Queue = 1`).
        let word = t
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let rest = t[word.len().min(t.len())..].trim_start();
        let statement =
            word == "queue" || (word.len() >= 4 && "iterate".starts_with(word.as_str()));
        if statement && !rest.starts_with('=') {
            queue = true;
        } else if t.contains('=') && !t.starts_with('#') {
            assignments += 1;
        }
    }
    queue && assignments > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submit_file_is_told_from_ads() {
        assert!(looks_like_submit("executable = /bin/true\nqueue 2\n"));
        assert!(looks_like_submit("x = 1\n  iterate name in (a b)\n"));
        assert!(!looks_like_submit("[ a = 1 ]\nqueue\n"));
        assert!(!looks_like_submit("Name = \"slot1\"\nMemory = 1024\n"));
        // condor_status -l ads with attributes named like the statement.
        assert!(!looks_like_submit("QueuedJobs = 3\nName = \"x\"\n"));
        assert!(!looks_like_submit("Queue = 1\nName = \"x\"\n"));
        assert!(!looks_like_submit("Iter = 2\nName = \"x\"\n"));
        // Megabytes on one line: only its start is read.
        assert!(!looks_like_submit(&"\0".repeat(3 << 20)));
        assert!(looks_like_submit(&format!(
            "x = {}\nqueue\n",
            "é".repeat(200)
        )));
    }
}
