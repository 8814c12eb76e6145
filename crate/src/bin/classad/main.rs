//! The `classad` command: evaluate expressions, reformat ads, list
//! references. Other tools script against its output, so the formats here
//! are a contract (see README).

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
use classad::lang::ast::SharedText;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use classad::formats::{self, OutputFormat};
use classad::{ClassAd, Clock, Dialect, EvalOptions, Evaluator, Mode};

/// `println!` that ends the program quietly when the reader has gone away
/// (`classad … | head`), instead of panicking on the broken pipe.
macro_rules! println {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `print!` with the same quiet ending.
macro_rules! print {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if write!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

// After the macros, so the subcommand modules print through them too.
mod query;

#[derive(Parser)]
#[command(
    name = "classad",
    version,
    about = "The ClassAd language: evaluate, format, analyze"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Htcondor,
    Strict,
}

#[derive(Clone, Copy, ValueEnum)]
enum DialectArg {
    Auto,
    Modern,
    Seed,
}

#[derive(Clone, Copy, ValueEnum)]
enum ToArg {
    New,
    Old,
    Json,
    Jsonl,
    Pretty,
    Xml,
}

#[derive(Subcommand)]
enum Cmd {
    /// The ads of a pool that satisfy a constraint, as condor_status and
    /// condor_q -constraint list them: each ad is MY; `true` or a non-zero
    /// number matches.
    Query {
        /// Pool files (any format; `-` for standard input), read ad by ad.
        #[arg(required = true)]
        files: Vec<String>,
        #[arg(long, visible_alias = "const")]
        constraint: Option<String>,
        /// Autoformat: print these expressions of each matching ad, one
        /// line per ad, separated by one space.
        #[arg(long, num_args = 1.., value_name = "EXPR")]
        af: Vec<String>,
        /// The condor_status summary (machines by Arch/OpSys and State) or
        /// the condor_q totals line.
        #[arg(long)]
        summary: bool,
        /// Sort the matching ads by these expressions (stable).
        #[arg(long, num_args = 1.., value_name = "EXPR")]
        sort: Vec<String>,
        /// `{ "matched", "total", "rows", "summary" }`.
        #[arg(long)]
        json: bool,
        #[arg(long, value_enum, default_value = "htcondor")]
        mode: ModeArg,
        #[arg(long, value_enum, default_value = "auto")]
        dialect: DialectArg,
        /// Pin the clock (seconds since the epoch).
        #[arg(long, value_parser = finite_seconds)]
        now: Option<f64>,
        #[arg(long, allow_hyphen_values = true)]
        tz_offset: Option<i32>,
    },
    /// Evaluate each EXPR (or each line of standard input) and print its
    /// value, one line per expression.
    Eval {
        #[arg(long, value_enum, default_value = "htcondor")]
        mode: ModeArg,
        #[arg(long, value_enum, default_value = "auto")]
        dialect: DialectArg,
        /// The ad that is MY / self (default: an empty ad).
        #[arg(long)]
        my: Option<String>,
        /// The ad that is TARGET / other.
        #[arg(long)]
        target: Option<String>,
        /// Pin the clock (seconds since the epoch) for time functions.
        #[arg(long, value_parser = finite_seconds)]
        now: Option<f64>,
        /// Pin the local time-zone offset (seconds east of UTC).
        #[arg(long, allow_hyphen_values = true)]
        tz_offset: Option<i32>,
        exprs: Vec<String>,
    },
    /// Read ads in any supported format and write them in another.
    Fmt {
        #[arg(long, value_enum, default_value = "new")]
        to: ToArg,
        #[arg(long, value_enum, default_value = "auto")]
        dialect: DialectArg,
        file: Option<String>,
    },
    /// Run one negotiation cycle: one line per job, in the order the cycle
    /// considered them: `JOBID MACHINE REASON…`.
    Match {
        #[arg(long)]
        jobs: String,
        #[arg(long)]
        machines: String,
        /// Print the cycle as JSON.
        #[arg(long)]
        json: bool,
        /// Cluster jobs by significant attributes and skip failed clusters.
        #[arg(long)]
        autocluster: bool,
        /// Count every job's compatible machines (`candidates` in the JSON)
        /// even past 1,000,000 job × machine pairs, where a cycle otherwise
        /// finds each job's best machine without counting them.
        #[arg(long)]
        count_candidates: bool,
        /// A file with `MyType = "Functions"` ads defining extra functions.
        #[arg(long)]
        functions: Option<String>,
        #[arg(long, value_enum, default_value = "htcondor")]
        mode: ModeArg,
        #[arg(long, value_parser = finite_seconds)]
        now: Option<f64>,
        #[arg(long, allow_hyphen_values = true)]
        tz_offset: Option<i32>,
        /// Print where the time went (reading, the cycle, `$$()`
        /// expansion) and the pair evaluations to stderr.
        #[arg(long)]
        stats: bool,
    },
    /// Show the significant attributes and the auto-clusters of the jobs.
    Autocluster {
        #[arg(long)]
        jobs: String,
        #[arg(long)]
        machines: String,
        #[arg(long)]
        json: bool,
    },
    /// Why a job does not match: the summary, the predicate table,
    /// suggested changes (M1/M2, each checked by evaluation), conflicts,
    /// job-attribute changes the machines would accept, better-analyze's steps.
    Analyze {
        /// The job (with several ads, the one --which picks).
        #[arg(long)]
        job: String,
        #[arg(long)]
        machines: String,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Predicates not to change: N (predicate N of every clause) or C:N,
        /// 0-based as in the JSON.
        #[arg(long, value_delimiter = ',')]
        fixed: Vec<String>,
        /// One machine against the queue: the machine's requirements step by
        /// step over the jobs of --job (by auto-cluster).
        #[arg(long)]
        reverse: bool,
        /// Which ad to analyze (1-based): the job, or with --reverse the machine.
        #[arg(long, default_value_t = 1)]
        which: usize,
        /// Show better-analyze's non-narrowing steps too.
        #[arg(long)]
        all_steps: bool,
        #[arg(long, value_enum, default_value = "htcondor")]
        mode: ModeArg,
        #[arg(long, value_parser = finite_seconds)]
        now: Option<f64>,
        #[arg(long, allow_hyphen_values = true)]
        tz_offset: Option<i32>,
        /// Print the time taken and how many attribute definitions were
        /// parsed (the long format's are parsed when first read) to stderr.
        #[arg(long)]
        stats: bool,
    },
    /// List each ad's internal and external references.
    Refs {
        #[arg(long, value_enum, default_value = "auto")]
        dialect: DialectArg,
        file: Option<String>,
    },
    /// Gangmatch each request against the offers (thesis ch. 3 and 5): one
    /// line per request in processing order, `REQUEST LABEL=OFFER …` (ports
    /// of non-root offers as `OFFER.LABEL=OFFER`) or `REQUEST -`; last line
    /// `# evaluations=N probes=N backtracks=N gangs=N seconds=S`.
    Gang {
        /// naive (the ranked search, default), lr, rl, lrc, rlc, dyn, dyns
        /// or dynsr (the indexed algorithms of the thesis' chapter 5).
        #[arg(long, default_value = "naive")]
        algorithm: String,
        /// DYNSR's random start.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Process the requests in file order, as the thesis' experiments
        /// do (default: root order, by priority).
        #[arg(long)]
        file_order: bool,
        /// The root ordering expression (thesis §3.2.4), evaluated with
        /// each request as MY: the largest value first.
        #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
        root_order: Option<String>,
        /// The docking vector of the naive search, e.g. `{ self.Rank,
        /// -label.Memory }`: evaluated in the port being filled (`label` is
        /// the candidate); the largest vector wins, a candidate whose vector
        /// has an undefined, error or non-numeric component is not eligible.
        #[arg(long, value_name = "VECTOR", allow_hyphen_values = true)]
        docking_vector: Option<String>,
        #[arg(long)]
        requests: String,
        #[arg(long)]
        offers: String,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Generate workloads as files of ads.
    Workload {
        #[command(subcommand)]
        what: WorkloadCmd,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum GangKindArg {
    Base,
    HeuristicFailure,
    OpportunityCost,
}

#[derive(Subcommand)]
enum WorkloadCmd {
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

/// `--now`: seconds since the epoch, a finite number (`NaN` or `inf` would
/// silently become 0 or a clock no time function can print).
fn finite_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{s} is not a finite number of seconds")),
        Err(_) => Err(format!("{s} is not a number of seconds since the epoch")),
    }
}

/// The evaluation options the `--mode`, `--now` and `--tz-offset` flags give.
fn eval_options(mode: ModeArg, now: Option<f64>, tz_offset: Option<i32>) -> EvalOptions {
    EvalOptions {
        mode: match mode {
            ModeArg::Htcondor => Mode::HTCondor,
            ModeArg::Strict => Mode::Strict,
        },
        clock: Clock {
            now,
            local_offset: tz_offset,
        },
    }
}

fn dialect(d: DialectArg) -> Dialect {
    match d {
        DialectArg::Auto => Dialect::Auto,
        DialectArg::Modern => Dialect::Modern,
        DialectArg::Seed => Dialect::Seed,
    }
}

fn read_input(file: &Option<String>) -> Result<(String, String), String> {
    let (bytes, name) = match file {
        Some(f) if f != "-" => (
            std::fs::read(f).map_err(|e| format!("cannot read {f}: {e}"))?,
            f.clone(),
        ),
        _ => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            (b, "<stdin>".to_string())
        }
    };
    Ok((text_of(bytes, &name), name))
}

/// The text of a file's bytes. Bytes that are not UTF-8 (a Latin-1 name
/// from a Windows host) read as U+FFFD, and a warning says where the first
/// one is and how many lines hold one: every ad is kept.
fn text_of(bytes: Vec<u8>, name: &str) -> String {
    let (text, warning) = formats::decode_text_owned(bytes);
    if let Some(d) = warning {
        eprint!("{}", d.render(&text, name));
    }
    text
}

/// "parsed N of M job definitions, … machine definitions": what the work
/// read of the ads (the long format's definitions are parsed when read).
fn parsed_stats(jobs: &[Arc<ClassAd>], machines: &[Arc<ClassAd>]) -> String {
    let count = |ads: &[Arc<ClassAd>]| {
        ads.iter()
            .fold((0, 0), |(p, t), a| (p + a.parsed_count(), t + a.len()))
    };
    let ((jp, jt), (mp, mt)) = (count(jobs), count(machines));
    format!("parsed {jp} of {jt} job definitions, {mp} of {mt} machine definitions")
}

/// A pool file's text for ads to read lazily: the file mapped into memory
/// when it is a non-empty UTF-8 file (its bytes are the page cache's, not
/// a copy of hundreds of megabytes), else read as [`read_input`] reads.
fn shared_input(path: &str) -> Result<(Arc<dyn SharedText>, String), String> {
    if path != "-" {
        if let Some(map) = map_file(path) {
            return Ok((Arc::new(MappedText(map)), path.to_string()));
        }
    }
    let (text, name) = read_input(&Some(path.to_string()))?;
    Ok((Arc::new(text), name))
}

fn map_file(path: &str) -> Option<memmap2::Mmap> {
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().is_ok_and(|m| m.is_file() && m.len() > 0) {
        return None;
    }
    // SAFETY: the map is read-only and lives as long as the ads reading
    // it. A file truncated or rewritten while the command runs is not
    // supported (its reads would see the new bytes, or fault), as for
    // any tool that maps its input.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    std::str::from_utf8(&map).is_ok().then_some(map)
}

/// A mapped pool file.
struct MappedText(memmap2::Mmap);

impl SharedText for MappedText {
    fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Read exactly one ad from a file, reporting parse errors with location.
fn read_one_ad(path: &str, d: Dialect) -> Result<ClassAd, String> {
    let (text, name) = read_input(&Some(path.to_string()))?;
    let pool = formats::read_pool(&text, formats::InputFormat::Auto, d);
    for diag in pool.diagnostics.iter().filter(|d| !d.is_error()) {
        eprint!("{}", diag.render(&text, &name));
    }
    if let Some(diag) = pool.diagnostics.iter().find(|d| d.is_error()) {
        return Err(diag.render(&text, &name));
    }
    match pool.ads.len() {
        0 => Ok(ClassAd::new()),
        1 => Ok(pool.ads.into_iter().next().unwrap().ad),
        n => Err(format!("{name}: expected one ad, found {n}")),
    }
}

/// Read a pool file; function-library ads are returned separately.
fn read_ads(path: &str) -> Result<(Vec<Arc<ClassAd>>, Vec<ClassAd>), String> {
    let (shared, name) = shared_input(path)?;
    // Both ways are UTF-8 (see `shared_input`).
    let text = std::str::from_utf8(shared.bytes()).unwrap_or_default();
    let pool = formats::read_pool_shared(&shared, formats::InputFormat::Auto, Dialect::Auto);
    for diag in &pool.diagnostics {
        eprint!("{}", diag.render(text, &name));
    }
    if pool.diagnostics.iter().any(|d| d.is_error()) {
        return Err(format!("{name}: fix the errors above first"));
    }
    let (libs, ads): (Vec<_>, Vec<_>) = pool
        .ads
        .into_iter()
        .map(|a| a.ad)
        .partition(classad::userfn::is_library);
    // A function library is checked here, while its text is at hand, so
    // its problems are located in its file.
    for lib in &libs {
        if let Err(ds) = classad::userfn::UserFunctions::from_ad(lib) {
            let shown: String = ds
                .iter()
                .map(|d| d.clone().locate(text).render(text, &name))
                .collect();
            eprint!("{shown}");
            return Err(format!("{name}: fix the function library first"));
        }
    }
    Ok((ads.into_iter().map(Arc::new).collect(), libs))
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.cmd {
        Cmd::Query {
            files,
            constraint,
            af,
            summary,
            sort,
            json,
            mode,
            dialect: d,
            now,
            tz_offset,
        } => query::run(query::Args {
            files,
            constraint,
            af,
            summary,
            sort,
            json,
            opts: eval_options(mode, now, tz_offset),
            dialect: dialect(d),
        }),
        Cmd::Match {
            count_candidates,
            jobs,
            machines,
            json,
            autocluster,
            functions,
            mode,
            now,
            tz_offset,
            stats,
        } => {
            use classad::negotiate::NegotiationConfig;
            let started = std::time::Instant::now();
            let (job_ads, mut libs) = read_ads(&jobs)?;
            let (machine_ads, more) = read_ads(&machines)?;
            libs.extend(more);
            if let Some(f) = &functions {
                libs.extend(read_ads(f)?.1);
            }
            let mut lib = ClassAd::new();
            for l in &libs {
                lib.update(l);
            }
            let fns = classad::userfn::UserFunctions::from_ad(&lib).map_err(|ds| {
                ds.iter()
                    .map(|d| d.summary())
                    .collect::<Vec<_>>()
                    .join("\n")
            })?;
            let mut cfg = NegotiationConfig::default();
            if !autocluster {
                cfg.autocluster = None;
            }
            cfg.count_candidates = count_candidates
                || classad::negotiate::counting_pays(job_ads.len(), machine_ads.len());
            cfg.opts = eval_options(mode, now, tz_offset);
            cfg.functions = (!fns.is_empty()).then(|| Arc::new(fns));
            let read = started.elapsed();
            let result = classad::index::negotiation::negotiate_indexed(
                &job_ads,
                &machine_ads,
                &cfg,
                |_, _| true,
            );
            let cycle = started.elapsed() - read;
            let augmented = classad::negotiate::augment(&result, &job_ads, &machine_ads, cfg.opts);
            if stats {
                eprintln!(
                    "read {:.2} s ({} jobs, {} machines), cycle {:.2} s ({} pair evaluations, {} matched), $$() {:.2} s; {}",
                    read.as_secs_f64(),
                    job_ads.len(),
                    machine_ads.len(),
                    cycle.as_secs_f64(),
                    result.pair_evaluations,
                    result.matched,
                    (started.elapsed() - read - cycle).as_secs_f64(),
                    parsed_stats(&job_ads, &machine_ads),
                );
            }
            if json {
                let out = serde_json::json!({
                    "cycle": result,
                    "augmented": augmented,
                });
                println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            } else {
                for (o, aug) in result.outcomes.iter().zip(&augmented) {
                    let mut line = format!(
                        "{} {} {}",
                        o.job_id,
                        o.machine_name.as_deref().unwrap_or("-"),
                        o.reason.describe()
                    );
                    if !o.vector.is_empty() {
                        line.push_str(&format!(" vector={{{}}}", o.vector.join(",")));
                    }
                    for (attr, value) in &aug.changed {
                        line.push_str(&format!(" {attr}={value}"));
                    }
                    for u in &aug.unresolved {
                        line.push_str(&format!(" unresolved:{}:{}", u.attribute, u.reference));
                    }
                    println!("{line}");
                }
            }
            // As for `analyze`: the OS frees the pools faster.
            std::mem::forget((job_ads, machine_ads, result));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Autocluster {
            jobs,
            machines,
            json,
        } => {
            let (job_ads, _) = read_ads(&jobs)?;
            let (machine_ads, _) = read_ads(&machines)?;
            let cfg = classad::negotiate::NegotiationConfig::default();
            let mref: Vec<&ClassAd> = machine_ads.iter().map(|m| &**m).collect();
            let sig = classad::autocluster::significant_attributes(&mref, &cfg.docking_vector);
            let jref: Vec<&ClassAd> = job_ads.iter().map(|j| &**j).collect();
            let c = classad::autocluster::cluster(
                &jref,
                &sig,
                &classad::autocluster::AutoclusterConfig::default(),
            );
            if json {
                println!("{}", serde_json::to_string_pretty(&c).unwrap_or_default());
            } else {
                println!("significant attributes: {}", c.significant.join(" "));
                for (id, size) in c.sizes.iter().enumerate() {
                    let members: Vec<String> = c
                        .cluster_of
                        .iter()
                        .enumerate()
                        .filter(|(_, k)| **k as usize == id)
                        .take(8)
                        .map(|(j, _)| classad::negotiate::job_id(&job_ads[j], j))
                        .collect();
                    let more = if *size as usize > members.len() {
                        " …"
                    } else {
                        ""
                    };
                    println!(
                        "cluster {id}: {size} jobs: {}{more}; signature: {}",
                        members.join(" "),
                        c.signature_attributes[id].join(" ")
                    );
                }
                let n = job_ads.len().max(1);
                println!(
                    "{} jobs in {} clusters: the negotiator considers {:.1}x fewer requests",
                    job_ads.len(),
                    c.clusters(),
                    n as f64 / c.clusters().max(1) as f64
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Eval {
            mode,
            dialect: d,
            my,
            target,
            now,
            tz_offset,
            exprs,
        } => {
            let d = dialect(d);
            let my_ad = match &my {
                Some(p) => read_one_ad(p, d)?,
                None => ClassAd::new(),
            };
            let target_ad = match &target {
                Some(p) => Some(Arc::new(read_one_ad(p, d)?)),
                None => None,
            };
            let opts = eval_options(mode, now, tz_offset);
            let mut ev = Evaluator::new(opts);
            let my_ad = Arc::new(my_ad);
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let mut all_parsed = true;
            let mut one = |src: &str, out: &mut dyn Write| -> std::io::Result<()> {
                match classad::parse_expr_with(src, d, opts.mode) {
                    Ok(e) => {
                        ev.set_ads(Some(my_ad.clone()), target_ad.clone());
                        let v = ev.eval_expr(&e);
                        if let Some(deep) = ev.take_depth_exceeded() {
                            let note = classad::api::depth_diagnostic(&deep, src.len());
                            eprintln!("warning: {src:.60}: {}", note.message);
                        }
                        writeln!(out, "{v}")
                    }
                    Err(diag) => {
                        all_parsed = false;
                        // One line per expression, whatever the message holds.
                        let msg = diag.summary().replace('\n', "\\n").replace('\r', "\\r");
                        writeln!(out, "PARSE_ERROR {msg}")
                    }
                }
            };
            let io = |e: std::io::Error| format!("cannot write output: {e}");
            if exprs.is_empty() {
                let stdin = std::io::stdin();
                for line in stdin.lock().lines() {
                    let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
                    one(&line, &mut out).map_err(io)?;
                }
            } else {
                for e in &exprs {
                    one(e, &mut out).map_err(io)?;
                }
            }
            out.flush().map_err(io)?;
            Ok(if all_parsed {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Fmt {
            to,
            dialect: d,
            file,
        } => {
            let (text, name) = read_input(&file)?;
            let pool = formats::read_pool(&text, formats::InputFormat::Auto, dialect(d));
            for diag in &pool.diagnostics {
                eprint!("{}", diag.render(&text, &name));
            }
            let fmt = match to {
                ToArg::New => OutputFormat::New,
                ToArg::Old => OutputFormat::Old,
                ToArg::Json => OutputFormat::Json,
                ToArg::Jsonl => OutputFormat::JsonLines,
                ToArg::Pretty => OutputFormat::Pretty,
                ToArg::Xml => OutputFormat::Xml,
            };
            let ads: Vec<&ClassAd> = pool.ads.iter().map(|a| &a.ad).collect();
            {
                use std::io::Write as _;
                if write!(std::io::stdout(), "{}", formats::write_pool(&ads, fmt)).is_err() {
                    std::process::exit(0);
                }
            }
            Ok(if !pool.diagnostics.iter().any(|d| d.is_error()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Analyze {
            job,
            machines,
            json,
            fixed,
            reverse,
            which,
            all_steps,
            mode,
            now,
            tz_offset,
            stats,
        } => {
            let started = std::time::Instant::now();
            let eval = eval_options(mode, now, tz_offset);
            let (job_ads, _) = read_ads(&job)?;
            let (machine_ads, _) = read_ads(&machines)?;
            let read = started.elapsed();
            let fixed = fixed
                .iter()
                .map(|f| parse_fixed(f))
                .collect::<Result<Vec<_>, String>>()?;
            let o = classad::analysis::AnalysisOptions {
                eval,
                fixed,
                all_steps,
                position: which.saturating_sub(1),
            };
            let pick = |ads: &[Arc<ClassAd>], what: &str, file: &str| {
                if which == 0 || which > ads.len() {
                    return Err(format!(
                        "{file}: --which {which} but it holds {} {what} ad(s)",
                        ads.len()
                    ));
                }
                if ads.len() > 1 && which == 1 {
                    eprintln!(
                        "note: {file} holds {} {what} ads; analyzing the first (pick another with --which N)",
                        ads.len()
                    );
                }
                Ok(ads[which - 1].clone())
            };
            if reverse {
                let m = pick(&machine_ads, "machine", &machines)?;
                let r = classad::analysis::reverse::reverse_nth(
                    &m,
                    which,
                    &job_ads,
                    &classad::analysis::steps::StepOptions {
                        prune: !all_steps,
                        opts: eval,
                    },
                )?;
                if json {
                    println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
                } else {
                    print!("{}", classad::analysis::reverse::render_reverse(&r));
                }
                return Ok(ExitCode::SUCCESS);
            }
            let j = pick(&job_ads, "job", &job)?;
            let a = classad::analysis::analyze(&j, &machine_ads, &o)
                .map_err(|e| format!("{job}: {e}"))?;
            if stats {
                eprintln!(
                    "read {:.2} s ({} jobs, {} machines), analysis {:.2} s; {}",
                    read.as_secs_f64(),
                    job_ads.len(),
                    machine_ads.len(),
                    (started.elapsed() - read).as_secs_f64(),
                    parsed_stats(&job_ads, &machine_ads),
                );
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&a).unwrap_or_default());
            } else {
                print!("{}", classad::analysis::report::render(&a));
            }
            // The process ends here: freeing a production pool's millions
            // of definitions one by one would take longer than the OS does.
            std::mem::forget((job_ads, machine_ads, a));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Refs { dialect: d, file } => {
            let (text, name) = read_input(&file)?;
            let pool = formats::read_pool(&text, formats::InputFormat::Auto, dialect(d));
            for diag in &pool.diagnostics {
                eprint!("{}", diag.render(&text, &name));
            }
            for (i, entry) in pool.ads.iter().enumerate() {
                let r = classad::refs::ad_refs(&entry.ad);
                let join = |s: &std::collections::BTreeSet<String>| {
                    s.iter().cloned().collect::<Vec<_>>().join(" ")
                };
                println!("ad {} ({})", i, entry.label);
                println!("  internal: {}", join(&r.internal));
                println!("  external: {}", join(&r.external));
            }
            Ok(if !pool.diagnostics.iter().any(|d| d.is_error()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Cmd::Gang {
            algorithm,
            seed,
            file_order,
            root_order,
            docking_vector,
            requests,
            offers,
            json,
        } => {
            use classad::gang::{gangmatch, Algorithm, GangOptions};
            let algorithm = Algorithm::parse(&algorithm).ok_or_else(|| {
                format!(
                    "unknown algorithm {algorithm}: expected naive, lr, rl, lrc, rlc, dyn, dyns or dynsr"
                )
            })?;
            let parse = |what: &str, text: &str| {
                classad::parse_expr(text).map_err(|d| {
                    format!(
                        "--{what}: {}:{}: {}",
                        d.line.max(1),
                        d.column.max(1),
                        d.message
                    )
                })
            };
            let root_order_expr = root_order.map(|t| parse("root-order", &t)).transpose()?;
            let docking_vector = match docking_vector {
                Some(t) => {
                    let t = t.trim();
                    let text = if t.starts_with('{') {
                        t.to_string()
                    } else {
                        format!("{{ {t} }}")
                    };
                    match parse("docking-vector", &text)?.kind {
                        classad::ExprKind::List(items) if !items.is_empty() => Some(items.to_vec()),
                        _ => return Err("--docking-vector: expected a list of expressions, e.g. { self.Rank, -label.Memory }".into()),
                    }
                }
                None => None,
            };
            let (req_ads, _) = read_ads(&requests)?;
            let (offer_ads, _) = read_ads(&offers)?;
            let opts = GangOptions {
                algorithm,
                seed,
                root_order: !file_order,
                root_order_expr,
                docking_vector,
                ..GangOptions::default()
            };
            let result = gangmatch(&req_ads, &offer_ads, &opts).map_err(|e| e.to_string())?;
            for (i, msg) in &result.offer_errors {
                eprintln!("{offers}: offer {}: {msg} (left out)", i + 1);
            }
            for r in &result.requests {
                if let Some(msg) = &r.error {
                    eprintln!("{requests}: request {}: {msg}", r.name);
                }
                if r.limit_hit && r.probes > 0 {
                    // The indexed algorithms' budget counts index probes too.
                    eprintln!(
                        "request {}: gave up after {} evaluations and {} index probes \
                         (limit {} on the two together)",
                        r.name, r.evaluations, r.probes, opts.max_evaluations_per_request
                    );
                } else if r.limit_hit {
                    eprintln!(
                        "request {}: gave up after {} evaluations (limit {})",
                        r.name, r.evaluations, opts.max_evaluations_per_request
                    );
                }
            }
            if json {
                let text = serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?;
                println!("{text}");
            } else {
                for r in &result.requests {
                    match &r.gang {
                        Some(g) => println!("{} {}", r.name, g.line()),
                        None => println!("{} -", r.name),
                    }
                }
                let c = &result.counters;
                println!(
                    "# evaluations={} probes={} backtracks={} gangs={} seconds={:.3}",
                    c.evaluations, c.probes, c.backtracks, c.gangs, c.seconds
                );
            }
            // As `fmt` does: a malformed request or offer (reported above) is a failure.
            let malformed = !result.offer_errors.is_empty()
                || result.requests.iter().any(|r| r.error.is_some());
            Ok(if malformed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Cmd::Workload {
            what:
                WorkloadCmd::Gang {
                    kind,
                    jobs,
                    licenses_percent,
                    selectivity,
                    duds,
                    discrimination,
                    seed,
                    out,
                },
        } => {
            use classad::gang::workload::{generate_into, GangWorkload, Kind};
            let kind = match (kind, discrimination) {
                (GangKindArg::OpportunityCost, Some(k)) => {
                    Kind::OpportunityCost { discrimination: k }
                }
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
    }
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

/// `N` (predicate N of every clause) or `C:N` (of clause C), 0-based.
fn parse_fixed(s: &str) -> Result<classad::analysis::Fixed, String> {
    let bad = || format!("--fixed {s}: expected N or C:N (0-based predicate and clause numbers)");
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    match s.split_once(':') {
        Some((c, p)) => Ok(classad::analysis::Fixed {
            clause: Some(num(c)?),
            predicate: num(p)?,
        }),
        None => Ok(classad::analysis::Fixed {
            clause: None,
            predicate: num(s)?,
        }),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deep (but legal) expressions recurse; run on a thread with room.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(Ok(code))) => code,
        Ok(Ok(Err(msg))) => {
            eprintln!("error: {}", msg.trim_end());
            ExitCode::from(2)
        }
        _ => {
            eprintln!("error: internal failure");
            ExitCode::from(3)
        }
    }
}
