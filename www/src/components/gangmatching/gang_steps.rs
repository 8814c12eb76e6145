//! Classroom: the recorded search replayed one step at a time — the port
//! fill order (with the initial probes' result sizes), each probe's window
//! and how many candidates it returned, each candidate tried and the
//! docking's answer, each backtrack, and each request's outcome.

use std::rc::Rc;

use classad::api::session::GangStep as Step;
use yew::prelude::*;

use crate::components::gangmatching::algorithms::algorithm_name;
use crate::components::gangmatching::shown::Shown;
use crate::components::widgets::words::thousands;
use gloo_timers::callback::Timeout;

const PLAY_MS: u32 = 900;
/// Steps shown before the current one.
const CONTEXT: usize = 12;

fn words(s: &Step) -> (&'static str, String) {
    match s {
        Step::Request { name, .. } => ("request", format!("Request {name}: a gang is marshalled for it.")),
        Step::Order { ad, ports, found, abort } => {
            let sizes: Vec<String> = ports
                .iter()
                .zip(found)
                .map(|(p, f)| match f {
                    Some(n) => format!("{p} ({} candidate{})", thousands(*n as u64), if *n == 1 { "" } else { "s" }),
                    None => p.clone(),
                })
                .collect();
            if *abort {
                ("abort", format!("{ad}: an initial probe found no candidate for {}: it cannot be completed.", sizes.last().cloned().unwrap_or_default()))
            } else {
                ("order", format!("{ad}: its ports are filled in the order {}.", sizes.join(", then ")))
            }
        }
        Step::Probe { ad, port, window, found } => (
            "probe",
            format!("Probe the index for {ad}.{port}: window {window} → {} candidate{}.", thousands(*found as u64), if *found == 1 { "" } else { "s" }),
        ),
        Step::Scan { ad, port, tested, docked } => (
            "probe",
            format!("{ad}.{port}: every free offer's ports tried ({} tested), {} dock.", thousands(*tested as u64), thousands(*docked as u64)),
        ),
        Step::Try { ad, port, offer, via, answer } => {
            let class = if answer.starts_with("no") { "no" } else { "yes" };
            (class, format!("Dock {offer} (its port {via}) at {ad}.{port}: {answer}."))
        }
        Step::Backtrack { ad, port, offer } => (
            "backtrack",
            format!("Backtrack: {offer} is taken out of {ad}.{port} — nothing completes the gang with it."),
        ),
        Step::Verify { ok } => (
            if *ok { "yes" } else { "no" },
            if *ok {
                "The complete gang is re-checked with every label bound: every docking holds.".into()
            } else {
                "The complete gang is re-checked with every label bound: a docking fails.".into()
            },
        ),
        Step::Done { gang, limit_hit, .. } => match (gang, limit_hit) {
            (Some(g), _) => ("done", format!("Gang made: {g}. Its offers are taken.")),
            (None, true) => ("no", "Given up: the evaluation budget ran out.".into()),
            (None, false) => ("no", "No gang among the free offers.".into()),
        },
    }
}

#[derive(Properties, PartialEq)]
pub struct StepsProps {
    pub shown: Rc<Shown>,
}

#[component]
pub fn GangSteps(props: &StepsProps) -> Html {
    let at = use_state(|| 0usize);
    let playing = use_state(|| false);
    let timer = use_mut_ref(|| None::<Timeout>);
    let steps = &props.shown.answer.steps;
    let n = steps.len();
    let k = (*at).min(n.saturating_sub(1));
    {
        let (playing, at, timer) = (playing.clone(), at.clone(), timer.clone());
        use_effect_with((*playing, k), move |(on, k)| {
            let k = *k;
            *timer.borrow_mut() = None;
            if *on {
                if k + 1 < n {
                    *timer.borrow_mut() = Some(Timeout::new(PLAY_MS, move || at.set(k + 1)));
                } else {
                    playing.set(false);
                }
            }
        });
    }
    if n == 0 {
        return html! { <p class="muted">{ "Nothing was recorded: run again." }</p> };
    }
    let go = |to: usize| {
        let at = at.clone();
        Callback::from(move |_| at.set(to))
    };
    let toggle = {
        let playing = playing.clone();
        Callback::from(move |_| playing.set(!*playing))
    };
    let on_range = {
        let at = at.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(i) = v.parse::<usize>() {
                at.set(i.saturating_sub(1));
            }
        })
    };
    // Requests, for jumping to one.
    let starts: Vec<(usize, String)> = steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Step::Request { name, .. } => Some((i, name.clone())),
            _ => None,
        })
        .collect();
    let on_jump = {
        let at = at.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(i) = v.parse::<usize>() {
                at.set(i);
            }
        })
    };
    let current_request = starts.iter().rev().find(|(i, _)| *i <= k).map(|x| x.0);
    let from = k.saturating_sub(CONTEXT);
    let list = (from..=k).map(|i| {
        let (class, text) = words(&steps[i]);
        html! {
            <li class={classes!("gang-step", class, (i == k).then_some("current"))} aria-current={(i == k).then_some("step")}>
                <span class="num">{ i + 1 }</span>{ " " }{ text }
            </li>
        }
    });
    let a = &props.shown.answer;
    html! {
        <section class="classroom gang-steps" aria-label="The search step by step">
            <p class="muted">{ format!("{}: the search as it ran, {} recorded.", algorithm_name(a.algorithm), thousands(n as u64)) }
                if a.steps_cut { <strong>{ " The record stops there: later steps are not shown (the counters cover the whole run)." }</strong> }
            </p>
            <div class="stepper">
                <button onclick={go(0)} disabled={k == 0}>{ "First" }</button>
                <button id="gang-prev" onclick={go(k.saturating_sub(1))} disabled={k == 0}>{ "Prev" }</button>
                <button id="gang-play" onclick={toggle}>{ if *playing { "Pause" } else { "Play" } }</button>
                <button id="gang-next" onclick={go(k + 1)} disabled={k + 1 >= n}>{ "Next" }</button>
                <input type="range" min="1" max={n.to_string()} value={(k + 1).to_string()} oninput={on_range} aria-label="Step" />
                <span id="gang-step-at">{ format!("step {} of {}", k + 1, n) }</span>
                <label>{ " Request " }
                    <select onchange={on_jump} aria-label="Jump to a request">
                        { for starts.iter().map(|(i, name)| html! {
                            <option value={i.to_string()} selected={Some(*i) == current_request}>{ name.clone() }</option>
                        }) }
                    </select>
                </label>
            </div>
            <ol class="gang-step-list" id="gang-steps">{ for list }</ol>
        </section>
    }
}
