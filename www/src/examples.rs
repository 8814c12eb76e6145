//! The examples gallery: every ClassAd figure of the seed documents and a
//! realistic modern pool, each loadable in one click (and by the deep link
//! `#example=<id>`), with a sentence saying what the paper shows.

use crate::state::{AdRef, AppState, PoolText, View};

pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    /// Where it comes from (document and figure).
    pub source: &'static str,
    /// What the paper claims the example shows.
    pub claim: &'static str,
    pub pools: &'static [(&'static str, &'static str)],
    pub expr: &'static str,
    pub my: Option<(usize, usize)>,
    pub target: Option<(usize, usize)>,
}

impl Example {
    pub fn state(&self) -> AppState {
        let mut s = AppState {
            pools: self
                .pools
                .iter()
                .map(|(n, t)| PoolText {
                    name: n.to_string(),
                    text: t.to_string(),
                })
                .collect(),
            active_pool: 0,
            expr: self.expr.to_string(),
            my: self.my.map(|(pool, ad)| AdRef { pool, ad }),
            target: self.target.map(|(pool, ad)| AdRef { pool, ad }),
            scope: vec![],
            mode: classad::Mode::HTCondor,
            view: View::Evaluate,
        };
        s.normalize();
        s
    }
}

macro_rules! seed {
    ($f:literal) => {
        include_str!(concat!("../../tests/seeds/", $f))
    };
}
macro_rules! corpus {
    ($f:literal) => {
        include_str!(concat!("../../tests/corpora/", $f))
    };
}

const BOTH: &str = "MY.Requirements && TARGET.Requirements";

pub const EXAMPLES: &[Example] = &[
    Example {
        id: "000-fig2-3",
        title: "A workstation and a job that want each other",
        source: "Coleman et al. 2003, Figures 2 and 3",
        claim: "The workstation runs jobs only while its load average is below 0.3 and its keyboard has been idle for 15 minutes; the job wants an INTEL/LINUX machine with 128 MB. With LoadAvg = 0.042969 the two accept each other — set LoadAvg above 0.3 and the match disappears.",
        pools: &[("machine", seed!("000_fig02.classad")), ("job", seed!("000_fig03.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "001-fig1-2",
        title: "The thesis' first workstation and job",
        source: "Raman 2000, Figures 1 and 2",
        claim: "The workstation runs jobs only when idle and when the job's image size is 15 MB less than its physical memory; the job asks for enough virtual memory with other.VirtualMemory > self.ImageSize.",
        pools: &[("machine", seed!("001_fig01.classad")), ("job", seed!("001_fig02.classad"))],
        expr: "Constraint",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "001-fig4",
        title: "Workstation access control",
        source: "Raman 2000, Figure 4",
        claim: "Research-group jobs always run, friends' jobs run when the machine is idle, others only at night (DayTime() before 8:00 or after 18:00), and rival and riffraff never. Try other.Owner values with the TARGET ad.",
        pools: &[("machine", seed!("001_fig04.classad")), ("job", "[ Owner = \"calvin\"; Type = \"Job\" ]\n[ Owner = \"riffraff\"; Type = \"Job\" ]\n[ Owner = \"raman\"; Type = \"Job\" ]\n")],
        expr: "Constraint",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "001-fig5",
        title: "Time-dependent resource preference",
        source: "Raman 2000, Figure 5",
        claim: "The job prefers machines idle for more than three hours, and instructional machines at night: its Rank depends on the time of day.",
        pools: &[("job", seed!("001_fig05.classad")), ("machine", seed!("001_fig01.classad"))],
        expr: "Rank",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "001-fig6",
        title: "Time-dependent resource constraints",
        source: "Raman 2000, Figure 6",
        claim: "For its first two hours in the queue the job insists on 1 GB of memory, then settles for 0.5 GB: ElapsedTime = CurrentTime() - QDate is a relative time.",
        pools: &[("job", seed!("001_fig06.classad")), ("machine", seed!("001_fig01.classad"))],
        expr: "ElapsedTime",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "001-fig8",
        title: "Port labels define dependent matches (gangmatching)",
        source: "Raman 2000, Figure 8",
        claim: "A request with two ports, labelled Host1 and Host2: the second port's constraint refers to the machine docked at the first (same subnet).",
        pools: &[("gang request", seed!("001_fig08.classad"))],
        expr: "size(Ports)",
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "001-fig9",
        title: "Condor's policy as a docking vector",
        source: "Raman 2000, Figure 9",
        claim: "The negotiator picks, for each job, the machine with the best vector of (job rank, no preemption / rank preemption / priority preemption, preemption rank), compared lexicographically.",
        pools: &[("docking vector", "[ DockingVector = \n")],
        expr: seed!("001_fig09.classad"),
        my: None,
        target: None,
    },
    Example {
        id: "001-fig10",
        title: "A rendering service advertisement",
        source: "Raman 2000, Figure 10",
        claim: "The first port behaves as the parent link, accepting render_client requests; the second needs a license.",
        pools: &[("service", seed!("001_fig10.classad"))],
        expr: "Ports[0]",
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "001-fig11",
        title: "Two co-located compute nodes as a multiprocessor",
        source: "Raman 2000, Figure 11",
        claim: "A gang request marshals two compute nodes on the same host, expressed with labels cpu1 and cpu2.",
        pools: &[("request", seed!("001_fig11.classad"))],
        expr: "Ports",
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "001-fig13",
        title: "A Condor workstation advertisement",
        source: "Raman 2000, Figure 13",
        claim: "A real Condor machine ad of the time: non-Condor load under 0.3 and keyboard idle more than 15 minutes make it willing to run jobs.",
        pools: &[("machine", seed!("001_fig13.classad"))],
        expr: "Requirements",
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "001-fig16",
        title: "Simple classads for indexing",
        source: "Raman 2000, Figure 16",
        claim: "Offers and requests whose constraints are intervals over X and Y: the index finds that the first offer and the first request intersect, so they match.",
        pools: &[("ads", seed!("001_fig16.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((0, 2)),
    },
    Example {
        id: "001-fig19-20",
        title: "Index performance workload: object and query",
        source: "Raman 2000, Figures 19 and 20",
        claim: "The sample object has D = 5 and fails the query's other.D >= 7; the query has Y = 9 and fails the object's other.Y <= 6.",
        pools: &[("object", seed!("001_fig19.classad")), ("query", seed!("001_fig20.classad"))],
        expr: BOTH,
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "001-fig28-30",
        title: "The base workload: machine, license and job",
        source: "Raman 2000, Figures 28, 29 and 30",
        claim: "The machine accepts jobs whose memory requirement is below Memory - 15M; licenses are valid only on machines whose HostID is in their key interval; the job docks a Cpu and a License.",
        pools: &[("machine", seed!("001_fig28.classad")), ("license", seed!("001_fig29.classad")), ("job", seed!("001_fig30.classad"))],
        expr: "Constraint",
        my: Some((0, 0)),
        target: Some((2, 0)),
    },
    Example {
        id: "001-fig32",
        title: "The evaluation environment of a marshaled gang",
        source: "Raman 2000, Figure 32",
        claim: "After the gang is marshaled every port constraint holds; label references climb from a port to the enclosing context.",
        pools: &[("environment", seed!("001_fig32.classad"))],
        expr: "_ctx_0",
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "001-circular",
        title: "Circular references are undefined",
        source: "Raman 2000, §2",
        claim: "The ClassAd language defines that circular expression evaluation results in the undefined value.",
        pools: &[("ad", seed!("001_ex_ch2_circular.classad"))],
        expr: "a",
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "003-grid",
        title: "A grid site and SAMGrid ads",
        source: "Condor-G / SAMGrid 2004",
        claim: "A compute cluster advertises its gatekeeper and load; jobs of GoodPeople rank higher (member(other.Name, GoodPeople) * 500). The SAMGrid job ranks sites with a user-defined data-overlap function and carries $$(gatekeeper_url) for the planner.",
        pools: &[("sites", concat!(seed!("003_fig01.classad"), "\n", seed!("003_ad1.classad"))), ("jobs", seed!("003_ad2.classad"))],
        expr: "Rank",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "004-manual",
        title: "The Condor manual's machine and job",
        source: "Condor manual §4.1",
        claim: "The machine never runs jobs of rival and riffraff and prefers friends and its research group; the job wants a SUN4u running SOLARIS251 (unqualified names fall back to the target).",
        pools: &[("machine", seed!("004_example_machine.classad")), ("job", seed!("004_example_job.classad"))],
        expr: "Trusted && RANK",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "004-constraint",
        title: "condor_status -constraint",
        source: "Condor manual §4.1",
        claim: "Find all computers which have had their keyboards idle for more than 20 minutes and have more than 100 MB of memory.",
        pools: &[("machines", corpus!("condor_status_l.txt"))],
        expr: seed!("004_constraint1.classad"),
        my: Some((0, 0)),
        target: None,
    },
    Example {
        id: "modern-pool",
        title: "A modern HTCondor pool and job",
        source: "condor_status -l and condor_q -l (HTCondor 25)",
        claim: "Partitionable and dynamic slots as condor_status -l prints them, and a job as condor_q -l prints it: does the job's Requirements accept the first slot?",
        pools: &[("machines", corpus!("condor_status_l.txt")), ("jobs", corpus!("condor_q_l.txt"))],
        expr: "TARGET.Requirements",
        my: Some((0, 0)),
        target: Some((1, 0)),
    },
    Example {
        id: "modern-json",
        title: "A pool as condor_status -json",
        source: "condor_status -json (HTCondor 25)",
        claim: "JSON as HTCondor writes it, expressions in \"\\/Expr(…)\\/\" strings, read directly.",
        pools: &[("machines", corpus!("condor_status.json"))],
        expr: "Start",
        my: Some((0, 0)),
        target: None,
    },
];

pub fn find(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}
