//! HTCondor's XML ClassAd format, as `condor_q -xml` and
//! `condor_status -xml` print it (libclassad's `ClassAdXMLUnParser`) and
//! `ClassAdXMLParser` reads it:
//!
//! ```text
//! <?xml version="1.0"?>
//! <!DOCTYPE classads SYSTEM "classads.dtd">
//! <classads>
//! <c>
//!     <a n="Owner"><s>alice</s></a>
//!     <a n="Requirements"><e>Memory &gt;= 1024 &amp;&amp; Arch == "X86_64"</e></a>
//! </c>
//! </classads>
//! ```
//!
//! Values: `<i>` integer, `<r>` real, `<s>` string (whitespace kept,
//! ClassAd backslash escapes inside), `<b v="t"/>`, `<un/>`, `<er/>`,
//! `<at>` absolute and `<rt>` relative time, `<l>` list, `<c>` nested
//! record, and `<e>` any other expression in new syntax.
//!
//! Reading follows libclassad where it is sensible and reports where it is
//! not: a bad value (`<i>x</i>`, `<b v="yes"/>`, an `<e>` that does not
//! parse) drops its attribute; broken structure (an unknown tag, text where
//! a tag belongs) drops the ad, and reading resumes at the `</c>` that
//! closes it or at the next line opening an ad like the first one did.
//! A missing `</a>` or `</i>` before a tag that can only follow it is
//! reported and read as if it were there, as libclassad does. Unlike
//! libclassad, `&quot;`, `&apos;`, numeric references, comments and CDATA
//! are understood (libclassad leaves the first three as written).

mod lexer;
mod write;

use lexer::{Decoded, Lexer, Tag, TagKind, Token};
pub(super) use write::write;

use super::{scan, Pool, PoolAd};
use crate::lang::ast::{ClassAd, Expr, ExprKind, Span};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::{Dialect, Tok};
use crate::lang::parser::Parser;
use crate::lang::value::Value;

/// How deeply `<c>` and `<l>` may nest (each level is a few stack frames).
const MAX_NESTING: usize = 256;

const VALUE_TAGS: &str =
    "a value: <i>, <r>, <s>, <b v=\"t\"/>, <un/>, <er/>, <at>, <rt>, <e>, <l> or <c>";

pub(super) fn read(text: &str, dialect: Dialect) -> Pool {
    let mut r = Reader {
        text,
        lx: Lexer::new(text),
        back: None,
        dialect,
        pool: Pool::default(),
        top_indent: None,
    };
    r.top();
    r.pool
}

struct Reader<'a> {
    text: &'a str,
    lx: Lexer<'a>,
    /// A token read ahead and put back.
    back: Option<Token<'a>>,
    dialect: Dialect,
    pool: Pool,
    /// The indentation of the first ad's `<c>`, if it opens its line: a
    /// line opening `<c>` no deeper than that starts a new ad. Decided at
    /// the first ad.
    top_indent: Option<Option<usize>>,
}

/// Why an ad was given up: the problem, where to look for the next ad and
/// how many `<c>` were open there.
struct Fail {
    d: Diagnostic,
    at: usize,
    depth: usize,
}

impl Fail {
    fn new(d: Diagnostic, at: usize, depth: usize) -> Box<Fail> {
        Box::new(Fail { d, at, depth })
    }

    fn in_attribute(mut self: Box<Self>, name: Option<&str>) -> Box<Fail> {
        if let Some(n) = name {
            self.d = self.d.in_attribute(n);
        }
        self
    }
}

type R<T> = Result<T, Box<Fail>>;

impl<'a> Reader<'a> {
    fn next(&mut self) -> Option<Result<Token<'a>, Diagnostic>> {
        match self.back.take() {
            Some(t) => Some(Ok(t)),
            None => self.lx.next(),
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.pool.diagnostics.push(d);
    }

    fn top(&mut self) {
        // After a stray tag, the rest up to the next ad is not reported.
        let mut skipping = false;
        while let Some(t) = self.next() {
            match t {
                Err(d) => self.error(d),
                Ok(Token::Text { raw, at, .. }) => {
                    let body = raw.trim_start();
                    if !skipping && !body.trim_end().is_empty() {
                        let at = at + raw.len() - body.len();
                        self.error(
                            Diagnostic::new(
                                scan::span_at(at, body.trim_end().len()),
                                format!(
                                    "text outside any ad: `{}`",
                                    scan::excerpt(self.text, at, 30)
                                ),
                            )
                            .help("it is ignored")
                            .warning(),
                        );
                    }
                }
                Ok(Token::Tag(tag)) => match (tag.name, tag.kind) {
                    ("c", TagKind::Start) => {
                        skipping = false;
                        self.ad(tag);
                    }
                    ("c", TagKind::Empty) => {
                        skipping = false;
                        self.pool.push(PoolAd {
                            ad: ClassAd::new(),
                            span: tag.span,
                            label: String::new(),
                        });
                    }
                    // libclassad ignores the list around the ads.
                    ("classads", _) => {}
                    _ if skipping => {}
                    _ => {
                        skipping = true;
                        self.error(
                            Diagnostic::new(
                                tag.span,
                                format!("unexpected `{}` outside an ad", tag.shown()),
                            )
                            .expected("`<c>` to open an ad"),
                        );
                    }
                },
            }
        }
    }

    fn ad(&mut self, open: Tag<'a>) {
        let start = open.span.start as usize;
        if self.top_indent.is_none() {
            self.top_indent = Some(scan::indentation(self.text.as_bytes(), start));
        }
        match self.record(&open, 1, 1) {
            Ok((ad, end)) => self.pool.push(PoolAd {
                ad,
                span: Span::new(start, end),
                label: String::new(),
            }),
            Err(f) => {
                let Fail { d, at, depth } = *f;
                self.error(d);
                self.resync(at, depth);
            }
        }
    }

    /// Skip the rest of a bad ad: to the `</c>` that closes it, or to the
    /// next line opening an ad (a `</c>` may be what is missing).
    fn resync(&mut self, at: usize, mut depth: usize) {
        self.back = None;
        self.lx.pos = at;
        while let Some(t) = self.lx.next() {
            let Ok(Token::Tag(t)) = t else { continue };
            match (t.name, t.kind) {
                ("c", TagKind::Start) if self.opens_ad_line(t.span.start as usize) => {
                    self.back = Some(Token::Tag(t));
                    return;
                }
                ("c", TagKind::Start) => depth += 1,
                ("c", TagKind::End) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                ("classads", _) => return,
                _ => {}
            }
        }
    }

    fn opens_ad_line(&self, at: usize) -> bool {
        let Some(Some(top)) = self.top_indent else {
            return false;
        };
        // Only blanks back to the line start (looked at no further than the
        // indentation allows, so a long line is not rescanned per tag).
        let b = self.text.as_bytes();
        let blanks = b[..at]
            .iter()
            .rev()
            .take(top + 1)
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        blanks <= top && (blanks == at || b[at - blanks - 1] == b'\n')
    }

    /// The next token inside `open` (the end of the text and lexer errors
    /// give the ad up).
    fn next_raw(&mut self, open: &Tag, depth: usize) -> R<Token<'a>> {
        match self.next() {
            Some(Ok(t)) => Ok(t),
            Some(Err(d)) => Err(Fail::new(d, self.lx.pos, depth)),
            None => Err(Fail::new(
                Diagnostic::new(open.span, format!("`{}` is never closed", open.shown()))
                    .expected(format!("`</{}>`", open.name)),
                self.text.len(),
                depth,
            )),
        }
    }

    /// [`next_raw`](Self::next_raw), skipping blank text.
    fn next_in(&mut self, open: &Tag, depth: usize) -> R<Token<'a>> {
        loop {
            match self.next_raw(open, depth)? {
                Token::Text { raw, .. } if raw.trim().is_empty() => {}
                t => return Ok(t),
            }
        }
    }

    fn unexpected(&self, t: &Token, expected: &str, depth: usize) -> Box<Fail> {
        let (span, what) = match t {
            Token::Tag(tag) => (tag.span, format!("unexpected `{}`", tag.shown())),
            Token::Text { raw, at, .. } => {
                let body = raw.trim_start();
                let at = at + raw.len() - body.len();
                (
                    scan::span_at(at, body.trim_end().len()),
                    format!("unexpected text `{}`", scan::excerpt(self.text, at, 30)),
                )
            }
        };
        Fail::new(
            Diagnostic::new(span, what).expected(expected),
            t.start(),
            depth,
        )
    }

    fn too_deep(&self, open: &Tag, depth: usize) -> Box<Fail> {
        let d = Diagnostic::new(
            open.span,
            format!("`<c>` and `<l>` nested more than {MAX_NESTING} levels deep"),
        );
        Fail::new(d, open.span.end as usize, depth)
    }

    /// The attributes of the record opened by `open`, up to its `</c>`
    /// (returns the offset just past it). `depth` counts the open `<c>`.
    fn record(&mut self, open: &Tag, depth: usize, nest: usize) -> R<(ClassAd, usize)> {
        if nest > MAX_NESTING {
            return Err(self.too_deep(open, depth));
        }
        let mut ad = ClassAd::new();
        loop {
            let t = self.next_in(open, depth)?;
            match &t {
                Token::Tag(tag) if tag.is("a", TagKind::Start) => {
                    self.attribute(tag, &mut ad, depth, nest)?
                }
                Token::Tag(tag) if tag.is("a", TagKind::Empty) => {
                    if let Some(name) = self.attr_name(tag) {
                        self.error(no_value(tag.span, &name));
                    }
                }
                Token::Tag(tag) if tag.is("c", TagKind::End) => {
                    return Ok((ad, tag.span.end as usize))
                }
                _ => {
                    let mut f = self.unexpected(&t, "`<a n=\"…\">` or `</c>`", depth);
                    if matches!(&t, Token::Tag(c) if c.is("c", TagKind::Start)) {
                        f.d = f.d.help("is the `</c>` of the ad before it missing?");
                    }
                    return Err(f);
                }
            }
        }
    }

    /// One `<a n="…">value</a>`, at its start tag. What is reported on
    /// the way names the attribute.
    fn attribute(&mut self, tag: &Tag, ad: &mut ClassAd, depth: usize, nest: usize) -> R<()> {
        let before = self.pool.diagnostics.len();
        let name = self.attr_name(tag);
        let r = self.attribute_value(tag, name.as_deref(), depth, nest);
        if let Some(n) = &name {
            for d in &mut self.pool.diagnostics[before..] {
                if d.attribute.is_none() {
                    d.attribute = Some(n.clone());
                }
            }
            if let Ok(Some(v)) = r {
                ad.insert(n, v);
                return Ok(());
            }
        }
        r.map(|_| ()).map_err(|f| f.in_attribute(name.as_deref()))
    }

    /// The value and `</a>` of the attribute `name` (`None` if the value
    /// was bad).
    fn attribute_value(
        &mut self,
        tag: &Tag,
        name: Option<&str>,
        depth: usize,
        nest: usize,
    ) -> R<Option<Expr>> {
        let t = self.next_in(tag, depth)?;
        if matches!(&t, Token::Tag(end) if end.is("a", TagKind::End)) {
            if let Some(n) = name {
                self.error(no_value(tag.span, n));
            }
            return Ok(None);
        }
        let value = self.value(t, depth, nest)?;
        let what = || format!("`</a>` after the value of `{}`", name.unwrap_or(""));
        match self.next_in(tag, depth)? {
            Token::Tag(e) if e.is("a", TagKind::End) => {}
            Token::Tag(e) if e.is("a", TagKind::Start) || e.is("c", TagKind::End) => {
                // libclassad reads on without the end tag; so do we, saying so.
                self.error(missing_end(e.span, "a"));
                self.back = Some(Token::Tag(e));
            }
            t => return Err(self.unexpected(&t, &what(), depth)),
        }
        Ok(value)
    }

    /// The `n` of an `<a>`: entities, then ClassAd escapes, decoded.
    fn attr_name(&mut self, tag: &Tag) -> Option<String> {
        let Some(a) = tag.attr("n") else {
            self.error(
                Diagnostic::new(tag.span, "an attribute without a name")
                    .expected("<a n=\"Name\">")
                    .help("HTCondor rejects the whole ad; only this attribute was dropped"),
            );
            return None;
        };
        let mut dec = Decoded::default();
        dec.push(a.raw, a.at, false, &mut self.pool.diagnostics);
        let span = Span::new(a.at, a.at + a.raw.len());
        match unescape(&dec.text) {
            Ok(s) if !s.is_empty() => Some(s),
            Ok(_) => {
                self.error(
                    Diagnostic::new(tag.span, "an attribute name cannot be empty")
                        .help("HTCondor rejects the whole ad; only this attribute was dropped"),
                );
                None
            }
            Err(_) => {
                self.error(null_char(span));
                None
            }
        }
    }

    /// A value, at its first token; `None` if it was bad (reported).
    fn value(&mut self, t: Token<'a>, depth: usize, nest: usize) -> R<Option<Expr>> {
        let Token::Tag(tag) = t else {
            return Err(self.unexpected(&t, VALUE_TAGS, depth));
        };
        let span = tag.span;
        let lit = |v: Value| Ok(Some(Expr::new(ExprKind::Literal(v), span)));
        let start = tag.kind == TagKind::Start;
        match tag.name {
            "i" | "r" | "s" | "e" | "at" | "rt" if start => {
                let (dec, span) = self.content(&tag, depth)?;
                Ok(self.scalar(tag.name, &dec, span))
            }
            "s" if tag.kind == TagKind::Empty => lit(Value::str("")),
            "i" | "r" | "e" | "at" | "rt" if tag.kind == TagKind::Empty => {
                self.error(Diagnostic::new(
                    tag.span,
                    format!("`{}` holds no value", tag.shown()),
                ));
                Ok(None)
            }
            "b" | "un" | "er" if tag.kind != TagKind::End => {
                if start {
                    self.close_empty(&tag, depth)?;
                }
                match tag.name {
                    "b" => Ok(self
                        .boolean(&tag)
                        .map(|b| Expr::new(ExprKind::Literal(Value::Bool(b)), tag.span))),
                    "un" => lit(Value::Undefined),
                    _ => lit(Value::Error),
                }
            }
            "l" if start => self.list(&tag, depth, nest + 1),
            "l" if tag.kind == TagKind::Empty => {
                Ok(Some(Expr::new(ExprKind::List(Vec::new().into()), tag.span)))
            }
            "c" if start => {
                let (ad, end) = self.record(&tag, depth + 1, nest + 1)?;
                let span = Span::new(tag.span.start as usize, end);
                Ok(Some(Expr::new(
                    ExprKind::Record(std::sync::Arc::new(ad)),
                    span,
                )))
            }
            "c" if tag.kind == TagKind::Empty => Ok(Some(Expr::new(
                ExprKind::Record(std::sync::Arc::new(ClassAd::new())),
                tag.span,
            ))),
            _ => Err(self.unexpected(&Token::Tag(tag), VALUE_TAGS, depth)),
        }
    }

    fn list(&mut self, open: &Tag, depth: usize, nest: usize) -> R<Option<Expr>> {
        if nest > MAX_NESTING {
            return Err(self.too_deep(open, depth));
        }
        let mut items = Vec::new();
        let mut ok = true;
        loop {
            let t = self.next_in(open, depth)?;
            if let Token::Tag(end) = &t {
                if end.is("l", TagKind::End) {
                    let span = Span::new(open.span.start as usize, end.span.end as usize);
                    return Ok(ok.then(|| Expr::new(ExprKind::List(items.into()), span)));
                }
            }
            match self.value(t, depth, nest)? {
                Some(e) => items.push(e),
                None => ok = false,
            }
        }
    }

    /// The text of `<x>…</x>`, at the start tag: decoded, and the span
    /// between the tags.
    fn content(&mut self, open: &Tag, depth: usize) -> R<(Decoded, Span)> {
        let mut dec = Decoded::default();
        let start = open.span.end as usize;
        loop {
            match self.next_raw(open, depth)? {
                Token::Text { raw, at, cdata } => {
                    dec.push(raw, at, cdata, &mut self.pool.diagnostics)
                }
                Token::Tag(end) if end.is(open.name, TagKind::End) => {
                    return Ok((dec, Span::new(start, end.span.start as usize)));
                }
                Token::Tag(end) if end.is("a", TagKind::End) => {
                    self.error(missing_end(end.span, open.name));
                    let span = Span::new(start, end.span.start as usize);
                    self.back = Some(Token::Tag(end));
                    return Ok((dec, span));
                }
                t => return Err(self.unexpected(&t, &format!("`</{}>`", open.name), depth)),
            }
        }
    }

    /// The end tag of `<b …>`, `<un>` or `<er>` written with one.
    fn close_empty(&mut self, open: &Tag, depth: usize) -> R<()> {
        match self.next_in(open, depth)? {
            Token::Tag(end) if end.is(open.name, TagKind::End) => Ok(()),
            Token::Tag(end) if end.is("a", TagKind::End) => {
                self.error(missing_end(end.span, open.name));
                self.back = Some(Token::Tag(end));
                Ok(())
            }
            t => Err(self.unexpected(&t, &format!("`</{}>`", open.name), depth)),
        }
    }

    fn boolean(&mut self, tag: &Tag) -> Option<bool> {
        match tag.attr("v").map(|a| (a.raw, a.at)) {
            Some(("t" | "T", _)) => Some(true),
            Some(("f" | "F", _)) => Some(false),
            Some((v, at)) => {
                self.error(
                    Diagnostic::new(
                        Span::new(at, at + v.len()),
                        format!("`v=\"{}\"` is not a truth value", scan::shorten(v, 20)),
                    )
                    .expected("v=\"t\" or v=\"f\"")
                    .help("HTCondor reads anything but t as false"),
                );
                None
            }
            None => {
                self.error(
                    Diagnostic::new(tag.span, "a `<b>` without `v`")
                        .expected("<b v=\"t\"/> or <b v=\"f\"/>")
                        .help("HTCondor reads it as false"),
                );
                None
            }
        }
    }

    /// The value of `<i>`, `<r>`, `<s>`, `<at>`, `<rt>` or `<e>` from its
    /// decoded text (`span`: between the tags).
    fn scalar(&mut self, tag: &str, dec: &Decoded, span: Span) -> Option<Expr> {
        let lit = |v: Value| Some(Expr::new(ExprKind::Literal(v), span));
        let text = dec.text.as_str();
        if tag == "s" {
            return match unescape(text) {
                Ok(s) => lit(Value::str(s)),
                Err((a, b)) => {
                    self.error(null_char(Span::new(dec.source(a), dec.source(b))));
                    None
                }
            };
        }
        if tag == "e" {
            return self.expression(dec, span);
        }
        let t = text.trim_matches(|c: char| c.is_ascii() && crate::lang::time::is_c_space(c as u8));
        let lead = text.len()
            - text
                .trim_start_matches(|c: char| {
                    c.is_ascii() && crate::lang::time::is_c_space(c as u8)
                })
                .len();
        let at = Span::new(dec.source(lead), dec.source(lead + t.len()));
        let bad = |what: &str, expected: &str| {
            Diagnostic::new(at, format!("`{}` is not {what}", scan::shorten(t, 40)))
                .expected(expected)
        };
        if t.is_empty() {
            self.error(Diagnostic::new(span, format!("`<{tag}>` holds no value")));
            return None;
        }
        let v = match tag {
            "i" => match parse_int(t) {
                // libclassad's XML reader makes it error (its JSON reader
                // makes it 0): the attribute is kept as HTCondor keeps it.
                Err(true) => {
                    self.error(
                        Diagnostic::new(
                            at,
                            scan::too_big_integer(t),
                        )
                        .help("HTCondor reads it as error, and so does this reader; write it as a real (<r>) to keep its magnitude")
                        .warning(),
                    );
                    Ok(Value::Error)
                }
                other => {
                    other.map_err(|_| bad("an integer", "decimal digits, with an optional `-`"))
                }
            },
            "r" => parse_real(t).map(Value::Real).ok_or_else(|| {
                bad(
                    "a real number",
                    "a number such as 1.5E+00, NaN, INF or -INF",
                )
            }),
            "at" => {
                let clock = crate::lang::time::Clock::default();
                crate::lang::time::parse_abs_time_text(t, |x| clock.offset_at(x))
                    .map(Value::AbsTime)
                    .ok_or_else(|| {
                        bad(
                            "an absolute time",
                            "ISO 8601 such as 2003-02-10T10:53:31-06:00",
                        )
                    })
            }
            _ => crate::lang::time::parse_rel_time_text(t)
                .map(Value::RelTime)
                .ok_or_else(|| bad("a relative time", "[-][days+]hh:mm:ss, such as 1+02:00:00")),
        };
        match v {
            Ok(v) => lit(v),
            Err(d) => {
                self.error(d);
                None
            }
        }
    }

    /// `<e>`: the decoded text in new syntax; spans point into the file.
    fn expression(&mut self, dec: &Decoded, span: Span) -> Option<Expr> {
        let src = dec.text.as_str();
        if src.trim().is_empty() {
            self.error(Diagnostic::new(span, "`<e>` holds no expression"));
            return None;
        }
        let map = |s: Span| Span::new(dec.source(s.start as usize), dec.source(s.end as usize));
        let parsed = Parser::new(src, self.dialect).and_then(|mut p| {
            let e = p.expr()?;
            let rest = (!matches!(p.peek(), Tok::Eof)).then(|| p.span().start as usize);
            Ok((e, rest))
        });
        match parsed {
            Ok((mut e, rest)) => {
                if let Some(r) = rest.filter(|&r| r < src.len()) {
                    self.error(
                        Diagnostic::new(
                            Span::new(dec.source(r), dec.source(src.len())),
                            format!(
                                "unexpected `{}` after the expression",
                                scan::shorten(src[r..].trim(), 30)
                            ),
                        )
                        .expected("`</e>`")
                        .help("HTCondor reads the expression before this and ignores the rest"),
                    );
                }
                crate::lang::ast::map_spans(&mut e, &|o| dec.source(o as usize) as u32);
                Some(e)
            }
            Err(d) => {
                self.error(Diagnostic {
                    span: map(d.span),
                    line: 0,
                    column: 0,
                    message: format!("in <e>: {}", d.message),
                    ..d
                });
                None
            }
        }
    }
}

fn no_value(span: Span, name: &str) -> Diagnostic {
    Diagnostic::new(
        span,
        format!("the attribute `{}` has no value", scan::shorten(name, 40)),
    )
    .expected(VALUE_TAGS)
    .in_attribute(name)
}

fn missing_end(span: Span, tag: &str) -> Diagnostic {
    Diagnostic::new(span, format!("missing `</{tag}>` before this"))
        .help("HTCondor reads on as if it were there, and so does this reader")
}

fn null_char(span: Span) -> Diagnostic {
    Diagnostic::new(span, "a string cannot contain the null character")
        .expected("an octal escape between \\001 and \\377")
}

/// C's `strtoll` as libclassad uses it, without the leniency: an optional
/// `-` and decimal digits. `Err(true)` when it does not fit.
fn parse_int(t: &str) -> Result<Value, bool> {
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(false);
    }
    t.parse::<i64>().map(Value::Int).map_err(|_| true)
}

/// A decimal real, or NaN / INF / -INF as libclassad writes them.
fn parse_real(t: &str) -> Option<f64> {
    // Rust's syntax: decimal, with `inf`, `infinity` and `nan` in any case
    // (no hexadecimal, which strtod would also take).
    t.parse::<f64>().ok()
}

/// ClassAd string escapes (`\n`, `\\`, `\"`, octal `\101`, any other
/// `\c` is `c`), as libclassad's `convert_escapes` decodes `<s>` and names.
/// `Err` with the offsets of an escape that makes the null character.
fn unescape(s: &str) -> Result<String, (usize, usize)> {
    if !s.contains('\\') {
        return Ok(s.to_string());
    }
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let e = b[i + 1];
        let at = i;
        i += 2;
        out.push(match e {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'a' => 7,
            b'0'..=b'7' => {
                // Up to three octal digits; a leading 0-3 allows three.
                let max = if e <= b'3' { 3 } else { 2 };
                let mut v = u32::from(e - b'0');
                let mut n = 1;
                while n < max && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                if v == 0 {
                    return Err((at, i));
                }
                v as u8
            }
            other => other,
        });
    }
    // Octal escapes can make bytes that are not UTF-8; keep what we can.
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(p: &Pool) -> Vec<String> {
        p.ads
            .iter()
            .map(|a| crate::lang::unparse::unparse_ad(&a.ad))
            .collect()
    }

    #[test]
    fn unescape_is_the_lexers() {
        assert_eq!(
            unescape(r#"a\nb\t\\\q\101\60\400\""#).unwrap(),
            "a\nb\t\\qA0 0\""
        );
        assert_eq!(unescape("trailing\\").unwrap(), "trailing\\");
        assert_eq!(unescape(r"x\08"), Err((1, 3)));
    }

    #[test]
    fn a_missing_close_tag_before_a_new_line_ad_keeps_the_next_ad() {
        let text = "<classads>\n<c>\n    <a n=\"A\"><i>1</i></a>\n<c>\n    <a n=\"B\"><i>2</i></a>\n</c>\n</classads>\n";
        let p = read(text, Dialect::Auto);
        assert_eq!(canon(&p), ["[ B = 2 ]"]);
        assert_eq!(p.diagnostics.len(), 1, "{:?}", p.diagnostics);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let n = MAX_NESTING + 10;
        let text = format!(
            "<c><a n=\"x\">{}{}</a></c>",
            "<l>".repeat(n),
            "</l>".repeat(n)
        );
        let p = std::thread::scope(|s| s.spawn(|| read(&text, Dialect::Auto)).join().unwrap());
        assert!(p.ads.is_empty());
        assert_eq!(p.diagnostics.len(), 1);
    }
}
