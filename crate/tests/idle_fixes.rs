//! Issue 34, cases 2 and 6: the values that would work are searched among
//! the slots' own (the least change and the most slots, exactly), and a job
//! whose matches are all busy gets fixes and a word on what busy means.
//! Each count is checked by evaluating every slot both ways.

use std::sync::Arc;

use classad::analysis::{analyze, report, AnalysisOptions};
use classad::lang::eval::{EvalOptions, Evaluator};
use classad::matchmaking::matching::symmetric_match;
use classad::{parse_classad, parse_expr, ClassAd};

fn ads(texts: &[String]) -> Vec<Arc<ClassAd>> {
    texts
        .iter()
        .map(|t| Arc::new(parse_classad(t).unwrap()))
        .collect()
}

/// Both ways and willing (not claimed) with the fix's attributes set.
fn counted(job: &ClassAd, attrs: &[(&str, &str)], machines: &[Arc<ClassAd>]) -> (u64, u64) {
    let mut changed = job.clone();
    for (k, v) in attrs {
        changed.insert(k, parse_expr(v).unwrap());
    }
    let changed = Arc::new(changed);
    let mut ev = Evaluator::new(EvalOptions::default());
    let (mut both, mut willing) = (0, 0);
    for m in machines {
        if symmetric_match(&mut ev, &changed, m).matched() {
            both += 1;
            willing += m.get("RemoteUser").is_none() as u64;
        }
    }
    (both, willing)
}

/// 60 slots of 1-32 GB whose START reads the job's RequestMemory; a third
/// of them claimed. A job asking 2 TB: the least change is the biggest
/// slot that is free, the most slots the smallest memory.
#[test]
fn a_two_terabyte_request_gets_the_least_and_the_most_that_run() {
    let sizes = [1024, 2048, 4096, 8192, 16384, 32768];
    let machines = ads(&(0..60)
        .map(|i| {
            let mem = sizes[i % 6];
            let claimed = if i % 3 == 2 {
                "State = \"Claimed\"; RemoteUser = \"u@x\";"
            } else {
                "State = \"Unclaimed\";"
            };
            format!(
                "[ Name = \"slot{i}\"; Memory = {mem}; Cpus = 1; {claimed} \
                 START = TARGET.RequestMemory <= MY.Memory; Requirements = START ]"
            )
        })
        .collect::<Vec<_>>());
    let job = Arc::new(
        parse_classad(
            "[ ClusterId = 1; ProcId = 0; RequestMemory = 2097152; RequestCpus = 1; \
             Requirements = TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus ]",
        )
        .unwrap(),
    );
    let a = analyze(&job, &machines, &AnalysisOptions::default()).unwrap();
    assert_eq!(a.summary.matched, 0);
    let memory: Vec<_> = a
        .suggestions
        .iter()
        .filter(|s| s.listed && s.job_attributes.contains_key("RequestMemory"))
        .collect();
    let values: Vec<&str> = memory
        .iter()
        .map(|s| s.job_attributes["RequestMemory"].as_str())
        .collect();
    // Slots with 32768 MB: i % 6 == 5, of which i % 3 == 2 are claimed —
    // all of them (5, 11, 17, … are 2 mod 3): so 32768 gains only busy
    // slots and the least change that runs is 16384.
    assert!(values.contains(&"16384"), "{values:?}");
    assert!(values.contains(&"1024"), "{values:?}");
    // Ranked by how little they lower the request: 16384 before 1024.
    let at = |v: &str| values.iter().position(|x| *x == v).unwrap();
    assert!(at("16384") < at("1024"), "{values:?}");
    for s in &memory {
        let v = s.job_attributes["RequestMemory"].as_str();
        assert_eq!(
            counted(&job, &[("RequestMemory", v)], &machines),
            (s.both_ways, s.willing),
            "{v}"
        );
        assert!(
            s.lowers
                .iter()
                .any(|l| l.starts_with("RequestMemory 2097152")),
            "{s:?}"
        );
    }
    let most = memory
        .iter()
        .find(|s| s.job_attributes["RequestMemory"] == "1024")
        .unwrap();
    assert_eq!(most.willing, 40);
    // The search itself: every value that gains slots, counted; 32768 gains
    // only busy slots, so the least change is 16384, the most 1024.
    let searched: Vec<(&str, u64, u64, bool, bool)> = a
        .searched
        .iter()
        .filter(|o| o.attribute == "RequestMemory")
        .map(|o| (o.value.as_str(), o.both_ways, o.willing, o.least, o.most))
        .collect();
    assert!(
        searched.contains(&("32768", 10, 0, false, false)),
        "{searched:?}"
    );
    assert!(
        searched.contains(&("16384", 20, 10, true, false)),
        "{searched:?}"
    );
    assert!(
        searched.contains(&("1024", 60, 40, false, true)),
        "{searched:?}"
    );
    for o in &a.searched {
        assert_eq!(
            counted(&job, &[(&o.attribute, &o.value)], &machines),
            (o.both_ways, o.willing),
            "{o:?}"
        );
    }
}

/// The job's matches are all claimed; the free slots lack what one clause
/// asks. The job gets fixes (dropping that clause runs it), and the report
/// says who holds the busy slots and whether rank preemption could help.
#[test]
fn a_job_whose_matches_are_all_busy_gets_fixes_and_a_word_on_busy() {
    let mut texts = vec![];
    for i in 0..12 {
        texts.push(format!(
            "[ Name = \"busy{i}\"; Memory = 8192; HasDocker = true; State = \"Claimed\"; \
             RemoteUser = \"{}@x\"; CurrentRank = 0; Rank = TARGET.Owner == \"alice\"; Requirements = true ]",
            if i < 8 { "bob" } else { "carol" }
        ));
    }
    for i in 0..30 {
        texts.push(format!(
            "[ Name = \"free{i}\"; Memory = 8192; State = \"Unclaimed\"; Requirements = true ]"
        ));
    }
    let machines = ads(&texts);
    let job = Arc::new(
        parse_classad(
            "[ ClusterId = 2; ProcId = 0; Owner = \"alice\"; \
             Requirements = TARGET.Memory >= 4096 && TARGET.HasDocker == true ]",
        )
        .unwrap(),
    );
    let a = analyze(&job, &machines, &AnalysisOptions::default()).unwrap();
    assert_eq!((a.summary.match_but_busy, a.summary.matched), (12, 0));
    let best = a
        .suggestions
        .iter()
        .find(|s| s.listed)
        .expect("a fix is offered");
    assert_eq!((best.both_ways, best.willing), (42, 30), "{best:?}");
    let busy = a.busy.as_ref().expect("busy is explained");
    assert_eq!(busy.slots, 12);
    assert_eq!(
        busy.claimed_by,
        vec![("bob@x".to_string(), 8), ("carol@x".to_string(), 4)]
    );
    // Rank (TARGET.Owner == "alice") is true: 1 > CurrentRank 0.
    assert_eq!(busy.rank_preemption, 12);
    let text = report::render(&a);
    assert!(
        text.contains("Busy: 12 slots match but are claimed (held by bob@x 8, carol@x 4); 12 of them rank your job above the job they run (Rank > CurrentRank): rank preemption could give you one."),
        "{text}"
    );
}

/// Case 7: the report echoes the operators the user typed (`=?=`, `=!=`),
/// where libclassad's unparser would write `is` / `isnt`.
#[test]
fn the_job_s_own_meta_operators_are_echoed() {
    let machines = ads(&[
        "[ Name = \"a\"; HasDocker = true; Requirements = true ]".to_string(),
        "[ Name = \"b\"; Requirements = true ]".to_string(),
    ]);
    let job = Arc::new(
        parse_classad(
            "[ ClusterId = 3; ProcId = 0; Requirements = TARGET.HasDocker =?= true && TARGET.Bad =!= true && TARGET.Memory is undefined ]",
        )
        .unwrap(),
    );
    let a = analyze(&job, &machines, &AnalysisOptions::default()).unwrap();
    assert_eq!(
        a.requirements,
        "TARGET.HasDocker =?= true && TARGET.Bad =!= true && TARGET.Memory is undefined"
    );
    let text = report::render(&a);
    assert!(
        text.contains(
            "    TARGET.HasDocker =?= true && TARGET.Bad =!= true && TARGET.Memory is undefined\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("TARGET.HasDocker =?= true\n"),
        "the steps: {text}"
    );
    assert!(!text.contains("HasDocker is true"), "{text}");
}
