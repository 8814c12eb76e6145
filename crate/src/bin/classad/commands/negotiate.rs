//! `classad match`: one negotiation cycle, one line per job in the order
//! the cycle considered them (`JOBID MACHINE REASON…`), or the cycle as JSON.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use classad::index::negotiation::IndexUse;
use classad::matchmaking::negotiate::{self, NegotiationConfig};
use classad::matchmaking::userfn::UserFunctions;
use classad::ClassAd;

use crate::input::{parsed_stats, read_ads};
use crate::options::EvalArgs;

#[derive(Args)]
pub struct MatchCmd {
    #[arg(long, required_unless_present = "submit", conflicts_with = "submit")]
    jobs: Option<String>,
    /// The jobs as a submit description file: the job ads condor_submit
    /// makes from it.
    #[arg(long)]
    submit: Option<String>,
    #[command(flatten)]
    host: super::submit::SubmitHost,
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
    /// Survey the ch. 4 index' candidates: when it pays (auto), whenever
    /// the cycle can (always) or never (the plain loop).
    #[arg(long, value_enum, default_value = "auto")]
    index: IndexArg,
    #[command(flatten)]
    eval: EvalArgs,
    /// Print where the time went (reading, the cycle, `$$()`
    /// expansion) and the pair evaluations to stderr.
    #[arg(long)]
    stats: bool,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: crate::options::DialectArg,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum IndexArg {
    Auto,
    Always,
    Never,
}

impl From<IndexArg> for IndexUse {
    fn from(a: IndexArg) -> IndexUse {
        match a {
            IndexArg::Auto => IndexUse::Auto,
            IndexArg::Always => IndexUse::Always,
            IndexArg::Never => IndexUse::Never,
        }
    }
}

pub fn run(a: MatchCmd) -> Result<ExitCode, String> {
    let started = std::time::Instant::now();
    let (job_ads, mut libs) = match (&a.jobs, &a.submit) {
        (Some(j), _) => read_ads(j, a.dialect.dialect())?,
        (None, Some(s)) => (super::submit::job_ads(s, &a.host)?, vec![]),
        (None, None) => return Err("give --jobs or --submit".into()),
    };
    let (machine_ads, more) = read_ads(&a.machines, a.dialect.dialect())?;
    libs.extend(more);
    if let Some(f) = &a.functions {
        libs.extend(read_ads(f, a.dialect.dialect())?.1);
    }
    let mut lib = ClassAd::new();
    for l in &libs {
        lib.update(l);
    }
    let fns = UserFunctions::from_ad(&lib).map_err(|ds| {
        ds.iter()
            .map(|d| d.summary())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let mut cfg = NegotiationConfig::default();
    if !a.autocluster {
        cfg.autocluster = None;
    }
    cfg.count_candidates =
        a.count_candidates || negotiate::counting_pays(job_ads.len(), machine_ads.len());
    cfg.opts = a.eval.options();
    cfg.functions = (!fns.is_empty()).then(|| Arc::new(fns));
    let read = started.elapsed();
    let (result, index) = classad::index::negotiation::negotiate_choosing(
        &job_ads,
        &machine_ads,
        &cfg,
        a.index.into(),
        |_, _| true,
    );
    let cycle = started.elapsed() - read;
    let augmented = negotiate::augment(&result, &job_ads, &machine_ads, cfg.opts);
    if a.stats {
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
        if let Some(d) = index.filter(|d| !d.note.is_empty()) {
            eprintln!("index: {}", d.note);
        }
    }
    if a.json {
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
                // A reference left as written because filling it would
                // pass the bound on what substitution adds to a job.
                let why = match u.too_large {
                    Some(_) => "too-large",
                    None => "unresolved",
                };
                line.push_str(&format!(" {why}:{}:{}", u.attribute, u.reference));
            }
            println!("{line}");
        }
    }
    // As for `analyze`: the OS frees the pools faster.
    std::mem::forget((job_ads, machine_ads, result));
    Ok(ExitCode::SUCCESS)
}
