//! Both kinds behind the one trait: the same pattern, stepped and read through
//! `dyn Universe`, gives the same cells at the same plane coordinates.

use super::*;
use crate::step::{StepperFactory, Strategy};
use crate::world::{Topology, World};

fn kinds(cells: &[(i128, i128)]) -> Vec<Box<dyn Universe>> {
    let world = World::new(301, 211, Topology::DeadBorder, Rule::CONWAY).unwrap();
    let sim = Simulation::new(StepperFactory::cpu_only(), world, Strategy::Rayon).unwrap();
    let mut grid: Box<dyn Universe> = Box::new(GridUniverse::new(sim));
    let mut hashed: Box<dyn Universe> = Box::new(Hashed::new(Rule::CONWAY, 64 << 20).unwrap());
    for u in [&mut grid, &mut hashed] {
        for &(x, y) in cells {
            u.set_cell(x, y, true).unwrap();
        }
    }
    vec![grid, hashed]
}

#[test]
fn a_grid_and_the_plane_agree_through_the_trait() {
    // The R-pentomino, at a corner-ish offset so the grid's origin mapping matters.
    let r = [(11, -7), (12, -7), (10, -6), (11, -6), (11, -5)];
    let mut universes = kinds(&r);
    let mut seen = Vec::new();
    for u in &mut universes {
        assert_eq!(u.step(90, &|| false).unwrap(), 90);
        assert_eq!(u.generation(), 90);
        let b = u.bounds().unwrap().unwrap();
        let mut cells = u.cells_in(b).unwrap();
        cells.sort_unstable();
        seen.push((u.population().unwrap(), b, cells));
    }
    assert_eq!(
        seen[0],
        seen[1],
        "{} vs {}",
        universes[0].kind(),
        universes[1].kind()
    );
    assert!(seen[0].0 > 20);
}

#[test]
fn a_cancel_stops_at_a_generation_boundary() {
    let mut universes = kinds(&[(0, 0), (1, 0), (2, 0)]);
    for u in &mut universes {
        assert_eq!(u.step(1000, &|| true).unwrap(), 0, "{}", u.kind());
        assert_eq!(u.generation(), 0);
    }
}

#[test]
fn grids_refuse_what_they_cannot_hold_with_the_reason() {
    let mut universes = kinds(&[]);
    let grid = &mut universes[0];
    let outside = grid.set_cell(1000, 0, true).unwrap_err().to_string();
    assert!(outside.contains("outside the 301x211 grid"), "{outside}");
    let far = grid.step(1 << 70, &|| false).unwrap_err().to_string();
    assert!(far.contains("hashed universe"), "{far}");
    assert_eq!(grid.generation(), 0);
}

#[test]
fn what_one_kind_saves_the_other_opens_where_it_was() {
    let glider = [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)];
    let dir = std::env::temp_dir().join(format!("golab-universe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, u) in kinds(&glider).iter_mut().enumerate() {
        u.step(8, &|| false).unwrap();
        let path = dir.join(format!("saved-{k}.rle"));
        u.save(&path, &[]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // A grid's file names its bounded grid; the plane's runs unbounded.
        let text = text.replace(":P301,211", "");
        std::fs::write(&path, text).unwrap();
        let (back, _) = load::open(path.to_str().unwrap(), None, 64 << 20).unwrap();
        let moved: Vec<(i128, i128)> = {
            let mut v: Vec<_> = glider.iter().map(|&(x, y)| (x + 2, y + 2)).collect();
            v.sort_unstable();
            v
        };
        let mut cells = back.cells_in(back.bounds().unwrap());
        cells.sort_unstable();
        assert_eq!(cells, moved, "{}", u.kind());
    }
    let _ = std::fs::remove_dir_all(dir);
}
