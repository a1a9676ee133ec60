//! von Neumann's 29-state self-reproducing automaton (`JvN29`), Renato Nobili's 32-state
//! extension with crossing states (`Nobili32`) and Tim Hutton's write-and-retract variant
//! of it (`Hutton32`, in [`hutton`]), built in as Golly has them (its JvN algorithm),
//! compiled to the same [`Tree`] every rule table runs as: so every strategy
//! that runs rule tables (scalar, rayon, gpu-resident, the hashed plane) runs them.
//!
//! The states, in Golly's numbering: 0 the ground state U; 1–8 the sensitised states of the
//! construction path (S, S0, S1, S00, S01, S10, S11, S000); 9–16 ordinary transmission
//! states pointing east, north, west, south (quiescent 9–12, excited 13–16); 17–24 special
//! transmission states in the same order; 25–28 confluent states (C00, C10 excitation
//! arrived, C01 emitting, C11 both); Nobili32 adds 29–31, confluents acting as a crossing
//! that carries excitation east–west, north–south, or both.
//!
//! One generation, from the published rules: a transmission state is excited when an excited
//! transmission state points at it (not head to head) or a neighbouring confluent emits
//! (unless the transmission state points into it); an ordinary one is destroyed (back to U)
//! by an excited special one pointing at it and vice versa. A confluent state passes the
//! excitation of its ordinary inputs on after two generations when every ordinary input is
//! excited (an AND gate), is destroyed by special excitation, and in Nobili32 holds its state
//! when nothing leaves it and becomes a crossing when it has inputs and outputs on both
//! axes. U and the sensitised states walk the construction tree: excitation from any
//! transmission state pointing at the cell takes the "1" branch, none the "0" branch, and
//! the tree's leaves are the nine constructible states. Where von Neumann's text leaves
//! confluent behaviour open, Golly's simulator decides; tests/rule_tables.rs holds golab to
//! bgolly on Golly's JvN collection.

use super::{RuleTable, TableError};

mod build;
mod hutton;
mod look;
use build::tree;
use look::{colour, state_name};

/// Which of Golly's JvN rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// von Neumann's 29 states.
    JvN29,
    /// Nobili's 32 states (crossing confluents, confluents that hold).
    Nobili32,
    /// Hutton's rule on Nobili's 32 states (a single wire writes and retracts; cells are
    /// built turned relative to the arrow that writes them).
    Hutton32,
}

impl Variant {
    /// The variant a rule name stands for, Golly's old names included.
    pub fn from_name(name: &str) -> Option<Variant> {
        match name.trim().to_ascii_lowercase().as_str() {
            "jvn29" | "jvn-29" => Some(Variant::JvN29),
            "nobili32" | "jvn-32" => Some(Variant::Nobili32),
            "hutton32" | "modjvn-32" => Some(Variant::Hutton32),
            _ => None,
        }
    }

    /// Golly's canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::JvN29 => "JvN29",
            Variant::Nobili32 => "Nobili32",
            Variant::Hutton32 => "Hutton32",
        }
    }

    fn states(self) -> u16 {
        match self {
            Variant::JvN29 => 29,
            Variant::Nobili32 | Variant::Hutton32 => 32,
        }
    }
}

/// Directions, numbered as Golly's state order runs: east, north, west, south.
const EAST: u8 = 0;
const NORTH: u8 = 1;
const WEST: u8 = 2;
const SOUTH: u8 = 3;

/// The opposite of direction `d`.
fn opposite(d: u8) -> u8 {
    d ^ 2
}

/// Whether direction `d` runs north–south.
fn vertical(d: u8) -> bool {
    d & 1 == 1
}

/// A cell's state, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    /// U (0) or a sensitised state (1–8): its place on the construction tree.
    Path(u8),
    /// A transmission state: special or ordinary, where it points, whether it is excited.
    Transmission {
        special: bool,
        dir: u8,
        excited: bool,
    },
    /// A confluent state: `arrived`, excitation received last generation; `emitting`,
    /// excitation sent this generation.
    Confluent { arrived: bool, emitting: bool },
    /// A Nobili crossing: carrying excitation east–west, north–south.
    Crossing { ew: bool, ns: bool },
}

impl Cell {
    fn decode(state: u8) -> Cell {
        match state {
            0..=8 => Cell::Path(state),
            9..=24 => {
                let k = state - 9;
                Cell::Transmission {
                    special: k >= 8,
                    excited: k % 8 >= 4,
                    dir: k % 4,
                }
            }
            25..=28 => {
                let k = state - 25;
                Cell::Confluent {
                    arrived: k == 1 || k == 3,
                    emitting: k >= 2,
                }
            }
            _ => Cell::Crossing {
                ew: state != 30,
                ns: state != 29,
            },
        }
    }

    fn encode(self) -> u8 {
        match self {
            Cell::Path(k) => k,
            Cell::Transmission {
                special,
                dir,
                excited,
            } => 9 + 8 * u8::from(special) + 4 * u8::from(excited) + dir,
            Cell::Confluent { arrived, emitting } => {
                25 + u8::from(arrived) + 2 * u8::from(emitting)
            }
            Cell::Crossing { ew, ns } => match (ew, ns) {
                (true, false) => 29,
                (false, true) => 30,
                _ => 31,
            },
        }
    }

    /// Where a transmission state points.
    fn points(self) -> Option<u8> {
        match self {
            Cell::Transmission { dir, .. } => Some(dir),
            _ => None,
        }
    }
}

/// What a cell's four neighbours tell it, as bits (so the tree builder can share nodes by
/// what has been heard so far).
mod heard {
    /// An excited ordinary transmission state points in along the east–west axis.
    pub const ORDINARY_EW: u16 = 1;
    /// … along the north–south axis.
    pub const ORDINARY_NS: u16 = 2;
    /// A quiescent ordinary transmission state points in.
    pub const ORDINARY_QUIET: u16 = 4;
    /// An excited special transmission state points in.
    pub const SPECIAL: u16 = 8;
    /// An excited ordinary transmission state points in, not head to head.
    pub const RELAY_ORDINARY: u16 = 16;
    /// An excited special one, not head to head.
    pub const RELAY_SPECIAL: u16 = 32;
    /// A confluent (or a crossing on this axis) emits into the cell.
    pub const CONFLUENT: u16 = 64;
    /// An ordinary transmission state points in along north–south / east–west.
    pub const IN_NS: u16 = 128;
    pub const IN_EW: u16 = 256;
    /// A transmission state that does not point in lies north/south, east/west.
    pub const OUT_NS: u16 = 512;
    pub const OUT_EW: u16 = 1024;
    /// All four axes of a crossing.
    pub const CROSS: u16 = IN_NS | IN_EW | OUT_NS | OUT_EW;
    /// Any ordinary excitation pointing in.
    pub const ORDINARY: u16 = ORDINARY_EW | ORDINARY_NS;
}

/// What `cell` hears from `neighbour`, which lies against direction `toward` (the direction
/// from the neighbour to the cell).
fn hear(cell: Cell, neighbour: Cell, toward: u8) -> u16 {
    use heard::*;
    // A transmission state pointing into this neighbour takes nothing from it.
    let points_back = cell.points() == Some(opposite(toward));
    match neighbour {
        Cell::Path(_) => 0,
        Cell::Confluent { emitting, .. } => {
            if !points_back && emitting {
                CONFLUENT
            } else {
                0
            }
        }
        Cell::Crossing { ew, ns } => {
            let carries = if vertical(toward) { ns } else { ew };
            if !points_back && carries {
                CONFLUENT
            } else {
                0
            }
        }
        Cell::Transmission {
            special,
            dir,
            excited,
        } if dir == toward => {
            let mut bits = 0;
            if !special {
                bits |= if vertical(toward) { IN_NS } else { IN_EW };
                bits |= match (excited, vertical(toward)) {
                    (false, _) => ORDINARY_QUIET,
                    (true, true) => ORDINARY_NS,
                    (true, false) => ORDINARY_EW,
                };
            } else if excited {
                bits |= SPECIAL;
            }
            // Head to head, excitation does not pass.
            if !points_back {
                if bits & ORDINARY != 0 {
                    bits |= RELAY_ORDINARY;
                }
                if bits & SPECIAL != 0 {
                    bits |= RELAY_SPECIAL;
                }
            }
            bits
        }
        Cell::Transmission { .. } => {
            if vertical(toward) {
                OUT_NS
            } else {
                OUT_EW
            }
        }
    }
}

/// The construction tree's leaves past the sensitised states: path code 9–17 becomes these.
const BUILT: [Cell; 9] = [
    Cell::Transmission {
        special: false,
        dir: WEST,
        excited: false,
    },
    Cell::Transmission {
        special: false,
        dir: SOUTH,
        excited: false,
    },
    Cell::Transmission {
        special: true,
        dir: EAST,
        excited: false,
    },
    Cell::Transmission {
        special: true,
        dir: NORTH,
        excited: false,
    },
    Cell::Transmission {
        special: true,
        dir: WEST,
        excited: false,
    },
    Cell::Transmission {
        special: true,
        dir: SOUTH,
        excited: false,
    },
    Cell::Confluent {
        arrived: false,
        emitting: false,
    },
    Cell::Transmission {
        special: false,
        dir: EAST,
        excited: false,
    },
    Cell::Transmission {
        special: false,
        dir: NORTH,
        excited: false,
    },
];

/// The next state of `cell` having heard `bits` from its four neighbours.
fn next(variant: Variant, cell: Cell, bits: u16) -> Cell {
    use heard::*;
    match cell {
        Cell::Path(k) => {
            let k = 2 * k + u8::from(bits & (ORDINARY | SPECIAL) != 0);
            match k {
                0..=8 => Cell::Path(k),
                _ => BUILT[usize::from(k - 9)],
            }
        }
        Cell::Confluent { .. } | Cell::Crossing { .. } if bits & SPECIAL != 0 => Cell::Path(0),
        Cell::Confluent { .. } | Cell::Crossing { .. }
            if variant == Variant::Nobili32 && bits & CROSS == CROSS =>
        {
            if bits & ORDINARY != 0 {
                Cell::Crossing {
                    ew: bits & ORDINARY_EW != 0,
                    ns: bits & ORDINARY_NS != 0,
                }
            } else {
                Cell::Confluent {
                    arrived: false,
                    emitting: false,
                }
            }
        }
        Cell::Confluent { .. } | Cell::Crossing { .. } => {
            // A crossing that is one no more starts over as a quiescent confluent.
            let arrived = matches!(cell, Cell::Confluent { arrived: true, .. });
            if bits & ORDINARY != 0 && bits & ORDINARY_QUIET == 0 {
                Cell::Confluent {
                    arrived: true,
                    emitting: arrived,
                }
            } else if bits & (OUT_NS | OUT_EW) != 0 || variant == Variant::JvN29 {
                Cell::Confluent {
                    arrived: false,
                    emitting: arrived,
                }
            } else if let Cell::Crossing { .. } = cell {
                Cell::Confluent {
                    arrived: false,
                    emitting: false,
                }
            } else {
                cell
            }
        }
        Cell::Transmission { special, dir, .. } => {
            let killed = if special {
                bits & ORDINARY != 0
            } else {
                bits & SPECIAL != 0
            };
            if killed {
                Cell::Path(0)
            } else {
                Cell::Transmission {
                    special,
                    dir,
                    excited: bits & (RELAY_ORDINARY | RELAY_SPECIAL | CONFLUENT) != 0,
                }
            }
        }
    }
}

/// The next state of state `c` with neighbours `n`, `w`, `e`, `s` (Golly's numbering).
pub fn step(variant: Variant, c: u8, [n, w, e, s]: [u8; 4]) -> u8 {
    if variant == Variant::Hutton32 {
        return hutton::step(c, [n, w, e, s]);
    }
    let cell = Cell::decode(c);
    let bits = hear(cell, Cell::decode(n), SOUTH)
        | hear(cell, Cell::decode(w), EAST)
        | hear(cell, Cell::decode(e), WEST)
        | hear(cell, Cell::decode(s), NORTH);
    next(variant, cell, bits).encode()
}

/// The rule table of `variant`: its tree, state names and colours.
pub fn table(variant: Variant) -> Result<RuleTable, TableError> {
    let states = variant.states();
    let names: Vec<String> = (0..states as u8)
        .map(|s| state_name(Cell::decode(s)))
        .collect();
    let colors = (0..states as u8).map(|s| colour(Cell::decode(s))).collect();
    Ok(RuleTable {
        name: variant.name().to_string(),
        description: match variant {
            Variant::JvN29 => "von Neumann's 29-state self-reproducing cellular automaton (Golly's JvN algorithm)".into(),
            Variant::Nobili32 => "Renato Nobili's 32-state extension of von Neumann's automaton: confluent states that cross signals (Golly's JvN algorithm)".into(),
            Variant::Hutton32 => "Tim Hutton's 32-state variant of von Neumann's automaton: one wire writes and retracts, cells built relative to the writer's direction (Golly's JvN algorithm)".into(),
        },
        tree: tree(variant)?,
        colors,
        names,
        source: format!("built in: {} states, von Neumann neighbourhood", states),
    })
}

/// The rule of `variant`, compiled and registered the first time it is asked for.
pub fn rule(variant: Variant) -> Result<crate::rule::Rule, TableError> {
    let built_in = |id: &super::TableId| super::get(*id).source.starts_with("built in");
    let id = match super::by_name(variant.name()).filter(built_in) {
        Some(id) => id,
        None => super::intern(table(variant)?),
    };
    Ok(crate::rule::Rule::from_rule_table(id))
}

#[cfg(test)]
mod tests;
