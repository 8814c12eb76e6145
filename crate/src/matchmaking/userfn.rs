//! Externally supplied functions (Condor-G / SAMGrid, seed 003), as data:
//! a pool may carry an ad with `MyType = "Functions"` whose attributes
//! define functions that Rank and Requirements can call by name:
//!
//! ```text
//! [ MyType = "Functions";
//!   sam_rank_data_overlap = [
//!     Params = { "station", "dataset", "nameservice" };
//!     Overlap = [ 'cdf-toronto' = [ 'jbotOh-361404' = 120 ] ];
//!     Body = Overlap[station][dataset] ?: 0 ] ]
//! ```
//!
//! A body is a ClassAd expression over its parameters and the other
//! attributes of its definition (lookup tables); it cannot see the calling
//! ads, so a call depends on its arguments only and its result is cached
//! for the evaluator's lifetime (one negotiation cycle). Nothing is ever
//! executed but ClassAd evaluation.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::lang::ast::{ClassAd, Expr, Span};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::eval::{Env, ExternalFunctions, Frame};
use crate::lang::value::Value;

#[derive(Debug)]
pub struct UserFunction {
    pub name: String,
    pub params: Vec<String>,
    /// The definition record (Params, Body and any tables).
    pub def: Arc<ClassAd>,
    pub body: Expr,
}

#[derive(Debug, Default)]
pub struct UserFunctions {
    by_name: FxHashMap<String, Arc<UserFunction>>,
}

/// Is this ad a function library?
pub fn is_library(ad: &ClassAd) -> bool {
    matches!(ad.get("MyType").and_then(|e| e.as_literal()), Some(Value::Str(s)) if s.eq_ignore_ascii_case("Functions"))
}

impl UserFunctions {
    /// Read every function defined in a library ad.
    pub fn from_ad(ad: &ClassAd) -> Result<UserFunctions, Vec<Diagnostic>> {
        let mut out = UserFunctions::default();
        let mut problems = Vec::new();
        for (name, e) in ad.iter() {
            if name.eq_ignore_ascii_case("MyType") || name.eq_ignore_ascii_case("TargetType") {
                continue;
            }
            match Self::one(name, e) {
                Ok(f) => {
                    out.by_name.insert(name.to_ascii_lowercase(), Arc::new(f));
                }
                Err(msg) => problems.push(Diagnostic::new(e.span, msg).in_attribute(name)),
            }
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(problems)
        }
    }

    fn one(name: &str, e: &Expr) -> Result<UserFunction, String> {
        let crate::lang::ast::ExprKind::Record(def) = &e.kind else {
            return Err(format!(
                "function `{name}` must be a record [ Params = {{…}}; Body = … ]"
            ));
        };
        let params = match def.get("Params").map(|p| &p.kind) {
            Some(crate::lang::ast::ExprKind::List(items)) => items
                .iter()
                .map(|i| match i.as_literal() {
                    Some(Value::Str(s)) => Ok(s.to_string()),
                    _ => Err(format!(
                        "function `{name}`: Params must be a list of strings"
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            None => vec![],
            _ => {
                return Err(format!(
                    "function `{name}`: Params must be a list of strings"
                ))
            }
        };
        let body = def
            .get("Body")
            .cloned()
            .ok_or_else(|| format!("function `{name}` has no Body"))?;
        Ok(UserFunction {
            name: name.to_string(),
            params,
            def: def.clone(),
            body,
        })
    }

    pub fn get(&self, name: &str) -> Option<Arc<UserFunction>> {
        self.by_name.get(&name.to_ascii_lowercase()).cloned()
    }

    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.by_name.values().map(|f| f.name.clone()).collect();
        v.sort();
        v
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}

impl ExternalFunctions for UserFunctions {
    fn defines(&self, name: &str) -> bool {
        self.by_name.contains_key(&name.to_ascii_lowercase())
    }

    fn bind(&self, name: &str, args: &[Value]) -> Option<(Expr, Env)> {
        let f = self.get(name)?;
        Some((f.body.clone(), f.call_env(args)?))
    }
}

impl UserFunction {
    /// The scope a call evaluates its body in: the parameters bound to the
    /// argument values, inside the definition record.
    pub fn call_env(&self, args: &[Value]) -> Option<Env> {
        if args.len() != self.params.len() {
            return None;
        }
        let mut bound = ClassAd::new();
        for (p, v) in self.params.iter().zip(args) {
            bound.insert(
                p,
                Expr::new(crate::lang::ast::ExprKind::Literal(v.clone()), Span::NONE),
            );
        }
        let def_env = Env::Frame(Arc::new(Frame {
            ad: self.def.clone(),
            parent: Env::None,
        }));
        Some(Env::Frame(Arc::new(Frame {
            ad: Arc::new(bound),
            parent: def_env,
        })))
    }
}
