//! Generations: the state count of `S/B/C` rules, and the bit-plane form of the state
//! machine that bitsliced kernels use (a reference for the stepper integration).
//!
//! States (Golly's help, Algorithms › Generations): 0 dead, 1 alive, 2..C-1 dying. Only
//! state-1 cells count as neighbours; a dead cell whose live neighbours satisfy B is born; a
//! live cell that fails S starts dying (state 2, or 0 when C = 2); a dying cell advances one
//! state per generation and state C-1 becomes 0; dying cells are never revived.
//!
//! # Bit planes
//!
//! [`Planes`] holds a cell as one `alive` bit plus a binary countdown `r` in
//! [`Planes::countdown_bits`] planes: `r = C - s` for a dying cell in state `s` (so `r` runs
//! C-2 … 1) and `r = 0` for dead and live cells. One generation is then a decrement with a
//! borrow chain and a constant load, about `3·bits + 4` word operations besides the rule.

use super::RuleError;

/// Parse the state count of a Generations rule (`3`, or LifeViewer's `C3`), 2..=256.
pub fn parse_states(text: &str, original: &str) -> Result<u16, RuleError> {
    let invalid = |why: String| RuleError::Invalid {
        rule: original.to_string(),
        why,
    };
    let digits = text.trim();
    let digits = digits.strip_prefix(['c', 'C']).unwrap_or(digits);
    if digits.contains(['b', 's', 'B', 'S']) {
        return Err(invalid(
            "B and S are not valid after the second slash".into(),
        ));
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(format!(
            "the third part of a Generations rule is its number of states (2-256), not '{text}'"
        )));
    }
    match digits.parse::<u32>() {
        Ok(n @ 2..=256) => Ok(n as u16),
        _ => Err(invalid(format!(
            "a Generations rule has 2 to 256 states, not {digits}"
        ))),
    }
}

/// 64 cells of a Generations world as bit planes (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planes {
    /// Bit set: the cell is in state 1.
    pub alive: u64,
    /// The countdown `r`, least significant plane first.
    pub countdown: Vec<u64>,
}

impl Planes {
    /// Planes needed for the countdown of a `states`-state rule (0 for two states).
    pub fn countdown_bits(states: u16) -> usize {
        let top = states.saturating_sub(2); // largest countdown value
        (u16::BITS - top.leading_zeros()) as usize
    }

    /// Pack 64 cell states (state `s` of lane `i` in `states_of[i]`).
    pub fn pack(states: u16, states_of: &[u16; 64]) -> Planes {
        let mut planes = Planes {
            alive: 0,
            countdown: vec![0; Self::countdown_bits(states)],
        };
        for (lane, &s) in states_of.iter().enumerate() {
            if s == 1 {
                planes.alive |= 1 << lane;
            } else if s >= 2 {
                let r = states - s;
                for (j, plane) in planes.countdown.iter_mut().enumerate() {
                    *plane |= u64::from(r >> j & 1) << lane;
                }
            }
        }
        planes
    }

    /// The state of lane `lane` of a `states`-state rule.
    pub fn state(&self, states: u16, lane: u32) -> u16 {
        if self.alive >> lane & 1 == 1 {
            return 1;
        }
        dying_state(&self.countdown, states, lane)
    }

    /// Advance one generation of a `states`-state rule, given `next_alive`: the rule table (or
    /// its circuit) evaluated with the live planes as neighbours and `alive` as the centre.
    pub fn step(&mut self, states: u16, next_alive: u64) {
        self.alive = step_word(&mut self.countdown, self.alive, next_alive, states);
    }
}

/// One generation of one word of a Generations world kept as bit planes: `countdown` (the
/// word's [`Planes::countdown_bits`] planes) is advanced in place and the word's live cells
/// next generation are returned. `alive` are the cells alive now, `next_alive` the rule's
/// verdict for every cell (its circuit or table with only live cells as neighbours): a live
/// cell it drops starts dying, dying cells count down (the last state wraps to dead) and
/// cannot be born. Shared by [`Planes`] and the bit-sliced CPU stepper.
#[inline(always)]
pub fn step_word(countdown: &mut [u64], alive: u64, next_alive: u64, states: u16) -> u64 {
    let dying = countdown.iter().fold(0, |acc, p| acc | p);
    let born = next_alive & !alive & !dying;
    let starts = alive & !next_alive;
    let start_value = states.saturating_sub(2);
    let mut borrow = dying;
    for (j, plane) in countdown.iter_mut().enumerate() {
        let decremented = *plane ^ borrow;
        borrow &= !*plane;
        let load = if start_value >> j & 1 == 1 { starts } else { 0 };
        *plane = (decremented & dying) | load;
    }
    (next_alive & alive) | born
}

/// The dying state (2..C−1) of lane `lane` in a word's countdown planes, 0 when not dying.
pub fn dying_state(countdown: &[u64], states: u16, lane: u32) -> u16 {
    let r = countdown
        .iter()
        .enumerate()
        .fold(0u16, |r, (j, plane)| r | ((plane >> lane & 1) as u16) << j);
    if r == 0 { 0 } else { states - r }
}

/// Set lane `lane` of a word's countdown planes to dying state `state` (0: not dying).
pub fn set_dying_state(countdown: &mut [u64], states: u16, lane: u32, state: u16) {
    let r = if state >= 2 { states - state } else { 0 };
    for (j, plane) in countdown.iter_mut().enumerate() {
        if r >> j & 1 == 1 {
            *plane |= 1 << lane;
        } else {
            *plane &= !(1 << lane);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_follow_golly() {
        assert_eq!(parse_states("3", "x"), Ok(3));
        assert_eq!(parse_states("C256", "x"), Ok(256));
        assert!(parse_states("1", "x").is_err());
        assert!(parse_states("257", "x").is_err());
        assert!(parse_states("", "x").is_err());
        assert!(parse_states("99999999999999999999", "x").is_err());
        assert_eq!(Planes::countdown_bits(2), 0);
        assert_eq!(Planes::countdown_bits(3), 1);
        assert_eq!(Planes::countdown_bits(4), 2);
        assert_eq!(Planes::countdown_bits(5), 2);
        assert_eq!(Planes::countdown_bits(256), 8);
    }

    #[test]
    fn dying_states_set_and_read_back() {
        for states in [3u16, 4, 9, 256] {
            let mut planes = vec![0u64; Planes::countdown_bits(states)];
            for state in 2..states {
                set_dying_state(&mut planes, states, 9, state);
                assert_eq!(dying_state(&planes, states, 9), state);
            }
            set_dying_state(&mut planes, states, 9, 0);
            assert_eq!(dying_state(&planes, states, 9), 0);
        }
    }

    #[test]
    fn planes_step_like_the_state_machine() {
        for states in [2u16, 3, 4, 5, 8, 17, 256] {
            let mut cells = [0u16; 64];
            for (i, c) in cells.iter_mut().enumerate() {
                *c = (i as u16 * 7 + 3) % states;
            }
            let next_alive: u64 = 0x9e37_79b9_7f4a_7c15;
            let mut planes = Planes::pack(states, &cells);
            planes.step(states, next_alive);
            for (lane, &s) in cells.iter().enumerate() {
                let f = next_alive >> lane & 1 == 1;
                let want = match s {
                    0 => u16::from(f),
                    1 if f => 1,
                    _ => (s + 1) % states,
                };
                assert_eq!(
                    planes.state(states, lane as u32),
                    want,
                    "C={states} s={s} f={f}"
                );
            }
        }
    }
}
