//! The pool editor: named pools of ads in any format the engine reads,
//! highlighted by the engine's lexer, with diagnostics at their line and
//! column, the list of parsed ads, upload, drag-and-drop and formatting.

use std::rc::Rc;

use classad::api::{AdSummary, Request, Response};
use classad::formats::OutputFormat;
use classad::Diagnostic;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::Action;
use crate::engine;
use crate::state::{AdRef, AppState};

/// Larger files are refused with a message instead of freezing the tab.
pub const MAX_POOL_BYTES: usize = 64 * 1024 * 1024;
/// Above this, highlighting is skipped (the text stays fully editable).
const HIGHLIGHT_LIMIT: usize = 200 * 1024;

#[derive(Clone, PartialEq)]
pub struct ParsedPool {
    pub ads: Vec<AdSummary>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse a pool's text (memoized by the caller).
pub fn parse(text: &str) -> ParsedPool {
    match engine::call(Request::ParsePool {
        text: text.to_string(),
        format: Default::default(),
        dialect: Default::default(),
    }) {
        Response::Pool {
            ads, diagnostics, ..
        } => ParsedPool { ads, diagnostics },
        _ => ParsedPool {
            ads: vec![],
            diagnostics: vec![],
        },
    }
}

#[derive(Properties, PartialEq)]
pub struct PoolEditorProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
}

fn read_file(
    file: web_sys::File,
    dispatch: Callback<Action>,
    pool: usize,
    status: UseStateHandle<Option<String>>,
) {
    let size = file.size() as usize;
    if size > MAX_POOL_BYTES {
        status.set(Some(format!(
            "{} is {} MB; the playground holds pools up to {} MB. Split the file or filter it with condor_status -constraint first.",
            file.name(),
            size >> 20,
            MAX_POOL_BYTES >> 20
        )));
        return;
    }
    status.set(Some(format!(
        "Reading {} ({} KB)…",
        file.name(),
        size / 1024
    )));
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let r2 = reader.clone();
    let name = file.name();
    let onload = Closure::<dyn FnMut()>::new(move || {
        let text = r2
            .result()
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default();
        dispatch.emit(Action::SetPoolText(pool, text));
        status.set(Some(format!("Loaded {name}.")));
    });
    reader.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    let _ = reader.read_as_text(&file);
}

#[component]
pub fn PoolEditor(props: &PoolEditorProps) -> Html {
    let s = &props.state;
    let idx = s.active_pool.min(s.pools.len().saturating_sub(1));
    let text = s.pools.get(idx).map(|p| p.text.clone()).unwrap_or_default();
    let parsed = {
        let text = text.clone();
        use_memo(text, |t| parse(t))
    };
    let tokens = {
        let text = text.clone();
        use_memo(text, |t| {
            if t.len() > HIGHLIGHT_LIMIT {
                vec![]
            } else {
                classad::lexer::highlight(t, Default::default())
            }
        })
    };
    let status = use_state(|| None::<String>);
    let overlay = use_node_ref();

    let on_input = {
        let d = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            d.emit(Action::SetPoolText(idx, v));
        })
    };
    // Keep the highlight layer scrolled with the textarea.
    let on_scroll = {
        let overlay = overlay.clone();
        Callback::from(move |e: Event| {
            let ta = e.target_unchecked_into::<web_sys::HtmlTextAreaElement>();
            if let Some(o) = overlay.cast::<web_sys::HtmlElement>() {
                o.set_scroll_top(ta.scroll_top());
                o.set_scroll_left(ta.scroll_left());
            }
        })
    };
    let on_upload = {
        let d = props.dispatch.clone();
        let status = status.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            if let Some(f) = input.files().and_then(|l| l.get(0)) {
                read_file(f, d.clone(), idx, status.clone());
            }
            input.set_value("");
        })
    };
    let on_drop = {
        let d = props.dispatch.clone();
        let status = status.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(f) = e
                .data_transfer()
                .and_then(|t| t.files())
                .and_then(|l| l.get(0))
            {
                read_file(f, d.clone(), idx, status.clone());
            }
        })
    };
    let on_dragover = Callback::from(|e: DragEvent| e.prevent_default());
    let format_to = |to: OutputFormat| {
        let d = props.dispatch.clone();
        let text = text.clone();
        let status = status.clone();
        Callback::from(move |_| {
            if let Response::Text {
                text: out,
                diagnostics,
            } = engine::call(Request::Format {
                text: text.clone(),
                to,
                dialect: Default::default(),
            }) {
                if diagnostics.iter().any(|d| d.is_error()) {
                    status.set(Some(
                        "Fix the errors first: formatting would drop the ads that do not parse."
                            .into(),
                    ));
                } else {
                    d.emit(Action::SetPoolText(idx, out));
                }
            }
        })
    };
    let select_pool = |i: usize| {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::SelectPool(i)))
    };
    let on_rename = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            d.emit(Action::RenamePool(idx, v));
        })
    };
    let on_add = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::AddPool))
    };
    let on_remove = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::RemovePool(idx)))
    };
    let use_as = |ad: usize, my: bool| {
        let d = props.dispatch.clone();
        Callback::from(move |_| {
            let r = Some(AdRef { pool: idx, ad });
            d.emit(if my {
                Action::SetMy(r)
            } else {
                Action::SetTarget(r)
            });
        })
    };
    let errors = parsed.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = parsed.diagnostics.len() - errors;

    html! {
        <section class="pools" aria-label="Pools">
            <div class="pool-tabs" role="tablist">
                { for s.pools.iter().enumerate().map(|(i, p)| html! {
                    <button role="tab" aria-selected={(i == idx).to_string()} class={classes!("tab", (i == idx).then_some("active"))} onclick={select_pool(i)}>{ p.name.clone() }</button>
                }) }
                <button onclick={on_add} aria-label="Add a pool">{ "+" }</button>
            </div>
            <div class="pool-tools">
                <label>{ "Name " }<input value={s.pools.get(idx).map(|p| p.name.clone()).unwrap_or_default()} onchange={on_rename} aria-label="Pool name" /></label>
                <label class="button">{ "Upload…" }<input type="file" class="hidden-file" onchange={on_upload} aria-label="Upload a pool file" /></label>
                <button onclick={format_to(OutputFormat::New)}>{ "Format" }</button>
                <button onclick={format_to(OutputFormat::Old)}>{ "As long format" }</button>
                <button onclick={format_to(OutputFormat::Json)}>{ "As JSON" }</button>
                if s.pools.len() > 1 {
                    <button onclick={on_remove}>{ "Delete pool" }</button>
                }
            </div>
            <div class="editor" ondrop={on_drop} ondragover={on_dragover}>
                <pre class="highlight" ref={overlay} aria-hidden="true">{ super::highlight::render(&text, &tokens, None) }</pre>
                <textarea id="pool-text" spellcheck="false" value={text.clone()} oninput={on_input} onscroll={on_scroll}
                    aria-label="Ads in this pool (new ClassAd syntax, condor_status -l long format, or JSON)"
                    placeholder="Paste ads here: [ … ] records, condor_status -l output, or condor_status -json. Or drop a file." />
            </div>
            if let Some(msg) = (*status).clone() {
                <p class="status" role="status">{ msg }</p>
            }
            <div class="diagnostics" aria-live="polite">
                <p class="summary">{ format!("{} ads, {} errors, {} warnings", parsed.ads.len(), errors, warnings) }</p>
                <ul>
                    { for parsed.diagnostics.iter().take(200).map(|d| html! {
                        <li class={classes!(if d.is_error() { "diag-error" } else { "diag-warning" })}>
                            { format!("{}:{}: {}", d.line, d.column, d.message) }
                            if let Some(e) = &d.expected { { format!(" — expected {e}") } }
                            if let Some(a) = &d.attribute { { format!(" (attribute {a})") } }
                        </li>
                    }) }
                </ul>
            </div>
            <ol class="ad-list" aria-label="Parsed ads">
                { for parsed.ads.iter().enumerate().take(2000).map(|(i, a)| {
                    let is_my = s.my == Some(AdRef { pool: idx, ad: i });
                    let is_target = s.target == Some(AdRef { pool: idx, ad: i });
                    html! {
                        <li class={classes!(is_my.then_some("is-my"), is_target.then_some("is-target"))}>
                            <span class="ad-label">{ a.label.clone() }</span>
                            <span class="ad-meta">{ format!(" line {}, {} attributes", a.line, a.attributes.len()) }</span>
                            <button onclick={use_as(i, true)} aria-label={format!("Use {} as MY", a.label)}>{ "MY" }</button>
                            <button onclick={use_as(i, false)} aria-label={format!("Use {} as TARGET", a.label)}>{ "TARGET" }</button>
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}
