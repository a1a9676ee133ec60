//! Larger than Life on the host grid: every generation, row prefix sums of the state-1
//! cells ([`crate::rule::ltl::count::Counter`]), then each row band's next states from
//! them — the same code serially (`scalar`) and over row bands (`rayon`), so the two are
//! bit-identical. Ages and the decay states are kept as for Generations.
//!
//! On a dead-border grid only the window that can change is computed, as Golly's LtL
//! does: the box around every non-empty cell widened by r. Beyond it every cell is empty
//! with no live cell within reach, so it stays empty (B0 is emulated without births on
//! empty neighbourhoods); a sparse pattern in a large or growing grid costs its own size.

use rayon::prelude::*;

use super::{PaddedGrid, Parallelism};
use crate::rule::ltl::Ltl;
use crate::rule::ltl::count::{Counter, States};
use crate::world::Topology;

/// What a Larger than Life world keeps between `step` calls: the states as bytes, the
/// window's buffers and the counter's prefix rows (reused from generation to generation).
pub(super) struct LtlScratch {
    states: Vec<u8>,
    /// The box of non-empty cells of `states` (`[x0, x1, y0, y1]`), `None` when empty.
    occupied: Option<[usize; 4]>,
    window: Vec<u8>,
    next: Vec<u8>,
    counter: Counter,
}

/// The box `[x0, x1) × [y0, y1)` of non-empty cells of the `w`-wide `cells` (offset by
/// `at`: the box of a window at `(at.0, at.1)`); `None` when every cell is empty.
fn occupied_box(cells: &[u8], w: usize, at: (usize, usize)) -> Option<[usize; 4]> {
    let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
    for (y, row) in cells.chunks_exact(w).enumerate() {
        let Some(first) = row.iter().position(|&s| s != 0) else {
            continue;
        };
        let last = row.iter().rposition(|&s| s != 0).unwrap_or(first);
        (x0, x1) = (x0.min(first), x1.max(last + 1));
        (y0, y1) = (y0.min(y), y + 1);
    }
    (y0 != usize::MAX).then(|| [x0 + at.0, x1 + at.0, y0 + at.1, y1 + at.1])
}

impl PaddedGrid {
    /// `generations` generations of a Larger than Life rule.
    pub(super) fn step_ltl(
        &mut self,
        ltl: &Ltl,
        band: usize,
        parallelism: Parallelism,
        generations: u64,
    ) {
        let (w, h) = (self.world.width() as usize, self.world.height() as usize);
        let r = ltl.reach() as usize;
        let mut scratch = self.ltl.take().unwrap_or_else(|| LtlScratch {
            states: Vec::new(),
            occupied: None,
            window: Vec::new(),
            next: Vec::new(),
            counter: Counter::new(r, 1, 1),
        });
        if scratch.counter.range() != r {
            scratch.counter = Counter::new(r, 1, 1);
        }
        if self.ltl_stale || scratch.states.len() != w * h {
            // Loaded or edited since the last call: the world is the truth.
            scratch.states = self.world.states();
            scratch.occupied = occupied_box(&scratch.states, w, (0, 0));
            self.ltl_stale = false;
        }
        let shape = ltl.shape();
        let torus = self.world.topology == Topology::Torus;
        let age_max = self.world.rule().age_max();
        let parallel = parallelism == Parallelism::Bands;
        for _ in 0..generations {
            let odd = self.world.generation % 2 == 1;
            self.world.generation += 1;
            let window = if torus {
                scratch.occupied.map(|_| [0, w, 0, h])
            } else {
                scratch.occupied.map(|[x0, x1, y0, y1]| {
                    [
                        x0.saturating_sub(r),
                        (x1 + r).min(w),
                        y0.saturating_sub(r),
                        (y1 + r).min(h),
                    ]
                })
            };
            let Some([x0, x1, y0, y1]) = window else {
                continue; // an empty world stays empty
            };
            let (ww, wh) = (x1 - x0, y1 - y0);
            let whole = ww == w && wh == h;
            if !whole {
                scratch.window.clear();
                for y in y0..y1 {
                    scratch
                        .window
                        .extend_from_slice(&scratch.states[y * w + x0..y * w + x1]);
                }
            }
            let cells = if whole {
                &scratch.states
            } else {
                &scratch.window
            };
            let s = States {
                cells,
                width: ww,
                height: wh,
                torus,
                parity: (x0 + y0) % 2,
            };
            scratch.counter.fill(&shape, &s, parallel);
            scratch.next.resize(ww * wh, 0);
            let counter = &scratch.counter;
            let shape = &shape;
            let band = band.min(wh).max(1);
            if parallel {
                scratch
                    .next
                    .par_chunks_mut(ww * band)
                    .enumerate()
                    .for_each(|(i, out)| counter.next_rows(ltl, shape, &s, odd, i * band, out));
            } else {
                counter.next_rows(ltl, shape, &s, odd, 0, &mut scratch.next);
            }
            let (ages, dying) = self.world.cells_mut();
            // One world row: its window part takes the new states, ages and decay states.
            let next = &scratch.next;
            let update =
                |row: usize, old: &mut [u8], ages: &mut [u32], dying: Option<&mut [u8]>| {
                    let new = &next[row * ww..(row + 1) * ww];
                    let (old, ages) = (&mut old[x0..x1], &mut ages[x0..x1]);
                    for ((o, &n), age) in old.iter_mut().zip(new).zip(ages.iter_mut()) {
                        *age = match (*o, n) {
                            (1, 1) => age.saturating_add(1).min(age_max),
                            (_, 1) => 1,
                            _ => 0,
                        };
                        *o = n;
                    }
                    if let Some(dying) = dying {
                        for (d, &n) in dying[x0..x1].iter_mut().zip(new) {
                            *d = if n >= 2 { n } else { 0 };
                        }
                    }
                };
            if parallel {
                let rows = scratch.states.par_chunks_mut(w).zip(ages.par_chunks_mut(w));
                let rows = rows.enumerate().skip(y0).take(y1 - y0);
                if dying.is_empty() {
                    rows.for_each(|(y, (old, a))| update(y - y0, old, a, None));
                } else {
                    rows.zip(dying.par_chunks_mut(w).skip(y0))
                        .for_each(|((y, (old, a)), d)| update(y - y0, old, a, Some(d)));
                }
            } else {
                let mut dying_rows = dying.chunks_mut(w).skip(y0);
                let rows = scratch.states.chunks_mut(w).zip(ages.chunks_mut(w));
                for (y, (old, a)) in rows.enumerate().skip(y0).take(y1 - y0) {
                    update(y - y0, old, a, dying_rows.next());
                }
            }
            scratch.occupied = occupied_box(&scratch.next, ww, (x0, y0));
        }
        self.ltl = Some(scratch);
    }
}
