//! Rectangle conversion (thesis §4.2, §4.4, §4.5.2): an ad's constraint as
//! rectangles, and its own attributes as points.
//!
//! Names follow the thesis (§4.4.2, §4.5.2): an ad's **exported** intervals
//! come from its constraint — per profile (DNF clause), the values of the
//! *other* ad's attributes that the clause admits ([`Rectangle::exp`]); the
//! external references a clause leaves unconstrained are its
//! [`Rectangle::exp_absent`], and a clause with an atom that is not a
//! property (`attr OP literal`) is [`Rectangle::exp_deviant`]. The
//! **imported** part comes from the ad's own attributes: constant ones are
//! points ([`Point`]), absent ones undefined, the others deviant. Imported
//! values are the same for every rectangle of an ad, so they are computed
//! per ad ([`own_value`]), and only for the names someone asks about.
//!
//! The conversion is sound: whenever the constraint accepts an ad (it is
//! `true` or a non-zero number), some rectangle's every interval contains
//! that ad's values. DNF is exact in ClassAd's logic for that question
//! (see `analysis::predicate`), an atom that is not a property is only
//! dropped (which widens the rectangle), and a NaN literal or an integer
//! past 2^53 — where the complement of a comparison is not exact — is
//! treated as such an atom.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::constraint::intervals::{Constraint, NumInterval, ValueSet};
use crate::constraint::predicate::{self, Sides};
use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind};
use crate::lang::eval::ops::{truth, Truth};
use crate::lang::eval::{EvalOptions, Mode};
use crate::lang::specialize::{specialize, SpecContext};
use crate::lang::value::Value;
use crate::matchmaking::matching::DEFAULT_REQUIREMENTS;

/// Integers at or past 2^53 do not convert to f64 exactly.
const EXACT_INT: u64 = 1 << 53;

/// The type part of a mangled dimension name (§4.4.4): a numeric and a
/// string use of `Arch` are different dimensions. Integers and reals are
/// one kind ("numbers"); booleans their own, as is undefined (an absent
/// attribute).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Kind {
    Number,
    String,
    Boolean,
    Undefined,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Boolean => "boolean",
            Kind::Undefined => "undefined",
        }
    }
}

/// A mangled dimension: a case-folded attribute name and a kind.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Dim {
    pub key: String,
    pub kind: Kind,
}

impl fmt::Display for Dim {
    /// `memory:number`, `arch:string`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.key, self.kind.name())
    }
}

/// A value of an ad's own attribute as another ad's constraint sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Point {
    /// An integer below 2^53 or a real that is not NaN (`-0.0` is `0.0`).
    Number(f64),
    Str(String),
    Bool(bool),
    /// Absent, or the literal `undefined` (Impabsent).
    Undefined,
    /// Not a constant, or a value the index does not place (error, times,
    /// lists, records, NaN, huge integers): Impdeviant.
    Deviant,
}

impl Point {
    pub fn of(v: &Value) -> Point {
        match v {
            Value::Int(i) if i.unsigned_abs() < EXACT_INT => Point::Number(*i as f64 + 0.0),
            Value::Real(r) if !r.is_nan() => Point::Number(*r + 0.0),
            Value::Bool(b) => Point::Bool(*b),
            Value::Str(s) => Point::Str(s.to_string()),
            Value::Undefined => Point::Undefined,
            _ => Point::Deviant,
        }
    }
    pub fn kind(&self) -> Option<Kind> {
        match self {
            Point::Number(_) => Some(Kind::Number),
            Point::Str(_) => Some(Kind::String),
            Point::Bool(_) => Some(Kind::Boolean),
            Point::Undefined => Some(Kind::Undefined),
            Point::Deviant => None,
        }
    }
    /// Whether a set of values admits this point (a deviant point is
    /// admitted by everything: nothing is known about it).
    pub fn within(&self, s: &ValueSet) -> bool {
        match self {
            Point::Number(x) => s.numbers.iter().any(|i| i.contains(*x)),
            Point::Str(v) => s.contains(&Value::str(v.as_str())),
            Point::Bool(b) => s.contains(&Value::Bool(*b)),
            Point::Undefined => s.undefined,
            Point::Deviant => true,
        }
    }
}

/// The value of attribute `name` of `ad` as another ad reads it
/// (`TARGET.name`): the attribute specialized against its own ad alone.
pub fn own_value(ad: &Arc<ClassAd>, name: &str, opts: EvalOptions) -> Point {
    let Some(e) = ad.get(name) else {
        return Point::Undefined;
    };
    if let Some(v) = e.as_literal() {
        return Point::of(v);
    }
    let ctx = SpecContext {
        my: ad.clone(),
        target: None,
        opts,
    };
    match specialize(e, &ctx).as_literal() {
        Some(v) => Point::of(v),
        None => Point::Deviant,
    }
}

/// One dimension's part of an exported set, as the index stores it.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Closed/open intervals of numbers (booleans are in [`Piece::Booleans`]).
    Numbers(Vec<NumInterval>),
    /// Listed strings (case-insensitive), or every string but those.
    Strings {
        values: BTreeSet<String>,
        any_other: bool,
    },
    Booleans {
        allow_true: bool,
        allow_false: bool,
    },
    /// The attribute may be undefined (absent).
    Undefined,
}

/// One constrained attribute of a rectangle (an element of Exp(R)).
#[derive(Clone, Debug, Serialize)]
pub struct Exported {
    /// As written in the first property naming it.
    pub attribute: String,
    /// Case-folded.
    pub key: String,
    /// The other ad's values every property of the clause on it admits.
    #[serde(skip)]
    pub set: ValueSet,
}

impl Exported {
    /// The mangled dimensions this set occupies, with their pieces. A kind
    /// the set does not admit is absent (a point of that kind is rejected).
    pub fn pieces(&self) -> Vec<(Dim, Piece)> {
        let s = &self.set;
        let dim = |kind| Dim {
            key: self.key.clone(),
            kind,
        };
        let mut out = vec![];
        let nums: Vec<NumInterval> = s
            .numbers
            .iter()
            .filter(|i| !i.is_nan() && !i.is_empty())
            .copied()
            .collect();
        if !nums.is_empty() {
            out.push((dim(Kind::Number), Piece::Numbers(nums)));
        }
        if !s.strings.is_empty() || s.any_other_string {
            let p = Piece::Strings {
                values: s.strings.clone(),
                any_other: s.any_other_string,
            };
            out.push((dim(Kind::String), p));
        }
        if s.allow_true || s.allow_false {
            let p = Piece::Booleans {
                allow_true: s.allow_true,
                allow_false: s.allow_false,
            };
            out.push((dim(Kind::Boolean), p));
        }
        if s.undefined {
            out.push((dim(Kind::Undefined), Piece::Undefined));
        }
        out
    }

    /// `Memory >= 1024`-style text of the set.
    pub fn describe(&self) -> String {
        format!(
            "{} {}",
            self.attribute,
            Constraint::from_set(self.set.clone()).phrase()
        )
    }
}

/// One profile of a constraint (a DNF clause) as a rectangle.
#[derive(Clone, Debug, Serialize)]
pub struct Rectangle {
    /// Exp(R), sorted by key, one entry per constrained attribute.
    pub exp: Vec<Exported>,
    /// Expabsent(R): external references of the constraint this profile
    /// does not constrain (case-folded).
    pub exp_absent: Vec<String>,
    /// Expdeviant(R): the profile had atoms that are not properties (they
    /// were dropped, so the rectangle is wider than the profile).
    pub exp_deviant: bool,
    /// The whole constraint could not be put in DPF (too large, too deep):
    /// this rectangle admits everything.
    pub unindexable: bool,
}

impl Rectangle {
    fn everything(external: &BTreeSet<String>) -> Rectangle {
        Rectangle {
            exp: vec![],
            exp_absent: external.iter().cloned().collect(),
            exp_deviant: true,
            unindexable: true,
        }
    }
    /// Whether an ad with these imported values could satisfy the profile.
    pub fn admits(&self, value_of: &mut dyn FnMut(&str) -> Point) -> bool {
        self.exp.iter().all(|e| value_of(&e.key).within(&e.set))
    }
}

/// A consistency error found in conversion (§4.2.2, §4.4.4): the
/// properties of one profile on one attribute can never all hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ConflictKind {
    /// Same type, empty interval (`other.x < 10 && other.x > 12`).
    Value,
    /// Different types (`other.x == "a" && other.x > 3`).
    Type,
}

#[derive(Clone, Debug, Serialize)]
pub struct Conflict {
    /// The profile's position in the constraint's DPF.
    pub profile: usize,
    pub attribute: String,
    /// The properties, as written (readably).
    pub properties: Vec<String>,
    pub kind: ConflictKind,
}

/// An ad's constraint as rectangles.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Rectangles {
    /// Which attribute held the constraint (`Requirements`, `Constraint`);
    /// `None`: the ad has none, so it never matches and has no rectangle.
    pub constraint: Option<String>,
    /// The constraint specialized against its own ad, unparsed.
    pub specialized: String,
    /// External references of the constraint (case-folded).
    pub external: BTreeSet<String>,
    /// One per satisfiable profile; none when the constraint can never hold.
    pub rectangles: Vec<Rectangle>,
    pub conflicts: Vec<Conflict>,
    /// Why the constraint is indexed as one rectangle admitting everything.
    pub unindexable: Option<String>,
    /// Why the constraint is indexed as one rectangle wider than its
    /// profiles ([`MAX_PROFILES`]); its consistency errors are not looked for.
    pub hull: Option<String>,
}

/// The attribute holding an ad's constraint and its expression.
pub fn constraint_of(ad: &ClassAd) -> Option<(&'static str, &Expr)> {
    DEFAULT_REQUIREMENTS
        .iter()
        .find_map(|n| ad.get(n).map(|e| (*n, e)))
}

/// Convert `ad`'s constraint to rectangles. In HTCondor mode an unscoped
/// name the ad lacks names the other ad's attribute, as in matchmaking.
pub fn rectangles(ad: &Arc<ClassAd>, opts: EvalOptions) -> Rectangles {
    rectangles_scoped(ad, opts, opts.mode == Mode::HTCondor)
}

/// [`rectangles`], saying whether an unscoped name the ad lacks names the
/// other ad (`false`: only `other.`/`TARGET.` do, as in gangmatching's
/// docking environment, where no target ad backs unscoped lookups).
pub fn rectangles_scoped(
    ad: &Arc<ClassAd>,
    opts: EvalOptions,
    unscoped_is_other: bool,
) -> Rectangles {
    let Some((name, req)) = constraint_of(ad) else {
        return Rectangles::default();
    };
    let spec = specialize(
        req,
        &SpecContext {
            my: ad.clone(),
            target: None,
            opts,
        },
    );
    let external = crate::lang::refs::expr_refs(&spec, ad).target_attributes();
    let mut out = Rectangles {
        constraint: Some(name.to_string()),
        specialized: crate::lang::unparse::unparse_readable(&spec),
        external,
        ..Rectangles::default()
    };
    let sides = Sides {
        own: ad,
        unscoped_is_other,
    };
    // Each conjunct alone first: their profiles multiply in the whole DPF.
    let mut parts = vec![];
    conjuncts(&spec, &mut parts);
    if parts.len() > 1 {
        let mut dnfs = Vec::with_capacity(parts.len());
        let mut profiles = 1usize;
        for part in parts {
            match predicate::dnf(part, &sides) {
                Ok(d) => {
                    profiles = profiles.saturating_mul(d.clauses.len().max(1));
                    dnfs.push(d);
                }
                Err(limit) => {
                    out.rectangles.push(Rectangle::everything(&out.external));
                    out.unindexable = Some(limit.reason);
                    return out;
                }
            }
        }
        if profiles > MAX_PROFILES {
            out.hull = Some(format!(
                "{profiles} profiles, past the {MAX_PROFILES} an ad is indexed as: one rectangle of \
                 what every profile admits"
            ));
            out.rectangles.extend(hull(&dnfs, &out.external));
            return out;
        }
    }
    let dnf = match predicate::dnf(&spec, &sides) {
        Ok(d) => d,
        Err(limit) => {
            out.rectangles.push(Rectangle::everything(&out.external));
            out.unindexable = Some(limit.reason);
            return out;
        }
    };
    for (profile, clause) in dnf.clauses.iter().enumerate() {
        if let Some(r) = convert(profile, clause, &out.external, &mut out.conflicts) {
            out.rectangles.push(r);
        }
    }
    out
}

/// Most rectangles one ad's constraint becomes. A constraint whose DPF has
/// more profiles (a glidein's START: seven two-way choices, 128 profiles,
/// on each of thousands of slots) is indexed as its hull instead.
pub const MAX_PROFILES: usize = 16;

/// The top-level conjuncts of `e` (through parentheses).
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Paren(a) => conjuncts(a, out),
        ExprKind::Binary(BinaryOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// One rectangle admitting every ad some profile of the conjunction of
/// `parts` admits (sound, wider than the profiles): a one-profile part's
/// properties as they are; of a part with several profiles, the attributes
/// every one of its live profiles constrains, each admitting the union of
/// its profiles' sets. `None` when a part can never hold.
fn hull(parts: &[predicate::Dnf], external: &BTreeSet<String>) -> Option<Rectangle> {
    let mut none = vec![];
    let mut single: Vec<predicate::Atom> = vec![];
    let mut wider = vec![];
    for d in parts {
        match d.clauses.as_slice() {
            [one] => single.extend(one.iter().cloned()),
            many => {
                let live: Vec<Rectangle> = many
                    .iter()
                    .filter_map(|c| convert(0, c, external, &mut none))
                    .collect();
                let (first, rest) = live.split_first()?;
                let common = first.exp.iter().filter_map(|e| {
                    rest.iter()
                        .map(|r| r.exp.iter().find(|x| x.key == e.key).map(|x| &x.set))
                        .try_fold(e.set.clone(), |acc, s| Some(acc.union(s?)))
                        .map(|set| Exported { set, ..e.clone() })
                });
                wider.extend(common);
            }
        }
    }
    let mut r = convert(0, &single, external, &mut none)?;
    for w in wider {
        match r.exp.iter_mut().find(|e| e.key == w.key) {
            Some(e) => {
                e.set = e.set.intersect(&w.set);
                if e.set.is_empty() {
                    return None;
                }
            }
            None => r.exp.push(w),
        }
    }
    r.exp.sort_by(|a, b| a.key.cmp(&b.key));
    r.exp_absent.retain(|k| !r.exp.iter().any(|e| &e.key == k));
    // Dropped choices widen it.
    r.exp_deviant = true;
    Some(r)
}

/// One profile; `None` when it can never hold (a conflict, or a literal
/// atom that is not true).
fn convert(
    profile: usize,
    clause: &[predicate::Atom],
    external: &BTreeSet<String>,
    conflicts: &mut Vec<Conflict>,
) -> Option<Rectangle> {
    let mut deviant = false;
    let mut by_key: Vec<Props> = vec![];
    for atom in clause {
        if let Some(v) = atom.expr.as_literal() {
            if truth(v) == Truth::True {
                continue;
            }
            return None;
        }
        let Some(p) = &atom.predicate else {
            deviant = true;
            continue;
        };
        let exact = match &p.literal {
            Value::Real(r) => !r.is_nan(),
            Value::Int(i) => i.unsigned_abs() < EXACT_INT,
            _ => true,
        };
        let Some(c) = exact
            .then(|| Constraint::from_predicate(p.normalized_op(), &p.literal))
            .flatten()
        else {
            deviant = true;
            continue;
        };
        let i = match by_key.iter().position(|x| x.key == p.key) {
            Some(i) => i,
            None => {
                by_key.push(Props {
                    key: p.key.clone(),
                    attribute: p.attribute.clone(),
                    sets: vec![],
                });
                by_key.len() - 1
            }
        };
        if let Some(x) = by_key.get_mut(i) {
            x.sets.push((c.to_set(), predicate::display_text(atom)));
        }
    }
    by_key.sort_by(|a, b| a.key.cmp(&b.key));
    let mut exp = Vec::with_capacity(by_key.len());
    let mut dead = false;
    for Props {
        key,
        attribute,
        sets,
    } in by_key
    {
        let set = sets
            .iter()
            .fold(ValueSet::everything(), |acc, (s, _)| acc.intersect(s));
        if set.is_empty() {
            let kinds = sets.iter().fold(KINDS_ALL, |acc, (s, _)| acc & kinds(s));
            let kind = if kinds == 0 {
                ConflictKind::Type
            } else {
                ConflictKind::Value
            };
            let properties = sets.into_iter().map(|(_, t)| t).collect();
            conflicts.push(Conflict {
                profile,
                attribute,
                properties,
                kind,
            });
            dead = true;
            continue;
        }
        exp.push(Exported {
            attribute,
            key,
            set,
        });
    }
    if dead {
        return None;
    }
    let exp_absent = external
        .iter()
        .filter(|k| !exp.iter().any(|e| &e.key == *k))
        .cloned()
        .collect();
    Some(Rectangle {
        exp,
        exp_absent,
        exp_deviant: deviant,
        unindexable: false,
    })
}

/// A profile's properties on one attribute: their sets and texts.
struct Props {
    key: String,
    attribute: String,
    sets: Vec<(ValueSet, String)>,
}

const KINDS_ALL: u8 = 0b11111;

/// The kinds of value a set admits, as bits (numbers, strings, booleans,
/// undefined, others).
fn kinds(s: &ValueSet) -> u8 {
    let num = s.numbers.iter().any(|i| !i.is_empty());
    let str_ = !s.strings.is_empty() || s.any_other_string;
    (num as u8)
        | (str_ as u8) << 1
        | ((s.allow_true || s.allow_false) as u8) << 2
        | (s.undefined as u8) << 3
        | (s.others as u8) << 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_classad;

    fn ad(src: &str) -> Arc<ClassAd> {
        Arc::new(parse_classad(src).expect("parses"))
    }

    fn rects(src: &str) -> Rectangles {
        rectangles(&ad(src), EvalOptions::default())
    }

    fn text(r: &Rectangle) -> Vec<String> {
        r.exp.iter().map(|e| e.describe()).collect()
    }

    #[test]
    fn figure_16_offers_and_requests() {
        let o1 = rects("[ x=10; Constraint=other.y>=7 ]");
        assert_eq!(o1.constraint.as_deref(), Some("Constraint"));
        assert_eq!(o1.rectangles.len(), 1);
        assert_eq!(text(&o1.rectangles[0]), vec!["y >= 7"]);
        assert_eq!(
            own_value(
                &ad("[ x=10; Constraint=other.y>=7 ]"),
                "x",
                EvalOptions::default()
            ),
            Point::Number(10.0)
        );
        let r2 = rects("[ y=3; Constraint=other.x<=15 ]");
        assert_eq!(text(&r2.rectangles[0]), vec!["x <= 15"]);
        assert!(r2.external.contains("x"));
    }

    #[test]
    fn figure_19_object_ad() {
        let r = rects(
            "[ A = 3; B = 6; C = 7; D = 5; \
               Constraint = other.Z<=5 && other.Y<=6 && other.X>=1 && other.W<=7 ]",
        );
        assert_eq!(r.rectangles.len(), 1);
        let rect = &r.rectangles[0];
        assert_eq!(text(rect), vec!["W <= 7", "X >= 1", "Y <= 6", "Z <= 5"]);
        assert!(!rect.exp_deviant && rect.exp_absent.is_empty());
        let a = ad("[ A = 3; B = 6; C = 7; D = 5 ]");
        assert_eq!(
            own_value(&a, "b", EvalOptions::default()),
            Point::Number(6.0)
        );
        assert_eq!(own_value(&a, "Z", EvalOptions::default()), Point::Undefined);
    }

    #[test]
    fn profiles_mangling_and_deviance() {
        let r = rects(
            "[ Requirements = (other.Arch == \"INTEL\" || other.Arch == 5) && other.Memory != 64 \
               && size(other.Name) > 3; Mine = 2 ]",
        );
        assert_eq!(r.rectangles.len(), 2);
        let dims: Vec<String> = r
            .rectangles
            .iter()
            .flat_map(|r| r.exp.iter().flat_map(|e| e.pieces()))
            .map(|(d, _)| d.to_string())
            .collect();
        assert!(
            dims.contains(&"arch:string".to_string()) && dims.contains(&"arch:number".to_string()),
            "{dims:?}"
        );
        assert!(r.rectangles.iter().all(|r| r.exp_deviant));
        // `!=` is two intervals in one dimension.
        let mem = r.rectangles[0]
            .exp
            .iter()
            .find(|e| e.key == "memory")
            .expect("memory");
        assert!(matches!(&mem.pieces()[0].1, Piece::Numbers(v) if v.len() == 2));
        assert!(r.rectangles[0].exp_absent.contains(&"name".to_string()));
    }

    #[test]
    fn consistency_errors_are_conflicts() {
        let r = rects(
            "[ Requirements = other.x < 10 && other.x > 12 || other.y == \"a\" && other.y > 3 ]",
        );
        assert!(r.rectangles.is_empty());
        let kinds: Vec<ConflictKind> = r.conflicts.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, vec![ConflictKind::Value, ConflictKind::Type]);
        assert_eq!(r.conflicts[0].properties, vec!["x < 10", "x > 12"]);
    }

    #[test]
    fn own_attributes_specialize_and_too_large_is_unindexable() {
        let r =
            rects("[ Min = 2 * 512; Requirements = other.Memory >= Min && MY.Flag; Flag = true ]");
        assert_eq!(text(&r.rectangles[0]), vec!["Memory >= 1024"]);
        assert!(!r.rectangles[0].exp_deviant);
        let r = rects("[ Requirements = false && other.x > 1 ]");
        assert!(r.rectangles.is_empty());
        let big: Vec<String> = (0..20)
            .map(|i| format!("(other.a{i} == 1 || other.b{i} == 2)"))
            .collect();
        // 2^20 profiles: the hull, which here keeps nothing (no attribute
        // is in both profiles of any conjunct).
        let r = rects(&format!("[ Requirements = {} ]", big.join(" && ")));
        assert!(r.hull.is_some() && r.unindexable.is_none());
        assert_eq!(r.rectangles.len(), 1);
        assert!(r.rectangles[0].exp.is_empty() && r.rectangles[0].exp_deviant);
        // One conjunct too large for DPF on its own: everything.
        let wide: Vec<String> = (0..20)
            .map(|i| format!("(other.a{i} == 1 && other.b{i} == 2)"))
            .collect();
        let inner = (0..20)
            .map(|i| format!("(other.c{i} == 1 || other.d{i} == 2)"))
            .collect::<Vec<_>>()
            .join(" && ");
        let r = rects(&format!(
            "[ Requirements = other.x > 1 && !({} && {inner}) ]",
            wide.join(" || ")
        ));
        assert!(r.unindexable.is_some(), "{:?}", r.hull);
        assert!(r.rectangles[0].exp.is_empty() && r.rectangles[0].unindexable);
        assert!(rects("[ x = 1 ]").rectangles.is_empty());
        let a = ad(
            "[ a = other.b; c = real(\"NaN\"); d = error; e = undefined || true; f = undefined ]",
        );
        for (n, p) in [
            ("a", Point::Deviant),
            ("c", Point::Deviant),
            ("d", Point::Deviant),
            ("e", Point::Bool(true)),
        ] {
            assert_eq!(own_value(&a, n, EvalOptions::default()), p, "{n}");
        }
        assert_eq!(own_value(&a, "f", EvalOptions::default()), Point::Undefined);
    }

    /// A glidein's START: seven two-way choices (128 profiles) on top of
    /// plain comparisons with the slot's own values.
    const GLIDEIN: &str = r#"[ Cpus = 8; Memory = 16384; GLIDEIN_Site = "UCSD"; GPUs = 0;
        START = (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)
          && (isUndefined(TARGET.RequestGPUs) || TARGET.RequestGPUs <= MY.GPUs)
          && (TARGET.ProjectName isnt undefined || TARGET.Owner isnt undefined)
          && ((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites, ","))
          && ((TARGET.UNDESIRED_Sites is undefined) || !stringListMember(MY.GLIDEIN_Site, TARGET.UNDESIRED_Sites, ","))
          && (TARGET.JobUniverse == 5 || TARGET.JobUniverse == 7)
          && ((TARGET.WantGPUs =?= true && MY.GPUs > 0) || TARGET.WantGPUs =!= true)
          && (MY.CVMFS_REVISION >= TARGET.MinCvmfsRevision || TARGET.MinCvmfsRevision is undefined);
        CVMFS_REVISION = 25000;
        Requirements = START ]"#;

    #[test]
    fn many_profiles_are_indexed_as_their_hull() {
        let r = rects(GLIDEIN);
        let hull = r.hull.as_deref().expect("past the bound");
        assert!(hull.starts_with("128 profiles, past the 16"), "{hull}");
        assert_eq!(r.rectangles.len(), 1);
        let rect = &r.rectangles[0];
        assert!(rect.exp_deviant);
        assert_eq!(
            text(rect),
            vec![
                "JobUniverse == 5 or == 7",
                "MinCvmfsRevision is <= 25000 or any boolean or undefined",
                "RequestCpus <= 8",
                "RequestMemory <= 16384",
                "WantGPUs is anything except true"
            ]
        );
        // Sound: every ad the START accepts is inside the hull.
        let job = ad(r#"[ RequestCpus = 2; RequestMemory = 2048; JobUniverse = 7; Owner = "a" ]"#);
        let slot = ad(GLIDEIN);
        let mut ev = crate::lang::eval::Evaluator::new(EvalOptions::default());
        assert!(crate::matchmaking::matching::symmetric_match(&mut ev, &slot, &job).left_accepts);
        assert!(rect.admits(&mut |k| own_value(&job, k, EvalOptions::default())));
        let big = ad(r#"[ RequestCpus = 16; RequestMemory = 2048; JobUniverse = 5 ]"#);
        assert!(!rect.admits(&mut |k| own_value(&big, k, EvalOptions::default())));
        // A few profiles are still the profiles themselves.
        let r = rects(
            "[ Requirements = (other.a == 1 || other.b == 2) && (other.c == 3 || other.d == 4) ]",
        );
        assert!(r.hull.is_none());
        assert_eq!(r.rectangles.len(), 4);
        // A part whose every profile is dead: nothing.
        let dead: Vec<String> = (0..5)
            .map(|i| format!("(other.x{i} == 1 || other.y{i} == 2)"))
            .collect();
        let r = rects(&format!(
            "[ Requirements = {} && (other.z < 1 && other.z > 2 || other.w < 1 && other.w > 2) ]",
            dead.join(" && ")
        ));
        assert!(r.hull.is_some() && r.rectangles.is_empty());
    }

    #[test]
    fn logic_folds_as_the_evaluator_does() {
        // `undefined || true` is true (specialize alone makes it undefined).
        let r = rects("[ b = 0; Requirements = (undefined) || (0 <= b) ]");
        assert_eq!(r.specialized, "true");
        assert_eq!(r.rectangles.len(), 1);
        assert!(r.rectangles[0].exp.is_empty());
        let r = rects("[ u = undefined; Requirements = !(u && false) && other.x > 1 ]");
        assert_eq!(text(&r.rectangles[0]), vec!["x > 1"]);
        // Inside an atom it is left as written.
        let r = rects("[ Requirements = ((MY.u || true) == other.x) && other.y == 2 ]");
        assert_eq!(text(&r.rectangles[0]), vec!["y == 2"]);
        assert!(r.rectangles[0].exp_deviant);
    }
}
