//! The gang view (thesis ch. 3–5): a pool of requests gangmatched against a
//! pool of offers by the chosen algorithm, in the worker. Four tabs: the
//! gangs (a table; a row opens its tree and every docking explained), the
//! search step by step (classroom), the algorithms compared on generated
//! workloads, and the index's rectangles.

use std::rc::Rc;

use classad::api::session::GangView as Answer;
use classad::api::session::{GangAlgorithm, GangRequest, PoolRequest};
use yew::prelude::*;

use crate::components::widgets::term::TermHelp;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::components::gangmatching::algorithms::{algorithm_name, ALGORITHMS};
use crate::components::gangmatching::gang_compare::GangCompare;
use crate::components::gangmatching::gang_detail::GangDetailPanel;
use crate::components::gangmatching::gang_index::GangIndex;
use crate::components::gangmatching::gang_steps::GangSteps;
use crate::components::gangmatching::shown::{Key, Shown};
use crate::components::matchmaking::match_bar::{
    pools_gate, use_stop_on_leave, MatchBar, MatchPools, MatchViewProps, Progress,
};
use crate::components::widgets::words::{count, duration, thousands};
use crate::state::actions::Action;
use crate::state::app_state::{GangSettings, GangTab};

/// Runs over this many request × offer pairs wait for the Run button.
const RUN_AT_ONCE: u64 = 40_000;
/// Steps the classroom records (the engine's bound is higher).
const STEPS: usize = 5_000;
const PAGE: usize = 100;

#[component]
pub fn GangView(props: &MatchViewProps) -> Html {
    let gate = pools_gate(&props.pools, &props.session);
    let settings = props.state.gang.clone();
    let set_tab = |t: GangTab| {
        let (d, g) = (props.dispatch.clone(), settings.clone());
        Callback::from(move |_| {
            d.emit(Action::SetGang(GangSettings {
                tab: t,
                ..g.clone()
            }))
        })
    };
    let tab = |t: GangTab, label: &'static str, help: &'static str| {
        let on = settings.tab == t;
        html! {
            <button class={classes!("tab", on.then_some("active"))} aria-pressed={on.to_string()} title={help} onclick={set_tab(t)}>{ label }</button>
        }
    };
    // The comparison runs on generated workloads: it needs no pools.
    let body = if settings.tab == GangTab::Compare {
        html! { <GangCompare session={props.session.clone()} mode={props.state.mode} /> }
    } else {
        match (gate, props.pools.ready()) {
            (None, Some((requests, offers))) => html! {
                <GangBody session={props.session.clone()} pools={props.pools.clone()} {requests} {offers}
                    mode={props.state.mode} settings={settings.clone()} dispatch={props.dispatch.clone()} />
            },
            (Some(g), _) => g,
            (None, None) => html! {},
        }
    };
    html! {
        <main class="match-view gang-view" aria-label="Gangmatching">
            <MatchBar state={props.state.clone()} dispatch={props.dispatch.clone()} pools={props.pools.clone()} gang=true />
            <h2>{ "Gangmatching" }</h2>
            <p class="view-intro">{ "A request with several ports (Ports = { [ Label = Cpu; … ], [ Label = License; … ] }) is docked with one offer per port, all at once: each port's constraint and its offer's constraint must both be true, with each label naming the offer docked there. Offers may have ports of their own (a render server that needs a CPU and a license). Gangs are atomic: every port is filled or none is, and a matched offer is taken. An ad without Ports has one port, other." }</p>
            <nav class="subtabs" aria-label="Gang views">
                { tab(GangTab::Gangs, "Gangs", "Run the chosen algorithm over the pools") }
                { tab(GangTab::Steps, "Step through", "The search one step at a time: ports, probes, candidates, backtracks") }
                { tab(GangTab::Compare, "Compare algorithms", "Generated workloads (the thesis' base workload) run by each algorithm") }
                { tab(GangTab::Index, "Index", "The offers' constraints as rectangles, and the intervals per attribute") }
            </nav>
            { body }
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    session: Session,
    pools: MatchPools,
    requests: Rc<PoolInfo>,
    offers: Rc<PoolInfo>,
    mode: classad::api::Mode,
    settings: GangSettings,
    dispatch: Callback<Action>,
}

#[component]
fn GangBody(props: &BodyProps) -> Html {
    let result = use_state(|| None::<Rc<Shown>>);
    let running = use_state(|| None::<(Option<(usize, usize)>, f64)>);
    let error = use_state(|| None::<String>);
    let page = use_state(|| 0usize);
    let open = use_state(|| None::<usize>);
    let s = &props.settings;
    let key: Key = (
        Rc::as_ptr(&props.requests) as usize,
        Rc::as_ptr(&props.offers) as usize,
        s.algorithm,
        s.seed,
        props.mode,
        s.root_order.clone(),
        s.docking_vector.clone(),
    );
    let pairs = props.requests.ads as u64 * props.offers.ads as u64;
    let run = {
        let (session, args) = (props.session.clone(), props.pools.args());
        let (result, running, error, page, open) = (
            result.clone(),
            running.clone(),
            error.clone(),
            page.clone(),
            open.clone(),
        );
        let (algorithm, seed, mode) = (s.algorithm, s.seed, props.mode);
        let (root_order, docking_vector) = (s.root_order.clone(), s.docking_vector.clone());
        let key = key.clone();
        Callback::from(move |_: ()| {
            let started = now_ms();
            running.set(Some((None, started)));
            error.set(None);
            let progress = {
                let running = running.clone();
                Callback::from(move |at: (usize, usize)| running.set(Some((Some(at), started))))
            };
            let (result, running, error, page, open, key) = (
                result.clone(),
                running.clone(),
                error.clone(),
                page.clone(),
                open.clone(),
                key.clone(),
            );
            let (root_order, docking_vector) = (root_order.clone(), docking_vector.clone());
            session.request(
                &args,
                move |ids| {
                    PoolRequest::Gang(GangRequest {
                        requests: ids[0].clone(),
                        offers: ids[1].clone(),
                        algorithm,
                        seed,
                        steps: STEPS,
                        mode,
                        root_order,
                        docking_vector,
                    })
                },
                Some(progress),
                move |r: Result<Answer, String>| {
                    running.set(None);
                    match r {
                        Ok(answer) => {
                            page.set(0);
                            open.set(None);
                            result.set(Some(Rc::new(Shown {
                                answer,
                                ms: now_ms() - started,
                                key,
                            })));
                        }
                        Err(e) if e == CANCELLED => {}
                        Err(e) => error.set(Some(e)),
                    }
                },
            );
        })
    };
    // Small pools run by themselves (and again when anything changes).
    {
        let run = run.clone();
        use_effect_with(key.clone(), move |_| {
            if pairs <= RUN_AT_ONCE {
                run.emit(());
            }
        });
    }
    use_stop_on_leave(&props.session, running.is_some());
    let on_algorithm = {
        let (d, g) = (props.dispatch.clone(), s.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(a) = ALGORITHMS.iter().find(|x| x.1 == v) {
                d.emit(Action::SetGang(GangSettings {
                    algorithm: a.0,
                    ..g.clone()
                }));
            }
        })
    };
    let on_seed = {
        let (d, g) = (props.dispatch.clone(), s.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(seed) = v.trim().parse::<u64>() {
                d.emit(Action::SetGang(GangSettings { seed, ..g.clone() }));
            }
        })
    };
    let set_text = |which: &'static str| {
        let (d, g) = (props.dispatch.clone(), s.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            let mut g = g.clone();
            if which == "root" {
                g.root_order = v;
            } else {
                g.docking_vector = v;
            }
            d.emit(Action::SetGang(g));
        })
    };
    let on_cancel = {
        let s = props.session.clone();
        Callback::from(move |_| s.cancel())
    };
    let busy = running.is_some();
    let help = ALGORITHMS
        .iter()
        .find(|x| x.0 == s.algorithm)
        .map_or("", |x| x.2);
    let controls = html! {
        <>
        <div class="matrix-tools">
            <label title="Which gangmatching algorithm of the thesis' chapter 5 to run">{ "Algorithm " }
                <select id="gang-algorithm" onchange={on_algorithm}>
                    { for ALGORITHMS.iter().map(|(a, name, _)| html! {
                        <option value={*name} selected={*a == s.algorithm}>{ *name }</option>
                    }) }
                </select>
            </label>
            if s.algorithm == GangAlgorithm::Dynsr {
                <label title="DYNSR starts each probe's result at a random place: the seed makes it repeatable">{ "Seed " }
                    <input id="gang-seed" type="number" min="0" value={s.seed.to_string()} onchange={on_seed} size="6" />
                </label>
            }
            <button id="run-gangs" class="primary" disabled={busy} onclick={{ let r = run.clone(); Callback::from(move |_| r.emit(())) }}>{ "Run" }</button>
            <span class="muted">{ help }</span>
        </div>
        <div class="matrix-tools gang-policy">
            <label title="Root ordering (thesis §3.2.4): evaluated with each request as MY; the largest value is served first. Empty: submitter priority, then JobPrio, QDate, id.">{ "Root order " }
                <input id="gang-root-order" placeholder="priority order" value={s.root_order.clone()} onchange={set_text("root")} size="18" />
            </label>
            if s.algorithm == GangAlgorithm::Naive {
                <TermHelp term="the docking vector" anchor="gangs" text="A list of expressions evaluated in the port being filled, with the candidate docked (label names it): the candidate with the largest vector wins; undefined or error in it makes a candidate ineligible. Empty: each port's Rank." />
                <label title="Docking vector (§3.2.4), evaluated in the port being filled (self) with the candidate docked (label): the largest vector wins; undefined or error makes a candidate ineligible. Empty: each port's Rank.">{ "Docking vector " }
                    <input id="gang-docking-vector" placeholder="each port's Rank, e.g. self.Rank, -label.Memory" value={s.docking_vector.clone()} onchange={set_text("vector")} size="34" />
                </label>
            }
        </div>
        </>
    };
    let progress = match &*running {
        Some((at, started)) => html! {
            <Progress label="Gangmatching…" at={*at} started={Some(started.to_owned())} {on_cancel} />
        },
        None => html! {},
    };
    let err = (*error)
        .clone()
        .map(|e| html! { <p class="status v-error">{ format!("The run failed: {e}") }</p> });
    let Some(r) = (*result).clone() else {
        let hint = (running.is_none() && pairs > RUN_AT_ONCE).then(|| html! {
            <p class="muted">{ format!("{}: press Run; the search runs in the background with progress and Cancel.", count(pairs, "request × offer pair", "request × offer pairs")) }</p>
        });
        return html! { <>{ controls }{ hint.unwrap_or_default() }{ progress }{ err.unwrap_or_default() }</> };
    };
    let stale = r.key != key;
    let a = &r.answer;
    let c = &a.counters;
    let n = a.rows.len();
    let summary = format!(
        "{}: {} of {} gangmatched. {}, {}, {} ({} in the worker; {} in all).",
        algorithm_name(a.algorithm),
        thousands(c.gangs),
        count(n as u64, "request", "requests"),
        count(c.evaluations, "evaluation", "evaluations"),
        count(c.probes, "index probe", "index probes"),
        count(c.backtracks, "backtrack", "backtracks"),
        duration(c.seconds * 1000.0),
        duration(r.ms),
    );
    let offer_errors = (!a.offer_errors.is_empty()).then(|| {
        html! {
            <div class="status v-error" role="alert">
                { format!("{} left out (their ports are unusable):", count(a.offer_errors.len() as u64, "offer", "offers")) }
                <ul>{ for a.offer_errors.iter().take(20).map(|(i, m)| html! { <li>{ format!("offer {}: {m}", i + 1) }</li> }) }</ul>
            </div>
        }
    });
    let tab_body = match s.tab {
        GangTab::Steps => html! { <GangSteps shown={r.clone()} /> },
        GangTab::Index => html! {
            <GangIndex session={props.session.clone()} pools={props.pools.clone()} mode={props.mode} />
        },
        _ => {
            let pages = n.div_ceil(PAGE).max(1);
            let pg = (*page).min(pages - 1);
            let rows = (pg * PAGE..((pg + 1) * PAGE).min(n)).map(|i| {
                let row = &a.rows[i];
                let click = {
                    let open = open.clone();
                    Callback::from(move |_| open.set(Some(i)))
                };
                let gang = match (&row.line, &row.error) {
                    (Some(l), _) => html! { <button class="link gang-line" onclick={click} title="Show this gang's tree and every docking explained"><code>{ l.clone() }</code></button> },
                    (None, Some(e)) => html! { <span class="v-error">{ e.clone() }</span> },
                    (None, None) if row.limit_hit => html! { <span class="v-error">{ "gave up: the evaluation budget ran out" }</span> },
                    (None, None) => html! { <span class="muted">{ "no gang among the free offers" }</span> },
                };
                html! {
                    <tr class={classes!(if row.line.is_some() { "ok" } else { "no" }, (*open == Some(i)).then_some("selected"))}>
                        <td class="num">{ i + 1 }</td>
                        <td><code>{ row.name.clone() }</code></td>
                        <td>{ gang }</td>
                        <td class="num">{ thousands(row.evaluations) }</td>
                        <td class="num">{ thousands(row.probes) }</td>
                        <td class="num">{ thousands(row.backtracks) }</td>
                    </tr>
                }
            });
            let pager = |to: usize, label: &'static str, off: bool| {
                let page = page.clone();
                html! { <button disabled={off} onclick={Callback::from(move |_| page.set(to))}>{ label }</button> }
            };
            let detail = (*open).and_then(|i| a.rows.get(i)).and_then(|row| {
                let gang = row.gang.clone()?;
                let close = {
                    let open = open.clone();
                    Callback::from(move |_| open.set(None))
                };
                Some(html! {
                    <GangDetailPanel session={props.session.clone()} pools={props.pools.clone()} mode={props.mode}
                        request={row.name.clone()} gang={Rc::new(gang)} on_close={close} />
                })
            });
            html! {
                <>
                    { detail.unwrap_or_default() }
                    if pages > 1 {
                        <div class="table-tools"><span class="pager">
                            { pager(0, "First", pg == 0) }
                            { pager(pg.saturating_sub(1), "Previous", pg == 0) }
                            <span>{ format!("page {} of {}", pg + 1, pages) }</span>
                            { pager(pg + 1, "Next", pg + 1 >= pages) }
                            { pager(pages - 1, "Last", pg + 1 >= pages) }
                        </span></div>
                    }
                    <div class="table-wrap">
                        <table class="cycle" id="gang-table">
                            <thead><tr>
                                <th class="num" title="The order the requests were processed in">{ "#" }</th>
                                <th>{ "Request" }</th>
                                <th title="LABEL=OFFER for the request's ports; OFFER.LABEL=OFFER for ports of offers in the gang">{ "Gang" }</th>
                                <th class="num" title="Constraint evaluations for this request">{ "Evaluations" }</th>
                                <th class="num" title="Index probes for this request">{ "Probes" }</th>
                                <th class="num" title="Candidates taken back because nothing completed the gang with them">{ "Backtracks" }</th>
                            </tr></thead>
                            <tbody>{ for rows }</tbody>
                        </table>
                    </div>
                </>
            }
        }
    };
    html! {
        <>
            { controls }
            { progress }
            { err.unwrap_or_default() }
            if stale {
                <p class="status">{ "The pools, algorithm, seed, policy or mode changed since this run: run it again to update it." }</p>
            }
            <p class="matrix-summary" id="gang-summary">{ summary }</p>
            { offer_errors.unwrap_or_default() }
            { tab_body }
        </>
    }
}
