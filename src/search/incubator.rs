//! Separating a settled soup into objects as apgsearch does for Life-like rules: the plane's
//! cells and history are copied into a fixed grid of blocks 56 columns wide and twice a
//! tile high, which is then scanned block by block (by column of blocks, then row), row by
//! row, cell by cell. The commonest objects are taken out on sight where they stand alone
//! well inside a block (blocks, blinkers, beehives upright) and gliders are left to be
//! counted at the end; everything else is grown into a cluster of live and history cells
//! within √5 of each other and named ([`super::classify`]).

use std::collections::BTreeMap;

use super::tile::{OWN, RowRule, is_glider_image};
use super::tiles::Universe;

/// Columns of a block.
const W: usize = 56;
/// Most rows of a block (for tiles of 48 rows).
const MAX_ROWS: usize = 88;

/// One block: live cells, history, and the cells of gliders already recognised.
#[derive(Clone)]
pub struct Block {
    /// Live cells, one row each (bit x = column x).
    pub d: [u64; MAX_ROWS],
    /// History (cells alive at some generation of the separation run).
    pub hist: [u64; MAX_ROWS],
    /// Cells of recognised gliders.
    pub gl: [u64; MAX_ROWS],
}

impl Default for Block {
    fn default() -> Self {
        Block {
            d: [0; MAX_ROWS],
            hist: [0; MAX_ROWS],
            gl: [0; MAX_ROWS],
        }
    }
}

/// A cell of a cluster: where it is and whether it is alive (else history only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterCell {
    /// Column on the plane.
    pub x: i64,
    /// Row on the plane.
    pub y: i64,
    /// Alive now (not only in the history).
    pub alive: bool,
}

/// The grid of blocks.
pub struct Incubator {
    /// The blocks' (column, row) of blocks, in scanning order (column first).
    pub keys: Vec<(i64, i64)>,
    /// The blocks, in the same order.
    pub blocks: Vec<Block>,
    /// Rows of a block: twice a tile's own rows.
    pub rows: usize,
    /// The block last looked up (most lookups are in the same block).
    last: std::cell::Cell<usize>,
}

impl Incubator {
    /// The cells and history of every tile with live cells (counting each tile first, which
    /// can remove a lone glider as counting does).
    pub fn from_universe<const R: usize, L: RowRule>(u: &mut Universe<R, L>) -> Incubator {
        let h = R - 4;
        let mut blocks: BTreeMap<(i64, i64), Block> = BTreeMap::new();
        for t in 0..u.tiles.len() as u32 {
            if u.count_tile(t) == 0 {
                continue;
            }
            let tile = &u.tiles[t as usize];
            let (tx, tw) = tile.position();
            // The tile starts at column 14·(2tx − tw): a quarter of a block, or straddling two.
            let split = ((2 * tx - tw) & 3) == 3;
            for half in 0..=usize::from(split) {
                let mx = 2 * tx - tw + half as i64;
                let my = -tw;
                let (lx, ly) = (mx.rem_euclid(4), my.rem_euclid(2));
                let key = ((mx - lx) / 4, (my - ly) / 2);
                let block = blocks.entry(key).or_default();
                for i in 0..h {
                    let part = |row: u32| -> u64 {
                        let v = if half == 1 {
                            (row >> 16) & 0x3fff
                        } else {
                            (row >> 2) & if split { 0x3fff } else { 0x0fff_ffff }
                        };
                        u64::from(v) << (14 * lx)
                    };
                    block.d[i + h * ly as usize] |= part(tile.d[i + 2] & OWN);
                    block.hist[i + h * ly as usize] |= part(tile.hist[i + 2] & OWN);
                }
            }
        }
        let (keys, blocks) = blocks.into_iter().unzip();
        Incubator {
            keys,
            blocks,
            rows: 2 * h,
            last: std::cell::Cell::new(0),
        }
    }

    /// Where block `key` is in [`Self::blocks`].
    pub fn find(&self, key: (i64, i64)) -> Option<usize> {
        let last = self.last.get();
        if self.keys.get(last) == Some(&key) {
            return Some(last);
        }
        let i = self.keys.binary_search(&key).ok()?;
        self.last.set(i);
        Some(i)
    }

    /// Live cells still in the grid.
    pub fn population(&self) -> u64 {
        self.blocks
            .iter()
            .map(|b| b.d.iter().map(|r| u64::from(r.count_ones())).sum::<u64>())
            .sum()
    }

    /// 1 if (x, y) of block `key` is alive, 2 if only in the history, 0 else (also where
    /// the block does not exist).
    fn get(&self, key: (i64, i64), x: usize, y: usize) -> u8 {
        match self.find(key).map(|i| &self.blocks[i]) {
            Some(b) if b.d[y] >> x & 1 == 1 => 1,
            Some(b) if b.hist[y] >> x & 1 == 1 => 2,
            _ => 0,
        }
    }

    fn clear(&mut self, key: (i64, i64), x: usize, y: usize) {
        if let Some(i) = self.find(key) {
            let b = &mut self.blocks[i];
            b.d[y] &= !(1 << x);
            b.hist[y] &= !(1 << x);
        }
    }

    /// Take out the cluster holding live cell (x, y) of block `key`: every live or history
    /// cell reachable in steps of at most √5. Its cells at plane coordinates.
    pub fn take_cluster(&mut self, key: (i64, i64), x: usize, y: usize) -> Vec<ClusterCell> {
        let rows = self.rows as i64;
        let mut out = vec![ClusterCell {
            x: key.0 * W as i64 + x as i64,
            y: key.1 * rows + y as i64,
            alive: self.get(key, x, y) == 1,
        }];
        self.clear(key, x, y);
        let mut i = 0;
        while i < out.len() {
            let (ox, oy) = (out[i].x, out[i].y);
            for rx in -2..=2i64 {
                for ry in -2..=2i64 {
                    if rx * rx + ry * ry > 5 {
                        continue;
                    }
                    let (px, py) = (ox + rx, oy + ry);
                    let k = (px.div_euclid(W as i64), py.div_euclid(rows));
                    let (lx, ly) = (
                        px.rem_euclid(W as i64) as usize,
                        py.rem_euclid(rows) as usize,
                    );
                    let v = self.get(k, lx, ly);
                    if v > 0 {
                        self.clear(k, lx, ly);
                        out.push(ClusterCell {
                            x: px,
                            y: py,
                            alive: v == 1,
                        });
                    }
                }
            }
            i += 1;
        }
        out
    }
}

/// The common objects taken out on sight (apgsearch's "annoyances").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Common {
    /// xp2_7.
    Blinker,
    /// xs4_33.
    Block,
    /// xs6_696 standing upright.
    Beehive,
}

impl Block {
    fn near(&self, y: usize) -> u64 {
        self.d[y] | self.hist[y]
    }

    /// A lone block, blinker or upright beehive whose first cell is (x, y), removed.
    pub fn take_common(&mut self, rows: usize, x: usize, y: usize) -> Option<Common> {
        if x < 2 || y < 2 || x > W - 4 || y > rows - 4 {
            return None;
        }
        if self.d[y] >> (x + 1) & 1 == 1 {
            if self.d[y + 1] >> x & 1 == 1 {
                self.take_block(x, y)
            } else {
                self.take_blinker(rows, x + 1, y)
            }
        } else if self.d[y + 1] >> x & 1 == 1 {
            self.take_blinker(rows, x, y + 1)
        } else {
            self.take_beehive(rows, x, y)
        }
    }

    /// A blinker centred at (x, y) with nothing within its reach, either phase.
    fn take_blinker(&mut self, rows: usize, x: usize, y: usize) -> Option<Common> {
        if x < 3 || y < 3 || x > W - 4 || y > rows - 4 {
            return None;
        }
        let s = x - 3;
        if self.near(y) & (0b110_0011 << s) != 0
            || (self.near(y - 1) | self.near(y + 1)) & (0b011_0110 << s) != 0
            || (self.near(y - 2) | self.near(y + 2)) & (0b011_1110 << s) != 0
            || (self.near(y - 3) | self.near(y + 3)) & (0b000_1000 << s) != 0
        {
            return None;
        }
        self.d[y] &= !(7 << (x - 1));
        self.d[y - 1] &= !(1 << x);
        self.d[y + 1] &= !(1 << x);
        Some(Common::Blinker)
    }

    /// An upright beehive whose top cell is (x, y), alone.
    fn take_beehive(&mut self, rows: usize, x: usize, y: usize) -> Option<Common> {
        if x < 3 || y < 2 || x > W - 4 || y > rows - 6 {
            return None;
        }
        let s = x - 3;
        if (self.near(y + 1) | self.near(y + 2)) & (0b110_1011 << s) != 0
            || (self.near(y) | self.near(y + 3)) & (0b111_0111 << s) != 0
            || (self.near(y - 1) | self.near(y + 4)) & (0b011_1110 << s) != 0
            || (self.near(y - 2) | self.near(y + 5)) & (0b000_1000 << s) != 0
        {
            return None;
        }
        self.d[y] &= !(1 << x);
        self.d[y + 1] &= !(5 << (x - 1));
        self.d[y + 2] &= !(5 << (x - 1));
        self.d[y + 3] &= !(1 << x);
        Some(Common::Beehive)
    }

    /// A block whose top-left cell is (x, y), alone.
    fn take_block(&mut self, x: usize, y: usize) -> Option<Common> {
        let s = x - 2;
        if (self.near(y) | self.near(y + 1)) & (0b11_0011 << s) != 0
            || (self.near(y - 1) | self.near(y + 2)) & (0b11_1111 << s) != 0
            || (self.near(y - 2) | self.near(y + 3)) & (0b01_1110 << s) != 0
        {
            return None;
        }
        self.d[y] &= !(3 << x);
        self.d[y + 1] &= !(3 << x);
        Some(Common::Block)
    }

    /// Whether live cell (px, py) belongs to a glider standing alone (live cells only):
    /// marked the first time, so its other cells are passed over.
    pub fn is_glider(&mut self, rows: usize, px: usize, py: usize) -> bool {
        if self.gl[py] >> px & 1 == 1 {
            return true;
        }
        if px < 2 || py < 2 || px > W - 3 || py > rows - 5 {
            return false;
        }
        let (mut x, y) = (px, py + 1);
        let d = &self.d;
        if (d[y - 2] | d[y + 2]) & (31 << (x - 2)) != 0 {
            return false;
        }
        match ((d[y + 1] | d[y] | d[y - 1]) >> (x - 2)) & 31 {
            7 => x -= 1,
            14 => {}
            28 => x += 1,
            _ => return false,
        }
        if !(3..=W - 4).contains(&x) {
            return false;
        }
        let s = x - 3;
        if (d[y] | d[y - 1] | d[y + 1]) & (0b110_0011 << s) != 0
            || (d[y - 2] | d[y + 2]) & (0b111_1111 << s) != 0
            || (d[y - 3] | d[y + 3]) & (0b011_1100 << s) != 0
        {
            return false;
        }
        let row = |r: u64| ((r >> (x - 1)) & 7) as u32;
        if !is_glider_image(row(d[y - 1]), row(d[y]), row(d[y + 1])) {
            return false;
        }
        for r in y - 1..=y + 1 {
            self.gl[r] |= 7 << (x - 1);
        }
        true
    }
}
