//! Bounded grids run hashed, as Golly runs them on HashLife: one generation at a time, the
//! grid held in the plane at the rectangle `frame`. A torus first copies each edge into a
//! one-cell ring beyond the opposite edge (corners diagonally), so the cells along the edges
//! see their wrapped neighbours; a dead border copies nothing. After the generation every
//! cell outside the grid — the ring and whatever was born next to it — is cleared. Exact,
//! cell for cell, to the grid strategies; the cost per generation is the grid's edges plus
//! the hashed step, which memoises whatever repeats inside.

use super::{HashError, HashUniverse, Rect};
use crate::world::Topology;

impl HashUniverse {
    /// Step one generation of the grid of `topology` whose cells fill `frame`.
    pub fn step_bounded_at(&mut self, frame: Rect, topology: Topology) -> Result<(), HashError> {
        let Rect { x0, y0, x1, y1 } = frame;
        if topology == Topology::Torus {
            let row = |y| Rect {
                x0,
                y0: y,
                x1,
                y1: y,
            };
            let column = |x| Rect {
                x0: x,
                y0,
                x1: x,
                y1,
            };
            let mut ring: Vec<(i128, i128)> = Vec::new();
            ring.extend(self.cells_in(row(y1)).into_iter().map(|(x, _)| (x, y0 - 1)));
            ring.extend(self.cells_in(row(y0)).into_iter().map(|(x, _)| (x, y1 + 1)));
            ring.extend(
                self.cells_in(column(x1))
                    .into_iter()
                    .map(|(_, y)| (x0 - 1, y)),
            );
            ring.extend(
                self.cells_in(column(x0))
                    .into_iter()
                    .map(|(_, y)| (x1 + 1, y)),
            );
            for (from, to) in [
                ((x1, y1), (x0 - 1, y0 - 1)),
                ((x0, y1), (x1 + 1, y0 - 1)),
                ((x1, y0), (x0 - 1, y1 + 1)),
                ((x0, y0), (x1 + 1, y1 + 1)),
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
                x0: x0 - 2,
                y0: y0 - 2,
                x1: x1 + 2,
                y1: y0 - 1,
            },
            Rect {
                x0: x0 - 2,
                y0: y1 + 1,
                x1: x1 + 2,
                y1: y1 + 2,
            },
            Rect {
                x0: x0 - 2,
                y0,
                x1: x0 - 1,
                y1,
            },
            Rect {
                x0: x1 + 1,
                y0,
                x1: x1 + 2,
                y1,
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
