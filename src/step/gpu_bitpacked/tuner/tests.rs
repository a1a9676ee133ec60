//! The tuner against fake devices: a model of the stream kernel's time per generation from
//! a device's figures (SMs, registers, subgroup size) and a world's size, with noise and a
//! world that speeds up while it is tuned. The tuner must pick a valid shape within 10 % of
//! the best shape found by trying every one.

use super::fake::{DEVICES, Device, exhaustive, model};
use super::*;

/// Run the tuner to its choice with batches of 64 dispatches, multiplicative noise up to
/// `noise`, and the world getting faster by `drift` over the run. Returns the choice and the
/// batches it took.
fn tune(device: Device, width: u32, space: Space, noise: f64, drift: f64) -> (Shape, u32) {
    let mut tuner = Tuner::new(space.clone()).expect("an open space");
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut batches = 0;
    loop {
        let shape = tuner.shape();
        assert!(space.gens.contains(&shape.gens), "{shape:?}");
        assert!((1..=space.rows).contains(&shape.strip), "{shape:?}");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let jitter = 1.0 + noise * ((rng % 2001) as f64 / 1000.0 - 1.0);
        let speedup = 1.0 - drift * (f64::from(batches) / 400.0).min(1.0);
        let gens = 64 * u64::from(shape.gens);
        let seconds = gens as f64 * model(device, width, space.rows, shape) * jitter * speedup;
        batches += 1;
        assert!(batches < 1000, "the tuner never finished");
        if let Some(choice) = tuner.observe(shape, gens, seconds) {
            return (choice, batches);
        }
    }
}

#[test]
fn on_fake_devices_the_choice_is_within_ten_percent_of_the_best_shape() {
    for device in DEVICES {
        for size in [1024u32, 4096, 8192, 16384, 65536] {
            if device.sms < 8 && size > 4096 {
                continue;
            }
            let space = Space::new(8, None, None, size);
            let (best, best_time) = exhaustive(device, size, &space);
            for (noise, drift) in [(0.0, 0.0), (0.02, 0.0), (0.02, 0.3)] {
                let (choice, batches) = tune(device, size, space.clone(), noise, drift);
                let time = model(device, size, size, choice);
                assert!(
                    time <= 1.10 * best_time,
                    "{} at {size}² (noise {noise}, drift {drift}): chose {choice:?} at {time:.3e} \
                     s/gen, best {best:?} at {best_time:.3e}",
                    device.name
                );
                assert!(
                    batches < 400,
                    "{} at {size}²: {batches} batches",
                    device.name
                );
            }
        }
    }
}

#[test]
fn a_fixed_strip_or_generation_count_is_kept() {
    let device = DEVICES[0];
    let (choice, _) = tune(device, 8192, Space::new(8, None, Some(47), 8192), 0.0, 0.0);
    assert_eq!(choice.strip, 47);
    let (choice, _) = tune(device, 8192, Space::new(8, Some(6), None, 8192), 0.0, 0.0);
    assert_eq!(choice.gens, 6);
    assert!(Tuner::new(Space::new(8, Some(6), Some(47), 8192)).is_none());
    assert_eq!(
        Space::new(8, Some(6), Some(47), 8192).untuned(),
        Shape { gens: 6, strip: 47 }
    );
}

#[test]
fn short_or_foreign_batches_are_not_counted() {
    let mut tuner = Tuner::new(Space::new(8, None, None, 512)).unwrap();
    let shape = tuner.shape();
    for _ in 0..10 {
        // One dispatch's worth: too short to time.
        assert_eq!(tuner.observe(shape, u64::from(shape.gens), 1e-3), None);
        // Another shape's batch (one the tuner did not ask for).
        let other = Shape {
            gens: shape.gens,
            strip: shape.strip + 1,
        };
        assert_eq!(tuner.observe(other, 100, 1e-3), None);
    }
    assert_eq!(tuner.progress().0, 0);
}

#[test]
fn a_batch_too_short_to_time_runs_the_untuned_shape() {
    let space = Space::new(8, None, None, 8192);
    let mut tuner = Tuner::new(space.clone()).unwrap();
    // The sweep starts with its reference (the untuned shape), then a candidate.
    assert_eq!(tuner.shape(), space.untuned());
    let first = tuner.shape();
    tuner.observe(first, 1000, 1.0);
    tuner.observe(first, 1000, 1.0);
    tuner.observe(first, 1000, 1.0);
    let candidate = tuner.shape();
    assert_ne!(candidate, space.untuned(), "then a candidate");
    assert_eq!(tuner.for_batch(1), space.untuned());
    assert_eq!(tuner.for_batch(2 * u64::from(candidate.gens)), candidate);
    assert_eq!(tuner.least_gens(), candidate.gens.min(space.untuned().gens));
}

#[test]
fn strips_on_short_worlds_stay_within_the_world() {
    for rows in [1u32, 2, 5, 13, 40] {
        let space = Space::new(8, None, None, rows);
        for s in space
            .coarse_strips()
            .into_iter()
            .chain(space.fine_strips(rows))
        {
            assert!((1..=rows).contains(&s), "{rows} rows: strip {s}");
        }
        assert!(space.untuned().strip <= rows);
    }
}

#[test]
fn each_candidate_is_scored_against_the_reference_batches_around_it() {
    // Every shape costs the same, but the world runs 30 % faster each batch (a soup
    // settling): timed alone, the last candidate would look fastest; scored against the
    // reference batches around it, every candidate scores alike.
    let shape = |strip| Shape { gens: 6, strip };
    let (r, a, b) = (shape(40), shape(20), shape(30));
    let mut sweep = Sweep::new(r, vec![a, b], 1);
    let mut cost = 1.0;
    let mut ran = Vec::new();
    while !sweep.done() {
        ran.push(sweep.current());
        sweep.observe(cost);
        cost /= 1.3;
    }
    assert_eq!(
        ran,
        [r, a, r, b, r, r, r],
        "the reference is a candidate too"
    );
    let score = |i: usize| sweep.totals[i].0 / f64::from(sweep.totals[i].1);
    for i in 1..3 {
        assert!(
            (score(i) - score(0)).abs() < 1e-9,
            "{} against {}",
            score(i),
            score(0)
        );
    }
    // A reload between a candidate and the reference after it: the candidate runs again
    // between two references of the reloaded world, and no bracket spans the reload.
    let mut sweep = Sweep::new(r, vec![a, b], 1);
    sweep.observe(1.0);
    assert_eq!(sweep.current(), a);
    sweep.observe(1.0);
    sweep.reloaded();
    assert_eq!(sweep.current(), r);
    sweep.observe(5.0);
    assert_eq!(sweep.current(), a);
    sweep.observe(2.5);
    sweep.observe(5.0);
    assert_eq!(
        sweep.totals[0],
        (0.5, 1),
        "a scored once, on the reloaded world"
    );
    // A candidate batch with no reference before it (after a reload) is not scored.
    let mut sweep = Sweep::new(r, vec![a], 1);
    sweep.observe(1.0);
    sweep.reloaded();
    assert_eq!(sweep.current(), r);
}

#[test]
fn samples_of_whole_passes_share_a_bracket_and_interpolate_the_reference() {
    // Every shape costs the same on a world whose speed drifts linearly (a device's clock):
    // three candidates a bracket, each scored against the reference interpolated to its
    // place, all score alike (the reference is one of the five candidates).
    let shape = |strip| Shape { gens: 6, strip };
    let r = shape(40);
    let candidates: Vec<Shape> = (1..=5).map(|i| shape(8 * i)).collect();
    let mut sweep = Sweep::new(r, candidates.clone(), 3);
    let mut ran = Vec::new();
    let mut cost = 1.0;
    while !sweep.done() {
        ran.push(sweep.current());
        assert_eq!(sweep.progress().0, ran.len() - 1);
        sweep.observe(cost);
        cost += 0.07;
    }
    assert_eq!(sweep.progress(), (ran.len(), ran.len()));
    let c = candidates.clone();
    assert_eq!(ran, [r, c[0], c[1], c[2], r, c[3], c[4], r]);
    for (i, total) in sweep.totals.iter().enumerate() {
        assert_eq!(total.1, 1);
        assert!((total.0 - 1.0).abs() < 1e-9, "candidate {i}: {}", total.0);
    }
    // A break in the middle of a bracket: its candidates run again.
    let mut sweep = Sweep::new(r, candidates, 3);
    sweep.observe(1.0);
    sweep.observe(1.0);
    sweep.observe(1.0);
    sweep.reloaded();
    assert_eq!(sweep.current(), r);
    sweep.observe(1.0);
    assert_eq!(sweep.current(), c[0], "the first unscored candidate again");
}
