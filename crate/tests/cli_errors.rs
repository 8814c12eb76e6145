//! The CLI's answers to careless input, from the hostile-input sweep:
//! one exit status per kind of failure, located messages of bounded size,
//! nothing accepted that means nothing.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_classad"))
        .args(args)
        .output()
        .expect("run the classad CLI")
}

fn scratch(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("classad-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).expect("write a test file");
    p.to_string_lossy().into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_clock_that_is_not_a_number_is_refused() {
    for bad in ["NaN", "inf", "-inf", "soon"] {
        let flag = format!("--now={bad}");
        let o = cli(&["eval", &flag, "time()"]);
        assert_eq!(o.status.code(), Some(2), "--now {bad}");
        assert!(stderr(&o).contains("--now"), "{}", stderr(&o));
    }
    assert_eq!(
        String::from_utf8_lossy(&cli(&["eval", "--now", "5", "time()"]).stdout).trim(),
        "5"
    );
}

#[test]
fn a_directory_and_a_missing_file_fail_alike() {
    let dir = std::env::temp_dir();
    let dir = dir.to_string_lossy();
    for args in [
        vec!["fmt", &*dir],
        vec!["fmt", "/nonexistent/pool.ad"],
        vec!["query", "--af", "Name", "--", &*dir],
        vec!["query", "--af", "Name", "--", "/nonexistent/pool.ad"],
    ] {
        let o = cli(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot read"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_fixed_predicate_that_does_not_exist_is_an_error() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/analysis");
    let (job, machines) = (
        format!("{root}/analyze1_job.classad"),
        format!("{root}/analyze1_machines.classad"),
    );
    let fixed = |n: &str| {
        cli(&[
            "analyze",
            "--job",
            &job,
            "--machines",
            &machines,
            "--fixed",
            n,
        ])
    };
    let o = fixed("99");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("fixed predicate 99 does not exist"),
        "{}",
        stderr(&o)
    );
    let o = fixed("1");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// An error at the end of a multi-megabyte line shows a window around it.
#[test]
fn a_long_line_is_shown_as_a_window_around_the_error() {
    let mut ad = String::from("[ ");
    for i in 0..200_000 {
        ad.push_str(&format!("a{i} = {i}; "));
    }
    ad.push_str("bad = ]\n");
    let f = scratch("long.ad", &ad);
    let o = cli(&["fmt", &f]);
    let err = stderr(&o);
    assert!(
        err.contains("unexpected `]`"),
        "{}",
        &err[..err.len().min(300)]
    );
    assert!(
        err.len() < 2_000,
        "{} bytes of stderr for a {} byte line",
        err.len(),
        ad.len()
    );
    assert!(err.contains("… ") && err.contains("bad = ]"));
}

/// Brackets nest 300 deep whatever sits between them: `1 + (1 + (…))`
/// 300 deep parses, 301 deep is refused with the bound's message.
#[test]
fn right_nested_sums_nest_as_deep_as_brackets_may() {
    let nested = |n: usize| format!("{}1{}", "1 + (".repeat(n), ")".repeat(n));
    let o = cli(&["eval", &nested(300)]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "301");
    let o = cli(&["eval", &nested(301)]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("nested more than 300 deep"));
}

/// `gang` says a request is malformed, and exits 1 for it.
#[test]
fn gang_exits_1_on_a_malformed_request() {
    let ports: Vec<String> = (0..65)
        .map(|i| format!("[ Label = H{i}; Requirements = H{i}.Cpus > 0 ]"))
        .collect();
    let req = scratch(
        "req.ad",
        &format!("[ Name = \"big\"; Ports = {{ {} }} ]\n", ports.join(", ")),
    );
    let off = scratch(
        "off.ad",
        "[ Name = \"m\"; Cpus = 1; Requirements = true ]\n",
    );
    let o = cli(&["gang", "--requests", &req, "--offers", &off]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("request big"), "{}", stderr(&o));
}

/// The job's state first, in condor_q's words, and condor_q's units; a
/// held job is held whatever its matches (issue 34).
#[test]
fn a_held_job_says_so_first_with_condor_qs_units() {
    let job = scratch(
        "held.ad",
        "[ ClusterId = 7; ProcId = 0; JobStatus = 5; HoldReason = \"Error from slot1@c1: Job has gone over memory limit of 2048 megabytes.\"; RequestMemory = 2048; RequestDisk = 1024; Requirements = TARGET.Memory >= RequestMemory && TARGET.Disk >= RequestDisk ]",
    );
    let machines = scratch(
        "held-m.ads",
        "[ Name = \"s1\"; Memory = 1024; Disk = 100000; Requirements = true ]\n[ Name = \"s2\"; Memory = 512; Disk = 100000; Requirements = true ]\n",
    );
    let o = cli(&["analyze", "--job", &job, "--machines", &machines]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("007.000:  Job is held.\n\nHold reason: Error from slot1@c1: Job has gone over memory limit of 2048 megabytes.\n\n"),
        "{out}"
    );
    assert!(out.contains("    RequestMemory = 2048 (mb)\n"), "{out}");
    assert!(out.contains("    RequestDisk = 1024 (kb)\n"), "{out}");
    // The one fix lowers the request the job was held for: said, not implied.
    assert!(
        out.contains("asks for less than the job requested: RequestMemory 2048 \u{2192} 1024"),
        "{out}"
    );
    let o = cli(&["analyze", "--json", "--job", &job, "--machines", &machines]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["job_state"].as_str().unwrap().lines().next(),
        Some("Job is held.")
    );
    // An idle job has no state to tell.
    let idle = scratch(
        "idle.ad",
        "[ JobStatus = 1; Requirements = TARGET.Memory > 1 ]",
    );
    let o = cli(&["analyze", "--json", "--job", &idle, "--machines", &machines]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.get("job_state").is_none());
    // --which counts from 1, and says so.
    let o = cli(&[
        "analyze",
        "--which",
        "0",
        "--job",
        &job,
        "--machines",
        &machines,
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--which counts from 1"),
        "{}",
        stderr(&o)
    );
}
