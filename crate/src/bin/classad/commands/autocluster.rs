//! `classad autocluster`: the significant attributes of the machines and
//! the auto-clusters of the jobs.

use std::process::ExitCode;

use clap::Args;
use classad::matchmaking::autocluster::{
    cluster, signatures, significant_attributes, spell_as_written, AutoclusterConfig,
};
use classad::matchmaking::negotiate::{job_id, NegotiationConfig};
use classad::ClassAd;

use crate::input::read_ads;

#[derive(Args)]
pub struct AutoclusterCmd {
    #[arg(long)]
    jobs: String,
    #[arg(long)]
    machines: String,
    #[arg(long)]
    json: bool,
    /// The syntax: htcondor (exactly libclassad), seed (the papers' notation) or auto.
    #[arg(long, value_enum, default_value = "htcondor")]
    dialect: crate::options::DialectArg,
}

/// Members listed per cluster in the text output.
const MEMBERS_SHOWN: usize = 8;

pub fn run(a: AutoclusterCmd) -> Result<ExitCode, String> {
    let (job_ads, _) = read_ads(&a.jobs, a.dialect.dialect())?;
    let (machine_ads, _) = read_ads(&a.machines, a.dialect.dialect())?;
    let cfg = NegotiationConfig::default();
    let mref: Vec<&ClassAd> = machine_ads.iter().map(|m| &**m).collect();
    let sig = significant_attributes(&mref, &cfg.docking_vector);
    let jref: Vec<&ClassAd> = job_ads.iter().map(|j| &**j).collect();
    let mut c = cluster(&jref, &sig, &AutoclusterConfig::default());
    // Names as the ads write them, each cluster's signature with its values.
    let mut values = signatures(&c, &jref);
    spell_as_written(&mut c, &mut values, &mref, &jref, &cfg.docking_vector);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&c).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    println!("significant attributes: {}", c.significant.join(" "));
    for (id, size) in c.sizes.iter().enumerate() {
        let members: Vec<String> = c
            .cluster_of
            .iter()
            .enumerate()
            .filter(|(_, k)| **k as usize == id)
            .take(MEMBERS_SHOWN)
            .map(|(j, _)| job_id(&job_ads[j], j))
            .collect();
        let more = if *size as usize > members.len() {
            " …"
        } else {
            ""
        };
        let signature: Vec<String> = values[id]
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        println!(
            "cluster {id}: {size} jobs: {}{more}; signature: {}",
            members.join(" "),
            signature.join("; ")
        );
    }
    let n = job_ads.len().max(1);
    println!(
        "{} jobs in {} clusters: the negotiator considers {:.1}x fewer requests",
        job_ads.len(),
        c.clusters(),
        n as f64 / c.clusters().max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}
