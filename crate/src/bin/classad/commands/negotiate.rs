//! `classad match`: one negotiation cycle, one line per job in the order
//! the cycle considered them (`JOBID MACHINE REASON…`), or the cycle as JSON.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use classad::index::negotiation::IndexUse;
use classad::matchmaking::claims::Preemption;
use classad::matchmaking::negotiate::{self, NegotiationConfig};
use classad::matchmaking::userfn::UserFunctions;
use classad::policy::rules;
use classad::policy::{HTCondorPolicy, Knobs, PriorityTable};
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
    /// Whose rules: HTCondor 25's negotiator (user priorities, rank and
    /// priority preemption; its knobs through --config, e.g.
    /// `--config PREEMPTION_REQUIREMENTS=True`) or the thesis' Figure 9
    /// docking vector (the seed lessons).
    #[arg(long, value_enum, default_value = "htcondor")]
    policy: PolicyArg,
    /// The user priorities, as `condor_userprio -allusers` prints them (or
    /// `name priority` lines); with --policy htcondor.
    #[arg(long, value_name = "FILE")]
    userprio: Option<String>,
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

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PolicyArg {
    Htcondor,
    Thesis,
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

/// Most jobs whose claimed candidates are explained (each costs a scan of
/// the pool).
const EXPLAINED: usize = 64;

/// For jobs whose compatible slots were all claimed and not preemptible
/// (HTCondor policy): why, on the first such slot of the pool.
fn why_not_preempted(
    policy: Option<&HTCondorPolicy>,
    result: &negotiate::CycleResult,
    jobs: &[Arc<ClassAd>],
    machines: &[Arc<ClassAd>],
    cfg: &NegotiationConfig,
) -> std::collections::BTreeMap<usize, String> {
    let mut out = std::collections::BTreeMap::new();
    let Some(p) = policy else {
        return out;
    };
    let mut ev = classad::Evaluator::new(cfg.opts);
    // Slots this cycle matched are not the ones the job was refused.
    let taken: std::collections::BTreeSet<usize> =
        result.outcomes.iter().filter_map(|o| o.machine).collect();
    let failed = result
        .outcomes
        .iter()
        .filter(|o| matches!(o.reason, negotiate::Reason::NoValidVector { .. }));
    for o in failed.take(EXPLAINED) {
        let job = &jobs[o.job];
        let words = machines.iter().enumerate().find_map(|(i, m)| {
            (!taken.contains(&i)
                && classad::matchmaking::matching::symmetric_match(&mut ev, job, m).matched())
            .then(|| {
                let label = negotiate::machine_name(m, i);
                rules::not_preempted(p, job, m, &label, cfg.opts)
            })
            .flatten()
        });
        if let Some(w) = words {
            out.insert(o.job, w);
        }
    }
    out
}

/// The HTCondor policy from --config's negotiator knobs and --userprio.
fn htcondor_policy(a: &MatchCmd) -> Result<HTCondorPolicy, String> {
    let mut knobs = Knobs::default();
    for kv in &a.host.config {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--config {kv}: expected KEY=VALUE"))?;
        knobs
            .set(k.trim(), v)
            .map_err(|e| format!("--config {e}"))?;
    }
    let priorities = match &a.userprio {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
            PriorityTable::parse(&text).map_err(|e| format!("{f}:{e}"))?
        }
        None => PriorityTable::default(),
    };
    Ok(HTCondorPolicy { knobs, priorities })
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
    let policy = match a.policy {
        PolicyArg::Thesis => {
            if a.userprio.is_some() {
                return Err("--userprio needs --policy htcondor".into());
            }
            None
        }
        PolicyArg::Htcondor => Some(htcondor_policy(&a)?),
    };
    let mut cfg = NegotiationConfig::default();
    if let Some(p) = &policy {
        cfg.docking_vector = p.docking_vector()?;
        cfg.root_order = HTCondorPolicy::root_order();
    }
    // What the negotiator writes into the ads before matching.
    let (job_ads, machine_ads, original) = match &policy {
        Some(p) => {
            let (j, m) = p.prepare(&job_ads, &machine_ads);
            (j, m, Some((job_ads, machine_ads)))
        }
        None => (job_ads, machine_ads, None),
    };
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
    // `$$()` is filled from the ads as the user gave them.
    let (given_jobs, given_machines) = match &original {
        Some((j, m)) => (&j[..], &m[..]),
        None => (&job_ads[..], &machine_ads[..]),
    };
    let augmented = negotiate::augment(&result, given_jobs, given_machines, cfg.opts);
    let preemptions: Vec<Option<Preemption>> = result
        .outcomes
        .iter()
        .map(|o| {
            let (p, m) = (policy.as_ref()?, o.machine?);
            rules::placement(
                p,
                &job_ads[o.job],
                &machine_ads[m],
                o.machine_name.as_deref().unwrap_or("?"),
                o.vector.get(3).map_or("2", String::as_str),
                cfg.opts,
            )
        })
        .collect();
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
    let why_not = why_not_preempted(policy.as_ref(), &result, &job_ads, &machine_ads, &cfg);
    if a.json {
        let out = serde_json::json!({
            "cycle": result,
            "augmented": augmented,
            "policy": match a.policy { PolicyArg::Htcondor => "htcondor", PolicyArg::Thesis => "thesis" },
            "preemptions": preemptions,
            "not_preempted": why_not,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        for ((o, aug), placed) in result.outcomes.iter().zip(&augmented).zip(&preemptions) {
            let mut line = format!(
                "{} {} {}",
                o.job_id,
                o.machine_name.as_deref().unwrap_or("-"),
                o.reason.describe()
            );
            if !o.vector.is_empty() {
                line.push_str(&format!(" vector={{{}}}", o.vector.join(",")));
            }
            if let Some(w) = why_not.get(&o.job) {
                line.push_str(&format!(" (e.g. {w})"));
            }
            if let Some(p) = placed {
                line.push_str(&format!(" ({})", p.words()));
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
    std::mem::forget((job_ads, machine_ads, original, result));
    Ok(ExitCode::SUCCESS)
}
