//! The analyzer view, "Why doesn't it match?" (seed 000 §3): one job of the
//! jobs pool against the machines pool, analyzed in the worker — the run
//! summary, each clause's predicates with how many machines each accepts
//! (pin one to keep suggestions off it), suggestions (M1, M2) and job
//! changes as one-click edits with Undo, conflicts with Figure 4's lattice,
//! Figure 5's plane, and better-analyze's text report. This file: the
//! choices, the request to the worker, its progress, the requirements box,
//! and what goes wrong; the parts are drawn by `analyzer_results`,
//! `analyzer_lattice`, `analyzer_plane` and `analyzer_report`.

use crate::components::analysis::answers::FixAttributes;
use std::rc::Rc;

use classad::api::session::{AnalyzeRequest, PoolRequest};
use classad::api::{EvalOptions, Mode};
use yew::prelude::*;

use crate::bridge::clock::now_ms;
use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::bridge::submit::SubmitRequest;
use crate::components::analysis::analyzer_plane::PlaneView;
use crate::components::analysis::analyzer_report::{ReportView, ReverseView};
use crate::components::analysis::analyzer_results::results;
use crate::components::analysis::analyzer_submit::SubmitFixesView;
use crate::components::analysis::answers::AnalysisView;
use crate::components::analysis::plane::plane_axes;
use crate::components::analysis::shown::{Key, Shown};
use crate::components::matchmaking::match_bar::{
    match_view, use_stop_on_leave, MatchPools, MatchViewProps, Progress, ViewFrame,
};
use crate::components::widgets::words::{count, thousands};
use crate::components::workbench::submit_bar::{source_for, submit_pool_of};
use crate::state::actions::Action;
use crate::state::analyzer_settings::{override_of, AnalyzeSettings, Edits};

/// Pools up to this many jobs get a list to pick from; bigger ones a number.
const JOB_LIST_MAX: usize = 2_000;

#[component]
pub fn AnalyzerView(props: &MatchViewProps) -> Html {
    let frame = ViewFrame {
        label: "Analyzer",
        class: Some("analyzer"),
        title: "Why doesn't it match?",
        intro: "One job against every machine, as in Coleman, Raman, Livny & Solomon (2003, §3): which predicates of its requirements reject which machines, the least drastic changes that gain machines (each checked by evaluating the rewritten requirements over the pool), predicates that conflict, and what to change in the job when the machines are the ones refusing.",
    };
    // A jobs pool made from a submit file: the fixes come as its edits too.
    let submit = props
        .pools
        .jobs
        .as_ref()
        .and_then(|j| submit_pool_of(&props.state, &j.name))
        .and_then(|i| source_for(&props.state, i))
        .map(Rc::new);
    match_view(props, frame, |jobs, machines| {
        html! {
            <AnalyzerBody session={props.session.clone()} pools={props.pools.clone()} {jobs} {machines} submit={submit.clone()}
                mode={props.state.mode} clock={props.state.matching.clock.clone()}
                settings={props.state.analyze.clone()} dispatch={props.dispatch.clone()} />
        }
    })
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    session: Session,
    pools: MatchPools,
    jobs: Rc<PoolInfo>,
    machines: Rc<PoolInfo>,
    mode: Mode,
    clock: Option<String>,
    settings: AnalyzeSettings,
    dispatch: Callback<Action>,
    submit: Option<Rc<SubmitRequest>>,
}

#[component]
fn AnalyzerBody(props: &BodyProps) -> Html {
    let result = use_state(|| None::<Rc<Shown>>);
    // (request number, progress, started)
    let running = use_state(|| None::<(u64, Option<(usize, usize)>, f64)>);
    let error = use_state(|| None::<(Key, String)>);
    let seq = use_mut_ref(|| 0u64);
    let draft = use_state(|| None::<String>);
    let s = &props.settings;

    let axes = match &*result {
        Some(r) => {
            // By default the plane shows what the best fix changes.
            let best: Vec<String> = r
                .view
                .analysis
                .suggestions
                .first()
                .map(|f| f.job_attributes().into_iter().map(|(k, _)| k).collect())
                .unwrap_or_default();
            plane_axes(s.plane.as_ref(), &r.view.plane_attributes, &best)
        }
        None => s.plane.clone(),
    };
    let key: Key = (
        Rc::as_ptr(&props.jobs) as usize,
        Rc::as_ptr(&props.machines) as usize,
        s.job,
        s.edits(),
        // The chosen axes, not the ones shown: the engine picks the same
        // defaults, so a first answer does not ask for a second.
        s.plane.clone(),
        s.all_steps,
        props.mode,
        props.clock.clone(),
    );
    let job_ok = s.job < props.jobs.ads;

    let run = {
        let (session, args) = (props.session.clone(), props.pools.args());
        let (result, running, error, seq) =
            (result.clone(), running.clone(), error.clone(), seq.clone());
        let key = key.clone();
        let submit = props.submit.clone();
        let label = props
            .jobs
            .labels
            .get(s.job)
            .cloned()
            .unwrap_or_else(|| s.job.saturating_add(1).to_string());
        Callback::from(move |_: ()| {
            let n = {
                let mut q = seq.borrow_mut();
                *q += 1;
                *q
            };
            let started = now_ms();
            running.set(Some((n, None, started)));
            let (_, _, job, edits, plane, all_steps, mode, clock) = key.clone();
            let now = crate::bridge::clock::resolve(clock.as_deref());
            let progress = {
                let running = running.clone();
                Callback::from(move |at: (usize, usize)| running.set(Some((n, Some(at), started))))
            };
            let (result, running, error, seq, key, label) = (
                result.clone(),
                running.clone(),
                error.clone(),
                seq.clone(),
                key.clone(),
                label.clone(),
            );
            let dialect = crate::bridge::dialect::current();
            // Fixes as file edits are of the job as the file makes it.
            let submit = submit
                .as_ref()
                .filter(|_| edits.overrides.is_empty())
                .map(|r| (**r).clone());
            session.request(
                &args,
                move |ids| {
                    PoolRequest::Analyze(AnalyzeRequest {
                        jobs: ids.first().cloned().unwrap_or_default(),
                        machines: ids.get(1).cloned().unwrap_or_default(),
                        job,
                        fixed: edits.fixed,
                        overrides: edits.overrides,
                        all_steps,
                        plane,
                        eval: EvalOptions::at(mode, now.0, now.1),
                        dialect,
                        submit,
                    })
                },
                Some(progress),
                move |r: Result<AnalysisView, String>| {
                    // Only the latest request's end stops the progress row.
                    if *seq.borrow() == n {
                        running.set(None);
                    }
                    match r {
                        Ok(view) => {
                            error.set(None);
                            result.set(Some(Rc::new(Shown {
                                view,
                                key,
                                ms: now_ms() - started,
                                label,
                            })));
                        }
                        Err(e) if e == CANCELLED => {}
                        Err(e) => error.set(Some((key, e))),
                    }
                },
            );
        })
    };
    // Every change of the inputs analyzes again (in the worker).
    {
        let run = run.clone();
        use_effect_with(key.clone(), move |_| {
            if job_ok {
                run.emit(());
            }
        });
    }
    // A new set of edits: the requirements box shows them.
    {
        let draft = draft.clone();
        use_effect_with((s.job, s.overrides.clone()), move |_| draft.set(None));
    }
    use_stop_on_leave(&props.session, running.is_some());

    let set = {
        let d = props.dispatch.clone();
        Callback::from(move |a: AnalyzeSettings| d.emit(Action::SetAnalyze(a)))
    };
    let picker = job_picker(&props.jobs, s, &set);
    let on_cancel = {
        let session = props.session.clone();
        Callback::from(move |_| session.cancel())
    };
    let progress = match *running {
        Some((_, at, started)) => html! {
            <Progress label="Analyzing…" at={at} started={Some(started.to_owned())} {on_cancel} />
        },
        None => html! {},
    };
    // (a blocking problem, what to say)
    let mut problems: Vec<(bool, String)> = vec![];
    let (jobs_name, machines_name) = (
        props
            .pools
            .jobs
            .as_ref()
            .map(|p| p.name.clone())
            .unwrap_or_default(),
        props
            .pools
            .machines
            .as_ref()
            .map(|p| p.name.clone())
            .unwrap_or_default(),
    );
    if props.jobs.ads == 0 {
        problems.push((true, format!("The jobs pool \u{201c}{jobs_name}\u{201d} has no ads: add a job in the workbench, or pick another pool above.")));
    } else if !job_ok {
        problems.push((
            true,
            format!(
                "Job {} is not in \u{201c}{jobs_name}\u{201d} any more (it has {}): pick one above.",
                s.job.saturating_add(1),
                count(props.jobs.ads as u64, "ad", "ads")
            ),
        ));
    }
    if props.machines.ads == 0 {
        problems.push((true, format!("The machines pool \u{201c}{machines_name}\u{201d} has no ads: there is nothing to match against.")));
    } else if let Some(side) = props.pools.machines.as_ref() {
        let pool = crate::state::app_state::PoolText {
            name: side.name.clone(),
            text: side.text.clone(),
        };
        if crate::state::pool_roles::role_of(&pool) == Some(crate::state::pool_roles::Role::Jobs) {
            problems.push((false, format!("The machines pool \u{201c}{machines_name}\u{201d} holds jobs (MyType = \"Job\"), not machines: the analysis matches the job against jobs. Pick a pool of machines above, or add one (MyType = \"Machine\").")));
        }
    }
    // Pools that do not parse everywhere are reported by the match bar.
    let err = match &*error {
        Some((k, e)) if *k == key => html! {
            <p class="status v-error" id="analysis-error" role="alert">{ format!("The analysis failed: {}", describe_error(e)) }</p>
        },
        _ => html! {},
    };
    let current = (*result).clone();
    let stale = current.as_ref().is_some_and(|r| r.key != key);
    let req_attr = current
        .as_ref()
        .map(|r| r.view.analysis.requirements_attribute.clone())
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| "Requirements".into());

    // The requirements box: what the user typed, else the override in
    // effect, else the job's requirements as analyzed.
    let shown_req = (*draft)
        .clone()
        .or_else(|| override_of(&s.overrides, &req_attr).map(str::to_string))
        .or_else(|| {
            current
                .as_ref()
                .filter(|r| r.key.0 == key.0 && r.key.2 == s.job)
                .map(|r| r.view.analysis.requirements.clone())
        })
        .unwrap_or_default();
    let on_draft = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let t = e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            draft.set(Some(t));
        })
    };
    let on_apply_req = {
        let (set, s, draft, attr) = (set.clone(), s.clone(), draft.clone(), req_attr.clone());
        let text = shown_req.clone();
        Callback::from(move |_: ()| {
            let t = (*draft).clone().unwrap_or_else(|| text.clone());
            set.emit(s.with_override(&attr, t.trim()));
        })
    };
    // Ctrl/⌘+Enter in the box analyzes what it holds.
    let on_req_key = {
        let apply = on_apply_req.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                apply.emit(());
            }
        })
    };
    let undo = {
        let (set, s) = (set.clone(), s.clone());
        Callback::from(move |_| set.emit(s.undone()))
    };
    let reset = {
        let (set, s) = (set.clone(), s.clone());
        Callback::from(move |_| {
            set.emit(s.edit(Edits {
                overrides: vec![],
                fixed: s.fixed.clone(),
            }))
        })
    };
    let rerun = {
        let run = run.clone();
        Callback::from(move |_| run.emit(()))
    };
    let on_steps = {
        let (set, s) = (set.clone(), s.clone());
        Callback::from(move |_: Event| {
            let mut n = s.clone();
            n.all_steps = !n.all_steps;
            set.emit(n);
        })
    };
    let edits_line = (!s.overrides.is_empty()).then(|| html! {
        <div class="chips an-edits" id="edits" aria-label="Edits in effect">
            <span class="muted">{ "Analyzing the job with: " }</span>
            { for s.overrides.iter().map(|(n, t)| html! { <code class="chip">{ format!("{n} = {t}") }</code> }) }
        </div>
    });

    html! {
        <>
            <div class="matrix-tools">
                { picker }
                <button id="undo" onclick={undo} disabled={s.undo.is_empty()} title="Restore the edits before the last one">
                    { if s.undo.is_empty() { "Undo".to_string() } else { format!("Undo ({})", s.undo.len()) } }
                </button>
                <button id="reset-edits" onclick={reset} disabled={s.overrides.is_empty()}>{ "Back to the job as written" }</button>
                <button id="analyze-again" onclick={rerun} disabled={running.is_some() || !job_ok}>{ "Analyze again" }</button>
                <label class="check"><input type="checkbox" id="all-steps" checked={s.all_steps} onchange={on_steps} />{ " every step of the report" }</label>
            </div>
            { for problems.iter().map(|(stop, p)| html! {
                <p class={classes!("status", "analysis-problem", if *stop { "v-error" } else { "v-undef" })} role="alert">{ p.clone() }</p>
            }) }
            { edits_line.unwrap_or_default() }
            <div class="an-req">
                <label for="requirements-edit">{ format!("The job's {req_attr} (edit, then Ctrl/⌘+Enter or the button; the pool itself is not changed)") }</label>
                <textarea id="requirements-edit" rows="3" spellcheck="false" value={shown_req} oninput={on_draft} onkeydown={on_req_key} />
                <div><button id="apply-requirements" class="primary" onclick={{ let a = on_apply_req.clone(); Callback::from(move |_| a.emit(())) }} disabled={!job_ok}>{ "Analyze with these requirements" }</button></div>
            </div>
            { progress }
            { err }
            { match current {
                Some(r) => html! {
                    <>
                        if stale { <p class="status">{ if running.is_some() { "Updating…" } else { "Showing the last analysis that worked; the one for the present choices did not (see above)." } }</p> }
                        if let (Some(f), Some(source)) = (r.view.submit_fixes.clone(), props.submit.clone()) {
                            <SubmitFixesView undone={Rc::new(undone_of(&f, &r.view.analysis.suggestions))} fixes={Rc::new(f)}
                                {source} dispatch={props.dispatch.clone()} />
                        }
                        { results(&r, s, &set, !stale && running.is_none()) }
                        <PlaneView shown={r.clone()} axes={axes.clone()} settings={s.clone()} set={set.clone()} />
                        <ReportView report={r.view.report.clone()} />
                    </>
                },
                None => html! {},
            } }
            <ReverseView session={props.session.clone()} pools={props.pools.clone()} machines={props.machines.clone()}
                mode={props.mode} clock={props.clock.clone()} all_steps={s.all_steps} />
        </>
    }
}

/// The fixes condor_submit would undo: each one's submit lines, and why.
fn undone_of(
    f: &classad::api::session::SubmitFixes,
    suggestions: &[crate::components::analysis::answers::Suggestion],
) -> Vec<(String, String)> {
    f.undone
        .iter()
        .map(|u| {
            let what = suggestions.get(u.suggestion).map(|s| s.submit.join("; "));
            (what.unwrap_or_default(), u.why.clone())
        })
        .collect()
}

/// The engine's messages, with a hint where the user can act.
fn describe_error(e: &str) -> String {
    if e.contains("no Requirements") {
        format!("{e}. Type requirements in the box above to analyze them.")
    } else if e.starts_with("Requirements:") || e.starts_with("Constraint:") {
        format!("{e}. Correct the text in the box (Undo restores the last edit).")
    } else {
        e.to_string()
    }
}

fn job_picker(jobs: &PoolInfo, s: &AnalyzeSettings, set: &Callback<AnalyzeSettings>) -> Html {
    let pick = {
        let (set, s) = (set.clone(), s.clone());
        Callback::from(move |i: usize| set.emit(s.for_job(i)))
    };
    if jobs.ads <= JOB_LIST_MAX {
        let onchange = Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(i) = v.parse() {
                pick.emit(i);
            }
        });
        html! {
            <label>{ "Job " }
                <select id="analyze-job" {onchange}>
                    { for (0..jobs.ads).map(|i| {
                        let label = jobs.labels.get(i).cloned().unwrap_or_else(|| (i + 1).to_string());
                        html! { <option value={i.to_string()} selected={i == s.job}>{ label }</option> }
                    }) }
                </select>
            </label>
        }
    } else {
        let onchange = Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(i) = v.trim().parse::<usize>() {
                pick.emit(i.saturating_sub(1));
            }
        });
        html! {
            <label>{ format!("Job number (1–{}) ", thousands(jobs.ads as u64)) }
                <input id="analyze-job" type="number" min="1" max={jobs.ads.to_string()} value={s.job.saturating_add(1).to_string()} {onchange} />
                <span class="muted">{ jobs.labels.get(s.job).cloned().unwrap_or_default() }</span>
            </label>
        }
    }
}
