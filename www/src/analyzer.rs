//! The analyzer view's page-side logic ("Why doesn't it match?", seed 000
//! §3), kept apart from the components so it can be unit-tested: the
//! choices that persist (job, edits, pinned predicates, plane axes, undo),
//! what the worker's analysis reads as, the marks of Figure 4's subset
//! lattice (minimal failing / maximal succeeding sets) and its layout, and
//! the geometry of Figure 5's plane.

use serde::{Deserialize, Serialize};

mod answers;
pub use answers::*;

// ---------------------------------------------------------------------
// What persists (autosave and share links): `AppState::analyze`.

/// A set of edits to the job: its overrides and pinned predicates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Edits {
    /// Job attributes replaced before analysis (name, expression text).
    pub overrides: Vec<(String, String)>,
    /// Pinned predicates (clause, predicate): suggestions leave them alone.
    pub fixed: Vec<(Option<usize>, usize)>,
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

fn set_override(overrides: &mut Vec<(String, String)>, name: &str, text: &str) {
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

/// The edits after applying a suggestion: the job's requirements become
/// the suggestion's, and pinned predicates of its clause move down past
/// the predicates it removes (the rewritten clause keeps the order).
pub fn apply_suggestion(edits: &Edits, attribute: &str, s: &Suggestion) -> Edits {
    let mut e = edits.clone();
    set_override(&mut e.overrides, attribute, &s.requirements);
    let removed: Vec<usize> = s
        .changes
        .iter()
        .filter(|c| c.action == "remove")
        .map(|c| c.predicate)
        .collect();
    e.fixed = e
        .fixed
        .iter()
        .filter_map(|&(c, p)| {
            if c.is_some_and(|c| c != s.clause) || (c.is_none() && removed.is_empty()) {
                return Some((c, p));
            }
            if removed.contains(&p) {
                return None;
            }
            Some((
                c,
                p.saturating_sub(removed.iter().filter(|&&r| r < p).count()),
            ))
        })
        .collect();
    e
}

/// The edits after applying a fix: its job attributes become overrides,
/// and its requirements when they differ from those analyzed.
pub fn apply_fix(edits: &Edits, attribute: &str, analyzed: &str, s: &Suggestion) -> Edits {
    let mut e = if s.requirements != analyzed {
        apply_suggestion(edits, attribute, s)
    } else {
        edits.clone()
    };
    for (name, value) in s.job_attributes() {
        set_override(&mut e.overrides, &name, &value);
    }
    e
}

/// The edits after applying a job change (Nobody Likes Me): each changed
/// attribute becomes an override.
pub fn apply_job_change(edits: &Edits, change: &JobChange) -> Edits {
    let mut e = edits.clone();
    for (name, value) in change.changes() {
        set_override(&mut e.overrides, &name, &value);
    }
    e
}

// ---------------------------------------------------------------------
// Figure 4: the subset lattice of a failing clause.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Minimal failing set: fails, every one-smaller subset succeeds.
    Mfs,
    /// Maximal succeeding set: succeeds, no one-larger superset does.
    Mss,
    Plain,
}

/// Predicates at most drawn (2^6 = 64 sets).
pub const LATTICE_MAX: usize = 6;

/// The number of predicates of a lattice of `sets` subsets (`None`: not a
/// power of two, or too big to draw).
pub fn lattice_size(sets: usize) -> Option<usize> {
    (sets.is_power_of_two() && sets <= 1 << LATTICE_MAX).then(|| sets.trailing_zeros() as usize)
}

/// The mark of each subset (indexed by mask), from `succeeds` (same
/// indexing). Wrong-sized input gives no marks.
pub fn lattice_marks(succeeds: &[bool]) -> Vec<Mark> {
    let Some(k) = lattice_size(succeeds.len()) else {
        return vec![];
    };
    (0..succeeds.len())
        .map(|s| {
            let bits = (0..k).filter(|j| s >> j & 1 == 1);
            if succeeds[s] {
                let mut out = (0..k).filter(|j| s >> j & 1 == 0);
                if out.all(|j| !succeeds[s | 1 << j]) {
                    return Mark::Mss;
                }
            } else if bits.clone().all(|j| succeeds[s & !(1 << j)]) {
                return Mark::Mfs;
            }
            Mark::Plain
        })
        .collect()
}

/// The subsets of `k` predicates by level (size), the full set's level
/// first; within a level in lexicographic order of their predicates.
/// (Generated in order: a sort would add its code to the page.)
pub fn lattice_levels(k: usize) -> Vec<Vec<usize>> {
    fn combos(from: usize, k: usize, left: usize, mask: usize, out: &mut Vec<usize>) {
        if left == 0 {
            out.push(mask);
            return;
        }
        for j in from..k {
            if k - j >= left {
                combos(j + 1, k, left - 1, mask | 1 << j, out);
            }
        }
    }
    let k = k.min(LATTICE_MAX);
    (0..=k)
        .rev()
        .map(|size| {
            let mut level = vec![];
            combos(0, k, size, 0, &mut level);
            level
        })
        .collect()
}

/// The predicates (0-based) of a subset mask.
pub fn members(s: usize, k: usize) -> Vec<usize> {
    (0..k).filter(|j| s >> j & 1 == 1).collect()
}

// ---------------------------------------------------------------------
// Figure 5: the plane's geometry.

/// The plane to draw: the chosen axes when both are offered, else the
/// attributes the best fix changes (`preferred`) that are offered, then
/// the first others offered (`None` with fewer than two).
pub fn plane_axes(
    chosen: Option<&(String, String)>,
    offered: &[String],
    preferred: &[String],
) -> Option<(String, String)> {
    let find = |a: &str| offered.iter().find(|o| o.eq_ignore_ascii_case(a));
    match chosen {
        Some((x, y)) if find(x).is_some() && find(y).is_some() && !x.eq_ignore_ascii_case(y) => {
            Some((x.clone(), y.clone()))
        }
        _ => {
            let mut picks: Vec<&String> = preferred.iter().filter_map(|p| find(p)).collect();
            for o in offered {
                if !picks.iter().any(|p| p.eq_ignore_ascii_case(o)) {
                    picks.push(o);
                }
            }
            match picks[..] {
                [x, y, ..] => Some((x.clone(), y.clone())),
                _ => None,
            }
        }
    }
}

/// The axes after picking `pick` for one of them: picking the other
/// axis' attribute swaps the two.
pub fn pick_axis(axes: &(String, String), pick: &str, is_x: bool) -> (String, String) {
    let (x, y) = axes.clone();
    match is_x {
        true if pick == y => (y, x),
        true => (pick.to_string(), y),
        false if pick == x => (y, x),
        false => (x, pick.to_string()),
    }
}

/// The drawn window of one axis: every finite bound and the job's value,
/// padded, so infinite sides have somewhere to end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    pub lo: f64,
    pub hi: f64,
}

impl Extent {
    /// Around `values` (finite ones), padded by `pad` of the range on each
    /// side; a single value gets a window around it; none gets [0, 1].
    pub fn around(values: impl IntoIterator<Item = f64>, pad: f64) -> Extent {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.into_iter().filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if lo > hi {
            return Extent { lo: 0.0, hi: 1.0 };
        }
        let w = if hi > lo {
            hi - lo
        } else if lo != 0.0 {
            lo.abs()
        } else {
            1.0
        };
        Extent {
            lo: lo - w * pad,
            hi: hi + w * pad,
        }
    }

    /// A span's ends, clipped to the window (infinite ends at its edges).
    pub fn clip(&self, s: &Span) -> (f64, f64) {
        // max/min, not clamp: clamp panics on a window it finds odd.
        let lo = s.lo.map_or(self.lo, |v| v.max(self.lo).min(self.hi));
        let hi = s.hi.map_or(self.hi, |v| v.max(self.lo).min(self.hi));
        (lo, hi.max(lo))
    }

    /// Where `v` falls between `a` (at lo) and `b` (at hi).
    pub fn scale(&self, v: f64, a: f64, b: f64) -> f64 {
        let w = self.hi - self.lo;
        if w <= 0.0 {
            return (a + b) / 2.0;
        }
        a + (v - self.lo) / w * (b - a)
    }
}

/// How far the plane's window reaches past the outermost bounds (a share
/// of their range), so cells going on forever show as wide as the others.
pub const PLANE_PAD: f64 = 0.35;

/// The window of each axis for a plane's cells and job point.
pub fn plane_extents(p: &Plane) -> (Extent, Extent) {
    let ends = |s: &Span| [s.lo, s.hi];
    let xs = p
        .cells
        .iter()
        .flat_map(|c| ends(&c.x))
        .chain([p.job.0])
        .flatten();
    let ys = p
        .cells
        .iter()
        .flat_map(|c| ends(&c.y))
        .chain([p.job.1])
        .flatten();
    (Extent::around(xs, PLANE_PAD), Extent::around(ys, PLANE_PAD))
}

/// The finite bounds of an axis, distinct and sorted (the tick marks).
pub fn bounds(spans: impl IntoIterator<Item = Span>) -> Vec<f64> {
    let mut v: Vec<f64> = vec![];
    for b in spans.into_iter().flat_map(|s| [s.lo, s.hi]).flatten() {
        if let (true, Err(at)) = (b.is_finite(), v.binary_search_by(|x| x.total_cmp(&b))) {
            v.insert(at, b);
        }
    }
    v
}

/// A number for an axis: ClassAd's M/G/T suffixes (binary) when exact,
/// else the number itself (six decimals at most).
pub fn short_number(v: f64) -> String {
    for (unit, s) in [(1u64 << 40, "T"), (1 << 30, "G"), (1 << 20, "M")] {
        let q = v / unit as f64;
        if v.abs() >= unit as f64 && q.fract() == 0.0 && q.abs() < 1e6 {
            return format!("{q}{s}");
        }
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        let sign = if v < 0.0 { "-" } else { "" };
        return format!(
            "{sign}{}",
            crate::components::widgets::words::thousands(v.abs() as u64)
        );
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// An interval in words: "[64M, 128M)", "≥ 1G", "any".
pub fn span_text(s: &Span) -> String {
    match (s.lo, s.hi) {
        (None, None) => "any value".into(),
        (Some(lo), None) => format!(
            "{} {}",
            if s.lo_closed { "≥" } else { ">" },
            short_number(lo)
        ),
        (None, Some(hi)) => format!(
            "{} {}",
            if s.hi_closed { "≤" } else { "<" },
            short_number(hi)
        ),
        (Some(lo), Some(hi)) if lo == hi => format!("= {}", short_number(lo)),
        (Some(lo), Some(hi)) => format!(
            "{}{}, {}{}",
            if s.lo_closed { '[' } else { '(' },
            short_number(lo),
            short_number(hi),
            if s.hi_closed { ']' } else { ')' }
        ),
    }
}

/// Tick positions (pixels, in order along the axis) that do not crowd:
/// each at least `gap` from the last kept.
pub fn sparse_ticks(px: &[f64], gap: f64) -> Vec<usize> {
    let mut kept: Vec<usize> = vec![];
    let mut last = f64::NAN;
    for (i, &p) in px.iter().enumerate() {
        if last.is_nan() || (p - last).abs() >= gap {
            kept.push(i);
            last = p;
        }
    }
    kept
}

/// The bar of a predicate: (matching share, only-failing share), each in
/// [0, 1] of the machines.
pub fn bar(matches: u64, only_failing: u64, machines: u64) -> (f64, f64) {
    if machines == 0 {
        return (0.0, 0.0);
    }
    let m = (matches as f64 / machines as f64).clamp(0.0, 1.0);
    let o = (only_failing as f64 / machines as f64).clamp(0.0, 1.0 - m);
    (m, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use classad::session::{PoolRequest, Session};

    fn edits(o: &[(&str, &str)], fixed: &[(Option<usize>, usize)]) -> Edits {
        Edits {
            overrides: o
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            fixed: fixed.to_vec(),
        }
    }

    /// Figure 4: machines satisfying {p1, p2}, {p3}, {p4}.
    fn figure4() -> Vec<bool> {
        let rows = [0b0011usize, 0b0100, 0b1000];
        (0..16).map(|s| rows.iter().any(|r| r & s == s)).collect()
    }

    fn marked(succeeds: &[bool], want: Mark) -> Vec<Vec<usize>> {
        let k = lattice_size(succeeds.len()).unwrap();
        let mut v: Vec<Vec<usize>> = lattice_marks(succeeds)
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == want)
            .map(|(s, _)| members(s, k).iter().map(|p| p + 1).collect())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn figure4_mfs_and_mss() {
        let s = figure4();
        assert_eq!(
            marked(&s, Mark::Mfs),
            vec![vec![1, 3], vec![1, 4], vec![2, 3], vec![2, 4], vec![3, 4]]
        );
        assert_eq!(marked(&s, Mark::Mss), vec![vec![1, 2], vec![3], vec![4]]);
        // Nothing to mark in a lattice of the wrong size; a full success has
        // one MSS (the whole clause) and no MFS.
        assert!(lattice_marks(&[true, false, true]).is_empty());
        assert!(lattice_marks(&[true; 1 << 7]).is_empty());
        let all = vec![true; 8];
        assert_eq!(marked(&all, Mark::Mss), vec![vec![1, 2, 3]]);
        assert!(marked(&all, Mark::Mfs).is_empty());
        // One predicate no machine satisfies: it is the MFS, {} the MSS.
        assert_eq!(marked(&[true, false], Mark::Mfs), vec![vec![1]]);
        assert_eq!(marked(&[true, false], Mark::Mss), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn levels_put_the_full_clause_on_top() {
        let l = lattice_levels(4);
        assert_eq!(l.len(), 5);
        assert_eq!(l[0], vec![0b1111]);
        assert_eq!(l[4], vec![0]);
        assert_eq!(
            l.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![1, 4, 6, 4, 1]
        );
        // Lexicographic: {1,2}, {1,3}, {1,4}, {2,3}, {2,4}, {3,4}.
        assert_eq!(l[2], vec![0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100]);
        assert_eq!(lattice_levels(9).len(), LATTICE_MAX + 1);
    }

    #[test]
    fn undo_restores_the_previous_edits() {
        let s = AnalyzeSettings::default();
        let a = s.with_override("Requirements", "TARGET.A == 1");
        let b = a.with_override("requirements", "TARGET.B == 1");
        assert_eq!(b.edits(), edits(&[("Requirements", "TARGET.B == 1")], &[]));
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
    fn suggestions_and_job_changes_become_overrides() {
        let sug = Suggestion {
            metric: "M1".into(),
            clause: 0,
            changes: vec![
                Change {
                    predicate: 0,
                    action: "remove".into(),
                    value: None,
                },
                Change {
                    predicate: 2,
                    action: "modify".into(),
                    value: Some("5".into()),
                },
            ],
            requirements: "TARGET.B == 1 && TARGET.C >= 5".into(),
            matches: 2,
            distance: 2.0,
            job_attributes: serde_json::Value::Null,
            both_ways: 0,
            willing: 0,
            submit: vec![],
            metric_rank: 0,
            clause_only: true,
        };
        // Pins after a removed predicate move down; those of other clauses stay.
        let e = edits(
            &[("ImageSize", "7")],
            &[(Some(0), 1), (Some(0), 3), (Some(1), 3)],
        );
        let out = apply_suggestion(&e, "Requirements", &sug);
        assert_eq!(
            out,
            edits(
                &[
                    ("ImageSize", "7"),
                    ("Requirements", "TARGET.B == 1 && TARGET.C >= 5")
                ],
                &[(Some(0), 0), (Some(0), 2), (Some(1), 3)]
            )
        );
        let jc = JobChange {
            changes: serde_json::json!({"ImageSize": "1220608"}),
            range: String::new(),
            matches: 837,
            machines: vec![],
            gained: 30,
            mutual: 30,
            distance: 1.0,
            advice: vec![],
        };
        let out = apply_job_change(&out, &jc);
        assert_eq!(override_of(&out.overrides, "imagesize"), Some("1220608"));
        assert_eq!(out.overrides.len(), 2);
        // A fix: its job attributes, and its requirements only when changed.
        let fix = Suggestion {
            job_attributes: serde_json::json!({"RequestMemory": "1900"}),
            requirements: "TARGET.Memory >= RequestMemory".into(),
            changes: vec![],
            ..sug
        };
        let applied = apply_fix(
            &Edits::default(),
            "Requirements",
            "TARGET.Memory >= RequestMemory",
            &fix,
        );
        assert_eq!(applied, edits(&[("RequestMemory", "1900")], &[]));
        let applied = apply_fix(
            &Edits::default(),
            "Requirements",
            "TARGET.Memory >= 2000",
            &fix,
        );
        assert_eq!(
            override_of(&applied.overrides, "requirements"),
            Some("TARGET.Memory >= RequestMemory")
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

    #[test]
    fn plane_geometry() {
        let sp = |lo: Option<f64>, hi: Option<f64>| Span {
            lo,
            lo_closed: true,
            hi,
            hi_closed: false,
        };
        let e = Extent::around([64.0, 128.0, 100.0], 0.25);
        assert_eq!(
            e,
            Extent {
                lo: 48.0,
                hi: 144.0
            }
        );
        assert_eq!(e.clip(&sp(None, Some(64.0))), (48.0, 64.0));
        assert_eq!(e.clip(&sp(Some(128.0), None)), (128.0, 144.0));
        assert_eq!(e.clip(&sp(None, None)), (48.0, 144.0));
        assert_eq!(e.scale(48.0, 0.0, 100.0), 0.0);
        assert_eq!(e.scale(144.0, 10.0, 0.0), 0.0);
        assert_eq!(Extent::around([], 0.1), Extent { lo: 0.0, hi: 1.0 });
        assert_eq!(
            Extent::around([5.0, f64::NAN], 0.5),
            Extent { lo: 2.5, hi: 7.5 }
        );
        assert_eq!(Extent::around([0.0], 0.5), Extent { lo: -0.5, hi: 0.5 });
        assert_eq!(
            bounds([
                sp(Some(2.0), None),
                sp(None, Some(1.0)),
                sp(Some(1.0), Some(2.0))
            ]),
            vec![1.0, 2.0]
        );
        assert_eq!(short_number(134217728.0), "128M");
        assert_eq!(short_number(1220608.0), "1,220,608");
        assert_eq!(short_number(-3.0), "-3");
        assert_eq!(short_number(0.25), "0.25");
        assert_eq!(short_number(1073741824.0), "1G");
        assert_eq!(
            span_text(&sp(Some(64.0 * 1048576.0), Some(128.0 * 1048576.0))),
            "[64M, 128M)"
        );
        assert_eq!(span_text(&sp(None, None)), "any value");
        assert_eq!(span_text(&sp(Some(1024.0), None)), "≥ 1,024");
        assert_eq!(
            sparse_ticks(&[0.0, 5.0, 30.0, 50.0, 100.0], 20.0),
            vec![0, 2, 3, 4]
        );
        assert_eq!(sparse_ticks(&[300.0, 290.0, 250.0], 20.0), vec![0, 2]);
        assert_eq!(bar(2, 2, 8), (0.25, 0.25));
        assert_eq!(bar(8, 3, 8), (1.0, 0.0));
        assert_eq!(bar(1, 1, 0), (0.0, 0.0));
        let offered = vec![
            "ImageSize".to_string(),
            "Memory".to_string(),
            "Disk".to_string(),
        ];
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            plane_axes(None, &offered, &[]),
            Some(pair("ImageSize", "Memory"))
        );
        assert_eq!(
            plane_axes(Some(&pair("disk", "ImageSize")), &offered, &[]),
            Some(pair("disk", "ImageSize"))
        );
        assert_eq!(
            plane_axes(Some(&pair("Foo", "ImageSize")), &offered, &[]),
            Some(pair("ImageSize", "Memory"))
        );
        assert_eq!(
            plane_axes(Some(&pair("Disk", "Disk")), &offered, &[]),
            Some(pair("ImageSize", "Memory"))
        );
        assert_eq!(plane_axes(None, &offered[..1], &[]), None);
        // The best fix's attributes first, as offered spelled.
        assert_eq!(
            plane_axes(None, &offered, &["disk".to_string(), "Nope".to_string()]),
            Some(pair("Disk", "ImageSize"))
        );
        assert_eq!(pick_axis(&pair("A", "B"), "C", true), pair("C", "B"));
        assert_eq!(pick_axis(&pair("A", "B"), "B", true), pair("B", "A"));
        assert_eq!(pick_axis(&pair("A", "B"), "A", false), pair("B", "A"));
    }

    // -----------------------------------------------------------------
    // The worker's answers on the paper's pools read into the mirrors.

    fn ask(s: &mut Session, json: serde_json::Value) -> String {
        let req: PoolRequest = serde_json::from_value(json).unwrap();
        crate::worker::replies::view_json(s.handle_pool(req, &mut |_, _| true))
    }

    fn analyze(name: &str, extra: serde_json::Value) -> AnalysisView {
        let read = |f: &str| {
            std::fs::read_to_string(format!(
                "{}/../tests/analysis/{f}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        };
        let mut s = Session::new();
        for (id, f) in [
            ("j", format!("{name}_job.classad")),
            ("m", format!("{name}_machines.classad")),
        ] {
            ask(
                &mut s,
                serde_json::json!({"op": "load_pool", "id": id, "text": read(&f)}),
            );
        }
        let mut req = serde_json::json!({"op": "analyze", "jobs": "j", "machines": "m", "job": 0});
        if let (Some(r), Some(x)) = (req.as_object_mut(), extra.as_object()) {
            r.extend(x.clone());
        }
        let json = ask(&mut s, req);
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
    }

    /// Each analyzer entry of the gallery opens on its job (pool 0, ad 0)
    /// against its machines, and the worker analyzes it.
    #[test]
    fn gallery_entries_open_on_their_job() {
        let entries: Vec<_> = crate::state::examples::EXAMPLES
            .iter()
            .filter(|e| e.view == crate::state::app_state::View::Analyze)
            .collect();
        assert_eq!(entries.len(), 7);
        for ex in entries {
            let st = ex.state();
            let (jobs, machines) = crate::state::pool_roles::pick_pools(&st.pools, &st.matching);
            assert_eq!(
                (jobs, machines, st.analyze.job),
                (Some(0), Some(1), 0),
                "{}",
                ex.id
            );
            let mut s = Session::new();
            for (id, p) in [("j", &st.pools[0]), ("m", &st.pools[1])] {
                ask(
                    &mut s,
                    serde_json::json!({"op": "load_pool", "id": id, "text": &*p.text}),
                );
            }
            let json = ask(
                &mut s,
                serde_json::json!({"op": "analyze", "jobs": "j", "machines": "m", "job": 0}),
            );
            let v: AnalysisView =
                serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}: {json}", ex.id));
            assert!(v.analysis.machines > 0 && !v.report.is_empty(), "{}", ex.id);
        }
    }

    #[test]
    fn the_paper_examples_read() {
        let v = analyze("eight", serde_json::json!({}));
        let a = &v.analysis;
        assert_eq!((a.machines, a.summary.rejected_by_job), (8, 8));
        assert_eq!(
            a.clauses[0]
                .predicates
                .iter()
                .map(|p| p.matches)
                .collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        let m1 = a.suggestions.iter().find(|s| s.metric == "M1").unwrap();
        assert_eq!(
            (a.describe(m1).as_str(), m1.matches),
            ("REMOVE Arch == \"ALPHA\"", 2)
        );
        assert!(v.report.contains("Of 8 slots on 8 machines,"));
        // Applying it: the job's requirements now reject 8 - 2 machines.
        let e = apply_suggestion(&Edits::default(), &a.requirements_attribute, m1);
        let after = analyze("eight", serde_json::json!({"overrides": e.overrides}));
        assert_eq!(after.analysis.summary.rejected_by_job, 6);
        // Pinning Arch: no suggestion touches it.
        let pinned = analyze("eight", serde_json::json!({"fixed": [[0, 0]]}));
        assert!(pinned.analysis.clauses[0].predicates[0].fixed);
        assert!(!pinned.analysis.suggestions.is_empty());
        assert!(pinned
            .analysis
            .suggestions
            .iter()
            .all(|s| s.changes.iter().all(|c| c.predicate != 0)));

        // Figure 4: the lattice the worker sends marks as the paper draws.
        let v = analyze("figure4", serde_json::json!({}));
        assert_eq!(v.lattices.len(), 1);
        assert_eq!(v.lattices[0].succeeds, figure4());
        assert_eq!(v.lattices[0].predicates.len(), 4);
        assert_eq!(v.analysis.conflicts.len(), 5);

        // Figure 5: a plane over the two attributes the machines constrain.
        let v = analyze("figure5", serde_json::json!({}));
        assert_eq!(v.plane_attributes, vec!["ImageSize", "MemoryRequirements"]);
        // No axes asked for: the engine draws the first two.
        let p = v.plane.as_ref().map(|p| (p.x.as_str(), p.y.as_str()));
        assert_eq!(p, Some(("ImageSize", "MemoryRequirements")));
        assert_eq!(v.analysis.job_changes.len(), 3);
        let v = analyze(
            "figure5",
            serde_json::json!({"plane": ["ImageSize", "MemoryRequirements"]}),
        );
        let p = v.plane.unwrap();
        assert_eq!(
            (p.x.as_str(), p.y.as_str()),
            ("ImageSize", "MemoryRequirements")
        );
        assert_eq!(p.job, (Some(100.0 * 1048576.0), Some(600.0 * 1048576.0)));
        // Cells for {c1}, {c2} and both; [64M, 128M) × [1G, ∞) is c2's.
        let mut counts: Vec<u64> = p.cells.iter().map(|c| c.machines).collect();
        counts.sort();
        assert!(
            counts.contains(&2) && counts.iter().filter(|&&c| c == 1).count() >= 2,
            "{counts:?}"
        );
        let (x, y) = plane_extents(&p);
        assert!(x.lo < 64.0 * 1048576.0 && x.hi > 128.0 * 1048576.0);
        assert!(y.lo < 512.0 * 1048576.0 && y.hi > 1024.0 * 1048576.0);

        // §3.3: the third example's job change.
        let v = analyze("analyze3", serde_json::json!({}));
        let a = &v.analysis;
        assert_eq!((a.summary.rejected_by_job, a.summary.reject_job), (807, 30));
        assert_eq!(
            a.job_changes[0].changes(),
            vec![("ImageSize".to_string(), "1220608".to_string())]
        );
        // Bad input is a message, not a panic.
        let mut s = Session::new();
        let json = ask(
            &mut s,
            serde_json::json!({"op": "analyze", "jobs": "j", "machines": "m", "job": 0}),
        );
        assert!(serde_json::from_str::<AnalysisView>(&json).is_err());
        assert!(json.contains("failed"), "{json}");
    }
}
