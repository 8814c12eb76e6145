//! Keyboard focus after an action removes or disables the control that had
//! it (a closed panel, the last step's Next): without a new home the
//! browser drops focus to `<body>` and a keyboard user starts over.

/// Focus the element with `id` once the page has re-rendered (a zero-delay
/// timer runs after Yew's render, which is a microtask). Nothing happens
/// when it is missing or disabled.
pub fn focus_after_render(id: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id))
        else {
            return;
        };
        if el.has_attribute("disabled") {
            return;
        }
        if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// Move the keyboard to the view (the page's `<main>`): the skip link.
pub fn focus_view() {
    let main = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("main").ok().flatten());
    if let Some(el) =
        main.and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok())
    {
        // Focusable by script only: Tab still goes to the view's controls.
        let _ = el.set_attribute("tabindex", "-1");
        let _ = el.focus();
    }
}
