//! The indexed gangmatching algorithms (thesis §5.4–5.8): the naive
//! search's fill / backtrack / history discipline, with each port's
//! candidates taken from an index probe ([`PortIndex`]) instead of a scan
//! of the pool, and evaluation only confirming them.
//!
//! They differ in the order each ad's ports are filled and in how a probe's
//! result is walked ([`Strategy`]):
//!
//! | algorithm | port order | initial probes | result walk |
//! |---|---|---|---|
//! | LR  | left to right | – | from the top |
//! | RL  | right to left | – | from the top |
//! | LRC / RLC | as LR / RL | on every port; any empty port aborts | from the top |
//! | DYN | ascending initial-probe result size | on every port; an empty one aborts | from the top |
//! | DYNS | as DYN, over buckets of identical rectangles | as DYN, counting buckets | a bucket is one candidate |
//! | DYNSR | as DYNS | as DYNS | from a seeded random start, wrapping |
//!
//! Initial probes are made for each ad as it joins the gang (after its
//! parent link is docked), for the ports other than the parent link. Like
//! the thesis' algorithms these are preference-free: candidates come in
//! pool order, not by Rank (the naive search is the ranked one).
//!
//! Dockings tested while the gang is incomplete are re-checked once it is
//! complete; a tentative yes is re-checked after every later docking, so
//! one that turns out false rejects the candidate that made it so.

use crate::lang::eval::Evaluator;
use crate::matchmaking::workload::Rng;

use super::candidates::{PortIndex, Slot};
use super::dock::{incomplete, test_dock, Dock, Node};
use super::model::GangAd;
use super::naive::LimitHit;
use super::steps::{answer, Step, StepLog};
use super::Algorithm;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    LeftRight,
    RightLeft,
    Dynamic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub order: Order,
    /// Initial probes on every port; abort when one finds nothing.
    pub checks: bool,
    /// Index buckets of identical rectangles (DYNS).
    pub summarize: bool,
    /// Walk each probe's result from a random start (DYNSR).
    pub random_start: bool,
}

impl Strategy {
    /// The strategy of an indexed algorithm (`None` for the naive search).
    pub fn of(a: Algorithm) -> Option<Strategy> {
        let s = |order, checks, summarize, random_start| {
            Some(Strategy {
                order,
                checks,
                summarize,
                random_start,
            })
        };
        match a {
            Algorithm::Naive => None,
            Algorithm::Lr => s(Order::LeftRight, false, false, false),
            Algorithm::Rl => s(Order::RightLeft, false, false, false),
            Algorithm::Lrc => s(Order::LeftRight, true, false, false),
            Algorithm::Rlc => s(Order::RightLeft, true, false, false),
            Algorithm::Dyn => s(Order::Dynamic, true, false, false),
            Algorithm::Dyns => s(Order::Dynamic, true, true, false),
            Algorithm::Dynsr => s(Order::Dynamic, true, true, true),
        }
    }
}

/// A docking: (node, port) with (node, port).
type Docking = ((usize, usize), (usize, usize));

/// One request's search.
pub struct Search<'a> {
    pub ads: &'a [GangAd],
    pub index: &'a mut PortIndex,
    pub strategy: Strategy,
    pub rng: &'a mut Rng,
    pub ev: Evaluator,
    pub evaluations: u64,
    pub backtracks: u64,
    /// Evaluations plus probes allowed for this request.
    pub max_work: u64,
    pub max_gang_ads: usize,
    pub nodes: Vec<Node>,
    probes_at_start: u64,
    /// Dockings tested while the gang was incomplete.
    open: Vec<Docking>,
    /// Of those, the tentative ones.
    tentative: Vec<Docking>,
    /// The classroom's record of the search, when one is kept.
    pub log: Option<&'a mut StepLog>,
}

impl<'a> Search<'a> {
    pub fn new(
        ads: &'a [GangAd],
        index: &'a mut PortIndex,
        strategy: Strategy,
        rng: &'a mut Rng,
        ev: Evaluator,
        max_work: u64,
        max_gang_ads: usize,
    ) -> Search<'a> {
        let probes_at_start = index.probes;
        Search {
            ads,
            index,
            strategy,
            rng,
            ev,
            evaluations: 0,
            backtracks: 0,
            max_work,
            max_gang_ads: max_gang_ads.max(1),
            nodes: Vec::new(),
            probes_at_start,
            open: Vec::new(),
            tentative: Vec::new(),
            log: None,
        }
    }

    fn logging(&self) -> bool {
        self.log.as_ref().is_some_and(|l| l.open())
    }

    fn record(&mut self, step: impl FnOnce(&StepLog) -> Step) {
        StepLog::record(&mut self.log, step);
    }

    /// (ad name, port label) of node `n`'s port `p`.
    fn port_name(&self, log: &StepLog, n: usize, p: usize) -> (String, String) {
        let ad = self.nodes[n].ad;
        (log.name(ad), self.ads[ad].ports[p].label.clone())
    }

    /// Probes made by this search so far.
    pub fn probes(&self) -> u64 {
        self.index.probes - self.probes_at_start
    }

    fn over_budget(&self) -> bool {
        self.evaluations + self.probes() >= self.max_work
    }

    /// Marshal a gang rooted at ad `root`: Ok(true) leaves it in `nodes`.
    pub fn run(&mut self, root: usize) -> Result<bool, LimitHit> {
        self.nodes = vec![Node {
            ad: root,
            bindings: vec![None; self.ads[root].ports.len()],
        }];
        self.open.clear();
        self.tentative.clear();
        let Some(order) = self.port_order(0, None)? else {
            return Ok(false);
        };
        let mut pending: Vec<(usize, usize)> = order.into_iter().rev().map(|p| (0, p)).collect();
        self.fill(&mut pending)
    }

    /// The order to fill node `n`'s ports (all but its parent link);
    /// `None` when an initial probe proves one of them cannot be filled.
    fn port_order(
        &mut self,
        n: usize,
        parent: Option<usize>,
    ) -> Result<Option<Vec<usize>>, LimitHit> {
        let ports: Vec<usize> = (0..self.nodes[n].bindings.len())
            .filter(|&p| Some(p) != parent)
            .collect();
        if !self.strategy.checks {
            let order: Vec<usize> = match self.strategy.order {
                Order::RightLeft => ports.into_iter().rev().collect(),
                _ => ports,
            };
            self.record_order(
                n,
                &order.iter().map(|&p| (None, p)).collect::<Vec<_>>(),
                false,
            );
            return Ok(Some(order));
        }
        let mut sized = Vec::with_capacity(ports.len());
        for p in ports {
            if self.over_budget() {
                return Err(LimitHit::Work);
            }
            let found = self.index.probe(self.ads, &self.nodes, n, p).len();
            sized.push((found, p));
            if found == 0 {
                let shown: Vec<(Option<usize>, usize)> =
                    sized.iter().map(|&(f, p)| (Some(f), p)).collect();
                self.record_order(n, &shown, true);
                return Ok(None);
            }
        }
        match self.strategy.order {
            Order::LeftRight => {}
            Order::RightLeft => sized.reverse(),
            // Stable: equal sizes keep left-to-right order.
            Order::Dynamic => sized.sort_by_key(|&(found, _)| found),
        }
        let shown: Vec<(Option<usize>, usize)> = sized.iter().map(|&(f, p)| (Some(f), p)).collect();
        self.record_order(n, &shown, false);
        Ok(Some(sized.into_iter().map(|(_, p)| p).collect()))
    }

    fn record_order(&mut self, n: usize, ports: &[(Option<usize>, usize)], abort: bool) {
        // An offer docked through its only port has nothing to order.
        if ports.is_empty() || !self.logging() {
            return;
        }
        let ad = self.nodes[n].ad;
        let labels: Vec<String> = ports
            .iter()
            .map(|&(_, p)| self.ads[ad].ports[p].label.clone())
            .collect();
        let found = ports.iter().map(|&(f, _)| f).collect();
        self.record(|log| Step::Order {
            ad: log.name(ad),
            ports: labels,
            found,
            abort,
        });
    }

    fn fill(&mut self, pending: &mut Vec<(usize, usize)>) -> Result<bool, LimitHit> {
        if self.over_budget() {
            return Err(LimitHit::Work);
        }
        let Some((n, p)) = pending.pop() else {
            return Ok(self.complete());
        };
        let describe = self.logging();
        let (ids, window) = self
            .index
            .probe_described(self.ads, &self.nodes, n, p, describe);
        if let Some(window) = window {
            let found = ids.len();
            let (ad, port) = self
                .log
                .as_ref()
                .map(|l| self.port_name(l, n, p))
                .unwrap_or_default();
            self.record(|_| Step::Probe {
                ad,
                port,
                window,
                found,
            });
        }
        let start = if self.strategy.random_start && !ids.is_empty() {
            self.rng.below(ids.len() as u64) as usize
        } else {
            0
        };
        for k in 0..ids.len() {
            if self.nodes.len() >= self.max_gang_ads {
                return Err(LimitHit::GangSize);
            }
            if self.over_budget() {
                return Err(LimitHit::Work);
            }
            let id = ids[(start + k) % ids.len()];
            let nodes = &self.nodes;
            let slots = &self.index.slots;
            let Some(slot) = self
                .index
                .first_member(id, |s| nodes.iter().any(|x| x.ad == slots[s].ad))
            else {
                continue;
            };
            let Slot { ad: o, port: q } = self.index.slots[slot];
            if self.try_dock(pending, (n, p), o, q)? {
                return Ok(true);
            }
        }
        pending.push((n, p));
        Ok(false)
    }

    /// Dock ad `o` through its port `q` at node `n`'s port `p` and go on
    /// filling; everything is undone when that fails.
    fn try_dock(
        &mut self,
        pending: &mut Vec<(usize, usize)>,
        (n, p): (usize, usize),
        o: usize,
        q: usize,
    ) -> Result<bool, LimitHit> {
        let new = self.nodes.len();
        let mut bindings = vec![None; self.ads[o].ports.len()];
        bindings[q] = Some((n, p));
        self.nodes.push(Node { ad: o, bindings });
        self.nodes[n].bindings[p] = Some((new, q));
        let (open_len, tentative_len, pending_len) =
            (self.open.len(), self.tentative.len(), pending.len());
        let undo = |s: &mut Self, pending: &mut Vec<(usize, usize)>| {
            s.open.truncate(open_len);
            s.tentative.truncate(tentative_len);
            pending.truncate(pending_len);
            s.nodes[n].bindings[p] = None;
            s.nodes.pop();
        };
        let d = test_dock(
            &mut self.ev,
            self.ads,
            &self.nodes,
            (n, p),
            (new, q),
            &mut self.evaluations,
        );
        let holds = d != Dock::No && self.tentatives_hold();
        if self.logging() {
            let (ad, port) = self
                .log
                .as_ref()
                .map(|l| self.port_name(l, n, p))
                .unwrap_or_default();
            let via = self.ads[o].ports[q].label.clone();
            let said = match (d, holds) {
                (Dock::No, _) => "no".to_string(),
                (_, false) => "no: an earlier tentative yes now fails".to_string(),
                (d, true) => answer(d).to_string(),
            };
            self.record(|log| Step::Try {
                ad,
                port,
                offer: log.name(o),
                via,
                answer: said,
            });
        }
        if !holds {
            undo(self, pending);
            return Ok(false);
        }
        let docking = ((n, p), (new, q));
        if incomplete(&self.nodes) {
            self.open.push(docking);
        }
        if d == Dock::Tentative {
            self.tentative.push(docking);
        }
        let order = match self.port_order(new, Some(q)) {
            Ok(Some(order)) => order,
            Ok(None) => {
                undo(self, pending);
                return Ok(false);
            }
            Err(e) => {
                undo(self, pending);
                return Err(e);
            }
        };
        pending.extend(order.into_iter().rev().map(|r| (new, r)));
        match self.fill(pending) {
            Ok(true) => Ok(true),
            other => {
                undo(self, pending);
                self.backtracks += 1;
                if other.is_ok() && self.logging() {
                    let (ad, port) = self
                        .log
                        .as_ref()
                        .map(|l| self.port_name(l, n, p))
                        .unwrap_or_default();
                    self.record(|log| Step::Backtrack {
                        ad,
                        port,
                        offer: log.name(o),
                    });
                }
                other
            }
        }
    }

    /// Earlier tentative dockings are not (yet) proved false.
    fn tentatives_hold(&mut self) -> bool {
        for i in 0..self.tentative.len() {
            let (a, b) = self.tentative[i];
            let d = test_dock(
                &mut self.ev,
                self.ads,
                &self.nodes,
                a,
                b,
                &mut self.evaluations,
            );
            if d == Dock::No {
                return false;
            }
        }
        true
    }

    /// The gang is complete: every docking tested before it was is tested
    /// again, now with every label bound.
    fn complete(&mut self) -> bool {
        let ok = self.recheck_open();
        self.record(|_| Step::Verify { ok });
        ok
    }

    fn recheck_open(&mut self) -> bool {
        for i in 0..self.open.len() {
            let (a, b) = self.open[i];
            let d = test_dock(
                &mut self.ev,
                self.ads,
                &self.nodes,
                a,
                b,
                &mut self.evaluations,
            );
            if d != Dock::Yes {
                return false;
            }
        }
        true
    }
}
