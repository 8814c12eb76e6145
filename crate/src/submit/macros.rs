//! The submit file's macro table and `$(…)` expansion, as condor_submit's
//! `expand_macro` and `evaluate_macro_func` do it (`config.cpp`): names are
//! case-insensitive; a value is kept as written and expanded when asked for,
//! innermost macro first; `$(name:default)`, `$ENV()`, `$INT()`, `$REAL()`,
//! `$STRING()`, `$EVAL()`, `$CHOICE()`, `$SUBSTR()`, `$RANDOM_CHOICE()`,
//! `$RANDOM_INTEGER()`, `$F[pnxdqabfwu]()`, `$BASENAME()`, `$DIRNAME()`;
//! `$$(…)` is left for match time and `$(DOLLAR)` becomes `$` last.
//!
//! Expansion is bounded (a macro that refers to itself without a base case
//! would expand forever in condor_submit): past [`MAX_EXPANSIONS`] steps or
//! [`MAX_EXPANDED_BYTES`] the value stops and the table records why.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use super::printf;

/// The most `$(…)` replacements one expansion makes.
pub const MAX_EXPANSIONS: usize = 10_000;
/// The longest value an expansion may build.
pub const MAX_EXPANDED_BYTES: usize = 1 << 20;

/// Where a macro's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A line of the submit file (or a file it includes).
    File,
    /// A queue statement's loop variable.
    Live,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The name as the file writes it.
    pub name: String,
    pub value: String,
    pub line: u32,
    pub source: Source,
}

/// condor_submit's defaults table: the predefined macros, whose values the
/// queue loop keeps current ("live").
#[derive(Clone, Debug, Default)]
pub struct Predefined {
    pub values: BTreeMap<String, String>,
}

impl Predefined {
    /// Set a predefined macro (`Cluster`, `Process`, `Row`, …).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.values.insert(name.to_ascii_lowercase(), value.into());
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
}

/// The macro table of a submit file.
#[derive(Default)]
pub struct MacroSet {
    entries: BTreeMap<String, Entry>,
    pub predefined: Predefined,
    /// What `$ENV()` reads: the environment condor_submit would see.
    pub env: BTreeMap<String, String>,
    /// The submit directory, for `$Ff()`'s full paths.
    pub cwd: String,
    /// Keys read (by the job builder or a `$(…)`): the rest draw
    /// condor_submit's "was unused" warning.
    used: RefCell<BTreeSet<String>>,
    /// `$RANDOM_…` draw from this (seeded: the same file gives the same jobs).
    rng: RefCell<u64>,
    /// What went wrong while expanding (a bad `$INT()`, a bound reached).
    problems: RefCell<Vec<String>>,
}

impl MacroSet {
    pub fn new(seed: u64) -> MacroSet {
        MacroSet {
            rng: RefCell::new(seed | 1),
            ..MacroSet::default()
        }
    }

    /// Define `name` (the last definition wins).
    pub fn insert(&mut self, name: &str, value: &str, line: u32, source: Source) {
        self.entries.insert(
            name.to_ascii_lowercase(),
            Entry {
                name: name.to_string(),
                value: value.to_string(),
                line,
                source,
            },
        );
    }

    pub fn remove(&mut self, name: &str) {
        self.entries.remove(&name.to_ascii_lowercase());
    }

    /// The file's own definition of `name`, unexpanded.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.get(&name.to_ascii_lowercase())
    }

    /// Every definition, sorted by name as condor_submit's table is.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    pub fn mark_used(&self, name: &str) {
        self.used.borrow_mut().insert(name.to_ascii_lowercase());
    }

    pub fn is_used(&self, name: &str) -> bool {
        self.used.borrow().contains(&name.to_ascii_lowercase())
    }

    /// Problems met while expanding since the last call.
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut *self.problems.borrow_mut())
    }

    fn problem(&self, why: String) {
        let mut p = self.problems.borrow_mut();
        if !p.contains(&why) {
            p.push(why);
        }
    }

    /// `lookup_macro`: the file's value, else the predefined one.
    pub fn lookup(&self, name: &str) -> Option<String> {
        let key = name.to_ascii_lowercase();
        if let Some(e) = self.entries.get(&key) {
            self.used.borrow_mut().insert(key);
            return Some(e.value.clone());
        }
        self.predefined.get(name).map(str::to_string)
    }

    /// A key's value, fully expanded; `None` when nothing defines it.
    pub fn param(&self, name: &str) -> Option<String> {
        let raw = self.lookup(name)?;
        Some(self.expand(&raw))
    }

    fn random(&self, n: u64) -> u64 {
        // xorshift64*: repeatable, and good enough to pick an item.
        let mut x = *self.rng.borrow();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *self.rng.borrow_mut() = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
    }

    /// `expand_macro`: every `$(…)` replaced, innermost first, then
    /// `$(DOLLAR)` as `$`; `$$(…)` kept.
    pub fn expand(&self, value: &str) -> String {
        self.expand_with(value, &|_, _| false)
    }

    /// `expand_self_macro`: only references to `name` itself (what a
    /// definition `X = $(X) more` reads at the time it is made).
    pub fn expand_self(&self, value: &str, name: &str) -> String {
        let not_self = |id: MacroId, body: &str| -> bool {
            if !matches!(id, MacroId::Normal | MacroId::Filename) {
                return true;
            }
            let n = name.len();
            let same = body.len() >= n
                && body[..n].eq_ignore_ascii_case(name)
                && (body.len() == n || body.as_bytes()[n] == b':');
            !same
        };
        self.replace_macros(value, &not_self)
    }

    fn expand_with(&self, value: &str, extra_skip: &dyn Fn(MacroId, &str) -> bool) -> String {
        let mut s = self.replace_macros(value, extra_skip);
        // $(DOLLAR) last, so a `$` it makes is not expanded again.
        let only_dollar = |id: MacroId, body: &str| !is_dollar(id, body);
        let mut from = 0;
        while let Some(m) = next_macro(&s, from, &only_dollar) {
            s = format!("{}${}", &s[..m.start], &s[m.end..]);
            from = m.start + 1;
        }
        s
    }

    /// Replace the macros `skip` does not pass over (nor `$(DOLLAR)`),
    /// innermost first, within the bounds: [`MAX_EXPANSIONS`] steps and
    /// [`MAX_EXPANDED_BYTES`] (`X = $(X)$(X)` on forty lines would double
    /// forty times).
    fn replace_macros(&self, value: &str, skip: &dyn Fn(MacroId, &str) -> bool) -> String {
        let mut s = value.to_string();
        let skip = |id: MacroId, body: &str| is_dollar(id, body) || skip(id, body);
        for _ in 0..MAX_EXPANSIONS {
            let Some(m) = next_macro(&s, 0, &skip) else {
                return s;
            };
            let v = self.evaluate(&m, &s);
            if m.start + v.len() + (s.len() - m.end) > MAX_EXPANDED_BYTES {
                self.problem(format!(
                    "macro expansion stopped: the value grew past {} MB",
                    MAX_EXPANDED_BYTES >> 20
                ));
                return s;
            }
            s = format!("{}{}{}", &s[..m.start], v, &s[m.end..]);
        }
        if next_macro(&s, 0, &skip).is_some() {
            self.problem(format!(
                "macro expansion stopped after {MAX_EXPANSIONS} steps (a macro that refers to itself without end?)"
            ));
        }
        s
    }

    /// The text a found macro stands for (`evaluate_macro_func`).
    fn evaluate(&self, m: &Found, s: &str) -> String {
        let body = &s[m.body.0..m.body.1];
        let func = &s[m.start + 1..m.body.0 - 1];
        match m.id {
            MacroId::Normal => {
                let (name, default) = split_colon(body);
                match self.lookup(name) {
                    Some(v) if !v.is_empty() || default.is_none() => v,
                    _ => default.unwrap_or("").to_string(),
                }
            }
            MacroId::Env => {
                let (name, default) = split_colon(body);
                match self.env.get(name) {
                    Some(v) => v.clone(),
                    None => default.unwrap_or("UNDEFINED").to_string(),
                }
            }
            MacroId::RandomChoice => self.random_choice(body),
            MacroId::RandomInteger => self.random_integer(body),
            MacroId::Choice => self.choice(body),
            MacroId::Substr => self.substr(body),
            MacroId::Int | MacroId::Real => self.number(body, m.id == MacroId::Int),
            MacroId::String => self.string(body),
            MacroId::Eval => self.eval(body),
            MacroId::Basename | MacroId::Dirname | MacroId::Filename => {
                self.filename(m.id, func, body)
            }
        }
    }

    /// A macro's value expanded, or the text itself when no macro has that
    /// name (`$INT(3)`, `$EVAL(1+2)`).
    fn value_or_text(&self, name: &str) -> String {
        let v = self.lookup(name.trim()).unwrap_or_else(|| name.to_string());
        if v.contains('$') {
            self.expand(&v)
        } else {
            v
        }
    }

    fn random_choice(&self, body: &str) -> String {
        let mut entries: Vec<String> = split_list(body);
        if entries.len() == 1 {
            if let Some(list) = self.lookup(&entries[0]) {
                entries = split_list(&self.expand(&list));
            }
        }
        if entries.is_empty() {
            self.problem("$RANDOM_CHOICE() macro is empty!".into());
            return String::new();
        }
        let i = self.random(entries.len() as u64) as usize;
        entries.swap_remove(i)
    }

    fn random_integer(&self, body: &str) -> String {
        let parts: Vec<&str> = body.split(',').map(str::trim).collect();
        let num = |s: Option<&&str>| s.and_then(|s| s.parse::<i64>().ok());
        let Some(min) = num(parts.first()) else {
            self.problem("$RANDOM_INTEGER() config macro: invalid min!".into());
            return "0".into();
        };
        let max = num(parts.get(1)).unwrap_or_else(|| {
            self.problem("$RANDOM_INTEGER() config macro: invalid max!".into());
            min
        });
        let mut step = num(parts.get(2)).unwrap_or(1);
        if step < 1 {
            self.problem("$RANDOM_INTEGER() config macro: invalid step!".into());
            step = 1;
        }
        let min = min.min(max);
        let count = ((max - min + step) / step).max(1) as u64;
        (min + self.random(count) as i64 * step).to_string()
    }

    fn choice(&self, body: &str) -> String {
        let mut items = body.splitn(2, ',');
        let index_text = self.value_or_text(items.next().unwrap_or("").trim());
        let index = match long_param(&index_text) {
            Some(i) if (0..i32::MAX as i64).contains(&i) => i as usize,
            _ => {
                self.problem(format!("$CHOICE() error: '{index_text}' is invalid index"));
                0
            }
        };
        let Some(rest) = items.next() else {
            self.problem("$CHOICE() error: no list".into());
            return String::new();
        };
        let list = if rest.contains(',') {
            rest.to_string()
        } else {
            match self.lookup(rest.trim()) {
                Some(v) => self.expand(&v),
                None => {
                    self.problem(format!(
                        "$CHOICE() macro: no list named \"{}\"!",
                        rest.trim()
                    ));
                    return String::new();
                }
            }
        };
        match list.split(',').nth(index) {
            Some(item) => item.trim().to_string(),
            None => {
                self.problem(format!(
                    "$CHOICE() config macro: index {index} is out of range!"
                ));
                String::new()
            }
        }
    }

    fn substr(&self, body: &str) -> String {
        let mut args = body.splitn(3, ',');
        let name = args.next().unwrap_or("");
        let Some(start_arg) = args.next() else {
            self.problem("$SUBSTR() macro: no length specified!".into());
            return String::new();
        };
        let start_text = self.value_or_text(start_arg);
        let Some(start) = long_param(&start_text) else {
            self.problem(format!(
                "$SUBSTR() macro: {start_text} is invalid start index!"
            ));
            return String::new();
        };
        let len = match args.next() {
            Some(l) => {
                let t = self.value_or_text(l);
                match long_param(&t) {
                    Some(n) => n,
                    None => {
                        self.problem(format!("$SUBSTR() macro: {t} is invalid length !"));
                        return String::new();
                    }
                }
            }
            None => i64::from(i32::MAX / 2),
        };
        let Some(v) = self.lookup(name) else {
            return String::new();
        };
        let v = self.expand(&v);
        let b = v.as_bytes();
        let cch = b.len() as i64;
        let start = if start < 0 {
            (cch + start).max(0)
        } else {
            start.min(cch)
        };
        let rest = cch - start;
        let len = if len < 0 {
            (rest + len).max(0)
        } else {
            len.min(rest)
        };
        String::from_utf8_lossy(&b[start as usize..(start + len) as usize]).into_owned()
    }

    fn number(&self, body: &str, int: bool) -> String {
        let (name, fmt) = match body.split_once(',') {
            Some((n, f)) => (n, Some(f)),
            None => (body, None),
        };
        let v = self.value_or_text(name);
        if int {
            match long_param(&v) {
                Some(i) => printf::format_int(fmt.unwrap_or("%lld"), i).unwrap_or_else(|| {
                    self.problem(format!(
                        "$INT() macro: '{}' is not a valid format specifier!",
                        fmt.unwrap_or("")
                    ));
                    fmt.unwrap_or("").to_string()
                }),
                None => {
                    self.problem(format!(
                        "$INT() macro: {v} does not evaluate to an integer!"
                    ));
                    String::new()
                }
            }
        } else {
            match double_param(&v) {
                Some(d) => {
                    let out = printf::format_real(fmt.unwrap_or("%.16G"), d).unwrap_or_else(|| {
                        self.problem(format!(
                            "$REAL() macro: '{}' is not a valid format specifier!",
                            fmt.unwrap_or("")
                        ));
                        fmt.unwrap_or("").to_string()
                    });
                    if fmt.is_some() && !out.contains('.') {
                        out + ".0"
                    } else {
                        out
                    }
                }
                None => {
                    self.problem(format!("$REAL() macro: {v} does not evaluate to an real!"));
                    String::new()
                }
            }
        }
    }

    fn string(&self, body: &str) -> String {
        let (name, fmt) = match body.split_once(',') {
            Some((n, f)) => (n, Some(f)),
            None => (body, None),
        };
        let mut v = self.value_or_text(name);
        if let Some(s) = eval_text(&v).and_then(|x| match x {
            crate::lang::value::Value::Str(s) => Some(s.to_string()),
            _ => None,
        }) {
            v = s;
        }
        match fmt {
            Some(f) => printf::format_str(f, &v).unwrap_or_else(|| {
                self.problem(format!(
                    "$STRING macro: '{f}' is not a valid format specifier!"
                ));
                f.to_string()
            }),
            None => v,
        }
    }

    fn eval(&self, body: &str) -> String {
        let v = self.value_or_text(body);
        match eval_text(&v) {
            Some(crate::lang::value::Value::Str(s)) => s.to_string(),
            Some(x) => x.to_string(),
            None => v,
        }
    }

    fn filename(&self, id: MacroId, func: &str, body: &str) -> String {
        let (body, kill_suffix) = match id {
            MacroId::Basename => match body.rsplit_once(',') {
                Some((b, s)) if !s.contains(')') => (b, Some(s.trim_start())),
                _ => (body, None),
            },
            _ => (body, None),
        };
        let value = self.value_or_text(body);
        let flags = FileFlags::of(id, func);
        file_part(&value, &flags, kill_suffix, &self.cwd)
    }
}

/// The flags of `$F…()`: which parts of a path to keep, and how.
#[derive(Default)]
struct FileFlags {
    /// 1 extension, 2 name, 4 full directory, 8 parent directories.
    parts: u8,
    dirs: usize,
    quoted: bool,
    arg_quote: bool,
    full_path: bool,
    bare: bool,
    path_char: Option<char>,
}

impl FileFlags {
    fn of(id: MacroId, func: &str) -> FileFlags {
        let mut f = FileFlags::default();
        match id {
            MacroId::Basename => f.parts = 1 | 2,
            MacroId::Dirname => f.parts = 4,
            _ => {
                for c in func.trim_start_matches('F').chars() {
                    match c.to_ascii_lowercase() {
                        'x' => f.parts |= 1,
                        'n' => f.parts |= 2,
                        'p' => f.parts |= 4,
                        'd' => {
                            f.parts |= 8;
                            f.dirs += 1
                        }
                        'a' => f.arg_quote = true,
                        'b' => f.bare = true,
                        'f' => f.full_path = true,
                        'w' => f.path_char = Some('\\'),
                        'u' => f.path_char = Some('/'),
                        'q' => f.quoted = true,
                        _ => {}
                    }
                }
            }
        }
        f
    }
}

/// `$F…(path)`: the parts of `path` the flags ask for.
fn file_part(value: &str, f: &FileFlags, kill_suffix: Option<&str>, cwd: &str) -> String {
    // Surrounding quotes of either kind are dropped (then added back when
    // asked for).
    let b = value.as_bytes();
    let unquoted = if b.len() > 1 && b[0] == b[b.len() - 1] && (b[0] == b'"' || b[0] == b'\'') {
        &value[1..value.len() - 1]
    } else {
        value
    };
    let mut path = if f.full_path && !unquoted.starts_with('/') && !cwd.is_empty() {
        let name = unquoted
            .strip_prefix("./")
            .filter(|n| n.len() > 0 && unquoted.len() > 2)
            .unwrap_or(unquoted);
        format!("{}/{}", cwd.trim_end_matches('/'), name)
    } else {
        unquoted.to_string()
    };
    if let Some(c) = f.path_char {
        let other = if c == '/' { '\\' } else { '/' };
        path = path.replace(other, &c.to_string());
    }
    let end = path.len();
    let ixn = path.rfind(['/', '\\']).map_or(0, |i| i + 1);
    let mut ixx = path[ixn..].rfind('.').map_or(end, |i| ixn + i);
    let mut parts = f.parts;
    if let Some(sfx) = kill_suffix {
        let n = sfx.len();
        if end >= ixn + n && path[end - n..].eq_ignore_ascii_case(sfx) {
            ixx = end - n;
            parts &= !1;
        }
    }
    if ixn == 0 && parts & 3 != 0 {
        parts &= !(4 | 8);
    }
    let (from, to) = match parts & 0xF {
        1 => (if f.bare && ixx < end { ixx + 1 } else { ixx }, end),
        3 => (ixn, end),
        2 => (ixn, ixx),
        0 | 7 | 5 => (0, end),
        4 => (0, if f.bare && ixn > 0 { ixn - 1 } else { ixn }),
        6 => (0, ixx),
        _ => {
            if ixn > 0 {
                // The last `dirs` directories, then the name as asked.
                let seps: Vec<usize> = path
                    .char_indices()
                    .filter(|(_, c)| *c == '/' || *c == '\\')
                    .map(|(i, _)| i + 1)
                    .collect();
                let keep = seps.len().saturating_sub(f.dirs);
                let from = if keep > 0 { seps[keep - 1] } else { 0 };
                let to = match parts & 3 {
                    2 => ixx,
                    0 => {
                        if f.bare && ixn > 0 {
                            ixn - 1
                        } else {
                            ixn
                        }
                    }
                    _ => end,
                };
                (from, to.max(from))
            } else {
                (0, 0)
            }
        }
    };
    let mut out = path.get(from..to.max(from)).unwrap_or("").to_string();
    if f.quoted {
        let q = if f.arg_quote { '\'' } else { '"' };
        out = format!("{q}{}{q}", out.trim_matches(q));
    }
    out
}

/// `string_is_long_param`: an integer, or an expression that evaluates
/// to one.
pub fn long_param(text: &str) -> Option<i64> {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(i);
    }
    match eval_text(t)? {
        crate::lang::value::Value::Int(i) => Some(i),
        crate::lang::value::Value::Bool(b) => Some(b as i64),
        crate::lang::value::Value::Real(r) if r.is_finite() => Some(r as i64),
        _ => None,
    }
}

/// `string_is_double_param`: a real, or an expression that evaluates to
/// a number.
pub fn double_param(text: &str) -> Option<f64> {
    let t = text.trim();
    if let Ok(r) = t.parse::<f64>() {
        return Some(r);
    }
    match eval_text(t)? {
        crate::lang::value::Value::Int(i) => Some(i as f64),
        crate::lang::value::Value::Real(r) => Some(r),
        crate::lang::value::Value::Bool(b) => Some(b as i64 as f64),
        _ => None,
    }
}

/// A ClassAd expression's value, evaluated alone (`$EVAL()`, `$INT()`).
fn eval_text(text: &str) -> Option<crate::lang::value::Value> {
    let e = crate::lang::parser::parse_expr_in(text, crate::lang::lexer::Dialect::Modern).ok()?;
    let mut ev = crate::lang::eval::Evaluator::new(Default::default());
    Some(ev.eval_expr(&e))
}

fn split_colon(body: &str) -> (&str, Option<&str>) {
    match body.split_once(':') {
        Some((n, d)) => (n, Some(d)),
        None => (body, None),
    }
}

/// `split()` of a list: items separated by commas or whitespace, trimmed,
/// empty ones dropped.
fn split_list(s: &str) -> Vec<String> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect()
}

/// The kind of a `$…(` prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroId {
    Normal,
    Env,
    RandomChoice,
    RandomInteger,
    Choice,
    Substr,
    Int,
    Real,
    String,
    Eval,
    Basename,
    Dirname,
    Filename,
}

/// What a body may hold: identifier characters (with a `:default`), or
/// anything up to `)`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    Anything,
    IdColon,
}

fn is_dollar(id: MacroId, body: &str) -> bool {
    id == MacroId::Normal && body.eq_ignore_ascii_case("DOLLAR")
}

/// `is_config_macro`: the kind of the prefix `$NAME` (without `(`), or
/// `None` when it is not one (`$$` is match time's).
fn prefix_kind(prefix: &str) -> Option<(MacroId, Body)> {
    if prefix == "$" {
        return Some((MacroId::Normal, Body::IdColon));
    }
    if prefix.starts_with("$$") {
        return None;
    }
    let name = &prefix[1..];
    if let Some(flags) = name.strip_prefix('F') {
        if flags
            .chars()
            .all(|c| "pnxdqabfwu".contains(c.to_ascii_lowercase()))
        {
            return Some((MacroId::Filename, Body::Anything));
        }
    }
    let id = match name {
        "ENV" => return Some((MacroId::Env, Body::IdColon)),
        "RANDOM_CHOICE" => MacroId::RandomChoice,
        "RANDOM_INTEGER" => MacroId::RandomInteger,
        "CHOICE" => MacroId::Choice,
        "SUBSTR" => MacroId::Substr,
        "INT" => MacroId::Int,
        "REAL" => MacroId::Real,
        "STRING" => MacroId::String,
        "EVAL" => MacroId::Eval,
        "BASENAME" => MacroId::Basename,
        "DIRNAME" => MacroId::Dirname,
        _ => return None,
    };
    Some((id, Body::Anything))
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"_./".contains(&c)
}

/// A macro found in a text: `text[start..end]` is `$NAME(body)`.
#[derive(Debug)]
struct Found {
    id: MacroId,
    start: usize,
    end: usize,
    body: (usize, usize),
}

/// `next_config_macro`: the first macro at or after `from` that `skip`
/// does not pass over. A body that is not a macro's (`$(a b)`) is passed
/// over, and its inner macros found instead (`$(a$(b))` expands `$(b)`
/// first).
fn next_macro(s: &str, from: usize, skip: &dyn Fn(MacroId, &str) -> bool) -> Option<Found> {
    let b = s.as_bytes();
    let mut search = from;
    'outer: loop {
        // The next `$NAME(` whose prefix is a macro's.
        let (start, open, id, body_kind) = loop {
            let dollar = search + s.get(search..)?.find('$')?;
            let mut p = dollar + 1;
            if b.get(p) == Some(&b'$') {
                p += 1;
            }
            while p < b.len() && (b[p].is_ascii_alphanumeric() || b[p] == b'_') {
                p += 1;
            }
            if b.get(p) == Some(&b'(') {
                if let Some((id, kind)) = prefix_kind(&s[dollar..p]) {
                    break (dollar, p, id, kind);
                }
            }
            search = p.max(dollar + 1);
        };
        let name = open + 1;
        let mut v = name;
        match body_kind {
            Body::Anything => {
                while v < b.len() && b[v] != b')' {
                    v += 1;
                }
            }
            Body::IdColon => {
                let mut after_colon = false;
                while v < b.len() && b[v] != b')' {
                    let c = b[v];
                    v += 1;
                    if c == b':' && !after_colon {
                        after_colon = true;
                        continue;
                    }
                    if after_colon {
                        if c == b'(' {
                            if let Some(close) = s[v..].find(')') {
                                v += close + 1;
                                continue;
                            }
                        } else if b"$ ,\\:".contains(&c) {
                            continue;
                        }
                    }
                    if !is_id_char(c) {
                        search = name;
                        continue 'outer;
                    }
                }
            }
        }
        if v < b.len() && b[v] == b')' {
            if skip(id, &s[name..v]) {
                search = v;
                continue;
            }
            return Some(Found {
                id,
                start,
                end: v + 1,
                body: (name, v),
            });
        }
        search = name;
    }
}

#[cfg(test)]
mod tests;
