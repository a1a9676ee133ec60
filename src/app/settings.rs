//! What the app remembers between launches (stored by eframe's persistence).

use serde::{Deserialize, Serialize};

use super::colormap::Colormap;
use super::world_view::Tool;
use crate::runner::step_model::StepModel;
use crate::step::{MemoryMode, Strategy};
use crate::world::Topology;

/// Key of the settings in eframe's storage.
pub const STORAGE_KEY: &str = "golab-settings";

/// Persisted choices of the control panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Strategy stepping the world.
    pub strategy: Strategy,
    /// Whether the user chose `strategy` (the strategy list, Tab, `--strategy`); until then
    /// golab starts on the default for the device ([`default_strategy`]).
    pub strategy_chosen: bool,
    /// World width.
    pub width: u32,
    /// World height.
    pub height: u32,
    /// Rule text as the user typed it.
    pub rule: String,
    /// Torus or dead border.
    pub topology: Topology,
    /// Percent of live cells of a random fill.
    pub density: f64,
    /// Cell colouring.
    pub colormap: Colormap,
    /// Steps a frame while running (golab's speed; Golly runs one): each step is
    /// [`Settings::step`]'s base^exponent generations.
    pub per_frame: u32,
    /// Run as fast as possible instead of `per_frame` steps a frame.
    pub max_speed: bool,
    /// Golly's step: base^exponent generations, a delay below 0 (changed with + and −).
    pub step: StepModel,
    /// Where the world hashes: the running step grows while steps stay fast (Golly's
    /// hyperspeed).
    pub hyperspeed: bool,
    /// Memory limit of the hashed universe's node store in MiB; 0: a quarter of the memory
    /// available (at least 64 MiB, at most 4 GiB).
    pub plane_memory_mib: u32,
    /// Threads the hashed universe steps with (every core by default; 1: the
    /// single-threaded engine).
    pub hash_threads: crate::hashlife::Threads,
    /// Host↔device memory mode of GPU strategies.
    pub memory: MemoryMode,
    /// Download period of gpu-readback-skip.
    pub readback_interval: u32,
    /// Tool of the world view.
    pub tool: Tool,
    /// Rule tables: draw each state in the rule's `@COLORS` (off: ages and the dying ramp).
    pub rule_colours: bool,
    /// Draw hexagonal rules as hexagons (off: on the square grid Golly emulates them on).
    pub hex_cells: bool,
    /// The start-up probe's choice per adapter ([`adapter_key`]), so it runs once per
    /// machine ([`crate::step::probe`]); unused once the user picks a strategy.
    pub probed: std::collections::BTreeMap<String, Strategy>,
    /// Which key does what (Golly's defaults until changed in the preferences).
    pub keys: super::keymap::Keymap,
    /// The user's own rules folder (`None`: Golly's user rules folder, if there is one).
    pub rules_folder: Option<std::path::PathBuf>,
    /// A Golly installation named by hand (one found at the known places needs none).
    pub golly_folder: Option<std::path::PathBuf>,
    /// The user's own pattern folders, shown in the pattern browser.
    pub pattern_folders: Vec<std::path::PathBuf>,
    /// Files opened lately, newest first (at most [`RECENT`]).
    pub recent: Vec<std::path::PathBuf>,
    /// Show the pattern browser on the left (Golly's Show Files).
    pub show_files: bool,
    /// Keep the pattern in view while it runs (Golly's Auto Fit, T).
    pub autofit: bool,
    /// Draw grid lines when zoomed in (Golly's Show Grid Lines, L).
    pub grid_lines: bool,
    /// Invert the colours (Golly's Invert Colors, B).
    pub invert: bool,
    /// Counters in full (off, as Golly starts: from a billion up as `1.235e12`; Golly's Show
    /// Exact Numbers).
    pub exact_numbers: bool,
}

/// Recent files kept (Golly's default).
pub const RECENT: usize = 20;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            strategy: Strategy::GpuResident,
            strategy_chosen: false,
            width: 1024,
            height: 1024,
            rule: "B3/S23".into(),
            topology: Topology::Torus,
            density: 30.0,
            colormap: Colormap::Continuous,
            per_frame: 1,
            max_speed: false,
            step: StepModel::default(),
            hyperspeed: false,
            plane_memory_mib: 0,
            hash_threads: crate::hashlife::Threads::EVERY_CORE,
            memory: MemoryMode::Normal,
            readback_interval: 10,
            tool: Tool::Draw,
            rule_colours: true,
            hex_cells: true,
            probed: Default::default(),
            keys: super::keymap::Keymap::golly(),
            rules_folder: None,
            golly_folder: None,
            pattern_folders: Vec::new(),
            recent: Vec::new(),
            show_files: true,
            autofit: false,
            grid_lines: true,
            invert: false,
            exact_numbers: false,
        }
    }
}

impl Settings {
    /// Read from eframe storage, falling back to defaults for anything missing or invalid.
    pub fn load(storage: Option<&dyn eframe::Storage>) -> Settings {
        storage
            .and_then(|s| eframe::get_value::<Settings>(s, STORAGE_KEY))
            .map(Settings::sanitized)
            .unwrap_or_default()
    }

    /// Clamp values a hand-edited or older settings file may have out of range.
    pub fn sanitized(mut self) -> Settings {
        let edge = crate::world::MIN_EDGE..=crate::world::MAX_EDGE;
        if !edge.contains(&self.width) || !edge.contains(&self.height) {
            (self.width, self.height) = (1024, 1024);
        }
        if self.rule.parse::<crate::rule::Rule>().is_err() {
            self.rule = "B3/S23".into();
        }
        self.density = self.density.clamp(0.0, 100.0);
        self.readback_interval = self.readback_interval.clamp(1, 10_000);
        self.step.exponent = self.step.exponent.clamp(
            crate::runner::step_model::MIN_EXPONENT,
            self.step.max_exponent(false),
        );
        if self
            .step
            .base
            .is_some_and(|b| !crate::runner::step_model::BASES.contains(&b))
        {
            self.step.base = None;
        }
        self.per_frame = self.per_frame.clamp(1, 1000);
        self.recent.truncate(RECENT);
        self
    }

    /// Put `path` first among the recent files.
    pub fn remember_recent(&mut self, path: &std::path::Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT);
    }

    /// Where rule files are looked for under these settings.
    pub fn rule_folders(&self) -> crate::rule::table::library::RuleFolders {
        let named: Vec<_> = self.golly_folder.iter().cloned().collect();
        crate::rule::table::library::RuleFolders::detect_with(self.rules_folder.clone(), &named)
    }

    /// The Golly installations whose Patterns the browser shows: the one named here, then
    /// those found.
    pub fn golly_installations(&self) -> Vec<crate::golly::Installation> {
        let mut all: Vec<_> = self
            .golly_folder
            .iter()
            .filter_map(|f| crate::golly::Installation::at(f))
            .collect();
        for i in crate::golly::installations() {
            if !all.contains(&i) {
                all.push(i);
            }
        }
        all
    }
}

/// The key the start-up probe's choice is kept under: the adapter's name, driver and
/// backend (`cpu only` without a GPU).
pub fn adapter_key(info: Option<&wgpu::AdapterInfo>) -> String {
    match info {
        Some(i) => format!(
            "{} | {} {} | {:?}",
            i.name, i.driver, i.driver_info, i.backend
        ),
        None => "cpu only".into(),
    }
}

/// The strategy a new user starts on before the probe has run: cpu-bitsliced without a GPU or on a software driver
/// (lavapipe, llvmpipe: about 2 500 GPS at 1024² on 2 cores where gpu-resident runs ~10,
/// and building gpu-bitpacked's pipelines there takes seconds), gpu-bitpacked on a real GPU
/// (the fastest strategy on every lent GPU: docs/benchmarks.md).
pub fn default_strategy(device: Option<wgpu::DeviceType>) -> Strategy {
    match device {
        None | Some(wgpu::DeviceType::Cpu) => Strategy::CpuBitsliced,
        Some(_) => Strategy::GpuBitpacked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_survive_a_json_round_trip_and_bad_values_are_fixed() {
        let s = Settings {
            width: 8192,
            density: 12.5,
            ..Settings::default()
        };
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Settings>(&text).unwrap(), s);
        let bad = Settings {
            width: 1,
            rule: "B9/S".into(),
            density: 400.0,
            ..s
        }
        .sanitized();
        assert_eq!(
            (bad.width, bad.rule.as_str(), bad.density),
            (1024, "B3/S23", 100.0)
        );
    }
}
