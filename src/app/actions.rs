//! What buttons and keys do: one method per user action, shared by the panel and the keys.

use std::sync::Arc;
use std::sync::mpsc::channel;

use super::{GolabApp, Pending, files, initial_world};
use crate::rule::Rule;
use crate::runner::{Command, RegionOp, Snapshot};
use crate::step::Strategy;
use crate::universe::Bounds;

impl GolabApp {
    /// Run or pause (Golly's Start/Stop, Enter).
    pub fn toggle_run(&mut self, snap: &Snapshot) {
        if snap.running || snap.pending > 0 {
            // Pausing also abandons a long step in progress.
            self.runner.interrupt();
        } else {
            self.runner.send(Command::SetRunning(true));
        }
    }

    /// Advance exactly one generation (Golly's Next Generation, Space).
    pub fn step_once(&mut self) {
        self.runner.send(Command::Step(1));
    }

    /// Advance one step of base^exponent generations (Golly's Next Step, Tab).
    pub fn next_step(&mut self, snap: &Snapshot) {
        let hashing = snap.capabilities.hashing;
        self.runner
            .send(Command::Step(self.settings.step.increment(hashing)));
    }

    /// Tell the simulation thread the running speed: the step (base^exponent, or a delay)
    /// times golab's steps per frame, or as fast as it goes; and hyperspeed.
    pub fn send_speed(&mut self, snap: &Snapshot) {
        let s = &self.settings;
        let speed = s
            .step
            .speed(s.per_frame, s.max_speed, snap.capabilities.hashing);
        self.runner.send(Command::SetSpeed(speed));
        self.runner
            .send(Command::SetHyper(self.settings.hyperspeed));
    }

    /// Golly's Faster (+): the step exponent up one.
    pub fn faster(&mut self, snap: &Snapshot) {
        self.settings.step.faster(snap.capabilities.hashing);
        self.send_speed(snap);
    }

    /// Golly's Slower (−): the step exponent down one (below 0: delays).
    pub fn slower(&mut self, snap: &Snapshot) {
        self.settings.step.slower();
        self.send_speed(snap);
    }

    /// Set the step exponent (clamped to what the step model allows).
    pub fn set_step_exp(&mut self, exp: i32, snap: &Snapshot) {
        let most = self.settings.step.max_exponent(snap.capabilities.hashing);
        self.settings.step.exponent = exp.clamp(crate::runner::step_model::MIN_EXPONENT, most);
        self.send_speed(snap);
    }

    /// A file was opened: the step goes back to 1 generation at the world's base (Golly
    /// resets the exponent and base on every load).
    pub fn reset_step_for_open(&mut self) {
        self.settings.step = Default::default();
        let snap = self.runner.snapshot();
        self.send_speed(&snap);
    }

    /// Tell the simulation thread the hashed universe's memory limit and threads.
    pub fn send_memory_limit(&mut self) {
        let mib = self.settings.plane_memory_mib;
        self.runner.send(Command::Memory(
            (mib > 0).then_some(mib as usize * (1 << 20)),
        ));
        self.runner
            .send(Command::Threads(self.settings.hash_threads));
    }

    /// Make the world unbounded (Golly's default: a grid that grows with the pattern, or
    /// the hashed universe when a grid cannot hold it).
    pub fn make_unbounded(&mut self) {
        self.runner.send(Command::Unbounded);
        self.view.selection = None;
        self.fit_pattern();
    }

    /// Make the world a bounded grid of `bounds` (the pattern kept, centred as it lies).
    pub fn make_bounded(&mut self, bounds: Bounds) {
        self.runner.send(Command::Bounded(bounds));
        self.fit_pattern();
    }

    /// Step until generation `target` (typed as a number or `2^k`).
    pub fn go_to(&mut self, text: &str, snap: &Snapshot) {
        match crate::cli::parse_count(text) {
            Ok(target) if target > snap.generation => {
                self.runner.send(Command::SetRunning(false));
                self.runner.send(Command::GoTo(target));
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

    /// Fit the whole world into the view: a bounded grid whole, an unbounded world's pattern.
    pub fn fit(&mut self) {
        if self.runner.snapshot().capabilities.bounded.is_some() {
            // The latest fit wins over a pattern fit still waiting for its reply.
            self.bounds_reply = None;
            self.view.fit_pending = true;
        } else {
            self.fit_pattern();
        }
    }

    /// Frame the live cells (their bounding box, asked of the simulation thread after the
    /// commands already queued, so it sees a world just opened or resized); an empty world
    /// is fitted whole.
    pub fn fit_pattern(&mut self) {
        let (tx, rx) = channel();
        self.runner.send(Command::Bounds {
            within: None,
            reply: tx,
        });
        self.bounds_reply = Some(rx);
    }

    /// The bounded grid a new soup or a cleared world takes: the world's own, or the
    /// settings' (the torus the app starts on) when the world is unbounded.
    fn soup_settings(&self, snap: &Snapshot) -> super::Settings {
        let mut settings = self.settings.clone();
        if let Some(b) = snap.capabilities.bounded {
            (settings.width, settings.height) = (b.width, b.height);
            settings.topology = b.topology;
        }
        settings.rule = snap.rule.to_string();
        settings
    }

    /// Replace the world with a fresh soup of the panel's density (an undoable step): in the
    /// selection, else the whole bounded grid (the settings' torus when unbounded).
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
                let settings = self.soup_settings(snap);
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
                let mut settings = self.soup_settings(snap);
                settings.density = 0.0;
                let mut world = initial_world(&settings, 0);
                if snap.capabilities.bounded.is_none() {
                    // Golly's New: an empty unbounded universe.
                    world = crate::universe::convert::empty_unbounded(snap.rule).unwrap_or(world);
                }
                self.runner.send(Command::Replace(world));
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

    /// Write the world to `path` as a pattern (format from the extension), on the
    /// simulation thread: macrocell straight from the hashed tree, any format from a grid,
    /// with the opened file's comments; `.png` exports an image instead.
    pub fn save_to(&mut self, path: std::path::PathBuf) {
        let png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if png {
            return self.read_world_for(Pending::ExportPng(path));
        }
        let mut meta = crate::pattern::Pattern::default();
        if let Some(info) = &self.pattern_info {
            info.apply_to(&mut meta);
        }
        let (tx, rx) = channel();
        self.runner.send(Command::Save {
            path,
            meta: Box::new(meta),
            reply: tx,
        });
        self.save_reply = Some(rx);
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
