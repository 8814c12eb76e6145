//! The bar over a view embedded in another page (`&embed=1`): what it is,
//! and the way to the playground itself (in a tab of its own, where the
//! reader's own work lives).

use yew::prelude::*;

use crate::state::app_state::View;

#[derive(Properties, PartialEq)]
pub struct EmbedBarProps {
    pub view: View,
}

/// The address this embedded view was opened with, without `embed=1`.
fn playground_link() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let (page, fragment) = href.split_once('#').unwrap_or((&href, ""));
    let kept: Vec<&str> = fragment
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("embed="))
        .collect();
    format!("{page}#{}", kept.join("&"))
}

#[component]
pub fn EmbedBar(props: &EmbedBarProps) -> Html {
    // The address at the start: the embedded page leaves it as it came.
    let link = use_memo((), |_| playground_link());
    html! {
        <header class="top embed-bar">
            <strong>{ "ClassAd Playground" }</strong>
            <span class="muted">{ format!("the {} view \u{2014} a copy: nothing done here is kept", crate::state::share::view_name(props.view)) }</span>
            <span class="spacer"></span>
            <a href={(*link).clone()} target="_blank" rel="noopener">{ "Open in the playground \u{2197}" }</a>
        </header>
    }
}
