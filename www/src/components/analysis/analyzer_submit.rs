//! The analyzer's fixes as edits of the submit file the job came from:
//! each line as the file has it and what it becomes (or a line to add or
//! remove), counted on the job condor_submit makes from the edited file;
//! Apply edits the file (and its job-ads pool follows), Undo puts it back.
//! The fixes condor_submit would undo are said, with the clause it appends.

use std::cell::RefCell;
use std::rc::Rc;

use classad::api::session::{apply_line_edits, LineEdit, SubmitFixes};
use yew::prelude::*;

use crate::bridge::submit::SubmitRequest;
use crate::components::widgets::words::count;
use crate::state::actions::Action;

#[derive(Properties, PartialEq)]
pub struct SubmitFixesProps {
    pub fixes: Rc<SubmitFixes>,
    /// Each fix that cannot be an edit: its submit lines, and why.
    pub undone: Rc<Vec<(String, String)>>,
    /// The file as the analysis read it.
    pub source: Rc<SubmitRequest>,
    pub dispatch: Callback<Action>,
}

thread_local! {
    /// The file (name, text) before the last Apply, for Undo: kept apart
    /// from the view, which is made anew while the edited file's job ads
    /// are read.
    static BEFORE: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// One edit, in the file's words.
fn edit_row(e: &LineEdit) -> Html {
    let (what, old, new) = if e.lines == 0 {
        (
            format!("add before line {}", e.line),
            None,
            Some(e.new.clone()),
        )
    } else if e.new.is_empty() {
        (format!("remove line {}", e.line), Some(e.old.clone()), None)
    } else if e.lines == 1 {
        (
            format!("line {}", e.line),
            Some(e.old.clone()),
            Some(e.new.clone()),
        )
    } else {
        (
            format!("lines {}-{}", e.line, e.line + e.lines - 1),
            Some(e.old.clone()),
            Some(e.new.clone()),
        )
    };
    html! {
        <li class="file-edit" data-line={e.line.to_string()}>
            <span class="muted">{ format!("{what}: ") }</span>
            if let Some(o) = old { <del><code>{ o }</code></del> }
            if let Some(n) = new { <ins><code>{ n }</code></ins> }
        </li>
    }
}

#[component]
pub fn SubmitFixesView(props: &SubmitFixesProps) -> Html {
    // Undo is offered while the file is as an Apply left it.
    let before = BEFORE.with_borrow(|b| {
        b.as_ref()
            .filter(|(name, _)| *name == props.source.name)
            .map(|(_, text)| text.clone())
    });
    let f = &props.fixes;
    let file = f.file.clone();
    // The job ads follow the file (`submit_bar::SubmitFollower`).
    let put = {
        let (name, dispatch) = (props.source.name.clone(), props.dispatch.clone());
        move |text: String| {
            dispatch.emit(Action::PutPool {
                name: name.clone(),
                text: Rc::from(text.as_str()),
            })
        }
    };
    let items = f.fixes.iter().enumerate().map(|(k, fix)| {
        let apply = {
            let (put, text, name) = (put.clone(), props.source.text.clone(), props.source.name.clone());
            let edits = fix.edits.clone();
            Callback::from(move |_| {
                BEFORE.set(Some((name.clone(), text.clone())));
                put(apply_line_edits(&text, &edits));
                crate::components::widgets::focus::focus_after_render("file-undo");
            })
        };
        html! {
            <li class="file-fix" data-willing={fix.willing.to_string()} data-both-ways={fix.both_ways.to_string()}>
                <button class="apply apply-file" onclick={apply} title={format!("Edit {file} so (Undo puts it back)")}>{ format!("Apply to {file}") }</button>
                <div class="sugg-body">
                    <div class="fix-gain">
                        <strong class="v-true">{ format!("{} willing", count(fix.willing, "slot", "slots")) }</strong>
                        { format!(" of {} matching both ways", count(fix.both_ways, "slot", "slots")) }
                        if k == 0 { <span class="muted">{ " — the most slots, with the fewest edits" }</span> }
                    </div>
                    <ul class="file-edits">{ for fix.edits.iter().map(edit_row) }</ul>
                </div>
            </li>
        }
    });
    let undone = props.undone.iter().map(|(what, why)| {
        html! { <li class="undone"><code>{ what.clone() }</code>{ format!(": {why}.") }</li> }
    });
    let undo = {
        let put = put.clone();
        Callback::from(move |_| {
            if let Some((_, t)) = BEFORE.take() {
                put(t);
            }
        })
    };
    if f.fixes.is_empty() && f.undone.is_empty() && before.is_none() {
        return html! {};
    }
    let nothing = f.fixes.is_empty() && f.undone.is_empty();
    html! {
        <section class="an-file-fixes" id="file-fixes" aria-live="polite">
            <h3>{ format!("What to change in {file}") }</h3>
            if !nothing { <p class="muted">{ format!("The analyzer's fixes (below) as edits of {file}'s own lines. Each was checked as condor_submit would run it: the file edited, submitted again, and the job it makes counted over the pool (condor_submit appends its own clauses to your requirements line, so the line holds only yours).") }</p> }
            if before.is_some() {
                <p class="status" role="status">{ format!("{file} edited; its job ads are made again and the job analyzed anew. ") }
                    <button id="file-undo" onclick={undo}>{ format!("Undo the edit of {file}") }</button>
                </p>
            }
            if f.fixes.is_empty() && !nothing {
                <p class="muted" id="file-fixes-none">{ format!("No edit of {file} gains a slot: condor_submit undoes every fix below.") }</p>
            }
            <ol class="file-fixes">{ for items.take(8) }</ol>
            if !f.undone.is_empty() {
                <details class="file-undone">
                    <summary>{ format!("Not as edits of {file} ({})", f.undone.len()) }</summary>
                    <ul>{ for undone }</ul>
                </details>
            }
        </section>
    }
}
