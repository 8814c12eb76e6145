//! `classad analyze`: why a job does not match (or, with `--reverse`, one
//! machine against the queue), as a report or one JSON object.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use classad::analysis::{self, reverse, steps::StepOptions, AnalysisOptions, Fixed};
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
    let (job_ads, job_file) = match (&a.job, &a.submit) {
        (Some(j), _) => (read_ads(j, a.dialect.dialect())?.0, j.clone()),
        (None, Some(s)) => (super::submit::job_ads(s, &a.host)?, s.clone()),
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
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", analysis::report::render(&report));
        if let Some(sub) = &a.submit {
            print!("{}", submit_edits(sub, &report.suggestions));
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

/// The fixes that change job attributes, as edits of the submit file the
/// job came from: the line that sets each command, its text now and what it
/// becomes (or a line to add). A `requirements =` fix is left out: the
/// analyzer writes the whole expression, and condor_submit appends its own
/// clauses to whatever the file says (its lines would repeat them).
fn submit_edits(file: &str, suggestions: &[analysis::suggest::Suggestion]) -> String {
    let Ok(text) = std::fs::read_to_string(file) else {
        return String::new();
    };
    // The last line that sets a key (commands are case-insensitive; `+A`
    // and `MY.A` set the same attribute).
    let key_of = |k: &str| {
        let k = k.trim();
        let k = k.strip_prefix('+').unwrap_or(k);
        let k = if k.len() > 3 && k[..3].eq_ignore_ascii_case("MY.") {
            &k[3..]
        } else {
            k
        };
        k.to_ascii_lowercase()
    };
    let line_of = |key: &str| {
        text.lines()
            .enumerate()
            .filter(|(_, l)| l.split_once('=').is_some_and(|(k, _)| key_of(k) == key))
            .last()
            .map(|(i, l)| (i + 1, l.trim().to_string()))
    };
    let mut out = String::new();
    let mut seen: Vec<Vec<String>> = vec![];
    for s in suggestions.iter().filter(|s| s.willing > 0) {
        let lines: Vec<String> = s
            .submit
            .iter()
            .filter(|l| {
                !l.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("requirements")
            })
            .cloned()
            .collect();
        if lines.is_empty() || seen.contains(&lines) {
            continue;
        }
        seen.push(lines.clone());
        let edits: Vec<String> = lines
            .iter()
            .map(|l| {
                let key = key_of(l.split_once('=').map_or(l.as_str(), |(k, _)| k));
                match line_of(&key) {
                    Some((n, old)) => format!("{file}:{n}: {old}  ->  {l}"),
                    None => format!("{file}: add before the queue statement: {l}"),
                }
            })
            .collect();
        if out.is_empty() {
            out.push_str(&format!(
                "\nThe fixes that change the job's attributes, as edits of {file}:\n"
            ));
        }
        out.push_str(&format!(
            "  ({} {} willing)\n",
            s.willing,
            if s.willing == 1 { "slot" } else { "slots" }
        ));
        for e in edits {
            out.push_str(&format!("    {e}\n"));
        }
    }
    out
}
