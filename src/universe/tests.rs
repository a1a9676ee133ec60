//! Both implementations behind the one trait: the same pattern, stepped and read through
//! `dyn Universe`, gives the same cells at the same plane coordinates (the whole
//! conformance suite is tests/universe_conformance.rs).

use super::*;
use crate::hashlife::load;
use crate::sim::Simulation;
use crate::step::{StepperFactory, Strategy};

/// An unbounded grid (a growing dead border) and the unbounded hashed universe holding
/// `cells`.
fn both(cells: &[(i128, i128)]) -> Vec<Box<dyn Universe>> {
    let mut world = World::new(64, 64, Topology::DeadBorder, Rule::CONWAY).unwrap();
    world.grows = true;
    let sim = Simulation::new(StepperFactory::cpu_only(), world, Strategy::Rayon).unwrap();
    let mut grid: Box<dyn Universe> = Box::new(GridUniverse::new(sim));
    let mut hashed: Box<dyn Universe> =
        Box::new(HashedUniverse::empty(Rule::CONWAY, 64 << 20).unwrap());
    let states: Vec<_> = cells.iter().map(|&(x, y)| (x, y, 1)).collect();
    for u in [&mut grid, &mut hashed] {
        u.set_states(&states).unwrap();
    }
    vec![grid, hashed]
}

#[test]
fn a_grid_and_the_plane_agree_through_the_trait() {
    // The R-pentomino, away from the origin so the grid's origin mapping matters.
    let r = [(11, -7), (12, -7), (10, -6), (11, -6), (11, -5)];
    let mut universes = both(&r);
    let mut seen = Vec::new();
    for u in &mut universes {
        assert_eq!(u.step(300, &|| false).unwrap(), 300);
        assert_eq!(u.generation(), 300);
        let b = u.bounds().unwrap().unwrap();
        seen.push((u.population().unwrap(), b, u.states_in(b).unwrap()));
    }
    assert_eq!(
        seen[0],
        seen[1],
        "{} vs {}",
        universes[0].describe(),
        universes[1].describe()
    );
    assert!(seen[0].0 > 100);
}

#[test]
fn a_cancel_stops_at_a_generation_boundary() {
    let mut universes = both(&[(0, 0), (1, 0), (2, 0)]);
    for u in &mut universes {
        assert_eq!(u.step(1000, &|| true).unwrap(), 0, "{}", u.describe());
        assert_eq!(u.generation(), 0);
    }
}

#[test]
fn grids_refuse_what_they_cannot_hold_with_the_reason() {
    let world = World::new(301, 211, Topology::Torus, Rule::CONWAY).unwrap();
    let sim = Simulation::new(StepperFactory::cpu_only(), world, Strategy::Rayon).unwrap();
    let mut grid = GridUniverse::new(sim);
    let outside = grid.set_states(&[(1000, 0, 1)]).unwrap_err().to_string();
    assert!(outside.contains("outside the grid"), "{outside}");
    let far = grid.step(1 << 70, &|| false).unwrap_err().to_string();
    assert!(far.contains("hashed universe"), "{far}");
    assert_eq!(grid.generation(), 0);
}

#[test]
fn what_one_implementation_saves_the_other_opens_where_it_was() {
    let glider = [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)];
    let dir = std::env::temp_dir().join(format!("golab-universe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, u) in both(&glider).iter_mut().enumerate() {
        u.step(8, &|| false).unwrap();
        let path = dir.join(format!("saved-{k}.rle"));
        u.save(&path, &Default::default()).unwrap();
        let (back, _) = load::open(path.to_str().unwrap(), None, 64 << 20).unwrap();
        let mut moved: Vec<(i128, i128)> = glider.iter().map(|&(x, y)| (x + 2, y + 2)).collect();
        moved.sort_unstable();
        let mut cells = back.cells_in(back.bounds().unwrap());
        cells.sort_unstable();
        assert_eq!(cells, moved, "{}", u.describe());
    }
    let _ = std::fs::remove_dir_all(dir);
}
