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

/// A part of pool `index` of `count` (its name, a part of its text as
/// UTF-8 bytes cut at a character boundary, the text's whole length in
/// bytes, whether it is the first and the last part).
#[wasm_bindgen]
pub fn set_pool_part(
    index: u32,
    count: u32,
    name: String,
    part: JsValue,
    total: f64,
    first: bool,
    last: bool,
) {
    classad_playground::views::root::set_pool_part(
        index as usize,
        count as usize,
        name,
        part,
        total as usize,
        first,
        last,
    );
}

/// The state without its pools (JSON): the views show it.
#[wasm_bindgen]
pub fn set_state(json: &str) -> Result<(), JsValue> {
    classad_playground::views::root::set_state(json).map_err(|e| JsValue::from_str(&e))
}
