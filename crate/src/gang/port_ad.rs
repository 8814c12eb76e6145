//! Port ads: one port of a gang ad written as a bilateral ad, so the
//! index of chapter 4 (`crate::index`) can read it.
//!
//! In the docking environment (Figure 32) a port's expressions see, in
//! order: the port's own attributes, its ad's attributes, then the labels
//! (each naming the counterpart docked at that port). A view flattens that
//! into one ad whose `other` is the counterpart docked at the port itself:
//!
//! - the port's attributes as written (they resolve port first, then ad —
//!   exactly the flattened order);
//! - the ad's attributes not shadowed by the port, specialized against the
//!   ad alone first (their names resolve in the ad, never in the port); one
//!   that still reads a name the port defines becomes opaque;
//! - the port's own label becomes `other`; a label bound in the gang becomes
//!   a record of the docked counterpart's constant attributes (its
//!   [`snapshot`]); an unbound label, and `other`/`MY`/`parent`/`root`
//!   (which name nothing useful in the environment), become opaque.
//!
//! "Opaque" is a reference to a name no ad defines ([`UNKNOWN`]): the
//! specializer leaves it alone and the rectangle conversion treats any atom
//! over it as deviant, so a view is never narrower than the port — index
//! queries over views return supersets, which evaluation then confirms.

use std::collections::HashSet;
use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind, Name, Special};
use crate::lang::eval::EvalOptions;
use crate::lang::specialize::{specialize, SpecContext};

use super::model::GangAd;

/// A name no ad defines (it holds a NUL): references to it stay unresolved.
pub const UNKNOWN: &str = "\u{0}unknown";

/// Deeper expressions than this are opaque in a view (the walk is bounded).
const MAX_DEPTH: u32 = 400;

fn unknown() -> Expr {
    Expr::new(
        ExprKind::Attr {
            name: Name::new(UNKNOWN),
            absolute: false,
        },
        crate::lang::ast::Span::NONE,
    )
}

fn other() -> Expr {
    Expr::new(
        ExprKind::Attr {
            name: Name::new("other"),
            absolute: false,
        },
        crate::lang::ast::Span::NONE,
    )
}

/// What the labels of the viewed ad stand for.
struct Labels<'a> {
    /// Case-folded names the view defines: they shadow labels.
    defined: HashSet<Arc<str>>,
    /// The viewed port's label (case-folded), if it is the counterpart.
    own: Option<&'a str>,
    /// Labels bound in the gang, with their counterparts' snapshots.
    bound: &'a [(String, Arc<ClassAd>)],
    /// Every label of the ad (case-folded).
    all: Vec<&'a str>,
}

impl Labels<'_> {
    /// The snapshot a bound label (not shadowed) stands for.
    fn bound_label(&self, e: &Expr) -> Option<&Arc<ClassAd>> {
        let ExprKind::Attr {
            name,
            absolute: false,
        } = &e.kind
        else {
            return None;
        };
        let key = &*name.key;
        if name.special != Special::None || self.defined.contains(key) || self.own == Some(key) {
            return None;
        }
        self.bound.iter().find(|(l, _)| l == key).map(|(_, s)| s)
    }

    fn rewrite(&self, e: &Expr, depth: u32) -> Expr {
        if depth > MAX_DEPTH {
            return unknown();
        }
        let d = depth + 1;
        let b = |x: &Expr| Box::new(self.rewrite(x, d));
        let kind = match &e.kind {
            ExprKind::Attr {
                name,
                absolute: false,
            } => {
                if matches!(
                    name.special,
                    Special::Other | Special::My | Special::Parent | Special::Root
                ) {
                    return unknown();
                }
                let key = &*name.key;
                if self.defined.contains(key) || !self.all.contains(&key) {
                    return e.clone();
                }
                if self.own == Some(key) {
                    return other();
                }
                return match self.bound.iter().find(|(l, _)| l == key) {
                    Some((_, snap)) => Expr::new(ExprKind::Record(snap.clone()), e.span),
                    None => unknown(),
                };
            }
            ExprKind::Literal(_) | ExprKind::Attr { .. } => return e.clone(),
            // A nested record has its own scope: left as written (a label
            // read inside it stays unresolved, hence opaque).
            ExprKind::Record(_) => return e.clone(),
            ExprKind::Select(base, n) => {
                if let Some(snap) = self.bound_label(base) {
                    // `Cpu.Key` with Cpu docked: the counterpart's value.
                    return match snap.get(&n.key) {
                        Some(v) => v.clone(),
                        // Lookups past the counterpart's ad reach its
                        // context (`_ad`, `_ctx_i`): unknown. Otherwise
                        // nothing defines it.
                        None if n.key.starts_with('_') => unknown(),
                        None => Expr::literal(crate::lang::value::Value::Undefined),
                    };
                }
                ExprKind::Select(b(base), n.clone())
            }
            ExprKind::Index(x, i) => ExprKind::Index(b(x), b(i)),
            ExprKind::Unary(op, x) => ExprKind::Unary(*op, b(x)),
            ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x), b(y)),
            ExprKind::Cond(c, x, y) => ExprKind::Cond(b(c), b(x), b(y)),
            ExprKind::Elvis(x, y) => ExprKind::Elvis(b(x), b(y)),
            ExprKind::Paren(x) => ExprKind::Paren(b(x)),
            ExprKind::Call(c) => {
                let mut c = c.clone();
                c.args = c.args.iter().map(|a| self.rewrite(a, d)).collect();
                ExprKind::Call(c)
            }
            ExprKind::List(items) => {
                ExprKind::List(items.iter().map(|x| self.rewrite(x, d)).collect())
            }
        };
        Expr::new(kind, e.span)
    }
}

/// Whether `e` reads (unscoped) any of `names` (bounded walk; past the
/// bound it answers yes).
fn reads_any(e: &Expr, names: &HashSet<Arc<str>>) -> bool {
    let mut stack = vec![e];
    let mut budget = 100_000u32;
    while let Some(x) = stack.pop() {
        if budget == 0 {
            return true;
        }
        budget -= 1;
        match &x.kind {
            ExprKind::Attr {
                name,
                absolute: false,
            } if names.contains(&name.key) => return true,
            ExprKind::Record(_) => return true,
            _ => stack.extend(x.children()),
        }
    }
    false
}

/// The view of port `p` of `g`, with `bound` giving the snapshots of the
/// counterparts docked at the ad's other ports (by case-folded label).
/// `own_is_other`: the port's own label is the counterpart being looked
/// for (a query window, an indexed offer port); otherwise it is opaque too
/// (a snapshot).
pub fn port_ad(
    g: &GangAd,
    p: usize,
    bound: &[(String, Arc<ClassAd>)],
    own_is_other: bool,
    opts: EvalOptions,
) -> Arc<ClassAd> {
    // An implicit port is its ad: `other`/`TARGET` already name the
    // counterpart and there are no other labels.
    let Some(port) = g.port_record(p) else {
        return g.ad.clone();
    };
    let port_keys: HashSet<Arc<str>> = port
        .iter()
        .map(|(n, _)| Arc::from(n.to_ascii_lowercase()))
        .collect();
    let mut defined = port_keys.clone();
    defined.extend(
        g.ad.iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("Ports"))
            .map(|(n, _)| Arc::from(n.to_ascii_lowercase())),
    );
    let labels = Labels {
        defined,
        own: own_is_other.then(|| g.ports[p].key.as_str()),
        bound,
        all: g.ports.iter().map(|x| x.key.as_str()).collect(),
    };
    let mut view = ClassAd::with_capacity(g.ad.len() + port.len());
    let mut ad_spec: Option<Arc<ClassAd>> = None;
    for (n, e) in g.ad.iter() {
        if n.eq_ignore_ascii_case("Ports") || port.position(n).is_some() {
            continue;
        }
        let e = if e.as_literal().is_some() {
            e.clone()
        } else {
            let my = ad_spec.get_or_insert_with(|| g.ad.clone()).clone();
            let s = specialize(
                e,
                &SpecContext {
                    my,
                    target: None,
                    opts,
                },
            );
            if s.as_literal().is_none() && reads_any(&s, &port_keys) {
                unknown()
            } else {
                labels.rewrite(&s, 0)
            }
        };
        view.insert(n, e);
    }
    for (n, e) in port.iter() {
        if n.eq_ignore_ascii_case("Label") {
            continue;
        }
        view.insert(n, labels.rewrite(e, 0));
    }
    Arc::new(view)
}

/// What a counterpart docked at port `p` of `g` shows through a label: each
/// attribute of its view that is a constant, the rest (and its labels)
/// opaque. It does not depend on the gang, so it can be cached.
pub fn snapshot(g: &GangAd, p: usize, opts: EvalOptions) -> Arc<ClassAd> {
    let view = port_ad(g, p, &[], false, opts);
    let mut snap = ClassAd::with_capacity(view.len() + g.ports.len());
    for (n, e) in view.iter() {
        let v = match e.as_literal() {
            Some(_) => e.clone(),
            None => {
                let s = specialize(
                    e,
                    &SpecContext {
                        my: view.clone(),
                        target: None,
                        opts,
                    },
                );
                if s.as_literal().is_some() {
                    s
                } else {
                    unknown()
                }
            }
        };
        snap.insert(n, v);
    }
    if !g.implicit {
        // Past the port and the ad, a lookup reaches the counterpart's own
        // labels.
        for port in &g.ports {
            if snap.position(&port.label).is_none() {
                snap.insert(&port.label, unknown());
            }
        }
    }
    Arc::new(snap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gang::model::ports_of;
    use crate::index::rectangle::{own_value, rectangles_scoped, Point};
    use crate::lang::parser::parse_classad;

    fn gad(s: &str) -> GangAd {
        ports_of(&Arc::new(parse_classad(s).unwrap())).unwrap()
    }

    const JOB: &str = "[ Ports = { [ Label = Cpu; ImageSize = 100; MemoryReqs = 30; \
        Constraint = Cpu.Arch == \"INTEL\" && Cpu.VirtualMemory > ImageSize ], \
        [ Label = License; HostId = Cpu.Key + 10; Constraint = License.App == \"sim_app\" ] } ]";
    const MACHINE: &str = "[ Key = 143; Arch = \"INTEL\"; Memory = 64; \
        Ports = { [ Label = Job; Constraint = Job.MemoryReqs < Memory - 15 ] } ]";

    #[test]
    fn labels_become_other_snapshots_or_opaque() {
        let opts = EvalOptions::default();
        let job = gad(JOB);
        let machine = gad(MACHINE);
        let cpu = port_ad(&job, 0, &[], true, opts);
        let r = rectangles_scoped(&cpu, opts, false);
        assert_eq!(r.rectangles.len(), 1);
        let keys: Vec<&str> = r.rectangles[0].exp.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["arch", "virtualmemory"]);
        assert_eq!(own_value(&cpu, "MemoryReqs", opts), Point::Number(30.0));
        // The license port before the cpu is docked: HostId is unknown.
        let lic = port_ad(&job, 1, &[], true, opts);
        assert_eq!(own_value(&lic, "HostId", opts), Point::Deviant);
        // … and once it is, the machine's Key shows through the label.
        let snap = snapshot(&machine, 0, opts);
        let lic = port_ad(&job, 1, &[("cpu".into(), snap)], true, opts);
        assert_eq!(own_value(&lic, "HostId", opts), Point::Number(153.0));
        // The machine's port: Job is the counterpart, Memory its own.
        let m = port_ad(&machine, 0, &[], true, opts);
        let r = rectangles_scoped(&m, opts, false);
        assert_eq!(r.rectangles[0].exp[0].describe(), "MemoryReqs < 49");
        assert_eq!(own_value(&m, "Key", opts), Point::Number(143.0));
    }

    #[test]
    fn shadowing_and_scope_words_stay_sound() {
        let opts = EvalOptions::default();
        // The ad's X reads the ad's Y (1), not the port's Y (5).
        let g = gad(
            "[ Y = 1; X = Y + 1; Z = Y + W; Ports = { [ Label = A; Y = 5; W = 2; \
                     Constraint = A.v == X && other.q == 1 && MY.r == 2 ] } ]",
        );
        let v = port_ad(&g, 0, &[], true, opts);
        assert_eq!(own_value(&v, "X", opts), Point::Number(2.0));
        assert_eq!(own_value(&v, "Y", opts), Point::Number(5.0));
        // Z reads W, which only the port defines: opaque, not 1 + 2.
        assert_eq!(own_value(&v, "Z", opts), Point::Deviant);
        let r = rectangles_scoped(&v, opts, false);
        assert_eq!(r.rectangles.len(), 1);
        let keys: Vec<&str> = r.rectangles[0].exp.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["v"]);
        assert!(r.rectangles[0].exp_deviant);
    }
}
