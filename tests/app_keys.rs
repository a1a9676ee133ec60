//! Golly's keys (#54): every default binding of Golly 5's `AddDefaultKeyActions` pressed in
//! the real window, each checked by what it does to the world, the view or the window (not
//! by which action it names), on an R-pentomino opened as Golly opens it.

mod app_harness;
mod common;

use std::collections::BTreeSet;
use std::sync::mpsc::channel;
use std::time::Duration;

use app_harness::{harness, open, settings, temp_file, wait_for};
use egui::{Event, Key, Modifiers};
use egui_kittest::Harness;
use golab::app::keymap::{Action, Chord, Keymap};
use golab::app::world_view::Tool;
use golab::app::{GolabApp, Tab};
use golab::runner::{Command, Selection};

/// The R-pentomino, top-left at the origin: (1,0) (2,0) (0,1) (1,1) (1,2).
const R_PENTOMINO: &str = "x = 3, y = 3\nb2o$2ob$bo!\n";

/// A window with the R-pentomino open and paused.
fn window() -> Harness<'static, GolabApp> {
    let mut h = harness(settings(64, 64, 0.0));
    let path = temp_file("keys-r.rle", R_PENTOMINO);
    open(&mut h, &path);
    let _ = std::fs::remove_file(path);
    let _ = wait_for(&mut h, "the R-pentomino", |s| s.population == 5);
    h
}

/// Press `chord` as a user would (a key with its modifiers, or a typed character), then
/// let two frames pass.
fn hit(h: &mut Harness<'_, GolabApp>, chord: Chord) {
    match chord {
        Chord::Char(c) => h.event(Event::Text(c.to_string())),
        Chord::Key {
            key,
            shift,
            command,
            alt,
        } => {
            let modifiers = Modifiers {
                alt,
                ctrl: command,
                shift,
                mac_cmd: false,
                command,
            };
            for pressed in [true, false] {
                h.event(Event::Key {
                    key,
                    physical_key: None,
                    pressed,
                    repeat: false,
                    modifiers,
                });
            }
        }
    }
    h.run_steps(2);
}

/// The plane's cells in state 1 within 40 cells of the origin (a copy of the region).
fn cells(h: &mut Harness<'_, GolabApp>) -> BTreeSet<(i64, i64)> {
    h.run_steps(1);
    let (tx, rx) = channel();
    h.state().runner().send(Command::Copy {
        selection: Selection::from_corners((-40, -40), (40, 40)),
        cut: false,
        reply: tx,
    });
    let p = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the simulation thread answers")
        .expect("the region copies");
    p.cells
        .iter()
        .map(|&(x, y)| (x as i64 - 40, y as i64 - 40))
        .collect()
}

/// Wait (up to 30 s) until the cells are `want`.
fn wait_cells(h: &mut Harness<'_, GolabApp>, what: &str, want: &BTreeSet<(i64, i64)>) {
    let start = std::time::Instant::now();
    loop {
        if &cells(h) == want {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what}: cells {:?}, want {want:?}",
            cells(h)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Select the whole pattern with A and wait for the box.
fn select_all(h: &mut Harness<'_, GolabApp>) -> Selection {
    hit(h, Chord::key(Key::A));
    for _ in 0..3000 {
        if let Some(s) = h.state().view.selection {
            return s;
        }
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("A selected nothing");
}

fn set(points: &[(i64, i64)]) -> BTreeSet<(i64, i64)> {
    points.iter().copied().collect()
}

/// The keys a Golly user presses, as `Keymap::golly()` binds them: this suite presses
/// the chord the keymap holds for each action, so a rebinding would fail it.
fn chord(action: Action) -> Chord {
    Keymap::golly()
        .chords_of(action)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{action:?} has no key"))
}

#[test]
fn golly_s_bindings_are_the_keymap_s_defaults() {
    use Action as A;
    let map = Keymap::golly();
    let golly = [
        (Chord::key(Key::Enter), A::StartStop),
        (Chord::key(Key::Space), A::NextGen),
        (Chord::key(Key::Tab), A::NextStep),
        (Chord::ctrl(Key::Space), A::AdvanceSelection),
        (Chord::shift(Key::Space), A::AdvanceOutside),
        (Chord::key(Key::Plus), A::Faster),
        (Chord::key(Key::Equals), A::Faster),
        (Chord::key(Key::Minus), A::Slower),
        (Chord::Char('_'), A::Slower),
        (Chord::ctrl(Key::R), A::Reset),
        (Chord::key(Key::ArrowLeft), A::Left),
        (Chord::key(Key::CloseBracket), A::ZoomIn),
        (Chord::key(Key::OpenBracket), A::ZoomOut),
        (Chord::key(Key::Num1), A::Scale1),
        (Chord::key(Key::Num3), A::Scale32),
        (Chord::key(Key::F), A::Fit),
        (Chord::shift(Key::F), A::FitSelection),
        (Chord::key(Key::M), A::Middle),
        (Chord::key(Key::Num0), A::ChangeOrigin),
        (Chord::key(Key::Num9), A::RestoreOrigin),
        (Chord::key(Key::T), A::AutoFit),
        (Chord::key(Key::S), A::ShrinkFit),
        (Chord::key(Key::K), A::RemoveSelection),
        (Chord::key(Key::A), A::SelectAll),
        (Chord::key(Key::V), A::Paste),
        (Chord::key(Key::Delete), A::Clear),
        (Chord::shift(Key::Delete), A::ClearOutside),
        (Chord::ctrl(Key::Num5), A::RandomFill),
        (Chord::key(Key::Z), A::Undo),
        (Chord::shift(Key::Z), A::Redo),
        (Chord::key(Key::X), A::FlipLeftRight),
        (Chord::key(Key::Y), A::FlipTopBottom),
        (Chord::Char('>'), A::RotateCw),
        (Chord::Char('<'), A::RotateCcw),
        (Chord::key(Key::C), A::CycleCursor),
        (Chord::key(Key::F2), A::CursorDraw),
        (Chord::key(Key::F7), A::CursorZoomOut),
        (Chord::key(Key::L), A::ShowGrid),
        (Chord::key(Key::B), A::Invert),
        (Chord::key(Key::E), A::ShowExact),
        (Chord::key(Key::I), A::Info),
        (Chord::key(Key::H), A::Help),
        (Chord::Char('?'), A::Help),
        (Chord::key(Key::F11), A::FullScreen),
        (Chord::ctrl(Key::N), A::New),
        (Chord::ctrl(Key::O), A::Open),
        (Chord::ctrl(Key::S), A::Save),
    ];
    for (chord, action) in golly {
        assert!(
            map.chords_of(action).contains(&chord),
            "{chord} should be {action:?} as in Golly, is {:?}",
            map.chords_of(action)
        );
    }
}

#[test]
fn the_control_keys_start_step_and_reset_as_in_golly() {
    let mut h = window();
    hit(&mut h, chord(Action::NextGen));
    let _ = wait_for(&mut h, "Space: one generation", |s| s.generation == 1);
    hit(&mut h, chord(Action::Faster));
    assert_eq!(h.state().settings.step.exponent, 1, "+ raises the exponent");
    hit(&mut h, chord(Action::NextStep));
    let _ = wait_for(&mut h, "Tab: a step of 10", |s| s.generation == 11);
    hit(&mut h, chord(Action::Slower));
    assert_eq!(h.state().settings.step.exponent, 0, "- lowers it");
    hit(&mut h, chord(Action::Reset));
    let _ = wait_for(&mut h, "Ctrl+R: back to generation 0", |s| {
        s.generation == 0 && s.population == 5
    });
    hit(&mut h, chord(Action::StartStop));
    let _ = wait_for(&mut h, "Enter starts", |s| s.running && s.generation > 0);
    hit(&mut h, chord(Action::StartStop));
    let _ = wait_for(&mut h, "Enter stops", |s| !s.running);
}

#[test]
fn the_view_keys_pan_zoom_scale_and_toggle_as_in_golly() {
    let mut h = window();
    let before = h.state().view.camera;
    hit(&mut h, chord(Action::Left));
    let after = h.state().view.camera;
    assert!(
        after.center[0] < before.center[0],
        "Left shows what lies left"
    );
    hit(&mut h, chord(Action::Down));
    assert!(
        h.state().view.camera.center[1] > after.center[1],
        "Down scrolls down"
    );
    hit(&mut h, chord(Action::Middle));
    assert_eq!(
        h.state().view.camera.center,
        [0.0, 0.0],
        "M: origin in the middle"
    );
    for (action, scale) in [
        (Action::Scale1, 1.0),
        (Action::Scale2, 2.0),
        (Action::Scale4, 4.0),
        (Action::Scale8, 8.0),
        (Action::Scale16, 16.0),
        (Action::Scale32, 32.0),
    ] {
        hit(&mut h, chord(action));
        assert_eq!(h.state().view.camera.cell_px, scale, "{action:?}");
    }
    hit(&mut h, chord(Action::ZoomOut));
    assert_eq!(h.state().view.camera.cell_px, 16.0, "[ halves the scale");
    hit(&mut h, chord(Action::ZoomIn));
    assert_eq!(h.state().view.camera.cell_px, 32.0, "] doubles it");
    // Fit frames the pattern: the R-pentomino's centre in the view's centre.
    hit(&mut h, chord(Action::Fit));
    for _ in 0..200 {
        h.run_steps(1);
    }
    let c = h.state().view.camera.center;
    assert!(
        (c[0] - 1.5).abs() < 0.6 && (c[1] - 1.5).abs() < 0.6,
        "F fits: {c:?}"
    );
    type Flag = fn(&GolabApp) -> bool;
    let toggles: [(Action, Flag); 7] = [
        (Action::AutoFit, |a| a.settings.autofit),
        (Action::ShowGrid, |a| a.settings.grid_lines),
        (Action::Invert, |a| a.settings.invert),
        (Action::ShowExact, |a| a.settings.exact_numbers),
        (Action::Info, |a| a.info_open),
        (Action::Help, |a| a.help_open),
        (Action::Preferences, |a| a.prefs.open),
    ];
    for (action, flag) in toggles {
        let was = flag(h.state());
        hit(&mut h, chord(action));
        assert_ne!(flag(h.state()), was, "{action:?} toggles");
        hit(&mut h, chord(action));
        assert_eq!(flag(h.state()), was, "{action:?} toggles back");
    }
    // ? opens the help too (a typed character).
    hit(&mut h, Chord::Char('?'));
    assert!(h.state().help_open);
    hit(&mut h, Chord::Char('?'));
    assert!(!h.state().help_open);
    // 0 shows the cell under the cursor as the origin, 9 restores it.
    let (cam, rect) = (h.state().view.camera, h.state().view.rect);
    h.event(Event::PointerMoved(cam.to_screen(rect, 2.5, 1.5)));
    h.run_steps(2);
    hit(&mut h, chord(Action::ChangeOrigin));
    assert_eq!(h.state().view.shown_origin, (2, 1));
    hit(&mut h, chord(Action::RestoreOrigin));
    assert_eq!(h.state().view.shown_origin, (0, 0));
}

#[test]
fn the_cursor_keys_pick_golly_s_cursor_modes() {
    let mut h = window();
    for (action, tool) in [
        (Action::CursorDraw, Tool::Draw),
        (Action::CursorPick, Tool::Pick),
        (Action::CursorSelect, Tool::Select),
        (Action::CursorMove, Tool::Move),
        (Action::CursorZoomIn, Tool::ZoomIn),
        (Action::CursorZoomOut, Tool::ZoomOut),
    ] {
        hit(&mut h, chord(action));
        assert_eq!(h.state().view.tool, tool, "{action:?}");
    }
    hit(&mut h, chord(Action::CycleCursor));
    assert_eq!(
        h.state().view.tool,
        Tool::Draw,
        "C cycles back to the first mode"
    );
    // golab's own keys sit where Golly has none: W the Lab tab, N the next strategy.
    hit(&mut h, chord(Action::ToggleLab));
    assert_eq!(h.state().tab, Tab::Lab);
    hit(&mut h, chord(Action::ToggleLab));
    assert_eq!(h.state().tab, Tab::World);
    let strategy = h.state().runner().snapshot().strategy;
    hit(&mut h, chord(Action::NextStrategy));
    let _ = wait_for(&mut h, "N: the next strategy", |s| s.strategy != strategy);
}

#[test]
fn the_edit_keys_select_flip_rotate_clear_and_undo_as_in_golly() {
    let mut h = window();
    let r = set(&[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)]);
    let selection = select_all(&mut h);
    assert_eq!(
        selection,
        Selection::from_corners((0, 0), (2, 2)),
        "A: the pattern's box"
    );
    hit(&mut h, chord(Action::FlipLeftRight));
    wait_cells(
        &mut h,
        "X flips left-right",
        &set(&[(1, 0), (0, 0), (2, 1), (1, 1), (1, 2)]),
    );
    hit(&mut h, chord(Action::FlipLeftRight));
    wait_cells(&mut h, "X again", &r);
    hit(&mut h, chord(Action::FlipTopBottom));
    wait_cells(
        &mut h,
        "Y flips top-bottom",
        &set(&[(1, 2), (2, 2), (0, 1), (1, 1), (1, 0)]),
    );
    hit(&mut h, chord(Action::Undo));
    wait_cells(&mut h, "Z undoes the flip", &r);
    hit(&mut h, chord(Action::Redo));
    wait_cells(
        &mut h,
        "Shift+Z redoes it",
        &set(&[(1, 2), (2, 2), (0, 1), (1, 1), (1, 0)]),
    );
    hit(&mut h, chord(Action::Undo));
    wait_cells(&mut h, "Z again", &r);
    // > turns the box clockwise: (x, y) -> (2 - y, x); < turns it back.
    hit(&mut h, chord(Action::RotateCw));
    wait_cells(
        &mut h,
        "> rotates clockwise",
        &set(&[(2, 1), (2, 2), (1, 0), (1, 1), (0, 1)]),
    );
    hit(&mut h, chord(Action::RotateCcw));
    wait_cells(&mut h, "< rotates back", &r);
    // Delete clears the selection, Shift+Delete what lies outside it.
    hit(&mut h, chord(Action::Clear));
    wait_cells(&mut h, "Delete clears", &BTreeSet::new());
    hit(&mut h, chord(Action::Undo));
    wait_cells(&mut h, "undo the clear", &r);
    h.state_mut().view.selection = Some(Selection::from_corners((0, 0), (1, 1)));
    hit(&mut h, chord(Action::ClearOutside));
    wait_cells(
        &mut h,
        "Shift+Delete clears outside",
        &set(&[(1, 0), (0, 1), (1, 1)]),
    );
    hit(&mut h, chord(Action::Undo));
    wait_cells(&mut h, "undo the clear outside", &r);
    // Ctrl+Space advances the selection alone, Shift+Space what lies outside it.
    h.state_mut().view.selection = Some(Selection::from_corners((-10, -10), (10, 10)));
    hit(&mut h, chord(Action::AdvanceSelection));
    wait_cells(
        &mut h,
        "Ctrl+Space: generation 1 inside",
        &set(&[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (1, 2)]),
    );
    hit(&mut h, chord(Action::Undo));
    wait_cells(&mut h, "undo the advance", &r);
    h.state_mut().view.selection = Some(Selection::from_corners((20, 20), (30, 30)));
    hit(&mut h, chord(Action::AdvanceOutside));
    wait_cells(
        &mut h,
        "Shift+Space: generation 1 outside",
        &set(&[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2), (1, 2)]),
    );
    hit(&mut h, chord(Action::Undo));
    wait_cells(&mut h, "undo the advance outside", &r);
    // Ctrl+5 fills the selection at random (a full density fills it all).
    h.state_mut().settings.density = 100.0;
    h.state_mut().view.selection = Some(Selection::from_corners((10, 10), (13, 12)));
    hit(&mut h, chord(Action::RandomFill));
    let mut filled = r.clone();
    filled.extend((10..=13).flat_map(|x| (10..=12).map(move |y| (x, y))));
    wait_cells(&mut h, "Ctrl+5 fills the selection", &filled);
    // S shrinks the selection to its cells; K removes it.
    h.state_mut().view.selection = Some(Selection::from_corners((5, 5), (20, 20)));
    hit(&mut h, chord(Action::ShrinkFit));
    for _ in 0..500 {
        if h.state().view.selection == Some(Selection::from_corners((10, 10), (13, 12))) {
            break;
        }
        h.run_steps(1);
    }
    assert_eq!(
        h.state().view.selection,
        Some(Selection::from_corners((10, 10), (13, 12))),
        "S shrinks the selection"
    );
    hit(&mut h, chord(Action::RemoveSelection));
    assert_eq!(h.state().view.selection, None, "K removes the selection");
    assert_eq!(cells(&mut h), filled, "K keeps the cells");
    // Ctrl+N: a new, empty world of the same kind.
    hit(&mut h, chord(Action::New));
    wait_cells(&mut h, "Ctrl+N empties the world", &BTreeSet::new());
    assert!(h.state().runner().snapshot().capabilities.bounded.is_none());
}
