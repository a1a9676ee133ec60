//! Every rule family (isotropic non-totalistic, MAP, hexagonal, von Neumann, Generations) on
//! every strategy, bit-identical to `scalar` in every state and age, on random soups of
//! awkward sizes, both topologies, for random rules drawn by proptest — and through strategy
//! switches mid-run. GPU strategies run on lavapipe in CI and fail (never skip) without an
//! adapter.

mod common;

use common::*;
use golab::rule::hensel::letters_for;
use golab::rule::{Neighbourhood, Rule, map};
use golab::sim::Simulation;
use golab::step::{GpuSettings, Strategy};
use golab::world::{Topology, World};
use proptest::prelude::*;

/// A tiny deterministic generator, so one proptest seed draws a whole rule.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One half (birth or survival) of a Hensel rule: each count absent, whole, a subset of its
/// letters or a negated subset.
fn hensel_half(draw: &mut Draw, counts: std::ops::RangeInclusive<u32>) -> String {
    let mut out = String::new();
    for n in counts {
        let letters = letters_for(n);
        match draw.below(5) {
            0 | 1 => {}
            2 => out.push_str(&n.to_string()),
            kind => {
                if letters.is_empty() {
                    out.push_str(&n.to_string());
                    continue;
                }
                let picked: String = letters.chars().filter(|_| draw.below(2) == 0).collect();
                if picked.is_empty() || picked.len() == letters.len() {
                    out.push_str(&n.to_string());
                } else if kind == 3 {
                    out.push_str(&format!("{n}{picked}"));
                } else {
                    out.push_str(&format!("{n}-{picked}"));
                }
            }
        }
    }
    out
}

/// Totalistic digits `counts` each present with probability 1/2.
fn digits(draw: &mut Draw, counts: std::ops::RangeInclusive<u32>) -> String {
    counts
        .filter(|_| draw.below(2) == 0)
        .map(|n| n.to_string())
        .collect()
}

/// A random rule of a random family, as text in the family's usual notation.
fn random_rule_text(seed: u64) -> String {
    let mut draw = Draw(seed | 1);
    match draw.below(6) {
        0 => format!(
            "B{}/S{}",
            hensel_half(&mut draw, 1..=8),
            hensel_half(&mut draw, 0..=8)
        ),
        1 => format!(
            "B{}/S{}/C{}",
            hensel_half(&mut draw, 1..=8),
            hensel_half(&mut draw, 0..=8),
            3 + draw.below(6)
        ),
        2 => format!(
            "B{}/S{}H",
            digits(&mut draw, 1..=6),
            digits(&mut draw, 0..=6)
        ),
        3 => format!(
            "B{}/S{}V",
            digits(&mut draw, 1..=4),
            digits(&mut draw, 0..=4)
        ),
        4 => {
            let mut table = [0u64; 8];
            for word in &mut table {
                *word = draw.next() & draw.next();
            }
            table[0] &= !1; // no B0: a dead cell with no live neighbour stays dead
            format!("MAP{}", map::encode(Neighbourhood::Moore, &table))
        }
        _ => format!(
            "{}/{}/{}",
            digits(&mut draw, 0..=8),
            digits(&mut draw, 1..=8),
            3 + draw.below(20)
        ),
    }
}

/// Every strategy but the reference that keeps ages (every one of them runs every rule
/// family); hashlife, which keeps states and refuses Generations, is in tests/hashlife.rs.
fn strategies() -> Vec<Strategy> {
    Strategy::GRID
        .iter()
        .copied()
        .filter(|s| *s != Strategy::Scalar && s.keeps_ages())
        .collect()
}

proptest! {
    // Three random rules per run (each compiles gpu-bitpacked's circuits on lavapipe); CI
    // draws new ones every run.
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    #[test]
    fn every_strategy_matches_scalar_on_random_rules_of_every_family(
        seed in any::<u64>(),
        size in 0usize..3,
        torus in any::<bool>(),
        density in 20.0f64..60.0,
    ) {
        let text = random_rule_text(seed);
        let rule: Rule = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let (w, h) = [(37, 29), (70, 13), (129, 33)][size];
        let topology = if torus { Topology::Torus } else { Topology::DeadBorder };
        let start = soup(w, h, topology, rule, density, seed);
        for strategy in strategies() {
            let context = format!("{strategy} {w}x{h} {topology} {rule} (from {text})");
            assert_matches_scalar(factory_for(strategy), strategy, &start, 45, &context);
        }
    }
}

/// Step `world` through every strategy in turn, `gens` generations each, switching in one
/// simulation, and compare with scalar at the end.
fn chain_through_every_strategy(start: &World, gens: u64) {
    let rule = start.rule();
    let order = strategies();
    let mut sim = Simulation::new(gpu_factory(GpuSettings::default()), start.clone(), order[0])
        .unwrap_or_else(|e| panic!("{rule}: {e}"));
    for &strategy in &order {
        sim.switch(strategy)
            .unwrap_or_else(|e| panic!("{rule}: switch to {strategy}: {e}"));
        sim.step(gens)
            .unwrap_or_else(|e| panic!("{rule}: {strategy}: {e}"));
    }
    let expected = scalar_after(start, gens * order.len() as u64);
    let context = format!("{rule} through {order:?}");
    assert_same_world(&expected, sim.world().unwrap(), &context);
}

#[test]
fn switching_strategies_mid_run_keeps_every_state_and_age() {
    for (text, seed) in [
        ("345/2/4", 1),
        ("B2-a/S12/C5", 2),
        ("B3/S2-i34q", 3),
        ("B2/S34H", 4),
    ] {
        let rule: Rule = text.parse().unwrap();
        let start = soup(45, 31, Topology::Torus, rule, 40.0, seed);
        chain_through_every_strategy(&start, 7);
    }
}

#[test]
fn both_bitpacked_kernels_run_compiled_and_generations_rules_at_word_boundary_widths() {
    use golab::config::{BitpackedTuning, KernelChoice};
    for kernel in [KernelChoice::Tile, KernelChoice::Stream] {
        let settings = GpuSettings {
            bitpacked: BitpackedTuning {
                kernel,
                ..BitpackedTuning::default()
            },
            ..GpuSettings::default()
        };
        for (text, (w, h), topology) in [
            ("B2-a/S12", (63, 40), Topology::Torus),
            ("B3/S2-i34q", (65, 33), Topology::DeadBorder),
            ("B2/S34H", (96, 20), Topology::Torus),
            ("B2/S013V", (31, 50), Topology::DeadBorder),
            // Generations: the count path with 2 countdown planes, a compiled circuit with 2,
            // Brian's Brain with 1 and the widest countdown (8 planes).
            ("345/2/4", (63, 40), Topology::Torus),
            ("B2-a/S12/5", (65, 33), Topology::DeadBorder),
            ("/2/3", (33, 31), Topology::Torus),
            ("B3/S23/256", (96, 20), Topology::DeadBorder),
        ] {
            let rule: Rule = text.parse().unwrap();
            let start = soup(w, h, topology, rule, 40.0, 11);
            let context = format!("gpu-bitpacked {kernel:?} {w}x{h} {topology} {rule}");
            assert_matches_scalar(
                gpu_factory(settings),
                Strategy::GpuBitpacked,
                &start,
                70,
                &context,
            );
        }
    }
}

#[test]
fn the_generator_draws_every_family() {
    let families: std::collections::HashSet<_> = (1..200u64)
        .map(|seed| {
            let rule: Rule = random_rule_text(seed * 7919).parse().unwrap();
            (
                rule.neighbourhood(),
                rule.has_dying_states(),
                rule.notation(),
            )
        })
        .collect();
    assert!(families.len() >= 5, "{families:?}");
}
