//! The index inspector (thesis ch. 4): every offer port's constraint as
//! rectangles — per profile of its disjunctive form, the intervals it
//! admits on the other side's attributes — and, per attribute (one index
//! dimension per attribute and type), the intervals the index holds.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::{IndexView, PoolRequest};
use classad::api::Mode;
use yew::prelude::*;

use crate::bridge::session_client::{Session, CANCELLED};
use crate::components::matchmaking::match_bar::MatchPools;
use crate::components::widgets::words::thousands;

#[derive(Properties, PartialEq)]
pub struct IndexProps {
    pub session: Session,
    pub pools: MatchPools,
    pub mode: Mode,
}

/// Intervals listed per dimension (the rest are counted).
const SHOWN: usize = 60;

#[component]
pub fn GangIndex(props: &IndexProps) -> Html {
    let view = use_state(|| None::<Result<Rc<IndexView>, String>>);
    {
        let (session, view, mode) = (props.session.clone(), view.clone(), props.mode);
        let offers = props.pools.machines.clone();
        let key = offers
            .as_ref()
            .map(|o| crate::state::app_state::SharedText(o.text.clone()));
        use_effect_with((key, mode), move |_| {
            view.set(None);
            if let Some(o) = offers {
                session.request(
                    &[(o.index, o.text.clone())],
                    move |ids| PoolRequest::GangIndex {
                        offers: ids[0].clone(),
                        context: EvalOptions::in_mode(mode),
                    },
                    None,
                    move |r: Result<IndexView, String>| match r {
                        Err(e) if e == CANCELLED => {}
                        r => view.set(Some(r.map(Rc::new))),
                    },
                );
            }
        });
    }
    let v = match &*view {
        None => return html! { <p class="muted">{ "Reading the offers' constraints…" }</p> },
        Some(Err(e)) => {
            return html! { <p class="status v-error">{ format!("The index could not be shown: {e}") }</p> }
        }
        Some(Ok(v)) => v.clone(),
    };
    let ports = v.ports.iter().map(|p| {
        html! {
            <tr>
                <td><code>{ p.offer.clone() }</code></td>
                <td><code>{ p.port.clone() }</code></td>
                <td>{ for p.rectangles.iter().map(|r| html! { <div><code>{ r.clone() }</code></div> }) }</td>
                <td>{ for p.conflicts.iter().map(|c| html! { <div class="v-error" title="These properties of one profile can never hold together">{ format!("conflict: {c}") }</div> }) }</td>
            </tr>
        }
    });
    let dims = v.dimensions.iter().map(|d| {
        let more = d.intervals.len().saturating_sub(SHOWN);
        html! {
            <details class="index-dim">
                <summary><code>{ d.attribute.clone() }</code>{ format!(" — {} interval{}", thousands(d.intervals.len() as u64), if d.intervals.len() == 1 { "" } else { "s" }) }</summary>
                <ul>
                    { for d.intervals.iter().take(SHOWN).map(|(i, offer, port)| html! { <li><code>{ i.clone() }</code>{ format!(" — {offer}.{port}") }</li> }) }
                    if more > 0 { <li class="muted">{ format!("… and {} more", thousands(more as u64)) }</li> }
                </ul>
            </details>
        }
    });
    html! {
        <section class="gang-index" aria-label="The index">
            <p class="muted">{ "An offer port's constraint, specialized against its own ad, becomes one rectangle per profile of its disjunctive form: the values it admits for each attribute of the ad docked there. A probe keeps the offers whose rectangles admit the request's values and whose values lie in the request's window: a superset of the compatible ones, which evaluation then confirms." }</p>
            if v.total_ports > v.ports.len() {
                <p class="muted">{ format!("The first {} of {} offer ports.", thousands(v.ports.len() as u64), thousands(v.total_ports as u64)) }</p>
            }
            <h3>{ "Dimensions" }</h3>
            <div class="index-dims">{ for dims }</div>
            <h3>{ "Offer ports" }</h3>
            <div class="table-wrap">
                <table class="cycle" id="gang-index-table">
                    <thead><tr><th>{ "Offer" }</th><th>{ "Port" }</th><th>{ "Rectangles (exported intervals)" }</th><th>{ "Conflicts" }</th></tr></thead>
                    <tbody>{ for ports }</tbody>
                </table>
            </div>
        </section>
    }
}
