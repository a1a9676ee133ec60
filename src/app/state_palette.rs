//! The Draw tool's state palette for many-state rules (rule tables, JvN, Generations): which
//! state a left drag paints, shown with the rule's own names and colours.

use egui::Color32;

use super::GolabApp;
use crate::runner::Snapshot;

/// The palette row of the View section; nothing under a two-state rule. A state the rule
/// no longer has (after a rule change) falls back to 1.
pub(super) fn palette(app: &mut GolabApp, ui: &mut egui::Ui, snap: &Snapshot) {
    let states = snap.rule.states();
    if u16::from(app.view.paint_state) >= states {
        app.view.paint_state = 1;
    }
    if states <= 2 {
        return;
    }
    let table = snap.rule.rule_table();
    let describe = |state: u8| -> (Color32, String) {
        match &table {
            Some(t) => {
                let [r, g, b] = t.colors[usize::from(state)];
                let name = &t.names[usize::from(state)];
                (Color32::from_rgb(r, g, b), format!("{state} {name}"))
            }
            None if state == 1 => (
                super::colormap::colour(app.settings.colormap, 0),
                "1 alive".into(),
            ),
            None => (super::colormap::DYING_FIRST, format!("{state} dying")),
        }
    };
    ui.horizontal(|ui| {
        let (colour, text) = describe(app.view.paint_state);
        swatch(ui, colour);
        egui::ComboBox::from_label("paints")
            .selected_text(text)
            .height(420.0)
            .show_ui(ui, |ui| {
                for state in 1..states.min(256) as u8 {
                    let (colour, text) = describe(state);
                    ui.horizontal(|ui| {
                        swatch(ui, colour);
                        ui.selectable_value(&mut app.view.paint_state, state, text);
                    });
                }
            })
            .response
            .on_hover_text("the state the Draw tool paints (right drag or Ctrl erases to state 0); states 2 and up are written into the world, which the strategy reloads");
    });
}

fn swatch(ui: &mut egui::Ui, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, colour);
}
