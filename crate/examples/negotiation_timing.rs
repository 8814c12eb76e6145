//! One-shot timings of negotiation cycles on the thesis base workload,
//! for runs too long for criterion's repeated sampling (the naive 10,000 ×
//! 10,000 loop). `cargo run --release --example negotiation_timing [N [auto|naive]]`.

use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use classad::matchmaking::negotiate::{negotiate, NegotiationConfig};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let machines =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::machines(n, 1));
    let jobs = classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(n, 2));
    for (label, cfg) in [
        ("auto-clustered", NegotiationConfig::default()),
        (
            "naive loop",
            NegotiationConfig {
                autocluster: None,
                ..Default::default()
            },
        ),
    ] {
        // A second argument picks one of them ("auto" or "naive").
        if let Some(only) = std::env::args().nth(2) {
            if !label.starts_with(&only) {
                continue;
            }
        }
        let t = Instant::now();
        let r = negotiate(&jobs, &machines, &cfg, |_, _| true);
        let dt = t.elapsed();
        let clusters = r.clustering.as_ref().map(|c| c.clusters()).unwrap_or(0);
        println!(
            "{n} jobs x {n} machines, {label}: {:.3} s, {} matched, {} pair evaluations, {} clusters",
            dt.as_secs_f64(),
            r.matched,
            r.pair_evaluations,
            clusters
        );
    }
}
