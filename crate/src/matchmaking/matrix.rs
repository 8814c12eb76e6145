//! The match matrix (jobs × machines): who accepts whom in a tile of it,
//! mutual matches counted per job and per machine over all of it, and one
//! pair's detail (both Requirements traced, both Ranks). The evaluator is
//! the caller's, set up with the pools' functions and the clock.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Name};
use crate::lang::eval::{Env, Evaluator, Side, TraceNode};
use crate::matchmaking::compiled::CompiledAd;
use crate::matchmaking::matching::{matches_compiled, DEFAULT_REQUIREMENTS};

/// How a pair of ads fare: bit 0 set when the job rejects the machine, bit
/// 1 when the machine rejects the job (0 = both accept, 3 = both reject).
pub type Cell = u8;

/// Cells and both ranks of chosen rows × columns, row-major.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tile {
    pub cells: Vec<Cell>,
    /// The job's Rank of each machine and the machine's Rank of each job,
    /// canonically unparsed.
    pub job_ranks: Vec<String>,
    pub machine_ranks: Vec<String>,
}

/// Mutual matches per job and per machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MutualCounts {
    /// Per job, the machines that match it both ways.
    pub job_matches: Vec<u32>,
    /// Per machine, the jobs that match it both ways.
    pub machine_matches: Vec<u32>,
}

/// One pair, as the matrix's pair detail shows it.
#[derive(Clone, Debug)]
pub struct PairDetail {
    /// Each side's requirements traced (`None`: it has none).
    pub job_requirements: Option<TraceNode>,
    pub machine_requirements: Option<TraceNode>,
    pub job_rank: String,
    pub machine_rank: String,
    /// The attribute names (lower-case) each ad defines, so a trace reader
    /// can tell which ad a definition came from.
    pub job_attributes: Vec<String>,
    pub machine_attributes: Vec<String>,
}

/// The tile `rows` × `cols` (indices out of range are skipped).
pub fn tile(
    jobs: &[CompiledAd],
    machines: &[CompiledAd],
    rows: &[usize],
    cols: &[usize],
    ev: &mut Evaluator,
) -> Tile {
    let pick = |ads: &'_ [CompiledAd], picks: &[usize]| -> Vec<usize> {
        picks.iter().copied().filter(|&i| i < ads.len()).collect()
    };
    let (rows, cols) = (pick(jobs, rows), pick(machines, cols));
    let n = rows.len() * cols.len();
    let mut t = Tile {
        cells: Vec::with_capacity(n),
        job_ranks: Vec::with_capacity(n),
        machine_ranks: Vec::with_capacity(n),
    };
    let rank = Name::new("Rank");
    for &j in &rows {
        let job = &jobs[j];
        for &m in &cols {
            let machine = &machines[m];
            let ja = job.accepts(machine, ev);
            let ma = machine.accepts(job, ev);
            t.cells.push((!ja as u8) | ((!ma as u8) << 1));
            t.job_ranks
                .push(job.eval_attr(&rank, machine, ev).to_string());
            t.machine_ranks
                .push(machine.eval_attr(&rank, job, ev).to_string());
        }
    }
    t
}

/// Mutual matches over the whole matrix. The machine side is evaluated
/// only where the job side accepts; `progress(done, total)` is asked every
/// 8 jobs and stops the count when it says false (the counts are then
/// partial, and the caller, who said stop, knows it).
pub fn mutual_counts(
    jobs: &[CompiledAd],
    machines: &[CompiledAd],
    ev: &mut Evaluator,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> MutualCounts {
    let mut c = MutualCounts {
        job_matches: vec![0; jobs.len()],
        machine_matches: vec![0; machines.len()],
    };
    for (ji, job) in jobs.iter().enumerate() {
        if ji % 8 == 0 && !progress(ji, jobs.len()) {
            return c;
        }
        for (mi, machine) in machines.iter().enumerate() {
            if matches_compiled(ev, job, machine) {
                c.job_matches[ji] += 1;
                c.machine_matches[mi] += 1;
            }
        }
    }
    progress(jobs.len(), jobs.len());
    c
}

/// Both sides' requirements traced and both Ranks of one pair.
pub fn pair_detail(job: &Arc<ClassAd>, machine: &Arc<ClassAd>, ev: &mut Evaluator) -> PairDetail {
    let mut traced = |my: &Arc<ClassAd>, target: &Arc<ClassAd>| {
        ev.set_ads(Some(my.clone()), Some(target.clone()));
        let name = DEFAULT_REQUIREMENTS.iter().find(|n| my.get(n).is_some())?;
        let e = my.get(name)?.clone();
        ev.eval_traced(&e, &Env::Root(Side::My)).1
    };
    let job_requirements = traced(job, machine);
    let machine_requirements = traced(machine, job);
    let mut rank = |my: &Arc<ClassAd>, target: &Arc<ClassAd>| {
        ev.set_ads(Some(my.clone()), Some(target.clone()));
        ev.eval_attr("Rank").to_string()
    };
    let (job_rank, machine_rank) = (rank(job, machine), rank(machine, job));
    let names = |ad: &ClassAd| ad.names().map(str::to_ascii_lowercase).collect();
    PairDetail {
        job_requirements,
        machine_requirements,
        job_rank,
        machine_rank,
        job_attributes: names(job),
        machine_attributes: names(machine),
    }
}
