//! The world section's menu of Golly's other bounded grids (beside the torus and dead-border
//! radio buttons).

use super::GolabApp;
use crate::runner::Snapshot;
use crate::world::{Join, Topology};

/// Golly's other bounded grids, picked from a menu beside the torus and the dead border;
/// the current one (a file's shifted torus among them) is shown selected.
pub(super) fn surface_menu(app: &mut GolabApp, ui: &mut egui::Ui, snap: &Snapshot) {
    let current = match snap.capabilities.bounded.map(|b| b.topology) {
        Some(Topology::Joined(join)) => Some(join),
        _ => None,
    };
    let label = current.map_or_else(|| "other surface".to_string(), |j| j.to_string());
    let mut picked = None;
    // A long surface name ("Klein bottle, …") is cut to the box, not widening the panel.
    egui::ComboBox::from_id_salt("surface")
        .width(120.0)
        .truncate()
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
        let (width, height) = snap
            .grid_size()
            .unwrap_or((app.settings.width, app.settings.height));
        app.make_bounded(crate::universe::Bounds {
            width,
            height,
            topology,
        });
    }
}
