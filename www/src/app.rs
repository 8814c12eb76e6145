//! The application shell: state (with autosave and share links), the
//! header, and the two views (workbench and examples gallery).

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::{
    analyzer::AnalyzerView,
    autocluster_view::AutoclusterView,
    evaluator::EvaluatorPanel,
    gallery::Gallery,
    gang_view::GangView,
    header::Header,
    intro::Intro,
    match_bar::{MatchPools, PoolSide},
    match_matrix::MatchMatrix,
    negotiation::NegotiationView,
    pool_editor::PoolEditor,
    query_view::QueryView,
    set_aside::SetAsideList,
};
use crate::matchmaking::pick_pools;
use crate::parses::use_parses;
use crate::session_client::{Session, SessionClient};
use crate::share::{self, Fragment};
use crate::state::{AppState, View};
use crate::store::{Action, PoolMark, Store};
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

/// What a URL fragment asks for: a state to open, or why it cannot be.
fn from_hash(hash: &str) -> Result<Option<AppState>, String> {
    match share::decode(hash) {
        Ok(Fragment::Empty) => Ok(None),
        Ok(Fragment::State(s)) => Ok(Some(*s)),
        Ok(Fragment::Example(id)) => match crate::examples::find(&id) {
            Some(ex) => Ok(Some(ex.state())),
            None => Err(format!(
                "There is no example called \u{201c}{id}\u{201d}; showing your own work."
            )),
        },
        Err(e) => Err(e.to_string()),
    }
}

/// The state at start-up: a share link or example in the URL wins over the
/// autosave (which is kept aside, to be restored); a bad link leaves the
/// autosave in place and says why. The third item: work was kept aside.
fn initial() -> (AppState, Option<String>, bool) {
    let saved = crate::storage::load();
    match from_hash(&location_hash()) {
        Ok(Some(s)) => {
            let kept = saved
                .as_ref()
                .is_some_and(|old| worth_keeping(old, &s) && crate::storage::set_aside(old));
            (s, None, kept)
        }
        Ok(None) => (saved.unwrap_or_default(), None, false),
        Err(msg) => (saved.unwrap_or_default(), Some(msg), false),
    }
}

/// Work that differs from what replaces it and from the starting state.
fn worth_keeping(old: &AppState, new: &AppState) -> bool {
    let same = |a: &AppState, b: &AppState| a.pools == b.pools && a.expr == b.expr;
    // An example opened and not changed is not work to keep.
    let untouched_example = crate::examples::EXAMPLES
        .iter()
        .any(|e| same(old, &e.state()));
    !same(old, new) && !same(old, &AppState::default()) && !untouched_example
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
    let parses = use_parses(&state.pools);
    // MY and TARGET follow their ads by label as the pools change.
    {
        let store = store.clone();
        let current: Vec<Option<Rc<crate::parses::ParsedPool>>> = parses
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
            let my_now = crate::identity::follow(&current, *my, my_label.clone());
            let target_now = crate::identity::follow(&current, *target, target_label.clone());
            if my_now != (*my, my_label.clone()) || target_now != (*target, target_label.clone()) {
                store.dispatch(Action::Follow {
                    my: my_now,
                    target: target_now,
                });
            }
        });
    }
    // The matchmaking worker; the app redraws when a pool's load changes.
    let redraw = use_force_update();
    let session = use_memo((), move |_| {
        Session(Rc::new(SessionClient::new(
            "./engine-worker_loader.js",
            Callback::from(move |_| redraw.force_update()),
        )))
    });
    let match_pools = {
        let (jobs, machines) = pick_pools(&state.pools, &state.matching);
        let side = |i: Option<usize>| {
            let i = i?;
            let p = state.pools.get(i)?;
            Some(PoolSide {
                index: i,
                name: p.name.clone(),
                text: p.text.clone(),
                load: session.status(i, &p.text),
            })
        };
        MatchPools {
            jobs: side(jobs),
            machines: side(machines),
        }
    };
    // While a matchmaking view is open, the worker gets its pools (again
    // whenever they change).
    {
        let session = (*session).clone();
        let args: Vec<(usize, crate::state::TextKey)> = match_pools
            .args()
            .into_iter()
            .map(|(i, t)| (i, crate::state::TextKey(t)))
            .collect();
        let deps = (state.view.is_matchmaking(), args);
        use_effect_with(deps, move |(on, args)| {
            if *on {
                for (i, t) in args {
                    session.ensure(*i, &t.0, true);
                }
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
                        let _ = crate::storage::save(&s);
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
                    let r = crate::storage::save(&s).err();
                    *refused.borrow_mut() = r.is_some().then_some(texts);
                    if *save_error != r {
                        save_error.set(r);
                    }
                }
            };
            *waiting.borrow_mut() = Some(s.clone());
            if crate::storage::state_bytes(s) <= SAVE_AT_ONCE_BYTES {
                *timer.borrow_mut() = None;
                save();
            } else {
                *timer.borrow_mut() = Some(Timeout::new(1000, save));
            }
        });
    }
    // A link was consumed: drop it from the address bar so a reload keeps
    // the user's (autosaved) edits rather than re-opening the link. A link
    // followed later in this tab (gallery deep link, pasted URL) applies.
    {
        let store = store.clone();
        let notice = notice.clone();
        let can_restore = can_restore.clone();
        use_effect_with((), move |_| {
            if !location_hash().is_empty() {
                clear_hash();
            }
            let onhash = Closure::<dyn FnMut()>::new(move || {
                match from_hash(&location_hash()) {
                    Ok(Some(s)) => {
                        notice.set(None);
                        if worth_keeping(&store.0, &s) && crate::storage::set_aside(&store.0) {
                            can_restore.set(true);
                        }
                        store.dispatch(Action::Replace(Box::new(s)));
                    }
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
    // Open a whole new state (example, state file), keeping the old aside.
    let on_open = {
        let store = store.clone();
        let can_restore = can_restore.clone();
        let notice = notice.clone();
        Callback::from(move |s: AppState| {
            notice.set(None);
            if worth_keeping(&store.0, &s) && crate::storage::set_aside(&store.0) {
                can_restore.set(true);
            }
            store.dispatch(Action::Replace(Box::new(s)));
        })
    };
    // Set-aside work: the newest comes back from the banner; any of the
    // kept ones from the header's list (after a reload too).
    let aside = use_state(crate::storage::set_aside_list);
    // The introduction: on a first visit, and from the header's "?".
    let intro = use_state(|| !crate::storage::intro_seen());
    let on_help = {
        let intro = intro.clone();
        Callback::from(move |_| intro.set(true))
    };
    let close_intro = {
        let intro = intro.clone();
        Callback::from(move |_| {
            crate::storage::set_intro_seen();
            intro.set(false);
        })
    };
    let intro_open = {
        let (intro, on_open) = (intro.clone(), on_open.clone());
        Callback::from(move |s: AppState| {
            crate::storage::set_intro_seen();
            intro.set(false);
            on_open.emit(s);
        })
    };
    let bring_back = {
        let store = store.clone();
        let can_restore = can_restore.clone();
        let aside = aside.clone();
        Callback::from(move |i: usize| {
            if let Some(mut old) = crate::storage::take_set_aside(i) {
                old.view = View::Evaluate;
                // What is open now is set aside in turn: nothing is lost.
                if worth_keeping(&store.0, &old) {
                    crate::storage::set_aside(&store.0);
                }
                store.dispatch(Action::Replace(Box::new(old)));
            }
            can_restore.set(false);
            aside.set(crate::storage::set_aside_list());
        })
    };
    let forget_aside = {
        let aside = aside.clone();
        Callback::from(move |i: usize| {
            crate::storage::forget_set_aside(i);
            aside.set(crate::storage::set_aside_list());
        })
    };
    // Refresh the list whenever something may have been set aside.
    {
        let aside = aside.clone();
        use_effect_with(*can_restore, move |_| {
            aside.set(crate::storage::set_aside_list());
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

    html! {
        <div class="app">
            <Header state={state.clone()} dispatch={dispatch.clone()} notify={notify} on_open={on_open.clone()} save_error={(*save_error).clone()} {on_help} />
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
            if let Some(msg) = (*notice).clone() {
                <div class="notice" role="alert">
                    <span>{ msg }</span>
                    <button onclick={dismiss} aria-label="Dismiss message">{ "×" }</button>
                </div>
            }
            if state.view == View::Examples {
                <Gallery on_open={on_open.clone()} />
            } else if state.view == View::Matrix {
                <MatchMatrix state={state.clone()} dispatch={dispatch.clone()} session={(*session).clone()} pools={match_pools.clone()} />
            } else if state.view == View::Negotiation {
                <NegotiationView state={state.clone()} dispatch={dispatch.clone()} session={(*session).clone()} pools={match_pools.clone()} />
            } else if state.view == View::Clusters {
                <AutoclusterView state={state.clone()} dispatch={dispatch.clone()} session={(*session).clone()} pools={match_pools.clone()} />
            } else if state.view == View::Analyze {
                <AnalyzerView state={state.clone()} dispatch={dispatch.clone()} session={(*session).clone()} pools={match_pools.clone()} />
            } else if state.view == View::Gangs {
                <GangView state={state.clone()} dispatch={dispatch.clone()} session={(*session).clone()} pools={match_pools.clone()} />
            } else if state.view == View::Query {
                <QueryView state={state.clone()} dispatch={dispatch.clone()} session={(*session).clone()} />
            } else {
                <main class="workbench">
                    <PoolEditor state={state.clone()} dispatch={dispatch.clone()} parses={parses.pools.clone()}
                        on_cancel={parses.cancel.clone()} on_retry={parses.retry.clone()} mark={mark_here} />
                    <EvaluatorPanel state={state.clone()} dispatch={dispatch.clone()} parses={parses.pools.clone()} on_pool_mark={on_pool_mark} />
                </main>
            }
        </div>
    }
}
