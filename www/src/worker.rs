//! The engine Web Worker: the worker side answers requests; the page side
//! (`WorkerClient`) sends them, and cancels by terminating the worker (a
//! fresh one is started on the next request).
//!
//! A request is `<id>\n<verb>\n<payload>`, an answer `<id>\n<answer>`.
//! Verbs: `api` (payload and answer are `classad::api` JSON), `evaluate`
//! (payload a `classad::api` `Evaluate` request; the answer an
//! `answers::Evaluated`: the response and the attribute names and nested
//! records of MY and TARGET, for the pickers and the explain tree), `pool`
//! (payload is the raw pool text, so megabytes are not JSON-escaped; the
//! answer is a `pool_summary::PoolSummary` as JSON), and for the matchmaking
//! views, which keep pools in the worker's `classad::session::Session`:
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

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use classad::negotiate::{Augmented, CycleResult, Reason};
use classad::session::PoolResponse;
use classad::{ClassAd, ExprKind};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::answers::{AdNames, Candidate, Clusters, Cycle, GangStep, Gangs, Outcome};
use crate::pool_summary::{AdInfo, PoolSummary};
use crate::worker_link::{split_id, Live, READY};

/// Progress messages are posted at most this often: each costs the page a
/// task, and a negotiation calls back thousands of times.
pub const PROGRESS_MS: f64 = 50.0;

/// Worker side: install the message handler (called from the worker binary).
pub fn run_worker() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_scope = scope.clone();
    // Gangmatching's `seconds` counter: the library has no clock in wasm.
    classad::gang::set_clock(|| js_sys::Date::now() / 1000.0);
    let mut session = classad::session::Session::new();
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
                (crate::js_text::string_of(&data).unwrap_or_default(), None)
            };
            let (id, rest) = head.split_once('\n').unwrap_or(("0", ""));
            let (verb, payload) = rest.split_once('\n').unwrap_or((rest, ""));
            // The text sent as bytes, or what follows the verb.
            let text = |payload: &str, body: Option<String>| match body {
                Some(b) if payload.is_empty() => b,
                Some(b) => format!("{payload}{b}"),
                None => payload.to_string(),
            };
            let post = |m: String| {
                let _ = reply_scope.post_message(&JsValue::from_str(&m));
            };
            let resp = match verb {
                "pool" => match &body {
                    Some(b) => serde_json::to_string(&summarize(b)).unwrap_or_default(),
                    None => serde_json::to_string(&summarize(payload)).unwrap_or_default(),
                },
                // A big pool's summary as lines the page reads a slice per
                // task (`pool_summary::SummaryLines`).
                "pool-lines" => crate::pool_summary::to_lines(&summarize(&text(payload, body))),
                "evaluate" => evaluate_json(&text(payload, body)),
                // The gallery's pools live here, not in the page's wasm.
                "example" => crate::examples::find(payload)
                    .map(|e| serde_json::to_string(&e.state()).unwrap_or_default())
                    .unwrap_or_default(),
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
                    let req = classad::session::PoolRequest::LoadPool {
                        id: pool,
                        text,
                        dialect: Default::default(),
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
                    match serde_json::from_str::<classad::session::PoolRequest>(&text(
                        payload, body,
                    )) {
                        Ok(req) => view_json(session.handle_pool(req, &mut progress)),
                        Err(e) => serde_json::to_string(&classad::session::PoolResponse::Failed {
                            message: format!("bad request: {e}"),
                        })
                        .unwrap_or_default(),
                    }
                }
                _ => classad::api::handle_json(&text(payload, body)),
            };
            post(format!("{id}\n{resp}"));
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
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
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Some((head, Some(text)))
    }
}

/// Parse a pool (in the worker). This reads the pool with the engine's
/// reader directly rather than through `api::ParsePool`, which lists every
/// ad's attributes (megabytes of JSON for 10,000 ads). One pass finds the
/// ads' lines.
pub fn summarize(text: &str) -> PoolSummary {
    let pool = classad::formats::read_pool(text, Default::default(), Default::default());
    let bytes = text.as_bytes();
    let (mut line, mut at) = (1u32, 0usize);
    let ads = pool
        .ads
        .into_iter()
        .map(|a| {
            let start = (a.span.start as usize).min(text.len());
            if start >= at {
                line += bytes[at..start].iter().filter(|&&b| b == b'\n').count() as u32;
                at = start;
            }
            AdInfo {
                label: a.label,
                start,
                end: (a.span.end as usize).min(text.len()),
                line,
                n_attrs: a.ad.len(),
            }
        })
        .collect();
    PoolSummary {
        ads,
        diagnostics: pool.diagnostics,
        engine_memory: wasm_memory_bytes(),
    }
}

/// Attribute names (lower case) of an ad and the paths of its nested
/// records, read from its text.
pub fn ad_names(text: &str) -> AdNames {
    let pool = classad::formats::read_pool(text, Default::default(), Default::default());
    let Some(ad) = pool.ads.first() else {
        return AdNames::default();
    };
    fn records(ad: &ClassAd, prefix: &str, out: &mut Vec<String>, depth: usize) {
        for (name, e) in ad.iter() {
            let mut e = e;
            while let ExprKind::Paren(inner) = &e.kind {
                e = inner;
            }
            if let ExprKind::Record(r) = &e.kind {
                let path = if prefix.is_empty() {
                    name.to_string()
                } else {
                    format!("{prefix}.{name}")
                };
                out.push(path.clone());
                if depth < 4 {
                    records(r, &path, out, depth + 1);
                }
            }
        }
    }
    let mut recs = vec![];
    records(&ad.ad, "", &mut recs, 0);
    AdNames {
        attrs: ad.ad.iter().map(|(n, _)| n.to_ascii_lowercase()).collect(),
        records: recs,
    }
}

/// The `evaluate` verb: the API's answer, with the names of MY and TARGET.
pub fn evaluate_json(payload: &str) -> String {
    let (my, target) = match serde_json::from_str::<classad::api::Request>(payload) {
        Ok(classad::api::Request::Evaluate { my, target, .. }) => (
            my.as_deref().map(ad_names).unwrap_or_default(),
            target.as_deref().map(ad_names).unwrap_or_default(),
        ),
        _ => Default::default(),
    };
    let response = classad::api::handle_json(payload);
    let names = serde_json::to_string(&(my, target)).unwrap_or_else(|_| "[{},{}]".into());
    // The response is already JSON: spliced in, not read and written again.
    format!("{{\"names\":{names},\"response\":{response}}}")
}

/// A cycle as the negotiation view shows it: reasons in words, shared.
/// The worker's wasm memory in bytes (it only grows: the peak so far).
fn wasm_memory_bytes() -> Option<u64> {
    #[cfg(target_arch = "wasm32")]
    return Some(core::arch::wasm32::memory_size(0) as u64 * 65_536);
    #[cfg(not(target_arch = "wasm32"))]
    None
}

pub fn cycle_view(cycle: CycleResult, augmented: Vec<Augmented>) -> Cycle {
    let clusters = cycle.clustering.as_ref().map(|c| c.clusters());
    let mut aug = augmented.into_iter();
    let mut reasons = vec![String::new()];
    let mut reason_of = |r: &Reason| -> u32 {
        if *r == Reason::Matched {
            return 0;
        }
        // The CLI's `slug: sentence`; people read the sentence.
        let full = r.describe();
        let sentence = full.split_once(": ").map_or(full.as_str(), |(_, s)| s);
        let mut text: String = sentence
            .chars()
            .take(1)
            .flat_map(char::to_uppercase)
            .collect();
        text.push_str(sentence.get(1..).unwrap_or(""));
        let at = reasons.iter().position(|x| *x == text).unwrap_or_else(|| {
            reasons.push(text);
            reasons.len() - 1
        });
        at as u32
    };
    let outcomes = cycle
        .outcomes
        .into_iter()
        .map(|o| {
            let a = aug.next().unwrap_or_default();
            Outcome {
                job: o.job,
                job_id: o.job_id,
                machine: o.machine,
                vector: o.vector,
                reason: reason_of(&o.reason),
                skipped: matches!(o.reason, Reason::SkippedCluster { .. }),
                candidates: o.candidates,
                taken_uncounted: matches!(o.reason, Reason::AllTaken { compatible: None }),
                cluster: o.cluster,
                considered: o
                    .considered
                    .into_iter()
                    .map(|c| Candidate {
                        machine: c.machine,
                        vector: c.vector,
                        taken: c.taken,
                    })
                    .collect(),
                changed: a.changed,
                unresolved: a
                    .unresolved
                    .iter()
                    .map(|u| format!("{}: $$({})", u.attribute, u.reference))
                    .collect(),
            }
        })
        .collect();
    Cycle {
        outcomes,
        reasons,
        matched: cycle.matched,
        pair_evaluations: cycle.pair_evaluations,
        clusters,
        engine_memory: wasm_memory_bytes(),
    }
}

/// A gang search's step as the page reads it (`answers::GangStep`).
pub fn gang_step(s: classad::session::GangStep) -> GangStep {
    use classad::session::GangStep as S;
    match s {
        S::Request { request, name } => GangStep::Request { request, name },
        S::Order {
            ad,
            ports,
            found,
            abort,
        } => GangStep::Order {
            ad,
            ports,
            found,
            abort,
        },
        S::Probe {
            ad,
            port,
            window,
            found,
        } => GangStep::Probe {
            ad,
            port,
            window,
            found,
        },
        S::Scan {
            ad,
            port,
            tested,
            docked,
        } => GangStep::Scan {
            ad,
            port,
            tested,
            docked,
        },
        S::Try {
            ad,
            port,
            offer,
            via,
            answer,
        } => GangStep::Try {
            ad,
            port,
            offer,
            via,
            answer,
        },
        S::Backtrack { ad, port, offer } => GangStep::Backtrack { ad, port, offer },
        S::Verify { ok } => GangStep::Verify { ok },
        S::Done {
            request,
            gang,
            limit_hit,
        } => GangStep::Done {
            request,
            gang,
            limit_hit,
        },
    }
}

/// The worker's answer to a session request: a cycle, a clustering or a
/// gang search as its page view (`answers`), anything else as the engine's
/// `PoolResponse` JSON.
pub fn view_json(r: PoolResponse) -> String {
    let json = match r {
        PoolResponse::Cycle {
            cycle, augmented, ..
        } => serde_json::to_string(&cycle_view(cycle, augmented)),
        PoolResponse::Clusters {
            clustering,
            job_labels,
            signatures,
        } => serde_json::to_string(&Clusters {
            significant: clustering.significant,
            cluster_of: clustering.cluster_of,
            job_labels,
            signatures,
        }),
        PoolResponse::Gangs(v) => serde_json::to_string(&Gangs {
            algorithm: v.algorithm,
            counters: v.counters,
            rows: v.rows,
            offer_errors: v.offer_errors,
            steps: v.steps.into_iter().map(gang_step).collect(),
            steps_cut: v.steps_cut,
        }),
        other => serde_json::to_string(&other),
    };
    json.unwrap_or_else(|e| format!("{{\"kind\":\"failed\",\"message\":\"{e}\"}}"))
}

type Done = Box<dyn FnOnce(Result<String, String>)>;
type Pending = Rc<RefCell<Option<(u64, Done)>>>;

/// Page side. One request at a time: a new request cancels the previous.
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
