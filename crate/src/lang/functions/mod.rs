//! The function library: every function libclassad defines plus the ones
//! HTCondor registers (marked `htcondor_only`, unavailable in strict mode).
//!
//! Functions receive their arguments unevaluated, so lazy ones
//! (`ifThenElse`, `unparse`, `evalInEachContext`) can choose what to
//! evaluate. Each family lives in its own module and exports a `FUNCS`
//! table; names are matched without regard to case.

mod lists;
mod misc;
mod stringlists;
mod strings;
mod time_fns;
mod types;

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::lang::ast::Expr;
use crate::lang::eval::{Env, Evaluator};
use crate::lang::value::Value;

pub type FnImpl = fn(&mut Evaluator, &[Expr], &Env) -> Value;

pub struct FuncDef {
    pub name: &'static str,
    pub imp: FnImpl,
    /// Registered by HTCondor on top of libclassad; error in strict mode.
    pub htcondor_only: bool,
    /// Its value depends on its argument values alone — not on the clock,
    /// randomness, the scope, or the arguments' expressions — so a call on
    /// constants can be folded ahead of time.
    pub pure: bool,
}

impl FuncDef {
    /// The same entry, marked pure.
    pub const fn pure(self) -> FuncDef {
        FuncDef { pure: true, ..self }
    }
}

/// Shorthand for table entries.
pub const fn f(name: &'static str, imp: FnImpl) -> FuncDef {
    FuncDef {
        name,
        imp,
        htcondor_only: false,
        pure: false,
    }
}

pub const fn hf(name: &'static str, imp: FnImpl) -> FuncDef {
    FuncDef {
        name,
        imp,
        htcondor_only: true,
        pure: false,
    }
}

struct Table {
    defs: Vec<&'static FuncDef>,
    by_name: FxHashMap<String, u16>,
    seed_by_name: FxHashMap<String, u16>,
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let mut defs: Vec<&'static FuncDef> = Vec::new();
        for family in [
            types::FUNCS,
            lists::FUNCS,
            misc::FUNCS,
            strings::FUNCS,
            stringlists::FUNCS,
            time_fns::FUNCS,
        ] {
            defs.extend(family.iter());
        }
        let mut by_name = FxHashMap::default();
        for (i, d) in defs.iter().enumerate() {
            let prev = by_name.insert(d.name.to_ascii_lowercase(), i as u16);
            debug_assert!(prev.is_none(), "function {} defined twice", d.name);
        }
        // The seed papers' functions that today's libclassad no longer has
        // (MakeDate, InDays, IsMember, …): known only outside the modern
        // dialect, where HTCondor would answer error anyway.
        let mut seed_by_name = FxHashMap::default();
        for d in time_fns::SEED_FUNCS.iter().chain(lists::SEED_FUNCS) {
            seed_by_name.insert(d.name.to_ascii_lowercase(), defs.len() as u16);
            defs.push(d);
        }
        Table {
            defs,
            by_name,
            seed_by_name,
        }
    })
}

/// Resolve a function name (any case) to its table index.
pub fn lookup(name: &str) -> Option<u16> {
    table().by_name.get(&name.to_ascii_lowercase()).copied()
}

/// Resolve a name among the seed papers' retired functions.
pub fn lookup_seed(name: &str) -> Option<u16> {
    table()
        .seed_by_name
        .get(&name.to_ascii_lowercase())
        .copied()
}

pub fn get(id: u16) -> &'static FuncDef {
    table().defs[id as usize]
}

/// Every known function name, for completion and documentation.
pub fn names() -> Vec<&'static str> {
    table().defs.iter().map(|d| d.name).collect()
}

// ---- helpers for function authors ----

/// Evaluate every argument.
pub fn eval_args(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Vec<Value> {
    args.iter().map(|a| ev.eval(a, env)).collect()
}

/// Evaluate exactly `N` arguments, or `None` when the count is wrong.
pub fn eval_n<const N: usize>(ev: &mut Evaluator, args: &[Expr], env: &Env) -> Option<[Value; N]> {
    if args.len() != N {
        return None;
    }
    let mut out: [Value; N] = std::array::from_fn(|_| Value::Undefined);
    for (slot, a) in out.iter_mut().zip(args) {
        *slot = ev.eval(a, env);
    }
    Some(out)
}

/// The first undefined or error among `vals`, error taking precedence.
pub fn exceptional(vals: &[Value]) -> Option<Value> {
    if vals.iter().any(Value::is_error) {
        Some(Value::Error)
    } else if vals.iter().any(Value::is_undefined) {
        Some(Value::Undefined)
    } else {
        None
    }
}

/// The elements of a list value, evaluated.
pub fn list_items(ev: &mut Evaluator, v: &Value) -> Option<Vec<Value>> {
    match v {
        Value::List(l) => Some(ev.list_values(l)),
        _ => None,
    }
}
