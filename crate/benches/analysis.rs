//! The analyzer on the thesis base workload (`classad::workload`): one job
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
    let machines = classad::workload::ads(&classad::workload::machines(100_000, 1));
    let jobs = classad::workload::ads(&classad::workload::jobs(100, 2));
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

criterion_group!(analysis, benches);
criterion_main!(analysis);
