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
        let selection = self.view.selection.and_then(|s| s.clipped(snap.frame));
        self.read_world_for(super::Pending::Identify(selection));
    }
}

/// Identify `selection` of `world` (plane coordinates; all of it when `None`) on a
/// background thread.
pub fn identify_world(
    world: World,
    selection: Option<crate::runner::Selection>,
) -> Receiver<Result<Identity, String>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let (ox, oy) = world.plane_origin();
        let mut pattern = match selection {
            Some(s) => {
                let x = (s.x0 - ox).clamp(0, i64::from(world.width())) as u32;
                let y = (s.y0 - oy).clamp(0, i64::from(world.height())) as u32;
                let w = (s.width() as u32).min(world.width() - x.min(world.width()));
                let h = (s.height() as u32).min(world.height() - y.min(world.height()));
                Pattern::from_region(&world, x, y, w, h)
            }
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
