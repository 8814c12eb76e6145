//! A submit file's logical lines, as condor_submit's `getline` reads them
//! (`config.cpp`, `getline_implementation` with the submit options
//! `COMMENT_DOESNT_CONTINUE | CONTINUE_MAY_BE_COMMENTED_OUT`): each line is
//! trimmed of whitespace at both ends; a line ending in `\` continues on the
//! next one (the `\` dropped, nothing put in its place); a comment line
//! (`#` first) does not continue even if it ends in `\`; a comment line
//! inside a continuation is whitespace but for its last character (so its
//! own `\` continues the value).

/// One logical line: its text and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// The line number (1-based) of its first physical line.
    pub number: u32,
    /// Byte offset of the logical line's first character in the file.
    pub offset: usize,
}

/// Read `text` into logical lines (blank lines and comments included: the
/// statement reader skips them, and the multi-line `queue … (` item lists
/// read them).
pub fn logical_lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    // Physical lines with their starting offsets and numbers.
    let mut physical = Vec::new();
    let mut at = 0usize;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        physical.push((i as u32 + 1, at, raw));
        at += raw.len();
    }
    let mut i = 0;
    while i < physical.len() {
        let (number, start, raw) = physical[i];
        let mut buf = String::new();
        let mut first = true;
        let mut offset = start;
        loop {
            let (_, phys_start, phys) = physical[i];
            let trimmed_end = phys.trim_end();
            let lead = trimmed_end.len() - trimmed_end.trim_start().len();
            let mut piece = trimmed_end.trim_start();
            if first {
                offset = phys_start + lead;
            }
            let in_comment = piece.starts_with('#');
            if in_comment && !first {
                // A comment inside a continuation counts as whitespace up
                // to its last character, which stays (condor_submit keeps
                // it: a `\` there continues, anything else ends the value).
                let last = piece.char_indices().last().map_or(0, |(i, _)| i);
                piece = &piece[last..];
            }
            i += 1;
            if let Some(body) = piece.strip_suffix('\\') {
                buf.push_str(body);
                // A comment line does not continue (the `\` is dropped).
                if !(in_comment && first) && i < physical.len() {
                    first = false;
                    continue;
                }
                break;
            }
            buf.push_str(piece);
            break;
        }
        let _ = raw;
        out.push(Line {
            text: buf,
            number,
            offset,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<(String, u32)> {
        logical_lines(t)
            .into_iter()
            .map(|l| (l.text, l.number))
            .collect()
    }

    #[test]
    fn continuations_and_comments_read_as_condor_submit_reads_them() {
        assert_eq!(
            texts("  a = 1  \nb = x \\\n   y\nc = 3"),
            [
                ("a = 1".into(), 1),
                ("b = x y".into(), 2),
                ("c = 3".into(), 4)
            ]
        );
        // A comment line ending in `\` does not continue.
        assert_eq!(
            texts("# note \\\na = 1\n"),
            [("# note ".into(), 1), ("a = 1".into(), 2)]
        );
        // A comment inside a continuation is dropped and the value goes on
        // only if that comment line itself ends in `\`.
        assert_eq!(
            texts("a = 1 \\\n# x\nb = 2\n"),
            [("a = 1 x".into(), 1), ("b = 2".into(), 3)]
        );
        assert_eq!(texts("a = 1 \\\n# x \\\n2\n"), [("a = 1 2".into(), 1)]);
        // `\` on the last line: nothing follows.
        assert_eq!(texts("a = b\\"), [("a = b".into(), 1)]);
        // CRLF line ends.
        assert_eq!(
            texts("a = 1\r\nb = 2\r\n"),
            [("a = 1".into(), 1), ("b = 2".into(), 2)]
        );
    }
}
