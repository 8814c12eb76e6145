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
    /// The parsing worker's wasm memory after the parse, in bytes (its
    /// peak: wasm memory only grows); shown to measurements as the pool
    /// summary's `data-engine-memory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_memory: Option<u64>,
}

/// A summary as lines, for a big pool (the parse worker's `pool-lines`
/// answer): the first line is the summary without its ads (JSON), then one
/// line per ad, `[label, start, end, line, attributes]` (JSON strings have
/// no raw newline). Reading 20,000 ads' JSON in one go was a task of 80 ms
/// on the page; lines are read a slice per task ([`SummaryLines`]).
pub fn to_lines(s: &PoolSummary) -> String {
    let head = PoolSummary {
        ads: vec![],
        diagnostics: s.diagnostics.clone(),
        engine_memory: s.engine_memory,
    };
    let mut out = serde_json::to_string(&head).unwrap_or_default();
    for a in &s.ads {
        out.push('\n');
        out.push_str(
            &serde_json::to_string(&(&a.label, a.start, a.end, a.line, a.n_attrs))
                .unwrap_or_default(),
        );
    }
    out
}

/// Reading a [`to_lines`] answer a slice at a time.
pub struct SummaryLines {
    text: String,
    /// Where the next ad's line starts.
    at: usize,
    summary: PoolSummary,
}

impl SummaryLines {
    /// The summary's first line read; the ads to come.
    pub fn new(text: String) -> Result<SummaryLines, String> {
        let (head, _) = text.split_once('\n').unwrap_or((&text, ""));
        let summary: PoolSummary = serde_json::from_str(head).map_err(|e| e.to_string())?;
        let at = (head.len() + 1).min(text.len());
        Ok(SummaryLines { text, at, summary })
    }

    /// Read up to `n` more ads; `true` when all are read.
    pub fn step(&mut self, n: usize) -> Result<bool, String> {
        for _ in 0..n {
            if self.at >= self.text.len() {
                return Ok(true);
            }
            let rest = &self.text[self.at..];
            let line = rest.split_once('\n').map_or(rest, |(l, _)| l);
            self.at += line.len() + 1;
            let (label, start, end, line, n_attrs): (String, usize, usize, u32, usize) =
                serde_json::from_str(line).map_err(|e| e.to_string())?;
            self.summary.ads.push(AdInfo {
                label,
                start,
                end,
                line,
                n_attrs,
            });
        }
        Ok(self.at >= self.text.len())
    }

    pub fn finish(self) -> PoolSummary {
        self.summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_as_the_summary() {
        let s = crate::worker::replies::summarize(
            "[ Name = \"a\\nb\" ]\n[ Name = \"c\"; x = ]\n[ Name = \"\u{e9}\" ]\n",
            Default::default(),
        );
        assert_eq!(s.ads.len(), 2);
        assert!(s.ads[0].label.contains('\n'), "{:?}", s.ads[0].label);
        assert!(!s.diagnostics.is_empty());
        let mut r = SummaryLines::new(to_lines(&s)).unwrap();
        while !r.step(2).unwrap() {}
        assert_eq!(r.finish(), s);
        let empty = PoolSummary::default();
        let mut r = SummaryLines::new(to_lines(&empty)).unwrap();
        assert!(r.step(5).unwrap());
        assert_eq!(r.finish(), empty);
    }
}
