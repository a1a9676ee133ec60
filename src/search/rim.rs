//! What the tiled plane ([`super::tiles::Universe`]) tells: its population, counted tile
//! by tile when stale, which is when apgsearch removes a lone glider flying off the rim (a
//! tile holding only it, well inside, at the plane's outermost reach in the direction it
//! flies); its hash; its cells and history.

use super::tile::{OWN, RowRule};
use super::tiles::{K, Universe, W};

impl<const R: usize, L: RowRule> Universe<R, L> {
    /// Which rim directions tile `t` lies on (masked by [`Self::extremal_mask`]).
    fn rim(&self, coords: u64) -> u8 {
        let (xpy, xmy) = self.diagonals(coords);
        let mut ext = 0;
        if xpy >= self.max_xpy {
            ext |= 1;
        }
        if xpy <= self.min_xpy {
            ext |= 2;
        }
        if xmy >= self.max_xmy {
            ext |= 4;
        }
        if xmy <= self.min_xmy {
            ext |= 8;
        }
        ext & self.extremal_mask
    }

    /// Tile `t`'s population, recounted if stale; a lone glider flying off the rim is
    /// removed then (the running total keeps its cells).
    pub fn count_tile(&mut self, t: u32) -> i32 {
        let ti = t as usize;
        if self.tiles[ti].current_flags & 1 == 0 {
            return self.tiles[ti].population;
        }
        let pop = self.tiles[ti].count();
        self.population += i64::from(pop - self.tiles[ti].population);
        let tile = &mut self.tiles[ti];
        tile.population = pop;
        tile.current_flags &= !1;
        if pop != 5 || self.extremal_mask == 0 {
            return pop;
        }
        let ext = self.rim(self.tiles[ti].coords);
        let tile = &mut self.tiles[ti];
        if ext == 0 || tile.near_edge() {
            return pop;
        }
        if let Some(row) = tile.lone_glider(ext) {
            tile.d[row..row + 3].fill(0);
            tile.population = 0;
            self.glider_count += 1;
            return 0;
        }
        pop
    }

    /// The running population (see [`Self::count_tile`]).
    pub fn total_population(&mut self) -> i64 {
        let mut changed = std::mem::take(&mut self.pop_changed);
        for &t in &changed {
            self.count_tile(t);
        }
        changed.clear();
        self.pop_changed = changed;
        self.population
    }

    /// Whether the running population is not zero.
    pub fn nonempty(&mut self) -> bool {
        self.total_population() != 0
    }

    /// apgsearch's hash of the plane: its tiles within `radius` tiles of the origin.
    pub fn total_hash(&mut self, radius: i64) -> u64 {
        let mut global = 0u64;
        for tile in &mut self.tiles {
            let (tx, tw) = tile.position();
            if tx * tx + tw * tw - tx * tw < radius * radius {
                let h = u64::from(tile.tile_hash());
                global = global.wrapping_add(h.wrapping_mul(tile.coords ^ 3_141_592_653_589_793));
            }
        }
        global
    }

    /// Forget all history.
    pub fn clear_history(&mut self) {
        for tile in &mut self.tiles {
            tile.hist = [0; R];
        }
    }

    /// The live cells (own rows and columns) at plane coordinates.
    pub fn cells(&self) -> Vec<(i64, i64)> {
        self.plane(false)
    }

    /// The cells of the history at plane coordinates.
    pub fn history(&self) -> Vec<(i64, i64)> {
        self.plane(true)
    }

    fn plane(&self, history: bool) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for tile in &self.tiles {
            let (tx, tw) = tile.position();
            let (x0, y0) = (tx * W - tw * (W / 2), -tw * Self::H);
            let rows = if history { &tile.hist } else { &tile.d };
            for (y, &row) in rows[K..R - K].iter().enumerate() {
                let mut bits = row & OWN;
                while bits != 0 {
                    let b = i64::from(bits.trailing_zeros());
                    out.push((x0 + b - K as i64, y0 + y as i64));
                    bits &= bits - 1;
                }
            }
        }
        out
    }
}
