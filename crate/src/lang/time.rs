//! Time values: the seed papers' time literals, libclassad's textual forms
//! of absolute and relative times, and the clock/time-zone source.

use chrono::{FixedOffset, NaiveDate, NaiveDateTime, TimeZone};
use serde::{Deserialize, Serialize};

/// An absolute time: seconds since the Unix epoch, with the time-zone offset
/// (seconds east of UTC) it was written or computed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsTime {
    pub secs: i64,
    pub offset: i32,
}

/// Where "now" and the local time zone come from. Native builds read the
/// system; the browser passes both in; tests pin them.
///
/// In requests' JSON: `"now"` and `"tz_offset"`, each optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// Seconds since the epoch; `None` means "ask the system".
    #[serde(default)]
    pub now: Option<f64>,
    /// Local offset east of UTC in seconds; `None` means "ask the system".
    #[serde(default, rename = "tz_offset")]
    pub local_offset: Option<i32>,
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

    /// The name `%Z` gives the local zone at `secs`: the system zone's
    /// standard-time abbreviation (`IST`, `CST` even in summer: glibc's
    /// `tzname[0]`, since libclassad's `formatTime` leaves `tm_isdst` zero),
    /// or, for a zone known only by its offset, [`zone_name`].
    pub fn zone_name_at(&self, secs: i64) -> String {
        if self.local_offset.is_none() {
            if let Some(name) = system_zone_abbreviation() {
                return name;
            }
        }
        zone_name(self.offset_at(secs))
    }

    /// The local zone's standard offset (no daylight saving): what C's
    /// `mktime` assumes for a broken-down time with `tm_isdst` zero.
    pub fn standard_offset_at(&self, secs: i64) -> i32 {
        if self.local_offset.is_none() {
            if let Some((_, east)) = system_standard_zone() {
                return east;
            }
        }
        self.offset_at(secs)
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

/// The C library's standard-time zone after `tzset()`: `tzname[0]` (the
/// abbreviation libclassad's `strftime` prints for `%Z`) and `timezone`
/// (the standard offset, west of UTC, that `mktime` uses for `%s` when
/// `tm_isdst` is zero).
#[cfg(all(unix, not(target_arch = "wasm32")))]
#[allow(unsafe_code)]
fn system_standard_zone() -> Option<(String, i32)> {
    use std::ffi::{c_char, c_long, CStr};
    extern "C" {
        fn tzset();
        static tzname: [*const c_char; 2];
        static timezone: c_long;
    }
    // SAFETY: tzset() initialises tzname and timezone; tzname's entries are
    // NUL-terminated strings owned by the C library for the process' life.
    unsafe {
        tzset();
        let p = tzname[0];
        if p.is_null() {
            return None;
        }
        let name = CStr::from_ptr(p).to_string_lossy().into_owned();
        let east = i32::try_from(-timezone).ok()?;
        (!name.is_empty()).then_some((name, east))
    }
}

#[cfg(not(all(unix, not(target_arch = "wasm32"))))]
fn system_standard_zone() -> Option<(String, i32)> {
    None
}

fn system_zone_abbreviation() -> Option<String> {
    system_standard_zone().map(|(name, _)| name)
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

// ---- C conversions libclassad's time and number code goes through ----

/// C's `(int)` conversion of a double on x86-64: truncation toward zero, and
/// `INT_MIN` for NaN and out-of-range values. libclassad stores relative
/// times as doubles but reads them back through this, and builds absolute
/// times from numbers with it.
pub fn c_int(x: f64) -> i32 {
    if x.is_nan() || x >= 2147483648.0 || x <= -2147483649.0 {
        i32::MIN
    } else {
        x as i32
    }
}

/// C's `(long long)` conversion of a double on x86-64 (`INT64_MIN` for NaN
/// and out-of-range values), as `int()`, `floor()` and friends use it.
pub fn c_llong(x: f64) -> i64 {
    if !(-9223372036854775808.0..9223372036854775808.0).contains(&x) {
        i64::MIN
    } else {
        x as i64
    }
}

/// C's `isspace` in the C locale.
pub fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// libclassad's text for a relative time, `[-][d+][hh:][mm:]ss`: the value
/// is first read back as a C `int` (fractions dropped, out-of-range values
/// become `INT_MIN`), and the day count goes through `int` again, so huge
/// values print oddly (`relTime(1e10)` is `--24855+-3:-14:-8`), as in
/// HTCondor.
pub fn format_rel_time(secs: f64) -> String {
    let mut out = String::new();
    let mut r = c_int(secs) as f64;
    if r < 0.0 {
        out.push('-');
        r = -r;
    }
    let total = c_int(r);
    let (days, hrs, mins, secs) = (
        total / 86400,
        (total % 86400) / 3600,
        (total % 86400 % 3600) / 60,
        total % 86400 % 3600 % 60,
    );
    if days != 0 {
        out.push_str(&format!("{days}+{hrs:02}:{mins:02}:{secs:02}"));
    } else if hrs != 0 {
        out.push_str(&format!("{hrs:02}:{mins:02}:{secs:02}"));
    } else if mins != 0 {
        out.push_str(&format!("{mins:02}:{secs:02}"));
    } else {
        out.push_str(&format!("{secs:02}"));
    }
    out
}

/// Parse relative-time text as libclassad's `relTime("…")` literal does:
/// read backwards `[-][days(d|+)][hrs(h|:)][mins(m|:)][secs[.frac][s]]`,
/// so `"1d2h3m4s"`, `"2h30m"`, `"1+01:01:01.5"`, `"1:00"` (a minute),
/// `"90"` and `""` (zero) are all accepted; anything else left over (even a
/// leading `+`) is rejected.
pub fn parse_rel_time_text(text: &str) -> Option<f64> {
    let s = text.as_bytes();
    let mut i = s.len() as isize - 1;
    let at = |i: isize| -> Option<u8> { (i >= 0).then(|| s[i as usize]) };
    let skip_space = |i: &mut isize| {
        while at(*i).is_some_and(is_c_space) {
            *i -= 1;
        }
    };
    // Digits read backwards, returned in reading order.
    let digits_back = |i: &mut isize| -> String {
        let mut v = Vec::new();
        while let Some(c) = at(*i).filter(u8::is_ascii_digit) {
            v.push(c);
            *i -= 1;
        }
        v.reverse();
        String::from_utf8(v).unwrap_or_default()
    };
    let int = |d: String| -> i32 { d.parse().unwrap_or(0) };
    skip_space(&mut i);
    let mut secs = 0.0;
    if let Some(c) = at(i).filter(|c| matches!(c, b's' | b'S') || c.is_ascii_digit()) {
        if !c.is_ascii_digit() {
            i -= 1;
        }
        skip_space(&mut i);
        let mut num = digits_back(&mut i);
        if at(i) == Some(b'.') {
            i -= 1;
            num = format!("{}.{}", digits_back(&mut i), num);
        }
        secs = num.parse().unwrap_or(0.0);
    }
    let field = |i: &mut isize, marks: &[u8]| -> i32 {
        skip_space(i);
        match at(*i) {
            Some(c) if marks.contains(&c) => {
                *i -= 1;
                skip_space(i);
                int(digits_back(i))
            }
            _ => 0,
        }
    };
    let mins = field(&mut i, b"mM:");
    let hrs = field(&mut i, b"hH:");
    let days = field(&mut i, b"dD+");
    skip_space(&mut i);
    let negative = at(i) == Some(b'-');
    if negative {
        i -= 1;
    }
    skip_space(&mut i);
    if at(i).is_some() {
        return None;
    }
    let whole = days
        .wrapping_mul(86400)
        .wrapping_add(hrs.wrapping_mul(3600))
        .wrapping_add(mins.wrapping_mul(60));
    let total = whole as f64 + secs;
    Some(if negative { -total } else { total })
}

/// libclassad's text for an absolute time: the wall clock in the value's own
/// offset, then the offset; an offset of zero is written `-00:00`.
pub fn format_abs_time(t: AbsTime) -> String {
    let tm = gm_tm(t.secs.wrapping_add(t.offset as i64));
    let off = t.offset as i64;
    let (sign, a) = if off > 0 { ('+', off) } else { ('-', -off) };
    format!(
        "{}-{:02}-{:02}T{:02}:{:02}:{:02}{}{:02}:{:02}",
        tm.year,
        tm.mon + 1,
        tm.mday,
        tm.hour,
        tm.min,
        tm.sec,
        sign,
        a / 3600,
        (a / 60) % 60
    )
}

/// Parse absolute-time text as libclassad's `absTime("…")` literal does: an
/// optional trailing `Z`, `±hhmm` or `±hh:mm`; then the first run of four
/// digits is the year and the next two-digit groups (any separators) month,
/// day, hours, minutes, seconds. Fields are normalized like `mktime`
/// (`"2020-13-01"` is 2021-01-01, `"2020"` is 2019-12-31); a time whose
/// local `mktime` is -1 (one second before the epoch) is rejected, as are
/// leftover digits. Without an offset the time is local (`default_offset`).
pub fn parse_abs_time_text(text: &str, default_offset: impl Fn(i64) -> i32) -> Option<AbsTime> {
    let mut s: Vec<u8> = text.as_bytes().to_vec();
    let len = s.len();
    let mut last = len as isize - 1;
    while last >= 0 && is_c_space(s[last as usize]) {
        last -= 1;
    }
    let mut offset: Option<i32> = None;
    if last > 0 && matches!(s[last as usize], b'z' | b'Z') {
        s.remove(last as usize);
        offset = Some(0);
    } else if len > 5 && matches!(s[len - 5], b'+' | b'-') {
        offset = extract_zone(&mut s);
    } else if len > 6 && matches!(s[len - 6], b'+' | b'-') && s[len - 3] == b':' {
        s.remove(len - 3);
        offset = extract_zone(&mut s);
    }
    let len = s.len();
    let mut i = 0;
    let next_digit = |i: &mut usize| {
        while *i < len && !s[*i].is_ascii_digit() {
            *i += 1;
        }
    };
    next_digit(&mut i);
    if i + 4 > len {
        return None;
    }
    let year = c_atoi(&s[i..i + 4]) as i64;
    i += 4;
    let mut fields = [1, 0, 0, 0, 0i64]; // month (1-based), day, hours, minutes, seconds
    for f in fields.iter_mut() {
        next_digit(&mut i);
        if i + 2 <= len {
            *f = c_atoi(&s[i..i + 2]) as i64;
            i += 2;
        }
    }
    next_digit(&mut i);
    if i < len {
        return None;
    }
    let tm = Tm {
        year,
        mon: (fields[0] - 1) as i32,
        mday: fields[1] as i32,
        hour: fields[2] as i32,
        min: fields[3] as i32,
        sec: fields[4] as i32,
        ..Tm::default()
    };
    let naive = timegm(&tm);
    let local = naive - default_offset(naive) as i64;
    if local == -1 {
        return None;
    }
    let offset = offset.unwrap_or_else(|| default_offset(local));
    Some(AbsTime {
        secs: naive - offset as i64,
        offset,
    })
}

/// libclassad's `extractTimeZone`: a trailing `[+-]hhmm` becomes the offset.
fn extract_zone(s: &mut Vec<u8>) -> Option<i32> {
    let n = s.len();
    let z = &s[n - 5..];
    if !(matches!(z[0], b'+' | b'-') && z[1..].iter().all(u8::is_ascii_digit)) {
        return None;
    }
    let h = c_atoi(&z[1..3]);
    let m = c_atoi(&z[3..5]);
    let v = if z[0] == b'+' {
        h * 3600 + m * 60
    } else {
        -h * 3600 - m * 60
    };
    s.truncate(n - 5);
    Some(v)
}

/// C's `atoi`: optional space and sign, then digits.
pub fn c_atoi(b: &[u8]) -> i32 {
    let mut i = 0;
    while i < b.len() && is_c_space(b[i]) {
        i += 1;
    }
    let neg = i < b.len() && b[i] == b'-';
    if i < b.len() && matches!(b[i], b'+' | b'-') {
        i += 1;
    }
    let mut v: i32 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        v = v.wrapping_mul(10).wrapping_add((b[i] - b'0') as i32);
        i += 1;
    }
    if neg {
        v.wrapping_neg()
    } else {
        v
    }
}

// ---- broken-down time, as C's struct tm ----

/// A broken-down time like C's `struct tm`, with the full year. Fields may be
/// out of range when they come from a ClassAd given to `formatTime`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tm {
    pub year: i64,
    /// 0 = January.
    pub mon: i32,
    pub mday: i32,
    pub hour: i32,
    pub min: i32,
    pub sec: i32,
    /// 0 = Sunday.
    pub wday: i32,
    /// 0 = January 1st.
    pub yday: i32,
}

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1-12).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// `gmtime`: the broken-down UTC time of seconds since the epoch.
pub fn gm_tm(secs: i64) -> Tm {
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Tm {
        year: y,
        mon: (m - 1) as i32,
        mday: d as i32,
        hour: (rem / 3600) as i32,
        min: (rem % 3600 / 60) as i32,
        sec: (rem % 60) as i32,
        wday: (days + 4).rem_euclid(7) as i32,
        yday: (days - days_from_civil(y, 1, 1)) as i32,
    }
}

/// `timegm`: seconds since the epoch of a broken-down UTC time, normalizing
/// out-of-range fields as `mktime` does (`wday`/`yday` are ignored).
pub fn timegm(tm: &Tm) -> i64 {
    let mon = tm.mon as i64;
    let y = tm.year + mon.div_euclid(12);
    let m = mon.rem_euclid(12) + 1;
    let days = days_from_civil(y, m, 1) + tm.mday as i64 - 1;
    days * 86400 + tm.hour as i64 * 3600 + tm.min as i64 * 60 + tm.sec as i64
}

/// Calendar fields of an absolute time in its own offset.
pub fn civil(t: AbsTime) -> NaiveDateTime {
    let off = FixedOffset::east_opt(t.offset).unwrap_or(FixedOffset::east_opt(0).unwrap());
    match off.timestamp_opt(t.secs, 0) {
        chrono::LocalResult::Single(d) => d.naive_local(),
        _ => NaiveDateTime::default(),
    }
}

/// A name for the local zone in `%Z`: we only know its offset, so this is
/// `UTC` or a numeric abbreviation like `+01` / `-0530` (tzdata's style for
/// zones without a name).
pub fn zone_name(offset: i32) -> String {
    if offset == 0 {
        return "UTC".into();
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.unsigned_abs();
    if a % 3600 == 0 {
        format!("{sign}{:02}", a / 3600)
    } else {
        format!("{sign}{:02}{:02}", a / 3600, a % 3600 / 60)
    }
}

// ---- strftime ----

const WDAY: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MON: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The zone facts `strftime` needs beyond the broken-down time.
#[derive(Clone, Debug)]
pub struct StrftimeZone {
    /// `tm_gmtoff` (`%z`); libclassad's `formatTime` leaves it zero.
    pub gmtoff: i64,
    /// `%Z`.
    pub name: String,
    /// The local offset `%s` (`mktime`) assumes.
    pub local_offset: i32,
}

/// glibc's `strftime` in the C locale, including its flags (`_ - 0 ^ #`),
/// field widths, `E`/`O` modifiers, `?` for out-of-range day and month
/// names, and copying unknown conversions through literally. Output stops
/// at the first item that would pass 1022 bytes, as with libclassad's
/// fixed buffer.
pub fn strftime(fmt: &str, tm: &Tm, zone: &StrftimeZone) -> String {
    let mut out = String::new();
    format_into(&mut out, fmt, tm, zone, Some(1022));
    out
}

fn iso_week_days(yday: i64, wday: i64) -> i64 {
    const BIG_MULTIPLE_OF_7: i64 = (366 / 7 + 2) * 7;
    yday - (yday - wday + 4 + BIG_MULTIPLE_OF_7).rem_euclid(7) + 3
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// ISO 8601 week-based year and week number.
fn iso_week(tm: &Tm) -> (i64, i64) {
    let (yday, wday) = (tm.yday as i64, tm.wday as i64);
    let mut year = tm.year;
    let mut days = iso_week_days(yday, wday);
    if days < 0 {
        year -= 1;
        days = iso_week_days(yday + 365 + is_leap(year) as i64, wday);
    } else {
        let d = iso_week_days(yday - 365 - is_leap(year) as i64, wday);
        if d >= 0 {
            year += 1;
            days = d;
        }
    }
    (year, days / 7 + 1)
}

struct Spec {
    pad: Option<u8>,
    upcase: bool,
    swapcase: bool,
    width: Option<usize>,
}

impl Spec {
    /// Pad a number: zeros go after the sign, spaces before it.
    fn num(&self, v: i64, digits: usize, space_default: bool) -> String {
        let d = v.unsigned_abs().to_string();
        let sign = if v < 0 { "-" } else { "" };
        if self.pad == Some(b'-') && self.width.is_none() {
            return format!("{sign}{d}");
        }
        let width = self.width.unwrap_or(0).max(digits);
        let zero = match self.pad {
            Some(b'0') => true,
            Some(_) => false,
            None => !space_default,
        };
        let len = sign.len() + d.len();
        let fill = width.saturating_sub(len);
        if zero {
            format!("{sign}{}{d}", "0".repeat(fill))
        } else {
            format!("{}{sign}{d}", " ".repeat(fill))
        }
    }

    fn text(&self, s: &str) -> String {
        let fill = self.width.unwrap_or(0).saturating_sub(s.len());
        let c = if self.pad == Some(b'0') { "0" } else { " " };
        format!("{}{s}", c.repeat(fill))
    }
}

fn modifier_ok(conv: u8, modifier: Option<u8>) -> bool {
    match modifier {
        None => true,
        Some(b'E') => !b"aAbBhdeHIjklmMSUVwWGgDF".contains(&conv),
        _ => !b"aAcxXDFY".contains(&conv),
    }
}

fn format_into(out: &mut String, fmt: &str, tm: &Tm, zone: &StrftimeZone, limit: Option<usize>) {
    let fits = |out: &String, n: usize| limit.is_none_or(|l| out.len() + n <= l);
    let b = fmt.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            let c = fmt[i..].chars().next().unwrap_or(' ');
            if !fits(out, c.len_utf8()) {
                return;
            }
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let start = i;
        i += 1;
        let mut spec = Spec {
            pad: None,
            upcase: false,
            swapcase: false,
            width: None,
        };
        while i < b.len() {
            match b[i] {
                c @ (b'_' | b'-' | b'0') => spec.pad = Some(c),
                b'^' => spec.upcase = true,
                b'#' => spec.swapcase = true,
                _ => break,
            }
            i += 1;
        }
        let w0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i > w0 {
            spec.width = Some(fmt[w0..i].parse::<usize>().unwrap_or(usize::MAX).min(1024));
        }
        let mut modifier = None;
        if i < b.len() && matches!(b[i], b'E' | b'O') {
            modifier = Some(b[i]);
            i += 1;
        }
        let end = match fmt[i.min(b.len())..].chars().next() {
            Some(c) => i + c.len_utf8(),
            None => b.len(),
        };
        let piece = match b.get(i).and_then(|&c| conversion(c, &spec, tm, zone)) {
            Some(s) if modifier_ok(b[i], modifier) => s,
            _ => fmt[start..end].to_string(),
        };
        if !fits(out, piece.len()) {
            return;
        }
        out.push_str(&piece);
        i = end;
    }
}

fn name(table: &[&str], i: i32, len: usize) -> String {
    match usize::try_from(i).ok().and_then(|i| table.get(i)) {
        Some(n) => n[..len.min(n.len())].to_string(),
        None => "?".into(),
    }
}

fn conversion(conv: u8, spec: &Spec, tm: &Tm, zone: &StrftimeZone) -> Option<String> {
    let sub = |f: &str| {
        let mut s = String::new();
        format_into(&mut s, f, tm, zone, None);
        let s = if spec.upcase {
            s.to_ascii_uppercase()
        } else {
            s
        };
        spec.text(&s)
    };
    let hour12 = match tm.hour {
        0 => 12,
        h if h > 12 => h - 12,
        h => h,
    };
    let case = |s: String, swap_up: bool| {
        if spec.upcase || (spec.swapcase && swap_up) {
            s.to_ascii_uppercase()
        } else if spec.swapcase {
            s.to_ascii_lowercase()
        } else {
            s
        }
    };
    let year = tm.year;
    let s = match conv {
        b'a' => spec.text(&case(name(&WDAY, tm.wday, 3), true)),
        b'A' => spec.text(&case(name(&WDAY, tm.wday, 9), true)),
        b'b' | b'h' => spec.text(&case(name(&MON, tm.mon, 3), true)),
        b'B' => spec.text(&case(name(&MON, tm.mon, 9), true)),
        b'c' => sub("%a %b %e %H:%M:%S %Y"),
        b'C' => spec.num(year.div_euclid(100), 1, false),
        b'd' => spec.num(tm.mday as i64, 2, false),
        b'D' | b'x' => sub("%m/%d/%y"),
        b'e' => spec.num(tm.mday as i64, 2, true),
        b'F' => sub("%Y-%m-%d"),
        b'g' => spec.num(iso_week(tm).0.rem_euclid(100), 2, false),
        b'G' => spec.num(iso_week(tm).0, 1, false),
        b'H' => spec.num(tm.hour as i64, 2, false),
        b'I' => spec.num(hour12 as i64, 2, false),
        b'j' => spec.num(tm.yday as i64 + 1, 3, false),
        b'k' => spec.num(tm.hour as i64, 2, true),
        b'l' => spec.num(hour12 as i64, 2, true),
        b'm' => spec.num(tm.mon as i64 + 1, 2, false),
        b'M' => spec.num(tm.min as i64, 2, false),
        b'n' => spec.text("\n"),
        b'p' => spec.text(&case(
            (if tm.hour > 11 { "PM" } else { "AM" }).into(),
            false,
        )),
        b'P' => spec.text(if tm.hour > 11 { "pm" } else { "am" }),
        b'r' => sub("%I:%M:%S %p"),
        b'R' => sub("%H:%M"),
        b's' => spec.num(timegm(tm) - zone.local_offset as i64, 1, false),
        b'S' => spec.num(tm.sec as i64, 2, false),
        b't' => spec.text("\t"),
        b'T' | b'X' => sub("%H:%M:%S"),
        b'u' => spec.num((tm.wday as i64 - 1).rem_euclid(7) + 1, 1, false),
        b'U' => spec.num((tm.yday as i64 - tm.wday as i64 + 7) / 7, 2, false),
        b'V' => spec.num(iso_week(tm).1, 2, false),
        b'w' => spec.num(tm.wday as i64, 1, false),
        b'W' => spec.num(
            (tm.yday as i64 - (tm.wday as i64 - 1).rem_euclid(7) + 7) / 7,
            2,
            false,
        ),
        b'y' => spec.num(year.rem_euclid(100), 2, false),
        b'Y' => spec.num(year, 1, false),
        b'z' => {
            // glibc pads the sign and the number to the width separately.
            let a = (zone.gmtoff.unsigned_abs() / 60) as i64;
            let sign = if zone.gmtoff < 0 { "-" } else { "+" };
            spec.text(sign) + &spec.num(a / 60 * 100 + a % 60, 4, false)
        }
        b'Z' => spec.text(&case(zone.name.clone(), false)),
        b'%' => spec.text("%"),
        _ => return None,
    };
    Some(s)
}
