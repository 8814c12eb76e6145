//! Predicates and disjunctive normal form (seed 000 §3).
//!
//! A requirements expression, already specialized against its own ad, is
//! rewritten as a disjunction of clauses, each a conjunction of atoms. An
//! atom of the form `attr OP literal` (either order) over an attribute of
//! the *other* ad is a [`Predicate`]: the analyzer can remove it, modify its
//! value, and place it on an axis. Any other atom (a function call, two
//! attributes compared, `?:`) is opaque: it is counted and may be removed,
//! never modified.
//!
//! The rewrite is exact in ClassAd's three-valued logic: De Morgan and
//! distribution hold for `&&`, `||`, `!` over true/false/undefined, and
//! `!(a == b)` is `a != b` for every operand (both undefined, both error).
//! Only error values can tell the two forms apart (`error || true` is error,
//! `true || error` is true), so callers evaluate the original expression
//! wherever an atom was error.

use serde::Serialize;

use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, Special, UnaryOp};
use crate::lang::unparse::unparse_typed;
use crate::lang::value::Value;

/// Past these sizes DNF is abandoned and the expression is analyzed as a
/// tree (better-analyze's steps) instead: DNF can grow exponentially.
pub const MAX_CLAUSES: usize = 256;
pub const MAX_ATOMS: usize = 4096;
/// Deeper nesting than this is analyzed as a tree too.
const MAX_NESTING: u32 = 200;

/// One atom of a clause.
#[derive(Clone, Debug)]
pub struct Atom {
    /// The atom as an expression (evaluates with MY = the ad that owns the
    /// requirements and TARGET = the other ad).
    pub expr: Expr,
    /// `unparse(expr)`.
    pub text: String,
    pub predicate: Option<Predicate>,
}

/// `attr OP literal`, with the attribute belonging to the other ad.
#[derive(Clone, Debug)]
pub struct Predicate {
    /// The attribute as written (`Memory` in `TARGET.Memory >= 1024`).
    pub attribute: String,
    /// Case-folded.
    pub key: String,
    /// The attribute as a parsed name (hash precomputed, for lookups).
    pub name: crate::lang::ast::Name,
    /// The operator as written.
    pub op: BinaryOp,
    pub literal: Value,
    /// Written `literal OP attr`.
    pub literal_first: bool,
}

impl Predicate {
    /// The operator with the attribute on the left (`5 < x` is `x > 5`).
    pub fn normalized_op(&self) -> BinaryOp {
        if self.literal_first {
            flip(self.op)
        } else {
            self.op
        }
    }

    /// The predicate's value for a value of its attribute: the operator
    /// applied exactly as the evaluator applies it.
    pub fn apply(&self, v: &Value) -> Value {
        if self.literal_first {
            crate::lang::eval::ops::binary(self.op, &self.literal, v)
        } else {
            crate::lang::eval::ops::binary(self.op, v, &self.literal)
        }
    }
}

/// Requirements in DNF: clauses in the order written (left to right).
#[derive(Clone, Debug, Default)]
pub struct Dnf {
    pub clauses: Vec<Vec<Atom>>,
}

/// Why DNF was not built.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DnfLimit {
    pub reason: String,
}

/// Which names refer to the other ad when unscoped: in HTCondor mode a name
/// the ad itself does not define falls back to the target.
pub struct Sides<'a> {
    pub own: &'a ClassAd,
    pub unscoped_is_other: bool,
}

impl Sides<'_> {
    /// The other ad's attribute this expression names, if it is one.
    pub fn other_attribute(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Paren(a) => self.other_attribute(a),
            ExprKind::Select(base, name) => match &base.kind {
                ExprKind::Attr {
                    name: b,
                    absolute: false,
                } if b.special == Special::Other => Some(name.text.to_string()),
                _ => None,
            },
            ExprKind::Attr {
                name,
                absolute: false,
            } if self.unscoped_is_other
                && name.special == Special::None
                && self.own.position_name(name).is_none() =>
            {
                Some(name.text.to_string())
            }
            _ => None,
        }
    }
}

/// Put `e` in DNF. Literal `true` atoms vanish from clauses; a clause with
/// a literal `false` stays (it is what was written) and simply never holds.
pub fn dnf(e: &Expr, sides: &Sides) -> Result<Dnf, DnfLimit> {
    let mut b = Builder { sides, atoms: 0 };
    let clauses = b.convert(e, false, 0)?;
    Ok(Dnf { clauses })
}

struct Builder<'a, 'b> {
    sides: &'a Sides<'b>,
    atoms: usize,
}

type Clauses = Vec<Vec<Atom>>;

impl Builder<'_, '_> {
    fn convert(&mut self, e: &Expr, negated: bool, depth: u32) -> Result<Clauses, DnfLimit> {
        if depth > MAX_NESTING {
            return Err(DnfLimit {
                reason: format!("the expression is nested more than {MAX_NESTING} levels deep"),
            });
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Paren(a) => self.convert(a, negated, d),
            ExprKind::Unary(UnaryOp::Not, a) => self.convert(a, !negated, d),
            ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                // Under negation && becomes || and vice versa (De Morgan).
                let conj = (*op == BinaryOp::And) != negated;
                let l = self.convert(a, negated, d)?;
                let r = self.convert(b, negated, d)?;
                if conj {
                    self.product(l, r)
                } else {
                    let mut l = l;
                    l.extend(r);
                    self.check(&l)?;
                    Ok(l)
                }
            }
            _ => {
                let atom = self.atom(e, negated);
                if matches!(atom.expr.as_literal(), Some(Value::Bool(true))) {
                    // `true` is the empty conjunction.
                    return Ok(vec![vec![]]);
                }
                self.atoms += 1;
                Ok(vec![vec![atom]])
            }
        }
    }

    fn product(&mut self, l: Clauses, r: Clauses) -> Result<Clauses, DnfLimit> {
        if l.len().saturating_mul(r.len()) > MAX_CLAUSES {
            return Err(self.too_large(l.len().saturating_mul(r.len()), 0));
        }
        let mut out = Vec::with_capacity(l.len() * r.len());
        for a in &l {
            for b in &r {
                let mut c = a.clone();
                c.extend(b.iter().cloned());
                out.push(c);
            }
        }
        self.check(&out)?;
        Ok(out)
    }

    fn check(&self, c: &Clauses) -> Result<(), DnfLimit> {
        let atoms: usize = c.iter().map(|c| c.len()).sum();
        if c.len() > MAX_CLAUSES || atoms > MAX_ATOMS {
            return Err(self.too_large(c.len(), atoms));
        }
        Ok(())
    }

    /// Names the bound that was passed.
    fn too_large(&self, clauses: usize, atoms: usize) -> DnfLimit {
        let what = if clauses > MAX_CLAUSES {
            format!("{clauses} or more clauses (the analyzer stops at {MAX_CLAUSES} clauses)")
        } else {
            format!("{atoms} or more predicates in {clauses} clauses (the analyzer stops at {MAX_ATOMS} predicates)")
        };
        DnfLimit {
            reason: format!(
                "in disjunctive normal form the requirements would have {what}; \
                 they are analyzed step by step instead"
            ),
        }
    }

    fn atom(&self, e: &Expr, negated: bool) -> Atom {
        let e = strip_parens(e);
        if let ExprKind::Binary(op, a, b) = &e.kind {
            if let Some(p) = self.predicate(*op, a, b) {
                let (op, p) = if negated {
                    (
                        complement(*op),
                        Predicate {
                            op: complement(p.op),
                            ..p
                        },
                    )
                } else {
                    (*op, p)
                };
                let expr = Expr::new(ExprKind::Binary(op, a.clone(), b.clone()), e.span);
                return Atom {
                    text: unparse_typed(&expr),
                    expr,
                    predicate: Some(p),
                };
            }
        }
        let expr = if negated {
            match &e.kind {
                // !!x has x's truth.
                ExprKind::Unary(UnaryOp::Not, inner) => strip_parens(inner).clone(),
                ExprKind::Literal(v) => Expr::new(
                    ExprKind::Literal(crate::lang::eval::ops::unary(UnaryOp::Not, v.clone())),
                    e.span,
                ),
                // `!` binds tighter than every binary operator: anything
                // but a primary needs parentheses (`!(a % 2)`, not `!a % 2`).
                _ => {
                    let primary = matches!(
                        e.kind,
                        ExprKind::Attr { .. }
                            | ExprKind::Select(..)
                            | ExprKind::Index(..)
                            | ExprKind::Call(_)
                            | ExprKind::List(_)
                            | ExprKind::Record(_)
                            | ExprKind::Paren(_)
                    );
                    let inner = if primary {
                        e.clone()
                    } else {
                        Expr::new(ExprKind::Paren(Box::new(e.clone())), e.span)
                    };
                    Expr::new(ExprKind::Unary(UnaryOp::Not, Box::new(inner)), e.span)
                }
            }
        } else {
            e.clone()
        };
        Atom {
            text: unparse_typed(&expr),
            expr,
            predicate: None,
        }
    }

    fn predicate(&self, op: BinaryOp, a: &Expr, b: &Expr) -> Option<Predicate> {
        if !is_predicate_op(op) {
            return None;
        }
        let usable = |v: &Value| {
            matches!(
                v,
                Value::Int(_) | Value::Real(_) | Value::Str(_) | Value::Bool(_) | Value::Undefined
            )
        };
        let (attribute, literal, literal_first) =
            match (self.sides.other_attribute(a), strip_parens(b).as_literal()) {
                (Some(attr), Some(v)) if usable(v) => (attr, v.clone(), false),
                _ => match (strip_parens(a).as_literal(), self.sides.other_attribute(b)) {
                    (Some(v), Some(attr)) if usable(v) => (attr, v.clone(), true),
                    _ => return None,
                },
            };
        Some(Predicate {
            key: attribute.to_ascii_lowercase(),
            name: crate::lang::ast::Name::new(&attribute),
            attribute,
            op,
            literal,
            literal_first,
        })
    }
}

/// `e` as a predicate (`attr OP literal` over the other ad), if it is one.
pub fn as_predicate(e: &Expr, sides: &Sides) -> Option<Predicate> {
    let b = Builder { sides, atoms: 0 };
    match &strip_parens(e).kind {
        ExprKind::Binary(op, l, r) => b.predicate(*op, l, r),
        _ => None,
    }
}

pub fn is_predicate_op(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(
        op,
        Eq | Ne | Lt | Le | Gt | Ge | MetaEq | MetaNe | Is | Isnt
    )
}

/// The operator whose truth is the negation's (`!(a < b)` is `a >= b`).
pub fn complement(op: BinaryOp) -> BinaryOp {
    use BinaryOp::*;
    match op {
        Eq => Ne,
        Ne => Eq,
        Lt => Ge,
        Ge => Lt,
        Le => Gt,
        Gt => Le,
        MetaEq => MetaNe,
        MetaNe => MetaEq,
        Is => Isnt,
        Isnt => Is,
        o => o,
    }
}

/// The operator with its operands swapped (`a < b` is `b > a`).
pub fn flip(op: BinaryOp) -> BinaryOp {
    use BinaryOp::*;
    match op {
        Lt => Gt,
        Gt => Lt,
        Le => Ge,
        Ge => Le,
        o => o,
    }
}

pub fn strip_parens(mut e: &Expr) -> &Expr {
    while let ExprKind::Paren(inner) = &e.kind {
        e = inner;
    }
    e
}

/// Wrap in parentheses unless the node binds at least as tightly as a
/// comparison (so joining with `&&` / `||` / `!` keeps its meaning).
pub fn parenthesize(e: Expr) -> Expr {
    let tight = match &e.kind {
        ExprKind::Binary(op, _, _) => op.precedence() > BinaryOp::BitOr.precedence(),
        ExprKind::Cond(..) | ExprKind::Elvis(..) => false,
        _ => true,
    };
    if tight {
        e
    } else {
        let span = e.span;
        Expr::new(ExprKind::Paren(Box::new(e)), span)
    }
}

/// `a && b && …` (the empty conjunction is `true`).
pub fn conjunction(atoms: &[Expr]) -> Expr {
    let mut it = atoms.iter().cloned().map(parenthesize);
    let Some(first) = it.next() else {
        return Expr::literal(Value::Bool(true));
    };
    it.fold(first, |acc, x| Expr::binary(BinaryOp::And, acc, x))
}

/// `(c1) || (c2) || …` (the empty disjunction is `false`).
pub fn disjunction(clauses: Vec<Expr>) -> Expr {
    let n = clauses.len();
    if n == 1 {
        return clauses
            .into_iter()
            .next()
            .unwrap_or_else(|| Expr::literal(Value::Bool(false)));
    }
    let mut it = clauses.into_iter().map(|c| {
        if n > 1 && matches!(&c.kind, ExprKind::Binary(BinaryOp::And, _, _)) {
            let span = c.span;
            Expr::new(ExprKind::Paren(Box::new(c)), span)
        } else {
            parenthesize(c)
        }
    });
    let Some(first) = it.next() else {
        return Expr::literal(Value::Bool(false));
    };
    it.fold(first, |acc, x| Expr::binary(BinaryOp::Or, acc, x))
}

/// The text a predicate is shown with in the paper's tables: the other
/// ad's attribute without its scope (`Memory > 2096`).
pub fn display_text(atom: &Atom) -> String {
    let Some(p) = &atom.predicate else {
        return atom.text.clone();
    };
    let lit = literal_text(&p.literal);
    if p.literal_first {
        format!("{lit} {} {}", p.op.spelling(), p.attribute)
    } else {
        format!("{} {} {lit}", p.attribute, p.op.spelling())
    }
}

/// A literal as ClassAd text that reads back to the same value, with
/// reals written shortest-first (`536870912.0`, `0.3`) rather than in the
/// canonical `5.368709120000000E+08`.
pub fn literal_text(v: &Value) -> String {
    let mut s = String::new();
    crate::lang::unparse::write_value(&mut s, v, crate::lang::unparse::Style::Readable);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_expr;

    fn clauses(src: &str) -> Vec<Vec<String>> {
        let ad = ClassAd::new();
        let sides = Sides {
            own: &ad,
            unscoped_is_other: true,
        };
        dnf(&parse_expr(src).unwrap(), &sides)
            .unwrap()
            .clauses
            .iter()
            .map(|c| c.iter().map(|a| a.text.clone()).collect())
            .collect()
    }

    #[test]
    fn distributes_and_negates() {
        assert_eq!(
            clauses("(a == 1 || b == 2) && c < 3"),
            vec![vec!["a == 1", "c < 3"], vec!["b == 2", "c < 3"]]
        );
        assert_eq!(
            clauses("!(a == 1 && 2 <= b)"),
            vec![vec!["a != 1"], vec!["2 > b"]]
        );
        assert_eq!(clauses("!!(f(x))"), vec![vec!["f(x)"]]);
        assert_eq!(
            clauses("!(TARGET.Cpus % 2)"),
            vec![vec![" !(TARGET.Cpus % 2)"]]
        );
        assert_eq!(
            clauses("!(TARGET.a >= TARGET.b)"),
            vec![vec![" !(TARGET.a >= TARGET.b)"]]
        );
        assert_eq!(clauses("!(x ? a : b)"), vec![vec![" !(x ? a : b)"]]); // as libclassad unparses `!`
    }

    #[test]
    fn recognizes_predicates_either_order() {
        let ad = ClassAd::new();
        let sides = Sides {
            own: &ad,
            unscoped_is_other: true,
        };
        let d = dnf(
            &parse_expr("TARGET.Memory >= 1024 && \"LINUX\" == other.OpSys && Cpus > Disk")
                .unwrap(),
            &sides,
        )
        .unwrap();
        let p: Vec<_> = d.clauses[0].iter().map(|a| a.predicate.clone()).collect();
        assert_eq!(p[0].as_ref().unwrap().attribute, "Memory");
        assert_eq!(p[1].as_ref().unwrap().attribute, "OpSys");
        assert!(p[1].as_ref().unwrap().literal_first);
        assert_eq!(p[1].as_ref().unwrap().normalized_op(), BinaryOp::Eq);
        assert!(p[2].is_none());
    }

    #[test]
    fn stops_at_the_size_limit() {
        // (a1 || b1) && (a2 || b2) && … doubles per conjunct.
        let src: Vec<String> = (0..20)
            .map(|i| format!("(a{i} == 1 || b{i} == 2)"))
            .collect();
        let ad = ClassAd::new();
        let sides = Sides {
            own: &ad,
            unscoped_is_other: true,
        };
        let e = parse_expr(&src.join(" && ")).unwrap();
        let err = dnf(&e, &sides).unwrap_err();
        assert!(err.reason.contains("256"), "{}", err.reason);
    }
}
