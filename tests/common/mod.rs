//! Helpers shared by the integration tests: random soups and the scalar oracle.
#![allow(dead_code)]

pub mod recovery;

use golab::rule::Rule;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};
use golab::world::{CellEdit, Topology, World};

/// Rules exercised by the equivalence tests: Conway, HighLife, Seeds (no survival) and
/// Day & Night (dense, symmetric).
pub fn test_rules() -> Vec<Rule> {
    ["B3/S23", "B36/S23", "B2/S", "B3678/S34678"]
        .iter()
        .map(|r| r.parse().unwrap())
        .collect()
}

/// A random soup world.
pub fn soup(
    width: u32,
    height: u32,
    topology: Topology,
    rule: Rule,
    density: f64,
    seed: u64,
) -> World {
    let mut world = World::new(width, height, topology, rule).unwrap();
    world.fill_random(density, seed).unwrap();
    world
}

/// A `w × h` world of `topology` whose cells take random states (`fill` % non-zero).
pub fn multi_soup(rule: Rule, w: u32, h: u32, topology: Topology, fill: u64, seed: u64) -> World {
    // A rule table's soup: World::fill_random gives its non-empty cells any of its states.
    let mut world = World::new(w, h, topology, rule).unwrap();
    world.fill_random(fill as f64, seed).unwrap();
    if rule.states() > 2 {
        assert!(
            world.dying_count() > 0,
            "{rule}: the soup holds states 2 and up"
        );
    }
    world
}

/// The world after `gens` generations of the scalar reference.
pub fn scalar_after(world: &World, gens: u64) -> World {
    let mut sim =
        Simulation::new(StepperFactory::cpu_only(), world.clone(), Strategy::Scalar).unwrap();
    sim.step(gens).unwrap();
    sim.world().unwrap().clone()
}

/// Assert two worlds have identical generation, ages and dying states, pointing at the first
/// difference.
pub fn assert_same_world(expected: &World, actual: &World, context: &str) {
    assert_eq!(
        (expected.width(), expected.height()),
        (actual.width(), actual.height()),
        "{context}: size differs"
    );
    assert_eq!(
        expected.generation, actual.generation,
        "{context}: generation differs"
    );
    if let Some(i) = expected
        .ages()
        .iter()
        .zip(actual.ages())
        .position(|(a, b)| a != b)
    {
        let w = expected.width() as usize;
        panic!(
            "{context}: cell ({}, {}) has age {} but the reference says {} (population {} vs {})",
            i % w,
            i / w,
            actual.ages()[i],
            expected.ages()[i],
            actual.population(),
            expected.population()
        );
    }
    assert_eq!(expected.rule(), actual.rule(), "{context}: rule differs");
    if let Some(i) = expected
        .dying()
        .iter()
        .zip(actual.dying())
        .position(|(a, b)| a != b)
    {
        let w = expected.width() as usize;
        panic!(
            "{context}: cell ({}, {}) has dying state {} but the reference says {}",
            i % w,
            i / w,
            actual.dying()[i],
            expected.dying()[i]
        );
    }
    assert_eq!(
        expected.dying().len(),
        actual.dying().len(),
        "{context}: dying plane"
    );
}

/// Deterministic pseudo-random edits (paint and erase) over a world.
pub fn scattered_edits(width: u32, height: u32, count: usize, seed: u64) -> Vec<CellEdit> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let r = next();
            CellEdit {
                x: (r % u64::from(width)) as u32,
                y: ((r >> 20) % u64::from(height)) as u32,
                alive: (r >> 40) & 3 != 0,
            }
        })
        .collect()
}

/// A factory on this test binary's one GPU device (opened once), or a failing test that
/// says how to get lavapipe.
pub fn gpu_factory(settings: golab::step::GpuSettings) -> StepperFactory {
    static BASE: std::sync::OnceLock<StepperFactory> = std::sync::OnceLock::new();
    let base = BASE.get_or_init(|| StepperFactory::with_gpu(Default::default()));
    if let Err(e) = base.gpu() {
        panic!("GPU tests need a Vulkan adapter and found none: {e}");
    }
    let mut factory = base.sharing_device();
    factory.gpu_settings = settings;
    factory
}

/// The factory `strategy` is made by in the tests: the shared GPU device for GPU
/// strategies (default settings), CPU only otherwise.
pub fn factory_for(strategy: Strategy) -> StepperFactory {
    if strategy.is_gpu() {
        gpu_factory(golab::step::GpuSettings::default())
    } else {
        StepperFactory::cpu_only()
    }
}

/// Run `strategy` from `start` for `gens` generations (in uneven chunks) and compare with scalar.
pub fn assert_matches_scalar(
    factory: StepperFactory,
    strategy: Strategy,
    start: &World,
    gens: u64,
    context: &str,
) {
    let expected = scalar_after(start, gens);
    let mut sim = Simulation::new(factory, start.clone(), strategy)
        .unwrap_or_else(|e| panic!("{context}: {e}"));
    let mut done = 0;
    for chunk in [1, 2, 9, 20] {
        let chunk = chunk.min(gens - done);
        sim.step(chunk)
            .unwrap_or_else(|e| panic!("{context}: step: {e}"));
        done += chunk;
    }
    sim.step(gens - done)
        .unwrap_or_else(|e| panic!("{context}: step: {e}"));
    let stats = sim
        .stats(5)
        .unwrap_or_else(|e| panic!("{context}: stats: {e}"));
    assert_eq!(
        stats.population,
        expected.population(),
        "{context}: population"
    );
    assert_eq!(
        stats,
        expected_stats(&expected, strategy),
        "{context}: statistics"
    );
    assert_same_world(&expected, sim.world().unwrap(), context);
}

/// The statistics `strategy` must report for `world` (5 brackets): the host's, less the
/// count per state where the strategy's statistics kernel keeps one dying total
/// (gpu-bitpacked; documented on `Stats::per_state`).
pub fn expected_stats(world: &World, strategy: Strategy) -> golab::stats::Stats {
    let mut stats = golab::stats::Stats::of_world(world, 5);
    if strategy == Strategy::GpuBitpacked {
        stats.per_state.clear();
    }
    stats
}

/// A world whose live cells are a block (a still life) with ages just below saturation
/// plus a blinker, to check that every strategy saturates ages like the reference.
pub fn nearly_saturated_world() -> World {
    let mut world = World::new(70, 9, Topology::Torus, "B3/S23".parse().unwrap()).unwrap();
    for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2), (66, 4), (67, 4), (68, 4)] {
        world.apply_edit(CellEdit { x, y, alive: true });
        world.ages_mut()[(y * 70 + x) as usize] = u32::MAX - 3;
    }
    world.generation = 5_000_000_000;
    world
}

/// Fail (never skip) when a program the real-window tests drive is missing, saying how to
/// get it.
pub fn need_tool(tool: &str) {
    let found = std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "the real-window tests need `{tool}`: run scripts/setup-system --test (installs xvfb, xauth, imagemagick)"
    );
}

/// Golly's own rule files, where Debian's `golly` package puts them.
pub const GOLLY_RULES: &str = "/usr/share/golly/Rules/";

/// The population bgolly's `algo` reports once `file` reaches generation `gens` (Golly
/// counts every cell not in state 0; its rule files are searched in [`GOLLY_RULES`]).
pub fn bgolly_algo_population(algo: &str, file: &std::path::Path, gens: u128) -> u128 {
    need_tool("bgolly");
    let out = std::process::Command::new("bgolly")
        .args(["-a", algo, "-s", GOLLY_RULES, "-m", &gens.to_string()])
        .arg(file)
        .output()
        .expect("bgolly runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.contains(':') && !l.starts_with("Given rule"))
        .unwrap_or_else(|| {
            panic!(
                "bgolly printed no population for {}: {text}",
                file.display()
            )
        });
    let (g, p) = last.split_once(':').unwrap();
    assert_eq!(g.trim().replace(',', ""), gens.to_string(), "{last}");
    p.trim().replace(',', "").parse().unwrap()
}

/// The u32 words of a device `buffer` (a COPY_SRC buffer on `ctx`), read back through a
/// staging buffer: what a device-drawn view holds.
pub fn read_back_u32(ctx: &golab::gpu::GpuContext, buffer: &wgpu::Buffer) -> Vec<u32> {
    let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test readback"),
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    let index = ctx.submit([encoder.finish()]);
    ctx.map_read(&staging, index).unwrap();
    bytemuck::cast_slice(&staging.slice(..).get_mapped_range().unwrap()).to_vec()
}

/// A device buffer for a view of `pixels` u32 values, as the window gives the runner one
/// (storage, copied from and cleared).
pub fn view_buffer(ctx: &golab::gpu::GpuContext, pixels: usize) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test view"),
        size: pixels as u64 * 4,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The standard output of `golab ARGS…`, which must succeed (its stderr is the message).
pub fn golab_ok(args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_golab"))
        .args(args)
        .output()
        .expect("golab runs");
    assert!(
        out.status.success(),
        "golab {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `golab run --json ARGS…`'s report (the run must succeed; its stderr is the message).
pub fn golab_run_json(args: &[&str]) -> serde_json::Value {
    let all: Vec<&str> = ["run", "--json"].iter().chain(args).copied().collect();
    serde_json::from_slice(&golab_ok(&all)).expect("golab run --json prints JSON")
}

/// Golly's population (every cell not in state 0) of `golab run --json ARGS…`.
pub fn golab_occupied(args: &[&str]) -> u128 {
    let report = golab_run_json(args);
    u128::from(
        report["occupied"]
            .as_u64()
            .unwrap_or_else(|| panic!("no occupied count: {report}")),
    )
}
