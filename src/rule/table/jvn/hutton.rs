//! Tim Hutton's 32-state variant of von Neumann's automaton (`Hutton32`, 2008; Golly's old
//! name `modJvN-32`): Nobili32's states with a rule that lets a single ordinary wire write
//! a cell and retract, and builds relative to the writing arrow's direction (so a machine
//! can replicate in any orientation).
//!
//! Hutton's description (Golly's JvN help and his notes) gives the intent: the end of a
//! writing wire marks itself as an excited special state while the cell ahead of it is
//! being written (bits 1 and 0 arriving as excited ordinary and excited special input);
//! a sensitised cell becomes an arrow turned relative to the arrow that wrote it; a wire
//! whose written cell is about to become final retracts to the ground state (or to the
//! first sensitised state when a confluent is written); ordinary states no longer destroy
//! special ones. The exact behaviour in corner cases (a cell with two inputs, a sensitised
//! cell with no input at all) exists only in Golly's simulator, so this module reproduces
//! that simulator's results, corner cases included, and tests/rule_tables.rs holds it to
//! bgolly on random soups of all 32 states and on Golly's Hutton32 patterns.
//!
//! States are Golly's JvN numbering (see the parent module): 0 ground, 1–8 sensitised,
//! 9–16 ordinary and 17–24 special transmission (east, north, west, south; quiescent then
//! excited), 25–28 confluent, 29–31 crossings.

use super::{Cell, EAST, NORTH, SOUTH, WEST};

/// A transmission state's parts (as [`Cell::decode`] reads them), or `None` for any other
/// state.
fn arrow(state: u8) -> Option<Arrow> {
    match Cell::decode(state) {
        Cell::Transmission {
            special,
            dir,
            excited,
        } => Some(Arrow {
            special,
            excited,
            dir,
        }),
        _ => None,
    }
}

/// A transmission state: its kind, whether it is excited and where it points.
#[derive(Clone, Copy)]
struct Arrow {
    special: bool,
    excited: bool,
    dir: u8,
}

/// The transmission state with these parts ([`Cell::encode`]).
fn arrow_state(special: bool, excited: bool, dir: u8) -> u8 {
    Cell::Transmission {
        special,
        dir: dir % 4,
        excited,
    }
    .encode()
}

/// Whether `state` is a sensitised state (1–8).
fn sensitised(state: u8) -> bool {
    (1..=8).contains(&state)
}

/// A cell and its four neighbours, indexed by the direction in which each lies.
struct Around {
    cell: u8,
    /// Neighbours east, north, west, south.
    side: [u8; 4],
}

impl Around {
    /// The order in which the neighbour that "wrote" a cell is looked for (west, south,
    /// east, north): where two excited arrows point in, the first one found gives the
    /// direction, as in Golly.
    const INPUT_ORDER: [u8; 4] = [WEST, SOUTH, EAST, NORTH];

    /// The arrow lying on side `d`, if it points at this cell.
    fn pointing_in(&self, d: u8) -> Option<Arrow> {
        arrow(self.side[usize::from(d)]).filter(|a| a.dir == (d + 2) % 4)
    }

    /// Whether this cell is a transmission state of kind `special` pointing back at side
    /// `d` (head to head: it takes no excitation of its own kind from there).
    fn faces(&self, d: u8, special: bool) -> bool {
        arrow(self.cell).is_some_and(|a| a.special == special && a.dir == d)
    }

    /// An excited arrow of kind `special` points in, not head to head.
    fn excited_arrow_in(&self, special: bool) -> bool {
        (0..4).any(|d| {
            !self.faces(d, special)
                && self
                    .pointing_in(d)
                    .is_some_and(|a| a.special == special && a.excited)
        })
    }

    /// Excitation of kind `special` arrives: an excited arrow of that kind, an emitting
    /// confluent (27, 28) or a crossing carrying excitation along that axis, not head to
    /// head.
    fn excitation_in(&self, special: bool) -> bool {
        (0..4).any(|d| {
            let s = self.side[usize::from(d)];
            let crossing = if d % 2 == 1 { [30, 31] } else { [29, 31] };
            let sends = self
                .pointing_in(d)
                .is_some_and(|a| a.special == special && a.excited)
                || s == 27
                || s == 28
                || crossing.contains(&s);
            sends && !self.faces(d, special)
        })
    }

    /// An ordinary arrow, quiescent or excited, points in.
    fn ordinary_arrow_in(&self) -> bool {
        (0..4).any(|d| self.pointing_in(d).is_some_and(|a| !a.special))
    }

    /// The state of the first excited arrow (either kind) pointing in, in
    /// [`Self::INPUT_ORDER`], quiesced; 0 when there is none.
    fn input(&self) -> u8 {
        Self::INPUT_ORDER
            .into_iter()
            .find_map(|d| {
                self.pointing_in(d)
                    .filter(|a| a.excited)
                    .map(|a| arrow_state(a.special, false, a.dir))
            })
            .unwrap_or(0)
    }

    /// The state ahead of this transmission state (0 for other states).
    fn ahead(&self) -> u8 {
        arrow(self.cell).map_or(0, |a| self.side[usize::from(a.dir)])
    }

    /// Whether excited ordinary input arrives along the north–south axis (from a
    /// south-pointing arrow to the north or a north-pointing one to the south), and along
    /// the east–west axis.
    fn ordinary_excited_axes(&self) -> (bool, bool) {
        let excited_ordinary = |d: u8| self.pointing_in(d).is_some_and(|a| !a.special && a.excited);
        (
            excited_ordinary(NORTH) || excited_ordinary(SOUTH),
            excited_ordinary(EAST) || excited_ordinary(WEST),
        )
    }
}

/// What a confluent or crossing becomes from its ordinary inputs on each axis: a
/// crossing carrying what arrives, or a quiescent confluent when nothing does.
fn crossing(ns: bool, ew: bool) -> u8 {
    match (ns, ew) {
        (true, true) => 31,
        (true, false) => 30,
        (false, true) => 29,
        (false, false) => 25,
    }
}

/// `(base − 9 + turn) mod 4` with the sign of C's `%` (truncating): the direction an
/// input of state `base` turned by `turn` quarter turns gives. With no input (`base` 0)
/// the result is negative or zero, and the state it indexes is whatever Golly's
/// arithmetic lands on; it is kept, since bgolly is the reference.
fn turned(base: u8, turn: i32) -> i32 {
    (i32::from(base) - 9 + turn) % 4
}

/// The next state of `cell` with neighbours north, west, east, south.
pub fn step(cell: u8, [n, w, e, s]: [u8; 4]) -> u8 {
    let at = Around {
        cell,
        side: [e, n, w, s],
    };
    let me = arrow(cell);
    let excited = me.is_some_and(|a| a.excited);
    let ahead = at.ahead();
    // What the cell ahead of a transmission state (ground or sensitised) becomes next
    // generation, given this cell's own excitation as the bit it receives.
    let ahead_becomes_ordinary = ahead == 8 || (ahead == 4 && excited) || (ahead == 5 && !excited);
    let ahead_becomes_confluent = ahead == 7 && excited;
    let ahead_stays_sensitised = (ahead == 0 && excited)
        || (1..=3).contains(&ahead)
        || (ahead == 4 && me.is_none_or(|a| a.special));
    match cell {
        // Ordinary transmission.
        9..=16 => {
            let a = me.expect("a transmission state");
            if at.excited_arrow_in(true) {
                0
            } else if at.excitation_in(false) {
                let ahead_quiet_special = arrow(ahead).is_some_and(|b| b.special && !b.excited);
                if ahead_becomes_ordinary || ahead_quiet_special {
                    0
                } else if ahead_becomes_confluent {
                    1
                } else {
                    arrow_state(false, true, a.dir)
                }
            } else if ahead_becomes_confluent {
                0
            } else if a.excited && ahead_stays_sensitised {
                // The end of a writing wire marks itself as excited special.
                arrow_state(true, true, a.dir)
            } else {
                arrow_state(false, false, a.dir)
            }
        }
        // Special transmission.
        17..=24 => {
            let a = me.expect("a transmission state");
            if a.excited && sensitised(ahead) && at.ordinary_arrow_in() {
                // The marked end of a writing wire.
                let one = at.excited_arrow_in(false);
                match (ahead_stays_sensitised, one) {
                    (true, true) => arrow_state(false, true, a.dir),
                    (true, false) => cell,
                    (false, true) => 0,
                    (false, false) => arrow_state(false, false, a.dir),
                }
            } else if a.excited && ahead == 0 {
                if at.excited_arrow_in(true) {
                    cell
                } else {
                    arrow_state(true, false, a.dir)
                }
            } else if at.excited_arrow_in(false) {
                0
            } else {
                arrow_state(true, at.excitation_in(true), a.dir)
            }
        }
        0 => {
            if at.excited_arrow_in(false) {
                1
            } else if at.excited_arrow_in(true) {
                // An excited special arrow writes an ordinary arrow pointing its way.
                at.input() - 8
            } else {
                0
            }
        }
        1..=8 => {
            let one = at.excited_arrow_in(false);
            let input = at.input();
            // Golly's arithmetic below lands on 6..=20 for every input, none included.
            let as_state = |v: i32| v as u8;
            match (cell, one) {
                (1..=3, _) => 2 * cell + u8::from(one),
                (4, false) => 8,
                (4, true) => as_state(turned(input, 2) + 9),
                (5, false) => as_state(turned(input, 3) + 9),
                // Quiesced input plus 8: an ordinary input gives the special arrow its
                // way; a special one lands on a confluent state, as in Golly.
                (5, true) => input + 8,
                (6, false) => as_state(turned(input, 1) + 17),
                (6, true) => as_state(turned(input, 2) + 17),
                (7, false) => as_state(turned(input, 3) + 17),
                (7, true) => 25,
                // S000 becomes an ordinary arrow the input's way, or turned left. With no
                // input Golly's byte arithmetic wraps back to 8.
                (_, false) => {
                    if input == 0 {
                        8
                    } else {
                        9 + (input - 9) % 4
                    }
                }
                (_, true) => 9 + (input - 8) % 4,
            }
        }
        25..=28 => {
            if at.excited_arrow_in(true) {
                return 0;
            }
            let on = all_inputs_on(&at);
            match cell {
                25 if crossing_shape(&at) => {
                    let (ns, ew) = at.ordinary_excited_axes();
                    crossing(ns, ew)
                }
                25 | 27 => {
                    if on {
                        26
                    } else {
                        25
                    }
                }
                _ => {
                    if on {
                        28
                    } else {
                        27
                    }
                }
            }
        }
        // The crossings, 29..=31 (a rule of 32 states has no others).
        _ => {
            if at.excited_arrow_in(true) {
                0
            } else {
                let (ns, ew) = at.ordinary_excited_axes();
                crossing(ns, ew)
            }
        }
    }
}

/// A confluent's ordinary inputs are all excited: none quiescent points in, and at least
/// one excited one does.
fn all_inputs_on(at: &Around) -> bool {
    let ordinary = |excited: bool| {
        (0..4).any(|d| {
            at.pointing_in(d)
                .is_some_and(|a| !a.special && a.excited == excited)
        })
    };
    !ordinary(false) && ordinary(true)
}

/// Two transmission states point in and two others lie around without pointing in: a
/// quiescent confluent there acts as a crossing.
fn crossing_shape(at: &Around) -> bool {
    let inputs = (0..4).filter(|&d| at.pointing_in(d).is_some()).count();
    let outputs = (0..4)
        .filter(|&d| arrow(at.side[usize::from(d)]).is_some() && at.pointing_in(d).is_none())
        .count();
    inputs == 2 && outputs == 2
}
