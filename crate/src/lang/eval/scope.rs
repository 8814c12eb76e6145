//! A scope inside MY: the environment reached by following nested-record
//! attributes from MY (`Gpu.Mig`), so `parent` and `root` mean something
//! where an expression is evaluated.

use std::fmt;

use crate::lang::ast::{Env, Expr, ExprKind, Name, Span, Value};
use crate::lang::value::ValueKind;

use super::Evaluator;

/// A step of a scope path that is not a nested ClassAd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotARecord {
    /// The attribute at fault.
    pub name: String,
    /// What it is instead.
    pub kind: ValueKind,
}

impl fmt::Display for NotARecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a nested ClassAd here (it is {})",
            self.name,
            self.kind.name()
        )
    }
}

impl std::error::Error for NotARecord {}

impl Evaluator {
    /// The scope reached by following `path`'s nested-record attributes
    /// from MY (MY itself for an empty path).
    pub fn scope_path(&mut self, path: &[String]) -> Result<Env, NotARecord> {
        let mut env = self.my_env();
        for name in path {
            let attr = ExprKind::Attr {
                name: Name::new(name),
                absolute: false,
            };
            match self.eval(&Expr::new(attr, Span::NONE), &env) {
                Value::Record(r) => env = self.record_env(&r),
                other => {
                    return Err(NotARecord {
                        name: name.clone(),
                        kind: other.kind(),
                    })
                }
            }
        }
        Ok(env)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::lang::eval::EvalOptions;
    use crate::lang::parser::{parse_classad, parse_expr};

    #[test]
    fn a_path_reaches_a_nested_record_or_says_which_step_is_not_one() {
        let my = parse_classad("[ a = 1; r = [ b = 2; s = [ c = parent.b ] ] ]").unwrap();
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.set_ads(Some(Arc::new(my)), None);
        let env = ev.scope_path(&["r".into(), "s".into()]).unwrap();
        let c = parse_expr("c").unwrap();
        assert_eq!(ev.eval(&c, &env).to_string(), "2");
        let e = ev.scope_path(&["r".into(), "b".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`b` is not a nested ClassAd here (it is integer)"
        );
    }
}
