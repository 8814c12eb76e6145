//! The page's door to the engine for quick work: evaluation as you type,
//! the parse of a small pool, formatting a small pool. The page links no
//! evaluator, reader or function library: every request goes to a Web
//! Worker of its own (`worker/` answers it), started with the page so it
//! is warm by the time the first value is wanted.
//!
//! This worker is not the one the matchmaking views use
//! (`session_client.rs`): a 4,000,000-pair matrix count or a gang
//! comparison runs there for minutes, and a keystroke's evaluation must
//! never wait behind it. Big pools are parsed and formatted by workers of
//! their own too (`parses.rs`, `pool_editor.rs`), which can be stopped.
//!
//! Requests carry a key (`eval`, `pool 0`, …): per key the newest request
//! wins. While one is under way, a newer one waits (replacing any older
//! one waiting) and the answer to the older is dropped, so typing never
//! piles up work and a stale answer never shows. A worker failure fails
//! every request waiting, with the worker's own message; the next request
//! starts a fresh worker.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use classad::api::{Request, Response};

use crate::state::app_state::AppState;
use crate::state::share::LinkError;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bridge::worker_link::{split_id, Live, READY};

/// Inputs larger than this are parsed (and formatted) in a worker of their
/// own, debounced, with progress and Stop.
pub const WORKER_THRESHOLD_BYTES: usize = 256 * 1024;

const URL: &str = "./engine-worker_loader.js";

type Done = Box<dyn FnOnce(Result<&str, String>)>;

/// A request's text: `<verb>\n<payload>`, and a long text sent after it as
/// bytes ([`Live::post_text`]) when there is one.
struct Body {
    head: String,
    text: Option<Rc<str>>,
}

#[derive(Default)]
struct Inner {
    live: Option<Live>,
    next_id: u64,
    /// Requests sent: id → (key, done).
    sent: BTreeMap<u64, (String, Done)>,
    /// Per key, the newest request waiting for the one sent to answer.
    waiting: BTreeMap<String, (Body, Done)>,
}

impl Inner {
    fn in_flight(&self, key: &str) -> bool {
        self.sent.values().any(|(k, _)| k == key)
    }
}

thread_local! {
    static INNER: Rc<RefCell<Inner>> = Rc::new(RefCell::new(Inner::default()));
}

fn inner() -> Rc<RefCell<Inner>> {
    INNER.with(Rc::clone)
}

/// Start the worker now (at page start: its wasm loads while the page's
/// does).
pub fn warm_up() {
    let inner = inner();
    let mut st = inner.borrow_mut();
    if let Err(e) = start(&inner, &mut st) {
        web_sys::console::error_1(&JsValue::from_str(&e));
    }
}

/// The worker index.html started before the page's wasm loaded, if it is
/// there and well: (the worker, whether it said `ready`). Taken once.
fn early_worker() -> Option<(web_sys::Worker, bool)> {
    let window = web_sys::window()?;
    let key = JsValue::from_str("__engineWorker");
    let early = js_sys::Reflect::get(&window, &key).ok()?;
    if early.is_undefined() || early.is_null() {
        return None;
    }
    let _ = js_sys::Reflect::delete_property(window.unchecked_ref::<js_sys::Object>(), &key);
    let flag = |k: &str| {
        js_sys::Reflect::get(&early, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    };
    let worker = js_sys::Reflect::get(&early, &JsValue::from_str("worker"))
        .ok()?
        .dyn_into::<web_sys::Worker>()
        .ok()?;
    if flag("failed") {
        worker.terminate();
        return None;
    }
    Some((worker, flag("ready")))
}

fn start(inner: &Rc<RefCell<Inner>>, st: &mut Inner) -> Result<(), String> {
    if st.live.is_some() {
        return Ok(());
    }
    let (i1, i2) = (inner.clone(), inner.clone());
    let on_message = move |text: &str| on_message(&i1, text);
    let on_failure = move |why: String| fail_all(&i2, &why);
    // No message can arrive between reading `ready` and installing the
    // handlers: the page's code runs to the end first.
    st.live = Some(match early_worker() {
        Some((worker, ready)) => Live::attach(worker, ready, on_message, on_failure),
        None => Live::start(URL, on_message, on_failure)?,
    });
    Ok(())
}

/// Terminate the worker and fail everything waiting (no borrow held while
/// the callbacks run).
fn fail_all(inner: &Rc<RefCell<Inner>>, why: &str) {
    let (sent, waiting) = {
        let mut st = inner.borrow_mut();
        if let Some(live) = st.live.take() {
            live.terminate();
        }
        (
            std::mem::take(&mut st.sent),
            std::mem::take(&mut st.waiting),
        )
    };
    for (_, (_, done)) in sent {
        done(Err(why.to_string()));
    }
    for (_, (_, done)) in waiting {
        done(Err(why.to_string()));
    }
}

fn post(inner: &Rc<RefCell<Inner>>, key: String, body: Body, done: Done) {
    let failed: Option<(String, Done)> = {
        let mut st = inner.borrow_mut();
        match start(inner, &mut st) {
            Err(e) => Some((e, done)),
            Ok(()) => {
                st.next_id += 1;
                let id = st.next_id;
                let head = format!("{id}\n{}", body.head);
                let posted = st.live.as_mut().map(|l| match body.text {
                    Some(text) => l.post_text(head, text),
                    None => l.post(head),
                });
                match posted {
                    None => Some(("no engine worker".to_string(), done)),
                    Some(Err(e)) => Some((e, done)),
                    Some(Ok(())) => {
                        st.sent.insert(id, (key, done));
                        None
                    }
                }
            }
        }
    };
    if let Some((e, done)) = failed {
        done(Err(e));
    }
}

fn on_message(inner: &Rc<RefCell<Inner>>, text: &str) {
    if text == READY {
        let mut st = inner.borrow_mut();
        if let Some(live) = st.live.as_mut() {
            live.set_ready();
        }
        return;
    }
    let (id, rest) = split_id(text);
    if rest.starts_with("progress\n") {
        return;
    }
    let (answered, next) = {
        let mut st = inner.borrow_mut();
        let Some((key, done)) = st.sent.remove(&id) else {
            return;
        };
        let next = st.waiting.remove(&key).map(|n| (key.clone(), n));
        (done, next)
    };
    match next {
        // A newer request of the same key: this answer is stale.
        Some((key, (body, done))) => {
            drop(answered);
            post(inner, key, body, done);
        }
        None => answered(Ok(rest)),
    }
}

/// Send `<verb>\n<payload>` under `key` (see the module comment); `done`
/// gets the answer's text, or why there is none. A request replaced by a
/// newer one of its key is dropped without an answer.
pub fn request(
    key: &str,
    verb: &str,
    payload: &str,
    done: impl FnOnce(Result<&str, String>) + 'static,
) {
    send(key, format!("{verb}\n{payload}"), None, Box::new(done));
}

/// [`request`] with a long text after the payload (`<verb>\n<payload>` then
/// `text`, joined by the worker): the text crosses as bytes, in parts, one
/// per task, never escaped into JSON or made a JavaScript string on the
/// page (a pasted expression of 26.6 MB held the page 200 ms that way).
pub fn request_with_text(
    key: &str,
    verb: &str,
    payload: &str,
    text: Rc<str>,
    done: impl FnOnce(Result<&str, String>) + 'static,
) {
    send(
        key,
        format!("{verb}\n{payload}"),
        Some(text),
        Box::new(done),
    );
}

fn send(key: &str, head: String, text: Option<Rc<str>>, done: Done) {
    let inner = inner();
    let body = Body { head, text };
    {
        let mut st = inner.borrow_mut();
        if st.in_flight(key) {
            st.waiting.insert(key.to_string(), (body, done));
            return;
        }
    }
    post(&inner, key.to_string(), body, done);
}

/// A gallery example's state, as the worker builds it: the page does not
/// link the examples' pools (most of their bytes), only their cards.
pub fn example(id: &str, done: impl FnOnce(Result<AppState, String>) + 'static) {
    let name = id.to_string();
    request("example", "example", id, move |r| {
        done(
            r.and_then(crate::state::wire::read::<String>)
                .and_then(|r| {
                    r.map_err(|_| {
                        format!(
                            "There is no example called \u{201c}{name}\u{201d}; showing your own work."
                        )
                    })
                }),
        )
    });
}

/// The worker's JSON answer read as `T`, or why there is none.
fn read_answer<T: serde::de::DeserializeOwned>(r: Result<&str, String>) -> Result<T, String> {
    r.and_then(|j| {
        serde_json::from_str(j)
            .map_err(|e| format!("unreadable answer from the engine worker: {e}"))
    })
}

/// A share link's state (`s=…`), unpacked by the worker: the page links
/// no inflating.
pub fn unpack(packed: &str, done: impl FnOnce(Result<AppState, LinkError>) + 'static) {
    request("link", "unpack", packed, move |r| {
        done(
            r.and_then(crate::state::wire::read)
                .map_err(LinkError::Worker)
                .and_then(|x| x),
        )
    });
}

/// A share link's fragment for `state`, packed by the worker, or why no
/// link can carry it.
pub fn pack(state: &AppState, done: impl FnOnce(Result<String, LinkError>) + 'static) {
    let json = serde_json::to_string(state).unwrap_or_default();
    request("pack", "pack", &json, move |r| {
        done(read_answer(r).map_err(LinkError::Worker).and_then(|x| x))
    });
}

/// A submit file's job ads, made by the worker (`with_ads`: else only the
/// summary, problems and what each line made: the ads of 2,000 procs are
/// 9 MB, a 100 ms task to take in).
pub fn submit(
    req: &crate::bridge::submit::SubmitRequest,
    with_ads: bool,
    done: Box<dyn FnOnce(Result<crate::bridge::submit::Submitted, String>)>,
) {
    let json = serde_json::to_string(req).unwrap_or_default();
    let verb = if with_ads { "submit" } else { "submit-summary" };
    // `<JSON>\n<the job ads>`: megabytes of ads are not read as JSON.
    request(verb, verb, &json, move |r| {
        let (head, ads) = match r {
            Ok(t) => {
                let (h, a) = t.split_once('\n').unwrap_or((t, ""));
                (Ok(h), a)
            }
            Err(e) => (Err(e), ""),
        };
        done(
            read_answer(head).map(|mut s: crate::bridge::submit::Submitted| {
                s.ads = ads.to_string();
                s
            }),
        )
    });
}

/// An engine API request (`classad::api`), answered as its `Response`.
pub fn call(key: &str, req: &Request, done: impl FnOnce(Result<Response, String>) + 'static) {
    let json = serde_json::to_string(req).unwrap_or_default();
    request(key, "api", &json, move |r| done(read_answer(r)));
}
