use std::sync::Arc;

use super::*;
use crate::analysis::fixes::count_job;
use crate::analysis::{analyze, AnalysisOptions};
use crate::lang::eval::EvalOptions;
use crate::submit::SubmitSource;

const SLOT: &str = r#"MyType = "Machine"; Arch = "X86_64"; OpSys = "LINUX"; Disk = 100000000; HasFileTransfer = true; Requirements = true; CondorVersion = "$CondorVersion: 25.0.0 2025-06-01 $""#;

fn machines(extra: &[&str]) -> Vec<Arc<ClassAd>> {
    extra
        .iter()
        .map(|e| Arc::new(crate::lang::parser::parse_classad(&format!("[ {SLOT}; {e} ]")).unwrap()))
        .collect()
}

/// The file's first job analyzed over the pool, its fixes as edits.
fn fixes_of(text: &str, pool: &[Arc<ClassAd>]) -> (SubmitFixes, SubmitSource) {
    let source = SubmitSource {
        name: "job.sub".into(),
        text: text.into(),
        htcondor: 25,
        cluster: 1,
        now: 1_700_000_000,
        max_procs: 10,
        ..Default::default()
    };
    let out = source.run();
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let j = &out.jobs[0];
    let ad = Arc::new(j.built.ad());
    let opts = EvalOptions::default();
    let a = analyze(&ad, pool, &AnalysisOptions::default()).unwrap();
    // As the page asks: the file's proc 0, checked against the analyzed job.
    let fixes = for_source(&source, 0, &ad, &a, &mut |job| {
        count_job(job, pool, None, opts)
    })
    .expect("the file makes the analyzed job");
    (fixes, source)
}

/// The edited file, submitted, matches where the fix says.
fn check(fix: &SubmitFix, source: &SubmitSource, pool: &[Arc<ClassAd>]) {
    let text = apply(&source.text, &fix.edits);
    let out = source.run_text(&text, 1);
    let ad = Arc::new(out.jobs[0].built.ad());
    let c = count_job(&ad, pool, None, EvalOptions::default());
    assert_eq!(
        (c.matches, c.both_ways, c.willing),
        (fix.matches, fix.both_ways, fix.willing),
        "{text}"
    );
}

#[test]
fn a_request_is_its_own_line_with_units() {
    let text = "executable = a.sh\nRequest_Memory = 16GB\nqueue\n";
    let pool = machines(&["Memory = 8192; Cpus = 1", "Memory = 4096; Cpus = 1"]);
    let (f, source) = fixes_of(text, &pool);
    let edit = |mb: u32| LineEdit {
        line: 2,
        lines: 1,
        old: "Request_Memory = 16GB".into(),
        new: format!("Request_Memory = {mb}MB"),
    };
    assert_eq!(f.fixes[0].edits, vec![edit(4096)]);
    assert_eq!(f.fixes[0].willing, 2);
    assert!(
        f.fixes
            .iter()
            .any(|x| x.edits == vec![edit(8192)] && x.willing == 1),
        "{f:?}"
    );
    for fix in &f.fixes {
        check(fix, &source, &pool);
    }
}

#[test]
fn a_requirements_fix_keeps_only_what_the_user_wrote() {
    let text = "executable = a.sh\nrequirements = (CUDACapability >= 8.6) && \\\n   HasGPU\nrequest_memory = 1GB\nqueue\n";
    let pool = machines(&[
        "Memory = 8192; Cpus = 1; HasGPU = true; CUDACapability = 8.0",
        "Memory = 8192; Cpus = 1; HasGPU = true; CUDACapability = 7.5",
    ]);
    let (f, source) = fixes_of(text, &pool);
    assert!(!f.fixes.is_empty(), "{f:?}");
    for fix in &f.fixes {
        let e = &fix.edits[0];
        // The continued statement is replaced whole, by the user's clauses alone.
        assert_eq!((e.line, e.lines), (2, 2), "{fix:?}");
        assert!(e.new.starts_with("requirements = "), "{}", e.new);
        assert!(
            !e.new.contains("RequestMemory") && !e.new.contains("Arch"),
            "{}",
            e.new
        );
        check(fix, &source, &pool);
    }
    assert!(f.fixes.iter().any(|x| x.willing == 2), "{f:?}");
}

#[test]
fn a_removed_clause_condor_submit_appends_is_undone() {
    let text = "executable = a.sh\nrequest_cpus = 2\nqueue\n";
    let pool = machines(&["Memory = 8192; Cpus = 1"]);
    let (f, source) = fixes_of(text, &pool);
    for fix in &f.fixes {
        // What works is the request, not a requirements line without the clause.
        assert!(
            fix.edits.iter().all(|e| !e.new.starts_with("requirements")),
            "{fix:?}"
        );
        check(fix, &source, &pool);
    }
    assert!(
        f.fixes.iter().any(|x| x.edits[0].new == "request_cpus = 1"),
        "{f:?}"
    );
    assert!(!f.undone.is_empty(), "{f:?}");
    for u in &f.undone {
        assert!(u.why.contains("TARGET.Cpus >= RequestCpus"), "{u:?}");
    }
}

#[test]
fn a_default_is_set_by_a_line_before_the_queue_statement() {
    let e = set_line(
        &SubmittedJob {
            file: "f",
            text: "executable = a\n\nqueue 3\n",
            built: &BuiltJob::default(),
            queue_line: 3,
        },
        "RequestDisk",
        "request_disk = 10KB",
    );
    assert_eq!(
        (e.line, e.lines, e.new.as_str()),
        (3, 0, "request_disk = 10KB")
    );
    assert_eq!(
        apply("executable = a\n\nqueue 3", &[e]),
        "executable = a\n\nrequest_disk = 10KB\nqueue 3\n"
    );
}

#[test]
fn statements_span_their_continuations_and_tagged_values() {
    let t = "a = 1 \\\n  2 \\\n  3\nb @= END\nx\ny\n@END\nc = 4\n";
    assert_eq!(statement_lines(t, 1), 3);
    assert_eq!(statement_lines(t, 4), 4);
    assert_eq!(statement_lines(t, 8), 1);
    let edits = [
        LineEdit {
            line: 4,
            lines: 4,
            old: String::new(),
            new: "b = 2".into(),
        },
        LineEdit {
            line: 1,
            lines: 3,
            old: String::new(),
            new: String::new(),
        },
    ];
    assert_eq!(apply(t, &edits), "b = 2\nc = 4\n");
}
