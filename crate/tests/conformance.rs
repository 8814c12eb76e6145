//! Differential conformance against libclassad: every case in
//! `tests/conformance/cases.jsonl` was evaluated by the real libclassad
//! (HTCondor's Python bindings, see `tests/conformance/generate.py`); we
//! must print the same canonical value. Deliberate differences are listed,
//! with reasons, in `crate/CONFORMANCE.md` and by id in
//! `tests/conformance/divergences.txt`.

use std::collections::{BTreeMap, HashSet};

use classad::api::{self, Request, Response};
use classad::{Clock, EvalOptions, Mode};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    id: String,
    group: String,
    expr: String,
    my: Option<String>,
    target: Option<String>,
    mode: String,
    expected: String,
}

/// Our value, asked the way the page, the workers and the embed module ask
/// it: `api::handle` with the default dialect. So the suite cannot pass
/// while what a user sees reads the expression another way.
fn ours(c: &Case) -> String {
    let mode = if c.mode == "strict" {
        Mode::Strict
    } else {
        Mode::HTCondor
    };
    let context = EvalOptions {
        mode,
        clock: Clock {
            now: None,
            local_offset: Some(0),
        },
    };
    match api::handle(Request::Evaluate {
        expr: c.expr.clone(),
        my: c.my.clone(),
        target: c.target.clone(),
        scope: vec![],
        dialect: Default::default(),
        trace: false,
        context,
    }) {
        Response::Value { value, .. } => value,
        Response::Failed { which, .. } if which == "expr" => "PARSE_ERROR".into(),
        other => panic!("case {}: no value: {other:?}", c.id),
    }
}

#[test]
fn conformance_with_libclassad() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance");
    let text =
        std::fs::read_to_string(format!("{dir}/cases.jsonl")).expect("cases.jsonl is committed");
    let divergent: HashSet<String> = std::fs::read_to_string(format!("{dir}/divergences.txt"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid case line"))
        .collect();
    assert!(cases.len() >= 1500, "only {} cases", cases.len());
    let mut per_group: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut unexpectedly_fixed = Vec::new();
    for c in &cases {
        let got = ours(c);
        let ok = got == c.expected;
        let entry = per_group.entry(c.group.clone()).or_default();
        entry.0 += 1;
        if ok {
            entry.1 += 1;
            if divergent.contains(&c.id) {
                unexpectedly_fixed.push(c.id.clone());
            }
        } else if !divergent.contains(&c.id) {
            failures.push(format!(
                "{} [{}] {}\n    my: {:?} target: {:?}\n    expected: {}\n    got:      {}",
                c.id, c.mode, c.expr, c.my, c.target, c.expected, got
            ));
        }
    }
    for (g, (n, ok)) in &per_group {
        eprintln!("{g:>16}: {ok}/{n}");
    }
    if !unexpectedly_fixed.is_empty() {
        eprintln!("listed as divergent but now agree: {unexpectedly_fixed:?}");
    }
    if let Ok(path) = std::env::var("CONFORMANCE_REPORT") {
        std::fs::write(path, failures.join("\n")).expect("write report");
    }
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(80).collect();
        panic!(
            "{} of {} cases disagree with libclassad:\n{}",
            failures.len(),
            cases.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
