//! The adaptive controller under fake timings: births chosen first, reloads, forced ways,
//! repeated windows timed by passes.
use super::*;
use crate::step::gpu_bitpacked::kernel::StepKernel;

/// The fingerprint of the world every test here loads.
const WORLD: u64 = 7;

fn key() -> TuneKey {
    TuneKey {
        width: 512,
        height: 512,
        rule: crate::rule::Rule::CONWAY,
        torus: true,
        kernel: StepKernel::Tile,
        fixed: (None, None),
    }
}

/// Batches of 96 generations: records cost `records`, direct stores `direct` seconds
/// per generation, whatever the shape; the ways the batches wrote births.
fn run(c: &mut Adaptive, batches: usize, direct: f64, records: f64) -> Vec<(bool, Births)> {
    (0..batches as u64)
        .map(|b| {
            let (shape, births) = c.for_batch(96, Shape { gens: 6, strip: 12 });
            let per_gen = if births == Births::Records {
                records
            } else {
                direct
            };
            let tuning = c.tuning();
            c.observe(shape, 96 * b, 96, per_gen * 96.0);
            (tuning, births)
        })
        .collect()
}

#[test]
fn births_are_chosen_first_then_the_shape_is_swept_in_that_way() {
    let space = Space::new(6, Some(6), None, 2048);
    for (direct, records, chosen) in [(2e-5, 1e-5, Births::Records), (1e-5, 2e-5, Births::Direct)] {
        let mut c = Adaptive::new(
            Some(ShapeController::new(space.clone())),
            BirthChooser::new(BirthChoice::Auto),
        );
        assert_eq!(c.state(), "choosing births");
        let ways = run(&mut c, 400, direct, records);
        // The duel: a skipped batch, then records between direct stores, twice.
        use Births::{Direct as D, Records as R};
        assert_eq!(
            ways[..6].iter().map(|w| w.1).collect::<Vec<_>>(),
            [D, D, R, D, R, D]
        );
        assert!(ways[..6].iter().all(|w| w.0), "tuning while the duel runs");
        // Then every batch of the sweep in the chosen way.
        let sweep: Vec<_> = ways[6..].iter().take_while(|w| w.0).collect();
        assert!(sweep.len() > 20, "the shape swept after the duel");
        assert!(sweep.iter().all(|w| w.1 == chosen), "{sweep:?}");
        assert_eq!(c.births(), chosen);
        assert!(
            c.decisions()
                .iter()
                .any(|d| d.contains(&format!("{} before the shape is swept", chosen.name()))),
            "{:?}",
            c.decisions()
        );
    }
}

#[test]
fn a_world_stepped_over_the_same_generations_again_is_timed_by_passes() {
    let kept = Kept::default();
    let space = Space::new(6, Some(6), None, 2048);
    // Windows of three batches, each loaded again from generation 0 (the benchmark's
    // window): after two, samples are whole windows; the duel and the sweep finish.
    let mut windows = 0;
    let mut c = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
    while c.tuning() && windows < 200 {
        for (start, gens) in [(0, 6), (6, 96), (102, 96), (198, 96)] {
            let (shape, births) = c.for_batch(gens, space.untuned());
            let per_gen = if births == Births::Records {
                1e-5
            } else {
                2e-5
            };
            c.observe(shape, start, gens, per_gen * gens as f64);
        }
        kept.keep(key(), &c);
        c = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
        windows += 1;
    }
    assert!(!c.tuning(), "{}", c.state());
    assert!(c.sampler.repeating());
    assert_eq!(c.births(), Births::Records);
    let decisions = c.decisions();
    assert!(
        decisions.iter().any(|d| d.contains("timing whole passes")),
        "{decisions:?}"
    );
    // 2 windows to see the repeat, 5 for the duel, 2 × 13 + 1 and 2 × 16 + 1 passes for
    // the coarse and fine sweeps (about), then two neighbours checked.
    assert!((40..120).contains(&windows), "{windows} windows");
}

#[test]
fn a_world_loaded_again_goes_on_where_the_last_one_stopped() {
    let kept = Kept::default();
    let space = Space::new(6, Some(6), None, 2048);
    let mut first = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
    run(&mut first, 400, 2e-5, 1e-5);
    kept.keep(key(), &first);
    let again = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
    assert_eq!(
        (again.births(), again.state()),
        (Births::Records, first.state())
    );
    // A forced way starts a chooser of its own; the shape still goes on. Kept, it does
    // not stop the next world from choosing.
    let forced = kept.controller(&key(), Some(space.clone()), BirthChoice::Direct, WORLD);
    assert_eq!(
        (forced.births(), forced.state()),
        (Births::Direct, first.state())
    );
    kept.keep(key(), &forced);
    let after = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
    assert_eq!(
        after.births(),
        Births::Records,
        "the chosen way outlives a forced world"
    );
    // A forced way kept where nothing was chosen is not carried to a choosing world.
    let fresh = Kept::default();
    fresh.keep(key(), &forced);
    let mut choosing = fresh.controller(&key(), Some(space), BirthChoice::Auto, WORLD);
    let ways = run(&mut choosing, 60, 2e-5, 1e-5);
    assert!(
        ways.iter().any(|w| w.1 == Births::Records),
        "it probes again"
    );
    // The tile kernel's shape is fixed: births are chosen from the first batch.
    let mut tile = Adaptive::new(None, BirthChooser::new(BirthChoice::Auto));
    run(&mut tile, 40, 2e-5, 1e-5);
    assert_eq!(
        (tile.births(), tile.state()),
        (Births::Records, "fixed".to_string())
    );
}

/// Seconds per generation at generation `g` of a fresh soup (the benchmark's window from
/// generation 0): the speed rises several-fold as the soup thins, more with direct stores
/// (a store per birth), whose best strips are about half as tall as with records.
fn fresh(g: u64, shape: Shape, births: Births) -> f64 {
    use super::super::tuner::fake::{DEVICES, model};
    let dense = (-(g as f64) / 250.0).exp();
    match births {
        Births::Records => model(DEVICES[0], 8192, 8192, shape) * (0.4 + 3.0 * dense),
        Births::Direct => {
            let half = Shape {
                strip: (2 * shape.strip).min(8192),
                ..shape
            };
            model(DEVICES[0], 8192, 8192, half) * (0.5 + 6.0 * dense)
        }
    }
}

/// The kernel seconds of generations `from..to` of [`fresh`].
fn fresh_span(from: u64, to: u64, shape: Shape, births: Births) -> f64 {
    (from..to).map(|g| fresh(g, shape, births)).sum()
}

/// One process of the benchmark: `settle` batches of 384 generations of a fresh soup (the
/// settled phase's settling, on the same stepper), then the window of generations
/// `start..start + 2000` run from its start again and again until the controller is tuned,
/// eight windows in a row,
/// its batches sized differently each time (the pacer follows the timings), timings noisy
/// by ±2 %; `cost(from, to, shape, births)` gives a span's kernel seconds. The controller
/// the next window would load.
fn process(
    seed: u64,
    settle: u64,
    start: u64,
    cost: impl Fn(u64, u64, Shape, Births) -> f64,
) -> Adaptive {
    let space = Space::new(6, Some(6), None, 8192);
    let kept = Kept::default();
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut random = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut c = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
    for b in 0..settle {
        let (shape, births) = c.for_batch(384, space.untuned());
        c.observe(
            shape,
            384 * b,
            384,
            fresh_span(384 * b, 384 * (b + 1), shape, births),
        );
    }
    kept.keep(key(), &c);
    // Like the benchmark: windows until eight in a row ran tuned (its warm-up and repeats).
    let mut tuned = 0;
    for _ in 0..400 {
        let mut c = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
        tuned = if c.tuning() { 0 } else { tuned + 1 };
        if tuned == 8 {
            break;
        }
        let mut cuts: Vec<u64> = (0..random(3)).map(|_| 6 * (2 + random(320))).collect();
        cuts.extend([6, 2000]);
        cuts.sort_unstable();
        cuts.dedup();
        let mut spans = vec![(0, 6)];
        spans.extend(cuts.windows(2).map(|w| (w[0], w[1])));
        for (from, to) in spans {
            let (shape, births) = c.for_batch(to - from, space.untuned());
            let noise = 1.0 + (random(401) as f64 - 200.0) / 10_000.0;
            let seconds = noise * cost(from, to, shape, births);
            c.observe(shape, start + from, to - from, seconds);
        }
        kept.keep(key(), &c);
    }
    kept.controller(&key(), Some(space), BirthChoice::Auto, WORLD)
}

/// Runs [`process`] for six seeds and checks that each ends tuned, writing births `births`,
/// on a shape within 10 % of the fastest strip for `window` (seconds of the window by
/// shape) and within 3 % of each other.
fn every_process_chooses_well(
    settle: u64,
    start: u64,
    cost: impl Fn(u64, u64, Shape, Births) -> f64,
    births: Births,
) {
    let untuned = Space::new(6, Some(6), None, 8192).untuned();
    let window = |shape| cost(6, 2000, shape, births);
    let best = (1..=8192)
        .map(|strip| window(Shape { gens: 6, strip }))
        .fold(f64::INFINITY, f64::min);
    let mut chosen = Vec::new();
    for seed in 1..=6u64 {
        let c = process(seed, settle, start, &cost);
        assert!(!c.tuning(), "seed {seed}: {} after 400 windows", c.state());
        assert_eq!(c.births(), births, "seed {seed}: {:#?}", c.decisions());
        let shape = c.shape(untuned);
        assert!(
            window(shape) <= 1.10 * best,
            "seed {seed}: {shape:?} at {:.1} % of the best; {:#?}",
            100.0 * best / window(shape),
            c.decisions()
        );
        chosen.push((seed, shape, window(shape)));
    }
    let fastest = chosen.iter().map(|c| c.2).fold(f64::INFINITY, f64::min);
    assert!(
        chosen.iter().all(|c| c.2 <= 1.03 * fastest),
        "not stable from process to process: {chosen:?}"
    );
}

#[test]
fn the_benchmarks_fresh_window_gets_the_same_good_shape_in_every_process() {
    every_process_chooses_well(0, 0, fresh_span, Births::Records);
}

#[test]
fn a_settled_window_after_a_fresh_soup_settled_gets_its_own_births_and_shape() {
    use super::super::tuner::fake::{DEVICES, model, settled};
    // Replay makes direct stores on the settled world many times faster than records,
    // which replay nothing; its best strips are about 12 rows, where the fresh soup that
    // settled into it wanted records and about three times as tall.
    let cost = |from: u64, to: u64, shape: Shape, births: Births| {
        let per_gen = match births {
            Births::Direct => settled(8192, shape),
            Births::Records => 0.4 * model(DEVICES[0], 8192, 8192, shape),
        };
        (to - from) as f64 * per_gen
    };
    every_process_chooses_well(150, 57_600, cost, Births::Direct);
}

#[test]
fn a_soup_that_settles_is_swept_again_once_direct_births_win() {
    use super::super::tuner::fake::{DEVICES, model, settled};
    // The window: batches of 384 generations one after the other. A fresh soup (records
    // win, tall strips) until generation 20 000, then settled: replay makes direct stores
    // many times faster and wants strips of about 12 rows.
    let per_gen = |g: u64, shape: Shape, births: Births| match (g < 20_000, births) {
        (true, _) => fresh(g, shape, births),
        (false, Births::Direct) => settled(8192, shape),
        (false, Births::Records) => 0.4 * model(DEVICES[0], 8192, 8192, shape),
    };
    let space = Space::new(6, Some(6), None, 8192);
    let mut c = Adaptive::new(
        Some(ShapeController::new(space.clone())),
        BirthChooser::new(BirthChoice::Auto),
    );
    let mut shapes = Vec::new();
    let mut switched = None;
    for b in 0..600u64 {
        let (shape, births) = c.for_batch(384, space.untuned());
        let seconds = (384 * b..384 * (b + 1))
            .map(|g| per_gen(g, shape, births))
            .sum();
        let before = c.births();
        c.observe(shape, 384 * b, 384, seconds);
        if before == Births::Records && c.births() == Births::Direct {
            switched = Some(b as usize);
            // The shape was swept for records: swept again at once, not when the speed
            // has drifted 2× or the neighbours' probes have walked there.
            assert!(c.tuning(), "{:#?}", c.decisions());
            assert!(
                c.decisions()
                    .iter()
                    .any(|d| d.contains("direct births now: sweeping again")),
                "{:#?}",
                c.decisions()
            );
        }
        shapes.push(c.shape(space.untuned()));
    }
    let best = (1..=8192)
        .map(|strip| settled(8192, Shape { gens: 6, strip }))
        .fold(f64::INFINITY, f64::min);
    let decisions = c.decisions();
    let switched = switched.expect("records chosen first, direct stores once settled");
    // Swept again at once: within 10 % of the settled best once one sweep has run.
    for (b, shape) in shapes.iter().enumerate().skip(switched + 130) {
        assert!(
            settled(8192, *shape) <= 1.10 * best,
            "batch {b} (switched at {switched}): {shape:?}; {decisions:#?}"
        );
    }
}

#[test]
fn a_repeated_window_tunes_when_generations_per_dispatch_are_chosen_too() {
    // Replay off: the space holds 6, 7 and 8 generations a dispatch. Even with the first
    // dispatch after a load as long as the candidate's (as the engine once sized it), every
    // pass covers the same generations and the sweep ends.
    let space = Space::new(8, None, None, 2048);
    let kept = Kept::default();
    let mut windows = 0;
    loop {
        let mut c = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
        if !c.tuning() {
            break;
        }
        assert!(windows < 600, "still {} after {windows} windows", c.state());
        let first = u64::from(c.least_gens(8));
        for (from, to) in [(0, first), (first, 2000)] {
            let (shape, births) = c.for_batch(to - from, space.untuned());
            c.observe(shape, from, to - from, fresh_span(from, to, shape, births));
        }
        kept.keep(key(), &c);
        windows += 1;
    }
    assert!(
        kept.controller(&key(), Some(space), BirthChoice::Auto, WORLD)
            .state()
            .contains("(by passes)")
    );
}

#[test]
fn a_forced_world_kept_after_its_sweep_brings_back_no_stale_duel() {
    let kept = Kept::default();
    let space = Space::new(6, Some(6), None, 2048);
    // A choosing world is kept in the middle of its duel.
    let mut first = kept.controller(&key(), Some(space.clone()), BirthChoice::Auto, WORLD);
    run(&mut first, 2, 2e-5, 1e-5);
    assert_eq!(first.state(), "choosing births");
    kept.keep(key(), &first);
    // A world with births forced goes on with the same shape controller and tunes it.
    let mut forced = kept.controller(&key(), Some(space.clone()), BirthChoice::Direct, WORLD);
    run(&mut forced, 400, 2e-5, 1e-5);
    assert!(!forced.tuning(), "{}", forced.state());
    kept.keep(key(), &forced);
    // The next choosing world gets the chosen births back, but no duel: the sweep it was
    // to precede is over.
    let again = kept.controller(&key(), Some(space), BirthChoice::Auto, WORLD);
    assert!(again.duel.is_none());
    assert!(!again.tuning(), "{}", again.state());
}
