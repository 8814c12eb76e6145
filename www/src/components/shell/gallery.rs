//! The examples gallery view: one card per example, with what it shows,
//! the expression it opens with and what that gives.

use yew::prelude::*;

use crate::state::app_state::View;
use crate::state::examples::examples;

/// What a matchmaking example opens, in words.
fn view_name(v: View) -> Option<&'static str> {
    match v {
        View::Matrix => Some("match matrix"),
        View::Negotiation => Some("negotiation cycle"),
        View::Clusters => Some("auto-clusters"),
        View::Analyze => Some("analyzer (why doesn't it match?)"),
        View::Gangs => Some("gangmatching"),
        View::Query => Some("pool query (condor_status -constraint)"),
        View::Evaluate | View::Examples => None,
    }
}

#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    /// Open the example of this id (the app keeps the previous work aside).
    pub on_open: Callback<String>,
}

#[component]
pub fn Gallery(props: &GalleryProps) -> Html {
    html! {
        <main class="gallery">
            <h2>{ "Examples" }</h2>
            <p>{ "Every ClassAd figure of Raman's thesis, the policy analyzer paper, the Condor manual and the Condor-G paper, and a modern HTCondor pool. Each opens in the workbench with its ads chosen, the matchmaking ones in their own view; link to one with " }<code>{ "#example=<id>" }</code>{ "." }</p>
            <ul class="cards">
                { for examples().iter().map(|ex| {
                    let on_open = props.on_open.clone();
                    let open = Callback::from(move |_| on_open.emit(ex.id.clone()));
                    let first_line = ex.expr.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
                    let shown = if ex.expr.trim().lines().count() > 1 { format!("{first_line} …") } else { first_line.to_string() };
                    html! {
                        <li class="card" id={format!("ex-{}", ex.id)}>
                            <h3>{ ex.title.as_str() }</h3>
                            <p class="source">{ ex.source.as_str() }</p>
                            <p>{ ex.claim.as_str() }</p>
                            if let Some(view) = view_name(ex.view) {
                                <p class="ex-view">{ format!("Opens the {view}") }</p>
                            } else {
                                <p class="ex-expr">
                                    <code>{ shown }</code>
                                    if let Some(v) = &ex.expect { <span class="muted">{ " → " }</span><code>{ v.as_str() }</code> }
                                </p>
                            }
                            <div class="card-actions">
                                <button onclick={open} aria-label={format!("Open example: {}", ex.title)}>{ "Open" }</button>
                                <a href={format!("#example={}", ex.id)} class="deep-link">{ format!("#example={}", ex.id) }</a>
                            </div>
                        </li>
                    }
                }) }
            </ul>
        </main>
    }
}
