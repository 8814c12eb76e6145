//! Gangmatching's docking, as verified by the real libclassad.
//!
//! `tests/gang_oracle/cases.json` holds small random gang problems (ported
//! and implicit requests and offers, labels defined from earlier labels,
//! port attributes shadowing ad attributes, `MY.`, `=?=`, lists, records)
//! with every algorithm's gang lines as `classad gang --json` made them;
//! before the file was written, libclassad (HTCondor's Python bindings)
//! evaluated every docked port's constraint of every gang in the thesis'
//! Figure 32 environment, built as ClassAd text, and found it true. This
//! test requires the same gangs, and for a sample of (request port, offer
//! port) pairs, docked or not, the same value of both constraints in the
//! two-ad environment as libclassad gave.
//!
//! To regenerate after a deliberate change (needs `pip install htcondor`;
//! builds `target/debug/classad`, checks every gang with libclassad, and
//! writes nothing if any docking is not true there):
//!
//! ```text
//! python3 crate/tests/gang_oracle/generate.py
//! cargo test -p classad --test gang_oracle
//! ```

use std::path::Path;
use std::sync::Arc;

use classad::gang::dock::{build_env, constraint_value, Node};
use classad::gang::model::ports_of;
use classad::gang::{gangmatch, Algorithm, GangOptions};
use classad::{ClassAd, EvalOptions, Evaluator};
use serde_json::Value;

mod common;

/// The ads of a JSON array of texts.
fn ads(v: &Value) -> Vec<Arc<ClassAd>> {
    common::ads(v.as_array().unwrap().iter().map(|t| t.as_str().unwrap()))
}

fn cases() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gang_oracle/cases.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    cases
}

#[test]
fn every_algorithm_makes_the_gangs_libclassad_verified() {
    let mut failures = vec![];
    let mut gangs = 0;
    for (i, case) in cases().iter().enumerate() {
        let (requests, offers) = (ads(&case["requests"]), ads(&case["offers"]));
        for (alg, want) in case["gangs"].as_object().unwrap() {
            let opts = GangOptions {
                algorithm: Algorithm::parse(alg).unwrap(),
                // The CLI's defaults, as generate.py ran it.
                ..GangOptions::default()
            };
            let r = gangmatch(&requests, &offers, &opts).unwrap();
            let got: Vec<String> = r
                .requests
                .iter()
                .map(|o| match &o.gang {
                    Some(g) => format!("{} {}", o.name, g.line()),
                    None => format!("{} -", o.name),
                })
                .collect();
            let want: Vec<&str> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            gangs += want.iter().filter(|l| !l.ends_with(" -")).count();
            if got != want {
                failures.push(format!(
                    "case {i} {alg}:\n  requests: {}\n  offers: {}\n  committed (verified by libclassad): {want:?}\n  now: {got:?}",
                    case["requests"], case["offers"]
                ));
            }
        }
    }
    assert!(gangs >= 500, "only {gangs} gangs");
    assert!(
        failures.is_empty(),
        "{} gang lists differ from the libclassad-verified ones; if the change is deliberate, \
         rerun crate/tests/gang_oracle/generate.py\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn two_ad_dockings_have_libclassad_values() {
    let mut ev = Evaluator::new(EvalOptions::default());
    let mut failures = vec![];
    let mut pairs = 0;
    for (i, case) in cases().iter().enumerate() {
        let requests = ads(&case["requests"]);
        let offers = ads(&case["offers"]);
        for pair in case["pairs"].as_array().unwrap() {
            let n = |k: usize| pair[k].as_u64().unwrap() as usize;
            let (r, p, o, q) = (n(0), n(1), n(2), n(3));
            let gads = vec![
                ports_of(&requests[r]).unwrap(),
                ports_of(&offers[o]).unwrap(),
            ];
            // Only the pair's own ports are bound, as generate.py has it.
            let mut nodes: Vec<Node> = gads
                .iter()
                .enumerate()
                .map(|(ad, g)| Node {
                    ad,
                    bindings: vec![None; g.ports.len()],
                })
                .collect();
            nodes[0].bindings[p] = Some((1, q));
            nodes[1].bindings[q] = Some((0, p));
            let env = build_env(&gads, &nodes, false);
            for (side, (node, port)) in [(0, p), (1, q)].into_iter().enumerate() {
                let mut evaluations = 0;
                let got =
                    constraint_value(&mut ev, &env, &gads, &nodes, node, port, &mut evaluations)
                        .to_string();
                let want = pair[4 + side].as_str().unwrap();
                pairs += 1;
                if got != want {
                    let ad = [&case["requests"][r], &case["offers"][o]][side];
                    failures.push(format!(
                        "case {i}: request {r} port {p} with offer {o} port {q}: {} constraint is {got}, libclassad {want}\n  ad: {ad}\n  environment: {}",
                        ["request", "offer"][side],
                        classad::lang::unparse::unparse_ad(&env)
                    ));
                }
            }
        }
    }
    assert!(pairs >= 2000, "only {pairs} constraint values");
    assert!(
        failures.is_empty(),
        "{} of {pairs} constraint values differ from libclassad's\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
