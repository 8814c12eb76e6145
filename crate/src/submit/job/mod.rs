//! The job ad of one proc, built from its [`SubmitHash`] as
//! condor_submit's `SubmitHash::make_job_ad` builds it (HTCondor 24,
//! with 25's differences where `SubmitConfig::version` says 25).
//!
//! One file per group of condor_submit's `Set*` steps; `build_job` runs
//! them in `make_job_ad`'s order, since later steps read what earlier
//! ones put in the ad (Requirements reads nearly everything).

mod ad;
mod args_env;
mod creds;
mod evict;
mod extras;
mod grid;
mod keywords;
mod policy;
mod requirements;
mod resources;
mod transfer;
mod universe;
mod values;
mod vm;

#[cfg(test)]
mod suite_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests25;

use std::collections::BTreeMap;

use crate::lang::ast::{Expr, Value};
use crate::lang::diagnostic::Diagnostic;

use super::hash::SubmitHash;
use super::origin::Origin;
use ad::{default, derived, Job};

/// What condor_submit knows of the proc besides the submit file.
#[derive(Clone, Debug, Default)]
pub struct JobContext {
    pub cluster: i64,
    pub proc: i64,
    pub qdate: i64,
    /// The submitting user; `Owner` stays `undefined` (condor_submit sets
    /// it only under SUBMIT_SHOULD_SET_LOCAL_OWNER).
    pub owner: Option<String>,
    /// The absolute submit directory (condor_submit's working directory).
    pub iwd: String,
    /// The submit file as given, e.g. "x.sub" (`JobSubmitFile`).
    pub submit_file: String,
    /// The submitting environment, for `getenv` (empty: nothing to copy).
    pub env: Vec<(String, String)>,
    /// Whether a directory exists, for condor_submit's "No such directory"
    /// check of the initial directory (`None`: not checked).
    pub dir_exists: Option<fn(&str) -> bool>,
}

#[derive(Clone, Debug, Default)]
pub struct BuiltJob {
    /// Attributes in the order condor_submit inserts them (name, expression).
    pub attrs: Vec<(String, Expr)>,
    /// Attribute name -> where it came from.
    pub origins: BTreeMap<String, Origin>,
    /// Each clause condor_submit appended to Requirements, and why.
    pub clauses: Vec<(String, String)>,
    /// condor_submit's warnings, in its words.
    pub warnings: Vec<Diagnostic>,
    /// What makes condor_submit refuse the file.
    pub errors: Vec<Diagnostic>,
}

impl BuiltJob {
    /// The job ad.
    pub fn ad(&self) -> crate::lang::ast::ClassAd {
        let mut ad = crate::lang::ast::ClassAd::new();
        for (name, expr) in &self.attrs {
            ad.insert(name, expr.clone());
        }
        ad
    }

    /// An attribute's expression (names compare without regard to case).
    pub fn get(&self, name: &str) -> Option<&Expr> {
        self.attrs
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, e)| e)
    }
}

/// Build the job ad of one proc.
pub fn build_job(hash: &dyn SubmitHash, ctx: &JobContext) -> BuiltJob {
    let mut job = Job::new(hash, ctx);
    init_base_ad(&mut job);
    job.set_universe();
    job.set_iwd();
    job.set_executable();
    job.set_arguments();
    job.set_grid_params();
    job.set_vm_params();
    job.set_java_vm_args();
    job.set_parallel_params();
    job.set_environment();
    job.set_job_status();
    job.set_std_file(0);
    job.set_std_file(1);
    job.set_std_file(2);
    job.set_gsi_credentials();
    job.set_notification();
    job.set_rank();
    job.set_periodic_expressions();
    job.set_leave_in_queue();
    job.set_job_retries();
    job.set_on_evict_expressions();
    job.set_kill_sig();
    job.set_container_special();
    job.set_request_resources();
    job.set_concurrency_limits();
    job.set_accounting_group();
    job.set_oauth();
    job.set_simple_job_exprs();
    job.set_job_deferral();
    job.set_image_size();
    job.set_transfer_files();
    job.set_auto_attributes();
    job.report_common_mistakes();
    job.set_forced_submit_attrs();
    job.set_forced_attributes();
    job.set_resource_requirements();
    job.set_requirements();
    BuiltJob {
        attrs: job.attrs,
        origins: job.origins,
        clauses: job.clauses,
        warnings: job.warnings,
        errors: job.errors,
    }
}

/// `init_base_ad`: the ad's types, dates and zeroed counters, then the
/// configuration's SUBMIT_ATTRS.
fn init_base_ad(job: &mut Job) {
    let base = || default("every job starts with it");
    job.assign_str("MyType", "Job", base());
    job.assign_str("TargetType", "Machine", base());
    job.assign_int("ClusterId", job.ctx.cluster, derived("the cluster number"));
    job.assign_int("QDate", job.ctx.qdate, derived("the submit time"));
    job.assign_int("JobSubmitMethod", 0, default("condor_submit"));
    let set_owner = job.config_bool("SUBMIT_SHOULD_SET_LOCAL_OWNER", false);
    match job.ctx.owner.clone().filter(|o| set_owner && !o.is_empty()) {
        Some(o) => job.assign_str("Owner", &o, config_origin("SUBMIT_SHOULD_SET_LOCAL_OWNER")),
        None => job.assign_val(
            "Owner",
            Value::Undefined,
            default("condor_submit leaves Owner to the schedd"),
        ),
    }
    for attr in [
        "RemoteWallClockTime",
        "RemoteUserCpu",
        "RemoteSysCpu",
        "CumulativeRemoteUserCpu",
        "CumulativeRemoteSysCpu",
    ] {
        job.assign_val(attr, Value::Real(0.0), base());
    }
    for attr in [
        "ExitStatus",
        "NumCkpts",
        "NumJobStarts",
        "NumJobCompletions",
        "NumRestarts",
        "NumSystemHolds",
        "CommittedTime",
        "CommittedSlotTime",
        "CumulativeSlotTime",
        "TotalSuspensions",
        "LastSuspensionTime",
        "CumulativeSuspensionTime",
        "CommittedSuspensionTime",
    ] {
        job.assign_int(attr, 0, base());
    }
    job.assign_bool("ExitBySignal", false, base());
    job.set_submit_attrs_base();
}

fn config_origin(key: &str) -> Origin {
    ad::config(key)
}
