//! What a function of the library is, and the helpers its implementation
//! uses to read its arguments.

use crate::lang::ast::Expr;
pub use crate::lang::eval::Builtin as FnImpl;
use crate::lang::eval::{Env, Evaluator};
use crate::lang::value::Value;

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
