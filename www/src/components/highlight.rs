//! Syntax highlighting from the engine's own lexer: the text split into
//! spans classed by token kind. Text is always rendered as text nodes, so
//! markup inside an ad can never run.

use classad::lexer::{Highlight, TokenClass};
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

/// Render `text` with highlight spans; `mark` (byte range) is outlined.
pub fn render(text: &str, tokens: &[Highlight], mark: Option<(usize, usize)>) -> Html {
    let mut out: Vec<Html> = Vec::with_capacity(tokens.len() * 2 + 1);
    let mut pos = 0usize;
    let safe = |i: usize| {
        let mut i = i.min(text.len());
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let push_plain = |out: &mut Vec<Html>, a: usize, b: usize| {
        if b > a {
            out.push(html! { { text[a..b].to_string() } });
        }
    };
    for t in tokens {
        let (s, e) = (safe(t.start as usize), safe(t.end as usize));
        if s < pos || e <= s {
            continue;
        }
        push_plain(&mut out, pos, s);
        let mut cls = classes!(class_name(t.class));
        if let Some((ms, me)) = mark {
            if s < me && e > ms {
                cls.push("tk-mark");
            }
        }
        out.push(html! { <span class={cls}>{ text[s..e].to_string() }</span> });
        pos = e;
    }
    push_plain(&mut out, pos, text.len());
    // A trailing newline needs a character after it to take up a line.
    out.push(html! { { "\u{200b}" } });
    html! { <>{ for out }</> }
}
