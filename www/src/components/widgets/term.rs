//! Help in place: a small "?" beside a term of the field that explains it
//! on hover and on keyboard focus, with a link to the help page's section.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TermProps {
    /// The term, for the control's accessible name ("What is …?").
    pub term: AttrValue,
    /// One or two sentences.
    pub text: AttrValue,
    /// The help page's section (`help.html#<anchor>`).
    pub anchor: AttrValue,
}

#[component]
pub fn TermHelp(props: &TermProps) -> Html {
    html! {
        <span class="term-help" tabindex="0" role="button" aria-label={format!("What is {}?", props.term)}>
            { "?" }
            <span class="term-tip" role="tooltip">
                { props.text.clone() }{ " " }
                <a href={format!("help.html#{}", props.anchor)} target="_blank" rel="noopener">{ "Learn more" }</a>
            </span>
        </span>
    }
}
