//! What the playground asks of gangmatching, as serializable requests and
//! answers: a run over two pools (with the classroom's steps), one gang's
//! dockings in detail (both constraints' explain trees and Figure 32's
//! environment), the index's rectangles (the inspector), and the algorithm
//! comparison on generated base workloads.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator, TraceNode};

use super::dock::{build_env, constraint_value, Node};
use super::model::{ports_of, GangAd};
use super::steps::{Step, StepLog};
use super::workload::{generate, GangWorkload, Kind};
use super::{ad_name, gangmatch_with, AdRef, Algorithm, Counters, Gang, GangOptions};

fn naive() -> Algorithm {
    Algorithm::Naive
}

/// Steps recorded for the classroom when asked (a bound: the search can
/// make millions).
pub const MAX_STEPS: usize = 20_000;

/// A run over two pools, by their session ids.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GangRequest {
    pub requests: String,
    pub offers: String,
    #[serde(default = "naive")]
    pub algorithm: Algorithm,
    #[serde(default)]
    pub seed: u64,
    /// Record the search step by step, up to this many steps (0: none).
    #[serde(default)]
    pub steps: usize,
    #[serde(default)]
    pub mode: crate::lang::eval::Mode,
    /// The root ordering expression (§3.2.4), as typed; empty: the default.
    #[serde(default)]
    pub root_order: String,
    /// The naive search's docking vector, as typed (`{ e1, e2 }` or
    /// `e1, e2`); empty: each port's Rank.
    #[serde(default)]
    pub docking_vector: String,
}

/// A policy expression typed in the view: parsed, or why not (with the
/// column).
fn policy_expr(
    what: &'static str,
    text: &str,
) -> Result<Option<crate::lang::ast::Expr>, GangViewError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    crate::lang::parser::parse_expr(t)
        .map(Some)
        .map_err(|d| GangViewError::Policy {
            what,
            column: d.column.max(1),
            message: d.message,
        })
}

/// Why a gang request or a gang's detail has no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum GangViewError {
    /// The root ordering or the docking vector does not parse.
    Policy {
        what: &'static str,
        column: u32,
        message: String,
    },
    DockingVectorNotList,
    /// The search was stopped.
    Search(super::GangError),
    /// A member (0-based) of the gang is not in its pool.
    MemberMissing {
        member: usize,
        name: String,
    },
    /// A member's ports are unusable.
    Ports {
        name: String,
        problem: super::model::ModelError,
    },
    /// A docking names a port (0-based) the member does not have.
    NoPort {
        name: String,
        port: usize,
    },
}

impl std::fmt::Display for GangViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GangViewError::Policy {
                what,
                column,
                message,
            } => write!(f, "{what}: column {column}: {message}"),
            GangViewError::DockingVectorNotList => f.write_str(
                "docking vector: expected expressions separated by commas, e.g. self.Rank, -label.Memory",
            ),
            GangViewError::Search(e) => write!(f, "{e}"),
            GangViewError::MemberMissing { member, name } => {
                write!(f, "member {} ({name}) is not in its pool", member + 1)
            }
            GangViewError::Ports { name, problem } => write!(f, "{name}: {problem}"),
            GangViewError::NoPort { name, port } => {
                write!(f, "member {name} has no port {}", port + 1)
            }
        }
    }
}

impl std::error::Error for GangViewError {}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GangRow {
    pub request: usize,
    pub name: String,
    pub gang: Option<Gang>,
    /// `LABEL=OFFER …` as the CLI prints it.
    pub line: Option<String>,
    pub error: Option<String>,
    pub limit_hit: bool,
    pub evaluations: u64,
    pub probes: u64,
    pub backtracks: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GangView {
    pub algorithm: Algorithm,
    pub counters: Counters,
    /// In processing order.
    pub rows: Vec<GangRow>,
    pub offer_errors: Vec<(usize, String)>,
    pub steps: Vec<Step>,
    /// Steps were left out past the bound.
    pub steps_cut: bool,
}

/// Run gangmatching for the playground.
pub fn run(
    requests: &[Arc<ClassAd>],
    offers: &[Arc<ClassAd>],
    req: &GangRequest,
    eval: EvalOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<GangView, GangViewError> {
    let root_order_expr = policy_expr("root ordering", &req.root_order)?;
    let docking_vector = {
        let t = req.docking_vector.trim();
        let text = if t.is_empty() || t.starts_with('{') {
            t.to_string()
        } else {
            format!("{{ {t} }}")
        };
        match policy_expr("docking vector", &text)? {
            None => None,
            Some(e) => match e.kind {
                crate::lang::ast::ExprKind::List(items) if !items.is_empty() => {
                    Some(items.to_vec())
                }
                _ => return Err(GangViewError::DockingVectorNotList),
            },
        }
    };
    let opts = GangOptions {
        algorithm: req.algorithm,
        seed: req.seed,
        eval,
        root_order_expr,
        docking_vector,
        ..GangOptions::default()
    };
    let mut log = StepLog::new(Vec::new(), req.steps.min(MAX_STEPS));
    let logging = req.steps > 0;
    let result = gangmatch_with(
        requests,
        offers,
        &opts,
        logging.then_some(&mut log),
        progress,
    )
    .map_err(GangViewError::Search)?;
    let rows = result
        .requests
        .into_iter()
        .map(|o| GangRow {
            request: o.request,
            line: o.gang.as_ref().map(Gang::line),
            name: o.name,
            gang: o.gang,
            error: o.error,
            limit_hit: o.limit_hit,
            evaluations: o.evaluations,
            probes: o.probes,
            backtracks: o.backtracks,
        })
        .collect();
    Ok(GangView {
        algorithm: result.algorithm,
        counters: result.counters,
        rows,
        offer_errors: result.offer_errors,
        steps: log.steps,
        steps_cut: log.cut,
    })
}

/// One docking of a gang: member `a`'s port with member `b`'s port, each
/// side's constraint value and explain tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DockingDetail {
    pub a: usize,
    pub a_port: String,
    pub b: usize,
    pub b_port: String,
    pub a_value: String,
    pub b_value: String,
    pub a_trace: Option<TraceNode>,
    pub b_trace: Option<TraceNode>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GangDetail {
    /// Member names, as in the gang.
    pub members: Vec<String>,
    pub dockings: Vec<DockingDetail>,
    /// Figure 32's evaluation environment for the complete gang.
    pub environment: String,
}

/// Re-check a gang and explain every docking.
pub fn detail(
    requests: &[Arc<ClassAd>],
    offers: &[Arc<ClassAd>],
    gang: &Gang,
    eval: EvalOptions,
) -> Result<GangDetail, GangViewError> {
    let mut ads: Vec<GangAd> = Vec::with_capacity(gang.members.len());
    let mut nodes: Vec<Node> = Vec::with_capacity(gang.members.len());
    for (k, m) in gang.members.iter().enumerate() {
        let ad = match m.ad {
            AdRef::Request(i) => requests.get(i),
            AdRef::Offer(i) => offers.get(i),
        }
        .ok_or_else(|| GangViewError::MemberMissing {
            member: k,
            name: m.name.clone(),
        })?;
        let g = ports_of(ad).map_err(|e| GangViewError::Ports {
            name: m.name.clone(),
            problem: e,
        })?;
        let mut bindings = vec![None; g.ports.len()];
        for d in &m.ports {
            if d.port >= bindings.len() || d.member >= gang.members.len() {
                return Err(GangViewError::NoPort {
                    name: m.name.clone(),
                    port: d.port,
                });
            }
            bindings[d.port] = Some((d.member, d.member_port));
        }
        ads.push(g);
        nodes.push(Node { ad: k, bindings });
    }
    let env = build_env(&ads, &nodes, false);
    let mut ev = Evaluator::new(eval);
    let mut side = |i: usize, p: usize| -> (String, Option<TraceNode>) {
        let mut n = 0;
        let v = constraint_value(&mut ev, &env, &ads, &nodes, i, p, &mut n);
        let trace = ads[i].ports[p].constraint_attr.as_ref().and_then(|attr| {
            let e = super::dock::port_attr_expr(&ads, &nodes, i, p, attr);
            ev.set_ads(Some(env.clone()), None);
            let t = ev
                .eval_traced(
                    &e,
                    &crate::lang::eval::Env::Root(crate::lang::eval::Side::My),
                )
                .1?;
            // The path through the environment is noise: start at the
            // constraint's own definition.
            Some(definition_of(&t, attr).cloned().unwrap_or(t))
        });
        (crate::lang::unparse::value_to_string(&v), trace)
    };
    let mut dockings = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        for (p, b) in n.bindings.iter().enumerate() {
            let Some((j, q)) = *b else { continue };
            if j < i || (j == i && q < p) {
                continue;
            }
            let (a_value, a_trace) = side(i, p);
            let (b_value, b_trace) = side(j, q);
            dockings.push(DockingDetail {
                a: i,
                a_port: ads[i].ports[p].label.clone(),
                b: j,
                b_port: ads[j].ports[q].label.clone(),
                a_value,
                b_value,
                a_trace,
                b_trace,
            });
        }
    }
    Ok(GangDetail {
        members: gang.members.iter().map(|m| m.name.clone()).collect(),
        dockings,
        environment: crate::formats::write_pool(&[&env], crate::formats::OutputFormat::Pretty),
    })
}

/// The first node (breadth first) that enters attribute `attr`'s definition.
fn definition_of<'t>(t: &'t TraceNode, attr: &str) -> Option<&'t TraceNode> {
    let mut queue = std::collections::VecDeque::from([t]);
    while let Some(n) = queue.pop_front() {
        if n.attribute
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case(attr))
        {
            return Some(n);
        }
        queue.extend(n.children.iter());
    }
    None
}

/// One offer port as the index holds it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndexedPort {
    pub offer: String,
    pub port: String,
    /// Each rectangle's exported intervals, in words.
    pub rectangles: Vec<String>,
    /// Consistency errors found converting the constraint.
    pub conflicts: Vec<String>,
}

/// One dimension's intervals: (interval in words, offer, port).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndexedDimension {
    pub attribute: String,
    pub intervals: Vec<(String, String, String)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndexView {
    pub ports: Vec<IndexedPort>,
    pub dimensions: Vec<IndexedDimension>,
    /// Offer ports in all (only the first [`MAX_INSPECTED`] are listed).
    pub total_ports: usize,
}

pub const MAX_INSPECTED: usize = 500;

/// The offers' ports as rectangles, and the intervals per dimension.
pub fn inspect(offers: &[Arc<ClassAd>], eval: EvalOptions) -> IndexView {
    let mut ports = Vec::new();
    let mut dims: std::collections::BTreeMap<String, Vec<(String, String, String)>> =
        Default::default();
    let mut total = 0;
    for (i, ad) in offers.iter().enumerate() {
        let Ok(g) = ports_of(ad) else { continue };
        let name = ad_name(ad, i);
        for p in 0..g.ports.len() {
            total += 1;
            if ports.len() >= MAX_INSPECTED {
                continue;
            }
            let view = super::port_ad::port_ad(&g, p, &[], true, eval);
            let r = crate::index::rectangle::rectangles_scoped(&view, eval, false);
            let label = g.ports[p].label.clone();
            for rect in &r.rectangles {
                for e in &rect.exp {
                    dims.entry(e.attribute.clone()).or_default().push((
                        e.describe(),
                        name.clone(),
                        label.clone(),
                    ));
                }
            }
            ports.push(IndexedPort {
                offer: name.clone(),
                port: label,
                rectangles: if r.rectangles.is_empty() {
                    vec![super::candidates::describe_window(&r)]
                } else {
                    r.rectangles
                        .iter()
                        .map(super::candidates::describe_rectangle)
                        .collect()
                },
                conflicts: r
                    .conflicts
                    .iter()
                    .map(|c| c.properties.join(" && "))
                    .collect(),
            });
        }
    }
    IndexView {
        ports,
        dimensions: dims
            .into_iter()
            .map(|(attribute, intervals)| IndexedDimension {
                attribute,
                intervals,
            })
            .collect(),
        total_ports: total,
    }
}

/// The algorithm comparison: base workloads (§5.2) of each size, run by
/// each algorithm.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CompareRequest {
    pub sizes: Vec<usize>,
    pub licenses_percent: u32,
    pub selectivity: usize,
    pub algorithms: Vec<Algorithm>,
    #[serde(default)]
    pub duds: bool,
    #[serde(default)]
    pub seed: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CompareRow {
    pub jobs: usize,
    pub algorithm: Algorithm,
    pub gangs: u64,
    pub evaluations: u64,
    pub probes: u64,
    pub backtracks: u64,
    pub seconds: f64,
}

/// At most this many jobs per workload in a comparison (the naive search
/// is cubic).
pub const MAX_COMPARE_JOBS: usize = 20_000;

pub fn compare(
    req: &CompareRequest,
    eval: EvalOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Vec<CompareRow>, String> {
    let total = req.sizes.len() * req.algorithms.len();
    let mut rows = Vec::with_capacity(total);
    for &jobs in &req.sizes {
        if jobs > MAX_COMPARE_JOBS {
            return Err(format!(
                "{jobs} jobs: a comparison runs at most {MAX_COMPARE_JOBS} per workload"
            ));
        }
        let w = GangWorkload {
            kind: Kind::Base,
            jobs,
            licenses_percent: req.licenses_percent,
            selectivity: req.selectivity,
            duds: req.duds,
            seed: req.seed,
        };
        let (requests, offers) = generate(&w)?.ads();
        for &algorithm in &req.algorithms {
            if !progress(rows.len(), total) {
                return Err("stopped".into());
            }
            let opts = GangOptions {
                algorithm,
                seed: req.seed,
                eval,
                root_order: false,
                ..GangOptions::default()
            };
            let r = gangmatch_with(&requests, &offers, &opts, None, &mut |_, _| true)
                .map_err(|e| e.to_string())?;
            let c = r.counters;
            rows.push(CompareRow {
                jobs,
                algorithm,
                gangs: c.gangs,
                evaluations: c.evaluations,
                probes: c.probes,
                backtracks: c.backtracks,
                seconds: c.seconds,
            });
        }
    }
    progress(total, total);
    Ok(rows)
}
