//! The ClassAd language as HTCondor 25 speaks it: parsing (new syntax, the
//! old long format, JSON, and the seed papers' dialect), evaluation in
//! HTCondor or strict mode, unparsing, specialization, references and
//! evaluation traces.
//!
//! ```
//! use classad::{parse_expr, Evaluator, EvalOptions};
//! let e = parse_expr("[a = 1; b = a + 2].b").unwrap();
//! let mut ev = Evaluator::new(EvalOptions::default());
//! assert_eq!(ev.eval_expr(&e).to_string(), "3");
//! ```

// The layers, lowest first: lang, formats, submit, constraint, query, matchmaking,
// policy, analysis, index, gang, api. Each builds only on the ones before it
// (tests/layers.rs checks every import). Callers name a layer's modules by
// their path (`classad::lang::eval`, `classad::api::session`); the root
// re-exports only the few items nearly every caller needs.
pub mod analysis;
pub mod api;
pub mod constraint;
pub mod formats;
pub mod gang;
pub mod index;
pub mod lang;
pub mod matchmaking;
pub mod policy;
pub mod query;
pub mod submit;

pub use lang::ast::{ClassAd, Expr, ExprKind, Name, Span};
pub use lang::diagnostic::Diagnostic;
pub use lang::eval::{EvalOptions, Evaluator, Mode};
pub use lang::lexer::Dialect;
pub use lang::parser::{parse_classad, parse_expr, parse_expr_noted, parse_expr_with};
pub use lang::time::Clock;
pub use lang::unparse::unparse;
pub use lang::value::{Value, ValueKind};

/// The engine version carried in share links and reports.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
