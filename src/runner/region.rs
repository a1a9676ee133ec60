//! Operations on a rectangular selection of a world: clear, random fill, rotate, flip, copy.

use serde::{Deserialize, Serialize};

use crate::pattern::{Pattern, Placement};
use crate::world::{CellEdit, World, WorldError};

/// A rectangle of cells, `x..x + width` × `y..y + height`, inside the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Region {
    /// The region spanned by two corner cells (inclusive), clipped to a `w × h` world.
    pub fn from_corners(a: (i64, i64), b: (i64, i64), w: u32, h: u32) -> Option<Region> {
        let clamp_x = |v: i64| v.clamp(0, i64::from(w) - 1) as u32;
        let clamp_y = |v: i64| v.clamp(0, i64::from(h) - 1) as u32;
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        if x1 < 0 || y1 < 0 || x0 >= i64::from(w) || y0 >= i64::from(h) {
            return None;
        }
        let (x0, x1, y0, y1) = (clamp_x(x0), clamp_x(x1), clamp_y(y0), clamp_y(y1));
        Some(Region {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        })
    }

    /// Whether cell `(x, y)` lies inside.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        (self.x..self.x + self.width).contains(&x) && (self.y..self.y + self.height).contains(&y)
    }
}

/// A rectangle the user selected, in view coordinates (grid cells on a grid, plane
/// coordinates on the unbounded plane), inclusive corners, not clipped: the universe
/// clips it ([`Selection::in_grid`]) or takes it as it is (the plane).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Left column.
    pub x0: i64,
    /// Top row.
    pub y0: i64,
    /// Right column (inclusive).
    pub x1: i64,
    /// Bottom row (inclusive).
    pub y1: i64,
}

impl Selection {
    /// The rectangle spanned by two corner cells (inclusive), in any order.
    pub fn from_corners(a: (i64, i64), b: (i64, i64)) -> Selection {
        Selection {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
        }
    }

    /// Columns (a 64-bit count: a plane selection may be wider than any grid).
    pub fn width(&self) -> u64 {
        self.x1.abs_diff(self.x0) + 1
    }

    /// Rows.
    pub fn height(&self) -> u64 {
        self.y1.abs_diff(self.y0) + 1
    }

    /// Its part inside a `w × h` grid (`None` when it misses the grid).
    pub fn in_grid(&self, w: u32, h: u32) -> Option<Region> {
        Region::from_corners((self.x0, self.y0), (self.x1, self.y1), w, h)
    }

    /// The selection covering a grid region.
    pub fn of_region(r: Region) -> Selection {
        Selection {
            x0: r.x.into(),
            y0: r.y.into(),
            x1: i64::from(r.x) + i64::from(r.width) - 1,
            y1: i64::from(r.y) + i64::from(r.height) - 1,
        }
    }
}

/// The smallest region holding every live cell of `world` (`None` when it is empty): what
/// "Fit pattern" frames. A host scan of the ages (~50 ms at 8192² here); a GPU strategy could
/// answer it with a min/max reduction over its chunks instead of a read-back, next to its
/// statistics reduction.
pub fn live_bounds(world: &World) -> Option<Region> {
    world.live_box().map(|(x, y, width, height)| Region {
        x,
        y,
        width,
        height,
    })
}

/// What to do to a selection.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum RegionOp {
    /// Kill every cell.
    Clear,
    /// Replace the contents with a random soup of `density` percent.
    RandomFill {
        /// Percent of live cells.
        density: f64,
        /// Soup seed.
        seed: u64,
    },
    /// Quarter turn clockwise about the selection's centre.
    RotateCw,
    /// Mirror left-right.
    FlipX,
    /// Mirror top-bottom.
    FlipY,
}

/// The live cells of `region` as a pattern (for copy and cut).
pub fn copy(world: &World, region: Region) -> Pattern {
    Pattern::from_region(world, region.x, region.y, region.width, region.height)
}

/// `world` with `op` applied to `region`. Live cells that keep living where they are keep
/// their ages; moved cells (rotate, flip) become newborn, like pasted ones.
pub fn apply(world: &World, region: Region, op: RegionOp) -> Result<World, WorldError> {
    let mut next = world.clone();
    let clear = |w: &mut World| {
        for y in region.y..region.y + region.height {
            for x in region.x..region.x + region.width {
                w.apply_edit(CellEdit { x, y, alive: false });
            }
        }
    };
    match op {
        RegionOp::Clear => clear(&mut next),
        RegionOp::RandomFill { density, seed } => {
            let mut soup = World::blank(
                region.width.max(3),
                region.height.max(3),
                world.topology,
                world.rule(),
            )?;
            soup.fill_random(density, seed)?;
            for y in 0..region.height {
                for x in 0..region.width {
                    next.apply_edit(CellEdit {
                        x: region.x + x,
                        y: region.y + y,
                        alive: soup.is_alive(x, y),
                    });
                }
            }
        }
        RegionOp::RotateCw | RegionOp::FlipX | RegionOp::FlipY => {
            let pattern = copy(world, region);
            let moved = match op {
                RegionOp::RotateCw => pattern.rotated_cw(),
                RegionOp::FlipX => pattern.flipped_x(),
                _ => pattern.flipped_y(),
            };
            clear(&mut next);
            let cx = i64::from(region.x) + i64::from(region.width) / 2;
            let cy = i64::from(region.y) + i64::from(region.height) / 2;
            let x = cx - i64::from(moved.width) / 2;
            let y = cy - i64::from(moved.height) / 2;
            moved.place(&mut next, Placement::At { x, y });
        }
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;
    use crate::world::Topology;

    fn world_with(cells: &[(u32, u32)]) -> World {
        let mut w = World::new(12, 10, Topology::Torus, Rule::CONWAY).unwrap();
        for &(x, y) in cells {
            w.apply_edit(CellEdit { x, y, alive: true });
        }
        w
    }

    fn live(w: &World) -> Vec<(u32, u32)> {
        (0..w.height())
            .flat_map(|y| (0..w.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| w.is_alive(x, y))
            .collect()
    }

    #[test]
    fn corners_in_any_order_give_the_same_clipped_region() {
        let r = Region::from_corners((5, 7), (-3, 2), 12, 10).unwrap();
        assert_eq!(
            r,
            Region {
                x: 0,
                y: 2,
                width: 6,
                height: 6
            }
        );
        assert_eq!(Region::from_corners((20, 20), (30, 30), 12, 10), None);
    }

    #[test]
    fn clear_only_touches_the_region() {
        let w = world_with(&[(1, 1), (5, 5), (9, 9)]);
        let r = Region {
            x: 4,
            y: 4,
            width: 3,
            height: 3,
        };
        assert_eq!(
            live(&apply(&w, r, RegionOp::Clear).unwrap()),
            vec![(1, 1), (9, 9)]
        );
    }

    #[test]
    fn rotating_a_horizontal_blinker_makes_it_vertical_in_place() {
        let w = world_with(&[(4, 5), (5, 5), (6, 5)]);
        let r = Region {
            x: 4,
            y: 4,
            width: 3,
            height: 3,
        };
        let turned = apply(&w, r, RegionOp::RotateCw).unwrap();
        assert_eq!(live(&turned), vec![(5, 4), (5, 5), (5, 6)]);
    }

    #[test]
    fn flips_mirror_within_the_region() {
        let w = world_with(&[(4, 4), (4, 5)]);
        let r = Region {
            x: 4,
            y: 4,
            width: 3,
            height: 2,
        };
        assert_eq!(
            live(&apply(&w, r, RegionOp::FlipX).unwrap()),
            vec![(6, 4), (6, 5)]
        );
        let w = world_with(&[(4, 4), (5, 4)]);
        assert_eq!(
            live(&apply(&w, r, RegionOp::FlipY).unwrap()),
            vec![(4, 5), (5, 5)]
        );
    }

    #[test]
    fn random_fill_stays_inside_and_is_seeded() {
        let w = world_with(&[(0, 0)]);
        let r = Region {
            x: 2,
            y: 2,
            width: 6,
            height: 5,
        };
        let op = RegionOp::RandomFill {
            density: 50.0,
            seed: 3,
        };
        let a = apply(&w, r, op).unwrap();
        assert_eq!(a, apply(&w, r, op).unwrap());
        assert!(
            live(&a)
                .iter()
                .all(|&(x, y)| (x, y) == (0, 0) || r.contains(x, y))
        );
        assert!(live(&a).len() > 5);
    }
}
