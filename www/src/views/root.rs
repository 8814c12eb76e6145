//! The views module's side: a Yew app of its own, mounted by the page
//! into the element it keeps for it (`host`), fed the state, sending its
//! actions back. It holds the matchmaking worker (`session_client`) the
//! views share, and gives that worker the pools while a view is open.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use yew::prelude::*;

use super::wire;
use crate::bridge::session_client::{Session, SessionClient};
use crate::bridge::text_buf::TextBuf;
use crate::components::analysis::analyzer::AnalyzerView;
use crate::components::gangmatching::gang_view::GangView;
use crate::components::matchmaking::{
    autocluster_view::AutoclusterView,
    match_bar::{MatchPools, PoolSide},
    match_matrix::MatchMatrix,
    negotiation::NegotiationView,
};
use crate::components::query::query_view::QueryView;
use crate::state::actions::Action;
use crate::state::app_state::{AppState, PoolText, SharedText, View};
use crate::state::pool_roles::pick_pools;

#[derive(Properties, PartialEq)]
pub struct RootProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn ViewsRoot(props: &RootProps) -> Html {
    let state = props.state.clone();
    crate::bridge::dialect::set(state.dialect);
    let dispatch = props.dispatch.clone();
    // The matchmaking worker; the views redraw when a pool's load changes.
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
        let args: Vec<(usize, SharedText)> = match_pools
            .args()
            .into_iter()
            .map(|(i, t)| (i, SharedText(t)))
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
    let session = (*session).clone();
    let pools = match_pools;
    match state.view {
        View::Matrix => html! { <MatchMatrix {state} {dispatch} {session} {pools} /> },
        View::Negotiation => html! { <NegotiationView {state} {dispatch} {session} {pools} /> },
        View::Clusters => html! { <AutoclusterView {state} {dispatch} {session} {pools} /> },
        View::Analyze => html! { <AnalyzerView {state} {dispatch} {session} {pools} /> },
        View::Gangs => html! { <GangView {state} {dispatch} {session} {pools} /> },
        View::Query => html! { <QueryView {state} {dispatch} {session} /> },
        View::Evaluate | View::Examples => html! {},
    }
}

/// The mounted app and the pools last sent.
struct Mounted {
    app: yew::AppHandle<ViewsRoot>,
    pools: Vec<PoolText>,
    dispatch: Callback<Action>,
}

thread_local! {
    static MOUNTED: RefCell<Option<Mounted>> = const { RefCell::new(None) };
}

/// Mount the views into `host`; each action a view takes is passed to
/// `on_action` as JSON (`wire::encode_action`). Mounting again replaces
/// the app.
pub fn mount(host: web_sys::Element, on_action: js_sys::Function) {
    let dispatch = Callback::from(move |a: Action| {
        let _ = on_action.call1(&JsValue::NULL, &JsValue::from_str(&wire::encode_action(a)));
    });
    let props = RootProps {
        state: Rc::new(AppState {
            pools: vec![],
            view: View::Evaluate,
            ..Default::default()
        }),
        dispatch: dispatch.clone(),
    };
    skip_page_root_ids();
    let app = yew::Renderer::<ViewsRoot>::with_root_and_props(host, props).render();
    let old = MOUNTED.with(|m| {
        m.borrow_mut().replace(Mounted {
            app,
            pools: vec![],
            dispatch,
        })
    });
    if let Some(old) = old {
        old.app.destroy();
    }
}

/// Yew numbers app roots from 1 in each wasm module and brands each DOM
/// event with the number of the root it hit; a root handles only events of
/// its own number. The page's app is root 1, so the views' root would be
/// too and both apps would run handlers for every click in the views (the
/// page's with listener ids that are not its own). Roots made and dropped
/// first give the views' root a number the page does not use.
const PAGE_ROOT_IDS: usize = 16;

#[component]
fn Nothing() -> Html {
    html! {}
}

fn skip_page_root_ids() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for _ in 0..PAGE_ROOT_IDS {
        if let Ok(el) = doc.create_element("div") {
            yew::Renderer::<Nothing>::with_root(el).render().destroy();
        }
    }
}

/// A part of pool `index` of `count` (the page sends each pool that
/// changed, in parts of a few MB, one per task: `first` and `last` mark the
/// ends). The states sent meanwhile wait for it, so the views never show a
/// pool half-sent.
pub fn set_pool_part(
    index: usize,
    count: usize,
    name: String,
    part: JsValue,
    total: usize,
    first: bool,
    last: bool,
) {
    // UTF-8 bytes (cut at character boundaries by the page), or a string.
    let text = crate::bridge::js_text::text_of_message(part);
    let done = PENDING.with(|p| {
        let mut p = p.borrow_mut();
        if first {
            p.receiving = Some((index, TextBuf::expecting(total)));
        }
        match &mut p.receiving {
            Some((i, buf)) if *i == index => buf.push_str(&text),
            _ => return false,
        }
        if last {
            if let Some((_, buf)) = p.receiving.take() {
                p.pools.push((index, count, name, buf.finish()));
            }
        }
        last
    });
    if done {
        if let Err(e) = drain() {
            web_sys::console::error_1(&JsValue::from_str(&e));
        }
    }
}

/// The state, as `wire::encode_state` sent it: the views show it.
pub fn set_state(json: &str) -> Result<(), String> {
    PENDING.with(|p| p.borrow_mut().state = Some(json.to_string()));
    drain()
}

/// What was sent and is not shown yet.
#[derive(Default)]
struct Pending {
    /// Pools converted: (index, count, name, text).
    pools: Vec<(usize, usize, String, Rc<str>)>,
    state: Option<String>,
    /// The pool coming in, (index, its text so far): the page sends a
    /// pool's parts in order, one pool after the other, and the states sent
    /// meanwhile wait for it.
    receiving: Option<(usize, TextBuf)>,
}

thread_local! {
    static PENDING: RefCell<Pending> = RefCell::default();
    static DRAINING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Show what was sent. A view's action can come back at once (the page
/// answers it while the views are still drawing): what the page sends
/// then waits for the outer call, which shows the newest when it is done.
fn drain() -> Result<(), String> {
    if DRAINING.with(|d| d.replace(true)) {
        return Ok(());
    }
    let mut result = Ok(());
    loop {
        let (pools, state) = PENDING.with(|p| {
            let mut p = p.borrow_mut();
            if p.receiving.is_some() {
                return (vec![], None);
            }
            (std::mem::take(&mut p.pools), p.state.take())
        });
        if pools.is_empty() && state.is_none() {
            break;
        }
        result = MOUNTED.with(|m| {
            let mut m = m.borrow_mut();
            let m = m.as_mut().ok_or("the views are not mounted")?;
            for (index, count, name, text) in pools {
                m.pools.resize_with(count.max(index + 1), || PoolText {
                    name: String::new(),
                    text: Rc::from(""),
                });
                m.pools.truncate(count.max(index + 1));
                m.pools[index] = PoolText { name, text };
            }
            if let Some(json) = state {
                let state = wire::decode_state(&json, &m.pools)?;
                m.app.update(RootProps {
                    state: Rc::new(state),
                    dispatch: m.dispatch.clone(),
                });
            }
            Ok(())
        });
    }
    DRAINING.with(|d| d.set(false));
    result
}
