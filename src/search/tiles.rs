//! The unbounded plane apgsearch runs soups on, rebuilt so that what depends on its layout
//! comes out the same: tiles of 28 columns × `R − 4` rows ([`Tile`]) on a brick pattern
//! (each row of tiles shifted half a tile, so a tile has six neighbours), made as activity
//! reaches them and never freed, stepped two generations at a time and only when they or
//! a neighbour's facing edge changed.
//!
//! Three things of the search depend on that layout. Gliders flying away are removed (and
//! counted) when one sits alone and well inside a tile at the plane's rim in the direction
//! it flies, checked when the tile's population is counted; the count keeps its five cells
//! (apgsearch's running total is not lowered, so the population stays that of the
//! unmodified plane). "No tile changed in the last step" ends stabilisation early, and a
//! removed glider stops changing its tile. And the history of a separation run covers a
//! tile's every generation only while it is stepped. apgluxe's AVX-512 build uses tiles of
//! 48 rows, its other builds 32: the two give different censuses, so both are here.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::hashsoup::Blocks;
use super::tile::{OWN, RowRule, Tile};

/// Own columns of a tile.
pub(super) const W: i64 = 28;
/// Halo width.
pub(super) const K: usize = 2;
/// The packed-coordinate steps to each neighbour (as wrapping additions).
const DIRECTIONS: [u64; 6] = [
    0x0000_0000_0000_0001,
    0x0000_0001_0000_0001,
    0x0000_0001_0000_0000,
    0xffff_ffff_ffff_ffff,
    0xffff_fffe_ffff_ffff,
    0xffff_ffff_0000_0000,
];
const NONE: u32 = u32::MAX;

/// A hasher for packed tile coordinates: one multiply (the keys are not chosen by anyone
/// who could make them collide).
#[derive(Default)]
pub struct CoordHasher(u64);

impl Hasher for CoordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (v ^ (v >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 32;
    }
}

/// Maps keyed by packed coordinates.
pub type CoordMap<V> = HashMap<u64, V, BuildHasherDefault<CoordHasher>>;

/// Tile `a` to write and tile `b` to read (two different tiles).
fn two<T>(tiles: &mut [T], a: usize, b: usize) -> (&mut T, &T) {
    debug_assert_ne!(a, b);
    if a < b {
        let (lo, hi) = tiles.split_at_mut(b);
        (&mut lo[a], &hi[0])
    } else {
        let (lo, hi) = tiles.split_at_mut(a);
        (&mut hi[0], &lo[b])
    }
}

/// The tiled plane with its update lists, population and removed gliders.
pub struct Universe<const R: usize, L: RowRule> {
    rule: L,
    /// Every tile made so far, in the order made.
    pub tiles: Vec<Tile<R>>,
    index: CoordMap<u32>,
    modified: Vec<u32>,
    stepping: Vec<u32>,
    pub(super) pop_changed: Vec<u32>,
    /// Generations run.
    pub gens: u64,
    pub(super) population: i64,
    /// Gliders removed so far.
    pub glider_count: u64,
    /// Directions in which gliders are removed (bits as [`super::tile::glider_direction`]).
    pub extremal_mask: u8,
    pub(super) max_xpy: i64,
    pub(super) min_xpy: i64,
    pub(super) max_xmy: i64,
    pub(super) min_xmy: i64,
}

impl<const R: usize, L: RowRule> Universe<R, L> {
    /// Own rows of a tile.
    pub(super) const H: i64 = R as i64 - 4;

    /// An empty plane under `rule`.
    pub fn new(rule: L) -> Self {
        Universe {
            rule,
            tiles: Vec::new(),
            index: CoordMap::default(),
            modified: Vec::new(),
            stepping: Vec::new(),
            pop_changed: Vec::new(),
            gens: 0,
            population: 0,
            glider_count: 0,
            extremal_mask: 0,
            max_xpy: 0,
            min_xpy: 0,
            max_xmy: 0,
            min_xmy: 0,
        }
    }

    fn pack(tx: i64, tw: i64) -> u64 {
        (tx + 0x8000_0000) as u64 + (((tw + 0x8000_0000) as u64) << 32)
    }

    /// The tile at packed `coords`, made (unlinked) if missing.
    fn tile_at(&mut self, coords: u64) -> u32 {
        if let Some(&i) = self.index.get(&coords) {
            return i;
        }
        let i = self.tiles.len() as u32;
        self.tiles.push(Tile::new(coords));
        self.index.insert(coords, i);
        i
    }

    /// The (x + y, x − y) measures of a tile's place, for the rim.
    pub(super) fn diagonals(&self, coords: u64) -> (i64, i64) {
        let tx = (coords & 0xffff_ffff) as i64 - 0x8000_0000;
        let tw = (coords >> 32) as i64 - 0x8000_0000;
        let h = Self::H;
        (tx * W - tw * (h + W / 2), tx * W + tw * (h - W / 2))
    }

    /// Neighbour `dir` of tile `t`, made and linked if needed; a newly made tile widens
    /// the rim.
    fn neighbour(&mut self, t: u32, dir: usize) -> u32 {
        let n = self.tiles[t as usize].neighbours[dir];
        if n != NONE {
            return n;
        }
        let coords = self.tiles[t as usize].coords.wrapping_add(DIRECTIONS[dir]);
        let n = match self.index.get(&coords) {
            Some(&n) => n,
            None => {
                let n = self.tile_at(coords);
                let (xpy, xmy) = self.diagonals(coords);
                self.max_xpy = self.max_xpy.max(xpy);
                self.min_xpy = self.min_xpy.min(xpy);
                self.max_xmy = self.max_xmy.max(xmy);
                self.min_xmy = self.min_xmy.min(xmy);
                n
            }
        };
        self.tiles[n as usize].neighbours[(dir + 3) % 6] = t;
        self.tiles[t as usize].neighbours[dir] = n;
        n
    }

    /// Tell neighbour `dir` of `t` that the facing edge changed.
    fn update_neighbour(&mut self, t: u32, dir: usize) {
        let n = self.neighbour(t, dir);
        let tile = &mut self.tiles[n as usize];
        if tile.update_flags == 0 {
            self.modified.push(n);
        }
        tile.update_flags |= 1 << ((dir + 3) % 6);
    }

    /// Mark tile `t` changed: its population and hash stale, itself to be stepped.
    fn touch(&mut self, t: u32) {
        let tile = &mut self.tiles[t as usize];
        if tile.current_flags & 1 == 0 {
            self.pop_changed.push(t);
        }
        tile.current_flags = 3;
        if tile.update_flags == 0 {
            self.modified.push(t);
        }
        tile.update_flags |= 64;
    }

    /// Add the cells of `blocks` (8×8 blocks at plane coordinates), as apgsearch inserts
    /// a soup: tile by tile, waking the neighbours of blocks near a tile's edge.
    pub fn insert(&mut self, blocks: &Blocks) {
        let h = Self::H;
        for (&(bx, by), &bits) in &blocks.0 {
            if bits == 0 {
                continue;
            }
            let (x, y) = (8 * i64::from(bx), 8 * i64::from(by));
            let dy = y.rem_euclid(h);
            let ay = y - dy;
            let ax = x - (ay / h) * (W / 2);
            let dx = ax.rem_euclid(W);
            let t = self.tile_at(Self::pack((ax - dx) / W, -(ay / h)));
            self.put_block(t, dx as usize, dy as usize, bits);
        }
    }

    /// One 8×8 block at column `dx`, row `dy` of tile `t`; parts beyond its right or bottom
    /// edge go to those neighbours.
    fn put_block(&mut self, t: u32, dx: usize, dy: usize, v: u64) {
        if v == 0 {
            return;
        }
        let h = R - 4;
        self.touch(t);
        if !(8..=16).contains(&dx) || !(8..=R - 16).contains(&dy) {
            for dir in 0..6 {
                self.update_neighbour(t, dir);
            }
            if dy > h - 8 {
                let below = self.neighbour(t, 4);
                self.put_block(below, dx + (16 - K), 0, v >> (8 * (h - dy)));
            }
            if dx >= 28 {
                let right = self.neighbour(t, 0);
                self.put_block(right, dx - 28, dy, v);
            } else if dx > 24 - 2 * K {
                let bytes = 0x0101_0101_0101_0101u64;
                let mask = (bytes << (dx - (24 - 2 * K))).wrapping_sub(bytes);
                let right = self.neighbour(t, 0);
                self.put_block(right, 0, dy, (v >> (28 - dx)) & mask);
            }
        }
        if dx < 28 {
            let tile = &mut self.tiles[t as usize];
            for i in 0..8 {
                let row = i + dy;
                if row < h {
                    let byte = (v >> (8 * i)) & 255;
                    tile.d[row + K] |= ((byte << (dx + K)) as u32) & OWN;
                }
            }
        }
    }

    /// Queue every tile not already queued to be stepped, as after a change of rule or
    /// step size (also before a separation run, so that every tile's history is taken).
    pub fn decache(&mut self) {
        for (i, tile) in self.tiles.iter_mut().enumerate() {
            if tile.update_flags == 0 {
                self.modified.push(i as u32);
                tile.update_flags |= 64;
            }
        }
    }

    /// Copy into tile `t`'s halo the edges its neighbours changed.
    fn refresh_halo(&mut self, t: u32) {
        let ti = t as usize;
        let flags = self.tiles[ti].update_flags & 63;
        self.tiles[ti].update_flags = 0;
        if flags == 0 {
            return;
        }
        let n = self.tiles[ti].neighbours;
        let h = R - 4;
        for (dir, &neighbour) in n.iter().enumerate() {
            if flags >> dir & 1 == 0 {
                continue;
            }
            let (dst, src) = two(&mut self.tiles, ti, neighbour as usize);
            let (d, s) = (&mut dst.d, &src.d);
            match dir {
                // Right and left halo columns from the neighbours' nearest own columns.
                0 => {
                    for (d, s) in d[K..h + K].iter_mut().zip(&s[K..h + K]) {
                        *d = ((s & OWN) << 28) | (*d & 0x3fff_ffff);
                    }
                }
                3 => {
                    for (d, s) in d[K..h + K].iter_mut().zip(&s[K..h + K]) {
                        *d = ((s & OWN) >> 28) | (*d & 0xffff_fffc);
                    }
                }
                // Top halo rows from the bottom own rows of the two tiles above, each half a
                // tile across; bottom halo rows from the top own rows of the two below.
                1 => {
                    for i in 0..K {
                        d[i] = ((s[h + i] << (16 - K)) & 0xffff_0000) | (d[i] & 0x0000_ffff);
                    }
                }
                2 => {
                    for i in 0..K {
                        d[i] = ((s[h + i] >> (16 - K)) & 0x0000_ffff) | (d[i] & 0xffff_0000);
                    }
                }
                4 => {
                    for i in K..2 * K {
                        d[h + i] = ((s[i] >> (16 - K)) & 0x0000_ffff) | (d[h + i] & 0xffff_0000);
                    }
                }
                _ => {
                    for i in K..2 * K {
                        d[h + i] = ((s[i] << (16 - K)) & 0xffff_0000) | (d[h + i] & 0x0000_ffff);
                    }
                }
            }
        }
    }

    /// Two generations of every queued tile; tiles that changed queue themselves and the
    /// neighbours whose facing edge they changed.
    fn step_round(&mut self, history: bool) {
        // The queue is swapped with last round's (emptied) list, keeping both allocations.
        let mut queued = std::mem::take(&mut self.stepping);
        std::mem::swap(&mut queued, &mut self.modified);
        for &t in &queued {
            self.refresh_halo(t);
        }
        for &t in &queued {
            let diffs = self.tiles[t as usize].step2(&self.rule, history);
            if diffs.all & OWN == 0 {
                continue;
            }
            self.touch(t);
            if diffs.all & 0x3000_0000 != 0 {
                self.update_neighbour(t, 0);
            }
            if diffs.all & 0x0000_000c != 0 {
                self.update_neighbour(t, 3);
            }
            if diffs.top & 0x3fff_c000 != 0 {
                self.update_neighbour(t, 1);
            }
            if diffs.top & 0x0003_fffc != 0 {
                self.update_neighbour(t, 2);
            }
            if diffs.bottom & 0x3fff_c000 != 0 {
                self.update_neighbour(t, 5);
            }
            if diffs.bottom & 0x0003_fffc != 0 {
                self.update_neighbour(t, 4);
            }
        }
        queued.clear();
        self.stepping = queued;
        self.gens += 2;
    }

    /// Run `gens` generations (an even number), recording history when asked.
    pub fn advance(&mut self, history: bool, gens: u64) {
        debug_assert!(
            gens.is_multiple_of(2),
            "the tiled plane runs two generations at a time"
        );
        for _ in 0..gens / 2 {
            self.step_round(history);
        }
    }

    /// Whether no tile changed in the last step (and none waits for a neighbour's edge).
    pub fn is_static(&self) -> bool {
        self.modified.is_empty()
    }
}
