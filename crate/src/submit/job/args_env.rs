//! condor_submit's argument and environment syntaxes (`condor_arglist.cpp`,
//! `env.cpp`): V1 (plain, split on whitespace or a delimiter) and V2
//! (the whole value in double quotes, single quotes group, doubled
//! quotes escape), and how the job ad writes each back.

use std::collections::BTreeMap;

/// `IsV2QuotedString`: the value (after leading spaces) starts with `"`.
pub fn is_v2_quoted(s: &str) -> bool {
    s.trim_start().starts_with('"')
}

/// `V2QuotedToV2Raw`: the text between the outer double quotes, `""`
/// standing for one `"`.
pub fn v2_quoted_to_raw(s: &str) -> Result<String, String> {
    let t = s.trim_start();
    let mut chars = t.char_indices().skip(1).peekable();
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        if c == '"' {
            if let Some((_, '"')) = chars.peek() {
                chars.next();
                out.push('"');
                continue;
            }
            let rest = &t[i + 1..];
            if !rest.trim().is_empty() {
                return Err(format!(
                    "Unexpected characters following double-quote.  Did you forget to escape the double-quote by repeating it?  Here is the quote and trailing characters: {}\n",
                    &t[i..]
                ));
            }
            return Ok(out);
        }
        out.push(c);
    }
    Err("Unterminated double-quote.".to_string())
}

/// `V1WackedToV1Raw`: `\"` is a literal quote; a bare `"` is an error.
pub fn v1_wacked_to_raw(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            return Err(format!("Found illegal unescaped double-quote: {}", &s[i..]));
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'"') {
            out.push('"');
            i += 2;
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    Ok(out)
}

fn is_arg_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// `split_args` (V2 raw): whitespace separates, `'...'` groups with `''`
/// for a quote.
pub fn split_args_v2(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut buf = String::new();
    let mut token = false;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        match c {
            '\'' => {
                token = true;
                let mut closed = false;
                while let Some((_, d)) = it.next() {
                    if d == '\'' {
                        if let Some((_, '\'')) = it.peek() {
                            it.next();
                            buf.push('\'');
                        } else {
                            closed = true;
                            break;
                        }
                    } else {
                        buf.push(d);
                    }
                }
                if !closed {
                    return Err(format!("Unbalanced quote starting here: {}", &s[i..]));
                }
            }
            c if is_arg_space(c) => {
                if token {
                    out.push(std::mem::take(&mut buf));
                    token = false;
                }
            }
            c => {
                token = true;
                buf.push(c);
            }
        }
    }
    if token {
        out.push(buf);
    }
    Ok(out)
}

/// V1 raw (unix): split on whitespace only.
pub fn split_args_v1(s: &str) -> Vec<String> {
    s.split(is_arg_space)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// `append_arg` / `join_args`: the V2 raw form, quoting what needs it.
pub fn join_args_v2(args: &[String]) -> String {
    let mut out = String::new();
    for a in args {
        if !out.is_empty() {
            out.push(' ');
        }
        if a.is_empty() {
            out.push_str("''");
        }
        for c in a.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\'') {
                if out.ends_with('\'') {
                    out.pop();
                } else {
                    out.push('\'');
                }
                if c == '\'' {
                    out.push('\'');
                }
                out.push(c);
                out.push('\'');
            } else {
                out.push(c);
            }
        }
    }
    out
}

/// An argument list parsed from a submit value and whether it was V1.
pub struct Args {
    pub list: Vec<String>,
    pub was_v1: bool,
}

/// `AppendArgsV1WackedOrV2Quoted`.
pub fn parse_v1_wacked_or_v2(s: &str) -> Result<Args, String> {
    if is_v2_quoted(s) {
        let raw = v2_quoted_to_raw(s)?;
        Ok(Args {
            list: split_args_v2(&raw)?,
            was_v1: false,
        })
    } else {
        let raw = v1_wacked_to_raw(s)?;
        Ok(Args {
            list: split_args_v1(&raw),
            was_v1: true,
        })
    }
}

/// `AppendArgsV2Quoted`: the value must be double-quoted.
pub fn parse_v2_quoted(s: &str) -> Result<Args, String> {
    if !is_v2_quoted(s) {
        return Err("Expecting double-quoted input string (V2 format).".to_string());
    }
    let raw = v2_quoted_to_raw(s)?;
    Ok(Args {
        list: split_args_v2(&raw)?,
        was_v1: false,
    })
}

/// `GetArgsStringV1Raw`: the arguments joined by spaces; an argument with
/// whitespace cannot be written.
pub fn join_args_v1(args: &[String]) -> Result<String, String> {
    for a in args {
        if a.contains(is_arg_space) {
            return Err(format!("Cannot represent '{a}' in V1 arguments syntax."));
        }
    }
    Ok(args.join(" "))
}

// ---- environment -----------------------------------------------------------

/// condor's `NO_ENVIRONMENT_VALUE`: a name given without `=` (allowed only
/// when it holds `$$`).
const NO_VALUE: &str = "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}";

/// An environment: names to values, sorted by name as `std::map` keeps them.
#[derive(Default)]
pub struct Env {
    pub vars: BTreeMap<String, String>,
}

impl Env {
    /// `SetEnvWithErrorMessage("NAME=value")`.
    fn set_entry(&mut self, entry: &str) -> Result<(), String> {
        if entry.is_empty() {
            return Err(String::new());
        }
        match entry.find('=') {
            None if entry.contains("$$") => {
                self.vars.insert(entry.to_string(), NO_VALUE.to_string());
                Ok(())
            }
            None => Err(format!(
                "ERROR: Missing '=' after environment variable '{entry}'."
            )),
            Some(0) => Err(format!("ERROR: missing variable in '{entry}'.")),
            Some(i) => {
                self.vars
                    .insert(entry[..i].to_string(), entry[i + 1..].to_string());
                Ok(())
            }
        }
    }

    /// `MergeFromV2Quoted`.
    pub fn merge_v2_quoted(&mut self, s: &str) -> Result<(), String> {
        if !is_v2_quoted(s) {
            return Err("Expecting a double-quoted environment string (V2 format).".to_string());
        }
        let raw = v2_quoted_to_raw(s)?;
        for e in split_args_v2(&raw)? {
            self.set_entry(&e)?;
        }
        Ok(())
    }

    /// `MergeFromV1RawOrV2Quoted` (with `MergeFromV1AutoDelim`: a leading
    /// punctuation character chooses the delimiter, `;` otherwise).
    pub fn merge_v1_or_v2(&mut self, s: &str) -> Result<(), String> {
        if is_v2_quoted(s) {
            return self.merge_v2_quoted(s);
        }
        if s.is_empty() {
            return Ok(());
        }
        let mut delim = ';';
        let mut body = s;
        if let Some(c) = s.chars().next() {
            if c == delim {
                body = &s[1..];
            } else if "!#$%&*+,-/:;<>?@^`|~\u{1f}".contains(c) {
                delim = c;
                body = &s[c.len_utf8()..];
            }
        }
        for part in body.split(|c| c == delim || c == '\n') {
            let e = part.trim_start_matches([' ', '\t', '\n', '\r']);
            if !e.is_empty() {
                self.set_entry(e)?;
            }
        }
        Ok(())
    }

    /// `getDelimitedStringV2Raw`.
    pub fn v2_raw(&self) -> String {
        let list: Vec<String> = self
            .vars
            .iter()
            .map(|(k, v)| {
                if v == NO_VALUE {
                    k.clone()
                } else {
                    format!("{k}={v}")
                }
            })
            .collect();
        join_args_v2(&list)
    }

    /// `getDelimitedStringV1Raw` with `;`.
    pub fn v1_raw(&self) -> Result<String, String> {
        let mut out = String::new();
        for (k, v) in &self.vars {
            let unsafe_v1 = |s: &str| s.contains([';', '\n']);
            if unsafe_v1(k) || unsafe_v1(v) {
                return Err(format!(
                    "Environment entry is not compatible with V1 syntax: {k}={v}"
                ));
            }
            if !out.is_empty() {
                out.push(';');
            }
            out.push_str(k);
            if v != NO_VALUE {
                out.push('=');
                out.push_str(v);
            }
        }
        Ok(out)
    }
}
