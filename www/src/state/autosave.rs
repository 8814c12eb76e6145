//! Autosave: the state in localStorage, so a reload (or a bad share link)
//! never loses work.
//!
//! A pool's text of [`APART_FROM`] bytes or more is kept under a key of its
//! own, as it is (not escaped into JSON), written once: a later save, after
//! an edit elsewhere, writes only the rest. Each such text is written in a
//! task of its own, the rest (the head) last: a 4 MB pool saved with the
//! rest as one string held the page 42-57 ms (serializing 10 ms, the
//! browser's `setItem` 20 ms), at every save. A text is written before
//! the head that names it, and a text no head names is removed once the
//! next head is written, so a tab closed between the steps leaves the last
//! whole save.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::components::widgets::numbers::megabytes;
use crate::state::app_state::AppState;
use crate::state::storage::{embedded, local, state_bytes, HOPELESS_CHARS};

/// The head: the state's JSON, with the texts kept apart left out and
/// named in its `apart_texts` (a save from before texts were kept apart is
/// a head with none).
const KEY: &str = "classad-playground/autosave/v1";
/// A pool's text kept apart: this prefix and a name unique to the save.
const TEXT_PREFIX: &str = "classad-playground/autosave/text/";

/// Pool texts at least this long are kept under a key of their own.
const APART_FROM: usize = 64 * 1024;

/// An expression longer than this is not autosaved (the rest still is).
const MAX_SAVED_EXPR_BYTES: usize = 1 << 20;

/// A pool whose text is under a key of its own (as the head's
/// `apart_texts` names it: pool, key, bytes).
#[derive(Clone)]
struct Apart {
    pool: usize,
    key: String,
    bytes: u64,
}

thread_local! {
    /// Texts this tab knows are kept, and under which key (written by a
    /// save, or read at start-up): a save finds an unchanged pool here and
    /// does not write it again. Only the last head's texts are kept here.
    static KEPT: RefCell<Vec<(Rc<str>, String)>> = const { RefCell::new(Vec::new()) };
    /// Pool texts left out of an autosave as too big, so the next save (a
    /// click later) leaves them out at once instead of trying megabytes
    /// that will be refused again.
    static TOO_BIG: RefCell<Vec<Rc<str>>> = const { RefCell::new(Vec::new()) };
    /// The latest save: the steps of an older one stop.
    static LATEST: Cell<u64> = const { Cell::new(0) };
    /// Makes each text key unique within the tab.
    static NEXT_KEY: Cell<u64> = const { Cell::new(0) };
    /// The state of the save under way, for [`finish`].
    static UNDER_WAY: RefCell<Option<AppState>> = const { RefCell::new(None) };
}

/// The saved state, its texts kept apart read back. A text that is gone
/// (removed by hand, another tab's save) leaves its pool empty and named
/// in `not_kept`.
pub fn load() -> Option<AppState> {
    if embedded() {
        return None;
    }
    let store = local()?;
    let mut s: AppState = serde_json::from_str(&store.get_item(KEY).ok()??).ok()?;
    for (i, key, bytes) in std::mem::take(&mut s.apart_texts) {
        let Some(pool) = s.pools.get_mut(i) else {
            continue;
        };
        match store.get_item(&key) {
            Ok(Some(text)) => {
                let text: Rc<str> = Rc::from(text);
                KEPT.with(|k| k.borrow_mut().push((text.clone(), key)));
                pool.text = text;
            }
            _ => s.not_kept.push((pool.name.clone(), bytes)),
        }
    }
    s.normalize();
    Some(s)
}

/// What a save came to. `Ok(None)`: all kept; `Ok(Some(sentence))`: kept
/// but for the biggest pools or the expression, which were too big (the
/// sentence names them); `Err`: nothing kept (quota, private mode), the
/// previous autosave left as it was. Left-out pools are named in the saved
/// state, so a reload says which to upload again.
pub type Outcome = Result<Option<String>, String>;

/// Save `state`, a text kept apart per task; `done` gets the outcome, unless
/// a later save started first (this one then stops where it is).
pub fn save(state: &AppState, done: impl FnOnce(Outcome) + 'static) {
    match Saving::start(state) {
        Ok(saving) => {
            UNDER_WAY.with(|u| *u.borrow_mut() = Some(state.clone()));
            saving.step(Box::new(done))
        }
        Err(outcome) => done(outcome),
    }
}

/// The save under way, if any, done now, in this task (the page is being
/// hidden or closed: its next steps would never run).
pub fn finish() {
    if let Some(state) = UNDER_WAY.with(|u| u.borrow_mut().take()) {
        let _ = save_now(&state);
    }
}

/// Save `state` now, in this task (the page is being hidden or closed).
pub fn save_now(state: &AppState) -> Outcome {
    UNDER_WAY.with(|u| *u.borrow_mut() = None);
    let mut saving = match Saving::start(state) {
        Ok(saving) => saving,
        Err(outcome) => return outcome,
    };
    while let Some(pool) = saving.to_write.pop() {
        saving.write_text(pool);
    }
    saving.write_head()
}

/// A save under way.
struct Saving {
    id: u64,
    /// The state as it will be kept: texts too big to keep emptied, texts
    /// kept apart still in (the head leaves them out).
    state: AppState,
    expr_note: Option<String>,
    /// Pools whose text is still to be written, biggest first (taken from
    /// the end: the smaller ones first, so that when the browser's quota
    /// runs out, it is the biggest that are left out).
    to_write: Vec<usize>,
    apart: Vec<Apart>,
    /// The texts of the pools left out (the user's state still holds them).
    left_out: Vec<Rc<str>>,
    /// Why pools were left out, once one was.
    why: String,
}

impl Saving {
    /// The save's plan, or at once its outcome (nothing to do, nowhere to
    /// keep it).
    fn start(state: &AppState) -> Result<Saving, Outcome> {
        if embedded() {
            return Err(Ok(None));
        }
        if local().is_none() {
            return Err(Err("Not autosaved: this browser does not let the page keep data (private mode?). Your work stays in this tab; download a state file to keep it.".into()));
        }
        let id = LATEST.with(|l| l.get() + 1);
        LATEST.with(|l| l.set(id));
        let mut s = Saving {
            id,
            state: state.clone(),
            expr_note: None,
            to_write: vec![],
            apart: vec![],
            left_out: vec![],
            why: "too big for the browser to keep".into(),
        };
        // A pasted expression of megabytes is left out, not the pools with it.
        if s.state.expr.len() > MAX_SAVED_EXPR_BYTES {
            let n = std::mem::take(&mut s.state.expr).len();
            s.expr_note = Some(format!("the expression ({}) is left out", megabytes(n)));
        }
        let too_big: Vec<Rc<str>> = TOO_BIG.with(|t| t.borrow().clone());
        for i in 0..s.state.pools.len() {
            let text = s.state.pools[i].text.clone();
            if too_big.iter().any(|t| Rc::ptr_eq(t, &text)) || text.len() > HOPELESS_CHARS {
                s.leave_out(i);
            } else if text.len() >= APART_FROM {
                match KEPT.with(|k| {
                    k.borrow()
                        .iter()
                        .find(|(t, _)| Rc::ptr_eq(t, &text))
                        .map(|(_, key)| key.clone())
                }) {
                    Some(key) => s.apart.push(Apart {
                        pool: i,
                        key,
                        bytes: text.len() as u64,
                    }),
                    None => s.to_write.push(i),
                }
            }
        }
        let pools = &s.state.pools;
        s.to_write
            .sort_by_key(|&i| std::cmp::Reverse(pools[i].text.len()));
        Ok(s)
    }

    /// The next step in a task of its own: a text, or at the end the head.
    fn step(mut self, done: Box<dyn FnOnce(Outcome)>) {
        if LATEST.with(|l| l.get()) != self.id {
            return;
        }
        match self.to_write.pop() {
            None => {
                UNDER_WAY.with(|u| *u.borrow_mut() = None);
                done(self.write_head())
            }
            Some(pool) => {
                self.write_text(pool);
                gloo_timers::callback::Timeout::new(0, move || self.step(done)).forget();
            }
        }
    }

    /// Pool `i`'s text under a new key; if the browser's quota is full,
    /// once more after removing what no save needs, else the pool and
    /// every bigger one still to write are left out.
    fn write_text(&mut self, i: usize) {
        let Some(store) = local() else { return };
        let n = NEXT_KEY.with(|c| c.get() + 1);
        NEXT_KEY.with(|c| c.set(n));
        let key = format!("{TEXT_PREFIX}{}-{n}", js_sys::Date::now() as u64);
        let text = self.state.pools[i].text.clone();
        let wrote = store.set_item(&key, &text).is_ok()
            || {
                self.free_space(&store, true);
                store.set_item(&key, &text).is_ok()
            }
            || {
                // Still no room: the last save goes too, but for the texts
                // this one keeps (a pool replaced by another as big; a save
                // from before texts were kept apart, its pools in the
                // head). This save's head comes a few tasks later (at
                // once if the page is closed meanwhile: `save_now`).
                self.free_space(&store, false);
                store.set_item(&key, &text).is_ok()
            };
        if wrote {
            self.apart.push(Apart {
                pool: i,
                key,
                bytes: text.len() as u64,
            });
            return;
        }
        self.why = format!(
            "the browser refused to keep {} (its storage for this page is full)",
            megabytes(text.len())
        );
        self.leave_out(i);
        for j in std::mem::take(&mut self.to_write) {
            self.leave_out(j);
        }
    }

    /// Room for this save: the texts this save does not name go, but for
    /// those the saved head names if `keep_saved`; else the head too.
    fn free_space(&self, store: &web_sys::Storage, keep_saved: bool) {
        if !keep_saved {
            let _ = store.remove_item(KEY);
        }
        let mut keep: Vec<String> = self.apart.iter().map(|a| a.key.clone()).collect();
        if let Some(head) = keep_saved
            .then(|| {
                store
                    .get_item(KEY)
                    .ok()
                    .flatten()
                    .and_then(|j| serde_json::from_str::<AppState>(&j).ok())
            })
            .flatten()
        {
            keep.extend(head.apart_texts.into_iter().map(|(_, key, _)| key));
        }
        remove_texts_but(store, &keep);
    }

    fn leave_out(&mut self, i: usize) {
        let pool = &mut self.state.pools[i];
        if pool.text.is_empty() {
            return;
        }
        self.state
            .not_kept
            .push((pool.name.clone(), pool.text.len() as u64));
        self.left_out
            .push(std::mem::replace(&mut pool.text, Rc::from("")));
    }

    /// The head, last: the state without the texts kept apart. If it does
    /// not fit, the biggest pools still in it are left out, one by one.
    fn write_head(mut self) -> Outcome {
        let Some(store) = local() else {
            return Err("Not autosaved: the browser's storage went away.".into());
        };
        let mut head = self.state.clone();
        for a in &self.apart {
            head.pools[a.pool].text = Rc::from("");
            head.apart_texts.push((a.pool, a.key.clone(), a.bytes));
        }
        let mut inline: Vec<usize> = (0..head.pools.len())
            .filter(|&i| !head.pools[i].text.is_empty())
            .collect();
        inline.sort_by_key(|&i| std::cmp::Reverse(head.pools[i].text.len()));
        let mut next = inline.into_iter();
        loop {
            let written = inline_fits(&head).and_then(|()| {
                let json = serde_json::to_string(&head).map_err(|e| e.to_string())?;
                store.set_item(KEY, &json).map_err(|_| {
                    format!(
                        "the browser refused to keep {} (its storage for this page is full)",
                        megabytes(state_bytes(&head))
                    )
                })
            });
            match written {
                Ok(()) => break,
                Err(e) => {
                    if head.not_kept.is_empty() {
                        self.why = e.clone();
                    }
                    let Some(i) = next.next() else {
                        return Err(format!("Not autosaved: {e}. Your work stays in this tab; download a state file to keep it."));
                    };
                    self.leave_out(i);
                    head.pools[i].text = Rc::from("");
                    head.not_kept = self.state.not_kept.clone();
                }
            }
        }
        // Saved: the texts no head names go.
        let keys: Vec<String> = self.apart.iter().map(|a| a.key.clone()).collect();
        remove_texts_but(&store, &keys);
        KEPT.with(|k| {
            *k.borrow_mut() = self
                .apart
                .iter()
                .map(|a| (self.state.pools[a.pool].text.clone(), a.key.clone()))
                .collect()
        });
        self.outcome()
    }

    /// What the saved head came to, in words (pools left out remembered,
    /// so the next save leaves them out at once).
    fn outcome(self) -> Outcome {
        TOO_BIG.with(|t| *t.borrow_mut() = self.left_out);
        if self.state.not_kept.is_empty() {
            return Ok(self.expr_note.map(|w| {
                format!("Partly autosaved: {w} (too big for the browser to keep). Everything else is kept; download a state file to keep it all.")
            }));
        }
        let mut words = not_kept_words(&self.state.not_kept);
        if let Some(w) = &self.expr_note {
            words = format!("{words}, and {w}");
        }
        Ok(Some(format!(
            "Partly autosaved: {words} ({}). Everything else is kept, and after a reload the page names what to upload again; download a state file to keep it all.",
            self.why
        )))
    }
}

/// Do the pools kept in the head fit at all? JSON writes a control
/// character as `\u00XX`: 3 MB of NUL bytes are 18 MB of JSON, whose
/// writing alone held the page for 100 ms.
fn inline_fits(state: &AppState) -> Result<(), String> {
    let bytes = state_bytes(state);
    if bytes > HOPELESS_CHARS {
        return Err(format!(
            "the pools hold {}, more than the browser keeps for a page (about 5 MB)",
            megabytes(bytes)
        ));
    }
    let controls: usize = state
        .pools
        .iter()
        .map(|p| p.text.bytes().filter(|&b| b < 0x20 && b != b'\n').count())
        .sum();
    let chars = bytes + 5 * controls;
    if chars > HOPELESS_CHARS {
        return Err(format!(
            "the pools hold {}, {} once written out (control characters take six each), more than the browser keeps for a page (about 5 MB)",
            megabytes(bytes),
            megabytes(chars)
        ));
    }
    Ok(())
}

/// Remove every kept text but those under `keep`.
fn remove_texts_but(store: &web_sys::Storage, keep: &[String]) {
    let n = store.length().unwrap_or(0);
    let stale: Vec<String> = (0..n)
        .filter_map(|i| store.key(i).ok().flatten())
        .filter(|k| k.starts_with(TEXT_PREFIX) && !keep.contains(k))
        .collect();
    for k in stale {
        let _ = store.remove_item(&k);
    }
}

/// `the pool "big" (13.0 MB)`, `the pools "a" (…) and "b" (…)`.
pub fn not_kept_words(pools: &[(String, u64)]) -> String {
    let each: Vec<String> = pools
        .iter()
        .map(|(name, bytes)| format!("\u{201c}{name}\u{201d} ({})", megabytes(*bytes as usize)))
        .collect();
    match each.as_slice() {
        [one] => format!("the pool {one} is left out"),
        [init @ .., last] => format!("the pools {} and {last} are left out", init.join(", ")),
        [] => String::new(),
    }
}
