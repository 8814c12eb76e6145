//! The thesis' base workload (Raman 2000, §5.2.1, Figures 26-30) as
//! generated pools: machines with the UW-Madison pool's architecture and
//! memory mix, and jobs whose memory needs and platform constraints follow
//! Figure 30, with the attributes a modern HTCondor ad carries around them.
//! Deterministic for a seed, so benchmarks and the playground's demo pools
//! are reproducible. (`bench/gen_pool.py` writes the same model as files.)

use std::fmt::Write;

/// Figure 26: architecture / operating system mix.
pub(crate) const ARCH_OPSYS: [(&str, &str, f64); 8] = [
    ("INTEL", "LINUX", 0.3191),
    ("INTEL", "SOLARIS26", 0.2127),
    ("INTEL", "WINNT40", 0.2411),
    ("SGI", "IRIX6", 0.0212),
    ("SUN4u", "SOLARIS26", 0.0390),
    ("SUN4u", "SOLARIS27", 0.0390),
    ("SUN4x", "SOLARIS26", 0.0766),
    ("SUN4x", "SOLARIS27", 0.0524),
];
/// Figure 27: physical memory (MB).
pub(crate) const MEMORY: [(i64, f64); 5] = [
    (32, 0.07),
    (64, 0.40),
    (128, 0.20),
    (256, 0.20),
    (800, 0.13),
];
const OWNERS: [&str; 12] = [
    "raman", "miron", "solomon", "alice", "bob", "carol", "dave", "erin", "frank", "grace",
    "heidi", "riffraff",
];

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub(crate) fn pick<T: Copy>(&mut self, table: &[(T, f64)]) -> T {
        let x = self.unit();
        let mut acc = 0.0;
        for (v, p) in table {
            acc += p;
            if x < acc {
                return *v;
            }
        }
        table[table.len() - 1].0
    }
    pub(crate) fn platform(&mut self) -> (&'static str, &'static str) {
        let x = self.unit();
        let mut acc = 0.0;
        for (a, o, p) in ARCH_OPSYS {
            acc += p;
            if x < acc {
                return (a, o);
            }
        }
        ("SUN4x", "SOLARIS27")
    }
}

/// `n` machine ads in the old long format (`condor_status -l` style).
/// A generated pool (the long format of [`machines`] and [`jobs`]) read
/// into shared ads, as the benchmarks and timing examples use them.
pub fn ads(text: &str) -> Vec<std::sync::Arc<crate::lang::ast::ClassAd>> {
    crate::formats::read_pool(
        text,
        crate::formats::InputFormat::Old,
        crate::lang::lexer::Dialect::default(),
    )
    .ads
    .into_iter()
    .map(|a| std::sync::Arc::new(a.ad))
    .collect()
}

pub fn machines(n: usize, seed: u64) -> String {
    let mut r = Rng::new(seed);
    let mut out = String::with_capacity(n * 900);
    for i in 0..n {
        let (arch, opsys) = r.platform();
        let memory = r.pick(&MEMORY);
        let vm = memory * 2 * 1024;
        let avail_vm = (vm as f64 * (0.2 + 0.7 * r.unit())) as i64;
        let claimed = r.unit() < 0.3;
        let cpus = [1, 2, 4, 8][r.below(4) as usize];
        let load = r.unit() * if claimed { 1.0 } else { 0.4 };
        let idle = r.below(7200);
        let _ = write!(
            out,
            "MyType = \"Machine\"\nName = \"slot1@node{i:05}.cs.wisc.edu\"\nMachine = \"node{i:05}.cs.wisc.edu\"\n\
             Arch = \"{arch}\"\nOpSys = \"{opsys}\"\nMemory = {memory}\nCpus = {cpus}\n\
             VirtualMemory = {avail_vm}\nTotalVirtualMemory = {vm}\nDisk = {disk}\nKFlops = {kflops}\nMips = {mips}\n\
             LoadAvg = {load:.3}\nKeyboardIdle = {idle}\nKey = {i}\nState = \"{state}\"\nActivity = \"{activity}\"\n\
             Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3 && TARGET.Owner != \"riffraff\"\n\
             Requirements = START && TARGET.RequestMemory < Memory - 15\n\
             Rank = TARGET.Department == \"CS\" ? 10 : 0\n",
            disk = 1_000_000 + r.below(50_000_000),
            kflops = 20_000 + r.below(400_000),
            mips = 100 + r.below(3_000),
            state = if claimed { "Claimed" } else { "Unclaimed" },
            activity = if claimed { "Busy" } else { "Idle" },
        );
        if claimed {
            let _ = write!(
                out,
                "RemoteUser = \"{}@cs.wisc.edu\"\nRemoteUserPrio = {:.2}\nCurrentRank = 0\nServiceTime = {}\nImageSize = {}\n",
                OWNERS[r.below(OWNERS.len() as u64) as usize],
                1.0 + r.unit() * 100.0,
                r.below(30_000),
                r.below(500_000),
            );
        }
        out.push('\n');
    }
    out
}

/// `n` job ads (`condor_q -l` style). Jobs come in submissions of up to 50
/// that share everything significant, as real users' clusters do.
pub fn jobs(n: usize, seed: u64) -> String {
    let mut r = Rng::new(seed ^ 0x5eed);
    let mut out = String::with_capacity(n * 700);
    let mut i = 0;
    let mut cluster = 1000;
    while i < n {
        cluster += 1;
        let size = (1 + r.below(50) as usize).min(n - i);
        let (arch, opsys) = r.platform();
        let mem = r.pick(&MEMORY);
        let image = (2.0 * mem as f64 * 1024.0 * (0.2 + 0.6 * r.unit())) as i64;
        let req_mem = ((image as f64 / 1024.0) * (0.2 + 0.3 * r.unit())).max(1.0) as i64;
        let owner = OWNERS[r.below(OWNERS.len() as u64) as usize];
        let dept = ["CS", "CS", "Physics", "Chemistry", "Engineering"][r.below(5) as usize];
        let prio = r.below(3) as i64;
        let user_prio = 1.0 + (owner.len() as f64) * 2.5;
        for p in 0..size {
            // Image sizes drift by a few KB inside a submission: quantization
            // keeps them in one cluster.
            let drift = r.below(2_000) as i64;
            let _ = write!(
                out,
                "MyType = \"Job\"\nClusterId = {cluster}\nProcId = {p}\nOwner = \"{owner}\"\nUser = \"{owner}@cs.wisc.edu\"\n\
                 Department = \"{dept}\"\nJobPrio = {prio}\nQDate = {qdate}\nJobUniverse = 5\nUserPrio = {user_prio:.1}\n\
                 SubmitterUserPrio = {user_prio:.1}\nImageSize = {img}\nRequestMemory = {req_mem}\nRequestCpus = 1\n\
                 Cmd = \"/home/{owner}/bin/sim\"\nArguments = \"--seed {p} --in data{p}.dat\"\nIwd = \"/home/{owner}/run{cluster}\"\n\
                 Requirements = TARGET.Arch == \"{arch}\" && TARGET.OpSys == \"{opsys}\" && TARGET.VirtualMemory > ImageSize\n\
                 Rank = TARGET.KFlops\n\n",
                qdate = 1_767_225_600 + cluster as i64 * 60,
                img = image + drift,
            );
        }
        i += size;
    }
    out
}
