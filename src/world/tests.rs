//! Unit tests of the host world: sizes, topology names, rules, edits, resizing, hashing.

use super::*;

#[test]
fn sizes_parse_and_are_checked() {
    assert_eq!(parse_size("1024x768").unwrap(), (1024, 768));
    assert_eq!(parse_size("512").unwrap(), (512, 512));
    assert_eq!(parse_size(" 17X5 ").unwrap(), (17, 5));
    assert!(matches!(parse_size("2x9"), Err(WorldError::BadSize { .. })));
    assert!(matches!(
        parse_size("100000x5"),
        Err(WorldError::BadSize { .. })
    ));
    assert!(matches!(
        parse_size("axb"),
        Err(WorldError::MalformedSize(_))
    ));
}

#[test]
fn soup_is_deterministic_and_near_its_density() {
    let mut a = World::new(200, 100, Topology::Torus, Rule::CONWAY).unwrap();
    let mut b = a.clone();
    a.fill_random(30.0, 7).unwrap();
    b.fill_random(30.0, 7).unwrap();
    assert_eq!(a, b);
    let density = a.population() as f64 / a.len() as f64;
    assert!((0.28..0.32).contains(&density), "{density}");
    b.fill_random(30.0, 8).unwrap();
    assert_ne!(a.state_hash(), b.state_hash());
    assert!(a.fill_random(101.0, 1).is_err());
}

#[test]
fn edits_follow_the_age_rule() {
    let mut w = World::new(5, 5, Topology::Torus, Rule::CONWAY).unwrap();
    assert!(w.apply_edit(CellEdit {
        x: 1,
        y: 2,
        alive: true
    }));
    assert_eq!(w.age(1, 2), 1);
    w.ages_mut()[2 * 5 + 1] = 9;
    w.apply_edit(CellEdit {
        x: 1,
        y: 2,
        alive: true,
    });
    assert_eq!(w.age(1, 2), 9);
    w.apply_edit(CellEdit {
        x: 1,
        y: 2,
        alive: false,
    });
    assert_eq!(w.age(1, 2), 0);
    assert!(!w.apply_edit(CellEdit {
        x: 5,
        y: 0,
        alive: true
    }));
}

#[test]
fn resize_keeps_cells_centred() {
    let mut w = World::new(4, 4, Topology::Torus, Rule::CONWAY).unwrap();
    w.apply_edit(CellEdit {
        x: 1,
        y: 1,
        alive: true,
    });
    let big = w.resized(8, 6).unwrap();
    assert_eq!(big.population(), 1);
    assert!(big.is_alive(3, 2));
    let back = big.resized(4, 4).unwrap();
    assert_eq!(back, w);
}

#[test]
fn hash_sees_ages_and_size() {
    let mut w = World::new(4, 4, Topology::Torus, Rule::CONWAY).unwrap();
    let empty = w.state_hash();
    w.apply_edit(CellEdit {
        x: 0,
        y: 0,
        alive: true,
    });
    let one = w.state_hash();
    w.ages_mut()[0] = 2;
    assert_ne!(empty, one);
    assert_ne!(one, w.state_hash());
    let other = World::new(8, 3, Topology::Torus, Rule::CONWAY).unwrap();
    assert_ne!(empty, other.state_hash());
}
