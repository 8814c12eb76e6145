//! The expression tree, the ClassAd (record) it lives in, and the values
//! expressions evaluate to, with the scopes lists and records close over.
//! They hold one another (a literal holds a value, a list value its
//! elements' expressions, an ad its definitions), so they are one data
//! model, defined here together. What a value can tell of itself is in
//! `value`; how a scope is searched, in `eval`.
//!
//! Trees are immutable and cheaply shared (`Arc`): the matchmaker, the
//! indexer and the analyzer walk and rebuild them without copying ads.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::names::cmp_nocase;
use crate::lang::time::AbsTime;

// Names are their own module; their old paths stay here.
pub use crate::lang::names::{fold, intern_entry, intern_name, key_hash, Name, NameEntry, Special};

mod builder;
pub use builder::{AdBuilder, NameList, RecentNames};

/// Byte range into the source text an expression was parsed from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const NONE: Span = Span { start: 0, end: 0 };
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    pub fn is_none(self) -> bool {
        self == Span::NONE
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnaryOp {
    Plus,
    Minus,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinaryOp {
    Or,
    And,
    BitOr,
    BitXor,
    BitAnd,
    Eq,
    Ne,
    MetaEq,
    MetaNe,
    Is,
    Isnt,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Ushr,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinaryOp {
    /// The operator as the user typed it: `=?=` and `=!=` keep their
    /// spelling, which the unparser writes as `is` and `isnt`.
    pub fn spelling(self) -> &'static str {
        match self {
            BinaryOp::MetaEq => "=?=",
            BinaryOp::MetaNe => "=!=",
            op => op.symbol(),
        }
    }

    /// The operator as HTCondor's unparser writes it.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Or => "||",
            And => "&&",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Eq => "==",
            Ne => "!=",
            // libclassad has one operator for both spellings and prints it
            // as the keyword.
            MetaEq => "is",
            MetaNe => "isnt",
            Is => "is",
            Isnt => "isnt",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Shl => "<<",
            Shr => ">>",
            Ushr => ">>>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
        }
    }

    /// Binding strength; larger binds tighter. All binary operators are
    /// left-associative.
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Or => 1,
            And => 2,
            BitOr => 3,
            BitXor => 4,
            BitAnd => 5,
            Eq | Ne | MetaEq | MetaNe | Is | Isnt => 6,
            Lt | Le | Gt | Ge => 7,
            Shl | Shr | Ushr => 8,
            Add | Sub => 9,
            Mul | Div | Mod => 10,
        }
    }

    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Plus => "+",
            UnaryOp::Minus => "-",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Literal(Value),
    /// `name` (lexically scoped) or `.name` (from the root scope).
    Attr {
        name: Name,
        absolute: bool,
    },
    /// `base.name`
    Select(Box<Expr>, Name),
    /// `base[index]`
    Index(Box<Expr>, Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a ?: b`
    Elvis(Box<Expr>, Box<Expr>),
    /// Parentheses are kept: HTCondor's unparser prints them as written.
    Paren(Box<Expr>),
    Call(Call),
    List(Arc<[Expr]>),
    Record(Arc<ClassAd>),
}

#[derive(Clone, Debug)]
pub struct Call {
    /// The name as written (unparse keeps the user's spelling).
    pub name: Arc<str>,
    /// Index into the function table, or `None` for an unknown function
    /// (which evaluates to error, as in libclassad).
    pub func: Option<u16>,
    pub args: Vec<Expr>,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn literal(v: Value) -> Expr {
        Expr::new(ExprKind::Literal(v), Span::NONE)
    }
    pub fn attr(name: &str) -> Expr {
        Expr::new(
            ExprKind::Attr {
                name: Name::new(name),
                absolute: false,
            },
            Span::NONE,
        )
    }
    pub fn binary(op: BinaryOp, l: Expr, r: Expr) -> Expr {
        let span = if l.span.is_none() || r.span.is_none() {
            Span::NONE
        } else {
            l.span.to(r.span)
        };
        Expr::new(ExprKind::Binary(op, Box::new(l), Box::new(r)), span)
    }
    pub fn as_literal(&self) -> Option<&Value> {
        match &self.kind {
            ExprKind::Literal(v) => Some(v),
            _ => None,
        }
    }

    /// Visit the direct children of this node.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Literal(_) | ExprKind::Attr { .. } | ExprKind::Record(_) => vec![],
            ExprKind::Select(b, _) => vec![b],
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Elvis(a, b) => {
                vec![a, b]
            }
            ExprKind::Unary(_, a) | ExprKind::Paren(a) => vec![a],
            ExprKind::Cond(a, b, c) => vec![a, b, c],
            ExprKind::Call(c) => c.args.iter().collect(),
            ExprKind::List(items) => items.iter().collect(),
        }
    }
}

// ---- Values and the scopes they close over (see the module's comment) ----

/// A list value. As in libclassad, the elements stay expressions: a list
/// literal evaluates to itself, closed over the scope it was written in, and
/// an element is evaluated only when something asks for it.
#[derive(Clone, Debug)]
pub struct ListValue {
    pub items: Arc<[Expr]>,
    pub env: Env,
    /// Written as a list literal (rather than computed by a function).
    /// libclassad keeps the two apart: `=?=` between a literal list and a
    /// computed one is false, between two of a kind an error.
    pub literal: bool,
}

/// A record (nested ClassAd) value, closed over its lexical parent scope.
#[derive(Clone, Debug)]
pub struct RecordValue {
    pub ad: Arc<ClassAd>,
    pub env: Env,
    /// Got by subscripting a record with a name (`r["b"]`): libclassad hands
    /// back such a record cut off from its scope, so selecting from it
    /// (`r["b"].c`) is undefined and its attributes see no enclosing ad.
    pub detached: bool,
}

#[derive(Clone, Debug, Default)]
pub enum Value {
    #[default]
    Undefined,
    Error,
    Bool(bool),
    Int(i64),
    Real(f64),
    Str(Arc<str>),
    AbsTime(AbsTime),
    /// Seconds; libclassad keeps relative times as doubles.
    RelTime(f64),
    List(ListValue),
    Record(RecordValue),
}

/// Which ad of a match: the one evaluating (`MY`, left) or the other
/// (`TARGET`, right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    My = 0,
    Target = 1,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::My => Side::Target,
            Side::Target => Side::My,
        }
    }
}

/// A scope chain. The top-level ads of the evaluation and the match
/// context around them are named, not allocated, so evaluating a pair of
/// ads allocates nothing for scoping.
#[derive(Clone, Debug, Default)]
pub enum Env {
    #[default]
    None,
    /// The top-level ad on one side.
    Root(Side),
    /// The match context around one side's ad: it defines `other`,
    /// `target`, `my` and `ad`, as libclassad's MatchClassAd does.
    MatchSide(Side),
    /// The match ad itself (the root scope of a match).
    MatchRoot,
    /// A nested record with its lexical parent.
    Frame(Arc<Frame>),
}

#[derive(Debug)]
pub struct Frame {
    pub ad: Arc<ClassAd>,
    pub parent: Env,
}

/// A ClassAd: an ordered set of attribute definitions with case-insensitive
/// names.
///
/// An ad read from a pool may be *lazy*: its definitions stay text (a range
/// of the pool's [`LazySource`]) until something reads them, and are parsed
/// then, once. Production slot ads carry ~850 attributes of which matching,
/// queries and the analyzer read a few dozen; parsed trees cost ~8× their
/// text. Readers check every definition when they read it, so laziness
/// changes neither diagnostics nor results, only when the tree is built.
#[derive(Clone, Default)]
pub struct ClassAd {
    /// The definitions, in the order of `names`.
    slots: Vec<Slot>,
    /// The names and their lookup table: shared by the ads of a pool that
    /// name the same attributes in the same order ([`share_names`]), which
    /// most do — a pool's worth of names is then kept once, not per ad.
    /// Copied on write.
    ///
    /// [`share_names`]: ClassAd::share_names
    names: Arc<Names>,
    /// Where lazy slots' text is (`None`: every slot is parsed).
    source: Option<Arc<LazySource>>,
}

/// The extended names tables [`ClassAd::insert_value_shared`] made, by
/// the table they extend and the name added.
#[derive(Default)]
pub struct SharedNames(std::collections::HashMap<(usize, String), (Arc<Names>, Arc<Names>)>);

/// Text that lazy ads share: a `String`, or other bytes holding UTF-8
/// (the CLI maps a pool's file rather than copy hundreds of megabytes).
pub trait SharedText: Send + Sync {
    fn bytes(&self) -> &[u8];
}

impl SharedText for String {
    fn bytes(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// The text lazy definitions are read from, and how one is parsed.
pub struct LazySource {
    pub text: Arc<dyn SharedText>,
    /// Parse the definition written at `text[at..at + len]` exactly as the
    /// reader did when it checked it (spans into `text`).
    pub parse: ParseAt,
}

/// How a lazy source parses the definition at an offset (see
/// [`LazySource::parse`]).
pub type ParseAt = Box<dyn Fn(&str, usize) -> Expr + Send + Sync>;

impl std::fmt::Debug for LazySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LazySource({} bytes)", self.text.bytes().len())
    }
}

impl LazySource {
    /// `text[at..at + len]` (checked again as UTF-8: the bytes need not
    /// be a `str`, and definitions are short).
    fn slice(&self, at: usize, len: usize) -> Option<&str> {
        std::str::from_utf8(self.text.bytes().get(at..at + len)?).ok()
    }

    /// The definition at `at..at + len`, parsed.
    fn parse_at(&self, at: usize, len: usize) -> Expr {
        match self.slice(at, len) {
            Some(src) => (self.parse)(src, at),
            // Not reached: readers keep only ranges of the text they read.
            None => Expr::literal(Value::Error),
        }
    }
}

/// One definition: its tree, or where its text is until it is first read.
#[derive(Clone, Default)]
struct Slot {
    expr: once_cell::race::OnceBox<Expr>,
    at: u32,
    /// The text's length, and [`Slot::LITERAL`] when it is a literal.
    len: u32,
}

impl Slot {
    fn parsed(e: Expr) -> Slot {
        Slot {
            expr: once_cell::race::OnceBox::with_value(Box::new(e)),
            at: 0,
            len: 0,
        }
    }

    /// Set in `len` for a lazy literal (so lazy text is under 2 GB).
    const LITERAL: u32 = 1 << 31;

    fn is_literal(&self) -> bool {
        match self.expr.get() {
            Some(e) => matches!(e.kind, ExprKind::Literal(_)),
            None => self.len & Slot::LITERAL != 0,
        }
    }

    #[inline]
    fn get<'a>(&'a self, source: &Option<Arc<LazySource>>) -> &'a Expr {
        self.expr.get_or_init(|| {
            Box::new(match source {
                Some(s) => {
                    let (at, len) = (self.at as usize, (self.len & !Slot::LITERAL) as usize);
                    s.parse_at(at, len)
                }
                // Unreachable: only a lazy ad has unparsed slots.
                None => Expr::literal(Value::Error),
            })
        })
    }
}

#[derive(Clone, Default)]
struct Names {
    /// Per attribute: its interned name.
    list: Vec<Arc<NameEntry>>,
    /// Positions into `list`, by key hash.
    table: Positions,
}

/// A hash table of positions: two bytes each while they fit (ads of a
/// production pool have hundreds of attributes, and a table each).
#[derive(Clone)]
enum Positions {
    Narrow(hashbrown::HashTable<u16>),
    Wide(hashbrown::HashTable<u32>),
}

impl Default for Positions {
    fn default() -> Positions {
        Positions::Narrow(Default::default())
    }
}

impl Positions {
    fn with_capacity(n: usize) -> Positions {
        if n <= u16::MAX as usize {
            Positions::Narrow(hashbrown::HashTable::with_capacity(n))
        } else {
            Positions::Wide(hashbrown::HashTable::with_capacity(n))
        }
    }

    #[inline]
    fn find(&self, hash: u64, is: impl Fn(u32) -> bool) -> Option<u32> {
        match self {
            Positions::Narrow(t) => t.find(hash, |&i| is(i as u32)).map(|&i| i as u32),
            Positions::Wide(t) => t.find(hash, |&i| is(i)).copied(),
        }
    }

    /// Add position `i` (the next one) under `hash`; `hash_of` rehashes
    /// the positions already in.
    fn insert(&mut self, hash: u64, i: u32, hash_of: impl Fn(u32) -> u64) {
        if let Positions::Narrow(t) = self {
            if i >= u16::MAX as u32 {
                let mut wide = hashbrown::HashTable::with_capacity(t.len() * 2);
                for &j in t.iter() {
                    wide.insert_unique(hash_of(j as u32), j as u32, |&k| hash_of(k));
                }
                *self = Positions::Wide(wide);
            }
        }
        match self {
            Positions::Narrow(t) => {
                t.insert_unique(hash, i as u16, |&j| hash_of(j as u32));
            }
            Positions::Wide(t) => {
                t.insert_unique(hash, i, |&j| hash_of(j));
            }
        }
    }
}

impl Names {
    fn with_capacity(n: usize) -> Names {
        Names {
            list: Vec::with_capacity(n),
            table: Positions::with_capacity(n),
        }
    }

    #[inline]
    fn find(&self, hash: u64, name: &str) -> Option<u32> {
        self.table.find(hash, |i| {
            self.list[i as usize].key.eq_ignore_ascii_case(name)
        })
    }

    fn push(&mut self, entry: Arc<NameEntry>) {
        let i = self.list.len() as u32;
        let list = &self.list;
        self.table.insert(entry.hash, i, |j| list[j as usize].hash);
        self.list.push(entry);
    }

    /// The table again from `list` (after a removal, which is rare).
    fn reindex(&mut self) {
        let mut table = Positions::with_capacity(self.list.len());
        let list = &self.list;
        for (j, e) in list.iter().enumerate() {
            table.insert(e.hash, j as u32, |k| list[k as usize].hash);
        }
        self.table = table;
    }
}

impl std::fmt::Debug for ClassAd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl ClassAd {
    pub fn new() -> ClassAd {
        ClassAd::default()
    }

    /// Insert or replace; a replaced attribute keeps its position and its
    /// first spelling, as in libclassad.
    pub fn insert(&mut self, name: &str, expr: Expr) {
        self.insert_slot(name, key_hash(name), None, Slot::parsed(expr))
    }

    fn insert_slot(
        &mut self,
        name: &str,
        hash: u64,
        interned: Option<&Arc<NameEntry>>,
        slot: Slot,
    ) {
        match self.names.find(hash, name) {
            Some(j) => self.slots[j as usize] = slot,
            None => {
                let entry = interned
                    .cloned()
                    .unwrap_or_else(|| intern_entry(name, hash));
                Arc::make_mut(&mut self.names).push(entry);
                self.slots.push(slot);
            }
        }
    }

    /// An empty ad with room for `n` attributes.
    pub fn with_capacity(n: usize) -> ClassAd {
        ClassAd {
            slots: Vec::with_capacity(n),
            names: Arc::new(Names::with_capacity(n)),
            source: None,
        }
    }

    /// Keep one copy of the names when `other` names the same attributes,
    /// spelled the same, in the same order (readers call this with the
    /// previous ad of a pool). Nothing about the ad changes but memory.
    /// Returns whether the names are now shared.
    pub fn share_names(&mut self, other: &ClassAd) -> bool {
        if Arc::ptr_eq(&self.names, &other.names) {
            return true;
        }
        let (a, b) = (&self.names.list, &other.names.list);
        let same = a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                // Interned: equal names are usually the same entries.
                Arc::ptr_eq(x, y) || (x.text == y.text && x.hash == y.hash && x.key == y.key)
            });
        if same {
            self.names = other.names.clone();
        }
        same
    }

    pub fn insert_value(&mut self, name: &str, v: Value) {
        self.insert(name, Expr::literal(v));
    }

    /// [`insert_value`](Self::insert_value) into one of many ads that share
    /// their names (a negotiator writing `RemoteUserPrio` into every
    /// claimed slot of a pool): each shared names table is extended once,
    /// and the ads keep sharing the extension.
    pub fn insert_value_shared(&mut self, name: &str, v: Value, cache: &mut SharedNames) {
        let hash = key_hash(name);
        if self.names.find(hash, name).is_some() {
            return self.insert_value(name, v);
        }
        let key = (Arc::as_ptr(&self.names) as usize, name.to_ascii_lowercase());
        let (_, extended) = cache.0.entry(key).or_insert_with(|| {
            let mut names = Names::clone(&self.names);
            names.push(intern_entry(name, hash));
            // The base is kept: its address is the key.
            (self.names.clone(), Arc::new(names))
        });
        self.names = extended.clone();
        self.slots.push(Slot::parsed(Expr::literal(v)));
    }

    pub fn remove(&mut self, name: &str) -> Option<Expr> {
        let i = self.position(name)? as usize;
        let e = self.slots[i].get(&self.source).clone();
        self.slots.remove(i);
        let names = Arc::make_mut(&mut self.names);
        names.list.remove(i);
        names.reindex();
        Some(e)
    }

    #[inline]
    fn position_hashed(&self, name: &str, hash: u64) -> Option<u32> {
        self.names.find(hash, name)
    }

    /// Position of an attribute by name (any case).
    #[inline]
    pub fn position(&self, name: &str) -> Option<u32> {
        self.position_hashed(name, key_hash(name))
    }

    /// Position of an attribute by a parsed name: hash precomputed, key
    /// already folded (and usually the very same interned string).
    #[inline]
    pub fn position_name(&self, name: &Name) -> Option<u32> {
        let names = &*self.names;
        names.table.find(name.hash, |i| {
            let k = &names.list[i as usize].key;
            Arc::ptr_eq(k, &name.key) || **k == *name.key
        })
    }

    /// The folded, interned key of attribute `i` (see [`intern_name`]).
    #[inline]
    pub fn key_at(&self, i: u32) -> &Arc<str> {
        &self.names.list[i as usize].key
    }

    pub fn get(&self, name: &str) -> Option<&Expr> {
        let i = self.position(name)?;
        Some(self.slots[i as usize].get(&self.source))
    }

    #[inline]
    pub fn at(&self, i: u32) -> (&str, &Expr) {
        (
            &self.names.list[i as usize].text,
            self.slots[i as usize].get(&self.source),
        )
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Expr)> {
        self.names
            .list
            .iter()
            .map(|e| &*e.text)
            .zip(self.slots.iter().map(|s| s.get(&self.source)))
    }

    /// The interned name of attribute `i`.
    #[inline]
    pub fn entry_at(&self, i: u32) -> &Arc<NameEntry> {
        &self.names.list[i as usize]
    }

    /// The name of attribute `i` as written, without parsing anything.
    #[inline]
    pub fn name_at(&self, i: u32) -> &str {
        &self.names.list[i as usize].text
    }

    /// The names in order, without parsing anything.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.list.iter().map(|e| &*e.text)
    }

    /// Whether attribute `i` has been parsed (always, unless the ad is lazy).
    pub fn is_parsed(&self, i: u32) -> bool {
        self.slots[i as usize].expr.get().is_some()
    }

    /// The text of attribute `i` while it is unparsed (lazy), else `None`:
    /// a caller looking for something in the text need not parse it.
    pub fn unparsed_text(&self, i: u32) -> Option<&str> {
        if self.is_parsed(i) {
            return None;
        }
        self.definition_text(i)
    }

    /// The text attribute `i` was read from, parsed or not (lazy ads only).
    pub fn definition_text(&self, i: u32) -> Option<&str> {
        let slot = &self.slots[i as usize];
        let s = self.source.as_ref()?;
        if slot.len == 0 && slot.at == 0 {
            // Inserted parsed (`Slot::parsed`), not read from the text.
            return None;
        }
        let (at, len) = (slot.at as usize, (slot.len & !Slot::LITERAL) as usize);
        s.slice(at, len)
    }

    /// Whether two ads read their definitions from the same text the same
    /// way: equal definition texts are then equal expressions.
    pub fn same_source(&self, other: &ClassAd) -> bool {
        match (&self.source, &other.source) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Attribute `i`'s expression without keeping it parsed: a lazy
    /// definition is parsed for the caller and dropped after (a walk over
    /// every definition of a production pool need not grow it eightfold).
    pub fn expr_transient(&self, i: u32) -> std::borrow::Cow<'_, Expr> {
        let slot = &self.slots[i as usize];
        match (slot.expr.get(), &self.source) {
            (Some(e), _) => std::borrow::Cow::Borrowed(e),
            (None, Some(s)) => {
                let (at, len) = (slot.at as usize, (slot.len & !Slot::LITERAL) as usize);
                std::borrow::Cow::Owned(s.parse_at(at, len))
            }
            (None, None) => std::borrow::Cow::Owned(Expr::literal(Value::Error)),
        }
    }

    /// How many of the definitions have been parsed (all of them, unless
    /// the ad is lazy): what `--stats` reports.
    pub fn parsed_count(&self) -> usize {
        self.slots.iter().filter(|s| s.expr.get().is_some()).count()
    }

    /// Whether attribute `i` is a literal (known without parsing it).
    #[inline]
    pub fn is_literal(&self, i: u32) -> bool {
        self.slots[i as usize].is_literal()
    }

    /// Make this ad read its definitions from `source` (see
    /// [`insert_lazy`](Self::insert_lazy)).
    pub fn set_source(&mut self, source: Arc<LazySource>) {
        self.source = Some(source);
    }

    /// The attributes in libclassad's order (by name length, then name
    /// without regard to case): what HTCondor prints, so our output does too.
    pub fn iter_canonical(&self) -> impl Iterator<Item = (&str, &Expr)> {
        let mut v: Vec<(&str, &Expr)> = self.iter().collect();
        v.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| cmp_nocase(a.0, b.0)));
        v.into_iter()
    }

    /// Copy every attribute of `other` into this ad (later wins).
    pub fn update(&mut self, other: &ClassAd) {
        for (n, e) in other.iter() {
            self.insert(n, e.clone());
        }
    }
}

/// Shift every span in a tree by `by` bytes (for expressions parsed out of
/// a larger file).
pub fn shift_spans(e: &mut Expr, by: usize) {
    map_spans(e, &|o| o + by as u32);
}

/// Move every span of `e` (as [`shift_spans`] does) through `to`, which
/// maps an offset of the text `e` was parsed from to one of another.
pub fn map_spans(e: &mut Expr, to: &impl Fn(u32) -> u32) {
    if !e.span.is_none() {
        e.span.start = to(e.span.start);
        e.span.end = to(e.span.end);
    }
    match &mut e.kind {
        ExprKind::Literal(_) | ExprKind::Attr { .. } | ExprKind::Record(_) | ExprKind::List(_) => {}
        ExprKind::Select(b, _) | ExprKind::Unary(_, b) | ExprKind::Paren(b) => map_spans(b, to),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Elvis(a, b) => {
            map_spans(a, to);
            map_spans(b, to);
        }
        ExprKind::Cond(a, b, c) => {
            map_spans(a, to);
            map_spans(b, to);
            map_spans(c, to);
        }
        ExprKind::Call(c) => c.args.iter_mut().for_each(|a| map_spans(a, to)),
    }
}
