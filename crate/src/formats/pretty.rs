//! A readable pretty printer for new-syntax ads: one attribute per line,
//! expressions that do not fit in [`WIDTH`] columns broken over lines —
//! `&&` / `||` (and other operator) chains one operand a line with the
//! operator in front, conditionals one branch a line, long lists, records
//! and argument lists one item a line, indented.
//!
//! The output parses back to the same ad: only whitespace differs from the
//! canonical unparse, except that reals are written in their shortest exact
//! form (`0.1`, `1e-7`, not `1.000000000000000E-01`) and strings keep
//! non-ASCII text as it is instead of octal escapes.

use crate::lang::ast::{BinaryOp, ClassAd, Expr, ExprKind, UnaryOp};
use crate::lang::unparse::{write_name, write_value, Style};
use crate::lang::value::Value;

/// The line width the printer tries to stay within.
pub const WIDTH: usize = 80;
/// Indentation step for attributes, list items and arguments.
const STEP: usize = 4;

/// An ad laid out over lines, `[` … `]`, every attribute ending in `;`.
pub fn pretty_ad(ad: &ClassAd) -> String {
    let mut out = String::new();
    record(&mut out, ad);
    out
}

/// An expression laid out to fit `WIDTH` columns when it starts at column
/// `indent` of a line indented by as much; continuation lines are indented
/// to match.
pub fn pretty_expr(e: &Expr, indent: usize) -> String {
    // Lay out after `indent` spaces, then drop them: continuation lines
    // keep their indentation relative to that column.
    let mut out = " ".repeat(indent);
    layout(&mut out, e, indent, 0);
    out.split_off(indent)
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn newline(out: &mut String, col: usize) {
    out.push('\n');
    pad(out, col);
}

/// The indentation of the line being written.
fn line_indent(out: &str) -> usize {
    let line = &out[out.rfind('\n').map_or(0, |i| i + 1)..];
    line.len() - line.trim_start_matches(' ').len()
}

/// `[` newline, `name = value;` lines indented one step more than the
/// current line, `]` at the current line's indentation.
fn record(out: &mut String, ad: &ClassAd) {
    if ad.is_empty() {
        out.push_str("[ ]");
        return;
    }
    let base = line_indent(out);
    out.push('[');
    for (name, e) in ad.iter() {
        newline(out, base + STEP);
        let mut head = String::new();
        write_name(&mut head, name);
        head.push_str(" =");
        out.push_str(&head);
        let at = base + STEP + width(&head) + 1;
        let fits = at + width(&flat(e)) < WIDTH;
        if !fits && at > WIDTH / 2 && breakable(e) && !bracketed(e) {
            // A long name: start the value on its own line.
            newline(out, base + 2 * STEP);
            layout(out, e, base + 2 * STEP, 1);
        } else {
            out.push(' ');
            layout(out, e, at, 1);
        }
        out.push(';');
    }
    newline(out, base);
    out.push(']');
}

fn breakable(e: &Expr) -> bool {
    !matches!(
        e.kind,
        ExprKind::Literal(
            Value::Undefined
                | Value::Error
                | Value::Bool(_)
                | Value::Int(_)
                | Value::Real(_)
                | Value::Str(_)
                | Value::AbsTime(_)
                | Value::RelTime(_)
        ) | ExprKind::Attr { .. }
            | ExprKind::Select(..)
    )
}

/// Laid out as a block: opening bracket, items one step in, closing bracket.
fn bracketed(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::List(_)
            | ExprKind::Record(_)
            | ExprKind::Call(_)
            | ExprKind::Literal(Value::List(_) | Value::Record(_))
    )
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Write `e` starting at column `col`, with `tail` more characters to
/// follow it on its last line (`;`, `,`, `)`).
fn layout(out: &mut String, e: &Expr, col: usize, tail: usize) {
    let f = flat(e);
    if col + width(&f) + tail <= WIDTH || !breakable(e) {
        out.push_str(&f);
        return;
    }
    match &e.kind {
        ExprKind::Binary(op, _, _) => {
            let mut terms = Vec::new();
            chain(e, *op, &mut terms);
            let sym = op.symbol();
            let n = terms.len();
            for (i, t) in terms.iter().enumerate() {
                let tl = if i + 1 == n { tail } else { 0 };
                if i == 0 {
                    layout(out, t, col, tl);
                } else {
                    newline(out, col);
                    out.push_str(sym);
                    out.push(' ');
                    layout(out, t, col + sym.len() + 1, tl);
                }
            }
        }
        ExprKind::Paren(inner) => {
            out.push('(');
            layout(out, inner, col + 1, tail + 1);
            out.push(')');
        }
        ExprKind::Cond(c, a, b) => {
            layout(out, c, col, 0);
            newline(out, col + 2);
            out.push_str("? ");
            layout(out, a, col + 4, 0);
            newline(out, col + 2);
            out.push_str(": ");
            layout(out, b, col + 4, tail);
        }
        ExprKind::Elvis(a, b) => {
            layout(out, a, col, 0);
            newline(out, col + 2);
            out.push_str("?: ");
            layout(out, b, col + 5, tail);
        }
        ExprKind::Unary(op, a) => {
            let s = unary_prefix(*op, a);
            out.push_str(&s);
            layout(out, a, col + s.len(), tail);
        }
        ExprKind::Call(c) => {
            out.push_str(&c.name);
            items(out, '(', ')', c.args.iter());
        }
        ExprKind::List(l) => items(out, '{', '}', l.iter()),
        ExprKind::Literal(Value::List(l)) => items(out, '{', '}', l.items.iter()),
        ExprKind::Record(ad) => record(out, ad),
        ExprKind::Literal(Value::Record(r)) => record(out, &r.ad),
        ExprKind::Index(base, idx) => {
            layout(out, base, col, 0);
            out.push('[');
            out.push_str(&flat(idx));
            out.push(']');
        }
        _ => out.push_str(&f),
    }
}

/// `open` newline, one item a line one step in from the current line with
/// `,` after all but the last, newline, `close` at the current line's
/// indentation.
fn items<'e>(
    out: &mut String,
    open: char,
    close: char,
    it: impl ExactSizeIterator<Item = &'e Expr>,
) {
    let base = line_indent(out);
    let n = it.len();
    out.push(open);
    for (i, e) in it.enumerate() {
        newline(out, base + STEP);
        let last = i + 1 == n;
        layout(out, e, base + STEP, usize::from(!last));
        if !last {
            out.push(',');
        }
    }
    newline(out, base);
    out.push(close);
}

/// The operands of a left-associated chain of `op`: `a && b && c`.
fn chain<'a>(e: &'a Expr, op: BinaryOp, out: &mut Vec<&'a Expr>) {
    let mut right = Vec::new();
    let mut cur = e;
    while let ExprKind::Binary(o, l, r) = &cur.kind {
        if *o != op {
            break;
        }
        right.push(&**r);
        cur = l;
    }
    out.push(cur);
    out.extend(right.into_iter().rev());
}

/// The whole expression on one line.
pub(crate) fn flat(e: &Expr) -> String {
    let mut s = String::new();
    write_flat(&mut s, e);
    s
}

fn unary_prefix(op: UnaryOp, operand: &Expr) -> String {
    let mut s = op.symbol().to_string();
    // `- 5` is the operator applied to 5; `-5` would read back as the
    // literal -5. `- -5` rather than `--5` for people.
    let first = flat_first_char(operand);
    if matches!(op, UnaryOp::Minus | UnaryOp::Plus)
        && matches!(first, Some('0'..='9' | '.' | '-' | '+'))
    {
        s.push(' ');
    }
    s
}

fn flat_first_char(e: &Expr) -> Option<char> {
    match &e.kind {
        ExprKind::Literal(Value::Int(_) | Value::Real(_)) => flat(e).chars().next(),
        ExprKind::Unary(op, _) => op.symbol().chars().next(),
        ExprKind::Binary(_, l, _) | ExprKind::Elvis(l, _) | ExprKind::Cond(l, _, _) => {
            flat_first_char(l)
        }
        ExprKind::Index(b, _) | ExprKind::Select(b, _) => flat_first_char(b),
        _ => None,
    }
}

fn write_flat(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Literal(v) => write_literal(out, v),
        ExprKind::Attr { name, absolute } => {
            if *absolute {
                out.push('.');
            }
            write_name(out, &name.text);
        }
        ExprKind::Select(base, name) => {
            write_flat(out, base);
            out.push('.');
            write_name(out, &name.text);
        }
        ExprKind::Index(base, idx) => {
            write_flat(out, base);
            out.push('[');
            write_flat(out, idx);
            out.push(']');
        }
        ExprKind::Unary(op, a) => {
            out.push_str(&unary_prefix(*op, a));
            write_flat(out, a);
        }
        ExprKind::Binary(op, a, b) => {
            write_flat(out, a);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_flat(out, b);
        }
        ExprKind::Cond(c, a, b) => {
            write_flat(out, c);
            out.push_str(" ? ");
            write_flat(out, a);
            out.push_str(" : ");
            write_flat(out, b);
        }
        ExprKind::Elvis(a, b) => {
            write_flat(out, a);
            out.push_str(" ?: ");
            write_flat(out, b);
        }
        ExprKind::Paren(a) => {
            out.push('(');
            write_flat(out, a);
            out.push(')');
        }
        ExprKind::Call(c) => {
            out.push_str(&c.name);
            out.push('(');
            for (i, a) in c.args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_flat(out, a);
            }
            out.push(')');
        }
        ExprKind::List(items) => flat_list(out, items),
        ExprKind::Record(ad) => flat_record(out, ad),
    }
}

fn flat_list(out: &mut String, items: &[Expr]) {
    if items.is_empty() {
        out.push_str("{ }");
        return;
    }
    out.push_str("{ ");
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_flat(out, a);
    }
    out.push_str(" }");
}

fn flat_record(out: &mut String, ad: &ClassAd) {
    if ad.is_empty() {
        out.push_str("[ ]");
        return;
    }
    out.push_str("[ ");
    for (i, (n, e)) in ad.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        write_name(out, n);
        out.push_str(" = ");
        write_flat(out, e);
    }
    out.push_str(" ]");
}

fn write_literal(out: &mut String, v: &Value) {
    match v {
        // Shortest text that reads back as exactly this double.
        Value::Real(r) if r.is_finite() => {
            let s = format!("{r:?}");
            out.push_str(&s);
        }
        Value::Str(s) => write_string(out, s),
        Value::List(l) => flat_list(out, &l.items),
        Value::Record(r) => flat_record(out, &r.ad),
        _ => write_value(out, v, Style::Canonical),
    }
}

/// A string literal escaped for the new-syntax lexer, keeping non-ASCII
/// text readable.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
