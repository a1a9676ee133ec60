//! The controller under fake timings: a soup that settles (its best strip moves from tens of
//! rows to about a dozen), noisy timings on a steady world, reloads, fixed shapes and the
//! neighbour steps.

use super::super::tuner::fake::{DEVICES, Device, model, settled};
use super::*;

/// A world that moves from the fresh model to the settled one over `settle` batches.
struct Settling {
    device: Device,
    rows: u32,
    settle: u32,
}

impl Settling {
    fn time(&self, batch: u32, shape: Shape) -> f64 {
        let s = (f64::from(batch) / f64::from(self.settle.max(1))).min(1.0);
        (1.0 - s) * model(self.device, self.rows, self.rows, shape) + s * settled(self.rows, shape)
    }
}

/// Drive `c` for `batches` batches of 64 dispatches with multiplicative noise up to `noise`;
/// `time(batch, shape)` gives seconds per generation. Returns the shapes chosen after each.
fn drive(
    c: &mut ShapeController,
    batches: u32,
    noise: f64,
    time: impl Fn(u32, Shape) -> f64,
) -> Vec<Shape> {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    (0..batches)
        .map(|b| {
            let shape = c.for_batch(64 * 6);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let jitter = 1.0 + noise * ((rng % 2001) as f64 / 1000.0 - 1.0);
            let gens = 64 * u64::from(shape.gens);
            c.observe(shape, gens, gens as f64 * time(b, shape) * jitter);
            c.shape()
        })
        .collect()
}

/// The best strip of `time` over every strip height (6 generations per dispatch).
fn best(rows: u32, time: impl Fn(Shape) -> f64) -> f64 {
    (1..=rows)
        .map(|strip| time(Shape { gens: 6, strip }))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_settling_soup_ends_within_ten_percent_of_its_settled_best_shape() {
    let rows = 8192;
    let world = Settling {
        device: DEVICES[0],
        rows,
        settle: 1500,
    };
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    let shapes = drive(&mut c, 4000, 0.02, |b, s| world.time(b, s));
    let end = *shapes.last().unwrap();
    let best_settled = best(rows, |s| settled(rows, s));
    assert!(
        settled(rows, end) <= 1.10 * best_settled,
        "ended on {end:?}: {:.3e} s/gen against the best {best_settled:.3e}; decisions: {:#?}",
        settled(rows, end),
        c.decisions().collect::<Vec<_>>()
    );
    // The fresh soup's choice was far from the settled one: the watch followed the world.
    assert!(
        shapes[300].strip > 2 * end.strip,
        "{:?} then {end:?}",
        shapes[300]
    );
    assert!(!c.tuning(), "{}", c.state());
}

#[test]
fn on_a_steady_world_with_noisy_timings_the_shape_stays_put() {
    for device in DEVICES {
        let rows = if device.sms < 8 { 1024 } else { 8192 };
        let mut c = ShapeController::new(Space::new(8, None, None, rows));
        let time = |_: u32, s: Shape| model(device, rows, rows, s);
        let shapes = drive(&mut c, 3000, 0.02, time);
        let settled_on = shapes[1500];
        let best = (1..=rows)
            .flat_map(|strip| (6..=8).map(move |gens| Shape { gens, strip }))
            .map(|s| model(device, rows, rows, s))
            .fold(f64::INFINITY, f64::min);
        let end = *shapes.last().unwrap();
        assert!(
            model(device, rows, rows, end) <= 1.10 * best,
            "{}: {end:?}",
            device.name
        );
        // Stable: every shape chosen in the second half within 3 % of the first of it.
        for s in &shapes[1500..] {
            let (a, b) = (
                model(device, rows, rows, *s),
                model(device, rows, rows, settled_on),
            );
            assert!(
                a <= 1.03 * b && b <= 1.03 * a,
                "{}: {settled_on:?} then {s:?}",
                device.name
            );
        }
    }
}

#[test]
fn probes_are_bracketed_and_a_move_needs_a_clear_gain() {
    let rows = 8192;
    let mut c = ShapeController::new(Space::new(6, Some(6), Some(40), rows));
    // A fixed strip: never a probe, never tuning.
    assert!(!c.tuning());
    for _ in 0..100 {
        let s = c.for_batch(600);
        assert_eq!(s, Shape { gens: 6, strip: 40 });
        c.observe(s, 600, 1e-3);
    }
    // A free strip on a world where every shape runs alike: probes run, nothing moves.
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    let shapes = drive(&mut c, 1000, 0.0, |_, _| 1e-6);
    assert!(shapes[200..].iter().all(|&s| s == shapes[200]));
    // Probe batches run a neighbour of the chosen shape, one batch at a time.
    let chosen = c.shape();
    let mut probes = 0;
    for _ in 0..4 * PROBE_EVERY {
        let s = c.for_batch(600);
        if s != chosen {
            probes += 1;
            let near = [Direction::Shorter, Direction::Taller].map(|d| neighbour(chosen, d, rows));
            assert!(near.contains(&Some(s)), "{s:?} beside {chosen:?}");
        }
        c.observe(s, 600, 600e-6);
    }
    assert!((2..=6).contains(&probes), "{probes} probes");
    // A batch too short to time runs the chosen shape, whatever is due.
    assert_eq!(c.for_batch(6), chosen);
}

#[test]
fn a_reload_drops_the_pending_probe() {
    let rows = 4096;
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    drive(&mut c, 600, 0.0, |_, s| model(DEVICES[0], rows, rows, s));
    let chosen = c.shape();
    // Run until a probe is due.
    let mut guard = 0;
    while c.for_batch(600) == chosen {
        c.observe(chosen, 600, 600.0 * model(DEVICES[0], rows, rows, chosen));
        guard += 1;
        assert!(guard < 100, "no probe came");
    }
    c.reloaded();
    assert_eq!(c.for_batch(600), chosen, "the probe was dropped");
    // A batch after the reload, however slow, closes no bracket: no decision from it.
    let before = c.decisions().count();
    c.observe(chosen, 600, 1.0);
    assert_eq!(c.decisions().count(), before);
}

#[test]
fn a_sweep_by_passes_starts_again_by_batches_when_the_world_stops_repeating() {
    let rows = 4096;
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    c.repeating();
    assert!(c.sweeping());
    // Three passes into the sweep the world is edited: the passes' wide brackets would now
    // span batches of a changing world, so the sweep starts again by batches.
    let time = |s| 600.0 * model(DEVICES[0], rows, rows, s);
    for _ in 0..3 {
        let s = c.for_batch(600);
        c.observe(s, 600, time(s));
    }
    c.reloaded();
    assert!(c.sweeping());
    assert!(
        c.decisions()
            .any(|d| d.contains("sweeping again by batches")),
        "{:?}",
        c.decisions().collect::<Vec<_>>()
    );
    // By batches: one candidate between two references (after the skipped first ones).
    let reference = c.for_batch(600);
    let mut references = 0;
    while c.for_batch(600) == reference {
        c.observe(reference, 600, time(reference));
        references += 1;
        assert!(references < 5, "no candidate");
    }
    let candidate = c.for_batch(600);
    c.observe(candidate, 600, time(candidate));
    assert_eq!(
        c.for_batch(600),
        reference,
        "the bracket closes after one candidate"
    );
}

#[test]
fn neighbours_stay_in_the_world_and_step_the_strip_count() {
    for rows in [1u32, 2, 3, 7, 100, 8192] {
        for strip in 1..=rows.min(300) {
            let shape = Shape { gens: 6, strip };
            let count = rows.div_ceil(strip);
            if let Some(n) = neighbour(shape, Direction::Shorter, rows) {
                assert!(
                    n.strip < strip && n.strip >= MIN_STRIP.min(rows),
                    "{rows} {strip} {n:?}"
                );
                assert!(rows.div_ceil(n.strip) > count);
            }
            if let Some(n) = neighbour(shape, Direction::Taller, rows) {
                assert!(n.strip > strip && n.strip <= rows, "{rows} {strip} {n:?}");
                assert!(rows.div_ceil(n.strip) < count);
            }
        }
    }
    let s = |strip| Shape { gens: 6, strip };
    assert_eq!(neighbour(s(8192), Direction::Taller, 8192), None);
    assert_eq!(neighbour(s(2), Direction::Shorter, 8192), None);
}

#[test]
fn a_tuned_shape_is_tuned_again_once_the_world_runs_more_than_twice_as_fast_or_slow() {
    let mut drift = Drift::default();
    let batch = |drift: &mut Drift, per_gen: f64| drift.observe(per_gen);
    // The first window sets the reference; noise within 2× never re-tunes.
    for i in 0..40 {
        let noise = if i % 3 == 0 { 1.6 } else { 0.8 };
        assert!(!batch(&mut drift, 1e-5 * noise), "batch {i}");
    }
    // The world settles and runs 3× faster: re-tune once the median has moved, then the
    // watch starts over from the new speed.
    let moved: Vec<bool> = (0..DRIFT_WINDOW).map(|_| batch(&mut drift, 3e-6)).collect();
    assert_eq!(moved.iter().filter(|&&m| m).count(), 1, "{moved:?}");
    assert!(moved[DRIFT_WINDOW / 2..].contains(&true));
    for i in 0..3 * DRIFT_WINDOW {
        assert!(
            !batch(&mut drift, 3e-6),
            "steady after re-tuning, batch {i}"
        );
    }
    // Slower by more than 2× (a glider gun grows, the user paints a soup) re-tunes too.
    assert!((0..DRIFT_WINDOW).any(|_| batch(&mut drift, 1e-5)));
}

#[test]
fn one_lucky_probe_does_not_move_the_shape() {
    // Every shape costs the same; the first probe after the checks runs 20 % fast (the
    // window's frames paused meanwhile): it must win again before the shape moves.
    let rows = 8192;
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    drive(&mut c, 400, 0.0, |_, _| 1e-6);
    assert!(!c.tuning(), "{}", c.state());
    let chosen = c.shape();
    let mut lucky = true;
    for _ in 0..4 * PROBE_EVERY {
        let s = c.for_batch(600);
        let cost = if s != chosen && std::mem::take(&mut lucky) {
            0.8e-6
        } else {
            1e-6
        };
        c.observe(s, 600, 600.0 * cost);
    }
    assert!(!lucky, "no probe ran");
    assert_eq!(
        c.shape(),
        chosen,
        "{:#?}",
        c.decisions().collect::<Vec<_>>()
    );
}

#[test]
fn a_probe_whose_bracket_moved_counts_for_nothing() {
    // Every shape costs the same, but the world's speed halves every batch (a fresh soup's
    // window started again and again): a probe between two batches of the chosen shape
    // would look 20 % faster than the mean of the two. No bracket that moved more than
    // STEADY counts, so the shape stays.
    let rows = 8192;
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    drive(&mut c, 400, 0.0, |_, _| 1e-6);
    let chosen = c.shape();
    let halving = |b: u32, _| 1e-6 * 0.5f64.powi((b % 4) as i32);
    let shapes = drive(&mut c, 400, 0.0, halving);
    assert!(
        shapes.iter().all(|&s| s == chosen),
        "{:#?}",
        c.decisions().collect::<Vec<_>>()
    );
    // On such a world from the start, the controller still finishes: a direction whose
    // probe said nothing counts as checked.
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    drive(&mut c, 600, 0.0, halving);
    assert!(
        !c.tuning(),
        "{}: {:#?}",
        c.state(),
        c.decisions().collect::<Vec<_>>()
    );
}

#[test]
fn a_tuned_shape_whose_speed_moves_past_the_drift_factor_is_swept_again() {
    // A steady world tuned, then every shape suddenly three times slower (a world that
    // changed under a tuned shape): the drift watch starts a new sweep, logged once.
    let rows = 8192;
    let mut c = ShapeController::new(Space::new(6, Some(6), None, rows));
    let steady = |s: Shape| model(DEVICES[0], rows, rows, s);
    drive(&mut c, 600, 0.0, |_, s| steady(s));
    assert!(!c.sweeping(), "tuned on the steady world: {}", c.state());
    let drifted = |c: &ShapeController| {
        c.decisions()
            .any(|d| d.to_string().contains("moved more than"))
    };
    assert!(!drifted(&c));
    let mut swept = false;
    for _ in 0..10 * DRIFT_WINDOW {
        drive(&mut c, 1, 0.0, |_, s| 3.0 * steady(s));
        if c.sweeping() {
            swept = true;
            break;
        }
    }
    let notes: Vec<String> = c.decisions().map(|d| d.to_string()).collect();
    assert!(swept, "no sweep after the slowdown: {notes:#?}");
    assert!(drifted(&c), "{notes:#?}");
}
