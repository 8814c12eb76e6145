//! The engine's one serializable request/response API (JSON in, JSON out).
//! The playground's UI thread and its Web Worker both speak it, so the
//! engine never needs to know about the web; every failure comes back as
//! located diagnostics, never as a panic.

mod response_reader;
pub mod session;

/// This wasm instance's memory in bytes (its peak: wasm memory only
/// grows); `None` natively.
pub fn wasm_memory_bytes() -> Option<u64> {
    #[cfg(target_arch = "wasm32")]
    return Some(core::arch::wasm32::memory_size(0) as u64 * 65_536);
    #[cfg(not(target_arch = "wasm32"))]
    None
}

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::formats;
use crate::lang::ast::ClassAd;
use crate::lang::eval::Evaluator;

// The types the requests and responses are made of, so a client (the
// playground's page) needs no path into the engine's layers.
pub use crate::formats::{literal_warning, InputFormat, OutputFormat};
pub use crate::lang::ast::Span;
pub use crate::lang::diagnostic::{Diagnostic, Severity};
pub use crate::lang::eval::{EvalOptions, Mode, TraceNode};
pub use crate::lang::lexer::{highlight, Dialect, Highlight, TokenClass};
pub use crate::lang::time::Clock;
/// Values' reals as people read them (`0.5`), for sentences and tooltips.
pub use crate::lang::unparse::{reals_for_people, reals_for_people_with};
pub use crate::query::summary::{JobTotals, MachineSummary, StateCounts, Summary, STATES};
pub use crate::query::tables::AdKind;
pub use crate::query::view::{QueryAnswer, QueryExplain, QueryRow, QuerySpec};
pub use crate::query::QueryError;
/// The engine version carried in share links and reports.
pub use crate::VERSION;

/// Highlight a pool the way its reader splits it into ads (for editors).
pub use crate::formats::highlight_pool;
/// How many nodes a trace records before it is cut (`TraceNode::cut`).
pub use crate::lang::eval::trace::MAX_NODES as TRACE_MAX_NODES;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    Version,
    /// Read a pool of ads; list them with their labels and problems.
    ParsePool {
        text: String,
        #[serde(default)]
        format: InputFormat,
        #[serde(default)]
        dialect: Dialect,
    },
    /// Token classes for syntax highlighting.
    Highlight {
        text: String,
        #[serde(default)]
        dialect: Dialect,
    },
    /// Evaluate an expression with optional MY and TARGET ads (each given as
    /// the text of one ad in any format).
    Evaluate {
        expr: String,
        #[serde(default)]
        my: Option<String>,
        #[serde(default)]
        target: Option<String>,
        /// Path of nested-record attribute names inside MY giving the scope
        /// (so `parent` and `root` mean something).
        #[serde(default)]
        scope: Vec<String>,
        #[serde(default)]
        dialect: Dialect,
        #[serde(default)]
        trace: bool,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// Match one job against one machine (each given as the text of one
    /// ad in any format): both Requirements, with traces, and both Ranks,
    /// as the match matrix's pair detail computes them.
    Match {
        job: String,
        machine: String,
        #[serde(default)]
        dialect: Dialect,
        #[serde(flatten)]
        context: EvalOptions,
    },
    /// Rewrite a pool in another format.
    Format {
        text: String,
        to: OutputFormat,
        #[serde(default)]
        dialect: Dialect,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AdSummary {
    pub label: String,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub attributes: Vec<String>,
}

/// An answer. Written internally tagged (`"kind"`); read back through a
/// flat record (`response_reader`), which a page can afford.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Response {
    Version {
        engine: String,
    },
    Pool {
        ads: Vec<AdSummary>,
        diagnostics: Vec<Diagnostic>,
        format: Option<InputFormat>,
    },
    Highlight {
        tokens: Vec<Highlight>,
    },
    Value {
        /// Canonical unparse of the value.
        value: String,
        /// Type name (`integer`, `undefined`, …).
        value_kind: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<TraceNode>,
        /// Warnings about the expression as written (`'3:00'` is a name in
        /// HTCondor's syntax, a time in the seed papers'); absent: none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        diagnostics: Vec<Diagnostic>,
    },
    Text {
        text: String,
        diagnostics: Vec<Diagnostic>,
    },
    /// The answer to `Match`: whether each side's Requirements accept the
    /// other (HTCondor's rule: true or a non-zero number), their traces
    /// (`None` when the ad states no Requirements) and both Ranks.
    Match {
        job_accepts: bool,
        machine_accepts: bool,
        job_requirements: Option<TraceNode>,
        machine_requirements: Option<TraceNode>,
        job_rank: String,
        machine_rank: String,
    },
    /// The request could not be carried out; `which` says what input the
    /// diagnostics refer to (`expr`, `my`, `target`, `request`).
    Failed {
        which: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// Handle one request.
pub fn handle(req: Request) -> Response {
    match req {
        Request::Version => Response::Version {
            engine: crate::VERSION.to_string(),
        },
        Request::ParsePool {
            text,
            format,
            dialect,
        } => {
            let pool = formats::read_pool(&text, format, dialect);
            // Ads come in text order: count lines incrementally (a rescan
            // from the start for each ad would be quadratic).
            let (mut at, mut line) = (0usize, 1u32);
            let ads = pool
                .ads
                .iter()
                .map(|a| {
                    let start = (a.span.start as usize).min(text.len());
                    if start >= at {
                        line += text.as_bytes()[at..start]
                            .iter()
                            .filter(|b| **b == b'\n')
                            .count() as u32;
                        at = start;
                    } else {
                        line = crate::lang::diagnostic::line_col(&text, start).0;
                        at = start;
                    }
                    AdSummary {
                        label: a.label.clone(),
                        start: a.span.start,
                        end: a.span.end,
                        line,
                        attributes: a.ad.names().map(str::to_string).collect(),
                    }
                })
                .collect();
            Response::Pool {
                ads,
                diagnostics: pool.diagnostics,
                format: pool.format,
            }
        }
        Request::Highlight { text, dialect } => Response::Highlight {
            tokens: crate::lang::lexer::highlight(&text, dialect),
        },
        Request::Evaluate {
            expr,
            my,
            target,
            scope,
            dialect,
            trace,
            context,
        } => evaluate(
            &expr,
            my.as_deref(),
            target.as_deref(),
            &scope,
            context,
            dialect,
            trace,
        ),
        Request::Match {
            job,
            machine,
            dialect,
            context,
        } => session::match_one(&job, &machine, context, dialect),
        Request::Format { text, to, dialect } => {
            let pool = formats::read_pool(&text, InputFormat::Auto, dialect);
            let ads: Vec<&ClassAd> = pool.ads.iter().map(|a| &a.ad).collect();
            Response::Text {
                text: formats::write_pool(&ads, to),
                diagnostics: pool.diagnostics,
            }
        }
    }
}

fn one_ad(text: &str, dialect: Dialect) -> Result<ClassAd, Vec<Diagnostic>> {
    let pool = formats::read_pool(text, InputFormat::Auto, dialect);
    if pool.diagnostics.iter().any(Diagnostic::is_error) {
        return Err(pool.diagnostics);
    }
    let n = pool.ads.len();
    match n {
        0 => Ok(ClassAd::new()),
        1 => Ok(pool.ads.into_iter().next().unwrap().ad),
        _ => Err(vec![Diagnostic::new(
            crate::lang::ast::Span::NONE,
            format!("expected one ad, found {n}"),
        )]),
    }
}

fn evaluate(
    expr: &str,
    my: Option<&str>,
    target: Option<&str>,
    scope: &[String],
    opts: EvalOptions,
    dialect: Dialect,
    trace: bool,
) -> Response {
    let failed = |which: &str, diagnostics: Vec<Diagnostic>| Response::Failed {
        which: which.into(),
        diagnostics,
    };
    let (e, noted) = match crate::lang::parser::parse_expr_noted(expr, dialect, opts.mode) {
        Ok(e) => e,
        Err(d) => return failed("expr", vec![d]),
    };
    let my_ad = match my.map(|t| one_ad(t, dialect)).transpose() {
        Ok(a) => Arc::new(a.unwrap_or_default()),
        Err(d) => return failed("my", d),
    };
    let target_ad = match target.map(|t| one_ad(t, dialect)).transpose() {
        Ok(a) => a.map(Arc::new),
        Err(d) => return failed("target", d),
    };
    let mut ev = Evaluator::new(opts);
    ev.set_ads(Some(my_ad.clone()), target_ad);
    let env = match ev.scope_path(scope) {
        Ok(env) => env,
        Err(e) => {
            return failed(
                "scope",
                vec![Diagnostic::new(crate::lang::ast::Span::NONE, e.to_string())],
            )
        }
    };
    let (v, tree) = if trace {
        ev.eval_traced(&e, &env)
    } else {
        (ev.eval(&e, &env), None)
    };
    if let Some(d) = ev.take_depth_exceeded() {
        return failed("expr", vec![depth_diagnostic(&d, expr.len())]);
    }
    if let Some(d) = ev.take_value_too_large() {
        return failed("expr", vec![too_large_diagnostic(&d, expr.len())]);
    }
    Response::Value {
        value: v.to_string(),
        value_kind: v.kind().name().to_string(),
        trace: tree,
        diagnostics: crate::formats::literal_warnings(&noted, expr, 0)
            .into_iter()
            .map(|d| d.locate(expr))
            .collect(),
    }
}

/// What a user is told when an evaluation went deeper than the engine's
/// bound: the value would be `error`, not the language's answer.
pub fn depth_diagnostic(d: &crate::lang::eval::DepthExceeded, expr_len: usize) -> Diagnostic {
    let at = match &d.attribute {
        Some(a) => format!(" at attribute `{a}`"),
        None => String::new(),
    };
    Diagnostic::new(
        crate::lang::ast::Span::new(0, expr_len),
        format!(
            "evaluation went deeper than {} levels{at}: the value would be error",
            crate::lang::eval::MAX_EVAL_DEPTH
        ),
    )
    .help(
        "a chain of attribute references (a0 = a1 + 1; a1 = a2 + 1; …) or calls this deep is cut off; \
         each reference counts 3 levels, each call 2 (libclassad gives up after a few hundred)",
    )
}

/// What a user is told when a function would have built a value over the
/// engine's bound: located at the call when it is in the expression, else
/// the whole expression (the message names the attribute and its ad).
pub fn too_large_diagnostic(d: &crate::lang::eval::ValueTooLarge, expr_len: usize) -> Diagnostic {
    let span = match d.attribute {
        None => d.span,
        Some(_) => crate::lang::ast::Span::new(0, expr_len),
    };
    Diagnostic::new(span, d.message()).help(format!(
        "libclassad has no bound and would take all memory; here no string may pass {} MB \
         (a chain of strcat(X, X) doubles its value at each step)",
        crate::lang::eval::MAX_VALUE_BYTES >> 20
    ))
}

/// JSON in, JSON out. A request that is not valid JSON for [`Request`]
/// gets a `failed` response naming the problem.
pub fn handle_json(request: &str) -> String {
    let resp = match serde_json::from_str::<Request>(request) {
        Ok(req) => handle(req),
        Err(e) => Response::Failed {
            which: "request".into(),
            diagnostics: vec![Diagnostic::new(
                crate::lang::ast::Span::NONE,
                format!("bad request: {e}"),
            )],
        },
    };
    serde_json::to_string(&resp).unwrap_or_else(|e| {
        // Written by serde too, so the message is escaped; a failure of
        // strings alone always serializes.
        let failed = Response::Failed {
            which: "response".into(),
            diagnostics: vec![Diagnostic::new(
                crate::lang::ast::Span::NONE,
                format!("the answer could not be written: {e}"),
            )],
        };
        serde_json::to_string(&failed).unwrap_or_default()
    })
}
