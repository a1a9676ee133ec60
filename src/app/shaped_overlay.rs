//! The world view's overlay on the hexagonal and triangular layouts: the grid's border, the
//! selection and the pattern being placed, drawn as the boxes (sheared on hexagons) and cell
//! centres they are there.

use egui::{Color32, Pos2, Rect, Shape, Stroke};

use super::camera::Camera;
use super::world_view::{WorldView, ghost_origin};

/// The screen outline of the cell box `w × h` from cell `(x, y)`: a parallelogram on
/// hexagons, a rectangle on triangles.
fn cell_box(cam: &Camera, rect: Rect, (x, y): (i64, i64), (w, h): (u64, u64)) -> Vec<Pos2> {
    let (x0, y0, x1, y1) = (x as f64, y as f64, x as f64 + w as f64, y as f64 + h as f64);
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        .into_iter()
        .map(|(x, y)| cam.to_screen(rect, x, y))
        .collect()
}

impl WorldView {
    /// [`WorldView`]'s overlay when the camera draws hexagons or triangles (`grid`: a
    /// bounded grid's cells, plane coordinates).
    pub(super) fn shaped_overlay(
        &self,
        ui: &egui::Ui,
        rect: Rect,
        grid: Option<crate::universe::Rect>,
    ) {
        let painter = ui.painter_at(rect);
        let cam = &self.camera;
        if let Some(g) = grid {
            let (x, y) = (g.x0 as i64, g.y0 as i64);
            let outline = cell_box(cam, rect, (x, y), (g.width() as u64, g.height() as u64));
            painter.add(Shape::closed_line(
                outline,
                Stroke::new(1.0, Color32::from_gray(90)),
            ));
        }
        if let Some(sel) = self.selection {
            let outline = cell_box(cam, rect, (sel.x0, sel.y0), (sel.width(), sel.height()));
            painter.add(Shape::convex_polygon(
                outline,
                Color32::from_rgba_unmultiplied(90, 160, 255, 40),
                Stroke::new(1.5, Color32::from_rgb(90, 160, 255)),
            ));
        }
        if let (Some(pattern), Some(cell)) = (&self.placing, self.hover) {
            let (x, y) = ghost_origin(cell, pattern);
            let ghost = Color32::from_rgba_unmultiplied(255, 255, 255, 110);
            let size = (pattern.width.into(), pattern.height.into());
            painter.add(Shape::closed_line(
                cell_box(cam, rect, (x, y), size),
                Stroke::new(1.0, ghost),
            ));
            if pattern.cells.len() <= super::world_view::GHOST_CELLS {
                let radius = (cam.cell_px * 0.45).max(0.5);
                for &(cx, cy) in &pattern.cells {
                    let centre = cam.cell_centre(rect, x + i64::from(cx), y + i64::from(cy));
                    painter.circle_filled(centre, radius, ghost);
                }
            }
        }
    }
}
