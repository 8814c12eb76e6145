//! `classad submit` (issue 33): the CLI contract, condor_submit's
//! messages located at their lines, the bounds on what a submit file can
//! ask for, and the commands that take `--submit` in place of jobs. The
//! ads themselves are checked attribute for attribute against HTCondor's
//! own suites (`../shared/submit-suites/run.sh`, README) and the job
//! builder's unit tests.

use std::path::Path;
use std::process::{Command, Output};

/// A scratch directory of its own per test, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn dir() -> Scratch {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let p = std::env::temp_dir().join(format!(
        "classad-submit-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&p).unwrap();
    Scratch(p)
}

fn write(d: &Path, name: &str, text: &str) {
    std::fs::write(d.join(name), text).unwrap();
}

fn run(d: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_classad"))
        .current_dir(d)
        .args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", "/home/alice")
        .output()
        .unwrap()
}

fn json(out: &Output) -> Vec<serde_json::Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const BASE: &[&str] = &["--to", "json", "--cluster", "7", "--qdate", "1700000000"];

fn submit(d: &Path, file: &str, extra: &[&str]) -> Output {
    let mut args = vec!["submit", file];
    args.extend_from_slice(BASE);
    args.extend_from_slice(extra);
    run(d, &args)
}

#[test]
fn the_json_contract_one_ad_per_proc() {
    let d = dir();
    write(
        d.path(),
        "job.sub",
        "executable = /bin/echo\narguments = $(Item) $(ProcId)\nrequest_memory = 2GB\nqueue 2 Item in (a, b)\n",
    );
    let ads = json(&submit(d.path(), "job.sub", &[]));
    assert_eq!(ads.len(), 4);
    let procs: Vec<(i64, i64, String)> = ads
        .iter()
        .map(|a| {
            (
                a["ClusterId"].as_i64().unwrap(),
                a["ProcId"].as_i64().unwrap(),
                a["Args"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        procs,
        [
            (7, 0, "a 0".into()),
            (7, 1, "a 1".into()),
            (7, 2, "b 2".into()),
            (7, 3, "b 3".into())
        ]
    );
    assert_eq!(ads[0]["RequestMemory"], 2048, "2GB is 2048 MiB");
    assert_eq!(ads[0]["QDate"], 1_700_000_000i64);
    assert_eq!(ads[0]["JobSubmitFile"], "job.sub");
    // An expression is HTCondor's JSON `\/Expr(…)\/` string.
    let req = ads[0]["Requirements"].as_str().unwrap();
    assert!(
        req.starts_with("/Expr((TARGET.Arch == \"X86_64\")"),
        "{req}"
    );
    assert!(req.contains("(TARGET.Memory >= RequestMemory)"), "{req}");
}

#[test]
fn versions_differ_where_htcondor_24_and_25_do() {
    let d = dir();
    write(d.path(), "v.sub", "executable = /bin/true\nqueue\n");
    let req = |v: &str| {
        let ads = json(&submit(d.path(), "v.sub", &["--htcondor", v]));
        ads[0]["Requirements"].as_str().unwrap().to_string()
    };
    assert!(req("25").contains(
        "versionGE(split(TARGET.CondorVersion)[1],\"25.12.0\") || (TARGET.Disk >= RequestDisk)"
    ));
    assert!(req("24").contains("&& (TARGET.Disk >= RequestDisk) &&"));
    // The configuration is the submit host's.
    let ads = json(&submit(
        d.path(),
        "v.sub",
        &[
            "--config",
            "ARCH=ARM64",
            "--config",
            "FILESYSTEM_DOMAIN=lab.org",
        ],
    ));
    assert!(ads[0]["Requirements"]
        .as_str()
        .unwrap()
        .contains("(TARGET.Arch == \"ARM64\")"));
    assert_eq!(ads[0]["FileSystemDomain"], "lab.org");
}

#[test]
fn the_language_reads_as_condor_submit_reads_it() {
    let d = dir();
    write(d.path(), "common.inc", "request_cpus = 4\nMEMORY = 3GB\n");
    write(d.path(), "rows.txt", "alpha 1\nbeta 2\ngamma 3\n");
    write(
        d.path(),
        "lang.sub",
        "# a comment \\\n\
         include : common.inc\n\
         executable = /bin/echo\n\
         request_memory = $(MEMORY)\n\
         if defined NOT_SET\n  arguments = wrong\nelif version >= 24.0\n  arguments = \\\n    $(name) $(n) $INT(n,%03d)\nelse\n  arguments = old\nendif\n\
         MY.Project = \"physics\"\n\
         +Site = \"$(Cluster)-site\"\n\
         notes @= END\nline one\nline two\n@END\n\
         description = $(notes)\n\
         queue name, n from [1:] rows.txt\n",
    );
    let out = submit(d.path(), "lang.sub", &[]);
    let ads = json(&out);
    assert_eq!(ads.len(), 2, "the slice [1:] skips alpha");
    assert_eq!(ads[0]["Args"], "beta 2 002");
    assert_eq!(ads[1]["Args"], "gamma 3 003");
    assert_eq!(ads[0]["RequestCpus"], 4);
    assert_eq!(ads[0]["RequestMemory"], 3072);
    assert_eq!(ads[0]["Project"], "physics");
    assert_eq!(ads[0]["Site"], "7-site");
    assert_eq!(ads[0]["JobDescription"], "line one\nline two");
}

#[test]
fn errors_are_located_and_condor_submit_refuses_what_it_refuses() {
    let d = dir();
    let cases: [(&str, &str, &str); 7] = [
        (
            "q.sub",
            "executable = /bin/true\nqueue lots\n",
            "q.sub:2:1: Invalid Queue count expression",
        ),
        (
            "i.sub",
            "include : missing.inc\nqueue\n",
            "i.sub:1:1: include file missing.inc was not given",
        ),
        (
            "c.sub",
            "include : ls -l |\nqueue\n",
            "c.sub:1:1: `include` of a command (ls -l |) is refused",
        ),
        (
            "f.sub",
            "if true\nexecutable = /bin/true\nqueue\n",
            "f.sub:3:1: endif(s) not found before end-of-file",
        ),
        (
            "h.sub",
            "x @= END\nno end\n",
            "h.sub:1:1: Found end-of-file while scanning for '@END'",
        ),
        ("n.sub", "executable = /bin/true\n", "no queue statement"),
        (
            "e.sub",
            "error : stop $(Cluster) here\nqueue\n",
            "e.sub:1:1: stop 7 here",
        ),
    ];
    for (name, text, want) in cases {
        write(d.path(), name, text);
        let out = submit(d.path(), name, &[]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains(want), "{name}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
    }
}

#[test]
fn warnings_go_to_stderr_in_condor_submits_words() {
    let d = dir();
    write(
        d.path(),
        "w.sub",
        "executable = /bin/true\nrequirments = Memory > 1\nwarning : check $(executable)\nqueue\n",
    );
    let out = submit(d.path(), "w.sub", &[]);
    assert_eq!(json(&out).len(), 1);
    let err = stderr(&out);
    assert!(err.contains("w.sub:3:1: warning: check /bin/true"), "{err}");
    assert!(err.contains("w.sub:2:1: warning: the line 'requirments = Memory > 1' was unused by condor_submit. Is it a typo?"), "{err}");
}

#[test]
fn what_a_file_asks_for_is_bounded_and_the_cut_is_said() {
    let d = dir();
    write(
        d.path(),
        "big.sub",
        "executable = /bin/true\nqueue 100000000\n",
    );
    let out = submit(d.path(), "big.sub", &["--max-procs", "25"]);
    assert_eq!(json(&out).len(), 25);
    assert!(
        stderr(&out)
            .contains("stopped at 25 procs (the queue statement on line 2 asks for 100000000)"),
        "{}",
        stderr(&out)
    );
    // A macro that refers to itself with no base case.
    write(
        d.path(),
        "loop.sub",
        "a = $(b)x\nb = $(a)y\nexecutable = /bin/$(a)\nqueue\n",
    );
    let out = submit(d.path(), "loop.sub", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("loop.sub:4:1: macro expansion stopped after 10000 steps"),
        "{}",
        stderr(&out)
    );
    // One that doubles: stopped at the size bound.
    let long = "x".repeat(60_000);
    write(
        d.path(),
        "double.sub",
        &format!("a = $(b)$(b)\nb = {long}$(a)\nexecutable = /bin/$(a)\nqueue\n"),
    );
    let out = submit(d.path(), "double.sub", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("double.sub:4:1: macro expansion stopped: the value grew past 1 MB"),
        "{}",
        stderr(&out)
    );
    // `$()` nested 5,000 deep.
    let deep = format!(
        "executable = /bin/{}x{}\nqueue\n",
        "$(a".repeat(5000),
        ")".repeat(5000)
    );
    write(d.path(), "deep.sub", &deep);
    let out = submit(d.path(), "deep.sub", &[]);
    assert!(out.status.code().is_some(), "it ends");
    // A million-line `queue from` file.
    let items: String = (0..1_000_000).map(|i| format!("item{i}\n")).collect();
    write(d.path(), "million.txt", &items);
    write(
        d.path(),
        "million.sub",
        "executable = /bin/true\narguments = $(Item)\nqueue Item from million.txt\n",
    );
    let out = submit(d.path(), "million.sub", &["--max-procs", "100"]);
    let ads = json(&out);
    assert_eq!(ads.len(), 100);
    assert_eq!(ads[99]["Args"], "item99");
    assert!(
        stderr(&out).contains("asks for 1000000"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_names_every_attributes_origin_and_every_clauses_reason() {
    let d = dir();
    write(
        d.path(),
        "x.sub",
        "executable = /bin/true\nrequest_memory = 1GB\nrequirements = HasDocker\nqueue\n",
    );
    let out = run(
        d.path(),
        &["submit", "x.sub", "--explain", "--qdate", "1700000000"],
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("RequestMemory = 1024    # line 2: request_memory"),
        "{text}"
    );
    assert!(
        text.contains("Cmd = \"/bin/true\"    # line 1: executable"),
        "{text}"
    );
    assert!(
        text.contains("# Requirements clause (TARGET.Memory >= RequestMemory): "),
        "{text}"
    );
}

#[test]
fn analyze_and_match_take_a_submit_file_for_their_jobs() {
    let d = dir();
    write(
        d.path(),
        "j.sub",
        "executable = /bin/true\nrequest_memory = 2GB\nqueue\n",
    );
    write(
        d.path(),
        "m.ads",
        "[ Name = \"small\"; MyType = \"Machine\"; Arch = \"X86_64\"; OpSys = \"LINUX\"; Memory = 1024; Disk = 100000000; Cpus = 1; HasFileTransfer = true; Requirements = true; CondorVersion = \"$CondorVersion: 25.0.0 2025-06-01 $\" ]\n\
         [ Name = \"big\"; MyType = \"Machine\"; Arch = \"X86_64\"; OpSys = \"LINUX\"; Memory = 8192; Disk = 100000000; Cpus = 1; HasFileTransfer = true; Requirements = true; CondorVersion = \"$CondorVersion: 25.0.0 2025-06-01 $\" ]\n",
    );
    let out = run(
        d.path(),
        &[
            "match",
            "--submit",
            "j.sub",
            "--machines",
            "m.ads",
            "--qdate",
            "1700000000",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("1.0 big matched"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = run(
        d.path(),
        &[
            "analyze",
            "--submit",
            "j.sub",
            "--machines",
            "m.ads",
            "--qdate",
            "1700000000",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 slots match and are willing to run your job") || text.contains("1 slot"),
        "{text}"
    );
    // A submit file condor_submit refuses stops the command with its errors.
    write(d.path(), "bad.sub", "queue x y z in\n");
    let out = run(
        d.path(),
        &["match", "--submit", "bad.sub", "--machines", "m.ads"],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad.sub:1:1:"), "{}", stderr(&out));
}

/// The gallery lesson "What condor_submit adds to your job": only alpha
/// runs it, and each other machine fails a clause the user never wrote.
#[test]
fn the_submit_lessons_claims_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let lessons = root.join("www/examples/ads/lessons");
    let d = dir();
    for f in ["submit_job.sub", "submit_machines.classad"] {
        std::fs::copy(lessons.join(f), d.path().join(f)).unwrap();
    }
    let args = [
        "--submit",
        "submit_job.sub",
        "--machines",
        "submit_machines.classad",
        "--qdate",
        "1767225600",
    ];
    let out = run(d.path(), &[&["match"][..], &args[..]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("1.0 slot1@alpha.lab matched"), "{text}");
    let out = run(d.path(), &[&["analyze"][..], &args[..]].concat());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("3 slots are rejected by your job's requirements"),
        "{report}"
    );
    assert!(
        report.contains("1 slots match and are willing to run your job"),
        "{report}"
    );
    // Job 1.0's ad, as condor_submit makes it.
    let jobs = run(
        d.path(),
        &["submit", "submit_job.sub", "--qdate", "1767225600"],
    );
    let first = String::from_utf8_lossy(&jobs.stdout)
        .split("\n]\n")
        .next()
        .unwrap()
        .to_string()
        + "\n]\n";
    std::fs::write(d.path().join("job.ad"), first).unwrap();
    let machines = std::fs::read_to_string(d.path().join("submit_machines.classad")).unwrap();
    // Each failing machine, and the clause condor_submit added that it fails.
    for (machine, clause) in [
        ("beta", "TARGET.Memory >= RequestMemory"),
        ("gamma", "TARGET.HasFileTransfer"),
        ("delta", "TARGET.Arch == \"X86_64\""),
    ] {
        let ad = machines
            .split("]\n")
            .find(|a| a.contains(&format!("slot1@{machine}.lab")))
            .unwrap()
            .to_string()
            + "]";
        std::fs::write(d.path().join("one.ad"), ad).unwrap();
        let out = run(
            d.path(),
            &[
                "eval",
                "--my",
                "job.ad",
                "--target",
                "one.ad",
                "MY.Requirements",
                clause,
            ],
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "false\nfalse\n",
            "{machine}: {clause}"
        );
    }
}

/// Nothing a submit file holds makes the engine panic or run away: files
/// made of the language's pieces in random order (seeded, repeatable).
#[test]
fn random_submit_files_never_panic_and_end() {
    use classad::submit::{submit, SubmitConfig, SubmitInput};
    const PIECES: &[&str] = &[
        "executable = /bin/true",
        "queue",
        "queue 3",
        "queue x in (a b",
        ")",
        "queue x,y from (1 2)",
        "iterate",
        "if",
        "if defined x",
        "elif version > 8.0",
        "else",
        "endif",
        "include : f",
        "include : x |",
        "x = $(x)$(y)",
        "y = $(x",
        "$(",
        "$$(",
        "$$([",
        "$ENV(HOME",
        "$INT(",
        "$Fpnx(",
        "$CHOICE(9,a)",
        "$SUBSTR(x,-99,99)",
        "$RANDOM_INTEGER(5,1,0)",
        "request_memory = 2 TB",
        "request_disk = -1",
        "requirements = (",
        "+A = [",
        "-B =",
        "MY.C = {",
        "arguments = \"a 'b\" c\"",
        "environment = \"x=1 y\"",
        "universe = docker",
        "universe = grid",
        "grid_resource = ec2 x",
        "t @= END",
        "@END",
        "\\",
        "#",
        "",
        "queue 1 in [1:-1:0] (a)",
        "queue 99999999999999",
        "queue matching files *",
        "request_gpus = 2",
        "error :",
        "warning : $(x)",
        "transfer_input_files = http://a/b, osdf:///c",
        "hold = true",
        "retry_request_memory = 2 * RequestMemory",
        "request_memory = 1GB, 2GB",
        "accounting_group = a.b",
        "\u{0}",
        "é = 1",
        "x = \u{feff}",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let files = |name: &str| (name == "f").then(|| "queue\nrequest_cpus = $(f)\n".to_string());
    let (mut made, mut refused) = (0, 0);
    for _ in 0..400 {
        let lines: Vec<&str> = (0..next(25) + 1)
            .map(|_| PIECES[next(PIECES.len())])
            .collect();
        let text = lines.join(if next(4) == 0 { " " } else { "\n" });
        let started = std::time::Instant::now();
        let out = submit(&SubmitInput {
            name: "fuzz.sub",
            text: &text,
            files: &files,
            names: &["a".into(), "b/".into()],
            config: SubmitConfig::default_host(),
            cluster: 1,
            qdate: 1_700_000_000,
            owner: None,
            iwd: "/tmp".into(),
            env: Default::default(),
            max_procs: 50,
            dir_exists: None,
        });
        assert!(out.jobs.len() <= 50);
        assert!(
            started.elapsed().as_secs() < 10,
            "{text:?} took {:?}",
            started.elapsed()
        );
        made += out.jobs.len();
        refused += usize::from(!out.errors.is_empty());
    }
    // The pieces make both: jobs, and files condor_submit refuses.
    assert!(made > 100 && refused > 50, "{made} jobs, {refused} refused");
}

/// `analyze --submit` shows the fixes that change job attributes as edits
/// of the submit file's own lines (the file's spelling and units).
#[test]
fn analyze_shows_fixes_as_edits_of_the_submit_file() {
    let d = dir();
    write(
        d.path(),
        "idle.sub",
        "executable = analyze.sh\nrequest_memory = 16GB\nqueue\n",
    );
    write(
        d.path(),
        "pool.ads",
        "[ Name = \"s1\"; MyType = \"Machine\"; Arch = \"X86_64\"; OpSys = \"LINUX\"; Memory = 8192; Cpus = 4; Disk = 100000000; HasFileTransfer = true; Requirements = true; CondorVersion = \"$CondorVersion: 25.0.0 2025-06-01 $\" ]\n",
    );
    let out = run(
        d.path(),
        &[
            "analyze",
            "--submit",
            "idle.sub",
            "--machines",
            "pool.ads",
            "--qdate",
            "1700000000",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let edits = text
        .split("as edits of idle.sub (each checked")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        edits.contains("idle.sub:2: request_memory = 16GB  ->  request_memory = 8192MB"),
        "{edits}"
    );
    // The edit made, the job runs there.
    write(
        d.path(),
        "fixed.sub",
        "executable = analyze.sh\nrequest_memory = 8192MB\nqueue\n",
    );
    let out = run(
        d.path(),
        &[
            "match",
            "--submit",
            "fixed.sub",
            "--machines",
            "pool.ads",
            "--qdate",
            "1700000000",
        ],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("1.0 s1 matched"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A requirements fix is the file's `requirements =` line without the
/// clauses condor_submit appends; `--json` carries the fixes as edits.
#[test]
fn a_requirements_fix_is_the_users_own_line() {
    let d = dir();
    write(
        d.path(),
        "gpu.sub",
        "executable = train.sh\nrequest_memory = 16GB\nrequirements = HasGPU && (CUDACapability >= 8.6)\nqueue\n",
    );
    write(
        d.path(),
        "pool.ads",
        "[ Name = \"s2\"; MyType = \"Machine\"; Arch = \"X86_64\"; OpSys = \"LINUX\"; Memory = 32768; Cpus = 4; Disk = 100000000; HasFileTransfer = true; HasGPU = true; CUDACapability = 8.0; Requirements = true; CondorVersion = \"$CondorVersion: 25.0.0 2025-06-01 $\" ]\n",
    );
    let args = ["--machines", "pool.ads", "--qdate", "1700000000"];
    let out = run(
        d.path(),
        &[&["analyze", "--json", "--submit", "gpu.sub"][..], &args[..]].concat(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fixes = &v["submit_fixes"]["fixes"];
    let first = &fixes[0];
    assert_eq!(first["willing"], 1, "{fixes}");
    let edit = &first["edits"][0];
    assert_eq!(edit["line"], 3);
    assert_eq!(
        edit["old"],
        "requirements = HasGPU && (CUDACapability >= 8.6)"
    );
    let new = edit["new"].as_str().unwrap();
    assert!(new.starts_with("requirements = HasGPU"), "{new}");
    assert!(
        !new.contains("TARGET.Arch") && !new.contains("RequestMemory"),
        "{new}"
    );
    // The line put in the file, the job matches.
    let text = std::fs::read_to_string(d.path().join("gpu.sub")).unwrap();
    write(
        d.path(),
        "gpu.sub",
        &text.replace(edit["old"].as_str().unwrap(), new),
    );
    let out = run(
        d.path(),
        &[&["match", "--submit", "gpu.sub"][..], &args[..]].concat(),
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("1.0 s2 matched"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
