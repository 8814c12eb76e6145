//! Figure 5 (seed 000 §3.2): a plane through the job's point in the Nobody
//! Likes Me space. Two of the job's attributes the machines constrain are
//! the axes; the worker partitions the plane into cells, each accepted by
//! the same machines (their requirements sliced at the job's other
//! values). Infinite sides are clipped to a padded window around every
//! finite bound and the job's point.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::analysis::answers::Plane;
use crate::components::analysis::figures::{short_number, span_text};
use crate::components::analysis::plane::{bounds, pick_axis, plane_extents, sparse_ticks};
use crate::components::analysis::shown::Shown;
use crate::components::widgets::words::{count, thousands};
use crate::state::analyzer_settings::AnalyzeSettings;

#[derive(Properties, PartialEq)]
pub struct PlaneProps {
    pub shown: Rc<Shown>,
    /// The axes asked for (the result may be for earlier ones while the
    /// next analysis runs).
    pub axes: Option<(String, String)>,
    pub settings: AnalyzeSettings,
    pub set: Callback<AnalyzeSettings>,
}

const W: f64 = 680.0;
const H: f64 = 400.0;
const LEFT: f64 = 88.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 52.0;

#[component]
pub fn PlaneView(props: &PlaneProps) -> Html {
    let v = &props.shown.view;
    let offered = &v.plane_attributes;
    if offered.len() < 2 {
        if v.analysis.summary.reject_job == 0 {
            return html! {};
        }
        return html! {
            <section class="an-plane" id="plane">
                <h3>{ "The job's attributes against the machines' requirements (Figure 5)" }</h3>
                <p class="muted">{ match offered.first() {
                    Some(a) => format!("The machines constrain one numeric attribute of the job ({a}): a plane needs two. The job changes above give its ranges."),
                    None => "The machines' requirements constrain no numeric attribute of the job: there is no plane to draw.".to_string(),
                } }</p>
            </section>
        };
    }
    let Some(axes) = props.axes.clone() else {
        return html! {};
    };
    let select = |id: &'static str, is_x: bool| {
        let (set, s, now) = (props.set.clone(), props.settings.clone(), axes.clone());
        let onchange = Callback::from(move |e: Event| {
            let pick = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let mut n = s.clone();
            n.plane = Some(pick_axis(&now, &pick, is_x));
            set.emit(n);
        });
        let chosen = if is_x { &axes.0 } else { &axes.1 };
        html! {
            <select {id} {onchange}>
                { for offered.iter().map(|a| html! { <option value={a.clone()} selected={a.eq_ignore_ascii_case(chosen)}>{ a.clone() }</option> }) }
            </select>
        }
    };
    let drawn = v
        .plane
        .as_ref()
        .filter(|p| p.x.eq_ignore_ascii_case(&axes.0) && p.y.eq_ignore_ascii_case(&axes.1));
    html! {
        <section class="an-plane" id="plane">
            <h3>{ "The job's attributes against the machines' requirements (Figure 5)" }</h3>
            <p class="muted">{ "Each cell is a range of the two attributes accepted by the same machines (the job's other attributes as they are); the number is how many machines accept a job there." }</p>
            <div class="matrix-tools">
                <label>{ "Across " }{ select("plane-x", true) }</label>
                <label>{ "Up " }{ select("plane-y", false) }</label>
            </div>
            { match drawn {
                Some(p) => plane_svg(p),
                None => html! { <p class="status">{ "Drawing the plane…" }</p> },
            } }
        </section>
    }
}

fn plane_svg(p: &Plane) -> Html {
    let (ex, ey) = plane_extents(p);
    let px = |v: f64| ex.scale(v, LEFT, W - RIGHT);
    let py = |v: f64| ey.scale(v, H - BOTTOM, TOP);
    let most = p.cells.iter().map(|c| c.machines).max().unwrap_or(0).max(1);
    let cells = p.cells.iter().map(|c| {
        let (x0, x1) = ex.clip(&c.x);
        let (y0, y1) = ey.clip(&c.y);
        let (l, r) = (px(x0), px(x1));
        let (t, b) = (py(y1), py(y0));
        // A point (an == constraint) is drawn as a thin band.
        let (l, r) = if r - l < 2.0 { (l - 1.0, l + 1.0) } else { (l, r) };
        let (t, b) = if b - t < 2.0 { (t - 1.0, t + 1.0) } else { (t, b) };
        let share = c.machines as f64 / most as f64;
        let style = (c.machines > 0).then(|| format!("fill-opacity:{:.2}", 0.25 + 0.6 * share));
        let title = format!(
            "{} {} × {} {}: {} accept a job here{}",
            p.x, span_text(&c.x), p.y, span_text(&c.y),
            count(c.machines, "machine", "machines"),
            if c.text.is_empty() { String::new() } else { format!(" ({})", c.text) }
        );
        let label = (c.machines > 0 && r - l > 22.0 && b - t > 16.0).then(|| html! {
            <text class="cell-n" x={f((l + r) / 2.0)} y={f((t + b) / 2.0 + 5.0)}>{ thousands(c.machines) }</text>
        });
        html! {
            <g class={classes!("cell", if c.machines > 0 { "some" } else { "none" })} data-machines={c.machines.to_string()}>
                <title>{ title }</title>
                <rect x={f(l)} y={f(t)} width={f(r - l)} height={f(b - t)} {style} />
                { label.unwrap_or_default() }
            </g>
        }
    });
    let xb = bounds(p.cells.iter().map(|c| c.x));
    let yb = bounds(p.cells.iter().map(|c| c.y));
    let xs: Vec<f64> = xb.iter().map(|&v| px(v)).collect();
    let ys: Vec<f64> = yb.iter().map(|&v| py(v)).collect();
    let xticks = sparse_ticks(&xs, 64.0).into_iter().map(|i| html! {
        <g class="tick">
            <line x1={f(xs[i])} x2={f(xs[i])} y1={f(H - BOTTOM)} y2={f(H - BOTTOM + 5.0)} />
            <text x={f(xs[i])} y={f(H - BOTTOM + 18.0)} class="tx">{ short_number(xb[i]) }</text>
        </g>
    });
    let yticks = sparse_ticks(&ys, 18.0).into_iter().map(|i| {
        html! {
            <g class="tick">
                <line x1={f(LEFT - 5.0)} x2={f(LEFT)} y1={f(ys[i])} y2={f(ys[i])} />
                <text x={f(LEFT - 8.0)} y={f(ys[i] + 4.0)} class="ty">{ short_number(yb[i]) }</text>
            </g>
        }
    });
    let job = match p.job {
        (Some(x), Some(y)) => html! {
            <g class="job-point">
                <title>{ format!("The job: {} = {}, {} = {}", p.x, short_number(x), p.y, short_number(y)) }</title>
                <circle cx={f(px(x))} cy={f(py(y))} r="7" />
                <text x={f(px(x) + 11.0)} y={f(py(y) - 9.0)}>{ "job" }</text>
            </g>
        },
        _ => html! {},
    };
    let missing: Vec<&str> = [(&p.x, p.job.0), (&p.y, p.job.1)]
        .into_iter()
        .filter(|(_, v)| v.is_none())
        .map(|(a, _)| a.as_str())
        .collect();
    html! {
        <>
            <div class="plane-wrap">
                <svg class="plane" viewBox={format!("0 0 {W} {H}")} role="img"
                    aria-label={format!("{} cells over {} and {}", p.cells.len(), p.x, p.y)}>
                    <title>{ format!("Ranges of {} (across) and {} (up), each cell labelled with how many machines accept a job there", p.x, p.y) }</title>
                    <rect class="plane-bg" x={f(LEFT)} y={f(TOP)} width={f(W - LEFT - RIGHT)} height={f(H - TOP - BOTTOM)} />
                    { for cells }
                    <rect class="frame" x={f(LEFT)} y={f(TOP)} width={f(W - LEFT - RIGHT)} height={f(H - TOP - BOTTOM)} />
                    { for xticks }
                    { for yticks }
                    <text class="axis-name" x={f((LEFT + W - RIGHT) / 2.0)} y={f(H - 8.0)}>{ p.x.clone() }</text>
                    <text class="axis-name" transform={format!("translate(16 {}) rotate(-90)", f((TOP + H - BOTTOM) / 2.0))}>{ p.y.clone() }</text>
                    { job }
                </svg>
            </div>
            <ul class="legend" aria-label="Plane legend">
                <li><span class="swatch plane-none"></span>{ "no machine accepts a job there" }</li>
                <li><span class="swatch plane-some"></span>{ format!("some machines do (darker: more, up to {})", thousands(most)) }</li>
                <li><span class="swatch plane-job"></span>{ "the job as it is" }</li>
                <li class="muted">{ "sides beyond the outermost bounds go on forever" }</li>
            </ul>
            if !missing.is_empty() {
                <p class="status">{ format!("The job has no number for {}: it is not drawn.", missing.join(" and ")) }</p>
            }
            if !p.complete {
                <p class="status">{ "The plane has more cells than are drawn: a part of it is missing." }</p>
            }
        </>
    }
}

fn f(v: f64) -> String {
    format!("{:.1}", v)
}
