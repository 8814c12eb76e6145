//! `classad submit`: a submit description file turned into the job ads
//! condor_submit 25 (or 24) makes from it, one per proc; condor_submit's
//! warnings on stderr; with `--explain`, where every attribute and every
//! Requirements clause came from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use classad::formats::{self, OutputFormat};
use classad::submit::{self, HtcVersion, SubmitConfig};
use classad::ClassAd;

#[derive(Clone, Copy, ValueEnum)]
enum ToArg {
    New,
    Old,
    Json,
    Xml,
}

#[derive(Clone, Copy, ValueEnum)]
enum VersionArg {
    #[value(name = "25")]
    V25,
    #[value(name = "24")]
    V24,
}

/// The submit host a submit file is turned into job ads on (shared by
/// `submit` and the commands that take `--submit` for their jobs).
#[derive(Args, Clone)]
pub struct SubmitHost {
    /// Whose rules: condor_submit 25 (the default) or 24.
    #[arg(long, value_enum, default_value = "25")]
    htcondor: VersionArg,
    /// A configuration value of the submit host (ARCH, OPSYS,
    /// FILESYSTEM_DOMAIN, APPEND_REQUIREMENTS, …); repeatable.
    #[arg(long = "config", value_name = "KEY=VALUE")]
    pub(crate) config: Vec<String>,
    #[arg(long, default_value_t = 1)]
    cluster: i64,
    /// The submit time, seconds since the epoch (default: now).
    #[arg(long)]
    qdate: Option<i64>,
    #[arg(long)]
    owner: Option<String>,
    /// At most this many procs (at most 100,000).
    #[arg(long, default_value_t = submit::run::DEFAULT_MAX_PROCS)]
    max_procs: usize,
}

#[derive(Args)]
pub struct SubmitCmd {
    /// The submit description file (files it includes or reads items from
    /// are read beside it).
    file: String,
    #[arg(long, value_enum, default_value = "new")]
    to: ToArg,
    #[command(flatten)]
    host: SubmitHost,
    /// Each attribute with its origin, each Requirements clause with its reason.
    #[arg(long)]
    explain: bool,
}

fn absolute(dir: &Path) -> String {
    std::fs::canonicalize(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// Run the submit file at `file` on `host`: condor_submit's warnings
/// printed to stderr; `Err` with the located errors when condor_submit
/// would refuse the file.
pub fn run_file(file: &str, host: &SubmitHost) -> Result<submit::Submitted, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let out = run_text(file, &text, host, host.max_procs)?;
    for w in &out.warnings {
        eprintln!("{}:{}:{}: warning: {}", w.file, w.line, w.column, w.message);
    }
    for j in &out.jobs {
        for w in &j.built.warnings {
            eprintln!("{}: warning: {}", place(file, w.line, w.column), w.message);
        }
    }
    if let Some(cut) = &out.cut {
        eprintln!("{file}: warning: {cut}");
    }
    let mut errors = errors_of(file, &out);
    if !errors.is_empty() {
        errors.dedup();
        return Err(errors.join("\n"));
    }
    Ok(out)
}

/// condor_submit's errors, located (`FILE:LINE:COL: message`).
pub fn errors_of(file: &str, out: &submit::Submitted) -> Vec<String> {
    let mut errors: Vec<String> = out
        .errors
        .iter()
        .map(|e| format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message))
        .collect();
    for j in &out.jobs {
        for e in &j.built.errors {
            errors.push(format!("{}: {}", place(file, e.line, e.column), e.message));
        }
    }
    errors
}

/// Run `text` as the submit file at `file` (files beside it read, its
/// directory the submit directory), at most `max_procs`; nothing printed.
pub fn run_text(
    file: &str,
    text: &str,
    host: &SubmitHost,
    max_procs: usize,
) -> Result<submit::Submitted, String> {
    let path = PathBuf::from(file);
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut config = SubmitConfig::default_host();
    config.version = match host.htcondor {
        VersionArg::V25 => HtcVersion::V25,
        VersionArg::V24 => HtcVersion::V24,
    };
    for kv in &host.config {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--config {kv}: expected KEY=VALUE"))?;
        config.set(k, v);
    }
    let read_beside = |name: &str| -> Option<String> {
        let p = if Path::new(name).is_absolute() {
            PathBuf::from(name)
        } else {
            dir.join(name)
        };
        std::fs::read(p)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    // What `queue matching` globs over: the names in the submit directory.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    if e.path().is_dir() {
                        n + "/"
                    } else {
                        n
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let env: BTreeMap<String, String> = std::env::vars().collect();
    let qdate = host.qdate.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    });
    let input = submit::run::SubmitInput {
        name: file,
        text,
        files: &read_beside,
        names: &names,
        config,
        cluster: host.cluster,
        qdate,
        owner: host.owner.clone(),
        iwd: absolute(&dir),
        env,
        max_procs,
        dir_exists: Some(|d| Path::new(d).is_dir()),
    };
    Ok(submit::run::submit(&input))
}

/// `FILE:LINE:COL`, or `FILE` for what belongs to no line.
fn place(file: &str, line: u32, column: u32) -> String {
    if line == 0 {
        file.to_string()
    } else {
        format!("{file}:{line}:{column}")
    }
}

/// The job ads a submit file makes (for `--submit` in place of jobs).
pub fn job_ads(file: &str, host: &SubmitHost) -> Result<Vec<std::sync::Arc<ClassAd>>, String> {
    let out = run_file(file, host)?;
    Ok(out
        .jobs
        .iter()
        .map(|j| std::sync::Arc::new(j.built.ad()))
        .collect())
}

pub fn run(a: SubmitCmd) -> Result<ExitCode, String> {
    let out = match run_file(&a.file, &a.host) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return Ok(ExitCode::from(1));
        }
    };
    if a.explain {
        for j in &out.jobs {
            println!(
                "# proc {} (queue statement on line {})",
                j.proc, j.queue_line
            );
            for (name, expr) in &j.built.attrs {
                let origin = j
                    .built
                    .origins
                    .get(name)
                    .map(submit::explain::origin_words)
                    .unwrap_or_else(|| "condor_submit".into());
                println!("{name} = {}    # {origin}", classad::unparse(expr));
            }
            for (clause, why) in &j.built.clauses {
                println!("# Requirements clause {clause}: {why}");
            }
            println!();
        }
        return Ok(ExitCode::SUCCESS);
    }
    let ads: Vec<ClassAd> = out.jobs.iter().map(|j| j.built.ad()).collect();
    let refs: Vec<&ClassAd> = ads.iter().collect();
    let fmt = match a.to {
        ToArg::New => OutputFormat::New,
        ToArg::Old => OutputFormat::Old,
        ToArg::Json => OutputFormat::Json,
        ToArg::Xml => OutputFormat::Xml,
    };
    print!("{}", formats::write_pool(&refs, fmt));
    Ok(ExitCode::SUCCESS)
}
