//! The Patterns section of the control panel: open, save, export, place, the path field
//! and the bundled library.

use std::sync::Arc;

use egui::Ui;

use super::GolabApp;
use crate::pattern::library;
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
    ui.horizontal(|ui| {
        let label = ui.label("library");
        ui.add(egui::TextEdit::singleline(&mut app.panel.filter).hint_text("filter"))
            .labelled_by(label.id);
    });
    let filter = app.panel.filter.to_ascii_lowercase();
    egui::ScrollArea::vertical()
        .id_salt("library")
        .max_height(180.0)
        .show(ui, |ui| {
            for entry in library::library() {
                if !filter.is_empty() && !entry.name.to_ascii_lowercase().contains(&filter) {
                    continue;
                }
                let response = ui
                    .selectable_label(false, entry.name)
                    .on_hover_text(entry.file);
                if response.clicked() {
                    match entry.pattern() {
                        Ok(mut pattern) => {
                            pattern.name.get_or_insert_with(|| entry.name.to_string());
                            app.view.placing = Some(Arc::new(pattern));
                        }
                        Err(e) => app.error(format!("{}: {e}", entry.name)),
                    }
                }
            }
        });
}
