//! Nobody Likes Me on glidein slots (issue 34, case 5): the machines'
//! START clauses that reject the job, grouped by text, the job attribute
//! they read (`DESIRED_Sites`), the values the slots hold and what each
//! opens — or that the reason is the machines' own (a retirement clock).
//! Every option's counts are checked here by evaluating every slot both
//! ways; `crate/tests/analysis_oracle` checks the same claims with libclassad.

use std::sync::Arc;

use classad::analysis::{analyze, report, AnalysisOptions};
use classad::lang::eval::{EvalOptions, Evaluator, Mode};
use classad::matchmaking::matching::symmetric_match;
use classad::{parse_classad, ClassAd};

/// The START glidein factories hand their slots (bench/gen_production.py's).
const START: &str = "(isUndefined(TARGET.SingularityImage) || MY.HAS_SINGULARITY) && \
    (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory) && \
    (TARGET.RequestDisk <= MY.Disk) && (isUndefined(TARGET.RequestGPUs) || TARGET.RequestGPUs <= MY.GPUs) && \
    (MY.GLIDEIN_ToRetire is undefined || time() < MY.GLIDEIN_ToRetire) && \
    (TARGET.ProjectName isnt undefined || TARGET.Owner isnt undefined) && \
    ((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites, \",\")) && \
    ((TARGET.UNDESIRED_Sites is undefined) || !stringListMember(MY.GLIDEIN_Site, TARGET.UNDESIRED_Sites, \",\")) && \
    (TARGET.JobUniverse == 5 || TARGET.JobUniverse == 7) && \
    ((TARGET.WantGPUs =?= true && MY.GPUs > 0) || TARGET.WantGPUs =!= true)";

const SITES: [&str; 6] = ["UCSD", "Nebraska", "Wisconsin", "FNAL", "Purdue", "MWT2"];
const NOW: i64 = 1_795_000_000;

/// `n` glidein slots over six sites, a quarter claimed, each retiring
/// `retire` seconds after NOW (negative: already past).
fn glideins(n: usize, retire: i64) -> Vec<Arc<ClassAd>> {
    (0..n)
        .map(|i| {
            let site = SITES[i % SITES.len()];
            let cpus = [1, 2, 4, 8][i % 4];
            let claimed = i % 4 == 3;
            let text = format!(
                "[ Name = \"slot{}@glidein{i}.{}.example.org\"; Machine = \"glidein{i}.{}.example.org\"; \
                 Cpus = {cpus}; Memory = {}; Disk = {}; GPUs = 0; HAS_SINGULARITY = true; \
                 GLIDEIN_Site = \"{site}\"; GLIDEIN_ToRetire = {}; State = \"{}\"; {} \
                 START = {START}; WithinResourceLimits = (TARGET.RequestCpus <= MY.Cpus); \
                 Requirements = START && WithinResourceLimits ]",
                i % 3 + 1,
                site.to_lowercase(),
                site.to_lowercase(),
                cpus * 2048,
                cpus * 4_000_000,
                NOW + retire + i as i64,
                if claimed { "Claimed" } else { "Unclaimed" },
                if claimed { "RemoteUser = \"other@osg\";" } else { "" },
            );
            Arc::new(parse_classad(&text).unwrap())
        })
        .collect()
}

fn cms_job(sites: &str) -> Arc<ClassAd> {
    Arc::new(
        parse_classad(&format!(
            "[ ClusterId = 42; ProcId = 0; Owner = \"cmsuser\"; JobUniverse = 5; JobStatus = 1; \
             RequestCpus = 1; RequestMemory = 2000; RequestDisk = 1000000; DESIRED_Sites = \"{sites}\"; \
             Requirements = (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && \
             (TARGET.Disk >= RequestDisk) ]"
        ))
        .unwrap(),
    )
}

fn options() -> AnalysisOptions {
    AnalysisOptions {
        eval: EvalOptions::at(Mode::HTCondor, NOW as f64, 0),
        ..AnalysisOptions::default()
    }
}

/// Both ways, and of those not busy, with `attr = value` set on the job.
fn count_with(job: &ClassAd, attr: &str, value: &str, machines: &[Arc<ClassAd>]) -> (u64, u64) {
    let mut changed = job.clone();
    changed.insert(attr, classad::parse_expr(value).unwrap());
    let changed = Arc::new(changed);
    let mut ev = Evaluator::new(options().eval);
    let (mut both, mut willing) = (0, 0);
    for m in machines {
        if symmetric_match(&mut ev, &changed, m).matched() {
            both += 1;
            let busy = matches!(m.get("State").and_then(|e| e.as_literal()), Some(v) if v.as_str() == Some("Claimed"));
            willing += !busy as u64;
        }
    }
    (both, willing)
}

#[test]
fn desired_sites_is_named_with_the_sites_the_slots_offer() {
    let machines = glideins(600, 86_400);
    let job = cms_job("T2_CH_CERN,T2_US_MIT");
    let a = analyze(&job, &machines, &options()).unwrap();
    assert_eq!(a.summary.reject_job, 600);
    assert!(a.notes.is_empty(), "no bound is met: {:?}", a.notes);
    // One rule, not 600: the START clause that reads DESIRED_Sites.
    let r = &a.rejections[0];
    assert_eq!(a.rejections.len(), 1, "{:?}", a.rejections);
    assert_eq!((r.attribute.as_str(), r.slots, r.only), ("START", 600, 600));
    assert_eq!(r.reads, vec!["DESIRED_Sites"]);
    assert_eq!(r.slot_reads, vec!["GLIDEIN_Site"]);
    assert_eq!(r.offered.len(), 6, "{:?}", r.offered);
    assert!(r.offered.iter().all(|o| o.slots == 100));
    // Removing or widening it opens every slot; adding one site opens 100.
    let unclaimed = 450;
    let most: Vec<_> = r.options.iter().filter(|o| o.most).collect();
    assert_eq!(most.len(), 1);
    assert_eq!((most[0].both_ways, most[0].willing), (600, unclaimed));
    let remove = r.options.iter().find(|o| o.change == "remove").unwrap();
    assert_eq!(
        (remove.value.as_str(), remove.willing),
        ("undefined", unclaimed)
    );
    let least = r.options.iter().find(|o| o.least).unwrap();
    assert_eq!(least.change, "add");
    assert!(
        least.value.starts_with("\"T2_CH_CERN,T2_US_MIT,"),
        "{least:?}"
    );
    assert_eq!(least.both_ways, 100);
    // Every option is what evaluation says.
    for o in &r.options {
        assert_eq!(
            count_with(&job, &o.attribute, &o.value, &machines),
            (o.both_ways, o.willing),
            "{o:?}"
        );
    }
    // The fix offered first lets the job run on every willing slot.
    let best = &a.suggestions[0];
    assert!(
        best.job_attributes.contains_key("DESIRED_Sites"),
        "{best:?}"
    );
    assert_eq!(best.willing, unclaimed);
    let text = report::render(&a);
    assert!(
        text.contains("reads your job's DESIRED_Sites = \"T2_CH_CERN,T2_US_MIT\""),
        "{text}"
    );
    assert!(text.contains("the slots hold GLIDEIN_Site:"), "{text}");
}

#[test]
fn retiring_glideins_are_the_machines_own_reason() {
    let machines = glideins(300, -86_400);
    let job = cms_job("UCSD");
    let a = analyze(&job, &machines, &options()).unwrap();
    assert_eq!(a.summary.reject_job, 300);
    assert!(a.notes.is_empty(), "{:?}", a.notes);
    let retire = a
        .rejections
        .iter()
        .find(|r| r.clause.contains("GLIDEIN_ToRetire"))
        .expect("the retirement clause");
    assert_eq!(retire.slots, 300);
    assert!(retire.reads.is_empty() && retire.clock, "{retire:?}");
    assert_eq!(retire.slot_reads, vec!["GLIDEIN_ToRetire"]);
    assert!(retire.options.is_empty());
    // Nothing the job can change opens a slot.
    assert!(a.job_changes.is_empty(), "{:?}", a.job_changes);
    assert!(a.suggestions.iter().all(|s| s.willing == 0));
    let text = report::render(&a);
    assert!(
        text.contains("reads nothing of your job (only GLIDEIN_ToRetire and the clock (time())): no change to the job opens these slots"),
        "{text}"
    );
}

#[test]
fn a_request_too_big_for_some_slots_gets_its_least_and_most_values() {
    let machines = glideins(400, 86_400);
    // Slots of 1, 2, 4, 8 CPUs have 2048 MB a CPU; the 8-CPU ones are all
    // claimed. The job asks 20000 MB, more than any slot has.
    let job = Arc::new(
        parse_classad(
            "[ ClusterId = 7; ProcId = 0; Owner = \"u\"; JobUniverse = 5; RequestCpus = 1; \
             RequestMemory = 20000; RequestDisk = 1000; Requirements = TARGET.Cpus >= RequestCpus ]",
        )
        .unwrap(),
    );
    let a = analyze(&job, &machines, &options()).unwrap();
    assert_eq!(a.summary.reject_job, 400);
    let r = a
        .rejections
        .iter()
        .find(|r| r.reads == vec!["RequestMemory"])
        .expect("the memory clause");
    let least = r.options.iter().find(|o| o.least).unwrap();
    let most = r.options.iter().find(|o| o.most).unwrap();
    // 16384 gains only busy slots: the least change that gains a willing
    // one is 8192; the most, the smallest slot's memory.
    let busy_only = r.options.iter().find(|o| o.value == "16384").unwrap();
    assert_eq!((busy_only.both_ways, busy_only.willing), (100, 0));
    assert_eq!(least.value, "8192");
    assert_eq!(most.value, "2048");
    assert_eq!(most.both_ways, 400);
    for o in &r.options {
        assert_eq!(
            count_with(&job, &o.attribute, &o.value, &machines),
            (o.both_ways, o.willing),
            "{o:?}"
        );
    }
}
