//! Golly's Super algorithm: states layered over any two-state rule QuickLife runs (B/S,
//! isotropic non-totalistic, hexagonal, von Neumann, `MAP`; not Wolfram), named by a
//! suffix — `<rule>History` (7 states: LifeHistory's envelope and marks), `<rule>Super`
//! (26: three trail colours, no-trail ON states, label states) and `<rule>Investigator`
//! (21: killers, eggs, eternal and period-2 states, catalysts, birth-only states).
//!
//! Written from the states' published definitions (Golly's help, Algorithms > Super) and
//! compiled to the same [`Tree`](super::Tree) every rule table runs as, so scalar, rayon,
//! gpu-resident and the hashed plane run them. As in Golly, a base rule with B0 runs as its
//! complement when it also has S8 (the rule's B0-free twin) and is refused otherwise, and
//! non-totalistic base rules must use the Moore neighbourhood.

mod build;
mod look;
mod next;
#[cfg(test)]
mod tests;

use super::tree::ORDER_8;
use super::{RuleTable, TableError};
use crate::rule::{Family, Neighbourhood, Notation, Rule, Symmetry};

/// Which of the Super algorithm's three families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `<rule>History`: 7 states.
    History,
    /// `<rule>Super`: 26 states.
    Super,
    /// `<rule>Investigator`: 21 states.
    Investigator,
}

impl Variant {
    const ALL: [Variant; 3] = [Variant::History, Variant::Super, Variant::Investigator];

    /// The rule-name suffix.
    pub fn suffix(self) -> &'static str {
        match self {
            Variant::History => "History",
            Variant::Super => "Super",
            Variant::Investigator => "Investigator",
        }
    }

    /// Number of states.
    pub fn states(self) -> u16 {
        match self {
            Variant::History => 7,
            Variant::Super => 26,
            Variant::Investigator => 21,
        }
    }

    /// The variant whose suffix ends `name` (ASCII case ignored), and the base rule's text.
    pub fn split(name: &str) -> Option<(Variant, &str)> {
        Variant::ALL.into_iter().find_map(|v| {
            let cut = name.len().checked_sub(v.suffix().len())?;
            let tail = name.get(cut..)?;
            tail.eq_ignore_ascii_case(v.suffix())
                .then(|| (v, &name[..cut]))
        })
    }
}

/// The two-state rule under the layers, as the 3×3 lookup the layers consult, and the
/// classes of partial neighbourhoods the tree builder keys its nodes by.
#[derive(Debug, Clone)]
pub(super) struct Base {
    /// Next state by 9-bit index (bit 4 the cell), after the B0 complement.
    alive: [bool; 512],
    /// The neighbourhood's cells in the index.
    mask: u16,
    /// By depth `d` (neighbours heard in [`ORDER_8`]'s order): the class of each pattern of
    /// the first `d` neighbours (bit `j` the `j`-th neighbour ON). Patterns of one class
    /// lead to the same next state whatever the rest of the neighbourhood, so a summary
    /// keeps the class, not the pattern: few classes remain near the tree's leaves.
    classes: Vec<Vec<u16>>,
    /// By depth: one pattern of each class.
    members: Vec<Vec<u16>>,
}

impl Base {
    /// The base of `rule`, or why Golly's Super algorithm refuses it.
    fn of(rule: &Rule) -> Result<Base, String> {
        if rule.family() != Family::TwoState {
            return Err("History, Super and Investigator layer a two-state rule (B/S, isotropic, hexagonal, von Neumann or MAP)".into());
        }
        if matches!(rule.notation(), Notation::Wolfram(_)) {
            return Err("Golly's Super algorithm does not take Wolfram rules".into());
        }
        if rule.symmetry() != Symmetry::Totalistic
            && rule.notation() != Notation::Map
            && rule.neighbourhood() != Neighbourhood::Moore
        {
            return Err(
                "non-totalistic rules need the Moore neighbourhood here, as in Golly".into(),
            );
        }
        let mut alive: [bool; 512] = std::array::from_fn(|i| rule.next_alive(i as u16));
        if alive[0] {
            if !alive[511] {
                return Err("a rule with B0 needs S8 (Smax) here, as in Golly".into());
            }
            // B0 with Smax runs as its complement: NOT of the reversed table.
            alive = std::array::from_fn(|i| !rule.next_alive(511 - i as u16));
        }
        let mut base = Base {
            alive,
            mask: rule.neighbourhood().mask(),
            classes: Vec::new(),
            members: Vec::new(),
        };
        base.classify();
        Ok(base)
    }

    /// Fill [`Self::classes`] and [`Self::members`]: two patterns of the first `d`
    /// neighbours share a class when every completion (and the cell ON or OFF) gives the
    /// same next state.
    fn classify(&mut self) {
        for depth in 0..=8usize {
            let rest = 8 - depth;
            let mut ids: std::collections::HashMap<[u64; 8], u16> = Default::default();
            let mut classes = Vec::with_capacity(1 << depth);
            let mut members = Vec::new();
            for pattern in 0..1u16 << depth {
                let mut outcome = [0u64; 8];
                for completion in 0..1u16 << rest {
                    for cell in 0..2u16 {
                        let full = pattern | completion << depth;
                        let bit = usize::from(completion << 1 | cell);
                        if self.alive[usize::from(self.index(full) | cell << 4)] {
                            outcome[bit / 64] |= 1 << (bit % 64);
                        }
                    }
                }
                let next = ids.len() as u16;
                let id = *ids.entry(outcome).or_insert(next);
                if id == next {
                    members.push(pattern);
                }
                classes.push(id);
            }
            self.classes.push(classes);
            self.members.push(members);
        }
    }

    /// The same base with every pattern its own class (tests compare the two).
    #[cfg(test)]
    fn unclassified(&self) -> Base {
        let identity = |d: usize| (0..1u16 << d).collect::<Vec<_>>();
        Base {
            classes: (0..=8).map(identity).collect(),
            members: (0..=8).map(identity).collect(),
            ..self.clone()
        }
    }

    /// The 3×3 index of a pattern of the 8 neighbours in [`ORDER_8`]'s order.
    fn index(&self, pattern: u16) -> u16 {
        (0..8)
            .filter(|j| pattern >> j & 1 == 1)
            .map(|j| 1u16 << (8 - ORDER_8[j]))
            .fold(0, |a, b| a | b)
            & self.mask
    }

    /// Whether 3×3 position `k` (row-major, the centre 4) is a neighbour.
    fn counts(&self, k: usize) -> bool {
        self.mask >> (8 - k) & 1 == 1
    }

    /// The class after hearing neighbour `depth` (ON or not) in class `class`.
    fn hear(&self, class: u16, depth: usize, on: bool) -> u16 {
        let pattern = self.members[depth][usize::from(class)] | u16::from(on) << depth;
        self.classes[depth + 1][usize::from(pattern)]
    }

    /// Whether the cell is ON next under the base rule, its 8 neighbours in `class`.
    fn next_alive(&self, class: u16, alive: bool) -> bool {
        let index = self.index(self.members[8][usize::from(class)]);
        self.alive[usize::from(index | u16::from(alive) << 4)]
    }
}

/// The canonical name: Golly's `Life` for B3/S23 on the Moore neighbourhood, else the base
/// rule's canonical form, then the suffix.
pub fn canonical_name(variant: Variant, base: &Rule) -> String {
    let text = if *base == Rule::CONWAY {
        "Life".to_string()
    } else {
        base.canonical()
    };
    format!("{text}{}", variant.suffix())
}

/// The rule table of `variant` over `base`: its tree, state names and colours.
pub fn table(variant: Variant, base: &Rule) -> Result<RuleTable, String> {
    let layers = Base::of(base)?;
    let tree = build::tree(variant, &layers).map_err(|e| e.message)?;
    let neighbourhood = match base.neighbourhood() {
        Neighbourhood::Moore => "Moore",
        Neighbourhood::Hexagonal => "hexagonal",
        Neighbourhood::VonNeumann => "von Neumann",
    };
    Ok(RuleTable {
        name: canonical_name(variant, base),
        description: look::description(variant, base),
        tree,
        colors: look::colours(variant),
        names: look::names(variant),
        source: format!(
            "built in: {} states over {}, {neighbourhood} neighbourhood",
            variant.states(),
            base.canonical()
        ),
    })
}

/// The rule `name` names (`LifeHistory`, `B36/S23Super`, `MAP…Investigator`), compiled and
/// registered the first time; `None` when the name has none of the three suffixes.
pub fn rule(name: &str) -> Option<Result<Rule, TableError>> {
    let (variant, base_text) = Variant::split(name.trim())?;
    let base_text = base_text.trim();
    let base = if base_text.eq_ignore_ascii_case("life") {
        Ok(Rule::CONWAY)
    } else if base_text.is_empty() {
        Err("the base rule is missing".to_string())
    } else {
        Rule::parse(base_text).map_err(|e| e.to_string())
    };
    let refuse = |why: String| TableError::at(0, 0, why);
    Some(base.map_err(refuse).and_then(|base| {
        let canonical = canonical_name(variant, &base);
        let built_in = |id: &super::TableId| super::get(*id).source.starts_with("built in");
        let id = match super::by_name(&canonical).filter(built_in) {
            Some(id) => id,
            None => super::intern(table(variant, &base).map_err(refuse)?),
        };
        Ok(Rule::from_rule_table(id))
    }))
}
