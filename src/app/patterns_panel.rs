//! The Patterns section of the control panel: open, save, export, place, the path field,
//! the opened file's info and Identify (the pattern browser on the left lists patterns).

use egui::Ui;

use super::GolabApp;
use crate::runner::Snapshot;

/// Draw the Patterns section.
pub fn show(app: &mut GolabApp, ui: &mut Ui, snap: &Snapshot) {
    ui.strong("Patterns");
    ui.horizontal(|ui| {
        if ui
            .button("Open…")
            .on_hover_text("Ctrl+O; or drop a file on the window")
            .clicked()
        {
            super::files::open_dialog(app, snap);
        }
        if ui.button("Save…").on_hover_text("Ctrl+S").clicked() {
            super::files::save_dialog(app);
        }
        if ui.button("Export PNG…").clicked() {
            super::files::export_dialog(app);
        }
    });
    if ui
        .button("Place from file…")
        .on_hover_text("the pattern follows the cursor; click to place it")
        .clicked()
    {
        super::files::place_dialog(app);
    }
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut app.panel.path)
                .hint_text("or a path, name or apgcode")
                .desired_width(150.0),
        );
        // Enter in the field opens, as the Open button beside it does.
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let path = std::path::PathBuf::from(app.panel.path.trim());
        let has = !app.panel.path.trim().is_empty();
        if ui.add_enabled(has, egui::Button::new("Open")).clicked() || (has && entered) {
            app.open_path(&path, snap);
        }
        if ui.add_enabled(has, egui::Button::new("Save")).clicked() {
            app.save_to(path.clone());
        }
        if ui.add_enabled(has, egui::Button::new("Place")).clicked() {
            super::files::place_file(app, &path);
        }
    });
    super::pattern_info::show(ui, app.pattern_info.as_ref());
    super::identify_panel::show(ui, app, snap);
    ui.weak("golab's library, Golly's patterns, your folders and recent files: the browser on the left (Show files in the top bar)");
}
