//! `formatTime` in real time zones, as HTCondor 25's libclassad answers
//! under the same `TZ` (checked with its Python bindings): `%Z` is the
//! zone's standard-time abbreviation even in summer, `%z` is always
//! `+0000`, and `%s` reads the broken-down time as standard time (libclassad
//! leaves `tm_isdst` zero). The CLI runs in a child process so each case has
//! its own `TZ`; a machine without the zone's tzdata skips it.

use std::path::Path;
use std::process::Command;

/// (TZ, expression, libclassad's answer)
const CASES: &[(&str, &str, &str)] = &[
    (
        "Asia/Kolkata",
        r#"formatTime(1700000000, "%z|%Z|%H|%c|%s")"#,
        r#""+0000|IST|03|Wed Nov 15 03:43:20 2023|1700000000""#,
    ),
    (
        "Asia/Kolkata",
        r#"formatTime(1690000000, "%Z|%H")"#,
        r#""IST|09""#,
    ),
    (
        "Asia/Kolkata",
        r#"formatTime(absTime("2023-11-14T22:13:20+02:00"), "%Z|%H|%z")"#,
        r#""IST|22|+0000""#,
    ),
    (
        "America/Chicago",
        r#"formatTime(1700000000, "%z|%Z|%H|%c|%s")"#,
        r#""+0000|CST|16|Tue Nov 14 16:13:20 2023|1700000000""#,
    ),
    // Summer: the hour is daylight time, the name and `%s` are standard time.
    (
        "America/Chicago",
        r#"formatTime(1690000000, "%Z|%H")"#,
        r#""CST|23""#,
    ),
    (
        "America/Chicago",
        r#"formatTime(1690000000, "%s")"#,
        r#""1690003600""#,
    ),
    (
        "America/Chicago",
        r#"formatTime(absTime("2023-07-14T22:13:20+02:00"), "%s")"#,
        r#""1689394400""#,
    ),
    (
        "Europe/London",
        r#"formatTime(1690000000, "%Z|%H")"#,
        r#""GMT|05""#,
    ),
    (
        "Europe/London",
        r#"formatTime(1690000000, "%s")"#,
        r#""1690003600""#,
    ),
    (
        "UTC",
        r#"formatTime(1690000000, "%Z|%H|%z")"#,
        r#""UTC|04|+0000""#,
    ),
];

fn eval_in_zone(tz: &str, exprs: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_classad"))
        .env("TZ", tz)
        .arg("eval")
        .args(exprs)
        .output()
        .expect("run the classad CLI");
    assert!(out.status.success(), "classad eval failed in {tz}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn format_time_names_zones_as_libclassad_does() {
    let mut checked = 0;
    for &(tz, expr, expected) in CASES {
        if tz != "UTC" && !Path::new("/usr/share/zoneinfo").join(tz).exists() {
            eprintln!("skipping {tz}: no tzdata for it here");
            continue;
        }
        let got = eval_in_zone(tz, &[expr]);
        assert_eq!(got, vec![expected.to_string()], "TZ={tz} {expr}");
        checked += 1;
    }
    assert!(checked >= 1, "no time zone could be checked");
}

/// A pinned offset (`--tz-offset`, the browser) has no zone name: `%Z` is
/// the offset written as tzdata writes nameless zones.
#[test]
fn a_pinned_offset_names_itself() {
    let out = Command::new(env!("CARGO_BIN_EXE_classad"))
        .env("TZ", "Asia/Kolkata")
        .args([
            "eval",
            "--tz-offset",
            "19800",
            r#"formatTime(1700000000, "%Z|%H")"#,
        ])
        .output()
        .expect("run the classad CLI");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#""+0530|03""#);
}
