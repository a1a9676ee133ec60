//! The multi-state engine's leaves (Golly's ghashbase): 2×2 cells of up to 256 states,
//! one state per child word, stepped one generation at a time through the n-state
//! [`CellRule`] interface. Slower per cell than the two-state engine's bit-parallel leaves,
//! but memoisation makes the difference small on the patterns hashing is for.

use super::HashError;
use super::leaves::{Leaves, Words};
use crate::rule::Rule;
use crate::rule::cell_rule::{CellRule, Evaluator};

/// Leaves of 2×2 states under a rule of up to 256 states.
#[derive(Clone, Debug)]
pub struct MultiLeaves {
    rule: Evaluator,
}

/// Why `rule` cannot run on the multi-state engine, if it cannot.
pub fn check_rule(rule: &Rule) -> Result<(), HashError> {
    if rule.is_ltl() {
        return Err(HashError::Rule {
            rule: rule.canonical(),
            why: super::LTL_REFUSAL.into(),
        });
    }
    if let Some(table) = rule.rule_table() {
        if !table.keeps_empty() {
            return Err(HashError::Rule {
                rule: rule.canonical(),
                why: "the rule turns an empty neighbourhood into a non-empty cell, so no square of the infinite plane stays empty; run it on a bounded grid".into(),
            });
        }
        return Ok(());
    }
    if rule.next_alive(0) {
        return Err(HashError::Rule {
            rule: rule.canonical(),
            why: "with B0 every empty cell of the infinite plane is born, so no square stays empty (Golly emulates such rules by alternating two rules); run it on a bounded grid".into(),
        });
    }
    Ok(())
}

impl Leaves for MultiLeaves {
    const LEVEL: u8 = 1;

    fn for_rule(rule: &Rule) -> Result<Self, HashError> {
        check_rule(rule)?;
        Ok(MultiLeaves {
            rule: Evaluator::of(rule),
        })
    }

    /// The centre 2×2 of the 4×4 square, one generation on (`gens` is always 1 here).
    fn step(&self, leaves: [Words; 4], _gens: u32) -> Words {
        let at = |x: usize, y: usize| -> u8 {
            let leaf = &leaves[(y / 2) * 2 + x / 2];
            leaf[(y % 2) * 2 + x % 2] as u8
        };
        let mut out = [0u32; 4];
        for (i, (cx, cy)) in [(1, 1), (2, 1), (1, 2), (2, 2)].into_iter().enumerate() {
            let mut cells = [0u8; 9];
            for dy in 0..3 {
                for dx in 0..3 {
                    cells[dy * 3 + dx] = at(cx + dx - 1, cy + dy - 1);
                }
            }
            out[i] = u32::from(self.rule.next(cells));
        }
        out
    }

    fn centre(leaves: [Words; 4]) -> Words {
        [leaves[0][3], leaves[1][2], leaves[2][1], leaves[3][0]]
    }

    fn get(words: &Words, x: u32, y: u32) -> u8 {
        words[(y * 2 + x) as usize] as u8
    }

    fn set(mut words: Words, x: u32, y: u32, state: u8) -> Words {
        words[(y * 2 + x) as usize] = u32::from(state);
        words
    }

    fn live(words: &Words) -> u64 {
        words.iter().filter(|&&s| s == 1).count() as u64
    }

    fn occupied(words: &Words) -> u64 {
        words.iter().filter(|&&s| s != 0).count() as u64
    }

    fn for_each(words: &Words, visit: &mut dyn FnMut(u32, u32, u8)) {
        for (i, &s) in words.iter().enumerate() {
            if s != 0 {
                visit(i as u32 % 2, i as u32 / 2, s as u8);
            }
        }
    }
}
