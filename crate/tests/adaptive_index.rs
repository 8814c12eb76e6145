//! The cycle decides by its own timings whether the ch. 4 index pays
//! (`index::adaptive`), and a glidein's START — 128 profiles — is indexed
//! as one rectangle (its hull): whichever way, every job gets the machine
//! and the reason it gets without the index.

use std::sync::Arc;

use classad::index::negotiation::{negotiate_choosing, IndexUse};
use classad::matchmaking::negotiate::{CycleResult, NegotiationConfig};
use classad::matchmaking::workload::{self, Rng};
use classad::{parse_classad, ClassAd};

const START: &str = "(isUndefined(TARGET.SingularityImage) || MY.HAS_SINGULARITY) && \
 (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory) && \
 (isUndefined(TARGET.RequestGPUs) || TARGET.RequestGPUs <= MY.GPUs) && \
 (TARGET.ProjectName isnt undefined || TARGET.Owner isnt undefined) && \
 ((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites, \",\")) && \
 ((TARGET.UNDESIRED_Sites is undefined) || !stringListMember(MY.GLIDEIN_Site, TARGET.UNDESIRED_Sites, \",\")) && \
 (TARGET.JobUniverse == 5 || TARGET.JobUniverse == 7) && \
 ((TARGET.WantGPUs =?= true && MY.GPUs > 0) || TARGET.WantGPUs =!= true)";

const SITES: [&str; 6] = ["UCSD", "Nebraska", "Wisconsin", "FNAL", "Purdue", "MWT2"];

/// Glidein slots as `condor_status -l` gives them (one START text), a
/// quarter claimed.
fn slots(n: usize, rng: &mut Rng) -> Vec<Arc<ClassAd>> {
    (0..n)
        .map(|i| {
            let cpus = [1, 2, 4, 8][rng.below(4) as usize];
            let claimed = rng.below(4) == 0;
            let text = format!(
                "[ Name = \"slot{i}@glidein{i}\"; Cpus = {cpus}; Memory = {}; GPUs = {}; \
                 GLIDEIN_Site = \"{}\"; HAS_SINGULARITY = true; Arch = \"X86_64\"; OpSys = \"LINUX\"; \
                 Disk = {}; State = \"{}\"; {} START = {START}; \
                 Requirements = START && (TARGET.RequestCpus <= MY.Cpus); Rank = 0 ]",
                cpus * 2048,
                rng.below(3) / 2,
                SITES[rng.below(SITES.len() as u64) as usize],
                1_000_000 + rng.below(20_000_000),
                if claimed { "Claimed" } else { "Unclaimed" },
                if claimed {
                    "RemoteUser = \"someone@osg\"; CurrentRank = 0;"
                } else {
                    ""
                },
            );
            Arc::new(parse_classad(&text).expect("slot parses"))
        })
        .collect()
}

/// OSPool-shaped jobs: clusters of procs, some naming sites, some GPUs.
fn jobs(n: usize, rng: &mut Rng) -> Vec<Arc<ClassAd>> {
    (0..n)
        .map(|i| {
            let cluster = 100 + i / 10;
            let sites = if cluster % 3 == 0 {
                format!(
                    "DESIRED_Sites = \"{},{}\";",
                    SITES[cluster % 6],
                    SITES[(cluster + 1) % 6]
                )
            } else {
                String::new()
            };
            let extra = if cluster % 5 == 0 {
                " && TARGET.GPUs >= 1"
            } else {
                ""
            };
            let text = format!(
                "[ ClusterId = {cluster}; ProcId = {}; Owner = \"u{}\"; JobUniverse = 5; \
                 RequestCpus = {}; RequestMemory = {}; RequestDisk = {}; {sites} \
                 Requirements = (TARGET.Arch == \"X86_64\") && (TARGET.Memory >= RequestMemory) \
                 && (TARGET.Disk >= RequestDisk){extra}; QDate = {} ]",
                i % 10,
                cluster % 4,
                [1, 1, 2, 4][cluster % 4],
                [1000, 2000, 4000][cluster % 3],
                1_000_000 + rng.below(5_000_000),
                1_700_000_000 + cluster,
            );
            Arc::new(parse_classad(&text).expect("job parses"))
        })
        .collect()
}

fn outcomes(r: &CycleResult) -> Vec<String> {
    r.outcomes
        .iter()
        .map(|o| format!("{} {:?} {:?} {:?}", o.job, o.machine, o.vector, o.reason))
        .collect()
}

/// The first job whose outcome differs, if any.
fn same(a: &CycleResult, b: &CycleResult, what: &str) {
    let (x, y) = (outcomes(a), outcomes(b));
    if let Some(i) = (0..x.len().max(y.len())).find(|&i| x.get(i) != y.get(i)) {
        panic!(
            "{what}: job #{i} of the order: {:?} against {:?}",
            x.get(i),
            y.get(i)
        );
    }
}

fn every_way(jobs: &[Arc<ClassAd>], machines: &[Arc<ClassAd>], cfg: &NegotiationConfig) -> String {
    let (plain, none) = negotiate_choosing(jobs, machines, cfg, IndexUse::Never, |_, _| true);
    assert!(none.is_none());
    assert!(plain.matched > 0);
    let (always, _) = negotiate_choosing(jobs, machines, cfg, IndexUse::Always, |_, _| true);
    same(&plain, &always, "the index from the start");
    let (auto, decision) = negotiate_choosing(jobs, machines, cfg, IndexUse::Auto, |_, _| true);
    same(&plain, &auto, "the index when it pays");
    let d = decision.expect("the cycle decided");
    assert!(
        d.note.starts_with("built") || d.note.starts_with("not built"),
        "{}",
        d.note
    );
    // A built index says when and how long it took; one not built does not.
    assert_eq!(
        d.built_before_job.is_some(),
        d.note.starts_with("built"),
        "{}",
        d.note
    );
    assert_eq!(d.built_before_job.is_some(), d.build_ms.is_some());
    d.note
}

#[test]
fn glidein_pools_get_the_same_assignment_every_way() {
    let mut rng = Rng::new(35);
    let machines = slots(1500, &mut rng);
    let jobs = jobs(400, &mut rng);
    for counted in [false, true] {
        let cfg = NegotiationConfig {
            autocluster: None,
            count_candidates: counted,
            ..NegotiationConfig::default()
        };
        every_way(&jobs, &machines, &cfg);
    }
    // Each slot's START is one rectangle, not 128.
    let index = classad::index::Index::build_for(&machines, &jobs, Default::default());
    let stats = index.stats();
    assert_eq!(stats.rectangles, machines.len(), "{stats:?}");
}

#[test]
fn the_thesis_workload_gets_the_same_assignment_every_way() {
    let machines = workload::ads(&workload::machines(2000, 7));
    let jobs = workload::ads(&workload::jobs(2000, 8));
    for auto in [false, true] {
        let mut cfg = NegotiationConfig::default();
        if !auto {
            cfg.autocluster = None;
        }
        every_way(&jobs, &machines, &cfg);
    }
}

/// A cycle too short to time is never indexed.
#[test]
fn a_short_cycle_is_not_indexed() {
    let machines = workload::ads(&workload::machines(50, 7));
    let jobs = workload::ads(&workload::jobs(5, 8));
    let note = every_way(&jobs, &machines, &NegotiationConfig::default());
    assert!(note.starts_with("not built"), "{note}");
}
