//! The tables `condor_status` and `condor_q` print when no `-af` is given:
//! which one by the ads' `MyType` (the seed papers' `Type`), else one line
//! per ad with its label.

use crate::lang::ast::ClassAd;
use crate::lang::eval::Evaluator;
use crate::lang::time::Clock;
use crate::lang::value::Value;

/// What kind of ad a pool holds, for its default table and summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AdKind {
    Machine,
    Job,
    Other,
}

/// The attributes [`AdKind::of`] reads.
pub const KIND_READS: &[&str] = &["MyType", "Type"];

/// The attributes [`machine_row`] and [`job_row`] read.
pub const ROW_READS: &[&str] = &[
    "Activity",
    "OCU",
    "MyCurrentTime",
    "LastHeardFrom",
    "EnteredCurrentActivity",
    "Name",
    "OpSys",
    "Arch",
    "State",
    "CondorLoadAvg",
    "Memory",
    "ClusterId",
    "ProcId",
    "QDate",
    "JobStatus",
    "RemoteWallClockTime",
    "ShadowBday",
    "JobCurrentStartDate",
    "ImageSize",
    "Cmd",
    "Args",
    "Arguments",
    "Owner",
    "JobPrio",
];

impl AdKind {
    pub fn of(ad: &ClassAd) -> AdKind {
        for attr in ["MyType", "Type"] {
            if let Some(Value::Str(s)) = ad.get(attr).and_then(|e| e.as_literal()) {
                if s.eq_ignore_ascii_case("Machine") {
                    return AdKind::Machine;
                }
                if s.eq_ignore_ascii_case("Job") {
                    return AdKind::Job;
                }
                return AdKind::Other;
            }
        }
        AdKind::Other
    }

    /// The default table's column heads.
    pub fn heads(self) -> &'static [&'static str] {
        match self {
            AdKind::Machine => &[
                "Name",
                "OpSys",
                "Arch",
                "State",
                "Activity",
                "LoadAv",
                "Mem",
                "ActvtyTime",
            ],
            AdKind::Job => &[
                "ID",
                "OWNER",
                "SUBMITTED",
                "RUN_TIME",
                "ST",
                "PRI",
                "SIZE",
                "CMD",
            ],
            AdKind::Other => &["Ad"],
        }
    }

    /// Columns printed flush right (numbers and durations).
    pub fn right_aligned(self, column: usize) -> bool {
        match self {
            AdKind::Machine => matches!(column, 5..=7),
            AdKind::Job => matches!(column, 3 | 5 | 6),
            AdKind::Other => false,
        }
    }
}

/// Attribute `attr` of the ad held as MY, when it is a string.
pub(super) fn string(ev: &mut Evaluator, attr: &str) -> Option<String> {
    match ev.eval_attr(attr) {
        Value::Str(s) => Some(s.to_string()),
        _ => None,
    }
}

fn number(ev: &mut Evaluator, attr: &str) -> Option<f64> {
    match ev.eval_attr(attr) {
        Value::Int(i) => Some(i as f64),
        Value::Real(x) => Some(x),
        Value::Bool(b) => Some(b as u8 as f64),
        _ => None,
    }
}

/// `d+hh:mm:ss`, as the tools print durations.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0) as i64;
    format!(
        "{}+{:02}:{:02}:{:02}",
        s / 86_400,
        s / 3600 % 24,
        s / 60 % 60,
        s % 60
    )
}

/// A machine ad's row of `condor_status` (the evaluator holds it as MY),
/// as HTCondor 25's default table prints it (`startdPFV_Normal` in
/// `condor_status.V6/prettyPrint.cpp`): a missing value is `??`; Activity
/// is `OCU` for an idle slot holding an OCU claim; LoadAv is
/// `CondorLoadAvg` to three places; ActvtyTime is the ad's own clock
/// (`MyCurrentTime`, else `LastHeardFrom`) minus `EnteredCurrentActivity`,
/// never negative, `[Unknown]` without a clock and `-` without the entry
/// time (`render_activity_time`): a saved dump shows what condor_status
/// showed when it was taken, not a figure that grows with the wall clock.
pub fn machine_row(ev: &mut Evaluator, _clock: &Clock) -> Vec<String> {
    let or_unknown = |v: Option<String>| v.unwrap_or_else(|| "??".into());
    let activity = match string(ev, "Activity") {
        Some(a) if a.is_empty() => "??".to_string(),
        Some(a) if a == "Idle" && matches!(ev.eval_attr("OCU"), Value::Bool(true)) => "OCU".into(),
        a => or_unknown(a),
    };
    let clock = integer(ev, "MyCurrentTime").or_else(|| integer(ev, "LastHeardFrom"));
    let activity_time = match (integer(ev, "EnteredCurrentActivity"), clock) {
        (None, _) => "-".to_string(),
        (Some(_), None) => "[Unknown]".to_string(),
        (Some(t), Some(now)) => duration((now - t).max(0) as f64),
    };
    vec![
        or_unknown(string(ev, "Name")),
        or_unknown(string(ev, "OpSys")),
        or_unknown(string(ev, "Arch")),
        or_unknown(string(ev, "State")),
        activity,
        number(ev, "CondorLoadAvg").map_or("??".into(), |x| format!("{x:.3}")),
        integer(ev, "Memory").map_or("??".into(), |x| x.to_string()),
        activity_time,
    ]
}

/// An attribute as HTCondor's `LookupInteger` reads it: an integer, a
/// real truncated, a boolean as 0 or 1.
fn integer(ev: &mut Evaluator, attr: &str) -> Option<i64> {
    match ev.eval_attr(attr) {
        Value::Int(i) => Some(i),
        Value::Real(x) if x.is_finite() => Some(x as i64),
        Value::Bool(b) => Some(b as i64),
        _ => None,
    }
}

/// `JobStatus` as condor_q's one-letter ST column.
pub fn status_letter(status: Option<f64>) -> &'static str {
    match status.map(|s| s as i64) {
        Some(1) => "I",
        Some(2) => "R",
        Some(3) => "X",
        Some(4) => "C",
        Some(5) => "H",
        Some(6) => ">",
        Some(7) => "S",
        _ => "?",
    }
}

/// A job ad's row of `condor_q`.
pub fn job_row(ev: &mut Evaluator, clock: &Clock) -> Vec<String> {
    let now = clock.now();
    let id = match (number(ev, "ClusterId"), number(ev, "ProcId")) {
        (Some(c), Some(p)) => format!("{}.{}", c as i64, p as i64),
        _ => "?".into(),
    };
    let submitted = number(ev, "QDate").map_or("?".into(), |t| {
        let local = t as i64 + clock.offset_at(t as i64) as i64;
        let (_, m, d) = civil_from_days(local.div_euclid(86_400));
        let secs = local.rem_euclid(86_400);
        format!("{m}/{d} {:02}:{:02}", secs / 3600, secs / 60 % 60)
    });
    let status = number(ev, "JobStatus");
    let mut run = number(ev, "RemoteWallClockTime").unwrap_or(0.0);
    if status == Some(2.0) {
        if let Some(start) = number(ev, "ShadowBday").or_else(|| number(ev, "JobCurrentStartDate"))
        {
            run += now - start;
        }
    }
    let size = number(ev, "ImageSize").map_or("?".into(), |kb| format!("{:.1}", kb / 1024.0));
    let cmd = string(ev, "Cmd").map(|c| {
        let base = c.rsplit('/').next().unwrap_or(&c).to_string();
        match string(ev, "Args").or_else(|| string(ev, "Arguments")) {
            Some(a) if !a.is_empty() => format!("{base} {a}"),
            _ => base,
        }
    });
    vec![
        id,
        string(ev, "Owner").unwrap_or_else(|| "?".into()),
        submitted,
        duration(run),
        status_letter(status).into(),
        number(ev, "JobPrio").map_or("0".into(), |p| format!("{}", p as i64)),
        size,
        cmd.unwrap_or_default(),
    ]
}

/// Days since 1970-01-01 as (year, month, day) of the proleptic Gregorian
/// calendar (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}

/// Lay rows out as a table: columns as wide as their widest cell, two
/// spaces apart, numbers flush right.
pub fn layout(kind: AdKind, rows: &[Vec<String>]) -> Vec<String> {
    let heads = kind.heads();
    let mut widths: Vec<usize> = heads.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(c.chars().count());
            }
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut out = String::new();
        for (i, c) in cells.enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            let pad = w.saturating_sub(c.chars().count());
            let last = i + 1 == widths.len();
            if i > 0 {
                out.push_str("  ");
            }
            if kind.right_aligned(i) {
                out.extend(std::iter::repeat_n(' ', pad));
                out.push_str(c);
            } else {
                out.push_str(c);
                if !last {
                    out.extend(std::iter::repeat_n(' ', pad));
                }
            }
        }
        out.trim_end().to_string()
    };
    let mut out = vec![line(&mut heads.iter().copied())];
    for r in rows {
        out.push(line(&mut r.iter().map(|s| s.as_str())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::eval::EvalOptions;
    use crate::lang::parser::parse_classad;
    use std::sync::Arc;

    #[test]
    fn a_machine_and_a_job_as_the_tools_show_them() {
        let clock = Clock::fixed(1_000_000.0, 0);
        let mut ev = Evaluator::new(EvalOptions {
            clock,
            ..Default::default()
        });
        let m = parse_classad(
            r#"[ MyType = "Machine"; Name = "slot1@a"; OpSys = "LINUX"; Arch = "X86_64"; State = "Claimed";
                 Activity = "Busy"; CondorLoadAvg = 1.0; LoadAvg = 0.5; Memory = 128;
                 MyCurrentTime = 1000000 - 60; EnteredCurrentActivity = 1000000 - 3601 ]"#,
        )
        .unwrap();
        assert_eq!(AdKind::of(&m), AdKind::Machine);
        ev.set_ads(Some(Arc::new(m)), None);
        assert_eq!(
            machine_row(&mut ev, &clock),
            [
                "slot1@a",
                "LINUX",
                "X86_64",
                "Claimed",
                "Busy",
                "1.000",
                "128",
                "0+00:59:01"
            ]
        );
        let j = parse_classad(
            r#"[ MyType = "Job"; ClusterId = 7; ProcId = 0; Owner = "alice"; QDate = 86400 * 70 + 3600 * 14 + 60 * 5;
                 JobStatus = 2; RemoteWallClockTime = 10; ShadowBday = 1000000 - 50; JobPrio = 5; ImageSize = 2048;
                 Cmd = "/bin/sleep"; Args = "60" ]"#,
        )
        .unwrap();
        assert_eq!(AdKind::of(&j), AdKind::Job);
        ev.set_ads(Some(Arc::new(j)), None);
        assert_eq!(
            job_row(&mut ev, &clock),
            [
                "7.0",
                "alice",
                "3/12 14:05",
                "0+00:01:00",
                "R",
                "5",
                "2.0",
                "sleep 60"
            ]
        );
    }

    /// ActvtyTime from the ad's own clock, as condor_status: a saved dump
    /// reads the same however long after it is read.
    #[test]
    fn activity_time_is_the_ads_own_clock() {
        let clock = Clock::fixed(2_000_000_000.0, 0);
        let mut ev = Evaluator::new(EvalOptions {
            clock,
            ..Default::default()
        });
        let mut row = |text: &str| {
            ev.set_ads(Some(Arc::new(parse_classad(text).unwrap())), None);
            machine_row(&mut ev, &clock)
        };
        let cases = [
            (
                "[ MyCurrentTime = 1000; LastHeardFrom = 5000; EnteredCurrentActivity = 940 ]",
                "0+00:01:00",
            ),
            (
                "[ LastHeardFrom = 1000; EnteredCurrentActivity = 940 ]",
                "0+00:01:00",
            ),
            (
                "[ MyCurrentTime = 900; EnteredCurrentActivity = 940 ]",
                "0+00:00:00",
            ),
            ("[ EnteredCurrentActivity = 940 ]", "[Unknown]"),
            ("[ MyCurrentTime = 1000 ]", "-"),
        ];
        for (ad, want) in cases {
            assert_eq!(row(ad)[7], want, "{ad}");
        }
        // Missing values are ??, an idle slot holding an OCU claim is OCU.
        let r = row(r#"[ Activity = "Idle"; OCU = true ]"#);
        assert_eq!(r[..7], ["??", "??", "??", "??", "OCU", "??", "??"]);
    }

    #[test]
    fn durations_and_dates() {
        assert_eq!(duration(90061.0), "1+01:01:01");
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_794), (2024, 3, 12));
    }
}
