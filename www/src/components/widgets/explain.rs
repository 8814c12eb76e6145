//! The explain tree: every subexpression with its value. Undefined and
//! error stand out, literals are quiet one-liners, long record values are
//! shortened, and the node the "why" line is about is marked. Children of
//! a closed node are not rendered at all, so a 20,000-node trace is cheap.
//! Clicking a node marks its source.
//!
//! A trace is as deep as evaluation went (a chain of 300 attributes is 900
//! levels), so the view shows a window of [`WINDOW`] levels: deeper nodes
//! are a click away ("show from here"), which moves the window down; a
//! long clause list shows its first [`CHILDREN_SHOWN`] clauses at first.

use std::rc::Rc;

use classad::api::TraceNode;
use yew::prelude::*;

use crate::components::widgets::trace::{child_origins, is_scope_keyword, Ctx, Origin};

/// A clicked node's source: where, and the byte range there.
#[derive(Clone, PartialEq, Debug)]
pub struct Picked {
    pub origin: Origin,
    pub start: usize,
    pub end: usize,
}

/// Shared trace, compared by identity.
#[derive(Clone)]
pub struct Trace(pub Rc<TraceNode>);

impl PartialEq for Trace {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub root: Trace,
    pub ctx: Rc<Ctx>,
    pub on_pick: Callback<Picked>,
    /// Path of the node the "why" line is about.
    #[prop_or_default]
    pub culprit: Option<Rc<Vec<usize>>>,
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

/// Values over this many characters are cut (the full value is in the
/// tooltip).
const VALUE_CHARS: usize = 60;

fn shorten(v: &str) -> String {
    if v.chars().count() <= VALUE_CHARS {
        return v.to_string();
    }
    let head: String = v.chars().take(VALUE_CHARS - 1).collect();
    let close = match v.chars().next() {
        Some('[') => " … ]",
        Some('{') => " … }",
        _ => "…",
    };
    format!("{head}{close}")
}

/// Subexpression texts over this many characters are cut.
const TEXT_CHARS: usize = 120;

fn shorten_text(t: &str) -> String {
    if t.chars().count() <= TEXT_CHARS {
        return t.to_string();
    }
    let head: String = t.chars().take(TEXT_CHARS - 1).collect();
    format!("{head}…")
}

/// The whole text as a tooltip, when it was cut.
fn long_title(t: &str) -> Option<String> {
    (t.chars().count() > TEXT_CHARS).then(|| t.to_string())
}

/// Levels shown below the node the view starts from.
const WINDOW: usize = 32;

/// Children listed at first under one node (a 2,000-clause `&&`).
const CHILDREN_SHOWN: usize = 100;

#[derive(Properties, PartialEq)]
struct NodeProps {
    root: Trace,
    path: Rc<Vec<usize>>,
    origin: Origin,
    ctx: Rc<Ctx>,
    on_pick: Callback<Picked>,
    culprit: Option<Rc<Vec<usize>>>,
    /// How deep the node the view starts from is.
    from_depth: usize,
    /// Start the view from this node.
    on_start_here: Callback<Rc<Vec<usize>>>,
}

fn node_at<'a>(root: &'a TraceNode, path: &[usize]) -> &'a TraceNode {
    path.iter().fold(root, |n, &i| &n.children[i])
}

/// How many levels lie below `n` (0 for a leaf), without recursing.
fn levels_below(n: &TraceNode) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(n, 0usize)];
    while let Some((n, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(n.children.iter().map(|c| (c, d + 1)));
    }
    deepest
}

/// The node origins along `path`, from the root's.
fn origin_at(root: &TraceNode, path: &[usize], ctx: &Ctx) -> Origin {
    crate::components::widgets::trace::at_path(root, path, ctx)
        .map(|(_, o)| o)
        .unwrap_or(Origin::Expr)
}

/// Where the view starts at first: the root, or — when the node the "why"
/// line is about lies below the window — the ancestor that puts it half
/// way down.
fn first_start(culprit: Option<&Rc<Vec<usize>>>) -> Vec<usize> {
    match culprit {
        Some(c) if c.len() >= WINDOW => c[..c.len() - WINDOW / 2].to_vec(),
        _ => vec![],
    }
}

/// A key for the node the view starts from (its path).
fn start_key(path: &[usize]) -> String {
    path.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

/// A label with the number of clauses a run of `&&`/`||` evaluated.
fn label_of(n: &TraceNode) -> String {
    match n.label.as_str() {
        "operator &&" | "operator ||" if n.children.len() > 2 => {
            format!(
                " {} · {} clauses evaluated",
                n.label,
                crate::components::widgets::words::thousands(n.children.len() as u64)
            )
        }
        l => format!(" {l}"),
    }
}

#[component]
fn TNode(props: &NodeProps) -> Html {
    let n = node_at(&props.root.0, &props.path);
    let depth = props.path.len();
    let on_culprit_path = props
        .culprit
        .as_ref()
        .is_some_and(|c| c.len() >= depth && c[..depth] == props.path[..]);
    let is_culprit = on_culprit_path && props.culprit.as_ref().is_some_and(|c| c.len() == depth);
    let shown_depth = depth - props.from_depth;
    // Open at first: the top levels, the way to the culprit, and a node
    // with one child (a definition, brackets: nothing to choose between).
    let open =
        use_state(|| shown_depth < 3 || (on_culprit_path && !is_culprit) || n.children.len() == 1);
    // The culprit's branch is always among the children listed.
    let listed = use_state(|| {
        let culprit_child = props
            .culprit
            .as_ref()
            .filter(|c| on_culprit_path && c.len() > depth)
            .map_or(0, |c| c[depth] + 1);
        CHILDREN_SHOWN.max(culprit_child)
    });

    // A definition node's source is the definition's expression (its child).
    let span = if n.attribute.is_some() {
        n.children.first().map(|c| c.span).unwrap_or(n.span)
    } else {
        n.span
    };
    let pick = {
        let on_pick = props.on_pick.clone();
        let p = Picked {
            origin: match (&n.attribute, &props.origin) {
                (Some(_), o) => o.clone(),
                (None, o) => o.clone(),
            },
            start: span.start as usize,
            end: span.end as usize,
        };
        let pickable = span.end > span.start;
        move || {
            if pickable {
                on_pick.emit(p.clone());
            }
        }
    };
    // Reals as people read them (`0.5`); the exact unparse, as libclassad
    // writes it, is the tooltip.
    let readable = crate::components::widgets::numbers::people(&n.value);
    let exact_title = (readable != n.value || n.value.chars().count() > VALUE_CHARS)
        .then(|| format!("exactly: {}", n.value));
    let value = html! {
        <code class={classes!("t-value", value_class(&n.value))} title={exact_title}>{ shorten(&readable) }</code>
    };
    let li_class = classes!(
        "tnode",
        value_class(&n.value),
        is_culprit.then_some("culprit")
    );

    // Quiet leaves: literals, and MY/TARGET themselves.
    let literalish = matches!(n.label.as_str(), "literal" | "record" | "list");
    if n.children.is_empty() && (literalish || is_scope_keyword(n)) {
        let onclick = Callback::from(move |_: MouseEvent| pick());
        let note = if literalish {
            // A literal shows its value only when it differs from what
            // was written (`1K = 1024`), not a real's canonical spelling.
            let same_number = matches!(
                (n.text.parse::<f64>(), n.value.parse::<f64>()),
                (Ok(a), Ok(b)) if a == b
            );
            (n.text != n.value && n.label == "literal" && !same_number)
                .then(|| html! { <>{ " = " }{ value }</> })
        } else {
            Some(
                html! { <span class="t-label">{ if n.value.starts_with('[') { " (the ad)" } else { " (none)" } }</span> },
            )
        };
        return html! {
            <li class={classes!(li_class, "quiet")}>
                <button class="leaf" onclick={onclick} title={n.label.clone()}>
                    <code class="t-text" title={long_title(&n.text)}>{ shorten_text(&n.text) }</code>{ for note }
                </button>
            </li>
        };
    }

    // A definition says which ad holds it, and where in its pool.
    let place = |side: &crate::components::widgets::trace::Side| {
        let at = n.children.first().map(|c| c.span.start as usize);
        match props.ctx.ad(*side).place(at) {
            p if p.is_empty() => String::new(),
            p => format!(" ({p})"),
        }
    };
    let title = match (&n.attribute, &props.origin) {
        (Some(a), Origin::Def { side, .. }) if n.cached => {
            format!("{a} in {}{} (evaluated above)", side.name(), place(side))
        }
        (Some(a), Origin::Def { side, .. }) => {
            format!("definition of {a} in {}{}", side.name(), place(side))
        }
        _ => n.text.clone(),
    };
    let row = html! {
        <>
            <code class="t-text" title={long_title(&title)}>{ shorten_text(&title) }</code>
            <span class="t-arrow">{ " → " }</span>
            { value }
            <span class="t-label">{ label_of(n) }</span>
            if let Some(cause) = &n.cause {
                <span class="t-cause">{ format!(": {cause}") }</span>
            }
        </>
    };
    if n.children.is_empty() {
        let onclick = Callback::from(move |_: MouseEvent| pick());
        return html! {
            <li class={li_class}><button class="leaf" onclick={onclick}>{ row }</button></li>
        };
    }
    if shown_depth >= WINDOW {
        // The window's last level: what lies below is a click away.
        let onclick = Callback::from(move |_: MouseEvent| pick());
        let start_here = {
            let (emit, path) = (props.on_start_here.clone(), props.path.clone());
            Callback::from(move |_: MouseEvent| emit.emit(path.clone()))
        };
        return html! {
            <li class={li_class}>
                <button class="leaf" onclick={onclick}>{ row }</button>
                <button class="trace-deeper" onclick={start_here}>{ format!(
                    "⋯ {} levels below: show from here",
                    crate::components::widgets::words::thousands(levels_below(n) as u64)
                ) }</button>
            </li>
        };
    }
    // A mouse click on the row marks the source; only the disclosure
    // triangle (or the keyboard) opens and closes.
    let onclick = Callback::from(move |e: MouseEvent| {
        // Measured against the clicked row's own <summary>: under Yew's
        // delegated listeners `current_target()` is the app root.
        let on_marker = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|el| el.closest("summary").ok().flatten())
            .map(|el| (e.client_x() as f64) - el.get_bounding_client_rect().left() < 16.0)
            .unwrap_or(false);
        if e.detail() > 0 && !on_marker {
            e.prevent_default();
        }
        pick();
    });
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let d: web_sys::HtmlElement = e.target_unchecked_into();
            let now = d.has_attribute("open");
            if now != *open {
                open.set(now);
            }
        })
    };
    let kids = if *open {
        let origins = child_origins(n, &props.origin, &props.ctx);
        let hidden = origins.len().saturating_sub(*listed);
        let more = {
            let listed = listed.clone();
            Callback::from(move |_: MouseEvent| listed.set(*listed + CHILDREN_SHOWN))
        };
        html! {
            <ul>
                { for origins.into_iter().take(*listed).enumerate().map(|(i, o)| {
                    let mut p = (*props.path).clone();
                    p.push(i);
                    html! { <TNode key={i} root={props.root.clone()} path={Rc::new(p)} origin={o} ctx={props.ctx.clone()} on_pick={props.on_pick.clone()} culprit={props.culprit.clone()} from_depth={props.from_depth} on_start_here={props.on_start_here.clone()} /> }
                }) }
                if hidden > 0 {
                    <li class="tnode"><button class="trace-more" onclick={more}>{ format!(
                        "Show {} more of {}",
                        crate::components::widgets::words::thousands(hidden.min(CHILDREN_SHOWN) as u64),
                        crate::components::widgets::words::thousands(n.children.len() as u64)
                    ) }</button></li>
                }
            </ul>
        }
    } else {
        html! {}
    };
    html! {
        <li class={li_class}>
            <details open={*open} {ontoggle}>
                <summary {onclick}>{ row }</summary>
                { kids }
            </details>
        </li>
    }
}

#[component]
pub fn Explain(props: &ExplainProps) -> Html {
    let start = use_state(|| Rc::new(first_start(props.culprit.as_ref())));
    let on_start_here = {
        let start = start.clone();
        Callback::from(move |p: Rc<Vec<usize>>| start.set(p))
    };
    let root = &props.root.0;
    // A start that no longer fits the tree (a new trace) is the root.
    let from: Rc<Vec<usize>> =
        match crate::components::widgets::trace::at_path(root, &start, &props.ctx) {
            Some(_) => (*start).clone(),
            None => Rc::new(vec![]),
        };
    let window_note = (!from.is_empty()).then(|| {
        let to_top = {
            let s = start.clone();
            Callback::from(move |_: MouseEvent| s.set(Rc::new(vec![])))
        };
        let up = {
            let (s, f) = (start.clone(), from.clone());
            Callback::from(move |_: MouseEvent| {
                s.set(Rc::new(f[..f.len().saturating_sub(WINDOW)].to_vec()))
            })
        };
        html! {
            <p class="muted trace-window" role="note">
                { "Showing from " }<code>{ shorten_text(&node_at(root, &from).text) }</code>
                { format!(", {} levels down. ", crate::components::widgets::words::thousands(from.len() as u64)) }
                <button class="trace-up" onclick={up}>{ format!("Up {WINDOW} levels") }</button>
                { " " }
                <button class="trace-top" onclick={to_top}>{ "Show from the top" }</button>
            </p>
        }
    });
    html! {
        <>
            { for window_note }
            if props.root.0.cut {
                <p class="muted trace-cut" role="note">{ format!(
                    "This explanation stops after {} steps: the deepest parts are left out. The value is exact all the same.",
                    crate::components::widgets::words::thousands(classad::api::TRACE_MAX_NODES as u64)
                ) }</p>
            }
            <ul class="explain" aria-label="Explain tree">
                <TNode key={start_key(&from)} root={props.root.clone()} path={from.clone()} origin={origin_at(root, &from, &props.ctx)} ctx={props.ctx.clone()} on_pick={props.on_pick.clone()} culprit={props.culprit.clone()} from_depth={from.len()} {on_start_here} />
            </ul>
        </>
    }
}
