//! The engine Web Worker: the code that runs inside the workers, and the
//! only part of the app that links the engine's evaluator, readers and
//! function library. The page sends requests through `bridge/` (a
//! `WorkerClient` or a `session_client`); `replies` turns the engine's
//! results into the page's shapes; `gallery` builds an example's state with
//! its pools, which the page never links.
//!
//! A request is `<id>\n<verb>\n<payload>`, an answer `<id>\n<answer>` (a
//! long answer as its UTF-8 bytes, a `Uint8Array`: [`post_answer`]).
//! Verbs: `api` (payload and answer are `classad::api` JSON),
//! `evaluate-text` (payload a `classad::api` `Evaluate` request without its
//! expression, a newline, then the expression as it is; the answer an
//! `answers::Evaluated`: the response and the attribute names and nested
//! records of MY and TARGET, for the pickers and the explain tree), `pool`
//! (payload is the raw pool text, so megabytes are not JSON-escaped; the
//! answer is a `pool_summary::PoolSummary` as JSON), `example` (an
//! example's id) and `unpack` (a share link's packed state), which answer a
//! state as `state::wire` writes it, and for the matchmaking
//! views, which keep pools in the worker's `classad::api::session::Session`:
//! `load` (payload `<pool id>\n<raw text>`) and `session` (payload a
//! `PoolRequest` as JSON); both answer a `PoolResponse` as JSON, except
//! cycles and clusterings, which come as the flat views of `answers`. While a
//! session request runs, the worker posts `<id>\nprogress\n<done> <total>`,
//! at most every [`PROGRESS_MS`]. A long text (a pool's) comes as bytes
//! instead, in parts of a few MB (`worker_link::Live::post_text`), each
//! `[<id>\n<verb>\n<payload head>, Uint8Array, total bytes, last?]`:
//! joined and decoded here, it is the payload's rest (`load`'s text after
//! `<pool id>\n`, `pool`'s whole text). The worker first says `ready`: its wasm
//! loads asynchronously, and a message that arrives before its handler is
//! installed would be lost. The page side of the session verbs is
//! `session_client.rs`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bridge::worker_link::READY;

pub mod gallery;
pub mod replies;
pub mod submit;

use replies::summarize;

/// Progress messages are posted at most this often: each costs the page a
/// task, and a negotiation calls back thousands of times.
pub const PROGRESS_MS: f64 = 50.0;

/// Worker side: install the message handler (called from the worker binary).
pub fn run_worker() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    // Gangmatching's `seconds` counter: the library has no clock in wasm.
    classad::gang::set_clock(|| js_sys::Date::now() / 1000.0);
    let mut session = classad::api::session::Session::new();
    let mut staged = Staged::default();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let data = e.data();
            // A text in parts (`worker_link::Live::post_text`): kept until
            // its last part, then answered as `<head><text>`.
            let (head, body) = if js_sys::Array::is_array(&data) {
                match staged.take(&data.unchecked_into()) {
                    Some(request) => request,
                    None => return,
                }
            } else {
                (
                    crate::bridge::js_text::string_of(&data).unwrap_or_default(),
                    None,
                )
            };
            let (id, rest) = head.split_once('\n').unwrap_or(("0", ""));
            let (verb, payload) = rest.split_once('\n').unwrap_or((rest, ""));
            let (verb, dialect) = crate::bridge::dialect::split_verb(verb);
            // The text sent as bytes, or what follows the verb.
            let text = |payload: &str, body: Option<String>| match body {
                Some(b) if payload.is_empty() => b,
                Some(b) => format!("{payload}{b}"),
                None => payload.to_string(),
            };
            let post = |m: String| post_answer(&reply_scope, m);
            let resp = match verb {
                "pool" => match &body {
                    Some(b) => serde_json::to_string(&summarize(b, dialect)).unwrap_or_default(),
                    None => serde_json::to_string(&summarize(payload, dialect)).unwrap_or_default(),
                },
                // A big pool's summary as lines the page reads a slice per
                // task (`pool_summary::SummaryLines`).
                "pool-lines" => {
                    crate::bridge::pool_summary::to_lines(&summarize(&text(payload, body), dialect))
                }
                "evaluate-text" => replies::evaluate_text(&text(payload, body)),
                // The gallery's pools live here, not in the page's wasm.
                "example" => crate::state::wire::write(
                    gallery::state_of(payload).ok_or_else(|| payload.to_string()),
                ),
                // The ads after the JSON (`bridge::engine::submit`); none
                // for `submit-summary` (megabytes the page would only drop).
                "submit" | "submit-summary" => serde_json::from_str::<
                    crate::bridge::submit::SubmitRequest,
                >(&text(payload, body))
                .map(|r| submit::answer(&r))
                .map(|s| {
                    let ads = if verb == "submit" { s.ads.as_str() } else { "" };
                    serde_json::to_string(&s).unwrap_or_default() + "\n" + ads
                })
                .unwrap_or_default(),
                // Share links are packed and unpacked here: the page
                // links no compression (`state::share`).
                "unpack" => crate::state::wire::write(crate::state::share::unpack(payload)),
                "pack" => {
                    let r = serde_json::from_str(&text(payload, body))
                        .map_err(|e| crate::state::share::LinkError::Worker(e.to_string()))
                        .and_then(|s| crate::state::share::encode(&s));
                    serde_json::to_string(&r).unwrap_or_default()
                }
                "load" => {
                    // `<pool id>\n<text>`; a text sent as bytes is moved
                    // into the request, not copied (it can be 250 MB).
                    let (pool, text) = match body {
                        Some(b) => (payload.trim_end_matches('\n').to_string(), b),
                        None => {
                            let (pool, b) = payload.split_once('\n').unwrap_or((payload, ""));
                            (pool.to_string(), b.to_string())
                        }
                    };
                    let req = classad::api::session::PoolRequest::LoadPool {
                        id: pool,
                        text,
                        dialect,
                    };
                    let r = session.handle_pool(req, &mut |_, _| true);
                    serde_json::to_string(&r).unwrap_or_default()
                }
                "session" => {
                    let mut last = f64::NEG_INFINITY;
                    let mut progress = |done: usize, total: usize| {
                        let now = js_sys::Date::now();
                        if now - last >= PROGRESS_MS {
                            last = now;
                            post(format!("{id}\nprogress\n{done} {total}"));
                        }
                        true
                    };
                    classad::api::session::handle_pool_json(
                        &mut session,
                        &text(payload, body),
                        &mut progress,
                    )
                }
                _ => classad::api::handle_json(&text(payload, body)),
            };
            post(format!("{id}\n{resp}"));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}

/// Post an answer: a long one (a pool's summary, a link's state) as bytes,
/// its buffer transferred: the page takes them into its memory in one copy,
/// where a JavaScript string had to be encoded again (28 ms of the page's
/// time for a link's 3.9 MB state).
fn post_answer(scope: &web_sys::DedicatedWorkerGlobalScope, m: String) {
    if m.len() < crate::bridge::worker_link::BYTES_FROM {
        let _ = scope.post_message(&JsValue::from_str(&m));
        return;
    }
    let bytes = js_sys::Uint8Array::from(m.as_bytes());
    drop(m);
    let _ = scope.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
}

/// A text coming in parts, as `worker_link::Live::post_text` sends it:
/// each part is `[head, bytes, total, last]`; the bytes are joined here (room
/// for `total` made at the first part) and decoded at the last.
#[derive(Default)]
struct Staged {
    bytes: Vec<u8>,
}

impl Staged {
    /// Take a part; at the last one, the request: its head and its text.
    fn take(&mut self, part: &js_sys::Array) -> Option<(String, Option<String>)> {
        let bytes: js_sys::Uint8Array = part.get(1).dyn_into().ok()?;
        if self.bytes.is_empty() {
            let total = part.get(2).as_f64().unwrap_or(0.0) as usize;
            self.bytes = Vec::with_capacity(total.max(bytes.length() as usize));
        }
        let at = self.bytes.len();
        self.bytes.resize(at + bytes.length() as usize, 0);
        bytes.copy_to(&mut self.bytes[at..]);
        if !part.get(3).as_bool().unwrap_or(true) {
            return None;
        }
        let head = part.get(0).as_string().unwrap_or_default();
        let bytes = std::mem::take(&mut self.bytes);
        // The page's own text, so UTF-8 (a leading U+FEFF is text here,
        // not a byte-order mark: spans must stay the page's).
        let text = crate::bridge::js_text::utf8_lossy(bytes);
        Some((head, Some(text)))
    }
}
