//! The `classad` command: evaluate expressions, reformat ads, list
//! references. Other tools script against its output, so the formats here
//! are a contract (see README).

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};

use classad::formats::{self, OutputFormat};
use classad::{ClassAd, Clock, Dialect, EvalOptions, Evaluator, Mode};

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
}

#[derive(Subcommand)]
enum Cmd {
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
        #[arg(long)]
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
    /// List each ad's internal and external references.
    Refs {
        #[arg(long, value_enum, default_value = "auto")]
        dialect: DialectArg,
        file: Option<String>,
    },
}

fn dialect(d: DialectArg) -> Dialect {
    match d {
        DialectArg::Auto => Dialect::Auto,
        DialectArg::Modern => Dialect::Modern,
        DialectArg::Seed => Dialect::Seed,
    }
}

fn read_input(file: &Option<String>) -> Result<(String, String), String> {
    match file {
        Some(f) if f != "-" => std::fs::read_to_string(f)
            .map(|s| (s, f.clone()))
            .map_err(|e| format!("cannot read {f}: {e}")),
        _ => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok((s, "<stdin>".into()))
        }
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

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.cmd {
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
            let opts = EvalOptions {
                mode: match mode {
                    ModeArg::Htcondor => Mode::HTCondor,
                    ModeArg::Strict => Mode::Strict,
                },
                clock: Clock {
                    now,
                    local_offset: tz_offset,
                },
            };
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
            };
            let ads: Vec<&ClassAd> = pool.ads.iter().map(|a| &a.ad).collect();
            print!("{}", formats::write_pool(&ads, fmt));
            Ok(if !pool.diagnostics.iter().any(|d| d.is_error()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
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
