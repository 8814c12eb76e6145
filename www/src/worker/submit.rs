//! The worker's answer to `submit`: a submit file run through the engine's
//! submit language and job builder (`classad::submit`), the job ads written
//! with their origins (`bridge/submit.rs` has the wire types).

use crate::bridge::submit::{SubmitProblem, SubmitRequest, Submitted};

/// Run a request.
pub fn answer(r: &SubmitRequest) -> Submitted {
    let out = r.run();
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
    let made = out
        .jobs
        .first()
        .map(|j| classad::submit::explain::lines_made(&j.built))
        .unwrap_or_default()
        .into_iter()
        .map(|m| {
            let mut row = format!("{}\t{}", m.line, m.key);
            for w in m.made {
                row.push('\t');
                row.push_str(&w.replace(['\t', '\n'], " "));
            }
            row + "\n"
        })
        .collect();
    Submitted {
        ads,
        procs: out.jobs.len(),
        problems,
        cut: out.cut,
        made,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submit_file_is_made_into_commented_job_ads() {
        let r = SubmitRequest {
            name: "job.sub".into(),
            text: "executable = /bin/true\nrequest_memory = 2GB\ninclude : common\nqueue n from rows\n".into(),
            files: vec![("common".into(), "request_cpus = 2\n".into()), ("rows".into(), "1\n2\n".into())],
            config: "ARCH = X86_64\nOPSYS = LINUX\n".into(),
            htcondor: 25,
            cluster: 3,
            clock: None,
            now: 1_700_000_000,
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
