//! Zoom and pan: the mapping between screen points and world cells.

use egui::{Pos2, Rect, Vec2};

use crate::runner::Selection;
use crate::step::view::ViewRequest;

/// Most screen points per cell when zoomed in.
pub const MAX_CELL_PX: f32 = 64.0;

/// Fewest screen points per cell on the unbounded plane: 2^-100 (a pattern 2^100 cells
/// wide still fits in a view a thousand points wide).
pub const MIN_PLANE_CELL_PX: f32 = 7.9e-31;

/// Where the world view looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// World coordinates (cells) at the centre of the view.
    pub center: [f64; 2],
    /// Screen points per cell.
    pub cell_px: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            center: [0.0, 0.0],
            cell_px: 1.0,
        }
    }
}

impl Camera {
    /// Whole `w × h` world in `rect`, centred.
    pub fn fit(rect: Rect, w: u32, h: u32) -> Camera {
        Camera {
            center: [f64::from(w) / 2.0, f64::from(h) / 2.0],
            cell_px: fit_cell_px(rect, w, h),
        }
    }

    /// The cells of `selection` in `rect`, centred, with a margin of a tenth of the view
    /// around them; a small pattern is shown at most [`MAX_CELL_PX`] points per cell, a
    /// huge one (a plane pattern 2^40 wide) at a tiny fraction of a point.
    pub fn fit_cells(rect: Rect, selection: Selection) -> Camera {
        let inner = rect.shrink2(rect.size() * 0.1);
        let (w, h) = (selection.width() as f64, selection.height() as f64);
        let cell_px = (f64::from(inner.width()) / w)
            .min(f64::from(inner.height()) / h)
            .min(f64::from(MAX_CELL_PX));
        Camera {
            center: [selection.x0 as f64 + w / 2.0, selection.y0 as f64 + h / 2.0],
            cell_px: (cell_px as f32).max(MIN_PLANE_CELL_PX),
        }
    }

    /// World position (in cells, fractional) under screen point `p`.
    pub fn to_world(&self, rect: Rect, p: Pos2) -> [f64; 2] {
        let d = p - rect.center();
        [
            self.center[0] + f64::from(d.x / self.cell_px),
            self.center[1] + f64::from(d.y / self.cell_px),
        ]
    }

    /// The cell under screen point `p` (may lie outside the world).
    pub fn cell_at(&self, rect: Rect, p: Pos2) -> (i64, i64) {
        let [x, y] = self.to_world(rect, p);
        (x.floor() as i64, y.floor() as i64)
    }

    /// Screen point of world position `(x, y)`.
    pub fn to_screen(&self, rect: Rect, x: f64, y: f64) -> Pos2 {
        rect.center()
            + Vec2::new(
                ((x - self.center[0]) * f64::from(self.cell_px)) as f32,
                ((y - self.center[1]) * f64::from(self.cell_px)) as f32,
            )
    }

    /// The most zoomed-out a `w × h` grid goes in `rect`: the whole grid fits, halved.
    pub fn grid_min_cell_px(rect: Rect, w: u32, h: u32) -> f32 {
        fit_cell_px(rect, w, h).min(1.0) * 0.5
    }

    /// Zoom by `factor` keeping the world point under `anchor` fixed, between `min` points
    /// per cell ([`Camera::grid_min_cell_px`] on a grid, [`MIN_PLANE_CELL_PX`] on the
    /// plane) and [`MAX_CELL_PX`].
    pub fn zoom_about(&mut self, rect: Rect, anchor: Pos2, factor: f32, min: f32) {
        let before = self.to_world(rect, anchor);
        self.cell_px = (self.cell_px * factor).clamp(min, MAX_CELL_PX);
        let after = self.to_world(rect, anchor);
        self.center[0] += before[0] - after[0];
        self.center[1] += before[1] - after[1];
    }

    /// Move the view by a screen drag of `delta` points.
    pub fn pan(&mut self, delta: Vec2) {
        self.center[0] -= f64::from(delta.x / self.cell_px);
        self.center[1] -= f64::from(delta.y / self.cell_px);
    }

    /// The view request for `rect` at `pixels_per_point`, at most 4096 pixels a side.
    pub fn request(&self, rect: Rect, pixels_per_point: f32) -> ViewRequest {
        let scale = pixels_per_point.clamp(0.25, 4.0);
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
        assert_eq!((r.x0, r.y0, r.cells_per_pixel), (0.0, -12.5, 0.25));
    }

    #[test]
    fn plane_requests_are_aligned_powers_of_two_covering_the_view() {
        let rect = rect();
        for (center, cell_px) in [
            ([0.0, 0.0], 4.0),
            ([1e12, -3e9], 1e-6),
            ([-77.5, 3.25], 0.3),
        ] {
            let cam = Camera { center, cell_px };
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
}
