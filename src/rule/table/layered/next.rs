//! One generation of a History, Super or Investigator cell, as a function of the cell's
//! state and a [`Heard`] summary of its neighbours: the published behaviour of each state
//! (Golly's help, Algorithms > Super), with Golly's simulator deciding where the help is
//! silent (tests/rule_tables.rs holds golab to a build of Golly's source).

use super::super::tree::ORDER_8;
use super::{Base, Variant};

/// What a cell's neighbours said, reduced to what the next state depends on: the base
/// rule's neighbourhood pattern (its [`Base`] class) and a set
/// of flags for the states present. Equal summaries give equal next states, so the tree
/// builder shares nodes by them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Heard {
    /// The class ([`Base`]'s) of the neighbours seen as ON so far.
    on: u16,
    /// Investigator only: the class of the neighbours seen as ON when the cell is ON.
    on_alive: u16,
    /// Flags of the states present (see [`flags`]).
    seen: u32,
}

/// Flag bits of [`Heard::seen`].
mod flags {
    /// Super: a state among 13, 15, …, 25 (the no-trail ON states), in bits 0..7 by
    /// `(s − 13) / 2`, at most the two lowest kept (two mean "more than one").
    pub const NO_TRAIL: u32 = 0x7f;
    /// State 1 or 5 (History/Super: an ON state that leaves trail #1).
    pub const ON_1_OR_5: u32 = 1 << 8;
    pub const ON_3: u32 = 1 << 9;
    pub const ON_7: u32 = 1 << 10;
    pub const ON_9: u32 = 1 << 11;
    pub const ON_11: u32 = 1 << 12;
    /// State 6 (History/Super: the boundary that turns ON cells OFF).
    pub const BOUNDARY: u32 = 1 << 13;
    pub const LABEL_14: u32 = 1 << 14;
    pub const LABEL_18: u32 = 1 << 15;
    pub const LABEL_20: u32 = 1 << 16;
    pub const LABEL_22: u32 = 1 << 17;
    /// Investigator: a state that forces an ON cell OFF (2, 3, 6, 7, 14, 16).
    pub const KILLS: u32 = 1 << 18;
    /// Investigator: a state that forces an OFF cell ON (8, 9, 12, 13, 14).
    pub const BEARS: u32 = 1 << 19;
    /// Investigator: a catalyst (15, 16), which needs a state-1 neighbour for a birth.
    pub const CATALYST: u32 = 1 << 20;
    /// Investigator: state 1.
    pub const ONE: u32 = 1 << 21;
    /// Investigator: any state but 0.
    pub const ANY: u32 = 1 << 22;
}

/// History's and Super's ON states: the odd ones, bit per state.
const ODD: u32 = 0xaaaa_aaaa;

/// Investigator's states that count as ON for a dead cell's birth, bit per state.
const INVESTIGATOR_ON_DEAD: u32 = 1 << 1
    | 1 << 2
    | 1 << 4
    | 1 << 6
    | 1 << 8
    | 1 << 10
    | 1 << 12
    | 1 << 15
    | 1 << 16
    | 1 << 17
    | 1 << 19;

/// Investigator's states that count as ON for a live cell's survival: the birth set
/// without the "births" states 17, 19, with 18, 20 instead.
const INVESTIGATOR_ON_ALIVE: u32 = INVESTIGATOR_ON_DEAD ^ (1 << 17 | 1 << 18 | 1 << 19 | 1 << 20);

impl Heard {
    /// The summary after also hearing `state` from neighbour `depth` of [`ORDER_8`].
    pub fn hear(self, variant: Variant, base: &Base, depth: usize, state: u8) -> Heard {
        use flags::*;
        let s = u32::from(state);
        let counted = base.counts(ORDER_8[depth]);
        let on = |set: u32| counted && set >> s & 1 == 1;
        let mut out = self;
        out.on = base.hear(self.on, depth, on(INVESTIGATOR_ON_DEAD));
        out.on_alive = base.hear(self.on_alive, depth, on(INVESTIGATOR_ON_ALIVE));
        if variant != Variant::Investigator {
            out.on = base.hear(self.on, depth, on(ODD));
            out.on_alive = 0;
        }
        if !counted {
            return out;
        }
        match variant {
            Variant::History | Variant::Super => {
                out.seen |= match s {
                    1 | 5 => ON_1_OR_5,
                    3 => ON_3,
                    6 => BOUNDARY,
                    7 if variant == Variant::Super => ON_7,
                    9 => ON_9,
                    11 => ON_11,
                    14 => LABEL_14,
                    18 => LABEL_18,
                    20 => LABEL_20,
                    22 => LABEL_22,
                    _ => 0,
                };
                if variant == Variant::Super && s >= 13 && s & 1 == 1 {
                    let group = (self.seen & NO_TRAIL) | 1 << ((s - 13) / 2);
                    out.seen = (out.seen & !NO_TRAIL) | lowest_two(group);
                }
            }
            Variant::Investigator => {
                let kills = [2, 3, 6, 7, 14, 16].contains(&s);
                let bears = [8, 9, 12, 13, 14].contains(&s);
                out.seen |= if kills { KILLS } else { 0 }
                    | if bears { BEARS } else { 0 }
                    | if s == 15 || s == 16 { CATALYST } else { 0 }
                    | if s == 1 { ONE } else { 0 }
                    | if s != 0 { ANY } else { 0 };
            }
        }
        out
    }
}

/// `bits` with only its two lowest set bits.
fn lowest_two(bits: u32) -> u32 {
    let first = bits & bits.wrapping_neg();
    let rest = bits ^ first;
    first | (rest & rest.wrapping_neg())
}

/// The one no-trail state (13, 15, …, 25) in `group`, if exactly one.
fn single_no_trail(group: u32) -> Option<u8> {
    (group.count_ones() == 1).then(|| 13 + 2 * group.trailing_zeros() as u8)
}

/// The next state of a cell in state `c` whose neighbours said `heard`.
pub(super) fn next(variant: Variant, base: &Base, c: u8, heard: Heard) -> u8 {
    match variant {
        Variant::History => history(base, c, heard),
        Variant::Super => super_(base, c, heard),
        Variant::Investigator => investigator(base, c, heard),
    }
}

fn history(base: &Base, c: u8, heard: Heard) -> u8 {
    if heard.seen & flags::BOUNDARY != 0 {
        match c {
            1 => return 2,
            3 | 5 => return 4,
            _ => {}
        }
    }
    let alive = c & 1 == 1;
    match (base.next_alive(heard.on, alive), alive) {
        (true, false) => match c {
            4 => 3,
            6 => 6,
            _ => 1,
        },
        (false, true) if c == 5 => 4,
        (false, true) => c + 1,
        _ => c,
    }
}

fn super_(base: &Base, c: u8, heard: Heard) -> u8 {
    use flags::*;
    let seen = heard.seen;
    if seen & BOUNDARY != 0 {
        match c {
            7 | 8 | 13.. => return 0,
            1 => return 2,
            3 | 5 => return 4,
            9 => return 10,
            11 => return 12,
            _ => {}
        }
    }
    let alive = c & 1 == 1;
    if base.next_alive(heard.on, alive) {
        if alive {
            return c;
        }
        return match c {
            4 => 3,
            6 => 6,
            8 => 7,
            _ => birth_state(seen),
        };
    }
    if alive {
        return match c {
            5 => 4,
            ..=11 => c + 1,
            _ => 0,
        };
    }
    let any_on = seen & (NO_TRAIL | ON_1_OR_5 | ON_3 | ON_7 | ON_9 | ON_11) != 0;
    match c {
        14 => 0,
        16 if any_on || seen & LABEL_14 != 0 => 14,
        18 if seen & LABEL_22 != 0 => 22,
        20 if seen & LABEL_18 != 0 => 18,
        22 if seen & LABEL_20 != 0 => 20,
        24 if any_on || seen & (LABEL_14 | LABEL_18) != 0 => 18,
        _ => c,
    }
}

/// The state a Super birth takes from its ON neighbours: theirs when they agree (a trail
/// state needs no trail-#1 neighbour; a no-trail state may be joined by marked ON 3; the
/// trail states 9 and 11 by the no-trail boundary 7), 13 when only no-trail states meet,
/// else 1.
fn birth_state(seen: u32) -> u8 {
    use flags::*;
    let group = seen & NO_TRAIL;
    let nine_eleven = [(ON_9, 9u8), (ON_11, 11)]
        .into_iter()
        .filter(|(f, _)| seen & f != 0)
        .map(|(_, s)| s)
        .collect::<Vec<_>>();
    let trails = nine_eleven.len() as u32 + group.count_ones();
    let only = |allowed: u32| seen & (ON_1_OR_5 | ON_3 | ON_7 | ON_9 | ON_11) & !allowed == 0;
    // One state among 9..25 and no 1, 3, 5, 7.
    if trails == 1 && only(ON_9 | ON_11) {
        return nine_eleven
            .first()
            .copied()
            .or(single_no_trail(group))
            .unwrap_or(1);
    }
    // Marked ON 3 with one no-trail state, and no 1, 5, 7, 9, 11.
    if let Some(s) = single_no_trail(group).filter(|_| seen & ON_3 != 0 && only(ON_3)) {
        return s;
    }
    // The no-trail boundary 7 with one of 9, 11, and no 1, 3, 5 or no-trail state.
    if seen & ON_7 != 0 && nine_eleven.len() == 1 && group == 0 && only(ON_7 | ON_9 | ON_11) {
        return nine_eleven[0];
    }
    // Only 7 and no-trail states.
    if (seen & ON_7 != 0 || group != 0) && only(ON_7) {
        return 13;
    }
    1
}

fn investigator(base: &Base, c: u8, heard: Heard) -> u8 {
    use flags::*;
    const TOGGLE: [u8; 21] = [
        0, 1, 2, 3, 4, 5, 7, 6, 8, 9, 11, 10, 13, 12, 14, 15, 16, 17, 18, 20, 19,
    ];
    if c >= 2 {
        return TOGGLE[usize::from(c)];
    }
    let seen = heard.seen;
    if seen & ANY == 0 && c == 0 {
        return 0;
    }
    let forced = if c == 1 { KILLS } else { BEARS };
    if seen & forced != 0 {
        return 1 - c;
    }
    if c == 0 && seen & CATALYST != 0 && seen & ONE == 0 {
        return 0;
    }
    let on = if c == 1 { heard.on_alive } else { heard.on };
    u8::from(base.next_alive(on, c == 1))
}
