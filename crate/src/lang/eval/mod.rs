//! The evaluator: scoping (thesis §2.5), attribute lookup with HTCondor's
//! match context, per-evaluation caching (which also makes circular and
//! exponentially shared references cheap), and dispatch to operators and
//! functions.

pub mod bounds;
mod error_cause;
mod match_ad;
pub mod ops;
mod scope;
pub use scope::NotARecord;
pub mod trace;
mod trace_wire;

use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, Expr, ExprKind, Name};
// Scopes are data (values close over them), defined with the values; the
// evaluator is what searches them.
pub use crate::lang::ast::{Env, Frame, Side};
pub use crate::lang::mode::Mode;
use crate::lang::time::Clock;
use crate::lang::value::{ListValue, RecordValue, Value};
use match_ad::match_context_ad;
pub use trace::TraceNode;

/// How to evaluate: the semantics and the clock. Every request that
/// evaluates carries one, flattened into its JSON (`"mode"`, `"now"`,
/// `"tz_offset"`, each optional).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvalOptions {
    #[serde(default)]
    pub mode: Mode,
    #[serde(flatten)]
    pub clock: Clock,
}

impl EvalOptions {
    /// `mode` with the real clock and zone.
    pub fn in_mode(mode: Mode) -> EvalOptions {
        EvalOptions {
            mode,
            ..Default::default()
        }
    }

    /// `mode` at a pinned clock and zone.
    pub fn at(mode: Mode, now: f64, tz_offset: i32) -> EvalOptions {
        EvalOptions {
            mode,
            clock: Clock::fixed(now, tz_offset),
        }
    }
}

/// The cache is keyed by (ad address, attribute position).
type CacheKey = (usize, u32);

/// A cache entry holds its ad alive: ads built during an evaluation (the
/// record `splitTime()` returns, say) are freed afterwards, and a new one
/// at the same address must not find the old one's values.
enum Slot {
    InProgress(#[allow(dead_code)] Arc<ClassAd>),
    Done(Value, #[allow(dead_code)] Arc<ClassAd>),
}

/// Deepest evaluation recursion before giving up with `error` (libclassad
/// has the same kind of guard, and stops chains of attribute references
/// 200–300 long), in units of roughly 300 bytes of a wasm engine's native
/// stack: an expression node costs 1, an attribute reference 2 more, a
/// function call 1 more. A Web Worker in Chromium has the smallest stack
/// the engine runs on: there a chain `a0 = a1 + 1; a1 = a2 + 1; …` of 500
/// traps (1,200 on a page's main thread), one of `a0 = a1; …` of 700 does
/// not. The bound stops them at 300 and 400. Chains of binary operators
/// cost no depth at all (see `binary_chain`), so a tree as deep as the
/// parser allows (2,000) still evaluates. The same bound natively, so the
/// CLI and the page answer alike.
pub const MAX_EVAL_DEPTH: u32 = 1200;

pub use bounds::{DepthExceeded, ValueTooLarge, MAX_VALUE_BYTES};

/// Functions supplied from outside the language — in practice a pool's
/// function library (Condor-G's externally supplied functions, see
/// `matchmaking::userfn`). The evaluator calls one when no built-in
/// function has the name; a call depends on its arguments only, so its
/// results are cached.
pub trait ExternalFunctions: std::fmt::Debug + Send + Sync {
    /// Is `name` (any case) one of these functions?
    fn defines(&self, name: &str) -> bool;
    /// The body of `name` and the scope a call with `args` evaluates it
    /// in; `None` when the call does not fit (its value is then error).
    fn bind(&self, name: &str, args: &[Value]) -> Option<(Expr, Env)>;
}

pub struct Evaluator {
    pub opts: EvalOptions,
    roots: [Option<Arc<ClassAd>>; 2],
    matched: bool,
    cache: FxHashMap<CacheKey, Slot>,
    depth: u32,
    /// The first place this evaluator ran out of depth (see [`Self::take_depth_exceeded`]).
    too_deep: Option<DepthExceeded>,
    /// Bytes a function refused to build (set by it, see
    /// [`Self::refuse_value`]), until the call that ran it says where.
    refused_bytes: Option<usize>,
    /// The first call that would have built a value over the bound.
    too_large: Option<ValueTooLarge>,
    tracer: Option<trace::Tracer>,
    /// The built-in functions by index (see [`Builtin`]).
    builtins: &'static [Builtin],
    /// Functions supplied from outside the language (a pool's function
    /// library), and their results so far: a call depends on its
    /// arguments only.
    user_fns: Option<Arc<dyn ExternalFunctions>>,
    user_cache: FxHashMap<String, Value>,
    /// Nested ads given an alternate scope for the time of an HTCondor
    /// `evalInEachContext`/`countMatches` evaluation (ad address, side);
    /// empty otherwise. See `eval_in_record_with_alternate`.
    alt_frames: Vec<(usize, Side)>,
    /// libclassad's current scope after an `evalInEachContext` /
    /// `countMatches` lookup moved it: (scope it replaces, new scope);
    /// `None` otherwise. See `set_current_scope`.
    moved_scope: Option<(Env, Env)>,
    /// While `evalInEachContext`/`countMatches` evaluate their subject
    /// inside a nested ad: (that ad's scope, the subject's lexical scope).
    /// Record literals of the subject keep the lexical scope as parent.
    /// See `eval_in_context`.
    literal_scope: Option<(Env, Env)>,
    /// libclassad's match ad as a plain ad, built when a scope is moved to
    /// it (see `match_scope`); dropped by `set_ads`.
    match_ad: Option<Arc<ClassAd>>,
}

/// A built-in function: it gets its arguments unevaluated, and the
/// evaluator to evaluate them with. An evaluator runs the table it is
/// handed, indexed as `lang::builtins` numbers the names; the library
/// (`functions`, above the evaluator) hands over its own in `Evaluator::new`.
pub type Builtin = fn(&mut Evaluator, &[Expr], &Env) -> Value;

impl Drop for Evaluator {
    fn drop(&mut self) {
        self.leave_untaken();
    }
}

impl Evaluator {
    /// An evaluator running the built-in functions `builtins` (indexed as
    /// `lang::builtins` names them).
    pub(crate) fn with_builtins(opts: EvalOptions, builtins: &'static [Builtin]) -> Evaluator {
        Evaluator {
            opts,
            builtins,
            roots: [None, None],
            matched: false,
            cache: FxHashMap::default(),
            depth: 0,
            too_deep: None,
            refused_bytes: None,
            too_large: None,
            tracer: None,
            user_fns: None,
            user_cache: FxHashMap::default(),
            alt_frames: Vec::new(),
            moved_scope: None,
            literal_scope: None,
            match_ad: None,
        }
    }

    /// Set the ads: `my` is the scope, `target` (if any) the other ad of a
    /// match. Clears the cache.
    pub fn set_ads(&mut self, my: Option<Arc<ClassAd>>, target: Option<Arc<ClassAd>>) {
        self.leave_untaken();
        self.matched = target.is_some();
        self.roots = [my, target];
        self.cache.clear();
        self.match_ad = None;
    }

    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    /// Whether an evaluation since the last call gave up for depth (its
    /// value, and the values that depend on it, are then `error`).
    pub fn take_depth_exceeded(&mut self) -> Option<DepthExceeded> {
        self.too_deep.take()
    }

    /// Whether a function since the last call refused to build a value
    /// over [`MAX_VALUE_BYTES`] (its value, and the values that depend on
    /// it, are then `error`): the first one.
    pub fn take_value_too_large(&mut self) -> Option<ValueTooLarge> {
        self.too_large.take()
    }

    /// For a function: refuse to build a value of `bytes`; its value is
    /// `error`, and the call says where.
    pub fn refuse_value(&mut self, bytes: usize) -> Value {
        self.refused_bytes.get_or_insert(bytes);
        Value::Error
    }

    /// After a call of `function` at `span`: a string over the bound is
    /// refused, and a refusal is remembered with where it happened.
    fn bound_result(&mut self, v: Value, span: crate::lang::ast::Span, function: &str) -> Value {
        let v = match &v {
            Value::Str(s) if !bounds::fits(s.len()) => self.refuse_value(s.len()),
            _ => v,
        };
        if let Some(bytes) = self.refused_bytes.take() {
            if self.too_large.is_none() {
                self.too_large = Some(ValueTooLarge {
                    span,
                    function: Arc::from(function),
                    bytes,
                    attribute: None,
                    ad: None,
                });
            }
        }
        v
    }

    /// A refusal the caller did not take goes to the process's record
    /// (see [`bounds::take_untaken`]).
    fn leave_untaken(&mut self) {
        if let Some(v) = self.too_large.take() {
            bounds::leave_untaken(v);
        }
    }

    pub fn mode(&self) -> Mode {
        self.opts.mode
    }

    /// The environment of the `my` ad (or nothing when there is none).
    pub fn my_env(&self) -> Env {
        if self.roots[0].is_some() {
            Env::Root(Side::My)
        } else {
            Env::None
        }
    }

    /// Evaluate an expression with `my` as the scope.
    pub fn eval_expr(&mut self, e: &Expr) -> Value {
        let env = self.my_env();
        self.eval(e, &env)
    }

    /// Evaluate attribute `name` of the `my` ad (undefined if absent).
    pub fn eval_attr(&mut self, name: &str) -> Value {
        let env = self.my_env();
        let Some(ad) = self.roots[0].clone() else {
            return Value::Undefined;
        };
        match ad.position(name) {
            Some(i) => self.eval_slot(&ad, i, &env),
            None => Value::Undefined,
        }
    }

    /// Evaluate with tracing on; returns the value and the trace root.
    pub fn eval_traced(&mut self, e: &Expr, env: &Env) -> (Value, Option<TraceNode>) {
        self.tracer = Some(trace::Tracer::new());
        let v = self.eval(e, env);
        let root = self.tracer.take().and_then(trace::Tracer::finish);
        (v, root)
    }

    /// The trace being recorded (only called while tracing).
    fn tracer(&mut self) -> &mut trace::Tracer {
        self.tracer.as_mut().expect("tracing")
    }

    /// Evaluate in an explicit scope (e.g. a nested record of an ad).
    pub fn eval(&mut self, e: &Expr, env: &Env) -> Value {
        if self.depth >= MAX_EVAL_DEPTH {
            if self.too_deep.is_none() {
                self.too_deep = Some(DepthExceeded {
                    span: e.span,
                    attribute: None,
                });
            }
            return Value::Error;
        }
        self.depth += 1;
        let v = if self.tracer.is_some() {
            self.tracer().enter(e);
            let v = self.eval_node(e, env);
            self.tracer().leave(&v);
            v
        } else {
            self.eval_node(e, env)
        };
        self.depth -= 1;
        if self.depth == 0 {
            // A moved scope lasts to the end of the evaluation at most.
            self.moved_scope = None;
        }
        v
    }

    fn eval_node(&mut self, e: &Expr, env: &Env) -> Value {
        match &e.kind {
            ExprKind::Literal(v) => literal_value(v),
            ExprKind::Attr { name, absolute } => {
                let start = if *absolute {
                    self.root_env()
                } else if self.moved_scope.is_some() {
                    self.current_scope(env)
                } else {
                    env.clone()
                };
                self.lookup(&start, name, !*absolute)
            }
            ExprKind::Select(base, name) => {
                if let Some(v) = self.select_other_fast(base, name, env) {
                    return v;
                }
                let b = self.eval(base, env);
                self.select(b, name)
            }
            ExprKind::Index(base, idx) => {
                let b = self.eval(base, env);
                let i = self.eval(idx, env);
                self.index(b, i)
            }
            ExprKind::Unary(op, a) => {
                let v = self.eval(a, env);
                ops::unary(*op, v)
            }
            ExprKind::Binary(op, a, b) => match &a.kind {
                ExprKind::Binary(..) => self.binary_chain(e, env),
                _ => self.binary(*op, a, b, env),
            },
            ExprKind::Cond(c, a, b) => {
                let cv = self.eval(c, env);
                match ops::truth(&cv) {
                    ops::Truth::True => self.eval(a, env),
                    ops::Truth::False => self.eval(b, env),
                    ops::Truth::Undefined => Value::Undefined,
                    ops::Truth::Error => Value::Error,
                }
            }
            ExprKind::Elvis(a, b) => {
                let av = self.eval(a, env);
                if av.is_undefined() {
                    self.eval(b, env)
                } else {
                    av
                }
            }
            ExprKind::Paren(a) => self.eval(a, env),
            ExprKind::Call(c) => match c.func {
                Some(id) => {
                    // HTCondor's extra functions stay registered in strict
                    // mode, as they are in an HTCondor process with
                    // STRICT_CLASSAD_EVALUATION on.
                    let imp = self.builtins[id as usize];
                    // A call's frames weigh on the stack too (see MAX_EVAL_DEPTH).
                    self.depth += 1;
                    let v = imp(self, &c.args, env);
                    self.depth -= 1;
                    self.bound_result(v, e.span, &c.name)
                }
                None => {
                    self.depth += 1;
                    let v = self.call_user(&c.name, &c.args, env);
                    self.depth -= 1;
                    self.bound_result(v, e.span, &c.name)
                }
            },
            ExprKind::List(items) => Value::List(ListValue {
                items: items.clone(),
                env: env.clone(),
                literal: true,
            }),
            ExprKind::Record(ad) => Value::Record(RecordValue {
                ad: ad.clone(),
                env: if self.literal_scope.is_some() {
                    self.lexical_scope(env)
                } else {
                    env.clone()
                },
                detached: false,
            }),
        }
    }

    /// A chain of binary operators (`c1 || c2 || … || c80`, a 2,000-term
    /// `&&`) parses as a left-leaning tree as deep as it is long: walked with
    /// a loop, so its depth costs no stack (a Web Worker's is small), in the
    /// order the recursion would give. `e` has been entered (depth, trace)
    /// by [`Self::eval`].
    ///
    /// The trace gives a run of `&&` (or of `||`) as one node whose children
    /// are its clauses — how people read `c1 || c2 || … || c80` — and every
    /// other spine node as the recursion would.
    fn binary_chain(&mut self, e: &Expr, env: &Env) -> Value {
        use crate::lang::ast::BinaryOp::{And, Or};
        // (spine node, traced as a node of its own)
        let mut spine: Vec<(&Expr, bool)> = vec![(e, true)];
        let mut leaf = e;
        while let ExprKind::Binary(outer, l, _) = &leaf.kind {
            leaf = l;
            if let ExprKind::Binary(inner, ..) = &leaf.kind {
                let clause_run = inner == outer && matches!(inner, And | Or);
                spine.push((leaf, !clause_run));
            }
        }
        // `leaf` is now the innermost left operand; enter the inner spine
        // nodes as `eval` would have.
        if self.tracer.is_some() {
            for (node, _) in spine[1..].iter().filter(|(_, own)| *own) {
                self.tracer().enter(node);
            }
        }
        let mut v = self.eval(leaf, env);
        for (i, (node, own)) in spine.iter().enumerate().rev() {
            let ExprKind::Binary(op, _, r) = &node.kind else {
                continue;
            };
            v = self.combine(*op, v, r, env);
            if i > 0 && *own && self.tracer.is_some() {
                self.tracer().leave(&v);
            }
        }
        v
    }

    /// `l op r` with `l` known: `&&`/`||` do not evaluate `r` when `l`
    /// decides.
    fn combine(&mut self, op: crate::lang::ast::BinaryOp, l: Value, r: &Expr, env: &Env) -> Value {
        use crate::lang::ast::BinaryOp::*;
        if matches!(op, And | Or) {
            if let Some(v) = ops::logic_short_circuit(op, &l) {
                return v;
            }
            let r = self.eval(r, env);
            return ops::logic(op, &l, &r);
        }
        let r = self.eval(r, env);
        ops::binary(op, &l, &r)
    }

    fn binary(&mut self, op: crate::lang::ast::BinaryOp, a: &Expr, b: &Expr, env: &Env) -> Value {
        let l = self.eval(a, env);
        self.combine(op, l, b, env)
    }

    /// Make the pool's own functions callable (and forget cached results).
    pub fn set_user_functions<F: ExternalFunctions + 'static>(&mut self, fns: Option<Arc<F>>) {
        self.user_fns = fns.map(|f| f as Arc<dyn ExternalFunctions>);
        self.user_cache.clear();
    }

    /// A call to a function libclassad does not know: a pool-supplied
    /// function if there is one by that name, else error.
    fn call_user(&mut self, name: &str, args: &[Expr], env: &Env) -> Value {
        let Some(fns) = self.user_fns.clone().filter(|u| u.defines(name)) else {
            return Value::Error;
        };
        let vals: Vec<Value> = args.iter().map(|a| self.eval(a, env)).collect();
        let mut key = name.to_ascii_lowercase();
        for v in &vals {
            key.push('\u{1f}');
            key.push_str(&v.to_string());
        }
        if let Some(v) = self.user_cache.get(&key) {
            return v.clone();
        }
        let v = match fns.bind(name, &vals) {
            Some((body, call_env)) => {
                let v = self.eval(&body, &call_env);
                // The parameter record is only for this call: drop its
                // cache entries (which would otherwise keep it alive).
                if let Env::Frame(frame) = &call_env {
                    let gone = Arc::as_ptr(&frame.ad) as usize;
                    self.cache.retain(|k, _| k.0 != gone);
                }
                v
            }
            None => Value::Error,
        };
        self.user_cache.insert(key, v.clone());
        v
    }

    /// `TARGET.x` / `other.x` written in a top-level ad of a match: look
    /// `x` up in the other ad directly, without building the record value
    /// the general path would (the answer is the same).
    #[inline]
    fn select_other_fast(&mut self, base: &Expr, name: &Name, env: &Env) -> Option<Value> {
        let ExprKind::Attr {
            name: b,
            absolute: false,
        } = &base.kind
        else {
            return None;
        };
        // (Not while `evalInEachContext`/`countMatches` moved the current
        // scope: `TARGET` is then looked up from the moved scope.)
        if b.special != crate::lang::ast::Special::Other
            || !self.matched
            || self.tracer.is_some()
            || self.moved_scope.is_some()
        {
            return None;
        }
        let Env::Root(side) = env else {
            return None;
        };
        let own = self.roots[*side as usize].as_ref()?;
        if own.position_name(b).is_some() {
            return None;
        }
        let other = Env::Root(side.other());
        Some(self.lookup_from(&other, name).unwrap_or(Value::Undefined))
    }

    /// The root scope of this evaluation (`root`, `toplevel`, `.attr`).
    fn root_env(&self) -> Env {
        if self.matched {
            Env::MatchRoot
        } else {
            self.my_env()
        }
    }

    fn ad_of(&self, env: &Env) -> Option<Arc<ClassAd>> {
        match env {
            Env::Root(s) => self.roots[*s as usize].clone(),
            Env::Frame(f) => Some(f.ad.clone()),
            _ => None,
        }
    }

    /// The lexical parent of a scope.
    fn parent_of(&self, env: &Env) -> Env {
        match env {
            Env::Root(s) if self.matched => Env::MatchSide(*s),
            Env::MatchSide(_) => Env::MatchRoot,
            Env::Frame(f) => f.parent.clone(),
            _ => Env::None,
        }
    }

    /// The record value for a scope, when it is an ad.
    fn record_of(&self, env: &Env) -> Value {
        if let Env::MatchSide(s) = env {
            return Value::Record(RecordValue {
                ad: match_context_ad(*s),
                env: Env::MatchRoot,
                detached: false,
            });
        }
        match self.ad_of(env) {
            Some(ad) => Value::Record(RecordValue {
                ad,
                env: self.parent_of(env),
                detached: false,
            }),
            None => Value::Undefined,
        }
    }

    /// The attribute `CurrentTime` where no ad of the scope defines it: the
    /// clock's integer seconds, like `time()` (the "ClassAd environment" of
    /// the Condor manual; libclassad under HTCondor's old-ClassAd
    /// semantics). Plain libclassad (strict mode) knows no such name.
    fn current_time_attr(&self) -> Value {
        Value::Int(self.opts.clock.now().floor() as i64)
    }

    /// The scope to search when looking inside a record value.
    fn env_of_record(&self, r: &RecordValue) -> Env {
        for s in [Side::My, Side::Target] {
            if let Some(root) = &self.roots[s as usize] {
                if Arc::ptr_eq(root, &r.ad) {
                    return Env::Root(s);
                }
            }
        }
        Env::Frame(Arc::new(Frame {
            ad: r.ad.clone(),
            parent: r.env.clone(),
        }))
    }

    /// libclassad's LookupInScope: search the scope and its lexical
    /// parents, recognising `self`/`my`, `parent`, `root`/`toplevel` and
    /// `CurrentTime`; then, for a plain name in HTCondor mode, the other ad
    /// of a match (its "alternate scope").
    fn lookup(&mut self, start: &Env, name: &Name, plain: bool) -> Value {
        if let Some(v) = self.lookup_from(start, name) {
            return v;
        }
        if plain && self.opts.mode == Mode::HTCondor && self.matched {
            if let Env::Root(s) = start {
                let alt = Env::Root(s.other());
                if let Some(v) = self.lookup_from(&alt, name) {
                    return v;
                }
            }
        }
        if plain && !self.alt_frames.is_empty() {
            if let Some(side) = self.frame_alternate(start) {
                if let Some(v) = self.lookup_from(&Env::Root(side), name) {
                    return v;
                }
            }
        }
        Value::Undefined
    }

    fn lookup_from(&mut self, start: &Env, name: &Name) -> Option<Value> {
        use crate::lang::ast::Special;
        let mut cur = start.clone();
        // Bounded: scope chains are finite, but be safe against cycles.
        for _ in 0..10_000 {
            match &cur {
                Env::None => return None,
                Env::Root(_) | Env::Frame(_) => {
                    let ad = self.ad_of(&cur)?;
                    if let Some(i) = ad.position_name(name) {
                        let v = self.eval_slot(&ad, i, &cur);
                        return Some(v);
                    }
                    match name.special {
                        Special::Root => {
                            let root = self.root_env();
                            return Some(self.record_of(&root));
                        }
                        Special::SelfAd => return Some(self.record_of(&cur)),
                        // `MY` is old-ClassAd syntax, known only in HTCondor mode.
                        Special::My if self.opts.mode == Mode::HTCondor => {
                            return Some(self.record_of(&cur))
                        }
                        Special::Parent => {
                            let p = self.parent_of(&cur);
                            return Some(self.record_of(&p));
                        }
                        Special::CurrentTime if self.opts.mode == Mode::HTCondor => {
                            return Some(self.current_time_attr())
                        }
                        _ => cur = self.parent_of(&cur),
                    }
                }
                Env::MatchSide(s) => match name.special {
                    Special::Other => return Some(self.record_of(&Env::Root(s.other()))),
                    Special::My | Special::Ad => return Some(self.record_of(&Env::Root(*s))),
                    _ => cur = Env::MatchRoot,
                },
                Env::MatchRoot => {
                    return match name.special {
                        Special::Left => Some(self.record_of(&Env::Root(Side::My))),
                        Special::Right => Some(self.record_of(&Env::Root(Side::Target))),
                        _ => None,
                    }
                }
            }
        }
        None
    }

    /// Evaluate attribute `i` of `ad` (whose scope is `env`), with caching
    /// and cycle detection: a reference back into an attribute that is
    /// being evaluated is undefined, as in HTCondor 25.13+.
    pub(crate) fn eval_slot(&mut self, ad: &Arc<ClassAd>, i: u32, env: &Env) -> Value {
        // Most attributes are plain values: no scope, no cycle, no cache.
        if self.tracer.is_none() {
            if let ExprKind::Literal(v) = &ad.at(i).1.kind {
                return literal_value(v);
            }
        }
        let key = (Arc::as_ptr(ad) as usize, i);
        match self.cache.get(&key) {
            Some(Slot::Done(v, _)) => {
                let v = v.clone();
                if self.tracer.is_some() {
                    let (n, _) = ad.at(i);
                    self.tracer().cached(n, &v);
                }
                return v;
            }
            Some(Slot::InProgress(_)) => return Value::Undefined,
            None => {}
        }
        self.cache.insert(key, Slot::InProgress(ad.clone()));
        let (name, expr) = ad.at(i);
        if self.tracer.is_some() {
            self.tracer().attr(name);
        }
        // An attribute is evaluated in its own scope, and a scope moved
        // inside it does not outlive it (libclassad saves and restores
        // its current scope around an attribute reference).
        let moved = self.moved_scope.take();
        let literal = self.literal_scope.take();
        // A reference's lookup frames weigh on the stack (see MAX_EVAL_DEPTH).
        self.depth += 2;
        let v = self.eval(expr, env);
        self.depth -= 2;
        if let Some(d) = self.too_deep.as_mut() {
            if d.attribute.is_none() {
                d.attribute = Some(Arc::from(name));
            }
        }
        if let Some(d) = self.too_large.as_mut() {
            if d.attribute.is_none() {
                d.attribute = Some(Arc::from(name));
                d.ad = bounds::ad_name(&ad);
            }
        }
        self.moved_scope = moved;
        self.literal_scope = literal;
        if self.tracer.is_some() {
            self.tracer().leave(&v);
        }
        self.cache.insert(key, Slot::Done(v.clone(), ad.clone()));
        v
    }

    /// `base.name`: look the name up inside a record (and its parents), or
    /// map the selection over a list.
    fn select(&mut self, base: Value, name: &Name) -> Value {
        match base {
            Value::Record(r) if r.detached => Value::Undefined,
            Value::Record(r) => {
                let env = self.env_of_record(&r);
                self.lookup_from(&env, name).unwrap_or(Value::Undefined)
            }
            Value::List(l) => {
                let mut out = Vec::with_capacity(l.items.len());
                for item in l.items.iter() {
                    let v = self.eval(item, &l.env);
                    out.push(self.select(v, name));
                }
                // libclassad builds this list like a literal one.
                match Value::list_of(out) {
                    Value::List(mut m) => {
                        m.literal = true;
                        Value::List(m)
                    }
                    other => other,
                }
            }
            Value::Undefined => Value::Undefined,
            _ => Value::Error,
        }
    }

    /// `base[index]`
    fn index(&mut self, base: Value, idx: Value) -> Value {
        match (&base, &idx) {
            (Value::Error, _) | (_, Value::Error) => Value::Error,
            (Value::Undefined, _) | (_, Value::Undefined) => Value::Undefined,
            (Value::List(l), Value::Int(i)) => {
                if *i < 0 || *i as usize >= l.items.len() {
                    return Value::Error;
                }
                let item = l.items[*i as usize].clone();
                let env = if self.literal_scope.is_some() {
                    self.lexical_scope(&l.env)
                } else {
                    l.env.clone()
                };
                // libclassad evaluates the element in a state of its own,
                // from its lexical scope (see `set_current_scope`).
                let moved = self.moved_scope.take();
                let v = self.eval(&item, &env);
                self.moved_scope = moved;
                v
            }
            (Value::Record(r), Value::Str(s)) => {
                let env = if r.detached {
                    Env::Frame(Arc::new(Frame {
                        ad: r.ad.clone(),
                        parent: Env::None,
                    }))
                } else {
                    self.env_of_record(r)
                };
                let ad = r.ad.clone();
                match ad.position(s) {
                    // libclassad's EvaluateAttr: a record it returns is cut
                    // off from the scope it was found in.
                    Some(i) => match self.eval_slot(&ad, i, &env) {
                        Value::Record(found) => Value::Record(RecordValue {
                            detached: true,
                            ..found
                        }),
                        v => v,
                    },
                    None => Value::Undefined,
                }
            }
            _ => Value::Error,
        }
    }

    /// Evaluate every element of a list value.
    pub fn list_values(&mut self, l: &ListValue) -> Vec<Value> {
        l.items.iter().map(|e| self.eval(e, &l.env)).collect()
    }

    /// Evaluate an expression in the scope of a record value.
    pub fn eval_in_record(&mut self, e: &Expr, r: &RecordValue) -> Value {
        let env = self.env_of_record(r);
        self.eval(e, &env)
    }

    /// The scope inside a record value.
    pub fn record_env(&self, r: &RecordValue) -> Env {
        self.env_of_record(r)
    }

    /// Whether this evaluation has a target ad.
    pub fn has_target(&self) -> bool {
        self.matched
    }

    /// In a match, the ad on the other side from the one `scope` is (the
    /// TARGET of an expression of that ad).
    pub fn target_of(&self, scope: &Arc<ClassAd>) -> Option<Arc<ClassAd>> {
        if !self.matched {
            return None;
        }
        let [my, target] = &self.roots;
        match (my, target) {
            (Some(m), t) if Arc::ptr_eq(m, scope) => t.clone(),
            (m, Some(t)) if Arc::ptr_eq(t, scope) => m.clone(),
            (_, t) => t.clone(),
        }
    }

    /// The innermost ad of a scope.
    pub fn scope_ad(&self, env: &Env) -> Option<Arc<ClassAd>> {
        self.ad_of(&self.current_scope(env))
    }

    /// The expression bound to `name` in the innermost ad of `env` (not
    /// its parents, nor the target), as libclassad's `unparse()` finds it.
    pub fn find_local_expr(&self, env: &Env, name: &Name) -> Option<Expr> {
        let ad = self.ad_of(&self.current_scope(env))?;
        let i = ad.position_name(name)?;
        Some(ad.at(i).1.clone())
    }

    // ------------------------------------------------------------------
    // libclassad scope emulation for HTCondor's `evalInEachContext` and
    // `countMatches` (functions/misc.rs); nothing else uses these. They
    // copy what libclassad's `AttributeReference::Deref` /
    // `ClassAd::LookupInScope` and HTCondor's `evaluateInContext` do to an
    // `EvalState`.
    // ------------------------------------------------------------------

    /// The root scope of this evaluation (libclassad's `EvalState::rootAd`):
    /// the match ad in a match, else the `my` ad.
    pub fn root_scope(&self) -> Env {
        self.root_env()
    }

    /// libclassad's `LookupInScope` of `name` from `start`, then (for a
    /// `plain` reference, i.e. neither `.name` nor `base.name`) in the
    /// alternate scope of `start`. Returns what was found and the scope the
    /// lookup leaves libclassad's `EvalState::curAd` in: the scope that
    /// holds the name, or else the last scope searched (the root, or a
    /// match's root after the alternate scope) — `Env::None` when the chain
    /// ends in a nested ad with no enclosing ad (as if an empty root ad
    /// were above it). A match's context ads and the match ad itself are
    /// returned as plain ads (see `match_scope`), so that `self`, `parent`
    /// and their attributes work from them as in libclassad.
    pub fn lookup_in_scope(&mut self, start: &Env, name: &Name, plain: bool) -> (ScopeFind, Env) {
        let (found, last) = self.scope_walk(start, name);
        if !matches!(found, ScopeFind::NotFound) || !plain {
            return (found, last);
        }
        let alt = match start {
            Env::Root(s) if self.opts.mode == Mode::HTCondor && self.matched => Some(s.other()),
            _ => self.frame_alternate(start),
        };
        match alt {
            Some(side) => self.scope_walk(&Env::Root(side), name),
            None => (found, last),
        }
    }

    fn scope_walk(&mut self, start: &Env, name: &Name) -> (ScopeFind, Env) {
        let key: &str = &name.key;
        let mut cur = self.match_scope(start.clone());
        let mut last = Env::None;
        for _ in 0..10_000 {
            if matches!(cur, Env::None) {
                break;
            }
            if let Some(ad) = self.ad_of(&cur) {
                if let Some(i) = ad.position_name(name) {
                    return (ScopeFind::Expr(ad.at(i).1.clone()), cur);
                }
            }
            let up = self.match_scope(self.parent_of(&cur));
            let special = match key {
                "toplevel" | "root" => {
                    let root = self.match_scope(self.root_env());
                    Some(self.record_of(&root))
                }
                "self" => Some(self.record_of(&cur)),
                "my" if self.opts.mode == Mode::HTCondor => Some(self.record_of(&cur)),
                "parent" => Some(self.record_of(&up)),
                "currenttime" if self.opts.mode == Mode::HTCondor => Some(self.current_time_attr()),
                _ => None,
            };
            if let Some(v) = special {
                return match v {
                    Value::Undefined => (ScopeFind::NotFound, cur),
                    v => (ScopeFind::Value(v), cur),
                };
            }
            last = cur;
            cur = up;
        }
        if let Env::Frame(f) = &last {
            if !self.is_match_ad(&f.ad) {
                last = Env::None;
            }
        }
        (ScopeFind::NotFound, last)
    }

    /// A match's context ad (`MatchSide`) or the match ad (`MatchRoot`)
    /// as a plain ad scope, as libclassad has them: the match ad holds
    /// `LEFT`, `RIGHT`, `lCtx`, `rCtx` and the match expressions; a
    /// context ad has the match ad as parent. Other scopes are unchanged.
    fn match_scope(&mut self, env: Env) -> Env {
        match env {
            Env::MatchRoot => Env::Frame(Arc::new(Frame {
                ad: self.match_ad(),
                parent: Env::None,
            })),
            Env::MatchSide(s) => {
                let parent = self.match_scope(Env::MatchRoot);
                Env::Frame(Arc::new(Frame {
                    ad: match_context_ad(s),
                    parent,
                }))
            }
            e => e,
        }
    }

    /// libclassad's match ad for the current pair of ads, built once.
    fn match_ad(&mut self) -> Arc<ClassAd> {
        let [my, target] = &self.roots;
        self.match_ad
            .get_or_insert_with(|| Arc::new(match_ad::match_ad(my.as_ref(), target.as_ref())))
            .clone()
    }

    fn is_match_ad(&self, ad: &Arc<ClassAd>) -> bool {
        self.match_ad.as_ref().is_some_and(|m| Arc::ptr_eq(m, ad))
    }

    /// The side whose alternate scope HTCondor's `evaluateInContext` lends
    /// a nested ad whose lexical parent is `parent`: in an HTCondor-mode
    /// match, an ad inside MY (or its match context) borrows MY's alternate
    /// scope (TARGET), one inside TARGET borrows TARGET's (MY); otherwise
    /// none.
    pub fn alternate_for_parent(&self, parent: &Env) -> Option<Side> {
        if self.opts.mode != Mode::HTCondor || !self.matched {
            return None;
        }
        match parent {
            Env::Root(s) | Env::MatchSide(s) => Some(s.other()),
            Env::MatchRoot => Some(Side::Target),
            Env::Frame(f) if self.is_match_ad(&f.ad) => Some(Side::Target),
            Env::Frame(f) => [Side::My, Side::Target]
                .into_iter()
                .find(|s| Arc::ptr_eq(&f.ad, &match_context_ad(*s)))
                .map(Side::other),
            _ => None,
        }
    }

    /// HTCondor's `evaluateInContext`: evaluate `e` inside record `r`,
    /// where `e` was written in scope `lexical` (libclassad's expressions
    /// keep their lexical parent: a record literal of `e` has `lexical` as
    /// parent scope, not `r`), while `r` has the alternate scope `alt` (the
    /// other ad of the match): an unscoped name that is not found from `r`
    /// outwards is then looked up there, as for MY itself. `alt: None`
    /// keeps whatever alternate scope `r` already has.
    pub fn eval_in_context(
        &mut self,
        e: &Expr,
        r: &RecordValue,
        alt: Option<Side>,
        lexical: &Env,
    ) -> Value {
        let env = self.env_of_record(r);
        // A fresh libclassad EvalState: no moved scope inside or out.
        let moved = self.moved_scope.take();
        let literal = self.literal_scope.replace((env.clone(), lexical.clone()));
        let v = match (alt, &env) {
            (Some(side), Env::Frame(f)) => {
                self.alt_frames.push((Arc::as_ptr(&f.ad) as usize, side));
                let v = self.eval(e, &env);
                self.alt_frames.pop();
                v
            }
            _ => self.eval(e, &env),
        };
        self.moved_scope = moved;
        self.literal_scope = literal;
        v
    }

    /// Evaluate `e` in scope `env` (libclassad's current scope), where it
    /// was written in scope `lexical`: its record literals keep `lexical`
    /// as parent scope, and a list literal subscripted in it evaluates the
    /// element there (libclassad gives a subscripted element a state of its
    /// own, in the list's lexical scope).
    pub fn eval_lexical(&mut self, e: &Expr, env: &Env, lexical: &Env) -> Value {
        let saved = self.literal_scope.replace((env.clone(), lexical.clone()));
        let v = self.eval(e, env);
        self.literal_scope = saved;
        v
    }

    /// The lexical scope of an expression evaluated in `env`: `env`, or,
    /// for a subject evaluated in a nested ad by `eval_in_context`, the
    /// scope it was written in.
    pub fn lexical_scope(&self, env: &Env) -> Env {
        match &self.literal_scope {
            Some((from, to)) if same_scope(from, env) => to.clone(),
            _ => env.clone(),
        }
    }

    /// The scope an unscoped name written in scope `env` is looked up
    /// from: `env`, unless an `evalInEachContext`/`countMatches` lookup
    /// moved it (see `set_current_scope`).
    pub fn current_scope(&self, env: &Env) -> Env {
        match &self.moved_scope {
            Some((from, to)) if same_scope(from, env) => to.clone(),
            _ => env.clone(),
        }
    }

    /// Move libclassad's current scope: HTCondor's `evalInEachContext` and
    /// `countMatches` look their first argument up with the caller's
    /// `EvalState` and leave its current scope where the lookup ended, so
    /// the names evaluated after the call in the same attribute (`a` in
    /// `strcat(countMatches(ta, L), a)`) are looked up from there. The move
    /// ends with the attribute being evaluated (or the whole evaluation).
    pub fn set_current_scope(&mut self, from: &Env, to: Env) {
        self.moved_scope = Some((from.clone(), to));
    }

    /// The alternate scope lent to a nested ad (see
    /// `eval_in_record_with_alternate`), innermost loan first.
    fn frame_alternate(&self, env: &Env) -> Option<Side> {
        let Env::Frame(f) = env else {
            return None;
        };
        let key = Arc::as_ptr(&f.ad) as usize;
        self.alt_frames
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, s)| *s)
    }
}

/// Whether two environments are the same scope (same ad).
fn same_scope(a: &Env, b: &Env) -> bool {
    match (a, b) {
        (Env::None, Env::None) | (Env::MatchRoot, Env::MatchRoot) => true,
        (Env::Root(x), Env::Root(y)) | (Env::MatchSide(x), Env::MatchSide(y)) => x == y,
        (Env::Frame(x), Env::Frame(y)) => Arc::ptr_eq(&x.ad, &y.ad),
        _ => false,
    }
}

/// What `Evaluator::lookup_in_scope` found.
#[derive(Clone, Debug)]
pub enum ScopeFind {
    /// An attribute's expression.
    Expr(Expr),
    /// A special name (`self`, `parent`, `my`, `root`, a match context's
    /// `target`/`other`, ...): its value, the same in every scope.
    Value(Value),
    NotFound,
}

/// The value of a literal. libclassad evaluates a relative-time literal
/// (`relTime("1d")`, folded at parse time) to its seconds as a real,
/// though it prints it as a relative time.
#[inline]
fn literal_value(v: &Value) -> Value {
    match v {
        Value::RelTime(t) => Value::Real(*t),
        v => v.clone(),
    }
}
