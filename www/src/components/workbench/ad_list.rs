//! The parsed ads of the open pool: label, line, size, and buttons to make
//! one MY or TARGET. Re-renders only when the parse result or the choice
//! changes, and lists a bounded number (with a filter for big pools).

use yew::prelude::*;

use crate::bridge::parses::Parsed;
use crate::state::actions::Action;
use crate::state::app_state::AdRef;

/// Rows shown at once (more made the parse answer of a 10,000-ad pool a
/// long task: 100 rows and the pickers' options were 50 ms of DOM with
/// production slots' names); a filter finds the others.
const SHOWN: usize = 50;

/// Pools with more ads than this get their rows drawn in the task after
/// the rest of the page (see [`use_drawn_later`]).
pub const LATER_FROM: usize = 1000;

/// Whether a big pool's parse `key` (its result's address) may be drawn
/// now: it becomes true a task after the key first shows, so the page's
/// answer to a 10,000-ad parse is two tasks of DOM work, not one long one.
#[hook]
pub fn use_drawn_later(key: Vec<usize>) -> bool {
    let drawn = use_state(Vec::<usize>::new);
    {
        let drawn = drawn.clone();
        use_effect_with(key.clone(), move |k| {
            let k = k.clone();
            let t = gloo_timers::callback::Timeout::new(0, move || drawn.set(k));
            move || drop(t)
        });
    }
    *drawn == key
}

#[derive(Properties, PartialEq)]
pub struct AdListProps {
    pub pool: usize,
    pub parsed: Option<Parsed>,
    pub my: Option<AdRef>,
    pub target: Option<AdRef>,
    pub dispatch: Callback<Action>,
    /// Show ad `i`'s text in the editor.
    pub on_goto: Callback<usize>,
    /// Edit ad `i` on its own (pools too big to edit whole).
    #[prop_or_default]
    pub on_edit: Option<Callback<usize>>,
}

#[component]
pub fn AdList(props: &AdListProps) -> Html {
    let filter = use_state(String::new);
    // Only a big pool's list waits (typing in a small one redraws once).
    let key: Vec<usize> = props
        .parsed
        .iter()
        .filter(|p| p.summary.ads.len() > LATER_FROM)
        .map(|p| std::rc::Rc::as_ptr(&p.0) as usize)
        .collect();
    let drawn = use_drawn_later(key);
    let Some(parsed) = &props.parsed else {
        return html! {};
    };
    let ads = &parsed.summary.ads;
    let rows = if drawn || ads.len() <= LATER_FROM {
        SHOWN
    } else {
        0
    };
    let needle = filter.to_lowercase();
    let matching: Vec<usize> = (0..ads.len())
        .filter(|&i| needle.is_empty() || ads[i].label.to_lowercase().contains(&needle))
        .collect();
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            filter.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let use_as = |ad: usize, my: bool| {
        let d = props.dispatch.clone();
        let pool = props.pool;
        Callback::from(move |_| {
            let r = Some(AdRef { pool, ad });
            d.emit(if my {
                Action::SetMy(r)
            } else {
                Action::SetTarget(r)
            });
        })
    };
    let goto = |i: usize| {
        let g = props.on_goto.clone();
        Callback::from(move |_| g.emit(i))
    };
    html! {
        <div class="ads">
            if ads.len() > 20 {
                <label class="ad-filter">{ "Find an ad " }
                    <input type="search" value={(*filter).clone()} oninput={on_filter} placeholder="part of its name" />
                </label>
            }
            <ol class={classes!("ad-list", (ads.len() > 999).then_some("wide"))} aria-label="Parsed ads">
                { for matching.iter().take(rows).map(|&i| {
                    let a = &ads[i];
                    let is_my = props.my == Some(AdRef { pool: props.pool, ad: i });
                    let is_target = props.target == Some(AdRef { pool: props.pool, ad: i });
                    html! {
                        <li key={i} value={(i + 1).to_string()} class={classes!(is_my.then_some("is-my"), is_target.then_some("is-target"))}>
                            <button class="ad-label link" onclick={goto(i)} title="Show this ad in the editor">{ a.label.clone() }</button>
                            <span class="ad-meta">{ format!(" line {}, {} attributes", a.line, a.n_attrs) }</span>
                            <span class="ad-use">
                                <button onclick={use_as(i, true)} aria-pressed={is_my.to_string()} aria-label={format!("Use {} as MY", a.label)}>{ "MY" }</button>
                                <button onclick={use_as(i, false)} aria-pressed={is_target.to_string()} aria-label={format!("Use {} as TARGET", a.label)}>{ "TARGET" }</button>
                                if let Some(edit) = &props.on_edit {
                                    <button onclick={let e = edit.clone(); Callback::from(move |_| e.emit(i))} aria-label={format!("Edit {}", a.label)}>{ "Edit" }</button>
                                }
                            </span>
                        </li>
                    }
                }) }
            </ol>
            if matching.len() > SHOWN {
                <p class="muted">{ format!("{} more ads not listed; type part of a name above to find one.", matching.len() - SHOWN) }</p>
            } else if matching.is_empty() && !ads.is_empty() {
                <p class="muted">{ "No ad name contains that." }</p>
            }
        </div>
    }
}
