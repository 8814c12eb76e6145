//! Values as `condor_status -af` / `condor_q -af` print them: strings
//! without quotes, integers as digits, booleans `true`/`false`, `undefined`
//! and `error` as words, anything else in its canonical unparse.

use crate::lang::unparse::value_to_string;
use crate::lang::value::Value;

pub fn text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Undefined => "undefined".into(),
        Value::Error => "error".into(),
        other => value_to_string(other),
    }
}

/// One `-af` line: the values separated by one space.
pub fn line(values: &[Value]) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&text(v));
    }
    out
}

/// A value for `--json` rows: strings, numbers and booleans as themselves,
/// undefined as null, anything else (error, lists, records, times) as its
/// `-af` text.
pub fn json(v: &Value) -> serde_json::Value {
    CellType::of(v).json(&text(v))
}

/// What a cell's `-af` text needs to become its `--json` value again: kept
/// beside the text (a few bytes, not a second copy of every string).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellType {
    /// A string, or anything else shown as its text.
    Text,
    Int(i64),
    Real(f64),
    Bool(bool),
    Null,
}

impl CellType {
    pub fn of(v: &Value) -> CellType {
        match v {
            Value::Int(i) => CellType::Int(*i),
            Value::Real(x) if x.is_finite() => CellType::Real(*x),
            Value::Bool(b) => CellType::Bool(*b),
            Value::Undefined => CellType::Null,
            _ => CellType::Text,
        }
    }

    /// The `--json` value of a cell whose `-af` text is `text`.
    pub fn json(self, text: &str) -> serde_json::Value {
        match self {
            CellType::Int(i) => i.into(),
            CellType::Real(x) => serde_json::Number::from_f64(x)
                .map(serde_json::Value::Number)
                .unwrap_or_else(|| text.into()),
            CellType::Bool(b) => b.into(),
            CellType::Null => serde_json::Value::Null,
            CellType::Text => text.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_condor_status_af_prints() {
        let vals = [
            Value::Str("slot1@a b".into()),
            Value::Int(-3),
            Value::Bool(true),
            Value::Undefined,
            Value::Error,
            Value::Real(0.5),
        ];
        assert_eq!(
            line(&vals),
            "slot1@a b -3 true undefined error 5.000000000000000E-01"
        );
    }
}
