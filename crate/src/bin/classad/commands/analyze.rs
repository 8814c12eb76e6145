//! `classad analyze`: why a job does not match (or, with `--reverse`, one
//! machine against the queue), as a report or one JSON object.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use classad::analysis::fixes::count_job;
use classad::analysis::{self, reverse, steps::StepOptions, submit_fixes, AnalysisOptions, Fixed};
use classad::ClassAd;

use crate::input::{parsed_stats, read_ads};
use crate::options::EvalArgs;

#[derive(Args)]
pub struct AnalyzeCmd {
    /// The job (with several ads, the one --which picks).
    #[arg(long, required_unless_present = "submit", conflicts_with = "submit")]
    job: Option<String>,
    /// The job as a submit description file: the job ads condor_submit
    /// makes from it (the one --which picks).
    #[arg(long)]
    submit: Option<String>,
    #[command(flatten)]
    host: super::submit::SubmitHost,
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
    #[command(flatten)]
    eval: EvalArgs,
    /// Print the time taken and how many attribute definitions were
    /// parsed (the long format's are parsed when first read) to stderr.
    #[arg(long)]
    stats: bool,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: crate::options::DialectArg,
}

pub fn run(a: AnalyzeCmd) -> Result<ExitCode, String> {
    let started = std::time::Instant::now();
    let eval = a.eval.options();
    let mut submitted = None;
    let (job_ads, job_file) = match (&a.job, &a.submit) {
        (Some(j), _) => (read_ads(j, a.dialect.dialect())?.0, j.clone()),
        (None, Some(s)) => {
            let out = super::submit::run_file(s, &a.host)?;
            let ads = out.jobs.iter().map(|j| Arc::new(j.built.ad())).collect();
            submitted = Some(out);
            (ads, s.clone())
        }
        (None, None) => return Err("give --job or --submit".into()),
    };
    let (machine_ads, _) = read_ads(&a.machines, a.dialect.dialect())?;
    let read = started.elapsed();
    let fixed = a
        .fixed
        .iter()
        .map(|f| parse_fixed(f))
        .collect::<Result<Vec<_>, String>>()?;
    let o = AnalysisOptions {
        eval,
        fixed,
        all_steps: a.all_steps,
        position: a.which.saturating_sub(1),
    };
    let which = a.which;
    let pick = |ads: &[Arc<ClassAd>], what: &str, file: &str| {
        if which == 0 {
            return Err(format!(
                "--which counts from 1 (--which 1 is the first {what} ad of {file}); the JSON's indices (clauses, predicates, suggestions) count from 0"
            ));
        }
        if which > ads.len() {
            return Err(format!(
                "{file}: --which {which} but it holds {} {what} ad(s) (--which counts from 1)",
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
    if a.reverse {
        let m = pick(&machine_ads, "machine", &a.machines)?;
        let steps = StepOptions {
            prune: !a.all_steps,
            opts: eval,
        };
        let r = reverse::reverse_nth(&m, which, &job_ads, &steps).map_err(|e| e.to_string())?;
        if a.json {
            println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
        } else {
            print!("{}", reverse::render_reverse(&r));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let j = pick(&job_ads, "job", &job_file)?;
    let report = analysis::analyze(&j, &machine_ads, &o).map_err(|e| format!("{job_file}: {e}"))?;
    if a.stats {
        eprintln!(
            "read {:.2} s ({} jobs, {} machines), analysis {:.2} s; {}",
            read.as_secs_f64(),
            job_ads.len(),
            machine_ads.len(),
            (started.elapsed() - read).as_secs_f64(),
            parsed_stats(&job_ads, &machine_ads),
        );
    }
    let fixes = match (&a.submit, &submitted) {
        (Some(file), Some(out)) => {
            let j = &out.jobs[which - 1];
            Some(file_fixes(file, j, &report, &machine_ads, &a.host, eval)?)
        }
        _ => None,
    };
    if a.json {
        let mut v = serde_json::to_value(&report).map_err(|e| e.to_string())?;
        if let (Some(f), Some(o)) = (&fixes, v.as_object_mut()) {
            o.insert(
                "submit_fixes".into(),
                serde_json::to_value(f).map_err(|e| e.to_string())?,
            );
        }
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print!("{}", analysis::report::render(&report));
        if let Some(f) = &fixes {
            print!("{}", render_file_fixes(f, &report.suggestions));
        }
    }
    // The process ends here: freeing a production pool's millions of
    // definitions one by one would take longer than the OS does.
    std::mem::forget((job_ads, machine_ads, report));
    Ok(ExitCode::SUCCESS)
}

/// `N` (predicate N of every clause) or `C:N` (of clause C), 0-based.
fn parse_fixed(s: &str) -> Result<Fixed, String> {
    let bad = || format!("--fixed {s}: expected N or C:N (0-based predicate and clause numbers)");
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    match s.split_once(':') {
        Some((c, p)) => Ok(Fixed {
            clause: Some(num(c)?),
            predicate: num(p)?,
        }),
        None => Ok(Fixed {
            clause: None,
            predicate: num(s)?,
        }),
    }
}

/// The analysis' fixes as edits of the submit file, each checked by
/// submitting the edited file (its proc `j.proc`) and counting its job.
fn file_fixes(
    file: &str,
    j: &classad::submit::run::Job,
    report: &analysis::Analysis,
    machines: &[Arc<ClassAd>],
    host: &super::submit::SubmitHost,
    eval: classad::EvalOptions,
) -> Result<submit_fixes::SubmitFixes, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let proc = j.proc as usize;
    Ok(submit_fixes::submit_fixes(
        &submit_fixes::SubmittedJob::of(file, &text, j),
        &report.suggestions,
        &mut |t| {
            let out = super::submit::run_text(file, t, host, proc + 1)?;
            if let Some(e) = super::submit::errors_of(file, &out).first() {
                return Err(e.clone());
            }
            out.jobs
                .into_iter()
                .nth(proc)
                .map(|j| j.built)
                .ok_or_else(|| format!("the edited file makes no proc {proc}"))
        },
        &mut |job| count_job(job, machines, None, eval),
    ))
}

/// The fixes as edits of the file: `FILE:LINE: old  ->  new`, a line to
/// add, a line to remove; what condor_submit undoes, and why.
fn render_file_fixes(
    f: &submit_fixes::SubmitFixes,
    suggestions: &[analysis::Suggestion],
) -> String {
    let file = &f.file;
    let mut out = String::new();
    if f.fixes.is_empty() && f.undone.is_empty() {
        return out;
    }
    out.push_str(&format!(
        "\nThe fixes as edits of {file} (each checked: the file edited, submitted again and its job counted):\n"
    ));
    if f.fixes.is_empty() {
        out.push_str("  None: condor_submit undoes every fix above.\n");
    }
    let slots = |n: u64| format!("{n} {}", if n == 1 { "slot" } else { "slots" });
    for (k, fix) in f.fixes.iter().enumerate() {
        out.push_str(&format!(
            "  {}. {} willing ({} matching both ways)\n",
            k + 1,
            slots(fix.willing),
            fix.both_ways
        ));
        for e in &fix.edits {
            let line = if e.lines == 0 {
                format!("{file}:{}: add before it: {}", e.line, e.new)
            } else if e.new.is_empty() {
                format!("{file}:{}: remove: {}", e.line, e.old.replace('\n', " "))
            } else {
                format!(
                    "{file}:{}: {}  ->  {}",
                    e.line,
                    e.old.replace('\n', " "),
                    e.new
                )
            };
            out.push_str(&format!("     {line}\n"));
        }
    }
    for u in &f.undone {
        let what = suggestions
            .get(u.suggestion)
            .map(|s| s.submit.join("; "))
            .unwrap_or_default();
        out.push_str(&format!("  Not as an edit of {file}: {what}: {}\n", u.why));
    }
    out
}
