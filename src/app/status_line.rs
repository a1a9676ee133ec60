//! The status line at the bottom of the window: the message area (notes, warnings, errors)
//! on the left; on the right what the simulation thread is busy with, the cell under the
//! cursor and the selection's size, as Golly shows them.

use super::{GolabApp, Tab};
use crate::runner::Snapshot;

/// Draw the status line.
pub fn show(app: &mut GolabApp, ui: &mut egui::Ui, snap: &Snapshot) {
    ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if app.tab == Tab::World {
                if let Some(sel) = app.view.selection {
                    ui.label(format!("selection {}×{}", sel.width(), sel.height()))
                        .on_hover_text(format!("from cell ({}, {})", sel.x0, sel.y0));
                    ui.separator();
                }
                let (w, h) = snap.size;
                let plane = snap.plane.is_some();
                let inside = |(x, y): (i64, i64)| {
                    plane || (x >= 0 && y >= 0 && x < w.into() && y < h.into())
                };
                let cursor = match app.view.hover.filter(|&c| inside(c)) {
                    Some((x, y)) => format!("cell ({x}, {y})"),
                    None => "cell —".to_string(),
                };
                ui.monospace(cursor)
                    .on_hover_text(if plane {
                        "the cell under the cursor (plane coordinates: x right, y down, the origin where the grid's centre was)"
                    } else {
                        "the cell under the cursor (column, row from the top left)"
                    });
                ui.separator();
                let exp = app.settings.step_exp;
                ui.monospace(format!("step 2^{exp}"))
                    .on_hover_text("a step (N) is 2^n generations; + / - change n");
                ui.separator();
            }
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                if let Some(what) = &snap.busy {
                    // The spinner animates (and so repaints) only while the thread is busy.
                    ui.spinner();
                    ui.strong(what);
                    ui.separator();
                }
                app.messages.show(ui);
            });
        });
    });
}
