//! A one-shot browser timeout that is cleared when dropped, for debouncing
//! (typing into a big pool, autosave, starting a worker parse).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

pub struct Timeout {
    id: i32,
    // Kept alive until the timeout fires or is cleared.
    _f: Closure<dyn FnMut()>,
}

impl Timeout {
    pub fn new(ms: i32, f: impl FnOnce() + 'static) -> Option<Timeout> {
        let mut f = Some(f);
        let cb = Closure::<dyn FnMut()>::new(move || {
            if let Some(f) = f.take() {
                f()
            }
        });
        let id = web_sys::window()?
            .set_timeout_with_callback_and_timeout_and_arguments_0(cb.as_ref().unchecked_ref(), ms)
            .ok()?;
        Some(Timeout { id, _f: cb })
    }
}

impl Drop for Timeout {
    fn drop(&mut self) {
        if let Some(w) = web_sys::window() {
            w.clear_timeout_with_handle(self.id);
        }
    }
}

/// Milliseconds since the page loaded.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
