//! Machines that look the same to an expression.
//!
//! A job's requirements read a handful of machine attributes; machines
//! with identical values for all of them give identical answers, so the
//! analyzer evaluates once per group and counts with the group's weight.
//! Real pools have hundreds of thousands of slots but few distinct
//! (Arch, OpSys, Memory, …) combinations. Grouping is exact: an expression
//! that could read more than the listed attributes (the whole `TARGET`,
//! `eval()`) gets one group per machine.
//!
//! The machine side (each machine's own requirements against the job) is
//! grouped the same way by a fingerprint of the requirements and of every
//! own attribute they reach.

use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHasher};

use crate::constraint::predicate::Sides;
use crate::lang::ast::{ClassAd, Expr, ExprKind, Special};
use crate::lang::value::Value;

/// A partition of the machines (indices into the pool) into groups.
#[derive(Clone, Debug)]
pub struct Groups {
    /// A representative machine of each group.
    pub rep: Vec<usize>,
    /// How many machines each group stands for.
    pub weight: Vec<u64>,
    /// The group of each machine.
    pub of: Vec<u32>,
}

impl Groups {
    pub fn singletons(n: usize) -> Groups {
        Groups {
            rep: (0..n).collect(),
            weight: vec![1; n],
            of: (0..n as u32).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.rep.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rep.is_empty()
    }

    /// Machines in groups whose bit is set.
    pub fn count(&self, bits: &fixedbitset::FixedBitSet) -> u64 {
        bits.ones().map(|g| self.weight[g]).sum()
    }

    /// Group machines by the fingerprint of their requirements (the first of
    /// `names` they define) and of every own attribute those reach.
    pub fn by_requirements(machines: &[Arc<ClassAd>], names: &[&str]) -> Groups {
        Groups::by_requirements_shaped(machines, names, None)
    }

    /// [`Groups::by_requirements`] given each machine's shape
    /// (`compiled::CompiledAd::shape`): machines of one shape reach the same
    /// attributes through the same expressions, so the walk is done once per
    /// shape and only the literals it reaches are read per machine.
    pub fn by_requirements_shaped(
        machines: &[Arc<ClassAd>],
        names: &[&str],
        shape: Option<&[usize]>,
    ) -> Groups {
        let mut index: FxHashMap<Vec<Part>, u32> = FxHashMap::default();
        let mut plans: FxHashMap<usize, Option<Vec<Step>>> = FxHashMap::default();
        let mut g = Groups {
            rep: vec![],
            weight: vec![],
            of: Vec::with_capacity(machines.len()),
        };
        for (i, m) in machines.iter().enumerate() {
            let own;
            let plan = match shape {
                Some(s) => plans.entry(s[i]).or_insert_with(|| plan(m, names)),
                None => {
                    own = plan(m, names);
                    &own
                }
            };
            let key = match plan.as_deref() {
                Some(p) => fill(p, m),
                None => vec![Part::Unique(i)],
            };
            g.add(&mut index, &key, i);
        }
        g
    }

    fn add(&mut self, index: &mut FxHashMap<Vec<Part>, u32>, key: &[Part], i: usize) {
        let id = match index.get(key) {
            Some(&id) => id,
            None => {
                let id = self.rep.len() as u32;
                index.insert(key.to_vec(), id);
                self.rep.push(i);
                self.weight.push(0);
                id
            }
        };
        self.weight[id as usize] += 1;
        self.of.push(id);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Part {
    Absent,
    Int(i64),
    Real(u64),
    Bool(bool),
    Str(Arc<str>),
    Hash(u64),
    Unique(usize),
}

fn part_of(v: &Value, i: usize) -> Part {
    match v {
        Value::Int(x) => Part::Int(*x),
        Value::Real(r) => Part::Real(r.to_bits()),
        Value::Bool(b) => Part::Bool(*b),
        Value::Str(s) => Part::Str(s.clone()),
        _ => Part::Unique(i),
    }
}

/// What an expression reads of the other ad: attribute keys, or `None`
/// when it may read anything.
pub fn other_reads(e: &Expr, sides: &Sides) -> Option<BTreeSet<String>> {
    other_reads_or_why(e, sides).ok()
}

/// Why [`other_reads`] cannot name what an expression reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unnamed {
    /// A whole-ad reference, `eval()` and the like.
    Opaque,
    /// Nested deeper than [`READS_DEPTH`] levels: not looked into.
    TooDeep,
}

/// How deep [`other_reads`] looks into an expression.
pub const READS_DEPTH: u32 = 400;

/// [`other_reads`], saying why when it cannot.
pub fn other_reads_or_why(e: &Expr, sides: &Sides) -> Result<BTreeSet<String>, Unnamed> {
    let mut out = BTreeSet::new();
    let mut too_deep = false;
    if reads(e, sides, &mut out, 0, &mut too_deep) {
        Ok(out)
    } else if too_deep {
        Err(Unnamed::TooDeep)
    } else {
        Err(Unnamed::Opaque)
    }
}

fn reads(
    e: &Expr,
    sides: &Sides,
    out: &mut BTreeSet<String>,
    depth: u32,
    too_deep: &mut bool,
) -> bool {
    if depth > READS_DEPTH {
        *too_deep = true;
        return false;
    }
    if let Some(a) = sides.other_attribute(e) {
        out.insert(a.to_ascii_lowercase());
        return true;
    }
    match &e.kind {
        ExprKind::Attr { name, absolute } => {
            !*absolute
                && matches!(
                    name.special,
                    Special::None | Special::My | Special::SelfAd | Special::CurrentTime
                )
        }
        ExprKind::Select(base, _) => match &base.kind {
            // MY.x: the own ad's attribute (specialization inlined it, or it is undefined).
            ExprKind::Attr {
                name,
                absolute: false,
            } if matches!(name.special, Special::My | Special::SelfAd) => true,
            _ => reads(base, sides, out, depth + 1, too_deep),
        },
        ExprKind::Record(_) => false,
        ExprKind::Call(c) => {
            let opaque = ["eval", "unresolved", "debug"];
            !opaque.iter().any(|o| c.name.eq_ignore_ascii_case(o))
                && c.args
                    .iter()
                    .all(|a| reads(a, sides, out, depth + 1, too_deep))
        }
        _ => e
            .children()
            .into_iter()
            .all(|c| reads(c, sides, out, depth + 1, too_deep)),
    }
}

/// A fingerprint's parts as a machine's shape decides them: fixed, or the
/// hash of the literal at a position (which differs between machines).
#[derive(Clone, Debug)]
enum Step {
    Fixed(Part),
    Literal(u32),
}

/// The fingerprint of `ad`: the parts of its [`plan`] filled in.
fn fill(plan: &[Step], ad: &ClassAd) -> Vec<Part> {
    plan.iter()
        .map(|s| match s {
            Step::Fixed(p) => p.clone(),
            Step::Literal(i) => Part::Hash(hash_of(ad.at(*i).1)),
        })
        .collect()
}

/// The requirements' structure plus, for every own attribute they reach
/// (transitively), whether it is defined and its definition's structure.
/// `None` when the requirements could read the ad in ways names do not
/// show (whole-ad references, `eval()`).
fn plan(ad: &ClassAd, names: &[&str]) -> Option<Vec<Step>> {
    let part = |i: u32| {
        let def = ad.at(i).1;
        match def.kind {
            ExprKind::Literal(_) => Step::Literal(i),
            _ => Step::Fixed(Part::Hash(hash_of(def))),
        }
    };
    let r = names.iter().find_map(|n| ad.position(n))?;
    let req = ad.at(r).1;
    let mut parts = vec![part(r)];
    let mut seen: Vec<Arc<str>> = vec![];
    let mut todo: Vec<Arc<str>> = vec![];
    if !collect_names(req, &mut todo, 0) {
        return None;
    }
    while let Some(k) = todo.pop() {
        if seen.contains(&k) || seen.len() > 256 {
            continue;
        }
        seen.push(k.clone());
        match ad.position(&k) {
            None => parts.push(Step::Fixed(Part::Absent)),
            Some(i) => {
                parts.push(part(i));
                if !collect_names(ad.at(i).1, &mut todo, 0) {
                    return None;
                }
            }
        }
    }
    Some(parts)
}

fn hash_of(e: &Expr) -> u64 {
    let mut h = FxHasher::default();
    crate::matchmaking::autocluster::hash_expr(e, &mut h);
    h.finish()
}

/// Names an expression could look up in its own ad; false when it could
/// reach the ad in other ways.
pub(super) fn collect_names(e: &Expr, out: &mut Vec<Arc<str>>, depth: u32) -> bool {
    if depth > 400 {
        return false;
    }
    match &e.kind {
        ExprKind::Attr { name, absolute } => {
            if *absolute {
                return false;
            }
            match name.special {
                Special::None => {
                    out.push(name.key.clone());
                    true
                }
                Special::Other | Special::CurrentTime => true,
                _ => false,
            }
        }
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr {
                name: b,
                absolute: false,
            } => match b.special {
                Special::Other => true,
                Special::My | Special::SelfAd => {
                    out.push(name.key.clone());
                    true
                }
                _ => collect_names(base, out, depth + 1),
            },
            _ => collect_names(base, out, depth + 1),
        },
        ExprKind::Record(_) => false,
        ExprKind::Call(c) => {
            let opaque = ["eval", "unresolved", "debug"];
            !opaque.iter().any(|o| c.name.eq_ignore_ascii_case(o))
                && c.args.iter().all(|a| collect_names(a, out, depth + 1))
        }
        _ => e
            .children()
            .into_iter()
            .all(|c| collect_names(c, out, depth + 1)),
    }
}

/// Hash a value the way grouping compares it.
pub fn value_hash(v: &Value) -> u64 {
    let mut h = FxHasher::default();
    match part_of(v, usize::MAX) {
        Part::Unique(_) => crate::lang::unparse::value_to_string(v).hash(&mut h),
        p => p.hash(&mut h),
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_classad;

    fn ads(src: &[&str]) -> Vec<Arc<ClassAd>> {
        src.iter()
            .map(|s| Arc::new(parse_classad(s).unwrap()))
            .collect()
    }

    #[test]
    fn fingerprints_follow_own_attributes() {
        let m = ads(&[
            "[Requirements = Start; Start = LoadAvg < 0.3; LoadAvg = 0.1; Name = \"a\"]",
            "[Requirements = Start; Start = LoadAvg < 0.3; LoadAvg = 0.1; Name = \"b\"]",
            "[Requirements = Start; Start = LoadAvg < 0.3; LoadAvg = 0.5]",
            "[Requirements = Start; Start = LoadAvg < 0.3]",
            "[Requirements = eval(\"x\")]",
            "[Requirements = eval(\"x\")]",
        ]);
        let g = Groups::by_requirements(&m, &["Requirements"]);
        assert_eq!(g.of, vec![0, 0, 1, 2, 3, 4]);
    }
}
