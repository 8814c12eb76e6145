//! Pool queries, as `condor_status -constraint` and `condor_q -constraint`
//! ask them (the Condor manual, §4.1): which ads of a pool satisfy a
//! constraint evaluated with each ad as MY, and what some expressions
//! (columns, `-af`) are on those ads. Also the tools' default tables and
//! summaries ([`tables`], [`summary`]) and `-af`'s way of printing values
//! ([`autoformat`]).
//!
//! A query never holds the pool: ads are offered one at a time
//! ([`Query::select`]), so a caller can stream a pool of any size.

pub mod autoformat;
pub mod summary;
pub mod tables;
pub mod view;

use std::sync::Arc;

use crate::formats::Projection;
use crate::lang::ast::{ClassAd, Expr};
use crate::lang::diagnostic::Diagnostic;
use crate::lang::eval::Evaluator;
use crate::lang::lexer::Dialect;
use crate::lang::parser::parse_expr_in;
use crate::lang::value::Value;

/// A query's expressions, parsed.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// No constraint: every ad matches (`condor_status` with no `-const`).
    pub constraint: Option<Expr>,
    pub columns: Vec<Expr>,
    /// Sort keys, most significant first.
    pub sort: Vec<Expr>,
}

/// Which expression of a query did not parse, and why.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct QueryError {
    /// `constraint`, `column 2`, `sort key 1`.
    pub which: String,
    /// The expression's own text, for showing the error in place.
    pub text: String,
    pub diagnostic: Diagnostic,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.which, self.diagnostic)
    }
}

fn parse_one(which: String, text: &str, dialect: Dialect) -> Result<Expr, Box<QueryError>> {
    parse_expr_in(text, dialect).map_err(|d| {
        Box::new(QueryError {
            which,
            text: text.to_string(),
            diagnostic: d.locate(text),
        })
    })
}

impl Query {
    /// Parse a query; the first expression that does not parse is the error.
    pub fn parse(
        constraint: Option<&str>,
        columns: &[String],
        sort: &[String],
        dialect: Dialect,
    ) -> Result<Query, Box<QueryError>> {
        let constraint = constraint
            .filter(|c| !c.trim().is_empty())
            .map(|c| parse_one("constraint".into(), c, dialect))
            .transpose()?;
        let columns = columns
            .iter()
            .enumerate()
            .map(|(i, c)| parse_one(format!("column {}", i + 1), c, dialect))
            .collect::<Result<_, _>>()?;
        let sort = sort
            .iter()
            .enumerate()
            .map(|(i, c)| parse_one(format!("sort key {}", i + 1), c, dialect))
            .collect::<Result<_, _>>()?;
        Ok(Query {
            constraint,
            columns,
            sort,
        })
    }

    /// What the query reads of each ad, for a reader to keep only that
    /// (see [`Projection`]): its expressions' reach, the ad's kind and,
    /// when asked for, the default table's columns and the summary's.
    pub fn projection(&self, table: bool, summary: bool) -> Projection {
        let exprs = self
            .constraint
            .iter()
            .chain(&self.columns)
            .chain(&self.sort);
        let mut names: Vec<&str> = tables::KIND_READS.to_vec();
        if table {
            names.extend(tables::ROW_READS);
        }
        if summary {
            names.extend(summary::SUMMARY_READS);
        }
        Projection::reaching(exprs, names)
    }

    /// Does `ad` satisfy the constraint? Evaluated with the ad as MY and
    /// no TARGET; as condor_status, `true` or a non-zero number matches,
    /// anything else (false, undefined, error, a string) does not.
    pub fn matches(&self, ev: &mut Evaluator, ad: &Arc<ClassAd>) -> bool {
        ev.set_ads(Some(ad.clone()), None);
        match &self.constraint {
            None => true,
            Some(c) => holds(&ev.eval_expr(c)),
        }
    }

    /// The ad's row when it matches: its column values (and sort keys).
    pub fn select(&self, ev: &mut Evaluator, ad: &Arc<ClassAd>) -> Option<Selected> {
        if !self.matches(ev, ad) {
            return None;
        }
        Some(Selected {
            values: self.columns.iter().map(|c| ev.eval_expr(c)).collect(),
            keys: self.sort.iter().map(|c| ev.eval_expr(c)).collect(),
        })
    }
}

/// One matching ad's values.
#[derive(Clone, Debug)]
pub struct Selected {
    pub values: Vec<Value>,
    pub keys: Vec<Value>,
}

/// Whether a constraint's value selects the ad.
pub fn holds(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Real(x) => *x != 0.0 && !x.is_nan(),
        _ => false,
    }
}

/// The order `--sort` puts rows in: by each key in turn, undefined and
/// error last, numbers numerically, strings without regard to case, and
/// otherwise by the values' printed form; ties keep the pool's order.
pub fn compare_keys(a: &[Value], b: &[Value]) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Int(_) | Value::Real(_) | Value::Bool(_) => 0,
            Value::Str(_) => 1,
            Value::Undefined | Value::Error => 3,
            _ => 2,
        }
    }
    fn num(v: &Value) -> f64 {
        match v {
            Value::Int(i) => *i as f64,
            Value::Real(x) => *x,
            Value::Bool(b) => *b as u8 as f64,
            _ => 0.0,
        }
    }
    for (x, y) in a.iter().zip(b) {
        let o = rank(x).cmp(&rank(y)).then_with(|| match (x, y) {
            (Value::Str(s), Value::Str(t)) => crate::lang::value::cmp_nocase(s, t),
            _ if rank(x) == 0 => crate::lang::value::rank_cmp(num(x), num(y)),
            _ => autoformat::text(x).cmp(&autoformat::text(y)),
        });
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::eval::EvalOptions;
    use crate::lang::parser::parse_classad;

    fn ad(text: &str) -> Arc<ClassAd> {
        Arc::new(parse_classad(text).unwrap())
    }

    #[test]
    fn the_manuals_constraint_selects_idle_big_machines() {
        let q = Query::parse(
            Some("KeyboardIdle > 20*60 && Memory > 100"),
            &[],
            &[],
            Dialect::Auto,
        )
        .unwrap();
        let mut ev = Evaluator::new(EvalOptions::default());
        let yes = ad("[ KeyboardIdle = 1201; Memory = 128 ]");
        let idle_small = ad("[ KeyboardIdle = 5000; Memory = 64 ]");
        let busy = ad("[ KeyboardIdle = 60; Memory = 1024 ]");
        let unknown = ad("[ Memory = 1024 ]");
        assert!(q.matches(&mut ev, &yes));
        assert!(!q.matches(&mut ev, &idle_small));
        assert!(!q.matches(&mut ev, &busy));
        assert!(!q.matches(&mut ev, &unknown), "undefined does not match");
    }

    #[test]
    fn numbers_match_when_not_zero_and_strings_never() {
        assert!(holds(&Value::Int(2)) && holds(&Value::Real(0.5)));
        assert!(!holds(&Value::Int(0)) && !holds(&Value::Real(f64::NAN)));
        assert!(!holds(&Value::Str("true".into())) && !holds(&Value::Undefined));
    }

    #[test]
    fn a_bad_expression_names_itself_and_its_column() {
        let e = Query::parse(Some("Memory >"), &[], &[], Dialect::Auto).unwrap_err();
        assert_eq!(e.which, "constraint");
        assert_eq!(e.diagnostic.column, 9);
        let e = Query::parse(None, &["Name".into(), "1 +".into()], &[], Dialect::Auto).unwrap_err();
        assert_eq!(e.which, "column 2");
    }

    #[test]
    fn sort_keys_put_numbers_first_and_undefined_last() {
        use std::cmp::Ordering::*;
        let k = |v: Value| vec![v];
        assert_eq!(compare_keys(&k(Value::Int(2)), &k(Value::Real(10.0))), Less);
        assert_eq!(
            compare_keys(&k(Value::Str("b".into())), &k(Value::Str("A".into()))),
            Greater
        );
        assert_eq!(
            compare_keys(&k(Value::Undefined), &k(Value::Str("z".into()))),
            Greater
        );
    }
}
