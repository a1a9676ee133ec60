//! Golly's Super algorithm families — `<rule>History`, `<rule>Super`, `<rule>Investigator`
//! — on every strategy that runs many-state rules (bit-identical to scalar on random soups
//! of their states), against their published definitions (History's envelope is the union
//! of every generation's live cells; a no-trail Super pattern keeps its state and leaves
//! nothing), and against Golly: bgolly 3.3's LifeHistory table on random soups, torus and
//! plane. Super and Investigator are checked against a build of Golly's source by
//! `scripts/golly-oracle` (user guide, "History, Super and Investigator").

mod common;

use common::*;
use golab::pattern::Pattern;
use golab::rule::Rule;
use golab::step::Strategy;
use golab::world::{Topology, World};

/// A soup of `rule` whose non-empty cells (45 %) take any of its states.
fn layered_soup(rule: &str, w: u32, h: u32, topology: Topology, seed: u64) -> World {
    multi_soup(Rule::parse(rule).unwrap(), w, h, topology, 45, seed)
}

#[test]
fn every_strategy_that_runs_them_is_bit_identical_to_scalar() {
    let strategies: Vec<Strategy> = Strategy::GRID
        .iter()
        .copied()
        .filter(|s| s.supports(&Rule::parse("LifeSuper").unwrap()).is_ok())
        .collect();
    assert!(strategies.contains(&Strategy::GpuResident) && strategies.contains(&Strategy::Rayon));
    let cases = [
        ("LifeHistory", 53, 41, Topology::Torus),
        ("B36/S23Super", 67, 29, Topology::DeadBorder),
        ("B2-a/S12Investigator", 45, 45, Topology::Torus),
        ("B2/S34HSuper", 33, 70, Topology::Torus),
        ("B0123478/S01234678History", 40, 31, Topology::DeadBorder),
    ];
    for (k, &(rule, w, h, topology)) in cases.iter().enumerate() {
        let world = layered_soup(rule, w, h, topology, 40 + k as u64);
        for &strategy in &strategies {
            let context = format!("{strategy} on {rule}, {w}x{h} {topology:?}");
            assert_matches_scalar(factory_for(strategy), strategy, &world, 30, &context);
        }
    }
}

#[test]
fn history_is_the_envelope_of_every_generation_and_no_trail_states_keep_theirs() {
    // Golly's help: state 2 "if cell was ever ON but now OFF". A two-state soup run under
    // B3/S23 and under LifeHistory: the live cells agree every generation, and the
    // history cells are exactly the cells alive at some earlier generation but not now.
    let life = soup(64, 48, Topology::Torus, Rule::CONWAY, 35.0, 5);
    let mut history = life.clone();
    history
        .set_rule(Rule::parse("LifeHistory").unwrap())
        .unwrap();
    let mut plain = life.clone();
    let mut ever = vec![false; plain.len()];
    for g in 0..60 {
        for (i, e) in ever.iter_mut().enumerate() {
            *e |= plain.ages()[i] > 0;
        }
        plain = scalar_after(&plain, 1);
        history = scalar_after(&history, 1);
        for (i, &was) in ever.iter().enumerate() {
            let want = if plain.ages()[i] > 0 {
                1
            } else if was {
                2
            } else {
                0
            };
            assert_eq!(history.state_at(i), want, "generation {}, cell {i}", g + 1);
        }
    }
    // A soup in no-trail state 13 runs as B3/S23, keeps state 13 and leaves no trail; in
    // trail #2 (9) it leaves trail #2 (10).
    for (on, trail) in [(13u8, 0u16), (9, 10)] {
        let mut world =
            World::new(64, 48, Topology::Torus, Rule::parse("LifeSuper").unwrap()).unwrap();
        for i in 0..life.len() {
            let (x, y) = ((i % 64) as u32, (i / 64) as u32);
            if life.ages()[i] > 0 {
                world.set_state(x, y, on);
            }
        }
        let after = scalar_after(&world, 40);
        let plain = scalar_after(&life, 40);
        for i in 0..plain.len() {
            let s = after.state_at(i);
            if plain.ages()[i] > 0 {
                assert_eq!(s, u16::from(on), "state {on}: cell {i}");
            } else {
                assert!(s == 0 || s == trail, "state {on}: cell {i} is {s}");
            }
        }
    }
}

#[test]
fn lifehistory_soups_give_bgollys_populations() {
    need_tool("bgolly");
    let dir = std::env::temp_dir().join(format!("golab-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, topology) in [Topology::Torus, Topology::DeadBorder]
        .into_iter()
        .enumerate()
    {
        let world = layered_soup("LifeHistory", 48, 40, Topology::Torus, 70 + k as u64);
        let mut pattern = Pattern::from_world(&world);
        if topology == Topology::Torus {
            pattern = Pattern::of_world(&world);
        }
        let path = dir.join(format!("soup-{k}.rle"));
        std::fs::write(&path, pattern.to_rle()).unwrap();
        let theirs = bgolly_algo_population("RuleLoader", &path, 100);
        let path = path.to_string_lossy();
        let strategy = if topology == Topology::Torus {
            "rayon"
        } else {
            "hashlife"
        };
        let ours = golab_occupied(&["--strategy", strategy, "--gens", "100", "--pattern", &path]);
        assert_eq!(ours, theirs, "{topology:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
