//! Golly's conveniences: the step exponent (+ / -, 2^n generations a step), Reset to the
//! starting pattern (undoable), and the cursor cell and selection size in the status line.

mod app_harness;
mod common;

use app_harness::{harness, open, press, read_world, settings, temp_file, wait_for};
use egui::{Event, Modifiers, PointerButton};
use egui_kittest::kittest::Queryable;

#[test]
fn plus_and_minus_set_golly_s_step_exponent_and_a_step_is_base_to_the_exponent() {
    let mut harness = harness(settings(64, 64, 20.0));
    for _ in 0..3 {
        press(&mut harness, egui::Key::Plus);
    }
    assert_eq!(harness.state().settings.step.exponent, 3);
    harness.get_by_label("step 10^3");
    let snap = harness.state().runner().snapshot();
    harness.state_mut().next_step(&snap);
    let _ = wait_for(&mut harness, "a step of 1000", |s| s.generation == 1000);
    press(&mut harness, egui::Key::Minus);
    let snap = harness.state().runner().snapshot();
    harness.state_mut().next_step(&snap);
    let _ = wait_for(&mut harness, "a step of 100", |s| s.generation == 1100);
    std::thread::sleep(std::time::Duration::from_millis(100));
    harness.step();
    assert_eq!(harness.state().runner().snapshot().generation, 1100);
}

#[test]
fn reset_returns_to_the_starting_pattern_and_can_be_undone() {
    let mut harness = harness(settings(64, 64, 0.0));
    let path = temp_file("reset-glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
    open(&mut harness, &path);
    let _ = wait_for(&mut harness, "the glider", |s| s.stats.population == 5);
    let start = read_world(&harness);
    for _ in 0..4 {
        press(&mut harness, egui::Key::Space);
    }
    let moved = wait_for(&mut harness, "generation 4", |s| {
        s.generation == 4 && s.can_reset
    });
    assert_eq!(moved.stats.population, 5);
    let stepped = read_world(&harness);
    assert_ne!(stepped.state_hash(), start.state_hash(), "the glider moved");
    harness.get_by_label("Reset").click();
    let _ = wait_for(&mut harness, "the reset", |s| {
        s.generation == 0 && !s.can_reset
    });
    assert_eq!(read_world(&harness), start);
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    let _ = wait_for(&mut harness, "the undo of the reset", |s| s.generation == 4);
    assert_eq!(read_world(&harness), stepped);
    let _ = std::fs::remove_file(path);
}

#[test]
fn the_status_line_shows_the_cursor_cell_and_the_selection_size() {
    let mut harness = harness(settings(96, 64, 0.0));
    let (cam, rect) = (harness.state().view.camera, harness.state().view.rect);
    let at = |x: f64, y: f64| cam.to_screen(rect, x + 0.5, y + 0.5);
    harness.event(Event::PointerMoved(at(30.0, 20.0)));
    harness.run_steps(2);
    harness.get_by_label("cell (30, 20)");
    harness.get_by_label("Select").click();
    harness.run_steps(1);
    let path = [at(10.0, 5.0), at(20.0, 10.0), at(29.0, 16.0)];
    harness.event(Event::PointerMoved(path[0]));
    harness.step();
    let button = |pressed, pos| Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    harness.event(button(true, path[0]));
    harness.step();
    for &p in &path[1..] {
        harness.event(Event::PointerMoved(p));
        harness.step();
    }
    harness.event(button(false, path[2]));
    harness.run_steps(2);
    harness.get_by_label("selection 20×12");
    harness.event(Event::PointerMoved(at(-60.0, 3.0)));
    harness.run_steps(2);
    harness.get_by_label("cell —");
}
