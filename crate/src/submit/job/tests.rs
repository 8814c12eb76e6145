//! The job builder against condor_submit's own ads.

use super::*;
use crate::lang::unparse::unparse;
use crate::submit::config::{HtcVersion, SubmitConfig};
use crate::submit::hash::PlainHash;

fn cfg() -> SubmitConfig {
    let mut c = SubmitConfig::default();
    c.set("ARCH", "X86_64");
    c.set("OPSYS", "LINUX");
    c.set("FILESYSTEM_DOMAIN", "submit.example.org");
    c.set("UID_DOMAIN", "submit.example.org");
    c.version = HtcVersion::V24;
    c
}

fn ctx(name: &str) -> JobContext {
    JobContext {
        cluster: 1,
        proc: 0,
        qdate: 1700000000,
        owner: None,
        iwd: "/tmp/case".into(),
        submit_file: name.into(),
        env: vec![],
        dir_exists: None,
    }
}

fn build(text: &str) -> BuiltJob {
    let mut h = PlainHash::from_lines(text);
    h.config = cfg();
    build_job(&h, &ctx("x.sub"))
}

fn attr(j: &BuiltJob, name: &str) -> String {
    j.get(name)
        .map(unparse)
        .unwrap_or_else(|| "<absent>".into())
}

#[test]
fn example_ad() {
    let j = build(
        "universe = vanilla\nexecutable = x_sleep.pl\narguments = 15\nlog = x.log\noutput = x.out\nerror = x.err\nNotification = NEVER\nrequirements = Memory >= 3000000 && FALSE\narguments = 3600",
    );
    assert!(j.errors.is_empty(), "{:?}", j.errors);
    assert_eq!(attr(&j, "Cmd"), "\"/tmp/case/x_sleep.pl\"");
    assert_eq!(attr(&j, "Args"), "\"3600\"");
    assert_eq!(
        attr(&j, "Requirements"),
        "(Memory >= 3000000 && false) && (TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && ((TARGET.FileSystemDomain == MY.FileSystemDomain) || (TARGET.HasFileTransfer))"
    );
    assert_eq!(
        attr(&j, "RequestMemory"),
        "ifthenelse(MemoryUsage isnt undefined,MemoryUsage,(ImageSize + 1023) / 1024)"
    );
    assert_eq!(j.warnings.len(), 1);
}

fn build_v(text: &str, v: HtcVersion) -> BuiltJob {
    let mut h = PlainHash::from_lines(text);
    h.config = cfg();
    h.config.version = v;
    build_job(&h, &ctx("x.sub"))
}

#[test]
fn request_units_round_up_in_binary_units() {
    let j = build(
        "executable = /bin/sleep\nrequest_memory = 2GB\nrequest_disk = 1.5M\nrequest_cpus = 4",
    );
    assert_eq!(attr(&j, "RequestMemory"), "2048");
    assert_eq!(attr(&j, "RequestDisk"), "1536");
    assert_eq!(attr(&j, "RequestCpus"), "4");
    assert!(attr(&j, "Requirements").contains("(TARGET.Cpus >= RequestCpus)"));
    // Bare numbers: MiB for memory, KiB for disk; 1.5 KiB of memory rounds up to 1 MiB.
    let j = build("executable = /bin/sleep\nrequest_memory = 100\nrequest_disk = 100");
    assert_eq!(attr(&j, "RequestMemory"), "100");
    assert_eq!(attr(&j, "RequestDisk"), "100");
    let j = build("executable = /bin/sleep\nrequest_memory = 1536K");
    assert_eq!(attr(&j, "RequestMemory"), "2");
    // An expression stays one; undefined means no request (and no clause).
    let j = build(
        "executable = /bin/sleep\nrequest_memory = MemoryUsage * 2\nrequest_disk = undefined",
    );
    assert_eq!(attr(&j, "RequestMemory"), "MemoryUsage * 2");
    assert_eq!(attr(&j, "RequestDisk"), "<absent>");
    assert!(attr(&j, "Requirements").contains("(TARGET.Disk >= DiskUsage)"));
}

#[test]
fn defaults_of_a_bare_job() {
    let j = build("executable = /bin/sleep");
    assert_eq!(attr(&j, "RequestCpus"), "1");
    assert_eq!(attr(&j, "RequestDisk"), "DiskUsage");
    assert_eq!(attr(&j, "Rank"), "0.0");
    assert_eq!(attr(&j, "In"), "\"/dev/null\"");
    assert_eq!(attr(&j, "Arguments"), "\"\"");
    assert_eq!(attr(&j, "Environment"), "\"\"");
    assert_eq!(attr(&j, "JobLeaseDuration"), "2400");
    assert_eq!(attr(&j, "Owner"), "undefined");
    assert_eq!(attr(&j, "JobStatus"), "1");
    // Every appended clause says why.
    assert_eq!(j.clauses.len(), 5);
    assert!(j
        .clauses
        .iter()
        .all(|(_, why)| why.starts_with("added because")));
}

#[test]
fn user_requirements_suppress_their_clauses() {
    let j = build("executable = /bin/sleep\nrequirements = TARGET.OpSys == \"WINDOWS\" && Arch == \"INTEL\" && Disk > 5 && Memory > 5 && Cpus > 1");
    assert_eq!(
        attr(&j, "Requirements"),
        "(TARGET.OpSys == \"WINDOWS\" && Arch == \"INTEL\" && Disk > 5 && Memory > 5 && Cpus > 1) && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && ((TARGET.FileSystemDomain == MY.FileSystemDomain) || (TARGET.HasFileTransfer))"
    );
    // OpSysMajorVer does not count as mentioning OpSys.
    let j = build("executable = /bin/sleep\nrequirements = OpSysMajorVer == 9");
    assert!(attr(&j, "Requirements").contains("(TARGET.OpSys == \"LINUX\")"));
}

#[test]
fn transfer_and_custom_resource_clauses() {
    let j = build("executable = /bin/sleep\nshould_transfer_files = YES\nrequest_foo = 2\ntransfer_input_files = http://x/y, a.txt");
    assert_eq!(
        attr(&j, "Requirements"),
        "(TARGET.Arch == \"X86_64\") && (TARGET.OpSys == \"LINUX\") && (TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory) && (TARGET.foo >= Requestfoo) && (TARGET.HasFileTransfer && stringListIMember(\"http\",TARGET.HasFileTransferPluginMethods))"
    );
    assert_eq!(attr(&j, "TransferInput"), "\"http://x/y,a.txt\"");
    assert_eq!(attr(&j, "WantTransferPluginMethods"), "\"http\"");
    assert_eq!(attr(&j, "FileSystemDomain"), "<absent>");
    let j = build("executable = /bin/sleep\nshould_transfer_files = NO");
    assert!(
        attr(&j, "Requirements").ends_with("&& (TARGET.FileSystemDomain == MY.FileSystemDomain)")
    );
    assert_eq!(attr(&j, "WhenToTransferOutput"), "<absent>");
}

#[test]
fn version_25_disk_clause() {
    let j = build_v(
        "executable = /bin/sleep\nrequest_disk = 1G",
        HtcVersion::V25,
    );
    assert!(attr(&j, "Requirements").contains(
        "(versionGE(split(TARGET.CondorVersion)[1],\"25.12.0\") || (TARGET.Disk >= RequestDisk))"
    ));
    assert!(j
        .clauses
        .iter()
        .any(|(c, _)| c.starts_with("(versionGE(split(TARGET.CondorVersion)[1], \"25.12.0\")")));
    let j = build_v(
        "executable = /bin/sleep\nrequest_disk = 1G",
        HtcVersion::V24,
    );
    assert!(attr(&j, "Requirements").contains("&& (TARGET.Disk >= RequestDisk) &&"));
}

#[test]
fn arguments_v1_and_v2_and_plus_attrs() {
    let j = build("executable = /bin/echo\narguments = \"one 'two three'\"\n+Foo = 1 + 2\nMY.Bar = \"x\"\n+Empty =");
    assert_eq!(attr(&j, "Arguments"), "\"one two' 'three\"");
    assert_eq!(attr(&j, "Args"), "<absent>");
    assert_eq!(attr(&j, "Foo"), "1 + 2");
    assert_eq!(attr(&j, "Bar"), "\"x\"");
    assert_eq!(attr(&j, "Empty"), "undefined");
}

#[test]
fn hold_retries_and_keywords() {
    let j = build("executable = /bin/sleep\nhold = true\nmax_retries = 3\npriority = 7\nnotification = Complete\nuniverse = scheduler");
    assert_eq!(attr(&j, "JobStatus"), "5");
    assert_eq!(attr(&j, "HoldReasonCode"), "15");
    assert_eq!(attr(&j, "JobMaxRetries"), "3");
    assert_eq!(
        attr(&j, "OnExitRemove"),
        "NumJobCompletions > JobMaxRetries || ExitCode is 0"
    );
    assert_eq!(attr(&j, "JobPrio"), "7");
    assert_eq!(attr(&j, "JobNotification"), "2");
    assert_eq!(attr(&j, "KillSig"), "\"SIGTERM\"");
    assert_eq!(attr(&j, "JobUniverse"), "7");
}

#[test]
fn warnings_and_errors() {
    let j = build("executable = /bin/sleep\nrequest_cpu = 2\nnotify_user = never");
    let w: Vec<&str> = j.warnings.iter().map(|d| d.message.as_str()).collect();
    assert!(w.contains(&"request_cpu is not a valid submit keyword, did you mean request_cpus?"));
    assert!(w
        .iter()
        .any(|m| m.starts_with("You used  notify_user=never")));
    assert_eq!(j.warnings[0].line, 2);
    let j = build("universe = standard\nexecutable = /bin/sleep");
    assert_eq!(
        j.errors[0].message,
        "'Standard' is not a supported universe."
    );
    let j = build("arguments = 1");
    assert_eq!(
        j.errors[0].message,
        "No 'executable' parameter was provided"
    );
    // Nothing panics on odd input.
    let j = build("executable = x\nrequest_memory = 9999999999999999999999T\nrequirements = ((\nenvironment = \"a");
    assert!(!j.errors.is_empty());
}
