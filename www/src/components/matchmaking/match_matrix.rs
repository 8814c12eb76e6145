//! The match matrix view: jobs × machines, each cell coloured by how the
//! pair fares. Virtualized: the canvas paints only what is in sight, and
//! the cells come from the worker tile by tile (what is in sight first, a
//! margin around it next), so a 10,000 × 10,000 matrix scrolls freely.
//! Sorting and filtering use whole-matrix counts (asked for on demand,
//! with progress). Clicking a cell opens the pair below.

use classad::api::EvalOptions;
use std::cell::RefCell;
use std::rc::Rc;

use classad::api::session::PoolRequest;
use classad::api::Mode;
use gloo_events::EventListener;
use yew::prelude::*;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::components::matchmaking::match_bar::{
    match_view, use_stop_on_leave, MatchPools, MatchViewProps, Progress, ViewFrame,
};
use crate::components::matchmaking::matrix_canvas::{LEFT, TOP};
use crate::components::matchmaking::matrix_handle::{Handle, MatrixState};
use crate::components::matchmaking::matrix_layout::{arrange, needs_counts, Filter, Sort};
use crate::components::matchmaking::matrix_table::CellsTable;
use crate::components::matchmaking::pair_detail::PairDetail;
use crate::components::shell::header::THEME_EVENT;
use crate::components::widgets::words::{count, thousands};
use crate::state::actions::Action;

/// Matrices up to this many pairs are counted at once (for the summary).
const COUNT_AT_ONCE: u64 = 250_000;

#[component]
pub fn MatchMatrix(props: &MatchViewProps) -> Html {
    let frame = ViewFrame {
        label: "Match matrix",
        class: None,
        title: "Match matrix",
        intro: "Every job against every machine: a cell's colour says whose Requirements accept the pair. Point at a cell for both ranks; click it to see both Requirements evaluated; click a job's label to ask why it does not match.",
    };
    match_view(props, frame, |jobs, machines| {
        html! {
            <MatrixBody session={props.session.clone()} pools={props.pools.clone()} {jobs} {machines}
                mode={props.state.mode} clock={props.state.matching.clock.clone()} dispatch={props.dispatch.clone()} />
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
    clock: Option<String>,
    dispatch: Callback<Action>,
}

/// Whole-matrix counts, and what they were counted for.
struct Counts {
    key: (usize, usize, Mode, Option<String>),
    jobs: Vec<u32>,
    machines: Vec<u32>,
}

fn select<T: Copy + PartialEq + 'static>(
    id: &'static str,
    options: &'static [(T, &'static str)],
    value: T,
    set: Callback<T>,
) -> Html {
    select_named(id, None, options, value, set)
}

/// A select with its own accessible name (when its visible label is
/// shared, like the two "by").
fn select_named<T: Copy + PartialEq + 'static>(
    id: &'static str,
    name: Option<&'static str>,
    options: &'static [(T, &'static str)],
    value: T,
    set: Callback<T>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let v = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .selected_index();
        if let Some((t, _)) = usize::try_from(v).ok().and_then(|i| options.get(i)) {
            set.emit(*t);
        }
    });
    html! {
        <select {id} {onchange} aria-label={name}>
            { for options.iter().map(|(t, label)| html! { <option selected={*t == value}>{ *label }</option> }) }
        </select>
    }
}

const CELL_SIZES: [(u32, &str); 5] = [
    (4, "4 px"),
    (8, "8 px"),
    (12, "12 px"),
    (16, "16 px"),
    (24, "24 px"),
];

#[component]
fn MatrixBody(props: &BodyProps) -> Html {
    let force = use_force_update();
    let canvas = use_node_ref();
    let scroller = use_node_ref();
    let handle = {
        let (canvas, scroller, session) = (canvas.clone(), scroller.clone(), props.session.clone());
        use_memo((), move |_| Handle {
            data: Rc::new(RefCell::new(MatrixState::default())),
            canvas,
            scroller,
            session,
            on_tile: Callback::from(move |_| force.force_update()),
        })
    };
    let row_filter = use_state(Filter::default);
    let row_sort = use_state(Sort::default);
    let col_filter = use_state(Filter::default);
    let col_sort = use_state(Sort::default);
    let cell = use_state(|| 16u32);
    let dim = use_state(|| false);
    let hover = use_state(|| None::<(usize, usize)>);
    let opened = use_state(|| None::<(usize, usize)>);
    // The table of the cells in sight: open or not, and a tick that
    // re-renders it when the matrix scrolls.
    let table_open = use_state(|| false);
    let scrolled = use_state(|| 0u32);
    let counts = use_state(|| None::<Rc<Counts>>);
    let counting = use_state(|| None::<(Option<(usize, usize)>, f64)>);
    let count_error = use_state(|| None::<String>);

    let count_key = (
        Rc::as_ptr(&props.jobs) as usize,
        Rc::as_ptr(&props.machines) as usize,
        props.mode,
        props.clock.clone(),
    );
    let valid_counts = (*counts).clone().filter(|c| c.key == count_key);
    let (nj, nm) = (props.jobs.ads, props.machines.ads);
    let pairs = nj as u64 * nm as u64;

    let start_count = {
        let (session, args) = (props.session.clone(), props.pools.args());
        let (counts, counting, count_error) =
            (counts.clone(), counting.clone(), count_error.clone());
        let key = count_key.clone();
        let (mode, clock) = (props.mode, props.clock.clone());
        Callback::from(move |_: ()| {
            let started = now_ms();
            counting.set(Some((None, started)));
            count_error.set(None);
            let now = crate::bridge::clock::resolve(clock.as_deref());
            let progress = {
                let counting = counting.clone();
                Callback::from(move |at: (usize, usize)| counting.set(Some((Some(at), started))))
            };
            let (counts, counting, count_error, key) = (
                counts.clone(),
                counting.clone(),
                count_error.clone(),
                key.clone(),
            );
            session.request(
                &args,
                move |ids| PoolRequest::MatchCounts {
                    jobs: ids[0].clone(),
                    machines: ids[1].clone(),
                    context: EvalOptions::at(mode, now.0, now.1),
                },
                Some(progress),
                move |r: Result<classad::api::session::MutualCounts, String>| {
                    counting.set(None);
                    match r {
                        Ok(a) => counts.set(Some(Rc::new(Counts {
                            key,
                            jobs: a.job_matches,
                            machines: a.machine_matches,
                        }))),
                        Err(e) if e == CANCELLED => {}
                        Err(e) => count_error.set(Some(e)),
                    }
                },
            );
        })
    };
    // Small matrices are counted at once, for the summary.
    {
        let start = start_count.clone();
        let have = valid_counts.is_some();
        use_effect_with(count_key.clone(), move |_| {
            if !have && pairs <= COUNT_AT_ONCE {
                start.emit(());
            }
        });
    }
    // A filter or sort that needs counts starts them.
    {
        let start = start_count.clone();
        let want = needs_counts(*row_filter, *row_sort) || needs_counts(*col_filter, *col_sort);
        let idle = valid_counts.is_none() && counting.is_none() && count_error.is_none();
        use_effect_with((want, count_key.clone()), move |(want, _)| {
            if *want && idle {
                start.emit(());
            }
        });
    }

    let rows = {
        let c = valid_counts.clone();
        use_memo(
            (nj, c.as_ref().map(Rc::as_ptr), *row_filter, *row_sort),
            move |(n, _, f, s)| arrange(*n, c.as_ref().map(|c| c.jobs.as_slice()), *f, *s),
        )
    };
    let cols = {
        let c = valid_counts.clone();
        use_memo(
            (nm, c.as_ref().map(Rc::as_ptr), *col_filter, *col_sort),
            move |(n, _, f, s)| arrange(*n, c.as_ref().map(|c| c.machines.as_slice()), *f, *s),
        )
    };

    // A new arrangement, pool, mode, clock or cell size: start afresh.
    {
        let h = (*handle).clone();
        let deps = (
            rows.clone(),
            cols.clone(),
            props.jobs.clone(),
            props.machines.clone(),
            props.mode,
            props.clock.clone(),
            *cell,
        );
        let args = props.pools.args();
        use_effect_with(
            deps,
            move |(rows, cols, jobs, machines, mode, clock, cell)| {
                {
                    let mut d = h.data.borrow_mut();
                    d.key += 1;
                    d.cache.clear();
                    d.error = None;
                    d.rows = rows.clone();
                    d.cols = cols.clone();
                    d.jobs = Some(jobs.clone());
                    d.machines = Some(machines.clone());
                    d.args = args;
                    d.mode = *mode;
                    d.now = crate::bridge::clock::resolve(clock.as_deref());
                    d.cell = *cell as f64;
                    d.hover = None;
                }
                h.redraw();
                h.pump();
            },
        );
    }
    {
        let h = (*handle).clone();
        use_effect_with(*dim, move |dim| {
            h.data.borrow_mut().dim = *dim;
            h.redraw();
        });
    }
    // Repaint when the window (and so the matrix) changes size, and when
    // the theme (the app's or the system's) changes the colours.
    {
        let h = (*handle).clone();
        use_effect_with((), move |_| {
            let repaint = move |_: &Event| {
                h.redraw();
                h.pump();
            };
            let w = web_sys::window();
            let dark = w
                .as_ref()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
            // Each listener is removed when dropped, with the effect.
            let mut listeners = Vec::new();
            if let Some(w) = &w {
                for event in ["resize", THEME_EVENT] {
                    listeners.push(EventListener::new(w, event, repaint.clone()));
                }
            }
            if let Some(m) = &dark {
                listeners.push(EventListener::new(m, "change", repaint));
            }
            move || drop(listeners)
        });
    }
    use_stop_on_leave(&props.session, counting.is_some());

    let onscroll = {
        let (h, table_open, scrolled) = ((*handle).clone(), table_open.clone(), scrolled.clone());
        Callback::from(move |_: Event| {
            h.redraw();
            h.pump();
            if *table_open {
                scrolled.set(scrolled.wrapping_add(1));
            }
        })
    };
    let onmousemove = {
        let (h, hover) = ((*handle).clone(), hover.clone());
        Callback::from(move |e: MouseEvent| {
            let at = h.hit(&e);
            if h.data.borrow().hover != at {
                h.data.borrow_mut().hover = at;
                h.redraw();
                hover.set(at);
            }
        })
    };
    let onmouseleave = {
        let (h, hover) = ((*handle).clone(), hover.clone());
        Callback::from(move |_: MouseEvent| {
            h.data.borrow_mut().hover = None;
            h.redraw();
            hover.set(None);
        })
    };
    let open_at = {
        let (h, opened) = ((*handle).clone(), opened.clone());
        Callback::from(move |(r, c): (usize, usize)| {
            let pick = {
                let d = h.data.borrow();
                d.rows
                    .get(r)
                    .zip(d.cols.get(c))
                    .map(|(&j, &m)| (j as usize, m as usize))
            };
            if let Some(p) = pick {
                h.data.borrow_mut().selected = Some(p);
                h.redraw();
                opened.set(Some(p));
            }
        })
    };
    // The analyzer on a job: from its label, or from the opened pair.
    let analyze = {
        let d = props.dispatch.clone();
        Callback::from(move |job: usize| {
            d.emit(Action::Analyze {
                jobs: None,
                machines: None,
                job,
            })
        })
    };
    let onclick = {
        let (h, open_at, analyze) = ((*handle).clone(), open_at.clone(), analyze.clone());
        Callback::from(move |e: MouseEvent| {
            if let Some(at) = h.hit(&e) {
                open_at.emit(at);
            } else if let Some(job) = h.label_hit(&e) {
                analyze.emit(job);
            }
        })
    };
    // Arrow keys move the opened cell (and keep it in sight).
    let onkeydown = {
        let (h, open_at) = ((*handle).clone(), open_at.clone());
        Callback::from(move |e: KeyboardEvent| {
            if let Some(at) = h.step(&e.key()) {
                e.prevent_default();
                open_at.emit(at);
            }
        })
    };

    let tip = (*hover).and_then(|at| handle.tooltip(at));

    let summary = {
        let mut s = format!(
            "{} × {} = {}.",
            count(nj as u64, "job", "jobs"),
            count(nm as u64, "machine", "machines"),
            count(pairs, "pair", "pairs")
        );
        if let Some(c) = &valid_counts {
            let j = c.jobs.iter().filter(|&&n| n > 0).count();
            let m = c.machines.iter().filter(|&&n| n > 0).count();
            let total: u64 = c.jobs.iter().map(|&n| n as u64).sum();
            s += &format!(
                " {} of the jobs and {} of the machines have a mutual match; {} both ways.",
                thousands(j as u64),
                thousands(m as u64),
                count(total, "pair matches", "pairs match")
            );
        }
        if rows.len() != nj || cols.len() != nm {
            s += &format!(
                " Showing {} × {}.",
                thousands(rows.len() as u64),
                thousands(cols.len() as u64)
            );
        }
        s
    };
    let on_cancel_count = {
        let (session, h) = (props.session.clone(), (*handle).clone());
        Callback::from(move |_| {
            session.cancel();
            // The tiles under way were stopped too: fetch them again.
            h.pump();
        })
    };
    let count_row = match (&*counting, &*count_error) {
        (Some((at, started)), _) => html! {
            <Progress label="Counting the matches of every pair…" at={*at} started={Some(started.to_owned())} on_cancel={on_cancel_count} />
        },
        (None, Some(e)) => {
            html! { <p class="status v-error">{ format!("Counting failed: {e}") }</p> }
        }
        (None, None) if valid_counts.is_none() => {
            let start = start_count.clone();
            html! {
                <p class="status">
                    { "Sorting and filtering need the matches of every pair. " }
                    <button onclick={Callback::from(move |_| start.emit(()))}>{ format!("Count all {} pairs", thousands(pairs)) }</button>
                </p>
            }
        }
        _ => html! {},
    };
    let set = |s: &UseStateHandle<Filter>| {
        let s = s.clone();
        Callback::from(move |v| s.set(v))
    };
    let set_sort = |s: &UseStateHandle<Sort>| {
        let s = s.clone();
        Callback::from(move |v| s.set(v))
    };
    let error = handle.data.borrow().error.clone();
    let retry = {
        let h = (*handle).clone();
        Callback::from(move |_| {
            h.data.borrow_mut().error = None;
            h.pump();
        })
    };
    let canvas_label = format!(
        "Match matrix of {} × {}, each cell coloured by outcome: both accept, only the job rejects, only the machine rejects, or both reject",
        count(rows.len() as u64, "job", "jobs"),
        count(cols.len() as u64, "machine", "machines"),
    );
    let space_w = LEFT + cols.len() as f64 * *cell as f64;
    let space_h = TOP + rows.len() as f64 * *cell as f64;
    html! {
        <>
            <div class="matrix-tools">
                <label>{ "Jobs: " }{ select("row-filter", &Filter::ALL, *row_filter, set(&row_filter)) }</label>
                <label>{ "by " }{ select_named("row-sort", Some("Sort jobs by"), &Sort::ALL, *row_sort, set_sort(&row_sort)) }</label>
                <label>{ "Machines: " }{ select("col-filter", &Filter::ALL, *col_filter, set(&col_filter)) }</label>
                <label>{ "by " }{ select_named("col-sort", Some("Sort machines by"), &Sort::ALL, *col_sort, set_sort(&col_sort)) }</label>
                <label>{ "Cells " }{ select("cell-size", &CELL_SIZES, *cell, { let c = cell.clone(); Callback::from(move |v| c.set(v)) }) }</label>
                <label class="check"><input type="checkbox" id="dim" checked={*dim} onchange={{ let d = dim.clone(); Callback::from(move |_| d.set(!*d)) }} />{ " fade all but mutual matches" }</label>
            </div>
            <p class="matrix-summary" id="matrix-summary">{ summary }</p>
            { count_row }
            if let Some(e) = error {
                <p class="status v-error">{ format!("The matrix could not be computed: {e} ") }<button onclick={retry}>{ "Retry" }</button></p>
            }
            <ul class="legend" aria-label="Legend">
                <li><span class="swatch o-both"></span>{ "both accept" }</li>
                <li><span class="swatch o-job"></span>{ "only the job rejects" }</li>
                <li><span class="swatch o-machine"></span>{ "only the machine rejects" }</li>
                <li><span class="swatch o-none"></span>{ "both reject" }</li>
                <li><span class="swatch o-pending"></span>{ "being computed" }</li>
            </ul>
            <div class="matrix-wrap" style={format!("max-width:{}px", space_w + 20.0)}>
                <div class="matrix-scroll" ref={scroller} tabindex="0" role="group" aria-label="Jobs × machines (arrow keys move, the pair opens below)" aria-describedby="matrix-summary"
                    style={format!("height: min(70vh, {}px)", space_h + 18.0)}
                    {onscroll} {onmousemove} {onmouseleave} {onclick} {onkeydown}>
                    <div class="matrix-space" style={format!("width:{space_w}px;height:{space_h}px")}></div>
                </div>
                // The geometry is on the canvas for tests that read its pixels.
                // Named for assistive technology: what it draws, in words.
                <canvas class="matrix-canvas" ref={canvas} role="img" aria-label={canvas_label}
                    data-left={LEFT.to_string()} data-top={TOP.to_string()} data-cell={cell.to_string()}></canvas>
                { tip.unwrap_or_default() }
            </div>
            if rows.is_empty() || cols.is_empty() {
                <p class="status">{ "Nothing to show: the filter leaves no jobs or no machines." }</p>
            }
            <details class="matrix-table-alt" open={*table_open}
                ontoggle={{ let t = table_open.clone(); Callback::from(move |e: Event| {
                    if let Some(d) = e.target_dyn_into::<web_sys::Element>() { t.set(d.has_attribute("open")); }
                }) }}>
                <summary id="matrix-table-toggle">{ "The cells in sight as a table" }</summary>
                if *table_open {
                    <CellsTable sight={handle.in_sight()} on_open={open_at.clone()} />
                }
            </details>
            if let Some((job, machine)) = *opened {
                <p class="analyze-link">
                    <button id="analyze-job-row" onclick={{ let a = analyze.clone(); Callback::from(move |_| a.emit(job)) }}>
                        { format!("Why doesn't job {} match? Analyze it", props.jobs.labels.get(job).cloned().unwrap_or_else(|| (job + 1).to_string())) }
                    </button>
                </p>
                <PairDetail session={props.session.clone()} pools={props.pools.clone()} {job} {machine}
                    mode={props.mode} now={handle.data.borrow().now}
                    on_close={{ let (o, h) = (opened.clone(), (*handle).clone()); Callback::from(move |_| { h.data.borrow_mut().selected = None; h.redraw(); o.set(None); }) }} />
            }
        </>
    }
}
