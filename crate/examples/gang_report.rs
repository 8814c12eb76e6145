//! The thesis' gangmatching experiments (Raman 2000, §5.3–5.8) re-run on
//! live workloads, printed as Markdown tables:
//! `cargo run --release -p classad --example gang_report [SIZES] [--naive-max N]`
//! with SIZES a comma-separated list of job counts (default
//! 500,1000,2000,4000). Every gang is made by the engine's own algorithms;
//! nothing here is modelled.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use classad::gang::workload::{generate, GangWorkload, Kind};
use classad::gang::{gangmatch, Algorithm, GangOptions, GangResult};
use classad::{ClassAd, EvalOptions, Evaluator};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn run(w: &GangWorkload, a: Algorithm) -> (GangResult, Vec<Arc<ClassAd>>, Vec<Arc<ClassAd>>) {
    let (req, off) = generate(w).expect("a valid workload").ads();
    let opts = GangOptions {
        algorithm: a,
        seed: w.seed,
        // The thesis processes requests in the order presented.
        root_order: false,
        ..GangOptions::default()
    };
    (gangmatch(&req, &off, &opts).expect("runs"), req, off)
}

const INDEXED: [Algorithm; 7] = [
    Algorithm::Lr,
    Algorithm::Rl,
    Algorithm::Lrc,
    Algorithm::Rlc,
    Algorithm::Dyn,
    Algorithm::Dyns,
    Algorithm::Dynsr,
];

fn name(a: Algorithm) -> String {
    format!("{a:?}").to_uppercase()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes = vec![500, 1000, 2000, 4000];
    let mut naive_max = 1000;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--naive-max" {
            naive_max = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0);
            i += 1;
        } else {
            sizes = args[i].split(',').filter_map(|s| s.parse().ok()).collect();
        }
        i += 1;
    }
    let started = Instant::now();

    println!(
        "## Base workload (§5.2): every algorithm, 50 % and 100 % licenses, selectivity 1/2/4/8\n"
    );
    println!("| jobs | licenses | sel. | algorithm | gangs | evaluations | probes | backtracks | seconds |");
    println!("|---:|---:|---:|---|---:|---:|---:|---:|---:|");
    for &n in &sizes {
        for pct in [100, 50] {
            for sel in [1, 2, 4, 8] {
                let w = GangWorkload {
                    kind: Kind::Base,
                    jobs: n,
                    licenses_percent: pct,
                    selectivity: sel,
                    duds: false,
                    seed: 1,
                };
                let mut algs: Vec<Algorithm> = INDEXED.to_vec();
                if n <= naive_max && sel == 1 {
                    algs.insert(0, Algorithm::Naive);
                }
                for a in algs {
                    let (r, _, _) = run(&w, a);
                    let c = &r.counters;
                    println!(
                        "| {n} | {pct} % | {sel} | {} | {} | {} | {} | {} | {:.3} |",
                        name(a),
                        c.gangs,
                        c.evaluations,
                        c.probes,
                        c.backtracks,
                        c.seconds
                    );
                }
            }
        }
    }

    let n = *sizes.iter().max().unwrap_or(&2000);
    println!("\n## With the eight dud ads (§5.6.2), {n} jobs, selectivity 4\n");
    println!(
        "| licenses | algorithm | probes without duds | probes with duds | gangs without / with |"
    );
    println!("|---:|---|---:|---:|---:|");
    for pct in [100, 50] {
        for a in [
            Algorithm::Lr,
            Algorithm::Lrc,
            Algorithm::Rl,
            Algorithm::Rlc,
            Algorithm::Dyn,
        ] {
            let mut w = GangWorkload {
                kind: Kind::Base,
                jobs: n,
                licenses_percent: pct,
                selectivity: 4,
                duds: false,
                seed: 1,
            };
            let (plain, _, _) = run(&w, a);
            w.duds = true;
            let (duds, _, _) = run(&w, a);
            println!(
                "| {pct} % | {} | {} | {} | {} / {} |",
                name(a),
                plain.counters.probes,
                duds.counters.probes,
                plain.counters.gangs,
                duds.counters.gangs
            );
        }
    }

    println!("\n## Heuristic failure (§5.7): 500 machines, 1000 identical licenses valid on the last 100\n");
    println!("| jobs | algorithm | gangs | evaluations | probes | backtracks | seconds |");
    println!("|---:|---|---:|---:|---:|---:|---:|");
    for jobs in [100, 500] {
        for a in [
            Algorithm::Lr,
            Algorithm::Rl,
            Algorithm::Dyn,
            Algorithm::Dyns,
            Algorithm::Dynsr,
        ] {
            let w = GangWorkload {
                kind: Kind::HeuristicFailure,
                jobs,
                seed: 1,
                ..GangWorkload::default()
            };
            let (r, _, _) = run(&w, a);
            let c = &r.counters;
            println!(
                "| {jobs} | {} | {} | {} | {} | {} | {:.3} |",
                name(a),
                c.gangs,
                c.evaluations,
                c.probes,
                c.backtracks,
                c.seconds
            );
        }
    }

    println!("\n## Opportunity cost of the random start (§5.8.3), {n} requests and offers\n");
    println!("| k | DYNS matches | DYNSR matches | DYNS cost | DYNSR cost | DYNSR − DYNS |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for k in [1.0, 4.0, 6.0, 8.0, 10.0] {
        let w = GangWorkload {
            kind: Kind::OpportunityCost { discrimination: k },
            jobs: n,
            seed: 1,
            ..GangWorkload::default()
        };
        let (dyns, req, off) = run(&w, Algorithm::Dyns);
        let (dynsr, _, _) = run(&w, Algorithm::Dynsr);
        let compat = compatibility(&req, &off);
        let (c1, c2) = (
            opportunity_cost(&dyns, &compat),
            opportunity_cost(&dynsr, &compat),
        );
        println!(
            "| {k} | {} | {} | {c1} | {c2} | {} |",
            dyns.counters.gangs,
            dynsr.counters.gangs,
            c2 as i64 - c1 as i64
        );
    }
    eprintln!("report took {:.1} s", started.elapsed().as_secs_f64());
}

/// Per offer, the requests it matches both ways.
fn compatibility(req: &[Arc<ClassAd>], off: &[Arc<ClassAd>]) -> Vec<HashSet<usize>> {
    let mut ev = Evaluator::new(EvalOptions::default());
    off.iter()
        .map(|o| {
            (0..req.len())
                .filter(|&r| {
                    classad::matchmaking::matching::symmetric_match(&mut ev, &req[r], o).matched()
                })
                .collect()
        })
        .collect()
}

/// §5.8.3: each match costs the requests its offer could still have
/// served (its compatibility set less the requests already matched).
fn opportunity_cost(r: &GangResult, compat: &[HashSet<usize>]) -> u64 {
    let mut matched = HashSet::new();
    let mut cost = 0;
    for o in &r.requests {
        let Some(g) = &o.gang else { continue };
        matched.insert(o.request);
        for off in g.offers() {
            cost += compat[off].iter().filter(|x| !matched.contains(*x)).count() as u64;
        }
    }
    cost
}
