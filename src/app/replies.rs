//! The app's replies: what the simulation thread and background threads answer to the
//! UI's requests (opened files, PNG exports, copies, bounds, worlds to save), taken each frame
//! without blocking.

use std::sync::Arc;

use super::{GolabApp, Pending, files};

impl GolabApp {
    /// Take what the simulation thread and background work answered since the last frame
    /// (opened files, PNG exports, copied selections, pattern bounds, worlds to save).
    pub(super) fn collect_replies(&mut self, ctx: &egui::Context) {
        let mut finished = Vec::new();
        self.exports.retain(|rx| match rx.try_recv() {
            Ok(result) => {
                finished.push(result);
                false
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => true,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                finished.push(Err("the PNG export stopped unexpectedly".into()));
                false
            }
        });
        for result in finished {
            match result {
                Ok(note) => self.notify(note),
                Err(e) => self.error(e),
            }
        }
        if files::collect_opened(self) || !self.exports.is_empty() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if let Some(rx) = &self.copy_reply
            && let Ok(copied) = rx.try_recv()
        {
            self.copy_reply = None;
            match copied {
                Ok(pattern) => {
                    ctx.copy_text(pattern.to_rle());
                    self.notify(format!("copied {} cells", pattern.population()));
                    self.clipboard = Some(Arc::new(pattern));
                }
                Err(e) => self.error(e),
            }
        }
        if let Some(rx) = &self.save_reply
            && let Ok(saved) = rx.try_recv()
        {
            self.save_reply = None;
            match saved {
                Ok(note) => self.notify(note),
                Err(e) => self.error(e),
            }
        }
        if let Some(rx) = &self.select_reply
            && let Ok(bounds) = rx.try_recv()
        {
            self.select_reply = None;
            self.view.selection = bounds;
            if std::mem::take(&mut self.fit_selection_after)
                && let Some(s) = bounds
            {
                self.view.fit_cells = Some(s);
            }
        }
        if let Some(rx) = &self.view.pick_reply
            && let Ok(state) = rx.try_recv()
        {
            self.view.pick_reply = None;
            if state > 0 {
                self.view.paint_state = state;
                self.notify(format!("drawing with state {state}"));
            }
        }
        if let Some(rx) = &self.bounds_reply
            && let Ok(bounds) = rx.try_recv()
        {
            match bounds {
                Some(region) => self.view.fit_cells = Some(region),
                None => self.view.fit_pending = true,
            }
            self.bounds_reply = None;
        }
        if let Some((rx, _)) = &self.world_reply
            && let Ok(read) = rx.try_recv()
            && let Some((_, purpose)) = self.world_reply.take()
        {
            let world = match read {
                Ok(world) => world,
                Err(e) => {
                    self.error(e);
                    return;
                }
            };
            let result: Result<String, String> = match purpose {
                Pending::ExportPng(path) => {
                    // Encoding a large world takes a while: keep it off the UI thread.
                    let (tx, rx) = std::sync::mpsc::channel();
                    let map = self.settings.colormap;
                    std::thread::spawn(move || {
                        let _ = tx.send(files::export_png(&world, &path, map));
                    });
                    self.exports.push(rx);
                    Ok("exporting PNG…".to_string())
                }
                Pending::Identify(region) => {
                    let rx = super::identify_panel::identify_world(world, region);
                    self.identity = Some(super::identify_panel::IdentifyState::Running(rx));
                    Ok("identifying…".to_string())
                }
            };
            match result {
                Ok(note) => self.notify(note),
                Err(e) => self.error(e),
            }
        }
    }
}
