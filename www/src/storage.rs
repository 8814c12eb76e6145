//! Autosave: the state in localStorage, so a reload (or a bad share link)
//! never loses work. Also the theme choice.

use crate::state::AppState;

const KEY: &str = "classad-playground/autosave/v1";
const THEME_KEY: &str = "classad-playground/theme";

/// Browsers keep about 5 MB (UTF-16) per origin; a state far beyond that
/// is not even tried, so saving never stalls the page for nothing.
const HOPELESS_CHARS: usize = 12 * 1024 * 1024;

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

pub fn load() -> Option<AppState> {
    let text = local()?.get_item(KEY).ok()??;
    let mut s: AppState = serde_json::from_str(&text).ok()?;
    s.normalize();
    Some(s)
}

/// Total size of the pools' text, in bytes.
pub fn state_bytes(state: &AppState) -> usize {
    state.pools.iter().map(|p| p.text.len()).sum::<usize>() + state.expr.len()
}

/// Save. On failure (quota, private mode) the previous autosave is left
/// as it was and the reason comes back for the user.
pub fn save(state: &AppState) -> Result<(), String> {
    let Some(store) = local() else {
        return Err("this browser does not let the page keep data (private mode?)".into());
    };
    let bytes = state_bytes(state);
    if bytes > HOPELESS_CHARS {
        return Err(format!(
            "the pools hold {:.1} MB, more than the browser keeps for a page (about 5 MB)",
            bytes as f64 / 1048576.0
        ));
    }
    let text = serde_json::to_string(state).map_err(|e| e.to_string())?;
    store.set_item(KEY, &text).map_err(|_| {
        format!(
            "the browser refused to keep {:.1} MB (its storage for this page is full)",
            text.len() as f64 / 1048576.0
        )
    })
}

/// The theme override: `Some(true)` dark, `Some(false)` light, `None` system.
pub fn load_theme() -> Option<bool> {
    match local()?.get_item(THEME_KEY).ok()??.as_str() {
        "dark" => Some(true),
        "light" => Some(false),
        _ => None,
    }
}

pub fn save_theme(dark: Option<bool>) {
    if let Some(store) = local() {
        let _ = match dark {
            Some(true) => store.set_item(THEME_KEY, "dark"),
            Some(false) => store.set_item(THEME_KEY, "light"),
            None => store.remove_item(THEME_KEY),
        };
    }
}

const BACKUP_KEY: &str = "classad-playground/before-open/v1";

/// Keep the work that an opened link, example or state file replaced, so
/// it can be brought back. Returns false if it could not be kept.
pub fn save_backup(state: &AppState) -> bool {
    let Some(store) = local() else { return false };
    if state_bytes(state) > HOPELESS_CHARS {
        return false;
    }
    match serde_json::to_string(state) {
        Ok(t) => store.set_item(BACKUP_KEY, &t).is_ok(),
        Err(_) => false,
    }
}

pub fn load_backup() -> Option<AppState> {
    let text = local()?.get_item(BACKUP_KEY).ok()??;
    let mut s: AppState = serde_json::from_str(&text).ok()?;
    s.normalize();
    Some(s)
}
