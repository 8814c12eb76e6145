//! The submit language's answer to the job builder: a key's value, macros
//! expanded for the proc being built, and the line that set it.

use super::config::SubmitConfig;
use super::origin::Origin;

/// A submit key's value for one proc.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Every `$(macro)` expanded (`$$(attr)` and `$$([expr])` are kept for
    /// match time, as condor_submit keeps them).
    pub value: String,
    /// The line that set it (or the default or configuration it came from).
    pub origin: Origin,
}

/// condor_submit's `SubmitHash` as the job builder sees it, for one proc.
/// Keys are case-insensitive.
pub trait SubmitHash {
    /// `submit_param(key)`: the key's value expanded, `None` when the file
    /// does not set it. A key asked for is marked used (condor_submit warns
    /// of lines no one asked for: "the line 'X = Y' was unused").
    fn param(&self, key: &str) -> Option<Param>;

    /// Every key the file sets, as written and in the order of the file,
    /// with its line: for `+Attr`, `MY.Attr`, `-Attr` and `SUBMIT_ATTRS`.
    fn keys(&self) -> Vec<(String, u32)>;

    /// The raw value of a key, unexpanded (`+Attr` values are expanded by
    /// `param` like any other; this is for messages quoting the line).
    fn raw(&self, key: &str) -> Option<String>;

    /// The submit host's configuration.
    fn config(&self) -> &SubmitConfig;
}

/// A `SubmitHash` over a plain list of already-expanded keys: for the job
/// builder's own tests, before the submit language reads files.
#[derive(Default)]
pub struct PlainHash {
    pub entries: Vec<(String, String, u32)>,
    pub config: SubmitConfig,
    pub used: std::cell::RefCell<std::collections::BTreeSet<String>>,
}

impl PlainHash {
    /// `key = value` lines (no macros), numbered from 1.
    pub fn from_lines(text: &str) -> PlainHash {
        let mut h = PlainHash::default();
        for (i, line) in text.lines().enumerate() {
            if let Some((k, v)) = line.split_once('=') {
                h.entries
                    .push((k.trim().to_string(), v.trim().to_string(), i as u32 + 1));
            }
        }
        h
    }
}

impl SubmitHash for PlainHash {
    fn param(&self, key: &str) -> Option<Param> {
        let (k, v, line) = self
            .entries
            .iter()
            .rev()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))?;
        self.used.borrow_mut().insert(k.to_ascii_lowercase());
        Some(Param {
            value: v.clone(),
            origin: Origin::Line {
                line: *line,
                key: k.clone(),
            },
        })
    }

    fn keys(&self) -> Vec<(String, u32)> {
        self.entries
            .iter()
            .map(|(k, _, l)| (k.clone(), *l))
            .collect()
    }

    fn raw(&self, key: &str) -> Option<String> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v, _)| v.clone())
    }

    fn config(&self) -> &SubmitConfig {
        &self.config
    }
}
