//! The expression tree and the ClassAd (record) it lives in.
//!
//! Trees are immutable and cheaply shared (`Arc`): the matchmaker, the
//! indexer and the analyzer walk and rebuild them without copying ads.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::value::Value;

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

/// An attribute name: as written, and its case-folded key.
#[derive(Clone, Debug)]
pub struct Name {
    pub text: Arc<str>,
    pub key: Arc<str>,
}

impl Name {
    pub fn new(text: &str) -> Name {
        Name {
            text: text.into(),
            key: fold(text).into(),
        }
    }
    pub fn is(&self, lower: &str) -> bool {
        &*self.key == lower
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

/// Attribute names compare without regard to ASCII case.
pub fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
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

/// A ClassAd: an ordered set of attribute definitions with case-insensitive
/// names.
#[derive(Clone, Debug, Default)]
pub struct ClassAd {
    attrs: Vec<(Arc<str>, Expr)>,
    index: FxHashMap<Arc<str>, u32>,
}

impl ClassAd {
    pub fn new() -> ClassAd {
        ClassAd::default()
    }

    /// Insert or replace; a replaced attribute keeps its position.
    pub fn insert(&mut self, name: &str, expr: Expr) {
        let key: Arc<str> = fold(name).into();
        if let Some(&i) = self.index.get(&key) {
            // The first spelling of the name is kept, as libclassad does.
            self.attrs[i as usize].1 = expr;
        } else {
            self.index.insert(key, self.attrs.len() as u32);
            self.attrs.push((name.into(), expr));
        }
    }

    pub fn insert_value(&mut self, name: &str, v: Value) {
        self.insert(name, Expr::literal(v));
    }

    pub fn remove(&mut self, name: &str) -> Option<Expr> {
        let key = fold(name);
        let i = self.index.remove(key.as_str())? as usize;
        let (_, e) = self.attrs.remove(i);
        for v in self.index.values_mut() {
            if *v as usize > i {
                *v -= 1;
            }
        }
        Some(e)
    }

    /// Position of an attribute by its folded key.
    #[inline]
    pub fn position(&self, key: &str) -> Option<u32> {
        self.index.get(key).copied()
    }

    pub fn get(&self, name: &str) -> Option<&Expr> {
        let i = self.position(&fold(name))?;
        Some(&self.attrs[i as usize].1)
    }

    #[inline]
    pub fn at(&self, i: u32) -> (&str, &Expr) {
        let (n, e) = &self.attrs[i as usize];
        (n, e)
    }

    pub fn len(&self) -> usize {
        self.attrs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.attrs.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Expr)> {
        self.attrs.iter().map(|(n, e)| (&**n, e))
    }

    /// The attributes in libclassad's order (by name length, then name
    /// without regard to case): what HTCondor prints, so our output does too.
    pub fn iter_canonical(&self) -> impl Iterator<Item = (&str, &Expr)> {
        let mut v: Vec<(&str, &Expr)> = self.iter().collect();
        v.sort_by(|a, b| {
            a.0.len()
                .cmp(&b.0.len())
                .then_with(|| crate::eval::ops::cmp_nocase(a.0, b.0))
        });
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
    if !e.span.is_none() {
        e.span.start += by as u32;
        e.span.end += by as u32;
    }
    match &mut e.kind {
        ExprKind::Literal(_) | ExprKind::Attr { .. } | ExprKind::Record(_) | ExprKind::List(_) => {}
        ExprKind::Select(b, _) | ExprKind::Unary(_, b) | ExprKind::Paren(b) => shift_spans(b, by),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Elvis(a, b) => {
            shift_spans(a, by);
            shift_spans(b, by);
        }
        ExprKind::Cond(a, b, c) => {
            shift_spans(a, by);
            shift_spans(b, by);
            shift_spans(c, by);
        }
        ExprKind::Call(c) => c.args.iter_mut().for_each(|a| shift_spans(a, by)),
    }
}
