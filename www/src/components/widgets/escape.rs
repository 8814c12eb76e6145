//! Escape closes what is open, one thing per press, the topmost first:
//! the header's menus and its share message (`use_escape_first`), then
//! the page's messages, the introduction and the classroom (`use_escape`).
//! `close_menus` also closes the menus once a choice is made.

use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// An Escape keypress not handled yet (a handler marks it handled).
fn unhandled_escape(e: &Event) -> Option<&web_sys::KeyboardEvent> {
    e.dyn_ref::<web_sys::KeyboardEvent>()
        .filter(|k| k.key() == "Escape" && !k.default_prevented())
}

/// Listen to keydown on the document (`capture`: before the others).
fn listen(capture: bool, f: impl FnMut(&Event) + 'static) -> Option<EventListener> {
    let doc = web_sys::window()?.document()?;
    let phase = if capture {
        EventListenerPhase::Capture
    } else {
        EventListenerPhase::Bubble
    };
    let options = EventListenerOptions {
        phase,
        passive: false,
    };
    Some(EventListener::new_with_options(&doc, "keydown", options, f))
}

/// Call `on_escape` when Escape is pressed anywhere in the page, while
/// `active` and unless something above took the keypress.
#[hook]
pub fn use_escape(active: bool, on_escape: Callback<()>) {
    use_effect_with(active, move |active| {
        let listener = active
            .then(|| {
                listen(false, move |e| {
                    if let Some(k) = unhandled_escape(e) {
                        k.prevent_default();
                        on_escape.emit(());
                    }
                })
            })
            .flatten();
        move || drop(listener)
    });
}

/// Offer Escape to `on_escape` before every [`use_escape`] panel; it
/// answers whether it closed something (then the keypress is used).
#[hook]
pub fn use_escape_first(on_escape: Callback<(), bool>) {
    let latest = use_mut_ref(|| on_escape.clone());
    *latest.borrow_mut() = on_escape;
    use_effect_with((), move |_| {
        let listener = listen(true, move |e| {
            if let Some(k) = unhandled_escape(e) {
                if latest.borrow().emit(()) {
                    k.prevent_default();
                }
            }
        });
        move || drop(listener)
    });
}

/// The header's menus (`<details class="menu">`), by id.
const MENUS: [&str; 2] = ["share-menu", "file-menu"];

/// Close the header's menus; whether one was open.
pub fn close_menus() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let mut closed = false;
    for id in MENUS {
        if let Some(d) = doc
            .get_element_by_id(id)
            .filter(|d| d.has_attribute("open"))
        {
            let _ = d.remove_attribute("open");
            closed = true;
        }
    }
    closed
}
