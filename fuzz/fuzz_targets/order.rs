//! Orderings with NaN: a negotiation cycle over jobs whose priorities and
//! machines whose ranks come from the fuzzer's bytes (NaN, ±inf, -0.0 and
//! ordinary numbers, as reals or integers) must never panic — Rust's sort
//! aborts on a comparison that is not a total order — and `rank_cmp` must
//! be one.
#![no_main]

use std::cmp::Ordering;
use std::sync::Arc;

use classad::lang::value::rank_cmp;
use libfuzzer_sys::fuzz_target;

fn number(b: &[u8]) -> String {
    let x = f64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    match b.first().copied().unwrap_or(0) % 6 {
        0 => "real(\"NaN\")".into(),
        1 => "real(\"INF\")".into(),
        2 => "-real(\"INF\")".into(),
        3 => "-0.0".into(),
        4 => format!("{}", (x as i64) % 1000),
        _ if x.is_finite() => format!("{x:e}"),
        _ => "1.5".into(),
    }
}

fuzz_target!(|data: &[u8]| {
    let nums: Vec<f64> = data
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect();
    for a in &nums {
        assert_eq!(rank_cmp(*a, *a), Ordering::Equal);
        for b in &nums {
            assert_eq!(rank_cmp(*a, *b), rank_cmp(*b, *a).reverse());
        }
    }
    let chunks: Vec<&[u8]> = data.chunks(8).take(40).collect();
    let jobs: Vec<Arc<classad::ClassAd>> = chunks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            classad::parse_classad(&format!(
                "[ ClusterId = {i}; ProcId = 0; JobPrio = {}; K = {}; Requirements = true; Rank = TARGET.R ]",
                number(c),
                number(&c.iter().rev().copied().collect::<Vec<u8>>())
            ))
            .ok()
            .map(Arc::new)
        })
        .collect();
    let machines: Vec<Arc<classad::ClassAd>> = chunks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            classad::parse_classad(&format!(
                "[ Name = \"m{i}\"; R = {}; Requirements = true; Rank = TARGET.K ]",
                number(c)
            ))
            .ok()
            .map(Arc::new)
        })
        .collect();
    let cfg = classad::matchmaking::negotiate::NegotiationConfig::default();
    let _ = classad::matchmaking::negotiate::negotiate(&jobs, &machines, &cfg, |_, _| true);
});
