//! NaN in every ordering the engine sorts by — job priorities, ranks,
//! docking vectors, gang root order, query sort keys — must neither panic
//! (Rust's sort aborts on a comparison that is not a total order) nor
//! depend on where the NaN sits: NaN ranks below every number
//! (`classad::rank_cmp`). Regression tests for the hostile-input sweep's
//! crashes, through the CLI as a user meets them.

use std::cmp::Ordering;
use std::path::PathBuf;
use std::process::{Command, Output};

use classad::lang::value::rank_cmp;
use proptest::prelude::*;

fn write(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write a test file");
    p
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("classad-nan-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("make a scratch directory");
    d
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_classad"))
        .args(args)
        .output()
        .expect("run the classad CLI")
}

/// 30 jobs, every third with `JobPrio = real("NaN")`.
fn jobs() -> String {
    (0..30)
        .map(|i| {
            let prio = if i % 3 == 0 {
                "real(\"NaN\")".to_string()
            } else {
                i.to_string()
            };
            format!(
                "[ ClusterId = {i}; ProcId = 0; JobPrio = {prio}; K = {prio}; Memory = 10; \
                 Requirements = TARGET.Memory >= MY.Memory; Rank = TARGET.Memory ]\n"
            )
        })
        .collect()
}

fn machines() -> String {
    (0..10)
        .map(|i| {
            format!(
                "[ Name = \"m{i}\"; Memory = {}; Requirements = true; Rank = TARGET.K ]\n",
                100 + i
            )
        })
        .collect()
}

fn assert_clean(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{what} crashed (status {:?}): {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
}

#[test]
fn negotiation_with_nan_priorities_and_ranks_does_not_panic() {
    let d = scratch("match");
    let j = write(&d, "jobs.ad", &jobs());
    let m = write(&d, "machines.ad", &machines());
    let (j, m) = (j.to_str().unwrap(), m.to_str().unwrap());
    let out = cli(&["match", "--jobs", j, "--machines", m]);
    assert_clean(&out, "match");
    let text = String::from_utf8_lossy(&out.stdout);
    let order: Vec<&str> = text.lines().filter_map(|l| l.split(' ').next()).collect();
    // Highest priority first (29, 28, 26, …); the NaN jobs last, in file order.
    assert_eq!(order.first().copied(), Some("29.0"), "{text}");
    let tail: Vec<&str> = order.iter().rev().take(10).rev().copied().collect();
    let nan_jobs: Vec<String> = (0..30).step_by(3).map(|i| format!("{i}.0")).collect();
    assert_eq!(tail, nan_jobs, "NaN priorities sort last: {text}");
    for flag in ["--autocluster", "--count-candidates"] {
        assert_clean(&cli(&["match", "--jobs", j, "--machines", m, flag]), flag);
    }
}

#[test]
fn gang_root_order_with_nan_does_not_panic() {
    let d = scratch("gang");
    let j = write(&d, "requests.ad", &jobs());
    let m = write(&d, "offers.ad", &machines());
    let (j, m) = (j.to_str().unwrap(), m.to_str().unwrap());
    assert_clean(&cli(&["gang", "--requests", j, "--offers", m]), "gang");
    assert_clean(
        &cli(&["gang", "--requests", j, "--offers", m, "--root-order", "K"]),
        "gang --root-order K",
    );
}

#[test]
fn query_sort_on_nan_keys_does_not_panic() {
    let d = scratch("query");
    let j = write(&d, "jobs.ad", &jobs());
    let out = cli(&[
        "query",
        j.to_str().unwrap(),
        "--sort",
        "JobPrio",
        "--af",
        "ClusterId",
    ]);
    assert_clean(&out, "query --sort");
}

proptest! {
    /// `rank_cmp` is a total order on every f64, NaNs included.
    #[test]
    fn rank_cmp_is_a_total_order(
        v in prop::collection::vec(
            prop_oneof![any::<f64>(), Just(f64::NAN), Just(-f64::NAN), Just(f64::INFINITY),
                        Just(f64::NEG_INFINITY), Just(0.0), Just(-0.0)],
            1..40,
        )
    ) {
        for a in &v {
            prop_assert_eq!(rank_cmp(*a, *a), Ordering::Equal);
            for b in &v {
                prop_assert_eq!(rank_cmp(*a, *b), rank_cmp(*b, *a).reverse());
                for c in &v {
                    if rank_cmp(*a, *b) != Ordering::Greater && rank_cmp(*b, *c) != Ordering::Greater {
                        prop_assert_ne!(rank_cmp(*a, *c), Ordering::Greater);
                    }
                }
            }
        }
        let mut sorted = v.clone();
        sorted.sort_by(|a, b| rank_cmp(*a, *b));
        let nans = sorted.iter().take_while(|x| x.is_nan()).count();
        prop_assert_eq!(nans, v.iter().filter(|x| x.is_nan()).count(), "NaN sorts lowest");
    }
}
