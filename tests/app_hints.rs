//! Overlays that go when they should: Esc closes the help overlay, and the placing hint
//! lasts exactly as long as a pattern follows the cursor.

mod app_harness;
mod common;

use app_harness::{harness, press, settings, wait_for};
use egui::{Event, Modifiers, PointerButton};
use egui_kittest::kittest::Queryable;

#[test]
fn esc_closes_the_help_overlay_on_both_tabs() {
    let mut harness = harness(settings(32, 32, 0.0));
    press(&mut harness, egui::Key::F1);
    harness.run_steps(2);
    harness.get_by_label("Keys and mouse");
    press(&mut harness, egui::Key::Escape);
    harness.run_steps(2);
    assert!(!harness.state().help_open);
    assert!(harness.query_by_label("Keys and mouse").is_none());

    harness.get_by_label("Lab").click();
    harness.run_steps(2);
    press(&mut harness, egui::Key::F1);
    harness.run_steps(2);
    harness.get_by_label("Keys and mouse");
    press(&mut harness, egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.query_by_label("Keys and mouse").is_none());
}

#[test]
fn the_placing_hint_goes_once_the_pattern_is_placed_or_cancelled() {
    let mut harness = harness(settings(64, 48, 0.0));
    let pick_glider = |harness: &mut egui_kittest::Harness<'_, golab::app::GolabApp>| {
        harness.get_by_label("find").click();
        harness.run_steps(1);
        harness.get_by_label("find").type_text("glid");
        harness.run_steps(2);
        harness.get_by_label("glider").click();
        harness.run_steps(2);
    };
    pick_glider(&mut harness);
    harness.get_by_label_contains("(3×3) · Shift+click");
    let (cam, rect) = (harness.state().view.camera, harness.state().view.rect);
    let at = cam.to_screen(rect, 20.5, 15.5);
    harness.event(Event::PointerMoved(at));
    harness.step();
    for pressed in [true, false] {
        harness.event(Event::PointerButton {
            pos: at,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        harness.step();
    }
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("click to place").is_none());
    let _ = wait_for(&mut harness, "the placed glider", |s| {
        s.stats.population == 5
    });

    // Picked again and cancelled with Esc: the hint goes too (the pointer is off the view,
    // on the panel, so nothing is placed).
    harness.get_by_label("find").click();
    harness.run_steps(1);
    harness.get_by_label("glider").click();
    harness.run_steps(2);
    harness.get_by_label_contains("click to place");
    press(&mut harness, egui::Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().view.placing.is_none());
    assert!(harness.query_by_label_contains("click to place").is_none());
}

#[test]
fn the_first_screen_says_how_to_run_paint_and_open_until_the_world_first_runs() {
    let mut harness = harness(settings(32, 32, 30.0));
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label(golab::app::world_view::FIRST_STEPS)
            .is_some(),
        "the hint is on the first screen"
    );
    harness.get_by_label("Start").click();
    let _ = wait_for(&mut harness, "a few generations", |s| s.generation > 2);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label(golab::app::world_view::FIRST_STEPS)
            .is_none()
    );
    // Paused again, it stays away: the user knows by now.
    harness.get_by_label("Stop").click();
    let _ = wait_for(&mut harness, "the pause", |s| !s.running);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label(golab::app::world_view::FIRST_STEPS)
            .is_none()
    );
}

#[test]
fn identify_reports_the_worlds_object_in_the_patterns_panel() {
    use golab::world::{CellEdit, World};
    let mut harness = harness(settings(32, 32, 0.0));
    let mut world = World::new(32, 32, golab::world::Topology::Torus, Default::default()).unwrap();
    for x in 10..13 {
        world.apply_edit(CellEdit {
            x,
            y: 10,
            alive: true,
        });
    }
    harness
        .state()
        .runner()
        .send(golab::runner::Command::Replace(world));
    let _ = wait_for(&mut harness, "the blinker", |s| s.stats.population == 3);
    harness.get_by_label("Identify").click();
    let start = std::time::Instant::now();
    while harness.query_by_label("p2 oscillator").is_none() {
        assert!(start.elapsed().as_secs() < 30, "no Identify report");
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.run_steps(1);
    }
    assert!(
        harness.query_by_label("xp2_7").is_some(),
        "the apgcode is shown"
    );
}

/// A new user's first launch on an adapter measures which strategy runs fastest (on
/// lavapipe, a software driver, cpu-bitsliced: gpu-bitpacked is never built), says what it
/// measured, and keeps the choice for the adapter; the next launch starts on it without
/// measuring again.
#[test]
fn a_first_launch_probes_the_fastest_strategy_once_per_adapter() {
    use golab::app::GolabApp;
    use golab::step::Strategy;
    let gpu = common::gpu_factory(Default::default())
        .gpu()
        .expect("GPU device")
        .clone();
    let software = gpu.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
    let tuning = golab::config::Tuning {
        probe: true,
        ..Default::default()
    };
    let start = |settings: golab::app::settings::Settings| {
        let app = GolabApp::new(
            Some(gpu.clone()),
            None,
            settings,
            &tuning,
            false,
            Box::new(|| {}),
        );
        egui_kittest::Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_ui_state(|ui, app: &mut GolabApp| app.show(ui), app)
    };
    let mut new_user = settings(64, 64, 30.0);
    new_user.strategy_chosen = false;
    let mut harness = start(new_user);
    let snap = wait_for(&mut harness, "the probe and the first world", |s| {
        s.busy.is_none()
    });
    harness.run_steps(2);
    let settings_after = harness.state().settings.clone();
    assert_eq!(
        settings_after.probed.len(),
        1,
        "{:?}",
        settings_after.probed
    );
    let chosen = *settings_after.probed.values().next().unwrap();
    assert_eq!(snap.strategy, chosen);
    if software {
        assert_eq!(
            chosen,
            Strategy::CpuBitsliced,
            "a software driver's GPU is slower"
        );
    }
    let note = harness.state().messages.current().map(|m| m.text.clone());
    let measured_beside = if software {
        "gpu-resident"
    } else {
        "copy kernel"
    };
    assert!(
        note.as_deref()
            .is_some_and(|t| t.contains("start-up probe") && t.contains(measured_beside)),
        "{note:?}"
    );
    drop(harness);

    // The second launch: no measuring, the kept choice at once.
    let second = start(settings_after);
    let placeholder = second.state().runner().snapshot();
    assert!(
        placeholder
            .busy
            .as_deref()
            .is_none_or(|b| !b.contains("measuring")),
        "{:?}",
        placeholder.busy
    );
    assert_eq!(placeholder.strategy, chosen);
}
