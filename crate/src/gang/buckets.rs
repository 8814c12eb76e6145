//! Summarization (DYNS, thesis §5.8.1): offer ports with identical
//! *signatures* — the same rectangles and the same values of every attribute
//! any ad reads — share a bucket, and only one representative per bucket is
//! indexed. A port whose rectangles or values are deviant, or whose ad has
//! several ports, is a bucket of its own (the thesis assumes no two deviant
//! parts alike).

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::index::rectangle::{own_value, Point};
use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::EvalOptions;

use super::model::GangAd;

/// Every name any ad reads: an unscoped reference or a selected field
/// (bounded walk per expression).
pub(super) fn read_names(ads: &[GangAd]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack: Vec<&Expr> = Vec::new();
    for g in ads {
        let mut budget = 200_000u32;
        for (_, e) in g.ad.iter() {
            stack.push(e);
        }
        while let Some(e) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            match &e.kind {
                ExprKind::Attr { name, .. } => {
                    out.insert(name.key.to_string());
                }
                ExprKind::Select(_, name) => {
                    out.insert(name.key.to_string());
                }
                ExprKind::Record(ad) => stack.extend(ad.iter().map(|(_, x)| x)),
                _ => {}
            }
            stack.extend(e.children());
        }
        stack.clear();
    }
    out
}

/// A slot's signature for summarization; `None` when it has a deviant
/// part (so it shares no bucket).
pub(super) fn signature(
    view: &Arc<ClassAd>,
    names: &BTreeSet<String>,
    opts: EvalOptions,
) -> Option<String> {
    use std::fmt::Write;
    let rects = crate::index::rectangle::rectangles_scoped(view, opts, false);
    if rects.unindexable.is_some() || rects.rectangles.iter().any(|r| r.exp_deviant) {
        return None;
    }
    let mut sig = String::new();
    for r in &rects.rectangles {
        for e in &r.exp {
            let _ = write!(sig, "{}:{:?};", e.key, e.set);
        }
        sig.push('|');
    }
    sig.push('#');
    let mut keys: Vec<String> = view
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .filter(|k| names.contains(k))
        .collect();
    keys.sort();
    for k in keys {
        match own_value(view, &k, opts) {
            Point::Deviant => return None,
            p => {
                let _ = write!(sig, "{k}={p:?};");
            }
        }
    }
    Some(sig)
}
