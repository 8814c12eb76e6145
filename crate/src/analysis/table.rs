//! The boolean table of §3.1.1: for every atom of the requirements, the
//! machines (groups of machines) where it is true, as a bitset.

use std::sync::Arc;

use fixedbitset::FixedBitSet;

use super::groups::Groups;
use super::predicate::Atom;
use crate::ast::ClassAd;
use crate::eval::ops::{truth, Truth};
use crate::eval::Evaluator;
use crate::value::Value;

/// An atom's truth over the groups.
#[derive(Clone, Debug)]
pub struct Column {
    pub truth: FixedBitSet,
    /// Groups where the atom was error or met a NaN (DNF may then
    /// disagree with the expression as written: see `predicate`).
    pub error: FixedBitSet,
}

/// The value of an atom with MY = `job` and TARGET = `machine`. A
/// predicate over a machine attribute whose definition is a literal is
/// worked out directly (the same operator code the evaluator runs);
/// anything else is evaluated.
pub fn atom_value(
    atom: &Atom,
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    ev: &mut Evaluator,
) -> Value {
    if let Some(p) = &atom.predicate {
        match machine.position_name(&p.name) {
            None => return p.apply(&Value::Undefined),
            Some(i) => {
                if let Some(v) = machine.at(i).1.as_literal() {
                    return p.apply(v);
                }
            }
        }
    }
    ev.set_ads(Some(job.clone()), Some(machine.clone()));
    ev.eval_expr(&atom.expr)
}

pub fn column(
    atom: &Atom,
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    groups: &Groups,
    ev: &mut Evaluator,
) -> Column {
    let mut c = Column {
        truth: FixedBitSet::with_capacity(groups.len()),
        error: FixedBitSet::with_capacity(groups.len()),
    };
    for (g, &m) in groups.rep.iter().enumerate() {
        let v = atom_value(atom, job, &machines[m], ev);
        match truth(&v) {
            Truth::True => c.truth.insert(g),
            Truth::Error => c.error.insert(g),
            // NaN is where a negated comparison and its complement differ.
            _ if matches!(v, Value::Real(r) if r.is_nan()) => c.error.insert(g),
            _ => {}
        }
        if let Some(Value::Real(r)) = atom
            .predicate
            .as_ref()
            .and_then(|_| machine_literal(atom, &machines[m]))
        {
            if r.is_nan() {
                c.error.insert(g);
            }
        }
    }
    c
}

fn machine_literal(atom: &Atom, machine: &ClassAd) -> Option<Value> {
    let p = atom.predicate.as_ref()?;
    let i = machine.position_name(&p.name)?;
    machine.at(i).1.as_literal().cloned()
}

/// Groups where an expression (MY = job, TARGET = the group's machine)
/// is true.
pub fn truth_of(
    e: &crate::ast::Expr,
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    groups: &Groups,
    ev: &mut Evaluator,
) -> FixedBitSet {
    let mut bits = FixedBitSet::with_capacity(groups.len());
    for (g, &m) in groups.rep.iter().enumerate() {
        ev.set_ads(Some(job.clone()), Some(machines[m].clone()));
        if truth(&ev.eval_expr(e)) == Truth::True {
            bits.insert(g);
        }
    }
    bits
}

/// The conjunction of some columns (all groups when there are none).
pub fn all_of<'a>(cols: impl Iterator<Item = &'a FixedBitSet>, n: usize) -> FixedBitSet {
    let mut acc = FixedBitSet::with_capacity(n);
    acc.insert_range(..);
    for c in cols {
        acc.intersect_with(c);
    }
    acc
}
