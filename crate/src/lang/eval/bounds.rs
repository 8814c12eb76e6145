//! The bounds an evaluation keeps, and where it hit one. libclassad has
//! neither: a chain of references deep enough overflows its stack, and a
//! value that doubles forty times (`strcat(X, X)` chains, `replaceAll`
//! with a long replacement) takes all memory until the process dies. Here
//! both stop with `error`, and the evaluator remembers the first place so
//! a caller can say where and why.

use std::sync::Arc;

use crate::lang::ast::Span;

/// The largest string a function may build, in bytes: as much as one ad
/// may hold when it is read (`formats::stream::MAX_RECORD_BYTES`), far
/// beyond any real attribute (production slot ads are ~26 KB whole). A
/// call that would build a longer one is `error`.
pub const MAX_VALUE_BYTES: usize = 16 << 20;

/// Where an evaluation went deeper than [`super::MAX_EVAL_DEPTH`].
#[derive(Clone, Debug, PartialEq)]
pub struct DepthExceeded {
    /// The expression it stopped at (in the text it was parsed from).
    pub span: Span,
    /// The innermost attribute being evaluated then, if any.
    pub attribute: Option<Arc<str>>,
}

/// Where a function would have built a value over [`MAX_VALUE_BYTES`].
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTooLarge {
    /// The call (in the text it was parsed from).
    pub span: Span,
    /// The function called, as written.
    pub function: Arc<str>,
    /// How many bytes it would have built (at least).
    pub bytes: usize,
    /// The innermost attribute being evaluated then, if any, and a name
    /// for the ad holding it (see [`ad_name`]).
    pub attribute: Option<Arc<str>>,
    pub ad: Option<Arc<str>>,
}

impl ValueTooLarge {
    /// One line for a user: what was refused and where.
    pub fn message(&self) -> String {
        let at = match (&self.attribute, &self.ad) {
            (Some(a), Some(ad)) => format!(" in attribute `{a}` of {ad}"),
            (Some(a), None) => format!(" in attribute `{a}`"),
            _ => String::new(),
        };
        format!(
            "`{}(…)`{at} would build a value of {} bytes, more than the {} MB any value may hold: \
             it is error",
            self.function,
            self.bytes,
            MAX_VALUE_BYTES >> 20
        )
    }
}

/// Does a string of `bytes` fit the bound?
pub fn fits(bytes: usize) -> bool {
    bytes <= MAX_VALUE_BYTES
}

/// A name for an ad in messages: its `Name`, else `ClusterId.ProcId`,
/// else `GlobalJobId` (as pools label their ads).
pub fn ad_name(ad: &crate::lang::ast::ClassAd) -> Option<Arc<str>> {
    use crate::lang::ast::Value;
    let lit = |attr: &str| ad.get(attr).and_then(|e| e.as_literal());
    if let Some(Value::Str(s)) = lit("Name") {
        return Some(s.clone());
    }
    if let (Some(Value::Int(c)), Some(Value::Int(p))) = (lit("ClusterId"), lit("ProcId")) {
        return Some(Arc::from(format!("job {c}.{p}")));
    }
    match lit("GlobalJobId") {
        Some(Value::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

/// Refusals no caller took from its evaluator (a pool's matching, say),
/// gathered for the process: the first, and how many evaluations had one.
static UNTAKEN: std::sync::Mutex<Option<(ValueTooLarge, usize)>> = std::sync::Mutex::new(None);

pub(super) fn leave_untaken(v: ValueTooLarge) {
    let mut slot = UNTAKEN.lock().unwrap_or_else(|e| e.into_inner());
    match slot.as_mut() {
        Some((_, n)) => *n += 1,
        None => *slot = Some((v, 1)),
    }
}

/// The first refusal that no caller took since the last call, and how
/// many evaluations refused a value: what a command evaluating a whole
/// pool tells its user at the end.
pub fn take_untaken() -> Option<(ValueTooLarge, usize)> {
    UNTAKEN.lock().unwrap_or_else(|e| e.into_inner()).take()
}
