//! What the page keeps in localStorage besides the autosave (`autosave`):
//! work set aside when a link, example or state file replaced it, the theme,
//! the introduction seen.

use gloo_storage::{LocalStorage, Storage};

use crate::state::app_state::AppState;

const THEME_KEY: &str = "classad-playground/theme";

/// Browsers keep about 5 MB (UTF-16) per origin; a state far beyond that
/// is not even tried, so saving never stalls the page for nothing.
pub(crate) const HOPELESS_CHARS: usize = 12 * 1024 * 1024;

/// The raw store, for the plain-text keys (theme, intro); `None` when the
/// browser keeps nothing for the page.
pub(crate) fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

thread_local! {
    static EMBEDDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The page is a view embedded in another page (`&embed=1`): it reads and
/// writes nothing of the user's own work here (the browser shares this
/// storage between the embedded view and the user's playground).
pub fn set_embedded() {
    EMBEDDED.with(|e| e.set(true));
}

pub fn embedded() -> bool {
    EMBEDDED.with(|e| e.get())
}

/// Total size of the pools' text, in bytes.
pub fn state_bytes(state: &AppState) -> usize {
    state.pools.iter().map(|p| p.text.len()).sum::<usize>() + state.expr.len()
}

const INTRO_KEY: &str = "classad-playground/intro-seen";

/// Whether the first-visit introduction was dismissed (kept once and for
/// all; a browser that keeps nothing shows it every time).
pub fn intro_seen() -> bool {
    local()
        .and_then(|s| s.get_item(INTRO_KEY).ok().flatten())
        .is_some()
}

pub fn set_intro_seen() {
    if let Some(s) = local() {
        let _ = s.set_item(INTRO_KEY, "1");
    }
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

/// Where the one set-aside state lived before there was a history (read
/// once, moved into the history).
const OLD_BACKUP_KEY: &str = "classad-playground/before-open/v1";
const ASIDE_KEY: &str = "classad-playground/set-aside/v2";
/// Set-aside states kept, newest first.
pub const ASIDE_MAX: usize = 5;

/// Work an opened link, example or state file replaced.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SetAside {
    /// When it was set aside (ms since the epoch).
    pub at: f64,
    pub state: AppState,
}

impl SetAside {
    /// A line saying what it holds: its pools and expression.
    pub fn about(&self) -> String {
        let names: Vec<&str> = self.state.pools.iter().map(|p| p.name.as_str()).collect();
        let mut expr: String = self.state.expr.chars().take(48).collect();
        if self.state.expr.chars().count() > 48 {
            expr.push('…');
        }
        format!(
            "{} ({}) · {}",
            if names.len() == 1 {
                "1 pool".to_string()
            } else {
                format!("{} pools", names.len())
            },
            names.join(", "),
            if expr.is_empty() {
                "no expression".to_string()
            } else {
                expr
            },
        )
    }
}

fn write_aside(list: &[SetAside]) -> bool {
    LocalStorage::set(ASIDE_KEY, list).is_ok()
}

/// The set-aside states, newest first (a state from before the history
/// existed is moved in).
pub fn set_aside_list() -> Vec<SetAside> {
    let mut list: Vec<SetAside> = LocalStorage::get(ASIDE_KEY).unwrap_or_default();
    if let Ok(state) = LocalStorage::get::<AppState>(OLD_BACKUP_KEY) {
        list.push(SetAside { at: 0.0, state });
        list.truncate(ASIDE_MAX);
        if write_aside(&list) {
            LocalStorage::delete(OLD_BACKUP_KEY);
        }
    }
    for a in &mut list {
        a.state.normalize();
    }
    list
}

/// Keep the work that an opened link, example or state file replaced, so
/// it can be brought back, even after a reload: the newest of up to
/// [`ASIDE_MAX`]; the oldest goes first, and then any that do not fit.
/// Returns false if it could not be kept.
pub fn set_aside(state: &AppState) -> bool {
    if embedded() || state_bytes(state) > HOPELESS_CHARS {
        return false;
    }
    let mut list = set_aside_list();
    list.retain(|a| a.state.pools != state.pools || a.state.expr != state.expr);
    list.insert(
        0,
        SetAside {
            at: js_sys::Date::now(),
            state: state.clone(),
        },
    );
    list.truncate(ASIDE_MAX);
    while !list.is_empty() {
        if write_aside(&list) {
            return true;
        }
        // Over the storage quota: drop the oldest and try again.
        if list.len() == 1 {
            break;
        }
        list.pop();
    }
    false
}

/// Take set-aside state `i` out of the history.
pub fn take_set_aside(i: usize) -> Option<AppState> {
    let mut list = set_aside_list();
    if i >= list.len() {
        return None;
    }
    let a = list.remove(i);
    write_aside(&list);
    Some(a.state)
}

/// Forget set-aside state `i`.
pub fn forget_set_aside(i: usize) {
    let _ = take_set_aside(i);
}
