//! Timed runs of the analyzer on the base workload, phase by phase:
//! `cargo run --release -p classad --example analysis_timing [MACHINES] [CASE] [REPEAT]`
//! with CASE `workload` (a workload job its machines reject), `stuck` (no
//! machine accepted, machines in few groups), `unique` (no machine
//! accepted, every machine its own group) or `all` (the default); REPEAT
//! runs each case again (under `perf record`, say) and prints the mean.

use std::sync::Arc;
use std::time::Instant;

use classad::analysis::{analyze_with_progress, AnalysisOptions};
use classad::{parse_classad, ClassAd};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn job(case: &str) -> Arc<ClassAd> {
    let req = match case {
        "stuck" => "TARGET.Arch == \"SGI\" && TARGET.OpSys == \"LINUX\" && TARGET.Memory >= 1024 && TARGET.Cpus > 4 && TARGET.HasGPU == true",
        "unique" => "TARGET.VirtualMemory > 99999999 && TARGET.Arch == \"SGI\" && TARGET.OpSys == \"LINUX\" && TARGET.Cpus > 4",
        _ => return classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(1, 2)).remove(0),
    };
    let text = format!(
        "[Owner = \"raman\"; ImageSize = 20000; RequestMemory = 100; Requirements = {req}]"
    );
    Arc::new(parse_classad(&text).expect("a valid job"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let case = args.get(2).map_or("all", |s| s.as_str());
    let repeat: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1).max(1);
    let t = Instant::now();
    let machines =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::machines(n, 1));
    println!("generated and parsed {n} machines in {:.2?}", t.elapsed());
    let cases: Vec<&str> = match case {
        "all" => vec!["workload", "stuck", "unique"],
        c => vec![c],
    };
    for c in cases {
        let job = job(c);
        let t = Instant::now();
        let mut last = t;
        let a = analyze_with_progress(
            &job,
            &machines,
            &AnalysisOptions::default(),
            &mut |i, of| {
                println!("  phase {i}/{of} after {:.1?}", last.elapsed());
                last = Instant::now();
                true
            },
        )
        .expect("the job has requirements");
        println!(
            "{c}: {:.1?}; summary {:?}; {} clauses, {} suggestions, {} job changes",
            t.elapsed(),
            a.summary,
            a.clauses.len(),
            a.suggestions.len(),
            a.job_changes.len()
        );
        if repeat > 1 {
            let t = Instant::now();
            for _ in 0..repeat {
                std::hint::black_box(
                    analyze_with_progress(
                        &job,
                        &machines,
                        &AnalysisOptions::default(),
                        &mut |_, _| true,
                    )
                    .ok(),
                );
            }
            println!(
                "{c}: {:.1?} per analysis over {repeat} runs",
                t.elapsed() / repeat
            );
        }
    }
}
