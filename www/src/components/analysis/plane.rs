//! Figure 5 (seed 000 §3.2, Nobody Likes Me): the plane's geometry: which
//! two attributes are drawn, each axis' window, its bounds and the ticks
//! that do not crowd (`analyzer_plane.rs` draws it).

use crate::components::analysis::answers::{Plane, Span};

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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            sparse_ticks(&[0.0, 5.0, 30.0, 50.0, 100.0], 20.0),
            vec![0, 2, 3, 4]
        );
        assert_eq!(sparse_ticks(&[300.0, 290.0, 250.0], 20.0), vec![0, 2]);
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
}
