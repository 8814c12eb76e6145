//! JSON as HTCondor reads and writes it (`condor_status -json`,
//! `condor_q -json`, libclassad's `ClassAdJsonParser` /
//! `ClassAdJsonUnParser`).
//!
//! Reading accepts an array of objects (`[ {…}, {…} ]`, as the tools print
//! it), JSON lines (one object per line) or any sequence of objects. Values:
//! `null` is undefined, numbers with a fraction or exponent are reals and
//! other numbers integers, arrays are lists, objects are nested records, and
//! a string is an expression exactly when HTCondor takes it as one: it was
//! written with escaped slashes, `"\/Expr(…)\/"` (the prefix in any case). An
//! unescaped `"/Expr(…)/"` stays a string, as in libclassad. As in
//! libclassad, stray commas between an object's members are allowed.
//!
//! The parser is our own (not serde_json) so that member order is kept,
//! `\/` can be told from `/`, and every error has its exact position. A
//! syntax error ends the object it is in; reading resumes at the next line
//! that opens an object at the indentation of the top-level objects. A bad
//! value (an expression that does not parse) drops just that attribute.

use super::scan;
use super::{Pool, PoolAd};
use crate::lang::ast::{ClassAd, Expr, ExprKind, Span};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::Dialect;
use crate::lang::unparse::{format_g16, Style};
use crate::lang::value::Value;

/// How deeply arrays and objects may nest.
const MAX_NESTING: u32 = 1000;

pub(super) fn read(text: &str, dialect: Dialect) -> Pool {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        pos: 0,
        dialect,
        pool: Pool::default(),
    };
    r.top();
    r.pool
}

/// Just past the `}` that closes the JSON object opening at `start`
/// (brackets counted outside strings), if the text holds one.
fn object_end(b: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = scan::json_string_end(b, i);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    dialect: Dialect,
    pool: Pool,
}

/// A value that was read; `None` when it was bad in a way that only loses
/// the attribute holding it (already reported).
type V = Option<Expr>;

impl<'a> Reader<'a> {
    fn top(&mut self) {
        let mut array_open: Option<usize> = None;
        // The indentation of the first top-level object: resynchronisation
        // points are lines opening an object no deeper than it.
        let mut top_indent: Option<usize> = None;
        // In an array, a `,` or the `]` must come between two objects.
        let mut need_comma = false;
        loop {
            self.ws();
            let Some(&c) = self.b.get(self.pos) else {
                if let Some(open) = array_open {
                    self.pool.diagnostics.push(
                        Diagnostic::new(
                            Span::new(open, open + 1),
                            "this JSON array is never closed",
                        )
                        .expected("`]` after the last object"),
                    );
                }
                return;
            };
            match c {
                b'[' if array_open.is_none() => {
                    array_open = Some(self.pos);
                    need_comma = false;
                    self.pos += 1;
                }
                b']' if array_open.is_some() => {
                    array_open = None;
                    self.pos += 1;
                }
                b',' => {
                    need_comma = false;
                    self.pos += 1;
                }
                b'{' => {
                    if need_comma {
                        self.soft(
                            Diagnostic::new(
                                Span::new(self.pos, self.pos + 1),
                                "missing `,` between two objects",
                            )
                            .expected("`,` or `]`")
                            .warning(),
                        );
                    }
                    let start = self.pos;
                    let indent = *top_indent.get_or_insert_with(|| {
                        scan::indentation(self.b, start).unwrap_or(usize::MAX)
                    });
                    match self.object(1) {
                        Ok(ad) => self.pool.push(PoolAd {
                            ad,
                            span: Span::new(start, self.pos),
                            label: String::new(),
                        }),
                        Err(d) => {
                            self.pool.diagnostics.push(d.also("this ad is left out"));
                            // Resume after this object (a compact array has
                            // every ad on one line), or at the next line
                            // opening one, whichever comes first (a broken
                            // string can make the object seem to run on).
                            let end = object_end(self.b, start);
                            let next = scan::next_line_opening(self.text, start, b'{', indent);
                            match (end, next) {
                                (Some(e), Some(n)) if e <= n => {
                                    self.pos = e;
                                    need_comma = array_open.is_some();
                                }
                                (_, Some(n)) => {
                                    self.pos = n;
                                    // Whatever came between was skipped.
                                    need_comma = false;
                                }
                                (Some(e), None) => {
                                    self.pos = e;
                                    need_comma = array_open.is_some();
                                }
                                (None, None) => return,
                            }
                            continue;
                        }
                    }
                    need_comma = array_open.is_some();
                }
                // An array element that is not an object: report it, skip it.
                b'"' | b'-' | b'0'..=b'9' | b'[' | b't' | b'f' | b'n' if array_open.is_some() => {
                    let start = self.pos;
                    match self.value(1) {
                        Ok(_) => {
                            self.soft(
                                Diagnostic::new(
                                    Span::new(start, self.pos),
                                    "an array element that is not an object",
                                )
                                .expected("one JSON object per ad"),
                            );
                            need_comma = true;
                        }
                        Err(d) => {
                            self.pool.diagnostics.push(d);
                            let indent = top_indent.unwrap_or(usize::MAX);
                            match scan::next_line_opening(self.text, start, b'{', indent) {
                                Some(p) => self.pos = p,
                                None => return,
                            }
                            need_comma = false;
                        }
                    }
                }
                _ => {
                    let what = if array_open.is_some() {
                        "`{` to open an object, `,` or `]`"
                    } else {
                        "`{` to open an object (one per ad) or `[` to open an array of them"
                    };
                    self.pool.diagnostics.push(
                        Diagnostic::new(
                            scan::span_at(self.pos, 1),
                            format!("unexpected `{}`", scan::excerpt(self.text, self.pos, 20)),
                        )
                        .expected(what),
                    );
                    let from = self.pos;
                    let indent = top_indent.unwrap_or(usize::MAX);
                    match scan::next_line_opening(self.text, from, b'{', indent) {
                        Some(p) => self.pos = p,
                        None => return,
                    }
                }
            }
        }
    }

    fn soft(&mut self, d: Diagnostic) {
        self.pool.diagnostics.push(d);
    }

    fn ws(&mut self) {
        loop {
            match self.b.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                // A byte-order mark.
                Some(0xEF) if self.text[self.pos..].starts_with(scan::BOM) => {
                    self.pos += scan::BOM.len()
                }
                _ => return,
            }
        }
    }

    fn unexpected(&self, expected: &str) -> Diagnostic {
        let what = match self.b.get(self.pos) {
            None => "end of input".to_string(),
            Some(_) => format!("`{}`", scan::excerpt(self.text, self.pos, 20)),
        };
        Diagnostic::new(scan::span_at(self.pos, 1), format!("unexpected {what}")).expected(expected)
    }

    fn too_deep(&self) -> Diagnostic {
        Diagnostic::new(
            scan::span_at(self.pos, 1),
            format!("JSON nested more than {MAX_NESTING} levels deep"),
        )
    }

    /// An object at `{`; its members become a ClassAd.
    fn object(&mut self, depth: u32) -> Result<ClassAd, Diagnostic> {
        if depth > MAX_NESTING {
            return Err(self.too_deep());
        }
        let open = self.pos;
        self.pos += 1;
        let mut ad = ClassAd::new();
        loop {
            self.ws();
            match self.b.get(self.pos) {
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(ad);
                }
                // libclassad skips empty members (`{,"a": 1,,}`).
                Some(b',') => self.pos += 1,
                Some(b'"') => {
                    let key_at = self.pos;
                    let (key, _) = self.string()?;
                    self.ws();
                    if self.b.get(self.pos) != Some(&b':') {
                        return Err(self
                            .unexpected(&format!(
                                "`:` after the name \"{}\"",
                                scan::shorten(&key, 40)
                            ))
                            .in_attribute(&key));
                    }
                    self.pos += 1;
                    self.ws();
                    let before = self.pool.diagnostics.len();
                    let v = self.value(depth).map_err(|d| d.in_attribute(&key))?;
                    for d in &mut self.pool.diagnostics[before..] {
                        if d.attribute.is_none() {
                            d.attribute = Some(key.clone());
                        }
                    }
                    if key.is_empty() {
                        self.soft(
                            Diagnostic::new(
                                Span::new(key_at, key_at + 2),
                                "an attribute name cannot be empty",
                            )
                            .help("HTCondor rejects the whole ad; only this attribute was dropped"),
                        );
                    } else if let Some(v) = v {
                        ad.insert(&key, v);
                    }
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',' | b'}') => {}
                        _ => {
                            return Err(self
                                .unexpected(&format!(
                                    "`,` or `}}` after the value of \"{}\"",
                                    scan::shorten(&key, 40)
                                ))
                                .in_attribute(&key))
                        }
                    }
                }
                None => {
                    return Err(Diagnostic::new(
                        Span::new(open, open + 1),
                        "this JSON object is never closed",
                    )
                    .expected("`}`"))
                }
                Some(_) => return Err(self.unexpected("a quoted attribute name or `}`")),
            }
        }
    }

    fn value(&mut self, depth: u32) -> Result<V, Diagnostic> {
        let start = self.pos;
        let lit = |v: Value| Ok(Some(Expr::literal(v)));
        match self.b.get(self.pos) {
            Some(b'{') => {
                let ad = self.object(depth + 1)?;
                Ok(Some(Expr::new(
                    ExprKind::Record(std::sync::Arc::new(ad)),
                    Span::new(start, self.pos),
                )))
            }
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => {
                let (s, quoted_expr) = self.string()?;
                let is_expr = quoted_expr
                    && s.len() >= 8
                    && s.as_bytes()[..6].eq_ignore_ascii_case(b"/Expr(")
                    && s.ends_with(")/");
                if !is_expr {
                    return lit(Value::str(s));
                }
                let inner = &s[6..s.len() - 2];
                match crate::lang::parser::parse_expr_in(inner, self.dialect) {
                    Ok(mut e) => {
                        let raw = &self.text[start + 1..self.pos - 1];
                        crate::lang::ast::shift_spans(&mut e, start + 1 + raw_offset(raw, 6));
                        Ok(Some(e))
                    }
                    Err(d) => {
                        let raw = &self.text[start + 1..self.pos - 1];
                        let at = |o: u32| start + 1 + raw_offset(raw, 6 + o as usize);
                        let span =
                            Span::new(at(d.span.start), at(d.span.end).max(at(d.span.start)));
                        self.soft(Diagnostic {
                            span,
                            line: 0,
                            column: 0,
                            message: format!("in \"\\/Expr(…)\\/\": {}", d.message),
                            ..d
                        });
                        Ok(None)
                    }
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(c) if c.is_ascii_alphabetic() => {
                let n = self.b[self.pos..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                let word = &self.text[self.pos..self.pos + n];
                let v = match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "null" => Value::Undefined,
                    _ => {
                        return Err(Diagnostic::new(
                            Span::new(self.pos, self.pos + n),
                            format!("`{}` is not a JSON value", scan::shorten(word, 30)),
                        )
                        .expected("a JSON value")
                        .help(
                            "JSON has true, false and null (undefined); other expressions are \
                             written as \"\\/Expr(…)\\/\" strings",
                        ))
                    }
                };
                self.pos += n;
                lit(v)
            }
            _ => Err(self.unexpected("a JSON value")),
        }
    }

    fn array(&mut self, depth: u32) -> Result<V, Diagnostic> {
        if depth > MAX_NESTING {
            return Err(self.too_deep());
        }
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        let mut ok = true;
        self.ws();
        if self.b.get(self.pos) == Some(&b']') {
            self.pos += 1;
        } else {
            loop {
                self.ws();
                match self.value(depth)? {
                    Some(e) => items.push(e),
                    None => ok = false,
                }
                self.ws();
                match self.b.get(self.pos) {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    None => {
                        return Err(Diagnostic::new(
                            Span::new(open, open + 1),
                            "this JSON array is never closed",
                        )
                        .expected("`]`"))
                    }
                    Some(_) => return Err(self.unexpected("`,` or `]` in the array")),
                }
            }
        }
        Ok(ok.then(|| Expr::new(ExprKind::List(items.into()), Span::new(open, self.pos))))
    }

    fn number(&mut self) -> Result<V, Diagnostic> {
        let start = self.pos;
        let b = self.b;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let int_digits = i - int_start;
        let mut real = false;
        let bad = |i: usize, msg: &str| {
            Err(Diagnostic::new(
                Span::new(start, i.max(start + 1)),
                msg.to_string(),
            ))
        };
        if int_digits == 0 {
            return bad(i, "a JSON number needs digits");
        }
        if int_digits > 1 && b[int_start] == b'0' {
            return bad(i, "a JSON number cannot start with 0");
        }
        if b.get(i) == Some(&b'.') {
            real = true;
            i += 1;
            let f = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == f {
                return bad(i, "a JSON number needs digits after `.`");
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            real = true;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let f = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == f {
                return bad(i, "a JSON number needs digits in its exponent");
            }
        }
        if b.get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'.' || *c == b'_')
        {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'.' || *c == b'_')
            {
                j += 1;
            }
            return Err(Diagnostic::new(
                Span::new(start, j),
                format!(
                    "`{}` is not a JSON number",
                    scan::shorten(&self.text[start..j], 30)
                ),
            ));
        }
        self.pos = i;
        let t = &self.text[start..i];
        if real {
            // Too large is ±infinity, as strtod gives it.
            Ok(Some(Expr::literal(Value::Real(
                t.parse().unwrap_or(f64::NAN),
            ))))
        } else {
            match t.parse::<i64>() {
                Ok(n) => Ok(Some(Expr::literal(Value::Int(n)))),
                Err(_) => {
                    self.soft(
                        Diagnostic::new(
                            Span::new(start, i),
                            scan::too_big_integer(t),
                        )
                        .help("HTCondor reads it as 0, and so does this reader; write it as a real (with `.0`) to keep its magnitude")
                        .warning(),
                    );
                    Ok(Some(Expr::literal(Value::Int(0))))
                }
            }
        }
    }

    /// A string at `"`: its decoded text, and whether it used the `\/`
    /// escape (which is what marks `"\/Expr(…)\/"` as an expression).
    fn string(&mut self) -> Result<(String, bool), Diagnostic> {
        let open = self.pos;
        let b = self.b;
        let mut i = open + 1;
        let mut out = String::new();
        let mut solidus = false;
        let mut chunk = i;
        let unterminated = || {
            Diagnostic::new(Span::new(open, open + 1), "unterminated string")
                .expected("a closing `\"` on the same line")
        };
        loop {
            let Some(&c) = b.get(i) else {
                return Err(unterminated());
            };
            match c {
                b'"' => {
                    out.push_str(&self.text[chunk..i]);
                    self.pos = i + 1;
                    return Ok((out, solidus));
                }
                b'\n' => return Err(unterminated()),
                0 => {
                    return Err(Diagnostic::new(
                        Span::new(i, i + 1),
                        "a string cannot contain the null character",
                    ))
                }
                b'\\' => {
                    out.push_str(&self.text[chunk..i]);
                    let e = b.get(i + 1).copied();
                    i += 2;
                    match e {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => {
                            solidus = true;
                            out.push('/')
                        }
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hi = self.hex4(i)?;
                            i += 4;
                            let ch = if (0xD800..0xDC00).contains(&hi)
                                && b.get(i) == Some(&b'\\')
                                && b.get(i + 1) == Some(&b'u')
                            {
                                let lo = self.hex4(i + 2)?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    i += 6;
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            if ch == Some('\0') {
                                // No ClassAd string holds one (libclassad refuses
                                // it too), so nothing could write it back.
                                return Err(Diagnostic::new(
                                    Span::new(i - 6, i),
                                    "a string cannot contain the null character",
                                )
                                .expected("a character other than \\u0000"));
                            }
                            // A lone surrogate cannot be text: U+FFFD.
                            out.push(ch.unwrap_or('\u{fffd}'));
                        }
                        _ => {
                            let at = i - 2;
                            return Err(Diagnostic::new(
                                Span::new(at, (at + 2).min(b.len())),
                                format!(
                                    "invalid escape `{}` in a JSON string",
                                    scan::excerpt(self.text, at, 2)
                                ),
                            )
                            .expected("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"));
                        }
                    }
                    chunk = i;
                }
                _ => i += 1,
            }
        }
    }

    fn hex4(&self, at: usize) -> Result<u32, Diagnostic> {
        let h = self
            .b
            .get(at..at + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
        match h {
            // Four ASCII hex digits: valid UTF-8 and a valid number.
            Some(h) => {
                Ok(u32::from_str_radix(std::str::from_utf8(h).unwrap_or("0"), 16).unwrap_or(0))
            }
            None => Err(Diagnostic::new(
                Span::new(at.saturating_sub(2), (at + 4).min(self.b.len())),
                "`\\u` must be followed by four hex digits",
            )),
        }
    }
}

/// The offset in the raw (escaped) text of a JSON string's body of the
/// decoded byte at `decoded`.
fn raw_offset(raw: &str, decoded: usize) -> usize {
    let b = raw.as_bytes();
    let (mut i, mut d) = (0, 0);
    while i < b.len() && d < decoded {
        if b[i] == b'\\' {
            let len = match b.get(i + 1) {
                Some(b'u') => {
                    // One \uXXXX (or a surrogate pair) decodes to 1-4 bytes;
                    // count it as the bytes of what it decodes to.
                    let hex = raw
                        .get(i + 2..i + 6)
                        .and_then(|h| u32::from_str_radix(h, 16).ok());
                    let n = hex.and_then(char::from_u32).map_or(3, char::len_utf8);
                    d += n;
                    i += 6;
                    continue;
                }
                _ => 2,
            };
            i += len;
            d += 1;
        } else {
            i += 1;
            d += 1;
        }
    }
    i.min(b.len())
}

// ---------------------------------------------------------------- writing

/// The array `condor_status -json` prints: `[`, the ads separated by
/// `,` lines, `]`. (With no ads at all HTCondor prints nothing; we print an
/// empty array so the output is still JSON.)
pub(super) fn write_array(out: &mut String, ads: &[&ClassAd]) {
    out.push_str("[\n");
    for (i, ad) in ads.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        let mut w = Writer {
            out: &mut *out,
            indent: 0,
            oneline: false,
        };
        w.ad(ad);
        out.push('\n');
    }
    out.push_str("]\n");
}

/// One ad on one line, as libclassad's one-line JSON unparser writes it.
pub(super) fn write_line(out: &mut String, ad: &ClassAd) {
    Writer {
        out,
        indent: 0,
        oneline: true,
    }
    .ad(ad);
}

/// One ad as `ClassAd.printJson()` shows it.
pub fn ad_to_json(ad: &ClassAd) -> String {
    let mut out = String::new();
    Writer {
        out: &mut out,
        indent: 0,
        oneline: false,
    }
    .ad(ad);
    out
}

/// `ClassAdJsonUnParser`, byte for byte.
struct Writer<'o> {
    out: &'o mut String,
    indent: usize,
    oneline: bool,
}

impl Writer<'_> {
    fn newline(&mut self) {
        if !self.oneline {
            self.out.push('\n');
            for _ in 0..self.indent {
                self.out.push(' ');
            }
        }
    }

    fn ad(&mut self, ad: &ClassAd) {
        self.members(ad.iter());
    }

    fn members<'e>(&mut self, members: impl Iterator<Item = (&'e str, &'e Expr)>) {
        self.out.push('{');
        self.indent += 2;
        for (i, (name, e)) in members.enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.newline();
            self.out.push('"');
            escape(self.out, name);
            self.out.push_str("\": ");
            self.expr(e);
        }
        self.indent -= 2;
        self.newline();
        self.out.push('}');
    }

    fn list<'e>(&mut self, items: impl Iterator<Item = &'e Expr>) {
        self.out.push('[');
        self.indent += 2;
        for (i, e) in items.enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.newline();
            self.expr(e);
        }
        self.indent -= 2;
        self.newline();
        self.out.push(']');
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(v) => self.value(e, v),
            ExprKind::List(items) => self.list(items.iter()),
            ExprKind::Record(ad) => self.ad(ad),
            _ => quoted_expr(self.out, e),
        }
    }

    fn value(&mut self, e: &Expr, v: &Value) {
        match v {
            Value::Undefined => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => self.out.push_str(&i.to_string()),
            Value::Real(r) if r.is_finite() => self.out.push_str(&format_g16(*r)),
            // HTCondor 25 writes a relative time as its seconds, a real.
            Value::RelTime(r) if r.is_finite() => self.out.push_str(&format_g16(*r)),
            Value::Str(s) => {
                self.out.push('"');
                escape(self.out, s);
                self.out.push('"');
            }
            Value::List(l) => self.list(l.items.iter()),
            Value::Record(r) => self.ad(&r.ad),
            // error, absolute times, NaN and infinities.
            _ => quoted_expr(self.out, e),
        }
    }
}

/// `"\/Expr(…)\/"` around the canonical unparse of `e`.
fn quoted_expr(out: &mut String, e: &Expr) {
    let mut s = String::new();
    crate::lang::unparse::write_expr(&mut s, e, Style::Canonical);
    out.push_str("\"\\/Expr(");
    escape(out, &s);
    out.push_str(")\\/\"");
}

/// `UnparseAuxEscapeString`: `"` `\` and the short control escapes, other
/// control characters as `\u00XX`, everything else (DEL, non-ASCII) raw.
fn escape(out: &mut String, s: &str) {
    let mut last = 0;
    for (i, c) in s.char_indices() {
        let esc: &str = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{0}'..='\u{1f}' => "",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        if esc.is_empty() {
            out.push_str(&format!("\\u{:04X}", c as u32));
        } else {
            out.push_str(esc);
        }
        last = i + c.len_utf8();
    }
    out.push_str(&s[last..]);
}
