//! The GPU strategies as configurations of the one GPU engine ([`super::engine`]).
//!
//! They differ in representation (u32 ages in chunks, or bit planes), kernel, and where the
//! truth lives between generations, so each is one row of [`build`]; docs/architecture.md
//! draws the data flow of each.
//!
//! | strategy | reference | kernel | transfers per generation |
//! |---|---|---|---|
//! | `gpu-naive` | ALGORITHM_0 | bounds checks per neighbour column | upload + download |
//! | `gpu-padded` | ALGORITHM_1 | host-packed one-cell border, no checks | upload + download |
//! | `gpu-shared` | ALGORITHM_2 | 16×16 tile + gens in workgroup memory | upload + download |
//! | `gpu-streamed` | ALGORITHM_2_STREAM | shared, 8 strips each in its own submission | upload + download per strip |
//! | `gpu-no-upload` | ALGORITHM_3_STREAM | shared, state stays on device | download (edits upload only cells) |
//! | `gpu-readback-skip` | ALGORITHM_3_REPEAT | shared, state stays on device | download every N (default 10) |
//! | `gpu-resident` | beyond the article | column runs with a register window, state on device | none (stats by GPU reduction) |
//! | `gpu-bitpacked` | beyond the article | 32 cells per word, k generations per dispatch | none |

use std::sync::Arc;

use super::engine::ResidentStepper;
use super::gpu_bitpacked::BitState;
use super::gpu_cells::CellState;
use super::gpu_cells::kernels::Kernel;
use super::gpu_cells::transfer::TransferStepper;
use super::settings::GpuSettings;
use super::{StepError, Stepper, Strategy};
use crate::gpu::GpuContext;

/// Strips of `gpu-streamed`, as in the reference article.
pub const STREAM_STRIPS: u32 = 8;

/// The stepper of GPU `strategy` on `ctx` (not loaded yet).
pub fn build(
    strategy: Strategy,
    ctx: Arc<GpuContext>,
    settings: GpuSettings,
) -> Result<Box<dyn Stepper>, StepError> {
    let transfer = |kernel: Kernel, strips: u32| -> Result<Box<dyn Stepper>, StepError> {
        Ok(Box::new(TransferStepper::new(
            strategy,
            kernel,
            strips,
            ctx.clone(),
            settings,
        )?))
    };
    let cells = |kernel: Kernel, every: Option<u32>| -> Result<Box<dyn Stepper>, StepError> {
        Ok(Box::new(ResidentStepper::<CellState>::new(
            strategy,
            kernel,
            ctx.clone(),
            settings,
            every,
        )?))
    };
    match strategy {
        Strategy::Scalar | Strategy::Rayon | Strategy::CpuBitsliced | Strategy::Hashlife => Err(
            StepError::Backend(format!("{strategy} is not a GPU strategy")),
        ),
        Strategy::GpuNaive => transfer(Kernel::Naive, 1),
        Strategy::GpuPadded => transfer(Kernel::Padded, 1),
        Strategy::GpuShared => transfer(Kernel::Shared, 1),
        Strategy::GpuStreamed => transfer(Kernel::Shared, STREAM_STRIPS),
        Strategy::GpuNoUpload => cells(Kernel::Shared, Some(1)),
        Strategy::GpuReadbackSkip => cells(Kernel::Shared, Some(settings.readback_interval.max(1))),
        Strategy::GpuResident => cells(Kernel::Columns, None),
        Strategy::GpuBitpacked => Ok(Box::new(ResidentStepper::<BitState>::new(
            strategy,
            (),
            ctx.clone(),
            settings,
            None,
        )?)),
    }
}

/// Every module the GPU strategies build, as (label, WGSL), for tests/shaders.rs: the u32-age
/// kernels, gpu-bitpacked's queries, its tile kernel at every gens, and its stream kernel at
/// every number of levels, with every rule path (B3/S23's fast path, the generic count path,
/// and compiled circuits with and without count inputs: an isotropic rule, a hexagonal one
/// and a MAP rule; Generations rules with 1, 2 and 8 countdown planes on both paths), both
/// topologies, births written directly (with and without replay) and into epoch records,
/// other group and prefetch shapes, and the benchmark's no-ages variant.
pub fn shader_permutations() -> Vec<(String, String)> {
    use super::gpu_bitpacked::kernel::StepKernel;
    use super::gpu_bitpacked::pipelines::{Variant, query_shaders, step_shader};
    use crate::rule::Rule;
    let other: Rule = "B36/S23".parse().expect("a valid rule");
    let stream = |ages, prefetch, group| StepKernel::Stream {
        prefetch,
        group,
        min_lanes: 32,
        ages,
    };
    let mut shaders: Vec<crate::gpu::shader::Shader> = super::gpu_cells::kernels::shaders().into();
    shaders.extend(super::gpu_cells::ltl::shaders());
    shaders.extend(query_shaders());
    // The tile kernel, the stream kernel with ages (births written directly, with replay or
    // into epoch records) and without.
    let (tile, walk, no_ages) = (StepKernel::Tile, stream(true, 2, 128), stream(false, 1, 32));
    for gens in 1..=16 {
        shaders.push(step_shader(
            Rule::CONWAY,
            gens,
            false,
            tile,
            Variant::Direct,
        ));
    }
    shaders.push(step_shader(other, 16, false, tile, Variant::Direct));
    for gens in 1..=15 {
        let odd = gens % 2 == 1;
        shaders.push(step_shader(Rule::CONWAY, gens, true, walk, Variant::Direct));
        shaders.push(step_shader(
            Rule::CONWAY,
            gens,
            !odd,
            walk,
            Variant::Records,
        ));
        shaders.push(step_shader(Rule::CONWAY, gens, odd, walk, Variant::Replay));
    }
    for gens in [1, 8, 15] {
        shaders.push(step_shader(other, gens, false, no_ages, Variant::Direct));
    }
    let parse = |text: &str| text.parse::<Rule>().expect("a valid rule");
    let map = format!(
        "MAP{}",
        "ARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA"
            .replace('R', "Q")
    );
    for text in [
        "B2-a/S12",
        "B3/S2-i34q",
        "B2/S34H",
        "B2/S013V",
        map.as_str(),
        "/2/3",
        "345/2/4",
        "B2-a/S12/5",
        "B3/S23/256",
    ] {
        let rule = parse(text);
        shaders.push(step_shader(rule, 16, false, tile, Variant::Direct));
        shaders.push(step_shader(rule, 8, true, walk, Variant::Direct));
        shaders.push(step_shader(rule, 8, false, walk, Variant::Records));
        if !rule.has_dying_states() {
            shaders.push(step_shader(rule, 6, true, walk, Variant::Replay));
        }
    }
    shaders
        .iter()
        .map(|s| (s.label(), s.source().unwrap_or_else(|e| panic!("{e}"))))
        .collect()
}
