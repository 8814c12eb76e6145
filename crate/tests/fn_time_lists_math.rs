//! Time, list and number functions checked against libclassad.
//!
//! Every row of `ORACLE` was evaluated by HTCondor 25.14's libclassad (the
//! `classad2` Python bindings, TZ=UTC) and is compared with our canonical
//! text under a pinned clock (epoch 1000000000, UTC). Rows that depend on
//! "now" or on another time zone are in the smaller tables below, derived
//! from the same oracle runs (TZ=UTC and TZ=`<+01>-1`).

use classad::lang::time::{format_rel_time, parse_abs_time_text, parse_rel_time_text};
use std::sync::Arc;

use classad::lang::time::AbsTime;
use classad::{parse_expr_with, Clock, Dialect, EvalOptions, Evaluator, Mode};

const NOW: f64 = 1_000_000_000.0; // 2001-09-09T01:46:40Z, a Sunday

fn eval_with(src: &str, mode: Mode, offset: i32) -> String {
    // Modern dialect: the rows are libclassad's answers.
    let e = match parse_expr_with(src, Dialect::Modern, Mode::HTCondor) {
        Ok(e) => e,
        Err(d) => return format!("PARSE_ERROR {d}"),
    };
    let mut ev = Evaluator::new(EvalOptions {
        mode,
        clock: Clock::fixed(NOW, offset),
    });
    ev.eval_expr(&e).to_string()
}

fn check(rows: &[(&str, &str)], mode: Mode, offset: i32) {
    let mut bad = Vec::new();
    for (src, want) in rows {
        let got = eval_with(src, mode, offset);
        if got != *want {
            bad.push(format!("{src}\n    expected: {want}\n    got:      {got}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows differ:\n{}",
        bad.len(),
        rows.len(),
        bad.join("\n")
    );
}

#[test]
fn functions_agree_with_libclassad() {
    check(ORACLE, Mode::HTCondor, 0);
}

/// Clock-dependent functions under the pinned clock (UTC).
#[test]
fn clock_functions_use_the_pinned_clock() {
    check(
        &[
            ("time()", "1000000000"),
            ("currentTime()", r#"absTime("2001-09-09T01:46:40-00:00")"#),
            ("absTime()", r#"absTime("2001-09-09T01:46:40-00:00")"#),
            ("dayTime()", r#"relTime("01:46:40")"#),
            ("DayTime()", r#"relTime("01:46:40")"#),
            ("timeZoneOffset()", r#"relTime("00")"#),
            ("formatTime()", r#""Sun Sep  9 01:46:40 2001""#),
            ("getDayOfWeek(currentTime())", "0"),
            ("currentTime() - absTime(0) == relTime(1000000000)", "true"),
            (
                "dayTime() > relTime(3600) && dayTime() < relTime(7200)",
                "true",
            ),
        ],
        Mode::HTCondor,
        0,
    );
}

/// The local zone is the clock's (here UTC+1; oracle run with TZ=<+01>-1).
#[test]
fn local_time_zone_comes_from_the_clock() {
    check(
        &[
            ("getHours(absTime(0))", "1"),
            ("getHours(absTime(0, 0))", "1"),
            ("getYear(absTime(-1))", "1970"),
            ("absTime(0)", r#"absTime("1970-01-01T01:00:00+01:00")"#),
            (
                "absTime(relTime(5))",
                r#"absTime("1970-01-01T01:00:05+01:00")"#,
            ),
            (
                "splitTime(0)",
                r#"[ Day = 1; Type = "AbsoluteTime"; Year = 1970; Hours = 1; Month = 1; Offset = 3600; Minutes = 0; Seconds = 0 ]"#,
            ),
            ("formatTime(0)", r#""Thu Jan  1 01:00:00 1970""#),
            ("formatTime(0, \"%H %Z %z %s\")", r#""01 +01 +0000 0""#),
            (
                "formatTime(absTime(0, 0), \"%H %Z %z %s\")",
                r#""00 +01 +0000 -3600""#,
            ),
            (
                "formatTime([Year=1970; Month=1; Day=1], \"%s %Z\")",
                r#""-3600 +01""#,
            ),
            ("string(absTime(0))", r#""1970-01-01T01:00:00+01:00""#),
            ("timeZoneOffset()", r#"relTime("01:00:00")"#),
            ("dayTime()", r#"relTime("02:46:40")"#),
        ],
        Mode::HTCondor,
        3600,
    );
}

/// evalInEachContext and countMatches are HTCondor's, not libclassad's.
#[test]
fn htcondor_functions_stay_registered_in_strict_mode() {
    // As in an HTCondor process with STRICT_CLASSAD_EVALUATION on.
    check(
        &[
            ("evalInEachContext(a, {[a = 1]})", "{ 1 }"),
            ("countMatches(a, {[a = 1]})", "1"),
            ("member(1, {1})", "true"),
            ("formatTime(0, \"%Y\")", r#""1970""#),
        ],
        Mode::Strict,
        0,
    );
}

// ---- evalInEachContext / countMatches in match contexts ----
//
// The fuzzer's ads (tests/conformance/fuzz.py MY_AD / TARGET_AD) and its
// three contexts: MY + TARGET (a match), MY alone, and neither (an empty
// MY, as the CLI and the oracle use). HTCondor scopes these functions'
// arguments through libclassad's evaluation state (see functions/misc.rs):
// the first argument, when an attribute reference, is looked up first and
// moves the current scope (also for what follows the call: `strcat(...,
// a)`), and nested ads of a match borrow their side's alternate scope.
// Expected values from libclassad (HTCondor 25.14.1, fuzz.py's oracle).

const MATCH_MY_AD: &str = r#"[ a = 1; b = 2.5; n = -7; z = 0; big = 9223372036854775807; s = "Hello"; cs = "a,b,c"; v = "1.2.3"; bt = true; bf = false; l = { 1,2,3 }; sl = { "a","B" }; r = [ p = 1; q = "x"; w = a + 1 ]; u = undefined; e = error; at = absTime(1000); rt = relTime(90); inc = a + 1; reft = TARGET.ta; chain = inc * 2; self_ref = self_ref; lr = { [ k = 1 ],[ k = 2 ] } ]"#;
const MATCH_TARGET_AD: &str = r#"[ ta = 10; tb = "World"; a = 100; s = "hello"; tl = { "x","y" }; tr = [ p = 2 ]; tref = MY.a; tu = tb; tinc = ta + 1; tx = missing ]"#;

#[derive(Clone, Copy, Debug)]
enum Ctx {
    /// MY and TARGET (a match).
    Match,
    /// MY only.
    My,
    /// An empty MY.
    Neither,
}

fn eval_in_ctx(src: &str, mode: Mode, ctx: Ctx) -> String {
    let e = match parse_expr_with(src, Dialect::Modern, mode) {
        Ok(e) => e,
        Err(d) => return format!("PARSE_ERROR {d}"),
    };
    let ad = |text: &str| Arc::new(classad::parse_classad(text).expect("test ad parses"));
    let (my, target) = match ctx {
        Ctx::Match => (ad(MATCH_MY_AD), Some(ad(MATCH_TARGET_AD))),
        Ctx::My => (ad(MATCH_MY_AD), None),
        Ctx::Neither => (Arc::new(classad::ClassAd::new()), None),
    };
    let mut ev = Evaluator::new(EvalOptions {
        mode,
        clock: Clock::fixed(NOW, 0),
    });
    ev.set_ads(Some(my), target);
    ev.eval_expr(&e).to_string()
}

#[test]
fn eval_in_each_context_in_match_contexts() {
    let mut bad = Vec::new();
    for (mode, ctx, src, want) in EACH_CONTEXT {
        let got = eval_in_ctx(src, *mode, *ctx);
        if got != *want {
            bad.push(format!(
                "{mode:?} {ctx:?} {src}\n    expected: {want}\n    got:      {got}"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows differ:\n{}",
        bad.len(),
        EACH_CONTEXT.len(),
        bad.join("\n")
    );
}

/// (mode, context, expression, libclassad's value)
const EACH_CONTEXT: &[(Mode, Ctx, &str, &str)] = &[
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"countMatches(TARGET.a, lr)"#,
        r#"2"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"countMatches(TARGET.ta, lr)"#,
        r#"2"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"countMatches(.a, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"0"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"countMatches(TARGET.missing, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"0"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(parent, { [ k = 1 ],[ k = 2 ] })"#,
        r#"{ [ ad = .LEFT; my = .LEFT; other = .RIGHT; target = .RIGHT ],[ ad = .LEFT; my = .LEFT; other = .RIGHT; target = .RIGHT ] }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"size(evalInEachContext(self, lr))"#,
        r#"2"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(tinc, lr)"#,
        r#"{ 11,11 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(avg(tr) <= 1, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"{ error,error,error }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(k, lr)"#,
        r#"undefined"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(k, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"{ 1,2,undefined }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(ta + k, { [ k = 1 ],[ k = 2 ] })"#,
        r#"{ 11,12 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(ta, { r, tr })"#,
        r#"{ 10,10 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(a, { r, tr })"#,
        r#"{ 1,1 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(p, { r, tr })"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(lr.k, { [ k = 1 ] })"#,
        r#"{ { 1,2 } }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(tref, ({ [ k = 1 ] }))"#,
        r#"{ 1 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(TARGET.tb, { [ k = 1 ] })"#,
        r#"{ "World" }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(TARGET, { self })"#,
        r#"{ [ a = 100; s = "hello"; ta = 10; tb = "World"; tl = { "x","y" }; tr = [ p = 2 ]; tu = tb; tx = missing; tinc = ta + 1; tref = MY.a ] }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(countMatches(ta > 1, { [ k = 1 ] }), lr)"#,
        r#"{ 1,1 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext([ x = k ].x + 0, lr)"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(countMatches(ta, lr), a, [ x = a ].x, lr[0].k)"#,
        r#""210011""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(evalInEachContext(tb, lr), parent)"#,
        r#""{ \"World\",\"World\" }[ ad = .RIGHT; my = .RIGHT; other = .LEFT; target = .LEFT ]""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(evalInEachContext(tb, lr), { a }[0])"#,
        r#""{ \"World\",\"World\" }1""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(evalInEachContext(tb, lr), unparse(a))"#,
        r#""{ \"World\",\"World\" }100""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(evalInEachContext(tb, lr), inc)"#,
        r#""{ \"World\",\"World\" }2""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(evalInEachContext(.a, { [ k = 1 ] }), a)"#,
        r#"undefined"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"size(evalInEachContext(tb, lr)) + a"#,
        r#"102"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"a + size(evalInEachContext(tb, lr))"#,
        r#"3"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(countMatches(ta, undefined), a)"#,
        r#""0100""#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"countMatches(TARGET.a, lr)"#,
        r#"0"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"countMatches(.a, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"0"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"evalInEachContext(tinc, lr)"#,
        r#"undefined"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"evalInEachContext(ta, { [ k = 1 ] })"#,
        r#"{ undefined }"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"evalInEachContext(TARGET.ta, { [ k = 1 ] })"#,
        r#"{ 10 }"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"evalInEachContext(avg(tr) <= 1, { [ k = 1 ],[ k = 2 ] })"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"evalInEachContext(tb, lr) =?= a"#,
        r#"true"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(evalInEachContext(target.tb, { [ k = 1 ] }), lr)"#,
        r#"undefined"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(evalInEachContext(target.tb, { [ k = 1 ] }), ta)"#,
        r#""{ \"World\" }10""#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(countMatches(ta, undefined), a)"#,
        r#"undefined"#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"evalInEachContext(parent, { [ k = 1 ] })"#,
        r#"{ [ a = 1; b = 2.500000000000000E+00; e = error; l = { 1,2,3 }; n = -7; r = [ p = 1; q = "x"; w = a + 1 ]; s = "Hello"; u = undefined; v = "1.2.3"; z = 0; at = absTime(1000); bf = false; bt = true; cs = "a,b,c"; lr = { [ k = 1 ],[ k = 2 ] }; rt = relTime(90); sl = { "a","B" }; big = 9223372036854775807; inc = a + 1; reft = TARGET.ta; chain = inc * 2; self_ref = self_ref ] }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"evalInEachContext(tinc, lr)"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"evalInEachContext(k, lr)"#,
        r#"{ 1,2 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"countMatches(.a, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"3"#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"strcat(evalInEachContext(r.p, lr), q)"#,
        r#""{ 1,1 }x""#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"[ a = 5; x = strcat(evalInEachContext(tb, lr), a); y = a ].x"#,
        r#""{ undefined,undefined }1""#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"strcat(evalInEachContext(strcat(evalInEachContext(tb, lr), k), lr), a)"#,
        r#""{ undefined,undefined }1""#,
    ),
    (
        Mode::Strict,
        Ctx::My,
        r#"evalInEachContext(tinc, lr)"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::Strict,
        Ctx::My,
        r#"evalInEachContext(k, lr)"#,
        r#"{ 1,2 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Neither,
        r#"evalInEachContext(parent, { [ k = 1 ],[ k = 2 ],[ j = 3 ] })"#,
        r#"{ [  ],[  ],[  ] }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Neither,
        r#"evalInEachContext(self, lr)"#,
        r#"undefined"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Neither,
        r#"countMatches(k, lr)"#,
        r#"0"#,
    ),
    (
        Mode::Strict,
        Ctx::Neither,
        r#"evalInEachContext(parent, { [ k = 1 ] })"#,
        r#"{ [  ] }"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"countMatches(tinc, [ p = 100 ].a)"#,
        r#"error"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(countMatches(TARGET.s, { inc }[0]), other.ta)"#,
        r#"error"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(countMatches(TARGET.missing, -(self)), my.b)"#,
        r#"error"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(countMatches(k, { [ k = 1 ] }), self.LEFT.a, self.RIGHT.a, isClassAd(self.lCtx))"#,
        r#""11100true""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext({ k }[0] + 0, lr)"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"strcat(countMatches(j, { [ k = 1 ],[ k = 2 ],[ j = 3 ] }), self.RIGHT.tb)"#,
        r#""1World""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(TARGET, { parent })"#,
        r#"{ [ a = 100; s = "hello"; ta = 10; tb = "World"; tl = { "x","y" }; tr = [ p = 2 ]; tu = tb; tx = missing; tinc = ta + 1; tref = MY.a ] }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"evalInEachContext(LEFT.a, { self })"#,
        r#"{ 1 }"#,
    ),
    (
        Mode::HTCondor,
        Ctx::My,
        r#"evalInEachContext({ k }[0] + 0, lr)"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        Mode::Strict,
        Ctx::Match,
        r#"strcat(countMatches(k, { [ k = 1 ] }), self)"#,
        r#""1[ lCtx = [ ad = .LEFT; my = .LEFT; other = .RIGHT; target = .RIGHT ]; LEFT = [ a = 1; b = 2.500000000000000E+00; e = error; l = { 1,2,3 }; n = -7; r = [ p = 1; q = \"x\"; w = a + 1 ]; s = \"Hello\"; u = undefined; v = \"1.2.3\"; z = 0; at = absTime(1000); bf = false; bt = true; cs = \"a,b,c\"; lr = { [ k = 1 ],[ k = 2 ] }; rt = relTime(90); sl = { \"a\",\"B\" }; big = 9223372036854775807; inc = a + 1; reft = TARGET.ta; chain = inc * 2; self_ref = self_ref ]; rCtx = [ ad = .RIGHT; my = .RIGHT; other = .LEFT; target = .LEFT ]; RIGHT = [ a = 100; s = \"hello\"; ta = 10; tb = \"World\"; tl = { \"x\",\"y\" }; tr = [ p = 2 ]; tu = tb; tx = missing; tinc = ta + 1; tref = MY.a ]; leftRankValue = LEFT.rank; rightRankValue = RIGHT.rank; symmetricMatch = RIGHT.requirements && LEFT.requirements; leftMatchesRight = RIGHT.requirements; rightMatchesLeft = LEFT.requirements ]""#,
    ),
    (
        Mode::HTCondor,
        Ctx::Match,
        r#"(countMatches(ta, lr) ? TARGET.a : v)"#,
        r#"1"#,
    ),
];

#[test]
fn relative_time_text() {
    for (text, secs) in [
        ("1d2h3m4s", Some(93784.0)),
        ("2h30m", Some(9000.0)),
        ("1+01:01:01.5", Some(90061.5)),
        ("1:00", Some(60.0)),
        ("1:00:00", Some(3600.0)),
        ("-1d", Some(-86400.0)),
        ("1 d", Some(86400.0)),
        ("1.5", Some(1.5)),
        ("", Some(0.0)),
        ("+1d", None),
        ("garbage", None),
    ] {
        assert_eq!(parse_rel_time_text(text), secs, "{text:?}");
    }
    for (secs, text) in [
        (0.0, "00"),
        (61.5, "01:01"),
        (-0.5, "00"),
        (-90061.0, "-1+01:01:01"),
        (1e10, "--24855+-3:-14:-8"),
        (2147483647.0, "24855+03:14:07"),
    ] {
        assert_eq!(format_rel_time(secs), text, "{secs}");
    }
}

#[test]
fn absolute_time_text() {
    let utc = |_: i64| 0;
    let plus1 = |_: i64| 3600;
    let at = |secs, offset| Some(AbsTime { secs, offset });
    assert_eq!(parse_abs_time_text("2020-01-01", utc), at(1577836800, 0));
    assert_eq!(parse_abs_time_text("2020", utc), at(1577750400, 0)); // 2019-12-31
    assert_eq!(parse_abs_time_text("2020-13-45", utc), at(1613260800, 0)); // 2021-02-14
    assert_eq!(
        parse_abs_time_text("2020-01-01T00:00:00", plus1),
        at(1577833200, 3600)
    );
    assert_eq!(
        parse_abs_time_text("2020-01-01T00:00:00Z", plus1),
        at(1577836800, 0)
    );
    assert_eq!(
        parse_abs_time_text("2020-01-01T12:34:56-08:00", utc),
        at(1577910896, -28800)
    );
    // mktime() of the local wall clock is -1: libclassad rejects it.
    assert_eq!(parse_abs_time_text("1969-12-31T23:59:59Z", utc), None);
    assert_eq!(parse_abs_time_text("1970-01-01T00:59:59Z", plus1), None);
    assert_eq!(
        parse_abs_time_text("1969-12-31T23:59:59Z", plus1),
        at(-1, 0)
    );
    assert_eq!(parse_abs_time_text("2020-01-01T00:00:00.5Z", utc), None);
    assert_eq!(parse_abs_time_text("abc", utc), None);
}

/// Rows evaluated by libclassad (TZ=UTC).
static ORACLE: &[(&str, &str)] = &[
    (r#"time(1)"#, r#"error"#),
    (r#"currentTime(1)"#, r#"error"#),
    (r#"dayTime(1)"#, r#"error"#),
    (r#"timeZoneOffset(1)"#, r#"error"#),
    (r#"absTime(0)"#, r#"absTime("1970-01-01T00:00:00-00:00")"#),
    (r#"absTime(-1)"#, r#"absTime("1969-12-31T23:59:59-00:00")"#),
    (r#"absTime(1.5)"#, r#"absTime("1970-01-01T00:00:01-00:00")"#),
    (
        r#"absTime(-1.5)"#,
        r#"absTime("1969-12-31T23:59:59-00:00")"#,
    ),
    (
        r#"absTime(4102444800)"#,
        r#"absTime("1963-11-25T17:31:44-00:00")"#,
    ),
    (
        r#"absTime(253402300799)"#,
        r#"absTime("1969-12-23T02:12:15-00:00")"#,
    ),
    (
        r#"absTime(1e15)"#,
        r#"absTime("1901-12-13T20:45:52-00:00")"#,
    ),
    (
        r#"absTime(real("NaN"))"#,
        r#"absTime("1901-12-13T20:45:52-00:00")"#,
    ),
    (
        r#"absTime(2147483648)"#,
        r#"absTime("1901-12-13T20:45:52-00:00")"#,
    ),
    (r#"absTime(true)"#, r#"error"#),
    (r#"absTime(undefined)"#, r#"undefined"#),
    (r#"absTime(error)"#, r#"error"#),
    (r#"absTime({1})"#, r#"error"#),
    (r#"absTime([a = 1])"#, r#"error"#),
    (
        r#"absTime(absTime(5))"#,
        r#"absTime("1970-01-01T00:00:05-00:00")"#,
    ),
    (
        r#"absTime(absTime(5), 60)"#,
        r#"absTime("1970-01-01T00:00:05-00:00")"#,
    ),
    (
        r#"absTime(relTime(5))"#,
        r#"absTime("1970-01-01T00:00:05-00:00")"#,
    ),
    (
        r#"absTime(relTime(5), 60)"#,
        r#"absTime("1970-01-01T00:01:05+00:01")"#,
    ),
    (
        r#"absTime(5, 3600)"#,
        r#"absTime("1970-01-01T01:00:05+01:00")"#,
    ),
    (
        r#"absTime(5, -3600)"#,
        r#"absTime("1969-12-31T23:00:05-01:00")"#,
    ),
    (
        r#"absTime(5, 1.5)"#,
        r#"absTime("1970-01-01T00:00:06+00:00")"#,
    ),
    (
        r#"absTime(5, relTime(3600))"#,
        r#"absTime("1970-01-01T01:00:05+01:00")"#,
    ),
    (r#"absTime(5, "a")"#, r#"error"#),
    (r#"absTime(5, undefined)"#, r#"error"#),
    (r#"absTime(5, 0, 0)"#, r#"error"#),
    (
        r#"absTime(1, 2147483648)"#,
        r#"absTime("1901-12-13T20:45:53-596523:14")"#,
    ),
    (
        r#"absTime(1, 90061)"#,
        r#"absTime("1970-01-02T01:01:02+25:01")"#,
    ),
    (
        r#"absTime(1, -90061)"#,
        r#"absTime("1969-12-30T22:59:00-25:01")"#,
    ),
    (
        r#"absTime(1, -59)"#,
        r#"absTime("1969-12-31T23:59:02-00:00")"#,
    ),
    (
        r#"absTime(1, 59)"#,
        r#"absTime("1970-01-01T00:01:00+00:00")"#,
    ),
    (
        r#"absTime(0.5, -1)"#,
        r#"absTime("1969-12-31T23:59:59-00:00")"#,
    ),
    (
        r#"absTime(relTime(0), -1)"#,
        r#"absTime("1969-12-31T23:59:59-00:00")"#,
    ),
    (r#"absTime(strcat("2020-01-01"))"#, r#""2020-01-01""#),
    (r#"absTime("abc", 3600)"#, r#""abc""#),
    (r#"relTime(0)"#, r#"relTime("00")"#),
    (r#"relTime(59)"#, r#"relTime("59")"#),
    (r#"relTime(61)"#, r#"relTime("01:01")"#),
    (r#"relTime(3600)"#, r#"relTime("01:00:00")"#),
    (r#"relTime(86400)"#, r#"relTime("1+00:00:00")"#),
    (r#"relTime(90061)"#, r#"relTime("1+01:01:01")"#),
    (r#"relTime(-90061)"#, r#"relTime("-1+01:01:01")"#),
    (r#"relTime(1.5)"#, r#"relTime("01")"#),
    (r#"relTime(-1.5)"#, r#"relTime("-01")"#),
    (r#"relTime(-0.5)"#, r#"relTime("00")"#),
    (r#"relTime(61.5)"#, r#"relTime("01:01")"#),
    (r#"relTime(1e9)"#, r#"relTime("11574+01:46:40")"#),
    (r#"relTime(1e10)"#, r#"relTime("--24855+-3:-14:-8")"#),
    (r#"relTime(-1e10)"#, r#"relTime("--24855+-3:-14:-8")"#),
    (r#"relTime(2147483648)"#, r#"relTime("--24855+-3:-14:-8")"#),
    (r#"relTime(-2147483649)"#, r#"relTime("24855+03:14:07")"#),
    (r#"relTime(9223372036854775807)"#, r#"relTime("-01")"#),
    (r#"relTime(real("NaN"))"#, r#"relTime("--24855+-3:-14:-8")"#),
    (r#"relTime(true)"#, r#"error"#),
    (r#"relTime(undefined)"#, r#"undefined"#),
    (r#"relTime(error)"#, r#"error"#),
    (r#"relTime({1})"#, r#"error"#),
    (r#"relTime(absTime(5))"#, r#"relTime("05")"#),
    (r#"relTime(relTime(5))"#, r#"relTime("05")"#),
    (r#"relTime(strcat("1d"))"#, r#"relTime("00")"#),
    (r#"relTime()"#, r#"error"#),
    (r#"relTime(1, 2)"#, r#"error"#),
    (r#"relTime(1.5) + relTime(1.5)"#, r#"relTime("03")"#),
    (r#"relTime(10) / 4"#, r#"relTime("02")"#),
    (
        r#"absTime("2020-01-01T00:00:00Z")"#,
        r#"absTime("2020-01-01T00:00:00-00:00")"#,
    ),
    (
        r#"absTime("2020-01-01T12:34:56+05:30")"#,
        r#"absTime("2020-01-01T12:34:56+05:30")"#,
    ),
    (
        r#"absTime("2020-01-01T12:34:56-0800")"#,
        r#"absTime("2020-01-01T12:34:56-08:00")"#,
    ),
    (
        r#"absTime("20200101T123456Z")"#,
        r#"absTime("2020-01-01T12:34:56-00:00")"#,
    ),
    (
        r#"absTime("2020-02-30T00:00:00Z")"#,
        r#"absTime("2020-03-01T00:00:00-00:00")"#,
    ),
    (
        r#"absTime("2020-13-01T00:00:00Z")"#,
        r#"absTime("2021-01-01T00:00:00-00:00")"#,
    ),
    (
        r#"absTime("2020-01-01T25:00:00Z")"#,
        r#"absTime("2020-01-02T01:00:00-00:00")"#,
    ),
    (
        r#"absTime("2020-01-01T00:00Z")"#,
        r#"absTime("2020-01-01T00:00:00-00:00")"#,
    ),
    (
        r#"absTime("2020-01-01T00:00:00+23:59")"#,
        r#"absTime("2020-01-01T00:00:00+23:59")"#,
    ),
    (r#"getYear(absTime(0))"#, r#"1970"#),
    (r#"getYear(absTime(-1))"#, r#"1969"#),
    (r#"getYear(absTime(4102444800))"#, r#"1963"#),
    (r#"getYear(absTime(1e9))"#, r#"2001"#),
    (r#"getMonth(absTime(951782400))"#, r#"2"#),
    (r#"getMonth(absTime(951868800))"#, r#"3"#),
    (r#"getDayOfYear(absTime(951868800))"#, r#"60"#),
    (r#"getDayOfYear(absTime(-1))"#, r#"364"#),
    (r#"getDayOfMonth(absTime(951782400))"#, r#"29"#),
    (r#"getDayOfWeek(absTime(0))"#, r#"4"#),
    (r#"getDayOfWeek(absTime(1e9))"#, r#"0"#),
    (r#"getHours(absTime(86399))"#, r#"23"#),
    (r#"getMinutes(absTime(1234567890))"#, r#"31"#),
    (r#"getSeconds(absTime(1234567890))"#, r#"30"#),
    (r#"getHours(absTime("2020-06-15T12:30:45+02:00"))"#, r#"10"#),
    (
        r#"getMinutes(absTime("2020-06-15T12:30:45-05:30"))"#,
        r#"0"#,
    ),
    (r#"getDays(absTime(0))"#, r#"error"#),
    (r#"getYear(relTime(5))"#, r#"error"#),
    (r#"getDays(relTime(90061))"#, r#"1"#),
    (r#"getDays(relTime(-90061))"#, r#"-1"#),
    (r#"getHours(relTime(90061))"#, r#"1"#),
    (r#"getHours(relTime(-90061))"#, r#"-1"#),
    (r#"getMinutes(relTime(-90061))"#, r#"-1"#),
    (r#"getSeconds(relTime(1.5))"#, r#"1"#),
    (r#"getSeconds(relTime(-0.5))"#, r#"0"#),
    (r#"getDays(relTime(1e10))"#, r#"-24855"#),
    (r#"getHours(0)"#, r#"error"#),
    (r#"getHours("2020-01-01")"#, r#"error"#),
    (r#"getHours(undefined)"#, r#"error"#),
    (r#"getHours()"#, r#"error"#),
    (r#"getHours(absTime(0), 1)"#, r#"error"#),
    (
        r#"splitTime(absTime(0))"#,
        r#"[ Day = 1; Type = "AbsoluteTime"; Year = 1970; Hours = 0; Month = 1; Offset = 0; Minutes = 0; Seconds = 0 ]"#,
    ),
    (
        r#"splitTime(absTime("2020-06-15T12:30:45+02:00"))"#,
        r#"[ Day = 15; Type = "AbsoluteTime"; Year = 2020; Hours = 12; Month = 6; Offset = 7200; Minutes = 30; Seconds = 45 ]"#,
    ),
    (
        r#"splitTime(absTime(0, 3600))"#,
        r#"[ Day = 1; Type = "AbsoluteTime"; Year = 1970; Hours = 1; Month = 1; Offset = 3600; Minutes = 0; Seconds = 0 ]"#,
    ),
    (
        r#"splitTime(relTime(90061))"#,
        r#"[ Days = 1; Type = "RelativeTime"; Hours = 1; Minutes = 1; Seconds = 1.000000000000000E+00 ]"#,
    ),
    (
        r#"splitTime(relTime(-90061))"#,
        r#"[ Days = -1; Type = "RelativeTime"; Hours = 1; Minutes = 1; Seconds = 1.000000000000000E+00 ]"#,
    ),
    (
        r#"splitTime(relTime(-61))"#,
        r#"[ Days = 0; Type = "RelativeTime"; Hours = 0; Minutes = -1; Seconds = 1.000000000000000E+00 ]"#,
    ),
    (
        r#"splitTime(relTime(-0.5))"#,
        r#"[ Days = 0; Type = "RelativeTime"; Hours = 0; Minutes = 0; Seconds = -5.000000000000000E-01 ]"#,
    ),
    (
        r#"splitTime(relTime(1.5))"#,
        r#"[ Days = 0; Type = "RelativeTime"; Hours = 0; Minutes = 0; Seconds = 1.500000000000000E+00 ]"#,
    ),
    (
        r#"splitTime(relTime(1e10))"#,
        r#"[ Days = -24855; Type = "RelativeTime"; Hours = -3; Minutes = -14; Seconds = -8.000000000000000E+00 ]"#,
    ),
    (
        r#"splitTime(1700000000)"#,
        r#"[ Day = 14; Type = "AbsoluteTime"; Year = 2023; Hours = 22; Month = 11; Offset = 0; Minutes = 13; Seconds = 20 ]"#,
    ),
    (
        r#"splitTime(253402300799)"#,
        r#"[ Day = 31; Type = "AbsoluteTime"; Year = 9999; Hours = 23; Month = 12; Offset = 0; Minutes = 59; Seconds = 59 ]"#,
    ),
    (
        r#"splitTime(1.5)"#,
        r#"[ Day = 1; Type = "AbsoluteTime"; Year = 1970; Hours = 0; Month = 1; Offset = 0; Minutes = 0; Seconds = 1 ]"#,
    ),
    (
        r#"splitTime(1e12)"#,
        r#"[ Day = 13; Type = "AbsoluteTime"; Year = 1901; Hours = 20; Month = 12; Offset = 0; Minutes = 45; Seconds = 52 ]"#,
    ),
    (r#"splitTime("a")"#, r#"error"#),
    (r#"splitTime(undefined)"#, r#"undefined"#),
    (r#"splitTime(error)"#, r#"error"#),
    (r#"splitTime(true)"#, r#"error"#),
    (r#"splitTime([a = 1])"#, r#"error"#),
    (r#"splitTime()"#, r#"error"#),
    (r#"splitTime(relTime(90061)).Days"#, r#"1"#),
    (r#"splitTime(absTime(951782400)).Month"#, r#"2"#),
    (r#"formatTime(0)"#, r#""Thu Jan  1 00:00:00 1970""#),
    (r#"formatTime(1700000000)"#, r#""Tue Nov 14 22:13:20 2023""#),
    (
        r#"formatTime(absTime("2020-06-15T12:30:45+02:00"))"#,
        r#""Mon Jun 15 12:30:45 2020""#,
    ),
    (
        r#"formatTime(absTime("2020-06-15T12:30:45+02:00"), "%H:%M %z")"#,
        r#""12:30 +0000""#,
    ),
    (
        r#"formatTime(absTime(0, -3600), "%c")"#,
        r#""Wed Dec 31 23:00:00 1969""#,
    ),
    (
        r#"formatTime(0, "%Y-%m-%d %H:%M:%S")"#,
        r#""1970-01-01 00:00:00""#,
    ),
    (
        r#"formatTime(951782400, "%j %a %A %b %B")"#,
        r#""060 Tue Tuesday Feb February""#,
    ),
    (
        r#"formatTime(1234567890, "%e|%I|%p|%M|%S|%u|%w")"#,
        r#""13|11|PM|31|30|5|5""#,
    ),
    (
        r#"formatTime(0, "%C %g %G %V %U %W")"#,
        r#""19 70 1970 01 00 00""#,
    ),
    (
        r#"formatTime(0, "%D %T %R %x %X %F %r")"#,
        r#""01/01/70 00:00:00 00:00 01/01/70 00:00:00 1970-01-01 12:00:00 AM""#,
    ),
    (r#"formatTime(0, "%s %Z %z %%")"#, r#""0 UTC +0000 %""#),
    (
        r#"formatTime(0, "%Q|%E|%Ey|%Od|%-d|%_d|%05d|%^a|%#a|%10Y|%-H|%k|%l|%P|%h")"#,
        r#""%Q|%E|70|01|1| 1|00001|THU|THU|0000001970|0| 0|12|am|Jan""#,
    ),
    (
        r#"formatTime(1234567890, "%5z|%_z|%-z|%#Z|%^p|%#p|%3Oe|%Eb|%Ob")"#,
        r#""    +00000|+   0|+0|utc|PM|pm| 13|%Eb|Feb""#,
    ),
    (
        r#"formatTime(-86400*400, "%Y %j %U %W %V %G %g %u %w")"#,
        r#""1968 332 47 48 48 1968 68 3 3""#,
    ),
    (
        r#"formatTime(1262217600, "%U %W %V %G %g %j")"#,
        r#""52 52 53 2009 09 365""#,
    ),
    (r#"formatTime(253402300799, "%Y")"#, r#""9999""#),
    (r#"formatTime(1.5, "%S")"#, r#""01""#),
    (r#"formatTime(0, "")"#, r#""""#),
    (r#"formatTime(0, "abc%")"#, r#""abc%""#),
    (
        r#"formatTime([Year=2020; Month=6; Day=15; Hours=13; Minutes=5; Seconds=9])"#,
        r#""Mon Jun 15 13:05:09 2020""#,
    ),
    (
        r#"formatTime([Year=2020; Month=6; Day=15], "%s %Z %z")"#,
        r#""1592179200 UTC +0000""#,
    ),
    (r#"formatTime([a = 1])"#, r#""Sun Jan  0 00:00:00 1900""#),
    (
        r#"formatTime([], "%c|%s|%j")"#,
        r#""Sun Jan  0 00:00:00 1900|-2209075200|000""#,
    ),
    (
        r#"formatTime([Year=2020.5; Month=6; Day=15])"#,
        r#""Fri Jun 15 00:00:00 1900""#,
    ),
    (
        r#"formatTime([Year=2020; Month=13; Day=40; Hours=25])"#,
        r#""Tue ? 40 25:00:00 2020""#,
    ),
    (
        r#"formatTime([Year=-5; Month=1; Day=1], "%a %A %b %Y %j %C %y %G")"#,
        r#""? ? Jan -5 001 -1 95 -5""#,
    ),
    (
        r#"formatTime([Year=2020; Month=1; Day=1; Hours=-1], "%5H|%_5H|%H %I %p %k %l")"#,
        r#""-0001|   -1|-1 -1 AM -1 -1""#,
    ),
    (
        r#"formatTime([Year=2020; Month=1; Day=1; Hours=99; Minutes=99; Seconds=99], "%H %I %M %S %T")"#,
        r#""99 87 99 99 99:99:99""#,
    ),
    (r#"formatTime("a")"#, r#"error"#),
    (r#"formatTime(relTime(5))"#, r#"error"#),
    (r#"formatTime(undefined)"#, r#"error"#),
    (r#"formatTime(true)"#, r#"error"#),
    (r#"formatTime(0, 1)"#, r#"error"#),
    (r#"formatTime(0, undefined)"#, r#"error"#),
    (r#"formatTime(0, "%Y", 1)"#, r#"error"#),
    (r#"interval(0)"#, r#""0""#),
    (r#"interval(59)"#, r#""59""#),
    (r#"interval(61)"#, r#""1:01""#),
    (r#"interval(3661)"#, r#""1:01:01""#),
    (r#"interval(90061)"#, r#""1+01:01:01""#),
    (r#"interval(864000)"#, r#""10+00:00:00""#),
    (r#"interval(-1)"#, r#""-1""#),
    (r#"interval(-61)"#, r#""-1:01""#),
    (r#"interval(-3600)"#, r#""-1:00:00""#),
    (r#"interval(-90061)"#, r#""-1+01:01:01""#),
    (r#"interval(1.5)"#, r#""1""#),
    (r#"interval(true)"#, r#""1""#),
    (r#"interval("1e3")"#, r#""16:40""#),
    (r#"interval(relTime(90061))"#, r#""1+01:01:01""#),
    (r#"interval(absTime(5))"#, r#""5""#),
    (r#"interval(9223372036854775807)"#, r#""-1""#),
    (r#"interval(1e10)"#, r#""16320+04:50:08""#),
    (r#"interval(2147483648)"#, r#""-24855+03:14:08""#),
    (r#"interval("a")"#, r#"error"#),
    (r#"interval(undefined)"#, r#"error"#),
    (r#"interval()"#, r#"error"#),
    (r#"member(1, {1, 2})"#, r#"true"#),
    (r#"member(3, {1, 2})"#, r#"false"#),
    (r#"member(1.0, {1, 2})"#, r#"true"#),
    (r#"member("a", {"A", "b"})"#, r#"true"#),
    (r#"member(true, {1})"#, r#"true"#),
    (r#"member(undefined, {1})"#, r#"undefined"#),
    (r#"member(1, {undefined, 1})"#, r#"true"#),
    (r#"member(1, {error, 1})"#, r#"true"#),
    (r#"member(error, {1})"#, r#"error"#),
    (r#"member(1, undefined)"#, r#"undefined"#),
    (r#"member(1, error)"#, r#"error"#),
    (r#"member(1, 1)"#, r#"error"#),
    (r#"member({1}, {{1}})"#, r#"error"#),
    (r#"member([a=1], undefined)"#, r#"undefined"#),
    (r#"member(error, undefined)"#, r#"undefined"#),
    (r#"member(x, {1})"#, r#"undefined"#),
    (r#"member(2, {1, x})"#, r#"false"#),
    (r#"member(relTime(5), {5})"#, r#"false"#),
    (r#"member(absTime(5), {absTime(5, 60)})"#, r#"true"#),
    (r#"member(1, {1}, 2)"#, r#"error"#),
    (r#"member(1)"#, r#"error"#),
    (r#"identicalMember(1, {1.0})"#, r#"false"#),
    (r#"identicalMember("a", {"A"})"#, r#"false"#),
    (r#"identicalMember("a", {"a"})"#, r#"true"#),
    (r#"identicalMember(undefined, {undefined})"#, r#"true"#),
    (r#"identicalMember(error, {error})"#, r#"true"#),
    (r#"identicalMember(error, 1)"#, r#"error"#),
    (r#"identicalMember(undefined, undefined)"#, r#"undefined"#),
    (r#"identicalMember(1, {error})"#, r#"false"#),
    (r#"identicalMember(relTime(5), {relTime(5)})"#, r#"true"#),
    (r#"isMember(1, {1})"#, r#"error"#),
    (r#"sum({})"#, r#"0"#),
    (r#"sum({1, 2, 3})"#, r#"6"#),
    (r#"sum({1, 2.5})"#, r#"3.500000000000000E+00"#),
    (r#"sum({true})"#, r#"true"#),
    (r#"sum({true, 1})"#, r#"2"#),
    (r#"sum({false, true})"#, r#"1"#),
    (r#"sum({1, undefined})"#, r#"1"#),
    (r#"sum({undefined})"#, r#"0"#),
    (r#"sum({1, "a"})"#, r#"error"#),
    (r#"sum({1, error})"#, r#"error"#),
    (r#"sum({1, {2}})"#, r#"error"#),
    (
        r#"sum({9223372036854775807, 1})"#,
        r#"-9223372036854775808"#,
    ),
    (r#"sum({1e308, 1e308})"#, r#"error"#),
    (r#"sum({real("NaN"), 1})"#, r#"real("NaN")"#),
    (r#"sum({relTime(5)})"#, r#"error"#),
    (r#"sum(undefined)"#, r#"undefined"#),
    (r#"sum(error)"#, r#"error"#),
    (r#"sum(1)"#, r#"error"#),
    (r#"sum()"#, r#"error"#),
    (r#"sum({1}, {2})"#, r#"error"#),
    (r#"avg({})"#, r#"0"#),
    (r#"avg({1})"#, r#"1.000000000000000E+00"#),
    (r#"avg({1, 2, 4})"#, r#"2.333333333333333E+00"#),
    (r#"avg({1, undefined})"#, r#"1.000000000000000E+00"#),
    (r#"avg({undefined})"#, r#"0"#),
    (r#"avg({true, false})"#, r#"5.000000000000000E-01"#),
    (
        r#"avg({9223372036854775807, 1})"#,
        r#"-4.611686018427388E+18"#,
    ),
    (r#"avg({1, "a"})"#, r#"error"#),
    (r#"min({})"#, r#"undefined"#),
    (r#"min({3, 1, 2})"#, r#"1"#),
    (r#"min({1, 2.5})"#, r#"1.000000000000000E+00"#),
    (r#"min({2.5, 1})"#, r#"1.000000000000000E+00"#),
    (r#"min({true})"#, r#"true"#),
    (r#"min({true, 1})"#, r#"1"#),
    (r#"min({false, true})"#, r#"0"#),
    (r#"min({real("NaN"), 1})"#, r#"real("NaN")"#),
    (r#"min({1, real("NaN")})"#, r#"1.000000000000000E+00"#),
    (r#"min({-0.0, 0.0})"#, r#"-0.0"#),
    (r#"min({undefined, 3, 1})"#, r#"1"#),
    (r#"min({1, "a"})"#, r#"error"#),
    (r#"min(undefined)"#, r#"undefined"#),
    (r#"max({1, 2, 3})"#, r#"3"#),
    (r#"max({1, 2.0, 2})"#, r#"2.000000000000000E+00"#),
    (r#"max({2.0, 2})"#, r#"2.000000000000000E+00"#),
    (r#"max({9223372036854775807, 1})"#, r#"9223372036854775807"#),
    (r#"max({true, true})"#, r#"1"#),
    (r#"max({error, 3})"#, r#"error"#),
    (r#"max("1,2")"#, r#"error"#),
    (r#"anyCompare("<", {1, 2, 3}, 2)"#, r#"true"#),
    (r#"anyCompare(">=", {1, 2, 3}, 4)"#, r#"false"#),
    (r#"anyCompare("==", {"a", "A"}, "a")"#, r#"true"#),
    (r#"anyCompare("is", {undefined}, undefined)"#, r#"true"#),
    (r#"anyCompare("isnt", {1}, undefined)"#, r#"true"#),
    (r#"anyCompare("=?=", {1}, 1)"#, r#"error"#),
    (r#"anyCompare("==", {undefined, 1}, 1)"#, r#"false"#),
    (r#"anyCompare("==", {1, undefined}, 1)"#, r#"true"#),
    (r#"anyCompare("==", {error}, 1)"#, r#"error"#),
    (r#"anyCompare("==", {}, 1)"#, r#"false"#),
    (r#"anyCompare("<", {1, "a"}, 2)"#, r#"true"#),
    (r#"anyCompare("LT", {1}, 2)"#, r#"error"#),
    (r#"anyCompare(undefined, {1}, 1)"#, r#"undefined"#),
    (r#"anyCompare(1, {1}, 1)"#, r#"error"#),
    (r#"anyCompare("==", undefined, 1)"#, r#"undefined"#),
    (r#"anyCompare("==", 1, 1)"#, r#"error"#),
    (r#"anyCompare("<", {1})"#, r#"error"#),
    (r#"anyCompare("<", {absTime(5)}, absTime(6))"#, r#"true"#),
    (r#"allCompare("==", {2, 2}, 2)"#, r#"true"#),
    (r#"allCompare("<", {1, 2, 3}, 2)"#, r#"false"#),
    (r#"allCompare("==", {}, 1)"#, r#"true"#),
    (r#"allCompare("<", {1, "a"}, 2)"#, r#"error"#),
    (r#"allCompare("==", {1, undefined}, 1)"#, r#"false"#),
    (r#"allCompare("is", {[a=1]}, 1)"#, r#"false"#),
    (r#"allCompare("isnt", {1, 1.0}, "1")"#, r#"true"#),
    (r#"allCompare("<", {1, 2}, true)"#, r#"false"#),
    (r#"int(5.9)"#, r#"5"#),
    (r#"int(-5.9)"#, r#"-5"#),
    (r#"int(1e19)"#, r#"-9223372036854775808"#),
    (r#"int(real("NaN"))"#, r#"-9223372036854775808"#),
    (r#"int(true)"#, r#"1"#),
    (r#"int("42")"#, r#"42"#),
    (r#"int(" 42 ")"#, r#"42"#),
    (r#"int("42abc")"#, r#"42"#),
    (r#"int("abc")"#, r#"error"#),
    (r#"int("4.7")"#, r#"4"#),
    (r#"int("1e3")"#, r#"1000"#),
    (r#"int("0x10")"#, r#"16"#),
    (r#"int("010")"#, r#"10"#),
    (r#"int("")"#, r#"error"#),
    (r#"int("2K")"#, r#"2"#),
    (r#"int("inf")"#, r#"-9223372036854775808"#),
    (r#"int("-")"#, r#"error"#),
    (r#"int("1e")"#, r#"1"#),
    (r#"int(".5")"#, r#"0"#),
    (r#"int(undefined)"#, r#"undefined"#),
    (r#"int(error)"#, r#"error"#),
    (r#"int({1})"#, r#"error"#),
    (r#"int(absTime(100))"#, r#"100"#),
    (r#"int(relTime(1.5))"#, r#"1"#),
    (r#"int(relTime(1e10))"#, r#"-2147483648"#),
    (r#"int()"#, r#"error"#),
    (r#"int(1, 2)"#, r#"error"#),
    (r#"real(5)"#, r#"5.000000000000000E+00"#),
    (r#"real(true)"#, r#"1.000000000000000E+00"#),
    (r#"real("3.25")"#, r#"3.250000000000000E+00"#),
    (r#"real("1e3")"#, r#"1.000000000000000E+03"#),
    (r#"real(".5")"#, r#"5.000000000000000E-01"#),
    (r#"real("5.")"#, r#"5.000000000000000E+00"#),
    (r#"real("abc")"#, r#"error"#),
    (r#"real("3.25abc")"#, r#"3.250000000000000E+00"#),
    (r#"real("INF")"#, r#"real("INF")"#),
    (r#"real("-INF")"#, r#"real("-INF")"#),
    (r#"real("Infinity")"#, r#"real("INF")"#),
    (r#"real("NaN")"#, r#"real("NaN")"#),
    (r#"real("-nan")"#, r#"real("NaN")"#),
    (r#"real("nanx")"#, r#"real("NaN")"#),
    (r#"real("0x10")"#, r#"1.600000000000000E+01"#),
    (r#"real("0x1p3")"#, r#"8.000000000000000E+00"#),
    (r#"real("-0x1.8p1")"#, r#"-3.000000000000000E+00"#),
    (r#"real("1e400")"#, r#"real("INF")"#),
    (r#"real("1e-400")"#, r#"0.0"#),
    (r#"real("  ")"#, r#"error"#),
    (r#"real("e5")"#, r#"error"#),
    (r#"real("1,5")"#, r#"1.000000000000000E+00"#),
    (r#"real(undefined)"#, r#"undefined"#),
    (r#"real({1})"#, r#"error"#),
    (r#"real(absTime(100))"#, r#"1.000000000000000E+02"#),
    (r#"real(relTime(-2.5))"#, r#"-2.000000000000000E+00"#),
    (r#"real(9223372036854775807)"#, r#"9.223372036854776E+18"#),
    (r#"string(5)"#, r#""5""#),
    (r#"string(5.5)"#, r#""5.500000000000000E+00""#),
    (r#"string(-0.0)"#, r#""-0.0""#),
    (r#"string(true)"#, r#""true""#),
    (r#"string("abc")"#, r#""abc""#),
    (r#"string(undefined)"#, r#"undefined"#),
    (r#"string(error)"#, r#"error"#),
    (r#"string({1, "a"})"#, r#""{ 1,\"a\" }""#),
    (r#"string({x, 1+2})"#, r#""{ x,1 + 2 }""#),
    (r#"string([a = 1; b = "x"])"#, r#""[ a = 1; b = \"x\" ]""#),
    (r#"string(absTime(0))"#, r#""1970-01-01T00:00:00-00:00""#),
    (
        r#"string(absTime(5, 3600))"#,
        r#""1970-01-01T01:00:05+01:00""#,
    ),
    (r#"string(relTime(90061))"#, r#""1+01:01:01""#),
    (r#"string(relTime(-90061))"#, r#""-1+01:01:01""#),
    (r#"string(relTime(1.25))"#, r#""01""#),
    (r#"string(relTime(1e10))"#, r#""--24855+-3:-14:-8""#),
    (r#"string(real("INF"))"#, r#""real(\"INF\")""#),
    (r#"string({})"#, r#""{  }""#),
    (r#"string(1e300*10)"#, r#""1.000000000000000E+301""#),
    (r#"bool(0)"#, r#"false"#),
    (r#"bool(-1)"#, r#"true"#),
    (r#"bool(0.1)"#, r#"true"#),
    (r#"bool(real("NaN"))"#, r#"true"#),
    (r#"bool("TrUe")"#, r#"true"#),
    (r#"bool("false")"#, r#"false"#),
    (r#"bool("yes")"#, r#"undefined"#),
    (r#"bool("")"#, r#"undefined"#),
    (r#"bool(undefined)"#, r#"undefined"#),
    (r#"bool(error)"#, r#"error"#),
    (r#"bool({1})"#, r#"error"#),
    (r#"bool(absTime(0))"#, r#"error"#),
    (r#"bool(relTime(0.5))"#, r#"false"#),
    (r#"bool(relTime(1))"#, r#"true"#),
    (r#"bool()"#, r#"error"#),
    (r#"floor(2.5)"#, r#"2"#),
    (r#"floor(-2.5)"#, r#"-3"#),
    (r#"floor(-0.5)"#, r#"-1"#),
    (r#"floor(5)"#, r#"5"#),
    (r#"floor(true)"#, r#"1"#),
    (r#"floor("2.5")"#, r#"2"#),
    (r#"floor("abc")"#, r#"error"#),
    (r#"floor(" ")"#, r#"error"#),
    (r#"floor(undefined)"#, r#"error"#),
    (r#"floor(1e300)"#, r#"-9223372036854775808"#),
    (r#"floor(real("INF"))"#, r#"-9223372036854775808"#),
    (r#"floor(absTime(5))"#, r#"5"#),
    (r#"floor(relTime(5.5))"#, r#"5"#),
    (r#"floor(relTime(1e10))"#, r#"-2147483648"#),
    (r#"floor({1})"#, r#"error"#),
    (r#"floor(1, 2)"#, r#"error"#),
    (r#"ceiling(2.4)"#, r#"3"#),
    (r#"ceiling(-2.5)"#, r#"-2"#),
    (r#"ceiling("2.5")"#, r#"3"#),
    (r#"ceil(0.49999999999999994)"#, r#"1"#),
    (r#"ceil(4503599627370495.5)"#, r#"4503599627370496"#),
    (r#"round(2.5)"#, r#"2"#),
    (r#"round(3.5)"#, r#"4"#),
    (r#"round(-2.5)"#, r#"-2"#),
    (r#"round(-0.5)"#, r#"0"#),
    (r#"round(1.5)"#, r#"2"#),
    (r#"round(2.5000001)"#, r#"3"#),
    (r#"round(4503599627370495.5)"#, r#"4503599627370496"#),
    (r#"round("3.5")"#, r#"4"#),
    (r#"round(relTime(2.5))"#, r#"2"#),
    (r#"pow(2, 10)"#, r#"1024"#),
    (r#"pow(2, -1)"#, r#"5.000000000000000E-01"#),
    (r#"pow(-2, 3)"#, r#"-7"#),
    (r#"pow(-1, 3)"#, r#"0"#),
    (r#"pow(-10, 3)"#, r#"-999"#),
    (r#"pow(0, 0)"#, r#"1"#),
    (r#"pow(0, -1)"#, r#"real("INF")"#),
    (r#"pow(2, 63)"#, r#"-9223372036854775808"#),
    (r#"pow(10, 19)"#, r#"-9223372036854775808"#),
    (r#"pow(3, 39)"#, r#"4052555153018976256"#),
    (r#"pow(2.0, 10)"#, r#"1.024000000000000E+03"#),
    (r#"pow(2, 0.5)"#, r#"1.414213562373095E+00"#),
    (r#"pow(-8, 1.0/3)"#, r#"real("NaN")"#),
    (r#"pow(true, 2)"#, r#"1.000000000000000E+00"#),
    (r#"pow("2", 2)"#, r#"4.000000000000000E+00"#),
    (r#"pow(relTime(3), 2)"#, r#"9.000000000000000E+00"#),
    (r#"pow(2, 1024)"#, r#"-9223372036854775808"#),
    (r#"pow(-1, 9223372036854775807)"#, r#"1"#),
    (r#"pow(undefined, 2)"#, r#"error"#),
    (r#"pow(2)"#, r#"error"#),
    (r#"quantize(3, 4)"#, r#"4"#),
    (r#"quantize(5, 4)"#, r#"8"#),
    (r#"quantize(-3, 4)"#, r#"0"#),
    (r#"quantize(3, -4)"#, r#"0"#),
    (r#"quantize(3, 2.5)"#, r#"5.000000000000000E+00"#),
    (r#"quantize(3.5, 2)"#, r#"4.000000000000000E+00"#),
    (r#"quantize(1, 0)"#, r#"1"#),
    (r#"quantize(1.5, 0)"#, r#"1.500000000000000E+00"#),
    (r#"quantize(1, 0.0)"#, r#"1"#),
    (r#"quantize(5, 1e-9)"#, r#"5"#),
    (r#"quantize(-0.5, 1)"#, r#"-0.0"#),
    (r#"quantize(3, {1, 2, 4})"#, r#"4"#),
    (r#"quantize(5, {1, 2, 4})"#, r#"8"#),
    (r#"quantize(0, {1, 2, 4})"#, r#"1"#),
    (r#"quantize(2.2, {1, 2.5, 4})"#, r#"2.500000000000000E+00"#),
    (r#"quantize(10, {1, 2.5})"#, r#"1.000000000000000E+01"#),
    (r#"quantize(3, {})"#, r#"3"#),
    (r#"quantize(3, {"5"})"#, r#""5""#),
    (r#"quantize(3, {"a"})"#, r#"error"#),
    (r#"quantize(3, {undefined, 4})"#, r#"error"#),
    (r#"quantize(true, 4)"#, r#"4.000000000000000E+00"#),
    (r#"quantize(3, true)"#, r#"3.000000000000000E+00"#),
    (r#"quantize("3", 4)"#, r#"4.000000000000000E+00"#),
    (r#"quantize(relTime(3), 4)"#, r#"4.000000000000000E+00"#),
    (
        r#"quantize(9223372036854775807, 2)"#,
        r#"-9223372036854775808"#,
    ),
    (r#"quantize(undefined, 4)"#, r#"error"#),
    (r#"quantize(3)"#, r#"error"#),
    (r#"random(1)"#, r#"0"#),
    (r#"random(1.0) < 1.0"#, r#"true"#),
    (r#"isInteger(random(10))"#, r#"true"#),
    (r#"random(10) < 10"#, r#"true"#),
    (r#"isReal(random())"#, r#"true"#),
    (r#"random("a")"#, r#"error"#),
    (r#"random(true)"#, r#"error"#),
    (r#"random(relTime(5))"#, r#"error"#),
    (r#"random(undefined)"#, r#"error"#),
    (r#"random(1, 2)"#, r#"error"#),
    (r#"random(real("NaN"))"#, r#"real("NaN")"#),
    (
        r#"evalInEachContext(a, { [a = 1; b = 2], [a = 3], [b = 4], [a = "x"] })"#,
        r#"{ 1,3,undefined,"x" }"#,
    ),
    (
        r#"evalInEachContext(a + 1, { [a = 1; b = 2], [a = 3], [b = 4], [a = "x"] })"#,
        r#"{ 2,4,undefined,error }"#,
    ),
    (
        r#"evalInEachContext(1, { [a = 1], [a = 2] })"#,
        r#"{ 1,1 }"#,
    ),
    (r#"evalInEachContext(a, {})"#, r#"{  }"#),
    (r#"evalInEachContext(a, {1, 2})"#, r#"{ error,error }"#),
    (
        r#"evalInEachContext(a, {undefined, [a=1], error, x})"#,
        r#"{ undefined,1,error,undefined }"#,
    ),
    (r#"evalInEachContext(a, [a = 1])"#, r#"error"#),
    (r#"evalInEachContext(a, undefined)"#, r#"undefined"#),
    (r#"evalInEachContext(a, error)"#, r#"error"#),
    (r#"evalInEachContext(a, "x")"#, r#"error"#),
    (r#"evalInEachContext(a)"#, r#"error"#),
    (r#"evalInEachContext({b, b}, {[b = 1]})"#, r#"{ { b,b } }"#),
    (
        r#"evalInEachContext([c = b], {[b = 1]})"#,
        r#"{ [ c = b ] }"#,
    ),
    (r#"evalInEachContext(b, {[b=1]}[0])"#, r#"error"#),
    (
        r#"[ r = a > 1; L = { [a=1],[a=2] }; out = evalInEachContext(r, L) ].out"#,
        r#"{ false,true }"#,
    ),
    (
        r#"[ a = 10; L = { [a=1],[a=2] }; out = evalInEachContext(a, L) ].out"#,
        r#"{ 10,10 }"#,
    ),
    (
        r#"[ a = 10; L = { [b=1],[a=2] }; out = evalInEachContext(a + 0, L) ].out"#,
        r#"{ 10,2 }"#,
    ),
    (
        r#"[ a = 10; L = { [b=1],[b=2] }; out = evalInEachContext(b + a, L) ].out"#,
        r#"{ 11,12 }"#,
    ),
    (
        r#"[ s = [r = b + 1]; L = { [b=1],[b=2] }; out = evalInEachContext(s.r, L) ].out"#,
        r#"{ 2,3 }"#,
    ),
    (
        r#"[ r = b + 1; L = { [b=1],[b=2] }; out = evalInEachContext(MY.r, L) ].out"#,
        r#"{ 2,3 }"#,
    ),
    (
        r#"[ L = { [b=1],[b=2] }; out = evalInEachContext(MY.b, L) ].out"#,
        r#"undefined"#,
    ),
    (
        r#"[ L = { [b=1],[b=2] }; out = evalInEachContext(b, L) ].out"#,
        r#"undefined"#,
    ),
    (
        r#"[ L = { [b=1],[b=2] }; out = evalInEachContext(b, L[0]) ].out"#,
        r#"undefined"#,
    ),
    (
        r#"[ a = 10; s = [ L = {[b=1]}; out = evalInEachContext(a, L) ] ].s.out"#,
        r#"undefined"#,
    ),
    (
        r#"[ a = 10; L = {[b=1]}; s = [ out = evalInEachContext(a, L) ] ].s.out"#,
        r#"{ 10 }"#,
    ),
    (
        r#"[ L = {[b=1]}; out = evalInEachContext(zz, {[b=1], L}) ].out"#,
        r#"{ undefined,undefined }"#,
    ),
    (
        r#"[ x = 5; out = evalInEachContext(y, { [a = 1] }) ].out"#,
        r#"{ undefined }"#,
    ),
    (
        r#"countMatches(a > 1, { [a = 1; b = 2], [a = 3], [b = 4], [a = "x"] })"#,
        r#"1"#,
    ),
    (
        r#"countMatches(a, {undefined, [a=1], error, x, [a = 2.5], [a = "x"], [a = {1}]})"#,
        r#"2"#,
    ),
    (r#"countMatches(true, { [a = 1], [a = 2] })"#, r#"2"#),
    (r#"countMatches("abc", { [a = 1], [a = 2] })"#, r#"0"#),
    (r#"countMatches(a > 1, {})"#, r#"0"#),
    (r#"countMatches(a > 1, {1})"#, r#"0"#),
    (r#"countMatches(a > 1, undefined)"#, r#"0"#),
    (r#"countMatches(a > 1, error)"#, r#"error"#),
    (r#"countMatches(a > 1, [a = 5])"#, r#"error"#),
    (r#"countMatches(a > 1)"#, r#"error"#),
    (
        r#"countMatches(b =?= undefined, { [a = 1; b = 2], [a = 3], [b = 4] })"#,
        r#"1"#,
    ),
    (
        r#"[ r = a > 1; L = { [a=1],[a=2] }; out = countMatches(r, L) ].out"#,
        r#"1"#,
    ),
    (
        r#"[ a = 10; s = [ L = {[b=1]}; out = countMatches(a, L) ] ].s.out"#,
        r#"0"#,
    ),
    (r#"makeDate(1, 1, 2000)"#, r#"error"#),
    (r#"inDays(86400)"#, r#"error"#),
    (r#"DayTime(1)"#, r#"error"#),
    (r#"CURRENTTIME(1)"#, r#"error"#),
];
