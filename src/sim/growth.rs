//! How a growing world (Golly's unbounded Larger than Life, emulated as Golly does with a
//! grid that follows the pattern) is enlarged: about its centre, so every cell keeps its
//! plane coordinates, geometrically, so a pattern that keeps growing costs a logarithmic
//! number of copies.

use crate::world::MAX_EDGE;

/// Fewest generations a growing world of range `range` steps between checks of its
/// margins: below this the world is enlarged first, so the bounding-box scan is amortised
/// over several generations — 8 for small ranges, fewer for large ones, whose margins
/// (generations × r cells a side) would otherwise dwarf the pattern (1 at r = 500 and 2
/// above r = 341: Golly checks every generation).
pub fn min_batch(range: u64) -> u64 {
    (1024 / range.max(1)).clamp(1, 8)
}

/// The margin a growing world gives its live cells on each side when it grows: a minimum
/// batch and one more range.
fn margin(range: u64) -> u64 {
    (min_batch(range) + 1) * range
}

/// Golly's limit for its unbounded LtL grid: a billion cells.
pub const MAX_CELLS: u64 = 1_000_000_000;

/// One axis of a growing world's frame: its length now, and the occupied span
/// `[lo, lo + live)` in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axis {
    /// Cells along the axis.
    pub len: u64,
    /// First occupied cell.
    pub lo: u64,
    /// Occupied cells from `lo`.
    pub live: u64,
}

impl Axis {
    /// Cells between the occupied span and the nearer edge.
    pub fn room(&self) -> u64 {
        self.lo.min(self.len - self.lo - self.live)
    }
}

/// Where a growing world's axis moves when the room on one of its sides fell below
/// `limit` cells (the reach of [`min_batch`] generations of range `range`), as Golly's LtL
/// moves its grid: `(len, left)`, the new length and the old cell at the new frame's first
/// cell (negative: room added before). A side the pattern nears gets room; when only one
/// side is near (a spaceship, a puffer) the far side keeps just [`margin`], so a moving
/// pattern is followed instead of trailed by an ever longer grid. The length grows
/// geometrically (half as large again; following, at most twice what the pattern and both
/// margins need unless it is already longer), so a pattern that keeps growing costs a
/// logarithmic number of copies. `left` is even, so a triangular grid's cells keep their
/// orientation.
pub fn reframe(axis: Axis, limit: u64, range: u64) -> (u64, i64) {
    let hi_room = axis.len - axis.lo - axis.live;
    let (near_lo, near_hi) = (axis.lo < limit, hi_room < limit);
    if !near_lo && !near_hi {
        return (axis.len, 0);
    }
    let margin = margin(range);
    let need = axis.live + 2 * margin + 2;
    let grown = (axis.len + axis.len / 2).max(need);
    let (len, start) = if near_lo && near_hi {
        (grown, (grown - axis.live) / 2)
    } else {
        let len = grown.min((2 * need).max(axis.len));
        // The side behind keeps one margin; the side ahead gets the rest.
        let start = if near_lo {
            len - axis.live - margin - 1
        } else {
            margin + 1
        };
        (len, start)
    };
    let mut left = axis.lo as i64 - start as i64;
    if left % 2 != 0 {
        left -= 1;
    }
    (len, left)
}

/// An error past [`MAX_EDGE`] or [`MAX_CELLS`] for a growing world moving to `w × h`.
pub fn check_size(w: u64, h: u64) -> Result<(u32, u32), String> {
    if w > u64::from(MAX_EDGE) || h > u64::from(MAX_EDGE) || w * h > MAX_CELLS {
        return Err(format!(
            "the pattern outgrew the largest growing grid ({w}x{h} needed; at most {MAX_EDGE} a side and {MAX_CELLS} cells): stepping stopped, the world is kept"
        ));
    }
    Ok((w as u32, h as u32))
}

/// The first size of a growing world for a pattern of `width × height` under a rule of
/// range `range`: the pattern with the margin of [`reframe`] around it.
pub fn initial_size(width: u32, height: u32, range: u32) -> (u32, u32) {
    let margin = margin(u64::from(range)) as u32 + 1;
    let side = |n: u32| (n.saturating_add(2 * margin)).clamp(crate::world::MIN_EDGE, MAX_EDGE);
    (side(width), side(height))
}

/// A growing world for `pattern` under `rule` (Golly's unbounded Larger than Life): sized
/// by [`initial_size`], dead border, the pattern where Golly puts it on the plane (its
/// `#CXRLE Pos`, else its top-left cell at the origin), the grid's first cell at even plane
/// coordinates (a triangular grid's cell orientation is its plane parity, as in Golly).
pub fn world_for(
    pattern: &crate::pattern::Pattern,
    rule: crate::rule::Rule,
) -> Result<(crate::world::World, Option<String>), crate::world::WorldError> {
    let (w, h) = initial_size(pattern.width, pattern.height, rule.range());
    let mut world = crate::world::World::new(w, h, crate::world::Topology::DeadBorder, rule)?;
    world.grows = true;
    // Golly's reader puts a pattern without a position at the origin in an unbounded
    // universe (it centres one only in a bounded grid).
    let (px, py) = pattern.position.unwrap_or((0, 0));
    let even_below = |v: i64| v - v.rem_euclid(2);
    let origin = (
        even_below(px - i64::from((w - pattern.width.min(w)) / 2)),
        even_below(py - i64::from((h - pattern.height.min(h)) / 2)),
    );
    world.shift = (origin.0 + i64::from(w / 2), origin.1 + i64::from(h / 2));
    let at = crate::pattern::Placement::At {
        x: px - origin.0,
        y: py - origin.1,
    };
    let report = pattern.place(&mut world, at);
    world.generation = pattern.generation.unwrap_or(0);
    Ok((world, report.warning()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_a_moving_pattern_and_grows_a_growing_one() {
        let m = margin(5);
        // Nearing the high side only: the low side keeps one margin.
        let axis = Axis {
            len: 200,
            lo: 150,
            live: 20,
        };
        let (len, left) = reframe(axis, 8 * 5, 5);
        assert_eq!(left % 2, 0);
        let lo = (150 - left) as u64;
        assert!((m..=m + 2).contains(&lo), "{lo}");
        assert!(len - lo - 20 > m, "room ahead: {len}");
        assert!(len <= 2 * (20 + 2 * m + 2), "no longer than twice the need");
        // Nearing both: centred, half as large again.
        let axis = Axis {
            len: 100,
            lo: 5,
            live: 90,
        };
        let (len, left) = reframe(axis, 8 * 5, 5);
        assert!(len >= 90 + 2 * m + 2 && len >= 150);
        let lo = (5 - left) as u64;
        assert!(lo.abs_diff(len - lo - 90) <= 2, "centred");
        assert_eq!(reframe(axis, 5, 5), (100, 0));
        assert_eq!((min_batch(5), min_batch(100), min_batch(500)), (8, 8, 2));
        assert!(check_size(60_000, 60_000).is_err());
    }
}
