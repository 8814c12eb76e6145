//! Small byte-level scanners shared by the readers: locating diagnostics,
//! skipping comments, and finding where a record ends without parsing it.
//! Everything here is linear in the text it looks at and never panics on
//! arbitrary input (it only slices at ASCII bytes).

use crate::lang::ast::Span;
use crate::lang::diagnostic::Diagnostic;

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub(crate) const BOM: &str = "\u{feff}";

/// Line starts of a text, for turning byte offsets into 1-based line and
/// character column in O(log lines + line length) instead of rescanning the
/// whole text for every diagnostic.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { text, starts }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub(crate) fn line_col(&self, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(self.text.len());
        while offset > 0 && !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = self.text[start..offset].chars().count() + 1;
        (line as u32, col as u32)
    }

    pub(crate) fn locate(&self, mut d: Diagnostic) -> Diagnostic {
        let (l, c) = self.line_col(d.span.start as usize);
        d.line = l;
        d.column = c;
        d
    }
}

/// Skip whitespace, a byte-order mark, `//` and `/* */` comments, `#`
/// comment lines, and any of the bytes in `seps`. Returns the new offset.
/// An unterminated `/*` is left in place for the parser to report.
pub(crate) fn skip_trivia(text: &str, mut pos: usize, seps: &[u8]) -> usize {
    let b = text.as_bytes();
    // A caller stepping one byte past a character it looked at may land
    // inside it: go on from the next character.
    while pos < b.len() && !text.is_char_boundary(pos) {
        pos += 1;
    }
    loop {
        if pos >= b.len() {
            return b.len();
        }
        if b[pos..].starts_with(BOM.as_bytes()) {
            pos += BOM.len();
            continue;
        }
        let Some(&c) = b.get(pos) else { return pos };
        if c.is_ascii_whitespace() || seps.contains(&c) {
            pos += 1;
        } else if c == b'/' && b.get(pos + 1) == Some(&b'/') || c == b'#' && at_line_start(b, pos) {
            pos = line_end(b, pos);
        } else if c == b'/' && b.get(pos + 1) == Some(&b'*') {
            match find(b, pos + 2, b"*/") {
                Some(e) => pos = e + 2,
                None => return pos,
            }
        } else {
            return pos;
        }
    }
}

/// Is `pos` preceded on its line only by blanks?
fn at_line_start(b: &[u8], pos: usize) -> bool {
    b[..pos]
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|&c| c == b' ' || c == b'\t' || c == b'\r')
}

/// Offset of the `\n` ending the line that holds `pos` (or the text's end).
pub(crate) fn line_end(b: &[u8], pos: usize) -> usize {
    b[pos..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |i| pos + i)
}

/// Offset of the start of the line that holds `pos`.
pub(crate) fn line_start(b: &[u8], pos: usize) -> usize {
    b[..pos]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1)
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|i| from + i)
}

/// Indentation (in bytes of blanks) of `pos` if only blanks precede it on
/// its line, else `None`.
pub(crate) fn indentation(b: &[u8], pos: usize) -> Option<usize> {
    let ls = line_start(b, pos);
    b[ls..pos]
        .iter()
        .all(|&c| c == b' ' || c == b'\t' || c == b'\r' || c == 0xEF || c == 0xBB || c == 0xBF)
        .then_some(pos - ls)
}

/// The number of blanks that start the line holding `pos`.
pub(crate) fn line_indentation(b: &[u8], pos: usize) -> usize {
    lead(b, line_start(b, pos))
}

/// The next line after the one holding `from` whose first non-blank byte is
/// `open`, at an indentation of at most `max_indent`. Returns the offset of
/// that byte.
pub(crate) fn next_line_opening(
    text: &str,
    from: usize,
    open: u8,
    max_indent: usize,
) -> Option<usize> {
    let b = text.as_bytes();
    let mut pos = line_end(b, from.min(b.len()));
    while pos < b.len() {
        let ls = pos + 1;
        let mut i = ls;
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i < b.len() && b[i] == open && i - ls <= max_indent {
            return Some(i);
        }
        pos = line_end(b, i.min(b.len()));
    }
    None
}

/// Where a bracketed construct that opens at `start` ends.
pub(crate) enum Extent {
    /// Just past the matching close bracket.
    Closed(usize),
    /// The text, or the record, stops before the bracket is closed: at this
    /// offset another record starts (a line opening with `open` at the same
    /// or a smaller indentation) or the text ends.
    Open(usize),
}

/// Find the end of the ClassAd record opening with `[` at `start`, by
/// counting brackets outside strings, quoted names and comments. Scanning
/// stops early at a line that starts another record at an indentation of at
/// most `indent`, so an unclosed record never swallows the records after it
/// and scanning stays linear over a whole file.
pub(crate) fn record_extent(text: &str, start: usize, indent: usize) -> Extent {
    let b = text.as_bytes();
    let mut depth: i64 = 0;
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        match c {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => {
                depth -= 1;
                if depth <= 0 {
                    return Extent::Closed(i + 1);
                }
            }
            b'"' | b'\'' => {
                // Strings and quoted names: skip to the closing quote,
                // honouring backslash escapes. A line that opens a new
                // record still stops the scan (a missing quote is the
                // commonest slip and must not eat the rest of the file).
                let mut j = i + 1;
                while j < b.len() && b[j] != c {
                    if b[j] == b'\\' {
                        j += 1;
                    } else if b[j] == b'\n' && record_starts_after(b, j, indent) {
                        return Extent::Open(j + 1 + lead(b, j + 1));
                    }
                    j += 1;
                }
                i = j;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = line_end(b, i);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match find(b, i + 2, b"*/") {
                Some(e) => i = e + 1,
                None => return Extent::Open(b.len()),
            },
            b'\n' if record_starts_after(b, i, indent) => {
                return Extent::Open(i + 1 + lead(b, i + 1));
            }
            _ => {}
        }
        i += 1;
    }
    Extent::Open(b.len())
}

fn lead(b: &[u8], ls: usize) -> usize {
    b[ls..]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count()
}

/// Does the line after the newline at `nl` open a record (`[`) at an
/// indentation of at most `indent`?
fn record_starts_after(b: &[u8], nl: usize, indent: usize) -> bool {
    let ls = nl + 1;
    let n = lead(b, ls);
    n <= indent && b.get(ls + n) == Some(&b'[')
}

/// The offset of the next `sep` at bracket depth zero from `start`, outside
/// strings, quoted names and comments; `None` if there is none.
pub(crate) fn next_top_level(text: &str, start: usize, sep: u8) -> Option<usize> {
    next_sep(text, start, sep, true)
}

/// The offset of the next `sep` outside strings, quoted names and
/// comments, whatever the bracket depth.
pub(crate) fn next_top_level_any_depth(text: &str, start: usize, sep: u8) -> Option<usize> {
    next_sep(text, start, sep, false)
}

fn next_sep(text: &str, start: usize, sep: u8, count_depth: bool) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth: i64 = 0;
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        match c {
            _ if c == sep && (depth <= 0 || !count_depth) => return Some(i),
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => depth -= 1,
            b'"' | b'\'' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != c {
                    if b[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                i = j;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = line_end(b, i);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match find(b, i + 2, b"*/") {
                Some(e) => i = e + 1,
                None => return None,
            },
            _ => {}
        }
        i += 1;
    }
    None
}

/// A short, printable excerpt of the text at `pos` for messages: up to the
/// next blank or `max` characters.
pub(crate) fn excerpt(text: &str, pos: usize, max: usize) -> String {
    let mut p = pos.min(text.len());
    while p > 0 && !text.is_char_boundary(p) {
        p -= 1;
    }
    let word: String = text[p..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .take(max + 1)
        .collect();
    let mut s: String = word.chars().take(max).map(printable).collect();
    if word.chars().count() > max {
        s.push('…');
    }
    s
}

/// A shortened, printable form of a whole line for messages.
pub(crate) fn shorten(line: &str, max: usize) -> String {
    let mut s: String = line.chars().take(max).map(printable).collect();
    if line.chars().count() > max {
        s.push('…');
    }
    s
}

/// Control characters and other invisible code points become `�` in
/// messages so a diagnostic about binary garbage stays one readable line.
fn printable(c: char) -> char {
    if c.is_control() || c == '\u{feff}' {
        '\u{fffd}'
    } else {
        c
    }
}

pub(crate) fn span_at(pos: usize, len: usize) -> Span {
    Span::new(pos, pos + len.max(1))
}

/// Just past the JSON string whose opening `"` is at `open` (escapes
/// skipped), or the end of `b` when it is not closed.
pub(crate) fn json_string_end(b: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// The message for an integer that does not fit in 64 bits, shortened
/// (a 1 MB number is not quoted whole), with its count of digits.
pub(crate) fn too_big_integer(t: &str) -> String {
    format!(
        "the integer {} ({} digits) does not fit in 64 bits",
        shorten(t, 40),
        t.trim_start_matches('-').len()
    )
}
