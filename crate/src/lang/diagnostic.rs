//! One diagnostic type for every bad input: a span, a message, what was
//! expected and an optional hint. It serializes (for the playground) and
//! renders to a terminal with the offending line underlined.

use serde::{Deserialize, Serialize};

use crate::lang::ast::Span;

/// How bad a problem is: an error loses input; a warning means the input
/// was read, but HTCondor would read it differently or not at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    #[serde(default)]
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub help: Option<String>,
    /// 1-based line and column (in characters) of `span.start`, filled in by
    /// [`Diagnostic::locate`] once the whole source is known.
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub column: u32,
    /// The attribute whose definition holds the error, when known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub attribute: Option<String>,
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            expected: None,
            help: None,
            line: 0,
            column: 0,
            attribute: None,
        }
    }
    pub fn warning(mut self) -> Diagnostic {
        self.severity = Severity::Warning;
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn expected(mut self, what: impl Into<String>) -> Diagnostic {
        self.expected = Some(what.into());
        self
    }
    pub fn help(mut self, hint: impl Into<String>) -> Diagnostic {
        self.help = Some(hint.into());
        self
    }
    /// Add a sentence to the help (a reader saying what it left out).
    pub fn also(mut self, note: &str) -> Diagnostic {
        self.help = Some(match self.help.take() {
            Some(h) => format!("{h}; {note}"),
            None => note.to_string(),
        });
        self
    }

    pub fn in_attribute(mut self, name: &str) -> Diagnostic {
        if self.attribute.is_none() {
            self.attribute = Some(name.to_string());
        }
        self
    }

    /// Shift the span by `offset` bytes (for text embedded in a larger file).
    pub fn shifted(mut self, offset: usize) -> Diagnostic {
        self.span.start += offset as u32;
        self.span.end += offset as u32;
        self
    }

    /// Compute line and column from the full source text.
    pub fn locate(mut self, src: &str) -> Diagnostic {
        let (l, c) = line_col(src, self.span.start as usize);
        self.line = l;
        self.column = c;
        self
    }

    /// `line:col: message (expected …)` on one line.
    pub fn summary(&self) -> String {
        format!("{}:{}: {}", self.line, self.column, self.detail())
    }

    /// The summary without its place: the message, what was expected, the
    /// attribute.
    pub fn detail(&self) -> String {
        let mut s = self.message.clone();
        if let Some(e) = &self.expected {
            s.push_str(&format!("; expected {e}"));
        }
        if let Some(a) = &self.attribute {
            s.push_str(&format!(" (in attribute `{a}`)"));
        }
        s
    }

    /// A multi-line rendering with the source line and a caret underline.
    pub fn render(&self, src: &str, file: &str) -> String {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!("{level}: {}\n", self.message);
        out.push_str(&format!("  --> {}:{}:{}\n", file, self.line, self.column));
        if let Some(line) = src.lines().nth(self.line.saturating_sub(1) as usize) {
            let width = (self.span.end.saturating_sub(self.span.start) as usize).max(1);
            let col = self.column.saturating_sub(1) as usize;
            // A long line (a 10 MB one-line ad) is shown as a window around
            // the column, not whole.
            let chars = line.chars().count();
            let (from, to) = if chars > WINDOW {
                let from = col
                    .saturating_sub(WINDOW / 2)
                    .min(chars.saturating_sub(WINDOW));
                (from, (from + WINDOW).min(chars))
            } else {
                (0, chars)
            };
            let shown: String = line.chars().skip(from).take(to - from).collect();
            let (lead, tail) = (
                if from > 0 { "…" } else { "" },
                if to < chars { "…" } else { "" },
            );
            let at = col.saturating_sub(from) + lead.chars().count();
            let avail = to.saturating_sub(col).max(1);
            out.push_str(&format!("   | {lead}{shown}{tail}\n"));
            out.push_str(&format!(
                "   | {}{}\n",
                " ".repeat(at),
                "^".repeat(width.min(avail))
            ));
        }
        if let Some(e) = &self.expected {
            out.push_str(&format!("   = expected {e}\n"));
        }
        if let Some(a) = &self.attribute {
            out.push_str(&format!("   = in attribute `{a}`\n"));
        }
        if let Some(h) = &self.help {
            out.push_str(&format!("   = help: {h}\n"));
        }
        out
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.summary())
    }
}

impl std::error::Error for Diagnostic {}

/// The most characters of a source line [`Diagnostic::render`] shows.
const WINDOW: usize = 160;

/// 1-based line and character column of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(src.len());
    let mut start = offset;
    while start > 0 && !src.is_char_boundary(start) {
        start -= 1;
    }
    let before = &src[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() + 1;
    (line as u32, col as u32)
}
