//! ClassAd indexing (thesis ch. 4): find the offers a request may match
//! without evaluating every pair.
//!
//! [`Index::build`] converts every offer's constraint (`Requirements`, else
//! `Constraint`) into rectangles ([`rectangle`]) and indexes, per mangled
//! dimension, the rectangles' exported intervals and the offers' own values
//! ([`interval`]). [`Index::query`] runs Algorithm 2 ([`query`]) with the
//! request's own values and rectangles and returns a **superset** of the
//! offers that match it both ways; [`Index::matches`] confirms each
//! candidate by evaluation (`matching::symmetric_match`), giving exactly the
//! compatible offers. [`Index::remove`] consumes an offer.
//!
//! ```
//! use std::sync::Arc;
//! use classad::{index::Index, parse_classad};
//! let ad = |s: &str| Arc::new(parse_classad(s).unwrap());
//! // Figure 16.
//! let offers = [ad("[ x=10; Constraint=other.y>=7 ]"), ad("[ x=7; Constraint=other.y<=5 ]")];
//! let mut index = Index::build(&offers);
//! assert_eq!(index.query(&ad("[ y=8; Constraint=other.x>=8 ]")), vec![0]);
//! assert_eq!(index.query(&ad("[ y=3; Constraint=other.x<=15 ]")), vec![1]);
//! index.remove(1);
//! assert!(index.query(&ad("[ y=3; Constraint=other.x<=15 ]")).is_empty());
//! ```
//!
//! # How it follows the thesis
//!
//! - Rectangles per profile of the constraint's disjunctive profile form,
//!   after specializing the constraint against its own ad; Exp / Expabsent /
//!   Expdeviant per rectangle, Imp / Impabsent / Impdeviant per ad (they
//!   are the same for all of an ad's rectangles); names mangled by type;
//!   value- and type-consistency errors found in conversion are reported as
//!   [`rectangle::Conflict`]s and the profile, which can never hold, is
//!   dropped.
//! - One one-dimensional index per mangled dimension, an interval tree for
//!   numbers; the exclusionary query of Algorithm 2, hoisting the part that
//!   does not depend on the request's profile out of the per-profile loop.
//!
//! # Where it differs
//!
//! - The thesis's *imported* reference set is the requests' external
//!   references, known before the match phase. [`Index::build`] does not
//!   know the requests, so it imports every attribute of every offer;
//!   [`Index::build_for`] imports only what the given requests reference
//!   (then a constraint on any other attribute is not used to prune).
//! - A deviant rectangle (a profile with a non-property atom) is still
//!   pruned by its properties: all of a profile's atoms must hold, so a
//!   property that fails excludes it whatever the other atoms are.
//!   Algorithm 2 admits every deviant rectangle on each imported dimension.
//! - Absent attributes: Algorithm 2 removes every rectangle that constrains
//!   an attribute the request lacks; here only those whose set does not
//!   admit undefined (`other.x =?= undefined` does).
//! - Booleans, undefined, and strings by equality (case-insensitive) are
//!   dimensions of their own; string ordering (`other.Name < "m"`), `=?=`
//!   on numbers or strings, NaN and integers past 2^53 are not represented
//!   (the atom is deviant). An ad without a constraint never matches, so it
//!   has no rectangle; a constraint too large for DPF is one rectangle
//!   admitting everything.
//! - Each request profile is probed only for the offers that survived the
//!   request's own values (one pass over the offers' rectangles per query,
//!   not per profile).
//! - Bilateral only: the implicit port `other`.
//!
//! Measured on §4.6.1's workload (4 attributes, domain 10, release build,
//! `thesis_workload_timing` in `tests/index.rs`): 4,000 offers index in
//! 70 ms and 4,000 queries take 0.6 s, where evaluating every pair takes
//! about 28 s; 16,000 × 16,000: 0.28 s and 11.5 s against about 475 s.

pub mod adaptive;
pub mod interval;
pub mod negotiation;
pub mod query;
pub mod rectangle;

use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde::Serialize;

use crate::lang::ast::ClassAd;
use crate::lang::eval::{EvalOptions, Evaluator};
use rectangle::{own_value, rectangles, rectangles_scoped, Conflict, Point, Rectangles};

/// How to build an [`Index`].
#[derive(Clone, Debug, Default)]
pub struct IndexOptions {
    /// Mode and clock for specialization (match with the same options).
    pub eval: EvalOptions,
    /// Attributes of the offers to index (case-insensitive): the imported
    /// reference set. `None`: all of them.
    pub imports: Option<Vec<String>>,
    /// Only `other.x` / `TARGET.x` name the other ad (gangmatching's port
    /// views); otherwise, in HTCondor mode, so does an unscoped name the ad
    /// lacks.
    pub scoped_only: bool,
}

/// Sizes and honest counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IndexStats {
    pub offers: usize,
    pub live_offers: usize,
    pub rectangles: usize,
    /// Offers whose constraint is one rectangle admitting everything.
    pub unindexable: usize,
    pub conflicts: usize,
    /// Attributes the offers' rectangles constrain (each has up to four
    /// mangled dimensions).
    pub exported_attributes: usize,
    pub imported_attributes: usize,
    pub queries: u64,
    /// One per dimension probed.
    pub probes: u64,
    /// Candidates returned, summed over queries.
    pub candidates: u64,
}

/// An index over a pool of offers.
pub struct Index {
    offers: Vec<Arc<ClassAd>>,
    opts: EvalOptions,
    unscoped_is_other: bool,
    rects: Vec<Rectangles>,
    first_rid: Vec<usize>,
    s: query::Structures,
}

impl Index {
    /// Index `offers` with HTCondor-mode evaluation, importing every
    /// attribute.
    pub fn build(offers: &[Arc<ClassAd>]) -> Index {
        Index::with_options(offers, &IndexOptions::default())
    }

    /// Index `offers`, importing only the attributes `requests` reference
    /// (thesis §4.4.3).
    pub fn build_for(
        offers: &[Arc<ClassAd>],
        requests: &[Arc<ClassAd>],
        eval: EvalOptions,
    ) -> Index {
        let mut imports = std::collections::BTreeSet::new();
        for r in requests {
            imports.extend(rectangles(r, eval).external);
        }
        Index::with_options(
            offers,
            &IndexOptions {
                eval,
                imports: Some(imports.into_iter().collect()),
                scoped_only: false,
            },
        )
    }

    pub fn with_options(offers: &[Arc<ClassAd>], o: &IndexOptions) -> Index {
        let unscoped_is_other = !o.scoped_only && o.eval.mode == crate::lang::eval::Mode::HTCondor;
        let rects: Vec<Rectangles> = offers
            .iter()
            .map(|ad| rectangles_scoped(ad, o.eval, unscoped_is_other))
            .collect();
        let (keys, imports_all): (Vec<String>, bool) = match &o.imports {
            Some(v) => {
                let mut k: Vec<String> = v.iter().map(|s| s.to_ascii_lowercase()).collect();
                k.sort();
                k.dedup();
                (k, false)
            }
            None => {
                let mut k: Vec<String> = offers
                    .iter()
                    .flat_map(|ad| ad.names().map(str::to_ascii_lowercase))
                    .collect();
                k.sort();
                k.dedup();
                (k, true)
            }
        };
        let wanted: rustc_hash::FxHashSet<&str> = keys.iter().map(String::as_str).collect();
        let values: Vec<Vec<(String, Point)>> = offers
            .iter()
            .map(|ad| imported(ad, &|k| wanted.contains(k), o.eval))
            .collect();
        let mut first_rid = Vec::with_capacity(rects.len());
        let mut n = 0;
        for r in &rects {
            first_rid.push(n);
            n += r.rectangles.len();
        }
        let s = query::Structures::build(&rects, &values, &keys, imports_all);
        Index {
            offers: offers.to_vec(),
            opts: o.eval,
            unscoped_is_other,
            rects,
            first_rid,
            s,
        }
    }

    /// Candidate offers for `request`, ascending: every live offer that
    /// matches it both ways is among them.
    pub fn query(&self, request: &Arc<ClassAd>) -> Vec<usize> {
        self.query_prepared(request, &self.request_rectangles(request))
    }

    /// A request's rectangles, read the way this index reads its offers.
    pub fn request_rectangles(&self, request: &Arc<ClassAd>) -> Rectangles {
        rectangles_scoped(request, self.opts, self.unscoped_is_other)
    }

    /// [`query`](Self::query) with the request's rectangles already made.
    pub fn query_prepared(&self, request: &Arc<ClassAd>, rects: &Rectangles) -> Vec<usize> {
        let opts = self.opts;
        self.s.query(rects, &mut |k| own_value(request, k, opts))
    }

    /// The candidates confirmed by evaluation: exactly the live offers
    /// that match `request` both ways.
    pub fn matches(&self, request: &Arc<ClassAd>, ev: &mut Evaluator) -> Vec<usize> {
        self.query(request)
            .into_iter()
            .filter(|&i| {
                self.offers.get(i).is_some_and(|o| {
                    crate::matchmaking::matching::symmetric_match(ev, request, o).matched()
                })
            })
            .collect()
    }

    /// Consume offer `i`: no later query returns it. Out of range or
    /// already removed: nothing happens.
    pub fn remove(&mut self, i: usize) {
        if let (Some(r), Some(&rid), Some(ad)) =
            (self.rects.get(i), self.first_rid.get(i), self.offers.get(i))
        {
            // Recomputed rather than kept: the same points as at build.
            let v = imported(ad, &|k| self.s.imp.contains_key(k), self.opts);
            self.s.remove(i, r, rid, &v);
        }
    }

    pub fn is_live(&self, i: usize) -> bool {
        i < self.offers.len() && self.s.live_offers.contains(i)
    }

    pub fn offers(&self) -> &[Arc<ClassAd>] {
        &self.offers
    }

    /// Offer `i`'s rectangles (for an inspector).
    pub fn rectangles(&self, i: usize) -> Option<&Rectangles> {
        self.rects.get(i)
    }

    /// Consistency errors found while converting the offers: (offer, conflict).
    pub fn conflicts(&self) -> impl Iterator<Item = (usize, &Conflict)> {
        self.rects
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.conflicts.iter().map(move |c| (i, c)))
    }

    pub fn stats(&self) -> IndexStats {
        IndexStats {
            offers: self.offers.len(),
            live_offers: self.s.live_offers.count_ones(..),
            rectangles: self.s.rect_offer.len(),
            unindexable: self
                .rects
                .iter()
                .filter(|r| r.unindexable.is_some())
                .count(),
            conflicts: self.rects.iter().map(|r| r.conflicts.len()).sum(),
            exported_attributes: self.s.exp.len(),
            imported_attributes: self.s.imp.len(),
            queries: self.s.queries.load(Ordering::Relaxed),
            probes: self.s.probes.load(Ordering::Relaxed),
            candidates: self.s.candidates.load(Ordering::Relaxed),
        }
    }
}

/// `ad`'s own values of the attributes `wanted` (case-folded keys).
fn imported(
    ad: &Arc<ClassAd>,
    wanted: &dyn Fn(&str) -> bool,
    opts: EvalOptions,
) -> Vec<(String, Point)> {
    let mut out: Vec<(String, Point)> = ad
        .names()
        .map(str::to_ascii_lowercase)
        .filter(|k| wanted(k))
        .map(|k| {
            let p = own_value(ad, &k, opts);
            (k, p)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}
