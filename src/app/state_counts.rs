//! The statistics' count per state under a many-state rule (rule tables, JvN, History,
//! Super, Investigator): one swatch, number, name and count per state present.

use egui::Color32;

use crate::runner::Snapshot;

/// At most this many states are listed (the most populous first); the rest are summed.
const SHOWN: usize = 16;

/// The states present and their counts, most populous first: state 1 is the population,
/// states 2 and up come from [`crate::stats::Stats::per_state`].
pub(super) fn present(snap: &Snapshot) -> Vec<(usize, u64)> {
    let s = &snap.stats;
    let mut counts: Vec<(usize, u64)> = std::iter::once((1, s.population))
        .chain(s.per_state.iter().copied().enumerate().skip(2))
        .filter(|&(_, c)| c > 0)
        .collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counts
}

/// Draw the row under a rule table with per-state counts (nothing otherwise).
pub(super) fn show(ui: &mut egui::Ui, snap: &Snapshot) {
    let Some(table) = snap.rule.rule_table() else {
        return;
    };
    if snap.stats.per_state.is_empty() && snap.stats.dying > 0 {
        return; // a strategy that does not count states
    }
    let counts = present(snap);
    ui.horizontal_wrapped(|ui| {
        ui.small("by state:")
            .on_hover_text("cells in each state (Golly's population is their sum), most first");
        for &(state, count) in counts.iter().take(SHOWN) {
            let [r, g, b] = table.colors.get(state).copied().unwrap_or([255, 255, 255]);
            let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, Color32::from_rgb(r, g, b));
            let name = table.names.get(state).map_or("", String::as_str);
            ui.small(format!("{state} {count}"))
                .on_hover_text(format!("state {state}: {name}"));
        }
        if counts.len() > SHOWN {
            let rest: u64 = counts[SHOWN..].iter().map(|c| c.1).sum();
            ui.small(format!("+{} states: {rest}", counts.len() - SHOWN));
        }
    });
}
