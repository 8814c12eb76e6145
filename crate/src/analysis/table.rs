//! The boolean table of §3.1.1: for every atom of the requirements, the
//! machines (groups of machines) where it is true, as a bitset.

use std::sync::Arc;

use fixedbitset::FixedBitSet;

use super::group_values::{Cell, GroupValues};
use super::groups::Groups;
use crate::constraint::predicate::Atom;
use crate::lang::ast::ClassAd;
use crate::lang::eval::ops::{truth, Truth};
use crate::lang::eval::Evaluator;
use crate::lang::value::Value;

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

/// [`atom_value`] given the machine's tabled definition of the predicate's
/// attribute (`None`: not tabled, look it up).
pub fn atom_value_in(
    atom: &Atom,
    cell: Option<&Cell>,
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    ev: &mut Evaluator,
) -> Value {
    if let (Some(p), Some(c)) = (&atom.predicate, cell) {
        match c {
            Cell::Absent => return p.apply(&Value::Undefined),
            Cell::Literal(v) => return p.apply(v),
            Cell::Computed => {}
        }
    }
    atom_value(atom, job, machine, ev)
}

/// The groups' tabled definitions of an atom's predicate attribute.
pub fn cells_of<'t>(atom: &Atom, tabled: Option<&'t GroupValues>) -> Option<&'t [Cell]> {
    tabled?.column(&atom.predicate.as_ref()?.key)
}

pub fn column(
    atom: &Atom,
    job: &Arc<ClassAd>,
    machines: &[Arc<ClassAd>],
    groups: &Groups,
    tabled: Option<&GroupValues>,
    ev: &mut Evaluator,
) -> Column {
    let mut c = Column {
        truth: FixedBitSet::with_capacity(groups.len()),
        error: FixedBitSet::with_capacity(groups.len()),
    };
    // NaN is where a negated comparison and its complement differ: an
    // operand that is NaN makes the group one to evaluate as written.
    let is_nan = |v: &Value| matches!(v, Value::Real(r) if r.is_nan());
    let nan_literal = atom.predicate.as_ref().is_some_and(|p| is_nan(&p.literal));
    let cells = cells_of(atom, tabled);
    for (g, &m) in groups.rep.iter().enumerate() {
        let cell = cells.map(|c| &c[g]);
        match truth(&atom_value_in(atom, cell, job, &machines[m], ev)) {
            Truth::True => c.truth.insert(g),
            Truth::Error => c.error.insert(g),
            _ => {}
        }
        let nan_operand = match cell {
            Some(Cell::Literal(v)) => is_nan(v),
            Some(_) => false,
            None => atom.predicate.as_ref().is_some_and(|p| {
                let m = &machines[m];
                m.position_name(&p.name)
                    .and_then(|i| m.at(i).1.as_literal())
                    .is_some_and(is_nan)
            }),
        };
        if nan_literal || nan_operand {
            c.error.insert(g);
        }
    }
    c
}

/// Groups where an expression (MY = job, TARGET = the group's machine)
/// is true.
pub fn truth_of(
    e: &crate::lang::ast::Expr,
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

/// A machine's value of one of its attributes (evaluated in its own scope,
/// with the job as its target).
pub fn machine_value(
    machine: &Arc<ClassAd>,
    job: &Arc<ClassAd>,
    key: &str,
    ev: &mut Evaluator,
) -> Value {
    match machine.get(key) {
        None => Value::Undefined,
        Some(def) => match def.as_literal() {
            Some(v) => v.clone(),
            None => {
                ev.set_ads(Some(machine.clone()), Some(job.clone()));
                ev.eval_attr(key)
            }
        },
    }
}
