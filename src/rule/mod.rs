//! Rules. [`Rule`]: the Life-like (outer-totalistic, Moore neighbourhood) rules every
//! stepper runs today, as two 9-bit masks: bit `n` of `birth` says a dead cell with `n` live
//! neighbours is born, bit `n` of `survive` says a live cell with `n` neighbours stays.
//! Every stepper (CPU and GPU) consumes the same masks, so rules are applied identically.
//!
//! [`Rule`]: every family of issue #14 (isotropic non-totalistic Hensel rules, `MAP`,
//! hexagonal `H`, von Neumann `V`, Generations) as a 512-entry table over the 3×3
//! neighbourhood ([`spec`] documents the bit order), parsed from any notation Golly accepts
//! ([`parse`]) and printed in Golly's canonical form ([`canonical`]); [`circuit`] compiles a
//! table into straight-line bitwise code for the bitsliced CPU and bit-packed GPU kernels.

pub mod canonical;
pub mod cell_rule;
pub mod circuit;
pub mod counts;
pub mod generations;
pub mod hensel;
pub mod ltl;
pub mod map;
pub mod parse;
pub mod registry;
pub mod spec;
pub mod synth;
pub mod table;

pub use circuit::Circuit;
pub use spec::{Family, Neighbourhood, Notation, Rule, Symmetry};

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Why a rule string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The string was empty or only whitespace.
    #[error("empty rule: write it as B3/S23 (birth/survival) or 23/3 (survival/birth)")]
    Empty,
    /// A neighbour count outside 0..=8 appeared.
    #[error(
        "rule '{rule}': neighbour count '{digit}' is out of range (a Moore neighbourhood has 0-8 neighbours)"
    )]
    CountOutOfRange {
        /// The rule text as given.
        rule: String,
        /// The offending character.
        digit: char,
    },
    /// A family golab recognises but cannot run (Larger than Life, Margolus, @RULE tables,
    /// History/Super, Wolfram, bounded-grid suffixes): what it is and why.
    #[error("rule '{rule}': {family} rules are not supported: {why}")]
    Refused {
        /// The rule text as given.
        rule: String,
        /// The family, as Golly and LifeWiki name it.
        family: &'static str,
        /// Why golab cannot run it.
        why: String,
    },
    /// Text that breaks Golly's grammar for a family golab does run, with the reason.
    #[error("rule '{rule}': {why}")]
    Invalid {
        /// The rule text as given.
        rule: String,
        /// What is wrong.
        why: String,
    },
    /// A name that is no rule golab knows and no rule file it found (Golly's "Unknown rule").
    #[error(
        "unknown rule '{rule}': not a notation golab reads, and no {rule}.rule in {folders} (the window's Preferences → Folders names your rules folder and Golly's; `--rules DIR` on the command line)"
    )]
    Unknown {
        /// The rule text as given.
        rule: String,
        /// The folders searched, in order.
        folders: String,
    },
    /// Anything that does not parse as B/S or S/B notation.
    #[error(
        "rule '{rule}' is not in B/S notation (examples: B3/S23, b36/s23, 23/3, Life, HighLife)"
    )]
    Malformed {
        /// The rule text as given.
        rule: String,
    },
}

/// An outer-totalistic Moore rule as birth and survival masks over neighbour counts 0..=8:
/// the fast path of the steppers whose kernels count neighbours (a [`Rule`] that is one
/// says so through [`Rule::as_totalistic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Totalistic {
    /// Bit n set: a dead cell with n live neighbours becomes alive.
    pub birth: u16,
    /// Bit n set: a live cell with n live neighbours stays alive.
    pub survive: u16,
}

/// Names [`Rule::parse`] accepts (case, spaces, `&`, `'`, `-`, `_` ignored), popular rules
/// of every family golab runs, as the app's named-rules list shows them. Generations names
/// and rules are from Golly's help (Algorithms › Generations); Just Friends and tlife
/// from LifeWiki.
pub const NAMED_SPECS: &[(&str, &str)] = &[
    ("Life", "B3/S23"),
    ("HighLife", "B36/S23"),
    ("Seeds", "B2/S"),
    ("DayNight", "B3678/S34678"),
    ("LifeWithoutDeath", "B3/S012345678"),
    ("Maze", "B3/S12345"),
    ("Replicator", "B1357/S1357"),
    ("2x2", "B36/S125"),
    ("Morley", "B368/S245"),
    ("DryLife", "B37/S23"),
    ("Diamoeba", "B35678/S5678"),
    ("Anneal", "B4678/S35678"),
    ("Just Friends", "B2-a/S12"),
    ("tlife", "B3/S2-i34q"),
    ("Brian's Brain", "/2/3"),
    ("Star Wars", "345/2/4"),
    ("Banners", "2367/3457/5"),
    ("Bloomerang", "234/34678/24"),
    ("Caterpillars", "124567/378/4"),
    ("Cooties", "23/2/8"),
    ("Fireworks", "2/13/21"),
    ("Frogs", "12/34/3"),
    ("Lava", "12345/45678/8"),
    ("Lines", "012345/458/3"),
    ("Sticks", "3456/2/6"),
    ("Transers", "345/26/5"),
    ("Xtasy", "1456/2356/16"),
];

impl Totalistic {
    /// Conway's Game of Life, B3/S23.
    pub const CONWAY: Totalistic = Totalistic {
        birth: 1 << 3,
        survive: (1 << 2) | (1 << 3),
    };

    /// Whether a cell in state `alive` with `neighbours` live neighbours is alive next.
    #[inline]
    pub fn next_alive(self, alive: bool, neighbours: u32) -> bool {
        let mask = if alive { self.survive } else { self.birth };
        (mask >> neighbours) & 1 == 1
    }

    /// Both masks in one word: bits 0..9 birth, bits 9..18 survival; indexed by
    /// `neighbours + 9 * alive`.
    #[inline]
    pub fn packed(self) -> u32 {
        u32::from(self.birth) | (u32::from(self.survive) << 9)
    }
}

impl fmt::Display for Totalistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = |mask: u16| -> String {
            (0..=8)
                .filter(|n| mask >> n & 1 == 1)
                .map(|n| char::from(b'0' + n as u8))
                .collect()
        };
        write!(f, "B{}/S{}", digits(self.birth), digits(self.survive))
    }
}

impl Default for Rule {
    fn default() -> Self {
        Rule::CONWAY
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.canonical())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Rule::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conway_constant_is_the_parsed_rule() {
        assert_eq!(Rule::parse("B3/S23").unwrap(), Rule::CONWAY);
        assert_eq!(Rule::CONWAY.as_totalistic(), Some(Totalistic::CONWAY));
        assert_eq!(Rule::default().to_string(), "B3/S23");
    }

    #[test]
    fn serialises_as_its_canonical_text() {
        let rule = Rule::parse("b2-a/s12").unwrap();
        let json = serde_json::to_string(&rule).unwrap();
        assert_eq!(json, "\"B2-a/S12\"");
        assert_eq!(serde_json::from_str::<Rule>(&json).unwrap(), rule);
        assert!(serde_json::from_str::<Rule>("\"B9/S\"").is_err());
    }

    #[test]
    fn totalistic_masks_follow_the_counts() {
        let life = Totalistic::CONWAY;
        assert!(life.next_alive(false, 3));
        assert!(!life.next_alive(false, 2));
        assert!(life.next_alive(true, 2));
        assert!(!life.next_alive(true, 4));
        assert_eq!(life.packed() >> 3 & 1, 1);
        assert_eq!(life.packed() >> (9 + 2) & 1, 1);
        assert_eq!(life.to_string(), "B3/S23");
    }
}
