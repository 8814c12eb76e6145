//! Candidates for a port, from the index (thesis §5.4–5.8): every offer
//! port is indexed as a [`port ad`](super::port_ad) (one *slot* per offer port);
//! a port to fill becomes a query *window* — its view specialized to what
//! the gang holds so far, narrowed by constraint shunting — and the probe
//! returns a superset of the slots that can dock there, which evaluation
//! then confirms.
//!
//! Windows are narrowed by constraint shunting ([`shunting`](super::shunting));
//! with summarization (DYNS) one representative per bucket of identical
//! slots is indexed ([`buckets`](super::buckets)), and a bucket leaves the
//! index when its last member is consumed.

use std::collections::HashMap;
use std::ops::Not;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::index::rectangle::Rectangles;
use crate::index::{Index, IndexOptions};
use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::EvalOptions;

use super::buckets::{read_names, signature};
use super::dock::Node;
use super::model::GangAd;
use super::port_ad::{port_ad, snapshot};
use super::shunting::{constrained, invertible, narrow, translate};

/// An offer's port: `ad` indexes the gang's ad list (requests first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub ad: usize,
    pub port: usize,
}

/// Members of each bucket (slots, in pool order), live ones only.
struct Buckets {
    of_slot: Vec<usize>,
    members: Vec<Vec<usize>>,
}

pub struct PortIndex {
    pub slots: Vec<Slot>,
    /// Per ad: its slots (empty for requests and unusable offers).
    slots_of_ad: Vec<std::ops::Range<usize>>,
    /// Ids are slots, or buckets when summarized.
    index: Index,
    buckets: Option<Buckets>,
    snapshots: FxHashMap<(usize, usize), Arc<ClassAd>>,
    /// Rectangles of docked ports, for shunting (an indexed port's copied
    /// from the index once; a request's converted once).
    rects: FxHashMap<(usize, usize), Arc<Rectangles>>,
    /// Per (ad, port) whose constraint reads no other label: its window,
    /// the same whatever is docked (only the port's own values change).
    fixed_windows: FxHashMap<(usize, usize), Option<Arc<Rectangles>>>,
    opts: EvalOptions,
    pub probes: u64,
}

impl PortIndex {
    /// Index the ports of `ads[first_offer..]` whose `usable` flag is set.
    pub fn build(
        ads: &[GangAd],
        first_offer: usize,
        usable: &[bool],
        summarize: bool,
        opts: EvalOptions,
    ) -> PortIndex {
        let mut slots = Vec::new();
        let mut slots_of_ad = vec![0..0; ads.len()];
        let mut views = Vec::new();
        for (a, g) in ads.iter().enumerate().skip(first_offer) {
            if !usable[a] {
                continue;
            }
            let start = slots.len();
            for p in 0..g.ports.len() {
                slots.push(Slot { ad: a, port: p });
                views.push(port_ad(g, p, &[], true, opts));
            }
            slots_of_ad[a] = start..slots.len();
        }
        let index_opts = IndexOptions {
            eval: opts,
            imports: None,
            scoped_only: true,
        };
        let (index, buckets) = if summarize {
            let names = read_names(ads);
            let mut by_sig: HashMap<String, usize> = HashMap::new();
            let mut of_slot = Vec::with_capacity(slots.len());
            let mut members: Vec<Vec<usize>> = Vec::new();
            let mut reps = Vec::new();
            for (s, view) in views.iter().enumerate() {
                let single = ads[slots[s].ad].ports.len() > 1;
                let sig = (!single)
                    .then(|| signature(view, &names, opts))
                    .flatten()
                    .unwrap_or_else(|| format!("unique {s}"));
                let b = *by_sig.entry(sig).or_insert_with(|| {
                    members.push(Vec::new());
                    reps.push(view.clone());
                    members.len() - 1
                });
                members[b].push(s);
                of_slot.push(b);
            }
            (
                Index::with_options(&reps, &index_opts),
                Some(Buckets { of_slot, members }),
            )
        } else {
            (Index::with_options(&views, &index_opts), None)
        };
        PortIndex {
            slots,
            slots_of_ad,
            index,
            buckets,
            snapshots: FxHashMap::default(),
            rects: FxHashMap::default(),
            fixed_windows: FxHashMap::default(),
            opts,
            probes: 0,
        }
    }

    /// How many ids the index holds (buckets when summarized).
    pub fn ids(&self) -> usize {
        self.buckets
            .as_ref()
            .map_or(self.slots.len(), |b| b.members.len())
    }

    pub fn summarized(&self) -> bool {
        self.buckets.is_some()
    }

    /// The first live slot behind an id that `skip` does not rule out
    /// (without buckets an id is its slot).
    pub fn first_member(&self, id: usize, skip: impl Fn(usize) -> bool) -> Option<usize> {
        match &self.buckets {
            Some(b) => b.members.get(id)?.iter().copied().find(|&s| !skip(s)),
            None => (id < self.slots.len() && !skip(id)).then_some(id),
        }
    }

    /// Take every port of `ad` out of the index (its ad joined a gang).
    pub fn consume(&mut self, ad: usize) {
        let range = self.slots_of_ad.get(ad).cloned().unwrap_or(0..0);
        for s in range {
            match &mut self.buckets {
                Some(b) => {
                    let id = b.of_slot[s];
                    b.members[id].retain(|&x| x != s);
                    if b.members[id].is_empty() {
                        self.index.remove(id);
                    }
                }
                None => self.index.remove(s),
            }
        }
    }

    fn snapshot(&mut self, ads: &[GangAd], ad: usize, port: usize) -> Arc<ClassAd> {
        let opts = self.opts;
        self.snapshots
            .entry((ad, port))
            .or_insert_with(|| snapshot(&ads[ad], port, opts))
            .clone()
    }

    /// The rectangles of the constraint of `ad`'s `port` (as indexed, or
    /// converted on demand for a port that is not).
    fn port_rectangles(&mut self, ads: &[GangAd], ad: usize, port: usize) -> Arc<Rectangles> {
        let (opts, index, buckets) = (self.opts, &self.index, &self.buckets);
        let slot = self.slots_of_ad.get(ad).and_then(|r| r.clone().nth(port));
        // Once per port, not per probe: an indexed port's are the index's.
        self.rects
            .entry((ad, port))
            .or_insert_with(|| {
                let indexed = slot
                    .and_then(|s| index.rectangles(buckets.as_ref().map_or(s, |b| b.of_slot[s])));
                Arc::new(match indexed {
                    Some(r) => r.clone(),
                    None => index.request_rectangles(&port_ad(&ads[ad], port, &[], true, opts)),
                })
            })
            .clone()
    }

    /// Probe for node `n`'s port `p`: index ids (slots, or buckets) in
    /// pool order, a superset of those that can dock there given the
    /// gang so far.
    pub fn probe(&mut self, ads: &[GangAd], nodes: &[Node], n: usize, p: usize) -> Vec<usize> {
        self.probe_described(ads, nodes, n, p, false).0
    }

    /// [`probe`](Self::probe), with the window in words when `describe`.
    pub fn probe_described(
        &mut self,
        ads: &[GangAd],
        nodes: &[Node],
        n: usize,
        p: usize,
        describe: bool,
    ) -> (Vec<usize>, Option<String>) {
        self.probes += 1;
        let g = &ads[nodes[n].ad];
        let mut bound = Vec::new();
        for (r, b) in nodes[n].bindings.iter().enumerate() {
            if let (Some((j, q)), false) = (b, r == p) {
                let snap = self.snapshot(ads, nodes[*j].ad, *q);
                bound.push((g.ports[r].key.clone(), snap));
            }
        }
        let view = port_ad(g, p, &bound, true, self.opts);
        let index = &self.index;
        let fixed = self
            .fixed_windows
            .entry((nodes[n].ad, p))
            .or_insert_with(|| {
                reads_other_labels(g, p)
                    .not()
                    .then(|| Arc::new(index.request_rectangles(&view)))
            })
            .clone();
        let mut window = match fixed {
            Some(w) => (*w).clone(),
            None => self.index.request_rectangles(&view),
        };
        for (r, b) in nodes[n].bindings.iter().enumerate() {
            let Some((j, q)) = b else { continue };
            if r == p {
                continue;
            }
            let Some(record) = g.port_record(r) else {
                continue;
            };
            for (attr, e) in record.iter() {
                let Some((key, shift)) = invertible(e, &g.ports[p].key) else {
                    continue;
                };
                let rects = self.port_rectangles(ads, nodes[*j].ad, *q);
                if let Some(set) = constrained(&rects, &attr.to_ascii_lowercase()) {
                    narrow(&mut window, &key, &translate(&set, shift));
                }
            }
        }
        let ids = self.index.query_prepared(&view, &window);
        (ids, describe.then(|| describe_window(&window)))
    }
}

/// Whether port `p`'s constraint can read a label other than its own —
/// directly, through the port's or the ad's attributes (followed
/// transitively), or through something the walk cannot see into (a scope
/// word, `eval`, a nested record). If not, its window does not depend on
/// what the gang holds.
fn reads_other_labels(g: &GangAd, p: usize) -> bool {
    let Some(port) = g.port_record(p) else {
        // An implicit port's only label is its own (`other`).
        return false;
    };
    let Some(attr) = g.ports[p].constraint_attr.as_deref() else {
        return false;
    };
    let own = g.ports[p].key.as_str();
    let lookup = |name: &str| port.get(name).or_else(|| g.ad.get(name));
    let mut seen: Vec<String> = vec![attr.to_ascii_lowercase()];
    let mut stack: Vec<&Expr> = lookup(attr).into_iter().collect();
    let mut budget = 100_000u32;
    while let Some(e) = stack.pop() {
        if budget == 0 {
            return true;
        }
        budget -= 1;
        match &e.kind {
            ExprKind::Attr { name, .. } => {
                let key = &*name.key;
                if name.special != crate::lang::ast::Special::None {
                    return true;
                }
                if let Some(def) = lookup(key) {
                    if !seen.iter().any(|s| s == key) {
                        seen.push(key.to_string());
                        stack.push(def);
                    }
                } else if key != own && g.ports.iter().any(|x| x.key == key) {
                    return true;
                }
            }
            ExprKind::Record(_) => return true,
            ExprKind::Call(c) if c.name.eq_ignore_ascii_case("eval") => return true,
            _ => stack.extend(e.children()),
        }
    }
    false
}

/// One rectangle in words: its intervals joined by `&&`.
pub fn describe_rectangle(r: &crate::index::rectangle::Rectangle) -> String {
    let mut parts: Vec<String> = r.exp.iter().map(|e| e.describe()).collect();
    if r.exp_deviant {
        parts.push("(more, not indexed)".into());
    }
    if parts.is_empty() {
        "anything".to_string()
    } else {
        parts.join(" && ")
    }
}

/// A window in words: its rectangles, `||` between them.
pub fn describe_window(w: &Rectangles) -> String {
    match w.rectangles.as_slice() {
        [] => "nothing (the constraint can never hold)".into(),
        [r] => describe_rectangle(r),
        rs => rs
            .iter()
            .map(|r| format!("({})", describe_rectangle(r)))
            .collect::<Vec<_>>()
            .join(" || "),
    }
}
