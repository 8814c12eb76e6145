//! HTCondor 25's negotiator as `classad match --policy htcondor` (the
//! default): user priorities from a pasted `condor_userprio` table order
//! the submitters, rank preemption from the startd's RANK against
//! CurrentRank, priority preemption only under PREEMPTION_REQUIREMENTS —
//! on slot ads as `condor_status -l` prints them, without RemoteUserPrio.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("classad-policy-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("make a scratch directory");
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write a test file");
    p.to_string_lossy().into_owned()
}

fn classad_match(args: &[&str]) -> (String, String, bool) {
    let o = Command::new(env!("CARGO_BIN_EXE_classad"))
        .arg("match")
        .args(args)
        .output()
        .expect("run the classad CLI");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.success(),
    )
}

/// Two claimed slots and an idle one, long format, no RemoteUserPrio.
const SLOTS: &str = r#"Name = "slot1@wn1.lab"
MyType = "Machine"
Cpus = 1
Memory = 2048
SlotID = 1
KFlops = 900000
State = "Claimed"
Activity = "Busy"
RemoteUser = "bob@lab"
RemoteOwner = "bob@lab"
CurrentRank = 0.0
TotalJobRunTime = 3600
Rank = TARGET.Owner == "alice" ? 10 : 0
START = true
Requirements = START

Name = "slot1@wn2.lab"
MyType = "Machine"
Cpus = 1
Memory = 2048
SlotID = 1
KFlops = 900000
State = "Claimed"
Activity = "Busy"
RemoteUser = "carol@lab"
RemoteOwner = "carol@lab"
CurrentRank = 0.0
TotalJobRunTime = 60
Rank = 0
START = true
Requirements = START

Name = "slot1@wn3.lab"
MyType = "Machine"
Cpus = 1
Memory = 1024
SlotID = 1
KFlops = 900000
State = "Unclaimed"
Activity = "Idle"
Rank = 0
START = true
Requirements = START

"#;

fn job(cluster: u32, owner: &str, qdate: u32) -> String {
    format!(
        "ClusterId = {cluster}\nProcId = 0\nOwner = \"{owner}\"\nUser = \"{owner}@lab\"\nJobPrio = 0\n\
         QDate = {qdate}\nJobUniverse = 5\nRequestCpus = 1\nRequestMemory = 512\n\
         Requirements = (TARGET.Memory >= RequestMemory)\nRank = 0.0\n\n"
    )
}

/// Each line's job id, slot and the rest.
fn lines(out: &str) -> Vec<(String, String, String)> {
    out.lines()
        .map(|l| {
            let mut w = l.splitn(3, ' ');
            let (a, b, c) = (w.next(), w.next(), w.next());
            (
                a.unwrap_or("").into(),
                b.unwrap_or("").into(),
                c.unwrap_or("").into(),
            )
        })
        .collect()
}

#[test]
fn rank_preemption_takes_a_claimed_slot_whose_rank_prefers_the_job() {
    let d = scratch("rank");
    let m = write(&d, "slots", SLOTS);
    let j = write(&d, "jobs", &(job(1, "alice", 100) + &job(2, "dave", 100)));
    let (out, err, ok) = classad_match(&["--jobs", &j, "--machines", &m]);
    assert!(ok, "{err}");
    let l = lines(&out);
    // No table: both submitters have a new user's priority (500); dave's
    // name sorts after alice's.
    assert_eq!(l[0].0, "1.0");
    // The idle slot first (NEGOTIATOR_PRE_JOB_RANK prefers the unclaimed
    // one by 1000000 … unless the startd ranks the job: 10 × 10000000).
    assert_eq!(l[0].1, "slot1@wn1.lab", "{out}");
    assert!(
        l[0].2.contains(
            "(rank preemption: slot1@wn1.lab ranks this job 10 > CurrentRank 0 of bob@lab's job)"
        ),
        "{out}"
    );
    assert_eq!(l[1], ("2.0".into(), "slot1@wn3.lab".into(), l[1].2.clone()));
    assert!(l[1].2.starts_with("matched"), "{out}");
    // The thesis' vector needs RemoteUserPrio in the slot ad: no preemption.
    let (thesis, _, _) = classad_match(&["--policy", "thesis", "--jobs", &j, "--machines", &m]);
    assert!(!thesis.contains("wn1.lab matched"), "{thesis}");
}

#[test]
fn priority_preemption_only_under_preemption_requirements() {
    let d = scratch("prio");
    let m = write(&d, "slots", SLOTS);
    let j = write(
        &d,
        "jobs",
        &(job(1, "dave", 100) + &job(2, "dave", 100) + &job(3, "dave", 100)),
    );
    let table = write(
        &d,
        "prio",
        "Last Priority Update: 11/28 10:00
                               Effective   Priority  Wghted Total Usage  Time Since
User Name                       Priority    Factor   In Use (wghted-hrs) Last Usage
----------------------------- ------------ --------- ------ ------------ ----------
dave@lab                              0.50      1.00      0         0.12    0+00:10
carol@lab                          5000.00   1000.00      1       100.00      <now>
bob@lab                              10.00   1000.00      1        10.00      <now>
----------------------------- ------------ --------- ------ ------------ ----------
Number of users: 3                                        2       110.12
",
    );
    // HTCondor 25's default PREEMPTION_REQUIREMENTS is False: dave gets the
    // idle slot only, and the reason says why the claimed ones stay.
    let (out, err, ok) = classad_match(&["--jobs", &j, "--machines", &m, "--userprio", &table]);
    assert!(ok, "{err}");
    let l = lines(&out);
    assert_eq!(
        l.iter().filter(|x| x.2.starts_with("matched")).count(),
        1,
        "{out}"
    );
    let refused = &l[1].2;
    assert!(refused.starts_with("no-valid-vector"), "{out}");
    assert!(
        refused.contains("not above CurrentRank 0 (no rank preemption); PREEMPTION_REQUIREMENTS is false (HTCondor 25's default): no priority preemption"),
        "{out}"
    );
    // HTCondor's classic setting: preempt a user whose priority is 20 %
    // worse. carol (5000) loses her slot before bob (10): PREEMPTION_RANK
    // is RemoteUserPrio * 1000000 - TotalJobRunTime.
    let knob = "PREEMPTION_REQUIREMENTS=RemoteUserPrio > SubmitterUserPrio * 1.2";
    let (out, err, ok) = classad_match(&[
        "--jobs",
        &j,
        "--machines",
        &m,
        "--userprio",
        &table,
        "--config",
        knob,
    ]);
    assert!(ok, "{err}");
    let l = lines(&out);
    assert_eq!(l[0].1, "slot1@wn3.lab", "{out}");
    assert_eq!(l[1].1, "slot1@wn2.lab", "{out}");
    assert!(
        l[1].2.contains("(priority preemption: PREEMPTION_REQUIREMENTS holds (carol@lab's priority 5000 against dave@lab's 0.5)"),
        "{out}"
    );
    assert_eq!(l[2].1, "slot1@wn1.lab", "{out}");
    // Without the table every user has a new user's priority: none is
    // 20 % worse than another, nobody is preempted.
    let (out, _, _) = classad_match(&["--jobs", &j, "--machines", &m, "--config", knob]);
    assert_eq!(
        lines(&out)
            .iter()
            .filter(|x| x.2.starts_with("matched"))
            .count(),
        1,
        "{out}"
    );
}

#[test]
fn the_priority_table_orders_the_submitters() {
    let d = scratch("order");
    let m = write(
        &d,
        "slots",
        SLOTS
            .split("\n\n")
            .nth(2)
            .map(|s| format!("{s}\n\n"))
            .as_deref()
            .unwrap_or(""),
    );
    let j = write(&d, "jobs", &(job(1, "alice", 100) + &job(2, "bob", 200)));
    let first = |prio: &str| {
        let t = write(&d, "prio", prio);
        let (out, err, ok) = classad_match(&["--jobs", &j, "--machines", &m, "--userprio", &t]);
        assert!(ok, "{err}");
        lines(&out)
            .into_iter()
            .find(|l| l.2.starts_with("matched"))
            .map(|l| l.0)
            .unwrap_or_default()
    };
    assert_eq!(first("alice@lab 0.5\nbob@lab 100\n"), "1.0");
    assert_eq!(first("alice@lab 100\nbob@lab 0.5\n"), "2.0");
    // A user the table does not list has a new user's priority: 500.
    assert_eq!(first("alice@lab 600\n"), "2.0");
    // A bad table is refused with its place.
    let t = write(&d, "bad", "alice@lab lots\n");
    let (_, err, ok) = classad_match(&["--jobs", &j, "--machines", &m, "--userprio", &t]);
    assert!(
        !ok && err.contains("bad:1:11: the priority `lots` is not a number"),
        "{err}"
    );
    // And a knob that does not parse.
    let (_, err, ok) = classad_match(&[
        "--jobs",
        &j,
        "--machines",
        &m,
        "--config",
        "NEGOTIATOR_PRE_JOB_RANK=(1 +",
    ]);
    assert!(!ok && err.contains("NEGOTIATOR_PRE_JOB_RANK"), "{err}");
}

/// HTCondor's default NEGOTIATOR_PRE_JOB_RANK puts the smallest slots
/// first; a job's walk of the pool starts past what an earlier job of its
/// exact compatibility class refused. Jobs that differ only in a size the
/// auto-clusters round (RequestDisk, against each slot's own Disk) are of
/// different classes: whether it skips (procs alike) or not (procs
/// differing), the walk gives every job the slot a full survey gives it.
#[test]
fn walks_that_skip_what_the_class_refused_pick_what_a_full_survey_picks() {
    use std::sync::Arc;

    use classad::matchmaking::negotiate::{negotiate, NegotiationConfig};
    use classad::matchmaking::workload::Rng;
    use classad::policy::HTCondorPolicy;

    let mut rng = Rng::new(62);
    let slots: Vec<Arc<classad::ClassAd>> = (0..500)
        .map(|i| {
            let cpus = [1, 2, 4, 8][rng.below(4) as usize];
            let claimed = rng.below(5) == 0;
            let text = format!(
                "[ Name = \"slot{i}@wn\"; Cpus = {cpus}; Memory = {}; Disk = {}; SlotID = 1; KFlops = {}; \
                 State = \"{}\"; {} Rank = 0; \
                 Requirements = TARGET.RequestCpus <= MY.Cpus && TARGET.RequestMemory <= MY.Memory \
                 && TARGET.RequestDisk <= MY.Disk ]",
                cpus * [1024, 2048, 4096][rng.below(3) as usize],
                1_000_000 + rng.below(9_000_000),
                100_000 + rng.below(900_000),
                if claimed { "Claimed" } else { "Unclaimed" },
                if claimed { "RemoteUser = \"x@lab\"; CurrentRank = 0;" } else { "" },
            );
            Arc::new(classad::parse_classad(&text).expect("slot"))
        })
        .collect();
    let jobs: Vec<Arc<classad::ClassAd>> = (0..900)
        .map(|i| {
            let cluster = i / 30;
            let cpus = [1, 1, 2, 4][cluster % 4];
            let text = format!(
                "[ ClusterId = {cluster}; ProcId = {i}; Owner = \"u{}\"; User = \"u{}@lab\"; QDate = {cluster}; \
                 RequestCpus = {cpus}; RequestMemory = {}; RequestDisk = {}; ImageSize = {}; \
                 Requirements = TARGET.Memory >= RequestMemory && TARGET.Disk >= RequestDisk ]",
                cluster % 3,
                cluster % 3,
                cpus * [1000, 2000, 3500][cluster % 3],
                // Half the clusters' procs share a disk request (one class
                // each: their walks skip), half do not.
                if cluster % 2 == 0 {
                    1_000_000 + rng.below(8_000_000)
                } else {
                    1_000_000 + 250_000 * cluster as u64
                },
                100_000 + rng.below(1000),
            );
            Arc::new(classad::parse_classad(&text).expect("job"))
        })
        .collect();
    let policy = HTCondorPolicy::default();
    let (jobs, slots) = policy.prepare(&jobs, &slots);
    let cfg = |count_candidates| NegotiationConfig {
        docking_vector: policy.docking_vector().expect("the vector"),
        root_order: HTCondorPolicy::root_order(),
        autocluster: None,
        count_candidates,
        ..NegotiationConfig::default()
    };
    let picks = |r: &classad::matchmaking::negotiate::CycleResult| -> Vec<(usize, Option<usize>)> {
        r.outcomes.iter().map(|o| (o.job, o.machine)).collect()
    };
    let walked = negotiate(&jobs, &slots, &cfg(false), |_, _| true);
    let surveyed = negotiate(&jobs, &slots, &cfg(true), |_, _| true);
    assert!(
        walked.matched > 100 && walked.matched < jobs.len(),
        "{}",
        walked.matched
    );
    let (a, b) = (picks(&walked), picks(&surveyed));
    if let Some(i) = (0..a.len()).find(|&i| a.get(i) != b.get(i)) {
        panic!(
            "job #{i} of the cycle: walked {:?}, surveyed {:?}",
            a.get(i),
            b.get(i)
        );
    }
    assert!(
        walked.pair_evaluations * 2 < surveyed.pair_evaluations,
        "{} against {}",
        walked.pair_evaluations,
        surveyed.pair_evaluations
    );
}
