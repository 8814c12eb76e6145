//! The session's requests and answers (JSON, tagged by `"op"` and
//! `"kind"`). Every request that evaluates carries an [`EvalOptions`].

use serde::{Deserialize, Serialize};

use crate::analysis::reverse::ReverseAnalysis;
use crate::lang::diagnostic::Diagnostic;
use crate::lang::eval::EvalOptions;
use crate::lang::eval::TraceNode;
use crate::lang::lexer::Dialect;
use crate::matchmaking::autocluster::Clustering;
use crate::matchmaking::matrix::{Cell, MutualCounts, Tile};

use super::cycle_view::CycleView;
use super::{
    AnalysisView, AnalyzeRequest, CompareRequest, CompareRow, Gang, GangDetail, GangRequest,
    GangView, IndexView,
};

/// Requests that need pools loaded in the session.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PoolRequest {
    /// Parse a pool and keep it under `id` (replacing any previous one).
    LoadPool {
        id: String,
        text: String,
        #[serde(default)]
        dialect: Dialect,
    },
    /// Outcomes of a window of the jobs × machines matrix.
    MatchWindow {
        jobs: String,
        machines: String,
        rows: (usize, usize),
        cols: (usize, usize),
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// Outcomes of chosen jobs × chosen machines (a window of a sorted or
    /// filtered matrix: the rows and columns need not be contiguous).
    MatchCells {
        jobs: String,
        machines: String,
        rows: Vec<usize>,
        cols: Vec<usize>,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// Mutual matches per job and per machine over the whole matrix, for
    /// sorting and filtering it. Reports progress per job.
    MatchCounts {
        jobs: String,
        machines: String,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// Both sides' requirements and ranks of one pair, with traces.
    Pair {
        jobs: String,
        machines: String,
        job: usize,
        machine: usize,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// One negotiation cycle.
    Negotiate {
        jobs: String,
        machines: String,
        #[serde(default)]
        autocluster: bool,
        /// Record every job's candidates and docking vectors (classroom).
        #[serde(default)]
        detail: bool,
        /// With `detail`: only for the first this many jobs of the cycle.
        #[serde(default)]
        detail_jobs: Option<usize>,
        /// HTCondor 25's negotiator (user priorities, preemption); absent:
        /// the thesis' Figure 9 vector, as links and lessons made before it.
        #[serde(default)]
        htcondor: Option<HTCondorChoice>,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// How many free compatible machines job `job` of a cycle had at its
    /// turn (`taken`: the machines earlier jobs got): a matched job's count
    /// that a cycle past `COUNT_CANDIDATES_UP_TO` pairs leaves out, asked for
    /// when a view wants it.
    Candidates {
        jobs: String,
        machines: String,
        job: usize,
        taken: Vec<usize>,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// How many machines are compatible with one job of `jobs`, taken or
    /// not: an `all-taken` job's count that a cycle past
    /// `COUNT_CANDIDATES_UP_TO` pairs leaves out. Answered as `Candidates`.
    Compatible {
        jobs: String,
        machines: String,
        job: usize,
        #[serde(flatten)]
        context: EvalOptions,
    },
    Autocluster {
        jobs: String,
        machines: String,
    },
    /// A pool query (condor_status -constraint): the counts, the summary
    /// and the first rows; the rows are kept for `QueryPage`.
    Query {
        pool: String,
        spec: crate::query::view::QuerySpec,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// Rows `from..to` of the last query's result; `typed` adds each
    /// row's cells as JSON values (for a download).
    QueryPage {
        from: usize,
        to: usize,
        #[serde(default)]
        typed: bool,
    },
    /// Why the constraint held or failed for ad `ad` of `pool`.
    QueryExplain {
        pool: String,
        ad: usize,
        constraint: String,
        #[serde(flatten)]
        context: EvalOptions,
        #[serde(default)]
        dialect: Dialect,
    },
    /// Why a job does not match (the analyzer): see `analysis::view`.
    Analyze(AnalyzeRequest),
    /// Gangmatch the requests pool against the offers pool.
    Gang(GangRequest),
    /// One gang's dockings explained.
    GangDetail {
        requests: String,
        offers: String,
        gang: Gang,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// The offers' ports as the index holds them.
    GangIndex {
        offers: String,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// The algorithms compared on generated base workloads (no pools).
    GangCompare {
        #[serde(flatten)]
        compare: CompareRequest,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// One machine's requirements step by step over the jobs.
    Reverse {
        jobs: String,
        machines: String,
        machine: usize,
        #[serde(default)]
        all_steps: bool,
        #[serde(flatten)]
        context: EvalOptions,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PoolResponse {
    Loaded(PoolLoaded),
    Window {
        rows: (usize, usize),
        cols: (usize, usize),
        /// Row-major cells of the window.
        cells: Vec<Cell>,
        /// The job's Rank of each machine and the machine's Rank of each
        /// job, canonically unparsed, row-major.
        job_ranks: Vec<String>,
        machine_ranks: Vec<String>,
    },
    /// The answer to `MatchCells`: row-major over `rows` × `cols`.
    Cells(Tile),
    Counts(MutualCounts),
    /// Boxed: traces are big, and most answers are not pairs.
    Pair(Box<PairView>),
    /// The answer to `Candidates` and `Compatible`.
    Candidates(JobCount),
    /// A cycle as the views show it (the CLI's `match --json` is the
    /// engine's `CycleResult` itself).
    Cycle(Box<CycleView>),
    Clusters(ClusterView),
    Analysis(Box<AnalysisView>),
    /// The answer to `Query`, with the pool's labels of the rows' ads.
    QueryResult {
        answer: crate::query::view::QueryAnswer,
        labels: Vec<String>,
    },
    /// The answer to `QueryPage`.
    QueryRows {
        from: usize,
        rows: Vec<crate::query::view::QueryRow>,
        labels: Vec<String>,
    },
    /// A query's expression that does not parse, to show in place.
    QueryInvalid(crate::query::QueryError),
    QueryExplained(Box<crate::query::view::QueryExplain>),
    Gangs(Box<GangView>),
    GangDetail(Box<GangDetail>),
    GangIndex(Box<IndexView>),
    GangComparison {
        rows: Vec<CompareRow>,
    },
    /// One machine against the queue, step by step.
    Reverse(Box<ReverseView>),
    /// The work was stopped (its progress callback said so): whatever it
    /// had done is not an answer. The one way every request reports it.
    Stopped,
    Failed {
        message: String,
    },
}

/// A [`PoolResponse`] that is no answer (`Stopped` or `Failed`), read on
/// its own: a client that reads each answer as its variant's type (the
/// page does; the whole tagged reader is tens of KB of wasm) reads this
/// when that fails.
#[derive(Debug, Deserialize)]
pub struct Unanswered {
    pub kind: UnansweredKind,
    /// Why it failed (absent from `stopped`).
    #[serde(default)]
    pub message: String,
}

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnansweredKind {
    Stopped,
    Failed,
}

/// A pool read and kept: its ads' labels, what reading it found, the
/// functions it supplies.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PoolLoaded {
    pub id: String,
    pub ads: usize,
    pub labels: Vec<String>,
    pub diagnostics: Vec<Diagnostic>,
    pub functions: Vec<String>,
}

/// One job × machine pair in detail: both Requirements traced, both Ranks.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairView {
    pub job_label: String,
    pub machine_label: String,
    pub job_requirements: Option<TraceNode>,
    pub machine_requirements: Option<TraceNode>,
    pub job_rank: String,
    pub machine_rank: String,
    /// The attribute names (lower-case) each ad defines, so a trace reader
    /// can tell which ad a definition came from.
    #[serde(default)]
    pub job_attributes: Vec<String>,
    #[serde(default)]
    pub machine_attributes: Vec<String>,
}

/// A count about one job of a cycle's pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobCount {
    pub job: usize,
    pub count: usize,
}

/// The auto-clusters of a pool of jobs, as the clusters view shows them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClusterView {
    pub clustering: Clustering,
    /// The jobs' labels, as the pool lists them.
    pub job_labels: Vec<String>,
    /// Per cluster, its first job's definition (canonical text) of each
    /// signature attribute, `undefined` when it has none.
    #[serde(default)]
    pub signatures: Vec<Vec<(String, String)>>,
}

/// One machine's requirements step by step over the jobs: the analysis,
/// and the text report better-analyze prints for it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReverseView {
    pub reverse: ReverseAnalysis,
    pub report: String,
}

/// The HTCondor policy a cycle follows: the priority table as pasted
/// (`condor_userprio -allusers`, or `name priority` lines) and negotiator
/// knobs (`PREEMPTION_REQUIREMENTS`, …) over HTCondor 25's defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HTCondorChoice {
    #[serde(default)]
    pub userprio: String,
    #[serde(default)]
    pub knobs: Vec<(String, String)>,
}
