//! The page's side of the views module: the element the views live in,
//! loading the module (`views.js`, `views_bg.wasm`, built by trunk from
//! `bin/views.rs` like the worker) when a view of it is first wanted, or a
//! moment after the page has settled so that a later click finds it ready,
//! and feeding it the state as it changes.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::wire;
use crate::state::actions::Action;
use crate::state::app_state::{same_text, AppState};

const SCRIPT: &str = "./views.js";
const WASM: &str = "./views_bg.wasm";
/// After this long on a page that needs no view of the module, it loads
/// anyway (off the critical path of the first value).
const PREFETCH_MS: u32 = 1500;

/// The module's exports (`mount`, `set_pool_part`, `set_state`), once loaded.
#[derive(Clone)]
struct Module(JsValue);

impl Module {
    fn call(&self, name: &str, args: &[&JsValue]) -> Result<(), String> {
        let f: js_sys::Function = js_sys::Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| format!("the views module has no {name}"))?;
        let args: js_sys::Array = args.iter().copied().collect();
        f.apply(&JsValue::NULL, &args)
            .map(|_| ())
            .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
    }
}

type Waiter = Box<dyn FnOnce(Result<Module, String>)>;

enum Load {
    Idle,
    Loading(Vec<Waiter>),
    Ready(Module),
    Failed(String),
}

thread_local! {
    static LOAD: RefCell<Load> = const { RefCell::new(Load::Idle) };
}

/// Load the module once; `done` gets it (or why it could not load).
fn with_module(done: impl FnOnce(Result<Module, String>) + 'static) {
    let start = LOAD.with(|l| {
        let mut l = l.borrow_mut();
        match &mut *l {
            Load::Ready(m) => {
                let m = m.clone();
                drop(l);
                done(Ok(m));
                false
            }
            Load::Failed(e) => {
                let e = e.clone();
                drop(l);
                done(Err(e));
                false
            }
            Load::Loading(w) => {
                w.push(Box::new(done));
                false
            }
            Load::Idle => {
                *l = Load::Loading(vec![Box::new(done)]);
                true
            }
        }
    });
    if start {
        start_loading();
    }
}

fn finish(r: Result<Module, String>) {
    let waiters = LOAD.with(|l| {
        let next = match &r {
            Ok(m) => Load::Ready(m.clone()),
            Err(e) => Load::Failed(e.clone()),
        };
        match std::mem::replace(&mut *l.borrow_mut(), next) {
            Load::Loading(w) => w,
            _ => vec![],
        }
    });
    for w in waiters {
        w(r.clone());
    }
}

fn start_loading() {
    let fail = |what: &str| {
        finish(Err(format!(
            "The view could not be loaded ({what}); reload the page to try again."
        )))
    };
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return fail("no document");
    };
    let Ok(script) = doc.create_element("script") else {
        return fail("no script element");
    };
    let _ = script.set_attribute("src", SCRIPT);
    // The listeners live until the script has loaded or failed.
    let held: Rc<RefCell<Vec<EventListener>>> = Rc::default();
    let on_load = {
        let held = held.clone();
        EventListener::once(&script, "load", move |_| {
            held.borrow_mut().clear();
            wasm_bindgen_futures::spawn_local(async {
                finish(init().await);
            });
        })
    };
    let on_error = {
        let held = held.clone();
        EventListener::once(&script, "error", move |_| {
            held.borrow_mut().clear();
            finish(Err(format!(
                "The view could not be loaded ({SCRIPT} did not load); reload the page to try again."
            )));
        })
    };
    held.borrow_mut().extend([on_load, on_error]);
    match doc.body() {
        Some(b) if b.append_child(&script).is_ok() => {}
        _ => fail("the script could not be added"),
    }
}

/// Run the glue's initializer (wasm-bindgen's no-modules `wasm_bindgen`).
async fn init() -> Result<Module, String> {
    // A top-level `let` of a classic script: global, but not a property of
    // `window`; a function body made here sees it.
    let glue = js_sys::Function::new_no_args(
        "return typeof wasm_bindgen === 'undefined' ? undefined : wasm_bindgen",
    )
    .call0(&JsValue::NULL)
    .map_err(|_| "views.js defined no wasm_bindgen".to_string())?;
    let init: js_sys::Function = glue
        .clone()
        .dyn_into()
        .map_err(|_| "views.js defined no wasm_bindgen".to_string())?;
    let arg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(
        &arg,
        &JsValue::from_str("module_or_path"),
        &JsValue::from_str(WASM),
    );
    let promise: js_sys::Promise = init
        .call1(&JsValue::NULL, &arg)
        .map_err(|e| format!("the views module did not start: {e:?}"))?
        .dyn_into()
        .map_err(|_| "the views module did not start".to_string())?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| {
            format!(
                "the views module did not start: {}",
                e.as_string().unwrap_or_else(|| format!("{e:?}"))
            )
        })?;
    Ok(Module(glue))
}

/// What the host sends the module, in order.
enum Message {
    /// A pool that changed (index, how many pools there are, name, text).
    Pool {
        index: usize,
        count: usize,
        name: String,
        text: Rc<str>,
        /// Where the part still to send starts.
        from: usize,
    },
    /// The state without its pools (`wire::encode_state`).
    State(String),
}

thread_local! {
    /// Messages not sent yet, and whether a task is sending them.
    static OUTBOX: RefCell<(std::collections::VecDeque<Message>, bool)> = RefCell::default();
}

/// Send `messages` after those already waiting, in order. A pool's text
/// is copied on the way (as bytes, a part per task: see [`PART_BYTES`]).
fn send(m: Module, messages: Vec<Message>, on_error: impl Fn(String) + 'static) {
    let start = OUTBOX.with(|o| {
        let mut o = o.borrow_mut();
        o.0.extend(messages);
        !std::mem::replace(&mut o.1, true)
    });
    if start {
        pump(m, Rc::new(on_error));
    }
}

/// A pool crosses in parts of this many bytes (at most), one per task:
/// making a 36 MB text a JavaScript string in one go took 50-70 ms; parts
/// are bytes now (copied, validated and appended in the module: a few ms
/// each).
const PART_BYTES: usize = 8 << 20;

fn pump(m: Module, on_error: Rc<dyn Fn(String)>) {
    loop {
        let Some(next) = OUTBOX.with(|o| o.borrow_mut().0.pop_front()) else {
            OUTBOX.with(|o| o.borrow_mut().1 = false);
            return;
        };
        // A part of a pool is a task's work: what follows waits for the
        // next task (the pool's next part first).
        let (r, part_sent) = match next {
            Message::Pool {
                index,
                count,
                name,
                text,
                from,
            } => {
                let mut to = (from + PART_BYTES).min(text.len());
                while !text.is_char_boundary(to) {
                    to -= 1;
                }
                let r = m.call(
                    "set_pool_part",
                    &[
                        &JsValue::from(index as u32),
                        &JsValue::from(count as u32),
                        &JsValue::from_str(&name),
                        // Bytes, not a JavaScript string: one copy out of
                        // wasm memory, and another into the module's.
                        &js_sys::Uint8Array::from(text[from..to].as_bytes()),
                        &JsValue::from(text.len() as f64),
                        &JsValue::from(from == 0),
                        &JsValue::from(to == text.len()),
                    ],
                );
                if to < text.len() {
                    let rest = Message::Pool {
                        index,
                        count,
                        name,
                        text,
                        from: to,
                    };
                    OUTBOX.with(|o| o.borrow_mut().0.push_front(rest));
                }
                (r, true)
            }
            Message::State(json) => (m.call("set_state", &[&JsValue::from_str(&json)]), false),
        };
        if let Err(e) = r {
            on_error(e);
        }
        if part_sent && OUTBOX.with(|o| !o.borrow().0.is_empty()) {
            let m = m.clone();
            Timeout::new(0, move || pump(m, on_error)).forget();
            return;
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct HostProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
}

/// What the host last sent the module.
#[derive(Default)]
struct Sent {
    /// The pools' texts (by pointer) and names.
    pools: Vec<(Rc<str>, String)>,
    /// A view of the module was shown.
    shown: bool,
}

#[component]
pub fn ViewsHost(props: &HostProps) -> Html {
    let state = props.state.clone();
    let shown = state.view.is_lazy_loaded();
    let root = use_node_ref();
    let module = use_state(|| None::<Result<Module, String>>);
    // The views' actions reach the dispatch of the newest render.
    let dispatch = use_mut_ref(|| props.dispatch.clone());
    *dispatch.borrow_mut() = props.dispatch.clone();
    // Load when a view is wanted, else a moment after the page settled.
    {
        let (module, root, dispatch) = (module.clone(), root.clone(), dispatch.clone());
        let prefetch = use_mut_ref(|| None::<Timeout>);
        use_effect_with(shown, move |&shown| {
            let load = move || {
                if module.is_some() {
                    return;
                }
                with_module(move |r| {
                    let r = r.and_then(|m| {
                        let host = root
                            .cast::<web_sys::Element>()
                            .ok_or("the views have no place on the page")?;
                        let on_action = Closure::<dyn Fn(String)>::new(move |json: String| {
                            match wire::decode_action(&json) {
                                Ok(a) => dispatch.borrow().emit(a),
                                Err(e) => web_sys::console::error_1(&JsValue::from_str(&e)),
                            }
                        });
                        let f: js_sys::Function = on_action
                            .as_ref()
                            .unchecked_ref::<js_sys::Function>()
                            .clone();
                        // The views live as long as the page.
                        on_action.forget();
                        m.call("mount", &[host.as_ref(), f.as_ref()])?;
                        Ok(m)
                    });
                    module.set(Some(r));
                });
            };
            if shown {
                *prefetch.borrow_mut() = None;
                load();
            } else if prefetch.borrow().is_none() {
                *prefetch.borrow_mut() = Some(Timeout::new(PREFETCH_MS, load));
            }
        });
    }
    // Feed the module: the pools when they change, the state on every
    // change while a view of it is shown (and once more on leaving, so the
    // view there stops).
    {
        let sent = use_mut_ref(Sent::default);
        let ready = match &*module {
            Some(Ok(m)) => Some(m.clone()),
            _ => None,
        };
        let error = use_state(|| None::<String>);
        let err = error.clone();
        use_effect_with((state.clone(), ready.is_some()), move |(state, _)| {
            let Some(m) = ready else { return };
            let mut sent = sent.borrow_mut();
            let shown = state.view.is_lazy_loaded();
            if !shown && !sent.shown {
                return;
            }
            let mut out: Vec<Message> = vec![];
            if shown {
                let pools: Vec<(Rc<str>, String)> = state
                    .pools
                    .iter()
                    .map(|p| (p.text.clone(), p.name.clone()))
                    .collect();
                for (i, (text, name)) in pools.iter().enumerate() {
                    // The last one goes whenever the count changed: it
                    // carries the count.
                    let unchanged = sent
                        .pools
                        .get(i)
                        .is_some_and(|(t, n)| same_text(t, text) && n == name)
                        && !(i + 1 == pools.len() && pools.len() != sent.pools.len());
                    if !unchanged {
                        out.push(Message::Pool {
                            index: i,
                            count: pools.len(),
                            name: name.clone(),
                            text: text.clone(),
                            from: 0,
                        });
                    }
                }
                sent.pools = pools;
            }
            out.push(Message::State(wire::encode_state(state)));
            sent.shown = shown;
            // Sending can bring a view's action back, and this effect with it.
            drop(sent);
            let err = err.clone();
            send(m, out, move |e| err.set(Some(e)));
        });
        let failure = match &*module {
            Some(Err(e)) => Some(e.clone()),
            _ => (*error).clone(),
        };
        html! {
            <div class="views-host" hidden={!shown}>
                if shown && module.is_none() {
                    <p class="views-loading" role="status">{ "Loading the view…" }</p>
                }
                if let Some(e) = failure.filter(|_| shown) {
                    <p class="notice" role="alert">{ e }</p>
                }
                <div class="views-root" ref={root}></div>
            </div>
        }
    }
}
