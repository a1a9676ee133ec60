//! One conformance suite for the one interface: the same random script of operations —
//! edits in any state, steps, kept states restored (undo, Reset), rule changes across
//! engines and state counts (two-state ↔ rule table ↔ Generations ↔ Super's History), save
//! and reopen — run through `dyn Universe` on both implementations, the unbounded grid and
//! the hashed universe, compared cell for cell after every operation.

mod common;

use golab::hashlife::load;
use golab::rule::Rule;
use golab::sim::Simulation;
use golab::step::{StepperFactory, Strategy};
use golab::universe::{GridUniverse, HashedUniverse, Kept, Universe, convert};
use golab::world::{Topology, World};

/// xorshift64*: the script's dice.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }
}

/// Rules both implementations run unbounded, of every kind the engines split on.
const RULES: [&str; 6] = [
    "B3/S23",
    "B36/S23",
    "WireWorld",
    "/2/3",
    "LifeHistory",
    "B2-a/S12",
];

/// The unbounded grid and the hashed universe, both empty under `rule`.
fn both(rule: Rule, strategy: Strategy) -> [Box<dyn Universe>; 2] {
    let mut world = World::new(64, 64, Topology::DeadBorder, rule).unwrap();
    world.grows = true;
    let sim = Simulation::new(StepperFactory::cpu_only(), world, strategy).unwrap();
    let grid: Box<dyn Universe> = Box::new(GridUniverse::new(sim));
    let hashed: Box<dyn Universe> = Box::new(HashedUniverse::empty(rule, 256 << 20).unwrap());
    [grid, hashed]
}

/// Everything the interface says of a universe's cells: generation, population, bounds and
/// every state, row by row.
type Seen = (
    u128,
    u128,
    Option<golab::universe::Rect>,
    Vec<(i128, i128, u8)>,
);

/// [`Seen`] of `u`.
fn seen(u: &mut dyn Universe) -> Seen {
    let mut cells = convert::all_states(u).unwrap();
    cells.sort_unstable_by_key(|&(x, y, _)| (y, x));
    (
        u.generation(),
        u.population().unwrap(),
        u.bounds().unwrap(),
        cells,
    )
}

fn assert_agree(us: &mut [Box<dyn Universe>; 2], context: &str) {
    let [a, b] = us;
    let (sa, sb) = (seen(a.as_mut()), seen(b.as_mut()));
    assert_eq!(
        sa,
        sb,
        "{context}: {} and {} differ",
        a.describe(),
        b.describe()
    );
}

/// Random cells in states the rule has, around the origin.
fn edits(dice: &mut Dice, rule: &Rule) -> Vec<(i128, i128, u8)> {
    let states = u64::from(rule.states().max(2));
    (0..1 + dice.roll(40))
        .map(|_| {
            let x = dice.roll(48) as i128 - 24;
            let y = dice.roll(48) as i128 - 24;
            (x, y, dice.roll(states) as u8)
        })
        .collect()
}

fn run_script(seed: u64, ops: usize, strategy: Strategy) {
    let mut dice = Dice(seed | 1);
    let mut rule: Rule = "B3/S23".parse().unwrap();
    let mut us = both(rule, strategy);
    // Kept states, one per universe, in step.
    let mut kept: Vec<[Kept; 2]> = Vec::new();
    let dir = std::env::temp_dir().join(format!("golab-conformance-{seed}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for op in 0..ops {
        let context = format!("seed {seed}, op {op}, {rule}");
        match dice.roll(10) {
            0..=2 => {
                let cells = edits(&mut dice, &rule);
                for u in us.iter_mut() {
                    u.set_states(&cells).unwrap();
                }
            }
            3..=4 => {
                let n = 1 + u128::from(dice.roll(40));
                for u in us.iter_mut() {
                    assert_eq!(u.step(n, &|| false).unwrap(), n, "{context}");
                }
            }
            5 => {
                let pair = [us[0].keep().unwrap(), us[1].keep().unwrap()];
                kept.push(pair);
            }
            6 if !kept.is_empty() => {
                // Undo or Reset: back to a kept state (it stays kept).
                let i = dice.roll(kept.len() as u64) as usize;
                for (u, k) in us.iter_mut().zip(kept[i].iter()) {
                    u.restore(k).unwrap();
                }
                assert_eq!(us[0].generation(), kept[i][0].generation(), "{context}");
            }
            7 => {
                let next: Rule = RULES[dice.roll(RULES.len() as u64) as usize]
                    .parse()
                    .unwrap();
                for u in us.iter_mut() {
                    u.set_rule(next)
                        .unwrap_or_else(|e| panic!("{context} → {next}: {e}"));
                }
                rule = next;
            }
            8 => {
                // Save with one, reopen in the other kind, compare with both.
                let which = dice.roll(2) as usize;
                let ext = if dice.roll(2) == 0 { "rle" } else { "mc" };
                let path = dir.join(format!("saved-{op}.{ext}"));
                us[which].save(&path, &Default::default()).unwrap();
                let (reopened, _) = load::open(path.to_str().unwrap(), None, 64 << 20).unwrap();
                let mut reopened = HashedUniverse::new(reopened);
                let mut want = seen(us[1 - which].as_mut());
                let mut got = seen(&mut reopened);
                // Files keep cells and generation; populations follow from them.
                want.2 = None;
                got.2 = None;
                assert_eq!(got.3, want.3, "{context}: reopened {ext}");
            }
            _ => {
                let cells = edits(&mut dice, &rule);
                let cleared: Vec<_> = cells.iter().map(|&(x, y, _)| (x, y, 0)).collect();
                for u in us.iter_mut() {
                    u.set_states(&cleared).unwrap();
                }
            }
        }
        assert_agree(&mut us, &context);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn both_implementations_agree_through_the_interface_on_random_scripts() {
    for seed in 1..=6 {
        run_script(seed, 60, Strategy::Rayon);
    }
}

#[test]
fn kept_states_survive_rule_changes_across_engines() {
    // A two-state pattern kept, moved to a rule table (the hashed universe changes engine:
    // its kept roots must move with it) and to Generations, then restored: both agree.
    let mut rule: Rule = "B3/S23".parse().unwrap();
    let mut us = both(rule, Strategy::Scalar);
    let r = [(1, 0, 1), (2, 0, 1), (0, 1, 1), (1, 1, 1), (1, 2, 1)];
    for u in us.iter_mut() {
        u.set_states(&r).unwrap();
        u.step(30, &|| false).unwrap();
    }
    let kept = [us[0].keep().unwrap(), us[1].keep().unwrap()];
    for next in ["WireWorld", "/2/3", "B3/S23"] {
        rule = next.parse().unwrap();
        for u in us.iter_mut() {
            u.set_rule(rule).unwrap();
            u.step(7, &|| false).unwrap();
        }
        assert_agree(&mut us, next);
    }
    for (u, k) in us.iter_mut().zip(kept.iter()) {
        u.restore(k).unwrap();
    }
    assert_agree(&mut us, "restored after three engine changes");
    assert_eq!(us[1].generation(), 30);
}

#[test]
fn a_rule_with_fewer_states_clears_the_states_it_lacks_in_both() {
    // Super's states (up to 25) under WireWorld (4): states 4 and up become 0, in the live
    // pattern and in what was kept; the rule tree never reads past its node.
    let sup: Rule = "LifeSuper".parse().unwrap();
    let mut us = both(sup, Strategy::Scalar);
    let cells: Vec<_> = (0..25u8).map(|s| (i128::from(s) * 2, 0, s)).collect();
    for u in us.iter_mut() {
        u.set_states(&cells).unwrap();
    }
    let kept = [us[0].keep().unwrap(), us[1].keep().unwrap()];
    let ww: Rule = "WireWorld".parse().unwrap();
    for u in us.iter_mut() {
        u.set_rule(ww).unwrap();
        let states = convert::all_states(u.as_mut()).unwrap();
        assert!(
            states.iter().all(|&(_, _, s)| s < 4),
            "{}: {states:?}",
            u.describe()
        );
        u.step(5, &|| false).unwrap();
    }
    assert_agree(&mut us, "WireWorld after Super");
    for (u, k) in us.iter_mut().zip(kept.iter()) {
        u.restore(k).unwrap();
        let states = convert::all_states(u.as_mut()).unwrap();
        assert!(
            states.iter().all(|&(_, _, s)| s < 4),
            "{}: a kept state restored under WireWorld has no state it lacks",
            u.describe()
        );
    }
}
