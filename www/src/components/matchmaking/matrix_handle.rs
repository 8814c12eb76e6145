//! The match matrix' machinery outside Yew's render cycle (scrolling must
//! not re-render): what is shown and cached, painting at the next frame,
//! fetching the missing tiles in sight from the worker, and what is under
//! the mouse or the keyboard.

use classad::api::EvalOptions;
use std::cell::RefCell;
use std::rc::Rc;

use classad::api::session::PoolRequest;
use classad::api::Mode;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::bridge::session_client::{PoolInfo, Session, CANCELLED};
use crate::components::matchmaking::matrix_cache::{Tile, TileCache};
use crate::components::matchmaking::matrix_canvas::{
    context, paint, Geometry, Palette, Scene, LEFT, TOP,
};
use crate::components::matchmaking::matrix_layout::{tile_range, tiles_for};
use crate::components::matchmaking::pair_detail::{outcome_class, outcome_words};

/// Tiles kept (each 32 × 32 cells with both ranks: about 20 KB).
const CACHE_TILES: usize = 600;
/// Requests for tiles in the worker's queue at once.
const INFLIGHT: usize = 2;
/// Everything painting and fetching need, outside Yew's render cycle
/// (scrolling must not re-render).
pub(super) struct MatrixState {
    pub(super) key: u64,
    pub(super) rows: Rc<Vec<u32>>,
    pub(super) cols: Rc<Vec<u32>>,
    pub(super) jobs: Option<Rc<PoolInfo>>,
    pub(super) machines: Option<Rc<PoolInfo>>,
    pub(super) args: Vec<(usize, Rc<str>)>,
    pub(super) mode: Mode,
    pub(super) now: (f64, i32),
    pub(super) cell: f64,
    pub(super) cache: TileCache,
    pub(super) hover: Option<(usize, usize)>,
    /// (job, machine) pool positions of the opened cell.
    pub(super) selected: Option<(usize, usize)>,
    pub(super) dim: bool,
    pub(super) frame_pending: bool,
    pub(super) error: Option<String>,
}

impl Default for MatrixState {
    fn default() -> Self {
        MatrixState {
            key: 0,
            rows: Rc::default(),
            cols: Rc::default(),
            jobs: None,
            machines: None,
            args: vec![],
            mode: Mode::default(),
            now: (0.0, 0),
            cell: 16.0,
            cache: TileCache::new(CACHE_TILES),
            hover: None,
            selected: None,
            dim: false,
            frame_pending: false,
            error: None,
        }
    }
}

impl MatrixState {
    pub(super) fn selected_display(&self) -> Option<(usize, usize)> {
        let (j, m) = self.selected?;
        let r = self.rows.iter().position(|&x| x as usize == j)?;
        let c = self.cols.iter().position(|&x| x as usize == m)?;
        Some((r, c))
    }
}

/// The shared handle the event handlers and worker answers work through.
#[derive(Clone)]
pub(super) struct Handle {
    pub(super) data: Rc<RefCell<MatrixState>>,
    pub(super) canvas: NodeRef,
    pub(super) scroller: NodeRef,
    pub(super) session: Session,
    /// Re-render (the tooltip may be waiting for a tile).
    pub(super) on_tile: Callback<()>,
}

impl Handle {
    pub(super) fn geometry(&self) -> Geometry {
        let cell = self.data.borrow().cell;
        match self.scroller.cast::<web_sys::Element>() {
            Some(s) => Geometry {
                cell,
                width: s.client_width() as f64,
                height: s.client_height() as f64,
                scroll_x: s.scroll_left() as f64,
                scroll_y: s.scroll_top() as f64,
            },
            None => Geometry {
                cell,
                ..Default::default()
            },
        }
    }

    /// Paint at the next frame (once, however many asks).
    pub(super) fn redraw(&self) {
        {
            let mut d = self.data.borrow_mut();
            if d.frame_pending {
                return;
            }
            d.frame_pending = true;
        }
        let h = self.clone();
        let f = Closure::once_into_js(move || {
            h.data.borrow_mut().frame_pending = false;
            h.paint();
        });
        if let Some(w) = web_sys::window() {
            let _ = w.request_animation_frame(f.unchecked_ref());
        }
    }

    pub(super) fn paint(&self) {
        let Some(canvas) = self.canvas.cast::<web_sys::HtmlCanvasElement>() else {
            return;
        };
        let g = self.geometry();
        let Some(ctx) = context(&canvas, &g) else {
            return;
        };
        let palette = Palette::read(&canvas);
        let mut d = self.data.borrow_mut();
        let sight = g.sight(d.rows.len(), d.cols.len());
        for t in tiles_for(sight, d.rows.len(), d.cols.len(), 0) {
            d.cache.touch(t);
        }
        let d = &*d;
        let no_label = String::new();
        let row_label = |r: usize| -> &str {
            let i = d.rows.get(r).copied().unwrap_or(u32::MAX) as usize;
            d.jobs
                .as_ref()
                .and_then(|p| p.labels.get(i))
                .unwrap_or(&no_label)
        };
        let col_label = |c: usize| -> &str {
            let i = d.cols.get(c).copied().unwrap_or(u32::MAX) as usize;
            d.machines
                .as_ref()
                .and_then(|p| p.labels.get(i))
                .unwrap_or(&no_label)
        };
        let scene = Scene {
            rows: d.rows.len(),
            cols: d.cols.len(),
            row_label: &row_label,
            col_label: &col_label,
            tiles: &d.cache,
            hover: d.hover,
            selected: d.selected_display(),
            dim: d.dim,
        };
        paint(&ctx, &g, &palette, &scene);
    }

    /// Ask the worker for the next missing tiles in sight (or near it).
    pub(super) fn pump(&self) {
        loop {
            let g = self.geometry();
            let (t, rows, cols, key, args, mode, now, size) = {
                let mut d = self.data.borrow_mut();
                if d.cache.inflight.len() >= INFLIGHT || d.error.is_some() || d.args.len() < 2 {
                    return;
                }
                let (nr, nc) = (d.rows.len(), d.cols.len());
                let wanted = tiles_for(g.sight(nr, nc), nr, nc, 1);
                let Some(t) = d.cache.next_missing(&wanted) else {
                    return;
                };
                d.cache.inflight.push(t);
                let (r0, r1) = tile_range(t.0, nr);
                let (c0, c1) = tile_range(t.1, nc);
                let rows: Vec<usize> = d.rows[r0..r1].iter().map(|&x| x as usize).collect();
                let cols: Vec<usize> = d.cols[c0..c1].iter().map(|&x| x as usize).collect();
                let size = (r1 - r0, c1 - c0);
                (t, rows, cols, d.key, d.args.clone(), d.mode, d.now, size)
            };
            let h = self.clone();
            self.session.request(
                &args,
                move |ids| PoolRequest::MatchCells {
                    jobs: ids[0].clone(),
                    machines: ids[1].clone(),
                    rows,
                    cols,
                    context: EvalOptions::at(mode, now.0, now.1),
                },
                None,
                move |r| h.tile_arrived(key, t, size, r),
            );
        }
    }

    fn tile_arrived(
        &self,
        key: u64,
        t: (usize, usize),
        size: (usize, usize),
        r: Result<classad::api::session::Tile, String>,
    ) {
        {
            let mut d = self.data.borrow_mut();
            if d.key != key {
                return;
            }
            d.cache.inflight.retain(|x| *x != t);
            match r {
                Ok(a) => d.cache.insert(
                    t,
                    Tile::new(size.0, size.1, a.cells, &a.job_ranks, &a.machine_ranks),
                ),
                // Stopped by the user: fetching resumes with the next move.
                Err(e) if e == CANCELLED => return,
                Err(e) => d.error = Some(e),
            }
        }
        self.redraw();
        self.pump();
        self.on_tile.emit(());
    }

    /// The tooltip for cell (r, c): both labels, the outcome, both ranks.
    pub(super) fn tooltip(&self, (r, c): (usize, usize)) -> Option<Html> {
        let d = self.data.borrow();
        let g = self.geometry();
        let j = *d.rows.get(r)? as usize;
        let m = *d.cols.get(c)? as usize;
        let label = |p: &Option<Rc<PoolInfo>>, i: usize| {
            p.as_ref()
                .and_then(|p| p.labels.get(i).cloned())
                .unwrap_or_default()
        };
        let (jl, ml) = (label(&d.jobs, j), label(&d.machines, m));
        let cell = d.cache.cell(r, c);
        // Fixed to the window, so a small matrix' box does not clip it;
        // flipped to the other side of the cell near the window's edges.
        let rect = self.corner()?;
        let (vw, vh) = window_size();
        let x = rect.0 + LEFT + (c + 1) as f64 * g.cell - g.scroll_x + 10.0;
        let y = rect.1 + TOP + (r + 1) as f64 * g.cell - g.scroll_y + 10.0;
        let left = if x + 330.0 > vw {
            (x - 340.0 - g.cell).max(0.0)
        } else {
            x
        };
        let top = if y + 120.0 > vh {
            (y - 130.0 - g.cell).max(0.0)
        } else {
            y
        };
        Some(html! {
            <div class="matrix-tip" role="tooltip" style={format!("left:{left}px;top:{top}px")}>
                <div><span class="muted">{ "Job " }</span>{ jl }</div>
                <div><span class="muted">{ "Machine " }</span>{ ml }</div>
                { match cell {
                    Some((v, ranks)) => html! {
                        <>
                            <div class="tip-outcome"><span class={classes!("swatch", outcome_class(v))}></span>{ outcome_words(v) }</div>
                            if let Some((jr, mr)) = ranks {
                                <div class="tip-ranks">{ "The job's Rank of it: " }<code>{ crate::components::widgets::numbers::people(jr) }</code></div>
                                <div class="tip-ranks">{ "Its Rank of the job: " }<code>{ crate::components::widgets::numbers::people(mr) }</code></div>
                            }
                        </>
                    },
                    None => html! { <div class="muted">{ "computing…" }</div> },
                } }
            </div>
        })
    }

    /// The scroller's top-left corner in the window.
    fn corner(&self) -> Option<(f64, f64)> {
        let r = self
            .scroller
            .cast::<web_sys::Element>()?
            .get_bounding_client_rect();
        Some((r.left(), r.top()))
    }

    /// The cell under the mouse.
    pub(super) fn hit(&self, e: &MouseEvent) -> Option<(usize, usize)> {
        let (x0, y0) = self.corner()?;
        let (x, y) = (e.client_x() as f64 - x0, e.client_y() as f64 - y0);
        let d = self.data.borrow();
        self.geometry().cell_at(x, y, d.rows.len(), d.cols.len())
    }

    /// The job (pool position) whose label is under the pointer.
    pub(super) fn label_hit(&self, e: &MouseEvent) -> Option<usize> {
        let (x0, y0) = self.corner()?;
        let (x, y) = (e.client_x() as f64 - x0, e.client_y() as f64 - y0);
        let d = self.data.borrow();
        let r = self.geometry().label_row_at(x, y, d.rows.len())?;
        d.rows.get(r).map(|&j| j as usize)
    }

    /// Where an arrow key moves the opened cell (scrolled into sight).
    pub(super) fn step(&self, key: &str) -> Option<(usize, usize)> {
        let (dr, dc): (isize, isize) = match key {
            "ArrowUp" => (-1, 0),
            "ArrowDown" => (1, 0),
            "ArrowLeft" => (0, -1),
            "ArrowRight" => (0, 1),
            _ => return None,
        };
        let (at, nr, nc) = {
            let d = self.data.borrow();
            (
                d.selected_display().unwrap_or((0, 0)),
                d.rows.len(),
                d.cols.len(),
            )
        };
        if nr == 0 || nc == 0 {
            return None;
        }
        let r = (at.0 as isize + dr).clamp(0, nr as isize - 1) as usize;
        let c = (at.1 as isize + dc).clamp(0, nc as isize - 1) as usize;
        if let Some(el) = self.scroller.cast::<web_sys::Element>() {
            let g = self.geometry();
            let s = g.sight(nr, nc);
            let cell = g.cell as i32;
            if r <= s.rows.0 || r + 1 >= s.rows.1 {
                el.set_scroll_top((r as i32 - 3).max(0) * cell);
            }
            if c <= s.cols.0 || c + 1 >= s.cols.1 {
                el.set_scroll_left((c as i32 - 3).max(0) * cell);
            }
        }
        Some((r, c))
    }
}

fn window_size() -> (f64, f64) {
    let w = web_sys::window();
    let get = |v: Option<Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>>| {
        v.and_then(|v| v.ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(1000.0)
    };
    (
        get(w.as_ref().map(|w| w.inner_width())),
        get(w.as_ref().map(|w| w.inner_height())),
    )
}
