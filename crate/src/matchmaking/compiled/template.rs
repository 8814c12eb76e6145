//! Ads that differ only in their literal values share one compilation.
//!
//! A pool's slots mostly carry the same policy expressions (`START`,
//! `Requirements`) over their own literals (`Memory`, `LoadAvg`,
//! `KeyboardIdle`), so compiling each ad against itself (microseconds an
//! ad) repeats the same work. Here the first ad of each shape is compiled
//! with its literal attributes left as [`Node::Param`]s (nothing folded on
//! them) and every ad of that shape runs that compilation on its own values
//! of them (copied out once: runs then read one small block, not the ad).
//! Two ads have the same shape when they name the same
//! attributes in the same order, the same ones are literals, and every
//! other definition is the same expression (compared in full, not by
//! hash). Everything a compilation depends on besides literal values
//! (which names the ad defines, where, and their expressions) is then the
//! same, so it answers for either ad as the ad's own compilation would.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::compile::Compiler;
use super::{compile_attrs, literal_value, CompiledAd, Node};
use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::eval::EvalOptions;
use crate::lang::value::Value;

/// Shapes compiled before further ads are compiled each on its own (a pool
/// whose every ad differs gains nothing from templates).
const MAX_TEMPLATES: usize = 512;

/// Nesting compared before two expressions count as different.
const MAX_DEPTH: u32 = 400;

struct Template {
    rep: Arc<ClassAd>,
    attrs: Arc<[Option<Arc<Node>>]>,
    requirements: Option<u32>,
    /// Positions of the literals its [`Node::Param`]s read.
    params: Vec<u32>,
}

/// Every ad compiled, one compilation per shape: the same answers as
/// [`CompiledAd::new`] for each (both are the evaluator's, see
/// `crate/tests/compiled.rs`) at a fraction of the cost on a pool.
pub fn compile_pool(
    ads: &[Arc<ClassAd>],
    opts: EvalOptions,
    requirements: &[&str],
) -> Vec<CompiledAd> {
    let mut shapes = Shapes {
        templates: vec![],
        by_layout: FxHashMap::default(),
        recent: [usize::MAX; 4],
        opts,
        requirements,
    };
    let mut layouts = Layouts::default();
    ads.iter()
        .map(|ad| match shapes.template(ad) {
            Some(t) => {
                let t = &shapes.templates[t];
                CompiledAd {
                    layout: layouts.id(ad),
                    ad: ad.clone(),
                    attrs: t.attrs.clone(),
                    requirements: t.requirements,
                    mode: opts.mode,
                    params: t
                        .params
                        .iter()
                        .map(|&i| literal_value(&ad.at(i).1.kind))
                        .collect(),
                }
            }
            None => CompiledAd {
                layout: layouts.id(ad),
                ..CompiledAd::new(ad.clone(), opts, requirements)
            },
        })
        .collect()
}

/// One layout id per distinct list of attribute names (by their interned
/// keys, so equal lists are found by pointer).
#[derive(Default)]
struct Layouts {
    ids: FxHashMap<Box<[usize]>, u32>,
    last: Option<(Arc<ClassAd>, u32)>,
}

impl Layouts {
    fn id(&mut self, ad: &Arc<ClassAd>) -> u32 {
        let keys = |ad: &ClassAd| -> Box<[usize]> {
            (0..ad.len() as u32)
                .map(|i| Arc::as_ptr(ad.key_at(i)) as *const u8 as usize)
                .collect()
        };
        if let Some((last, id)) = &self.last {
            let same = last.len() == ad.len()
                && (0..ad.len() as u32).all(|i| Arc::ptr_eq(last.key_at(i), ad.key_at(i)));
            if same {
                return *id;
            }
        }
        // The keys live as long as the ads, which outlive this map.
        let id = *self.ids.entry(keys(ad)).or_insert_with(super::fresh_layout);
        self.last = Some((ad.clone(), id));
        id
    }
}

struct Shapes<'r> {
    templates: Vec<Template>,
    /// By layout (names and which are literals): candidates to compare.
    by_layout: FxHashMap<u64, Vec<usize>>,
    /// The shapes used last, latest first: pools interleave a few (idle
    /// and claimed slots), so most ads match one without hashing.
    recent: [usize; 4],
    opts: EvalOptions,
    requirements: &'r [&'r str],
}

impl Shapes<'_> {
    /// The template of `ad`'s shape, compiled from `ad` when it is the
    /// first of its shape; `None` past [`MAX_TEMPLATES`].
    fn template(&mut self, ad: &Arc<ClassAd>) -> Option<usize> {
        let fits = |t: usize| same_shape(&self.templates[t], ad);
        let t = match self
            .recent
            .iter()
            .position(|&t| t < self.templates.len() && fits(t))
        {
            Some(k) => self.recent[k],
            None => {
                let layout = layout_hash(ad);
                // The latest few of a layout (a pool of many shapes per
                // layout gets more templates, not a longer search).
                let found = self
                    .by_layout
                    .get(&layout)
                    .and_then(|ts| ts.iter().rev().take(8).copied().find(|&t| fits(t)));
                match found {
                    Some(t) => t,
                    None if self.templates.len() < MAX_TEMPLATES => {
                        let mut c = Compiler::template(ad, self.opts);
                        let attrs = compile_attrs(&mut c, ad, self.requirements);
                        self.templates.push(Template {
                            rep: ad.clone(),
                            attrs,
                            requirements: self.requirements.iter().find_map(|n| ad.position(n)),
                            params: c.params().to_vec(),
                        });
                        let t = self.templates.len() - 1;
                        self.by_layout.entry(layout).or_default().push(t);
                        t
                    }
                    None => return None,
                }
            }
        };
        if self.recent[0] != t {
            let k = self
                .recent
                .iter()
                .position(|&r| r == t)
                .unwrap_or(self.recent.len() - 1);
            self.recent.copy_within(0..k, 1);
            self.recent[0] = t;
        }
        Some(t)
    }
}

/// A hash of the attribute names (by their interned keys) and which are
/// literals. Only narrows the search: shapes are compared in full.
fn layout_hash(ad: &ClassAd) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    for i in 0..ad.len() as u32 {
        (Arc::as_ptr(ad.key_at(i)) as *const u8 as usize).hash(&mut h);
        ad.is_literal(i).hash(&mut h);
    }
    h.finish()
}

/// Whether `b` has `t`'s shape. Only the expressions the template compiled
/// are compared: the ones it left unread are evaluated in each ad itself,
/// and the same roots over the same compiled expressions reach the same
/// attributes in either ad.
fn same_shape(t: &Template, b: &ClassAd) -> bool {
    let a = &*t.rep;
    a.len() == b.len()
        && (0..a.len() as u32).all(|i| {
            let (ka, kb) = (a.key_at(i), b.key_at(i));
            (Arc::ptr_eq(ka, kb) || ka == kb)
                && match (a.is_literal(i), b.is_literal(i)) {
                    (true, true) => true,
                    (false, false) => match &t.attrs[i as usize] {
                        Some(n) if super::is_unread(n) => true,
                        _ => same_expr(a.at(i).1, b.at(i).1, 0),
                    },
                    _ => false,
                }
        })
}

/// The same expression, up to spans and the spelling of names (lookups
/// fold case). Kinds the compiler does not handle count as different.
fn same_expr(a: &Expr, b: &Expr, depth: u32) -> bool {
    use ExprKind::*;
    if depth > MAX_DEPTH {
        return false;
    }
    let same = |x: &Expr, y: &Expr| same_expr(x, y, depth + 1);
    match (&a.kind, &b.kind) {
        (Literal(x), Literal(y)) => same_value(x, y),
        (
            Attr {
                name: n,
                absolute: x,
            },
            Attr {
                name: m,
                absolute: y,
            },
        ) => x == y && n.key == m.key,
        (Select(x, n), Select(y, m)) => n.key == m.key && same(x, y),
        (Unary(o, x), Unary(p, y)) => o == p && same(x, y),
        (Binary(o, x1, x2), Binary(p, y1, y2)) => o == p && same(x1, y1) && same(x2, y2),
        (Cond(c, x1, x2), Cond(d, y1, y2)) => same(c, d) && same(x1, y1) && same(x2, y2),
        (Elvis(x1, x2), Elvis(y1, y2)) => same(x1, y1) && same(x2, y2),
        (Paren(x), Paren(y)) => same(x, y),
        (Call(c), Call(d)) => {
            c.func == d.func
                && c.name == d.name
                && c.args.len() == d.args.len()
                && c.args.iter().zip(d.args.iter()).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// Literals the compiler folds: identical values (reals by their bits).
fn same_value(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Undefined, Value::Undefined) | (Value::Error, Value::Error) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Int(a), Value::Int(b)) => a == b,
        (Value::Real(a), Value::Real(b)) | (Value::RelTime(a), Value::RelTime(b)) => {
            a.to_bits() == b.to_bits()
        }
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::AbsTime(a), Value::AbsTime(b)) => a == b,
        _ => false,
    }
}
