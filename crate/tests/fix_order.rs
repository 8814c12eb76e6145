//! The analyzer's fixes in the order a user can take them (issue 34): a fix
//! that keeps what the job asked for comes before one that lowers a request,
//! whatever their counts; one that lowers says so.

use std::sync::Arc;

use classad::analysis::{analyze, AnalysisOptions};

fn ad(text: &str) -> Arc<classad::ClassAd> {
    Arc::new(classad::parse_classad(text).expect("an ad"))
}

#[test]
fn the_gpu_jobs_first_fix_is_its_capability_not_its_memory() {
    // 16 GB and CUDA 8.6: three A100-like slots (8.0, 32 GB) and five slots
    // with 8.6 but 1 GB. Lowering the memory to 1024 gives five; the change
    // the job needs, CUDACapability >= 8.0, three.
    let job = ad("[ ClusterId = 1; ProcId = 0; JobStatus = 1; RequestMemory = 16384; Requirements = (TARGET.CUDACapability >= 8.6) && (TARGET.Memory >= RequestMemory) ]");
    let mut machines = vec![];
    for i in 0..3 {
        machines.push(ad(&format!(
            "[ Name = \"a{i}\"; CUDACapability = 8.0; Memory = 32768; Requirements = true ]"
        )));
    }
    for i in 0..5 {
        machines.push(ad(&format!(
            "[ Name = \"b{i}\"; CUDACapability = 8.6; Memory = 1024; Requirements = true ]"
        )));
    }
    let a = analyze(&job, &machines, &AnalysisOptions::default()).unwrap();
    let listed: Vec<_> = a.suggestions.iter().filter(|s| s.listed).collect();
    let first = listed.first().expect("a fix");
    assert!(
        first.lowers.is_empty() && first.job_attributes.is_empty(),
        "{first:?}"
    );
    assert!(
        first.requirements.contains("CUDACapability >= 8.0")
            || !first.requirements.contains("CUDACapability"),
        "{}",
        first.requirements
    );
    assert_eq!(first.willing, 3);
    // The memory fix is offered, after, and says what it costs.
    let memory = listed
        .iter()
        .position(|s| s.job_attributes.get("RequestMemory").map(String::as_str) == Some("1024"))
        .expect("the memory fix");
    assert!(memory > 0);
    assert_eq!(
        listed[memory].lowers,
        vec!["RequestMemory 16384 \u{2192} 1024".to_string()]
    );
    assert_eq!(listed[memory].willing, 5);
    // Every fix that keeps the requests comes before every one that lowers.
    let kinds: Vec<bool> = listed.iter().map(|s| s.lowers.is_empty()).collect();
    assert!(kinds.windows(2).all(|w| w[0] >= w[1]), "{kinds:?}");
    // No listed fix touches the memory predicate without saying so.
    for s in &listed {
        let memory = s.changes.iter().any(|c| {
            a.clauses[s.clause].predicates[c.predicate]
                .text
                .contains("Memory")
        });
        assert!(!memory || !s.lowers.is_empty(), "{s:?}");
    }
}
