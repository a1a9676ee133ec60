//! Keyboard: each key press looked up in the keymap (Golly's keys unless changed in the
//! preferences) and done; the help window lists the bindings as they are.

use egui::{Event, Key};

use super::GolabApp;
use super::keymap::Action;
use crate::runner::Snapshot;

/// React to this frame's keys, unless a text field has the keyboard (or the preferences
/// are waiting for a key to bind). On the Lab tab only the help and the tab switch work:
/// the world's keys would act on a world the user cannot see.
pub fn handle(app: &mut GolabApp, ctx: &egui::Context, snap: &Snapshot) {
    if super::preferences::capture(app, ctx) || ctx.text_edit_focused() {
        return;
    }
    let actions = take_actions(app, ctx);
    for action in actions {
        if app.tab == super::Tab::Lab && !matches!(action, Action::Help | Action::ToggleLab) {
            continue;
        }
        app.perform(action, ctx, snap);
    }
    // Esc: close the help, cancel placing, then the selection (Golly's order, roughly).
    if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Escape)) {
        if app.help_open {
            app.help_open = false;
        } else if app.view.placing.is_some() {
            app.view.placing = None;
        } else {
            app.view.selection = None;
        }
    }
    let clipboard: Vec<Event> = ctx.input(|i| {
        i.events
            .iter()
            .filter(|e| matches!(e, Event::Copy | Event::Cut | Event::Paste(_)))
            .cloned()
            .collect()
    });
    for event in clipboard {
        match event {
            Event::Copy => app.copy_selection(false),
            Event::Cut => app.copy_selection(true),
            Event::Paste(text) => app.paste(Some(&text)),
            _ => {}
        }
    }
}

/// The actions this frame's key presses and typed symbols name, removing those events so
/// no widget also acts on them (Tab would move the focus, Space press a focused button).
fn take_actions(app: &GolabApp, ctx: &egui::Context) -> Vec<Action> {
    let keys = &app.settings.keys;
    let mut actions = Vec::new();
    ctx.input_mut(|i| {
        i.events.retain(|event| {
            let action = match event {
                Event::Key {
                    key,
                    pressed: true,
                    modifiers,
                    ..
                } => keys.action_of_key(*key, *modifiers),
                Event::Text(text) if text.chars().count() == 1 => {
                    text.chars().next().and_then(|c| keys.action_of_char(c))
                }
                _ => None,
            };
            match action {
                Some(a) => {
                    actions.push(a);
                    false
                }
                None => true,
            }
        });
    });
    if !actions.is_empty() {
        // egui read Tab and Enter at the start of the frame too: keep the focus off widgets.
        ctx.memory_mut(|m| m.move_focus(egui::FocusDirection::None));
    }
    actions
}

/// The help window: every binding as it is now, and the mouse.
pub fn help_window(app: &mut GolabApp, ctx: &egui::Context) {
    let mut open = app.help_open;
    egui::Window::new("Keys and mouse")
        .open(&mut open)
        .collapsible(false)
        .vscroll(true)
        .default_height(560.0)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("Golly's keys; change them in Preferences (,).");
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for &action in Action::ALL {
                    let chords = app.settings.keys.chords_of(action);
                    let keys: Vec<String> = chords.iter().map(ToString::to_string).collect();
                    ui.strong(if keys.is_empty() {
                        "—".to_string()
                    } else {
                        keys.join(", ")
                    });
                    ui.label(action.describe());
                    ui.end_row();
                }
                for (keys, what) in MOUSE {
                    ui.strong(*keys);
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
    app.help_open = open;
}

/// What the mouse does, listed after the keys.
pub const MOUSE: &[(&str, &str)] = &[
    ("Wheel", "zoom about the cursor"),
    ("Middle drag", "pan (also right drag outside the Draw tool)"),
    (
        "Left drag / right drag",
        "draw / erase (Draw); select (Select); pan (Move); zoom (zoom cursors)",
    ),
    (
        "Click (Pick)",
        "take the cell's state as the one to draw with",
    ),
    ("Shift+click", "place the pattern and keep placing copies"),
    (
        "Esc",
        "close the help; cancel placing; remove the selection",
    ),
];
