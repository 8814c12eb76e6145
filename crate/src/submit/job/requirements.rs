//! `SetRequirements`: the user's requirements in parentheses, then the
//! clauses condor_submit appends, each unless the user's expression
//! already refers to that machine attribute; every clause is recorded
//! with why it was added.

use std::sync::Arc;

use super::ad::*;
use super::transfer::{should_from, Should};
use crate::lang::ast::{ClassAd, Expr, ExprKind, Special, Value};
use crate::lang::lexer::Dialect;
use crate::lang::parser::parse_expr_in;
use crate::submit::config::HtcVersion;

/// Job attributes condor_submit's reference check treats as the job's own
/// (everything else unqualified is the machine's).
const JOB_NAMES: &[&str] = &["RequestMemory", "VM_CkptMac", "Requirements"];

/// (job references, machine references) of an expression, as
/// `GetExprReferences` finds them against a dummy job ad.
pub fn references(e: &Expr) -> (Vec<String>, Vec<String>) {
    let mut job = vec![];
    let mut machine = vec![];
    walk(e, &mut job, &mut machine);
    (job, machine)
}

fn walk(e: &Expr, job: &mut Vec<String>, machine: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Attr { name, absolute } => {
            if *absolute || JOB_NAMES.iter().any(|n| n.eq_ignore_ascii_case(&name.text)) {
                job.push(name.text.to_string());
            } else if !matches!(name.special, Special::My | Special::Other | Special::SelfAd) {
                machine.push(name.text.to_string());
            }
        }
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr {
                name: b,
                absolute: false,
            } if b.special == Special::Other => machine.push(name.text.to_string()),
            ExprKind::Attr {
                name: b,
                absolute: false,
            } if matches!(b.special, Special::My | Special::SelfAd) => {
                job.push(name.text.to_string())
            }
            _ => walk(base, job, machine),
        },
        ExprKind::Record(_) => {}
        _ => {
            for c in e.children() {
                walk(c, job, machine);
            }
        }
    }
}

fn has(refs: &[String], name: &str) -> bool {
    refs.iter().any(|r| r.eq_ignore_ascii_case(name))
}

/// A literal number (`ExprTreeIsLiteralNumber`).
fn literal_number(e: &Expr) -> Option<f64> {
    match super::values::fold_const(e)? {
        Value::Int(i) => Some(i as f64),
        Value::Real(r) => Some(r),
        Value::Bool(b) => Some(b as i64 as f64),
        _ => None,
    }
}

impl Job<'_> {
    /// Append a clause to the answer, recording it.
    fn clause(&mut self, answer: &mut String, joiner: &str, text: &str, why: &str) {
        answer.push_str(joiner);
        answer.push_str(text);
        self.clauses.push((text.to_string(), why.to_string()));
    }

    /// The job ad so far, for evaluating a request's value.
    fn eval_attr(&self, attr: &str) -> Value {
        let mut ad = ClassAd::new();
        for (n, e) in &self.attrs {
            ad.insert(n, e.clone());
        }
        let mut ev = crate::lang::eval::Evaluator::new(crate::lang::eval::EvalOptions::in_mode(
            crate::lang::mode::Mode::HTCondor,
        ));
        ev.set_ads(Some(Arc::new(ad)), None);
        ev.eval_attr(attr)
    }

    pub fn set_requirements(&mut self) {
        if self.aborted {
            return;
        }
        let orig = self.param("requirements");
        let mut answer = match &orig {
            Some(p) => format!("({})", p.value),
            None => String::new(),
        };
        // MY.Requirements / +Requirements wins over everything.
        let forced = self.hash.keys().into_iter().any(|(k, _)| {
            k.eq_ignore_ascii_case("MY.Requirements") || k.eq_ignore_ascii_case("+Requirements")
        });
        if forced
            && (self.param("MY.Requirements").is_some() || self.param("+Requirements").is_some())
        {
            if orig.is_some() {
                self.warn_at(
                    "Use of MY.Requirements or +Requirements  overrides requirements. You should remove one of these statements from your submit file.",
                    orig.as_ref(),
                );
            }
            return;
        }
        let mut append = None;
        if self.universe == U_VANILLA {
            append = self
                .config("APPEND_REQ_VANILLA")
                .map(|v| (v, "APPEND_REQ_VANILLA"));
        } else if self.universe == U_VM {
            append = self.config("APPEND_REQ_VM").map(|v| (v, "APPEND_REQ_VM"));
        }
        if append.is_none() {
            append = self
                .config("APPEND_REQUIREMENTS")
                .map(|v| (v, "APPEND_REQUIREMENTS"));
        }
        if let Some((v, key)) = append {
            let j = if answer.is_empty() { "" } else { " && " };
            self.clause(
                &mut answer,
                j,
                &format!("({v})"),
                &format!("added because the configuration sets {key}"),
            );
        }

        let generate_c = self.config_bool("SUBMIT_GENERATE_CONDOR_C_REQUIREMENTS", true);
        if self.universe == U_GRID
            && (!self.grid_type.eq_ignore_ascii_case("condor") || !generate_c)
        {
            if answer.is_empty() {
                answer = "TRUE".into();
            }
            let o = orig
                .as_ref()
                .map(from)
                .unwrap_or_else(|| default("grid jobs get no default requirements"));
            self.assign_expr("Requirements", &answer, o);
            return;
        }

        let (job_refs, machine_refs) = if answer.is_empty() {
            (vec![], vec![])
        } else {
            match parse_expr_in(&answer, Dialect::Modern) {
                Ok(e) => references(&e),
                Err(_) => {
                    let msg =
                        format!("Could not get attribute references from Requirements: {answer}");
                    self.warn_at(&msg, orig.as_ref());
                    (vec![], vec![])
                }
            }
        };
        if has(&job_refs, "Requirements") || has(&machine_refs, "Requirements") {
            let msg = format!(
                "Requirements = {answer}\nIs Circular. Did you intend to use $(Requirements) ?"
            );
            return self.error_at(&msg, orig.as_ref());
        }
        let m = |n: &str| has(&machine_refs, n);
        let checks_arch = m("Arch");
        let checks_opsys = self.is_container
            || self.is_docker
            || [
                "OpSys",
                "OpSysAndVer",
                "OpSysLongName",
                "OpSysShortName",
                "OpSysName",
                "OpSysLegacy",
            ]
            .iter()
            .any(|n| m(n));
        let checks_disk = m("Disk");
        let checks_cpus = m("Cpus");
        let checks_tdp = m("HasTDP");
        let checks_encrypt = m("HasEncryptExecuteDirectory");
        let might_transfer = matches!(
            self.universe,
            U_VANILLA | U_MPI | U_PARALLEL | U_JAVA | U_VM
        );
        let mut checks_fsdomain = might_transfer && m("FileSystemDomain");
        let checks_file_transfer =
            might_transfer && (m("HasFileTransfer") || m("HasJobTransferPlugins"));
        let checks_plugin_methods = might_transfer && m("HasFileTransferPluginMethods");
        let checks_per_file_encryption = might_transfer && m("HasPerFileEncryption");
        let checks_hsct = m("HasSelfCheckpointTransfers");
        let checks_mem = m("Memory");
        let arch = self.config("ARCH").unwrap_or_else(|| "X86_64".into());
        let opsys = self.config("OPSYS").unwrap_or_else(|| "LINUX".into());
        let arch_clause = format!("(TARGET.Arch == \"{arch}\")");
        let arch_why =
            "added because the requirements do not mention Arch (the submit machine's ARCH)";

        if self.universe == U_JAVA {
            let j = if answer.is_empty() { "" } else { " && " };
            self.clause(
                &mut answer,
                j,
                "TARGET.HasJava",
                "added for the java universe",
            );
        } else if self.universe == U_VM {
            if !checks_arch {
                let j = if answer.is_empty() { "" } else { " && " };
                self.clause(&mut answer, j, &arch_clause, arch_why);
            }
            if !m("HasVM") {
                self.clause(
                    &mut answer,
                    "&& ",
                    "(TARGET.HasVM =?= true)",
                    "added for the vm universe",
                );
            }
            if !m("VM_Type") {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.VM_Type == MY.JobVMType)",
                    "added for the vm universe",
                );
            }
            if !m("VM_AvailNum") {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.VM_AvailNum > 0)",
                    "added for the vm universe",
                );
            }
        } else if self.is_docker {
            if !checks_arch {
                let j = if answer.is_empty() { "" } else { " && " };
                self.clause(&mut answer, j, &arch_clause, arch_why);
            }
            let j = if answer.is_empty() { "" } else { " && " };
            self.clause(&mut answer, j, "TARGET.HasDocker", "added for a docker job");
            if let Some(net) = self.lookup_str("DockerNetworkType") {
                if !["host", "none", "nat"].contains(&net.as_str()) {
                    self.clause(
                        &mut answer,
                        "&& ",
                        "StringListMember(My.DockerNetworkType, TARGET.DockerNetworks)",
                        "added because docker_network_type names a custom network",
                    );
                }
            }
        } else if self.is_container {
            if !checks_arch {
                let j = if answer.is_empty() { "" } else { " && " };
                self.clause(&mut answer, j, &arch_clause, arch_why);
            }
            let j = if answer.is_empty() { "" } else { " && " };
            self.clause(
                &mut answer,
                j,
                "TARGET.HasContainer",
                "added for a container job",
            );
            let image_clause = if self.has("DockerImage") {
                Some("TARGET.HasDockerURL")
            } else if let Some(img) = self.lookup_str("ContainerImage") {
                let t = img.trim();
                Some(if t.starts_with("docker:") {
                    "TARGET.HasDockerURL"
                } else if t.ends_with(".sif") {
                    "TARGET.HasSIF"
                } else {
                    "TARGET.HasSandboxImage"
                })
            } else {
                None
            };
            if let Some(c) = image_clause {
                self.clause(
                    &mut answer,
                    "&& ",
                    c,
                    "added for the kind of container image",
                );
            }
        } else {
            if !checks_arch {
                let j = if answer.is_empty() { "" } else { " && " };
                self.clause(&mut answer, j, &arch_clause, arch_why);
            }
            if !checks_opsys {
                self.clause(
                    &mut answer,
                    " && ",
                    &format!("(TARGET.OpSys == \"{opsys}\")"),
                    "added because the requirements do not mention OpSys (the submit machine's OPSYS)",
                );
            }
        }

        let v25 = self.cfg().version == HtcVersion::V25;
        if !checks_disk {
            if let Some(e) = self.lookup("RequestDisk").cloned() {
                if literal_number(&e).is_none_or(|d| d > 0.0) {
                    let why = "added because the job requests disk (RequestDisk)";
                    if self.universe == U_VANILLA && v25 {
                        self.clause(
                            &mut answer,
                            " && ",
                            "(versionGE(split(TARGET.CondorVersion)[1], \"25.12.0\") || (TARGET.Disk >= RequestDisk))",
                            why,
                        );
                    } else {
                        self.clause(&mut answer, " && ", "(TARGET.Disk >= RequestDisk)", why);
                    }
                }
            } else if self.universe == U_VM {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.TotalDisk >= DiskUsage)",
                    "added for the vm universe's disk",
                );
            } else {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.Disk >= DiskUsage)",
                    "added because RequestDisk is undefined",
                );
            }
        } else if self.universe != U_VM {
            if self.has("RequestDisk") {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.Disk >= RequestDisk)",
                    "added because the job requests disk, although the requirements mention Disk",
                );
            }
            if self.config_bool("ENABLE_DEPRECATION_WARNINGS", true) {
                self.warn_at(
                    "Your Requirements expression refers to TARGET.Disk. This is obsolete. Set request_disk and condor_submit will modify the Requirements expression as needed.",
                    orig.as_ref(),
                );
            }
        }

        if self.universe == U_VM {
            let vmtype = self.lookup_str("JobVMType").unwrap_or_default();
            if !vmtype.eq_ignore_ascii_case("xen") {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.TotalMemory >= MY.JobVMMemory)",
                    "added for the vm's memory",
                );
            }
            if !m("VM_Memory") {
                self.clause(
                    &mut answer,
                    " && ",
                    "(TARGET.VM_Memory >= MY.JobVMMemory)",
                    "added for the vm's memory",
                );
            }
            if self.lookup_bool("JobVMHardwareVT") == Some(true) && !m("VM_HardwareVT") {
                let why = "added because the vm needs hardware virtualization (xen_kernel = vmx)";
                self.clause(&mut answer, " && ", "TARGET.VM_HardwareVT", why);
            }
            if self.lookup_bool("JobVMNetworking") == Some(true) {
                if !m("VM_Networking") {
                    let why = "added because the vm wants networking (vm_networking)";
                    self.clause(&mut answer, " && ", "TARGET.VM_Networking", why);
                }
                if self.has("JobVMNetworkingType") {
                    let why = "added for the vm's networking type (vm_networking_type)";
                    let c =
                        "stringListIMember(JobVMNetworkingType,TARGET.VM_Networking_Types,\",\")";
                    self.clause(&mut answer, " && ", c, why);
                }
            }
        } else {
            if let Some(e) = self.lookup("RequestMemory").cloned() {
                if literal_number(&e).is_none_or(|v| v > 1.0) {
                    // Always added, even when the requirements mention Memory.
                    self.clause(
                        &mut answer,
                        " && ",
                        "(TARGET.Memory >= RequestMemory)",
                        "added because the job requests memory (RequestMemory)",
                    );
                }
            }
            if checks_mem && self.config_bool("ENABLE_DEPRECATION_WARNINGS", true) {
                self.warn_at(
                    "your Requirements expression refers to TARGET.Memory. This is obsolete. Set request_memory and condor_submit will modify the Requirements expression as needed.",
                    orig.as_ref(),
                );
            }
        }

        if self.universe != U_GRID && !checks_cpus {
            if let Some(e) = self.lookup("RequestCpus").cloned() {
                if literal_number(&e).is_none_or(|v| v > 1.0) {
                    self.clause(
                        &mut answer,
                        " && ",
                        "(TARGET.Cpus >= RequestCpus)",
                        "added because the job requests more than one cpu (RequestCpus)",
                    );
                }
            }
        }

        self.custom_resource_clauses(&mut answer, &machine_refs);

        if !checks_tdp && self.has("ToolDaemonCmd") {
            self.clause(
                &mut answer,
                " && ",
                "TARGET.HasTDP",
                "added because tool_daemon_cmd is set",
            );
        }
        if !checks_encrypt && self.lookup_bool("EncryptExecuteDirectory") == Some(true) {
            self.clause(
                &mut answer,
                " && ",
                "TARGET.HasEncryptExecuteDirectory",
                "added because encrypt_execute_directory is true",
            );
        }

        if might_transfer {
            self.transfer_clauses(
                &mut answer,
                &mut checks_fsdomain,
                checks_file_transfer,
                checks_plugin_methods,
                checks_per_file_encryption,
            );
            if self.aborted {
                return;
            }
        }

        if self.needs_deferral().is_some() {
            if self.universe != U_LOCAL {
                self.clause(
                    &mut answer,
                    " && ",
                    "TARGET.HasJobDeferral",
                    "added because the job is deferred",
                );
            }
            if !self.has("ScheddInterval") {
                match self.config("SCHEDD_INTERVAL") {
                    Some(v) => {
                        self.assign_expr("ScheddInterval", &v, config("SCHEDD_INTERVAL"));
                    }
                    None => {
                        self.assign_int("ScheddInterval", 300, default("SCHEDD_INTERVAL is 300"))
                    }
                }
            }
            self.clause(
                &mut answer,
                " && ",
                "(((time() + ScheddInterval) >= (DeferralTime - DeferralPrepTime)) && (time() < (DeferralTime + DeferralWindow)))",
                "added because the job is deferred (deferral_time or cron_*)",
            );
        }

        if self.lookup_bool("WantFTOnCheckpoint") == Some(true) && !checks_hsct {
            self.clause(
                &mut answer,
                " && ",
                "TARGET.HasSelfCheckpointTransfers",
                "added because checkpoint_exit_code is set",
            );
        }

        if let Some(cuda) = self.lookup_str("CUDAVersion") {
            match cuda_version(&cuda) {
                Some(v) => {
                    self.assign_int(
                        "CUDAVersion",
                        v,
                        derived("cuda_version as major*1000 + minor"),
                    );
                    self.clause(
                        &mut answer,
                        "&& ",
                        "CUDAVersion <= TARGET.CUDAMaxSupportedVersion",
                        "added because cuda_version is set",
                    );
                }
                None => {
                    let p = self.param("cuda_version");
                    return self.error_at(
                        "cuda_version must be of the form 'x' or 'x.y', where x and y are positive integers.",
                        p.as_ref(),
                    );
                }
            }
        }

        if v25 && self.lookup_bool("OCUWanted") == Some(true) {
            self.clause(
                &mut answer,
                " && ",
                "TARGET.OCU =?= true",
                "added because OCUWanted is true",
            );
        }

        let o = match &orig {
            Some(p) => from(p),
            None => derived("condor_submit's default requirements"),
        };
        self.assign_expr("Requirements", &answer, o);
    }

    /// A clause per custom `Request<Tag>` (GPUs included), unless the
    /// requirements mention the tag or the request is not positive.
    fn custom_resource_clauses(&mut self, answer: &mut String, machine_refs: &[String]) {
        let mut tags: Vec<String> = self
            .attrs
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| {
                n.len() >= 9 && n[..7].eq_ignore_ascii_case("Request") && n.as_bytes()[7] != b'_'
            })
            .filter(|n| {
                !["RequestCpus", "RequestDisk", "RequestMemory"]
                    .iter()
                    .any(|b| b.eq_ignore_ascii_case(n))
            })
            .collect();
        if !self.config_bool("SUBMIT_GENERATE_CUSTOM_RESOURCE_REQUIREMENTS", true) {
            tags.retain(|t| t.eq_ignore_ascii_case("RequestGPUs"));
        }
        // A References set is sorted without regard to case.
        tags.sort_by_key(|t| t.to_ascii_lowercase());
        for attr in tags {
            let tag = attr[7..].to_string();
            if has(machine_refs, &tag) {
                continue;
            }
            let why = format!("added because the job requests {tag} ({attr})");
            match self.eval_attr(&attr) {
                v @ (Value::Int(_) | Value::Real(_) | Value::Undefined) => {
                    let positive = v.as_number().is_none_or(|n| n > 0.0);
                    if positive {
                        let require = format!("Require{tag}");
                        if self.has(&require) {
                            let c = format!(
                                "(countMatches(MY.{require},TARGET.Available{tag}) >= {attr})"
                            );
                            self.clause(answer, " && ", &c, &format!("{why} with {require}"));
                        } else {
                            self.clause(answer, " && ", &format!("(TARGET.{tag} >= {attr})"), &why);
                        }
                    }
                }
                Value::Str(s) if !s.is_empty() => {
                    self.clause(
                        answer,
                        " && ",
                        &format!("regexp({attr}, TARGET.{tag})"),
                        &why,
                    );
                }
                _ => {}
            }
        }
    }

    /// The file-transfer group: same file system or file transfer, plus
    /// the version and URL plugin checks.
    fn transfer_clauses(
        &mut self,
        answer: &mut String,
        checks_fsdomain: &mut bool,
        checks_file_transfer: bool,
        checks_plugin_methods: bool,
        checks_per_file_encryption: bool,
    ) {
        let domain_check = "(TARGET.FileSystemDomain == MY.FileSystemDomain)";
        let mut xfer_check = "TARGET.HasFileTransfer";
        let crypt = !checks_per_file_encryption
            && [
                "EncryptInputFiles",
                "EncryptOutputFiles",
                "DontEncryptInputFiles",
                "DontEncryptOutputFiles",
            ]
            .iter()
            .any(|a| self.has(a));
        let should = self
            .lookup_str("ShouldTransferFiles")
            .and_then(|s| should_from(&s))
            .unwrap_or(Should::IfNeeded);
        if should == Should::No {
            if !*checks_fsdomain {
                self.clause(
                    answer,
                    " && ",
                    domain_check,
                    "added because should_transfer_files = NO needs a shared file system",
                );
                *checks_fsdomain = true;
            }
            return;
        }
        if checks_file_transfer {
            return;
        }
        let mut group = String::new();
        let (mut join, mut close) = (" && (", ")");
        if should == Should::IfNeeded && !*checks_fsdomain {
            group.push_str(join);
            group.push_str(domain_check);
            *checks_fsdomain = true;
            join = " || (";
            close = "))";
        }
        let plugins = self.lookup_str("TransferPlugins").unwrap_or_default();
        if !plugins.is_empty() {
            xfer_check = "TARGET.HasJobTransferPlugins";
        }
        group.push_str(join);
        group.push_str(xfer_check);
        if crypt {
            group.push_str(" && TARGET.HasPerFileEncryption");
        }
        let version_check = self.has("TransferCheckpoint")
            || self.lookup_bool("PreserveRelativePaths") == Some(true)
            || self
                .lookup_str("WhenToTransferOutput")
                .is_some_and(|w| w.eq_ignore_ascii_case("ON_SUCCESS"));
        if version_check {
            group.push_str(" && versioncmp( split(TARGET.CondorVersion)[1], \"8.9.7\" ) >= 0");
        }
        if self.cfg().version == HtcVersion::V25
            && self.lookup_bool("RequireCommonFilesTransfer") == Some(true)
        {
            group.push_str(" && TARGET.HasCommonFilesTransfer >= 2");
        }
        // URL schemes the job uses but does not bring a plugin for.
        let mut job_methods: Vec<String> = vec![];
        for plug in plugins.split(';') {
            if let Some((methods, _)) = plug.split_once('=') {
                job_methods.extend(super::values::split_list(methods, ", \t"));
            }
        }
        let mut methods: Vec<String> = vec![];
        let add_method = |url: &str, methods: &mut Vec<String>| {
            if super::values::is_url(url) {
                let t = super::values::url_type(url);
                if !job_methods.iter().any(|m| m.eq_ignore_ascii_case(&t))
                    && !methods.iter().any(|m| m.eq_ignore_ascii_case(&t))
                {
                    methods.push(t);
                }
            }
        };
        if let Some(list) = self.lookup_str("TransferInput") {
            for f in super::values::split_list(&list, ",") {
                add_method(&f, &mut methods);
            }
        }
        if let Some(dest) = self.lookup_str("OutputDestination") {
            if super::values::is_url(&dest) {
                add_method(&dest, &mut methods);
            } else {
                let p = self.param("output_destination");
                self.warn_at(
                    "output_destination must be a URL, did you mean output_directory ?",
                    p.as_ref(),
                );
            }
        }
        if let Some(remaps) = self.lookup_str("TransferOutputRemaps") {
            for r in remaps.split(';') {
                if let Some((_, url)) = r.split_once('=') {
                    add_method(url.trim(), &mut methods);
                }
            }
        }
        methods.sort_by_key(|m| m.to_ascii_lowercase());
        let presign = self.config_bool("SIGN_S3_URLS", true);
        for method in &methods {
            if !checks_plugin_methods {
                group.push_str(&format!(
                    " && stringListIMember(\"{method}\",TARGET.HasFileTransferPluginMethods)"
                ));
                if presign
                    && (method.eq_ignore_ascii_case("s3") || method.eq_ignore_ascii_case("gs"))
                {
                    if !self.has("EC2AccessKeyId") {
                        self.error_at(
                            "[s3|gs]:// URLs require [s3|aws|gs]_access_key_id_file to be set.",
                            None,
                        );
                    }
                    if !self.has("EC2SecretAccessKey") {
                        self.error_at(
                            "[s3|gs]:// URLS require [s3|aws|gs]_secret_access_key_file to be set.",
                            None,
                        );
                    }
                }
            }
        }
        if !methods.is_empty() {
            self.assign_str(
                "WantTransferPluginMethods",
                &methods.join(","),
                derived("the URLs the job transfers"),
            );
        }
        group.push_str(close);
        let text = group.trim_start_matches(" && ").to_string();
        let why = if should == Should::IfNeeded {
            "added because files may be transferred (should_transfer_files = IF_NEEDED): a shared file system or file transfer"
        } else {
            "added because files are transferred (should_transfer_files = YES)"
        };
        answer.push_str(" && ");
        answer.push_str(&text);
        self.clauses.push((text, why.to_string()));
    }
}

/// `cuda_version`: `x.y` is x*1000 + y%100; `x` under 1000 is x*1000.
fn cuda_version(s: &str) -> Option<i64> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match s.split_once('.') {
        Some((a, b)) if digits(a) && digits(b) => {
            Some(a.parse::<i64>().ok()? * 1000 + b.parse::<i64>().ok()? % 100)
        }
        None if digits(s) => {
            let v: i64 = s.parse().ok()?;
            Some(if v < 1000 { v * 1000 } else { v })
        }
        _ => None,
    }
}
