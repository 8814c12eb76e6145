//! The second page module (see `views/`): the views but the workbench and
//! the gallery, loaded by the page when first wanted. Its exports are
//! defined here, in the binary, so that the page's module (which links the
//! same library) does not export, and so link, the views too.

use wasm_bindgen::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
}

/// Mount the views into `host`; their actions go to `on_action` (JSON).
#[wasm_bindgen]
pub fn mount(host: web_sys::Element, on_action: js_sys::Function) {
    classad_playground::views::root::mount(host, on_action);
}

/// The pools (JSON), used by the states that follow.
#[wasm_bindgen]
pub fn set_pools(json: JsValue) -> Result<(), JsValue> {
    // Megabytes: taken over natively (see js_text).
    let json = classad_playground::js_text::string_of(&json).unwrap_or_default();
    classad_playground::views::root::set_pools(&json).map_err(|e| JsValue::from_str(&e))
}

/// The state without its pools (JSON): the views show it.
#[wasm_bindgen]
pub fn set_state(json: &str) -> Result<(), JsValue> {
    classad_playground::views::root::set_state(json).map_err(|e| JsValue::from_str(&e))
}
