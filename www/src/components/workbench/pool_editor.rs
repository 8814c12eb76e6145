//! The pool editor: named pools of ads in any format the engine reads
//! (new syntax, the long format, JSON, XML),
//! highlighted by the engine's lexer, with diagnostics marked in the text
//! and listed (click one to go there), the parsed ads, upload,
//! drag-and-drop and formatting. Big pools parse in the worker with a
//! visible, cancellable state.

use std::rc::Rc;

use classad::api::{OutputFormat, Request};
use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::bridge::engine::{self, WORKER_THRESHOLD_BYTES};
use crate::bridge::parses::Parsed;
use crate::bridge::parses::{Busy, PoolParse};
use crate::bridge::worker_client::WorkerClient;
use crate::components::shell::header::confirm;
use crate::components::widgets::highlight::Mark;
use crate::components::widgets::numbers::size;
use crate::components::widgets::text_editor::{
    Focus, TextEditor, Tokens, EDIT_LIMIT, HIGHLIGHT_LIMIT,
};
use crate::components::workbench::ad_editor::AdEditor;
use crate::components::workbench::ad_list::AdList;
use crate::components::workbench::pool_viewer::PoolViewer;
use crate::state::actions::{Action, PoolMark};
use crate::state::app_state::{AppState, SharedText};
use classad::api::Response;

/// What a wasm32 instance can address: 4 GiB.
const WASM32_BYTES: f64 = 4.0 * 1024.0 * 1024.0 * 1024.0;

/// Wasm memory the matchmaking worker grows to per byte of a long-format
/// pool it loads (the text as it arrives, the engine's copy its lazy ads
/// keep, their attribute tables; measured with `condor_status -l` pools of
/// production slots, 24 KB and ~600 attributes each, `bench/gen_production.py`,
/// by `tests/e2e/measure_production.mjs`). The parse worker needs a little
/// less (it drops the ads once listed); the page and the views module hold
/// one copy each.
const WORKER_BYTES_PER_POOL_BYTE: f64 = 3.0;

/// What the worker holds besides the pools, and room for what a cycle or
/// a matrix count adds over them.
const WORKER_HEADROOM_BYTES: f64 = 1024.0 * 1024.0 * 1024.0;

/// The pools' size past which the matchmaking worker could not hold them
/// in its 4 GiB: larger texts are refused with a message (a worker out of
/// memory fails what it was doing; a tab that runs out dies).
pub const MAX_POOL_BYTES: usize =
    ((WASM32_BYTES - WORKER_HEADROOM_BYTES) / WORKER_BYTES_PER_POOL_BYTE) as usize;

#[derive(Properties, PartialEq)]
pub struct PoolEditorProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
    pub parses: Rc<Vec<PoolParse>>,
    pub on_cancel: Callback<usize>,
    pub on_retry: Callback<usize>,
    /// A span picked in the explain tree that lies in a pool.
    pub mark: Option<PoolMark>,
}

/// The text a file replaced, so the replacement can be undone: (pool,
/// the text before, the text after).
type Replaced = Option<(usize, Rc<str>, Rc<str>)>;

/// Pools past this size are not rewritten (Format, To JSON, …) in the page.
const FORMAT_LIMIT_BYTES: usize = 64 << 20;

/// A file being read: how far, and a flag to stop it.
#[derive(Clone)]
struct Reading {
    name: String,
    done: usize,
    total: usize,
    stop: Rc<std::cell::Cell<bool>>,
}

impl PartialEq for Reading {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && self.done == o.done
            && self.total == o.total
            && Rc::ptr_eq(&self.stop, &o.stop)
    }
}

/// A file is read this much at a time, one part per task: the bytes are
/// copied into the page's memory and decoded part by part, so a 250 MB
/// file never is one JavaScript string nor one long task.
const READ_PART_BYTES: f64 = 8.0 * 1024.0 * 1024.0;

/// Why a pool of `bytes` (with `others` bytes in the other pools) cannot
/// be taken, if it cannot.
fn too_big(what: &str, bytes: usize, others: usize) -> Option<String> {
    if bytes > MAX_POOL_BYTES {
        return Some(format!(
            "{what} is {}; the playground holds pools up to {} (the engine needs about {} times a pool's size in its worker's memory, and a browser gives a worker at most 4 GB). Split the file, or filter it first (condor_status -constraint \u{2026}).",
            size(bytes),
            size(MAX_POOL_BYTES),
            crate::components::widgets::numbers::whole(WORKER_BYTES_PER_POOL_BYTE)
        ));
    }
    if bytes + others > MAX_POOL_BYTES {
        return Some(format!(
            "{what} is {}; with the other pools ({}) that is past the {} the playground holds in all (the engine needs about {} times the pools' size in its worker's memory, and a browser gives a worker at most 4 GB). Clear or delete another pool first.",
            size(bytes),
            size(others),
            size(MAX_POOL_BYTES),
            crate::components::widgets::numbers::whole(WORKER_BYTES_PER_POOL_BYTE)
        ));
    }
    None
}

/// Read `file` into pool `pool` (see [`READ_PART_BYTES`]), saying how far
/// it is in `reading`; `others`: the other pools' size.
#[allow(clippy::too_many_arguments)]
fn read_file(
    file: web_sys::File,
    dispatch: Callback<Action>,
    pool: usize,
    others: usize,
    status: UseStateHandle<Option<String>>,
    reading: UseStateHandle<Option<Reading>>,
    before: Rc<str>,
    replaced: UseStateHandle<Replaced>,
) {
    let file_bytes = file.size() as usize;
    let name = file.name();
    if let Some(why) = too_big(&name, file_bytes, others) {
        status.set(Some(why));
        return;
    }
    if let Some(r) = &*reading {
        r.stop.set(true);
    }
    let stop = Rc::new(std::cell::Cell::new(false));
    let mut now = Reading {
        name: name.clone(),
        done: 0,
        total: file_bytes,
        stop: stop.clone(),
    };
    reading.set(Some(now.clone()));
    status.set(None);
    wasm_bindgen_futures::spawn_local(async move {
        let mut decoder = crate::bridge::js_text::Utf8Parts::default();
        let mut text: Option<crate::bridge::text_buf::TextBuf> = None;
        let mut part = vec![];
        let mut at = 0.0;
        let total = file.size();
        let failed = loop {
            if stop.get() {
                break Some(None);
            }
            if at >= total {
                break None;
            }
            let to = (at + READ_PART_BYTES).min(total);
            let bytes = match file.slice_with_f64_and_f64(at, to) {
                Ok(blob) => wasm_bindgen_futures::JsFuture::from(blob.array_buffer()).await,
                Err(e) => Err(e),
            };
            let Ok(bytes) = bytes else {
                break Some(Some(format!("{name} could not be read.")));
            };
            if stop.get() {
                break Some(None);
            }
            let bytes = js_sys::Uint8Array::new(&bytes);
            part.resize(bytes.length() as usize, 0);
            bytes.copy_to(&mut part);
            let out = text.get_or_insert_with(|| {
                // Room for all of it at once (a byte-order mark is not
                // text); a file that turns out longer as text grows.
                let mark = part.starts_with(&[0xef, 0xbb, 0xbf]);
                crate::bridge::text_buf::TextBuf::expecting(file_bytes - if mark { 3 } else { 0 })
            });
            decoder.feed(&part, |s| out.push_str(s));
            at = to;
            now.done = at as usize;
            reading.set(Some(now.clone()));
        };
        match failed {
            Some(None) => {
                reading.set(None);
                status.set(Some(format!(
                    "Reading {name} stopped; the pool is as it was."
                )));
                return;
            }
            Some(Some(why)) => {
                reading.set(None);
                status.set(Some(why));
                return;
            }
            None => {}
        }
        let mut out = text.unwrap_or_else(|| crate::bridge::text_buf::TextBuf::expecting(0));
        decoder.finish(|s| out.push_str(s));
        let after = out.finish();
        drop(part);
        reading.set(None);
        // Decoding can make a text longer than its file (U+FFFD for bad bytes, UTF-16).
        if let Some(why) = too_big(&name, after.len(), others) {
            status.set(Some(why));
            return;
        }
        let note = if after.len() > WORKER_THRESHOLD_BYTES {
            format!(
                "Loaded {name} ({}); its ads are parsed in the background.",
                size(after.len())
            )
        } else {
            format!("Loaded {name}.")
        };
        // The page takes the text in a task of its own (the views'
        // work on it is the next one): neither blocks the page for long.
        Timeout::new(0, move || {
            // Nothing typed is lost: what the file replaced can come back.
            if !before.trim().is_empty() && *before != *after {
                replaced.set(Some((pool, before.clone(), after.clone())));
            }
            dispatch.emit(Action::SetPoolText(pool, after));
            status.set(Some(note));
        })
        .forget();
    });
}

/// Blocks compared at once by [`common_prefix`] and [`common_suffix`]
/// (a byte loop took 17 ms over a 17.6 MB pool on every parse answer).
const BLOCK: usize = 4096;

/// How many leading bytes `a` and `b` share.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= n && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..n]
        .iter()
        .zip(&b[at..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many trailing bytes `a` and `b` share, at most `most`.
fn common_suffix(a: &[u8], b: &[u8], most: usize) -> usize {
    let (la, lb) = (a.len(), b.len());
    let mut k = 0;
    while k + BLOCK <= most && a[la - k - BLOCK..la - k] == b[lb - k - BLOCK..lb - k] {
        k += BLOCK;
    }
    k + a[..la - k]
        .iter()
        .rev()
        .zip(b[..lb - k].iter().rev())
        .take(most - k)
        .take_while(|(x, y)| x == y)
        .count()
}

/// The diagnostics of `p` as marks over `text`: as they are when `p` is
/// for `text`, else moved past the one edit between the two texts (marks
/// in the changed part are left out).
fn diagnostic_marks(p: &Parsed, text: &str) -> Vec<Mark> {
    let old = &*p.text;
    let (o, n) = (old.as_bytes(), text.as_bytes());
    let mut pre = if std::ptr::eq(old, text) {
        o.len()
    } else {
        common_prefix(o, n)
    };
    while !old.is_char_boundary(pre) {
        pre -= 1;
    }
    let most = o.len().min(n.len()) - pre;
    let mut suf = common_suffix(o, n, most);
    while suf > 0 && !old.is_char_boundary(o.len() - suf) {
        suf -= 1;
    }
    let (old_tail, delta) = (o.len() - suf, n.len() as i64 - o.len() as i64);
    p.summary
        .diagnostics
        .iter()
        .filter_map(|d| {
            let (a, b) = (d.span.start as usize, d.span.end as usize);
            let (a, b) = if b <= pre {
                (a, b)
            } else if a >= old_tail {
                ((a as i64 + delta) as usize, (b as i64 + delta) as usize)
            } else {
                return None;
            };
            Some(Mark {
                start: a,
                end: b,
                class: if d.is_error() {
                    "mk-error"
                } else {
                    "mk-warning"
                },
            })
        })
        .take(500)
        .collect()
}

#[component]
pub fn PoolEditor(props: &PoolEditorProps) -> Html {
    let s = &props.state;
    let idx = s.active_pool.min(s.pools.len().saturating_sub(1));
    let text: Rc<str> = s
        .pools
        .get(idx)
        .map(|p| p.text.clone())
        .unwrap_or_else(|| Rc::from(""));
    let parse = props.parses.get(idx).cloned().unwrap_or(PoolParse {
        parsed: None,
        current: false,
        busy: Busy::Idle,
    });
    // Texts as dependencies by identity: comparing a 17.6 MB pool with
    // itself byte by byte on every render cost milliseconds each.
    // A submit description file: its job ads, not ads of its own (neither
    // highlighted nor checked as ads: its problems are condor_submit's,
    // shown by the submit bar).
    let is_submit = *use_memo(SharedText(text.clone()), |SharedText(t)| {
        crate::bridge::submit::looks_like_submit(t)
    });
    let tokens = use_memo(
        (
            SharedText(text.clone()),
            crate::bridge::dialect::current(),
            is_submit,
        ),
        |(SharedText(t), dialect, is_submit)| {
            if t.len() > HIGHLIGHT_LIMIT || *is_submit {
                vec![]
            } else {
                classad::api::highlight_pool(t, *dialect)
            }
        },
    );
    // Diagnostics are drawn in the text only when they belong to it; while
    // a small pool's parse is under way (a few ms), the last ones stand in,
    // moved past the edit, so the squiggles do not blink as you type.
    let quick = parse.busy == Busy::Quick;
    let marks = use_memo(
        (
            parse.parsed.clone(),
            parse.current,
            quick,
            SharedText(text.clone()),
            is_submit,
        ),
        |(p, current, quick, SharedText(text), is_submit)| match p {
            _ if *is_submit => vec![],
            Some(p) if *current || *quick => diagnostic_marks(p, text),
            _ => vec![],
        },
    );
    let status = use_state(|| None::<String>);
    let reading = use_state(|| None::<Reading>);
    let replaced = use_state(|| None::<(usize, Rc<str>, Rc<str>)>);
    let focus = use_state(|| None::<(Rc<str>, Focus)>);
    let seq = use_mut_ref(|| 0u32);
    let formatter = use_memo((), |_| WorkerClient::new("./engine-worker_loader.js"));
    let formatting = use_state(|| false);
    let dragging = use_state(|| false);
    // The ad being edited on its own: (the pool text it belongs to, index).
    let editing = use_state(|| None::<(Rc<str>, usize)>);
    let editable = text.len() <= EDIT_LIMIT;

    // An explain pick in this pool: show it (the app switched pools).
    {
        let focus = focus.clone();
        let seq = seq.clone();
        let big = text.len() > HIGHLIGHT_LIMIT;
        use_effect_with(props.mark.clone(), move |m| {
            if let Some(m) = m {
                *seq.borrow_mut() += 1;
                let f = Focus {
                    start: m.start,
                    end: m.end,
                    seq: *seq.borrow(),
                    take_focus: big,
                    class: "tk-mark focus-mark",
                };
                focus.set(Some((m.text.clone(), f)));
            }
        });
    }
    let focus_now = match &*focus {
        Some((t, f)) if Rc::ptr_eq(t, &text) => Some(f.clone()),
        _ => None,
    };
    let go_to = {
        let focus = focus.clone();
        let seq = seq.clone();
        let text = text.clone();
        Callback::from(move |(start, end): (usize, usize)| {
            *seq.borrow_mut() += 1;
            let f = Focus {
                start,
                end,
                seq: *seq.borrow(),
                take_focus: true,
                class: "focus-mark",
            };
            focus.set(Some((text.clone(), f)));
        })
    };

    // The other pools' size: the limit is on all the pools together.
    let others: usize = s
        .pools
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != idx)
        .map(|(_, p)| p.text.len())
        .sum();
    let on_change = {
        let d = props.dispatch.clone();
        let status = status.clone();
        Callback::from(move |t: Rc<str>| {
            if let Some(why) = too_big("That text", t.len(), others) {
                status.set(Some(format!("{why} Only the previous text is kept.")));
                return;
            }
            d.emit(Action::SetPoolText(idx, t));
        })
    };
    // A name typed but not yet committed (its `change` fires when the field
    // is left) is kept when a file arrives first.
    let name_ref = use_node_ref();
    let commit_name = {
        let d = props.dispatch.clone();
        let name_ref = name_ref.clone();
        let current = s.pools.get(idx).map(|p| p.name.clone()).unwrap_or_default();
        move || {
            if let Some(input) = name_ref.cast::<web_sys::HtmlInputElement>() {
                if input.value() != current {
                    d.emit(Action::RenamePool(idx, input.value()));
                }
            }
        }
    };
    let on_upload = {
        let reading = reading.clone();
        let d = props.dispatch.clone();
        let status = status.clone();
        let (before, replaced) = (text.clone(), replaced.clone());
        let commit_name = commit_name.clone();
        Callback::from(move |e: Event| {
            commit_name();
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                read_file(
                    f,
                    d.clone(),
                    idx,
                    others,
                    status.clone(),
                    reading.clone(),
                    before.clone(),
                    replaced.clone(),
                );
            }
            input.set_value("");
        })
    };
    let on_drop = {
        let reading = reading.clone();
        let d = props.dispatch.clone();
        let status = status.clone();
        let dragging = dragging.clone();
        let (before, replaced) = (text.clone(), replaced.clone());
        Callback::from(move |e: DragEvent| {
            dragging.set(false);
            commit_name();
            // Dropped text goes into the textarea as usual; files are read.
            if let Some(f) = e
                .data_transfer()
                .and_then(|t| t.files())
                .and_then(|l| l.get(0))
            {
                e.prevent_default();
                read_file(
                    f,
                    d.clone(),
                    idx,
                    others,
                    status.clone(),
                    reading.clone(),
                    before.clone(),
                    replaced.clone(),
                );
            }
        })
    };
    let on_dragover = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let on_dragleave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let format_to = |to: OutputFormat| {
        let d = props.dispatch.clone();
        let text = text.clone();
        let status = status.clone();
        let formatter = formatter.clone();
        let formatting = formatting.clone();
        Callback::from(move |_| {
            let done = {
                let d = d.clone();
                let status = status.clone();
                let formatting = formatting.clone();
                move |resp: Response| {
                    formatting.set(false);
                    match resp {
                        Response::Text { diagnostics, .. } if diagnostics.iter().any(|d| d.is_error()) => status.set(Some(
                            "Fix the errors first: formatting would drop the ads that do not parse.".into(),
                        )),
                        Response::Text { text: out, .. } => {
                            status.set(None);
                            d.emit(Action::SetPoolText(idx, Rc::from(out)));
                        }
                        _ => status.set(Some("Formatting failed.".into())),
                    }
                }
            };
            let req = Request::Format {
                text: text.to_string(),
                to,
                dialect: crate::bridge::dialect::current(),
            };
            if text.len() <= WORKER_THRESHOLD_BYTES {
                // A few ms in the quick worker.
                let status = status.clone();
                engine::call("format", &req, move |r| match r {
                    Ok(resp) => done(resp),
                    Err(e) => status.set(Some(format!("Formatting failed: {e}"))),
                });
            } else {
                formatting.set(true);
                status.set(Some(format!(
                    "Formatting {} in the background…",
                    size(text.len())
                )));
                let json = serde_json::to_string(&req).unwrap_or_default();
                let status = status.clone();
                formatter.request("api", &json, move |r| {
                    match r.and_then(|j| {
                        serde_json::from_str::<Response>(&j).map_err(|e| e.to_string())
                    }) {
                        Ok(resp) => done(resp),
                        Err(e) => status.set(Some(format!("Formatting failed: {e}"))),
                    }
                });
            }
        })
    };
    // A rewrite comes back whole, as one string: past this size it would
    // hold the page for seconds (and double the page's memory).
    let too_big_to_format = text.len() > FORMAT_LIMIT_BYTES;
    let format_title = |what: &str| {
        if too_big_to_format {
            format!(
                "{what} (not for pools over {}: download the text and use classad fmt)",
                size(FORMAT_LIMIT_BYTES)
            )
        } else {
            what.to_string()
        }
    };
    let cancel_format = {
        let formatter = formatter.clone();
        let formatting = formatting.clone();
        let status = status.clone();
        Callback::from(move |_| {
            formatter.cancel();
            formatting.set(false);
            status.set(Some("Formatting stopped; the text is unchanged.".into()));
        })
    };
    let select_pool = |i: usize| {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::SelectPool(i)))
    };
    let on_rename = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            d.emit(Action::RenamePool(
                idx,
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            ));
        })
    };
    let on_add = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::AddPool))
    };
    // Deleting text cannot be undone (autosave follows): ask first.
    let pool_name = s.pools.get(idx).map(|p| p.name.clone()).unwrap_or_default();
    let on_remove = {
        let d = props.dispatch.clone();
        let empty = text.trim().is_empty();
        let q = format!("Delete the pool \u{201c}{pool_name}\u{201d} and its text?");
        Callback::from(move |_| {
            if empty || confirm(&q) {
                d.emit(Action::RemovePool(idx))
            }
        })
    };
    let on_goto_ad = {
        let go_to = go_to.clone();
        let parsed = parse.parsed.clone();
        let current = parse.current;
        Callback::from(move |i: usize| {
            if let (Some(p), true) = (&parsed, current) {
                if let Some(a) = p.summary.ads.get(i) {
                    go_to.emit((a.start, a.start));
                }
            }
        })
    };

    let on_edit_ad = (!editable && parse.current).then(|| {
        let editing = editing.clone();
        let text = text.clone();
        Callback::from(move |i: usize| editing.set(Some((text.clone(), i))))
    });
    let ad_editor = match (&*editing, &parse.parsed) {
        (Some((t, i)), Some(p))
            if Rc::ptr_eq(t, &text) && Rc::ptr_eq(&p.text, &text) && *i < p.summary.ads.len() =>
        {
            let a = p.summary.ads[*i].clone();
            let base = text.clone();
            let d = props.dispatch.clone();
            let done = editing.clone();
            let on_apply = Callback::from(move |new: Rc<str>| {
                let mut out = String::with_capacity(base.len() + new.len());
                out.push_str(&base[..a.start]);
                out.push_str(&new);
                out.push_str(&base[a.end..]);
                done.set(None);
                d.emit(Action::SetPoolText(idx, Rc::from(out)));
            });
            let done = editing.clone();
            html! {
                <AdEditor key={format!("{idx}:{i}")} text={Rc::<str>::from(&text[a.start..a.end])} label={format!("ad {} ({})", i + 1, a.label)}
                    on_apply={on_apply} on_cancel={Callback::from(move |_| done.set(None))} />
            }
        }
        _ => html! {},
    };
    let on_download_text = {
        let text = text.clone();
        let name = s.pools.get(idx).map(|p| p.name.clone()).unwrap_or_default();
        Callback::from(move |_| {
            crate::components::shell::header::download(&format!("{name}.txt"), &text, "text/plain")
        })
    };
    let on_clear = {
        let d = props.dispatch.clone();
        let q = format!("Remove all the text of \u{201c}{pool_name}\u{201d}?");
        Callback::from(move |_| {
            if confirm(&q) {
                d.emit(Action::SetPoolText(idx, Rc::from("")))
            }
        })
    };

    let (n_ads, errors, warnings) = match &parse.parsed {
        Some(p) => {
            let e = p
                .summary
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .count();
            (p.summary.ads.len(), e, p.summary.diagnostics.len() - e)
        }
        None => (0, 0, 0),
    };
    let reading_row = (*reading).clone().map(|r| {
        let stop = r.stop.clone();
        let reading = reading.clone();
        let cancel = Callback::from(move |_| {
            stop.set(true);
            reading.set(None);
        });
        html! {
            <div class="busy reading" role="status">
                <progress aria-label="Reading the file" max={r.total.max(1).to_string()} value={r.done.to_string()}></progress>
                <span>{ format!("Reading {}: {} of {}\u{2026}", r.name, size(r.done), size(r.total)) }</span>
                <button onclick={cancel}>{ "Cancel" }</button>
            </div>
        }
    });
    let busy_row = match &parse.busy {
        Busy::Parsing { bytes, .. } => {
            let cancel = {
                let c = props.on_cancel.clone();
                Callback::from(move |_| c.emit(idx))
            };
            html! {
                <div class="busy" role="status">
                    <progress aria-label="Parsing"></progress>
                    <span>{ format!("Parsing {} in the background…", size(*bytes)) }</span>
                    <button onclick={cancel}>{ "Cancel" }</button>
                </div>
            }
        }
        Busy::Cancelled | Busy::Failed(_) => {
            let retry = {
                let r = props.on_retry.clone();
                Callback::from(move |_| r.emit(idx))
            };
            let msg = match &parse.busy {
                Busy::Failed(why) => format!("Parsing failed ({why})."),
                _ => "Parsing stopped: the list below is not for this text.".to_string(),
            };
            html! {
                <div class="busy" role="status">
                    <span>{ msg }</span>
                    <button onclick={retry}>{ "Parse now" }</button>
                </div>
            }
        }
        Busy::Idle | Busy::Quick => html! {},
    };

    html! {
        <section class="pools" aria-label="Pools">
            <div class="pool-tabs" role="tablist" aria-label="Pools">
                { for s.pools.iter().enumerate().map(|(i, p)| html! {
                    <button role="tab" aria-selected={(i == idx).to_string()} class={classes!("tab", (i == idx).then_some("active"))} onclick={select_pool(i)}>{ p.name.clone() }</button>
                }) }
                if s.pools.len() < crate::state::share::MAX_POOLS {
                    <button onclick={on_add} aria-label="Add a pool" title="Add a pool">{ "+" }</button>
                } else {
                    <button disabled=true aria-label="Add a pool" title={format!("The playground holds at most {} pools", crate::state::share::MAX_POOLS)}>{ "+" }</button>
                }
            </div>
            <div class="pool-tools">
                <label>{ "Name " }<input class="pool-name" ref={name_ref} value={s.pools.get(idx).map(|p| p.name.clone()).unwrap_or_default()} onchange={on_rename} /></label>
                <label class="button">{ "Upload…" }<input type="file" class="hidden-file" onchange={on_upload} aria-label="Upload a pool file" /></label>
                <button onclick={format_to(OutputFormat::New)} disabled={*formatting || too_big_to_format} title={format_title("Rewrite in the new ClassAd syntax")}>{ "Format" }</button>
                <button onclick={format_to(OutputFormat::Old)} disabled={*formatting || too_big_to_format} title={format_title("Rewrite as condor_status -l prints it")}>{ "To long format" }</button>
                <button onclick={format_to(OutputFormat::Json)} disabled={*formatting || too_big_to_format} title={format_title("Rewrite as condor_status -json prints it")}>{ "To JSON" }</button>
                <button onclick={format_to(OutputFormat::Xml)} disabled={*formatting || too_big_to_format} title={format_title("Rewrite as condor_status -xml prints it")}>{ "To XML" }</button>
                if *formatting {
                    <button onclick={cancel_format}>{ "Stop formatting" }</button>
                }
                if s.pools.len() > 1 {
                    <button onclick={on_remove} aria-label="Delete this pool" title="Delete this pool">{ "Delete" }</button>
                }
            </div>
            { for reading_row }
            { busy_row }
            if !editable {
                <p class="big-note">
                    { format!("This pool is {}: it is shown read-only, since browsers cannot edit that much text in a box. Edit an ad with its Edit button below, or upload or drop a new file. ", size(text.len())) }
                    <button onclick={on_download_text}>{ "Download text" }</button>{ " " }
                    <button onclick={on_clear}>{ "Clear the pool" }</button>
                </p>
                { ad_editor }
            }
            <div class={classes!("drop-zone", dragging.then_some("dragging"))} ondrop={on_drop} ondragover={on_dragover} ondragleave={on_dragleave}>
                if editable {
                    <TextEditor key={idx} id="pool-text" text={text.clone()} on_change={on_change}
                        tokens={Tokens(tokens.clone())} marks={marks.clone()} focus={focus_now}
                        label="Ads in this pool (new ClassAd syntax, condor_status -l long format, or JSON)"
                        describedby={Some(AttrValue::from("pool-summary"))}
                        placeholder="Paste ads here: [ … ] records, condor_status -l output, or condor_status -json. Or drop a file." />
                } else {
                    <PoolViewer key={idx} text={text.clone()} marks={marks.clone()} focus={focus_now} label="Ads in this pool (read-only: too big to edit whole)" />
                }
            </div>
            if let Some(msg) = (*status).clone() {
                <p class="status" role="status">{ msg }
                    // Undo while the pool still holds what the file put there.
                    if let Some((p, before, _)) = (*replaced).clone().filter(|(p, _, a)| *p == idx && Rc::ptr_eq(a, &text)) {
                        { " It replaced the pool's text. " }
                        <button id="undo-upload" onclick={{
                            let (d, replaced, status) = (props.dispatch.clone(), replaced.clone(), status.clone());
                            Callback::from(move |_| {
                                d.emit(Action::SetPoolText(p, before.clone()));
                                replaced.set(None);
                                status.set(Some("The pool's text is back as it was.".into()));
                            })
                        }}>{ "Undo" }</button>
                    }
                </p>
            }
            if is_submit {
                <super::submit_bar::SubmitBar state={s.clone()} pool={idx} dispatch={props.dispatch.clone()} go_to={go_to.clone()} />
            } else {
            <div class="diagnostics" aria-live="polite">
                <p class="summary" id="pool-summary" data-engine-memory={parse.parsed.as_ref().and_then(|p| p.summary.engine_memory).map(|b| b.to_string())}>
                    { format!(
                        "{}, {}, {}",
                        crate::components::widgets::words::count(n_ads as u64, "ad", "ads"),
                        crate::components::widgets::words::count(errors as u64, "error", "errors"),
                        crate::components::widgets::words::count(warnings as u64, "warning", "warnings")
                    ) }
                    if parse.parsed.is_some() && !parse.current && !quick { <span class="muted">{ " (of the text before your last edits)" }</span> }
                    if let (Some(p), true) = (&parse.parsed, parse.current) {
                        if p.ms > 0.0 { <span class="muted">{ format!(" · parsed in the background in {} s", crate::components::widgets::numbers::tenths(p.ms / 1000.0)) }</span> }
                    }
                </p>
                if !parse.parsed.as_ref().map(|p| p.summary.diagnostics.is_empty()).unwrap_or(true) {
                    <ul>
                        { for parse.parsed.iter().flat_map(|p| p.summary.diagnostics.iter().take(200)).map(|d| {
                            let at = (d.span.start as usize, d.span.end as usize);
                            let go = go_to.clone();
                            let onclick = Callback::from(move |_| go.emit(at));
                            html! {
                                <li class={classes!(if d.is_error() { "diag-error" } else { "diag-warning" })}>
                                    <button class="link diag-go" onclick={onclick} disabled={!parse.current} title="Show in the text">
                                        { format!("{}:{}: {}", d.line, d.column, d.message) }
                                        if let Some(e) = &d.expected { { format!(" — expected {e}") } }
                                        if let Some(a) = &d.attribute { { format!(" (attribute {a})") } }
                                    </button>
                                    if let Some(h) = &d.help { <span class="help">{ format!(" {h}") }</span> }
                                </li>
                            }
                        }) }
                    </ul>
                }
            </div>
            <AdList pool={idx} parsed={parse.parsed.clone()} my={s.my} target={s.target} dispatch={props.dispatch.clone()} on_goto={on_goto_ad} on_edit={on_edit_ad} />
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::{common_prefix, common_suffix, too_big, MAX_POOL_BYTES};

    #[test]
    fn the_limit_follows_the_worker_memory_and_is_named() {
        // 4 GiB less the headroom, over 3 bytes of worker memory a byte.
        assert_eq!(MAX_POOL_BYTES, 1 << 30);
        assert_eq!(too_big("p.txt", 243_588_120, 0), None);
        assert_eq!(too_big("p.txt", MAX_POOL_BYTES, 0), None);
        let why = too_big("p.txt", MAX_POOL_BYTES + 1, 0).unwrap_or_default();
        assert!(
            why.starts_with("p.txt is 1024.0 MB; the playground holds pools up to 1024.0 MB"),
            "{why}"
        );
        let why = too_big("p.txt", 600 << 20, 500 << 20).unwrap_or_default();
        assert!(
            why.contains("with the other pools (500.0 MB) that is past the 1024.0 MB"),
            "{why}"
        );
    }

    #[test]
    fn common_prefix_across_blocks() {
        let a: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        for cut in [0, 1, 4095, 4096, 4097, 9_999] {
            let mut b = a.clone();
            b[cut] ^= 1;
            assert_eq!(common_prefix(&a, &b), cut);
        }
        assert_eq!(common_prefix(&a, &a), a.len());
        assert_eq!(common_prefix(&a[..5000], &a), 5000);
    }

    #[test]
    fn common_suffix_across_blocks_and_bounded() {
        let a: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        for cut in [0, 1, 4095, 4096, 4097, 9_999] {
            let mut b = a.clone();
            b[a.len() - 1 - cut] ^= 1;
            assert_eq!(common_suffix(&a, &b, a.len()), cut);
        }
        assert_eq!(common_suffix(&a, &a, a.len()), a.len());
        assert_eq!(common_suffix(&a, &a, 4100), 4100);
        assert_eq!(common_suffix(&a[5000..], &a, 5000), 5000);
    }
}
