//! The analyzer's results: the run summary, each clause's predicates
//! (bars, pins), the suggested changes (M1, M2) and job changes as
//! one-click edits, and the conflicts.

use crate::components::analysis::answers::{
    AnalysisWords, ChangedAttributes, ClauseNumbers, FixAttributes,
};
use std::rc::Rc;

use yew::prelude::*;

use crate::components::analysis::analyzer_lattice::conflicts_section;
use crate::components::analysis::analyzer_rejections::rejections;
use crate::components::analysis::answers::Analysis;
use crate::components::analysis::edits::{apply_fix, apply_job_change, apply_suggestion};
use crate::components::analysis::figures::bar;
use crate::components::analysis::shown::Shown;
use crate::components::widgets::words::{count, duration, thousands};
use crate::state::analyzer_settings::AnalyzeSettings;

/// Everything below the tools: summary, clauses, suggestions, job
/// changes, conflicts.
/// `current`: the analysis of the present choices (not an earlier one
/// shown while the next runs).
pub fn results(
    r: &Rc<Shown>,
    s: &AnalyzeSettings,
    set: &Callback<AnalyzeSettings>,
    current: bool,
) -> Html {
    let a = &r.view.analysis;
    html! {
        <>
            { summary(a, &r.label, r.ms, current) }
            if !a.notes.is_empty() || !a.missing_attributes.is_empty() {
                <ul class="an-notes">
                    { for a.missing_attributes.iter().map(|m| html! { <li>{ format!("No machine defines {m}: only removing its predicate helps.") }</li> }) }
                    { for a.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                </ul>
            }
            { fixes(a, s, set) }
            { clauses(a, s, set) }
            { suggestions(a, s, set) }
            { rejections(a, s, set) }
            { job_changes(a, s, set) }
            { conflicts_section(a, &r.view.lattices) }
        </>
    }
}

fn summary(a: &Analysis, label: &str, ms: f64, current: bool) -> Html {
    let m = a.by_machine.as_ref();
    let cell = |id: &'static str, n: u64, by: Option<u64>, what: &'static str| {
        html! {
            <div class="big-number" id={id}>
                <span class="n">{ thousands(n) }</span>
                <small>{ what }</small>
                if let Some(b) = by { <small class="by-machine">{ count(b, "machine", "machines") }</small> }
            </div>
        }
    };
    let of = match m {
        Some(m) => format!(
            "Job {label}: of {} on {}",
            count(a.machines, "slot", "slots"),
            count(m.machines, "machine", "machines")
        ),
        None => format!(
            "Job {label}: of {}",
            count(a.machines, "machine", "machines")
        ),
    };
    let s = &a.summary;
    html! {
        <section class={classes!("an-summary", (!current).then_some("stale"))} id="analysis-summary" aria-label="Run analysis summary" data-current={current.to_string()}>
            <p class="an-of"><strong>{ of }</strong><span class="muted">{ format!(" (analyzed in {})", duration(ms)) }</span></p>
            if let Some(st) = &a.job_state {
                // condor_q's words first: the counts say what it would match.
                <p class="status v-undef" id="job-state" role="status">
                    <strong>{ st.split("\n\n").next().unwrap_or_default().to_string() }</strong>
                    { for st.split("\n\n").skip(1).map(|part| html! { <span>{ format!(" {part}") }</span> }) }
                    <span class="muted">{ " The counts below are what it would match if it were idle." }</span>
                </p>
            }
            <div class="an-numbers">
                { cell("sum-rejected-by-job", s.rejected_by_job, m.map(|m| m.rejected_by_job), "rejected by the job's requirements") }
                { cell("sum-reject-job", s.reject_job, m.map(|m| m.reject_job), "reject the job (their own requirements)") }
                { cell("sum-busy", s.match_but_busy, m.map(|m| m.match_but_busy), "match but serve other users") }
                { cell("sum-match", s.matched, m.map(|m| m.matched), "match and are willing") }
            </div>
            if let Some(b) = &a.busy {
                <p class="muted" id="busy-note">{ b.words() }</p>
            }
        </section>
    }
}

fn clauses(a: &Analysis, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    let many = a.clauses.len() > 1;
    let body = a.clauses.iter().enumerate().map(|(ci, c)| {
        let head = if many {
            format!("Clause {} of {}: {} it", ci + 1, a.clauses.len(), satisfy(a, c.matches))
        } else {
            format!("The requirements as one clause: {} it", satisfy(a, c.matches))
        };
        // As the report's table: ascending matches, numbered as shown.
        let numbers = c.numbers();
        let mut order: Vec<usize> = (0..c.predicates.len()).collect();
        order.sort_by_key(|&j| numbers[j]);
        let rows = order.into_iter().map(|j| {
            let p = &c.predicates[j];
            let fixed = s.is_fixed(ci, j);
            let toggle = {
                let (set, s) = (set.clone(), s.clone());
                Callback::from(move |_| set.emit(s.toggle_fixed(ci, j)))
            };
            let (m, o) = bar(p.matches, p.only_failing, a.machines);
            let label = format!(
                "{} of {} satisfy it; on {} it is the clause's only false predicate",
                thousands(p.matches), slots(a, a.machines), thousands(p.only_failing)
            );
            html! {
                <tr class={classes!("pred", fixed.then_some("fixed"))} data-predicate={j.to_string()}>
                    <td><button class="pin" aria-pressed={fixed.to_string()} onclick={toggle}
                        title="Pinned predicates are not to be changed: suggestions leave them alone">{ if fixed { "Pinned" } else { "Pin" } }</button></td>
                    <td class="num">{ numbers[j] }</td>
                    <td class="pred-text"><code title={p.text.clone()}>{ p.display.clone() }</code></td>
                    <td class="pbar-cell">
                        <div class="pbar" role="img" aria-label={label.clone()} title={label}>
                            <span class="pbar-match" style={format!("width:{:.2}%", m * 100.0)}></span>
                            <span class="pbar-only" style={format!("width:{:.2}%", o * 100.0)}></span>
                        </div>
                    </td>
                    <td class="num pred-matches">{ format!("{} / {}", thousands(p.matches), thousands(a.machines)) }</td>
                    <td class="num">{ thousands(p.only_failing) }</td>
                </tr>
            }
        });
        html! {
            <div class="an-clause" id={format!("clause-{ci}")}>
                <h4>{ head }</h4>
                if c.predicates.is_empty() {
                    <p class="muted">{ format!("No predicates to analyze: {}", c.text) }</p>
                } else {
                    <div class="table-wrap">
                        <table class="cycle preds">
                            <thead><tr>
                                <th>{ "Pin" }</th><th class="num">{ "#" }</th><th>{ "Predicate" }</th>
                                <th>{ if a.by_machine.is_some() { "Slots it accepts" } else { "Machines it accepts" } }<span class="pbar-key"><span class="swatch pbar-match"></span>{ " accept " }<span class="swatch pbar-only"></span>{ " only this fails" }</span></th>
                                <th class="num">{ "Matches" }</th>
                                <th class="num" title="Machines on which this is the clause's only false predicate: removing it alone gains them">{ "Only this fails" }</th>
                            </tr></thead>
                            <tbody>{ for rows }</tbody>
                        </table>
                    </div>
                }
            </div>
        }
    });
    let uses: Vec<String> = a
        .job_attributes
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    html! {
        <section class="an-clauses" id="clauses">
            <h3>{ "Predicates" }</h3>
            if !uses.is_empty() {
                <p class="muted" id="job-attributes">{ format!("With the job's own {} put in.", uses.join(", ")) }</p>
            }
            if a.clauses.is_empty() {
                <p class="muted">{ "The requirements could not be split into predicates (see the notes above)." }</p>
            }
            { for body }
        </section>
    }
}

/// "3 slots satisfy" / "1 machine satisfies", as the pool counts.
fn satisfy(a: &Analysis, n: u64) -> String {
    match a.by_machine {
        Some(_) => count(n, "slot satisfies", "slots satisfy"),
        None => count(n, "machine satisfies", "machines satisfy"),
    }
}

/// "slot(s)" where the pool's slots name their machine, else "machine(s)".
fn slots(a: &Analysis, n: u64) -> String {
    match a.by_machine {
        Some(_) => count(n, "slot", "slots"),
        None => count(n, "machine", "machines"),
    }
}

/// The fixes, best first: what lets the job run, counted both ways, with
/// the submit lines that say it.
fn fixes(a: &Analysis, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    let mut shown: Vec<(&str, Vec<(String, String)>)> = vec![];
    let items: Vec<Html> = a
        .suggestions
        .iter()
        .filter(|g| g.listed)
        .filter(|g| {
            // The same fix found by two metrics is listed once.
            let key = (g.requirements.as_str(), g.job_attributes());
            let new = !shown.contains(&key);
            if new {
                shown.push(key);
            }
            new
        })
        .take(8)
        .enumerate()
        .map(|(i, g)| {
            let apply = {
                let (set, s) = (set.clone(), s.clone());
                let e = apply_fix(&s.edits(), &a.requirements_attribute, &a.requirements, g);
                Callback::from(move |_| {
                    set.emit(s.edit(e.clone()));
                    crate::components::widgets::focus::focus_after_render("undo");
                })
            };
            let set_attrs: Vec<String> = g.job_attributes().iter().map(|(k, v)| format!("{k} = {v}")).collect();
            let paper = a.describe(g);
            let what = match (set_attrs.is_empty(), paper.is_empty()) {
                (false, false) => format!("Set {} (for {paper})", set_attrs.join(", ")),
                (false, true) => format!("Set {}", set_attrs.join(", ")),
                _ => paper,
            };
            // Asking for less than the job asked is said, never implied.
            let lowers = (!g.lowers.is_empty()).then(|| format!("Asks for less than the job requested: {} — the job may not run in less.", g.lowers.join(", ")));
            let source = match g.metric.as_str() {
                "NLM" => "Nobody Likes Me".to_string(),
                m if a.clauses.len() > 1 && g.clause_only => format!("{m}, clause {} of {}", g.clause + 1, a.clauses.len()),
                m => m.to_string(),
            };
            let submit = g.submit.join("\n");
            let copy = {
                let text = submit.clone();
                Callback::from(move |_| crate::components::analysis::analyzer_report::copy_text(&text, Callback::noop()))
            };
            html! {
                <li class="fix" data-metric={g.metric.clone()} data-both-ways={g.both_ways.to_string()} data-willing={g.willing.to_string()}>
                    <button class="apply" onclick={apply} title="Analyze the job with this fix (Undo restores)">{ "Apply" }</button>
                    <div class="sugg-body">
                        <span class="fix-what">{ what }</span>{ " " }<span class="muted">{ format!("({source})") }</span>
                        if let Some(l) = lowers { <div class="fix-lowers v-undef">{ l }</div> }
                        <div class="fix-gain">
                            <strong class={classes!(if g.willing > 0 { "v-true" } else { "v-false" })}>{ format!("{} willing", slots(a, g.willing)) }</strong>
                            { format!(" of {} matching both ways; the job's requirements accept {}.", slots(a, g.both_ways), slots(a, g.matches)) }
                        </div>
                        if !submit.is_empty() {
                            <div class="fix-submit">
                                <pre aria-label={format!("Submit lines of fix {}", i + 1)}>{ submit.clone() }</pre>
                                <button class="copy-submit" onclick={copy} title="Copy these submit-description lines">{ "Copy" }</button>
                            </div>
                        }
                    </div>
                </li>
            }
        })
        .collect();
    if items.is_empty() {
        return html! {};
    }
    html! {
        <section class="an-fixes" id="fixes">
            <h3>{ "What to change so the job runs" }</h3>
            <p class="muted">{ "Best first: fixes that keep every request the job made before those that lower one, then the most willing slots. Each fix is applied to a copy of the job and evaluated over the pool both ways — the slots that would accept the changed job and that it accepts, and of those the ones not busy. A changed limit that comes from a job attribute (RequestMemory) is changed there, so the slots see it too." }</p>
            <ol class="fixes">{ for items }</ol>
        </section>
    }
}

fn suggestions(a: &Analysis, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    let list = |metric: &'static str| {
        let mut table: Vec<&crate::components::analysis::answers::Suggestion> = a
            .suggestions
            .iter()
            .filter(|g| g.metric == metric)
            .collect();
        // The paper's order within each metric.
        table.sort_by_key(|g| g.metric_rank);
        let items: Vec<Html> = table
            .into_iter()
            .map(|g| {
                let apply = {
                    let (set, s) = (set.clone(), s.clone());
                    let e = apply_suggestion(&s.edits(), &a.requirements_attribute, g);
                    Callback::from(move |_| {
                        set.emit(s.edit(e.clone()));
                        // The list is redrawn: Undo is the next thing to reach for.
                        crate::components::widgets::focus::focus_after_render("undo");
                    })
                };
                let preds: Vec<String> = g.changes.iter().map(|c| c.predicate.to_string()).collect();
                html! {
                    <li class="suggestion" data-metric={metric} data-clause={g.clause.to_string()}
                        data-predicates={preds.join(",")} data-matches={g.matches.to_string()}>
                        <button class="apply" onclick={apply} title="Analyze the job with these requirements (Undo restores)">{ "Apply" }</button>
                        <div class="sugg-body">
                            <span class="sugg-what">{ a.describe(g) }</span>{ " " }
                            <span class="sugg-gain">{ format!("→ {}", slots(a, g.matches)) }</span>
                            if metric == "M2" { <span class="muted">{ format!(" distance {:.3}", g.distance) }</span> }
                            <code class="sugg-req">{ g.requirements.clone() }</code>
                        </div>
                    </li>
                }
            })
            .collect();
        if items.is_empty() {
            html! { <p class="muted">{ "None." }</p> }
        } else {
            html! { <ol class={classes!("suggestions", metric.to_lowercase())}>{ for items }</ol> }
        }
    };
    let why_none = if a.suggestions.is_empty() {
        Some(if a.summary.rejected_by_job < a.machines {
            format!(
                "The requirements accept {}: suggestions are for requirements nothing satisfies.",
                slots(a, a.machines - a.summary.rejected_by_job)
            )
        } else if a.machines == 0 {
            "There are no machines to suggest changes for.".to_string()
        } else if !s.fixed.is_empty() {
            "No change to the predicates that are not pinned gains a machine.".to_string()
        } else {
            "No change to a predicate gains a machine.".to_string()
        })
    } else {
        None
    };
    html! {
        <section class="an-suggestions" id="suggestions">
            <h3>{ "Suggested changes to the requirements" }</h3>
            if let Some(w) = why_none {
                <p class="muted">{ w }</p>
            } else {
                <p class="muted">{ "Each count is the pool evaluated against the rewritten requirements. Apply one to analyze the job with it." }</p>
                <div class="sugg-cols">
                    <div><h4>{ "M1: fewest predicates changed" }</h4>{ list("M1") }</div>
                    <div><h4>{ "M2: smallest change (composite distance)" }</h4>{ list("M2") }</div>
                </div>
            }
        </section>
    }
}

fn job_changes(a: &Analysis, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    if a.job_changes.is_empty() {
        return html! {};
    }
    let items = a.job_changes.iter().map(|c| {
        let apply = {
            let (set, s) = (set.clone(), s.clone());
            let e = apply_job_change(&s.edits(), c);
            Callback::from(move |_| {
                        set.emit(s.edit(e.clone()));
                        // The list is redrawn: Undo is the next thing to reach for.
                        crate::components::widgets::focus::focus_after_render("undo");
                    })
        };
        let what: Vec<String> = c.changes().iter().map(|(k, v)| format!("{k} = {v}")).collect();
        let shown: Vec<String> = c.machines.iter().take(8).cloned().collect();
        let more = c.gained as usize > shown.len();
        html! {
            <li class="job-change" data-matches={c.matches.to_string()}>
                <button class="apply" onclick={apply} title="Analyze the job with these values (Undo restores)">{ "Apply" }</button>
                <div class="sugg-body">
                    <code class="sugg-what">{ what.join("; ") }</code>{ " " }
                    <span class="sugg-gain">{ format!("→ {} would accept the job (gains {}), {} matching both ways", slots(a, c.matches), thousands(c.gained), thousands(c.mutual)) }</span>
                    { for c.advice.iter().map(|(k, t)| html! { <div><strong>{ k.clone() }</strong>{ format!(": {t}") }</div> }) }
                    <div class="muted">{ format!("Range: {}. Distance {:.3}.", c.range, c.distance) }</div>
                    if !shown.is_empty() {
                        <div class="muted gains">{ format!("Gains {}{}", shown.join(", "), if more { ", …" } else { "" }) }</div>
                    }
                </div>
            </li>
        }
    });
    html! {
        <section class="an-jobchanges" id="job-changes">
            <h3>{ "What to change in the job (Nobody Likes Me)" }</h3>
            <p class="muted">{ "The machines' own requirements reject the job: these values of its attributes would move it into what they accept (each checked against every machine's requirements)." }</p>
            <ol class="suggestions">{ for items }</ol>
        </section>
    }
}
