//! The window on the unbounded plane: a macrocell file opens there, steps of 2^k move a
//! glider exactly, grid ↔ plane keeps every cell (or refuses with the size it needs),
//! paint, undo and Reset work on the plane, and a pattern spread over 2^30 cells, zoomed
//! out to fit, keeps the window drawing.

mod app_harness;
mod common;

use std::collections::BTreeSet;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use app_harness::{harness, open, read_world, settings, temp_file, wait_for};
use golab::hashlife::HashUniverse;
use golab::rule::Rule;
use golab::runner::{Command, RegionOp, Selection};
use golab::step::Strategy;
use golab::world::World;

/// The live cells of a grid world.
fn live(world: &World) -> BTreeSet<(u32, u32)> {
    (0..world.height())
        .flat_map(|y| (0..world.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| world.is_alive(x, y))
        .collect()
}

/// A macrocell file of `cells` (plane coordinates), written by golab's own tree writer.
fn macrocell_of(name: &str, cells: &[(i128, i128)]) -> std::path::PathBuf {
    let mut u = HashUniverse::new(Rule::CONWAY, 64 << 20).unwrap();
    u.load_cells(cells.iter().copied()).unwrap();
    temp_file(name, &u.to_macrocell(&[]))
}

const GLIDER: [(i128, i128); 5] = [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)];

#[test]
fn a_macrocell_glider_opens_on_the_plane_and_a_2_to_the_40_step_moves_it_2_to_the_38_cells() {
    let mut harness = harness(settings(64, 64, 0.0));
    let path = macrocell_of("plane-glider.mc", &GLIDER);
    open(&mut harness, &path);
    let snap = wait_for(&mut harness, "the glider on the plane", |s| {
        s.plane.as_ref().is_some_and(|p| p.population == 5)
    });
    assert_eq!(snap.strategy, Strategy::Hashlife);
    let start = snap.plane.unwrap().bounds.unwrap();
    let snap = harness.state().runner().snapshot();
    harness.state_mut().set_step_exp(40, &snap);
    let snap = harness.state().runner().snapshot();
    harness.state_mut().step_once(&snap);
    let snap = wait_for(&mut harness, "generation 2^40", |s| {
        s.plane.as_ref().is_some_and(|p| p.generation == 1 << 40)
    });
    let plane = snap.plane.unwrap();
    assert_eq!(plane.population, 5);
    let moved = plane.bounds.unwrap();
    // A glider moves one cell diagonally every 4 generations (down-right for this phase).
    assert_eq!(moved.x0 - start.x0, 1 << 38);
    assert_eq!(moved.y0 - start.y0, 1 << 38);
    assert_eq!((moved.width(), moved.height()), (3, 3));
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_soup_goes_onto_the_plane_and_back_into_the_grid_with_every_cell() {
    let mut s = settings(200, 120, 35.0);
    s.plane_memory_mib = 16;
    let mut harness = harness(s);
    let before = live(&read_world(&harness));
    assert!(before.len() > 5000);
    harness.state_mut().to_plane();
    let snap = wait_for(&mut harness, "the soup on the plane", |s| s.plane.is_some());
    let plane = snap.plane.unwrap();
    assert_eq!(plane.population, before.len() as u128);
    assert_eq!(
        plane.memory.limit_bytes,
        16 << 20,
        "the memory setting applies"
    );
    harness
        .state()
        .runner()
        .send(Command::Switch(Strategy::Scalar));
    let snap = wait_for(&mut harness, "back on the grid", |s| s.plane.is_none());
    assert_eq!(snap.strategy, Strategy::Scalar);
    let after = read_world(&harness);
    assert_eq!(live(&after), before, "every cell back where it was");
    assert!(
        after.ages().iter().all(|&a| a <= 1),
        "cells from the plane start at age 1"
    );
}

#[test]
fn a_generations_soup_keeps_every_state_on_the_plane_and_back() {
    let mut s = settings(150, 100, 40.0);
    s.rule = "345/2/4".into();
    let mut harness = harness(s);
    harness.state().runner().send(Command::Step(8));
    wait_for(&mut harness, "generation 8", |s| s.generation == 8);
    let before = read_world(&harness);
    assert_eq!(before.generation, 8);
    let states = |w: &World| -> Vec<u16> { (0..w.len()).map(|i| w.state_at(i)).collect() };
    assert!(before.dying_count() > 100, "the soup has dying cells");
    harness.state_mut().to_plane();
    let snap = wait_for(&mut harness, "the plane", |s| s.plane.is_some());
    let plane = snap.plane.unwrap();
    assert_eq!(plane.population, u128::from(before.population()));
    assert_eq!(
        plane.occupied,
        u128::from(before.population() + before.dying_count())
    );
    harness
        .state()
        .runner()
        .send(Command::Switch(Strategy::Scalar));
    wait_for(&mut harness, "back on the grid", |s| s.plane.is_none());
    let after = read_world(&harness);
    assert_eq!(
        states(&after),
        states(&before),
        "every state back where it was"
    );
    assert_eq!(after.generation, 8);
}

#[test]
fn leaving_the_plane_for_a_grid_too_small_is_refused_with_the_size_it_needs() {
    let mut harness = harness(settings(64, 64, 0.0));
    let path = macrocell_of(
        "plane-wide.mc",
        &[(-500, 0), (-499, 0), (-498, 0), (700, 3)],
    );
    open(&mut harness, &path);
    wait_for(&mut harness, "the plane", |s| {
        s.plane.as_ref().is_some_and(|p| p.population == 4)
    });
    harness
        .state()
        .runner()
        .send(Command::Switch(Strategy::Scalar));
    let snap = wait_for(&mut harness, "the refusal", |s| s.error.is_some());
    let message = snap.error.unwrap().1;
    assert!(
        message.contains("1201 x 4 cells") && message.contains("1402"),
        "{message}"
    );
    assert_eq!(snap.plane.map(|p| p.population), Some(4), "the plane stays");
    let _ = std::fs::remove_file(path);
}

#[test]
fn paint_select_undo_and_reset_work_on_the_plane() {
    let mut harness = harness(settings(64, 64, 0.0));
    harness.state_mut().to_plane();
    wait_for(&mut harness, "the plane", |s| s.plane.is_some());
    let runner = harness.state().runner();
    // A blinker far outside any grid.
    let far = 1_i64 << 40;
    runner.send(Command::Paint {
        cells: vec![(far, -far), (far + 1, -far), (far + 2, -far)],
        alive: true,
        state: 1,
        stroke: 1,
    });
    let snap = wait_for(&mut harness, "the blinker", |s| {
        s.plane.as_ref().is_some_and(|p| p.population == 3)
    });
    let b = snap.plane.unwrap().bounds.unwrap();
    assert_eq!(
        (b.x0, b.y0, b.width(), b.height()),
        (far.into(), (-far).into(), 3, 1)
    );
    let runner = harness.state().runner();
    runner.send(Command::Step(1));
    let snap = wait_for(&mut harness, "generation 1", |s| s.generation == 1);
    let b = snap.plane.unwrap().bounds.unwrap();
    assert_eq!((b.width(), b.height()), (1, 3), "the blinker turned");
    assert!(snap.can_reset);
    harness.state().runner().send(Command::Reset);
    let snap = wait_for(&mut harness, "the reset", |s| s.generation == 0);
    assert_eq!(snap.plane.unwrap().bounds.unwrap().width(), 3);
    // Copy the selection, clear it, undo the clear.
    let (tx, rx) = channel();
    let selection = Selection::from_corners((far - 5, -far - 5), (far + 5, -far + 5));
    let runner = harness.state().runner();
    runner.send(Command::Copy {
        selection,
        cut: false,
        reply: tx,
    });
    let copied = rx.recv_timeout(Duration::from_secs(30)).unwrap().unwrap();
    assert_eq!(
        (copied.width, copied.height, copied.cells.len()),
        (11, 11, 3)
    );
    runner.send(Command::Region(selection, RegionOp::Clear));
    wait_for(&mut harness, "the clear", |s| {
        s.plane.as_ref().is_some_and(|p| p.population == 0)
    });
    harness.state().runner().send(Command::Undo);
    wait_for(&mut harness, "the undo", |s| {
        s.plane.as_ref().is_some_and(|p| p.population == 3)
    });
}

#[test]
fn stop_abandons_a_long_hashed_step_and_the_pattern_stays() {
    let mut harness = harness(settings(1024, 1024, 50.0));
    harness.state_mut().to_plane();
    let snap = wait_for(&mut harness, "the soup on the plane", |s| s.plane.is_some());
    let population = snap.plane.unwrap().population;
    // A dense 1024² soup stepped 2^24 at once: minutes of hashing on two cores.
    harness.state().runner().send(Command::Step(1 << 24));
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    harness.state().runner().interrupt();
    let snap = wait_for(&mut harness, "the stop", |s| {
        s.error.as_ref().is_some_and(|e| e.1.contains("stopped"))
    });
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    let plane = snap.plane.unwrap();
    assert_eq!(
        (plane.generation, plane.population, plane.pending),
        (0, population, 0)
    );
    // The next step runs normally.
    harness.state().runner().send(Command::Step(4));
    wait_for(&mut harness, "generation 4", |s| s.generation == 4);
}

#[test]
fn zoomed_out_on_a_pattern_2_to_the_30_wide_the_window_keeps_drawing() {
    // 4 096 blocks on a 64 × 64 lattice of pitch 2^24: a box 2^30 wide, like the
    // metapixel patterns, where a grid of its size could never be allocated.
    let mut cells = Vec::new();
    for i in 0..64i128 {
        for j in 0..64i128 {
            let (x, y) = ((i - 32) << 24, (j - 32) << 24);
            cells.extend([(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]);
        }
    }
    let mut harness = harness(settings(64, 64, 0.0));
    let path = macrocell_of("plane-lattice.mc", &cells);
    open(&mut harness, &path);
    wait_for(&mut harness, "the lattice", |s| {
        s.plane.as_ref().is_some_and(|p| p.population == 4 * 4096)
    });
    // Opening fits the pattern: the camera is far below one point per cell.
    let start = Instant::now();
    while harness.state().view.camera.cell_px > 1e-6 {
        assert!(start.elapsed() < Duration::from_secs(30), "no fit");
        harness.step();
    }
    // Frames keep coming and views keep being drawn, each quickly.
    let runner_view = |h: &egui_kittest::Harness<'_, golab::app::GolabApp>| {
        h.state().runner().snapshot().view.map(|v| v.request)
    };
    let mut drawn = BTreeSet::new();
    let start = Instant::now();
    for frame in 0..40 {
        let t = Instant::now();
        // Zoom about the centre, alternating in and out, so each frame asks a new view.
        let factor = if frame % 2 == 0 { 1.5 } else { 1.0 / 1.4 };
        let view = &mut harness.state_mut().view;
        let (rect, centre) = (view.rect, view.rect.center());
        view.camera
            .zoom_about(rect, centre, factor, golab::app::camera::MIN_PLANE_CELL_PX);
        harness.step();
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "frame {frame} took {:?}",
            t.elapsed()
        );
        if let Some(r) = runner_view(&harness) {
            drawn.insert(r.cells_per_pixel.to_bits());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(start.elapsed() < Duration::from_secs(30));
    assert!(
        drawn.len() >= 2,
        "views at several scales were drawn: {drawn:?}"
    );
    let image = harness.state().runner().snapshot().view.unwrap();
    assert!(image.request.cells_per_pixel >= f64::from(1u32 << 20));
    let _ = std::fs::remove_file(path);
}
