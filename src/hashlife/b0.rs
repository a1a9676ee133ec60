//! Rules with B0 on the unbounded plane, emulated as Golly emulates them (liferules.cpp's
//! `saveRule`): with B0 every empty cell of an infinite plane is born, so the universe stores
//! a pattern that stays finite and says how it maps to the true one.
//!
//! - **B0 without S8** (an empty plane turns full, then empty again): at even generations
//!   the stored cells are the true ones, at odd generations their complement. From an even
//!   generation the next one is `NOT R(x)`; from an odd one it is `R(NOT x)` — two rules
//!   without B0, applied alternately. Golly shows (and counts) the stored cells, so at odd
//!   generations its display and population are the complement's; golab's are the same.
//! - **B0 with S8** (an empty plane turns full and stays full): every generation stores
//!   the complement and steps `NOT R(NOT x)`, one rule without B0.
//!
//! `x` is a 3×3 neighbourhood index (the MAP numbering of [`Rule::table`]); `NOT x` flips
//! all nine cells, index `511 − x`.

use crate::rule::Rule;

/// How a rule runs on the plane.
#[derive(Debug, Clone, PartialEq)]
pub enum Emulation {
    /// No B0: the rule itself.
    Plain(Rule),
    /// B0 with S8: the complement rule, every generation.
    Complement(Rule),
    /// B0 without S8: `even` steps from an even generation, `odd` from an odd one.
    Alternating {
        /// `NOT R(x)`.
        even: Rule,
        /// `R(NOT x)`.
        odd: Rule,
    },
}

impl Emulation {
    /// How `rule` (two-state) runs on the plane.
    pub fn of(rule: &Rule) -> Emulation {
        let r = |i: u16| rule.next_alive(i);
        if !r(0) {
            return Emulation::Plain(*rule);
        }
        if r(511) {
            Emulation::Complement(derive(rule, |i| !r(511 - i)))
        } else {
            Emulation::Alternating {
                even: derive(rule, |i| !r(i)),
                odd: derive(rule, |i| r(511 - i)),
            }
        }
    }

    /// Whether the rule stepped depends on the generation's parity.
    pub fn alternates(&self) -> bool {
        matches!(self, Emulation::Alternating { .. })
    }

    /// The rules a step from a generation of parity `odd` applies: the first generation's,
    /// then the second's (the same rule when it does not alternate).
    pub fn from_parity(&self, odd: bool) -> (Rule, Rule) {
        match self {
            Emulation::Plain(r) | Emulation::Complement(r) => (*r, *r),
            Emulation::Alternating { even, odd: o } if odd => (*o, *even),
            Emulation::Alternating { even, odd: o } => (*even, *o),
        }
    }
}

/// A two-state rule of `like`'s neighbourhood whose entry `i` is `alive(i)`.
fn derive(like: &Rule, alive: impl Fn(u16) -> bool) -> Rule {
    let mut table = [0u64; 8];
    for i in 0..512u16 {
        if alive(i) {
            table[usize::from(i / 64)] |= 1 << (i % 64);
        }
    }
    Rule::from_table(
        crate::rule::Family::TwoState,
        like.neighbourhood(),
        like.notation(),
        2,
        table,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_with_b0_become_rules_without_it() {
        let plain: Rule = "B3/S23".parse().unwrap();
        assert_eq!(Emulation::of(&plain), Emulation::Plain(plain));
        // B0124/S025 (mortality): no S8, so two alternating rules, neither with B0.
        let mortality: Rule = "B0124/S025".parse().unwrap();
        let e = Emulation::of(&mortality);
        assert!(e.alternates());
        for odd in [false, true] {
            let (first, second) = e.from_parity(odd);
            assert!(
                !first.next_alive(0) && !second.next_alive(0),
                "{first} {second}"
            );
        }
        // Even then odd is the rule twice: NOT R(x), then R(NOT y) of that.
        let (a, b) = e.from_parity(false);
        assert_eq!(
            a.next_alive(0b000_010_000),
            !mortality.next_alive(0b000_010_000)
        );
        assert_eq!(b.next_alive(0), mortality.next_alive(511));
        // B0 with S8: one complement rule without B0.
        let s8: Rule = "B0123478/S01234678".parse().unwrap();
        match Emulation::of(&s8) {
            Emulation::Complement(c) => assert!(!c.next_alive(0)),
            other => panic!("{other:?}"),
        }
    }
}
