//! Classroom mode: a finished cycle replayed one job at a time. For the
//! job whose turn it is: every machine that matches it both ways, each
//! one's docking vector, which were already taken and which one it got;
//! beside it, the machines consumed so far and the queue of jobs.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::matchmaking::shown::Shown;
use crate::components::widgets::term::TermHelp;
use crate::components::widgets::words::thousands;
use gloo_timers::callback::Timeout;

#[derive(Properties, PartialEq)]
pub struct ClassroomProps {
    pub shown: Rc<Shown>,
    /// Index into the cycle's outcomes (the order jobs were considered).
    pub step: usize,
    pub on_step: Callback<usize>,
    pub on_close: Callback<()>,
}

/// What the default docking vector's parts mean (thesis Figure 9).
const VECTOR_LEGEND: &str = "Docking vector {job's Rank, 2 = idle machine / 1 = rank preemption / 0 = priority preemption, preemption rank}: the negotiator gives the job the machine with the largest vector, compared part by part; a machine whose vector is undefined or error is not eligible.";
/// The same for HTCondor's negotiator (a five-part vector).
const HTCONDOR_LEGEND: &str = "Docking vector {NEGOTIATOR_PRE_JOB_RANK, job's Rank, NEGOTIATOR_POST_JOB_RANK, 2 = idle slot / 1 = rank preemption / 0 = priority preemption, PREEMPTION_RANK}: HTCondor's negotiator gives the job the slot with the largest, compared part by part; a claimed slot neither preemption allows is not eligible.";

/// Candidates listed per step (the rest are counted).
const SHOWN_CANDIDATES: usize = 200;
const PLAY_MS: u32 = 1200;

/// The machines taken before step `k`: machine → (step, job id).
fn taken_before(s: &Shown, k: usize) -> Vec<(usize, usize, String)> {
    s.cycle.outcomes[..k.min(s.cycle.outcomes.len())]
        .iter()
        .enumerate()
        .filter_map(|(i, o)| Some((o.machine?, i, s.job_label(o))))
        .collect()
}

#[component]
pub fn Classroom(props: &ClassroomProps) -> Html {
    let playing = use_state(|| false);
    let timer = use_mut_ref(|| None::<Timeout>);
    let s = &props.shown;
    let legend = if s.htcondor {
        HTCONDOR_LEGEND
    } else {
        VECTOR_LEGEND
    };
    // The jobs that carry their candidates: every job of a small cycle,
    // the first ones of a big one.
    let n = s.detailed.min(s.cycle.outcomes.len());
    let k = props.step.min(n.saturating_sub(1));
    // Play: one step per tick, stopping at the end.
    {
        let (playing, on_step, timer) = (playing.clone(), props.on_step.clone(), timer.clone());
        use_effect_with((*playing, k), move |(on, k)| {
            let k = *k;
            *timer.borrow_mut() = None;
            if *on {
                if k + 1 < n {
                    *timer.borrow_mut() = Some(Timeout::new(PLAY_MS, move || on_step.emit(k + 1)));
                } else {
                    playing.set(false);
                }
            }
        });
    }
    let Some(o) = s.cycle.outcomes.get(k) else {
        return html! {};
    };
    let go = |to: usize| {
        let on_step = props.on_step.clone();
        Callback::from(move |_| {
            on_step.emit(to);
            // At either end one of Prev/Next is disabled: the other takes the focus.
            if to + 1 >= n {
                crate::components::widgets::focus::focus_after_render("class-prev");
            } else if to == 0 {
                crate::components::widgets::focus::focus_after_render("class-next");
            }
        })
    };
    // Play at the last step starts over.
    let toggle = {
        let (playing, on_step) = (playing.clone(), props.on_step.clone());
        Callback::from(move |_| {
            if !*playing && k + 1 >= n {
                on_step.emit(0);
            }
            playing.set(!*playing)
        })
    };
    let on_range = {
        let on_step = props.on_step.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(i) = v.parse::<usize>() {
                on_step.emit(i.saturating_sub(1));
            }
        })
    };
    let close = {
        let c = props.on_close.clone();
        Callback::from(move |_| c.emit(()))
    };
    crate::components::widgets::escape::use_escape(true, props.on_close.clone());
    let taken = taken_before(s, k);
    let taken_by = |m: usize| taken.iter().find(|t| t.0 == m);
    let claimed = |m: usize| s.cycle.claimed_by(m);
    // Of the machines still free at its turn, which are idle, which claimed.
    let free: Vec<usize> = o
        .considered
        .iter()
        .map(|c| c.machine)
        .filter(|m| taken_by(*m).is_none())
        .collect();
    let idle_count = free.iter().filter(|m| claimed(**m).is_none()).count();
    let claimed_count = free.len() - idle_count;
    // The chosen machine first, then the rest in pool order.
    let (mut cands, rest): (Vec<&classad::api::session::CycleCandidate>, Vec<_>) = o
        .considered
        .iter()
        .partition(|c| Some(c.machine) == o.machine);
    cands.extend(rest);
    let vector = |v: &[String]| {
        crate::components::widgets::numbers::people(&format!("{{{}}}", v.join(", ")))
    };
    let among = |n: usize| {
        let split = if claimed_count > 0 {
            format!(" ({idle_count} idle, {claimed_count} claimed)")
        } else {
            String::new()
        };
        format!(
            "{} compatible machine{}{split}",
            n,
            if n == 1 { "" } else { "s" }
        )
    };
    let result = match o.machine.map(|m| (m, s.machine_label(m))) {
        Some((m, label)) => {
            let taking = match &o.preempts {
                Some(p) => format!(
                    "Gets {label}, preempting {}'s job ({} preemption: {})",
                    p.user,
                    match p.kind {
                        classad::api::session::PreemptionKind::Rank => "rank",
                        classad::api::session::PreemptionKind::Priority => "priority",
                    },
                    p.why
                ),
                None if claimed(m).is_none() => format!("Gets {label}, which is idle"),
                None => format!("Gets {label}"),
            };
            format!(
                "{taking}: the best docking vector {} among {}.",
                vector(&o.vector),
                among(o.candidates.unwrap_or(free.len()))
            )
        }
        None if !o.considered.is_empty()
            && o.considered.iter().all(|c| taken_by(c.machine).is_some()) =>
        {
            // Name what it could have had and which step took it.
            let went: Vec<String> = o
                .considered
                .iter()
                .filter_map(|c| taken_by(c.machine))
                .map(|(m, step, job)| {
                    format!(
                        "{} went to job {job} in step {}",
                        s.machine_label(*m),
                        step + 1
                    )
                })
                .collect();
            format!(
                "Gets no machine: its {} {} taken earlier — {}.",
                among(o.considered.len()),
                if o.considered.len() == 1 {
                    "was"
                } else {
                    "were all"
                },
                went.join("; ")
            )
        }
        None => format!("Gets no machine — {}.", s.cycle.reason(o)),
    };
    let rows = cands.iter().take(SHOWN_CANDIDATES).map(|c| {
        let label = s.machine_label(c.machine);
        let held = claimed(c.machine)
            .map(|u| format!("claimed by {u}; "))
            .unwrap_or_default();
        let (class, status) = if Some(c.machine) == o.machine {
            ("chosen", format!("★ chosen{}", claimed(c.machine).map(|u| format!(" (preempts {u})")).unwrap_or_default()))
        } else if let Some((_, step, job)) = taken_by(c.machine) {
            ("taken", format!("taken by job {job} (step {})", step + 1))
        } else if c.vector.is_none() {
            let why = o
                .vector_failures
                .iter()
                .find(|(m, _)| *m == c.machine)
                .map(|(_, w)| w.clone())
                .unwrap_or_else(|| "a component is not a number".into());
            ("discarded", format!("{held}not eligible: {why}"))
        } else if held.is_empty() {
            ("free", "idle, but a lower vector".to_string())
        } else {
            ("free", format!("{held}a lower vector"))
        };
        html! {
            <tr class={class}>
                <td><code>{ label }</code></td>
                <td>{ match &c.vector { Some(v) => html! { <code title={format!("exactly: {{{}}}", v.join(", "))}>{ vector(v) }</code> }, None => html! { <span class="muted">{ "—" }</span> } } }</td>
                <td>{ status }</td>
            </tr>
        }
    });
    let more = cands.len().saturating_sub(SHOWN_CANDIDATES);
    let queue_from = k.saturating_sub(3);
    let queue = s.cycle.outcomes[queue_from..(k + 7).min(n)]
        .iter()
        .enumerate()
        .map(|(d, q)| {
            let i = queue_from + d;
            let state = if i < k {
                match q.machine {
                    Some(m) => format!("→ {}", s.machine_label(m)),
                    None => "→ none".to_string(),
                }
            } else if i == k {
                "← now".to_string()
            } else {
                String::new()
            };
            html! {
                <li class={classes!((i == k).then_some("current"), (i < k).then_some("done"))}>
                    <button class="link" onclick={go(i)}><code>{ s.job_label(q) }</code></button>
                    <span class="muted">{ format!(" {state}") }</span>
                </li>
            }
        });
    let skipped = o.skipped;
    html! {
        <section class="classroom" aria-label="Classroom" id="classroom-panel">
            <div class="class-head">
                <h3 id="class-step">{ format!("Step {} of {}: job {}", k + 1, thousands(n as u64), s.job_label(o)) }
                    if let Some(c) = o.cluster { <span class="muted">{ format!(" (auto-cluster {c})") }</span> }
                </h3>
                <div class="class-controls">
                    <button id="class-prev" onclick={go(k.saturating_sub(1))} disabled={k == 0}>{ "◀ Prev" }</button>
                    <button id="class-play" onclick={toggle}>{ if *playing { "❚❚ Pause" } else { "▶ Play" } }</button>
                    <button id="class-next" onclick={go((k + 1).min(n.saturating_sub(1)))} disabled={k + 1 >= n}>{ "Next ▶" }</button>
                    <input type="range" min="1" max={n.to_string()} value={(k + 1).to_string()} oninput={on_range} aria-label="Step" />
                    <button onclick={close} aria-label="Close the classroom">{ "×" }</button>
                </div>
            </div>
            <p class={classes!("class-result", if o.machine.is_some() { "v-true" } else { "v-false" })} id="class-result">{ result }</p>
            <div class="class-grid">
                <div class="class-cands">
                    <h4>{ format!("Machines that match it both ways ({})", thousands(o.considered.len() as u64)) }</h4>
                    if skipped {
                        <p class="muted">{ "Not surveyed: its auto-cluster already failed this cycle, so the negotiator skips it." }</p>
                    } else if o.considered.is_empty() {
                        <p class="muted">{ "None." }</p>
                    } else {
                        <table class="cands" id="class-cands">
                            <thead><tr><th>{ "Machine" }</th><th>{ "Docking vector" }<TermHelp term="the docking vector" anchor="matchmaking" text={legend} /></th><th>{ "" }</th></tr></thead>
                            <tbody>{ for rows }</tbody>
                        </table>
                        <p class="muted vector-legend" id="class-legend">{ legend }</p>
                        if more > 0 { <p class="muted">{ format!("and {} more", thousands(more as u64)) }</p> }
                    }
                </div>
                <div class="class-taken">
                    <h4>{ format!("Taken before this step ({})", taken.len()) }</h4>
                    if taken.is_empty() && s.cycle.claimed.is_empty() {
                        <p class="muted">{ "Nothing yet: every machine is idle." }</p>
                    } else if taken.is_empty() {
                        <p class="muted">{ "Nothing yet in this cycle." }</p>
                    } else {
                        <ul id="class-taken">
                            { for taken.iter().rev().take(100).map(|(m, _, job)| html! {
                                <li><code>{ s.machine_label(*m) }</code><span class="muted">{ format!(" ← job {job}") }</span></li>
                            }) }
                        </ul>
                    }
                if !s.cycle.claimed.is_empty() {
                        <div class="class-claimed">
                            <h4 class="claimed-head">{ format!("Claimed when the cycle began ({})", s.cycle.claimed.len()) }</h4>
                            <ul id="class-claimed">
                                { for s.cycle.claimed.iter().take(100).map(|(m, user)| html! {
                                    <li><code>{ s.machine_label(*m) }</code><span class="muted">{ format!(" runs {user}'s job") }</span></li>
                                }) }
                            </ul>
                        </div>
                    }
                </div>
                <div class="class-queue">
                    <h4>{ "Queue (priority order)" }</h4>
                    <ol start={(queue_from + 1).to_string()}>{ for queue }</ol>
                </div>
            </div>
        </section>
    }
}
