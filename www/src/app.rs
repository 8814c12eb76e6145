//! The application shell: state (with autosave and share links), the
//! header, and the two views (workbench and examples gallery).

use std::rc::Rc;

use yew::prelude::*;

use crate::components::{
    evaluator::EvaluatorPanel, gallery::Gallery, header::Header, pool_editor::PoolEditor,
};
use crate::share::{self, Fragment};
use crate::state::{AdRef, AppState, PoolText, View};

/// Every change the UI can make to the state.
pub enum Action {
    SetPoolText(usize, String),
    AddPool,
    RenamePool(usize, String),
    RemovePool(usize),
    SelectPool(usize),
    SetExpr(String),
    SetMy(Option<AdRef>),
    SetTarget(Option<AdRef>),
    SetScope(Vec<String>),
    SetMode(classad::Mode),
    SetView(View),
    Replace(AppState),
}

#[derive(Clone, PartialEq)]
pub struct Store(pub Rc<AppState>);

impl Reducible for Store {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self.0).clone();
        match action {
            Action::SetPoolText(i, t) => {
                if let Some(p) = s.pools.get_mut(i) {
                    p.text = t;
                }
            }
            Action::AddPool => {
                let n = s.pools.len() + 1;
                s.pools.push(PoolText {
                    name: format!("pool {n}"),
                    text: String::new(),
                });
                s.active_pool = s.pools.len() - 1;
            }
            Action::RenamePool(i, name) => {
                if let Some(p) = s.pools.get_mut(i) {
                    p.name = name;
                }
            }
            Action::RemovePool(i) => {
                if s.pools.len() > 1 && i < s.pools.len() {
                    s.pools.remove(i);
                    for r in [&mut s.my, &mut s.target] {
                        *r = match *r {
                            Some(a) if a.pool == i => None,
                            Some(a) if a.pool > i => Some(AdRef {
                                pool: a.pool - 1,
                                ..a
                            }),
                            other => other,
                        };
                    }
                    if s.active_pool >= s.pools.len() {
                        s.active_pool = s.pools.len() - 1;
                    }
                }
            }
            Action::SelectPool(i) => s.active_pool = i,
            Action::SetExpr(e) => s.expr = e,
            Action::SetMy(r) => {
                s.my = r;
                s.scope.clear();
            }
            Action::SetTarget(r) => s.target = r,
            Action::SetScope(p) => s.scope = p,
            Action::SetMode(m) => s.mode = m,
            Action::SetView(v) => s.view = v,
            Action::Replace(new) => s = new,
        }
        s.normalize();
        Rc::new(Store(Rc::new(s)))
    }
}

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

/// The state at start-up: a share link or example in the URL wins over the
/// autosave; a bad link leaves the autosave in place and says why.
fn initial() -> (AppState, Option<String>) {
    let saved = crate::storage::load();
    match share::decode(&location_hash()) {
        Ok(Fragment::Empty) => (saved.unwrap_or_default(), None),
        Ok(Fragment::State(s)) => (*s, None),
        Ok(Fragment::Example(id)) => match crate::examples::find(&id) {
            Some(ex) => (ex.state(), None),
            None => (
                saved.unwrap_or_default(),
                Some(format!(
                    "There is no example called \u{201c}{id}\u{201d}; showing your own work."
                )),
            ),
        },
        Err(e) => (saved.unwrap_or_default(), Some(e.to_string())),
    }
}

#[component]
pub fn App() -> Html {
    let boot = use_memo((), |_| initial());
    let store = use_reducer(|| Store(Rc::new(boot.0.clone())));
    let notice = use_state(|| boot.1.clone());
    let state = store.0.clone();

    // Autosave every change (debounced by Yew's batching).
    {
        let state = state.clone();
        use_effect_with(state, |s| {
            crate::storage::save(s);
        });
    }
    // A link was consumed: drop it from the address bar so a reload keeps
    // the user's (autosaved) edits rather than re-opening the link.
    use_effect_with((), |_| {
        if !location_hash().is_empty() {
            clear_hash();
        }
    });

    let dispatch = {
        let store = store.clone();
        Callback::from(move |a: Action| store.dispatch(a))
    };
    let dismiss = {
        let notice = notice.clone();
        Callback::from(move |_| notice.set(None))
    };

    html! {
        <div class="app">
            <Header state={state.clone()} dispatch={dispatch.clone()} />
            if let Some(msg) = (*notice).clone() {
                <div class="notice" role="alert">
                    <span>{ msg }</span>
                    <button onclick={dismiss} aria-label="Dismiss message">{ "×" }</button>
                </div>
            }
            if state.view == View::Examples {
                <Gallery dispatch={dispatch.clone()} />
            } else {
                <main class="workbench">
                    <PoolEditor state={state.clone()} dispatch={dispatch.clone()} />
                    <EvaluatorPanel state={state.clone()} dispatch={dispatch.clone()} />
                </main>
            }
        </div>
    }
}
