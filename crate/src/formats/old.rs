//! The old ClassAd long format: `Attr = expr` per line, `#` comments, ads
//! separated by blank lines or `***` lines.

use super::{Pool, PoolAd};
use crate::ast::{ClassAd, Span};
use crate::diagnostic::Diagnostic;
use crate::lexer::Dialect;

pub(super) fn read(text: &str, dialect: Dialect) -> Pool {
    let mut pool = Pool::default();
    let mut cur = ClassAd::new();
    let mut cur_start: Option<usize> = None;
    let mut cur_end = 0;
    let mut offset = 0;
    let flush = |pool: &mut Pool, cur: &mut ClassAd, start: &mut Option<usize>, end: usize| {
        if let Some(s) = start.take() {
            pool.ads.push(PoolAd {
                ad: std::mem::take(cur),
                span: Span::new(s, end),
                label: String::new(),
            });
        }
    };
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("***") {
            flush(&mut pool, &mut cur, &mut cur_start, cur_end);
            continue;
        }
        if trimmed.starts_with('#') || trimmed.starts_with("//") || trimmed.starts_with("-- ") {
            continue;
        }
        let Some(eq) = line.find('=') else {
            let lead = line.len() - line.trim_start().len();
            pool.diagnostics.push(
                Diagnostic::new(
                    Span::new(line_start + lead, line_start + line.len()),
                    format!("`{trimmed}` is not an attribute definition"),
                )
                .expected("`Name = expression`"),
            );
            continue;
        };
        let name = line[..eq].trim();
        let lead = line.len() - line.trim_start().len();
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            pool.diagnostics.push(
                Diagnostic::new(
                    Span::new(line_start + lead, line_start + eq),
                    format!("`{name}` is not an attribute name"),
                )
                .expected("a name of letters, digits and `_` before `=`"),
            );
            continue;
        }
        let rhs = &line[eq + 1..];
        match crate::parser::parse_expr_in(rhs, dialect) {
            Ok(mut e) => {
                shift_spans(&mut e, line_start + eq + 1);
                cur.insert(name, e);
                cur_start.get_or_insert(line_start + lead);
                cur_end = line_start + line.len();
            }
            Err(d) => {
                let d = Diagnostic {
                    line: 0,
                    column: 0,
                    ..d
                };
                pool.diagnostics
                    .push(d.shifted(line_start + eq + 1).in_attribute(name));
            }
        }
    }
    flush(&mut pool, &mut cur, &mut cur_start, cur_end);
    pool
}

/// Make spans absolute in the whole file.
pub(crate) fn shift_spans(e: &mut crate::ast::Expr, by: usize) {
    crate::ast::shift_spans(e, by);
}

pub(super) fn write(ad: &ClassAd) -> String {
    let mut out = String::new();
    for (name, e) in ad.iter() {
        out.push_str(name);
        out.push_str(" = ");
        out.push_str(&crate::unparse::unparse_old(e));
        out.push('\n');
    }
    out
}
