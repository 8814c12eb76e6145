//! Auto-clustering as the seed's design says (issue 35, case 4): the
//! significant attributes are what a match evaluates of the job — the
//! machines' Requirements/START and Rank and what they reach, plus the
//! negotiator's policy expressions — in the ads' own spelling, and each
//! cluster's signature comes with its values.

use classad::matchmaking::autocluster::{
    cluster, signatures, significant_attributes, spell_as_written, AutoclusterConfig,
};
use classad::matchmaking::negotiate::NegotiationConfig;
use classad::{parse_classad, ClassAd};

fn glidein(i: usize) -> ClassAd {
    parse_classad(&format!(
        r#"[ Name = "slot1@glidein{i}"; Cpus = 4; Memory = 8192; GLIDEIN_Site = "UCSD";
             START = (TARGET.RequestMemory <= MY.Memory) && ((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites));
             WithinResourceLimits = TARGET.RequestCpus <= MY.Cpus;
             Requirements = START && WithinResourceLimits;
             Rank = TARGET.JobPrio;
             DaemonShutdown = (MyCurrentTime - EnteredCurrentActivity) > 1200 && (MyCurrentTime - LastHeardFrom) > 600;
             EnteredCurrentActivity = 1000; LastHeardFrom = 2000 ]"#
    ))
    .unwrap()
}

#[test]
fn significant_attributes_are_what_a_match_reads_spelled_as_written() {
    let machines: Vec<ClassAd> = (0..3).map(glidein).collect();
    let mref: Vec<&ClassAd> = machines.iter().collect();
    let cfg = NegotiationConfig::default();
    let sig = significant_attributes(&mref, &cfg.docking_vector);
    for read in ["requestmemory", "desired_sites", "requestcpus", "jobprio"] {
        assert!(sig.contains(read), "{read}: {sig:?}");
    }
    // DaemonShutdown is not evaluated by a match.
    for unread in ["mycurrenttime", "enteredcurrentactivity", "lastheardfrom"] {
        assert!(!sig.contains(unread), "{unread}: {sig:?}");
    }
    let jobs: Vec<ClassAd> = [2048, 2048, 4096]
        .iter()
        .map(|m| {
            parse_classad(&format!(
                "[ Owner = \"alice\"; RequestMemory = {m}; RequestCpus = 1; JobPrio = 0 ]"
            ))
            .unwrap()
        })
        .collect();
    let jref: Vec<&ClassAd> = jobs.iter().collect();
    let mut c = cluster(&jref, &sig, &AutoclusterConfig::default());
    assert_eq!(c.sizes, vec![2, 1]);
    let mut values = signatures(&c, &jref);
    spell_as_written(&mut c, &mut values, &mref, &jref, &cfg.docking_vector);
    // Names in their canonical case: as the jobs define them, else as the
    // machines or the policy write them (the docking vector's MY.UserPrio).
    for name in ["RequestMemory", "DESIRED_Sites", "UserPrio"] {
        assert!(
            c.significant.iter().any(|s| s == name),
            "{name}: {:?}",
            c.significant
        );
    }
    assert!(
        c.significant.iter().all(|s| s != "userprio"),
        "{:?}",
        c.significant
    );
    let memory: Vec<&str> = values
        .iter()
        .map(|sig| {
            sig.iter()
                .find(|(k, _)| k == "RequestMemory")
                .unwrap()
                .1
                .as_str()
        })
        .collect();
    assert_eq!(memory, ["2048", "4096"]);
    let sites = values[0]
        .iter()
        .find(|(k, _)| k == "DESIRED_Sites")
        .unwrap();
    assert_eq!(sites.1, "undefined");
}
