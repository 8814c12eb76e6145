//! The index structures of §4.5.3 and Algorithm 2's query (§4.5.4), with
//! removal of consumed offers.
//!
//! Per attribute key, the offers' rectangles are indexed by what their
//! exported intervals admit ([`ExpDim`]: the Exported Interval Index Map,
//! the Unexported Dimensions Map as the complement of `constrains`) and the
//! offers' own values by kind ([`ImpDim`]: the Imported Interval Index Map,
//! the Unimported and Deviant Imported maps).
//!
//! The query is exclusionary, as in the thesis: every live rectangle
//! starts in the result and a probe removes those it proves incompatible.
//! 1. For each attribute some offer constrains, the request's own value
//!    (a point, undefined when absent, or deviant) removes the rectangles
//!    that constrain that attribute and do not admit the value (Algorithm 2
//!    lines 7-17: Imp(Q) and Impabsent(Q)). This does not depend on the
//!    request's profiles, so it is done once per query (code motion).
//! 2. For each profile of the request, each of its exported sets keeps only
//!    the offers whose value lies in it, whose value is deviant, or — if
//!    the set admits undefined — that lack the attribute (lines 18-23).
//! 3. The union over the request's profiles (line 24).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

use super::interval::{NumberDim, PointIndex, StringIndex};
use super::rectangle::{Piece, Point, Rectangles};
use crate::constraint::intervals::ValueSet;

/// Rectangles' exported intervals on one attribute, all kinds.
pub(crate) struct ExpDim {
    /// Rectangles that constrain the attribute (the others are "unexported").
    constrains: FixedBitSet,
    /// Rectangles with a numeric piece here.
    has_number: FixedBitSet,
    number: NumberDim,
    bool_true: FixedBitSet,
    bool_false: FixedBitSet,
    undefined: FixedBitSet,
    /// Rectangles admitting only listed strings: those strings.
    str_listed: StringIndex,
    /// Rectangles admitting every string but some; their exceptions.
    str_any: FixedBitSet,
    str_except: StringIndex,
}

impl ExpDim {
    fn new(rects: usize) -> ExpDim {
        let bits = || FixedBitSet::with_capacity(rects);
        ExpDim {
            constrains: bits(),
            has_number: bits(),
            number: NumberDim::new(rects),
            bool_true: bits(),
            bool_false: bits(),
            undefined: bits(),
            str_listed: StringIndex::default(),
            str_any: bits(),
            str_except: StringIndex::default(),
        }
    }

    fn apply(&mut self, rid: usize, pieces: &[(super::rectangle::Dim, Piece)], insert: bool) {
        self.constrains.set(rid, insert);
        for (_, p) in pieces {
            match p {
                Piece::Numbers(v) => {
                    self.has_number.set(rid, insert);
                    if insert {
                        self.number.insert(v, rid)
                    } else {
                        self.number.remove(v, rid)
                    }
                }
                Piece::Booleans {
                    allow_true,
                    allow_false,
                } => {
                    self.bool_true.set(rid, insert && *allow_true);
                    self.bool_false.set(rid, insert && *allow_false);
                }
                Piece::Undefined => self.undefined.set(rid, insert),
                Piece::Strings { values, any_other } => {
                    let idx = if *any_other {
                        self.str_any.set(rid, insert);
                        &mut self.str_except
                    } else {
                        &mut self.str_listed
                    };
                    for s in values {
                        if insert {
                            idx.insert(s, rid)
                        } else {
                            idx.remove(s, rid)
                        }
                    }
                }
            }
        }
    }

    /// Rectangles that constrain the attribute and do not admit `p`
    /// (`None` for a deviant point: nothing can be excluded).
    fn rejects(&self, p: &Point) -> Option<FixedBitSet> {
        let mut admit = match p {
            Point::Deviant => return None,
            Point::Number(x) => {
                // Those that constrain the attribute but admit no number,
                // and those whose numbers leave `x` out.
                let mut rejected = self.constrains.clone();
                rejected.difference_with(&self.has_number);
                self.number.rejecting(*x, &mut rejected);
                rejected.intersect_with(&self.constrains);
                return Some(rejected);
            }
            Point::Bool(true) => self.bool_true.clone(),
            Point::Bool(false) => self.bool_false.clone(),
            Point::Undefined => self.undefined.clone(),
            Point::Str(s) => {
                let mut a = self.str_any.clone();
                self.str_except.get(s, &mut |id| a.set(id, false));
                self.str_listed.get(s, &mut |id| a.insert(id));
                a
            }
        };
        admit.toggle_range(..);
        admit.intersect_with(&self.constrains);
        Some(admit)
    }
}

/// Offers' own values of one attribute, by kind.
pub(crate) struct ImpDim {
    number: PointIndex,
    bool_true: FixedBitSet,
    bool_false: FixedBitSet,
    strings: StringIndex,
    string_all: FixedBitSet,
    /// Absent or the literal undefined.
    undefined: FixedBitSet,
    deviant: FixedBitSet,
}

impl ImpDim {
    fn new(offers: usize) -> ImpDim {
        let bits = || FixedBitSet::with_capacity(offers);
        let mut undefined = bits();
        undefined.insert_range(..);
        ImpDim {
            number: PointIndex::default(),
            bool_true: bits(),
            bool_false: bits(),
            strings: StringIndex::default(),
            string_all: bits(),
            undefined,
            deviant: bits(),
        }
    }

    fn apply(&mut self, offer: usize, p: &Point, insert: bool) {
        match p {
            Point::Number(x) => {
                if insert {
                    self.number.insert(*x, offer)
                } else {
                    self.number.remove(*x, offer)
                }
            }
            Point::Bool(true) => self.bool_true.set(offer, insert),
            Point::Bool(false) => self.bool_false.set(offer, insert),
            Point::Str(s) => {
                self.string_all.set(offer, insert);
                if insert {
                    self.strings.insert(s, offer)
                } else {
                    self.strings.remove(s, offer)
                }
            }
            Point::Undefined => {}
            Point::Deviant => self.deviant.set(offer, insert),
        }
        // An offer is undefined here unless it holds another value (and
        // a removed offer is nothing).
        self.undefined
            .set(offer, insert && matches!(p, Point::Undefined));
    }

    /// Offers whose value may lie in `s`.
    fn admitted(&self, s: &ValueSet) -> FixedBitSet {
        let mut a = self.deviant.clone();
        if s.undefined {
            a.union_with(&self.undefined);
        }
        if s.allow_true {
            a.union_with(&self.bool_true);
        }
        if s.allow_false {
            a.union_with(&self.bool_false);
        }
        for i in &s.numbers {
            self.number.window(i, &mut |id| a.insert(id));
        }
        if s.any_other_string {
            let mut strs = self.string_all.clone();
            for x in &s.strings {
                self.strings.get(x, &mut |id| strs.set(id, false));
            }
            a.union_with(&strs);
        } else {
            for x in &s.strings {
                self.strings.get(x, &mut |id| a.insert(id));
            }
        }
        a
    }
}

/// Everything Algorithm 2 probes, over rectangle ids (RIDs) and offer ids.
pub(crate) struct Structures {
    pub exp: BTreeMap<String, ExpDim>,
    pub imp: FxHashMap<String, ImpDim>,
    /// Every attribute of the offers is imported: a key without an
    /// [`ImpDim`] is absent from every offer.
    pub imports_all: bool,
    pub rect_offer: Vec<usize>,
    pub live_rects: FixedBitSet,
    pub live_offers: FixedBitSet,
    pub probes: AtomicU64,
    pub candidates: AtomicU64,
    pub queries: AtomicU64,
}

impl Structures {
    /// `values[o]`: offer `o`'s imported points, by key.
    pub fn build(
        rects: &[Rectangles],
        values: &[Vec<(String, Point)>],
        imp_keys: &[String],
        imports_all: bool,
    ) -> Structures {
        let offers = rects.len();
        let rect_offer: Vec<usize> = rects
            .iter()
            .enumerate()
            .flat_map(|(o, r)| std::iter::repeat_n(o, r.rectangles.len()))
            .collect();
        let n_rects = rect_offer.len();
        let mut s = Structures {
            exp: BTreeMap::new(),
            imp: imp_keys
                .iter()
                .map(|k| (k.clone(), ImpDim::new(offers)))
                .collect(),
            imports_all,
            live_rects: FixedBitSet::with_capacity(n_rects),
            live_offers: FixedBitSet::with_capacity(offers),
            rect_offer,
            probes: AtomicU64::new(0),
            candidates: AtomicU64::new(0),
            queries: AtomicU64::new(0),
        };
        s.live_rects.insert_range(..);
        s.live_offers.insert_range(..);
        let mut rid = 0;
        for r in rects {
            for rect in &r.rectangles {
                for e in &rect.exp {
                    let dim = s
                        .exp
                        .entry(e.key.clone())
                        .or_insert_with(|| ExpDim::new(n_rects));
                    dim.apply(rid, &e.pieces(), true);
                }
                rid += 1;
            }
        }
        for d in s.exp.values_mut() {
            d.number.finish();
        }
        for (o, vals) in values.iter().enumerate() {
            for (k, p) in vals {
                if let Some(d) = s.imp.get_mut(k) {
                    d.apply(o, p, true);
                }
            }
        }
        for d in s.imp.values_mut() {
            d.number.finish();
        }
        s
    }

    /// Take offer `o` (its rectangles `rids`) out of every structure.
    pub fn remove(
        &mut self,
        o: usize,
        rects: &Rectangles,
        first_rid: usize,
        values: &[(String, Point)],
    ) {
        if !self.live_offers.contains(o) {
            return;
        }
        self.live_offers.set(o, false);
        for (j, rect) in rects.rectangles.iter().enumerate() {
            let rid = first_rid + j;
            self.live_rects.set(rid, false);
            for e in &rect.exp {
                if let Some(d) = self.exp.get_mut(&e.key) {
                    d.apply(rid, &e.pieces(), false);
                }
            }
        }
        for (k, p) in values {
            if let Some(d) = self.imp.get_mut(k) {
                d.apply(o, p, false);
            }
        }
        for d in self.imp.values_mut() {
            d.undefined.set(o, false);
        }
    }

    /// Algorithm 2. `value_of(key)`: the request's own value of an
    /// attribute. Returns candidate offer ids, ascending.
    pub fn query(
        &self,
        request: &Rectangles,
        value_of: &mut dyn FnMut(&str) -> Point,
    ) -> Vec<usize> {
        self.queries.fetch_add(1, Ordering::Relaxed);
        if request.rectangles.is_empty() {
            return vec![];
        }
        let mut probes = 0u64;
        // 1. The request's own values against the offers' exported intervals.
        let mut rects = self.live_rects.clone();
        for (key, dim) in &self.exp {
            // A deviant value is not probed: nothing can be excluded by it.
            if let Some(rejected) = dim.rejects(&value_of(key)) {
                probes += 1;
                rects.difference_with(&rejected);
            }
        }
        let mut ok = FixedBitSet::with_capacity(self.live_offers.len());
        for rid in rects.ones() {
            if let Some(&o) = self.rect_offer.get(rid) {
                ok.insert(o);
            }
        }
        // 2-3. Each request profile against the offers' imported values.
        let mut total = FixedBitSet::with_capacity(self.live_offers.len());
        for rect in &request.rectangles {
            let mut o = ok.clone();
            for e in &rect.exp {
                if o.is_clear() {
                    break;
                }
                match self.imp.get(&e.key) {
                    Some(d) => {
                        probes += 1;
                        o.intersect_with(&d.admitted(&e.set));
                    }
                    None if self.imports_all && !e.set.undefined => o.clear(),
                    None => {}
                }
            }
            total.union_with(&o);
        }
        let out: Vec<usize> = total.ones().collect();
        self.probes.fetch_add(probes, Ordering::Relaxed);
        self.candidates
            .fetch_add(out.len() as u64, Ordering::Relaxed);
        out
    }
}
