//! The `classad` command: evaluate expressions, reformat ads, query pools,
//! run negotiation cycles, analyze, gangmatch. Other tools script against
//! its output, so the formats here are a contract (see README). One file
//! per subcommand in `commands/`; the flags they share in `options.rs`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// First, so every module prints through its `println!`/`print!`.
#[macro_use]
mod output;
mod commands;
mod input;
mod options;

use commands::{analyze, autocluster, eval, fmt, gang, negotiate, query, refs, submit, workload};

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

#[derive(Subcommand)]
enum Cmd {
    /// The ads of a pool that satisfy a constraint, as condor_status and
    /// condor_q -constraint list them: each ad is MY; `true` or a non-zero
    /// number matches.
    Query(query::QueryCmd),
    /// Evaluate each EXPR (or each line of standard input) and print its
    /// value, one line per expression.
    Eval(eval::EvalCmd),
    /// Read ads in any supported format and write them in another.
    Fmt(fmt::FmtCmd),
    /// Run one negotiation cycle: one line per job, in the order the cycle
    /// considered them: `JOBID MACHINE REASON…`.
    Match(negotiate::MatchCmd),
    /// Show the significant attributes and the auto-clusters of the jobs.
    Autocluster(autocluster::AutoclusterCmd),
    /// Why a job does not match: the summary, the predicate table,
    /// suggested changes (M1/M2, each checked by evaluation), conflicts,
    /// job-attribute changes the machines would accept, better-analyze's steps.
    Analyze(analyze::AnalyzeCmd),
    /// List each ad's internal and external references.
    Refs(refs::RefsCmd),
    /// A submit description file turned into the job ads condor_submit
    /// makes from it (one per proc); its warnings on stderr; exit 1 with
    /// located errors (`FILE:LINE:COL: message`) when condor_submit would
    /// refuse the file.
    Submit(submit::SubmitCmd),
    /// Gangmatch each request against the offers (thesis ch. 3 and 5): one
    /// line per request in processing order, `REQUEST LABEL=OFFER …` (ports
    /// of non-root offers as `OFFER.LABEL=OFFER`) or `REQUEST -`; last line
    /// `# evaluations=N probes=N backtracks=N gangs=N seconds=S`.
    Gang(gang::GangCmd),
    /// Generate workloads as files of ads.
    Workload(workload::WorkloadCmd),
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.cmd {
        Cmd::Query(a) => query::run(a),
        Cmd::Eval(a) => eval::run(a),
        Cmd::Fmt(a) => fmt::run(a),
        Cmd::Match(a) => negotiate::run(a),
        Cmd::Autocluster(a) => autocluster::run(a),
        Cmd::Analyze(a) => analyze::run(a),
        Cmd::Refs(a) => refs::run(a),
        Cmd::Submit(a) => submit::run(a),
        Cmd::Gang(a) => gang::run(a),
        Cmd::Workload(a) => workload::run(a),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deep (but legal) expressions recurse; run on a thread with room.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(cli));
    let outcome = worker.map(|h| h.join());
    // Values a pool's evaluations refused as too large (each is error
    // where it was wanted): said once, whatever the command.
    if let Some((first, n)) = classad::lang::eval::bounds::take_untaken() {
        let more = match n {
            1 => String::new(),
            n => format!(" ({} more evaluations refused one too)", n - 1),
        };
        eprintln!("warning: {}{more}", first.message());
    }
    match outcome {
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
