//! Time functions: the clock (`time`, `currentTime`, `timeZoneOffset`,
//! `dayTime`), conversions (`absTime`, `relTime`), fields (`getYear` …
//! `getSeconds`, `getDays`), `splitTime`, `formatTime` and `interval`.
//!
//! "Now" and the local time zone always come from `ev.opts.clock`, so they
//! can be pinned. libclassad builds absolute times from numbers through a C
//! `int` (so `absTime(4102444800)` wraps to 1963) and reads relative times
//! back the same way (`time::c_int`); we copy that.

use std::sync::Arc;

use super::def::{eval_n, f, FuncDef};
use super::misc::to_int;
use crate::lang::ast::{ClassAd, Expr};
use crate::lang::eval::{Env, Evaluator};
use crate::lang::time::AbsTime;
use crate::lang::time::{c_int, gm_tm, strftime, timegm, StrftimeZone, Tm};
use crate::lang::value::{RecordValue, Value};

pub(super) const FUNCS: &[FuncDef] = &[
    f("time", time_fn),
    f("currentTime", current_time),
    f("timeZoneOffset", time_zone_offset),
    f("dayTime", day_time),
    f("absTime", abs_time),
    f("relTime", rel_time),
    f("getYear", get_year),
    f("getMonth", get_month),
    f("getDayOfYear", get_day_of_year),
    f("getDayOfMonth", get_day_of_month),
    f("getDayOfWeek", get_day_of_week),
    f("getDays", get_days),
    f("getHours", get_hours),
    f("getMinutes", get_minutes),
    f("getSeconds", get_seconds),
    f("splitTime", split_time),
    f("formatTime", format_time),
    f("interval", interval),
];

/// Time functions of the seed papers (thesis Appendix A, Condor manual
/// 4.1) that today's libclassad does not define (its `makeDate` and
/// `inDays`… are compiled out): registered for the seed dialect only
/// (`functions::Table::seed_by_name`); in the modern one a call to them is
/// an error, as in HTCondor.
pub(super) const SEED_FUNCS: &[FuncDef] = &[
    f("makeDate", make_date),
    f("makeAbsTime", make_abs_time),
    f("makeRelTime", make_rel_time),
    f("inDays", in_days),
    f("inHours", in_hours),
    f("inMinutes", in_minutes),
    f("inSeconds", in_seconds),
];

fn now(ev: &Evaluator) -> i64 {
    ev.opts.clock.now().floor() as i64
}

fn local_offset(ev: &Evaluator, secs: i64) -> i32 {
    ev.opts.clock.offset_at(secs)
}

/// The local broken-down time of `secs` (libclassad's `localtime`).
fn local_tm(ev: &Evaluator, secs: i64) -> Tm {
    gm_tm(secs.wrapping_add(local_offset(ev, secs) as i64))
}

fn now_abs(ev: &Evaluator) -> Value {
    let secs = now(ev);
    Value::AbsTime(AbsTime {
        secs,
        offset: local_offset(ev, secs),
    })
}

/// `time()`: the current time as integer seconds since the epoch.
fn time_fn(ev: &mut Evaluator, args: &[Expr], _env: &Env) -> Value {
    if !args.is_empty() {
        return Value::Error;
    }
    Value::Int(now(ev))
}

/// `currentTime()`: the current time as an absolute time in the local
/// offset (same as `absTime()`).
fn current_time(ev: &mut Evaluator, args: &[Expr], _env: &Env) -> Value {
    if !args.is_empty() {
        return Value::Error;
    }
    now_abs(ev)
}

/// `timeZoneOffset()`: the local offset now, as a relative time.
fn time_zone_offset(ev: &mut Evaluator, args: &[Expr], _env: &Env) -> Value {
    if !args.is_empty() {
        return Value::Error;
    }
    let n = now(ev);
    Value::RelTime(local_offset(ev, n) as f64)
}

/// `dayTime()`: the local time since midnight, as a relative time (the
/// thesis compares it with `'9:00'`).
fn day_time(ev: &mut Evaluator, args: &[Expr], _env: &Env) -> Value {
    if !args.is_empty() {
        return Value::Error;
    }
    let tm = local_tm(ev, now(ev));
    Value::RelTime((tm.hour * 3600 + tm.min * 60 + tm.sec) as f64)
}

/// libclassad's `convTime`, shared by absTime and relTime.
///
/// * `absTime()` is the current time; `relTime()` is an error.
/// * absTime's optional second argument is the offset in seconds (integer,
///   real or relative time, read as a C `int`); relTime takes none.
/// * Integers are read as a C `int` (wrapping), reals truncated as a C
///   `int` (NaN and out of range give 1901-12-13T20:45:52). Without an
///   offset the local one is used. An integer time with offset exactly -1
///   makes libclassad abort the evaluation: error here.
/// * An absolute time is returned unchanged (the offset argument is
///   ignored); a relative time gives the absolute time of its seconds.
/// * A string at run time is not parsed (only a literal `absTime("…")` is,
///   by the parser): absTime returns the string itself and relTime gives
///   `relTime(0)`, as libclassad's fall-through does.
/// * undefined → undefined; booleans, lists, ads, error → error.
fn conv_time(ev: &mut Evaluator, args: &[Expr], env: &Env, relative: bool) -> Value {
    if args.is_empty() && !relative {
        return now_abs(ev);
    }
    if args.is_empty() || args.len() > 2 {
        return Value::Error;
    }
    let arg = ev.eval(&args[0], env);
    let mut offset_arg = None;
    if args.len() == 2 {
        let a2 = ev.eval(&args[1], env);
        if relative {
            return Value::Error;
        }
        offset_arg = Some(match a2 {
            Value::Int(i) => i as i32,
            Value::Real(r) | Value::RelTime(r) => c_int(r),
            _ => return Value::Error,
        });
    }
    let abs = |ev: &Evaluator, secs: i32| {
        let offset = offset_arg.unwrap_or_else(|| local_offset(ev, secs as i64));
        Value::AbsTime(AbsTime {
            secs: secs as i64,
            offset,
        })
    };
    match arg {
        Value::Undefined => Value::Undefined,
        Value::Int(i) if relative => Value::RelTime((i as i32) as f64),
        Value::Int(i) => {
            if offset_arg == Some(-1) {
                return Value::Error;
            }
            abs(ev, i as i32)
        }
        Value::Real(r) if relative => Value::RelTime(r),
        Value::Real(r) => abs(ev, c_int(r)),
        Value::Str(_) if relative => Value::RelTime(0.0),
        Value::AbsTime(t) if relative => Value::RelTime(t.secs as f64),
        Value::Str(_) | Value::AbsTime(_) => arg,
        Value::RelTime(_) if relative => arg,
        Value::RelTime(r) => abs(ev, c_int(r)),
        _ => Value::Error,
    }
}

/// `absTime([t [, offset]])`: see `conv_time`.
fn abs_time(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    conv_time(ev, args, env, false)
}

/// `relTime(t)`: see `conv_time`.
fn rel_time(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    conv_time(ev, args, env, true)
}

#[derive(Clone, Copy, PartialEq)]
enum Field {
    Year,
    Month,
    DayOfYear,
    DayOfMonth,
    DayOfWeek,
    Days,
    Hours,
    Minutes,
    Seconds,
}

/// libclassad's `getField`. For an absolute time the fields are those of
/// the *local* time zone, not of the value's own offset
/// (`getHours(absTime("2020-06-15T12:30:45+02:00"))` is 10 in UTC); month
/// is 1-12, day of year 0-365, day of week 0 = Sunday; getDays is an
/// error. For a relative time only days/hours/minutes/seconds exist, taken
/// from its whole seconds (negative times give negative fields). Any other
/// argument is an error.
fn get_field(ev: &mut Evaluator, args: &[Expr], env: &Env, which: Field) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    match v {
        Value::AbsTime(t) => {
            let tm = local_tm(ev, t.secs);
            Value::Int(match which {
                Field::Year => tm.year,
                Field::Month => tm.mon as i64 + 1,
                Field::DayOfYear => tm.yday as i64,
                Field::DayOfMonth => tm.mday as i64,
                Field::DayOfWeek => tm.wday as i64,
                Field::Hours => tm.hour as i64,
                Field::Minutes => tm.min as i64,
                Field::Seconds => tm.sec as i64,
                Field::Days => return Value::Error,
            })
        }
        Value::RelTime(r) => {
            let s = c_int(r) as i64;
            Value::Int(match which {
                Field::Days => s / 86400,
                Field::Hours => (s % 86400) / 3600,
                Field::Minutes => (s % 3600) / 60,
                Field::Seconds => s % 60,
                _ => return Value::Error,
            })
        }
        _ => Value::Error,
    }
}

/// `getYear(t)`: see `get_field`.
fn get_year(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::Year)
}
/// `getMonth(t)`: 1-12; see `get_field`.
fn get_month(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::Month)
}
/// `getDayOfYear(t)`: 0-365; see `get_field`.
fn get_day_of_year(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::DayOfYear)
}
/// `getDayOfMonth(t)`: 1-31; see `get_field`.
fn get_day_of_month(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::DayOfMonth)
}
/// `getDayOfWeek(t)`: 0 = Sunday; see `get_field`.
fn get_day_of_week(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::DayOfWeek)
}
/// `getDays(r)`: whole days of a relative time; see `get_field`.
fn get_days(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::Days)
}
/// `getHours(t)`: see `get_field`.
fn get_hours(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::Hours)
}
/// `getMinutes(t)`: see `get_field`.
fn get_minutes(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::Minutes)
}
/// `getSeconds(t)`: see `get_field`.
fn get_seconds(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    get_field(ev, a, e, Field::Seconds)
}

fn record(ad: ClassAd) -> Value {
    Value::Record(RecordValue {
        ad: Arc::new(ad),
        env: Env::None,
        detached: false,
    })
}

/// The absolute time a number stands for in splitTime/formatTime: seconds
/// in the local offset — an integer as it is, a real truncated as a C `int`
/// (unlike absTime, which wraps integers to 32 bits).
fn number_time(ev: &Evaluator, v: &Value) -> Option<AbsTime> {
    let secs = match v {
        Value::Int(i) => *i,
        Value::Real(r) => c_int(*r) as i64,
        Value::AbsTime(t) => return Some(*t),
        _ => return None,
    };
    Some(AbsTime {
        secs,
        offset: local_offset(ev, secs),
    })
}

/// The ad splitTime gives for an absolute time. Attributes are inserted in
/// the order libclassad prints them.
fn abs_time_ad(t: AbsTime) -> ClassAd {
    let tm = gm_tm(t.secs.wrapping_add(t.offset as i64));
    let mut ad = ClassAd::new();
    ad.insert_value("Day", Value::Int(tm.mday as i64));
    ad.insert_value("Type", Value::str("AbsoluteTime"));
    ad.insert_value("Year", Value::Int(tm.year));
    ad.insert_value("Hours", Value::Int(tm.hour as i64));
    ad.insert_value("Month", Value::Int(tm.mon as i64 + 1));
    ad.insert_value("Offset", Value::Int(t.offset as i64));
    ad.insert_value("Minutes", Value::Int(tm.min as i64));
    ad.insert_value("Seconds", Value::Int(tm.sec as i64));
    ad
}

/// The ad splitTime gives for a relative time, computed as libclassad
/// does: only the leading non-zero field of a negative time is negative,
/// and Seconds is a real keeping the fraction.
fn rel_time_ad(r: f64) -> ClassAd {
    let (rs, negative) = if r < 0.0 { (-r, true) } else { (r, false) };
    let total = c_int(rs);
    let mut days = total / 86400;
    let mut hrs = (total % 86400) / 3600;
    let mut mins = (total % 86400 % 3600) / 60;
    let mut secs = (total % 86400 % 3600 % 60) as f64 + (rs - rs.floor());
    if negative {
        if days > 0 {
            days = -days;
        } else if hrs > 0 {
            hrs = -hrs;
        } else if mins > 0 {
            mins = -mins;
        } else {
            secs = -secs;
        }
    }
    let mut ad = ClassAd::new();
    ad.insert_value("Days", Value::Int(days as i64));
    ad.insert_value("Type", Value::str("RelativeTime"));
    ad.insert_value("Hours", Value::Int(hrs as i64));
    ad.insert_value("Minutes", Value::Int(mins as i64));
    ad.insert_value("Seconds", Value::Real(secs));
    ad
}

/// `splitTime(t)`: an ad of the fields of a time. An absolute time (or a
/// number, taken as seconds since the epoch in the local offset) gives
/// `Type = "AbsoluteTime"`, Year, Month (1-12), Day, Hours, Minutes,
/// Seconds and Offset, in the value's own offset; a relative time gives
/// `Type = "RelativeTime"`, Days, Hours, Minutes and a real Seconds.
/// undefined → undefined; anything else (ads included) → error.
fn split_time(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    match v {
        Value::Undefined => Value::Undefined,
        Value::RelTime(r) => record(rel_time_ad(r)),
        _ => match number_time(ev, &v) {
            Some(t) => record(abs_time_ad(t)),
            None => Value::Error,
        },
    }
}

/// libclassad's `fixed_from_gregorian` day number (1 = 0001-01-01).
fn fixed_from_gregorian(year: i64, month: i64, day: i64) -> i64 {
    let leap = year % 4 == 0 && !matches!(year % 400, 100 | 200 | 300);
    let adjust = if month <= 2 {
        0
    } else if leap {
        -1
    } else {
        -2
    };
    365 * (year - 1) + (year - 1) / 4 - (year - 1) / 100
        + (year - 1) / 400
        + (367 * month - 362) / 12
        + adjust
        + day
}

/// The broken-down time formatTime prints: the value's own wall clock, or
/// the (integer) fields of an ad (missing or non-integer ones are 0, Month
/// counts from 1, Year is the full year). Weekday and day of year are
/// computed from year/month/day the way libclassad does, without
/// normalizing, so odd fields print oddly (`?` for a bad month name).
fn format_tm(ev: &mut Evaluator, v: &Value) -> Option<Tm> {
    let mut tm = match v {
        Value::Record(r) => {
            let mut get = |name: &str| -> Option<i32> {
                let e = r.ad.get(name)?.clone();
                match ev.eval_in_record(&e, r) {
                    Value::Int(i) => Some(i as i32),
                    _ => None,
                }
            };
            Tm {
                sec: get("Seconds").unwrap_or(0),
                min: get("Minutes").unwrap_or(0),
                hour: get("Hours").unwrap_or(0),
                mday: get("Day").unwrap_or(0),
                mon: get("Month").map_or(0, |m| m.wrapping_sub(1)),
                year: get("Year").map_or(1900, i64::from),
                ..Tm::default()
            }
        }
        Value::RelTime(_) => return None,
        _ => {
            let t = number_time(ev, v)?;
            gm_tm(t.secs.wrapping_add(t.offset as i64))
        }
    };
    let fixed = fixed_from_gregorian(tm.year, tm.mon as i64 + 1, tm.mday as i64);
    tm.wday = (fixed % 7) as i32;
    tm.yday = (fixed - fixed_from_gregorian(tm.year, 1, 1)) as i32;
    Some(tm)
}

/// `formatTime([t [, format]])`: `strftime` (glibc, C locale) of a time;
/// the default format is `%c`, no argument means now. The time is an
/// absolute time (printed in its own offset), a number of seconds (local
/// offset) or an ad of splitTime-style fields. Quirks copied: `%z` is
/// always `+0000` (libclassad leaves the zone fields empty), `%Z` names the
/// local zone, output stops at 1022 bytes. A relative time, a non-string
/// format or any other argument is an error.
fn format_time(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let zone = |ev: &Evaluator, at: i64| {
        StrftimeZone {
            gmtoff: 0,
            name: ev.opts.clock.zone_name_at(at),
            // libclassad's tm has tm_isdst = 0: `%s` reads it as standard time.
            local_offset: ev.opts.clock.standard_offset_at(at),
        }
    };
    if args.is_empty() {
        let n = now(ev);
        let mut z = zone(ev, n);
        z.local_offset = local_offset(ev, n);
        z.gmtoff = z.local_offset as i64;
        return Value::str(strftime("%c", &local_tm(ev, n), &z));
    }
    if args.len() > 2 {
        return Value::Error;
    }
    let v = ev.eval(&args[0], env);
    let Some(tm) = format_tm(ev, &v) else {
        return Value::Error;
    };
    let fmt = if args.len() == 2 {
        match ev.eval(&args[1], env) {
            Value::Str(s) => s,
            _ => return Value::Error,
        }
    } else {
        "%c".into()
    };
    let z = zone(ev, timegm(&tm));
    Value::str(strftime(&fmt, &tm, &z))
}

/// `interval(secs)`: `[d+]h:mm:ss` text of a number of seconds (the
/// argument goes through `int()` and then a C `int`, so
/// `interval(9223372036854775807)` is `"-1"`); leading zero fields are
/// left out and only the first field carries a sign (`"-1:01"`).
fn interval(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some([v]) = eval_n::<1>(ev, args, env) else {
        return Value::Error;
    };
    let Value::Int(i) = to_int(&v) else {
        return Value::Error;
    };
    let t = i as i32;
    let (days, rest) = (t / 86400, t % 86400);
    let (hours, rest) = (rest / 3600, rest % 3600);
    let (min, secs) = (rest / 60, rest % 60);
    let (ah, am, a_s) = (hours.abs(), min.abs(), secs.abs());
    Value::str(if days != 0 {
        format!("{days}+{ah:02}:{am:02}:{a_s:02}")
    } else if hours != 0 {
        format!("{hours}:{am:02}:{a_s:02}")
    } else if min != 0 {
        format!("{min}:{a_s:02}")
    } else {
        format!("{secs}")
    })
}

// ---- seed-era functions (the seed dialect's only; see SEED_FUNCS) ----

const MONTH_ABBR: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// `MakeDate(M, D [, Y])` (thesis order): local midnight of the date; M is
/// 1-12 or a month name (`"jan"`, `"January"`); Y defaults to this year
/// and must be at least 1970. undefined arguments give undefined.
fn make_date(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    if !(2..=3).contains(&args.len()) {
        return Value::Error;
    }
    let vals: Vec<Value> = args.iter().map(|a| ev.eval(a, env)).collect();
    if vals.iter().any(Value::is_undefined) {
        return Value::Undefined;
    }
    let month = match &vals[0] {
        Value::Int(m) if (1..=12).contains(m) => *m,
        Value::Str(s) => {
            let l = s.to_ascii_lowercase();
            match MONTH_ABBR.iter().position(|m| l.starts_with(m)) {
                Some(i) => i as i64 + 1,
                None => return Value::Error,
            }
        }
        _ => return Value::Error,
    };
    let Value::Int(day) = vals[1] else {
        return Value::Error;
    };
    let year = match vals.get(2) {
        Some(Value::Int(y)) => *y,
        Some(_) => return Value::Error,
        None => local_tm(ev, now(ev)).year,
    };
    if year < 1970 || !(1..=31).contains(&day) {
        return Value::Error;
    }
    let tm = Tm {
        year,
        mon: month as i32 - 1,
        mday: day as i32,
        ..Tm::default()
    };
    let naive = timegm(&tm);
    let offset = local_offset(ev, naive);
    Value::AbsTime(AbsTime {
        secs: naive - offset as i64,
        offset,
    })
}

/// `MakeAbsTime(N)` (the thesis' Appendix A; libclassad 25 has no such
/// function): seconds since the epoch as an absolute time. Unlike
/// libclassad's `absTime(N)`, which keeps 32 bits (`absTime(3000000000)`
/// is in 1928), N is taken whole; beyond the years 0–9999 it is error.
/// Anything but a number is read as `absTime` reads it.
fn make_abs_time(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some(secs) = whole_seconds(ev, args, env) else {
        return conv_time(ev, args, env, false);
    };
    match secs {
        Some(secs) if (MIN_ABS_SECS..=MAX_ABS_SECS).contains(&secs) => {
            let offset = local_offset(ev, secs);
            Value::AbsTime(AbsTime { secs, offset })
        }
        _ => Value::Error,
    }
}

/// `MakeRelTime(N)` (the thesis' Appendix A): seconds as a relative time,
/// taken whole (`relTime(N)` keeps 32 bits of an integer, as libclassad).
fn make_rel_time(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Value {
    let Some(secs) = whole_seconds(ev, args, env) else {
        return conv_time(ev, args, env, true);
    };
    match secs {
        Some(secs) => Value::RelTime(secs as f64),
        None => Value::Error,
    }
}

/// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the times an absolute
/// time can be written as.
const MIN_ABS_SECS: i64 = -62_167_219_200;
const MAX_ABS_SECS: i64 = 253_402_300_799;

/// The one numeric argument of `makeAbsTime(N)`/`makeRelTime(N)` in whole
/// seconds (`Some(None)` when it is not finite or too large for 64 bits);
/// `None` when the call is anything else, left to `absTime`/`relTime`.
fn whole_seconds(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Option<Option<i64>> {
    let [arg] = args else { return None };
    match ev.eval(arg, env) {
        Value::Int(i) => Some(Some(i)),
        Value::Real(r) | Value::RelTime(r) => {
            const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
            Some((r.is_finite() && (-LIMIT..LIMIT).contains(&r)).then_some(r.trunc() as i64))
        }
        _ => None,
    }
}

/// InDays/InHours/InMinutes/InSeconds: a time's seconds (absolute: since
/// the epoch; relative: whole seconds) in the unit, as a real.
fn in_units(ev: &mut Evaluator, args: &[Expr], env: &Env, unit: f64) -> Value {
    match eval_n::<1>(ev, args, env) {
        Some([Value::AbsTime(t)]) => Value::Real(t.secs as f64 / unit),
        Some([Value::RelTime(r)]) => Value::Real(c_int(r) as f64 / unit),
        // A relative-time literal evaluates to its seconds as a real.
        Some([Value::Real(r)]) => Value::Real(c_int(r) as f64 / unit),
        _ => Value::Error,
    }
}

fn in_days(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    in_units(ev, a, e, 86400.0)
}
fn in_hours(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    in_units(ev, a, e, 3600.0)
}
fn in_minutes(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    in_units(ev, a, e, 60.0)
}
fn in_seconds(ev: &mut Evaluator, a: &[Expr], e: &Env) -> Value {
    in_units(ev, a, e, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::eval::EvalOptions;
    use crate::lang::time::Clock;

    fn call(name: &str, args: Vec<Value>, offset: i32) -> String {
        let mut ev = Evaluator::new(EvalOptions {
            mode: Default::default(),
            clock: Clock::fixed(1e9, offset),
        });
        let def = SEED_FUNCS.iter().find(|d| d.name == name).unwrap();
        let args: Vec<Expr> = args.into_iter().map(Expr::literal).collect();
        (def.imp)(&mut ev, &args, &Env::None).to_string()
    }

    #[test]
    fn seed_era_functions() {
        let date = |m: Value, d: i64, y: Option<i64>| {
            let mut a = vec![m, Value::Int(d)];
            a.extend(y.map(Value::Int));
            call("makeDate", a, 0)
        };
        assert_eq!(
            date(Value::str("feb"), 10, Some(2003)),
            r#"absTime("2003-02-10T00:00:00-00:00")"#
        );
        assert_eq!(
            date(Value::Int(2), 10, Some(2003)),
            r#"absTime("2003-02-10T00:00:00-00:00")"#
        );
        assert_eq!(
            date(Value::Int(9), 1, None),
            r#"absTime("2001-09-01T00:00:00-00:00")"#
        );
        assert_eq!(date(Value::Int(2), 10, Some(1969)), "error");
        assert_eq!(date(Value::str("foo"), 10, Some(2003)), "error");
        assert_eq!(
            call(
                "makeDate",
                vec![Value::Int(1), Value::Int(1), Value::Int(2000)],
                -21600
            ),
            r#"absTime("2000-01-01T00:00:00-06:00")"#
        );
        assert_eq!(
            call("makeAbsTime", vec![Value::Int(0)], 0),
            r#"absTime("1970-01-01T00:00:00-00:00")"#
        );
        assert_eq!(
            call("makeRelTime", vec![Value::Int(90)], 0),
            r#"relTime("01:30")"#
        );
        assert_eq!(
            call("inDays", vec![Value::RelTime(43200.0)], 0),
            "5.000000000000000E-01"
        );
        assert_eq!(
            call("inHours", vec![Value::RelTime(5400.0)], 0),
            "1.500000000000000E+00"
        );
        assert_eq!(call("inMinutes", vec![Value::Int(60)], 0), "error");
    }
}
