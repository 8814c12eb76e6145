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
    match v {
        Value::Str(s) => serde_json::Value::String(s.to_string()),
        Value::Int(i) => (*i).into(),
        Value::Real(x) if x.is_finite() => serde_json::Number::from_f64(*x)
            .map(serde_json::Value::Number)
            .unwrap_or_else(|| text(v).into()),
        Value::Bool(b) => (*b).into(),
        Value::Undefined => serde_json::Value::Null,
        other => text(other).into(),
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
