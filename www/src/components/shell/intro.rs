//! The first-visit introduction: what a ClassAd is, what MY and TARGET
//! mean, what matchmaking is, and three guided steps through the gallery.
//! A panel above the views (never a modal: nothing is blocked), dismissed
//! once and for all, reopened from the "?" in the header.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct IntroProps {
    /// Open the gallery example of this id (what is open now is set aside).
    pub on_open: Callback<String>,
    pub on_close: Callback<()>,
}

/// The guided steps: (gallery id, what to look at).
const STEPS: [(&str, &str, &str); 3] = [
    (
        "000-fig2-3",
        "Evaluate a policy",
        "A workstation (MY) and a job (TARGET) from the Condor paper: the expression MY.Requirements && TARGET.Requirements is true. Click a line of the Explain tree to see where each value came from; change the machine's Memory in its pool to 64M and watch the value turn false (the job wants 128M or more).",
    ),
    (
        "000-matrix",
        "Match a pool",
        "Jobs × machines, each cell coloured by who rejects whom. Hover a cell for both ranks; click it for both Requirements explained.",
    ),
    (
        "000-eight",
        "Ask why a job does not match",
        "Eight machines, none the job likes: the analyzer counts each condition, finds the conflicting ones and suggests changes, each checked by evaluation.",
    ),
];

#[component]
pub fn Intro(props: &IntroProps) -> Html {
    let close = {
        let c = props.on_close.clone();
        Callback::from(move |_| {
            c.emit(());
            // The "?" that brings the introduction back.
            crate::components::widgets::focus::focus_after_render("help");
        })
    };
    let steps = STEPS.iter().map(|(id, title, what)| {
        let open = {
            let (o, id) = (props.on_open.clone(), *id);
            Callback::from(move |_| o.emit(id.to_string()))
        };
        html! {
            <li>
                <strong>{ format!("{title}. ") }</strong>{ *what }{ " " }
                <button class="link" onclick={open}>{ "Open it" }</button>
            </li>
        }
    });
    html! {
        <section class="intro" id="intro" aria-labelledby="intro-title">
            <div class="pair-head">
                <h2 id="intro-title">{ "Welcome to the ClassAd Playground" }</h2>
                <button onclick={close.clone()} aria-label="Close the introduction">{ "×" }</button>
            </div>
            <dl class="intro-terms">
                <dt>{ "A ClassAd" }</dt>
                <dd>{ "is a record of attributes — " }<code>{ "[ Memory = 8192; Requirements = TARGET.RequestMemory <= Memory ]" }</code>{ " — that HTCondor uses to describe jobs and machines. Values can be expressions over other attributes, and besides true and false an expression can be undefined (an attribute nobody defines) or error." }</dd>
                <dt>{ "MY and TARGET" }</dt>
                <dd>{ "When two ads are compared, MY (also self) is the ad being evaluated and TARGET (also other) the ad on the other side. A job's Requirements reads TARGET.Memory — the machine's memory." }</dd>
                <dt>{ "Matchmaking" }</dt>
                <dd>{ "pairs jobs and machines whose Requirements both hold, each side ranking the other with its Rank. Gangmatching docks a request with several offers at once (a machine and a license)." }</dd>
            </dl>
            <p>{ "Three steps through the gallery (your own work is set aside, and comes back from \u{201c}Set aside\u{201d}):" }</p>
            <ol class="intro-steps">{ for steps }</ol>
            <p>
                <a href="help.html" target="_blank" rel="noopener">{ "Learn more: the help page" }</a>
                { " — the concepts, with live examples. This introduction comes back from the " }<strong>{ "?" }</strong>{ " in the header. " }
                <button class="primary" id="intro-done" onclick={close}>{ "Got it" }</button>
            </p>
        </section>
    }
}
