//! The job ad under construction and what every `Set*` step shares:
//! submit keys read as condor_submit's `submit_param` reads them, the
//! attributes in insertion order with where each came from, and the
//! warnings and errors with the line they are about.

use std::collections::BTreeMap;

use crate::lang::ast::{Expr, Span, Value};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::lexer::Dialect;
use crate::lang::parser::parse_expr_in;
use crate::submit::config::SubmitConfig;
use crate::submit::hash::{Param, SubmitHash};
use crate::submit::origin::Origin;

use super::JobContext;

/// condor_submit's universe numbers (`condor_universe.h`).
pub const U_VANILLA: i64 = 5;
pub const U_SCHEDULER: i64 = 7;
pub const U_MPI: i64 = 8;
pub const U_GRID: i64 = 9;
pub const U_JAVA: i64 = 10;
pub const U_PARALLEL: i64 = 11;
pub const U_LOCAL: i64 = 12;
pub const U_VM: i64 = 13;

pub struct Job<'a> {
    pub hash: &'a dyn SubmitHash,
    pub ctx: &'a JobContext,
    pub attrs: Vec<(String, Expr)>,
    pub origins: BTreeMap<String, Origin>,
    pub clauses: Vec<(String, String)>,
    pub warnings: Vec<Diagnostic>,
    pub errors: Vec<Diagnostic>,
    /// condor_submit's `abort_code`: once set, later steps do nothing.
    pub aborted: bool,
    pub universe: i64,
    pub is_docker: bool,
    pub is_container: bool,
    pub grid_type: String,
    pub iwd: String,
    /// `+Attr` / `MY.Attr` names from SUBMIT_ATTRS (inserted late).
    pub forced_submit_attrs: Vec<String>,
    /// Custom `request_<name>` values written in double quotes.
    pub string_requests: Vec<String>,
    /// `set_submit_param`: keys condor_submit itself sets (the vm universe
    /// forces file transfer), read before the file's.
    pub submit_overrides: Vec<(String, Param)>,
}

impl<'a> Job<'a> {
    pub fn new(hash: &'a dyn SubmitHash, ctx: &'a JobContext) -> Job<'a> {
        Job {
            hash,
            ctx,
            attrs: Vec::new(),
            origins: BTreeMap::new(),
            clauses: Vec::new(),
            warnings: Vec::new(),
            errors: Vec::new(),
            aborted: false,
            universe: 0,
            is_docker: false,
            is_container: false,
            grid_type: String::new(),
            iwd: ctx.iwd.clone(),
            forced_submit_attrs: Vec::new(),
            string_requests: Vec::new(),
            submit_overrides: Vec::new(),
        }
    }

    pub fn cfg(&self) -> &'a SubmitConfig {
        self.hash.config()
    }

    // ---- submit keys -------------------------------------------------

    /// `submit_param(key)`: an empty value counts as not set.
    pub fn param(&self, key: &str) -> Option<Param> {
        let set = self.submit_overrides.iter().rev();
        if let Some((_, p)) = set.into_iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) {
            return Some(p.clone());
        }
        self.hash.param(key).filter(|p| !p.value.is_empty())
    }

    /// `set_submit_param(key, value)`: condor_submit's own value for a key.
    pub fn set_submit_param(&mut self, key: &str, value: &str, why: &str) {
        let p = Param {
            value: value.to_string(),
            origin: derived(why),
        };
        self.submit_overrides.push((key.to_string(), p));
    }

    /// `submit_param(key, alt)`: the alternate name when the first is unset.
    pub fn param2(&self, key: &str, alt: &str) -> Option<Param> {
        self.param(key).or_else(|| self.param(alt))
    }

    /// `submit_param_bool`: `def` when unset; an error when not a boolean.
    pub fn param_bool(&mut self, key: &str, alt: Option<&str>, def: bool) -> (bool, Option<Param>) {
        let p = match alt {
            Some(a) => self.param2(key, a),
            None => self.param(key),
        };
        let Some(p) = p else { return (def, None) };
        match super::values::string_is_boolean(&p.value) {
            Some(b) => (b, Some(p)),
            None => {
                let msg = format!("{}={} is invalid, must eval to a boolean.", key, p.value);
                self.error_at(&msg, Some(&p));
                (def, Some(p))
            }
        }
    }

    /// A configuration value (`param()`), empty counting as unset.
    pub fn config(&self, key: &str) -> Option<String> {
        self.cfg()
            .get(key)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    }

    /// `param_boolean(key, def)`.
    pub fn config_bool(&self, key: &str, def: bool) -> bool {
        self.config(key)
            .and_then(|v| super::values::string_is_boolean(&v))
            .unwrap_or(def)
    }

    // ---- diagnostics ---------------------------------------------------

    fn diag(msg: &str, p: Option<&Param>) -> Diagnostic {
        let mut d = Diagnostic::new(Span::NONE, Self::words(msg.trim_start_matches('\n')));
        if let Some(Param {
            origin: Origin::Line { line, key },
            ..
        }) = p
        {
            d.line = *line;
            d.column = 1;
            d.attribute = Some(key.clone());
        }
        d
    }

    /// condor_submit's messages start `WARNING: ` / `ERROR: `; the level
    /// is the diagnostic's, so the words begin after it.
    fn words(msg: &str) -> &str {
        msg.strip_prefix("WARNING: ")
            .or_else(|| msg.strip_prefix("ERROR: "))
            .unwrap_or(msg)
            .trim_end()
    }

    pub fn warn_at(&mut self, msg: &str, p: Option<&Param>) {
        self.warnings.push(Self::diag(msg, p).warning());
    }

    pub fn error_at(&mut self, msg: &str, p: Option<&Param>) {
        self.errors.push(Self::diag(msg, p));
        self.aborted = true;
    }

    // ---- the ad ----------------------------------------------------------

    fn position(&self, attr: &str) -> Option<usize> {
        self.attrs
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(attr))
    }

    pub fn lookup(&self, attr: &str) -> Option<&Expr> {
        self.position(attr).map(|i| &self.attrs[i].1)
    }

    pub fn has(&self, attr: &str) -> bool {
        self.position(attr).is_some()
    }

    /// A literal string attribute (`LookupString`).
    pub fn lookup_str(&self, attr: &str) -> Option<String> {
        match self.lookup(attr).map(super::values::fold_const) {
            Some(Some(Value::Str(s))) => Some(s.to_string()),
            _ => None,
        }
    }

    /// `LookupBool`: a boolean, or a number (non-zero is true).
    pub fn lookup_bool(&self, attr: &str) -> Option<bool> {
        match self.lookup(attr).map(super::values::fold_const) {
            Some(Some(Value::Bool(b))) => Some(b),
            Some(Some(Value::Int(i))) => Some(i != 0),
            Some(Some(Value::Real(r))) => Some(r != 0.0),
            _ => None,
        }
    }

    /// `LookupInteger`.
    pub fn lookup_int(&self, attr: &str) -> Option<i64> {
        match self.lookup(attr).map(super::values::fold_const) {
            Some(Some(Value::Int(i))) => Some(i),
            Some(Some(Value::Real(r))) => Some(r as i64),
            Some(Some(Value::Bool(b))) => Some(b as i64),
            _ => None,
        }
    }

    /// Insert or replace; a replaced attribute keeps its place and the
    /// spelling it was first inserted with, as a ClassAd's table does.
    pub fn insert(&mut self, attr: &str, e: Expr, origin: Origin) {
        let name = match self.position(attr) {
            Some(i) => {
                self.attrs[i].1 = e;
                self.attrs[i].0.clone()
            }
            None => {
                self.attrs.push((attr.to_string(), e));
                attr.to_string()
            }
        };
        self.origins.insert(name, origin);
    }

    pub fn assign_val(&mut self, attr: &str, v: Value, origin: Origin) {
        self.insert(attr, Expr::literal(v), origin);
    }
    pub fn assign_str(&mut self, attr: &str, s: &str, origin: Origin) {
        self.assign_val(attr, Value::Str(s.into()), origin);
    }
    pub fn assign_int(&mut self, attr: &str, i: i64, origin: Origin) {
        self.assign_val(attr, Value::Int(i), origin);
    }
    pub fn assign_bool(&mut self, attr: &str, b: bool, origin: Origin) {
        self.assign_val(attr, Value::Bool(b), origin);
    }

    /// `AssignJobExpr`: the text parsed as a ClassAd expression; a parse
    /// error is condor_submit's "Parse error in expression".
    pub fn assign_expr(&mut self, attr: &str, text: &str, origin: Origin) -> bool {
        match parse_expr_in(text, Dialect::Modern) {
            Ok(e) => {
                self.insert(attr, e, origin);
                true
            }
            Err(_) => {
                let at = match &origin {
                    Origin::Line { line, key } => Some(Param {
                        value: text.to_string(),
                        origin: Origin::Line {
                            line: *line,
                            key: key.clone(),
                        },
                    }),
                    _ => None,
                };
                let msg = format!("Parse error in expression: \n\t{} = {}\n\t", attr, text);
                self.error_at(&msg, at.as_ref());
                false
            }
        }
    }
}

/// Where a value came from: the line that set it.
pub fn from(p: &Param) -> Origin {
    p.origin.clone()
}

pub fn default(why: &str) -> Origin {
    Origin::Default {
        why: why.to_string(),
    }
}

pub fn derived(why: &str) -> Origin {
    Origin::Derived {
        why: why.to_string(),
    }
}

pub fn config(key: &str) -> Origin {
    Origin::Config {
        key: key.to_string(),
    }
}
