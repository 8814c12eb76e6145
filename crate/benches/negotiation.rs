//! Negotiation benchmarks on the thesis base workload (`classad::matchmaking::workload`):
//! auto-clustering a million jobs, and cycles of 10,000 jobs × 10,000
//! machines with auto-clustering, and 4,000 × 4,000 indexed cycles with and
//! without counting every job's candidates. The naive loop at that size takes tens of
//! seconds per run; `cargo run --release --example negotiation_timing`
//! measures it once.

use std::hint::black_box;
use std::sync::Arc;

use classad::matchmaking::autocluster::{cluster, significant_attributes, AutoclusterConfig};
use classad::matchmaking::negotiate::{negotiate, NegotiationConfig};
use classad::ClassAd;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn benches(c: &mut Criterion) {
    let machines =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::machines(10_000, 1));
    let jobs =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(20_000, 2));

    let mut g = c.benchmark_group("autocluster");
    g.sample_size(10);
    let cfg = NegotiationConfig::default();
    let mref: Vec<&ClassAd> = machines.iter().map(|m| &**m).collect();
    let sig = significant_attributes(&mref, &cfg.docking_vector);
    // A million jobs: the 20,000 generated ones, each submitted 50 times.
    let million: Vec<&ClassAd> = (0..1_000_000).map(|i| &*jobs[i % jobs.len()]).collect();
    g.throughput(Throughput::Elements(million.len() as u64));
    g.bench_function("1000000_jobs", |b| {
        b.iter(|| {
            black_box(cluster(
                black_box(&million),
                &sig,
                &AutoclusterConfig::default(),
            ))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("negotiate");
    g.sample_size(10);
    let jobs10k: Vec<Arc<ClassAd>> = jobs[..10_000].to_vec();
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("10000_jobs_x_10000_machines_autoclustered", |b| {
        b.iter(|| black_box(negotiate(&jobs10k, &machines, &cfg, |_, _| true)))
    });
    let naive = NegotiationConfig {
        autocluster: None,
        ..Default::default()
    };
    let (j1k, m1k) = (&jobs[..1000], &machines[..1000]);
    g.throughput(Throughput::Elements(1000));
    g.bench_function("1000_jobs_x_1000_machines_naive", |b| {
        b.iter(|| black_box(negotiate(j1k, m1k, &naive, |_, _| true)))
    });
    g.bench_function("1000_jobs_x_1000_machines_autoclustered", |b| {
        b.iter(|| black_box(negotiate(j1k, m1k, &cfg, |_, _| true)))
    });
    g.finish();

    // Issue 13: the cycle as `classad match` runs it (the index past
    // 250,000 pairs), every job's candidates counted or each job's best
    // found by the best-first walk.
    let mut g = c.benchmark_group("negotiate_indexed");
    g.sample_size(10);
    let (j4k, m4k) = (&jobs[..4000], &machines[..4000]);
    g.throughput(Throughput::Elements(4000));
    for (name, count) in [("counted", true), ("best_first", false)] {
        let cfg = NegotiationConfig {
            autocluster: None,
            count_candidates: count,
            ..Default::default()
        };
        g.bench_function(format!("4000_jobs_x_4000_machines_{name}"), |b| {
            b.iter(|| {
                black_box(classad::index::negotiation::negotiate_indexed(
                    j4k,
                    m4k,
                    &cfg,
                    |_, _| true,
                ))
            })
        });
    }
    g.finish();
}

criterion_group!(negotiation, benches);
criterion_main!(negotiation);
