//! The HTCondor policy's knobs as the engine evaluates them — rewritten for
//! the job's side (`policy::sides::swap_sides`), MY = the job — against
//! libclassad evaluating them as HTCondor's negotiator does, MY = the slot,
//! on real slot and job ads (`policy_oracle/cases.json`, made by
//! `policy_oracle/generate.py` with HTCondor's own bindings).

use std::sync::Arc;

use classad::lang::value::Value;
use classad::policy::sides::swap_sides;
use classad::{parse_classad, parse_expr, EvalOptions, Evaluator};
use serde_json::Value as Json;

fn same(got: &Value, want: &Json) -> bool {
    match want["kind"].as_str() {
        Some("number") => match (got, want["v"].as_f64()) {
            (Value::Int(_) | Value::Real(_), Some(w)) => got
                .as_number()
                .is_some_and(|g| g == w || (g - w).abs() <= 1e-9 * w.abs().max(1.0)),
            _ => false,
        },
        Some("bool") => matches!(got, Value::Bool(b) if Some(*b) == want["v"].as_bool()),
        Some("string") => matches!(got, Value::Str(s) if Some(&**s) == want["v"].as_str()),
        Some("undefined") => matches!(got, Value::Undefined),
        Some("error") => matches!(got, Value::Error),
        _ => false,
    }
}

#[test]
fn the_knobs_rewritten_for_the_job_give_what_libclassad_gives_from_the_slot() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/policy_oracle/cases.json"
    ))
    .expect("cases.json (python3 crate/tests/policy_oracle/generate.py)");
    let cases: Json = serde_json::from_str(&text).expect("cases.json parses");
    let ads = |key: &str| -> Vec<Arc<classad::ClassAd>> {
        cases[key]
            .as_array()
            .expect("a list of ads")
            .iter()
            .map(|t| {
                Arc::new(parse_classad(t.as_str().unwrap_or("")).expect("an ad libclassad printed"))
            })
            .collect()
    };
    let (slots, jobs) = (ads("slots"), ads("jobs"));
    let knobs: Vec<(String, classad::Expr)> = cases["knobs"]
        .as_array()
        .expect("knobs")
        .iter()
        .map(|k| {
            let e = parse_expr(k["expr"].as_str().unwrap_or("")).expect("a knob parses");
            (k["name"].as_str().unwrap_or("").to_string(), swap_sides(&e))
        })
        .collect();
    let mut ev = Evaluator::new(EvalOptions::default());
    let (mut checked, mut wrong) = (0, vec![]);
    for v in cases["values"].as_array().expect("values") {
        let at = |i: usize| v[i].as_u64().unwrap_or(0) as usize;
        let (slot, job, knob) = (at(0), at(1), at(2));
        ev.set_ads(Some(jobs[job].clone()), Some(slots[slot].clone()));
        let got = ev.eval_expr(&knobs[knob].1);
        checked += 1;
        if !same(&got, &v[3]) {
            wrong.push(format!(
                "{} on slot {slot}, job {job}: engine {got:?}, libclassad {}",
                knobs[knob].0, v[3]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(8)].join("\n")
    );
    assert_eq!(checked, 882);
}
