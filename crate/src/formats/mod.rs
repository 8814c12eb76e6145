//! Reading and writing pools of ads in every format users paste: new
//! ClassAd syntax (`[ … ]` records), the old long format that
//! `condor_q -l` / `condor_status -l` print, and JSON / JSON lines as
//! `condor_status -json` prints. Reading never stops at the first bad ad:
//! every ad that parses is kept and every problem is reported with its
//! line and column.

mod json;
mod old;
mod pretty;

use serde::{Deserialize, Serialize};

use crate::ast::{ClassAd, Span};
use crate::diagnostic::Diagnostic;
use crate::lexer::Dialect;

pub use pretty::pretty_ad;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// Decide from the text (see [`detect`]).
    #[default]
    Auto,
    New,
    Old,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    New,
    Old,
    Json,
    Pretty,
}

/// One ad read from a pool, with where it came from.
#[derive(Clone, Debug)]
pub struct PoolAd {
    pub ad: ClassAd,
    /// Bytes of the source this ad was read from.
    pub span: Span,
    /// `Name`, else `MyType`, else `ad N` (1-based).
    pub label: String,
}

#[derive(Clone, Debug, Default)]
pub struct Pool {
    pub ads: Vec<PoolAd>,
    /// Problems found, each located (line/column filled in).
    pub diagnostics: Vec<Diagnostic>,
    pub format: Option<InputFormat>,
}

/// Guess the format: JSON if the text starts with `{`, or with `[` followed
/// by `{` or `]`; new syntax if it starts with `[` otherwise; else the old
/// long format. Leading comments (`#`, `//`, `/* */`) are skipped.
pub fn detect(text: &str) -> InputFormat {
    let t = skip_leading_comments(text);
    let mut chars = t.chars();
    match chars.next() {
        Some('{') => InputFormat::Json,
        Some('[') => {
            let rest = chars.as_str().trim_start();
            if rest.starts_with('{') || rest.starts_with(']') {
                InputFormat::Json
            } else {
                InputFormat::New
            }
        }
        _ => InputFormat::Old,
    }
}

fn skip_leading_comments(text: &str) -> &str {
    let mut t = text.trim_start();
    loop {
        if t.starts_with('#') || t.starts_with("//") {
            t = t
                .split_once('\n')
                .map(|(_, r)| r)
                .unwrap_or("")
                .trim_start();
        } else if t.starts_with("/*") {
            t = t
                .split_once("*/")
                .map(|(_, r)| r)
                .unwrap_or("")
                .trim_start();
        } else {
            return t;
        }
    }
}

pub fn read_pool(text: &str, format: InputFormat, dialect: Dialect) -> Pool {
    let format = match format {
        InputFormat::Auto => detect(text),
        f => f,
    };
    let mut pool = match format {
        InputFormat::New | InputFormat::Auto => read_new(text, dialect),
        InputFormat::Old => old::read(text, dialect),
        InputFormat::Json => json::read(text),
    };
    pool.format = Some(format);
    for (i, a) in pool.ads.iter_mut().enumerate() {
        a.label = label(&a.ad, i);
    }
    pool.diagnostics = pool
        .diagnostics
        .into_iter()
        .map(|d| d.locate(text))
        .collect();
    pool
}

/// A display name for an ad: its `Name`, else its `MyType`, else `ad N`.
pub fn label(ad: &ClassAd, index: usize) -> String {
    for attr in ["Name", "MyType"] {
        if let Some(crate::value::Value::Str(s)) = ad.get(attr).and_then(|e| e.as_literal()) {
            return s.to_string();
        }
    }
    format!("ad {}", index + 1)
}

/// A sequence of `[ … ]` records (optionally separated by `;` or `,`).
fn read_new(text: &str, dialect: Dialect) -> Pool {
    let mut pool = Pool::default();
    let mut offset = 0;
    while offset < text.len() {
        let rest = &text[offset..];
        let skipped = rest.len() - skip_separators(rest).len();
        offset += skipped;
        if offset >= text.len() {
            break;
        }
        let rest = &text[offset..];
        let mut p = match crate::parser::Parser::new(rest, dialect) {
            Ok(p) => p,
            Err(d) => {
                pool.diagnostics.push(d.shifted(offset));
                break;
            }
        };
        let start = offset;
        match p.record_ad() {
            Ok(ad) => {
                // The parser has looked one token ahead; the ad ends at the
                // start of that token.
                let consumed = p.span().start as usize;
                let end = if matches!(p.peek(), crate::lexer::Tok::Eof) {
                    rest.len()
                } else {
                    consumed
                };
                pool.ads.push(PoolAd {
                    ad,
                    span: Span::new(start, offset + end),
                    label: String::new(),
                });
                offset += end.max(1);
            }
            Err(d) => {
                pool.diagnostics.push(d.shifted(offset));
                // Resynchronise at the next line that starts a record.
                match rest[1..].find("\n[") {
                    Some(i) => offset += i + 2,
                    None => break,
                }
            }
        }
    }
    pool
}

fn skip_separators(s: &str) -> &str {
    let mut t = s;
    loop {
        let before = t.len();
        t = t.trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == ',');
        t = skip_leading_comments(t);
        if t.len() == before {
            return t;
        }
    }
}

pub fn write_pool(ads: &[&ClassAd], format: OutputFormat) -> String {
    match format {
        OutputFormat::New => {
            let mut out = String::new();
            for ad in ads {
                out.push_str(&write_new_ad(ad));
                out.push('\n');
            }
            out
        }
        OutputFormat::Old => {
            let parts: Vec<String> = ads.iter().map(|a| old::write(a)).collect();
            parts.join("\n")
        }
        OutputFormat::Json => json::write(ads),
        OutputFormat::Pretty => {
            let mut out = String::new();
            for ad in ads {
                out.push_str(&pretty_ad(ad));
                out.push('\n');
            }
            out
        }
    }
}

/// One ad in new syntax, one attribute per line, expressions canonical.
pub fn write_new_ad(ad: &ClassAd) -> String {
    let mut out = String::from("[\n");
    let n = ad.len();
    for (i, (name, e)) in ad.iter().enumerate() {
        out.push_str("  ");
        crate::unparse::write_name(&mut out, name);
        out.push_str(" = ");
        out.push_str(&crate::unparse::unparse(e));
        if i + 1 < n {
            out.push(';');
        }
        out.push('\n');
    }
    out.push(']');
    out
}
