//! One gang opened: its tree of docked ads (ports as connectors, labels
//! on the edges), every docking with both constraints' explain trees, and
//! the evaluation environment of the thesis' Figure 32 in which they were
//! evaluated (asked of the worker, which re-checks the gang).

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::{Gang, GangAdRef, GangDetail, PoolRequest};
use classad::api::Mode;
use yew::prelude::*;

use crate::bridge::session_client::{Session, CANCELLED};
use crate::components::matchmaking::match_bar::MatchPools;
use crate::components::widgets::explain::{Explain, Trace};
use crate::components::widgets::trace::{AdFacts, Ctx};

#[derive(Properties, PartialEq)]
pub struct DetailProps {
    pub session: Session,
    pub pools: MatchPools,
    pub mode: Mode,
    pub request: String,
    pub gang: Rc<Gang>,
    pub on_close: Callback<()>,
}

/// Each member's parent (member, its port label, the child's port label).
fn parents(g: &Gang) -> Vec<Option<(usize, String, String)>> {
    g.members
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let p = m.parent_port?;
            let d = m.ports.iter().find(|d| d.port == p)?;
            let parent_label = g
                .members
                .get(d.member)?
                .ports
                .iter()
                .find(|x| x.member == k)?;
            Some((d.member, parent_label.label.clone(), d.label.clone()))
        })
        .collect()
}

const BOX_W: f64 = 150.0;
const BOX_H: f64 = 46.0;
const GAP_X: f64 = 24.0;
const GAP_Y: f64 = 64.0;

/// The gang as a tree, drawn top-down: each level's members side by side.
fn tree_svg(g: &Gang) -> Html {
    let parent = parents(g);
    let mut depth = vec![0usize; g.members.len()];
    for k in 0..g.members.len() {
        // Parents come before their children in the member list.
        if let Some((p, _, _)) = &parent[k] {
            depth[k] = depth.get(*p).copied().unwrap_or(0) + 1;
        }
    }
    let levels = depth.iter().max().map_or(1, |d| d + 1);
    let mut slot = vec![0usize; g.members.len()];
    let mut per_level = vec![0usize; levels];
    for k in 0..g.members.len() {
        slot[k] = per_level[depth[k]];
        per_level[depth[k]] += 1;
    }
    let widest = per_level.iter().copied().max().unwrap_or(1) as f64;
    let width = widest * (BOX_W + GAP_X) + GAP_X;
    let height = levels as f64 * (BOX_H + GAP_Y) + 10.0;
    let pos = |k: usize| {
        let row = per_level[depth[k]] as f64;
        let offset = (width - row * (BOX_W + GAP_X) + GAP_X) / 2.0;
        (
            offset + slot[k] as f64 * (BOX_W + GAP_X),
            10.0 + depth[k] as f64 * (BOX_H + GAP_Y),
        )
    };
    let edges = (0..g.members.len()).filter_map(|k| {
        let (p, plabel, clabel) = parent[k].clone()?;
        let (x1, y1) = pos(p);
        let (x2, y2) = pos(k);
        let (ax, ay) = (x1 + BOX_W / 2.0, y1 + BOX_H);
        let (bx, by) = (x2 + BOX_W / 2.0, y2);
        Some(html! {
            <g class="gang-edge">
                <line x1={ax.to_string()} y1={ay.to_string()} x2={bx.to_string()} y2={by.to_string()} />
                // Above the child, so siblings' labels do not collide.
                <text x={bx.to_string()} y={(by - 8.0).to_string()} text-anchor="middle">{ format!("{plabel} ⇄ {clabel}") }</text>
            </g>
        })
    });
    let boxes = g.members.iter().enumerate().map(|(k, m)| {
        let (x, y) = pos(k);
        let kind = match m.ad {
            GangAdRef::Request(_) => "request",
            GangAdRef::Offer(_) => "offer",
        };
        let ports: Vec<String> = m.ports.iter().map(|d| d.label.clone()).collect();
        html! {
            <g class={classes!("gang-node", kind)}>
                <rect x={x.to_string()} y={y.to_string()} width={BOX_W.to_string()} height={BOX_H.to_string()} rx="6" />
                <text x={(x + 8.0).to_string()} y={(y + 18.0).to_string()} class="name">{ m.name.clone() }</text>
                <text x={(x + 8.0).to_string()} y={(y + 36.0).to_string()} class="ports">{ format!("ports: {}", ports.join(", ")) }</text>
            </g>
        }
    });
    html! {
        <svg class="gang-tree" role="img" aria-label="The gang as a tree of docked ads"
            width={width.to_string()} height={height.to_string()} viewBox={format!("0 0 {width} {height}")}>
            { for edges }
            { for boxes }
        </svg>
    }
}

#[component]
pub fn GangDetailPanel(props: &DetailProps) -> Html {
    let detail = use_state(|| None::<Result<Rc<GangDetail>, String>>);
    {
        let (session, args, detail, mode) = (
            props.session.clone(),
            props.pools.args(),
            detail.clone(),
            props.mode,
        );
        use_effect_with(props.gang.clone(), move |gang| {
            detail.set(None);
            let gang = (**gang).clone();
            session.request(
                &args,
                move |ids| PoolRequest::GangDetail {
                    requests: ids[0].clone(),
                    offers: ids[1].clone(),
                    gang,
                    context: EvalOptions::in_mode(mode),
                },
                None,
                move |r: Result<GangDetail, String>| match r {
                    Err(e) if e == CANCELLED => {}
                    r => detail.set(Some(r.map(Rc::new))),
                },
            );
        });
    }
    let ctx = Rc::new(Ctx {
        my: AdFacts {
            present: true,
            label: "the docking environment".into(),
            ..Default::default()
        },
        target: AdFacts::default(),
        mode: props.mode,
    });
    let close = {
        let c = props.on_close.clone();
        Callback::from(move |_| c.emit(()))
    };
    let body = match &*detail {
        None => html! { <p class="muted">{ "Checking the gang…" }</p> },
        Some(Err(e)) => {
            html! { <p class="status v-error">{ format!("The gang could not be explained: {e}") }</p> }
        }
        Some(Ok(d)) => {
            let name = |k: usize| d.members.get(k).cloned().unwrap_or_default();
            let dockings = d.dockings.iter().map(|x| {
                let side = |who: String, port: &str, value: &str, trace: &Option<classad::api::TraceNode>| {
                    html! {
                        <div class="dock-side">
                            <h5>{ format!("{who}, port {port}: ") }<span class={classes!(if value == "true" { "v-true" } else { "v-false" })}>{ value.to_string() }</span></h5>
                            { match trace {
                                Some(t) => html! { <Explain root={Trace(Rc::new(t.clone()))} ctx={ctx.clone()} on_pick={Callback::noop()} /> },
                                None => html! { <p class="muted">{ "no constraint (a port without Requirements or Constraint never docks)" }</p> },
                            } }
                        </div>
                    }
                };
                html! {
                    <section class="docking">
                        <h4>{ format!("{} · {} ⇄ {} · {}", name(x.a), x.a_port, name(x.b), x.b_port) }</h4>
                        <div class="dock-sides">
                            { side(name(x.a), &x.a_port, &x.a_value, &x.a_trace) }
                            { side(name(x.b), &x.b_port, &x.b_value, &x.b_trace) }
                        </div>
                    </section>
                }
            });
            html! {
                <>
                    <p class="muted">{ "Each docking evaluates both ports' constraints; a label names the port docked there, and a name a port does not define is looked up in its ad, then among the labels." }</p>
                    { for dockings }
                    <details class="gang-env">
                        <summary>{ "The evaluation environment (the thesis' Figure 32)" }</summary>
                        <pre>{ d.environment.clone() }</pre>
                    </details>
                </>
            }
        }
    };
    html! {
        <div class="pair-detail gang-detail" role="region" aria-label={format!("The gang of {}", props.request)}>
            <div class="pair-head">
                <h2>{ format!("The gang of {}", props.request) }</h2>
                <button onclick={close} aria-label="Close the gang">{ "×" }</button>
            </div>
            { tree_svg(&props.gang) }
            { body }
        </div>
    }
}
