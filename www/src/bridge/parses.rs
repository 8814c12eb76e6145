//! Parsing the pools, always in a worker (the page links no reader): small
//! ones at once in the page's quick engine worker (`engine.rs`), big ones
//! in a worker of their own (debounced, cancellable), so typing never
//! waits for a multi-megabyte parse. Every result keeps the exact text it
//! was parsed from, so ad offsets are never applied to a newer text.

use std::rc::Rc;

use yew::prelude::*;

use crate::bridge::clock::now_ms;
use crate::bridge::engine::WORKER_THRESHOLD_BYTES;
use crate::bridge::worker_client::WorkerClient;
use crate::state::app_state::same_text;
use crate::state::app_state::PoolText;
use gloo_timers::callback::Timeout;

pub use crate::bridge::pool_summary::{AdInfo, PoolSummary};

/// After parsing a pool bigger than this, the parse worker is stopped (a
/// fresh one starts for the next parse), so the memory it grew to is given
/// back.
const RELEASE_FROM: usize = 16 << 20;

/// A parse result and the text it belongs to.
pub struct ParsedPool {
    pub text: Rc<str>,
    pub summary: PoolSummary,
    /// How long a big pool's parse took (0 for a small pool's).
    pub ms: f64,
}

impl ParsedPool {
    /// The text of ad `i`.
    pub fn ad_text(&self, i: usize) -> Option<&str> {
        let a = self.summary.ads.get(i)?;
        self.text.get(a.start..a.end)
    }
}

/// Shared parse result; equal when it is the same result (cheap to compare
/// in component props).
#[derive(Clone)]
pub struct Parsed(pub Rc<ParsedPool>);

impl PartialEq for Parsed {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Parsed {
    type Target = ParsedPool;
    fn deref(&self) -> &ParsedPool {
        &self.0
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Busy {
    Idle,
    /// Being parsed in the worker since `since` (ms).
    Parsing {
        bytes: usize,
        since: f64,
    },
    /// A small pool's parse is under way in the quick worker (a few ms:
    /// the last result stands in, nothing is said).
    Quick,
    /// The user stopped the parse of this text.
    Cancelled,
    Failed(String),
}

/// One pool's parse state.
#[derive(Clone, PartialEq)]
pub struct PoolParse {
    /// The newest result, possibly for an older text (see `current`).
    pub parsed: Option<Parsed>,
    /// `parsed` is for the pool's present text.
    pub current: bool,
    pub busy: Busy,
}

#[derive(Default)]
struct Inner {
    /// Recent results, newest last (a few: pools are switched, not many).
    cache: Vec<Parsed>,
    /// Per pool index, the last result shown (kept while a new one runs).
    last: Vec<Option<Parsed>>,
    running: Option<(usize, Rc<str>, f64)>,
    cancelled: Vec<Rc<str>>,
    /// Texts whose parse failed (the worker failed), and why.
    failed: Vec<(Rc<str>, String)>,
    /// Per pool index, the small text asked of the quick worker.
    asked: Vec<Option<Rc<str>>>,
    timer: Option<Timeout>,
    /// Bumped by every asynchronous event, so the effect below re-runs.
    generation: u32,
    /// The syntax everything above was read in (`bridge::dialect`).
    dialect: classad::api::Dialect,
}

impl Inner {
    /// Forget every parse when the page's syntax changes: each pool is
    /// read again in the new one.
    fn follow_dialect(&mut self) {
        let d = crate::bridge::dialect::current();
        if d != self.dialect {
            let generation = self.generation + 1;
            *self = Inner {
                dialect: d,
                generation,
                ..Inner::default()
            };
        }
    }
    /// A result for exactly this text: what a pool shows now (never
    /// evicted while shown), else a recent one.
    fn lookup(&self, text: &Rc<str>) -> Option<Parsed> {
        self.last
            .iter()
            .flatten()
            .chain(self.cache.iter().rev())
            .find(|p| same_text(&p.text, text))
            .cloned()
    }
    fn failure(&self, text: &Rc<str>) -> Option<&String> {
        self.failed
            .iter()
            .find(|(t, _)| same_text(t, text))
            .map(|(_, why)| why)
    }
    fn fail(&mut self, text: Rc<str>, why: String) {
        self.failed.retain(|(t, _)| !same_text(t, &text));
        self.failed.push((text, why));
        if self.failed.len() > 16 {
            self.failed.remove(0);
        }
    }
    fn store(&mut self, p: Parsed) {
        self.cache.retain(|c| !same_text(&c.text, &p.text));
        self.cache.push(p);
        // Bounded by count and size: old versions of a 5 MB pool being
        // edited must not pile up.
        let bytes = |c: &[Parsed]| c.iter().map(|p| p.text.len()).sum::<usize>();
        while self.cache.len() > 1 && (self.cache.len() > 12 || bytes(&self.cache) > 24 << 20) {
            self.cache.remove(0);
        }
    }
}

/// Ads read per task from a big pool's summary lines.
const ADS_PER_TASK: usize = 2500;

/// Read `lines` a slice per task, then store them (see `use_parses`).
fn read_lines(
    inner: Rc<std::cell::RefCell<Inner>>,
    redraw: UseForceUpdateHandle,
    text: Rc<str>,
    mut lines: crate::bridge::pool_summary::SummaryLines,
    ms: f64,
    dialect: classad::api::Dialect,
) {
    Timeout::new(0, move || match lines.step(ADS_PER_TASK) {
        Ok(false) => read_lines(inner, redraw, text, lines, ms, dialect),
        Ok(true) => store_later(inner, redraw, text, Ok(lines.finish()), ms, dialect),
        Err(e) => store_later(inner, redraw, text, Err(e), ms, dialect),
    })
    .forget();
}

/// Store a big pool's parse in the next task (see `use_parses`).
fn store_later(
    inner: Rc<std::cell::RefCell<Inner>>,
    redraw: UseForceUpdateHandle,
    text: Rc<str>,
    read: Result<PoolSummary, String>,
    ms: f64,
    dialect: classad::api::Dialect,
) {
    Timeout::new(0, move || {
        let mut st = inner.borrow_mut();
        if st.dialect != dialect {
            return; // read in a syntax the page has left
        }
        st.running = None;
        match read {
            Ok(summary) => st.store(Parsed(Rc::new(ParsedPool { text, summary, ms }))),
            Err(e) => st.fail(text, e),
        }
        st.generation += 1;
        drop(st);
        redraw.force_update();
    })
    .forget();
}

pub struct Parses {
    pub pools: Rc<Vec<PoolParse>>,
    /// Stop the running worker parse of pool `i`.
    pub cancel: Callback<usize>,
    /// Parse pool `i` again after a cancel or failure.
    pub retry: Callback<usize>,
}

/// Parse every pool; see the module comment.
#[hook]
pub fn use_parses(pools: &[PoolText]) -> Parses {
    let inner = use_mut_ref(Inner::default);
    let redraw = use_force_update();
    let client = use_memo((), |_| WorkerClient::new("./engine-worker_loader.js"));

    // What is known so far; the effect below asks for the rest.
    let mut out = Vec::with_capacity(pools.len());
    {
        let mut st = inner.borrow_mut();
        st.follow_dialect();
        st.last.resize(pools.len(), None);
        for (i, p) in pools.iter().enumerate() {
            let parsed = st.lookup(&p.text);
            let current = parsed.is_some();
            if let Some(h) = &parsed {
                st.last[i] = Some(h.clone());
            }
            let small = p.text.len() <= WORKER_THRESHOLD_BYTES;
            let busy = match &st.running {
                Some((j, t, since)) if *j == i && same_text(t, &p.text) => Busy::Parsing {
                    bytes: t.len(),
                    since: *since,
                },
                _ if current => Busy::Idle,
                _ if st.cancelled.iter().any(|c| same_text(c, &p.text)) => Busy::Cancelled,
                _ => match st.failure(&p.text) {
                    Some(why) => Busy::Failed(why.clone()),
                    None if small => Busy::Quick,
                    // About to start (debounce): shown as parsing already.
                    None => Busy::Parsing {
                        bytes: p.text.len(),
                        since: now_ms(),
                    },
                },
            };
            out.push(PoolParse {
                parsed: parsed.or_else(|| st.last[i].clone()),
                current,
                busy,
            });
        }
    }

    // Start (after a pause in typing) the worker on the first big pool
    // that needs it; one at a time, a newer text replaces an older run.
    {
        let inner = inner.clone();
        let redraw = redraw.clone();
        let client = client.clone();
        // Compared by identity on every render (see `state::same_text`).
        let keys: Vec<crate::state::app_state::SharedText> = pools
            .iter()
            .map(|p| crate::state::app_state::SharedText(p.text.clone()))
            .collect();
        let generation = inner.borrow().generation;
        use_effect_with((keys, generation), move |(keys, _)| {
            let texts: Vec<Rc<str>> = keys.iter().map(|k| k.0.clone()).collect();
            let mut st = inner.borrow_mut();
            // Small pools: at once, in the quick worker (asked with no
            // borrow held: a failure to start the worker answers at once).
            st.asked.resize(texts.len(), None);
            let mut ask = vec![];
            for (i, text) in texts.iter().enumerate() {
                if text.len() > WORKER_THRESHOLD_BYTES
                    || st.lookup(text).is_some()
                    || st.failure(text).is_some()
                    || st.asked[i].as_ref().is_some_and(|a| same_text(a, text))
                {
                    continue;
                }
                st.asked[i] = Some(text.clone());
                ask.push((i, text.clone()));
            }
            drop(st);
            for (i, t) in ask {
                let (inner, redraw) = (inner.clone(), redraw.clone());
                let key = format!("pool {i}");
                let text = t.clone();
                let dialect = crate::bridge::dialect::current();
                let verb = crate::bridge::dialect::verb("pool");
                crate::bridge::engine::request(&key, &verb, &text, move |resp| {
                    let mut st = inner.borrow_mut();
                    if st.dialect != dialect {
                        return; // read in a syntax the page has left
                    }
                    let mut still_asked = false;
                    if let Some(a) = st.asked.get_mut(i) {
                        if a.as_ref().is_some_and(|a| same_text(a, &t)) {
                            *a = None;
                            still_asked = true;
                        }
                    }
                    match resp.and_then(|j| {
                        serde_json::from_str::<PoolSummary>(j).map_err(|e| e.to_string())
                    }) {
                        Ok(summary) => {
                            let p = Parsed(Rc::new(ParsedPool {
                                text: t,
                                summary,
                                ms: 0.0,
                            }));
                            // Shown at once: the cache keeps only the last
                            // few, and with many pools answering before the
                            // next render, a pool's result was evicted
                            // unseen and asked for again, forever.
                            if still_asked {
                                if let Some(l) = st.last.get_mut(i) {
                                    *l = Some(p.clone());
                                }
                            }
                            st.store(p)
                        }
                        Err(e) => st.fail(t, e),
                    }
                    st.generation += 1;
                    drop(st);
                    redraw.force_update();
                });
            }
            let mut st = inner.borrow_mut();
            let todo = texts.iter().enumerate().find(|(_, t)| {
                t.len() > WORKER_THRESHOLD_BYTES
                    && st.lookup(t).is_none()
                    && !st.cancelled.iter().any(|c| same_text(c, t))
                    && st.failure(t).is_none()
            });
            let Some((i, text)) = todo.map(|(i, t)| (i, t.clone())) else {
                return;
            };
            if matches!(&st.running, Some((j, t, _)) if *j == i && same_text(t, &text)) {
                return;
            }
            let inner2 = inner.clone();
            st.timer = Some(Timeout::new(300, move || {
                let since = now_ms();
                {
                    let mut st = inner2.borrow_mut();
                    st.running = Some((i, text.clone(), since));
                    st.generation += 1;
                }
                redraw.force_update();
                let inner3 = inner2.clone();
                let t2 = text.clone();
                let redraw2 = redraw.clone();
                let big = text.len() > RELEASE_FROM;
                let dialect = crate::bridge::dialect::current();
                let client2 = client.clone();
                client.request_text(
                    &crate::bridge::dialect::verb("pool-lines"),
                    text.clone(),
                    move |resp| {
                        let ms = now_ms() - since;
                        // The worker's memory grew to the parse's peak and would
                        // stay there: give it back (in a task of its own).
                        if big {
                            Timeout::new(0, move || client2.release()).forget();
                        }
                        // Read a slice of ads per task, then stored and drawn
                        // in a task of its own: for 20,000 ads all in one, they
                        // were 120 ms.
                        match resp.and_then(crate::bridge::pool_summary::SummaryLines::new) {
                            Ok(lines) => read_lines(inner3, redraw2, t2, lines, ms, dialect),
                            Err(e) => store_later(inner3, redraw2, t2, Err(e), ms, dialect),
                        }
                    },
                );
            }));
        });
    }

    let texts: Rc<Vec<Rc<str>>> = Rc::new(pools.iter().map(|p| p.text.clone()).collect());
    let cancel = {
        let inner = inner.clone();
        let redraw = redraw.clone();
        let texts = texts.clone();
        Callback::from(move |i: usize| {
            client.cancel();
            let mut st = inner.borrow_mut();
            st.timer = None;
            st.running = None;
            if let Some(t) = texts.get(i) {
                st.cancelled.push(t.clone());
            }
            st.generation += 1;
            drop(st);
            redraw.force_update();
        })
    };
    let retry = {
        let inner = inner.clone();
        Callback::from(move |i: usize| {
            if let Some(t) = texts.get(i) {
                let mut st = inner.borrow_mut();
                st.cancelled.retain(|c| !same_text(c, t));
                st.failed.retain(|(f, _)| !same_text(f, t));
                st.generation += 1;
            }
            redraw.force_update();
        })
    };
    Parses {
        pools: Rc::new(out),
        cancel,
        retry,
    }
}
