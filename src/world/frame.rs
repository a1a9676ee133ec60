//! Where a world's cells lie: the boxes that hold its live and occupied cells, and new
//! frames of the same cells (resized about the centre, or moved as a growing world follows
//! its pattern) that keep every cell's plane coordinates ([`World::plane_origin`]).

use super::{World, WorldError};

impl World {
    /// The smallest box `(x, y, width, height)` holding every live cell (`None` when none
    /// is alive): a host scan of the ages, what "Fit pattern" frames.
    pub fn live_box(&self) -> Option<(u32, u32, u32, u32)> {
        let width = self.width as usize;
        let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
        for (y, row) in self.ages.chunks_exact(width.max(1)).enumerate() {
            let Some(first) = row.iter().position(|&a| a != 0) else {
                continue;
            };
            let last = row.iter().rposition(|&a| a != 0).unwrap_or(first);
            (x0, x1) = (x0.min(first), x1.max(last));
            (y0, y1) = (y0.min(y), y);
        }
        (y0 != usize::MAX).then(|| {
            (
                x0 as u32,
                y0 as u32,
                (x1 - x0 + 1) as u32,
                (y1 - y0 + 1) as u32,
            )
        })
    }

    /// The smallest box `(x, y, width, height)` holding every live and dying cell (`None`
    /// when all are dead): what a saved pattern holds and what a growing world must keep
    /// (a dying cell never moves, but cropping it would lose it).
    pub fn occupied_box(&self) -> Option<(u32, u32, u32, u32)> {
        let width = (self.width as usize).max(1);
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        let mut extend = |y: usize, first: Option<usize>, last: Option<usize>| {
            if let (Some(first), Some(last)) = (first, last) {
                (x0, y0, x1, y1) = (x0.min(first), y0.min(y), x1.max(last), y1.max(y));
            }
        };
        for (y, row) in self.ages.chunks(width).enumerate() {
            extend(
                y,
                row.iter().position(|&a| a > 0),
                row.iter().rposition(|&a| a > 0),
            );
        }
        for (y, row) in self.dying.chunks(width).enumerate() {
            extend(
                y,
                row.iter().position(|&d| d > 0),
                row.iter().rposition(|&d| d > 0),
            );
        }
        (x0 != usize::MAX).then(|| {
            (
                x0 as u32,
                y0 as u32,
                (x1 - x0 + 1) as u32,
                (y1 - y0 + 1) as u32,
            )
        })
    }

    /// A new world of another size holding this one's cells centred (cells that do not fit
    /// are cropped symmetrically); rule, topology, generation and plane positions are kept.
    pub fn resized(&self, width: u32, height: u32) -> Result<World, WorldError> {
        let dx = (i64::from(width) - i64::from(self.width)) / 2;
        let dy = (i64::from(height) - i64::from(self.height)) / 2;
        self.reframed(-dx, -dy, width, height)
    }

    /// A new `width × height` world whose cell `(x, y)` is this one's `(x + left, y + top)`
    /// (cells outside it are cropped): the frame a growing world moves to, wider where its
    /// pattern heads and narrower behind it. Rule, topology, generation and every cell's
    /// plane position ([`World::plane_origin`]) are kept.
    pub fn reframed(
        &self,
        left: i64,
        top: i64,
        width: u32,
        height: u32,
    ) -> Result<World, WorldError> {
        let mut out = World::new(width, height, self.topology, self.rule)?;
        out.generation = self.generation;
        out.grows = self.grows;
        let (old, new) = (self.plane_origin(), (left, top));
        out.shift = (
            old.0 + new.0 + i64::from(width / 2),
            old.1 + new.1 + i64::from(height / 2),
        );
        let w = self.width as usize;
        for ny in 0..height {
            let y = i64::from(ny) + top;
            if !(0..i64::from(self.height)).contains(&y) {
                continue;
            }
            // The overlap of this row with the new frame, as one slice copy.
            let x0 = left.max(0);
            let x1 = (left + i64::from(width)).min(i64::from(self.width));
            if x0 >= x1 {
                continue;
            }
            let (src, dst) = (
                y as usize * w + x0 as usize,
                ny as usize * width as usize + (x0 - left) as usize,
            );
            let len = (x1 - x0) as usize;
            out.ages[dst..dst + len].copy_from_slice(&self.ages[src..src + len]);
            if !self.dying.is_empty() && !out.dying.is_empty() {
                out.dying[dst..dst + len].copy_from_slice(&self.dying[src..src + len]);
            }
        }
        Ok(out)
    }

    /// Golly's plane coordinates of grid cell `(0, 0)`: a bounded grid's centre is the
    /// plane's origin (top-left `(−(width/2), −(height/2))`), moved by [`World::shift`].
    pub fn plane_origin(&self) -> (i64, i64) {
        (
            self.shift.0 - i64::from(self.width / 2),
            self.shift.1 - i64::from(self.height / 2),
        )
    }
}
