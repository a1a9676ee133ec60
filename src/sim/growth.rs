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

/// The size a growing world of `size` holding live cells spanning `live` moves to when
/// the margins of the axes in `short` fall below [`min_batch`] generations of range-`range`
/// growth: each such side at least half as large again and with twice [`margin`] around the
/// live cells, kept even so the centre stays put; an error past [`MAX_EDGE`] or
/// [`MAX_CELLS`].
pub fn grown_size(
    size: (u64, u64),
    live: (u64, u64),
    short: (bool, bool),
    range: u64,
) -> Result<(u32, u32), String> {
    let margin = margin(range);
    let side = |now: u64, live: u64, short: bool| {
        if !short {
            return now;
        }
        let want = (now + now / 2).max(live + 2 * margin + 2);
        want + (want - now) % 2
    };
    let (w, h) = (side(size.0, live.0, short.0), side(size.1, live.1, short.1));
    if w > u64::from(MAX_EDGE) || h > u64::from(MAX_EDGE) || w * h > MAX_CELLS {
        return Err(format!(
            "the pattern outgrew the largest growing grid ({w}x{h} needed; at most {MAX_EDGE} a side and {MAX_CELLS} cells): stepping stopped, the world is kept"
        ));
    }
    Ok((w as u32, h as u32))
}

/// The first size of a growing world for a pattern of `width × height` under a rule of
/// range `range`: the pattern with the margin of [`grown_size`] around it.
pub fn initial_size(width: u32, height: u32, range: u32) -> (u32, u32) {
    let margin = margin(u64::from(range)) as u32 + 1;
    let side = |n: u32| (n.saturating_add(2 * margin)).clamp(crate::world::MIN_EDGE, MAX_EDGE);
    (side(width), side(height))
}

/// A growing world for `pattern` under `rule` (Golly's unbounded Larger than Life): sized
/// by [`initial_size`], dead border, the pattern centred.
pub fn world_for(
    pattern: &crate::pattern::Pattern,
    rule: crate::rule::Rule,
) -> Result<(crate::world::World, Option<String>), crate::world::WorldError> {
    let (w, h) = initial_size(pattern.width, pattern.height, rule.range());
    let mut world = crate::world::World::new(w, h, crate::world::Topology::DeadBorder, rule)?;
    world.grows = true;
    let report = pattern.place(&mut world, crate::pattern::Placement::Centred);
    world.generation = pattern.generation.unwrap_or(0);
    Ok((world, report.warning()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_evenly_and_geometrically() {
        let (w, h) = grown_size((100, 60), (90, 10), (true, false), 5).unwrap();
        assert_eq!((w - 100) % 2, 0);
        assert!(w >= 90 + 2 * 9 * 5);
        assert_eq!(h, 60, "an axis with room keeps its size");
        let (_, h) = grown_size((100, 60), (90, 10), (true, true), 5).unwrap();
        assert_eq!(
            h,
            10 + 2 * 9 * 5 + 2,
            "the margin beats half as large again"
        );
        assert_eq!((min_batch(5), min_batch(100), min_batch(500)), (8, 8, 2));
        assert!(grown_size((60_000, 60_000), (59_000, 10), (true, false), 5).is_err());
    }
}
