//! Generations' dying states, bit-sliced: `bits` planes per word hold `state − 1` of each
//! dying cell (states 2..C−1 → 1..C−2; 0 = not dying), interleaved per word
//! (`planes[word * bits + b]`), so a band of rows is one contiguous slice.

/// Bit planes needed for the dying counters of a rule with `states` states (C > 2): enough
/// for C − 1, the value a counter passes through as it wraps.
pub fn bits_for(states: u16) -> usize {
    (u32::BITS - u32::from(states - 1).leading_zeros()) as usize
}

/// One generation of the dying counter of one word: returns the mask of cells that may be
/// alive next (not dying now), and advances `planes` (this word's `bits` planes) given the
/// cells alive now (`alive`) and the circuit's verdict for them (`next`): a live cell the
/// rule drops enters state 2; a dying cell advances one state and wraps to 0 after `C − 1`.
#[inline(always)]
pub fn advance(planes: &mut [u64], alive: u64, next: u64, states: u16) -> u64 {
    let dying = planes.iter().fold(0, |acc, p| acc | p);
    // Increment the dying cells' counters (ripple carry over the planes).
    let mut carry = dying;
    for plane in planes.iter_mut() {
        let sum = *plane ^ carry;
        carry &= *plane;
        *plane = sum;
    }
    // A counter that reached C − 1 (state C) wraps to dead.
    let last = u64::from(states - 1);
    let mut at_end = dying;
    for (b, plane) in planes.iter().enumerate() {
        at_end &= if last >> b & 1 == 1 { *plane } else { !*plane };
    }
    for plane in planes.iter_mut() {
        *plane &= !at_end;
    }
    // Live cells the rule does not keep start dying at state 2 (counter 1).
    let started = alive & !next;
    planes[0] |= started;
    !dying
}

/// The dying state (2..C−1) of bit `bit` of a word's planes, 0 when not dying.
pub fn state_of(planes: &[u64], bit: usize) -> u8 {
    let counter = planes
        .iter()
        .enumerate()
        .fold(0u32, |acc, (b, p)| acc | ((p >> bit & 1) as u32) << b);
    if counter == 0 { 0 } else { (counter + 1) as u8 }
}

/// Set bit `bit` of a word's planes to dying state `state` (0 = not dying).
pub fn set_state(planes: &mut [u64], bit: usize, state: u8) {
    let counter = if state >= 2 { u32::from(state) - 1 } else { 0 };
    for (b, plane) in planes.iter_mut().enumerate() {
        if counter >> b & 1 == 1 {
            *plane |= 1 << bit;
        } else {
            *plane &= !(1 << bit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dying_cell_walks_through_every_state_then_dies() {
        for states in [3u16, 4, 5, 8, 9, 25, 256] {
            let bits = bits_for(states);
            let mut planes = vec![0u64; bits];
            // Generation 0: bit 5 alive and dropped by the rule.
            let may_live = advance(&mut planes, 1 << 5, 0, states);
            assert_eq!(may_live & 1 << 5, 1 << 5);
            assert_eq!(state_of(&planes, 5), 2, "C = {states}");
            for expected in 3..states {
                let may_live = advance(&mut planes, 0, 0, states);
                assert_eq!(may_live & 1 << 5, 0, "a dying cell cannot be born");
                assert_eq!(u16::from(state_of(&planes, 5)), expected, "C = {states}");
            }
            advance(&mut planes, 0, 0, states);
            assert_eq!(state_of(&planes, 5), 0, "C = {states}: back to dead");
            set_state(&mut planes, 7, (states - 1) as u8);
            assert_eq!(u16::from(state_of(&planes, 7)), states - 1);
        }
    }
}
