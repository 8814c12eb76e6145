//! The ranked naive gangmatching search (thesis §5.3.1, policy §3.2.4):
//! a request's ports are filled left to right; each port takes its
//! best-ranked compatible free candidate (the port's Rank, higher first;
//! undefined or error ranks last), backtracking to the next best. A non-root
//! offer may be docked through any of its ports (its parent link); its other
//! ports are then filled too, recursively. A tentative yes (undefined only
//! because labels are not bound yet) is re-checked once the gang is
//! complete.

use crate::lang::eval::Evaluator;
use crate::lang::value::Value;

use super::dock::{build_env, eval_port_attr, test_dock, verify, Dock, Node};
use super::model::GangAd;
use super::steps::{answer, Step, StepLog};

/// Why a search gave up.
#[derive(Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// Its evaluation budget ran out.
    Work,
    /// The gang would need more ads than `max_gang_ads`: the search stops
    /// at once rather than trying every smaller combination first.
    GangSize,
}

/// The state of one request's search. `ads[0..n_requests]` are requests,
/// the rest offers.
pub struct Search<'a> {
    pub ads: &'a [GangAd],
    /// Per ad: free to join a gang.
    pub free: &'a [bool],
    pub ev: Evaluator,
    pub evaluations: u64,
    pub backtracks: u64,
    pub max_evaluations: u64,
    pub max_gang_ads: usize,
    pub nodes: Vec<Node>,
    /// The classroom's record of the search, when one is kept.
    pub log: Option<&'a mut StepLog>,
    /// With a docking vector: its length (its components are the ports'
    /// `_dv_0`, `_dv_1`, … attributes, see [`super::policy`]); without one,
    /// each port's `Rank`.
    pub vector: Option<usize>,
}

/// A candidate's place in the order: the docking vector's values (or the
/// port's Rank alone); `None` sorts last.
type Key = Option<Vec<f64>>;

fn rank_key(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Real(r) if !r.is_nan() => Some(*r),
        Value::Bool(b) => Some(*b as i64 as f64),
        _ => None,
    }
}

impl<'a> Search<'a> {
    /// Marshal a gang rooted at ad `root`: Ok(true) leaves it in `nodes`.
    pub fn run(&mut self, root: usize) -> Result<bool, LimitHit> {
        let ports = self.ads[root].ports.len();
        self.nodes = vec![Node {
            ad: root,
            bindings: vec![None; ports],
        }];
        // A root port that reads no other label (nor does the root outside
        // its ports) docks the same whatever the other ports hold: if no
        // free offer docks with it now, no combination of the others can
        // help, so say no at once instead of trying them all.
        for p in 0..ports {
            if independent_port(&self.ads[root], p) && self.candidates(0, p)?.0.is_empty() {
                return Ok(false);
            }
        }
        let mut pending: Vec<(usize, usize)> = (0..ports).rev().map(|p| (0, p)).collect();
        self.fill(&mut pending)
    }

    fn fill(&mut self, pending: &mut Vec<(usize, usize)>) -> Result<bool, LimitHit> {
        if self.evaluations >= self.max_evaluations {
            return Err(LimitHit::Work);
        }
        let Some((n, p)) = pending.pop() else {
            let ok = verify(&mut self.ev, self.ads, &self.nodes, &mut self.evaluations);
            self.record(|_| Step::Verify { ok });
            return Ok(ok);
        };
        let (candidates, tested) = self.candidates(n, p)?;
        let (ad, port) = (
            self.nodes[n].ad,
            self.ads[self.nodes[n].ad].ports[p].label.clone(),
        );
        self.record(|log| Step::Scan {
            ad: log.name(ad),
            port: port.clone(),
            tested,
            docked: candidates.len(),
        });
        for (o, q, _, d) in candidates {
            let via = self.ads[o].ports[q].label.clone();
            self.record(|log| Step::Try {
                ad: log.name(ad),
                port: port.clone(),
                offer: log.name(o),
                via,
                answer: answer(d).into(),
            });
            let new = self.nodes.len();
            let mut bindings = vec![None; self.ads[o].ports.len()];
            bindings[q] = Some((n, p));
            self.nodes.push(Node { ad: o, bindings });
            self.nodes[n].bindings[p] = Some((new, q));
            let before = pending.len();
            for r in (0..self.ads[o].ports.len()).rev() {
                if r != q {
                    pending.push((new, r));
                }
            }
            if self.fill(pending)? {
                return Ok(true);
            }
            pending.truncate(before);
            self.nodes[n].bindings[p] = None;
            self.nodes.pop();
            self.backtracks += 1;
            self.record(|log| Step::Backtrack {
                ad: log.name(ad),
                port: port.clone(),
                offer: log.name(o),
            });
        }
        pending.push((n, p));
        Ok(false)
    }

    fn record(&mut self, step: impl FnOnce(&StepLog) -> Step) {
        StepLog::record(&mut self.log, step);
    }

    /// The free offers (and their parent-link ports) that dock with node
    /// `n`'s port `p` or may once the gang is complete, best rank first,
    /// with how many offer ports were tested.
    #[allow(clippy::type_complexity)]
    fn candidates(
        &mut self,
        n: usize,
        p: usize,
    ) -> Result<(Vec<(usize, usize, Key, Dock)>, usize), LimitHit> {
        let mut out = Vec::new();
        let mut tested = 0;
        if self.nodes.len() >= self.max_gang_ads {
            return Err(LimitHit::GangSize);
        }
        let new = self.nodes.len();
        for o in 0..self.ads.len() {
            if !self.free[o] || self.nodes.iter().any(|x| x.ad == o) {
                continue;
            }
            for q in 0..self.ads[o].ports.len() {
                if self.evaluations >= self.max_evaluations {
                    self.nodes[n].bindings[p] = None;
                    return Err(LimitHit::Work);
                }
                let mut bindings = vec![None; self.ads[o].ports.len()];
                bindings[q] = Some((n, p));
                self.nodes.push(Node { ad: o, bindings });
                self.nodes[n].bindings[p] = Some((new, q));
                tested += 1;
                let d = test_dock(
                    &mut self.ev,
                    self.ads,
                    &self.nodes,
                    (n, p),
                    (new, q),
                    &mut self.evaluations,
                );
                if d != Dock::No {
                    match self.order_key(n, p) {
                        // A vector with an undefined, error or non-numeric
                        // component: the candidate is not eligible (§3.2.4).
                        Err(()) => {}
                        Ok(key) => out.push((o, q, key, d)),
                    }
                }
                self.nodes.pop();
                self.nodes[n].bindings[p] = None;
            }
        }
        // The largest vector (or rank) first, lexicographically; an
        // undefined rank last; ties keep pool order.
        out.sort_by(|a, b| match (&a.2, &b.2) {
            (Some(x), Some(y)) => {
                for (u, v) in x.iter().zip(y) {
                    match crate::lang::value::rank_cmp(*v, *u) {
                        std::cmp::Ordering::Equal => continue,
                        o => return o,
                    }
                }
                std::cmp::Ordering::Equal
            }
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        Ok((out, tested))
    }

    /// The order key of the candidate just docked at node `n`'s port `p`:
    /// the docking vector (`Err` when a component is not a number), else
    /// the port's Rank (`None` when undefined: tried last, never dropped,
    /// so the default policy never misses a gang) or 0 without one.
    fn order_key(&mut self, n: usize, p: usize) -> Result<Key, ()> {
        let port = &self.ads[self.nodes[n].ad].ports[p];
        let attrs: Vec<String> = match self.vector {
            Some(k) => (0..k).map(|i| format!("_dv_{i}")).collect(),
            None if port.has_rank => vec!["Rank".to_string()],
            None => return Ok(Some(vec![0.0])),
        };
        let env = build_env(self.ads, &self.nodes, false);
        let mut key = Vec::with_capacity(attrs.len());
        for a in &attrs {
            self.evaluations += 1;
            let v = eval_port_attr(&mut self.ev, &env, self.ads, &self.nodes, n, p, a);
            match rank_key(&v) {
                Some(x) => key.push(x),
                None if self.vector.is_some() => return Err(()),
                None => return Ok(None),
            }
        }
        Ok(Some(key))
    }
}

/// Whether port `p` of `ad` can be judged alone: neither its record nor
/// the ad's own attributes (outside `Ports`) name another port's label,
/// or `parent`/`root` (through which a port reaches its siblings).
fn independent_port(ad: &GangAd, p: usize) -> bool {
    let Some(record) = ad.port_record(p) else {
        return false;
    };
    let others: Vec<&str> = ad
        .ports
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != p)
        .map(|(_, q)| q.key.as_str())
        .collect();
    let reads_another = |e: &crate::lang::ast::Expr| {
        crate::lang::refs::external_refs_of(e)
            .iter()
            .any(|n| others.contains(&n.to_ascii_lowercase().as_str()))
            || mentions_scope_words(e)
    };
    let outside = ad
        .ad
        .iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case("Ports"))
        .any(|(_, e)| reads_another(e));
    !outside && !record.iter().any(|(_, e)| reads_another(e))
}

/// `parent`, `root` or `toplevel` anywhere in `e` (scope words the
/// reference walk does not list).
fn mentions_scope_words(e: &crate::lang::ast::Expr) -> bool {
    use crate::lang::ast::ExprKind;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if let ExprKind::Attr { name, .. } = &x.kind {
            if name.is("parent") || name.is("root") || name.is("toplevel") {
                return true;
            }
        }
        stack.extend(x.children());
    }
    false
}
