//! One birth or survival part of a B/S rule (`2-a3`, `012345`) → the table entries it
//! switches on, with Golly's semantics for repeats (see [`super::parse`]).

use super::RuleError;
use super::hensel::{LETTERS, class_set, letter_index, letters_for};
use super::spec::Neighbourhood;

fn invalid(rule: &str, why: impl Into<String>) -> RuleError {
    RuleError::Invalid {
        rule: rule.to_string(),
        why: why.into(),
    }
}

/// The table entries (centre bit = `centre`) switched on by one birth or survival part.
pub fn counts_table(
    part: &str,
    centre: bool,
    neighbourhood: Neighbourhood,
    original: &str,
) -> Result<[u64; 8], RuleError> {
    let max = neighbourhood.size();
    let mut touched = [false; 9];
    let mut on = [0u16; 9]; // per count: bit mask of letters on (Moore), bit 15 = "all"
    let mut used = [(false, false); 9]; // per count: (plain letters, negated letters) seen
    let mut chars = part.chars().peekable();
    while let Some(c) = chars.next() {
        let Some(count) = c.to_digit(10) else {
            return Err(if LETTERS.contains(c) {
                invalid(
                    original,
                    format!("letter '{c}' must follow a neighbour count"),
                )
            } else if c == '-' {
                invalid(original, "a minus can only follow a neighbour count")
            } else {
                RuleError::Malformed {
                    rule: original.to_string(),
                }
            });
        };
        if count > max {
            return Err(if neighbourhood == Neighbourhood::Moore {
                RuleError::CountOutOfRange {
                    rule: original.to_string(),
                    digit: c,
                }
            } else {
                invalid(
                    original,
                    format!("count {count} is more than the neighbourhood's {max} neighbours"),
                )
            });
        }
        let n = count as usize;
        let negative = chars.next_if_eq(&'-').is_some();
        let mut letters = 0u16;
        while let Some(letter) = chars.next_if(|l| LETTERS.contains(*l)) {
            if !letters_for(count).contains(letter) {
                return Err(invalid(
                    original,
                    if letters_for(count).is_empty() {
                        format!("counts 0 and 8 take no letters (found '{count}{letter}')")
                    } else {
                        format!(
                            "letter '{letter}' is not a class of {count} neighbours (valid: {})",
                            letters_for(count)
                        )
                    },
                ));
            }
            letters |= 1 << letter_index(letter).unwrap_or(0);
        }
        if letters != 0 {
            let (plain, negated) = &mut used[n];
            if negative {
                *negated = true
            } else {
                *plain = true
            }
            if *plain && *negated {
                return Err(invalid(
                    original,
                    format!("count {count} has both plain and negated (-) letters"),
                ));
            }
        }
        if (letters == 0 || negative) && !touched[n] {
            on[n] = 0x1fff; // every class
        }
        touched[n] = true;
        if negative {
            on[n] &= !letters;
        } else {
            on[n] |= letters;
        }
    }
    let mut table = [0u64; 8];
    for (count, &letters) in on.iter().enumerate() {
        if !touched[count] || letters == 0 {
            continue;
        }
        let set = if neighbourhood == Neighbourhood::Moore {
            class_set(count as u32, letters, centre)
        } else {
            count_set(count as u32, centre, neighbourhood)
        };
        for (t, s) in table.iter_mut().zip(set) {
            *t |= s;
        }
    }
    Ok(table)
}

/// Indices with centre `centre` and `count` live neighbours inside `neighbourhood`.
fn count_set(count: u32, centre: bool, neighbourhood: Neighbourhood) -> [u64; 8] {
    let mut set = [0u64; 8];
    for i in 0..512u16 {
        if (i >> 4 & 1 == 1) == centre && (i & neighbourhood.mask()).count_ones() == count {
            set[usize::from(i / 64)] |= 1 << (i % 64);
        }
    }
    set
}
