//! Zoom and pan: the mapping between screen points and world cells.

use egui::{Pos2, Rect, Vec2};

use crate::step::view::ViewRequest;

/// Most screen points per cell when zoomed in.
pub const MAX_CELL_PX: f32 = 64.0;

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

    /// The `w × h` cells from `(x, y)` in `rect`, centred, with a margin of a tenth of the
    /// view around them; a small pattern is shown at most [`MAX_CELL_PX`] points per cell.
    pub fn fit_cells(rect: Rect, x: u32, y: u32, w: u32, h: u32) -> Camera {
        let inner = rect.shrink2(rect.size() * 0.1);
        Camera {
            center: [
                f64::from(x) + f64::from(w) / 2.0,
                f64::from(y) + f64::from(h) / 2.0,
            ],
            cell_px: fit_cell_px(inner, w, h),
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

    /// Zoom by `factor` keeping the world point under `anchor` fixed, between
    /// "whole world fits" (halved) and [`MAX_CELL_PX`].
    pub fn zoom_about(&mut self, rect: Rect, anchor: Pos2, factor: f32, w: u32, h: u32) {
        let before = self.to_world(rect, anchor);
        let min = fit_cell_px(rect, w, h).min(1.0) * 0.5;
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
            x0: top_left[0] as f32,
            y0: top_left[1] as f32,
            cells_per_pixel: rect.width() / self.cell_px / width_px as f32,
            width_px,
            height_px,
        }
    }

    /// Where the image of `request` lies on screen now.
    pub fn image_rect(&self, rect: Rect, request: &ViewRequest) -> Rect {
        let span_x = f64::from(request.cells_per_pixel) * f64::from(request.width_px);
        let span_y = f64::from(request.cells_per_pixel) * f64::from(request.height_px);
        let x0 = f64::from(request.x0);
        let y0 = f64::from(request.y0);
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
pub fn cells_rect(camera: &Camera, rect: Rect, x: i64, y: i64, w: u32, h: u32) -> Rect {
    Rect::from_min_max(
        camera.to_screen(rect, x as f64, y as f64),
        camera.to_screen(rect, (x + i64::from(w)) as f64, (y + i64::from(h)) as f64),
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
        cam.zoom_about(rect(), anchor, 2.5, 100, 80);
        let after = cam.to_world(rect(), anchor);
        assert!((before[0] - after[0]).abs() < 1e-3 && (before[1] - after[1]).abs() < 1e-3);
        assert_eq!(cam.cell_px, 10.0);
        cam.zoom_about(rect(), anchor, 1000.0, 100, 80);
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
