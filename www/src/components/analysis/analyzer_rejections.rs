//! Nobody Likes Me by clause: what in the machines' own requirements
//! rejects the job (one line per clause text, however many slots carry
//! it), what each reads of the job, what the slots hold, and the values
//! searched among them with what each opens — each a one-click edit.

use yew::prelude::*;

use crate::components::analysis::answers::{Analysis, Rejection, ValueOption};
use crate::components::widgets::words::{count, thousands};
use crate::state::analyzer_settings::{set_override, AnalyzeSettings};

/// Offered values shown per clause before "… (N values)".
const OFFERED_SHOWN: usize = 8;

pub fn rejections(a: &Analysis, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    if a.rejections.is_empty() {
        return html! {};
    }
    let total = a.summary.reject_job;
    html! {
        <section class="an-rejections" id="rejections" aria-label="Why the machines reject the job">
            <h3>{ "Why the machines reject the job" }</h3>
            <p class="muted">{ format!(
                "Their own requirements reject it on {}: the clauses not true for it, one line per text however many slots carry it. Each value below is counted over the pool both ways.",
                count(total, "slot", "slots")
            ) }</p>
            <ol class="rejection-list">
                { for a.rejections.iter().map(|r| rejection(r, total, s, set)) }
            </ol>
        </section>
    }
}

fn rejection(
    r: &Rejection,
    total: u64,
    s: &AnalyzeSettings,
    set: &Callback<AnalyzeSettings>,
) -> Html {
    let how_many = if r.slots == total && total > 1 {
        format!("All {}", count(total, "slot", "slots"))
    } else {
        count(r.slots, "slot", "slots")
    };
    let only = (r.only > 0 && r.only < r.slots)
        .then(|| format!(" (the only reason on {})", thousands(r.only)));
    let machine_side = r.machine_side();
    html! {
        <li class="rejection" data-slots={r.slots.to_string()} data-machine-side={machine_side.to_string()}>
            <div class="rejection-head">
                <strong>{ how_many }</strong>{ only.unwrap_or_default() }{ ": " }
                <span class="muted">{ format!("{} ", r.attribute) }</span>
                <code class="expr">{ r.clause.clone() }</code>
            </div>
            if machine_side {
                <p class="machine-side v-undef">{ capitalized(&r.machine_side_words()) }</p>
            } else {
                <div class="reads">
                    { "Reads the job's " }
                    { for r.reads.iter().zip(&r.job_values).enumerate().map(|(n, (k, v))| html! {
                        <>{ if n > 0 { ", " } else { "" } }<code>{ format!("{k} = {v}") }</code></>
                    }) }
                    if !r.offered.is_empty() {
                        { format!("; the slots hold {}: ", r.slot_reads.join(", ")) }
                        { for r.offered.iter().take(OFFERED_SHOWN).map(|o| html! {
                            <span class="chip offered" title={format!("{} slots", o.slots)}>{ format!("{} ({})", o.value, thousands(o.slots)) }</span>
                        }) }
                        if r.offered.len() > OFFERED_SHOWN {
                            <span class="muted">{ format!(" … ({} values)", r.offered.len()) }</span>
                        }
                    }
                </div>
                if r.options.is_empty() {
                    <p class="muted">{ format!("No value of {} the slots hold opens one of them.", r.reads.join(", ")) }</p>
                } else {
                    <ul class="value-options">
                        { for r.options.iter().map(|o| option(o, s, set)) }
                    </ul>
                }
            }
        </li>
    }
}

fn option(o: &ValueOption, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    let apply = {
        let (set, s) = (set.clone(), s.clone());
        let mut e = s.edits();
        set_override(&mut e.overrides, &o.attribute, &o.value);
        Callback::from(move |_| {
            set.emit(s.edit(e.clone()));
            crate::components::widgets::focus::focus_after_render("undo");
        })
    };
    let tag = match (o.least, o.most) {
        (true, true) => Some("the least change, and the most slots"),
        (true, false) => Some("the least change"),
        (false, true) => Some("the most slots"),
        _ => None,
    };
    html! {
        <li class="value-option" data-least={o.least.to_string()} data-most={o.most.to_string()} data-willing={o.willing.to_string()}>
            <button class="apply" onclick={apply} title="Analyze the job with this value (Undo restores)">{ "Apply" }</button>
            <code class="sugg-what">{ format!("{} = {}", o.attribute, o.value) }</code>
            <span class="muted">{ format!(" ({})", o.change) }</span>
            <span class="sugg-gain">{ format!(" → {} both ways, {} willing", count(o.both_ways, "slot", "slots"), thousands(o.willing)) }</span>
            if let Some(t) = tag { <span class="badge">{ t }</span> }
        </li>
    }
}

/// A sentence's first letter in upper case.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
