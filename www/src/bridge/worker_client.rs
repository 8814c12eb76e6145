//! The page's side of a one-request engine worker (`worker/` answers it):
//! it sends a request, and cancels by terminating the worker (a fresh one
//! is started on the next request). The big pools' parses (`parses.rs`)
//! and the pool editor's formatting use it; the quick engine worker
//! (`engine.rs`) and the matchmaking views' session (`session_client.rs`)
//! keep theirs running.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::bridge::worker_link::{split_id, Live, READY};

type Done = Box<dyn FnOnce(Result<String, String>)>;
type Pending = Rc<RefCell<Option<(u64, Done)>>>;

/// One request at a time: a new request cancels the previous.
pub struct WorkerClient {
    live: Rc<RefCell<Option<Live>>>,
    pending: Pending,
    next_id: Cell<u64>,
    url: String,
}

impl WorkerClient {
    pub fn new(url: &str) -> WorkerClient {
        WorkerClient {
            live: Rc::new(RefCell::new(None)),
            pending: Rc::new(RefCell::new(None)),
            next_id: Cell::new(1),
            url: url.to_string(),
        }
    }

    /// Start the worker unless it runs.
    fn ensure_started(&self) -> Result<(), String> {
        if self.live.borrow().is_some() {
            return Ok(());
        }
        let (live, pending) = (self.live.clone(), self.pending.clone());
        let on_message = move |text: &str| {
            if text == READY {
                if let Some(l) = live.borrow_mut().as_mut() {
                    l.set_ready();
                }
                return;
            }
            let (id, resp) = split_id(text);
            let mut slot = pending.borrow_mut();
            if matches!(slot.as_ref(), Some((want, _)) if *want == id) {
                if let Some((_, done)) = slot.take() {
                    drop(slot);
                    done(Ok(resp.to_string()));
                }
            }
        };
        // A crash in the worker (out of memory, a panic, a failed load) must
        // not leave the page waiting forever: fail the pending request.
        let pending = self.pending.clone();
        let on_failure = move |why: String| {
            let done = pending.borrow_mut().take();
            if let Some((_, done)) = done {
                done(Err(why));
            }
        };
        // Trunk builds the worker as a classic script behind a loader shim.
        let live = Live::start(&self.url, on_message, on_failure)?;
        *self.live.borrow_mut() = Some(live);
        Ok(())
    }

    /// Send a request (see the module comment for verbs); `done` gets the
    /// answer (or an error).
    pub fn request(
        &self,
        verb: &str,
        payload: &str,
        done: impl FnOnce(Result<String, String>) + 'static,
    ) {
        self.send(format!("{verb}\n{payload}"), None, Box::new(done));
    }

    /// [`Self::request`] with a payload that is a long text (a pool's): it
    /// goes as bytes, in parts (`worker_link::Live::post_text`).
    pub fn request_text(
        &self,
        verb: &str,
        text: Rc<str>,
        done: impl FnOnce(Result<String, String>) + 'static,
    ) {
        self.send(format!("{verb}\n"), Some(text), Box::new(done));
    }

    fn send(&self, body: String, text: Option<Rc<str>>, done: Done) {
        self.cancel();
        let id = self.next_id.get() + 1;
        self.next_id.set(id);
        if let Err(e) = self.ensure_started() {
            return done(Err(e));
        }
        *self.pending.borrow_mut() = Some((id, done));
        let posted = match (self.live.borrow_mut().as_mut(), text) {
            (Some(live), None) => live.post(format!("{id}\n{body}")),
            (Some(live), Some(text)) => live.post_text(format!("{id}\n{body}"), text),
            (None, _) => Err("no engine worker".into()),
        };
        if let Err(e) = posted {
            let done = self.pending.borrow_mut().take();
            if let Some((_, done)) = done {
                done(Err(e));
            }
        }
    }

    /// Stop the worker when it is idle, giving its memory back (a wasm
    /// instance's memory never shrinks: after a 250 MB pool's parse it
    /// would keep its peak for good). The next request starts a fresh one.
    pub fn release(&self) {
        if self.pending.borrow().is_none() {
            if let Some(live) = self.live.borrow_mut().take() {
                live.terminate();
            }
        }
    }

    pub fn busy(&self) -> bool {
        self.pending.borrow().is_some()
    }

    /// Stop the running request by terminating the worker.
    pub fn cancel(&self) {
        if self.pending.borrow_mut().take().is_some() {
            if let Some(live) = self.live.borrow_mut().take() {
                live.terminate();
            }
        }
    }
}
