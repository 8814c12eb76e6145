//! Gangmatching (thesis ch. 3 and 5): a request's ports are docked with
//! several offers at once, atomically. `model` reads ports, `dock` builds
//! Figure 32's evaluation environment and tests dockings, `naive` is the
//! ranked naive search (the default algorithm).

pub mod buckets;
pub mod candidates;
pub mod dock;
pub mod indexed;
pub mod model;
pub mod naive;
pub mod policy;
pub mod port_ad;
pub mod shunting;
pub mod steps;
pub mod view;
pub mod workload;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use crate::lang::value::Value;

use dock::Node;
use model::{ports_of, GangAd};

/// The gangmatching algorithms of chapter 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    Naive,
    Lr,
    Rl,
    Lrc,
    Rlc,
    Dyn,
    Dyns,
    Dynsr,
}

impl Algorithm {
    pub fn parse(s: &str) -> Option<Algorithm> {
        Some(match s.to_ascii_lowercase().as_str() {
            "naive" => Algorithm::Naive,
            "lr" => Algorithm::Lr,
            "rl" => Algorithm::Rl,
            "lrc" => Algorithm::Lrc,
            "rlc" => Algorithm::Rlc,
            "dyn" => Algorithm::Dyn,
            "dyns" => Algorithm::Dyns,
            "dynsr" => Algorithm::Dynsr,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug)]
pub struct GangOptions {
    pub algorithm: Algorithm,
    pub seed: u64,
    /// Expression evaluations allowed per request before it is given up
    /// (reported as `limit_hit`).
    pub max_evaluations_per_request: u64,
    /// At most this many ads in one gang.
    pub max_gang_ads: usize,
    /// Order requests by `negotiate::root_order` (default policy) rather
    /// than file order.
    pub root_order: bool,
    /// The root ordering expression (§3.2.4), evaluated with each request
    /// as MY, largest first; it replaces the default root order.
    pub root_order_expr: Option<crate::lang::ast::Expr>,
    /// The docking vector (§3.2.4) of the ranked naive search, evaluated in
    /// the port being filled (`self`; `label` is the candidate): the
    /// largest vector first, and a candidate whose vector has an undefined,
    /// error or non-numeric component is not eligible. `None`: each port's
    /// Rank (an undefined rank is tried last). The indexed algorithms are
    /// preference-free, as the thesis' are.
    pub docking_vector: Option<Vec<crate::lang::ast::Expr>>,
    pub eval: EvalOptions,
}

impl Default for GangOptions {
    fn default() -> Self {
        GangOptions {
            algorithm: Algorithm::Naive,
            seed: 0,
            max_evaluations_per_request: 1_000_000,
            max_gang_ads: 64,
            root_order: true,
            root_order_expr: None,
            docking_vector: None,
            eval: EvalOptions::default(),
        }
    }
}

/// Which ad: a request or an offer, by 0-based position in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "index", rename_all = "lowercase")]
pub enum AdRef {
    Request(usize),
    Offer(usize),
}

/// One port of a gang member and what it is docked to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PortDock {
    pub port: usize,
    pub label: String,
    /// The member (index into `Gang::members`) and its port.
    pub member: usize,
    pub member_port: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub ad: AdRef,
    pub name: String,
    /// The port docked to the parent (None for the root).
    pub parent_port: Option<usize>,
    pub ports: Vec<PortDock>,
}

/// A gang: members[0] is the root request, the others offers in the
/// order they were docked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gang {
    pub members: Vec<Member>,
}

impl Gang {
    /// The offers of the gang.
    pub fn offers(&self) -> Vec<usize> {
        self.members
            .iter()
            .filter_map(|m| match m.ad {
                AdRef::Offer(o) => Some(o),
                AdRef::Request(_) => None,
            })
            .collect()
    }

    /// `LABEL=OFFER …` for the root's ports, then `OFFER.LABEL=OFFER` for
    /// the other ports of non-root members.
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        for (k, m) in self.members.iter().enumerate() {
            for d in &m.ports {
                if k != 0 && Some(d.port) == m.parent_port {
                    continue;
                }
                let to = &self.members[d.member].name;
                if k == 0 {
                    parts.push(format!("{}={}", d.label, to));
                } else {
                    parts.push(format!("{}.{}={}", m.name, d.label, to));
                }
            }
        }
        parts.join(" ")
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct RequestOutcome {
    pub request: usize,
    pub name: String,
    pub gang: Option<Gang>,
    /// The request's ports are unusable.
    pub error: Option<String>,
    /// The evaluation budget ran out before an answer.
    pub limit_hit: bool,
    pub evaluations: u64,
    pub probes: u64,
    pub backtracks: u64,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Counters {
    pub evaluations: u64,
    pub probes: u64,
    pub backtracks: u64,
    pub gangs: u64,
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct GangResult {
    pub algorithm: Algorithm,
    /// In processing order.
    pub requests: Vec<RequestOutcome>,
    /// Offers left out because their ports are unusable: (offer, message).
    pub offer_errors: Vec<(usize, String)>,
    pub counters: Counters,
}

/// Why no run happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GangError {
    /// The caller's progress callback asked to stop.
    Stopped,
}

impl std::fmt::Display for GangError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GangError::Stopped => write!(f, "gangmatching was stopped"),
        }
    }
}

impl std::error::Error for GangError {}

/// An ad's display name: its `Name` (a string), else its 1-based position.
pub fn ad_name(ad: &Arc<ClassAd>, index: usize) -> String {
    if ad.position("Name").is_some() {
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.set_ads(Some(ad.clone()), None);
        if let Value::Str(s) = ev.eval_attr("Name") {
            return s.to_string();
        }
    }
    (index + 1).to_string()
}

/// Set the clock the `seconds` counter (and the engine's other timings)
/// uses in wasm; see [`crate::lang::clock::set`].
pub fn set_clock(now: fn() -> f64) {
    crate::lang::clock::set(now);
}

fn clock() -> Option<f64> {
    crate::lang::clock::now()
}

/// Gangmatch every request against the offers; gangs consume their offers.
pub fn gangmatch(
    requests: &[Arc<ClassAd>],
    offers: &[Arc<ClassAd>],
    opts: &GangOptions,
) -> Result<GangResult, GangError> {
    gangmatch_with(requests, offers, opts, None, &mut |_, _| true)
}

/// The ads with their ports (requests first, then offers); per ad, whether
/// it may join gangs, and the port errors of requests and of offers.
struct Prepared {
    ads: Vec<GangAd>,
    free: Vec<bool>,
    req_errors: Vec<Option<String>>,
    offer_errors: Vec<(usize, String)>,
}

fn prepare(requests: &[Arc<ClassAd>], offers: &[Arc<ClassAd>]) -> Prepared {
    let nr = requests.len();
    let mut p = Prepared {
        ads: Vec::with_capacity(nr + offers.len()),
        free: vec![false; nr + offers.len()],
        req_errors: Vec::with_capacity(nr),
        offer_errors: Vec::new(),
    };
    let placeholder = |ad: &Arc<ClassAd>| GangAd {
        ad: ad.clone(),
        ports: Vec::new(),
        implicit: false,
        records: Vec::new(),
    };
    for r in requests {
        match ports_of(r) {
            Ok(g) => {
                p.ads.push(g);
                p.req_errors.push(None);
            }
            Err(e) => {
                p.ads.push(placeholder(r));
                p.req_errors.push(Some(e.to_string()));
            }
        }
    }
    for (i, o) in offers.iter().enumerate() {
        match ports_of(o) {
            Ok(g) => {
                p.ads.push(g);
                p.free[nr + i] = true;
            }
            Err(e) => {
                p.ads.push(placeholder(o));
                p.offer_errors.push((i, e.to_string()));
            }
        }
    }
    p
}

/// A finished search's nodes as a gang.
fn gang_of(nodes: &[Node], ads: &[GangAd], names: &[String], nr: usize) -> Gang {
    let members = nodes
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let ad = if n.ad < nr {
                AdRef::Request(n.ad)
            } else {
                AdRef::Offer(n.ad - nr)
            };
            let ports = n
                .bindings
                .iter()
                .enumerate()
                .filter_map(|(p, b)| {
                    b.map(|(j, q)| PortDock {
                        port: p,
                        label: ads[n.ad].ports[p].label.clone(),
                        member: j,
                        member_port: q,
                    })
                })
                .collect();
            // A non-root's parent link is the port bound to an earlier member.
            let parent_port = if k == 0 {
                None
            } else {
                n.bindings
                    .iter()
                    .position(|b| matches!(b, Some((j, _)) if *j < k))
            };
            Member {
                ad,
                name: names[n.ad].clone(),
                parent_port,
                ports,
            }
        })
        .collect();
    Gang { members }
}

/// [`gangmatch`], recording the search in `log` (when given) and telling
/// `progress` (requests done, requests) after each request; a `false`
/// from it stops the run.
pub fn gangmatch_with(
    requests: &[Arc<ClassAd>],
    offers: &[Arc<ClassAd>],
    opts: &GangOptions,
    mut log: Option<&mut steps::StepLog>,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<GangResult, GangError> {
    let start = clock();
    let nr = requests.len();
    let Prepared {
        mut ads,
        mut free,
        req_errors,
        offer_errors,
    } = prepare(requests, offers);
    let vector = match (&opts.docking_vector, opts.algorithm) {
        (Some(v), Algorithm::Naive) => {
            for g in ads.iter_mut().filter(|g| !g.ports.is_empty()) {
                *g = policy::with_docking_vector(g, v);
            }
            Some(v.len())
        }
        _ => None,
    };
    let names: Vec<String> = requests
        .iter()
        .enumerate()
        .map(|(i, a)| ad_name(a, i))
        .chain(offers.iter().enumerate().map(|(i, a)| ad_name(a, i)))
        .collect();
    if let Some(log) = log.as_mut() {
        log.names = names.clone();
    }
    let order = match (&opts.root_order_expr, opts.root_order) {
        (Some(e), _) => policy::root_order_by(requests, e, opts.eval),
        (None, true) => crate::matchmaking::negotiate::root_order(
            requests,
            &crate::matchmaking::negotiate::NegotiationConfig::default(),
        ),
        (None, false) => (0..nr).collect(),
    };
    let mut counters = Counters::default();
    let mut outcomes = Vec::with_capacity(nr);
    let mut ev = Evaluator::new(opts.eval);
    let strategy = indexed::Strategy::of(opts.algorithm);
    let mut index =
        strategy.map(|s| candidates::PortIndex::build(&ads, nr, &free, s.summarize, opts.eval));
    let mut rng = crate::matchmaking::workload::Rng::new(opts.seed);
    for (done, r) in order.into_iter().enumerate() {
        if !progress(done, nr) {
            return Err(GangError::Stopped);
        }
        let mut out = RequestOutcome {
            request: r,
            name: names[r].clone(),
            gang: None,
            error: req_errors[r].clone(),
            limit_hit: false,
            evaluations: 0,
            probes: 0,
            backtracks: 0,
        };
        if let Some(log) = log.as_mut() {
            log.push(steps::Step::Request {
                request: r,
                name: names[r].clone(),
            });
        }
        if out.error.is_none() {
            let (found, nodes) = match (strategy, index.as_mut()) {
                (Some(strategy), Some(index)) => {
                    let mut s = indexed::Search::new(
                        &ads,
                        index,
                        strategy,
                        &mut rng,
                        ev,
                        opts.max_evaluations_per_request,
                        opts.max_gang_ads,
                    );
                    s.log = log.as_deref_mut();
                    let found = s.run(r);
                    out.evaluations = s.evaluations;
                    out.backtracks = s.backtracks;
                    out.probes = s.probes();
                    let nodes = std::mem::take(&mut s.nodes);
                    ev = s.ev;
                    (found, nodes)
                }
                _ => {
                    let mut s = naive::Search {
                        ads: &ads,
                        free: &free,
                        ev,
                        evaluations: 0,
                        backtracks: 0,
                        max_evaluations: opts.max_evaluations_per_request,
                        max_gang_ads: opts.max_gang_ads.max(1),
                        nodes: Vec::new(),
                        log: log.as_deref_mut(),
                        vector,
                    };
                    let found = s.run(r);
                    out.evaluations = s.evaluations;
                    out.backtracks = s.backtracks;
                    let nodes = std::mem::take(&mut s.nodes);
                    ev = s.ev;
                    (found, nodes)
                }
            };
            match found {
                Ok(true) => {
                    for n in &nodes[1..] {
                        free[n.ad] = false;
                        if let Some(index) = index.as_mut() {
                            index.consume(n.ad);
                        }
                    }
                    counters.gangs += 1;
                    out.gang = Some(gang_of(&nodes, &ads, &names, nr));
                }
                Ok(false) => {}
                Err(naive::LimitHit::Work) => out.limit_hit = true,
                Err(naive::LimitHit::GangSize) => {
                    out.error = Some(format!(
                        "the gang would need more than {} ads, the most one gang may hold; \
                         the search stopped there",
                        opts.max_gang_ads.max(1)
                    ))
                }
            }
        }
        if let Some(log) = log.as_mut() {
            log.push(steps::Step::Done {
                request: r,
                gang: out.gang.as_ref().map(Gang::line),
                limit_hit: out.limit_hit,
            });
        }
        counters.evaluations += out.evaluations;
        counters.probes += out.probes;
        counters.backtracks += out.backtracks;
        outcomes.push(out);
    }
    progress(nr, nr);
    counters.seconds = match (start, clock()) {
        (Some(a), Some(b)) => b - a,
        _ => 0.0,
    };
    Ok(GangResult {
        algorithm: opts.algorithm,
        requests: outcomes,
        offer_errors,
        counters,
    })
}
