//! The window on the one universe interface: a file opens as Golly opens it (unbounded,
//! whatever grid was open before), a macrocell file opens hashed and steps of 2^k move a
//! glider exactly, a world moves between the grid and hashing keeping every cell (or refuses
//! with the size it needs), paint, undo and Reset work the same on both, Stop abandons a long
//! hashed step, a step past the largest count fails once and leaves the world as it was,
//! and a pattern spread over 2^30 cells, zoomed out to fit, keeps the window drawing.

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

/// Issue #50: a gun file opened after a small torus runs unbounded (Golly's default), so its
/// glider stream never wraps round into the gun: the population keeps growing by one glider
/// a period, on the user's grid strategy, ages kept.
#[test]
fn a_gun_opened_after_a_small_torus_is_unbounded_and_keeps_its_stream() {
    let mut s = settings(64, 48, 30.0);
    s.strategy = Strategy::Rayon;
    let mut harness = harness(s);
    let gun = "#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n\
               24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\
               obo$10bo5bo7bo$11bo3bo$12b2o!\n";
    let path = temp_file("gun.rle", gun);
    open(&mut harness, &path);
    let snap = wait_for(&mut harness, "the gun", |s| s.population == 36);
    assert_eq!(
        snap.capabilities.bounded, None,
        "a file without a grid opens unbounded"
    );
    assert!(snap.capabilities.ages && snap.strategy == Strategy::Rayon);
    // Nine periods of 30: a glider stream of 9 (on a 64×48 torus it wrapped round long
    // before; here it must keep growing, five cells a glider).
    harness.state().runner().send(Command::Step(30 * 9));
    let snap = wait_for(&mut harness, "nine periods", |s| {
        s.generation == 270 && s.busy.is_none()
    });
    let world = read_world(&harness);
    assert_eq!(world.generation, 270);
    assert!(
        snap.population >= 36 + 5 * 8,
        "the stream grows: {} cells",
        snap.population
    );
    assert_eq!(snap.capabilities.bounded, None);
    // The same generations on the hashed universe agree cell for cell.
    let (mut hashed, _) =
        golab::hashlife::load::open(path.to_str().unwrap(), None, 64 << 20).unwrap();
    hashed.advance(270, &|| false).unwrap();
    let mut want: Vec<_> = hashed.cells_in(hashed.bounds().unwrap());
    want.sort_unstable_by_key(|&(x, y)| (y, x));
    let got: Vec<_> = golab::universe::plane_cells(&world).collect();
    let mut got = got;
    got.sort_unstable_by_key(|&(x, y)| (y, x));
    assert_eq!(got, want, "the grid's cells are the hashed universe's");
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_macrocell_glider_opens_hashed_and_a_2_to_the_40_step_moves_it_2_to_the_38_cells() {
    let mut harness = harness(settings(64, 64, 0.0));
    let path = macrocell_of("hashed-glider.mc", &GLIDER);
    open(&mut harness, &path);
    let snap = wait_for(&mut harness, "the glider, hashed", |s| {
        s.capabilities.hashing && s.population == 5 && s.bounds.is_some()
    });
    assert_eq!(snap.strategy, Strategy::Hashlife);
    let start = snap.bounds.unwrap();
    harness.state().runner().send(Command::Step(1 << 40));
    let snap = wait_for(&mut harness, "generation 2^40", |s| {
        s.generation == 1 << 40 && s.bounds.is_some_and(|b| b != start)
    });
    assert_eq!(snap.population, 5);
    let moved = snap.bounds.unwrap();
    // A glider moves one cell diagonally every 4 generations (down-right for this phase).
    assert_eq!(moved.x0 - start.x0, 1 << 38);
    assert_eq!(moved.y0 - start.y0, 1 << 38);
    assert_eq!((moved.width(), moved.height()), (3, 3));
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_soup_goes_to_hashlife_and_back_into_the_grid_with_every_cell() {
    let mut s = settings(200, 120, 35.0);
    s.plane_memory_mib = 16;
    let mut harness = harness(s);
    harness.state_mut().send_memory_limit();
    let before = live(&read_world(&harness));
    assert!(before.len() > 5000);
    harness.state_mut().switch(Strategy::Hashlife);
    let snap = wait_for(&mut harness, "the soup, hashed", |s| {
        s.capabilities.hashing && s.busy.is_none()
    });
    assert_eq!(snap.population, before.len() as u128);
    assert_eq!(
        snap.capabilities.bounded.map(|b| (b.width, b.height)),
        Some((200, 120)),
        "hashlife runs the same torus"
    );
    assert_eq!(
        snap.memory.map(|m| m.limit_bytes),
        Some(16 << 20),
        "the memory setting applies"
    );
    harness.state_mut().switch(Strategy::Scalar);
    let snap = wait_for(&mut harness, "back on the grid", |s| {
        !s.capabilities.hashing
    });
    assert_eq!(snap.strategy, Strategy::Scalar);
    let after = read_world(&harness);
    assert_eq!(live(&after), before, "every cell back where it was");
    assert!(
        after.ages().iter().all(|&a| a <= 1),
        "cells from hashlife start at age 1"
    );
}

#[test]
fn a_generations_soup_keeps_every_state_hashed_and_back() {
    let mut s = settings(150, 100, 40.0);
    s.rule = "345/2/4".into();
    let mut harness = harness(s);
    harness.state().runner().send(Command::Step(8));
    wait_for(&mut harness, "generation 8", |s| s.generation == 8);
    let before = read_world(&harness);
    assert_eq!(before.generation, 8);
    let states = |w: &World| -> Vec<u16> { (0..w.len()).map(|i| w.state_at(i)).collect() };
    assert!(before.dying_count() > 100, "the soup has dying cells");
    // Generations runs unbounded on hashlife (its torus is a grid's).
    harness.state_mut().make_unbounded();
    harness.state_mut().switch(Strategy::Hashlife);
    let snap = wait_for(&mut harness, "hashlife", |s| {
        s.capabilities.hashing && s.busy.is_none()
    });
    assert_eq!(snap.population, u128::from(before.population()));
    assert_eq!(
        snap.occupied,
        u128::from(before.population() + before.dying_count())
    );
    harness.state_mut().make_bounded(golab::universe::Bounds {
        width: 150,
        height: 100,
        topology: golab::world::Topology::Torus,
    });
    wait_for(&mut harness, "back on the grid", |s| {
        !s.capabilities.hashing && s.capabilities.bounded.is_some()
    });
    let after = read_world(&harness);
    assert_eq!(
        states(&after),
        states(&before),
        "every state back where it was"
    );
    assert_eq!(after.generation, 8);
}

#[test]
fn leaving_hashlife_for_a_grid_too_small_is_refused_with_the_size_it_needs() {
    let mut harness = harness(settings(64, 64, 0.0));
    let far = 1i128 << 20;
    let path = macrocell_of(
        "hashed-wide.mc",
        &[(-far, 0), (-far + 1, 0), (-far + 2, 0), (far, 3)],
    );
    open(&mut harness, &path);
    wait_for(&mut harness, "hashed", |s| {
        s.capabilities.hashing && s.population == 4
    });
    harness.state_mut().switch(Strategy::Scalar);
    let snap = wait_for(&mut harness, "the refusal", |s| s.error.is_some());
    let message = snap.error.unwrap().1;
    assert!(
        message.contains("2097153 × 4 cells") && message.contains("65536"),
        "{message}"
    );
    assert!(
        snap.capabilities.hashing && snap.population == 4,
        "the world stays"
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn paint_select_undo_and_reset_work_hashed() {
    let mut harness = harness(settings(64, 64, 0.0));
    harness.state_mut().make_unbounded();
    harness.state_mut().switch(Strategy::Hashlife);
    wait_for(&mut harness, "hashlife", |s| s.capabilities.hashing);
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
        s.population == 3 && s.bounds.is_some()
    });
    let b = snap.bounds.unwrap();
    assert_eq!(
        (b.x0, b.y0, b.width(), b.height()),
        (far.into(), (-far).into(), 3, 1)
    );
    let runner = harness.state().runner();
    runner.send(Command::Step(1));
    let snap = wait_for(&mut harness, "generation 1", |s| {
        s.generation == 1 && s.bounds.is_some_and(|b| b.height() == 3)
    });
    let b = snap.bounds.unwrap();
    assert_eq!((b.width(), b.height()), (1, 3), "the blinker turned");
    assert!(snap.can_reset);
    harness.state().runner().send(Command::Reset);
    let snap = wait_for(&mut harness, "the reset", |s| {
        s.generation == 0 && s.bounds.is_some_and(|b| b.width() == 3)
    });
    assert_eq!(snap.bounds.unwrap().width(), 3);
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
    wait_for(&mut harness, "the clear", |s| s.population == 0);
    harness.state().runner().send(Command::Undo);
    wait_for(&mut harness, "the undo", |s| s.population == 3);
}

#[test]
fn stop_abandons_a_long_hashed_step_and_the_pattern_stays() {
    let mut harness = harness(settings(1024, 1024, 50.0));
    harness.state_mut().make_unbounded();
    harness.state_mut().switch(Strategy::Hashlife);
    let snap = wait_for(&mut harness, "the soup, hashed", |s| {
        s.capabilities.hashing && s.busy.is_none() && s.population > 0
    });
    let population = snap.population;
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
    assert_eq!(
        (snap.generation, snap.pending),
        (0, 0),
        "the pattern stays at its generation"
    );
    let snap = wait_for(&mut harness, "the count", |s| s.population > 0);
    assert_eq!(snap.population, population);
    // The next step runs normally.
    harness.state().runner().send(Command::Step(4));
    wait_for(&mut harness, "generation 4", |s| s.generation == 4);
}

/// Issue #50: Go to a generation past what golab counts fails once, with the reason, and the
/// world stays at its generation (it used to fail every loop until Reset, after stepping the
/// low bits).
#[test]
fn going_past_the_largest_generation_fails_once_and_leaves_the_world_unchanged() {
    let mut harness = harness(settings(64, 64, 0.0));
    let path = macrocell_of("hashed-goto.mc", &GLIDER);
    open(&mut harness, &path);
    let before = wait_for(&mut harness, "the glider", |s| {
        s.capabilities.hashing && s.population == 5 && s.bounds.is_some()
    });
    let snap = harness.state().runner().snapshot();
    harness
        .state_mut()
        .go_to("340282366920938463463374607431768211455", &snap);
    let snap = wait_for(&mut harness, "the refusal", |s| s.error.is_some());
    let (count, message) = snap.error.clone().unwrap();
    assert!(
        message.contains("2^120") && message.contains("stays at generation 0"),
        "{message}"
    );
    assert_eq!((snap.generation, snap.pending), (0, 0));
    // No second error, the world where it was, and it still steps.
    for _ in 0..20 {
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let snap = harness.state().runner().snapshot();
    assert_eq!(snap.error.map(|e| e.0), Some(count), "it failed once");
    assert_eq!((snap.generation, snap.bounds), (0, before.bounds));
    harness.state().runner().send(Command::Step(8));
    wait_for(&mut harness, "generation 8", |s| s.generation == 8);
    let _ = std::fs::remove_file(path);
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
    let path = macrocell_of("hashed-lattice.mc", &cells);
    open(&mut harness, &path);
    wait_for(&mut harness, "the lattice", |s| s.population == 4 * 4096);
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

/// Issue #50: a many-state rule's pattern, hashed, is drawn in the rule's own colours at
/// every zoom (a pixel of wire shows the wire's colour, not a grey shade of fullness), and
/// the statistics name its states.
#[test]
fn wireworld_hashed_is_drawn_in_its_own_colours_at_every_zoom() {
    use golab::runner::ViewPixels;
    use golab::step::view::LIVE_BASE;
    let path = std::path::Path::new("/usr/share/golly/Patterns/WireWorld/primes.mc");
    assert!(
        path.exists(),
        "Debian's golly package ships {}",
        path.display()
    );
    let mut harness = harness(settings(64, 64, 0.0));
    open(&mut harness, path);
    let snap = wait_for(&mut harness, "primes.mc, hashed", |s| {
        s.capabilities.hashing && s.occupied > 1000 && s.busy.is_none()
    });
    assert_eq!(snap.rule.to_string(), "WireWorld");
    let colours = snap.rule.rule_table().expect("a rule table").colors.clone();
    // Zoomed out (the fit on open) and zoomed in on the middle of the pattern.
    for zoom_in in [false, true] {
        if zoom_in {
            let view = &mut harness.state_mut().view;
            view.camera.cell_px = 4.0;
        }
        let start = Instant::now();
        let image = loop {
            harness.step();
            let snap = harness.state().runner().snapshot();
            // Hashed views are whole nodes: a pixel is one cell at most when zoomed in.
            let wanted =
                |v: &golab::runner::ViewImage| (v.request.cells_per_pixel <= 1.0) == zoom_in;
            if let Some(v) = snap.view.clone().filter(wanted) {
                break v;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no view drawn at the zoom wanted (in: {zoom_in}): {:?}, camera {:?}",
                snap.view.map(|v| v.request),
                harness.state().view.camera
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let ViewPixels::Host(pixels) = &image.pixels else {
            panic!("the harness draws on the host");
        };
        let wire = pixels.iter().filter(|&&v| v == LIVE_BASE - 3).count();
        assert!(
            wire > 0,
            "pixels of wire (state 3) are drawn as state 3 (zoom in: {zoom_in})"
        );
        let painted = golab::app::colormap::state_pixel_colour(&colours, LIVE_BASE - 3);
        let [r, g, b] = colours[3];
        assert_eq!(
            painted,
            egui::Color32::from_rgb(r, g, b),
            "the wire's own colour"
        );
    }
    let _ = wait_for(&mut harness, "per-state counts", |s| {
        s.stats.per_state.len() > 3
    });
    let snap = harness.state().runner().snapshot();
    assert!(snap.stats.per_state[3] > 0, "wire is counted as state 3");
}
