//! One cell of the match matrix, opened: the job's and the machine's
//! requirements side by side, each with its value, the "why" line and the
//! explain tree, and both ranks. Clicking a node shows its source text.

use classad::api::EvalOptions;
use std::rc::Rc;

use classad::api::session::PoolRequest;
use classad::api::{Mode, TraceNode};
use yew::prelude::*;

use crate::bridge::session_client::{Session, CANCELLED};
use crate::components::matchmaking::match_bar::MatchPools;
use crate::components::widgets::explain::{Explain, Picked, Trace};
use crate::components::widgets::trace::{why, AdFacts, Ctx, Origin, Side};

#[derive(Properties, PartialEq)]
pub struct PairProps {
    pub session: Session,
    pub pools: MatchPools,
    /// Pool positions of the job and the machine.
    pub job: usize,
    pub machine: usize,
    pub mode: Mode,
    /// (seconds since the epoch, local offset): the matrix' clock.
    pub now: (f64, i32),
    pub on_close: Callback<()>,
}

#[derive(Clone, PartialEq)]
struct Answer {
    job_label: String,
    machine_label: String,
    job_trace: Option<Trace>,
    machine_trace: Option<Trace>,
    job_rank: String,
    machine_rank: String,
    job_ctx: Rc<Ctx>,
    machine_ctx: Rc<Ctx>,
}

fn facts(label: &str, attrs: &[String]) -> AdFacts {
    AdFacts {
        present: true,
        label: label.to_string(),
        attrs: attrs.to_vec(),
        ..Default::default()
    }
}

fn answer(r: classad::api::session::PairView, mode: Mode) -> Answer {
    let classad::api::session::PairView {
        job_label,
        machine_label,
        job_requirements,
        machine_requirements,
        job_rank,
        machine_rank,
        job_attributes,
        machine_attributes,
    } = r;
    let job = facts(&format!("job {job_label}"), &job_attributes);
    let machine = facts(&format!("machine {machine_label}"), &machine_attributes);
    let trace = |t: Option<TraceNode>| t.map(|t| Trace(Rc::new(t)));
    Answer {
        job_ctx: Rc::new(Ctx {
            my: job.clone(),
            target: machine.clone(),
            mode,
        }),
        machine_ctx: Rc::new(Ctx {
            my: machine,
            target: job,
            mode,
        }),
        job_label,
        machine_label,
        job_trace: trace(job_requirements),
        machine_trace: trace(machine_requirements),
        job_rank,
        machine_rank,
    }
}

pub fn outcome_words(cell: u8) -> &'static str {
    match cell & 3 {
        0 => "both accept",
        1 => "only the job rejects",
        2 => "only the machine rejects",
        _ => "both reject",
    }
}

pub fn outcome_class(cell: u8) -> &'static str {
    match cell & 3 {
        0 => "o-both",
        1 => "o-job",
        2 => "o-machine",
        _ => "o-none",
    }
}

fn accepts(t: &Option<Trace>) -> bool {
    t.as_ref()
        .is_some_and(|t| t.0.value == "true" || t.0.value.parse::<f64>().is_ok_and(|x| x != 0.0))
}

#[component]
pub fn PairDetail(props: &PairProps) -> Html {
    let result = use_state(|| None::<Result<Answer, String>>);
    {
        let result = result.clone();
        let session = props.session.clone();
        let args = props.pools.args();
        let (job, machine, mode, now) = (props.job, props.machine, props.mode, props.now);
        use_effect_with((job, machine, mode, props.now, args.clone()), move |_| {
            result.set(None);
            session.request(
                &args,
                |ids| PoolRequest::Pair {
                    jobs: ids[0].clone(),
                    machines: ids[1].clone(),
                    job,
                    machine,
                    context: EvalOptions::at(mode, now.0, now.1),
                },
                None,
                move |r: Result<classad::api::session::PairView, String>| {
                    if !matches!(&r, Err(e) if e == CANCELLED) {
                        result.set(Some(r.map(|r| answer(r, mode))));
                    }
                },
            );
        });
    }
    let close = {
        let c = props.on_close.clone();
        Callback::from(move |_| c.emit(()))
    };
    let body = match &*result {
        None => html! { <p class="status">{ "Evaluating both requirements…" }</p> },
        Some(Err(e)) => html! { <p class="status v-error">{ e.clone() }</p> },
        Some(Ok(a)) => {
            let cell = (!accepts(&a.job_trace) as u8) | ((!accepts(&a.machine_trace) as u8) << 1);
            let texts = (
                props.pools.jobs.as_ref().map(|p| p.text.clone()),
                props.pools.machines.as_ref().map(|p| p.text.clone()),
            );
            html! {
                <>
                    <p class="pair-outcome">
                        <span class={classes!("swatch", outcome_class(cell))}></span>
                        <strong>{ outcome_words(cell) }</strong>
                    </p>
                    <div class="pair-sides">
                        <PairSide title={format!("Job {}: its Requirements", a.job_label)} id="pair-job"
                            trace={a.job_trace.clone()} ctx={a.job_ctx.clone()}
                            rank={format!("The job's Rank of this machine: {}", crate::components::widgets::numbers::people(&a.job_rank))}
                            my_text={texts.0.clone()} target_text={texts.1.clone()} />
                        <PairSide title={format!("Machine {}: its Requirements", a.machine_label)} id="pair-machine"
                            trace={a.machine_trace.clone()} ctx={a.machine_ctx.clone()}
                            rank={format!("The machine's Rank of this job: {}", crate::components::widgets::numbers::people(&a.machine_rank))}
                            my_text={texts.1} target_text={texts.0} />
                    </div>
                </>
            }
        }
    };
    let heading = match &*result {
        Some(Ok(a)) => format!("Job {} × machine {}", a.job_label, a.machine_label),
        _ => "The pair".to_string(),
    };
    html! {
        <section class="pair-detail" aria-label="The pair's requirements">
            <div class="pair-head">
                <h2>{ heading }</h2>
                <button onclick={close} aria-label="Close the pair">{ "×" }</button>
            </div>
            { body }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct SideProps {
    title: String,
    id: AttrValue,
    trace: Option<Trace>,
    ctx: Rc<Ctx>,
    rank: String,
    /// The pool texts the MY and TARGET ads' spans point into.
    my_text: Option<Rc<str>>,
    target_text: Option<Rc<str>>,
}

#[component]
fn PairSide(props: &SideProps) -> Html {
    let picked = use_state(|| None::<Picked>);
    let on_pick = {
        let picked = picked.clone();
        Callback::from(move |p: Picked| picked.set(Some(p)))
    };
    let Some(root) = props.trace.clone() else {
        return html! {
            <div class="pair-side" id={props.id.clone()}>
                <h3>{ props.title.clone() }</h3>
                <p class="value v-undef"><code>{ "undefined" }</code><span class="kind">{ " (no Requirements or Constraint: rejects)" }</span></p>
                <p class="pair-rank">{ props.rank.clone() }</p>
            </div>
        };
    };
    let the_why = why(&root.0, &props.ctx);
    let value = root.0.value.clone();
    let value_class = match value.as_str() {
        "true" => "v-true",
        "false" => "v-false",
        "undefined" => "v-undef",
        "error" => "v-error",
        _ => "",
    };
    // Spans are offsets in the pool text the ad came from.
    let source = (*picked).as_ref().and_then(|p| {
        let (side, attr) = match &p.origin {
            Origin::Expr => (Side::My, "Requirements".to_string()),
            Origin::Def { side, attribute } => (*side, attribute.clone()),
        };
        let (text, ad) = match side {
            Side::My => (props.my_text.as_ref()?, &props.ctx.my.label),
            Side::Target => (props.target_text.as_ref()?, &props.ctx.target.label),
        };
        let t = text.get(p.start..p.end)?;
        Some((format!("{ad}, {attr}"), t.to_string()))
    });
    let culprit = the_why.as_ref().map(|w| Rc::new(w.path.clone()));
    html! {
        <div class="pair-side" id={props.id.clone()}>
            <h3>{ props.title.clone() }</h3>
            <p class={classes!("value", value_class)}><code>{ value }</code></p>
            <p class="pair-rank">{ props.rank.clone() }</p>
            if let Some(w) = &the_why {
                <p class="why"><strong>{ "Why: " }</strong>{ w.message.clone() }</p>
            }
            <Explain key={format!("{:p}", Rc::as_ptr(&root.0))} root={root.clone()} ctx={props.ctx.clone()} on_pick={on_pick} culprit={culprit} />
            if let Some((where_, text)) = source {
                <p class="picked-source">{ "In " }{ where_ }{ ": " }<code class="tk-mark">{ text }</code></p>
            }
        </div>
    }
}
