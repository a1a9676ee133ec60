//! The start-up probe: which strategy a new user's window starts on, measured on this
//! machine in under a second rather than guessed.
//!
//! cpu-bitsliced is timed on a small soup for a fixed slice after one warm-up generation.
//! gpu-bitpacked is never built by the probe (its pipelines take seconds to compile on a
//! cold driver, and far longer on a software one). On a real GPU the device's copy bandwidth
//! is measured instead and gpu-bitpacked expected at a cell update per byte of it (it makes
//! about two on the lent GPUs); it is chosen unless the CPU is faster than that. On a
//! software driver (lavapipe) gpu-resident is timed beside cpu-bitsliced and the faster wins.
//! The app keeps the outcome per adapter.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{StepperFactory, Strategy};
use crate::rule::Rule;
use crate::world::{Topology, World};

/// Side of the probe's square soup: large enough that a CPU step is not all overhead, small
/// enough that gpu-resident on a software driver still steps a few times in its slice.
const SIDE: u32 = 512;

/// What the probe measured and chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeOutcome {
    /// The strategy to start on.
    pub chosen: Strategy,
    /// Each strategy timed, with its cell updates per second on the probe's soup.
    pub measured: Vec<(Strategy, f64)>,
    /// The GPU's copy-kernel bandwidth (read + write bytes per second), measured on a real
    /// GPU only.
    pub copy_bytes_per_s: Option<f64>,
    /// Wall time of the whole probe, building included.
    pub seconds: f64,
    /// Why `chosen`, for the window's message.
    pub reason: String,
}

impl ProbeOutcome {
    /// What was measured and why the choice: "the start-up probe (0.49 s, a 512² soup)
    /// measured …; a software driver runs …".
    pub fn summary(&self) -> String {
        let mut figures: Vec<String> = self
            .measured
            .iter()
            .map(|(s, rate)| format!("{} {:.2e} cell updates/s", s.name(), rate))
            .collect();
        if let Some(copy) = self.copy_bytes_per_s {
            figures.push(format!("the GPU's copy kernel {:.0} GB/s", copy / 1e9));
        }
        format!(
            "the start-up probe ({:.2} s, a {SIDE}² soup) measured {}; {}",
            self.seconds,
            figures.join(", "),
            self.reason
        )
    }
}

/// Cell updates gpu-bitpacked makes per byte of the device's copy bandwidth, at the
/// least: on the lent H100 and H200 it makes about two (a fresh 8192² soup: 5.7e12 cell
/// updates/s beside a 2 950 GB/s copy kernel, docs/benchmarks.md), so one is a floor that
/// only a GPU far slower than the CPU loses on.
const BITPACKED_CELLS_PER_COPY_BYTE: f64 = 1.0;

/// Measure and choose; `real_gpu`: the factory's device is a hardware GPU (not a software
/// driver). cpu-bitsliced is timed for `slice` everywhere. On a software driver gpu-resident
/// is timed beside it and the faster wins. On a real GPU the device's copy bandwidth is
/// measured (a few milliseconds) and gpu-bitpacked expected at
/// [`BITPACKED_CELLS_PER_COPY_BYTE`] cell updates per byte of it: gpu-resident is no
/// proxy there (at 512² its per-step overhead hides the GPU: the H100 measured 5e9 against
/// 16 cores' 2.2e10, where gpu-bitpacked runs 1.4e11 at 1024²).
pub fn probe(factory: &StepperFactory, real_gpu: bool, slice: Duration) -> ProbeOutcome {
    let started = Instant::now();
    let mut world = World::new(SIDE, SIDE, Topology::Torus, Rule::CONWAY)
        .expect("a 512x512 torus is a valid world");
    let _ = world.fill_random(50.0, 1);
    let gpu_open = factory.unavailable_reason(Strategy::GpuResident).is_none();
    let mut measured: Vec<(Strategy, f64)> = time(factory, Strategy::CpuBitsliced, &world, slice)
        .map(|rate| vec![(Strategy::CpuBitsliced, rate)])
        .unwrap_or_default();
    let cpu = measured.first().map_or(0.0, |m| m.1);
    let mut copy_bytes_per_s = None;
    let (chosen, reason) = if !gpu_open {
        (
            Strategy::CpuBitsliced,
            "no GPU strategy is available".to_string(),
        )
    } else if real_gpu {
        copy_bytes_per_s = factory
            .gpu()
            .ok()
            .and_then(|ctx| crate::gpu::roofline::measure(ctx, 32 << 20, 3).ok())
            .map(|roof| roof.copy_bytes_per_s);
        let expected = copy_bytes_per_s.unwrap_or(0.0) * BITPACKED_CELLS_PER_COPY_BYTE;
        if expected > cpu {
            (
                Strategy::GpuBitpacked,
                format!(
                    "gpu-bitpacked, at a cell update per byte of the GPU's copy bandwidth, expects {expected:.2e}: more than the CPU"
                ),
            )
        } else {
            (
                Strategy::CpuBitsliced,
                format!(
                    "gpu-bitpacked, at a cell update per byte of the GPU's copy bandwidth, expects {expected:.2e}: the CPU is faster"
                ),
            )
        }
    } else {
        let gpu = time(factory, Strategy::GpuResident, &world, slice);
        if let Some(rate) = gpu {
            measured.push((Strategy::GpuResident, rate));
        }
        match gpu {
            Some(gpu) if gpu > cpu => (
                Strategy::GpuResident,
                "gpu-resident out-ran cpu-bitsliced on this software driver".to_string(),
            ),
            _ => (
                Strategy::CpuBitsliced,
                "a software driver runs GPU kernels on the CPU, slower than cpu-bitsliced"
                    .to_string(),
            ),
        }
    };
    ProbeOutcome {
        chosen,
        measured,
        copy_bytes_per_s,
        seconds: started.elapsed().as_secs_f64(),
        reason,
    }
}

/// Cell updates per second of `strategy` on `world`: one warm-up generation (building
/// included), then doubling batches until `slice` has passed, each batch ended by a read of
/// the statistics so a GPU's queued work is counted. `None` if it cannot be built.
fn time(
    factory: &StepperFactory,
    strategy: Strategy,
    world: &World,
    slice: Duration,
) -> Option<f64> {
    let mut stepper = factory.create(strategy, world).ok()?;
    stepper.step(1).ok()?;
    stepper.stats(1).ok()?;
    let cells = f64::from(world.width()) * f64::from(world.height());
    let started = Instant::now();
    let (mut gens, mut batch) = (0u64, 1u64);
    while started.elapsed() < slice {
        stepper.step(batch).ok()?;
        stepper.stats(1).ok()?;
        gens += batch;
        batch *= 2;
    }
    Some(gens as f64 * cells / started.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a GPU the probe times cpu-bitsliced alone and starts on it; gpu-bitpacked
    /// (never built by the probe) is chosen only on a real GPU that out-ran the CPU.
    #[test]
    fn without_a_gpu_the_probe_times_cpu_bitsliced_and_chooses_it() {
        let outcome = probe(
            &StepperFactory::cpu_only(),
            false,
            Duration::from_millis(20),
        );
        assert_eq!(outcome.chosen, Strategy::CpuBitsliced);
        assert_eq!(outcome.measured.len(), 1);
        assert_eq!(outcome.measured[0].0, Strategy::CpuBitsliced);
        assert!(outcome.measured[0].1 > 0.0);
        assert!(
            outcome.summary().contains("no GPU strategy"),
            "{}",
            outcome.summary()
        );
    }
}
