//! The header: views, mode, theme, share link, state files, and the
//! autosave warning.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::widgets::term::TermHelp;

use crate::state::actions::Action;
use crate::state::app_state::{AppState, View};
use crate::state::share::{self, LINK_WARN_BYTES};

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
    /// Show (or clear) the page notice.
    pub notify: Callback<Option<String>>,
    /// Open a whole state (from a state file).
    pub on_open: Callback<AppState>,
    /// Why the last autosave failed, if it did.
    pub save_error: Option<String>,
    /// Show the introduction again.
    pub on_help: Callback<()>,
    /// The texts of the MY and TARGET ads as parsed (for the readable
    /// prefill link and the embed snippet); `None` while unknown.
    #[prop_or_default]
    pub my_text: Option<Rc<str>>,
    #[prop_or_default]
    pub target_text: Option<Rc<str>>,
    /// The presenting layout is on; `on_present` turns it on or off.
    #[prop_or_default]
    pub presenting: bool,
    #[prop_or_default]
    pub on_present: Callback<()>,
}

/// The widget's HTML for an expression, MY, TARGET and mode (the embed
/// module's `data-classad-*` attributes), with the script that mounts it.
fn embed_snippet(
    expr: &str,
    my: Option<&str>,
    target: Option<&str>,
    strict: bool,
    seed: bool,
    playground: &str,
) -> String {
    let attr = |s: &str| {
        s.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut div = format!("<div data-classad-expr=\"{}\"", attr(expr));
    for (k, v) in [("data-my", my), ("data-target", target)] {
        if let Some(v) = v.filter(|v| !v.trim().is_empty()) {
            div.push_str(&format!(" {k}=\"{}\"", attr(v)));
        }
    }
    if strict {
        div.push_str(" data-mode=\"strict\"");
    }
    if seed {
        div.push_str(" data-dialect=\"seed\"");
    }
    // "Open in playground" leads here, not back to the course page.
    if !playground.is_empty() {
        div.push_str(&format!(" data-playground=\"{}\"", attr(playground)));
    }
    div.push_str("></div>\n<script type=\"module\" src=\"embed/classad-widget.js\"></script>");
    div
}

/// Why no link can carry the work (making a link: the link error's own
/// words are for opening one).
fn no_link_words(e: &share::LinkError) -> String {
    let why = match e {
        share::LinkError::TooManyPools(n) => format!(
            "The work has {n} pools, more than the {} a link may carry.",
            share::MAX_POOLS
        ),
        share::LinkError::Worker(w) => format!("The engine failed to pack the link ({w})."),
        _ => format!(
            "The work is more than the {} MB a link may carry.",
            share::MAX_LINK_STATE_BYTES >> 20
        ),
    };
    format!("{why} Download a state file to share instead.")
}

/// An iframe showing a view of the playground read-only in a course page:
/// `fragment` is the place (and the share link's state when the work is
/// not an unchanged gallery example), `&embed=1` added.
pub fn view_snippet(playground: &str, fragment: &str, title: &str) -> String {
    let attr = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe src=\"{}#{}&amp;embed=1\" title=\"{}\" width=\"100%\" height=\"640\" style=\"border: 1px solid #ccc; border-radius: 6px\" loading=\"lazy\"></iframe>",
        attr(playground),
        attr(fragment),
        attr(title)
    )
}

/// Apply a theme override (`None`: follow the system).
pub fn set_theme(dark: Option<bool>) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = match dark {
            Some(true) => root.set_attribute("data-theme", "dark"),
            Some(false) => root.set_attribute("data-theme", "light"),
            None => root.remove_attribute("data-theme"),
        };
    }
    // Canvases (the match matrix) repaint in the new colours.
    if let (Some(w), Ok(e)) = (web_sys::window(), web_sys::Event::new(THEME_EVENT)) {
        let _ = w.dispatch_event(&e);
    }
}

/// Dispatched on the window when the theme changes.
pub const THEME_EVENT: &str = "classad-theme";

fn page_url_without_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or("").to_string())
        .unwrap_or_default()
}

/// Ask the user `question` (the browser's own dialog); no answer is no.
pub fn confirm(question: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(false)
}

/// Offer `text` as a file download.
pub fn download(name: &str, text: &str, mime: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if let Ok(a) = doc.create_element("a") {
            let a: web_sys::HtmlAnchorElement = a.unchecked_into();
            a.set_href(&url);
            a.set_download(name);
            a.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

const STATE_FILE_FORMAT: &str = "classad-playground-state";
const STATE_FILE_VERSION: u32 = 1;

fn state_file(state: &AppState) -> String {
    serde_json::to_string_pretty(&serde_json::json!({
        "format": STATE_FILE_FORMAT,
        "version": STATE_FILE_VERSION,
        "engine": classad::api::VERSION,
        "state": state,
    }))
    .unwrap_or_default()
}

/// What a file opened as a state holds.
#[derive(Debug)]
pub enum StateFile {
    State(AppState),
    /// A saved share link's packed state, which the engine worker unpacks.
    Link(String),
}

/// Why a share link saved in a file cannot open, in words for the user.
fn file_link_words(e: share::LinkError) -> String {
    match e {
        share::LinkError::Future(v) => format!(
            "This file holds a link made by a newer version of the playground (link format {v})."
        ),
        share::LinkError::Corrupt(why) => {
            format!("This file holds a share link that is damaged or incomplete ({why}).")
        }
        e => format!("This file holds a share link that cannot open: {e}"),
    }
}

/// Read a state file (or a file holding a share link); the error says why
/// not, in words for the user.
pub fn read_state_file(text: &str) -> Result<StateFile, String> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if !t.starts_with('{') {
        // A saved share link (the whole URL or just its fragment)?
        let frag = t.rsplit_once('#').map(|(_, f)| f).unwrap_or(t);
        let link = frag.starts_with("s=") || frag.starts_with("example=");
        if !link || t.contains('\n') {
            return Err("This file is not a state file (Download state saves one). To open ads, use Upload… in a pool.".into());
        }
        return match share::classify(frag) {
            Ok(share::Fragment::Packed(p, _)) => Ok(StateFile::Link(p)),
            Ok(_) => Err("This file holds no playground state.".into()),
            Err(e) => Err(file_link_words(e)),
        };
    }
    let v: serde_json::Value =
        serde_json::from_str(t).map_err(|e| format!("This file is not a state file: {e}."))?;
    let inner = if v.get("format").and_then(|f| f.as_str()) == Some(STATE_FILE_FORMAT) {
        let ver = v.get("version").and_then(|x| x.as_u64()).unwrap_or(0);
        if ver > STATE_FILE_VERSION as u64 {
            return Err(format!(
                "This state file was written by a newer playground (version {ver}; this one reads up to {STATE_FILE_VERSION})."
            ));
        }
        v.get("state").cloned().unwrap_or_default()
    } else {
        v
    };
    // Read from text, as autosave and links are: reading from a `Value`
    // would link a second reader of the whole state (4 KB of the page).
    let mut s: AppState = serde_json::from_str(&inner.to_string())
        .map_err(|e| format!("This state file is damaged: {e}."))?;
    if let Err(share::LinkError::TooManyPools(n)) = share::check_pools(&s) {
        return Err(format!(
            "This state file holds {n} pools; the playground opens at most {}. Your own work is untouched.",
            share::MAX_POOLS
        ));
    }
    s.normalize();
    Ok(StateFile::State(s))
}

#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let s = &props.state;
    let dark = use_state(crate::state::storage::load_theme);
    let share_msg = use_state(|| None::<(String, bool)>);
    let link = use_state(String::new);

    let on_view = |v: View| {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.emit(Action::SetView(v)))
    };
    let on_dialect = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let dialect = match v.as_str() {
                "seed" => classad::api::Dialect::Seed,
                _ => classad::api::Dialect::Modern,
            };
            d.emit(Action::SetDialect(dialect));
        })
    };
    let on_mode = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            d.emit(Action::SetMode(v.parse().unwrap_or_default()));
        })
    };
    let on_theme = {
        let dark = dark.clone();
        Callback::from(move |_| {
            let next = match *dark {
                None => Some(true),
                Some(true) => Some(false),
                Some(false) => None,
            };
            set_theme(next);
            crate::state::storage::save_theme(next);
            dark.set(next);
        })
    };
    let copy = |url: &str| {
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(url);
        }
    };
    let on_share = {
        let state = s.clone();
        let share_msg = share_msg.clone();
        let link = link.clone();
        Callback::from(move |_| {
            // Compressing megabytes would stall the page for a link no
            // browser would carry anyway.
            let bytes = crate::state::storage::state_bytes(&state);
            if bytes > 2 << 20 {
                link.set(String::new());
                share_msg.set(Some((
                    format!(
                        "The pools hold {}: far too much for a link. Download a state file to share instead.",
                        crate::components::widgets::numbers::megabytes(bytes)
                    ),
                    false,
                )));
                return;
            }
            let (share_msg, link) = (share_msg.clone(), link.clone());
            // The place rides along: the link opens the view (and the
            // classroom's step) the user shares from.
            let place = share::Place::of(&state).fragment();
            crate::bridge::engine::pack(&state, move |r| {
                let url = match r {
                    Ok(frag) => format!("{}#{frag}&{place}", page_url_without_hash()),
                    Err(e) => {
                        link.set(String::new());
                        share_msg.set(Some((no_link_words(&e), false)));
                        return;
                    }
                };
                if url.len() > LINK_WARN_BYTES {
                    share_msg.set(Some((
                        format!(
                            "This link is {} KB: over about 8 KB, chat tools and browsers may cut it off. Download a state file to share instead, or copy the link anyway.",
                            url.len() / 1024
                        ),
                        true,
                    )));
                } else {
                    copy(&url);
                    share_msg.set(Some(("Link copied to the clipboard.".into(), false)));
                }
                link.set(url);
            });
        })
    };
    // Copy text made from the expression, MY and TARGET, show it and say what it is.
    let copy_made = |make: fn(&AppState, Option<&str>, Option<&str>) -> String,
                     said: &'static str| {
        let (state, share_msg, link) = (s.clone(), share_msg.clone(), link.clone());
        let (my, target) = (props.my_text.clone(), props.target_text.clone());
        Callback::from(move |_: MouseEvent| {
            let text = make(&state, my.as_deref(), target.as_deref());
            copy(&text);
            share_msg.set(Some((said.into(), false)));
            link.set(text);
        })
    };
    let on_prefill = copy_made(
        |state, my, target| {
            let frag = share::encode_prefill(&state.expr, my, target, state.mode, state.dialect);
            format!("{}#{}", page_url_without_hash(), frag)
        },
        "Readable link copied: the expression, MY and TARGET, as a course page can write it (spaces as %20 or +, a plus as %2B).",
    );
    let on_widget = copy_made(
        |state, my, target| {
            embed_snippet(
                &state.expr,
                my,
                target,
                state.mode == classad::api::Mode::Strict,
                state.dialect != classad::api::Dialect::Modern,
                &page_url_without_hash(),
            )
        },
        "Embed snippet copied: paste it into a page that serves the playground's embed/ folder.",
    );
    // The matchmaking views, the query and the gallery embed whole, read-only
    // (an iframe of this playground); the workbench embeds as the widget.
    let on_embed = {
        let (state, share_msg, link) = (s.clone(), share_msg.clone(), link.clone());
        Callback::from(move |e: MouseEvent| {
            if !state.view.is_lazy_loaded() {
                return on_widget.emit(e);
            }
            let place = share::Place::of(&state);
            let title = format!(
                "ClassAd Playground: the {} view{}",
                share::view_name(state.view),
                place
                    .example
                    .as_deref()
                    .map(|id| format!(" of {id}"))
                    .unwrap_or_default()
            );
            let done = {
                let (share_msg, link) = (share_msg.clone(), link.clone());
                move |r: Result<String, share::LinkError>| match r {
                    Ok(frag) => {
                        let text = view_snippet(&page_url_without_hash(), &frag, &title);
                        copy(&text);
                        share_msg.set(Some(("Embed snippet copied: an iframe showing this view read-only (it opens the playground's own copy of the work; nothing a reader does there touches their own work).".into(), false)));
                        link.set(text);
                    }
                    Err(e) => {
                        link.set(String::new());
                        share_msg.set(Some((no_link_words(&e), false)));
                    }
                }
            };
            if place.example.is_some() {
                done(Ok(place.fragment()))
            } else {
                let place = place.fragment();
                crate::bridge::engine::pack(&state, move |r| {
                    done(r.map(|f| format!("{f}&{place}")))
                });
            }
        })
    };
    let on_copy_anyway = {
        let link = link.clone();
        let share_msg = share_msg.clone();
        Callback::from(move |_| {
            copy(&link);
            share_msg.set(Some(("Long link copied to the clipboard.".into(), false)));
        })
    };
    let on_close_share = {
        let share_msg = share_msg.clone();
        Callback::from(move |_| share_msg.set(None))
    };
    let on_download_state = {
        let state = s.clone();
        Callback::from(move |_| {
            download(
                "classad-playground-state.json",
                &state_file(&state),
                "application/json",
            );
        })
    };
    let on_open_state = {
        let d = props.on_open.clone();
        let notify = props.notify.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let Some(file) = input.files().and_then(|l| l.get(0)) else {
                return;
            };
            input.set_value("");
            let Ok(reader) = web_sys::FileReader::new() else {
                return;
            };
            let r2 = reader.clone();
            let d = d.clone();
            let notify = notify.clone();
            let name = file.name();
            let onload = Closure::<dyn FnMut()>::new(move || {
                let text = r2
                    .result()
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                let fail = {
                    let (notify, name) = (notify.clone(), name.clone());
                    move |why: String| {
                        notify.emit(Some(format!("{name}: {why} Your own work is untouched.")))
                    }
                };
                match read_state_file(&text) {
                    Ok(StateFile::State(st)) => d.emit(st),
                    Ok(StateFile::Link(p)) => {
                        let d = d.clone();
                        crate::bridge::engine::unpack(&p, move |r| match r {
                            Ok(st) => d.emit(st),
                            Err(e) => fail(file_link_words(e)),
                        })
                    }
                    Err(why) => fail(why),
                }
            });
            reader.set_onload(Some(onload.as_ref().unchecked_ref()));
            onload.forget();
            let _ = reader.read_as_text(&file);
        })
    };
    // Escape closes an open menu first, then the share message.
    {
        let (share_msg, link) = (share_msg.clone(), link.clone());
        crate::components::widgets::escape::use_escape_first(Callback::from(move |_| {
            if crate::components::widgets::escape::close_menus() {
                return true;
            }
            let open = share_msg.is_some();
            share_msg.set(None);
            link.set(String::new());
            open
        }));
    }
    let on_present = {
        let c = props.on_present.clone();
        Callback::from(move |_| c.emit(()))
    };
    // The button cycles system → dark → light: it says so, and what's next.
    let (theme_icon, theme_label) = match *dark {
        None => ("◐", "Theme: system (next: dark)"),
        Some(true) => ("●", "Theme: dark (next: light)"),
        Some(false) => ("○", "Theme: light (next: system)"),
    };
    // A menu's choice closes it.
    let chose = |cb: Callback<MouseEvent>| {
        Callback::from(move |e: MouseEvent| {
            crate::components::widgets::escape::close_menus();
            cb.emit(e)
        })
    };
    let tab = |v: View, label: &'static str| {
        let current = s.view == v;
        html! {
            <button class={classes!("tab", current.then_some("active"))} aria-pressed={current.to_string()} onclick={on_view(v)}>{ label }</button>
        }
    };
    html! {
        <header class="top">
            <h1>{ "ClassAd Playground" }</h1>
            <button id="help" class="help-button" onclick={{ let h = props.on_help.clone(); Callback::from(move |_| h.emit(())) }}
                title="What this is and how to start: the introduction" aria-label="Help: show the introduction">{ "?" }</button>
            <label class="mode">
                { "Mode" }<TermHelp term="the mode" anchor="modes" text="htcondor: what HTCondor's daemons and tools do (a name missing from MY is looked up in TARGET; HTCondor's extra functions). strict: plain libclassad." />{ " " }
                <select onchange={on_mode} title="htcondor: what HTCondor's daemons and tools do; strict: plain libclassad">
                    <option value="htcondor" selected={s.mode == classad::api::Mode::HTCondor}>{ "htcondor" }</option>
                    <option value="strict" selected={s.mode == classad::api::Mode::Strict}>{ "strict" }</option>
                </select>
            </label>
            <label class={classes!("syntax", (s.dialect != classad::api::Dialect::Modern).then_some("syntax-other"))}>
                { "Syntax" }<TermHelp term="the syntax" anchor="syntax-and-dialects" text="HTCondor: what libclassad reads. Seed papers: their notation (2K, 017 octal)." />{ " " }
                <select id="dialect" onchange={on_dialect}>
                    <option value="htcondor" selected={s.dialect == classad::api::Dialect::Modern}>{ "HTCondor" }</option>
                    <option value="seed" selected={s.dialect != classad::api::Dialect::Modern}>{ "seed papers" }</option>
                </select>
            </label>
            <button id="theme" onclick={on_theme} aria-label={theme_label}>{ theme_icon }</button>
            <span class="spacer"></span>
            <details class="menu" id="share-menu">
                <summary>{ "Share ▾" }</summary>
                <div class="menu-items">
                    <button id="share" onclick={chose(on_share)}>{ "Link to the whole work" }</button>
                    <button id="copy-prefill" onclick={chose(on_prefill)}>{ "Readable prefill link" }</button>
                    <button id="embed-snippet" onclick={chose(on_embed)}>{ "Embed snippet" }</button>
                </div>
            </details>
            <details class="menu" id="file-menu">
                <summary>{ "File ▾" }</summary>
                <div class="menu-items">
                    <button id="download-state" onclick={chose(on_download_state.clone())}>{ "Download state file" }</button>
                    <label class="button" title="Open a state file saved with Download state file">
                        { "Open state file…" }
                        <input type="file" class="hidden-file" accept=".json,application/json,text/plain" onchange={on_open_state} />
                    </label>
                </div>
            </details>
            <button id="present" onclick={on_present} aria-pressed={props.presenting.to_string()}
                title="Larger type and the header folded, for a projector">{ if props.presenting { "Stop presenting" } else { "Present" } }</button>
            // In the order they show: the tabs take a row of their own.
            <nav aria-label="Views">
                { tab(View::Evaluate, "Workbench") }
                { tab(View::Query, "Query") }
                { tab(View::Matrix, "Matrix") }
                { tab(View::Negotiation, "Negotiation") }
                { tab(View::Clusters, "Clusters") }
                { tab(View::Analyze, "Analyze") }
                { tab(View::Gangs, "Gangs") }
                { tab(View::Examples, "Examples") }
            </nav>
            if let Some(why) = props.save_error.clone() {
                <div class="save-warning" role="alert">
                    { format!("{why} ") }
                    <button onclick={on_download_state.clone()}>{ "Download state file" }</button>
                </div>
            }
            if let Some((msg, long)) = (*share_msg).clone() {
                <div class="share-msg" role="status">
                    <span>{ msg }</span>
                    if !link.is_empty() {
                        if link.contains('\n') {
                            <textarea class="share-link" readonly=true rows="3" value={(*link).clone()} aria-label="Embed snippet" />
                        } else {
                            <input class="share-link" readonly=true value={(*link).clone()} aria-label="Share link" />
                        }
                    }
                    // A link too long to share well: the file is the other way.
                    if long {
                        <button onclick={on_copy_anyway}>{ "Copy anyway" }</button>
                        <button onclick={on_download_state}>{ "Download state file" }</button>
                    }
                    <button onclick={on_close_share} aria-label="Close the share message">{ "×" }</button>
                </div>
            }
        </header>
    }
}

#[cfg(test)]
mod tests {
    use super::read_state_file;

    #[test]
    fn a_file_that_is_not_a_state_file_is_said_to_be_so_once() {
        // A pool, not a state file: not called a "share link", and the
        // caller adds "Your own work is untouched." once.
        let e = read_state_file("[ Name = \"a\"; x = 1 ]\n[ Name = \"b\" ]\n").unwrap_err();
        assert!(e.starts_with("This file is not a state file"), "{e}");
        assert!(!e.contains("untouched") && !e.contains("share link"), "{e}");
        let e = read_state_file("MyType = \"Machine\"\nName = \"x\"\n").unwrap_err();
        assert!(e.starts_with("This file is not a state file"), "{e}");
        // A saved link that is damaged says so, once.
        let Ok(super::StateFile::Link(packed)) =
            read_state_file("https://example.org/#s=1.0.1.0.AAAA")
        else {
            panic!("a saved link is a link")
        };
        let e = super::file_link_words(crate::state::share::unpack(&packed).unwrap_err());
        assert!(e.contains("share link that is damaged"), "{e}");
        assert!(!e.contains("untouched"), "{e}");
        // A state file that is not JSON enough.
        let e = read_state_file("{ \"format\": 3").unwrap_err();
        assert!(e.starts_with("This file is not a state file"), "{e}");
    }
}
