//! A submit file turned into job ads, as condor_submit makes them: what the
//! page asks the engine worker (verb `submit`) and what it answers. Both
//! sides link this module; only the worker calls [`answer`] (the page
//! links no engine beyond the wire types).

use serde::{Deserialize, Serialize};

/// The request: the submit file, the other pools by name (what `include :`
/// and `queue from` read, what `queue matching` globs over), the submit
/// host's configuration and condor_submit's version.
#[derive(Serialize, Deserialize)]
pub struct SubmitRequest {
    pub name: String,
    pub text: String,
    pub files: Vec<(String, String)>,
    /// `KEY = VALUE` lines.
    pub config: String,
    /// 24 or 25.
    pub htcondor: u32,
    pub cluster: i64,
    pub qdate: i64,
    pub max_procs: usize,
}

/// A problem at a line of the submit file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmitProblem {
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub warning: bool,
}

/// The answer: the job ads as text (new syntax, every attribute under a
/// comment naming its origin), how many, and condor_submit's messages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Submitted {
    pub ads: String,
    pub procs: usize,
    pub problems: Vec<SubmitProblem>,
    /// Why procs were left out, when the bound stopped the queue.
    pub cut: Option<String>,
}

impl Submitted {
    pub fn refused(&self) -> bool {
        self.problems.iter().any(|p| !p.warning)
    }
}

/// Whether a pool's text is a submit description file rather than ads:
/// a `queue` (or `iterate`) statement, `key = value` lines, no `[` ad.
pub fn looks_like_submit(text: &str) -> bool {
    let mut queue = false;
    let mut assignments = 0;
    for l in text.lines().take(5000) {
        let t = l.trim_start();
        if t.starts_with('[') || t.starts_with('{') || t.starts_with('<') {
            return false;
        }
        let lower = t.get(..7).unwrap_or(t).to_ascii_lowercase();
        if lower.starts_with("queue") || lower.starts_with("iterate") {
            queue = true;
        } else if t.contains('=') && !t.starts_with('#') {
            assignments += 1;
        }
    }
    queue && assignments > 0
}

/// Run a request (in the worker: the page never calls it, so its wasm
/// links none of the submit layer).
pub fn answer(r: &SubmitRequest) -> Submitted {
    use classad::submit::{self, HtcVersion, SubmitConfig};
    let mut config = SubmitConfig::default_host();
    config.version = if r.htcondor == 24 {
        HtcVersion::V24
    } else {
        HtcVersion::V25
    };
    for line in r.config.lines() {
        if let Some((k, v)) = line.split_once('=') {
            if !k.trim().is_empty() && !k.trim_start().starts_with('#') {
                config.set(k, v);
            }
        }
    }
    let files = |name: &str| {
        r.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
    };
    let names: Vec<String> = r.files.iter().map(|(n, _)| n.clone()).collect();
    let input = submit::SubmitInput {
        name: &r.name,
        text: &r.text,
        files: &files,
        names: &names,
        config,
        cluster: r.cluster,
        qdate: r.qdate,
        owner: None,
        iwd: "/home/you/submit".into(),
        env: Default::default(),
        max_procs: r.max_procs,
        dir_exists: None,
    };
    let out = submit::submit(&input);
    let mut problems: Vec<SubmitProblem> = Vec::new();
    let mut add = |line: u32, column: u32, message: &str, warning: bool| {
        let p = SubmitProblem {
            line,
            column,
            message: message.to_string(),
            warning,
        };
        if !problems.contains(&p) {
            problems.push(p);
        }
    };
    for e in &out.errors {
        add(e.line, e.column, &e.message, false);
    }
    for j in &out.jobs {
        for e in &j.built.errors {
            add(e.line, e.column, &e.message, false);
        }
        for w in &j.built.warnings {
            add(w.line, w.column, &w.message, true);
        }
    }
    for w in &out.warnings {
        add(w.line, w.column, &w.message, true);
    }
    let mut ads = String::new();
    for j in &out.jobs {
        let heading = format!(
            "job {}.{} (queue statement on line {} of {})",
            r.cluster, j.proc, j.queue_line, r.name
        );
        ads.push_str(&classad::submit::explain::commented_ad(&j.built, &heading));
    }
    Submitted {
        ads,
        procs: out.jobs.len(),
        problems,
        cut: out.cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submit_file_is_told_from_ads_and_made_into_commented_job_ads() {
        assert!(looks_like_submit("executable = /bin/true\nqueue 2\n"));
        assert!(!looks_like_submit("[ a = 1 ]\n"));
        assert!(!looks_like_submit("Name = \"slot1\"\nMemory = 1024\n"));
        let r = SubmitRequest {
            name: "job.sub".into(),
            text: "executable = /bin/true\nrequest_memory = 2GB\ninclude : common\nqueue n from rows\n".into(),
            files: vec![("common".into(), "request_cpus = 2\n".into()), ("rows".into(), "1\n2\n".into())],
            config: "ARCH = X86_64\nOPSYS = LINUX\n".into(),
            htcondor: 25,
            cluster: 3,
            qdate: 1_700_000_000,
            max_procs: 100,
        };
        let s = answer(&r);
        assert_eq!(s.procs, 2, "{:?}", s.problems);
        assert!(s
            .ads
            .contains("// job 3.1 (queue statement on line 4 of job.sub)"));
        assert!(
            s.ads
                .contains("  // line 2: request_memory\n  RequestMemory = 2048;"),
            "{}",
            s.ads
        );
        assert!(s.ads.contains("  RequestCpus = 2;"));
        // The text reads back as ads.
        let pool = classad::formats::read_pool(&s.ads, Default::default(), Default::default());
        assert_eq!(pool.ads.len(), 2);
        assert!(!pool.diagnostics.iter().any(|d| d.is_error()));
        let bad = answer(&SubmitRequest {
            text: "queue x y z in\n".into(),
            ..r
        });
        assert!(bad.refused());
        assert_eq!(bad.problems[0].line, 1);
    }
}
