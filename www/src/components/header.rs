//! The header: views, mode, theme, share link.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::Action;
use crate::share::{self, LINK_WARN_BYTES};
use crate::state::{AppState, View};

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
}

fn set_theme(dark: Option<bool>) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        match dark {
            Some(true) => {
                let _ = root.set_attribute("data-theme", "dark");
            }
            Some(false) => {
                let _ = root.set_attribute("data-theme", "light");
            }
            None => {
                let _ = root.remove_attribute("data-theme");
            }
        }
    }
}

fn page_url_without_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or("").to_string())
        .unwrap_or_default()
}

/// Offer `text` as a file download.
pub fn download(name: &str, text: &str, mime: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if let Ok(a) = doc.create_element("a") {
            let a: web_sys::HtmlAnchorElement = a.unchecked_into();
            a.set_href(&url);
            a.set_download(name);
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let s = &props.state;
    let dark = use_state(|| None::<bool>);
    let share_msg = use_state(|| None::<String>);
    let link = use_state(String::new);

    let on_view = |v: View| {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::SetView(v)))
    };
    let on_mode = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            d.emit(Action::SetMode(v.parse().unwrap_or_default()));
        })
    };
    let on_theme = {
        let dark = dark.clone();
        Callback::from(move |_| {
            let next = match *dark {
                None => Some(true),
                Some(true) => Some(false),
                Some(false) => None,
            };
            set_theme(next);
            dark.set(next);
        })
    };
    let on_share = {
        let state = s.clone();
        let share_msg = share_msg.clone();
        let link = link.clone();
        Callback::from(move |_| {
            let url = format!("{}#{}", page_url_without_hash(), share::encode(&state));
            if url.len() > LINK_WARN_BYTES {
                share_msg.set(Some(format!(
                    "This link is {} KB — longer than about 8 KB, it may be cut off by chat tools and browsers. Download a state file instead, or copy it anyway.",
                    url.len() / 1024
                )));
            } else {
                share_msg.set(Some("Link copied to the clipboard.".into()));
            }
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&url);
            }
            link.set(url);
        })
    };
    let on_download_state = {
        let state = s.clone();
        Callback::from(move |_| {
            let text = serde_json::to_string_pretty(&*state).unwrap_or_default();
            download("classad-playground-state.json", &text, "application/json");
        })
    };
    let theme_label = match *dark {
        None => "Theme: system",
        Some(true) => "Theme: dark",
        Some(false) => "Theme: light",
    };
    let tab = |v: View, label: &'static str| {
        let current = s.view == v;
        html! {
            <button class={classes!("tab", current.then_some("active"))} aria-pressed={current.to_string()} onclick={on_view(v)}>{ label }</button>
        }
    };
    html! {
        <header class="top">
            <h1>{ "ClassAd Playground" }</h1>
            <nav aria-label="Views">
                { tab(View::Evaluate, "Workbench") }
                { tab(View::Examples, "Examples") }
            </nav>
            <label class="mode">
                { "Mode " }
                <select onchange={on_mode} aria-label="Evaluation mode">
                    <option value="htcondor" selected={s.mode == classad::Mode::HTCondor}>{ "htcondor" }</option>
                    <option value="strict" selected={s.mode == classad::Mode::Strict}>{ "strict" }</option>
                </select>
            </label>
            <button onclick={on_theme}>{ theme_label }</button>
            <button id="share" onclick={on_share}>{ "Copy share link" }</button>
            if let Some(msg) = (*share_msg).clone() {
                <div class="share-msg" role="status">
                    <span>{ msg }</span>
                    <input class="share-link" readonly=true value={(*link).clone()} aria-label="Share link" />
                    <button onclick={on_download_state}>{ "Download state file" }</button>
                </div>
            }
        </header>
    }
}
