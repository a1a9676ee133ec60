//! `MAP` rules: the transition table written out bit by bit and base64-encoded (LifeViewer's
//! notation, which Golly reads). Bit `k` of the stream (most significant bit of the first
//! character first) is the next state of the neighbourhood numbered `k`.
//!
//! Numbering, from Golly's `gollybase/liferules.cpp` (`createRuleMapFromMAP`, the
//! `neighbormask` values) and its help ("MAP rules"):
//! - Moore, 512 bits (86 characters): `k` is the 9-bit index of [`super::spec`], NW first.
//! - von Neumann, 32 bits (6 characters): `k` has the cells N W C E S, N most significant.
//! - hexagonal, 128 bits (22 characters): `k` has the cells NW N W C E S SE, NW most
//!   significant — the Moore order without the ignored NE and SW. This is how Golly's Super
//!   algorithm reads it (`gollybase/superalgo.cpp`: index `nw<<8 | … | se`, hexagonal mask
//!   `0x1bb`). Caution: QuickLife/HashLife (`liferules.cpp`, mask `0x0fe`) build hexagonal
//!   tables in their vertically flipped orientation and, read literally, take the cells in
//!   the order S SE W C E NW N; the two Golly algorithms seem to disagree on hexagonal MAP
//!   strings (rare in practice), and golab follows the explicit one.
//!
//! Two `=` padding characters may follow; the unused low bits of the last character are
//! ignored (Golly clears them in its canonical form).

use super::spec::{Neighbourhood, cell};

/// The base64 alphabet of MAP strings (standard, not URL-safe).
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The cells of a neighbourhood's MAP numbering, most significant first, as index bits.
fn cells(neighbourhood: Neighbourhood) -> &'static [u32] {
    use cell::*;
    match neighbourhood {
        Neighbourhood::Moore => &[NW, N, NE, W, C, E, SW, S, SE],
        Neighbourhood::Hexagonal => &[NW, N, W, C, E, S, SE],
        Neighbourhood::VonNeumann => &[N, W, C, E, S],
    }
}

/// Number of base64 characters of a MAP string for `neighbourhood` (86, 22 or 6).
pub fn length(neighbourhood: Neighbourhood) -> usize {
    (1usize << cells(neighbourhood).len()).div_ceil(6)
}

/// The neighbourhood whose MAP strings have `len` characters (padding removed).
pub fn neighbourhood_of_length(len: usize) -> Option<Neighbourhood> {
    [
        Neighbourhood::Moore,
        Neighbourhood::Hexagonal,
        Neighbourhood::VonNeumann,
    ]
    .into_iter()
    .find(|&n| length(n) == len)
}

/// The 9-bit index of MAP neighbourhood number `k` (cells outside the neighbourhood dead).
fn index_of(neighbourhood: Neighbourhood, k: usize) -> u16 {
    let order = cells(neighbourhood);
    let mut index = 0;
    for (pos, &bit) in order.iter().enumerate() {
        if k >> (order.len() - 1 - pos) & 1 == 1 {
            index |= 1 << bit;
        }
    }
    index
}

/// Decode the base64 digits of a MAP rule (without the `MAP` prefix, padding removed) into a
/// table over the 9-bit index; `Err` names the first character that is not base64.
pub fn decode(neighbourhood: Neighbourhood, digits: &str) -> Result<[u64; 8], char> {
    let mut values = Vec::with_capacity(digits.len());
    for c in digits.chars() {
        match BASE64.iter().position(|&b| char::from(b) == c) {
            Some(v) => values.push(v),
            None => return Err(c),
        }
    }
    let mut table = [0u64; 8];
    for k in 0..1usize << cells(neighbourhood).len() {
        let value = values.get(k / 6).copied().unwrap_or(0);
        if value >> (5 - k % 6) & 1 == 1 {
            let i = index_of(neighbourhood, k);
            table[usize::from(i / 64)] |= 1 << (i % 64);
        }
    }
    Ok(table)
}

/// Encode a table as the base64 digits of a MAP rule for `neighbourhood` (no prefix, no
/// padding, unused bits of the last character clear: Golly's canonical form).
pub fn encode(neighbourhood: Neighbourhood, table: &[u64; 8]) -> String {
    let bits = 1usize << cells(neighbourhood).len();
    let mut out = String::with_capacity(length(neighbourhood));
    let mut value = 0usize;
    for k in 0..bits {
        let i = index_of(neighbourhood, k);
        let bit = (table[usize::from(i / 64)] >> (i % 64) & 1) as usize;
        value |= bit << (5 - k % 6);
        if k % 6 == 5 || k == bits - 1 {
            out.push(char::from(BASE64[value]));
            value = 0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Golly's help ("MAP rules") gives Conway's Life as this MAP string.
    const LIFE: &str =
        "ARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA";

    #[test]
    fn golly_life_map_is_b3_s23() {
        let table = decode(Neighbourhood::Moore, LIFE).unwrap();
        let life = super::super::Rule::CONWAY;
        assert_eq!(&table, life.table());
        assert_eq!(encode(Neighbourhood::Moore, &table), LIFE);
    }

    #[test]
    fn hexagonal_and_von_neumann_orders() {
        // Hexagonal stream bit 64 = 0b1000000: NW alive alone (char 10, value 2 = 'C').
        let hex = format!("{}C{}", "A".repeat(10), "A".repeat(11));
        let table = decode(Neighbourhood::Hexagonal, &hex).unwrap();
        let on: Vec<u16> = (0..512u16)
            .filter(|&i| table[usize::from(i / 64)] >> (i % 64) & 1 == 1)
            .collect();
        // (decode sets only the exact index; Rule::from_table spreads ignored cells)
        assert_eq!(on, vec![1 << cell::NW]);
        // von Neumann stream bit 16 = 0b10000: N alive alone (char 2, value 2 = 'C').
        let table = decode(Neighbourhood::VonNeumann, "AACAAA").unwrap();
        assert_eq!(table[2] & 1, 1); // index 128 = N alone
        let on = table.iter().map(|w| w.count_ones()).sum::<u32>();
        assert_eq!(on, 1);
    }

    #[test]
    fn lengths_follow_golly() {
        assert_eq!(length(Neighbourhood::Moore), 86);
        assert_eq!(length(Neighbourhood::Hexagonal), 22);
        assert_eq!(length(Neighbourhood::VonNeumann), 6);
        assert_eq!(decode(Neighbourhood::Moore, "A!"), Err('!'));
    }
}
