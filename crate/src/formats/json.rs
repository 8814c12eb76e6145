//! JSON as `condor_status -json` prints it: an array of objects (or one
//! object per line), with expressions as `"\/Expr(…)\/"` strings.

use serde_json::Value as J;

use super::{Pool, PoolAd};
use crate::ast::{ClassAd, Expr, ExprKind, Span};
use crate::diagnostic::Diagnostic;
use crate::value::Value;

pub(super) fn read(text: &str) -> Pool {
    let mut pool = Pool::default();
    let trimmed = text.trim_start();
    let lead = text.len() - trimmed.len();
    if trimmed.starts_with('[') {
        match serde_json::from_str::<J>(text) {
            Ok(J::Array(items)) => {
                for item in items {
                    push_object(&mut pool, &item, Span::new(lead, text.len()));
                }
            }
            Ok(_) => {}
            Err(e) => pool.diagnostics.push(json_error(text, 0, &e)),
        }
        return pool;
    }
    // One object, or JSON lines: read a stream of values.
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<J>();
    loop {
        let start = stream.byte_offset();
        match stream.next() {
            None => break,
            Some(Ok(v)) => {
                let end = stream.byte_offset();
                push_object(&mut pool, &v, Span::new(start, end));
            }
            Some(Err(e)) => {
                pool.diagnostics.push(json_error(text, 0, &e));
                break;
            }
        }
    }
    pool
}

fn json_error(text: &str, base: usize, e: &serde_json::Error) -> Diagnostic {
    // serde_json reports 1-based line and column; turn them into a byte offset.
    let mut off = base;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == e.line() {
            off += l
                .char_indices()
                .nth(e.column().saturating_sub(1))
                .map(|(b, _)| b)
                .unwrap_or(l.len());
            break;
        }
        off += l.len();
    }
    Diagnostic::new(Span::new(off, off + 1), format!("invalid JSON: {e}"))
}

fn push_object(pool: &mut Pool, v: &J, span: Span) {
    match v {
        J::Object(_) => match to_expr(v) {
            Ok(Expr {
                kind: ExprKind::Record(ad),
                ..
            }) => pool.ads.push(PoolAd {
                ad: (*ad).clone(),
                span,
                label: String::new(),
            }),
            Ok(_) => {}
            Err(d) => pool.diagnostics.push(Diagnostic { span, ..d }),
        },
        _ => pool.diagnostics.push(
            Diagnostic::new(span, "a JSON value that is not an object")
                .expected("one JSON object per ad"),
        ),
    }
}

fn to_expr(v: &J) -> Result<Expr, Diagnostic> {
    Ok(match v {
        J::Null => Expr::literal(Value::Undefined),
        J::Bool(b) => Expr::literal(Value::Bool(*b)),
        J::Number(n) => match n.as_i64() {
            Some(i) => Expr::literal(Value::Int(i)),
            None => Expr::literal(Value::Real(n.as_f64().unwrap_or(f64::NAN))),
        },
        J::String(s) => match s.strip_prefix("/Expr(").and_then(|r| r.strip_suffix(")/")) {
            Some(src) => crate::parser::parse_expr(src).map_err(|d| {
                Diagnostic::new(
                    Span::NONE,
                    format!("bad expression in \"/Expr({src})/\": {}", d.message),
                )
            })?,
            None => Expr::literal(Value::str(s.as_str())),
        },
        J::Array(items) => {
            let items: Result<Vec<Expr>, Diagnostic> = items.iter().map(to_expr).collect();
            Expr::new(ExprKind::List(items?.into()), Span::NONE)
        }
        J::Object(map) => {
            let mut ad = ClassAd::new();
            for (k, v) in map {
                ad.insert(k, to_expr(v).map_err(|d| d.in_attribute(k))?);
            }
            Expr::new(ExprKind::Record(std::sync::Arc::new(ad)), Span::NONE)
        }
    })
}

fn from_expr(e: &Expr) -> J {
    match &e.kind {
        ExprKind::Literal(v) => match v {
            Value::Undefined => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Real(r) if r.is_finite() => J::from(*r),
            Value::Str(s) => J::String(s.to_string()),
            _ => expr_string(e),
        },
        ExprKind::List(items) => J::Array(items.iter().map(from_expr).collect()),
        ExprKind::Record(ad) => ad_json(ad),
        _ => expr_string(e),
    }
}

fn expr_string(e: &Expr) -> J {
    J::String(format!("/Expr({})/", crate::unparse::unparse(e)))
}

fn ad_json(ad: &ClassAd) -> J {
    let mut map = serde_json::Map::new();
    for (n, e) in ad.iter() {
        map.insert(n.to_string(), from_expr(e));
    }
    J::Object(map)
}

pub(super) fn write(ads: &[&ClassAd]) -> String {
    let arr = J::Array(ads.iter().map(|a| ad_json(a)).collect());
    // HTCondor escapes '/' in "/Expr(" as "\/".
    let s = serde_json::to_string_pretty(&arr).unwrap_or_default();
    s.replace("\"/Expr(", "\"\\/Expr(")
        .replace(")/\"", ")\\/\"")
        + "\n"
}
