//! The algorithms compared (thesis §5.2–5.8, Figures 34–56 redrawn from
//! live runs): base workloads of several sizes are generated in the worker
//! and run by each chosen algorithm; a chart plots probes, evaluations,
//! time or gangs made against the number of jobs.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::{CompareRequest, CompareRow, GangAlgorithm, PoolRequest};
use classad::api::Mode;
use serde::Deserialize;
use yew::prelude::*;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{Session, CANCELLED};
use crate::components::gangmatching::algorithms::{algorithm_name, ALGORITHMS};
use crate::components::matchmaking::match_bar::{use_stop_on_leave, Progress};
use crate::components::widgets::words::thousands;

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    pub session: Session,
    pub mode: Mode,
}

/// `PoolResponse::GangComparison`.
#[derive(Deserialize)]
struct Comparison {
    rows: Vec<CompareRow>,
}

/// The naive search is cubic: it is left out above this many jobs.
const NAIVE_MAX: usize = 400;
const MAX_JOBS: usize = 8_000;
/// Okabe–Ito, one per algorithm (in `ALGORITHMS` order).
const COLOURS: [&str; 8] = [
    "#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
];

#[derive(Clone, Copy, PartialEq)]
enum Metric {
    Probes,
    Evaluations,
    Seconds,
    Gangs,
}

impl Metric {
    fn of(self, r: &CompareRow) -> f64 {
        match self {
            Metric::Probes => r.probes as f64,
            Metric::Evaluations => r.evaluations as f64,
            Metric::Seconds => r.seconds,
            Metric::Gangs => r.gangs as f64,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Metric::Probes => "index probes",
            Metric::Evaluations => "expression evaluations",
            Metric::Seconds => "seconds (in the worker)",
            Metric::Gangs => "gangs made",
        }
    }
}

fn colour(a: GangAlgorithm) -> &'static str {
    let i = ALGORITHMS.iter().position(|x| x.0 == a).unwrap_or(0);
    COLOURS[i % COLOURS.len()]
}

fn parse_sizes(s: &str) -> Result<Vec<usize>, String> {
    let mut v = Vec::new();
    for part in s.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let n: usize = part
            .trim()
            .parse()
            .map_err(|_| format!("\u{201c}{part}\u{201d} is not a number of jobs"))?;
        if n == 0 || n > MAX_JOBS {
            return Err(format!("{n}: sizes go from 1 to {MAX_JOBS} jobs"));
        }
        v.push(n);
    }
    if v.is_empty() {
        return Err("give at least one size".into());
    }
    v.sort_unstable();
    v.dedup();
    Ok(v)
}

/// The chart: one line per algorithm, jobs on x, the metric on y.
fn chart(rows: &[CompareRow], metric: Metric, log: bool) -> Html {
    const W: f64 = 720.0;
    const H: f64 = 320.0;
    const L: f64 = 70.0;
    const B: f64 = 40.0;
    /// Room on the right for the legend.
    const R: f64 = 110.0;
    let xs: Vec<f64> = rows.iter().map(|r| r.jobs as f64).collect();
    let ys: Vec<f64> = rows.iter().map(|r| metric.of(r)).collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(0.0, f64::max),
    );
    let y1 = ys.iter().copied().fold(0.0, f64::max).max(1e-9);
    let ty = |y: f64| -> f64 {
        let f = if log {
            (y.max(1.0)).log10() / y1.max(10.0).log10()
        } else {
            y / y1
        };
        H - B - f * (H - B - 10.0)
    };
    let tx = |x: f64| -> f64 {
        if x1 > x0 {
            L + (x - x0) / (x1 - x0) * (W - L - R)
        } else {
            L + (W - L - R) / 2.0
        }
    };
    let mut algs: Vec<GangAlgorithm> = Vec::new();
    for r in rows {
        if !algs.contains(&r.algorithm) {
            algs.push(r.algorithm);
        }
    }
    let lines = algs.iter().map(|&a| {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.algorithm == a)
            .map(|r| (tx(r.jobs as f64), ty(metric.of(r))))
            .collect();
        let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        html! {
            <g class="series">
                <polyline points={path.join(" ")} fill="none" stroke={colour(a)} stroke-width="2" />
                { for pts.iter().map(|(x, y)| html! { <circle cx={x.to_string()} cy={y.to_string()} r="3" fill={colour(a)} /> }) }
            </g>
        }
    });
    let ticks = [0.0, 0.25, 0.5, 0.75, 1.0].map(|f| {
        let v = if log {
            10f64.powf(f * y1.max(10.0).log10())
        } else {
            f * y1
        };
        let label = if metric == Metric::Seconds {
            format!("{v:.2}")
        } else {
            thousands(v.round() as u64)
        };
        html! {
            <g class="tick">
                <line x1={L.to_string()} x2={(W - R).to_string()} y1={ty(v).to_string()} y2={ty(v).to_string()} />
                <text x={(L - 6.0).to_string()} y={(ty(v) + 4.0).to_string()} text-anchor="end">{ label }</text>
            </g>
        }
    });
    let mut sizes: Vec<usize> = rows.iter().map(|r| r.jobs).collect();
    sizes.dedup();
    let xticks = sizes.iter().map(|&s| {
        html! { <text x={tx(s as f64).to_string()} y={(H - B + 16.0).to_string()} text-anchor="middle">{ thousands(s as u64) }</text> }
    });
    let legend = algs.iter().enumerate().map(|(i, &a)| {
        let y = 20.0 + i as f64 * 18.0;
        let x = W - R + 16.0;
        html! {
            <g class="legend">
                <rect x={x.to_string()} y={(y - 9.0).to_string()} width="10" height="10" fill={colour(a)} />
                <text x={(x + 16.0).to_string()} y={y.to_string()}>{ algorithm_name(a) }</text>
            </g>
        }
    });
    html! {
        <svg class="gang-chart" role="img" viewBox={format!("0 0 {W} {H}")} width={W.to_string()} height={H.to_string()}
            aria-label={format!("{} against the number of jobs, per algorithm", metric.name())}>
            { for ticks }
            { for xticks }
            <text x={((W - R + L) / 2.0).to_string()} y={(H - 6.0).to_string()} text-anchor="middle">{ "jobs (= machines)" }</text>
            { for lines }
            { for legend }
        </svg>
    }
}

#[component]
pub fn GangCompare(props: &CompareProps) -> Html {
    let sizes = use_state(|| "250, 500, 1000, 2000".to_string());
    let percent = use_state(|| 50u32);
    let selectivity = use_state(|| 4usize);
    let duds = use_state(|| false);
    let chosen = use_state(|| {
        vec![
            GangAlgorithm::Lr,
            GangAlgorithm::Rl,
            GangAlgorithm::Dyn,
            GangAlgorithm::Dyns,
            GangAlgorithm::Dynsr,
        ]
    });
    let metric = use_state(|| Metric::Probes);
    let log = use_state(|| true);
    let running = use_state(|| None::<(Option<(usize, usize)>, f64)>);
    let result = use_state(|| None::<Result<Rc<Vec<CompareRow>>, String>>);
    use_stop_on_leave(&props.session, running.is_some());
    let parsed = parse_sizes(&sizes);
    let run = {
        let (session, running, result) = (props.session.clone(), running.clone(), result.clone());
        let (parsed, percent, selectivity, duds, chosen, mode) = (
            parsed.clone(),
            *percent,
            *selectivity,
            *duds,
            (*chosen).clone(),
            props.mode,
        );
        Callback::from(move |_| {
            let Ok(sizes) = parsed.clone() else { return };
            let biggest = sizes.iter().copied().max().unwrap_or(0);
            let algorithms: Vec<GangAlgorithm> = ALGORITHMS
                .iter()
                .map(|x| x.0)
                .filter(|a| chosen.contains(a))
                .filter(|a| *a != GangAlgorithm::Naive || biggest <= NAIVE_MAX)
                .collect();
            let started = now_ms();
            running.set(Some((None, started)));
            let progress = {
                let running = running.clone();
                Callback::from(move |at: (usize, usize)| running.set(Some((Some(at), started))))
            };
            let (running, result) = (running.clone(), result.clone());
            session.request(
                &[],
                move |_| PoolRequest::GangCompare {
                    compare: CompareRequest {
                        sizes,
                        licenses_percent: percent,
                        selectivity,
                        algorithms,
                        duds,
                        seed: 1,
                    },
                    context: EvalOptions::in_mode(mode),
                },
                Some(progress),
                move |r: Result<Comparison, String>| {
                    running.set(None);
                    match r {
                        Err(e) if e == CANCELLED => {}
                        r => result.set(Some(r.map(|c| Rc::new(c.rows)))),
                    }
                },
            );
        })
    };
    let on_sizes = {
        let sizes = sizes.clone();
        Callback::from(move |e: InputEvent| {
            sizes.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let select_num = |state: UseStateHandle<usize>| {
        Callback::from(move |e: Event| {
            if let Ok(v) = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value()
                .parse()
            {
                state.set(v);
            }
        })
    };
    let on_percent = {
        let percent = percent.clone();
        Callback::from(move |e: Event| {
            if let Ok(v) = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value()
                .parse()
            {
                percent.set(v);
            }
        })
    };
    let toggle = |a: GangAlgorithm| {
        let chosen = chosen.clone();
        Callback::from(move |_: Event| {
            let mut v = (*chosen).clone();
            if let Some(i) = v.iter().position(|x| *x == a) {
                v.remove(i);
            } else {
                v.push(a);
            }
            chosen.set(v);
        })
    };
    let on_metric = {
        let metric = metric.clone();
        Callback::from(move |e: Event| {
            metric.set(
                match e
                    .target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value()
                    .as_str()
                {
                    "evaluations" => Metric::Evaluations,
                    "seconds" => Metric::Seconds,
                    "gangs" => Metric::Gangs,
                    _ => Metric::Probes,
                },
            )
        })
    };
    let on_cancel = {
        let s = props.session.clone();
        Callback::from(move |_| s.cancel())
    };
    let busy = running.is_some();
    let biggest = parsed
        .as_ref()
        .ok()
        .and_then(|v| v.iter().copied().max())
        .unwrap_or(0);
    let out = match &*result {
        None => html! {},
        Some(Err(e)) => {
            html! { <p class="status v-error">{ format!("The comparison failed: {e}") }</p> }
        }
        Some(Ok(rows)) => {
            let table = rows.iter().map(|r| {
                html! {
                    <tr>
                        <td class="num">{ thousands(r.jobs as u64) }</td>
                        <td>{ algorithm_name(r.algorithm) }</td>
                        <td class="num">{ thousands(r.gangs) }</td>
                        <td class="num">{ thousands(r.evaluations) }</td>
                        <td class="num">{ thousands(r.probes) }</td>
                        <td class="num">{ thousands(r.backtracks) }</td>
                        <td class="num">{ format!("{:.3}", r.seconds) }</td>
                    </tr>
                }
            });
            html! {
                <>
                    <div class="matrix-tools">
                        <label>{ "Plot " }
                            <select id="gang-metric" onchange={on_metric}>
                                <option value="probes" selected={*metric == Metric::Probes}>{ "index probes" }</option>
                                <option value="evaluations" selected={*metric == Metric::Evaluations}>{ "evaluations" }</option>
                                <option value="seconds" selected={*metric == Metric::Seconds}>{ "time" }</option>
                                <option value="gangs" selected={*metric == Metric::Gangs}>{ "gangs made" }</option>
                            </select>
                        </label>
                        <label class="check"><input type="checkbox" checked={*log} onchange={{ let log = log.clone(); Callback::from(move |_: Event| log.set(!*log)) }} />{ " logarithmic scale" }</label>
                    </div>
                    { chart(rows, *metric, *log) }
                    <div class="table-wrap">
                        <table class="cycle" id="gang-compare-table">
                            <thead><tr><th class="num">{ "Jobs" }</th><th>{ "Algorithm" }</th><th class="num">{ "Gangs" }</th><th class="num">{ "Evaluations" }</th><th class="num">{ "Probes" }</th><th class="num">{ "Backtracks" }</th><th class="num">{ "Seconds" }</th></tr></thead>
                            <tbody>{ for table }</tbody>
                        </table>
                    </div>
                </>
            }
        }
    };
    html! {
        <section class="gang-compare" aria-label="The algorithms compared">
            <p class="muted">{ "The thesis' base workload (§5.2): as many machines as jobs, each job needing a machine (Cpu port) and a license whose HostId range must hold the machine's Key (License port). With 50 % licenses half the jobs cannot be served; selectivity k splits machines and licenses into k partitions that only match each other. The thesis' findings: the indexed algorithms evaluate far less than naive; DYN probes far less than LR when licenses are scarce; DYNS groups identical licenses; DYNSR's random start costs matches." }</p>
            <div class="matrix-tools">
                <label title="Workload sizes: jobs (= machines), comma-separated">{ "Jobs " }
                    <input id="gang-sizes" value={(*sizes).clone()} oninput={on_sizes} size="22" aria-invalid={parsed.is_err().to_string()} />
                </label>
                <label>{ "Licenses " }
                    <select id="gang-percent" onchange={on_percent}>
                        <option value="50" selected={*percent == 50}>{ "50 %" }</option>
                        <option value="100" selected={*percent == 100}>{ "100 %" }</option>
                    </select>
                </label>
                <label title="Machines and licenses split into this many partitions that only match each other">{ "Selectivity " }
                    <select id="gang-selectivity" onchange={select_num(selectivity.clone())}>
                        { for [1usize, 2, 4, 8].iter().map(|k| html! { <option value={k.to_string()} selected={*selectivity == *k}>{ k }</option> }) }
                    </select>
                </label>
                <label class="check" title="§5.6.2: eight resources engineered so that no probe comes back empty"><input type="checkbox" checked={*duds} onchange={{ let d = duds.clone(); Callback::from(move |_: Event| d.set(!*d)) }} />{ " dud ads" }</label>
            </div>
            <div class="matrix-tools" role="group" aria-label="Algorithms">
                { for ALGORITHMS.iter().map(|(a, name, help)| {
                    let off = *a == GangAlgorithm::Naive && biggest > NAIVE_MAX;
                    html! {
                        <label class="check" title={if off { format!("left out above {NAIVE_MAX} jobs: the naive search is cubic") } else { help.to_string() }}>
                            <input type="checkbox" checked={chosen.contains(a) && !off} disabled={off} onchange={toggle(*a)} />{ format!(" {name}") }
                        </label>
                    }
                }) }
                <button id="run-compare" class="primary" disabled={busy || parsed.is_err()} onclick={run}>{ "Run the comparison" }</button>
            </div>
            if let Err(e) = &parsed { <p class="status v-error">{ e.clone() }</p> }
            if let Some((at, started)) = &*running {
                <Progress label="Running the algorithms…" at={*at} started={Some(started.to_owned())} {on_cancel} />
            }
            { out }
        </section>
    }
}
