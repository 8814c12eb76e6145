//! The analyzer's text: better-analyze's report of the job (to copy into
//! a ticket or a mail), and the reverse analysis — one machine's
//! requirements step by step over the jobs.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::PoolRequest;
use classad::api::Mode;
use yew::prelude::*;

use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::components::matchmaking::match_bar::MatchPools;
use classad::api::session::ReverseView as Reverse;

#[derive(Properties, PartialEq)]
pub struct ReportProps {
    pub report: String,
}

/// Copy `text` to the clipboard; `done` hears whether it worked.
pub fn copy_text(text: &str, done: Callback<bool>) {
    let Some(w) = web_sys::window() else {
        done.emit(false);
        return;
    };
    let promise = w.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        done.emit(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

#[component]
pub fn ReportView(props: &ReportProps) -> Html {
    let copied = use_state(|| None::<bool>);
    {
        let copied = copied.clone();
        use_effect_with(props.report.clone(), move |_| copied.set(None));
    }
    let on_copy = {
        let (copied, text) = (copied.clone(), props.report.clone());
        Callback::from(move |_| {
            let copied = copied.clone();
            copy_text(&text, Callback::from(move |ok| copied.set(Some(ok))));
        })
    };
    html! {
        <section class="an-report" id="report">
            <div class="report-head">
                <h3>{ "The report (condor_q -better-analyze)" }</h3>
                <button id="copy-report" onclick={on_copy}>{ "Copy" }</button>
                { match *copied {
                    Some(true) => html! { <span id="copied" class="copied" role="status">{ "Copied" }</span> },
                    Some(false) => html! { <span id="copied" class="v-error" role="status">{ "The browser did not allow copying: select the text instead." }</span> },
                    None => html! {},
                } }
            </div>
            <pre class="report" tabindex="0" aria-label="Analysis report">{ props.report.clone() }</pre>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ReverseProps {
    pub session: Session,
    pub pools: MatchPools,
    pub machines: Rc<PoolInfo>,
    pub mode: Mode,
    pub clock: Option<String>,
    pub all_steps: bool,
}

/// The reverse analysis: pick a machine, see its requirements over the jobs.
#[component]
pub fn ReverseView(props: &ReverseProps) -> Html {
    let machine = use_state(|| 0usize);
    let answer = use_state(|| None::<Result<String, String>>);
    let busy = use_state(|| false);
    let n = props.machines.ads;
    if n == 0 {
        return html! {};
    }
    let on_pick = {
        let (machine, answer) = (machine.clone(), answer.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(i) = v.parse() {
                machine.set(i);
                answer.set(None);
            }
        })
    };
    let run = {
        let (session, args) = (props.session.clone(), props.pools.args());
        let (answer, busy, m) = (answer.clone(), busy.clone(), (*machine).min(n - 1));
        let (mode, clock, all_steps) = (props.mode, props.clock.clone(), props.all_steps);
        Callback::from(move |_| {
            busy.set(true);
            let now = crate::bridge::clock::resolve(clock.as_deref());
            let (answer, busy) = (answer.clone(), busy.clone());
            session.request(
                &args,
                move |ids| PoolRequest::Reverse {
                    jobs: ids.first().cloned().unwrap_or_default(),
                    machines: ids.get(1).cloned().unwrap_or_default(),
                    machine: m,
                    all_steps,
                    context: EvalOptions::at(mode, now.0, now.1),
                },
                None,
                move |r: Result<Reverse, String>| {
                    busy.set(false);
                    match r {
                        Err(e) if e == CANCELLED => {}
                        r => answer.set(Some(r.map(|r| r.report))),
                    }
                },
            );
        })
    };
    // Long pools list only their first machines; the rest by the number box.
    let shown = n.min(2_000);
    html! {
        <section class="an-reverse" id="reverse">
            <h3>{ "From a machine's side (reverse analysis)" }</h3>
            <div class="matrix-tools">
                <label>{ "Machine " }
                    <select id="reverse-machine" onchange={on_pick}>
                        { for (0..shown).map(|i| html! {
                            <option value={i.to_string()} selected={i == *machine}>{ props.machines.labels.get(i).cloned().unwrap_or_else(|| (i + 1).to_string()) }</option>
                        }) }
                    </select>
                </label>
                <button id="reverse-run" onclick={run} disabled={*busy}>{ if *busy { "Analyzing…" } else { "Its requirements over the jobs" } }</button>
            </div>
            { match &*answer {
                Some(Ok(t)) => html! { <pre class="report" id="reverse-report" tabindex="0">{ t.clone() }</pre> },
                Some(Err(e)) => html! { <p class="status v-error">{ format!("The reverse analysis failed: {e}") }</p> },
                None => html! {},
            } }
        </section>
    }
}
