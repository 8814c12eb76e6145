//! Internal and external references of an expression or an ad (thesis
//! §2.6.2; HTCondor's GetInternalReferences / GetExternalReferences).
//!
//! An internal reference names an attribute the ad itself defines (the
//! definition is followed, so references made through it count too); an
//! external one names something the ad must get from elsewhere: a
//! `TARGET.`/`other.` attribute, or a plain name the ad does not define
//! (which HTCondor looks up in the match target).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Expr, ExprKind};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct References {
    /// Attributes of the ad itself (as spelled in the ad).
    pub internal: BTreeSet<String>,
    /// Attributes expected from the target, written `TARGET.Name` when the
    /// expression says so explicitly, else the bare name.
    pub external: BTreeSet<String>,
}

impl References {
    /// External references as bare attribute names, case-folded: the
    /// attributes an ad needs from the other side of a match.
    pub fn target_attributes(&self) -> BTreeSet<String> {
        self.external
            .iter()
            .filter(|r| !r.starts_with("MY."))
            .map(|r| r.strip_prefix("TARGET.").unwrap_or(r).to_ascii_lowercase())
            .collect()
    }

    /// For an expression evaluated with MY = the other party (a negotiator
    /// policy expression seen from the job): the attributes it needs from
    /// MY, i.e. every reference not scoped to TARGET.
    pub fn my_attributes(&self) -> BTreeSet<String> {
        self.external
            .iter()
            .filter(|r| !r.starts_with("TARGET."))
            .map(|r| r.strip_prefix("MY.").unwrap_or(r).to_ascii_lowercase())
            .collect()
    }
}

const SCOPE_WORDS: &[&str] = &["self", "my", "parent", "root", "toplevel"];
const OTHER_WORDS: &[&str] = &["target", "other"];

/// References of one expression evaluated in `ad`.
pub fn expr_refs(e: &Expr, ad: &ClassAd) -> References {
    let mut r = References::default();
    let mut seen = BTreeSet::new();
    walk(e, Some(ad), &mut r, &mut seen);
    r
}

/// References of every attribute of an ad.
pub fn ad_refs(ad: &ClassAd) -> References {
    let mut r = References::default();
    let mut seen = BTreeSet::new();
    for (_, e) in ad.iter() {
        walk(e, Some(ad), &mut r, &mut seen);
    }
    r
}

/// External references of an expression with no ad: every plain name.
pub fn external_refs_of(e: &Expr) -> BTreeSet<String> {
    let mut r = References::default();
    let mut seen = BTreeSet::new();
    walk(e, None, &mut r, &mut seen);
    r.external
}

fn internal(
    name: &str,
    ad: Option<&ClassAd>,
    r: &mut References,
    seen: &mut BTreeSet<String>,
) -> bool {
    let Some(ad) = ad else {
        return false;
    };
    let key = name.to_ascii_lowercase();
    let Some(def) = ad.get(&key) else {
        return false;
    };
    let spelled = ad
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(n, _)| n.to_string())
        .unwrap_or_else(|| name.to_string());
    r.internal.insert(spelled);
    if seen.insert(key) {
        let def = def.clone();
        walk(&def, Some(ad), r, seen);
    }
    true
}

fn walk(e: &Expr, ad: Option<&ClassAd>, r: &mut References, seen: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Attr { name, .. } => {
            if SCOPE_WORDS.contains(&&*name.key)
                || OTHER_WORDS.contains(&&*name.key)
                || &*name.key == "currenttime"
            {
                return;
            }
            if !internal(&name.text, ad, r, seen) {
                r.external.insert(name.text.to_string());
            }
        }
        ExprKind::Select(base, name) => match &base.kind {
            ExprKind::Attr { name: b, .. } if OTHER_WORDS.contains(&&*b.key) => {
                r.external.insert(format!("TARGET.{}", name.text));
            }
            ExprKind::Attr { name: b, .. } if SCOPE_WORDS.contains(&&*b.key) => {
                if !internal(&name.text, ad, r, seen) && b.is("my") {
                    // `MY.x` that the ad lacks cannot be resolved anywhere;
                    // libclassad lists it among the external references.
                    r.external.insert(format!("MY.{}", name.text));
                }
            }
            _ => walk(base, ad, r, seen),
        },
        ExprKind::Record(_) => {}
        _ => {
            for c in e.children() {
                walk(c, ad, r, seen);
            }
        }
    }
}
