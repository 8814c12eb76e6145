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
    let mut w = Walker::default();
    w.walk(e, Some(ad));
    w.r
}

/// External references of one expression evaluated in `ad` as
/// libclassad's `unresolved()` lists them (GetExternalReferences with full
/// names): a selection from something the ad does not define keeps its
/// whole dotted path (`a.b`, `x.y.z`), not just its first name; with
/// `strict`, `MY` is an ordinary name (plain libclassad), so `MY.x` is
/// one of them. `None` where libclassad gives up on the expression: a
/// selection from an attribute of the ad that is not a record.
pub fn expr_refs_full_names(e: &Expr, ad: &ClassAd, strict: bool) -> Option<BTreeSet<String>> {
    let mut w = Walker {
        full: true,
        my_is_plain: strict,
        ..Walker::default()
    };
    w.walk(e, Some(ad));
    (!w.gave_up).then_some(w.r.external)
}

/// References of every attribute of an ad.
pub fn ad_refs(ad: &ClassAd) -> References {
    let mut w = Walker::default();
    for i in 0..ad.len() as u32 {
        // A literal refers to nothing; the rest are walked without being
        // kept parsed (what they refer to in the ad is).
        if !ad.is_literal(i) {
            w.walk(&ad.expr_transient(i), Some(ad));
        }
    }
    w.r
}

/// References of every attribute of an ad as libclassad's
/// `GetInternalReferences` / `GetExternalReferences` give them: names as
/// the expressions write them (`foo` for an attribute the ad spells `Foo`,
/// `Target.x` with the scope word as written, a plain `x` for a `MY.x` the
/// ad lacks), each once without regard to case (the first spelling met,
/// in the ad's order), sorted without regard to case.
///
/// With `strict` (plain libclassad, HTCondor's `STRICT_CLASSAD_EVALUATION`)
/// `MY` and `CurrentTime` are ordinary names, so `X = CurrentTime - 5`
/// refers to `CurrentTime`; under HTCondor's default (old ClassAd
/// semantics) both are special and refer to nothing.
pub fn ad_refs_as_written(ad: &ClassAd, strict: bool) -> (Vec<String>, Vec<String>) {
    let mut w = Walker {
        as_written: true,
        my_is_plain: strict,
        ..Walker::default()
    };
    let (mut internal, mut external) = (Vec::new(), Vec::new());
    for i in 0..ad.len() as u32 {
        if ad.is_literal(i) {
            continue;
        }
        w.r = References::default();
        w.order = (Vec::new(), Vec::new());
        w.walk(&ad.expr_transient(i), Some(ad));
        internal.append(&mut w.order.0);
        external.append(&mut w.order.1);
    }
    (first_spellings(internal), first_spellings(external))
}

/// Each name once without regard to case (its first spelling), sorted
/// without regard to case: libclassad's `References`.
fn first_spellings(names: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<String> = names
        .into_iter()
        .filter(|n| seen.insert(n.to_ascii_lowercase()))
        .collect();
    out.sort_by(|a, b| crate::lang::names::cmp_nocase(a, b));
    out
}

/// External references of an expression with no ad: every plain name.
pub fn external_refs_of(e: &Expr) -> BTreeSet<String> {
    let mut w = Walker::default();
    w.walk(e, None);
    w.r.external
}

#[derive(Default)]
struct Walker {
    r: References,
    /// Definitions already followed (case-folded names).
    seen: BTreeSet<String>,
    /// Name a selection chain rooted at an unknown name by its whole path
    /// (see [`expr_refs_full_names`]).
    full: bool,
    /// `MY` is not a scope word (strict mode, with `full`).
    my_is_plain: bool,
    gave_up: bool,
    /// Record names as written, in the order met (see [`ad_refs_as_written`]).
    as_written: bool,
    order: (Vec<String>, Vec<String>),
}

impl Walker {
    fn is_scope_word(&self, key: &str) -> bool {
        SCOPE_WORDS.contains(&key) && !(self.my_is_plain && key == "my")
    }

    /// Whether `ad` defines `name`; if so, record it and follow its definition.
    fn internal(&mut self, name: &str, ad: Option<&ClassAd>) -> bool {
        self.definition(name, ad).is_some()
    }

    fn definition(&mut self, name: &str, ad: Option<&ClassAd>) -> Option<Expr> {
        let ad = ad?;
        let key = name.to_ascii_lowercase();
        // By position: a 100,000-attribute chain must not scan the ad once
        // a reference.
        let i = ad.position(name)?;
        let def = ad.expr_transient(i).into_owned();
        self.r.internal.insert(ad.name_at(i).to_string());
        if self.as_written {
            self.order.0.push(name.to_string());
        }
        if self.seen.insert(key) {
            self.walk(&def, Some(ad));
        }
        Some(def)
    }

    fn walk(&mut self, e: &Expr, ad: Option<&ClassAd>) {
        match &e.kind {
            ExprKind::Attr { name, .. } => {
                if OTHER_WORDS.contains(&&*name.key) {
                    // The other ad as a value: libclassad finds no such
                    // attribute in this one.
                    if self.as_written {
                        self.order.1.push(name.text.to_string());
                    }
                    return;
                }
                let time = &*name.key == "currenttime" && !self.my_is_plain;
                if self.is_scope_word(&name.key) || time {
                    return;
                }
                if !self.internal(&name.text, ad) {
                    self.r.external.insert(name.text.to_string());
                    if self.as_written {
                        self.order.1.push(name.text.to_string());
                    }
                }
            }
            ExprKind::Select(base, name) => match &base.kind {
                ExprKind::Attr { name: b, .. } if OTHER_WORDS.contains(&&*b.key) => {
                    self.r.external.insert(format!("TARGET.{}", name.text));
                    if self.as_written {
                        self.order.1.push(format!("{}.{}", b.text, name.text));
                    }
                }
                ExprKind::Attr { name: b, .. } if self.is_scope_word(&b.key) => {
                    let own = b.is("my") || (self.as_written && !b.is("parent"));
                    if !self.internal(&name.text, ad) && own {
                        // `MY.x` that the ad lacks cannot be resolved anywhere;
                        // libclassad lists it among the external references
                        // (by its name alone).
                        self.r.external.insert(format!("MY.{}", name.text));
                        if self.as_written {
                            self.order.1.push(name.text.to_string());
                        }
                    }
                }
                _ if self.full => match dotted_path(e, self.my_is_plain) {
                    Some((root, path)) => match self.definition(root, ad) {
                        None => {
                            self.r.external.insert(path);
                        }
                        Some(def) if !matches!(def.kind, ExprKind::Record(_)) => {
                            self.gave_up = true;
                        }
                        Some(_) => {}
                    },
                    None => self.walk(base, ad),
                },
                _ => self.walk(base, ad),
            },
            ExprKind::Record(_) => {}
            _ => {
                for c in e.children() {
                    self.walk(c, ad);
                }
            }
        }
    }
}

/// `a.b.c` as (its first name, the whole path), for a chain of selections
/// that starts at a plain name (no scope word; `MY` counts as plain when
/// `my_is_plain`).
fn dotted_path(e: &Expr, my_is_plain: bool) -> Option<(&str, String)> {
    match &e.kind {
        ExprKind::Attr {
            name,
            absolute: false,
        } if (!SCOPE_WORDS.contains(&&*name.key) || (my_is_plain && name.is("my")))
            && !OTHER_WORDS.contains(&&*name.key) =>
        {
            Some((&name.text, name.text.to_string()))
        }
        ExprKind::Select(base, name) => {
            let (root, path) = dotted_path(base, my_is_plain)?;
            Some((root, format!("{path}.{}", name.text)))
        }
        _ => None,
    }
}
