//! Parsing the pools: small ones right away on the page, big ones in the
//! engine worker (debounced, cancellable), so typing never waits for a
//! multi-megabyte parse. Every result keeps the exact text it was parsed
//! from, so ad offsets are never applied to a newer text.

use std::rc::Rc;

use classad::Diagnostic;
use serde::{Deserialize, Serialize};
use yew::prelude::*;

use crate::clock::now_ms;
use crate::engine::WORKER_THRESHOLD_BYTES;
use crate::state::PoolText;
use crate::worker::WorkerClient;
use gloo_timers::callback::Timeout;

/// One ad of a pool: what the lists show and where its text is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdInfo {
    pub label: String,
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub n_attrs: usize,
}

/// The ads and problems of one pool text (what the worker sends back: no
/// attribute lists, which for 10,000 ads would be megabytes of JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolSummary {
    pub ads: Vec<AdInfo>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse a pool (on whichever thread calls it). This reads the pool with
/// the engine's reader directly rather than through `api::ParsePool`,
/// which locates each ad's line by rescanning the text from the start:
/// quadratic, a minute for a 10,000-ad pool. Here one pass finds them all.
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
    }
}

/// A parse result and the text it belongs to.
pub struct ParsedPool {
    pub text: Rc<str>,
    pub summary: PoolSummary,
    /// How long a worker parse took (0 when parsed on the page).
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

fn same(a: &Rc<str>, b: &Rc<str>) -> bool {
    Rc::ptr_eq(a, b) || (a.len() == b.len() && a == b)
}

#[derive(Default)]
struct Inner {
    /// Recent results, newest last (a few: pools are switched, not many).
    cache: Vec<Parsed>,
    /// Per pool index, the last result shown (kept while a new one runs).
    last: Vec<Option<Parsed>>,
    running: Option<(usize, Rc<str>, f64)>,
    cancelled: Vec<Rc<str>>,
    failed: Option<(Rc<str>, String)>,
    timer: Option<Timeout>,
    /// Bumped by every asynchronous event, so the effect below re-runs.
    generation: u32,
}

impl Inner {
    /// A result for exactly this text: what a pool shows now (never
    /// evicted while shown), else a recent one.
    fn lookup(&self, text: &Rc<str>) -> Option<Parsed> {
        self.last
            .iter()
            .flatten()
            .chain(self.cache.iter().rev())
            .find(|p| same(&p.text, text))
            .cloned()
    }
    fn store(&mut self, p: Parsed) {
        self.cache.retain(|c| !same(&c.text, &p.text));
        self.cache.push(p);
        // Bounded by count and size: old versions of a 5 MB pool being
        // edited must not pile up.
        let bytes = |c: &[Parsed]| c.iter().map(|p| p.text.len()).sum::<usize>();
        while self.cache.len() > 1 && (self.cache.len() > 12 || bytes(&self.cache) > 24 << 20) {
            self.cache.remove(0);
        }
    }
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

    // Small texts parse during render; big ones use what is known so far.
    let mut out = Vec::with_capacity(pools.len());
    {
        let mut st = inner.borrow_mut();
        st.last.resize(pools.len(), None);
        for (i, p) in pools.iter().enumerate() {
            let hit = st.lookup(&p.text);
            let parsed = match hit {
                Some(h) => Some(h),
                None if p.text.len() <= WORKER_THRESHOLD_BYTES => {
                    let h = Parsed(Rc::new(ParsedPool {
                        text: p.text.clone(),
                        summary: summarize(&p.text),
                        ms: 0.0,
                    }));
                    st.store(h.clone());
                    Some(h)
                }
                None => None,
            };
            let current = parsed.is_some();
            if let Some(h) = &parsed {
                st.last[i] = Some(h.clone());
            }
            let busy = match &st.running {
                Some((j, t, since)) if *j == i && same(t, &p.text) => Busy::Parsing {
                    bytes: t.len(),
                    since: *since,
                },
                _ if current => Busy::Idle,
                _ if st.cancelled.iter().any(|c| same(c, &p.text)) => Busy::Cancelled,
                _ => match &st.failed {
                    Some((t, why)) if same(t, &p.text) => Busy::Failed(why.clone()),
                    // About to start (debounce): shown as parsing already.
                    _ => Busy::Parsing {
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
        let texts: Vec<Rc<str>> = pools.iter().map(|p| p.text.clone()).collect();
        let generation = inner.borrow().generation;
        use_effect_with((texts, generation), move |(texts, _)| {
            let mut st = inner.borrow_mut();
            let todo = texts.iter().enumerate().find(|(_, t)| {
                t.len() > WORKER_THRESHOLD_BYTES
                    && st.lookup(t).is_none()
                    && !st.cancelled.iter().any(|c| same(c, t))
                    && !matches!(&st.failed, Some((f, _)) if same(f, t))
            });
            let Some((i, text)) = todo.map(|(i, t)| (i, t.clone())) else {
                return;
            };
            if matches!(&st.running, Some((j, t, _)) if *j == i && same(t, &text)) {
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
                client.request("pool", &text, move |resp| {
                    let mut st = inner3.borrow_mut();
                    st.running = None;
                    match resp.and_then(|j| {
                        serde_json::from_str::<PoolSummary>(&j).map_err(|e| e.to_string())
                    }) {
                        Ok(summary) => st.store(Parsed(Rc::new(ParsedPool {
                            text: t2,
                            summary,
                            ms: now_ms() - since,
                        }))),
                        Err(e) => st.failed = Some((t2, e)),
                    }
                    st.generation += 1;
                    drop(st);
                    redraw2.force_update();
                });
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
                st.cancelled.retain(|c| !same(c, t));
                if matches!(&st.failed, Some((f, _)) if same(f, t)) {
                    st.failed = None;
                }
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
