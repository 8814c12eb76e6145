//! Reading a pool one ad at a time, for pools too big to hold (a query
//! over a 10 GB `condor_status -l` dump): the text is cut into records as
//! it is read — at blank and banner lines in the old long format, where
//! the brackets close in the new syntax, at the line where a top-level
//! `</c>` closes an ad in XML, where a top-level object closes in JSON
//! (an array or JSON lines) — and each record is read by the same readers
//! as a whole pool. A record may hold at most [`MAX_RECORD_BYTES`]: an ad
//! never closed (an unclosed `[` or `{` at the top of a 256 MB file) is
//! reported there, and reading resumes at the next line that opens an ad,
//! so memory stays bounded whatever the text: a line longer than the bound
//! is never held whole, but dropped as it is read (with the ad it is in).
//! UTF-16 and UTF-32 text, marked as such, is read as the text it is
//! (see [`super::encoding`]).

use std::collections::VecDeque;
use std::io::BufRead;

use super::encoding::Decoded;
use super::{detect, label, scan, InputFormat, PoolAd};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::Dialect;

/// The most text one record (one ad, as it is being gathered) may hold:
/// production slot ads are about 26 KB.
/// The same bound as any one value's (a value cannot come from a record
/// larger than it).
pub const MAX_RECORD_BYTES: usize = crate::lang::eval::MAX_VALUE_BYTES;

/// What the stream gives: an ad, or a problem with the text (its line and
/// column are the file's).
#[derive(Debug)]
pub enum Streamed {
    Ad(PoolAd),
    Problem(Diagnostic),
}

/// Ads read from `R` as they come.
pub struct AdStream<R: BufRead> {
    reader: Decoded<R>,
    dialect: Dialect,
    /// Decided from the first significant line.
    format: Option<InputFormat>,
    /// The record being gathered, and the file line it starts on.
    record: String,
    record_line: u32,
    /// Lines read so far.
    line: u32,
    /// New syntax: bracket depth and whether a `/* */` comment is open.
    /// XML: `<c>` depth.
    depth: i64,
    in_comment: bool,
    /// XML: what ends the comment, CDATA or `<?…?>` we are in, and
    /// whether the record holds the start of an ad.
    xml_in: Option<&'static [u8]>,
    xml_opened: bool,
    /// JSON: whether the top-level array is open (its `[ ]` are not part of
    /// any record).
    json_array: bool,
    /// After a record passed [`MAX_RECORD_BYTES`]: skip lines until one
    /// opens an ad.
    skipping: bool,
    /// The indentation of the record's first line (new syntax, JSON): a
    /// line opening an ad no deeper than it, while the record is still
    /// open, starts the next ad (the open one was never closed).
    record_indent: usize,
    ready: VecDeque<Streamed>,
    ads: usize,
    done: bool,
    /// Lines read before the format was known (with their line numbers),
    /// and their text together.
    undecided: Vec<(u32, String)>,
    undecided_text: String,
    /// What reading earlier ads learnt (long format).
    cache: super::old::ReadCache,
    /// The long format's whole lines, a buffer at a time.
    chunk: Vec<u8>,
    /// What the work reads, when it said (see [`AdStream::projected`]).
    projection: Option<super::Projection>,
}

impl<R: BufRead> AdStream<R> {
    pub fn new(reader: R, dialect: Dialect) -> AdStream<R> {
        AdStream {
            reader: Decoded::new(reader),
            dialect,
            format: None,
            record: String::new(),
            record_line: 1,
            line: 0,
            depth: 0,
            in_comment: false,
            xml_in: None,
            xml_opened: false,
            json_array: false,
            skipping: false,
            record_indent: 0,
            ready: VecDeque::new(),
            ads: 0,
            done: false,
            undecided: Vec::new(),
            undecided_text: String::new(),
            cache: Default::default(),
            chunk: Vec::new(),
            projection: None,
        }
    }

    /// Read only the definitions `projection` wants of each long-format
    /// ad (see [`super::projection`]): the ads hold every definition the
    /// work's expressions reach, and nothing else is looked at but the
    /// names of its lines. Other formats are read whole.
    pub fn projected(mut self, projection: super::Projection) -> AdStream<R> {
        // What each ad's label reads.
        self.projection = Some(projection.with(super::LABEL_READS.iter().copied()));
        self
    }

    /// The format, once the first record has been seen.
    pub fn format(&self) -> Option<InputFormat> {
        self.format
    }

    /// Read the record gathered so far and queue what it holds.
    fn flush(&mut self, format: InputFormat) {
        let text = std::mem::take(&mut self.record);
        if text.trim().is_empty() {
            return;
        }
        let text = std::sync::Arc::new(text);
        let pool = match self.projection.as_mut() {
            Some(p) if format == InputFormat::Old && !p.keeps_everything() => {
                super::read_projected(&text, self.dialect, &mut self.cache, p)
            }
            _ => None,
        };
        let pool = pool.unwrap_or_else(|| {
            super::read_pool_cached(text, format, self.dialect, &mut self.cache)
        });
        let shift = self.record_line - 1;
        for d in pool.diagnostics {
            self.ready.push_back(Streamed::Problem(Diagnostic {
                line: d.line + shift,
                ..d
            }));
        }
        for mut a in pool.ads {
            a.label = label(&a.ad, self.ads);
            self.ads += 1;
            self.ready.push_back(Streamed::Ad(a));
        }
    }

    /// Hold lines until the first two significant characters tell the
    /// format (`[` then `{` is JSON, `{` then `[` the new-syntax list, …),
    /// then take them in order.
    fn decide(&mut self, line: String) {
        self.undecided_text.push_str(&line);
        self.undecided.push((self.line, line));
        let text = &self.undecided_text;
        // Held lines are bounded as a record is: a file of nothing but
        // comments is decided (as the long format) at the bound.
        let full = text.len() > MAX_RECORD_BYTES;
        let p = scan::skip_trivia(text, 0, b"");
        let Some(&first) = text.as_bytes().get(p) else {
            if full {
                self.settle(InputFormat::Old);
            }
            return;
        };
        let second = scan::skip_trivia(text, p + 1, b"") < text.len();
        if matches!(first, b'[' | b'{') && !second && !self.done && !full {
            return;
        }
        self.settle(detect(text));
    }

    /// The format is known: take the lines held back.
    fn settle(&mut self, format: InputFormat) {
        self.format = Some(format);
        self.undecided_text = String::new();
        let now = self.line;
        for (n, l) in std::mem::take(&mut self.undecided) {
            self.line = n;
            self.take(l);
        }
        self.line = now;
    }

    /// Take one more line (the long format: every whole line the reader
    /// holds); `false` at the end of the input.
    fn read_line(&mut self) -> bool {
        if self.format == Some(InputFormat::Old) && !self.skipping && self.undecided.is_empty() {
            if let Some(more) = self.read_old_lines() {
                return more;
            }
        }
        let mut bytes = Vec::new();
        match read_bounded_line(&mut self.reader, &mut bytes, MAX_RECORD_BYTES) {
            Ok(0) => false,
            Ok(n) if n > MAX_RECORD_BYTES => {
                self.line += 1;
                self.line_too_long(n, &bytes);
                true
            }
            Ok(_) => {
                self.line += 1;
                self.take_bytes(&bytes);
                true
            }
            Err(e) => {
                self.ready.push_back(Streamed::Problem(Diagnostic::new(
                    crate::lang::ast::Span::NONE,
                    format!("reading stopped at line {}: {e}", self.line + 1),
                )));
                false
            }
        }
    }

    /// A line longer than [`MAX_RECORD_BYTES`] (of `len` bytes) was read
    /// and dropped: the ad it is part of is left out, and reading resumes
    /// at the next line that opens one.
    fn line_too_long(&mut self, len: usize, head: &[u8]) {
        if self.format.is_none() {
            // Decide from what came before it and the line's start.
            let mut text = std::mem::take(&mut self.undecided_text);
            text.push_str(&String::from_utf8_lossy(head));
            self.settle(detect(&text));
        }
        let d = Diagnostic {
            line: self.line,
            column: 1,
            ..Diagnostic::new(
                crate::lang::ast::Span::NONE,
                format!(
                    "line {} is {} MB long, more than an ad may hold ({} MB): it is left out with \
                     the ad it belongs to, and reading resumes at the next line that opens an ad",
                    self.line,
                    len >> 20,
                    MAX_RECORD_BYTES >> 20
                ),
            )
        };
        self.ready.push_back(Streamed::Problem(d));
        self.drop_record();
    }

    /// UTF-16 or UTF-32 units that were not text: said once, at the end.
    fn note_bad_units(&mut self) {
        let bad = self.reader.bad_units();
        if bad == 0 {
            return;
        }
        let encoding = self.reader.encoding().map_or("", |e| e.name());
        self.ready.push_back(Streamed::Problem(
            Diagnostic::new(
                crate::lang::ast::Span::NONE,
                format!("the input is marked as {encoding} text but is not valid"),
            )
            .help(format!(
                "{bad} code unit(s) read as U+FFFD and every ad is kept (is this a binary file?)"
            ))
            .warning(),
        ));
    }

    /// The long format's lines, as many whole ones as the reader holds,
    /// without a string each (a production pool has millions). `None`
    /// when it holds no whole line (or cannot be read): the line at a time
    /// path takes over.
    fn read_old_lines(&mut self) -> Option<bool> {
        let buf = self.reader.fill_buf().ok()?;
        if buf.is_empty() {
            return Some(false);
        }
        let end = memchr::memrchr(b'\n', buf)? + 1;
        // Copied out (the reader is borrowed while it is read) into a
        // buffer kept from one fill to the next.
        let mut chunk = std::mem::take(&mut self.chunk);
        chunk.clear();
        chunk.extend_from_slice(&buf[..end]);
        self.reader.consume(end);
        let more = self.take_old_chunk(&chunk);
        self.chunk = chunk;
        Some(more)
    }

    /// [`AdStream::read_old_lines`] of the whole lines read.
    fn take_old_chunk(&mut self, chunk: &[u8]) -> bool {
        match std::str::from_utf8(chunk) {
            Ok(text) if self.record.len() + text.len() <= MAX_RECORD_BYTES => {
                self.take_old_lines(text);
                return true;
            }
            Ok(text) => {
                for line in text.split_inclusive('\n') {
                    self.line += 1;
                    self.take_old(line);
                }
                return true;
            }
            Err(_) => {}
        }
        for line in chunk.split_inclusive(|&b| b == b'\n') {
            self.line += 1;
            match std::str::from_utf8(line) {
                Ok(line) => self.take_old(line),
                Err(_) => self.take_bytes(line),
            }
        }
        true
    }

    /// Take line `self.line` as bytes. A Latin-1 name from a Windows host,
    /// say: the line is kept (and every ad after it), and a warning says
    /// where.
    fn take_bytes(&mut self, bytes: &[u8]) {
        let (line, warning) = super::decode_text(bytes);
        if let Some(d) = warning {
            self.ready.push_back(Streamed::Problem(Diagnostic {
                line: self.line,
                ..d
            }));
        }
        self.take(line);
    }

    /// [`AdStream::take_old`] of every line of `text` (whole lines, which
    /// fit in the record): the runs of lines between separators go into
    /// the record at once, and a line starting with a letter (most are
    /// `Name = value`) is known not to be a separator by its first byte.
    fn take_old_lines(&mut self, text: &str) {
        let b = text.as_bytes();
        // Where the part of the open record not yet in `self.record` starts.
        let (mut open, mut pending, mut pos) = (!self.record.is_empty(), 0, 0);
        while pos < b.len() {
            let end = memchr::memchr(b'\n', &b[pos..]).map_or(b.len(), |i| pos + i + 1);
            self.line += 1;
            let line = &text[pos..end];
            if b[pos].is_ascii_alphabetic() {
                if !open {
                    (open, pending) = (true, pos);
                    self.record_line = self.line;
                    self.record_indent = 0;
                }
            } else {
                let t = line.trim();
                if t.is_empty() || t.starts_with("***") {
                    if open {
                        self.record.push_str(&text[pending..pos]);
                        open = false;
                    }
                    self.flush(InputFormat::Old);
                } else if !open {
                    (open, pending) = (true, pos);
                    self.record_line = self.line;
                    self.record_indent = indentation(line);
                }
            }
            pos = end;
        }
        if open {
            self.record.push_str(&text[pending..]);
        }
    }

    /// [`AdStream::take`] of a long-format line, without copying it but
    /// into the record.
    fn take_old(&mut self, line: &str) {
        if self.skipping || self.record.len() + line.len() > MAX_RECORD_BYTES {
            return self.take(line.to_string());
        }
        let t = line.trim();
        if self.record.is_empty() {
            if t.is_empty() {
                return;
            }
            self.record_line = self.line;
            self.record_indent = indentation(line);
        }
        if t.is_empty() || t.starts_with("***") {
            self.flush(InputFormat::Old);
        } else {
            self.record.push_str(line);
        }
    }

    fn take(&mut self, line: String) {
        if line.len() > MAX_RECORD_BYTES {
            // A reader holding it whole (a slice) gave it: as if read
            // bounded.
            let head = &line.as_bytes()[..HEAD_BYTES];
            return self.line_too_long(line.len(), head);
        }
        let Some(format) = self.format else {
            return self.decide(line);
        };
        if self.skipping {
            if !opens_ad(format, &line) {
                return;
            }
            self.skipping = false;
        }
        if self.record.len() + line.len() > MAX_RECORD_BYTES {
            // Lines are at most the bound (see above), so the line fits
            // once the record is dropped.
            self.give_up_record();
            if !opens_ad(format, &line) {
                return;
            }
            self.skipping = false;
        }
        if self.depth > 0 && !self.record.is_empty() && self.opens_next_ad(format, &line) {
            // The open ad was never closed: read it as it is (the reader
            // says so, located) and start afresh here, as a whole read does.
            self.depth = 0;
            self.in_comment = false;
            match format {
                InputFormat::New => self.flush_new(),
                f => self.flush(f),
            }
        }
        if self.record.is_empty() {
            if line.trim().is_empty() {
                return;
            }
            self.record_line = self.line;
            self.record_indent = indentation(&line);
        }
        match format {
            InputFormat::Old | InputFormat::Auto => {
                let t = line.trim();
                if t.is_empty() || t.starts_with("***") {
                    self.flush(InputFormat::Old);
                } else {
                    self.record.push_str(&line);
                }
            }
            InputFormat::New => {
                let opened = self.depth > 0 || line.contains('[');
                self.record.push_str(&line);
                self.count_brackets(&line);
                if opened && self.depth <= 0 && !self.in_comment {
                    self.depth = 0;
                    self.flush_new();
                }
            }
            InputFormat::Json => {
                let line = self.json_brackets(line);
                self.record.push_str(&line);
                if self.depth <= 0 {
                    self.depth = 0;
                    self.flush(InputFormat::Json);
                }
            }
            InputFormat::Xml => {
                self.record.push_str(&line);
                self.count_xml(&line);
                if self.xml_opened && self.depth == 0 && self.xml_in.is_none() {
                    self.xml_opened = false;
                    self.flush(InputFormat::Xml);
                }
            }
        }
    }

    /// Whether `line` opens an ad at the open record's indentation or less.
    fn opens_next_ad(&self, format: InputFormat, line: &str) -> bool {
        let t = line.trim_start();
        let opener = match format {
            InputFormat::New => t.starts_with('['),
            InputFormat::Json => t.starts_with('{'),
            _ => false,
        };
        opener && indentation(line) <= self.record_indent
    }

    /// A record that passed [`MAX_RECORD_BYTES`] without closing: say so
    /// where it started, drop it, and skip to the next line opening an ad.
    fn give_up_record(&mut self) {
        let d = Diagnostic {
            line: self.record_line,
            column: 1,
            ..Diagnostic::new(
                crate::lang::ast::Span::NONE,
                format!(
                    "this ad is not closed within {} MB: it is left out, and reading resumes at the \
                     next line that opens an ad",
                    MAX_RECORD_BYTES >> 20
                ),
            )
            .expected("a closing bracket (is one missing?)")
        };
        self.ready.push_back(Streamed::Problem(d));
        self.drop_record();
    }

    /// Forget the record being gathered and skip to the next line that
    /// opens an ad.
    fn drop_record(&mut self) {
        self.record.clear();
        self.depth = 0;
        self.in_comment = false;
        self.xml_in = None;
        self.xml_opened = false;
        self.skipping = true;
    }

    /// JSON: track `{ [` depth outside strings (which cannot span lines),
    /// dropping the top-level array's own `[`, `]` so each record is a run
    /// of objects the JSON reader reads as JSON lines.
    fn json_brackets(&mut self, mut line: String) -> String {
        let mut drop_at: Vec<usize> = vec![];
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i = scan::json_string_end(b, i);
                    continue;
                }
                b'[' if self.depth == 0 && !self.json_array => {
                    self.json_array = true;
                    drop_at.push(i);
                }
                b']' if self.depth == 0 && self.json_array => {
                    self.json_array = false;
                    drop_at.push(i);
                }
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => self.depth -= 1,
                _ => {}
            }
            i += 1;
        }
        for at in drop_at {
            line.replace_range(at..at + 1, " ");
        }
        line
    }

    /// Track the `<c>` depth of XML outside comments, CDATA sections and
    /// `<?…?>` (a `<c>` in them is text). Text holds no raw `<`.
    fn count_xml(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if let Some(end) = self.xml_in {
                match memchr::memmem::find(&b[i..], end) {
                    Some(e) => {
                        i += e + end.len();
                        self.xml_in = None;
                    }
                    None => return,
                }
                continue;
            }
            let Some(lt) = memchr::memchr(b'<', &b[i..]) else {
                return;
            };
            i += lt;
            let rest = &b[i..];
            let after = |n: usize| rest.get(n).copied().unwrap_or(b' ');
            if rest.starts_with(b"<!--") {
                self.xml_in = Some(b"-->");
            } else if rest.starts_with(b"<![CDATA[") {
                self.xml_in = Some(b"]]>");
            } else if rest.starts_with(b"<?") {
                self.xml_in = Some(b"?>");
            } else if rest.starts_with(b"</c")
                && (after(3) == b'>' || after(3).is_ascii_whitespace())
            {
                self.depth = (self.depth - 1).max(0);
            } else if rest.starts_with(b"<c")
                && (after(2) == b'>' || after(2) == b'/' || after(2).is_ascii_whitespace())
            {
                self.xml_opened = true;
                let gt = memchr::memchr(b'>', rest);
                if !gt.is_some_and(|g| g > 0 && rest[g - 1] == b'/') {
                    self.depth += 1;
                }
            }
            i += 2;
        }
    }

    /// A finished new-syntax record, without the `{ , }` of the list form
    /// around it.
    fn flush_new(&mut self) {
        let start = scan::skip_trivia(&self.record, 0, b",;{}");
        if start >= self.record.len() {
            // Only the list's closing `}` and separators.
            self.record.clear();
            return;
        }
        if !self.record[start..].starts_with('[') {
            // A bare ad body or stray text: read as it stands.
            self.flush(InputFormat::New);
            return;
        }
        let lead_lines = self.record[..start].matches('\n').count() as u32;
        let end = self
            .record
            .trim_end()
            .trim_end_matches(['}', ',', ';', ' ', '\t', '\r', '\n'])
            .len();
        let end = end.max(start);
        self.record = self.record[start..end].to_string();
        self.record_line += lead_lines;
        self.flush(InputFormat::New);
    }

    /// Track `[ ( {` depth outside strings, quoted names and comments.
    fn count_brackets(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if self.in_comment {
                if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    self.in_comment = false;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            match b[i] {
                b'[' | b'(' => self.depth += 1,
                b']' | b')' => self.depth -= 1,
                b'"' | b'\'' => {
                    let q = b[i];
                    i += 1;
                    while i < b.len() && b[i] != q {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'/') => return,
                b'#' if line[..i].trim().is_empty() => return,
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    self.in_comment = true;
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// Whether `line` opens an ad, where reading resumes after a record that
/// was given up (the long format: the blank line that ends an ad).
fn opens_ad(format: InputFormat, line: &str) -> bool {
    let t = line.trim_start();
    match format {
        InputFormat::Json => t.starts_with('{'),
        InputFormat::Xml => t.starts_with("<c>") || t.starts_with("<c "),
        InputFormat::New => t.starts_with('['),
        InputFormat::Old | InputFormat::Auto => t.is_empty(),
    }
}

/// Read one line (with its `\n`) onto `buf`, keeping at most `max` bytes
/// of it: the rest of a longer line is read and dropped (but for its
/// first [`HEAD_BYTES`], which tell a format), so memory stays bounded.
/// Returns the whole line's length (0 at the end of the input).
fn read_bounded_line<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<usize> {
    let mut len = 0;
    loop {
        let have = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if have.is_empty() {
            return Ok(len);
        }
        let (take, done) = match memchr::memchr(b'\n', have) {
            Some(i) => (i + 1, true),
            None => (have.len(), false),
        };
        if len + take <= max {
            buf.extend_from_slice(&have[..take]);
        } else if len <= max {
            // Passing the bound: what was kept is no use either.
            buf.truncate(HEAD_BYTES);
            buf.shrink_to_fit();
        }
        len += take;
        reader.consume(take);
        if done {
            return Ok(len);
        }
    }
}

/// What is kept of a line too long to read.
const HEAD_BYTES: usize = 4096;

/// Leading spaces and tabs.
fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

impl<R: BufRead> Iterator for AdStream<R> {
    type Item = Streamed;

    fn next(&mut self) -> Option<Streamed> {
        loop {
            if let Some(s) = self.ready.pop_front() {
                return Some(s);
            }
            if self.done {
                return None;
            }
            if !self.read_line() {
                self.done = true;
                self.note_bad_units();
                if self.format.is_none() {
                    let text: String = self.undecided.iter().map(|(_, l)| l.as_str()).collect();
                    self.settle(detect(&text));
                }
                let f = self.format.unwrap_or(InputFormat::Old);
                if f == InputFormat::New && !self.record.trim().is_empty() {
                    self.flush_new();
                } else {
                    self.flush(f);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::read_pool;

    fn read(text: &str) -> (Vec<String>, Vec<(u32, String)>) {
        let mut ads = vec![];
        let mut problems = vec![];
        for s in AdStream::new(text.as_bytes(), Dialect::Auto) {
            match s {
                Streamed::Ad(a) => ads.push(a.label),
                Streamed::Problem(d) => problems.push((d.line, d.message)),
            }
        }
        (ads, problems)
    }

    #[test]
    fn old_format_records_end_at_blank_and_banner_lines() {
        let text =
            "Name = \"a\"\nMemory = 1\n\nName = \"b\"\n*** banner\nName = \"c\"\nMemory = \n";
        let (ads, problems) = read(text);
        assert_eq!(ads, ["a", "b", "c"]);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 7, "the file's line: {problems:?}");
    }

    #[test]
    fn new_syntax_records_end_where_their_brackets_close() {
        let text = "// a pool\n[ Name = \"a\";\n  S = \"]\" ]\n[ Name = \"b\"; L = { [x = 1] } ]\n[ Name = \"c\"; Bad = ]\n";
        let (ads, problems) = read(text);
        assert_eq!(ads, ["a", "b"]);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 5, "{problems:?}");
    }

    #[test]
    fn the_list_form_streams_too() {
        let (ads, problems) = read("{\n  [ Name = \"a\" ],\n  [ Name = \"b\" ]\n}\n");
        assert_eq!(
            (ads, problems),
            (vec!["a".to_string(), "b".to_string()], vec![])
        );
    }

    #[test]
    fn xml_records_end_at_top_level_close_tags() {
        let text = "<?xml version=\"1.0\"?>\n<classads>\n<c>\n    <a n=\"Name\"><s>a</s></a>\n    <a n=\"R\"><c>\n        <a n=\"x\"><i>1</i></a>\n    </c></a>\n</c>\n<!-- <c> -->\n<c>\n    <a n=\"Name\"><s>b</s></a>\n    <a n=\"Bad\"><i>x</i></a>\n</c>\n<c/>\n</classads>\n";
        let (ads, problems) = read(text);
        assert_eq!(ads, ["a", "b", "ad 3"]);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 12, "the file's line: {problems:?}");
    }

    #[test]
    fn json_streams_object_by_object() {
        let (ads, problems) = read("[\n{\"Name\": \"a\"},\n{\"Name\": \"b\",\n \"L\": [1, {\"x\": \"]\"}]},\n{\"Name\": nope},\n{\"Name\": \"c\"}\n]\n");
        assert_eq!(ads, ["a", "b", "c"]);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 5, "the file's line: {problems:?}");
        let (ads, problems) = read("{\"Name\": \"a\"}\n{\"Name\": \"b\"}\n");
        assert_eq!(
            (ads, problems.len()),
            (vec!["a".to_string(), "b".to_string()], 0)
        );
        let (ads, _) = read("[{\"Name\": \"a\"}, {\"Name\": \"b\"}]\n");
        assert_eq!(ads, ["a", "b"]);
    }

    #[test]
    fn an_ad_never_closed_is_given_up_at_the_bound_and_reading_resumes() {
        for (open, next) in [
            ("[ Name = \"x\";\n", "[ Name = \"b\" ]\n"),
            ("{\"Name\": \"x\",\n", "{\"Name\": \"b\"}\n"),
        ] {
            let mut text = String::from(open);
            let filler = format!("  Pad = \"{}\";\n", "p".repeat(1000));
            let filler = if open.starts_with('{') {
                filler
                    .replace(" = ", "\": ")
                    .replace("  Pad", "  \"Pad")
                    .replace(";", ",")
            } else {
                filler
            };
            while text.len() < MAX_RECORD_BYTES + 4096 {
                text.push_str(&filler);
            }
            text.push_str(next);
            let (ads, problems) = read(&text);
            assert_eq!(ads, ["b"], "{open}");
            assert!(
                problems[0].1.contains("not closed within 16 MB"),
                "{problems:?}"
            );
            assert_eq!(problems[0].0, 1);
        }
    }

    #[test]
    fn a_stream_gives_what_a_whole_read_gives() {
        for text in [
            include_str!("../../../tests/corpora/condor_status_l.txt"),
            include_str!("../../../tests/corpora/condor_q_l.txt"),
            include_str!("../../../tests/corpora/condor_status.json"),
            include_str!("../../../tests/corpora/condor_status.xml"),
            include_str!("../../../tests/seeds/000_fig02.classad"),
        ] {
            let whole: Vec<String> = read_pool(text, InputFormat::Auto, Dialect::Auto)
                .ads
                .into_iter()
                .map(|a| crate::lang::unparse::unparse_ad(&a.ad))
                .collect();
            let streamed: Vec<String> = AdStream::new(text.as_bytes(), Dialect::Auto)
                .filter_map(|s| match s {
                    Streamed::Ad(a) => Some(crate::lang::unparse::unparse_ad(&a.ad)),
                    Streamed::Problem(_) => None,
                })
                .collect();
            assert_eq!(whole.len(), streamed.len());
            assert!(whole == streamed);
        }
    }

    /// The long format a buffer of whole lines at a time: whatever the
    /// buffer's size cuts, the ads, their labels and the problems (with
    /// their lines) are the line-at-a-time reading's.
    #[test]
    fn long_format_buffers_cut_anywhere_read_alike() {
        let text: &[u8] = b"\
-- Schedd: a@b : <1.2.3.4:9618>
MyType = \"Machine\"
Name = \"slot1@a\"
Memory = 2048

   \t
Name = \"slot2@a\"
# a comment
Bad line here
Cpus = 4\r
*** ad banner
Name = \"slot3@a\"
Start = (KeyboardIdle >
   15)
/* a comment
   over lines */
Memory = 8\xc3\xa9
Name2 = \"caf\xe9\"
Last = \"x\"";
        let run = |cap: usize| {
            let reader = std::io::BufReader::with_capacity(cap, text);
            AdStream::new(reader, Dialect::Auto)
                .map(|s| match s {
                    Streamed::Ad(a) => format!(
                        "{} {} {:?}",
                        a.label,
                        crate::lang::unparse::unparse_ad(&a.ad),
                        a.span
                    ),
                    Streamed::Problem(d) => format!("{}:{} {}", d.line, d.column, d.message),
                })
                .collect::<Vec<_>>()
        };
        let whole = run(1 << 20);
        assert_eq!(
            whole.iter().filter(|l| l.starts_with("slot")).count(),
            3,
            "{whole:#?}"
        );
        for cap in [1, 2, 3, 7, 16, 31, 64, 100] {
            assert_eq!(run(cap), whole, "buffer of {cap} bytes");
        }
    }
}
