//! Hensel notation: the letters that split each neighbour count of the Moore neighbourhood
//! into its isotropic classes (configurations equal up to the 8 symmetries of the square).
//!
//! Source of the definitions: Golly's help (Algorithms › QuickLife › "Non-totalistic rules",
//! its letter table image) and `gollybase/liferules.cpp`, which lists one representative
//! neighbourhood per letter for counts 1 to 4 and obtains counts 5 to 7 by complementing the
//! 8 neighbours of count 8 − n. The representatives below are those neighbourhoods, as 9-bit
//! indices (any orientation works: a class is closed under every symmetry).

use std::sync::OnceLock;

use super::spec::{cell, symmetry};

/// Every Hensel letter, in the order Golly indexes them (used by the tables below).
pub const LETTERS: &str = "ceaiknjqrytwz";

/// One representative per letter for 1, 2, 3 and 4 live neighbours (letters in
/// [`LETTERS`] order, as many as the count has classes: 2, 6, 10, 13).
const REPRESENTATIVES: [&[u16]; 4] = [
    // 1: c (a corner), e (an edge)
    &[0b000_000_001, 0b000_000_010],
    // 2: c e a i k n
    &[5, 10, 3, 40, 33, 68],
    // 3: c e a i k n j q r y
    &[69, 42, 11, 7, 98, 13, 14, 70, 41, 97],
    // 4: c e a i k n j q r y t w z
    &[325, 170, 15, 45, 99, 71, 106, 102, 43, 101, 105, 78, 108],
];

/// The 8 neighbour bits of the index (centre excluded).
const NEIGHBOURS: u16 = 0x1ef;

/// Letters valid after neighbour count `count` (0..=8), in [`LETTERS`] order. Counts 0 and
/// 8 have a single configuration and no letters.
pub fn letters_for(count: u32) -> &'static str {
    match count {
        1 | 7 => &LETTERS[..2],
        2 | 6 => &LETTERS[..6],
        3 | 5 => &LETTERS[..10],
        4 => LETTERS,
        _ => "",
    }
}

/// Representative neighbourhood (centre dead) of letter number `letter` (its position in
/// [`LETTERS`]) at `count` live neighbours, if the letter exists at that count.
pub fn representative(count: u32, letter: usize) -> Option<u16> {
    match count {
        1..=4 => REPRESENTATIVES[count as usize - 1].get(letter).copied(),
        5..=7 => REPRESENTATIVES[7 - count as usize]
            .get(letter)
            .map(|&r| r ^ NEIGHBOURS),
        _ => None,
    }
}

/// For every index, the position in [`LETTERS`] of its class's letter (255 for counts 0
/// and 8), computed once.
fn letter_table() -> &'static [u8; 512] {
    static TABLE: OnceLock<[u8; 512]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [u8::MAX; 512];
        for count in 1..=7 {
            for letter in 0..letters_for(count).len() {
                let Some(rep) = representative(count, letter) else {
                    continue;
                };
                for k in 0..8 {
                    let image = symmetry(rep, k) & NEIGHBOURS;
                    table[usize::from(image)] = letter as u8;
                    table[usize::from(image | 1 << cell::C)] = letter as u8;
                }
            }
        }
        table
    })
}

/// The Hensel letter of neighbourhood `index` (the centre is ignored), or `None` for 0 or 8
/// live neighbours.
pub fn letter_of(index: u16) -> Option<char> {
    let letter = letter_table()[usize::from(index & 0x1ff)];
    LETTERS.chars().nth(usize::from(letter))
}

/// Position of letter `c` in [`LETTERS`].
pub fn letter_index(c: char) -> Option<usize> {
    LETTERS.find(c)
}

/// The set of indices with centre bit `centre` and `count` live Moore neighbours whose
/// class's letter is in `letters` (a bit mask over [`LETTERS`] positions), as a 512-bit table.
pub fn class_set(count: u32, letters: u16, centre: bool) -> [u64; 8] {
    let table = letter_table();
    let mut set = [0u64; 8];
    for i in 0..512u16 {
        if (i >> cell::C & 1 == 1) != centre || (i & NEIGHBOURS).count_ones() != count {
            continue;
        }
        let letter = table[usize::from(i)];
        if count == 0 || count == 8 || letters >> letter & 1 == 1 {
            set[usize::from(i / 64)] |= 1 << (i % 64);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_partition_each_count() {
        for count in 1..=7u32 {
            let mut seen = 0;
            for letter in 0..letters_for(count).len() {
                let members = (0..256u16)
                    .filter(|&n| {
                        let i = (n & 0xf0) << 1 | (n & 0x0f);
                        i.count_ones() == count && letter_table()[usize::from(i)] == letter as u8
                    })
                    .count();
                assert!(members > 0, "{count}{letter}");
                seen += members;
            }
            let expected = (1..=count).fold(1u64, |acc, k| acc * u64::from(9 - k) / u64::from(k));
            assert_eq!(seen as u64, expected, "count {count}");
        }
    }

    #[test]
    fn letters_match_golly_pictures() {
        // 2a: a corner and an edge next to it; 2i: two opposite edges; 2n: opposite corners.
        assert_eq!(letter_of(1 << cell::NW | 1 << cell::N), Some('a'));
        assert_eq!(letter_of(1 << cell::W | 1 << cell::E), Some('i'));
        assert_eq!(letter_of(1 << cell::NW | 1 << cell::SE), Some('n'));
        assert_eq!(letter_of(1 << cell::NE), Some('c'));
        assert_eq!(letter_of(1 << cell::S), Some('e'));
        assert_eq!(letter_of(0), None);
        assert_eq!(letter_of(0x1ef), None);
    }
}
