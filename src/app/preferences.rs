//! The preferences window (Golly's Preferences, `,`): the folders golab reads Golly's way —
//! your rules folder, Golly's installation, your pattern folders — and the key bindings,
//! each changed by pressing the new key. Everything here is remembered between launches.

use std::path::PathBuf;

use super::GolabApp;
use super::keymap::{Action, Chord, Keymap};

/// What the window is doing between frames.
#[derive(Default)]
pub struct PrefsState {
    /// Whether the window is open.
    pub open: bool,
    /// The action whose next key press becomes a binding.
    pub capturing: Option<Action>,
    /// The rules-folder field being edited.
    rules_text: String,
    /// The Golly-folder field being edited.
    golly_text: String,
    /// The pattern-folder field being edited.
    folder_text: String,
}

/// Apply the folder settings: where rule files are looked for from now on.
pub fn install_folders(app: &GolabApp) {
    crate::rule::table::library::install(app.settings.rule_folders());
}

/// Draw the window.
pub fn show(app: &mut GolabApp, ctx: &egui::Context) {
    if !app.prefs.open {
        return;
    }
    let mut open = true;
    egui::Window::new("Preferences")
        .open(&mut open)
        .default_width(560.0)
        .vscroll(true)
        .show(ctx, |ui| {
            egui::CollapsingHeader::new("Folders")
                .default_open(true)
                .show(ui, |ui| folders(app, ui));
            egui::CollapsingHeader::new("Keys")
                .default_open(true)
                .show(ui, |ui| keys(app, ui));
        });
    app.prefs.open = open;
}

/// A path field with Choose… (a folder dialog) and Clear; returns the new value when it
/// changed.
fn folder_row(
    ui: &mut egui::Ui,
    label: &str,
    hint: &str,
    text: &mut String,
    current: Option<&PathBuf>,
) -> Option<Option<PathBuf>> {
    let mut changed = None;
    ui.horizontal(|ui| {
        let l = ui.label(label).on_hover_text(hint);
        if text.is_empty()
            && let Some(c) = current
        {
            *text = c.display().to_string();
        }
        let field = ui
            .add(egui::TextEdit::singleline(text).desired_width(260.0))
            .labelled_by(l.id);
        if field.lost_focus() {
            let path = PathBuf::from(text.trim());
            if text.trim().is_empty() {
                changed = Some(None);
            } else if path.is_dir() {
                changed = Some(Some(path));
            }
        }
        if ui.button("Choose…").clicked()
            && let Some(dir) = rfd::FileDialog::new().pick_folder()
        {
            *text = dir.display().to_string();
            changed = Some(Some(dir));
        }
        if ui.button("Clear").clicked() {
            text.clear();
            changed = Some(None);
        }
    });
    changed
}

fn folders(app: &mut GolabApp, ui: &mut egui::Ui) {
    let effective = app.settings.rule_folders();
    let mut text = std::mem::take(&mut app.prefs.rules_text);
    if let Some(new) = folder_row(
        ui,
        "Your rules",
        "your own .rule files, found before golab's bundled rules and Golly's (Golly's user rules folder when empty)",
        &mut text,
        app.settings.rules_folder.as_ref(),
    ) {
        app.settings.rules_folder = new;
        install_folders(app);
    }
    app.prefs.rules_text = text;
    ui.weak(format!("rules are looked for in: {}", effective.describe()));
    let mut text = std::mem::take(&mut app.prefs.golly_text);
    if let Some(new) = folder_row(
        ui,
        "Golly's folder",
        "an installation of Golly (the folder holding Patterns, Rules and Scripts); found by itself where Golly is installed",
        &mut text,
        app.settings.golly_folder.as_ref(),
    ) {
        if let Some(dir) = &new
            && crate::golly::Installation::at(dir).is_none()
        {
            app.warn(format!(
                "{} holds no Patterns or Rules folder: not a Golly installation",
                dir.display()
            ));
        } else {
            app.settings.golly_folder = new;
            install_folders(app);
            app.browser.refresh();
        }
    }
    app.prefs.golly_text = text;
    let found = app.settings.golly_installations();
    if found.is_empty() {
        ui.weak(
            "no Golly installation found (Debian/Ubuntu: apt install golly; or choose its folder)",
        );
    } else {
        for i in &found {
            ui.weak(format!("Golly at {}", i.root.display()));
        }
    }
    ui.separator();
    ui.label("Your pattern folders (the pattern browser lists them)");
    let mut remove = None;
    for (k, folder) in app.settings.pattern_folders.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.monospace(folder.display().to_string());
            if ui
                .small_button("×")
                .on_hover_text("stop listing it")
                .clicked()
            {
                remove = Some(k);
            }
        });
    }
    if let Some(k) = remove {
        app.settings.pattern_folders.remove(k);
        app.browser.refresh();
    }
    let mut text = std::mem::take(&mut app.prefs.folder_text);
    if let Some(Some(dir)) = folder_row(ui, "Add", "a folder of patterns", &mut text, None)
        && !app.settings.pattern_folders.contains(&dir)
    {
        app.settings.pattern_folders.push(dir);
        app.browser.refresh();
        text.clear();
    }
    app.prefs.folder_text = text;
}

fn keys(app: &mut GolabApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.label("Golly's keys by default; click a key to remove it, Add to bind another.");
        if ui.button("Restore Golly's keys").clicked() {
            app.settings.keys = Keymap::golly();
            app.prefs.capturing = None;
        }
    });
    egui::Grid::new("key bindings")
        .striped(true)
        .show(ui, |ui| {
            for &action in Action::ALL {
                ui.label(action.describe());
                ui.horizontal(|ui| {
                    for chord in app.settings.keys.chords_of(action) {
                        if ui
                            .small_button(chord.to_string())
                            .on_hover_text("click to unbind")
                            .clicked()
                        {
                            app.settings.keys.unbind(chord);
                        }
                    }
                    let capturing = app.prefs.capturing == Some(action);
                    let label = if capturing {
                        "press a key… (Esc: cancel)"
                    } else {
                        "Add"
                    };
                    if ui.small_button(label).clicked() {
                        app.prefs.capturing = (!capturing).then_some(action);
                    }
                });
                ui.end_row();
            }
        });
}

/// While the window waits for a key: take this frame's first key press as the new chord
/// for the action being bound. Returns whether it took the keyboard this frame.
pub fn capture(app: &mut GolabApp, ctx: &egui::Context) -> bool {
    let Some(action) = app.prefs.capturing else {
        return false;
    };
    let pressed = ctx.input(|i| {
        i.events.iter().find_map(|e| match e {
            egui::Event::Key {
                key,
                pressed: true,
                modifiers,
                ..
            } => Some((*key, *modifiers)),
            _ => None,
        })
    });
    if let Some((key, modifiers)) = pressed {
        if key != egui::Key::Escape {
            let chord = Chord::Key {
                key,
                shift: modifiers.shift,
                command: modifiers.command,
                alt: modifiers.alt,
            };
            app.settings.keys.bind(chord, action);
        }
        app.prefs.capturing = None;
        ctx.input_mut(|i| i.events.clear());
    }
    true
}
