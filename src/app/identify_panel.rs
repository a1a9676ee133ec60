//! Identify in the window: the selection (or the whole world's pattern) run on the unbounded
//! plane off the UI thread by [`crate::pattern::identify`], its figures shown under the
//! pattern info — the same report as `golab identify`.

use std::sync::mpsc::{Receiver, channel};

use super::GolabApp;
use crate::pattern::Pattern;
use crate::pattern::identify::{Identity, identify};
use crate::runner::Snapshot;
use crate::world::World;

/// Where Identify stands.
pub enum IdentifyState {
    /// Running on a background thread.
    Running(Receiver<Result<Identity, String>>),
    /// The last answer.
    Done(Box<Result<Identity, String>>),
}

impl GolabApp {
    /// Identify the selection, or the whole pattern: ask the simulation thread for the
    /// world; [`identify_world`] runs when it arrives.
    pub fn identify_start(&mut self, snap: &Snapshot) {
        if snap.plane.is_some() {
            self.error("Identify runs on a grid's pattern: select the object on the plane, copy it and paste it into a grid, or save it and run `golab identify FILE`");
            return;
        }
        let (w, h) = snap.size;
        let region = self.view.selection.and_then(|s| s.in_grid(w, h));
        self.read_world_for(super::Pending::Identify(region));
    }
}

/// Identify `region` of `world` (all of it when `None`) on a background thread.
pub fn identify_world(
    world: World,
    region: Option<crate::runner::Region>,
) -> Receiver<Result<Identity, String>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut pattern = match region {
            Some(r) => Pattern::from_region(&world, r.x, r.y, r.width, r.height),
            None => Pattern::from_world(&world),
        };
        pattern.rule = Some(world.rule());
        let _ = tx.send(identify(&pattern).map_err(|e| e.to_string()));
    });
    rx
}

/// The Identify button and the last report.
pub fn show(ui: &mut egui::Ui, app: &mut GolabApp, snap: &Snapshot) {
    ui.horizontal(|ui| {
        let running = matches!(app.identity, Some(IdentifyState::Running(_)));
        let what = if app.view.selection.is_some() {
            "the selection"
        } else {
            "the whole pattern"
        };
        if ui
            .add_enabled(!running, egui::Button::new("Identify"))
            .on_hover_text(format!(
                "what {what} is — still life, oscillator, spaceship, gun — with its period, speed, populations, heat and apgcode, run on the unbounded plane"
            ))
            .clicked()
        {
            app.identify_start(snap);
        }
        if running {
            super::status_line::slow_spinner(ui);
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
    });
    if let Some(IdentifyState::Running(rx)) = &app.identity
        && let Ok(result) = rx.try_recv()
    {
        // The status line said "identifying…": say how it ended instead.
        match &result {
            Ok(identity) => {
                let what = identity.report().first().map(|(_, v)| v.clone());
                app.notify(format!("identified: {}", what.unwrap_or_default()));
            }
            Err(why) => app.warn(format!("identify: {why}")),
        }
        app.identity = Some(IdentifyState::Done(Box::new(result)));
    }
    let done = match &app.identity {
        Some(IdentifyState::Done(result)) => Some(result.as_ref()),
        _ => None,
    };
    match done {
        Some(Ok(identity)) => {
            egui::Grid::new("identify report").show(ui, |ui| {
                for (name, value) in identity.report() {
                    ui.label(egui::RichText::new(name).weak());
                    ui.label(value);
                    ui.end_row();
                }
            });
        }
        Some(Err(why)) => {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        None => {}
    }
}
