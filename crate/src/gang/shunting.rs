//! Constraint shunting (thesis §5.5.1): when a port `r` of the ad being
//! filled is already docked and defines an attribute as an invertible
//! function of the port `p` being probed (`HostId = Cpu.Key`, `Cpu.Key + c`,
//! `c + Cpu.Key`, `Cpu.Key - c`), the counterpart docked at `r` constrains
//! `HostId`; that constraint, translated through the inverse, constrains
//! `Key` of the candidates for `p`. One hop is translated; longer chains are
//! not (the window is then wider, never wrong).

use crate::constraint::intervals::{NumInterval, ValueSet};
use crate::index::rectangle::{Exported, Rectangles};
use crate::lang::ast::{BinaryOp, Expr, ExprKind};
use crate::lang::value::Value;

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(x) => strip(x),
        _ => e,
    }
}

/// `label.k`: the attribute key.
fn label_select(e: &Expr, label: &str) -> Option<String> {
    match &strip(e).kind {
        ExprKind::Select(base, name) => match &strip(base).kind {
            ExprKind::Attr {
                name: b,
                absolute: false,
            } if &*b.key == label => Some(name.key.to_string()),
            _ => None,
        },
        _ => None,
    }
}

fn number(e: &Expr) -> Option<f64> {
    match strip(e).as_literal()? {
        Value::Int(i) if i.unsigned_abs() < 1 << 53 => Some(*i as f64),
        Value::Real(r) if r.is_finite() => Some(*r),
        _ => None,
    }
}

/// `e` as `label.k + c`: (k, c).
pub(super) fn invertible(e: &Expr, label: &str) -> Option<(String, f64)> {
    if let Some(k) = label_select(e, label) {
        return Some((k, 0.0));
    }
    match &strip(e).kind {
        ExprKind::Binary(BinaryOp::Add, a, b) => label_select(a, label)
            .zip(number(b))
            .or_else(|| label_select(b, label).zip(number(a))),
        ExprKind::Binary(BinaryOp::Sub, a, b) => {
            label_select(a, label).zip(number(b)).map(|(k, c)| (k, -c))
        }
        _ => None,
    }
}

/// The union over a constraint's rectangles of what they admit for `key`;
/// `None` when some rectangle leaves it free (or there are none).
pub(super) fn constrained(rects: &Rectangles, key: &str) -> Option<ValueSet> {
    let mut out: Option<ValueSet> = None;
    for r in &rects.rectangles {
        let e = r.exp.iter().find(|e| e.key == key)?;
        out = Some(match out {
            Some(s) => s.union(&e.set),
            None => e.set.clone(),
        });
    }
    out
}

/// `{x : x + shift ∈ set}`, or a superset of it.
pub(super) fn translate(set: &ValueSet, shift: f64) -> ValueSet {
    if shift == 0.0 {
        return set.clone();
    }
    if set.others {
        // `x + c` is an error for strings and more: anything may land there.
        return ValueSet::everything();
    }
    let exact = |x: f64| x.is_infinite() || (x.fract() == 0.0 && x.abs() < 2f64.powi(52));
    let numbers = set
        .numbers
        .iter()
        .filter(|i| !i.is_nan() && !i.is_empty())
        .map(|i| {
            if exact(i.lo) && exact(i.hi) && shift.fract() == 0.0 {
                NumInterval {
                    lo: i.lo - shift,
                    hi: i.hi - shift,
                    ..*i
                }
            } else {
                // Rounding: widen by a hair, closed.
                let w = |x: f64| 1e-9 * x.abs().max(1.0);
                NumInterval {
                    lo: i.lo - shift - w(i.lo - shift),
                    lo_closed: true,
                    hi: i.hi - shift + w(i.hi - shift),
                    hi_closed: true,
                }
            }
        })
        .collect();
    let mut out = ValueSet::numbers(numbers);
    out.undefined = set.undefined;
    // Booleans in arithmetic are not numbers; admitting them is only wider.
    out.allow_true = true;
    out.allow_false = true;
    out
}

/// Narrow every rectangle of the window to `set` on `key`; rectangles left
/// empty are dropped.
pub(super) fn narrow(window: &mut Rectangles, key: &str, set: &ValueSet) {
    window.rectangles.retain_mut(|r| {
        match r.exp.iter_mut().find(|e| e.key == key) {
            Some(e) => e.set = e.set.intersect(set),
            None => {
                r.exp.push(Exported {
                    attribute: key.to_string(),
                    key: key.to_string(),
                    set: set.clone(),
                });
                r.exp.sort_by(|a, b| a.key.cmp(&b.key));
                r.exp_absent.retain(|k| k != key);
            }
        }
        r.exp.iter().all(|e| !e.set.is_empty())
    });
}
