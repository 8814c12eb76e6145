//! The examples gallery: every ClassAd figure of the seed documents and a
//! realistic modern pool, each loadable in one click (and by the deep link
//! `#example=<id>`), with a sentence saying what the paper shows.

use crate::state::app_state::{AdRef, AppState, MatchSettings, PoolText, View};

pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    /// Where it comes from (document and figure).
    pub source: &'static str,
    /// What the paper claims the example shows.
    pub claim: &'static str,
    // The pools (most of an example's bytes) are not here but in
    // `pools_of`: the page shows the cards and never links the pools; the
    // worker builds an example's state (`Example::state`) and sends it.
    pub expr: &'static str,
    pub my: Option<(usize, usize)>,
    pub target: Option<(usize, usize)>,
    /// Path of nested records inside MY to evaluate in.
    pub scope: &'static [&'static str],
    /// What the expression evaluates to (checked by the tests), when it
    /// does not depend on the clock.
    pub expect: Option<&'static str>,
    /// The view it opens in (matchmaking examples open in theirs).
    pub view: View,
    /// The matchmaking views' clock (local wall time), for time-dependent
    /// policies shown at a chosen time.
    pub clock: Option<&'static str>,
}

/// The Query view's examples: (example id, constraint, columns).
const QUERIES: &[(&str, &str, &[&str])] = &[
    (
        "004-query-idle",
        "KeyboardIdle > 20*60 && Memory > 100",
        &["Name", "Arch", "OpSys", "State", "Memory", "KeyboardIdle"],
    ),
    (
        "004-query-any",
        "FauxType==\"DBMS\" && regexp(\"random.*\", Name, \"i\")",
        &["MyType", "TargetType", "Name"],
    ),
];

impl Example {
    pub fn state(&self) -> AppState {
        let mut s = AppState {
            pools: pools_of(self.id)
                .iter()
                .map(|(n, t)| PoolText {
                    name: n.to_string(),
                    text: (*t).into(),
                })
                .collect(),
            active_pool: 0,
            expr: self.expr.to_string(),
            my: self.my.map(|(pool, ad)| AdRef { pool, ad }),
            target: self.target.map(|(pool, ad)| AdRef { pool, ad }),
            my_label: None,
            target_label: None,
            scope: self.scope.iter().map(|p| p.to_string()).collect(),
            mode: classad::api::Mode::HTCondor,
            view: self.view,
            matching: MatchSettings {
                clock: self.clock.map(str::to_string),
                ..Default::default()
            },
            analyze: Default::default(),
            gang: Default::default(),
            query: Default::default(),
            example: None,
            not_kept: vec![],
        };
        if let Some((_, constraint, columns)) = QUERIES.iter().find(|q| q.0 == self.id) {
            s.query.spec = classad::api::QuerySpec {
                constraint: constraint.to_string(),
                columns: columns.iter().map(|c| c.to_string()).collect(),
                ..Default::default()
            };
        }
        if self.view == View::Gangs {
            // Requests first, offers second: gang ads carry no MyType.
            s.matching.jobs = Some(0);
            s.matching.machines = Some(1);
        }
        s.normalize();
        s.example = Some(s.fingerprint());
        s
    }
}

macro_rules! seed {
    ($f:literal) => {
        include_str!(concat!("../../../tests/seeds/", $f))
    };
}
/// The matchmaking examples' own ads (variants around the seed figures).
macro_rules! data {
    ($f:literal) => {
        include_str!(concat!("../../data/", $f))
    };
}
/// The analyzer's pools of seed 000 §3 (tests/analysis/make_pools.py).
macro_rules! analysis {
    ($f:literal) => {
        include_str!(concat!("../../../tests/analysis/", $f))
    };
}
/// Gangmatching's figures (crate/tests/gang) and a base-workload sample.
macro_rules! gang {
    ($f:literal) => {
        include_str!(concat!("../../../crate/tests/gang/", $f))
    };
}
macro_rules! corpus {
    ($f:literal) => {
        include_str!(concat!("../../../tests/corpora/", $f))
    };
}

const BOTH: &str = "MY.Requirements && TARGET.Requirements";
/// The thesis' ads call their requirements `Constraint`.
const BOTH_THESIS: &str = "MY.Constraint && TARGET.Constraint";

/// Gangmatching labels (`Host1`, `cpu`, …) name the ads docked at the
/// ports. The playground has no docking, so an example builds what the
/// thesis calls the evaluation environment (as in Figure 32): an ad that
/// binds the labels and holds the request as a nested record, which is
/// then the scope; label references climb from a port up to the bindings.
macro_rules! dock {
    ($name:literal, $bindings:literal, $field:literal, $fig:expr) => {
        concat!(
            "[\n  Name = \"",
            $name,
            "\";\n",
            $bindings,
            "  ",
            $field,
            " = ",
            $fig,
            "]\n"
        )
    };
}

const DOCK_FIG9_JOB: &str = r#"// The customer: its rank for the candidate and its user priority.
[ Name = "the job"; Rank = 7; UserPrio = 10 ]
"#;

const DOCK_FIG9: &str = r#"// `label` bound to candidate machines (what docking would do).
[ Name = "an unclaimed machine"; label = [ State = "Unclaimed" ] ]
[ Name = "serving bob, prefers the new job"; label = [ RemoteUser = "bob"; CurrentRank = 0; Rank = 1; RemoteUserPrio = 5; ServiceTime = '4:00'; ImageSize = 1000 ] ]
[ Name = "serving a worse-priority user for 4 h"; label = [ RemoteUser = "bob"; CurrentRank = 1; Rank = 1; RemoteUserPrio = 20; ServiceTime = '4:00'; ImageSize = 1000 ] ]
[ Name = "serving a worse-priority user for 1 h"; label = [ RemoteUser = "bob"; CurrentRank = 1; Rank = 1; RemoteUserPrio = 20; ServiceTime = '1:00'; ImageSize = 1000 ] ]
"#;

/// One table for every example: the cards (`EXAMPLES`, which the page
/// links) and, apart, their pools (`pools_of`, which only the worker does).
macro_rules! examples {
    ($(Example {
        id: $id:literal,
        title: $title:expr,
        source: $source:expr,
        claim: $claim:expr,
        pools: $pools:expr,
        expr: $expr:expr,
        my: $my:expr,
        target: $target:expr,
        scope: $scope:expr,
        expect: $expect:expr,
        view: $view:expr,
        clock: $clock:expr $(,)?
    }),* $(,)?) => {
        pub const EXAMPLES: &[Example] = &[$(Example {
            id: $id,
            title: $title,
            source: $source,
            claim: $claim,
            expr: $expr,
            my: $my,
            target: $target,
            scope: $scope,
            expect: $expect,
            view: $view,
            clock: $clock,
        }),*];

        /// An example's pools: (name, text).
        fn pools_of(id: &str) -> &'static [(&'static str, &'static str)] {
            match id {
                $($id => $pools,)*
                _ => &[],
            }
        }
    };
}

examples! {
    Example {
        id: "000-fig2-3",
        title: "A workstation and a job that want each other",
        source: "From the policy analyzer paper (Coleman et al. 2003), Figures 2 and 3",
        claim: "The workstation runs jobs only while its load average is below 0.3 and its keyboard has been idle for 15 minutes; the job wants an INTEL/LINUX machine with 128 MB. With LoadAvg = 0.042969 the two accept each other — set LoadAvg above 0.3 and the match disappears.",
        pools: &[("machine", seed!("000_fig02.classad")), ("job", seed!("000_fig03.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "000-matrix",
        title: "Who rejects whom: a match matrix",
        source: "From the policy analyzer paper (Coleman et al. 2003), Figures 2 and 3",
        claim: "The Figure 2 workstation and the Figure 3 job among variants: a busy workstation (LoadAvg 0.35), a SPARC machine, riffraff's job and a job wanting 512 MB. Every outcome appears; only two pairs accept each other: the Figure 3 job (1) with the Figure 2 workstation (foo), and solomon's job (3) with sun. Click a cell to see both Requirements evaluated.",
        pools: &[("machines", concat!(seed!("000_fig02.classad"), data!("000_machines.classad"))), ("jobs", concat!(seed!("000_fig03.classad"), data!("000_jobs.classad")))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Matrix,
        clock: None,
    },
    Example {
        id: "000-eight",
        title: "Eight machines, none the job likes: suggestions",
        source: "From the policy analyzer paper (Coleman et al. 2003), §3.1.1 (the M1 and M2 tables)",
        claim: "The job wants an ALPHA running SOLARIS with 512 MB; of the eight machines two are ALPHA, three run SOLARIS and four have the memory, but none has all three. M1 removes Arch == \"ALPHA\" for two machines (3 and 6); changing it to INTEL or SPARC gains only one; M2 weighs how far each value moves. Arch and OpSys conflict in this pool.",
        pools: &[("job", analysis!("eight_job.classad")), ("machines", analysis!("eight_machines.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "000-fig4",
        title: "A subset lattice of conflicts",
        source: "From the policy analyzer paper (Coleman et al. 2003), Figure 4 (§3.1.2)",
        claim: "p1 && p2 && p3 && p4 against machines satisfying {p1, p2}, {p3} and {p4}: the minimal failing sets (conflicts) are {p1,p3}, {p1,p4}, {p2,p3}, {p2,p4} and {p3,p4}; the maximal succeeding sets {p1,p2}, {p3} and {p4}.",
        pools: &[("job", analysis!("figure4_job.classad")), ("machines", analysis!("figure4_machines.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "000-fig5",
        title: "Nobody likes me: the job's attributes as a point",
        source: "From the policy analyzer paper (Coleman et al. 2003), Figure 5 (§3.2)",
        claim: "Two machines, c1 wanting ImageSize ≥ 128M and MemoryRequirements ≥ 512M, c2 wanting ImageSize ≥ 64M and MemoryRequirements ≥ 1024M; the job (100M, 600M) is in neither rectangle. The plane is partitioned into cells accepted by the same machines: [64M, 128M) × [1024M, ∞) is c2's alone.",
        pools: &[("job", analysis!("figure5_job.classad")), ("machines", analysis!("figure5_machines.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "000-analyze1",
        title: "condor_q -analyze: a predicate no machine can satisfy",
        source: "From the policy analyzer paper (Coleman et al. 2003), §3.3, first report",
        claim: "Of 839 machines, 839 are rejected by the job's requirements: no machine defines Foo (REMOVE it) and none has Memory > 2096 (relax it to 1911, the largest there is).",
        pools: &[("job", analysis!("analyze1_job.classad")), ("machines", analysis!("analyze1_machines.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "000-analyze2",
        title: "condor_q -analyze: two predicates in conflict",
        source: "From the policy analyzer paper (Coleman et al. 2003), §3.3, second report",
        claim: "SOLARIS && ALPHA && Disk >= DiskUsage: 120 machines run SOLARIS and 4 are ALPHA, but none is both — predicates 1 and 2 conflict. The job's DiskUsage is substituted (Disk >= 14).",
        pools: &[("job", analysis!("analyze2_job.classad")), ("machines", analysis!("analyze2_machines.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "000-analyze3",
        title: "condor_q -analyze: the machines reject the job",
        source: "From the policy analyzer paper (Coleman et al. 2003), §3.3, third report",
        claim: "Of 837 machines the job's requirements reject 807; the other 30 reject the job, whose ImageSize is too large for them: use a value <= 1220608.",
        pools: &[("job", analysis!("analyze3_job.classad")), ("machines", analysis!("analyze3_machines.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "000-idle-job",
        title: "An idle job asking too much memory",
        source: "Built for the playground on the shape of public OSPool jobs and glidein slots",
        claim: "Of 40 slots on 28 machines the job's requirements reject all 40: it asks RequestMemory = 2000 and the slots offer 1900 at most. Lowering the requirements' literal alone runs nothing, because the slots' own requirements read RequestMemory too; the fixes change RequestMemory instead: 1024 lets 34 willing slots run it, 1900 (the nearest) 24.",
        pools: &[("job", analysis!("idle_job.classad")), ("slots", analysis!("idle_slots.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Analyze,
        clock: None,
    },
    Example {
        id: "001-fig1-2",
        title: "The thesis' first workstation and job",
        source: "From Raman's thesis (2000), Figures 1 and 2",
        claim: "The workstation runs jobs only when idle and when the job's image size is 15 MB less than its physical memory (64M − 31M ≥ 15M); the job asks for enough virtual memory with other.VirtualMemory > self.ImageSize.",
        pools: &[("machine", seed!("001_fig01.classad")), ("job", seed!("001_fig02.classad"))],
        expr: "Constraint",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig4",
        title: "Workstation access control",
        source: "From Raman's thesis (2000), Figure 4",
        claim: "Research-group jobs always run, friends' jobs run when the machine is idle, others only at night (DayTime() before 8:00 or after 18:00), and rival and riffraff never — says the paper. As written, though, an untrusted owner has Rank 0 and falls through to the night-time branch: pick riffraff's job as TARGET after 18:00 and it is accepted. calvin is a friend, raman is in the research group.",
        pools: &[("machine", seed!("001_fig04.classad")), ("jobs", "[ Name = \"calvin's job\"; Owner = \"calvin\"; Type = \"Job\" ]\n[ Name = \"riffraff's job\"; Owner = \"riffraff\"; Type = \"Job\" ]\n[ Name = \"raman's job\"; Owner = \"raman\"; Type = \"Job\" ]\n")],
        expr: "Constraint",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig5",
        title: "Time-dependent resource preference",
        source: "From Raman's thesis (2000), Figure 5",
        claim: "The job prefers machines idle for more than three hours (Rank 5), and instructional machines at night (Rank 10). Its Rank depends on the time of day: note DayTime without parentheses in the figure, an attribute reference that is undefined.",
        pools: &[("job", seed!("001_fig05.classad")), ("machines", "[ Name = \"idle for 4 hours\"; Type = \"Machine\"; IsInstructional = false; KeybrdIdle = '4:00' ]\n[ Name = \"instructional, busy\"; Type = \"Machine\"; IsInstructional = true; KeybrdIdle = '0:10' ]\n")],
        expr: "Rank",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig6",
        title: "Time-dependent resource constraints",
        source: "From Raman's thesis (2000), Figure 6",
        claim: "For its first two hours in the queue the job insists on 1 GB of memory, then settles for 0.5 GB: ElapsedTime = CurrentTime() - QDate is a relative time. Queued in 1999, the job now accepts the 768 MB machine.",
        pools: &[("job", seed!("001_fig06.classad")), ("machine", "[ Name = \"a 768 MB machine\"; Type = \"Machine\"; Arch = \"INTEL\"; OpSys = \"SOLARIS251\"; Memory = 768M ]\n")],
        expr: "other.Memory >= (ElapsedTime > '2:00' ? 0.5G : 1.0G)",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-matrix",
        title: "Time-dependent policies at 21:00",
        source: "From Raman's thesis (2000), Figures 4, 5 and 6",
        claim: "The Figure 4 workstation and a 768 MB machine against the Figure 5 and 6 jobs, a friend's and riffraff's. At 21:00 (the chosen clock: change it in the bar) the workstation accepts riffraff through its night-time branch, though the paper says untrusted owners never run; at 14:00 it refuses. Queued in 1999, the Figure 6 job settles for 0.5 GB, which the 64 MB workstation does not have.",
        pools: &[("machines", concat!(seed!("001_fig04.classad"), data!("001_machines.classad"))), ("jobs", concat!(seed!("001_fig05.classad"), seed!("001_fig06.classad"), data!("001_jobs.classad")))],
        expr: BOTH_THESIS,
        my: Some((0, 1)),
        target: Some((1, 1)),
        scope: &[],
        expect: Some("true"),
        view: View::Matrix,
        clock: Some("2024-03-12T21:00"),
    },
    Example {
        id: "001-fig8",
        title: "Port labels define dependent matches (gangmatching)",
        source: "From Raman's thesis (2000), Figure 8",
        claim: "A request with two ports, labelled Host1 and Host2: the second port's constraint refers to the machine docked at the first (same subnet). MY is an environment binding the labels, with the request as the scope; pick the other environment to put Host2 on another subnet.",
        pools: &[
            ("docked", concat!(
                dock!("Host1 and Host2 on one subnet", "  Host1 = [ Arch = \"INTEL\"; OpSys = \"LINUX\"; VirtualMemory = 64M; MIPS = 100; KFlops = 20000; Subnet = \"128.105.175\" ];\n  Host2 = [ Arch = \"INTEL\"; OpSys = \"LINUX\"; VirtualMemory = 64M; MIPS = 90; KFlops = 30000; Subnet = \"128.105.175\" ];\n", "Gang", seed!("001_fig08.classad")),
                dock!("Host2 on another subnet", "  Host1 = [ Arch = \"INTEL\"; OpSys = \"LINUX\"; VirtualMemory = 64M; MIPS = 100; KFlops = 20000; Subnet = \"128.105.175\" ];\n  Host2 = [ Arch = \"INTEL\"; OpSys = \"LINUX\"; VirtualMemory = 64M; MIPS = 90; KFlops = 30000; Subnet = \"128.105.166\" ];\n", "Gang", seed!("001_fig08.classad")))),
            ("gang request", seed!("001_fig08.classad")),
        ],
        expr: "Ports[1].Constraint",
        my: Some((0, 0)),
        target: None,
        scope: &["Gang"],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig9",
        title: "Condor's policy as a docking vector",
        source: "From Raman's thesis (2000), Figure 9",
        claim: "For each job the negotiator compares candidate machines by the vector (job rank, 2 = idle / 1 = rank preemption / 0 = priority preemption / error = not allowed, preemption rank), lexicographically. The TARGET ad binds label to a candidate: an idle machine gives {7, 2, 0}; try the others.",
        pools: &[("job", DOCK_FIG9_JOB), ("docked", DOCK_FIG9)],
        expr: concat!("join(\", \", ", seed!("001_fig09.classad"), ")"),
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("\"7, 2, 0\""),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig10",
        title: "A rendering service advertisement",
        source: "From Raman's thesis (2000), Figure 10",
        claim: "The first port behaves as the parent link, accepting render_client requests but not rival's (pick the other environment as MY). The second port takes its StdIn from the request (Ports[1].StdIn is \"scene.dat\") and needs a workstation; the third names the workstation docked at cpu and needs a license.",
        pools: &[
            ("docked", concat!(
                dock!("a request from raman", "  request = [ Type = \"render_client\"; Owner = \"raman\"; sceneFile = \"scene.dat\"; outputFile = \"out.img\" ];\n  cpu = [ Arch = \"INTEL\"; OpSys = \"LINUX\"; VirtualMemory = 64M; Memory = 32M; Name = \"node1\" ];\n  license = [ App = \"do_render\" ];\n", "Service", seed!("001_fig10.classad")),
                dock!("a request from rival", "  request = [ Type = \"render_client\"; Owner = \"rival\"; sceneFile = \"scene.dat\"; outputFile = \"out.img\" ];\n  cpu = [ Arch = \"INTEL\"; OpSys = \"LINUX\"; VirtualMemory = 64M; Memory = 32M; Name = \"node1\" ];\n  license = [ App = \"do_render\" ];\n", "Service", seed!("001_fig10.classad")))),
            ("service", seed!("001_fig10.classad")),
        ],
        expr: "Ports[0].Constraint",
        my: Some((0, 0)),
        target: None,
        scope: &["Service"],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig11",
        title: "Two co-located compute nodes as a multiprocessor",
        source: "From Raman's thesis (2000), Figure 11",
        claim: "A gang request marshals two compute nodes on the same host (labels cpu1 and cpu2) and re-advertises them as one multiprocessor (Ports[2].NumCpus is 4, Ports[2].Memory 768M). Pick the other environment as MY to put the nodes on different hosts.",
        pools: &[
            ("docked", concat!(
                dock!("two nodes on host h1", "  cpu1 = [ Type = \"ComputeNode\"; IsDedicated = true; Host = \"h1\"; Name = \"n1\"; Arch = \"INTEL\"; OpSys = \"LINUX\"; NumCpus = 2; Memory = 512M; Disk = 10G; VirtualMemory = 1G ];\n  cpu2 = [ Type = \"ComputeNode\"; IsDedicated = true; Host = \"h1\"; Name = \"n2\"; Arch = \"INTEL\"; OpSys = \"LINUX\"; NumCpus = 2; Memory = 256M; Disk = 5G; VirtualMemory = 512M ];\n  request = [ MemoryReqs = 500M ];\n", "Gang", seed!("001_fig11.classad")),
                dock!("nodes on different hosts", "  cpu1 = [ Type = \"ComputeNode\"; IsDedicated = true; Host = \"h1\"; Name = \"n1\"; Arch = \"INTEL\"; OpSys = \"LINUX\"; NumCpus = 2; Memory = 512M; Disk = 10G; VirtualMemory = 1G ];\n  cpu2 = [ Type = \"ComputeNode\"; IsDedicated = true; Host = \"h2\"; Name = \"n2\"; Arch = \"INTEL\"; OpSys = \"LINUX\"; NumCpus = 2; Memory = 256M; Disk = 5G; VirtualMemory = 512M ];\n  request = [ MemoryReqs = 500M ];\n", "Gang", seed!("001_fig11.classad")))),
            ("request", seed!("001_fig11.classad")),
        ],
        expr: "Ports[1].Constraint",
        my: Some((0, 0)),
        target: None,
        scope: &["Gang"],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig13",
        title: "A Condor workstation advertisement",
        source: "From Raman's thesis (2000), Figure 13",
        claim: "A real Condor machine ad of the time: non-Condor load (LoadAvg − CondorLoadAvg) under 0.3, keyboard idle more than 15 minutes, and a job image that fits in (Memory − 15) × 1024 KB make it willing to run the job.",
        pools: &[("machine", seed!("001_fig13.classad")), ("jobs", "[ Name = \"a 200 MB job\"; Type = \"Job\"; ImageSize = 200000 ]\n[ Name = \"a 240 MB job\"; Type = \"Job\"; ImageSize = 245760 ]\n")],
        expr: "Constraint",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig16",
        title: "Simple classads for indexing",
        source: "From Raman's thesis (2000), Figure 16",
        claim: "Offers and requests whose constraints are intervals over x and y: the first offer (x = 10, wants y ≥ 7) and the first request (y = 8, wants x ≥ 8) intersect, so they match. Try the other offer or request.",
        pools: &[("ads", seed!("001_fig16.classad"))],
        expr: BOTH_THESIS,
        my: Some((0, 0)),
        target: Some((0, 2)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig19-20",
        title: "Index performance workload: object and query",
        source: "From Raman's thesis (2000), Figures 19 and 20",
        claim: "The sample object has D = 5 and fails the query's other.D >= 7; the query has Y = 9 and fails the object's other.Y <= 6: they do not match.",
        pools: &[("object", seed!("001_fig19.classad")), ("query", seed!("001_fig20.classad"))],
        expr: BOTH_THESIS,
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("false"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig28-30",
        title: "The base workload: machine, license and job",
        source: "From Raman's thesis (2000), Figures 28, 29 and 30",
        claim: "The job docks a Cpu and a License: HostId = Cpu.Key is the docked machine's Key, 143. Ports[1].Constraint accepts the Fig. 29 sim_app license, and Ports[0].Constraint rejects the Fig. 28 machine: it runs WINNT40, not LINUX. MY is an environment binding the labels to those ads, with the job as the scope.",
        pools: &[
            ("docked", concat!("[\n  Name = \"Fig. 30 job, Fig. 28 machine, Fig. 29 license\";\n  Cpu = ", seed!("001_fig28.classad"), ";\n  License = ", seed!("001_fig29.classad"), ";\n  Gang = ", seed!("001_fig30.classad"), "]\n")),
            ("job", seed!("001_fig30.classad")),
            ("machine", seed!("001_fig28.classad")),
            ("license", seed!("001_fig29.classad")),
        ],
        expr: "Ports[1].HostId",
        my: Some((0, 0)),
        target: None,
        scope: &["Gang"],
        expect: Some("143"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig32",
        title: "The evaluation environment of a marshaled gang",
        source: "From Raman's thesis (2000), Figure 32",
        claim: "After the gang is marshaled every port constraint holds (try _ctx_1._ad.ports[0].Constraint too); label references climb from a port to the enclosing context: cpu.Arch is found in the machine's _ad, not in its port.",
        pools: &[("environment", seed!("001_fig32.classad"))],
        expr: "_ctx_0._ad.ports[0].Constraint",
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-circular",
        title: "Circular references are undefined",
        source: "From Raman's thesis (2000), §2",
        claim: "The ClassAd language defines that circular expression evaluation results in the undefined value.",
        pools: &[("ad", seed!("001_ex_ch2_circular.classad"))],
        expr: "a",
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: Some("undefined"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "003-grid",
        title: "A grid site and SAMGrid ads",
        source: "From the Condor-G / SAMGrid paper (2004)",
        claim: "A compute cluster advertises its gatekeeper and load (a nested record: choose the scope MY.Load); jobs of GoodPeople rank higher (member(other.Name, GoodPeople) * 500). The SAMGrid job ranks sites with a user-defined data-overlap function and carries $$(gatekeeper_url) for the planner.",
        pools: &[("sites", concat!(seed!("003_fig01.classad"), "\n", seed!("003_ad1.classad"))), ("jobs", concat!("[ Type = \"Job\"; Name = \"howard\" ]\n", seed!("003_ad2.classad")))],
        expr: "Rank",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("500"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "003-negotiation",
        title: "Grid sites ranked by cached data",
        source: "From the Condor-G / SAMGrid paper (2004)",
        claim: "The job ranks grid sites with sam_rank_data_overlap, a function the pool supplies as data (a table of the files each SAM station caches). The cycle gives it cdf-toronto, which caches 120 files of its dataset against FNAL's 15, and fills its $$(gatekeeper_url) and $$(scratch_dir:/tmp) from the site.",
        pools: &[("sites", concat!(corpus!("grid/functions.classad"), "\n", corpus!("grid/sites.classad"))), ("jobs", corpus!("grid/jobs.classad"))],
        expr: "MY.Requirements && TARGET.Requirements",
        my: Some((1, 0)),
        target: Some((0, 1)),
        scope: &[],
        expect: Some("true"),
        view: View::Negotiation,
        clock: None,
    },
    Example {
        id: "004-manual",
        title: "The Condor manual's machine and job",
        source: "From the Condor manual, §4.1 (ClassAd mechanism)",
        claim: "The machine never runs jobs of rival and riffraff, always runs its research group's (jbasney), and others only when idle — it is busy (LoadAvg 0.8), so tannenba's job waits. RANK puts the research group (10) over friends (1); the job wants a SUN4u running SOLARIS251 (unqualified names fall back to the target).",
        pools: &[
            ("machine", concat!(seed!("004_example_machine.classad"), "Name = \"the manual's machine\"\nArch = \"SUN4u\"\nOpSys = \"SOLARIS251\"\nLoadAvg = 0.8\nKeyboardIdle = 120\nMemory = 256\nMips = 100\n")),
            ("jobs", concat!(
                "Name = \"jbasney's job\"\nOwner = \"jbasney\"\n", seed!("004_example_job.classad"),
                "\nName = \"tannenba's job\"\nOwner = \"tannenba\"\n", seed!("004_example_job.classad"),
                "\nName = \"rival's job\"\nOwner = \"rival\"\n", seed!("004_example_job.classad"))),
        ],
        expr: "START",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "004-constraint",
        title: "condor_status -constraint",
        source: "From the Condor manual, §4.1 (ClassAd mechanism)",
        claim: "Find all computers which have had their keyboards idle for more than 20 minutes and have more than 100 MB of memory: here one machine at a time, as MY; the Query view asks every machine at once (the next example).",
        pools: &[("machines", corpus!("condor_status_l.txt"))],
        expr: seed!("004_constraint1.classad"),
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "004-query-idle",
        title: "condor_status -const: idle machines with memory",
        source: "From the Condor manual, §4.1 (ClassAd mechanism)",
        claim: "The manual's query, KeyboardIdle > 20*60 && Memory > 100, asked of a pool of 40 machines: it selects 29 of them, and the summary is the manual's table — 3 SUN4u, 21 INTEL and 3 SUN4x machines on SOLARIS251, one INTEL/WINNT51 and one INTEL/LINUX; 28 claimed, 1 unclaimed. Click a row to see why the constraint held for that machine.",
        pools: &[("machines", data!("004_status_pool.classad"))],
        expr: "KeyboardIdle > 20*60 && Memory > 100",
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: None,
        view: View::Query,
        clock: None,
    },
    Example {
        id: "004-query-any",
        title: "condor_status -any: a generic ad by regexp",
        source: "From the Condor manual, §4.1 (ClassAd mechanism)",
        claim: "condor_status -any -constraint 'FauxType==\"DBMS\" && regexp(\"random.*\", Name, \"i\")' finds the generic ad an administrator advertised, among machines: one row, Generic None random-test (TargetType is undefined here, as the ad has none).",
        pools: &[("ads", concat!(data!("004_status_pool.classad"), "\n", seed!("004_example_generic.classad")))],
        expr: "FauxType == \"DBMS\"",
        my: None,
        target: None,
        scope: &[],
        expect: None,
        view: View::Query,
        clock: None,
    },
    Example {
        id: "modern-pool",
        title: "A modern HTCondor pool and job",
        source: "What condor_status -l and condor_q -l print (HTCondor 25)",
        claim: "Partitionable and dynamic slots as condor_status -l prints them, and a job as condor_q -l prints it: does the job's Requirements accept the first slot?",
        pools: &[("machines", corpus!("condor_status_l.txt")), ("jobs", corpus!("condor_q_l.txt"))],
        expr: "TARGET.Requirements",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: Some("true"),
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "modern-json",
        title: "A pool as condor_status -json",
        source: "What condor_status -json prints (HTCondor 25)",
        claim: "JSON as HTCondor writes it, expressions in \"\\/Expr(…)\\/\" strings, read directly: the slot's Start policy evaluated against a job from condor_q -l.",
        pools: &[("machines", corpus!("condor_status.json")), ("jobs", corpus!("condor_q_l.txt"))],
        expr: "Start",
        my: Some((0, 0)),
        target: Some((1, 0)),
        scope: &[],
        expect: None,
        view: View::Evaluate,
        clock: None,
    },
    Example {
        id: "001-fig8-gang",
        title: "Two hosts on one subnet: a gang of three",
        source: "From Raman's thesis (2000), Figure 8",
        claim: "One request with two ports, Host1 and Host2: both hosts must run INTEL/LINUX and Host2 must share Host1's subnet (Host2.Subnet == Host1.Subnet). The ranked search takes m1 first for Host1 (the most MIPS), finds no subnet mate, backtracks, and docks m2 with m3.",
        pools: &[("requests", gang!("fig8_requests.ads")), ("offers", gang!("fig8_offers.ads"))],
        expr: "size(Ports)",
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: Some("2"),
        view: View::Gangs,
        clock: None,
    },
    Example {
        id: "001-fig10-gang",
        title: "A render server that needs a CPU and a license",
        source: "From Raman's thesis (2000), Figure 10",
        claim: "The client has one port (other) and docks with the render server's request port; the server's own cpu and license ports are then filled as part of the same gang: its license port's HostName = cpu.Name must be a machine the license accepts. The gang line shows the server's ports as renderd.cpu and renderd.license.",
        pools: &[("requests", gang!("fig10_requests.ads")), ("offers", gang!("fig10_offers.ads"))],
        expr: "size(Ports)",
        my: Some((1, 4)),
        target: None,
        scope: &[],
        expect: Some("3"),
        view: View::Gangs,
        clock: None,
    },
    Example {
        id: "001-fig11-gang",
        title: "A multiprocessor whose parent link is its last port",
        source: "From Raman's thesis (2000), Figure 11",
        claim: "The job docks with the multiprocessor through the machine's last port; its cpu1 and cpu2 ports come first and are not filled yet when the parent link is tested, so that docking is a tentative yes, confirmed once both CPUs are docked.",
        pools: &[("requests", gang!("fig11_requests.ads")), ("offers", gang!("fig11_offers.ads"))],
        expr: "MemoryReqs",
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: Some("1.048576000000000E+08"),
        view: View::Gangs,
        clock: None,
    },
    Example {
        id: "001-base-workload",
        title: "Jobs, machines and licenses: the thesis' base workload",
        source: "From Raman's thesis (2000), Figures 28-30 (§5.2)",
        claim: "Twelve jobs, twelve machines and six licenses (the 50 % regime) in two partitions: a license serves only machines of its partition (Job.HostId in its range, HostId = Cpu.Key). Half the jobs can get no license. Try the algorithms: the indexed ones probe the index and evaluate only to confirm; step through DYN to see it fill the scarcer port first.",
        pools: &[("requests", data!("gang_base/requests.ads")), ("offers", data!("gang_base/offers.ads"))],
        expr: "size(Ports)",
        my: Some((0, 0)),
        target: None,
        scope: &[],
        expect: Some("2"),
        view: View::Gangs,
        clock: None,
    },
}

pub fn find(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use classad::api::{handle, Request, Response};

    fn eval_in(ex: &Example, my: Option<(usize, usize)>, target: Option<(usize, usize)>) -> String {
        let s = ex.state();
        let slice = |r: Option<(usize, usize)>| {
            r.map(|(p, a)| {
                let text = s.pools[p].text.to_string();
                let Response::Pool { ads, .. } = handle(Request::ParsePool {
                    text: text.clone(),
                    format: Default::default(),
                    dialect: Default::default(),
                }) else {
                    unreachable!()
                };
                text[ads[a].start as usize..ads[a].end as usize].to_string()
            })
        };
        match handle(Request::Evaluate {
            expr: s.expr.clone(),
            my: slice(my),
            target: slice(target),
            scope: s.scope.clone(),
            mode: s.mode,
            dialect: Default::default(),
            trace: false,
            now: None,
            tz_offset: None,
        }) {
            Response::Value { value, .. } => value,
            _ => "FAILED".into(),
        }
    }

    /// An example opened is marked untouched, and any change to its pools
    /// or its expression, even back to an equal length, takes the mark off
    /// (opening a link then keeps the work aside).
    #[test]
    fn an_opened_example_is_untouched_until_changed() {
        let s = find("000-matrix").unwrap().state();
        assert!(s.is_untouched_example());
        let mut e = s.clone();
        e.expr = e.expr.replace("&&", "||");
        assert!(!e.is_untouched_example());
        let mut p = s.clone();
        p.pools[1].text = p.pools[1].text.replace("riffraff", "riffruff").into();
        assert!(!p.is_untouched_example());
        assert!(!crate::state::app_state::AppState::default().is_untouched_example());
    }

    /// The other ads an example's card points to show the contrast it
    /// describes.
    #[test]
    fn alternatives_show_the_contrast() {
        let cases: &[(&str, Option<(usize, usize)>, Option<(usize, usize)>, &str)] = &[
            ("001-fig8", Some((0, 1)), None, "false"),
            ("001-fig9", Some((0, 0)), Some((1, 1)), "\"7, 1, 49000\""),
            ("001-fig9", Some((0, 0)), Some((1, 2)), "\"7, 0, 199000\""),
            ("001-fig9", Some((0, 0)), Some((1, 3)), "error"),
            ("001-fig10", Some((0, 1)), None, "false"),
            ("001-fig11", Some((0, 1)), None, "false"),
            ("001-fig13", Some((0, 0)), Some((1, 1)), "false"),
            ("001-fig16", Some((0, 1)), Some((0, 2)), "false"),
            ("003-grid", Some((0, 0)), Some((1, 1)), "undefined"),
            ("004-manual", Some((0, 0)), Some((1, 1)), "false"),
            ("004-manual", Some((0, 0)), Some((1, 2)), "false"),
        ];
        let mut bad = vec![];
        for (id, my, target, want) in cases {
            let got = eval_in(find(id).unwrap(), *my, *target);
            if got != *want {
                bad.push(format!("{id} {my:?} {target:?}: {got}, expected {want}"));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    /// Every example opens to ads that parse, the chosen ads exist, and
    /// the expression gives what the card says.
    #[test]
    fn every_example_opens_to_its_claim() {
        let mut bad = vec![];
        for ex in EXAMPLES {
            let s = ex.state();
            let mut slices = vec![];
            for p in &s.pools {
                let Response::Pool {
                    ads, diagnostics, ..
                } = handle(Request::ParsePool {
                    text: p.text.to_string(),
                    format: Default::default(),
                    dialect: Default::default(),
                })
                else {
                    unreachable!()
                };
                if let Some(d) = diagnostics.iter().find(|d| d.is_error()) {
                    bad.push(format!(
                        "{}: pool {}: {}:{}: {}",
                        ex.id, p.name, d.line, d.column, d.message
                    ));
                }
                slices.push((p.text.to_string(), ads));
            }
            let get = |r: Option<crate::state::app_state::AdRef>| {
                r.map(|r| {
                    let (t, ads) = &slices[r.pool];
                    let a = ads.get(r.ad).expect("the chosen ad exists");
                    t[a.start as usize..a.end as usize].to_string()
                })
            };
            let resp = handle(Request::Evaluate {
                expr: s.expr.clone(),
                my: get(s.my),
                target: get(s.target),
                scope: s.scope.clone(),
                mode: s.mode,
                dialect: Default::default(),
                trace: false,
                now: None,
                tz_offset: None,
            });
            match (resp, ex.expect) {
                (Response::Value { value, .. }, Some(want)) if value != want => bad.push(format!(
                    "{}: {} gives {value}, the card expects {want}",
                    ex.id, s.expr
                )),
                (Response::Value { .. }, _) => {}
                (Response::Failed { which, diagnostics }, _) => {
                    bad.push(format!("{}: {which}: {:?}", ex.id, diagnostics))
                }
                _ => bad.push(format!("{}: no value", ex.id)),
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
