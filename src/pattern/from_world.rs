//! Patterns from worlds: the live cells' bounding box, a selected region, and the whole
//! world with its size, topology, generation and the cells' position, for saving.

use super::{Grid, Pattern};
use crate::world::World;

/// The inclusive box `(x0, y0, x1, y1)` of the world's live and dying cells.
fn live_box(world: &World) -> Option<(u32, u32, u32, u32)> {
    world
        .occupied_box()
        .map(|(x, y, w, h)| (x, y, x + w - 1, y + h - 1))
}

impl Pattern {
    /// The bounding box of the world's live cells (0×0 with no cells for an empty world),
    /// with the world's rule, for saving what is on screen.
    pub fn from_world(world: &World) -> Pattern {
        let Some((x0, y0, x1, y1)) = live_box(world) else {
            return Pattern {
                rule: Some(world.rule()),
                ..Pattern::default()
            };
        };
        Pattern::from_region(world, x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// The whole world as a file keeps it: [`Pattern::from_world`] plus the world's size and
    /// topology as a bounded grid, its generation, and the box's position relative to the
    /// world's centre (Golly's origin of a bounded grid), so that golab and Golly reopen the
    /// cells where they were. A growing dead-border world (Golly's unbounded Larger than
    /// Life) is saved as Golly saves it: no grid, the box at its plane position.
    pub fn of_world(world: &World) -> Pattern {
        let mut pattern = Pattern::from_world(world);
        let unbounded = world.grows && world.topology == crate::world::Topology::DeadBorder;
        pattern.grid = (!unbounded).then_some(Grid {
            width: world.width(),
            height: world.height(),
            topology: world.topology,
        });
        pattern.generation = (world.generation > 0).then_some(world.generation);
        if let Some((x0, y0, _, _)) = live_box(world) {
            let origin = if unbounded {
                world.plane_origin()
            } else {
                (
                    -i64::from(world.width() / 2),
                    -i64::from(world.height() / 2),
                )
            };
            pattern.position = Some((i64::from(x0) + origin.0, i64::from(y0) + origin.1));
        }
        pattern
    }

    /// The `w × h` region with top-left `(x, y)`, clipped to the world (no wrapping), with the
    /// world's rule: the box keeps the region's size, dead margins included, for selections.
    pub fn from_region(world: &World, x: u32, y: u32, w: u32, h: u32) -> Pattern {
        let x0 = x.min(world.width());
        let y0 = y.min(world.height());
        let x1 = (u64::from(x) + u64::from(w)).min(u64::from(world.width())) as u32;
        let y1 = (u64::from(y) + u64::from(h)).min(u64::from(world.height())) as u32;
        let width = world.width() as usize;
        let row = |wy: u32| &world.ages()[wy as usize * width..][x0 as usize..x1 as usize];
        // Counting first costs a fast pass; growing a vector of tens of millions of cells
        // by doubling costs more (the kernel zeroes every page it touches).
        let count: usize = (y0..y1)
            .map(|wy| row(wy).iter().filter(|a| **a > 0).count())
            .sum();
        let mut cells = Vec::with_capacity(count);
        for wy in y0..y1 {
            for (i, _) in row(wy).iter().enumerate().filter(|(_, a)| **a > 0) {
                cells.push((i as u32, wy - y0));
            }
        }
        let mut dying = Vec::new();
        if !world.dying().is_empty() {
            for wy in y0..y1 {
                let row = &world.dying()[wy as usize * width..][x0 as usize..x1 as usize];
                for (i, &d) in row.iter().enumerate().filter(|(_, d)| **d > 0) {
                    dying.push((i as u32, wy - y0, d));
                }
            }
        }
        Pattern {
            rule: Some(world.rule()),
            width: x1 - x0,
            height: y1 - y0,
            cells,
            dying,
            ..Pattern::default()
        }
    }
}
