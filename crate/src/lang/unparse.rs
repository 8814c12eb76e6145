//! Unparsing: expressions and values back to text exactly as HTCondor's
//! `ClassAdUnParser` writes them (the canonical form), or as `condor_q -l`
//! writes them (the old form: shorter reals, raw strings).

use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind};
use crate::lang::value::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `ClassAdUnParser`: reals as `%.15E`, strings fully escaped.
    Canonical,
    /// The old ClassAd long format: reals as `%.16G` (with `.0` added to
    /// whole numbers), only `"` escaped in strings.
    Old,
    /// Canonical, but reals in the shortest text that reads back to the
    /// same number (`536870912.0`, `0.3`): for texts people read and paste,
    /// such as the analyzer's suggestions.
    Readable,
    /// Readable, with `=?=` and `=!=` as the user typed them (which the
    /// unparser writes `is`, `isnt`): for explain trees.
    Typed,
}

pub fn unparse(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e, Style::Canonical);
    s
}

/// [`unparse`] with reals as people write them ([`Style::Readable`]).
pub fn unparse_readable(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e, Style::Readable);
    s
}

/// [`unparse_readable`] with the meta operators as typed ([`Style::Typed`]).
pub fn unparse_typed(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e, Style::Typed);
    s
}

pub fn unparse_old(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e, Style::Old);
    s
}

pub fn value_to_string(v: &Value) -> String {
    let mut s = String::new();
    write_value(&mut s, v, Style::Canonical);
    s
}

/// A value prints as the unparser writes it (here, not in `value`: the
/// unparser stands above the values it writes).
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&value_to_string(self))
    }
}

/// A whole ad in canonical new syntax: `[ a = 1; b = 2 ]`.
pub fn unparse_ad(ad: &ClassAd) -> String {
    let mut s = String::new();
    write_ad(&mut s, ad, Style::Canonical);
    s
}

pub fn write_expr(out: &mut String, e: &Expr, st: Style) {
    match &e.kind {
        ExprKind::Literal(v) => write_value(out, v, st),
        ExprKind::Attr { name, absolute } => {
            if *absolute {
                out.push('.');
            }
            write_name(out, &name.text);
        }
        ExprKind::Select(base, name) => {
            // libclassad never quotes the name after a dot.
            write_expr(out, base, st);
            out.push('.');
            out.push_str(&name.text);
        }
        ExprKind::Index(base, idx) => {
            write_expr(out, base, st);
            out.push('[');
            write_expr(out, idx, st);
            out.push(']');
        }
        ExprKind::Unary(op, a) => {
            out.push(' ');
            out.push_str(op.symbol());
            write_expr(out, a, st);
        }
        ExprKind::Binary(op, a, b) => {
            write_expr(out, a, st);
            out.push(' ');
            // `condor_q -l` writes the meta operators symbolically.
            out.push_str(match (st, op) {
                (Style::Old, BinaryOp::MetaEq | BinaryOp::Is) => "=?=",
                (Style::Old, BinaryOp::MetaNe | BinaryOp::Isnt) => "=!=",
                // For people: as they typed it.
                (Style::Typed, _) => op.spelling(),
                _ => op.symbol(),
            });
            out.push(' ');
            write_expr(out, b, st);
        }
        ExprKind::Cond(c, a, b) => {
            write_expr(out, c, st);
            out.push_str(" ? ");
            write_expr(out, a, st);
            out.push_str(" : ");
            write_expr(out, b, st);
        }
        ExprKind::Elvis(a, b) => {
            write_expr(out, a, st);
            out.push_str(" ?: ");
            write_expr(out, b, st);
        }
        ExprKind::Paren(a) => {
            out.push('(');
            write_expr(out, a, st);
            out.push(')');
        }
        ExprKind::Call(c) => {
            out.push_str(&c.name);
            out.push('(');
            for (i, a) in c.args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_expr(out, a, st);
            }
            out.push(')');
        }
        ExprKind::List(items) => write_list(out, items, st),
        ExprKind::Record(ad) => write_ad(out, ad, st),
    }
}

fn write_list(out: &mut String, items: &[Expr], st: Style) {
    out.push_str("{ ");
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_expr(out, a, st);
    }
    out.push_str(" }");
}

pub fn write_ad(out: &mut String, ad: &ClassAd, st: Style) {
    out.push_str("[ ");
    for (i, (n, e)) in ad.iter_canonical().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        write_name(out, n);
        out.push_str(" = ");
        write_expr(out, e, st);
    }
    out.push_str(" ]");
}

pub fn write_value(out: &mut String, v: &Value, st: Style) {
    match v {
        Value::Undefined => out.push_str("undefined"),
        Value::Error => out.push_str("error"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(itoa::Buffer::new().format(*i)),
        Value::Real(r) => write_real(out, *r, st),
        Value::Str(s) => write_string(out, s, st),
        Value::AbsTime(t) => {
            out.push_str("absTime(\"");
            out.push_str(&crate::lang::time::format_abs_time(*t));
            out.push_str("\")");
        }
        Value::RelTime(t) => {
            out.push_str("relTime(\"");
            out.push_str(&crate::lang::time::format_rel_time(*t));
            out.push_str("\")");
        }
        Value::List(l) => write_list(out, &l.items, st),
        Value::Record(r) => write_ad(out, &r.ad, st),
    }
}

pub fn write_real(out: &mut String, r: f64, st: Style) {
    if r.is_nan() {
        out.push_str("real(\"NaN\")");
    } else if r.is_infinite() {
        out.push_str(if r > 0.0 {
            "real(\"INF\")"
        } else {
            "real(\"-INF\")"
        });
    } else if r == 0.0 && st != Style::Old {
        // libclassad prints zero specially (keeping its sign).
        out.push_str(if r.is_sign_negative() { "-0.0" } else { "0.0" });
    } else {
        match st {
            Style::Canonical => crate::lang::real_text::write_e(out, r, 15),
            Style::Old => out.push_str(&format_g16(r)),
            Style::Readable | Style::Typed => {
                // Rust's shortest round-trip form; a whole number keeps
                // its `.0` so it stays a real.
                let t = format!("{r:?}");
                out.push_str(&t);
                if !t.contains(['.', 'e', 'E']) {
                    out.push_str(".0");
                }
            }
        }
    }
}

/// `text` (values as the canonical unparser writes them) with each real
/// written as people read it: `5.000000000000000E-01` as `0.5`,
/// `2.684354560000000E+08` as `268435456.0`. Strings are left as they are.
/// For sentences, tooltips and trees; the value line keeps the exact form.
pub fn reals_for_people(text: &str) -> String {
    reals_for_people_with(text, &|token| {
        let r = token.parse::<f64>().ok()?;
        let mut out = String::new();
        write_real(&mut out, shortest_printing_as(r, token), Style::Readable);
        Some(out)
    })
}

/// [`reals_for_people`] with the number formatting given: `people` gets
/// each canonical real's text and answers what to write instead (a web
/// page passes JavaScript's, which it has already, rather than linking
/// Rust's).
pub fn reals_for_people_with(text: &str, people: &dyn Fn(&str) -> Option<String>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut from) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => {
                // Skip the string literal (its escapes included).
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c if c.is_ascii_digit() && (i == 0 || !is_name_byte(b[i - 1])) => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b"+-.".contains(&b[i])) {
                    // A sign belongs to the number only after its `E`.
                    if b"+-".contains(&b[i]) && !b"Ee".contains(&b[i - 1]) {
                        break;
                    }
                    i += 1;
                }
                let token = &text[start..i];
                if token.contains('E') && token.contains('.') {
                    if let Some(p) = people(token) {
                        out.push_str(&text[from..start]);
                        out.push_str(&p);
                        from = i;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[from.min(text.len())..]);
    out
}

/// The number with the fewest digits whose canonical text is `token`
/// (`8.388629892999999E+06` is how 8388629.893 prints: 16 digits say more
/// than the double holds).
fn shortest_printing_as(r: f64, token: &str) -> f64 {
    (0..17)
        .filter_map(|p| format!("{r:.p$e}").parse::<f64>().ok())
        .find(|c| format_e(*c, 15) == token)
        .unwrap_or(r)
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

/// C's `%.{prec}E`: `1.500000000000000E+00`.
pub fn format_e(r: f64, prec: usize) -> String {
    let mut out = String::with_capacity(prec + 8);
    crate::lang::real_text::write_e(&mut out, r, prec);
    out
}

/// C's `%.16G`, with `.0` appended when the result looks like an integer
/// (as HTCondor's old-syntax writer does so the type survives a round trip).
pub fn format_g16(r: f64) -> String {
    let mut s = format_g(r, 16);
    if !s.contains(['.', 'E', 'e', 'n', 'N', 'i', 'I']) {
        s.push_str(".0");
    }
    s
}

/// C's `%.{p}G`.
pub fn format_g(r: f64, p: usize) -> String {
    if r == 0.0 {
        return if r.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let p = p.max(1);
    // Exponent after rounding to p significant digits.
    let e_form = format!("{:.*E}", p - 1, r);
    let (mant, exp) = e_form.split_once('E').unwrap();
    let exp: i32 = exp.parse().unwrap();
    if exp < -4 || exp >= p as i32 {
        let mant = trim_zeros(mant);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}E{sign}{:02}", exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        trim_zeros(&format!("{:.*}", decimals, r)).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

pub fn write_string(out: &mut String, s: &str, st: Style) {
    out.push('"');
    match st {
        Style::Old => {
            for c in s.chars() {
                if c == '"' {
                    out.push('\\');
                }
                out.push(c);
            }
        }
        Style::Canonical | Style::Readable | Style::Typed => escape_into(out, s, Some(b'"')),
    }
    out.push('"');
}

/// libclassad's escaping inside `"…"` strings and `'…'` names: the quote
/// (if any) and backslash, C's named control escapes, every other byte
/// outside printable ASCII as three octal digits. The result is printable
/// ASCII.
pub(crate) fn escape_into(out: &mut String, s: &str, quote: Option<u8>) {
    // Most text needs no escape: copy it in runs.
    let plain = |b: u8| (0x20..=0x7e).contains(&b) && b != b'\\' && Some(b) != quote;
    let mut from = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if plain(b) {
            continue;
        }
        // Bytes `from..i` are ASCII, so both ends are character boundaries.
        if from < i {
            out.push_str(&s[from..i]);
        }
        from = i + 1;
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            q if Some(q) == quote => {
                out.push('\\');
                out.push(q as char);
            }
            _ => out.push_str(&format!("\\{:03o}", b)),
        }
    }
    out.push_str(&s[from..]);
}

pub use crate::lang::names::needs_quotes;

pub fn write_name(out: &mut String, name: &str) {
    if needs_quotes(name) {
        out.push('\'');
        escape_into(out, name, Some(b'\''));
        out.push('\'');
    } else {
        out.push_str(name);
    }
}

/// libclassad's PrettyPrint layout of a list or record (what its
/// `unparse()` function returns for them): each nesting level on its own
/// lines, lists indented by 3 and 6, records by 4 and 8.
pub fn unparse_pretty(e: &Expr) -> String {
    let mut out = String::new();
    write_pretty(&mut out, e, 0);
    out
}

fn write_pretty(out: &mut String, e: &Expr, indent: usize) {
    match &e.kind {
        ExprKind::List(items) => {
            out.push('\n');
            out.push_str(&" ".repeat(indent + 3));
            out.push('{');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&" ".repeat(indent + 6));
                write_pretty(out, item, indent + 6);
            }
            out.push('\n');
            out.push_str(&" ".repeat(indent + 3));
            out.push('}');
        }
        ExprKind::Record(ad) => {
            out.push('\n');
            out.push_str(&" ".repeat(indent + 4));
            out.push('[');
            for (i, (n, v)) in ad.iter_canonical().enumerate() {
                out.push_str(if i == 0 { "\n" } else { "; \n" });
                out.push_str(&" ".repeat(indent + 8));
                write_name(out, n);
                out.push_str(" = ");
                write_pretty(out, v, indent + 8);
            }
            out.push('\n');
            out.push_str(&" ".repeat(indent + 4));
            out.push(']');
        }
        _ => write_expr(out, e, Style::Canonical),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_in_runs_around_multibyte_text_and_quotes() {
        let mut out = String::new();
        escape_into(&mut out, "é a\"b\\\n\u{7f}z€", Some(b'"'));
        assert_eq!(out, "\\303\\251 a\\\"b\\\\\\n\\177z\\342\\202\\254");
        let mut out = String::new();
        escape_into(&mut out, "plain", None);
        assert_eq!(out, "plain");
        assert!(needs_quotes("TRUE") && needs_quotes("isnt") && !needs_quotes("Undefined1"));
    }
}
