//! `classad workload`: the thesis' gangmatching workloads (ch. 5) as files
//! of ads, written as they are generated (ten million jobs are gigabytes).

use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use classad::gang::workload::{generate_into, GangWorkload, Kind};

#[derive(Args)]
pub struct WorkloadCmd {
    #[command(subcommand)]
    what: Workload,
}

#[derive(Clone, Copy, ValueEnum)]
enum GangKindArg {
    Base,
    HeuristicFailure,
    OpportunityCost,
}

#[derive(Subcommand)]
enum Workload {
    /// The gangmatching workloads of the thesis (ch. 5): write
    /// OUT/requests.ads and OUT/offers.ads, one ad per line.
    Gang {
        /// base (§5.2.1), heuristic-failure (§5.7) or opportunity-cost (§5.8.3).
        #[arg(long, value_enum, default_value = "base")]
        kind: GangKindArg,
        /// Jobs (requests); in the base workload also the machines.
        #[arg(long, default_value_t = 1000)]
        jobs: usize,
        /// Base: 100 (a license per job) or 50 (one per two jobs).
        #[arg(long, default_value_t = 100)]
        licenses_percent: u32,
        /// Base: the number of license/machine partitions (1, 2, 4, 8 in the thesis).
        #[arg(long, default_value_t = 1)]
        selectivity: usize,
        /// Base: add the eight "dud" offers of §5.6.2.
        #[arg(long)]
        duds: bool,
        /// Opportunity-cost: offer thresholds are uniform in [0, K].
        #[arg(long)]
        discrimination: Option<f64>,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The directory to write (created if missing).
        #[arg(long)]
        out: String,
    },
}

pub fn run(a: WorkloadCmd) -> Result<ExitCode, String> {
    let Workload::Gang {
        kind,
        jobs,
        licenses_percent,
        selectivity,
        duds,
        discrimination,
        seed,
        out,
    } = a.what;
    let kind = match (kind, discrimination) {
        (GangKindArg::OpportunityCost, Some(k)) => Kind::OpportunityCost { discrimination: k },
        (GangKindArg::OpportunityCost, None) => {
            return Err("--kind opportunity-cost needs --discrimination K".into())
        }
        (_, Some(_)) => {
            return Err("--discrimination only applies to --kind opportunity-cost".into())
        }
        (GangKindArg::Base, None) => Kind::Base,
        (GangKindArg::HeuristicFailure, None) => Kind::HeuristicFailure,
    };
    let dir = std::path::Path::new(&out);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {out}: {e}"))?;
    let requests = dir.join("requests.ads");
    let offers = dir.join("offers.ads");
    // Written as generated: ten million jobs are gigabytes of text.
    let mut req_file = TextFile::create(&requests)?;
    let mut off_file = TextFile::create(&offers)?;
    let (requests_count, offers_count) = generate_into(
        &GangWorkload {
            kind,
            jobs,
            licenses_percent,
            selectivity,
            duds,
            seed,
        },
        &mut req_file,
        &mut off_file,
    )?;
    req_file.finish()?;
    off_file.finish()?;
    println!(
        "wrote {requests_count} requests to {} and {offers_count} offers to {}",
        requests.display(),
        offers.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A file written through `fmt::Write` (what the generators write to),
/// buffered, keeping the first I/O error to report at the end.
struct TextFile {
    path: std::path::PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    error: Option<std::io::Error>,
}

impl TextFile {
    fn create(path: &std::path::Path) -> Result<TextFile, String> {
        let f = std::fs::File::create(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(TextFile {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(f),
            error: None,
        })
    }

    fn finish(mut self) -> Result<(), String> {
        use std::io::Write;
        if self.error.is_none() {
            self.error = self.out.flush().err();
        }
        match self.error {
            Some(e) => Err(format!("cannot write {}: {e}", self.path.display())),
            None => Ok(()),
        }
    }
}

impl std::fmt::Write for TextFile {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        use std::io::Write;
        if self.error.is_none() {
            self.error = self.out.write_all(s.as_bytes()).err();
        }
        match self.error {
            Some(_) => Err(std::fmt::Error),
            None => Ok(()),
        }
    }
}
