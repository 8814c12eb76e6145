//! The evaluator: an expression, the ads that are MY and TARGET, the scope
//! inside MY, the value and its explain tree.

use std::rc::Rc;

use classad::api::{Request, Response};
use classad::{Diagnostic, TraceNode};
use yew::prelude::*;

use super::explain::{Explain, Picked};
use super::pool_editor::{parse, ParsedPool};
use crate::app::Action;
use crate::engine;
use crate::state::{AdRef, AppState};

#[derive(Properties, PartialEq)]
pub struct EvaluatorProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
}

#[derive(Clone, PartialEq)]
enum Outcome {
    None,
    Value {
        value: String,
        kind: String,
        trace: Option<TraceNode>,
        ms: f64,
    },
    Failed {
        which: String,
        diagnostics: Vec<Diagnostic>,
    },
}

/// The text of one ad of a pool (its slice of the pool text).
fn ad_text(state: &AppState, pools: &[Rc<ParsedPool>], r: Option<AdRef>) -> Option<String> {
    let r = r?;
    let text = &state.pools.get(r.pool)?.text;
    let a = pools.get(r.pool)?.ads.get(r.ad)?;
    text.get(a.start as usize..a.end as usize)
        .map(str::to_string)
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

#[component]
pub fn EvaluatorPanel(props: &EvaluatorProps) -> Html {
    let s = props.state.clone();
    // Parse every pool (memoized per text) to list ads and slice them.
    let texts: Vec<String> = s.pools.iter().map(|p| p.text.clone()).collect();
    let pools = use_memo(texts, |ts| {
        ts.iter().map(|t| Rc::new(parse(t))).collect::<Vec<_>>()
    });
    let outcome = use_state(|| Outcome::None);
    let picked = use_state(|| None::<Picked>);
    let expr_ref = use_node_ref();

    let evaluate = {
        let s = s.clone();
        let pools = pools.clone();
        let outcome = outcome.clone();
        let picked = picked.clone();
        Callback::from(move |_: ()| {
            let my = ad_text(&s, &pools, s.my);
            let target = ad_text(&s, &pools, s.target);
            let t0 = now_ms();
            let resp = engine::call(Request::Evaluate {
                expr: s.expr.clone(),
                my,
                target,
                scope: s.scope.clone(),
                mode: s.mode,
                dialect: Default::default(),
                trace: true,
                now: Some(js_sys::Date::now() / 1000.0),
                tz_offset: Some((-js_sys::Date::new_0().get_timezone_offset() * 60.0) as i32),
            });
            let ms = now_ms() - t0;
            picked.set(None);
            outcome.set(match resp {
                Response::Value {
                    value,
                    value_kind,
                    trace,
                } => Outcome::Value {
                    value,
                    kind: value_kind,
                    trace,
                    ms,
                },
                Response::Failed { which, diagnostics } => Outcome::Failed { which, diagnostics },
                _ => Outcome::None,
            });
        })
    };
    // Re-evaluate whenever the inputs change.
    {
        let evaluate = evaluate.clone();
        let key = (
            s.expr.clone(),
            s.my,
            s.target,
            s.scope.clone(),
            s.mode,
            s.pools.clone(),
        );
        use_effect_with(key, move |_| evaluate.emit(()));
    }
    let on_input = {
        let d = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            d.emit(Action::SetExpr(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            ))
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
    let ad_options = |current: Option<AdRef>| -> Html {
        let mut opts =
            vec![html! { <option value="" selected={current.is_none()}>{ "(none)" }</option> }];
        for (pi, p) in s.pools.iter().enumerate() {
            if let Some(pp) = pools.get(pi) {
                for (ai, a) in pp.ads.iter().enumerate().take(5000) {
                    let v = format!("{pi}:{ai}");
                    let sel = current == Some(AdRef { pool: pi, ad: ai });
                    opts.push(html! { <option value={v} selected={sel}>{ format!("{} / {}", p.name, a.label) }</option> });
                }
            }
        }
        html! { <>{ for opts }</> }
    };
    let parse_ref = |v: String| -> Option<AdRef> {
        let (p, a) = v.split_once(':')?;
        Some(AdRef {
            pool: p.parse().ok()?,
            ad: a.parse().ok()?,
        })
    };
    let on_my = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            d.emit(Action::SetMy(parse_ref(v)));
        })
    };
    let on_target = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            d.emit(Action::SetTarget(parse_ref(v)));
        })
    };
    let on_scope = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            let path: Vec<String> = v
                .split('.')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            d.emit(Action::SetScope(path));
        })
    };
    let on_pick = {
        let picked = picked.clone();
        Callback::from(move |p: Picked| picked.set(Some(p)))
    };
    let expr_tokens = classad::lexer::highlight(&s.expr, Default::default());
    let mark = match &*picked {
        Some(p) if p.attribute.is_none() => Some((p.start, p.end)),
        _ => None,
    };
    let source_of_pick = match &*picked {
        Some(Picked {
            attribute: Some(a),
            start,
            end,
        }) => {
            // Show the definition the span belongs to, from MY or TARGET.
            let mut found = None;
            for r in [s.my, s.target] {
                if let Some(text) = ad_text(&s, &pools, r) {
                    if let Some(sub) = text.get(*start..*end) {
                        found = Some((a.clone(), sub.to_string()));
                        break;
                    }
                }
            }
            found
        }
        _ => None,
    };

    html! {
        <section class="evaluator" aria-label="Evaluator">
            <label for="expr">{ "Expression " }<small>{ "(Ctrl/⌘+Enter evaluates)" }</small></label>
            <div class="editor small">
                <pre class="highlight" aria-hidden="true">{ super::highlight::render(&s.expr, &expr_tokens, mark) }</pre>
                <textarea id="expr" ref={expr_ref} spellcheck="false" value={s.expr.clone()} oninput={on_input} onkeydown={on_key} />
            </div>
            <div class="ad-pickers">
                <label>{ "MY / self " }<select id="my-ad" onchange={on_my}>{ ad_options(s.my) }</select></label>
                <label>{ "TARGET / other " }<select id="target-ad" onchange={on_target}>{ ad_options(s.target) }</select></label>
                <label>{ "Scope inside MY " }<input id="scope" placeholder="e.g. Gpu (nested record path)" value={s.scope.join(".")} onchange={on_scope} /></label>
                <button id="evaluate" onclick={let e = evaluate.clone(); Callback::from(move |_| e.emit(()))}>{ "Evaluate" }</button>
            </div>
            <div class="result" aria-live="polite">
                { match &*outcome {
                    Outcome::None => html! {},
                    Outcome::Value { value, kind, ms, .. } => html! {
                        <p id="value" class={classes!("value", match value.as_str() { "undefined" => "v-undef", "error" => "v-error", _ => "" })}>
                            <code>{ value.clone() }</code>
                            <span class="kind">{ format!(" ({kind}, {ms:.1} ms)") }</span>
                        </p>
                    },
                    Outcome::Failed { which, diagnostics } => html! {
                        <div id="value" class="value v-error">
                            { for diagnostics.iter().map(|d| html! {
                                <p>{ format!("{which} {}:{}: {}", d.line, d.column, d.message) }
                                   if let Some(e) = &d.expected { { format!(" — expected {e}") } }</p>
                            }) }
                        </div>
                    },
                } }
            </div>
            if let Some((attr, text)) = source_of_pick {
                <p class="picked-source">{ "In " }<code>{ attr }</code>{ ": " }<code class="tk-mark">{ text }</code></p>
            }
            if let Outcome::Value { trace: Some(root), .. } = &*outcome {
                <h2>{ "Explain" }</h2>
                <Explain root={root.clone()} on_pick={on_pick} />
            }
        </section>
    }
}
