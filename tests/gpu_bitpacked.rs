//! `gpu-bitpacked` beyond the shared GPU equivalence suite, for both step kernels (tile and
//! stream): widths around the 32-cell word, step counts around the generations-per-dispatch
//! block, fast-changing rules, dead borders, birth-code chunking, the stream kernel's strip
//! and block shapes, and the device-drawn view against `view::render_host`.

mod common;

use common::*;
use golab::config::{BirthChoice, BitpackedTuning, KernelChoice};
use golab::sim::Simulation;
use golab::step::gpu_bitpacked::kernel::default_gens;
use golab::step::view::{ViewRequest, render_host};
use golab::step::{GpuSettings, Stepper, Strategy};
use golab::world::{CellEdit, Topology};

/// Generations per dispatch of the default (stream) kernel.
const K: u64 = 8;

/// Both step kernels, each with its generations per dispatch.
const KERNELS: [KernelChoice; 2] = [KernelChoice::Tile, KernelChoice::Stream];

fn with_kernel(kernel: KernelChoice, settings: GpuSettings) -> GpuSettings {
    GpuSettings {
        bitpacked: BitpackedTuning {
            kernel,
            ..BitpackedTuning::default()
        },
        ..settings
    }
}

#[test]
fn default_kernel_steps_k_generations_per_dispatch() {
    assert_eq!(u64::from(default_gens(KernelChoice::Auto)), K);
}

/// CI's fixed sample: every width and topology with one of the three rules, in rotation, so
/// every rule meets narrow and wide worlds on both kernels. The whole product is the
/// ignored test below (`scripts/test-full`).
#[test]
fn widths_around_the_word_size_match_scalar_at_block_boundaries() {
    for kernel in KERNELS {
        widths_around_the_word_size(kernel, true);
    }
}

/// Every width, topology and rule on both kernels.
#[test]
#[ignore = "the whole collection: scripts/test-full"]
fn every_width_around_the_word_size_matches_scalar_with_every_rule() {
    for kernel in KERNELS {
        widths_around_the_word_size(kernel, false);
    }
}

fn widths_around_the_word_size(kernel: KernelChoice, sample: bool) {
    let k = u64::from(default_gens(kernel));
    let steps = [1, k - 1, k, k + 1, 3 * k + 2];
    for (i, (w, h)) in [
        (31, 9),
        (32, 5),
        (33, 7),
        (63, 4),
        (65, 3),
        (95, 11),
        (1000, 6),
    ]
    .into_iter()
    .enumerate()
    {
        for (t, topology) in [Topology::Torus, Topology::DeadBorder]
            .into_iter()
            .enumerate()
        {
            for (r, rule) in ["B3/S23", "B36/S23", "B2/S"].iter().enumerate() {
                if sample && (2 * i + t) % 3 != r {
                    continue;
                }
                let start = soup(w, h, topology, rule.parse().unwrap(), 40.0, 31 + r as u64);
                let mut sim = Simulation::new(
                    gpu_factory(with_kernel(kernel, GpuSettings::default())),
                    start.clone(),
                    Strategy::GpuBitpacked,
                )
                .unwrap();
                let mut done = 0;
                for gens in steps {
                    sim.step(gens).unwrap();
                    done += gens;
                    let context = format!("{kernel:?}: {w}x{h} {topology} {rule} after {done}");
                    let expected = scalar_after(&start, done);
                    assert_eq!(
                        sim.stats(5).unwrap(),
                        golab::stats::Stats::from_ages(expected.ages(), expected.generation, 5),
                        "{context}: statistics"
                    );
                    assert_same_world(&expected, sim.world().unwrap(), &context);
                }
            }
        }
    }
}

#[test]
fn tall_and_chunked_worlds_match_scalar() {
    // Heights that leave a partial last tile or strip, and birth codes cut into many chunks
    // (tiles and strips then straddle chunk edges).
    for kernel in KERNELS {
        let k = u64::from(default_gens(kernel));
        for (w, h, limit) in [
            (70, 131, None),
            (97, 203, Some(97 * 4 * 19)),
            (33, 67, Some(33 * 4 * 8)),
        ] {
            for topology in [Topology::Torus, Topology::DeadBorder] {
                let settings = GpuSettings {
                    chunk_limit: limit,
                    ..with_kernel(kernel, GpuSettings::default())
                };
                let start = soup(w, h, topology, "B3/S23".parse().unwrap(), 37.0, 3);
                assert_matches_scalar(
                    gpu_factory(settings),
                    Strategy::GpuBitpacked,
                    &start,
                    3 * k + 2,
                    &format!("{kernel:?}: {w}x{h} {topology} limit {limit:?}"),
                );
            }
        }
    }
}

/// CI's fixed sample: each shape on one of the two worlds, in rotation (both topologies
/// meet short and long blocks); the whole product is the ignored test below.
#[test]
fn stream_kernel_strip_and_block_shapes_match_scalar() {
    strip_and_block_shapes(true);
}

/// Every shape on both worlds (`scripts/test-full`).
#[test]
#[ignore = "the whole collection: scripts/test-full"]
fn every_stream_kernel_shape_matches_scalar_on_both_topologies() {
    strip_and_block_shapes(false);
}

fn strip_and_block_shapes(sample: bool) {
    // Strips of one row up to taller than the world, blocks of 1 to 15 generations (the
    // generated walk differs per block: warm-up, loop and last steps overlap when strips are
    // short), partial last blocks (their own pipelines), torus and dead border, two rules.
    let cases = [
        (1, 1, "B3/S23"),
        (2, 3, "B36/S23"),
        (5, 1, "B3/S23"),
        (5, 7, "B3/S23"),
        (8, 2, "B36/S23"),
        (8, 47, "B3/S23"),
        (15, 16, "B3/S23"),
    ];
    for (i, (gens, strip, rule)) in cases.into_iter().enumerate() {
        for (t, (w, h, topology)) in [(75, 41, Topology::Torus), (64, 50, Topology::DeadBorder)]
            .into_iter()
            .enumerate()
        {
            if sample && i % 2 != t {
                continue;
            }
            let settings = GpuSettings {
                bitpacked: BitpackedTuning {
                    kernel: KernelChoice::Stream,
                    gens: Some(gens),
                    strip: Some(strip),
                    ..BitpackedTuning::default()
                },
                chunk_limit: Some(u64::from(w) * 4 * 17),
                ..GpuSettings::default()
            };
            let start = soup(w, h, topology, rule.parse().unwrap(), 41.0, u64::from(gens));
            assert_matches_scalar(
                gpu_factory(settings),
                Strategy::GpuBitpacked,
                &start,
                2 * u64::from(gens) + 3,
                &format!("{gens} gens/dispatch, {strip}-row strips, {w}x{h} {topology} {rule}"),
            );
        }
    }
}

#[test]
fn long_runs_fold_the_epoch_records_and_keep_ages_exact() {
    // Births forced into 8-bit epoch records, folded into the birth codes before they would
    // overflow (every ~255 generations inside a batch) and at the end of every batch:
    // hundreds of generations, in batches that grow past an epoch, of rules that keep many
    // cells being born (a Generations rule among them), chunked and not, a dead border with
    // a partial last word.
    for (w, h, topology, rule, limit) in [
        (150, 90, Topology::Torus, "B3678/S34678", Some(150 * 4 * 23)),
        (97, 70, Topology::DeadBorder, "345/2/4", None),
    ] {
        let settings = GpuSettings {
            bitpacked: BitpackedTuning {
                kernel: KernelChoice::Stream,
                births: BirthChoice::Records,
                ..BitpackedTuning::default()
            },
            chunk_limit: limit,
            ..GpuSettings::default()
        };
        let start = soup(w, h, topology, rule.parse().unwrap(), 50.0, 11);
        let mut sim =
            Simulation::new(gpu_factory(settings), start.clone(), Strategy::GpuBitpacked).unwrap();
        let mut done = 0;
        for gens in [600, 333] {
            sim.step(gens).unwrap();
            done += gens;
            let context = format!("records: {w}x{h} {topology} {rule} after {done}");
            assert_same_world(&scalar_after(&start, done), sim.world().unwrap(), &context);
        }
    }
}

#[test]
fn the_timed_choice_of_births_switches_ways_between_batches_and_stays_exact() {
    // With a fixed shape (no tuning) and many short batches, the chooser's probes run batches
    // in both ways, whichever it keeps: ages stay exact across every switch.
    let (w, h) = (83, 61);
    let settings = GpuSettings {
        bitpacked: BitpackedTuning {
            kernel: KernelChoice::Stream,
            gens: Some(5),
            strip: Some(9),
            births: BirthChoice::Auto,
            ..BitpackedTuning::default()
        },
        ..GpuSettings::default()
    };
    let start = soup(w, h, Topology::Torus, "B36/S23".parse().unwrap(), 45.0, 5);
    let mut stepper = gpu_factory(settings)
        .create(Strategy::GpuBitpacked, &start)
        .unwrap();
    let mut done = 0;
    for round in 0..40 {
        stepper.step(23).unwrap();
        done += 23;
        if round % 8 == 7 {
            let mut world = start.clone();
            stepper.read_world(&mut world).unwrap();
            assert_same_world(
                &scalar_after(&start, done),
                &world,
                &format!("after {done}"),
            );
        }
    }
}

/// `alive` cells at `(x, y)` offsets from `(x0, y0)`.
fn cells(x0: u32, y0: u32, at: &[(u32, u32)]) -> Vec<CellEdit> {
    at.iter()
        .map(|&(x, y)| CellEdit {
            x: x0 + x,
            y: y0 + y,
            alive: true,
        })
        .collect()
}

/// A 2×2 block in the middle of the first 6×6 dead square of `world`.
fn block_in_empty_spot(world: &golab::world::World) -> Vec<CellEdit> {
    for y in 0..world.height() - 6 {
        for x in 0..world.width() - 6 {
            if (0..36).all(|i| !world.is_alive(x + i % 6, y + i / 6)) {
                return cells(x + 2, y + 2, &[(0, 0), (1, 0), (0, 1), (1, 1)]);
            }
        }
    }
    panic!("no empty 6x6 spot");
}

#[test]
fn settled_worlds_replay_repeating_strips_and_keep_ages_exact() {
    // Replay (on by default): strips whose neighbourhood repeated over the last block are not
    // stepped, only their newborns' birth codes move on. Soups that settle into still lifes and
    // oscillators (period 2 and 3 among them), with gliders and late reactions crossing
    // replayed strips, on a torus whose width is not a multiple of 32 (gathers straddle
    // words) and on a chunked dead-border world; edits into a settled region and batches that
    // end with a short block break the repeat. Every state and age is compared with scalar,
    // and most strips must really have been replayed.
    for (w, h, topology, limit) in [
        (250, 130, Topology::Torus, None),
        (190, 150, Topology::DeadBorder, Some(190 * 4 * 41)),
    ] {
        let settings = GpuSettings {
            // 6-generation blocks: period 1, 2, 3 and 6 oscillators repeat within one.
            bitpacked: BitpackedTuning {
                kernel: KernelChoice::Stream,
                births: BirthChoice::Direct,
                gens: Some(6),
                ..BitpackedTuning::default()
            },
            chunk_limit: limit,
            ..GpuSettings::default()
        };
        let mut reference = soup(w, h, topology, "B3/S23".parse().unwrap(), 40.0, 21);
        // A pulsar (period 3) and a glider heading into the ash.
        let pulsar_quarter = [
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 2),
            (0, 3),
            (0, 4),
            (5, 2),
            (5, 3),
        ];
        let mut pulsar = Vec::new();
        for &(x, y) in pulsar_quarter
            .iter()
            .chain(&[(5, 4), (2, 5), (3, 5), (4, 5)])
        {
            for (mx, my) in [(x, y), (12 - x, y), (x, 12 - y), (12 - x, 12 - y)] {
                pulsar.push((mx, my));
            }
        }
        let mut clear = Vec::new();
        for y in 20..40 {
            for x in 20..40 {
                clear.push(CellEdit { x, y, alive: false });
            }
        }
        reference.apply_edits(&clear);
        reference.apply_edits(&cells(23, 23, &pulsar));
        let mut stepper = gpu_factory(settings)
            .create(Strategy::GpuBitpacked, &reference)
            .unwrap();
        let mut world = reference.clone();
        let glider = cells(5, 5, &[(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)]);
        for (round, gens) in [1200u64, 600, 601, 300, 300, 3000, 606]
            .into_iter()
            .enumerate()
        {
            let edits = match round {
                3 => glider.clone(),
                // A block painted into an empty spot of the settled (replayed) world: the
                // edit must stop its strip from being replayed from the state before it.
                6 => block_in_empty_spot(&reference),
                _ => vec![],
            };
            stepper.apply_edits(&edits).unwrap();
            reference.apply_edits(&edits);
            stepper.take_report().unwrap();
            stepper.step(gens).unwrap();
            let (replayed, stepped) = stepper
                .take_report()
                .unwrap()
                .and_then(|r| r.replayed)
                .expect("replay is on");
            reference = scalar_after(&reference, gens);
            stepper.read_world(&mut world).unwrap();
            let context = format!("{w}x{h} {topology}, round {round}");
            assert_same_world(&reference, &world, &context);
            // Both soups have settled by the last round (and the glider has crashed).
            if round == 6 {
                assert!(
                    replayed > 9 * stepped,
                    "{context}: only {replayed} of {} strips replayed",
                    replayed + stepped
                );
            }
        }
    }
}

#[test]
fn rebasing_the_birth_codes_mid_run_keeps_ages_exact() {
    // What `step` does every ~2³¹ generations, forced here between blocks, on a world with
    // ages near saturation (old-plane codes) at a generation beyond u32.
    let factory = gpu_factory(GpuSettings::default());
    let ctx = factory.gpu().unwrap().clone();
    let start = nearly_saturated_world();
    let mut stepper =
        golab::step::engine::ResidentStepper::<golab::step::gpu_bitpacked::BitState>::new(
            Strategy::GpuBitpacked,
            (),
            ctx,
            GpuSettings::default(),
            None,
        )
        .unwrap();
    stepper.load(&start).unwrap();
    let mut world = start.clone();
    let mut done = 0;
    for gens in [3, K + 1, 1] {
        stepper.step(gens).unwrap();
        done += gens;
        stepper.rebase().unwrap();
        stepper.read_world(&mut world).unwrap();
        assert_same_world(
            &scalar_after(&start, done),
            &world,
            &format!("rebased after {done}"),
        );
    }
}

#[test]
fn edits_between_blocks_keep_ages_exact() {
    let start = soup(
        45,
        29,
        Topology::DeadBorder,
        "B36/S23".parse().unwrap(),
        35.0,
        12,
    );
    let mut reference = start.clone();
    let mut sim = Simulation::new(
        gpu_factory(GpuSettings::default()),
        start,
        Strategy::GpuBitpacked,
    )
    .unwrap();
    for round in 0..4u64 {
        let mut edits = scattered_edits(45, 29, 60, round);
        // An erased-then-painted live cell is a newborn; a painted live cell keeps its age.
        edits.push(CellEdit {
            x: 44,
            y: 28,
            alive: false,
        });
        edits.push(CellEdit {
            x: 44,
            y: 28,
            alive: true,
        });
        sim.edit(&edits).unwrap();
        reference.apply_edits(&edits);
        sim.step(K + round).unwrap();
        reference = scalar_after(&reference, K + round);
        assert_same_world(&reference, sim.world().unwrap(), &format!("round {round}"));
    }
}

/// The view `stepper` draws on the device for `request`, read back.
fn device_view(
    ctx: &golab::gpu::GpuContext,
    stepper: &mut dyn golab::step::Stepper,
    request: &ViewRequest,
) -> Vec<u32> {
    let bytes = request.pixels() as u64 * 4;
    let out = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    assert!(stepper.render_view(request, &out).unwrap());
    let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(&out, 0, &readback, 0, bytes);
    let index = ctx.submit([encoder.finish()]);
    ctx.map_read(&readback, index).unwrap();
    bytemuck::cast_slice(&readback.slice(..).get_mapped_range().unwrap()).to_vec()
}

fn request(x0: f64, y0: f64, cells_per_pixel: f64, width_px: u32, height_px: u32) -> ViewRequest {
    ViewRequest {
        x0,
        y0,
        cells_per_pixel,
        width_px,
        height_px,
    }
}

#[test]
fn device_view_equals_render_host() {
    let start = soup(
        150,
        97,
        Topology::Torus,
        "B3/S23".parse().unwrap(),
        30.0,
        21,
    );
    let settings = GpuSettings {
        chunk_limit: Some(150 * 4 * 30),
        ..GpuSettings::default()
    };
    let factory = gpu_factory(settings);
    let ctx = factory.gpu().unwrap().clone();
    let mut stepper = factory.create(Strategy::GpuBitpacked, &start).unwrap();
    stepper.step(13).unwrap();
    let world = scalar_after(&start, 13);
    let requests = [
        // zoomed in (several pixels per cell), fractional origin
        request(10.25, 5.5, 0.3, 40, 30),
        // one cell per pixel, partly outside the world on every side
        request(-7.0, -3.0, 1.0, 170, 110),
        // zoomed out: many cells per pixel, crossing birth chunks
        request(0.0, 0.0, 7.3, 22, 15),
        request(-20.0, 40.0, 16.0, 12, 9),
        // entirely outside
        request(400.0, 400.0, 2.0, 5, 4),
    ];
    for request in requests {
        let device = device_view(&ctx, stepper.as_mut(), &request);
        let mut host = vec![0; request.pixels()];
        render_host(&world, &request, &mut host);
        assert!(
            host.iter().any(|&a| a > 1) || request.x0 > 150.0,
            "{request:?}: test sees ages"
        );
        assert_eq!(device, host, "{request:?}");
    }
    // Ages near saturation (old-plane codes) draw exactly too.
    let start = nearly_saturated_world();
    let mut stepper = factory.create(Strategy::GpuBitpacked, &start).unwrap();
    stepper.step(5).unwrap();
    let world = scalar_after(&start, 5);
    for request in [request(0.0, 0.0, 1.0, 70, 9), request(0.0, 0.0, 3.5, 20, 3)] {
        let mut host = vec![0; request.pixels()];
        render_host(&world, &request, &mut host);
        assert!(
            host.contains(&u32::MAX),
            "{request:?}: saturated cells in view"
        );
        assert_eq!(
            device_view(&ctx, stepper.as_mut(), &request),
            host,
            "{request:?}"
        );
    }
}

#[test]
fn the_stream_kernel_tunes_its_shape_on_this_device_and_stays_exact_while_it_does() {
    // The tuner times the world's own batches with one candidate shape after another (every
    // generations-per-dispatch walk and strip height it tries must give the same world), then
    // keeps the fastest for this device, size, rule and topology. A size no other test uses,
    // so nothing is tuned for it yet.
    let factory = gpu_factory(with_kernel(KernelChoice::Stream, GpuSettings::default()));
    let start = soup(
        250,
        197,
        Topology::Torus,
        "B3/S23".parse().unwrap(),
        45.0,
        97,
    );
    let mut stepper = factory.create(Strategy::GpuBitpacked, &start).unwrap();
    let mut shapes = std::collections::BTreeSet::new();
    let mut gens = 0;
    while stepper.tuning() {
        shapes.insert(description(stepper.as_mut()));
        stepper.step(48).unwrap();
        gens += 48;
        assert!(gens < 48 * 2000, "still tuning after {gens} generations");
    }
    let chosen = description(stepper.as_mut());
    assert!(chosen.contains("(tuned)"), "{chosen}");
    assert!(
        shapes.len() > 10,
        "the tuner tried only {} shapes",
        shapes.len()
    );
    let mut world = start.clone();
    stepper.read_world(&mut world).unwrap();
    assert_same_world(&scalar_after(&start, gens), &world, "while tuning");
    // A world of the same shape loaded again starts with the tuned shape.
    let mut again = factory.create(Strategy::GpuBitpacked, &start).unwrap();
    assert!(!again.tuning());
    assert_eq!(description(again.as_mut()), chosen);
    // A shape the user fixes wins over the one tuned for the same world.
    let fixed = gpu_factory(GpuSettings {
        bitpacked: BitpackedTuning {
            kernel: KernelChoice::Stream,
            gens: Some(3),
            strip: Some(5),
            ..BitpackedTuning::default()
        },
        ..GpuSettings::default()
    });
    let mut pinned = fixed.create(Strategy::GpuBitpacked, &start).unwrap();
    assert!(!pinned.tuning());
    let shape = description(pinned.as_mut());
    assert!(shape.contains("3 gens/dispatch, 5-row strips"), "{shape}");
}

/// The kernel's description from its report.
fn description(stepper: &mut dyn golab::step::Stepper) -> String {
    stepper
        .take_report()
        .unwrap()
        .expect("gpu-bitpacked reports its kernel")
        .description
}

#[test]
fn the_window_runner_keeps_replay_going_from_batch_to_batch() {
    // The window steps in batches sized by time (powers of two); replay compares each block
    // with the one before, so batches that ended on a short block would step everything
    // again at the start of the next. The runner keeps running batches to whole blocks: on
    // a settled soup most strips are replayed through it, and every state and age is exact.
    use golab::runner::{Command, Runner, Speed};
    let settings = GpuSettings {
        bitpacked: BitpackedTuning {
            kernel: KernelChoice::Stream,
            births: BirthChoice::Direct,
            ..BitpackedTuning::default()
        },
        ..GpuSettings::default()
    };
    let fresh = soup(
        250,
        130,
        Topology::Torus,
        "B3/S23".parse().unwrap(),
        40.0,
        21,
    );
    let settled = scalar_after(&fresh, 2000);
    let sim = Simulation::new(
        gpu_factory(settings),
        settled.clone(),
        Strategy::GpuBitpacked,
    )
    .unwrap();
    let runner = Runner::start(sim, None, Box::new(|| {}));
    runner.send(Command::SetSpeed(Speed::Max));
    runner.send(Command::SetRunning(true));
    let start = std::time::Instant::now();
    let share = loop {
        let snap = runner.snapshot();
        assert!(snap.error.is_none(), "{:?}", snap.error);
        let share = snap.kernel.as_deref().and_then(|k| {
            let end = k.find(" % of strips replayed")?;
            let begin = k[..end].rfind('(')? + 1;
            k[begin..end].parse::<f64>().ok()
        });
        if let Some(share) =
            share.filter(|_| snap.generation > u128::from(settled.generation) + 6000)
        {
            break share;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "no replay share after 2 minutes: {:?} at generation {}",
            snap.kernel,
            snap.generation
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    runner.send(Command::SetRunning(false));
    let (tx, rx) = std::sync::mpsc::channel();
    runner.send(Command::Read(tx));
    let world = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .unwrap()
        .unwrap();
    // Whole blocks: about 99 % on lavapipe; batches ending on a short block: about 95 %.
    assert!(share >= 97.0, "only {share} % of strips replayed");
    let reference = scalar_after(&settled, world.generation - settled.generation);
    assert_same_world(&reference, &world, "through the runner");
}

#[test]
fn the_pipeline_cache_is_written_after_a_load_and_read_on_the_next_start() {
    // A device opened with a cache directory builds its pipelines with a pipeline cache,
    // writes it to the directory once a world's pipelines are built, and a device opened
    // later with the same directory reads it back and hands it to wgpu (lavapipe is Vulkan,
    // whose backend has one).
    use golab::gpu::{GpuContext, GpuOptions};
    let dir = std::env::temp_dir().join(format!("golab-pipeline-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = GpuOptions {
        pipeline_cache: Some(dir.clone()),
        ..GpuOptions::default()
    };
    let first = GpuContext::new(&options).expect("GPU tests need a Vulkan adapter (lavapipe)");
    let cache = first
        .pipeline_cache
        .as_ref()
        .expect("a Vulkan device keeps a cache");
    assert_eq!(cache.loaded_bytes(), 0, "nothing to read the first time");
    assert!(cache.file().starts_with(&dir), "{}", cache.file().display());
    let world = soup(70, 40, Topology::Torus, "B3/S23".parse().unwrap(), 40.0, 5);
    let factory = golab::step::StepperFactory::with_context(first.clone());
    let mut stepper = factory.create(Strategy::GpuBitpacked, &world).unwrap();
    stepper.step(12).unwrap();
    // The walks a step did not need compile in the background, which writes the cache
    // once they are all built.
    let start = std::time::Instant::now();
    while first.background_compilers() > 0 {
        assert!(
            start.elapsed().as_secs() < 120,
            "background compiles never ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let written = std::fs::metadata(cache.file())
        .expect("the cache was written after the load")
        .len();
    assert!(written > 0);
    // Nothing new built: nothing written again.
    assert_eq!(first.save_pipeline_cache().unwrap(), None);
    drop(stepper);
    let second = GpuContext::new(&options).unwrap();
    let read = second.pipeline_cache.as_ref().unwrap().loaded_bytes();
    assert_eq!(
        read as u64, written,
        "the next start hands the whole file to wgpu"
    );
    // Off: no cache at all.
    let none = GpuContext::new(&GpuOptions::default()).unwrap();
    assert!(none.pipeline_cache.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
