//! The crash handler: a panic anywhere writes a report and the last world copy, which the
//! next launch finds.

use std::sync::{Arc, Mutex};

use golab::app::crash;
use golab::rule::Rule;
use golab::world::{Topology, World};

#[test]
fn a_panic_saves_a_report_and_the_last_world_copy() {
    let dir = std::env::temp_dir().join(format!("golab-crash-hook-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut world = World::new(40, 30, Topology::Torus, Rule::CONWAY).unwrap();
    world.fill_random(30.0, 5).unwrap();
    world.generation = 1234;
    let copy = Arc::new(Mutex::new(Some(world.clone())));
    crash::install_hook(dir.clone(), copy);
    let crashed = std::thread::spawn(|| panic!("simulated bug in the simulation thread")).join();
    assert!(crashed.is_err());
    let report = std::fs::read_to_string(dir.join(crash::REPORT_FILE)).unwrap();
    assert!(
        report.contains("simulated bug in the simulation thread"),
        "{report}"
    );
    let saved = crash::pending(&dir).expect("the world was saved");
    let pattern = golab::pattern::library::load_file(&saved).unwrap();
    assert_eq!(pattern.population() as u64, world.population());
    assert!(pattern.name.unwrap().contains("generation 1234"));
    let _ = std::fs::remove_dir_all(&dir);
}
