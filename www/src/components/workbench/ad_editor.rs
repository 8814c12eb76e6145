//! Editing one ad of a pool too big for a textarea: the ad's text in its
//! own small editor (highlighted, with its diagnostics), put back into the
//! pool on Apply.

use std::rc::Rc;

use yew::prelude::*;

use crate::bridge::parses::PoolSummary;
use crate::components::widgets::highlight::Mark;
use crate::components::widgets::text_editor::{TextEditor, Tokens};

#[derive(Properties, PartialEq)]
pub struct AdEditorProps {
    /// The ad's text when editing began.
    pub text: Rc<str>,
    /// Which ad, for the heading.
    pub label: String,
    pub on_apply: Callback<Rc<str>>,
    pub on_cancel: Callback<()>,
}

#[component]
pub fn AdEditor(props: &AdEditorProps) -> Html {
    let text = use_state(|| props.text.clone());
    let tokens = use_memo(
        ((*text).clone(), crate::bridge::dialect::current()),
        |(t, d)| classad::api::highlight_pool(t, *d),
    );
    // Its diagnostics, from the quick engine worker (for the text they
    // belong to: marks are never drawn over a newer text).
    let summary = use_state(|| None::<(Rc<str>, Rc<PoolSummary>)>);
    {
        let summary = summary.clone();
        use_effect_with((*text).clone(), move |t| {
            let t = t.clone();
            crate::bridge::engine::request(
                "ad editor",
                &crate::bridge::dialect::verb("pool"),
                &t.clone(),
                move |r| {
                    let s = r
                        .and_then(|j| {
                            serde_json::from_str::<PoolSummary>(j).map_err(|e| e.to_string())
                        })
                        .unwrap_or_else(|e| PoolSummary {
                            ads: vec![],
                            diagnostics: vec![classad::api::Diagnostic::new(
                                classad::api::Span::NONE,
                                e,
                            )],
                            engine_memory: None,
                        });
                    summary.set(Some((t, Rc::new(s))));
                },
            );
        });
    }
    let summary: Rc<PoolSummary> = match &*summary {
        Some((t, s)) if Rc::ptr_eq(t, &*text) => s.clone(),
        _ => Rc::new(PoolSummary::default()),
    };
    let marks = use_memo(summary.clone(), |s| {
        s.diagnostics
            .iter()
            .map(|d| Mark {
                start: d.span.start as usize,
                end: d.span.end as usize,
                class: if d.is_error() {
                    "mk-error"
                } else {
                    "mk-warning"
                },
            })
            .collect::<Vec<_>>()
    });
    let on_change = {
        let text = text.clone();
        Callback::from(move |t: Rc<str>| text.set(t))
    };
    let apply = {
        let text = text.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |_| on_apply.emit((*text).clone()))
    };
    let cancel = {
        let on_cancel = props.on_cancel.clone();
        Callback::from(move |_| on_cancel.emit(()))
    };
    let problems = summary.diagnostics.len();
    html! {
        <div class="ad-editor" role="group" aria-label={format!("Editing {}", props.label)}>
            <p class="ad-editor-head">
                <strong>{ format!("Editing {}", props.label) }</strong>
                if problems > 0 {
                    <span class="diag-error">{ format!(" — {problems} problem{}: {}", if problems == 1 { "" } else { "s" }, summary.diagnostics[0].message) }</span>
                }
            </p>
            <TextEditor id="ad-text" text={(*text).clone()} on_change={on_change} tokens={Tokens(tokens.clone())} marks={marks.clone()}
                label={format!("Text of {}", props.label)} />
            <div class="ad-editor-tools">
                <button onclick={apply}>{ "Apply to the pool" }</button>
                <button onclick={cancel}>{ "Cancel" }</button>
            </div>
        </div>
    }
}
