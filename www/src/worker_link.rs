//! A link to an engine worker, as both of the page's engine bridges use
//! it (`engine.rs` for quick work, `session_client.rs` for the matchmaking
//! sessions): the worker's messages and its failure handed to the owner,
//! and what is posted before the worker says `ready` held back until it
//! does. Requests and answers are framed `<id>\n<rest>`.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What a worker posts once its module is running and it can take requests.
pub const READY: &str = "ready";

/// A running worker.
pub struct Live {
    worker: web_sys::Worker,
    ready: bool,
    /// Messages posted before the worker said `ready`.
    queue: Vec<String>,
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
                on_message(&crate::js_text::string_of(&e.data()).unwrap_or_default());
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
            worker,
            ready,
            queue: vec![],
        }
    }

    /// Post `msg` now, or once the worker is ready.
    pub fn post(&mut self, msg: String) -> Result<(), String> {
        if !self.ready {
            self.queue.push(msg);
            return Ok(());
        }
        self.worker
            .post_message(&JsValue::from_str(&msg))
            .map_err(|e| format!("cannot reach the engine worker: {e:?}"))
    }

    /// The worker said [`READY`]: what waited goes now.
    pub fn set_ready(&mut self) {
        self.ready = true;
        for m in std::mem::take(&mut self.queue) {
            let _ = self.worker.post_message(&JsValue::from_str(&m));
        }
    }

    /// Stop the worker (whatever it was doing).
    pub fn terminate(self) {
        self.worker.terminate();
    }
}

/// A framed message's id and the rest (id 0 for a message without one).
pub fn split_id(text: &str) -> (u64, &str) {
    let (id, rest) = text.split_once('\n').unwrap_or(("0", ""));
    (id.parse().unwrap_or(0), rest)
}
