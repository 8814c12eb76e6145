//! Engine benchmarks on the thesis base workload (bench/gen_pool.py):
//!
//! * `parse_pool/old_long_10000_machines` — read a 10,000-machine
//!   `condor_status -l` pool (`read_pool(.., InputFormat::Old, Dialect::Auto)`);
//!   throughput in ads. `parse_pool/production_2000_slots`: 2,000
//!   production-shaped slots (bench/gen_production.py, 49 MB), read lazily;
//!   `…_every_definition_parsed`: then every definition parsed.
//! * `symmetric_match/1000_jobs_x_1000_machines` — every job against every
//!   machine on compiled ads (`matches_compiled`); throughput in pairs.
//!   `…_evaluator`: the same with the general evaluator (`symmetric_match`,
//!   both sides always). `compile/2000_ads`: compiling the ads.
//! * `requirements/*` — parse, evaluate, and parse+evaluate a typical job
//!   `Requirements` expression against a machine.
//!
//! The data files are generated (deterministically) by `bench/gen_pool.py`
//! when missing; set `CLASSAD_BENCH_DATA` to use another directory.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use classad::formats::stream::AdStream;
use classad::formats::{read_pool, read_pool_eager, read_pool_shared, InputFormat};
use classad::lang::ast::SharedText;
use classad::lang::parser::parse_expr_in;
use classad::matchmaking::compiled::CompiledAd;
use classad::matchmaking::matching::{matches_compiled, symmetric_match, DEFAULT_REQUIREMENTS};
use classad::query::Query;
use classad::{ClassAd, Dialect, EvalOptions, Evaluator};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// As in the `classad` binary: many small allocations.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const FILES: [&str; 3] = ["machines_10000.txt", "machines_1000.txt", "jobs_1000.txt"];

/// A typical job Requirements expression (as the generator writes them).
const REQUIREMENTS: &str = r#"(TARGET.Arch == "INTEL") && (TARGET.OpSys == "LINUX") && (TARGET.VirtualMemory > ImageSize) && (TARGET.Memory >= RequestMemory) && (TARGET.Disk >= RequestDisk) && (TARGET.HasFileTransfer)"#;

fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("CLASSAD_BENCH_DATA") {
        return PathBuf::from(d);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/data")
}

fn ensure_data() -> PathBuf {
    let dir = data_dir();
    if FILES.iter().all(|f| dir.join(f).exists()) {
        return dir;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/gen_pool.py");
    let status = Command::new("python3")
        .arg(&script)
        .arg("--out")
        .arg(&dir)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    assert!(status.success(), "{} failed", script.display());
    dir
}

/// The data, read and checked once, only when a benchmark that needs it runs
/// (so a filtered run does no unneeded setup).
struct Data {
    pool_text: String,
    machines: Vec<Arc<ClassAd>>,
    jobs: Vec<Arc<ClassAd>>,
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let dir = ensure_data();
        let pool_text = read(&dir, "machines_10000.txt");
        // Sanity: every ad parses, none reports a problem.
        load_ads(&pool_text, 10_000);
        Data {
            pool_text,
            machines: load_ads(&read(&dir, "machines_1000.txt"), 1000),
            jobs: load_ads(&read(&dir, "jobs_1000.txt"), 1000),
        }
    })
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.join(name).display()))
}

fn load_ads(text: &str, expect: usize) -> Vec<Arc<ClassAd>> {
    let pool = read_pool(text, InputFormat::Old, Dialect::Auto);
    assert!(
        pool.diagnostics.is_empty(),
        "diagnostics: {:?}",
        &pool.diagnostics[..pool.diagnostics.len().min(3)]
    );
    assert_eq!(pool.ads.len(), expect);
    pool.ads.into_iter().map(|a| Arc::new(a.ad)).collect()
}

fn bench_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse_pool");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("old_long_10000_machines", |b| {
        let text = &data().pool_text;
        b.iter(|| read_pool(black_box(text), InputFormat::Old, Dialect::Auto))
    });
    // The eager path (`classad fmt`): every definition parsed as it is read.
    g.bench_function("old_long_10000_machines_eager", |b| {
        let text = &data().pool_text;
        // Reading, not freeing: `fmt` leaves the pool to the process' end.
        b.iter_with_large_drop(|| read_pool_eager(black_box(text), InputFormat::Old, Dialect::Auto))
    });
    g.finish();

    // Production-shaped slots (bench/gen_production.py: ≈24 KB, 450–850
    // attributes each), read lazily from the shared text, then the same
    // pool with every definition parsed (what reading cost before ads
    // were lazy, and what `fmt` still pays).
    let text: Arc<dyn SharedText> = Arc::new(production_text(2000));
    let mut g = c.benchmark_group("parse_pool");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Bytes(text.bytes().len() as u64));
    g.bench_function("production_2000_slots", |b| {
        b.iter(|| read_pool_shared(black_box(&text), InputFormat::Old, Dialect::Auto))
    });
    // `classad query`'s path: a stream keeping only what a constraint and
    // its columns reach.
    g.bench_function("production_2000_slots_query_projected", |b| {
        let q = Query::parse(
            Some("Cpus >= 4 && Memory >= 8192 && State == \"Unclaimed\""),
            &["Name".into(), "GLIDEIN_Site".into()],
            &[],
            Dialect::Modern,
        )
        .unwrap();
        b.iter(|| {
            let reader = std::io::Cursor::new(black_box(text.bytes()));
            AdStream::new(reader, Dialect::Modern)
                .projected(q.projection(false, false))
                .count()
        })
    });
    g.bench_function("production_2000_slots_every_definition_parsed", |b| {
        b.iter(|| {
            let pool = read_pool_shared(black_box(&text), InputFormat::Old, Dialect::Auto);
            pool.ads.iter().map(|a| a.ad.iter().count()).sum::<usize>()
        })
    });
    g.finish();
}

/// `bench/data/production_N.txt`, generated when missing.
fn production_text(slots: usize) -> String {
    let dir = data_dir();
    let name = format!("production_{slots}.txt");
    if !dir.join(&name).exists() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/gen_production.py");
        let status = Command::new("python3")
            .arg(&script)
            .arg("--slots")
            .arg(slots.to_string())
            .status()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(status.success(), "{} failed", script.display());
    }
    read(&dir, &name)
}

fn match_all(ev: &mut Evaluator, jobs: &[Arc<ClassAd>], machines: &[Arc<ClassAd>]) -> usize {
    let mut n = 0usize;
    for j in jobs {
        for m in machines {
            n += symmetric_match(ev, j, m).matched() as usize;
        }
    }
    n
}

fn compile(ads: &[Arc<ClassAd>]) -> Vec<CompiledAd> {
    ads.iter()
        .map(|a| CompiledAd::new(a.clone(), EvalOptions::default(), DEFAULT_REQUIREMENTS))
        .collect()
}

fn match_all_compiled(ev: &mut Evaluator, jobs: &[CompiledAd], machines: &[CompiledAd]) -> usize {
    let mut n = 0usize;
    for j in jobs {
        for m in machines {
            n += matches_compiled(ev, j, m) as usize;
        }
    }
    n
}

fn bench_match(c: &mut Criterion) {
    let mut g = c.benchmark_group("symmetric_match");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(1_000_000));
    // The matchmaker's way: each ad compiled once (timed below), then
    // every pair, stopping at the first side that rejects (as HTCondor's
    // `symmetricMatch = RIGHT.requirements && LEFT.requirements` does).
    g.bench_function("1000_jobs_x_1000_machines", |b| {
        let d = data();
        let (jobs, machines) = (compile(&d.jobs), compile(&d.machines));
        let mut ev = Evaluator::new(EvalOptions::default());
        b.iter(|| black_box(match_all_compiled(&mut ev, &jobs, &machines)))
    });
    // The general evaluator on every pair, both sides always.
    g.bench_function("1000_jobs_x_1000_machines_evaluator", |b| {
        static ONCE: OnceLock<()> = OnceLock::new();
        let d = data();
        let mut ev = Evaluator::new(EvalOptions::default());
        ONCE.get_or_init(|| {
            let n = match_all(&mut ev, &d.jobs, &d.machines);
            eprintln!("symmetric_match: {n} of 1000000 pairs match");
        });
        b.iter(|| black_box(match_all(&mut ev, &d.jobs, &d.machines)))
    });
    g.finish();
    let mut g = c.benchmark_group("compile");
    g.throughput(Throughput::Elements(2000));
    g.bench_function("2000_ads", |b| {
        let d = data();
        b.iter(|| (compile(&d.jobs), compile(&d.machines)))
    });
    g.finish();
}

/// A job and a machine for which `REQUIREMENTS` (with the job as MY) is
/// true, so that every clause is evaluated.
fn requirements_pair(expr: &classad::Expr) -> (Arc<ClassAd>, Arc<ClassAd>) {
    let d = data();
    let mut ev = Evaluator::new(EvalOptions::default());
    for j in &d.jobs {
        for m in &d.machines {
            ev.set_ads(Some(j.clone()), Some(m.clone()));
            if ev.eval_expr(expr).is_true() {
                return (j.clone(), m.clone());
            }
        }
    }
    panic!("no pair satisfies the benchmark Requirements");
}

fn bench_requirements(c: &mut Criterion) {
    let expr = parse_expr_in(REQUIREMENTS, Dialect::Auto).expect("requirements parse");
    let mut g = c.benchmark_group("requirements");
    g.throughput(Throughput::Elements(1));
    g.bench_function("parse", |b| {
        b.iter(|| parse_expr_in(black_box(REQUIREMENTS), Dialect::Auto).unwrap())
    });
    g.bench_function("eval", |b| {
        let (job, machine) = requirements_pair(&expr);
        let mut ev = Evaluator::new(EvalOptions::default());
        b.iter(|| {
            ev.set_ads(Some(job.clone()), Some(machine.clone()));
            ev.eval_expr(black_box(&expr))
        })
    });
    g.bench_function("parse_eval", |b| {
        let (job, machine) = requirements_pair(&expr);
        let mut ev = Evaluator::new(EvalOptions::default());
        b.iter(|| {
            let e = parse_expr_in(black_box(REQUIREMENTS), Dialect::Auto).unwrap();
            ev.set_ads(Some(job.clone()), Some(machine.clone()));
            ev.eval_expr(&e)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_parse, bench_match, bench_requirements);
criterion_main!(benches);
