//! The analyzer's claims, as verified by the real libclassad.
//!
//! `tests/analysis_oracle/cases.json` holds random jobs and pools with every
//! claim `classad analyze --json` made about them (clause and predicate
//! texts with their match counts and `only_failing`, suggested requirements
//! and their counts, job changes with the machines they gain, conflicts,
//! succeeding sets, missing attributes, the summary), each one re-evaluated
//! by libclassad (HTCondor's Python bindings) before the file was written.
//! This test runs the analyzer on the same inputs and requires exactly those
//! claims: any change in what the analyzer states fails here until it is
//! verified again.
//!
//! To regenerate after a deliberate change (needs `pip install htcondor`;
//! builds `target/debug/classad`, checks every claim with libclassad, and
//! writes nothing if any disagrees):
//!
//! ```text
//! python3 crate/tests/analysis_oracle/generate.py
//! cargo test -p classad --test analysis_oracle
//! ```

use std::path::Path;
use std::sync::Arc;

use classad::analysis::{analyze, Analysis, AnalysisOptions};
use classad::ClassAd;
use serde_json::{json, Value};

mod common;
use common::ad;

/// The claims of an analysis, in the shape generate.py commits them.
fn claims(a: &Analysis) -> Value {
    let s = &a.summary;
    json!({
        "steps": a.steps.iter().filter(|st| !st.text.contains("...")).map(|st| json!([st.index, st.text, st.matched, st.verdict]))
            .collect::<Vec<_>>(),
        "machines": a.machines,
        "summary": [s.rejected_by_job, s.reject_job, s.match_but_busy, s.matched],
        "clauses": a.clauses.iter().map(|c| json!([
            c.text,
            c.matches,
            c.predicates.iter().map(|p| json!([p.text, p.matches, p.only_failing])).collect::<Vec<_>>(),
        ])).collect::<Vec<_>>(),
        "suggestions": a.suggestions.iter().map(|s| json!([s.requirements, s.job_attributes, s.matches, s.both_ways, s.willing])).collect::<Vec<_>>(),
        "job_changes": a.job_changes.iter().map(|c| json!([c.changes, c.matches, c.gained, c.machines, c.mutual]))
            .collect::<Vec<_>>(),
        "rejections": a.rejections.iter().map(|r| json!([r.clause, r.slots,
            r.options.iter().map(|o| json!([o.attribute, o.value, o.both_ways, o.willing, o.gained])).collect::<Vec<_>>()]))
            .collect::<Vec<_>>(),
        "conflicts": a.conflicts.iter().map(|c| json!([c.clause, c.predicates, c.kind])).collect::<Vec<_>>(),
        "succeeding": a.succeeding.iter().map(|c| json!([c.clause, c.predicates])).collect::<Vec<_>>(),
        "missing_attributes": a.missing_attributes,
    })
}

#[test]
fn analyzer_states_the_claims_libclassad_verified() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/analysis_oracle/cases.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let mut failures = vec![];
    for (i, case) in cases.iter().enumerate() {
        let job = ad(case["job"].as_str().unwrap());
        let machines: Vec<Arc<ClassAd>> = case["machines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| ad(m.as_str().unwrap()))
            .collect();
        let want = &case["claims"];
        let got = match analyze(&job, &machines, &AnalysisOptions::default()) {
            Ok(a) => claims(&a),
            Err(e) => {
                failures.push(format!(
                    "case {i}: analyze failed: {e}\n  job: {}",
                    case["job"]
                ));
                continue;
            }
        };
        let keys = want.as_object().unwrap();
        assert_eq!(
            keys.len(),
            got.as_object().unwrap().len(),
            "case {i}: claim fields"
        );
        for (k, w) in keys {
            let g = &got[k];
            if g != w {
                failures.push(format!(
                    "case {i}: {k} differs\n  job: {}\n  committed (verified by libclassad): {w}\n  now: {g}",
                    case["job"].as_str().unwrap()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} claim field(s) in {} cases differ from the libclassad-verified ones; if the change \
         is deliberate, rerun crate/tests/analysis_oracle/generate.py\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
