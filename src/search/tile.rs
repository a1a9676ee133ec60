//! One tile of the tiled universe ([`super::tiles`]): `R` rows of 32 bits, 28 columns of
//! its own (bits 2–29, bit `x + 2` = column `x`) and `R − 4` rows of its own (rows 2 to
//! `R − 3`), the rest a 2-cell halo copied from its six neighbours. Stepped two
//! generations at a time, as apgsearch's tiles are; what it reports of a step (which of its
//! edges changed) decides which neighbours are made and stepped next.

use std::sync::OnceLock;

use super::lanes::Bits;

/// The bits of a row that are the tile's own columns.
pub const OWN: u32 = 0x3fff_fffc;

/// A tile: rows of cells and of history, links to its neighbours, and the flags of the
/// update protocol (see [`super::tiles::Universe`]).
#[derive(Clone)]
pub struct Tile<const R: usize> {
    /// Tile coordinates packed as apgsearch packs them: `tx + 2³¹` in the low half,
    /// `tw + 2³¹` in the high half (the hash of [`super::tiles::Universe::total_hash`] uses it).
    pub coords: u64,
    /// Live cells, one row each.
    pub d: [u32; R],
    /// Every cell alive at some generation since history was last cleared.
    pub hist: [u32; R],
    /// Neighbour tiles by direction (0 right, 1 up-right, 2 up-left, 3 left, 4 down-left,
    /// 5 down-right), `u32::MAX` where not linked yet.
    pub neighbours: [u32; 6],
    /// Bit i: neighbour i changed its edge (copy its halo); 64: the tile itself changed.
    pub update_flags: u8,
    /// Bit 0: the population is stale; bit 1: the hash is stale.
    pub current_flags: u8,
    /// The population when last counted.
    pub population: i32,
    /// The hash when last computed.
    pub hash: u32,
}

/// What a step changed: any own cell, the top two rows, the bottom two rows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Diffs {
    /// Changed cells of every own row, OR-ed.
    pub all: u32,
    /// Changed cells of the top two own rows.
    pub top: u32,
    /// Changed cells of the bottom two own rows.
    pub bottom: u32,
}

/// A rule's one-generation step of three rows (above, the row, below) into the row's next
/// state; bits 1–30 of the result must be right (bits 0 and 31 are not used).
pub trait RowRule: Sync + Send {
    /// The next state of row `b` between `a` (above) and `c` (below), for one row or
    /// several side by side.
    fn next<B: Bits>(&self, a: B, b: B, c: B) -> B;

    /// The rule as a 512-entry table (bit i: a cell with neighbourhood index i lives; bit 8
    /// of the index the north-west cell … 0 the south-east), read off [`Self::next`].
    fn table(&self) -> [u64; 8] {
        let mut table = [0u64; 8];
        for index in 0..512usize {
            // Row bits: the west cell at column 1, the centre at 2, the east at 3.
            let row = |shift: usize| {
                (((index >> shift) & 1) << 3
                    | ((index >> (shift + 1)) & 1) << 2
                    | ((index >> (shift + 2)) & 1) << 1) as u32
            };
            if self.next::<u32>(row(6), row(3), row(0)) >> 2 & 1 == 1 {
                table[index >> 6] |= 1 << (index & 63);
            }
        }
        table
    }
}

/// B3/S23 by bit-sliced adders.
#[derive(Debug, Clone, Copy, Default)]
pub struct Life;

impl RowRule for Life {
    #[inline(always)]
    fn next<B: Bits>(&self, a: B, b: B, c: B) -> B {
        // Column sums of the rows above and below (0–3 each) and of the row's two sides.
        let (al, ar) = (a.shl1(), a.shr1());
        let (a0, a1) = (al ^ ar ^ a, (al & ar) | (a & (al ^ ar)));
        let (cl, cr) = (c.shl1(), c.shr1());
        let (c0, c1) = (cl ^ cr ^ c, (cl & cr) | (c & (cl ^ cr)));
        let (bl, br) = (b.shl1(), b.shr1());
        let (m0, m1) = (bl ^ br, bl & br);
        // Units of the eight-cell count and its carry into the twos.
        let t0 = a0 ^ c0 ^ m0;
        let carry = (a0 & c0) | (m0 & (a0 ^ c0));
        // Exactly one of the four twos: a count of 2 or 3.
        let x = a1 ^ c1;
        let y = m1 ^ carry;
        (x ^ y) & !(a1 & c1) & !(m1 & carry) & (t0 | b)
    }
}

impl<const R: usize> Tile<R> {
    /// An empty tile at packed coordinates `coords`, linked to nothing.
    pub fn new(coords: u64) -> Self {
        Tile {
            coords,
            d: [0; R],
            hist: [0; R],
            neighbours: [u32::MAX; 6],
            update_flags: 0,
            current_flags: 0,
            population: 0,
            hash: 0,
        }
    }

    /// Tile coordinates (tx, tw): the tile's cells start at column 28·tx − 14·tw and row
    /// −(R − 4)·tw.
    pub fn position(&self) -> (i64, i64) {
        (
            (self.coords & 0xffff_ffff) as i64 - 0x8000_0000,
            (self.coords >> 32) as i64 - 0x8000_0000,
        )
    }

    /// Two generations of the own cells from own cells and halo; the halo is kept. With
    /// `history`, every cell alive before, between and after is added to [`Self::hist`].
    pub fn step2<L: RowRule>(&mut self, rule: &L, history: bool) -> Diffs {
        match simd() {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 if R.is_multiple_of(16) && R <= 48 => {
                // SAFETY: simd() found AVX-512F.
                unsafe { super::lanes::step2_avx512(&mut self.d, &mut self.hist, rule, history) }
            }
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => {
                // SAFETY: as above.
                unsafe { step2_avx2(&mut self.d, &mut self.hist, rule, history) }
            }
            _ => step2_body(&mut self.d, &mut self.hist, rule, history),
        }
    }

    /// Live own cells.
    pub fn count(&self) -> i32 {
        self.d[2..R - 2]
            .iter()
            .map(|r| (r & OWN).count_ones() as i32)
            .sum()
    }

    /// Whether a cell lies near the tile's edge (own or halo): the first and last
    /// (R / 8)·2 rows, and columns −2–5 and 22–29 of the rows between.
    pub fn near_edge(&self) -> bool {
        let band = (R >> 3) * 2;
        let rows = &self.d;
        rows[..band]
            .iter()
            .chain(&rows[R - band..])
            .any(|&r| r != 0)
            || rows[band..R - band].iter().any(|&r| r & 0xff00_00ff != 0)
    }

    /// The glider this tile holds and nothing else, if it flies in one of the directions
    /// `directions` (bits as [`glider_direction`]): the first row it occupies.
    pub fn lone_glider(&self, directions: u8) -> Option<usize> {
        let i = (8..R - 8).find(|&i| self.d[i] != 0).unwrap_or(R - 8);
        let shadow = self.d[i] | self.d[i + 1] | self.d[i + 2];
        if shadow == 0 {
            return None;
        }
        let tz = shadow.trailing_zeros();
        if shadow >> tz != 7 || tz < 6 {
            return None;
        }
        let signature =
            (self.d[i] >> tz) | (self.d[i + 1] >> (tz - 3)) | (self.d[i + 2] >> (tz - 6));
        (directions & glider_direction(signature as usize) != 0).then_some(i)
    }

    /// The tile's hash of its own cells (recomputed when stale).
    pub fn tile_hash(&mut self) -> u32 {
        if self.current_flags & 2 == 0 {
            return self.hash;
        }
        let mut h = 0u32;
        for i in 2..R - 2 {
            h = h
                .wrapping_mul(h.wrapping_add(77_232_917))
                .wrapping_add((i as u32).wrapping_mul(self.d[i] & OWN));
        }
        self.hash = h;
        self.current_flags &= !2;
        h
    }
}

/// The widest vector instructions the tile step is compiled for that this CPU has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Simd {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

fn simd() -> Simd {
    static FOUND: OnceLock<Simd> = OnceLock::new();
    *FOUND.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::Portable
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn step2_avx2<const R: usize, L: RowRule>(
    d: &mut [u32; R],
    hist: &mut [u32; R],
    rule: &L,
    history: bool,
) -> Diffs {
    step2_body(d, hist, rule, history)
}

/// The tile step, written as whole-array passes the compiler turns into vector code: each
/// generation is computed for every row (from the rows padded with a zero row above and
/// below); only the own rows of the second are kept.
#[inline(always)]
fn step2_body<const R: usize, L: RowRule>(
    d: &mut [u32; R],
    hist: &mut [u32; R],
    rule: &L,
    history: bool,
) -> Diffs {
    const PAD: usize = 64;
    debug_assert!(R + 2 <= PAD);
    let mut padded = [0u32; PAD];
    padded[1..R + 1].copy_from_slice(d);
    let mut mid = [0u32; PAD];
    for y in 0..R {
        mid[y + 1] = rule.next(padded[y], padded[y + 1], padded[y + 2]);
    }
    // Rows 0 and R − 1 of the first generation saw the padding: never used below.
    let mut diffs = Diffs::default();
    let mut new = [0u32; R];
    for y in 0..R {
        let own = if (2..R - 2).contains(&y) { OWN } else { 0 };
        let next = rule.next(mid[y], mid[y + 1], mid[y + 2]);
        new[y] = (d[y] & !own) | (next & own);
        diffs.all |= new[y] ^ d[y];
    }
    diffs.top = (new[2] ^ d[2]) | (new[3] ^ d[3]);
    diffs.bottom = (new[R - 4] ^ d[R - 4]) | (new[R - 3] ^ d[R - 3]);
    if history {
        for y in 0..R {
            let inner = if (1..R - 1).contains(&y) {
                0x7fff_fffe
            } else {
                0
            };
            hist[y] |= d[y] | (mid[y + 1] & inner) | new[y];
        }
    }
    *d = new;
    diffs
}

/// The five-cell 3×3 images of a glider, each with the direction it flies in: bit 0 down
/// and right (x + y grows), 1 up and left, 2 up and right (x − y grows), 3 down and left.
/// Indexed by the image's bits, 3·row + column, row 0 the top, column 0 the left.
fn glider_directions() -> &'static [u8; 512] {
    static TABLE: OnceLock<[u8; 512]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0u8; 512];
        for (image, direction) in table.iter_mut().enumerate() {
            if image.count_ones() != 5 {
                continue;
            }
            // Run the image alone in a 16×16 box for four generations.
            let mut rows = [0u32; 16];
            for r in 0..3 {
                rows[6 + r] = ((image >> (3 * r)) as u32 & 7) << 6;
            }
            for _ in 0..4 {
                let mut next = [0u32; 16];
                for y in 1..15 {
                    next[y] = Life.next::<u32>(rows[y - 1], rows[y], rows[y + 1]) & 0x7ffe;
                }
                rows = next;
            }
            for (dx, dy, bit) in [(1i32, 1i32, 1u8), (-1, -1, 2), (1, -1, 4), (-1, 1, 8)] {
                let moved = (0..16).all(|y| {
                    let src = y as i32 - dy;
                    let expect = if (6..9).contains(&src) {
                        let bits = ((image >> (3 * (src - 6))) as u32 & 7) << 6;
                        if dx > 0 { bits << 1 } else { bits >> 1 }
                    } else {
                        0
                    };
                    rows[y] == expect
                });
                if moved {
                    *direction = bit;
                }
            }
        }
        table
    })
}

/// The direction bit of a glider image (0 for anything else); see [`glider_directions`].
pub fn glider_direction(image: usize) -> u8 {
    glider_directions().get(image).copied().unwrap_or(0)
}

/// Whether a 3×3 image (top, middle and bottom rows, 3 bits each, bit 0 the left column)
/// is a glider.
pub fn is_glider_image(top: u32, middle: u32, bottom: u32) -> bool {
    glider_direction((top | middle << 3 | bottom << 6) as usize) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_glider_images_four_each_way() {
        let t = glider_directions();
        assert_eq!(t.iter().filter(|&&b| b != 0).count(), 16);
        for bit in [1, 2, 4, 8] {
            assert_eq!(t.iter().filter(|&&b| b == bit).count(), 4);
        }
        // oo. / o.o / o.. flies up and left.
        assert_eq!(glider_direction(0b001_101_011), 2);
    }

    #[test]
    fn blinker_turns() {
        let mut t = Tile::<32>::new(0);
        t.d[10] = 0b111 << 10;
        let mut mid = t.clone();
        for y in 1..31 {
            mid.d[y] = Life.next::<u32>(t.d[y - 1], t.d[y], t.d[y + 1]);
        }
        assert_eq!(mid.d[9] | mid.d[10] | mid.d[11], 1 << 11);
        let diffs = t.step2(&Life, false);
        assert_eq!(diffs.all, 0);
        assert_eq!(t.d[10], 0b111 << 10);
    }
}
