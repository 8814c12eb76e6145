//! The classroom lessons of the gallery (`www/examples/ads/lessons/`) do
//! what their cards say (issue 32): each is negotiated as the page asks it
//! (a session, the cycle with its steps), and the claims are checked on
//! the answer — who gets which machine, whose job is preempted and by which
//! preemption, why a candidate is not eligible, which job no machine
//! accepts — and on the CLI's cycle, which must agree.

use classad::api::session::{handle_pool_json, CycleView, PreemptionKind, Session};

fn lesson(name: &str) -> CycleView {
    let read = |f: &str| {
        std::fs::read_to_string(format!(
            "{}/../www/examples/ads/lessons/{name}_{f}.classad",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let mut s = Session::new();
    for (id, f) in [("m", "machines"), ("j", "jobs")] {
        let r = handle_pool_json(
            &mut s,
            &serde_json::json!({"op": "load_pool", "id": id, "text": read(f)}).to_string(),
            &mut |_, _| true,
        );
        assert!(r.contains("\"loaded\""), "{r}");
    }
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"negotiate","jobs":"j","machines":"m","autocluster":true,"detail":true}"#,
        &mut |_, _| true,
    );
    serde_json::from_str(&r).unwrap_or_else(|e| panic!("{e}: {r}"))
}

/// `(job id, machine name or "-")` per outcome, from the CLI.
fn cli(name: &str) -> Vec<(String, String)> {
    let dir = format!("{}/../www/examples/ads/lessons", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_classad"))
        .args([
            "match",
            // The lessons teach the thesis' Figure 9 vector.
            "--policy",
            "thesis",
            "--jobs",
            &format!("{dir}/{name}_jobs.classad"),
            "--machines",
            &format!("{dir}/{name}_machines.classad"),
        ])
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut w = l.split(' ');
            (w.next().unwrap().to_string(), w.next().unwrap().to_string())
        })
        .collect()
}

fn got(v: &CycleView) -> Vec<(String, Option<usize>)> {
    v.outcomes
        .iter()
        .map(|o| (o.job_id.clone(), o.machine))
        .collect()
}

#[test]
fn an_idle_job_names_the_step_that_took_its_machine() {
    let v = lesson("idle");
    // Machines: 0 big@lab, 1 small@lab.
    assert_eq!(
        got(&v),
        [
            ("1.0".into(), Some(0)),
            ("2.0".into(), None),
            ("3.0".into(), Some(1))
        ]
    );
    let idle = &v.outcomes[1];
    assert_eq!(idle.considered.len(), 1);
    assert_eq!(idle.considered[0].machine, 0);
    assert_eq!(
        v.reason(idle),
        "Its 1 compatible machine was matched to an earlier job"
    );
    assert!(v.claimed.is_empty(), "every machine is idle");
    assert_eq!(
        cli("idle"),
        [
            ("1.0".into(), "big@lab".into()),
            ("2.0".into(), "-".into()),
            ("3.0".into(), "small@lab".into())
        ]
    );
}

#[test]
fn rank_preemption_says_whose_job_and_why() {
    let v = lesson("rank");
    assert_eq!(got(&v), [("1.0".into(), Some(0)), ("2.0".into(), Some(1))]);
    assert_eq!(v.claimed, [(0, "dave@lab".to_string())]);
    let p = v.outcomes[0].preempts.as_ref().expect("alice preempts");
    assert_eq!(p.kind, PreemptionKind::Rank);
    assert_eq!(p.user, "dave@lab");
    assert_eq!(
        p.why,
        "big@lab ranks this job 10, above the 0 of the job it runs"
    );
    assert_eq!(v.outcomes[0].vector[1], "1");
    assert_eq!(v.outcomes[1].preempts, None, "small@lab is idle");
    assert_eq!(
        cli("rank"),
        [
            ("1.0".into(), "big@lab".into()),
            ("2.0".into(), "small@lab".into())
        ]
    );
}

#[test]
fn priority_preemption_and_a_claim_neither_preemption_breaks() {
    let v = lesson("priority");
    assert_eq!(got(&v), [("1.0".into(), Some(0)), ("2.0".into(), None)]);
    assert_eq!(v.claimed.len(), 2);
    let p = v.outcomes[0].preempts.as_ref().expect("alice preempts");
    assert_eq!(p.kind, PreemptionKind::Priority);
    assert_eq!(
        p.why,
        "dave@lab's priority 50.0 is worse than this job's user's 10.0 by more than 10%"
    );
    assert_eq!(v.outcomes[0].vector[1], "0");
    // alice's own candidate node2@lab: claimed 10 minutes, no preemption.
    let why: Vec<&str> = v.outcomes[0]
        .vector_failures
        .iter()
        .map(|(_, w)| w.as_str())
        .collect();
    assert_eq!(
        why,
        ["the preemption policy is error: the machine is claimed and neither preemption applies"]
    );
    assert!(v.outcomes[1].machine.is_none());
    assert_eq!(
        cli("priority"),
        [
            ("1.0".into(), "node1@lab".into()),
            ("2.0".into(), "-".into())
        ]
    );
}

#[test]
fn a_job_no_machine_accepts_is_marked_for_the_analyzer() {
    let v = lesson("nobody");
    assert_eq!(got(&v), [("1.0".into(), Some(0)), ("2.0".into(), None)]);
    assert!(v.outcomes[1].unmatchable);
    assert!(!v.outcomes[0].unmatchable);
    assert_eq!(
        v.reason(&v.outcomes[1]),
        "The job's requirements accept no machine"
    );
}
