//! Highlighting a whole pool the way its reader splits it: each new-syntax
//! record is lexed on its own (so an unclosed quote in one ad never turns
//! the next ads into one long string), and the line-based formats (old
//! long format, JSON) are lexed line by line, as their strings cannot span
//! lines; XML is left plain. The token classes are the lexer's.

use super::scan::{self, Extent};
use super::{detect, InputFormat};
use crate::lang::lexer::{highlight, Dialect, Highlight};

/// Highlight spans over `text`, a pool in any format.
pub fn highlight_pool(text: &str, dialect: Dialect) -> Vec<Highlight> {
    let mut out = Vec::new();
    match detect(text) {
        InputFormat::Old | InputFormat::Json => {
            let mut start = 0;
            for line in text.split_inclusive('\n') {
                lex_into(&mut out, text, start, start + line.len(), dialect);
                start += line.len();
            }
        }
        InputFormat::New | InputFormat::Auto => new_records(&mut out, text, dialect),
        // Markup is not ClassAd syntax, and `<e>` bodies are entity-escaped:
        // XML is shown plain.
        InputFormat::Xml => {}
    }
    out
}

/// The new syntax: records found by [`scan::record_extent`], the text
/// between them (comments, separators, a bare ad body) lexed as it stands.
fn new_records(out: &mut Vec<Highlight>, text: &str, dialect: Dialect) {
    let b = text.as_bytes();
    let mut pos = 0;
    while pos < b.len() {
        let at = scan::skip_trivia(text, pos, b",;{}");
        if at >= b.len() || b[at] != b'[' {
            // A bare body or text that is not an ad: the rest as it stands,
            // as far as the next line that opens a record.
            let end = if at >= b.len() {
                b.len()
            } else {
                scan::next_line_opening(text, at + 1, b'[', usize::MAX).unwrap_or(b.len())
            };
            lex_into(out, text, pos, end, dialect);
            pos = end;
            continue;
        }
        lex_into(out, text, pos, at, dialect);
        let indent = scan::line_indentation(b, at);
        let end = match scan::record_extent(text, at, indent) {
            Extent::Closed(e) | Extent::Open(e) => e.max(at + 1),
        };
        lex_into(out, text, at, end, dialect);
        pos = end;
    }
}

/// Lex `text[start..end]` and append its spans, shifted to `text`.
fn lex_into(out: &mut Vec<Highlight>, text: &str, start: usize, end: usize, dialect: Dialect) {
    if start >= end {
        return;
    }
    let Some(slice) = text.get(start..end) else {
        return;
    };
    out.extend(highlight(slice, dialect).into_iter().map(|h| Highlight {
        start: h.start + start as u32,
        end: h.end + start as u32,
        class: h.class,
    }));
}

#[cfg(test)]
mod tests {
    use super::highlight_pool;
    use crate::lang::lexer::{Dialect, TokenClass};

    fn classes<'a>(src: &'a str, from: &str) -> Vec<(TokenClass, &'a str)> {
        let at = src.find(from).unwrap();
        highlight_pool(src, Dialect::default())
            .into_iter()
            .filter(|t| t.start as usize >= at)
            .map(|t| (t.class, &src[t.start as usize..t.end as usize]))
            .collect()
    }

    #[test]
    fn an_unclosed_quote_stays_in_its_own_record() {
        let src = "[ A = \"abc ]\n[ B = 1; C = \"x\" ]\n";
        let next = classes(src, "[ B");
        assert!(next.contains(&(TokenClass::Name, "B")), "{next:?}");
        assert!(next.contains(&(TokenClass::String, "\"x\"")), "{next:?}");
    }

    #[test]
    fn old_format_lines_are_lexed_one_by_one() {
        let src = "A = \"abc\nB = \"x\"\n\nC = 1\n";
        let next = classes(src, "B =");
        assert_eq!(next[0], (TokenClass::Name, "B"));
        assert!(next.contains(&(TokenClass::String, "\"x\"")), "{next:?}");
    }

    #[test]
    fn comments_and_list_brackets_between_records_are_kept() {
        let src = "// pool\n{ [ a = 1 ], [ b = 2 ] }\n";
        let all = classes(src, "//");
        assert_eq!(all[0], (TokenClass::Comment, "// pool"));
        assert!(all.contains(&(TokenClass::Name, "b")), "{all:?}");
    }

    #[test]
    fn arbitrary_text_never_panics_and_spans_stay_in_bounds() {
        for src in [
            "[",
            "[ \"",
            "{ [ a = 1 ]",
            "x = 1; [ y",
            "é[\"é\n[ é",
            "/* [ */ [ a ]",
        ] {
            for h in highlight_pool(src, Dialect::default()) {
                assert!(h.start <= h.end && h.end as usize <= src.len(), "{src:?}");
            }
        }
    }
}
