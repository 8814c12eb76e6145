//! Reading and writing pools of ads in every format users paste: new
//! ClassAd syntax (`[ … ]` records), the old long format that
//! `condor_q -l` / `condor_status -l` print, JSON / JSON lines as
//! `condor_status -json` prints, and XML as `condor_q -xml` prints (see
//! [`xml`]). Reading never stops at the first bad ad:
//! every ad that parses is kept and every problem is reported with its
//! line and column.
//!
//! Reading is linear in the size of the input (a 50 MB dump reads in one
//! pass), never panics on arbitrary text, and reports at most
//! [`MAX_DIAGNOSTICS`] problems (then one that says how many more there
//! were).

pub mod encoding;
mod highlight;
mod json;
mod new;
mod old;
mod pretty;
mod projection;
mod scan;
pub mod stream;
mod xml;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::lang::ast::{ClassAd, SharedText, Span};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::Dialect;
use crate::lang::value::Value;

pub use highlight::highlight_pool;
pub use json::ad_to_json;
pub use old::Laziness;
pub use pretty::{pretty_ad, pretty_expr};
pub use projection::Projection;

/// The most diagnostics one read reports; past this a single diagnostic
/// says how many more problems were found.
pub const MAX_DIAGNOSTICS: usize = 1000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// Decide from the text (see [`detect`]).
    #[default]
    Auto,
    New,
    Old,
    Json,
    Xml,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// New ClassAd syntax, one `[ … ]` record per ad, one attribute a line.
    New,
    /// The old long format, byte for byte as `condor_status -l` prints it.
    Old,
    /// A JSON array, byte for byte as `condor_status -json` prints it.
    Json,
    /// One JSON object per line, as libclassad's one-line JSON unparser
    /// writes it.
    #[serde(rename = "jsonl")]
    JsonLines,
    /// Indented new syntax for people (see [`pretty_ad`]).
    Pretty,
    /// XML, byte for byte as `condor_q -xml` prints it.
    Xml,
}

/// One ad read from a pool, with where it came from.
#[derive(Clone, Debug)]
pub struct PoolAd {
    pub ad: ClassAd,
    /// Bytes of the source this ad was read from.
    pub span: Span,
    /// See [`label`].
    pub label: String,
}

#[derive(Clone, Debug, Default)]
pub struct Pool {
    pub ads: Vec<PoolAd>,
    /// Problems found, each located (line/column filled in), in the order
    /// of the text.
    pub diagnostics: Vec<Diagnostic>,
    pub format: Option<InputFormat>,
}

impl Pool {
    /// Add an ad, keeping one copy of the attribute names it shares with
    /// one of the ads just before it (see [`ClassAd::share_names`]): pools
    /// interleave a few kinds of ad (idle and claimed slots, say).
    pub fn push(&mut self, mut ad: PoolAd) {
        for prev in self.ads.iter().rev().take(8) {
            if ad.ad.share_names(&prev.ad) {
                break;
            }
        }
        self.ads.push(ad);
    }
}

/// Guess the format from the first significant character (after
/// whitespace, a byte-order mark and `#`, `//` or `/* */` comments):
///
/// * `{` — JSON (an object, JSON lines), unless the next character is `[`:
///   then it is the new-syntax list `{ [ … ], [ … ] }` that
///   `condor_status -long:new` prints;
/// * `[` — a JSON array if the next character is `{` or `]`, else new
///   syntax `[ … ]` records;
/// * `<` — XML (`<?xml`, `<!DOCTYPE`, `<classads>`, `<c>`): the old long
///   format never starts with one;
/// * anything else — the old long format.
pub fn detect(text: &str) -> InputFormat {
    let b = text.as_bytes();
    let p = scan::skip_trivia(text, 0, b"");
    let next = || b.get(scan::skip_trivia(text, p + 1, b"")).copied();
    match b.get(p) {
        Some(b'{') => {
            if next() == Some(b'[') {
                InputFormat::New
            } else {
                InputFormat::Json
            }
        }
        Some(b'[') => match next() {
            Some(b'{') | Some(b']') => InputFormat::Json,
            _ => InputFormat::New,
        },
        Some(b'<') => InputFormat::Xml,
        _ => InputFormat::Old,
    }
}

/// Read every ad in `text`. Bad ads, lines or attributes are reported in
/// [`Pool::diagnostics`] and skipped; everything else is returned.
pub fn read_pool(text: &str, format: InputFormat, dialect: Dialect) -> Pool {
    read_pool_from(
        text,
        None,
        format,
        dialect,
        &mut old::ReadCache::default(),
        Laziness::Lazy,
    )
}

/// [`read_pool`] for work that reads every definition (`classad fmt`):
/// each is parsed once, as it is checked, instead of checked now and
/// parsed again when read.
pub fn read_pool_eager(text: &str, format: InputFormat, dialect: Dialect) -> Pool {
    read_pool_from(
        text,
        None,
        format,
        dialect,
        &mut old::ReadCache::default(),
        Laziness::Eager,
    )
}

/// [`read_pool`] from text the ads may keep: ads of the long format keep
/// their definitions as this text until they are read (see
/// [`ClassAd`]), instead of a copy of it.
pub fn read_pool_shared(text: &Arc<dyn SharedText>, format: InputFormat, dialect: Dialect) -> Pool {
    match std::str::from_utf8(text.bytes()) {
        Ok(s) => read_pool_from(
            s,
            Some(text),
            format,
            dialect,
            &mut old::ReadCache::default(),
            Laziness::Lazy,
        ),
        // Callers hand in UTF-8 (`decode_text` makes it of anything).
        Err(e) => {
            let (s, _) = decode_lossy(text.bytes(), e);
            read_pool(&s, format, dialect)
        }
    }
}

/// [`read_pool_shared`] with what reading earlier texts of the same pool
/// learnt (a stream reads it ad by ad).
pub(crate) fn read_pool_cached(
    text: Arc<String>,
    format: InputFormat,
    dialect: Dialect,
    cache: &mut old::ReadCache,
) -> Pool {
    let shared: Arc<dyn SharedText> = text.clone();
    read_pool_from(&text, Some(&shared), format, dialect, cache, Laziness::Lazy)
}

/// A long-format record read keeping only what `projection` wants,
/// closed under reference: read again while its kept definitions reach
/// names the projection did not have. `None` when it must be read whole
/// (a line only a whole read reports, or an expression whose reach the
/// text cannot tell).
pub(crate) fn read_projected(
    text: &Arc<String>,
    dialect: Dialect,
    cache: &mut old::ReadCache,
    projection: &mut Projection,
) -> Option<Pool> {
    loop {
        let shared: Arc<dyn SharedText> = text.clone();
        let mut pool = old::read_projected(text, shared, dialect, cache, projection)?;
        let mut grew = false;
        for a in &pool.ads {
            grew |= projection.close_over(&a.ad);
        }
        if projection.keeps_everything() {
            return None;
        }
        if !grew {
            pool.format = Some(InputFormat::Old);
            for (i, a) in pool.ads.iter_mut().enumerate() {
                a.label = label(&a.ad, i);
            }
            finish_diagnostics(&mut pool.diagnostics, text);
            return Some(pool);
        }
    }
}

/// Below this a long-format pool is read on one thread.
const PARALLEL_FROM_BYTES: usize = 16 << 20;

/// Where to cut a big long-format pool to read its parts on the machine's
/// cores (natively; WebAssembly has one thread): at blank lines followed
/// by a definition, when the text has no `/* … */` comment a cut could
/// fall into. `None`: read it whole, on this thread.
fn parallel_parts(text: &str, laziness: Laziness) -> Option<Vec<usize>> {
    if cfg!(target_arch = "wasm32")
        || laziness != Laziness::Lazy
        || text.len() < PARALLEL_FROM_BYTES
    {
        return None;
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let b = text.as_bytes();
    if threads < 2 || has_comment_line(b) {
        return None;
    }
    let mut cuts = vec![0];
    for k in 1..threads {
        let mut at = text.len() * k / threads;
        // The next blank line whose next line starts a definition.
        let cut = loop {
            let i = memchr::memmem::find(&b[at..], b"\n\n")? + at;
            if b.get(i + 2).is_some_and(u8::is_ascii_alphabetic) {
                break i + 2;
            }
            at = i + 1;
        };
        if cut > *cuts.last()? {
            cuts.push(cut);
        }
    }
    cuts.push(text.len());
    (cuts.len() > 2).then_some(cuts)
}

/// Whether a line of `b` opens a `/* … */` comment (after blanks only): the
/// one thing the long-format reader carries over blank lines. A `/*` inside
/// a value (`"/data/*"`) is not one.
fn has_comment_line(b: &[u8]) -> bool {
    memchr::memmem::find_iter(b, b"/*").any(|at| {
        let line = memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
        b[line..at].iter().all(|c| *c == b' ' || *c == b'\t')
    })
}

/// Read the parts `cuts` delimit on a thread each and join them.
fn read_old_parts(
    text: &str,
    cuts: &[usize],
    shared: Arc<dyn SharedText>,
    dialect: Dialect,
) -> Pool {
    // One source for all the parts: ads of one source compare their
    // definitions by text.
    let source = old::lazy_source(shared, dialect);
    let parts: Vec<Pool> = std::thread::scope(|s| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let source = source.clone();
                s.spawn(move || old::read_part(text, w[0], w[1], source, dialect))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut pool = Pool::default();
    for part in parts {
        pool.diagnostics.extend(part.diagnostics);
        for ad in part.ads {
            pool.push(ad);
        }
    }
    pool
}

fn read_pool_from(
    text: &str,
    shared: Option<&Arc<dyn SharedText>>,
    format: InputFormat,
    dialect: Dialect,
    cache: &mut old::ReadCache,
    laziness: Laziness,
) -> Pool {
    let format = match format {
        InputFormat::Auto => detect(text),
        f => f,
    };
    let mut pool = match format {
        InputFormat::New | InputFormat::Auto => new::read(text, dialect),
        InputFormat::Old => {
            let shared = shared.cloned().unwrap_or_else(|| Arc::new(text.to_owned()));
            match parallel_parts(text, laziness) {
                Some(parts) => read_old_parts(text, &parts, shared, dialect),
                None => old::read_with(text, shared, dialect, cache, laziness),
            }
        }
        InputFormat::Json => json::read(text, dialect),
        InputFormat::Xml => xml::read(text, dialect),
    };
    pool.format = Some(format);
    for (i, a) in pool.ads.iter_mut().enumerate() {
        a.label = label(&a.ad, i);
    }
    finish_diagnostics(&mut pool.diagnostics, text);
    pool
}

/// Like [`read_pool`] for bytes that may not be UTF-8 (a file of unknown
/// origin, binary garbage): invalid sequences become U+FFFD and the first
/// one is reported. Returns the decoded text, which the diagnostics' spans,
/// lines and columns refer to.
pub fn read_pool_bytes(bytes: &[u8], format: InputFormat, dialect: Dialect) -> (String, Pool) {
    let (text, warning) = decode_text(bytes);
    let mut pool = read_pool(&text, format, dialect);
    if let Some(d) = warning {
        pool.diagnostics.insert(0, d);
    }
    (text, pool)
}

/// Bytes as text: sequences that are not UTF-8 (a Latin-1 name from a
/// Windows host, a binary file) read as U+FFFD, and a located warning points
/// at the first one and counts the lines that hold one — nothing else is
/// lost.
pub fn decode_text(bytes: &[u8]) -> (String, Option<Diagnostic>) {
    if let Some(marked) = encoding::decode_marked(bytes) {
        return decoded_marked(marked);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), None),
        Err(e) => decode_lossy(bytes, e),
    }
}

/// [`decode_text`] of bytes that are already owned: UTF-8 is kept as it
/// is, without a copy (a production pool is hundreds of megabytes).
pub fn decode_text_owned(bytes: Vec<u8>) -> (String, Option<Diagnostic>) {
    if let Some(marked) = encoding::decode_marked(&bytes) {
        return decoded_marked(marked);
    }
    match String::from_utf8(bytes) {
        Ok(s) => (s, None),
        Err(e) => {
            let bytes = e.into_bytes();
            let e = std::str::from_utf8(&bytes).unwrap_err();
            decode_lossy(&bytes, e)
        }
    }
}

/// UTF-16 or UTF-32 text, read by its byte-order mark: a warning only
/// when some of it was not text.
fn decoded_marked(
    (encoding, text, bad): (encoding::Encoding, String, usize),
) -> (String, Option<Diagnostic>) {
    if bad == 0 {
        return (text, None);
    }
    let at = text.find('\u{fffd}').unwrap_or(0);
    let d = Diagnostic::new(
        Span::new(at, at + 3),
        format!(
            "the input is marked as {} text but is not valid",
            encoding.name()
        ),
    )
    .help(format!(
        "{bad} code unit(s) read as U+FFFD and every ad is kept (is this a binary file?)"
    ))
    .warning();
    let d = scan::LineIndex::new(&text).locate(d);
    (text, Some(d))
}

fn decode_lossy(bytes: &[u8], e: std::str::Utf8Error) -> (String, Option<Diagnostic>) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let lines = bytes
        .split(|&b| b == b'\n')
        .filter(|l| std::str::from_utf8(l).is_err())
        .count();
    // Everything before the first bad byte decoded unchanged.
    let at = e.valid_up_to();
    let d = Diagnostic::new(Span::new(at, at + 3), "the input is not valid UTF-8 text")
        .help(format!(
            "{lines} line(s) hold such bytes: they read as U+FFFD and every ad is kept \
             (is this a binary file?)"
        ))
        .warning();
    let d = scan::LineIndex::new(&text).locate(d);
    (text, Some(d))
}

/// Locate, order and cap the diagnostics of one read.
fn finish_diagnostics(diags: &mut Vec<Diagnostic>, text: &str) {
    if diags.is_empty() {
        return;
    }
    diags.sort_by_key(|d| d.span.start);
    let extra = diags.len().saturating_sub(MAX_DIAGNOSTICS);
    diags.truncate(MAX_DIAGNOSTICS);
    let idx = scan::LineIndex::new(text);
    for d in diags.iter_mut() {
        *d = idx.locate(std::mem::replace(d, Diagnostic::new(Span::NONE, "")));
    }
    if extra > 0 {
        let last = diags.last().map(|d| d.span).unwrap_or(Span::NONE);
        let d = Diagnostic::new(
            Span::new(last.start as usize, last.start as usize),
            format!("{extra} more problems after this one are not listed"),
        )
        .help("is this really a file of ClassAds?");
        diags.push(idx.locate(d));
    }
}

/// A display name for an ad: its `Name` (machines, daemons), else
/// `ClusterId.ProcId` (jobs), else `GlobalJobId`, else `MyType`, else
/// `ad N` (1-based).
/// The attributes [`label`] reads.
pub const LABEL_READS: &[&str] = &["Name", "ClusterId", "ProcId", "GlobalJobId", "MyType"];

pub fn label(ad: &ClassAd, index: usize) -> String {
    let lit = |attr: &str| ad.get(attr).and_then(|e| e.as_literal());
    if let Some(Value::Str(s)) = lit("Name") {
        return s.to_string();
    }
    if let (Some(Value::Int(c)), Some(Value::Int(p))) = (lit("ClusterId"), lit("ProcId")) {
        return format!("{c}.{p}");
    }
    for attr in ["GlobalJobId", "MyType"] {
        if let Some(Value::Str(s)) = lit(attr) {
            return s.to_string();
        }
    }
    format!("ad {}", index + 1)
}

/// Write ads in one format. Every format but pretty reads back, through
/// [`read_pool`], to ads whose attributes unparse the same (JSON turns
/// relative-time literals into seconds, as HTCondor does, and so does XML,
/// which also writes a negative zero as `0.0`; the old format has no way
/// to write an ad with no attributes).
pub fn write_pool(ads: &[&ClassAd], format: OutputFormat) -> String {
    let mut out = String::new();
    match format {
        OutputFormat::New => {
            for ad in ads {
                out.push_str(&write_new_ad(ad));
                out.push('\n');
            }
        }
        OutputFormat::Old => {
            for ad in ads {
                old::write(&mut out, ad);
                // condor_status -l ends every ad with a blank line.
                out.push('\n');
            }
        }
        OutputFormat::Json => json::write_array(&mut out, ads),
        OutputFormat::JsonLines => {
            for ad in ads {
                json::write_line(&mut out, ad);
                out.push('\n');
            }
        }
        OutputFormat::Pretty => {
            for ad in ads {
                out.push_str(&pretty_ad(ad));
                out.push('\n');
            }
        }
        OutputFormat::Xml => xml::write(&mut out, ads),
    }
    out
}

/// One ad in new syntax, one attribute per line, expressions canonical.
pub fn write_new_ad(ad: &ClassAd) -> String {
    let mut out = String::from("[\n");
    let n = ad.len();
    for i in 0..n {
        let (name, e) = ad.at(i as u32);
        out.push_str("  ");
        if ad.entry_at(i as u32).quoted {
            crate::lang::unparse::write_name(&mut out, name);
        } else {
            out.push_str(name);
        }
        out.push_str(" = ");
        crate::lang::unparse::write_expr(&mut out, e, crate::lang::unparse::Style::Canonical);
        if i + 1 < n {
            out.push(';');
        }
        out.push('\n');
    }
    out.push(']');
    out
}

/// Warnings for integer literals that overflowed (read as 0), at `spans`
/// of `text` moved `by` bytes later: every reader says so, as the JSON
/// reader always did.
pub(crate) fn literal_warnings(spans: &[Span], text: &str, by: usize) -> Vec<Diagnostic> {
    spans
        .iter()
        .map(|s| {
            let written = text.get(s.start as usize..s.end as usize).unwrap_or("");
            let at = Span::new(s.start as usize + by, s.end as usize + by);
            literal_warning(written, at)
        })
        .collect()
}

/// The warning for a literal the lexer noted (see `Lexer::overflows`).
pub fn literal_warning(written: &str, at: Span) -> Diagnostic {
    if written.starts_with('\'') {
        Diagnostic::new(
            at,
            format!(
                "{written} is an attribute's name in HTCondor (single quotes quote a name), \
                 undefined unless an ad defines it; in the seed papers' notation it is a time"
            ),
        )
        .help({
            let text = written.trim_matches('\'');
            let string = format!("for the text write \"{text}\"");
            match crate::lang::time::parse_rel_time_literal(text) {
                Some(secs) => format!("{string}; for the time in seconds write {secs}"),
                None => string,
            }
        })
        .warning()
    } else {
        Diagnostic::new(
            at,
            format!("the integer {written} does not fit in 64 bits; HTCondor reads it as 0"),
        )
        .warning()
    }
}

/// A copy of `e` with every span moved `by` bytes later (expressions parsed
/// out of a slice of a larger text).
pub(crate) fn shifted(e: &crate::lang::ast::Expr, by: usize) -> crate::lang::ast::Expr {
    let mut e = e.clone();
    crate::lang::ast::shift_spans(&mut e, by);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_line_opening_a_comment_keeps_a_pool_on_one_thread() {
        assert!(!has_comment_line(b"A = \"/data/*\"\nB = 1 /* inline */\n"));
        assert!(has_comment_line(b"A = 1\n  /* over\n\nlines */\nB = 2\n"));
        assert!(has_comment_line(b"/* first line */\nA = 1\n"));
    }

    #[test]
    fn a_pool_read_in_parts_is_the_pool_read_whole() {
        // Past the parallel bound, with blank lines in values' way and a
        // `/*` inside a value (which must not stop the parts).
        let ad = |i: usize| {
            format!("Name = \"slot{i}\"\nPath = \"/data/*\"\nMemory = {i}\nStart = Memory > 10 && TARGET.X\n\n")
        };
        let mut text = String::new();
        let mut i = 0;
        while text.len() <= PARALLEL_FROM_BYTES {
            text.push_str(&ad(i));
            i += 1;
        }
        let Some(cuts) = parallel_parts(&text, Laziness::Lazy) else {
            // Only a machine of one core reads it whole.
            assert_eq!(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
                1
            );
            return;
        };
        assert!(cuts.len() > 2);
        let parts = read_old_parts(&text, &cuts, Arc::new(text.clone()), Dialect::Modern);
        let whole = old::read_with(
            &text,
            Arc::new(text.clone()),
            Dialect::Modern,
            &mut old::ReadCache::default(),
            Laziness::Lazy,
        );
        assert_eq!(parts.ads.len(), i);
        assert_eq!(parts.ads.len(), whole.ads.len());
        for (a, b) in parts.ads.iter().zip(&whole.ads) {
            assert_eq!(a.span, b.span);
            assert_eq!(write_new_ad(&a.ad), write_new_ad(&b.ad));
        }
    }
}
