//! What buttons and keys do: one method per user action, shared by the panel and the keys.

use std::sync::Arc;
use std::sync::mpsc::channel;

use super::{GolabApp, Pending, files, initial_world};
use crate::rule::Rule;
use crate::runner::{Command, RegionOp, Snapshot, Speed};
use crate::step::Strategy;

/// Largest step exponent on a grid: 2^20 (about a million) generations per step. On the
/// unbounded plane a step goes up to 2^[`crate::runner::plane::MAX_EXPONENT`].
pub const MAX_STEP_EXP: u32 = 20;

/// Largest step exponent where the world is now (`on_plane`).
pub fn max_step_exp(on_plane: bool) -> u32 {
    if on_plane {
        crate::runner::plane::MAX_EXPONENT
    } else {
        MAX_STEP_EXP
    }
}

/// `speed` with the step exponent `exp` applied: what the simulation thread runs at.
pub fn effective_speed(speed: Speed, exp: u32) -> Speed {
    match speed {
        Speed::PerFrame(n) => Speed::PerFrame(n.saturating_mul(1 << exp.min(MAX_STEP_EXP))),
        Speed::Max => Speed::Max,
    }
}

impl GolabApp {
    /// Run or pause.
    pub fn toggle_run(&mut self, snap: &Snapshot) {
        let busy_on_plane = snap.plane.as_ref().is_some_and(|p| p.pending > 0);
        if snap.running || busy_on_plane {
            // Pausing also abandons a long hashed step in progress.
            self.runner.interrupt();
        } else {
            self.runner.send(Command::SetRunning(true));
        }
    }

    /// Advance one step: 2^(step exponent) generations.
    pub fn step_once(&mut self, snap: &Snapshot) {
        let exp = self
            .settings
            .step_exp
            .min(max_step_exp(snap.plane.is_some()));
        self.runner.send(Command::Step(1 << exp));
    }

    /// Set the running speed (the step exponent multiplies it).
    pub fn set_speed(&mut self, speed: Speed) {
        self.settings.speed = speed;
        let effective = effective_speed(speed, self.settings.step_exp);
        self.runner.send(Command::SetSpeed(effective));
    }

    /// Set the step exponent (clamped to what the world allows: [`max_step_exp`]);
    /// Golly's + and -. On the plane every running step is 2^exp generations; on a grid
    /// the exponent multiplies the speed.
    pub fn set_step_exp(&mut self, exp: u32, snap: &Snapshot) {
        self.settings.step_exp = exp.min(max_step_exp(snap.plane.is_some()));
        self.set_speed(self.settings.speed);
        self.send_plane_step();
    }

    /// Tell the plane its step, hyperspeed and memory limit (a grid ignores them).
    pub fn send_plane_step(&mut self) {
        self.runner.send(Command::PlaneStep {
            exponent: self.settings.step_exp,
            hyper: self.settings.hyperspeed,
        });
        let mib = self.settings.plane_memory_mib;
        self.runner.send(Command::PlaneMemory(
            (mib > 0).then_some(mib as usize * (1 << 20)),
        ));
    }

    /// Move the world onto the unbounded plane (hashlife).
    pub fn to_plane(&mut self) {
        self.runner.send(Command::ToPlane);
        self.send_plane_step();
        self.view.selection = None;
        self.fit_pattern();
    }

    /// Step until generation `target` (typed as a number or `2^k`).
    pub fn go_to(&mut self, text: &str, snap: &Snapshot) {
        match crate::cli::parse_count(text) {
            Ok(target)
                if target
                    > snap
                        .plane
                        .as_ref()
                        .map_or(u128::from(snap.generation), |p| p.generation) =>
            {
                self.runner.send(Command::GoTo(target));
                self.runner.send(Command::SetRunning(false));
            }
            Ok(target) => self.error(format!(
                "generation {target} is not ahead of the current one (use Reset or Undo to go back)"
            )),
            Err(e) => self.error(format!("go to generation: {e}")),
        }
    }

    /// Go back to the starting pattern (undoable) and pause.
    pub fn reset(&mut self) {
        self.runner.send(Command::Reset);
    }

    /// Fit the whole world into the view.
    pub fn fit(&mut self) {
        self.view.fit_pending = true;
    }

    /// Frame the live cells (their bounding box, asked of the simulation thread after the
    /// commands already queued, so it sees a world just opened or resized); an empty world
    /// is fitted whole.
    pub fn fit_pattern(&mut self) {
        let (tx, rx) = channel();
        self.runner.send(Command::Bounds(tx));
        self.bounds_reply = Some(rx);
    }

    /// Replace the world with a fresh soup of the panel's density (an undoable step).
    pub fn random_fill(&mut self, snap: &Snapshot) {
        match self.view.selection {
            Some(selection) => {
                let seed = self.next_seed();
                let op = RegionOp::RandomFill {
                    density: self.settings.density,
                    seed,
                };
                self.runner.send(Command::Region(selection, op));
            }
            None => {
                let mut settings = self.settings.clone();
                (settings.width, settings.height) = snap.size;
                settings.rule = snap.rule.to_string();
                settings.topology = snap.topology;
                let world = initial_world(&settings, self.next_seed());
                self.runner.send(Command::Replace(world));
                // A soup is no longer the opened pattern: its name and comments go.
                self.pattern_info = None;
            }
        }
    }

    /// Kill every cell (or those of the selection), keeping size, rule and generation 0.
    pub fn clear(&mut self, snap: &Snapshot) {
        match self.view.selection {
            Some(selection) => self
                .runner
                .send(Command::Region(selection, RegionOp::Clear)),
            None => {
                let mut settings = self.settings.clone();
                (settings.width, settings.height) = snap.size;
                settings.density = 0.0;
                settings.rule = snap.rule.to_string();
                settings.topology = snap.topology;
                self.runner
                    .send(Command::Replace(initial_world(&settings, 0)));
                self.pattern_info = None;
            }
        }
    }

    fn next_seed(&mut self) -> u64 {
        self.panel.seed = self.panel.seed.wrapping_add(1);
        self.panel.seed
    }

    /// Switch strategy if it can run here; say why not otherwise.
    pub fn switch(&mut self, strategy: Strategy) {
        self.settings.strategy = strategy;
        self.settings.strategy_chosen = true;
        self.runner.send(Command::Switch(strategy));
    }

    /// The next available strategy after the current one (Tab).
    pub fn next_strategy(&mut self, snap: &Snapshot) {
        let all = Strategy::ALL;
        let at = all.iter().position(|&s| s == snap.strategy).unwrap_or(0);
        let next = (1..=all.len())
            .map(|i| all[(at + i) % all.len()])
            .find(|&s| self.panel.unavailable(s).is_none());
        if let Some(next) = next {
            self.switch(next);
        }
    }

    /// Parse and apply a rule typed by the user.
    pub fn apply_rule(&mut self, text: &str) {
        match text.parse::<Rule>() {
            Ok(rule) => {
                self.settings.rule = rule.to_string();
                self.panel.rule_error = None;
                self.runner.send(Command::Rule(rule));
            }
            Err(e) => self.panel.rule_error = Some(e.to_string()),
        }
    }

    /// Undo the last change.
    pub fn undo(&mut self) {
        self.runner.send(Command::Undo);
    }

    /// Redo the last undone change.
    pub fn redo(&mut self) {
        self.runner.send(Command::Redo);
    }

    /// Copy the selection to the clipboard (also as RLE text), clearing it if `cut`.
    pub fn copy_selection(&mut self, cut: bool) {
        if let Some(selection) = self.view.selection {
            let (tx, rx) = channel();
            self.runner.send(Command::Copy {
                selection,
                cut,
                reply: tx,
            });
            self.copy_reply = Some(rx);
        }
    }

    /// Follow the cursor with the clipboard pattern (or `text`, if it is a pattern in any
    /// format, an apgcode, a bundled pattern name or a pattern file's path) to place it.
    pub fn paste(&mut self, text: Option<&str>) {
        let pasted = text.and_then(|t| {
            crate::pattern::parse(t, None)
                .or_else(|e| match t.trim() {
                    one_line if !one_line.contains('\n') => crate::pattern::resolve(one_line),
                    _ => Err(e),
                })
                .ok()
        });
        if let Some(pattern) = pasted {
            self.clipboard = Some(Arc::new(pattern));
        }
        if let Some(pattern) = &self.clipboard {
            self.view.placing = Some(pattern.clone());
        }
    }

    /// Apply `op` to the selection.
    pub fn selection_op(&mut self, op: RegionOp) {
        if let Some(selection) = self.view.selection {
            self.runner.send(Command::Region(selection, op));
        }
    }

    /// Ask for the world and write it to `path` as a pattern (format from the extension);
    /// the plane writes itself on the simulation thread (macrocell straight from the tree).
    pub fn save_to(&mut self, path: std::path::PathBuf) {
        let png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if !png && self.runner.snapshot().plane.is_some() {
            let comments = self
                .pattern_info
                .as_ref()
                .map(|info| info.comments.clone())
                .unwrap_or_default();
            let (tx, rx) = channel();
            self.runner.send(Command::SavePlane {
                path,
                comments,
                reply: tx,
            });
            self.plane_save_reply = Some(rx);
            return;
        }
        self.read_world_for(if png {
            Pending::ExportPng(path)
        } else {
            Pending::Save(path)
        });
    }

    /// Ask for the world and export it as a PNG image at `path`.
    pub fn export_png_to(&mut self, path: std::path::PathBuf) {
        self.read_world_for(Pending::ExportPng(path));
    }

    pub(super) fn read_world_for(&mut self, purpose: Pending) {
        let (tx, rx) = channel();
        self.runner.send(Command::Read(tx));
        self.world_reply = Some((rx, purpose));
    }

    /// Open a pattern file (or a bundled pattern name or apgcode typed as a path) as the new
    /// world, reading it on a background thread.
    pub fn open_path(&mut self, path: &std::path::Path, snap: &Snapshot) {
        files::start_open(self, &path.to_string_lossy(), snap, false);
    }
}
