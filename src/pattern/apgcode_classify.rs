//! Naming a pattern by its apgcode: run it to find whether it is a still life, an
//! oscillator or a spaceship and its period, then take the canonical code over all phases,
//! as Catagolue does.
//!
//! The run is a small sparse stepper on an unbounded plane (a spaceship must be free to
//! move), independent of golab's world steppers; objects are small, so a hash map of
//! neighbour counts is plenty.

use std::collections::HashSet;

use super::apgcode::{better, canonical_wechsler};
use super::{Pattern, PatternError};
use crate::rule::Rule;

/// Longest period looked for.
pub const MAX_PERIOD: u64 = 1024;

/// Largest population followed while looking for the period.
pub const MAX_POPULATION: usize = 4096;

/// One generation of `cells` under the two-state `rule` on an unbounded plane: every cell
/// within one of a live cell is looked at through its 9-bit neighbourhood index (also the
/// hashed universe's independent reference in its tests).
pub(crate) fn step(cells: &HashSet<(i64, i64)>, rule: Rule) -> HashSet<(i64, i64)> {
    let mut candidates: HashSet<(i64, i64)> = HashSet::with_capacity(cells.len() * 9);
    for &(x, y) in cells {
        for dy in -1..=1 {
            for dx in -1..=1 {
                candidates.insert((x + dx, y + dy));
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&(x, y)| {
            let mut index = 0u16;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    index = index << 1 | u16::from(cells.contains(&(x + dx, y + dy)));
                }
            }
            rule.next_alive(index)
        })
        .collect()
}

/// The cells moved to their bounding box's top-left and sorted, and that top-left.
pub(crate) fn normalised(cells: &HashSet<(i64, i64)>) -> (Vec<(i64, i64)>, (i64, i64)) {
    let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut out: Vec<_> = cells.iter().map(|&(x, y)| (x - x0, y - y0)).collect();
    out.sort_unstable();
    (out, (x0, y0))
}

/// The apgcode of a pattern holding one still life, oscillator or spaceship under its rule
/// (B3/S23 when it names none): `xs<population>`, `xp<period>` or `xq<period>`, then the
/// canonical extended Wechsler string over all phases and orientations. A pattern that is
/// empty, does not repeat within [`MAX_PERIOD`] generations, grows past [`MAX_POPULATION`]
/// cells, or whose rule has B0 is refused with the reason.
pub fn classify(pattern: &Pattern) -> Result<String, PatternError> {
    let rule = pattern.rule.unwrap_or_default();
    if rule.has_dying_states() {
        return Err(PatternError::Unsupported(format!(
            "no apgcode for a pattern under {rule}: golab names objects of two-state rules"
        )));
    }
    if rule.next_alive(0) {
        return Err(PatternError::Unsupported(format!(
            "no apgcode for a pattern under {rule}: B0 rules fill the plane"
        )));
    }
    let cells = pattern.clean_cells();
    if cells.len() > MAX_POPULATION {
        return Err(PatternError::Unsupported(format!(
            "no apgcode for {} cells: golab names objects of at most {MAX_POPULATION} cells",
            cells.len()
        )));
    }
    let start: HashSet<(i64, i64)> = cells
        .iter()
        .map(|&(x, y)| (i64::from(x), i64::from(y)))
        .collect();
    if start.is_empty() {
        return Err(PatternError::Unsupported(
            "no apgcode for an empty pattern".to_string(),
        ));
    }
    let (shape, origin) = normalised(&start);
    let mut phases = vec![shape.clone()];
    let mut cells = start;
    for generation in 1..=MAX_PERIOD {
        cells = step(&cells, rule);
        if cells.len() > MAX_POPULATION || cells.is_empty() {
            break;
        }
        let (now, at) = normalised(&cells);
        if now == shape {
            let code = phases
                .iter()
                .map(|p| canonical_wechsler(p))
                .reduce(better)
                .unwrap_or_default();
            let prefix = if at != origin {
                format!("xq{generation}")
            } else if generation == 1 {
                format!("xs{}", shape.len())
            } else {
                format!("xp{generation}")
            };
            return Ok(format!("{prefix}_{code}"));
        }
        phases.push(now);
    }
    Err(PatternError::Unsupported(format!(
        "no apgcode: the pattern is not one still life, oscillator or spaceship that repeats \
         within {MAX_PERIOD} generations under {rule} (it dies, grows past {MAX_POPULATION} \
         cells or has a longer period)"
    )))
}
