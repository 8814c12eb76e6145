//! The job builder against HTCondor 24's ads for the submit files of
//! HTCondor's own tree (suite B in /work/shared/submit-suites, read at
//! test time; skipped where it is absent). Only files this module can
//! expand by hand are checked: simple `$(macro)`s, one plain queue.

use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::lang::unparse::unparse;
use crate::submit::config::{HtcVersion, SubmitConfig};
use crate::submit::hash::PlainHash;

const SUITE: &str = "/work/shared/submit-suites/htcondor-submit-files";
const STAT_ATTRS: &[&str] = &[
    "CondorVersion",
    "CondorPlatform",
    "JobSubmitMethod",
    "ExecutableSize",
    "ImageSize",
    "DiskUsage",
    "TransferInputSizeMB",
];

/// The suite's configuration (its `condor_config`).
fn suite_config() -> SubmitConfig {
    let mut c = SubmitConfig::default();
    c.version = HtcVersion::V24;
    if let Ok(text) = std::fs::read_to_string(format!("{SUITE}/condor_config")) {
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            if let Some((k, v)) = line.split_once('=') {
                c.set(k, v);
            }
        }
    }
    c
}

/// Expand `$(name)` from the table and the few live values; `None` for
/// anything else (the case is then not checked).
fn expand(v: &str, table: &[(String, String)], file: &str, depth: u32) -> Option<String> {
    if depth > 10 {
        return None;
    }
    let mut out = String::new();
    let mut rest = v;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let r = &rest[i..];
        if r.starts_with("$$") {
            // $$(...) stays for match time.
            let end = r.find(')')?;
            out.push_str(&r[..=end]);
            rest = &r[end + 1..];
            continue;
        }
        if !r.starts_with("$(") {
            // $ENV(..), $RANDOM_CHOICE(..) and the like are not read here.
            let word = r[1..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            if word > 0 && r.as_bytes().get(1 + word) == Some(&b'(') {
                return None;
            }
            out.push('$');
            rest = &r[1..];
            continue;
        }
        let end = r.find(')')?;
        let name = &r[2..end];
        let low = name.to_ascii_lowercase();
        let val = match low.as_str() {
            "cluster" | "clusterid" => "1".to_string(),
            "process" | "procid" | "step" | "itemindex" | "row" => "0".to_string(),
            "node" => String::new(),
            "submit_file" => file.to_string(),
            "arch" => "X86_64".to_string(),
            "opsys" => "LINUX".to_string(),
            _ => {
                // An undefined macro expands to nothing.
                match table
                    .iter()
                    .rev()
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                {
                    Some((_, raw)) => expand(raw, table, file, depth + 1)?,
                    None => String::new(),
                }
            }
        };
        out.push_str(&val);
        rest = &r[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// The key lines before the first queue statement, expanded; `None` for
/// files this simple reader cannot take.
fn read_case(text: &str, file: &str) -> Option<Vec<(String, String)>> {
    let mut lines: Vec<String> = vec![];
    let mut cont = String::new();
    for l in text.lines() {
        let l = l.trim_end_matches('\r');
        if let Some(x) = l.strip_suffix('\\') {
            cont.push_str(x);
            continue;
        }
        cont.push_str(l);
        lines.push(std::mem::take(&mut cont));
    }
    let mut table: Vec<(String, String)> = vec![];
    for l in lines {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let low = t.to_ascii_lowercase();
        if low == "queue" || low.starts_with("queue ") || low.starts_with("queue\t") {
            let arg = t[5..].trim();
            if !arg.is_empty() && arg.parse::<u64>().is_err() {
                return None;
            }
            break;
        }
        let (k, v) = t.split_once('=')?;
        let k = k.trim();
        if k.is_empty() || k.contains(char::is_whitespace) {
            return None;
        }
        table.push((k.to_string(), v.trim().to_string()));
    }
    let mut out = vec![];
    for (k, v) in &table {
        out.push((k.clone(), expand(v, &table, file, 0)?));
    }
    Some(out)
}

/// Whitespace outside string literals removed, for comparing texts.
fn squash(s: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut esc = false;
    for c in s.chars() {
        if in_str {
            out.push(c);
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// One case: `Ok(())` when every expected attribute matches, else the
/// differences; `None` when the case is not checked here.
fn check_case(sub: &Path) -> Option<Result<(), Vec<String>>> {
    let name = sub.file_name()?.to_str()?.to_string();
    let json_path = sub.with_extension("expected.json");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json_path).ok()?).ok()?;
    let want_error = !expected["error"].is_null();
    let empty = serde_json::Map::new();
    let proc0 = match expected["procs"].get(0) {
        Some(p) => p.as_object()?,
        None if want_error => &empty,
        None => return None,
    };
    let text = std::fs::read_to_string(sub).ok()?;
    let table = read_case(&text, &name)?;
    let mut h = PlainHash::default();
    for (i, (k, v)) in table.iter().enumerate() {
        h.entries.push((k.clone(), v.clone(), i as u32 + 1));
    }
    h.config = suite_config();
    let ctx = JobContext {
        cluster: 1,
        proc: 0,
        qdate: 1700000000,
        owner: Some("alice".into()),
        iwd: "/CASEDIR".into(),
        submit_file: name.clone(),
        env: [
            ("PATH", "/usr/bin:/bin"),
            ("HOME", "/home/alice"),
            ("USER", "alice"),
            ("LANG", "C.UTF-8"),
            ("TZ", "UTC"),
            ("CONDOR_SUITE_MARK", "1"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
        dir_exists: Some(|d| {
            let real = d.replacen("/CASEDIR", &format!("{SUITE}/cases"), 1);
            Path::new(&real).is_dir()
        }),
    };
    let job = build_job(&h, &ctx);
    if want_error {
        return Some(if job.errors.is_empty() {
            Err(vec![format!("expected the error {}", expected["error"])])
        } else {
            Ok(())
        });
    }
    let want_warnings: Vec<String> = expected["warnings"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|w| w.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let got_warnings: Vec<String> = job.warnings.iter().map(|d| d.message.clone()).collect();
    let ignore: Vec<String> = expected["ignore"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let got: BTreeMap<String, String> = job
        .attrs
        .iter()
        .map(|(n, e)| (n.clone(), unparse(e).replace("/CASEDIR", "<CASEDIR>")))
        .collect();
    let mut diffs = vec![];
    if !job.errors.is_empty() {
        diffs.push(format!(
            "errors: {:?}",
            job.errors.iter().map(|d| &d.message).collect::<Vec<_>>()
        ));
    }
    for (attr, want) in proc0 {
        if STAT_ATTRS.contains(&attr.as_str()) || ignore.contains(attr) {
            continue;
        }
        let want = want.as_str().unwrap_or("");
        match got.get(attr) {
            Some(g) if squash(g) == squash(want) => {}
            Some(g) => diffs.push(format!("{attr}: expected {want} got {g}")),
            None => diffs.push(format!("{attr}: expected {want} got nothing")),
        }
    }
    for attr in got.keys() {
        if !proc0.contains_key(attr) && !STAT_ATTRS.contains(&attr.as_str()) {
            diffs.push(format!("{attr}: not expected, got {}", got[attr]));
        }
    }
    if want_warnings != got_warnings {
        diffs.push(format!(
            "warnings: expected {want_warnings:?} got {got_warnings:?}"
        ));
    }
    Some(if diffs.is_empty() { Ok(()) } else { Err(diffs) })
}

#[test]
fn suite_b_proc0_ads() {
    let dir = Path::new(SUITE).join("cases");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("suite B not found; skipped");
        return;
    };
    let mut subs: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sub"))
        .collect();
    subs.sort();
    let (mut checked, mut matched) = (0, 0);
    let mut failed = vec![];
    for sub in &subs {
        let Some(r) = check_case(sub) else { continue };
        checked += 1;
        match r {
            Ok(()) => matched += 1,
            Err(d) => {
                failed.push(sub.display().to_string());
                if std::env::var("SUITE_VERBOSE").is_ok() {
                    eprintln!("MISMATCH {}:\n  {}", sub.display(), d.join("\n  "));
                }
            }
        }
    }
    eprintln!(
        "suite B: {matched} of {checked} checked proc-0 ads match ({} files)",
        subs.len()
    );
    assert!(
        failed.is_empty(),
        "{matched} of {checked}; SUITE_VERBOSE=1 shows why: {failed:?}"
    );
}

const SUITE_A: &str = "/work/shared/submit-suites/htcondor-25-golden";

/// Suite A (HTCondor 25's dry-run expectations): the exact `Attr=value`
/// lines of proc 0 for the files the simple reader takes. Informative:
/// prints the count and (with SUITE_VERBOSE) the differences.
#[test]
fn suite_a_proc0_lines() {
    let (Ok(subs), Ok(expect)) = (
        std::fs::read_to_string(format!("{SUITE_A}/cmd_submit_regress_dry.subs")),
        std::fs::read_to_string(format!("{SUITE_A}/cmd_submit_regress_dry.expect")),
    ) else {
        eprintln!("suite A not found; skipped");
        return;
    };
    let mut files: Vec<(String, String)> = vec![];
    for line in subs.lines() {
        if let Some(name) = line.strip_prefix("==") {
            files.push((name.trim().to_string(), String::new()));
        } else if let Some((_, text)) = files.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut proc0 = true;
    for line in expect.lines() {
        if let Some(name) = line.strip_prefix("==") {
            current = Some(name.trim().to_string());
            proc0 = true;
        } else if line.starts_with('=') {
            current = None;
        } else if line.starts_with('.') {
            proc0 = false;
        } else if let (Some(c), true) = (&current, proc0) {
            if line.contains('=') && !line.starts_with('#') {
                sections
                    .entry(c.clone())
                    .or_default()
                    .push(line.trim_end().to_string());
            }
        }
    }
    let (mut lines_ok, mut lines_all) = (0, 0);
    for (n, (name, text)) in files.iter().enumerate() {
        let file = format!("{:03}{}", n + 1, name);
        let Some(want) = sections.get(name) else {
            continue;
        };
        let Some(table) = read_case(text, &file) else {
            continue;
        };
        let mut h = PlainHash::default();
        for (i, (k, v)) in table.iter().enumerate() {
            h.entries.push((k.clone(), v.clone(), i as u32 + 1));
        }
        h.config = suite_config();
        h.config.version = HtcVersion::V25;
        let ctx = JobContext {
            cluster: n as i64 + 1,
            qdate: 1700000000,
            iwd: "/scratch".into(),
            submit_file: file.clone(),
            ..JobContext::default()
        };
        let job = build_job(&h, &ctx);
        for w in want {
            let Some((attr, value)) = w.split_once('=') else {
                continue;
            };
            if value.starts_with('/') && value.ends_with('/') && value.len() > 1 {
                continue;
            }
            lines_all += 1;
            let got = job
                .get(attr)
                .map(crate::lang::unparse::unparse_old)
                .unwrap_or_else(|| "undefined".into())
                .replace(" is ", " =?= ")
                .replace(" isnt ", " =!= ");
            if squash(&got) == squash(value) {
                lines_ok += 1;
            } else if std::env::var("SUITE_VERBOSE").is_ok() {
                eprintln!("A {name}: {attr}: expected {value} got {got}");
            }
        }
    }
    eprintln!("suite A: {lines_ok} of {lines_all} exact proc-0 lines match");
}
