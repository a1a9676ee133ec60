//! The von Neumann diamond in O(1) per cell: prefix sums of state-1 cells along both
//! diagonals, restarted every `band` rows, then a running diamond sum down each column
//! (the upper edge of the diamond leaving, the lower edge entering: four diagonal runs a
//! row). The CPU port of `shaders/life/ltl_diagonal.wgsl` and the count pass's mode 3,
//! with the same run arithmetic across band restarts, so a mistake in either shows on the
//! CPU too (its bands are longer than the GPU's: [`band_rows`]).
//!
//! The sums cover the extended grid: the world with r more rows and columns on each side
//! (wrapped or dead), extended `(xe, ye)` being world `(xe − r, ye − r)`.

use rayon::prelude::*;

use super::count::States;

/// Diagonal sums of one generation.
#[derive(Default)]
pub struct Diagonals {
    r: usize,
    ext_w: usize,
    band: usize,
    /// Down-right sums: `main[ye·ext_w + xe]` counts the diagonal's cells from the first row
    /// of `ye`'s band to `(xe, ye)`.
    main: Vec<u16>,
    /// Down-left sums, likewise.
    anti: Vec<u16>,
}

/// Rows after which the GPU's diagonal sums restart: a power of two (the band arithmetic is
/// masks and shifts), at least as long as any run the count reads (r + 1 rows), and 8 at
/// least. As short as that allows: a GPU thread walks one band, so short bands keep many
/// short walks in flight (docs/experiments/ltl-diamond.md: r = 5 with bands of 8 rows instead of 64,
/// +19 %).
pub fn band_rows(r: usize) -> usize {
    (r + 1).next_power_of_two().max(8)
}

/// The CPU port's bands: the GPU's, but 64 rows at least. A core walks many bands, so
/// longer bands only save the count's reads across restarts (8-row bands cost rayon 6 % at
/// r = 5); the band arithmetic is the same at any length.
fn cpu_band_rows(r: usize) -> usize {
    band_rows(r).max(64)
}

impl Diagonals {
    /// The sums of `s` at range `r`, band by band (over every core when `parallel`).
    pub fn fill(&mut self, s: &States, r: usize, parallel: bool) {
        let (ext_w, ext_h) = (s.width + 2 * r, s.height + 2 * r);
        let band = cpu_band_rows(r);
        (self.r, self.ext_w, self.band) = (r, ext_w, band);
        self.main.resize(ext_w * ext_h, 0);
        self.anti.resize(ext_w * ext_h, 0);
        let fill_band = |(b, (main, anti)): (usize, (&mut [u16], &mut [u16]))| {
            let mut live = vec![0u16; ext_w];
            for i in 0..main.len() / ext_w {
                extended_row(s, r, (b * band + i) as i64 - r as i64, &mut live);
                let (done_main, main) = main.split_at_mut(i * ext_w);
                let (done_anti, anti) = anti.split_at_mut(i * ext_w);
                let (main, anti) = (&mut main[..ext_w], &mut anti[..ext_w]);
                main.copy_from_slice(&live);
                anti.copy_from_slice(&live);
                if i > 0 {
                    let above = (i - 1) * ext_w..i * ext_w;
                    let (up_main, up_anti) = (&done_main[above.clone()], &done_anti[above]);
                    for (m, &u) in main[1..].iter_mut().zip(up_main) {
                        *m += u;
                    }
                    for (a, &u) in anti.iter_mut().zip(&up_anti[1..]) {
                        *a += u;
                    }
                }
            }
        };
        let chunk = band * ext_w;
        if parallel {
            self.main
                .par_chunks_mut(chunk)
                .zip(self.anti.par_chunks_mut(chunk))
                .enumerate()
                .for_each(fill_band);
        } else {
            self.main
                .chunks_mut(chunk)
                .zip(self.anti.chunks_mut(chunk))
                .enumerate()
                .for_each(fill_band);
        }
    }

    /// Adds `sign` × the state-1 cells of the diagonal run from extended cell
    /// `(x + dx, top)` down to row `bottom` (down-left when `anti`, else down-right; fewer
    /// than `band` rows) into `counts[x]`, for every x at once: the sum at the run's
    /// bottom, less the sum above its top in the same band, plus the sum that ended the
    /// band before when the run crosses a restart — each read a slice of one row.
    fn add_runs(
        &self,
        anti: bool,
        dx: isize,
        (top, bottom): (usize, usize),
        counts: &mut [i32],
        sign: i32,
    ) {
        let sums = if anti { &self.anti } else { &self.main };
        // Row y of the sums, read from column x + dx + the run's drift down to y.
        let add = |counts: &mut [i32], y: usize, drift: isize, sign: i32| {
            let row = &sums[y * self.ext_w..(y + 1) * self.ext_w];
            let off = dx + if anti { -drift } else { drift };
            // Columns beyond the grid's sides read 0 (a diagonal starts there).
            let first = (-off).max(0) as usize;
            let last = (self.ext_w as isize - off).clamp(0, counts.len() as isize) as usize;
            if first >= last {
                return;
            }
            let from = (first as isize + off) as usize;
            for (c, &v) in counts[first..last].iter_mut().zip(&row[from..]) {
                *c += sign * i32::from(v);
            }
        };
        add(counts, bottom, (bottom - top) as isize, sign);
        if !top.is_multiple_of(self.band) {
            add(counts, top - 1, -1, -sign);
        }
        if top / self.band != bottom / self.band {
            let end = bottom / self.band * self.band - 1;
            add(counts, end, (end - top) as isize, sign);
        }
    }

    /// The diamonds about every cell of world row `y` into `counts` (zeroed first): one
    /// down-left run per `u = dx + dy`.
    pub fn diamonds(&self, y: usize, counts: &mut [i32]) {
        counts.fill(0);
        let r = self.r as isize;
        let ye = (y + self.r) as isize;
        for u in -r..=r {
            // dx − dy = v, |v| ≤ r, v ≡ u (mod 2): rows ye + (u − v_max)/2 ..= ye + (u + v_max)/2.
            let v_max = r - (r - u) % 2;
            let (top, bottom) = (ye + (u - v_max) / 2, ye + (u + v_max) / 2);
            // The run's top cell, extended: x + r + dx with dx = u − (top − ye).
            let dx = r + u - (top - ye);
            self.add_runs(true, dx, (top as usize, bottom as usize), counts, 1);
        }
    }

    /// Every diamond of world row `y` from those of row `y − 1` in `counts`: the lower
    /// edge of the new diamonds entering, the upper edge of the old ones leaving (four
    /// runs of each cell, read a row at a time).
    pub fn slide(&self, y: usize, counts: &mut [i32]) {
        let r = self.r as isize;
        let ye = y + self.r;
        let (up, low) = (ye - 1 - self.r, ye + self.r);
        // Extended x of world x is x + r: the runs' tops sit at x + r (+ 1), x and x + 2r.
        self.add_runs(true, r, (up, ye - 1), counts, -1);
        self.add_runs(false, r + 1, (up + 1, ye - 1), counts, -1);
        self.add_runs(false, 0, (ye, low), counts, 1);
        self.add_runs(true, 2 * r, (ye, low - 1), counts, 1);
    }
}

/// Extended row `y` (a world row, any integer) of `s` as 0/1 per cell: r cells left of
/// the world, the row, r cells right (wrapped or dead).
fn extended_row(s: &States, r: usize, y: i64, out: &mut [u16]) {
    let h = s.height as i64;
    let y = if s.torus {
        y.rem_euclid(h)
    } else if (0..h).contains(&y) {
        y
    } else {
        out.fill(0);
        return;
    };
    let w = s.width;
    let row = &s.cells[y as usize * w..(y as usize + 1) * w];
    for (j, o) in out.iter_mut().enumerate() {
        let x = j as i64 - r as i64;
        *o = if (0..w as i64).contains(&x) {
            u16::from(row[x as usize] == 1)
        } else {
            u16::from(s.torus && row[x.rem_euclid(w as i64) as usize] == 1)
        };
    }
}
