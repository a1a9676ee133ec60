//! The control panel on the left of the World tab.

use egui::Ui;

use super::GolabApp;
use super::colormap::{self, Colormap};
use super::keymap::Action;
use super::world_view::Tool;
use crate::runner::{Command, Snapshot};
use crate::step::{GpuSettings, MemoryMode, Strategy};
use crate::world::Topology;

/// Size presets offered in the size menu.
const PRESETS: [u32; 9] = [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];

/// Panel fields that are edited before they are applied.
pub struct PanelState {
    /// Width and height being edited.
    pub size: (u32, u32),
    /// Rule text being edited.
    pub rule_text: String,
    /// Why the rule text does not parse.
    pub rule_error: Option<String>,
    /// Path field (when no file dialog is available).
    pub path: String,
    /// Seed of the next random fill.
    pub seed: u64,
    /// "Go to generation" text being edited.
    pub go_to_text: String,
    /// Put the keyboard in the "go to" field on the next frame (G).
    pub focus_go_to: bool,
    /// The world's size when `size` was last set from it: a world resized from elsewhere
    /// (a file's grid, a growing world) resets the fields, an edit in progress stays.
    seen_size: (u32, u32),
    unavailable: Vec<(Strategy, Option<String>)>,
}

impl PanelState {
    /// Fields initialised from `settings`.
    pub fn new(settings: &super::Settings) -> PanelState {
        PanelState {
            size: (settings.width, settings.height),
            seen_size: (settings.width, settings.height),
            rule_text: settings.rule.clone(),
            rule_error: None,
            path: String::new(),
            seed: 1,
            go_to_text: String::new(),
            focus_go_to: false,
            unavailable: Vec::new(),
        }
    }

    /// Why `strategy` cannot run here (as last told by the factory).
    pub fn unavailable(&self, strategy: Strategy) -> Option<&str> {
        self.unavailable
            .iter()
            .find(|(s, _)| *s == strategy)
            .and_then(|(_, r)| r.as_deref())
    }
}

/// Draw the panel.
pub fn show(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    if app.panel.unavailable.is_empty() {
        app.panel.unavailable = availability(app);
    }
    if let Some(reason) = &snap.gpu_lost {
        for (strategy, why) in &mut app.panel.unavailable {
            if strategy.is_gpu() && why.is_none() {
                *why = Some(format!("{reason}; restart golab to use the GPU again"));
            }
        }
    }
    run_section(app, ui, snap);
    ui.separator();
    strategy_section(app, ui, snap);
    ui.separator();
    world_section(app, ui, snap);
    ui.separator();
    view_section(app, ui, snap);
    ui.separator();
    super::patterns_panel::show(app, ui, snap);
}

fn availability(app: &GolabApp) -> Vec<(Strategy, Option<String>)> {
    let factory = match &app.gpu {
        Some(ctx) => crate::step::StepperFactory::with_context(ctx.clone()),
        None => crate::step::StepperFactory::cpu_only(),
    };
    Strategy::ALL
        .iter()
        .map(|&s| (s, factory.unavailable_reason(s)))
        .collect()
}

fn run_section(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    ui.horizontal_wrapped(|ui| {
        let label = if snap.running { "Stop" } else { "Start" };
        if ui.button(label).on_hover_text("Enter").clicked() {
            app.toggle_run(snap);
        }
        if ui
            .button("Next gen")
            .on_hover_text("Space: one generation")
            .clicked()
        {
            app.step_once();
        }
        if ui
            .button("Next step")
            .on_hover_text("Tab: one step of base^exponent generations")
            .clicked()
        {
            app.next_step(snap);
        }
        if ui
            .add_enabled(snap.can_reset, egui::Button::new("Reset"))
            .on_hover_text("Ctrl+R: back to the starting pattern (undoable)")
            .clicked()
        {
            app.reset();
        }
        if ui
            .add_enabled(snap.can_undo, egui::Button::new("Undo"))
            .on_hover_text("Z or Ctrl+Z")
            .clicked()
        {
            app.undo();
        }
        if ui
            .add_enabled(snap.can_redo, egui::Button::new("Redo"))
            .on_hover_text("Shift+Z or Ctrl+Shift+Z")
            .clicked()
        {
            app.redo();
        }
    });
    super::step_controls::show(app, ui, snap);
}

fn strategy_section(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    egui::ComboBox::from_label("strategy")
        .selected_text(snap.strategy.name())
        .height(600.0)
        .width(220.0)
        .show_ui(ui, |ui| {
            for &strategy in Strategy::ALL {
                let reason = app
                    .panel
                    .unavailable(strategy)
                    .map(str::to_owned)
                    .or_else(|| strategy.supports(&snap.rule).err());
                let item = egui::Button::selectable(snap.strategy == strategy, strategy.name());
                let response = ui
                    .add_enabled(reason.is_none(), item)
                    .on_hover_text(strategy.description())
                    .on_disabled_hover_text(reason.unwrap_or_default());
                if response.clicked() {
                    app.switch(strategy);
                }
            }
        });
    let mut settings: GpuSettings = snap.gpu_settings;
    ui.add_enabled_ui(snap.strategy.uses_memory_mode(), |ui| {
        egui::ComboBox::from_label("memory")
            .selected_text(settings.memory.name())
            .show_ui(ui, |ui| {
                for mode in MemoryMode::ALL {
                    ui.selectable_value(&mut settings.memory, mode, mode.name());
                }
            });
    });
    ui.add_enabled_ui(snap.strategy == Strategy::GpuReadbackSkip, |ui| {
        ui.add(
            egui::DragValue::new(&mut settings.readback_interval)
                .range(1..=10_000)
                .prefix("read back every ")
                .suffix(" gen"),
        );
    });
    if settings != snap.gpu_settings {
        app.settings.memory = settings.memory;
        app.settings.readback_interval = settings.readback_interval;
        app.runner.send(Command::GpuSettings(settings));
    }
}

fn world_section(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    ui.strong("World");
    let size = snap.grid_size();
    if size.is_some_and(|s| s != app.panel.seen_size) && snap.busy.is_none() {
        let size = size.unwrap_or_default();
        app.panel.seen_size = size;
        app.panel.size = size;
    }
    let bounded_as = |app: &GolabApp, width: u32, height: u32| crate::universe::Bounds {
        width,
        height,
        topology: snap
            .capabilities
            .bounded
            .map_or(app.settings.topology, |b| b.topology),
    };
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("preset")
            .selected_text("size")
            .width(60.0)
            .show_ui(ui, |ui| {
                for edge in PRESETS {
                    if ui
                        .selectable_label(size == Some((edge, edge)), format!("{edge}²"))
                        .clicked()
                    {
                        app.panel.size = (edge, edge);
                        let bounds = bounded_as(app, edge, edge);
                        app.make_bounded(bounds);
                    }
                }
            });
        let edge = crate::world::MIN_EDGE..=crate::world::MAX_EDGE;
        let w = ui.label("w");
        ui.add(egui::DragValue::new(&mut app.panel.size.0).range(edge.clone()))
            .labelled_by(w.id);
        let h = ui.label("h");
        ui.add(egui::DragValue::new(&mut app.panel.size.1).range(edge))
            .labelled_by(h.id);
        if ui
            .add_enabled(Some(app.panel.size) != size, egui::Button::new("Resize"))
            .on_hover_text("a bounded grid of this size (an unbounded world becomes bounded)")
            .clicked()
        {
            let bounds = bounded_as(app, app.panel.size.0, app.panel.size.1);
            app.make_bounded(bounds);
        }
    });
    ui.horizontal(|ui| {
        let unbounded = snap.capabilities.bounded.is_none();
        let current = snap.capabilities.bounded.map(|b| b.topology);
        if ui
            .radio(unbounded, "unbounded")
            .on_hover_text("Golly's default: no edges. The grid grows with the pattern and keeps ages on your strategy while it fits; a pattern too large for a grid, a huge step or hashlife picked from the list runs hashed")
            .clicked()
            && !unbounded
        {
            app.make_unbounded();
        }
        for (topology, label) in [
            (Topology::Torus, "torus"),
            (Topology::DeadBorder, "dead border"),
        ] {
            if ui.radio(current == Some(topology), label).clicked() && current != Some(topology) {
                app.settings.topology = topology;
                let (w, h) = size.unwrap_or(app.panel.size);
                app.make_bounded(crate::universe::Bounds {
                    width: w,
                    height: h,
                    topology,
                });
            }
        }
        super::surface_menu::surface_menu(app, ui, snap);
    });
    super::rule_menu::rule_row(app, ui, snap);
    ui.horizontal(|ui| {
        ui.add(
            egui::Slider::new(&mut app.settings.density, 0.0..=100.0)
                .suffix(" %")
                .text("density"),
        );
    });
    ui.horizontal(|ui| {
        if ui
            .button("Random fill")
            .on_hover_text("Ctrl+5: the selection if there is one, else the whole bounded grid (the start-up torus when unbounded)")
            .clicked()
        {
            app.random_fill(snap);
        }
        if ui
            .button("New")
            .on_hover_text("Ctrl+N: an empty world of the same surface (the selection's cells: Delete)")
            .clicked()
        {
            app.clear(snap);
        }
    });
}

fn view_section(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    ui.strong("View and tools");
    ui.horizontal_wrapped(|ui| {
        for tool in Tool::ALL {
            let (label, hint) = tool.describe();
            ui.selectable_value(&mut app.view.tool, tool, label)
                .on_hover_text(hint);
        }
    });
    super::state_palette::palette(app, ui, snap);
    ui.horizontal(|ui| {
        if ui
            .button("Fit pattern")
            .on_hover_text("F: frame the cells")
            .clicked()
        {
            app.fit_pattern();
        }
        if ui
            .button("Fit grid")
            .on_hover_text(
                "a bounded grid whole (unbounded: the pattern); Shift+F fits the selection",
            )
            .clicked()
        {
            app.fit();
        }
        ui.checkbox(&mut app.settings.autofit, "auto fit")
            .on_hover_text("T: keep the pattern in view while it runs (Golly's Auto Fit)");
        ui.checkbox(&mut app.settings.grid_lines, "grid lines")
            .on_hover_text("L: cell lines when zoomed in");
    });
    ui.horizontal(|ui| {
        for map in Colormap::ALL {
            ui.radio_value(&mut app.settings.colormap, map, map.label());
        }
    });
    if snap.rule.is_hexagonal() && !snap.capabilities.hashing {
        ui.checkbox(&mut app.settings.hex_cells, "hexagons")
            .on_hover_text("Draw this hexagonal rule's cells as hexagons, each row half a cell left of the one above (as Golly and LifeViewer do); off: the square grid Golly emulates the hexagonal one on (neighbours NW, N, W, E, S, SE)");
    }
    if snap.rule.is_triangular() && !snap.capabilities.hashing {
        ui.checkbox(&mut app.settings.hex_cells, "triangles")
            .on_hover_text("Draw this triangular rule's cells as triangles, pointing down where x + y is even and up where it is odd (Golly's triangular grid); off: the square grid Golly emulates it on");
    }
    let table = snap.rule.rule_table();
    if table.is_some() {
        ui.checkbox(&mut app.settings.rule_colours, "the rule's colours")
            .on_hover_text("Draw each state in the colour the rule file gives it (@COLORS); off: live cells by age, states 2 and up in the dying ramp");
    }
    if let (Some(table), true) = (&table, app.settings.rule_colours) {
        colormap::state_legend(ui, table);
    } else if !snap.capabilities.ages {
        colormap::density_legend(ui, app.settings.colormap);
    } else {
        colormap::legend(ui, app.settings.colormap, snap.rule.states());
    }
    if app.view.selection.is_some() {
        ui.label("Selection:");
        ui.horizontal_wrapped(|ui| {
            if ui.button("Copy").clicked() {
                app.copy_selection(false);
            }
            if ui.button("Cut").clicked() {
                app.copy_selection(true);
            }
            // Golly's Edit menu on the selection: each button does what its key does.
            for (label, action) in [
                ("Clear", Action::Clear),
                ("Fill", Action::RandomFill),
                ("Rotate right", Action::RotateCw),
                ("Rotate left", Action::RotateCcw),
                ("Flip H", Action::FlipLeftRight),
                ("Flip V", Action::FlipTopBottom),
                ("Clear outside", Action::ClearOutside),
                ("Advance", Action::AdvanceSelection),
                ("Advance outside", Action::AdvanceOutside),
                ("Shrink", Action::ShrinkFit),
            ] {
                if ui
                    .button(label)
                    .on_hover_text(app.settings.keys.hint(action))
                    .clicked()
                {
                    app.perform(action, ui.ctx(), snap);
                }
            }
            if ui
                .button("Deselect")
                .on_hover_text(app.settings.keys.hint(Action::RemoveSelection))
                .clicked()
            {
                app.view.selection = None;
            }
        });
    }
    ui.horizontal(|ui| {
        if ui
            .button("Select all")
            .on_hover_text(app.settings.keys.hint(Action::SelectAll))
            .clicked()
        {
            app.perform(Action::SelectAll, ui.ctx(), snap);
        }
        let paste = format!(
            "{}, then click to place",
            app.settings.keys.hint(Action::Paste)
        );
        if ui
            .add_enabled(app.clipboard.is_some(), egui::Button::new("Paste"))
            .on_hover_text(paste)
            .clicked()
        {
            app.paste(None);
        }
    });
}
