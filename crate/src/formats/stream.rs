//! Reading a pool one ad at a time, for pools too big to hold (a query
//! over a 10 GB `condor_status -l` dump): the text is cut into records as
//! it is read — at blank and banner lines in the old long format, where
//! the brackets close in the new syntax, at the line where a top-level
//! `</c>` closes an ad in XML — and each record is read by the same
//! readers as a whole pool. JSON, and a new-syntax text that is not a
//! sequence of `[ … ]` records, are read whole.

use std::collections::VecDeque;
use std::io::BufRead;

use super::{detect, label, read_pool, scan, InputFormat, PoolAd};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::Dialect;

/// What the stream gives: an ad, or a problem with the text (its line and
/// column are the file's).
#[derive(Debug)]
pub enum Streamed {
    Ad(PoolAd),
    Problem(Diagnostic),
}

/// Ads read from `R` as they come.
pub struct AdStream<R: BufRead> {
    reader: R,
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
    ready: VecDeque<Streamed>,
    ads: usize,
    done: bool,
    /// Lines read before the format was known (with their line numbers).
    undecided: Vec<(u32, String)>,
}

impl<R: BufRead> AdStream<R> {
    pub fn new(reader: R, dialect: Dialect) -> AdStream<R> {
        AdStream {
            reader,
            dialect,
            format: None,
            record: String::new(),
            record_line: 1,
            line: 0,
            depth: 0,
            in_comment: false,
            xml_in: None,
            xml_opened: false,
            ready: VecDeque::new(),
            ads: 0,
            done: false,
            undecided: Vec::new(),
        }
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
        let pool = read_pool(&text, format, self.dialect);
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
        self.undecided.push((self.line, line));
        let text: String = self.undecided.iter().map(|(_, l)| l.as_str()).collect();
        let p = scan::skip_trivia(&text, 0, b"");
        let Some(&first) = text.as_bytes().get(p) else {
            return;
        };
        let second = scan::skip_trivia(&text, p + 1, b"") < text.len();
        if matches!(first, b'[' | b'{') && !second && !self.done {
            return;
        }
        self.settle(detect(&text));
    }

    /// The format is known: take the lines held back.
    fn settle(&mut self, format: InputFormat) {
        self.format = Some(format);
        let now = self.line;
        for (n, l) in std::mem::take(&mut self.undecided) {
            self.line = n;
            self.take(l);
        }
        self.line = now;
    }

    /// Take one more line; `false` at the end of the input.
    fn read_line(&mut self) -> bool {
        let mut bytes = Vec::new();
        match self.reader.read_until(b'\n', &mut bytes) {
            Ok(0) => false,
            Ok(_) => {
                self.line += 1;
                let line = match String::from_utf8(bytes) {
                    Ok(line) => line,
                    Err(e) => {
                        // A Latin-1 name from a Windows host, say: keep the
                        // line (and every ad after it), say where.
                        let at = e.utf8_error().valid_up_to();
                        let line = String::from_utf8_lossy(e.as_bytes()).into_owned();
                        let col =
                            line.char_indices().take_while(|(i, _)| *i < at).count() as u32 + 1;
                        self.ready.push_back(Streamed::Problem(Diagnostic {
                            line: self.line,
                            column: col,
                            ..Diagnostic::new(
                                crate::lang::ast::Span::NONE,
                                "this line is not valid UTF-8 text: its invalid bytes read as U+FFFD",
                            )
                            .warning()
                        }));
                        line
                    }
                };
                self.take(line);
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

    fn take(&mut self, line: String) {
        let Some(format) = self.format else {
            return self.decide(line);
        };
        if self.record.is_empty() {
            if line.trim().is_empty() {
                return;
            }
            self.record_line = self.line;
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
            InputFormat::Json => self.record.push_str(&line),
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
    fn json_is_read_whole() {
        let (ads, _) = read("[\n{\"Name\": \"a\"},\n{\"Name\": \"b\"}\n]\n");
        assert_eq!(ads, ["a", "b"]);
    }

    #[test]
    fn a_stream_gives_what_a_whole_read_gives() {
        for text in [
            include_str!("../../../tests/corpora/condor_status_l.txt"),
            include_str!("../../../tests/corpora/condor_q_l.txt"),
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
}
