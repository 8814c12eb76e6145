//! A link to an engine worker, as both of the page's engine bridges use
//! it (`engine.rs` for quick work, `session_client.rs` for the matchmaking
//! sessions): the worker's messages and its failure handed to the owner,
//! and what is posted before the worker says `ready` held back until it
//! does. Requests and answers are framed `<id>\n<rest>`; a request that
//! carries a pool's text sends the text as bytes, in parts, one per task
//! ([`Live::post_text`]), and everything posted keeps its order.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What a worker posts once its module is running and it can take requests.
pub const READY: &str = "ready";

/// Texts at least this long go to a worker as bytes (see
/// [`Live::post_text`]); shorter ones as a JavaScript string.
pub const BYTES_FROM: usize = 64 * 1024;

/// A text crosses to a worker in parts of this many bytes, one part per
/// task: copying a part out of wasm memory takes a few ms, so the page
/// never blocks for long, even on a 250 MB pool.
pub const PART_BYTES: usize = 8 << 20;

/// A message waiting to be posted.
enum Out {
    Text(String),
    /// `head` and then `text` as bytes, in parts (see the module comment
    /// of `worker/`): the part starting at `from` goes next.
    Bytes {
        head: String,
        text: Rc<str>,
        from: usize,
    },
}

/// What a link posts, in order.
struct Outbox {
    worker: web_sys::Worker,
    ready: bool,
    queue: VecDeque<Out>,
    /// A task is posting the queue (parts of a text go one per task).
    pumping: bool,
    /// Terminated: nothing more is posted.
    dead: bool,
}

/// A running worker.
pub struct Live {
    out: Rc<RefCell<Outbox>>,
}

impl Live {
    /// Start a worker from `url`.
    pub fn start(
        url: &str,
        on_message: impl FnMut(&str) + 'static,
        on_failure: impl FnMut(String) + 'static,
    ) -> Result<Live, String> {
        let worker = web_sys::Worker::new(url)
            .map_err(|e| format!("cannot start the engine worker: {e:?}"))?;
        Ok(Live::attach(worker, false, on_message, on_failure))
    }

    /// Listen to `worker` (`ready`: it has said so already): each message's
    /// text goes to `on_message`; a crash (out of memory, a panic) to
    /// `on_failure` as a sentence, the worker's own message when it has
    /// one. The owner calls [`Live::set_ready`] on [`READY`].
    pub fn attach(
        worker: web_sys::Worker,
        ready: bool,
        mut on_message: impl FnMut(&str) + 'static,
        mut on_failure: impl FnMut(String) + 'static,
    ) -> Live {
        let onmessage =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                on_message(&crate::bridge::js_text::text_of_message(e.data()));
            });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        onmessage.forget();
        let onerror = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            let why = e
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .map_or_else(
                    || "the engine worker stopped (out of memory?)".to_string(),
                    |m| format!("the engine worker failed: {m}"),
                );
            web_sys::console::error_1(&JsValue::from_str(&why));
            on_failure(why);
        });
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        onerror.forget();
        Live {
            out: Rc::new(RefCell::new(Outbox {
                worker,
                ready,
                queue: VecDeque::new(),
                pumping: false,
                dead: false,
            })),
        }
    }

    /// Post `msg` once the worker is ready and what was posted before it
    /// has gone (a text in parts takes several tasks).
    pub fn post(&mut self, msg: String) -> Result<(), String> {
        self.out.borrow_mut().queue.push_back(Out::Text(msg));
        pump(&self.out)
    }

    /// Post `head` followed by `text`: a short text in the same string, a
    /// long one as bytes in parts of [`PART_BYTES`] (copied out of wasm
    /// memory and transferred, never made a JavaScript string), one part
    /// per task; the worker joins them and decodes the text
    /// (`worker::Staged`).
    pub fn post_text(&mut self, head: String, text: Rc<str>) -> Result<(), String> {
        if text.len() < BYTES_FROM {
            return self.post(head + &text);
        }
        self.out.borrow_mut().queue.push_back(Out::Bytes {
            head,
            text,
            from: 0,
        });
        pump(&self.out)
    }

    /// The worker said [`READY`]: what waited goes now.
    pub fn set_ready(&mut self) {
        self.out.borrow_mut().ready = true;
        if let Err(e) = pump(&self.out) {
            web_sys::console::error_1(&JsValue::from_str(&e));
        }
    }

    /// Stop the worker (whatever it was doing).
    pub fn terminate(self) {
        let mut o = self.out.borrow_mut();
        o.dead = true;
        o.queue.clear();
        o.worker.terminate();
    }
}

/// Post what waits, in order, until a part of a text has gone: the rest
/// follows in the next task.
fn pump(out: &Rc<RefCell<Outbox>>) -> Result<(), String> {
    {
        let mut o = out.borrow_mut();
        if o.pumping || o.dead || !o.ready {
            return Ok(());
        }
        o.pumping = true;
    }
    let r = pump_some(out);
    if r.is_err() {
        out.borrow_mut().pumping = false;
    }
    r
}

fn pump_some(out: &Rc<RefCell<Outbox>>) -> Result<(), String> {
    let fail = |e: JsValue| format!("cannot reach the engine worker: {e:?}");
    let mut o = out.borrow_mut();
    loop {
        if o.dead || !o.ready {
            o.pumping = false;
            return Ok(());
        }
        match o.queue.pop_front() {
            None => {
                o.pumping = false;
                return Ok(());
            }
            Some(Out::Text(m)) => o
                .worker
                .post_message(&JsValue::from_str(&m))
                .map_err(fail)?,
            Some(Out::Bytes { head, text, from }) => {
                let to = (from + PART_BYTES).min(text.len());
                let part = js_sys::Uint8Array::from(&text.as_bytes()[from..to]);
                let last = to >= text.len();
                // [head, bytes, total, last]: the first part tells the
                // worker how much to make room for.
                let msg = js_sys::Array::of4(
                    &JsValue::from_str(&head),
                    &part,
                    &JsValue::from_f64(text.len() as f64),
                    &JsValue::from_bool(last),
                );
                o.worker
                    .post_message_with_transfer(&msg, &js_sys::Array::of1(&part.buffer()))
                    .map_err(fail)?;
                if !last {
                    o.queue.push_front(Out::Bytes {
                        head,
                        text,
                        from: to,
                    });
                    drop(o);
                    let out = out.clone();
                    gloo_timers::callback::Timeout::new(0, move || {
                        if let Err(e) = pump_some(&out) {
                            out.borrow_mut().pumping = false;
                            web_sys::console::error_1(&JsValue::from_str(&e));
                        }
                    })
                    .forget();
                    return Ok(());
                }
            }
        }
    }
}

/// A framed message's id and the rest (id 0 for a message without one).
pub fn split_id(text: &str) -> (u64, &str) {
    let (id, rest) = text.split_once('\n').unwrap_or(("0", ""));
    (id.parse().unwrap_or(0), rest)
}
