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
                let bounded = snap.capabilities.bounded.and(snap.frame);
                let inside = |(x, y): (i64, i64)| {
                    let (x, y) = (i128::from(x), i128::from(y));
                    bounded.is_none_or(|f| x >= f.x0 && x <= f.x1 && y >= f.y0 && y <= f.y1)
                };
                // Counted from the cell shown as the origin (Golly's Set Origin, 0).
                let (ox, oy) = app.view.shown_origin;
                let cursor = match app.view.hover.filter(|&c| inside(c)) {
                    Some((x, y)) => format!("cell ({}, {})", x - ox, y - oy),
                    None => "cell —".to_string(),
                };
                ui.monospace(cursor).on_hover_text(
                    "the cell under the cursor, in Golly's coordinates: x right, y down; a bounded grid's centre is the origin, a file's pattern keeps its own position",
                );
                ui.separator();
                ui.monospace(app.settings.step.describe(snap.capabilities.hashing))
                    .on_hover_text("Golly's step: Tab advances base^exponent generations, running goes one step a frame; + / − change the exponent, below 0 it is a delay");
                ui.separator();
            }
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                if let Some(what) = &snap.busy {
                    slow_spinner(ui);
                    ui.strong(what);
                    ui.separator();
                } else if let Some(waiting) = waiting_for_the_stepper(app) {
                    ui.strong(waiting).on_hover_text(
                        "the simulation thread is inside one batch of generations; the \
                         window stays usable, and what you asked for (pause, a switch, an \
                         edit) happens as soon as the batch ends",
                    );
                    ui.separator();
                }
                app.messages.show(ui);
            });
        });
    });
}

/// How long a batch runs before the status line says the window is waiting for it.
pub const WAIT_NOTICE: std::time::Duration = std::time::Duration::from_millis(400);

/// "waiting for the stepper…" with what it is doing, while a batch has run longer than
/// [`WAIT_NOTICE`] (read from the runner's atomics, never by waiting for the thread).
pub fn waiting_for_the_stepper(app: &GolabApp) -> Option<String> {
    let state = app.runner().stepper_state();
    let (running, gens) = state.batch.filter(|_| state.waiting(WAIT_NOTICE))?;
    let queued = match state.queued {
        0 => String::new(),
        1 => ", 1 request queued".to_string(),
        n => format!(", {n} requests queued"),
    };
    Some(format!(
        "waiting for the stepper… ({gens} generation{} for {:.1} s{queued})",
        if gens == 1 { "" } else { "s" },
        running.as_secs_f64()
    ))
}

/// A spinner that moves four times a second (egui's own asks for every frame: a window
/// waiting seconds for the simulation thread would spin a core redrawing it).
pub fn slow_spinner(ui: &mut egui::Ui) {
    const TICK: std::time::Duration = std::time::Duration::from_millis(250);
    let size = ui.spacing().interact_size.y;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let tick = (ui.input(|i| i.time) / TICK.as_secs_f64()) as u64;
    let angle = (tick % 8) as f32 * std::f32::consts::TAU / 8.0;
    let stroke = ui.visuals().widgets.noninteractive.fg_stroke;
    let radius = rect.height() * 0.35;
    let painter = ui.painter();
    painter.circle_stroke(
        rect.center(),
        radius,
        (1.0, stroke.color.gamma_multiply(0.3)),
    );
    painter.line_segment(
        [
            rect.center(),
            rect.center() + radius * egui::vec2(angle.cos(), angle.sin()),
        ],
        (2.0, stroke.color),
    );
    ui.ctx().request_repaint_after(TICK);
}
