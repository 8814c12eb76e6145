//! The worker's answer to `submit`: a submit file run through the engine's
//! submit language and job builder (`classad::submit`), the job ads written
//! with their origins (`bridge/submit.rs` has the wire types).

use crate::bridge::submit::{SubmitProblem, SubmitRequest, Submitted};

/// The submit time (`QDate`): the chosen clock read as UTC wall time,
/// else `now` to the minute (the ads do not change as the seconds go by).
pub fn submit_time(clock: Option<&str>, now: i64) -> i64 {
    let wall = clock.and_then(|w| {
        let (date, time) = w.split_once('T')?;
        let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
        let (y, m, day) = (d.next()??, d.next()??, d.next()??);
        let mut t = time.split(':').map(|x| x.parse::<i64>().ok());
        let (h, min) = (t.next()??, t.next()??);
        Some(classad::lang::time::days_from_civil(y, m, day) * 86_400 + h * 3600 + min * 60)
    });
    wall.unwrap_or(now.div_euclid(60) * 60)
}

/// Run a request.
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
        qdate: submit_time(r.clock.as_deref(), r.now),
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
    fn a_chosen_clock_is_read_as_utc_wall_time() {
        assert_eq!(submit_time(Some("2026-01-01T00:00"), 0), 1_767_225_600);
        assert_eq!(submit_time(Some("2023-11-14T22:13"), 0), 1_700_000_000 - 20);
        assert_eq!(submit_time(Some("2000-03-01T12:30"), 0), 951_913_800);
        assert_eq!(submit_time(None, 1_700_000_059), 1_700_000_040);
        assert_eq!(
            submit_time(Some("not a time"), 1_700_000_000),
            1_699_999_980
        );
    }

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
