//! Writing XML as `condor_q -xml` does (libclassad's `ClassAdXMLUnParser`
//! with compact spacing off, between the tools' header and footer).

use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::lang::value::Value;

/// What `condor_q -xml` prints before the first ad.
const HEADER: &str =
    "<?xml version=\"1.0\"?>\n<!DOCTYPE classads SYSTEM \"classads.dtd\">\n<classads>\n";

/// The ads as `condor_q -xml` prints them: the header, each ad as
/// `ClassAdXMLUnParser` writes it without compact spacing, the footer.
/// (With no ads we still write the header and footer, as HTCondor does
/// when asked to always write them, so the output stays XML.)
pub(in crate::formats) fn write(out: &mut String, ads: &[&ClassAd]) {
    out.push_str(HEADER);
    for ad in ads {
        // Top-level attributes in the ad's order, as the other writers.
        record(out, ad.iter(), 0);
    }
    out.push_str("</classads>\n");
}

fn record<'e>(out: &mut String, attrs: impl Iterator<Item = (&'e str, &'e Expr)>, indent: usize) {
    out.push_str("<c>\n");
    for (name, e) in attrs {
        pad(out, indent + 4);
        out.push_str("<a n=\"");
        escape(out, name, Some(b'"'));
        out.push_str("\">");
        expr(out, e, indent + 4);
        out.push_str("</a>\n");
    }
    pad(out, indent);
    out.push_str("</c>");
    if indent == 0 {
        out.push('\n');
    }
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Literals, lists and records as tags; anything else as `<e>` around its
/// canonical unparse (libclassad's XML unparse of an expression is the
/// canonical one with `&`, `<` and `>` escaped wherever they occur).
fn expr(out: &mut String, e: &Expr, indent: usize) {
    match &e.kind {
        ExprKind::Literal(v) => value(out, v, indent),
        ExprKind::List(items) => list(out, items, indent),
        // Nested records in libclassad's attribute order.
        ExprKind::Record(ad) => record(out, ad.iter_canonical(), indent),
        _ => {
            out.push_str("<e>");
            let s = crate::lang::unparse::unparse(e);
            let mut last = 0;
            for (i, c) in s.bytes().enumerate() {
                let esc = match c {
                    b'&' => "&amp;",
                    b'<' => "&lt;",
                    b'>' => "&gt;",
                    _ => continue,
                };
                out.push_str(&s[last..i]);
                out.push_str(esc);
                last = i + 1;
            }
            out.push_str(&s[last..]);
            out.push_str("</e>");
        }
    }
}

fn list(out: &mut String, items: &[Expr], indent: usize) {
    out.push_str("<l>");
    for e in items {
        expr(out, e, indent);
    }
    out.push_str("</l>");
}

fn value(out: &mut String, v: &Value, indent: usize) {
    match v {
        Value::Undefined => out.push_str("<un/>"),
        Value::Error => out.push_str("<er/>"),
        Value::Bool(b) => out.push_str(if *b { "<b v=\"t\"/>" } else { "<b v=\"f\"/>" }),
        Value::Int(i) => {
            out.push_str("<i>");
            out.push_str(&i.to_string());
            out.push_str("</i>");
        }
        // HTCondor 25 writes a relative time as its seconds, a real.
        Value::Real(r) | Value::RelTime(r) => {
            out.push_str("<r>");
            out.push_str(&real(*r));
            out.push_str("</r>");
        }
        Value::Str(s) => {
            out.push_str("<s>");
            escape(out, s, None);
            out.push_str("</s>");
        }
        Value::AbsTime(t) => {
            out.push_str("<at>");
            out.push_str(&crate::lang::time::format_abs_time(*t));
            out.push_str("</at>");
        }
        Value::List(l) => list(out, &l.items, indent),
        Value::Record(r) => record(out, r.ad.iter_canonical(), indent),
    }
}

/// `%1.15E`, except that zero (of either sign) is `0.0` and the
/// non-finite values are `NaN`, `INF` and `-INF`.
fn real(r: f64) -> String {
    if r == 0.0 {
        "0.0".into()
    } else if r.is_nan() {
        "NaN".into()
    } else if r.is_infinite() {
        if r > 0.0 { "INF" } else { "-INF" }.into()
    } else {
        crate::lang::unparse::format_e(r, 15)
    }
}

/// libclassad's string escaping (`crate::lang::unparse::escape_into`,
/// `quote` escaped for names) with XML's three entities on top.
fn escape(out: &mut String, s: &str, quote: Option<u8>) {
    let mut escaped = String::with_capacity(s.len());
    crate::lang::unparse::escape_into(&mut escaped, s, quote);
    for c in escaped.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_as_libclassad_writes_them() {
        assert_eq!(real(1.5), "1.500000000000000E+00");
        assert_eq!(real(-0.0), "0.0");
        assert_eq!(real(f64::NEG_INFINITY), "-INF");
        assert_eq!(real(1e300), "1.000000000000000E+300");
    }
}
