//! Painting the match matrix on a canvas: only the cells in sight, with
//! frozen job labels on the left and machine labels on top. Colours come
//! from the stylesheet (`--m-*`), so the theme and dark mode apply.

use std::f64::consts::FRAC_PI_2;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::components::matchmaking::matrix_cache::TileCache;
use crate::components::matchmaking::matrix_layout::{clip, tile_range, Sight, TILE};

/// Width of the job labels column and height of the machine labels row.
pub const LEFT: f64 = 170.0;
pub const TOP: f64 = 140.0;
const FONT: &str = "12px ui-monospace, \"DejaVu Sans Mono\", Menlo, Consolas, monospace";
const CHAR_W: f64 = 7.3;

/// Where the matrix is scrolled to and how big the canvas is (CSS px).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Geometry {
    pub cell: f64,
    pub width: f64,
    pub height: f64,
    pub scroll_x: f64,
    pub scroll_y: f64,
}

impl Geometry {
    /// The display rows and columns (at least partly) in sight.
    pub fn sight(&self, rows: usize, cols: usize) -> Sight {
        let span = |scroll: f64, room: f64, n: usize| {
            let a = ((scroll / self.cell).floor().max(0.0) as usize).min(n);
            let b = (((scroll + room.max(0.0)) / self.cell).ceil().max(0.0) as usize).min(n);
            (a, b.max(a))
        };
        Sight {
            rows: span(self.scroll_y, self.height - TOP, rows),
            cols: span(self.scroll_x, self.width - LEFT, cols),
        }
    }

    /// The display cell under a point of the canvas (CSS px), if any.
    pub fn cell_at(&self, x: f64, y: f64, rows: usize, cols: usize) -> Option<(usize, usize)> {
        if x < LEFT || y < TOP || x >= self.width || y >= self.height {
            return None;
        }
        let c = ((x - LEFT + self.scroll_x) / self.cell).floor() as usize;
        let r = ((y - TOP + self.scroll_y) / self.cell).floor() as usize;
        (r < rows && c < cols).then_some((r, c))
    }

    /// The display row whose job label is under a point, if any.
    pub fn label_row_at(&self, x: f64, y: f64, rows: usize) -> Option<usize> {
        if !(0.0..LEFT).contains(&x) || y < TOP || y >= self.height {
            return None;
        }
        let r = ((y - TOP + self.scroll_y) / self.cell).floor() as usize;
        (r < rows).then_some(r)
    }

    fn x(&self, c: usize) -> f64 {
        LEFT + c as f64 * self.cell - self.scroll_x
    }
    fn y(&self, r: usize) -> f64 {
        TOP + r as f64 * self.cell - self.scroll_y
    }
}

/// The colours, read from the canvas' computed style.
pub struct Palette {
    bg: String,
    panel: String,
    fg: String,
    muted: String,
    border: String,
    accent: String,
    /// By outcome: both accept, job rejects, machine rejects, both reject.
    cells: [String; 4],
    pending: String,
}

impl Palette {
    pub fn read(el: &web_sys::Element) -> Palette {
        let style = web_sys::window().and_then(|w| w.get_computed_style(el).ok().flatten());
        let get = |name: &str, fallback: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| fallback.to_string())
        };
        Palette {
            bg: get("--bg", "#fbfbfa"),
            panel: get("--panel", "#ffffff"),
            fg: get("--fg", "#1d1f23"),
            muted: get("--muted", "#5f6672"),
            border: get("--border", "#d9dce1"),
            accent: get("--accent", "#2456c9"),
            cells: [
                get("--m-both", "#009e73"),
                get("--m-job", "#e69f00"),
                get("--m-machine", "#0072b2"),
                get("--m-none", "#d5d8dd"),
            ],
            pending: get("--m-pending", "#eceef1"),
        }
    }
}

/// What to paint.
pub struct Scene<'a> {
    pub rows: usize,
    pub cols: usize,
    pub row_label: &'a dyn Fn(usize) -> &'a str,
    pub col_label: &'a dyn Fn(usize) -> &'a str,
    pub tiles: &'a TileCache,
    pub hover: Option<(usize, usize)>,
    pub selected: Option<(usize, usize)>,
    /// Fade every cell that is not a mutual match.
    pub dim: bool,
}

/// The canvas' 2D context, sized to `g` at the screen's pixel ratio.
pub fn context(canvas: &HtmlCanvasElement, g: &Geometry) -> Option<CanvasRenderingContext2d> {
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    let (w, h) = (
        (g.width * ratio).round() as u32,
        (g.height * ratio).round() as u32,
    );
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
        let style = canvas.style();
        let _ = style.set_property("width", &format!("{}px", g.width));
        let _ = style.set_property("height", &format!("{}px", g.height));
    }
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    Some(ctx)
}

/// Paint the scene. Cells are batched by colour: one path per colour.
pub fn paint(ctx: &CanvasRenderingContext2d, g: &Geometry, p: &Palette, s: &Scene) {
    ctx.set_fill_style_str(&p.bg);
    ctx.fill_rect(0.0, 0.0, g.width, g.height);
    let sight = g.sight(s.rows, s.cols);
    let gap = if g.cell >= 8.0 { 1.0 } else { 0.0 };
    let size = g.cell - gap;

    // Cells, clipped to the cell area.
    ctx.save();
    ctx.begin_path();
    ctx.rect(
        LEFT,
        TOP,
        (g.width - LEFT).max(0.0),
        (g.height - TOP).max(0.0),
    );
    ctx.clip();
    let mut paths: [Vec<(f64, f64)>; 4] = Default::default();
    let mut pending: Vec<(f64, f64, f64, f64)> = vec![];
    let tiles_r = (sight.rows.0 / TILE, sight.rows.1.saturating_sub(1) / TILE);
    let tiles_c = (sight.cols.0 / TILE, sight.cols.1.saturating_sub(1) / TILE);
    if sight.rows.1 > sight.rows.0 && sight.cols.1 > sight.cols.0 {
        for tr in tiles_r.0..=tiles_r.1 {
            for tc in tiles_c.0..=tiles_c.1 {
                let (r0, r1) = tile_range(tr, s.rows);
                let (c0, c1) = tile_range(tc, s.cols);
                let (r0, r1) = (r0.max(sight.rows.0), r1.min(sight.rows.1));
                let (c0, c1) = (c0.max(sight.cols.0), c1.min(sight.cols.1));
                match s.tiles.get((tr, tc)) {
                    Some(t) => {
                        for r in r0..r1 {
                            for c in c0..c1 {
                                if let Some(v) = t.cell(r - tr * TILE, c - tc * TILE) {
                                    paths[(v & 3) as usize].push((g.x(c), g.y(r)));
                                }
                            }
                        }
                    }
                    None => pending.push((
                        g.x(c0),
                        g.y(r0),
                        (c1 - c0) as f64 * g.cell - gap,
                        (r1 - r0) as f64 * g.cell - gap,
                    )),
                }
            }
        }
    }
    ctx.set_fill_style_str(&p.pending);
    for (x, y, w, h) in pending {
        ctx.fill_rect(x, y, w, h);
    }
    for (k, cells) in paths.iter().enumerate() {
        if cells.is_empty() {
            continue;
        }
        ctx.set_global_alpha(if s.dim && k != 0 { 0.18 } else { 1.0 });
        ctx.set_fill_style_str(&p.cells[k]);
        ctx.begin_path();
        for &(x, y) in cells {
            ctx.rect(x, y, size, size);
        }
        ctx.fill();
    }
    ctx.set_global_alpha(1.0);
    // Pointed-at cell: a thin outline; opened cell: a thick one with a
    // light inner line, visible on every cell colour.
    if let Some((r, c)) = s.hover {
        ctx.set_stroke_style_str(&p.fg);
        ctx.set_line_width(1.5);
        ctx.stroke_rect(g.x(c) - 0.5, g.y(r) - 0.5, g.cell, g.cell);
    }
    if let Some((r, c)) = s.selected {
        ctx.set_stroke_style_str(&p.fg);
        ctx.set_line_width(3.0);
        ctx.stroke_rect(g.x(c) - 1.0, g.y(r) - 1.0, g.cell + 1.0, g.cell + 1.0);
        ctx.set_stroke_style_str(&p.bg);
        ctx.set_line_width(1.0);
        ctx.stroke_rect(g.x(c) + 1.0, g.y(r) + 1.0, size - 2.0, size - 2.0);
    }
    ctx.restore();
    headers(ctx, g, p, s, sight);
}

/// Every `step`-th label, so labels never overlap on small cells.
fn label_step(cell: f64) -> usize {
    (14.0 / cell).ceil().max(1.0) as usize
}

fn headers(ctx: &CanvasRenderingContext2d, g: &Geometry, p: &Palette, s: &Scene, sight: Sight) {
    let step = label_step(g.cell);
    ctx.set_font(FONT);
    ctx.set_text_baseline("middle");
    // Job labels, left.
    ctx.save();
    ctx.set_fill_style_str(&p.panel);
    ctx.fill_rect(0.0, TOP, LEFT, g.height - TOP);
    ctx.begin_path();
    ctx.rect(0.0, TOP, LEFT, (g.height - TOP).max(0.0));
    ctx.clip();
    let max_chars = ((LEFT - 14.0) / CHAR_W) as usize;
    for r in sight.rows.0..sight.rows.1 {
        let hovered = s.hover.is_some_and(|h| h.0 == r);
        if hovered {
            ctx.set_fill_style_str(&p.accent);
            ctx.set_global_alpha(0.18);
            ctx.fill_rect(0.0, g.y(r), LEFT, g.cell);
            ctx.set_global_alpha(1.0);
        }
        if r % step == 0 || hovered {
            ctx.set_fill_style_str(if hovered { &p.fg } else { &p.muted });
            let _ = ctx.fill_text(
                &clip((s.row_label)(r), max_chars),
                8.0,
                g.y(r) + g.cell / 2.0,
            );
        }
    }
    ctx.restore();
    // Machine labels, top, read bottom to top.
    ctx.save();
    ctx.set_fill_style_str(&p.panel);
    ctx.fill_rect(LEFT, 0.0, g.width - LEFT, TOP);
    ctx.begin_path();
    ctx.rect(LEFT, 0.0, (g.width - LEFT).max(0.0), TOP);
    ctx.clip();
    let max_chars = ((TOP - 14.0) / CHAR_W) as usize;
    for c in sight.cols.0..sight.cols.1 {
        let hovered = s.hover.is_some_and(|h| h.1 == c);
        if hovered {
            ctx.set_fill_style_str(&p.accent);
            ctx.set_global_alpha(0.18);
            ctx.fill_rect(g.x(c), 0.0, g.cell, TOP);
            ctx.set_global_alpha(1.0);
        }
        if c % step == 0 || hovered {
            ctx.save();
            let _ = ctx.translate(g.x(c) + g.cell / 2.0, TOP - 8.0);
            let _ = ctx.rotate(-FRAC_PI_2);
            ctx.set_fill_style_str(if hovered { &p.fg } else { &p.muted });
            let _ = ctx.fill_text(&clip((s.col_label)(c), max_chars), 0.0, 0.0);
            ctx.restore();
        }
    }
    ctx.restore();
    // The corner says which way is which.
    ctx.set_fill_style_str(&p.panel);
    ctx.fill_rect(0.0, 0.0, LEFT, TOP);
    ctx.set_fill_style_str(&p.muted);
    let _ = ctx.fill_text("machines →", LEFT - 96.0, TOP - 40.0);
    let _ = ctx.fill_text("jobs ↓", 8.0, TOP - 14.0);
    ctx.set_stroke_style_str(&p.border);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    ctx.move_to(0.0, TOP - 0.5);
    ctx.line_to(g.width, TOP - 0.5);
    ctx.move_to(LEFT - 0.5, 0.0);
    ctx.line_to(LEFT - 0.5, g.height);
    ctx.stroke();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sight_and_hit_testing() {
        let g = Geometry {
            cell: 10.0,
            width: LEFT + 100.0,
            height: TOP + 50.0,
            scroll_x: 25.0,
            scroll_y: 0.0,
        };
        let s = g.sight(1000, 1000);
        assert_eq!(s.rows, (0, 5));
        assert_eq!(s.cols, (2, 13));
        // Clipped to a small matrix.
        assert_eq!(g.sight(3, 4).cols, (2, 4));
        assert_eq!(g.cell_at(LEFT + 1.0, TOP + 1.0, 1000, 1000), Some((0, 2)));
        assert_eq!(g.cell_at(LEFT + 16.0, TOP + 21.0, 1000, 1000), Some((2, 4)));
        assert_eq!(
            g.cell_at(LEFT - 1.0, TOP + 1.0, 1000, 1000),
            None,
            "on a label"
        );
        assert_eq!(
            g.cell_at(LEFT + 90.0, TOP + 1.0, 1000, 5),
            None,
            "past the last column"
        );
        assert_eq!(label_step(16.0), 1);
        assert_eq!(label_step(4.0), 4);
    }
}
