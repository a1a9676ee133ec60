//! The start-up probe: which strategy a new user's window starts on, measured on this
//! machine in well under a second rather than guessed.
//!
//! It times the strategies that build quickly everywhere — cpu-bitsliced, and gpu-resident
//! where a GPU is open — on the same small soup, each for a fixed slice of time after one
//! warm-up generation. gpu-bitpacked is never built by the probe (its pipelines take
//! seconds to compile on a cold driver, and many more on a software one); on a real GPU it
//! is chosen when the GPU out-runs the CPU at the simple kernel, since on every GPU measured
//! (docs/benchmarks.md) it out-runs gpu-resident many times over. On a software driver
//! (lavapipe) the faster of the two measured wins. The app keeps the outcome per adapter.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{StepperFactory, Strategy};
use crate::rule::Rule;
use crate::world::{Topology, World};

/// Side of the probe's square soup: large enough that a step is not all overhead, small
/// enough that gpu-resident on a software driver still steps a few times in its slice.
const SIDE: u32 = 512;

/// What the probe measured and chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeOutcome {
    /// The strategy to start on.
    pub chosen: Strategy,
    /// Each strategy timed, with its cell updates per second on the probe's soup.
    pub measured: Vec<(Strategy, f64)>,
    /// Wall time of the whole probe, building included.
    pub seconds: f64,
    /// Why `chosen`, for the window's message.
    pub reason: String,
}

impl ProbeOutcome {
    /// What was measured and why the choice: "the start-up probe (0.49 s, a 512² soup)
    /// measured …; a software driver runs …".
    pub fn summary(&self) -> String {
        let figures: Vec<String> = self
            .measured
            .iter()
            .map(|(s, rate)| format!("{} {:.2e} cell updates/s", s.name(), rate))
            .collect();
        format!(
            "the start-up probe ({:.2} s, a {SIDE}² soup) measured {}; {}",
            self.seconds,
            figures.join(", "),
            self.reason
        )
    }
}

/// Time the quick-building strategies `factory` can make, `slice` each, and choose;
/// `real_gpu`: the factory's device is a hardware GPU (not a software driver).
pub fn probe(factory: &StepperFactory, real_gpu: bool, slice: Duration) -> ProbeOutcome {
    let started = Instant::now();
    let mut world = World::new(SIDE, SIDE, Topology::Torus, Rule::CONWAY)
        .expect("a 512x512 torus is a valid world");
    let _ = world.fill_random(50.0, 1);
    let mut candidates = vec![Strategy::CpuBitsliced];
    if factory.unavailable_reason(Strategy::GpuResident).is_none() {
        candidates.push(Strategy::GpuResident);
    }
    let measured: Vec<(Strategy, f64)> = candidates
        .into_iter()
        .filter_map(|s| time(factory, s, &world, slice).map(|rate| (s, rate)))
        .collect();
    let rate = |s: Strategy| measured.iter().find(|m| m.0 == s).map(|m| m.1);
    let cpu = rate(Strategy::CpuBitsliced).unwrap_or(0.0);
    let (chosen, reason) = match rate(Strategy::GpuResident) {
        Some(gpu) if real_gpu && gpu > cpu => (
            Strategy::GpuBitpacked,
            "the GPU out-runs the CPU, and gpu-bitpacked is the fastest GPU strategy".to_string(),
        ),
        Some(gpu) if gpu > cpu => (
            Strategy::GpuResident,
            "gpu-resident out-ran cpu-bitsliced here".to_string(),
        ),
        Some(_) if real_gpu => (
            Strategy::CpuBitsliced,
            "this GPU runs the simple kernel slower than the CPU".to_string(),
        ),
        Some(_) => (
            Strategy::CpuBitsliced,
            "a software driver runs GPU kernels on the CPU, slower than cpu-bitsliced".to_string(),
        ),
        None => (
            Strategy::CpuBitsliced,
            "no GPU strategy is available".to_string(),
        ),
    };
    ProbeOutcome {
        chosen,
        measured,
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
