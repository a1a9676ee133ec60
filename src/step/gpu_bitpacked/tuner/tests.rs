//! The tuner against fake devices: a model of the stream kernel's time per generation from
//! a device's figures (SMs, registers, subgroup size) and a world's size, with noise and a
//! world that speeds up while it is tuned. The tuner must pick a valid shape within 10 % of
//! the best shape found by trying every one.

use super::*;

/// A fake device: what decides how many strips run at once.
#[derive(Debug, Clone, Copy)]
struct Device {
    name: &'static str,
    /// Streaming multiprocessors / compute units.
    sms: u32,
    /// 32-bit registers per SM.
    registers: u32,
    /// Subgroup size.
    lanes: u32,
}

const DEVICES: [Device; 4] = [
    Device {
        name: "132-SM GPU (H200/H100-like)",
        sms: 132,
        registers: 65_536,
        lanes: 32,
    },
    Device {
        name: "28-SM GPU",
        sms: 28,
        registers: 65_536,
        lanes: 32,
    },
    Device {
        name: "wave64 GPU, 60 CUs",
        sms: 60,
        registers: 131_072,
        lanes: 64,
    },
    Device {
        name: "lavapipe-like CPU, 8-wide",
        sms: 2,
        registers: 16_384,
        lanes: 8,
    },
];

/// Modelled seconds per generation of `shape` on `device` over a `width × rows` world:
/// strips run in waves of the resident subgroups (registers grow with the levels), a strip
/// costs its level-rows (its rows plus the halo levels recompute, `g² + g`) per generation.
fn model(device: Device, width: u32, rows: u32, shape: Shape) -> f64 {
    let Shape { gens: g, strip: s } = shape;
    let registers = 48 + 14 * g;
    let resident = (device.registers / (device.lanes * registers)).clamp(1, 16) * device.sms;
    let strips = width.div_ceil(32).div_ceil(device.lanes - 2) * rows.div_ceil(s);
    let waves = strips.div_ceil(resident);
    let level_rows = s * g + g * g + g;
    let dispatch = 1e-9 * f64::from(waves) * f64::from(level_rows) + 3e-6;
    dispatch / f64::from(g)
}

/// The fastest shape of `space`, found by trying every one, and its time.
fn exhaustive(device: Device, width: u32, space: &Space) -> (Shape, f64) {
    let strips: Vec<u32> = match space.strip {
        Some(s) => vec![s],
        None => (1..=space.rows).collect(),
    };
    space
        .gens
        .iter()
        .flat_map(|&gens| strips.iter().map(move |&strip| Shape { gens, strip }))
        .map(|shape| (shape, model(device, width, space.rows, shape)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

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
    let tuner = Tuner::new(space.clone()).unwrap();
    let candidate = tuner.shape();
    assert_ne!(candidate, space.untuned(), "the sweep starts elsewhere");
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
fn a_tuned_shape_is_tuned_again_once_the_world_runs_more_than_twice_as_fast_or_slow() {
    let shape = Shape { gens: 6, strip: 40 };
    let mut drift = Drift::default();
    let batch = |drift: &mut Drift, per_gen: f64| drift.observe(shape, 600, 600.0 * per_gen);
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
    // Batches too short to time (under two dispatches) say nothing.
    let mut drift = Drift::default();
    for _ in 0..5 * DRIFT_WINDOW {
        assert!(!drift.observe(shape, 11, 1.0));
    }
}
