//! The negotiation cycle with and without the ch. 4 index on long-format
//! pools: the same assignment, and how many pairs each evaluates.
//! `cargo run --release -p classad --example index_negotiation_check JOBS MACHINES [auto]`

use std::time::Instant;

use classad::formats::{read_pool, InputFormat};
use classad::index::negotiation::{index_pays, IndexedMachines};
use classad::matchmaking::negotiate::{negotiate, negotiate_with, NegotiationConfig};
use classad::Dialect;

fn main() {
    let mut a = std::env::args().skip(1);
    let (jf, mf) = (a.next().unwrap(), a.next().unwrap());
    let auto = a.next().is_some();
    let read = |f: &str| -> Vec<std::sync::Arc<classad::ClassAd>> {
        read_pool(
            &std::fs::read_to_string(f).unwrap(),
            InputFormat::Auto,
            Dialect::Auto,
        )
        .ads
        .into_iter()
        .map(|a| std::sync::Arc::new(a.ad))
        .collect()
    };
    let (jobs, machines) = (read(&jf), read(&mf));
    let mut cfg = NegotiationConfig::default();
    if !auto {
        cfg.autocluster = None;
    }
    println!(
        "index pays: {}",
        index_pays(jobs.len(), machines.len(), &cfg)
    );
    let t = Instant::now();
    let mut src = IndexedMachines::build(&jobs, &machines, &cfg);
    let built = t.elapsed().as_secs_f64();
    let with = negotiate_with(&jobs, &machines, &cfg, &mut src, |_, _| true);
    let tw = t.elapsed().as_secs_f64();
    let t = Instant::now();
    if std::env::var("ONLY_INDEXED").is_ok() {
        println!(
            "indexed: {tw:.2} s, {} pair evaluations",
            with.pair_evaluations
        );
        return;
    }
    let without = negotiate(&jobs, &machines, &cfg, |_, _| true);
    let two = t.elapsed().as_secs_f64();
    let picks = |r: &classad::matchmaking::negotiate::CycleResult| -> Vec<(usize, Option<usize>)> {
        r.outcomes.iter().map(|o| (o.job, o.machine)).collect()
    };
    println!(
        "indexed: {tw:.2} s (index {built:.2} s), {} pair evaluations; scan: {two:.2} s, {} pair evaluations; same assignment: {}",
        with.pair_evaluations,
        without.pair_evaluations,
        picks(&with) == picks(&without)
    );
}
