//! Reading a submit file's statements into the macro table, up to each
//! queue statement, as condor_submit's `Parse_macros` does (`config.cpp`):
//! `key = value` (the last definition wins), `key += more`, `key @= tag …
//! @tag`, `+Attr = expr` and `-Attr =`, `if / elif / else / endif`,
//! `include : file` (files given alongside; a command is refused),
//! `error :` / `warning :`, and the queue statements, which the caller
//! runs before reading on.

use super::lines::{logical_lines, Line};
use super::macros::{MacroSet, Source};

/// A problem at a place of a submit file (or a file it includes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub warning: bool,
}

/// A queue statement read: its arguments (macros not yet expanded) and,
/// for `queue … (` lists spanning lines, the lines up to the `)`.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueLine {
    pub args: String,
    /// The items of a multi-line `(` list, one per line read.
    pub more_items: Option<Vec<String>>,
    pub line: u32,
    pub column: u32,
}

/// One file being read.
struct Frame {
    name: String,
    lines: Vec<Line>,
    pos: usize,
    ifs: IfStack,
    /// The file itself (not an include): queue statements belong here.
    top: bool,
}

/// Reads statements in order, stopping at each queue statement.
pub struct Reader<'a> {
    frames: Vec<Frame>,
    /// Files given alongside (`include : name`, `queue from name`).
    files: &'a dyn Fn(&str) -> Option<String>,
    /// The HTCondor version `if version >= x.y.z` compares with.
    pub version: (i32, i32, i32),
    pub warnings: Vec<Problem>,
}

/// The deepest chain of includes (condor_submit: `CONFIG_MAX_NESTING_DEPTH`).
const MAX_INCLUDE_DEPTH: usize = 20;

impl<'a> Reader<'a> {
    pub fn new(name: &str, text: &str, files: &'a dyn Fn(&str) -> Option<String>) -> Reader<'a> {
        Reader {
            frames: vec![Frame {
                name: name.to_string(),
                lines: logical_lines(text),
                pos: 0,
                ifs: IfStack::default(),
                top: true,
            }],
            files,
            version: (25, 0, 0),
            warnings: Vec::new(),
        }
    }

    fn at(&self, line: &Line, column: usize, message: impl Into<String>) -> Problem {
        Problem {
            file: self
                .frames
                .last()
                .map(|f| f.name.clone())
                .unwrap_or_default(),
            line: line.number,
            column: column as u32 + 1,
            message: message.into(),
            warning: false,
        }
    }

    fn next_line(&mut self) -> Option<Line> {
        loop {
            let f = self.frames.last_mut()?;
            if let Some(l) = f.lines.get(f.pos) {
                f.pos += 1;
                return Some(l.clone());
            }
            // The end of an included file: its ifs must be closed.
            if f.ifs.inside_if() {
                return None;
            }
            if self.frames.len() == 1 {
                return None;
            }
            self.frames.pop();
        }
    }

    /// Read definitions into `macros` up to the next queue statement;
    /// `Ok(None)` at the end of the file.
    pub fn next_queue(&mut self, macros: &mut MacroSet) -> Result<Option<QueueLine>, Problem> {
        loop {
            let Some(line) = self.next_line() else {
                if let Some(f) = self.frames.last() {
                    if f.ifs.inside_if() {
                        let last = f.lines.last().cloned().unwrap_or(Line {
                            text: String::new(),
                            number: 1,
                            offset: 0,
                        });
                        return Err(self.at(&last, 0, "endif(s) not found before end-of-file"));
                    }
                }
                return Ok(None);
            };
            let text = line.text.as_str();
            if text.starts_with('#') || text.trim().is_empty() {
                continue;
            }
            let mut text = text;
            let inside_if = self.frames.last().is_some_and(|f| f.ifs.inside_if());
            if let Some(rest) = text.strip_prefix(':') {
                if inside_if || is_word(rest, "if") {
                    text = rest;
                }
            }
            if let Some(r) = self.if_line(text, macros) {
                r.map_err(|m| self.at(&line, 0, m))?;
                continue;
            }
            if !self.frames.last().is_some_and(|f| f.ifs.enabled()) {
                continue;
            }
            if let Some(q) = self.statement(text, &line, macros)? {
                return Ok(Some(q));
            }
        }
    }

    /// One statement (not an `if` line) of an enabled part of the file.
    fn statement(
        &mut self,
        text: &str,
        line: &Line,
        macros: &mut MacroSet,
    ) -> Result<Option<QueueLine>, Problem> {
        let b = text.as_bytes();
        let is_op = |c: u8| c == b'=' || c == b':';
        // The name: up to whitespace or an operator.
        let mut p = 0;
        while p < b.len() && !b[p].is_ascii_whitespace() && !is_op(b[p]) {
            p += 1;
        }
        if p == b.len() {
            // One word: a queue statement or nothing condor_submit reads.
            return self.queue_statement(text, line).map(Some);
        }
        let name_end = p;
        let mut word_before_op = false;
        let mut plus_sep: Option<(u8, bool)> = None;
        let op;
        if is_op(b[p]) {
            op = b[p];
            p += 1;
        } else {
            while p < b.len() && b[p].is_ascii_whitespace() {
                p += 1;
            }
            if p < b.len() && !is_op(b[p]) && b[p] != b'@' && b[p] != b'+' {
                word_before_op = true;
            }
            while p < b.len() && !is_op(b[p]) && b[p] != b'@' && b[p] != b'+' {
                p += 1;
            }
            let mut o = b.get(p).copied().unwrap_or(0);
            if o != 0 {
                p += 1;
                if o == b'@' {
                    if b.get(p) == Some(&b'=') {
                        p += 1;
                    } else {
                        o = 0;
                    }
                } else if o == b'+' {
                    if let Some(&c) = b.get(p).filter(|c| b",;|&*".contains(c)) {
                        p += 1;
                        let double = b.get(p) == Some(&c);
                        if double {
                            p += 1;
                        }
                        plus_sep = Some((c, double));
                    }
                    if b.get(p) == Some(&b'=') {
                        p += 1;
                    } else {
                        o = 0;
                    }
                }
            }
            op = o;
        }
        while p < b.len() && b[p].is_ascii_whitespace() {
            p += 1;
        }
        let rhs = &text[p.min(text.len())..];
        let raw_name = &text[..name_end];
        let keyword =
            |k: &str| op == b':' && raw_name.trim_start_matches('@').eq_ignore_ascii_case(k);
        if keyword("error") || keyword("warning") {
            let msg = macros.expand(rhs);
            let problem = self.at(line, 0, msg);
            if keyword("error") {
                return Err(problem);
            }
            self.warnings.push(Problem {
                warning: true,
                ..problem
            });
            return Ok(None);
        }
        // `include [command|ifexist|into f] : file`
        let words_before: Vec<&str> = text[..p]
            .trim_end_matches([':', ' ', '\t'])
            .split_whitespace()
            .collect();
        if op == b':'
            && words_before
                .first()
                .is_some_and(|w| w.trim_start_matches('@').eq_ignore_ascii_case("include"))
        {
            return self
                .include(&words_before[1..], rhs, line, macros)
                .map(|_| None);
        }
        if op == b':' && raw_name.trim_start_matches('@').eq_ignore_ascii_case("use") {
            return Err(self.at(line, 0, format!(
                "`use {}` names a configuration template, which the playground does not have: write the settings it stands for",
                rhs.trim()
            )));
        }
        if word_before_op || op == b':' || op == 0 || raw_name.eq_ignore_ascii_case("queue") {
            return self.queue_statement(text, line).map(Some);
        }
        let name = macros.expand(raw_name);
        if op == b'=' && (name.starts_with('+') || name.starts_with('-')) {
            let value = if name.starts_with('+') { rhs } else { "" };
            macros.insert(
                &format!("MY.{}", &name[1..]),
                value,
                line.number,
                Source::File,
            );
            return Ok(None);
        }
        if name.is_empty()
            || !name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"_./".contains(&c))
        {
            return Err(self.at(line, 0, format!("Illegal Identifier: <{name}>")));
        }
        if op == b'@' {
            self.read_here(&name, rhs, line, macros)?;
            return Ok(None);
        }
        let mut value_text = rhs.to_string();
        if op == b'+' {
            if let Some(cur) = macros
                .entry(&name)
                .map(|e| e.value.clone())
                .filter(|v| !v.is_empty())
            {
                let sep = match plus_sep {
                    Some((c, true)) => format!(" {}{} ", c as char, c as char),
                    Some((c, false)) => (c as char).to_string(),
                    None => " ".into(),
                };
                value_text = format!("{cur}{sep}{rhs}");
            }
        }
        let value = macros.expand_self(&value_text, &name);
        macros.insert(&name, &value, line.number, Source::File);
        Ok(None)
    }

    fn queue_statement(&mut self, text: &str, line: &Line) -> Result<QueueLine, Problem> {
        let Some(args) = queue_args(text) else {
            return Err(self.at(line, 0, format!("cannot parse: {text}")));
        };
        if !self.frames.last().is_some_and(|f| f.top) {
            return Err(self.at(
                line,
                0,
                "Queue statement not allowed in include file or command",
            ));
        }
        let column = (text.len() - text.trim_start().len()) as u32 + 1;
        let mut q = QueueLine {
            args: args.to_string(),
            more_items: None,
            line: line.number,
            column,
        };
        // An item list opened with `(` and not closed on this line goes on
        // until a line that starts with `)`.
        if super::queue::opens_list(args) {
            let i = args.rfind('(').unwrap_or(0);
            {
                let mut items = Vec::new();
                loop {
                    let Some(l) = self.next_line_in_file() else {
                        return Err(self.at(line, i, format!(
                            "Reached end of file without finding closing brace ')' for Queue command on line {}",
                            line.number
                        )));
                    };
                    if l.text.starts_with('#') {
                        continue;
                    }
                    if l.text.starts_with(')') {
                        break;
                    }
                    items.push(l.text);
                }
                q.more_items = Some(items);
            }
        }
        Ok(q)
    }

    /// `name @= tag`: the lines up to `@tag` (comments and blank lines
    /// skipped, as everywhere) are the value, self references expanded.
    fn read_here(
        &mut self,
        name: &str,
        tag: &str,
        line: &Line,
        macros: &mut MacroSet,
    ) -> Result<(), Problem> {
        let mut data = String::new();
        loop {
            let Some(l) = self.next_line_in_file() else {
                return Err(self.at(
                    line,
                    0,
                    format!("Found end-of-file while scanning for '@{tag}'"),
                ));
            };
            if l.text.starts_with('#') || l.text.trim().is_empty() {
                continue;
            }
            if l.text.strip_prefix('@') == Some(tag) {
                let value = macros.expand_self(&data, name);
                macros.insert(name, &value, line.number, Source::File);
                return Ok(());
            }
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(&l.text);
        }
    }

    /// The next line of the current file only (a queue's item list).
    fn next_line_in_file(&mut self) -> Option<Line> {
        let f = self.frames.last_mut()?;
        let l = f.lines.get(f.pos)?.clone();
        f.pos += 1;
        Some(l)
    }

    fn include(
        &mut self,
        options: &[&str],
        rhs: &str,
        line: &Line,
        macros: &MacroSet,
    ) -> Result<(), Problem> {
        let target = macros.expand(rhs.trim());
        let command = options.iter().any(|o| o.eq_ignore_ascii_case("command"))
            || target.trim_end().ends_with('|');
        if command {
            return Err(self.at(line, 0, format!(
                "`include` of a command ({}) is refused: the playground runs nothing. Paste the command's output as a file and include that",
                target.trim()
            )));
        }
        let if_exists = options.iter().any(|o| o.eq_ignore_ascii_case("ifexist"));
        if let Some(o) = options.iter().find(|o| !o.eq_ignore_ascii_case("ifexist")) {
            return Err(self.at(
                line,
                0,
                format!("unexpected keyword(s) '{o}' after include"),
            ));
        }
        if self.frames.len() >= MAX_INCLUDE_DEPTH {
            return Err(self.at(line, 0, "includes nested too deep"));
        }
        match (self.files)(target.trim()) {
            Some(text) => {
                self.frames.push(Frame {
                    name: target.trim().to_string(),
                    lines: logical_lines(&text),
                    pos: 0,
                    ifs: IfStack::default(),
                    top: false,
                });
                Ok(())
            }
            None if if_exists => Ok(()),
            None => Err(self.at(
                line,
                0,
                format!(
                    "include file {} was not given: add it beside the submit file",
                    target.trim()
                ),
            )),
        }
    }

    /// An `if`/`elif`/`else`/`endif` line: `None` when it is not one.
    fn if_line(&mut self, text: &str, macros: &MacroSet) -> Option<Result<(), String>> {
        let version = self.version;
        let ifs = &mut self.frames.last_mut()?.ifs;
        if let Some(expr) = word_rest(text, "if") {
            let mut on = ifs.enabled();
            if on {
                match test_condition(expr, macros, version) {
                    Ok(v) => on = v,
                    Err(why) => {
                        return Some(Err(format!(
                            "{expr} is not a valid if condition because {why}"
                        )))
                    }
                }
            }
            return Some(if ifs.begin_if(on) {
                Ok(())
            } else {
                Err("if nesting too deep!".into())
            });
        }
        if word_rest(text, "else").is_some() {
            return Some(if ifs.begin_else() {
                Ok(())
            } else if ifs.inside_else() {
                Err("else is not allowed after else".into())
            } else {
                Err("else without matching if".into())
            });
        }
        if let Some(expr) = word_rest(text, "elif") {
            let mut on = ifs.elif_wanted();
            if on {
                match test_condition(expr, macros, version) {
                    Ok(v) => on = v,
                    Err(why) => {
                        return Some(Err(format!(
                            "{expr} is not a valid elif condition because {why}"
                        )))
                    }
                }
            }
            return Some(if ifs.begin_elif(on) {
                Ok(())
            } else if ifs.inside_else() {
                Err("elif is not allowed after else".into())
            } else {
                Err("elif without matching if".into())
            });
        }
        if word_rest(text, "endif").is_some() {
            return Some(if ifs.end_if() {
                Ok(())
            } else {
                Err("endif without matching if".into())
            });
        }
        None
    }
}

/// `text` starts with the word `w` (case-insensitive) followed by
/// whitespace or its end: the rest, trimmed.
fn word_rest<'t>(text: &'t str, w: &str) -> Option<&'t str> {
    let head = text.get(..w.len())?;
    let rest = &text[w.len()..];
    (head.eq_ignore_ascii_case(w) && (rest.is_empty() || rest.starts_with(char::is_whitespace)))
        .then(|| rest.trim())
}

fn is_word(text: &str, w: &str) -> bool {
    word_rest(text, w).is_some()
}

/// `is_queue_statement`: the arguments after `queue` (or `iterate`).
pub fn queue_args(line: &str) -> Option<&str> {
    if let Some(rest) = word_rest(line, "queue") {
        return Some(rest);
    }
    let first = line.split_whitespace().next()?;
    // `iter`, `itera`, … `iterate` (at least four letters).
    if first.len() >= 4 && "iterate".starts_with(&first.to_ascii_lowercase()) {
        return Some(line[first.len()..].trim());
    }
    None
}

/// condor_submit's if/elif/else state: a bit per nesting level.
#[derive(Clone, Copy)]
struct IfStack {
    state: u64,
    estate: u64,
    istate: u64,
    top: u64,
}

impl Default for IfStack {
    fn default() -> Self {
        IfStack {
            state: 1,
            estate: 0,
            istate: 0,
            top: 1,
        }
    }
}

impl IfStack {
    fn enabled(&self) -> bool {
        let mask = self.top | (self.top - 1);
        self.state & mask == mask
    }
    fn inside_if(&self) -> bool {
        self.top > 1
    }
    fn inside_else(&self) -> bool {
        self.top > 1 && self.istate & self.top == 0
    }
    fn begin_if(&mut self, on: bool) -> bool {
        if self.top >= 1 << 62 {
            return false;
        }
        self.top <<= 1;
        self.istate |= self.top;
        if on {
            self.state |= self.top;
            self.estate |= self.top;
        } else {
            self.state &= !self.top;
            self.estate &= !self.top;
        }
        true
    }
    fn begin_else(&mut self) -> bool {
        if self.istate & self.top == 0 {
            return false;
        }
        self.istate &= !self.top;
        if (self.estate | self.state) & self.top != 0 {
            self.state &= !self.top;
        } else {
            self.state |= self.top;
        }
        self.top > 1
    }
    /// Whether an `elif` here should be tested at all.
    fn elif_wanted(&self) -> bool {
        self.estate & self.top == 0 && (self.state & (self.top - 1)) == self.top - 1
    }
    fn begin_elif(&mut self, on: bool) -> bool {
        if self.istate & self.top == 0 {
            return false;
        }
        if self.estate & self.top != 0 {
            self.state &= !self.top;
        } else if on {
            self.estate |= self.top;
            self.state |= self.top;
        } else {
            self.state &= !self.top;
        }
        self.top > 1
    }
    fn end_if(&mut self) -> bool {
        self.istate &= !self.top;
        self.top >>= 1;
        if self.top == 0 {
            *self = IfStack::default();
            return false;
        }
        true
    }
}

/// `Test_config_if_expression`: `[!] true|false|number|yes|no|t|f`,
/// `version OP x.y.z`, `defined name`; the reason when it is none.
fn test_condition(expr: &str, macros: &MacroSet, version: (i32, i32, i32)) -> Result<bool, String> {
    let expanded;
    let mut e = expr;
    let had_macro = e.contains('$');
    if had_macro {
        expanded = macros.expand(e);
        e = expanded.trim_end();
    }
    e = e.trim_start();
    let mut inverted = false;
    if let Some(rest) = e.strip_prefix('!') {
        inverted = true;
        e = rest.trim_start();
    }
    let v = if had_macro && e.is_empty() {
        false
    } else {
        condition(e, macros, version)?
    };
    Ok(v != inverted)
}

fn condition(e: &str, macros: &MacroSet, version: (i32, i32, i32)) -> Result<bool, String> {
    let t = e.trim();
    let lower = t.to_ascii_lowercase();
    if let Ok(n) = t.parse::<f64>() {
        return Ok(n != 0.0);
    }
    match lower.as_str() {
        "true" | "yes" | "t" => return Ok(true),
        "false" | "no" | "f" => return Ok(false),
        _ => {}
    }
    if let Some(rest) = word_rest(t, "version").or_else(|| {
        (lower.starts_with("version") && lower[7..].starts_with(['<', '>', '=', '!']))
            .then(|| t[7..].trim())
    }) {
        return version_test(rest, version);
    }
    if lower == "defined" {
        return Ok(false);
    }
    if let Some(name) = word_rest(t, "defined") {
        if name.is_empty() {
            return Ok(false);
        }
        if name.parse::<f64>().is_ok()
            || ["true", "false"].contains(&name.to_ascii_lowercase().as_str())
        {
            return Ok(true);
        }
        if name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"_./".contains(&c))
        {
            let v = macros.lookup(name);
            let crufty = ["yes", "no", "t", "f"].contains(&name.to_ascii_lowercase().as_str());
            return Ok(v.as_ref().is_some_and(|v| !v.is_empty()) || (v.is_none() && crufty));
        }
        return Err("defined argument must be param name, boolean, or number".into());
    }
    if t.bytes()
        .any(|c| !(c.is_ascii_alphanumeric() || b"_./".contains(&c)))
    {
        return Err("complex conditionals are not supported".into());
    }
    Err("expression is not a conditional".into())
}

/// `version OP x.y[.z]` against the HTCondor version emulated.
fn version_test(rest: &str, version: (i32, i32, i32)) -> Result<bool, String> {
    let mut p = rest.trim_start();
    let negated = p.starts_with('!');
    if negated {
        p = &p[1..];
    }
    let mut op = 0i32; // -1 <, 0 =, 1 >
    if let Some(c) = p.chars().next().filter(|c| ('<'..='>').contains(c)) {
        op = c as i32 - '=' as i32;
        p = &p[1..];
    }
    let mut or_equal = false;
    if let Some(r) = p.strip_prefix('=') {
        or_equal = true;
        p = r;
    }
    let p = p.trim().trim_start_matches(['v', 'V']);
    let nums: Vec<i32> = p.split('.').map_while(|x| x.trim().parse().ok()).collect();
    if nums.len() < 2 || nums[0] < 6 {
        return Err("the version literal is invalid".into());
    }
    let want = (nums[0], nums[1], nums.get(2).copied().unwrap_or(version.2));
    // condor compares the literal with its own version, then swaps sides.
    let diff = match version.cmp(&want) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    };
    let r = diff == op || (or_equal && diff == 0);
    Ok(r != negated)
}
