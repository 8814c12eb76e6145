//! Ads that differ only in their literal values share one compilation.
//!
//! A pool's slots mostly carry the same policy expressions (`START`,
//! `Requirements`) over their own literals (`Memory`, `LoadAvg`,
//! `KeyboardIdle`), so compiling each ad against itself (microseconds an
//! ad, and a parse of each policy expression) repeats the same work. Here
//! the first ad of each shape is compiled with its literal attributes left
//! as [`Node::Param`]s (nothing folded on them) and every ad of that shape
//! runs that compilation on its own values of them (copied out once: runs
//! then read one small block, not the ad).
//!
//! What a compilation depends on besides literal values is recorded while
//! it compiles: every name it looked up in the ad and whether the ad
//! defines it, as a literal or as which expression. Another ad has the
//! template's shape when each of those lookups finds the same there — the
//! other hundreds of attributes a production slot carries, and their
//! order, do not matter (they are evaluated in each ad itself, see
//! [`super::unread`]). Expressions are compared by their text when both
//! ads were read lazily from one source (equal text, equal expression: no
//! parse), else in full, not by hash.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::compile::Compiler;
use super::{compile_attrs, literal_value, unread, CompiledAd, Node};
use crate::lang::ast::{ClassAd, Expr, ExprKind, Name};
use crate::lang::eval::EvalOptions;
use crate::lang::value::Value;

/// Shapes compiled before further ads are compiled each on its own (a pool
/// whose every ad differs gains nothing from templates).
const MAX_TEMPLATES: usize = 512;

/// Templates with the same requirements tried for an ad before it gets a
/// template of its own.
const TRIED_PER_ROOT: usize = 8;

/// Nesting compared before two expressions count as different.
const MAX_DEPTH: u32 = 400;

struct Template {
    rep: Arc<ClassAd>,
    /// `rep`'s compiled attributes, by position: shared by the ads that
    /// name the same attributes in the same order, literals alike.
    attrs: Arc<[Option<Arc<Node>>]>,
    /// The compiled (non-literal) attributes by folded name, for ads laid
    /// out differently.
    by_key: FxHashMap<Arc<str>, Arc<Node>>,
    layout: u32,
    /// What the compilation looked up in `rep`, and where `rep` has it.
    deps: Vec<(Name, Option<u32>)>,
    /// The literals its [`Node::Param`]s read, by name.
    params: Vec<Name>,
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
        by_root: FxHashMap::default(),
        recent: [usize::MAX; 4],
        opts,
        requirements,
    };
    let mut layouts = Layouts::default();
    ads.iter()
        .map(|ad| {
            let layout = layouts.id(ad);
            match shapes.template(ad, layout) {
                Some(t) => shapes.templates[t].instance(ad, layout, opts, requirements),
                None => CompiledAd {
                    layout,
                    ..CompiledAd::new(ad.clone(), opts, requirements)
                },
            }
        })
        .collect()
}

impl Template {
    /// `ad` (of this template's shape) compiled.
    fn instance(
        &self,
        ad: &Arc<ClassAd>,
        layout: u32,
        opts: EvalOptions,
        requirements: &[&str],
    ) -> CompiledAd {
        let same_layout = layout == self.layout
            && layout != super::NO_LAYOUT
            && (0..ad.len() as u32).all(|i| ad.is_literal(i) == self.rep.is_literal(i));
        let attrs = if same_layout {
            self.attrs.clone()
        } else {
            let unread = unread();
            (0..ad.len() as u32)
                .map(|i| {
                    (!ad.is_literal(i)).then(|| {
                        self.by_key
                            .get(ad.key_at(i))
                            .cloned()
                            .unwrap_or_else(|| unread.clone())
                    })
                })
                .collect()
        };
        CompiledAd {
            layout,
            ad: ad.clone(),
            attrs,
            requirements: requirements.iter().find_map(|n| ad.position(n)),
            mode: opts.mode,
            params: self
                .params
                .iter()
                .map(|n| match ad.position_name(n) {
                    Some(i) => literal_value(&ad.at(i).1.kind),
                    None => Value::Error,
                })
                .collect(),
        }
    }

    /// Whether `ad` has this template's shape: each of its lookups finds
    /// the same in `ad` (absent, a literal, or the same expression).
    fn fits(&self, ad: &ClassAd) -> bool {
        let rep = &*self.rep;
        self.deps
            .iter()
            .all(|(name, at)| match (*at, ad.position_name(name)) {
                (None, None) => true,
                (Some(i), Some(j)) => match (rep.is_literal(i), ad.is_literal(j)) {
                    (true, true) => true,
                    (false, false) => same_definition(rep, i, ad, j),
                    _ => false,
                },
                _ => false,
            })
    }
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
    /// By the ad's requirements (see [`root_key`]): templates to try.
    by_root: FxHashMap<u64, Vec<usize>>,
    /// The shapes used last, latest first: pools interleave a few (idle
    /// and claimed slots), so most ads match one without hashing.
    recent: [usize; 4],
    opts: EvalOptions,
    requirements: &'r [&'r str],
}

impl Shapes<'_> {
    /// The template of `ad`'s shape, compiled from `ad` when it is the
    /// first of its shape; `None` past [`MAX_TEMPLATES`].
    fn template(&mut self, ad: &Arc<ClassAd>, layout: u32) -> Option<usize> {
        let t = match self
            .recent
            .iter()
            .position(|&t| t < self.templates.len() && self.templates[t].fits(ad))
        {
            Some(k) => self.recent[k],
            None => {
                let root = root_key(ad, self.requirements);
                // The latest few with these requirements (a pool of many
                // shapes per requirements gets more templates, not a
                // longer search).
                let found = self.by_root.get(&root).and_then(|ts| {
                    ts.iter()
                        .rev()
                        .take(TRIED_PER_ROOT)
                        .copied()
                        .find(|&t| self.templates[t].fits(ad))
                });
                match found {
                    Some(t) => t,
                    None if self.templates.len() < MAX_TEMPLATES => {
                        let mut c = Compiler::template(ad, self.opts);
                        let attrs = compile_attrs(&mut c, ad, self.requirements);
                        let by_key = (0..ad.len() as u32)
                            .filter_map(|i| Some((ad.key_at(i).clone(), c.compiled(i)?)))
                            .collect();
                        let params = c
                            .params()
                            .iter()
                            .map(|&i| Name::new(ad.name_at(i)))
                            .collect();
                        self.templates.push(Template {
                            rep: ad.clone(),
                            attrs,
                            by_key,
                            layout,
                            deps: c.deps().to_vec(),
                            params,
                        });
                        let t = self.templates.len() - 1;
                        self.by_root.entry(root).or_default().push(t);
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

/// A hash of which requirements attribute `ad` defines and its text (or
/// its expression, for an ad not read lazily): only narrows the search,
/// shapes are compared in full.
fn root_key(ad: &ClassAd, requirements: &[&str]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    if let Some((k, i)) = requirements
        .iter()
        .enumerate()
        .find_map(|(k, n)| Some((k, ad.position(n)?)))
    {
        k.hash(&mut h);
        if ad.is_literal(i) {
            true.hash(&mut h);
        } else {
            match ad.definition_text(i) {
                Some(text) => text.hash(&mut h),
                None => crate::matchmaking::autocluster::hash_expr(ad.at(i).1, &mut h),
            }
        }
    }
    h.finish()
}

/// Whether attribute `i` of `a` and `j` of `b` are the same expression:
/// by their text when both were read from one source, else compared.
fn same_definition(a: &ClassAd, i: u32, b: &ClassAd, j: u32) -> bool {
    if a.same_source(b) {
        if let (Some(x), Some(y)) = (a.definition_text(i), b.definition_text(j)) {
            if x == y {
                return true;
            }
        }
    }
    same_expr(a.at(i).1, b.at(j).1, 0)
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
