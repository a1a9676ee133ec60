//! Plots that stay readable and fields that tell the truth (#54): after ten strategy
//! switches while running, the GPS legend names every strategy in view once, beside the
//! plot (never on it) and inside the window; a size the world refuses leaves the w/h fields
//! at the world's size.

mod app_harness;
mod common;

use app_harness::{harness, settings, wait_for};
use egui_kittest::kittest::Queryable;
use golab::app::Severity;
use golab::step::Strategy;

#[test]
fn after_ten_strategy_switches_the_legend_names_the_last_one_inside_the_window() {
    let mut h = harness(settings(96, 96, 30.0));
    h.key_press(egui::Key::Enter);
    let _ = wait_for(&mut h, "the first strategy's GPS", |s| {
        s.running && s.wall_gps > 0.0
    });
    h.run_steps(3);
    let mut seen = vec![h.state().runner().snapshot().strategy];
    for _ in 0..10 {
        let before = h.state().runner().snapshot();
        h.key_press(egui::Key::N);
        let after = wait_for(&mut h, "the next strategy", |s| {
            s.strategy != before.strategy && s.running
        });
        // Let the new strategy run long enough to leave samples in the plots.
        let _ = wait_for(&mut h, "generations on the new strategy", |s| {
            s.strategy == after.strategy && s.generation >= after.generation + 3 && s.wall_gps > 0.0
        });
        h.run_steps(3);
        if !seen.contains(&after.strategy) {
            seen.push(after.strategy);
        }
    }
    h.run_steps(3);
    let last = h.state().runner().snapshot().strategy;
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    // The legend sits in the statistics panel below the world; the strategy list (also
    // showing the name) is in the control panel above it.
    let legend_nodes = |name: &str| {
        h.query_all_by_label(&format!("— {name}"))
            .map(|n| n.rect())
            .filter(|r| r.min.y > 400.0)
            .collect::<Vec<_>>()
    };
    let entries = legend_nodes(last.name());
    assert_eq!(
        entries.len(),
        1,
        "the last strategy, {}, once in the legend",
        last.name()
    );
    let r = entries[0];
    assert!(
        screen.contains_rect(r),
        "the entry {r:?} is inside the window"
    );
    for s in Strategy::ALL {
        let n = legend_nodes(s.name()).len();
        if seen.contains(s) {
            assert_eq!(n, 1, "{} ran and is in the legend once", s.name());
        } else {
            assert_eq!(n, 0, "{} never ran and is not in the legend", s.name());
        }
    }
}

#[test]
fn a_size_the_world_refuses_leaves_the_fields_at_the_world_s_size() {
    let mut h = harness(settings(64, 48, 0.0));
    h.get_by_label("Resize").click();
    h.run_steps(2);
    let field = |h: &egui_kittest::Harness<'_, golab::app::GolabApp>, label: &str| {
        use egui_kittest::kittest::NodeT;
        h.get_by_label(label).accesskit_node().numeric_value()
    };
    // Make the world a bounded 64×48 grid first (the start-up world's size).
    let _ = wait_for(&mut h, "a 64×48 grid", |s| s.grid_size() == Some((64, 48)));
    for label in ["w", "h"] {
        h.get_by_label(label).click();
        h.run_steps(1);
        h.get_by_label(label).type_text("65536");
        h.key_press(egui::Key::Enter);
        h.run_steps(2);
    }
    assert_eq!(field(&h, "w"), Some(65536.0), "the fields took the entry");
    h.get_by_label("Resize").click();
    let start = std::time::Instant::now();
    loop {
        h.run_steps(1);
        if h.state()
            .messages
            .current()
            .is_some_and(|m| m.severity == Severity::Error)
        {
            break;
        }
        assert!(start.elapsed().as_secs() < 60, "no refusal came");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.run_steps(3);
    let message = h.state().messages.current().unwrap().text.clone();
    assert_eq!(
        h.state().runner().snapshot().grid_size(),
        Some((64, 48)),
        "{message}"
    );
    assert_eq!(
        field(&h, "w"),
        Some(64.0),
        "w back at the world's width after: {message}"
    );
    assert_eq!(field(&h, "h"), Some(48.0), "h back at the world's height");
}
