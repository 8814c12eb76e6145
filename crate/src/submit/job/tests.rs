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
    j.get(name).map(unparse).unwrap_or_else(|| "<absent>".into())
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
    assert_eq!(attr(&j, "RequestMemory"), "ifthenelse(MemoryUsage isnt undefined,MemoryUsage,(ImageSize + 1023) / 1024)");
    assert_eq!(j.warnings.len(), 1);
}
