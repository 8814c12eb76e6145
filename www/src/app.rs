//! The application shell: state (with autosave and share links), the
//! header, and the two views (workbench and examples gallery).

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::bridge::parses::use_parses;
use crate::components::shell::{
    embed_bar::EmbedBar, gallery::Gallery, header::Header, intro::Intro, set_aside::SetAsideList,
};
use crate::components::workbench::submit_bar::use_submit_follower;
use crate::components::workbench::{evaluator::EvaluatorPanel, pool_editor::PoolEditor};
use crate::state::actions::{Action, PoolMark, Store};
use crate::state::app_state::{AppState, View};
use crate::state::share::{self, Fragment, Place};
use crate::views::host::ViewsHost;
use gloo_timers::callback::Timeout;

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Show `fragment` in the address bar: a new history entry (`push`), so
/// back and forward move between places, or in place of the current one.
fn set_address(fragment: &str, push: bool) {
    let Some(w) = web_sys::window() else { return };
    let Ok(h) = w.history() else { return };
    let url = format!(
        "{}{}#{fragment}",
        w.location().pathname().unwrap_or_default(),
        w.location().search().unwrap_or_default()
    );
    let null = wasm_bindgen::JsValue::NULL;
    let _ = if push {
        h.push_state_with_url(&null, "", Some(&url))
    } else {
        h.replace_state_with_url(&null, "", Some(&url))
    };
}

/// What the address opens: a state it carries (a prefill link), a share
/// link's packed state (the worker unpacks it), or a place (a gallery
/// example, a view, a classroom step).
#[derive(Clone)]
enum Opening {
    State(Box<AppState>),
    Packed(String, Place),
    Place(Place),
}

/// What a URL fragment asks for, or why it cannot be.
fn from_hash(hash: &str) -> Result<Option<Opening>, String> {
    match share::classify(hash) {
        Ok(Fragment::Empty) => Ok(None),
        Ok(Fragment::State(s)) => Ok(Some(Opening::State(s))),
        Ok(Fragment::Packed(p, place)) => Ok(Some(Opening::Packed(p, place))),
        Ok(Fragment::Place(place)) => Ok(Some(Opening::Place(place))),
        Err(e) => Err(e.to_string()),
    }
}

/// `s` at `place`'s view and classroom step.
fn at_place(mut s: AppState, place: &Place) -> AppState {
    if let Some(v) = place.view {
        s.view = v;
    }
    s.matching.step = place.step;
    s
}

/// The state at start-up: a share link in the URL wins over the autosave
/// (which is kept aside, to be restored); a bad link leaves the autosave
/// in place and says why. The third item: work was kept aside; the
/// fourth: what the address asks the worker for (an example, a link's
/// state), opened when the worker sends it.
fn initial() -> (AppState, Option<String>, bool, Option<Opening>) {
    let opening = from_hash(&location_hash());
    if let Ok(Some(Opening::Packed(_, p) | Opening::Place(p))) = &opening {
        if p.embed {
            crate::state::storage::set_embedded();
        }
    }
    let saved = crate::state::autosave::load();
    match opening {
        Ok(Some(Opening::State(s))) => {
            let kept = saved
                .as_ref()
                .is_some_and(|old| worth_keeping(old, &s) && crate::state::storage::set_aside(old));
            (*s, None, kept, None)
        }
        // A place of the user's own work, or of the example the autosave
        // holds unchanged (a reload: its settings are kept, not reopened).
        Ok(Some(Opening::Place(p)))
            if p.example.is_none()
                || saved
                    .as_ref()
                    .is_some_and(|s| Place::of(s).example == p.example) =>
        {
            let (state, lost) = without_not_kept(saved.unwrap_or_default());
            (at_place(state, &p), lost, false, None)
        }
        Ok(Some(o)) => (saved.unwrap_or_default(), None, false, Some(o)),
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
    let words = crate::state::autosave::not_kept_words(&std::mem::take(&mut s.not_kept));
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

/// A state as a memo's dependency: the same state, not an equal one
/// (comparing states compares every pool's text).
struct SameState(Rc<AppState>);

impl PartialEq for SameState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
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
    // A save still waiting, or under way, when the page is hidden or closed
    // is done then.
    {
        let save_error = save_error.clone();
        let timer = use_mut_ref(|| None::<Timeout>);
        let waiting = use_mut_ref(|| None::<Rc<AppState>>);
        {
            let waiting = waiting.clone();
            use_effect_with((), move |_| {
                let flush =
                    Closure::<dyn FnMut()>::new(move || match waiting.borrow_mut().take() {
                        Some(s) => {
                            let _ = crate::state::autosave::save_now(&s);
                        }
                        None => crate::state::autosave::finish(),
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
                    let (refused, save_error) = (refused.clone(), save_error.clone());
                    crate::state::autosave::save(&s, move |r| {
                        *refused.borrow_mut() = r.is_err().then_some(texts);
                        let r = r.unwrap_or_else(Some);
                        if *save_error != r {
                            save_error.set(r);
                        }
                    });
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
    // The first render draws the shell; the workbench comes in the next
    // task. The browser compiles each wasm function on its first call, on
    // the page's thread: drawing everything at once made one task of
    // 74-107 ms on a loaded 2-core machine, half of it that compiling.
    // A whole new state (opened) is drawn the same way: the workbench it
    // replaces goes in one task, the new one comes in the next (a link's
    // 4 MB state drawn at once was one task of 45-78 ms).
    let settled = use_state(|| false);
    {
        let settled = settled.clone();
        use_effect_with((), move |_| {
            Timeout::new(0, move || settled.set(true)).forget();
        });
    }
    // Open a whole new state (example, link, state file), keeping the old
    // aside. It may come from the worker later: the old state is the one
    // showing then, not the one of the render that asked.
    let showing = use_mut_ref(|| state.clone());
    *showing.borrow_mut() = state.clone();
    let on_open = {
        let (store, showing) = (store.clone(), showing.clone());
        let can_restore = can_restore.clone();
        let notice = notice.clone();
        let settled = settled.clone();
        Callback::from(move |s: AppState| {
            notice.set(None);
            let old = showing.borrow().clone();
            if worth_keeping(&old, &s) && crate::state::storage::set_aside(&old) {
                can_restore.set(true);
            }
            settled.set(false);
            store.dispatch(Action::Replace(Box::new(s)));
            let settled = settled.clone();
            Timeout::new(0, move || settled.set(true)).forget();
        })
    };
    // What the worker opens (a gallery example, a share link's state):
    // said while under way; what shows is replaced when it comes.
    let opening = use_state(|| None::<String>);
    let open_via_worker = {
        let (on_open, notice, opening) = (on_open.clone(), notice.clone(), opening.clone());
        Callback::from(move |o: Opening| {
            if let Opening::State(s) = o {
                return on_open.emit(*s);
            }
            let (on_open, notice, opening2) = (on_open.clone(), notice.clone(), opening.clone());
            // Drawn in a task after the one that read the worker's answer:
            // reading a link's 4 MB state and drawing it took one task of
            // 52 ms.
            let done = move |r: Result<AppState, String>, place: Place| {
                Timeout::new(0, move || {
                    opening2.set(None);
                    match r {
                        Ok(s) => on_open.emit(at_place(s, &place)),
                        Err(msg) => notice.set(Some(msg)),
                    }
                })
                .forget();
            };
            match o {
                Opening::State(_) => {}
                Opening::Packed(p, place) => {
                    opening.set(Some("Opening the shared link\u{2026}".into()));
                    crate::bridge::engine::unpack(&p, move |r| {
                        done(r.map_err(|e| e.to_string()), place)
                    });
                }
                Opening::Place(place) => {
                    let Some(id) = place.example.clone() else {
                        return;
                    };
                    opening.set(Some(format!(
                        "Opening the example \u{201c}{id}\u{201d}\u{2026}"
                    )));
                    crate::bridge::engine::example(&id, move |r| {
                        let place = Place {
                            // The example's own view unless the address names one.
                            view: place.view.or(r.as_ref().ok().map(|s| s.view)),
                            ..place
                        };
                        done(r, place)
                    });
                }
            }
        })
    };
    let open_example = {
        let open = open_via_worker.clone();
        Callback::from(move |id: String| {
            open.emit(Opening::Place(Place {
                example: Some(id),
                ..Place::default()
            }))
        })
    };
    // The address shows the place (view, unchanged example, classroom
    // step): each move is a history entry, so back and forward go between
    // them; a link followed is replaced by its place, so a reload keeps the
    // user's (autosaved) edits rather than opening the link again.
    let embedded = crate::state::storage::embedded();
    // Once per state (an example's fingerprint reads every pool's text).
    let place = use_memo(SameState(state.clone()), move |s| {
        Place {
            embed: embedded,
            ..Place::of(&s.0)
        }
        .fragment()
    });
    let place = (*place).clone();
    let first = use_mut_ref(|| true);
    {
        let waiting = opening.is_some();
        use_effect_with((place, waiting), move |(place, waiting)| {
            // While the worker opens something, the address already says
            // where the user is going.
            // An embedded view keeps the address it came with (its state
            // is not autosaved: a reload must find the link again).
            if !embedded && !*waiting && location_hash().trim_start_matches('#') != place.as_str() {
                set_address(place, !std::mem::replace(&mut *first.borrow_mut(), false));
            }
        });
    }
    {
        let notice = notice.clone();
        let (open, dispatch) = (open_via_worker.clone(), store.dispatcher());
        let showing = showing.clone();
        let pending = boot.3.clone();
        use_effect_with((), move |_| {
            if let Some(o) = pending {
                open.emit(o);
            }
            // Back, forward, a link followed in this tab: go to its place,
            // opening what it names unless it is showing already.
            let onpop = Closure::<dyn FnMut()>::new(move || match from_hash(&location_hash()) {
                Ok(Some(Opening::Place(p)))
                    if p.example.is_none() || p.example == Place::of(&showing.borrow()).example =>
                {
                    dispatch.dispatch(Action::GoTo {
                        view: p.view,
                        step: p.step,
                    })
                }
                Ok(Some(o)) => open.emit(o),
                Ok(None) => {}
                Err(msg) => notice.set(Some(msg)),
            });
            if let Some(w) = web_sys::window() {
                w.set_onpopstate(Some(onpop.as_ref().unchecked_ref()));
            }
            onpop.forget();
        });
    }

    let dispatch = {
        let store = store.clone();
        Callback::from(move |a: Action| store.dispatch(a))
    };
    use_submit_follower(&state, &dispatch);
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
    // Escape closes the page's message, else the introduction.
    {
        let (notice, intro) = (notice.clone(), intro.clone());
        let open = notice.is_some() || *intro;
        crate::components::widgets::escape::use_escape(
            open,
            Callback::from(move |_| {
                if notice.is_some() {
                    notice.set(None)
                } else {
                    crate::state::storage::set_intro_seen();
                    intro.set(false)
                }
            }),
        );
    }
    // The presenting layout: larger type, the header folded (a class on
    // the root element, so the stylesheet does the rest).
    let presenting = use_state(|| false);
    let on_present = {
        let presenting = presenting.clone();
        Callback::from(move |_| {
            let on = !*presenting;
            if let Some(root) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = if on {
                    root.set_attribute("data-presenting", "")
                } else {
                    root.remove_attribute("data-presenting")
                };
            }
            presenting.set(on);
        })
    };

    // The MY and TARGET ads' texts as parsed, for the header's readable
    // link and embed snippet.
    let ad_text = |r: Option<crate::state::app_state::AdRef>| -> Option<Rc<str>> {
        let r = r?;
        let parsed = parses.pools.get(r.pool)?.parsed.as_ref()?;
        parsed.ad_text(r.ad).map(Rc::from)
    };
    html! {
        <div class={classes!("app", embedded.then_some("embedded"))}>
            <a class="skip-link" href="#" onclick={Callback::from(|e: MouseEvent| {
                e.prevent_default();
                crate::components::widgets::focus::focus_view();
            })}>{ "Skip to the view" }</a>
            if embedded {
                <EmbedBar view={state.view} />
            } else {
                <Header state={state.clone()} dispatch={dispatch.clone()} notify={notify} on_open={on_open.clone()} save_error={(*save_error).clone()} {on_help}
                    my_text={ad_text(state.my)} target_text={ad_text(state.target)} presenting={*presenting} {on_present} />
            }
            if *intro {
                <Intro on_open={intro_open} on_close={close_intro} />
            }
            if !aside.is_empty() && !embedded {
                <SetAsideList list={(*aside).clone()} on_bring_back={bring_back.clone()} on_forget={forget_aside.clone()} />
            }
            if *can_restore {
                <div class="restore" role="status">
                    <span>{ "Opened. Your previous work was put aside (it stays in \u{201c}Set aside\u{201d} below the header, also after a reload)." }</span>
                    <button onclick={on_restore}>{ "Bring it back" }</button>
                    <button onclick={forget_restore} aria-label="Hide this message">{ "×" }</button>
                </div>
            }
            if let Some(msg) = (*opening).clone() {
                <p class="opening-example" role="status">{ msg }</p>
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
