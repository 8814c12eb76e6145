//! One timed run of the analyzer on the base workload, phase by phase:
//! `cargo run --release -p classad --example analysis_timing [MACHINES]`.

use std::sync::Arc;
use std::time::Instant;

use classad::analysis::{analyze_with_progress, AnalysisOptions};
use classad::formats::{read_pool, InputFormat};
use classad::{ClassAd, Dialect};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let t = Instant::now();
    let pool = |text: &str| -> Vec<Arc<ClassAd>> {
        read_pool(text, InputFormat::Old, Dialect::Auto)
            .ads
            .into_iter()
            .map(|a| Arc::new(a.ad))
            .collect()
    };
    let machines = pool(&classad::workload::machines(n, 1));
    let jobs = pool(&classad::workload::jobs(100, 2));
    println!("generated and parsed {n} machines in {:.2?}", t.elapsed());
    // pieces(&jobs[0], &machines);
    for (name, job) in [("workload job 0", &jobs[0]), ("workload job 50", &jobs[50])] {
        let t = Instant::now();
        let mut last = t;
        let a = analyze_with_progress(job, &machines, &AnalysisOptions::default(), &mut |i, of| {
            println!("  phase {i}/{of} after {:.1?}", last.elapsed());
            last = Instant::now();
            true
        })
        .unwrap();
        println!(
            "{name}: {:.1?} total; summary {:?}; {} clauses, {} suggestions, {} job changes",
            t.elapsed(),
            a.summary,
            a.clauses.len(),
            a.suggestions.len(),
            a.job_changes.len()
        );
    }
}

#[allow(dead_code)]
fn pieces(job: &Arc<ClassAd>, machines: &[Arc<ClassAd>]) {
    use classad::analysis::groups::Groups;
    let t = Instant::now();
    let g = Groups::by_requirements(machines, classad::matching::DEFAULT_REQUIREMENTS);
    println!(
        "    by_requirements: {} groups in {:.1?}",
        g.len(),
        t.elapsed()
    );
    let t = Instant::now();
    let all: Vec<usize> = (0..machines.len()).step_by(8).collect();
    let mut notes = vec![];
    let r =
        classad::analysis::nobody::rectangles(job, machines, &all, Default::default(), &mut notes);
    println!(
        "    rectangles of {} machines: {} rects in {:.1?}",
        all.len(),
        r.rects.len(),
        t.elapsed()
    );
    let t = Instant::now();
    let mut ev = classad::Evaluator::new(Default::default());
    let n = machines
        .iter()
        .filter(|m| {
            classad::matching::accepts(&mut ev, m, job, classad::matching::DEFAULT_REQUIREMENTS)
        })
        .count();
    println!(
        "    evaluate every machine's requirements: {n} accept, {:.1?}",
        t.elapsed()
    );
}
