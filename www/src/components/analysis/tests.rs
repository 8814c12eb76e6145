//! The worker's answers on the paper's pools (seed 000 §3), read into the
//! mirrors (`answers`) and used as the view uses them; the gallery's
//! analyzer entries open on their job.

use crate::components::analysis::answers::{AnalysisWords, ChangedAttributes};
use classad::api::session::{handle_pool_json, Session};

use crate::components::analysis::answers::AnalysisView;
use crate::components::analysis::edits::apply_suggestion;
use crate::components::analysis::lattice::Mark;
use crate::components::analysis::plane::plane_extents;
use crate::state::analyzer_settings::Edits;

/// What the worker answers to a session request.
fn ask(s: &mut Session, json: serde_json::Value) -> String {
    handle_pool_json(s, &json.to_string(), &mut |_, _| true)
}

fn analyze(name: &str, extra: serde_json::Value) -> AnalysisView {
    let read = |f: &str| {
        std::fs::read_to_string(format!(
            "{}/../tests/analysis/{f}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let mut s = Session::new();
    for (id, f) in [
        ("j", format!("{name}_job.classad")),
        ("m", format!("{name}_machines.classad")),
    ] {
        ask(
            &mut s,
            // The papers' figures: the seed papers' notation (`100M`).
            serde_json::json!({"op": "load_pool", "id": id, "text": read(&f), "dialect": "seed"}),
        );
    }
    let mut req = serde_json::json!({"op": "analyze", "jobs": "j", "machines": "m", "job": 0});
    if let (Some(r), Some(x)) = (req.as_object_mut(), extra.as_object()) {
        r.extend(x.clone());
    }
    let json = ask(&mut s, req);
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// Each analyzer entry of the gallery opens on its job (pool 0, ad 0)
/// against its machines, and the worker analyzes it.
#[test]
fn gallery_entries_open_on_their_job() {
    let entries: Vec<_> = crate::state::examples::examples()
        .iter()
        .filter(|e| e.view == crate::state::app_state::View::Analyze)
        .collect();
    assert_eq!(entries.len(), 8);
    for ex in entries {
        let st = crate::worker::gallery::state_of(&ex.id).unwrap();
        let (jobs, machines) = crate::state::pool_roles::pick_pools(&st.pools, &st.matching);
        let (Some(jobs), Some(machines)) = (jobs, machines) else {
            panic!("{}: no jobs or machines pool", ex.id)
        };
        assert_eq!(st.analyze.job, 0, "{}", ex.id);
        let mut s = Session::new();
        for (id, p) in [("j", &st.pools[jobs]), ("m", &st.pools[machines])] {
            ask(
                &mut s,
                serde_json::json!({"op": "load_pool", "id": id, "text": &*p.text, "dialect": st.dialect}),
            );
        }
        // A jobs pool made from a submit file: the fixes come as its edits.
        let submit =
            crate::components::workbench::submit_bar::submit_pool_of(&st, &st.pools[jobs].name)
                .and_then(|i| crate::components::workbench::submit_bar::source_for(&st, i));
        let json = ask(
            &mut s,
            serde_json::json!({"op": "analyze", "jobs": "j", "machines": "m", "job": 0, "submit": submit}),
        );
        let v: AnalysisView =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}: {json}", ex.id));
        assert!(v.analysis.machines > 0 && !v.report.is_empty(), "{}", ex.id);
        assert_eq!(v.submit_fixes.is_some(), submit.is_some(), "{}", ex.id);
        if ex.id == "lesson-submit-idle" {
            // The lesson's claims: idle; line 13 without the capability
            // test or with 8.0 gives the two A100s; 16 GB the L40.
            assert_eq!(v.analysis.summary.matched, 0);
            let f = v.submit_fixes.unwrap();
            let edits = |x: &classad::api::session::SubmitFix| {
                x.edits
                    .iter()
                    .map(|e| (e.line, e.new.clone()))
                    .collect::<Vec<_>>()
            };
            let has = |line: u32, new: &str, willing: u64| {
                f.fixes
                    .iter()
                    .any(|x| edits(x) == vec![(line, new.to_string())] && x.willing == willing)
            };
            assert!(
                has(13, "requirements = CUDAGlobalMemoryMb >= 40000", 2),
                "{f:?}"
            );
            assert!(
                has(
                    13,
                    "requirements = CUDACapability >= 8.0 && CUDAGlobalMemoryMb >= 40000",
                    2
                ),
                "{f:?}"
            );
            assert!(has(11, "request_memory = 16384MB", 1), "{f:?}");
            assert_eq!(f.fixes[0].willing, 2);
        }
    }
}

#[test]
fn the_paper_examples_read() {
    let v = analyze("eight", serde_json::json!({}));
    let a = &v.analysis;
    assert_eq!((a.machines, a.summary.rejected_by_job), (8, 8));
    assert_eq!(
        a.clauses[0]
            .predicates
            .iter()
            .map(|p| p.matches)
            .collect::<Vec<_>>(),
        vec![2, 3, 4]
    );
    let m1 = a.suggestions.iter().find(|s| s.metric == "M1").unwrap();
    assert_eq!(
        (a.describe(m1).as_str(), m1.matches),
        ("REMOVE Arch == \"ALPHA\"", 2)
    );
    assert!(v.report.contains("Of 8 slots on 8 machines,"));
    // Applying it: the job's requirements now reject 8 - 2 machines.
    let e = apply_suggestion(&Edits::default(), &a.requirements_attribute, m1);
    let after = analyze("eight", serde_json::json!({"overrides": e.overrides}));
    assert_eq!(after.analysis.summary.rejected_by_job, 6);
    // Pinning Arch: no suggestion touches it.
    let pinned = analyze("eight", serde_json::json!({"fixed": [[0, 0]]}));
    assert!(pinned.analysis.clauses[0].predicates[0].fixed);
    assert!(!pinned.analysis.suggestions.is_empty());
    assert!(pinned
        .analysis
        .suggestions
        .iter()
        .all(|s| s.changes.iter().all(|c| c.predicate != 0)));

    // Figure 4: the lattice the worker sends marks as the paper draws.
    let v = analyze("figure4", serde_json::json!({}));
    assert_eq!(v.lattices.len(), 1);
    let rows = [0b0011usize, 0b0100, 0b1000];
    let figure4: Vec<bool> = (0..16).map(|s| rows.iter().any(|r| r & s == s)).collect();
    assert_eq!(v.lattices[0].succeeds, figure4);
    assert_eq!(v.lattices[0].predicates.len(), 4);
    assert_eq!(v.analysis.conflicts.len(), 5);
    // Its five minimal failing sets are the conflicts, its three maximal
    // succeeding sets the machines' rows.
    let count = |m: Mark| v.lattices[0].marks.iter().filter(|x| **x == m).count();
    assert_eq!((count(Mark::Mfs), count(Mark::Mss)), (5, 3));

    // Figure 5: a plane over the two attributes the machines constrain.
    let v = analyze("figure5", serde_json::json!({}));
    assert_eq!(v.plane_attributes, vec!["ImageSize", "MemoryRequirements"]);
    // No axes asked for: the engine draws the first two.
    let p = v.plane.as_ref().map(|p| (p.x.as_str(), p.y.as_str()));
    assert_eq!(p, Some(("ImageSize", "MemoryRequirements")));
    assert_eq!(v.analysis.job_changes.len(), 3);
    let v = analyze(
        "figure5",
        serde_json::json!({"plane": ["ImageSize", "MemoryRequirements"]}),
    );
    let p = v.plane.unwrap();
    assert_eq!(
        (p.x.as_str(), p.y.as_str()),
        ("ImageSize", "MemoryRequirements")
    );
    assert_eq!(p.job, (Some(100.0 * 1048576.0), Some(600.0 * 1048576.0)));
    // Cells for {c1}, {c2} and both; [64M, 128M) × [1G, ∞) is c2's.
    let mut counts: Vec<u64> = p.cells.iter().map(|c| c.machines).collect();
    counts.sort();
    assert!(
        counts.contains(&2) && counts.iter().filter(|&&c| c == 1).count() >= 2,
        "{counts:?}"
    );
    let (x, y) = plane_extents(&p);
    assert!(x.lo < 64.0 * 1048576.0 && x.hi > 128.0 * 1048576.0);
    assert!(y.lo < 512.0 * 1048576.0 && y.hi > 1024.0 * 1048576.0);

    // §3.3: the third example's job change.
    let v = analyze("analyze3", serde_json::json!({}));
    let a = &v.analysis;
    assert_eq!((a.summary.rejected_by_job, a.summary.reject_job), (807, 30));
    assert_eq!(
        a.job_changes[0].changes(),
        vec![("ImageSize".to_string(), "1220608".to_string())]
    );
    // Bad input is a message, not a panic.
    let mut s = Session::new();
    let json = ask(
        &mut s,
        serde_json::json!({"op": "analyze", "jobs": "j", "machines": "m", "job": 0}),
    );
    assert!(serde_json::from_str::<AnalysisView>(&json).is_err());
    assert!(json.contains("failed"), "{json}");
}
