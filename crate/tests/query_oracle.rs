//! `classad query` against libclassad: for seeded random pools and queries
//! (see query_oracle/generate.py), the ads the constraint selects and each
//! `-af` line are the ones HTCondor's own bindings give.

use std::sync::Arc;

use classad::formats::{read_pool, InputFormat};
use classad::query::{autoformat, Query};
use classad::{Dialect, EvalOptions, Evaluator};

#[derive(serde::Deserialize)]
struct Cases {
    pools: Vec<String>,
    queries: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    pool: usize,
    constraint: String,
    af: Vec<String>,
    lines: Vec<String>,
}

#[test]
fn selection_and_af_lines_agree_with_libclassad() {
    let cases: Cases = serde_json::from_str(include_str!("query_oracle/cases.json")).unwrap();
    let pools: Vec<Vec<Arc<classad::ClassAd>>> = cases
        .pools
        .iter()
        .map(|t| {
            let p = read_pool(t, InputFormat::Old, Dialect::Auto);
            assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
            p.ads.into_iter().map(|a| Arc::new(a.ad)).collect()
        })
        .collect();
    let mut ev = Evaluator::new(EvalOptions::default());
    let mut lines = 0;
    for c in &cases.queries {
        let q = Query::parse(Some(&c.constraint), &c.af, &[], Dialect::Auto).unwrap();
        let ours: Vec<String> = pools[c.pool]
            .iter()
            .filter_map(|ad| q.select(&mut ev, ad))
            .map(|s| autoformat::line(&s.values))
            .collect();
        assert_eq!(
            ours, c.lines,
            "constraint {} with -af {:?}",
            c.constraint, c.af
        );
        lines += ours.len();
    }
    assert!(cases.queries.len() >= 100 && lines > 500, "{lines} lines");
}
