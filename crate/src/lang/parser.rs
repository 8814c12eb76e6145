//! Recursive-descent parser for ClassAd expressions and records, with
//! HTCondor's operator precedence. Depth is bounded so hostile input (a
//! hundred thousand open brackets, or a very long operator chain) is an
//! error rather than a stack overflow in the parser or in later passes.

use std::sync::Arc;

use crate::lang::ast::{BinaryOp, Call, ClassAd, Expr, ExprKind, Name, Span, UnaryOp};
use crate::lang::builtins;
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::{Dialect, Lexer, Tok, Token};
use crate::lang::mode::Mode;
use crate::lang::value::Value;

/// The deepest expression tree accepted. Evaluation, unparsing and
/// specialization recurse on the tree, so this also bounds their stack use.
pub const MAX_DEPTH: u32 = 2000;

/// The deepest the parser itself recurses (brackets, unary operators and
/// conditionals inside one another: about two levels each). A level of the
/// parser costs several frames, so this is lower than [`MAX_DEPTH`]: a
/// browser's Web Worker has about 1 MB of stack, and the parser must fit
/// in it everywhere the engine runs.
pub const MAX_NESTING: u32 = 600;

/// Parse one expression; the whole input must be consumed.
pub fn parse_expr(src: &str) -> Result<Expr, Diagnostic> {
    parse_expr_in(src, Dialect::default())
}

pub fn parse_expr_in(src: &str, dialect: Dialect) -> Result<Expr, Diagnostic> {
    parse_expr_with(src, dialect, Mode::HTCondor)
}

/// Parse with the lexical rules of an evaluation mode: HTCondor (old
/// ClassAd rules: no leading zeros, `;` may separate function arguments)
/// or strict libclassad.
pub fn parse_expr_with(src: &str, dialect: Dialect, mode: Mode) -> Result<Expr, Diagnostic> {
    let mut p = Parser::new_with(src, dialect, mode).map_err(|d| d.locate(src))?;
    let r = p.expr().and_then(|e| {
        p.expect_eof("an operator or the end of the expression")?;
        Ok(e)
    });
    r.map_err(|d| d.locate(src))
}

/// [`parse_expr_with`], with the literals the readers warn about
/// ([`Parser::overflows`]).
pub fn parse_expr_noted(
    src: &str,
    dialect: Dialect,
    mode: Mode,
) -> Result<(Expr, Vec<Span>), Diagnostic> {
    let mut p = Parser::new_with(src, dialect, mode).map_err(|d| d.locate(src))?;
    let r = p.expr().and_then(|e| {
        p.expect_eof("an operator or the end of the expression")?;
        Ok(e)
    });
    r.map(|e| (e, p.overflows().to_vec()))
        .map_err(|d| d.locate(src))
}

/// Parse one bracketed ClassAd `[ a = 1; b = 2 ]`.
pub fn parse_classad(src: &str) -> Result<ClassAd, Diagnostic> {
    parse_classad_in(src, Dialect::default())
}

pub fn parse_classad_in(src: &str, dialect: Dialect) -> Result<ClassAd, Diagnostic> {
    let mut p = Parser::new(src, dialect).map_err(|d| d.locate(src))?;
    let r = p.record_ad().and_then(|ad| {
        p.expect_eof("the end of the input after the ClassAd")?;
        Ok(ad)
    });
    r.map_err(|d| d.locate(src))
}

pub struct Parser<'a> {
    lx: Lexer<'a>,
    tok: Token,
    /// End of the token consumed last.
    last_end: Span,
    /// Current recursion depth.
    depth: u32,
    mode: Mode,
}

type P<T> = Result<T, Diagnostic>;
/// An expression with the depth of its tree.
type D = (Expr, u32);

fn too_nested(span: Span) -> Diagnostic {
    Diagnostic::new(
        span,
        format!(
            "brackets, unary operators or conditionals nested more than {} deep",
            MAX_NESTING / 2
        ),
    )
    .help("split the expression: define part of it as an attribute and refer to it")
}

fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::new(
        span,
        format!("expression nested more than {MAX_DEPTH} levels deep"),
    )
    .help("split the expression into several attributes")
}

fn node(kind: ExprKind, span: Span, depth: u32) -> P<D> {
    if depth > MAX_DEPTH {
        return Err(too_deep(span));
    }
    Ok((Expr::new(kind, span), depth))
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, dialect: Dialect) -> P<Parser<'a>> {
        Parser::new_with(src, dialect, Mode::HTCondor)
    }

    pub fn new_with(src: &'a str, dialect: Dialect, mode: Mode) -> P<Parser<'a>> {
        let mut lx = Lexer::new(src, dialect);
        lx.set_strict(mode == Mode::Strict);
        let tok = lx.next_token()?;
        Ok(Parser {
            lx,
            tok,
            last_end: Span::NONE,
            depth: 0,
            mode,
        })
    }

    pub fn peek(&self) -> &Tok {
        &self.tok.tok
    }
    pub fn span(&self) -> Span {
        self.tok.span
    }

    pub fn bump(&mut self) -> P<Token> {
        let next = self.lx.next_token()?;
        let t = std::mem::replace(&mut self.tok, next);
        self.last_end = t.span;
        Ok(t)
    }

    fn at(&self, p: &str) -> bool {
        matches!(&self.tok.tok, Tok::Punct(q) if *q == p)
    }

    fn eat(&mut self, p: &str) -> P<bool> {
        if self.at(p) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn unexpected(&self, expected: &str) -> Diagnostic {
        Diagnostic::new(
            self.tok.span,
            format!("unexpected {}", self.tok.tok.describe()),
        )
        .expected(expected)
    }

    fn expect(&mut self, p: &str, expected: &str) -> P<Span> {
        if self.at(p) {
            Ok(self.bump()?.span)
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// Integer literals read so far that did not fit in 64 bits (each
    /// read as 0, as libclassad does).
    pub fn overflows(&self) -> &[Span] {
        &self.lx.overflows
    }

    pub fn expect_eof(&mut self, expected: &str) -> P<()> {
        if self.tok.tok == Tok::Eof {
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn enter(&mut self) -> P<()> {
        self.depth += 1;
        // The outermost expression's own two levels are not nesting: 300
        // brackets inside one another are accepted, as the message says.
        if self.depth > MAX_NESTING + 2 {
            return Err(too_nested(self.tok.span));
        }
        Ok(())
    }

    /// Parse one expression.
    pub fn expr(&mut self) -> P<Expr> {
        Ok(self.expr_d()?.0)
    }

    /// expression := or-expr [ '?' expression ':' expression | '?:' expression ]
    fn expr_d(&mut self) -> P<D> {
        self.enter()?;
        let r = self.expr_inner();
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self) -> P<D> {
        let (cond, dc) = self.binary(1)?;
        if self.eat("?")? {
            let (yes, dy) = self.expr_d()?;
            self.expect(":", "`:` of the conditional `c ? a : b`")?;
            let (no, dn) = self.expr_d()?;
            let span = cond.span.to(no.span);
            return node(
                ExprKind::Cond(Box::new(cond), Box::new(yes), Box::new(no)),
                span,
                1 + dc.max(dy).max(dn),
            );
        }
        Ok((cond, dc))
    }

    fn binary_op(&self) -> Option<BinaryOp> {
        use BinaryOp::*;
        Some(match &self.tok.tok {
            Tok::Is => Is,
            Tok::Isnt => Isnt,
            Tok::Punct(p) => match *p {
                "||" => Or,
                "&&" => And,
                "|" => BitOr,
                "^" => BitXor,
                "&" => BitAnd,
                "==" => Eq,
                "!=" => Ne,
                "=?=" => MetaEq,
                "=!=" => MetaNe,
                "<" => Lt,
                "<=" => Le,
                ">" => Gt,
                ">=" => Ge,
                "<<" => Shl,
                ">>" => Shr,
                ">>>" => Ushr,
                "+" => Add,
                "-" => Sub,
                "*" => Mul,
                "/" => Div,
                "%" => Mod,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Precedence climbing over the left-associative binary operators.
    fn binary(&mut self, min_prec: u8) -> P<D> {
        self.enter()?;
        let r = self.binary_inner(min_prec);
        self.depth -= 1;
        r
    }

    fn binary_inner(&mut self, min_prec: u8) -> P<D> {
        let (mut lhs, mut depth) = self.unary()?;
        while let Some(op) = self.binary_op() {
            let prec = op.precedence();
            if prec < min_prec {
                break;
            }
            self.bump()?;
            // Not counted as nesting: this recursion climbs the precedence
            // levels (a dozen at most) before a bracket counts again, so
            // `1 + (1 + (…))` nests as deep as `((…))` may.
            let (rhs, dr) = self.binary_inner(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            (lhs, depth) = node(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
                1 + depth.max(dr),
            )?;
        }
        Ok((lhs, depth))
    }

    fn unary(&mut self) -> P<D> {
        let op = match &self.tok.tok {
            Tok::Punct("-") => UnaryOp::Minus,
            Tok::Punct("+") => UnaryOp::Plus,
            Tok::Punct("!") => UnaryOp::Not,
            Tok::Punct("~") => UnaryOp::BitNot,
            _ => return self.postfix(),
        };
        let start = self.bump()?.span;
        // libclassad reads `-5` (minus directly before a number) as one
        // negative literal, but `- 5` as an operator; unparse shows it.
        if op == UnaryOp::Minus && self.tok.span.start == start.end {
            let neg = match self.tok.tok {
                Tok::Int(i) | Tok::PaddedInt(i) => Some(Value::Int(i.wrapping_neg())),
                Tok::IntTwoTo63 => Some(Value::Int(i64::MIN)),
                Tok::Real(r) => Some(Value::Real(-r)),
                _ => None,
            };
            if let Some(v) = neg {
                let end = self.bump()?.span;
                return self.postfix_from((Expr::new(ExprKind::Literal(v), start.to(end)), 1));
            }
        }
        self.enter()?;
        let r = self.unary();
        self.depth -= 1;
        let (operand, d) = r?;
        let span = start.to(operand.span);
        node(ExprKind::Unary(op, Box::new(operand)), span, d + 1)
    }

    fn postfix(&mut self) -> P<D> {
        let first = self.primary()?;
        self.postfix_from(first)
    }

    fn postfix_from(&mut self, d: D) -> P<D> {
        self.postfix_ops(d, true)
    }

    /// Selections, subscripts and (when `elvis`) the `?:` token, which
    /// binds tighter than any operator, with a primary on each side, as in
    /// libclassad: `1 + x ?: 2` is `1 + (x ?: 2)`.
    fn postfix_ops(&mut self, (mut e, mut depth): D, elvis: bool) -> P<D> {
        loop {
            if self.at(".") {
                self.bump()?;
                let (name, nspan) = self.attr_name("an attribute name after `.`")?;
                let span = e.span.to(nspan);
                (e, depth) = node(ExprKind::Select(Box::new(e), name), span, depth + 1)?;
            } else if self.at("[") {
                self.bump()?;
                let (idx, di) = self.expr_d()?;
                let end = self.expect("]", "`]` to close the subscript")?;
                let span = e.span.to(end);
                (e, depth) = node(
                    ExprKind::Index(Box::new(e), Box::new(idx)),
                    span,
                    1 + depth.max(di),
                )?;
            } else if elvis && self.at("?:") {
                self.bump()?;
                self.enter()?;
                let r = self
                    .elvis_operand()
                    .and_then(|p| self.postfix_ops(p, false));
                self.depth -= 1;
                let (alt, da) = r?;
                let span = e.span.to(alt.span);
                (e, depth) = node(
                    ExprKind::Elvis(Box::new(e), Box::new(alt)),
                    span,
                    1 + depth.max(da),
                )?;
            } else {
                return Ok((e, depth));
            }
        }
    }

    /// The right side of `?:`: a primary, or a negative number literal
    /// (which libclassad's lexer reads as one token).
    fn elvis_operand(&mut self) -> P<D> {
        if matches!(self.tok.tok, Tok::Punct("-")) {
            let minus = self.tok.span;
            let next_is_number = {
                let rest = &self.lx.source()[minus.end as usize..];
                rest.starts_with(|c: char| c.is_ascii_digit() || c == '.')
            };
            if next_is_number {
                self.bump()?;
                let v = match self.tok.tok {
                    Tok::Int(i) | Tok::PaddedInt(i) => Value::Int(i.wrapping_neg()),
                    Tok::IntTwoTo63 => Value::Int(i64::MIN),
                    Tok::Real(r) => Value::Real(-r),
                    _ => return Err(self.unexpected("a number after `-`")),
                };
                let end = self.bump()?.span;
                return Ok((Expr::new(ExprKind::Literal(v), minus.to(end)), 1));
            }
        }
        self.primary()
    }

    fn attr_name(&mut self, expected: &str) -> P<(Name, Span)> {
        match &self.tok.tok {
            Tok::Ident(_) | Tok::QuotedName(_) => {}
            _ => return Err(self.unexpected(expected)),
        }
        let t = self.bump()?;
        match t.tok {
            Tok::Ident(s) | Tok::QuotedName(s) => Ok((Name::new(&s), t.span)),
            _ => unreachable!("checked above"),
        }
    }

    fn primary(&mut self) -> P<D> {
        let span = self.tok.span;
        let lit = |v: Value| Ok((Expr::new(ExprKind::Literal(v), span), 1));
        // A seed-era relative time ('00:15') becomes `relTime(<seconds>)`:
        // it then evaluates to a relative time in HTCondor too, whereas a
        // `relTime("…")` literal evaluates to a real there.
        if let Tok::RelTime(t) = self.tok.tok {
            self.bump()?;
            let secs = if t.fract() == 0.0 && t.abs() < 9.0e15 {
                Value::Int(t as i64)
            } else {
                Value::Real(t)
            };
            let arg = Expr::new(ExprKind::Literal(secs), span);
            let call = Call {
                name: "relTime".into(),
                func: builtins::lookup("relTime"),
                args: vec![arg],
            };
            return Ok((Expr::new(ExprKind::Call(call), span), 2));
        }
        let value = match &self.tok.tok {
            Tok::Int(i) => Some(Value::Int(*i)),
            Tok::IntTwoTo63 => {
                // 2^63 not negated: an overflow, read as 0.
                self.lx.overflows.push(span);
                Some(Value::Int(0))
            }
            Tok::PaddedInt(_) => {
                let text = self
                    .lx
                    .source()
                    .get(span.start as usize..span.end as usize)
                    .unwrap_or("");
                let octal = i64::from_str_radix(text, 8).unwrap_or(0);
                return Err(Diagnostic::new(
                    span,
                    format!(
                        "`{text}` is not a number in HTCondor (an integer cannot start with 0); \
                         in the seed papers' notation it is octal, {octal}"
                    ),
                )
                .expected("a decimal integer without leading zeros")
                .help("HTCondor reads 012 as an error; strict libclassad reads it as 12"));
            }
            Tok::Real(r) => Some(Value::Real(*r)),
            Tok::True => Some(Value::Bool(true)),
            Tok::False => Some(Value::Bool(false)),
            Tok::Undefined => Some(Value::Undefined),
            Tok::Error => Some(Value::Error),
            Tok::AbsTime(t) => Some(Value::AbsTime(*t)),
            _ => None,
        };
        if let Some(v) = value {
            self.bump()?;
            return lit(v);
        }
        match self.tok.tok.clone() {
            Tok::Str(s) => {
                self.bump()?;
                Ok((Expr::new(ExprKind::Literal(Value::str(s)), span), 1))
            }
            Tok::QuotedName(s) => {
                self.bump()?;
                let name = Name::new(&s);
                Ok((
                    Expr::new(
                        ExprKind::Attr {
                            name,
                            absolute: false,
                        },
                        span,
                    ),
                    1,
                ))
            }
            Tok::Ident(s) => {
                self.bump()?;
                if self.at("(") {
                    return self.call(s, span);
                }
                let name = Name::new(&s);
                Ok((
                    Expr::new(
                        ExprKind::Attr {
                            name,
                            absolute: false,
                        },
                        span,
                    ),
                    1,
                ))
            }
            Tok::Punct(".") => {
                self.bump()?;
                let (name, nspan) = self.attr_name("an attribute name after `.`")?;
                Ok((
                    Expr::new(
                        ExprKind::Attr {
                            name,
                            absolute: true,
                        },
                        span.to(nspan),
                    ),
                    1,
                ))
            }
            Tok::Punct("(") => {
                self.bump()?;
                let (inner, d) = self.expr_d()?;
                let end = self.expect(")", "`)` to close the parenthesis")?;
                node(ExprKind::Paren(Box::new(inner)), span.to(end), d + 1)
            }
            Tok::Punct("{") => self.list(),
            Tok::Punct("[") => {
                let (ad, d) = self.record_d()?;
                node(ExprKind::Record(Arc::new(ad)), span.to(self.last_end), d)
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    fn call(&mut self, name: String, start: Span) -> P<D> {
        self.bump()?; // (
        let mut args = Vec::new();
        let mut depth = 0;
        if !self.at(")") {
            loop {
                let (a, d) = self.expr_d()?;
                depth = depth.max(d);
                args.push(a);
                // Old ClassAd syntax also separates arguments with `;`.
                if !self.eat(",")? && !(self.mode == Mode::HTCondor && self.eat(";")?) {
                    break;
                }
            }
        }
        let end = self.expect(")", "`,` or `)` in the argument list")?;
        if let Some(v) = time_literal_call(&name, &args, start.to(end))? {
            return Ok((Expr::new(ExprKind::Literal(v), start.to(end)), 1));
        }
        let func = builtins::lookup(&name).or_else(|| {
            (self.lx.dialect() != Dialect::Modern)
                .then(|| builtins::lookup_seed(&name))
                .flatten()
        });
        node(
            ExprKind::Call(Call {
                name: name.into(),
                func,
                args,
            }),
            start.to(end),
            depth + 1,
        )
    }

    fn list(&mut self) -> P<D> {
        let start = self.bump()?.span; // {
        let mut items = Vec::new();
        let mut depth = 0;
        if !self.at("}") {
            loop {
                let (e, d) = self.expr_d()?;
                depth = depth.max(d);
                items.push(e);
                if !self.eat(",")? {
                    break;
                }
            }
        }
        let end = self.expect("}", "`,` or `}` in the list")?;
        node(ExprKind::List(items.into()), start.to(end), depth + 1)
    }

    /// `[ name = expr ; … ]`, the current token being `[`.
    pub fn record_ad(&mut self) -> P<ClassAd> {
        Ok(self.record_d()?.0)
    }

    fn record_d(&mut self) -> P<(ClassAd, u32)> {
        self.enter()?;
        let r = self.record_inner();
        self.depth -= 1;
        r
    }

    fn record_inner(&mut self) -> P<(ClassAd, u32)> {
        self.expect("[", "`[` to open a ClassAd")?;
        let mut ad = ClassAd::new();
        let mut depth = 0;
        loop {
            // Extra `;` are allowed (`[; a = 1;; b = 2]`), but a record of
            // nothing but `;` is an error, as in libclassad.
            let mut semis = false;
            while self.eat(";")? {
                semis = true;
            }
            if self.at("]") {
                if semis && ad.is_empty() {
                    return Err(self.unexpected("an attribute definition"));
                }
                break;
            }
            let (name, nspan) = self.attr_name("an attribute name or `]`")?;
            if name.text.is_empty() {
                return Err(Diagnostic::new(nspan, "an attribute name cannot be empty")
                    .expected("a name such as 'My Attribute'"));
            }
            self.expect(
                "=",
                &format!("`=` after the attribute name `{}`", name.text),
            )
            .map_err(|d| d.in_attribute(&name.text))?;
            let (e, d) = self.expr_d().map_err(|d| d.in_attribute(&name.text))?;
            depth = depth.max(d);
            ad.insert(&name.text, e);
            if !self.eat(";")? {
                if self.at("]") {
                    break;
                }
                // The seed papers' figures sometimes omit the `;` before the
                // next definition; outside the modern dialect a name here
                // can only start one.
                if self.lx.dialect() != Dialect::Modern
                    && matches!(self.tok.tok, Tok::Ident(_) | Tok::QuotedName(_))
                {
                    continue;
                }
                return Err(self
                    .unexpected("`;` or `]` after the attribute definition")
                    .in_attribute(&name.text));
            }
        }
        self.bump()?; // ]
        Ok((ad, depth + 1))
    }
}

/// libclassad's parser turns `absTime("…")` and `relTime("…")` with a
/// string literal into a time literal, and rejects text that is no time.
fn time_literal_call(name: &str, args: &[Expr], span: Span) -> P<Option<Value>> {
    let [arg] = args else {
        return Ok(None);
    };
    let Some(Value::Str(text)) = arg.as_literal() else {
        return Ok(None);
    };
    if name.eq_ignore_ascii_case("abstime") {
        let clock = crate::lang::time::Clock::default();
        match crate::lang::time::parse_abs_time_text(text, |t| clock.offset_at(t)) {
            Some(t) => Ok(Some(Value::AbsTime(t))),
            None => Err(
                Diagnostic::new(span, format!("\"{text}\" is not an absolute time"))
                    .expected("ISO 8601 such as \"2003-02-10T10:53:31-06:00\""),
            ),
        }
    } else if name.eq_ignore_ascii_case("reltime") {
        match crate::lang::time::parse_rel_time_text(text) {
            Some(t) => Ok(Some(Value::RelTime(t))),
            None => Err(
                Diagnostic::new(span, format!("\"{text}\" is not a relative time"))
                    .expected("[-][days+]hh:mm:ss, such as \"1+02:00:00\""),
            ),
        }
    } else {
        Ok(None)
    }
}
