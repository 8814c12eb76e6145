//! Autosave: the state in localStorage, so a reload (or a bad share link)
//! never loses work.

use crate::state::AppState;

const KEY: &str = "classad-playground/autosave/v1";

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

pub fn load() -> Option<AppState> {
    let text = local()?.get_item(KEY).ok()??;
    let mut s: AppState = serde_json::from_str(&text).ok()?;
    s.normalize();
    Some(s)
}

/// Save; returns false when the browser refused (quota, private mode).
pub fn save(state: &AppState) -> bool {
    let Some(store) = local() else {
        return false;
    };
    match serde_json::to_string(state) {
        Ok(text) => store.set_item(KEY, &text).is_ok(),
        Err(_) => false,
    }
}
