//! The Query view: ask a pool what `condor_status -constraint` and
//! `condor_q -constraint` ask — a constraint evaluated with each ad as MY,
//! column expressions, the matching ads as a paged, sortable table with the
//! tools' summary, and for any row the explain tree of why the constraint
//! held or failed. The worker runs it (progress, Cancel), keeps the rows and
//! sends the pages in sight.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::PoolRequest;
use classad::api::{QueryAnswer, QueryError, QueryExplain, QueryRow, QuerySpec, Summary, STATES};
use gloo_timers::callback::Timeout;
use serde::Deserialize;
use yew::prelude::*;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{Session, CANCELLED};
use crate::components::matchmaking::match_bar::{use_stop_on_leave, Progress};
use crate::components::shell::header::download;
use crate::components::widgets::explain::{Explain, Trace};
use crate::components::widgets::highlight::Mark;
use crate::components::widgets::term::TermHelp;
use crate::components::widgets::text_editor::{TextEditor, Tokens, HIGHLIGHT_LIMIT};
use crate::components::widgets::trace::{AdFacts, Ctx};
use crate::components::widgets::words::{count, thousands};
use crate::state::actions::Action;
use crate::state::app_state::{AdRef, AppState, QuerySettings, View};

/// Rows shown at once.
const PAGE: usize = 100;
/// Pools up to this many bytes are queried as you type.
const LIVE_BYTES: usize = 4 << 20;

/// The worker's answers this view reads.
#[derive(Deserialize)]
struct Ran {
    answer: QueryAnswer,
    labels: Vec<String>,
}

#[derive(Deserialize)]
struct Rows {
    from: usize,
    rows: Vec<QueryRow>,
    labels: Vec<String>,
}

/// What a run gave: the answer, or the expression that does not parse.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Outcome {
    QueryResult(Ran),
    QueryInvalid(QueryError),
}

/// A finished run, and the rows fetched so far (by result index).
struct Shown {
    answer: QueryAnswer,
    spec: QuerySpec,
    /// The pool (index and text) and mode the rows are for: rows shown for
    /// another question are marked as such.
    pool: usize,
    text: Rc<str>,
    mode: classad::api::Mode,
    rows: Vec<Option<(QueryRow, String)>>,
    ms: f64,
}

#[derive(Properties, PartialEq)]
pub struct QueryViewProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
    pub session: Session,
}

/// The pool the view asks: the chosen one, else the machines pool.
fn pool_of(s: &AppState) -> usize {
    s.query
        .pool
        .or_else(|| crate::state::pool_roles::pick_pools(&s.pools, &s.matching).1)
        .unwrap_or(0)
        .min(s.pools.len().saturating_sub(1))
}

#[component]
pub fn QueryView(props: &QueryViewProps) -> Html {
    let s = &props.state;
    let pool = pool_of(s);
    let text = s
        .pools
        .get(pool)
        .map(|p| p.text.clone())
        .unwrap_or_else(|| Rc::from(""));
    let spec = s.query.spec.clone();
    let shown = use_state(|| None::<Rc<std::cell::RefCell<Shown>>>);
    let invalid = use_state(|| None::<QueryError>);
    let running = use_state(|| None::<(Option<(usize, usize)>, f64)>);
    let error = use_state(|| None::<String>);
    let page = use_state(|| 0usize);
    let picked = use_state(|| None::<(usize, String)>);
    let explained = use_state(|| None::<Result<QueryExplain, String>>);
    let redraw = use_force_update();
    let new_column = use_state(String::new);

    let set = {
        let (dispatch, q) = (props.dispatch.clone(), s.query.clone());
        move |f: &dyn Fn(&mut QuerySettings)| {
            let mut q = q.clone();
            f(&mut q);
            dispatch.emit(Action::SetQuery(q));
        }
    };

    let run = {
        let (session, mode) = (props.session.clone(), s.mode);
        let (shown, invalid, running, error, page, picked, explained) = (
            shown.clone(),
            invalid.clone(),
            running.clone(),
            error.clone(),
            page.clone(),
            picked.clone(),
            explained.clone(),
        );
        let (text, spec) = (text.clone(), spec.clone());
        Callback::from(move |_: ()| {
            let started = now_ms();
            running.set(Some((None, started)));
            error.set(None);
            let now = crate::bridge::clock::resolve(None);
            let progress = {
                let running = running.clone();
                Callback::from(move |at: (usize, usize)| running.set(Some((Some(at), started))))
            };
            let (shown, invalid, running, error, page, picked, explained) = (
                shown.clone(),
                invalid.clone(),
                running.clone(),
                error.clone(),
                page.clone(),
                picked.clone(),
                explained.clone(),
            );
            let spec = QuerySpec {
                dialect: crate::bridge::dialect::current(),
                ..spec.clone()
            };
            let (spec1, spec2) = (spec.clone(), spec);
            let text_of_run = text.clone();
            session.request(
                &[(pool, text.clone())],
                move |ids| PoolRequest::Query {
                    pool: ids[0].clone(),
                    spec: spec2,
                    context: EvalOptions::at(mode, now.0, now.1),
                },
                Some(progress),
                move |r: Result<Outcome, String>| {
                    running.set(None);
                    match r {
                        Ok(Outcome::QueryResult(ran)) => {
                            invalid.set(None);
                            page.set(0);
                            picked.set(None);
                            explained.set(None);
                            let mut rows = vec![None; ran.answer.matched];
                            for (i, (r, l)) in ran.answer.page.iter().zip(&ran.labels).enumerate() {
                                rows[i] = Some((r.clone(), l.clone()));
                            }
                            shown.set(Some(Rc::new(std::cell::RefCell::new(Shown {
                                answer: ran.answer,
                                spec: spec1,
                                pool,
                                text: text_of_run.clone(),
                                mode,
                                rows,
                                ms: now_ms() - started,
                            }))));
                        }
                        Ok(Outcome::QueryInvalid(e)) => invalid.set(Some(e)),
                        Err(e) if e == CANCELLED => {}
                        Err(e) => error.set(Some(e)),
                    }
                },
            );
        })
    };
    // Small pools are asked as you type (after a pause); big ones wait for
    // Run — but a click on a column head asks at once, whatever the size
    // (the sort is the question; nobody should have to Run after it).
    let live = text.len() <= LIVE_BYTES;
    let sort_clicked = use_mut_ref(|| false);
    {
        let (run, sort_clicked) = (run.clone(), sort_clicked.clone());
        let timer = use_mut_ref(|| None::<Timeout>);
        let key = crate::state::app_state::SharedText(text.clone());
        use_effect_with((spec.clone(), key, pool, s.mode), move |_| {
            let now = std::mem::take(&mut *sort_clicked.borrow_mut());
            *timer.borrow_mut() = (live || now)
                .then(|| Timeout::new(if now { 0 } else { 250 }, move || run.emit(())));
        });
    }
    use_stop_on_leave(&props.session, running.is_some());

    // The rows of the page in sight, fetched when missing: once per page
    // shown of each run (a row that arrives redraws; it does not refetch).
    let pg = *page;
    {
        let (session, redraw, text) = (props.session.clone(), redraw.clone(), text.clone());
        let sh = (*shown).clone();
        let run_id = sh.as_ref().map(|s| Rc::as_ptr(s) as usize);
        use_effect_with((pg, run_id, running.is_none()), move |(pg, _, idle)| {
            let Some(sh) = sh.filter(|_| *idle) else {
                return;
            };
            let (from, to) = {
                let b = sh.borrow();
                let from = (pg * PAGE).min(b.rows.len());
                let to = ((pg + 1) * PAGE).min(b.rows.len());
                if b.rows[from..to].iter().all(|r| r.is_some()) {
                    return;
                }
                (from, to)
            };
            session.request(
                &[(pool, text)],
                move |_| PoolRequest::QueryPage {
                    from,
                    to,
                    typed: false,
                },
                None,
                move |r: Result<Rows, String>| {
                    if let Ok(r) = r {
                        let mut b = sh.borrow_mut();
                        for (k, (row, label)) in r.rows.into_iter().zip(r.labels).enumerate() {
                            if let Some(slot) = b.rows.get_mut(r.from + k) {
                                *slot = Some((row, label));
                            }
                        }
                        drop(b);
                        redraw.force_update();
                    }
                },
            );
        });
    }

    let explain_row = {
        let (session, mode) = (props.session.clone(), s.mode);
        let (picked, explained, text) = (picked.clone(), explained.clone(), text.clone());
        let constraint = spec.constraint.clone();
        Callback::from(move |(ad, label): (usize, String)| {
            picked.set(Some((ad, label)));
            explained.set(None);
            let explained = explained.clone();
            let constraint = constraint.clone();
            let now = crate::bridge::clock::resolve(None);
            let dialect = crate::bridge::dialect::current();
            session.request(
                &[(pool, text.clone())],
                move |ids| PoolRequest::QueryExplain {
                    pool: ids[0].clone(),
                    ad,
                    constraint,
                    context: EvalOptions::at(mode, now.0, now.1),
                    dialect,
                },
                None,
                move |r: Result<QueryExplain, String>| explained.set(Some(r)),
            );
        })
    };

    // --- the query's controls ---
    let pool_select = {
        let set = set.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(i) = v.parse::<usize>() {
                set(&|q| q.pool = Some(i));
            }
        });
        html! {
            <label>{ "Pool " }
                <select id="query-pool" {onchange}>
                    { for s.pools.iter().enumerate().map(|(i, p)| html! {
                        <option value={i.to_string()} selected={i == pool}>{ p.name.clone() }</option>
                    }) }
                </select>
            </label>
        }
    };
    // As the evaluator's: a big constraint is neither lexed nor copied.
    let highlighted = (spec.constraint.len() <= HIGHLIGHT_LIMIT).then(|| spec.constraint.clone());
    let constraint_tokens = use_memo(
        (highlighted, crate::bridge::dialect::current()),
        |(c, d)| match c {
            Some(c) => classad::api::highlight(c, *d),
            None => Vec::new(),
        },
    );
    let marks: Vec<Mark> = match &*invalid {
        Some(e) if e.which == "constraint" => vec![Mark {
            start: e.diagnostic.span.start as usize,
            end: e.diagnostic.span.end as usize,
            class: "mk-error",
        }],
        _ => vec![],
    };
    let on_constraint = {
        let set = set.clone();
        Callback::from(move |t: Rc<str>| set(&|q| q.spec.constraint = t.to_string()))
    };
    let column_chips = spec.columns.iter().enumerate().map(|(i, c)| {
        let set = set.clone();
        let remove = Callback::from(move |_| set(&|q| {
            if i < q.spec.columns.len() {
                q.spec.columns.remove(i);
            }
            q.spec.sort = None;
        }));
        let bad = matches!(&*invalid, Some(e) if e.which == format!("column {}", i + 1));
        html! {
            <li class={classes!("chip", "query-col", bad.then_some("v-error"))}>
                <code>{ c.clone() }</code>
                <button class="link" onclick={remove} aria-label={format!("Remove column {c}")}>{ "×" }</button>
            </li>
        }
    });
    let add_column = {
        let (set, new_column) = (set.clone(), new_column.clone());
        move || {
            let c = new_column.trim().to_string();
            if !c.is_empty() {
                set(&|q| q.spec.columns.push(c.clone()));
                new_column.set(String::new());
            }
        }
    };
    let on_new_column = {
        let new_column = new_column.clone();
        Callback::from(move |e: InputEvent| {
            new_column.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let on_new_key = {
        let add = add_column.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                e.prevent_default();
                add();
            }
        })
    };
    let on_add = Callback::from(move |_| add_column());

    // --- the results ---
    let results = match &*shown {
        None => html! {},
        Some(sh) => {
            let b = sh.borrow();
            let a = &b.answer;
            // Rows for another question (a pool switched to, a constraint
            // edited or not parsing) are dimmed and say so until they are
            // replaced (at once for small pools, at Run for big ones).
            let stale_why = if invalid.is_some() {
                Some("The constraint or a column does not parse: these rows are from the last question that did.")
            } else if b.pool != pool || !crate::state::app_state::same_text(&b.text, &text) {
                Some("These rows are for the pool as it was, or another pool: Run to ask this one.")
            } else if b.spec != spec || b.mode != s.mode {
                Some("These rows are for the previous question: Run to update them.")
            } else {
                None
            };
            let pages = a.matched.div_ceil(PAGE).max(1);
            let pg = pg.min(pages - 1);
            let sort_head = |i: usize| {
                let (set, sort_clicked) = (set.clone(), sort_clicked.clone());
                let now = (b.spec.sort, b.spec.descending);
                let arrow = match now {
                    (Some(k), false) if k == i => " ▲",
                    (Some(k), true) if k == i => " ▼",
                    _ => "",
                };
                let onclick = Callback::from(move |_| {
                    *sort_clicked.borrow_mut() = true;
                    set(&|q| {
                        // Ascending, then descending, then the pool's order:
                        // from the sort asked last (a second click before
                        // the rows arrive goes on from the first).
                        (q.spec.sort, q.spec.descending) = match (q.spec.sort, q.spec.descending) {
                            (Some(k), false) if k == i => (Some(i), true),
                            (Some(k), true) if k == i => (None, false),
                            _ => (Some(i), false),
                        };
                    })
                });
                let label = b.spec.columns.get(i).cloned().unwrap_or_default();
                let sorted = match now {
                    (Some(k), false) if k == i => "ascending",
                    (Some(k), true) if k == i => "descending",
                    _ => "none",
                };
                html! {
                    <th scope="col" aria-sort={sorted}>
                        <button class="link sort" {onclick} title="Sort by this column (again: the other way, then the pool's order)">
                            <code>{ label }</code>{ arrow }
                        </button>
                    </th>
                }
            };
            let body = (pg * PAGE..((pg + 1) * PAGE).min(a.matched)).map(|k| {
                match b.rows.get(k).cloned().flatten() {
                    Some((row, label)) => {
                        let pick = {
                            let (e, l) = (explain_row.clone(), label.clone());
                            let ad = row.ad;
                            Callback::from(move |_| e.emit((ad, l.clone())))
                        };
                        let is_picked = matches!(&*picked, Some((ad, _)) if *ad == row.ad);
                        html! {
                            <tr class={classes!(is_picked.then_some("picked"))}>
                                <td class="num">{ k + 1 }</td>
                                <td><button class="link" onclick={pick} title="Why does the constraint hold for this ad?">{ label }</button></td>
                                { for row.cells.iter().map(|c| html! { <td><code>{ c.clone() }</code></td> }) }
                            </tr>
                        }
                    }
                    None => html! { <tr><td class="num">{ k + 1 }</td><td class="muted" colspan="99">{ "…" }</td></tr> },
                }
            });
            let pager = |to: usize, label: &'static str, disabled: bool| {
                let page = page.clone();
                html! { <button onclick={Callback::from(move |_| page.set(to))} {disabled}>{ label }</button> }
            };
            let downloads = {
                let get_all = |format: &'static str| {
                    let (session, text, sh) = (props.session.clone(), text.clone(), sh.clone());
                    Callback::from(move |_| {
                        let (n, columns) = {
                            let b = sh.borrow();
                            (b.answer.matched, b.spec.columns.clone())
                        };
                        session.request(
                            &[(pool, text.clone())],
                            move |_| PoolRequest::QueryPage {
                                from: 0,
                                to: n,
                                typed: format == "json",
                            },
                            None,
                            move |r: Result<Rows, String>| {
                                if let Ok(r) = r {
                                    let (name, body, mime) = export(format, &columns, &r);
                                    download(name, &body, mime);
                                }
                            },
                        );
                    })
                };
                html! {
                    <span class="query-downloads">
                        <button onclick={get_all("csv")}>{ "Download CSV" }</button>
                        <button onclick={get_all("json")}>{ "Download JSON" }</button>
                    </span>
                }
            };
            html! {
                <div class={classes!("query-results", stale_why.is_some().then_some("stale"))}>
                    if let Some(why) = stale_why {
                        <p class="status" id="query-stale" role="status">{ why }</p>
                    }
                    <p class="matrix-summary" id="query-summary">
                        { format!("{} of {} match", thousands(a.matched as u64), count(a.total as u64, "ad", "ads")) }
                        <span class="muted">{ format!(" · {:.0} ms", b.ms) }</span>
                    </p>
                    if let Some(sum) = &a.summary { { summary_table(sum) } }
                    if a.matched > 0 {
                        <div class="table-tools">
                            if pages > 1 {
                                <span class="pager">
                                    { pager(0, "First", pg == 0) }
                                    { pager(pg.saturating_sub(1), "Previous", pg == 0) }
                                    <span>{ format!("page {} of {}", pg + 1, pages) }</span>
                                    { pager(pg + 1, "Next", pg + 1 >= pages) }
                                </span>
                            }
                            { downloads }
                        </div>
                        <div class="table-scroll">
                            <table class="cycle query-table" id="query-table">
                                <thead><tr>
                                    <th scope="col">{ "#" }</th><th scope="col">{ "Ad" }</th>
                                    { for (0..b.spec.columns.len()).map(sort_head) }
                                </tr></thead>
                                <tbody>{ for body }</tbody>
                            </table>
                        </div>
                    }
                </div>
            }
        }
    };

    let explanation = match (&*picked, &*explained) {
        (Some((ad, label)), Some(Ok(x))) => {
            let open_as_my = {
                let (d, ad) = (props.dispatch.clone(), *ad);
                Callback::from(move |_| {
                    d.emit(Action::SetMy(Some(AdRef { pool, ad })));
                    d.emit(Action::SetView(View::Evaluate));
                })
            };
            let ctx = Rc::new(Ctx {
                my: AdFacts {
                    present: true,
                    label: label.clone(),
                    ..Default::default()
                },
                target: AdFacts::default(),
                mode: s.mode,
            });
            html! {
                <section class="query-explain" aria-label="Why this ad" id="query-explain">
                    <h3>
                        { format!("{label}: the constraint is ") }<code>{ x.value.clone() }</code>
                        { if x.matches { " — it matches" } else { " — it does not match" } }
                    </h3>
                    <p><button id="query-open-my" onclick={open_as_my}>{ "Open as MY in the workbench" }</button></p>
                    if let Some(t) = &x.trace {
                        <Explain root={Trace(Rc::new(t.clone()))} ctx={ctx} on_pick={Callback::noop()} />
                    }
                </section>
            }
        }
        (Some(_), Some(Err(e))) => html! { <p class="status v-error">{ e.clone() }</p> },
        (Some(_), None) => html! { <p class="muted">{ "Explaining…" }</p> },
        _ => html! {},
    };

    let progress = match &*running {
        Some((at, started)) => {
            let session = props.session.clone();
            html! {
                <Progress label="Asking every ad…" at={*at} started={Some(started.to_owned())}
                    on_cancel={Callback::from(move |_| session.cancel())} />
            }
        }
        None => html! {},
    };
    let problem = match (&*invalid, &*error) {
        (Some(e), _) => html! {
            <p class="status v-error" id="query-error">
                { format!("The {} does not parse: {}:{}: {}", e.which, e.diagnostic.line, e.diagnostic.column, e.diagnostic.message) }
                if let Some(x) = &e.diagnostic.expected { { format!(" — expected {x}") } }
            </p>
        },
        (None, Some(e)) => {
            html! { <p class="status v-error">{ format!("The query could not run: {e}") }</p> }
        }
        _ => html! {},
    };

    html! {
        <main class="match-view query-view" aria-label="Query">
            <h2>{ "Query a pool" }</h2>
            <p class="view-intro">{ "What condor_status -constraint and condor_q -constraint do: the constraint is evaluated with each ad as MY; an ad matches when it is true (or a non-zero number). Columns are attribute names or any expression, as -af prints them. Click a column head to sort, a row to see why it matches." }</p>
            <div class="matrix-tools query-tools">
                { pool_select }
                if !live {
                    <button id="query-run" onclick={{ let r = run.clone(); Callback::from(move |_| r.emit(())) }}>{ "Run" }</button>
                }
            </div>
            <label for="query-constraint">{ "Constraint " }<TermHelp term="the constraint" anchor="query" text="An expression evaluated with each ad as MY (unscoped names are the ad's attributes). An ad matches when the value is true or a non-zero number; undefined and error do not match. Empty: every ad." /></label>
            <TextEditor id="query-constraint" class={classes!("small")} text={Rc::<str>::from(spec.constraint.as_str())} on_change={on_constraint}
                tokens={Tokens(constraint_tokens.clone())} marks={Rc::new(marks)} label="Constraint" placeholder="e.g. KeyboardIdle > 20*60 && Memory > 100" />
            { problem }
            <div class="query-columns">
                <span class="lbl">{ "Columns" }</span>
                <ul class="chips" id="query-columns">{ for column_chips }</ul>
                <input id="query-new-column" placeholder="Name, Memory * 2, …" aria-label="New column expression"
                    value={(*new_column).clone()} oninput={on_new_column} onkeydown={on_new_key} />
                <button onclick={on_add}>{ "Add column" }</button>
            </div>
            { progress }
            { results }
            { explanation }
        </main>
    }
}

/// condor_status's summary table, or condor_q's totals line.
fn summary_table(s: &Summary) -> Html {
    match s {
        Summary::Machines(m) => {
            let row = |name: &str, c: &classad::api::StateCounts, total: bool| {
                html! {
                    <tr class={classes!(total.then_some("total"))}>
                        <th scope="row">{ name.to_string() }</th>
                        <td class="num">{ thousands(c.total) }</td>
                        { for c.states.iter().map(|n| html! { <td class="num">{ thousands(*n) }</td> }) }
                    </tr>
                }
            };
            html! {
                <div class="table-scroll">
                    <table class="cycle query-summary" id="query-summary-table">
                        <thead><tr>
                            <th scope="col">{ "Arch/OpSys" }</th><th scope="col">{ "Total" }</th>
                            { for STATES.iter().map(|st| html! { <th scope="col">{ *st }</th> }) }
                        </tr></thead>
                        <tbody>
                            { for m.rows.iter().map(|(k, c)| row(k, c, false)) }
                            { row("Total", &m.total, true) }
                        </tbody>
                    </table>
                </div>
            }
        }
        Summary::Jobs(j) => html! {
            <p class="query-totals" id="query-totals">{ format!(
                "{}; {} completed, {} removed, {} idle, {} running, {} held, {} suspended",
                count(j.jobs, "job", "jobs"), j.completed, j.removed, j.idle, j.running, j.held, j.suspended
            ) }</p>
        },
    }
}

/// All matching rows as CSV or JSON: (file name, text, type).
fn export(format: &str, columns: &[String], r: &Rows) -> (&'static str, String, &'static str) {
    if format == "json" {
        let rows: Vec<serde_json::Value> = r
            .rows
            .iter()
            .zip(&r.labels)
            .map(|(row, label)| {
                let mut o = serde_json::Map::new();
                o.insert("ad".into(), label.clone().into());
                // Typed as `classad query --json` gives them.
                for (i, c) in columns.iter().enumerate() {
                    let v = match (row.typed.get(i), row.cells.get(i)) {
                        (Some(t), _) => t.clone(),
                        (None, Some(text)) => text.clone().into(),
                        (None, None) => serde_json::Value::Null,
                    };
                    o.insert(c.clone(), v);
                }
                serde_json::Value::Object(o)
            })
            .collect();
        let text = serde_json::to_string_pretty(&rows).unwrap_or_default();
        return ("query.json", text, "application/json");
    }
    let field = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = String::new();
    out.push_str(
        &std::iter::once("ad".to_string())
            .chain(columns.iter().map(|c| field(c)))
            .collect::<Vec<_>>()
            .join(","),
    );
    out.push('\n');
    for (row, label) in r.rows.iter().zip(&r.labels) {
        let cells: Vec<String> = std::iter::once(field(label))
            .chain(row.cells.iter().map(|c| field(c)))
            .collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    ("query.csv", out, "text/csv")
}
