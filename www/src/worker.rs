//! The engine Web Worker: the worker side answers `classad::api` JSON
//! requests; the page side (`WorkerClient`) sends them, and cancels by
//! terminating the worker (a fresh one is started on the next request).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Worker side: install the message handler (called from the worker binary).
pub fn run_worker() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            // Envelope: "<id>\n<request json>"
            let (id, req) = text.split_once('\n').unwrap_or(("0", ""));
            let resp = classad::api::handle_json(req);
            let _ = reply_scope.post_message(&JsValue::from_str(&format!("{id}\n{resp}")));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
}

type Pending = Rc<RefCell<Option<(u64, Box<dyn FnOnce(Result<String, String>)>)>>>;

/// Page side. One request at a time: a new request cancels the previous.
pub struct WorkerClient {
    worker: RefCell<Option<web_sys::Worker>>,
    pending: Pending,
    next_id: RefCell<u64>,
    url: String,
}

impl WorkerClient {
    pub fn new(url: &str) -> WorkerClient {
        WorkerClient {
            worker: RefCell::new(None),
            pending: Rc::new(RefCell::new(None)),
            next_id: RefCell::new(1),
            url: url.to_string(),
        }
    }

    fn worker(&self) -> Result<web_sys::Worker, String> {
        if let Some(w) = self.worker.borrow().as_ref() {
            return Ok(w.clone());
        }
        // Trunk builds the worker as a classic script behind a loader shim.
        let w = web_sys::Worker::new(&self.url)
            .map_err(|e| format!("cannot start the engine worker: {e:?}"))?;
        let pending = self.pending.clone();
        let onmessage =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let text = e.data().as_string().unwrap_or_default();
                let (id, resp) = text.split_once('\n').unwrap_or(("0", ""));
                let id: u64 = id.parse().unwrap_or(0);
                let mut slot = pending.borrow_mut();
                if matches!(slot.as_ref(), Some((want, _)) if *want == id) {
                    if let Some((_, done)) = slot.take() {
                        drop(slot);
                        done(Ok(resp.to_string()));
                    }
                }
            });
        w.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        onmessage.forget();
        *self.worker.borrow_mut() = Some(w.clone());
        Ok(w)
    }

    /// Send a JSON request; `done` gets the JSON response (or an error).
    pub fn request(&self, json: String, done: impl FnOnce(Result<String, String>) + 'static) {
        self.cancel();
        let id = {
            let mut n = self.next_id.borrow_mut();
            *n += 1;
            *n
        };
        match self.worker() {
            Ok(w) => {
                *self.pending.borrow_mut() = Some((id, Box::new(done)));
                if let Err(e) = w.post_message(&JsValue::from_str(&format!("{id}\n{json}"))) {
                    if let Some((_, done)) = self.pending.borrow_mut().take() {
                        done(Err(format!("cannot reach the engine worker: {e:?}")));
                    }
                }
            }
            Err(e) => done(Err(e)),
        }
    }

    pub fn busy(&self) -> bool {
        self.pending.borrow().is_some()
    }

    /// Stop the running request by terminating the worker.
    pub fn cancel(&self) {
        if self.pending.borrow_mut().take().is_some() {
            if let Some(w) = self.worker.borrow_mut().take() {
                w.terminate();
            }
        }
    }
}
