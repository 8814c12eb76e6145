//! The match matrix' cells in sight as an HTML table: what the canvas
//! paints, for screen readers and keyboards (the canvas itself exposes
//! nothing). It follows the scroll and fills in as tiles arrive.

use yew::prelude::*;

use crate::components::matchmaking::matrix_handle::Handle;
use crate::components::matchmaking::pair_detail::{outcome_class, outcome_words};
use crate::components::widgets::words::thousands;

/// At most this many rows and columns of the sight are tabled.
const MAX_ROWS: usize = 40;
const MAX_COLS: usize = 20;

/// The cells in sight: display positions with their labels, and each
/// cell's outcome once its tile has arrived.
#[derive(Clone, PartialEq)]
pub(super) struct InSight {
    pub rows: Vec<(usize, String)>,
    pub cols: Vec<(usize, String)>,
    pub cells: Vec<Vec<Option<u8>>>,
    /// Rows and columns the matrix shows in all (for "first N of M").
    pub of: (usize, usize),
}

impl Handle {
    /// The (clipped) cells now in sight.
    pub(super) fn in_sight(&self) -> InSight {
        let g = self.geometry();
        let d = self.data.borrow();
        let s = g.sight(d.rows.len(), d.cols.len());
        let label = |pool: &Option<std::rc::Rc<crate::bridge::session_client::PoolInfo>>,
                     i: u32| {
            pool.as_ref()
                .and_then(|p| p.labels.get(i as usize).cloned())
                .unwrap_or_else(|| (i + 1).to_string())
        };
        let rows: Vec<(usize, String)> = (s.rows.0..s.rows.1)
            .take(MAX_ROWS)
            .map(|r| (r, label(&d.jobs, d.rows[r])))
            .collect();
        let cols: Vec<(usize, String)> = (s.cols.0..s.cols.1)
            .take(MAX_COLS)
            .map(|c| (c, label(&d.machines, d.cols[c])))
            .collect();
        let cells = rows
            .iter()
            .map(|&(r, _)| {
                cols.iter()
                    .map(|&(c, _)| d.cache.cell(r, c).map(|(v, _)| v))
                    .collect()
            })
            .collect();
        InSight {
            rows,
            cols,
            cells,
            of: (d.rows.len(), d.cols.len()),
        }
    }
}

#[derive(Properties, PartialEq)]
pub(super) struct CellsTableProps {
    pub sight: InSight,
    /// Open the pair at a display (row, column).
    pub on_open: Callback<(usize, usize)>,
}

#[component]
pub(super) fn CellsTable(props: &CellsTableProps) -> Html {
    let s = &props.sight;
    if s.rows.is_empty() || s.cols.is_empty() {
        return html! { <p class="muted">{ "No cells in sight." }</p> };
    }
    let (r0, c0) = (s.rows[0].0, s.cols[0].0);
    html! {
        <>
            <p class="muted" id="matrix-table-range">{ format!(
                "Jobs {}–{} of {} × machines {}–{} of {}, as scrolled above. A cell opens its pair.",
                thousands((r0 + 1) as u64), thousands((r0 + s.rows.len()) as u64), thousands(s.of.0 as u64),
                thousands((c0 + 1) as u64), thousands((c0 + s.cols.len()) as u64), thousands(s.of.1 as u64)
            ) }</p>
            <div class="table-scroll">
                <table class="matrix-table" id="matrix-table">
                    <thead><tr>
                        <th scope="col">{ "Job \\ machine" }</th>
                        { for s.cols.iter().map(|(_, l)| html! { <th scope="col"><code>{ l.clone() }</code></th> }) }
                    </tr></thead>
                    <tbody>
                        { for s.rows.iter().zip(&s.cells).map(|((r, label), cells)| html! {
                            <tr>
                                <th scope="row"><code>{ label.clone() }</code></th>
                                { for s.cols.iter().zip(cells).map(|((c, _), v)| {
                                    let open = { let (o, at) = (props.on_open.clone(), (*r, *c)); Callback::from(move |_| o.emit(at)) };
                                    match v {
                                        Some(v) => html! {
                                            <td><button class="link cell-btn" onclick={open}><span class={classes!("swatch", outcome_class(*v))}></span>{ outcome_words(*v) }</button></td>
                                        },
                                        None => html! { <td class="muted">{ "computing…" }</td> },
                                    }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </>
    }
}
