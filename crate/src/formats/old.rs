//! The old ClassAd long format, as `condor_q -l`, `condor_status -l` and
//! `condor_history -l` print it: `Attr = expr` per line, ads separated by
//! blank lines or by `*** …` banner lines (history files), `#` comment
//! lines, `-- Schedd: …`-style header lines.
//!
//! Each line is read the way HTCondor's `InsertLongFormAttrValue` reads it:
//! the name is everything before the first `=`, and the right-hand side is
//! parsed with old-ClassAd string escaping (a backslash is a literal
//! character unless it escapes a `"` that does not end the line, so
//! `Iwd = "C:\condor\execute"` means what it says). Where HTCondor is
//! stricter than it needs to be we are lenient but say so, and where it is
//! silently lossy we keep what it keeps and report the rest:
//!
//! * a bad line is reported and reading goes on (HTCondor drops the rest of
//!   the ad);
//! * text after a complete expression is reported (HTCondor ignores it
//!   silently) — except a trailing `;` or comment;
//! * a definition whose expression is incomplete at the end of its line and
//!   continues on following lines that are not definitions themselves (a
//!   string with a newline in it, as `condor_q -l` prints one, or a long
//!   expression broken by hand) is read whole and reported, since HTCondor
//!   would reject it;
//! * `'quoted names'` are unquoted, trailing whitespace and CRLF line ends
//!   are ignored.

use super::projection::Projection;
use super::scan::{self, BOM};
use super::{Pool, PoolAd};
use std::sync::Arc;

use crate::lang::ast::{
    intern_entry, key_hash, AdBuilder, ClassAd, Expr, ExprKind, LazySource, NameEntry, RecentNames,
    SharedText, Span,
};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::{Dialect, Lexer, Tok};
use crate::lang::parser::Parser;
use crate::lang::value::Value;

/// The most lines one definition may continue over.
const MAX_CONTINUATION: usize = 10_000;

struct Line<'a> {
    /// Byte offset of the line in the text.
    start: usize,
    /// The line without its line end, BOM or trailing whitespace.
    text: &'a str,
}

enum Kind {
    /// Blank, `*** …` banner or `-- …` header: ends the current ad.
    Separator,
    Comment,
    Definition,
}

fn kind(line: &str) -> Kind {
    // Most lines start with an attribute name.
    if line
        .as_bytes()
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic())
    {
        return Kind::Definition;
    }
    let t = line.trim_start();
    if t.is_empty() || t.starts_with("***") || t.starts_with("--") {
        Kind::Separator
    } else if t.starts_with('#') || t.starts_with("//") || t.starts_with("/*") {
        Kind::Comment
    } else {
        Kind::Definition
    }
}

/// `s` without trailing whitespace (the common case, a line ending in a
/// printable ASCII character, checked first).
fn trim_end(s: &str) -> &str {
    match s.as_bytes().last() {
        Some(c) if c.is_ascii_graphic() => s,
        _ => s.trim_end(),
    }
}

/// `s` without leading whitespace (blanks skipped a byte at a time: the
/// common case is the one space after `=`).
fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    let blanks = b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    match b.get(blanks) {
        Some(c) if c.is_ascii_graphic() => &s[blanks..],
        None => "",
        _ => s.trim_start(),
    }
}

/// The lines of a text, one at a time (a production pool has millions:
/// a list of them would cost more than the ads).
#[derive(Clone)]
struct Lines<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines { text, pos: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let (text, start) = (self.text, self.pos);
        if start >= text.len() {
            return None;
        }
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i + 1);
        self.pos = end;
        let raw = &text[start..end];
        let raw = raw.strip_suffix('\n').unwrap_or(raw);
        let mut body = trim_end(raw);
        let mut s = start;
        if start == 0 && body.starts_with(BOM) {
            body = &body[BOM.len()..];
            s += BOM.len();
        }
        Some(Line {
            start: s,
            text: body,
        })
    }
}

/// What reading one text learns that helps read the next (a stream reads
/// a pool ad by ad): right-hand sides checked to read back as they are
/// (see [`reparse`]) with whether each is a literal, and interned names.
/// The ads of a pool repeat their policy expressions and their names, and
/// a lookup is cheaper than a parse or an interning.
#[derive(Default)]
pub(crate) struct ReadCache {
    checked: rustc_hash::FxHashMap<Box<str>, bool>,
    /// Eager reads: right-hand sides parsed, with where they were (a copy
    /// of a tree, its spans moved, is cheaper than a parse).
    parsed: rustc_hash::FxHashMap<Box<str>, (Expr, usize)>,
    /// The names of the last ads read, which the next ad's probably are.
    like: RecentNames,
    names: rustc_hash::FxHashMap<Box<str>, Arc<NameEntry>>,
}

/// Most right-hand sides and names a [`ReadCache`] keeps, and the longest
/// right-hand side.
const MAX_CHECKED: usize = 4096;
const MAX_CHECKED_LEN: usize = 2048;
const MAX_NAMES: usize = 1 << 16;

/// Read a pool whose ads keep their definitions as text of `text` until
/// they are read (see [`ClassAd`]): every definition is checked here,
/// with what earlier reads learnt.
pub(crate) fn read_with(
    text: &str,
    shared: Arc<dyn SharedText>,
    dialect: Dialect,
    cache: &mut ReadCache,
    laziness: Laziness,
) -> Pool {
    let read = read_lines(
        text,
        0,
        lazy_source(shared, dialect),
        dialect,
        cache,
        laziness,
        None,
    );
    read.pool
}

/// The source lazy definitions of `shared` are read from.
pub(crate) fn lazy_source(shared: Arc<dyn SharedText>, dialect: Dialect) -> Arc<LazySource> {
    Arc::new(LazySource {
        text: shared,
        parse: Box::new(move |rhs, at| reparse(rhs, at, dialect)),
    })
}

/// [`read_with`] of the ads in `text[from..to]` (`from` and `to` at the
/// starts of lines that begin ads, outside any comment): spans stay those
/// of the whole text, so parts read apart join into the pool read whole.
pub(crate) fn read_part(
    text: &str,
    from: usize,
    to: usize,
    source: Arc<LazySource>,
    dialect: Dialect,
) -> Pool {
    let mut cache = ReadCache::default();
    let read = read_lines(
        &text[..to],
        from,
        source,
        dialect,
        &mut cache,
        Laziness::Lazy,
        None,
    );
    read.pool
}

/// [`read_with`] keeping only the definitions `projection` wants (see
/// [`super::projection`]); `None` when a line is not a plain `Name = …`
/// definition, which only reading the text whole reports as it should.
pub(crate) fn read_projected(
    text: &str,
    shared: Arc<dyn SharedText>,
    dialect: Dialect,
    cache: &mut ReadCache,
    projection: &Projection,
) -> Option<Pool> {
    let read = read_lines(
        text,
        0,
        lazy_source(shared, dialect),
        dialect,
        cache,
        Laziness::Lazy,
        Some(projection),
    );
    (!read.declined).then_some(read.pool)
}

struct Read {
    pool: Pool,
    /// A projected read met a line only a whole read reports.
    declined: bool,
}

fn read_lines(
    text: &str,
    from: usize,
    source: Arc<LazySource>,
    dialect: Dialect,
    cache: &mut ReadCache,
    laziness: Laziness,
    projection: Option<&Projection>,
) -> Read {
    let bytes = source.text.bytes();
    debug_assert_eq!(bytes.get(..text.len()), Some(text.as_bytes()));
    let ad = AdBuilder::new(&cache.like, 0, Some(source.clone()));
    let mut r = Reader {
        pool: Pool::default(),
        ad,
        ad_span: None,
        dialect,
        cache,
        source,
        sized: false,
        eager: laziness == Laziness::Eager,
    };
    let mut declined = false;
    let mut lines = Lines::new(text);
    lines.pos = from;
    loop {
        if let Some(p) = projection {
            // Most lines of a projected read: a definition passed over
            // after a look at its name.
            if let Some((span, next)) = passed_over(text, lines.pos, p) {
                r.extend_ad(span);
                lines.pos = next;
                continue;
            }
        }
        let Some(line) = lines.next() else {
            break;
        };
        match kind(line.text) {
            Kind::Separator => r.flush(),
            Kind::Comment => {
                // A `/* … */` comment may run over lines.
                let t = line.text.trim_start();
                if t.starts_with("/*") && !t[2..].contains("*/") {
                    let closed = lines.by_ref().any(|l| l.text.contains("*/"));
                    if !closed {
                        let at = line.start + line.text.len() - t.len();
                        r.pool.diagnostics.push(
                            Diagnostic::new(
                                Span::new(at, at + 2),
                                "unterminated `/* … */` comment",
                            )
                            .expected("`*/` to close the comment"),
                        );
                    }
                }
            }
            Kind::Definition => {
                if projection.is_some() {
                    // Unwanted plain definitions were passed over above;
                    // a line that is not one only a whole read reports.
                    if plain_definition_name(line.text).is_none() {
                        declined = true;
                    }
                    if !r.sized {
                        // Room for a few definitions, not for every line.
                        r.sized = true;
                        r.ad = AdBuilder::new(&r.cache.like, 16, Some(r.source.clone()));
                    }
                }
                if !r.sized {
                    // A new ad: room for exactly its definitions (counted
                    // once, however many of its lines are bad).
                    r.sized = true;
                    let n = 1 + lines
                        .clone()
                        .take_while(|l| !matches!(kind(l.text), Kind::Separator))
                        .count();
                    r.ad = AdBuilder::new(&r.cache.like, n, Some(r.source.clone()));
                }
                let used = r.definition(&line, lines.clone());
                if used > 0 {
                    lines.nth(used - 1);
                }
            }
        }
    }
    r.flush();
    Read {
        pool: r.pool,
        declined,
    }
}

/// When the line at `pos` is a plain definition `projection` does not
/// want: the line's span (without its line end and trailing blanks) and
/// where the next line starts.
#[inline]
fn passed_over(text: &str, pos: usize, projection: &Projection) -> Option<(Span, usize)> {
    let b = text.as_bytes();
    let rest = b.get(pos..)?;
    let name = plain_definition_name_bytes(rest)?;
    if projection.wants(name) {
        return None;
    }
    let nl = memchr::memchr(b'\n', &rest[name.len()..]).map(|i| pos + name.len() + i);
    let next = nl.map_or(b.len(), |i| i + 1);
    let mut end = nl.unwrap_or(b.len());
    while end > pos && b[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    Some((Span::new(pos, end), next))
}

/// The name of a line that is a plain definition, `Name = …` (a name of
/// letters, digits, `_` and `.`, then `=` after optional blanks).
fn plain_definition_name(line: &str) -> Option<&[u8]> {
    plain_definition_name_bytes(line.as_bytes())
}

/// [`plain_definition_name`] of bytes (the rest of a line may follow).
#[inline]
fn plain_definition_name_bytes(b: &[u8]) -> Option<&[u8]> {
    let n = b
        .iter()
        .take_while(|&&c| PLAIN_NAME_BYTE[c as usize])
        .count();
    if n == 0 || !b[0].is_ascii_alphabetic() {
        return None;
    }
    let rest = &b[n..];
    let blanks = rest
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    (rest.get(blanks) == Some(&b'=')).then_some(&b[..n])
}

struct Reader<'c> {
    pool: Pool,
    ad: AdBuilder,
    ad_span: Option<Span>,
    dialect: Dialect,
    cache: &'c mut ReadCache,
    source: Arc<LazySource>,
    /// Whether the current ad was made with room for its definitions.
    sized: bool,
    /// Keep every definition parsed (see [`Laziness::Eager`]).
    eager: bool,
}

/// Whether a reader keeps definitions as text until they are read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Laziness {
    /// As text, parsed when first read: a query or a match reads a few
    /// dozen of a production slot's ~850 definitions.
    Lazy,
    /// Parsed as they are checked, once: for work that reads every
    /// definition (`fmt`), where a lazy definition would be parsed twice.
    Eager,
}

impl Reader<'_> {
    fn flush(&mut self) {
        self.sized = false;
        if let Some(span) = self.ad_span.take() {
            let next = AdBuilder::new(&self.cache.like, 0, Some(self.source.clone()));
            let ad = std::mem::replace(&mut self.ad, next).finish();
            self.cache.like.remember(ad.name_list());
            self.pool.push(PoolAd {
                ad,
                span,
                label: String::new(),
            });
        }
    }

    fn keep(&mut self, name: &str, e: Expr, span: Span) {
        let entry = self.interned(name);
        self.ad.push_parsed(name, entry.as_ref(), e);
        self.extend_ad(span);
    }

    /// Keep a definition checked to read back, by [`reparse`], as it did;
    /// false when it cannot be kept lazily (see [`ClassAd::insert_lazy`]).
    fn keep_lazy(&mut self, name: &str, at: usize, len: usize, literal: bool, span: Span) -> bool {
        let entry = self.interned(name);
        if !self
            .ad
            .push_lazy(name, entry.as_ref(), at as u32, len as u32, literal)
        {
            return false;
        }
        self.extend_ad(span);
        true
    }

    fn extend_ad(&mut self, span: Span) {
        self.ad_span = Some(match self.ad_span {
            Some(s) => s.to(span),
            None => span,
        });
    }

    /// The interned entry of the name of the current ad's next
    /// definition, or `None` when it is the one the ad being built expects
    /// (the previous ad's name at this position, usually); else the name is
    /// usually one read before.
    fn interned(&mut self, name: &str) -> Option<Arc<NameEntry>> {
        if self.ad.expects(name) {
            return None;
        }
        Some(match self.cache.names.get(name) {
            Some(e) => e.clone(),
            None => {
                let e = intern_entry(name, key_hash(name));
                if self.cache.names.len() < MAX_NAMES {
                    self.cache.names.insert(name.into(), e.clone());
                }
                e
            }
        })
    }

    /// Read the definition on `line`; returns how many of the lines
    /// after it (`rest`) it used as continuation lines.
    fn definition(&mut self, line: &Line<'_>, rest: Lines<'_>) -> usize {
        let lead = line.text.len() - trim_start(line.text).len();
        let at = line.start + lead;
        let body = &line.text[lead..];
        let Some(eq) = memchr::memchr(b'=', body.as_bytes()) else {
            self.pool.diagnostics.push(
                Diagnostic::new(
                    Span::new(at, at + body.len()),
                    format!(
                        "`{}` is not an attribute definition",
                        scan::shorten(body, 60)
                    ),
                )
                .expected("`Name = expression`"),
            );
            return 0;
        };
        let raw_name = trim_end(&body[..eq]);
        let name = match attribute_name(raw_name) {
            Ok(n) => n,
            Err(msg) => {
                let d = Diagnostic::new(Span::new(at, at + eq.max(1)), msg)
                    .expected("an attribute name before `=`");
                let d = if raw_name.is_empty() {
                    d
                } else {
                    d.in_attribute(raw_name)
                };
                self.pool.diagnostics.push(d);
                return 0;
            }
        };
        let rhs_lead = body[eq + 1..].len() - trim_start(&body[eq + 1..]).len();
        let rhs_at = at + eq + 1 + rhs_lead;
        let rhs = &body[eq + 1 + rhs_lead..];
        let line_span = Span::new(at, line.start + line.text.len());
        if rhs.is_empty() {
            self.pool.diagnostics.push(
                Diagnostic::new(Span::new(at + eq, at + eq + 1), "nothing after `=`")
                    .expected("an expression")
                    .in_attribute(&name),
            );
            return 0;
        }
        if self.eager {
            if let Some(v) = plain_literal(rhs) {
                let e = Expr::new(ExprKind::Literal(v), Span::new(rhs_at, rhs_at + rhs.len()));
                self.keep(&name, e, line_span);
                return 0;
            }
        }
        if self.eager {
            let cached = self.cache.parsed.get(rhs);
            if let Some((e, by)) = cached.and_then(|(e, was)| Some((e, rhs_at.checked_sub(*was)?)))
            {
                let mut e = e.clone();
                crate::lang::ast::shift_spans(&mut e, by);
                self.keep(&name, e, line_span);
                return 0;
            }
        }
        let known = if self.eager {
            None
        } else if is_plain_literal(rhs) {
            Some(true)
        } else if is_plain_list(rhs) {
            Some(false)
        } else {
            self.cache.checked.get(rhs).copied()
        };
        if let Some(literal) = known {
            if self.keep_lazy(&name, rhs_at, rhs.len(), literal, line_span) {
                return 0;
            }
        }
        let (conv, inserted) = old_escaping_to_new(rhs);
        let back = |off: usize| rhs_at + original_offset(&inserted, off);
        match parse_rhs(&conv, self.dialect) {
            Ok((e, trailing, overflows)) => {
                for o in super::literal_warnings(&overflows, &conv, 0) {
                    let span = Span::new(back(o.span.start as usize), back(o.span.end as usize));
                    self.pool
                        .diagnostics
                        .push(Diagnostic { span, ..o }.in_attribute(&name));
                }
                if let Some(t) = trailing {
                    self.pool
                        .diagnostics
                        .push(trailing_text(&conv, t, back(t), &name));
                }
                if trailing.is_none() && inserted.is_empty() && !self.eager {
                    // What `reparse` reads back the same.
                    let literal = matches!(e.kind, ExprKind::Literal(_));
                    if rhs.len() <= MAX_CHECKED_LEN && self.cache.checked.len() < MAX_CHECKED {
                        self.cache.checked.insert(rhs.into(), literal);
                    }
                    if self.keep_lazy(&name, rhs_at, rhs.len(), literal, line_span) {
                        return 0;
                    }
                }
                let mut e = e;
                // Spans back to the line as written (the conversion
                // doubled some backslashes).
                crate::lang::ast::map_spans(&mut e, &|o| back(o as usize) as u32);
                if self.eager
                    && trailing.is_none()
                    && inserted.is_empty()
                    && overflows.is_empty()
                    && rhs.len() <= MAX_CHECKED_LEN
                    && self.cache.parsed.len() < MAX_CHECKED
                {
                    self.cache.parsed.insert(rhs.into(), (e.clone(), rhs_at));
                }
                self.keep(&name, e, line_span);
                0
            }
            Err(d) => {
                let incomplete =
                    d.span.start as usize >= conv.len() || d.message.starts_with("unterminated");
                if incomplete {
                    if let Some(used) = self.continued(&name, rhs, rhs_at, line_span, rest.clone())
                    {
                        return used;
                    }
                }
                let start = back(d.span.start as usize);
                let end = back(d.span.end as usize).max(start);
                let d = Diagnostic {
                    span: Span::new(start, end),
                    line: 0,
                    column: 0,
                    ..d
                };
                self.pool.diagnostics.push(
                    d.in_attribute(&name)
                        .also("this attribute is left out; the rest of its ad is kept"),
                );
                0
            }
        }
    }

    /// Try reading a definition whose expression is incomplete on its own
    /// line together with the continuation lines after it. Returns the
    /// number of continuation lines used, or `None` if that does not give
    /// an expression either (the caller reports the first line's error).
    fn continued(
        &mut self,
        name: &str,
        first: &str,
        rhs_at: usize,
        line_span: Span,
        rest: Lines<'_>,
    ) -> Option<usize> {
        let more: Vec<Line<'_>> = rest
            .take(MAX_CONTINUATION)
            .take_while(|l| {
                matches!(kind(l.text), Kind::Definition) && !looks_like_definition(l.text)
            })
            .collect();
        let last = more.last()?;
        let mut raw = first.to_string();
        for l in &more {
            raw.push('\n');
            raw.push_str(l.text);
        }
        let (joined, inserted) = old_escaping_to_new(&raw);
        // Only a clean parse counts: a continuation that leaves text over
        // was probably not one.
        let Ok((mut e, None, _)) = parse_rhs(&joined, self.dialect) else {
            return None;
        };
        // Where each joined line starts, in `raw` and in the text.
        let mut starts = vec![(0, rhs_at)];
        let mut at = first.len() + 1;
        for l in &more {
            starts.push((at, l.start));
            at += l.text.len() + 1;
        }
        crate::lang::ast::map_spans(&mut e, &|o| {
            let o = original_offset(&inserted, o as usize);
            let i = starts.partition_point(|&(r, _)| r <= o).saturating_sub(1);
            (starts[i].1 + (o - starts[i].0)) as u32
        });
        let span = line_span.to(Span::new(last.start, last.start + last.text.len()));
        let n = more.len();
        self.pool.diagnostics.push(
            Diagnostic::new(
                line_span,
                format!("the value of `{name}` continues over {} lines", n + 1),
            )
            .help(
                "the old format has one attribute per line: HTCondor would reject this \
                 definition (it was read whole here)",
            )
            .in_attribute(name)
            .warning(),
        );
        self.keep(name, e, span);
        Some(n)
    }
}

fn trailing_text(conv: &str, t: usize, at: usize, name: &str) -> Diagnostic {
    Diagnostic::new(
        scan::span_at(at, conv.len() - t),
        format!(
            "unexpected `{}` after the value of `{name}`",
            scan::shorten(&conv[t..], 30)
        ),
    )
    .expected("the end of the line")
    .help("HTCondor reads the expression before this and ignores the rest of the line")
    .in_attribute(name)
}

/// `Name =` at the start of a line (a definition, not a continuation).
fn looks_like_definition(line: &str) -> bool {
    let t = line.trim_start();
    let n = t
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
        .count();
    if n == 0 {
        return false;
    }
    let rest = t[n..].trim_start();
    rest.starts_with('=')
        && !rest.starts_with("==")
        && !rest.starts_with("=?=")
        && !rest.starts_with("=!=")
}

/// The attribute name of a line, as HTCondor takes it (everything before
/// the `=`), unquoting `'quoted names'`. Names HTCondor would take but that
/// cannot be meant as names (spaces, brackets, quotes) are refused.
fn attribute_name(raw: &str) -> Result<std::borrow::Cow<'_, str>, String> {
    if raw.is_empty() {
        return Err("missing attribute name before `=`".into());
    }
    if raw.starts_with('\'') {
        let mut lx = Lexer::new(raw, Dialect::Modern);
        if let Ok(t) = lx.next_token() {
            if let Tok::QuotedName(s) = t.tok {
                if t.span.end as usize == raw.len() && !s.is_empty() {
                    return Ok(s.into());
                }
            }
        }
        return Err(format!(
            "`{}` is not an attribute name",
            scan::shorten(raw, 40)
        ));
    }
    let bad = |c: char| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '"' | '\'' | '(' | ')' | '[' | ']' | '{' | '}' | ';' | ',' | '\u{fffd}'
            )
    };
    if !plain_name(raw.as_bytes()) && raw.chars().any(bad) {
        return Err(format!(
            "`{}` is not an attribute name",
            scan::shorten(raw, 40)
        ));
    }
    Ok(raw.into())
}

/// Whether a name is made of letters, digits, `_` and `.` only (the
/// common case, checked a byte at a time through a table).
fn plain_name(b: &[u8]) -> bool {
    let mut ok = true;
    for &c in b {
        ok &= PLAIN_NAME_BYTE[c as usize];
    }
    ok
}

/// The bytes of a plain name: letters, digits, `_` and `.`.
const PLAIN_NAME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
        c += 1;
    }
    t
};

/// A right-hand side checked by [`Reader::definition`] to need neither
/// escaping conversion nor anything left over, parsed again when it is
/// first read (spans into the text it is at `at` of).
fn reparse(rhs: &str, at: usize, dialect: Dialect) -> Expr {
    if let Some(v) = plain_literal(rhs) {
        return Expr::new(ExprKind::Literal(v), Span::new(at, at + rhs.len()));
    }
    match parse_rhs(rhs, dialect) {
        Ok((mut e, None, _)) => {
            crate::lang::ast::shift_spans(&mut e, at);
            e
        }
        // Not reached: the reader kept it lazy because it parsed.
        _ => Expr::new(
            ExprKind::Literal(Value::Error),
            Span::new(at, at + rhs.len()),
        ),
    }
}

/// Whether [`plain_literal`] reads `rhs` (without making its value).
fn is_plain_literal(rhs: &str) -> bool {
    match rhs.as_bytes().first() {
        Some(b'"') => plain_string(rhs).is_some(),
        _ => plain_literal(rhs).is_some(),
    }
}

/// Whether `rhs` is a list of plain literals, `{ 1, "a", true }`, which
/// the parser reads (checked without it: a production slot's `Child*`
/// lists are each their own, so no cache spares their parse).
/// Anything else — nesting, signs, a trailing comma, comments — is left to
/// the parser.
fn is_plain_list(rhs: &str) -> bool {
    let b = rhs.as_bytes();
    if b.first() != Some(&b'{') || b.last() != Some(&b'}') {
        return false;
    }
    let skip = |mut i: usize| {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        i
    };
    let mut i = skip(1);
    if b.get(i) == Some(&b'}') {
        return i + 1 == b.len();
    }
    loop {
        // One element: a string, or a token up to `,`, `}` or a space.
        let end = if b.get(i) == Some(&b'"') {
            match memchr::memchr(b'"', &b[i + 1..]) {
                Some(q) => i + q + 2,
                None => return false,
            }
        } else {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b' ') {
                j += 1;
            }
            j
        };
        let elem = &rhs[i..end];
        let ok = match elem.as_bytes().first() {
            Some(b'"') => plain_string(elem).is_some(),
            Some(b'-') | None => false,
            Some(_) => plain_literal(elem).is_some(),
        };
        if !ok {
            return false;
        }
        i = skip(end);
        match b.get(i) {
            Some(b',') => i = skip(i + 1),
            Some(b'}') => return i + 1 == b.len(),
            _ => return false,
        }
        if matches!(b.get(i), Some(b'}') | None) {
            return false;
        }
    }
}

/// The body of a string literal without escapes (or a NUL).
fn plain_string(rhs: &str) -> Option<&str> {
    let b = rhs.as_bytes();
    let body = rhs.get(1..rhs.len().checked_sub(1)?)?;
    if b.len() < 2
        || b[b.len() - 1] != b'"'
        || memchr::memchr3(b'"', b'\\', 0, body.as_bytes()).is_some()
    {
        return None;
    }
    Some(body)
}

/// The value of a right-hand side that is a plain literal — a decimal
/// integer without leading zeros, a decimal real, a string without
/// escapes (or a NUL, which the lexer refuses), `true` or `false` — read directly: most lines of a
/// `condor_status -l` pool are one, and the lexer and parser would give
/// exactly this (`tests::literal_fast_path_agrees_with_the_parser`).
fn plain_literal(rhs: &str) -> Option<Value> {
    let b = rhs.as_bytes();
    match *b.first()? {
        b'"' => plain_string(rhs).map(Value::str),
        b'-' | b'0'..=b'9' => {
            let (neg, digits) = match rhs.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, rhs),
            };
            let d = digits.as_bytes();
            let int_len = d.iter().take_while(|c| c.is_ascii_digit()).count();
            if int_len == 0 || int_len > 18 {
                return None;
            }
            if int_len == d.len() {
                // No leading zeros: `012` is an error, `0600` octal in
                // the seed dialect.
                if d[0] == b'0' && d.len() > 1 {
                    return None;
                }
                // At most 18 digits: no overflow.
                let v = d.iter().fold(0i64, |v, c| v * 10 + (c - b'0') as i64);
                return Some(Value::Int(if neg { -v } else { v }));
            }
            let frac = &d[int_len..];
            if frac.len() < 2 || frac[0] != b'.' || !frac[1..].iter().all(u8::is_ascii_digit) {
                return None;
            }
            let v: f64 = digits.parse().ok()?;
            Some(Value::Real(if neg { -v } else { v }))
        }
        _ if rhs.eq_ignore_ascii_case("true") => Some(Value::Bool(true)),
        _ if rhs.eq_ignore_ascii_case("false") => Some(Value::Bool(false)),
        _ => None,
    }
}

/// Parse an old-format right-hand side (already converted to new escaping).
/// Returns the expression and, if text follows it that HTCondor would
/// ignore, where that text starts. A trailing `;` or comment is fine.
fn parse_rhs(src: &str, dialect: Dialect) -> Result<Rhs, Diagnostic> {
    match parse_prefix(src, dialect) {
        Ok(r) => Ok(r),
        Err(d) => {
            // HTCondor parses the longest expression it can and ignores the
            // rest: `a = 1 @x` is `a = 1`. Do the same (the caller reports
            // the rest), if the text before the error is a whole expression.
            let at = d.span.start as usize;
            if at > 0 && at < src.len() && src.is_char_boundary(at) {
                if let Ok((e, None, overflows)) = parse_prefix(&src[..at], dialect) {
                    let rest = src[at..].trim_start();
                    let t = src.len() - rest.len();
                    return Ok((e, (!rest.starts_with('#')).then_some(t), overflows));
                }
            }
            Err(d)
        }
    }
}

fn parse_prefix(src: &str, dialect: Dialect) -> Result<Rhs, Diagnostic> {
    let mut p = Parser::new(src, dialect)?;
    let e = p.expr()?;
    if matches!(p.peek(), Tok::Punct(";")) {
        p.bump()?;
    }
    let overflows = p.overflows().to_vec();
    if matches!(p.peek(), Tok::Eof) {
        Ok((e, None, overflows))
    } else {
        Ok((e, Some(p.span().start as usize), overflows))
    }
}

/// A right-hand side: its expression, where ignored text after it starts,
/// and the integer literals in it that overflowed (read as 0).
type Rhs = (Expr, Option<usize>, Vec<Span>);

/// Old-ClassAd escaping to new, as libclassad's lexer reads the old format:
/// in a string a backslash is an ordinary character except that `\"`
/// escapes a quote that does not end the line; likewise `\'` in a quoted
/// name. Every other backslash is doubled for the new-syntax lexer.
/// Returns the converted text and the offsets (in `s`) where a backslash
/// was inserted.
pub(crate) fn old_escaping_to_new(s: &str) -> (std::borrow::Cow<'_, str>, Vec<usize>) {
    if memchr::memchr(b'\\', s.as_bytes()).is_none() {
        return (std::borrow::Cow::Borrowed(s), Vec::new());
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len() + 8);
    let mut inserted = Vec::new();
    let mut last = 0;
    // The quote that closes what we are in: `"`, `'`, or none.
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            // `\"` escapes unless that quote ends the line.
            let escapes = quote.is_some()
                && b.get(i + 1) == quote.as_ref()
                && !matches!(b.get(i + 2), None | Some(b'\n' | b'\r'));
            if escapes {
                i += 2;
                continue;
            }
            out.push_str(&s[last..i]);
            out.push('\\');
            inserted.push(i);
            last = i;
        } else if c == b'"' || c == b'\'' {
            match quote {
                None => quote = Some(c),
                Some(q) if q == c => quote = None,
                _ => {}
            }
        }
        i += 1;
    }
    out.push_str(&s[last..]);
    (std::borrow::Cow::Owned(out), inserted)
}

/// Map an offset in converted text back to the original.
fn original_offset(inserted: &[usize], conv: usize) -> usize {
    // The k-th insertion (0-based) sits at converted offset inserted[k] + k.
    let before = inserted
        .iter()
        .enumerate()
        .take_while(|(k, &p)| p + k < conv)
        .count();
    conv - before
}

/// Write one ad as `condor_status -l` does: `Name = expr` lines, values in
/// the old unparse style. Names that could not be read back raw are
/// written quoted.
pub(super) fn write(out: &mut String, ad: &ClassAd) {
    for (name, e) in ad.iter() {
        if writes_raw(name) {
            out.push_str(name);
        } else {
            crate::lang::unparse::write_name(out, name);
        }
        out.push_str(" = ");
        crate::lang::unparse::write_expr(out, e, crate::lang::unparse::Style::Old);
        out.push('\n');
    }
}

/// HTCondor writes every name raw; we do so for every name that reads back
/// as itself (all real ones) and quote the rest.
fn writes_raw(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with("--")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.$@:+-/".contains(c))
        && !name.starts_with("//")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text each span of an attribute's expression covers, outermost
    /// first: the same whether the ad was read lazily or eagerly.
    fn covered<'a>(text: &'a str, attr: &str) -> Vec<&'a str> {
        let read = |laziness| {
            let pool = read_with(
                text,
                Arc::new(text.to_string()),
                Dialect::default(),
                &mut ReadCache::default(),
                laziness,
            );
            assert!(
                pool.diagnostics.iter().all(|d| !d.is_error()),
                "{:?}",
                pool.diagnostics
            );
            let e = pool.ads[0].ad.get(attr).unwrap();
            let mut out = vec![];
            fn walk<'a>(e: &Expr, text: &'a str, out: &mut Vec<&'a str>) {
                out.push(&text[e.span.start as usize..e.span.end as usize]);
                if let ExprKind::Binary(_, a, b) = &e.kind {
                    walk(a, text, out);
                    walk(b, text, out);
                }
            }
            walk(e, text, &mut out);
            out
        };
        let lazy = read(Laziness::Lazy);
        assert_eq!(lazy, read(Laziness::Eager), "eager spans differ");
        lazy
    }

    #[test]
    fn spans_point_at_the_text_as_written_past_backslashes() {
        let text = "Iwd = \"C:\\condor\\execute\" + Suffix\nOther = 1\n";
        assert_eq!(
            covered(text, "Iwd"),
            [
                "\"C:\\condor\\execute\" + Suffix",
                "\"C:\\condor\\execute\"",
                "Suffix"
            ]
        );
        // A value continued over lines, with a backslash on each.
        let text = "Cmd = \"a\\b\" +\n  \"c\\d\" + Tail\n";
        assert_eq!(covered(text, "Cmd").last(), Some(&"Tail"));
    }

    #[test]
    fn literal_fast_path_agrees_with_the_parser() {
        let mut samples: Vec<String> = [
            "0",
            "-0",
            "7",
            "-7",
            "012",
            "-012",
            "0600",
            "123456789012345678",
            "1234567890123456789",
            "9223372036854775807",
            "0.97",
            "-0.5",
            "00.5",
            "1.",
            ".5",
            "1.5e3",
            "2K",
            "323.4M",
            "1.25",
            "\"\"",
            "\"abc\"",
            "\"a\\\"b\"",
            "\"a\" \"b\"",
            "\"x",
            "\"ü ñ\"",
            "true",
            "TRUE",
            "False",
            "truex",
            "undefined",
            "1 + 2",
            "- 5",
            "-",
            "\"",
            "5;",
            "5 # c",
            "0x1f",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for i in 0..2000u64 {
            samples.push(i.wrapping_mul(2654435761).to_string());
            samples.push(format!("{}.{}", i % 97, i * 7919 % 100_000));
        }
        for dialect in [Dialect::Auto, Dialect::Modern, Dialect::Seed] {
            for s in &samples {
                let Some(fast) = plain_literal(s) else {
                    continue;
                };
                let (e, rest, _) = parse_rhs(s, dialect).unwrap_or_else(|d| panic!("{s}: {d:?}"));
                assert!(rest.is_none(), "{s}: trailing text");
                let parsed = e
                    .as_literal()
                    .unwrap_or_else(|| panic!("{s}: not a literal"));
                assert_eq!(parsed.kind(), fast.kind(), "{s}");
                assert_eq!(parsed.to_string(), fast.to_string(), "{s}");
                assert_eq!((e.span.start, e.span.end), (0, s.len() as u32), "{s}");
            }
        }
    }

    /// What [`is_plain_list`] takes, the parser reads whole as a list, in
    /// every dialect; what it leaves (a sample of each kind) is the
    /// parser's to take or refuse.
    #[test]
    fn plain_list_check_agrees_with_the_parser() {
        let taken = [
            "{}",
            "{ }",
            "{ 1 }",
            "{1,2,3}",
            "{ 1, 2, 3 }",
            "{ \"a\", \"b, c\", \"}\" }",
            "{ 0.5, 12, true, FALSE, \"\" }",
            "{  \"x\"  ,  7  }",
        ];
        let left = [
            "{ 1, }",
            "{ , }",
            "{ -1 }",
            "{ 1 2 }",
            "{ {1} }",
            "{ \"a\\\"b\" }",
            "{ 012 }",
            "{ 1.5e3 }",
            "{ x }",
            "{ 1 } + 2",
            "{ \"a }",
            "{\t1 }",
            "{ 1 }}",
            "{",
            "}",
        ];
        for s in taken {
            assert!(is_plain_list(s), "{s}");
            for dialect in [Dialect::Auto, Dialect::Modern, Dialect::Seed] {
                let (e, rest, overflows) =
                    parse_rhs(s, dialect).unwrap_or_else(|d| panic!("{s}: {d:?}"));
                assert!(rest.is_none() && overflows.is_empty(), "{s}");
                assert!(matches!(e.kind, ExprKind::List(_)), "{s}: {e:?}");
            }
        }
        for s in left {
            assert!(!is_plain_list(s), "{s}");
        }
    }
}
