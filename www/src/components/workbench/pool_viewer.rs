//! A read-only view of a pool (or an expression) too big for a textarea (browsers re-lay out
//! a textarea's whole text on every key: seconds per key at 5 MB). Only the
//! lines in sight are in the page, highlighted by the engine's lexer, so a
//! 60 MB pool scrolls like a small one. Ads are edited one at a time (see
//! `ad_editor.rs`); diagnostics and picked spans scroll into view here.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::widgets::highlight::{self, Mark};
use crate::components::widgets::text_editor::Focus;

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
    /// The text is one expression (the evaluator's), not a pool of ads:
    /// highlighted by the expression lexer.
    #[prop_or_default]
    pub expression: bool,
}

/// The text by identity (see `state::same_text`): it is megabytes.
impl PartialEq for PoolViewerProps {
    fn eq(&self, o: &Self) -> bool {
        crate::state::app_state::same_text(&self.text, &o.text)
            && self.marks == o.marks
            && self.focus == o.focus
            && self.label == o.label
            && self.expression == o.expression
    }
}

/// Every this many lines, the index keeps where the line starts; a line
/// between two is found by scanning at most this many lines.
const EVERY: usize = 64;

/// The most text the window lays out (see `PoolViewer`).
const WINDOW_MAX: usize = 8 << 10;

/// Bytes of text indexed per task: a 250 MB pool's six million lines are
/// found in tasks of a few ms, not in one of a third of a second.
const STEP_BYTES: usize = 4 << 20;

/// Where the lines start, found a step at a time (see [`STEP_BYTES`]).
struct LineIndex {
    /// `marks[k]`: the byte offset where line `k * EVERY` starts.
    marks: Vec<usize>,
    /// Lines seen so far (the last one perhaps not ended yet).
    lines: usize,
    /// Bytes scanned so far.
    scanned: usize,
}

impl LineIndex {
    fn new() -> LineIndex {
        LineIndex {
            marks: vec![0],
            lines: 1,
            scanned: 0,
        }
    }

    fn done(&self, text: &str) -> bool {
        self.scanned >= text.len()
    }

    /// Index the next [`STEP_BYTES`] or so (to a character boundary).
    fn step(&mut self, text: &str) {
        self.step_by(text, STEP_BYTES);
    }

    fn step_by(&mut self, text: &str, bytes: usize) {
        let a = self.scanned;
        let mut b = (a + bytes).min(text.len());
        while !text.is_char_boundary(b) {
            b += 1;
        }
        // `match_indices` of a char searches with memchr: a byte-at-a-time
        // filter took 15 ms over a 17.6 MB pool.
        for (i, _) in text[a..b].match_indices('\n') {
            if self.lines % EVERY == 0 {
                self.marks.push(a + i + 1);
            }
            self.lines += 1;
        }
        self.scanned = b;
    }

    /// How many lines to make room for: those seen, and while the index is
    /// being built, an estimate of the rest at the same bytes per line.
    fn total(&self, text: &str) -> usize {
        if self.done(text) || self.scanned == 0 {
            return self.lines;
        }
        let per_line = self.scanned as f64 / self.lines as f64;
        self.lines + ((text.len() - self.scanned) as f64 / per_line) as usize
    }

    /// Where line `line` starts: the text's end past its last line, and
    /// the end of what is indexed past that while the index is built.
    fn start(&self, text: &str, line: usize) -> usize {
        let k = line / EVERY;
        let Some(&mark) = self.marks.get(k) else {
            return self.scanned.min(text.len());
        };
        let mut at = mark;
        for _ in 0..line - k * EVERY {
            match text[at..].find('\n') {
                Some(i) => at += i + 1,
                None => return text.len(),
            }
        }
        at
    }

    /// The line holding byte `offset` (as far as the index goes).
    fn line_of(&self, text: &str, offset: usize) -> usize {
        let k = self
            .marks
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let from = self.marks[k];
        let mut to = offset.min(text.len());
        while !text.is_char_boundary(to) {
            to -= 1;
        }
        k * EVERY + text[from.min(to)..to].matches('\n').count()
    }
}

#[component]
pub fn PoolViewer(props: &PoolViewerProps) -> Html {
    let redraw = use_force_update();
    // Built a step per task; the first step at once (all of a text of a
    // few MB).
    let index = use_memo(
        crate::state::app_state::SharedText(props.text.clone()),
        |t| {
            let mut ix = LineIndex::new();
            ix.step(&t.0);
            std::cell::RefCell::new(ix)
        },
    );
    {
        let (index, text) = (index.clone(), props.text.clone());
        use_effect_with(
            crate::state::app_state::SharedText(props.text.clone()),
            move |_| {
                let alive = Rc::new(std::cell::Cell::new(true));
                fn more(
                    index: Rc<std::cell::RefCell<LineIndex>>,
                    text: Rc<str>,
                    alive: Rc<std::cell::Cell<bool>>,
                    redraw: UseForceUpdateHandle,
                ) {
                    if !alive.get() || index.borrow().done(&text) {
                        return;
                    }
                    gloo_timers::callback::Timeout::new(0, move || {
                        if !alive.get() {
                            return;
                        }
                        index.borrow_mut().step(&text);
                        if index.borrow().done(&text) {
                            redraw.force_update();
                        }
                        more(index, text, alive, redraw);
                    })
                    .forget();
                }
                more(index, text, alive.clone(), redraw);
                move || alive.set(false)
            },
        );
    }
    let top_line = use_state(|| 0usize);
    let height = use_state(|| 24usize);
    let box_ref = use_node_ref();

    // Scroll a requested range into view.
    {
        let box_ref = box_ref.clone();
        let (index, text) = (index.clone(), props.text.clone());
        let top_line = top_line.clone();
        use_effect_with(props.focus.clone(), move |f| {
            if let (Some(f), Some(el)) = (f, box_ref.cast::<web_sys::HtmlElement>()) {
                let line = index.borrow().line_of(&text, f.start);
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

    let ix = index.borrow();
    let n = ix.total(&props.text).max(1);
    let from = top_line.saturating_sub(SLACK).min(n - 1);
    let to = (*top_line + *height + SLACK).min(n);
    let a = ix.start(&props.text, from);
    let whole = ix.start(&props.text, to).max(a);
    drop(ix);
    // A line of megabytes (minified JSON, `condor_status -json | jq -c`; a
    // file of NUL bytes) laid out whole held the page for seconds: the
    // window shows its first WINDOW_MAX bytes and says so.
    let mut b = whole.min(a + WINDOW_MAX);
    while !props.text.is_char_boundary(b) {
        b -= 1;
    }
    let cut = (b < whole).then(|| {
        format!(
            "The lines in sight hold {}: the viewer shows their first {} KB.",
            crate::components::widgets::numbers::megabytes(whole - a),
            WINDOW_MAX >> 10
        )
    });
    let slice = &props.text[a..b];
    // A cut window (a line of megabytes) is shown plain: 8 KB of a list
    // of numbers is 2,000 highlighted spans, whose first layout took 54 ms
    // after a 22 MB expression was pasted; a sliver of a line gains little
    // from colour.
    let dialect = crate::bridge::dialect::current();
    let tokens = match (cut.is_some(), props.expression) {
        (true, _) => Vec::new(),
        (false, true) => classad::api::highlight(slice, dialect),
        (false, false) => classad::api::highlight_pool(slice, dialect),
    };
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
            if let Some(cut) = cut {
                <p class="viewer-cut" role="note">{ cut }</p>
            }
            <div class="viewer-space" style={format!("height: {}px", n * LINE_PX as usize + 16)}>
                <pre class="viewer-window" style={format!("top: {}px", from * LINE_PX as usize + 8)}>
                    { highlight::render(slice, &tokens, &marks) }
                </pre>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::{LineIndex, EVERY};

    #[test]
    fn lines_found_step_by_step_as_at_once() {
        let text: String = (0..1000)
            .map(|i| format!("line {i} {}\n", "é".repeat(i % 7)))
            .collect();
        let mut ix = LineIndex::new();
        while !ix.done(&text) {
            ix.step_by(&text, 333);
            assert!(ix.total(&text) > 0);
        }
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        assert_eq!(ix.total(&text), starts.len());
        assert_eq!(ix.marks.len(), starts.len().div_ceil(EVERY));
        for (line, &at) in starts.iter().enumerate() {
            assert_eq!(ix.start(&text, line), at, "line {line}");
            assert_eq!(ix.line_of(&text, at), line);
        }
        assert_eq!(ix.start(&text, starts.len() + 5), text.len());
    }
}
