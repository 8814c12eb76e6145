//! A read-only view of a pool too big for a textarea (browsers re-lay out
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
}

/// The text by identity (see `state::same_text`): it is megabytes.
impl PartialEq for PoolViewerProps {
    fn eq(&self, o: &Self) -> bool {
        crate::state::app_state::same_text(&self.text, &o.text)
            && self.marks == o.marks
            && self.focus == o.focus
            && self.label == o.label
    }
}

/// Every this many rows, the index keeps where the row starts; a row
/// between two is found by stepping at most this many rows.
const EVERY: usize = 64;

/// Bytes of text indexed per task: a 250 MB pool's six million lines are
/// found in tasks of a few ms, not in one of a third of a second.
const STEP_BYTES: usize = 4 << 20;

/// Lines up to this long are rows of their own, as written (a long
/// `Requirements` of a `condor_status -l` is a few KB at most).
pub const LINE_MAX: usize = 4096;

/// A longer line (minified JSON, `condor_status -json | jq -c`, is one
/// line of megabytes; so is a file of NUL bytes) is shown as rows of this
/// many bytes, so the window in sight stays a few tens of KB however long
/// its lines are: rendering a 3 MB line whole took the page for seconds and
/// gigabytes. (Cutting every line past this size instead cost a production
/// pool's index a long task.)
pub const ROW_BYTES: usize = 256;

/// Where the row starting at `at` ends (where the next starts): after its
/// line's `\n` if that is within [`LINE_MAX`], else [`ROW_BYTES`] on (at a
/// character boundary), or at the text's end.
fn row_end(text: &str, at: usize) -> usize {
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let lim = floor((at + LINE_MAX).min(text.len()));
    // `find` of a char searches with memchr.
    match text[at..lim].find('\n') {
        Some(i) => at + i + 1,
        None if lim == text.len() => lim,
        None => floor(at + ROW_BYTES).max(at + 1),
    }
}

/// Where the rows start, found a step at a time (see [`STEP_BYTES`]).
struct LineIndex {
    /// `marks[k]`: the byte offset where row `k * EVERY` starts.
    marks: Vec<usize>,
    /// Rows seen so far (the last one perhaps not ended yet).
    lines: usize,
    /// Where the row being scanned starts (all before it is indexed).
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

    /// Index the next [`STEP_BYTES`] or so.
    fn step(&mut self, text: &str) {
        self.step_by(text, STEP_BYTES);
    }

    fn step_by(&mut self, text: &str, bytes: usize) {
        // Room for a whole row past the last line, so a step always ends one.
        let mut stop = (self.scanned + bytes.max(2 * LINE_MAX)).min(text.len());
        while !text.is_char_boundary(stop) {
            stop += 1;
        }
        let from = self.scanned;
        // The row in progress starts at `at`; a row is pushed where the
        // next one starts.
        let mut at = from;
        let push = |ix: &mut LineIndex, start: usize| {
            if ix.lines % EVERY == 0 {
                ix.marks.push(start);
            }
            ix.lines += 1;
        };
        // Lines found with one `match_indices` (memchr) over the step, as
        // fast as before rows: a search per row took three times as long.
        // Only a line longer than a row is walked a row at a time.
        for (i, _) in text[from..stop].match_indices('\n') {
            let next = from + i + 1;
            while next - at > LINE_MAX {
                at = row_end(text, at);
                push(self, at);
            }
            push(self, next);
            at = next;
        }
        // The step's last, unended line: its whole rows (to the text's end,
        // all of them).
        let end = if stop == text.len() {
            stop
        } else {
            stop - LINE_MAX.min(stop)
        };
        while at <= end && text.len() - at > LINE_MAX {
            at = row_end(text, at);
            push(self, at);
        }
        self.scanned = if stop == text.len() { stop } else { at };
    }

    /// How many rows to make room for: those seen, and while the index is
    /// being built, an estimate of the rest at the same bytes per row.
    fn total(&self, text: &str) -> usize {
        if self.done(text) || self.scanned == 0 {
            return self.lines;
        }
        let per_line = self.scanned as f64 / self.lines as f64;
        self.lines + ((text.len() - self.scanned) as f64 / per_line) as usize
    }

    /// Where row `line` starts: the text's end past its last row, and the
    /// end of what is indexed past that while the index is built.
    fn start(&self, text: &str, line: usize) -> usize {
        let k = line / EVERY;
        let Some(&mark) = self.marks.get(k) else {
            return self.scanned.min(text.len());
        };
        let mut at = mark;
        for _ in 0..line - k * EVERY {
            if at >= text.len() {
                return text.len();
            }
            at = row_end(text, at);
        }
        at
    }

    /// The row holding byte `offset` (as far as the index goes).
    fn line_of(&self, text: &str, offset: usize) -> usize {
        let k = self
            .marks
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let (mut at, mut line) = (self.marks[k], k * EVERY);
        while at < text.len() {
            let end = row_end(text, at);
            if end > offset || (end == text.len() && !text.ends_with('\n')) {
                break;
            }
            at = end;
            line += 1;
        }
        line
    }
}

/// The window's text with a line break where a long line is cut into rows
/// (`a`: where the window starts in the text), and a byte offset of the
/// window moved to where it is in that text (`end`: an offset that ends a
/// range, which stays before a break at it).
struct Window {
    text: String,
    cuts: Vec<usize>,
}

impl Window {
    fn new(text: &str, a: usize, b: usize) -> Window {
        let mut cuts = vec![];
        let mut at = a;
        while at < b {
            let end = row_end(text, at);
            if end < b && !text[..end].ends_with('\n') {
                cuts.push(end - a);
            }
            at = end;
        }
        let mut shown = String::with_capacity(b - a + cuts.len());
        let mut from = a;
        for &c in &cuts {
            shown.push_str(&text[from..a + c]);
            shown.push('\n');
            from = a + c;
        }
        shown.push_str(&text[from..b]);
        Window { text: shown, cuts }
    }

    fn at(&self, offset: usize, end: bool) -> usize {
        offset
            + if end {
                self.cuts.partition_point(|&c| c < offset)
            } else {
                self.cuts.partition_point(|&c| c <= offset)
            }
    }
}

#[component]
pub fn PoolViewer(props: &PoolViewerProps) -> Html {
    let redraw = use_force_update();
    // Built a step per task; the first step at once (all of a text of a
    // few MB).
    let index = use_memo(crate::state::app_state::TextKey(props.text.clone()), |t| {
        let mut ix = LineIndex::new();
        ix.step(&t.0);
        std::cell::RefCell::new(ix)
    });
    {
        let (index, text) = (index.clone(), props.text.clone());
        use_effect_with(
            crate::state::app_state::TextKey(props.text.clone()),
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
    let b = ix.start(&props.text, to).max(a);
    drop(ix);
    let slice = &props.text[a..b];
    let window = Window::new(&props.text, a, b);
    let tokens: Vec<classad::api::Highlight> =
        classad::api::highlight_pool(slice, Default::default())
            .into_iter()
            .map(|t| classad::api::Highlight {
                start: window.at(t.start as usize, false) as u32,
                end: window.at(t.end as usize, true) as u32,
                class: t.class,
            })
            .collect();
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
            start: window.at(m.start.max(a) - a, false),
            end: window.at(m.end.min(b).max(m.start.max(a)) - a, true),
            class: m.class,
        })
        .collect();
    marks.truncate(500);

    html! {
        <div class="editor viewer" ref={box_ref} onscroll={on_scroll} tabindex="0" role="region" aria-label={props.label.clone()}>
            <div class="viewer-space" style={format!("height: {}px", n as f64 * LINE_PX + 16.0)}>
                <pre class="viewer-window" style={format!("top: {}px", from as f64 * LINE_PX + 8.0)}>
                    { highlight::render(&window.text, &tokens, &marks) }
                </pre>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::{row_end, LineIndex, Window, EVERY, LINE_MAX, ROW_BYTES};

    /// Every row start, found one row at a time.
    fn rows(text: &str) -> Vec<usize> {
        let mut out = vec![0];
        let mut at = 0;
        while at < text.len() {
            at = row_end(text, at);
            if at < text.len() || text.ends_with('\n') {
                out.push(at);
            }
        }
        out
    }

    fn check(text: &str, step: usize) {
        let mut ix = LineIndex::new();
        while !ix.done(text) {
            ix.step_by(text, step);
            assert!(ix.total(text) > 0);
        }
        let starts = rows(text);
        assert_eq!(ix.total(text), starts.len());
        assert_eq!(ix.marks.len(), starts.len().div_ceil(EVERY));
        for (line, &at) in starts.iter().enumerate() {
            assert_eq!(ix.start(text, line), at, "row {line}");
            assert_eq!(ix.line_of(text, at), line);
        }
        assert_eq!(ix.start(text, starts.len() + 5), text.len());
    }

    #[test]
    fn lines_found_step_by_step_as_at_once() {
        let text: String = (0..1000)
            .map(|i| format!("line {i} {}\n", "é".repeat(i % 7)))
            .collect();
        check(&text, 333);
        // Short lines are rows of their own, as before.
        assert_eq!(rows(&text).len(), 1001);
    }

    /// A line of megabytes (minified JSON, NUL bytes) is rows of
    /// ROW_BYTES, cut at character boundaries, so the window in sight stays
    /// small; lines up to LINE_MAX stay whole.
    #[test]
    fn long_lines_are_cut_into_rows() {
        let nul = "\0".repeat(3 * ROW_BYTES * 100 + LINE_MAX);
        check(&nul, 100_000);
        assert_eq!(
            rows(&nul).len(),
            301,
            "300 cut rows, then the last LINE_MAX whole"
        );
        let json = format!("[{}]", "{\"Name\":\"slöt\"},".repeat(5000));
        check(&json, 4096);
        let starts = rows(&json);
        assert!(starts.windows(2).all(|w| w[1] - w[0] <= LINE_MAX));
        assert!(starts.windows(3).all(|w| w[1] - w[0] <= ROW_BYTES));
        assert!(starts.iter().all(|&s| json.is_char_boundary(s)));
        let lines = format!("a\n{}\nb\n", "é".repeat(LINE_MAX / 2 - 1));
        check(&lines, 10);
        assert_eq!(rows(&lines).len(), 4, "a line within LINE_MAX is one row");
        let mixed = format!("a\n{}\nb\n", "é".repeat(LINE_MAX));
        check(&mixed, 10);
        assert!(rows(&mixed).len() > 4);
    }

    /// The window shows a cut row on a line of its own; offsets move past
    /// the breaks put in.
    #[test]
    fn the_window_breaks_cut_rows() {
        let r = ROW_BYTES;
        let long = LINE_MAX + 2 * r + 3;
        let text = format!("ab\n{}\ncd", "x".repeat(long));
        let w = Window::new(&text, 0, text.len());
        let shown: Vec<usize> = w.text.split('\n').map(str::len).collect();
        assert_eq!(shown, [2, r, r, r, long - 3 * r, 2]);
        assert_eq!(w.text.replace('\n', ""), text.replace('\n', ""));
        let cut = 3 + r;
        assert_eq!(
            w.at(cut, true),
            cut,
            "a range ending at a cut ends before its break"
        );
        assert_eq!(
            w.at(cut, false),
            cut + 1,
            "one starting there starts after it"
        );
        assert_eq!(w.at(cut + r, true), cut + r + 1, "past one break");
        assert_eq!(w.at(cut + r, false), cut + r + 2, "past both");
        assert_eq!(&w.text[w.at(0, false)..w.at(2, true)], "ab");
    }
}
