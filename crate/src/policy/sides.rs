//! An expression HTCondor's negotiator evaluates in the machine's context
//! (MY = the slot, TARGET = the job: `NEGOTIATOR_PRE_JOB_RANK`,
//! `PREEMPTION_REQUIREMENTS`, …) rewritten for the job's context, where
//! the cycle evaluates its docking vector: `MY.x` becomes `TARGET.x` and
//! back, and a plain name — the slot's attribute, else the job's —
//! becomes `(TARGET.x ?: MY.x)`.
//!
//! The one difference: a slot attribute that exists but evaluates to
//! undefined falls through to the job's here, where HTCondor stops at it.

use crate::lang::ast::{Call, Expr, ExprKind};
use crate::lang::names::Special;
use crate::lang::parser::parse_expr;

/// `e` as the other ad sees it (see the module's comment).
pub fn swap_sides(e: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Literal(_) => return e.clone(),
        ExprKind::Attr { name, absolute } => {
            return match (name.special, absolute) {
                (Special::None, false) => scoped(&format!("(TARGET.{0} ?: MY.{0})", name.text))
                    .unwrap_or_else(|| e.clone()),
                _ => e.clone(),
            }
        }
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr {
                name: b,
                absolute: false,
            } if matches!(b.special, Special::My | Special::Other) => {
                let side = if b.special == Special::My {
                    "TARGET"
                } else {
                    "MY"
                };
                return scoped(&format!("{side}.{}", name.text)).unwrap_or_else(|| e.clone());
            }
            _ => ExprKind::Select(Box::new(swap_sides(base)), name.clone()),
        },
        ExprKind::Index(a, b) => ExprKind::Index(Box::new(swap_sides(a)), Box::new(swap_sides(b))),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(swap_sides(a))),
        ExprKind::Binary(op, a, b) => {
            ExprKind::Binary(*op, Box::new(swap_sides(a)), Box::new(swap_sides(b)))
        }
        ExprKind::Cond(c, a, b) => ExprKind::Cond(
            Box::new(swap_sides(c)),
            Box::new(swap_sides(a)),
            Box::new(swap_sides(b)),
        ),
        ExprKind::Elvis(a, b) => ExprKind::Elvis(Box::new(swap_sides(a)), Box::new(swap_sides(b))),
        ExprKind::Paren(a) => ExprKind::Paren(Box::new(swap_sides(a))),
        ExprKind::Call(c) => ExprKind::Call(Call {
            name: c.name.clone(),
            func: c.func,
            args: c.args.iter().map(swap_sides).collect(),
        }),
        ExprKind::List(items) => ExprKind::List(items.iter().map(swap_sides).collect()),
        // A record's names are its own scope.
        ExprKind::Record(_) => return e.clone(),
    };
    Expr::new(kind, e.span)
}

fn scoped(text: &str) -> Option<Expr> {
    parse_expr(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::unparse::unparse;

    fn swapped(s: &str) -> String {
        unparse(&swap_sides(&parse_expr(s).unwrap()))
    }

    #[test]
    fn sides_swap_and_plain_names_look_at_the_slot_first() {
        assert_eq!(
            swapped("(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - Memory"),
            "(10000000 * TARGET.Rank) + (1000000 * ((TARGET.RemoteOwner ?: MY.RemoteOwner) is undefined)) - (TARGET.Memory ?: MY.Memory)"
        );
        assert_eq!(
            swapped("TARGET.Owner == \"a\" && ifThenElse(isUndefined(x), 0, x[1])"),
            "MY.Owner == \"a\" && ifThenElse(isUndefined((TARGET.x ?: MY.x)),0,(TARGET.x ?: MY.x)[1])"
        );
    }
}
