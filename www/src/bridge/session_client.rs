//! The page side of the matchmaking worker: a worker whose engine
//! `Session` keeps the pools parsed, so a window of the match matrix does
//! not re-send a 10 MB pool. Requests are answered in order; several may be
//! waiting at once (unlike `worker_client::WorkerClient`, which keeps one).
//!
//! A pool is (re)loaded when its text differs from what the worker holds,
//! by index: the worker knows pool `i` as `p<i>`. Cancel terminates the
//! worker (its engine cannot be interrupted); everything waiting fails with
//! [`CANCELLED`]. Pools that were loaded stay "ready" for the page (their
//! labels are still right) and are sent again with the next request that
//! needs them, so callers never see the restart.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use classad::api::session::{PoolRequest, Unanswered, UnansweredKind};
use serde::de::DeserializeOwned;
use yew::Callback;

use crate::bridge::worker_link::{split_id, Live, READY};
use crate::state::app_state::same_text;

/// The error a cancelled request gets.
pub const CANCELLED: &str = "cancelled";

/// A pool as the worker's session holds it.
#[derive(Debug, PartialEq)]
pub struct PoolInfo {
    pub ads: usize,
    /// The ads' labels (jobs: `ClusterId.ProcId`; machines: `Name`).
    pub labels: Vec<String>,
    pub errors: usize,
    /// The first error, `line:column: message`, when there is one.
    pub first_error: Option<String>,
    /// Functions the pool defines (a `MyType = "Functions"` ad).
    pub functions: Vec<String>,
}

#[derive(Clone, Debug)]
pub enum PoolLoad {
    Loading,
    Ready(Rc<PoolInfo>),
    Failed(String),
}

impl PartialEq for PoolLoad {
    fn eq(&self, o: &Self) -> bool {
        match (self, o) {
            (PoolLoad::Loading, PoolLoad::Loading) => true,
            (PoolLoad::Ready(a), PoolLoad::Ready(b)) => Rc::ptr_eq(a, b),
            (PoolLoad::Failed(a), PoolLoad::Failed(b)) => a == b,
            _ => false,
        }
    }
}

/// Gets the answer's text (borrowed: answers can be megabytes).
type Done = Box<dyn for<'a> FnOnce(Result<&'a str, String>)>;

struct Pending {
    done: Done,
    progress: Option<Callback<(usize, usize)>>,
}

struct Slot {
    text: Rc<str>,
    /// The syntax it was read in (`bridge::dialect`).
    dialect: classad::api::Dialect,
    load: PoolLoad,
    /// The present worker has it (false after a restart).
    in_worker: bool,
}

impl Slot {
    /// It holds this text, read in the page's present syntax.
    fn holds(&self, text: &Rc<str>) -> bool {
        same_text(&self.text, text) && self.dialect == crate::bridge::dialect::current()
    }
}

#[derive(Default)]
struct Inner {
    live: Option<Live>,
    pending: BTreeMap<u64, Pending>,
    next_id: u64,
    /// Per pool index, the text the worker holds (or is loading).
    slots: Vec<Option<Slot>>,
    /// Texts whose load the user cancelled: not reloaded on their own.
    cancelled: Vec<Rc<str>>,
}

pub struct SessionClient {
    url: String,
    inner: Rc<RefCell<Inner>>,
    /// Told whenever a pool's load state changes.
    on_change: Callback<()>,
}

impl SessionClient {
    pub fn new(url: &str, on_change: Callback<()>) -> SessionClient {
        SessionClient {
            url: url.to_string(),
            inner: Rc::new(RefCell::new(Inner::default())),
            on_change,
        }
    }

    /// Post `head` and then `text` (if any) to the worker, started if
    /// needed; a long text goes as bytes (`Live::post_text`).
    fn post(&self, head: String, text: Option<Rc<str>>) -> Result<(), String> {
        let mut st = self.inner.borrow_mut();
        if st.live.is_none() {
            st.live = Some(self.start()?);
        }
        match (st.live.as_mut(), text) {
            (Some(live), None) => live.post(head),
            (Some(live), Some(text)) => live.post_text(head, text),
            (None, _) => Err("no worker".into()),
        }
    }

    fn start(&self) -> Result<Live, String> {
        let inner = self.inner.clone();
        let on_message = move |text: &str| on_message(&inner, text);
        // A crash fails everything waiting; the next request starts afresh.
        let inner = self.inner.clone();
        let on_change = self.on_change.clone();
        let on_failure = move |why: String| {
            let waiting = reset(&inner, Stop::Failed(why.clone()));
            for p in waiting {
                (p.done)(Err(why.clone()));
            }
            on_change.emit(());
        };
        Live::start(&self.url, on_message, on_failure)
    }

    fn send(
        &self,
        verb: &str,
        payload: &str,
        progress: Option<Callback<(usize, usize)>>,
        done: Done,
    ) {
        self.send_text(verb, payload, None, progress, done);
    }

    /// [`Self::send`] with a payload of `head` and then `text`: a pool's
    /// text is tens or hundreds of MB, so it is never copied into a message
    /// string (it goes as bytes, in parts).
    fn send_text(
        &self,
        verb: &str,
        head: &str,
        text: Option<Rc<str>>,
        progress: Option<Callback<(usize, usize)>>,
        done: Done,
    ) {
        let id = {
            let mut st = self.inner.borrow_mut();
            st.next_id += 1;
            let id = st.next_id;
            st.pending.insert(id, Pending { done, progress });
            id
        };
        if let Err(e) = self.post(format!("{id}\n{verb}\n{head}"), text) {
            let p = self.inner.borrow_mut().pending.remove(&id);
            if let Some(p) = p {
                (p.done)(Err(e));
            }
        }
    }

    /// What the worker has of pool `index` with this text.
    pub fn status(&self, index: usize, text: &Rc<str>) -> Option<PoolLoad> {
        let st = self.inner.borrow();
        match st.slots.get(index) {
            Some(Some(s)) if s.holds(text) => Some(s.load.clone()),
            _ => None,
        }
    }

    /// Load pool `index` unless the worker has (or is loading) this text.
    /// `auto`: a load nobody asked for: skipped for a text whose load the
    /// user cancelled, and for one loaded before a restart (it is sent
    /// again when a request needs it).
    pub fn ensure(&self, index: usize, text: &Rc<str>, auto: bool) {
        {
            let mut st = self.inner.borrow_mut();
            if auto && st.cancelled.iter().any(|c| same_text(c, text)) {
                return;
            }
            st.cancelled.retain(|c| !same_text(c, text));
            if st.slots.len() <= index {
                st.slots.resize_with(index + 1, || None);
            }
            match &mut st.slots[index] {
                Some(s) if s.holds(text) && auto => return,
                Some(s) if s.holds(text) && !matches!(s.load, PoolLoad::Failed(_)) => {
                    if s.in_worker {
                        return;
                    }
                    // Loaded before a restart: send it again, quietly (the
                    // labels the page has are still right).
                    s.in_worker = true;
                    drop(st);
                    self.send_load(index, text);
                    return;
                }
                slot => {
                    *slot = Some(Slot {
                        text: text.clone(),
                        dialect: crate::bridge::dialect::current(),
                        load: PoolLoad::Loading,
                        in_worker: true,
                    })
                }
            }
        }
        self.on_change.emit(());
        self.send_load(index, text);
    }

    fn send_load(&self, index: usize, text: &Rc<str>) {
        let inner = self.inner.clone();
        let on_change = self.on_change.clone();
        let t = text.clone();
        let dialect = crate::bridge::dialect::current();
        let done: Done = Box::new(move |r| {
            let load = match r.and_then(parse::<classad::api::session::PoolLoaded>) {
                Ok(a) => PoolLoad::Ready(Rc::new(PoolInfo {
                    ads: a.ads,
                    labels: a.labels,
                    errors: a.diagnostics.iter().filter(|d| d.is_error()).count(),
                    first_error: a
                        .diagnostics
                        .iter()
                        .find(|d| d.is_error())
                        .map(|d| format!("{}:{}: {}", d.line, d.column, d.message)),
                    functions: a.functions,
                })),
                Err(e) => PoolLoad::Failed(e),
            };
            if matches!(&load, PoolLoad::Failed(e) if e == CANCELLED) {
                return; // `reset` has dealt with the slot
            }
            let mut st = inner.borrow_mut();
            if let Some(Some(s)) = st.slots.get_mut(index) {
                if same_text(&s.text, &t) && s.dialect == dialect {
                    match (&s.load, load) {
                        // A quiet reload after a restart: the page keeps
                        // what it has (same text, same labels).
                        (PoolLoad::Ready(_), PoolLoad::Ready(_)) => return,
                        (_, l) => s.load = l,
                    }
                }
            }
            drop(st);
            on_change.emit(());
        });
        self.send_text(
            &crate::bridge::dialect::verb("load"),
            &format!("p{index}\n"),
            Some(text.clone()),
            None,
            done,
        );
    }

    /// Send `req` (built from the pools' worker ids) once the pools are
    /// loaded; `progress` hears (done, total) now and then; `done` gets the
    /// answer read as `T` (one of `answers`), or why there is none.
    pub fn request<T: DeserializeOwned + 'static>(
        &self,
        pools: &[(usize, Rc<str>)],
        build: impl FnOnce(&[String]) -> PoolRequest,
        progress: Option<Callback<(usize, usize)>>,
        done: impl FnOnce(Result<T, String>) + 'static,
    ) {
        for (i, t) in pools {
            self.ensure(*i, t, false);
        }
        let ids: Vec<String> = pools.iter().map(|(i, _)| format!("p{i}")).collect();
        let payload = serde_json::to_string(&build(&ids)).unwrap_or_default();
        let done: Done = Box::new(move |r| done(r.and_then(|j| parse(j))));
        self.send("session", &payload, progress, done);
    }

    /// Stop everything: terminate the worker; waiting requests fail with
    /// [`CANCELLED`].
    pub fn cancel(&self) {
        let waiting = reset(&self.inner, Stop::ByUser);
        for p in waiting {
            (p.done)(Err(CANCELLED.into()));
        }
        self.on_change.emit(());
    }

    pub fn busy(&self) -> bool {
        !self.inner.borrow().pending.is_empty()
    }
}

/// Stop the worker; hand back what was waiting (to be failed by the
/// caller, with no borrow held). Loads under way are forgotten; loaded
/// pools are marked to be sent again. `by_user`: a cancel, so the loads
/// it stopped are not restarted on their own.
/// Why the worker is stopped: the user asked, or it failed.
enum Stop {
    ByUser,
    Failed(String),
}

fn reset(inner: &Rc<RefCell<Inner>>, why: Stop) -> Vec<Pending> {
    let mut st = inner.borrow_mut();
    if let Some(live) = st.live.take() {
        // Also after an error: a worker whose wasm trapped is of no use.
        live.terminate();
    }
    let mut cancelled = vec![];
    for slot in st.slots.iter_mut() {
        match slot {
            Some(s) if matches!(s.load, PoolLoad::Loading) => match &why {
                Stop::ByUser => {
                    cancelled.push(s.text.clone());
                    *slot = None;
                }
                // A pool being loaded when the worker failed: say so (it
                // is not "stopped", and loading it again would fail again).
                Stop::Failed(m) => {
                    s.load = PoolLoad::Failed(m.clone());
                    s.in_worker = false;
                }
            },
            Some(s) => s.in_worker = false,
            None => {}
        }
    }
    if matches!(why, Stop::ByUser) {
        st.cancelled.extend(cancelled);
    }
    std::mem::take(&mut st.pending).into_values().collect()
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
    if let Some(counts) = rest.strip_prefix("progress\n") {
        let cb = inner
            .borrow()
            .pending
            .get(&id)
            .and_then(|p| p.progress.clone());
        let mut it = counts.split(' ').map(|n| n.parse::<usize>().unwrap_or(0));
        if let (Some(cb), Some(d), Some(t)) = (cb, it.next(), it.next()) {
            cb.emit((d, t));
        }
        return;
    }
    let p = inner.borrow_mut().pending.remove(&id);
    if let Some(p) = p {
        (p.done)(Ok(rest));
    }
}

/// Read an answer as `T`; a `Failed` answer gives its message, a
/// `Stopped` one [`CANCELLED`] (as a cancel from the page does).
fn parse<T: DeserializeOwned>(json: &str) -> Result<T, String> {
    serde_json::from_str::<T>(json).map_err(|e| match serde_json::from_str::<Unanswered>(json) {
        Ok(f) if f.kind == UnansweredKind::Failed => f.message,
        Ok(_) => CANCELLED.to_string(),
        Err(_) => format!("unreadable answer from the worker: {e}"),
    })
}

/// Shared client, compared by identity (for component props).
#[derive(Clone)]
pub struct Session(pub Rc<SessionClient>);

impl PartialEq for Session {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

impl std::ops::Deref for Session {
    type Target = SessionClient;
    fn deref(&self) -> &SessionClient {
        &self.0
    }
}
