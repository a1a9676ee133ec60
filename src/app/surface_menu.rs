//! The world section's menu of Golly's other bounded grids (beside the torus and dead-border
//! radio buttons).

use super::GolabApp;
use crate::runner::{Command, Snapshot};
use crate::world::{Join, Topology};

/// Golly's other bounded grids, picked from a menu beside the torus and the dead border;
/// the current one (a file's shifted torus among them) is shown selected.
pub(super) fn surface_menu(
    app: &mut GolabApp,
    ui: &mut egui::Ui,
    snap: &Snapshot,
    unbounded: bool,
) {
    let current = match snap.topology {
        Topology::Joined(join) if !unbounded => Some(join),
        _ => None,
    };
    let label = current.map_or_else(|| "other surface".to_string(), |j| j.to_string());
    let mut picked = None;
    egui::ComboBox::from_id_salt("surface")
        .selected_text(label)
        .show_ui(ui, |ui| {
            for join in Join::MENU {
                if ui
                    .selectable_label(current == Some(join), join.to_string())
                    .clicked()
                {
                    picked = Some(join);
                }
            }
        })
        .response
        .on_hover_text("Golly's other bounded grids: a Klein bottle (one pair of edges joined reversed), a cross-surface (both pairs), a sphere (each edge joined to the adjacent one: square worlds only), a tube (one pair joined, the other open); a shifted torus comes from a rule suffix such as :T30+5,20. Every strategy runs them: scalar and rayon copy the edge ring in their own grid, the others through an adapter that copies it every generation (one generation per step)");
    if let Some(join) = picked {
        let topology = Topology::Joined(join);
        app.settings.topology = topology;
        app.runner.send(Command::Topology(topology));
        if snap.plane.is_some() {
            app.view.selection = None;
            app.fit();
        }
    }
}
