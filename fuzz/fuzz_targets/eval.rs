//! Arbitrary text parsed as an expression; if it parses, it is evaluated
//! (HTCondor and strict modes) with a fixed job/machine pair as MY/TARGET,
//! the value and the expression are unparsed, and the expression is also
//! installed as the job's Requirements and matched symmetrically. Nothing
//! may panic or hang (run with -timeout).
#![no_main]

use std::sync::{Arc, OnceLock};

use classad::matchmaking::matching::symmetric_match;
use classad::lang::unparse::value_to_string;
use classad::lang::parser::parse_expr_in;
use classad::{parse_classad, unparse, ClassAd, Clock, Dialect, EvalOptions, Evaluator, Mode};
use libfuzzer_sys::fuzz_target;

const JOB: &str = r#"[
  MyType = "Job"; Owner = "alice"; ClusterId = 17; ProcId = 3; QDate = 1767225600;
  ImageSize = 13146; RequestMemory = 16; RequestDisk = DiskUsage; DiskUsage = 5000;
  JobUniverse = 5; Department = "CS"; Args = { "a", 2, 3.5, [x = 1] }; Self = Self + 1;
  Rank = TARGET.Mips; Nested = [ a = 1; b = a + parent.ClusterId; c = { 1, 2 } ];
  Requirements = TARGET.Arch == "INTEL" && TARGET.Memory >= RequestMemory
]"#;
const MACHINE: &str = r#"[
  MyType = "Machine"; Name = "slot1@e00001.cs.wisc.edu"; Arch = "INTEL"; OpSys = "LINUX";
  Memory = 64; VirtualMemory = 83235; Disk = 9231854; Mips = 900; KFlops = 210000;
  LoadAvg = 0.25; CondorLoadAvg = 0.0; KeyboardIdle = 16432; State = "Unclaimed";
  Start = TARGET.RequestMemory < Memory - 15 && KeyboardIdle > 15 * 60;
  Requirements = START; Rank = TARGET.Department =?= "CS"; Loop = Loop
]"#;

fn ads() -> &'static (Arc<ClassAd>, Arc<ClassAd>) {
    static ADS: OnceLock<(Arc<ClassAd>, Arc<ClassAd>)> = OnceLock::new();
    ADS.get_or_init(|| {
        (
            Arc::new(parse_classad(JOB).expect("job ad")),
            Arc::new(parse_classad(MACHINE).expect("machine ad")),
        )
    })
}

fn options(mode: Mode) -> EvalOptions {
    EvalOptions {
        mode,
        clock: Clock {
            now: Some(1_767_225_600.0),
            local_offset: Some(-6 * 3600),
        },
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expr) = parse_expr_in(text, Dialect::Auto) else {
        return;
    };
    let (job, machine) = ads();
    let _ = unparse(&expr);
    for mode in [Mode::HTCondor, Mode::Strict] {
        let mut ev = Evaluator::new(options(mode));
        ev.set_ads(Some(job.clone()), Some(machine.clone()));
        let v = ev.eval_expr(&expr);
        let _ = value_to_string(&v);
        // Without a target too.
        ev.set_ads(Some(machine.clone()), None);
        let v = ev.eval_expr(&expr);
        let _ = value_to_string(&v);
    }
    let mut j = (**job).clone();
    j.insert("Requirements", expr);
    let j = Arc::new(j);
    let mut ev = Evaluator::new(options(Mode::HTCondor));
    std::hint::black_box(symmetric_match(&mut ev, &j, machine));
    std::hint::black_box(symmetric_match(&mut ev, machine, &j));
});
