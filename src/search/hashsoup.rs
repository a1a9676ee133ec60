//! apgsearch's soups: the SHA-256 digest of the soup's name (the root followed directly by
//! the soup's decimal index, `k_abc12345`) read as a 16×16 block of cells, placed and
//! mirrored the way apgsearch's `hashsoup` places them for each symmetry, at the same plane
//! coordinates (the C1 soup fills x, y ∈ [8, 24)), so that a universe which depends on where
//! cells lie (the tiled one of [`super::tiles`]) sees the same soup.
//!
//! The 32 digest bytes are 16 rows of two bytes: row `r` is bytes `2r` (columns 0–7) and
//! `2r + 1` (columns 8–15), the high bit of a byte its leftmost column. The soup itself is
//! written into 8×8 blocks (one `u64` each, byte = row, bit = column, lowest bit leftmost),
//! the layout apgsearch builds its soups in, so its mirrorings are byte and bit reversals.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// A search symmetry: how apgsearch builds a soup from one digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// An asymmetric 16×16 soup.
    C1,
    /// Asymmetric 32 wide, 8 tall (and the 64×4, 128×2, 256×1 strips below).
    Strip8x32,
    /// Asymmetric 64×4.
    Strip4x64,
    /// Asymmetric 128×2.
    Strip2x128,
    /// Asymmetric 256×1.
    Strip1x256,
    /// 180° rotation about a cell corner (even box 32×32).
    C2_4,
    /// 180° rotation about an edge's midpoint (32×31).
    C2_2,
    /// 180° rotation about a cell centre (31×31).
    C2_1,
    /// 90° rotation about a cell corner.
    C4_4,
    /// 90° rotation about a cell centre.
    C4_1,
    /// Mirror across a horizontal line between rows (16×32).
    D2Plus2,
    /// Mirror across a row (16×31).
    D2Plus1,
    /// Mirror across the diagonal (16×16).
    D2X,
    /// Two perpendicular mirrors between rows and columns.
    D4Plus4,
    /// Mirrors across a row and between columns.
    D4Plus2,
    /// Mirrors across a row and a column.
    D4Plus1,
    /// Both diagonal mirrors, centre at a cell corner.
    D4X4,
    /// Both diagonal mirrors, centre at a cell.
    D4X1,
    /// All eight symmetries of the square, centre at a cell corner.
    D8_4,
    /// All eight symmetries of the square, centre at a cell.
    D8_1,
}

/// Every symmetry golab builds, with apgsearch's name for it.
pub const SYMMETRIES: &[(Symmetry, &str)] = &[
    (Symmetry::C1, "C1"),
    (Symmetry::Strip8x32, "8x32"),
    (Symmetry::Strip4x64, "4x64"),
    (Symmetry::Strip2x128, "2x128"),
    (Symmetry::Strip1x256, "1x256"),
    (Symmetry::C2_4, "C2_4"),
    (Symmetry::C2_2, "C2_2"),
    (Symmetry::C2_1, "C2_1"),
    (Symmetry::C4_4, "C4_4"),
    (Symmetry::C4_1, "C4_1"),
    (Symmetry::D2Plus2, "D2_+2"),
    (Symmetry::D2Plus1, "D2_+1"),
    (Symmetry::D2X, "D2_x"),
    (Symmetry::D4Plus4, "D4_+4"),
    (Symmetry::D4Plus2, "D4_+2"),
    (Symmetry::D4Plus1, "D4_+1"),
    (Symmetry::D4X4, "D4_x4"),
    (Symmetry::D4X1, "D4_x1"),
    (Symmetry::D8_4, "D8_4"),
    (Symmetry::D8_1, "D8_1"),
];

impl Symmetry {
    /// apgsearch's name (`C1`, `D8_1`, `D2_+1` …).
    pub fn name(self) -> &'static str {
        SYMMETRIES
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("C1")
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        SYMMETRIES
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(sym, _)| *sym)
            .ok_or_else(|| {
                let names: Vec<&str> = SYMMETRIES.iter().map(|(_, n)| *n).collect();
                format!(
                    "unknown symmetry '{s}': golab searches {} (apgsearch's names)",
                    names.join(", ")
                )
            })
    }
}

/// Cells in 8×8 blocks keyed by block coordinates: byte `r` of a block is its row `r`, bit
/// `c` of that byte its column `c`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blocks(pub BTreeMap<(i32, i32), u64>);

impl Blocks {
    fn put(&mut self, bx: i32, by: i32, bits: u64) {
        *self.0.entry((bx, by)).or_insert(0) |= bits;
    }

    fn union(&mut self, other: &Blocks) {
        for (&(bx, by), &bits) in &other.0 {
            self.put(bx, by, bits);
        }
    }

    /// The blocks holding `cells`.
    pub fn from_cells(cells: &[(i64, i64)]) -> Blocks {
        let mut out = Blocks::default();
        for &(x, y) in cells {
            out.put(
                x.div_euclid(8) as i32,
                y.div_euclid(8) as i32,
                1u64 << (x.rem_euclid(8) + 8 * y.rem_euclid(8)),
            );
        }
        out
    }

    /// The live cells as (x, y), in block order then row then column.
    pub fn cells(&self) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for (&(bx, by), &bits) in &self.0 {
            let mut rest = bits;
            while rest != 0 {
                let i = i64::from(rest.trailing_zeros());
                out.push((i64::from(bx) * 8 + (i & 7), i64::from(by) * 8 + (i >> 3)));
                rest &= rest - 1;
            }
        }
        out
    }

    /// The same cells moved by (dx, dy).
    fn shifted(&self, dx: i64, dy: i64) -> Blocks {
        let moved: Vec<(i64, i64)> = self
            .cells()
            .iter()
            .map(|&(x, y)| (x + dx, y + dy))
            .collect();
        Blocks::from_cells(&moved)
    }
}

/// Each byte's bits reversed: a block mirrored left–right.
fn mirror_columns(x: u64) -> u64 {
    let mut out = 0;
    for byte in 0..8 {
        let b = ((x >> (8 * byte)) & 0xff) as u8;
        out |= u64::from(b.reverse_bits()) << (8 * byte);
    }
    out
}

/// The bytes' order reversed: a block mirrored top–bottom.
fn mirror_rows(x: u64) -> u64 {
    x.swap_bytes()
}

/// Cell (row, column) of a digest read as a 16×16 matrix.
fn digest_bit(d: &[u8; 32], row: usize, col: usize) -> bool {
    d[2 * row + col / 8] >> (7 - col % 8) & 1 == 1
}

/// The digest read as a 16×16 matrix and transposed.
fn transpose(d: &[u8; 32]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for row in 0..16 {
        for col in 0..16 {
            if digest_bit(d, col, row) {
                out[2 * row + col / 8] |= 1 << (7 - col % 8);
            }
        }
    }
    out
}

/// The four 8×8 blocks of a digest: the even bytes of rows 0–7 (`a`), the odd bytes of rows
/// 0–7 (`b`), the even (`c`) and odd (`d`) bytes of rows 8–15.
fn quarters(d: &[u8; 32]) -> [u64; 4] {
    let mut q = [0u64; 4];
    for j in 0..8 {
        q[0] |= u64::from(d[2 * j]) << (8 * j);
        q[1] |= u64::from(d[2 * j + 1]) << (8 * j);
        q[2] |= u64::from(d[2 * j + 16]) << (8 * j);
        q[3] |= u64::from(d[2 * j + 17]) << (8 * j);
    }
    q
}

/// The soup apgsearch runs for `name` (root and index, `k_abc12345`) under `symmetry`.
pub fn hashsoup(name: &str, symmetry: Symmetry) -> Blocks {
    use Symmetry::*;
    let mut digest: [u8; 32] = Sha256::digest(name.as_bytes()).into();
    // The transposed digest; for C2_2 soups of roots not starting `l_` apgsearch swaps the
    // two (its behaviour from before apgluxe, kept so old roots give old soups).
    let mut tsegid = transpose(&digest);
    if symmetry == C2_2 && !name.starts_with("l_") {
        std::mem::swap(&mut digest, &mut tsegid);
    }
    if matches!(symmetry, D2X | D8_4 | D8_1 | D4X4 | D4X1) {
        // Make the block symmetric about its diagonal: each row keeps its cells on and left
        // of the diagonal's mirror and takes the rest from the transposed digest.
        let mut diag = [0u8; 32];
        for i in 0..8 {
            let low = ((1u16 << (8 - i)) - 1) as u8;
            diag[2 * i] = (digest[2 * i] & low) | (tsegid[2 * i] & !low);
            diag[2 * i + 17] = (digest[2 * i + 17] & low) | (tsegid[2 * i + 17] & !low);
            diag[2 * i + 1] = digest[2 * i + 1];
            diag[2 * i + 16] = tsegid[2 * i + 16];
        }
        for i in 0..32 {
            tsegid[i] ^= diag[i] ^ digest[i];
        }
        digest = diag;
    }

    let mut bw = Blocks::default();
    let strip = match symmetry {
        Strip8x32 => Some(8),
        Strip4x64 => Some(4),
        Strip2x128 => Some(2),
        Strip1x256 => Some(1),
        _ => None,
    };
    if let Some(height) = strip {
        // `height` rows of 32 / height bytes each, the first byte of a row rightmost.
        let bytes_per_row = 32 / height;
        for j in 0..height {
            for i in 0..bytes_per_row {
                let byte = u64::from(digest[bytes_per_row * j + i]);
                bw.put((bytes_per_row - 1 - i) as i32, 0, byte << (8 * j));
            }
        }
        return bw;
    }

    let [a, b, c, d] = quarters(&digest);
    if matches!(symmetry, C1 | D2X) {
        bw.put(1, 1, b);
        bw.put(2, 1, a);
        bw.put(1, 2, d);
        bw.put(2, 2, c);
        return bw;
    }
    bw.put(0, 0, b);
    bw.put(1, 0, a);
    bw.put(0, 1, d);
    bw.put(1, 1, c);

    // The block turned 180°.
    let mut rotated = Blocks::default();
    rotated.put(0, 0, mirror_rows(mirror_columns(c)));
    rotated.put(1, 0, mirror_rows(mirror_columns(d)));
    rotated.put(0, 1, mirror_rows(mirror_columns(a)));
    rotated.put(1, 1, mirror_rows(mirror_columns(b)));

    // The rotational symmetries take their other quarters from the transposed digest.
    let [a, b, c, d] = if matches!(symmetry, C4_1 | C4_4 | D4X1 | D4X4) {
        quarters(&tsegid)
    } else {
        [a, b, c, d]
    };
    // Mirrored top–bottom.
    let mut flipped = Blocks::default();
    flipped.put(0, 0, mirror_rows(d));
    flipped.put(1, 0, mirror_rows(c));
    flipped.put(0, 1, mirror_rows(b));
    flipped.put(1, 1, mirror_rows(a));

    match symmetry {
        D2Plus1 => {
            bw.union(&flipped.shifted(0, -15));
            return bw;
        }
        D2Plus2 => {
            bw.union(&flipped.shifted(0, -16));
            return bw;
        }
        _ => {}
    }

    // Mirrored left–right.
    let mut mirrored = Blocks::default();
    mirrored.put(0, 0, mirror_columns(a));
    mirrored.put(1, 0, mirror_columns(b));
    mirrored.put(0, 1, mirror_columns(c));
    mirrored.put(1, 1, mirror_columns(d));

    let (right, up) = match symmetry {
        C2_4 => {
            bw.union(&rotated.shifted(16, -16));
            return bw;
        }
        C2_2 => {
            bw.union(&rotated.shifted(16, -15));
            return bw;
        }
        C2_1 => {
            bw.union(&rotated.shifted(15, -15));
            return bw;
        }
        D8_4 | D4Plus4 | D4X4 | C4_4 => (16, -16),
        D4Plus2 => (16, -15),
        _ => (15, -15),
    };
    bw.union(&flipped.shifted(0, up));
    bw.union(&mirrored.shifted(right, 0));
    bw.union(&rotated.shifted(right, up));
    bw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c1_soup_fills_its_16_square() {
        let cells = hashsoup("k_test0", Symmetry::C1).cells();
        assert!(!cells.is_empty());
        assert!(
            cells
                .iter()
                .all(|&(x, y)| (8..24).contains(&x) && (8..24).contains(&y))
        );
    }

    #[test]
    fn names_round_trip() {
        for &(sym, name) in SYMMETRIES {
            assert_eq!(name.parse::<Symmetry>().unwrap(), sym);
            assert_eq!(sym.to_string(), name);
        }
        assert!("C3".parse::<Symmetry>().unwrap_err().contains("D8_1"));
    }
}
