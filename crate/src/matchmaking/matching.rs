//! Bilateral matching (thesis §3.2): two ads match when each one's
//! requirements are true with the other as its target.

use std::sync::Arc;

use crate::lang::ast::ClassAd;
use crate::lang::eval::Evaluator;
use crate::lang::value::Value;

/// The names under which an ad states its requirements, tried in order:
/// HTCondor's `Requirements`, then the seed papers' `Constraint`.
pub const DEFAULT_REQUIREMENTS: &[&str] = &["Requirements", "Constraint"];

/// The outcome of matching a left ad against a right ad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOutcome {
    /// The left ad's requirements hold with the right ad as target.
    pub left_accepts: bool,
    /// The right ad's requirements hold with the left ad as target.
    pub right_accepts: bool,
}

impl MatchOutcome {
    pub fn matched(self) -> bool {
        self.left_accepts && self.right_accepts
    }
}

/// Evaluate `my`'s requirements (the first of `names` it defines) against
/// `target`; undefined when it defines none. [`accepts`] applies HTCondor's
/// rule: `true` or a non-zero number accepts, anything else rejects.
pub fn requirements_value(
    ev: &mut Evaluator,
    my: &Arc<ClassAd>,
    target: &Arc<ClassAd>,
    names: &[&str],
) -> Value {
    ev.set_ads(Some(my.clone()), Some(target.clone()));
    for n in names {
        if my.position(n).is_some() {
            return ev.eval_attr(n);
        }
    }
    Value::Undefined
}

pub fn accepts(
    ev: &mut Evaluator,
    my: &Arc<ClassAd>,
    target: &Arc<ClassAd>,
    names: &[&str],
) -> bool {
    requirements_value(ev, my, target, names).is_true()
}

/// Symmetric match of two ads (HTCondor's IsAMatch in both directions).
pub fn symmetric_match(
    ev: &mut Evaluator,
    left: &Arc<ClassAd>,
    right: &Arc<ClassAd>,
) -> MatchOutcome {
    let left_accepts = accepts(ev, left, right, DEFAULT_REQUIREMENTS);
    let right_accepts = accepts(ev, right, left, DEFAULT_REQUIREMENTS);
    MatchOutcome {
        left_accepts,
        right_accepts,
    }
}

/// [`symmetric_match`] on compiled ads (see `compiled`): the same answer,
/// with each ad's own part of its requirements worked out once.
pub fn symmetric_match_compiled(
    ev: &mut Evaluator,
    left: &crate::matchmaking::compiled::CompiledAd,
    right: &crate::matchmaking::compiled::CompiledAd,
) -> MatchOutcome {
    MatchOutcome {
        left_accepts: left.accepts(right, ev),
        right_accepts: right.accepts(left, ev),
    }
}

/// Whether two compiled ads match (each one's requirements accept the
/// other); the left ad's requirements first, the right's only if needed.
#[inline]
pub fn matches_compiled(
    ev: &mut Evaluator,
    left: &crate::matchmaking::compiled::CompiledAd,
    right: &crate::matchmaking::compiled::CompiledAd,
) -> bool {
    left.accepts(right, ev) && right.accepts(left, ev)
}
