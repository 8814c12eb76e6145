//! Work set aside when a link, an example or a state file was opened: a
//! small history (newest first) that survives reloads, each entry with
//! when, what it held, Bring back and Forget.

use yew::prelude::*;

use crate::state::storage::SetAside;

#[derive(Properties, PartialEq)]
pub struct SetAsideProps {
    pub list: Vec<SetAside>,
    pub on_bring_back: Callback<usize>,
    pub on_forget: Callback<usize>,
}

fn when(at: f64) -> String {
    if at <= 0.0 {
        return "earlier".into();
    }
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at));
    String::from(d.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}

#[component]
pub fn SetAsideList(props: &SetAsideProps) -> Html {
    let items = props.list.iter().enumerate().map(|(i, a)| {
        let bring = {
            let c = props.on_bring_back.clone();
            Callback::from(move |_| c.emit(i))
        };
        let forget = {
            let c = props.on_forget.clone();
            Callback::from(move |_| c.emit(i))
        };
        html! {
            <li>
                <span class="muted">{ when(a.at) }</span>{ " — " }<span>{ a.about() }</span>{ " " }
                <button onclick={bring} title="Open it again; what is open now is set aside in its place">{ "Bring back" }</button>
                <button onclick={forget} aria-label={format!("Forget the work set aside {}", when(a.at))}>{ "Forget" }</button>
            </li>
        }
    });
    html! {
        <details class="set-aside" id="set-aside">
            <summary>{ format!("Set aside ({})", props.list.len()) }</summary>
            <p class="muted">{ "Work that an opened link, example or state file replaced, newest first (the last five)." }</p>
            <ul>{ for items }</ul>
        </details>
    }
}
