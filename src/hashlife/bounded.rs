//! Bounded grids run hashed, as Golly runs them on HashLife: one generation at a time, the
//! grid `[0, width) × [0, height)` held in the plane. A torus first copies each edge into a
//! one-cell ring beyond the opposite edge (corners diagonally), so the cells along the edges
//! see their wrapped neighbours; a dead border copies nothing. After the generation every
//! cell outside the grid — the ring and whatever was born next to it — is cleared. Exact,
//! cell for cell, to the grid strategies; the cost per generation is the grid's edges plus
//! the hashed step, which memoises whatever repeats inside.

use super::{HashError, HashUniverse, Rect};
use crate::world::Topology;

impl HashUniverse {
    /// Step one generation of the `width × height` grid of `topology` whose cells lie at
    /// `[0, width) × [0, height)`.
    pub fn step_bounded(
        &mut self,
        width: u32,
        height: u32,
        topology: Topology,
    ) -> Result<(), HashError> {
        let (w, h) = (i128::from(width), i128::from(height));
        if topology == Topology::Torus {
            let row = |y| Rect {
                x0: 0,
                y0: y,
                x1: w - 1,
                y1: y,
            };
            let column = |x| Rect {
                x0: x,
                y0: 0,
                x1: x,
                y1: h - 1,
            };
            let mut ring: Vec<(i128, i128)> = Vec::new();
            ring.extend(self.cells_in(row(h - 1)).into_iter().map(|(x, _)| (x, -1)));
            ring.extend(self.cells_in(row(0)).into_iter().map(|(x, _)| (x, h)));
            ring.extend(
                self.cells_in(column(w - 1))
                    .into_iter()
                    .map(|(_, y)| (-1, y)),
            );
            ring.extend(self.cells_in(column(0)).into_iter().map(|(_, y)| (w, y)));
            for (from, to) in [
                ((w - 1, h - 1), (-1, -1)),
                ((0, h - 1), (w, -1)),
                ((w - 1, 0), (-1, h)),
                ((0, 0), (w, h)),
            ] {
                if self.get(from.0, from.1) {
                    ring.push(to);
                }
            }
            for (x, y) in ring {
                self.set(x, y, true)?;
            }
        }
        self.step_pow2(0)?;
        // Births reach at most one cell beyond the ring: clear two-cell strips on each side.
        let strips = [
            Rect {
                x0: -2,
                y0: -2,
                x1: w + 1,
                y1: -1,
            },
            Rect {
                x0: -2,
                y0: h,
                x1: w + 1,
                y1: h + 1,
            },
            Rect {
                x0: -2,
                y0: 0,
                x1: -1,
                y1: h - 1,
            },
            Rect {
                x0: w,
                y0: 0,
                x1: w + 1,
                y1: h - 1,
            },
        ];
        for strip in strips {
            for (x, y) in self.cells_in(strip) {
                self.set(x, y, false)?;
            }
        }
        Ok(())
    }
}
