//! One machine against the queue (`condor_q -reverse-analyze`): the slot's
//! Requirements step by step over one job per auto-cluster (weighted by the
//! cluster's size), and how many jobs each side accepts.
//!
//! Clusters are formed without quantization and with the definitions the
//! machine reads followed into the jobs' own attributes, so a cluster's
//! jobs give the machine identical answers and the weighted counts are
//! exact; the totals are evaluated job by job all the same, and the steps
//! are recounted per job if the two ever disagree.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::steps::{render_for, steps_inlined, Step, StepOptions};
use crate::lang::ast::ClassAd;
use crate::lang::eval::Evaluator;
use crate::lang::value::Value;
use crate::matchmaking::autocluster::{cluster, significant_attributes, AutoclusterConfig};
use crate::matchmaking::matching::{accepts, DEFAULT_REQUIREMENTS};

/// A slot's policy attributes analysed as their definitions, as HTCondor's
/// reverse analysis does.
const INLINE: &[&str] = &["START", "WithinResourceLimits"];

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReverseAnalysis {
    /// The machine's `Name`, else its 1-based position.
    pub machine: String,
    pub jobs: u64,
    pub clusters: usize,
    /// The machine's Requirements (else Constraint) step by step; counts
    /// are jobs.
    pub steps: Vec<Step>,
    /// Jobs the machine's requirements accept.
    pub matched: u64,
    /// Jobs whose own requirements accept the machine.
    pub accepting_jobs: u64,
    /// Jobs accepted both ways.
    pub both: u64,
}

/// Why a machine cannot be analyzed against the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReverseError {
    /// The machine (1-based `position`, its `Name` if it has one) has no
    /// requirements to step through.
    NoRequirements {
        position: usize,
        name: Option<String>,
    },
}

impl std::fmt::Display for ReverseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReverseError::NoRequirements { position, name } => {
                write!(f, "machine ad {position}")?;
                if let Some(n) = name {
                    write!(f, " ({n})")?;
                }
                write!(f, " has no Requirements or Constraint")
            }
        }
    }
}

impl std::error::Error for ReverseError {}

/// [`reverse_nth`] for a machine given on its own (position 1).
pub fn reverse(
    machine: &Arc<ClassAd>,
    jobs: &[Arc<ClassAd>],
    o: &StepOptions,
) -> Result<ReverseAnalysis, ReverseError> {
    reverse_nth(machine, 1, jobs, o)
}

/// Reverse analysis of the machine at 1-based `position` of its pool (the
/// position names it when it has no `Name`, and in errors).
pub fn reverse_nth(
    machine: &Arc<ClassAd>,
    position: usize,
    jobs: &[Arc<ClassAd>],
    o: &StepOptions,
) -> Result<ReverseAnalysis, ReverseError> {
    let mut ev = Evaluator::new(o.opts);
    ev.set_ads(Some(machine.clone()), None);
    let name = match ev.eval_attr("Name") {
        Value::Str(s) => Some(s.to_string()),
        _ => None,
    };
    let label = name.clone().unwrap_or_else(|| position.to_string());
    let Some(req) = DEFAULT_REQUIREMENTS.iter().find_map(|n| machine.get(n)) else {
        return Err(ReverseError::NoRequirements { position, name });
    };

    // Totals, job by job.
    let (mut matched, mut accepting_jobs, mut both) = (0u64, 0u64, 0u64);
    for job in jobs {
        let m = accepts(&mut ev, machine, job, DEFAULT_REQUIREMENTS);
        let j = accepts(&mut ev, job, machine, DEFAULT_REQUIREMENTS);
        matched += m as u64;
        accepting_jobs += j as u64;
        both += (m && j) as u64;
    }

    let (targets, clusters) = cluster_targets(machine, jobs);
    let mut steps = steps_inlined(req, machine, &targets, o, INLINE);
    // The root step is the whole requirements: if its count is not the
    // job-by-job count, a cluster was not uniform; count every job.
    if steps.last().is_some_and(|r| r.matched != matched) {
        let each: Vec<(Arc<ClassAd>, u64)> = jobs.iter().map(|j| (j.clone(), 1)).collect();
        steps = steps_inlined(req, machine, &each, o, INLINE);
    }
    Ok(ReverseAnalysis {
        machine: label,
        jobs: jobs.len() as u64,
        clusters,
        steps,
        matched,
        accepting_jobs,
        both,
    })
}

/// One representative job per auto-cluster, weighted by the cluster's
/// size, and the number of clusters. The significant attributes are also
/// followed into each job's definitions of them (a job's `RequestMemory =
/// ImageSize / 1024` makes ImageSize count), and sizes are not rounded:
/// both would let one cluster hold jobs the machine treats differently.
fn cluster_targets(machine: &ClassAd, jobs: &[Arc<ClassAd>]) -> (Vec<(Arc<ClassAd>, u64)>, usize) {
    let sig = significant_attributes(&[machine], &[]);
    let mut cfg = AutoclusterConfig {
        quantize: vec![],
        ..AutoclusterConfig::default()
    };
    cfg.job_expressions.extend(sig.iter().cloned());
    let job_refs: Vec<&ClassAd> = jobs.iter().map(|j| j.as_ref()).collect();
    let c = cluster(&job_refs, &sig, &cfg);
    let mut reps: Vec<Option<Arc<ClassAd>>> = vec![None; c.clusters()];
    for (job, &id) in jobs.iter().zip(&c.cluster_of) {
        if let Some(slot @ None) = reps.get_mut(id as usize) {
            *slot = Some(job.clone());
        }
    }
    let targets = reps
        .into_iter()
        .zip(&c.sizes)
        .filter_map(|(r, &w)| Some((r?, w as u64)))
        .collect();
    (targets, c.clusters())
}

/// The report as `condor_q -reverse-analyze` prints it for one slot; the
/// step counts are jobs (HTCondor counts one job per auto-cluster there).
pub fn render_reverse(r: &ReverseAnalysis) -> String {
    let mut out = format!(
        "\n-- Slot: {} : Analyzing matches for {} Jobs in {} autoclusters\n",
        r.machine, r.jobs, r.clusters
    );
    if let Some(root) = r.steps.last() {
        out.push_str("\nThe Requirements expression for this slot is\n\n    ");
        out.push_str(&root.text);
        out.push_str(
            "\n\nThe Requirements expression for this slot reduces to these conditions:\n\n",
        );
        out.push_str(&render_for(&r.steps, false, "Job"));
    }
    let pct = if r.jobs > 0 {
        100.0 * r.both as f64 / r.jobs as f64
    } else {
        0.0
    };
    out.push_str(&format!(
        "\n{}: Run analysis summary of {} jobs.\n\
         {:5} ({:.2} %) match both slot and job requirements.\n\
         {:5} match the requirements of this slot.\n\
         {:5} have job requirements that match this slot.\n",
        r.machine, r.jobs, r.both, pct, r.matched, r.accepting_jobs
    ));
    out
}

#[cfg(test)]
mod tests {
    //! Also the step table's tests over weighted and deep inputs (they
    //! share this file's generators).
    use super::super::steps::{steps, StepKind, MAX_STEP_DEPTH};
    use super::*;
    use crate::lang::ast::{BinaryOp, Expr, ExprKind};
    use crate::lang::eval::ops::{truth, Truth};
    use crate::lang::eval::EvalOptions;
    use crate::lang::parser::{parse_classad, parse_expr};

    pub(super) fn ad(src: &str) -> Arc<ClassAd> {
        Arc::new(parse_classad(src).expect("test ad"))
    }

    const MACHINE: &str = r#"[Name = "slot1@x"; Memory = 2048; Arch = "X86_64";
        START = TARGET.ImageSize <= 1000 && (TARGET.Owner == "alice" || TARGET.Prio > 3);
        WithinResourceLimits = TARGET.RequestMemory <= Memory;
        Requirements = START && WithinResourceLimits && !(TARGET.Bad =?= true)]"#;

    /// Jobs from small value sets (so clusters form); ImageSize 1000 and
    /// 1001 share a quantization bucket but not a verdict; `Base` matters
    /// only through a job's own `RequestMemory`.
    fn queue(n: usize, seed: &mut u64) -> Vec<Arc<ClassAd>> {
        (0..n)
            .map(|i| {
                let pick = |s: &mut u64, xs: &[&str]| xs[(lcg(s) as usize) % xs.len()].to_string();
                let image = pick(seed, &["900", "1000", "1001", "5000"]);
                let owner = pick(seed, &["\"alice\"", "\"bob\""]);
                let prio = pick(seed, &["1", "5", "undefined"]);
                let mem = pick(seed, &["1024", "4096", "ImageSize * 3", "Base * 2"]);
                let base = pick(seed, &["100", "3000"]);
                let bad = pick(seed, &["true", "false", "undefined"]);
                let arch = pick(seed, &["\"X86_64\"", "\"ARM\""]);
                ad(&format!(
                    "[ClusterId = {i}; ProcId = 0; ImageSize = {image}; Owner = {owner}; \
                     Prio = {prio}; RequestMemory = {mem}; Base = {base}; Bad = {bad}; \
                     Requirements = TARGET.Arch == {arch} && TARGET.Memory >= RequestMemory]"
                ))
            })
            .collect()
    }

    #[test]
    fn counts_are_exact_against_job_by_job_evaluation() {
        let machine = ad(MACHINE);
        let mut seed = 11;
        for n in [0usize, 1, 7, 60, 200] {
            let jobs = queue(n, &mut seed);
            let o = StepOptions::default();
            let r = reverse(&machine, &jobs, &o).expect("has requirements");
            assert_eq!((r.machine.as_str(), r.jobs), ("slot1@x", n as u64));
            if n >= 60 {
                assert!(r.clusters < n, "clusters form: {} of {n}", r.clusters);
            }
            // Totals, directly.
            let mut ev = Evaluator::new(EvalOptions::default());
            let (mut m, mut a, mut b) = (0, 0, 0);
            for j in &jobs {
                let x = accepts(&mut ev, &machine, j, DEFAULT_REQUIREMENTS);
                let y = accepts(&mut ev, j, &machine, DEFAULT_REQUIREMENTS);
                m += x as u64;
                a += y as u64;
                b += (x && y) as u64;
            }
            assert_eq!((r.matched, r.accepting_jobs, r.both), (m, a, b));
            // Every step, from the clusters alone (no per-job fallback):
            // evaluate its text for every job.
            let (targets, _) = cluster_targets(&machine, &jobs);
            let req = machine.get("Requirements").unwrap();
            let from_clusters = steps_inlined(req, &machine, &targets, &o, INLINE);
            for (s, c) in r.steps.iter().zip(&from_clusters) {
                assert_eq!((s.index, s.matched), (c.index, c.matched));
            }
            for s in &r.steps {
                let e = parse_expr(&s.text).expect("step text parses");
                let mut count = 0;
                for j in &jobs {
                    ev.set_ads(Some(machine.clone()), Some(j.clone()));
                    count += (truth(&ev.eval_expr(&e)) == Truth::True) as u64;
                }
                assert_eq!(s.matched, count, "n={n} step [{}] {}", s.index, s.text);
            }
            // START and WithinResourceLimits are analysed as written.
            assert!(r.steps.iter().any(|s| s.text == "TARGET.ImageSize <= 1000"));
            assert!(r
                .steps
                .iter()
                .any(|s| s.text == "TARGET.RequestMemory <= Memory"));
            let text = render_reverse(&r);
            assert!(text.contains("-- Slot: slot1@x : Analyzing matches for"));
            assert!(text.contains(&format!("{m:5} match the requirements of this slot.")));
        }
    }

    #[test]
    fn missing_requirements_is_an_error() {
        let jobs = queue(3, &mut 5);
        let e = reverse_nth(
            &ad(r#"[Name = "slot1@x"]"#),
            3,
            &jobs,
            &StepOptions::default(),
        );
        let e = e.unwrap_err();
        assert_eq!(
            e,
            ReverseError::NoRequirements {
                position: 3,
                name: Some("slot1@x".into())
            }
        );
        assert_eq!(
            e.to_string(),
            "machine ad 3 (slot1@x) has no Requirements or Constraint"
        );
        let e = reverse_nth(&ad("[Memory = 1]"), 2, &jobs, &StepOptions::default());
        assert_eq!(
            e.unwrap_err().to_string(),
            "machine ad 2 has no Requirements or Constraint"
        );
        // The seed papers' Constraint serves, and a nameless machine is its position.
        let r = reverse_nth(
            &ad("[Constraint = TARGET.Prio > 3]"),
            4,
            &jobs,
            &StepOptions::default(),
        );
        assert_eq!(r.expect("constraint").machine, "4");
    }

    pub(super) fn ones(ads: &[Arc<ClassAd>]) -> Vec<(Arc<ClassAd>, u64)> {
        ads.iter().map(|a| (a.clone(), 1)).collect()
    }
    fn pruned() -> StepOptions {
        StepOptions {
            prune: true,
            opts: EvalOptions::default(),
        }
    }
    /// A step's count by evaluating its text directly, target by target.
    fn direct(s: &Step, my: &Arc<ClassAd>, targets: &[(Arc<ClassAd>, u64)]) -> u64 {
        let e = parse_expr(&s.text).expect("step text parses");
        let mut ev = Evaluator::new(EvalOptions::default());
        let mut n = 0;
        for (t, w) in targets {
            ev.set_ads(Some(my.clone()), Some(t.clone()));
            n += w * (truth(&ev.eval_expr(&e)) == Truth::True) as u64;
        }
        n
    }
    /// A small deterministic generator (no dependencies).
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn weighted_counts_equal_duplicated_targets_and_direct_evaluation() {
        let my = ad("[lim = 4; Want = TARGET.k =?= undefined || TARGET.k > lim]");
        let req = "(TARGET.a == 1 || TARGET.b < 2) && !(TARGET.c =?= 3) && \
                   (TARGET.a == 2 ? TARGET.b > 0 : Want) && TARGET.c isnt undefined";
        let (mut seed, mut weighted, mut dup) = (7, vec![], vec![]);
        for _ in 0..40 {
            let mut src = String::from("[");
            for n in ["a", "b", "c", "k"] {
                match lcg(&mut seed) % 5 {
                    0 => {}
                    1 => src.push_str(&format!("{n} = \"s\"; ")),
                    v => src.push_str(&format!("{n} = {}; ", v + lcg(&mut seed) % 3)),
                }
            }
            let (t, w) = (ad(&format!("{src}]")), lcg(&mut seed) % 4);
            dup.extend((0..w).map(|_| (t.clone(), 1)));
            weighted.push((t, w));
        }
        let e = parse_expr(req).unwrap();
        let a = steps(&e, &my, &weighted, &pruned());
        let b = steps(&e, &my, &dup, &pruned());
        assert!(a.len() > 10);
        let table = |s: &[Step]| -> Vec<(usize, u64, bool)> {
            s.iter().map(|x| (x.index, x.matched, x.hidden)).collect()
        };
        assert_eq!(table(&a), table(&b));
        for x in &a {
            assert_eq!(
                x.matched,
                direct(x, &my, &dup),
                "step {} {}",
                x.index,
                x.text
            );
        }
    }

    /// `TARGET.a == 1 && …` n times, left-deep, built without the parser.
    fn chain(n: usize) -> Expr {
        let leaf = parse_expr("TARGET.a == 1").unwrap();
        (1..n).fold(leaf.clone(), |e, _| {
            Expr::binary(BinaryOp::And, e, leaf.clone())
        })
    }
    /// Take a left-deep chain apart without a recursive drop.
    fn dismantle(mut e: Expr) {
        while let ExprKind::Binary(_, l, _) = &mut e.kind {
            e = std::mem::replace(&mut **l, Expr::literal(Value::Undefined));
        }
    }

    #[test]
    fn deep_chain_is_bounded() {
        let (my, ts) = (ad("[]"), [ad("[a = 1]"), ad("[a = 2]")]);
        let e = chain(10_000);
        let t0 = std::time::Instant::now();
        let s = steps(&e, &my, &ones(&ts), &pruned());
        assert!(t0.elapsed().as_secs() < 20);
        assert_eq!(s.len(), 2 * MAX_STEP_DEPTH as usize + 1);
        assert_eq!((s[0].kind, s[0].children.len()), (StepKind::Other, 0));
        assert!(s[0].text.starts_with("... && TARGET.a == 1"));
        assert!(s.iter().all(|x| x.text.len() < 6_000 && x.depth <= 200));
        assert!(render_for(&s, false, "Slot").len() < 100_000);
        assert!(super::super::steps::job_attributes(&e, &my).is_empty());
        dismantle(e);
        // Within the parser's depth the rest is evaluated: counts agree
        // with evaluating the whole expression.
        let e = chain(1_500);
        let s = steps(&e, &my, &ones(&ts), &pruned());
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.set_ads(Some(my.clone()), Some(ts[0].clone()));
        assert_eq!(truth(&ev.eval_expr(&e)), Truth::True);
        ev.set_ads(Some(my.clone()), Some(ts[1].clone()));
        assert_eq!(truth(&ev.eval_expr(&e)), Truth::False);
        assert_eq!((s[0].matched, s.last().map(|r| r.matched)), (1, Some(1)));
        dismantle(e);
        // A machine whose Requirements is the deep chain.
        let mut m = ClassAd::new();
        m.insert("Requirements", chain(10_000));
        let m = Arc::new(m);
        let r = reverse(&m, &queue(20, &mut 3), &StepOptions::default()).expect("requirements");
        assert_eq!(
            (r.matched, r.steps.len()),
            (0, 2 * MAX_STEP_DEPTH as usize + 1)
        );
        if let Some(e) = Arc::try_unwrap(m)
            .ok()
            .and_then(|mut m| m.remove("Requirements"))
        {
            dismantle(e);
        }
    }
}

#[cfg(test)]
mod step_tests {
    //! The step table (`steps.rs`).
    use super::super::steps::*;
    use super::tests::{ad, ones};
    use crate::lang::ast::ClassAd;
    use crate::lang::eval::{EvalOptions, Mode};
    use crate::lang::parser::parse_expr;
    use crate::lang::time::Clock;
    use std::sync::Arc;
    use StepKind::*;

    fn opts(prune: bool, mode: Mode) -> StepOptions {
        let clock = Clock::fixed(1e9, 0);
        StepOptions {
            prune,
            opts: EvalOptions { mode, clock },
        }
    }
    fn run(req: &str, my: &Arc<ClassAd>, ts: &[Arc<ClassAd>], prune: bool) -> Vec<Step> {
        steps(
            &parse_expr(req).expect("test expr"),
            my,
            &ones(ts),
            &opts(prune, Mode::HTCondor),
        )
    }
    /// (kind, matched, hidden) of every step.
    fn table(s: &[Step]) -> Vec<(StepKind, u64, bool)> {
        s.iter().map(|x| (x.kind, x.matched, x.hidden)).collect()
    }
    fn verdicts(s: &[Step]) -> Vec<Option<&str>> {
        s.iter().map(|x| x.verdict.as_deref()).collect()
    }
    fn abc(v: [i32; 3]) -> Arc<ClassAd> {
        ad(&format!("[a = {}; b = {}; c = {}]", v[0], v[1], v[2]))
    }
    const ABC: &str = "TARGET.a == 1 && TARGET.b == 1 && TARGET.c == 1";

    #[test]
    fn and_chain_is_numbered_in_post_order() {
        let my = ad("[]");
        let s = run(
            ABC,
            &my,
            &[abc([1, 1, 1]), abc([1, 1, 0]), abc([0, 1, 1])],
            true,
        );
        assert_eq!(
            s.iter().map(|x| x.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(
            (s[0].text.as_str(), s[4].text.as_str()),
            ("TARGET.a == 1", ABC)
        );
        assert_eq!(s[2].text, "TARGET.a == 1 && TARGET.b == 1");
        assert_eq!(
            (s[2].children.clone(), s[4].children.clone()),
            (vec![0, 1], vec![2, 3])
        );
        assert_eq!(
            s.iter().map(|x| x.depth).collect::<Vec<_>>(),
            [2, 2, 1, 1, 0]
        );
        // a && b narrows nothing beyond a; the root narrows beyond both.
        let t = [
            (Comparison, 2, false),
            (Comparison, 3, false),
            (And, 2, true),
        ];
        assert_eq!(table(&s)[..3], t);
        assert_eq!(table(&s)[3..], [(Comparison, 2, false), (And, 1, false)]);
        let head = "         Slots\nStep    Matched  Condition\n-----  --------  ---------\n";
        assert_eq!(
            render(&s, false),
            format!(
                "{head}[0]           2  TARGET.a == 1\n[1]           3  TARGET.b == 1\n\
                 [3]           2  TARGET.c == 1\n[4]           1  [0] && [3]\n"
            )
        );
        let all = render(&s, true);
        assert!(all.starts_with("            Slots\n   Step"));
        assert!(all.contains("\n   [2]           2  [0] && [1]\n"));
        assert!(all.ends_with("\n * [4]           1  [0] && [3]\n"));
        // Nested sets: both && nodes narrow nothing and are hidden.
        let ts = [abc([1, 1, 1]), abc([0, 1, 1]), abc([0, 0, 1])];
        let hidden: Vec<bool> = run(ABC, &my, &ts, true).iter().map(|x| x.hidden).collect();
        assert_eq!(hidden, [false, false, true, false, true]);
        assert!(
            run(ABC, &my, &ts, false).iter().all(|x| !x.hidden),
            ":noprune"
        );
    }

    #[test]
    fn not_cond_or_and_leaves() {
        let my = ad("[]");
        let ts = [
            ad("[a = 1; k = 1; x = 3; y = 9]"),
            ad("[a = 2; k = 0; x = 0; y = 1]"),
            ad("[a = 1; k = 0; x = 9; y = 9]"),
        ];
        let s = run("!(TARGET.a == 1)", &my, &ts, true);
        assert_eq!(table(&s), [(Comparison, 2, false), (Not, 1, false)]);
        assert_eq!(
            (s[1].children.clone(), s[1].text.as_str()),
            (vec![0], " !(TARGET.a == 1)")
        );
        assert!(render(&s, false).ends_with("[1]           1   ! [0]\n"));
        let s = run(
            "TARGET.k == 1 ? TARGET.x > 2 : TARGET.y < 4",
            &my,
            &ts,
            true,
        );
        assert_eq!(
            s.iter().map(|x| x.matched).collect::<Vec<_>>(),
            [1, 2, 1, 2]
        );
        assert_eq!((s[3].kind, s[3].children.clone()), (Cond, vec![0, 1, 2]));
        assert!(render(&s, false).ends_with("[3]           2  [0] ? [1] : [2]\n"));
        let s = run("(TARGET.a == 1) || (TARGET.k == 1)", &my, &ts, true);
        assert_eq!(table(&s)[2], (Or, 2, true), "as wide as its widest child");
        assert_eq!(s[0].text, "TARGET.a == 1");
        let s = run(
            "TARGET.HasX && regexp(\"a\", TARGET.Name) && 1 + TARGET.a > 2",
            &my,
            &ts,
            true,
        );
        let kinds: Vec<StepKind> = s.iter().map(|x| x.kind).collect();
        assert_eq!(kinds, [Other, Other, And, Comparison, And]);
    }

    #[test]
    fn verdicts_for_target_free_and_clock_steps() {
        let my = ad("[x = 5; RequestDisk = DiskUsage; DiskUsage = 10; Deadline = time() + 100]");
        let ts = [ad("[y = 1]"), ad("[y = 2]"), ad("[y = 1]")];
        let s = run("MY.x > 3 && TARGET.y == 1 && x > 7", &my, &ts, true);
        assert_eq!(
            verdicts(&s),
            [Some("always"), None, None, Some("never"), None]
        );
        assert_eq!(
            s.iter().map(|x| x.matched).collect::<Vec<_>>(),
            [3, 2, 2, 0, 0]
        );
        let r = render(&s, false);
        assert!(
            r.contains("[0]      always  MY.x > 3\n[1]           2  TARGET.y == 1\n"),
            "{r}"
        );
        assert!(r.contains("[3]       never  x > 7\n"), "{r}");
        let s = run("time() > 5 && time() < 5 && Deadline > 0", &my, &ts, false);
        let clock = [
            Some("now"),
            Some("not now"),
            Some("not now"),
            Some("now"),
            Some("not now"),
        ];
        assert_eq!(verdicts(&s), clock, "Deadline reads the clock through MY");
        assert!(render(&s, false).contains("[1]     not now  time() < 5\n"));
        // A name MY defines is followed; one it lacks comes from the target
        // (HTCondor mode) or is undefined (strict mode).
        let s = run("RequestDisk > 5 && y == 1", &my, &ts, true);
        assert_eq!(
            (verdicts(&s)[..2].to_vec(), s[1].matched),
            (vec![Some("always"), None], 2)
        );
        let s = steps(
            &parse_expr("y == 1").unwrap(),
            &my,
            &ones(&ts),
            &opts(true, Mode::Strict),
        );
        assert_eq!(verdicts(&s), [Some("never")]);
    }

    #[test]
    fn job_attributes_follow_definitions() {
        let my = ad("[RequestDisk = DiskUsage; DiskUsage = 100; other = 1; \
                     requestMemory = 2048; Requirements = Requirements && TARGET.x]");
        let e = parse_expr("TARGET.Disk >= RequestDisk && TARGET.Memory >= MY.RequestMemory");
        let pairs = [
            ("DiskUsage", "100"),
            ("RequestDisk", "DiskUsage"),
            ("requestMemory", "2048"),
        ];
        let want: Vec<(String, String)> = pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(job_attributes(&e.unwrap(), &my), want);
        // Self-reference neither loops nor panics; inlined once, then the
        // inner reference stays a leaf.
        let req = my.get("Requirements").unwrap().clone();
        let ts = ones(&[ad("[x = true]")]);
        assert_eq!(job_attributes(&req, &my).len(), 1);
        assert_eq!(steps(&req, &my, &ts, &StepOptions::default()).len(), 3);
        let s = steps_inlined(&req, &my, &ts, &StepOptions::default(), &["requirements"]);
        assert_eq!((s.len(), s[0].text.as_str()), (5, "Requirements"));
    }
}
