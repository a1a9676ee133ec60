//! What each keymap action does: one place the keys (and the buttons that share them) go
//! through, each as Golly does it.

use super::GolabApp;
use super::keymap::Action;
use super::world_view::Tool;
use crate::runner::{Command, RegionOp, Snapshot};

/// The scroll of the arrow keys: this share of the view.
const SCROLL: f32 = 0.25;

impl GolabApp {
    /// Do `action` (a key press, or a button that names one).
    pub fn perform(&mut self, action: Action, ctx: &egui::Context, snap: &Snapshot) {
        let ppp = ctx.pixels_per_point();
        match action {
            Action::StartStop => self.toggle_run(snap),
            Action::NextGen => self.step_once(),
            Action::NextStep => self.next_step(snap),
            Action::AdvanceSelection => self.selection_op(RegionOp::Advance),
            Action::AdvanceOutside => self.selection_op(RegionOp::AdvanceOutside),
            Action::Faster => self.faster(snap),
            Action::Slower => self.slower(snap),
            Action::Reset => self.reset(),
            Action::Left | Action::Right | Action::Up | Action::Down => {
                let r = self.view.rect;
                let (w, h) = (r.width() * SCROLL, r.height() * SCROLL);
                let delta = match action {
                    Action::Left => egui::vec2(w, 0.0),
                    Action::Right => egui::vec2(-w, 0.0),
                    Action::Up => egui::vec2(0.0, h),
                    _ => egui::vec2(0.0, -h),
                };
                self.view.camera.pan(delta);
            }
            Action::ZoomIn => self.view.zoom_centre(2.0, snap),
            Action::ZoomOut => self.view.zoom_centre(0.5, snap),
            Action::Scale1 => self.view.set_scale(1.0, ppp),
            Action::Scale2 => self.view.set_scale(2.0, ppp),
            Action::Scale4 => self.view.set_scale(4.0, ppp),
            Action::Scale8 => self.view.set_scale(8.0, ppp),
            Action::Scale16 => self.view.set_scale(16.0, ppp),
            Action::Scale32 => self.view.set_scale(32.0, ppp),
            Action::Fit => self.fit_pattern(),
            Action::FitSelection => match self.view.selection {
                Some(s) => self.view.fit_cells = Some(s),
                None => self.fit(),
            },
            Action::Middle => self.view.camera.center = [0.0, 0.0],
            Action::ChangeOrigin => {
                if let Some(cell) = self.view.hover {
                    self.view.shown_origin = cell;
                    self.notify(format!(
                        "cell ({}, {}) is shown as the origin (9 restores it)",
                        cell.0, cell.1
                    ));
                }
            }
            Action::RestoreOrigin => self.view.shown_origin = (0, 0),
            Action::AutoFit => {
                self.settings.autofit = !self.settings.autofit;
                let on = if self.settings.autofit { "on" } else { "off" };
                self.notify(format!("auto fit {on}"));
            }
            Action::ShowGrid => self.settings.grid_lines = !self.settings.grid_lines,
            Action::Invert => self.settings.invert = !self.settings.invert,
            Action::ShowExact => self.settings.exact_numbers = !self.settings.exact_numbers,
            Action::Info => self.info_open = !self.info_open,
            Action::Help => self.help_open = !self.help_open,
            Action::FullScreen => {
                let full = ctx.input(|i| i.viewport().fullscreen.unwrap_or(false));
                ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(!full));
            }
            Action::ShrinkFit => self.shrink_selection(),
            Action::RemoveSelection => self.view.selection = None,
            Action::SelectAll => self.select_all(),
            Action::Paste => self.paste(None),
            Action::Clear => self.selection_op(RegionOp::Clear),
            Action::ClearOutside => self.selection_op(RegionOp::ClearOutside),
            Action::RandomFill => {
                let density = self.settings.density;
                self.panel.seed = self.panel.seed.wrapping_add(1);
                let seed = self.panel.seed;
                self.selection_op(RegionOp::RandomFill { density, seed });
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::FlipTopBottom => self.selection_op(RegionOp::FlipY),
            Action::FlipLeftRight => self.selection_op(RegionOp::FlipX),
            Action::RotateCw => self.selection_op(RegionOp::RotateCw),
            Action::RotateCcw => self.selection_op(RegionOp::RotateCcw),
            Action::CycleCursor => self.view.tool = self.view.tool.next(),
            Action::CursorDraw => self.view.tool = Tool::Draw,
            Action::CursorPick => self.view.tool = Tool::Pick,
            Action::CursorSelect => self.view.tool = Tool::Select,
            Action::CursorMove => self.view.tool = Tool::Move,
            Action::CursorZoomIn => self.view.tool = Tool::ZoomIn,
            Action::CursorZoomOut => self.view.tool = Tool::ZoomOut,
            Action::New => self.new_world(snap),
            Action::Open => super::files::open_dialog(self, snap),
            Action::Save => super::files::save_dialog(self),
            Action::Preferences => self.prefs.open = !self.prefs.open,
            Action::NextStrategy => self.next_strategy(snap),
            Action::PickStrategy => self.strategy_picker_open = !self.strategy_picker_open,
            Action::ToggleLab => {
                self.tab = match self.tab {
                    super::Tab::World => super::Tab::Lab,
                    super::Tab::Lab => super::Tab::World,
                }
            }
            Action::NewSoup => self.random_fill(snap),
            Action::GoTo => self.panel.focus_go_to = true,
        }
    }

    /// Golly's New: an empty world of the same kind (unbounded stays unbounded), step back
    /// to 1 generation at the world's base.
    pub fn new_world(&mut self, snap: &Snapshot) {
        self.view.selection = None;
        self.clear(snap);
        self.settings.step = Default::default();
        self.send_speed(snap);
    }

    /// Golly's Select All: the whole pattern's box.
    pub fn select_all(&mut self) {
        let (tx, rx) = std::sync::mpsc::channel();
        self.runner.send(Command::Bounds {
            within: None,
            reply: tx,
        });
        self.select_reply = Some(rx);
    }

    /// Golly's Shrink Selection: the box of the cells inside it, then fit it.
    pub fn shrink_selection(&mut self) {
        let Some(selection) = self.view.selection else {
            return;
        };
        let (tx, rx) = std::sync::mpsc::channel();
        self.runner.send(Command::Bounds {
            within: Some(selection),
            reply: tx,
        });
        self.select_reply = Some(rx);
        self.fit_selection_after = true;
    }
}
