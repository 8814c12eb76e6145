//! PCRE emulation on top of fancy-regex: libclassad compiles patterns
//! with PCRE2 in non-UTF mode, so matching runs on bytes, and PCRE syntax
//! the Rust engine reads differently is rewritten first: one byte is one
//! character (`\X` and `\C` are any byte, `\p{L}` the Latin-1 letters:
//! see `properties`).
//!
//! Where it cannot follow PCRE2 (docs/language.md lists these): a pattern
//! that recurses or calls a group (`a(?R)?b`, `(?1)`, `(?&name)`) and a
//! branch reset `(?|…)` holding capturing groups are errors, where
//! libclassad matches them; a property inside a class is case-folded
//! under the `i` option (`[\p{Lu}]` matches `a`), where PCRE2's is not.

mod properties;

use std::cell::OnceCell;

use fancy_regex::{BytesMode, RegexBuilder, RegexInput};

/// PCRE compile options, from an option string's letters.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct ReOpts {
    pub caseless: bool,
    pub multiline: bool,
    pub dotall: bool,
    pub extended: bool,
}

impl ReOpts {
    /// libclassad looks for lower-case `i`, `m`, `s`, `x` only; HTCondor's
    /// stringList_regexpMember also accepts upper case. Other letters are
    /// ignored.
    pub(crate) fn parse(opts: &str, any_case: bool) -> ReOpts {
        let has = |c: char| opts.contains(c) || (any_case && opts.contains(c.to_ascii_uppercase()));
        ReOpts {
            caseless: has('i'),
            multiline: has('m'),
            dotall: has('s'),
            extended: has('x'),
        }
    }
}

/// Capture group spans of one match: index 0 is the whole match.
pub(crate) type Groups = Vec<Option<(usize, usize)>>;

/// A compiled PCRE-style pattern, matched against bytes.
#[derive(Clone)]
pub(crate) struct Pcre {
    re: fancy_regex::Regex,
    source: String,
    opts: ReOpts,
    mode: BytesMode,
    /// Built on demand: the same pattern refusing empty matches, for
    /// PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED retries.
    nonempty: OnceCell<Option<fancy_regex::Regex>>,
}

impl Pcre {
    /// Compile in byte mode (PCRE without UTF); patterns that need Unicode
    /// tables (`\p{L}`, a non-ASCII class) fall back to Unicode-aware byte
    /// matching. `None` when the pattern does not compile.
    pub(crate) fn new(pattern: &str, opts: ReOpts) -> Option<Pcre> {
        // A pattern is usually a constant of the expression, asked for on
        // every evaluation (a policy's `replace("@.*$", …)` per pair):
        // the last few compiled are kept, per thread.
        thread_local! {
            static RECENT: std::cell::RefCell<Vec<(String, ReOpts, Option<Pcre>)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        const KEPT: usize = 32;
        if let Some(hit) = RECENT.with(|r| {
            r.borrow()
                .iter()
                .find(|(p, o, _)| p == pattern && *o == opts)
                .map(|(_, _, re)| re.clone())
        }) {
            return hit;
        }
        let re = Pcre::compile(pattern, opts);
        RECENT.with(|r| {
            let mut r = r.borrow_mut();
            if r.len() == KEPT {
                r.remove(0);
            }
            r.push((pattern.to_string(), opts, re.clone()));
        });
        re
    }

    fn compile(pattern: &str, opts: ReOpts) -> Option<Pcre> {
        let source = translate(pattern, opts)?;
        for mode in [BytesMode::Ascii, BytesMode::UnicodeBytes] {
            if let Ok(re) = build(&source, opts, mode, false) {
                return Some(Pcre {
                    re,
                    source,
                    opts,
                    mode,
                    nonempty: OnceCell::new(),
                });
            }
        }
        None
    }

    /// Whether the pattern matches anywhere in `hay` (`Err` on a matching
    /// failure such as the backtracking limit).
    pub(crate) fn is_match(&self, hay: &[u8]) -> Result<bool, ()> {
        self.re.is_match(hay).map_err(|_| ())
    }

    /// The first match at or after `pos`.
    pub(crate) fn search(&self, hay: &[u8], pos: usize) -> Result<Option<Groups>, ()> {
        let input = RegexInput::new(hay).from_pos(pos);
        let caps = self.re.captures_input(input).map_err(|_| ())?;
        Ok(caps.map(|c| spans(&c)))
    }

    /// Whether some non-empty match exists anywhere (PCRE2_NOTEMPTY).
    pub(crate) fn has_nonempty_match(&self, hay: &[u8]) -> Result<bool, ()> {
        for pos in 0..=hay.len() {
            if self.search_nonempty_at(hay, pos)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A non-empty match starting exactly at `pos`.
    pub(crate) fn search_nonempty_at(&self, hay: &[u8], pos: usize) -> Result<Option<Groups>, ()> {
        let re = self
            .nonempty
            .get_or_init(|| build(&self.source, self.opts, self.mode, true).ok());
        let Some(re) = re else {
            return Ok(None);
        };
        let input = RegexInput::new(hay).from_pos(pos).anchored(true);
        let caps = re.captures_input(input).map_err(|_| ())?;
        Ok(caps
            .filter(|c| c.get(0).is_some_and(|m| m.start() == pos && m.end() > pos))
            .map(|c| spans(&c)))
    }
}

fn spans(c: &fancy_regex::Captures<'_, [u8]>) -> Groups {
    (0..c.len())
        .map(|i| c.get(i).map(|m| (m.start(), m.end())))
        .collect()
}

fn build(
    src: &str,
    o: ReOpts,
    mode: BytesMode,
    nonempty: bool,
) -> fancy_regex::Result<fancy_regex::Regex> {
    let mut b = RegexBuilder::new(src);
    b.case_insensitive(o.caseless)
        .multi_line(o.multiline)
        .dot_matches_new_line(o.dotall)
        .ignore_whitespace(o.extended)
        .bytes_mode(mode);
    if nonempty {
        b.find_not_empty(true);
    }
    b.build()
}

/// Rewrite PCRE syntax that the Rust engine reads differently: `$` (which
/// in PCRE also matches before a final newline), `\Z`, `\h`, `\Q..\E`,
/// `\g1`, octal escapes, escaped punctuation such as `\<`, a `{` that does
/// not start a quantifier, and `[`, `&`, `~` and white space inside classes.
/// `None` for quantifier errors PCRE reports but the Rust engine accepts.
fn translate(p: &str, o: ReOpts) -> Option<String> {
    const EOL: &str = r"(?=\n?\z)";
    let c: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 8);
    let mut i = 0;
    let mut in_class = false;
    let mut quant = Quant::No;
    while i < c.len() {
        let ch = c[i];
        if in_class {
            match ch {
                ']' => {
                    in_class = false;
                    out.push(']');
                }
                '[' if c.get(i + 1) == Some(&':') => {
                    // A POSIX class, copied through its closing `:]`.
                    let rest: String = c[i..].iter().collect();
                    match rest.find(":]") {
                        Some(end) => {
                            out.push_str(&rest[..end + 2]);
                            i += rest[..end + 2].chars().count();
                            continue;
                        }
                        None => out.push_str(r"\["),
                    }
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(ch);
                }
                ' ' => out.push_str(r"\x20"),
                '\t' => out.push_str(r"\t"),
                '\n' => out.push_str(r"\n"),
                '\r' => out.push_str(r"\r"),
                '\\' if i + 1 < c.len() => {
                    let n = c[i + 1];
                    i += 1;
                    match n {
                        'p' | 'P' => {
                            let (set, used) = property_at(&c, i)?;
                            out.push('[');
                            push_set(&mut out, set);
                            out.push(']');
                            i += used;
                            continue;
                        }
                        'b' => out.push_str(r"\x08"),
                        'h' => out.push_str(r"\t\x20\xA0"),
                        '<' | '>' => out.push(n),
                        ' ' => out.push_str(r"\x20"),
                        _ if n.is_ascii_alphanumeric() || n.is_ascii_punctuation() => {
                            out.push('\\');
                            out.push(n);
                        }
                        _ => out.push(n),
                    }
                }
                _ => out.push(ch),
            }
            i += 1;
            quant = Quant::No;
            continue;
        }
        // PCRE rejects a quantifier on a quantifier (`a**`, `a{2}{3}`);
        // one `?` or `+` after a quantifier is a lazy/possessive modifier.
        let was = quant;
        quant = Quant::No;
        match ch {
            '[' => {
                in_class = true;
                out.push('[');
                if c.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if c.get(i + 1) == Some(&']') {
                    out.push_str(r"\]");
                    i += 1;
                }
            }
            '$' if !o.multiline => out.push_str(EOL),
            '*' | '+' | '?' => {
                quant = match (was, ch) {
                    (Quant::No, _) => Quant::Yes,
                    (Quant::Yes, '+' | '?') => Quant::Modified,
                    _ => return None,
                };
                out.push(ch);
            }
            '{' => match quantifier_len(&c[i..]) {
                Some(n) => {
                    let text: String = c[i + 1..i + n - 1].iter().collect();
                    let too_big = |d: &str| d.parse::<u64>().map_or(!d.is_empty(), |v| v > 65535);
                    if was != Quant::No || text.split(',').any(too_big) {
                        return None;
                    }
                    quant = Quant::Yes;
                    out.push_str(&format!("{{{text}}}"));
                    i += n;
                    continue;
                }
                None => out.push_str(r"\{"),
            },
            '}' => out.push_str(r"\}"),
            '(' if c.get(i + 1) == Some(&'?') => {
                if calls_group(&c[i + 2..]) {
                    // Recursion and subroutine calls: the Rust engine has
                    // neither (see the differences listed above).
                    return None;
                }
                if c.get(i + 2) == Some(&'|') {
                    // A branch reset: the same as `(?:` when it captures
                    // nothing; otherwise its group numbers cannot be
                    // rebuilt here.
                    if captures_inside(&c[i + 3..]) {
                        return None;
                    }
                    out.push_str("(?:");
                    i += 3;
                    continue;
                }
                if c.get(i + 2) == Some(&'#') {
                    // A comment group.
                    while i < c.len() && c[i] != ')' {
                        i += 1;
                    }
                } else {
                    out.push_str("(?");
                    i += 1;
                }
            }
            ' ' | '\t' | '\n' | '\r' if o.extended => {
                quant = was;
                out.push(ch);
            }
            '\\' if i + 1 < c.len() => {
                i += 1;
                if matches!(c[i], 'p' | 'P') {
                    let (set, used) = property_at(&c, i)?;
                    // Properties are not case-folded in PCRE2.
                    out.push_str("(?-i:[");
                    push_set(&mut out, set);
                    out.push_str("])");
                    i += used;
                    continue;
                }
                i += escape(&c, i, &mut out);
                continue;
            }
            _ => out.push(ch),
        }
        i += 1;
    }
    Some(out)
}

#[derive(Clone, Copy, PartialEq)]
enum Quant {
    No,
    Yes,
    Modified,
}

/// Length of a `{n}`, `{n,}` or `{n,m}` quantifier at the start of `c`.
fn quantifier_len(c: &[char]) -> Option<usize> {
    let mut i = 1;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < c.len() && c[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > s
    };
    if !digits(&mut i) {
        return None;
    }
    if c.get(i) == Some(&',') {
        i += 1;
        digits(&mut i);
    }
    (c.get(i) == Some(&'}')).then_some(i + 1)
}

/// Translate the escape whose letter is at `c[i]` (outside a class);
/// returns how many characters it used.
fn escape(c: &[char], i: usize, out: &mut String) -> usize {
    let n = c[i];
    let hex = |out: &mut String, v: u32| out.push_str(&format!(r"\x{{{v:X}}}"));
    match n {
        'Z' => out.push_str(r"(?=\n?\z)"),
        // One character is one byte: an extended grapheme cluster is CR
        // LF or any one byte (Latin-1 has no combining marks), and `\C`
        // (one code unit) is any byte.
        'X' => out.push_str(r"(?s:\r\n|.)"),
        'C' => out.push_str(r"(?s:.)"),
        'h' => out.push_str(r"[\t\x20\xA0]"),
        'H' => out.push_str(r"[^\t\x20\xA0]"),
        'Q' => {
            let mut j = i + 1;
            while j < c.len() && !(c[j] == '\\' && c.get(j + 1) == Some(&'E')) {
                let s = c[j].to_string();
                out.push_str(&fancy_regex::escape(&s));
                j += 1;
            }
            return (j + 2).min(c.len()) - i;
        }
        'E' => {}
        'g' => {
            // \g1, \g{1}, \g{name} are back-references in PCRE.
            let braced = c.get(i + 1) == Some(&'{');
            let start = i + 1 + braced as usize;
            let mut j = start;
            while j < c.len() && (c[j].is_ascii_alphanumeric() || c[j] == '_') {
                j += 1;
            }
            let name: String = c[start..j].iter().collect();
            if braced && c.get(j) == Some(&'}') && !name.is_empty() {
                if name.bytes().all(|b| b.is_ascii_digit()) {
                    out.push_str(&format!(r"\{name}"));
                } else {
                    out.push_str(&format!(r"\k<{name}>"));
                }
                return j + 1 - i;
            }
            if !braced && !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
                out.push_str(&format!(r"\{name}"));
                return j - i;
            }
            out.push_str(r"\g");
        }
        'c' if i + 1 < c.len() => {
            hex(out, (c[i + 1].to_ascii_uppercase() as u32) ^ 0x40);
            return 2;
        }
        'x' if c.get(i + 1) == Some(&'{') => {
            // \x{..}: copy through the closing brace.
            let end = c[i..]
                .iter()
                .position(|&x| x == '}')
                .map_or(c.len(), |e| i + e + 1);
            out.push('\\');
            out.extend(&c[i..end]);
            return end - i;
        }
        'a' => out.push_str(r"\x07"),
        '0'..='9' => {
            let mut j = i;
            while j < c.len() && c[j].is_ascii_digit() {
                j += 1;
            }
            let num = &c[i..j];
            if n != '0' && num.len() == 1 {
                out.push('\\');
                out.push(n);
                return 1;
            }
            // Octal: up to three octal digits (a leading 0 counts).
            let mut k = i;
            let mut v = 0u32;
            while k < c.len() && k < i + 3 && ('0'..='7').contains(&c[k]) {
                v = v * 8 + (c[k] as u32 - '0' as u32);
                k += 1;
            }
            if k == i {
                out.push('\\');
                out.push(n);
                return 1;
            }
            hex(out, v & 0xFF);
            return k - i;
        }
        ' ' => out.push_str(r"\x20"),
        '<' | '>' => out.push(n),
        _ if n.is_ascii_alphanumeric() || n.is_ascii_punctuation() => {
            out.push('\\');
            out.push(n);
        }
        _ => out.push(n),
    }
    1
}

/// The bytes of the property escape whose `p`/`P` is at `c[i]` (`\pL`,
/// `\p{Lu}`, `\P{^Lu}`) and how many characters it used; `None` for a
/// name PCRE2 does not know.
fn property_at(c: &[char], i: usize) -> Option<(properties::Bytes, usize)> {
    let negated = c[i] == 'P';
    let (name, used): (String, usize) = if c.get(i + 1) == Some(&'{') {
        let close = c[i + 2..].iter().position(|&x| x == '}')?;
        (c[i + 2..i + 2 + close].iter().collect(), close + 3)
    } else {
        (c.get(i + 1)?.to_string(), 2)
    };
    let (name, caret) = match name.strip_prefix('^') {
        Some(n) => (n.to_string(), true),
        None => (name, false),
    };
    let set = properties::property(&name)?;
    Some((if negated != caret { set.not() } else { set }, used))
}

/// A byte set as the inside of a class; one that matches nothing when
/// empty.
fn push_set(out: &mut String, set: properties::Bytes) {
    let body = set.class_body();
    if body.is_empty() {
        out.push_str(r"^\x{00}-\x{FF}");
    } else {
        out.push_str(&body);
    }
}

/// Whether the text after `(?` calls a group: `R)`, a number, `+n`, `-n`,
/// `&name`, `P>name`.
fn calls_group(after: &[char]) -> bool {
    match after {
        ['R', ')', ..] | ['&', ..] | ['P', '>', ..] => true,
        ['+' | '-', d, ..] if d.is_ascii_digit() => true,
        [d, ..] => d.is_ascii_digit(),
        [] => false,
    }
}

/// Whether the group whose body starts at `body` (up to its closing
/// parenthesis) holds a capturing group.
fn captures_inside(body: &[char]) -> bool {
    let (mut depth, mut i, mut in_class) = (1usize, 0, false);
    while i < body.len() && depth > 0 {
        match body[i] {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => {
                let named = matches!(body.get(i + 1..i + 3), Some(['?', '<' | '\'' | 'P']))
                    && !matches!(body.get(i + 2..i + 4), Some(['<', '=' | '!']));
                if body.get(i + 1) != Some(&'?') || named {
                    return true;
                }
                depth += 1;
            }
            ')' if !in_class => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    false
}
