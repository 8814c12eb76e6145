//! Escape and the header's menus: `use_escape` lets a panel (the
//! classroom) close on Escape while it is shown; `close_menus` closes the
//! header's menus once a choice is made.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Call `on_escape` when Escape is pressed anywhere in the page, while
/// `active`.
#[hook]
pub fn use_escape(active: bool, on_escape: Callback<()>) {
    use_effect_with(active, move |active| {
        let listener = active
            .then(web_sys::window)
            .flatten()
            .and_then(|w| w.document())
            .map(|doc| {
                EventListener::new(&doc, "keydown", move |e| {
                    let escape = e
                        .dyn_ref::<web_sys::KeyboardEvent>()
                        .is_some_and(|k| k.key() == "Escape");
                    if escape {
                        on_escape.emit(());
                    }
                })
            });
        move || drop(listener)
    });
}

/// The header's menus (`<details class="menu">`), by id.
const MENUS: [&str; 2] = ["share-menu", "file-menu"];

/// Close the header's menus.
pub fn close_menus() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for id in MENUS {
        if let Some(d) = doc.get_element_by_id(id) {
            let _ = d.remove_attribute("open");
        }
    }
}
