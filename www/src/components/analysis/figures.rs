//! The analyzer's numbers as it shows them: an axis' number with
//! ClassAd's M/G/T suffixes, an interval in words, a predicate's bar.

use crate::components::analysis::answers::Span;

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

    #[test]
    fn numbers_read_as_classad_writes_them() {
        let sp = |lo: Option<f64>, hi: Option<f64>| Span {
            lo,
            lo_closed: true,
            hi,
            hi_closed: false,
        };
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
        assert_eq!(bar(2, 2, 8), (0.25, 0.25));
        assert_eq!(bar(8, 3, 8), (1.0, 0.0));
        assert_eq!(bar(1, 1, 0), (0.0, 0.0));
    }
}
