//! Autosave: the state in localStorage, so a reload (or a bad share link)
//! never loses work. Also the theme choice.

use gloo_storage::errors::StorageError;
use gloo_storage::{LocalStorage, Storage};

use crate::state::app_state::AppState;

const KEY: &str = "classad-playground/autosave/v1";
const THEME_KEY: &str = "classad-playground/theme";

/// Browsers keep about 5 MB (UTF-16) per origin; a state far beyond that
/// is not even tried, so saving never stalls the page for nothing.
const HOPELESS_CHARS: usize = 12 * 1024 * 1024;

/// The raw store, for the plain-text keys (theme, intro); `None` when the
/// browser keeps nothing for the page.
fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// An expression longer than this is not autosaved (the rest still is).
const MAX_SAVED_EXPR_BYTES: usize = 1 << 20;

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

pub fn load() -> Option<AppState> {
    if embedded() {
        return None;
    }
    let mut s: AppState = LocalStorage::get(KEY).ok()?;
    s.normalize();
    Some(s)
}

/// Total size of the pools' text, in bytes.
pub fn state_bytes(state: &AppState) -> usize {
    state.pools.iter().map(|p| p.text.len()).sum::<usize>() + state.expr.len()
}

thread_local! {
    /// Pool texts left out of an autosave as too big, so the next save (a
    /// click later) leaves them out at once instead of serializing
    /// megabytes to be refused again.
    static TOO_BIG: std::cell::RefCell<Vec<std::rc::Rc<str>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Save. `Ok(None)`: all kept; `Ok(Some(sentence))`: kept but for the
/// biggest pools, which were too big (the sentence names them); `Err`:
/// nothing kept (quota, private mode), the previous autosave left as it
/// was. Left-out pools are named in the saved state, so a reload says
/// which to upload again.
pub fn save(state: &AppState) -> Result<Option<String>, String> {
    if embedded() {
        return Ok(None);
    }
    if local().is_none() {
        return Err("Not autosaved: this browser does not let the page keep data (private mode?). Your work stays in this tab; download a state file to keep it.".into());
    }
    let known: Vec<std::rc::Rc<str>> = TOO_BIG.with(|t| t.borrow().clone());
    let mut reduced = state.clone();
    // A pasted expression of megabytes is left out, not the pools with it.
    let expr_note = (reduced.expr.len() > MAX_SAVED_EXPR_BYTES).then(|| {
        let n = std::mem::take(&mut reduced.expr).len();
        format!(
            "the expression ({}) is left out",
            crate::components::widgets::numbers::megabytes(n)
        )
    });
    let mut why = String::from("too big for the browser to keep");
    for pool in reduced.pools.iter_mut() {
        if known.iter().any(|k| std::rc::Rc::ptr_eq(k, &pool.text)) {
            reduced
                .not_kept
                .push((pool.name.clone(), pool.text.len() as u64));
            pool.text = std::rc::Rc::from("");
        }
    }
    // Then the biggest pools, largest first, until the rest fits.
    let mut biggest: Vec<usize> = (0..reduced.pools.len())
        .filter(|&i| !reduced.pools[i].text.is_empty())
        .collect();
    biggest.sort_by_key(|&i| std::cmp::Reverse(reduced.pools[i].text.len()));
    let mut next = biggest.into_iter();
    loop {
        match save_whole(&reduced) {
            Ok(()) if reduced.not_kept.is_empty() => {
                return Ok(expr_note.map(|w| {
                    format!("Partly autosaved: {w} (too big for the browser to keep). Everything else is kept; download a state file to keep it all.")
                }))
            }
            Ok(()) => {
                let left_out: Vec<std::rc::Rc<str>> = state
                    .pools
                    .iter()
                    .zip(&reduced.pools)
                    .filter(|(p, r)| r.text.is_empty() && !p.text.is_empty())
                    .map(|(p, _)| p.text.clone())
                    .collect();
                TOO_BIG.with(|t| *t.borrow_mut() = left_out);
                let mut words = not_kept_words(&reduced.not_kept);
                if let Some(w) = &expr_note {
                    words = format!("{words}, and {w}");
                }
                return Ok(Some(format!(
                    "Partly autosaved: {words} ({why}). Everything else is kept, and after a reload the page names what to upload again; download a state file to keep it all."
                )));
            }
            Err(e) => {
                if reduced.not_kept.is_empty() {
                    why = e.clone();
                }
                let Some(i) = next.next() else {
                    return Err(format!("Not autosaved: {e}. Your work stays in this tab; download a state file to keep it."));
                };
                let pool = &mut reduced.pools[i];
                reduced
                    .not_kept
                    .push((pool.name.clone(), pool.text.len() as u64));
                pool.text = std::rc::Rc::from("");
            }
        }
    }
}

/// `the pool "big" (13.0 MB)`, `the pools "a" (…) and "b" (…)`.
pub fn not_kept_words(pools: &[(String, u64)]) -> String {
    let each: Vec<String> = pools
        .iter()
        .map(|(name, bytes)| {
            format!(
                "\u{201c}{name}\u{201d} ({})",
                crate::components::widgets::numbers::megabytes(*bytes as usize)
            )
        })
        .collect();
    match each.as_slice() {
        [one] => format!("the pool {one} is left out"),
        [init @ .., last] => format!("the pools {} and {last} are left out", init.join(", ")),
        [] => String::new(),
    }
}

fn save_whole(state: &AppState) -> Result<(), String> {
    let bytes = state_bytes(state);
    // JSON writes a control character as `\u00XX`: 3 MB of NUL bytes are
    // 18 MB of JSON, whose writing alone held the page for 100 ms.
    let json_chars = || {
        let controls: usize = state
            .pools
            .iter()
            .map(|p| p.text.bytes().filter(|&b| b < 0x20 && b != b'\n').count())
            .sum();
        bytes + 5 * controls
    };
    if bytes > HOPELESS_CHARS {
        return Err(format!(
            "the pools hold {}, more than the browser keeps for a page (about 5 MB)",
            crate::components::widgets::numbers::megabytes(bytes)
        ));
    }
    let chars = json_chars();
    if chars > HOPELESS_CHARS {
        return Err(format!(
            "the pools hold {}, {} once written out (control characters take six each), more than the browser keeps for a page (about 5 MB)",
            crate::components::widgets::numbers::megabytes(bytes),
            crate::components::widgets::numbers::megabytes(chars)
        ));
    }
    LocalStorage::set(KEY, state).map_err(|e| match e {
        StorageError::SerdeError(e) => e.to_string(),
        _ => format!(
            "the browser refused to keep {} (its storage for this page is full)",
            crate::components::widgets::numbers::megabytes(bytes)
        ),
    })
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
