//! Ads compiled for matchmaking: each attribute's expression is
//! specialized against its own ad once (thesis §2.6.1), so that matching
//! a pair only looks at the other ad.
//!
//! Compiling an ad's attribute
//! * inlines references to the ad's own attributes (`Memory`, `MY.Memory`)
//!   and folds every subexpression that depends on the ad alone to a
//!   constant (`Memory - 15` becomes `113`);
//! * turns references into the other ad (`TARGET.Memory`, or in HTCondor
//!   mode a name the ad lacks) into direct lookups by precomputed hash;
//! * keeps operators, conditionals and pure functions, which run on the
//!   evaluator's own operator and function implementations.
//!
//! Anything else (nested records, lists, scope words such as `parent`,
//! the clock, pool-supplied functions, circular references, and the
//! unlikely expressions that would blow the work budget) compiles to
//! [`Node::Bail`]: evaluating it gives up, and the caller evaluates the
//! original expression with the general [`Evaluator`] instead. So the
//! compiled form never answers differently from the evaluator; it is only
//! faster when it answers at all (tests/compiled.rs checks this on
//! generated ads).

mod bound;
mod columns;
mod compile;
mod fingerprint;
mod run;
mod template;

use std::sync::Arc;

use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Name, UnaryOp};
use crate::lang::eval::{EvalOptions, Evaluator, Mode};
use crate::lang::value::Value;
pub use bound::Bound;
pub use columns::{Columns, Prefilter};
use compile::Compiler;
use run::{run, truth};
pub use template::compile_pool;

/// A compiled expression.
#[derive(Clone, Debug)]
enum Node {
    Const(Value),
    /// An attribute of the other ad of the match.
    Other(OtherName),
    /// `TARGET.name op konst` (or `konst op TARGET.name` when
    /// `konst_left`), `op` a comparison: the commonest requirement.
    CmpOther {
        op: BinaryOp,
        name: OtherName,
        konst: Value,
        konst_left: bool,
    },
    Unary(UnaryOp, Box<Node>),
    /// Any operator but `&&` and `||`.
    Binary(BinaryOp, Box<Node>, Box<Node>),
    /// `a && b && …` / `a || b || …` as written (left to right); its
    /// value is a boolean, undefined or error, like the operators'.
    Chain(run::Chain, Vec<Node>),
    Cond(Box<Node>, Box<Node>, Box<Node>),
    Elvis(Box<Node>, Box<Node>),
    /// `isInteger(x)` and the other type predicates.
    IsKind(crate::lang::value::ValueKind, Box<Node>),
    /// A pure function (see `compile::is_pure`) with its arguments.
    Call(u16, Vec<Node>),
    /// An attribute of the ad itself that does not fold (shared, not
    /// copied, by every reference to it).
    Own(Arc<Node>),
    /// A literal attribute of the ad itself, the ad's `params[i]`:
    /// templates (`template`) leave literals as parameters so that ads
    /// differing only in them share a compilation.
    Param(u32),
    /// Beyond the compiled form: the evaluator must do it.
    Bail,
}

/// A name looked up in the other ad, with where it was there last time.
/// Ads of one pool mostly list their attributes in the same order, so
/// the last answer usually holds: for an ad of the same layout (see
/// [`CompiledAd::layout`]) it holds without reading the ad at all, even
/// when the name is absent; otherwise the position is checked first,
/// which usually saves the hash lookup.
#[derive(Debug)]
struct OtherName {
    name: Name,
    /// Per slot (a layout id's lowest bit): the layout and the position
    /// (or [`ABSENT`]) of the last lookup in an ad of that slot, packed so
    /// that threads sharing a compilation never see one without the other.
    /// Two slots: pools mostly hold two kinds of ad (idle and claimed
    /// slots), whose ids a pool's compilation makes consecutive; a cached
    /// answer is then written once, not at every change of kind (which two
    /// threads surveying at once would fight over).
    guess: [std::sync::atomic::AtomicU64; 2],
}

/// A position meaning "the ad lacks the name".
const ABSENT: u32 = u32::MAX;

impl OtherName {
    fn new(name: Name) -> OtherName {
        use std::sync::atomic::AtomicU64;
        OtherName {
            name,
            guess: [AtomicU64::new(ABSENT as u64), AtomicU64::new(ABSENT as u64)],
        }
    }

    /// The attribute's position in `other`.
    #[inline]
    fn find(&self, other: &CompiledAd) -> Option<u32> {
        use std::sync::atomic::Ordering::Relaxed;
        let slot = &self.guess[(other.layout & 1) as usize];
        let packed = slot.load(Relaxed);
        let (layout, g) = ((packed >> 32) as u32, packed as u32);
        if layout == other.layout && layout != NO_LAYOUT {
            return (g != ABSENT).then_some(g);
        }
        let ad = &*other.ad;
        let found = if (g as usize) < ad.len() && Arc::ptr_eq(ad.key_at(g), &self.name.key) {
            Some(g)
        } else {
            ad.position_name(&self.name)
        };
        let pos = found.unwrap_or(ABSENT);
        slot.store(((other.layout as u64) << 32) | pos as u64, Relaxed);
        found
    }
}

impl Clone for OtherName {
    fn clone(&self) -> OtherName {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        OtherName {
            name: self.name.clone(),
            guess: [
                AtomicU64::new(self.guess[0].load(Relaxed)),
                AtomicU64::new(self.guess[1].load(Relaxed)),
            ],
        }
    }
}

/// The layout id no lookup trusts (ids ran out, or none was given).
const NO_LAYOUT: u32 = 0;

/// A layout id no other ad has.
fn fresh_layout() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
    static NEXT: AtomicU32 = AtomicU32::new(1);
    // Past u32::MAX ids (never, in practice) lookups just stop trusting.
    NEXT.fetch_update(Relaxed, Relaxed, |n| n.checked_add(1))
        .unwrap_or(NO_LAYOUT)
}

/// Most nodes one compiled attribute may stand for, counting a shared
/// attribute once per reference (`a = b + b; b = c + c; …` doubles at
/// each step).
const MAX_NODES: usize = 2048;

/// Most evaluations of the other ad's attributes per top-level
/// evaluation (references back and forth between the ads).
const MAX_HOPS: u32 = 64;

/// An ad with every attribute compiled against itself.
pub struct CompiledAd {
    pub ad: Arc<ClassAd>,
    /// Per attribute position: `None` for a literal value (shared by the
    /// ads of one template).
    attrs: Arc<[Option<Arc<Node>>]>,
    /// Position of the requirements attribute.
    requirements: Option<u32>,
    mode: Mode,
    /// A template's parameters: this ad's values of them, copied out of
    /// the ad (as `literal_value` gives them) so runs read one small block.
    params: Box<[Value]>,
    /// Ads with the same layout id name the same attributes in the same
    /// order (one id per distinct list in a pool, see `compile_pool`).
    layout: u32,
}

impl std::fmt::Debug for CompiledAd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledAd").field("ad", &self.ad).finish()
    }
}

impl CompiledAd {
    /// Compile `ad` for evaluation with `opts` (the mode decides how names
    /// the ad lacks are looked up); `requirements` names the attribute that
    /// states its requirements, the first the ad defines.
    pub fn new(ad: Arc<ClassAd>, opts: EvalOptions, requirements: &[&str]) -> CompiledAd {
        let attrs = compile_attrs(&mut Compiler::new(&ad, opts), &ad, requirements);
        CompiledAd {
            requirements: requirements.iter().find_map(|n| ad.position(n)),
            ad,
            attrs,
            mode: opts.mode,
            params: Box::new([]),
            layout: fresh_layout(),
        }
    }

    /// Evaluate attribute `name` with `target` as the other ad, as
    /// `Evaluator::eval_attr` would after `set_ads(self, target)`.
    /// `ev` must have the options the ads were compiled with.
    pub fn eval_attr(&self, name: &Name, target: &CompiledAd, ev: &mut Evaluator) -> Value {
        match self.ad.position_name(name) {
            Some(i) => self.eval_at(i, target, ev),
            None => Value::Undefined,
        }
    }

    /// The ad's requirements with `target` as the other ad (undefined
    /// when it states none).
    pub fn requirements_value(&self, target: &CompiledAd, ev: &mut Evaluator) -> Value {
        match self.requirements {
            Some(i) => self.eval_at(i, target, ev),
            None => Value::Undefined,
        }
    }

    /// HTCondor's rule: the requirements accept when `true` or a non-zero
    /// number.
    #[inline]
    pub fn accepts(&self, target: &CompiledAd, ev: &mut Evaluator) -> bool {
        let Some(i) = self.requirements else {
            return false;
        };
        let mut hops = 0;
        let fast = match &self.attrs[i as usize] {
            None => return literal_value(&self.ad.at(i).1.kind).is_true(),
            Some(node) => truth(node, self, target, ev, &mut hops)
                .map(|t| t == crate::lang::eval::ops::Truth::True),
        };
        fast.unwrap_or_else(|| self.eval_at(i, target, ev).is_true())
    }

    fn eval_at(&self, i: u32, target: &CompiledAd, ev: &mut Evaluator) -> Value {
        debug_assert_eq!(ev.mode(), self.mode, "compiled for another mode");
        let mut hops = 0;
        let fast = match &self.attrs[i as usize] {
            None => Some(literal_value(&self.ad.at(i).1.kind)),
            Some(node) => run(node, self, target, ev, &mut hops),
        };
        fast.unwrap_or_else(|| {
            ev.set_ads(Some(self.ad.clone()), Some(target.ad.clone()));
            ev.eval_attr(self.ad.at(i).0)
        })
    }

    /// Whether the requirements are true for no other ad at all: they are
    /// missing, or one of their `&&` clauses reads nothing of the other ad
    /// and is not true (an `&&` chain is true only when every clause is).
    /// A machine whose `START` has `KeyboardIdle > 15 * 60` while its
    /// keyboard is busy accepts no job; a cycle need not ask it.
    pub fn rejects_every_ad(&self, ev: &mut Evaluator) -> bool {
        let Some(i) = self.requirements else {
            return true;
        };
        let Some(node) = &self.attrs[i as usize] else {
            return !literal_value(&self.ad.at(i).1.kind).is_true();
        };
        let mut node: &Node = node;
        while let Node::Own(n) = node {
            node = n;
        }
        let clauses = match node {
            Node::Chain(run::Chain::All, items) => &items[..],
            n => std::slice::from_ref(n),
        };
        compile::with_empty_ad(|empty| {
            clauses.iter().filter(|c| reads_own_ad_only(c)).any(|c| {
                let mut hops = 0;
                truth(c, self, empty, ev, &mut hops)
                    .is_some_and(|t| t != crate::lang::eval::ops::Truth::True)
            })
        })
    }

    /// An id shared by ads compiled as one shape (`compile_pool`): same
    /// attribute names in the same order, literals at the same positions,
    /// the same expressions elsewhere. Other ads' ids are their own.
    pub fn shape(&self) -> usize {
        Arc::as_ptr(&self.attrs) as *const () as usize
    }

    /// Whether the requirements compiled whole: no part of them is left
    /// to the evaluator (which would answer the same, only slower).
    pub fn requirements_compiled(&self) -> bool {
        fn whole(n: &Node) -> bool {
            match n {
                Node::Const(_) | Node::Other(_) | Node::CmpOther { .. } | Node::Param(_) => true,
                Node::Unary(_, a) | Node::IsKind(_, a) => whole(a),
                Node::Binary(_, a, b) | Node::Elvis(a, b) => whole(a) && whole(b),
                Node::Cond(c, a, b) => whole(c) && whole(a) && whole(b),
                Node::Chain(_, items) | Node::Call(_, items) => items.iter().all(whole),
                Node::Own(n) => whole(n),
                Node::Bail => false,
            }
        }
        match self.requirements {
            Some(i) => self.attrs[i as usize].as_deref().is_none_or(whole),
            None => true,
        }
    }
}

/// Whether a node reads nothing of the other ad (and can be run).
fn reads_own_ad_only(n: &Node) -> bool {
    match n {
        Node::Const(_) | Node::Param(_) => true,
        Node::Unary(_, a) | Node::IsKind(_, a) => reads_own_ad_only(a),
        Node::Binary(_, a, b) | Node::Elvis(a, b) => reads_own_ad_only(a) && reads_own_ad_only(b),
        Node::Cond(c, a, b) => reads_own_ad_only(c) && reads_own_ad_only(a) && reads_own_ad_only(b),
        Node::Chain(_, items) | Node::Call(_, items) => items.iter().all(reads_own_ad_only),
        Node::Own(n) => reads_own_ad_only(n),
        Node::Other(_) | Node::CmpOther { .. } | Node::Bail => false,
    }
}

/// The attributes of `ad` that matchmaking evaluates — its requirements
/// (the first of `requirements` it defines), its `Rank` and what they read
/// of the ad — compiled; `None` for a literal, [`unread`] for the rest,
/// which are left unparsed (a production slot ad defines ~850 attributes
/// and its `START` reads a few dozen). Evaluating one of those gives up
/// like [`Node::Bail`], so the general evaluator answers.
fn compile_attrs(
    c: &mut Compiler,
    ad: &ClassAd,
    requirements: &[&str],
) -> Arc<[Option<Arc<Node>>]> {
    let requirements = requirements.iter().find_map(|n| c.root(n));
    let rank = c.root("Rank");
    for i in requirements.into_iter().chain(rank) {
        if !ad.is_literal(i) {
            c.attr(i);
        }
    }
    let unread = unread();
    (0..ad.len() as u32)
        .map(|i| (!ad.is_literal(i)).then(|| c.compiled(i).unwrap_or_else(|| unread.clone())))
        .collect()
}

/// The node of attributes [`compile_attrs`] left alone: a [`Node::Bail`]
/// that [`Compiler::with_attrs`] knows to compile when something reads it.
fn unread() -> Arc<Node> {
    UNREAD.clone()
}

static UNREAD: std::sync::LazyLock<Arc<Node>> = std::sync::LazyLock::new(|| Arc::new(Node::Bail));

fn is_unread(n: &Arc<Node>) -> bool {
    Arc::ptr_eq(n, &UNREAD)
}

/// An expression from outside the ads (a docking-vector component, say)
/// compiled against the ad it is evaluated in.
pub struct CompiledExpr {
    expr: Expr,
    node: Node,
}

impl CompiledExpr {
    pub fn new(expr: &Expr, my: &CompiledAd, opts: EvalOptions) -> CompiledExpr {
        let mut c = Compiler::with_attrs(&my.ad, opts, &my.attrs);
        let (node, size) = c.expr(expr);
        CompiledExpr {
            expr: expr.clone(),
            node: if size > MAX_NODES { Node::Bail } else { node },
        }
    }

    /// Evaluate with `my` (the ad it was compiled against) as scope and
    /// `target` as the other ad.
    pub fn eval(&self, my: &CompiledAd, target: &CompiledAd, ev: &mut Evaluator) -> Value {
        let mut hops = 0;
        run(&self.node, my, target, ev, &mut hops).unwrap_or_else(|| {
            ev.set_ads(Some(my.ad.clone()), Some(target.ad.clone()));
            ev.eval_expr(&self.expr)
        })
    }
}

/// The value of a literal attribute, as the evaluator gives it.
pub(crate) fn literal_value(kind: &ExprKind) -> Value {
    match kind {
        // libclassad evaluates a relative-time literal to its seconds.
        ExprKind::Literal(Value::RelTime(t)) => Value::Real(*t),
        ExprKind::Literal(v) => v.clone(),
        _ => Value::Error,
    }
}
