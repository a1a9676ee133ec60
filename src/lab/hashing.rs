//! Brute force against hashing: the same random soup run for the same generations by
//! gpu-bitpacked and cpu-bitsliced (every cell of a grid large enough for the soup's growth)
//! and by hashlife (the unbounded plane, memoised squares), on this machine. Each row is
//! validated against hashlife's cells before it is timed; times are wall clock (as a user
//! waits), medians of fresh runs — a hashed run starts from an empty store every time, so
//! no memoised work carries from one repeat to the next — with each variant's memory.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use super::start::{RunStart, begin};
use super::{Experiment, GpuContext, LabError, LabReport, LabRow, Progress, RunPlan};
use super::{SizeLimit, Variant};
use crate::hashlife::HashUniverse;
use crate::rule::Rule;
use crate::sim::Simulation;
use crate::step::{StepperFactory, Strategy};
use crate::universe::plane_cells;
use crate::world::{Topology, World};

/// Generations every row runs.
pub const GENERATIONS: u64 = 1024;

/// Soup density, percent.
pub const DENSITY: f64 = 50.0;

/// Cells of margin on each side of the soup in the brute-force grids: Life's fastest
/// spaceships move at c/2, so this holds everything a soup sends out in [`GENERATIONS`].
pub const MARGIN: u32 = GENERATIONS as u32 / 2 + 16;

/// The experiment (see the module docs).
pub struct HashingExperiment;

type Cells = HashSet<(i128, i128)>;

/// The soup of side `side`: live cells at plane coordinates, centred on the origin.
fn soup(side: u32, seed: u64) -> Result<Cells, LabError> {
    let mut world = World::new(side, side, Topology::DeadBorder, Rule::CONWAY)
        .map_err(|e| LabError::BadSize(e.to_string()))?;
    world
        .fill_random(DENSITY, seed)
        .map_err(|e| LabError::BadSize(e.to_string()))?;
    Ok(plane_cells(&world).collect())
}

/// One hashed run: (seconds, cells, store bytes).
fn hashed(start: &Cells) -> Result<(f64, Cells, usize), LabError> {
    let t = Instant::now();
    let mut u = HashUniverse::new(Rule::CONWAY, crate::hashlife::default_memory_limit())
        .map_err(|e| LabError::Unsupported(e.to_string()))?;
    u.load_cells(start.iter().copied())
        .map_err(|e| LabError::Unsupported(e.to_string()))?;
    u.advance(GENERATIONS.into(), &|| false)
        .map_err(|e| LabError::Unsupported(e.to_string()))?;
    let seconds = t.elapsed().as_secs_f64();
    let cells = u
        .bounds()
        .map_or_else(Cells::new, |b| u.cells_in(b).into_iter().collect());
    Ok((seconds, cells, u.memory().bytes))
}

/// One brute-force run on `factory`'s `strategy`: (seconds, cells, grid bytes).
fn brute(
    factory: &StepperFactory,
    strategy: Strategy,
    side: u32,
    start: &Cells,
) -> Result<(f64, Cells, usize), LabError> {
    let grid = side + 2 * MARGIN;
    let mut world = World::new(grid, grid, Topology::DeadBorder, Rule::CONWAY)
        .map_err(|e| LabError::BadSize(e.to_string()))?;
    let c = i128::from(grid / 2);
    let edits: Vec<_> = start
        .iter()
        .map(|&(x, y)| crate::world::CellEdit {
            x: (x + c) as u32,
            y: (y + c) as u32,
            alive: true,
        })
        .collect();
    world.apply_edits(&edits);
    let mut sim = Simulation::new(factory.sharing_device(), world, strategy)
        .map_err(|e| LabError::Unsupported(e.to_string()))?;
    let t = Instant::now();
    sim.step(GENERATIONS)
        .map_err(|e| LabError::Gpu(e.to_string()))?;
    let world = sim.world().map_err(|e| LabError::Gpu(e.to_string()))?;
    let seconds = t.elapsed().as_secs_f64();
    Ok((
        seconds,
        plane_cells(world).collect(),
        grid as usize * grid as usize * 4,
    ))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

impl Experiment for HashingExperiment {
    fn name(&self) -> &'static str {
        "hashing"
    }

    fn description(&self) -> &'static str {
        "Brute force against hashing: a B3/S23 soup (50 %, side = the size) run 1024 generations by gpu-bitpacked and cpu-bitsliced on a grid with room for its growth, and by hashlife on the unbounded plane; wall time and memory of each, where each wins"
    }

    fn variants(&self) -> Vec<Variant> {
        vec![
            Variant::new(
                "gpu-bitpacked",
                "every cell of a grid of side + 2·528, on the GPU",
            ),
            Variant::new(
                "cpu-bitsliced",
                "every cell of the same grid, 64 per word, every core",
            ),
            Variant::new(
                "hashlife",
                "the unbounded plane, memoised squares, one thread, a fresh store per run",
            ),
        ]
    }

    fn size_unit(&self) -> &'static str {
        "soup side (cells)"
    }

    fn default_sizes(&self) -> Vec<u64> {
        vec![16, 64, 256, 1024]
    }

    fn size_limit(&self, _ctx: &GpuContext) -> SizeLimit {
        SizeLimit {
            max: 8192,
            reason: "soups up to 8192 cells a side (the grids add 2 x 528 cells)".into(),
        }
    }

    fn run(
        &self,
        ctx: &Arc<GpuContext>,
        plan: &RunPlan,
        progress: &Progress,
    ) -> Result<LabReport, LabError> {
        let RunStart {
            variants,
            sizes,
            copy,
            clock,
            seed,
        } = begin(self, ctx, plan, progress, 4)?;
        let repeats = plan.repeats.clamp(1, 3);
        let mut report = LabReport::new(
            self.name(),
            ctx,
            copy,
            &clock,
            plan,
            vec![
                format!(
                    "B3/S23 soups at {DENSITY} %, seed {seed}, {GENERATIONS} generations; ms = wall clock of the stepping and reading back the cells, median of {repeats}; brute-force grids have {MARGIN} cells of margin a side"
                ),
                "validated: the variant's cells after the run equal hashlife's, cell for cell"
                    .into(),
            ],
        );
        let factory = StepperFactory::with_context(ctx.clone());
        let total = (sizes.len() * variants.len()) as f32;
        for (si, &side) in sizes.iter().enumerate() {
            let start = soup(side as u32, seed ^ side)?;
            let (_, reference, _) = hashed(&start)?;
            for (vi, variant) in variants.iter().enumerate() {
                progress.check()?;
                progress.update(
                    (si * variants.len() + vi) as f32 / total,
                    &format!("hashing {} {side}²", variant.name),
                );
                let run_once = || match variant.name.as_str() {
                    "hashlife" => hashed(&start),
                    "cpu-bitsliced" => brute(&factory, Strategy::CpuBitsliced, side as u32, &start),
                    _ => brute(&factory, Strategy::GpuBitpacked, side as u32, &start),
                };
                let (_, cells, bytes) = run_once()?;
                let mut row = LabRow::checked(
                    variant.name.clone(),
                    side,
                    format!("{side}²"),
                    if cells == reference {
                        Ok(())
                    } else {
                        Err(format!(
                            "{} cells against hashlife's {}",
                            cells.len(),
                            reference.len()
                        ))
                    },
                );
                if row.validated {
                    let mut times = Vec::new();
                    for _ in 0..repeats {
                        progress.check()?;
                        times.push(run_once()?.0);
                    }
                    let seconds = median(times);
                    row.ms = Some(seconds * 1e3);
                    row.notes = format!(
                        "{:.1} MiB; {} cells at the end; {:.0} generations/s",
                        bytes as f64 / 1048576.0,
                        reference.len(),
                        GENERATIONS as f64 / seconds
                    );
                }
                progress.push_row(&mut report.rows, row);
            }
        }
        progress.update(1.0, "done");
        Ok(report)
    }
}
