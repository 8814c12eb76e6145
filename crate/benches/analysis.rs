//! The analyzer on the thesis base workload (`classad::matchmaking::workload`): one job
//! against 100,000 machines, the full report (summary, table, suggestions,
//! conflicts, job changes, steps), after parsing.

use std::hint::black_box;
use std::sync::Arc;

use classad::analysis::{analyze, AnalysisOptions};
use classad::parse_classad;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn benches(c: &mut Criterion) {
    let machines =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::machines(100_000, 1));
    let jobs = classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(100, 2));
    let mut g = c.benchmark_group("analyze");
    g.sample_size(10);
    g.throughput(Throughput::Elements(machines.len() as u64));
    let o = AnalysisOptions::default();
    // A workload job: its requirements accept some machines, most of
    // which reject it or are busy (Nobody Likes Me and the summary).
    g.bench_function("workload_job_x_100000_machines", |b| {
        b.iter(|| black_box(analyze(&jobs[0], black_box(&machines), &o).unwrap()))
    });
    // A job no machine accepts (I Don't Like Anyone: suggestions, conflicts).
    let stuck = Arc::new(
        parse_classad(
            "[Owner = \"raman\"; ImageSize = 20000; RequestMemory = 100; Requirements = TARGET.Arch == \"SGI\" \
             && TARGET.OpSys == \"LINUX\" && TARGET.Memory >= 1024 && TARGET.Cpus > 4 && TARGET.HasGPU == true]",
        )
        .unwrap(),
    );
    g.bench_function("stuck_job_x_100000_machines", |b| {
        b.iter(|| black_box(analyze(&stuck, black_box(&machines), &o).unwrap()))
    });
    // No machine accepted, and every machine a group of its own (each has
    // its own VirtualMemory): the table, suggestions and their checks at
    // full size.
    let unique = Arc::new(
        parse_classad(
            "[Owner = \"raman\"; ImageSize = 20000; Requirements = TARGET.VirtualMemory > 99999999 \
             && TARGET.Arch == \"SGI\" && TARGET.OpSys == \"LINUX\" && TARGET.Cpus > 4]",
        )
        .unwrap(),
    );
    g.bench_function("stuck_job_distinct_machines_x_100000", |b| {
        b.iter(|| black_box(analyze(&unique, black_box(&machines), &o).unwrap()))
    });
    g.finish();
}

/// The hostile-input sweep's two analyses that ran for minutes (issue 21):
/// a 64 × 64-predicate DNF job against 300 machines, and a job against
/// 5,000 machines whose requirements are eight `(a || b)` factors each.
/// Whole-process figures are in the README (`classad analyze`).
fn hostile(c: &mut Criterion) {
    let mut seed = 7u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let clauses: Vec<String> = (0..64)
        .map(|_| {
            let p: Vec<String> = (0..64)
                .map(|j| format!("TARGET.X{j} > {}", next() % 100))
                .collect();
            format!("({})", p.join(" && "))
        })
        .collect();
    let dnf_job = Arc::new(
        parse_classad(&format!(
            "[ ClusterId = 2; ProcId = 0; Requirements = {} ]",
            clauses.join(" || ")
        ))
        .unwrap(),
    );
    let dnf_machines: Vec<Arc<classad::ClassAd>> = (0..300)
        .map(|i| {
            let a: Vec<String> = (0..64)
                .map(|j| format!("X{j} = {}", next() % 120))
                .collect();
            Arc::new(
                parse_classad(&format!(
                    "[ Name = \"m{i}\"; {}; Requirements = true ]",
                    a.join("; ")
                ))
                .unwrap(),
            )
        })
        .collect();
    let names = ["A", "B", "C", "D", "E", "F"];
    let or_job = Arc::new(
        parse_classad("[ ClusterId = 1; ProcId = 0; A = 0; B = 1; C = 2; D = 3; E = 4; F = 5; Requirements = TARGET.Memory > 0 ]")
            .unwrap(),
    );
    let or_machines: Vec<Arc<classad::ClassAd>> = (0..5000)
        .map(|i| {
            let f: Vec<String> = (0..8)
                .map(|_| {
                    let (a, b) = (names[(next() % 6) as usize], names[(next() % 6) as usize]);
                    format!(
                        "(TARGET.{a} > {} || TARGET.{b} < {})",
                        next() % 6,
                        next() % 6
                    )
                })
                .collect();
            Arc::new(
                parse_classad(&format!(
                    "[ Name = \"m{i}\"; Memory = {}; Requirements = {} ]",
                    1000 + i,
                    f.join(" && ")
                ))
                .unwrap(),
            )
        })
        .collect();
    let o = AnalysisOptions::default();
    let mut g = c.benchmark_group("analyze_hostile");
    g.sample_size(10);
    g.bench_function("dnf_64x64_x_300_machines", |b| {
        b.iter(|| black_box(analyze(&dnf_job, black_box(&dnf_machines), &o).unwrap()))
    });
    g.bench_function("eight_or_factors_x_5000_machines", |b| {
        b.iter(|| black_box(analyze(&or_job, black_box(&or_machines), &o).unwrap()))
    });
    g.finish();
}

criterion_group!(analysis, benches, hostile);
criterion_main!(analysis);
