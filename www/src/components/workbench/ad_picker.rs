//! Choosing the MY and TARGET ads (from every pool) and the scope inside
//! MY (one of its nested records, so `parent` and `root` mean something).
//! A component of its own so thousands of options are rebuilt only when a
//! pool's parse or a choice changes, not on every key in the expression.

use yew::prelude::*;

use crate::components::widgets::term::TermHelp;

use crate::bridge::parses::Parsed;
use crate::state::actions::Action;
use crate::state::app_state::AdRef;

/// Options per pool; the chosen ad is always listed, and the ad list's
/// MY/TARGET buttons reach the rest. Two selects of 3,000 options each
/// were most of a 60 ms task when a 10,000-ad pool's parse came in; 200
/// of production slots' long names still took 50 ms with the ad list.
const OPTIONS_PER_POOL: usize = 100;

#[derive(Properties, PartialEq)]
pub struct AdPickerProps {
    pub names: Vec<String>,
    pub parsed: Vec<Option<Parsed>>,
    pub my: Option<AdRef>,
    pub target: Option<AdRef>,
    pub scope: Vec<String>,
    /// Paths of MY's nested records (`Gpu`, `Gpu.Mig`).
    pub records: Vec<String>,
    pub dispatch: Callback<Action>,
}

fn parse_ref(v: &str) -> Option<AdRef> {
    let (p, a) = v.split_once(':')?;
    Some(AdRef {
        pool: p.parse().ok()?,
        ad: a.parse().ok()?,
    })
}

#[component]
pub fn AdPicker(props: &AdPickerProps) -> Html {
    // A big pool's options come a task after the rest (see `ad_list`);
    // keyed on the big pools only, so typing in a small one redraws no
    // big one's options.
    let key: Vec<usize> = props
        .parsed
        .iter()
        .flatten()
        .filter(|p| p.summary.ads.len() > crate::components::workbench::ad_list::LATER_FROM)
        .map(|p| std::rc::Rc::as_ptr(&p.0) as usize)
        .collect();
    let drawn = crate::components::workbench::ad_list::use_drawn_later(key);
    let options = |current: Option<AdRef>| -> Html {
        let mut opts =
            vec![html! { <option value="" selected={current.is_none()}>{ "(none)" }</option> }];
        for (pi, name) in props.names.iter().enumerate() {
            let Some(Some(pp)) = props.parsed.get(pi) else {
                continue;
            };
            let ads = &pp.summary.ads;
            if !drawn && ads.len() > crate::components::workbench::ad_list::LATER_FROM {
                continue;
            }
            let extra = current
                .filter(|c| c.pool == pi && c.ad >= OPTIONS_PER_POOL)
                .map(|c| c.ad);
            for ai in (0..ads.len().min(OPTIONS_PER_POOL)).chain(extra.filter(|&a| a < ads.len())) {
                let sel = current == Some(AdRef { pool: pi, ad: ai });
                opts.push(html! {
                    <option value={format!("{pi}:{ai}")} selected={sel}>{ format!("{name} / {}", ads[ai].label) }</option>
                });
            }
            if ads.len() > OPTIONS_PER_POOL {
                opts.push(html! { <option disabled=true value="">{ format!("{name}: {} more — use the ad list", ads.len() - OPTIONS_PER_POOL) }</option> });
            }
        }
        html! { <>{ for opts }</> }
    };
    let on_pick = |my: bool| {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let r = parse_ref(
                &e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            );
            d.emit(if my {
                Action::SetMy(r)
            } else {
                Action::SetTarget(r)
            });
        })
    };
    let on_scope = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let path = v
                .split('.')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            d.emit(Action::SetScope(path));
        })
    };
    let current_scope = props.scope.join(".");
    let mut scopes = props.records.clone();
    if !current_scope.is_empty()
        && !scopes
            .iter()
            .any(|r| r.eq_ignore_ascii_case(&current_scope))
    {
        scopes.push(current_scope.clone());
    }
    let parent = match props.scope.len() {
        0 | 1 => "the MY ad".to_string(),
        n => props.scope[..n - 1].join("."),
    };
    html! {
        <div class="ad-pickers">
            <label><span class="lbl">{ "MY / self" }</span><select id="my-ad" onchange={on_pick(true)}>{ options(props.my) }</select></label>
            <label><span class="lbl">{ "TARGET / other" }</span><select id="target-ad" onchange={on_pick(false)}>{ options(props.target) }</select></label>
            <label><span class="lbl">{ "Scope inside MY" }<TermHelp term="the scope inside MY" anchor="scope" text="Evaluate inside a nested record of MY, as expressions written inside that record are: its attributes come first, and parent is the enclosing ad." /></span>
                <select id="scope" onchange={on_scope} disabled={props.my.is_none() || (props.records.is_empty() && current_scope.is_empty())}>
                    <option value="" selected={current_scope.is_empty()}>
                        { if props.records.is_empty() { "the MY ad (it has no nested records)" } else { "the MY ad itself" } }
                    </option>
                    { for scopes.iter().map(|r| html! {
                        <option value={r.clone()} selected={r.eq_ignore_ascii_case(&current_scope)}>{ format!("MY.{r}") }</option>
                    }) }
                </select>
            </label>
            if !props.scope.is_empty() {
                <p class="scope-hint">
                    { "Unscoped names look in " }<code>{ current_scope.clone() }</code>{ " first, then outward; " }
                    <code>{ "parent" }</code>{ format!(" is {parent}, ") }<code>{ "root" }</code>{ " is the MY ad." }
                </p>
            }
        </div>
    }
}
