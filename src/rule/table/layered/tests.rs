use super::next::{Heard, next};
use super::{Base, Variant};
use crate::rule::Rule;
use crate::rule::table::tree::{ORDER_8, Tree};

/// The next state straight from the summary, without the tree or the pattern classes.
fn direct(variant: Variant, base: &Base, cells: &[u8; 9]) -> u8 {
    let base = &base.unclassified();
    let heard = (0..8).fold(Heard::default(), |h, depth| {
        h.hear(variant, base, depth, cells[ORDER_8[depth]])
    });
    next(variant, base, cells[4], heard)
}

fn tree_of(name: &str) -> (std::sync::Arc<super::RuleTable>, Tree) {
    let rule = Rule::parse(name).unwrap();
    let table = rule.rule_table().unwrap();
    let tree = table.tree.clone();
    (table, tree)
}

/// A tiny deterministic generator (xorshift) for random neighbourhoods.
fn random_cells(seed: &mut u64, states: u16) -> [u8; 9] {
    std::array::from_fn(|_| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        // Mostly low states, so births and deaths happen, some of every state.
        let r = (*seed >> 20) as u16;
        if r.is_multiple_of(3) {
            (r / 3 % states) as u8
        } else {
            (r % 2) as u8
        }
    })
}

#[test]
fn the_tree_gives_what_the_states_definitions_give() {
    for (name, base) in [
        ("LifeHistory", "B3/S23"),
        ("B36/S23Super", "B36/S23"),
        ("B2-a/S12Super", "B2-a/S12"),
        ("LifeInvestigator", "B3/S23"),
        ("B2/S34HHistory", "B2/S34H"),
        ("B2/S013VInvestigator", "B2/S013V"),
    ] {
        let (table, tree) = tree_of(name);
        let variant = Variant::split(name).unwrap().0;
        let base = Base::of(&Rule::parse(base).unwrap()).unwrap();
        assert_eq!(tree.states(), variant.states(), "{name}");
        let mut seed = 0x9e3779b97f4a7c15;
        for _ in 0..20_000 {
            let cells = random_cells(&mut seed, variant.states());
            assert_eq!(
                tree.next(&cells),
                direct(variant, &base, &cells),
                "{name} {cells:?}"
            );
        }
        assert_eq!(table.names.len(), usize::from(variant.states()));
    }
}

/// A 3×3 neighbourhood from rows of state digits (north row first).
fn hood(rows: [&str; 3]) -> [u8; 9] {
    let mut cells = [0u8; 9];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.split(',').enumerate() {
            cells[3 * r + c] = ch.trim().parse().unwrap();
        }
    }
    cells
}

#[test]
fn published_behaviour_of_each_state() {
    // Golly's help, Algorithms > Super.
    let (_, history) = tree_of("LifeHistory");
    // A birth on history (2) is an ordinary ON cell; on marked OFF (4) a marked ON (3).
    assert_eq!(history.next(&hood(["1,1,1", "0,2,0", "0,0,0"])), 1);
    assert_eq!(history.next(&hood(["1,1,1", "0,4,0", "0,0,0"])), 3);
    // ON cells that die leave history; marked and start ON leave marked OFF.
    assert_eq!(history.next(&hood(["0,0,0", "0,1,0", "0,0,0"])), 2);
    assert_eq!(history.next(&hood(["0,0,0", "0,3,0", "0,0,0"])), 4);
    assert_eq!(history.next(&hood(["0,0,0", "0,5,0", "0,0,0"])), 4);
    // Odd states count as ON neighbours: a block of 1, 3 and 5 survives.
    assert_eq!(history.next(&hood(["0,0,0", "0,1,3", "0,5,1"])), 1);
    // The boundary (6) never turns on, and turns an ON neighbour off.
    assert_eq!(history.next(&hood(["1,1,1", "0,6,0", "0,0,0"])), 6);
    assert_eq!(history.next(&hood(["6,0,0", "0,1,1", "0,1,1"])), 2);

    let (_, sup) = tree_of("LifeSuper");
    // Births take their parents' trail or no-trail state when the parents agree…
    assert_eq!(sup.next(&hood(["9,9,9", "0,0,0", "0,0,0"])), 9);
    assert_eq!(sup.next(&hood(["17,17,17", "0,0,0", "0,0,0"])), 17);
    // …and fall back to 1 (trail) or 13 (no trail) when they do not.
    assert_eq!(sup.next(&hood(["9,11,1", "0,0,0", "0,0,0"])), 1);
    assert_eq!(sup.next(&hood(["15,17,19", "0,0,0", "0,0,0"])), 13);
    // Trail states leave their own trail; no-trail states leave nothing.
    assert_eq!(sup.next(&hood(["0,0,0", "0,9,0", "0,0,0"])), 10);
    assert_eq!(sup.next(&hood(["0,0,0", "0,11,0", "0,0,0"])), 12);
    assert_eq!(sup.next(&hood(["0,0,0", "0,13,0", "0,0,0"])), 0);
    // Label states: 14 vanishes, 16 decays to 14 when touched, 18 → 22 → 20 → 18 cycle.
    assert_eq!(sup.next(&hood(["0,0,0", "0,14,0", "0,0,0"])), 0);
    assert_eq!(sup.next(&hood(["1,0,0", "0,16,0", "0,0,0"])), 14);
    assert_eq!(sup.next(&hood(["22,0,0", "0,18,0", "0,0,0"])), 22);
    assert_eq!(sup.next(&hood(["18,0,0", "0,20,0", "0,0,0"])), 18);
    assert_eq!(sup.next(&hood(["0,0,0", "0,18,0", "0,0,0"])), 18);
    // The hidden label (24) shows as 18 when an ON cell touches it.
    assert_eq!(sup.next(&hood(["0,0,1", "0,24,0", "0,0,0"])), 18);

    let (_, inv) = tree_of("LifeInvestigator");
    // Eternal, killer and egg states never change; the period-2 states toggle.
    for (c, n) in [
        (2, 2),
        (4, 4),
        (5, 5),
        (8, 8),
        (14, 14),
        (6, 7),
        (7, 6),
        (10, 11),
        (19, 20),
    ] {
        assert_eq!(inv.next(&hood(["1,1,1", &format!("0,{c},0"), "0,0,0"])), n);
    }
    // A killer turns an adjacent ON cell off; an egg turns an adjacent OFF cell on.
    assert_eq!(inv.next(&hood(["3,0,0", "1,1,0", "1,0,0"])), 0);
    assert_eq!(inv.next(&hood(["9,0,0", "0,0,0", "0,0,0"])), 1);
    // A catalyst counts as ON but a birth needs a state-1 parent.
    assert_eq!(inv.next(&hood(["15,15,15", "0,0,0", "0,0,0"])), 0);
    assert_eq!(inv.next(&hood(["15,15,1", "0,0,0", "0,0,0"])), 1);
    // "ON for births" (17) counts for a birth but not for survival.
    assert_eq!(inv.next(&hood(["17,17,17", "0,0,0", "0,0,0"])), 1);
    assert_eq!(inv.next(&hood(["17,17,0", "0,1,0", "0,0,0"])), 0);
}

#[test]
fn names_suffixes_and_refusals() {
    for (text, canonical, states) in [
        ("LifeHistory", "LifeHistory", 7),
        ("lifehistory", "LifeHistory", 7),
        ("B3/S23Super", "LifeSuper", 26),
        ("B36/S23History", "B36/S23History", 7),
        ("LifeInvestigator", "LifeInvestigator", 21),
    ] {
        let rule = Rule::parse(text).unwrap();
        assert_eq!(
            (rule.to_string().as_str(), rule.states()),
            (canonical, states),
            "{text}"
        );
    }
    // B0 needs S8 (then the complement runs); Generations and non-Moore isotropic refused.
    assert!(Rule::parse("B0123478/S01234678History").is_ok());
    for bad in [
        "B013/S23History",
        "/2/3Super",
        "B2a/S12HHistory",
        "History",
        "W30Super",
    ] {
        let error = Rule::parse(bad).unwrap_err().to_string();
        assert!(!error.is_empty(), "{bad}");
    }
    assert!(
        Rule::parse("B013/S23History")
            .unwrap_err()
            .to_string()
            .contains("B0")
    );
}
