//! Syntax highlighting from the engine's own lexer: the text split into
//! spans classed by token kind, plus marks (diagnostics, the picked
//! source) laid over them. Text is always rendered as text nodes, so
//! markup inside an ad can never run.

use classad::api::{Highlight, TokenClass};
use yew::prelude::*;

fn class_name(c: TokenClass) -> &'static str {
    match c {
        TokenClass::Number => "tk-num",
        TokenClass::String => "tk-str",
        TokenClass::Name => "tk-name",
        TokenClass::Keyword => "tk-kw",
        TokenClass::Operator => "tk-op",
        TokenClass::Punctuation => "tk-punct",
        TokenClass::Comment => "tk-comment",
        TokenClass::Time => "tk-time",
        TokenClass::Invalid => "tk-invalid",
    }
}

/// A byte range of the text to outline with `class`. An empty range is
/// drawn as a thin caret-like marker.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub start: usize,
    pub end: usize,
    pub class: &'static str,
}

fn floor(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Render `text` with highlight spans and marks.
pub fn render(text: &str, tokens: &[Highlight], marks: &[Mark]) -> Html {
    // Pieces: tokens and the plain gaps between them.
    let mut pieces: Vec<(usize, usize, Option<&'static str>)> =
        Vec::with_capacity(tokens.len() * 2 + 1);
    let mut pos = 0;
    for t in tokens {
        let (s, e) = (floor(text, t.start as usize), floor(text, t.end as usize));
        if s < pos || e <= s {
            continue;
        }
        if s > pos {
            pieces.push((pos, s, None));
        }
        let class = Some(class_name(t.class));
        match pieces.last_mut() {
            // Touching tokens of one class are one span: a run of NUL
            // bytes is a token each, and 50,000 spans took 200 ms to lay out.
            Some((_, end, c)) if *end == s && *c == class => *end = e,
            _ => pieces.push((s, e, class)),
        }
        pos = e;
    }
    if pos < text.len() {
        pieces.push((pos, text.len(), None));
    }
    let marks: Vec<Mark> = marks
        .iter()
        .map(|m| Mark {
            start: floor(text, m.start),
            end: floor(text, m.end.max(m.start)),
            class: m.class,
        })
        .collect();
    // Where pieces must be cut so each part has one set of marks.
    let mut cuts: Vec<usize> = marks.iter().flat_map(|m| [m.start, m.end]).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut points: Vec<&Mark> = marks.iter().filter(|m| m.start == m.end).collect();
    points.sort_by_key(|m| m.start);
    let mut next_point = 0;

    let mut out: Vec<Html> = Vec::with_capacity(pieces.len() + 8);
    for (ps, pe, class) in pieces {
        let first = cuts.partition_point(|&c| c <= ps);
        let mut a = ps;
        let inner = cuts[first..].iter().copied().take_while(|&c| c < pe);
        for b in inner.chain(std::iter::once(pe)) {
            while next_point < points.len() && points[next_point].start <= a {
                out.push(html! { <span class={classes!("mark-point", points[next_point].class)}></span> });
                next_point += 1;
            }
            if b <= a {
                continue;
            }
            let mut cls = Classes::new();
            if let Some(c) = class {
                cls.push(c);
            }
            for m in &marks {
                if m.start < b && m.end > a {
                    cls.push(m.class);
                }
            }
            let part = text[a..b].to_string();
            out.push(if cls.is_empty() {
                html! { { part } }
            } else {
                html! { <span class={cls}>{ part }</span> }
            });
            a = b;
        }
    }
    for p in &points[next_point..] {
        out.push(html! { <span class={classes!("mark-point", p.class)}></span> });
    }
    // A trailing newline needs a character after it to take up a line.
    out.push(html! { { "\u{200b}" } });
    html! { <>{ for out }</> }
}
