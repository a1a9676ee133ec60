//! Keyboard shortcuts and the help overlay that lists them.

use egui::{Event, Key, KeyboardShortcut, Modifiers};

use super::GolabApp;
use crate::runner::Snapshot;

/// Every shortcut, as shown in the help overlay.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "run / pause (hold and drag: pan)"),
    ("N", "step (2^n generations, n the step exponent)"),
    (
        "+ / -",
        "step exponent up / down (also multiplies the running speed)",
    ),
    ("Ctrl+R", "reset to the starting pattern (undoable)"),
    (
        "F / Shift+F",
        "fit the pattern (live cells) / the whole world",
    ),
    ("R", "random fill (the selection, if any)"),
    ("C", "clear (the selection, if any)"),
    ("Tab", "next strategy"),
    ("Ctrl+O / Ctrl+S", "open / save a pattern"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
    (
        "Ctrl+C / Ctrl+X / Ctrl+V",
        "copy / cut / paste (RLE text too)",
    ),
    ("Delete", "clear the selection"),
    ("Esc", "close this help; cancel placing, deselect"),
    ("Shift+click", "place the pattern and keep placing copies"),
    ("F1 or ?", "this help"),
    ("Wheel", "zoom about the cursor"),
    (
        "Middle drag, Space+drag",
        "pan (also right drag outside the Draw tool)",
    ),
    (
        "Left drag / right drag",
        "draw / erase (Draw tool); select (Select tool)",
    ),
];

/// React to this frame's keys, unless a text field has the keyboard. On the Lab tab only
/// the help key works: the world's shortcuts would act on a world the user cannot see.
pub fn handle(app: &mut GolabApp, ctx: &egui::Context, snap: &Snapshot) {
    if ctx.text_edit_focused() {
        return;
    }
    if app.tab == super::Tab::Lab {
        toggle_help(app, ctx);
        return;
    }
    let pressed = |key: Key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
    let command = |key: Key| {
        ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, key)))
    };
    let redo = ctx.input_mut(|i| {
        i.consume_shortcut(&KeyboardShortcut::new(
            Modifiers::COMMAND | Modifiers::SHIFT,
            Key::Z,
        )) || i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Y))
    });
    if redo {
        app.redo();
    } else if command(Key::Z) {
        app.undo();
    }
    if command(Key::R) {
        app.reset();
    }
    if command(Key::O) {
        super::files::open_dialog(app, snap);
    }
    if command(Key::S) {
        super::files::save_dialog(app);
    }
    let space_up = ctx.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                Event::Key {
                    key: Key::Space,
                    pressed: false,
                    ..
                }
            )
        })
    });
    if space_up && !app.view.space_panned {
        app.toggle_run(snap);
    }
    if space_up {
        app.view.space_panned = false;
    }
    if pressed(Key::N) {
        app.step_once();
    }
    if pressed(Key::Plus) || pressed(Key::Equals) {
        app.faster(snap);
    }
    if pressed(Key::Minus) {
        app.slower(snap);
    }
    if ctx.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::F)) {
        app.fit();
    }
    if pressed(Key::F) {
        app.fit_pattern();
    }
    if pressed(Key::R) {
        app.random_fill(snap);
    }
    if pressed(Key::C) {
        app.clear(snap);
    }
    if pressed(Key::Tab) {
        app.next_strategy(snap);
        // egui read the same Tab at the start of the frame as "focus the next widget";
        // undo that, or the focused widget would swallow every later shortcut.
        ctx.memory_mut(|m| m.move_focus(egui::FocusDirection::None));
    }
    if pressed(Key::Delete) || pressed(Key::Backspace) {
        app.selection_op(crate::runner::RegionOp::Clear);
    }
    toggle_help(app, ctx);
    if pressed(Key::Escape) {
        app.view.placing = None;
        app.view.selection = None;
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

/// The help overlay listing [`SHORTCUTS`].
pub fn help_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard and mouse")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for (keys, what) in SHORTCUTS {
                    ui.strong(*keys);
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
}

/// F1 or `?` opens and closes the help overlay; Esc closes it (and does nothing else then).
fn toggle_help(app: &mut GolabApp, ctx: &egui::Context) {
    if app.help_open && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Escape)) {
        app.help_open = false;
        return;
    }
    let f1 = ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F1));
    let question = ctx.input(|i| {
        i.events
            .iter()
            .any(|e| matches!(e, Event::Text(t) if t == "?"))
    });
    if f1 || question {
        app.help_open = !app.help_open;
    }
}
