//! The values of one attribute that make predicates `attr OP literal` true
//! (seed 000 §3.1.2, §3.2): points, intervals and rays for numbers, listed
//! strings and *AnyOtherString* for strings, the booleans, undefined.
//!
//! Every set is exact for ClassAd's operators (the tests check `contains`
//! against `eval::ops::binary`): `==`, `<`, … compare integers, reals and
//! booleans (as 0/1) by value and strings without (ASCII) case; `=?=` and
//! `=!=` are type-exact. A predicate holds only when its value is `true`, so
//! `x != 5` does not hold for a string or an undefined `x`, while
//! `x =!= true` holds for everything but `true`, undefined included.

use std::collections::{BTreeMap, BTreeSet};

use crate::lang::ast::BinaryOp;
use crate::lang::value::Value;

/// Integer literals at or beyond 2^53 are not represented: bounds are f64,
/// exact for integers only below that.
const EXACT_INT: u64 = 1 << 53;
/// Candidate groups `always_conflicts` looks at before it stops.
const MAX_TRIES: usize = 20_000;
/// Strings or intervals listed by `describe` before "… (n more)".
const LISTED: usize = 12;

/// An interval of the extended real line. Bounds may be ±infinity; a closed
/// infinite bound includes that value (`x < 5` holds for `-inf`, so it is
/// `[-inf, 5)`). The NaN piece ([`NumInterval::NAN`], any NaN bound) stands
/// for reals that are not a number: of the comparisons only `!=` admits them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumInterval {
    pub lo: f64,
    pub lo_closed: bool,
    pub hi: f64,
    pub hi_closed: bool,
}

impl NumInterval {
    pub const NAN: NumInterval = NumInterval {
        lo: f64::NAN,
        lo_closed: true,
        hi: f64::NAN,
        hi_closed: true,
    };
    pub const ALL: NumInterval = NumInterval {
        lo: f64::NEG_INFINITY,
        lo_closed: true,
        hi: f64::INFINITY,
        hi_closed: true,
    };

    pub fn point(x: f64) -> NumInterval {
        NumInterval {
            lo: x,
            lo_closed: true,
            hi: x,
            hi_closed: true,
        }
    }
    pub fn is_nan(&self) -> bool {
        self.lo.is_nan() || self.hi.is_nan()
    }
    pub fn is_point(&self) -> bool {
        !self.is_nan() && self.lo == self.hi && self.lo_closed && self.hi_closed
    }
    pub fn is_empty(&self) -> bool {
        !self.is_nan()
            && (self.lo > self.hi || (self.lo == self.hi && !(self.lo_closed && self.hi_closed)))
    }
    pub fn contains(&self, x: f64) -> bool {
        if x.is_nan() || self.is_nan() {
            return x.is_nan() && self.is_nan();
        }
        (x > self.lo || (x == self.lo && self.lo_closed))
            && (x < self.hi || (x == self.hi && self.hi_closed))
    }
    /// How far `x` is from the interval (0 inside; infinite for NaN).
    pub fn distance(&self, x: f64) -> f64 {
        match () {
            _ if self.contains(x) => 0.0,
            _ if x.is_nan() || self.is_nan() => f64::INFINITY,
            _ if x <= self.lo => self.lo - x,
            _ => x - self.hi,
        }
    }
}

/// Sorted, disjoint, non-touching intervals, the NaN piece (if any) last;
/// `-0.0` becomes `0.0` (they compare equal).
pub fn normalize(mut v: Vec<NumInterval>) -> Vec<NumInterval> {
    let nan = v.iter().any(|i| i.is_nan());
    v.retain(|i| !i.is_nan() && !i.is_empty());
    v.iter_mut()
        .for_each(|i| (i.lo, i.hi) = (i.lo + 0.0, i.hi + 0.0));
    v.sort_by(|a, b| a.lo.total_cmp(&b.lo).then(b.lo_closed.cmp(&a.lo_closed)));
    let mut out: Vec<NumInterval> = Vec::with_capacity(v.len() + 1);
    for i in v {
        match out.last_mut() {
            Some(last)
                if i.lo < last.hi || (i.lo == last.hi && (last.hi_closed || i.lo_closed)) =>
            {
                if i.hi > last.hi {
                    (last.hi, last.hi_closed) = (i.hi, i.hi_closed);
                } else if i.hi == last.hi {
                    last.hi_closed |= i.hi_closed;
                }
            }
            _ => out.push(i),
        }
    }
    out.extend(nan.then_some(NumInterval::NAN));
    out
}

fn num_contains(v: &[NumInterval], x: f64) -> bool {
    v.iter().any(|i| i.contains(x))
}

/// Both lists normalized: a sweep, linear in their lengths.
fn num_intersect(a: &[NumInterval], b: &[NumInterval]) -> Vec<NumInterval> {
    let nan = a.iter().any(|i| i.is_nan()) && b.iter().any(|i| i.is_nan());
    let a: Vec<&NumInterval> = a.iter().filter(|i| !i.is_nan()).collect();
    let b: Vec<&NumInterval> = b.iter().filter(|i| !i.is_nan()).collect();
    let (mut i, mut j, mut out) = (0, 0, vec![]);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        let (lo, lo_closed) = match () {
            _ if x.lo == y.lo => (x.lo, x.lo_closed && y.lo_closed),
            _ if x.lo > y.lo => (x.lo, x.lo_closed),
            _ => (y.lo, y.lo_closed),
        };
        let x_first = x.hi < y.hi || (x.hi == y.hi && !x.hi_closed);
        let (hi, hi_closed) = if x_first {
            (x.hi, x.hi_closed)
        } else {
            (y.hi, y.hi_closed)
        };
        out.push(NumInterval {
            lo,
            lo_closed,
            hi,
            hi_closed,
        });
        if x_first {
            i += 1;
        } else {
            j += 1;
        }
    }
    out.extend(nan.then_some(NumInterval::NAN));
    normalize(out)
}

/// The complement within the extended line plus NaN (input normalized).
fn num_complement(a: &[NumInterval]) -> Vec<NumInterval> {
    let (mut out, mut lo, mut lo_closed) = (vec![], f64::NEG_INFINITY, true);
    for i in a.iter().filter(|i| !i.is_nan()) {
        out.push(NumInterval {
            lo,
            lo_closed,
            hi: i.lo,
            hi_closed: !i.lo_closed,
        });
        (lo, lo_closed) = (i.hi, !i.hi_closed);
    }
    out.push(NumInterval {
        lo,
        lo_closed,
        hi: f64::INFINITY,
        hi_closed: true,
    });
    out.extend((!a.iter().any(|i| i.is_nan())).then_some(NumInterval::NAN));
    normalize(out)
}

/// `==` folds ASCII letters only, as libclassad's strcasecmp.
pub fn fold(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// Listed strings of `a`, one spelling per case-insensitive class, keeping
/// those whose class is (`keep_in`) or is not in `b`.
fn str_filter(a: &BTreeSet<String>, b: &BTreeSet<String>, keep_in: bool) -> BTreeSet<String> {
    let b: BTreeSet<String> = b.iter().map(|s| fold(s)).collect();
    let mut seen: BTreeMap<String, &String> = BTreeMap::new();
    for s in a {
        seen.entry(fold(s)).or_insert(s);
    }
    seen.into_iter()
        .filter(|(k, _)| b.contains(k) == keep_in)
        .map(|(_, s)| s.clone())
        .collect()
}

/// Any set of values the predicates can describe, kind by kind. Booleans
/// are kept apart from `numbers` here (`=?=` tells them apart); strings are
/// as in [`Constraint::Strings`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ValueSet {
    pub undefined: bool,
    pub allow_true: bool,
    pub allow_false: bool,
    /// Integers and reals, by value.
    pub numbers: Vec<NumInterval>,
    pub strings: BTreeSet<String>,
    /// Every string outside the classes of `strings` (they are then the excluded ones).
    pub any_other_string: bool,
    /// Error, absolute and relative times, lists and records.
    pub others: bool,
}

impl ValueSet {
    pub fn everything() -> ValueSet {
        ValueSet::default().complement()
    }
    /// Numbers with the booleans `==` puts among them (true is 1, false 0).
    pub fn numbers(numbers: Vec<NumInterval>) -> ValueSet {
        let numbers = normalize(numbers);
        let (allow_true, allow_false) = (num_contains(&numbers, 1.0), num_contains(&numbers, 0.0));
        ValueSet {
            allow_true,
            allow_false,
            numbers,
            ..ValueSet::default()
        }
    }
    pub fn is_empty(&self) -> bool {
        !(self.undefined
            || self.allow_true
            || self.allow_false
            || self.others
            || self.any_other_string)
            && self.strings.is_empty()
            && self.numbers.iter().all(|i| i.is_empty())
    }
    pub fn contains(&self, v: &Value) -> bool {
        match v {
            Value::Undefined => self.undefined,
            Value::Bool(b) => (*b && self.allow_true) || (!*b && self.allow_false),
            Value::Int(i) => num_contains(&self.numbers, *i as f64),
            Value::Real(r) => num_contains(&self.numbers, *r),
            Value::Str(s) => {
                self.any_other_string != self.strings.iter().any(|x| x.eq_ignore_ascii_case(s))
            }
            _ => self.others,
        }
    }
    pub fn complement(&self) -> ValueSet {
        ValueSet {
            undefined: !self.undefined,
            allow_true: !self.allow_true,
            allow_false: !self.allow_false,
            numbers: num_complement(&normalize(self.numbers.clone())),
            strings: str_filter(&self.strings, &BTreeSet::new(), false),
            any_other_string: !self.any_other_string,
            others: !self.others,
        }
    }
    pub fn intersect(&self, o: &ValueSet) -> ValueSet {
        let (a, b) = (&self.strings, &o.strings);
        let (strings, any_other_string) = match (self.any_other_string, o.any_other_string) {
            (false, false) => (str_filter(a, b, true), false),
            (false, true) => (str_filter(a, b, false), false),
            (true, false) => (str_filter(b, a, false), false),
            (true, true) => (
                str_filter(&a.union(b).cloned().collect(), &BTreeSet::new(), false),
                true,
            ),
        };
        ValueSet {
            undefined: self.undefined && o.undefined,
            allow_true: self.allow_true && o.allow_true,
            allow_false: self.allow_false && o.allow_false,
            numbers: num_intersect(
                &normalize(self.numbers.clone()),
                &normalize(o.numbers.clone()),
            ),
            strings,
            any_other_string,
            others: self.others && o.others,
        }
    }
    pub fn union(&self, o: &ValueSet) -> ValueSet {
        self.complement().intersect(&o.complement()).complement()
    }
}

/// The values of ONE attribute that make all the predicates so far true.
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    /// Integers, reals and booleans (as 0/1, as `==` and `<` compare them)
    /// whose value lies in the union; see [`normalize`].
    Numbers(Vec<NumInterval>),
    /// Strings under `==`/`!=`, which ignore case: membership is by class,
    /// and `values` keep the first spelling seen (so `"INTEL"` describes and
    /// is suggested as written). `any_other`: *AnyOtherString*, every string
    /// except those listed. `=?=` on strings is case-exact and so is not
    /// represented (`from_predicate` gives `None`).
    Strings {
        values: BTreeSet<String>,
        any_other: bool,
    },
    /// The booleans themselves (`=?= true`), not 1 or 1.0.
    Bools {
        allow_true: bool,
        allow_false: bool,
    },
    /// Only undefined (`=?= undefined`, an attribute the job lacks).
    Undefined,
    /// Values of several kinds: what `=!=` leaves (`x =!= undefined`), unions.
    Mixed(Box<ValueSet>),
    Empty,
}

impl Constraint {
    /// `None` when the predicate cannot be represented exactly: `<` on
    /// strings, `=?=`/`=!=` on numbers or strings, error, list, record or
    /// time literals, integers beyond 2^53. A comparison that is never true
    /// (`x == undefined`, `x < NaN`) is `Empty`.
    pub fn from_predicate(op: BinaryOp, lit: &Value) -> Option<Constraint> {
        use BinaryOp::*;
        let set = match (op, lit) {
            (Eq | Ne | Lt | Le | Gt | Ge, Value::Undefined | Value::Error) => ValueSet::default(),
            (Eq | Ne | Lt | Le | Gt | Ge, Value::Bool(b)) => {
                numeric(op, if *b { 1.0 } else { 0.0 })
            }
            (Eq | Ne | Lt | Le | Gt | Ge, Value::Int(i)) if i.unsigned_abs() < EXACT_INT => {
                numeric(op, *i as f64)
            }
            (Eq | Ne | Lt | Le | Gt | Ge, Value::Real(r)) => numeric(op, *r),
            (Eq | Ne, Value::Str(s)) => ValueSet {
                strings: [s.to_string()].into(),
                any_other_string: op == Ne,
                ..ValueSet::default()
            },
            (MetaEq | Is | MetaNe | Isnt, Value::Undefined | Value::Bool(_)) => {
                let one = match lit {
                    Value::Bool(b) => ValueSet {
                        allow_true: *b,
                        allow_false: !*b,
                        ..ValueSet::default()
                    },
                    _ => ValueSet {
                        undefined: true,
                        ..ValueSet::default()
                    },
                };
                if matches!(op, MetaNe | Isnt) {
                    one.complement()
                } else {
                    one
                }
            }
            _ => return None,
        };
        Some(Constraint::from_set(set))
    }

    pub fn everything() -> Constraint {
        Constraint::Mixed(Box::new(ValueSet::everything()))
    }

    /// The same set, kind by kind.
    pub fn to_set(&self) -> ValueSet {
        let none = ValueSet::default();
        match self {
            Constraint::Numbers(v) => ValueSet::numbers(v.clone()),
            Constraint::Strings { values, any_other } => ValueSet {
                strings: values.clone(),
                any_other_string: *any_other,
                ..none
            },
            Constraint::Bools {
                allow_true,
                allow_false,
            } => ValueSet {
                allow_true: *allow_true,
                allow_false: *allow_false,
                ..none
            },
            Constraint::Undefined => ValueSet {
                undefined: true,
                ..none
            },
            Constraint::Mixed(s) => (**s).clone(),
            Constraint::Empty => none,
        }
    }

    /// The simplest variant for a set (normalized).
    pub fn from_set(mut s: ValueSet) -> Constraint {
        s.numbers = normalize(std::mem::take(&mut s.numbers));
        s.strings = str_filter(&s.strings, &BTreeSet::new(), false);
        let strs = !s.strings.is_empty() || s.any_other_string;
        let bools = s.allow_true || s.allow_false;
        let (one, zero) = (num_contains(&s.numbers, 1.0), num_contains(&s.numbers, 0.0));
        let as_numbers = s.allow_true == one && s.allow_false == zero;
        match (s.undefined, bools, !s.numbers.is_empty(), strs, s.others) {
            (false, false, false, false, false) => Constraint::Empty,
            (true, false, false, false, false) => Constraint::Undefined,
            (false, true, false, false, false) => Constraint::Bools {
                allow_true: s.allow_true,
                allow_false: s.allow_false,
            },
            (false, false, false, true, false) => Constraint::Strings {
                any_other: s.any_other_string,
                values: s.strings,
            },
            (false, _, true, false, false) if as_numbers => Constraint::Numbers(s.numbers),
            _ => Constraint::Mixed(Box::new(s)),
        }
    }

    /// Types that disagree give `Empty`.
    pub fn intersect(&self, other: &Constraint) -> Constraint {
        Constraint::from_set(self.to_set().intersect(&other.to_set()))
    }
    pub fn union(&self, other: &Constraint) -> Constraint {
        Constraint::from_set(self.to_set().union(&other.to_set()))
    }
    pub fn complement(&self) -> Constraint {
        Constraint::from_set(self.to_set().complement())
    }
    pub fn is_empty(&self) -> bool {
        self.to_set().is_empty()
    }
    /// Every value (an attribute nothing constrains).
    pub fn is_everything(&self) -> bool {
        self.to_set().complement().is_empty()
    }
    /// Whether `v` makes every predicate behind this constraint true.
    pub fn contains(&self, v: &Value) -> bool {
        match (self, v) {
            (Constraint::Numbers(n), Value::Int(_) | Value::Real(_)) => {
                num_contains(n, v.as_number().unwrap_or(f64::NAN))
            }
            (Constraint::Numbers(n), Value::Bool(b)) => num_contains(n, if *b { 1.0 } else { 0.0 }),
            (Constraint::Numbers(_) | Constraint::Empty, _) => false,
            _ => self.to_set().contains(v),
        }
    }

    /// Human text: `[512, 1024)`, `>= 1024`, `"INTEL"`,
    /// `any string except "ncoleman", "raman"`, `true`, `anything except undefined`.
    pub fn describe(&self) -> String {
        text(self, false)
    }
    /// The same, to follow an attribute name: `in [512, 1024)`, `>= 1024`,
    /// `== "INTEL"`, `is any string except "raman"`, `is true`.
    pub fn phrase(&self) -> String {
        text(self, true)
    }
}

/// `x OP n` for `==`, `!=`, `<`, …: integers, reals and booleans by value.
/// NaN: every ordered comparison is false, `!=` true.
fn numeric(op: BinaryOp, x: f64) -> ValueSet {
    use BinaryOp::*;
    let (lo, hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let iv = |lo, lo_closed, hi, hi_closed| {
        vec![NumInterval {
            lo,
            lo_closed,
            hi,
            hi_closed,
        }]
    };
    ValueSet::numbers(match op {
        Ne if x.is_nan() => num_complement(&[]),
        _ if x.is_nan() => vec![],
        Eq => vec![NumInterval::point(x)],
        Ne => num_complement(&[NumInterval::point(x)]),
        Lt => iv(lo, true, x, false),
        Le => iv(lo, true, x, true),
        Gt => iv(x, false, hi, true),
        _ => iv(x, true, hi, true),
    })
}

/// A number as the reader wrote it: `512`, `0.5`, `inf`.
pub fn num_text(x: f64) -> String {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn list(values: &BTreeSet<String>, sep: &str) -> String {
    let quote = |s: &String| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut v: Vec<String> = values.iter().take(LISTED).map(quote).collect();
    v.extend((values.len() > LISTED).then(|| format!("… ({} more)", values.len() - LISTED)));
    v.join(sep)
}

fn interval_text(i: &NumInterval, phrase: bool) -> String {
    let (lo, hi, p) = (num_text(i.lo), num_text(i.hi), |s: &str| {
        if phrase {
            s.to_string()
        } else {
            String::new()
        }
    });
    let (lo_op, hi_op) = (
        if i.lo_closed { ">=" } else { ">" },
        if i.hi_closed { "<=" } else { "<" },
    );
    match () {
        _ if i.is_nan() => format!("{}NaN", p("is ")),
        _ if i.is_point() => format!("{}{lo}", p("== ")),
        _ if i.lo == f64::NEG_INFINITY && i.hi == f64::INFINITY => {
            format!("{}any number", p("is "))
        }
        _ if i.lo == f64::NEG_INFINITY => format!("{hi_op} {hi}"),
        _ if i.hi == f64::INFINITY => format!("{lo_op} {lo}"),
        _ => {
            let (open, close) = (
                if i.lo_closed { '[' } else { '(' },
                if i.hi_closed { ']' } else { ')' },
            );
            format!("{}{open}{lo}, {hi}{close}", p("in "))
        }
    }
}

/// Intervals joined by "or", or "any number except …" when only points are missing.
fn numbers_text(v: &[NumInterval], phrase: bool) -> String {
    let is = if phrase { "is " } else { "" };
    let gaps: Vec<NumInterval> = num_complement(v)
        .into_iter()
        .filter(|i| !i.is_nan())
        .collect();
    if v.iter().any(|i| !i.is_nan()) && gaps.len() <= LISTED && gaps.iter().all(|g| g.is_point()) {
        let pts: Vec<String> = gaps.iter().map(|g| num_text(g.lo)).collect();
        return match (pts.len(), phrase) {
            (0, _) => format!("{is}any number"),
            (1, true) => format!("!= {}", pts.join("")),
            _ => format!("{is}any number except {}", pts.join(", ")),
        };
    }
    let mut parts: Vec<String> = v
        .iter()
        .take(LISTED)
        .map(|i| interval_text(i, phrase))
        .collect();
    parts.extend((v.len() > LISTED).then(|| format!("… ({} more)", v.len() - LISTED)));
    parts.join(" or ")
}

fn text(c: &Constraint, phrase: bool) -> String {
    let is = if phrase { "is " } else { "" };
    match Constraint::from_set(c.to_set()) {
        Constraint::Numbers(v) => numbers_text(&v, phrase),
        Constraint::Strings {
            values,
            any_other: false,
        } if values.len() == 1 => {
            format!("{}{}", if phrase { "== " } else { "" }, list(&values, ""))
        }
        Constraint::Strings {
            values,
            any_other: false,
        } => format!("{is}{}", list(&values, " or ")),
        Constraint::Strings { values, .. } if values.is_empty() => format!("{is}any string"),
        Constraint::Strings { values, .. } => {
            format!("{is}any string except {}", list(&values, ", "))
        }
        Constraint::Bools {
            allow_true: true,
            allow_false: true,
        } => format!("{is}any boolean"),
        Constraint::Bools { allow_true, .. } => format!("{is}{allow_true}"),
        Constraint::Undefined => format!("{is}undefined"),
        Constraint::Empty => format!("{is}nothing"),
        Constraint::Mixed(s) => match Constraint::from_set(s.complement()) {
            Constraint::Empty => format!("{is}any value"),
            Constraint::Mixed(_) => {
                let strs = Constraint::Strings {
                    values: s.strings.clone(),
                    any_other: s.any_other_string,
                };
                let bools = Constraint::Bools {
                    allow_true: s.allow_true,
                    allow_false: s.allow_false,
                };
                let parts = [
                    (!s.numbers.is_empty()).then(|| numbers_text(&s.numbers, false)),
                    (!s.strings.is_empty() || s.any_other_string).then(|| strs.describe()),
                    (s.allow_true || s.allow_false).then(|| bools.describe()),
                    s.undefined.then(|| "undefined".to_string()),
                    s.others
                        .then(|| "an error, time, list or record".to_string()),
                ];
                format!(
                    "{is}{}",
                    parts.into_iter().flatten().collect::<Vec<_>>().join(" or ")
                )
            }
            comp => format!("{is}anything except {}", comp.describe()),
        },
    }
}

/// Predicates of one clause on the same attribute that can never all hold
/// (the paper's conflict without a pool: `Arch == "ALPHA" && Arch == "INTEL"`,
/// `Memory < 10 && Memory > 12`). Input: (predicate index, op, literal) for
/// the predicates of ONE attribute in one clause; unrepresentable ones are
/// ignored. Output: the minimal conflicting groups, each as sorted predicate
/// indices: a predicate that can never hold alone (`x == undefined`), then
/// pairs, then larger groups that are empty while none of their smaller
/// groups is (`x != 5 && x >= 5 && x <= 5`). Stops after 20,000 candidate groups.
pub fn always_conflicts(preds: &[(usize, BinaryOp, Value)]) -> Vec<Vec<usize>> {
    let cs: Vec<(usize, ValueSet)> = preds
        .iter()
        .filter_map(|(i, op, lit)| Some((*i, Constraint::from_predicate(*op, lit)?.to_set())))
        .collect();
    let (mut out, mut found, mut live, mut tries) = (vec![], vec![], vec![], 0usize);
    for (k, (i, c)) in cs.iter().enumerate() {
        if c.is_empty() {
            out.push(vec![*i]);
        } else {
            live.push(k);
        }
    }
    let n = live.len();
    for size in 2..=n {
        // Combinations of `size` positions of `live`, in lexicographic order.
        let mut idx: Vec<usize> = (0..size).collect();
        loop {
            tries += 1;
            if tries > MAX_TRIES {
                return out;
            }
            let combo: Vec<usize> = idx.iter().filter_map(|&p| live.get(p).copied()).collect();
            let minimal = !found
                .iter()
                .any(|f: &Vec<usize>| f.iter().all(|x| combo.contains(x)));
            let sets = || combo.iter().filter_map(|&k| cs.get(k));
            if minimal
                && sets()
                    .fold(ValueSet::everything(), |acc, (_, c)| acc.intersect(c))
                    .is_empty()
            {
                let mut g: Vec<usize> = sets().map(|c| c.0).collect();
                g.sort_unstable();
                g.dedup();
                out.push(g);
                found.push(combo.clone());
            }
            let Some(p) = (0..size)
                .rev()
                .find(|&p| idx.get(p).is_some_and(|&x| x < n - size + p))
            else {
                break;
            };
            let start = idx.get(p).map_or(0, |x| x + 1);
            for (q, slot) in idx.iter_mut().enumerate().skip(p) {
                *slot = start + (q - p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::eval::ops::{binary, truth, Truth};
    use BinaryOp::*;

    const OPS: [BinaryOp; 10] = [Eq, Ne, MetaEq, MetaNe, Is, Isnt, Lt, Le, Gt, Ge];

    fn values() -> Vec<Value> {
        let ints = [
            -3,
            -1,
            0,
            1,
            2,
            5,
            9,
            10,
            12,
            (1 << 53) + 1,
            i64::MAX,
            i64::MIN,
        ];
        let mut v: Vec<Value> = ints.map(Value::Int).into();
        let reals = [
            -0.0,
            0.5,
            1.0,
            4.999,
            5.0,
            5.5,
            10.0,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        v.extend(reals.map(Value::Real));
        v.extend([true, false].map(Value::Bool));
        v.extend(["INTEL", "intel", "Intel ", "alpha", "", "raman", "other"].map(Value::from));
        let time = Value::AbsTime(crate::lang::value::AbsTime { secs: 5, offset: 0 });
        v.extend([
            Value::Undefined,
            Value::Error,
            Value::RelTime(5.0),
            time,
            Value::list_of(vec![Value::Int(5)]),
        ]);
        v
    }

    fn literals() -> Vec<Value> {
        let mut v: Vec<Value> = [-1, 0, 1, 5, 10, 1 << 53].map(Value::Int).into();
        v.extend([5.0, 0.5, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN].map(Value::Real));
        v.extend([true, false].map(Value::Bool));
        v.extend(["INTEL", "intel", "raman"].map(Value::from));
        v.extend([Value::Undefined, Value::Error, Value::list_of(vec![])]);
        v
    }

    fn holds(op: BinaryOp, v: &Value, lit: &Value) -> bool {
        truth(&binary(op, v, lit)) == Truth::True
    }

    fn c(op: BinaryOp, lit: impl Into<Value>) -> Constraint {
        Constraint::from_predicate(op, &lit.into()).expect("representable")
    }

    #[test]
    fn contains_agrees_with_the_evaluator() {
        let (vals, mut preds) = (values(), vec![]);
        for op in OPS {
            for lit in literals() {
                if let Some(k) = Constraint::from_predicate(op, &lit) {
                    for v in &vals {
                        assert_eq!(
                            k.contains(v),
                            holds(op, v, &lit),
                            "{v:?} {op:?} {lit:?} as {k:?}"
                        );
                        assert_eq!(
                            k.complement().contains(v),
                            !holds(op, v, &lit),
                            "not {v:?} {op:?} {lit:?}"
                        );
                    }
                    preds.push((op, lit, k));
                }
            }
        }
        assert!(preds.len() > 80, "{}", preds.len());
        for (o1, l1, k1) in &preds {
            for (o2, l2, k2) in &preds {
                let (both, either) = (k1.intersect(k2), k1.union(k2));
                for v in &vals {
                    let (a, b) = (holds(*o1, v, l1), holds(*o2, v, l2));
                    assert_eq!(
                        both.contains(v),
                        a && b,
                        "{v:?}: {o1:?} {l1:?} && {o2:?} {l2:?} = {both:?}"
                    );
                    assert_eq!(
                        either.contains(v),
                        a || b,
                        "{v:?}: {o1:?} {l1:?} || {o2:?} {l2:?}"
                    );
                }
                if both.is_empty() {
                    assert!(vals.iter().all(|v| !both.contains(v)));
                }
            }
        }
    }

    #[test]
    fn what_is_not_represented() {
        assert!(Constraint::from_predicate(Lt, &Value::from("a")).is_none());
        assert!(Constraint::from_predicate(MetaEq, &Value::from("a")).is_none());
        assert!(Constraint::from_predicate(Is, &Value::Int(5)).is_none());
        assert!(Constraint::from_predicate(Eq, &Value::Int(1 << 53)).is_none());
        assert!(Constraint::from_predicate(BinaryOp::Add, &Value::Int(1)).is_none());
        assert_eq!(c(Eq, Value::Undefined), Constraint::Empty);
    }

    #[test]
    fn conflicts_without_a_pool() {
        let p = |v: Vec<(usize, BinaryOp, Value)>| always_conflicts(&v);
        assert_eq!(
            p(vec![(0, Eq, "ALPHA".into()), (1, Eq, "INTEL".into())]),
            vec![vec![0, 1]]
        );
        assert!(p(vec![(0, Eq, "intel".into()), (1, Eq, "INTEL".into())]).is_empty());
        assert!(p(vec![(0, Eq, Value::Int(5)), (1, Eq, Value::Real(5.0))]).is_empty());
        assert_eq!(
            p(vec![(3, Lt, Value::Int(10)), (7, Gt, Value::Int(12))]),
            vec![vec![3, 7]]
        );
        // Minimal groups only: the pair, not the triple containing it.
        let v = vec![
            (0, Lt, Value::Int(10)),
            (1, Gt, Value::Int(12)),
            (2, Ne, Value::Int(11)),
        ];
        assert_eq!(p(v), vec![vec![0, 1]]);
        // Empty as a triple while every pair meets.
        let v = vec![
            (4, Ne, Value::Int(5)),
            (2, Ge, Value::Int(5)),
            (9, Le, Value::Int(5)),
        ];
        assert_eq!(p(v), vec![vec![2, 4, 9]]);
        let v = vec![
            (0, Eq, Value::Undefined),
            (1, Gt, Value::Int(1)),
            (2, MetaEq, Value::Undefined),
        ];
        assert_eq!(p(v), vec![vec![0], vec![1, 2]]);
        let v = vec![
            (0, Eq, "a".into()),
            (1, Ne, "A".into()),
            (2, Eq, true.into()),
            (3, Lt, "b".into()),
        ];
        assert_eq!(p(v), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        let many: Vec<(usize, BinaryOp, Value)> =
            (0..60).map(|i| (i, Ne, Value::Int(i as i64))).collect();
        assert!(p(many).is_empty());
    }

    #[test]
    fn describes() {
        let m = |lo: f64, hi: f64| c(Ge, lo).intersect(&c(Lt, hi));
        assert_eq!(m(512.0, 1024.0).describe(), "[512, 1024)");
        assert_eq!(m(512.0, 1024.0).phrase(), "in [512, 1024)");
        assert_eq!(c(Ge, 1024).describe(), ">= 1024");
        assert_eq!(c(Le, 1220608).describe(), "<= 1220608");
        assert_eq!(c(Gt, 0.5).phrase(), "> 0.5");
        assert_eq!(c(Eq, 5).phrase(), "== 5");
        assert_eq!(c(Ne, 5).describe(), "any number except 5");
        assert_eq!(c(Ne, 5).phrase(), "!= 5");
        assert_eq!(c(Lt, 1).union(&c(Gt, 3)).describe(), "< 1 or > 3");
        assert_eq!(c(Eq, "INTEL").describe(), "\"INTEL\"");
        assert_eq!(c(Eq, "INTEL").phrase(), "== \"INTEL\"");
        assert_eq!(
            c(Eq, "INTEL").intersect(&c(Eq, "intel")).describe(),
            "\"INTEL\""
        );
        let owner = c(Ne, "raman").intersect(&c(Ne, "ncoleman"));
        assert_eq!(
            owner.describe(),
            "any string except \"ncoleman\", \"raman\""
        );
        assert_eq!(c(Eq, "a").union(&c(Eq, "b")).phrase(), "is \"a\" or \"b\"");
        assert_eq!(c(MetaEq, true).describe(), "true");
        assert_eq!(c(Is, Value::Undefined).phrase(), "is undefined");
        assert_eq!(
            c(Isnt, Value::Undefined).describe(),
            "anything except undefined"
        );
        assert_eq!(c(MetaNe, false).describe(), "anything except false");
        assert_eq!(c(Eq, "x").intersect(&c(Gt, 1)), Constraint::Empty);
        assert_eq!(Constraint::everything().describe(), "any value");
        assert!(Constraint::everything().is_everything());
        assert_eq!(c(Ge, 1).intersect(&c(MetaNe, true)).describe(), ">= 1");
    }
}
