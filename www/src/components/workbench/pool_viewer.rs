//! A read-only view of a pool too big for a textarea (browsers re-lay out
//! a textarea's whole text on every key: seconds per key at 5 MB). Only the
//! lines in sight are in the page, highlighted by the engine's lexer, so a
//! 60 MB pool scrolls like a small one. Ads are edited one at a time (see
//! `ad_editor.rs`); diagnostics and picked spans scroll into view here.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::highlight::{self, Mark};
use crate::components::text_editor::Focus;

/// Pixel height of a line (the CSS sets the same).
const LINE_PX: f64 = 20.0;
/// Lines rendered beyond the visible ones, above and below.
const SLACK: usize = 30;

#[derive(Properties)]
pub struct PoolViewerProps {
    pub text: Rc<str>,
    pub marks: Rc<Vec<Mark>>,
    #[prop_or_default]
    pub focus: Option<Focus>,
    pub label: AttrValue,
}

/// The text by identity (see `state::same_text`): it is megabytes.
impl PartialEq for PoolViewerProps {
    fn eq(&self, o: &Self) -> bool {
        crate::state::same_text(&self.text, &o.text)
            && self.marks == o.marks
            && self.focus == o.focus
            && self.label == o.label
    }
}

/// Byte offsets where lines start.
fn line_starts(text: &str) -> Vec<usize> {
    let mut v = Vec::with_capacity(text.len() / 40 + 1);
    v.push(0);
    // `match_indices` of a char searches with memchr: a byte-at-a-time
    // filter took 15 ms over a 17.6 MB pool.
    v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    v
}

#[component]
pub fn PoolViewer(props: &PoolViewerProps) -> Html {
    let starts = use_memo(crate::state::TextKey(props.text.clone()), |t| {
        line_starts(&t.0)
    });
    let top_line = use_state(|| 0usize);
    let height = use_state(|| 24usize);
    let box_ref = use_node_ref();

    // Scroll a requested range into view.
    {
        let box_ref = box_ref.clone();
        let starts = starts.clone();
        let top_line = top_line.clone();
        use_effect_with(props.focus.clone(), move |f| {
            if let (Some(f), Some(el)) = (f, box_ref.cast::<web_sys::HtmlElement>()) {
                let line = starts.partition_point(|&s| s <= f.start).saturating_sub(1);
                let y = (line as f64 * LINE_PX - el.client_height() as f64 / 3.0).max(0.0);
                el.set_scroll_top(y as i32);
                top_line.set((y / LINE_PX) as usize);
                let opts = web_sys::ScrollIntoViewOptions::new();
                opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                el.scroll_into_view_with_scroll_into_view_options(&opts);
            }
        });
    }
    let on_scroll = {
        let top_line = top_line.clone();
        let height = height.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::HtmlElement = e.target_unchecked_into();
            let first = (el.scroll_top() as f64 / LINE_PX) as usize;
            let rows = (el.client_height() as f64 / LINE_PX) as usize + 1;
            if first != *top_line {
                top_line.set(first);
            }
            if rows != *height {
                height.set(rows);
            }
        })
    };

    let n = starts.len();
    let from = top_line.saturating_sub(SLACK).min(n.saturating_sub(1));
    let to = (*top_line + *height + SLACK).min(n);
    let a = starts[from];
    let b = if to < n { starts[to] } else { props.text.len() };
    let slice = &props.text[a..b];
    let tokens = classad::api::highlight_pool(slice, Default::default());
    let focus = props.focus.as_ref().map(|f| Mark {
        start: f.start,
        end: f.end,
        class: f.class,
    });
    let mut marks: Vec<Mark> = props
        .marks
        .iter()
        .chain(focus.iter())
        .filter(|m| m.end >= a && m.start <= b)
        .map(|m| Mark {
            start: m.start.max(a) - a,
            end: m.end.min(b).max(m.start.max(a)) - a,
            class: m.class,
        })
        .collect();
    marks.truncate(500);

    html! {
        <div class="editor viewer" ref={box_ref} onscroll={on_scroll} tabindex="0" role="region" aria-label={props.label.clone()}>
            <div class="viewer-space" style={format!("height: {}px", n as f64 * LINE_PX + 16.0)}>
                <pre class="viewer-window" style={format!("top: {}px", from as f64 * LINE_PX + 8.0)}>
                    { highlight::render(slice, &tokens, &marks) }
                </pre>
            </div>
        </div>
    }
}
