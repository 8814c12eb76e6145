//! The application shell: state (with autosave and share links), the
//! header, and the two views (workbench and examples gallery).

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::bridge::parses::use_parses;
use crate::components::shell::{
    gallery::Gallery, header::Header, intro::Intro, set_aside::SetAsideList,
};
use crate::components::workbench::{evaluator::EvaluatorPanel, pool_editor::PoolEditor};
use crate::state::actions::{Action, PoolMark, Store};
use crate::state::app_state::{AppState, View};
use crate::state::share::{self, Fragment};
use crate::views::host::ViewsHost;
use gloo_timers::callback::Timeout;

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

fn clear_hash() {
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let path = w.location().pathname().unwrap_or_default()
                + &w.location().search().unwrap_or_default();
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
        }
    }
}

/// What a URL fragment opens: a state it carries, or a gallery example
/// (which the worker sends: the page does not hold the examples' pools).
enum Opening {
    State(Box<AppState>),
    Example(String),
}

/// What a URL fragment asks for, or why it cannot be.
fn from_hash(hash: &str) -> Result<Option<Opening>, String> {
    match share::decode(hash) {
        Ok(Fragment::Empty) => Ok(None),
        Ok(Fragment::State(s)) => Ok(Some(Opening::State(s))),
        Ok(Fragment::Example(id)) => Ok(Some(Opening::Example(id))),
        Err(e) => Err(e.to_string()),
    }
}

/// The state at start-up: a share link in the URL wins over the autosave
/// (which is kept aside, to be restored); a bad link leaves the autosave
/// in place and says why. The third item: work was kept aside; the
/// fourth: an example the URL asks for, opened when the worker sends it.
fn initial() -> (AppState, Option<String>, bool, Option<String>) {
    let saved = crate::state::storage::load();
    match from_hash(&location_hash()) {
        Ok(Some(Opening::State(s))) => {
            let kept = saved
                .as_ref()
                .is_some_and(|old| worth_keeping(old, &s) && crate::state::storage::set_aside(old));
            (*s, None, kept, None)
        }
        Ok(Some(Opening::Example(id))) => (saved.unwrap_or_default(), None, false, Some(id)),
        Ok(None) => {
            let (state, lost) = without_not_kept(saved.unwrap_or_default());
            (state, lost, false, None)
        }
        Err(msg) => (
            without_not_kept(saved.unwrap_or_default()).0,
            Some(msg),
            false,
            None,
        ),
    }
}

/// An autosave that left pools out (too big to keep): the state without
/// the record of them, and the sentence that names them.
fn without_not_kept(mut s: AppState) -> (AppState, Option<String>) {
    if s.not_kept.is_empty() {
        return (s, None);
    }
    let words = crate::state::storage::not_kept_words(&std::mem::take(&mut s.not_kept));
    (
        s,
        Some(format!(
            "Restored from the autosave, but {words}: it was too big for the browser to keep, so its tab is empty — upload it again. The views, expression and settings are as you left them."
        )),
    )
}

/// Work that differs from what replaces it and from the starting state.
fn worth_keeping(old: &AppState, new: &AppState) -> bool {
    let same = |a: &AppState, b: &AppState| a.pools == b.pools && a.expr == b.expr;
    // An example opened and not changed is not work to keep.
    !same(old, new) && !same(old, &AppState::default()) && !old.is_untouched_example()
}

/// Saves above this size wait for a pause, so typing in a big pool does
/// not serialize megabytes per key; small ones are saved at once.
const SAVE_AT_ONCE_BYTES: usize = 256 * 1024;

#[component]
pub fn App() -> Html {
    let boot = use_memo((), |_| initial());
    let store = use_reducer(|| Store(Rc::new(boot.0.clone())));
    let notice = use_state(|| boot.1.clone());
    // Work replaced by an opened link, example or state file can come back.
    let can_restore = use_state(|| boot.2);
    let save_error = use_state(|| None::<String>);
    let pool_mark = use_state(|| None::<PoolMark>);
    let state = store.0.clone();
    // Before any child renders: every parse below reads in this syntax.
    crate::bridge::dialect::set(state.dialect);
    let parses = use_parses(&state.pools);
    // MY and TARGET follow their ads by label as the pools change.
    {
        let store = store.clone();
        let current: Vec<Option<Rc<crate::bridge::parses::ParsedPool>>> = parses
            .pools
            .iter()
            .map(|p| {
                p.current
                    .then(|| p.parsed.as_ref().map(|x| x.0.clone()))
                    .flatten()
            })
            .collect();
        let deps = (
            current
                .iter()
                .map(|p| p.as_ref().map(|x| Rc::as_ptr(x) as usize))
                .collect::<Vec<_>>(),
            state.my,
            state.target,
            state.my_label.clone(),
            state.target_label.clone(),
        );
        use_effect_with(deps, move |(_, my, target, my_label, target_label)| {
            let my_now =
                crate::components::workbench::identity::follow(&current, *my, my_label.clone());
            let target_now = crate::components::workbench::identity::follow(
                &current,
                *target,
                target_label.clone(),
            );
            if my_now != (*my, my_label.clone()) || target_now != (*target, target_label.clone()) {
                store.dispatch(Action::Follow {
                    my: my_now,
                    target: target_now,
                });
            }
        });
    }
    // Autosave every change; a refusal (quota) is shown, not swallowed.
    // A save still waiting when the page is hidden or closed runs then.
    {
        let save_error = save_error.clone();
        let timer = use_mut_ref(|| None::<Timeout>);
        let waiting = use_mut_ref(|| None::<Rc<AppState>>);
        {
            let waiting = waiting.clone();
            use_effect_with((), move |_| {
                let flush = Closure::<dyn FnMut()>::new(move || {
                    if let Some(s) = waiting.borrow_mut().take() {
                        let _ = crate::state::storage::save(&s);
                    }
                });
                if let Some(w) = web_sys::window() {
                    let _ = w.add_event_listener_with_callback(
                        "pagehide",
                        flush.as_ref().unchecked_ref(),
                    );
                }
                flush.forget();
            });
        }
        // Pools the browser refused to keep: the same pools are not tried
        // again on every click (serializing megabytes to be refused again
        // blocked the page for 100 ms).
        let refused = use_mut_ref(|| None::<Vec<Rc<str>>>);
        use_effect_with(state.clone(), move |s| {
            let save = {
                let waiting = waiting.clone();
                move || {
                    let Some(s) = waiting.borrow_mut().take() else {
                        return;
                    };
                    let texts: Vec<Rc<str>> = s.pools.iter().map(|p| p.text.clone()).collect();
                    let same = |old: &Vec<Rc<str>>| {
                        old.len() == texts.len()
                            && old.iter().zip(&texts).all(|(a, b)| Rc::ptr_eq(a, b))
                    };
                    if save_error.is_some() && refused.borrow().as_ref().is_some_and(same) {
                        return;
                    }
                    let r = crate::state::storage::save(&s);
                    *refused.borrow_mut() = r.is_err().then_some(texts);
                    let r = r.unwrap_or_else(Some);
                    if *save_error != r {
                        save_error.set(r);
                    }
                }
            };
            *waiting.borrow_mut() = Some(s.clone());
            if crate::state::storage::state_bytes(s) <= SAVE_AT_ONCE_BYTES {
                *timer.borrow_mut() = None;
                save();
            } else {
                *timer.borrow_mut() = Some(Timeout::new(1000, save));
            }
        });
    }
    // Open a whole new state (example, link, state file), keeping the old
    // aside. It may come from the worker later: the old state is the one
    // showing then, not the one of the render that asked.
    let showing = use_mut_ref(|| state.clone());
    *showing.borrow_mut() = state.clone();
    let on_open = {
        let store = store.clone();
        let can_restore = can_restore.clone();
        let notice = notice.clone();
        Callback::from(move |s: AppState| {
            notice.set(None);
            let old = showing.borrow().clone();
            if worth_keeping(&old, &s) && crate::state::storage::set_aside(&old) {
                can_restore.set(true);
            }
            store.dispatch(Action::Replace(Box::new(s)));
        })
    };
    // A gallery example: the worker builds its state.
    // Said while under way: what shows is replaced when it comes.
    let opening = use_state(|| None::<String>);
    let open_example = {
        let (on_open, notice, opening) = (on_open.clone(), notice.clone(), opening.clone());
        Callback::from(move |link: String| {
            let (on_open, notice, opening) = (on_open.clone(), notice.clone(), opening.clone());
            // `<id>&step=<n>`: a lesson opened in its classroom at step n.
            let (id, step) = match link.split_once("&step=") {
                Some((id, n)) => (id.to_string(), n.trim().parse::<usize>().ok()),
                None => (link.clone(), None),
            };
            opening.set(Some(id.clone()));
            crate::bridge::engine::example(&id, move |r| {
                opening.set(None);
                match r {
                    Ok(mut s) => {
                        if let Some(n) = step {
                            s.matching.step = Some(n.saturating_sub(1));
                            s.view = View::Negotiation;
                        }
                        on_open.emit(s)
                    }
                    Err(msg) => notice.set(Some(msg)),
                }
            });
        })
    };
    // A link was consumed: drop it from the address bar so a reload keeps
    // the user's (autosaved) edits rather than re-opening the link. A link
    // followed later in this tab (gallery deep link, pasted URL) applies.
    {
        let notice = notice.clone();
        let (on_open, open_example) = (on_open.clone(), open_example.clone());
        let pending = boot.3.clone();
        use_effect_with((), move |_| {
            if !location_hash().is_empty() {
                clear_hash();
            }
            if let Some(id) = pending {
                open_example.emit(id);
            }
            let onhash = Closure::<dyn FnMut()>::new(move || {
                match from_hash(&location_hash()) {
                    Ok(Some(Opening::State(s))) => on_open.emit(*s),
                    Ok(Some(Opening::Example(id))) => open_example.emit(id),
                    Ok(None) => {}
                    Err(msg) => notice.set(Some(msg)),
                }
                clear_hash();
            });
            if let Some(w) = web_sys::window() {
                w.set_onhashchange(Some(onhash.as_ref().unchecked_ref()));
            }
            onhash.forget();
        });
    }

    let dispatch = {
        let store = store.clone();
        Callback::from(move |a: Action| store.dispatch(a))
    };
    let notify = {
        let notice = notice.clone();
        Callback::from(move |m: Option<String>| notice.set(m))
    };
    // Set-aside work: the newest comes back from the banner; any of the
    // kept ones from the header's list (after a reload too).
    let aside = use_state(crate::state::storage::set_aside_list);
    // The introduction: on a first visit, and from the header's "?".
    // A shared lesson or link opens without it over the lesson (one click
    // away, the "?"): on a first visit with nothing in the address only.
    let intro = use_state(|| !crate::state::storage::intro_seen() && location_hash().is_empty());
    // The first render draws the shell; the workbench comes in the next
    // task. The browser compiles each wasm function on its first call, on
    // the page's thread: drawing everything at once made one task of
    // 74-107 ms on a loaded 2-core machine, half of it that compiling.
    let settled = use_state(|| false);
    {
        let settled = settled.clone();
        use_effect_with((), move |_| {
            Timeout::new(0, move || settled.set(true)).forget();
        });
    }
    let on_help = {
        let intro = intro.clone();
        Callback::from(move |_| intro.set(true))
    };
    let close_intro = {
        let intro = intro.clone();
        Callback::from(move |_| {
            crate::state::storage::set_intro_seen();
            intro.set(false);
        })
    };
    let intro_open = {
        let (intro, open_example) = (intro.clone(), open_example.clone());
        Callback::from(move |id: String| {
            crate::state::storage::set_intro_seen();
            intro.set(false);
            open_example.emit(id);
        })
    };
    let bring_back = {
        let store = store.clone();
        let can_restore = can_restore.clone();
        let aside = aside.clone();
        Callback::from(move |i: usize| {
            if let Some(mut old) = crate::state::storage::take_set_aside(i) {
                old.view = View::Evaluate;
                // What is open now is set aside in turn: nothing is lost.
                if worth_keeping(&store.0, &old) {
                    crate::state::storage::set_aside(&store.0);
                }
                store.dispatch(Action::Replace(Box::new(old)));
            }
            can_restore.set(false);
            aside.set(crate::state::storage::set_aside_list());
        })
    };
    let forget_aside = {
        let aside = aside.clone();
        Callback::from(move |i: usize| {
            crate::state::storage::forget_set_aside(i);
            aside.set(crate::state::storage::set_aside_list());
        })
    };
    // Refresh the list whenever something may have been set aside.
    {
        let aside = aside.clone();
        use_effect_with(*can_restore, move |_| {
            aside.set(crate::state::storage::set_aside_list());
        });
    }
    let on_restore = {
        let b = bring_back.clone();
        Callback::from(move |_| b.emit(0))
    };
    let forget_restore = {
        let can_restore = can_restore.clone();
        Callback::from(move |_| can_restore.set(false))
    };
    let dismiss = {
        let notice = notice.clone();
        Callback::from(move |_| notice.set(None))
    };
    // A pick in a pool: open that pool and mark the span there.
    let on_pool_mark = {
        let pool_mark = pool_mark.clone();
        let dispatch = dispatch.clone();
        let active = state.active_pool;
        Callback::from(move |m: PoolMark| {
            if m.pool != active {
                dispatch.emit(Action::SelectPool(m.pool));
            }
            pool_mark.set(Some(m));
        })
    };
    let mark_here = (*pool_mark).clone().filter(|m| m.pool == state.active_pool);

    // The MY and TARGET ads' texts as parsed, for the header's readable
    // link and embed snippet.
    let ad_text = |r: Option<crate::state::app_state::AdRef>| -> Option<Rc<str>> {
        let r = r?;
        let parsed = parses.pools.get(r.pool)?.parsed.as_ref()?;
        parsed.ad_text(r.ad).map(Rc::from)
    };
    html! {
        <div class="app">
            <Header state={state.clone()} dispatch={dispatch.clone()} notify={notify} on_open={on_open.clone()} save_error={(*save_error).clone()} {on_help}
                my_text={ad_text(state.my)} target_text={ad_text(state.target)} />
            if *intro {
                <Intro on_open={intro_open} on_close={close_intro} />
            }
            if !aside.is_empty() {
                <SetAsideList list={(*aside).clone()} on_bring_back={bring_back.clone()} on_forget={forget_aside.clone()} />
            }
            if *can_restore {
                <div class="restore" role="status">
                    <span>{ "Opened. Your previous work was put aside (it stays in \u{201c}Set aside\u{201d} below the header, also after a reload)." }</span>
                    <button onclick={on_restore}>{ "Bring it back" }</button>
                    <button onclick={forget_restore} aria-label="Hide this message">{ "×" }</button>
                </div>
            }
            if let Some(id) = (*opening).clone() {
                <p class="opening-example" role="status">{ format!("Opening the example \u{201c}{id}\u{201d}\u{2026}") }</p>
            }
            if let Some(msg) = (*notice).clone() {
                <div class="notice" role="alert">
                    <span>{ msg }</span>
                    <button onclick={dismiss} aria-label="Dismiss message">{ "×" }</button>
                </div>
            }
            <ViewsHost state={state.clone()} dispatch={dispatch.clone()} />
            if state.view == View::Examples {
                <Gallery on_open={open_example.clone()} />
            } else if !state.view.is_lazy_loaded() && !*settled {
                <main class="workbench" aria-busy="true"></main>
            } else if !state.view.is_lazy_loaded() {
                <main class="workbench">
                    <PoolEditor state={state.clone()} dispatch={dispatch.clone()} parses={parses.pools.clone()}
                        on_cancel={parses.cancel.clone()} on_retry={parses.retry.clone()} mark={mark_here} />
                    <EvaluatorPanel state={state.clone()} dispatch={dispatch.clone()} parses={parses.pools.clone()} on_pool_mark={on_pool_mark} />
                </main>
            }
        </div>
    }
}
