//! New ClassAd syntax: a sequence of `[ … ]` records (separated by nothing,
//! `;` or `,`), the `{ [ … ], [ … ] }` list that `condor_status -long:new`
//! prints, or one bare ad body `a = 1; b = 2` with no brackets. `//`,
//! `/* */` and `#`-at-line-start comments may stand between records.
//!
//! Each record's extent is found by counting brackets (outside strings and
//! comments) before it is parsed, so a bad record is reported once and
//! reading resumes right after it; a record that is never closed ends at
//! the next line that opens a record at the same or a smaller indentation.

use super::scan::{self, Extent};
use super::{shifted, Pool, PoolAd};
use crate::lang::ast::{ClassAd, Span};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::{Dialect, Tok};
use crate::lang::parser::Parser;

pub(super) fn read(text: &str, dialect: Dialect) -> Pool {
    let mut pool = Pool::default();
    let b = text.as_bytes();
    let mut pos = scan::skip_trivia(text, 0, b"");
    if pos >= b.len() {
        return pool;
    }
    // `{ [ … ], [ … ] }`: a list of ads.
    let mut list_open = None;
    if b[pos] == b'{' {
        list_open = Some(pos);
        pos += 1;
    } else if b[pos] != b'[' {
        read_bare(text, pos, dialect, &mut pool);
        return pool;
    }
    loop {
        pos = scan::skip_trivia(text, pos, b",;");
        if pos >= b.len() {
            if let Some(open) = list_open {
                pool.diagnostics.push(
                    Diagnostic::new(
                        Span::new(open, open + 1),
                        "this list of ads is never closed",
                    )
                    .expected("`}` after the last ad"),
                );
            }
            break;
        }
        match b[pos] {
            b'}' if list_open.is_some() => {
                list_open = None;
                pos += 1;
            }
            b'[' => pos = read_record(text, pos, dialect, &mut pool),
            _ => {
                pool.diagnostics.push(
                    Diagnostic::new(
                        scan::span_at(pos, 1),
                        format!("unexpected `{}` between ads", scan::excerpt(text, pos, 20)),
                    )
                    .expected("`[` to open an ad"),
                );
                match scan::next_line_opening(text, pos, b'[', usize::MAX) {
                    Some(p) => pos = p,
                    None => break,
                }
            }
        }
    }
    pool
}

/// Read the record opening at `start`; returns where to continue.
fn read_record(text: &str, start: usize, dialect: Dialect, pool: &mut Pool) -> usize {
    let b = text.as_bytes();
    // The indentation of the line the record opens on: lines opening a
    // record no deeper than this end an unclosed one.
    let indent = scan::line_indentation(b, start);
    let (end, closed) = match scan::record_extent(text, start, indent) {
        Extent::Closed(e) => (e, true),
        Extent::Open(e) => (e, false),
    };
    let slice = &text[start..end];
    let parsed = Parser::new(slice, dialect).and_then(|mut p| {
        let ad = p.record_ad()?;
        p.expect_eof("the end of the ad")?;
        Ok((ad, p.overflows().to_vec()))
    });
    match parsed {
        Ok((ad, overflows)) => {
            pool.diagnostics
                .extend(super::literal_warnings(&overflows, slice, start));
            let mut shifted_ad = ClassAd::new();
            for (n, e) in ad.iter() {
                shifted_ad.insert(n, shifted(e, start));
            }
            pool.push(PoolAd {
                ad: shifted_ad,
                span: Span::new(start, end),
                label: String::new(),
            });
        }
        Err(d) => {
            let mut d = Diagnostic {
                line: 0,
                column: 0,
                ..d
            }
            .shifted(start);
            if !closed && d.span.start as usize >= end.min(text.len()) {
                // The parser ran out of record: say which one.
                d = Diagnostic::new(Span::new(start, start + 1), "this ad is never closed")
                    .expected("`]` to close the ad");
            }
            pool.diagnostics.push(d.also("this ad is left out"));
        }
    }
    end.max(start + 1)
}

/// An ad body with no brackets: `name = expr` definitions separated by `;`.
/// A bad definition is reported and the others are kept.
fn read_bare(text: &str, start: usize, dialect: Dialect, pool: &mut Pool) {
    let mut ad = ClassAd::new();
    let mut pos = start;
    let mut first = None;
    let mut last = start;
    loop {
        pos = scan::skip_trivia(text, pos, b";");
        if pos >= text.len() {
            break;
        }
        let mut end = scan::next_top_level(text, pos, b';').unwrap_or(text.len());
        let def = &text[pos..end];
        match definition(def, dialect) {
            Ok((name, e, overflows)) => {
                pool.diagnostics
                    .extend(super::literal_warnings(&overflows, def, pos));
                ad.insert(&name, shifted(&e, pos));
                first.get_or_insert(pos);
                last = pos + def.trim_end().len();
            }
            Err(d) => {
                let d = Diagnostic {
                    line: 0,
                    column: 0,
                    ..d
                }
                .shifted(pos);
                // An unbalanced bracket hides the `;` that ends this
                // definition: resume after the first `;` from the error on.
                let at = (d.span.start as usize).clamp(pos, end);
                if at < end {
                    if let Some(semi) = scan::next_top_level_any_depth(text, at, b';') {
                        end = semi.max(pos);
                    }
                }
                pool.diagnostics
                    .push(d.also("this definition is left out; the rest of the ad is kept"));
            }
        }
        pos = end + 1;
    }
    if let Some(first) = first {
        pool.push(PoolAd {
            ad,
            span: Span::new(first, last),
            label: String::new(),
        });
    }
}

/// `name = expr`, the whole text.
fn definition(
    def: &str,
    dialect: Dialect,
) -> Result<(String, crate::lang::ast::Expr, Vec<Span>), Diagnostic> {
    let mut p = Parser::new(def, dialect)?;
    let name = match p.peek() {
        Tok::Ident(s) | Tok::QuotedName(s) => s.clone(),
        t => {
            return Err(
                Diagnostic::new(p.span(), format!("unexpected {}", t.describe()))
                    .expected("an attribute definition `name = expression`"),
            )
        }
    };
    p.bump()?;
    if !matches!(p.peek(), Tok::Punct("=")) {
        return Err(
            Diagnostic::new(p.span(), format!("unexpected {}", p.peek().describe()))
                .expected(format!("`=` after the attribute name `{name}`"))
                .in_attribute(&name),
        );
    }
    p.bump().map_err(|d| d.in_attribute(&name))?;
    let e = p.expr().map_err(|d| d.in_attribute(&name))?;
    p.expect_eof("`;` or the end of the ad")
        .map_err(|d| d.in_attribute(&name))?;
    let overflows = p.overflows().to_vec();
    Ok((name, e, overflows))
}
