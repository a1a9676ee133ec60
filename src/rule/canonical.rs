//! Golly's canonical form of a rule (what `getrule()` returns after `setrule()`), rebuilt from
//! the table. Rules from `gollybase/liferules.cpp` (`createCanonicalName`, `addLetters`),
//! `gollybase/generationsalgo.cpp` and Golly's help (QuickLife › "Non-totalistic rules"):
//!
//! - two-state: `B…/S…` then `H` or `V`; Generations: `S…/B…/C` (survival first) then
//!   `H` or `V`;
//! - counts ascending; a count with every class on is written bare, with none on omitted;
//! - otherwise its letters in alphabetical order, or `-` and the missing letters when that
//!   is shorter; on a tie the form without the minus wins (Golly's exception for 7 of the 13
//!   letters of 4 neighbours: `B4aceikny`, not `B4-jqrtwz`);
//! - a `MAP` rule stays `MAP` + its base64 (unused bits of the last character cleared),
//!   then `/C` for Generations.
//!
//! Golly prints letters from what was typed, golab from the table; the two agree except for
//! inputs that repeat a count (`B22a`), where Golly's own canonical form disagrees with the
//! table it runs and golab prints the table.

use super::hensel::{LETTERS, letters_for, representative};
use super::map;
use super::spec::{Family, Neighbourhood, Notation, Rule, Symmetry, cell};

/// Golly's canonical form of `spec` (see the module docs).
pub fn canonical(spec: &Rule) -> String {
    if let Some(table) = spec.rule_table() {
        return table.name.clone();
    }
    if let Some(ltl) = spec.ltl() {
        return ltl.canonical();
    }
    if let Notation::Wolfram(n) = spec.notation() {
        return format!("W{n}");
    }
    let expressible = match spec.symmetry() {
        Symmetry::Totalistic => true,
        Symmetry::Isotropic => spec.neighbourhood() == Neighbourhood::Moore,
        Symmetry::Anisotropic => false,
    };
    if spec.notation() == Notation::Map || !expressible {
        let mut out = format!("MAP{}", map::encode(spec.neighbourhood(), spec.table()));
        if spec.family() == Family::Generations {
            out.push_str(&format!("/{}", spec.states()));
        }
        return out;
    }
    let birth = counts(spec, false);
    let survival = counts(spec, true);
    let suffix = spec.neighbourhood().suffix();
    match spec.family() {
        Family::TwoState => format!("B{birth}/S{survival}{suffix}"),
        Family::Generations => format!("{survival}/{birth}/{}{suffix}", spec.states()),
        // Only `Rule::from_rule_table` makes table rules, and those named themselves above.
        Family::Table => "(rule table)".into(),
        Family::Ltl => "(Larger than Life)".into(),
    }
}

/// The counts (with letters) of the birth (`centre` false) or survival part.
fn counts(spec: &Rule, centre: bool) -> String {
    let neighbourhood = spec.neighbourhood();
    let centre_bit = u16::from(centre) << cell::C;
    let mut out = String::new();
    for count in 0..=neighbourhood.size() {
        if neighbourhood != Neighbourhood::Moore {
            let rep = first_cells(neighbourhood.mask(), count);
            if spec.next_alive(rep | centre_bit) {
                out.push(digit(count));
            }
            continue;
        }
        let valid = letters_for(count);
        if valid.is_empty() {
            let rep = if count == 0 { 0 } else { 0x1ef };
            if spec.next_alive(rep | centre_bit) {
                out.push(digit(count));
            }
            continue;
        }
        let on: Vec<char> = valid
            .chars()
            .enumerate()
            .filter(|&(letter, _)| {
                representative(count, letter).is_some_and(|rep| spec.next_alive(rep | centre_bit))
            })
            .map(|(_, c)| c)
            .collect();
        let (total, p) = (valid.len(), on.len());
        if p == 0 {
            continue;
        }
        out.push(digit(count));
        if p == total {
            continue;
        }
        if p <= total / 2 || (total == LETTERS.len() && p == 7) {
            out.extend(sorted(on.into_iter()));
        } else {
            out.push('-');
            out.extend(sorted(valid.chars().filter(|c| !on.contains(c))));
        }
    }
    out
}

fn digit(count: u32) -> char {
    char::from_digit(count, 10).unwrap_or('?')
}

fn sorted(letters: impl Iterator<Item = char>) -> Vec<char> {
    let mut v: Vec<char> = letters.collect();
    v.sort_unstable();
    v
}

/// The index with the first `count` cells of `mask` alive (lowest bits first).
fn first_cells(mask: u16, count: u32) -> u16 {
    let mut out = 0;
    let mut m = mask;
    for _ in 0..count {
        let low = m & m.wrapping_neg();
        out |= low;
        m &= m - 1;
    }
    out
}
