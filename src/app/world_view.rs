//! The world view widget: draws the view image and turns pointer input into zoom, pan,
//! drawing, selection and pattern placement.

use std::sync::Arc;

use egui::{Color32, PointerButton, Rect, Sense, Stroke};

use super::camera::{Camera, MIN_PLANE_CELL_PX, cells_rect, line_cells};
use super::cell_layout::CellLayout;
use super::view_paint::{self, HostTexture};
use crate::pattern::Pattern;
use crate::runner::{Command, Runner, Selection, Snapshot};

/// What a left click or drag does (Golly's cursor modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tool {
    /// Left drag draws, right drag (or Ctrl + left) erases.
    Draw,
    /// A click takes the cell's state as the one to draw with.
    Pick,
    /// Left drag selects a rectangle.
    Select,
    /// Left drag pans.
    Move,
    /// A click zooms in about the point.
    ZoomIn,
    /// A click zooms out about the point.
    ZoomOut,
}

impl Tool {
    /// Every tool, in Golly's cycle order (C).
    pub const ALL: [Tool; 6] = [
        Tool::Draw,
        Tool::Pick,
        Tool::Select,
        Tool::Move,
        Tool::ZoomIn,
        Tool::ZoomOut,
    ];

    /// The next tool in the cycle.
    pub fn next(self) -> Tool {
        let at = Tool::ALL.iter().position(|&t| t == self).unwrap_or(0);
        Tool::ALL[(at + 1) % Tool::ALL.len()]
    }

    /// Its name on the panel's buttons, and what it does.
    pub fn describe(self) -> (&'static str, &'static str) {
        match self {
            Tool::Draw => ("Draw", "left drag draws, right drag or Ctrl erases (F2)"),
            Tool::Pick => ("Pick", "click a cell to draw with its state (F3)"),
            Tool::Select => ("Select", "drag a rectangle (F4)"),
            Tool::Move => ("Move", "drag to pan (F5)"),
            Tool::ZoomIn => ("Zoom in", "click to zoom in there (F6)"),
            Tool::ZoomOut => ("Zoom out", "click to zoom out there (F7)"),
        }
    }
}

/// Most ghost cells drawn one by one; bigger patterns show their bounding box.
pub(super) const GHOST_CELLS: usize = 20_000;

/// State of the world view between frames.
pub struct WorldView {
    /// Zoom and pan.
    pub camera: Camera,
    /// Current tool.
    pub tool: Tool,
    /// Current selection (grid cells on a grid, clipped to it; plane coordinates on the
    /// plane).
    pub selection: Option<Selection>,
    /// Pattern following the cursor until a click places it.
    pub placing: Option<Arc<Pattern>>,
    /// Cell under the pointer.
    pub hover: Option<(i64, i64)>,
    /// Fit the world to the view on the next frame.
    pub fit_pending: bool,
    /// Frame these cells (the pattern's bounding box) on the next frame.
    pub fit_cells: Option<Selection>,
    /// Screen rectangle of the view in the last frame.
    pub rect: Rect,
    /// Whether the world has run since the window opened (the first-screen hint then goes).
    pub has_run: bool,
    /// Draw hexagonal and triangular rules on their own layouts (a setting; the square grid
    /// otherwise).
    pub hex_cells: bool,
    /// The state the Draw tool paints (1; a many-state rule's palette picks 2 and up).
    pub paint_state: u8,
    /// The cell shown as the origin (Golly's Set Origin, 0; `(0, 0)` is the true one): the
    /// status line's coordinates are counted from it.
    pub shown_origin: (i64, i64),
    /// Draw grid lines when zoomed in.
    pub grid_lines: bool,
    /// The Pick cursor's question in flight: the state of the cell clicked.
    pub pick_reply: Option<std::sync::mpsc::Receiver<u8>>,
    /// The zoom bounds of the last frame (zoom keys and cursors keep within them).
    min_cell_px: f32,
    stroke: u64,
    last_cell: Option<(i64, i64)>,
    select_anchor: Option<(i64, i64)>,
    host_texture: HostTexture,
}

impl Default for WorldView {
    fn default() -> Self {
        WorldView {
            camera: Camera::default(),
            tool: Tool::Draw,
            selection: None,
            placing: None,
            hover: None,
            fit_pending: true,
            fit_cells: None,
            rect: Rect::NOTHING,
            has_run: false,
            hex_cells: true,
            paint_state: 1,
            shown_origin: (0, 0),
            grid_lines: true,
            pick_reply: None,
            min_cell_px: MIN_PLANE_CELL_PX,
            stroke: 0,
            last_cell: None,
            select_anchor: None,
            host_texture: HostTexture::default(),
        }
    }
}

impl WorldView {
    /// Draw the view and handle its input for this frame.
    /// `look`: the age colour map, whether rule tables are drawn in their own colours, and
    /// inversion.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        snap: &Snapshot,
        runner: &Runner,
        look: view_paint::Look,
    ) {
        // A bounded grid's cells (plane coordinates); `None` when the world is unbounded.
        let grid = snap.capabilities.bounded.and(snap.frame);
        let hashing = snap.capabilities.hashing;
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.rect = rect;
        // Hexagonal and triangular rules on a grid are drawn as hexagons and triangles
        // (the hashed universe's view stays square).
        let layout = match (hashing || !self.hex_cells, snap.rule.is_hexagonal()) {
            (true, _) => CellLayout::Square,
            (false, true) => CellLayout::Hexagonal,
            (false, false) if snap.rule.is_triangular() => CellLayout::Triangular,
            (false, false) => CellLayout::Square,
        };
        if layout != self.camera.layout {
            self.fit_pending = true;
        }
        if self.fit_pending && rect.width() > 1.0 {
            self.camera = match grid {
                Some(frame) => Camera::fit_frame(rect, frame, layout),
                None => Camera {
                    center: [0.0, 0.0],
                    cell_px: 8.0,
                    layout,
                },
            };
            self.fit_pending = false;
        }
        if rect.width() > 1.0
            && let Some(selection) = self.fit_cells.take()
        {
            self.camera = Camera::fit_cells_layout(rect, selection, layout);
        }
        let min_cell_px = match grid {
            Some(g) => Camera::grid_min_cell_px(rect, g.width() as u32, g.height() as u32),
            None => MIN_PLANE_CELL_PX,
        };
        self.min_cell_px = min_cell_px;
        self.zoom_and_pan(ui, rect, &response, min_cell_px);
        self.hover = response.hover_pos().map(|p| self.camera.cell_at(rect, p));
        self.edit(ui, rect, &response, runner, grid);
        let ppp = ui.ctx().pixels_per_point();
        // The hashed universe draws whole quadtree nodes: its requests are aligned.
        runner.set_view(if hashing {
            self.camera.plane_request(rect, ppp)
        } else {
            self.camera.request(rect, ppp)
        });
        if let Some(image) = &snap.view {
            view_paint::paint(ui, rect, image, &self.camera, look, &mut self.host_texture);
        }
        self.overlay(ui, rect, grid);
        self.placing_hint(ui, rect);
        self.has_run |= snap.running || snap.generation > 0;
        if !self.has_run && self.placing.is_none() {
            hint(ui, rect, "first steps", FIRST_STEPS);
        }
    }

    /// While a pattern follows the cursor, say how to place it at the top of the view; the
    /// hint goes with the pattern (placed or cancelled), not after a fixed time.
    fn placing_hint(&self, ui: &egui::Ui, rect: Rect) {
        let Some(pattern) = &self.placing else { return };
        let name = pattern.name.as_deref().unwrap_or("the pattern");
        let text = format!(
            "click to place {name} ({}×{}) · Shift+click places copies · Esc cancels",
            pattern.width, pattern.height
        );
        hint(ui, rect, "placing hint", &text);
    }

    fn zoom_and_pan(
        &mut self,
        ui: &egui::Ui,
        rect: Rect,
        response: &egui::Response,
        min_cell_px: f32,
    ) {
        if let Some(pointer) = response.hover_pos() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera
                    .zoom_about(rect, pointer, (scroll / 200.0).exp(), min_cell_px);
            }
        }
        let pans = response.dragged_by(PointerButton::Middle)
            || (response.dragged_by(PointerButton::Primary) && self.tool == Tool::Move)
            || (response.dragged_by(PointerButton::Secondary) && self.tool != Tool::Draw);
        if pans {
            self.camera.pan(response.drag_delta());
        }
    }

    /// Zoom by `factor` about the view's centre (Golly's ] and [), within the world's
    /// zoom bounds.
    pub fn zoom_centre(&mut self, factor: f32, _snap: &Snapshot) {
        let rect = self.rect;
        if rect.width() > 1.0 {
            self.camera
                .zoom_about(rect, rect.center(), factor, self.min_cell_px);
        }
    }

    /// Golly's scales: `pixels` screen pixels a cell (1:1 to 1:32).
    pub fn set_scale(&mut self, pixels: f32, pixels_per_point: f32) {
        self.camera.cell_px = pixels / pixels_per_point.max(0.1);
    }

    /// Drawing, erasing, selecting and placing; `grid` is a bounded grid's cells (selections
    /// are clipped to it), `None` when the world is unbounded.
    fn edit(
        &mut self,
        ui: &egui::Ui,
        rect: Rect,
        response: &egui::Response,
        runner: &Runner,
        grid: Option<crate::universe::Rect>,
    ) {
        let pointer = response.interact_pointer_pos().or(response.hover_pos());
        let Some(pointer) = pointer else { return };
        let cell = self.camera.cell_at(rect, pointer);
        if let Some(pattern) = self.placing.clone() {
            if response.clicked_by(PointerButton::Primary) {
                let (x, y) = ghost_origin(cell, &pattern);
                runner.send(Command::Place { pattern, x, y });
                let keep = ui.input(|i| i.modifiers.shift);
                if !keep {
                    self.placing = None;
                }
            }
            return;
        }
        let ctrl = ui.input(|i| i.modifiers.command);
        match self.tool {
            Tool::Draw => {
                let erase = response.dragged_by(PointerButton::Secondary)
                    || response.clicked_by(PointerButton::Secondary)
                    || ctrl;
                let active = response.dragged_by(PointerButton::Primary)
                    || response.dragged_by(PointerButton::Secondary)
                    || response.clicked_by(PointerButton::Primary)
                    || response.clicked_by(PointerButton::Secondary);
                if response.drag_started() || response.clicked() || response.secondary_clicked() {
                    self.stroke += 1;
                    let origin = ui.input(|i| i.pointer.press_origin());
                    self.last_cell = origin.map(|p| self.camera.cell_at(rect, p));
                }
                if active {
                    let from = self.last_cell.unwrap_or(cell);
                    // The universe clips to itself (a grid) or takes every cell (the plane).
                    runner.send(Command::Paint {
                        cells: line_cells(from, cell),
                        alive: !erase,
                        state: self.paint_state,
                        stroke: self.stroke,
                    });
                    self.last_cell = Some(cell);
                }
                if response.drag_stopped() || response.clicked() || response.secondary_clicked() {
                    self.last_cell = None;
                }
            }
            Tool::Pick if response.clicked_by(PointerButton::Primary) => {
                let (tx, rx) = std::sync::mpsc::channel();
                runner.send(Command::StateAt {
                    x: cell.0,
                    y: cell.1,
                    reply: tx,
                });
                self.pick_reply = Some(rx);
            }
            Tool::ZoomIn | Tool::ZoomOut if response.clicked_by(PointerButton::Primary) => {
                let factor = if self.tool == Tool::ZoomIn { 2.0 } else { 0.5 };
                self.camera
                    .zoom_about(rect, pointer, factor, self.min_cell_px);
            }
            Tool::Select => {
                if response.drag_started_by(PointerButton::Primary) {
                    let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(pointer);
                    self.select_anchor = Some(self.camera.cell_at(rect, origin));
                }
                if response.dragged_by(PointerButton::Primary)
                    && let Some(anchor) = self.select_anchor
                {
                    let selection = Selection::from_corners(anchor, cell);
                    self.selection = selection.clipped(grid);
                }
                if response.clicked_by(PointerButton::Primary) {
                    self.selection = None;
                }
            }
            _ => {}
        }
    }

    /// The grid's border (`grid`: a bounded grid's cells; `None` when unbounded, which has
    /// none), cell lines when zoomed in, the selection and the pattern being placed.
    fn overlay(&self, ui: &egui::Ui, rect: Rect, grid: Option<crate::universe::Rect>) {
        if self.camera.layout != CellLayout::Square {
            return self.shaped_overlay(ui, rect, grid);
        }
        let painter = ui.painter_at(rect);
        let cam = &self.camera;
        let (x0, y0) = cam.cell_at(rect, rect.min);
        let (x1, y1) = cam.cell_at(rect, rect.max);
        // The cells lines may cover: the grid, or the visible part of the plane.
        let (lo, hi, world) = match grid {
            Some(g) => {
                let (gx, gy) = (g.x0 as i64, g.y0 as i64);
                let (w, h) = (g.width() as u64, g.height() as u64);
                let world = cells_rect(cam, rect, gx, gy, w, h);
                painter.rect_stroke(
                    world,
                    0.0,
                    Stroke::new(1.0, Color32::from_gray(90)),
                    egui::StrokeKind::Outside,
                );
                ((gx, gy), (gx + w as i64, gy + h as i64), world)
            }
            None => ((x0, y0), (x1 + 1, y1 + 1), rect),
        };
        let cell_px = cam.cell_px * ui.ctx().pixels_per_point();
        if self.grid_lines && cell_px >= 8.0 {
            let lines = Stroke::new(1.0, Color32::from_rgba_unmultiplied(120, 120, 140, 60));
            for x in x0.max(lo.0)..=(x1 + 1).min(hi.0) {
                let p = cam.to_screen(rect, x as f64, 0.0).x;
                painter.vline(p, world.y_range(), lines);
            }
            for y in y0.max(lo.1)..=(y1 + 1).min(hi.1) {
                let p = cam.to_screen(rect, 0.0, y as f64).y;
                painter.hline(world.x_range(), p, lines);
            }
        }
        if let Some(sel) = self.selection {
            let r = cells_rect(cam, rect, sel.x0, sel.y0, sel.width(), sel.height());
            painter.rect_filled(r, 0.0, Color32::from_rgba_unmultiplied(90, 160, 255, 40));
            painter.rect_stroke(
                r,
                0.0,
                Stroke::new(1.5, Color32::from_rgb(90, 160, 255)),
                egui::StrokeKind::Outside,
            );
        }
        if let (Some(pattern), Some(cell)) = (&self.placing, self.hover) {
            let (x, y) = ghost_origin(cell, pattern);
            let ghost = Color32::from_rgba_unmultiplied(255, 255, 255, 110);
            let bounds = cells_rect(cam, rect, x, y, pattern.width.into(), pattern.height.into());
            painter.rect_stroke(
                bounds,
                0.0,
                Stroke::new(1.0, ghost),
                egui::StrokeKind::Outside,
            );
            if pattern.cells.len() <= GHOST_CELLS {
                for &(cx, cy) in &pattern.cells {
                    let r = cells_rect(cam, rect, x + i64::from(cx), y + i64::from(cy), 1, 1);
                    painter.rect_filled(r.expand(0.5), 0.0, ghost);
                }
            }
        }
    }
}

/// Top-left cell of a pattern centred on `cell`.
pub fn ghost_origin(cell: (i64, i64), pattern: &Pattern) -> (i64, i64) {
    (
        cell.0 - i64::from(pattern.width) / 2,
        cell.1 - i64::from(pattern.height) / 2,
    )
}

/// What the first screen says until the world first runs: how to run, paint and open.
pub const FIRST_STEPS: &str = "Enter runs and stops, Space steps one generation (Golly's keys) · \
     left-drag paints, right-drag erases · Ctrl+O opens a pattern (or pick one on the left) · \
     wheel zooms · F1: every key";

/// `text` in a popup frame at the top centre of the view (not interactable).
fn hint(ui: &egui::Ui, rect: Rect, id: &str, text: &str) {
    egui::Area::new(ui.scope_id().with(id))
        .fixed_pos(rect.center_top() + egui::vec2(0.0, 8.0))
        .pivot(egui::Align2::CENTER_TOP)
        .interactable(false)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| ui.label(text));
        });
}
