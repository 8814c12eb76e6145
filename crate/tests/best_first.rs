//! The best-first walk (`NegotiationConfig::count_candidates = false`)
//! picks what the full survey picks: same machine, same vector, same
//! reason (with the same counts; an all-taken job's count asked for
//! afterwards) for every job, on the libclassad pair
//! corpus, on generated workloads, and on pools built to trip the rank
//! bounds — ranks that read the job through the machine, NaN, errors,
//! ties, claimed slots.

use std::sync::Arc;

use classad::index::negotiation::IndexedMachines;
use classad::matchmaking::compiled::CompiledAd;
use classad::matchmaking::matching::DEFAULT_REQUIREMENTS;
use classad::matchmaking::negotiate::{
    candidates_at_turn, compatible_machines, negotiate, negotiate_with, CycleResult,
    NegotiationConfig, Reason,
};
use classad::ClassAd;
use proptest::prelude::*;

mod common;
use common::ads;

/// The outcomes, an all-taken job's count left out (an uncounted cycle
/// only looks for one compatible machine; `agree` checks the counts).
fn outcome(r: &CycleResult) -> Vec<String> {
    r.outcomes
        .iter()
        .map(|o| {
            let reason = match o.reason {
                Reason::AllTaken { .. } => "all-taken".to_string(),
                ref other => format!("{other:?}"),
            };
            format!("{} {:?} {:?} {reason}", o.job, o.machine, o.vector)
        })
        .collect()
}

/// Counted and uncounted cycles agree, with and without the index; the
/// uncounted one leaves a count out only where it matched.
fn agree(jobs: &[Arc<ClassAd>], machines: &[Arc<ClassAd>], auto: bool) -> (u64, u64) {
    let mut counted = NegotiationConfig::default();
    if !auto {
        counted.autocluster = None;
    }
    let walked = NegotiationConfig {
        count_candidates: false,
        ..counted.clone()
    };
    let a = negotiate(jobs, machines, &counted, |_, _| true);
    let b = negotiate(jobs, machines, &walked, |_, _| true);
    let mut source = IndexedMachines::build(jobs, machines, &walked);
    let c = negotiate_with(jobs, machines, &walked, &mut source, |_, _| true);
    assert_eq!(outcome(&a), outcome(&b), "auto-clustered: {auto}");
    assert_eq!(outcome(&a), outcome(&c), "indexed, auto-clustered: {auto}");
    // A matched job's count, asked for afterwards, is the counted cycle's.
    let compiled: Vec<CompiledAd> = machines
        .iter()
        .map(|m| CompiledAd::new(m.clone(), walked.opts, DEFAULT_REQUIREMENTS))
        .collect();
    let mut taken = vec![];
    for (x, y) in a.outcomes.iter().zip(&b.outcomes) {
        if y.machine.is_some() && y.candidates.is_none() {
            let n = candidates_at_turn(&jobs[y.job], &compiled, &walked, &taken);
            assert_eq!(Some(n), x.candidates, "job {} asked afterwards", x.job_id);
        }
        taken.extend(y.machine);
    }
    for (x, y) in a.outcomes.iter().zip(&b.outcomes) {
        // An all-taken job's count, asked for afterwards, is the counted
        // cycle's: every compatible machine of the pool.
        if let Reason::AllTaken { compatible } = y.reason {
            let Reason::AllTaken {
                compatible: Some(n),
            } = x.reason
            else {
                panic!("job {}: counted {:?}", x.job_id, x.reason);
            };
            assert!(
                compatible.is_none() || compatible == Some(n),
                "job {}",
                x.job_id
            );
            assert_eq!(
                compatible_machines(&jobs[y.job], &compiled, &walked),
                n,
                "job {}",
                x.job_id
            );
        }
        // Only a skipped job (its cluster failed) is not counted.
        let skipped = matches!(x.reason, Reason::SkippedCluster { .. });
        assert_eq!(x.candidates.is_none(), skipped, "job {}", x.job_id);
        match y.candidates {
            Some(n) => assert_eq!(Some(n), x.candidates, "job {}", x.job_id),
            None => assert!(
                y.machine.is_some() || skipped,
                "job {} failed uncounted",
                y.job_id
            ),
        }
    }
    (a.pair_evaluations, b.pair_evaluations)
}

#[test]
fn generated_workloads_pick_alike_with_fewer_evaluations() {
    for seed in [3, 8] {
        let machines = classad::matchmaking::workload::ads(
            &classad::matchmaking::workload::machines(500, seed),
        );
        let jobs = classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(
            400,
            seed + 1,
        ));
        for auto in [false, true] {
            let (counted, walked) = agree(&jobs, &machines, auto);
            if !auto {
                assert!(walked < counted, "{walked} !< {counted}");
            }
        }
    }
}

#[test]
fn the_libclassad_pair_corpus_picks_alike() {
    #[derive(serde::Deserialize)]
    struct Pairs {
        jobs: Vec<String>,
        machines: Vec<String>,
    }
    let p: Pairs = serde_json::from_str(include_str!("matching/pairs.json")).unwrap();
    for auto in [false, true] {
        agree(&ads(&p.jobs), &ads(&p.machines), auto);
    }
}

/// Machine ranks a job may use: literal, reading the job through the
/// machine (`Boosted`), not a number, NaN, ties.
const JOB_RANKS: [&str; 8] = [
    "TARGET.Mips",
    "TARGET.Boosted",
    "0",
    "TARGET.Mips / (TARGET.Mips - 300)",
    "real(\"NaN\")",
    "TARGET.Flag",
    "TARGET.Mips > 250",
    "-TARGET.Mips + Weight",
];

/// Which of a machine's `Boosted`, `Rank` and `ImageSize` read the job.
type ReadsJob = (bool, bool, bool);

fn machine(i: usize, mips: i64, claimed: bool, reads_job: ReadsJob) -> String {
    let (boost_reads_job, rank_reads_job, image_reads_job) = reads_job;
    let boosted = if boost_reads_job {
        "Mips * TARGET.Weight".to_string()
    } else {
        format!("{}", mips * 2)
    };
    let rank = if rank_reads_job { "TARGET.Weight" } else { "1" };
    // A claimed slot's preemption components are valid (ImageSize is what
    // the third one reads), so claimed slots compete too; an ImageSize
    // that reads the job leaves the third unbounded, and often ties one
    // that does not (the walk must still give a tie to the earlier slot).
    let image = if image_reads_job {
        "TARGET.Weight * 1000".to_string()
    } else {
        (mips % 4 * 1000).to_string()
    };
    let claim = if claimed {
        format!(
            "RemoteUser = \"zed@example.org\"; CurrentRank = 0; RemoteUserPrio = 10.0; \
             ServiceTime = 20000; ImageSize = {image};"
        )
    } else {
        String::new()
    };
    format!(
        "[ Name = \"slot{i}\"; Mips = {mips}; Boosted = {boosted}; Flag = {}; Rank = {rank}; {claim} \
         Requirements = TARGET.Size <= {} ]",
        if mips % 3 == 0 { "undefined" } else { "true" },
        100 + (mips % 7) * 50
    )
}

fn job(i: usize, rank: &str, size: i64, weight: i64) -> String {
    format!(
        "[ ClusterId = 1; ProcId = {i}; Size = {size}; Weight = {weight}; UserPrio = 1.0; \
         Rank = {rank}; Requirements = TARGET.Mips >= {} ]",
        size / 2
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tricky_ranks_pick_alike(
        ms in proptest::collection::vec(
            (100i64..600, any::<bool>(), (any::<bool>(), any::<bool>(), any::<bool>())),
            0..40,
        ),
        js in proptest::collection::vec((0usize..JOB_RANKS.len(), 50i64..500, -3i64..4), 1..40),
    ) {
        let machines: Vec<String> = ms
            .iter()
            .enumerate()
            .map(|(i, &(mips, claimed, reads_job))| machine(i, mips, claimed, reads_job))
            .collect();
        let jobs: Vec<String> = js
            .iter()
            .enumerate()
            .map(|(i, &(r, size, w))| job(i, JOB_RANKS[r], size, w))
            .collect();
        for auto in [false, true] {
            agree(&ads(&jobs), &ads(&machines), auto);
        }
    }
}

#[test]
fn an_indexed_cycle_cancelled_midway_stops_with_the_jobs_done() {
    // Past 250,000 pairs the index is used, and natively its queries run
    // ahead on a thread of their own: cancelling must still stop the cycle.
    let machines =
        classad::matchmaking::workload::ads(&classad::matchmaking::workload::machines(600, 5));
    let jobs = classad::matchmaking::workload::ads(&classad::matchmaking::workload::jobs(600, 6));
    let cfg = NegotiationConfig {
        autocluster: None,
        ..Default::default()
    };
    assert!(classad::index::negotiation::index_pays(
        jobs.len(),
        machines.len(),
        &cfg
    ));
    let full = classad::index::negotiation::negotiate_indexed(&jobs, &machines, &cfg, |_, _| true);
    let cut = classad::index::negotiation::negotiate_indexed(&jobs, &machines, &cfg, |done, _| {
        done < 256
    });
    assert_eq!(cut.outcomes.len(), 256);
    assert_eq!(outcome(&cut)[..], outcome(&full)[..256]);
}

#[test]
fn an_uncounted_all_taken_job_is_counted_when_asked() {
    // Three machines, five jobs that each take any of them: the last two
    // find every compatible machine taken.
    let machines = ads(&(0..3)
        .map(|i| {
            format!(
                "[ Name = \"m{i}\"; Memory = {}; Requirements = TARGET.RequestMemory <= Memory ]",
                1000 + i
            )
        })
        .collect::<Vec<_>>());
    let jobs = ads(&(0..5)
        .map(|i| format!("[ ClusterId = {i}; ProcId = 0; RequestMemory = {}; Requirements = TARGET.Memory >= RequestMemory ]", 10 + i))
        .collect::<Vec<_>>());
    let walked = NegotiationConfig {
        count_candidates: false,
        autocluster: None,
        ..NegotiationConfig::default()
    };
    let r = negotiate(&jobs, &machines, &walked, |_, _| true);
    let compiled: Vec<CompiledAd> = machines
        .iter()
        .map(|m| CompiledAd::new(m.clone(), walked.opts, DEFAULT_REQUIREMENTS))
        .collect();
    let taken: Vec<_> = r
        .outcomes
        .iter()
        .filter(|o| matches!(o.reason, Reason::AllTaken { compatible: None }))
        .map(|o| compatible_machines(&jobs[o.job], &compiled, &walked))
        .collect();
    assert_eq!(taken, vec![3, 3], "{:?}", outcome(&r));
    assert_eq!(
        Reason::AllTaken { compatible: None }.describe(),
        "all-taken: every compatible machine was matched to an earlier job (not counted)"
    );
    let (_, uncounted) = agree(&jobs, &machines, false);
    let (counted, _) = agree(&jobs, &machines, false);
    assert!(uncounted < counted, "{uncounted} < {counted}");
}
