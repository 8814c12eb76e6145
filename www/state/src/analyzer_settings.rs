//! The analyzer's choices that persist (autosave and share links):
//! `AppState::analyze`. The job, the edits in effect (overrides and pinned
//! predicates), the plane's axes, and the edits before them for Undo. What
//! the view does with the worker's suggestions is in
//! `components/analysis/edits.rs`.

use serde::{Deserialize, Serialize};

/// A set of edits to the job: its overrides and pinned predicates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Edits {
    /// Job attributes replaced before analysis (name, expression text).
    pub overrides: Vec<(String, String)>,
    /// Pinned predicates (clause, predicate): suggestions leave them alone.
    pub fixed: Vec<(Option<usize>, usize)>,
}

impl Edits {
    /// Edits from (attribute, text) overrides and (clause, predicate) pins.
    pub fn of(overrides: &[(&str, &str)], fixed: &[(Option<usize>, usize)]) -> Edits {
        Edits {
            overrides: overrides
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            fixed: fixed.to_vec(),
        }
    }
}

/// The analyzer's choices (absent in older links and autosaves, which get
/// the defaults). The pools are the matchmaking views' (`MatchSettings`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnalyzeSettings {
    /// Position of the job in the jobs pool.
    pub job: usize,
    /// The edits in effect: job attributes replaced before analysis
    /// (name, expression text)…
    pub overrides: Vec<(String, String)>,
    /// … and pinned predicates (clause, predicate).
    pub fixed: Vec<(Option<usize>, usize)>,
    /// The plane's axes; `None`: the first two attributes offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plane: Option<(String, String)>,
    /// Show better-analyze's non-narrowing steps too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub all_steps: bool,
    /// Earlier edits, most recent last (Undo pops one). Not saved: a
    /// reload or a link starts a new history.
    #[serde(skip)]
    pub undo: Vec<Edits>,
}

/// Undo keeps at most this many steps.
pub const UNDO_DEPTH: usize = 50;

impl AnalyzeSettings {
    /// Another job: its own edits start afresh (pinned predicates and
    /// overrides were the other job's).
    pub fn for_job(&self, job: usize) -> AnalyzeSettings {
        if job == self.job {
            return self.clone();
        }
        self.fresh(job)
    }

    /// Job `job` with no edits (the display choices kept).
    pub fn fresh(&self, job: usize) -> AnalyzeSettings {
        AnalyzeSettings {
            job,
            plane: self.plane.clone(),
            all_steps: self.all_steps,
            ..Default::default()
        }
    }

    /// The edits in effect.
    pub fn edits(&self) -> Edits {
        Edits {
            overrides: self.overrides.clone(),
            fixed: self.fixed.clone(),
        }
    }

    /// New edits, the present ones kept for Undo.
    pub fn edit(&self, next: Edits) -> AnalyzeSettings {
        let mut s = self.clone();
        let now = s.edits();
        if next == now {
            return s;
        }
        s.undo.push(now);
        if s.undo.len() > UNDO_DEPTH {
            s.undo.remove(0);
        }
        s.overrides = next.overrides;
        s.fixed = next.fixed;
        s
    }

    /// Back to the edits before the last one.
    pub fn undone(&self) -> AnalyzeSettings {
        let mut s = self.clone();
        if let Some(prev) = s.undo.pop() {
            s.overrides = prev.overrides;
            s.fixed = prev.fixed;
        }
        s
    }

    /// Set (or replace) the override of attribute `name`, kept for Undo.
    pub fn with_override(&self, name: &str, text: &str) -> AnalyzeSettings {
        let mut e = self.edits();
        set_override(&mut e.overrides, name, text);
        self.edit(e)
    }

    /// Pin or unpin a predicate (not an edit of the job: not on the undo stack).
    pub fn toggle_fixed(&self, clause: usize, predicate: usize) -> AnalyzeSettings {
        let mut s = self.clone();
        let f = &mut s.fixed;
        let before = f.len();
        f.retain(|&(c, p)| !(p == predicate && c.is_none_or(|c| c == clause)));
        if f.len() == before {
            f.push((Some(clause), predicate));
        }
        s
    }

    pub fn is_fixed(&self, clause: usize, predicate: usize) -> bool {
        self.fixed
            .iter()
            .any(|&(c, p)| p == predicate && c.is_none_or(|c| c == clause))
    }
}

/// Set (or replace) the override of attribute `name` (names match in any
/// case).
pub fn set_override(overrides: &mut Vec<(String, String)>, name: &str, text: &str) {
    match overrides
        .iter_mut()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        Some(o) => o.1 = text.to_string(),
        None => overrides.push((name.to_string(), text.to_string())),
    }
}

/// The override of attribute `name`, if one is in effect.
pub fn override_of<'a>(overrides: &'a [(String, String)], name: &str) -> Option<&'a str> {
    overrides
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, t)| t.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_restores_the_previous_edits() {
        let s = AnalyzeSettings::default();
        let a = s.with_override("Requirements", "TARGET.A == 1");
        let b = a.with_override("requirements", "TARGET.B == 1");
        assert_eq!(
            b.edits(),
            Edits::of(&[("Requirements", "TARGET.B == 1")], &[])
        );
        assert_eq!(b.undo.len(), 2);
        assert_eq!(b.undone().edits(), a.edits());
        assert_eq!(b.undone().undone().edits(), Edits::default());
        // Nothing to undo: unchanged. The same edit again is no step.
        assert_eq!(s.undone(), s);
        assert_eq!(
            b.with_override("Requirements", "TARGET.B == 1").undo.len(),
            2
        );
        let mut deep = s.clone();
        for i in 0..UNDO_DEPTH + 5 {
            deep = deep.with_override("Requirements", &i.to_string());
        }
        assert_eq!(deep.undo.len(), UNDO_DEPTH);
        // Pins are not edits of the job.
        let p = b.toggle_fixed(0, 2);
        assert!(p.is_fixed(0, 2) && !p.is_fixed(1, 2) && p.undo.len() == 2);
        assert!(!p.toggle_fixed(0, 2).is_fixed(0, 2));
        // Another job starts afresh; the same job keeps everything.
        assert_eq!(p.for_job(0), p);
        let other = p.for_job(3);
        assert_eq!(
            (other.job, other.edits(), other.undo.len()),
            (3, Edits::default(), 0)
        );
    }

    #[test]
    fn settings_persist_and_older_states_read() {
        let s = AnalyzeSettings {
            job: 2,
            plane: Some(("ImageSize".into(), "Memory".into())),
            ..Default::default()
        }
        .with_override("Requirements", "true")
        .toggle_fixed(0, 1);
        let json = serde_json::to_string(&s).unwrap();
        // Everything but the undo history.
        let back = serde_json::from_str::<AnalyzeSettings>(&json).unwrap();
        assert_eq!(
            (back.job, back.edits(), &back.plane, back.undo.len()),
            (2, s.edits(), &s.plane, 0)
        );
        let empty: AnalyzeSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, AnalyzeSettings::default());
        assert_eq!(
            serde_json::to_string(&AnalyzeSettings::default()).unwrap(),
            r#"{"job":0,"overrides":[],"fixed":[]}"#
        );
    }
}
