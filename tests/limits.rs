//! World sizes at and beyond the limits: the thinnest and widest worlds run bit-identical to
//! the reference on every strategy; sizes beyond the edge limit or the host's memory are
//! clear errors that leave the running world untouched.

mod common;

use common::{assert_matches_scalar, assert_same_world, gpu_factory, scalar_after, soup};
use golab::rule::Rule;
use golab::sim::Simulation;
use golab::step::Strategy;
use golab::world::{MAX_EDGE, Topology, World, WorldError, parse_size};

#[test]
fn sizes_below_the_smallest_edge_are_refused_with_the_range() {
    for (w, h) in [(1, 1), (2, 2), (1, 100), (100, 2), (0, 5)] {
        let err = World::new(w, h, Topology::Torus, Rule::CONWAY).unwrap_err();
        assert!(matches!(err, WorldError::BadSize { .. }), "{w}x{h}: {err}");
        assert!(err.to_string().contains("3..=65536"), "{err}");
    }
    assert!(parse_size("1x1").is_err());
    assert!(parse_size("65537x3").is_err());
    assert!(parse_size("3x4294967297").is_err());
    assert!(World::new(MAX_EDGE + 1, 3, Topology::Torus, Rule::CONWAY).is_err());
}

#[test]
fn thin_and_edge_length_worlds_run_like_the_reference_on_every_strategy() {
    let sizes = [(3, 3), (16384, 3), (3, 16384), (MAX_EDGE, 3), (3, MAX_EDGE)];
    for (i, (w, h)) in sizes.into_iter().enumerate() {
        for topology in [Topology::Torus, Topology::DeadBorder] {
            let start = soup(w, h, topology, Rule::CONWAY, 45.0, 100 + i as u64);
            // hashlife keeps states, not ages: its thin worlds are in tests/hashlife.rs.
            for strategy in Strategy::GRID.iter().copied().filter(|s| s.keeps_ages()) {
                let context = format!("{strategy} {w}x{h} {topology}");
                assert_matches_scalar(
                    gpu_factory(Default::default()),
                    strategy,
                    &start,
                    12,
                    &context,
                );
            }
        }
    }
}

#[test]
fn a_world_beyond_the_hosts_memory_is_refused_before_allocating_and_nothing_is_lost() {
    let available = golab::memory::available_bytes().expect("Linux reports MemAvailable");
    let edge = MAX_EDGE;
    let needed = u64::from(edge) * u64::from(edge) * golab::memory::HOST_BYTES_PER_CELL;
    assert!(
        needed > available,
        "this test expects a machine with less than 64 GiB available ({} here)",
        golab::memory::gib(available)
    );
    let err = World::new(edge, edge, Topology::Torus, Rule::CONWAY).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("65536x65536") && message.contains("largest square world that fits"),
        "{message}"
    );
    let WorldError::OutOfMemory { largest, .. } = err else {
        panic!("{err:?}")
    };
    assert!(largest >= 4096 && largest < edge, "{largest}");

    // A running simulation refuses the resize and keeps running its world.
    let start = soup(40, 30, Topology::Torus, Rule::CONWAY, 40.0, 9);
    for strategy in [Strategy::Scalar, Strategy::GpuResident] {
        let mut sim =
            Simulation::new(gpu_factory(Default::default()), start.clone(), strategy).unwrap();
        sim.step(3).unwrap();
        let err = sim.resize(edge, edge).unwrap_err();
        assert!(err.to_string().contains("host memory"), "{err}");
        sim.step(2).unwrap();
        assert_same_world(
            &scalar_after(&start, 5),
            sim.world().unwrap(),
            "after refusal",
        );
    }
}
