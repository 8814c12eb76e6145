//! The engine compiled to WebAssembly gives libclassad's answers too: the
//! whole conformance suite, and the playground's share-link codec, run
//! under wasm-bindgen-test.

use std::collections::HashSet;
use std::sync::Arc;

use classad::{parse_classad, parse_expr_with, Clock, Dialect, EvalOptions, Evaluator, Mode};
use classad_playground_state::app_state::AppState;
use classad_playground_state::share::{decode, encode, Fragment, LinkError, Place};
use wasm_bindgen_test::*;

const CASES: &str = include_str!("../../../crate/tests/conformance/cases.jsonl");
const DIVERGENCES: &str = include_str!("../../../crate/tests/conformance/divergences.txt");

#[derive(serde::Deserialize)]
struct Case {
    id: String,
    expr: String,
    my: Option<String>,
    target: Option<String>,
    mode: String,
    expected: String,
}

#[wasm_bindgen_test]
fn conformance_suite_in_wasm() {
    let skip: HashSet<&str> = DIVERGENCES
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    let mut failures = Vec::new();
    let mut n = 0;
    for line in CASES.lines().filter(|l| !l.trim().is_empty()) {
        let c: Case = serde_json::from_str(line).unwrap();
        if skip.contains(c.id.as_str()) {
            continue;
        }
        n += 1;
        let mode = if c.mode == "strict" {
            Mode::Strict
        } else {
            Mode::HTCondor
        };
        let got = match parse_expr_with(&c.expr, Dialect::Modern, mode) {
            Err(_) => "PARSE_ERROR".to_string(),
            Ok(e) => {
                let ad =
                    |s: &Option<String>| s.as_ref().map(|t| Arc::new(parse_classad(t).unwrap()));
                let mut ev = Evaluator::new(EvalOptions {
                    mode,
                    // As the native suite (system clock, UTC): wasm32 has no
                    // clock of its own, the host supplies it, as the playground does.
                    clock: Clock {
                        now: Some(js_sys::Date::now() / 1000.0),
                        local_offset: Some(0),
                    },
                });
                ev.set_ads(Some(ad(&c.my).unwrap_or_default()), ad(&c.target));
                ev.eval_expr(&e).to_string()
            }
        };
        if got != c.expected && !one_ulp_apart(&got, &c.expected) {
            failures.push(format!(
                "{}: {} => {} (libclassad: {})",
                c.id, c.expr, got, c.expected
            ));
        }
    }
    assert!(n > 8900, "only {n} cases");
    assert!(
        failures.is_empty(),
        "{} disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// wasm's libm (musl-derived) can round transcendental results such as
/// `pow(2, 2.5)` one unit in the last place away from glibc's, which
/// libclassad uses; that, and only that, is tolerated here (see
/// crate/CONFORMANCE.md).
fn one_ulp_apart(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() && x.signum() == y.signum() => {
            (x.to_bits() as i64 - y.to_bits() as i64).abs() <= 1
        }
        _ => false,
    }
}

#[wasm_bindgen_test]
fn share_links_round_trip_and_fail_clearly() {
    let mut s = AppState::default();
    s.expr = "strcat(\"<script>\", 'a b')".into();
    let link = encode(&s).unwrap();
    assert_eq!(decode(&link), Ok(Fragment::State(Box::new(s))));
    assert!(matches!(
        decode(&link[..link.len() - 12]),
        Err(LinkError::Corrupt(_))
    ));
    assert_eq!(decode("s=99.0.1.0.abc"), Err(LinkError::Future(99)));
    assert_eq!(
        decode("#example=000-fig2-3"),
        Ok(Fragment::Place(Place {
            example: Some("000-fig2-3".into()),
            ..Place::default()
        }))
    );
}

/// Deep evaluation fits the wasm stack (V8's, about 1 MB): chains of
/// attribute references and calls either evaluate or stop at the engine's
/// depth bound with a located failure, and never trap the instance — the
/// engine keeps answering after them.
#[wasm_bindgen_test]
fn deep_evaluation_stops_at_its_bound_without_trapping() {
    use classad::api::{handle, Request, Response};
    let chain = |n: usize, body: &dyn Fn(usize) -> String| {
        let mut s = String::from("[");
        for i in 0..n {
            s.push_str(&format!("a{i} = {}; ", body(i + 1)));
        }
        s.push_str(&format!("a{n} = 0]"));
        s
    };
    let evaluate = |expr: String, my: Option<String>, trace: bool| {
        handle(Request::Evaluate {
            expr,
            my,
            target: None,
            scope: vec![],
            dialect: Default::default(),
            trace,
            context: classad::api::EvalOptions::at(Default::default(), 1.7e9, 0),
        })
    };
    let eval = |my: String, trace: bool| evaluate("a0".into(), Some(my), trace);
    let plus = |i: usize| format!("a{i} + 1");
    let call = |i: usize| format!("size(strcat(\"x\", a{i}))");
    let record = |i: usize| format!("[v = a{i}].v");
    for trace in [false, true] {
        match eval(chain(250, &plus), trace) {
            Response::Value { value, .. } => assert_eq!(value, "250"),
            other => panic!("a 250-long chain evaluates: {other:?}"),
        }
        // As deep a tree as the parser takes evaluates, traced or not.
        match evaluate(vec!["true"; 1990].join(" && "), None, trace) {
            Response::Value { value, .. } => assert_eq!(value, "true"),
            other => panic!("a 1,990-term && chain evaluates: {other:?}"),
        }
        for (name, n, body) in [
            ("plus", 3000, &plus as &dyn Fn(usize) -> String),
            ("call", 3000, &call),
            ("record", 3000, &record),
        ] {
            match eval(chain(n, body), trace) {
                Response::Failed { which, diagnostics } => {
                    assert_eq!(which, "expr");
                    assert!(
                        diagnostics[0].message.contains("deeper than"),
                        "{name}: {}",
                        diagnostics[0].message
                    );
                }
                other => panic!("{name} x {n}: expected the depth failure, got {other:?}"),
            }
        }
    }
    // Still answering.
    match eval("[a0 = 1 + 1]".into(), true) {
        Response::Value { value, .. } => assert_eq!(value, "2"),
        other => panic!("{other:?}"),
    }
}
