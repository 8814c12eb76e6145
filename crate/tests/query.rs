//! `classad query` as the issue states its contract: the Condor manual's
//! two condor_status examples, `-af` printing, summaries against a plain
//! count, `--json`, errors, and streaming order.

use std::process::Command;

fn classad(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_classad"))
        .args(args)
        .output()
        .expect("the CLI runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Write `text` to a file of its own (tests run in parallel: two writing
/// one path would read each other's half-written file).
fn write(name: &str, text: &str) -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("classad-query-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Machines in the old long format, as `condor_status -l` prints them:
/// (name, arch, opsys, state, keyboard idle seconds, memory MB).
fn machines(list: &[(&str, &str, &str, &str, i64, i64)]) -> String {
    let mut out = String::new();
    for (name, arch, opsys, state, idle, mem) in list {
        out += &format!(
            "MyType = \"Machine\"\nName = \"{name}\"\nArch = \"{arch}\"\nOpSys = \"{opsys}\"\nState = \"{state}\"\n\
             Activity = \"Idle\"\nKeyboardIdle = {idle}\nMemory = {mem}\nLoadAvg = 0.25\n\n"
        );
    }
    out
}

/// A pool like the manual's: enough machines that every case appears.
fn pool() -> Vec<(String, &'static str, &'static str, &'static str, i64, i64)> {
    let platforms = [
        ("SUN4u", "SOLARIS251"),
        ("INTEL", "SOLARIS251"),
        ("SUN4x", "SOLARIS251"),
        ("INTEL", "WINNT51"),
        ("INTEL", "LINUX"),
    ];
    let states = ["Claimed", "Unclaimed", "Owner", "Matched"];
    (0..60)
        .map(|i| {
            let (arch, opsys) = platforms[i % 5];
            (
                format!("m{i:02}.cs.wisc.edu"),
                arch,
                opsys,
                states[i / 5 % 4],
                (i as i64 * 97) % 3000,
                [64, 100, 128, 1024][i / 3 % 4],
            )
        })
        .collect()
}

fn pool_file() -> String {
    let p = pool();
    let rows: Vec<(&str, &str, &str, &str, i64, i64)> = p
        .iter()
        .map(|(n, a, o, s, i, m)| (n.as_str(), *a, *o, *s, *i, *m))
        .collect();
    write("machines.txt", &machines(&rows))
}

#[test]
fn the_manuals_constraint_selects_exactly_the_idle_big_machines() {
    let f = pool_file();
    let (code, out, err) = classad(&[
        "query",
        &f,
        "--constraint",
        "KeyboardIdle > 20*60 && Memory > 100",
        "--af",
        "Name",
    ]);
    assert_eq!(code, 0, "{err}");
    let want: Vec<String> = pool()
        .into_iter()
        .filter(|m| m.4 > 20 * 60 && m.5 > 100)
        .map(|m| m.0)
        .collect();
    assert!(!want.is_empty() && want.len() < 60);
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
}

#[test]
fn the_summary_counts_as_a_plain_count_does() {
    let f = pool_file();
    let (code, out, _) = classad(&[
        "query",
        &f,
        "--const",
        "Memory > 100",
        "--summary",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let chosen: Vec<_> = pool().into_iter().filter(|m| m.5 > 100).collect();
    assert_eq!(v["matched"], chosen.len());
    assert_eq!(v["total"], 60);
    assert_eq!(v["summary"]["kind"], "machines");
    let states = [
        "Owner",
        "Claimed",
        "Unclaimed",
        "Matched",
        "Preempting",
        "Backfill",
        "Drain",
    ];
    for (platform, counts) in v["summary"]["rows"].as_object().unwrap() {
        let here: Vec<_> = chosen
            .iter()
            .filter(|m| format!("{}/{}", m.1, m.2) == *platform)
            .collect();
        assert_eq!(counts["total"], here.len(), "{platform}");
        for (i, s) in states.iter().enumerate() {
            assert_eq!(
                counts["states"][i],
                here.iter().filter(|m| m.3 == *s).count(),
                "{platform} {s}"
            );
        }
    }
    assert_eq!(v["summary"]["total"]["total"], chosen.len());
    // As text: a head, one row per platform, and the total, after a blank line.
    let (_, text, _) = classad(&["query", &f, "--const", "Memory > 100", "--summary"]);
    let lines: Vec<&str> = text.lines().collect();
    let blank = lines
        .iter()
        .position(|l| l.is_empty())
        .expect("a blank line before the summary");
    let summary = &lines[blank + 1..];
    let platforms = v["summary"]["rows"].as_object().unwrap().len();
    assert_eq!(summary.len(), platforms + 2, "{text}");
    assert!(summary[0]
        .trim_start()
        .starts_with("Total Owner Claimed Unclaimed Matched Preempting Backfill Drain"));
    let total: Vec<&str> = summary.last().unwrap().split_whitespace().collect();
    assert_eq!(total[0], "Total");
    assert_eq!(total[1], chosen.len().to_string());
}

#[test]
fn any_ad_is_found_with_a_regexp_as_in_the_manual() {
    let generic = "MyType = \"Generic\"\nFauxType = \"DBMS\"\nName = \"random-test\"\nMachine = \"f05.cs.wisc.edu\"\n\
                   MyAddress = \"<128.105.149.105:34000>\"\nDaemonStartTime = 1153192799\nUpdateSequenceNumber = 1\n\n";
    let f = write(
        "any.txt",
        &(machines(&[("random-machine", "INTEL", "LINUX", "Owner", 1, 1)]) + generic),
    );
    let (code, out, _) = classad(&[
        "query",
        &f,
        "--constraint",
        r#"FauxType=="DBMS" && regexp("random.*", Name, "i")"#,
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "Ad\nrandom-test");
    let (_, out, _) = classad(&[
        "query",
        &f,
        "--constraint",
        r#"FauxType=="DBMS""#,
        "--af",
        "MyType",
        "Name",
        "DaemonStartTime",
    ]);
    assert_eq!(out, "Generic random-test 1153192799\n");
}

#[test]
fn af_prints_values_as_condor_status_does() {
    let f = write(
        "values.classad",
        "[ Name = \"a b\"; I = 7; R = 0.5; B = true; L = {1, \"x\"} ]\n",
    );
    let (_, out, _) = classad(&[
        "query",
        &f,
        "--af",
        "Name",
        "I",
        "R",
        "B",
        "Missing",
        "1/0 == 1",
        "L",
        "strcat(Name, \"!\")",
    ]);
    assert_eq!(
        out,
        "a b 7 5.000000000000000E-01 true undefined error { 1,\"x\" } a b!\n"
    );
}

#[test]
fn a_constraint_that_does_not_parse_is_an_error_with_its_column() {
    let f = pool_file();
    let (code, out, err) = classad(&["query", &f, "--constraint", "Memory > && 1"]);
    assert_eq!(code, 2);
    assert_eq!(out, "", "nothing printed as if it had matched");
    assert!(err.contains("constraint:1:10"), "{err}");
}

#[test]
fn sort_and_json_rows() {
    let f = pool_file();
    let (_, out, _) = classad(&[
        "query",
        &f,
        "--const",
        "Memory >= 1024 && Arch == \"SUN4u\"",
        "--af",
        "Name",
        "KeyboardIdle",
        "--sort",
        "0 - KeyboardIdle",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.len() >= 2);
    let idle: Vec<i64> = rows.iter().map(|r| r[1].as_i64().unwrap()).collect();
    assert!(idle.windows(2).all(|w| w[0] >= w[1]), "{idle:?}");
    assert!(rows[0][0].is_string());
    assert_eq!(v["summary"], serde_json::Value::Null);
}

#[test]
fn streamed_output_keeps_the_files_order_and_reports_bad_ads() {
    let a = write(
        "a.classad",
        "[ Name = \"x\"; N = 1 ]\n[ Name = \"bad\"; N = ]\n[ Name = \"y\"; N = 2 ]\n",
    );
    let b = write("b.txt", "Name = \"z\"\nN = 3\n");
    let (code, out, err) = classad(&["query", &a, &b, "--af", "Name", "N"]);
    assert_eq!(out, "x 1\ny 2\nz 3\n");
    assert_eq!(code, 1, "ads left out are not silent");
    assert!(err.contains(":2:"), "{err}");
}
