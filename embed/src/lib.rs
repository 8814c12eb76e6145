//! The ClassAd engine for any web page: `evaluate`, `match` and `parse`
//! take and give plain JS objects (through serde-wasm-bindgen). They are
//! thin wrappers over the engine's one request/response API
//! ([`classad::api::handle`]), so a page gets the answers the playground and
//! the CLI give.
//!
//! Every answer is a value with `ok`: a failure is `{ok: false, which,
//! diagnostics: [{line, column, message, …}]}`, where `which` names the
//! input at fault (`expr`, `my`, `target`, `job`, `machine`, `request`,
//! or a field of the input that could not be read: its getter threw, or it
//! is not a string or number); nothing throws, and the caller's code never
//! runs inside the engine (see [`plain_input`]). The JS module most pages
//! import is `js/classad.js`, which loads the wasm and re-exports these
//! functions.

use classad::api::{
    self, AdSummary, Clock, Diagnostic, EvalOptions, InputFormat, Mode, Request, Response, Span,
    TraceNode,
};

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// What `evaluate` takes. `my` and `target` are the texts of one ad each
/// (any format the engine reads); absent, MY is an empty ad and there is
/// no TARGET.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluateInput {
    pub expr: String,
    #[serde(default)]
    pub my: Option<String>,
    #[serde(default)]
    pub target: Option<String>,
    /// `"htcondor"` (the default) or `"strict"`. (Options, so that a JS
    /// `undefined` reads as absent.)
    #[serde(default)]
    pub mode: Option<Mode>,
    /// The syntax the texts are read in: `"htcondor"` (the default,
    /// exactly libclassad's), `"seed"` (the seed papers' notation) or `"auto"`.
    #[serde(default)]
    pub dialect: Option<classad::api::Dialect>,
    /// Record the explain tree (default true).
    #[serde(default)]
    pub trace: Option<bool>,
    /// Seconds since the epoch for time functions (default: the page's clock).
    #[serde(default)]
    pub now: Option<f64>,
    /// The local time zone, seconds east of UTC (default: the page's).
    #[serde(default)]
    pub tz_offset: Option<i32>,
}

/// What `evaluate` gives.
#[derive(Debug, Serialize)]
pub struct EvaluateOutput {
    pub ok: bool,
    /// The value, canonically unparsed (`true`, `3`, `"a"`, `undefined`, …).
    pub value: Option<String>,
    /// Its type: `boolean`, `integer`, `real`, `string`, `undefined`, `error`, …
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The explain tree, flat (its nodes in preorder, children by index: see
    /// `trace_wire`); classad.js hands pages the nested
    /// `{label, text, value, attribute?, span, children}`.
    pub trace: Option<TraceNode>,
    /// The input the diagnostics are about.
    pub which: Option<String>,
    /// On failure, why; with a value, warnings about the expression as
    /// written (`'3:00'` is a name in HTCondor's syntax, a time in the seed
    /// papers').
    pub diagnostics: Vec<Diagnostic>,
}

/// What `match` takes: the texts of one job ad and one machine ad.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchInput {
    pub job: String,
    pub machine: String,
    #[serde(default)]
    pub mode: Option<Mode>,
    #[serde(default)]
    pub dialect: Option<classad::api::Dialect>,
    #[serde(default)]
    pub now: Option<f64>,
    #[serde(default)]
    pub tz_offset: Option<i32>,
}

/// Both Requirements' traces (`null` for an ad that states none).
#[derive(Debug, Serialize)]
pub struct Explain {
    pub job: Option<TraceNode>,
    pub machine: Option<TraceNode>,
}

/// What `match` gives.
#[derive(Debug, Serialize)]
pub struct MatchOutput {
    pub ok: bool,
    /// The job's Requirements accept the machine.
    pub job_accepts: bool,
    /// The machine's Requirements accept the job.
    pub machine_accepts: bool,
    /// Both accept.
    pub matched: bool,
    pub job_rank: Option<String>,
    pub machine_rank: Option<String>,
    pub explain: Option<Explain>,
    pub which: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// What `parse` gives: the ads in text order, each with its label, line,
/// byte span and attribute names, and every problem found.
#[derive(Debug, Serialize)]
pub struct ParseOutput {
    /// No error (warnings may remain in `diagnostics`).
    pub ok: bool,
    pub ads: Vec<AdSummary>,
    /// The format the text was read as (`new`, `old`, `json`).
    pub format: Option<InputFormat>,
    pub diagnostics: Vec<Diagnostic>,
}

fn problem(message: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::new(Span::NONE, message)]
}

impl EvaluateOutput {
    fn failed(which: &str, diagnostics: Vec<Diagnostic>) -> EvaluateOutput {
        EvaluateOutput {
            ok: false,
            value: None,
            kind: None,
            trace: None,
            which: Some(which.into()),
            diagnostics,
        }
    }
}

impl MatchOutput {
    fn failed(which: &str, diagnostics: Vec<Diagnostic>) -> MatchOutput {
        MatchOutput {
            ok: false,
            job_accepts: false,
            machine_accepts: false,
            matched: false,
            job_rank: None,
            machine_rank: None,
            explain: None,
            which: Some(which.into()),
            diagnostics,
        }
    }
}

/// The request's context from the JS options, each optional (an absent
/// clock or zone is the page's own).
fn eval_options(mode: Option<Mode>, now: Option<f64>, tz_offset: Option<i32>) -> EvalOptions {
    EvalOptions {
        mode: mode.unwrap_or_default(),
        clock: Clock {
            now,
            local_offset: tz_offset,
        },
    }
}

/// `evaluate` on Rust values.
pub fn evaluate_input(i: EvaluateInput) -> EvaluateOutput {
    match api::handle(Request::Evaluate {
        expr: i.expr,
        my: i.my,
        target: i.target,
        scope: vec![],
        dialect: i.dialect.unwrap_or_default(),
        trace: i.trace.unwrap_or(true),
        context: eval_options(i.mode, i.now, i.tz_offset),
    }) {
        Response::Value {
            value,
            value_kind,
            trace,
            diagnostics,
        } => EvaluateOutput {
            ok: true,
            value: Some(value),
            kind: Some(value_kind),
            trace,
            which: (!diagnostics.is_empty()).then(|| "expr".into()),
            diagnostics,
        },
        Response::Failed { which, diagnostics } => EvaluateOutput::failed(&which, diagnostics),
        _ => EvaluateOutput::failed("request", problem("the engine gave no value")),
    }
}

/// `match` on Rust values.
pub fn match_input(i: MatchInput) -> MatchOutput {
    match api::handle(Request::Match {
        job: i.job,
        machine: i.machine,
        dialect: i.dialect.unwrap_or_default(),
        context: eval_options(i.mode, i.now, i.tz_offset),
    }) {
        Response::Match {
            job_accepts,
            machine_accepts,
            job_requirements,
            machine_requirements,
            job_rank,
            machine_rank,
        } => MatchOutput {
            ok: true,
            job_accepts,
            machine_accepts,
            matched: job_accepts && machine_accepts,
            job_rank: Some(job_rank),
            machine_rank: Some(machine_rank),
            explain: Some(Explain {
                job: job_requirements,
                machine: machine_requirements,
            }),
            which: None,
            diagnostics: vec![],
        },
        Response::Failed { which, diagnostics } => MatchOutput::failed(&which, diagnostics),
        _ => MatchOutput::failed("request", problem("the engine gave no match")),
    }
}

/// `parse` on Rust values.
pub fn parse_text(text: &str) -> ParseOutput {
    match api::handle(Request::ParsePool {
        text: text.to_string(),
        format: InputFormat::Auto,
        dialect: Default::default(),
    }) {
        Response::Pool {
            ads,
            diagnostics,
            format,
        } => ParseOutput {
            ok: !diagnostics.iter().any(Diagnostic::is_error),
            ads,
            format,
            diagnostics,
        },
        Response::Failed { diagnostics, .. } => ParseOutput {
            ok: false,
            ads: vec![],
            format: None,
            diagnostics,
        },
        _ => ParseOutput {
            ok: false,
            ads: vec![],
            format: None,
            diagnostics: problem("the engine gave no ads"),
        },
    }
}

// ---- The JS side -------------------------------------------------------

fn to_js<T: Serialize>(out: &T) -> JsValue {
    // Plain objects (not Maps), `null` for absent values.
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    out.serialize(&ser).unwrap_or_else(|e| {
        EvaluateOutput::failed("response", problem(format!("cannot give the answer: {e}")))
            .serialize(&ser)
            .unwrap_or(JsValue::NULL)
    })
}

fn bad_request(what: &str, e: impl std::fmt::Display) -> Vec<Diagnostic> {
    let e = e.to_string();
    problem(format!(
        "{what}: {}",
        e.strip_prefix("Error: ").unwrap_or(&e)
    ))
}

/// A thrown JS value in words, read without running more of the
/// caller's code unguarded (an Error's `message` may itself be a getter).
fn thrown(e: &JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    let field = |k: &str| {
        js_sys::Reflect::get(e, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
    };
    match (field("name"), field("message")) {
        (Some(n), Some(m)) => format!("{n}: {m}"),
        (None, Some(m)) => m,
        _ => "a value that is not an Error".into(),
    }
}

/// The caller's input copied into a plain object of the `known` fields,
/// or why not: `(which, diagnostics)`, `which` naming the field at fault.
///
/// The caller's code (getters, proxies) runs only here, each access
/// through a binding that catches, so what it throws is answered as the
/// caller's mistake. A JS exception let through the engine's frames would
/// leave the engine's stack pointer unrestored, so the module would have to
/// take it for an engine crash and drop the instance. serde-wasm-bindgen
/// then reads only primitives (it would read an object's fields itself,
/// unguarded), and a misspelt field (`{mood: "strict"}`), which it would
/// pass unseen, is named.
fn plain_input(input: &JsValue, known: &[&str]) -> Result<JsValue, (String, Vec<Diagnostic>)> {
    if !input.is_object() && !input.is_function() {
        // A primitive (or null / undefined): serde says what is wrong.
        return Ok(input.clone());
    }
    let keys = js_sys::Reflect::own_keys(input).map_err(|e| {
        (
            "request".to_string(),
            problem(format!("listing the input's fields threw: {}", thrown(&e))),
        )
    })?;
    let unknown: Vec<String> = keys
        .iter()
        .filter_map(|k| k.as_string())
        .filter(|k| !known.contains(&k.as_str()))
        .map(|k| format!("`{k}`"))
        .collect();
    if !unknown.is_empty() {
        return Err((
            "request".into(),
            problem(format!(
                "unknown field {} (the fields are {})",
                unknown.join(", "),
                known.join(", ")
            )),
        ));
    }
    let out = js_sys::Object::new();
    for &k in known {
        let key = JsValue::from_str(k);
        let v = js_sys::Reflect::get(input, &key).map_err(|e| {
            (
                k.to_string(),
                problem(format!(
                    "reading `{k}` threw: {} (the engine was not called)",
                    thrown(&e)
                )),
            )
        })?;
        if v.is_object() || v.is_function() || v.is_symbol() || v.is_bigint() {
            return Err((
                k.to_string(),
                problem(format!(
                    "`{k}` must be a string, a number or a boolean, not {}",
                    v.js_typeof().as_string().unwrap_or_default()
                )),
            ));
        }
        if !v.is_undefined() {
            // A fresh plain object: setting a field cannot fail.
            let _ = js_sys::Reflect::set(&out, &key, &v);
        }
    }
    Ok(out.into())
}

const EVALUATE_FIELDS: &[&str] = &[
    "expr",
    "my",
    "target",
    "mode",
    "dialect",
    "trace",
    "now",
    "tz_offset",
];
const MATCH_FIELDS: &[&str] = &["job", "machine", "mode", "dialect", "now", "tz_offset"];

/// The page's clock and time zone, unless the caller pinned them.
fn page_clock(now: &mut Option<f64>, tz_offset: &mut Option<i32>) {
    if now.is_none() {
        *now = Some(js_sys::Date::now() / 1000.0);
    }
    if tz_offset.is_none() {
        *tz_offset = Some((-js_sys::Date::new_0().get_timezone_offset() * 60.0) as i32);
    }
}

/// `evaluate({expr, my?, target?, mode?, trace?, now?, tz_offset?})` →
/// `{ok, value, type, trace, which, diagnostics}`.
#[wasm_bindgen]
pub fn evaluate(input: JsValue) -> JsValue {
    let what = "evaluate takes {expr, my, target, mode}";
    let out = match plain_input(&input, EVALUATE_FIELDS) {
        Err((which, d)) => EvaluateOutput::failed(&which, d),
        Ok(input) => match serde_wasm_bindgen::from_value::<EvaluateInput>(input) {
            Ok(mut i) => {
                page_clock(&mut i.now, &mut i.tz_offset);
                evaluate_input(i)
            }
            Err(e) => EvaluateOutput::failed("request", bad_request(what, e)),
        },
    };
    to_js(&out)
}

/// `match({job, machine, mode?, now?, tz_offset?})` → `{ok, job_accepts,
/// machine_accepts, matched, job_rank, machine_rank, explain: {job,
/// machine}, which, diagnostics}`.
#[wasm_bindgen(js_name = "match")]
pub fn match_ads(input: JsValue) -> JsValue {
    let what = "match takes {job, machine, mode}";
    let out = match plain_input(&input, MATCH_FIELDS) {
        Err((which, d)) => MatchOutput::failed(&which, d),
        Ok(input) => match serde_wasm_bindgen::from_value::<MatchInput>(input) {
            Ok(mut i) => {
                page_clock(&mut i.now, &mut i.tz_offset);
                match_input(i)
            }
            Err(e) => MatchOutput::failed("request", bad_request(what, e)),
        },
    };
    to_js(&out)
}

/// `parse(text)` → `{ok, ads: [{label, line, start, end, attributes}],
/// format, diagnostics}`.
#[wasm_bindgen]
pub fn parse(text: JsValue) -> JsValue {
    to_js(&match text.as_string() {
        Some(t) => parse_text(&t),
        None => ParseOutput {
            ok: false,
            ads: vec![],
            format: None,
            diagnostics: problem("parse takes the text of the ads (a string)"),
        },
    })
}

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    classad::VERSION.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(json: &str) -> EvaluateOutput {
        evaluate_input(serde_json::from_str(json).unwrap())
    }

    #[test]
    fn evaluates_with_my_and_target_and_explains() {
        let o = eval(
            r#"{"expr": "MY.Memory > 1024 && TARGET.Owner == \"alice\"",
                "my": "[ Memory = 2048 ]", "target": "[ Owner = \"alice\" ]"}"#,
        );
        assert!(o.ok, "{o:?}");
        assert_eq!(o.value.as_deref(), Some("true"));
        assert_eq!(o.kind.as_deref(), Some("boolean"));
        let t = o.trace.unwrap();
        assert_eq!(t.value, "true");
        assert_eq!(t.children.len(), 2);
        // The mode matters: an unscoped name falls back to TARGET in
        // HTCondor mode only.
        let ht = eval(r#"{"expr": "Owner", "target": "[ Owner = \"bob\" ]"}"#);
        let strict =
            eval(r#"{"expr": "Owner", "target": "[ Owner = \"bob\" ]", "mode": "strict"}"#);
        assert_eq!(ht.value.as_deref(), Some("\"bob\""));
        assert_eq!(strict.value.as_deref(), Some("undefined"));
        assert!(eval(r#"{"expr": "1 + 2", "trace": false}"#).trace.is_none());
    }

    #[test]
    fn failures_are_values_with_located_diagnostics() {
        let o = eval(r#"{"expr": "1 +\n  (2 *"}"#);
        assert!(!o.ok);
        assert_eq!(o.which.as_deref(), Some("expr"));
        assert_eq!(o.value, None);
        let d = &o.diagnostics[0];
        assert_eq!(d.line, 2, "{d:?}");
        assert!(d.column > 1);
        let o = eval(r#"{"expr": "a", "my": "[ a = 1;\n b = ]"}"#);
        assert_eq!(o.which.as_deref(), Some("my"));
        assert_eq!(o.diagnostics[0].line, 2);
        let o = eval(r#"{"expr": "a", "target": "[ a = 1 ] [ a = 2 ]"}"#);
        assert_eq!(o.which.as_deref(), Some("target"));
        // Unknown fields and bad modes are refused when read (in JS, as a
        // `request` failure).
        assert!(
            serde_json::from_str::<EvaluateInput>(r#"{"expr": "1", "mood": "strict"}"#).is_err()
        );
        assert!(serde_json::from_str::<EvaluateInput>(r#"{"expr": "1", "mode": "lax"}"#).is_err());
        assert!(serde_json::from_str::<MatchInput>(r#"{"job": "[]"}"#).is_err());
    }

    /// The field lists the JS side checks are the structs' fields.
    #[test]
    fn field_lists_name_every_field() {
        let all = |fields: &[&str]| {
            let v: Vec<String> = fields
                .iter()
                .map(|f| match *f {
                    "now" | "tz_offset" => format!("\"{f}\": 0"),
                    "trace" => "\"trace\": true".into(),
                    "mode" => "\"mode\": \"strict\"".into(),
                    "dialect" => "\"dialect\": \"seed\"".into(),
                    f => format!("\"{f}\": \"1\""),
                })
                .collect();
            format!("{{{}}}", v.join(", "))
        };
        serde_json::from_str::<EvaluateInput>(&all(EVALUATE_FIELDS)).unwrap();
        serde_json::from_str::<MatchInput>(&all(MATCH_FIELDS)).unwrap();
    }

    #[test]
    fn matches_both_ways_with_traces() {
        let o = match_input(
            serde_json::from_str(
                r#"{"job": "[ RequestMemory = 64; Requirements = TARGET.Memory >= RequestMemory ]",
                    "machine": "[ Memory = 32; Requirements = true ]"}"#,
            )
            .unwrap(),
        );
        assert!(o.ok, "{o:?}");
        assert!(!o.job_accepts && o.machine_accepts && !o.matched);
        let e = o.explain.unwrap();
        assert_eq!(e.job.unwrap().value, "false");
        assert_eq!(e.machine.unwrap().value, "true");
        let o = match_input(MatchInput {
            job: "[ Requirements = ".into(),
            machine: "[]".into(),
            mode: Some(Mode::Strict),
            dialect: None,
            now: None,
            tz_offset: None,
        });
        assert!(!o.ok && !o.matched);
        assert_eq!(o.which.as_deref(), Some("job"));
        assert!(o.diagnostics[0].line >= 1);
    }

    #[test]
    fn parses_ads_and_reports_problems() {
        let o = parse_text("[ a = 1; b = 2 ]\n[ Name = \"x\" ]\n");
        assert!(o.ok);
        assert_eq!(o.ads.len(), 2);
        assert_eq!(o.ads[0].attributes, vec!["a", "b"]);
        assert_eq!(o.ads[1].line, 2);
        let o = parse_text("[ a = 1 ]\n[ b = ( ]\n");
        assert!(!o.ok);
        assert!(o.diagnostics.iter().any(|d| d.line == 2 && d.is_error()));
    }

    /// Nothing the engine is given makes it panic (a panic would kill the
    /// page): odd and hostile inputs all come back as values.
    #[test]
    fn odd_inputs_do_not_panic() {
        let deep = "(".repeat(5000) + "1" + &")".repeat(5000);
        let nested = "[a = ".repeat(2000) + "1" + &"]".repeat(2000);
        for expr in [
            "",
            "\u{0}",
            "\"unclosed",
            "1/0",
            "a.b.c[99]",
            "regexp(\"(\", \"x\")",
            "strcat(\"é\", 'ü')",
            "-9223372036854775808 / -1",
            &deep,
        ] {
            for my in [
                None,
                Some(""),
                Some("["),
                Some(nested.as_str()),
                Some("x = 1"),
            ] {
                let _ = evaluate_input(EvaluateInput {
                    expr: expr.into(),
                    my: my.map(String::from),
                    target: Some("[ a = TARGET.a ]".into()),
                    mode: None,
                    dialect: None,
                    trace: Some(true),
                    now: Some(0.0),
                    tz_offset: Some(0),
                });
            }
            let _ = parse_text(expr);
        }
    }
}
