//! Repeats one analysis for profiling: `perf record target/release/examples/analysis_profile stuck|workload`.

use std::sync::Arc;
use std::time::Instant;

use classad::analysis::{analyze, AnalysisOptions};
use classad::formats::{read_pool, InputFormat};
use classad::{parse_classad, ClassAd, Dialect};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "stuck".into());
    let pool = |text: &str| -> Vec<Arc<ClassAd>> {
        read_pool(text, InputFormat::Old, Dialect::Auto)
            .ads
            .into_iter()
            .map(|a| Arc::new(a.ad))
            .collect()
    };
    let machines = pool(&classad::workload::machines(100_000, 1));
    let job = if which == "stuck" {
        Arc::new(
            parse_classad(
                "[Owner = \"raman\"; ImageSize = 20000; RequestMemory = 100; Requirements = TARGET.Arch == \"SGI\" \
                 && TARGET.OpSys == \"LINUX\" && TARGET.Memory >= 1024 && TARGET.Cpus > 4 && TARGET.HasGPU == true]",
            )
            .unwrap(),
        )
    } else if which == "unique" {
        // Every machine's VirtualMemory differs: one group per machine.
        Arc::new(
            parse_classad(
                "[Owner = \"raman\"; ImageSize = 20000; Requirements = TARGET.VirtualMemory > 99999999 \
                 && TARGET.Arch == \"SGI\" && TARGET.OpSys == \"LINUX\" && TARGET.Cpus > 4]",
            )
            .unwrap(),
        )
    } else {
        pool(&classad::workload::jobs(1, 2)).remove(0)
    };
    let t = Instant::now();
    for _ in 0..10 {
        std::hint::black_box(analyze(&job, &machines, &AnalysisOptions::default()).unwrap());
    }
    eprintln!("{which}: {:.1?} per analysis", t.elapsed() / 10);
}
