//! The markup of HTCondor's XML ClassAd format, cut into tags and text.
//!
//! The dialect is small (no namespaces, no entities beyond XML's five and
//! numeric ones, no DTD processing), so a hand-written scanner is enough.
//! Like libclassad's `XMLLexer`, a tag runs from `<` to the next `>`, and
//! an attribute value may hold `\"` (libclassad writes a `"` in a name that
//! way). Unlike it, comments, `<?…?>` instructions, `<!DOCTYPE …>` and
//! CDATA sections are understood rather than mistaken for tags.
//!
//! Every call to [`Lexer::next`] moves forward, errors included, so a
//! reader driving it always ends; nothing here panics on arbitrary text
//! (it only slices at ASCII bytes).

use crate::formats::scan;
use crate::lang::ast::Span;
use crate::lang::diagnostic::Diagnostic;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TagKind {
    /// `<x>`
    Start,
    /// `</x>`
    End,
    /// `<x/>`
    Empty,
}

#[derive(Clone, Debug)]
pub(super) struct Tag<'a> {
    pub name: &'a str,
    pub kind: TagKind,
    pub attrs: Vec<Attr<'a>>,
    /// From `<` through `>`.
    pub span: Span,
}

/// `name="value"` in a tag: the value as written (entities and escapes not
/// yet decoded) and its offset.
#[derive(Clone, Debug)]
pub(super) struct Attr<'a> {
    pub name: &'a str,
    pub raw: &'a str,
    pub at: usize,
}

impl<'a> Tag<'a> {
    pub fn attr(&self, name: &str) -> Option<&Attr<'a>> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// How messages show the tag: `<a>`, `</a>`, `<b/>`.
    pub fn shown(&self) -> String {
        let name = scan::shorten(self.name, 20);
        match self.kind {
            TagKind::Start => format!("<{name}>"),
            TagKind::End => format!("</{name}>"),
            TagKind::Empty => format!("<{name}/>"),
        }
    }

    pub fn is(&self, name: &str, kind: TagKind) -> bool {
        self.name == name && self.kind == kind
    }
}

#[derive(Clone, Debug)]
pub(super) enum Token<'a> {
    Tag(Tag<'a>),
    /// Character data as written, starting at `at`; a CDATA section's
    /// content is `cdata` (no entities in it).
    Text {
        raw: &'a str,
        at: usize,
        cdata: bool,
    },
}

impl Token<'_> {
    pub fn start(&self) -> usize {
        match self {
            Token::Tag(t) => t.span.start as usize,
            Token::Text { at, .. } => *at,
        }
    }
}

pub(super) struct Lexer<'a> {
    text: &'a str,
    b: &'a [u8],
    pub pos: usize,
    /// For `-->` and `?>`: the earliest offset from which a search for it
    /// failed (so unclosed comments do not each rescan the rest).
    missing: [usize; 2],
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Lexer<'a> {
        let pos = if text.starts_with(scan::BOM) {
            scan::BOM.len()
        } else {
            0
        };
        Lexer {
            text,
            b: text.as_bytes(),
            pos,
            missing: [usize::MAX; 2],
        }
    }

    /// The next tag or run of text, skipping comments, `<?…?>` and
    /// `<!DOCTYPE …>`; `None` at the end.
    pub fn next(&mut self) -> Option<Result<Token<'a>, Diagnostic>> {
        loop {
            let start = self.pos;
            if start >= self.b.len() {
                return None;
            }
            if self.b[start] != b'<' {
                let end =
                    memchr::memchr(b'<', &self.b[start..]).map_or(self.b.len(), |i| start + i);
                self.pos = end;
                return Some(Ok(Token::Text {
                    raw: &self.text[start..end],
                    at: start,
                    cdata: false,
                }));
            }
            let rest = &self.b[start..];
            if rest.starts_with(b"<!--") {
                if let Err(d) = self.skip_to(start, 4, 0, "comment") {
                    return Some(Err(d));
                }
            } else if rest.starts_with(b"<![CDATA[") {
                let body = start + 9;
                return Some(match find(self.b, body, b"]]>") {
                    Some(e) => {
                        self.pos = e + 3;
                        Ok(Token::Text {
                            raw: &self.text[body..e],
                            at: body,
                            cdata: true,
                        })
                    }
                    None => {
                        self.pos = self.b.len();
                        Err(Diagnostic::new(
                            Span::new(start, body),
                            "this CDATA section is never closed",
                        )
                        .expected("`]]>`"))
                    }
                });
            } else if rest.starts_with(b"<?") {
                if let Err(d) = self.skip_to(start, 2, 1, "`<?…?>` instruction") {
                    return Some(Err(d));
                }
            } else if rest.starts_with(b"<!DOCTYPE") {
                if let Err(d) = self.skip_doctype(start) {
                    return Some(Err(d));
                }
            } else {
                return Some(self.tag(start));
            }
        }
    }

    /// Skip a construct opened at `start` (`open` bytes long) to just past
    /// its close (`-->` or `?>`, by index). Unclosed: report it and resume
    /// after the next `>`.
    fn skip_to(
        &mut self,
        start: usize,
        open: usize,
        which: usize,
        what: &str,
    ) -> Result<(), Diagnostic> {
        let close: &[u8] = [&b"-->"[..], &b"?>"[..]][which];
        let from = start + open;
        let found = if from >= self.missing[which] {
            None
        } else {
            find(self.b, from, close)
        };
        match found {
            Some(e) => {
                self.pos = e + close.len();
                Ok(())
            }
            None => {
                self.missing[which] = self.missing[which].min(from);
                self.pos =
                    memchr::memchr(b'>', &self.b[start..]).map_or(self.b.len(), |i| start + i + 1);
                Err(Diagnostic::new(
                    Span::new(start, start + open),
                    format!("this {what} is never closed"),
                )
                .expected(format!("`{}`", String::from_utf8_lossy(close))))
            }
        }
    }

    /// `<!DOCTYPE …>`, with an internal subset `[ … ]` if there is one.
    /// Skip `<!DOCTYPE …>` with its internal subset `[ … ]`. One never
    /// closed is reported, and reading resumes at the first tag after it
    /// that cannot belong to it (a `<` opening anything but a declaration,
    /// comment or instruction), so it never swallows the ads that follow.
    fn skip_doctype(&mut self, start: usize) -> Result<(), Diagnostic> {
        let b = self.b;
        let mut i = start + 9;
        let mut in_subset = false;
        while i < b.len() {
            match b[i] {
                b'"' | b'\'' => {
                    // A quoted system id or entity value: up to its quote,
                    // unless a tag starts first (the quote is missing).
                    let q = b[i];
                    let mut j = i + 1;
                    while j < b.len() && b[j] != q && !opens_tag(b, j) {
                        j += 1;
                    }
                    if j >= b.len() || b[j] != q {
                        return self.unclosed_doctype(start, j);
                    }
                    i = j;
                }
                b'[' => in_subset = true,
                b']' => in_subset = false,
                b'>' if !in_subset => {
                    self.pos = i + 1;
                    return Ok(());
                }
                b'<' if !in_subset || opens_tag(b, i) => return self.unclosed_doctype(start, i),
                _ => {}
            }
            i += 1;
        }
        self.unclosed_doctype(start, b.len())
    }

    fn unclosed_doctype(&mut self, start: usize, resume: usize) -> Result<(), Diagnostic> {
        self.pos = resume;
        let (what, expected) = if self.b[start..resume].contains(&b'[') {
            (
                "the internal subset `[` of this `<!DOCTYPE` is never closed",
                "`]>`",
            )
        } else {
            ("this `<!DOCTYPE` is never closed", "`>`")
        };
        let resumes = if resume < self.b.len() {
            format!(
                "reading resumes at `{}`",
                scan::excerpt(self.text, resume, 12)
            )
        } else {
            "nothing after it is read".to_string()
        };
        Err(Diagnostic::new(
            Span::new(start, start + 9),
            format!(
                "{what}: its {} bytes were skipped, and {resumes}",
                resume - start
            ),
        )
        .expected(expected))
    }

    /// A tag at `start`: up to the next `>`. A `<` before it means this
    /// one was never closed; reading goes on from that `<`.
    fn tag(&mut self, start: usize) -> Result<Token<'a>, Diagnostic> {
        let b = self.b;
        let end = b[start + 1..]
            .iter()
            .position(|&c| c == b'>' || c == b'<')
            .map(|i| start + 1 + i);
        let end = match end {
            Some(e) if b[e] == b'>' => e,
            stop => {
                let stop = stop.unwrap_or(b.len());
                self.pos = stop;
                let shown = self.text[start..stop]
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_end();
                return Err(Diagnostic::new(
                    Span::new(start, start + 1),
                    format!(
                        "`{}` opens a tag that is never closed",
                        scan::shorten(shown, 20)
                    ),
                )
                .expected("`>`")
                .help("a `<` in text is written `&lt;`"));
            }
        };
        self.pos = end + 1;
        let span = Span::new(start, end + 1);
        let mut i = start + 1;
        let mut last = end;
        let kind = if b.get(i) == Some(&b'/') {
            i += 1;
            TagKind::End
        } else if end > i && b[end - 1] == b'/' {
            last = end - 1;
            TagKind::Empty
        } else {
            TagKind::Start
        };
        let name_end = i + b[i..last]
            .iter()
            .take_while(|c| !c.is_ascii_whitespace() && **c != b'/')
            .count();
        let name = &self.text[i..name_end];
        if name.is_empty() || !name.bytes().all(is_name_byte) {
            return Err(Diagnostic::new(
                Span::new(start, (name_end + 1).max(start + 1)),
                format!(
                    "`{}` is not a tag",
                    scan::shorten(&self.text[start..end + 1], 30)
                ),
            )
            .expected("a tag name after `<`")
            .help("a `<` in text is written `&lt;`"));
        }
        let attrs = self.attributes(name_end, last, name, span)?;
        Ok(Token::Tag(Tag {
            name,
            kind,
            attrs,
            span,
        }))
    }

    /// `name="value"` pairs between `from` and `to` (the tag's `>` or `/>`).
    fn attributes(
        &self,
        from: usize,
        to: usize,
        tag: &str,
        span: Span,
    ) -> Result<Vec<Attr<'a>>, Diagnostic> {
        let b = self.b;
        let mut out = Vec::new();
        let mut i = from;
        let skip_ws = |i: &mut usize| {
            while *i < to && b[*i].is_ascii_whitespace() {
                *i += 1;
            }
        };
        loop {
            skip_ws(&mut i);
            if i >= to {
                return Ok(out);
            }
            let n0 = i;
            while i < to && is_name_byte(b[i]) {
                i += 1;
            }
            let name = &self.text[n0..i];
            skip_ws(&mut i);
            let bad = |at: usize, what: &str| {
                Diagnostic::new(
                    Span::new(at, (at + 1).min(span.end as usize)),
                    format!(
                        "bad attribute in the tag `<{}`: {what}",
                        scan::shorten(tag, 20)
                    ),
                )
                .expected("name=\"value\"")
            };
            if name.is_empty() {
                return Err(bad(
                    n0,
                    &format!("unexpected `{}`", scan::excerpt(self.text, n0, 10)),
                ));
            }
            if i >= to || b[i] != b'=' {
                return Err(bad(i, &format!("`{name}` has no `=`")));
            }
            i += 1;
            skip_ws(&mut i);
            let q = b
                .get(i)
                .copied()
                .filter(|&c| i < to && (c == b'"' || c == b'\''));
            let Some(q) = q else {
                return Err(bad(i, &format!("the value of `{name}` is not quoted")));
            };
            let v0 = i + 1;
            i = v0;
            // A backslash escapes the quote, as libclassad writes names.
            while i < to && b[i] != q {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            if i >= to {
                return Err(bad(
                    v0 - 1,
                    &format!("the value of `{name}` has no closing quote"),
                ));
            }
            out.push(Attr {
                name,
                raw: &self.text[v0..i],
                at: v0,
            });
            i += 1;
        }
    }
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':' | b'!' | b'?') || c >= 0x80
}

/// Does a tag that no document type declaration holds open at `i` (a
/// `<` then a name or `/`)?
fn opens_tag(b: &[u8], i: usize) -> bool {
    b[i] == b'<'
        && b.get(i + 1)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'/')
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    memchr::memmem::find(&b[from..], pat).map(|i| from + i)
}

/// Decoded text and, for mapping offsets in it back to the source, the
/// source offset of each piece (sorted by decoded offset).
#[derive(Default, Debug)]
pub(super) struct Decoded {
    pub text: String,
    map: Vec<(usize, usize)>,
}

impl Decoded {
    /// The source offset of decoded offset `d`.
    pub fn source(&self, d: usize) -> usize {
        let i = self.map.partition_point(|&(dec, _)| dec <= d);
        match i.checked_sub(1).and_then(|i| self.map.get(i)) {
            Some(&(dec, src)) => src + (d - dec),
            None => d,
        }
    }

    fn mark(&mut self, src: usize) {
        self.map.push((self.text.len(), src));
    }

    /// Append `raw` (at `at` in the source), replacing entity references.
    /// A `&` that starts no reference, or one to an unknown entity, is kept
    /// as written (as libclassad keeps it) and reported.
    pub fn push(&mut self, raw: &str, at: usize, cdata: bool, diags: &mut Vec<Diagnostic>) {
        self.mark(at);
        if cdata {
            self.text.push_str(raw);
            return;
        }
        let b = raw.as_bytes();
        let mut last = 0;
        for amp in memchr::memchr_iter(b'&', b) {
            if amp < last {
                continue;
            }
            self.text.push_str(&raw[last..amp]);
            // The reference runs to `;`, which must come before a blank,
            // another `&` or the end.
            let semi = b[amp + 1..]
                .iter()
                .take(32)
                .position(|&c| c == b';' || c == b'&' || c.is_ascii_whitespace())
                .map(|i| amp + 1 + i)
                .filter(|&i| b[i] == b';');
            let ch = semi.and_then(|s| entity(&raw[amp + 1..s]));
            match (semi, ch) {
                (Some(s), Some(c)) => {
                    self.text.push(c);
                    last = s + 1;
                    self.mark(at + last);
                }
                (semi, _) => {
                    let span = Span::new(at + amp, at + semi.map_or(amp + 1, |s| s + 1));
                    let d = match semi {
                        Some(s) => Diagnostic::new(
                            span,
                            format!("unknown entity `{}`", scan::shorten(&raw[amp..=s], 30)),
                        )
                        .help("XML knows &amp; &lt; &gt; &quot; &apos; and &#N; / &#xN;; it is kept as written, as HTCondor keeps it"),
                        None => Diagnostic::new(span, "a `&` that starts no entity")
                            .expected("`&amp;` for a `&` in text")
                            .help("it is kept as written, as HTCondor keeps it"),
                    };
                    diags.push(d.warning());
                    self.text.push('&');
                    last = amp + 1;
                }
            }
        }
        self.text.push_str(&raw[last..]);
    }
}

/// The character an entity reference (between `&` and `;`) stands for.
fn entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let n = name.strip_prefix('#')?;
            let v = match n.strip_prefix(['x', 'X']) {
                Some(h) if !h.is_empty() && h.len() <= 8 => u32::from_str_radix(h, 16).ok()?,
                Some(_) => return None,
                None if !n.is_empty() && n.len() <= 10 && n.bytes().all(|c| c.is_ascii_digit()) => {
                    n.parse().ok()?
                }
                None => return None,
            };
            // NUL cannot be in a ClassAd string; surrogates are no characters.
            char::from_u32(v).filter(|&c| c != '\0')?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        let mut lx = Lexer::new(text);
        let mut out = vec![];
        while let Some(t) = lx.next() {
            out.push(match t {
                Ok(Token::Tag(t)) => {
                    let attrs: Vec<String> = t
                        .attrs
                        .iter()
                        .map(|a| format!(" {}={}", a.name, a.raw))
                        .collect();
                    format!("{}{}", t.shown(), attrs.concat())
                }
                Ok(Token::Text { raw, cdata, .. }) => {
                    format!("{}{raw:?}", if cdata { "cdata" } else { "text" })
                }
                Err(d) => format!("error {}", d.message),
            });
        }
        out
    }

    #[test]
    fn tags_text_and_skipped_markup() {
        assert_eq!(
            tokens("<?xml version=\"1.0\"?>\n<!DOCTYPE classads SYSTEM \"classads.dtd\">\n<!-- c --><c ><a  n = 'x\\'y' ><b v=\"t\"/></a></c>"),
            [
                "text\"\\n\"",
                "text\"\\n\"",
                "<c>",
                "<a> n=x\\'y",
                "<b/> v=t",
                "</a>",
                "</c>"
            ]
        );
        assert_eq!(
            tokens("<s><![CDATA[a<b]]></s>"),
            ["<s>", "cdata\"a<b\"", "</s>"]
        );
        assert_eq!(tokens("<!DOCTYPE x [ <!ENTITY a \"b\"> ]><c/>"), ["<c/>"]);
    }

    #[test]
    fn errors_move_on() {
        assert_eq!(
            tokens("<a n=\"x\"<i>1</i>")[0],
            "error `<a n=\"x\"` opens a tag that is never closed"
        );
        assert_eq!(tokens("<a n=\"x\"<i>1</i>")[1], "<i>");
        assert_eq!(tokens("<!-- x").len(), 1);
        assert_eq!(tokens("< c>"), ["error `< c>` is not a tag"]);
        assert!(tokens("<a n=x>")[0].starts_with("error bad attribute"));
        assert!(tokens("<a n=\"x>")[0].starts_with("error bad attribute"));
        for junk in [
            "<",
            "<<<",
            "</",
            "<!",
            "<?",
            "<![CDATA[",
            "<a b",
            "<a\u{e9}>",
            "&#x;<",
        ] {
            let _ = tokens(junk);
        }
    }

    #[test]
    fn entities_decode_and_map_back() {
        let mut d = Decoded::default();
        let mut diags = vec![];
        let raw = "a &lt; b &amp;&amp; &#65;&#x42;&quot;&apos; &nbsp; & x";
        d.push(raw, 10, false, &mut diags);
        assert_eq!(d.text, "a < b && AB\"' &nbsp; & x");
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(diags.iter().all(|d| !d.is_error()));
        // `b` is at decoded 4 and source 10 + 7.
        assert_eq!(d.source(4), 17);
        assert_eq!(
            d.source(d.text.find("x").unwrap()),
            10 + raw.find(" x").unwrap() + 1
        );
        for bad in ["&#0;", "&#xD800;", "&#99999999999;", "&#x;", "&;"] {
            let mut d = Decoded::default();
            let mut diags = vec![];
            d.push(bad, 0, false, &mut diags);
            assert_eq!(d.text, bad);
            assert_eq!(diags.len(), 1, "{bad}");
        }
    }
}
