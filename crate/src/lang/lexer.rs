//! The ClassAd lexer. The parser and the playground's syntax highlighter use
//! the same tokens, so what is coloured is what is parsed.

use serde::{Deserialize, Serialize};

use crate::lang::ast::Span;
use crate::lang::diagnostic::Diagnostic;
use crate::lang::time::AbsTime;

/// Which surface syntax to accept: HTCondor's (the default, exactly what
/// libclassad accepts) unless the user picks the seed papers' notation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// HTCondor 25's syntax plus the seed papers' extensions wherever they
    /// cannot mean anything else: a single-quoted token whose whole text is a
    /// relative time (`'00:23:12'`, `'9:00'`, `'-1+02:00:00'`) or an absolute
    /// time (`'Mon Feb 10 10:53:31 2003 (CST) -06:00'`) is a time literal,
    /// any other single-quoted token is an attribute name; a number directly
    /// followed by `B`, `K`, `M`, `G` or `T` (and no further name character)
    /// is scaled by 2^0, 2^10 … 2^40, `0x1f` is hexadecimal and `017` octal.
    Auto,
    /// Exactly HTCondor's syntax: `'…'` is always an attribute name and scale
    /// suffixes, hexadecimal and octal integers are errors, each saying
    /// what the seed papers' notation would read.
    #[default]
    #[serde(rename = "htcondor", alias = "modern")]
    Modern,
    /// The seed papers' dialect: like `Auto`, but a single-quoted token that
    /// is not a time is an error.
    Seed,
}

impl Dialect {
    /// The name users pick it by (`--dialect`, the page's Syntax menu).
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Auto => "auto",
            Dialect::Modern => "htcondor",
            Dialect::Seed => "seed",
        }
    }
}

/// The power of two a seed-era scale suffix stands for (`K`: 2^10).
fn scale_shift(c: u8) -> Option<u32> {
    match c.to_ascii_uppercase() {
        b'B' => Some(0),
        b'K' => Some(10),
        b'M' => Some(20),
        b'G' => Some(30),
        b'T' => Some(40),
        _ => None,
    }
}

/// `12.0`, `1536.0`, `0.5`: a scaled number as the seed notation reads it.
fn real_words(r: f64) -> String {
    if r.fract() == 0.0 && r.abs() < 1e15 {
        format!("{r:.1}")
    } else {
        format!("{r}")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    /// An integer written with leading zeros (`012`): an error in HTCondor
    /// mode unless negated (`-012` is -12, as libclassad reads it).
    PaddedInt(i64),
    /// `9223372036854775808`: 0 on its own (overflow), i64::MIN negated.
    IntTwoTo63,
    Real(f64),
    Str(String),
    Ident(String),
    /// `'name with spaces'`
    QuotedName(String),
    RelTime(f64),
    AbsTime(AbsTime),
    True,
    False,
    Undefined,
    Error,
    Is,
    Isnt,
    Punct(&'static str),
    Eof,
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Int(i) | Tok::PaddedInt(i) => format!("integer {i}"),
            Tok::IntTwoTo63 => "integer 9223372036854775808".into(),
            Tok::Real(_) => "real number".into(),
            Tok::Str(_) => "string".into(),
            Tok::Ident(s) => format!("name `{s}`"),
            Tok::QuotedName(s) => format!("name '{s}'"),
            Tok::RelTime(_) | Tok::AbsTime(_) => "time literal".into(),
            Tok::True => "`true`".into(),
            Tok::False => "`false`".into(),
            Tok::Undefined => "`undefined`".into(),
            Tok::Error => "`error`".into(),
            Tok::Is => "`is`".into(),
            Tok::Isnt => "`isnt`".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of input".into(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Token classes for syntax highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenClass {
    Number,
    String,
    Name,
    Keyword,
    Operator,
    Punctuation,
    Comment,
    Time,
    Invalid,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Highlight {
    pub start: u32,
    pub end: u32,
    pub class: TokenClass,
}

/// The operator or punctuation mark `b` starts with, longest first (so
/// `=?=` wins over `=`), by first byte.
fn punct(b: &[u8]) -> Option<&'static str> {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    Some(match *b.first()? {
        b'>' => match (at(1), at(2)) {
            (b'>', b'>') => ">>>",
            (b'>', _) => ">>",
            (b'=', _) => ">=",
            _ => ">",
        },
        b'=' => match (at(1), at(2)) {
            (b'?', b'=') => "=?=",
            (b'!', b'=') => "=!=",
            (b'=', _) => "==",
            _ => "=",
        },
        b'<' => match at(1) {
            b'=' => "<=",
            b'<' => "<<",
            _ => "<",
        },
        b'!' if at(1) == b'=' => "!=",
        b'!' => "!",
        b'&' if at(1) == b'&' => "&&",
        b'&' => "&",
        b'|' if at(1) == b'|' => "||",
        b'|' => "|",
        b'?' if at(1) == b':' => "?:",
        b'?' => "?",
        b'(' => "(",
        b')' => ")",
        b'[' => "[",
        b']' => "]",
        b'{' => "{",
        b'}' => "}",
        b',' => ",",
        b';' => ";",
        b'.' => ".",
        b':' => ":",
        b'+' => "+",
        b'-' => "-",
        b'*' => "*",
        b'/' => "/",
        b'%' => "%",
        b'~' => "~",
        b'^' => "^",
        _ => return None,
    })
}

/// Every operator and punctuation mark, longest first: the specification
/// `punct` is tested against.
#[cfg(test)]
const PUNCTS: &[&str] = &[
    ">>>", "=?=", "=!=", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "?:", "(", ")", "[", "]",
    "{", "}", ",", ";", ".", "?", ":", "=", "+", "-", "*", "/", "%", "<", ">", "!", "~", "&", "|",
    "^",
];

pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    dialect: Dialect,
    strict: bool,
    /// Comments seen (for highlighting).
    pub comments: Vec<Span>,
    /// Literals the readers warn about (`formats::literal_warnings`):
    /// integers too big for 64 bits, read as 0 (as libclassad's strtoll
    /// gives them), and in HTCondor's syntax a quoted name the seed papers
    /// read as a time (`'3:00'`), which HTCondor reads as a name.
    pub overflows: Vec<Span>,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str, dialect: Dialect) -> Lexer<'a> {
        Lexer {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            dialect,
            strict: false,
            comments: Vec::new(),
            overflows: Vec::new(),
        }
    }

    /// Lex integers as plain libclassad does (strict mode) rather than
    /// with HTCondor's old-ClassAd rules.
    pub fn set_strict(&mut self, strict: bool) {
        self.strict = strict;
    }

    pub fn source(&self) -> &'a str {
        self.src
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    fn peek(&self, off: usize) -> u8 {
        *self.bytes.get(self.pos + off).unwrap_or(&0)
    }

    fn skip_trivia(&mut self) -> Result<(), Diagnostic> {
        loop {
            let c = self.peek(0);
            if c.is_ascii_whitespace() {
                self.pos += 1;
            } else if c == b'/' && self.peek(1) == b'/' {
                let start = self.pos;
                while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                    self.pos += 1;
                }
                self.comments.push(Span::new(start, self.pos));
            } else if c == b'/' && self.peek(1) == b'*' {
                let start = self.pos;
                match self.src[self.pos + 2..].find("*/") {
                    Some(end) => self.pos += 2 + end + 2,
                    None => {
                        return Err(Diagnostic::new(
                            Span::new(start, self.bytes.len()),
                            "unterminated `/* … */` comment",
                        )
                        .expected("`*/` to close the comment"))
                    }
                }
                self.comments.push(Span::new(start, self.pos));
            } else {
                return Ok(());
            }
        }
    }

    pub fn next_token(&mut self) -> Result<Token, Diagnostic> {
        self.skip_trivia()?;
        let start = self.pos;
        let c = self.peek(0);
        let tok = if self.pos >= self.bytes.len() {
            Tok::Eof
        } else if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) {
            self.number()?
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let end = self.name_end(self.pos);
            let word = &self.src[self.pos..end];
            self.pos = end;
            keyword(word).unwrap_or_else(|| Tok::Ident(word.to_string()))
        } else if c == b'"' {
            // Adjacent literals separated only by whitespace form one
            // string ("a" "b" is "ab"); libclassad joins them in its lexer,
            // so a comment between them is an error.
            let mut s = self.string(b'"')?;
            loop {
                let mut j = self.pos;
                while j < self.bytes.len() && self.bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                if j < self.bytes.len() && self.bytes[j] == b'"' {
                    self.pos = j;
                    s.push_str(&self.string(b'"')?);
                } else {
                    break;
                }
            }
            Tok::Str(s)
        } else if c == b'\'' {
            let text = self.string(b'\'')?;
            self.quoted(text, start)?
        } else if c == b'?' && self.src[self.pos + 1..].trim_start().starts_with(':') {
            // libclassad's lexer reads `?`, blanks, `:` as the elvis token.
            let rest = &self.src[self.pos + 1..];
            self.pos += 1 + (rest.len() - rest.trim_start().len()) + 1;
            Tok::Punct("?:")
        } else {
            let rest = &self.src[self.pos..];
            match punct(rest.as_bytes()) {
                Some(p) => {
                    self.pos += p.len();
                    Tok::Punct(p)
                }
                None => {
                    let ch = rest.chars().next().unwrap_or('?');
                    return Err(Diagnostic::new(
                        Span::new(start, start + ch.len_utf8()),
                        format!("unexpected character `{}`", ch.escape_debug()),
                    )
                    .expected("an expression, operator or `;`"));
                }
            }
        };
        Ok(Token {
            tok,
            span: Span::new(start, self.pos),
        })
    }

    fn name_end(&self, mut i: usize) -> usize {
        while i < self.bytes.len()
            && (self.bytes[i].is_ascii_alphanumeric() || self.bytes[i] == b'_')
        {
            i += 1;
        }
        i
    }

    fn number(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let b = self.bytes;
        let mut i = self.pos;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let mut is_real = false;
        if i < b.len() && b[i] == b'.' {
            // libclassad wants digits after the point: `1.` is an error.
            if !(i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
                return Err(Diagnostic::new(
                    Span::new(start, i + 1),
                    format!("`{}` is not a number", &self.src[start..i + 1]),
                )
                .expected("digits after the decimal point"));
            }
            is_real = true;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                is_real = true;
                i = j;
            }
        }
        let text = &self.src[start..i];
        self.pos = i;
        // The thesis writes hexadecimal (0xff) and octal (0600) integers;
        // HTCondor rejects both, so outside the modern dialect they mean
        // what the thesis says, and in it the error says so.
        let hex = (!is_real && text == "0" && i < b.len() && (b[i] | 0x20) == b'x')
            .then(|| self.name_end(i + 1))
            .filter(|&end| {
                end > i + 1 && self.src[i + 1..end].bytes().all(|c| c.is_ascii_hexdigit())
            })
            .map(|end| {
                (
                    end,
                    i64::from_str_radix(&self.src[i + 1..end], 16).unwrap_or(0),
                )
            });
        match hex {
            Some((end, value)) if self.dialect != Dialect::Modern => {
                self.pos = end;
                return Ok(Tok::Int(value));
            }
            Some((end, value)) if !self.strict => {
                return Err(Diagnostic::new(
                    Span::new(start, end),
                    format!(
                        "`{}` is not a number in HTCondor; in the seed papers' notation it is {value}",
                        &self.src[start..end]
                    ),
                )
                .expected("a decimal integer")
                .help("HTCondor has no hexadecimal integers; pick the seed papers' notation (Syntax) to read them"));
            }
            _ => {}
        }

        // Seed-era scale suffix: 2K, 323.4M.
        let scale = (i < b.len() && self.name_end(i + 1) == i + 1)
            .then(|| scale_shift(b[i]))
            .flatten();
        if let (Some(shift), true) = (scale, self.dialect != Dialect::Modern) {
            self.pos = i + 1;
            let n: f64 = text.parse().unwrap_or(0.0);
            return Ok(Tok::Real(n * (1u64 << shift) as f64));
        }
        if self.strict && text == "0" && i < b.len() && (b[i] == b'x' || b[i] == b'X') {
            let end = self.name_end(i);
            if end > i + 1 && self.src[i + 1..end].bytes().all(|c| c.is_ascii_hexdigit()) {
                self.pos = end;
                return Ok(Tok::Int(0));
            }
        }
        // libclassad ends a number at the first non-digit, so `2is true`
        // is `2 is true`. A lone scale letter in the modern dialect gets
        // its own message, since it is seed-era syntax.
        if let Some(shift) = scale {
            let scaled = text.parse::<f64>().unwrap_or(0.0) * (1u64 << shift) as f64;
            return Err(Diagnostic::new(
                Span::new(start, i + 1),
                format!(
                    "`{}` is not a number in HTCondor; in the seed papers' notation it is {}",
                    &self.src[start..i + 1],
                    real_words(scaled)
                ),
            )
            .expected("digits, or a space between a number and a name")
            .help("scale suffixes (2K, 64M) are the seed papers' notation; pick it (Syntax) to read them"));
        }
        if self.dialect != Dialect::Modern
            && !self.strict
            && !is_real
            && text.len() > 1
            && text.starts_with('0')
            && text.bytes().all(|c| (b'0'..=b'7').contains(&c))
        {
            return Ok(Tok::Int(i64::from_str_radix(text, 8).unwrap_or(0)));
        }
        if self.strict && !is_real && text.starts_with('0') && text.len() > 1 {
            // Plain libclassad: `012` is decimal 12, `08` an error, and
            // `0x1f` is read as 0 (its hex prefix is accepted, the digits
            // lost).
            if text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                return Ok(Tok::Int(text.trim_start_matches('0').parse().unwrap_or(0)));
            }
            return Err(Diagnostic::new(
                Span::new(start, i),
                format!("`{text}` is not a number"),
            ));
        }
        if !is_real && text.len() > 1 && text.starts_with('0') {
            if text.bytes().any(|c| c == b'8' || c == b'9') {
                return Err(Diagnostic::new(
                    Span::new(start, i),
                    format!("`{text}` is not a number"),
                )
                .expected("a decimal integer without leading zeros"));
            }
            return Ok(Tok::PaddedInt(text.parse().unwrap_or(0)));
        }
        if is_real {
            Ok(Tok::Real(text.parse().unwrap_or(f64::NAN)))
        } else {
            // libclassad reads integer literals with strtoll; values that do
            // not fit come out as 0 there, an overflow we reproduce. 2^63 is
            // told apart so `-9223372036854775808` can be i64::MIN.
            Ok(match text.parse::<i64>() {
                Ok(v) => Tok::Int(v),
                Err(_) if text == "9223372036854775808" => Tok::IntTwoTo63,
                Err(_) => {
                    self.overflows.push(Span::new(start, i));
                    Tok::Int(0)
                }
            })
        }
    }

    /// Reads a quoted token, processing escapes; the opening quote is at pos.
    fn string(&mut self, quote: u8) -> Result<String, Diagnostic> {
        let start = self.pos;
        let b = self.bytes;
        let mut i = self.pos + 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            if i >= b.len() {
                let what = if quote == b'"' {
                    "string"
                } else {
                    "quoted name"
                };
                return Err(Diagnostic::new(
                    Span::new(start, b.len()),
                    format!("unterminated {what}"),
                )
                .expected(format!("a closing `{}`", quote as char)));
            }
            let c = b[i];
            if c == quote {
                i += 1;
                break;
            }
            if c == b'\\' && i + 1 < b.len() {
                let e = b[i + 1];
                i += 2;
                match e {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'v' => out.push(11),
                    b'a' => out.push(7),
                    b'0'..=b'7' => {
                        // Up to three octal digits; a leading 0-3 allows three.
                        let max = if e <= b'3' { 3 } else { 2 };
                        let mut v: u32 = (e - b'0') as u32;
                        let mut n = 1;
                        while n < max && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                            v = v * 8 + (b[i] - b'0') as u32;
                            i += 1;
                            n += 1;
                        }
                        if v == 0 {
                            return Err(Diagnostic::new(
                                Span::new(i - n - 1, i),
                                "a string cannot contain the null character",
                            )
                            .expected("an octal escape between \\001 and \\377"));
                        }
                        out.push(v as u8);
                    }
                    other => out.push(other),
                }
            } else if c == 0 {
                // Nothing could write it back (`\000` is refused above, as
                // libclassad refuses it): refuse it here too.
                return Err(Diagnostic::new(
                    Span::new(i, i + 1),
                    "a string cannot contain the null character",
                )
                .expected("an octal escape between \\001 and \\377"));
            } else {
                out.push(c);
                i += 1;
            }
        }
        self.pos = i;
        // Octal escapes can produce bytes that are not UTF-8; keep what we can.
        Ok(match String::from_utf8(out) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }

    fn quoted(&mut self, text: String, start: usize) -> Result<Tok, Diagnostic> {
        if self.dialect != Dialect::Modern {
            if let Some(t) = crate::lang::time::parse_rel_time_literal(&text) {
                return Ok(Tok::RelTime(t));
            }
            if let Some(t) = crate::lang::time::parse_abs_time_literal(&text) {
                return Ok(Tok::AbsTime(t));
            }
            if self.dialect == Dialect::Seed {
                return Err(Diagnostic::new(
                    Span::new(start, self.pos),
                    format!("'{text}' is not a time literal"),
                )
                .expected("a relative time such as '00:15' or an absolute time such as 'Mon Feb 10 10:53:31 2003 (CST) -06:00'"));
            }
        }
        if crate::lang::time::parse_rel_time_literal(&text).is_some()
            || crate::lang::time::parse_abs_time_literal(&text).is_some()
        {
            self.overflows.push(Span::new(start, self.pos));
        }
        Ok(Tok::QuotedName(text))
    }
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word.to_ascii_lowercase().as_str() {
        "true" => Tok::True,
        "false" => Tok::False,
        "undefined" => Tok::Undefined,
        "error" => Tok::Error,
        "is" => Tok::Is,
        "isnt" => Tok::Isnt,
        _ => return None,
    })
}

/// Classify every token of `src` for highlighting. Never fails: an invalid
/// stretch is marked and lexing resumes after it.
pub fn highlight(src: &str, dialect: Dialect) -> Vec<Highlight> {
    let mut out = Vec::new();
    let mut lx = Lexer::new(src, dialect);
    loop {
        let before = lx.pos;
        match lx.next_token() {
            Ok(t) => {
                for c in lx.comments.drain(..) {
                    out.push(Highlight {
                        start: c.start,
                        end: c.end,
                        class: TokenClass::Comment,
                    });
                }
                let class = match &t.tok {
                    Tok::Eof => break,
                    Tok::Int(_) | Tok::PaddedInt(_) | Tok::IntTwoTo63 | Tok::Real(_) => {
                        TokenClass::Number
                    }
                    Tok::Str(_) => TokenClass::String,
                    Tok::Ident(_) | Tok::QuotedName(_) => TokenClass::Name,
                    Tok::RelTime(_) | Tok::AbsTime(_) => TokenClass::Time,
                    Tok::True | Tok::False | Tok::Undefined | Tok::Error | Tok::Is | Tok::Isnt => {
                        TokenClass::Keyword
                    }
                    Tok::Punct(p)
                        if matches!(*p, "(" | ")" | "[" | "]" | "{" | "}" | "," | ";") =>
                    {
                        TokenClass::Punctuation
                    }
                    Tok::Punct(_) => TokenClass::Operator,
                };
                out.push(Highlight {
                    start: t.span.start,
                    end: t.span.end,
                    class,
                });
            }
            Err(d) => {
                lx.comments.clear();
                let end = (d.span.end as usize).max(before + 1).min(src.len());
                out.push(Highlight {
                    start: d.span.start.min(before as u32),
                    end: end as u32,
                    class: TokenClass::Invalid,
                });
                // Resume at the next char boundary past the bad stretch.
                let mut p = end;
                while p < src.len() && !src.is_char_boundary(p) {
                    p += 1;
                }
                if p >= src.len() {
                    break;
                }
                lx.pos = p;
            }
        }
    }
    out
}

#[cfg(test)]
mod punct_tests {
    use super::{punct, PUNCTS};

    #[test]
    fn punct_by_first_byte_is_the_longest_match() {
        let chars: Vec<u8> = PUNCTS
            .iter()
            .flat_map(|p| p.bytes())
            .chain(*b"ab 1")
            .collect();
        let mut buf = [0u8; 3];
        for &a in &chars {
            for &b in &chars {
                for &c in &chars {
                    buf.copy_from_slice(&[a, b, c]);
                    let text = std::str::from_utf8(&buf).unwrap();
                    let longest = PUNCTS.iter().find(|p| text.starts_with(**p)).copied();
                    assert_eq!(punct(&buf), longest, "{text}");
                }
            }
        }
    }
}
