//! The pool text editor: a transparent textarea over a highlighted copy of
//! the text (engine lexer tokens and marks). The textarea is uncontrolled:
//! its value is written only when the text changes from outside (upload,
//! format, another pool), never back on every keystroke, so a 5 MB pool
//! types as fast as an empty one. Big texts drop the highlight layer and
//! hand their value up after a pause in typing instead of on every key.

use std::cell::RefCell;
use std::rc::Rc;

use classad::api::Highlight;
use wasm_bindgen::JsCast;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::components::widgets::highlight::{self, Mark};
use crate::state::app_state::SharedText;
use gloo_timers::callback::Timeout;

/// Above this, no highlight layer (plain textarea, long lines unwrapped).
pub const HIGHLIGHT_LIMIT: usize = 200 * 1024;

/// Up to this size every key hands the text up at once.
const INSTANT_LIMIT: usize = 32 * 1024;

/// Larger texts are shown read-only (`PoolViewer`) and edited ad by ad:
/// a browser textarea re-lays out all its text on every key.
pub const EDIT_LIMIT: usize = 1024 * 1024;

/// Pastes larger than this bypass the browser's editing machinery, whose
/// insertion into a textarea is quadratic (Chromium: 9 s for 60 KB); the
/// new value is set directly (milliseconds), at the cost of undo.
const BIG_PASTE: usize = 8 * 1024;

/// A range to select and scroll to; `seq` makes a repeated request count.
#[derive(Clone, Debug, PartialEq)]
pub struct Focus {
    pub start: usize,
    pub end: usize,
    pub seq: u32,
    /// Put the caret there (a diagnostic was clicked) or only show it.
    pub take_focus: bool,
    /// Classes of the mark drawn over the range.
    pub class: &'static str,
}

/// Lexer tokens, compared by identity (they come from a memo).
#[derive(Clone)]
pub struct Tokens(pub Rc<Vec<Highlight>>);

impl PartialEq for Tokens {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

#[derive(Properties)]
pub struct TextEditorProps {
    pub id: AttrValue,
    pub text: Rc<str>,
    pub on_change: Callback<Rc<str>>,
    pub tokens: Tokens,
    pub marks: Rc<Vec<Mark>>,
    #[prop_or_default]
    pub focus: Option<Focus>,
    pub label: AttrValue,
    #[prop_or_default]
    pub placeholder: AttrValue,
    #[prop_or_default]
    pub describedby: Option<AttrValue>,
    /// Extra classes for the editor box (`small` for the expression).
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub on_keydown: Option<Callback<KeyboardEvent>>,
}

/// Props compare the text by pointer first: a pasted text of megabytes is
/// the same `Rc` from render to render, and comparing its bytes on every
/// render held the page for 90 ms.
impl PartialEq for TextEditorProps {
    fn eq(&self, o: &Self) -> bool {
        let TextEditorProps {
            id,
            text,
            on_change,
            tokens,
            marks,
            focus,
            label,
            placeholder,
            describedby,
            class,
            on_keydown,
        } = self;
        (Rc::ptr_eq(text, &o.text) || **text == *o.text)
            && *id == o.id
            && *on_change == o.on_change
            && *tokens == o.tokens
            && *marks == o.marks
            && *focus == o.focus
            && *label == o.label
            && *placeholder == o.placeholder
            && *describedby == o.describedby
            && *class == o.class
            && *on_keydown == o.on_keydown
    }
}

/// Byte offset to the UTF-16 offset the DOM selection APIs use.
fn utf16_at(text: &str, byte: usize) -> u32 {
    let mut b = byte.min(text.len());
    while b > 0 && !text.is_char_boundary(b) {
        b -= 1;
    }
    text[..b].encode_utf16().count() as u32
}

/// Scroll the textarea so the range is in view: from the marked element
/// of the highlight layer when there is one, else by line arithmetic
/// (big texts are unwrapped, so lines are rows).
fn scroll_to(
    ta: &HtmlTextAreaElement,
    overlay: Option<web_sys::Element>,
    text: &str,
    start: usize,
) {
    let h = ta.client_height() as f64;
    let top = if let Some(el) = overlay
        .and_then(|o| o.query_selector(".focus-mark").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        el.offset_top() as f64
    } else {
        let line = text.as_bytes()[..start.min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let lines = text.as_bytes().iter().filter(|&&b| b == b'\n').count() + 1;
        let row = (ta.scroll_height() as f64 - 16.0).max(0.0) / lines as f64;
        line as f64 * row
    };
    ta.set_scroll_top((top - h / 3.0).max(0.0) as i32);
}

#[component]
pub fn TextEditor(props: &TextEditorProps) -> Html {
    let ta_ref = use_node_ref();
    let overlay = use_node_ref();
    // The text the textarea is known to hold.
    let synced = use_mut_ref(|| None::<Rc<str>>);
    let pending = use_mut_ref(|| None::<Timeout>);
    let big = props.text.len() > HIGHLIGHT_LIMIT;

    // Write the value only when it came from outside.
    {
        let ta_ref = ta_ref.clone();
        let synced = synced.clone();
        let pending = pending.clone();
        // Keyed by identity first (`Rc<str>`'s own `==` compares every byte
        // even of one and the same text: 118 ms per render after a 26.6 MB
        // paste).
        use_effect_with(SharedText(props.text.clone()), move |SharedText(text)| {
            let known = synced
                .borrow()
                .as_ref()
                .is_some_and(|s| Rc::ptr_eq(s, text) || **s == **text);
            if !known {
                if let Some(ta) = ta_ref.cast::<HtmlTextAreaElement>() {
                    *pending.borrow_mut() = None;
                    ta.set_value(text);
                }
                *synced.borrow_mut() = Some(text.clone());
            }
        });
    }
    // Select and scroll to a requested range.
    {
        let ta_ref = ta_ref.clone();
        let overlay = overlay.clone();
        let text = props.text.clone();
        use_effect_with(props.focus.clone(), move |f| {
            if let (Some(f), Some(ta)) = (f, ta_ref.cast::<HtmlTextAreaElement>()) {
                if f.take_focus {
                    let _ = ta.focus();
                    let _ =
                        ta.set_selection_range(utf16_at(&text, f.start), utf16_at(&text, f.end));
                }
                scroll_to(&ta, overlay.cast::<web_sys::Element>(), &text, f.start);
                if let Some(o) = overlay.cast::<web_sys::HtmlElement>() {
                    o.set_scroll_top(ta.scroll_top());
                    o.set_scroll_left(ta.scroll_left());
                }
                // Bring the editor itself into the window (narrow layouts).
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                ta.scroll_into_view_with_scroll_into_view_options(&opts);
            }
        });
    }

    let emit = {
        let synced = synced.clone();
        let on_change = props.on_change.clone();
        move |ta: &HtmlTextAreaElement| {
            let v: Rc<str> = Rc::from(ta.value());
            *synced.borrow_mut() = Some(v.clone());
            on_change.emit(v);
        }
    };
    let emit = Rc::new(RefCell::new(emit));
    // Past INSTANT_LIMIT the text is handed up after a pause in typing
    // (parsing and highlighting per key would lag); meanwhile the textarea
    // shows its own plain text ("typing") and the highlight catches up.
    let instant = props.text.len() <= INSTANT_LIMIT;
    let typing = use_state(|| false);
    let on_input = {
        let emit = emit.clone();
        let pending = pending.clone();
        let typing = typing.clone();
        Callback::from(move |e: InputEvent| {
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            if instant {
                (emit.borrow_mut())(&ta);
                return;
            }
            if !*typing && !big {
                typing.set(true);
            }
            let emit = emit.clone();
            let typing = typing.clone();
            let wait = if big { 400 } else { 250 };
            *pending.borrow_mut() = Some(Timeout::new(wait, move || {
                (emit.borrow_mut())(&ta);
                typing.set(false);
            }));
        })
    };
    // Leaving the editor hands over what is still pending at once.
    let on_blur = {
        let pending = pending.clone();
        let typing = typing.clone();
        Callback::from(move |e: FocusEvent| {
            if pending.borrow_mut().take().is_some() {
                (emit.borrow_mut())(&e.target_unchecked_into());
                typing.set(false);
            }
        })
    };
    // A big paste skips the browser's editing (see BIG_PASTE).
    let on_paste = {
        let on_change = props.on_change.clone();
        let synced = synced.clone();
        Callback::from(move |e: Event| {
            let data = js_sys::Reflect::get(&e, &"clipboardData".into()).ok();
            let get = data
                .as_ref()
                .and_then(|d| js_sys::Reflect::get(d, &"getData".into()).ok());
            let pasted = match (
                data,
                get.and_then(|f| f.dyn_into::<js_sys::Function>().ok()),
            ) {
                (Some(d), Some(f)) => f.call1(&d, &"text/plain".into()).ok(),
                _ => None,
            };
            let Some(pasted) = pasted.filter(|p| {
                p.dyn_ref::<js_sys::JsString>()
                    .is_some_and(|s| s.length() as usize > BIG_PASTE)
            }) else {
                return;
            };
            e.prevent_default();
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            let (from, to) = (
                ta.selection_start().ok().flatten(),
                ta.selection_end().ok().flatten(),
            );
            // The text comes into Rust a slice per task after this one (the
            // browser's own reading of a 17.6 MB clipboard fills it), and
            // the views' work on it in the task after that.
            let (on_change, synced) = (on_change.clone(), synced.clone());
            crate::bridge::js_text::string_of_in_steps(pasted, move |pasted| {
                let Some(pasted) = pasted else {
                    return;
                };
                let v = ta.value();
                let at = |u: Option<u32>| {
                    let u = u.unwrap_or(0) as usize;
                    let mut n = 0;
                    v.char_indices()
                        .find(|(_, c)| {
                            let here = n >= u;
                            n += c.len_utf16();
                            here
                        })
                        .map(|(i, _)| i)
                        .unwrap_or(v.len())
                };
                let (s, t) = (at(from), at(to));
                let (s, t) = (s.min(t), s.max(t));
                let new: Rc<str> = if s == 0 && t == v.len() {
                    Rc::from(pasted.as_str())
                } else {
                    Rc::from(format!("{}{}{}", &v[..s], pasted, &v[t..]))
                };
                // Past EDIT_LIMIT the pool editor shows a viewer instead.
                if new.len() <= EDIT_LIMIT {
                    ta.set_value(&new);
                    let caret = utf16_at(&new, s + pasted.len());
                    let _ = ta.set_selection_range(caret, caret);
                }
                *synced.borrow_mut() = Some(new.clone());
                Timeout::new(0, move || on_change.emit(new)).forget();
            });
        })
    };
    // Keep the highlight layer scrolled with the textarea.
    let on_scroll = {
        let overlay = overlay.clone();
        Callback::from(move |e: Event| {
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            if let Some(o) = overlay.cast::<web_sys::HtmlElement>() {
                o.set_scroll_top(ta.scroll_top());
                o.set_scroll_left(ta.scroll_left());
            }
        })
    };

    let marks: Vec<Mark> = match &props.focus {
        Some(f) => {
            let mut m = (*props.marks).clone();
            m.push(Mark {
                start: f.start,
                end: f.end,
                class: f.class,
            });
            m
        }
        None => Vec::new(),
    };
    let marks: &[Mark] = if props.focus.is_some() {
        &marks
    } else {
        &props.marks
    };

    html! {
        <div class={classes!("editor", big.then_some("plain"), typing.then_some("typing"), props.class.clone())}>
            if !big {
                <pre class="highlight" ref={overlay} aria-hidden="true">
                    { highlight::render(&props.text, &props.tokens.0, marks) }
                </pre>
            }
            <textarea id={props.id.clone()} ref={ta_ref} spellcheck="false" autocomplete="off"
                wrap={if big { "off" } else { "soft" }}
                oninput={on_input} onblur={on_blur} onscroll={on_scroll} onpaste={on_paste} onkeydown={props.on_keydown.clone()}
                aria-label={props.label.clone()} aria-describedby={props.describedby.clone()}
                placeholder={props.placeholder.clone()} />
        </div>
    }
}
