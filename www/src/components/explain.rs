//! The explain tree: every subexpression with its value; undefined and
//! error are flagged; clicking a node marks its source.

use classad::TraceNode;
use yew::prelude::*;

/// Which source a clicked node's span refers to: the expression (`None`)
/// or the definition of an attribute.
#[derive(Clone, PartialEq, Debug)]
pub struct Picked {
    pub attribute: Option<String>,
    pub start: usize,
    pub end: usize,
}

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub root: TraceNode,
    pub on_pick: Callback<Picked>,
}

fn value_class(v: &str) -> &'static str {
    match v {
        "undefined" => "v-undef",
        "error" => "v-error",
        "true" => "v-true",
        "false" => "v-false",
        _ => "v-other",
    }
}

fn node(n: &TraceNode, within: Option<&str>, on_pick: &Callback<Picked>, depth: usize) -> Html {
    let within_here = n.attribute.as_deref().or(within);
    let pick = {
        let on_pick = on_pick.clone();
        let p = Picked {
            attribute: within.map(str::to_string),
            start: n.span.start as usize,
            end: n.span.end as usize,
        };
        let is_def = n.attribute.is_some();
        Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            if !is_def {
                on_pick.emit(p.clone());
            }
        })
    };
    let title = if n.attribute.is_some() {
        if n.cached {
            format!("{} (already evaluated)", n.text)
        } else {
            format!("definition of {}", n.text)
        }
    } else {
        n.text.clone()
    };
    // Collapse deep, fine trees by default; keep problems open.
    let open = depth < 6 || n.value == "undefined" || n.value == "error";
    html! {
        <li class={classes!("tnode", value_class(&n.value))}>
            <details open={open}>
                <summary onclick={pick}>
                    <code class="t-text">{ title }</code>
                    <span class="t-arrow">{ " → " }</span>
                    <code class={classes!("t-value", value_class(&n.value))}>{ n.value.clone() }</code>
                    <span class="t-label">{ format!(" {}", n.label) }</span>
                </summary>
                if !n.children.is_empty() {
                    <ul>{ for n.children.iter().map(|c| node(c, within_here, on_pick, depth + 1)) }</ul>
                }
            </details>
        </li>
    }
}

#[component]
pub fn Explain(props: &ExplainProps) -> Html {
    html! {
        <ul class="explain" aria-label="Explain tree">{ node(&props.root, None, &props.on_pick, 0) }</ul>
    }
}
