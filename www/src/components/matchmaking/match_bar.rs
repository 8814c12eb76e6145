//! What the matchmaking views share: which pools play jobs and machines
//! (and whether the worker holds them yet), the clock, the bar choosing
//! them, and a progress row with Cancel for long runs.

use std::rc::Rc;

use yew::prelude::*;

use crate::bridge::session_client::{PoolInfo, PoolLoad, Session};
use crate::components::widgets::words::{count, thousands};
use crate::state::actions::Action;
use crate::state::app_state::{AppState, MatchSettings};

/// One side of the match: a pool, and what the worker has of it.
#[derive(Clone, Debug)]
pub struct PoolSide {
    pub index: usize,
    pub name: String,
    pub text: Rc<str>,
    /// `None`: not loaded (yet, or any more after a cancel).
    pub load: Option<PoolLoad>,
}

impl PartialEq for PoolSide {
    fn eq(&self, o: &Self) -> bool {
        self.index == o.index
            && self.name == o.name
            && crate::state::app_state::same_text(&self.text, &o.text)
            && self.load == o.load
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchPools {
    pub jobs: Option<PoolSide>,
    pub machines: Option<PoolSide>,
}

impl MatchPools {
    /// Both pools as the worker holds them, once loaded.
    pub fn ready(&self) -> Option<(Rc<PoolInfo>, Rc<PoolInfo>)> {
        match (
            self.jobs.as_ref()?.load.as_ref()?,
            self.machines.as_ref()?.load.as_ref()?,
        ) {
            (PoolLoad::Ready(j), PoolLoad::Ready(m)) => Some((j.clone(), m.clone())),
            _ => None,
        }
    }

    /// (index, text) of both pools, for `SessionClient::request`.
    pub fn args(&self) -> Vec<(usize, Rc<str>)> {
        [&self.jobs, &self.machines]
            .into_iter()
            .flatten()
            .map(|s| (s.index, s.text.clone()))
            .collect()
    }

    pub fn loading(&self) -> bool {
        [&self.jobs, &self.machines]
            .into_iter()
            .flatten()
            .any(|s| matches!(s.load, Some(PoolLoad::Loading)))
    }

    /// Why the pools cannot be used, if a load failed.
    pub fn failure(&self) -> Option<String> {
        [&self.jobs, &self.machines]
            .into_iter()
            .flatten()
            .find_map(|s| match &s.load {
                Some(PoolLoad::Failed(e)) => Some(format!("{}: {e}", s.name)),
                _ => None,
            })
    }
}

/// Props of every matchmaking view.
#[derive(Properties, PartialEq)]
pub struct MatchViewProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
    pub session: Session,
    pub pools: MatchPools,
}

#[derive(Properties, PartialEq)]
pub struct MatchBarProps {
    pub state: Rc<AppState>,
    pub dispatch: Callback<Action>,
    pub pools: MatchPools,
    /// Gangmatching: the pools are requests and offers.
    #[prop_or_default]
    pub gang: bool,
}

fn set(d: &Callback<Action>, s: &MatchSettings, f: impl FnOnce(&mut MatchSettings)) {
    let mut m = s.clone();
    f(&mut m);
    d.emit(Action::SetMatching(m));
}

/// Pool choice and clock, above every matchmaking view.
#[component]
pub fn MatchBar(props: &MatchBarProps) -> Html {
    let s = &props.state;
    let pick = |which: &'static str| {
        let d = props.dispatch.clone();
        let m = s.matching.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let i = v.parse::<usize>().ok();
            set(&d, &m, |m| {
                if which == "jobs" {
                    m.jobs = i
                } else {
                    m.machines = i
                }
            });
        })
    };
    let options = |chosen: Option<usize>| {
        html! {
            { for s.pools.iter().enumerate().map(|(i, p)| html! {
                <option value={i.to_string()} selected={chosen == Some(i)}>{ p.name.clone() }</option>
            }) }
        }
    };
    let on_clock = {
        let d = props.dispatch.clone();
        let m = s.matching.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            set(&d, &m, |m| {
                m.clock = (v == "at").then(crate::bridge::clock::wall_now);
            });
        })
    };
    let on_time = {
        let d = props.dispatch.clone();
        let m = s.matching.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if !v.is_empty() {
                set(&d, &m, |m| m.clock = Some(v));
            }
        })
    };
    let size =
        |side: &Option<PoolSide>, what: &str| match side.as_ref().and_then(|s| s.load.clone()) {
            Some(PoolLoad::Ready(i)) => count(i.ads as u64, &what[..what.len() - 1], what),
            Some(PoolLoad::Loading) => format!("loading {what}…"),
            Some(PoolLoad::Failed(_)) => format!("{what}: failed"),
            None => String::new(),
        };
    let (jobs_word, machines_word) = if props.gang {
        ("requests", "offers")
    } else {
        ("jobs", "machines")
    };
    let sizes = format!(
        "{} × {}",
        size(&props.pools.jobs, jobs_word),
        size(&props.pools.machines, machines_word)
    );
    let (jobs_label, machines_label) = if props.gang {
        ("Requests ", "Offers ")
    } else {
        ("Jobs ", "Machines ")
    };
    let functions = props
        .pools
        .ready()
        .map(|(j, m)| {
            let mut f = j.functions.clone();
            f.extend(m.functions.iter().cloned());
            f
        })
        .unwrap_or_default();
    // Ads that do not parse are left out of every matchmaking view: say so,
    // with the first error and a way to it.
    let left_out = [&props.pools.jobs, &props.pools.machines]
        .into_iter()
        .flatten()
        .filter_map(|side| match &side.load {
            Some(PoolLoad::Ready(i)) if i.errors > 0 => Some((side.index, side.name.clone(), i.clone())),
            _ => None,
        })
        .map(|(index, name, info)| {
            let d = props.dispatch.clone();
            let show = Callback::from(move |_| {
                d.emit(Action::SelectPool(index));
                d.emit(Action::SetView(crate::state::app_state::View::Evaluate));
            });
            html! {
                <p class="status v-error left-out" role="alert">
                    { format!(
                        "\u{201c}{name}\u{201d} does not parse everywhere ({}): ads that do not parse are left out here, so {} {} counted. ",
                        count(info.errors as u64, "error", "errors"),
                        count(info.ads as u64, "ad", "ads"),
                        if info.ads == 1 { "is" } else { "are" },
                    ) }
                    if let Some(e) = &info.first_error { <code>{ e.clone() }</code>{ " " } }
                    <button class="link" onclick={show}>{ "Show it in the workbench" }</button>
                </p>
            }
        })
        .collect::<Html>();
    html! {
        <>
        <div class="match-bar">
            <label>{ jobs_label }<select id="match-jobs" onchange={pick("jobs")}>{ options(props.pools.jobs.as_ref().map(|p| p.index)) }</select></label>
            <label>{ machines_label }<select id="match-machines" onchange={pick("machines")}>{ options(props.pools.machines.as_ref().map(|p| p.index)) }</select></label>
            <label title="Time functions (DayTime(), CurrentTime(), time()) see this clock">
                { "Clock " }
                <select id="match-clock" onchange={on_clock}>
                    <option value="now" selected={s.matching.clock.is_none()}>{ "now" }</option>
                    <option value="at" selected={s.matching.clock.is_some()}>{ "a chosen time" }</option>
                </select>
            </label>
            if let Some(w) = s.matching.clock.clone() {
                <input type="datetime-local" id="match-time" aria-label="Chosen time" value={w} onchange={on_time} />
            }
            <span class="muted match-sizes">{ sizes }</span>
            if !functions.is_empty() {
                <span class="muted" title="Functions the pools define (MyType = \"Functions\")">{ format!("functions: {}", functions.join(", ")) }</span>
            }
        </div>
        { left_out }
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct ProgressProps {
    pub label: AttrValue,
    /// (done, total); `None`: not known yet.
    #[prop_or_default]
    pub at: Option<(usize, usize)>,
    /// When the run started (`now_ms()`), if known: the time taken so far
    /// is shown, ticking on its own while the worker says nothing.
    #[prop_or_default]
    pub started: Option<f64>,
    pub on_cancel: Callback<()>,
}

/// A run in the worker: what, how far, and Cancel.
#[component]
pub fn Progress(props: &ProgressProps) -> Html {
    // Redrawn twice a second while it shows, so the time keeps counting
    // through a long step that reports no progress (an index being built).
    let redraw = use_force_update();
    {
        let running = props.started.is_some();
        use_effect_with(running, move |running| {
            let tick = running
                .then(|| gloo_timers::callback::Interval::new(500, move || redraw.force_update()));
            move || drop(tick)
        });
    }
    let elapsed = props.started.map(|t| crate::bridge::clock::now_ms() - t);
    let cancel = {
        let c = props.on_cancel.clone();
        Callback::from(move |_| c.emit(()))
    };
    let (bar, count) = match props.at {
        Some((d, t)) if t > 0 => (
            html! { <progress max={t.to_string()} value={d.min(t).to_string()} aria-label={props.label.clone()}></progress> },
            format!(
                "{} of {} ({:.0}%)",
                thousands(d as u64),
                thousands(t as u64),
                d as f64 * 100.0 / t as f64
            ),
        ),
        _ => (
            html! { <progress aria-label={props.label.clone()}></progress> },
            String::new(),
        ),
    };
    html! {
        <div class="busy run-progress" role="status">
            { bar }
            <span>{ props.label.clone() }</span>
            <span class="muted">{ count }</span>
            if let Some(ms) = elapsed {
                <span class="muted">{ crate::components::widgets::words::duration(ms) }</span>
            }
            <button class="cancel" onclick={cancel}>{ "Cancel" }</button>
        </div>
    }
}

/// What a matchmaking view says of itself above its body.
pub struct ViewFrame {
    /// The `<main>`'s accessible name.
    pub label: &'static str,
    /// A class besides `match-view`.
    pub class: Option<&'static str>,
    pub title: &'static str,
    pub intro: &'static str,
}

/// A matchmaking view: the pool bar, its title and introduction, then
/// `body` of the jobs' and machines' pools once the worker holds them
/// (until then, what [`pools_gate`] shows).
pub fn match_view(
    props: &MatchViewProps,
    frame: ViewFrame,
    body: impl FnOnce(Rc<PoolInfo>, Rc<PoolInfo>) -> Html,
) -> Html {
    let content = match (
        pools_gate(&props.pools, &props.session),
        props.pools.ready(),
    ) {
        (None, Some((jobs, machines))) => body(jobs, machines),
        (Some(gate), _) => gate,
        (None, None) => html! {},
    };
    html! {
        <main class={classes!("match-view", frame.class)} aria-label={frame.label}>
            <MatchBar state={props.state.clone()} dispatch={props.dispatch.clone()} pools={props.pools.clone()} />
            <h2>{ frame.title }</h2>
            <p class="view-intro">{ frame.intro }</p>
            { content }
        </main>
    }
}

/// While the pools are being loaded into the worker (or failed to), the
/// view shows this instead of its body; `None` once they are ready.
pub fn pools_gate(pools: &MatchPools, session: &Session) -> Option<Html> {
    if pools.jobs.is_none() || pools.machines.is_none() {
        return Some(
            html! { <p class="status">{ "Add a pool of jobs and a pool of machines in the workbench." }</p> },
        );
    }
    if let Some(why) = pools.failure() {
        return Some(
            html! { <p class="status v-error">{ format!("The pool could not be loaded: {why}") }</p> },
        );
    }
    if pools.ready().is_some() {
        return None;
    }
    let cancel = {
        let s = session.clone();
        Callback::from(move |_| s.cancel())
    };
    if pools.loading() {
        return Some(
            html! { <Progress label="Loading the pools into the matchmaker…" on_cancel={cancel} /> },
        );
    }
    let load = {
        let s = session.clone();
        let args = pools.args();
        Callback::from(move |_| {
            for (i, t) in &args {
                s.ensure(*i, t, false);
            }
        })
    };
    Some(html! {
        <div class="busy" role="status">
            <span>{ "Loading the pools was stopped." }</span>
            <button onclick={load}>{ "Load them" }</button>
        </div>
    })
}

/// Leaving a view stops its run under way: nobody would see the answer,
/// and it would hold up the other views' requests.
#[hook]
pub fn use_stop_on_leave(session: &Session, busy: bool) {
    let live = use_mut_ref(|| false);
    *live.borrow_mut() = busy;
    let session = session.clone();
    use_effect_with((), move |_| {
        move || {
            if *live.borrow() {
                session.cancel();
            }
        }
    });
}
