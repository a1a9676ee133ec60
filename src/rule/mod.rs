//! Rules. [`Rule`]: the Life-like (outer-totalistic, Moore neighbourhood) rules every
//! stepper runs today, as two 9-bit masks: bit `n` of `birth` says a dead cell with `n` live
//! neighbours is born, bit `n` of `survive` says a live cell with `n` neighbours stays.
//! Every stepper (CPU and GPU) consumes the same masks, so rules are applied identically.
//!
//! [`RuleSpec`]: every family of issue #14 (isotropic non-totalistic Hensel rules, `MAP`,
//! hexagonal `H`, von Neumann `V`, Generations) as a 512-entry table over the 3×3
//! neighbourhood ([`spec`] documents the bit order), parsed from any notation Golly accepts
//! ([`parse`]) and printed in Golly's canonical form ([`canonical`]); [`circuit`] compiles a
//! table into straight-line bitwise code for the bitsliced CPU and bit-packed GPU kernels.

pub mod canonical;
pub mod circuit;
pub mod counts;
pub mod generations;
pub mod hensel;
pub mod map;
pub mod parse;
pub mod spec;
pub mod synth;

pub use circuit::Circuit;
pub use spec::{Family, Neighbourhood, Notation, RuleSpec, Symmetry};

use std::fmt;
use std::str::FromStr;

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
    /// A recognised but unsupported rule family (Generations, non-totalistic, hexagonal...).
    #[error(
        "rule '{rule}': {why}; golab runs two-state outer-totalistic Moore rules such as B3/S23 or B36/S23"
    )]
    Unsupported {
        /// The rule text as given.
        rule: String,
        /// What makes it unsupported.
        why: &'static str,
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
    /// Anything that does not parse as B/S or S/B notation.
    #[error(
        "rule '{rule}' is not in B/S notation (examples: B3/S23, b36/s23, 23/3, Life, HighLife)"
    )]
    Malformed {
        /// The rule text as given.
        rule: String,
    },
}

/// A two-state Life-like rule as birth and survival masks over neighbour counts 0..=8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rule {
    /// Bit n set: a dead cell with n live neighbours becomes alive.
    pub birth: u16,
    /// Bit n set: a live cell with n live neighbours stays alive.
    pub survive: u16,
}

/// Well-known outer-totalistic rules accepted by name (case-insensitive, spaces and '&'
/// ignored): the first entries of [`NAMED_SPECS`].
pub const NAMED_RULES: &[(&str, &str)] = NAMED_SPECS.split_at(TOTALISTIC_NAMES).0;

/// How many of [`NAMED_SPECS`] are two-state outer-totalistic Moore rules ([`Rule`]).
const TOTALISTIC_NAMES: usize = 12;

/// Names [`RuleSpec::parse`] accepts (case, spaces, `&`, `'`, `-`, `_` ignored): the
/// [`NAMED_RULES`] plus popular rules of the other families. Generations names and rules are
/// from Golly's help (Algorithms › Generations); Just Friends and tlife from LifeWiki.
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

impl Rule {
    /// Conway's Game of Life, B3/S23.
    pub const CONWAY: Rule = Rule {
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
    /// `neighbours + 9 * alive`. This is the form GPU shaders receive.
    #[inline]
    pub fn packed(self) -> u32 {
        u32::from(self.birth) | (u32::from(self.survive) << 9)
    }
}

impl Default for Rule {
    fn default() -> Self {
        Rule::CONWAY
    }
}

impl fmt::Display for Rule {
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

fn parse_counts(rule: &str, digits: &str) -> Result<u16, RuleError> {
    let mut mask = 0u16;
    for c in digits.chars() {
        match c.to_digit(10) {
            Some(d) if d <= 8 => mask |= 1 << d,
            Some(_) => {
                return Err(RuleError::CountOutOfRange {
                    rule: rule.to_string(),
                    digit: c,
                });
            }
            None if c.is_ascii_alphabetic() => {
                return Err(RuleError::Unsupported {
                    rule: rule.to_string(),
                    why: "letters after neighbour counts are isotropic non-totalistic (Hensel) notation",
                });
            }
            None => {
                return Err(RuleError::Malformed {
                    rule: rule.to_string(),
                });
            }
        }
    }
    Ok(mask)
}

impl FromStr for Rule {
    type Err = RuleError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(RuleError::Empty);
        }
        let squashed: String = trimmed
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '&' && *c != '-' && *c != '_')
            .collect();
        if let Some((_, bs)) = NAMED_RULES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(&squashed))
        {
            return bs.parse();
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower.ends_with('h') || lower.ends_with('v') {
            return Err(RuleError::Unsupported {
                rule: trimmed.to_string(),
                why: "a trailing H or V selects a hexagonal or von Neumann neighbourhood",
            });
        }
        if lower.starts_with('r') || lower.contains(",c") || lower.contains(",m") {
            return Err(RuleError::Unsupported {
                rule: trimmed.to_string(),
                why: "Larger than Life rules (R…,C…) use a wider neighbourhood",
            });
        }
        let parts: Vec<&str> = lower.split('/').map(str::trim).collect();
        let (birth, survive) = match parts.as_slice() {
            [a, b] if a.starts_with('b') && (b.starts_with('s') || b.is_empty()) => {
                (&a[1..], b.get(1..).unwrap_or(""))
            }
            [a, b] if a.starts_with('s') && b.starts_with('b') => (&b[1..], &a[1..]),
            [s, b] if !s.starts_with(['b', 's']) && !b.starts_with(['b', 's']) => (*b, *s),
            [_, _, _] => {
                return Err(RuleError::Unsupported {
                    rule: trimmed.to_string(),
                    why: "a third field is a Generations (multi-state) rule",
                });
            }
            [single] if single.starts_with('b') => match single.find('s') {
                Some(i) => (&single[1..i], &single[i + 1..]),
                None => (&single[1..], ""),
            },
            _ => {
                return Err(RuleError::Malformed {
                    rule: trimmed.to_string(),
                });
            }
        };
        Ok(Rule {
            birth: parse_counts(trimmed, birth)?,
            survive: parse_counts(trimmed, survive)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_notation_to_the_same_masks() {
        for text in [
            "B3/S23", "b3/s23", "23/3", "S23/B3", "B3S23", " Life ", "life",
        ] {
            assert_eq!(text.parse::<Rule>().unwrap(), Rule::CONWAY, "{text}");
        }
        let high: Rule = "HighLife".parse().unwrap();
        assert_eq!(high.to_string(), "B36/S23");
        assert_eq!("B2/S".parse::<Rule>().unwrap().survive, 0);
        assert_eq!(
            "Day & Night".parse::<Rule>().unwrap().to_string(),
            "B3678/S34678"
        );
    }

    #[test]
    fn display_round_trips() {
        for text in ["B3/S23", "B0/S8", "B12345678/S012345678", "B/S"] {
            let rule: Rule = text.parse().unwrap();
            assert_eq!(rule.to_string(), text);
            assert_eq!(rule.to_string().parse::<Rule>().unwrap(), rule);
        }
    }

    #[test]
    fn rejects_what_it_cannot_run_with_a_reason() {
        assert_eq!("".parse::<Rule>(), Err(RuleError::Empty));
        assert!(matches!(
            "B9/S23".parse::<Rule>(),
            Err(RuleError::CountOutOfRange { digit: '9', .. })
        ));
        assert!(matches!(
            "B2a/S12".parse::<Rule>(),
            Err(RuleError::Unsupported { .. })
        ));
        assert!(matches!(
            "23/3/3".parse::<Rule>(),
            Err(RuleError::Unsupported { .. })
        ));
        assert!(matches!(
            "B2/S34H".parse::<Rule>(),
            Err(RuleError::Unsupported { .. })
        ));
        assert!(matches!(
            "R2,C0,M1,S2..3,B3..3".parse::<Rule>(),
            Err(RuleError::Unsupported { .. })
        ));
        assert!(matches!(
            "hello".parse::<Rule>(),
            Err(RuleError::Malformed { .. })
        ));
        let message = "B9/S23".parse::<Rule>().unwrap_err().to_string();
        assert!(message.contains("0-8"), "{message}");
    }

    #[test]
    fn next_alive_follows_the_masks() {
        let life = Rule::CONWAY;
        assert!(life.next_alive(false, 3));
        assert!(!life.next_alive(false, 2));
        assert!(life.next_alive(true, 2));
        assert!(!life.next_alive(true, 4));
        assert_eq!(life.packed() >> 3 & 1, 1);
        assert_eq!(life.packed() >> (9 + 2) & 1, 1);
    }
}
