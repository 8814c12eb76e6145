//! Bilateral matching and the negotiation cycle: agreement with
//! libclassad's symmetric match on every pair of generated pools, the
//! cycle's invariants as property tests, and the seed papers' examples.

use std::sync::Arc;

use classad::matchmaking::matching::{accepts, symmetric_match, DEFAULT_REQUIREMENTS};
use classad::matchmaking::negotiate::{augment, negotiate, root_order, NegotiationConfig, Reason};
use classad::{parse_classad, ClassAd, Clock, EvalOptions, Evaluator, Expr, Value};
use proptest::prelude::*;

#[derive(serde::Deserialize)]
struct Pairs {
    jobs: Vec<String>,
    machines: Vec<String>,
    symmetric_match: Vec<String>,
}

fn pairs() -> (Vec<Arc<ClassAd>>, Vec<Arc<ClassAd>>, Vec<Vec<bool>>) {
    let text = include_str!("matching/pairs.json");
    let p: Pairs = serde_json::from_str(text).unwrap();
    let ads = |v: &[String]| {
        v.iter()
            .map(|t| Arc::new(parse_classad(t).unwrap()))
            .collect()
    };
    let m = p
        .symmetric_match
        .iter()
        .map(|r| r.chars().map(|c| c == '1').collect())
        .collect();
    (ads(&p.jobs), ads(&p.machines), m)
}

#[test]
fn every_pair_agrees_with_libclassad() {
    let (jobs, machines, expected) = pairs();
    let mut ev = Evaluator::new(EvalOptions::default());
    let mut wrong = Vec::new();
    for (j, job) in jobs.iter().enumerate() {
        for (m, machine) in machines.iter().enumerate() {
            let ours = symmetric_match(&mut ev, job, machine).matched();
            if ours != expected[j][m] {
                wrong.push(format!(
                    "job {j} × machine {m}: ours {ours}, libclassad {}",
                    expected[j][m]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} pairs disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn with_attrs(ad: &ClassAd, extra: &[(&str, Value)]) -> Arc<ClassAd> {
    let mut a = ad.clone();
    for (n, v) in extra {
        a.insert_value(n, v.clone());
    }
    Arc::new(a)
}

fn check_cycle(jobs: &[Arc<ClassAd>], machines: &[Arc<ClassAd>], cfg: &NegotiationConfig) {
    let r = negotiate(jobs, machines, cfg, |_, _| true);
    let req: Vec<&str> = DEFAULT_REQUIREMENTS.to_vec();
    let mut ev = Evaluator::new(cfg.opts);
    // The order follows the root ordering.
    let order = root_order(jobs, cfg);
    let seen: Vec<usize> = r.outcomes.iter().map(|o| o.job).collect();
    assert_eq!(seen, order);
    let mut used = vec![false; machines.len()];
    for o in &r.outcomes {
        let job = &jobs[o.job];
        match o.machine {
            Some(m) => {
                // Every match satisfies both requirements; no machine twice.
                assert!(
                    accepts(&mut ev, job, &machines[m], &req),
                    "job {} rejects its machine",
                    o.job_id
                );
                assert!(
                    accepts(&mut ev, &machines[m], job, &req),
                    "machine rejects job {}",
                    o.job_id
                );
                assert!(!used[m], "machine {m} used twice");
                used[m] = true;
            }
            None => {
                // The reason's counts, worked out the slow way over the
                // whole pool as it was when the job's turn came.
                let job_accepts: Vec<bool> = machines
                    .iter()
                    .map(|m| accepts(&mut ev, job, m, &req))
                    .collect();
                let machine_accepts: Vec<bool> = machines
                    .iter()
                    .map(|m| accepts(&mut ev, m, job, &req))
                    .collect();
                let compatible = (0..machines.len())
                    .filter(|&m| job_accepts[m] && machine_accepts[m])
                    .count();
                let free_compatible = (0..machines.len())
                    .filter(|&m| job_accepts[m] && machine_accepts[m] && !used[m])
                    .count();
                let count = |v: &[bool]| v.iter().filter(|&&b| b).count();
                let expected = if machines.is_empty() {
                    Reason::NoMachines
                } else if compatible > 0 && free_compatible == 0 {
                    Reason::AllTaken {
                        compatible: Some(compatible),
                    }
                } else if compatible > 0 {
                    Reason::NoValidVector {
                        compatible: free_compatible,
                    }
                } else if count(&job_accepts) == 0 {
                    Reason::JobRejectsAll
                } else if count(&machine_accepts) == 0 {
                    Reason::MachinesRejectJob
                } else {
                    Reason::NoMutualMatch {
                        job_accepts: count(&job_accepts),
                        machines_accept: count(&machine_accepts),
                    }
                };
                if !matches!(o.reason, Reason::SkippedCluster { .. }) {
                    assert_eq!(o.reason, expected, "job {}", o.job_id);
                }
                // Unmatched: no free machine was compatible (with a valid
                // docking vector) when its turn came.
                for (m, machine) in machines.iter().enumerate() {
                    if used[m] {
                        continue;
                    }
                    if accepts(&mut ev, job, machine, &req) && accepts(&mut ev, machine, job, &req)
                    {
                        ev.set_ads(Some(job.clone()), Some(machine.clone()));
                        let valid = cfg.docking_vector.iter().all(|e: &Expr| {
                            matches!(
                                ev.eval_expr(e),
                                Value::Int(_) | Value::Real(_) | Value::Bool(_)
                            )
                        });
                        assert!(
                            !valid,
                            "job {} left unmatched but machine {m} was free and compatible ({:?})",
                            o.job_id, o.reason
                        );
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn cycle_invariants_hold(
        job_pick in proptest::collection::vec((0usize..60, 0i64..5, 0i64..1000, 0i64..3), 1..25),
        machine_pick in proptest::collection::vec((0usize..60, proptest::bool::ANY), 0..25),
    ) {
        let (jobs, machines, _) = pairs();
        let jobs: Vec<Arc<ClassAd>> = job_pick.iter().enumerate().map(|(i, (j, prio, qdate, up))| {
            with_attrs(&jobs[*j], &[
                ("JobPrio", Value::Int(*prio)),
                ("QDate", Value::Int(*qdate)),
                ("SubmitterUserPrio", Value::Real(*up as f64 + 0.5)),
                ("UserPrio", Value::Real(*up as f64 + 0.5)),
                ("ProcId", Value::Int(i as i64)),
            ])
        }).collect();
        let machines: Vec<Arc<ClassAd>> = machine_pick.iter().map(|(m, claimed)| {
            if *claimed {
                with_attrs(&machines[*m], &[
                    ("RemoteUser", Value::str("zed@example.org")),
                    ("CurrentRank", Value::Int(0)),
                    ("Rank", Value::Int(1)),
                    ("RemoteUserPrio", Value::Real(10.0)),
                    ("ServiceTime", Value::Int(20000)),
                ])
            } else {
                machines[*m].clone()
            }
        }).collect();
        let naive = NegotiationConfig { autocluster: None, ..Default::default() };
        check_cycle(&jobs, &machines, &naive);
        let clustered = NegotiationConfig::default();
        check_cycle(&jobs, &machines, &clustered);
        // Auto-clustering changes the work, not the answer.
        let a = negotiate(&jobs, &machines, &naive, |_, _| true);
        let b = negotiate(&jobs, &machines, &clustered, |_, _| true);
        let pick = |r: &classad::matchmaking::negotiate::CycleResult| r.outcomes.iter().map(|o| (o.job, o.machine)).collect::<Vec<_>>();
        prop_assert_eq!(pick(&a), pick(&b));
    }
}

fn seed(file: &str) -> Arc<ClassAd> {
    let path = format!("{}/../tests/seeds/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let pool = classad::formats::read_pool(&text, Default::default(), classad::Dialect::Seed);
    Arc::new(pool.ads.into_iter().next().unwrap().ad)
}

#[test]
fn coleman_figures_2_and_3_match_when_the_load_is_low() {
    let machine = seed("000_fig02.classad");
    let job = seed("000_fig03.classad");
    let mut ev = Evaluator::new(EvalOptions::default());
    assert!(symmetric_match(&mut ev, &machine, &job).matched());
    let busy = with_attrs(&machine, &[("LoadAvg", Value::Real(0.5))]);
    let o = symmetric_match(&mut ev, &busy, &job);
    assert!(!o.left_accepts && o.right_accepts);
    let r = negotiate(&[job], &[machine], &NegotiationConfig::default(), |_, _| {
        true
    });
    assert_eq!(r.outcomes[0].reason, Reason::Matched);
}

#[test]
fn thesis_figure_4_depends_on_the_time_of_day() {
    let machine = seed("001_fig04.classad");
    let owner =
        |o: &str| Arc::new(parse_classad(&format!("[ Owner = \"{o}\"; Type = \"Job\" ]")).unwrap());
    let at = |hour: f64| EvalOptions {
        clock: Clock::fixed(946_684_800.0 + hour * 3600.0, 0),
        ..Default::default()
    };
    let req = ["Constraint"];
    for (who, hour, expect) in [
        ("raman", 12.0, true),     // research group: always
        ("calvin", 12.0, true),    // a friend: when idle (23 min > 15, load 0.04)
        ("stranger", 12.0, false), // others: only at night
        ("stranger", 20.0, true),
        ("stranger", 3.0, true),
        ("riffraff", 12.0, false), // untrusted: not by day
        // The text says "never", but as written the night clause admits
        // riffraff too (Rank is 0, so the last branch decides).
        ("riffraff", 20.0, true),
    ] {
        let mut ev = Evaluator::new(at(hour));
        let got = accepts(&mut ev, &machine, &owner(who), &req);
        assert_eq!(got, expect, "{who} at {hour}h");
    }
}

#[test]
fn condor_g_site_selection_uses_the_pool_function_and_fills_placeholders() {
    let dir = format!("{}/../tests/corpora/grid", env!("CARGO_MANIFEST_DIR"));
    let read = |f: &str| {
        let text = std::fs::read_to_string(format!("{dir}/{f}")).unwrap();
        classad::formats::read_pool(&text, Default::default(), Default::default())
            .ads
            .into_iter()
            .map(|a| Arc::new(a.ad))
            .collect::<Vec<_>>()
    };
    let (jobs, sites, lib) = (
        read("jobs.classad"),
        read("sites.classad"),
        read("functions.classad"),
    );
    let fns = classad::matchmaking::userfn::UserFunctions::from_ad(&lib[0]).unwrap();
    let cfg = NegotiationConfig {
        functions: Some(Arc::new(fns)),
        ..Default::default()
    };
    let r = negotiate(&jobs, &sites, &cfg, |_, _| true);
    // Toronto caches 120 files of the dataset, Fermilab 15: Toronto wins.
    assert_eq!(
        r.outcomes[0].machine_name.as_deref(),
        Some("cdf-toronto.cdf.prd")
    );
    assert_eq!(r.outcomes[0].vector[0], "120");
    let aug = augment(&r, &jobs, &sites, cfg.opts);
    assert!(aug[0].changed.contains(&(
        "GlobusResource".into(),
        "\"gk.toronto.example:2119/jobmanager\"".into()
    )));
    assert!(aug[0]
        .changed
        .contains(&("Stage".into(), "\"/tmp\"".into())));
    // Without the function library the rank is error, which counts as 0:
    // the first site in pool order is taken.
    let bare = negotiate(&jobs, &sites, &NegotiationConfig::default(), |_, _| true);
    assert_eq!(bare.outcomes[0].vector[0], "0");
}

#[test]
fn unmatched_jobs_say_why() {
    let m = Arc::new(
        parse_classad(r#"[ Name = "m"; Memory = 100; Requirements = TARGET.Owner == "a" ]"#)
            .unwrap(),
    );
    let job = |owner: &str, mem: i64| {
        Arc::new(
            parse_classad(&format!(
                r#"[ Owner = "{owner}"; Requirements = TARGET.Memory >= {mem} ]"#
            ))
            .unwrap(),
        )
    };
    let cfg = NegotiationConfig {
        autocluster: None,
        ..Default::default()
    };
    let r = negotiate(
        &[job("a", 1), job("a", 1), job("b", 1), job("a", 1000)],
        &[m],
        &cfg,
        |_, _| true,
    );
    let reasons: Vec<&Reason> = r.outcomes.iter().map(|o| &o.reason).collect();
    assert_eq!(reasons[0], &Reason::Matched);
    assert_eq!(
        reasons[1],
        &Reason::AllTaken {
            compatible: Some(1)
        }
    );
    assert_eq!(reasons[2], &Reason::MachinesRejectJob);
    assert_eq!(reasons[3], &Reason::JobRejectsAll);
    let none = negotiate(&[job("a", 1)], &[], &cfg, |_, _| true);
    assert_eq!(none.outcomes[0].reason, Reason::NoMachines);
}

#[test]
fn session_answers_pool_requests_as_json() {
    use classad::api::session::{handle_pool_json, Session};
    let mut s = Session::new();
    let mut progress = |_: usize, _: usize| true;
    let machines = r#"[ Name = "a"; Memory = 100; Requirements = TARGET.Owner != "x"; Rank = 1 ]
[ Name = "b"; Memory = 10; Requirements = true ]"#;
    let jobs = r#"[ ClusterId = 1; ProcId = 0; Owner = "x"; Requirements = TARGET.Memory > 50 ]
[ ClusterId = 1; ProcId = 1; Owner = "y"; Requirements = TARGET.Memory > 50; Rank = TARGET.Memory ]"#;
    let load = |id: &str, text: &str| {
        serde_json::json!({"op": "load_pool", "id": id, "text": text}).to_string()
    };
    let r = handle_pool_json(&mut s, &load("m", machines), &mut progress);
    assert!(r.contains(r#""ads":2"#), "{r}");
    handle_pool_json(&mut s, &load("j", jobs), &mut progress);
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"match_window","jobs":"j","machines":"m","rows":[0,2],"cols":[0,2]}"#,
        &mut progress,
    );
    // job 0 × a: machine rejects (2); job 0 × b: job rejects (1); job 1 × a: both accept (0).
    assert!(r.contains(r#""cells":[2,1,0,1]"#), "{r}");
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"negotiate","jobs":"j","machines":"m","autocluster":true,"detail":true}"#,
        &mut progress,
    );
    // The cycle as the views show it: machines by index, reasons in words.
    let v: serde_json::Value = serde_json::from_str(&r).unwrap();
    assert_eq!(v["kind"], "cycle", "{v}");
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes[0]["job_id"], "1.0");
    assert_eq!(outcomes[0]["machine"], serde_json::Value::Null);
    let reason = outcomes[0]["reason"].as_u64().unwrap() as usize;
    assert_eq!(
        v["reasons"][reason],
        "The job accepts 1 machine and 1 machine accepts it, but never both"
    );
    assert_eq!(outcomes[1]["machine"], 0);
    assert_eq!(outcomes[1]["considered"][0]["machine"], 0);
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"pair","jobs":"j","machines":"m","job":1,"machine":0}"#,
        &mut progress,
    );
    assert!(
        r.contains(r#""job_rank":"100""#) && r.contains("job_requirements"),
        "{r}"
    );
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"negotiate","jobs":"nope","machines":"m"}"#,
        &mut progress,
    );
    assert!(r.contains("is not loaded"), "{r}");
    // A job's candidates at its turn, asked for afterwards: job 1.1 with
    // nothing taken has machine a; with a taken, none.
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"candidates","jobs":"j","machines":"m","job":1,"taken":[]}"#,
        &mut progress,
    );
    assert!(
        r.contains(r#""kind":"candidates","job":1,"count":1"#),
        "{r}"
    );
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"candidates","jobs":"j","machines":"m","job":1,"taken":[0]}"#,
        &mut progress,
    );
    assert!(r.contains(r#""count":0"#), "{r}");
    let r = handle_pool_json(
        &mut s,
        r#"{"op":"candidates","jobs":"j","machines":"m","job":7,"taken":[]}"#,
        &mut progress,
    );
    assert!(r.contains("has no job 8"), "{r}");
}

#[test]
fn detail_can_be_kept_for_the_first_jobs_only() {
    let m = |name: &str| {
        Arc::new(
            parse_classad(&format!(
                r#"[ Name = "{name}"; Memory = 100; Requirements = true ]"#
            ))
            .unwrap(),
        )
    };
    let job = |owner: &str| {
        Arc::new(
            parse_classad(&format!(
                r#"[ Owner = "{owner}"; Requirements = TARGET.Memory >= 1 ]"#
            ))
            .unwrap(),
        )
    };
    let jobs = [job("a"), job("b"), job("c")];
    let machines = [m("m1"), m("m2"), m("m3")];
    let all = NegotiationConfig {
        autocluster: None,
        detail: true,
        ..Default::default()
    };
    let first_two = NegotiationConfig {
        detail_jobs: Some(2),
        ..all.clone()
    };
    let every = negotiate(&jobs, &machines, &all, |_, _| true);
    let some = negotiate(&jobs, &machines, &first_two, |_, _| true);
    let shown = |r: &classad::matchmaking::negotiate::CycleResult| -> Vec<usize> {
        r.outcomes.iter().map(|o| o.considered.len()).collect()
    };
    assert_eq!(shown(&every), [3, 3, 3]);
    assert_eq!(shown(&some), [3, 3, 0]);
    // The cycle itself is the same.
    let picks = |r: &classad::matchmaking::negotiate::CycleResult| -> Vec<Option<usize>> {
        r.outcomes.iter().map(|o| o.machine).collect()
    };
    assert_eq!(picks(&every), picks(&some));
}

/// The index (thesis ch. 4) narrows each job's survey to a superset of its
/// compatible machines: every cycle gives the same assignment and the same
/// reasons with it as without, naive and auto-clustered.
#[test]
fn the_index_changes_no_outcome() {
    use classad::index::negotiation::IndexedMachines;
    use classad::matchmaking::negotiate::negotiate_with;
    let (jobs, machines, _) = pairs();
    let wl_machines =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::machines(600, 7));
    let wl_jobs =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(500, 8));
    for (jobs, machines) in [(&jobs, &machines), (&wl_jobs, &wl_machines)] {
        for auto in [false, true] {
            let mut cfg = NegotiationConfig::default();
            if !auto {
                cfg.autocluster = None;
            }
            let plain = negotiate(jobs, machines, &cfg, |_, _| true);
            let mut source = IndexedMachines::build(jobs, machines, &cfg);
            let indexed = negotiate_with(jobs, machines, &cfg, &mut source, |_, _| true);
            let outcome = |r: &classad::matchmaking::negotiate::CycleResult| -> Vec<String> {
                r.outcomes
                    .iter()
                    .map(|o| format!("{} {:?} {:?} {:?}", o.job, o.machine, o.vector, o.reason))
                    .collect()
            };
            assert_eq!(outcome(&plain), outcome(&indexed), "auto-clustered: {auto}");
            assert!(plain.matched > 0);
            assert!(
                indexed.pair_evaluations < plain.pair_evaluations,
                "{} !< {}",
                indexed.pair_evaluations,
                plain.pair_evaluations
            );
        }
    }
}

#[test]
fn match_stats_go_to_stderr_and_change_nothing_else() {
    let run = |extra: &[&str]| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpora/grid");
        std::process::Command::new(env!("CARGO_BIN_EXE_classad"))
            .args(["match", "--jobs", &format!("{dir}/jobs.classad")])
            .args(["--machines", &format!("{dir}/sites.classad")])
            .args(["--functions", &format!("{dir}/functions.classad")])
            .args(extra)
            .output()
            .expect("the CLI runs")
    };
    let (plain, stats) = (run(&[]), run(&["--stats"]));
    assert!(plain.status.success() && stats.status.success());
    assert_eq!(plain.stdout, stats.stdout);
    let err = String::from_utf8_lossy(&stats.stderr);
    assert!(
        err.starts_with("read ") && err.contains(" pair evaluations, "),
        "{err}"
    );
    assert!(plain.stderr.is_empty());
}
