//! The negotiation view: one cycle run in the worker (with or without
//! auto-clustering), shown as a table — job → machine, rank, docking
//! vector, reason, and the job's `$$()` attributes after the match — paged,
//! so 10,000 jobs are no more work to show than 100. Small pools also get
//! every job's candidates, for the classroom stepper.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::{HTCondorChoice, NegotiatorKnobs, PoolRequest, KNOB_NAMES};
use classad::api::Mode;
use yew::prelude::*;

use crate::components::widgets::term::TermHelp;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::components::matchmaking::classroom::Classroom;
use crate::components::matchmaking::match_bar::{
    match_view, use_stop_on_leave, MatchPools, MatchViewProps, Progress, ViewFrame,
};
use crate::components::matchmaking::shown::{Key, Shown};
use crate::components::widgets::words::{count, duration, thousands};
use crate::state::actions::Action;
use crate::state::app_state::MatchSettings;

/// Cycles up to this many pairs run by themselves when the view opens.
const RUN_AT_ONCE: u64 = 250_000;
/// Up to this many pairs, the cycle records every job's candidates (the
/// classroom needs them; for big pools they would be megabytes).
pub const DETAIL_PAIRS: u64 = 40_000;
const PAGE: usize = 100;

#[component]
pub fn NegotiationView(props: &MatchViewProps) -> Html {
    let frame = ViewFrame {
        label: "Negotiation",
        class: None,
        title: "Negotiation cycle",
        intro: "The negotiator takes the jobs in priority order and gives each the free machine that matches it both ways with the best docking vector (the job's Rank, then the preemption policy); a matched machine is taken. Auto-clustering surveys the machines once per group of alike jobs.",
    };
    match_view(props, frame, |jobs, machines| {
        html! {
            <NegotiationBody session={props.session.clone()} pools={props.pools.clone()} {jobs} {machines}
                mode={props.state.mode} settings={props.state.matching.clone()} dispatch={props.dispatch.clone()} />
        }
    })
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    session: Session,
    pools: MatchPools,
    jobs: Rc<PoolInfo>,
    machines: Rc<PoolInfo>,
    mode: Mode,
    settings: MatchSettings,
    dispatch: Callback<Action>,
}

#[derive(Clone, Copy, PartialEq)]
enum Show {
    All,
    Matched,
    Unmatched,
}

fn reason_text(
    c: &classad::api::session::CycleView,
    o: &classad::api::session::CycleOutcome,
    asked: Option<usize>,
) -> String {
    match o.machine {
        Some(_) => match o.candidates.or(asked) {
            Some(n) => format!(
                "matched (best of {n} free compatible machine{})",
                if n == 1 { "" } else { "s" }
            ),
            // Past a million pairs the cycle finds the best without
            // counting the rest (`classad::api::session::COUNT_CANDIDATES_UP_TO`); the
            // summary says so once.
            None => "matched (the best docking vector)".to_string(),
        },
        None => match asked {
            // The engine's sentence for a counted all-taken job.
            Some(1) if o.taken_uncounted => {
                "Its 1 compatible machine was matched to an earlier job".to_string()
            }
            Some(n) if o.taken_uncounted => {
                format!(
                    "All {} compatible machines were matched to earlier jobs",
                    crate::components::widgets::words::thousands(n as u64)
                )
            }
            _ => c.reason(o).to_string(),
        },
    }
}

/// Matched jobs' counts asked for after the cycle, by row (`None`: being
/// counted).
#[derive(Default, PartialEq)]
struct Counts(std::collections::HashMap<usize, Option<usize>>);

enum CountAction {
    Asking(usize),
    Got(usize, usize),
    Forget(usize),
    /// A new cycle: its rows are others.
    Clear,
}

impl Reducible for Counts {
    type Action = CountAction;

    fn reduce(self: Rc<Self>, action: CountAction) -> Rc<Self> {
        let mut m = self.0.clone();
        match action {
            CountAction::Asking(i) => {
                m.insert(i, None);
            }
            CountAction::Got(i, n) => {
                m.insert(i, Some(n));
            }
            CountAction::Forget(i) => {
                m.remove(&i);
            }
            CountAction::Clear => m.clear(),
        }
        Rc::new(Counts(m))
    }
}

#[component]
fn NegotiationBody(props: &BodyProps) -> Html {
    let result = use_state(|| None::<Rc<Shown>>);
    let running = use_state(|| None::<(Option<(usize, usize)>, f64)>);
    let error = use_state(|| None::<String>);
    let page = use_state(|| 0usize);
    let show = use_state(|| Show::All);
    // The classroom's step lives in the state: the address shows it and a
    // link opens a lesson there.
    let step = props.settings.step;
    let set_step = {
        let (d, m) = (props.dispatch.clone(), props.settings.clone());
        Callback::from(move |step: Option<usize>| {
            d.emit(Action::SetMatching(MatchSettings { step, ..m.clone() }))
        })
    };
    let counts = use_reducer(Counts::default);

    let key: Key = (
        Rc::as_ptr(&props.jobs) as usize,
        Rc::as_ptr(&props.machines) as usize,
        props.mode,
        props.settings.clock.clone(),
    );
    let pairs = props.jobs.ads as u64 * props.machines.ads as u64;
    let run = {
        let (session, args) = (props.session.clone(), props.pools.args());
        let (result, running, error, page, counts) = (
            result.clone(),
            running.clone(),
            error.clone(),
            page.clone(),
            counts.clone(),
        );
        let (mode, clock, autocluster) = (
            props.mode,
            props.settings.clock.clone(),
            props.settings.autocluster,
        );
        let htcondor = props.settings.htcondor.then(|| HTCondorChoice {
            userprio: props.settings.userprio.clone(),
            knobs: props.settings.knobs.clone(),
        });
        let key = key.clone();
        let (jobs, machines) = (props.jobs.clone(), props.machines.clone());
        // Every job's candidates on small pools; on big ones, those of the
        // first jobs only (about DETAIL_PAIRS pairs' worth).
        let detail_jobs = (pairs > DETAIL_PAIRS)
            .then(|| (DETAIL_PAIRS / (props.machines.ads as u64).max(1)).max(1) as usize);
        Callback::from(move |_: ()| {
            let started = now_ms();
            running.set(Some((None, started)));
            error.set(None);
            let now = crate::bridge::clock::resolve(clock.as_deref());
            let progress = {
                let running = running.clone();
                Callback::from(move |at: (usize, usize)| running.set(Some((Some(at), started))))
            };
            let (result, running, error, page, key, jobs, machines, counts) = (
                result.clone(),
                running.clone(),
                error.clone(),
                page.clone(),
                key.clone(),
                jobs.clone(),
                machines.clone(),
                counts.clone(),
            );
            let htcondor = htcondor.clone();
            let by_htcondor = htcondor.is_some();
            session.request(
                &args,
                move |ids| PoolRequest::Negotiate {
                    jobs: ids[0].clone(),
                    machines: ids[1].clone(),
                    autocluster,
                    detail: true,
                    detail_jobs,
                    htcondor,
                    context: EvalOptions::at(mode, now.0, now.1),
                },
                Some(progress),
                move |r: Result<classad::api::session::CycleView, String>| {
                    running.set(None);
                    match r {
                        Ok(a) => {
                            page.set(0);
                            counts.dispatch(CountAction::Clear);
                            let detailed = detail_jobs.unwrap_or(usize::MAX).min(a.outcomes.len());
                            result.set(Some(Rc::new(Shown {
                                detailed,
                                cycle: a,
                                jobs: jobs.clone(),
                                machines: machines.clone(),
                                ms: now_ms() - started,
                                autocluster,
                                htcondor: by_htcondor,
                                key,
                                now,
                            })));
                        }
                        Err(e) if e == CANCELLED => {}
                        Err(e) => error.set(Some(e)),
                    }
                },
            );
        })
    };
    // Small cycles run by themselves (and again when their inputs change).
    {
        let run = run.clone();
        let deps = (
            key.clone(),
            props.settings.autocluster,
            props.settings.htcondor,
            props.settings.userprio.clone(),
            props.settings.knobs.clone(),
        );
        use_effect_with(deps, move |_| {
            if pairs <= RUN_AT_ONCE {
                run.emit(());
            }
        });
    }
    use_stop_on_leave(&props.session, running.is_some());
    let on_autocluster = {
        let (d, m) = (props.dispatch.clone(), props.settings.clone());
        Callback::from(move |_: Event| {
            let mut m = m.clone();
            m.autocluster = !m.autocluster;
            d.emit(Action::SetMatching(m));
        })
    };
    // The policy controls: each change is a new cycle (the classroom,
    // stepping the old one, closes).
    let setting = |apply: fn(&mut MatchSettings, String)| {
        let (d, m) = (props.dispatch.clone(), props.settings.clone());
        Callback::from(move |e: Event| {
            let mut next = MatchSettings {
                step: None,
                ..m.clone()
            };
            apply(&mut next, control_value(&e));
            d.emit(Action::SetMatching(next));
        })
    };
    let on_policy = setting(|m, v| m.htcondor = v == "htcondor");
    let on_userprio = setting(|m, v| m.userprio = v);
    let on_cancel = {
        let s = props.session.clone();
        Callback::from(move |_| s.cancel())
    };
    let busy = running.is_some();
    let controls = html! {
        <div class="matrix-tools">
            <button id="run-cycle" class="primary" disabled={busy} onclick={{ let r = run.clone(); Callback::from(move |_| r.emit(())) }}>{ "Run a cycle" }</button>
            <label class="check"><input type="checkbox" id="autocluster" checked={props.settings.autocluster} onchange={on_autocluster} />{ " auto-clustering" }</label>
            <TermHelp term="auto-clustering" anchor="autocluster" text="Jobs that agree on every attribute the machines' policies and the docking vector read are alike: the machines are surveyed once per group (cluster), and once a cluster fails its other jobs are skipped." />
            <label>{ "Policy " }
                <select id="policy" onchange={on_policy}>
                    <option value="thesis" selected={!props.settings.htcondor}>{ "the thesis' Figure 9 vector" }</option>
                    <option value="htcondor" selected={props.settings.htcondor}>{ "HTCondor 25's negotiator" }</option>
                </select>
            </label>
            <TermHelp term="negotiation policy" anchor="policy" text="The thesis' vector: the job's Rank, then no / rank / priority preemption, read from the ads. HTCondor 25's negotiator: submitters in order of user priority (lower first), then NEGOTIATOR_PRE_JOB_RANK, the job's Rank, NEGOTIATOR_POST_JOB_RANK; a claimed slot is taken when its Rank of the job beats its CurrentRank (rank preemption), or under PREEMPTION_REQUIREMENTS (False by default: no priority preemption)." />
        </div>
    };
    let knob_rows = KNOB_NAMES.iter().map(|name| {
        let value = props
            .settings
            .knobs
            .iter()
            .find(|(k, _)| k == name)
            .map_or_else(|| knob_default(name), |(_, v)| v.clone());
        let changed = props.settings.knobs.iter().any(|(k, _)| k == name);
        // Kept only when it differs from HTCondor's default.
        let on_change = {
            let (d, m, name) = (props.dispatch.clone(), props.settings.clone(), name.to_string());
            Callback::from(move |e: Event| {
                let value = control_value(&e);
                let mut knobs: Vec<(String, String)> =
                    m.knobs.iter().filter(|(k, _)| *k != name).cloned().collect();
                if value.trim() != knob_default(&name) {
                    knobs.push((name.clone(), value));
                }
                d.emit(Action::SetMatching(MatchSettings {
                    knobs,
                    step: None,
                    ..m.clone()
                }));
            })
        };
        html! {
            <label class={classes!("knob", changed.then_some("changed"))}>
                <code>{ *name }</code>
                <input id={format!("knob-{name}")} type="text" spellcheck="false" value={value} onchange={on_change} />
            </label>
        }
    });
    let knobs = props.settings.htcondor.then(|| html! {
        <details class="knobs" open={!props.settings.knobs.is_empty()}>
            <summary>{ format!("Negotiator settings ({} changed from HTCondor 25's defaults)", props.settings.knobs.len()) }</summary>
            { for knob_rows }
        </details>
    });
    let userprio = props.settings.htcondor.then(|| html! {
        <details class="userprio" open={!props.settings.userprio.is_empty()}>
            <summary>{ "User priorities (as condor_userprio -allusers prints them, or one name and priority a line; unlisted users have a new user's 500)" }</summary>
            <textarea id="userprio" rows="6" spellcheck="false" aria-label="User priorities"
                placeholder={"alice@cs.wisc.edu 0.5\nbob@cs.wisc.edu 120"}
                value={props.settings.userprio.clone()} onchange={on_userprio} />
        </details>
    });
    let controls =
        html! { <>{ controls }{ userprio.unwrap_or_default() }{ knobs.unwrap_or_default() }</> };
    let progress = match &*running {
        Some((at, started)) => html! {
            <Progress label="Negotiating…" at={*at} started={Some(started.to_owned())} {on_cancel} />
        },
        None => html! {},
    };
    let err = (*error)
        .clone()
        .map(|e| html! { <p class="status v-error">{ format!("The cycle failed: {e}") }</p> });
    let Some(r) = (*result).clone() else {
        let hint = (running.is_none() && pairs > RUN_AT_ONCE).then(|| html! {
            <p class="muted">{ format!("{}: the cycle runs in the background when you ask for it, with progress; it can take a while.", count(pairs, "pair", "pairs")) }</p>
        });
        return html! { <>{ controls }{ hint.unwrap_or_default() }{ progress }{ err.unwrap_or_default() }</> };
    };

    let stale = r.key != key;
    let matched = r.cycle.matched;
    let n = r.cycle.outcomes.len();
    let clusters = r.cycle.clusters;
    let summary = format!(
        "{} considered: {} matched, {} not. {} in {}{}.",
        count(n as u64, "job", "jobs"),
        thousands(matched as u64),
        thousands((n - matched) as u64),
        count(
            r.cycle.pair_evaluations,
            "pair evaluation",
            "pair evaluations"
        ),
        duration(r.ms),
        match clusters {
            Some(c) => format!(", {}", count(c as u64, "auto-cluster", "auto-clusters")),
            None => ", without auto-clustering".to_string(),
        }
    ) + &r
        .cycle
        .engine_memory
        .map(|b| {
            format!(
                " The engine's memory: {} MB.",
                thousands(b.div_ceil(1 << 20))
            )
        })
        .unwrap_or_default();
    let rows: Vec<usize> = (0..n)
        .filter(|&i| match *show {
            Show::All => true,
            Show::Matched => r.cycle.outcomes[i].machine.is_some(),
            Show::Unmatched => r.cycle.outcomes[i].machine.is_none(),
        })
        .collect();
    let pages = rows.len().div_ceil(PAGE).max(1);
    let pg = (*page).min(pages - 1);
    let any_aug = r
        .cycle
        .outcomes
        .iter()
        .any(|o| !o.changed.is_empty() || !o.unresolved.is_empty());
    let detail = r.detailed > 0;
    // A matched job's count, when the cycle did not keep it: asked of the
    // worker with the machines earlier jobs took (`None` while it counts).
    // A count the cycle did not keep, asked of the worker for row `i`
    // (`None` in `counts` while it counts): a matched job's free compatible
    // machines at its turn (given the machines earlier jobs took), or an
    // all-taken job's compatible machines, every one gone to an earlier job.
    let count_for = |i: usize| {
        let (session, args, counts, shown) = (
            props.session.clone(),
            props.pools.args(),
            counts.clone(),
            r.clone(),
        );
        Callback::from(move |_| {
            let o = &shown.cycle.outcomes[i];
            let (job, matched) = (o.job, o.machine.is_some());
            let taken: Vec<usize> = shown.cycle.outcomes[..i]
                .iter()
                .filter_map(|o| o.machine)
                .collect();
            counts.dispatch(CountAction::Asking(i));
            let (counts, now, mode) = (counts.clone(), shown.now, shown.key.2);
            session.request(
                &args,
                move |ids| {
                    let (jobs, machines) = (ids[0].clone(), ids[1].clone());
                    let context = EvalOptions::at(mode, now.0, now.1);
                    if matched {
                        PoolRequest::Candidates {
                            jobs,
                            machines,
                            job,
                            taken,
                            context,
                        }
                    } else {
                        PoolRequest::Compatible {
                            jobs,
                            machines,
                            job,
                            context,
                        }
                    }
                },
                None,
                move |a: Result<classad::api::session::JobCount, String>| {
                    counts.dispatch(match a {
                        Ok(a) => CountAction::Got(i, a.count),
                        // Asked again on the next click.
                        Err(_) => CountAction::Forget(i),
                    })
                },
            );
        })
    };
    let open_step = |i: usize| {
        let set_step = set_step.clone();
        Callback::from(move |_| set_step.emit(Some(i)))
    };
    let analyze = |job: usize| {
        let d = props.dispatch.clone();
        Callback::from(move |_| {
            d.emit(Action::Analyze {
                jobs: None,
                machines: None,
                job,
            })
        })
    };
    let body = (pg * PAGE..((pg + 1) * PAGE).min(rows.len())).map(|k| {
        let i = rows[k];
        let o = &r.cycle.outcomes[i];
        html! {
            <tr class={classes!(if o.machine.is_some() { "ok" } else { "no" })}>
                <td class="num">
                    if i < r.detailed { <button class="link" onclick={open_step(i)} title="Step through the cycle from here" aria-label={format!("Step through the cycle from job {} (number {})", r.job_label(o), i + 1)}>{ i + 1 }</button> } else { { i + 1 } }
                </td>
                <td data-job-id={o.job_id.clone()} title={format!("job {} (ClusterId.ProcId, else its place in the pool)", o.job_id)}><code>{ r.job_label(o) }</code></td>
                <td>{ match o.machine { Some(m) => html! { <code>{ r.machine_label(m) }</code> }, None => html! { <span class="muted">{ "—" }</span> } } }</td>
                <td class="num"><code>{ o.vector.get(usize::from(r.htcondor)).map(|v| crate::components::widgets::numbers::people(v)).unwrap_or_default() }</code></td>
                <td>if !o.vector.is_empty() { <code title={format!("exactly: {{{}}}", o.vector.join(", "))}>{ crate::components::widgets::numbers::people(&format!("{{{}}}", o.vector.join(", "))) }</code> }</td>
                <td class="reason">
                    { reason_text(&r.cycle, o, counts.0.get(&i).copied().flatten()) }
                    // Asked of the pools as they are: only while they are the cycle's.
                    if !stale {
                        { match (o.machine.is_some(), counts.0.get(&i)) {
                            (_, Some(None)) => html! { <span class="muted">{ " counting…" }</span> },
                            (true, None) if o.candidates.is_none() => html! {
                                <>{ " " }<button class="link count-candidates" onclick={count_for(i)}
                                    title="Count the free compatible machines this job had at its turn (evaluates the whole pool for it)">
                                    { "count the others" }</button></>
                            },
                            (false, None) if o.taken_uncounted => html! {
                                <>{ " " }<button class="link count-taken" onclick={count_for(i)}
                                    title="Count the compatible machines earlier jobs took (evaluates the whole pool for this job)">
                                    { "count them" }</button></>
                            },
                            _ => html! {},
                        } }
                        // A job no machine accepts: the analyzer says why.
                        if o.unmatchable {
                            <>{ " " }<button class="link why-analyze" onclick={analyze(o.job)}
                                title="Open the analyzer on this job: which of its conditions no machine meets, and the least change that would">
                                { "why? (analyze)" }</button></>
                        }
                    }
                </td>
                if clusters.is_some() { <td class="num">{ o.cluster.map(|c| c.to_string()).unwrap_or_default() }</td> }
                if any_aug {
                    <td class="aug">
                        { for o.changed.iter().map(|(k, v)| html! { <div><code>{ format!("{k} = {v}") }</code></div> }) }
                        { for o.unresolved.iter().map(|u| html! { <div class="v-undef">{ format!("unresolved: {u}") }</div> }) }
                    </td>
                }
            </tr>
        }
    });
    let pager = |to: usize, label: &'static str, off: bool| {
        let page = page.clone();
        html! { <button disabled={off} onclick={Callback::from(move |_| page.set(to))}>{ label }</button> }
    };
    let show_sel = {
        let (show, page) = (show.clone(), page.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            show.set(match v.as_str() {
                "matched" => Show::Matched,
                "unmatched" => Show::Unmatched,
                _ => Show::All,
            });
            page.set(0);
        })
    };
    let classroom = match step {
        // Steps are the detailed jobs' (a link may ask past the last).
        Some(s) if detail => html! {
            <Classroom shown={r.clone()} step={s.min(r.detailed.min(n).saturating_sub(1))}
                on_step={{ let st = set_step.clone(); Callback::from(move |s| st.emit(Some(s))) }}
                on_close={{ let st = set_step.clone(); Callback::from(move |_| st.emit(None)) }} />
        },
        _ => html! {},
    };
    html! {
        <>
            { controls }
            { progress }
            { err.unwrap_or_default() }
            if stale {
                <p class="status">{ "The pools, mode or clock changed since this cycle ran: run it again to update it." }</p>
            }
            <p class="matrix-summary" id="cycle-summary">{ summary }</p>
            if r.cycle.outcomes.iter().any(|o| o.machine.is_some() && o.candidates.is_none()) {
                <p class="muted" id="cycle-uncounted">{ format!(
                    "On a cycle of more than {} job × machine pairs, each job's best machine is found \
                     without ranking every compatible one (its Rank bounds which machines can win), so a \
                     matched job does not say how many free compatible machines it had; the stepped \
                     jobs and the unmatched ones do.",
                    thousands(classad::api::session::COUNT_CANDIDATES_UP_TO)
                ) }</p>
            }
            if detail {
                <p>
                    <button id="classroom" onclick={open_step(0)} aria-expanded={step.is_some().to_string()}>{ "Step through it (classroom)" }</button>
                    <span class="muted">{ " one job at a time: its candidates, their docking vectors, the chosen one" }</span>
                    if r.detailed < n {
                        <span class="muted" id="classroom-first">{ format!(
                            " — through the first {} of the {} jobs: keeping every job's candidates is done up to {} pairs, and this cycle has {}.",
                            thousands(r.detailed as u64), thousands(n as u64), thousands(DETAIL_PAIRS), thousands(pairs)
                        ) }</span>
                    }
                </p>
            }
            { classroom }
            <div class="table-tools">
                <label>{ "Show " }
                    <select id="cycle-show" onchange={show_sel}>
                        <option value="all" selected={*show == Show::All}>{ "every job" }</option>
                        <option value="matched" selected={*show == Show::Matched}>{ "matched jobs" }</option>
                        <option value="unmatched" selected={*show == Show::Unmatched}>{ "unmatched jobs" }</option>
                    </select>
                </label>
                if pages > 1 {
                    <span class="pager">
                        { pager(0, "First", pg == 0) }
                        { pager(pg.saturating_sub(1), "Previous", pg == 0) }
                        <span>{ format!("page {} of {}", pg + 1, pages) }</span>
                        { pager(pg + 1, "Next", pg + 1 >= pages) }
                        { pager(pages - 1, "Last", pg + 1 >= pages) }
                    </span>
                }
            </div>
            <div class="table-wrap">
                <table class="cycle" id="cycle-table">
                    <thead><tr>
                        <th class="num" title="The order the cycle considered the jobs in">{ "#" }</th>
                        <th>{ "Job" }</th><th>{ "Machine" }</th>
                        <th class="num" title="The job's Rank of the machine (first component of the docking vector)">{ "Rank" }</th>
                        <th>{ "Docking vector" }</th><th>{ "Why" }</th>
                        if clusters.is_some() { <th class="num">{ "Cluster" }</th> }
                        if any_aug { <th title="The job's $$() references filled in from the machine">{ "After the match" }</th> }
                    </tr></thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
        </>
    }
}

/// A negotiator knob's HTCondor 25 default, as text (an unset knob: "").
fn knob_default(name: &str) -> String {
    NegotiatorKnobs::default().get(name)
}

/// The value of the input, select or text area an event came from.
fn control_value(e: &Event) -> String {
    if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
        i.value()
    } else if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
        s.value()
    } else if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
        t.value()
    } else {
        String::new()
    }
}
