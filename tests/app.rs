//! The desktop app driven through egui_kittest: real widgets, real pointer and key events,
//! the real simulation thread (GPU strategies on the shared lavapipe/hardware device).

mod app_harness;
mod common;

use std::time::{Duration, Instant};

use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use golab::app::GolabApp;
use golab::app::camera::line_cells;
use golab::app::cell_layout::CellLayout;
use golab::step::Strategy;
use golab::world::World;

use app_harness::{harness, press, read_world, settings, temp_file, wait_for};

fn live_cells(world: &World) -> Vec<(i64, i64)> {
    let mut cells = Vec::new();
    for y in 0..world.height() {
        for x in 0..world.width() {
            if world.is_alive(x, y) {
                cells.push((i64::from(x), i64::from(y)));
            }
        }
    }
    cells
}

/// The plane coordinates of the grid's cell (0, 0): the view speaks plane coordinates, a
/// bounded grid's cells lie from its frame's corner.
fn grid_origin(harness: &Harness<'_, GolabApp>) -> (i64, i64) {
    let frame = harness.state().runner().snapshot().frame.expect("a grid");
    (frame.x0 as i64, frame.y0 as i64)
}

/// Grid cell `(x, y)`'s centre on screen.
fn grid_centre(harness: &Harness<'_, GolabApp>, x: i64, y: i64) -> Pos2 {
    let (ox, oy) = grid_origin(harness);
    let (cam, rect) = (harness.state().view.camera, harness.state().view.rect);
    cam.cell_centre(rect, x + ox, y + oy)
}

#[test]
fn clicking_run_advances_generations_and_pause_stops_them() {
    let mut harness = harness(settings(64, 48, 30.0));
    harness.get_by_label("Start").click();
    let snap = wait_for(&mut harness, "generations to advance", |s| {
        s.generation >= 3 && s.running
    });
    assert!(snap.stats.population > 0);
    // The frame `wait_for` ran may have drawn the snapshot before the one it returned.
    harness.step();
    harness.get_by_label("Stop").click();
    let paused = wait_for(&mut harness, "the pause", |s| !s.running);
    std::thread::sleep(Duration::from_millis(100));
    harness.step();
    assert_eq!(
        harness.state().runner().snapshot().generation,
        paused.generation
    );
}

#[test]
fn every_strategy_in_the_combo_box_takes_over_the_same_world() {
    let mut harness = harness(settings(45, 37, 35.0));
    let _ = wait_for(&mut harness, "the first statistics", |s| {
        s.stats.population > 0
    });
    let before = read_world(&harness);
    for &strategy in Strategy::ALL {
        harness.get_by_label("strategy").click();
        harness.run_steps(2);
        harness.get_by_label(strategy.name()).click();
        harness.run_steps(2);
        let snap = wait_for(&mut harness, strategy.name(), |s| s.strategy == strategy);
        assert_eq!(snap.generation, 0);
        let after = read_world(&harness);
        assert_eq!(
            after.state_hash(),
            before.state_hash(),
            "{} changed the world",
            strategy.name()
        );
    }
}

#[test]
fn choosing_a_size_preset_resizes_with_the_pattern_centred() {
    let mut harness = harness(settings(64, 64, 25.0));
    let before = read_world(&harness);
    harness.get_by_label("preset").click();
    harness.run_steps(2);
    harness.get_by_label("256²").click();
    let _ = wait_for(&mut harness, "the resize", |s| {
        s.grid_size() == Some((256, 256))
    });
    let after = read_world(&harness);
    assert_eq!(after, before.resized(256, 256).unwrap());
}

/// The cells a drag through `stops` paints (the lines between them), row-major.
fn stroke_cells(stops: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut cells: Vec<(i64, i64)> = stops
        .windows(2)
        .flat_map(|w| line_cells(w[0], w[1]))
        .collect();
    cells.sort_by_key(|&(x, y)| (y, x));
    cells.dedup();
    cells
}

fn drag(harness: &mut Harness<'_, GolabApp>, button: PointerButton, path: &[Pos2]) {
    harness.event(Event::PointerMoved(path[0]));
    harness.step();
    let press = |pressed, pos| Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: Modifiers::NONE,
    };
    harness.event(press(true, path[0]));
    harness.step();
    for &p in &path[1..] {
        harness.event(Event::PointerMoved(p));
        harness.step();
    }
    harness.event(press(false, *path.last().unwrap()));
    harness.step();
    harness.step();
}

#[test]
fn a_pointer_drag_paints_exactly_the_cells_under_it_and_undo_restores() {
    let mut harness = harness(settings(96, 64, 0.0));
    harness.run_steps(3);
    let stops = [(10, 10), (40, 22), (41, 50)];
    let path = stops.map(|(x, y)| grid_centre(&harness, x, y));
    drag(&mut harness, PointerButton::Primary, &path);
    let expected = stroke_cells(&stops);
    // The stroke's edits reach the simulation thread in several commands and statistics
    // follow them; wait for the whole stroke, then check it cell by cell.
    let _ = wait_for(&mut harness, "the painted cells", |s| {
        s.stats.population >= expected.len() as u64
    });
    assert_eq!(live_cells(&read_world(&harness)), expected);
    assert_eq!(
        harness.state().runner().snapshot().stats.population,
        expected.len() as u64
    );

    let erase = [grid_centre(&harness, 10, 10), grid_centre(&harness, 12, 11)];
    drag(&mut harness, PointerButton::Secondary, &erase);
    let erased = read_world(&harness);
    assert!(!erased.is_alive(10, 10), "right drag erases");

    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    let _ = wait_for(&mut harness, "the undo of the erase", |s| {
        s.stats.population == expected.len() as u64
    });
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    let _ = wait_for(&mut harness, "the undo of the drawing", |s| {
        s.stats.population == 0 && !s.can_undo
    });
    assert!(live_cells(&read_world(&harness)).is_empty());
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, egui::Key::Z);
    harness.step();
    let _ = wait_for(&mut harness, "the redo", |s| {
        s.stats.population == expected.len() as u64
    });
    assert_eq!(live_cells(&read_world(&harness)), expected);
}

#[test]
fn the_help_overlay_lists_the_shortcuts() {
    let mut harness = harness(settings(32, 32, 10.0));
    harness.key_press(egui::Key::F1);
    harness.run_steps(2);
    harness.get_by_label("Keys and mouse");
    // Golly's Enter runs and stops; the help lists the binding as it is now.
    harness.get_by_label("Start / Stop generating");
    harness.get_by_label("Middle drag");
}

#[test]
fn a_small_sort_runs_from_the_lab_tab_and_its_table_appears() {
    let mut harness = harness(settings(32, 32, 10.0));
    harness.get_by_label("Lab").click();
    harness.run_steps(2);
    // Untick the preset ticked for this device (2^14 on a CPU device, 2^20 on a GPU).
    let preset = if harness.state().software_gpu() {
        "2^14"
    } else {
        "2^20"
    };
    harness.get_by_label(preset).click();
    harness.get_by_label("more sizes").click();
    harness.run_steps(1);
    harness.get_by_label("more sizes").type_text("2^10, 3000");
    harness.run_steps(2);
    harness.get_by_label("Run").click();
    harness.run_steps(2);
    let start = Instant::now();
    while harness.state().lab_tab().is_running() || harness.state().lab_tab().report.is_none() {
        let status = harness.state().lab_tab().status();
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the Lab run did not finish: {status}"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    harness.run_steps(2);
    let report = harness.state().lab_tab().report.clone().unwrap();
    assert_eq!(report.experiment, "sort");
    assert!(report.all_validated(), "{}", report.to_markdown());
    let sizes: Vec<u64> = report.rows.iter().map(|r| r.size).collect();
    assert!(
        sizes.contains(&1024) && sizes.contains(&3000) && !sizes.contains(&(1 << 20)),
        "{sizes:?}"
    );
    assert!(
        report.rows.len() >= 14,
        "every configuration has a row per size"
    );
    harness.get_by_label("ms (median)");
    assert!(
        harness.get_all_by_label("B2B4B8B16+C2C4").count() >= 3,
        "checkbox plus a row per size"
    );
    assert!(harness.query_by_label("FAILED").is_none());
}

#[test]
fn a_library_pattern_follows_the_cursor_and_a_click_places_it_there() {
    let mut harness = harness(settings(64, 48, 0.0));
    // The pattern browser's find field searches golab's library and Golly's folders.
    harness.get_by_label("find").click();
    harness.run_steps(1);
    harness.get_by_label("find").type_text("glid");
    harness.run_steps(2);
    harness.get_by_label("glider").click();
    harness.run_steps(2);
    assert!(
        harness.state().view.placing.is_some(),
        "the pattern follows the cursor"
    );
    let at = grid_centre(&harness, 20, 15);
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
    let _ = wait_for(&mut harness, "the placed glider", |s| {
        s.stats.population == 5
    });
    let glider = golab::pattern::library::find("glider").unwrap();
    // The ghost is centred on the cell under the pointer (plane coordinates), then placed.
    let (ox, oy) = grid_origin(&harness);
    let (x, y) = golab::app::world_view::ghost_origin((20 + ox, 15 + oy), &glider);
    let (x, y) = (x - ox, y - oy);
    let expected: Vec<(i64, i64)> = glider
        .cells
        .iter()
        .map(|&(cx, cy)| (x + i64::from(cx), y + i64::from(cy)))
        .collect();
    let mut expected = expected;
    expected.sort_by_key(|&(x, y)| (y, x));
    assert_eq!(live_cells(&read_world(&harness)), expected);
    assert!(
        harness.state().view.placing.is_none(),
        "one click places one copy"
    );
}

#[test]
fn n_cycles_strategies_and_tab_steps_leaving_the_keyboard_to_the_shortcuts() {
    let mut harness = harness(settings(40, 30, 30.0));
    let all = Strategy::ALL;
    let first = all.iter().position(|&s| s == Strategy::Scalar).unwrap();
    for i in 1..=3 {
        press(&mut harness, egui::Key::N);
        let want = all[(first + i) % all.len()];
        let _ = wait_for(&mut harness, want.name(), |s| s.strategy == want);
        assert!(
            !harness.ctx.egui_wants_keyboard_input(),
            "Tab gave a widget the keyboard"
        );
    }
    let before = harness.state().runner().snapshot().generation;
    // Golly's Tab: one step (base^exponent generations; 1 at the default exponent 0).
    press(&mut harness, egui::Key::Tab);
    let _ = wait_for(&mut harness, "Tab to step after N", |s| {
        s.generation == before + 1
    });
}

#[test]
fn world_shortcuts_do_nothing_on_the_lab_tab_but_help_opens() {
    let mut harness = harness(settings(40, 30, 30.0));
    let before = wait_for(&mut harness, "the first statistics", |s| {
        s.stats.population > 0
    });
    harness.get_by_label("Lab").click();
    harness.run_steps(2);
    for key in [egui::Key::C, egui::Key::R, egui::Key::N, egui::Key::Tab] {
        press(&mut harness, key);
    }
    harness.run_steps(5);
    std::thread::sleep(Duration::from_millis(200));
    harness.step();
    let after = harness.state().runner().snapshot();
    assert_eq!(after.generation, before.generation);
    assert_eq!(after.strategy, before.strategy);
    assert_eq!(after.stats.population, before.stats.population);
    press(&mut harness, egui::Key::F1);
    assert!(
        harness.state().help_open,
        "F1 opens the help on the Lab tab too"
    );
}

/// A file dropped on the window, as eframe hands it to egui on native platforms.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drop a fresh file holding `text` on the window; the caller removes it once the world
/// has been read from it.
fn drop_file(harness: &mut Harness<'_, GolabApp>, name: &str, text: &str) -> std::path::PathBuf {
    let path = temp_file(name, text);
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path.clone())));
    harness.step();
    path
}

#[test]
fn a_dropped_pattern_file_opens_and_a_malformed_one_leaves_the_world() {
    let mut harness = harness(settings(40, 30, 30.0));
    let before = wait_for(&mut harness, "the first statistics", |s| {
        s.stats.population > 0
    });
    let bad = drop_file(&mut harness, "bad.rle", "x = 3, y = 3\nbo$2bo$03o!\n");
    harness.run_steps(3);
    std::thread::sleep(Duration::from_millis(200));
    harness.step();
    let after_bad = harness.state().runner().snapshot();
    assert_eq!(after_bad.stats.population, before.stats.population);
    let glider = drop_file(&mut harness, "glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
    let _ = wait_for(&mut harness, "the dropped glider", |s| {
        s.stats.population == 5
    });
    let _ = std::fs::remove_file(bad);
    let _ = std::fs::remove_file(glider);
}

#[test]
fn a_bounded_grid_file_sets_the_world_its_info_shows_and_an_apgcode_pastes() {
    let mut harness = harness(settings(40, 30, 30.0));
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/glider-torus.rle"
    );
    let dropped = drop_file(
        &mut harness,
        "torus.rle",
        &std::fs::read_to_string(fixture).unwrap(),
    );
    let snap = wait_for(&mut harness, "the glider's 16x16 torus", |s| {
        s.grid_size() == Some((16, 16)) && s.stats.population == 5
    });
    let _ = std::fs::remove_file(dropped);
    assert_eq!(
        snap.capabilities.bounded.map(|b| b.topology),
        Some(golab::world::Topology::Torus)
    );
    harness.run_steps(2);
    harness.get_by_label("Glider on a 16x16 torus");
    // Pos=-1,-1 on a 16x16 grid centred on Golly's origin: the box's corner is at (7, 7).
    let world = read_world(&harness);
    assert_eq!(live_cells(&world), [(8, 7), (9, 8), (7, 9), (8, 9), (9, 9)]);
    assert_eq!(world.generation, 8);
    // An apgcode pasted as text follows the cursor like any pattern.
    harness.state_mut().paste(Some("xs4_33"));
    let placing = harness.state().view.placing.clone();
    assert_eq!(placing.map(|p| p.population()), Some(4));
}

/// A 60×40 world under `rule` drawn on `layout`, in which a drag through the centres of
/// the cells at `stops` paints exactly the cells on the lines between them.
fn drag_paints_where_the_pointer_is(
    rule: &str,
    layout: CellLayout,
    stops: &[(i64, i64)],
) -> Harness<'static, GolabApp> {
    let mut s = settings(60, 40, 0.0);
    s.rule = rule.into();
    let mut harness = harness(s);
    // The view fits the world once it has arrived; the drag must aim at that view.
    let wanted: golab::rule::Rule = rule.parse().unwrap();
    let snap = wait_for(&mut harness, "the world under its rule", |s| {
        s.grid_size() == Some((60, 40)) && s.rule == wanted
    });
    harness.run_steps(3);
    let (cam, rect) = (harness.state().view.camera, harness.state().view.rect);
    assert_eq!(cam.layout, layout, "{rule} is drawn on its own layout");
    // The view speaks plane coordinates: the grid's cell (0, 0) lies at its frame's corner.
    let frame = snap.frame.expect("a grid's frame");
    let (ox, oy) = (frame.x0 as i64, frame.y0 as i64);
    let path: Vec<Pos2> = stops
        .iter()
        .map(|&(x, y)| cam.cell_centre(rect, x + ox, y + oy))
        .collect();
    drag(&mut harness, PointerButton::Primary, &path);
    let expected = stroke_cells(stops);
    let _ = wait_for(&mut harness, "the painted cells", |s| {
        s.stats.population >= expected.len() as u64
    });
    assert_eq!(live_cells(&read_world(&harness)), expected, "{rule}");
    harness
}

/// A hexagonal rule is drawn on the hexagonal layout, and a drag paints exactly the cells
/// whose hexagons it passes through the centres of; a Klein bottle file opens as one.
#[test]
fn hexagons_are_painted_where_the_pointer_is_and_golly_surfaces_open() {
    let stops = [(10, 10), (30, 14), (31, 33)];
    let mut harness = drag_paints_where_the_pointer_is("B2/S34H", CellLayout::Hexagonal, &stops);
    let klein = "#CXRLE Pos=-1,-1\nx = 3, y = 3, rule = B3/S23:K20*,16\nbo$2bo$3o!\n";
    let dropped = drop_file(&mut harness, "klein.rle", klein);
    let snap = wait_for(&mut harness, "the Klein bottle", |s| {
        s.grid_size() == Some((20, 16)) && s.stats.population == 5
    });
    let _ = std::fs::remove_file(dropped);
    harness.run_steps(2);
    assert_eq!(
        snap.capabilities.bounded.map(|b| b.topology),
        Some(golab::world::Topology::Joined(
            golab::world::Join::KleinTopBottom { shift: false }
        ))
    );
    assert_eq!(
        harness.state().view.camera.layout,
        CellLayout::Square,
        "B3/S23 is drawn square"
    );
}

/// A triangular Larger than Life rule is drawn as triangles, and a drag paints exactly the
/// cells whose triangles it stops in — upward and downward ones alike.
#[test]
fn triangles_are_painted_where_the_pointer_is() {
    let stops = [(10, 10), (11, 10), (30, 14), (31, 33)];
    drag_paints_where_the_pointer_is("R1,C0,S1,B1,10,11,12,NL", CellLayout::Triangular, &stops);
}

/// Under a many-state rule the Draw tool paints the state picked in the palette (here
/// WireWorld's conductor, state 3), and erasing still clears to state 0.
#[test]
fn the_state_palette_paints_the_picked_state() {
    let mut s = settings(48, 32, 0.0);
    s.rule = "WireWorld".into();
    let mut harness = harness(s);
    harness.run_steps(3);
    harness.get_by_label("paints").click();
    harness.run_steps(2);
    // The legend names the state too; the popup's entry comes first.
    let entry = harness.get_all_by_label("3 conductor").next().unwrap();
    entry.click();
    harness.run_steps(2);
    assert_eq!(harness.state().view.paint_state, 3);
    let stops = [(5, 5), (20, 5)];
    let path = stops.map(|(x, y)| grid_centre(&harness, x, y));
    drag(&mut harness, PointerButton::Primary, &path);
    let expected = stroke_cells(&stops);
    let _ = wait_for(&mut harness, "the painted conductor", |s| {
        s.stats.dying as usize >= expected.len()
    });
    let world = read_world(&harness);
    for &(x, y) in &expected {
        assert_eq!(world.state_at((y * 48 + x) as usize), 3, "({x}, {y})");
    }
    let erase = [grid_centre(&harness, 5, 5), grid_centre(&harness, 6, 5)];
    drag(&mut harness, PointerButton::Secondary, &erase);
    let _ = wait_for(&mut harness, "the erased cells", |s| {
        (s.stats.dying as usize) < expected.len()
    });
    assert_eq!(read_world(&harness).state_at(5 * 48 + 5), 0);
}
