//! Always seeing the pattern: the view frames the live cells after opening a file and after
//! a resize, and on F ("Fit pattern"); Shift+F fits the whole world.

mod app_harness;
mod common;

use app_harness::{harness, open, press, read_world, settings, temp_file, wait_for};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use golab::app::GolabApp;
use golab::app::camera::Camera;

const GLIDER: &str = "x = 3, y = 3\nbo$2bo$3o!\n";

/// Run frames until `done` holds for the view's camera (or fail after 30 s).
fn wait_camera(harness: &mut Harness<'_, GolabApp>, what: &str, done: impl Fn(&Camera) -> bool) {
    let start = std::time::Instant::now();
    while !done(&harness.state().view.camera) {
        assert!(
            start.elapsed().as_secs() < 30,
            "timed out waiting for {what}: {:?}",
            harness.state().view.camera
        );
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Every live cell is on screen, well inside the view, at least `min_px` points a cell.
fn assert_pattern_framed(harness: &Harness<'_, GolabApp>, min_px: f32) {
    let world = read_world(harness);
    let (cam, rect) = (harness.state().view.camera, harness.state().view.rect);
    assert!(cam.cell_px >= min_px, "cells too small: {cam:?}");
    // The view speaks plane coordinates: grid cell (x, y) lies at the world's origin + (x, y).
    let (ox, oy) = world.plane_origin();
    let mut seen = 0;
    for y in 0..world.height() {
        for x in 0..world.width() {
            if world.is_alive(x, y) {
                let (px, py) = (ox as f64 + f64::from(x), oy as f64 + f64::from(y));
                let p = cam.to_screen(rect, px + 0.5, py + 0.5);
                assert!(rect.shrink(10.0).contains(p), "cell ({x}, {y}) off screen");
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no live cells");
}

fn open_glider(harness: &mut Harness<'_, GolabApp>) {
    let path = temp_file("fit-glider.rle", GLIDER);
    open(harness, &path);
    let _ = wait_for(harness, "the glider", |s| s.stats.population == 5);
    let _ = std::fs::remove_file(path);
}

#[test]
fn opening_a_small_pattern_in_a_large_world_frames_it() {
    let mut harness = harness(settings(2048, 2048, 0.0));
    open_glider(&mut harness);
    wait_camera(&mut harness, "the fit to the glider", |c| c.cell_px > 20.0);
    assert_pattern_framed(&harness, 20.0);
}

#[test]
fn f_frames_the_pattern_after_panning_away_and_shift_f_fits_the_world() {
    let mut harness = harness(settings(512, 512, 0.0));
    open_glider(&mut harness);
    wait_camera(&mut harness, "the fit on open", |c| c.cell_px > 20.0);
    harness.state_mut().view.camera = Camera {
        center: [10.0, 10.0],
        cell_px: 0.5,
        layout: golab::app::cell_layout::CellLayout::Square,
    };
    press(&mut harness, egui::Key::F);
    wait_camera(&mut harness, "F", |c| c.cell_px > 20.0);
    assert_pattern_framed(&harness, 20.0);

    // Fit world frames a bounded grid whole (the glider opened unbounded: bound it first).
    harness.state_mut().make_bounded(golab::universe::Bounds {
        width: 512,
        height: 512,
        topology: golab::world::Topology::Torus,
    });
    let _ = wait_for(&mut harness, "the bounded grid", |s| {
        s.grid_size() == Some((512, 512))
    });
    harness.state_mut().fit();
    harness.run_steps(2);
    let rect = harness.state().view.rect;
    assert_eq!(harness.state().view.camera, Camera::fit(rect, 512, 512));

    // The panel's button does what F does.
    harness.get_by_label("Fit pattern").click();
    wait_camera(&mut harness, "the Fit pattern button", |c| c.cell_px > 20.0);
    assert_pattern_framed(&harness, 20.0);
}

#[test]
fn a_resize_keeps_the_pattern_framed() {
    let mut harness = harness(settings(256, 256, 0.0));
    open_glider(&mut harness);
    wait_camera(&mut harness, "the fit on open", |c| c.cell_px > 20.0);
    harness.state_mut().view.camera = Camera {
        center: [0.0, 0.0],
        cell_px: 1.0,
        layout: golab::app::cell_layout::CellLayout::Square,
    };
    harness.get_by_label("preset").click();
    harness.run_steps(2);
    harness.get_by_label("4096²").click();
    let _ = wait_for(&mut harness, "the resize", |s| {
        s.grid_size() == Some((4096, 4096))
    });
    wait_camera(&mut harness, "the fit after the resize", |c| {
        c.cell_px > 20.0
    });
    assert_pattern_framed(&harness, 20.0);
}

/// A growing Larger than Life world follows its pattern (Golly's unbounded universe): its
/// frame moves on the plane, and since the view speaks plane coordinates the cells stay
/// where they are on screen — a plane point is drawn at the same place before and after.
#[test]
fn the_view_stays_put_while_a_growing_world_moves_its_frame() {
    let mut harness = harness(settings(64, 64, 0.0));
    // A glider under Life written as Larger than Life, no grid: a grid that follows it.
    let path = temp_file(
        "glider-ltl.rle",
        "x = 3, y = 3, rule = R1,C0,M0,S2..3,B3..3,NM\nbo$2bo$3o!\n",
    );
    open(&mut harness, &path);
    let before = wait_for(&mut harness, "the growing world", |s| {
        s.capabilities.bounded.is_none() && s.stats.population == 5
    });
    harness.run_steps(3);
    let view = |h: &Harness<'_, GolabApp>| (h.state().view.camera, h.state().view.rect);
    let (cam, rect) = view(&harness);
    let plane_point = (7, -4);
    let was = cam.cell_centre(rect, plane_point.0, plane_point.1);
    harness
        .state()
        .runner()
        .send(golab::runner::Command::Step(200));
    let after = wait_for(&mut harness, "200 generations", |s| s.generation == 200);
    harness.run_steps(3);
    assert_ne!(after.frame, before.frame, "the frame moved with the glider");
    assert_eq!(after.stats.population, 5, "the glider flew on");
    let (cam, _) = view(&harness);
    let now = cam.cell_centre(rect, plane_point.0, plane_point.1);
    assert!(
        (now - was).length() < 0.01,
        "a plane cell stays put on screen: {was:?} then {now:?}"
    );
    let _ = std::fs::remove_file(path);
}
