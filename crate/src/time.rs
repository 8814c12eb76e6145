//! Time values: the seed papers' time literals, libclassad's textual forms
//! of absolute and relative times, and the clock/time-zone source.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, TimeZone, Timelike};

use crate::value::AbsTime;

/// Where "now" and the local time zone come from. Native builds read the
/// system; the browser passes both in; tests pin them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Seconds since the epoch; `None` means "ask the system".
    pub now: Option<f64>,
    /// Local offset east of UTC in seconds; `None` means "ask the system".
    pub local_offset: Option<i32>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            now: None,
            local_offset: None,
        }
    }
}

impl Clock {
    pub fn fixed(now: f64, local_offset: i32) -> Clock {
        Clock {
            now: Some(now),
            local_offset: Some(local_offset),
        }
    }

    pub fn now(&self) -> f64 {
        if let Some(n) = self.now {
            return n;
        }
        system_now()
    }

    /// The local offset in effect at `secs` (daylight saving aware natively).
    pub fn offset_at(&self, secs: i64) -> i32 {
        if let Some(o) = self.local_offset {
            return o;
        }
        system_offset_at(secs)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn system_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

#[cfg(target_arch = "wasm32")]
fn system_now() -> f64 {
    // wasm32-unknown-unknown has no clock; the host must supply one.
    0.0
}

#[cfg(not(target_arch = "wasm32"))]
fn system_offset_at(secs: i64) -> i32 {
    use chrono::Offset;
    match chrono::Local.timestamp_opt(secs, 0) {
        chrono::LocalResult::Single(t) => t.offset().fix().local_minus_utc(),
        chrono::LocalResult::Ambiguous(t, _) => t.offset().fix().local_minus_utc(),
        chrono::LocalResult::None => 0,
    }
}

#[cfg(target_arch = "wasm32")]
fn system_offset_at(_secs: i64) -> i32 {
    0
}

/// The seed papers' relative-time literal: `[-][days+]h:m[:s[.frac]]`, e.g.
/// `'00:23:12'`, `'9:00'` (nine hours), `'00:15'` (fifteen minutes).
pub fn parse_rel_time_literal(text: &str) -> Option<f64> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    // Days as `3+19:49:15` or, in the thesis, `3d19:49:15`.
    let (days, t) = match t.split_once(['+', 'd', 'D']) {
        Some((d, r)) => (d.parse::<u64>().ok()? as f64, r),
        None => (0.0, t),
    };
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let num = |s: &str| -> Option<f64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse::<f64>().ok()
    };
    let h = num(parts[0])?;
    let m = num(parts[1])?;
    let s = if parts.len() == 3 {
        let (whole, frac) = parts[2].split_once('.').unwrap_or((parts[2], ""));
        let mut v = num(whole)?;
        if !frac.is_empty() {
            v += num(frac)? / 10f64.powi(frac.len() as i32);
        }
        v
    } else {
        0.0
    };
    let total = days * 86400.0 + h * 3600.0 + m * 60.0 + s;
    Some(if neg { -total } else { total })
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const WEEKDAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// The seed papers' absolute-time literal, as `ctime` prints with a zone:
/// `Mon Feb 10 10:53:31 2003 (CST) -06:00`. The zone name is informative;
/// the numeric offset (default UTC) decides.
pub fn parse_abs_time_literal(text: &str) -> Option<AbsTime> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 5 {
        return None;
    }
    let wd = words[0].to_ascii_lowercase();
    if !WEEKDAYS.iter().any(|w| wd.starts_with(w)) {
        return None;
    }
    let mon = words[1].to_ascii_lowercase();
    let month = MONTHS.iter().position(|m| mon.starts_with(m))? as u32 + 1;
    let day: u32 = words[2].parse().ok()?;
    let hms: Vec<u32> = words[3]
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    if hms.len() != 3 {
        return None;
    }
    let year: i32 = words[4].parse().ok()?;
    let mut offset = 0;
    for w in &words[5..] {
        if w.starts_with('(') && w.ends_with(')') {
            continue;
        }
        offset = parse_offset(w)?;
    }
    let date = NaiveDate::from_ymd_opt(year, month, day)?;
    let dt = date.and_hms_opt(hms[0], hms[1], hms[2])?;
    let secs = dt.and_utc().timestamp() - offset as i64;
    Some(AbsTime { secs, offset })
}

/// `+hh:mm`, `-hhmm`, `Z`.
pub fn parse_offset(w: &str) -> Option<i32> {
    if w.eq_ignore_ascii_case("z") {
        return Some(0);
    }
    let (sign, rest) = match w.as_bytes().first()? {
        b'+' => (1, &w[1..]),
        b'-' => (-1, &w[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i32 = digits[..2].parse().ok()?;
    let m: i32 = digits[2..].parse().ok()?;
    Some(sign * (h * 3600 + m * 60))
}

/// libclassad's text for a relative time: `[-][days+][hh:][mm:]ss[.fff]`,
/// leading fields omitted while zero.
pub fn format_rel_time(secs: f64) -> String {
    let mut out = String::new();
    let mut s = secs;
    if s < 0.0 {
        out.push('-');
        s = -s;
    }
    let whole = s.trunc() as i64;
    let frac = s - s.trunc();
    let days = whole / 86400;
    let hrs = (whole % 86400) / 3600;
    let mins = (whole % 3600) / 60;
    let sec = whole % 60;
    if days != 0 {
        out.push_str(&format!("{days}+"));
    }
    if days != 0 || hrs != 0 {
        out.push_str(&format!("{hrs:02}:"));
    }
    if days != 0 || hrs != 0 || mins != 0 {
        out.push_str(&format!("{mins:02}:"));
    }
    out.push_str(&format!("{sec:02}"));
    let ms = (frac * 1000.0).round() as i64;
    if ms > 0 {
        out.push_str(&format!(".{ms:03}"));
    }
    out
}

/// Parse libclassad's relative-time text (the inverse of `format_rel_time`,
/// also accepting `d+hh:mm:ss` with any fields).
pub fn parse_rel_time_text(text: &str) -> Option<f64> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (days, t) = match t.split_once('+') {
        Some((d, r)) => (d.trim().parse::<i64>().ok()? as f64, r),
        None => (0.0, t),
    };
    let parts: Vec<&str> = t.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut total = 0.0;
    for (i, p) in parts.iter().enumerate() {
        let v: f64 = if i == parts.len() - 1 {
            p.trim().parse().ok()?
        } else {
            p.trim().parse::<i64>().ok()? as f64
        };
        total = total * 60.0 + v;
    }
    total += days * 86400.0;
    Some(if neg { -total } else { total })
}

/// libclassad's text for an absolute time: ISO 8601 with the offset,
/// `2003-02-10T10:53:31-06:00`.
pub fn format_abs_time(t: AbsTime) -> String {
    let off = t.offset;
    let local = t.secs + off as i64;
    let dt = DateTime::from_timestamp(local, 0)
        .map(|d| d.naive_utc())
        .unwrap_or_default();
    let sign = if off > 0 { '+' } else { '-' };
    let a = off.unsigned_abs();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}{:02}:{:02}",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute(),
        dt.second(),
        sign,
        a / 3600,
        (a % 3600) / 60
    )
}

/// Parse ISO 8601 `YYYY-MM-DDThh:mm:ss[±hh:mm|Z]` (also without separators).
/// Without an offset the time is local (`default_offset`).
pub fn parse_abs_time_text(text: &str, default_offset: impl Fn(i64) -> i32) -> Option<AbsTime> {
    let t = text.trim();
    let (body, offset) = split_offset(t);
    let fmts = [
        "%Y-%m-%dT%H:%M:%S",
        "%Y%m%dT%H%M%S",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d",
    ];
    let naive = fmts.iter().find_map(|f| {
        NaiveDateTime::parse_from_str(body, f).ok().or_else(|| {
            NaiveDate::parse_from_str(body, f)
                .ok()
                .map(|d| d.and_hms_opt(0, 0, 0).unwrap())
        })
    })?;
    let as_utc = naive.and_utc().timestamp();
    let offset = match offset {
        Some(o) => o,
        None => default_offset(as_utc),
    };
    Some(AbsTime {
        secs: as_utc - offset as i64,
        offset,
    })
}

fn split_offset(t: &str) -> (&str, Option<i32>) {
    if let Some(b) = t.strip_suffix(['Z', 'z']) {
        return (b, Some(0));
    }
    // An offset is the last '+' or '-' after the 'T'.
    if let Some(tpos) = t.find(['T', 't', ' ']) {
        if let Some(rel) = t[tpos..].rfind(['+', '-']) {
            let at = tpos + rel;
            if let Some(o) = parse_offset(&t[at..]) {
                return (&t[..at], Some(o));
            }
        }
    }
    (t, None)
}

/// Calendar fields of an absolute time in its own offset.
pub fn civil(t: AbsTime) -> NaiveDateTime {
    let off = FixedOffset::east_opt(t.offset).unwrap_or(FixedOffset::east_opt(0).unwrap());
    match off.timestamp_opt(t.secs, 0) {
        chrono::LocalResult::Single(d) => d.naive_local(),
        _ => NaiveDateTime::default(),
    }
}
