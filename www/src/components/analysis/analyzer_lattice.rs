//! Conflicts (seed 000 §3.1.2): the conflicting predicate sets in words,
//! and for each failing clause of a few predicates Figure 4's subset
//! lattice — the full clause on top, the empty one at the bottom, each set
//! T when some machine satisfies it, minimal failing sets dashed, maximal
//! succeeding sets solid.

use crate::components::analysis::answers::AnalysisWords;
use yew::prelude::*;

use crate::components::analysis::answers::{Analysis, LatticeGrid};
use crate::components::analysis::lattice::{lattice_levels, lattice_size, members, Mark};

pub fn conflicts_section(a: &Analysis, lattices: &[LatticeGrid]) -> Html {
    if a.conflicts.is_empty() && a.succeeding.is_empty() && lattices.is_empty() {
        return html! {};
    }
    let many = a.clauses.len() > 1;
    let clause_name = |c: usize| {
        if many {
            format!("clause {}: ", c + 1)
        } else {
            String::new()
        }
    };
    let conflicts = a.conflicts.iter().map(|c| {
        let texts: Vec<String> = c
            .predicates
            .iter()
            .map(|&p| a.predicate(c.clause, p).to_string())
            .collect();
        let why = if c.kind == "always" {
            "can never hold together, on any machine"
        } else {
            "each holds on some machine, but no machine of this pool satisfies them together"
        };
        html! {
            <li class={classes!("conflict", c.kind.clone())}>
                { format!("{}predicates {} ", clause_name(c.clause), a.set_text(c.clause, &c.predicates)) }
                <code>{ texts.join(" && ") }</code>
                { format!(" {why}.") }
            </li>
        }
    });
    let succeeding: Vec<String> = a
        .succeeding
        .iter()
        .map(|s| {
            format!(
                "{}{}",
                clause_name(s.clause),
                a.set_text(s.clause, &s.predicates)
            )
        })
        .collect();
    html! {
        <section class="an-conflicts" id="conflicts">
            <h3>{ "Conflicts" }</h3>
            if a.conflicts.is_empty() {
                <p class="muted">{ "No set of predicates conflicts." }</p>
            } else {
                <ul class="conflicts">{ for conflicts }</ul>
            }
            if !succeeding.is_empty() {
                <p>{ "Largest sets some machine satisfies: " }<span class="mss-list">{ succeeding.join("  ") }</span></p>
            }
            { for lattices.iter().map(|g| lattice(a, g)) }
        </section>
    }
}

const NODE_H: f64 = 36.0;
const LEVEL_GAP: f64 = 66.0;
const PAD: f64 = 14.0;

/// One clause's lattice as an SVG (scrolls sideways when wide).
fn lattice(a: &Analysis, g: &LatticeGrid) -> Html {
    let k = match lattice_size(g.succeeds.len()) {
        Some(k) if k == g.predicates.len() && k > 0 => k,
        _ => return html! {},
    };
    let marks = &g.marks;
    let levels = lattice_levels(k);
    let node_w = (16.0 + 15.0 * k as f64).max(58.0);
    let widest = levels.iter().map(Vec::len).max().unwrap_or(1) as f64;
    let width = widest * (node_w + 14.0) + 2.0 * PAD;
    let height = k as f64 * LEVEL_GAP + NODE_H + 2.0 * PAD;
    // Where each set is drawn, by mask.
    let mut at = vec![(0.0, 0.0); g.succeeds.len()];
    for (li, level) in levels.iter().enumerate() {
        let n = level.len() as f64;
        for (i, &s) in level.iter().enumerate() {
            let x = PAD + (i as f64 + 0.5) * (width - 2.0 * PAD) / n;
            let y = PAD + NODE_H / 2.0 + li as f64 * LEVEL_GAP;
            at[s] = (x, y);
        }
    }
    let edges = (0..g.succeeds.len()).flat_map(|s| {
        let at = &at;
        members(s, k).into_iter().map(move |j| {
            let t = s & !(1 << j);
            let ((x1, y1), (x2, y2)) = (at[s], at[t]);
            html! { <line class="edge" x1={f(x1)} y1={f(y1 + NODE_H / 2.0)} x2={f(x2)} y2={f(y2 - NODE_H / 2.0)} /> }
        })
    });
    let nodes = (0..g.succeeds.len()).map(|s| {
        let (x, y) = at[s];
        let ok = g.succeeds[s];
        let mark = marks.get(s).copied().unwrap_or(Mark::Plain);
        let m = members(s, k);
        let label = if m.is_empty() {
            "∅".to_string()
        } else {
            let shown = a.set_text(g.clause, &m);
            shown[1..shown.len() - 1].replace(", ", " ")
        };
        let words: Vec<String> = m
            .iter()
            .map(|&p| g.predicates.get(p).cloned().unwrap_or_default())
            .collect();
        let title = format!(
            "{} {}: {}{}",
            a.set_text(g.clause, &m),
            if words.is_empty() {
                "(true)".to_string()
            } else {
                words.join(" && ")
            },
            if ok {
                "some machine satisfies it"
            } else {
                "no machine satisfies it"
            },
            match mark {
                Mark::Mfs => " — minimal failing set (a conflict)",
                Mark::Mss => " — maximal succeeding set",
                Mark::Plain => "",
            }
        );
        let class = classes!(
            "node",
            if ok { "t" } else { "f" },
            match mark {
                Mark::Mfs => Some("mfs"),
                Mark::Mss => Some("mss"),
                Mark::Plain => None,
            }
        );
        html! {
            <g {class} data-set={a.set_text(g.clause, &m)}>
                <title>{ title }</title>
                <ellipse cx={f(x)} cy={f(y)} rx={f(node_w / 2.0)} ry={f(NODE_H / 2.0)} />
                <text x={f(x)} y={f(y - 3.0)} class="set">{ label }</text>
                <text x={f(x)} y={f(y + 12.0)} class="tf">{ if ok { "T" } else { "F" } }</text>
            </g>
        }
    });
    let n_mfs = marks.iter().filter(|m| **m == Mark::Mfs).count();
    let n_mss = marks.iter().filter(|m| **m == Mark::Mss).count();
    let many = a.clauses.len() > 1;
    html! {
        <figure class="lattice-fig" id={format!("lattice-{}", g.clause)}>
            <figcaption>
                { format!("Subset lattice{}: {} minimal failing (dashed), {} maximal succeeding (solid).",
                    if many { format!(" of clause {}", g.clause + 1) } else { String::new() }, n_mfs, n_mss) }
            </figcaption>
            <div class="lattice-wrap">
                <svg class="lattice" width={f(width)} height={f(height)} viewBox={format!("0 0 {} {}", f(width), f(height))} role="img"
                    aria-label={format!("Subset lattice of {} predicates", k)}>
                    <title>{ format!("Every subset of the clause's {k} predicates, the whole clause on top and the empty one (true) at the bottom; T: some machine satisfies it.") }</title>
                    { for edges }
                    { for nodes }
                </svg>
            </div>
            <ol class="lattice-key">
                { for g.predicates.iter().map(|p| html! { <li><code>{ p.clone() }</code></li> }) }
            </ol>
            <ul class="legend" aria-label="Lattice legend">
                <li><svg class="lattice-swatch" width="30" height="18" aria-hidden="true"><ellipse class="sw t" cx="15" cy="9" rx="13" ry="7" /></svg>{ "T: some machine satisfies the set" }</li>
                <li><svg class="lattice-swatch" width="30" height="18" aria-hidden="true"><ellipse class="sw f" cx="15" cy="9" rx="13" ry="7" /></svg>{ "F: no machine does" }</li>
                <li><svg class="lattice-swatch" width="30" height="18" aria-hidden="true"><ellipse class="sw mfs" cx="15" cy="9" rx="13" ry="7" /></svg>{ "minimal failing set (a conflict)" }</li>
                <li><svg class="lattice-swatch" width="30" height="18" aria-hidden="true"><ellipse class="sw mss" cx="15" cy="9" rx="13" ry="7" /></svg>{ "maximal succeeding set" }</li>
            </ul>
        </figure>
    }
}

/// A coordinate for SVG (one decimal).
fn f(v: f64) -> String {
    format!("{:.1}", v)
}
