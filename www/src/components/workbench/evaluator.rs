//! The evaluator: an expression, the ads that are MY and TARGET, the scope
//! inside MY, the value with a one-line "why", and the explain tree.
//! Clicking a node marks its source in the expression, or in the pool text
//! when it lies in an attribute definition of MY or TARGET.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::{Diagnostic, Mode, Request, Response};
use yew::prelude::*;

use crate::components::widgets::term::TermHelp;

use crate::bridge::answers::{AdNames, Evaluated};
use crate::bridge::clock::now_ms;
use crate::bridge::engine;
use crate::bridge::parses::{Busy, Parsed, PoolParse};
use crate::components::shell::header::{confirm, download};
use crate::components::widgets::explain::{Explain, Picked, Trace};
use crate::components::widgets::highlight::Mark;
use crate::components::widgets::numbers::size;
use crate::components::widgets::text_editor::{TextEditor, Tokens, EDIT_LIMIT, HIGHLIGHT_LIMIT};
use crate::components::widgets::trace::{at_path, why, AdFacts, Ctx, Origin, Side};
use crate::components::workbench::ad_picker::AdPicker;
use crate::components::workbench::pool_viewer::PoolViewer;
use crate::state::actions::{Action, PoolMark};
use crate::state::app_state::{AdRef, AppState, SharedText};

#[derive(Properties, PartialEq)]
pub struct EvaluatorProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
    pub parses: Rc<Vec<PoolParse>>,
    pub on_pool_mark: Callback<PoolMark>,
}

#[derive(Clone, PartialEq)]
enum Outcome {
    None,
    Value {
        value: String,
        kind: String,
        trace: Option<Trace>,
        ms: f64,
        /// Warnings about the expression as written.
        notes: Vec<Diagnostic>,
    },
    Failed {
        which: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// A chosen ad: its parse, index, and text.
#[derive(Clone, PartialEq)]
struct Chosen {
    r: AdRef,
    parsed: Parsed,
    text: String,
    label: String,
    /// The pool line the ad starts on.
    line: u32,
}

fn chosen(
    s: &AppState,
    parses: &[PoolParse],
    r: Option<AdRef>,
    label: Option<&str>,
) -> Option<Chosen> {
    let r = r?;
    let parsed = parses.get(r.pool)?.parsed.clone()?;
    // Not the ad that was chosen (it no longer parses): none, rather than
    // whichever ad now sits at its place.
    if !crate::components::workbench::identity::is_chosen_ad(&parsed, r, label) {
        return None;
    }
    let text = parsed.ad_text(r.ad)?.to_string();
    let label = format!(
        "{} / {}",
        s.pools.get(r.pool)?.name,
        parsed.summary.ads[r.ad].label
    );
    let line = parsed.summary.ads[r.ad].line;
    Some(Chosen {
        r,
        parsed,
        text,
        label,
        line,
    })
}

/// The chosen ad's pool has no parse yet: its first one is under way.
fn waiting(parses: &[PoolParse], r: Option<AdRef>) -> bool {
    r.and_then(|r| parses.get(r.pool))
        .is_some_and(|p| p.parsed.is_none() && matches!(p.busy, Busy::Quick | Busy::Parsing { .. }))
}

#[component]
pub fn EvaluatorPanel(props: &EvaluatorProps) -> Html {
    let s = props.state.clone();
    let my = chosen(&s, &props.parses, s.my, s.my_label.as_deref());
    // Until the chosen ads' pools have their first parse (a few ms after
    // the page starts), nothing is evaluated and nothing is missing.
    let wait = waiting(&props.parses, s.my) || waiting(&props.parses, s.target);
    // The chosen MY ad is gone (its pool no longer parses, or is shorter).
    let my_missing = s.my.is_some() && my.is_none() && !wait;
    let target = chosen(&s, &props.parses, s.target, s.target_label.as_deref());
    let target_missing = s.target.is_some() && target.is_none() && !wait;
    // The names of MY and TARGET come with each evaluation (the worker
    // reads the ads); kept with the texts they were read from.
    let names = use_state(|| (None::<(String, AdNames)>, None::<(String, AdNames)>));
    let names_of =
        |c: &Option<Chosen>, n: &Option<(String, AdNames)>| -> Rc<(Vec<String>, Vec<String>)> {
            match (c, n) {
                (Some(c), Some((t, n))) if *t == c.text => {
                    Rc::new((n.attrs.clone(), n.records.clone()))
                }
                _ => Rc::new((vec![], vec![])),
            }
        };
    let my_facts = names_of(&my, &names.0);
    let target_facts = names_of(&target, &names.1);
    let place = |c: &Option<Chosen>| {
        c.as_ref()
            .map(|c| (c.label.clone(), c.text.clone(), c.line))
    };
    let ctx = use_memo(
        (
            my_facts.clone(),
            target_facts.clone(),
            place(&my),
            place(&target),
            s.mode,
        ),
        |(mf, tf, mp, tp, mode)| {
            let facts =
                |f: &(Vec<String>, Vec<String>), p: &Option<(String, String, u32)>| AdFacts {
                    present: p.is_some(),
                    label: p.as_ref().map(|p| p.0.clone()).unwrap_or_default(),
                    attrs: f.0.clone(),
                    text: p
                        .as_ref()
                        .map(|p| std::rc::Rc::from(p.1.as_str()))
                        .unwrap_or_else(|| std::rc::Rc::from("")),
                    first_line: p.as_ref().map_or(0, |p| p.2),
                };
            Ctx {
                my: facts(mf, mp),
                target: facts(tf, tp),
                mode: *mode,
            }
        },
    );
    let outcome = use_state(|| Outcome::None);
    let picked = use_state(|| None::<(SharedText, Picked)>);

    let evaluate = {
        let expr = s.expr.clone();
        let (my_text, target_text) = (
            my.as_ref().map(|c| c.text.clone()),
            target.as_ref().map(|c| c.text.clone()),
        );
        // A scope means nothing without its MY ad (e.g. the pool is broken).
        let scope = if my.is_some() {
            s.scope.clone()
        } else {
            vec![]
        };
        let mode = s.mode;
        let dialect = s.dialect;
        let outcome = outcome.clone();
        let picked = picked.clone();
        let names = names.clone();
        Callback::from(move |_: ()| {
            if wait {
                return;
            }
            let t0 = now_ms();
            // The expression follows the request as it is (`evaluate-text`).
            let req = Request::Evaluate {
                expr: String::new(),
                my: my_text.clone(),
                target: target_text.clone(),
                scope: scope.clone(),
                dialect,
                trace: true,
                context: EvalOptions::at(
                    mode,
                    js_sys::Date::now() / 1000.0,
                    (-js_sys::Date::new_0().get_timezone_offset() * 60.0) as i32,
                ),
            };
            let json = serde_json::to_string(&req).unwrap_or_default();
            let (outcome, picked, names) = (outcome.clone(), picked.clone(), names.clone());
            let (my_text, target_text) = (my_text.clone(), target_text.clone());
            engine::request_with_text(
                "eval",
                "evaluate-text",
                &(json + "\n"),
                expr.0.clone(),
                move |r| {
                    let ms = now_ms() - t0;
                    let answer = r.and_then(|j| {
                        serde_json::from_str::<Evaluated>(j)
                            .map_err(|e| format!("unreadable answer from the engine worker: {e}"))
                    });
                    picked.set(None);
                    let resp = match answer {
                        Ok(a) => {
                            let (m, t) = a.names;
                            names.set((my_text.map(|x| (x, m)), target_text.map(|x| (x, t))));
                            a.response
                        }
                        // The worker failed: said as the engine's own failure.
                        Err(e) => Response::Failed {
                            which: "engine".into(),
                            diagnostics: vec![Diagnostic::new(classad::api::Span::NONE, e)],
                        },
                    };
                    outcome.set(match resp {
                        Response::Value {
                            value,
                            value_kind,
                            trace,
                            diagnostics,
                        } => Outcome::Value {
                            value,
                            kind: value_kind,
                            trace: trace.map(|t| Trace(Rc::new(t))),
                            ms,
                            notes: diagnostics,
                        },
                        Response::Failed { which, diagnostics } => {
                            Outcome::Failed { which, diagnostics }
                        }
                        _ => Outcome::None,
                    });
                },
            );
        })
    };
    // Re-evaluate whenever the inputs change.
    {
        let evaluate = evaluate.clone();
        let key = (
            s.expr.clone(),
            my.as_ref().map(|c| c.text.clone()),
            target.as_ref().map(|c| c.text.clone()),
            my.is_some().then(|| s.scope.clone()),
            s.mode,
            s.dialect,
            wait,
        );
        use_effect_with(key, move |_| evaluate.emit(()));
    }
    let on_input = {
        let d = props.dispatch.clone();
        Callback::from(move |t: Rc<str>| d.emit(Action::SetExpr(t)))
    };
    // An expression too big for a textarea (pasted, or from a link) is
    // shown read-only, like a big pool: evaluated as usual, cleared to type
    // a new one.
    let expr_editable = s.expr.len() <= EDIT_LIMIT;
    let on_download_expr = {
        let text = s.expr.0.clone();
        Callback::from(move |_| download("expression.txt", &text, "text/plain"))
    };
    let on_clear_expr = {
        let d = props.dispatch.clone();
        Callback::from(move |_| {
            if confirm("Remove the whole expression?") {
                d.emit(Action::SetExpr(Rc::from("")))
            }
        })
    };
    let on_key = {
        let evaluate = evaluate.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                evaluate.emit(());
            }
        })
    };
    // A pick in an ad's definition is shown in the pool text too.
    let on_pick = {
        let picked = picked.clone();
        let expr = s.expr.clone();
        let (my, target) = (my.clone(), target.clone());
        let on_pool_mark = props.on_pool_mark.clone();
        let seq = use_mut_ref(|| 0u32);
        Callback::from(move |p: Picked| {
            if let Origin::Def { side, .. } = &p.origin {
                let c = if *side == Side::My { &my } else { &target };
                if let Some(c) = c {
                    let a = &c.parsed.summary.ads[c.r.ad];
                    if a.start + p.end <= a.end {
                        *seq.borrow_mut() += 1;
                        on_pool_mark.emit(PoolMark {
                            pool: c.r.pool,
                            text: c.parsed.text.clone(),
                            start: a.start + p.start,
                            end: a.start + p.end,
                            seq: *seq.borrow(),
                        });
                    }
                }
            }
            picked.set(Some((expr.clone(), p)));
        })
    };
    let the_why = use_memo(((*outcome).clone(), ctx.clone()), |(o, ctx)| match o {
        Outcome::Value { trace: Some(t), .. } => why(&t.0, ctx),
        _ => None,
    });

    // A big expression is not highlighted (the editor drops the layer), so
    // it is neither lexed nor copied into the memo's key on every render.
    let highlighted = (s.expr.len() <= HIGHLIGHT_LIMIT).then(|| s.expr.clone());
    let expr_tokens = use_memo((highlighted, s.dialect), |(e, d)| match e {
        Some(e) => classad::api::highlight(e, *d),
        None => Vec::new(),
    });
    let mut expr_marks: Vec<Mark> = match &*picked {
        Some((e, p)) if p.origin == Origin::Expr && *e == s.expr => vec![Mark {
            start: p.start,
            end: p.end,
            class: "tk-mark",
        }],
        _ => vec![],
    };
    // The expression's own errors (and warnings) are underlined where they are.
    let (underlined, class) = match &*outcome {
        Outcome::Failed { which, diagnostics } if which == "expr" => (&diagnostics[..], "mk-error"),
        Outcome::Value { notes, .. } => (&notes[..], "mk-warn"),
        _ => (&[][..], ""),
    };
    expr_marks.extend(underlined.iter().map(|d| Mark {
        start: d.span.start as usize,
        end: d.span.end as usize,
        class,
    }));
    // The picked definition's text, from the ad it lies in.
    let source_of_pick = match &*picked {
        Some((
            _,
            Picked {
                origin: Origin::Def { side, attribute },
                start,
                end,
            },
        )) => {
            let c = if *side == Side::My { &my } else { &target };
            c.as_ref()
                .and_then(|c| c.text.get(*start..*end))
                .map(|t| (format!("{}.{attribute}", side.name()), t.to_string()))
        }
        _ => None,
    };
    let why_line = match (&*the_why, &*outcome) {
        (Some(w), Outcome::Value { trace: Some(t), .. }) => {
            let target_pick = at_path(&t.0, &w.path, &ctx).map(|(n, o)| {
                let span = if n.attribute.is_some() {
                    n.children.first().map(|c| c.span).unwrap_or(n.span)
                } else {
                    n.span
                };
                Picked {
                    origin: o,
                    start: span.start as usize,
                    end: span.end as usize,
                }
            });
            let show = target_pick.filter(|p| p.end > p.start).map(|p| {
                let on_pick = on_pick.clone();
                Callback::from(move |_| on_pick.emit(p.clone()))
            });
            html! {
                <p class="why">
                    <strong>{ "Why: " }</strong>{ code_spans(&w.message) }
                    if let Some(cb) = show { { " " }<button class="link" onclick={cb}>{ "show where" }</button> }
                </p>
            }
        }
        _ => html! {},
    };
    let culprit = the_why.as_ref().as_ref().map(|w| Rc::new(w.path.clone()));
    // The analyzer on whichever of MY and TARGET is the job.
    let analyze = analyze_pick(&s).map(|(jobs, machines, job)| {
        let d = props.dispatch.clone();
        Callback::from(move |_| {
            d.emit(Action::Analyze {
                jobs: Some(jobs),
                machines: Some(machines),
                job,
            })
        })
    });

    html! {
        <section class="evaluator" aria-label="Evaluator">
            <label for="expr">{ "Expression " }<small>{ "(evaluated as you type; Ctrl/⌘+Enter evaluates again, with the clock as it is now)" }</small></label>
            if expr_editable {
                <TextEditor id="expr" class={classes!("small")} text={s.expr.0.clone()} on_change={on_input}
                    tokens={Tokens(expr_tokens.clone())} marks={Rc::new(expr_marks)} on_keydown={Some(on_key)} label="Expression" />
            } else {
                <p class="big-note" id="expr-big-note">
                    { format!("This expression is {}: it is shown read-only, since browsers cannot edit that much text in a box. It is evaluated as any other. ", size(s.expr.len())) }
                    <button onclick={on_download_expr}>{ "Download text" }</button>{ " " }
                    <button id="clear-expr" onclick={on_clear_expr}>{ "Clear the expression" }</button>
                </p>
                <PoolViewer text={s.expr.0.clone()} marks={Rc::new(expr_marks)} expression=true label="Expression (read-only: too big to edit whole)" />
            }
            <AdPicker names={s.pools.iter().map(|p| p.name.clone()).collect::<Vec<_>>()}
                parsed={props.parses.iter().map(|p| p.parsed.clone()).collect::<Vec<_>>()}
                my={s.my} target={s.target} scope={s.scope.clone()} records={my_facts.1.clone()} dispatch={props.dispatch.clone()} />
            if my_missing {
                { missing(&s, "MY", s.my, s.my_label.as_deref()) }
            }
            if target_missing {
                { missing(&s, "TARGET", s.target, s.target_label.as_deref()) }
            }
            <div class="eval-row">
                <button id="evaluate" onclick={let e = evaluate.clone(); Callback::from(move |_| e.emit(()))}
                    title="The value follows every change by itself; this evaluates again now (time(), CurrentTime and DayTime() see the clock move)">{ "Evaluate again" }</button>
                <span class="muted">{ format!("mode {}", if s.mode == Mode::Strict { "strict" } else { "htcondor" }) }</span>
                if let Some(cb) = analyze {
                    <button id="why-no-match" onclick={cb} title="Open the analyzer on the job against its pool of machines">{ "Why doesn't it match?" }</button>
                }
            </div>
            <div class="result" aria-live="polite">
                { match &*outcome {
                    Outcome::None => html! {},
                    // Nothing typed yet: say what to do, not a parse error.
                    _ if s.expr.trim().is_empty() => html! {
                        <p id="value" class="value empty-prompt muted">{ "Type an expression above — for example " }<code>{ "MY.Memory >= TARGET.RequestMemory" }</code>{ " — and its value appears here, with a tree explaining it." }</p>
                    },
                    Outcome::Value { value, kind, ms, notes, .. } => html! {
                        <>
                        <p id="value" class={classes!("value", match value.as_str() { "undefined" => "v-undef", "error" => "v-error", _ => "" })}>
                            <code>{ value.clone() }</code>
                            <span class="kind">{ format!(" ({kind}, {} ms)", crate::components::widgets::numbers::tenths(*ms)) }</span>
                        </p>
                        { for notes.iter().map(|d| html! {
                            <p class="value-note">{ format!("warning {}:{}: {}", d.line, d.column, d.message) }
                               if let Some(h) = &d.help { <span class="muted">{ format!(" \u{2014} {h}") }</span> }</p>
                        }) }
                        </>
                    },
                    Outcome::Failed { which, diagnostics } => html! {
                        <div id="value" class="value v-error">
                            { for diagnostics.iter().map(|d| html! {
                                <p>{ if d.line > 0 { format!("{} {}:{}: {}", which_name(which), d.line, d.column, d.message) } else { format!("{}: {}", which_name(which), d.message) } }
                                   if let Some(e) = &d.expected { { format!(" — expected {e}") } }</p>
                            }) }
                        </div>
                    },
                } }
                { why_line }
            </div>
            if let Some((attr, text)) = source_of_pick {
                <p class="picked-source">{ "In " }<code>{ attr }</code>{ ": " }<code class="tk-mark">{ text }</code></p>
            }
            if let Outcome::Value { trace: Some(root), .. } = &*outcome {
                <h2>{ "Explain" }<TermHelp term="the explain tree" anchor="explain" text="Every subexpression with its value. A selection reads another record's attribute (TARGET.Memory); a definition is where a referenced attribute is defined, with its own subexpressions; an attribute reference is a name looked up in MY (then TARGET). Click a triangle to open or close, a line to see its source." /></h2>
                <Explain key={format!("{:p}", Rc::as_ptr(&root.0))} root={root.clone()} ctx={ctx.clone()} on_pick={on_pick} culprit={culprit} />
            }
        </section>
    }
}

/// (jobs pool, machines pool, job) for the analyzer: the job is whichever
/// of MY and TARGET lies in a pool of jobs (MY when neither or both do).
fn analyze_pick(s: &AppState) -> Option<(usize, usize, usize)> {
    use crate::state::pool_roles::{role_of, Role};
    let (my, target) = (s.my?, s.target?);
    let role = |p: usize| s.pools.get(p).and_then(role_of);
    let is_jobs = |r: AdRef| role(r.pool) == Some(Role::Jobs);
    let (job, other) = if is_jobs(target) && !is_jobs(my) {
        (target, my)
    } else {
        (my, target)
    };
    // The machines: the other ad's pool when it holds machines, else the
    // first pool that does (MY and TARGET may both be jobs), else the other
    // ad's pool — the analyzer then says it holds no machine ads.
    let machines = if role(other.pool) == Some(Role::Machines) {
        other.pool
    } else {
        (0..s.pools.len())
            .find(|&p| p != job.pool && role(p) == Some(Role::Machines))
            .unwrap_or(other.pool)
    };
    Some((job.pool, machines, job.ad))
}

/// A message with `code` between backticks shown as code.
fn code_spans(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                html! { <code>{ part.to_string() }</code> }
            } else {
                html! { { part.to_string() } }
            }
        })
        .collect()
}

/// Why MY or TARGET is left out: its ad is gone, or its pool is a submit
/// file (whose job ads are a pool of their own).
fn missing(s: &AppState, side: &str, r: Option<AdRef>, label: Option<&str>) -> Html {
    let id = if side == "MY" {
        "my-missing"
    } else {
        "target-missing"
    };
    match r.and_then(|r| s.pools.get(r.pool)) {
        Some(p) if crate::bridge::submit::looks_like_submit(&p.text) => html! {
            <p class="status muted" {id}>{ format!("\u{201c}{}\u{201d} is a submit description file: {side} is one of the job ads it makes (put them in a pool with the button under it).", p.name) }</p>
        },
        _ => {
            html! { <p class="status v-error" {id} role="alert">{ missing_text(side, label) }</p> }
        }
    }
}

fn missing_text(side: &str, label: Option<&str>) -> String {
    match label {
        Some(l) => format!("The chosen {side} ad \u{201c}{l}\u{201d} no longer parses (or is gone from its pool): evaluating without it. Fix it in the pool, or pick another."),
        None => format!("The chosen {side} ad is not in its pool any more (does the pool still parse?): evaluating without it."),
    }
}

fn which_name(which: &str) -> &str {
    match which {
        "expr" => "expression",
        "my" => "MY ad",
        "target" => "TARGET ad",
        "scope" => "Scope",
        "engine" => "Engine",
        other => other,
    }
}
