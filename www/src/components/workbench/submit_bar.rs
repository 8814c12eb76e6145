//! A pool that is a submit description file: the job ads condor_submit
//! makes from it (the engine worker runs the submit language), condor_submit's
//! messages at their lines, the submit host's settings, and a pool of the
//! job ads — every attribute under a comment naming the line or default it
//! came from — that the evaluator and the matchmaking views use like any
//! jobs, kept up to date as the file changes.

use std::rc::Rc;

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::bridge::submit::{SubmitRequest, Submitted};
use crate::state::actions::Action;
use crate::state::app_state::{AppState, SubmitSettings};

#[derive(Properties, PartialEq)]
pub struct SubmitBarProps {
    pub state: Rc<AppState>,
    pub pool: usize,
    pub dispatch: Callback<Action>,
    /// Show a span of the submit file's text.
    pub go_to: Callback<(usize, usize)>,
}

/// The procs the page makes at most (each ad is a few KB of text).
pub const PAGE_MAX_PROCS: usize = 2_000;

/// The pool that holds a submit file's job ads.
pub fn jobs_pool_name(submit_pool: &str) -> String {
    format!("{submit_pool} jobs")
}

/// The submit file in pool `pool` with what the page runs it on: the
/// other pools as the files beside it (the text only of those the file
/// names: a production pool is megabytes, and `queue matching` needs only
/// names), the submit host's settings, the views' clock.
pub fn source_for(s: &AppState, pool: usize) -> Option<SubmitRequest> {
    let sub = s.pools.get(pool)?;
    let jobs_name = jobs_pool_name(&sub.name);
    let text = sub.text.to_string();
    let files = s
        .pools
        .iter()
        .enumerate()
        .filter(|(i, p)| *i != pool && p.name != jobs_name)
        .map(|(_, p)| {
            let named = names(&text, &p.name);
            (
                p.name.clone(),
                if named {
                    p.text.to_string()
                } else {
                    String::new()
                },
            )
        })
        .collect();
    Some(SubmitRequest {
        name: sub.name.clone(),
        text,
        files,
        config: s.submit.config.clone(),
        htcondor: s.submit.htcondor,
        cluster: 1,
        clock: s.matching.clock.clone(),
        // Read only without a clock (a lesson's ads do not depend on it).
        now: match s.matching.clock {
            Some(_) => 0,
            // To the minute, as the submit time is (the request stays equal).
            None => (js_sys::Date::now() / 60_000.0).floor() as i64 * 60,
        },
        max_procs: PAGE_MAX_PROCS,
    })
}

/// Whether `text` has `name` as a word of a file name (not inside a longer
/// one: a pool called `m` is not read because a line says `memory`).
fn names(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || "_.-/".contains(c);
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(part)
                && !text[at + name.len()..].chars().next().is_some_and(part)
        })
}

/// The submit pool whose job ads pool `jobs` is, if it is one.
pub fn submit_pool_of(s: &AppState, jobs: &str) -> Option<usize> {
    let name = jobs.strip_suffix(" jobs")?;
    s.pools
        .iter()
        .position(|p| p.name == name && crate::bridge::submit::looks_like_submit(&p.text))
}

/// Submit `req` in the worker and put its job ads in pool `jobs_name`
/// (unless condor_submit refuses the file or they are `current` already);
/// `done` gets the answer.
pub fn resubmit(
    req: &SubmitRequest,
    jobs_name: String,
    current: Option<Rc<str>>,
    dispatch: Callback<Action>,
    done: Box<dyn FnOnce(Result<Submitted, String>)>,
) {
    crate::bridge::engine::submit(
        req,
        true,
        Box::new(move |r| {
            if let Ok(out) = &r {
                if !out.refused() && current.as_deref() != Some(out.ads.as_str()) {
                    dispatch.emit(Action::PutPool {
                        name: jobs_name,
                        text: Rc::from(out.ads.as_str()),
                    });
                }
            }
            done(r);
        }),
    );
}

/// The byte span of line `n` (1-based) of `text`.
fn line_span(text: &str, n: u32) -> (usize, usize) {
    let mut at = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == n as usize {
            return (at, at + l.trim_end().len());
        }
        at += l.len();
    }
    (at, at)
}

#[component]
pub fn SubmitBar(props: &SubmitBarProps) -> Html {
    let s = &props.state;
    let Some(pool) = s.pools.get(props.pool) else {
        return html! {};
    };
    let jobs_name = jobs_pool_name(&pool.name);
    let result = use_state(|| None::<Result<Submitted, String>>);
    let timer = use_mut_ref(|| None::<Timeout>);
    let exists = s.pools.iter().any(|p| p.name == jobs_name);
    // The request as it stands (made once per render: it copies the file).
    let req = source_for(s, props.pool);
    // What the file may include or read items from: the other pools.
    let files: Vec<(String, usize)> = s
        .pools
        .iter()
        .enumerate()
        .filter(|(i, p)| *i != props.pool && p.name != jobs_name)
        .map(|(_, p)| (p.name.clone(), Rc::as_ptr(&p.text) as *const u8 as usize))
        .collect();
    {
        let (result, dispatch) = (result.clone(), props.dispatch.clone());
        let jobs_name = jobs_name.clone();
        let req = req.clone();
        let current = s
            .pools
            .iter()
            .find(|p| p.name == jobs_name)
            .map(|p| p.text.clone());
        use_effect_with(
            (
                pool.text.clone(),
                s.submit.clone(),
                files,
                exists,
                s.matching.clock.clone(),
            ),
            move |_| {
                // A pause in typing, then one request.
                *timer.borrow_mut() = Some(Timeout::new(250, move || {
                    let Some(req) = req else { return };
                    let done = Box::new(move |r| result.set(Some(r)));
                    if exists {
                        // The job-ads pool follows the file.
                        resubmit(&req, jobs_name, current, dispatch, done);
                    } else {
                        crate::bridge::engine::submit(&req, false, done);
                    }
                }));
            },
        );
    }
    let make_pool = {
        let (result, dispatch, name) = (result.clone(), props.dispatch.clone(), jobs_name.clone());
        Callback::from(move |_| {
            if let Some(req) = &req {
                let result = result.clone();
                let done = Box::new(move |r| result.set(Some(r)));
                resubmit(req, name.clone(), None, dispatch.clone(), done);
            }
        })
    };
    let set_settings = |f: fn(&mut SubmitSettings, String)| {
        let (d, cur) = (props.dispatch.clone(), s.submit.clone());
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            let mut n = cur.clone();
            f(&mut n, v);
            d.emit(Action::SetSubmit(n));
        })
    };
    let on_version = set_settings(|s, v| s.htcondor = v.parse().unwrap_or(25));
    let on_config = set_settings(|s, v| s.config = v);
    let text = pool.text.clone();
    let problems = match &*result {
        Some(Ok(out)) => out
            .problems
            .iter()
            .map(|p| {
                let span = line_span(&text, p.line);
                let go = props.go_to.clone();
                html! {
                    <li class={if p.warning { "diag-warning" } else { "diag-error" }}>
                        <button class="link diag-go" onclick={Callback::from(move |_| go.emit(span))} title="Show the line">
                            { if p.line > 0 { format!("line {}: {}", p.line, p.message) } else { p.message.clone() } }
                        </button>
                    </li>
                }
            })
            .collect::<Html>(),
        _ => html! {},
    };
    let headline = match &*result {
        None => "Reading the submit file…".to_string(),
        Some(Err(e)) => format!("The engine could not run it: {e}"),
        Some(Ok(out)) if out.refused() => {
            "condor_submit would refuse this file (the error below): no job ads.".to_string()
        }
        Some(Ok(out)) => format!(
            "condor_submit {} makes {} from this file{}.",
            s.submit.htcondor,
            crate::components::widgets::words::count(out.procs as u64, "job ad", "job ads"),
            out.cut
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default()
        ),
    };
    let ok = matches!(&*result, Some(Ok(o)) if !o.refused());
    // The first job by the lines that made it: a line's button shows it.
    let made = match &*result {
        Some(Ok(out)) if !out.made.is_empty() => {
            let rows = out.made.lines().map(|row| {
                let mut f = row.split('\t');
                let line: u32 = f.next().and_then(|l| l.parse().ok()).unwrap_or(0);
                let key = f.next().unwrap_or("");
                let head = if line == 0 {
                    html! { <span class="muted">{ "condor_submit's defaults and the submit host" }</span> }
                } else {
                    let (go, span) = (props.go_to.clone(), line_span(&text, line));
                    html! { <button class="link" onclick={Callback::from(move |_| go.emit(span))} title="Show the line">{ format!("line {line}: {key}") }</button> }
                };
                html! {
                    <li data-line={line.to_string()}>{ head }
                        <ul>{ for f.map(|w| html! { <li><code>{ w.to_string() }</code></li> }) }</ul>
                    </li>
                }
            });
            html! {
                <details class="submit-made" id="submit-made">
                    <summary>{ "What each line made (job 1.0)" }</summary>
                    <ul>{ for rows }</ul>
                </details>
            }
        }
        _ => html! {},
    };
    html! {
        <div class="submit-bar" id="submit-bar" aria-live="polite">
            <p id="submit-summary"><strong>{ "A submit description file. " }</strong>{ headline }</p>
            <ul class="submit-problems">{ problems }</ul>
            <p>
                if exists {
                    <span class="muted" id="submit-pool-note">{ format!("Its job ads are the pool \u{201c}{jobs_name}\u{201d}, kept up to date as you edit; each attribute says which line or default made it.") }</span>
                } else {
                    <button id="submit-make-pool" onclick={make_pool} disabled={!ok}>{ format!("Put its job ads in a pool (\u{201c}{jobs_name}\u{201d})") }</button>
                    <span class="muted">{ " — to evaluate, match and analyze them like any jobs." }</span>
                }
            </p>
            { made }
            <details class="submit-host">
                <summary>{ "Submit host" }</summary>
                <label>{ "condor_submit " }
                    <select id="submit-version" onchange={on_version}>
                        <option value="25" selected={s.submit.htcondor != 24}>{ "25" }</option>
                        <option value="24" selected={s.submit.htcondor == 24}>{ "24" }</option>
                    </select>
                </label>
                <label class="submit-config">{ "Configuration (KEY = VALUE per line)" }
                    <textarea id="submit-config" rows="5" value={s.submit.config.clone()} onchange={on_config} spellcheck="false" />
                </label>
            </details>
        </div>
    }
}

/// Keeps each submit file's job-ads pool made from the file while the
/// file's own bar is not on screen (another view is open, or another
/// pool): an analyzer fix applied to the file, or a file opened from a
/// link, still gives the jobs the views use. A hook of the shell (a
/// component of its own costs the page 2 KB).
#[hook]
pub fn use_submit_follower(s: &Rc<AppState>, dispatch: &Callback<Action>) {
    let timer = use_mut_ref(|| None::<Timeout>);
    // The pool whose bar is on screen follows itself.
    let shown = (s.view == crate::state::app_state::View::Evaluate).then_some(s.active_pool);
    // Submit files with a job-ads pool: (index, text) — by pointer, so a
    // render compares no texts.
    let followed: Vec<(usize, usize)> = s
        .pools
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            Some(*i) != shown
                && s.pools.iter().any(|q| q.name == jobs_pool_name(&p.name))
                && crate::bridge::submit::looks_like_submit(&p.text)
        })
        .map(|(i, p)| (i, Rc::as_ptr(&p.text) as *const u8 as usize))
        .collect();
    let (state, dispatch) = (s.clone(), dispatch.clone());
    let deps = (followed, s.submit.clone(), s.matching.clock.clone());
    use_effect_with(deps, move |(followed, _, _)| {
        let followed = followed.clone();
        *timer.borrow_mut() = Some(Timeout::new(250, move || {
            for (i, _) in followed {
                let Some(req) = source_for(&state, i) else {
                    continue;
                };
                let jobs = jobs_pool_name(&req.name);
                let current = state
                    .pools
                    .iter()
                    .find(|p| p.name == jobs)
                    .map(|p| p.text.clone());
                resubmit(&req, jobs, current, dispatch.clone(), Box::new(|_| {}));
            }
        }));
    });
}
