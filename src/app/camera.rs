//! Zoom and pan: the mapping between screen points and world cells.

use egui::{Pos2, Rect, Vec2};

use crate::runner::Selection;
use crate::step::view::ViewRequest;

/// Most screen points per cell when zoomed in.
pub const MAX_CELL_PX: f32 = 64.0;

/// Fewest screen points per cell on the unbounded plane: 2^-100 (a pattern 2^100 cells
/// wide still fits in a view a thousand points wide).
pub const MIN_PLANE_CELL_PX: f32 = 7.9e-31;

use super::cell_layout::CellLayout;

/// Where the world view looks.
///
/// The camera works in *display* coordinates, in which one unit is one cell's width: the
/// cells themselves on a square layout, Golly's hexagons or its triangles on the others
/// ([`CellLayout`]). Cell coordinates go in and come out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Display coordinates at the centre of the view.
    pub center: [f64; 2],
    /// Screen points per cell.
    pub cell_px: f32,
    /// How cells lie on screen: squares, hexagons or triangles.
    pub layout: CellLayout,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            center: [0.0, 0.0],
            cell_px: 1.0,
            layout: CellLayout::Square,
        }
    }
}

impl Camera {
    /// A whole `w × h` bounded grid in `rect` (its cells centred on the plane's origin, as
    /// Golly centres a bounded grid).
    pub fn fit(rect: Rect, w: u32, h: u32) -> Camera {
        let frame = crate::universe::centred_frame(crate::universe::Bounds {
            width: w,
            height: h,
            topology: crate::world::Topology::Torus,
        });
        Camera::fit_frame(rect, frame, CellLayout::Square)
    }

    /// The same camera on `layout`, fitted to the cells of `frame` (plane coordinates).
    pub fn fit_frame(rect: Rect, frame: crate::universe::Rect, layout: CellLayout) -> Camera {
        let lo = [frame.x0 as f64, frame.y0 as f64];
        let hi = [frame.x1 as f64 + 1.0, frame.y1 as f64 + 1.0];
        Camera::fit_box(rect, lo, hi, layout).zoomed_in_at_most(MAX_CELL_PX)
    }

    /// The cell box from `lo` to `hi` (cell coordinates) filling `rect`, centred.
    fn fit_box(rect: Rect, lo: [f64; 2], hi: [f64; 2], layout: CellLayout) -> Camera {
        let corners = [
            [lo[0], lo[1]],
            [hi[0], lo[1]],
            [lo[0], hi[1]],
            [hi[0], hi[1]],
        ]
        .map(|[x, y]| layout.to_display(x, y));
        let span = |axis: usize| {
            let values = corners.map(|c| c[axis]);
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (min, max)
        };
        let ((u0, u1), (v0, v1)) = (span(0), span(1));
        let cell_px = (f64::from(rect.width()) / (u1 - u0).max(1e-300))
            .min(f64::from(rect.height()) / (v1 - v0).max(1e-300));
        Camera {
            center: [(u0 + u1) / 2.0, (v0 + v1) / 2.0],
            cell_px: (cell_px as f32).max(MIN_PLANE_CELL_PX),
            layout,
        }
    }

    /// This camera zoomed in no further than `max` points per cell.
    fn zoomed_in_at_most(mut self, max: f32) -> Camera {
        self.cell_px = self.cell_px.min(max);
        self
    }

    /// Display coordinates of cell coordinates `(x, y)`.
    pub fn to_display(&self, x: f64, y: f64) -> [f64; 2] {
        self.layout.to_display(x, y)
    }

    /// Cell coordinates of display coordinates `(u, v)`.
    pub fn from_display(&self, u: f64, v: f64) -> [f64; 2] {
        self.layout.from_display(u, v)
    }

    /// Display coordinates under screen point `p`.
    pub fn display_at(&self, rect: Rect, p: Pos2) -> [f64; 2] {
        let d = p - rect.center();
        [
            self.center[0] + f64::from(d.x / self.cell_px),
            self.center[1] + f64::from(d.y / self.cell_px),
        ]
    }

    /// The cells of `selection` in `rect`, centred, with a margin of a tenth of the view
    /// around them; a small pattern is shown at most [`MAX_CELL_PX`] points per cell, a
    /// huge one (a plane pattern 2^40 wide) at a tiny fraction of a point.
    pub fn fit_cells(rect: Rect, selection: Selection) -> Camera {
        Camera::fit_cells_layout(rect, selection, CellLayout::Square)
    }

    /// [`Camera::fit_cells`] on `layout`.
    pub fn fit_cells_layout(rect: Rect, selection: Selection, layout: CellLayout) -> Camera {
        let inner = rect.shrink2(rect.size() * 0.1);
        let (w, h) = (selection.width() as f64, selection.height() as f64);
        let (x0, y0) = (selection.x0 as f64, selection.y0 as f64);
        Camera::fit_box(inner, [x0, y0], [x0 + w, y0 + h], layout).zoomed_in_at_most(MAX_CELL_PX)
    }

    /// World position (in cells, fractional) under screen point `p`.
    pub fn to_world(&self, rect: Rect, p: Pos2) -> [f64; 2] {
        let [u, v] = self.display_at(rect, p);
        self.from_display(u, v)
    }

    /// The cell under screen point `p` (may lie outside the world): the one whose square,
    /// hexagon or triangle holds it.
    pub fn cell_at(&self, rect: Rect, p: Pos2) -> (i64, i64) {
        let [u, v] = self.display_at(rect, p);
        self.layout.cell_at(u, v)
    }

    /// Screen point of world position `(x, y)` (cell coordinates).
    pub fn to_screen(&self, rect: Rect, x: f64, y: f64) -> Pos2 {
        let [u, v] = self.to_display(x, y);
        rect.center()
            + Vec2::new(
                ((u - self.center[0]) * f64::from(self.cell_px)) as f32,
                ((v - self.center[1]) * f64::from(self.cell_px)) as f32,
            )
    }

    /// Screen centre of cell `(x, y)`.
    pub fn cell_centre(&self, rect: Rect, x: i64, y: i64) -> Pos2 {
        self.to_screen(rect, x as f64 + 0.5, y as f64 + 0.5)
    }

    /// The most zoomed-out a `w × h` grid goes in `rect`: the whole grid fits, halved.
    pub fn grid_min_cell_px(rect: Rect, w: u32, h: u32) -> f32 {
        fit_cell_px(rect, w, h).min(1.0) * 0.5
    }

    /// Zoom by `factor` keeping the world point under `anchor` fixed, between `min` points
    /// per cell ([`Camera::grid_min_cell_px`] on a grid, [`MIN_PLANE_CELL_PX`] on the
    /// plane) and [`MAX_CELL_PX`].
    pub fn zoom_about(&mut self, rect: Rect, anchor: Pos2, factor: f32, min: f32) {
        let before = self.display_at(rect, anchor);
        self.cell_px = (self.cell_px * factor).clamp(min, MAX_CELL_PX);
        let after = self.display_at(rect, anchor);
        self.center[0] += before[0] - after[0];
        self.center[1] += before[1] - after[1];
    }

    /// Move the view by `(dx, dy)` cells, so cells that moved that far in the grid (a
    /// growing world's frame moving) stay where they were on screen.
    pub fn follow_cells(&mut self, dx: f64, dy: f64) {
        let ([u0, v0], [u1, v1]) = (self.to_display(0.0, 0.0), self.to_display(dx, dy));
        self.center[0] += u1 - u0;
        self.center[1] += v1 - v0;
    }

    /// Move the view by a screen drag of `delta` points.
    pub fn pan(&mut self, delta: Vec2) {
        self.center[0] -= f64::from(delta.x / self.cell_px);
        self.center[1] -= f64::from(delta.y / self.cell_px);
    }

    /// The view request for `rect` at `pixels_per_point`, at most 4096 pixels a side.
    pub fn request(&self, rect: Rect, pixels_per_point: f32) -> ViewRequest {
        let scale = pixels_per_point.clamp(0.25, 4.0);
        if self.layout != CellLayout::Square {
            return self.shaped_request(rect, scale);
        }
        let width_px = ((rect.width() * scale).round() as u32).clamp(1, 4096);
        let height_px = ((rect.height() * scale).round() as u32).clamp(1, 4096);
        let top_left = self.to_world(rect, rect.min);
        ViewRequest {
            x0: top_left[0],
            y0: top_left[1],
            cells_per_pixel: f64::from(rect.width() / self.cell_px / width_px as f32),
            width_px,
            height_px,
        }
    }

    /// The view request of the unbounded plane for `rect`: at `2^k` cells per pixel (the
    /// smallest power of two showing at least one screen pixel's cells; 1 when zoomed in),
    /// its corner on a multiple of `2^k`, so each pixel is one quadtree node of level `k`
    /// (see [`crate::hashlife::HashUniverse::draw`]); the painter stretches it to the screen.
    pub fn plane_request(&self, rect: Rect, pixels_per_point: f32) -> ViewRequest {
        let scale = f64::from(pixels_per_point.clamp(0.25, 4.0));
        let cells_per_pixel = 1.0 / (f64::from(self.cell_px) * scale);
        let k = crate::hashlife::draw::scale_log2(cells_per_pixel);
        let side = 2f64.powi(k as i32);
        let top_left = self.to_world(rect, rect.min);
        let bottom_right = self.to_world(rect, rect.max);
        let x0 = (top_left[0] / side).floor() * side;
        let y0 = (top_left[1] / side).floor() * side;
        let count = |from: f64, to: f64| (((to - from) / side).ceil() as u32 + 1).clamp(1, 4096);
        ViewRequest {
            x0,
            y0,
            cells_per_pixel: side,
            width_px: count(x0, bottom_right[0]),
            height_px: count(y0, bottom_right[1]),
        }
    }

    /// Where the image of `request` lies on screen now.
    pub fn image_rect(&self, rect: Rect, request: &ViewRequest) -> Rect {
        let span_x = request.cells_per_pixel * f64::from(request.width_px);
        let span_y = request.cells_per_pixel * f64::from(request.height_px);
        let (x0, y0) = (request.x0, request.y0);
        Rect::from_min_max(
            self.to_screen(rect, x0, y0),
            self.to_screen(rect, x0 + span_x, y0 + span_y),
        )
    }
}

impl Camera {
    /// The hexagonal and triangular layouts' request: the cell box around the view's
    /// rectangle, at one pixel per screen pixel's width of cells (the paint shader maps
    /// each screen pixel to its hexagon's or triangle's cell and reads that cell's pixel).
    fn shaped_request(&self, rect: Rect, scale: f32) -> ViewRequest {
        let corners = [
            rect.left_top(),
            rect.right_top(),
            rect.left_bottom(),
            rect.right_bottom(),
        ]
        .map(|p| self.to_world(rect, p));
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for [x, y] in corners {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
        // Two cells of margin: a hexagon at the view's edge reaches half a cell beyond it,
        // a triangle (two cells wide) one and a half.
        let (x0, y0, x1, y1) = (
            x0.floor() - 2.0,
            y0.floor() - 1.0,
            x1.ceil() + 2.0,
            y1.ceil() + 1.0,
        );
        let mut cells_per_pixel = 1.0 / (f64::from(self.cell_px) * f64::from(scale));
        let biggest = (x1 - x0).max(y1 - y0);
        cells_per_pixel = cells_per_pixel.max(biggest / 4096.0);
        let count = |span: f64| ((span / cells_per_pixel).ceil() as u32).clamp(1, 4096);
        ViewRequest {
            x0,
            y0,
            cells_per_pixel,
            width_px: count(x1 - x0),
            height_px: count(y1 - y0),
        }
    }
}

fn fit_cell_px(rect: Rect, w: u32, h: u32) -> f32 {
    (rect.width() / w.max(1) as f32)
        .min(rect.height() / h.max(1) as f32)
        .min(MAX_CELL_PX)
}

/// Cells on the straight line from `a` to `b` (both included), so a fast drag leaves no gaps.
pub fn line_cells(a: (i64, i64), b: (i64, i64)) -> Vec<(i64, i64)> {
    let (dx, dy) = ((b.0 - a.0).abs(), -(b.1 - a.1).abs());
    let (sx, sy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
    let (mut x, mut y, mut err) = (a.0, a.1, dx + dy);
    let mut cells = vec![(x, y)];
    while (x, y) != b {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
        cells.push((x, y));
    }
    cells
}

/// A screen rectangle of `w × h` cells starting at cell `(x, y)`.
pub fn cells_rect(camera: &Camera, rect: Rect, x: i64, y: i64, w: u64, h: u64) -> Rect {
    Rect::from_min_max(
        camera.to_screen(rect, x as f64, y as f64),
        camera.to_screen(rect, x as f64 + w as f64, y as f64 + h as f64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    fn rect() -> Rect {
        Rect::from_min_size(pos2(10.0, 20.0), egui::vec2(400.0, 300.0))
    }

    #[test]
    fn screen_and_world_round_trip() {
        let cam = Camera {
            center: [50.0, 40.0],
            cell_px: 4.0,
            layout: CellLayout::Square,
        };
        let p = cam.to_screen(rect(), 12.5, 77.0);
        let w = cam.to_world(rect(), p);
        assert!((w[0] - 12.5).abs() < 1e-3 && (w[1] - 77.0).abs() < 1e-3);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut cam = Camera {
            center: [50.0, 40.0],
            cell_px: 4.0,
            layout: CellLayout::Square,
        };
        let anchor = pos2(300.0, 90.0);
        let before = cam.to_world(rect(), anchor);
        let min = Camera::grid_min_cell_px(rect(), 100, 80);
        cam.zoom_about(rect(), anchor, 2.5, min);
        let after = cam.to_world(rect(), anchor);
        assert!((before[0] - after[0]).abs() < 1e-3 && (before[1] - after[1]).abs() < 1e-3);
        assert_eq!(cam.cell_px, 10.0);
        cam.zoom_about(rect(), anchor, 1000.0, min);
        assert_eq!(cam.cell_px, MAX_CELL_PX);
    }

    #[test]
    fn fit_shows_the_whole_world() {
        let cam = Camera::fit(rect(), 100, 50);
        assert_eq!(cam.cell_px, 4.0);
        let r = cam.request(rect(), 1.0);
        // The grid's cells lie centred on the plane's origin: x from −50, y from −25.
        assert_eq!((r.x0, r.y0, r.cells_per_pixel), (-50.0, -37.5, 0.25));
    }

    #[test]
    fn plane_requests_are_aligned_powers_of_two_covering_the_view() {
        let rect = rect();
        for (center, cell_px) in [
            ([0.0, 0.0], 4.0),
            ([1e12, -3e9], 1e-6),
            ([-77.5, 3.25], 0.3),
        ] {
            let cam = Camera {
                center,
                cell_px,
                layout: CellLayout::Square,
            };
            let r = cam.plane_request(rect, 1.0);
            let side = r.cells_per_pixel;
            assert_eq!(side.log2().fract(), 0.0, "{r:?}");
            assert!(
                side >= 1.0 && side * f64::from(cell_px) >= 1.0 - 1e-9,
                "{r:?}"
            );
            assert_eq!((r.x0 / side).fract(), 0.0);
            let tl = cam.to_world(rect, rect.min);
            let br = cam.to_world(rect, rect.max);
            assert!(r.x0 <= tl[0] && r.y0 <= tl[1]);
            assert!(r.x0 + side * f64::from(r.width_px) >= br[0]);
            assert!(r.y0 + side * f64::from(r.height_px) >= br[1]);
        }
    }

    #[test]
    fn fitting_a_huge_plane_pattern_zooms_far_out() {
        let sel = Selection {
            x0: -(1 << 40),
            y0: -(1 << 39),
            x1: 1 << 40,
            y1: 1 << 39,
        };
        let cam = Camera::fit_cells(rect(), sel);
        assert!(cam.cell_px < 1e-9 && cam.cell_px > 0.0, "{cam:?}");
        assert!((cam.center[0] - 0.5).abs() < 1.0);
    }

    #[test]
    fn lines_have_no_gaps() {
        let cells = line_cells((0, 0), (5, -3));
        assert_eq!(cells.first(), Some(&(0, 0)));
        assert_eq!(cells.last(), Some(&(5, -3)));
        for pair in cells.windows(2) {
            assert!((pair[0].0 - pair[1].0).abs() <= 1 && (pair[0].1 - pair[1].1).abs() <= 1);
        }
        assert_eq!(line_cells((2, 2), (2, 2)), vec![(2, 2)]);
    }

    /// On the hexagonal layout the cell under each hexagon's centre is that cell, and the
    /// six neighbours of Golly's hexagonal neighbourhood (NW, N, W, E, S, SE) lie one cell
    /// width from it while NE and SW lie farther: the hexagons Golly's rules mean.
    #[test]
    fn hexagons_hold_their_cells_and_touch_their_six_neighbours() {
        let cam = Camera {
            center: [3.5, -7.25],
            cell_px: 9.0,
            layout: CellLayout::Hexagonal,
        };
        let r = rect();
        for (x, y) in [(0, 0), (5, 3), (-4, 7), (11, -6), (2, 1)] {
            let centre = cam.cell_centre(r, x, y);
            assert_eq!(cam.cell_at(r, centre), (x, y));
            for d in [
                egui::vec2(3.0, 0.0),
                egui::vec2(0.0, 3.5),
                egui::vec2(-2.5, -2.0),
            ] {
                assert_eq!(
                    cam.cell_at(r, centre + d),
                    (x, y),
                    "{d:?} inside the hexagon"
                );
            }
            let distance = |(dx, dy): (i64, i64)| {
                let n = cam.cell_centre(r, x + dx, y + dy);
                (n - centre).length() / cam.cell_px
            };
            for n in [(-1, -1), (0, -1), (-1, 0), (1, 0), (0, 1), (1, 1)] {
                assert!((distance(n) - 1.0).abs() < 1e-3, "{n:?}: {}", distance(n));
            }
            for far in [(1, -1), (-1, 1)] {
                assert!(distance(far) > 1.5, "{far:?}");
            }
        }
        // The request covers every cell whose hexagon is on screen.
        let request = cam.request(r, 1.0);
        for p in [
            r.left_top(),
            r.right_top(),
            r.left_bottom(),
            r.right_bottom(),
        ] {
            let (x, y) = cam.cell_at(r, p);
            assert!(
                request.x0 <= x as f64 && request.y0 <= y as f64,
                "{request:?}"
            );
            let span = request.cells_per_pixel;
            assert!(x as f64 + 1.0 <= request.x0 + span * f64::from(request.width_px));
            assert!(y as f64 + 1.0 <= request.y0 + span * f64::from(request.height_px));
        }
    }
}
