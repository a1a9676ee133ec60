//! The compiled tree against the rule, and published behaviour.

use super::*;

/// Every state decodes and encodes back, and the tree gives what [`step`] gives on
/// random neighbourhoods.
#[test]
fn the_tree_is_the_rule() {
    for variant in [Variant::JvN29, Variant::Nobili32] {
        for s in 0..variant.states() as u8 {
            assert_eq!(Cell::decode(s).encode(), s);
        }
        let tree = tree(variant).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pick = |k: u32| ((x >> (8 * k)) % u64::from(variant.states())) as u8;
            let (c, n, w, e, s) = (pick(0), pick(1), pick(2), pick(3), pick(4));
            let cells = [0, n, 0, w, c, e, 0, s, 0];
            assert_eq!(tree.next(&cells), step(variant, c, [n, w, e, s]));
        }
    }
}

/// Published behaviour: an excited ordinary transmission line carries its signal one
/// cell a generation; a sensitised cell under a signal takes the "1" branch; special
/// excitation destroys an ordinary transmission state; a confluent delays by two.
#[test]
fn signals_move_build_and_destroy_as_published() {
    let v = Variant::JvN29;
    let east_quiet = 9;
    let east_excited = 13;
    // The quiescent cell east of an excited east-pointing one becomes excited.
    assert_eq!(step(v, east_quiet, [0, east_excited, 0, 0]), east_excited);
    // Without input it relaxes.
    assert_eq!(step(v, east_excited, [0, 0, 0, 0]), east_quiet);
    // U under excitation becomes S; S without becomes S0.
    assert_eq!(step(v, 0, [0, east_excited, 0, 0]), 1);
    assert_eq!(step(v, 1, [0, 0, 0, 0]), 2);
    // S000 without excitation becomes an ordinary east-pointing state.
    assert_eq!(step(v, 8, [0, 0, 0, 0]), east_quiet);
    // An excited special state pointing east kills an ordinary one.
    assert_eq!(step(v, east_quiet, [0, 21, 0, 0]), 0);
    // A confluent fed by an excited ordinary state emits two generations later.
    let c1 = step(v, 25, [0, east_excited, 0, 0]);
    let c2 = step(v, c1, [0, 0, 0, 0]);
    assert_eq!((c1, c2), (26, 27));
}
