//! The examples gallery view.

use yew::prelude::*;

use crate::app::Action;
use crate::examples::EXAMPLES;

#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Gallery(props: &GalleryProps) -> Html {
    html! {
        <main class="gallery">
            <h2>{ "Examples" }</h2>
            <p>{ "Every ClassAd figure of the seed papers, and a modern pool. Each opens in the workbench; link to one with " }<code>{ "#example=<id>" }</code>{ "." }</p>
            <ul class="cards">
                { for EXAMPLES.iter().map(|ex| {
                    let d = props.dispatch.clone();
                    let open = Callback::from(move |_| d.emit(Action::Replace(ex.state())));
                    html! {
                        <li class="card" id={format!("ex-{}", ex.id)}>
                            <h3>{ ex.title }</h3>
                            <p class="source">{ ex.source }</p>
                            <p>{ ex.claim }</p>
                            <button onclick={open} aria-label={format!("Open example: {}", ex.title)}>{ "Open" }</button>
                            <a href={format!("#example={}", ex.id)} class="deep-link">{ format!("#example={}", ex.id) }</a>
                        </li>
                    }
                }) }
            </ul>
        </main>
    }
}
