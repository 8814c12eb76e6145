//! The pool editor: named pools of ads in any format the engine reads
//! (new syntax, the long format, JSON, XML),
//! highlighted by the engine's lexer, with diagnostics marked in the text
//! and listed (click one to go there), the parsed ads, upload,
//! drag-and-drop and formatting. Big pools parse in the worker with a
//! visible, cancellable state.

use std::rc::Rc;

use classad::api::{OutputFormat, Request};
use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::answers::Answer;
use crate::components::ad_editor::AdEditor;
use crate::components::ad_list::AdList;
use crate::components::highlight::Mark;
use crate::components::pool_viewer::PoolViewer;
use crate::components::text_editor::{Focus, TextEditor, Tokens, EDIT_LIMIT, HIGHLIGHT_LIMIT};
use crate::engine::{self, WORKER_THRESHOLD_BYTES};
use crate::parses::Parsed;
use crate::parses::{Busy, PoolParse};
use crate::state::{AppState, TextKey};
use crate::store::{Action, PoolMark};
use crate::worker::WorkerClient;

/// Larger texts are refused with a message instead of freezing the tab.
pub const MAX_POOL_BYTES: usize = 64 * 1024 * 1024;

fn mb(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / 1048576.0)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

fn confirm(question: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(false)
}

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

fn read_file(
    file: web_sys::File,
    dispatch: Callback<Action>,
    pool: usize,
    status: UseStateHandle<Option<String>>,
    before: Rc<str>,
    replaced: UseStateHandle<Replaced>,
) {
    let size = file.size() as usize;
    let name = file.name();
    if size > MAX_POOL_BYTES {
        status.set(Some(format!(
            "{name} is {}; the playground holds pools up to {}. Split the file, or filter it first (condor_status -constraint …).",
            mb(size),
            mb(MAX_POOL_BYTES)
        )));
        return;
    }
    status.set(Some(format!("Reading {name} ({})…", mb(size))));
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let r2 = reader.clone();
    let st = status.clone();
    let n2 = name.clone();
    let onload = Closure::<dyn FnMut()>::new(move || {
        // The bytes, not a JavaScript string: megabytes of text come over
        // in one copy (see js_text).
        let text = r2
            .result()
            .ok()
            .map(|v| crate::js_text::text_of_bytes(js_sys::Uint8Array::new(&v).to_vec()))
            .unwrap_or_default();
        let note = if text.len() > WORKER_THRESHOLD_BYTES {
            format!(
                "Loaded {n2} ({}); its ads are parsed in the background.",
                mb(text.len())
            )
        } else {
            format!("Loaded {n2}.")
        };
        let after: Rc<str> = Rc::from(text);
        // The page takes the text in a task of its own (the views'
        // work on it is the next one): neither blocks the page for long.
        let (before, replaced, dispatch, st) = (
            before.clone(),
            replaced.clone(),
            dispatch.clone(),
            st.clone(),
        );
        Timeout::new(0, move || {
            // Nothing typed is lost: what the file replaced can come back.
            if !before.trim().is_empty() && *before != *after {
                replaced.set(Some((pool, before.clone(), after.clone())));
            }
            dispatch.emit(Action::SetPoolText(pool, after));
            st.set(Some(note));
        })
        .forget();
    });
    // Progress for big files (ProgressEvent read by name: no extra bindings).
    let st = status.clone();
    let onprogress = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        let get = |k: &str| {
            js_sys::Reflect::get(&e, &k.into())
                .ok()
                .and_then(|v| v.as_f64())
        };
        if let (Some(done), Some(total)) = (get("loaded"), get("total")) {
            if total > 0.0 {
                st.set(Some(format!(
                    "Reading {name}: {:.0}% of {}…",
                    100.0 * done / total,
                    mb(total as usize)
                )));
            }
        }
    });
    let st = status.clone();
    let onerror =
        Closure::<dyn FnMut()>::new(move || st.set(Some("The file could not be read.".into())));
    reader.set_onload(Some(onload.as_ref().unchecked_ref()));
    reader.set_onprogress(Some(onprogress.as_ref().unchecked_ref()));
    reader.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    onload.forget();
    onprogress.forget();
    onerror.forget();
    let _ = reader.read_as_array_buffer(&file);
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
    let tokens = use_memo(TextKey(text.clone()), |TextKey(t)| {
        if t.len() > HIGHLIGHT_LIMIT {
            vec![]
        } else {
            classad::api::highlight_pool(t, Default::default())
        }
    });
    // Diagnostics are drawn in the text only when they belong to it; while
    // a small pool's parse is under way (a few ms), the last ones stand in,
    // moved past the edit, so the squiggles do not blink as you type.
    let quick = parse.busy == Busy::Quick;
    let marks = use_memo(
        (
            parse.parsed.clone(),
            parse.current,
            quick,
            TextKey(text.clone()),
        ),
        |(p, current, quick, TextKey(text))| match p {
            Some(p) if *current || *quick => diagnostic_marks(p, text),
            _ => vec![],
        },
    );
    let status = use_state(|| None::<String>);
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

    let on_change = {
        let d = props.dispatch.clone();
        let status = status.clone();
        Callback::from(move |t: Rc<str>| {
            if t.len() > MAX_POOL_BYTES {
                status.set(Some(format!(
                    "That is {} of text; the playground holds pools up to {}. Only the previous text is kept.",
                    mb(t.len()),
                    mb(MAX_POOL_BYTES)
                )));
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
                    status.clone(),
                    before.clone(),
                    replaced.clone(),
                );
            }
            input.set_value("");
        })
    };
    let on_drop = {
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
                    status.clone(),
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
                move |resp: Answer| {
                    formatting.set(false);
                    match resp {
                        Answer { kind, diagnostics, .. } if kind == "text" && diagnostics.iter().any(|d| d.is_error()) => status.set(Some(
                            "Fix the errors first: formatting would drop the ads that do not parse.".into(),
                        )),
                        Answer { kind, text: out, .. } if kind == "text" => {
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
                dialect: Default::default(),
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
                    mb(text.len())
                )));
                let json = serde_json::to_string(&req).unwrap_or_default();
                let status = status.clone();
                formatter.request("api", &json, move |r| {
                    match r
                        .and_then(|j| serde_json::from_str::<Answer>(&j).map_err(|e| e.to_string()))
                    {
                        Ok(resp) => done(resp),
                        Err(e) => status.set(Some(format!("Formatting failed: {e}"))),
                    }
                });
            }
        })
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
            crate::components::header::download(&format!("{name}.txt"), &text, "text/plain")
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
    let busy_row = match &parse.busy {
        Busy::Parsing { bytes, .. } => {
            let cancel = {
                let c = props.on_cancel.clone();
                Callback::from(move |_| c.emit(idx))
            };
            html! {
                <div class="busy" role="status">
                    <progress aria-label="Parsing"></progress>
                    <span>{ format!("Parsing {} in the background…", mb(*bytes)) }</span>
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
                <button onclick={on_add} aria-label="Add a pool" title="Add a pool">{ "+" }</button>
            </div>
            <div class="pool-tools">
                <label>{ "Name " }<input class="pool-name" ref={name_ref} value={s.pools.get(idx).map(|p| p.name.clone()).unwrap_or_default()} onchange={on_rename} /></label>
                <label class="button">{ "Upload…" }<input type="file" class="hidden-file" onchange={on_upload} aria-label="Upload a pool file" /></label>
                <button onclick={format_to(OutputFormat::New)} disabled={*formatting} title="Rewrite in the new ClassAd syntax">{ "Format" }</button>
                <button onclick={format_to(OutputFormat::Old)} disabled={*formatting} title="Rewrite as condor_status -l prints it">{ "To long format" }</button>
                <button onclick={format_to(OutputFormat::Json)} disabled={*formatting} title="Rewrite as condor_status -json prints it">{ "To JSON" }</button>
                <button onclick={format_to(OutputFormat::Xml)} disabled={*formatting} title="Rewrite as condor_status -xml prints it">{ "To XML" }</button>
                if *formatting {
                    <button onclick={cancel_format}>{ "Stop formatting" }</button>
                }
                if s.pools.len() > 1 {
                    <button onclick={on_remove} aria-label="Delete this pool" title="Delete this pool">{ "Delete" }</button>
                }
            </div>
            { busy_row }
            if !editable {
                <p class="big-note">
                    { format!("This pool is {}: it is shown read-only, since browsers cannot edit that much text in a box. Edit an ad with its Edit button below, or upload or drop a new file. ", mb(text.len())) }
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
            <div class="diagnostics" aria-live="polite">
                <p class="summary" id="pool-summary">
                    { format!(
                        "{}, {}, {}",
                        crate::words::count(n_ads as u64, "ad", "ads"),
                        crate::words::count(errors as u64, "error", "errors"),
                        crate::words::count(warnings as u64, "warning", "warnings")
                    ) }
                    if parse.parsed.is_some() && !parse.current && !quick { <span class="muted">{ " (of the text before your last edits)" }</span> }
                    if let (Some(p), true) = (&parse.parsed, parse.current) {
                        if p.ms > 0.0 { <span class="muted">{ format!(" · parsed in the background in {:.1} s", p.ms / 1000.0) }</span> }
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
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::{common_prefix, common_suffix};

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
