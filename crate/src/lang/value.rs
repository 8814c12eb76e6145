//! Runtime values of the ClassAd language (thesis §2.3): the ten kinds a
//! ClassAd expression can evaluate to, and what a value can tell of itself.
//!
//! The value types are defined with the expression tree (`ast`), since
//! each holds the other; they are named here too, where they always were.

use std::sync::Arc;

use crate::lang::ast::{Env, Expr};
pub use crate::lang::ast::{ListValue, RecordValue, Value};
// Below values (time literals are lexed, names compared in any case);
// their old paths stay.
pub use crate::lang::names::cmp_nocase;
pub use crate::lang::time::AbsTime;

/// The type names used in messages and by the type predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    Undefined,
    Error,
    Boolean,
    Integer,
    Real,
    String,
    AbsTime,
    RelTime,
    List,
    ClassAd,
}

impl ValueKind {
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Undefined => "undefined",
            ValueKind::Error => "error",
            ValueKind::Boolean => "boolean",
            ValueKind::Integer => "integer",
            ValueKind::Real => "real",
            ValueKind::String => "string",
            ValueKind::AbsTime => "absolute time",
            ValueKind::RelTime => "relative time",
            ValueKind::List => "list",
            ValueKind::ClassAd => "classad",
        }
    }
}

impl Value {
    pub fn str(s: impl Into<Arc<str>>) -> Value {
        Value::Str(s.into())
    }

    /// A list of already-computed values (results of functions).
    pub fn list_of(values: Vec<Value>) -> Value {
        let items: Vec<Expr> = values.into_iter().map(Expr::literal).collect();
        Value::List(ListValue {
            items: items.into(),
            env: Env::None,
            literal: false,
        })
    }

    pub fn kind(&self) -> ValueKind {
        match self {
            Value::Undefined => ValueKind::Undefined,
            Value::Error => ValueKind::Error,
            Value::Bool(_) => ValueKind::Boolean,
            Value::Int(_) => ValueKind::Integer,
            Value::Real(_) => ValueKind::Real,
            Value::Str(_) => ValueKind::String,
            Value::AbsTime(_) => ValueKind::AbsTime,
            Value::RelTime(_) => ValueKind::RelTime,
            Value::List(_) => ValueKind::List,
            Value::Record(_) => ValueKind::ClassAd,
        }
    }

    pub fn is_undefined(&self) -> bool {
        matches!(self, Value::Undefined)
    }
    pub fn is_error(&self) -> bool {
        matches!(self, Value::Error)
    }
    /// Undefined or error: the two "exceptional" values.
    pub fn is_exceptional(&self) -> bool {
        matches!(self, Value::Undefined | Value::Error)
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// Integer, real or boolean as f64: how docking vectors and sort keys
    /// read a value (a boolean ranks as 0 or 1).
    pub fn as_ranking_number(&self) -> Option<f64> {
        match self {
            Value::Bool(b) => Some(*b as i64 as f64),
            v => v.as_number(),
        }
    }

    /// Integer or real as f64 (booleans are not numbers here).
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Real(r) => Some(*r),
            _ => None,
        }
    }

    /// HTCondor's rule for "this expression is true": booleans, and numbers
    /// that are non-zero (old ClassAd compatibility). Everything else is not.
    pub fn is_true(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Real(r) => *r != 0.0,
            _ => false,
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}
impl From<f64> for Value {
    fn from(r: f64) -> Self {
        Value::Real(r)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.into())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s.into())
    }
}

/// The one order of ranking numbers (ranks, priorities, docking vectors,
/// sort keys): numeric order with NaN below every number, `-inf` included,
/// and equal to itself. A total order, so sorting never panics and never
/// depends on where a NaN happens to sit; a NaN rank loses to any number,
/// as it does in HTCondor, where every comparison with NaN is false.
pub fn rank_cmp(a: f64, b: f64) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}
