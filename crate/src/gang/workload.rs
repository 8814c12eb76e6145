//! The gangmatching workloads of the thesis (Raman 2000, ch. 5) as ClassAd
//! text in native syntax, one ad per line, sizes in bytes; deterministic
//! for a seed (the model tables and the `Rng` are `crate::matchmaking::workload`'s).
//!
//! - [`Kind::Base`] (§5.2.1, Figures 26-30): `n` machines, `n` or `n/2`
//!   licenses partitioned by selectivity, `n` jobs with a `Cpu` and a
//!   `License` port. With `duds`, the eight resources of §5.6.2.
//! - [`Kind::HeuristicFailure`] (§5.7): 500 machines every job fits, 1000
//!   identical licenses valid only on the last 100 of them.
//! - [`Kind::OpportunityCost`] (§5.8.3): a bilateral (portless) workload of
//!   tagged requests and offers with a tag threshold.

use std::sync::Arc;

use crate::lang::ast::ClassAd;

use crate::matchmaking::workload::{Rng, ARCH_OPSYS, MEMORY};

const MB: i64 = 1 << 20;
/// Figure 28: a machine keeps 15M for itself.
const RESERVED: i64 = 15 * MB;
/// The largest memory of Figure 27 (800M), in bytes.
const TOP_MEMORY: i64 = 800 * MB;
pub const MAX_JOBS: usize = 10_000_000;
/// §5.7: machines, licenses, and the machines (the last ones) they serve.
const HF_MACHINES: usize = 500;
const HF_LICENSES: usize = 1000;
const HF_SERVED: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Base,
    HeuristicFailure,
    /// `discrimination` is the k of §5.8.3: offer thresholds are uniform in
    /// [0, k], request tags in [0, 10].
    OpportunityCost {
        discrimination: f64,
    },
}

/// What to generate. `licenses_percent`, `selectivity` and `duds` only
/// apply to [`Kind::Base`] (the other kinds fix their licenses).
#[derive(Clone, Debug, PartialEq)]
pub struct GangWorkload {
    pub kind: Kind,
    /// Jobs (requests); for the base workload also the number of machines.
    pub jobs: usize,
    /// 100: as many licenses as jobs; 50: half as many.
    pub licenses_percent: u32,
    /// Licenses and machines are cut into this many matching partitions.
    pub selectivity: usize,
    /// Add the eight "dud" offers of §5.6.2.
    pub duds: bool,
    pub seed: u64,
}

impl Default for GangWorkload {
    fn default() -> Self {
        GangWorkload {
            kind: Kind::Base,
            jobs: 1000,
            licenses_percent: 100,
            selectivity: 1,
            duds: false,
            seed: 0,
        }
    }
}

/// The two files: requests (jobs) and offers, one ad per line.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    pub requests: String,
    pub offers: String,
    pub requests_count: usize,
    pub offers_count: usize,
}

impl Generated {
    /// The requests and offers read as the CLI reads the files.
    pub fn ads(&self) -> (Vec<Arc<ClassAd>>, Vec<Arc<ClassAd>>) {
        let read = |t: &str| {
            crate::formats::read_pool(
                t,
                crate::formats::InputFormat::Auto,
                crate::lang::lexer::Dialect::default(),
            )
            .ads
            .into_iter()
            .map(|a| Arc::new(a.ad))
            .collect()
        };
        (read(&self.requests), read(&self.offers))
    }
}

/// The half-open `Job.HostId` range of license partition `p` of `k` over
/// `n` machines (Figure 29's `[n/k p, n/k (p+1))`, floored).
pub fn partition_range(n: usize, k: usize, p: usize) -> (usize, usize) {
    let at = |q: usize| (n as u128 * q as u128 / k as u128) as usize;
    (at(p), at(p + 1))
}

/// Where a generator writes: the two texts as they grow, and the counts.
struct Out<'a> {
    requests: &'a mut dyn std::fmt::Write,
    offers: &'a mut dyn std::fmt::Write,
    requests_count: usize,
    offers_count: usize,
}

/// Generate the workload in memory, or say which input is out of range.
pub fn generate(w: &GangWorkload) -> Result<Generated, String> {
    let (mut requests, mut offers) = (String::new(), String::new());
    let (requests_count, offers_count) = generate_into(w, &mut requests, &mut offers)?;
    Ok(Generated {
        requests,
        offers,
        requests_count,
        offers_count,
    })
}

/// Generate the workload ad by ad into two writers (files, for the ten
/// million jobs [`MAX_JOBS`] allows: gigabytes of text never held at once).
/// Returns (requests, offers) counted.
pub fn generate_into(
    w: &GangWorkload,
    requests: &mut dyn std::fmt::Write,
    offers: &mut dyn std::fmt::Write,
) -> Result<(usize, usize), String> {
    if w.jobs == 0 || w.jobs > MAX_JOBS {
        return Err(format!(
            "jobs must be between 1 and {MAX_JOBS}, not {}",
            w.jobs
        ));
    }
    if w.duds && w.kind != Kind::Base {
        return Err("duds only apply to the base workload".into());
    }
    let mut r = Rng::new(w.seed);
    let mut g = Out {
        requests,
        offers,
        requests_count: 0,
        offers_count: 0,
    };
    match w.kind {
        Kind::Base => base(w, &mut r, &mut g)?,
        Kind::HeuristicFailure => heuristic_failure(w.jobs, &mut r, &mut g),
        Kind::OpportunityCost { discrimination } => {
            if !discrimination.is_finite() || discrimination < 0.0 {
                return Err(format!(
                    "discrimination must be a number >= 0, not {discrimination}"
                ));
            }
            opportunity_cost(w.jobs, discrimination, &mut r, &mut g)
        }
    }
    Ok((g.requests_count, g.offers_count))
}

/// The offers file holds the machines, then the licenses, then (with
/// duds) the seven dud machines and the dud license.
fn base(w: &GangWorkload, r: &mut Rng, g: &mut Out) -> Result<(), String> {
    let n = w.jobs;
    let licenses = match w.licenses_percent {
        100 => n,
        50 => n / 2,
        p => return Err(format!("licenses percent must be 100 or 50, not {p}")),
    };
    let k = w.selectivity;
    if k == 0 || k > licenses {
        return Err(format!(
            "selectivity must be between 1 and the number of licenses ({licenses}: \
             {} % of {n} jobs), not {k}",
            w.licenses_percent
        ));
    }
    for key in 0..n {
        let (arch, opsys) = r.platform();
        let memory = r.pick(&MEMORY) * MB;
        let vm = 2.0 * memory as f64 * (0.2 + 0.7 * r.unit());
        let m = machine(&format!("m{key}"), key, arch, opsys, memory, vm);
        let _ = writeln!(g.offers, "[ {m} ]");
    }
    for i in 0..licenses {
        // u128: i * k overflows a 32-bit usize (wasm) at 10M jobs.
        let p = (i as u128 * k as u128 / licenses as u128) as usize;
        let (lo, hi) = partition_range(n, k, p);
        let _ = writeln!(g.offers, "[ {} ]", license(&format!("lic{i}"), lo, hi));
    }
    g.offers_count = n + licenses;
    if w.duds {
        duds(n, g.offers);
        g.offers_count += 8;
    }
    for i in 0..n {
        let (arch, opsys) = r.platform();
        job(g.requests, i, arch, opsys, r);
    }
    g.requests_count = n;
    Ok(())
}

/// §5.6.2: offers that every root's first query on a port finds (so no
/// such query is empty) but no gang can use. The root's `Cpu` query finds
/// exactly one dud machine, the one of its platform: 800M of memory and
/// the top virtual memory (90 % of 2 × 800M) fit every job of the model.
/// The root's `License` query, before `Cpu` is bound, finds exactly one:
/// the dud license. The dud machines' Keys are n..n+6, outside every
/// license's range, and the dud license's range [n+100, n+101) holds no
/// machine's Key, so neither kind of dud ever joins a gang. Only seven of
/// Figure 26's eight platforms fit in seven machines: the rarest,
/// SGI/IRIX6 (2.1 %), gets none, so its jobs' `Cpu` queries find no dud.
fn duds(n: usize, out: &mut dyn std::fmt::Write) {
    let vm = 2.0 * TOP_MEMORY as f64 * 0.9;
    let platforms = ARCH_OPSYS.iter().filter(|(a, _, _)| *a != "SGI");
    for (j, (arch, opsys, _)) in platforms.enumerate() {
        let key = n + j;
        let m = machine(&format!("dud-m{key}"), key, arch, opsys, TOP_MEMORY, vm);
        // `Dud = true` marks it for whoever reads the results.
        let _ = writeln!(out, "[ {m}; Dud = true ]");
    }
    let l = license("dud-lic", n + 100, n + 101);
    let _ = writeln!(out, "[ {l}; Dud = true ]");
}

/// §5.7: the dynamic algorithm fills the machine port first (500
/// candidates against 1000 licenses), though only the last 100 machines
/// can take a license.
fn heuristic_failure(jobs: usize, r: &mut Rng, g: &mut Out) {
    // 800M machines with at least 85 % of 1600M virtual memory: above any
    // job's image size (at most 80 %) and memory needs, so all fit.
    for key in 0..HF_MACHINES {
        let vm = 2.0 * TOP_MEMORY as f64 * (0.85 + 0.05 * r.unit());
        let m = machine(&format!("m{key}"), key, "INTEL", "LINUX", TOP_MEMORY, vm);
        let _ = writeln!(g.offers, "[ {m} ]");
    }
    for i in 0..HF_LICENSES {
        let l = license(&format!("lic{i}"), HF_MACHINES - HF_SERVED, HF_MACHINES);
        let _ = writeln!(g.offers, "[ {l} ]");
    }
    g.offers_count = HF_MACHINES + HF_LICENSES;
    for i in 0..jobs {
        job(g.requests, i, "INTEL", "LINUX", r);
    }
    g.requests_count = jobs;
}

/// §5.8.3: platform-only requests with a tag in [0, 10]; offers accept
/// tags above their threshold, uniform in [0, k].
fn opportunity_cost(jobs: usize, k: f64, r: &mut Rng, g: &mut Out) {
    for i in 0..jobs {
        let (arch, opsys) = r.platform();
        let _ = writeln!(
            g.requests,
            "[ Name = \"r{i}\"; Arch = \"{arch}\"; OpSys = \"{opsys}\"; Tag = {:.6}; \
             Requirements = other.Arch == \"{arch}\" && other.OpSys == \"{opsys}\" ]",
            10.0 * r.unit()
        );
    }
    for i in 0..jobs {
        let (arch, opsys) = r.platform();
        let t = format!("{:.6}", k * r.unit());
        let _ = writeln!(
            g.offers,
            "[ Name = \"o{i}\"; Arch = \"{arch}\"; OpSys = \"{opsys}\"; Threshold = {t}; \
             Requirements = other.Tag >= {t} ]"
        );
    }
    g.requests_count = jobs;
    g.offers_count = jobs;
}

/// Figure 28 (the attributes, without the brackets).
fn machine(name: &str, key: usize, arch: &str, os: &str, mem: i64, vm: f64) -> String {
    format!(
        "Name = \"{name}\"; Type = \"Machine\"; Key = {key}; Arch = \"{arch}\"; \
         OpSys = \"{os}\"; Memory = {mem}; VirtualMemory = {vm:.6}; \
         Ports = {{ [ Label = Job; Constraint = Job.MemoryReqs < Memory - {RESERVED} ] }}"
    )
}

/// Figure 29, valid on machines with Keys in [lo, hi) (without the brackets).
fn license(name: &str, lo: usize, hi: usize) -> String {
    format!(
        "Name = \"{name}\"; Type = \"License\"; App = \"sim_app\"; \
         Ports = {{ [ Label = Job; Constraint = Job.HostId >= {lo} && Job.HostId < {hi} ] }}"
    )
}

/// Figure 30: the image is 20-80 % of twice a Figure 27 memory, the memory
/// needs 20-50 % of the image.
fn job(out: &mut dyn std::fmt::Write, i: usize, arch: &str, opsys: &str, r: &mut Rng) {
    let memory = (r.pick(&MEMORY) * MB) as f64;
    let image = 2.0 * memory * (0.2 + 0.6 * r.unit());
    let needs = image * (0.2 + 0.3 * r.unit());
    let _ = writeln!(
        out,
        "[ Name = \"job{i}\"; Type = \"Job\"; Ports = {{ \
         [ Label = Cpu; ImageSize = {image:.6}; MemoryReqs = {needs:.6}; \
         Constraint = Cpu.Arch == \"{arch}\" && Cpu.OpSys == \"{opsys}\" && Cpu.VirtualMemory > ImageSize ], \
         [ Label = License; HostId = Cpu.Key; Constraint = License.App == \"sim_app\" ] }} ]"
    );
}
